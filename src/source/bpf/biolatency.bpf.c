// SPDX-License-Identifier: GPL-2.0
/*
 * biolatency: block I/O latency from the request tracepoints (block/blk-mq.c, blk-core.c):
 * block_io_start (the submitting task, only with -p/-c), block_rq_insert (Q), block_rq_issue
 * (D), block_rq_complete (C, possibly several times per request: blk_update_request() fires it
 * with the bytes completed now; the request is done when they cover rq->__data_len, the bytes
 * still outstanding). Each request is counted once, at its final completion.
 */
#include "common.bpf.h"
#include "blk.bpf.h"
#include "biolatency.h"

const volatile bool targ_per_disk = false;
const volatile bool targ_per_flag = false;
const volatile bool targ_queued = false;
const volatile bool targ_stages = false;
const volatile bool targ_ms = false;
const volatile bool filter_task = false;
/* block_io_start (6.5+) is attached: the submitter was judged there */
const volatile bool io_start_hooked = false;

struct rq_state {
	__u64 insert_ns;
	__u64 issue_ns;
	__u32 skip; /* the submitting task did not pass -p/-c */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOLAT_MAX_HISTS);
	__type(key, struct biolat_key);
	__type(value, struct biolat_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BIOLAT_CNT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static struct biolat_hist zero_hist;

static __always_inline void count(__u32 idx)
{
	__u64 *c = bpf_map_lookup_elem(&counts, &idx);

	if (c)
		*c += 1;
}

/* A request first seen at insert or issue: traced unless -p/-c judged its submitter at
 * block_io_start (then it was submitted before tracing, or without I/O accounting); without
 * block_io_start, the task inserting or issuing it is judged. */
static __always_inline bool rq_new(struct rq_state *s)
{
	if (filter_task) {
		if (io_start_hooked)
			return false;
		s->skip = !current_selected();
	}
	return true;
}

/* nothing more is kept at the issue than its time */
static __always_inline void rq_issued(struct rq_state *sp, struct request *rq)
{
}

#include "blk_rq.bpf.h"

static __always_inline int on_io_start(struct request *rq)
{
	struct rq_state s = {};
	__u64 key = (__u64)rq;

	if (!io_start_hooked || !dev_selected(rq))
		return 0;
	s.skip = !current_selected();
	bpf_map_update_elem(&start, &key, &s, BPF_ANY);
	return 0;
}

static __always_inline void add(__u32 dev, __u32 flags, __u32 stage, __s64 delta_ns)
{
	struct biolat_key k = { .stage = stage };
	struct biolat_hist *h;
	__u64 slot;

	if (delta_ns < 0) {
		count(BIOLAT_CNT_NEGATIVE);
		return;
	}
	if (targ_per_disk)
		k.dev = dev;
	if (targ_per_flag)
		k.flags = flags;
	h = bpf_map_lookup_elem(&hists, &k);
	if (!h) {
		bpf_map_update_elem(&hists, &k, &zero_hist, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &k);
		if (!h)
			return;
	}
	delta_ns /= targ_ms ? 1000000 : 1000;
	slot = log2_slot(delta_ns);
	if (slot >= BIOLAT_SLOTS)
		slot = BIOLAT_SLOTS - 1;
	__sync_fetch_and_add(&h->slots[slot], 1);
}

static __always_inline int on_complete(struct request *rq, unsigned int nr_bytes)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct rq_state *sp;
	__u32 dev, flags;

	sp = bpf_map_lookup_elem(&start, &key);
	if (!sp) {
		if (!filter_task && dev_selected(rq) && nr_bytes >= BPF_CORE_READ(rq, __data_len))
			count(BIOLAT_CNT_UNTRACKED);
		return 0;
	}
	/* blk_update_request(): nr_bytes completed now, rq->__data_len still outstanding
	 * before this update; less means a partial completion, more will follow */
	if (nr_bytes < BPF_CORE_READ(rq, __data_len)) {
		if (!sp->skip)
			count(BIOLAT_CNT_PARTIAL);
		return 0;
	}
	if (sp->skip || !sp->issue_ns)
		goto out_delete_start;
	dev = blk_rq_dev(rq);
	flags = targ_per_flag ? blk_layout_flags(BPF_CORE_READ(rq, cmd_flags)) : 0;
	count(BIOLAT_CNT_DONE);
	if (!sp->insert_ns)
		count(BIOLAT_CNT_NO_INSERT);
	if (targ_stages) {
		if (sp->insert_ns) {
			add(dev, flags, BIOLAT_Q2D, (__s64)(sp->issue_ns - sp->insert_ns));
			add(dev, flags, BIOLAT_Q2C, (__s64)(now - sp->insert_ns));
		}
		add(dev, flags, BIOLAT_D2C, (__s64)(now - sp->issue_ns));
	} else {
		__u64 from = targ_queued && sp->insert_ns ? sp->insert_ns : sp->issue_ns;
		add(dev, flags, BIOLAT_LAT, (__s64)(now - from));
	}
out_delete_start:
	bpf_map_delete_elem(&start, &key);
	return 0;
}

/* the programs: tp_btf, raw_tp and pre-5.11 raw_tp hooks calling the on_*() above */
#include "blk_hooks.bpf.h"

char LICENSE[] SEC("license") = "GPL";
