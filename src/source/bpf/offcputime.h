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
	OFFCPU_LOST_RINGBUF, /* --call-graph dwarf: a record did not fit in the ring buffer */
	OFFCPU_LOST_USTACK_COPY, /* --call-graph dwarf: the user stack was not readable */
	OFFCPU_LOST_NR
};

/*
 * --call-graph dwarf: at the switch-out the user registers and up to ustack_bytes of the
 * user stack (from sp; halved up to 3 times where the stack ends sooner) go to user space in
 * a ring buffer record, which unwinds them with libdw's CFI; at the switch-in a second record
 * gives that period's off-CPU time. The key's user_stack_id is then OFFCPU_DWARF_ID.
 */
#define OFFCPU_USTACK_MAX 16384 /* bytes of user stack copied at most */
#define OFFCPU_DWARF_ID (-3)
#define OFFCPU_NREGS \
	24 /* indexed as enum perf_event_x86_regs: AX 0, BX 1, CX 2, DX 3,
			 * SI 4, DI 5, BP 6, SP 7, IP 8, FLAGS 9, R8..R15 16..23 */
enum { OFFCPU_REC_STACK = 1, OFFCPU_REC_DONE = 2 };

struct offcpu_ustack {
	__u32 type; /* OFFCPU_REC_STACK */
	__u32 pid, tgid;
	__u32 size; /* bytes of data[] */
	__u64 ts; /* the switch-out (the period's start) */
	__s32 kern_stack_id;
	__u32 pad;
	char comm[16];
	__u64 regs[OFFCPU_NREGS];
	__u8 data[OFFCPU_USTACK_MAX];
};

struct offcpu_done {
	__u32 type; /* OFFCPU_REC_DONE */
	__u32 pid;
	__u64 ts; /* the start of the period it ends, as in its offcpu_ustack */
	__u64 delta_us;
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
