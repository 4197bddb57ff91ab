// SPDX-License-Identifier: GPL-2.0
#include "output/sysstat.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* sysstat's colour limits of a percentage (its PERCENT_LIMIT_XHIGH and _HIGH) */
#define PCT_XTREME 90.0
#define PCT_WARN 75.0

static int precision(const struct ptk_sfmt *fmt, const struct ptk_metric *m)
{
	return m->prec > 0 && fmt->dec >= 0 ? fmt->dec : m->prec;
}

/* Whether a value prints as zero at prec decimals (sysstat's "round half to even" test). */
static bool zeroish(double v, int prec)
{
	double lim = prec == 1 ? 0.05 : 0.005;

	return prec > 0 ? v < lim && v > -lim : v <= 0.5 && v >= -0.5;
}

static double as_double(const struct ptk_metric *m, const struct ptk_val *v)
{
	return m->type == PTK_V_F64 ? v->f : m->type == PTK_V_S64 ? (double)v->i : (double)v->u;
}

/* sysstat's cprintf_unit(): value in the unit letter u, scaled by 1024 */
static void unit_cell(const struct ptk_sfmt *fmt, int width, char u, double val)
{
	static const char units[] = "BkMGTP?";
	const char *p = strchr(units, u);
	int i = p ? (int)(p - units) : 1;

	if (width < 4)
		width = 4;
	while (val >= 1024 && i < (int)sizeof(units) - 2) {
		val /= 1024;
		i++;
	}
	fprintf(fmt->f, " %*.*f%s%c", width - 1, fmt->dec ? 1 : 0, val,
		ptk_sgr(fmt->env, PTK_SGR_NORMAL), units[i]);
}

void ptk_scell(const struct ptk_sfmt *fmt, enum ptk_scell kind, const struct ptk_metric *m,
	       int width, char human, const struct ptk_val *v)
{
	FILE *f = fmt->f;
	const char *normal = ptk_sgr(fmt->env, PTK_SGR_NORMAL);
	int prec = precision(fmt, m);

	if (!width)
		width = m->width < 0 ? -m->width : m->width;
	if (v->na) {
		fprintf(f, "%s %*s%s",
			ptk_sgr(fmt->env, kind == PTK_SC_ITEM ? PTK_SGR_ITEM : PTK_SGR_ZERO), width,
			"-", normal);
		return;
	}
	if (kind == PTK_SC_ITEM || kind == PTK_SC_STR || m->type == PTK_V_STR) {
		enum ptk_sgr k = kind == PTK_SC_ITEM ? PTK_SGR_ITEM : PTK_SGR_INT;
		if (m->type == PTK_V_STR)
			fprintf(f, "%s %*s%s", ptk_sgr(fmt->env, k), width, v->s, normal);
		else if (m->type == PTK_V_S64)
			fprintf(f, "%s %*" PRId64 "%s", ptk_sgr(fmt->env, k), width, v->i, normal);
		else if (m->type == PTK_V_U64)
			fprintf(f, "%s %*" PRIu64 "%s", ptk_sgr(fmt->env, k), width, v->u, normal);
		else
			fprintf(f, "%s %*.*f%s", ptk_sgr(fmt->env, k), width, prec, v->f, normal);
		return;
	}
	double val = as_double(m, v);
	if (kind == PTK_SC_PCT) {
		if (fmt->human) {
			width = MAX(width, 4) - 1;
			if (prec > 1)
				prec--;
		}
		enum ptk_sgr k = val >= PCT_XTREME  ? PTK_SGR_XTREME :
				 val >= PCT_WARN    ? PTK_SGR_WARN :
				 zeroish(val, prec) ? PTK_SGR_ZERO :
						      PTK_SGR_INT;
		fprintf(f, "%s %*.*f%s%s", ptk_sgr(fmt->env, k), width, prec, val, normal,
			fmt->human ? "%" : "");
		return;
	}
	fputs(ptk_sgr(fmt->env, zeroish(val, prec) ? PTK_SGR_ZERO : PTK_SGR_INT), f);
	if (fmt->human && human) {
		unit_cell(fmt, width, human == 'B' ? 'B' : 'k', human == 'B' ? val * 1024 : val);
		return;
	}
	if (m->type == PTK_V_F64)
		fprintf(f, " %*.*f%s", width, prec, val, normal);
	else if (m->type == PTK_V_S64)
		fprintf(f, " %*" PRId64 "%s", width, v->i, normal);
	else
		fprintf(f, " %*" PRIu64 "%s", width, v->u, normal);
}

void ptk_sstr(const struct ptk_sfmt *fmt, enum ptk_sgr k, const char *pre, const char *s,
	      const char *post)
{
	fprintf(fmt->f, "%s%s%s%s%s", ptk_sgr(fmt->env, k), pre, s, post,
		ptk_sgr(fmt->env, PTK_SGR_NORMAL));
}

/* ---- -o JSON ---- */

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void ptk_sjson_begin(struct ptk_sjson *j, FILE *f, const struct ptk_host *h, int ncpu,
		     const char *date)
{
	int dec = j->dec;

	memset(j, 0, sizeof(*j));
	j->f = f;
	j->dec = dec;
	fputs("{\"sysstat\": {\n\t\"hosts\": [\n\t\t{\n\t\t\t\"nodename\": ", f);
	jstr(f, h->host);
	fputs(",\n\t\t\t\"sysname\": ", f);
	jstr(f, h->sys);
	fputs(",\n\t\t\t\"release\": ", f);
	jstr(f, h->rel);
	fputs(",\n\t\t\t\"machine\": ", f);
	jstr(f, h->mach);
	fprintf(f, ",\n\t\t\t\"number-of-cpus\": %d,\n\t\t\t\"date\": ", ncpu);
	jstr(f, date);
	fputs(",\n\t\t\t\"statistics\": [\n", f);
}

static void close_section(struct ptk_sjson *j)
{
	if (!j->in_sec)
		return;
	fputs("\n\t\t\t\t\t]", j->f);
	j->in_sec = false;
}

void ptk_sjson_stat(struct ptk_sjson *j, const char *timestamp)
{
	if (j->nstat) {
		close_section(j);
		fputs("\n\t\t\t\t},\n", j->f);
	}
	j->nstat++;
	j->npair = 0;
	fputs("\t\t\t\t{\n", j->f);
	if (timestamp) {
		fputs("\t\t\t\t\t\"timestamp\": ", j->f);
		jstr(j->f, timestamp);
		j->npair++;
	}
}

/* The next pair of the statistics element: after the timestamp or the section before */
static void stat_key(struct ptk_sjson *j, const char *name)
{
	close_section(j);
	fputs(j->npair++ ? ",\n\t\t\t\t\t" : "\t\t\t\t\t", j->f);
	jstr(j->f, name);
}

void ptk_sjson_section(struct ptk_sjson *j, const char *name)
{
	stat_key(j, name);
	fputs(": [\n", j->f);
	j->in_sec = true;
	j->nrow = 0;
}

void ptk_sjson_object(struct ptk_sjson *j, const char *name)
{
	stat_key(j, name);
	fputs(":  {", j->f);
	j->nkv = 0;
}

void ptk_sjson_row_begin(struct ptk_sjson *j)
{
	fputs(j->nrow++ ? ",\n\t\t\t\t\t\t{" : "\t\t\t\t\t\t{", j->f);
	j->nkv = 0;
}

static void key(struct ptk_sjson *j, const char *k)
{
	if (j->nkv++)
		fputs(", ", j->f);
	jstr(j->f, k);
	fputs(": ", j->f);
}

void ptk_sjson_str(struct ptk_sjson *j, const char *k, const char *s)
{
	key(j, k);
	if (s)
		jstr(j->f, s);
	else
		fputs("null", j->f);
}

static const char *sjson_key(const struct ptk_metric *m)
{
	return m->sjson ? m->sjson : m->name[0] == '%' ? m->name + 1 : m->name;
}

void ptk_sjson_val(struct ptk_sjson *j, const struct ptk_metric *m, const struct ptk_val *v)
{
	key(j, sjson_key(m));
	if (v->na)
		fputs("null", j->f);
	else if (m->type == PTK_V_STR)
		jstr(j->f, v->s);
	else if (m->type == PTK_V_U64)
		fprintf(j->f, "%" PRIu64, v->u);
	else if (m->type == PTK_V_S64)
		fprintf(j->f, "%" PRId64, v->i);
	else if (!isfinite(v->f))
		fputs("null", j->f);
	else
		fprintf(j->f, "%.*f", m->prec > 0 && j->dec >= 0 ? j->dec : m->prec, v->f);
}

void ptk_sjson_id(struct ptk_sjson *j, const struct ptk_metric *m, const struct ptk_val *v)
{
	char b[32];

	if (v->na || m->type == PTK_V_STR) {
		ptk_sjson_val(j, m, v);
		return;
	}
	if (m->type == PTK_V_U64)
		snprintf(b, sizeof(b), "%" PRIu64, v->u);
	else if (m->type == PTK_V_S64)
		snprintf(b, sizeof(b), "%" PRId64, v->i);
	else
		snprintf(b, sizeof(b), "%.*f", m->prec, v->f);
	ptk_sjson_str(j, sjson_key(m), b);
}

void ptk_sjson_list_begin(struct ptk_sjson *j, const char *k)
{
	key(j, k);
	fputs("[\n", j->f);
	j->row_nkv = j->nkv;
	j->nitem = 0;
}

void ptk_sjson_item_begin(struct ptk_sjson *j)
{
	fputs(j->nitem++ ? ",\n\t\t\t\t\t\t\t{" : "\t\t\t\t\t\t\t{", j->f);
	j->nkv = 0;
}

void ptk_sjson_list_end(struct ptk_sjson *j)
{
	fputs("\n\t\t\t\t\t\t] ", j->f);
	j->nkv = j->row_nkv;
}

void ptk_sjson_row_end(struct ptk_sjson *j)
{
	fputc('}', j->f);
}

void ptk_sjson_end(struct ptk_sjson *j)
{
	if (j->nstat) {
		close_section(j);
		fputs("\n\t\t\t\t}\n", j->f);
	}
	fputs("\t\t\t]\n\t\t}\n\t]\n}}\n", j->f);
	fflush(j->f);
}
