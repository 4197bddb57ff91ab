/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs: folded stacks (model/folded.h) to an interactive SVG (hover details,
 * click to zoom, search with the matched percentage, reset), as flamegraph.pl draws them;
 * icicle (--reverse), palettes, and differential graphs (red grew, blue shrank).
 */
#ifndef PTK_OUTPUT_FLAMEGRAPH_H
#define PTK_OUTPUT_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "model/folded.h"

struct ptk_flame_opts {
	const char *title; /* default "Flame Graph" */
	const char *subtitle;
	int width; /* pixels, default 1200 */
	bool reverse; /* icicle: root at the top */
	const char *palette; /* "hot" (default), "mem", "io", "java", "js" */
	const char *countname; /* "samples", "us" ... */
};

/*
 * Write the SVG of f. With base != NULL draw a differential flame graph of f against base:
 * frame widths from f, colour by the change (red grew, blue shrank), tooltips with both
 * counts. All names are XML-escaped; truncated labels never cut an entity.
 * Returns 0 or -errno (write error, -EINVAL empty input).
 */
int ptk_flamegraph_svg(struct ptk_folded *f, struct ptk_folded *base,
		       const struct ptk_flame_opts *o, FILE *out);

#endif
