// SPDX-License-Identifier: GPL-2.0
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utmpx.h>

const char *ptk_progname = "ptk";

static void oom(void)
{
	fputs("ptk: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		oom();
	return p;
}

u64 ptk_nofile_raise(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur;
}

/* Read fd to its end into *p of *cap bytes, NUL-terminated; grow: realloc *p as needed
 * (else stop at *cap - 1 bytes). Returns the byte count or -errno. */
static ssize_t read_fd(int fd, char **p, size_t *cap, bool grow)
{
	size_t off = 0;

	for (;;) {
		if (off + 1 >= *cap) {
			if (!grow)
				break;
			*cap = *cap ? *cap * 2 : 4096;
			*p = xrealloc(*p, *cap);
		}
		ssize_t n = read(fd, *p + off, *cap - 1 - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		off += n;
	}
	(*p)[off] = '\0';
	return off;
}

ssize_t ptk_read_fd_grow(int fd, char **p, size_t *cap)
{
	return read_fd(fd, p, cap, true);
}

ssize_t ptk_read_file_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read_fd(fd, &buf, &size, false);
	close(fd);
	return n;
}

char *ptk_slurp(const char *path, size_t *len)
{
	size_t cap = 8192;
	char *buf;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	n = read_fd(fd, &buf, &cap, true);
	close(fd);
	if (n < 0) {
		free(buf);
		errno = (int)-n;
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

int ptk_write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t off = 0;

	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		off += n;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}

int ptk_mkdir_p(const char *path, unsigned mode)
{
	char tmp[PATH_MAX];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, n + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

u64 ptk_strtou64(const char *p, const char **end)
{
	const char *q = p;
	u64 v = 0;

	while (*q == ' ' || *q == '\t')
		q++;
	if (*q < '0' || *q > '9') {
		*end = p;
		return 0;
	}
	for (; *q >= '0' && *q <= '9'; q++) {
		unsigned d = *q - '0';
		if (v > (~0ull - d) / 10) {
			*end = p; /* overflow */
			return 0;
		}
		v = v * 10 + d;
	}
	*end = q;
	return v;
}

int ptk_parse_u64(const char *s, u64 *out)
{
	char *end;
	unsigned long long v;

	/* strtoull skips blanks and accepts a sign (" -1" would wrap): only digits here */
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -errno;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

void ptk_fmt_uptime(double up_s, int users, char *buf, size_t size)
{
	u64 s = (u64)up_s, days = s / 86400, hrs = s % 86400 / 3600, mins = s % 3600 / 60;
	int n = snprintf(buf, size, "up ");

	if (days && n < (int)size)
		n += snprintf(buf + n, size - n, "%" PRIu64 " day%s, ", days, days > 1 ? "s" : "");
	if (n < (int)size) {
		if (hrs)
			n += snprintf(buf + n, size - n, "%2" PRIu64 ":%02" PRIu64 ", ", hrs, mins);
		else
			n += snprintf(buf + n, size - n, "%" PRIu64 " min, ", mins);
	}
	if (users >= 0 && n < (int)size)
		snprintf(buf + n, size - n, " %d user%s, ", users, users > 1 ? "s" : "");
}

bool ptk_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int ptk_parse_id_list(const char *arg, const char *seps, int **ids, int *n, char *bad, size_t bsize)
{
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0;

	for (char *tok = strtok_r(dup, seps, &save); tok; tok = strtok_r(NULL, seps, &save)) {
		int id;
		if (ptk_parse_int(tok, &id) || id <= 0) {
			if (bad)
				snprintf(bad, bsize, "%s", tok);
			r = -EINVAL;
			break;
		}
		*ids = xrealloc(*ids, (size_t)(*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = id;
	}
	free(dup);
	return r;
}

int ptk_parse_int(const char *s, int *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno)
		return -errno;
	if (end == s || *end)
		return -EINVAL;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

int ptk_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	/* no leading blanks, no hexadecimal ("0x10" is not 16 seconds) */
	if (!s || !*s || isspace((unsigned char)*s) || strpbrk(s, "xX"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno)
		return -errno;
	if (*end || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

const char *ptk_next_tok(const char *p, const char **tok, size_t *len)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return NULL;
	*tok = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	*len = p - *tok;
	return p;
}

int ptk_count_users(void)
{
	struct utmpx *u;
	int n = 0;

	setutxent();
	while ((u = getutxent()))
		if (u->ut_type == USER_PROCESS && u->ut_user[0])
			n++;
	endutxent();
	return n;
}

u64 ptk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

u64 ptk_self_cpu_ns(void)
{
	struct timespec ts;

	/* CLOCK_PROCESS_CPUTIME_ID is user+sys of all threads, with ns resolution. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int ptk_sleep_until(u64 deadline_ns, volatile int *stop)
{
	struct timespec ts = { .tv_sec = deadline_ns / 1000000000ull,
			       .tv_nsec = deadline_ns % 1000000000ull };

	for (;;) {
		if (stop && *stop)
			return -EINTR;
		int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r == 0)
			return (stop && *stop) ? -EINTR : 0;
		if (r != EINTR)
			return -r;
	}
}

int ptk_parse_cpulist(const char *s, bool *mask, int nbits)
{
	int hi = 0;
	const char *p = s;

	while (*p && *p != '\n') {
		char *end;
		long a, b;

		/* digits only (strtol would skip blanks and take a sign); CPU numbers fit an int */
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		a = strtol(p, &end, 10);
		if (errno || a >= INT_MAX)
			return -EINVAL;
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtol(p, &end, 10);
			if (errno || b >= INT_MAX || b < a)
				return -EINVAL;
			p = end;
		}
		for (long i = a; i <= b && i < nbits; i++)
			mask[i] = true;
		if (b + 1 > hi)
			hi = b + 1;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return hi;
}

void ptk_human_bytes(u64 bytes, char *buf, size_t size, bool si)
{
	/*
	 * procps-ng free -h (free.c scale_size): the shortest unit whose text fits the column,
	 * 4 characters (SI) or 5 with the "i" (binary). Bytes while "NB" fits in 4; then per unit
	 * one decimal if it fits, else the integer part (truncated, not rounded) if it fits.
	 * So 15.7Gi prints "15Gi", 9.96Gi "9Gi" ("10.0Gi" is too wide), 1000Ki "1.0Mi".
	 */
	static const char unit[] = "BKMGTPE";
	const double base = si ? 1000.0 : 1024.0;
	const int width = si ? 4 : 5;
	const char *bin = si ? "" : "i";
	char tmp[48];
	double div = 1.0;

	if (snprintf(tmp, sizeof(tmp), "%" PRIu64 "B", bytes) <= 4)
		goto out;
	for (int i = 1; unit[i]; i++) {
		div *= base;
		double v = bytes / div;
		/* procps rounds the one-decimal form from a float */
		if (snprintf(tmp, sizeof(tmp), "%.1f%c%s", (double)(float)v, unit[i], bin) <= width)
			goto out;
		if (snprintf(tmp, sizeof(tmp), "%" PRIu64 "%c%s", (u64)v, unit[i], bin) <= width)
			goto out;
	}
out:
	snprintf(buf, size, "%s", tmp);
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", ptk_progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int ptk_fail(char *err, size_t errsz, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return rc;
}

void ptk_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void ptk_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void ptk_strbuf_addf(struct ptk_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n >= 0 && b->p && b->len + n < b->cap) {
			b->len += n;
			return;
		}
		b->cap = MAX(b->cap * 2, b->len + n + 4096);
		b->p = xrealloc(b->p, b->cap);
	}
}

int ptk_strbuf_write(struct ptk_strbuf *b, const char *dir, const char *rel)
{
	char path[PATH_MAX];
	int r;

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	r = ptk_write_file(path, b->p ? b->p : "", b->len);
	if (r == -ENOENT) {
		char *slash = strrchr(path, '/');
		*slash = '\0';
		if ((r = ptk_mkdir_p(path, 0755)))
			return r;
		*slash = '/';
		r = ptk_write_file(path, b->p ? b->p : "", b->len);
	}
	b->len = 0;
	return r;
}

/* "dir/.name.ptk-XXXXXX" for path "dir/name", with a fresh suffix each call */
static void outfile_tmpname(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path + 1) : 0;
	static unsigned seq;

	snprintf(out, size, "%.*s.%s.ptk-%06x", dl, path, slash ? slash + 1 : path,
		 (unsigned)((ptk_now_ns() >> 10) ^ ((unsigned)getpid() << 8) ^ seq++) & 0xffffff);
}

int ptk_outfile_open(struct ptk_outfile *o, const char *path, unsigned mode)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (strlen(path) + 24 >= sizeof(o->path))
		return -ENAMETOOLONG;
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->tmp[0] = '\0';
	o->direct = false;
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0)
			return -errno;
		o->direct = true;
		return 0;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	if (o->fd >= 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	for (int i = 0; i < 16; i++) {
		outfile_tmpname(path, o->tmp, sizeof(o->tmp));
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	o->tmp[0] = '\0';
	return -errno;
}

int ptk_outfile_commit(struct ptk_outfile *o)
{
	if (o->direct)
		return 0;
	if (!o->tmp[0]) {
		/* link the unnamed file under a temporary name, then rename it over the
		 * target (linkat cannot replace) */
		char proc[64];
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
		for (int i = 0;; i++) {
			outfile_tmpname(o->path, o->tmp, sizeof(o->tmp));
			if (!linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW))
				break;
			if (errno != EEXIST || i == 15) {
				int e = -errno;
				o->tmp[0] = '\0';
				return e;
			}
		}
	}
	if (rename(o->tmp, o->path)) {
		int e = -errno;
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return e;
	}
	o->tmp[0] = '\0';
	return 0;
}

void ptk_outfile_abort(struct ptk_outfile *o)
{
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}
