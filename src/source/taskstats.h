/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task delay accounting over generic netlink (the TASKSTATS family,
 * kernel/taskstats.c): TASKSTATS_CMD_GET with TASKSTATS_CMD_ATTR_PID (one thread) or
 * TASKSTATS_CMD_ATTR_TGID (a process: its live threads plus the ones that exited), answered
 * with a struct taskstats (include/uapi/linux/taskstats.h). The delays are only counted
 * while delay accounting is on (kernel.task_delayacct=1 or "delayacct" on the kernel command
 * line); the command needs CAP_NET_ADMIN. Functions return 0 or -errno and never print.
 */
#ifndef PTK_SOURCE_TASKSTATS_H
#define PTK_SOURCE_TASKSTATS_H

#include <stdbool.h>

#include "lib/util.h"
#include "source/root.h"

struct ptk_taskstats;

/* The delay-accounting totals of one task since it started (struct taskstats). */
struct ptk_taskdelay {
	int pid; /* ac_pid */
	unsigned version; /* struct taskstats version the kernel sent */
	u64 cpu_delay_ns; /* cpu_delay_total: runnable, waiting for a CPU */
	u64 blkio_delay_ns; /* blkio_delay_total: waiting for synchronous block I/O */
	u64 swapin_delay_ns; /* swapin_delay_total: waiting for swap-in */
	u64 blkio_count, swapin_count;
	u64 read_bytes, write_bytes; /* storage I/O (TASK_IO_ACCOUNTING), bytes */
};

/*
 * Open a generic netlink socket and resolve the "TASKSTATS" family. *out is set on success.
 * Returns 0, -ENOENT (no TASKSTATS family: CONFIG_TASKSTATS off), -ENOMEM, or -errno of the
 * socket.
 */
int ptk_taskstats_open(struct ptk_taskstats **out);

/*
 * Query one task: id is a thread id (tgid false) or a process id (tgid true). Returns 0,
 * -ESRCH (no such task), -EPERM (needs CAP_NET_ADMIN), -EPROTO (malformed answer) or
 * another -errno.
 */
int ptk_taskstats_get(struct ptk_taskstats *ts, int id, bool tgid, struct ptk_taskdelay *out);

void ptk_taskstats_close(struct ptk_taskstats *ts);

/* kernel.task_delayacct from <procfs>/sys/kernel/task_delayacct: 1 on, 0 off, or -errno
 * (-ENOENT on kernels before 5.14, where only the "nodelayacct" boot flag exists). */
int ptk_delayacct_enabled(const struct ptk_src *src);

#endif
