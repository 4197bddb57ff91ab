// SPDX-License-Identifier: GPL-2.0
/*
 * execsnoop: one event per exec. sys_enter_execve / sys_enter_execveat record the path and
 * argv of the calling thread in a hash keyed by its tid (user memory is read here, while
 * the old image still exists); sys_exit_execve / sys_exit_execveat add the return value and
 * the new comm and send the event through a ring buffer. Reserve failures and a full
 * in-flight table are counted per CPU in lost[0]: never silent.
 */
#include "common.bpf.h"
#include "events.bpf.h"
#include "execsnoop.h"

const volatile bool ignore_failed = true;
const volatile pid_t targ_ppid = 0;
const volatile int max_args = EXECSNOOP_DEFAULT_MAX_ARGS;

/* LRU: an exec from a non-leader thread changes the tid before sys_exit, leaving its entry
 * behind; LRU eviction keeps such leaks from filling the map over a long run */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 10240);
	__type(key, pid_t);
	__type(value, struct execsnoop_event);
} execs SEC(".maps");

static const struct execsnoop_event empty_event;

static __always_inline int on_enter(const char *path, const char *const *argv, __u32 sys)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 id = bpf_get_current_pid_tgid();
	pid_t tid = (pid_t)id;
	__u32 uid = (__u32)bpf_get_current_uid_gid();
	struct execsnoop_event *e;
	const char *argp = NULL;
	__u32 off;
	long n;
	int i;

	if (!current_selected() || !uid_selected())
		return 0;
	if (targ_ppid && BPF_CORE_READ(task, real_parent, tgid) != targ_ppid)
		return 0;
	if (bpf_map_update_elem(&execs, &tid, &empty_event, BPF_ANY)) {
		count_lost();
		return 0;
	}
	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e)
		return 0;
	e->pid = id >> 32;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = uid;
	e->sys = sys;

	/* the path; fexecve (execveat with AT_EMPTY_PATH and "") names nothing: argv[0] */
	n = bpf_probe_read_user_str(e->args, EXECSNOOP_ARGSIZE, path);
	if (n <= 1 && bpf_probe_read_user(&argp, sizeof(argp), &argv[0]) == 0 && argp)
		n = bpf_probe_read_user_str(e->args, EXECSNOOP_ARGSIZE, argp);
	if (n <= 0) {
		e->args[0] = '\0';
		n = 1;
	}
	off = n;
	e->args_count = 1;
	for (i = 1; i < EXECSNOOP_TOTAL_MAX_ARGS && i < max_args; i++) {
		if (bpf_probe_read_user(&argp, sizeof(argp), &argv[i]) || !argp)
			goto args_end;
		if (off > EXECSNOOP_LAST_ARG)
			goto args_end;
		n = bpf_probe_read_user_str(&e->args[off], EXECSNOOP_ARGSIZE, argp);
		if (n <= 0)
			goto args_end;
		off += n;
		e->args_count++;
	}
	/* one more non-NULL pointer: there are more arguments than shown */
	if (i < EXECSNOOP_TOTAL_MAX_ARGS + 1 &&
	    bpf_probe_read_user(&argp, sizeof(argp), &argv[i]) == 0 && argp)
		e->args_count++;
args_end:
	e->args_size = off;
	return 0;
}

static __always_inline int on_exit(long ret)
{
	pid_t tid = (pid_t)bpf_get_current_pid_tgid();
	struct execsnoop_event *e;
	__u32 size;

	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e)
		return 0;
	if (ignore_failed && ret < 0)
		goto out_delete_exec;
	e->retval = ret;
	e->ts_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	size = e->args_size;
	if (size > EXECSNOOP_ARGS_LEN)
		size = EXECSNOOP_ARGS_LEN;
	size += offsetof(struct execsnoop_event, args);
	output_event(e, size);
out_delete_exec:
	bpf_map_delete_elem(&execs, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_execve")
int tp_sys_enter_execve(struct trace_event_raw_sys_enter *ctx)
{
	return on_enter((const char *)ctx->args[0], (const char *const *)ctx->args[1],
			EXECSNOOP_EXECVE);
}

SEC("tracepoint/syscalls/sys_enter_execveat")
int tp_sys_enter_execveat(struct trace_event_raw_sys_enter *ctx)
{
	return on_enter((const char *)ctx->args[1], (const char *const *)ctx->args[2],
			EXECSNOOP_EXECVEAT);
}

SEC("tracepoint/syscalls/sys_exit_execve")
int tp_sys_exit_execve(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit(ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_execveat")
int tp_sys_exit_execveat(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit(ctx->ret);
}

char LICENSE[] SEC("license") = "GPL";
