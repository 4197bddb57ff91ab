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

enum {
	COL_TIME,
	COL_TS,
	COL_UID,
	COL_PID,
	COL_COMM,
	COL_IP,
	COL_RADDR,
	COL_RPORT,
	COL_LADDR,
	COL_LPORT,
	NCOLS
};

static const struct ptk_metric cols[NCOLS] = {
	[COL_TIME] = { "TIME", "time", "", PTK_GAUGE, PTK_V_STR, -8, 0,
		       "wall-clock time the event was printed (HH:MM:SS)" },
	[COL_TS] = { "TIME(s)", "ts_s", "s", PTK_GAUGE, PTK_V_F64, -8, 3,
		     "seconds since the first event (bpf_ktime_get_ns at accept return)" },
	[COL_UID] = { "UID", "uid", "", PTK_GAUGE, PTK_V_U64, -5, 0,
		      "real UID of the accepting process (bpf_get_current_uid_gid)" },
	[COL_PID] = { "PID", "pid", "", PTK_GAUGE, PTK_V_S64, -7, 0,
		      "process id (tgid) that called accept()" },
	[COL_COMM] = { "COMM", "comm", "", PTK_GAUGE, PTK_V_STR, -12, 0,
		       "comm of the accepting thread, task_struct::comm" },
	[COL_IP] = { "IP", "ip", "", PTK_GAUGE, PTK_V_U64, -2, 0, "IP version: 4 or 6" },
	[COL_RADDR] = { "RADDR", "raddr", "", PTK_GAUGE, PTK_V_STR, -16, 0,
			"remote (peer) address, sock_common::skc_daddr / skc_v6_daddr" },
	[COL_RPORT] = { "RPORT", "rport", "", PTK_GAUGE, PTK_V_U64, -5, 0,
			"remote port, sock_common::skc_dport" },
	[COL_LADDR] = { "LADDR", "laddr", "", PTK_GAUGE, PTK_V_STR, -16, 0,
			"local address, sock_common::skc_rcv_saddr / skc_v6_rcv_saddr" },
	[COL_LPORT] = { "LPORT", "lport", "", PTK_GAUGE, PTK_V_U64, -5, 0,
			"local (listening) port, sock_common::skc_num" },
};

static const enum tcpev_val vals[NCOLS] = {
	[COL_TIME] = TCPEV_TIME,   [COL_TS] = TCPEV_TS,	      [COL_UID] = TCPEV_UID,
	[COL_PID] = TCPEV_PID,	   [COL_COMM] = TCPEV_COMM,   [COL_IP] = TCPEV_IP,
	[COL_RADDR] = TCPEV_RADDR, [COL_RPORT] = TCPEV_RPORT, [COL_LADDR] = TCPEV_LADDR,
	[COL_LPORT] = TCPEV_LPORT,
};

static const char *const hook_names[TCPEV_NHOOKS] = { "fexit", "kretprobe", "syscalls" };

static const struct tcpev_tool tool = {
	.what = "accepts",
	.cols = cols,
	.vals = vals,
	.ncols = NCOLS,
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

static const struct ptk_bpf_ops ops = {
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
};

int cmd_tcpaccept(struct ptk_ctx *ctx, int argc, char **argv)
{
	struct tcpev t = { .tool = &tool };

	return ptk_bpf_main(ctx, &ops, &t, argc, argv);
}
