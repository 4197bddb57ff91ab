/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block-layer helpers shared by the block I/O tracing tools (biolatency, biosnoop): disk
 * name <-> kernel dev_t, and decoding of struct request::cmd_flags (REQ_OP_* in the low 8
 * bits, __REQ_* flag bits above) as the BPF programs hand it over: already mapped to the
 * values of Linux 6.x (blk_layout.h), since they move between kernel versions
 * (include/linux/blk_types.h), so no kernel BTF is read here.
 */
#ifndef PTK_SOURCE_BPF_BLK_H
#define PTK_SOURCE_BPF_BLK_H

#include <stddef.h>

#include "lib/util.h"

#define PTK_BLK_MINORBITS 20 /* kernel dev_t: major << 20 | minor (include/linux/kdev_t.h) */

/* Kernel dev_t of DISK (a name under /sys/block, e.g. "sda", "loop0"), from
 * /sys/block/DISK/dev ("MAJ:MIN"). 0 or -errno (-ENOENT: no such disk). */
int ptk_blk_disk_dev(const char *disk, u32 *kdev);

/* Name of the disk with kernel dev_t kdev: the basename of /sys/dev/block/MAJ:MIN, else
 * "MAJ:MIN". Returns buf. */
const char *ptk_blk_dev_name(u32 kdev, char *buf, size_t size);

/* blktrace-style rwbs of cmd_flags, as libbpf-tools biosnoop prints it: F (preflush), then
 * the op (R, W, D, DE, F, N), then F (FUA), A (readahead), S (sync), M (meta). buf must hold
 * 8 bytes. Returns buf. */
const char *ptk_blk_rwbs(u32 cmd_flags, char *buf);

/* libbpf-tools biolatency -F form: the set flags as "Sync-", "FUA-", ... then the op name
 * ("Read", "Write", "Flush", ...), e.g. "Sync-Write". Returns buf. */
const char *ptk_blk_flags_str(u32 cmd_flags, char *buf, size_t size);

/* The op of cmd_flags (the low 8 bits: a PTK_BLK_OP_* value), and is it a write? */
static inline u32 ptk_blk_op(u32 cmd_flags)
{
	return cmd_flags & 0xff;
}
bool ptk_blk_is_write(u32 cmd_flags);

/* Do block_rq_insert/issue/merge take (struct request_queue *, struct request *) (kernels
 * before 5.11) rather than (struct request *)? From the arity of btf_trace_block_rq_issue in
 * the kernel BTF, else from the kernel release. */
bool ptk_blk_rq_tp_two_args(void);

#endif
