// SPDX-License-Identifier: GPL-2.0
/*
 * ptk pressure: pressure stall information (PSI, kernel >= 4.20, kernel/sched/psi.c) for cpu,
 * memory and io. For each resource and kind (some: at least one task stalled; full: all
 * non-idle tasks stalled at once) it shows the kernel's running averages avg10/avg60/avg300,
 * the total= counter and, for every interval, the share of that interval spent stalled: the
 * PSI activities' rows (model/act_psi.c), one text row per line, and in JSON the activities'
 * tables (psi_cpu, psi_mem, psi_io) as sar --psi writes them.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/activity.h"

/* A resource: its activity and, per line (some, full), the avg10 entry (avg60, avg300 and
 * the stall share follow it) and the total= entry. */
static const struct psi_res {
	enum ptk_act_id act;
	enum ptk_mid avg10[2], total[2];
} psi_res[PTK_PSI_NRES] = {
	[PTK_PSI_CPU] = { PTK_ACT_PSI_CPU,
			  { PTK_M_PSI_CPU_SOME_AVG10, PTK_M_PSI_CPU_FULL_AVG10 },
			  { PTK_M_PSI_CPU_SOME_TOTAL, PTK_M_PSI_CPU_FULL_TOTAL } },
	[PTK_PSI_MEMORY] = { PTK_ACT_PSI_MEM,
			     { PTK_M_PSI_MEM_SOME_AVG10, PTK_M_PSI_MEM_FULL_AVG10 },
			     { PTK_M_PSI_MEM_SOME_TOTAL, PTK_M_PSI_MEM_FULL_TOTAL } },
	[PTK_PSI_IO] = { PTK_ACT_PSI_IO,
			 { PTK_M_PSI_IO_SOME_AVG10, PTK_M_PSI_IO_FULL_AVG10 },
			 { PTK_M_PSI_IO_SOME_TOTAL, PTK_M_PSI_IO_FULL_TOTAL } },
};

/* The text layout: a row per resource and kind, its line's entries titled and sized so. */
enum { P_RES, P_KIND, P_AVG10, P_AVG60, P_AVG300, P_TOTAL, P_STALL, P_N };
static const struct {
	const char *name; /* NULL: the registry's title */
	int width;
} p_layout[P_N] = {
	[P_RES] = { NULL, -8 },	     [P_KIND] = { NULL, -4 },	   [P_AVG10] = { "avg10", 6 },
	[P_AVG60] = { "avg60", 6 },  [P_AVG300] = { "avg300", 6 }, [P_TOTAL] = { "total_us", 14 },
	[P_STALL] = { "stall%", 7 },
};

/* The entries of resource k's line l (0 some, 1 full) in p_layout's order. */
static void line_mids(int k, int l, enum ptk_mid m[P_N])
{
	enum ptk_mid a = psi_res[k].avg10[l];

	m[P_RES] = PTK_M_PSI_RESOURCE;
	m[P_KIND] = PTK_M_PSI_KIND;
	m[P_AVG10] = a;
	m[P_AVG60] = a + 1;
	m[P_AVG300] = a + 2;
	m[P_TOTAL] = psi_res[k].total[l];
	m[P_STALL] = a + 3;
}

static const char usage[] =
	"usage: ptk pressure [--json] [interval [count]]\n"
	"Pressure stall information for cpu, memory and io (/proc/pressure/*, kernel >= 4.20):\n"
	"the kernel's avg10/avg60/avg300 and, per interval, the stalled share of the interval\n"
	"computed from total= (us). 'some' = at least one task stalled on the resource, 'full' =\n"
	"all non-idle tasks stalled at once (lost work). The first report has no interval, so\n"
	"its stall% is '-'.\n";

struct psi_state {
	struct ptk_snap s[2];
	int cur;
	struct ptk_rows rows;
	struct ptk_metric cols[PTK_PSI_NRES][2][P_N]; /* text: each line's columns */
	struct ptk_table tab[PTK_PSI_NRES][2];
	const struct ptk_metric *refs[PTK_PSI_NRES][2 * (P_N - 2)]; /* JSON: a resource's */
	struct ptk_table jtab[PTK_PSI_NRES];
};

static void psi_tables(struct psi_state *ps)
{
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		for (int l = 0; l < 2; l++) {
			enum ptk_mid m[P_N];

			line_mids(k, l, m);
			for (int c = 0; c < P_N; c++) {
				ps->cols[k][l][c] = ptk_registry[m[c]];
				if (p_layout[c].name)
					ps->cols[k][l][c].name = p_layout[c].name;
				ps->cols[k][l][c].width = p_layout[c].width;
				if (c >= P_AVG10)
					ps->refs[k][l * (P_N - 2) + c - P_AVG10] =
						&ptk_registry[m[c]];
			}
			ps->tab[k][l] = (struct ptk_table){ "pressure", ps->cols[k][l], P_N };
		}
		ps->jtab[k] = (struct ptk_table){ .name = ptk_activities[psi_res[k].act].name,
						  .ncols = 2 * (P_N - 2),
						  .refs = ps->refs[k] };
	}
}

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
	struct ptk_snap *now = &ps->s[ps->cur], *old = &ps->s[!ps->cur];
	bool stall = i > 0 && itv > 0; /* the first report has no interval */
	char clock[16];
	int r;

	/* the pressure files and the uptime only: a tree may hold no /proc/stat */
	r = ptk_snap_read(&ctx->src, now, PTK_SNAP_PSI | PTK_SNAP_STAT_OPTIONAL);
	if (r) {
		ptk_err("cannot read %s/uptime: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		r = now->err[PTK_SNAP_PSI_CPU + k];
		/* memory or io alone missing: shown as unavailable, not as an error */
		if (r == -EOPNOTSUPP || (r == -ENOENT && k == PTK_PSI_CPU) || r == -EACCES ||
		    r == -EPERM)
			return psi_error(ctx, k, r);
	}
	ps->cur = !ps->cur;

	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_sink_begin(&ctx->sink);
	ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
	if (!ctx->json) {
		if (i > 0)
			fputc('\n', ctx->sink.out);
		ctx->sink.prefix_width = 8;
		ptk_sink_table_begin(&ctx->sink, &ps->tab[0][0], true, clock);
		ptk_sink_table_end(&ctx->sink);
	}
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		const struct ptk_activity *act = &ptk_activities[psi_res[k].act];
		struct ptk_val jv[2 * (P_N - 2)];

		ps->rows.n = 0;
		act->rows(i == 0 ? NULL : old, now, i == 0 ? now->up.up_s : itv, NULL, &ps->rows);
		for (int l = 0; l < 2; l++) {
			struct ptk_val v[P_N];
			enum ptk_mid m[P_N];

			line_mids(k, l, m);
			v[P_RES] = PTK_S(ptk_psi_res_name[k]);
			v[P_KIND] = PTK_S(l ? "full" : "some");
			for (int c = P_AVG10; c < P_N; c++) {
				int col = ptk_act_col(act, m[c]);
				v[c] = col >= 0 && ps->rows.n ? ps->rows.r[0].v[col] : PTK_NA;
			}
			if (!stall)
				v[P_STALL] = PTK_NA;
			memcpy(&jv[l * (P_N - 2)], &v[P_AVG10], (P_N - 2) * sizeof(*v));
			if (!ctx->json) {
				ptk_sink_table_begin(&ctx->sink, &ps->tab[k][l], false, NULL);
				ptk_sink_row(&ctx->sink, clock, v);
				ptk_sink_table_end(&ctx->sink);
			}
		}
		if (ctx->json) {
			ptk_sink_table_begin(&ctx->sink, &ps->jtab[k], false, NULL);
			ptk_sink_row(&ctx->sink, NULL, jv);
			ptk_sink_table_end(&ctx->sink);
		}
	}
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
	psi_tables(&ps);
	r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, psi_sample, &ps);
	ptk_snap_free(&ps.s[0]);
	ptk_snap_free(&ps.s[1]);
	ptk_rows_free(&ps.rows);
	return r > 0 ? r : 0;
}
