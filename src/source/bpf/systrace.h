/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel/user ABI of the raw_syscalls programs (systrace.bpf.c) behind ptk syscount and
 * ptk strace --bpf: per-syscall (or per-process) counts, errors and time in a hash map, and,
 * for strace, one event per completed syscall with its arguments and the memory they point to
 * (read at entry for what the call reads, at exit for what it wrote), as the ptrace path
 * would read it.
 */
#ifndef PTK_SYSTRACE_H
#define PTK_SYSTRACE_H

#define SYSTRACE_NR_MAX 512 /* syscall numbers planned (x86_64 has < 512) */
#define SYSTRACE_BLOB 256 /* bytes of one argument's memory kept */
#define SYSTRACE_NBLOB 3 /* arguments' memory per event (< 4) */
#define SYSTRACE_TGIDS 4096 /* processes followed (-f) */

/* How an argument's memory is read (plan entries, set by user space from the decoders). */
enum systrace_kind {
	ST_K_NONE,
	ST_K_STR, /* a NUL-terminated string, at entry */
	ST_K_IN, /* len bytes at entry: len = the argument lenarg, or size when lenarg is 7 */
	ST_K_OUT, /* at exit: len = the return value (lenarg 6), an argument, or size */
	ST_K_INOUT, /* size bytes at entry and at exit */
};

struct systrace_plan_arg {
	__u8 kind; /* enum systrace_kind */
	__u8 lenarg; /* 0..5: that argument is the length; 6: the return value; 7: size */
	__u16 size;
};

struct systrace_plan {
	struct systrace_plan_arg a[6];
};

/* Count key: the syscall number, or the process (-P: tgid, nr 0). */
struct systrace_key {
	__u32 nr;
	__u32 tgid;
};

struct systrace_count {
	__u64 count;
	__u64 errors;
	__u64 total_ns; /* -L: time in the calls */
	char comm[16];
};

#define ST_BLOB_EXIT 1 /* read at the exit stop (else at entry) */
#define ST_BLOB_CUT 2 /* the memory went on past SYSTRACE_BLOB bytes */
#define ST_BLOB_FAULT 4 /* unreadable */

struct systrace_blob {
	__u64 addr;
	__u16 len; /* bytes in data */
	__u8 flags; /* ST_BLOB_* */
	__u8 arg;
	__u32 pad;
	__u8 data[SYSTRACE_BLOB];
};

enum systrace_type { ST_EV_SYSCALL, ST_EV_EXIT };

struct systrace_event {
	__u32 type; /* enum systrace_type */
	__s32 nr; /* ST_EV_SYSCALL */
	__u32 tgid, tid;
	__u64 entry_ns, exit_ns; /* CLOCK_MONOTONIC */
	__s64 ret; /* return value; ST_EV_EXIT: the exit code (task_struct::exit_code) */
	__u64 args[6];
	__u32 nblob;
	__u32 pad;
	struct systrace_blob b[SYSTRACE_NBLOB];
};

#endif
