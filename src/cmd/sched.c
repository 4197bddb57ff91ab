// SPDX-License-Identifier: GPL-2.0
/* ptk sched: perf sched latency and timehist from the sched tracepoints, and a Chrome JSON
 * trace (Perfetto, chrome://tracing) of every run on every CPU. */
#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/sched.h"
#include "output/chrometrace.h"
#include "source/perf/schedrec.h"

static const char usage[] =
	"usage: ptk sched [latency | timehist] [-a] [-d SECONDS] [-p] [-m PAGES] [-o TRACE.json]\n"
	"                 [--json] [-- CMD [ARGS]]\n"
	"Record the sched tracepoints on every CPU (sched_switch, sched_wakeup, sched_wakeup_new,\n"
	"sched_migrate_task) until CMD exits, -d SECONDS pass or Ctrl-C, then report as perf\n"
	"sched does:\n"
	"  latency       (default) per task: run time, switches, average and largest scheduler\n"
	"                delay (wakeup or preemption to running) with when it happened\n"
	"  timehist      one line per context switch: the task switched out, the time it slept\n"
	"                before its wakeup, its scheduler delay and how long it ran\n"
	"  -a            all CPUs (the default, as perf sched record)\n"
	"  -d SECONDS    stop after this long\n"
	"  -p            latency: a row per thread, not per command name\n"
	"  -m PAGES      ring buffer pages per CPU and tracepoint, a power of 2 (default 512)\n"
	"  -o FILE       also write a Chrome JSON trace (ui.perfetto.dev, chrome://tracing): a\n"
	"                track per CPU with every run, a track per thread with its running,\n"
	"                runnable and sleeping periods and its migrations\n"
	"  --json        the latency table and totals as one JSON object\n"
	"The cost of ptk itself is printed on stderr.\n";

enum { MODE_LATENCY, MODE_TIMEHIST };

struct lat {
	const struct ptk_sched_task *t; /* the first thread of the row */
	char comm[16];
	int threads;
	u64 runtime, n, delay_sum, delay_max, max_start, max_end, switches, migrations;
};

static int lat_cmp(const void *a, const void *b)
{
	const struct lat *x = a, *y = b;
	double ax = x->n ? (double)x->delay_sum / x->n : 0,
	       ay = y->n ? (double)y->delay_sum / y->n : 0;

	/* perf sched latency's default order: avg, max, switch, runtime (largest first) */
	if (ax != ay)
		return ax < ay ? 1 : -1;
	if (x->delay_max != y->delay_max)
		return x->delay_max < y->delay_max ? 1 : -1;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	if (x->runtime != y->runtime)
		return x->runtime < y->runtime ? 1 : -1;
	return strcmp(x->comm, y->comm);
}

/* Rows of the latency table: tasks merged by comm (per_pid: one per thread), without idle
 * tasks and without tasks never switched in after a wakeup, as perf sched latency. */
static int lat_rows(const struct ptk_sched *m, bool per_pid, struct lat **out)
{
	struct lat *r = xcalloc(m->nt ? m->nt : 1, sizeof(*r));
	int n = 0;

	for (u32 i = 0; i < m->nt; i++) {
		const struct ptk_sched_task *t = &m->t[i];
		struct lat *l = NULL;
		if (!t->ndelay || !t->tid || !strcmp(t->comm, "swapper"))
			continue;
		if (!per_pid)
			for (int k = 0; k < n && !l; k++)
				if (!strcmp(r[k].comm, t->comm))
					l = &r[k];
		if (!l) {
			l = &r[n++];
			l->t = t;
			memcpy(l->comm, t->comm, sizeof(l->comm));
		}
		l->threads++;
		l->runtime += t->runtime;
		l->n += t->ndelay;
		l->delay_sum += t->delay_sum;
		l->switches += t->switches;
		l->migrations += t->migrations;
		if (t->delay_max > l->delay_max) {
			l->delay_max = t->delay_max;
			l->max_start = t->max_start;
			l->max_end = t->max_end;
		}
	}
	qsort(r, n, sizeof(*r), lat_cmp);
	*out = r;
	return n;
}

static void ts_sec(u64 ns, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

static void print_latency(const struct ptk_sched *m, bool per_pid)
{
	struct lat *r;
	int n = lat_rows(m, per_pid, &r);
	u64 all_rt = 0, all_n = 0;
	char a[32], b[32], name[64];

	printf("\n -------------------------------------------------------------------------------"
	       "------------------------------------------------------------\n");
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms "
	       "   | Max delay start           | Max delay end          |\n");
	printf(" -------------------------------------------------------------------------------"
	       "------------------------------------------------------------\n");
	for (int i = 0; i < n; i++) {
		int w;
		all_rt += r[i].runtime;
		all_n += r[i].n;
		if (r[i].threads > 1)
			w = snprintf(name, sizeof(name), "  %s:(%d) ", r[i].comm, r[i].threads);
		else
			w = snprintf(name, sizeof(name), "  %s:%d ", r[i].comm, r[i].t->tid);
		ts_sec(r[i].max_start, a, sizeof(a));
		ts_sec(r[i].max_end, b, sizeof(b));
		printf("%s%*s|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: "
		       "%12s s | max end: %12s s\n",
		       name, w < 24 ? 24 - w : 0, "", r[i].runtime / 1e6, r[i].n,
		       r[i].n ? (double)r[i].delay_sum / r[i].n / 1e6 : 0, r[i].delay_max / 1e6, a,
		       b);
	}
	printf(" -----------------------------------------------------------------------------------"
	       "------------------------------\n");
	printf("  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", all_rt / 1e6, all_n);
	printf(" ---------------------------------------------------\n\n");
	free(r);
}

static void task_name(const struct ptk_sched_task *t, const char *comm, char *buf, size_t size)
{
	if (t->pid > 0 && t->pid != t->tid)
		snprintf(buf, size, "%s[%d/%d]", comm, t->tid, t->pid);
	else
		snprintf(buf, size, "%s[%d]", comm, t->tid);
}

static void print_timehist(const struct ptk_sched *m)
{
	char ts[32], name[64];

	printf("%15s %-6s  %-30s  %9s  %9s  %9s\n", "time", "   cpu", "task name", "wait time",
	       "sch delay", "run time");
	printf("%15s %6s  %-30s  %9s  %9s  %9s\n", "", "", "[tid/pid]", "(msec)", "(msec)",
	       "(msec)");
	printf("--------------- ------  ------------------------------  ---------  ---------  "
	       "---------\n");
	for (size_t i = 0; i < m->ns; i++) {
		const struct ptk_sched_slice *s = &m->s[i];
		const struct ptk_sched_task *t = &m->t[s->task];
		if (s->state == '-' || !s->tid)
			continue; /* still running at the end; the idle task */
		ts_sec(s->end, ts, sizeof(ts));
		task_name(t, s->comm[0] ? s->comm : t->comm, name, sizeof(name));
		printf("%15s [%04u]  %-30s  %9.3f  %9.3f  %9.3f \n", ts, s->cpu, name,
		       s->offcpu / 1e6, s->wdelay / 1e6, (s->end - s->start) / 1e6);
	}
}

/* perf's slices come out in switch-out order: sort by end time (stable on the index). */
static int slice_end_cmp(const void *a, const void *b)
{
	const struct ptk_sched_slice *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static struct json_object *latency_json(const struct ptk_sched *m, bool per_pid)
{
	struct lat *r;
	int n = lat_rows(m, per_pid, &r);
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "comm", json_object_new_string(r[i].comm));
		json_object_object_add(o, "tid",
				       r[i].threads > 1 ? NULL : json_object_new_int(r[i].t->tid));
		json_object_object_add(o, "threads", json_object_new_int(r[i].threads));
		json_object_object_add(o, "runtime_ms", json_object_new_double(r[i].runtime / 1e6));
		json_object_object_add(o, "switches", json_object_new_uint64(r[i].n));
		json_object_object_add(o, "switches_out", json_object_new_uint64(r[i].switches));
		json_object_object_add(
			o, "avg_delay_ms",
			json_object_new_double(r[i].n ? (double)r[i].delay_sum / r[i].n / 1e6 : 0));
		json_object_object_add(o, "max_delay_ms",
				       json_object_new_double(r[i].delay_max / 1e6));
		json_object_object_add(o, "max_delay_start_s",
				       json_object_new_double(r[i].max_start / 1e9));
		json_object_object_add(o, "max_delay_end_s",
				       json_object_new_double(r[i].max_end / 1e9));
		json_object_object_add(o, "migrations", json_object_new_uint64(r[i].migrations));
		json_object_array_add(a, o);
	}
	free(r);
	return a;
}

/* Thread groups (/proc/TID/status Tgid) looked up while recording, when a thread is first
 * seen, so that threads gone by the report still have theirs. */
struct groups {
	int32_t *tid, *tgid; /* open addressing on tid; tid 0 = empty */
	u32 cap, n;
};

static int32_t read_tgid(int32_t tid)
{
	char path[64], buf[2048], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (ptk_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "\nTgid:")))
		return -1;
	return atoi(p + 6);
}

static u32 *groups_slot(struct groups *g, int32_t tid)
{
	static u32 none;
	u32 h;

	if (!g->cap)
		return &none;
	for (h = ((u32)tid * 2654435761u) & (g->cap - 1); g->tid[h] && g->tid[h] != tid;
	     h = (h + 1) & (g->cap - 1))
		;
	return (u32 *)&g->tid[h];
}

static void groups_add(struct groups *g, int32_t tid)
{
	u32 *sl;

	if (tid <= 0)
		return;
	if ((g->n + 1) * 2 > g->cap) {
		struct groups ng = { .cap = g->cap ? g->cap * 2 : 4096 };
		ng.tid = xcalloc(ng.cap, sizeof(*ng.tid));
		ng.tgid = xcalloc(ng.cap, sizeof(*ng.tgid));
		for (u32 i = 0; i < g->cap; i++) {
			if (!g->tid[i])
				continue;
			sl = groups_slot(&ng, g->tid[i]);
			*sl = (u32)g->tid[i];
			ng.tgid[sl - (u32 *)ng.tid] = g->tgid[i];
			ng.n++;
		}
		free(g->tid);
		free(g->tgid);
		*g = ng;
	}
	sl = groups_slot(g, tid);
	if (*sl)
		return;
	*sl = (u32)tid;
	g->tgid[sl - (u32 *)g->tid] = read_tgid(tid);
	g->n++;
}

/* Look up the threads named by events [from, n). */
static void groups_scan(struct groups *g, const struct ptk_schedrec *r, size_t from)
{
	for (size_t i = from; i < r->n; i++) {
		groups_add(g, r->ev[i].next_pid);
		if (r->ev[i].kind == PTK_SCHED_SWITCH)
			groups_add(g, r->ev[i].prev_pid);
	}
}

/* The thread group of every task: seen while recording, else read now. */
static void resolve_groups(struct ptk_sched *m, struct groups *g)
{
	for (u32 i = 0; i < m->nt; i++) {
		u32 *sl;
		if (m->t[i].tid <= 0)
			continue;
		sl = groups_slot(g, m->t[i].tid);
		m->t[i].pid = *sl ? g->tgid[sl - (u32 *)g->tid] : read_tgid(m->t[i].tid);
	}
	free(g->tid);
	free(g->tgid);
	memset(g, 0, sizeof(*g));
}

int cmd_sched(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct ptk_perf_child child = { .go_fd = -1, .err_fd = -1 };
	struct ptk_schedrec rec;
	struct ptk_sched m;
	const char *outpath = NULL;
	double dur = 0, wall;
	int c, r, pages = 512, mode = MODE_LATENCY, rc = PTK_EXIT_RUNTIME, err;
	bool per_pid = false;
	pid_t kid = 0;
	u64 t0, deadline, lost;
	struct groups grp = { 0 };
	size_t scanned = 0;

	if (argc > 1 && !strcmp(argv[1], "latency")) {
		argv++;
		argc--;
	} else if (argc > 1 && !strcmp(argv[1], "timehist")) {
		mode = MODE_TIMEHIST;
		argv++;
		argc--;
	}
	while ((c = ptk_getopt(ctx, argc, argv, "+ad:pm:o:", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'a':
			break;
		case 'd':
			if (ptk_parse_double(optarg, &dur) || dur <= 0 || dur > 1e7)
				return ptk_usage_error(ctx, "invalid duration '%s'", optarg);
			break;
		case 'p':
			per_pid = true;
			break;
		case 'm':
			if (ptk_parse_int(optarg, &pages) || pages < 1 || pages > 65536 ||
			    (pages & (pages - 1)))
				return ptk_usage_error(ctx, "-m: a power of 2 pages, not '%s'",
						       optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (optind < argc && argv[optind][0] != '-' && mode == MODE_LATENCY &&
	    !strcmp(argv[optind], "timehist"))
		return ptk_usage_error(ctx, "the report (latency, timehist) comes first");
	if (ctx->json && mode == MODE_TIMEHIST)
		return ptk_usage_error(ctx, "--json: the latency table only (timehist: use -o "
					    "TRACE.json)");
	if ((rc = ptk_ctx_ready(ctx)))
		return rc;
	rc = PTK_EXIT_RUNTIME;
	err = ptk_schedrec_open(&rec, pages);
	if (err) {
		ptk_err("cannot open the sched tracepoints: %s%s", strerror(-err),
			err == -EACCES || err == -EPERM ? " (needs root)" : "");
		return PTK_EXIT_RUNTIME;
	}
	if (optind < argc) {
		err = ptk_perf_child_fork(argv + optind, &child);
		if (err) {
			ptk_err("cannot fork: %s", strerror(-err));
			goto out_close;
		}
		kid = child.pid;
	}
	ptk_schedrec_enable(&rec, true);
	t0 = ptk_now_ns();
	deadline = dur > 0 ? t0 + (u64)(dur * 1e9) : 0;
	if (kid && (err = ptk_perf_child_start(&child))) {
		ptk_err("cannot run '%s': %s", argv[optind], strerror(-err));
		kid = 0;
		goto out_close;
	}
	while (!ctx->stop) {
		u64 now = ptk_now_ns();
		if (deadline && now >= deadline)
			break;
		poll(NULL, 0,
		     deadline && (deadline - now) / 1000000 < 100 ?
			     (int)((deadline - now) / 1000000) + 1 :
			     100);
		ptk_schedrec_read(&rec);
		groups_scan(&grp, &rec, scanned);
		scanned = rec.n;
		if (kid && waitpid(kid, NULL, WNOHANG) == kid) {
			kid = 0;
			break;
		}
	}
	ptk_schedrec_enable(&rec, false);
	ptk_schedrec_read(&rec);
	wall = (ptk_now_ns() - t0) / 1e9;
	if (kid) {
		kill(kid, SIGTERM);
		waitpid(kid, NULL, 0);
		kid = 0;
	}
	lost = ptk_schedrec_lost(&rec);

	ptk_sched_init(&m, mode == MODE_TIMEHIST || outpath);
	ptk_sched_sort(rec.ev, rec.n);
	for (size_t i = 0; i < rec.n; i++)
		ptk_sched_feed(&m, &rec.ev[i]);
	resolve_groups(&m, &grp);
	if (outpath) {
		struct ptk_outfile of = { .fd = -1 };
		FILE *out = NULL;
		int e = ptk_outfile_open(&of, outpath, 0666);
		if (!e && !(out = fdopen(of.fd, "w")))
			e = -errno;
		if (!e)
			e = ptk_chrome_trace_write(&m, out);
		if (!e && (fflush(out) || ferror(out)))
			e = -EIO;
		if (!e)
			e = ptk_outfile_commit(&of);
		if (e)
			ptk_outfile_abort(&of);
		if (out)
			fclose(out);
		else if (of.fd >= 0)
			close(of.fd);
		if (e) {
			ptk_err("cannot write %s: %s", outpath, strerror(-e));
			ptk_sched_release(&m);
			goto out_close;
		}
	}
	if (ctx->json) {
		struct ptk_sink *sk = &ctx->sink;
		ptk_sink_begin(sk);
		ptk_sink_meta_f64(sk, "duration_s", wall);
		ptk_sink_meta_u64(sk, "events", m.events);
		ptk_sink_meta_u64(sk, "lost", lost);
		ptk_sink_meta_u64(sk, "migrations", m.migrations);
		ptk_sink_meta_json(sk, "tasks", latency_json(&m, per_pid));
		ptk_sink_end(sk);
	} else if (mode == MODE_TIMEHIST) {
		qsort(m.s, m.ns, sizeof(*m.s), slice_end_cmp);
		print_timehist(&m);
	} else {
		print_latency(&m, per_pid);
	}
	fflush(stdout);
	{
		double cpu = (ptk_self_cpu_ns() - ctx->cpu_start_ns) / 1e9;
		fprintf(stderr,
			"observer: ptk used %.1f ms of CPU over %.2f s (%.3f%% of one CPU); %" PRIu64
			" sched events, %" PRIu64 " lost, %" PRIu64 " undecoded, %" PRIu64
			" migrations, %" PRIu64 " switches not matching the CPU's last\n",
			cpu * 1e3, wall, wall > 0 ? 100 * cpu / wall : 0, m.events, lost, rec.bad,
			m.migrations, m.mismatched);
	}
	if (lost)
		ptk_warn("%" PRIu64 " sched events lost (rings full): raise -m", lost);
	ptk_sched_release(&m);
	rc = 0;
out_close:
	free(grp.tid);
	free(grp.tgid);
	if (kid > 0) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
	}
	ptk_schedrec_close(&rec);
	return rc;
}
