/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ptk tcpconnect and ptk tcpaccept share: the options (-t -T -U -s -u -P -4 -6), the
 * hooks tried in turn (fexit, then kprobes, then the syscalls tracepoints), and an event
 * (struct tcpev_event) printed as a row of the tool's columns.
 */
#ifndef PTK_CMD_TCPEV_H
#define PTK_CMD_TCPEV_H

#include <linux/types.h>

#include "source/bpf/runner.h"
#include "source/bpf/tcpev.h"

/* The values of an event; a tool's columns show them in its own order. */
enum tcpev_val {
	TCPEV_TIME, /* HH:MM:SS, -T */
	TCPEV_TS, /* seconds since the first event, -t */
	TCPEV_UID, /* -U */
	TCPEV_PID,
	TCPEV_COMM,
	TCPEV_IP,
	TCPEV_LADDR,
	TCPEV_LPORT, /* -s when the tool has it */
	TCPEV_RADDR,
	TCPEV_RPORT,
	TCPEV_NVALS
};

/* Hooks, cheapest first; the load falls back down the list when one cannot attach. */
enum tcpev_hook { TCPEV_FEXIT, TCPEV_KPROBE, TCPEV_SYSCALL, TCPEV_NHOOKS };

/* A column of a tool: the value it shows, under the tool's title, JSON key and width (its
 * classic tool's layout); the type, unit and help are the value's (tcpev.c). */
struct tcpev_col {
	enum tcpev_val val;
	const char *title, *key;
	int width;
};

struct tcpev_tool {
	const char *what; /* "connects": the table's name and the banner's */
	const struct tcpev_col *cols;
	int ncols;
	const char *const *hook_names; /* TCPEV_NHOOKS of them */
	const char *fexit_funcs[3]; /* the fexit hook needs a trampoline on each */
	bool lport_asked; /* the local port is shown with -s only */
};

struct tcpev {
	const struct tcpev_tool *tool;
	bool time, timestamp, print_uid, sport, only4, only6;
	enum tcpev_hook hook; /* the cheapest that loads */
	int nports;
	__u16 ports[TCPEV_MAX_PORTS];
	u64 first_ns;
	struct ptk_metric cols[TCPEV_NVALS]; /* the tool's columns, described */
};

/* The read-only data the filters of both tools share (before load). */
#define TCPEV_SET_RODATA(skel, r, t)                                                            \
	do {                                                                                    \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);                                        \
		(skel)->rodata->filter_ports_len = (t)->nports;                                 \
		memcpy((void *)(skel)->rodata->filter_ports, (t)->ports, sizeof((t)->ports));   \
		(skel)->rodata->targ_family = (t)->only4 ? AF_INET : (t)->only6 ? AF_INET6 : 0; \
	} while (0)

/* The options both tools have (after -T / -s, which one of them has). */
#define TCPEV_OPTS                                                       \
	PTK_BPF_FLAG('t', "timestamp", struct tcpev, timestamp),         \
		PTK_BPF_FLAG('U', "print-uid", struct tcpev, print_uid), \
		PTK_BPF_CALL('P', "port", required_argument),            \
		PTK_BPF_FLAG('4', "ipv4", struct tcpev, only4),          \
		PTK_BPF_FLAG('6', "ipv6", struct tcpev, only6),          \
	{                                                                \
		0                                                        \
	}

/* The struct ptk_bpf_ops callbacks; r->priv is a struct tcpev. */
int tcpev_opt(struct ptk_bpf_run *r, int c, const char *arg);
int tcpev_prepare(struct ptk_bpf_run *r);
int tcpev_load(struct ptk_bpf_run *r);
int tcpev_event(struct ptk_bpf_run *r, const void *data, size_t len);

#endif
