/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one layout of struct request::cmd_flags that the block programs hand to user space
 * (blk.bpf.h blk_layout_flags()): the op and flag values of Linux 6.x
 * (include/linux/blk_types.h), whatever the running kernel's are. Shared by the BPF programs
 * and user space (blk.c).
 */
#ifndef PTK_BLK_LAYOUT_H
#define PTK_BLK_LAYOUT_H

/* X(name without REQ_OP_, value in the low 8 bits); ops gone from 6.x get codes >= 0x40 */
/* clang-format off */
#define PTK_BLK_OPS(X) \
	X(READ, 0) \
	X(WRITE, 1) \
	X(FLUSH, 2) \
	X(DISCARD, 3) \
	X(SECURE_ERASE, 5) \
	X(ZONE_APPEND, 7) \
	X(WRITE_ZEROES, 9) \
	X(ZONE_OPEN, 11) \
	X(ZONE_CLOSE, 13) \
	X(ZONE_FINISH, 15) \
	X(ZONE_RESET, 17) \
	X(ZONE_RESET_ALL, 19) \
	X(DRV_IN, 34) \
	X(DRV_OUT, 35) \
	X(WRITE_SAME, 0x40) \
	X(SCSI_IN, 0x41) \
	X(SCSI_OUT, 0x42)
/* clang-format on */
#define PTK_BLK_OP_UNKNOWN 0xff
enum ptk_blk_op {
#define X(n, v) PTK_BLK_OP_##n = v,
	PTK_BLK_OPS(X)
#undef X
};

/* X(name without __REQ_, bit number), in libbpf-tools biolatency -F's print order */
/* clang-format off */
#define PTK_BLK_FLAGS(X) \
	X(NOWAIT, 21) \
	X(BACKGROUND, 20) \
	X(RAHEAD, 19) \
	X(PREFLUSH, 18) \
	X(FUA, 17) \
	X(INTEGRITY, 16) \
	X(IDLE, 15) \
	X(NOMERGE, 14) \
	X(PRIO, 13) \
	X(META, 12) \
	X(SYNC, 11)
/* clang-format on */
enum ptk_blk_flag {
#define X(n, v) PTK_BLK_F_##n = v,
	PTK_BLK_FLAGS(X)
#undef X
};

#endif
