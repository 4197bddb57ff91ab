// SPDX-License-Identifier: GPL-2.0
/* ptk uptime: as procps uptime, plus the tasks in R and D state that load averages count. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"

enum { U_UP, U_USERS, U_L1, U_L5, U_L15, U_RUN, U_DSTATE, U_BLK, U_THREADS, U_N };
static const struct ptk_metric uptime_cols[U_N] = {
	[U_UP] = { "up", "uptime_s", "s", PTK_GAUGE, PTK_V_F64, 0, 2,
		   "time since boot (/proc/uptime field 1)" },
	[U_USERS] = { "users", "users", "", PTK_GAUGE, PTK_V_U64, 0, 0,
		      "logged-in users (utmp USER_PROCESS entries)" },
	[U_L1] = { "load1", "load1", "", PTK_GAUGE, PTK_V_F64, 0, 2,
		   "1-minute load average: R and D tasks (/proc/loadavg field 1)" },
	[U_L5] = { "load5", "load5", "", PTK_GAUGE, PTK_V_F64, 0, 2,
		   "5-minute load average (/proc/loadavg field 2)" },
	[U_L15] = { "load15", "load15", "", PTK_GAUGE, PTK_V_F64, 0, 2,
		    "15-minute load average (/proc/loadavg field 3)" },
	[U_RUN] = { "running", "procs_running", "", PTK_GAUGE, PTK_V_U64, 0, 0,
		    "tasks runnable now, R state (/proc/stat procs_running)" },
	[U_DSTATE] = { "D", "dstate_tasks", "", PTK_GAUGE, PTK_V_U64, 0, 0,
		       "threads in uninterruptible sleep, D state: I/O, fsfreeze, NFS, locks "
		       "(/proc/PID/task/TID/stat state)" },
	[U_BLK] = { "blocked", "procs_blocked", "", PTK_GAUGE, PTK_V_U64, 0, 0,
		    "of those, tasks in I/O wait (/proc/stat procs_blocked)" },
	[U_THREADS] = { "threads", "nr_threads", "", PTK_GAUGE, PTK_V_U64, 0, 0,
			"scheduling entities (/proc/loadavg field 4, after '/')" },
};
static const struct ptk_table uptime_tab = { "uptime", uptime_cols, U_N };

static const char usage[] =
	"usage: ptk uptime [--json]\n"
	"Time since boot, users, load averages, and the tasks behind the load: R (running or\n"
	"runnable) and D (uninterruptible, usually I/O). Linux load counts both, so a high\n"
	"load with idle CPUs is a D-state (I/O) storm, not a CPU storm.\n";

int cmd_uptime(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	struct ptk_uptime up;
	struct ptk_loadavg la;
	struct ptk_stat st = { 0 };
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
	if ((r = ptk_uptime_read(&ctx->src, &up)) || (r = ptk_loadavg_read(&ctx->src, &la)) ||
	    (r = ptk_stat_read(&ctx->src, &st))) {
		ptk_err("cannot read %s: %s", ctx->src.procfs, strerror(-r));
		ptk_stat_free(&st);
		return PTK_EXIT_RUNTIME;
	}
	v[U_UP] = PTK_F(up.up_s);
	v[U_USERS] = ptk_src_is_live(&ctx->src) ? PTK_U(ptk_count_users()) : PTK_NA;
	v[U_L1] = PTK_F(la.load1);
	v[U_L5] = PTK_F(la.load5);
	v[U_L15] = PTK_F(la.load15);
	v[U_RUN] = PTK_U(st.procs_running);
	v[U_BLK] = PTK_U(st.procs_blocked);
	/* procs_blocked counts only I/O wait; load counts every D task: count them */
	struct ptk_ptab pt = { 0 };
	if (ptk_ptab_scan(&ctx->src, PTK_PT_THREADS, &pt) == 0 && pt.n > 0) {
		u64 d = 0;
		for (int i = 0; i < pt.n; i++)
			d += pt.t[i].state == 'D';
		/* I/O waiters are D tasks too; the two reads are not atomic */
		v[U_DSTATE] = PTK_U(MAX(d, st.procs_blocked));
	} else {
		v[U_DSTATE] = PTK_NA;
	}
	ptk_ptab_free(&pt);
	v[U_THREADS] = PTK_U(la.nr_threads);
	ptk_stat_free(&st);

	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_json(&ctx->sink, "uptime", ptk_json_row(&uptime_tab, v));
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	/* procps layout: " 13:20:01 up 1 day,  2:03,  1 user,  load average: 0.00, 0.01, 0.00" */
	char clock[16], l[3][32], n[3][32];
	u64 s = (u64)up.up_s, days = s / 86400, hrs = s % 86400 / 3600, mins = s % 3600 / 60;
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	printf(" %s up ", clock);
	if (days)
		printf("%" PRIu64 " day%s, ", days, days > 1 ? "s" : "");
	if (hrs)
		printf("%2" PRIu64 ":%02" PRIu64 ", ", hrs, mins);
	else
		printf("%" PRIu64 " min, ", mins);
	if (!v[U_USERS].na)
		printf(" %" PRIu64 " user%s, ", v[U_USERS].u, v[U_USERS].u > 1 ? "s" : "");
	printf(" load average: %s, %s, %s\n",
	       ptk_metric_fmt(&uptime_cols[U_L1], &v[U_L1], l[0], 32),
	       ptk_metric_fmt(&uptime_cols[U_L5], &v[U_L5], l[1], 32),
	       ptk_metric_fmt(&uptime_cols[U_L15], &v[U_L15], l[2], 32));
	char dn[32];
	printf(" tasks: %s running (R), %s in D state (%s blocked on I/O), %s threads\n",
	       ptk_metric_fmt(&uptime_cols[U_RUN], &v[U_RUN], n[0], 32),
	       ptk_metric_fmt(&uptime_cols[U_DSTATE], &v[U_DSTATE], dn, 32),
	       ptk_metric_fmt(&uptime_cols[U_BLK], &v[U_BLK], n[1], 32),
	       ptk_metric_fmt(&uptime_cols[U_THREADS], &v[U_THREADS], n[2], 32));
	return 0;
}
