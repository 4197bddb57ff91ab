// SPDX-License-Identifier: GPL-2.0
/*
 * sysprobe: performs known system calls (raw syscall() so libc cannot change them) and
 * writes to argv[1] the exact lines strace prints for them, for tests/cmd/60-strace.sh.
 * The calls sit between two markers: access("/ptk-probe-begin") and access("/ptk-probe-end").
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static char exp_buf[65536];
static size_t exp_len;

/* one expected line: the call, padded to strace's column 40, then "= result" */
static void expect(const char *result, const char *fmt, ...)
{
	char call[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(call, sizeof(call), fmt, ap);
	va_end(ap);
	n = snprintf(exp_buf + exp_len, sizeof(exp_buf) - exp_len, "%s %*s= %s\n", call,
		     (int)(strlen(call) + 1 < 40 ? 40 - strlen(call) - 1 : 0), "", result);
	exp_len += (size_t)n;
}

static void expect_raw(const char *line)
{
	exp_len += (size_t)snprintf(exp_buf + exp_len, sizeof(exp_buf) - exp_len, "%s\n", line);
}

/* strace's quoting of printable text (the probe only quotes such text) */
static void quote(char *out, const char *s, size_t n, int more)
{
	*out++ = '"';
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			*out++ = '\\';
			*out++ = 'n';
		} else if (s[i] == '"' || s[i] == '\\') {
			*out++ = '\\';
			*out++ = s[i];
		} else {
			*out++ = s[i];
		}
	}
	*out++ = '"';
	if (more)
		out += sprintf(out, "...");
	*out = 0;
}

static volatile int got;
static void on_usr1(int sig)
{
	got = sig;
}

static char *r(long v)
{
	static char b[8][64];
	static int k;
	k = (k + 1) & 7;
	snprintf(b[k], sizeof(b[k]), "%ld", v);
	return b[k];
}

int main(int argc, char **argv)
{
	const char *enoent = "-1 ENOENT (No such file or directory)";
	char buf[4096], q[512], line[1024];
	long fd, n, fd2;
	struct stat st;
	struct timespec ts = { 0, 1000000 };
	void *m;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: sysprobe EXPECTED-FILE\n");
		return 2;
	}
	signal(SIGUSR1, on_usr1);
	syscall(SYS_access, "/ptk-probe-begin", F_OK);
	expect(enoent, "access(\"/ptk-probe-begin\", F_OK)");

	fd = syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC);
	expect(r(fd), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC)");
	n = syscall(SYS_openat, AT_FDCWD, "/nonexistent/ptk-probe", O_RDONLY);
	expect(enoent, "openat(AT_FDCWD, \"/nonexistent/ptk-probe\", O_RDONLY)");
	(void)n;

	n = syscall(SYS_read, fd, buf, sizeof(buf));
	quote(q, buf, n < 32 ? (size_t)n : 32, n > 32);
	expect(r(n), "read(%ld, %s, 4096)", fd, q);

	syscall(SYS_newfstatat, AT_FDCWD, "/etc/passwd", &st, 0);
	expect("0",
	       "newfstatat(AT_FDCWD, \"/etc/passwd\", {st_mode=S_IFREG|%#03o, st_size=%lld, ...}, 0)",
	       st.st_mode & 07777, (long long)st.st_size);

	n = syscall(SYS_ioctl, fd, TCGETS, buf);
	snprintf(line, sizeof(line), "ioctl(%ld, TCGETS, %p)", fd, (void *)buf);
	expect("-1 ENOTTY (Inappropriate ioctl for device)", "%s", line);
	syscall(SYS_close, fd);
	expect("0", "close(%ld)", fd);

	fd2 = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);
	expect(r(fd2), "openat(AT_FDCWD, \"/dev/null\", O_WRONLY)");
	memset(buf, 'a', 100);
	n = syscall(SYS_write, fd2, buf, 100);
	quote(q, buf, 32, 1);
	expect(r(n), "write(%ld, %s, 100)", fd2, q);
	syscall(SYS_close, fd2);
	expect("0", "close(%ld)", fd2);

	syscall(SYS_nanosleep, &ts, NULL);
	expect("0", "nanosleep({tv_sec=0, tv_nsec=1000000}, NULL)");
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
	expect("0", "clock_nanosleep(CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=1000000}, NULL)");

	m = (void *)syscall(SYS_mmap, NULL, 8192, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	snprintf(q, sizeof(q), "%p", m);
	expect(q, "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)");
	syscall(SYS_munmap, m, 8192);
	expect("0", "munmap(%p, 8192)", m);

	/* a pseudo-terminal: TCGETS decodes the termios, TCSETS is named for a tty */
	fd = syscall(SYS_openat, AT_FDCWD, "/dev/ptmx", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		struct termios tio;
		expect(r(fd), "openat(AT_FDCWD, \"/dev/ptmx\", O_RDWR|O_NOCTTY)");
		syscall(SYS_ioctl, fd, TCGETS, &tio);
		/* the defaults of a new pty (drivers/tty/pty.c, tty_std_termios) */
		snprintf(q, sizeof(q), "%s",
			 "{c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR, "
			 "c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|"
			 "ECHOCTL|ECHOKE, ...}");
		if (tio.c_iflag == (ICRNL | IXON) && tio.c_oflag == (OPOST | ONLCR) &&
		    tio.c_cflag == (B38400 | CS8 | CREAD) &&
		    tio.c_lflag ==
			    (ISIG | ICANON | ECHO | ECHOE | ECHOK | IEXTEN | ECHOCTL | ECHOKE)) {
			expect("0", "ioctl(%ld, TCGETS, %s)", fd, q);
			syscall(SYS_ioctl, fd, TCSETS, &tio);
			expect("0", "ioctl(%ld, TCSETS, %s)", fd, q);
		}
		syscall(SYS_close, fd);
		expect("0", "close(%ld)", fd);
	}

	syscall(SYS_kill, getpid(), SIGUSR1);
	expect("0", "kill(%d, SIGUSR1)", getpid());
	snprintf(line, sizeof(line),
		 "--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=%d, si_uid=%d} ---",
		 getpid(), getuid());
	expect_raw(line);
	expect("0", "rt_sigreturn({mask=[]})");

	fd = syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	expect(r(fd), "socket(AF_UNIX, SOCK_STREAM, 0)");
	{
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		strcpy(un.sun_path, "/nonexistent/ptk.sock");
		syscall(SYS_connect, fd, &un, sizeof(un));
		expect(enoent,
		       "connect(%ld, {sa_family=AF_UNIX, sun_path=\"/nonexistent/ptk.sock\"}, %zu)",
		       fd, sizeof(un));
	}
	syscall(SYS_close, fd);
	expect("0", "close(%ld)", fd);
	fd = syscall(SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	expect(r(fd), "socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP)");
	{
		struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(1) };
		in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		syscall(SYS_connect, fd, &in, sizeof(in));
		expect("-1 ECONNREFUSED (Connection refused)",
		       "connect(%ld, {sa_family=AF_INET, sin_port=htons(1), "
		       "sin_addr=inet_addr(\"127.0.0.1\")}, 16)",
		       fd);
	}
	syscall(SYS_close, fd);
	expect("0", "close(%ld)", fd);

	n = syscall(SYS_getppid);
	expect(r(n), "getppid()");
	syscall(SYS_access, "/ptk-probe-end", F_OK);
	expect(enoent, "access(\"/ptk-probe-end\", F_OK)");

	f = fopen(argv[1], "w");
	if (!f || fwrite(exp_buf, 1, exp_len, f) != exp_len || fclose(f))
		return 1;
	return got == SIGUSR1 ? 0 : 3;
}
