// SPDX-License-Identifier: GPL-2.0
/*
 * ptk strace: trace system calls and signals with ptrace, in strace's notation, with a
 * bounded pause: a -e trace= subset is filtered in the kernel (seccomp-bpf,
 * SECCOMP_RET_TRACE) so untraced calls never stop the target, every tracee is detached
 * within 1 s of SIGINT/SIGTERM, and the cost (stops x measured per-stop cost) is reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/syscsum.h"
#include "source/ptrace/decode.h"
#include "source/ptrace/ptrace.h"
#include "source/ptrace/syscalls.h"
#include "source/ptrace/xlat.h"

/* -c summary columns, strace -c layout */
enum { C_PCT, C_SEC, C_USEC, C_CALLS, C_ERR, C_NAME, C_N };
static const struct ptk_metric *const sum_cols[C_N] = {
	[C_PCT] = PTK_M(SYSC_TIME_PCT),	       [C_SEC] = PTK_M(SYSC_SECONDS),
	[C_USEC] = PTK_M(SYSC_USECS_PER_CALL), [C_CALLS] = PTK_M(SYSC_CALLS),
	[C_ERR] = PTK_M(SYSC_ERRORS),	       [C_NAME] = PTK_M(SYSC_NAME),
};
static const struct ptk_table sum_tab = { .name = "syscalls", .ncols = C_N, .refs = sum_cols };

static const char usage[] =
	"usage: ptk strace [-f] [-p PID...] [-e trace=SET] [-e status=failed|successful]\n"
	"                  [-e signal=SET] [-c|-C] [-S SORTBY] [-T] [-t|-tt|-ttt] [-r] [-y]\n"
	"                  [-s N] [-v] [-o FILE] [--json] [-- CMD ARGS]\n"
	"Trace system calls and signals (ptrace), in strace's notation.\n"
	"  -f          follow fork, vfork, clone and clone3\n"
	"  -p PID      attach to every thread of PID (repeat or comma-separate)\n"
	"  -e trace=SET     names and %%classes (%%file %%desc %%network %%process %%signal\n"
	"                   %%ipc %%memory %%creds %%clock), all, none, !SET; a launched command\n"
	"                   gets a seccomp-bpf filter so only these stop\n"
	"  -e status=failed|successful   only calls that failed / succeeded\n"
	"  -e signal=SET    signals shown as --- SIG... --- lines (default all)\n"
	"  -c / -C     summary table (only / as well as the trace); -S time|calls|errors|name|nothing\n"
	"  -T          time spent in each call <s>;  -t -tt -ttt  wall clock;  -r  relative\n"
	"  -y          descriptors with their paths;  -s N  string size (32);  -v  whole structs\n"
	"  -o FILE     write the trace (and summary) to FILE instead of stderr\n"
	"The cost of tracing is reported on stderr at exit: syscalls seen, stops, and the time\n"
	"added to the target (stops x the per-stop cost measured on this machine).\n";

enum { STATUS_ANY, STATUS_FAILED, STATUS_OK };

struct st {
	struct ptk_ctx *ctx;
	struct ptk_decopt dec;
	struct ptk_tracer tr;
	FILE *out;
	bool to_file;
	bool trace_all;
	bool sel[PTK_NSYSCALLS];
	bool sigsel[65];
	int status_filter;
	int cmode; /* 0 trace, 1 -c (summary only), 2 -C (both) */
	enum ptk_sysc_sort sortby;
	bool show_time; /* -T */
	int tstamp; /* -t count */
	bool relative; /* -r */
	bool multi; /* more than one tracee seen: prefix lines with the pid */
	u64 last_ts_ns;
	struct ptk_tcb *cur; /* tracee whose line is open (eager printing) */
	size_t cur_col;
	struct ptk_sysc_stats stats;
	u64 nsys_shown;
};

struct tstate {
	struct ptk_sbuf line; /* entry text kept for -e status= and for resumed lines */
	int from; /* first argument still to print at exit */
	bool skip; /* not selected */
	bool printed; /* the entry is on the output */
	struct timespec wall; /* entry wall clock, for -t */
};

static volatile int *stop_flag;

static void on_alarm(int sig)
{
	(void)sig; /* only interrupts wait4 */
}

static void on_stop(int sig)
{
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } };

	(void)sig;
	*stop_flag = 1;
	/* wait4 may have been entered just before the flag was set: keep interrupting it */
	setitimer(ITIMER_REAL, &it, NULL);
}

static bool printing(const struct st *s)
{
	return s->cmode != 1;
}

static size_t leader(struct st *s, struct ptk_tcb *t, const struct timespec *wall)
{
	char buf[96];
	int n = 0;

	buf[0] = 0;
	if (s->tr.ntcb > 1)
		s->multi = true; /* sticky: lines stay attributable while tracees go away */
	if (s->to_file && (s->tr.follow || s->multi))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%-5d ", t->pid);
	else if (s->multi)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[pid %5d] ", t->pid);
	if (s->tstamp) {
		struct tm tm;
		time_t sec = wall->tv_sec;
		if (s->tstamp >= 3) {
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%lld.%06ld ",
				      (long long)wall->tv_sec, wall->tv_nsec / 1000);
		} else {
			localtime_r(&sec, &tm);
			n += (int)strftime(buf + n, sizeof(buf) - (size_t)n, "%H:%M:%S", &tm);
			if (s->tstamp == 2)
				n += snprintf(buf + n, sizeof(buf) - (size_t)n, ".%06ld",
					      wall->tv_nsec / 1000);
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, " ");
		}
	}
	if (s->relative) {
		u64 now = ptk_now_ns(), d = s->last_ts_ns ? now - s->last_ts_ns : 0;
		s->last_ts_ns = now;
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%6llu.%06llu ",
			      (unsigned long long)(d / 1000000000),
			      (unsigned long long)(d / 1000 % 1000000));
	}
	fputs(buf, s->out);
	return (size_t)n;
}

/* End another tracee's open line before printing something else. */
static void interrupt_open_line(struct st *s, struct ptk_tcb *t)
{
	if (s->cur && s->cur != t) {
		fputs(" <unfinished ...>\n", s->out);
		s->cur = NULL;
	}
}

static void now_wall(const struct st *s, struct timespec *ts)
{
	if (s->tstamp)
		clock_gettime(CLOCK_REALTIME, ts);
	else
		ts->tv_sec = ts->tv_nsec = 0;
}

static void on_added(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	(void)tr;
	t->user = xcalloc(1, sizeof(struct tstate));
}

static void on_entry(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	struct st *s = tr->arg;
	struct tstate *u = t->user;

	u->printed = false;
	u->skip = t->hide || (t->nr >= 0 && t->nr < PTK_NSYSCALLS && !s->sel[t->nr]) ||
		  (t->nr < 0 && !s->trace_all) || (t->nr >= PTK_NSYSCALLS && !s->trace_all);
	if (!u->skip && (t->nr == __NR_clone || t->nr == __NR_clone3)) {
		u64 fl = t->args[0];
		struct {
			u64 flags;
		} ca = { 0 };
		if (t->nr == __NR_clone3)
			fl = ptk_tracee_read(t, t->args[0], &ca, sizeof(ca)) == sizeof(ca) ?
				     ca.flags :
				     0;
		if ((fl & 0x00800000 /* CLONE_UNTRACED */) && tr->follow)
			ptk_warn("pid %d: clone with CLONE_UNTRACED: the child will not be traced",
				 t->pid);
	}
	if (u->skip || !printing(s))
		return;
	now_wall(s, &u->wall);
	ptk_sb_reset(&u->line);
	u->from = ptk_dec_entry(&u->line, &s->dec, t);
	if (s->status_filter != STATUS_ANY)
		return; /* decided at exit */
	interrupt_open_line(s, t);
	s->cur_col = leader(s, t, &u->wall) + u->line.len;
	fputs(u->line.p, s->out);
	s->cur = t;
	u->printed = true;
}

/*
 * Continue the line of t's syscall whose entry is printed: on the open line (col0 = its
 * column), or on a new "<... NAME resumed>" line after another tracee's output. False when
 * the entry is not printed.
 */
static bool resume_line(struct st *s, struct ptk_tcb *t, struct ptk_sbuf *sb, size_t *col0)
{
	struct tstate *u = t->user;
	char nb[32];

	if (!u->printed)
		return false;
	if (s->cur == t) {
		*col0 = s->cur_col;
		return true;
	}
	interrupt_open_line(s, t);
	*col0 = leader(s, t, &u->wall);
	ptk_sb_printf(sb, "<... %s resumed>", ptk_dec_name(t->nr, nb, sizeof(nb)));
	return true;
}

static void on_exit_(struct ptk_tracer *tr, struct ptk_tcb *t, s64 rval, bool is_error,
		     u64 stime_us)
{
	struct st *s = tr->arg;
	struct tstate *u = t->user;
	struct ptk_sbuf sb = { 0 };
	size_t col0;

	if (u->skip)
		return;
	ptk_sysc_count(&s->stats, t->nr, is_error, stime_us);
	s->nsys_shown++;
	if (!printing(s))
		return;
	if (s->status_filter == STATUS_FAILED && !is_error)
		return;
	if (s->status_filter == STATUS_OK && is_error)
		return;
	if (!resume_line(s, t, &sb, &col0)) {
		interrupt_open_line(s, t);
		col0 = leader(s, t, &u->wall);
		ptk_sb_puts(&sb, u->line.p);
	}
	ptk_dec_exit(&sb, &s->dec, t, u->from, rval, is_error, col0 + sb.len);
	if (s->show_time) {
		u64 d = ptk_now_ns() - t->entry_ns;
		ptk_sb_printf(&sb, " <%llu.%06llu>", (unsigned long long)(d / 1000000000),
			      (unsigned long long)(d / 1000 % 1000000));
	}
	ptk_sb_puts(&sb, "\n");
	fputs(sb.p, s->out);
	ptk_sb_free(&sb);
	s->cur = NULL;
	u->printed = false;
}

/* A syscall that never returns (exit_group, a killed tracee): " = ?" */
static void finish_unreturned(struct st *s, struct ptk_tcb *t, const char *mark)
{
	struct tstate *u = t->user;
	struct ptk_sbuf sb = { 0 };
	size_t col0;

	if (!t->in_syscall || u->skip || !printing(s) || s->status_filter != STATUS_ANY)
		return;
	if (!resume_line(s, t, &sb, &col0))
		return;
	if (mark) {
		ptk_sb_printf(&sb, " %s\n", mark);
	} else {
		ptk_sb_puts(&sb, ") ");
		ptk_dec_pad(&sb, col0, 0);
		ptk_sb_puts(&sb, "= ?\n");
	}
	fputs(sb.p, s->out);
	ptk_sb_free(&sb);
	s->cur = NULL;
	u->printed = false;
}

static void on_signal(struct ptk_tracer *tr, struct ptk_tcb *t, const siginfo_t *si)
{
	struct st *s = tr->arg;
	struct ptk_sbuf sb = { 0 };
	struct timespec wall;

	if (!printing(s) || si->si_signo <= 0 || si->si_signo > 64 || !s->sigsel[si->si_signo] ||
	    s->status_filter != STATUS_ANY)
		return;
	interrupt_open_line(s, t);
	now_wall(s, &wall);
	leader(s, t, &wall);
	ptk_sb_printf(&sb, "--- %s ", ptk_signal_name(si->si_signo));
	ptk_dec_siginfo(&sb, si);
	ptk_sb_puts(&sb, " ---\n");
	fputs(sb.p, s->out);
	ptk_sb_free(&sb);
}

static void on_group_stop(struct ptk_tracer *tr, struct ptk_tcb *t, int sig)
{
	struct st *s = tr->arg;
	struct timespec wall;

	if (!printing(s) || !s->sigsel[sig] || s->status_filter != STATUS_ANY)
		return;
	interrupt_open_line(s, t);
	now_wall(s, &wall);
	leader(s, t, &wall);
	fprintf(s->out, "--- stopped by %s ---\n", ptk_signal_name(sig));
}

static void on_gone(struct ptk_tracer *tr, struct ptk_tcb *t, int status)
{
	struct st *s = tr->arg;
	struct tstate *u = t->user;
	struct timespec wall;

	if (status != -1 && printing(s) && !t->hide) {
		finish_unreturned(s, t, NULL);
		if (s->status_filter == STATUS_ANY) {
			interrupt_open_line(s, t);
			now_wall(s, &wall);
			leader(s, t, &wall);
			if (WIFEXITED(status))
				fprintf(s->out, "+++ exited with %d +++\n", WEXITSTATUS(status));
			else
				fprintf(s->out, "+++ killed by %s%s +++\n",
					ptk_signal_name(WTERMSIG(status)),
					WCOREDUMP(status) ? " (core dumped)" : "");
		}
	}
	if (s->cur == t)
		s->cur = NULL;
	ptk_sb_free(&u->line);
	free(u);
	t->user = NULL;
}

static void on_detached(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	struct st *s = tr->arg;
	struct tstate *u = t->user;

	finish_unreturned(s, t, "<detached ...>");
	if (s->cur == t)
		s->cur = NULL;
	if (u)
		ptk_sb_free(&u->line);
	free(u);
	t->user = NULL;
}

static const struct ptk_tracer_ops ops = {
	.added = on_added,
	.entry = on_entry,
	.exit = on_exit_,
	.signal = on_signal,
	.group_stop = on_group_stop,
	.gone = on_gone,
	.detached = on_detached,
};

/* ---- -c summary ------------------------------------------------------------------------ */

static void sum_text_row(FILE *f, const struct ptk_val *v, bool blank_err)
{
	char b[C_N][64];

	for (int i = 0; i < C_N; i++)
		ptk_metric_fmt(sum_cols[i], &v[i], b[i], sizeof(b[i]));
	fprintf(f, "%6s %11s %11s %9s %9s %s\n", b[C_PCT], b[C_SEC], b[C_USEC], b[C_CALLS],
		blank_err ? "" : b[C_ERR], b[C_NAME]);
}

static void print_summary(struct st *s)
{
	int rows[PTK_NSYSCALLS];
	struct ptk_sysc_ent tot;
	int n = ptk_sysc_summary(&s->stats, s->sortby, rows, &tot);
	struct ptk_val v[C_N];
	static const char dash[] =
		"------ ----------- ----------- --------- --------- ----------------\n";
	bool json = s->ctx->json;
	FILE *f = s->out;

	if (json) {
		ptk_sink_begin(&s->ctx->sink);
		ptk_sink_table_begin(&s->ctx->sink, &sum_tab, false, NULL);
	} else {
		fprintf(f, "%6.6s %11.11s %11.11s %9.9s %9.9s %s\n", "% time", "seconds",
			"usecs/call", "calls", "errors", "syscall");
		fputs(dash, f);
	}
	for (int k = 0; k <= n; k++) {
		const struct ptk_sysc_ent *e = k == n ? &tot : &s->stats.e[rows[k]];
		double pct, secs;
		u64 us;
		if (k == n) {
			if (json)
				break;
			fputs(dash, f);
		}
		ptk_sysc_figures(e, tot.time_us, &pct, &secs, &us);
		v[C_PCT] = PTK_F(k == n ? 100.0 : pct);
		v[C_SEC] = PTK_F(secs);
		v[C_USEC] = PTK_U(us);
		v[C_CALLS] = PTK_U(e->calls);
		v[C_ERR] = PTK_U(e->errors);
		v[C_NAME] = PTK_S(k == n ? "total" : ptk_syscalls[rows[k]].name);
		if (json)
			ptk_sink_row(&s->ctx->sink, NULL, v);
		else
			sum_text_row(f, v, e->errors == 0);
	}
	if (json) {
		ptk_sink_table_end(&s->ctx->sink);
		ptk_sink_meta_u64(&s->ctx->sink, "calls", tot.calls);
		ptk_sink_meta_u64(&s->ctx->sink, "errors", tot.errors);
		ptk_sink_end(&s->ctx->sink);
	}
}

/* ---- options ---------------------------------------------------------------------------- */

static int parse_e(struct st *s, char *arg, const char **err)
{
	char *eq = strchr(arg, '=');
	const char *key = "trace", *val = arg;

	if (eq) {
		*eq = 0;
		key = arg;
		val = eq + 1;
	}
	if (!strcmp(key, "trace") || !strcmp(key, "t")) {
		char *dup = xstrdup(val);
		const char *bad = NULL;
		int r = ptk_syscall_parse_set(dup, s->sel, &bad);
		if (r) {
			static char msg[128];
			snprintf(msg, sizeof(msg), "invalid system call '%s'", bad);
			*err = msg;
			free(dup);
			return -1;
		}
		free(dup);
		s->trace_all = true;
		for (int i = 0; i < PTK_NSYSCALLS; i++)
			if (ptk_syscalls[i].name && !s->sel[i])
				s->trace_all = false;
		return 0;
	}
	if (!strcmp(key, "status")) {
		if (!strcmp(val, "failed"))
			s->status_filter = STATUS_FAILED;
		else if (!strcmp(val, "successful"))
			s->status_filter = STATUS_OK;
		else if (!strcmp(val, "all"))
			s->status_filter = STATUS_ANY;
		else {
			*err = "status= takes failed, successful or all";
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "signal") || !strcmp(key, "signals") || !strcmp(key, "s")) {
		char *dup = xstrdup(val), *p = dup, *save = NULL, *tok;
		bool neg = *p == '!';
		if (neg)
			p++;
		memset(s->sigsel, 0, sizeof(s->sigsel));
		for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!strcmp(tok, "all")) {
				memset(s->sigsel, 1, sizeof(s->sigsel));
			} else if (strcmp(tok, "none")) {
				int sig = ptk_signal_parse(tok);
				if (sig < 0) {
					free(dup);
					*err = "unknown signal in signal=";
					return -1;
				}
				s->sigsel[sig] = true;
			}
		}
		if (neg)
			for (int i = 0; i <= 64; i++)
				s->sigsel[i] = !s->sigsel[i];
		free(dup);
		return 0;
	}
	*err = "unknown -e qualifier (trace=, status=, signal=)";
	return -1;
}

int cmd_strace(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	struct st *s = xcalloc(1, sizeof(*s));
	int *pids = NULL, npids = 0, c, r, rc = 0;
	char bad[128];
	bool follow = false;
	const char *outname = NULL, *err = NULL;
	struct sock_filter *filt = NULL;
	struct sock_fprog prog;
	u64 t_start;

	s->ctx = ctx;
	s->dec.strsize = 32;
	s->trace_all = true;
	memset(s->sigsel, 1, sizeof(s->sigsel));
	for (int i = 0; i < PTK_NSYSCALLS; i++)
		s->sel[i] = ptk_syscalls[i].name != NULL;
	while ((c = ptk_getopt(ctx, argc, argv, "+fp:e:cCS:Ttryws:vo:h", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'f':
			follow = true;
			break;
		case 'p':
			if (ptk_parse_id_list(optarg, ", ", &pids, &npids, bad, sizeof(bad))) {
				rc = ptk_usage_error(ctx, "invalid process id '%s'", bad);
				goto out_free;
			}
			break;
		case 'e':
			if (parse_e(s, optarg, &err) < 0) {
				rc = ptk_usage_error(ctx, "%s", err);
				goto out_free;
			}
			break;
		case 'c':
			s->cmode = 1;
			break;
		case 'C':
			s->cmode = 2;
			break;
		case 'S':
			if (ptk_sysc_sort_parse(optarg, &s->sortby)) {
				rc = ptk_usage_error(ctx, "invalid sortby '%s'", optarg);
				goto out_free;
			}
			break;
		case 'T':
			s->show_time = true;
			break;
		case 't':
			s->tstamp++;
			break;
		case 'r':
			s->relative = true;
			break;
		case 'y':
			s->dec.fdpath = true;
			break;
		case 'w':
			break; /* wall-clock summary: accepted, system time is used */
		case 's':
			if (ptk_parse_int(optarg, &s->dec.strsize) || s->dec.strsize < 0) {
				rc = ptk_usage_error(ctx, "invalid -s '%s'", optarg);
				goto out_free;
			}
			break;
		case 'v':
			s->dec.verbose = true;
			break;
		case 'o':
			outname = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			goto out_free;
		}
	}
	if (c == PTK_GETOPT_EXIT) {
		rc = r;
		goto out_free;
	}
	if (!npids && optind >= argc) {
		rc = ptk_usage_error(ctx, "must have -p PID or a command to run");
		goto out_free;
	}
	if (npids && optind < argc) {
		rc = ptk_usage_error(ctx, "-p and a command are exclusive");
		goto out_free;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out_free;
	for (int i = 0; i < npids; i++)
		if ((rc = ptk_require_stoppable(ctx, pids[i], "trace")))
			goto out_free;

	if (outname) {
		s->out = fopen(outname, "we");
		if (!s->out) {
			ptk_err("cannot open %s: %s", outname, strerror(errno));
			return PTK_EXIT_RUNTIME;
		}
		s->to_file = true;
	} else {
		s->out = fdopen(fcntl(2, F_DUPFD_CLOEXEC, 3), "w");
		if (!s->out)
			s->out = stderr;
	}
	setvbuf(s->out, NULL, isatty(fileno(s->out)) ? _IOLBF : _IOFBF, 1 << 16);

	ptk_tracer_init(&s->tr, &ops, s);
	s->tr.follow = follow;
	s->tr.rusage = s->cmode != 0;
	s->tr.timing = s->show_time;
	s->tr.stop = &ctx->stop;

	stop_flag = &ctx->stop;
	struct sigaction sa = { .sa_handler = on_stop }, al = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &al, NULL);
	signal(SIGPIPE, SIG_IGN);

	t_start = ptk_now_ns();
	if (npids) {
		for (int i = 0; i < npids; i++) {
			r = ptk_tracer_attach(&s->tr, pids[i]);
			if (r < 0) {
				ptk_err("attach: ptrace(PTRACE_SEIZE, %d): %s", pids[i],
					strerror(-r));
				rc = PTK_EXIT_RUNTIME;
				goto out_detach;
			}
			fprintf(stderr, "%s: Process %d attached (%d thread%s)\n", ptk_progname,
				pids[i], r, r == 1 ? "" : "s");
		}
	} else {
		if (!s->trace_all) {
			int n = ptk_seccomp_build(s->sel, &filt);
			if (n > 0) {
				prog.len = (unsigned short)n;
				prog.filter = filt;
				s->tr.seccomp = true;
			}
		}
		r = ptk_tracer_launch(&s->tr, argv + optind, s->tr.seccomp ? &prog : NULL);
		if (r < 0) {
			ptk_err("cannot start %s: %s", argv[optind], strerror(-r));
			rc = PTK_EXIT_RUNTIME;
			goto out_free;
		}
	}

	r = ptk_tracer_run(&s->tr);
out_detach:
	if (s->tr.ntcb > 0) {
		int left = ptk_tracer_detach_all(&s->tr, 1000000000ULL);
		if (left)
			ptk_warn("%d tracee(s) did not stop within 1 s: the kernel detaches them "
				 "as ptk exits",
				 left);
	}
	{
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		setitimer(ITIMER_REAL, &off, NULL);
	}
	if (s->cur) {
		fputs("\n", s->out);
		s->cur = NULL;
	}
	if (s->cmode)
		print_summary(s);
	fflush(s->out);
	if (!rc || s->tr.nstops) { /* nothing was traced when the attach failed */
		u64 wall = ptk_now_ns() - t_start;
		u64 cost = s->tr.nstops ? ptk_ptrace_stop_cost_ns(300) : 0;
		fprintf(stderr,
			"%s: %llu syscalls, %llu stops, ~%.1f ms added to the target "
			"(%.2f us per stop measured here; %.1f s traced)\n",
			ptk_progname, (unsigned long long)s->tr.nsyscalls,
			(unsigned long long)s->tr.nstops, (double)s->tr.nstops * (double)cost / 1e6,
			(double)cost / 1e3, (double)wall / 1e9);
	}
	if (!rc && s->tr.launched && s->tr.launched_done) {
		int st = s->tr.launched_status;
		rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
out_free:
	if (s->out && s->out != stderr)
		fclose(s->out);
	free(filt);
	free(pids);
	free(s);
	return rc;
}
