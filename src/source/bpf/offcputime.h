/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of offcputime: off-CPU time summed per (task, user stack, kernel stack). */
#ifndef PTK_OFFCPUTIME_H
#define PTK_OFFCPUTIME_H

#define OFFCPU_MAX_DEPTH 127 /* frames per stack (the kernel's PERF_MAX_STACK_DEPTH) */
#define OFFCPU_MAX_ENTRIES 10240 /* distinct keys (and tasks blocked at once) */

/* Why a stack is missing: counted in the lost array, one slot per reason. */
enum offcpu_lost {
	OFFCPU_LOST_USTACK_FULL, /* -EEXIST: user stack map full (hash collision) */
	OFFCPU_LOST_KSTACK_FULL, /* -EEXIST: kernel stack map full */
	OFFCPU_LOST_USTACK_FAULT, /* -EFAULT or other: user stack not readable */
	OFFCPU_LOST_KSTACK_FAULT, /* other errors taking the kernel stack */
	OFFCPU_LOST_START_FULL, /* start map full: a blocked task was not timed */
	OFFCPU_LOST_INFO_FULL, /* info map full: an off-CPU period was dropped */
	OFFCPU_LOST_NR
};

struct offcpu_key {
	__u32 pid; /* thread id */
	__u32 tgid; /* process id */
	__s32 user_stack_id; /* < 0: -errno from bpf_get_stackid, or -1 not taken */
	__s32 kern_stack_id;
	char comm[16];
};

struct offcpu_val {
	__u64 delta_us; /* total off-CPU time */
	__u64 count; /* off-CPU periods */
};

#endif
