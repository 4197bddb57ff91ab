// SPDX-License-Identifier: GPL-2.0
/*
 * The cpu activity: shares of /proc/stat cpu ticks over the interval, as sysstat's sar -u,
 * sar -u ALL and mpstat compute them (rd_stats.c read_stat_cpu, pr_stats.c print_cpu_stats).
 * guest and guest_nice are inside user and nice (kernel/sched/cputime.c account_guest_time):
 * %user and %nice keep them, %usr and %nice of -u ALL take them out.
 */
#include "model/act.h"
#include "model/delta.h"

const enum ptk_mid ptk_act_cpu_mids[] = {
	PTK_M_CPU_ID,	   PTK_M_CPU_USER, PTK_M_CPU_NICE_ALL,	PTK_M_CPU_SYSTEM,
	PTK_M_CPU_USR,	   PTK_M_CPU_NICE, PTK_M_CPU_SYS,	PTK_M_CPU_IOWAIT,
	PTK_M_CPU_IRQ,	   PTK_M_CPU_SOFT, PTK_M_CPU_STEAL,	PTK_M_CPU_GUEST,
	PTK_M_CPU_GNICE,   PTK_M_CPU_IDLE, PTK_M_CPU_USER_NICE, PTK_M_CPU_GUEST_ALL,
	PTK_M_CPU_USR_IRQ, PTK_M_NONE,
};

#define SET(r, m, val) ACT_SET(ptk_act_cpu_mids, r, PTK_M_##m, PTK_F(val))

static void cpu_row(struct ptk_rows *out, const char *key, const struct ptk_cpu_times *a,
		    const struct ptk_cpu_times *b)
{
	struct ptk_row *r = ptk_rows_add(out, key);
	double p[PTK_CPU_NSTATES];
	u64 d[PTK_CPU_NSTATES], total;

	if (!a)
		return; /* no baseline (the CPU came online): unknown */
	ptk_cpu_pct(a, b, p);
	total = ptk_cpu_ticks(a, b, d);
	/* a share of several states: one division of their ticks, so that a share that is
	 * exactly k + 0.5 stays so (vmstat rounds it up) */
#define SHARE(x) (total ? 100.0 * (double)(x) / (double)total : 0.0)
	SET(r, CPU_USER, p[PTK_CPU_USER]);
	SET(r, CPU_NICE_ALL, p[PTK_CPU_NICE]);
	SET(r, CPU_SYSTEM, SHARE(d[PTK_CPU_SYSTEM] + d[PTK_CPU_IRQ] + d[PTK_CPU_SOFTIRQ]));
	SET(r, CPU_USER_NICE,
	    SHARE(d[PTK_CPU_USER] + d[PTK_CPU_NICE] - d[PTK_CPU_GUEST] - d[PTK_CPU_GUEST_NICE]));
	SET(r, CPU_GUEST_ALL, SHARE(d[PTK_CPU_GUEST] + d[PTK_CPU_GUEST_NICE]));
	SET(r, CPU_USR_IRQ,
	    SHARE(d[PTK_CPU_USER] + d[PTK_CPU_NICE] + d[PTK_CPU_IRQ] + d[PTK_CPU_SOFTIRQ]));
#undef SHARE
	SET(r, CPU_USR, MAX(p[PTK_CPU_USER] - p[PTK_CPU_GUEST], 0));
	SET(r, CPU_NICE, MAX(p[PTK_CPU_NICE] - p[PTK_CPU_GUEST_NICE], 0));
	SET(r, CPU_SYS, p[PTK_CPU_SYSTEM]);
	SET(r, CPU_IOWAIT, p[PTK_CPU_IOWAIT]);
	SET(r, CPU_IRQ, p[PTK_CPU_IRQ]);
	SET(r, CPU_SOFT, p[PTK_CPU_SOFTIRQ]);
	SET(r, CPU_STEAL, p[PTK_CPU_STEAL]);
	SET(r, CPU_GUEST, p[PTK_CPU_GUEST]);
	SET(r, CPU_GNICE, p[PTK_CPU_GUEST_NICE]);
	SET(r, CPU_IDLE, p[PTK_CPU_IDLE]);
}

/* Rows "all", then (per_cpu) one per CPU listed in the current /proc/stat; a CPU not listed
 * in the previous one has no baseline and its row is unknown. */
ACT_ROWS_FN(ptk_act_cpu_rows)
{
	static const struct ptk_cpu_times zero;

	cpu_row(out, "all", prev ? &prev->st.all : &zero, &cur->st.all);
	if (!o || !o->per_cpu)
		return 0;
	for (int i = 0; i < cur->st.ncpu; i++) {
		const struct ptk_cpu_times *a = &zero;
		char key[16];

		if (!cur->st.present[i])
			continue;
		if (prev)
			a = i < prev->st.ncpu && prev->st.present[i] ? &prev->st.cpu[i] : NULL;
		snprintf(key, sizeof(key), "%d", i);
		cpu_row(out, key, a, &cur->st.cpu[i]);
	}
	return 0;
}
