// SPDX-License-Identifier: GPL-2.0
#include "model/delta.h"

#include <string.h>

u64 ptk_cpu_ticks(const struct ptk_cpu_times *old, const struct ptk_cpu_times *new,
		  u64 d[PTK_CPU_NSTATES])
{
	u64 total = 0;

	for (int i = 0; i < PTK_CPU_NSTATES; i++) {
		d[i] = ptk_delta_ticks(old->t[i], new->t[i]);
		if (i < PTK_CPU_GUEST)
			total += d[i];
	}
	/* guest time is accounted in user too; it cannot exceed it */
	if (d[PTK_CPU_GUEST] > d[PTK_CPU_USER])
		d[PTK_CPU_GUEST] = d[PTK_CPU_USER];
	if (d[PTK_CPU_GUEST_NICE] > d[PTK_CPU_NICE])
		d[PTK_CPU_GUEST_NICE] = d[PTK_CPU_NICE];
	return total;
}

u64 ptk_cpu_pct(const struct ptk_cpu_times *old, const struct ptk_cpu_times *new,
		double pct[PTK_CPU_NSTATES])
{
	u64 d[PTK_CPU_NSTATES], total = ptk_cpu_ticks(old, new, d);

	for (int i = 0; i < PTK_CPU_NSTATES; i++)
		pct[i] = total ? 100.0 * d[i] / total : 0.0;
	if (!total)
		pct[PTK_CPU_IDLE] = 100.0;
	return total;
}

void ptk_disk_rates(const struct ptk_disk *o, const struct ptk_disk *n, double itv,
		    struct ptk_disk_rates *r)
{
	u64 d[PTK_DK_NFIELDS];

	memset(r, 0, sizeof(*r));
	if (itv <= 0)
		return;
	for (int i = 0; i < PTK_DK_NFIELDS; i++)
		d[i] = i == PTK_DK_IN_FLIGHT ? n->f[i] : ptk_delta(o->f[i], n->f[i]);
	/* A device recreated between samples: every counter is meaningless, report zeros. */
	if (n->f[PTK_DK_RD_IOS] < o->f[PTK_DK_RD_IOS] ||
	    n->f[PTK_DK_WR_IOS] < o->f[PTK_DK_WR_IOS] ||
	    n->f[PTK_DK_IO_TICKS] < o->f[PTK_DK_IO_TICKS])
		return;
	r->has_discard = n->nfields >= 15;
	r->has_flush = n->nfields >= 17;
	r->r_s = d[PTK_DK_RD_IOS] / itv;
	r->w_s = d[PTK_DK_WR_IOS] / itv;
	r->d_s = d[PTK_DK_DC_IOS] / itv;
	r->f_s = d[PTK_DK_FL_IOS] / itv;
	r->rkb_s = d[PTK_DK_RD_SECTORS] / 2.0 / itv;
	r->wkb_s = d[PTK_DK_WR_SECTORS] / 2.0 / itv;
	r->dkb_s = d[PTK_DK_DC_SECTORS] / 2.0 / itv;
	r->rrqm_s = d[PTK_DK_RD_MERGES] / itv;
	r->wrqm_s = d[PTK_DK_WR_MERGES] / itv;
	r->drqm_s = d[PTK_DK_DC_MERGES] / itv;
#define PCT(m, i) ((m) + (i) ? 100.0 * (m) / ((m) + (i)) : 0.0)
	r->rrqm_pct = PCT(d[PTK_DK_RD_MERGES], d[PTK_DK_RD_IOS]);
	r->wrqm_pct = PCT(d[PTK_DK_WR_MERGES], d[PTK_DK_WR_IOS]);
	r->drqm_pct = PCT(d[PTK_DK_DC_MERGES], d[PTK_DK_DC_IOS]);
#undef PCT
#define PER(a, b) ((b) ? (double)(a) / (b) : 0.0)
	r->r_await = PER(d[PTK_DK_RD_TICKS], d[PTK_DK_RD_IOS]);
	r->w_await = PER(d[PTK_DK_WR_TICKS], d[PTK_DK_WR_IOS]);
	r->d_await = PER(d[PTK_DK_DC_TICKS], d[PTK_DK_DC_IOS]);
	r->f_await = PER(d[PTK_DK_FL_TICKS], d[PTK_DK_FL_IOS]);
	r->rareq_sz = PER(d[PTK_DK_RD_SECTORS] / 2.0, d[PTK_DK_RD_IOS]);
	r->wareq_sz = PER(d[PTK_DK_WR_SECTORS] / 2.0, d[PTK_DK_WR_IOS]);
	r->dareq_sz = PER(d[PTK_DK_DC_SECTORS] / 2.0, d[PTK_DK_DC_IOS]);
#undef PER
	r->aqu_sz = d[PTK_DK_TIME_IN_QUEUE] / itv / 1000.0;
	r->util = d[PTK_DK_IO_TICKS] / itv / 10.0;
	if (r->util > 100.0)
		r->util = 100.0;
	r->tps = r->r_s + r->w_s + r->d_s;
}
