/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of biolatency: log2 histograms of block I/O latency keyed by disk, request
 * flags and stage, plus event counters. */
#ifndef PTK_BIOLATENCY_H
#define PTK_BIOLATENCY_H

#define BIOLAT_SLOTS 64
#define BIOLAT_MAX_HISTS 4096

/* Stages, as blktrace names its events: Q = block_rq_insert (queued to the scheduler or the
 * software queue), D = block_rq_issue (dispatched to the driver), C = block_rq_complete. */
enum biolat_stage {
	BIOLAT_LAT = 0, /* the default histogram: D2C, or Q2C with -Q */
	BIOLAT_Q2D = 1,
	BIOLAT_D2C = 2,
	BIOLAT_Q2C = 3,
};

struct biolat_key {
	__u32 dev; /* kernel dev_t (major << 20 | minor) with -D, else 0 */
	__u32 flags; /* rq->cmd_flags with -F (in the blk_layout.h layout), else 0 */
	__u32 stage; /* enum biolat_stage */
	__u32 pad;
};

struct biolat_hist {
	__u64 slots[BIOLAT_SLOTS]; /* log2 of the latency in us (ms with -m) */
};

/* Per-CPU counters (index into the "counts" array map). */
enum biolat_count {
	BIOLAT_CNT_DONE, /* requests counted (final completion with an issue time) */
	BIOLAT_CNT_NO_INSERT, /* of those, bypassed the scheduler (no block_rq_insert seen) */
	BIOLAT_CNT_PARTIAL, /* partial completions skipped (bytes still remaining) */
	BIOLAT_CNT_NEGATIVE, /* deltas < 0 dropped */
	BIOLAT_CNT_UNTRACKED, /* completions of requests started before tracing */
	BIOLAT_CNT_MAX,
};

#endif
