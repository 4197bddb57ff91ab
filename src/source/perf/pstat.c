// SPDX-License-Identifier: GPL-2.0
/* perf stat rows and derived metrics (facts from tools/perf/util/stat-shadow.c, 6.1). */
#include "source/perf/pstat.h"

#include <stdio.h>
#include <string.h>

void ptk_pstat_row_set(struct ptk_pstat_row *w, const char *name,
		       const struct perf_event_attr *attr, const struct ptk_perf_count *c, int err)
{
	memset(w, 0, sizeof(*w));
	w->name = name;
	w->attr = attr;
	w->unit = ptk_perf_event_unit(attr, &w->scale);
	if (err) {
		w->status = PTK_PSTAT_NOT_SUPPORTED;
		w->pct = 100;
		return;
	}
	w->run = c->run;
	w->status = ptk_perf_scale(c, &w->raw, &w->pct) ? PTK_PSTAT_COUNTED : PTK_PSTAT_NOT_COUNTED;
	w->val = w->raw * w->scale;
}

void ptk_pstat_read(struct ptk_perf_evsel *ev, int n, bool delta, struct ptk_pstat_row *rows)
{
	for (int i = 0; i < n; i++) {
		struct ptk_perf_evsel *e = &ev[i];
		struct ptk_perf_count now, d;

		ptk_perf_evsel_read(e, &now);
		if (delta) {
			ptk_perf_count_sub(&now, &e->prev, &d);
			e->prev = now;
		} else {
			d = now;
		}
		ptk_pstat_row_set(&rows[i], e->name, &e->attr, &d, e->err);
	}
}

static const struct ptk_pstat_row *find(const struct ptk_pstat_row *rows, int n, u32 type,
					u64 config)
{
	for (int i = 0; i < n; i++)
		if (rows[i].status == PTK_PSTAT_COUNTED &&
		    ptk_perf_is(rows[i].attr, type, config) && !rows[i].attr->exclude_user &&
		    !rows[i].attr->exclude_kernel)
			return &rows[i];
	return NULL;
}

/* task-clock (or cpu-clock) ns of the interval: the base of GHz and of the rates */
static double nsecs(const struct ptk_pstat_row *rows, int n)
{
	const struct ptk_pstat_row *t = find(rows, n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	if (!t)
		t = find(rows, n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	return t ? t->raw : 0;
}

static void set(struct ptk_pstat_row *w, const char *fmt, double v, const char *unit)
{
	w->has_metric = true;
	w->mfmt = fmt;
	w->mval = v;
	snprintf(w->munit, sizeof(w->munit), "%s", unit);
}

static u64 cache_cfg(u64 cache, u64 op, u64 res)
{
	return cache | (op << 8) | (res << 16);
}

static const struct {
	u64 cache;
	const char *unit;
} miss_units[] = {
	{ PERF_COUNT_HW_CACHE_L1D, "of all L1-dcache accesses" },
	{ PERF_COUNT_HW_CACHE_L1I, "of all L1-icache accesses" },
	{ PERF_COUNT_HW_CACHE_LL, "of all LL-cache accesses" },
	{ PERF_COUNT_HW_CACHE_DTLB, "of all dTLB cache accesses" },
	{ PERF_COUNT_HW_CACHE_ITLB, "of all iTLB cache accesses" },
};

void ptk_pstat_metrics(struct ptk_pstat_row *rows, int n, double wall_ns)
{
	double ns = nsecs(rows, n);

	for (int i = 0; i < n; i++) {
		struct ptk_pstat_row *w = &rows[i];
		const struct perf_event_attr *a = w->attr;
		const struct ptk_pstat_row *b;
		bool done = false;

		w->has_metric = false;
		w->munit[0] = '\0';
		if (w->status != PTK_PSTAT_COUNTED)
			continue;
		if (ptk_perf_is(a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
		    ptk_perf_is(a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK)) {
			if (wall_ns > 0)
				set(w, "%8.3f", w->raw / wall_ns, "CPUs utilized");
			continue;
		}
		if (ptk_perf_is(a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
			if (ns > 0)
				set(w, "%8.3f", w->raw / ns, "GHz");
			continue;
		}
		if (ptk_perf_is(a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)) {
			b = find(rows, n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
			if (b && b->raw > 0)
				set(w, "%7.2f ", w->raw / b->raw, "insn per cycle");
			continue;
		}
		if (ptk_perf_is(a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES)) {
			b = find(rows, n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
			if (b && b->raw > 0)
				set(w, "%7.2f%%", 100.0 * w->raw / b->raw, "of all branches");
			continue;
		}
		if (ptk_perf_is(a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES)) {
			b = find(rows, n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES);
			if (b && b->raw > 0)
				set(w, "%8.3f %%", 100.0 * w->raw / b->raw, "of all cache refs");
			continue;
		}
		for (size_t k = 0; k < ARRAY_SIZE(miss_units) && a->type == PERF_TYPE_HW_CACHE;
		     k++) {
			u64 c = miss_units[k].cache;
			if (a->config != cache_cfg(c, PERF_COUNT_HW_CACHE_OP_READ,
						   PERF_COUNT_HW_CACHE_RESULT_MISS))
				continue;
			b = find(rows, n, PERF_TYPE_HW_CACHE,
				 cache_cfg(c, PERF_COUNT_HW_CACHE_OP_READ,
					   PERF_COUNT_HW_CACHE_RESULT_ACCESS));
			if (b && b->raw > 0)
				set(w, "%7.2f%%", 100.0 * w->raw / b->raw, miss_units[k].unit);
			done = true;
		}
		if (done)
			continue;
		if (ns > 0) {
			/* convert_unit_double(): K, M, G per second of task-clock time */
			double r = 1e9 * w->raw / ns;
			const char *u = "/sec";
			if (r >= 1e9) {
				r /= 1e9;
				u = "G/sec";
			} else if (r >= 1e6) {
				r /= 1e6;
				u = "M/sec";
			} else if (r >= 1e3) {
				r /= 1e3;
				u = "K/sec";
			}
			set(w, "%8.3f", r, u);
		}
	}
}

int ptk_pstat_metric_fmt(const struct ptk_pstat_row *w, char *buf, size_t size)
{
	if (!w->has_metric) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	/* the formats are the constants set above */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return snprintf(buf, size, w->mfmt, w->mval);
#pragma GCC diagnostic pop
}
