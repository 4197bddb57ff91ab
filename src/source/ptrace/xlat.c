// SPDX-License-Identifier: GPL-2.0
#include "source/ptrace/xlat.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include <assert.h>

#define PTK_XLATENT_TABLE
#include "source/ptrace/xlatent.h"

const char *ptk_xlat_name(const struct ptk_xlat *x, uint64_t val)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->e[i].val == val)
			return x->e[i].name;
	return NULL;
}

char *ptk_xlat_flags(const struct ptk_xlat *x, uint64_t flags, const char *zero_name, char *buf,
		     size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	if (!flags) {
		snprintf(buf, size, "%s", zero_name ? zero_name : "0");
		return buf;
	}
	for (size_t i = 0; i < x->n && flags; i++) {
		uint64_t v = x->e[i].val;
		if (v && (flags & v) == v) {
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
					len ? "|" : "", x->e[i].name);
			flags &= ~v;
		}
	}
	if (flags)
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%#" PRIx64,
				len ? "|" : "", flags);
	return buf;
}

static const char *const signames[] = {
	[SIGHUP] = "HUP",   [SIGINT] = "INT",	    [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
	[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT",	    [SIGBUS] = "BUS",	[SIGFPE] = "FPE",
	[SIGKILL] = "KILL", [SIGUSR1] = "USR1",	    [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
	[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM",	    [SIGTERM] = "TERM", [SIGSTKFLT] = "STKFLT",
	[SIGCHLD] = "CHLD", [SIGCONT] = "CONT",	    [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
	[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU",	    [SIGURG] = "URG",	[SIGXCPU] = "XCPU",
	[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH",
	[SIGIO] = "IO",	    [SIGPWR] = "PWR",	    [SIGSYS] = "SYS",
};

const char *ptk_signal_abbrev(int sig)
{
	/* kernel numbering: 32 is the first real-time signal (strace: RTMIN, RT_1 ...) */
	static char rt[33][8];

	if (sig > 0 && sig < (int)ARRAY_SIZE(signames) && signames[sig])
		return signames[sig];
	if (sig == 32)
		return "RTMIN";
	if (sig > 32 && sig <= 64) {
		if (!rt[sig - 32][0])
			snprintf(rt[sig - 32], sizeof(rt[0]), "RT_%d", sig - 32);
		return rt[sig - 32];
	}
	return NULL;
}

const char *ptk_signal_name(int sig)
{
	static char buf[65][12];
	const char *a = ptk_signal_abbrev(sig);

	if (!a)
		return NULL;
	if (!buf[sig][0])
		snprintf(buf[sig], sizeof(buf[0]), "SIG%s", a);
	return buf[sig];
}

int ptk_signal_parse(const char *s)
{
	int v;

	if (!ptk_parse_int(s, &v))
		return v > 0 && v <= 64 ? v : -1;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i <= 64; i++)
		if (!strcasecmp(ptk_signal_abbrev(i), s))
			return i;
	return -1;
}
