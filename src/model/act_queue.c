// SPDX-License-Identifier: GPL-2.0
/*
 * The queue and task activities: /proc/loadavg (fs/proc/loadavg.c) and the /proc/stat
 * counters processes, ctxt, intr and procs_blocked (fs/proc/stat.c show_stat), as sysstat's
 * sar -q and sar -w compute them. runq-sz leaves its reader out, as sadc (ptk_act_runq_sz);
 * procs_running is the file's value, as procps vmstat prints it.
 */
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
	ACT_SET(ids, r, PTK_M_Q_BLOCKED, PTK_U(cur->st.procs_blocked));
	ACT_SET(ids, r, PTK_M_Q_PROCS_RUNNING, PTK_U(cur->st.procs_running));
	ACT_SET(ids, r, PTK_M_Q_UPTIME, PTK_F(cur->up.up_s));
	return 0;
}

const enum ptk_mid ptk_act_task_mids[] = {
	PTK_M_TASK_PROC_S,
	PTK_M_TASK_CSWCH_S,
	PTK_M_TASK_INTR_S,
	PTK_M_NONE,
};

/* The one context switch rate: d(ctxt) over the interval. */
ACT_ROWS_FN(ptk_act_task_rows)
{
	const enum ptk_mid *ids = ptk_act_task_mids;
	struct ptk_row *r = ptk_rows_add(out, "");
	u64 procs0 = prev ? prev->st.processes : 0, ctxt0 = prev ? prev->st.ctxt : 0;
	u64 intr0 = prev ? prev->st.intr : 0;

	ACT_SET(ids, r, PTK_M_TASK_PROC_S, PTK_F(ptk_act_rate(procs0, cur->st.processes, itv_s)));
	ACT_SET(ids, r, PTK_M_TASK_CSWCH_S, PTK_F(ptk_act_rate(ctxt0, cur->st.ctxt, itv_s)));
	ACT_SET(ids, r, PTK_M_TASK_INTR_S, PTK_F(ptk_act_rate(intr0, cur->st.intr, itv_s)));
	return 0;
}
