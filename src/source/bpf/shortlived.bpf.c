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

/*
 * Two flavours of each hook, as in runqlat.bpf.c: the libbpf skeleton holds both and loads one
 * (ptk_bpf_pick_tp); the light skeletons are built once per flavour (PTK_ONLY_TP_BTF /
 * PTK_ONLY_RAW_TP), since the kernel-side loader loads and attaches every program it holds.
 */
#ifndef PTK_ONLY_RAW_TP
SEC("tp_btf/sched_process_exit")
int BPF_PROG(tp_btf_exit, struct task_struct *p)
{
	return on_exit(p);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(tp_btf_fork, struct task_struct *parent, struct task_struct *child)
{
	return on_fork();
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(tp_btf_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	return on_exec();
}

#endif

#ifndef PTK_ONLY_TP_BTF
SEC("raw_tp/sched_process_exit")
int BPF_PROG(raw_exit, struct task_struct *p)
{
	return on_exit(p);
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(raw_fork, struct task_struct *parent, struct task_struct *child)
{
	return on_fork();
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(raw_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	return on_exec();
}

#endif

char LICENSE[] SEC("license") = "GPL";
