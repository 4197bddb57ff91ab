/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The busiest task of an interval, as dstat's --top-cpu and --top-io pick it, from the
 * per-task rates of model/ptask.c. (Apart from model/ptask.h, whose pidstat activity bits
 * share names with the activity table's ids.)
 */
#ifndef PTK_MODEL_TASKTOP_H
#define PTK_MODEL_TASKTOP_H

#include "source/procfs/pid.h"

struct ptk_task_top {
	bool any; /* a task with a rate above 0 */
	char comm[64];
	int pid;
	double cpu_all_pct; /* top CPU: % of all CPUs (the % of one CPU / ncpu) */
	double rchar_s, wchar_s; /* top I/O: bytes/s through read() and write() (/proc/PID/io) */
};

/*
 * The tasks of cur against prev (NULL: since boot, prev_up_s -1) over itv_s: *cpu the one
 * with the most CPU (the last of equals in pid order, as dstat walks /proc), *io the one with
 * the most rchar + wchar per second (the first of equals; tasks whose io is unreadable are
 * left out). The task skip (the caller) is never picked. hz = USER_HZ, ncpu online CPUs.
 */
void ptk_task_tops(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s, long hz,
		   double prev_up_s, int ncpu, int skip, struct ptk_task_top *cpu,
		   struct ptk_task_top *io);

#endif
