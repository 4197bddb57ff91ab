// SPDX-License-Identifier: GPL-2.0
/*
 * biosnoop: one event per block I/O request, at its final block_rq_complete (a request
 * completed in pieces fires it once per piece: blk_update_request() passes the bytes done
 * now, and the request is finished when they cover rq->__data_len). The task is the one
 * seen first: block_io_start (6.5+, runs in the submitter's context), else block_rq_insert,
 * else block_rq_issue. Ring buffer reserve failures are counted, never silent.
 */
#include "common.bpf.h"
#include "blk.bpf.h"
#include "events.bpf.h"
#include "biosnoop.h"

struct rq_state {
	__u64 insert_ns;
	__u64 issue_ns;
	__u64 sector;
	__u32 bytes;
	__u32 pid;
	__u32 skip; /* the submitting task did not pass -p/-c */
	char comm[16];
};

/* A new entry for a request first seen now, owned by the current task. */
static __always_inline bool rq_new(struct rq_state *s)
{
	s->skip = !current_selected();
	s->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(s->comm, sizeof(s->comm));
	return true;
}

static __always_inline void rq_issued(struct rq_state *sp, struct request *rq)
{
	sp->sector = BPF_CORE_READ(rq, __sector);
	sp->bytes = BPF_CORE_READ(rq, __data_len);
}

#include "blk_rq.bpf.h"

static __always_inline int on_io_start(struct request *rq)
{
	struct rq_state s = {};
	__u64 key = (__u64)rq;

	if (!dev_selected(rq))
		return 0;
	rq_new(&s);
	bpf_map_update_elem(&start, &key, &s, BPF_ANY);
	return 0;
}

static __always_inline int on_complete(struct request *rq, unsigned int nr_bytes)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct biosnoop_event *e;
	struct rq_state *sp;

	sp = bpf_map_lookup_elem(&start, &key);
	if (!sp)
		return 0;
	if (nr_bytes < BPF_CORE_READ(rq, __data_len))
		return 0; /* partial completion: more bytes to come */
	if (sp->skip || !sp->issue_ns || now < sp->issue_ns)
		goto out_delete_start;
	e = reserve_event(sizeof(*e));
	if (!e)
		goto out_delete_start;
	e->ts_ns = now;
	e->lat_ns = now - sp->issue_ns;
	e->que_ns = sp->insert_ns && sp->issue_ns >= sp->insert_ns ?
			    (__s64)(sp->issue_ns - sp->insert_ns) :
			    -1;
	e->sector = sp->sector;
	e->bytes = sp->bytes;
	e->cmd_flags = blk_layout_flags(BPF_CORE_READ(rq, cmd_flags));
	e->dev = blk_rq_dev(rq);
	e->pid = sp->pid;
	__builtin_memcpy(e->comm, sp->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
out_delete_start:
	bpf_map_delete_elem(&start, &key);
	return 0;
}

/* the programs: tp_btf, raw_tp and pre-5.11 raw_tp hooks calling the on_*() above */
#include "blk_hooks.bpf.h"

char LICENSE[] SEC("license") = "GPL";
