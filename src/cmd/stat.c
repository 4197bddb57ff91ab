// SPDX-License-Identifier: GPL-2.0
/* ptk stat: count events with perf_event_open, in perf stat's layout. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "source/perf/perf.h"
#include "source/perf/pstat.h"
#include "source/procfs/pid.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk stat [-e EVENT,...] [-a | -p PID | -t TID | -C CPUS] [-I MS] [-x SEP | --json]\n"
	"                [-o FILE] [-- CMD [ARGS]]\n"
	"Count events with perf_event_open(2) while CMD runs, or on a process, thread or CPUs\n"
	"until Ctrl-C, in perf stat's layout. Counts are scaled by time_enabled/time_running when\n"
	"the PMU multiplexed them (the share of time counted is shown in parentheses).\n"
	"  -e EVENT,...  events (default: task-clock, context-switches, cpu-migrations,\n"
	"                page-faults, cycles, instructions, branches, branch-misses). Software:\n"
	"                task-clock cpu-clock context-switches cpu-migrations page-faults\n"
	"                minor-faults major-faults; hardware: cycles instructions branches\n"
	"                branch-misses cache-references cache-misses ...; cache: L1-dcache-loads\n"
	"                L1-dcache-load-misses LLC-loads dTLB-load-misses ...; tracepoints:\n"
	"                sched:sched_switch; raw rNNNN; modifiers :u :k\n"
	"  -a            all CPUs; -C CPUS only these (0-3,5)\n"
	"  -p PID        every thread of a process; -t TID one thread\n"
	"  -I MS         print the counts of every MS milliseconds (>= 10)\n"
	"  -x SEP        CSV with separator SEP, as perf stat -x\n"
	"  -o FILE       write to FILE (default: stderr, as perf stat, so that the command\n"
	"                keeps stdout; --json too)\n"
	"  --json        NDJSON: one object per interval (or one at the end)\n"
	"Events the PMU lacks read <not supported> (a VM without a vPMU has no cycles).\n";

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles",     "instructions",	  "branches",	    "branch-misses",
};

/* JSON columns: perf stat --json-output's keys */
enum { C_VAL, C_UNIT, C_EVENT, C_RUN, C_PCT, C_MVAL, C_MUNIT, C_STATUS, C_N };
static const struct ptk_metric *const stat_cols[C_N] = {
	[C_VAL] = PTK_M(PERF_COUNT),	     [C_UNIT] = PTK_M(PERF_UNIT),
	[C_EVENT] = PTK_M(PERF_EVENT),	     [C_RUN] = PTK_M(PERF_RUNTIME),
	[C_PCT] = PTK_M(PERF_RUNNING_PCT),   [C_MVAL] = PTK_M(PERF_METRIC),
	[C_MUNIT] = PTK_M(PERF_METRIC_UNIT), [C_STATUS] = PTK_M(PERF_STATUS),
};
static const struct ptk_table stat_tab = { .name = "counters", .ncols = C_N, .refs = stat_cols };

struct run {
	struct ptk_ctx *ctx;
	struct ptk_perf_evsel *ev; /* prev: the counts at the previous interval */
	int nev;
	struct ptk_perf_target tgt;
	char **cmd; /* NULL: no command */
	int ncmd;
	const char *target_str; /* -p / -t / -C argument */
	bool csv, system_wide;
	const char *sep;
	long interval_ms;
	FILE *out;
	u64 t0, t_end, t_prev;
	pid_t child;
	int pidfd;
	struct rusage ru;
	bool have_ru;
	int status; /* the command's wait status, when have_ru */
	int nprinted; /* interval lines since the last header */
};

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : (int)fd;
#else
	return -1;
#endif
}

/*
 * Wait until deadline_ns (0: none). Returns 1 when the target ended (child reaped, rusage
 * kept), 0 at the deadline, -EINTR when stopped by a signal.
 */
static int wait_until(struct run *r, u64 deadline_ns)
{
	for (;;) {
		int timeout = 100, st;
		u64 now;

		if (r->ctx->stop)
			return -EINTR;
		if (r->child > 0) {
			if (wait4(r->child, &st, WNOHANG, &r->ru) == r->child) {
				r->have_ru = true;
				r->status = st;
				r->child = 0;
				return 1;
			}
		} else if (r->tgt.kind == PTK_PERF_PID || r->tgt.kind == PTK_PERF_TID) {
			if (!ptk_task_alive(&r->ctx->src, r->tgt.pid))
				return 1;
		}
		now = ptk_now_ns();
		if (deadline_ns && now >= deadline_ns)
			return 0;
		if (deadline_ns && (deadline_ns - now) / 1000000 < (u64)timeout)
			timeout = (int)((deadline_ns - now + 999999) / 1000000);
		if (r->pidfd >= 0) {
			/* readable when the process exits */
			struct pollfd p = { .fd = r->pidfd, .events = POLLIN };
			poll(&p, 1, timeout);
		} else {
			poll(NULL, 0, timeout);
		}
	}
}

static const char *status_str(enum ptk_pstat_status s)
{
	return s == PTK_PSTAT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

/* The metric value as perf -x prints it: the digits of the formatted value only. */
static void csv_metric(const struct ptk_pstat_row *w, char *buf, size_t size)
{
	char tmp[64], *p, *e;

	ptk_pstat_metric_fmt(w, tmp, sizeof(tmp));
	for (p = tmp; *p == ' '; p++)
		;
	for (e = p; (*e >= '0' && *e <= '9') || *e == '.'; e++)
		;
	*e = '\0';
	snprintf(buf, size, "%s", p);
}

static void print_text_row(struct run *r, const char *prefix, const struct ptk_pstat_row *w)
{
	FILE *o = r->out;
	const bool frac = w->scale != 1;

	fputs(prefix, o);
	if (w->status != PTK_PSTAT_COUNTED) {
		fprintf(o, "%18s %-4s %-25s", status_str(w->status), w->unit, w->name);
		if (w->status == PTK_PSTAT_NOT_COUNTED && w->pct < 100)
			fprintf(o, "  (%.2f%%)", w->pct);
		fprintf(o, "%-35s\n", "");
		return;
	}
	fprintf(o, frac ? "%'18.2f %-4s %-32s" : "%'18.0f %-4s %-32s", w->val, w->unit, w->name);
	if (w->has_metric) {
		char m[64];
		int n = 3 + ptk_pstat_metric_fmt(w, m, sizeof(m));
		fprintf(o, " # %s %-*s", m, MAX(35 - n - 1, 0), w->munit);
	} else {
		fprintf(o, "%-35s", "");
	}
	if (w->pct < 100)
		fprintf(o, "  (%.2f%%)", w->pct);
	fputc('\n', o);
}

static void print_csv_row(struct run *r, const char *prefix, const struct ptk_pstat_row *w)
{
	FILE *o = r->out;
	const char *s = r->sep;
	char m[64];

	fputs(prefix, o);
	if (w->status != PTK_PSTAT_COUNTED)
		fprintf(o, "%s%s%s%s%s", status_str(w->status), s, w->unit, s, w->name);
	else
		fprintf(o, w->scale != 1 ? "%.2f%s%s%s%s" : "%.0f%s%s%s%s", w->val, s, w->unit, s,
			w->name);
	fprintf(o, "%s%" PRIu64 "%s%.2f", s, w->run, s, w->pct);
	if (w->has_metric) {
		csv_metric(w, m, sizeof(m));
		fprintf(o, "%s%s%s%s\n", s, m, s, w->munit);
	} else {
		fprintf(o, "%s%s\n", s, s);
	}
}

static void json_rows(struct run *r, const struct ptk_pstat_row *rows)
{
	struct ptk_sink *sk = &r->ctx->sink;

	ptk_sink_table_begin(sk, &stat_tab, false, NULL);
	for (int i = 0; i < r->nev; i++) {
		const struct ptk_pstat_row *w = &rows[i];
		struct ptk_val v[C_N];
		v[C_VAL] = w->status == PTK_PSTAT_COUNTED ? PTK_F(w->val) : PTK_NA;
		v[C_UNIT] = PTK_S(w->unit);
		v[C_EVENT] = PTK_S(w->name);
		v[C_RUN] = w->status == PTK_PSTAT_NOT_SUPPORTED ? PTK_NA : PTK_U(w->run);
		v[C_PCT] = w->status == PTK_PSTAT_NOT_SUPPORTED ? PTK_NA : PTK_F(w->pct);
		v[C_MVAL] = w->has_metric ? PTK_F(w->mval) : PTK_NA;
		v[C_MUNIT] = w->has_metric ? PTK_S(w->munit) : PTK_NA;
		v[C_STATUS] = PTK_S(w->status == PTK_PSTAT_COUNTED     ? "counted" :
				    w->status == PTK_PSTAT_NOT_COUNTED ? "not counted" :
									 "not supported");
		ptk_sink_row(sk, NULL, v);
	}
	ptk_sink_table_end(sk);
}

static void print_interval(struct run *r, u64 now)
{
	struct ptk_pstat_row *rows = xcalloc(r->nev, sizeof(*rows));
	u64 t = now - r->t0;
	char prefix[64];

	ptk_pstat_read(r->ev, r->nev, true, rows);
	ptk_pstat_metrics(rows, r->nev, (double)(now - r->t_prev));
	r->t_prev = now;
	if (r->ctx->json) {
		ptk_sink_begin(&r->ctx->sink);
		ptk_sink_meta_f64(&r->ctx->sink, "time", ptk_ctx_walltime(r->ctx));
		ptk_sink_meta_f64(&r->ctx->sink, "interval", t / 1e9);
		json_rows(r, rows);
		ptk_sink_end(&r->ctx->sink);
	} else {
		snprintf(prefix, sizeof(prefix), "%6lu.%09lu%s", (unsigned long)(t / 1000000000),
			 (unsigned long)(t % 1000000000), r->csv ? r->sep : " ");
		if (!r->csv && r->nprinted == 0)
			fprintf(r->out, "#           time             counts unit events\n");
		if (++r->nprinted == 25)
			r->nprinted = 0;
		for (int i = 0; i < r->nev; i++)
			(r->csv ? print_csv_row : print_text_row)(r, prefix, &rows[i]);
	}
	fflush(r->out);
	free(rows);
}

static void print_header(struct run *r)
{
	FILE *o = r->out;

	fprintf(o, "\n Performance counter stats for ");
	if (r->system_wide && !r->target_str)
		fprintf(o, "'system wide");
	else if (r->tgt.kind == PTK_PERF_CPUS)
		fprintf(o, "'CPU(s) %s", r->target_str);
	else if (r->tgt.kind == PTK_PERF_PID)
		fprintf(o, "process id '%s", r->target_str);
	else if (r->tgt.kind == PTK_PERF_TID)
		fprintf(o, "thread id '%s", r->target_str);
	else {
		fprintf(o, "'%s", r->cmd[0]);
		for (int i = 1; i < r->ncmd; i++)
			fprintf(o, " %s", r->cmd[i]);
	}
	fprintf(o, "':\n\n");
}

static void print_final(struct run *r)
{
	struct ptk_pstat_row *rows = xcalloc(r->nev, sizeof(*rows));
	double el = (r->t_end - r->t0) / 1e9;
	double us = r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6;
	double sy = r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6;
	bool ru = r->have_ru && r->tgt.kind == PTK_PERF_CMD;

	ptk_pstat_read(r->ev, r->nev, false, rows);
	ptk_pstat_metrics(rows, r->nev, (double)(r->t_end - r->t0));
	if (r->ctx->json) {
		struct ptk_sink *sk = &r->ctx->sink;
		ptk_sink_begin(sk);
		json_rows(r, rows);
		ptk_sink_meta_f64(sk, "elapsed_s", el);
		if (ru) {
			ptk_sink_meta_f64(sk, "user_s", us);
			ptk_sink_meta_f64(sk, "sys_s", sy);
		}
		ptk_sink_end(sk);
	} else if (r->csv) {
		for (int i = 0; i < r->nev; i++)
			print_csv_row(r, "", &rows[i]);
	} else {
		print_header(r);
		for (int i = 0; i < r->nev; i++)
			print_text_row(r, "", &rows[i]);
		fprintf(r->out, "\n %17.9f seconds time elapsed", el);
		if (ru)
			fprintf(r->out, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", us, sy);
		fprintf(r->out, "\n\n");
	}
	fflush(r->out);
	free(rows);
}

static int add_events(struct ptk_ctx *ctx, struct run *r, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		struct ptk_perf_evsel *e;
		int err;

		r->ev = xrealloc(r->ev, (r->nev + 1) * sizeof(*r->ev));
		e = &r->ev[r->nev];
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", t);
		err = ptk_perf_event_parse(t, &e->attr);
		if (err == -EINVAL || err == -ENOENT) {
			rc = ptk_usage_error(ctx, "unknown event '%s'", t);
			break;
		}
		if (err == -EACCES || err == -EPERM) {
			ptk_err("event '%s': no permission to read its tracefs id (tracepoints need "
				"root, or tracefs mounted with mode=755)",
				t);
			rc = PTK_EXIT_RUNTIME;
			break;
		}
		if (err) {
			ptk_err("event '%s': tracefs: %s", t, strerror(-err));
			rc = PTK_EXIT_RUNTIME;
			break;
		}
		r->nev++;
	}
	free(dup);
	return rc;
}

static int open_events(struct run *r)
{
	struct ptk_perf_pair *pairs;
	int n = ptk_perf_target_pairs(&r->tgt, false, &pairs);

	if (n < 0) {
		ptk_err("%s: %s",
			r->tgt.kind == PTK_PERF_CPUS ? "no such online CPU" : "no such task",
			strerror(-n));
		return PTK_EXIT_RUNTIME;
	}
	for (int i = 0; i < r->nev; i++) {
		struct perf_event_attr *a = &r->ev[i].attr;
		int err;

		a->inherit = r->tgt.kind == PTK_PERF_PID || r->tgt.kind == PTK_PERF_CMD;
		/* enabled together when the clock starts (at the exec for a command) */
		a->disabled = 1;
		a->enable_on_exec = r->tgt.kind == PTK_PERF_CMD;
		err = ptk_perf_evsel_open(&r->ev[i], pairs, n);
		if (err == -EACCES || err == -EPERM) {
			char p[16] = "?";
			ptk_read_file("/proc/sys/kernel/perf_event_paranoid", p, sizeof(p));
			p[strcspn(p, "\n")] = '\0';
			ptk_err("perf_event_open %s: %s (kernel.perf_event_paranoid = %s)",
				r->ev[i].name, strerror(-err), p);
			free(pairs);
			return PTK_EXIT_RUNTIME;
		}
		if (err == -ESRCH) {
			ptk_err("the target exited before counting began");
			free(pairs);
			return PTK_EXIT_RUNTIME;
		}
		if (err == -EMFILE) {
			ptk_err("perf_event_open %s: %s (raise ulimit -n)", r->ev[i].name,
				strerror(-err));
			free(pairs);
			return PTK_EXIT_RUNTIME;
		}
		/* others: <not supported> as perf prints them */
	}
	free(pairs);
	return 0;
}

int cmd_stat(struct ptk_ctx *ctx, int argc, char **argv)
{
	enum { OPT_CSV_SEP = 0x1300 };
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "output", required_argument, NULL, 'o' },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct run r = { .ctx = ctx, .pidfd = -1, .sep = "," };
	const char *outpath = NULL, *cpulist = NULL;
	bool *cpus = NULL;
	int c, rc = 0, ntargets = 0;
	struct ptk_perf_child child = { 0 };

	r.tgt.kind = PTK_PERF_CMD;
	while ((c = ptk_getopt(ctx, argc, argv, "+e:ap:t:C:I:x:o:", opts, usage, &rc)) >= 0) {
		switch (c) {
		case 'e':
			if ((rc = add_events(ctx, &r, optarg)))
				goto out_free_events;
			break;
		case 'a':
			r.system_wide = true;
			r.tgt.kind = PTK_PERF_CPUS;
			ntargets++;
			break;
		case 'p':
		case 't': {
			int pid;
			if (ptk_parse_int(optarg, &pid) || pid <= 0) {
				rc = ptk_usage_error(ctx, "invalid %s '%s'",
						     c == 'p' ? "PID" : "TID", optarg);
				goto out_free_events;
			}
			r.tgt.kind = c == 'p' ? PTK_PERF_PID : PTK_PERF_TID;
			r.tgt.pid = pid;
			r.target_str = optarg;
			ntargets++;
			break;
		}
		case 'C':
			cpulist = optarg;
			r.target_str = optarg;
			r.tgt.kind = PTK_PERF_CPUS;
			ntargets++;
			break;
		case 'I': {
			int ms;
			if (ptk_parse_int(optarg, &ms) || ms < 10) {
				rc = ptk_usage_error(
					ctx, "invalid interval '%s' (milliseconds, >= 10)", optarg);
				goto out_free_events;
			}
			r.interval_ms = ms;
			break;
		}
		case 'x':
			r.csv = true;
			r.sep = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		goto out_free_events;
	if (ntargets > 1 && !(ntargets == 2 && r.system_wide && cpulist)) {
		rc = ptk_usage_error(ctx, "-a, -p, -t and -C exclude each other");
		goto out_free_events;
	}
	if (r.csv && ctx->json) {
		rc = ptk_usage_error(ctx, "-x and --json exclude each other");
		goto out_free_events;
	}
	if (optind < argc) {
		r.cmd = argv + optind;
		r.ncmd = argc - optind;
		if (r.tgt.kind == PTK_PERF_PID || r.tgt.kind == PTK_PERF_TID) {
			rc = ptk_usage_error(ctx, "-p/-t and a command exclude each other");
			goto out_free_events;
		}
	} else if (!ntargets) {
		rc = ptk_usage_error(ctx, "no command and no target (-a, -p, -t, -C)");
		goto out_free_events;
	}
	if ((ctx->procfs && strcmp(ctx->procfs, "/proc")) ||
	    (ctx->sysfs && strcmp(ctx->sysfs, "/sys"))) {
		rc = ptk_usage_error(ctx, "counts come from perf_event_open: --procfs/--sysfs "
					  "replay does not apply");
		goto out_free_events;
	}
	if (cpulist) {
		int n = ptk_perf_ncpus();
		cpus = xcalloc(n, sizeof(bool));
		if (ptk_parse_cpulist(cpulist, cpus, n) <= 0) {
			rc = ptk_usage_error(ctx, "invalid CPU list '%s'", cpulist);
			goto out_free_events;
		}
		r.tgt.cpus = cpus;
		r.tgt.ncpus = n;
	}
	if (!r.nev)
		for (size_t i = 0; i < ARRAY_SIZE(default_events); i++)
			if ((rc = add_events(ctx, &r, default_events[i])))
				goto out_free_events;
	if ((rc = ptk_ctx_ready(ctx)))
		goto out_free_events;
	/* like perf stat: the command keeps stdout to itself */
	r.out = stderr;
	if (outpath) {
		r.out = fopen(outpath, "we");
		if (!r.out) {
			ptk_err("cannot write %s: %s", outpath, strerror(errno));
			rc = PTK_EXIT_RUNTIME;
			goto out_free_events;
		}
	}
	ptk_sink_init(&ctx->sink, ctx->json ? PTK_FMT_JSON : PTK_FMT_TEXT, r.out);
	if (!r.csv && !ctx->json)
		setlocale(LC_NUMERIC, ""); /* perf groups thousands per the locale */

	if (r.cmd) {
		int err = ptk_perf_child_fork(r.cmd, &child);
		if (err) {
			ptk_err("cannot fork: %s", strerror(-err));
			rc = PTK_EXIT_RUNTIME;
			goto out_free_events;
		}
		r.child = child.pid;
		if (!r.system_wide && !cpulist)
			r.tgt.pid = child.pid;
	}
	if ((rc = open_events(&r)))
		goto out_close_events; /* the events opened before the one that failed */
	if (r.child > 0 || r.tgt.kind == PTK_PERF_PID)
		r.pidfd = pidfd_open_(r.child > 0 ? r.child : r.tgt.pid);
	if (r.tgt.kind != PTK_PERF_CMD)
		for (int i = 0; i < r.nev; i++)
			ptk_perf_evsel_enable(&r.ev[i], true);
	r.t0 = r.t_prev = ptk_now_ns();
	if (r.cmd) {
		int err = ptk_perf_child_start(&child);
		if (err) {
			ptk_err("cannot run '%s': %s", r.cmd[0], strerror(-err));
			r.child = 0;
			rc = PTK_EXIT_RUNTIME;
			goto out_close_events;
		}
	}
	if (r.interval_ms) {
		u64 step = (u64)r.interval_ms * 1000000;
		for (long i = 1;; i++) {
			int w = wait_until(&r, r.t0 + i * step);
			print_interval(&r, ptk_now_ns());
			if (w)
				break;
		}
	} else {
		wait_until(&r, 0);
	}
	r.t_end = ptk_now_ns();
	if (r.child > 0) {
		/* stopped by a signal while the command runs: end it like perf stat does */
		kill(r.child, SIGTERM);
		if (wait4(r.child, NULL, 0, &r.ru) == r.child)
			r.have_ru = true;
		r.child = 0;
	}
	if (!r.interval_ms)
		print_final(&r);
	if (ferror(r.out))
		rc = PTK_EXIT_RUNTIME;
	else if (r.have_ru && r.cmd && WIFEXITED(r.status))
		rc = WEXITSTATUS(r.status); /* perf stat exits with the command's status */
	else if (r.have_ru && r.cmd && WIFSIGNALED(r.status))
		rc = 128 + WTERMSIG(r.status);
out_close_events:
	for (int i = 0; i < r.nev; i++)
		ptk_perf_evsel_close(&r.ev[i]);
	if (r.child > 0) {
		if (child.go_fd > 0)
			close(child.go_fd); /* EOF: the waiting child exits 127 */
		if (child.err_fd > 0)
			close(child.err_fd);
		kill(r.child, SIGKILL);
		waitpid(r.child, NULL, 0);
	}
	if (r.out && r.out != stdout && r.out != stderr)
		fclose(r.out);
out_free_events:
	if (r.pidfd >= 0)
		close(r.pidfd);
	free(r.ev);
	free(cpus);
	ptk_tracefs_release();
	return rc;
}
