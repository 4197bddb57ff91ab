// SPDX-License-Identifier: GPL-2.0
/*
 * shortlived: count processes that start and exit inside the observation window, which
 * no /proc snapshot can see (sched_process_exit of a thread group leader whose start_time,
 * CLOCK_MONOTONIC ns, is after the attach time set in rodata).
 */
#include "common.bpf.h"
#include "shortlived.h"

const volatile __u64 attach_ns = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct shortlived_counts);
} counts SEC(".maps");

static __always_inline struct shortlived_counts *slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

static __always_inline int on_exit(struct task_struct *p)
{
	struct shortlived_counts *c = slot();

	if (!c || BPF_CORE_READ(p, pid) != BPF_CORE_READ(p, tgid) || !task_selected(p))
		return 0;
	c->exits++;
	if (BPF_CORE_READ(p, start_time) >= attach_ns)
		c->shortlived++;
	return 0;
}

static __always_inline int on_fork(void)
{
	struct shortlived_counts *c = slot();

	if (c)
		c->forks++;
	return 0;
}

static __always_inline int on_exec(void)
{
	struct shortlived_counts *c = slot();

	if (c && current_selected())
		c->execs++;
	return 0;
}

PTK_TP_HOOKS(exit, sched_process_exit, on_exit(p), struct task_struct *p)
PTK_TP_HOOKS(fork, sched_process_fork, on_fork(), struct task_struct *parent,
	     struct task_struct *child)
PTK_TP_HOOKS(exec, sched_process_exec, on_exec(), struct task_struct *p, pid_t old_pid,
	     struct linux_binprm *bprm)

char LICENSE[] SEC("license") = "GPL";
