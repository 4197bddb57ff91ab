/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of execsnoop: one event per completed execve/execveat. */
#ifndef PTK_EXECSNOOP_H
#define PTK_EXECSNOOP_H

#define EXECSNOOP_ARGSIZE 128 /* bytes of one argument, NUL included */
#define EXECSNOOP_TOTAL_MAX_ARGS 60 /* --max-args upper bound */
#define EXECSNOOP_DEFAULT_MAX_ARGS 20
#define EXECSNOOP_ARGS_LEN (EXECSNOOP_TOTAL_MAX_ARGS * EXECSNOOP_ARGSIZE)
#define EXECSNOOP_LAST_ARG (EXECSNOOP_ARGS_LEN - EXECSNOOP_ARGSIZE)

enum execsnoop_sys { EXECSNOOP_EXECVE, EXECSNOOP_EXECVEAT };

struct execsnoop_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) at sys_exit */
	__s32 pid; /* tgid of the process that called exec */
	__s32 ppid; /* tgid of its real parent */
	__u32 uid;
	__s32 retval; /* 0, or -errno for a failed exec (-x) */
	__u32 args_count; /* arguments read; max_args + 1 means "more follow" */
	__u32 args_size; /* bytes used in args */
	__u32 sys; /* enum execsnoop_sys */
	char comm[16]; /* after exec: the new program's comm */
	/* NUL-separated: the path given to exec (argv[0] for fexecve), then argv[1..] */
	char args[EXECSNOOP_ARGS_LEN];
};

#endif
