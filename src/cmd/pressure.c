// SPDX-License-Identifier: GPL-2.0
/*
 * ptk pressure: pressure stall information (PSI, kernel >= 4.20, kernel/sched/psi.c) for cpu,
 * memory and io. For each resource and kind (some: at least one task stalled; full: all
 * non-idle tasks stalled at once) it shows the kernel's running averages avg10/avg60/avg300
 * and, for every interval, the share of that interval spent stalled, computed from the
 * delta of the total= counter (µs) divided by the measured interval.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "source/procfs/procfs.h"

enum { P_RES, P_KIND, P_AVG10, P_AVG60, P_AVG300, P_TOTAL, P_STALL, P_N };
static const struct ptk_metric psi_cols[P_N] = {
	[P_RES] = { "resource", "resource", "", PTK_GAUGE, PTK_V_STR, -8, 0,
		    "cpu, memory or io (/proc/pressure/<resource>)" },
	[P_KIND] = { "kind", "kind", "", PTK_GAUGE, PTK_V_STR, -4, 0,
		     "some: >= 1 task stalled; full: all non-idle tasks stalled at once" },
	[P_AVG10] = { "avg10", "avg10", "%", PTK_GAUGE, PTK_V_F64, 6, 2,
		      "stalled share of wall time, 10 s running average (avg10=)" },
	[P_AVG60] = { "avg60", "avg60", "%", PTK_GAUGE, PTK_V_F64, 6, 2,
		      "stalled share of wall time, 60 s running average (avg60=)" },
	[P_AVG300] = { "avg300", "avg300", "%", PTK_GAUGE, PTK_V_F64, 6, 2,
		       "stalled share of wall time, 300 s running average (avg300=)" },
	[P_TOTAL] = { "total_us", "total_us", "us", PTK_COUNTER, PTK_V_U64, 14, 0,
		      "stall time since boot in microseconds (total=)" },
	[P_STALL] = { "stall%", "stall_pct", "%", PTK_GAUGE, PTK_V_F64, 7, 2,
		      "stalled share of this interval: delta(total=) / interval" },
};
static const struct ptk_table psi_tab = { "pressure", psi_cols, P_N };

static const char usage[] =
	"usage: ptk pressure [--json] [interval [count]]\n"
	"Pressure stall information for cpu, memory and io (/proc/pressure/*, kernel >= 4.20):\n"
	"the kernel's avg10/avg60/avg300 and, per interval, the stalled share of the interval\n"
	"computed from total= (us). 'some' = at least one task stalled on the resource, 'full' =\n"
	"all non-idle tasks stalled at once (lost work). The first report has no interval, so\n"
	"its stall% is '-'.\n";

struct psi_state {
	struct ptk_psi cur[PTK_PSI_NRES], prev[PTK_PSI_NRES];
	bool have[PTK_PSI_NRES];
};

static int psi_error(struct ptk_ctx *ctx, enum ptk_psi_res res, int err)
{
	const char *p = ctx->src.procfs;

	if (err == -EOPNOTSUPP)
		ptk_err("PSI is disabled in this kernel (%s/pressure/%s: %s): boot with psi=1 on "
			"the kernel command line",
			p, ptk_psi_res_name[res], strerror(-err));
	else if (err == -ENOENT)
		ptk_err("no PSI: %s/pressure/%s does not exist (kernel < 4.20 or built without "
			"CONFIG_PSI); needs CONFIG_PSI=y, and psi=1 on the kernel command line when "
			"CONFIG_PSI_DEFAULT_DISABLED=y",
			p, ptk_psi_res_name[res]);
	else
		ptk_err("cannot read %s/pressure/%s: %s", p, ptk_psi_res_name[res], strerror(-err));
	return PTK_EXIT_RUNTIME;
}

static int psi_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct psi_state *ps = arg;
	char clock[16];
	int r;

	memcpy(ps->prev, ps->cur, sizeof(ps->cur));
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		r = ptk_psi_read(&ctx->src, k, &ps->cur[k]);
		if (r == -EOPNOTSUPP || (r == -ENOENT && k == PTK_PSI_CPU) || r == -EACCES ||
		    r == -EPERM)
			return psi_error(ctx, k, r);
		/* memory or io alone missing: shown as unavailable, not as an error */
		if (r)
			memset(&ps->cur[k], 0, sizeof(ps->cur[k]));
		ps->have[k] = !r;
	}

	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_sink_begin(&ctx->sink);
	ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
	if (!ctx->json && i > 0)
		fputc('\n', ctx->sink.out);
	ctx->sink.prefix_width = 8;
	ptk_sink_table_begin(&ctx->sink, &psi_tab, true, clock);
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		for (int full = 0; full < 2; full++) {
			const struct ptk_psi_line *l = full ? &ps->cur[k].full : &ps->cur[k].some;
			const struct ptk_psi_line *o = full ? &ps->prev[k].full : &ps->prev[k].some;
			struct ptk_val v[P_N];

			v[P_RES] = PTK_S(ptk_psi_res_name[k]);
			v[P_KIND] = PTK_S(full ? "full" : "some");
			if (!l->present) {
				for (int c = P_AVG10; c < P_N; c++)
					v[c] = PTK_NA;
			} else {
				v[P_AVG10] = PTK_F(l->avg10);
				v[P_AVG60] = PTK_F(l->avg60);
				v[P_AVG300] = PTK_F(l->avg300);
				v[P_TOTAL] = PTK_U(l->total_us);
				v[P_STALL] = i > 0 && itv > 0 && o->present ?
						     PTK_F(ptk_delta(o->total_us, l->total_us) /
							   (itv * 1e6) * 100.0) :
						     PTK_NA;
			}
			ptk_sink_row(&ctx->sink, clock, v);
		}
	}
	ptk_sink_table_end(&ctx->sink);
	ptk_sink_end(&ctx->sink);
	return 0;
}

int cmd_pressure(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	struct psi_state ps;
	double interval = 1.0;
	long count = 1;
	bool has_itv;
	int c, r;

	memset(&ps, 0, sizeof(ps));
	opterr = 0; /* one error line, ours */
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		r = ptk_common_opt(ctx, c, optarg);
		if (r == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (r < 0)
			return ptk_usage_error(ctx, "invalid option or missing argument: '%s'",
					       argv[optind - 1]);
	}
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		return r;
	/* "interval" alone: until interrupted; "interval count": count intervals after the
	 * first report (as iostat/mpstat count reports, the first one included) */
	if (has_itv && argc - optind == 1)
		count = -1;
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	if (ctx->src.replay && !has_itv)
		count = -1;
	r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, psi_sample, &ps);
	return r > 0 ? r : 0;
}
