/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metric documentation: a registry entry (struct ptk_metric, model/metric.h) rendered as a
 * text line, a JSON object, or a tbl(1) row for a man page. `ptk metrics` lists the
 * registry with these; --help listings and man page tables are generated from them, so
 * the documentation of a metric is its registry entry.
 */
#ifndef PTK_OUTPUT_METRICDOC_H
#define PTK_OUTPUT_METRICDOC_H

#include <stdbool.h>
#include <stdio.h>

#include "model/metric.h"

struct json_object;

/* "gauge", "counter", "rate", "pct" ("?" for a value outside enum ptk_kind). */
const char *ptk_metric_kind_name(enum ptk_kind kind);
/* "str", "u64", "s64", "f64" ("?" outside enum ptk_vtype). */
const char *ptk_metric_type_name(enum ptk_vtype type);

/* True when the shell glob pat (fnmatch(3)) matches m's JSON key, column title or
 * Prometheus family. */
bool ptk_metric_match(const struct ptk_metric *m, const char *pat);

/* One object: key, name, unit, kind, type, width, prec, prom (null when none), from (null
 * when not given), help. The caller owns the reference. */
struct json_object *ptk_metric_doc_json(const struct ptk_metric *m);

/* Text listing: a header line, then one line per metric (key, title, unit, kind, precision,
 * Prometheus family, help). */
void ptk_metric_doc_text_header(FILE *f);
void ptk_metric_doc_text_row(FILE *f, const struct ptk_metric *m);

/* tbl(1) input: .TS and a header row, one row per metric (key, title, unit, kind, help with
 * the Prometheus family in a text block), .TE. Text is escaped for troff (\e, \-, \&). */
void ptk_metric_doc_man_begin(FILE *f);
void ptk_metric_doc_man_row(FILE *f, const struct ptk_metric *m);
void ptk_metric_doc_man_end(FILE *f);

#endif
