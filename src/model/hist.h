/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms: log2 (slot i holds values v with floor(log2(v)) == i; slot 0 holds 0 and 1) and
 * linear (slot i holds [min + i*step, min + (i+1)*step)). Percentiles are derived from the
 * buckets and are therefore bucket bounds ("p99 <= 4095 usecs"), never invented precision.
 * Printed in the familiar libbpf-tools/bcc "usecs : count distribution" form, or as JSON.
 */
#ifndef PTK_MODEL_HIST_H
#define PTK_MODEL_HIST_H

#include <stdio.h>

#include "lib/util.h"

#define PTK_HIST_SLOTS 64

struct ptk_hist {
	u64 slot[PTK_HIST_SLOTS];
	bool linear;
	s64 lin_min; /* linear: slot i = [min + i*step, min + (i+1)*step), min may be negative */
	u64 lin_step;
	const char *unit; /* "usecs", "msecs", "nsecs", "sectors", ... */
};

/* Slot of v in a log2 histogram (0 and 1 go to slot 0). */
int ptk_log2_slot(u64 v);
/* Inclusive bounds of slot i (linear: two's complement, signed values; ptk_hist_print and
 * ptk_hist_json show them signed). */
void ptk_hist_bounds(const struct ptk_hist *h, int i, u64 *low, u64 *high);
u64 ptk_hist_total(const struct ptk_hist *h);
/* Upper bound of the bucket holding the p-th percentile (0 < p <= 100); 0 when empty.
 * p = 100 gives the bound of the highest non-empty bucket ("max <="). */
u64 ptk_hist_pct_le(const struct ptk_hist *h, double p);
/* Add b into a (same layout). */
void ptk_hist_add(struct ptk_hist *a, const struct ptk_hist *b);

/* Print in the libbpf-tools layout, then a line "count N  p50 <= X  p90 <= X  p99 <= X
 * max <= X unit". Prints nothing but the summary for an empty histogram. */
void ptk_hist_print(FILE *f, const struct ptk_hist *h);

struct json_object;
/* {"unit","total","p50_le","p90_le","p99_le","max_le","buckets":[{"low","high","count"}]}
 * with only non-empty buckets listed. */
struct json_object *ptk_hist_json(const struct ptk_hist *h);

#endif
