// SPDX-License-Identifier: GPL-2.0
/*
 * ptk nicstat: per-interface throughput, utilization and saturation, and TCP rates, as
 * Brendan Gregg's and Tim Cook's nicstat (Linux build) shows them. Every column is a registry
 * entry computed by the network activities (model/act_net.c: net_dev with restart_zero, tcp,
 * etcp); this file selects the interfaces and lays the columns out as nicstat prints them.
 * The first report covers the time since boot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/activity.h"

/* A column: registry entry m, titled and sized as nicstat prints it (name NULL: the
 * registry's title). */
struct nic_col {
	enum ptk_mid m;
	const char *name;
	int width;
};

static const struct nic_col if_layout[] = {
	{ PTK_M_NET_IFACE, "Int", 8 },	 { PTK_M_NET_RXKB, "rKB/s", 7 },
	{ PTK_M_NET_TXKB, "wKB/s", 7 },	 { PTK_M_NET_RXPCK, "rPk/s", 7 },
	{ PTK_M_NET_TXPCK, "wPk/s", 7 }, { PTK_M_NET_RXAVS, NULL, 7 },
	{ PTK_M_NET_TXAVS, NULL, 7 },	 { PTK_M_NET_IFUTIL, "%Util", 5 },
	{ PTK_M_NET_SAT, NULL, 6 },
};
#define N_NCOLS ((int)ARRAY_SIZE(if_layout))

static const struct nic_col tcp_layout[] = {
	{ PTK_M_TCP_INKB, NULL, 7 },	       { PTK_M_TCP_OUTKB, NULL, 7 },
	{ PTK_M_TCP_ISEG, "InSeg", 7 },	       { PTK_M_TCP_OSEG, "OutSeg", 7 },
	{ PTK_M_TCP_RESETS, NULL, 5 },	       { PTK_M_TCP_ATMPTF, "AttF", 5 },
	{ PTK_M_TCP_RETRANS_PCT, "%ReTX", 5 }, { PTK_M_TCP_PASSIVE, "InConn", 6 },
	{ PTK_M_TCP_ACTIVE, "OutCon", 6 },     { PTK_M_TCP_LDROPS, NULL, 5 },
};
#define T_NCOLS ((int)ARRAY_SIZE(tcp_layout))

#define PAGE_LINES 20 /* nicstat repeats the header every 20 lines */

struct nicstat {
	bool tcp, skipzero, nonlocal;
	char **ifs; /* -i list, NULL = all */
	int nifs;
	struct ptk_snap s[2];
	int cur;
	struct ptk_rows rows, etcp;
	struct ptk_metric if_cols[N_NCOLS], tcp_cols[T_NCOLS];
	struct ptk_table if_tab, tcp_tab;
	int lines; /* lines since the last header */
};

static const char usage[] =
	"usage: ptk nicstat [-t] [-n] [-z] [-i IF[,IF...]] [--json] [interval [count]]\n"
	"Per-interface throughput, packet rates, average packet size, utilization and\n"
	"saturation, as nicstat. The first report covers the time since boot; count includes it.\n"
	"  -i IF[,IF...]  these interfaces only\n"
	"  -n             non-local interfaces only (exclude lo)\n"
	"  -t             TCP statistics instead of interfaces\n"
	"  -z             skip interfaces with no packets in the interval\n";

/* The columns of a layout: registry entries with nicstat's titles and widths. */
static void nic_table(const struct nic_col *l, int n, struct ptk_metric *cols,
		      struct ptk_table *tab, const char *name)
{
	for (int i = 0; i < n; i++) {
		cols[i] = ptk_registry[l[i].m];
		if (l[i].name)
			cols[i].name = l[i].name;
		cols[i].width = l[i].width;
	}
	*tab = (struct ptk_table){ name, cols, n };
}

static bool if_wanted(const struct nicstat *ns, const char *name)
{
	if (ns->nonlocal && !strcmp(name, "lo"))
		return false;
	if (!ns->ifs)
		return true;
	for (int i = 0; i < ns->nifs; i++)
		if (!strcmp(ns->ifs[i], name))
			return true;
	return false;
}

/* Metric m of row r of activity a (na when r is NULL or a does not hold m). */
static struct ptk_val act_val(const struct ptk_row *r, enum ptk_act_id a, enum ptk_mid m)
{
	int i = ptk_act_col(&ptk_activities[a], m);

	return r && i >= 0 ? r->v[i] : PTK_NA;
}

/* The TCP row (tcp and etcp activities) in tcp_layout's columns. In text, %ReTX of an
 * interval that sent no segment is 0.00, as nicstat prints it (the model: unknown). */
static void tcp_vals(struct ptk_ctx *ctx, struct nicstat *ns, struct ptk_val *v)
{
	const struct ptk_row *t = ns->rows.n ? &ns->rows.r[0] : NULL;
	const struct ptk_row *e = ns->etcp.n ? &ns->etcp.r[0] : NULL;

	for (int c = 0; c < T_NCOLS; c++) {
		enum ptk_mid m = tcp_layout[c].m;
		v[c] = ptk_act_col(&ptk_activities[PTK_ACT_TCP], m) >= 0 ?
			       act_val(t, PTK_ACT_TCP, m) :
			       act_val(e, PTK_ACT_ETCP, m);
		if (m == PTK_M_TCP_RETRANS_PCT && v[c].na && !ctx->json) {
			struct ptk_val out = act_val(t, PTK_ACT_TCP, PTK_M_TCP_OSEG);
			if (!out.na && out.f == 0)
				v[c] = PTK_F(0);
		}
	}
}

static int nicstat_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	static const struct ptk_act_opts opts = { .restart_zero = true };
	struct nicstat *ns = arg;
	struct ptk_snap *now = &ns->s[ns->cur], *old = &ns->s[!ns->cur];
	struct ptk_sink *s = &ctx->sink;
	char clock[16];
	int r;

	/* the uptime and the interfaces (or TCP) only: a tree may hold no /proc/stat */
	r = ptk_snap_read(&ctx->src, now,
			  PTK_SNAP_BIT(ns->tcp ? PTK_SNAP_SNMP : PTK_SNAP_NETDEV) |
				  PTK_SNAP_STAT_OPTIONAL);
	if (r) {
		ptk_err("cannot read %s/uptime: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (i == 0) {
		itv = now->up.up_s; /* first report: since boot */
		if (itv <= 0) {
			ptk_err("cannot read %s/uptime", ctx->src.procfs);
			return PTK_EXIT_RUNTIME;
		}
	}
	ns->cur = !ns->cur;
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_str(s, "clock", clock);
	ptk_sink_meta_f64(s, "interval_s", itv);
	ptk_sink_meta_bool(s, "since_boot", i == 0);

	if (ns->tcp) {
		struct ptk_val v[T_NCOLS];
		s64 x;

		r = now->err[PTK_SNAP_SNMP];
		if (!r && !ptk_kvs_get(&now->kvs, "Tcp.InSegs", &x))
			r = -EINVAL;
		if (r) {
			ptk_err("cannot read %s/net/snmp: %s", ctx->src.procfs, strerror(-r));
			return PTK_EXIT_RUNTIME;
		}
		ns->rows.n = ns->etcp.n = 0;
		ptk_activities[PTK_ACT_TCP].rows(i == 0 ? NULL : old, now, itv, NULL, &ns->rows);
		ptk_activities[PTK_ACT_ETCP].rows(i == 0 ? NULL : old, now, itv, NULL, &ns->etcp);
		tcp_vals(ctx, ns, v);
		if (ctx->json) {
			ptk_sink_meta_json(s, "tcp", ptk_json_row(&ns->tcp_tab, v));
		} else {
			ptk_sink_table_begin(s, &ns->tcp_tab, true, clock);
			ptk_sink_row(s, "TCP", v);
			ptk_sink_table_end(s);
		}
		ptk_sink_end(s);
		return 0;
	}

	if ((r = now->err[PTK_SNAP_NETDEV])) {
		ptk_err("cannot read %s/net/dev: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	int matched = 0;
	for (int k = 0; k < now->nd.n; k++) {
		const struct ptk_netdev *d = &now->nd.d[k];
		/* nicstat skips interfaces that never carried a packet */
		if (if_wanted(ns, d->name) && (d->f[PTK_ND_RX_PACKETS] || d->f[PTK_ND_TX_PACKETS]))
			matched++;
	}
	if (i == 0 && matched == 0) {
		ptk_err("no matching interface");
		return PTK_EXIT_RUNTIME;
	}
	ns->rows.n = 0;
	ptk_activities[PTK_ACT_NET_DEV].rows(i == 0 ? NULL : old, now, itv, &opts, &ns->rows);
	if (ns->lines >= PAGE_LINES) {
		ns->lines = 0;
		ptk_sink_table_begin(s, &ns->if_tab, true, "    Time");
	} else {
		ptk_sink_table_begin(s, &ns->if_tab, false, NULL);
	}
	for (int k = 0; k < now->nd.n; k++) {
		const struct ptk_netdev *d = &now->nd.d[k];
		const struct ptk_row *row = ptk_rows_find(&ns->rows, d->name);
		struct ptk_val v[N_NCOLS];

		if (!if_wanted(ns, d->name) ||
		    !(d->f[PTK_ND_RX_PACKETS] || d->f[PTK_ND_TX_PACKETS]))
			continue;
		if (i > 0 && !ptk_netdev_find(&old->nd, d->name))
			continue; /* appeared in this interval: its baseline is now */
		for (int c = 0; c < N_NCOLS; c++)
			v[c] = act_val(row, PTK_ACT_NET_DEV, if_layout[c].m);
		v[0] = PTK_S(d->name);
		/* with several interfaces, nicstat prints the header every interval */
		ns->lines += matched > 1 ? PAGE_LINES : 1;
		struct ptk_val rp = act_val(row, PTK_ACT_NET_DEV, PTK_M_NET_RXPCK);
		struct ptk_val tp = act_val(row, PTK_ACT_NET_DEV, PTK_M_NET_TXPCK);
		if (ns->skipzero && !rp.na && !tp.na && rp.f + tp.f == 0)
			continue;
		ptk_sink_row(s, clock, v);
	}
	ptk_sink_table_end(s);
	ptk_sink_end(s);
	return 0;
}

/* Split "a,b,c" in place into ns->ifs. Returns 0 or -EINVAL (empty or too long a name). */
static int parse_if_list(struct nicstat *ns, char *list)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!*tok || strlen(tok) >= sizeof(ns->s[0].nd.d[0].name))
			return -EINVAL;
		ns->ifs = xrealloc(ns->ifs, (ns->nifs + 1) * sizeof(*ns->ifs));
		ns->ifs[ns->nifs++] = tok;
	}
	return ns->nifs ? 0 : -EINVAL;
}

int cmd_nicstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	struct nicstat ns = { .lines = PAGE_LINES };
	double interval = 1;
	long count = 1;
	bool has_interval;
	int c, r;

	while ((c = getopt_long(argc, argv, "i:ntz", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (parse_if_list(&ns, optarg)) {
				free(ns.ifs);
				return ptk_usage_error(ctx, "invalid interface list '%s'", optarg);
			}
			break;
		case 'n':
			ns.nonlocal = true;
			break;
		case 't':
			ns.tcp = true;
			break;
		case 'z':
			ns.skipzero = true;
			break;
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				free(ns.ifs);
				return 0;
			}
			if (r < 0) {
				free(ns.ifs);
				return ptk_usage_error(ctx, "unknown option");
			}
		}
	}
	r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_interval);
	if (!r && has_interval && argc - optind < 2)
		count = -1; /* interval without count: until interrupted */
	if (!r)
		r = ptk_ctx_ready(ctx);
	if (!r) {
		ctx->sink.prefix_width = 8; /* Time, HH:MM:SS */
		nic_table(if_layout, N_NCOLS, ns.if_cols, &ns.if_tab, "interfaces");
		nic_table(tcp_layout, T_NCOLS, ns.tcp_cols, &ns.tcp_tab, "tcp");
		/* nicstat's count includes the since-boot report */
		r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, nicstat_sample, &ns);
		if (r == -EINTR)
			r = 0;
	}
	ptk_snap_free(&ns.s[0]);
	ptk_snap_free(&ns.s[1]);
	ptk_rows_free(&ns.rows);
	ptk_rows_free(&ns.etcp);
	free(ns.ifs);
	return r;
}
