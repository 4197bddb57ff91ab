/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sinks: render rows described by struct ptk_metric as a text table or as NDJSON (one JSON
 * object per interval). The same calls drive both, so text and JSON cannot disagree.
 *
 *   ptk_sink_begin(s);                      one interval
 *   ptk_sink_meta_*(s, "key", v);           interval-level fields (JSON only)
 *   ptk_sink_table_begin(s, &tab, header);  text: header line when asked; JSON: "name":[
 *   ptk_sink_row(s, prefix, vals);          one row; prefix is text-only (time, "Average:")
 *   ptk_sink_table_end(s);
 *   ptk_sink_end(s);                        JSON: the object is printed as one line
 */
#ifndef PTK_OUTPUT_SINK_H
#define PTK_OUTPUT_SINK_H

#include <stdio.h>

#include "model/metric.h"

enum ptk_fmt { PTK_FMT_TEXT, PTK_FMT_JSON };

struct json_object;

struct ptk_sink {
	enum ptk_fmt fmt;
	FILE *out;
	struct json_object *obj; /* current interval (JSON) */
	struct json_object *arr; /* current table (JSON) */
	const struct ptk_table *tab;
	int prefix_width; /* text: width of the row prefix column (left-aligned) */
	const char *sep; /* text: column separator, default " " */
};

void ptk_sink_init(struct ptk_sink *s, enum ptk_fmt fmt, FILE *out);
void ptk_sink_begin(struct ptk_sink *s);
void ptk_sink_meta_str(struct ptk_sink *s, const char *key, const char *v);
void ptk_sink_meta_u64(struct ptk_sink *s, const char *key, u64 v);
void ptk_sink_meta_f64(struct ptk_sink *s, const char *key, double v);
void ptk_sink_meta_bool(struct ptk_sink *s, const char *key, bool v);
/* Attach a ready json-c object under key (JSON only; ownership passes to the sink). */
void ptk_sink_meta_json(struct ptk_sink *s, const char *key, struct json_object *o);
void ptk_sink_table_begin(struct ptk_sink *s, const struct ptk_table *tab, bool header,
			  const char *prefix);
void ptk_sink_row(struct ptk_sink *s, const char *prefix, const struct ptk_val *vals);
void ptk_sink_table_end(struct ptk_sink *s);
void ptk_sink_end(struct ptk_sink *s);

/* One event of an event (snoop) tool: text, a row under the header printed by
 * ptk_sink_table_begin(); JSON, one flat object per event (keys from the metric
 * descriptions) on its own line. */
void ptk_sink_event(struct ptk_sink *s, const struct ptk_table *tab, const struct ptk_val *vals);

/* A json-c object of one row (keys from the metric descriptions). */
struct json_object *ptk_json_row(const struct ptk_table *tab, const struct ptk_val *vals);
/* JSON value of one metric value (NULL json for na). */
struct json_object *ptk_json_val(const struct ptk_metric *m, const struct ptk_val *v);

#endif
