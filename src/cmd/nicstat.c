// SPDX-License-Identifier: GPL-2.0
/*
 * ptk nicstat: per-interface throughput, utilization and saturation, and TCP rates, as
 * Brendan Gregg's and Tim Cook's nicstat (Linux build) defines them:
 *   rKB/s wKB/s   /proc/net/dev bytes (KB = 1024 bytes)
 *   rAvs wAvs     bytes per packet
 *   %Util         max(rx, tx) bits/s against the link speed (full duplex), capped at 100
 *   Sat           rx errs + rx drop + tx drop + tx fifo + tx colls + tx carrier, per second
 *   TCP (-t)      Tcp: and TcpExt: counters of /proc/net/snmp and /proc/net/netstat
 * The first report covers the time since boot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "source/procfs/procfs.h"

enum { N_IF, N_RKB, N_WKB, N_RPK, N_WPK, N_RAVS, N_WAVS, N_UTIL, N_SAT, N_NCOLS };
static const struct ptk_metric nic_cols[N_NCOLS] = {
	[N_IF] = { "Int", "interface", "", PTK_GAUGE, PTK_V_STR, 8, 0,
		   "interface name (/proc/net/dev)" },
	[N_RKB] = { "rKB/s", "rkb_s", "KB/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		    "KB (1024 bytes) received per second (/proc/net/dev receive bytes)" },
	[N_WKB] = { "wKB/s", "wkb_s", "KB/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		    "KB (1024 bytes) transmitted per second (/proc/net/dev transmit bytes)" },
	[N_RPK] = { "rPk/s", "rpk_s", "/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		    "packets received per second (/proc/net/dev receive packets)" },
	[N_WPK] = { "wPk/s", "wpk_s", "/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		    "packets transmitted per second (/proc/net/dev transmit packets)" },
	[N_RAVS] = { "rAvs", "ravs_bytes", "bytes", PTK_GAUGE, PTK_V_F64, 7, 2,
		     "average received packet size: rx bytes / rx packets (0 with no packets)" },
	[N_WAVS] = { "wAvs", "wavs_bytes", "bytes", PTK_GAUGE, PTK_V_F64, 7, 2,
		     "average transmitted packet size: tx bytes / tx packets (0 with no packets)" },
	[N_UTIL] = { "%Util", "util_pct", "%", PTK_GAUGE, PTK_V_F64, 5, 2,
		     "max(rx, tx) bits/s over link speed, full duplex, capped at 100 "
		     "(/sys/class/net/IF/speed); null when the speed is unknown" },
	[N_SAT] = { "Sat", "sat_s", "/s", PTK_GAUGE, PTK_V_F64, 6, 2,
		    "rx errs+drop, tx drop+fifo+colls+carrier per second (/proc/net/dev)" },
};
static const struct ptk_table nic_tab = { "interfaces", nic_cols, N_NCOLS };

enum {
	T_INKB,
	T_OUTKB,
	T_INSEG,
	T_OUTSEG,
	T_RESET,
	T_ATTF,
	T_RETX,
	T_INCONN,
	T_OUTCON,
	T_DROPS,
	T_NCOLS
};
static const struct ptk_metric tcp_cols[T_NCOLS] = {
	[T_INKB] = { "InKB", "in_kb_s", "KB/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		     "TCP payload KB received per second: Linux keeps no TCP byte counter, "
		     "always null (nicstat prints 0)" },
	[T_OUTKB] = { "OutKB", "out_kb_s", "KB/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		      "TCP payload KB sent per second: no Linux counter, always null" },
	[T_INSEG] = { "InSeg", "in_seg_s", "/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		      "segments received per second (/proc/net/snmp Tcp InSegs)" },
	[T_OUTSEG] = { "OutSeg", "out_seg_s", "/s", PTK_GAUGE, PTK_V_F64, 7, 2,
		       "segments sent per second, retransmits excluded (/proc/net/snmp Tcp "
		       "OutSegs)" },
	[T_RESET] = { "Reset", "reset_s", "/s", PTK_GAUGE, PTK_V_F64, 5, 2,
		      "resets per second: Tcp EstabResets + OutRsts (/proc/net/snmp)" },
	[T_ATTF] = { "AttF", "attempt_fail_s", "/s", PTK_GAUGE, PTK_V_F64, 5, 2,
		     "failed connection attempts per second (/proc/net/snmp Tcp AttemptFails)" },
	[T_RETX] = { "%ReTX", "retrans_pct", "%", PTK_GAUGE, PTK_V_F64, 5, 2,
		     "retransmitted segments / sent segments: Tcp RetransSegs*100/OutSegs "
		     "(/proc/net/snmp)" },
	[T_INCONN] = { "InConn", "in_conn_s", "/s", PTK_GAUGE, PTK_V_F64, 6, 2,
		       "passive opens (accepted) per second (/proc/net/snmp Tcp PassiveOpens)" },
	[T_OUTCON] = { "OutCon", "out_conn_s", "/s", PTK_GAUGE, PTK_V_F64, 6, 2,
		       "active opens (connect) per second (/proc/net/snmp Tcp ActiveOpens)" },
	[T_DROPS] = { "Drops", "listen_drops_s", "/s", PTK_GAUGE, PTK_V_F64, 5, 2,
		      "SYNs/connections dropped by listeners per second, accept queue "
		      "overflows included (/proc/net/netstat TcpExt ListenDrops)" },
};
static const struct ptk_table tcp_tab = { "tcp", tcp_cols, T_NCOLS };

/* Tcp/TcpExt counters we keep between samples, in the order of tcp_keys[]. */
enum {
	K_INSEGS,
	K_OUTSEGS,
	K_ESTABRST,
	K_OUTRSTS,
	K_ATTF,
	K_RETRANS,
	K_PASSIVE,
	K_ACTIVE,
	K_LDROPS,
	K_NKEYS
};
static const char *const tcp_keys[K_NKEYS] = {
	[K_INSEGS] = "Tcp.InSegs",	   [K_OUTSEGS] = "Tcp.OutSegs",
	[K_ESTABRST] = "Tcp.EstabResets",  [K_OUTRSTS] = "Tcp.OutRsts",
	[K_ATTF] = "Tcp.AttemptFails",	   [K_RETRANS] = "Tcp.RetransSegs",
	[K_PASSIVE] = "Tcp.PassiveOpens",  [K_ACTIVE] = "Tcp.ActiveOpens",
	[K_LDROPS] = "TcpExt.ListenDrops",
};

struct tcp_sample {
	u64 v[K_NKEYS];
	bool has[K_NKEYS];
};

#define PAGE_LINES 20 /* nicstat repeats the header every 20 lines */

struct nicstat {
	bool tcp, skipzero, nonlocal;
	char **ifs; /* -i list, NULL = all */
	int nifs;
	struct ptk_netdevs prev, cur;
	struct tcp_sample tprev;
	struct ptk_kvs kvs;
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

static double per_s(u64 d, double itv)
{
	return itv > 0 ? (double)d / itv : 0.0;
}

/* One interface row from two reads (old == NULL: since boot). */
static void nic_row(const struct ptk_src *src, const struct ptk_netdev *old,
		    const struct ptk_netdev *cur, double itv, struct ptk_val *v, double *pkts)
{
	static const enum ptk_netdev_field sat_fields[] = {
		PTK_ND_RX_ERRS, PTK_ND_RX_DROP,	 PTK_ND_TX_DROP,
		PTK_ND_TX_FIFO, PTK_ND_TX_COLLS, PTK_ND_TX_CARRIER,
	};
	u64 d[PTK_ND_NFIELDS], sat = 0;
	long mbps;

	for (int f = 0; f < PTK_ND_NFIELDS; f++)
		d[f] = ptk_delta(old ? old->f[f] : 0, cur->f[f]);
	for (size_t k = 0; k < ARRAY_SIZE(sat_fields); k++)
		sat += d[sat_fields[k]];

	double rbps = per_s(d[PTK_ND_RX_BYTES], itv), wbps = per_s(d[PTK_ND_TX_BYTES], itv);
	double rpps = per_s(d[PTK_ND_RX_PACKETS], itv), wpps = per_s(d[PTK_ND_TX_PACKETS], itv);

	v[N_IF] = PTK_S(cur->name);
	v[N_RKB] = PTK_F(rbps / 1024);
	v[N_WKB] = PTK_F(wbps / 1024);
	v[N_RPK] = PTK_F(rpps);
	v[N_WPK] = PTK_F(wpps);
	v[N_RAVS] = PTK_F(rpps > 0 ? rbps / rpps : 0);
	v[N_WAVS] = PTK_F(wpps > 0 ? wbps / wpps : 0);
	if (ptk_net_speed_read(src, cur->name, &mbps) == 0) {
		/* bits/s * 100 / (Mb/s * 1e6); full duplex: the busier direction */
		double util = MAX(rbps, wbps) * 800.0 / ((double)mbps * 1e6);
		v[N_UTIL] = PTK_F(MIN(util, 100.0));
	} else {
		v[N_UTIL] = PTK_NA;
	}
	v[N_SAT] = PTK_F(per_s(sat, itv));
	*pkts = rpps + wpps;
}

static int tcp_read(struct ptk_ctx *ctx, struct nicstat *ns, struct tcp_sample *t)
{
	int r = ptk_netsnmp_read(&ctx->src, &ns->kvs);

	if (r)
		return r;
	for (int k = 0; k < K_NKEYS; k++) {
		s64 v;
		t->has[k] = ptk_kvs_get(&ns->kvs, tcp_keys[k], &v);
		t->v[k] = t->has[k] ? (u64)v : 0;
	}
	return t->has[K_INSEGS] ? 0 : -EINVAL;
}

static void tcp_row(const struct tcp_sample *old, const struct tcp_sample *cur, double itv,
		    struct ptk_val *v)
{
	u64 d[K_NKEYS];
	bool ok[K_NKEYS];

	for (int k = 0; k < K_NKEYS; k++) {
		ok[k] = cur->has[k] && (!old || old->has[k]);
		d[k] = ok[k] ? ptk_delta(old ? old->v[k] : 0, cur->v[k]) : 0;
	}
#define RATE(k) (ok[k] ? PTK_F(per_s(d[k], itv)) : PTK_NA)
	v[T_INKB] = PTK_NA;
	v[T_OUTKB] = PTK_NA;
	v[T_INSEG] = RATE(K_INSEGS);
	v[T_OUTSEG] = RATE(K_OUTSEGS);
	v[T_RESET] = ok[K_ESTABRST] && ok[K_OUTRSTS] ?
			     PTK_F(per_s(d[K_ESTABRST] + d[K_OUTRSTS], itv)) :
			     PTK_NA;
	v[T_ATTF] = RATE(K_ATTF);
	if (ok[K_RETRANS] && ok[K_OUTSEGS])
		v[T_RETX] = PTK_F(d[K_OUTSEGS] ? d[K_RETRANS] * 100.0 / d[K_OUTSEGS] : 0.0);
	else
		v[T_RETX] = PTK_NA;
	v[T_INCONN] = RATE(K_PASSIVE);
	v[T_OUTCON] = RATE(K_ACTIVE);
	v[T_DROPS] = RATE(K_LDROPS);
#undef RATE
}

static int nicstat_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct nicstat *ns = arg;
	struct ptk_sink *s = &ctx->sink;
	char clock[16];
	int r;

	if (i == 0) {
		itv = ptk_ctx_uptime(ctx); /* first report: since boot */
		if (itv <= 0) {
			ptk_err("cannot read %s/uptime", ctx->src.procfs);
			return PTK_EXIT_RUNTIME;
		}
	}
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_str(s, "clock", clock);
	ptk_sink_meta_f64(s, "interval_s", itv);
	ptk_sink_meta_bool(s, "since_boot", i == 0);

	if (ns->tcp) {
		struct tcp_sample cur;
		struct ptk_val v[T_NCOLS];

		if ((r = tcp_read(ctx, ns, &cur))) {
			ptk_err("cannot read %s/net/snmp: %s", ctx->src.procfs, strerror(-r));
			return PTK_EXIT_RUNTIME;
		}
		tcp_row(i == 0 ? NULL : &ns->tprev, &cur, itv, v);
		ns->tprev = cur;
		if (ctx->json) {
			ptk_sink_meta_json(s, "tcp", ptk_json_row(&tcp_tab, v));
		} else {
			ptk_sink_table_begin(s, &tcp_tab, true, clock);
			ptk_sink_row(s, "TCP", v);
			ptk_sink_table_end(s);
		}
		ptk_sink_end(s);
		return 0;
	}

	if ((r = ptk_netdev_read(&ctx->src, &ns->cur))) {
		ptk_err("cannot read %s/net/dev: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	int matched = 0;
	for (int k = 0; k < ns->cur.n; k++) {
		const struct ptk_netdev *d = &ns->cur.d[k];
		/* nicstat skips interfaces that never carried a packet */
		if (if_wanted(ns, d->name) && (d->f[PTK_ND_RX_PACKETS] || d->f[PTK_ND_TX_PACKETS]))
			matched++;
	}
	if (i == 0 && matched == 0) {
		ptk_err("no matching interface");
		return PTK_EXIT_RUNTIME;
	}
	if (ns->lines >= PAGE_LINES) {
		ns->lines = 0;
		ptk_sink_table_begin(s, &nic_tab, true, "    Time");
	} else {
		ptk_sink_table_begin(s, &nic_tab, false, NULL);
	}
	for (int k = 0; k < ns->cur.n; k++) {
		const struct ptk_netdev *d = &ns->cur.d[k], *old = NULL;
		struct ptk_val v[N_NCOLS];
		double pkts;

		if (!if_wanted(ns, d->name) ||
		    !(d->f[PTK_ND_RX_PACKETS] || d->f[PTK_ND_TX_PACKETS]))
			continue;
		if (i > 0 && !(old = ptk_netdev_find(&ns->prev, d->name)))
			continue; /* appeared in this interval: its baseline is now */
		nic_row(&ctx->src, old, d, itv, v, &pkts);
		/* with several interfaces, nicstat prints the header every interval */
		ns->lines += matched > 1 ? PAGE_LINES : 1;
		if (ns->skipzero && pkts == 0)
			continue;
		ptk_sink_row(s, clock, v);
	}
	ptk_sink_table_end(s);
	ptk_sink_end(s);

	struct ptk_netdevs tmp = ns->prev;
	ns->prev = ns->cur;
	ns->cur = tmp;
	return 0;
}

/* Split "a,b,c" in place into ns->ifs. Returns 0 or -EINVAL (empty or too long a name). */
static int parse_if_list(struct nicstat *ns, char *list)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!*tok || strlen(tok) >= sizeof(ns->prev.d[0].name))
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
		/* nicstat's count includes the since-boot report */
		r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, nicstat_sample, &ns);
		if (r == -EINTR)
			r = 0;
	}
	ptk_netdev_free(&ns.prev);
	ptk_netdev_free(&ns.cur);
	ptk_kvs_free(&ns.kvs);
	free(ns.ifs);
	return r;
}
