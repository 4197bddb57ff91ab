/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Folded stacks: "frame;frame;frame count" lines (the FlameGraph format), frames root first.
 * Aggregates identical stacks; shared by profile, offcputime, the flamegraph writer and the
 * perf-script collapser.
 */
#ifndef PTK_MODEL_FOLDED_H
#define PTK_MODEL_FOLDED_H

#include <stdio.h>

#include "lib/util.h"

struct ptk_folded_stack {
	char *stack; /* "comm;root;...;leaf" (frames joined by ';') */
	u64 count; /* samples, or a weight such as microseconds off-CPU */
};

struct ptk_folded {
	struct ptk_folded_stack *s; /* unordered until ptk_folded_sort() */
	int n, cap;
	unsigned *hash; /* open-addressing index into s[], size hcap (power of 2) */
	unsigned hcap;
	u64 total;
};

struct ptk_folded *ptk_folded_new(void);
void ptk_folded_free(struct ptk_folded *f);
/* Drop every stack (the table stays allocated): an empty table again. */
void ptk_folded_reset(struct ptk_folded *f);
/* Add count to the stack made of frames[0..n) (root first). Frames containing ';' or
 * newlines have them replaced so the line format stays parseable. 0, or -ERANGE (nothing
 * added) when the total would pass 2^64 - 1. */
int ptk_folded_add(struct ptk_folded *f, const char *const *frames, int n, u64 count);
/* The stack of frames[0..n) (root first) as one folded "a;b;c" string, as ptk_folded_add()
 * joins it. Free it. */
char *ptk_folded_join(const char *const *frames, int n);
/* Add count to an already joined "a;b;c" stack. 0 or -ERANGE, as ptk_folded_add. */
int ptk_folded_add_joined(struct ptk_folded *f, const char *stack, u64 count);
/* Parse one folded line "a;b;c 12" (the count is the last space-separated token, digits
 * only; stacks may contain spaces). Returns 0, -EINVAL for a line without a count (or a
 * signed one), -ERANGE when the total would pass 2^64 - 1 (the line is not added). */
int ptk_folded_add_line(struct ptk_folded *f, const char *line);
/* Sort stacks alphabetically (the flamegraph.pl order). */
void ptk_folded_sort(struct ptk_folded *f);
/* Write sorted "stack count" lines. Returns 0 or -errno (write error). */
int ptk_folded_write(struct ptk_folded *f, FILE *out);
/* The same, the smallest counts first (equal counts alphabetically): the heaviest stacks end
 * the output, where a terminal leaves them in view. */
int ptk_folded_write_by_count(struct ptk_folded *f, FILE *out);

#endif
