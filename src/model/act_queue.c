// SPDX-License-Identifier: GPL-2.0
/*
 * The queue and task activities: /proc/loadavg (fs/proc/loadavg.c) and the /proc/stat
 * counters processes, ctxt, intr and procs_blocked (fs/proc/stat.c show_stat), as sysstat's
 * sar -q and sar -w compute them. runq-sz leaves its reader out, as sadc (ptk_act_runq_sz);
 * procs_running is the file's value, as procps vmstat prints it.
 */
#include <math.h>

#include "model/act.h"

const enum ptk_mid ptk_act_queue_mids[] = {
	PTK_M_Q_RUNQ_SZ, PTK_M_Q_PLIST_SZ,	PTK_M_Q_LDAVG_1, PTK_M_Q_LDAVG_5, PTK_M_Q_LDAVG_15,
	PTK_M_Q_BLOCKED, PTK_M_Q_PROCS_RUNNING, PTK_M_Q_UPTIME,	 PTK_M_NONE,
};

ACT_ROWS_FN(ptk_act_queue_rows)
{
	const enum ptk_mid *ids = ptk_act_queue_mids;
	const struct ptk_loadavg *la = &cur->la;
	struct ptk_row *r = ptk_rows_add(out, "");

	if (cur->has_la) {
		ACT_SET(ids, r, PTK_M_Q_RUNQ_SZ, PTK_U(ptk_act_runq_sz(la->nr_running)));
		ACT_SET(ids, r, PTK_M_Q_PLIST_SZ, PTK_U(la->nr_threads));
		ACT_SET(ids, r, PTK_M_Q_LDAVG_1, PTK_F(la->load1));
		ACT_SET(ids, r, PTK_M_Q_LDAVG_5, PTK_F(la->load5));
		ACT_SET(ids, r, PTK_M_Q_LDAVG_15, PTK_F(la->load15));
	}
	/* a /proc/stat without the line (cut short, an impossible archived value): unknown */
	if (ptk_stat_has(&cur->st, PTK_ST_PROCS_BLOCKED))
		ACT_SET(ids, r, PTK_M_Q_BLOCKED, PTK_U(cur->st.procs_blocked));
	if (ptk_stat_has(&cur->st, PTK_ST_PROCS_RUNNING))
		ACT_SET(ids, r, PTK_M_Q_PROCS_RUNNING, PTK_U(cur->st.procs_running));
	if (!isnan(cur->up.up_s)) /* NAN: an archived uptime that was impossible */
		ACT_SET(ids, r, PTK_M_Q_UPTIME, PTK_F(cur->up.up_s));
	return 0;
}

const enum ptk_mid ptk_act_task_mids[] = {
	PTK_M_TASK_PROC_S,
	PTK_M_TASK_CSWCH_S,
	PTK_M_TASK_INTR_S,
	PTK_M_NONE,
};

/* Rate of /proc/stat counter f (its value at off) from prev (NULL: since boot) to cur;
 * unknown when either lacks the line. */
static struct ptk_val st_rate(const struct ptk_snap *prev, const struct ptk_snap *cur,
			      enum ptk_stat_field f, double itv_s)
{
	size_t off = ptk_stat_fields[f].off;
	u64 a = prev ? *(const u64 *)((const char *)&prev->st + off) : 0;

	if (!ptk_stat_has(&cur->st, f) || (prev && !ptk_stat_has(&prev->st, f)))
		return PTK_NA;
	return PTK_F(ptk_act_rate(a, *(const u64 *)((const char *)&cur->st + off), itv_s));
}

/* The one context switch rate: d(ctxt) over the interval. */
ACT_ROWS_FN(ptk_act_task_rows)
{
	const enum ptk_mid *ids = ptk_act_task_mids;
	struct ptk_row *r = ptk_rows_add(out, "");

	ACT_SET(ids, r, PTK_M_TASK_PROC_S, st_rate(prev, cur, PTK_ST_PROCESSES, itv_s));
	ACT_SET(ids, r, PTK_M_TASK_CSWCH_S, st_rate(prev, cur, PTK_ST_CTXT, itv_s));
	ACT_SET(ids, r, PTK_M_TASK_INTR_S, st_rate(prev, cur, PTK_ST_INTR, itv_s));
	return 0;
}
