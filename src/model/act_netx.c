// SPDX-License-Identifier: GPL-2.0
/*
 * Network activities beyond the interfaces and TCP: softnet per CPU (sar -n SOFT,
 * pr_stats.c print_softnet_stats).
 */
#include "model/act.h"

const enum ptk_mid ptk_act_softnet_mids[] = {
	PTK_M_CPU_ID,	 PTK_M_SN_TOTAL,   PTK_M_SN_DROPD,   PTK_M_SN_SQUEEZD,
	PTK_M_SN_RX_RPS, PTK_M_SN_FLW_LIM, PTK_M_SN_BLG_LEN, PTK_M_NONE,
};

static void sn_add(struct ptk_softnet_cpu *s, const struct ptk_softnet_cpu *x)
{
	s->processed += x->processed;
	s->dropped += x->dropped;
	s->squeezed += x->squeezed;
	s->rps += x->rps;
	s->flow_limit += x->flow_limit;
	s->backlog += x->backlog;
}

static void sn_row(struct ptk_rows *out, const char *key, const struct ptk_softnet_cpu *p,
		   const struct ptk_softnet_cpu *c, double itv_s)
{
	const enum ptk_mid *ids = ptk_act_softnet_mids;
	struct ptk_row *r = ptk_rows_add(out, key);

	if (!c)
		return;
	ACT_SET(ids, r, PTK_M_SN_TOTAL, PTK_F(ptk_act_rate(p->processed, c->processed, itv_s)));
	ACT_SET(ids, r, PTK_M_SN_DROPD, PTK_F(ptk_act_rate(p->dropped, c->dropped, itv_s)));
	ACT_SET(ids, r, PTK_M_SN_SQUEEZD, PTK_F(ptk_act_rate(p->squeezed, c->squeezed, itv_s)));
	ACT_SET(ids, r, PTK_M_SN_RX_RPS, PTK_F(ptk_act_rate(p->rps, c->rps, itv_s)));
	ACT_SET(ids, r, PTK_M_SN_FLW_LIM, PTK_F(ptk_act_rate(p->flow_limit, c->flow_limit, itv_s)));
	ACT_SET(ids, r, PTK_M_SN_BLG_LEN, PTK_U(c->backlog));
}

/* "all" (the CPUs with a row summed), then with per_cpu a row per CPU: the CPUs of the cpu
 * activity's cpu_sum rows. */
ACT_ROWS_FN(ptk_act_softnet_rows)
{
	static const struct ptk_softnet_cpu zero;
	const struct ptk_softnet *c = &cur->sn, *p = prev ? &prev->sn : NULL;
	bool have = ptk_snap_has(cur, PTK_SNAP_SOFTNET) &&
		    (!prev || ptk_snap_has(prev, PTK_SNAP_SOFTNET));
	int n = ptk_act_cpu_n(prev, cur, o), first = out->n;
	struct ptk_softnet_cpu sc = { 0 }, sp = { 0 };
	char key[16];

	ptk_rows_add(out, "all");
	if (!have)
		return 0;
	for (int i = 0; i < n; i++) {
		const struct ptk_softnet_cpu *xc = i < c->ncpu && c->has[i] ? &c->c[i] : NULL;
		const struct ptk_softnet_cpu *xp = !p			    ? &zero :
						   i < p->ncpu && p->has[i] ? &p->c[i] :
									      NULL;
		if (!ptk_act_cpu_shown(prev, cur, i))
			continue;
		if (xc && xp) {
			sn_add(&sc, xc);
			sn_add(&sp, xp);
		}
		if (o && o->per_cpu) {
			snprintf(key, sizeof(key), "%d", i);
			sn_row(out, key, xp ? xp : &zero, xc && xp ? xc : NULL, itv_s);
		}
	}
	struct ptk_rows all = { 0 };
	sn_row(&all, "all", &sp, &sc, itv_s);
	out->r[first] = all.r[0];
	ptk_rows_free(&all);
	return 0;
}
