// SPDX-License-Identifier: GPL-2.0
#include "source/ptrace/decode.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/sysinfo.h>
#include <sys/epoll.h>
#include <sys/utsname.h>
#include <linux/stat.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/errnoname.h"
#include "source/ptrace/syscalls.h"
#include "source/ptrace/xlat.h"

/* ---- buffer ----------------------------------------------------------------------------- */

static void sb_grow(struct ptk_sbuf *sb, size_t add)
{
	if (sb->len + add + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < sb->len + add + 1)
		cap *= 2;
	sb->p = xrealloc(sb->p, cap);
	sb->cap = cap;
}

void ptk_sb_reset(struct ptk_sbuf *sb)
{
	sb->len = 0;
	if (sb->p)
		sb->p[0] = 0;
}

void ptk_sb_free(struct ptk_sbuf *sb)
{
	free(sb->p);
	sb->p = NULL;
	sb->len = sb->cap = 0;
}

void ptk_sb_putn(struct ptk_sbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->p + sb->len, s, n);
	sb->len += n;
	sb->p[sb->len] = 0;
}

void ptk_sb_puts(struct ptk_sbuf *sb, const char *s)
{
	ptk_sb_putn(sb, s, strlen(s));
}

void ptk_sb_printf(struct ptk_sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	sb_grow(sb, 64);
	va_start(ap, fmt);
	n = vsnprintf(sb->p + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		sb_grow(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->p + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

bool ptk_fdset_has(const struct ptk_fdset *set, int fd)
{
	if (fd < 0)
		return false;
	if (fd >= PTK_FDSET_MAX)
		return set->high;
	return set->bits[fd / 64] >> (fd % 64) & 1;
}

/* -x: a byte other than printable ASCII and \t \n \v \f \r puts the whole string in hex */
static bool needs_hex(const unsigned char *s, size_t len, int xstr)
{
	if (xstr >= 2)
		return true;
	if (xstr < 1)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] > 0x7e || (s[i] < ' ' && (s[i] < '\t' || s[i] > '\r')))
			return true;
	return false;
}

void ptk_dec_quote_x(struct ptk_sbuf *sb, const unsigned char *s, size_t len, bool more, int xstr)
{
	static const char hex[] = "0123456789abcdef";
	bool allhex = needs_hex(s, len, xstr);

	sb_grow(sb, len * 4 + 8);
	char *o = sb->p + sb->len;

	*o++ = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		if (allhex) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
			continue;
		}
		switch (c) {
		case '"':
			*o++ = '\\';
			*o++ = '"';
			break;
		case '\\':
			*o++ = '\\';
			*o++ = '\\';
			break;
		case '\n':
			*o++ = '\\';
			*o++ = 'n';
			break;
		case '\t':
			*o++ = '\\';
			*o++ = 't';
			break;
		case '\r':
			*o++ = '\\';
			*o++ = 'r';
			break;
		case '\v':
			*o++ = '\\';
			*o++ = 'v';
			break;
		case '\f':
			*o++ = '\\';
			*o++ = 'f';
			break;
		default:
			if (c >= ' ' && c < 0x7f) {
				*o++ = (char)c;
			} else {
				/* shortest octal, unless an octal digit follows */
				bool full = i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '7';
				*o++ = '\\';
				if (full || c >= 0100) {
					*o++ = (char)('0' + (c >> 6));
					*o++ = (char)('0' + ((c >> 3) & 7));
				} else if (c >= 010) {
					*o++ = (char)('0' + ((c >> 3) & 7));
				}
				*o++ = (char)('0' + (c & 7));
			}
		}
	}
	*o++ = '"';
	if (more) {
		memcpy(o, "...", 3);
		o += 3;
	}
	*o = 0;
	sb->len = (size_t)(o - sb->p);
}

void ptk_dec_quote(struct ptk_sbuf *sb, const unsigned char *s, size_t len, bool more)
{
	ptk_dec_quote_x(sb, s, len, more, 0);
}

/* Lines of the dump from offset off of a dump of total bytes (the offset width is total's). */
static void hexdump_part(struct ptk_sbuf *sb, const unsigned char *p, size_t len, size_t off0,
			 size_t total)
{
	int w = 5;

	while (w < 16 && total > (1ULL << (4 * w)))
		w++;
	for (size_t off = 0; off < len; off += 16) {
		ptk_sb_printf(sb, " | %0*zx ", w, off0 + off);
		for (size_t i = 0; i < 16; i++) {
			if (i == 8)
				ptk_sb_puts(sb, " ");
			if (off + i < len)
				ptk_sb_printf(sb, " %02x", p[off + i]);
			else
				ptk_sb_puts(sb, "   ");
		}
		ptk_sb_puts(sb, "  ");
		for (size_t i = 0; i < 16; i++) {
			unsigned char c = off + i < len ? p[off + i] : ' ';
			ptk_sb_putn(sb, c >= ' ' && c < 0x7f ? (const char *)&c : ".", 1);
		}
		ptk_sb_puts(sb, " |\n");
	}
}

void ptk_dec_hexdump(struct ptk_sbuf *sb, const unsigned char *p, size_t len)
{
	hexdump_part(sb, p, len, 0, len);
}

/* ---- helpers ---------------------------------------------------------------------------- */

struct dec {
	struct ptk_sbuf *sb;
	const struct ptk_decopt *o;
	struct ptk_tcb *t;
	const struct ptk_syscall *sc;
	s64 rval;
	bool err;
	bool exiting; /* decoding at the exit stop */
};

static void put_ptr(struct ptk_sbuf *sb, u64 p)
{
	if (p)
		ptk_sb_printf(sb, "%#" PRIx64, p);
	else
		ptk_sb_puts(sb, "NULL");
}

int ptk_dec_fdpath(pid_t pid, int fd, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static void put_fd(struct dec *d, int fd)
{
	char p[4096];

	ptk_sb_printf(d->sb, "%d", fd);
	if (d->o->fdpath && fd >= 0 && !ptk_dec_fdpath(d->t->pid, fd, p, sizeof(p)))
		ptk_sb_printf(d->sb, "<%s>", p);
}

static void put_flags(struct ptk_sbuf *sb, const struct ptk_xlat *x, u64 v, const char *zero)
{
	char buf[512];
	ptk_sb_puts(sb, ptk_xlat_flags(x, v, zero, buf, sizeof(buf)));
}

static void put_xval(struct ptk_sbuf *sb, const struct ptk_xlat *x, u64 v, bool dec)
{
	const char *n = ptk_xlat_name(x, v);
	if (n)
		ptk_sb_puts(sb, n);
	else if (dec)
		ptk_sb_printf(sb, "%d", (int)v);
	else
		ptk_sb_printf(sb, "%#" PRIx64, v);
}

/* A value of table x: its name, else "0x10 \/\* X_??? \*\/" (decimal when dec). */
static void put_xv(struct ptk_sbuf *sb, const struct ptk_xlat *x, u64 v, bool dec)
{
	const char *n = ptk_xlat_name(x, v);

	if (n)
		ptk_sb_puts(sb, n);
	else if (dec)
		ptk_sb_printf(sb, "%" PRId64 " /* %s */", (s64)v, x->unknown);
	else
		ptk_sb_printf(sb, "%#" PRIx64 " /* %s */", v, x->unknown);
}

/* Flags of table x: "A|B|0x40", zero as zero, no known bit at all as "0x40 \/\* X_??? \*\/". */
static void put_fx(struct ptk_sbuf *sb, const struct ptk_xlat *x, u64 v, const char *zero)
{
	char buf[1024];
	bool any = false;

	for (size_t i = 0; i < x->n && !any; i++)
		any = x->e[i].val && (v & x->e[i].val) == x->e[i].val;
	if (!v)
		ptk_sb_puts(sb, zero ? zero : "0");
	else if (!any)
		ptk_sb_printf(sb, "%#" PRIx64 " /* %s */", v, x->unknown);
	else
		ptk_sb_puts(sb, ptk_xlat_flags(x, v, zero, buf, sizeof(buf)));
}

/* A NUL-terminated string of the tracee; max bytes shown. */
static void put_str(struct dec *d, u64 addr, size_t max)
{
	char stackbuf[4097], *buf = stackbuf;
	ssize_t n;

	if (!addr) {
		ptk_sb_puts(d->sb, "NULL");
		return;
	}
	if (max + 1 > sizeof(stackbuf))
		buf = xmalloc(max + 1);
	n = ptk_tracee_readstr(d->t, addr, buf, max);
	if (n < 0)
		put_ptr(d->sb, addr);
	else
		ptk_dec_quote_x(d->sb, (unsigned char *)buf, (size_t)MIN((size_t)n, max),
				(size_t)n > max, d->o->xstr);
	if (buf != stackbuf)
		free(buf);
}

/* A buffer of len bytes of the tracee, cut at -s. */
static void put_buf(struct dec *d, u64 addr, u64 len)
{
	size_t show = (size_t)MIN(len, (u64)d->o->strsize);
	unsigned char stackbuf[4096], *buf = stackbuf;
	ssize_t n;

	if (!addr) {
		ptk_sb_puts(d->sb, "NULL");
		return;
	}
	if (show > sizeof(stackbuf))
		buf = xmalloc(show);
	n = ptk_tracee_read(d->t, addr, buf, show);
	if (n < 0 || (size_t)n < show)
		put_ptr(d->sb, addr);
	else
		ptk_dec_quote_x(d->sb, buf, show, len > show, d->o->xstr);
	if (buf != stackbuf)
		free(buf);
}

static bool read_obj(struct dec *d, u64 addr, void *obj, size_t len)
{
	return addr && ptk_tracee_read(d->t, addr, obj, len) == (ssize_t)len;
}

static void put_sigset_val(struct ptk_sbuf *sb, u64 set)
{
	int bits = __builtin_popcountll(set);
	bool inv = bits > 32;

	if (inv) {
		ptk_sb_putn(sb, "~", 1);
		set = ~set;
	}
	ptk_sb_putn(sb, "[", 1);
	bool first = true;
	for (int s = 1; s <= 64; s++) {
		if (!(set & (1ULL << (s - 1))))
			continue;
		const char *n = ptk_signal_abbrev(s);
		if (n)
			ptk_sb_printf(sb, "%s%s", first ? "" : " ", n);
		else
			ptk_sb_printf(sb, "%s%d", first ? "" : " ", s);
		first = false;
	}
	ptk_sb_putn(sb, "]", 1);
}

static void put_sigset(struct dec *d, u64 addr)
{
	u64 set = 0;
	if (!addr)
		ptk_sb_puts(d->sb, "NULL");
	else if (!read_obj(d, addr, &set, sizeof(set)))
		put_ptr(d->sb, addr);
	else
		put_sigset_val(d->sb, set);
}

static void put_sig(struct ptk_sbuf *sb, int sig)
{
	const char *n = ptk_signal_name(sig);
	if (n)
		ptk_sb_puts(sb, n);
	else
		ptk_sb_printf(sb, "%d", sig);
}

static void put_timespec(struct dec *d, u64 addr)
{
	struct timespec ts;
	if (!addr)
		ptk_sb_puts(d->sb, "NULL");
	else if (!read_obj(d, addr, &ts, sizeof(ts)))
		put_ptr(d->sb, addr);
	else
		ptk_sb_printf(d->sb, "{tv_sec=%lld, tv_nsec=%llu}", (long long)ts.tv_sec,
			      (unsigned long long)ts.tv_nsec);
}

/* a umode_t (16 bits, include/linux/types.h) in octal */
static void put_mode(struct ptk_sbuf *sb, u64 mode)
{
	ptk_sb_printf(sb, "%#03o", (unsigned)mode & 0177777);
}

static void put_dev(struct ptk_sbuf *sb, dev_t dev)
{
	unsigned ma = major(dev), mi = minor(dev);
	ptk_sb_puts(sb, "makedev(");
	ptk_sb_printf(sb, ma ? "%#x, " : "0, ", ma);
	ptk_sb_printf(sb, mi ? "%#x)" : "0)", mi);
}

static const char *file_type(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG:
		return "S_IFREG";
	case S_IFDIR:
		return "S_IFDIR";
	case S_IFCHR:
		return "S_IFCHR";
	case S_IFBLK:
		return "S_IFBLK";
	case S_IFIFO:
		return "S_IFIFO";
	case S_IFLNK:
		return "S_IFLNK";
	case S_IFSOCK:
		return "S_IFSOCK";
	}
	return NULL;
}

static void put_stat_mode(struct ptk_sbuf *sb, mode_t m)
{
	const char *ft = file_type(m);
	if (ft)
		ptk_sb_printf(sb, "%s|%#03o", ft, m & ~S_IFMT);
	else
		ptk_sb_printf(sb, "%#o", m);
}

/* " \/\* 2017-04-16T16:05:06.123456789+0000 \*\/": a time as strace comments it (local time) */
static void put_time_comment(struct ptk_sbuf *sb, s64 sec, u64 nsec)
{
	char d[64], z[16];
	struct tm tm;
	time_t t = (time_t)sec;

	if ((!sec && !nsec) || !localtime_r(&t, &tm) || !strftime(d, sizeof(d), "%FT%T", &tm) ||
	    !strftime(z, sizeof(z), "%z", &tm))
		return;
	ptk_sb_printf(sb, " /* %s.%09u%s */", d, (unsigned)nsec, z);
}

/* " \/\* 2026-12-01T22:30:39+0000 \*\/": whole seconds */
static void put_time_comment_s(struct ptk_sbuf *sb, s64 sec)
{
	char d[64];
	struct tm tm;
	time_t t = (time_t)sec;

	if (localtime_r(&t, &tm) && strftime(d, sizeof(d), "%FT%T%z", &tm))
		ptk_sb_printf(sb, " /* %s */", d);
}

static void put_time_field(struct ptk_sbuf *sb, const char *name, struct timespec ts)
{
	ptk_sb_printf(sb, "%s=%lld", name, (long long)ts.tv_sec);
	put_time_comment(sb, ts.tv_sec, (u64)ts.tv_nsec);
	ptk_sb_printf(sb, ", %s_nsec=%ld", name, (long)ts.tv_nsec);
}

static void put_stat(struct dec *d, u64 addr)
{
	struct stat st;
	struct ptk_sbuf *sb = d->sb;
	bool dev;

	if (!read_obj(d, addr, &st, sizeof(st))) {
		put_ptr(sb, addr);
		return;
	}
	dev = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
	ptk_sb_puts(sb, "{");
	if (d->o->verbose) {
		ptk_sb_puts(sb, "st_dev=");
		put_dev(sb, st.st_dev);
		ptk_sb_printf(sb, ", st_ino=%llu, st_mode=", (unsigned long long)st.st_ino);
		put_stat_mode(sb, st.st_mode);
		ptk_sb_printf(
			sb, ", st_nlink=%lu, st_uid=%u, st_gid=%u, st_blksize=%ld, st_blocks=%lld",
			(unsigned long)st.st_nlink, st.st_uid, st.st_gid, (long)st.st_blksize,
			(long long)st.st_blocks);
		if (dev) {
			ptk_sb_puts(sb, ", st_rdev=");
			put_dev(sb, st.st_rdev);
		} else {
			ptk_sb_printf(sb, ", st_size=%lld", (long long)st.st_size);
		}
		ptk_sb_puts(sb, ", ");
		put_time_field(sb, "st_atime", st.st_atim);
		ptk_sb_puts(sb, ", ");
		put_time_field(sb, "st_mtime", st.st_mtim);
		ptk_sb_puts(sb, ", ");
		put_time_field(sb, "st_ctime", st.st_ctim);
		ptk_sb_puts(sb, "}");
		return;
	}
	ptk_sb_puts(sb, "st_mode=");
	put_stat_mode(sb, st.st_mode);
	if (dev) {
		ptk_sb_puts(sb, ", st_rdev=");
		put_dev(sb, st.st_rdev);
	} else {
		ptk_sb_printf(sb, ", st_size=%lld", (long long)st.st_size);
	}
	ptk_sb_puts(sb, ", ...}");
}

static void put_sockaddr(struct dec *d, u64 addr, u64 len)
{
	struct sockaddr_storage ss;
	struct ptk_sbuf *sb = d->sb;
	char ip[INET6_ADDRSTRLEN];

	if (!addr) {
		ptk_sb_puts(sb, "NULL");
		return;
	}
	if (len > sizeof(ss))
		len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	if (len < 2 || ptk_tracee_read(d->t, addr, &ss, (size_t)len) != (ssize_t)len) {
		put_ptr(sb, addr);
		return;
	}
	ptk_sb_puts(sb, "{sa_family=");
	put_xval(sb, &ptk_x_af, ss.ss_family, true);
	switch (ss.ss_family) {
	case AF_UNIX: {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;
		size_t plen = len - offsetof(struct sockaddr_un, sun_path);
		if (!plen)
			break;
		ptk_sb_puts(sb, ", sun_path=");
		if (un->sun_path[0] == 0) { /* abstract */
			ptk_sb_puts(sb, "@");
			ptk_dec_quote(sb, (unsigned char *)un->sun_path + 1, plen - 1, false);
		} else {
			ptk_dec_quote(sb, (unsigned char *)un->sun_path,
				      strnlen(un->sun_path, plen), false);
		}
		break;
	}
	case AF_INET: {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
		ptk_sb_printf(sb, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")",
			      ntohs(in->sin_port), ip);
		break;
	}
	case AF_INET6: {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
		ptk_sb_printf(sb,
			      ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), "
			      "inet_pton(AF_INET6, \"%s\", &sin6_addr), sin6_scope_id=%u",
			      ntohs(in6->sin6_port), ntohl(in6->sin6_flowinfo), ip,
			      in6->sin6_scope_id);
		break;
	}
	case AF_NETLINK: {
		struct sockaddr_nl *nl = (struct sockaddr_nl *)&ss;
		ptk_sb_printf(sb, ", nl_pid=%u, nl_groups=%08x", nl->nl_pid, nl->nl_groups);
		break;
	}
	default:
		ptk_sb_puts(sb, ", sa_data=");
		ptk_dec_quote(sb, (unsigned char *)&ss + 2, (size_t)len - 2, false);
	}
	ptk_sb_puts(sb, "}");
}

static void put_argv(struct dec *d, u64 addr, bool env)
{
	struct ptk_sbuf *sb = d->sb;
	u64 p;
	int n = 0;

	if (!addr) {
		ptk_sb_puts(sb, "NULL");
		return;
	}
	if (env && !d->o->verbose) {
		if (!read_obj(d, addr, &p, sizeof(p))) { /* unreadable: no count to tell */
			put_ptr(sb, addr);
			return;
		}
		while (n < 100000 && read_obj(d, addr + 8 * (u64)n, &p, sizeof(p)) && p)
			n++;
		ptk_sb_printf(sb, "%#" PRIx64 " /* %d var%s */", addr, n, n == 1 ? "" : "s");
		return;
	}
	ptk_sb_puts(sb, "[");
	for (;; n++) {
		if (!read_obj(d, addr + 8 * (u64)n, &p, sizeof(p))) {
			if (!n) {
				sb->len--;
				put_ptr(sb, addr);
				return;
			}
			break;
		}
		if (!p)
			break;
		if (n >= d->o->strsize) {
			ptk_sb_puts(sb, ", ...");
			break;
		}
		if (n)
			ptk_sb_puts(sb, ", ");
		put_str(d, p, (size_t)d->o->strsize);
	}
	ptk_sb_puts(sb, "]");
}

static void put_wstatus(struct dec *d, u64 addr)
{
	struct ptk_sbuf *sb = d->sb;
	int s;

	if (!addr) {
		ptk_sb_puts(sb, "NULL");
		return;
	}
	if (d->err || d->rval == 0 || !read_obj(d, addr, &s, sizeof(s))) {
		put_ptr(sb, addr);
		return;
	}
	if (WIFEXITED(s))
		ptk_sb_printf(sb, "[{WIFEXITED(s) && WEXITSTATUS(s) == %d}]", WEXITSTATUS(s));
	else if (WIFSIGNALED(s)) {
		ptk_sb_puts(sb, "[{WIFSIGNALED(s) && WTERMSIG(s) == ");
		put_sig(sb, WTERMSIG(s));
		ptk_sb_puts(sb, WCOREDUMP(s) ? " && WCOREDUMP(s)}]" : "}]");
	} else if (s == 0xffff) {
		ptk_sb_puts(sb, "[{WIFCONTINUED(s)}]");
	} else if (WIFSTOPPED(s)) {
		ptk_sb_puts(sb, "[{WIFSTOPPED(s) && WSTOPSIG(s) == ");
		put_sig(sb, WSTOPSIG(s));
		ptk_sb_puts(sb, "}]");
	} else {
		ptk_sb_printf(sb, "[%#x]", s);
	}
}

static void put_sigaction(struct dec *d, u64 addr)
{
	struct {
		u64 handler, flags, restorer, mask;
	} sa;
	struct ptk_sbuf *sb = d->sb;

	if (!addr) {
		ptk_sb_puts(sb, "NULL");
		return;
	}
	if (!read_obj(d, addr, &sa, sizeof(sa))) {
		put_ptr(sb, addr);
		return;
	}
	ptk_sb_puts(sb, "{sa_handler=");
	if (sa.handler == 0)
		ptk_sb_puts(sb, "SIG_DFL");
	else if (sa.handler == 1)
		ptk_sb_puts(sb, "SIG_IGN");
	else
		ptk_sb_printf(sb, "%#" PRIx64, sa.handler);
	ptk_sb_puts(sb, ", sa_mask=");
	put_sigset_val(sb, sa.mask);
	ptk_sb_puts(sb, ", sa_flags=");
	put_flags(sb, &ptk_x_sa_flags, sa.flags, "0");
	if (sa.flags & 0x04000000) {
		ptk_sb_puts(sb, ", sa_restorer=");
		put_ptr(sb, sa.restorer);
	}
	ptk_sb_puts(sb, "}");
}

/* ---- arrays and structs ------------------------------------------------------------------ */

/* One element of an array at elem (esize bytes); false stops the array. */
typedef bool (*elem_fn)(struct dec *d, const void *elem, void *arg);

/*
 * strace's array notation: NULL, [] for none, the elements up to -s of them ("..." after),
 * the address when the first is unreadable and "... \/\* 0xADDR \*\/" when a later one is.
 */
static void put_array(struct dec *d, u64 addr, u64 n, size_t esize, elem_fn fn, void *arg)
{
	struct ptk_sbuf *sb = d->sb;
	unsigned char elem[256];
	u64 max = d->o->verbose ? n : MIN(n, (u64)d->o->strsize);

	if (!addr) {
		ptk_sb_puts(sb, "NULL");
		return;
	}
	if (!n) {
		ptk_sb_puts(sb, "[]");
		return;
	}
	if (n * esize / esize != n || addr + n * esize <= addr) {
		put_ptr(sb, addr);
		return;
	}
	for (u64 i = 0; i < n; i++) {
		u64 cur = addr + i * esize;
		if (i)
			ptk_sb_puts(sb, ", ");
		if (ptk_tracee_read(d->t, cur, elem, esize) != (ssize_t)esize) {
			if (!i) {
				put_ptr(sb, cur);
				return;
			}
			ptk_sb_printf(sb, "... /* %#" PRIx64 " */", cur);
			break;
		}
		if (!i)
			ptk_sb_puts(sb, "[");
		if (i >= max) {
			ptk_sb_puts(sb, "...");
			break;
		}
		if (!fn(d, elem, arg))
			break;
	}
	ptk_sb_puts(sb, "]");
}

struct iov_ctx {
	s64 data; /* bytes of data still to show (-1: each buffer whole) */
	bool addrs; /* the buffers by address only (the call failed) */
};

static bool elem_iov(struct dec *d, const void *e, void *arg)
{
	struct iov_ctx *c = arg;
	const u64 *v = e; /* iov_base, iov_len */
	u64 show = c->data < 0 ? v[1] : MIN(v[1], (u64)c->data);

	ptk_sb_puts(d->sb, "{iov_base=");
	if (c->addrs)
		put_ptr(d->sb, v[0]);
	else
		put_buf(d, v[0], show);
	ptk_sb_printf(d->sb, ", iov_len=%" PRIu64 "}", v[1]);
	if (c->data >= 0)
		c->data -= (s64)show;
	return true;
}

static void put_iov(struct dec *d, u64 addr, u64 cnt, s64 data)
{
	struct iov_ctx c = { data, false };

	put_array(d, addr, cnt, 16, elem_iov, &c);
}

/* An out-argument: its address when the call failed, NULL, or an unreadable address. */
static bool out_skip(struct dec *d, u64 addr, void *obj, size_t len)
{
	if (!addr) {
		ptk_sb_puts(d->sb, "NULL");
		return true;
	}
	if (d->err || !read_obj(d, addr, obj, len)) {
		put_ptr(d->sb, addr);
		return true;
	}
	return false;
}

/* An in-argument: NULL or an unreadable address. */
static bool in_skip(struct dec *d, u64 addr, void *obj, size_t len)
{
	if (!addr) {
		ptk_sb_puts(d->sb, "NULL");
		return true;
	}
	if (!read_obj(d, addr, obj, len)) {
		put_ptr(d->sb, addr);
		return true;
	}
	return false;
}

static void put_tv(struct ptk_sbuf *sb, s64 sec, u64 usec)
{
	ptk_sb_printf(sb, "{tv_sec=%" PRId64 ", tv_usec=%" PRIu64 "}", sec, usec);
}

static void put_ts(struct ptk_sbuf *sb, s64 sec, s64 nsec)
{
	ptk_sb_printf(sb, "{tv_sec=%" PRId64 ", tv_nsec=%" PRIu64 "}", sec, (u64)nsec);
}

/* a timeval at addr, in (entry) or out */
static void put_tv_at(struct dec *d, u64 addr, bool out)
{
	s64 tv[2];

	if (out ? out_skip(d, addr, tv, sizeof(tv)) : in_skip(d, addr, tv, sizeof(tv)))
		return;
	put_tv(d->sb, tv[0], (u64)tv[1]);
}

static void put_itv_at(struct dec *d, u64 addr, bool out)
{
	s64 v[4];

	if (out ? out_skip(d, addr, v, sizeof(v)) : in_skip(d, addr, v, sizeof(v)))
		return;
	ptk_sb_puts(d->sb, "{it_interval=");
	put_tv(d->sb, v[0], (u64)v[1]);
	ptk_sb_puts(d->sb, ", it_value=");
	put_tv(d->sb, v[2], (u64)v[3]);
	ptk_sb_puts(d->sb, "}");
}

static void put_itspec_at(struct dec *d, u64 addr, bool out)
{
	s64 v[4];

	if (out ? out_skip(d, addr, v, sizeof(v)) : in_skip(d, addr, v, sizeof(v)))
		return;
	ptk_sb_puts(d->sb, "{it_interval=");
	put_ts(d->sb, v[0], v[1]);
	ptk_sb_puts(d->sb, ", it_value=");
	put_ts(d->sb, v[2], v[3]);
	ptk_sb_puts(d->sb, "}");
}

/* rlim_t as strace: RLIM64_INFINITY, N*1024 */
static void put_rlim(struct ptk_sbuf *sb, u64 v)
{
	if (v == UINT64_MAX)
		ptk_sb_puts(sb, "RLIM64_INFINITY");
	else if (v > 1024 && v % 1024 == 0)
		ptk_sb_printf(sb, "%" PRIu64 "*1024", v / 1024);
	else
		ptk_sb_printf(sb, "%" PRIu64, v);
}

static void put_rlimit_at(struct dec *d, u64 addr, bool out)
{
	u64 r[2];

	if (out ? out_skip(d, addr, r, sizeof(r)) : in_skip(d, addr, r, sizeof(r)))
		return;
	ptk_sb_puts(d->sb, "{rlim_cur=");
	put_rlim(d->sb, r[0]);
	ptk_sb_puts(d->sb, ", rlim_max=");
	put_rlim(d->sb, r[1]);
	ptk_sb_puts(d->sb, "}");
}

static void put_rusage_at(struct dec *d, u64 addr)
{
	struct {
		s64 ut[2], st[2];
		s64 f[14];
	} ru;
	static const char *const names[] = { "maxrss", "ixrss",	   "idrss",   "isrss",	 "minflt",
					     "majflt", "nswap",	   "inblock", "oublock", "msgsnd",
					     "msgrcv", "nsignals", "nvcsw",   "nivcsw" };

	if (out_skip(d, addr, &ru, sizeof(ru)))
		return;
	ptk_sb_puts(d->sb, "{ru_utime=");
	put_tv(d->sb, ru.ut[0], (u64)ru.ut[1]);
	ptk_sb_puts(d->sb, ", ru_stime=");
	put_tv(d->sb, ru.st[0], (u64)ru.st[1]);
	if (!d->o->verbose) {
		ptk_sb_puts(d->sb, ", ...}");
		return;
	}
	for (int i = 0; i < 14; i++)
		ptk_sb_printf(d->sb, ", ru_%s=%" PRId64, names[i], ru.f[i]);
	ptk_sb_puts(d->sb, "}");
}

static void put_utsname_at(struct dec *d, u64 addr)
{
	struct utsname u;
	static const char *const names[] = { "sysname", "nodename", "release",
					     "version", "machine",  "domainname" };
	const char *f[6];

	if (out_skip(d, addr, &u, sizeof(u)))
		return;
	f[0] = u.sysname, f[1] = u.nodename, f[2] = u.release, f[3] = u.version;
	f[4] = u.machine, f[5] = u.domainname;
	ptk_sb_puts(d->sb, "{");
	for (int i = 0; i < 6; i++) {
		if (i == 2 && !d->o->verbose) {
			ptk_sb_puts(d->sb, ", ...");
			break;
		}
		ptk_sb_printf(d->sb, "%s%s=", i ? ", " : "", names[i]);
		ptk_dec_quote_x(d->sb, (const unsigned char *)f[i], strnlen(f[i], 65), false,
				d->o->xstr);
	}
	ptk_sb_puts(d->sb, "}");
}

static void put_sysinfo_at(struct dec *d, u64 addr)
{
	struct sysinfo si;

	if (out_skip(d, addr, &si, sizeof(si)))
		return;
	ptk_sb_printf(d->sb,
		      "{uptime=%ld, loads=[%lu, %lu, %lu], totalram=%lu, freeram=%lu, "
		      "sharedram=%lu, bufferram=%lu, totalswap=%lu, freeswap=%lu, procs=%u, "
		      "totalhigh=%lu, freehigh=%lu, mem_unit=%u}",
		      si.uptime, si.loads[0], si.loads[1], si.loads[2], si.totalram, si.freeram,
		      si.sharedram, si.bufferram, si.totalswap, si.freeswap, (unsigned)si.procs,
		      si.totalhigh, si.freehigh, si.mem_unit);
}

/* clock ticks with their seconds: "31 \/\* 0.31 s \*\/" (USER_HZ from sysconf) */
static void put_clock_t(struct ptk_sbuf *sb, u64 v)
{
	static long hz;
	int prec = 0;

	if (!hz)
		hz = sysconf(_SC_CLK_TCK);
	for (long k = hz - 1; k > 0 && prec < 9; k /= 10)
		prec++;
	if (hz > 0 && v) {
		u64 frac = (u64)((double)(v % (u64)hz) / (double)hz * 1e9 + 0.5);
		for (int i = prec; i < 9; i++)
			frac = (frac + 5) / 10;
		ptk_sb_printf(sb, "%" PRIu64 " /* %" PRIu64 ".%0*" PRIu64 " s */", v, v / (u64)hz,
			      prec, frac);
	} else {
		ptk_sb_printf(sb, "%" PRIu64, v);
	}
}

static void put_tms_at(struct dec *d, u64 addr)
{
	u64 t[4];
	static const char *const names[] = { "tms_utime", "tms_stime", "tms_cutime", "tms_cstime" };

	if (out_skip(d, addr, t, sizeof(t)))
		return;
	for (int i = 0; i < 4; i++) {
		ptk_sb_printf(d->sb, "%s%s=", i ? ", " : "{", names[i]);
		put_clock_t(d->sb, t[i]);
	}
	ptk_sb_puts(d->sb, "}");
}

static void put_stack_at(struct dec *d, u64 addr, bool out)
{
	struct {
		u64 sp;
		int flags;
		u64 size;
	} ss;

	if (out ? out_skip(d, addr, &ss, sizeof(ss)) : in_skip(d, addr, &ss, sizeof(ss)))
		return;
	ptk_sb_puts(d->sb, "{ss_sp=");
	put_ptr(d->sb, ss.sp);
	ptk_sb_puts(d->sb, ", ss_flags=");
	put_fx(d->sb, &ptk_x_ss_flags, (u32)ss.flags, NULL);
	ptk_sb_printf(d->sb, ", ss_size=%" PRIu64 "}", ss.size);
}

/* a sigset_t of size bytes at addr: shown when 1 <= size (min) <= 8 */
static void put_sigset_sz(struct dec *d, u64 addr, u64 size, u64 min, bool out)
{
	u64 set = 0;

	if (size < min || size > 8) {
		put_ptr(d->sb, addr);
		return;
	}
	if (out ? out_skip(d, addr, &set, (size_t)size) : in_skip(d, addr, &set, (size_t)size))
		return;
	put_sigset_val(d->sb, set);
}

/* a cpu_set_t of size bytes: the CPUs set, as [0 1] */
static void put_cpuset_at(struct dec *d, u64 addr, u64 size, bool out)
{
	unsigned char buf[1024];
	bool first = true;

	if (size > sizeof(buf)) {
		put_ptr(d->sb, addr);
		return;
	}
	if (out ? out_skip(d, addr, buf, (size_t)size) : in_skip(d, addr, buf, (size_t)size))
		return;
	ptk_sb_puts(d->sb, "[");
	for (u64 i = 0; i < size * 8; i++) {
		if (!(buf[i / 8] >> (i % 8) & 1))
			continue;
		ptk_sb_printf(d->sb, "%s%" PRIu64, first ? "" : " ", i);
		first = false;
	}
	ptk_sb_puts(d->sb, "]");
}

static bool elem_mincore(struct dec *d, const void *e, void *arg)
{
	(void)arg;
	ptk_sb_printf(d->sb, "%u", *(const unsigned char *)e & 1);
	return true;
}

static bool elem_epev(struct dec *d, const void *e, void *arg)
{
	struct __attribute__((packed)) {
		u32 events;
		u64 data;
	} ev;

	(void)arg;
	memcpy(&ev, e, sizeof(ev));
	ptk_sb_puts(d->sb, "{events=");
	put_fx(d->sb, &ptk_x_epoll_events, ev.events, NULL);
	ptk_sb_printf(d->sb, ", data={u32=%u, u64=%" PRIu64 "}}", (u32)ev.data, ev.data);
	return true;
}

static bool elem_pollfd(struct dec *d, const void *e, void *arg)
{
	const struct {
		int fd;
		short events, revents;
	} *p = e;

	(void)arg;
	ptk_sb_puts(d->sb, "{fd=");
	put_fd(d, p->fd);
	if (p->fd >= 0) {
		ptk_sb_puts(d->sb, ", events=");
		put_fx(d->sb, &ptk_x_pollev, (unsigned short)p->events, NULL);
	}
	ptk_sb_puts(d->sb, "}");
	return true;
}

/* poll's and ppoll's result: " (Timeout)", " ([{fd=0, revents=POLLIN}])" */
static void poll_annot(struct dec *d)
{
	struct ptk_sbuf *sb = d->sb;
	unsigned n = (unsigned)d->t->args[1], printed = 0;
	u64 addr = d->t->args[0];
	bool open = false;

	if (d->rval == 0) {
		ptk_sb_puts(sb, " (Timeout)");
		return;
	}
	if (!addr || !n)
		return;
	for (unsigned i = 0; i < n; i++) {
		struct {
			int fd;
			short events, revents;
		} p;
		if (ptk_tracee_read(d->t, addr + 8 * (u64)i, &p, sizeof(p)) != sizeof(p)) {
			ptk_sb_printf(sb, "%s%#" PRIx64, open ? ", " : " ([", addr + 8 * (u64)i);
			open = true;
			break;
		}
		if (!p.revents)
			continue;
		ptk_sb_puts(sb, open ? ", " : " ([");
		open = true;
		if (!d->o->verbose && printed >= (unsigned)d->o->strsize) {
			ptk_sb_puts(sb, "...");
			break;
		}
		ptk_sb_printf(sb, "{fd=%d, revents=", p.fd);
		put_fx(sb, &ptk_x_pollev, (unsigned short)p.revents, NULL);
		ptk_sb_puts(sb, "}");
		printed++;
	}
	if (open)
		ptk_sb_puts(sb, "]");
	if (d->t->nr == __NR_ppoll && d->t->args[2]) { /* the timeout left */
		s64 v[2];
		if (read_obj(d, d->t->args[2], v, sizeof(v))) {
			ptk_sb_puts(sb, open ? ", left " : " (left ");
			put_ts(sb, v[0], v[1]);
			open = true;
		}
	}
	if (open)
		ptk_sb_puts(sb, ")");
}

/* an fd_set of nfds bits at addr: [3 4] */
static void put_fdset_val(struct ptk_sbuf *sb, const u64 *set, int nfds)
{
	bool first = true;

	ptk_sb_puts(sb, "[");
	for (int fd = 0; fd < nfds; fd++) {
		if (!(set[fd / 64] >> (fd % 64) & 1))
			continue;
		ptk_sb_printf(sb, "%s%d", first ? "" : " ", fd);
		first = false;
	}
	ptk_sb_puts(sb, "]");
}

static void put_fdset_at(struct dec *d, u64 addr)
{
	int nfds = (int)d->t->args[0];
	u64 set[1024 / 64];
	size_t len;

	if (!addr || nfds < 0) {
		if (!addr)
			ptk_sb_puts(d->sb, "NULL");
		else
			put_ptr(d->sb, addr);
		return;
	}
	nfds = MIN(nfds, 1024);
	len = (size_t)(nfds + 63) / 64 * 8;
	if (len && ptk_tracee_read(d->t, addr, set, len) != (ssize_t)len) {
		put_ptr(d->sb, addr);
		return;
	}
	put_fdset_val(d->sb, set, nfds);
}

/* select's and pselect6's result: " (Timeout)", " (in [3], out [4], left {...})" */
static void select_annot(struct dec *d, bool ts)
{
	static const char *const names[] = { "in", "out", "except" };
	struct ptk_sbuf *sb = d->sb;
	int nfds = MIN((int)d->t->args[0], 1024);
	bool any = false;

	if (d->rval == 0) {
		ptk_sb_puts(sb, " (Timeout)");
		return;
	}
	for (int k = 0; k < 3 && nfds > 0; k++) {
		u64 set[1024 / 64];
		size_t len = (size_t)(nfds + 63) / 64 * 8;
		bool has = false;
		if (!d->t->args[k + 1] ||
		    ptk_tracee_read(d->t, d->t->args[k + 1], set, len) != (ssize_t)len)
			continue;
		for (int fd = 0; fd < nfds && !has; fd++)
			has = set[fd / 64] >> (fd % 64) & 1;
		if (!has)
			continue;
		ptk_sb_printf(sb, "%s%s ", any ? ", " : " (", names[k]);
		put_fdset_val(sb, set, nfds);
		any = true;
	}
	if (d->t->args[4]) {
		s64 v[2];
		if (read_obj(d, d->t->args[4], v, sizeof(v))) {
			ptk_sb_puts(sb, any ? ", left " : " (left ");
			if (ts)
				put_ts(sb, v[0], v[1]);
			else
				put_tv(sb, v[0], (u64)v[1]);
			any = true;
		}
	}
	/* a successful select always has its note, "()" when the sets came back empty */
	ptk_sb_puts(sb, any ? ")" : " ()");
}

/* struct siginfo at addr, as in a signal-delivery line */
static void put_siginfo_at(struct dec *d, u64 addr, bool out)
{
	siginfo_t si;

	if (out ? out_skip(d, addr, &si, sizeof(si)) : in_skip(d, addr, &si, sizeof(si)))
		return;
	if (!si.si_signo && out) /* waitid with WNOHANG: nothing was there */
		ptk_sb_puts(d->sb, "{}");
	else
		ptk_dec_siginfo(d->sb, &si);
}

static void put_sigevent_at(struct dec *d, u64 addr)
{
	struct {
		u64 value;
		int signo, notify;
		int tid;
	} ev;

	if (in_skip(d, addr, &ev, sizeof(ev)))
		return;
	ptk_sb_puts(d->sb, "{");
	if (ev.value)
		ptk_sb_printf(d->sb, "sigev_value={sival_int=%d, sival_ptr=%#" PRIx64 "}, ",
			      (int)ev.value, ev.value);
	ptk_sb_puts(d->sb, "sigev_signo=");
	if (ev.notify == SIGEV_SIGNAL || ev.notify == SIGEV_THREAD || ev.notify == SIGEV_THREAD_ID)
		put_sig(d->sb, ev.signo);
	else
		ptk_sb_printf(d->sb, "%u", (unsigned)ev.signo);
	ptk_sb_puts(d->sb, ", sigev_notify=");
	put_xv(d->sb, &ptk_x_sigev_notify, (u32)ev.notify, false);
	if (ev.notify == SIGEV_THREAD_ID) {
		ptk_sb_printf(d->sb, ", sigev_notify_thread_id=%d", ev.tid);
	} else if (ev.notify == SIGEV_THREAD) {
		u64 th[2]; /* function, attributes */
		if (read_obj(d, addr + 16, th, sizeof(th))) {
			ptk_sb_puts(d->sb, ", sigev_notify_function=");
			put_ptr(d->sb, th[0]);
			ptk_sb_puts(d->sb, ", sigev_notify_attributes=");
			put_ptr(d->sb, th[1]);
		}
	}
	ptk_sb_puts(d->sb, "}");
}

/* struct msghdr: name, iov (data up to len when out), control length and flags */
static void put_msghdr_at(struct dec *d, u64 addr, bool out)
{
	struct {
		u64 name;
		u32 namelen, pad;
		u64 iov, iovlen, control, controllen;
		int flags;
	} m;
	struct ptk_sbuf *sb = d->sb;
	struct iov_ctx c = { out ? d->rval : -1, false };

	if (in_skip(d, addr, &m, sizeof(m)))
		return;
	ptk_sb_puts(sb, "{msg_name=");
	if (m.name && m.namelen)
		put_sockaddr(d, m.name, m.namelen);
	else
		put_ptr(sb, m.name);
	ptk_sb_printf(sb, ", msg_namelen=%u, msg_iov=", m.namelen);
	put_array(d, m.iov, m.iovlen, 16, elem_iov, &c);
	ptk_sb_printf(sb,
		      ", msg_iovlen=%" PRIu64 ", msg_controllen=%" PRIu64 ", msg_flags=", m.iovlen,
		      m.controllen);
	put_fx(sb, &ptk_x_msg_flags, (u32)m.flags, NULL);
	ptk_sb_puts(sb, "}");
}

/* sendfile's offset: [in] => [out] */
static void put_iooff(struct dec *d, u64 addr, bool at_exit)
{
	s64 off;

	if (!at_exit) {
		if (!in_skip(d, addr, &off, sizeof(off)))
			ptk_sb_printf(d->sb, "[%" PRIu64 "]", (u64)off);
		return;
	}
	if (!d->err && d->rval && addr && read_obj(d, addr, &off, sizeof(off)))
		ptk_sb_printf(d->sb, " => [%" PRIu64 "]", (u64)off);
}

static void put_statx_at(struct dec *d, u64 addr)
{
	struct statx sx;
	struct ptk_sbuf *sb = d->sb;

	if (out_skip(d, addr, &sx, sizeof(sx)))
		return;
	ptk_sb_puts(sb, "{stx_mask=");
	put_fx(sb, &ptk_x_statx_mask, sx.stx_mask, NULL);
	ptk_sb_printf(sb, ", stx_blksize=%u, stx_attributes=", sx.stx_blksize);
	put_fx(sb, &ptk_x_statx_attrs, sx.stx_attributes, NULL);
	if (!d->o->verbose) {
		ptk_sb_puts(sb, ", ...}");
		return;
	}
	ptk_sb_printf(sb, ", stx_nlink=%u, stx_uid=%u, stx_gid=%u, stx_mode=", sx.stx_nlink,
		      sx.stx_uid, sx.stx_gid);
	put_stat_mode(sb, sx.stx_mode);
	ptk_sb_printf(sb, ", stx_ino=%llu, stx_size=%llu, stx_blocks=%llu, stx_attributes_mask=",
		      (unsigned long long)sx.stx_ino, (unsigned long long)sx.stx_size,
		      (unsigned long long)sx.stx_blocks);
	put_fx(sb, &ptk_x_statx_attrs, sx.stx_attributes_mask, NULL);
	static const char *const tn[] = { "stx_atime", "stx_btime", "stx_ctime", "stx_mtime" };
	const struct statx_timestamp *ts[] = { &sx.stx_atime, &sx.stx_btime, &sx.stx_ctime,
					       &sx.stx_mtime };
	static const unsigned tm[] = { STATX_ATIME, STATX_BTIME, STATX_CTIME, STATX_MTIME };
	for (int i = 0; i < 4; i++) {
		if (!(sx.stx_mask & tm[i])) /* only the times the kernel filled */
			continue;
		ptk_sb_printf(sb, ", %s=", tn[i]);
		ptk_sb_printf(sb, "{tv_sec=%lld, tv_nsec=%u}", (long long)ts[i]->tv_sec,
			      ts[i]->tv_nsec);
		put_time_comment(sb, ts[i]->tv_sec, ts[i]->tv_nsec);
	}
	ptk_sb_printf(sb,
		      ", stx_rdev_major=%u, stx_rdev_minor=%u, stx_dev_major=%u, "
		      "stx_dev_minor=%u, stx_mnt_id=%#llx}",
		      sx.stx_rdev_major, sx.stx_rdev_minor, sx.stx_dev_major, sx.stx_dev_minor,
		      (unsigned long long)sx.stx_mnt_id);
}

/* utimensat's times: [{...} \/\* date \*\/, {...}], UTIME_NOW / UTIME_OMIT by name */
static void put_its2_at(struct dec *d, u64 addr)
{
	s64 ts[4];

	if (in_skip(d, addr, ts, sizeof(ts)))
		return;
	ptk_sb_puts(d->sb, "[");
	for (int i = 0; i < 2; i++) {
		if (i)
			ptk_sb_puts(d->sb, ", ");
		if (ts[2 * i + 1] == UTIME_NOW) {
			ptk_sb_puts(d->sb, "UTIME_NOW");
		} else if (ts[2 * i + 1] == UTIME_OMIT) {
			ptk_sb_puts(d->sb, "UTIME_OMIT");
		} else {
			put_ts(d->sb, ts[2 * i], ts[2 * i + 1]);
			if ((u64)ts[2 * i + 1] < 1000000000)
				put_time_comment(d->sb, ts[2 * i], (u64)ts[2 * i + 1]);
		}
	}
	ptk_sb_puts(d->sb, "]");
}

/* ---- ioctl ---------------------------------------------------------------------------- */

static bool fd_is_tty(struct dec *d, int fd)
{
	char p[256];
	if (ptk_dec_fdpath(d->t->pid, fd, p, sizeof(p)))
		return false;
	return !strncmp(p, "/dev/pts/", 9) || !strncmp(p, "/dev/tty", 8) ||
	       !strcmp(p, "/dev/ptmx") || !strcmp(p, "/dev/console");
}

static bool fd_is_sequencer(struct dec *d, int fd)
{
	char p[256];
	if (ptk_dec_fdpath(d->t->pid, fd, p, sizeof(p)))
		return false;
	return !strncmp(p, "/dev/sequencer", 14) || !strncmp(p, "/dev/music", 10);
}

static void put_ioctl_req(struct dec *d, int fd, unsigned req)
{
	static const char *const tmr[] = { "SNDCTL_TMR_START", "SNDCTL_TMR_STOP",
					   "SNDCTL_TMR_CONTINUE" };
	const char *n;

	/* 'T' 2..4 is TCSETS* on a terminal and SNDCTL_TMR_* on the OSS sequencer */
	if (req >= TCSETS && req <= TCSETSF) {
		n = ptk_xlat_name(&ptk_x_ioctl_tty, req);
		if (fd_is_tty(d, fd))
			ptk_sb_puts(d->sb, n);
		else if (fd_is_sequencer(d, fd))
			ptk_sb_puts(d->sb, tmr[req - TCSETS]);
		else
			ptk_sb_printf(d->sb, "%s or %s", tmr[req - TCSETS], n);
		return;
	}
	if ((n = ptk_xlat_name(&ptk_x_ioctl_tty, req)) ||
	    (n = ptk_xlat_name(&ptk_x_ioctl_misc, req)))
		ptk_sb_puts(d->sb, n);
	else
		ptk_sb_printf(d->sb, "_IOC(%#x, %#x, %#x, %#x)", _IOC_DIR(req), _IOC_TYPE(req),
			      _IOC_NR(req), _IOC_SIZE(req));
}

static bool ioctl_arg_at_exit(unsigned req)
{
	return req == TCGETS || req == TIOCGWINSZ || req == FIONREAD || req == TIOCGPGRP ||
	       req == TIOCOUTQ || req == TIOCGPTN;
}

static const char *speed_name(unsigned c)
{
	static const struct {
		unsigned v;
		const char *n;
	} sp[] = { { B0, "B0" },	   { B50, "B50" },	   { B75, "B75" },
		   { B110, "B110" },	   { B134, "B134" },	   { B150, "B150" },
		   { B200, "B200" },	   { B300, "B300" },	   { B600, "B600" },
		   { B1200, "B1200" },	   { B1800, "B1800" },	   { B2400, "B2400" },
		   { B4800, "B4800" },	   { B9600, "B9600" },	   { B19200, "B19200" },
		   { B38400, "B38400" },   { B57600, "B57600" },   { B115200, "B115200" },
		   { B230400, "B230400" }, { B460800, "B460800" }, { B921600, "B921600" } };
	for (size_t i = 0; i < ARRAY_SIZE(sp); i++)
		if (sp[i].v == (c & CBAUD))
			return sp[i].n;
	return NULL;
}

/* a multi-bit field of a termios word: "NL0" style, named by value */
static void put_tfield(struct ptk_sbuf *sb, unsigned w, unsigned mask, const char *pfx)
{
	unsigned v = w & mask, sh = (unsigned)__builtin_ctz(mask);
	ptk_sb_printf(sb, "%s%u|", pfx, v >> sh);
}

static void put_termios(struct dec *d, u64 addr)
{
	struct {
		unsigned iflag, oflag, cflag, lflag;
		unsigned char line, cc[19];
	} tio;
	struct ptk_sbuf *sb = d->sb;
	const char *sp;

	if (!read_obj(d, addr, &tio, sizeof(tio))) {
		put_ptr(sb, addr);
		return;
	}
	ptk_sb_puts(sb, "{c_iflag=");
	put_flags(sb, &ptk_x_tc_iflag, tio.iflag, "0");
	ptk_sb_puts(sb, ", c_oflag=");
	put_tfield(sb, tio.oflag, NLDLY, "NL");
	put_tfield(sb, tio.oflag, CRDLY, "CR");
	put_tfield(sb, tio.oflag, TABDLY, "TAB");
	put_tfield(sb, tio.oflag, BSDLY, "BS");
	put_tfield(sb, tio.oflag, VTDLY, "VT");
	put_tfield(sb, tio.oflag, FFDLY, "FF");
	put_flags(sb, &ptk_x_tc_oflag,
		  tio.oflag & ~(unsigned)(NLDLY | CRDLY | TABDLY | BSDLY | VTDLY | FFDLY), "0");
	ptk_sb_puts(sb, ", c_cflag=");
	sp = speed_name(tio.cflag);
	if (sp)
		ptk_sb_printf(sb, "%s|", sp);
	ptk_sb_printf(sb, "CS%u", 5 + ((tio.cflag & CSIZE) >> 4));
	if (tio.cflag & ~(unsigned)(CBAUD | CSIZE)) {
		ptk_sb_puts(sb, "|");
		put_flags(sb, &ptk_x_tc_cflag, tio.cflag & ~(unsigned)(CBAUD | CSIZE), "0");
	}
	ptk_sb_puts(sb, ", c_lflag=");
	put_flags(sb, &ptk_x_tc_lflag, tio.lflag, "0");
	if (d->o->verbose) {
		ptk_sb_printf(sb, ", c_line=%u, c_cc=", tio.line);
		ptk_dec_quote(sb, tio.cc, sizeof(tio.cc), false);
		ptk_sb_puts(sb, "}");
	} else {
		ptk_sb_puts(sb, ", ...}");
	}
}

static void put_ioctl_arg(struct dec *d, unsigned req, u64 arg)
{
	struct ptk_sbuf *sb = d->sb;

	switch (req) {
	case TCGETS:
		if (d->err)
			put_ptr(sb, arg);
		else
			put_termios(d, arg);
		return;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		if (fd_is_tty(d, (int)d->t->args[0])) {
			put_termios(d, arg);
			return;
		}
		break;
	case TIOCGWINSZ:
	case TIOCSWINSZ: {
		struct winsize ws;
		if (d->err || !read_obj(d, arg, &ws, sizeof(ws)))
			put_ptr(sb, arg);
		else
			ptk_sb_printf(sb, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, ws_ypixel=%u}",
				      ws.ws_row, ws.ws_col, ws.ws_xpixel, ws.ws_ypixel);
		return;
	}
	case FIONREAD:
	case TIOCGPGRP:
	case TIOCSPGRP:
	case TIOCOUTQ:
	case TIOCGPTN:
	case FIONBIO: {
		int v;
		if (d->err || !read_obj(d, arg, &v, sizeof(v)))
			put_ptr(sb, arg);
		else
			ptk_sb_printf(sb, "[%d]", v);
		return;
	}
	case TCSBRK:
	case TCXONC:
	case TCFLSH:
		ptk_sb_printf(sb, "%d", (int)arg);
		return;
	}
	put_ptr(sb, arg);
	if (!arg) /* strace prints a zero argument as 0, not NULL */
		sb->len -= 4, ptk_sb_puts(sb, "0");
}

/* ---- fcntl ---------------------------------------------------------------------------- */

static bool fcntl_lock_cmd(int cmd)
{
	return cmd == F_GETLK || cmd == F_SETLK || cmd == F_SETLKW || cmd == F_OFD_GETLK ||
	       cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW;
}

/* struct flock (l_pid only where the kernel writes it: the GETLK commands at exit) */
static void put_flock_at(struct dec *d, u64 addr, bool getlk)
{
	struct flock fl;

	if (getlk ? out_skip(d, addr, &fl, sizeof(fl)) : in_skip(d, addr, &fl, sizeof(fl)))
		return;
	ptk_sb_puts(d->sb, "{l_type=");
	put_xv(d->sb, &ptk_x_lock_type, (unsigned short)fl.l_type, false);
	ptk_sb_puts(d->sb, ", l_whence=");
	put_xv(d->sb, &ptk_x_whence, (unsigned short)fl.l_whence, false);
	ptk_sb_printf(d->sb, ", l_start=%lld, l_len=%lld", (long long)fl.l_start,
		      (long long)fl.l_len);
	if (getlk)
		ptk_sb_printf(d->sb, ", l_pid=%d", fl.l_pid);
	ptk_sb_puts(d->sb, "}");
}

static void put_fcntl_arg(struct dec *d, int cmd, u64 arg)
{
	int own[2]; /* struct f_owner_ex */

	if (fcntl_lock_cmd(cmd)) {
		put_flock_at(d, arg, cmd == F_GETLK || cmd == F_OFD_GETLK);
		return;
	}
	if (cmd == F_SETOWN_EX || cmd == F_GETOWN_EX) {
		if (cmd == F_GETOWN_EX ? out_skip(d, arg, own, sizeof(own)) :
					 in_skip(d, arg, own, sizeof(own)))
			return;
		ptk_sb_puts(d->sb, "{type=");
		put_xv(d->sb, &ptk_x_owner_type, (u32)own[0], false);
		ptk_sb_printf(d->sb, ", pid=%d}", own[1]);
		return;
	}
	switch (cmd) {
	case F_SETFD:
		ptk_sb_puts(d->sb, arg & FD_CLOEXEC ? "FD_CLOEXEC" : "0");
		break;
	case F_SETFL: {
		char buf[256];
		ptk_xlat_flags(&ptk_x_open_flags, arg & ~(u64)O_ACCMODE, NULL, buf, sizeof(buf));
		if (arg & ~(u64)O_ACCMODE) {
			if (arg & O_ACCMODE)
				ptk_sb_printf(d->sb, "%s|%s",
					      (arg & O_ACCMODE) == O_WRONLY ? "O_WRONLY" : "O_RDWR",
					      buf);
			else
				ptk_sb_puts(d->sb, buf);
		} else {
			ptk_sb_puts(d->sb, (arg & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
					   (arg & O_ACCMODE) == O_RDWR	 ? "O_RDWR" :
									   "0");
		}
		break;
	}
	case F_NOTIFY:
		put_fx(d->sb, &ptk_x_dn_flags, (u32)arg, NULL);
		break;
	case F_SETLEASE:
		put_xv(d->sb, &ptk_x_lock_type, (u32)arg, false);
		break;
	case F_SETSIG:
		if ((int)arg)
			put_sig(d->sb, (int)arg);
		else
			ptk_sb_puts(d->sb, "0");
		break;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
	case F_SETOWN:
	case F_SETPIPE_SZ:
	case F_ADD_SEALS:
		ptk_sb_printf(d->sb, "%d", (int)arg);
		break;
	default:
		put_ptr(d->sb, arg);
	}
}

static bool fcntl_has_arg(int cmd)
{
	cmd = (int)(unsigned)cmd;
	return !(cmd == F_GETFD || cmd == F_GETFL || cmd == F_GETOWN || cmd == F_GETSIG ||
		 cmd == F_GETLEASE || cmd == F_GETPIPE_SZ || cmd == F_GET_SEALS);
}

/* ---- the generic argument printer --------------------------------------------------------- */

static void put_oflags(struct ptk_sbuf *sb, u64 f)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	char buf[512];

	ptk_sb_puts(sb, acc[f & O_ACCMODE]);
	f &= ~(u64)O_ACCMODE;
	if (f)
		ptk_sb_printf(sb, "|%s",
			      ptk_xlat_flags(&ptk_x_open_flags, f, NULL, buf, sizeof(buf)));
}

/* entry-and-exit arguments: the value passed at entry, " => " the value at exit */
static bool is_inout_arg(int type)
{
	return type == SA_IOOFF;
}

static bool is_exit_arg(const struct dec *d, int type)
{
	switch (type) {
	case SA_OBUF:
	case SA_OBUFS:
	case SA_OIOV:
	case SA_OSIGSET:
	case SA_OSIGACT:
	case SA_OSTAT:
	case SA_OTS:
	case SA_OSA:
	case SA_OSALEN:
	case SA_OWSTATUS:
	case SA_OPIPE:
	case SA_ODENTS:
	case SA_ORLIM:
	case SA_ORUSAGE:
	case SA_OITSPEC:
	case SA_OEPEVS:
	case SA_OSIGSETSZ:
	case SA_OSTATX:
	case SA_OMINCORE:
	case SA_OUTS:
	case SA_OSYSINFO:
	case SA_OTMS:
	case SA_OTV:
	case SA_OITV:
	case SA_OSTK:
	case SA_OSIGINFO:
	case SA_OTIMERID:
	case SA_OCPUSET:
	case SA_OTIME:
	case SA_OMSG:
	case SA_OSOVAL:
		return true;
	case SA_IOARG:
		return ioctl_arg_at_exit((unsigned)d->t->args[1]);
	case SA_FCNTLARG:
		return (int)d->t->args[1] == F_GETLK || (int)d->t->args[1] == F_OFD_GETLK ||
		       (int)d->t->args[1] == F_GETOWN_EX;
	}
	return false;
}

/* The size of a sigset argument i: the first unsigned argument after it */
static u64 size_arg(const struct dec *d, int i)
{
	for (int k = i + 1; k < d->sc->nargs; k++)
		if (d->sc->args[k] == SA_U)
			return d->t->args[k];
	return 0;
}

/* memfd_create's flags: MFD_* and the huge page size as N<<MFD_HUGE_SHIFT (bits 26-31) */
static void put_memfd_flags(struct ptk_sbuf *sb, u32 v)
{
	u32 low = v & ((1u << 26) - 1), huge = v >> 26;

	if (low || !huge)
		put_fx(sb, &ptk_x_memfd_flags, low, NULL);
	if (huge)
		ptk_sb_printf(sb, "%s%u<<MFD_HUGE_SHIFT", low ? "|" : "", huge);
}

/* Print argument i. Returns false when it is omitted altogether (with its comma). */
static bool put_arg(struct dec *d, int i)
{
	struct ptk_sbuf *sb = d->sb;
	const u64 *a = d->t->args;
	u64 v = a[i];

	int type = d->sc->args[i];

	switch (type) {
	case SA_D:
		ptk_sb_printf(sb, "%d", (int)v);
		break;
	case SA_LD:
		ptk_sb_printf(sb, "%lld", (long long)v);
		break;
	case SA_U:
		ptk_sb_printf(sb, "%" PRIu64, v);
		break;
	case SA_X:
		ptk_sb_printf(sb, v ? "%#" PRIx64 : "0", v);
		break;
	case SA_O:
		ptk_sb_printf(sb, "%#o", (unsigned)v);
		break;
	case SA_FD:
		put_fd(d, (int)v);
		break;
	case SA_DFD:
		if ((int)v == AT_FDCWD)
			ptk_sb_puts(sb, "AT_FDCWD");
		else
			put_fd(d, (int)v);
		break;
	case SA_PATH:
		put_str(d, v, 4095); /* PATH_MAX - 1 bytes, "..." when no NUL within PATH_MAX */
		break;
	case SA_STR:
		/* memfd_create's name: at most MFD_NAME_MAX_LEN (249) bytes */
		put_str(d, v,
			d->t->nr == __NR_memfd_create ? MIN(250, (size_t)d->o->strsize) :
							(size_t)d->o->strsize);
		break;
	case SA_IBUF:
		put_buf(d, v, i < 5 ? a[i + 1] : 0);
		break;
	case SA_OBUF:
		if (d->err) {
			put_ptr(sb, v);
		} else if (d->t->nr == __NR_getrandom && v) {
			/* random bytes: strace forces hex */
			unsigned char rb[256];
			size_t show =
				(size_t)MIN((u64)d->rval, MIN((u64)d->o->strsize, sizeof(rb)));
			if (ptk_tracee_read(d->t, v, rb, show) != (ssize_t)show) {
				put_ptr(sb, v);
				break;
			}
			ptk_sb_puts(sb, "\"");
			for (size_t k = 0; k < show; k++)
				ptk_sb_printf(sb, "\\x%02x", rb[k]);
			ptk_sb_puts(sb, (u64)d->rval > show ? "\"..." : "\"");
		} else {
			put_buf(d, v, (u64)d->rval);
		}
		break;
	case SA_OBUFS:
		/* getcwd: a path */
		if (d->err)
			put_ptr(sb, v);
		else
			put_str(d, v, 4095);
		break;
	case SA_IOV:
		put_iov(d, v, i < 5 ? a[i + 1] : 0, -1);
		break;
	case SA_OIOV:
		if (d->err) {
			struct iov_ctx c = { -1, true };
			put_array(d, v, i < 5 ? a[i + 1] : 0, 16, elem_iov, &c);
		} else {
			put_iov(d, v, i < 5 ? a[i + 1] : 0, d->rval);
		}
		break;
	case SA_OFLAGS:
		put_oflags(sb, (u32)v);
		break;
	case SA_OMODE:
		/* the kernel's __O_TMPFILE bit (glibc's also has O_DIRECTORY) */
		if (!(a[i - 1] & (O_CREAT | 020000000)))
			return false;
		put_mode(sb, (u32)v);
		break;
	case SA_MODE:
		put_mode(sb, (u32)v);
		break;
	case SA_OFL:
		put_fx(sb, &ptk_x_open_flags, (u32)v, NULL);
		break;
	case SA_ATFL:
		put_fx(sb, &ptk_x_at_flags, (u32)v, NULL);
		break;
	case SA_ACC:
		put_fx(sb, &ptk_x_access, (u32)v, "F_OK");
		break;
	case SA_PROT:
		put_flags(sb, &ptk_x_prot, v, "PROT_NONE");
		break;
	case SA_MEMFDFL:
		put_memfd_flags(sb, (u32)v);
		break;
	case SA_MREMAP_ADDR:
		if (!(a[3] & 2 /* MREMAP_FIXED */))
			return false;
		put_ptr(sb, v);
		break;
	case SA_MAPFL:
		if (!(v & 0xf)) { /* no sharing type: MAP_FILE (0) */
			ptk_sb_puts(sb, "MAP_FILE");
			if (v)
				ptk_sb_puts(sb, "|");
			if (v)
				put_flags(sb, &ptk_x_map_flags, v, "0");
			break;
		}
		put_xval(sb, &ptk_x_map_type, v & 0xf, false);
		if (v & ~0xfULL) {
			ptk_sb_puts(sb, "|");
			put_flags(sb, &ptk_x_map_flags, v & ~0xfULL, "0");
		}
		break;
	case SA_SIG:
		if ((int)v == 0)
			ptk_sb_puts(sb, "0");
		else
			put_sig(sb, (int)v);
		break;
	case SA_SIGSET:
		put_sigset(d, v);
		break;
	case SA_OSIGSET:
		if (d->err)
			put_ptr(sb, v);
		else
			put_sigset(d, v);
		break;
	case SA_SIGHOW:
		put_xval(sb, &ptk_x_sighow, v, true);
		break;
	case SA_SIGACT:
		put_sigaction(d, v);
		break;
	case SA_OSIGACT:
		if (d->err)
			put_ptr(sb, v);
		else
			put_sigaction(d, v);
		break;
	case SA_IOREQ:
		put_ioctl_req(d, (int)a[0], (unsigned)v);
		break;
	case SA_IOARG:
		put_ioctl_arg(d, (unsigned)a[1], v);
		break;
	case SA_OSTAT:
		if (d->err)
			put_ptr(sb, v);
		else
			put_stat(d, v);
		break;
	case SA_ITS:
		put_timespec(d, v);
		break;
	case SA_OTS:
		/* nanosleep's remainder is written only when interrupted (a restart errno) */
		if (strstr(d->sc->name, "nanosleep") ?
			    !(d->err && -d->rval >= 512 && -d->rval <= 516) ||
				    (d->t->nr == __NR_clock_nanosleep && (a[1] & TIMER_ABSTIME)) :
			    d->err) {
			if (v)
				put_ptr(sb, v);
			else
				ptk_sb_puts(sb, "NULL");
		} else {
			put_timespec(d, v);
		}
		break;
	case SA_ISA:
		put_sockaddr(d, v, i < 5 ? a[i + 1] : 0);
		break;
	case SA_OSA: {
		/* no more than the caller's buffer (its length at entry) is the address */
		int len = 0;
		if (d->err || !v ||
		    (i < 5 && a[i + 1] && !read_obj(d, a[i + 1], &len, sizeof(len))))
			put_ptr(sb, v);
		else
			put_sockaddr(d, v, (u64)MIN((u32)len, (u32)d->t->saved[0]));
		break;
	}
	case SA_OSALEN: {
		int len;
		if (!v)
			ptk_sb_puts(sb, "NULL");
		else if (d->err && d->t->saved[1])
			ptk_sb_printf(sb, "[%d]", (int)d->t->saved[0]);
		else if (d->err || !read_obj(d, v, &len, sizeof(len)))
			put_ptr(sb, v);
		else if ((u32)len != (u32)d->t->saved[0])
			ptk_sb_printf(sb, "[%d => %d]", (int)d->t->saved[0], len);
		else
			ptk_sb_printf(sb, "[%d]", len);
		break;
	}
	case SA_FAM:
		put_xval(sb, &ptk_x_af, v, true);
		break;
	case SA_STYPE:
		put_xval(sb, &ptk_x_sock_type, v & 0xf, true);
		if (v & ~0xfULL) {
			ptk_sb_puts(sb, "|");
			put_flags(sb, &ptk_x_sock_flags, v & ~0xfULL, "0");
		}
		break;
	case SA_SPROTO:
		if (a[0] == AF_INET || a[0] == AF_INET6)
			put_xval(sb, &ptk_x_ipproto, v, true);
		else
			ptk_sb_printf(sb, "%d", (int)v);
		break;
	case SA_SOCKFL:
		put_fx(sb, &ptk_x_sock_flags, (u32)v, NULL);
		break;
	case SA_MSGFL:
		put_fx(sb, &ptk_x_msg_flags, (u32)v, NULL);
		break;
	case SA_CLK:
		put_xv(sb, &ptk_x_clocks, (u32)v, false);
		break;
	case SA_TMFL:
		put_fx(sb, &ptk_x_timer_flags, (u32)v, NULL);
		break;
	case SA_WHENCE:
		put_xv(sb, &ptk_x_whence, (u32)v, false);
		break;
	case SA_CLONEFLAGS:
		put_flags(sb, &ptk_x_clone_flags, v & ~0xffULL, "0");
		break;
	case SA_ARGV:
		put_argv(d, v, false);
		break;
	case SA_ENVP:
		put_argv(d, v, true);
		break;
	case SA_OWSTATUS:
		put_wstatus(d, v);
		break;
	case SA_WOPTS:
		put_fx(sb, &ptk_x_wait_opts, (u32)v, NULL);
		break;
	case SA_OPIPE: {
		int fds[2];
		if (d->err || !read_obj(d, v, fds, sizeof(fds))) {
			put_ptr(sb, v);
		} else {
			ptk_sb_puts(sb, "[");
			put_fd(d, fds[0]);
			ptk_sb_puts(sb, ", ");
			put_fd(d, fds[1]);
			ptk_sb_puts(sb, "]");
		}
		break;
	}
	case SA_FCNTLCMD:
		put_xv(sb, &ptk_x_fcntl_cmd, (u32)v, false);
		break;
	case SA_FCNTLARG:
		if (!fcntl_has_arg((int)a[1]))
			return false;
		put_fcntl_arg(d, (int)a[1], v);
		break;
	case SA_ARCHCODE:
		put_xval(sb, &ptk_x_arch_prctl, v, false);
		break;
	case SA_ODENTS: {
		if (d->err || d->rval < 0) {
			put_ptr(sb, v);
			break;
		}
		size_t len = (size_t)MIN(d->rval, 1 << 20);
		unsigned char *buf = xmalloc(len);
		int n = 0;
		if (ptk_tracee_read(d->t, v, buf, len) == (ssize_t)len) {
			for (size_t off = 0; off + 19 <= len; n++) {
				unsigned short reclen;
				memcpy(&reclen, buf + off + 16, sizeof(reclen));
				if (!reclen)
					break;
				off += reclen;
			}
		}
		free(buf);
		ptk_sb_printf(sb, "%#" PRIx64 " /* %d entries */", v, n);
		break;
	}
	case SA_UI:
		ptk_sb_printf(sb, "%u", (unsigned)v);
		break;
	case SA_XI:
		ptk_sb_printf(sb, (u32)v ? "%#x" : "0", (unsigned)v);
		break;
	case SA_V:
		put_xv(sb, d->sc->xl[i], (u32)v, false);
		break;
	case SA_VD:
		put_xv(sb, d->sc->xl[i], (u64)(s64)(int)v, true);
		break;
	case SA_VL:
		put_xv(sb, d->sc->xl[i], v, false);
		break;
	case SA_F:
	case SA_FX:
		put_fx(sb, d->sc->xl[i], (u32)v, NULL);
		break;
	case SA_FL:
		put_fx(sb, d->sc->xl[i], v, NULL);
		break;
	case SA_IRLIM:
		put_rlimit_at(d, v, false);
		break;
	case SA_ORLIM:
		put_rlimit_at(d, v, true);
		break;
	case SA_ORUSAGE:
		/* wait4 and waitid with WNOHANG and no child ready wrote nothing */
		if (!d->rval && d->t->nr == __NR_wait4 && v)
			put_ptr(sb, v);
		else
			put_rusage_at(d, v);
		break;
	case SA_IITSPEC:
		put_itspec_at(d, v, false);
		break;
	case SA_OITSPEC:
		put_itspec_at(d, v, true);
		break;
	case SA_IEPEV: {
		unsigned char ev[12];
		if ((int)a[1] == EPOLL_CTL_DEL && v) /* not read for a removal */
			put_ptr(sb, v);
		else if (!in_skip(d, v, ev, sizeof(ev)))
			elem_epev(d, ev, NULL);
		break;
	}
	case SA_OEPEVS:
		if (d->err)
			put_ptr(sb, v);
		else
			put_array(d, v, (u64)d->rval, 12, elem_epev, NULL);
		break;
	case SA_SIGSETSZ:
		put_sigset_sz(d, v, size_arg(d, i), 8, false);
		break;
	case SA_OSIGSETSZ:
		/* rt_sigpending alone takes a set smaller than sigset_t */
		if (d->err)
			put_ptr(sb, v);
		else
			put_sigset_sz(d, v, size_arg(d, i), d->t->nr == __NR_rt_sigpending ? 1 : 8,
				      true);
		break;
	case SA_LOHI:
		ptk_sb_printf(sb, "%" PRId64, (s64)v);
		break;
	case SA_STATXFL:
		/* AT_STATX_SYNC_TYPE's bits first, AT_STATX_SYNC_AS_STAT when none */
		put_fx(sb, &ptk_x_statx_sync, (u32)v & 0x6000, "AT_STATX_SYNC_AS_STAT");
		if ((u32)v & ~0x6000u) {
			ptk_sb_puts(sb, "|");
			put_fx(sb, &ptk_x_at_flags, (u32)v & ~0x6000u, NULL);
		}
		break;
	case SA_OSTATX:
		put_statx_at(d, v);
		break;
	case SA_OMINCORE:
		if (d->err)
			put_ptr(sb, v);
		else
			put_array(d, v, (a[1] + 4095) / 4096, 1, elem_mincore, NULL);
		break;
	case SA_OUTS:
		put_utsname_at(d, v);
		break;
	case SA_OSYSINFO:
		put_sysinfo_at(d, v);
		break;
	case SA_OTMS:
		put_tms_at(d, v);
		break;
	case SA_OTV:
		put_tv_at(d, v, true);
		break;
	case SA_ITV:
		put_tv_at(d, v, false);
		break;
	case SA_OITV:
		put_itv_at(d, v, true);
		break;
	case SA_IITV:
		put_itv_at(d, v, false);
		break;
	case SA_ISTK:
		put_stack_at(d, v, false);
		break;
	case SA_OSTK:
		put_stack_at(d, v, true);
		break;
	case SA_OSIGINFO:
		put_siginfo_at(d, v, true);
		break;
	case SA_ISIGINFO:
		put_siginfo_at(d, v, false);
		break;
	case SA_ISIGEV:
		put_sigevent_at(d, v);
		break;
	case SA_OTIMERID: {
		int id;
		if (!out_skip(d, v, &id, sizeof(id)))
			ptk_sb_printf(sb, "[%d]", id);
		break;
	}
	case SA_OCPUSET:
		if (d->err)
			put_ptr(sb, v);
		else
			put_cpuset_at(d, v, (u64)d->rval, true);
		break;
	case SA_ICPUSET:
		put_cpuset_at(d, v, a[1], false);
		break;
	case SA_IOOFF:
		put_iooff(d, v, d->exiting);
		break;
	case SA_POLLFDS:
		put_array(d, v, (u32)a[1], 8, elem_pollfd, NULL);
		break;
	case SA_FDSET:
		put_fdset_at(d, v);
		break;
	case SA_OTVSEL:
		put_tv_at(d, v, false);
		break;
	case SA_OTSSEL:
		put_timespec(d, v);
		break;
	case SA_PSIGMASK: {
		u64 pm[2];
		if (in_skip(d, v, pm, sizeof(pm)))
			break;
		ptk_sb_puts(sb, "{sigmask=");
		if (pm[0])
			put_sigset_sz(d, pm[0], pm[1], 8, false);
		else
			ptk_sb_puts(sb, "NULL");
		ptk_sb_printf(sb, ", sigsetsize=%" PRIu64 "}", pm[1]);
		break;
	}
	case SA_ITS2:
		put_its2_at(d, v);
		break;
	case SA_OTIME: {
		s64 tm;
		if (out_skip(d, v, &tm, sizeof(tm)))
			break;
		ptk_sb_printf(sb, "[%" PRId64, tm);
		put_time_comment_s(sb, tm);
		ptk_sb_puts(sb, "]");
		break;
	}
	case SA_ITZ:
	case SA_OTZ: {
		int tz[2];
		if (type == SA_OTZ ? out_skip(d, v, tz, sizeof(tz)) : in_skip(d, v, tz, sizeof(tz)))
			break;
		ptk_sb_printf(sb, "{tz_minuteswest=%d, tz_dsttime=%d}", tz[0], tz[1]);
		break;
	}
	case SA_SONAME:
		if ((int)a[1] == SOL_SOCKET)
			put_xv(sb, &ptk_x_so_opts, (u32)v, false);
		else
			ptk_sb_printf(sb, "%u", (unsigned)v);
		break;
	case SA_ISOVAL:
	case SA_OSOVAL: {
		/* an int option (the usual size) as [N], anything else by address */
		int len = type == SA_ISOVAL ? (int)a[4] : 0, val;
		if (type == SA_OSOVAL &&
		    (d->err || !a[4] || !read_obj(d, a[4], &len, sizeof(len)))) {
			put_ptr(sb, v);
			break;
		}
		if (len != (int)sizeof(int) || !v || !read_obj(d, v, &val, sizeof(val)))
			put_ptr(sb, v);
		else
			ptk_sb_printf(sb, "[%d]", val);
		break;
	}
	case SA_IMSG:
		put_msghdr_at(d, v, false);
		break;
	case SA_OMSG:
		if (d->err)
			put_ptr(sb, v);
		else
			put_msghdr_at(d, v, true);
		break;
	case SA_P:
	default:
		put_ptr(sb, v);
	}
	return true;
}

const char *ptk_dec_name(int nr, char *buf, size_t size)
{
	const struct ptk_syscall *sc = ptk_syscall_get(nr);

	if (sc)
		return sc->name;
	snprintf(buf, size, "syscall_%#x", nr < 0 ? (unsigned)(-1 - nr) : (unsigned)nr);
	return buf;
}

static const struct ptk_syscall unknown_sc = { "?",
					       6,
					       0,
					       SA_X,
					       { SA_X, SA_X, SA_X, SA_X, SA_X, SA_X } };

static void dec_init(struct dec *d, struct ptk_sbuf *sb, const struct ptk_decopt *o,
		     struct ptk_tcb *t)
{
	memset(d, 0, sizeof(*d));
	d->sb = sb;
	d->o = o;
	d->t = t;
	d->sc = ptk_syscall_get(t->nr);
	if (!d->sc)
		d->sc = &unknown_sc;
}

static void put_clone(struct dec *d)
{
	struct ptk_sbuf *sb = d->sb;
	const u64 *a = d->t->args;
	u64 fl = a[0];
	const char *sig = ptk_signal_name((int)(fl & 0xff));

	/* x86_64 argument order: flags, stack, parent_tid, child_tid, tls */
	ptk_sb_puts(sb, "child_stack=");
	put_ptr(sb, a[1]);
	ptk_sb_puts(sb, ", flags=");
	if (fl & ~0xffULL) {
		put_flags(sb, &ptk_x_clone_flags, fl & ~0xffULL, "0");
		if (sig)
			ptk_sb_printf(sb, "|%s", sig);
	} else {
		ptk_sb_puts(sb, sig ? sig : "0");
	}
	if (fl & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		ptk_sb_puts(sb, ", parent_tid=");
		put_ptr(sb, a[2]);
	}
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		ptk_sb_puts(sb, ", child_tidptr=");
		put_ptr(sb, a[3]);
	}
	if (fl & CLONE_SETTLS) {
		ptk_sb_puts(sb, ", tls=");
		put_ptr(sb, a[4]);
	}
}

/* a value of x, else hex with no comment (strace's printxval with no default) */
static void put_xv_hex(struct ptk_sbuf *sb, const struct ptk_xlat *x, u64 v)
{
	const char *n = ptk_xlat_name(x, v);

	if (n)
		ptk_sb_puts(sb, n);
	else
		ptk_sb_printf(sb, v ? "%#" PRIx64 : "0", v);
}

/* futex(2): the arguments each operation takes (kernel/futex/syscalls.c) */
static void put_futex(struct dec *d)
{
	struct ptk_sbuf *sb = d->sb;
	const u64 *a = d->t->args;
	int op = (int)a[1], cmd = op & 127;
	unsigned val = (unsigned)a[2], val2 = (unsigned)a[3], val3 = (unsigned)a[5];

	put_ptr(sb, a[0]);
	ptk_sb_puts(sb, ", ");
	put_xv(sb, &ptk_x_futex_ops, (u32)op, false);
	switch (cmd) {
	case 0: /* FUTEX_WAIT */
	case 11: /* FUTEX_WAIT_REQUEUE_PI */
		ptk_sb_printf(sb, ", %u, ", val);
		put_timespec(d, a[3]);
		if (cmd == 11) {
			ptk_sb_puts(sb, ", ");
			put_ptr(sb, a[4]);
		}
		break;
	case 6: /* FUTEX_LOCK_PI */
	case 13: /* FUTEX_LOCK_PI2 */
		ptk_sb_puts(sb, ", ");
		put_timespec(d, a[3]);
		break;
	case 9: /* FUTEX_WAIT_BITSET */
		ptk_sb_printf(sb, ", %u, ", val);
		put_timespec(d, a[3]);
		ptk_sb_puts(sb, ", ");
		put_xv_hex(sb, &ptk_x_futex_bitset, val3);
		break;
	case 10: /* FUTEX_WAKE_BITSET */
		ptk_sb_printf(sb, ", %u, ", val);
		put_xv_hex(sb, &ptk_x_futex_bitset, val3);
		break;
	case 3: /* FUTEX_REQUEUE */
	case 4: /* FUTEX_CMP_REQUEUE */
	case 12: /* FUTEX_CMP_REQUEUE_PI */
	case 5: /* FUTEX_WAKE_OP */
		ptk_sb_printf(sb, ", %u, %u, ", val, val2);
		put_ptr(sb, a[4]);
		if (cmd == 4 || cmd == 12) {
			ptk_sb_printf(sb, ", %u", val3);
		} else if (cmd == 5) {
			unsigned wop = (val3 >> 28) & 7, cmp = (val3 >> 24) & 15;
			ptk_sb_puts(sb, ", ");
			if ((val3 >> 28) & 8)
				ptk_sb_puts(sb, "FUTEX_OP_OPARG_SHIFT<<28|");
			put_xv_hex(sb, &ptk_x_futex_wakeops, wop);
			ptk_sb_puts(sb, ptk_xlat_name(&ptk_x_futex_wakeops, wop) ?
						"<<28" :
						"<<28 /* FUTEX_OP_??? */");
			ptk_sb_printf(sb, (val3 >> 12) & 0xfff ? "|%#x<<12|" : "|%u<<12|",
				      (val3 >> 12) & 0xfff);
			put_xv_hex(sb, &ptk_x_futex_wakecmps, cmp);
			ptk_sb_puts(sb, ptk_xlat_name(&ptk_x_futex_wakecmps, cmp) ?
						"<<24" :
						"<<24 /* FUTEX_OP_CMP_??? */");
			ptk_sb_printf(sb, val3 & 0xfff ? "|%#x" : "|%u", val3 & 0xfff);
		}
		break;
	case 1: /* FUTEX_WAKE */
	case 2: /* FUTEX_FD */
		ptk_sb_printf(sb, ", %u", val);
		break;
	case 7: /* FUTEX_UNLOCK_PI */
	case 8: /* FUTEX_TRYLOCK_PI */
		break;
	default:
		ptk_sb_printf(sb, ", %u, ", val);
		put_ptr(sb, a[3]);
		ptk_sb_puts(sb, ", ");
		put_ptr(sb, a[4]);
		ptk_sb_printf(sb, val3 ? ", %#x" : ", %u", val3);
	}
}

static void put_clone3(struct dec *d)
{
	struct {
		u64 flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	} ca;
	struct ptk_sbuf *sb = d->sb;
	const u64 *a = d->t->args;

	if (!read_obj(d, a[0], &ca, sizeof(ca))) {
		put_ptr(sb, a[0]);
	} else {
		ptk_sb_puts(sb, "{flags=");
		put_flags(sb, &ptk_x_clone_flags, ca.flags, "0");
		ptk_sb_puts(sb, ", exit_signal=");
		if (ca.exit_signal)
			put_sig(sb, (int)ca.exit_signal);
		else
			ptk_sb_puts(sb, "0");
		ptk_sb_puts(sb, ", stack=");
		put_ptr(sb, ca.stack);
		ptk_sb_printf(sb, ", stack_size=%#" PRIx64 "}", ca.stack_size);
	}
	ptk_sb_printf(sb, ", %" PRIu64, a[1]);
}

int ptk_dec_entry(struct ptk_sbuf *sb, const struct ptk_decopt *o, struct ptk_tcb *t)
{
	struct dec d;
	char nb[32];
	int i;

	dec_init(&d, sb, o, t);
	ptk_sb_puts(sb, ptk_dec_name(t->nr, nb, sizeof(nb)));
	ptk_sb_puts(sb, "(");
	if (t->nr == __NR_clone) {
		put_clone(&d);
		return 6;
	}
	if (t->nr == __NR_clone3) {
		put_clone3(&d);
		return 6;
	}
	if (t->nr == __NR_futex) {
		put_futex(&d);
		return 6;
	}
	if (t->nr == __NR_rt_sigreturn) {
		/* the frame's uc_sigmask: struct rt_sigframe after the return address was popped,
		 * uc at sp, uc_sigmask after uc_flags, uc_link, uc_stack, uc_mcontext */
		u64 mask;
		if (read_obj(&d, t->sp + 8 + 8 + 24 + 256, &mask, sizeof(mask))) {
			ptk_sb_puts(sb, "{mask=");
			put_sigset_val(sb, mask);
			ptk_sb_puts(sb, "}");
		}
		return 6;
	}
	/* values the exit needs from the entry: a socklen_t *'s value in */
	for (i = 0; i < d.sc->nargs; i++) {
		int len = 0;
		if (d.sc->args[i] != SA_OSALEN)
			continue;
		t->saved[1] = t->args[i] && read_obj(&d, t->args[i], &len, sizeof(len));
		t->saved[0] = t->saved[1] ? (u32)len : 0;
	}
	for (i = 0; i < d.sc->nargs; i++) {
		if (is_exit_arg(&d, d.sc->args[i])) {
			if (i)
				ptk_sb_puts(sb, ", ");
			return i;
		}
		if (is_inout_arg(d.sc->args[i])) {
			if (i)
				ptk_sb_puts(sb, ", ");
			put_arg(&d, i);
			return i | PTK_DEC_CONT;
		}
		size_t mark = sb->len;
		if (i)
			ptk_sb_puts(sb, ", ");
		if (!put_arg(&d, i)) {
			sb->len = mark;
			sb->p[mark] = 0;
		}
	}
	return i;
}

void ptk_dec_pad(struct ptk_sbuf *sb, size_t col0, size_t start, int acol)
{
	size_t col = col0 + sb->len - start;
	if (col < (size_t)acol)
		ptk_sb_printf(sb, "%*s", (int)((size_t)acol - col), "");
}

static const char *restart_msg(int e)
{
	switch (e) {
	case 512:
		return "To be restarted if SA_RESTART is set";
	case 513:
		return "To be restarted";
	case 514:
		return "To be restarted if no handler";
	case 516:
		return "Interrupted by signal";
	}
	return NULL;
}

/* What strace adds after a successful return value: " (Timeout)", poll's revents, a date */
static void ret_annot(struct dec *d)
{
	switch (d->t->nr) {
	case __NR_poll:
	case __NR_ppoll:
		poll_annot(d);
		break;
	case __NR_select:
	case __NR_pselect6:
		select_annot(d, d->t->nr == __NR_pselect6);
		break;
	case __NR_rt_sigtimedwait:
		if (d->rval > 0 && ptk_signal_name((int)d->rval))
			ptk_sb_printf(d->sb, " (%s)", ptk_signal_name((int)d->rval));
		break;
	case __NR_time: {
		char buf[64];
		struct tm tm;
		time_t tt = (time_t)d->rval;
		if (localtime_r(&tt, &tm) && strftime(buf, sizeof(buf), "%FT%T%z", &tm))
			ptk_sb_printf(d->sb, " (%s)", buf);
		break;
	}
	}
}

void ptk_dec_exit(struct ptk_sbuf *sb, const struct ptk_decopt *o, struct ptk_tcb *t, int from,
		  s64 rval, bool is_error, size_t col0)
{
	struct dec d;
	size_t start = sb->len;
	bool cont = from & PTK_DEC_CONT; /* argument from is half printed (entry part) */

	from &= ~PTK_DEC_CONT;
	dec_init(&d, sb, o, t);
	d.rval = rval;
	d.err = is_error;
	d.exiting = true;
	for (int i = from; i < d.sc->nargs; i++) {
		size_t mark = sb->len;
		if (i > from)
			ptk_sb_puts(sb, ", ");
		(void)cont;
		if (!put_arg(&d, i)) {
			sb->len = mark;
			sb->p[mark] = 0;
		}
	}
	ptk_sb_puts(sb, ") ");
	ptk_dec_pad(sb, col0, start, o->acol);
	if (is_error) {
		int e = (int)-rval;
		const char *name = ptk_errno_name(e), *rm = restart_msg(e);
		if (rm)
			ptk_sb_printf(sb, "= ? %s (%s)", name, rm);
		else if (name)
			ptk_sb_printf(sb, "= -1 %s (%s)", name, strerror(e));
		else
			ptk_sb_printf(sb, "= -1 (errno %d)", e);
		return;
	}
	if (t->nr == __NR_fcntl && (int)t->args[1] == F_GETSIG && ptk_signal_name((int)rval)) {
		ptk_sb_printf(sb, "= %lld (%s)", (long long)rval, ptk_signal_name((int)rval));
		return;
	}
	if (t->nr == __NR_fcntl && (int)t->args[1] == F_GETLEASE) {
		ptk_sb_printf(sb, "= %#llx (", (unsigned long long)rval);
		put_xv(sb, &ptk_x_lock_type, (u64)rval, false);
		ptk_sb_puts(sb, ")");
		return;
	}
	if (t->nr == __NR_fcntl && ((int)t->args[1] == F_GETFD || (int)t->args[1] == F_GETFL) &&
	    rval) {
		ptk_sb_printf(sb, "= %#llx (flags ", (unsigned long long)rval);
		if ((int)t->args[1] == F_GETFD)
			ptk_sb_puts(sb, rval & FD_CLOEXEC ? "FD_CLOEXEC" : "0");
		else
			put_oflags(sb, (u64)rval);
		ptk_sb_puts(sb, ")");
		return;
	}
	switch (d.sc->ret) {
	case SA_X:
		ptk_sb_printf(sb, "= %#" PRIx64, (u64)rval);
		break;
	case SA_O:
		ptk_sb_printf(sb, "= %#03llo", (unsigned long long)rval);
		break;
	case SA_FD:
		ptk_sb_puts(sb, "= ");
		put_fd(&d, (int)rval);
		break;
	default:
		ptk_sb_printf(sb, "= %lld", (long long)rval);
	}
	ret_annot(&d);
}

void ptk_dec_siginfo(struct ptk_sbuf *sb, const siginfo_t *si)
{
	const char *code;

	ptk_sb_puts(sb, "{si_signo=");
	put_sig(sb, si->si_signo);
	ptk_sb_puts(sb, ", si_code=");
	if (si->si_signo == SIGCHLD && si->si_code > 0 &&
	    (code = ptk_xlat_name(&ptk_x_cld_codes, (u64)si->si_code))) {
		ptk_sb_printf(sb, "%s, si_pid=%d, si_uid=%u, si_status=", code, si->si_pid,
			      si->si_uid);
		if (si->si_code == CLD_EXITED)
			ptk_sb_printf(sb, "%d", si->si_status);
		else
			put_sig(sb, si->si_status);
		ptk_sb_printf(sb, ", si_utime=%ld, si_stime=%ld}", (long)si->si_utime,
			      (long)si->si_stime);
		return;
	}
	code = ptk_xlat_name(&ptk_x_si_codes, (u64)(s64)si->si_code);
	if (code)
		ptk_sb_puts(sb, code);
	else
		ptk_sb_printf(sb, "%d", si->si_code);
	if (si->si_code <= 0 && si->si_code != SI_KERNEL) {
		ptk_sb_printf(sb, ", si_pid=%d, si_uid=%u", si->si_pid, si->si_uid);
		if (si->si_code == SI_QUEUE)
			ptk_sb_printf(sb, ", si_int=%d, si_ptr=%p", si->si_int, si->si_ptr);
	} else if (si->si_signo == SIGSEGV || si->si_signo == SIGBUS || si->si_signo == SIGILL ||
		   si->si_signo == SIGFPE) {
		ptk_sb_puts(sb, ", si_addr=");
		put_ptr(sb, (u64)(uintptr_t)si->si_addr);
	}
	ptk_sb_puts(sb, "}");
}

/* ---- -P: does the call name a path ------------------------------------------------------- */

static bool path_in(const char *p, char *const *paths, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p, paths[i]))
			return true;
	return false;
}

static bool upath_match(struct ptk_tcb *t, u64 addr, char *const *paths, int n)
{
	char buf[4097];
	ssize_t len = addr ? ptk_tracee_readstr(t, addr, buf, sizeof(buf) - 1) : -EFAULT;

	return len > 0 && (size_t)len < sizeof(buf) && path_in(buf, paths, n);
}

static bool fd_match(struct ptk_tcb *t, u64 fd, char *const *paths, int n)
{
	char buf[4096];

	return (int)fd >= 0 && !ptk_dec_fdpath(t->pid, (int)fd, buf, sizeof(buf)) &&
	       path_in(buf, paths, n);
}

/* select's and pselect6's fd_sets: any descriptor in them (nfds capped as strace does) */
static bool fdsets_match(struct ptk_tcb *t, char *const *paths, int n)
{
	int nfds = (int)t->args[0];
	u64 set[1024 / 64];

	if (nfds <= 0)
		return false;
	nfds = MIN(nfds, 1024);
	for (int k = 1; k <= 3; k++) {
		size_t len = (size_t)(nfds + 63) / 64 * 8;
		if (!t->args[k] || ptk_tracee_read(t, t->args[k], set, len) != (ssize_t)len)
			continue;
		for (int fd = 0; fd < nfds; fd++)
			if ((set[fd / 64] >> (fd % 64) & 1) && fd_match(t, (u64)fd, paths, n))
				return true;
	}
	return false;
}

static bool pollfds_match(struct ptk_tcb *t, char *const *paths, int n)
{
	unsigned nfds = MIN((unsigned)t->args[1], 1024u * 1024);
	struct {
		int fd;
		short events, revents;
	} pfd;

	for (unsigned i = 0; i < nfds; i++) {
		if (ptk_tracee_read(t, t->args[0] + 8 * (u64)i, &pfd, sizeof(pfd)) != sizeof(pfd))
			break;
		if (fd_match(t, (u64)(s64)pfd.fd, paths, n))
			return true;
	}
	return false;
}

bool ptk_dec_touches(struct ptk_tcb *t, char *const *paths, int n)
{
	const struct ptk_syscall *sc = ptk_syscall_get(t->nr);
	const u64 *a = t->args;

	if (!sc || !(sc->cls & (TF | TD | TN)))
		return false;
	switch (t->nr) {
	case __NR_dup2:
	case __NR_dup3:
	case __NR_sendfile:
	case __NR_tee:
	case __NR_kexec_file_load:
		return fd_match(t, a[0], paths, n) || fd_match(t, a[1], paths, n);
	case __NR_execveat:
	case __NR_faccessat:
	case __NR_faccessat2:
	case __NR_fchmodat:
	case __NR_fchownat:
	case __NR_fspick:
	case __NR_futimesat:
	case __NR_inotify_add_watch:
	case __NR_mkdirat:
	case __NR_mknodat:
	case __NR_mount_setattr:
	case __NR_name_to_handle_at:
	case __NR_newfstatat:
	case __NR_open_tree:
	case __NR_openat:
	case __NR_openat2:
	case __NR_readlinkat:
	case __NR_statx:
	case __NR_unlinkat:
	case __NR_utimensat:
		return fd_match(t, a[0], paths, n) || upath_match(t, a[1], paths, n);
	case __NR_link:
	case __NR_mount:
	case __NR_pivot_root:
		return upath_match(t, a[0], paths, n) || upath_match(t, a[1], paths, n);
	case __NR_quotactl:
	case __NR_symlink:
		return upath_match(t, a[1], paths, n);
	case __NR_linkat:
	case __NR_move_mount:
	case __NR_renameat:
	case __NR_renameat2:
		return fd_match(t, a[0], paths, n) || fd_match(t, a[2], paths, n) ||
		       upath_match(t, a[1], paths, n) || upath_match(t, a[3], paths, n);
	case __NR_mmap:
		return fd_match(t, a[4], paths, n);
	case __NR_symlinkat:
		return fd_match(t, a[1], paths, n) || upath_match(t, a[2], paths, n);
	case __NR_copy_file_range:
	case __NR_splice:
		return fd_match(t, a[0], paths, n) || fd_match(t, a[2], paths, n);
	case __NR_epoll_ctl:
		return fd_match(t, a[2], paths, n);
	case __NR_fanotify_mark:
		return fd_match(t, a[3], paths, n) || upath_match(t, a[4], paths, n);
	case __NR_select:
	case __NR_pselect6:
		return fdsets_match(t, paths, n);
	case __NR_poll:
	case __NR_ppoll:
		return pollfds_match(t, paths, n);
	case __NR_accept:
	case __NR_accept4:
	case __NR_bpf:
	case __NR_epoll_create:
	case __NR_epoll_create1:
	case __NR_eventfd:
	case __NR_eventfd2:
	case __NR_fanotify_init:
	case __NR_fsmount:
	case __NR_fsopen:
	case __NR_inotify_init:
	case __NR_inotify_init1:
	case __NR_io_uring_enter:
	case __NR_io_uring_register:
	case __NR_io_uring_setup:
	case __NR_landlock_add_rule:
	case __NR_landlock_create_ruleset:
	case __NR_landlock_restrict_self:
	case __NR_memfd_create:
	case __NR_memfd_secret:
	case __NR_mq_getsetattr:
	case __NR_mq_notify:
	case __NR_mq_open:
	case __NR_mq_timedreceive:
	case __NR_mq_timedsend:
	case __NR_perf_event_open:
	case __NR_pidfd_open:
	case __NR_pipe:
	case __NR_pipe2:
	case __NR_signalfd:
	case __NR_signalfd4:
	case __NR_socket:
	case __NR_socketpair:
	case __NR_timerfd_create:
	case __NR_timerfd_gettime:
	case __NR_timerfd_settime:
	case __NR_userfaultfd:
		return false; /* descriptor classes, but no descriptor or path argument */
	}
	if (sc->cls & TF)
		return upath_match(t, a[0], paths, n);
	return fd_match(t, a[0], paths, n);
}

/* ---- -e read= / -e write= --------------------------------------------------------------- */

static void dump_mem(struct ptk_sbuf *sb, struct ptk_tcb *t, u64 addr, u64 len)
{
	enum { CHUNK = 1 << 16 }; /* a multiple of 16: the lines do not change at its edges */
	unsigned char *buf;

	if (!len || len > (u64)1 << 40)
		return;
	buf = xmalloc(CHUNK);
	for (u64 off = 0; off < len; off += CHUNK) {
		size_t n = (size_t)MIN(len - off, (u64)CHUNK);
		ssize_t got = ptk_tracee_read(t, addr + off, buf, n);
		if (got != (ssize_t)n) {
			if (off)
				ptk_sb_printf(sb,
					      " | <Cannot fetch %zu byte%s from pid %d @%#" PRIx64
					      ">\n",
					      n, n == 1 ? "" : "s", t->pid, addr + off);
			break;
		}
		hexdump_part(sb, buf, n, (size_t)off, (size_t)len);
	}
	free(buf);
}

/* the buffers of an iovec array, up to data bytes (all when data < 0) */
static void dump_iov(struct ptk_sbuf *sb, struct ptk_tcb *t, u64 addr, u64 cnt, s64 data)
{
	struct {
		u64 base, len;
	} v;

	cnt = MIN(cnt, 1024);
	/* the whole array, or nothing (as strace) */
	if (cnt && ptk_tracee_read(t, addr + 16 * (cnt - 1), &v, sizeof(v)) != sizeof(v))
		return;
	for (u64 i = 0; i < cnt; i++) {
		if (ptk_tracee_read(t, addr + 16 * i, &v, sizeof(v)) != sizeof(v))
			return;
		u64 len = data < 0 ? v.len : MIN(v.len, (u64)data);
		if (!len)
			return;
		if (data >= 0)
			data -= (s64)len;
		ptk_sb_printf(sb, " * %" PRIu64 " bytes in buffer %" PRIu64 "\n", len, i);
		dump_mem(sb, t, v.base, len);
	}
}

/* struct msghdr's iovec array (msg_iov at 16, msg_iovlen at 24) */
static void dump_msghdr(struct ptk_sbuf *sb, struct ptk_tcb *t, u64 addr, s64 data)
{
	u64 iov[2];

	if (ptk_tracee_read(t, addr + 16, iov, sizeof(iov)) == sizeof(iov))
		dump_iov(sb, t, iov[0], iov[1], data);
}

void ptk_dec_dumpio(struct ptk_sbuf *sb, const struct ptk_decopt *o, struct ptk_tcb *t, s64 rval,
		    bool is_error)
{
	int fd = (int)t->args[0];
	const u64 *a = t->args;

	if (fd < 0)
		return;
	if (ptk_fdset_has(&o->wdump, fd)) {
		switch (t->nr) {
		case __NR_write:
		case __NR_pwrite64:
		case __NR_sendto:
		case __NR_mq_timedsend:
			dump_mem(sb, t, a[1], a[2]);
			break;
		case __NR_writev:
		case __NR_pwritev:
		case __NR_pwritev2:
		case __NR_vmsplice:
			dump_iov(sb, t, a[1], a[2], -1);
			break;
		case __NR_sendmsg:
			dump_msghdr(sb, t, a[1], -1);
			break;
		}
	}
	if (is_error || !ptk_fdset_has(&o->rdump, fd))
		return;
	switch (t->nr) {
	case __NR_read:
	case __NR_pread64:
	case __NR_recvfrom:
	case __NR_mq_timedreceive:
		dump_mem(sb, t, a[1], (u64)rval);
		break;
	case __NR_readv:
	case __NR_preadv:
	case __NR_preadv2:
		dump_iov(sb, t, a[1], a[2], rval);
		break;
	case __NR_recvmsg:
		dump_msghdr(sb, t, a[1], rval);
		break;
	}
}

/* ---- what memory an argument needs (strace --bpf) ------------------------------------------- */

struct ptk_dec_mem ptk_dec_arg_mem(const struct ptk_syscall *sc, int i)
{
	struct ptk_dec_mem m = { PTK_DEC_MEM_NONE, -1, 0 };
#define MEM(w, l, sz) (m.when = (w), m.lenarg = (l), m.size = (sz), m)

	switch (sc->args[i]) {
	case SA_PATH:
	case SA_STR:
		return MEM(PTK_DEC_MEM_STR, -1, 0);
	case SA_IBUF:
	case SA_ISA:
		return MEM(PTK_DEC_MEM_IN, i + 1, 0);
	case SA_OBUF:
	case SA_OBUFS:
		return MEM(PTK_DEC_MEM_OUT, 6, 0);
	case SA_OSA:
		return MEM(PTK_DEC_MEM_OUT, -1, 128);
	case SA_OSALEN:
	case SA_IOOFF:
		return MEM(PTK_DEC_MEM_INOUT, -1, 8);
	case SA_OSTAT:
		return MEM(PTK_DEC_MEM_OUT, -1, sizeof(struct stat));
	case SA_OSTATX:
		return MEM(PTK_DEC_MEM_OUT, -1, sizeof(struct statx));
	case SA_ITS:
	case SA_ITV:
	case SA_IRLIM:
		return MEM(PTK_DEC_MEM_IN, -1, 16);
	case SA_OTS:
	case SA_OTV:
	case SA_ORLIM:
	case SA_OTVSEL:
	case SA_OTSSEL:
		return MEM(sc->args[i] == SA_OTVSEL || sc->args[i] == SA_OTSSEL ?
				   PTK_DEC_MEM_INOUT :
				   PTK_DEC_MEM_OUT,
			   -1, 16);
	case SA_SIGSET:
	case SA_SIGSETSZ:
		return MEM(PTK_DEC_MEM_IN, -1, 8);
	case SA_OSIGSET:
	case SA_OSIGSETSZ:
	case SA_OPIPE:
	case SA_OTIME:
		return MEM(PTK_DEC_MEM_OUT, -1, 8);
	case SA_SIGACT:
		return MEM(PTK_DEC_MEM_IN, -1, 32);
	case SA_OSIGACT:
		return MEM(PTK_DEC_MEM_OUT, -1, 32);
	case SA_OWSTATUS:
	case SA_OTIMERID:
		return MEM(PTK_DEC_MEM_OUT, -1, 4);
	case SA_ORUSAGE:
		return MEM(PTK_DEC_MEM_OUT, -1, 144);
	case SA_OUTS:
		return MEM(PTK_DEC_MEM_OUT, -1, 256); /* the first fields; the rest unreadable */
	case SA_OSYSINFO:
		return MEM(PTK_DEC_MEM_OUT, -1, sizeof(struct sysinfo));
	case SA_OTMS:
		return MEM(PTK_DEC_MEM_OUT, -1, 32);
	case SA_IITV:
	case SA_IITSPEC:
		return MEM(PTK_DEC_MEM_IN, -1, 32);
	case SA_OITV:
	case SA_OITSPEC:
		return MEM(PTK_DEC_MEM_OUT, -1, 32);
	case SA_ISTK:
		return MEM(PTK_DEC_MEM_IN, -1, 24);
	case SA_OSTK:
		return MEM(PTK_DEC_MEM_OUT, -1, 24);
	case SA_IEPEV:
		return MEM(PTK_DEC_MEM_IN, -1, 12);
	case SA_ITZ:
		return MEM(PTK_DEC_MEM_IN, -1, 8);
	case SA_OTZ:
		return MEM(PTK_DEC_MEM_OUT, -1, 8);
	case SA_ISIGINFO:
		return MEM(PTK_DEC_MEM_IN, -1, 128);
	case SA_OSIGINFO:
		return MEM(PTK_DEC_MEM_OUT, -1, 128);
	case SA_ISIGEV:
		return MEM(PTK_DEC_MEM_IN, -1, 64);
	case SA_POLLFDS:
		return MEM(PTK_DEC_MEM_INOUT, -1, 256);
	case SA_FDSET:
		return MEM(PTK_DEC_MEM_INOUT, -1, 128);
	}
#undef MEM
	return m;
}
