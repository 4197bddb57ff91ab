// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt activities: /proc/interrupts and /proc/softirqs per CPU, as sysstat's mpstat
 * -I SUM|CPU|SCPU and sar -I compute them (mpstat.c write_isumcpu_stats,
 * write_irqcpu_stats; pr_stats.c print_irq_stats). The CPUs with a row are those of the cpu
 * activity's cpu_sum rows (online now, with a baseline); an interrupt is matched with the
 * previous sample by name, and one that is new counts from zero.
 */
#include "model/act.h"

#include <string.h>

const enum ptk_mid ptk_act_irq_sum_mids[] = { PTK_M_IRQ_CPU, PTK_M_IRQ_CPU_S, PTK_M_NONE };
const enum ptk_mid ptk_act_irq_mids[] = { PTK_M_IRQ_CPU, PTK_M_IRQ_NAME, PTK_M_IRQ_S, PTK_M_NONE };
const enum ptk_mid ptk_act_softirq_mids[] = { PTK_M_IRQ_CPU, PTK_M_IRQ_NAME, PTK_M_SOFTIRQ_S,
					      PTK_M_NONE };

/* mpstat -I SUM: "all" from /proc/stat intr, each CPU its /proc/interrupts column summed
 * (0 for a tickless CPU, as mpstat; irq_sum_softirqs: its /proc/softirqs column). */
ACT_ROWS_FN(ptk_act_irq_sum_rows)
{
	const enum ptk_mid *ids = ptk_act_irq_sum_mids;
	struct ptk_row *r = ptk_rows_add(out, "all");
	int n = ptk_act_cpu_n(prev, cur, o);
	bool soft = o && o->irq_sum_softirqs;
	enum ptk_snap_part part = soft ? PTK_SNAP_SOFTIRQS : PTK_SNAP_INTERRUPTS;
	const struct ptk_irqs *qc = soft ? &cur->sirq : &cur->intr;
	const struct ptk_irqs *qp = !prev ? NULL : soft ? &prev->sirq : &prev->intr;

	if (ptk_stat_has(&cur->st, PTK_ST_INTR) && (!prev || ptk_stat_has(&prev->st, PTK_ST_INTR)))
		ACT_SET(ids, r, PTK_M_IRQ_CPU_S,
			PTK_F(ptk_act_rate(prev ? prev->st.intr : 0, cur->st.intr, itv_s)));
	if (!o || !o->per_cpu)
		return 0;
	for (int i = 0; i < n; i++) {
		bool known = ptk_snap_has(cur, part) && ptk_irqs_known(qc, i) &&
			     (!prev || (ptk_snap_has(prev, part) && ptk_irqs_known(qp, i)));
		char key[16];

		if (!ptk_act_cpu_shown(prev, cur, i))
			continue;
		snprintf(key, sizeof(key), "%d", i);
		r = ptk_rows_add(out, key);
		if (!known)
			continue;
		if (!ptk_act_cpu_ticks(prev, cur, i)) {
			ACT_SET(ids, r, PTK_M_IRQ_CPU_S, PTK_F(0));
			continue;
		}
		ACT_SET(ids, r, PTK_M_IRQ_CPU_S,
			PTK_F(ptk_act_rate(prev ? ptk_irqs_total(qp, i) : 0, ptk_irqs_total(qc, i),
					   itv_s)));
	}
	return 0;
}

/* The sum of line i's listed columns (the CPUs online in that sample). */
static u64 listed_sum(const struct ptk_irqs *q, int i)
{
	u64 s = 0;

	for (int c = 0; c < q->ncpu; c++)
		if (q->col[c] == PTK_IRQ_LISTED)
			s += ptk_irqs_get(q, i, c);
	return s;
}

/* Rows "CPU/NAME" of file part p: "all/NAME" for every line (and "all/sum"), as sar's CPU
 * "all" column: the online CPUs' counts summed in each sample, 0 when that went back (a CPU
 * went offline); with per_cpu, "N/NAME" for each CPU with a row (and "N/sum"). */
static void irq_rows(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		     const struct ptk_act_opts *o, struct ptk_rows *out, enum ptk_snap_part part,
		     const enum ptk_mid *ids, enum ptk_mid rate)
{
	const struct ptk_irqs *c = part == PTK_SNAP_INTERRUPTS ? &cur->intr : &cur->sirq;
	const struct ptk_irqs *p = !prev		       ? NULL :
				   part == PTK_SNAP_INTERRUPTS ? &prev->intr :
								 &prev->sirq;
	bool have = ptk_snap_has(cur, part) && (!prev || ptk_snap_has(prev, part));
	int n = ptk_act_cpu_n(prev, cur, o);
	char key[64];

	if (!have)
		return;
	for (int cpu = -1; cpu < n; cpu++) {
		u64 tc = 0, tp = 0;
		bool known = true;

		if (cpu >= 0 && (!o || !o->per_cpu || !ptk_act_cpu_shown(prev, cur, cpu)))
			continue;
		if (cpu >= 0)
			known = ptk_irqs_known(c, cpu) && (!p || ptk_irqs_known(p, cpu));
		for (int i = 0; i < c->n; i++) {
			int j = p ? ptk_irqs_find(p, c->name[i], i) : -1;
			u64 vc, vp;
			struct ptk_row *r;

			if (cpu < 0) {
				vc = listed_sum(c, i);
				vp = j >= 0 ? listed_sum(p, j) : 0;
				snprintf(key, sizeof(key), "all/%s", c->name[i]);
			} else {
				vc = ptk_irqs_get(c, i, cpu);
				vp = j >= 0 ? ptk_irqs_get(p, j, cpu) : 0;
				snprintf(key, sizeof(key), "%d/%s", cpu, c->name[i]);
			}
			tc += vc;
			tp += vp;
			r = ptk_rows_add(out, key);
			if (!known)
				continue;
			if (cpu < 0 && vc < vp)
				ACT_SET(ids, r, rate, PTK_F(0));
			else
				ACT_SET(ids, r, rate, PTK_F(ptk_act_rate(vp, vc, itv_s)));
		}
		snprintf(key, sizeof(key), cpu < 0 ? "all/sum" : "%d/sum", cpu);
		struct ptk_row *r = ptk_rows_add(out, key);
		if (known)
			ACT_SET(ids, r, rate,
				PTK_F(cpu < 0 && tc < tp ? 0 : ptk_act_rate(tp, tc, itv_s)));
	}
}

ACT_ROWS_FN(ptk_act_irq_rows)
{
	irq_rows(prev, cur, itv_s, o, out, PTK_SNAP_INTERRUPTS, ptk_act_irq_mids, PTK_M_IRQ_S);
	return 0;
}

ACT_ROWS_FN(ptk_act_softirq_rows)
{
	irq_rows(prev, cur, itv_s, o, out, PTK_SNAP_SOFTIRQS, ptk_act_softirq_mids,
		 PTK_M_SOFTIRQ_S);
	return 0;
}
