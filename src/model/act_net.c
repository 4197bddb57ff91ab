// SPDX-License-Identifier: GPL-2.0
/*
 * The network activities: /proc/net/dev interface counters (net/core/net-procfs.c
 * dev_seq_printf_stats) with the link speed of /sys/class/net/IF/speed, and the TCP
 * counters of /proc/net/snmp (net/ipv4/proc.c snmp_seq_show_tcp_udp), as sysstat's
 * sar -n DEV, EDEV, TCP and ETCP compute them. An interface that appeared, or whose counters
 * went back (recreated), counts from zero, as sysstat does. A missing SNMP counter is
 * unknown, never 0.
 */
#include "model/act.h"
#include "model/delta.h"

const enum ptk_mid ptk_act_net_dev_mids[] = {
	PTK_M_NET_IFACE, PTK_M_NET_RXPCK, PTK_M_NET_TXPCK,  PTK_M_NET_RXKB,   PTK_M_NET_TXKB,
	PTK_M_NET_RXCMP, PTK_M_NET_TXCMP, PTK_M_NET_RXMCST, PTK_M_NET_IFUTIL, PTK_M_NET_RXAVS,
	PTK_M_NET_TXAVS, PTK_M_NET_SAT,	  PTK_M_NONE,
};

static bool nd_both(const struct ptk_snap *prev, const struct ptk_snap *cur)
{
	return ptk_snap_has(cur, PTK_SNAP_NETDEV) && (!prev || ptk_snap_has(prev, PTK_SNAP_NETDEV));
}

/* The previous sample of interface b to count from: its own, or zeros. */
static const struct ptk_netdev *nd_base(const struct ptk_snap *prev, const struct ptk_netdev *b)
{
	static const struct ptk_netdev zero;
	const struct ptk_netdev *a = prev ? ptk_netdev_find(&prev->nd, b->name) : NULL;

	return a ? a : &zero;
}

/* Counter f of interface b since a over itv_s: a counter that went back counts from zero
 * (sysstat), or 0 with restart_zero (nicstat). */
static u64 nd_delta(const struct ptk_netdev *a, const struct ptk_netdev *b, int f, bool rz)
{
	return rz ? ptk_delta(a->f[f], b->f[f]) : ptk_act_delta(a->f[f], b->f[f]);
}

#define PER_S(x) (itv_s > 0 ? (double)(x) / itv_s : 0.0)

ACT_ROWS_FN(ptk_act_net_dev_rows)
{
	/* nicstat's saturation: errors and drops, receive FIFO overruns excluded */
	static const enum ptk_netdev_field sat[] = {
		PTK_ND_RX_ERRS, PTK_ND_RX_DROP,	 PTK_ND_TX_DROP,
		PTK_ND_TX_FIFO, PTK_ND_TX_COLLS, PTK_ND_TX_CARRIER,
	};
	const enum ptk_mid *ids = ptk_act_net_dev_mids;
	bool rz = o && o->restart_zero;

	if (!nd_both(prev, cur))
		return 0;
	for (int i = 0; i < cur->nd.n; i++) {
		const struct ptk_netdev *b = &cur->nd.d[i], *a = nd_base(prev, b);
		struct ptk_row *r = ptk_rows_add(out, b->name);
		long mbps = cur->speed ? cur->speed[i] : -1;
		u64 nsat = 0;

		if (rz && prev && !ptk_netdev_find(&prev->nd, b->name))
			continue; /* appeared: no baseline, unknown */
		double rxb = PER_S(nd_delta(a, b, PTK_ND_RX_BYTES, rz));
		double txb = PER_S(nd_delta(a, b, PTK_ND_TX_BYTES, rz));
		double rxp = PER_S(nd_delta(a, b, PTK_ND_RX_PACKETS, rz));
		double txp = PER_S(nd_delta(a, b, PTK_ND_TX_PACKETS, rz));

#define SET(m, fld) ACT_SET(ids, r, PTK_M_NET_##m, PTK_F(PER_S(nd_delta(a, b, fld, rz))))
		SET(RXCMP, PTK_ND_RX_COMPRESSED);
		SET(TXCMP, PTK_ND_TX_COMPRESSED);
		SET(RXMCST, PTK_ND_RX_MULTICAST);
#undef SET
		ACT_SET(ids, r, PTK_M_NET_RXPCK, PTK_F(rxp));
		ACT_SET(ids, r, PTK_M_NET_TXPCK, PTK_F(txp));
		ACT_SET(ids, r, PTK_M_NET_RXKB, PTK_F(rxb / 1024));
		ACT_SET(ids, r, PTK_M_NET_TXKB, PTK_F(txb / 1024));
		ACT_SET(ids, r, PTK_M_NET_RXAVS, PTK_F(rxp > 0 ? rxb / rxp : 0));
		ACT_SET(ids, r, PTK_M_NET_TXAVS, PTK_F(txp > 0 ? txb / txp : 0));
		for (size_t k = 0; k < ARRAY_SIZE(sat); k++)
			nsat += nd_delta(a, b, sat[k], rz);
		ACT_SET(ids, r, PTK_M_NET_SAT, PTK_F(PER_S(nsat)));
		/* full duplex assumed: the busier direction against the link speed */
		if (mbps > 0)
			ACT_SET(ids, r, PTK_M_NET_IFUTIL,
				PTK_F(MIN(100.0, MAX(rxb, txb) * 8 / (mbps * 1e6) * 100)));
	}
	return 0;
}

const enum ptk_mid ptk_act_net_edev_mids[] = {
	PTK_M_NET_IFACE,  PTK_M_NET_RXERR,  PTK_M_NET_TXERR,  PTK_M_NET_COLL,
	PTK_M_NET_RXDROP, PTK_M_NET_TXDROP, PTK_M_NET_TXCARR, PTK_M_NET_RXFRAM,
	PTK_M_NET_RXFIFO, PTK_M_NET_TXFIFO, PTK_M_NONE,
};

ACT_ROWS_FN(ptk_act_net_edev_rows)
{
	static const struct {
		enum ptk_mid m;
		int f;
	} col[] = {
		{ PTK_M_NET_RXERR, PTK_ND_RX_ERRS },   { PTK_M_NET_TXERR, PTK_ND_TX_ERRS },
		{ PTK_M_NET_COLL, PTK_ND_TX_COLLS },   { PTK_M_NET_RXDROP, PTK_ND_RX_DROP },
		{ PTK_M_NET_TXDROP, PTK_ND_TX_DROP },  { PTK_M_NET_TXCARR, PTK_ND_TX_CARRIER },
		{ PTK_M_NET_RXFRAM, PTK_ND_RX_FRAME }, { PTK_M_NET_RXFIFO, PTK_ND_RX_FIFO },
		{ PTK_M_NET_TXFIFO, PTK_ND_TX_FIFO },
	};

	if (!nd_both(prev, cur))
		return 0;
	for (int i = 0; i < cur->nd.n; i++) {
		const struct ptk_netdev *b = &cur->nd.d[i], *a = nd_base(prev, b);
		struct ptk_row *r = ptk_rows_add(out, b->name);

		for (size_t k = 0; k < ARRAY_SIZE(col); k++)
			ACT_SET(ptk_act_net_edev_mids, r, col[k].m,
				PTK_F(ptk_act_rate(a->f[col[k].f], b->f[col[k].f], itv_s)));
	}
	return 0;
}

/* SNMP counter key ("Tcp.RetransSegs") of prev and cur: its delta in *d, false when
 * either sample lacks it (prev NULL: since boot, from zero). */
static bool kv_delta(const struct ptk_snap *prev, const struct ptk_snap *cur, const char *key,
		     u64 *d)
{
	s64 a = 0, b;

	if (!ptk_kvs_get(&cur->kvs, key, &b) || (prev && !ptk_kvs_get(&prev->kvs, key, &a)))
		return false;
	*d = ptk_act_delta((u64)a, (u64)b);
	return true;
}

struct kv_col {
	enum ptk_mid m;
	const char *key;
};

static void kv_rows(const enum ptk_mid *ids, const struct kv_col *col, size_t n,
		    const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		    struct ptk_rows *out)
{
	struct ptk_row *r = ptk_rows_add(out, "");
	u64 d;

	for (size_t k = 0; k < n; k++)
		if (kv_delta(prev, cur, col[k].key, &d))
			ACT_SET(ids, r, col[k].m, PTK_F(itv_s > 0 ? d / itv_s : 0));
}

const enum ptk_mid ptk_act_tcp_mids[] = {
	PTK_M_TCP_ACTIVE, PTK_M_TCP_PASSIVE, PTK_M_TCP_ISEG, PTK_M_TCP_OSEG,
	PTK_M_TCP_INKB,	  PTK_M_TCP_OUTKB,   PTK_M_NONE, /* no byte counter: always unknown */
};

ACT_ROWS_FN(ptk_act_tcp_rows)
{
	static const struct kv_col col[] = {
		{ PTK_M_TCP_ACTIVE, "Tcp.ActiveOpens" },
		{ PTK_M_TCP_PASSIVE, "Tcp.PassiveOpens" },
		{ PTK_M_TCP_ISEG, "Tcp.InSegs" },
		{ PTK_M_TCP_OSEG, "Tcp.OutSegs" },
	};

	kv_rows(ptk_act_tcp_mids, col, ARRAY_SIZE(col), prev, cur, itv_s, out);
	return 0;
}

const enum ptk_mid ptk_act_etcp_mids[] = {
	PTK_M_TCP_ATMPTF,  PTK_M_TCP_ESTRES, PTK_M_TCP_RETRANS,
	PTK_M_TCP_ISEGERR, PTK_M_TCP_ORSTS,  PTK_M_TCP_RETRANS_PCT,
	PTK_M_TCP_RESETS,  PTK_M_TCP_LDROPS, PTK_M_NONE,
};

ACT_ROWS_FN(ptk_act_etcp_rows)
{
	static const struct kv_col col[] = {
		{ PTK_M_TCP_ATMPTF, "Tcp.AttemptFails" },
		{ PTK_M_TCP_ESTRES, "Tcp.EstabResets" },
		{ PTK_M_TCP_RETRANS, "Tcp.RetransSegs" },
		{ PTK_M_TCP_ISEGERR, "Tcp.InErrs" },
		{ PTK_M_TCP_ORSTS, "Tcp.OutRsts" },
		{ PTK_M_TCP_LDROPS, "TcpExt.ListenDrops" },
	};
	u64 retrans, osegs, estres, orsts;

	kv_rows(ptk_act_etcp_mids, col, ARRAY_SIZE(col), prev, cur, itv_s, out);
	if (kv_delta(prev, cur, "Tcp.EstabResets", &estres) &&
	    kv_delta(prev, cur, "Tcp.OutRsts", &orsts))
		ACT_SET(ptk_act_etcp_mids, &out->r[out->n - 1], PTK_M_TCP_RESETS,
			PTK_F(PER_S(estres + orsts)));
	/* the one retransmit ratio: retransmitted per segment sent; none sent is unknown */
	if (kv_delta(prev, cur, "Tcp.RetransSegs", &retrans) &&
	    kv_delta(prev, cur, "Tcp.OutSegs", &osegs) && osegs)
		ACT_SET(ptk_act_etcp_mids, &out->r[out->n - 1], PTK_M_TCP_RETRANS_PCT,
			PTK_F(MIN(100.0, 100.0 * retrans / osegs)));
	return 0;
}
