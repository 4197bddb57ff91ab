// SPDX-License-Identifier: GPL-2.0
/*
 * agg: the generic aggregator (agg_abi.h). One body, compiled into one program per hook type:
 * tracepoints (agg_a and agg_b, which use cfg[0] and cfg[1]: the light skeleton holds these
 * two only, PTK_AGG_TP_ONLY), pt_regs probes (agg_k: uprobes, uretprobes, USDT, kprobes) and
 * fentry/fexit (agg_fe, agg_fx). User space loads a copy of a program for each probe that
 * has a configuration of its own, each copy with its own frozen read-only data, so the
 * verifier sees every offset, size and choice as a constant and keeps only the code used.
 */
#include "common.bpf.h"
#include "agg_abi.h"

const volatile struct agg_cfg cfg[AGG_NPROGS] = {};

/* the rows: sizes, not BTF types, so that the loader can cut a key to the bytes its values
 * take (a map's BTF key type must have the map's key size) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AGG_MAX_ENTRIES);
	__uint(key_size, sizeof(struct agg_key));
	__uint(value_size, sizeof(struct agg_count));
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AGG_MAX_ENTRIES);
	__uint(key_size, sizeof(struct agg_key));
	__uint(value_size, sizeof(struct agg_hist));
} hists SEC(".maps");

/* pairs in flight: what the entry probe kept */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AGG_START_ENTRIES);
	__type(key, struct agg_skey);
	__type(value, struct agg_stash);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
} stacks SEC(".maps");

/* live objects (AGG_TRACK_*): allocated as they come, not all at load */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, AGG_OBJ_ENTRIES);
	__type(key, __u64);
	__type(value, struct agg_obj);
} objects SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

/* per CPU: [0] the entry's stash being assembled or the return's copy, [1] an event */
union agg_scratch {
	struct agg_stash st;
	struct agg_event ev;
};
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, union agg_scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, AGG_DROP_NR);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* the hook types: what ctx is */
enum { K_TP, K_REGS, K_FENTRY, K_FEXIT };

/* x86_64 struct pt_regs (uapi asm/ptrace.h): sp and orig_ax */
#define REGS_SP 152
#define REGS_ORIG_AX 120

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

static __always_inline void drop(__u32 why)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &why);

	if (n)
		(*n)++;
}

static __always_inline long rd(void *dst, __u32 n, const void *src, bool user)
{
	return user ? bpf_probe_read_user(dst, n, src) : bpf_probe_read_kernel(dst, n, src);
}

/* The value a field starts from. 0 or -1. */
static __always_inline int base_of(void *ctx, const int kind, const volatile struct agg_field *f,
				   const struct agg_stash *st, __u64 *v)
{
	__u32 b = f->base;

	if (b == AGG_BASE_CTX) {
		*v = (__u64)ctx;
		return 0;
	}
	if (b == AGG_BASE_IMM) {
		*v = f->imm;
		return 0;
	}
	if (b == AGG_BASE_STASH) {
		if (!st)
			return -1;
		*v = st->v[f->idx & (AGG_NSTASH - 1)];
		return 0;
	}
	if (kind == K_REGS && b == AGG_BASE_REG)
		return bpf_probe_read_kernel(v, 8, ctx + (f->idx & 0xf8)) ? -1 : 0;
	if ((kind == K_FENTRY || kind == K_FEXIT) && b == AGG_BASE_ARG)
		return bpf_get_func_arg(ctx, f->idx, v) ? -1 : 0;
	if (kind == K_FEXIT && b == AGG_BASE_RET)
		return bpf_get_func_ret(ctx, v) ? -1 : 0;
	return -1;
}

/* Is the read-th memory read of f one of user memory? The first read of a tracepoint's field
 * is of its record, in the kernel. */
static __always_inline bool user_read(const volatile struct agg_field *f, int read)
{
	return f->user && !(read == 0 && f->base == AGG_BASE_CTX);
}

/* The base with the field's pointers followed. 0 or -1. */
static __always_inline int follow(void *ctx, const int kind, const volatile struct agg_field *f,
				  const struct agg_stash *st, __u64 *out)
{
	__u64 v;

	if (base_of(ctx, kind, f, st, &v))
		return -1;
#pragma clang loop unroll(disable)
	for (int i = 0; i < AGG_MAX_DEREF; i++) {
		if (i >= f->nderef)
			break;
		if (rd(&v, 8, (void *)(v + f->doff[i]), user_read(f, i)))
			return -1;
	}
	*out = v;
	return 0;
}

/* A number: read at v + off (deref) or v itself, of size bytes, sign-extended when signed,
 * then its transforms. Each size is a case of its own, for a constant read size. */
static __always_inline int read_num(void *ctx, const int kind, const volatile struct agg_field *f,
				    const struct agg_stash *st, __s64 *out)
{
	__u64 v;

	if (follow(ctx, kind, f, st, &v))
		return -1;
	if (f->deref) {
		void *p = (void *)(v + f->off);
		bool u = user_read(f, f->nderef);

#define READ_AT(N, U, S)                                   \
	case N: {                                          \
		U x;                                       \
		if (rd(&x, N, p, u))                       \
			return -1;                         \
		v = f->is_signed ? (__u64)(__s64)(S)x : x; \
		break;                                     \
	}
		switch (f->size) {
			READ_AT(1, __u8, __s8)
			READ_AT(2, __u16, __s16)
			READ_AT(4, __u32, __s32)
		case 8:
			if (rd(&v, 8, p, u))
				return -1;
			break;
		default:
			return -1;
		}
#undef READ_AT
	} else if (f->size == 4) {
		v = f->is_signed ? (__u64)(__s64)(__s32)v : (__u32)v;
	} else if (f->size == 2) {
		v = f->is_signed ? (__u64)(__s64)(__s16)v : (__u16)v;
	} else if (f->size == 1) {
		v = f->is_signed ? (__u64)(__s64)(__s8)v : (__u8)v;
	}
	if (f->pow2)
		v = v < 64 ? 1ull << v : 0;
	if (f->scale)
		v *= f->scale;
	*out = v;
	return 0;
}

static __always_inline bool is_str(__u32 src)
{
	return src == AGG_SRC_ARRAY || src == AGG_SRC_DATALOC || src == AGG_SRC_COMM ||
	       src == AGG_SRC_PTRSTR;
}

/* A string value into dst, which holds max bytes (zeroed by the caller: a shorter string
 * leaves them NUL). 0 or -1. */
static __always_inline int read_str(void *ctx, const int kind, const volatile struct agg_field *f,
				    const struct agg_stash *st, char *dst, const __u32 max)
{
	__u32 len = f->len;
	__u64 v;

	if (len > max)
		len = max;
	if (f->src == AGG_SRC_COMM)
		return bpf_get_current_comm(dst, 16) ? -1 : 0;
	if (f->src == AGG_SRC_DATALOC) {
		__u32 loc;
		if (bpf_probe_read_kernel(&loc, 4, ctx + (f->off & 0xffff)))
			return -1;
		/* __data_loc: length << 16 | offset from the start of the record */
		return bpf_probe_read_kernel_str(dst, len, ctx + (loc & 0xffff)) < 0 ? -1 : 0;
	}
	if (follow(ctx, kind, f, st, &v))
		return -1;
	if (f->src == AGG_SRC_ARRAY)
		return rd(dst, len, (void *)(v + f->off), user_read(f, f->nderef)) ? -1 : 0;
	if (f->src == AGG_SRC_PTRSTR) {
		long n;
		if (f->deref && rd(&v, 8, (void *)(v + f->off), user_read(f, f->nderef)))
			return -1;
		n = f->user ? bpf_probe_read_user_str(dst, len, (void *)v) :
			      bpf_probe_read_kernel_str(dst, len, (void *)v);
		return n < 0 ? -1 : 0;
	}
	return -1;
}

/* A numeric value of any kind: a number read, or a property of the probe or the task. */
static __always_inline int read_value(void *ctx, const int kind, const volatile struct agg_field *f,
				      const struct agg_stash *st, __s64 *v)
{
	switch (f->src) {
	case AGG_SRC_NUM:
		return read_num(ctx, kind, f, st, v);
	case AGG_SRC_PID:
		*v = bpf_get_current_pid_tgid() >> 32;
		return 0;
	case AGG_SRC_TID:
		*v = (__u32)bpf_get_current_pid_tgid();
		return 0;
	case AGG_SRC_CGROUP:
		*v = bpf_get_current_cgroup_id();
		return 0;
	case AGG_SRC_UID:
		*v = (__u32)bpf_get_current_uid_gid();
		return 0;
	case AGG_SRC_CPU:
		*v = bpf_get_smp_processor_id();
		return 0;
	case AGG_SRC_PROBE:
		*v = bpf_get_attach_cookie(ctx);
		return 0;
	case AGG_SRC_SYSCALL: {
		/* the user registers of the task: orig_ax is the syscall number (-1: none) */
		struct pt_regs *regs = (void *)bpf_task_pt_regs(bpf_get_current_task_btf());
		__s64 nr = -1;
		if (regs && bpf_probe_read_kernel(&nr, 8, (void *)regs + REGS_ORIG_AX))
			return -1;
		*v = nr;
		return 0;
	}
	case AGG_SRC_LAT: {
		__u64 now = bpf_ktime_get_ns();
		if (!st || now < st->ts)
			return -1;
		*v = (now - st->ts) / (__u64)(f->imm > 0 ? f->imm : 1);
		return 0;
	}
	}
	return -1;
}

/* A stack into the stacks map: its id (negative: why it was not captured). */
static __always_inline __s64 stack_id(void *ctx, bool user)
{
	__s64 id = bpf_get_stackid(ctx, &stacks, user ? BPF_F_USER_STACK : 0);

	if (id < 0)
		drop(AGG_DROP_STACK);
	return id;
}

/* Write one value at off of dst (a key or an event's data of size bytes): strings of len
 * bytes, stacks as their id (and the pid for a user stack), numbers as 8 bytes. 0 or -1. */
static __always_inline int put_value(void *ctx, const int kind, const volatile struct agg_field *f,
				     const struct agg_stash *st, __u8 *dst, const __u32 size)
{
	__u32 ofs = f->kofs;
	__s64 v = 0;

	if (is_str(f->src)) {
		__u32 len = f->len;
		if (ofs >= size || len > size - ofs)
			return -1;
		return read_str(ctx, kind, f, st, (char *)dst + ofs, len);
	}
	if (ofs > size - 8)
		return -1;
	if (f->src == AGG_SRC_KSTACK || f->src == AGG_SRC_USTACK) {
		v = stack_id(ctx, f->src == AGG_SRC_USTACK);
		if (f->src == AGG_SRC_USTACK) {
			__u64 pid = bpf_get_current_pid_tgid() >> 32;
			if (ofs > size - 16)
				return -1;
			__builtin_memcpy(dst + ofs + 8, &pid, 8);
		}
	} else if (read_value(ctx, kind, f, st, &v)) {
		return -1;
	}
	__builtin_memcpy(dst + ofs, &v, 8);
	return 0;
}

/* The filters of this side of the probe (entry: those marked at_entry; else the others). */
static __always_inline bool filters_pass(void *ctx, const int kind,
					 const volatile struct agg_cfg *c,
					 const struct agg_stash *st, bool entry)
{
#pragma clang loop unroll(disable)
	for (int i = 0; i < AGG_MAX_FILTERS; i++) {
		const volatile struct agg_filter *fl = &c->filter[i];
		bool ok;

		if (i >= c->nfilters)
			break;
		if ((bool)fl->f.at_entry != entry)
			continue;
		if (fl->is_str) {
			char s[AGG_STR_MAX] = {};
			bool eq = true;
			if (read_str(ctx, kind, &fl->f, st, s, AGG_STR_MAX))
				return false;
			for (int j = 0; j < AGG_STR_MAX; j++) {
				if (s[j] != fl->s[j]) {
					eq = false;
					break;
				}
				if (!s[j])
					break;
			}
			ok = fl->op == AGG_OP_NE ? !eq : eq;
		} else {
			__s64 v = 0, w = fl->v;
			bool sg = fl->f.is_signed;
			if (read_value(ctx, kind, &fl->f, st, &v))
				return false;
			switch (fl->op) {
			case AGG_OP_EQ:
				ok = v == w;
				break;
			case AGG_OP_NE:
				ok = v != w;
				break;
			case AGG_OP_LT:
				ok = sg ? v < w : (__u64)v < (__u64)w;
				break;
			case AGG_OP_LE:
				ok = sg ? v <= w : (__u64)v <= (__u64)w;
				break;
			case AGG_OP_GT:
				ok = sg ? v > w : (__u64)v > (__u64)w;
				break;
			case AGG_OP_GE:
				ok = sg ? v >= w : (__u64)v >= (__u64)w;
				break;
			default:
				ok = false;
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

/* The value of an aggregation: val, times val2 when set. */
/* The value of an aggregation: val, times val2 when set. 0, 1 when out of the range asked
 * for (the event is skipped), or -1. */
static __always_inline int agg_value(void *ctx, const int kind, const volatile struct agg_cfg *c,
				     const struct agg_stash *st, __s64 *v)
{
	__s64 w;

	if (read_value(ctx, kind, &c->val, st, v))
		return -1;
	if (c->val2.src != AGG_SRC_NONE) {
		if (read_value(ctx, kind, &c->val2, st, &w))
			return -1;
		*v *= w;
	}
	if (c->has_range && ((__u64)*v < c->vmin || (__u64)*v > c->vmax))
		return 1;
	return 0;
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
		/* log2: a signed value's negative ones are counted apart */
		if (v < 0 && (c->val.src == AGG_SRC_LAT || c->val.is_signed)) {
			__sync_fetch_and_add(&h->below, 1);
			return;
		}
		slot = log2_slot((__u64)v);
	}
	if (slot >= AGG_SLOTS)
		slot = AGG_SLOTS - 1;
	__sync_fetch_and_add(&h->slot[slot], 1);
}

/* min/max kept with compare-and-swap: another CPU's update is never overwritten by a value
 * that loses to it (a few tries; a lost race that many times in a row is vanishingly rare) */
static __always_inline void keep_min(__s64 *m, __s64 v, bool sg)
{
#pragma clang loop unroll(disable)
	for (int i = 0; i < 4; i++) {
		__s64 old = *m;
		if (sg ? v >= old : (__u64)v >= (__u64)old)
			return;
		if (__sync_val_compare_and_swap(m, old, v) == old)
			return;
	}
}

static __always_inline void keep_max(__s64 *m, __s64 v, bool sg)
{
#pragma clang loop unroll(disable)
	for (int i = 0; i < 4; i++) {
		__s64 old = *m;
		if (sg ? v <= old : (__u64)v <= (__u64)old)
			return;
		if (__sync_val_compare_and_swap(m, old, v) == old)
			return;
	}
}

static __always_inline void count_add(const volatile struct agg_cfg *c, struct agg_key *k, __s64 v,
				      bool has_val)
{
	bool sg = c->val.src == AGG_SRC_LAT || c->val.is_signed;
	struct agg_count *n = bpf_map_lookup_elem(&counts, k);

	if (!n) {
		struct agg_count init = {
			.min = sg ? 0x7fffffffffffffffll : -1ll,
			.max = sg ? (-0x7fffffffffffffffll - 1) : 0,
		};
		if (bpf_map_update_elem(&counts, k, &init, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&counts, k)) {
			drop(AGG_DROP_KEYS);
			return;
		}
		n = bpf_map_lookup_elem(&counts, k);
		if (!n)
			return;
	}
	__sync_fetch_and_add(&n->count, 1);
	if (!has_val)
		return;
	__sync_fetch_and_add(&n->sum, v);
	keep_min(&n->min, v, sg);
	keep_max(&n->max, v, sg);
}

/* The key of a pair: the match value (the thread by default) and, for pt_regs probes that
 * ask for it, the stack frame: sp at an entry points at the return address, which the
 * return has popped. 0 or -1. */
static __always_inline int pair_key(void *ctx, const int kind, const volatile struct agg_cfg *c,
				    bool entry, struct agg_skey *sk)
{
	__s64 m;

	if (c->match.src == AGG_SRC_NONE) {
		sk->match = (__u32)bpf_get_current_pid_tgid();
	} else {
		if (read_value(ctx, kind, &c->match, NULL, &m))
			return -1;
		sk->match = m;
	}
	sk->frame = 0;
	if (kind == K_REGS && c->match_frame) {
		__u64 sp;
		if (bpf_probe_read_kernel(&sp, 8, ctx + REGS_SP))
			return -1;
		sk->frame = entry ? sp + 8 : sp;
	}
	return 0;
}

/* An entry probe: keep the time, the entry's key parts, values and event values. */
static __always_inline int on_entry(void *ctx, const int kind, const volatile struct agg_cfg *c)
{
	struct agg_skey sk;
	struct agg_stash *st;
	__u32 zero = 0;

	if (pair_key(ctx, kind, c, true, &sk)) {
		drop(AGG_DROP_VALUE);
		return 0;
	}
	st = bpf_map_lookup_elem(&scratch, &zero);
	if (!st)
		return 0;
	__builtin_memset(st, 0, sizeof(*st));
#pragma clang loop unroll(disable)
	for (int i = 0; i < AGG_MAX_KEYS; i++) {
		if (i >= c->nkeys)
			break;
		/* a value that cannot be read (a string in a page not yet in memory) is
		 * counted under an empty one, as bpftrace does */
		if (c->key[i].at_entry &&
		    put_value(ctx, kind, &c->key[i], NULL, st->key.b, AGG_KEY_SIZE))
			drop(AGG_DROP_READ);
	}
#pragma clang loop unroll(disable)
	for (int i = 0; i < AGG_NSTASH; i++) {
		if (i >= c->nstash)
			break;
		if (read_value(ctx, kind, &c->stash[i], NULL, &st->v[i])) {
			drop(AGG_DROP_VALUE);
			return 0;
		}
	}
#pragma clang loop unroll(disable)
	for (int i = 0; i < AGG_MAX_EVF; i++) {
		if (i >= c->nev)
			break;
		/* a value that cannot be read (a bad pointer) stays 0 / "" */
		if (c->ev[i].at_entry)
			put_value(ctx, kind, &c->ev[i], NULL, st->ev, AGG_EV_DATA);
	}
	if (c->mode == AGG_TRACK_DEL) {
		__s64 obj;
		if (!read_value(ctx, kind, &c->track, NULL, &obj))
			bpf_map_delete_elem(&objects, &obj);
	}
	st->ts = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&start, &sk, st, BPF_ANY))
		drop(AGG_DROP_START);
	return 0;
}

static __always_inline int on_event(void *ctx, const int kind, const int idx)
{
	const volatile struct agg_cfg *c = &cfg[idx];
	struct agg_stash *st = NULL;
	struct agg_key k = {};
	__u32 zero = 0, one = 1;
	__s64 v = 0;
	int rc;

	if (c->task_filter && !agg_current_selected())
		return 0;
	if (c->sample > 1 && c->role != AGG_ROLE_RETURN && bpf_ktime_get_ns() % c->sample)
		return 0;
	if (c->role == AGG_ROLE_ENTRY) {
		if (!filters_pass(ctx, kind, c, NULL, true))
			return 0;
		return on_entry(ctx, kind, c);
	}
	if (c->role == AGG_ROLE_RETURN) {
		struct agg_skey sk;
		struct agg_stash *kept;
		if (pair_key(ctx, kind, c, false, &sk))
			return 0;
		kept = bpf_map_lookup_elem(&start, &sk);
		if (!kept)
			return 0;
		st = bpf_map_lookup_elem(&scratch, &zero);
		if (!st)
			return 0;
		__builtin_memcpy(st, kept, sizeof(*st));
		bpf_map_delete_elem(&start, &sk);
		__builtin_memcpy(&k, &st->key, sizeof(k));
	}
	if (!filters_pass(ctx, kind, c, st, false))
		return 0;
	if (c->mode == AGG_EVENT) {
		struct agg_event *e = bpf_map_lookup_elem(&scratch, &one);
		__u64 id = bpf_get_current_pid_tgid();
		__u32 n = c->ev_size;
		if (!e)
			return 0;
		if (st)
			__builtin_memcpy(e->data, st->ev, AGG_EV_DATA);
		else
			__builtin_memset(e->data, 0, AGG_EV_DATA);
		e->ts = bpf_ktime_get_ns();
		e->pid = id >> 32;
		e->tid = (__u32)id;
		e->cpu = bpf_get_smp_processor_id();
		e->probe = bpf_get_attach_cookie(ctx);
		bpf_get_current_comm(e->comm, sizeof(e->comm));
#pragma clang loop unroll(disable)
		for (int i = 0; i < AGG_MAX_EVF; i++) {
			if (i >= c->nev)
				break;
			if (!c->ev[i].at_entry)
				put_value(ctx, kind, &c->ev[i], st, e->data, AGG_EV_DATA);
		}
		if (n > AGG_EV_DATA)
			n = AGG_EV_DATA;
		if (bpf_ringbuf_output(&events, e, AGG_EVENT_HDR + n, 0))
			drop(AGG_DROP_EVENT);
		return 0;
	}
#pragma clang loop unroll(disable)
	for (int i = 0; i < AGG_MAX_KEYS; i++) {
		if (i >= c->nkeys)
			break;
		if (!c->key[i].at_entry && put_value(ctx, kind, &c->key[i], st, k.b, AGG_KEY_SIZE))
			drop(AGG_DROP_READ);
	}
	if (c->mode == AGG_TRACK_DEL || c->mode == AGG_TRACK_ADD) {
		struct agg_obj o = {};
		__s64 obj;
		if (read_value(ctx, kind, &c->track, st, &obj) || !obj)
			return 0; /* a failed allocation, or free(NULL) */
		if (c->mode == AGG_TRACK_DEL) {
			bpf_map_delete_elem(&objects, &obj);
			return 0;
		}
		rc = agg_value(ctx, kind, c, st, &o.size);
		if (rc) {
			if (rc < 0)
				drop(AGG_DROP_VALUE);
			return 0;
		}
		o.ts = bpf_ktime_get_ns();
		__builtin_memcpy(&o.key, &k, sizeof(k));
		if (bpf_map_update_elem(&objects, &obj, &o, BPF_ANY))
			drop(AGG_DROP_OBJECTS);
		return 0;
	}
	if (c->val.src != AGG_SRC_NONE && (rc = agg_value(ctx, kind, c, st, &v))) {
		if (rc < 0)
			drop(AGG_DROP_VALUE);
		return 0;
	}
	if (c->mode == AGG_COUNT)
		count_add(c, &k, v, c->val.src != AGG_SRC_NONE);
	else if (c->mode == AGG_HIST || c->mode == AGG_LHIST)
		hist_add(c, &k, v);
	return 0;
}

SEC("tracepoint")
int agg_a(void *ctx)
{
	return on_event(ctx, K_TP, 0);
}

SEC("tracepoint")
int agg_b(void *ctx)
{
	return on_event(ctx, K_TP, 1);
}

#ifndef PTK_AGG_TP_ONLY
/* uprobes, uretprobes, USDT probes, kprobes, kretprobes */
SEC("kprobe")
int agg_k(struct pt_regs *ctx)
{
	return on_event(ctx, K_REGS, 0);
}

SEC("fentry")
int agg_fe(void *ctx)
{
	return on_event(ctx, K_FENTRY, 0);
}

SEC("fexit")
int agg_fx(void *ctx)
{
	return on_event(ctx, K_FEXIT, 0);
}
#endif

char LICENSE[] SEC("license") = "GPL";
