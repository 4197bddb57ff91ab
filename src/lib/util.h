/* SPDX-License-Identifier: GPL-2.0 */
/* Small shared utilities: allocation, file reading, number parsing, time. */
#ifndef PTK_LIB_UTIL_H
#define PTK_LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>
#include <sys/types.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Allocation that aborts with a message on failure (ENOMEM is not a runtime condition we
 * can report usefully from deep inside a reader). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/*
 * Raise the soft limit of open files (RLIMIT_NOFILE) to the hard one, for the readers that keep
 * a descriptor open per process or cgroup. Returns the soft limit in force afterwards, 0 when
 * it cannot be read.
 */
u64 ptk_nofile_raise(void);

/*
 * Read a whole file into buf (NUL-terminated, at most size-1 bytes).
 * @dirfd: AT_FDCWD or a directory fd; @path relative to it.
 * Returns the byte count, or -errno (-ENOENT, -EACCES, ...). Never exits or prints.
 */
ssize_t ptk_read_file_at(int dirfd, const char *path, char *buf, size_t size);
static inline ssize_t ptk_read_file(const char *path, char *buf, size_t size)
{
	return ptk_read_file_at(-100 /* AT_FDCWD */, path, buf, size);
}

/*
 * procps's uptime text (sprint_uptime), as uptime and top print it after the clock: "up 3
 * days,  2:03,  1 user, " (days when any, "H:MM" or "M min", the users when users >= 0).
 */
void ptk_fmt_uptime(double up_s, int users, char *buf, size_t size);

/* Read fd to its end into *p (malloc'd or NULL, grown as needed; *cap its size),
 * NUL-terminated. Returns the byte count or -errno. */
ssize_t ptk_read_fd_grow(int fd, char **p, size_t *cap);

/* Read a whole file of any size into a malloc'd buffer. *len gets the byte count.
 * Returns the buffer, or NULL with errno set. */
char *ptk_slurp(const char *path, size_t *len);

/* Write buf to path (created 0644, truncated). Returns 0 or -errno. */
int ptk_write_file(const char *path, const char *buf, size_t len);
/* mkdir -p. Returns 0 or -errno. */
int ptk_mkdir_p(const char *path, unsigned mode);

/* Parse an unsigned decimal at p (leading blanks skipped). Unlike strtoull a sign is not
 * accepted ("-5" is not 2^64-5) and overflow is an error: on failure *end == p. For /proc
 * fields, where garbage must give an error, never a wrapped number. */
u64 ptk_strtou64(const char *p, const char **end);

/* Strict unsigned/signed/float parsing of a whole string: 0 or -EINVAL/-ERANGE. */
int ptk_parse_u64(const char *s, u64 *out);
int ptk_parse_int(const char *s, int *out);
/* s is one or more decimal digits and nothing else. */
bool ptk_is_digits(const char *s);
/*
 * Append the ids of a list separated by any of seps ("12,34") to *ids (realloc'd), *n
 * counting them. Returns 0, or -EINVAL at the first token that is not a positive integer
 * (copied into bad when given); the ids before it stay appended.
 */
int ptk_parse_id_list(const char *arg, const char *seps, int **ids, int *n, char *bad,
		      size_t bsize);
int ptk_parse_double(const char *s, double *out);

/* Skip to the next whitespace-separated token; returns pointer after it, token in *tok
 * (not NUL-terminated; length in *len). Returns NULL at end of line/string. */
const char *ptk_next_tok(const char *p, const char **tok, size_t *len);

/* Logged-in users as uptime and top count them: utmp USER_PROCESS entries with a name. */
int ptk_count_users(void);

/* CLOCK_MONOTONIC in ns. */
u64 ptk_now_ns(void);
/* CPU time (user+sys) of this process, in ns (getrusage RUSAGE_SELF). */
u64 ptk_self_cpu_ns(void);

/* Sleep until the absolute CLOCK_MONOTONIC time deadline_ns, or until *stop becomes set
 * (signals interrupt the sleep). Returns 0, or -EINTR when *stop was set. */
int ptk_sleep_until(u64 deadline_ns, volatile int *stop);

/* Parse a CPU list such as "0-3,5,7-8" (sysfs cpulist format). Sets bits in mask
 * (mask has nbits bits). Returns the highest CPU number + 1 seen, or -EINVAL. */
int ptk_parse_cpulist(const char *s, bool *mask, int nbits);

/* Format an error message into err[errsz] and return rc: a reader's or a loader's failure
 * that its caller prints (the -errno or usage code it returns is rc). */
int ptk_fail(char *err, size_t errsz, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A growing text buffer: ptk_strbuf_addf appends (aborts on ENOMEM like xrealloc). */
struct ptk_strbuf {
	char *p;
	size_t len, cap;
};
void ptk_strbuf_addf(struct ptk_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Write b's text to DIR/REL (parent directories created) and empty b. 0 or -errno. */
int ptk_strbuf_write(struct ptk_strbuf *b, const char *dir, const char *rel);

/*
 * A file the user asked for (a core, an SVG, a profile), written whole or not at all: it is
 * an unnamed O_TMPFILE in the target's directory until ptk_outfile_commit gives it its name
 * (replacing a file there), so a SIGKILL or a failure leaves nothing under the final name,
 * and with O_TMPFILE nothing at all. Where the filesystem has no O_TMPFILE, a hidden
 * ".NAME.ptk-XXXXXX" beside it, removed on failure. A path that is there and not a regular
 * file (/dev/null, a FIFO, a terminal) is written in place: renaming over it would replace
 * the device node with a regular file.
 */
struct ptk_outfile {
	int fd; /* write here */
	bool direct; /* path itself is written (not a regular file): nothing to name */
	char path[4096];
	char tmp[4096]; /* the named temporary, "" with O_TMPFILE */
};
/* Open o for path with mode (as open(2)'s). 0 or -errno. */
int ptk_outfile_open(struct ptk_outfile *o, const char *path, unsigned mode);
/* Name the finished file path (the fd stays open: the caller closes it). 0 or -errno, and the
 * temporary is gone. */
int ptk_outfile_commit(struct ptk_outfile *o);
/* Drop an unfinished file (the fd stays open: the caller closes it). */
void ptk_outfile_abort(struct ptk_outfile *o);

/* Human-readable size: value in bytes -> "1.5Gi" (procps free -h style). */
void ptk_human_bytes(u64 bytes, char *buf, size_t size, bool si);

/* Print a one-line error "ptk <cmd>: msg" to stderr. */
void ptk_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ptk_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern const char *ptk_progname; /* "ptk vmstat" etc., set by main */

#endif
