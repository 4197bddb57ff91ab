/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive process viewer (ncursesw), like htop: CPU/memory/load/PSI meters over a
 * sortable, filterable process list. It only renders and handles keys: the data (a frame of
 * the summary and one row of values per task) comes from the command through struct
 * ptk_top_ops, so the TUI shows exactly the values `ptk top -b` and `--json` print.
 */
#ifndef PTK_OUTPUT_TUI_H
#define PTK_OUTPUT_TUI_H

#include "lib/cli.h"
#include "model/metric.h"
#include "model/toplist.h"
#include "source/procfs/procfs.h"

/* What the user asked to see; the command's arrange() honours it. */
struct ptk_top_view {
	int sort; /* enum ptk_top_col */
	bool asc; /* ascending (default: descending, except PID/USER/COMMAND) */
	bool tree; /* parent/child tree */
	bool threads; /* one row per thread */
	bool cmdline; /* COMMAND shows the command line */
	bool show[TC_N]; /* visible columns */
	char filter[128]; /* substring of COMMAND ("" = all) */
	char cgroup[192]; /* only tasks in this cgroup or below ("" = all) */
	bool oneshot; /* a single frame will be shown (batch -n 1) */
	int step; /* time travel (top --at): samples moved with '[' and ']' */
};

struct ptk_top_ops {
	void *arg;
	const struct ptk_metric *const *cols; /* TC_N registry entries */
	const int *width; /* TC_N text widths (negative: left-aligned) */
	/* Take a new sample (the view tells which files to read). 0 or an exit code. */
	int (*sample)(void *arg, const struct ptk_top_view *v);
	/* Filter, sort and build the tree into the frame's order[]. */
	void (*arrange)(void *arg, const struct ptk_top_view *v);
	struct ptk_top_frame *frame;
	/* Text of one cell, top style (scaled memory, TIME+), at most width chars. */
	void (*cell)(void *arg, const struct ptk_top_row *r, int col, int width, char *buf,
		     size_t size);
};

/*
 * Run the interactive viewer until 'q', Ctrl-C or SIGTERM (ctx->stop). Samples every
 * delay_s seconds. The terminal is restored on every exit path. Returns 0 or an exit code.
 */
int ptk_tui_top(struct ptk_ctx *ctx, const struct ptk_top_ops *ops, struct ptk_top_view *view,
		double delay_s);

/* A sortable table viewer (ptk cgtop): a title line, a header and rows of text the command
 * renders; the keys it does not handle itself (arrows, pages, q, space) go to key(). */
struct ptk_tui_table_ops {
	void *arg;
	int (*sample)(void *arg); /* take a new sample: 0 or an exit code */
	void (*title)(void *arg, char *buf, size_t size);
	void (*header)(void *arg, char *buf, size_t size);
	int (*nrows)(void *arg);
	void (*row)(void *arg, int i, char *buf, size_t size);
	/* a key: 0 ignored, 1 redraw (the order changed), 2 sample again */
	int (*key)(void *arg, int ch);
};

/* Run the table viewer until 'q', Ctrl-C or SIGTERM, sampling every delay_s seconds. The
 * terminal is restored on every exit path. Returns 0 or an exit code. */
int ptk_tui_table(struct ptk_ctx *ctx, const struct ptk_tui_table_ops *ops, double delay_s);

#endif
