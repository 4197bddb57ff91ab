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
 * Sets stat fields, statm (PTK_PT_STATM) and the owner (euid). utime/stime/starttime are
 * converted from ns to USER_HZ ticks like /proc. Returns 0 or -errno.
 */
int ptk_taskscan_scan(struct ptk_taskscan *ts, unsigned flags, struct ptk_ptab *pt);
/* The flags the iterator can serve (others need the /proc scan). */
#define PTK_TASKSCAN_FLAGS (PTK_PT_THREADS | PTK_PT_STATM | PTK_PT_OWNER | PTK_PT_SKIPIDLE)
void ptk_taskscan_close(struct ptk_taskscan *ts);

#endif
