/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metric descriptions. Each metric is described once -- column title as the classic tool
 * spells it, JSON key, unit, counter or gauge, help text with its kernel source -- and every
 * sink (text table, JSON, later the archive and the Prometheus exposition) renders from that
 * description, so the formats cannot disagree.
 */
#ifndef PTK_MODEL_METRIC_H
#define PTK_MODEL_METRIC_H

#include <stdbool.h>

#include "lib/util.h"

enum ptk_kind {
	PTK_GAUGE, /* a level: the value now (Average: the mean of the intervals) */
	PTK_COUNTER, /* monotonically increasing since boot (or a count in the window) */
	PTK_RATE, /* a counter's delta over the interval, per second (Average: total/time) */
	PTK_PCT, /* a share of a total over the interval, in % (Average: shares of the totals) */
};

enum ptk_vtype { PTK_V_STR, PTK_V_U64, PTK_V_S64, PTK_V_F64 };

struct ptk_metric {
	const char *name; /* column title, e.g. "r_await", "%util", "si" */
	const char *key; /* JSON key / metric name suffix, e.g. "r_await", "util_pct" */
	const char *unit; /* "ms", "kB/s", "%", "bytes", "/s", "" */
	enum ptk_kind kind; /* of the underlying quantity as shown */
	enum ptk_vtype type; /* how the value is held */
	int width; /* text width; negative = left-aligned */
	int prec; /* decimals for PTK_V_F64 */
	const char *help; /* one line: meaning and kernel source (file, field) */
	const char *prom; /* Prometheus family (node_exporter's name where it has one), or NULL */
	const char *from; /* what it is computed from, e.g. "d(user - guest) / d(total)" */
	const char *sjson; /* its key in sysstat's -o JSON where not the title ("usr" for
			    * %usr), or NULL */
};

/* One value of a row. na = unavailable (EACCES, not provided by this kernel): shown as
 * "-" in text and null in JSON, never as 0. */
struct ptk_val {
	union {
		const char *s;
		u64 u;
		s64 i;
		double f;
	};
	bool na;
};

#define PTK_U(x) ((struct ptk_val){ .u = (x) })
#define PTK_I(x) ((struct ptk_val){ .i = (x) })
#define PTK_F(x) ((struct ptk_val){ .f = (x) })
#define PTK_S(x) ((struct ptk_val){ .s = (x) })
#define PTK_NA ((struct ptk_val){ .na = true })

/* A table: the metrics of one row, in display order. Columns are either registry entries
 * (refs: pointers into ptk_registry[], model/registry.h) or, for a command's private
 * columns not yet in the registry, an inline array (cols). Read them with ptk_col(). */
struct ptk_table {
	const char *name; /* JSON array key, e.g. "cpu", "devices" */
	const struct ptk_metric *cols;
	int ncols;
	const struct ptk_metric *const *refs; /* when set, used instead of cols */
};

/* Column i of tab. */
static inline const struct ptk_metric *ptk_col(const struct ptk_table *tab, int i)
{
	return tab->refs ? tab->refs[i] : &tab->cols[i];
}

/* Format one value as text per its description (no padding). Returns buf. */
const char *ptk_metric_fmt(const struct ptk_metric *m, const struct ptk_val *v, char *buf,
			   size_t size);

#endif
