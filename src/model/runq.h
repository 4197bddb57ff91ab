/* SPDX-License-Identifier: GPL-2.0 */
/* The run queue's one rule, apart from model/activity.h so that check's USE measurements
 * (model/use.c) apply it too. */
#ifndef PTK_MODEL_RUNQ_H
#define PTK_MODEL_RUNQ_H

#include "lib/util.h"

/*
 * sar's runq-sz: a run count (/proc/loadavg nr_running, or /proc/stat procs_running: both
 * the kernel's nr_running(), kernel/sched/core.c) without the task that read the file, which
 * was running while it read. sysstat's sadc leaves itself out this way always, live and on
 * any tree (rd_stats.c read_loadavg: its own test trees expect nr_running - 1), and so does
 * procps-ng's libproc2 after 4.0.2. procps 4.0.2's vmstat (Debian 12) prints procs_running as
 * read: ptk vmstat's r is that entry (PTK_M_Q_PROCS_RUNNING), a different metric.
 */
static inline u64 ptk_act_runq_sz(u64 n)
{
	return n ? n - 1 : 0;
}

#endif
