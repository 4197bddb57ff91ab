// SPDX-License-Identifier: GPL-2.0
/* ptk tcpconnect: trace active TCP connects, IPv4 and IPv6 (libbpf-tools tcpconnect). */
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cmd.h"
#include "source/bpf/runner.h"
#include "source/bpf/tcpconnect.h"
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

enum {
	COL_TS,
	COL_UID,
	COL_PID,
	COL_COMM,
	COL_IP,
	COL_SADDR,
	COL_DADDR,
	COL_SPORT,
	COL_DPORT,
	NCOLS
};

static const struct ptk_metric cols[NCOLS] = {
	[COL_TS] = { "TIME(s)", "ts_s", "s", PTK_GAUGE, PTK_V_F64, -8, 3,
		     "seconds since the first event (bpf_ktime_get_ns at connect return)" },
	[COL_UID] = { "UID", "uid", "", PTK_GAUGE, PTK_V_U64, -5, 0,
		      "real UID of the caller (bpf_get_current_uid_gid)" },
	[COL_PID] = { "PID", "pid", "", PTK_GAUGE, PTK_V_S64, -6, 0,
		      "process id (tgid) that called connect()" },
	[COL_COMM] = { "COMM", "comm", "", PTK_GAUGE, PTK_V_STR, -12, 0,
		       "comm of the connecting thread, task_struct::comm" },
	[COL_IP] = { "IP", "ip", "", PTK_GAUGE, PTK_V_U64, -2, 0, "IP version: 4 or 6" },
	[COL_SADDR] = { "SADDR", "saddr", "", PTK_GAUGE, PTK_V_STR, -16, 0,
			"local address, sock_common::skc_rcv_saddr / skc_v6_rcv_saddr" },
	[COL_DADDR] = { "DADDR", "daddr", "", PTK_GAUGE, PTK_V_STR, -16, 0,
			"remote address, sock_common::skc_daddr / skc_v6_daddr" },
	[COL_SPORT] = { "SPORT", "sport", "", PTK_GAUGE, PTK_V_U64, -5, 0,
			"local port, sock_common::skc_num" },
	[COL_DPORT] = { "DPORT", "dport", "", PTK_GAUGE, PTK_V_U64, -5, 0,
			"remote port, sock_common::skc_dport" },
};

/* Hooks, cheapest first; load() falls back down the list when one cannot attach. */
enum hook { HOOK_FEXIT, HOOK_KPROBE, HOOK_SYSCALL, NHOOKS };
static const char *const hook_names[NHOOKS] = { "fexit", "kprobe", "syscalls" };

struct priv {
	bool timestamp, print_uid, sport, only4, only6;
	int hook; /* enum hook: the cheapest that loads */
	__u32 uid;
	int nports;
	__u16 ports[TCPCONNECT_MAX_PORTS];
	struct ptk_metric shown[NCOLS];
	int map[NCOLS];
	struct ptk_table tab;
	u64 first_ns, events;
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

static struct bpf_object *object(struct ptk_bpf_run *r)
{
	return ((struct tcpconnect_bpf *)r->skel)->obj;
}

static int tc_open(struct ptk_bpf_run *r)
{
	struct tcpconnect_bpf *s = tcpconnect_bpf__open();
	struct priv *p = r->priv;
	bool v4 = !p->only6, v6 = !p->only4;

	if (!s)
		return -errno;
	r->skel = s;
	PTK_BPF_SET_FILTERS(s, &r->filter);
	s->rodata->targ_uid = p->uid;
	s->rodata->filter_ports_len = p->nports;
	memcpy((void *)s->rodata->filter_ports, p->ports, sizeof(p->ports));
	s->rodata->targ_family = p->only4 ? AF_INET : p->only6 ? AF_INET6 : 0;
	bpf_program__set_autoload(s->progs.fexit_v4_connect, v4 && p->hook == HOOK_FEXIT);
	bpf_program__set_autoload(s->progs.fexit_v6_connect, v6 && p->hook == HOOK_FEXIT);
	bpf_program__set_autoload(s->progs.kp_v4_connect, v4 && p->hook == HOOK_KPROBE);
	bpf_program__set_autoload(s->progs.krp_v4_connect, v4 && p->hook == HOOK_KPROBE);
	bpf_program__set_autoload(s->progs.kp_v6_connect, v6 && p->hook == HOOK_KPROBE);
	bpf_program__set_autoload(s->progs.krp_v6_connect, v6 && p->hook == HOOK_KPROBE);
	bpf_program__set_autoload(s->progs.tp_sys_enter_connect, p->hook == HOOK_SYSCALL);
	bpf_program__set_autoload(s->progs.tp_sys_exit_connect, p->hook == HOOK_SYSCALL);
	return 0;
}

static int handle_event(void *ctx, void *data, size_t len)
{
	struct ptk_bpf_run *r = ctx;
	struct priv *p = r->priv;
	const struct tcpconnect_event *e = data;
	struct ptk_val all[NCOLS], vals[NCOLS];
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN], comm[17];
	int af = e->af == 10 ? AF_INET6 : AF_INET;

	if (len < sizeof(*e))
		return 0;
	if (!p->events++)
		p->first_ns = e->ts_ns;
	memcpy(comm, e->comm, 16);
	comm[16] = '\0';
	inet_ntop(af, e->saddr, sa, sizeof(sa));
	inet_ntop(af, e->daddr, da, sizeof(da));
	all[COL_TS] = PTK_F((e->ts_ns - p->first_ns) / 1e9);
	all[COL_UID] = PTK_U(e->uid);
	all[COL_PID] = PTK_I(e->pid);
	all[COL_COMM] = PTK_S(comm);
	all[COL_IP] = PTK_U(af == AF_INET6 ? 6 : 4);
	/* a connect that failed after its SYN (syscall hook): its source is unknown */
	all[COL_SADDR] = e->err ? PTK_NA : PTK_S(sa);
	all[COL_DADDR] = PTK_S(da);
	all[COL_SPORT] = e->err ? PTK_NA : PTK_U(e->sport);
	all[COL_DPORT] = PTK_U(e->dport);
	for (int i = 0; i < p->tab.ncols; i++)
		vals[i] = all[p->map[i]];
	ptk_sink_event(&r->ctx->sink, &p->tab, vals);
	return 0;
}

static int tc_load(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct tcpconnect_bpf *s = r->skel;
	int err;

	for (;;) {
		err = tcpconnect_bpf__load(s);
		if (!err)
			err = tcpconnect_bpf__attach(s);
		if (!err || p->hook == HOOK_SYSCALL)
			break;
		/* no trampolines (or no kprobes) on this kernel: the next hook */
		tcpconnect_bpf__destroy(s);
		r->skel = NULL;
		p->hook++;
		if ((err = tc_open(r)))
			return err;
		s = r->skel;
	}
	if (err)
		return err;
	r->rb = ring_buffer__new(bpf_map__fd(s->maps.events), handle_event, r, NULL);
	if (!r->rb)
		return -errno;
	if (!r->ctx->json)
		ptk_sink_table_begin(&r->ctx->sink, &p->tab, true, NULL);
	fflush(stdout);
	fprintf(stderr, "Tracing TCP connects (%s)... Hit Ctrl-C to end.\n", hook_names[p->hook]);
	return 0;
}

static u64 tc_lost(struct ptk_bpf_run *r)
{
	return r->skel ? ptk_bpf_percpu_sum(
				 bpf_map__fd(((struct tcpconnect_bpf *)r->skel)->maps.lost), 0) :
			 0;
}

static int tc_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;

	if (r->ctx->json) {
		ptk_sink_begin(&r->ctx->sink);
		ptk_sink_meta_u64(&r->ctx->sink, "events", p->events);
		ptk_sink_meta_str(&r->ctx->sink, "hook", hook_names[p->hook]);
		ptk_sink_meta_json(&r->ctx->sink, "observer", ptk_bpf_observer_json(r));
		ptk_sink_end(&r->ctx->sink);
	}
	fflush(stdout);
	return 0;
}

static void tc_destroy(struct ptk_bpf_run *r)
{
	ring_buffer__free(r->rb);
	r->rb = NULL;
	tcpconnect_bpf__destroy(r->skel);
}

static const struct ptk_bpf_ops ops = {
	.name = "tcpconnect",
	.open = tc_open,
	.load = tc_load,
	.report = tc_report,
	.lost = tc_lost,
	.object = object,
	.destroy = tc_destroy,
	.needs_tracefs = true, /* the kprobe and syscalls fallbacks */
};

int cmd_tcpconnect(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timestamp", no_argument, NULL, 't' },
		{ "print-uid", no_argument, NULL, 'U' },
		{ "source-port", no_argument, NULL, 's' },
		{ "uid", required_argument, NULL, 'u' },
		{ "port", required_argument, NULL, 'P' },
		{ "ipv4", no_argument, NULL, '4' },
		{ "ipv6", no_argument, NULL, '6' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "cgroup", required_argument, NULL, PTK_OPT_CGROUP },
		{ "verbose", no_argument, NULL, 'v' },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct priv p = { .uid = TCPCONNECT_INVALID_UID };
	struct ptk_bpf_run r = { .ctx = ctx, .ops = &ops, .priv = &p, .count = -1 };
	int c, rc, v;

	while ((c = getopt_long(argc, argv, "tUsu:P:46p:c:v", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			p.timestamp = true;
			continue;
		case 'U':
			p.print_uid = true;
			continue;
		case 's':
			p.sport = true;
			continue;
		case '4':
			p.only4 = true;
			continue;
		case '6':
			p.only6 = true;
			continue;
		case 'u':
			if (ptk_parse_int(optarg, &v) || v < 0)
				return ptk_usage_error(ctx, "invalid UID '%s'", optarg);
			p.uid = v;
			continue;
		case 'P':
			p.nports = parse_ports(optarg, p.ports, TCPCONNECT_MAX_PORTS);
			if (p.nports < 0)
				return ptk_usage_error(
					ctx, "invalid PORTS '%s' (1-65535, comma-separated)",
					optarg);
			continue;
		}
		rc = ptk_bpf_common_opt(ctx, &r.filter, c, optarg);
		if (rc == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (rc == PTK_EXIT_USAGE)
			return rc;
		if (rc < 0)
			return ptk_usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (p.only4 && p.only6)
		return ptk_usage_error(ctx, "-4 and -6 are exclusive");
	p.hook = ptk_bpf_has_fentry("tcp_v4_connect") && ptk_bpf_has_fentry("tcp_v6_connect") ?
			 HOOK_FEXIT :
			 HOOK_KPROBE;
	for (int i = 0; i < NCOLS; i++) {
		if ((i == COL_TS && !p.timestamp) || (i == COL_UID && !p.print_uid) ||
		    (i == COL_SPORT && !p.sport))
			continue;
		p.map[p.tab.ncols] = i;
		p.shown[p.tab.ncols++] = cols[i];
	}
	p.tab.name = "connects";
	p.tab.cols = p.shown;
	return ptk_bpf_run(&r);
}
