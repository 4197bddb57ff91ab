/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Prometheus sink: renders metrics described by struct ptk_metric in the Prometheus text
 * exposition format 0.0.4 or in OpenMetrics 1.0 text, into a growable memory buffer.
 *
 * How a description maps to the exposition:
 *   prom  the metric name as scraped in the text format ("node_cpu_seconds_total",
 *         "node_memory_MemAvailable_bytes"; the key when prom is NULL); for OpenMetrics
 *         the family name drops the "_total" of a counter ("node_cpu_seconds") and the
 *         samples keep it
 *   kind  PTK_COUNTER -> counter, PTK_GAUGE -> gauge; a counter whose name does not end in
 *         "_total" (node_exporter's node_vmstat_pgfault ...) is rendered untyped ("unknown"
 *         in OpenMetrics), as node_exporter does, so the names stay node_exporter's
 *   unit  the base unit "seconds", "bytes", ... : an OpenMetrics "# UNIT" line when the family
 *         name ends in "_<unit>"; "" for none
 *   help  the HELP text (escaped)
 *   type  PTK_V_U64 prints an integer, PTK_V_F64 the shortest round-trip decimal
 * An unavailable value (na) is left out, never printed as 0.
 *
 *   ptk_prom_init(&p, PTK_PROM_TEXT);
 *   ptk_prom_family(&p, &m);                       HELP/TYPE/UNIT
 *   ptk_prom_sample(&p, &m, labels, &v);           one sample per label set
 *   ptk_prom_histogram(&p, &m, labels, ...);       a whole histogram family
 *   ptk_prom_end(&p);                              OpenMetrics: "# EOF"
 *   ... p.buf, p.len ...; ptk_prom_free(&p);
 */
#ifndef PTK_OUTPUT_PROM_H
#define PTK_OUTPUT_PROM_H

#include "model/metric.h"

enum ptk_prom_fmt {
	PTK_PROM_TEXT, /* text/plain; version=0.0.4 */
	PTK_PROM_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
};

/* Content-Type of a format. */
const char *ptk_prom_content_type(enum ptk_prom_fmt fmt);

/* The format an HTTP Accept header asks for: OpenMetrics when it names
 * application/openmetrics-text (with a non-zero q), else the text format. NULL = text. */
enum ptk_prom_fmt ptk_prom_negotiate(const char *accept);

struct ptk_prom {
	enum ptk_prom_fmt fmt;
	char *buf; /* NUL-terminated output */
	size_t len, cap;
	/* OpenMetrics only: the creation time (epoch seconds) of the counters and histograms
	 * rendered next, printed as <name>_created samples; < 0 = none. Set it before
	 * ptk_prom_sample()/ptk_prom_histogram(); ptk_prom_family() resets it to -1. */
	double created;
	/* Optional: another exposition (the OpenMetrics one of a text one) that every call on
	 * this one renders too, each sample's number and series formatted once and appended
	 * to both; its created is taken from this one's. ptk_prom_end ends both. */
	struct ptk_prom *twin;
};

void ptk_prom_init(struct ptk_prom *p, enum ptk_prom_fmt fmt);
void ptk_prom_free(struct ptk_prom *p);

/* HELP, TYPE (and UNIT for OpenMetrics) lines of m's family. */
void ptk_prom_family(struct ptk_prom *p, const struct ptk_metric *m);

/*
 * One sample of m. labels: name, value, name, value, ..., NULL (NULL itself = no labels);
 * values are escaped (\\, \", \n). Nothing is printed for v->na.
 */
void ptk_prom_sample(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
		     const struct ptk_val *v);

/*
 * A histogram family in one call (HELP/TYPE/UNIT included): n finite buckets with upper
 * bounds le[i] (ascending, in m->unit) and cumulative counts cum[i], then the +Inf bucket
 * (= count), <key>_sum and <key>_count. m->kind is not used.
 */
void ptk_prom_histogram(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
			const double *le, const u64 *cum, int n, double sum, u64 count);

/* Finish the exposition (OpenMetrics: "# EOF"). */
void ptk_prom_end(struct ptk_prom *p);

/* Shortest decimal that reads back as x ("NaN", "+Inf", "-Inf" for the specials). */
void ptk_prom_fmt_double(double x, char *buf, size_t size);

#endif
