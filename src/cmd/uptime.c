// SPDX-License-Identifier: GPL-2.0
/* ptk uptime: as procps uptime, plus the tasks in R and D state that load averages count. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "source/procfs/pid.h"
#include "model/activity.h"

enum { U_UP, U_USERS, U_L1, U_L5, U_L15, U_RUN, U_DSTATE, U_BLK, U_THREADS, U_N };
static const struct ptk_metric *const uptime_refs[U_N] = {
	[U_UP] = PTK_M(Q_UPTIME),     [U_USERS] = PTK_M(Q_USERS),  [U_L1] = PTK_M(Q_LDAVG_1),
	[U_L5] = PTK_M(Q_LDAVG_5),    [U_L15] = PTK_M(Q_LDAVG_15), [U_RUN] = PTK_M(Q_RUNQ_SZ),
	[U_DSTATE] = PTK_M(Q_DSTATE), [U_BLK] = PTK_M(Q_BLOCKED),  [U_THREADS] = PTK_M(Q_PLIST_SZ),
};
static const struct ptk_table uptime_tab = { .name = "uptime", .ncols = U_N, .refs = uptime_refs };

static const char usage[] =
	"usage: ptk uptime [--json]\n"
	"Time since boot, users, load averages, and the tasks behind the load: R (running or\n"
	"runnable) and D (uninterruptible, usually I/O). Linux load counts both, so a high\n"
	"load with idle CPUs is a D-state (I/O) storm, not a CPU storm.\n";

int cmd_uptime(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_QUEUE];
	struct ptk_snap sn = { 0 };
	struct ptk_rows rows = { 0 };
	struct ptk_val v[U_N];
	int c, r;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		r = ptk_common_opt(ctx, c, optarg);
		if (r == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (r < 0)
			return ptk_usage_error(ctx, "unknown option");
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	r = ptk_snap_read(&ctx->src, &sn, PTK_SNAP_BIT(PTK_SNAP_LOADAVG));
	const char *file = r ? sn.err_file : "loadavg";
	if (!r && !sn.has_la)
		r = sn.err[PTK_SNAP_LOADAVG];
	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, file, strerror(-r));
		ptk_snap_free(&sn);
		return PTK_EXIT_RUNTIME;
	}
	act->rows(NULL, &sn, sn.up.up_s, NULL, &rows);
	for (int i = 0; i < U_N; i++) {
		int col = ptk_act_col(act, uptime_refs[i] - ptk_registry);
		v[i] = col >= 0 ? rows.r[0].v[col] : PTK_NA;
	}
	ptk_rows_free(&rows);
	v[U_USERS] = ptk_src_is_live(&ctx->src) ? PTK_U(ptk_count_users()) : PTK_NA;
	/* procs_blocked counts only I/O wait; load counts every D task: count them */
	struct ptk_ptab pt = { 0 };
	if (ptk_ptab_scan(&ctx->src, PTK_PT_THREADS, &pt) == 0 && pt.n > 0) {
		u64 d = 0;
		for (int i = 0; i < pt.n; i++)
			d += pt.t[i].state == 'D';
		/* I/O waiters are D tasks too; the two reads are not atomic */
		v[U_DSTATE] = PTK_U(MAX(d, v[U_BLK].u));
	} else {
		v[U_DSTATE] = PTK_NA;
	}
	ptk_ptab_free(&pt);

	ptk_snap_free(&sn);
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_json(&ctx->sink, "uptime", ptk_json_row(&uptime_tab, v));
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	/* procps layout: " 13:20:01 up 1 day,  2:03,  1 user,  load average: 0.00, 0.01, 0.00" */
	char clock[16], l[3][32], n[3][32], up[96];
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_fmt_uptime(v[U_UP].f, v[U_USERS].na ? -1 : (int)v[U_USERS].u, up, sizeof(up));
	printf(" %s %s", clock, up);
	printf(" load average: %s, %s, %s\n", ptk_metric_fmt(uptime_refs[U_L1], &v[U_L1], l[0], 32),
	       ptk_metric_fmt(uptime_refs[U_L5], &v[U_L5], l[1], 32),
	       ptk_metric_fmt(uptime_refs[U_L15], &v[U_L15], l[2], 32));
	char dn[32];
	printf(" tasks: %s running (R), %s in D state (%s blocked on I/O), %s threads\n",
	       ptk_metric_fmt(uptime_refs[U_RUN], &v[U_RUN], n[0], 32),
	       ptk_metric_fmt(uptime_refs[U_DSTATE], &v[U_DSTATE], dn, 32),
	       ptk_metric_fmt(uptime_refs[U_BLK], &v[U_BLK], n[1], 32),
	       ptk_metric_fmt(uptime_refs[U_THREADS], &v[U_THREADS], n[2], 32));
	return 0;
}
