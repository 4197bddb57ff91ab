/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel/user ABI of the aggregation engine (source/bpf/agg.h, ptk agg and the tools built on
 * it). One precompiled program per hook type (tracepoint, pt_regs: uprobe/kprobe/USDT,
 * fentry, fexit), configured before load through read-only data (struct agg_cfg): which
 * values make up the key, what is aggregated (a count with the sum, min and max of a value,
 * a log2 or linear histogram, events sent whole, or a table of live objects), the filters,
 * and, for a pair of probes (a function's entry and return, or any two probes), what the
 * first one keeps for the second. Every offset and size is read from the frozen read-only
 * data, so the verifier knows them as constants and drops the code a configuration does not
 * use: each probe's program is as short as one written for it.
 *
 * A value (struct agg_field) starts at a base (the tracepoint record's address, an argument,
 * a register, the return value, a constant or a value the entry probe kept), follows up to
 * AGG_MAX_DEREF pointers (v = *(u64 *)(v + doff[i])), and is then either read (size bytes at
 * v + off) or taken as it is; strings are the bytes or the NUL-terminated string there.
 */
#ifndef PTK_AGG_ABI_H
#define PTK_AGG_ABI_H

#define AGG_MAX_KEYS 4 /* parts of one key */
#define AGG_KEY_SIZE 64 /* bytes of the composed key */
#define AGG_STR_MAX 32 /* bytes of a string in a key or a filter */
#define AGG_SLOTS 64 /* histogram slots (model/hist.h PTK_HIST_SLOTS) */
#define AGG_MAX_ENTRIES 10240 /* distinct keys kept */
#define AGG_NPROGS 2 /* tracepoint program copies of the light skeleton: agg_a, agg_b */
#define AGG_MAX_FILTERS 4 /* conditions of a filter, all to hold */
#define AGG_MAX_DEREF 4 /* pointers followed by one value */
#define AGG_NSTASH 2 /* values the entry probe keeps for the return (besides time, key) */
#define AGG_MAX_EVF 16 /* values of one event */
#define AGG_EV_STR 64 /* bytes of a string in an event */
#define AGG_EV_DATA 512 /* bytes of an event's values */
#define AGG_START_ENTRIES 4096 /* entries in flight between a pair of probes */
#define AGG_OBJ_ENTRIES (1 << 18) /* live objects (AGG_TRACK_ADD), allocated as needed */

/* What a value is. */
enum agg_src {
	AGG_SRC_NONE = 0,
	AGG_SRC_NUM, /* a number of size bytes (1/2/4/8), sign-extended, kept as 8 */
	AGG_SRC_ARRAY, /* len bytes at the address + off (a char[N] field or member) */
	AGG_SRC_DATALOC, /* a tracepoint's __data_loc char[] string (NUL padded) */
	AGG_SRC_PTRSTR, /* the string the value points to (user memory when .user) */
	AGG_SRC_COMM, /* the current task's comm, 16 bytes */
	AGG_SRC_PID, /* current tgid */
	AGG_SRC_TID, /* current thread id */
	AGG_SRC_CGROUP, /* current cgroup v2 id */
	AGG_SRC_UID, /* current real UID */
	AGG_SRC_CPU, /* the CPU the probe ran on */
	AGG_SRC_PROBE, /* the attach cookie: which of the probe's targets fired */
	AGG_SRC_SYSCALL, /* the number of the syscall the current task is in (-1: none) */
	AGG_SRC_LAT, /* the time since the entry probe in ns / imm (the return's only) */
	AGG_SRC_KSTACK, /* kernel stack id in the stacks map (s64; < 0: not captured) */
	/* user stack: its id in the stacks map (s64) and the pid (8 bytes), 16 bytes. Walked by
	 * frame pointers (bpf_get_stackid BPF_F_USER_STACK); a DWARF mode would be another
	 * value of the field's idx (enum agg_ustack) with its own capture below it */
	AGG_SRC_USTACK,
};

/* How a user stack is taken (agg_field.idx of AGG_SRC_USTACK). */
enum agg_ustack { AGG_USTACK_FP = 0 };

/* Where a value starts. */
enum agg_base {
	AGG_BASE_CTX = 0, /* the address of the tracepoint record (read at off) */
	AGG_BASE_REG, /* pt_regs at byte offset idx (uprobe, kprobe, USDT) */
	AGG_BASE_ARG, /* fentry/fexit: argument idx (bpf_get_func_arg) */
	AGG_BASE_RET, /* fexit: the return value (bpf_get_func_ret) */
	AGG_BASE_IMM, /* the constant imm */
	AGG_BASE_STASH, /* the return probe: value idx kept by the entry probe */
};

enum agg_mode {
	AGG_COUNT = 0, /* events per key, and the sum, min and max of val when it is set */
	AGG_HIST, /* log2 histogram of val per key */
	AGG_LHIST, /* linear histogram of val per key */
	AGG_EVENT, /* each event's values, sent through the ring buffer */
	AGG_TRACK_ADD, /* objects[track] = { val, time, key } (an allocation) */
	AGG_TRACK_DEL, /* delete objects[track] (a free) */
	AGG_NONE, /* nothing but what the entry keeps (an entry probe) */
};

/* A probe alone, or the first or second of a pair (matched on the match value). */
enum agg_role { AGG_ROLE_ONE = 0, AGG_ROLE_ENTRY, AGG_ROLE_RETURN };

enum agg_op { AGG_OP_EQ = 0, AGG_OP_NE, AGG_OP_LT, AGG_OP_LE, AGG_OP_GT, AGG_OP_GE };

struct agg_field {
	__u32 src; /* enum agg_src */
	__u32 base; /* enum agg_base */
	__u32 idx; /* AGG_BASE_REG: byte offset in pt_regs; ARG: argument; STASH: slot */
	__u32 nderef; /* pointers followed first: v = *(u64 *)(v + doff[i]) */
	__s32 doff[AGG_MAX_DEREF];
	__u32 deref; /* then read size bytes at v + off (else v is the number or pointer) */
	__s32 off; /* see deref; AGG_SRC_ARRAY: the bytes at v + off */
	__u32 size; /* bytes of the number read (1, 2, 4, 8) */
	__u32 len; /* bytes written into the key or event */
	__u32 kofs; /* offset in the key (or in the event's values) */
	__u32 is_signed;
	__u32 user; /* memory reached through pointers is user memory */
	__u32 at_entry; /* read by the entry probe of a pair, kept for the return */
	__u32 pow2; /* the number is an exponent: 1 << v */
	__s64 imm; /* AGG_BASE_IMM */
	__s64 scale; /* the number times scale (0: as it is) */
};

struct agg_filter {
	struct agg_field f;
	__u32 op; /* enum agg_op */
	__u32 is_str; /* compare s (a string, == and != only) instead of v */
	__s64 v;
	char s[AGG_STR_MAX];
};

struct agg_cfg {
	__u32 mode; /* enum agg_mode */
	__u32 role; /* enum agg_role */
	__u32 task_filter; /* the common -p -t -c --cgroup filters apply in this probe */
	__u32 nkeys;
	struct agg_field key[AGG_MAX_KEYS];
	struct agg_field val; /* the value counted, summed, bucketed or tracked (size) */
	struct agg_field val2; /* when set: val times this one (calloc's nmemb * size) */
	__u32 nfilters;
	struct agg_filter filter[AGG_MAX_FILTERS];
	__s64 lin_min, lin_step; /* AGG_LHIST */
	__u32 lin_nslots; /* <= AGG_SLOTS */
	/* a pair: the entry keeps its time, its key parts, stash[] and its event values under
	 * (match, frame); the return looks them up under its own */
	struct agg_field match; /* NONE: the thread id */
	__u32 match_frame; /* also the stack frame (pt_regs sp: an entry's + 8 is its return's) */
	__u32 nstash;
	struct agg_field stash[AGG_NSTASH];
	__u32 nev; /* AGG_EVENT: the values, at their kofs in the event's data */
	struct agg_field ev[AGG_MAX_EVF];
	__u32 ev_size; /* bytes of the event's data used */
	struct agg_field track; /* AGG_TRACK_*: the object's key (an address) */
	__u32 sample; /* > 1: one event in sample (by the clock; a pair: at its entry) */
	__u32 has_range; /* only values (val, times val2) in [vmin, vmax] */
	__u64 vmin, vmax;
};

struct agg_key {
	__u8 b[AGG_KEY_SIZE];
};

/* AGG_COUNT: the count, and the sum, min and max of val (signed as val is) */
struct agg_count {
	__u64 count;
	__s64 sum;
	__s64 min;
	__s64 max;
};

/* AGG_HIST / AGG_LHIST */
struct agg_hist {
	__u64 slot[AGG_SLOTS];
	__u64 below; /* negative (log2) or < lin_min (linear) */
	__u64 above; /* >= lin_min + lin_nslots * lin_step (linear) */
	__s64 sum;
};

/* What an entry probe keeps for its return, under struct agg_skey. */
struct agg_skey {
	__u64 match;
	__u64 frame;
};
struct agg_stash {
	__u64 ts; /* bpf_ktime_get_ns() at the entry */
	struct agg_key key; /* the key parts read at the entry */
	__s64 v[AGG_NSTASH];
	__u8 ev[AGG_EV_DATA]; /* the event values read at the entry */
};

/* AGG_EVENT: one event in the ring buffer (data: ev_size bytes) */
struct agg_event {
	__u64 ts; /* bpf_ktime_get_ns() */
	__u32 pid, tid;
	__u32 cpu;
	__u32 probe; /* the attach cookie */
	char comm[16];
	__u8 data[AGG_EV_DATA];
};
#define AGG_EVENT_HDR 40 /* offsetof(struct agg_event, data) */

/* AGG_TRACK_ADD: a live object, under its key (u64) in the objects map */
struct agg_obj {
	__s64 size;
	__u64 ts; /* bpf_ktime_get_ns() when added */
	struct agg_key key;
};

/* per-CPU counters of what could not be recorded (the map lost) */
enum agg_drop {
	AGG_DROP_KEYS = 0, /* aggregation map full */
	AGG_DROP_START, /* the map of pairs in flight full */
	AGG_DROP_STACK, /* stack not captured (stack map full or collision) */
	AGG_DROP_READ, /* a value could not be read (a key's: counted under an empty one) */
	AGG_DROP_VALUE, /* the value aggregated could not be read: the event is lost */
	AGG_DROP_EVENT, /* the ring buffer full */
	AGG_DROP_OBJECTS, /* the live objects map full */
	AGG_DROP_NR
};

#endif
