/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strace -c's summary: calls, errors and system time per syscall (the tracee's stime
 * spent between the entry and exit stops, from wait4's rusage), its rows sorted as
 * strace -S sorts them and the figures of each row: % of the total time, seconds,
 * microseconds per call.
 */
#ifndef PTK_MODEL_SYSCSUM_H
#define PTK_MODEL_SYSCSUM_H

#include "lib/util.h"
#include "source/ptrace/syscalls.h"

struct ptk_sysc_ent {
	u64 calls, errors, time_us;
};

struct ptk_sysc_stats {
	struct ptk_sysc_ent e[PTK_NSYSCALLS]; /* by syscall number */
};

enum ptk_sysc_sort {
	PTK_SYSC_TIME,
	PTK_SYSC_CALLS,
	PTK_SYSC_ERRORS,
	PTK_SYSC_NAME,
	PTK_SYSC_NOTHING
};

/* strace -S: "time" (or "time_total"), "calls", "errors", "name", "nothing". 0 or -EINVAL. */
int ptk_sysc_sort_parse(const char *s, enum ptk_sysc_sort *by);

/* Count one call of syscall nr (ignored outside the table) that took time_us of system
 * time. */
void ptk_sysc_count(struct ptk_sysc_stats *st, long nr, bool error, u64 time_us);

/*
 * The syscalls called at least once into rows (PTK_NSYSCALLS entries), sorted by by
 * (descending counts; names ascending; ties and "nothing" in syscall number order, as
 * strace lists them), and their sums into tot. Returns the number of rows.
 */
int ptk_sysc_summary(const struct ptk_sysc_stats *st, enum ptk_sysc_sort by, int *rows,
		     struct ptk_sysc_ent *tot);

/* The figures of entry e against the total system time tot_us: % of it (0 when the total
 * is 0), seconds, and microseconds per call (0 without calls). */
void ptk_sysc_figures(const struct ptk_sysc_ent *e, u64 tot_us, double *pct, double *secs,
		      u64 *us_per_call);

#endif
