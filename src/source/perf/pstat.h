/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf stat's rows and derived ("shadow") metrics: CPUs utilized, GHz, insn per cycle, miss
 * ratios, and the per-second rate of every other event, computed from the counts of one
 * interval as tools/perf/util/stat-shadow.c does (same formats, same units).
 */
#ifndef PTK_SOURCE_PERF_PSTAT_H
#define PTK_SOURCE_PERF_PSTAT_H

#include "source/perf/perf.h"

enum ptk_pstat_status {
	PTK_PSTAT_COUNTED,
	PTK_PSTAT_NOT_COUNTED, /* "<not counted>": never ran (time_running or _enabled 0) */
	PTK_PSTAT_NOT_SUPPORTED, /* "<not supported>": the PMU has no such event */
};

struct ptk_pstat_row {
	const char *name; /* as the user spelled it */
	const struct perf_event_attr *attr;
	enum ptk_pstat_status status;
	const char *unit; /* "msec" or "" */
	double scale; /* unit factor: 1e-6 for ns -> msec */
	double raw; /* the count scaled for multiplexing, native unit (ns, events) */
	double val; /* raw * scale: the value shown */
	u64 run; /* time_running, ns */
	double pct; /* 100 * time_running / time_enabled */
	/* the derived metric (after ptk_pstat_metrics) */
	bool has_metric; /* false: blank metric column */
	const char *mfmt; /* printf format of mval, perf's: "%8.3f", "%7.2f%%" ... */
	double mval;
	char munit[40]; /* "CPUs utilized", "K/sec", "insn per cycle" ... */
};

/* Fill a row from a counter reading (status, raw, val, run, pct); err is the open error. */
void ptk_pstat_row_set(struct ptk_pstat_row *w, const char *name,
		       const struct perf_event_attr *attr, const struct ptk_perf_count *c, int err);

/*
 * Read the n events of ev into rows: the counts since the previous call (delta; each
 * event's prev is moved on) or since they were enabled.
 */
void ptk_pstat_read(struct ptk_perf_evsel *ev, int n, bool delta, struct ptk_pstat_row *rows);

/*
 * Derive the metric of every row from the rows of the same interval: task-clock/cpu-clock
 * -> CPUs utilized (ns / wall_ns); cycles -> GHz (cycles / task-clock ns); instructions ->
 * insn per cycle; branch-misses, cache-misses, L1-dcache/L1-icache/LLC/dTLB/iTLB load misses
 * -> % of their accesses; any other event -> rate per second of task-clock time with K/M/G.
 */
void ptk_pstat_metrics(struct ptk_pstat_row *rows, int n, double wall_ns);

/* Format the row's metric value with its perf format ("   1.234", "  12.50%"). Returns the
 * length (snprintf), 0 when the row has no metric. */
int ptk_pstat_metric_fmt(const struct ptk_pstat_row *w, char *buf, size_t size);

#endif
