/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct request::cmd_flags in one layout for user space, whatever the kernel (BPF side of
 * blk.h): the op (enum req_op, enum req_opf before 6.0) and the REQ_* flag bits (enum
 * req_flag_bits) move between kernel versions (include/linux/blk_types.h), so the programs
 * map the running kernel's values, found by CO-RE enum relocations applied at load, to those
 * of 6.x (PTK_BLK_OPS / PTK_BLK_FLAGS). User space then decodes them with no kernel BTF.
 */
#ifndef PTK_BLK_BPF_H
#define PTK_BLK_BPF_H

#include "blk_layout.h"

/* kernels < 5.17 have rq->rq_disk; later ones only rq->q->disk */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

/* The kernel dev_t (major << 20 | minor, include/linux/kdev_t.h) of the request's disk, 0 when
 * it has none. */
static __always_inline __u32 blk_rq_dev(struct request *rq)
{
	struct request___old *o = (void *)rq;
	struct gendisk *disk;

	if (bpf_core_field_exists(o->rq_disk))
		disk = BPF_CORE_READ(o, rq_disk);
	else
		disk = BPF_CORE_READ(rq, q, disk);
	if (!disk)
		return 0;
	return ((__u32)BPF_CORE_READ(disk, major) << 20) | BPF_CORE_READ(disk, first_minor);
}

/* local flavours: the kernel's enum of the same name (less the ___ suffix) gives the values */
enum req_op___n {
#define X(n, v) REQ_OP_##n##___n,
	PTK_BLK_OPS(X)
#undef X
};
enum req_opf___o {
#define X(n, v) REQ_OP_##n##___o,
	PTK_BLK_OPS(X)
#undef X
};
enum req_flag_bits___p {
#define X(n, v) __REQ_##n##___p,
	PTK_BLK_FLAGS(X)
#undef X
};

/* rq->cmd_flags in the 6.x layout: the op in the low 8 bits (PTK_BLK_OP_UNKNOWN when this
 * kernel's op is not one of PTK_BLK_OPS), the known flags at their 6.x bit numbers. */
static __always_inline __u32 blk_layout_flags(__u32 f)
{
	__u32 op = f & 0xff, out = PTK_BLK_OP_UNKNOWN;

#define X(n, v)                                                                              \
	if (out == PTK_BLK_OP_UNKNOWN) {                                                     \
		if (bpf_core_enum_value_exists(enum req_op___n, REQ_OP_##n##___n)) {         \
			if (op == bpf_core_enum_value(enum req_op___n, REQ_OP_##n##___n))    \
				out = v;                                                     \
		} else if (bpf_core_enum_value_exists(enum req_opf___o, REQ_OP_##n##___o)) { \
			if (op == bpf_core_enum_value(enum req_opf___o, REQ_OP_##n##___o))   \
				out = v;                                                     \
		}                                                                            \
	}
	PTK_BLK_OPS(X)
#undef X
#define X(n, v)                                                                             \
	if (bpf_core_enum_value_exists(enum req_flag_bits___p, __REQ_##n##___p) &&          \
	    (f >> (bpf_core_enum_value(enum req_flag_bits___p, __REQ_##n##___p) & 31) & 1)) \
		out |= 1u << v;
	PTK_BLK_FLAGS(X)
#undef X
	return out;
}

#endif
