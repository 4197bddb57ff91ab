// SPDX-License-Identifier: GPL-2.0
#include "output/sink.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ptk_sink_init(struct ptk_sink *s, enum ptk_fmt fmt, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	s->out = out;
	s->sep = " ";
}

void ptk_sink_begin(struct ptk_sink *s)
{
	if (s->fmt == PTK_FMT_JSON) {
		if (s->obj)
			json_object_put(s->obj);
		s->obj = json_object_new_object();
	}
}

void ptk_sink_meta_json(struct ptk_sink *s, const char *key, struct json_object *o)
{
	if (s->fmt == PTK_FMT_JSON && s->obj)
		json_object_object_add(s->obj, key, o);
	else
		json_object_put(o);
}

void ptk_sink_meta_str(struct ptk_sink *s, const char *key, const char *v)
{
	if (s->fmt == PTK_FMT_JSON)
		ptk_sink_meta_json(s, key, json_object_new_string(v));
}

void ptk_sink_meta_u64(struct ptk_sink *s, const char *key, u64 v)
{
	if (s->fmt == PTK_FMT_JSON)
		ptk_sink_meta_json(s, key, json_object_new_uint64(v));
}

void ptk_sink_meta_f64(struct ptk_sink *s, const char *key, double v)
{
	char buf[64];
	size_t n;

	if (s->fmt != PTK_FMT_JSON)
		return;
	if (!isfinite(v)) {
		ptk_sink_meta_json(s, key, NULL);
		return;
	}
	/* microsecond precision, trailing zeros trimmed: no binary float noise */
	n = snprintf(buf, sizeof(buf), "%.6f", v);
	while (n > 1 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	ptk_sink_meta_json(s, key, json_object_new_double_s(v, buf));
}

void ptk_sink_meta_bool(struct ptk_sink *s, const char *key, bool v)
{
	if (s->fmt == PTK_FMT_JSON)
		ptk_sink_meta_json(s, key, json_object_new_boolean(v));
}

static void text_cell(struct ptk_sink *s, const struct ptk_metric *m, const char *txt, bool first)
{
	if (!first)
		fputs(s->sep, s->out);
	if (m->width < 0)
		fprintf(s->out, "%-*s", -m->width, txt);
	else
		fprintf(s->out, "%*s", m->width, txt);
}

void ptk_sink_table_begin(struct ptk_sink *s, const struct ptk_table *tab, bool header,
			  const char *prefix)
{
	s->tab = tab;
	if (s->fmt == PTK_FMT_JSON) {
		s->arr = json_object_new_array();
		return;
	}
	if (!header)
		return;
	if (s->prefix_width)
		fprintf(s->out, "%-*s", s->prefix_width, prefix ? prefix : "");
	for (int i = 0; i < tab->ncols; i++)
		text_cell(s, ptk_col(tab, i), ptk_col(tab, i)->name, i == 0 && !s->prefix_width);
	fputc('\n', s->out);
}

struct json_object *ptk_json_val(const struct ptk_metric *m, const struct ptk_val *v)
{
	if (v->na)
		return NULL;
	switch (m->type) {
	case PTK_V_STR:
		return json_object_new_string(v->s ? v->s : "");
	case PTK_V_U64:
		return json_object_new_uint64(v->u);
	case PTK_V_S64:
		return json_object_new_int64(v->i);
	case PTK_V_F64: {
		/* Format exactly as the text does (printf rounding, not round(): 9765.625 is
		 * "9765.62" in both), so both say the same number. */
		char buf[64];
		if (!isfinite(v->f))
			return NULL;
		snprintf(buf, sizeof(buf), "%.*f", m->prec, v->f);
		return json_object_new_double_s(strtod(buf, NULL), buf);
	}
	}
	return NULL;
}

struct json_object *ptk_json_row(const struct ptk_table *tab, const struct ptk_val *vals)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < tab->ncols; i++)
		json_object_object_add(o, ptk_col(tab, i)->key,
				       ptk_json_val(ptk_col(tab, i), &vals[i]));
	return o;
}

void ptk_sink_row(struct ptk_sink *s, const char *prefix, const struct ptk_val *vals)
{
	const struct ptk_table *tab = s->tab;

	if (s->fmt == PTK_FMT_JSON) {
		json_object_array_add(s->arr, ptk_json_row(tab, vals));
		return;
	}
	if (s->prefix_width)
		fprintf(s->out, "%-*s", s->prefix_width, prefix ? prefix : "");
	for (int i = 0; i < tab->ncols; i++) {
		char buf[256];
		/* strings unbounded (exec arguments, paths) */
		const char *txt =
			ptk_col(tab, i)->type == PTK_V_STR && !vals[i].na ?
				(vals[i].s ? vals[i].s : "") :
				ptk_metric_fmt(ptk_col(tab, i), &vals[i], buf, sizeof(buf));
		text_cell(s, ptk_col(tab, i), txt, i == 0 && !s->prefix_width);
	}
	fputc('\n', s->out);
}

static bool table_has_key(const struct ptk_table *tab, const char *key)
{
	for (int i = 0; i < tab->ncols; i++)
		if (ptk_col(tab, i)->key && !strcmp(ptk_col(tab, i)->key, key))
			return true;
	return false;
}

void ptk_sink_event(struct ptk_sink *s, const struct ptk_table *tab, const struct ptk_val *vals)
{
	if (s->fmt != PTK_FMT_JSON) {
		const struct ptk_table *prev = s->tab;
		s->tab = tab;
		ptk_sink_row(s, NULL, vals);
		s->tab = prev;
		return;
	}
	ptk_sink_begin(s);
	if (!table_has_key(tab, "time")) { /* a tool's own TIME column wins */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ptk_sink_meta_f64(s, "time", ts.tv_sec + ts.tv_nsec / 1e9);
	}
	for (int i = 0; i < tab->ncols; i++)
		ptk_sink_meta_json(s, ptk_col(tab, i)->key,
				   ptk_json_val(ptk_col(tab, i), &vals[i]));
	ptk_sink_end(s);
}

void ptk_sink_table_end(struct ptk_sink *s)
{
	if (s->fmt == PTK_FMT_JSON && s->arr) {
		if (s->obj)
			json_object_object_add(s->obj, s->tab->name, s->arr);
		else
			json_object_put(s->arr);
		s->arr = NULL;
	}
	s->tab = NULL;
}

void ptk_sink_end(struct ptk_sink *s)
{
	if (s->fmt == PTK_FMT_JSON && s->obj) {
		fputs(json_object_to_json_string_ext(
			      s->obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
		      s->out);
		fputc('\n', s->out);
		json_object_put(s->obj);
		s->obj = NULL;
	}
	fflush(s->out);
}
