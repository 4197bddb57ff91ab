// SPDX-License-Identifier: GPL-2.0
/*
 * The pressure activities: /proc/pressure/{cpu,io,memory} (kernel/sched/psi.c psi_show), as
 * sysstat's sar -q CPU,IO,MEM computes them: the kernel's running averages as they are,
 * the share of the interval stalled from the total stall time, and that total. cpu has a
 * full line since 5.13 (zero system-wide); without it, its values are unknown.
 */
#include "model/act.h"

const enum ptk_mid ptk_act_psi_cpu_mids[] = {
	PTK_M_PSI_CPU_SOME_AVG10,
	PTK_M_PSI_CPU_SOME_AVG60,
	PTK_M_PSI_CPU_SOME_AVG300,
	PTK_M_PSI_CPU_SOME_PCT,
	PTK_M_PSI_CPU_FULL_AVG10,
	PTK_M_PSI_CPU_FULL_AVG60,
	PTK_M_PSI_CPU_FULL_AVG300,
	PTK_M_PSI_CPU_FULL_PCT,
	PTK_M_PSI_CPU_SOME_TOTAL,
	PTK_M_PSI_CPU_FULL_TOTAL,
	PTK_M_NONE,
};
const enum ptk_mid ptk_act_psi_io_mids[] = {
	PTK_M_PSI_IO_SOME_AVG10,
	PTK_M_PSI_IO_SOME_AVG60,
	PTK_M_PSI_IO_SOME_AVG300,
	PTK_M_PSI_IO_SOME_PCT,
	PTK_M_PSI_IO_FULL_AVG10,
	PTK_M_PSI_IO_FULL_AVG60,
	PTK_M_PSI_IO_FULL_AVG300,
	PTK_M_PSI_IO_FULL_PCT,
	PTK_M_PSI_IO_SOME_TOTAL,
	PTK_M_PSI_IO_FULL_TOTAL,
	PTK_M_NONE,
};
const enum ptk_mid ptk_act_psi_mem_mids[] = {
	PTK_M_PSI_MEM_SOME_AVG10,
	PTK_M_PSI_MEM_SOME_AVG60,
	PTK_M_PSI_MEM_SOME_AVG300,
	PTK_M_PSI_MEM_SOME_PCT,
	PTK_M_PSI_MEM_FULL_AVG10,
	PTK_M_PSI_MEM_FULL_AVG60,
	PTK_M_PSI_MEM_FULL_AVG300,
	PTK_M_PSI_MEM_FULL_PCT,
	PTK_M_PSI_MEM_SOME_TOTAL,
	PTK_M_PSI_MEM_FULL_TOTAL,
	PTK_M_NONE,
};

/* One PSI line into the four columns starting at metric m (avg10, avg60, avg300, share) and
 * its total= counter into column total. */
static void psi_line(struct ptk_row *r, const enum ptk_mid *ids, enum ptk_mid m, enum ptk_mid total,
		     const struct ptk_psi_line *a, const struct ptk_psi_line *b, double itv_s)
{
	static const struct ptk_psi_line zero = { .present = true };

	if (!a)
		a = &zero;
	if (!a->present || !b->present)
		return;
	ACT_SET(ids, r, m, PTK_F(b->avg10));
	ACT_SET(ids, r, m + 1, PTK_F(b->avg60));
	ACT_SET(ids, r, m + 2, PTK_F(b->avg300));
	ACT_SET(ids, r, m + 3,
		PTK_F(itv_s > 0 ?
			      MIN(100.0, ptk_act_delta(a->total_us, b->total_us) / (itv_s * 1e4)) :
			      0));
	ACT_SET(ids, r, total, PTK_U(b->total_us));
}

/* The row of resource res: its some and full lines (avg10 metric and total of each). */
static void psi_rows(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		     enum ptk_psi_res res, const enum ptk_mid *ids, const enum ptk_mid line[4],
		     struct ptk_rows *out)
{
	struct ptk_row *r = ptk_rows_add(out, "");

	if (!cur->has_psi[res] || (prev && !prev->has_psi[res]))
		return;
	psi_line(r, ids, line[0], line[1], prev ? &prev->psi[res].some : NULL, &cur->psi[res].some,
		 itv_s);
	psi_line(r, ids, line[2], line[3], prev ? &prev->psi[res].full : NULL, &cur->psi[res].full,
		 itv_s);
}

ACT_ROWS_FN(ptk_act_psi_cpu_rows)
{
	static const enum ptk_mid line[4] = { PTK_M_PSI_CPU_SOME_AVG10, PTK_M_PSI_CPU_SOME_TOTAL,
					      PTK_M_PSI_CPU_FULL_AVG10, PTK_M_PSI_CPU_FULL_TOTAL };

	psi_rows(prev, cur, itv_s, PTK_PSI_CPU, ptk_act_psi_cpu_mids, line, out);
	return 0;
}

ACT_ROWS_FN(ptk_act_psi_io_rows)
{
	static const enum ptk_mid line[4] = { PTK_M_PSI_IO_SOME_AVG10, PTK_M_PSI_IO_SOME_TOTAL,
					      PTK_M_PSI_IO_FULL_AVG10, PTK_M_PSI_IO_FULL_TOTAL };

	psi_rows(prev, cur, itv_s, PTK_PSI_IO, ptk_act_psi_io_mids, line, out);
	return 0;
}

ACT_ROWS_FN(ptk_act_psi_mem_rows)
{
	static const enum ptk_mid line[4] = { PTK_M_PSI_MEM_SOME_AVG10, PTK_M_PSI_MEM_SOME_TOTAL,
					      PTK_M_PSI_MEM_FULL_AVG10, PTK_M_PSI_MEM_FULL_TOTAL };

	psi_rows(prev, cur, itv_s, PTK_PSI_MEMORY, ptk_act_psi_mem_mids, line, out);
	return 0;
}
