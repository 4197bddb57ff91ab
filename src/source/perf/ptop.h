/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The top-functions view of a profile: from folded stacks "comm;root;...;leaf N", each
 * function's self samples (it was the leaf) and total samples (it was anywhere on the stack,
 * counted once per stack even when recursive), as perf report's Self and Children columns.
 */
#ifndef PTK_SOURCE_PERF_PTOP_H
#define PTK_SOURCE_PERF_PTOP_H

#include "model/folded.h"

struct ptk_top_fn {
	char *name;
	u64 self, total;
};

/*
 * Aggregate f (the first frame of each stack is the comm and is skipped; a stack holding only
 * the comm counts for no function). *out is malloc'd, sorted by self then total (descending)
 * then name. Returns the number of functions.
 */
int ptk_top_functions(const struct ptk_folded *f, struct ptk_top_fn **out);
void ptk_top_free(struct ptk_top_fn *t, int n);

#endif
