/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of runqlat: one log2 histogram of run-queue latency per key. */
#ifndef PTK_RUNQLAT_H
#define PTK_RUNQLAT_H

#define RUNQLAT_SLOTS 64
#define RUNQLAT_ALL ((__u32)-1) /* key of the system-wide histogram */

struct runqlat_hist {
	__u64 slots[RUNQLAT_SLOTS]; /* log2 of the latency in us (ms with -m) */
	char comm[16]; /* of the task whose pid is the key (-P/-L) */
};

#endif
