/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block requests in flight of biolatency and biosnoop, from their insert or issue to their
 * final completion, keyed by the struct request's address. Included after the tool's struct
 * rq_state (whose first members are __u64 insert_ns, issue_ns) and its two handlers:
 * rq_new(s), the state of a request first seen (false: it is not traced), and rq_issued(sp, rq),
 * what the tool keeps at the issue. Defines the map start, the -d DISK filter and
 * on_start(rq, insert) and on_merge(rq) for blk_hooks.bpf.h.
 */
#ifndef PTK_BLK_RQ_BPF_H
#define PTK_BLK_RQ_BPF_H

const volatile bool filter_dev = false;
const volatile __u32 targ_dev = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct rq_state);
} start SEC(".maps");

/* Is the request's disk the one of -d (or is there none)? */
static __always_inline bool dev_selected(struct request *rq)
{
	return !filter_dev || blk_rq_dev(rq) == targ_dev;
}

static __always_inline void stamp(struct rq_state *sp, struct request *rq, bool insert, __u64 now)
{
	if (insert) {
		/* a requeued request inserted again keeps its first queue time */
		if (!sp->insert_ns)
			sp->insert_ns = now;
	} else {
		sp->issue_ns = now;
		rq_issued(sp, rq);
	}
}

/* block_rq_insert (insert) or block_rq_issue: the request's state made or stamped. */
static __always_inline int on_start(struct request *rq, bool insert)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct rq_state *sp, s = {};

	sp = bpf_map_lookup_elem(&start, &key);
	if (sp) {
		stamp(sp, rq, insert, now);
		return 0;
	}
	if (!dev_selected(rq) || !rq_new(&s))
		return 0;
	stamp(&s, rq, insert, now);
	bpf_map_update_elem(&start, &key, &s, BPF_ANY);
	return 0;
}

/* block_rq_merge: a request merged into another is freed without completing. */
static __always_inline int on_merge(struct request *rq)
{
	__u64 key = (__u64)rq;

	bpf_map_delete_elem(&start, &key);
	return 0;
}

#endif
