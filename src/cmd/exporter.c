// SPDX-License-Identifier: GPL-2.0
/*
 * ptk exporter: the machine's metrics over HTTP for Prometheus, in the text exposition format
 * or OpenMetrics (Accept: application/openmetrics-text). node_exporter's metric names wherever
 * node_exporter has the metric (node_cpu_seconds_total, node_memory_*_bytes, node_disk_*,
 * node_network_*, node_pressure_*, node_load*, node_vmstat_*), so existing dashboards work;
 * ptk_* for what it lacks: the run-queue latency histogram (BPF), context switches by thread
 * group, top-N processes (opt-in) and ptk check's verdicts.
 *
 * The wiring: output/prom_http serves the scrapes and hands the collector thread every scrape
 * waiting as one batch; the collector reads one system snapshot for it (source/snap.h:
 * ptk_snap_read, the next snapshot of a replay tree per collection) and renders it with
 * output/prom_node (node_* from the readers' field tables) and output/prom_ptk (ptk_* from
 * the registry). A scanner thread walks the process table every --scan-interval for the
 * thread-group counters and the top-N processes (model/pscan.h); a check thread runs ptk
 * check's analysis over --check-window again and again. Their results are kept under one lock.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/pscan.h"
#include "model/use.h"
#include "output/prom_cgroup.h"
#include "output/prom_http.h"
#include "output/prom_node.h"
#include "output/prom_ptk.h"
#include "source/bpf/cpuwatch.h"
#include "source/cgroup/cgroup.h"
#include "source/procfs/pid.h"
#include "source/snap.h"

#define DEFAULT_LISTEN "127.0.0.1:9469"
#define MAX_PROCESSES 1000 /* --processes limit */
#define MAX_VERDICTS 64

/* The collectors: node_exporter's (output/prom_node.h), then ptk's own. */
enum { CL_RUNQLAT = PTK_NC_N, CL_THREADS, CL_PROCESSES, CL_CHECK, CL_CGROUPS, CL_N };
static const char *coll_name[CL_N] = {
	[CL_RUNQLAT] = "runqlat",     [CL_CGROUPS] = "cgroups", [CL_THREADS] = "threads",
	[CL_PROCESSES] = "processes", [CL_CHECK] = "check",
};

struct exporter {
	struct ptk_ctx *ctx;
	bool on[CL_N];
	int nproc; /* --processes */
	bool cmdline; /* --expose-cmdline */
	double scan_s, window_s;
	long hz, pagesz;
	double start_wall; /* epoch s */
	struct ptk_cpuwatch *watch;
	int err_watch;
	volatile int quit;
	struct ptk_prom_http *http;

	/* worker threads that are done wait on park until exit (see park()) */
	pthread_mutex_t park_lock;
	pthread_cond_t park, parked_cond;
	int parked;

	/* the collector thread's */
	struct ptk_snap snap;
	struct ptk_cgsnap cg; /* the cgroups collector's */
	bool first_scrape_done; /* replay: later collections move to the next snapshot */
	u64 nscrapes, ncollections;

	/* results of the background threads, under data */
	pthread_mutex_t data;
	struct ptk_tgroups tg;
	bool tg_ok;
	struct ptk_proc_row *procs; /* [nproc] */
	int nprocs;
	bool procs_ok;
	struct ptk_use_verdict verdicts[MAX_VERDICTS];
	int nverdicts; /* < 0: no result yet */
	double verdict_ts, verdict_window;

	/* scanner state (scanner thread, or the collection in replay) */
	struct ptk_snap scan_snap;
	struct ptk_ptab thr[2], prc[2];
	int cur;
	double prev_up; /* uptime at the previous scan, -1 none */
	bool scanned;
	struct ptk_ctx check_ctx; /* the check thread's own context */
};

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One scan of the process table: thread groups and/or the top-N processes. up_s: uptime now
 * (-1 unknown); btime: boot time (0 unknown). */
static void scan_once(struct exporter *ex, double up_s, u64 btime)
{
	const struct ptk_src *src = &ex->ctx->src;
	int prev = ex->cur, cur = !ex->cur;

	if (ex->on[CL_THREADS]) {
		int r = ptk_ptab_scan(src, PTK_PT_THREADS | PTK_PT_STATUS, &ex->thr[cur]);
		pthread_mutex_lock(&ex->data);
		ex->tg_ok = r == 0;
		if (r == 0)
			ptk_tgroups_merge(&ex->tg, &ex->thr[prev], &ex->thr[cur], !ex->scanned,
					  ex->prev_up, ex->hz, wall_now());
		pthread_mutex_unlock(&ex->data);
	}
	if (ex->on[CL_PROCESSES]) {
		unsigned fl = PTK_PT_IO | (ex->cmdline ? PTK_PT_CMDLINE : 0);
		if (ptk_ptab_scan(src, fl, &ex->prc[cur]) == 0) {
			struct ptk_proc_row *rows = xcalloc(ex->nproc, sizeof(*rows));
			int n = ptk_top_procs(
				ex->scanned ? &ex->prc[prev] : NULL, &ex->prc[cur],
				ex->prev_up >= 0 && up_s >= 0 ? up_s - ex->prev_up : 0, ex->prev_up,
				ex->hz, ex->pagesz, btime, ex->cmdline, rows, ex->nproc);
			pthread_mutex_lock(&ex->data);
			free(ex->procs);
			ex->procs = rows;
			ex->nprocs = n;
			ex->procs_ok = true;
			pthread_mutex_unlock(&ex->data);
		}
	}
	ex->cur = cur;
	ex->prev_up = up_s;
	ex->scanned = true;
}

/*
 * The end of a worker thread. The /proc readers keep one thread-local buffer each (static
 * __thread in source/procfs), which a thread that exits would leak; the workers live as long
 * as the process, so at shutdown they report being done and wait here until it exits.
 */
static void park(struct exporter *ex)
{
	pthread_mutex_lock(&ex->park_lock);
	ex->parked++;
	pthread_cond_broadcast(&ex->parked_cond);
	for (;;)
		pthread_cond_wait(&ex->park, &ex->park_lock);
}

static void *scanner_main(void *arg)
{
	struct exporter *ex = arg;
	const struct ptk_src *src = &ex->ctx->src;
	u64 next = ptk_now_ns();

	while (!ex->quit) {
		/* the clock and btime of the scan: /proc/stat and the uptime */
		bool ok = ptk_snap_read(src, &ex->scan_snap, 0) == 0;
		scan_once(ex, ok ? ex->scan_snap.up.up_s : -1, ok ? ex->scan_snap.st.btime : 0);
		next += (u64)(ex->scan_s * 1e9);
		if (next < ptk_now_ns())
			next = ptk_now_ns();
		/* short sleeps so a shutdown is seen within 100 ms */
		while (!ex->quit && ptk_now_ns() < next)
			ptk_sleep_until(MIN(next, ptk_now_ns() + 100000000ull), &ex->quit);
	}
	park(ex);
	return NULL;
}

static void *checker_main(void *arg)
{
	struct exporter *ex = arg;
	struct ptk_use_verdict v[MAX_VERDICTS];

	while (!ex->quit) {
		int n = ptk_use_verdicts(&ex->check_ctx.src, &ex->check_ctx.stop, ex->window_s,
					 ex->watch, v, MAX_VERDICTS);
		if (ex->quit)
			break;
		pthread_mutex_lock(&ex->data);
		if (n >= 0)
			memcpy(ex->verdicts, v, n * sizeof(v[0]));
		ex->nverdicts = n;
		ex->verdict_ts = wall_now();
		ex->verdict_window = ex->window_s;
		pthread_mutex_unlock(&ex->data);
		if (n < 0) /* /proc/stat unreadable: retry after a window */
			ptk_sleep_until(ptk_now_ns() + (u64)(ex->window_s * 1e9), &ex->quit);
	}
	park(ex);
	return NULL;
}

/* One collection: one snapshot, the BPF counts and the background results, in both formats
 * (rendered in one pass). */
static struct ptk_prom_body *collect(struct exporter *ex)
{
	const struct ptk_src *src = &ex->ctx->src;
	struct ptk_prom_body *b = ptk_prom_body_new();
	struct ptk_cpuwatch_result w;
	bool ok[CL_N] = { false }, snap_ok, w_ok = false;
	unsigned node = 0;
	u64 t0 = ptk_now_ns();
	struct ptk_prom_http_stats hs;

	ptk_prom_http_stats(ex->http, &hs);
	for (int c = 0; c < PTK_NC_N; c++)
		node |= ex->on[c] ? 1u << c : 0;
	snap_ok = ptk_snap_read(
			  src, &ex->snap,
			  ptk_prom_node_parts(node) |
				  (ex->on[CL_CGROUPS] ? PTK_SNAP_BIT(PTK_SNAP_DISKSTATS) : 0)) == 0;
	if (ex->on[CL_CGROUPS]) {
		ex->cg.want = PTK_CGW_ALL; /* every container_* family */
		if (!ex->cg.keep)
			ex->cg.keep = ptk_cg_keep_new(); /* the cgroup files stay open */
		ok[CL_CGROUPS] = ptk_cg_read(src, &ex->cg, -1) == 0 && ex->cg.layout != PTK_CG_NONE;
	}
	if (ex->on[CL_RUNQLAT] && ex->watch)
		w_ok = ok[CL_RUNQLAT] = ptk_cpuwatch_read(ex->watch, &w) == 0;
	if (src->replay && (ex->on[CL_THREADS] || ex->on[CL_PROCESSES]))
		/* replay: one scan per scrape, deltas between snapshots */
		scan_once(ex, snap_ok ? ex->snap.up.up_s : -1, snap_ok ? ex->snap.st.btime : 0);
	pthread_mutex_lock(&ex->data);
	ok[CL_THREADS] = ex->on[CL_THREADS] && ex->tg_ok;
	ok[CL_PROCESSES] = ex->on[CL_PROCESSES] && ex->procs_ok;
	ok[CL_CHECK] = ex->on[CL_CHECK] && ex->nverdicts >= 0;
	/* one pass renders both formats: the OpenMetrics exposition is the text one's twin */
	b->out[PTK_PROM_TEXT].twin = &b->out[PTK_PROM_OPENMETRICS];
	{
		struct ptk_prom *p = &b->out[PTK_PROM_TEXT];
		if (snap_ok)
			ptk_prom_node(p, &ex->snap, node, ex->hz, ok);
		if (w_ok)
			ptk_prom_cpuwatch(p, &w, ex->start_wall);
		if (ex->on[CL_THREADS])
			ptk_prom_tgroups(p, &ex->tg);
		if (ex->on[CL_PROCESSES])
			ptk_prom_procs(p, ex->procs, ex->nprocs, ex->cmdline);
		if (ok[CL_CGROUPS])
			ptk_prom_cgroups(p, &ex->cg, snap_ok ? &ex->snap : NULL);
		if (ex->on[CL_CHECK])
			ptk_prom_verdicts(p, ex->verdicts, ex->nverdicts, ex->verdict_window,
					  ex->verdict_ts);
		ptk_prom_observer(p, &(struct ptk_prom_obs){ .ncoll = CL_N,
							     .coll_name = coll_name,
							     .on = ex->on,
							     .ok = ok,
							     .scrapes = ex->nscrapes,
							     .collections = ex->ncollections,
							     .closed_timeout = hs.header_timeout,
							     .closed_evicted = hs.evicted,
							     .closed_client = hs.client_closed,
							     .closed_refused = hs.refused,
							     .closed_bad = hs.bad_request,
							     .start = ex->start_wall,
							     .t0_ns = t0 });
		ptk_prom_end(p);
	}
	b->out[PTK_PROM_TEXT].twin = NULL;
	pthread_mutex_unlock(&ex->data);
	return b;
}

/*
 * The collector thread: takes every scrape waiting as one batch, collects once for it (after
 * each of them arrived, so no scrape gets data older than its request) and answers them. At
 * shutdown it serves what is pending, then parks.
 */
static void *collector_main(void *arg)
{
	struct exporter *ex = arg;
	int n;

	while ((n = ptk_prom_http_wait(ex->http)) > 0) {
		if (ex->ctx->src.replay) {
			if (ex->first_scrape_done && ptk_src_remaining(&ex->ctx->src) > 1)
				ptk_src_next(&ex->ctx->src);
			ex->first_scrape_done = true;
		}
		ex->nscrapes += n;
		ex->ncollections++;
		struct ptk_prom_body *b = collect(ex);
		ptk_prom_http_answer(ex->http, b);
		ptk_prom_body_unref(b);
	}
	park(ex);
	return NULL;
}

/*
 * Each connection the server holds is a descriptor, and its limits are sized on how many the
 * process may open: raise the soft limit to the hard one (often 1024 of 524288 under
 * systemd), so held connections are closed for their timeout rather than for want of one.
 */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* --collectors LIST: "a,b" exactly these; "+a,-b" the defaults with a added, b removed. */
static int parse_collectors(const char *list, bool *on)
{
	char *dup = xstrdup(list), *save = NULL;
	bool first = true;
	int r = 0;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool add = *tok != '-';
		const char *name = (*tok == '+' || *tok == '-') ? tok + 1 : tok;
		int k;
		if (first && *tok != '+' && *tok != '-')
			memset(on, 0, CL_N * sizeof(*on));
		first = false;
		if (!strcmp(name, "all")) {
			for (k = 0; k < CL_N; k++)
				on[k] = add;
			continue;
		}
		for (k = 0; k < CL_N && strcmp(name, coll_name[k]); k++)
			;
		if (k == CL_N) {
			r = -EINVAL;
			break;
		}
		on[k] = add;
	}
	free(dup);
	return r;
}

static const char usage_fmt[] =
	"usage: ptk exporter [--listen HOST:PORT] [--collectors LIST] [--processes N]\n"
	"                    [--expose-cmdline] [--scan-interval S] [--check-window S]\n"
	"                    [--threads N]\n"
	"Serve this machine's metrics for Prometheus at http://HOST:PORT/metrics: the text\n"
	"exposition format, or OpenMetrics when the Accept header asks for\n"
	"application/openmetrics-text. node_exporter's names where it has the metric\n"
	"(node_cpu_seconds_total, node_memory_*_bytes, node_disk_*, node_network_*,\n"
	"node_pressure_*, node_load*, node_vmstat_*), ptk_* for the rest: the run-queue latency\n"
	"histogram (BPF), context switches per thread group, top-N processes, ptk check verdicts;\n"
	"cAdvisor's container_* names for every cgroup (the cgroups collector).\n"
	"  --listen A     address to bind (default " DEFAULT_LISTEN ", loopback only);\n"
	"                 ':PORT' = every IPv4 interface, '[::]:PORT' IPv6; port 0 = any free\n"
	"  --collectors L comma-separated collectors: exactly these, or '+name'/'-name' to\n"
	"                 add to/remove from the defaults ('all' = every one). Collectors:\n"
	"%s;\n" /* the names, lines 17 spaces in */
	"                 default all but processes\n"
	"  --processes N  export the top N processes by CPU (ptk_process_*; enables the\n"
	"                 processes collector; at most 1000)\n"
	"  --expose-cmdline  add a cmdline label to ptk_process_* (off: command lines and\n"
	"                 environments are never exposed)\n"
	"  --scan-interval S  process-table scan period for threads/processes (default 5)\n"
	"  --check-window S   ptk check window for ptk_check_verdict (default 60)\n"
	"  --threads N    HTTP worker threads (default 2)\n"
	"Stops on SIGINT/SIGTERM. Exit status: 0 after a clean stop, 1 on a runtime error\n"
	"(cannot bind), 2 on a usage error.\n";

/* The usage text with the collectors' names. */
static const char *usage(void)
{
	static char buf[sizeof(usage_fmt) + 256];
	char names[256];
	int n = 0, col = 0;

	for (int i = 0; i < CL_N; i++) {
		if (col + strlen(coll_name[i]) > 70) {
			n += snprintf(names + n, sizeof(names) - n, "\n");
			col = 0;
		}
		n += snprintf(names + n, sizeof(names) - n, "%s%s", col ? " " : "                 ",
			      coll_name[i]);
		col += strlen(coll_name[i]) + 1;
	}
	snprintf(buf, sizeof(buf), usage_fmt, names);
	return buf;
}

enum { O_LISTEN = 0x100, O_COLL, O_PROCS, O_CMDLINE, O_SCAN, O_WINDOW, O_THREADS };

/* Parse the options into ex, *listen and *nthreads. -1 to go on, or the exit status: 0 after
 * --help, PTK_EXIT_USAGE after a usage error. */
static int parse_opts(struct exporter *ex, int argc, char **argv, const char **listen,
		      int *nthreads)
{
	static const struct option opts[] = { { "listen", required_argument, NULL, O_LISTEN },
					      { "collectors", required_argument, NULL, O_COLL },
					      { "processes", required_argument, NULL, O_PROCS },
					      { "expose-cmdline", no_argument, NULL, O_CMDLINE },
					      { "scan-interval", required_argument, NULL, O_SCAN },
					      { "check-window", required_argument, NULL, O_WINDOW },
					      { "threads", required_argument, NULL, O_THREADS },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct ptk_ctx *ctx = ex->ctx;
	const char *coll = NULL;
	double v;
	int c, rc;

	while ((c = ptk_getopt(ctx, argc, argv, "", opts, usage(), &rc)) >= 0) {
		switch (c) {
		case O_LISTEN:
			*listen = optarg;
			break;
		case O_COLL:
			coll = optarg;
			break;
		case O_PROCS:
			if (ptk_parse_int(optarg, &ex->nproc) || ex->nproc < 1 ||
			    ex->nproc > MAX_PROCESSES)
				return ptk_usage_error(ctx, "invalid --processes '%s' (1..%d)",
						       optarg, MAX_PROCESSES);
			break;
		case O_CMDLINE:
			ex->cmdline = true;
			break;
		case O_SCAN:
		case O_WINDOW:
			if (ptk_parse_double(optarg, &v) || v < 0.1 || v > 86400)
				return ptk_usage_error(
					ctx, "invalid %s '%s'",
					c == O_SCAN ? "--scan-interval" : "--check-window", optarg);
			*(c == O_SCAN ? &ex->scan_s : &ex->window_s) = v;
			break;
		case O_THREADS:
			if (ptk_parse_int(optarg, nthreads) || *nthreads < 1 || *nthreads > 64)
				return ptk_usage_error(ctx, "invalid --threads '%s' (1..64)",
						       optarg);
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return rc;
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (coll && parse_collectors(coll, ex->on))
		return ptk_usage_error(ctx, "invalid --collectors '%s'", coll);
	if (ex->nproc)
		ex->on[CL_PROCESSES] = true;
	else if (ex->on[CL_PROCESSES])
		ex->nproc = 10;
	return -1;
}

int cmd_exporter(struct ptk_ctx *ctx, int argc, char **argv)
{
	struct exporter *ex = xcalloc(1, sizeof(*ex));
	const char *listen = DEFAULT_LISTEN;
	pthread_t scanner, checker, collector; /* never joined: see park() */
	int r, nthreads = 2, nworkers = 0;
	sigset_t block, old;
	char url[128];

	for (int i = 0; i < PTK_NC_N; i++)
		coll_name[i] = ptk_node_coll_name[i];
	ex->ctx = ctx;
	ex->scan_s = 5;
	ex->window_s = 60;
	ex->nverdicts = -1;
	ex->prev_up = -1;
	for (int i = 0; i < CL_N; i++)
		ex->on[i] = i != CL_PROCESSES;
	if ((r = parse_opts(ex, argc, argv, &listen, &nthreads)) >= 0) {
		free(ex); /* --help, or a usage error */
		return r;
	}
	if ((r = ptk_ctx_ready(ctx))) {
		free(ex);
		return r;
	}
	ex->hz = sysconf(_SC_CLK_TCK);
	ex->pagesz = sysconf(_SC_PAGESIZE);
	ex->start_wall = wall_now();
	pthread_mutex_init(&ex->park_lock, NULL);
	pthread_mutex_init(&ex->data, NULL);
	pthread_cond_init(&ex->park, NULL);
	pthread_cond_init(&ex->parked_cond, NULL);

	/* workers never take SIGINT/SIGTERM: the main thread does */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	raise_nofile();
	r = ptk_prom_http_start(listen, nthreads, &ex->http);
	if (r)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r == -EINVAL)
		r = ptk_usage_error(ctx, "invalid --listen '%s' (HOST:PORT, :PORT, [V6]:PORT)",
				    listen);
	else if (r)
		ptk_err("cannot listen on %s: %s", listen, strerror(-r));
	if (r)
		goto out_free;
	bool live = ptk_src_is_live(&ctx->src) && !ctx->src.replay;
	if (ex->on[CL_RUNQLAT] || ex->on[CL_CHECK]) {
		ex->err_watch = live ? ptk_cpuwatch_start(&ex->watch) : -ENOTSUP;
		if (ex->err_watch && ex->on[CL_RUNQLAT])
			ptk_warn("runqlat collector off: BPF unavailable (%s)",
				 strerror(-ex->err_watch));
	}
	if (!live && ex->on[CL_CHECK]) {
		ptk_warn("check collector off: it needs the live kernel");
		ex->on[CL_CHECK] = false;
	}
	nworkers += pthread_create(&collector, NULL, collector_main, ex) == 0;
	if (!ctx->src.replay && (ex->on[CL_THREADS] || ex->on[CL_PROCESSES]))
		nworkers += pthread_create(&scanner, NULL, scanner_main, ex) == 0;
	if (ex->on[CL_CHECK]) {
		ex->check_ctx = *ctx;
		ex->check_ctx.stop = 0;
		nworkers += pthread_create(&checker, NULL, checker_main, ex) == 0;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	ptk_prom_http_url(ex->http, url, sizeof(url));
	fprintf(stderr, "ptk exporter: listening on %s\n", url);

	while (!ctx->stop)
		ptk_sleep_until(ptk_now_ns() + 1000000000ull, &ctx->stop);
	/* stop accepting, let the collector answer the scrapes waiting for it, then stop the
	 * server (it must not hold suspended connections) */
	ptk_prom_http_quiesce(ex->http);
	ex->quit = 1;
	ex->check_ctx.stop = 1;
	pthread_mutex_lock(&ex->park_lock);
	while (ex->parked < nworkers)
		pthread_cond_wait(&ex->parked_cond, &ex->park_lock);
	pthread_mutex_unlock(&ex->park_lock);
	ptk_prom_http_stop(ex->http);
	ptk_cpuwatch_stop(ex->watch);
	for (int i = 0; i < 2; i++) {
		ptk_ptab_free(&ex->thr[i]);
		ptk_ptab_free(&ex->prc[i]);
	}
	ptk_snap_free(&ex->snap);
	ptk_snap_free(&ex->scan_snap);
	ptk_cg_keep_free(ex->cg.keep);
	ptk_cg_free(&ex->cg);
	ptk_tgroups_free(&ex->tg);
	free(ex->procs);
	if (nworkers)
		return 0; /* ex stays: the parked workers wait on its lock until exit */
	r = 0;
out_free:
	pthread_mutex_destroy(&ex->park_lock);
	pthread_mutex_destroy(&ex->data);
	pthread_cond_destroy(&ex->park);
	pthread_cond_destroy(&ex->parked_cond);
	free(ex);
	return r < 0 ? PTK_EXIT_RUNTIME : r;
}
