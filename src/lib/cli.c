// SPDX-License-Identifier: GPL-2.0
#include "lib/cli.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/util.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"

static volatile int *stop_flag;

static void on_signal(int sig)
{
	if (stop_flag)
		*stop_flag = 1;
}

int ptk_common_opt(struct ptk_ctx *ctx, int c, const char *arg)
{
	switch (c) {
	case PTK_OPT_JSON:
		ctx->json = true;
		return 0;
	case PTK_OPT_PROCFS:
		ctx->procfs = arg;
		return 0;
	case PTK_OPT_SYSFS:
		ctx->sysfs = arg;
		return 0;
	case PTK_OPT_HELP:
		return 1;
	default:
		return -1;
	}
}

/* The option getopt just rejected, as the user wrote it: "-z" or "--foo" (no "=value"). */
static const char *rejected_option(char **argv, char *buf, size_t size)
{
	const char *a = argv[optind - 1];

	if (optopt && optopt < 0x100 && strncmp(a, "--", 2))
		snprintf(buf, size, "-%c", optopt);
	else
		snprintf(buf, size, "%.*s", (int)strcspn(a, "="), a);
	return buf;
}

int ptk_getopt(struct ptk_ctx *ctx, int argc, char **argv, const char *optstring,
	       const struct option *longopts, const char *usage, int *rc)
{
	char opts[128], name[64];
	size_t lead = optstring[0] == '+' || optstring[0] == '-';

	/* a ':' after the scanning mode: a missing argument is told from an unknown option */
	snprintf(opts, sizeof(opts), "%.*s:%s", (int)lead, optstring, optstring + lead);
	for (;;) {
		int c = getopt_long(argc, argv, opts, longopts, NULL);
		switch (c) {
		case -1:
			return PTK_GETOPT_END;
		case PTK_OPT_JSON:
		case PTK_OPT_PROCFS:
		case PTK_OPT_SYSFS:
			ptk_common_opt(ctx, c, optarg);
			continue;
		case PTK_OPT_HELP:
			fputs(usage, stdout);
			*rc = PTK_EXIT_OK;
			return PTK_GETOPT_EXIT;
		case ':':
			*rc = ptk_usage_error(ctx, "option '%s' needs an argument",
					      rejected_option(argv, name, sizeof(name)));
			return PTK_GETOPT_EXIT;
		case '?':
			/* a known long option given "=value" it does not take */
			if (optopt && !strncmp(argv[optind - 1], "--", 2) &&
			    strchr(argv[optind - 1], '='))
				*rc = ptk_usage_error(ctx, "option '%s' takes no argument",
						      rejected_option(argv, name, sizeof(name)));
			else
				*rc = ptk_usage_error(ctx, "unknown option '%s'",
						      rejected_option(argv, name, sizeof(name)));
			return PTK_GETOPT_EXIT;
		default:
			return c;
		}
	}
}

int ptk_parse_pid_operand(struct ptk_ctx *ctx, int argc, char **argv, int *pid)
{
	if (optind >= argc)
		return ptk_usage_error(ctx, "missing PID");
	if (optind + 1 < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind + 1]);
	if (ptk_parse_int(argv[optind], pid) || *pid <= 0)
		return ptk_usage_error(ctx, "bad PID '%s'", argv[optind]);
	return 0;
}

int ptk_require_pids(const struct ptk_ctx *ctx, const int *pids, int n)
{
	int alive = 0;

	for (int i = 0; i < n; i++)
		alive += ptk_task_alive(&ctx->src, pids[i]);
	if (alive == n)
		return 0;
	for (int i = 0; i < n; i++)
		if (!ptk_task_alive(&ctx->src, pids[i]))
			fprintf(stderr, "ptk %s: %sno such process %d\n", ctx->cmd,
				alive ? "warning: " : "", pids[i]);
	return alive ? 0 : PTK_EXIT_RUNTIME;
}

int ptk_require_stoppable(const struct ptk_ctx *ctx, int pid, const char *what)
{
	switch (ptk_task_kind(&ctx->src, pid)) {
	case PTK_TASK_USER:
		return 0;
	case PTK_TASK_ZOMBIE:
		fprintf(stderr,
			"ptk %s: process %d is a zombie: it has exited, there is nothing to %s\n",
			ctx->cmd, pid, what);
		return PTK_EXIT_RUNTIME;
	case PTK_TASK_KTHREAD:
		fprintf(stderr,
			"ptk %s: process %d is a kernel thread: it has no user space to %s\n",
			ctx->cmd, pid, what);
		return PTK_EXIT_RUNTIME;
	case -ENOENT:
		fprintf(stderr, "ptk %s: no such process %d\n", ctx->cmd, pid);
		return PTK_EXIT_RUNTIME;
	default:
		return 0; /* unreadable stat: the stop itself says why it fails */
	}
}

int ptk_usage_error(const struct ptk_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptk %s: ", ctx->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'ptk %s --help')\n", ctx->cmd);
	return PTK_EXIT_USAGE;
}

int ptk_ctx_ready(struct ptk_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int r = ptk_src_init(&ctx->src, ctx->procfs, ctx->sysfs);

	if (r) {
		bool sys = ctx->src.bad_sysfs;
		ptk_err("cannot use %s %s: %s", sys ? "--sysfs" : "--procfs",
			sys	    ? ctx->sysfs :
			ctx->procfs ? ctx->procfs :
				      "/proc",
			strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	ptk_sink_init(&ctx->sink, ctx->json ? PTK_FMT_JSON : PTK_FMT_TEXT, stdout);
	stop_flag = &ctx->stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed pipe (ptk execsnoop | head) must end the loop through the normal cleanup
	 * path (probes detached, tracefs unmounted), not kill the process: ignore SIGPIPE and
	 * let the loops see the write error */
	signal(SIGPIPE, SIG_IGN);
	ctx->cpu_start_ns = ptk_self_cpu_ns();
	return 0;
}

int ptk_parse_interval_count(struct ptk_ctx *ctx, int argc, char **argv, double *interval,
			     long *count, bool *has_interval)
{
	int n = argc - optind;

	if (has_interval)
		*has_interval = false;
	if (n > 2)
		return ptk_usage_error(ctx, "too many operands: '%s'", argv[optind + 2]);
	if (n >= 1) {
		double v;
		if (ptk_parse_double(argv[optind], &v) || v < PTK_MIN_INTERVAL_S ||
		    v > PTK_MAX_INTERVAL_S)
			return ptk_usage_error(ctx, "invalid interval '%s' (%.2g to %.0f s)",
					       argv[optind], PTK_MIN_INTERVAL_S,
					       PTK_MAX_INTERVAL_S);
		*interval = v;
		if (has_interval)
			*has_interval = true;
	}
	if (n == 2) {
		u64 c;
		if (ptk_parse_u64(argv[optind + 1], &c) || c < 1 || c > (u64)1 << 40)
			return ptk_usage_error(ctx, "invalid count '%s'", argv[optind + 1]);
		*count = c;
	}
	return 0;
}

double ptk_ctx_uptime(const struct ptk_ctx *ctx)
{
	struct ptk_uptime up;

	return ptk_uptime_read(&ctx->src, &up) ? -1 : up.up_s;
}

double ptk_ctx_walltime(const struct ptk_ctx *ctx)
{
	/* another root or a snapshot: its own clock is btime + uptime */
	if (!ptk_src_is_live(&ctx->src)) {
		struct ptk_stat st = { 0 };
		double t = -1, up = ptk_ctx_uptime(ctx);
		if (ptk_stat_read(&ctx->src, &st) == 0 && st.btime && up >= 0)
			t = st.btime + up;
		ptk_stat_free(&st);
		if (t >= 0)
			return t;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void ptk_sysstat_banner(FILE *f, const char *sys, const char *rel, const char *host,
			const char *mach, int ncpu, time_t t, bool utc, bool iso)
{
	char day[64] = "";
	struct tm tm;

	if (utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-y2k"
		strftime(day, sizeof(day), iso ? "%Y-%m-%d" : "%x", &tm);
#pragma GCC diagnostic pop
	}
	fprintf(f, "%s %s (%s) \t%s \t_%s_\t(%d CPU)\n", sys, rel, host, day, mach, ncpu);
}

void ptk_ctx_host(const struct ptk_ctx *ctx, struct ptk_host *h)
{
	struct utsname u;

	uname(&u);
	snprintf(h->sys, sizeof(h->sys), "%s", u.sysname);
	snprintf(h->mach, sizeof(h->mach), "%s", u.machine);
	if (ptk_src_read(&ctx->src, PTK_PROC, "sys/kernel/osrelease", h->rel, sizeof(h->rel)) <= 0)
		snprintf(h->rel, sizeof(h->rel), "%s", u.release);
	if (ptk_src_read(&ctx->src, PTK_PROC, "sys/kernel/hostname", h->host, sizeof(h->host)) <= 0)
		snprintf(h->host, sizeof(h->host), "%s", u.nodename);
	h->rel[strcspn(h->rel, "\n")] = '\0';
	h->host[strcspn(h->host, "\n")] = '\0';
}

void ptk_ctx_banner(const struct ptk_ctx *ctx, int ncpu)
{
	struct ptk_host h;

	ptk_ctx_host(ctx, &h);
	ptk_sysstat_banner(stdout, h.sys, h.rel, h.host, h.mach, ncpu,
			   (time_t)ptk_ctx_walltime(ctx), false, false);
}

/* sysstat's default colours (its common.h) */
static const char *const sgr_default[PTK_SGR_N] = {
	[PTK_SGR_WARN] = "\033[35;1m",	    [PTK_SGR_XTREME] = "\033[31;1m",
	[PTK_SGR_ZERO] = "\033[34;22m",	    [PTK_SGR_INT] = "\033[34;1m",
	[PTK_SGR_ITEM] = "\033[32;22m",	    [PTK_SGR_COMMENT] = "\033[33;22m",
	[PTK_SGR_RESTART] = "\033[31;22m",  [PTK_SGR_TREND_POS] = "\033[32;1m",
	[PTK_SGR_TREND_NEG] = "\033[31;1m", [PTK_SGR_NORMAL] = "\033[0m",
};

void ptk_sysenv_read(struct ptk_sysenv *e)
{
	const char *v;

	memset(e, 0, sizeof(*e));
	setlocale(LC_TIME, "");
	v = getenv("S_TIME_FORMAT");
	e->iso = v && !strcmp(v, "ISO");
	v = getenv("S_TIME_DEF_TIME");
	e->utc = v && !strcmp(v, "UTC");
	e->posix = getenv("POSIXLY_CORRECT") != NULL;
	v = getenv("S_COLORS");
	e->color = v ? strcmp(v, "never") && (!strcmp(v, "always") || isatty(STDOUT_FILENO)) :
		       isatty(STDOUT_FILENO);
	v = getenv("S_REPEAT_HEADER");
	if (v && *v && strspn(v, "0123456789") == strlen(v) && strlen(v) < 9)
		e->repeat = atoi(v);
	for (int k = 0; k < PTK_SGR_N; k++)
		snprintf(e->sgr[k], sizeof(e->sgr[k]), "%s", sgr_default[k]);
	v = getenv("S_COLORS_SGR");
	if (!v)
		return;
	/* "K=codes:..." with codes digits and ';'; a malformed item is ignored, as sysstat */
	for (const char *p = v; *p;) {
		size_t n = strcspn(p, ":");
		if (n >= 3 && n <= 7 && p[1] == '=' && strspn(p + 2, ";0123456789") == n - 2) {
			static const char keys[] = "MWXHZNICR+-";
			static const enum ptk_sgr kinds[] = {
				PTK_SGR_WARN,	   PTK_SGR_WARN,      PTK_SGR_XTREME,
				PTK_SGR_XTREME,	   PTK_SGR_ZERO,      PTK_SGR_INT,
				PTK_SGR_ITEM,	   PTK_SGR_COMMENT,   PTK_SGR_RESTART,
				PTK_SGR_TREND_POS, PTK_SGR_TREND_NEG,
			};
			const char *k = strchr(keys, p[0]);
			if (k && *k)
				snprintf(e->sgr[kinds[k - keys]], sizeof(e->sgr[0]), "\033[%.*sm",
					 (int)(n - 2), p + 2);
		}
		p += n + (p[n] == ':');
	}
}

const char *ptk_sgr(const struct ptk_sysenv *e, enum ptk_sgr k)
{
	return e && e->color ? e->sgr[k] : "";
}

void ptk_sysstat_version(FILE *f, const char *const *names, int n)
{
	for (int i = 0; i < n; i++) {
		const char *v = getenv(names[i]);
		if (v)
			fprintf(f, "%s=%s\n", names[i], v);
	}
	fprintf(f, "ptk version %s\n", PTK_VERSION);
}

static struct tm *sys_tm(const struct ptk_sysenv *e, time_t t, struct tm *tm)
{
	return e && e->utc ? gmtime_r(&t, tm) : localtime_r(&t, tm);
}

void ptk_sysstat_time(const struct ptk_sysenv *e, bool epoch, time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (epoch) {
		snprintf(buf, size, "%lld", (long long)t);
		return;
	}
	buf[0] = '\0';
	if (sys_tm(e, t, &tm))
		strftime(buf, size, e && e->iso ? "%H:%M:%S" : "%X", &tm);
}

void ptk_sysstat_date(const struct ptk_sysenv *e, time_t t, char *buf, size_t size)
{
	struct tm tm;

	buf[0] = '\0';
	if (sys_tm(e, t, &tm)) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-y2k"
		strftime(buf, size, e && e->iso ? "%Y-%m-%d" : "%x", &tm);
#pragma GCC diagnostic pop
	}
}

int ptk_sysstat_rows(const struct ptk_sysenv *e, int dflt)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		return ws.ws_row > 2 ? ws.ws_row - 2 : dflt;
	return e && e->repeat > 0 ? e->repeat : dflt;
}

void ptk_ctx_clock(const struct ptk_ctx *ctx, char *buf, size_t size)
{
	time_t t = (time_t)ptk_ctx_walltime(ctx);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, size, "%H:%M:%S", &tm);
}

int ptk_loop(struct ptk_ctx *ctx, double interval_s, long count, ptk_sample_fn sample, void *arg)
{
	u64 t0 = ptk_now_ns(), prev_ns = t0;
	double prev_up = ptk_ctx_uptime(ctx);
	u64 step = (u64)llround(interval_s * 1e9);
	int r = sample(ctx, arg, 0, 0);

	if (r)
		return r;
	for (long i = 1; count < 0 || i <= count; i++) {
		double itv;
		if (ctx->stop || ptk_output_broken())
			return -EINTR;
		if (ctx->src.replay) {
			if (ptk_src_next(&ctx->src))
				return 0;
			double up = ptk_ctx_uptime(ctx);
			itv = (up >= 0 && prev_up >= 0) ? up - prev_up : interval_s;
			prev_up = up;
		} else {
			if (ptk_sleep_until(t0 + i * step, &ctx->stop))
				return -EINTR;
			u64 now = ptk_now_ns();
			itv = (now - prev_ns) / 1e9;
			prev_ns = now;
		}
		r = sample(ctx, arg, i, itv);
		if (r)
			return r;
	}
	return 0;
}

bool ptk_output_broken(void)
{
	return ferror(stdout) != 0;
}
