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
/* The same for the block tools' -d DISK: 0, or PTK_EXIT_USAGE after printing why. */
struct ptk_ctx;
int ptk_blk_disk_opt(const struct ptk_ctx *ctx, const char *disk, u32 *kdev);

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

/*
 * For the commands of the block tools, whose skeletons name their programs alike
 * (biolatency, biosnoop); the users include <bpf/libbpf.h> and source/bpf/runner.h.
 *
 * PTK_BLK_PICK_HOOKS(s): in a libbpf skeleton, keep the hooks this kernel has: the pre-5.11
 * (q, rq) raw_tp twins, else per tracepoint tp_btf when it exists, else raw_tp.
 * Evaluates to the hook of block_rq_complete, "tp_btf" or "raw_tp".
 */
#define PTK_BLK_PICK_HOOKS(s)                                                                  \
	({                                                                                     \
		bool old_ = ptk_blk_rq_tp_two_args(), btf_;                                    \
		bpf_program__set_autoload((s)->progs.tp_btf_block_rq_insert, !old_);           \
		bpf_program__set_autoload((s)->progs.tp_btf_block_rq_issue, !old_);            \
		bpf_program__set_autoload((s)->progs.tp_btf_block_rq_merge, !old_);            \
		bpf_program__set_autoload((s)->progs.raw_block_rq_insert, !old_);              \
		bpf_program__set_autoload((s)->progs.raw_block_rq_issue, !old_);               \
		bpf_program__set_autoload((s)->progs.raw_block_rq_merge, !old_);               \
		bpf_program__set_autoload((s)->progs.raw_block_rq_insert_old, old_);           \
		bpf_program__set_autoload((s)->progs.raw_block_rq_issue_old, old_);            \
		bpf_program__set_autoload((s)->progs.raw_block_rq_merge_old, old_);            \
		if (!old_) {                                                                   \
			ptk_bpf_pick_tp((s)->progs.tp_btf_block_rq_insert,                     \
					(s)->progs.raw_block_rq_insert, "block_rq_insert");    \
			ptk_bpf_pick_tp((s)->progs.tp_btf_block_rq_issue,                      \
					(s)->progs.raw_block_rq_issue, "block_rq_issue");      \
			ptk_bpf_pick_tp((s)->progs.tp_btf_block_rq_merge,                      \
					(s)->progs.raw_block_rq_merge, "block_rq_merge");      \
		}                                                                              \
		btf_ = ptk_bpf_pick_tp((s)->progs.tp_btf_block_rq_complete,                    \
				       (s)->progs.raw_block_rq_complete, "block_rq_complete"); \
		btf_ && !old_ ? "tp_btf" : "raw_tp";                                           \
	})

/*
 * PTK_BLK_LSKEL_FDS(lbtf, lraw, fds, n): the program fds of whichever light skeleton is
 * loaded (tp_btf or raw_tp flavour) appended to fds[n++] (room for 5), for run-time stats;
 * block_io_start only while attached.
 */
#define PTK_BLK_LSKEL_FDS(lbtf, lraw, fds, n)                                               \
	do {                                                                                \
		if (lbtf) {                                                                 \
			(fds)[(n)++] = (lbtf)->progs.tp_btf_block_rq_insert.prog_fd;        \
			(fds)[(n)++] = (lbtf)->progs.tp_btf_block_rq_issue.prog_fd;         \
			(fds)[(n)++] = (lbtf)->progs.tp_btf_block_rq_merge.prog_fd;         \
			(fds)[(n)++] = (lbtf)->progs.tp_btf_block_rq_complete.prog_fd;      \
			if ((lbtf)->links.tp_btf_block_io_start_fd > 0)                     \
				(fds)[(n)++] = (lbtf)->progs.tp_btf_block_io_start.prog_fd; \
		} else if (lraw) {                                                          \
			(fds)[(n)++] = (lraw)->progs.raw_block_rq_insert.prog_fd;           \
			(fds)[(n)++] = (lraw)->progs.raw_block_rq_issue.prog_fd;            \
			(fds)[(n)++] = (lraw)->progs.raw_block_rq_merge.prog_fd;            \
			(fds)[(n)++] = (lraw)->progs.raw_block_rq_complete.prog_fd;         \
		}                                                                           \
	} while (0)

#endif
