// SPDX-License-Identifier: GPL-2.0
/*
 * offcputime: time tasks spend off CPU, summed in the kernel per (tid, tgid, comm, user stack,
 * kernel stack). At sched_switch the task switched out (prev) gets a start time and its
 * stacks (if it passes the filters and the task-state filter); when it is switched in again
 * (next), the time off CPU is added to its key if it lies within [min, max] us. The idle task
 * (pid 0) is never counted. Stacks that cannot be stored are counted per reason, not silent.
 */
#include "common.bpf.h"
#include "offcputime.h"

#define PF_KTHREAD 0x00200000
#define EEXIST 17

const volatile bool user_threads_only = false;
const volatile bool kernel_threads_only = false;
const volatile long state = -1; /* task state (bitmask value) to match, -1 any */
const volatile __u64 min_block_us = 1;
const volatile __u64 max_block_us = (__u64)-1;
const volatile __u32 ustack_bytes = 0; /* --call-graph dwarf: bytes of user stack to copy */

struct start_t {
	__u64 ts;
	struct offcpu_key key;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, struct start_t);
} start SEC(".maps");

/* max_entries is set from --stack-storage-size before load */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, OFFCPU_MAX_DEPTH * sizeof(__u64));
	__uint(max_entries, 1024);
} stackmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_ENTRIES);
	__type(key, struct offcpu_key);
	__type(value, struct offcpu_val);
} info SEC(".maps");

/* --call-graph dwarf: stack copies and period ends for user space (size set before load) */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct offcpu_ustack);
} ubuf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OFFCPU_LOST_NR);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline void count_lost(__u32 why)
{
	__u64 *v = bpf_map_lookup_elem(&lost, &why);

	if (v)
		(*v)++;
}

struct vma_end {
	__u64 end;
};

/* bpf_find_vma's callback: the end of the mapping holding the stack pointer */
static long vma_end_cb(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	((struct vma_end *)data)->end = BPF_CORE_READ(vma, vm_end);
	return 0;
}

/* The current task's (prev's, at sched_switch) user registers and stack, to user space. */
static __always_inline void copy_ustack(const struct start_t *s)
{
	__u32 z = 0, n = ustack_bytes;
	struct offcpu_ustack *u = bpf_map_lookup_elem(&ubuf, &z);
	struct task_struct *cur = bpf_get_current_task_btf();
	struct pt_regs *regs;
	bool ok = false;

	if (!u)
		return;
	regs = (struct pt_regs *)bpf_task_pt_regs(cur);
	if (!regs)
		return;
	u->type = OFFCPU_REC_STACK;
	u->pid = s->key.pid;
	u->tgid = s->key.tgid;
	u->ts = s->ts;
	u->kern_stack_id = s->key.kern_stack_id;
	__builtin_memcpy(u->comm, s->key.comm, sizeof(u->comm));
	u->regs[0] = BPF_CORE_READ(regs, ax);
	u->regs[1] = BPF_CORE_READ(regs, bx);
	u->regs[2] = BPF_CORE_READ(regs, cx);
	u->regs[3] = BPF_CORE_READ(regs, dx);
	u->regs[4] = BPF_CORE_READ(regs, si);
	u->regs[5] = BPF_CORE_READ(regs, di);
	u->regs[6] = BPF_CORE_READ(regs, bp);
	u->regs[7] = BPF_CORE_READ(regs, sp);
	u->regs[8] = BPF_CORE_READ(regs, ip);
	u->regs[9] = BPF_CORE_READ(regs, flags);
	u->regs[16] = BPF_CORE_READ(regs, r8);
	u->regs[17] = BPF_CORE_READ(regs, r9);
	u->regs[18] = BPF_CORE_READ(regs, r10);
	u->regs[19] = BPF_CORE_READ(regs, r11);
	u->regs[20] = BPF_CORE_READ(regs, r12);
	u->regs[21] = BPF_CORE_READ(regs, r13);
	u->regs[22] = BPF_CORE_READ(regs, r14);
	u->regs[23] = BPF_CORE_READ(regs, r15);
	/* no more than the stack's mapping holds above sp: a read past its end fails whole,
	 * after a page fault's worth of work */
	{
		struct vma_end ve = { 0 };
		__u64 sp = u->regs[7];

		if (!bpf_find_vma(cur, sp, vma_end_cb, &ve, 0) && ve.end > sp && ve.end - sp < n)
			n = (__u32)(ve.end - sp) & ~7u;
	}
	/* the stack may still end sooner (find_vma busy): try shorter copies */
	for (int k = 0; k < 4; k++) {
		if (n > OFFCPU_USTACK_MAX)
			n = OFFCPU_USTACK_MAX;
		if (n < 64)
			break;
		if (!bpf_probe_read_user(u->data, n, (void *)u->regs[7])) {
			ok = true;
			break;
		}
		n >>= 1;
	}
	if (!ok) {
		count_lost(OFFCPU_LOST_USTACK_COPY);
		n = 0;
	}
	if (n > OFFCPU_USTACK_MAX)
		n = OFFCPU_USTACK_MAX;
	u->size = n;
	if (bpf_ringbuf_output(&events, u, __builtin_offsetof(struct offcpu_ustack, data) + n, 0))
		count_lost(OFFCPU_LOST_RINGBUF);
}

static __always_inline bool allow_record(struct task_struct *t)
{
	bool kthread = BPF_CORE_READ(t, flags) & PF_KTHREAD;

	if (!BPF_CORE_READ(t, pid) || !task_selected(t))
		return false;
	if (user_threads_only && kthread)
		return false;
	if (kernel_threads_only && !kthread)
		return false;
	if (state != -1 && task_state(t) != state)
		return false;
	return true;
}

static __always_inline int on_switch(void *ctx, struct task_struct *prev, struct task_struct *next)
{
	struct start_t *sp, s = {};
	struct offcpu_val *vp, zero = {};
	__u32 pid;
	__s64 delta;

	if (allow_record(prev)) {
		s.key.pid = BPF_CORE_READ(prev, pid);
		s.key.tgid = BPF_CORE_READ(prev, tgid);
		s.ts = bpf_ktime_get_ns();
		if (BPF_CORE_READ(prev, flags) & PF_KTHREAD) {
			s.key.user_stack_id = -1;
		} else if (ustack_bytes) {
			s.key.user_stack_id = OFFCPU_DWARF_ID;
		} else {
			s.key.user_stack_id = bpf_get_stackid(ctx, &stackmap, BPF_F_USER_STACK);
			if (s.key.user_stack_id < 0)
				count_lost(s.key.user_stack_id == -EEXIST ?
						   OFFCPU_LOST_USTACK_FULL :
						   OFFCPU_LOST_USTACK_FAULT);
		}
		s.key.kern_stack_id = bpf_get_stackid(ctx, &stackmap, 0);
		if (s.key.kern_stack_id < 0)
			count_lost(s.key.kern_stack_id == -EEXIST ? OFFCPU_LOST_KSTACK_FULL :
								    OFFCPU_LOST_KSTACK_FAULT);
		bpf_probe_read_kernel_str(s.key.comm, sizeof(s.key.comm), prev->comm);
		if (s.key.user_stack_id == OFFCPU_DWARF_ID)
			copy_ustack(&s);
		pid = s.key.pid;
		if (bpf_map_update_elem(&start, &pid, &s, BPF_ANY))
			count_lost(OFFCPU_LOST_START_FULL);
	}

	pid = BPF_CORE_READ(next, pid);
	if (!pid)
		return 0;
	sp = bpf_map_lookup_elem(&start, &pid);
	if (!sp)
		return 0;
	delta = (__s64)(bpf_ktime_get_ns() - sp->ts);
	if (delta < 0)
		goto out_delete_start;
	delta /= 1000;
	if ((__u64)delta < min_block_us || (__u64)delta > max_block_us)
		goto out_delete_start;
	if (sp->key.user_stack_id == OFFCPU_DWARF_ID) {
		/* the period's end, for the stack copy sent at its start */
		struct offcpu_done d = { OFFCPU_REC_DONE, pid, sp->ts, delta };

		if (bpf_ringbuf_output(&events, &d, sizeof(d), 0))
			count_lost(OFFCPU_LOST_RINGBUF);
		goto out_delete_start;
	}
	vp = bpf_map_lookup_elem(&info, &sp->key);
	if (!vp) {
		bpf_map_update_elem(&info, &sp->key, &zero, BPF_NOEXIST);
		vp = bpf_map_lookup_elem(&info, &sp->key);
		if (!vp) {
			count_lost(OFFCPU_LOST_INFO_FULL);
			goto out_delete_start;
		}
	}
	__sync_fetch_and_add(&vp->delta_us, delta);
	__sync_fetch_and_add(&vp->count, 1);
out_delete_start:
	bpf_map_delete_elem(&start, &pid);
	return 0;
}

PTK_TP_HOOKS(sched_switch, sched_switch, on_switch(ctx, prev, next), bool preempt,
	     struct task_struct *prev, struct task_struct *next)

char LICENSE[] SEC("license") = "GPL";
