/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of shortlived: processes born and gone while ptk check watched. */
#ifndef PTK_SHORTLIVED_H
#define PTK_SHORTLIVED_H

struct shortlived_counts {
	__u64 forks; /* sched_process_fork (new processes and threads) */
	__u64 execs; /* sched_process_exec */
	__u64 exits; /* sched_process_exit of thread group leaders */
	__u64 shortlived; /* leaders that exited and were started after attach */
};

#endif
