// SPDX-License-Identifier: GPL-2.0
/* What ptk tcpconnect and ptk tcpaccept share (tcpev.h). */
#include "cmd/tcpev.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

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
	for (int i = 0; i < tool->ncols; i++)
		if ((tool->vals[i] == TCPEV_TIME && !t->time) ||
		    (tool->vals[i] == TCPEV_TS && !t->timestamp) ||
		    (tool->vals[i] == TCPEV_UID && !t->print_uid) ||
		    (tool->vals[i] == TCPEV_LPORT && tool->lport_asked && !t->sport))
			hide |= 1ull << i;
	ptk_bpf_event_table(r, tool->what, tool->cols, tool->ncols, hide);
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
		cols[i] = v[t->tool->vals[i]];
	ptk_bpf_event_row(r, cols);
	return 1;
}
