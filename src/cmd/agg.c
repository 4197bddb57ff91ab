// SPDX-License-Identifier: GPL-2.0
/*
 * ptk agg: count, sum or histogram any tracepoint keyed by any of its fields, or the latency
 * between two tracepoints matched by a field: the command line of the aggregation engine
 * (source/bpf/agg.h), which aggregates in the kernel by ONE precompiled program.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "output/pprof.h"
#include "source/bpf/agg.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk agg CAT:EVENT [--by KEY[,KEY...]] [--count | --sum FIELD | --hist FIELD\n"
	"               [--linear MIN,MAX,STEP]] [--filter 'FIELD OP VALUE'] [-T] [-P|-L]\n"
	"               [-p PID] [-t TID] [-c COMM] [--cgroup PATH] [-o FILE.pb.gz] [--json]\n"
	"               [interval [count]]\n"
	"       ptk agg --from CAT:EVENT:FIELD --to CAT:EVENT:FIELD [--hist] [--by KEY,...] [-m]\n"
	"               [--filter ...] [interval [count]]\n"
	"Aggregate any tracepoint in the kernel: event counts (default), the sum of a field, or a\n"
	"histogram of a field, per key; or the latency from --from to --to, matched where the\n"
	"two FIELD values are equal. Without an interval it reports once at Ctrl-C.\n"
	"  --by KEY,...       key columns (up to 4, 64 bytes): fields of the event (numeric,\n"
	"                     char[N], __data_loc strings, ARRAY[i] for an element), or comm, pid,\n"
	"                     tid, cgroup, kstack of the current task (write @comm, @pid ... when\n"
	"                     the event has a field of that name)\n"
	"  --count            events per key (default); --sum FIELD adds SUM and AVG of a field\n"
	"  --hist FIELD       log2 histogram of FIELD per key; --linear MIN,MAX,STEP: linear\n"
	"  --filter EXPR      only events where FIELD OP VALUE (OP: == != < <= > >=; strings: ==\n"
	"                     and !=); with --from/--to the field is looked up in --to first\n"
	"  --from/--to        latency histogram (usecs, -m msecs) between two tracepoints\n"
	"  -T                 timestamp each report; -P / -L add pid / tid to the key\n"
	"  -p PID, -t TID, -c COMM, --cgroup PATH   only events from this current task\n"
	"  -o FILE.pb.gz      with a kstack key and --count or --sum: also write each report's\n"
	"                     rows as a pprof profile (the stack's frames as locations, the\n"
	"                     other keys as labels, the counts and sums as values)\n"
	"Histogram percentiles are bucket upper bounds.\n";

enum {
	OPT_BY = 0x2000,
	OPT_COUNT,
	OPT_SUM,
	OPT_HIST,
	OPT_LINEAR,
	OPT_FILTER,
	OPT_FROM,
	OPT_TO,
	OPT_OUTPUT,
};

/* The options as given, checked together once all are read. */
struct priv {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	const char *linear;
	bool want_hist, want_sum, want_count;
	char val[64]; /* --sum / --hist FIELD */
	const char *outpath; /* -o FILE.pb.gz */
};

/* The report's rows as a pprof profile: the first stack key's frames as the locations (by
 * name), the other keys as labels, the count (and sum) as values. */
static void pprof_rows(struct ptk_agg *a, const struct ptk_agg_row *rows, size_t n)
{
	struct priv *p = (struct priv *)a; /* the engine is its first member */
	const struct ptk_agg_result *res = &a->res;
	struct ptk_pprof *pp = ptk_pprof_new();
	int sk = -1, err;

	for (int k = 0; k < res->nkeys && sk < 0; k++)
		if (res->keys[k].stack)
			sk = k;
	ptk_pprof_sample_type(pp, "events", "count");
	if (res->mode == PTK_AGG_SUM)
		ptk_pprof_sample_type(pp, "sum", "count");
	ptk_pprof_comment(pp, a->desc);
	for (size_t i = 0; i < n; i++) {
		const struct ptk_agg_row *w = &rows[i];
		struct ptk_pprof_label lab[PTK_AGG_MAX_KEYS];
		u64 locs[256];
		s64 v[2] = { (s64)w->count, w->sum };
		int nl = 0, nf = 0;
		for (int k = 0; k < res->nkeys; k++) {
			if (k == sk)
				continue;
			lab[nl] = (struct ptk_pprof_label){ .key = res->keys[k].name };
			if (res->keys[k].type == PTK_V_STR)
				lab[nl].str = w->str[k] ? w->str[k] : "";
			else
				lab[nl].num =
					res->keys[k].type == PTK_V_S64 ? w->v[k].i : (s64)w->v[k].u;
			nl++;
		}
		for (int f = 0; f < w->nframes[sk] && nf < (int)ARRAY_SIZE(locs); f++) {
			/* the function: the frame without its "+0x1a" offset */
			char fn[256];
			const char *fr = w->frames[sk][f], *plus = strstr(fr, "+0x");
			snprintf(fn, sizeof(fn), "%.*s", (int)(plus ? plus - fr : (long)strlen(fr)),
				 fr);
			locs[nf++] = ptk_pprof_location(pp, 0, 0, fn, NULL, 0);
		}
		ptk_pprof_sample(pp, locs, nf, v, lab, nl);
	}
	err = ptk_pprof_save(pp, p->outpath);
	if (err)
		ptk_err("cannot write %s: %s", p->outpath, strerror(-err));
	ptk_pprof_free(pp);
}

/* An engine error: -EINVAL a usage error, else a runtime one. */
static int agg_error(struct ptk_ctx *ctx, const struct ptk_agg *a, int rc)
{
	if (rc == -EINVAL)
		return ptk_usage_error(ctx, "%s", a->err);
	ptk_err("%s", a->err);
	return PTK_EXIT_RUNTIME;
}

/* "--hist FIELD" (separate word) -> "--hist=FIELD": --hist alone is valid with --from/--to,
 * so its argument is optional; a field name never holds ':' and is never a number. */
static void join_hist_arg(int argc, char **argv, char **out, int *outc)
{
	static char buf[256];
	int n = 0;

	for (int i = 0; i < argc; i++) {
		double d;
		if (!strcmp(argv[i], "--hist") && i + 1 < argc && argv[i + 1][0] != '-' &&
		    !strchr(argv[i + 1], ':') && ptk_parse_double(argv[i + 1], &d) &&
		    strlen(argv[i + 1]) < sizeof(buf) - 8) {
			snprintf(buf, sizeof(buf), "--hist=%s", argv[i + 1]);
			out[n++] = buf;
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--"))
			while (i < argc)
				out[n++] = argv[i++];
		else
			out[n++] = argv[i];
	}
	out[n] = NULL;
	*outc = n;
}

/* --sum FIELD, --hist [FIELD] */
static int agg_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	if (c == OPT_SUM)
		p->want_sum = true;
	else
		p->want_hist = true;
	if (arg && snprintf(p->val, sizeof(p->val), "%s", arg) >= (int)sizeof(p->val))
		return ptk_usage_error(r->ctx, "field name too long");
	return 0;
}

/* The combinations, and the tracepoint operand (or --from/--to). */
static int agg_parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->agg;
	struct ptk_ctx *ctx = r->ctx;
	int rc;

	if (p->want_sum + p->want_hist + p->want_count > 1)
		return ptk_usage_error(ctx, "--count, --sum and --hist are exclusive");
	if (a->from || a->to) {
		if (!a->from || !a->to)
			return ptk_usage_error(ctx, "--from and --to go together");
		if (p->want_sum || p->want_count || p->linear || p->val[0])
			return ptk_usage_error(ctx,
					       "--from/--to give a latency histogram: only --hist");
		a->mode = PTK_AGG_LATENCY;
		return (rc = ptk_agg_parse(a)) ? agg_error(ctx, a, rc) : 0;
	}
	if (optind >= argc)
		return ptk_usage_error(ctx, "missing the tracepoint (CATEGORY:EVENT)");
	a->event = argv[optind++];
	if ((rc = ptk_agg_parse(a)))
		return agg_error(ctx, a, rc);
	if (p->want_hist && !p->val[0])
		return ptk_usage_error(ctx, "--hist needs a FIELD (except with --from/--to)");
	a->mode = p->want_sum ? PTK_AGG_SUM : p->want_hist ? PTK_AGG_HIST : PTK_AGG_COUNT;
	a->value = p->val;
	if (p->linear) {
		if (!p->want_hist)
			return ptk_usage_error(ctx, "--linear goes with --hist FIELD");
		if ((rc = ptk_agg_linear_parse(p->linear, &a->lin_min, &a->lin_step, &a->lin_nslots,
					       a->err, sizeof(a->err))))
			return agg_error(ctx, a, rc);
		a->mode = PTK_AGG_LHIST;
	}
	return 0;
}

/* The fields, from the tracepoints' formats (tracefs), and the tables. */
static int agg_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int rc;

	/* signals from here on stop cleanly (tracefs may be mounted while reading formats) */
	if ((rc = ptk_ctx_ready(r->ctx)))
		return rc;
	if ((rc = ptk_agg_prepare(&p->agg, &r->filter, r)))
		rc = agg_error(r->ctx, &p->agg, rc);
	else if (r->ctx->stop)
		rc = PTK_BPF_DONE;
	if (!rc && p->outpath) {
		bool stack = false;
		for (int k = 0; k < p->agg.res.nkeys; k++)
			stack |= p->agg.res.keys[k].stack;
		if (!ptk_pprof_path(p->outpath))
			rc = ptk_usage_error(r->ctx,
					     "-o: a pprof file FILE.pb.gz or FILE.pprof, not "
					     "'%s'",
					     p->outpath);
		else if (!stack || ptk_agg_is_hist(p->agg.mode))
			rc = ptk_usage_error(r->ctx,
					     "-o %s: pprof needs a kstack key and --count or "
					     "--sum",
					     p->outpath);
		else
			p->agg.on_rows = pprof_rows;
	}
	if (rc)
		ptk_tracefs_release();
	return rc;
}

static const struct ptk_bpf_opt agg_opts[] = {
	PTK_BPF_STR(OPT_BY, "by", struct priv, agg.by),
	PTK_BPF_FLAG(OPT_COUNT, "count", struct priv, want_count),
	PTK_BPF_CALL(OPT_SUM, "sum", required_argument),
	PTK_BPF_CALL(OPT_HIST, "hist", optional_argument),
	PTK_BPF_STR(OPT_LINEAR, "linear", struct priv, linear),
	PTK_BPF_STR(OPT_FILTER, "filter", struct priv, agg.filter),
	PTK_BPF_STR(OPT_FROM, "from", struct priv, agg.from),
	PTK_BPF_STR(OPT_TO, "to", struct priv, agg.to),
	PTK_BPF_STR('o', "output", struct priv, outpath),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "agg",
	.usage = usage,
	.opts = agg_opts,
	.common = PTK_BPF_OPT_ALL,
	.operands = PTK_BPF_INTERVAL_COUNT,
	.opt = agg_opt,
	.parsed = agg_parsed,
	.prepare = agg_prepare,
	PTK_AGG_OPS,
};

int cmd_agg(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;
	char **av = calloc(argc + 1, sizeof(*av));
	int ac, rc;

	if (!av)
		return PTK_EXIT_RUNTIME;
	memset(&p, 0, sizeof(p));
	join_hist_arg(argc, argv, av, &ac);
	rc = ptk_bpf_main(ctx, &ops, &p, ac, av);
	free(av);
	return rc;
}
