/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of biosnoop: one event per completed block I/O request. */
#ifndef PTK_BIOSNOOP_H
#define PTK_BIOSNOOP_H

struct biosnoop_event {
	__u64 ts_ns; /* bpf_ktime_get_ns() at the final block_rq_complete */
	__u64 lat_ns; /* block_rq_issue -> completion */
	__s64 que_ns; /* block_rq_insert -> block_rq_issue, -1 without an insert */
	__u64 sector; /* rq->__sector at issue */
	__u32 bytes; /* rq->__data_len at issue (the whole request) */
	__u32 cmd_flags; /* rq->cmd_flags, in the blk_layout.h layout */
	__u32 dev; /* kernel dev_t of the disk (major << 20 | minor) */
	__u32 pid; /* tgid of the task that submitted (block_io_start) or inserted/issued it */
	char comm[16];
};

#endif
