/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall argument decoding into strace's notation: strings cut at -s with C escapes, flag
 * sets as A|B, structs as {field=value, ...}, errors as "-1 ENOENT (No such file or
 * directory)". Decoders take the tracee's registers (from PTRACE_GET_SYSCALL_INFO) and read
 * its memory (process_vm_readv); they never print: text goes into a growable buffer.
 */
#ifndef PTK_SOURCE_PTRACE_DECODE_H
#define PTK_SOURCE_PTRACE_DECODE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"
#include "source/ptrace/ptrace.h"

struct ptk_sbuf {
	char *p;
	size_t len, cap;
};

void ptk_sb_reset(struct ptk_sbuf *sb);
void ptk_sb_free(struct ptk_sbuf *sb);
void ptk_sb_puts(struct ptk_sbuf *sb, const char *s);
void ptk_sb_putn(struct ptk_sbuf *sb, const char *s, size_t n);
void ptk_sb_printf(struct ptk_sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A set of descriptors (-e read=, -e write=): 0..65535 one by one, higher ones by `high`. */
#define PTK_FDSET_MAX 65536
struct ptk_fdset {
	u64 bits[PTK_FDSET_MAX / 64];
	bool high;
};

/* Whether fd is in set (false for a negative fd). */
bool ptk_fdset_has(const struct ptk_fdset *set, int fd);

struct ptk_decopt {
	int strsize; /* -s: bytes of a buffer or string shown (default 32) */
	int acol; /* -a: column of the return value (default 40) */
	int xstr; /* -x: 1 strings with a non-ASCII byte in hex, -xx: 2 every string in hex */
	bool verbose; /* -v: whole structs, environment arrays */
	bool fdpath; /* -y: descriptors as 3</path> */
	struct ptk_fdset rdump, wdump; /* -e read=, -e write=: hex dumps of the data */
};

/*
 * Quote len bytes as strace does: "..." with \n \t \r \v \f \" \\ escapes, other
 * non-printable bytes as octal (\0, \33, \177); more appends the "..." marker. xstr as in
 * struct ptk_decopt (0: escapes as above).
 */
void ptk_dec_quote_x(struct ptk_sbuf *sb, const unsigned char *s, size_t len, bool more, int xstr);
/* ptk_dec_quote_x() without -x. */
void ptk_dec_quote(struct ptk_sbuf *sb, const unsigned char *s, size_t len, bool more);

/*
 * strace's -e read= / -e write= dump of len bytes: lines of " | OFFSET  16 hex bytes  ASCII |",
 * the offset 5 hex digits wide (more when len needs them).
 */
void ptk_dec_hexdump(struct ptk_sbuf *sb, const unsigned char *p, size_t len);

/*
 * The dumps -e read= / -e write= ask for, after the line of t's syscall at its exit (rval as
 * for ptk_dec_exit): the data written at entry and the data read.
 */
void ptk_dec_dumpio(struct ptk_sbuf *sb, const struct ptk_decopt *o, struct ptk_tcb *t, s64 rval,
		    bool is_error);

/*
 * Whether t's syscall at entry names one of the n paths (-P): a file name argument equal to one
 * of them, or a descriptor argument whose /proc/PID/fd link is one of them.
 */
bool ptk_dec_touches(struct ptk_tcb *t, char *const *paths, int n);

/*
 * Decode the start of a syscall line at its entry: "name(arg1, arg2" up to (not including)
 * the first argument only known at exit. Returns the index of that argument (nargs when
 * every argument is printed), to pass to ptk_dec_exit().
 */
int ptk_dec_entry(struct ptk_sbuf *sb, const struct ptk_decopt *o, struct ptk_tcb *t);

/* In ptk_dec_entry()'s result: the argument's entry part is printed, its exit part is not. */
#define PTK_DEC_CONT 0x100

/*
 * Decode the rest at exit: arguments from index from, ") ", spaces up to column 40 (col0 is
 * the column the line was at when sb started), and "= value" with the error name and
 * message for a failure (rval = -errno when is_error).
 */
void ptk_dec_exit(struct ptk_sbuf *sb, const struct ptk_decopt *o, struct ptk_tcb *t, int from,
		  s64 rval, bool is_error, size_t col0);

/* Pad with spaces to column acol (strace's return-value column, -a): col0 + what sb got
 * since offset start is the current column. */
void ptk_dec_pad(struct ptk_sbuf *sb, size_t col0, size_t start, int acol);

/* The name of syscall nr as strace prints it ("syscall_0x1c3" when unassigned). */
const char *ptk_dec_name(int nr, char *buf, size_t size);

/* "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=12, ...}" for a signal-delivery-stop. */
void ptk_dec_siginfo(struct ptk_sbuf *sb, const siginfo_t *si);

/*
 * What memory argument i of sc points to, for a tracer that cannot read it when it decodes
 * (strace --bpf reads it in the kernel at the entry and exit): none, a string, size bytes or
 * the length in argument lenarg (6: the return value) at entry, at exit, or both.
 */
enum { PTK_DEC_MEM_NONE, PTK_DEC_MEM_STR, PTK_DEC_MEM_IN, PTK_DEC_MEM_OUT, PTK_DEC_MEM_INOUT };
struct ptk_dec_mem {
	int when;
	int lenarg; /* 0..5, 6 = the return value, -1 = size */
	size_t size;
};
struct ptk_syscall;
struct ptk_dec_mem ptk_dec_arg_mem(const struct ptk_syscall *sc, int i);

/* The path a tracee's descriptor refers to (/proc/PID/fd/N), or -errno. */
int ptk_dec_fdpath(pid_t pid, int fd, char *buf, size_t size);

#endif
