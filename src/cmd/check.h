/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptk check's analysis for other commands (ptk exporter's ptk_check_verdict): the same
 * window, thresholds and verdicts as `ptk check -d WINDOW`, without the report.
 */
#ifndef PTK_CMD_CHECK_H
#define PTK_CMD_CHECK_H

#include "lib/cli.h"

struct ptk_cpuwatch;

/* The verdict of one USE row: resource "cpu", "memory", "disk", "network" or "kernel"; device
 * the disk or interface name ("" for the others); verdict 0 ok, 1 warning, 2 critical. */
struct ptk_check_verdict {
	const char *resource; /* static string */
	char device[64];
	int verdict;
};

/*
 * Run one check over window_s seconds of ctx->src (sleeps for the window; returns early when
 * ctx->stop is set, analysing what was sampled). watch: BPF programs the caller started
 * (ptk_cpuwatch_start) to take the run-queue latency and short-lived processes from -- their
 * counts over the window are used, and the programs are left attached; NULL: as ptk check,
 * the programs are loaded for the window when the source is live, /proc only when that fails.
 * Prints nothing but a one-line error when /proc/stat cannot be read. Safe to call from a
 * thread of its own as long as ctx is not shared with another ptk_check_run().
 * Returns the number of verdicts written to out (at most max), or -EIO.
 */
int ptk_check_run(struct ptk_ctx *ctx, double window_s, struct ptk_cpuwatch *watch,
		  struct ptk_check_verdict *out, int max);

#endif
