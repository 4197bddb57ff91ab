/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block request hooks of biolatency and biosnoop, included at the end of each .bpf.c
 * after its handlers: on_io_start(rq) (block_io_start, 6.5+: the submitter's context),
 * on_start(rq, insert) (block_rq_insert / block_rq_issue) and on_complete(rq, nr_bytes)
 * (block_rq_complete, once per piece); on_merge(rq) (block_rq_merge) is defined here: a request
 * merged into another one is freed without completing, so its entry in start (keyed by the
 * request in both tools) goes. No include guard: it defines programs, once per object.
 */
static __always_inline int on_merge(struct request *rq)
{
	__u64 key = (__u64)rq;

	bpf_map_delete_elem(&start, &key);
	return 0;
}

/*
 * Each hook exists twice (tp_btf, raw_tp) and the light skeletons are built once per
 * flavour (PTK_ONLY_TP_BTF / PTK_ONLY_RAW_TP): the kernel-side loader cannot leave a program
 * out. The full object (the libbpf fallback) has both and the pre-5.11 raw_tp twins.
 */
#ifndef PTK_ONLY_RAW_TP
SEC("tp_btf/block_io_start")
int BPF_PROG(tp_btf_block_io_start, struct request *rq)
{
	return on_io_start(rq);
}

SEC("tp_btf/block_rq_insert")
int BPF_PROG(tp_btf_block_rq_insert, struct request *rq)
{
	return on_start(rq, true);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(tp_btf_block_rq_issue, struct request *rq)
{
	return on_start(rq, false);
}

SEC("tp_btf/block_rq_merge")
int BPF_PROG(tp_btf_block_rq_merge, struct request *rq)
{
	return on_merge(rq);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(tp_btf_block_rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
	return on_complete(rq, nr_bytes);
}

#endif

#ifndef PTK_ONLY_TP_BTF
SEC("raw_tp/block_rq_insert")
int BPF_PROG(raw_block_rq_insert, struct request *rq)
{
	return on_start(rq, true);
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(raw_block_rq_issue, struct request *rq)
{
	return on_start(rq, false);
}

SEC("raw_tp/block_rq_merge")
int BPF_PROG(raw_block_rq_merge, struct request *rq)
{
	return on_merge(rq);
}

SEC("raw_tp/block_rq_complete")
int BPF_PROG(raw_block_rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
	return on_complete(rq, nr_bytes);
}

#endif

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
