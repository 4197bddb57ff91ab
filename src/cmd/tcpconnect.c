// SPDX-License-Identifier: GPL-2.0
/* ptk tcpconnect: trace active TCP connects, IPv4 and IPv6 (libbpf-tools tcpconnect). */
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cmd.h"
#include "cmd/tcpev.h"
#include "tcpconnect.skel.h"

static const char usage[] =
	"usage: ptk tcpconnect [-t] [-U] [-s] [-4|-6] [-p PID] [-P PORTS] [-u UID] [-c COMM]\n"
	"                      [--cgroup PATH] [--json]\n"
	"Trace active TCP connects (connect() that sent a SYN): fexit on tcp_v4_connect /\n"
	"tcp_v6_connect, else kprobe+kretprobe, else the connect() syscall tracepoints.\n"
	"  -t           seconds since the first event column   -U  UID column\n"
	"  -s           SPORT column (the local port connect() picked)\n"
	"  -4 / -6      IPv4 / IPv6 only\n"
	"  -p PID       only this process; -u UID only this user; -c COMM exact comm\n"
	"  -P PORTS     only these destination ports (comma-separated)\n"
	"Events lost (ring buffer full) are counted and printed at exit, never dropped silently.\n";

static const struct tcpev_col cols[] = {
	{ TCPEV_TS, "TIME(s)", "ts_s", -8 },	{ TCPEV_UID, "UID", "uid", -5 },
	{ TCPEV_PID, "PID", "pid", -6 },	{ TCPEV_COMM, "COMM", "comm", -12 },
	{ TCPEV_IP, "IP", "ip", -2 },		{ TCPEV_LADDR, "SADDR", "saddr", -16 },
	{ TCPEV_RADDR, "DADDR", "daddr", -16 }, { TCPEV_LPORT, "SPORT", "sport", -5 },
	{ TCPEV_RPORT, "DPORT", "dport", -5 },
};

static const char *const hook_names[TCPEV_NHOOKS] = { "fexit", "kprobe", "syscalls" };

static const struct tcpev_tool tool = {
	.what = "connects",
	.cols = cols,
	.ncols = ARRAY_SIZE(cols),
	.hook_names = hook_names,
	.fexit_funcs = { "tcp_v4_connect", "tcp_v6_connect" },
	.lport_asked = true,
};

static int tc_open(struct ptk_bpf_run *r)
{
	struct tcpconnect_bpf *s = PTK_BPF_OPEN(r, tcpconnect_bpf);
	struct tcpev *t = r->priv;
	bool v4 = !t->only6, v6 = !t->only4;

	if (!s)
		return -errno;
	TCPEV_SET_RODATA(s, r, t);
	bpf_program__set_autoload(s->progs.fexit_v4_connect, v4 && t->hook == TCPEV_FEXIT);
	bpf_program__set_autoload(s->progs.fexit_v6_connect, v6 && t->hook == TCPEV_FEXIT);
	bpf_program__set_autoload(s->progs.kp_v4_connect, v4 && t->hook == TCPEV_KPROBE);
	bpf_program__set_autoload(s->progs.krp_v4_connect, v4 && t->hook == TCPEV_KPROBE);
	bpf_program__set_autoload(s->progs.kp_v6_connect, v6 && t->hook == TCPEV_KPROBE);
	bpf_program__set_autoload(s->progs.krp_v6_connect, v6 && t->hook == TCPEV_KPROBE);
	bpf_program__set_autoload(s->progs.tp_sys_enter_connect, t->hook == TCPEV_SYSCALL);
	bpf_program__set_autoload(s->progs.tp_sys_exit_connect, t->hook == TCPEV_SYSCALL);
	return 0;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_FLAG('s', "source-port", struct tcpev, sport),
	TCPEV_OPTS,
};

const struct ptk_bpf_ops ptk_tcpconnect_ops = {
	.name = "tcpconnect",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_COMM | PTK_BPF_OPT_CGROUP | PTK_BPF_OPT_UID |
		  PTK_BPF_OPT_VERBOSE,
	.opt = tcpev_opt,
	.prepare = tcpev_prepare,
	.open = tc_open,
	.load = tcpev_load,
	.event = tcpev_event,
	.needs_tracefs = true, /* the kprobe and syscalls fallbacks */
	.priv_size = sizeof(struct tcpev),
	.priv_init = &(const struct tcpev){ .tool = &tool },
};
