// SPDX-License-Identifier: GPL-2.0
/* Prometheus text 0.0.4 and OpenMetrics 1.0 rendering of struct ptk_metric descriptions. */
#include "output/prom.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *ptk_prom_content_type(enum ptk_prom_fmt fmt)
{
	return fmt == PTK_PROM_OPENMETRICS ?
		       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		       "text/plain; version=0.0.4; charset=utf-8";
}

enum ptk_prom_fmt ptk_prom_negotiate(const char *accept)
{
	const char *p = accept;

	/* "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4" */
	while (p && *p) {
		size_t len = strcspn(p, ",");
		const char *t = p;
		while (t < p + len && (*t == ' ' || *t == '\t'))
			t++;
		if (!strncasecmp(t, "application/openmetrics-text", 28)) {
			const char *q = t;
			bool zero = false;
			while ((q = memchr(q, ';', p + len - q))) {
				q++;
				while (*q == ' ')
					q++;
				if (!strncasecmp(q, "q=", 2)) {
					double qv = strtod(q + 2, NULL);
					zero = qv <= 0;
				}
			}
			if (!zero)
				return PTK_PROM_OPENMETRICS;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return PTK_PROM_TEXT;
}

void ptk_prom_init(struct ptk_prom *p, enum ptk_prom_fmt fmt)
{
	memset(p, 0, sizeof(*p));
	p->fmt = fmt;
	p->created = -1;
	p->cap = 16384;
	p->buf = xmalloc(p->cap);
	p->buf[0] = '\0';
}

void ptk_prom_free(struct ptk_prom *p)
{
	free(p->buf);
	p->buf = NULL;
	p->len = p->cap = 0;
}

static void buf_append(struct ptk_prom *p, const char *s, size_t n)
{
	if (p->len + n + 1 > p->cap) {
		while (p->len + n + 1 > p->cap)
			p->cap *= 2;
		p->buf = xrealloc(p->buf, p->cap);
	}
	memcpy(p->buf + p->len, s, n);
	p->len += n;
	p->buf[p->len] = '\0';
}

static void buf_append_str(struct ptk_prom *p, const char *s)
{
	buf_append(p, s, strlen(s));
}

static void buf_appendf(struct ptk_prom *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void buf_appendf(struct ptk_prom *p, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_append(p, tmp, MIN((size_t)n, sizeof(tmp) - 1));
}

/* Escape for HELP (quote = false: \\ and \n, as the text format; OpenMetrics also \") or
 * for a label value (quote = true: \\, \" and \n in both formats). */
static void put_escaped(struct ptk_prom *p, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			buf_append_str(p, "\\\\");
		else if (*s == '\n')
			buf_append_str(p, "\\n");
		else if (*s == '"' && quote)
			buf_append_str(p, "\\\"");
		else
			buf_append(p, s, 1);
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The metric's name in the exposition: its Prometheus family, else its key. */
static const char *name_of(const struct ptk_metric *m)
{
	return m->prom ? m->prom : m->key;
}

static bool is_counter(const struct ptk_metric *m)
{
	return m->kind == PTK_COUNTER && ends_with(name_of(m), "_total");
}

/* The family name: the key, without "_total" for an OpenMetrics counter. */
static void append_family(struct ptk_prom *p, const struct ptk_metric *m)
{
	size_t n = strlen(name_of(m));

	if (p->fmt == PTK_PROM_OPENMETRICS && is_counter(m))
		n -= 6;
	buf_append(p, name_of(m), n);
}

static void header(struct ptk_prom *p, const struct ptk_metric *m, const char *type)
{
	bool om = p->fmt == PTK_PROM_OPENMETRICS;

	p->created = -1;
	buf_append_str(p, "# HELP ");
	append_family(p, m);
	buf_append(p, " ", 1);
	put_escaped(p, m->help ? m->help : "", om);
	buf_append_str(p, "\n# TYPE ");
	append_family(p, m);
	buf_appendf(p, " %s\n", type);
	if (om && m->unit && m->unit[0]) {
		char suffix[64];
		char fam[256];
		size_t n = strlen(name_of(m)) - (is_counter(m) ? 6 : 0);
		snprintf(fam, sizeof(fam), "%.*s", (int)n, name_of(m));
		snprintf(suffix, sizeof(suffix), "_%s", m->unit);
		if (ends_with(fam, suffix)) /* OpenMetrics: the unit must suffix the name */
			buf_appendf(p, "# UNIT %s %s\n", fam, m->unit);
	}
}

static void family(struct ptk_prom *p, const struct ptk_metric *m)
{
	const char *type;

	if (m->kind == PTK_GAUGE || m->kind == PTK_RATE || m->kind == PTK_PCT)
		type = "gauge";
	else if (is_counter(m))
		type = "counter";
	else
		type = p->fmt == PTK_PROM_OPENMETRICS ? "unknown" : "untyped";
	header(p, m, type);
}

void ptk_prom_family(struct ptk_prom *p, const struct ptk_metric *m)
{
	family(p, m);
	if (p->twin)
		family(p->twin, m);
}

void ptk_prom_fmt_double(double x, char *buf, size_t size)
{
	if (isnan(x)) {
		snprintf(buf, size, "NaN");
	} else if (isinf(x)) {
		snprintf(buf, size, x > 0 ? "+Inf" : "-Inf");
	} else {
		/* shortest of %.15g .. %.17g that reads back exactly */
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(buf, size, "%.*g", prec, x);
			if (strtod(buf, NULL) == x)
				break;
		}
	}
}

/* name{labels[,extra="xv"]} */
static void put_series(struct ptk_prom *p, const char *name, const char *suffix,
		       const char *const *labels, const char *extra, const char *xv)
{
	bool any = false;

	buf_append_str(p, name);
	if (suffix)
		buf_append_str(p, suffix);
	for (int i = 0; labels && labels[i] && labels[i + 1]; i += 2) {
		buf_append(p, any ? "," : "{", 1);
		buf_append_str(p, labels[i]);
		buf_append_str(p, "=\"");
		put_escaped(p, labels[i + 1], true);
		buf_append(p, "\"", 1);
		any = true;
	}
	if (extra) {
		buf_append(p, any ? "," : "{", 1);
		buf_appendf(p, "%s=\"%s\"", extra, xv);
		any = true;
	}
	if (any)
		buf_append(p, "}", 1);
}

static void put_created(struct ptk_prom *p, const char *family, const char *const *labels)
{
	char num[64];

	if (p->fmt != PTK_PROM_OPENMETRICS || p->created < 0)
		return;
	put_series(p, family, "_created", labels, NULL, NULL);
	ptk_prom_fmt_double(p->created, num, sizeof(num));
	buf_appendf(p, " %s\n", num);
}

void ptk_prom_sample(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
		     const struct ptk_val *v)
{
	char num[64];

	if (v->na)
		return;
	switch (m->type) {
	case PTK_V_U64:
		snprintf(num, sizeof(num), "%" PRIu64, v->u);
		break;
	case PTK_V_S64:
		snprintf(num, sizeof(num), "%" PRId64, v->i);
		break;
	case PTK_V_F64:
		ptk_prom_fmt_double(v->f, num, sizeof(num));
		break;
	default:
		return; /* strings are labels, not values */
	}
	size_t start = p->len;
	put_series(p, name_of(m), NULL, labels, NULL, NULL);
	buf_append(p, " ", 1);
	buf_append_str(p, num);
	buf_append(p, "\n", 1);
	/* the sample line is the same in both formats */
	if (p->twin)
		buf_append(p->twin, p->buf + start, p->len - start);
	if (is_counter(m)) {
		char fam[256];
		snprintf(fam, sizeof(fam), "%.*s", (int)(strlen(name_of(m)) - 6), name_of(m));
		put_created(p, fam, labels);
		if (p->twin) {
			p->twin->created = p->created;
			put_created(p->twin, fam, labels);
		}
	}
}

static void histogram(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
		      const double *le, const u64 *cum, int n, double sum, u64 count)
{
	char num[64], bound[64];
	double created = p->created;

	header(p, m, "histogram");
	p->created = created;
	for (int i = 0; i < n; i++) {
		ptk_prom_fmt_double(le[i], bound, sizeof(bound));
		put_series(p, name_of(m), "_bucket", labels, "le", bound);
		buf_appendf(p, " %" PRIu64 "\n", cum[i]);
	}
	put_series(p, name_of(m), "_bucket", labels, "le", "+Inf");
	buf_appendf(p, " %" PRIu64 "\n", count);
	put_series(p, name_of(m), "_sum", labels, NULL, NULL);
	ptk_prom_fmt_double(sum, num, sizeof(num));
	buf_appendf(p, " %s\n", num);
	put_series(p, name_of(m), "_count", labels, NULL, NULL);
	buf_appendf(p, " %" PRIu64 "\n", count);
	put_created(p, name_of(m), labels);
}

void ptk_prom_histogram(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
			const double *le, const u64 *cum, int n, double sum, u64 count)
{
	histogram(p, m, labels, le, cum, n, sum, count);
	if (p->twin) {
		p->twin->created = p->created;
		histogram(p->twin, m, labels, le, cum, n, sum, count);
	}
}

void ptk_prom_end(struct ptk_prom *p)
{
	if (p->fmt == PTK_PROM_OPENMETRICS)
		buf_append_str(p, "# EOF\n");
	if (p->twin)
		ptk_prom_end(p->twin);
}
