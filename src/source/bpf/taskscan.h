/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process table from a BPF task iterator (taskiter.bpf.c): the same struct ptk_ptab rows
 * as the /proc scan (source/procfs/pid.h) for the fields of stat, statm and the owner, in
 * one read() for all tasks. For large process tables as root; callers fall back to the
 * /proc scan otherwise (other files, other roots, no privilege).
 */
#ifndef PTK_SOURCE_BPF_TASKSCAN_H
#define PTK_SOURCE_BPF_TASKSCAN_H

#include "source/procfs/pid.h"

struct ptk_taskscan;

/* Load and attach the iterator. 0 or -errno (-EPERM unprivileged). */
int ptk_taskscan_open(struct ptk_taskscan **ts);
/*
 * Fill pt with process rows (threads summed as /proc/PID/stat does: the group's exited
 * threads from signal_struct plus every live thread), or thread rows with PTK_PT_THREADS.
 * Sets stat fields, statm (PTK_PT_STATM), status (PTK_PT_STATUS: uid, context switches,
 * VmRSS, VmSwap; Name is comm), schedstat run_delay (PTK_PT_SCHED), the owner (euid) and
 * stat's delayacct_blkio_ticks, the byte counters of /proc/PID/io (PTK_PT_IO: rchar, wchar, read/write/cancelled bytes;
 * io_ok is false on kernels without CONFIG_TASK_XACCT).
 * utime/stime/gtime/starttime are converted from ns to USER_HZ ticks like /proc; utime and
 * stime are scaled to sum_exec_runtime as /proc's are (cputime_adjust), and kept from going
 * backwards from one scan of ts to the next as /proc keeps them (prev_cputime).
 * Returns 0 or -errno.
 */
int ptk_taskscan_scan(struct ptk_taskscan *ts, unsigned flags, struct ptk_ptab *pt);
/*
 * One iteration as both tables: process rows in procs and thread rows in threads (flags as
 * ptk_taskscan_scan's, without PTK_PT_THREADS; PTK_PT_DSTATE applies to the threads), the
 * same instant for both. Returns 0 or -errno.
 */
int ptk_taskscan_scan_both(struct ptk_taskscan *ts, unsigned flags, struct ptk_ptab *procs,
			   struct ptk_ptab *threads);
/* The flags the iterator can serve (others need the /proc scan). */
#define PTK_TASKSCAN_FLAGS                                                                \
	(PTK_PT_THREADS | PTK_PT_STATM | PTK_PT_OWNER | PTK_PT_SKIPIDLE | PTK_PT_STATUS | \
	 PTK_PT_SCHED | PTK_PT_IO | PTK_PT_DSTATE)
void ptk_taskscan_close(struct ptk_taskscan *ts);
/*
 * The process table from ts when there is one, every task is wanted (npids 0) and the
 * iterator serves flags; else from /proc (ptk_ptab_scan_some). Returns 0 or -errno.
 */
int ptk_taskscan_or_proc(struct ptk_taskscan *ts, const struct ptk_src *src, unsigned flags,
			 const int *pids, int npids, struct ptk_ptab *pt);
/*
 * The iterator when it pays off: a live source (not a replayed snapshot), as root, with at
 * least min_tasks tasks (loadavg's nr_threads; loading costs ~2 ms, the /proc scan ~20 µs a
 * task). PTK_TASK_SOURCE=proc|bpf in the environment forces the choice (tests, benchmarks).
 * NULL: scan /proc (also when loading fails: an old kernel, no BPF).
 */
struct ptk_taskscan *ptk_taskscan_auto(const struct ptk_src *src, long min_tasks);

#endif
