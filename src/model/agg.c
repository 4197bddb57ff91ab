// SPDX-License-Identifier: GPL-2.0
/* Aggregations: the language and the rows (agg.h). */
#include "model/agg.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/folded.h"
#include "output/sink.h"

/* err[errsz] formatted, -EINVAL: what a request that cannot be returns */
#define fail(err, errsz, ...) ptk_fail(err, errsz, -EINVAL, __VA_ARGS__)

const char *ptk_agg_mode_name(enum ptk_agg_mode mode)
{
	static const char *const names[] = {
		[PTK_AGG_COUNT] = "count",     [PTK_AGG_SUM] = "sum",
		[PTK_AGG_HIST] = "hist",       [PTK_AGG_LHIST] = "linear",
		[PTK_AGG_LATENCY] = "latency", [PTK_AGG_MIN] = "min",
		[PTK_AGG_MAX] = "max",	       [PTK_AGG_AVG] = "avg",
		[PTK_AGG_STATS] = "stats",
	};

	return (unsigned)mode < ARRAY_SIZE(names) ? names[mode] : "";
}

/* ---- the language ---- */

int ptk_agg_filter_parse(const char *expr, struct ptk_agg_filter *f, char *err, size_t errsz)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
	static const enum ptk_agg_op opv[] = { PTK_AGG_EQ, PTK_AGG_NE, PTK_AGG_LE,
					       PTK_AGG_GE, PTK_AGG_LT, PTK_AGG_GT };
	const char *at = NULL, *s = expr, *e, *v;
	size_t op = 0, lv;

	for (size_t i = 0; i < ARRAY_SIZE(ops) && !at; i++)
		if ((at = strstr(expr, ops[i])))
			op = i;
	if (!at)
		return fail(err, errsz,
			    "invalid --filter '%s' (want FIELD==VALUE, OP one of == != < <= > >=)",
			    expr);
	e = at;
	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	v = at + strlen(ops[op]);
	while (isspace((unsigned char)*v))
		v++;
	lv = strlen(v);
	while (lv && isspace((unsigned char)v[lv - 1]))
		lv--;
	if (e == s || (size_t)(e - s) >= sizeof(f->field) || !lv || lv >= sizeof(f->value))
		return fail(err, errsz, "invalid --filter '%s'", expr);
	snprintf(f->field, sizeof(f->field), "%.*s", (int)(e - s), s);
	snprintf(f->value, sizeof(f->value), "%.*s", (int)lv, v);
	f->op = opv[op];
	return 0;
}

int ptk_agg_filters_parse(const char *expr, struct ptk_agg_filter *f, int max, char *err,
			  size_t errsz)
{
	const char *p = expr;
	int n = 0;

	for (;;) {
		const char *q = p, *cut = NULL;
		char quote = 0, cond[PTK_AGG_NAME_MAX + PTK_AGG_VALUE_MAX + 8];
		int rc;

		/* the next "&&" outside quotes */
		for (; *q && !cut; q++) {
			if (quote) {
				quote = *q == quote ? 0 : quote;
				continue;
			}
			if (*q == '\'' || *q == '"')
				quote = *q;
			else if (q[0] == '&' && q[1] == '&')
				cut = q;
		}
		if (!cut)
			cut = p + strlen(p);
		if (n == max)
			return fail(err, errsz, "--filter '%s': more than %d conditions", expr,
				    max);
		if ((size_t)(cut - p) >= sizeof(cond))
			return fail(err, errsz, "invalid --filter '%s'", expr);
		snprintf(cond, sizeof(cond), "%.*s", (int)(cut - p), p);
		if ((rc = ptk_agg_filter_parse(cond, &f[n], err, errsz)))
			return rc;
		n++;
		if (!*cut)
			return n;
		p = cut + 2;
	}
}

int ptk_agg_filter_str(const struct ptk_agg_filter *f, char *out, size_t size, char *err,
		       size_t errsz)
{
	size_t n = strlen(f->value);
	const char *v = f->value;

	if (f->op != PTK_AGG_EQ && f->op != PTK_AGG_NE)
		return fail(err, errsz, "--filter: strings compare with == or != only");
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	snprintf(out, size, "%.*s", (int)n, v);
	return 0;
}

int ptk_agg_filter_num(const struct ptk_agg_filter *f, s64 *v, char *err, size_t errsz)
{
	const char *val = f->value;
	char *end;
	long long x;

	errno = 0;
	x = strtoll(val, &end, 0);
	if (errno == ERANGE || *end) {
		unsigned long long ux;

		errno = 0;
		ux = strtoull(val, &end, 0);
		if (errno || *end || val[0] == '-')
			return fail(err, errsz, "--filter: '%s' is not a number", val);
		x = (long long)ux;
	}
	*v = x;
	return 0;
}

char **ptk_agg_list_split(const char *list, int *n)
{
	char *dup = xstrdup(list), *save = NULL,
	     **items = xcalloc(strlen(list) + 1, sizeof(*items));

	*n = 0;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*t))
			t++;
		items[(*n)++] = xstrdup(t);
	}
	free(dup);
	return items;
}

void ptk_agg_list_free(char **items)
{
	for (char **i = items; i && *i; i++)
		free(*i);
	free(items);
}

int ptk_agg_linear_parse(const char *spec, s64 *min, s64 *step, u32 *nslots, char *err,
			 size_t errsz)
{
	long long a, b, c;
	__int128 n;
	char tail;

	if (sscanf(spec, "%lld,%lld,%lld%c", &a, &b, &c, &tail) != 3 || c <= 0 || b <= a)
		return fail(err, errsz,
			    "invalid --linear '%s' (want MIN,MAX,STEP, MAX > MIN, STEP > 0)", spec);
	/* in 128 bits: MAX - MIN + STEP overflows 64 for extreme bounds */
	n = ((__int128)b - a + c - 1) / c;
	if (n > PTK_HIST_SLOTS)
		return fail(err, errsz, "--linear %s: more than %d buckets", spec, PTK_HIST_SLOTS);
	*min = a;
	*step = c;
	*nslots = (u32)n;
	return 0;
}

/* ---- the results ---- */

void ptk_agg_result_init(struct ptk_agg_result *res)
{
	int n = 0;

	for (int i = 0; i < res->nkeys; i++) {
		const struct ptk_agg_col *k = &res->keys[i];

		res->cols[n++] = (struct ptk_metric){
			.name = k->name,
			.key = k->name,
			.unit = "",
			.kind = PTK_GAUGE,
			.type = k->type,
			.help = k->stack ?
					"a stack, folded (outermost frame first, ';' separated)" :
				k->task ? "the task current at the event" :
					  "a field of the event",
		};
	}
	for (int i = 0; i < (int)ARRAY_SIZE(res->vcol); i++)
		res->vcol[i] = -1;
	if (ptk_agg_is_hist(res->mode)) {
		res->ncols = n;
		return;
	}
	res->vcol[PTK_AGG_C_COUNT] = n;
	res->cols[n++] = (struct ptk_metric){ .name = "COUNT",
					      .key = "count",
					      .unit = "",
					      .type = PTK_V_U64,
					      .width = 8,
					      .help = "events in the interval" };
	if (res->mode == PTK_AGG_SUM || res->mode == PTK_AGG_STATS) {
		res->vcol[PTK_AGG_C_SUM] = n;
		res->cols[n++] = (struct ptk_metric){
			.name = "SUM",
			.key = "sum",
			.unit = "",
			.type = res->sum_signed ? PTK_V_S64 : PTK_V_U64,
			.width = 12,
			.help = "sum of the field's values in the interval (wraps at 64 bits)"
		};
	}
	if (res->mode == PTK_AGG_SUM || res->mode == PTK_AGG_AVG || res->mode == PTK_AGG_STATS) {
		res->vcol[PTK_AGG_C_AVG] = n;
		res->cols[n++] = (struct ptk_metric){ .name = "AVG",
						      .key = "avg",
						      .unit = "",
						      .type = PTK_V_F64,
						      .width = 10,
						      .prec = 1,
						      .help = "SUM / COUNT" };
	}
	if (res->mode == PTK_AGG_MIN || res->mode == PTK_AGG_STATS) {
		res->vcol[PTK_AGG_C_MIN] = n;
		res->cols[n++] = (struct ptk_metric){
			.name = "MIN",
			.key = "min",
			.unit = "",
			.type = res->sum_signed ? PTK_V_S64 : PTK_V_U64,
			.width = 10,
			.help = "the least value in the interval",
		};
	}
	if (res->mode == PTK_AGG_MAX || res->mode == PTK_AGG_STATS) {
		res->vcol[PTK_AGG_C_MAX] = n;
		res->cols[n++] = (struct ptk_metric){
			.name = "MAX",
			.key = "max",
			.unit = "",
			.type = res->sum_signed ? PTK_V_S64 : PTK_V_U64,
			.width = 10,
			.help = "the greatest value in the interval",
		};
	}
	res->ncols = n;
}

void ptk_agg_row_set_stack(struct ptk_agg_row *w, int key, char **frames, int n)
{
	const char **root = xmalloc((n ? n : 1) * sizeof(*root));

	for (int i = 0; i < n; i++)
		root[i] = frames[n - 1 - i];
	w->frames[key] = frames;
	w->nframes[key] = n;
	w->str[key] = ptk_folded_join(root, n);
	w->v[key] = PTK_S(w->str[key]);
	free(root);
}

/* A signed value as an unsigned one of the same order (its sign bit flipped). */
static u64 ordered(s64 v, bool sg)
{
	return (u64)v ^ (sg ? 1ull << 63 : 0);
}

/* The weight rows are ordered by, and the values of their aggregate columns. */
static u64 weight(const struct ptk_agg_result *res, struct ptk_agg_row *w)
{
	const int *c = res->vcol;
	bool sg = res->sum_signed;
	u64 t = w->below + w->above;
	double avg = w->count ? (sg ? (double)w->sum : (double)(u64)w->sum) / w->count : 0;
	u64 bits;

	if (ptk_agg_is_hist(res->mode)) {
		for (int i = 0; i < PTK_HIST_SLOTS; i++)
			t += w->slot[i];
		return t;
	}
	w->v[c[PTK_AGG_C_COUNT]] = PTK_U(w->count);
	if (c[PTK_AGG_C_SUM] >= 0)
		w->v[c[PTK_AGG_C_SUM]] = sg ? PTK_I(w->sum) : PTK_U((u64)w->sum);
	if (c[PTK_AGG_C_AVG] >= 0)
		w->v[c[PTK_AGG_C_AVG]] = w->count ? PTK_F(avg) : PTK_NA;
	if (c[PTK_AGG_C_MIN] >= 0)
		w->v[c[PTK_AGG_C_MIN]] = !w->count ? PTK_NA :
					 sg	   ? PTK_I(w->min) :
						     PTK_U((u64)w->min);
	if (c[PTK_AGG_C_MAX] >= 0)
		w->v[c[PTK_AGG_C_MAX]] = !w->count ? PTK_NA :
					 sg	   ? PTK_I(w->max) :
						     PTK_U((u64)w->max);
	switch (res->mode) {
	case PTK_AGG_SUM:
	case PTK_AGG_STATS:
		return ordered(w->sum, sg);
	case PTK_AGG_MIN:
		return w->count ? ordered(w->min, sg) : 0;
	case PTK_AGG_MAX:
		return w->count ? ordered(w->max, sg) : 0;
	case PTK_AGG_AVG:
		/* a double's bits in the order of its value */
		memcpy(&bits, &avg, sizeof(bits));
		return w->count ? (bits >> 63 ? ~bits : bits | 1ull << 63) : 0;
	default:
		return w->count;
	}
}

struct ranked {
	u64 weight;
	size_t i;
};

static int by_weight(const void *a, const void *b, void *arg)
{
	const struct ranked *x = a, *y = b;
	const struct ptk_agg_row *rows = arg;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return memcmp(rows[x->i].tie, rows[y->i].tie, sizeof(rows->tie));
}

void ptk_agg_rows_sort(const struct ptk_agg_result *res, struct ptk_agg_row *rows, size_t n)
{
	struct ranked *rk = xmalloc((n ? n : 1) * sizeof(*rk));
	struct ptk_agg_row *sorted = xmalloc((n ? n : 1) * sizeof(*sorted));

	for (size_t i = 0; i < n; i++)
		rk[i] = (struct ranked){ weight(res, &rows[i]), i };
	if (n > 1)
		qsort_r(rk, n, sizeof(*rk), by_weight, rows);
	for (size_t i = 0; i < n; i++)
		sorted[i] = rows[rk[i].i];
	if (n)
		memcpy(rows, sorted, n * sizeof(*rows));
	free(sorted);
	free(rk);
}

/* A stack key's frames, one per line above its row (text). */
static void print_frames(FILE *out, const struct ptk_agg_result *res, const struct ptk_agg_row *w)
{
	for (int i = 0; i < res->nkeys; i++)
		for (int j = 0; res->keys[i].stack && j < w->nframes[i]; j++)
			fprintf(out, "    %s\n", w->frames[i][j]);
}

/* Key columns as wide as their title and widest value (text; left-aligned strings). */
static void fit_widths(struct ptk_agg_result *res, const struct ptk_agg_row *rows, size_t n)
{
	for (int i = 0; i < res->nkeys; i++) {
		int w = strlen(res->cols[i].name);

		for (size_t j = 0; j < n && !res->keys[i].stack; j++) {
			char buf[256];
			int l = strlen(
				ptk_metric_fmt(&res->cols[i], &rows[j].v[i], buf, sizeof(buf)));

			if (l > w)
				w = l;
		}
		res->cols[i].width = res->cols[i].type == PTK_V_STR ? -w : w;
	}
}

static void print_counts(struct ptk_sink *s, struct ptk_agg_result *res,
			 const struct ptk_agg_row *rows, size_t n)
{
	struct ptk_table all = { "rows", res->cols, res->ncols };
	struct ptk_metric tcols[PTK_AGG_MAX_KEYS + 5];
	struct ptk_table text = { "rows", tcols, 0 };
	int shown[PTK_AGG_MAX_KEYS + 5];
	bool stacks = false;

	fit_widths(res, rows, n);
	if (s->fmt == PTK_FMT_JSON) {
		ptk_sink_table_begin(s, &all, false, NULL);
		for (size_t j = 0; j < n; j++)
			ptk_sink_row(s, NULL, rows[j].v);
		ptk_sink_table_end(s);
		return;
	}
	/* text: stack keys are not columns, their frames stand above each row */
	for (int i = 0; i < res->ncols; i++) {
		if (i < res->nkeys && res->keys[i].stack) {
			stacks = true;
			continue;
		}
		shown[text.ncols] = i;
		tcols[text.ncols++] = res->cols[i];
	}
	ptk_sink_table_begin(s, &text, !stacks, NULL);
	for (size_t j = 0; j < n; j++) {
		struct ptk_val tv[PTK_AGG_MAX_KEYS + 5];

		for (int i = 0; i < text.ncols; i++)
			tv[i] = rows[j].v[shown[i]];
		if (stacks) {
			print_frames(s->out, res, &rows[j]);
			/* the other key columns and COUNT under their titles */
			ptk_sink_table_begin(s, &text, true, NULL);
		}
		ptk_sink_row(s, NULL, tv);
		if (stacks)
			fputc('\n', s->out);
	}
	ptk_sink_table_end(s);
}

/* A 128-bit integer in decimal (the end of a linear histogram may lie past 2^63). */
static const char *dec128(__int128 v, char *buf, size_t size)
{
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
	char tmp[48];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[n++] = '-';
	for (int i = 0; i < n && (size_t)i + 1 < size; i++)
		buf[i] = tmp[n - 1 - i];
	buf[MIN((size_t)n, size - 1)] = '\0';
	return buf;
}

static void print_hists(struct ptk_sink *s, const struct ptk_agg_result *res,
			const struct ptk_agg_row *rows, size_t n)
{
	struct json_object *arr = s->fmt == PTK_FMT_JSON ? json_object_new_array() : NULL;
	struct ptk_table ktab = { "keys", res->cols, res->nkeys };

	for (size_t j = 0; j < n; j++) {
		const struct ptk_agg_row *w = &rows[j];
		struct ptk_hist h = { .unit = res->unit };
		bool first = true;

		memcpy(h.slot, w->slot, sizeof(h.slot));
		if (res->mode == PTK_AGG_LHIST) {
			h.linear = true;
			h.lin_min = res->lin_min;
			h.lin_step = res->lin_step;
		}
		if (arr) {
			struct json_object *o = ptk_json_row(&ktab, w->v);

			json_object_object_add(o, "hist", ptk_hist_json(&h));
			json_object_object_add(o, "below", json_object_new_uint64(w->below));
			json_object_object_add(o, "above", json_object_new_uint64(w->above));
			json_object_object_add(o, "sum", json_object_new_int64(w->hsum));
			json_object_array_add(arr, o);
			continue;
		}
		if (res->nkeys) {
			fputc('\n', s->out);
			print_frames(s->out, res, w);
			for (int i = 0; i < res->nkeys; i++) {
				char buf[256];

				if (res->keys[i].stack)
					continue;
				fprintf(s->out, "%s%s = %s", first ? "" : ", ", res->cols[i].name,
					ptk_metric_fmt(&res->cols[i], &w->v[i], buf, sizeof(buf)));
				first = false;
			}
			if (!first)
				fputc('\n', s->out);
		}
		ptk_hist_print(s->out, &h);
		if (!w->below && !w->above)
			continue;
		if (res->mode == PTK_AGG_LHIST) {
			char end[48];

			fprintf(s->out,
				"outside the histogram: %" PRIu64 " below %" PRId64 ", %" PRIu64
				" at or above %s\n",
				w->below, res->lin_min, w->above,
				dec128((__int128)res->lin_min +
					       (__int128)res->lin_nslots * res->lin_step,
				       end, sizeof(end)));
		} else
			fprintf(s->out, "outside the histogram: %" PRIu64 " negative values\n",
				w->below);
	}
	if (arr)
		ptk_sink_meta_json(s, "histograms", arr);
}

void ptk_agg_print(struct ptk_sink *s, struct ptk_agg_result *res, const struct ptk_agg_row *rows,
		   size_t n)
{
	if (ptk_agg_is_hist(res->mode))
		print_hists(s, res, rows, n);
	else
		print_counts(s, res, rows, n);
}

void ptk_agg_rows_free(struct ptk_agg_row *rows, size_t n)
{
	for (size_t j = 0; j < n; j++)
		for (int k = 0; k < PTK_AGG_MAX_KEYS; k++) {
			free(rows[j].str[k]);
			for (int i = 0; i < rows[j].nframes[k]; i++)
				free(rows[j].frames[k][i]);
			free(rows[j].frames[k]);
			free(rows[j].addrs[k]);
		}
}
