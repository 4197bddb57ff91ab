/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-cgroup model: two cgroup snapshots (source/cgroup/cgroup.h) and the time between
 * them become one row of rates and levels per cgroup -- CPU use and its quota, the share of
 * CFS periods throttled and the time throttled, memory against its limits and cAdvisor's
 * working set, the memory events of the interval, I/O rates, tasks and the cgroup's own
 * pressure -- with the same counter deltas as the host's activities (model/delta.h). ptk
 * cgtop shows the rows, ptk check judges them (model/use.c, the cgroup rules of rules.c), the
 * exporter serves the counters as cAdvisor's container_* families (output/prom_cgroup.c).
 *
 * A value is NAN when unknown (its file was absent in either snapshot), and a limit is
 * INFINITY when the cgroup has none ("max").
 */
#ifndef PTK_MODEL_CGROUP_H
#define PTK_MODEL_CGROUP_H

#include "model/metric.h"
#include "model/registry.h"
#include "source/cgroup/cgroup.h"

struct ptk_cg_row {
	const struct ptk_cgroup *cur; /* in snapshot b */
	const struct ptk_cgroup *prev; /* in snapshot a, NULL when new */
	struct ptk_cg_ident ident;
	char owner[160]; /* ptk_cg_ident_short */
	/* CPU */
	double cpu_pct; /* % of one CPU over the interval (usage) */
	double user_pct, sys_pct;
	double quota_cpus; /* quota / period in CPUs, INFINITY none */
	double quota_pct; /* cpu_pct / (quota_cpus x 100) x 100: how much of its quota it used */
	double periods, throttled; /* CFS periods elapsed / throttled in the interval */
	double throttled_pct; /* throttled / periods x 100 */
	double throttled_s; /* seconds throttled per second of the interval */
	/* memory, bytes */
	double mem, wset, anon, file, swap, peak;
	double mem_max, mem_high, mem_low; /* INFINITY: none */
	double mem_limit; /* the lower of max and high */
	double mem_limit_pct; /* working set / mem_limit x 100 */
	double ev_high, ev_max, ev_oom, ev_oom_kill; /* memory events in the interval */
	double majflt_s;
	/* I/O, summed over devices */
	double rbps, wbps, riops, wiops;
	/* tasks */
	double tasks, tasks_max;
	/* the cgroup's own pressure: % of the interval stalled (some, full) */
	double psi_some[PTK_PSI_NRES], psi_full[PTK_PSI_NRES];
};

/* cAdvisor's working set: usage less the inactive file pages (never below 0); NAN when
 * unknown. Bytes. */
double ptk_cg_working_set(const struct ptk_cgroup *c);

/*
 * One row per cgroup of b into rows[b->n] (a: the previous snapshot, NULL for levels only:
 * every rate NAN). dt from the snapshots' uptimes. Returns the number of rows (b->n).
 */
int ptk_cg_rows(const struct ptk_cgsnap *a, const struct ptk_cgsnap *b, struct ptk_cg_row *rows);

/* The value of registry metric id (a PTK_M_CG_* one) in row r: NAN unknown, INFINITY for a
 * limit of "max". NAN for an id the row does not hold. */
double ptk_cg_row_value(const struct ptk_cg_row *r, enum ptk_mid id);

/* What a snapshot must read (ptk_cgsnap.want, PTK_CGW_* bits) for the registry metrics
 * ids[n] (PTK_M_CG_* ones; others need nothing) of ptk_cg_row_value. */
u64 ptk_cg_want(const enum ptk_mid *ids, int n);

/* What cgtop sorts by. */
enum ptk_cg_sort {
	PTK_CGS_PATH,
	PTK_CGS_TASKS,
	PTK_CGS_CPU,
	PTK_CGS_MEMORY,
	PTK_CGS_IO,
	PTK_CGS_THROTTLE,
	PTK_CGS_PRESSURE,
	PTK_CGS_N
};
extern const char *const ptk_cg_sort_name[PTK_CGS_N]; /* "path", "tasks", "cpu", ... */
/* "cpu" -> PTK_CGS_CPU. 0 or -EINVAL. */
int ptk_cg_sort_parse(const char *s, enum ptk_cg_sort *out);

/*
 * The display order of rows: tree = parents first, siblings sorted by key (descending but
 * for path); flat = all rows by key. Rows deeper than max_depth (-1: any) are left out.
 * Writes indexes into order[] and returns their count.
 */
int ptk_cg_order(const struct ptk_cg_row *rows, int n, enum ptk_cg_sort key, bool tree,
		 int max_depth, int *order);

#endif
