/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block request hooks of biolatency and biosnoop, included at the end of each .bpf.c
 * after its handlers: on_io_start(rq) (block_io_start, 6.5+: the submitter's context),
 * on_start(rq, insert) and on_merge(rq) (blk_rq.bpf.h), on_complete(rq, nr_bytes)
 * (block_rq_complete, once per piece). No include guard: it defines programs, once per
 * object.
 */
/* Each hook in both flavours (PTK_TP_HOOKS); the full object (the libbpf fallback) also has
 * the pre-5.11 raw_tp twins. block_io_start came with 6.5, after tp_btf. */
PTK_TP_BTF_HOOK(block_io_start, block_io_start, on_io_start(rq), struct request *rq)
PTK_TP_HOOKS(block_rq_insert, block_rq_insert, on_start(rq, true), struct request *rq)
PTK_TP_HOOKS(block_rq_issue, block_rq_issue, on_start(rq, false), struct request *rq)
PTK_TP_HOOKS(block_rq_merge, block_rq_merge, on_merge(rq), struct request *rq)
PTK_TP_HOOKS(block_rq_complete, block_rq_complete, on_complete(rq, nr_bytes), struct request *rq,
	     int error, unsigned int nr_bytes)

#if !defined(PTK_ONLY_TP_BTF) && !defined(PTK_ONLY_RAW_TP)
/* kernels < 5.11: block_rq_insert/issue/merge(struct request_queue *q, struct request *rq) */
SEC("raw_tp/block_rq_insert")
int BPF_PROG(raw_block_rq_insert_old, struct request_queue *q, struct request *rq)
{
	return on_start(rq, true);
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(raw_block_rq_issue_old, struct request_queue *q, struct request *rq)
{
	return on_start(rq, false);
}

SEC("raw_tp/block_rq_merge")
int BPF_PROG(raw_block_rq_merge_old, struct request_queue *q, struct request *rq)
{
	return on_merge(rq);
}

#endif
