// SPDX-License-Identifier: GPL-2.0
/*
 * runqlat: time from a task becoming runnable (sched_wakeup, sched_wakeup_new, or being
 * preempted while still runnable in sched_switch) to running on a CPU (sched_switch picks
 * it as next). The pid and comm of a histogram both come from that same next task; the
 * idle task (pid 0) is never counted.
 */
#include "common.bpf.h"
#include "runqlat.h"

const volatile bool targ_per_process = false;
const volatile bool targ_per_thread = false;
const volatile bool targ_ms = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct runqlat_hist);
} hists SEC(".maps");

static struct runqlat_hist zero;

/*
 * btf: p, prev and next are BTF-typed tp_btf arguments, read with direct loads; a raw_tp
 * program passes false and reads them with bpf_probe_read_kernel. The flag is a constant
 * in each inlined copy, so the other branch is not compiled.
 */
#define TASK_FIELD(t, f, btf) ((btf) ? (t)->f : BPF_CORE_READ(t, f))

static __always_inline int enqueue(struct task_struct *p, bool btf)
{
	__u32 tid = TASK_FIELD(p, pid, btf);
	__u64 ts;

	if (!tid || !task_selected(p))
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

static __always_inline int on_switch(struct task_struct *prev, struct task_struct *next, bool btf)
{
	struct runqlat_hist *h;
	__u32 tid, key;
	__u64 *tsp;
	__s64 delta;

	/* preempted while runnable: it waits on the run queue from now */
	if ((btf ? task_state_btf(prev) : task_state(prev)) == TASK_RUNNING)
		enqueue(prev, btf);
	tid = TASK_FIELD(next, pid, btf);
	if (!tid)
		return 0;
	tsp = bpf_map_lookup_elem(&start, &tid);
	if (!tsp)
		return 0;
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &tid);
	if (delta < 0)
		return 0;
	key = targ_per_process ? (__u32)TASK_FIELD(next, tgid, btf) :
	      targ_per_thread  ? tid :
				 RUNQLAT_ALL;
	h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h)
			return 0;
		if (key != RUNQLAT_ALL)
			bpf_probe_read_kernel_str(h->comm, sizeof(h->comm), next->comm);
	}
	delta /= targ_ms ? 1000000 : 1000;
	__u64 slot = log2_slot(delta);
	if (slot >= RUNQLAT_SLOTS)
		slot = RUNQLAT_SLOTS - 1;
	__sync_fetch_and_add(&h->slots[slot], 1);
	return 0;
}

/* The BTF-typed tracepoints (cheapest) and the raw ones; the loader tries tp_btf first. */
PTK_TP_HOOKS(sched_wakeup, sched_wakeup, enqueue(p, btf), struct task_struct *p)
PTK_TP_HOOKS(sched_wakeup_new, sched_wakeup_new, enqueue(p, btf), struct task_struct *p)
PTK_TP_HOOKS(sched_switch, sched_switch, on_switch(prev, next, btf), bool preempt,
	     struct task_struct *prev, struct task_struct *next)

char LICENSE[] SEC("license") = "GPL";
