// SPDX-License-Identifier: GPL-2.0
/* What ptk tcpconnect and ptk tcpaccept share (tcpev.h). */
#include "cmd/tcpev.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

/* The values as columns: type, unit, precision, help (a tool gives titles and widths). */
static const struct ptk_metric val_cols[TCPEV_NVALS] = {
	[TCPEV_TIME] = { .unit = "",
			 .type = PTK_V_STR,
			 .help = "wall-clock time the event was printed (HH:MM:SS)" },
	[TCPEV_TS] = { .unit = "s",
		       .type = PTK_V_F64,
		       .prec = 3,
		       .help = "seconds since the first event (bpf_ktime_get_ns at the hook)" },
	[TCPEV_UID] = { .unit = "",
			.type = PTK_V_U64,
			.help = "real UID of the calling process (bpf_get_current_uid_gid)" },
	[TCPEV_PID] = { .unit = "",
			.type = PTK_V_S64,
			.help = "process id (tgid) that called connect() or accept()" },
	[TCPEV_COMM] = { .unit = "",
			 .type = PTK_V_STR,
			 .help = "comm of the calling thread, task_struct::comm" },
	[TCPEV_IP] = { .unit = "", .type = PTK_V_U64, .help = "IP version: 4 or 6" },
	[TCPEV_LADDR] = { .unit = "",
			  .type = PTK_V_STR,
			  .help = "local address, sock_common::skc_rcv_saddr / skc_v6_rcv_saddr" },
	[TCPEV_LPORT] = { .unit = "",
			  .type = PTK_V_U64,
			  .help = "local port (the listening one of an accept), sock_common::skc_num" },
	[TCPEV_RADDR] = { .unit = "",
			  .type = PTK_V_STR,
			  .help = "remote address, sock_common::skc_daddr / skc_v6_daddr" },
	[TCPEV_RPORT] = { .unit = "",
			  .type = PTK_V_U64,
			  .help = "remote port, sock_common::skc_dport" },
};

/* Parse "80,443" into ports (1..65535). Returns the count, or -1. */
static int parse_ports(const char *s, __u16 *ports, int max)
{
	char buf[512], *tok, *save = NULL;
	int n = 0, v;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= max || ptk_parse_int(tok, &v) || v < 1 || v > 65535)
			return -1;
		ports[n++] = v;
	}
	return n ? n : -1;
}

/* -P PORTS */
int tcpev_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct tcpev *t = r->priv;

	t->nports = parse_ports(arg, t->ports, TCPEV_MAX_PORTS);
	if (t->nports < 0)
		return ptk_usage_error(r->ctx, "invalid PORTS '%s' (1-65535, comma-separated)",
				       arg);
	return 0;
}

int tcpev_prepare(struct ptk_bpf_run *r)
{
	struct tcpev *t = r->priv;
	const struct tcpev_tool *tool = t->tool;
	u64 hide = 0;

	if (t->only4 && t->only6)
		return ptk_usage_error(r->ctx, "-4 and -6 are exclusive");
	t->hook = TCPEV_FEXIT;
	for (int i = 0; tool->fexit_funcs[i]; i++)
		if (!ptk_bpf_has_fentry(tool->fexit_funcs[i]))
			t->hook = TCPEV_KPROBE;
	for (int i = 0; i < tool->ncols; i++) {
		enum tcpev_val v = tool->cols[i].val;

		t->cols[i] = val_cols[v];
		t->cols[i].name = tool->cols[i].title;
		t->cols[i].key = tool->cols[i].key;
		t->cols[i].width = tool->cols[i].width;
		if ((v == TCPEV_TIME && !t->time) || (v == TCPEV_TS && !t->timestamp) ||
		    (v == TCPEV_UID && !t->print_uid) ||
		    (v == TCPEV_LPORT && tool->lport_asked && !t->sport))
			hide |= 1ull << i;
	}
	ptk_bpf_event_table(r, tool->what, t->cols, tool->ncols, hide);
	return 0;
}

int tcpev_load(struct ptk_bpf_run *r)
{
	struct tcpev *t = r->priv;
	int err;

	for (;;) {
		err = ptk_bpf_skel_load(r);
		if (!err || t->hook == TCPEV_SYSCALL)
			break;
		/* no trampolines (or no kprobes) on this kernel: the next hook */
		ptk_bpf_skel_destroy(r);
		t->hook++;
		if ((err = r->ops->open(r)))
			return err;
	}
	r->hook = t->tool->hook_names[t->hook];
	snprintf(r->banner, sizeof(r->banner), "Tracing TCP %s (%s)... Hit Ctrl-C to end.",
		 t->tool->what, r->hook);
	return err;
}

int tcpev_event(struct ptk_bpf_run *r, const void *data, size_t len)
{
	struct tcpev *t = r->priv;
	const struct tcpev_event *e = data;
	struct ptk_val v[TCPEV_NVALS], cols[PTK_BPF_MAX_COLS];
	char la[INET6_ADDRSTRLEN], ra[INET6_ADDRSTRLEN], comm[17], ts[16];
	int af = e->af == 10 ? AF_INET6 : AF_INET;

	if (len < sizeof(*e))
		return 0;
	if (!r->events)
		t->first_ns = e->ts_ns;
	memcpy(comm, e->comm, 16);
	comm[16] = '\0';
	inet_ntop(af, e->laddr, la, sizeof(la));
	inet_ntop(af, e->raddr, ra, sizeof(ra));
	if (t->time)
		ptk_ctx_clock(r->ctx, ts, sizeof(ts));
	v[TCPEV_TIME] = t->time ? PTK_S(ts) : PTK_NA;
	v[TCPEV_TS] = PTK_F((e->ts_ns - t->first_ns) / 1e9);
	v[TCPEV_UID] = PTK_U(e->uid);
	v[TCPEV_PID] = PTK_I(e->pid);
	v[TCPEV_COMM] = PTK_S(comm);
	v[TCPEV_IP] = PTK_U(af == AF_INET6 ? 6 : 4);
	/* a connect that failed after its SYN (syscall hook): its local end is unknown */
	v[TCPEV_LADDR] = e->err ? PTK_NA : PTK_S(la);
	v[TCPEV_LPORT] = e->err ? PTK_NA : PTK_U(e->lport);
	v[TCPEV_RADDR] = PTK_S(ra);
	v[TCPEV_RPORT] = PTK_U(e->rport);
	for (int i = 0; i < t->tool->ncols && i < PTK_BPF_MAX_COLS; i++)
		cols[i] = v[t->tool->cols[i].val];
	ptk_bpf_event_row(r, cols);
	return 1;
}
