// SPDX-License-Identifier: GPL-2.0
/*
 * agg: the generic tracepoint aggregator. One program, two copies (agg_a for the event or
 * --from, agg_b for --to) that differ only in which entry of the read-only cfg[] they use,
 * so the verifier sees every offset and size as a constant. The raw tracepoint record is
 * the ctx pointer; fields are read with bpf_probe_read_kernel at the offsets user space
 * found in events/<cat>/<event>/format, copied into a fixed-size key, and counted, summed
 * or put in a histogram in a hash map.
 */
#include "common.bpf.h"
#include "agg_abi.h"

const volatile struct agg_cfg cfg[AGG_NPROGS] = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AGG_MAX_ENTRIES);
	__type(key, struct agg_key);
	__type(value, struct agg_count);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AGG_MAX_ENTRIES);
	__type(key, struct agg_key);
	__type(value, struct agg_hist);
} hists SEC(".maps");

/* latency: start time by match value */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AGG_MAX_ENTRIES);
	__type(key, __u64);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, AGG_DROP_NR);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/*
 * The common filters (-p -t -c --cgroup, common.bpf.h rodata) checked with helpers only:
 * the same tests as current_selected(), without its CO-RE reads of task_struct, so loading
 * needs no vmlinux BTF (parsing it is most of a start-up that should beat bpftrace's).
 */
static __always_inline bool agg_current_selected(void)
{
	__u64 id = bpf_get_current_pid_tgid();

	if (targ_tgid && (id >> 32) != targ_tgid)
		return false;
	if (targ_tid && (__u32)id != targ_tid)
		return false;
	if (filter_comm) {
		char c[16];
		bpf_get_current_comm(c, sizeof(c));
		for (int i = 0; i < 16; i++) {
			if (c[i] != targ_comm[i])
				return false;
			if (!c[i])
				break;
		}
	}
	if (targ_cgroup_id && bpf_get_current_cgroup_id() != targ_cgroup_id)
		return false;
	return true;
}

static struct agg_hist zero_hist;
static struct agg_count zero_count;

static __always_inline void drop(__u32 why)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &why);

	if (n)
		(*n)++;
}

/* A numeric field of 1, 2, 4 or 8 bytes, sign-extended when signed. 0 or -1. Each size is a
 * case of its own, so that each read has a constant size. */
static __always_inline int read_num(void *ctx, const volatile struct agg_field *f, __s64 *out)
{
	__u32 off = f->off & 0xffff;
	void *p = ctx + off;

#define READ_NUM(N, U, S)                                     \
	case N: {                                             \
		U x;                                          \
		if (bpf_probe_read_kernel(&x, N, p))          \
			return -1;                            \
		*out = f->is_signed ? (__s64)(S)x : (__s64)x; \
		return 0;                                     \
	}
	switch (f->size) {
		READ_NUM(1, __u8, __s8)
		READ_NUM(2, __u16, __s16)
		READ_NUM(4, __u32, __s32)
	case 8: /* no extension (and no read of is_signed, a volatile) */
		return bpf_probe_read_kernel(out, 8, p) ? -1 : 0;
	}
#undef READ_NUM
	return -1;
}

/* A string field (char[N], __data_loc char[]) or the task comm into dst (AGG_STR_MAX
 * bytes, zeroed by the caller). 0 or -1. */
static __always_inline int read_str(void *ctx, const volatile struct agg_field *f, char *dst)
{
	__u32 len = f->len, off = f->off & 0xffff;

	if (len > AGG_STR_MAX)
		len = AGG_STR_MAX;
	switch (f->src) {
	case AGG_SRC_ARRAY:
		return bpf_probe_read_kernel(dst, len & (AGG_STR_MAX * 2 - 1), ctx + off) ? -1 : 0;
	case AGG_SRC_DATALOC: {
		__u32 loc;
		if (bpf_probe_read_kernel(&loc, 4, ctx + off))
			return -1;
		/* __data_loc: length << 16 | offset from the start of the record */
		return bpf_probe_read_kernel_str(dst, len & (AGG_STR_MAX * 2 - 1),
						 ctx + (loc & 0xffff)) < 0 ?
			       -1 :
			       0;
	}
	case AGG_SRC_PTRSTR: {
		__u64 ptr;
		long n;
		if (bpf_probe_read_kernel(&ptr, 8, ctx + off))
			return -1;
		n = f->user ?
			    bpf_probe_read_user_str(dst, len & (AGG_STR_MAX * 2 - 1), (void *)ptr) :
			    bpf_probe_read_kernel_str(dst, len & (AGG_STR_MAX * 2 - 1),
						      (void *)ptr);
		return n < 0 ? -1 : 0;
	}
	case AGG_SRC_COMM:
		return bpf_get_current_comm(dst, 16) ? -1 : 0;
	}
	return -1;
}

static __always_inline bool is_str(__u32 src)
{
	return src == AGG_SRC_ARRAY || src == AGG_SRC_DATALOC || src == AGG_SRC_COMM ||
	       src == AGG_SRC_PTRSTR;
}

/* Copy one key part into the key buffer at its offset. */
static __always_inline int read_key(void *ctx, const volatile struct agg_field *f,
				    struct agg_key *k)
{
	__u32 kofs = f->kofs;
	__s64 v = 0;

	if (is_str(f->src)) {
		char s[AGG_STR_MAX] = {};
		__u32 len = f->len;
		if (read_str(ctx, f, s))
			return -1;
		if (kofs > AGG_KEY_SIZE - AGG_STR_MAX) {
			/* a shorter string near the end of the key: copy len bytes */
			if (len > AGG_STR_MAX || kofs + len > AGG_KEY_SIZE)
				return -1;
			for (int i = 0; i < AGG_STR_MAX; i++)
				if (i < len && kofs + i < AGG_KEY_SIZE)
					k->b[(kofs + i) & (AGG_KEY_SIZE - 1)] = s[i];
			return 0;
		}
		__builtin_memcpy(&k->b[kofs & (AGG_KEY_SIZE - 1)], s, AGG_STR_MAX);
		return 0;
	}
	switch (f->src) {
	case AGG_SRC_NUM:
		if (read_num(ctx, f, &v))
			return -1;
		break;
	case AGG_SRC_PID:
		v = bpf_get_current_pid_tgid() >> 32;
		break;
	case AGG_SRC_TID:
		v = (__u32)bpf_get_current_pid_tgid();
		break;
	case AGG_SRC_CGROUP:
		v = bpf_get_current_cgroup_id();
		break;
	case AGG_SRC_KSTACK:
		v = bpf_get_stackid(ctx, &stacks, 0);
		if (v < 0)
			drop(AGG_DROP_STACK);
		break;
	default:
		return -1;
	}
	if (kofs > AGG_KEY_SIZE - 8)
		return -1;
	__builtin_memcpy(&k->b[kofs & (AGG_KEY_SIZE - 1)], &v, 8);
	return 0;
}

static __always_inline bool filter_pass(void *ctx, const volatile struct agg_cfg *c)
{
	if (!c->has_filter)
		return true;
	if (is_str(c->filter.src)) {
		char s[AGG_STR_MAX] = {};
		bool eq = true;
		if (read_str(ctx, &c->filter, s))
			return false;
		for (int i = 0; i < AGG_STR_MAX; i++) {
			if (s[i] != c->filter_s[i]) {
				eq = false;
				break;
			}
			if (!s[i])
				break;
		}
		return c->filter_op == AGG_OP_NE ? !eq : eq;
	}
	__s64 v = 0;
	if (c->filter.src == AGG_SRC_NUM) {
		if (read_num(ctx, &c->filter, &v))
			return false;
	} else if (c->filter.src == AGG_SRC_PID) {
		v = bpf_get_current_pid_tgid() >> 32;
	} else if (c->filter.src == AGG_SRC_TID) {
		v = (__u32)bpf_get_current_pid_tgid();
	} else if (c->filter.src == AGG_SRC_CGROUP) {
		v = bpf_get_current_cgroup_id();
	}
	__s64 w = c->filter_v;
	bool sg = c->filter.is_signed;
	switch (c->filter_op) {
	case AGG_OP_EQ:
		return v == w;
	case AGG_OP_NE:
		return v != w;
	case AGG_OP_LT:
		return sg ? v < w : (__u64)v < (__u64)w;
	case AGG_OP_LE:
		return sg ? v <= w : (__u64)v <= (__u64)w;
	case AGG_OP_GT:
		return sg ? v > w : (__u64)v > (__u64)w;
	case AGG_OP_GE:
		return sg ? v >= w : (__u64)v >= (__u64)w;
	}
	return false;
}

static __always_inline void hist_add(const volatile struct agg_cfg *c, struct agg_key *k, __s64 v)
{
	struct agg_hist *h = bpf_map_lookup_elem(&hists, k);
	__u64 slot;

	if (!h) {
		if (bpf_map_update_elem(&hists, k, &zero_hist, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&hists, k)) {
			drop(AGG_DROP_KEYS);
			return;
		}
		h = bpf_map_lookup_elem(&hists, k);
		if (!h)
			return;
	}
	__sync_fetch_and_add(&h->sum, v);
	if (c->mode == AGG_LHIST) {
		if (v < c->lin_min) {
			__sync_fetch_and_add(&h->below, 1);
			return;
		}
		slot = (__u64)(v - c->lin_min) / (__u64)(c->lin_step ? c->lin_step : 1);
		if (slot >= c->lin_nslots) {
			__sync_fetch_and_add(&h->above, 1);
			return;
		}
	} else {
		/* log2: a signed field's negative values are counted apart */
		if (v < 0 && (c->mode == AGG_LAT_END || c->val.is_signed)) {
			__sync_fetch_and_add(&h->below, 1);
			return;
		}
		slot = log2_slot((__u64)v);
	}
	if (slot >= AGG_SLOTS)
		slot = AGG_SLOTS - 1;
	__sync_fetch_and_add(&h->slot[slot], 1);
}

static __always_inline int on_event(void *ctx, const int idx)
{
	const volatile struct agg_cfg *c = &cfg[idx];
	struct agg_key k = {};
	__s64 v = 0, m;

	if (c->mode == AGG_LAT_START) {
		__u64 now = bpf_ktime_get_ns(), key;
		if (!filter_pass(ctx, c))
			return 0;
		if (read_num(ctx, &c->val, &m)) {
			drop(AGG_DROP_READ);
			return 0;
		}
		key = m;
		if (bpf_map_update_elem(&start, &key, &now, BPF_ANY))
			drop(AGG_DROP_START);
		return 0;
	}
	if (c->mode == AGG_LAT_END) {
		__u64 key, *tsp;
		if (read_num(ctx, &c->val, &m))
			return 0;
		key = m;
		tsp = bpf_map_lookup_elem(&start, &key);
		if (!tsp)
			return 0;
		__u64 now = bpf_ktime_get_ns();
		bool ok = now >= *tsp;
		v = (__s64)((now - *tsp) / (__u64)(c->lat_div ? c->lat_div : 1));
		bpf_map_delete_elem(&start, &key);
		if (!ok)
			return 0;
	}
	if (!agg_current_selected() || !filter_pass(ctx, c))
		return 0;
#pragma unroll
	for (int i = 0; i < AGG_MAX_KEYS; i++) {
		if (i >= c->nkeys)
			break;
		if (read_key(ctx, &c->key[i], &k)) {
			drop(AGG_DROP_READ);
			return 0;
		}
	}
	if (c->mode == AGG_COUNT || c->mode == AGG_SUM) {
		struct agg_count *n;
		if (c->mode == AGG_SUM && read_num(ctx, &c->val, &v)) {
			drop(AGG_DROP_READ);
			return 0;
		}
		n = bpf_map_lookup_elem(&counts, &k);
		if (!n) {
			if (bpf_map_update_elem(&counts, &k, &zero_count, BPF_NOEXIST) &&
			    !bpf_map_lookup_elem(&counts, &k)) {
				drop(AGG_DROP_KEYS);
				return 0;
			}
			n = bpf_map_lookup_elem(&counts, &k);
			if (!n)
				return 0;
		}
		__sync_fetch_and_add(&n->count, 1);
		if (c->mode == AGG_SUM)
			__sync_fetch_and_add(&n->sum, v);
		return 0;
	}
	if (c->mode != AGG_LAT_END && read_num(ctx, &c->val, &v)) {
		drop(AGG_DROP_READ);
		return 0;
	}
	hist_add(c, &k, v);
	return 0;
}

SEC("tracepoint")
int agg_a(void *ctx)
{
	return on_event(ctx, 0);
}

SEC("tracepoint")
int agg_b(void *ctx)
{
	return on_event(ctx, 1);
}

char LICENSE[] SEC("license") = "GPL";
