/* SPDX-License-Identifier: GPL-2.0 */
/* Shared BPF-side helpers: the common filters (set as read-only data before load), log2
 * slots, task state across kernel versions. Included by every *.bpf.c. */
#ifndef PTK_COMMON_BPF_H
#define PTK_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#ifndef TASK_RUNNING
#define TASK_RUNNING 0
#endif

/* Filters: the runner writes them into .rodata before load (runner.h struct ptk_bpf_filter). */
const volatile pid_t targ_tgid = 0;
const volatile pid_t targ_tid = 0;
const volatile bool filter_comm = false;
const volatile char targ_comm[16] = {};
const volatile __u64 targ_cgroup_id = 0;
const volatile bool filter_uid = false;
const volatile __u32 targ_uid = 0;

/* kernel >= 5.14 renamed task_struct::state to __state */
struct task_struct___o {
	volatile long int state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(struct task_struct *t)
{
	struct task_struct___o *o = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ(o, state);
}

/*
 * The same for a BTF-typed (trusted) task pointer, e.g. a tp_btf argument: direct loads,
 * which the verifier makes fault-safe, instead of a bpf_probe_read_kernel call each.
 */
static __always_inline long task_state_btf(struct task_struct *t)
{
	struct task_struct___o *o = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return o->state;
}

/* The task's cgroup v2 id (kernfs node id == the directory's inode number). */
static __always_inline __u64 task_cgroup_id(struct task_struct *t)
{
	return BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
}

/* True when the task passes -p/-t/-c/--cgroup. */
static __always_inline bool task_selected(struct task_struct *t)
{
	if (targ_tgid && BPF_CORE_READ(t, tgid) != targ_tgid)
		return false;
	if (targ_tid && BPF_CORE_READ(t, pid) != targ_tid)
		return false;
	if (filter_comm) {
		char c[16];
		bpf_probe_read_kernel_str(c, sizeof(c), t->comm);
		for (int i = 0; i < 16; i++) {
			if (c[i] != targ_comm[i])
				return false;
			if (!c[i])
				break;
		}
	}
	if (targ_cgroup_id && task_cgroup_id(t) != targ_cgroup_id)
		return false;
	return true;
}

static __always_inline bool current_selected(void)
{
	return task_selected((struct task_struct *)bpf_get_current_task());
}

/* True when the current task's real UID passes -u (a tool that takes -u checks it). */
static __always_inline bool uid_selected(void)
{
	return !filter_uid || (__u32)bpf_get_current_uid_gid() == targ_uid;
}

/*
 * A tracepoint hooked in its two flavours: the BTF-typed tracepoint (cheapest: its typed
 * arguments are read with direct loads) as program tp_btf_NAME, and the raw tracepoint as
 * raw_NAME. Each returns CALL, in which the constant btf says the flavour (true in
 * tp_btf_NAME), so a handler inlined in both compiles each branch once; ARGS are the
 * tracepoint's arguments (its TP_PROTO). The libbpf skeleton holds both and loads one
 * (ptk_bpf_pick_tp); the light skeletons are built once per flavour (PTK_ONLY_TP_BTF /
 * PTK_ONLY_RAW_TP), since the kernel-side loader loads and attaches every program it holds.
 */
#define PTK_TP_HOOKS(NAME, TP, CALL, ARGS...) \
	PTK_TP_BTF_HOOK(NAME, TP, CALL, ARGS) \
	PTK_RAW_TP_HOOK(NAME, TP, CALL, ARGS)

#define PTK_TP_HOOK_(PFX, NAME, FLAVOUR, IS_BTF, TP, CALL, ARGS...) \
	SEC(FLAVOUR "/" #TP)                                        \
	int BPF_PROG(PFX##NAME, ARGS)                               \
	{                                                           \
		const bool btf __attribute__((unused)) = IS_BTF;    \
		return CALL;                                        \
	}

#ifndef PTK_ONLY_RAW_TP
#define PTK_TP_BTF_HOOK(NAME, TP, CALL, ARGS...) \
	PTK_TP_HOOK_(tp_btf_, NAME, "tp_btf", true, TP, CALL, ARGS)
#else
#define PTK_TP_BTF_HOOK(NAME, TP, CALL, ARGS...)
#endif
#ifndef PTK_ONLY_TP_BTF
#define PTK_RAW_TP_HOOK(NAME, TP, CALL, ARGS...) \
	PTK_TP_HOOK_(raw_, NAME, "raw_tp", false, TP, CALL, ARGS)
#else
#define PTK_RAW_TP_HOOK(NAME, TP, CALL, ARGS...)
#endif

static __always_inline __u64 log2_u32(__u32 v)
{
	__u32 shift, r;

	r = (v > 0xFFFF) << 4;
	v >>= r;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

/* floor(log2(v)), 0 for v <= 1: the slot of a log2 histogram (model/hist.h) */
static __always_inline __u64 log2_slot(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_u32(hi) + 32 : log2_u32(v);
}

#endif
