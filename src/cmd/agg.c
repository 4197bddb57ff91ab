// SPDX-License-Identifier: GPL-2.0
/*
 * ptk agg: count, sum, min/max/avg or histogram any probe (tracepoint, kernel function, user
 * function, USDT probe) keyed by any of its values, or the latency from a function's entry to
 * its return or between two probes: the command line of the aggregation engine
 * (source/bpf/agg.h), which aggregates in the kernel by precompiled programs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "output/pprof.h"
#include "source/bpf/agg.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk agg PROBE [--by KEY[,KEY...]] [--count | --sum V | --min V | --max V |\n"
	"               --avg V | --stats V | --hist V [--linear MIN,MAX,STEP]]\n"
	"               [--filter 'V OP VALUE [&& ...]'] [-T] [-P|-L] [-p PID] [-t TID] [-c COMM]\n"
	"               [--cgroup PATH] [-o FILE.pb.gz] [--json] [interval [count]]\n"
	"       ptk agg --latency PROBE [--by KEY,...] [--hist | --stats lat ...] [-m]\n"
	"       ptk agg --from PROBE --to PROBE [--match V[,V]] [--hist] [--by KEY,...] [-m]\n"
	"Aggregate any probe's events in the kernel: counts (default), the sum, least, greatest\n"
	"or mean of a value, or its histogram, per key; or the latency from a function's entry\n"
	"to its return (--latency), or from --from to --to matched per thread (or where the\n"
	"--match values, or a tracepoint's CAT:EVENT:FIELD, are equal). Without an interval it\n"
	"reports once at Ctrl-C.\n"
	"PROBE: CAT:EVENT (tracepoint; patterns: sched:sched_*), fentry:FUNC, fexit:FUNC,\n"
	"  kprobe:FUNC[+OFF] (fentry where the kernel has trampolines), kretprobe:FUNC,\n"
	"  uprobe:PATH:FUNC[+OFF], uretprobe:PATH:FUNC (PATH a file, a program, or a library by\n"
	"  name: c, libc; with -p among the process's), usdt:PATH:[PROVIDER:]NAME; FUNC and NAME\n"
	"  may be patterns (vfs_*): each match is probed\n"
	"  --by KEY,...       key columns (up to 4, 64 bytes): the probe's values (a tracepoint's\n"
	"                     fields, ARRAY[i]; a kernel function's arguments by name, NAME->member;\n"
	"                     arg0..arg5 of a user function; a USDT probe's arguments; retval at\n"
	"                     a return; casts (u32)V, str(V) for a string, *V for the u64 at V),\n"
	"                     or comm, pid, tid, cgroup, uid, cpu, probe, syscall (its name),\n"
	"                     kstack, ustack (write @comm ... when the probe has a value of that\n"
	"                     name)\n"
	"  --count            events per key (default); --sum V adds SUM and AVG of a value;\n"
	"                     --min V, --max V, --avg V; --stats V: COUNT SUM AVG MIN MAX\n"
	"  --hist V           log2 histogram of V per key; --linear MIN,MAX,STEP: linear\n"
	"  --filter EXPR      only events where every V OP VALUE holds (OP: == != < <= > >=;\n"
	"                     strings: == and !=; a syscall by name); in a pair a value is read\n"
	"                     at the return when it has it, else at the entry\n"
	"  --latency PROBE    histogram of the time (usecs, -m msecs; lat as a value) from the\n"
	"                     function's entry to its return, per thread and stack frame\n"
	"  --from/--to PROBE  the same between two probes\n"
	"  -T                 timestamp each report; -P / -L add pid / tid to the key\n"
	"  -p PID, -t TID, -c COMM, --cgroup PATH   only events from this task (-p: the user\n"
	"                     probes are placed in this process only)\n"
	"  -o FILE.pb.gz      with a kstack key and --count or --sum: also write each report's\n"
	"                     rows as a pprof profile (the stack's frames as locations, the\n"
	"                     other keys as labels, the counts and sums as values)\n"
	"Histogram percentiles are bucket upper bounds.\n";

enum {
	OPT_BY = 0x2000,
	OPT_COUNT,
	OPT_SUM,
	OPT_MIN,
	OPT_MAX,
	OPT_AVG,
	OPT_STATS,
	OPT_HIST,
	OPT_LINEAR,
	OPT_FILTER,
	OPT_FROM,
	OPT_TO,
	OPT_LATENCY,
	OPT_MATCH,
};

/* The options as given, checked together once all are read. */
struct priv {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	const char *linear;
	bool want_hist, want_count;
	int want_value; /* the option of a value (OPT_SUM ... OPT_STATS), 0 none */
	int nvalue; /* how many of them */
	char val[64]; /* its value */
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

/* --sum/--min/--max/--avg/--stats V, --hist [V] */
static int agg_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	if (c == OPT_HIST) {
		p->want_hist = true;
	} else {
		p->want_value = c;
		p->nvalue++;
	}
	if (arg && snprintf(p->val, sizeof(p->val), "%s", arg) >= (int)sizeof(p->val))
		return ptk_usage_error(r->ctx, "field name too long");
	return 0;
}

static enum ptk_agg_mode value_mode(int opt)
{
	switch (opt) {
	case OPT_SUM:
		return PTK_AGG_SUM;
	case OPT_MIN:
		return PTK_AGG_MIN;
	case OPT_MAX:
		return PTK_AGG_MAX;
	case OPT_AVG:
		return PTK_AGG_AVG;
	case OPT_STATS:
		return PTK_AGG_STATS;
	}
	return PTK_AGG_COUNT;
}

/* The combinations, and the probe operand (or --from/--to, --latency). */
static int agg_parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->agg;
	struct ptk_ctx *ctx = r->ctx;
	bool pair = a->from || a->to || a->latency;
	int rc;

	if (p->want_hist + p->want_count + (p->nvalue > 0) > 1 || p->nvalue > 1)
		return ptk_usage_error(
			ctx, "--count, --sum, --min, --max, --avg, --stats and --hist are "
			     "exclusive");
	if (pair) {
		if (a->latency && (a->from || a->to))
			return ptk_usage_error(ctx, "--latency or --from/--to");
		if (!a->latency && (!a->from || !a->to))
			return ptk_usage_error(ctx, "--from and --to go together");
		if (p->want_count || p->linear)
			return ptk_usage_error(ctx, "a latency is a histogram or a value's stats");
		a->mode = p->nvalue ? value_mode(p->want_value) : PTK_AGG_LATENCY;
		if (p->want_hist && p->val[0] && strcmp(p->val, "lat")) {
			a->mode = PTK_AGG_HIST;
			a->value = p->val;
		} else if (p->nvalue) {
			a->value = p->val;
		}
	} else {
		if (a->match)
			return ptk_usage_error(ctx, "--match goes with --from/--to");
		if (optind >= argc)
			return ptk_usage_error(ctx,
					       "missing the probe (CATEGORY:EVENT, uprobe:...)");
		a->event = argv[optind++];
		if (p->want_hist && !p->val[0])
			return ptk_usage_error(ctx, "--hist needs a FIELD (except with a latency)");
		a->mode = p->nvalue    ? value_mode(p->want_value) :
			  p->want_hist ? PTK_AGG_HIST :
					 PTK_AGG_COUNT;
		a->value = p->val;
		if (p->linear) {
			if (!p->want_hist)
				return ptk_usage_error(ctx, "--linear goes with --hist FIELD");
			if ((rc = ptk_agg_linear_parse(p->linear, &a->lin_min, &a->lin_step,
						       &a->lin_nslots, a->err, sizeof(a->err))))
				return agg_error(ctx, a, rc);
			a->mode = PTK_AGG_LHIST;
		}
	}
	return (rc = ptk_agg_parse(a)) ? agg_error(ctx, a, rc) : 0;
}

/* The probes and names, resolved (tracefs, BTF, ELF files), and the tables. */
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
	PTK_BPF_CALL(OPT_MIN, "min", required_argument),
	PTK_BPF_CALL(OPT_MAX, "max", required_argument),
	PTK_BPF_CALL(OPT_AVG, "avg", required_argument),
	PTK_BPF_CALL(OPT_STATS, "stats", required_argument),
	PTK_BPF_CALL(OPT_HIST, "hist", optional_argument),
	PTK_BPF_STR(OPT_LINEAR, "linear", struct priv, linear),
	PTK_BPF_STR(OPT_FILTER, "filter", struct priv, agg.filter),
	PTK_BPF_STR(OPT_FROM, "from", struct priv, agg.from),
	PTK_BPF_STR(OPT_TO, "to", struct priv, agg.to),
	PTK_BPF_STR(OPT_LATENCY, "latency", struct priv, agg.latency),
	PTK_BPF_STR(OPT_MATCH, "match", struct priv, agg.match),
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
