/* SPDX-License-Identifier: GPL-2.0 */
/* The run queue's one rule, apart from model/activity.h so that check's USE measurements
 * (model/use.c) apply it too. */
#ifndef PTK_MODEL_RUNQ_H
#define PTK_MODEL_RUNQ_H

#include <stdbool.h>

#include "lib/util.h"

/*
 * A run count of a snapshot without the task that read it: n is /proc/stat procs_running or
 * /proc/loadavg nr_running (both the kernel's nr_running(), kernel/sched/core.c), which
 * counts the reader, since it was running while it read. The reader is left out when the
 * snapshot says it was counted (observer: live, ptk itself; a tree with the ptk-capture
 * marker, ptk capture); a tree without the marker is taken as written. So live, ptk leaves
 * itself out as sysstat's sadc does (rd_stats.c read_loadavg) and procps-ng's libproc2 after
 * 4.0.2 does (stat.c, "exclude itself"); procps 4.0.2's vmstat still counts itself.
 */
static inline u64 ptk_act_runnable(u64 n, bool observer)
{
	return observer && n ? n - 1 : n;
}

#endif
