/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of taskiter: one record per task from a BPF task iterator. */
#ifndef PTK_TASKITER_H
#define PTK_TASKITER_H

/* pid and tgid of the record that ends an iteration (written when the iterator calls the
 * program without a task, kernel/bpf/task_iter.c task_seq_stop) */
#define TASKITER_END (-1)

/* A struct task_io_accounting: the fields of /proc/PID/io (bytes). */
struct taskiter_io {
	__u64 rchar, wchar, read_bytes, write_bytes, cancelled_write_bytes;
};

struct taskiter_rec {
	__s32 pid, tgid, ppid;
	__u32 euid, uid; /* cred: effective (the /proc owner) and real (status Uid:) */
	char comm[16];
	__u32 state; /* __state | exit_state, masked as /proc's task_state_index */
	__s32 prio; /* task->prio */
	__s32 static_prio;
	__u32 cpu;
	__s32 nr_threads;
	__u64 utime_ns, stime_ns; /* this thread */
	__u64 sig_utime_ns, sig_stime_ns; /* the group's exited threads (signal_struct) */
	__u64 min_flt, maj_flt; /* this thread */
	__u64 sig_min_flt, sig_maj_flt; /* the group's exited threads */
	__u64 start_boottime_ns;
	__u64 total_vm; /* pages */
	__s64 rss_file, rss_anon, rss_swap, rss_shmem; /* pages (MM_FILEPAGES..MM_SHMEMPAGES) */
	__u64 nvcsw, nivcsw; /* this thread's context switches (status counts the task only) */
	__u64 gtime_ns, sig_gtime_ns; /* guest time: this thread, the group's exited threads */
	__u64 run_delay_ns; /* sched_info.run_delay (schedstat field 2); 0 without SCHED_INFO */
	/* task->ioac of this thread, and signal->ioac (the group's exited threads) */
	struct taskiter_io io, sig_io;
	__u32 has_io; /* rchar/wchar (CONFIG_TASK_XACCT) and the byte counts are real */
	__u32 has_sched; /* run_delay_ns is real (CONFIG_SCHED_INFO) */
	__u64 blkio_delay_ns; /* delays->blkio_delay (stat field 42 in ns); 0 without delayacct */
	/* se.sum_exec_runtime of this thread, signal->sum_sched_runtime of the group's exited
	 * threads (ns): /proc scales utime/stime to them (cputime_adjust) */
	__u64 runtime_ns, sig_runtime_ns;
};

#endif
