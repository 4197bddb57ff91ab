// SPDX-License-Identifier: GPL-2.0
/* ptk tcpaccept: trace passive TCP connections as accept() returns them (bcc tcpaccept). */
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cmd.h"
#include "cmd/tcpev.h"
#include "tcpaccept.skel.h"

static const char usage[] =
	"usage: ptk tcpaccept [-T] [-t] [-U] [-4|-6] [-p PID] [-P PORTS] [-c COMM]\n"
	"                     [--cgroup PATH] [--json]\n"
	"Trace passive TCP connections as accept() returns them: the return of\n"
	"inet_csk_accept() (fexit, else kretprobe, else the accept()/accept4() syscall\n"
	"tracepoints), in the accepting process's context.\n"
	"  -T           HH:MM:SS time column   -t  seconds since the first event column\n"
	"  -U           UID column\n"
	"  -4 / -6      IPv4 / IPv6 only\n"
	"  -p PID       only this process; -c COMM exact comm\n"
	"  -P PORTS     only these local (listening) ports (comma-separated)\n"
	"Events lost (ring buffer full) are counted and printed at exit, never dropped silently.\n";

static const struct tcpev_col cols[] = {
	{ TCPEV_TIME, "TIME", "time", -8 },	{ TCPEV_TS, "TIME(s)", "ts_s", -8 },
	{ TCPEV_UID, "UID", "uid", -5 },	{ TCPEV_PID, "PID", "pid", -7 },
	{ TCPEV_COMM, "COMM", "comm", -12 },	{ TCPEV_IP, "IP", "ip", -2 },
	{ TCPEV_RADDR, "RADDR", "raddr", -16 }, { TCPEV_RPORT, "RPORT", "rport", -5 },
	{ TCPEV_LADDR, "LADDR", "laddr", -16 }, { TCPEV_LPORT, "LPORT", "lport", -5 },
};

static const char *const hook_names[TCPEV_NHOOKS] = { "fexit", "kretprobe", "syscalls" };

static const struct tcpev_tool tool = {
	.what = "accepts",
	.cols = cols,
	.ncols = ARRAY_SIZE(cols),
	.hook_names = hook_names,
	.fexit_funcs = { "inet_csk_accept" },
};

/* fexit needs a trampoline and bpf_get_func_ret (5.17); else kretprobe, else syscalls. */
static int ta_open(struct ptk_bpf_run *r)
{
	struct tcpaccept_bpf *s = PTK_BPF_OPEN(r, tcpaccept_bpf);
	struct tcpev *t = r->priv;

	if (!s)
		return -errno;
	TCPEV_SET_RODATA(s, r, t);
	bpf_program__set_autoload(s->progs.fexit_accept, t->hook == TCPEV_FEXIT);
	bpf_program__set_autoload(s->progs.krp_accept, t->hook == TCPEV_KPROBE);
	bpf_program__set_autoload(s->progs.tp_sys_exit_accept, t->hook == TCPEV_SYSCALL);
	bpf_program__set_autoload(s->progs.tp_sys_exit_accept4, t->hook == TCPEV_SYSCALL);
	return 0;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_FLAG('T', "time", struct tcpev, time),
	TCPEV_OPTS,
};

const struct ptk_bpf_ops ptk_tcpaccept_ops = {
	.name = "tcpaccept",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_COMM | PTK_BPF_OPT_CGROUP | PTK_BPF_OPT_VERBOSE,
	.opt = tcpev_opt,
	.prepare = tcpev_prepare,
	.open = ta_open,
	.load = tcpev_load,
	.event = tcpev_event,
	.needs_tracefs = true, /* the kretprobe and syscalls fallbacks */
	.priv_size = sizeof(struct tcpev),
	.priv_init = &(const struct tcpev){ .tool = &tool },
};
