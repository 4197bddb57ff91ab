// SPDX-License-Identifier: GPL-2.0
/* Metric documentation sinks (output/metricdoc.h). */
#include "output/metricdoc.h"

#include <fnmatch.h>
#include <json-c/json.h>

#include "lib/util.h"

static const char *const kind_names[] = {
	[PTK_GAUGE] = "gauge",
	[PTK_COUNTER] = "counter",
	[PTK_RATE] = "rate",
	[PTK_PCT] = "pct",
};

static const char *const type_names[] = {
	[PTK_V_STR] = "str",
	[PTK_V_U64] = "u64",
	[PTK_V_S64] = "s64",
	[PTK_V_F64] = "f64",
};

const char *ptk_metric_kind_name(enum ptk_kind kind)
{
	return (unsigned)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}

const char *ptk_metric_type_name(enum ptk_vtype type)
{
	return (unsigned)type < ARRAY_SIZE(type_names) ? type_names[type] : "?";
}

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

bool ptk_metric_match(const struct ptk_metric *m, const char *pat)
{
	return (m->key && !fnmatch(pat, m->key, 0)) || (m->name && !fnmatch(pat, m->name, 0)) ||
	       (m->prom && !fnmatch(pat, m->prom, 0));
}

struct json_object *ptk_metric_doc_json(const struct ptk_metric *m)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "key", json_object_new_string(str_or(m->key, "")));
	json_object_object_add(o, "name", json_object_new_string(str_or(m->name, "")));
	json_object_object_add(o, "unit", json_object_new_string(str_or(m->unit, "")));
	json_object_object_add(o, "kind", json_object_new_string(ptk_metric_kind_name(m->kind)));
	json_object_object_add(o, "type", json_object_new_string(ptk_metric_type_name(m->type)));
	json_object_object_add(o, "width", json_object_new_int(m->width));
	json_object_object_add(o, "prec", json_object_new_int(m->prec));
	json_object_object_add(o, "prom", m->prom ? json_object_new_string(m->prom) : NULL);
	json_object_object_add(o, "from", m->from ? json_object_new_string(m->from) : NULL);
	json_object_object_add(o, "help", json_object_new_string(str_or(m->help, "")));
	return o;
}

void ptk_metric_doc_text_header(FILE *f)
{
	fprintf(f, "%-24s %-10s %-6s %-7s %4s  %-40s %s\n", "KEY", "TITLE", "UNIT", "KIND", "PREC",
		"PROMETHEUS", "HELP");
}

void ptk_metric_doc_text_row(FILE *f, const struct ptk_metric *m)
{
	fprintf(f, "%-24s %-10s %-6s %-7s %4d  %-40s %s\n", str_or(m->key, "-"),
		str_or(m->name, "-"), str_or(m->unit, "-"), ptk_metric_kind_name(m->kind), m->prec,
		str_or(m->prom, "-"), str_or(m->help, "-"));
}

/* troff text: a backslash is \e, a hyphen \-, a tab or newline a space (they would end a
 * cell or the row), and a line must not start with a control character (. or '). */
static void put_troff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\t' || *s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

void ptk_metric_doc_man_begin(FILE *f)
{
	fputs(".TS\ntab(\t);\nlB lB lB lB lB\nl l l l lx.\n"
	      "KEY\tTITLE\tUNIT\tKIND\tDESCRIPTION\n_\n",
	      f);
}

void ptk_metric_doc_man_row(FILE *f, const struct ptk_metric *m)
{
	put_troff(f, str_or(m->key, "-"));
	fputc('\t', f);
	put_troff(f, str_or(m->name, "-"));
	fputc('\t', f);
	put_troff(f, str_or(m->unit, "-"));
	fprintf(f, "\t%s\tT{\n", ptk_metric_kind_name(m->kind));
	put_troff(f, str_or(m->help, "-"));
	if (m->prom && *m->prom) {
		fputs(" Prometheus: ", f);
		put_troff(f, m->prom);
		fputc('.', f);
	}
	fputs("\nT}\n", f);
}

void ptk_metric_doc_man_end(FILE *f)
{
	fputs(".TE\n", f);
}
