// SPDX-License-Identifier: GPL-2.0
/*
 * ptk metrics: list the metric registry (model/registry.h), the one description of every
 * metric that the text columns, JSON keys, the exposition and the archive render from: a
 * text table, NDJSON (one object per metric), or tbl(1) rows for a man page's table
 * (output/metricdoc.h). It walks ptk_registry[] and knows no metric by name.
 */
#include <json-c/json.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "output/metricdoc.h"

static const char usage[] =
	"usage: ptk metrics [--json | --man] [--prom] [PATTERN...]\n"
	"List the metric registry: every metric ptk shows, described once, with its column\n"
	"title, JSON key, unit, kind, precision, Prometheus family, what it is computed from\n"
	"and its help text (meaning and kernel source).\n"
	"  PATTERN     shell glob matched against the JSON key, the column title and the\n"
	"              Prometheus family: 'cpu_*' is the cpu area, '%util' one column\n"
	"  --prom      only the metrics the exporter serves (those with a Prometheus family)\n"
	"  --json      one JSON object per metric (NDJSON)\n"
	"  --man       tbl(1) input for a man page table: .TS, one row per metric, .TE\n"
	"Exit status 1 when patterns were given and none matched.\n";

static bool selected(const struct ptk_metric *m, char **pats, int npats, bool prom_only)
{
	if (prom_only && !(m->prom && *m->prom))
		return false;
	if (!npats)
		return true;
	for (int i = 0; i < npats; i++)
		if (ptk_metric_match(m, pats[i]))
			return true;
	return false;
}

int cmd_metrics(struct ptk_ctx *ctx, int argc, char **argv)
{
	enum { OPT_MAN = 0x100, OPT_PROM };
	static const struct option opts[] = { { "man", no_argument, NULL, OPT_MAN },
					      { "prom", no_argument, NULL, OPT_PROM },
					      PTK_COMMON_OPTS,
					      { 0 } };
	bool man = false, prom_only = false;
	int c, r, matched = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_MAN) {
			man = true;
			continue;
		}
		if (c == OPT_PROM) {
			prom_only = true;
			continue;
		}
		r = ptk_common_opt(ctx, c, optarg);
		if (r == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (r < 0)
			return ptk_usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
	}
	if (man && ctx->json)
		return ptk_usage_error(ctx, "--man and --json exclude each other");
	if (ctx->procfs || ctx->sysfs)
		return ptk_usage_error(ctx, "--procfs and --sysfs do not apply: the registry "
					    "is built in");

	char **pats = argv + optind;
	int npats = argc - optind;

	if (man)
		ptk_metric_doc_man_begin(stdout);
	else if (!ctx->json)
		ptk_metric_doc_text_header(stdout);
	for (int i = 1; i < PTK_M_COUNT; i++) {
		const struct ptk_metric *m = &ptk_registry[i];

		if (!selected(m, pats, npats, prom_only))
			continue;
		matched++;
		if (man) {
			ptk_metric_doc_man_row(stdout, m);
		} else if (ctx->json) {
			struct json_object *o = ptk_metric_doc_json(m);
			puts(json_object_to_json_string_ext(
				o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		} else {
			ptk_metric_doc_text_row(stdout, m);
		}
	}
	if (man)
		ptk_metric_doc_man_end(stdout);
	if (npats && !matched) {
		ptk_err("no metric matches");
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}
