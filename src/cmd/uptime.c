// SPDX-License-Identifier: GPL-2.0
/*
 * ptk uptime: procps-ng uptime's one line (-p pretty, -s since, -V), and with -t the tasks in R
 * and D state that load averages count.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	"usage: ptk uptime [-p | -s | -t] [-V] [--json]\n"
	"Time since boot, users and load averages on one line, as procps-ng uptime.\n"
	" -p, --pretty   the time since boot in words (\"up 2 hours, 39 minutes\")\n"
	" -s, --since    the boot time (\"yyyy-mm-dd HH:MM:SS\", local time)\n"
	" -t, --tasks    a second line with the tasks behind the load: R (running or runnable)\n"
	"                and D (uninterruptible, usually I/O). Linux load counts both, so a\n"
	"                high load with idle CPUs is a D-state (I/O) storm, not a CPU storm\n"
	" -V, --version  the version\n"
	" --json         every value, the task counts included\n";

/*
 * procps-ng 4.0.2's pretty uptime (library/uptime.c procps_uptime_sprint_short): from the
 * largest unit down (decades of 3650 days, years of 365, weeks, days, hours, minutes), a unit
 * strictly smaller than what is left is counted and taken off; the counted ones are printed,
 * and the minutes also when less than a minute is left. So 60 s prints "up " and 3600 s
 * "up 60 minutes", as procps does.
 */
static void fmt_pretty(double up_s, char *buf, size_t size)
{
	static const struct {
		double len;
		const char *one, *many;
	} u[] = {
		{ 86400.0 * 365 * 10, "decade", "decades" },
		{ 86400.0 * 365, "year", "years" },
		{ 86400.0 * 7, "week", "weeks" },
		{ 86400.0, "day", "days" },
		{ 3600.0, "hour", "hours" },
		{ 60.0, "minute", "minutes" },
	};
	double left = up_s > 0 && up_s < 1e15 ? up_s : 0;
	int n = snprintf(buf, size, "up "), parts = 0;

	for (size_t i = 0; i < ARRAY_SIZE(u) && n < (int)size; i++) {
		long v = 0;

		if (left > u[i].len) {
			v = (long)(left / u[i].len);
			left -= (double)v * u[i].len;
		}
		if (!v && !(i == ARRAY_SIZE(u) - 1 && left < 60))
			continue;
		n += snprintf(buf + n, size - n, "%s%ld %s", parts++ ? ", " : "", v,
			      v == 1 ? u[i].one : u[i].many);
	}
}

int cmd_uptime(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "pretty", no_argument, NULL, 'p' },
					      { "since", no_argument, NULL, 's' },
					      { "tasks", no_argument, NULL, 't' },
					      { "version", no_argument, NULL, 'V' },
					      PTK_COMMON_OPTS,
					      { 0 } };
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_QUEUE];
	struct ptk_snap sn = { 0 };
	struct ptk_rows rows = { 0 };
	struct ptk_val v[U_N];
	bool pretty = false, since = false, tasks = false;
	int c, r;

	while ((c = ptk_getopt(ctx, argc, argv, "pstVh", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'p':
			pretty = true;
			break;
		case 's':
			since = true;
			break;
		case 't':
			tasks = true;
			break;
		case 'V':
			printf("ptk uptime %s (procps-ng uptime's layout)\n", PTK_VERSION);
			return 0;
		case 'h':
			fputs(usage, stdout);
			return 0;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (pretty + since + tasks > 1)
		return ptk_usage_error(ctx, "options -p, -s and -t are mutually exclusive");
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	/* uptime and loadavg, as procps; /proc/stat (procs_blocked) where there is one */
	r = ptk_snap_read(&ctx->src, &sn, PTK_SNAP_BIT(PTK_SNAP_LOADAVG) | PTK_SNAP_STAT_OPTIONAL);
	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs,
			sn.err_file ? sn.err_file : "uptime", strerror(-r));
		ptk_snap_free(&sn);
		return PTK_EXIT_RUNTIME;
	}
	if (!sn.has_la && !pretty && !since) {
		ptk_err("cannot read %s/loadavg: %s", ctx->src.procfs,
			strerror(-sn.err[PTK_SNAP_LOADAVG]));
		ptk_snap_free(&sn);
		return PTK_EXIT_RUNTIME;
	}
	act->rows(NULL, &sn, sn.up.up_s, NULL, &rows);
	for (int i = 0; i < U_N; i++) {
		int col = ptk_act_col(act, uptime_refs[i] - ptk_registry);
		v[i] = col >= 0 ? rows.r[0].v[col] : PTK_NA;
	}
	ptk_rows_free(&rows);
	if (!ptk_snap_has(&sn, PTK_SNAP_STAT))
		v[U_BLK] = PTK_NA; /* no /proc/stat: procs_blocked unknown, not 0 */
	if (since || pretty) {
		char buf[128] = "";

		ptk_snap_free(&sn);
		if (pretty) {
			fmt_pretty(v[U_UP].f, buf, sizeof(buf));
		} else {
			/* procps: whole seconds of now less whole seconds of uptime, local
			 * time (a tree: its btime + uptime less uptime) */
			time_t t = (time_t)ptk_ctx_walltime(ctx) - (time_t)v[U_UP].f;
			struct tm tm;

			if (!localtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%F %T", &tm))
				buf[0] = 0;
		}
		if (ctx->json) {
			ptk_sink_begin(&ctx->sink);
			ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
			ptk_sink_meta_str(&ctx->sink, pretty ? "pretty" : "since", buf);
			ptk_sink_meta_f64(&ctx->sink, "uptime_s", v[U_UP].f);
			ptk_sink_end(&ctx->sink);
		} else {
			puts(buf);
		}
		return 0;
	}
	v[U_USERS] = ptk_src_is_live(&ctx->src) ? PTK_U(ptk_count_users()) : PTK_NA;
	/* procs_blocked counts only I/O wait; load counts every D task: count them (a scan of
	 * every thread, only when the tasks are shown) */
	struct ptk_ptab pt = { 0 };
	if (!tasks && !ctx->json) {
		v[U_DSTATE] = PTK_NA;
	} else if (ptk_ptab_scan(&ctx->src, PTK_PT_THREADS, &pt) == 0 && pt.n > 0) {
		u64 d = 0;
		for (int i = 0; i < pt.n; i++)
			d += pt.t[i].state == 'D';
		/* I/O waiters are D tasks too; the two reads are not atomic */
		v[U_DSTATE] = PTK_U(v[U_BLK].na ? d : MAX(d, v[U_BLK].u));
	} else {
		v[U_DSTATE] = PTK_NA;
	}
	ptk_ptab_free(&pt);

	ptk_snap_free(&sn);
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
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
	if (!tasks)
		return 0;
	char dn[32];
	printf(" tasks: %s running (R), %s in D state (%s blocked on I/O), %s threads\n",
	       ptk_metric_fmt(uptime_refs[U_RUN], &v[U_RUN], n[0], 32),
	       ptk_metric_fmt(uptime_refs[U_DSTATE], &v[U_DSTATE], dn, 32),
	       ptk_metric_fmt(uptime_refs[U_BLK], &v[U_BLK], n[1], 32),
	       ptk_metric_fmt(uptime_refs[U_THREADS], &v[U_THREADS], n[2], 32));
	return 0;
}
