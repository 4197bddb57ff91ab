// SPDX-License-Identifier: GPL-2.0
/*
 * ptk record: the collector behind `ptk sar` and time travel (`ptk top --at`, `ptk check
 * --at`). Every interval it reads every system metric (the same readers the live commands
 * use) and the top-N processes by CPU, memory and I/O, and stores them in the SQLite
 * archive (output/archive.h), one transaction per sample.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "output/archive.h"
#include "output/httppush.h"
#include "output/pprof.h"
#include "source/perf/perf.h"
#include "source/perf/stacks.h"
#include "source/sym/sym.h"
#include "source/bpf/taskscan.h"
#include "source/procfs/pid.h"

static const char usage[] =
	"usage: ptk record [-i SECONDS] [--db PATH] [--retain DAYS] [--processes N] [-c COUNT]\n"
	"                  [--cmdline] [--profile[=HZ]] [--push URL] [--push-name NAME]\n"
	"                  [--push-pprof URL] [--cgroups N] [--schema]\n"
	"Collect every system metric (CPU, memory, vmstat, disks, network, TCP, PSI, load), the\n"
	"top-N processes by CPU, memory and I/O and the cgroups into a SQLite archive, in the\n"
	"foreground.\n"
	"  -i, --interval SECONDS  sampling interval (default 10)\n"
	"  --db PATH               archive (default " PTK_ARC_DEFAULT_DB ")\n"
	"  --retain DAYS           delete samples older than DAYS (default 7; 0 keeps all)\n"
	"  --processes N           top-N processes per criterion (default 10; 0: none)\n"
	"  -c, --count COUNT       stop after COUNT samples (default: until SIGTERM/SIGINT)\n"
	"  --cmdline               also store command lines\n"
	"  --cgroups N             store up to N cgroups a sample, the first in path order\n"
	"                          (parents before children; default 512; 0: none): CPU and\n"
	"                          throttling, memory and its limits and events, I/O, tasks,\n"
	"                          pressure ('ptk sar --cgroups', 'ptk check --at')\n"
	"  --profile[=HZ]          continuous profiling: sample on-CPU stacks on all CPUs at HZ\n"
	"                          (default 19; cpu-clock, frame pointers) and store each\n"
	"                          interval's folded stacks; read with 'ptk flamegraph --db'\n"
	"  --push URL              also send each interval's stacks to a Pyroscope server\n"
	"                          (http://host:4040: POST /ingest, format=folded)\n"
	"  --push-name NAME        the application name there (default ptk.cpu{host=HOST})\n"
	"  --push-pprof URL        also POST each interval as a gzipped pprof profile to URL\n"
	"  --schema                print the archive's SQL schema and exit\n"
	"Read it with 'ptk sar', 'ptk top --at TIME', 'ptk check --at TIME'.\n"
	"Each sample is one transaction (WAL mode): a crash loses at most the sample in flight;\n"
	"SIGTERM finishes the current sample and exits.\n";

enum {
	OPT_DB = 0x100,
	OPT_RETAIN,
	OPT_PROCS,
	OPT_CMDLINE,
	OPT_SCHEMA,
	OPT_PROFILE,
	OPT_PUSH,
	OPT_PUSH_NAME,
	OPT_PUSH_PPROF,
	OPT_CGROUPS,
};

/* Continuous profiling: a low-rate cpu-clock sampler on every CPU, folded per interval. */
struct cprof {
	int hz;
	struct perf_event_attr attr;
	struct ptk_perf_sampler ps;
	struct ptk_symbolizer *sym;
	struct ptk_folded *f;
	struct ptk_stacks *st;
	u64 renew_ns; /* when the symbolizer is made anew (it caches every pid it saw) */
	s64 from_ms; /* the interval's start */
	const char *push, *push_name, *push_pprof;
	char name[256];
	u64 pushed, push_failed;
	char push_err[256];
};

struct rec {
	struct ptk_arc *arc;
	struct ptk_snap s;
	struct ptk_ptab tab[2];
	int cur;
	bool have_prev;
	struct ptk_ptab_keep *keep;
	struct ptk_taskscan *ts; /* BPF task iterator (root, live): one read per scan */
	int nprocs; /* N per criterion */
	bool cmdline;
	double retain_days;
	long retain_every, failures;
	s64 prev_id;
	/* (pid, starttime) of the processes stored at prev_id */
	int nstored, scap;
	struct {
		int pid;
		u64 start;
	} * stored;
	struct ptk_task *extra; /* baselines of new entrants, stored at prev_id */
	int ecap;
	u64 *key;
	int *order; /* the top N of one criterion, largest key first */
	bool *pick;
	const struct ptk_task **match; /* per task of this scan: itself in the previous one */
	int kcap;
	struct cprof *prof;
	int ncg; /* cgroups per sample (0: none) */
	struct ptk_cgsnap cg;
	bool cg_off; /* no cgroup filesystem: not tried again */
};

/* Mark the (up to) nprocs tasks with the largest non-zero keys: a bounded insertion into
 * order[] (about n x N steps, where qsort made n log n calls through a function pointer) */
static void pick_top(struct rec *rc, int n)
{
	int m = 0, cap = MIN(rc->nprocs, n);

	if (cap <= 0)
		return;
	for (int i = 0; i < n; i++) {
		u64 k = rc->key[i];
		if (!k || (m == cap && k <= rc->key[rc->order[m - 1]]))
			continue;
		int j = m < cap ? m++ : m - 1;
		for (; j > 0 && rc->key[rc->order[j - 1]] < k; j--)
			rc->order[j] = rc->order[j - 1];
		rc->order[j] = i;
	}
	for (int j = 0; j < m; j++)
		rc->pick[rc->order[j]] = true;
}

static bool was_stored(const struct rec *rc, const struct ptk_task *t)
{
	for (int i = 0; i < rc->nstored; i++)
		if (rc->stored[i].pid == t->pid && rc->stored[i].start == t->starttime)
			return true;
	return false;
}

/* The top-N processes of this interval by CPU ticks, resident memory, and block I/O bytes
 * (first sample: since the process started); their union goes into s.procs. */
static void select_procs(struct rec *rc, const struct ptk_ptab *now, const struct ptk_ptab *prev,
			 int *nextra)
{
	int n = now->n;

	*nextra = 0;
	rc->s.nproc = 0;
	if (n > rc->kcap) {
		rc->kcap = n + 64;
		rc->key = xrealloc(rc->key, rc->kcap * sizeof(*rc->key));
		rc->order = xrealloc(rc->order, rc->kcap * sizeof(*rc->order));
		rc->pick = xrealloc(rc->pick, rc->kcap * sizeof(*rc->pick));
		rc->match = xrealloc(rc->match, rc->kcap * sizeof(*rc->match));
	}
	memset(rc->pick, 0, n * sizeof(*rc->pick));
	for (int i = 0; i < n; i++)
		rc->match[i] =
			prev ? ptk_ptab_find(prev, now->t[i].pid, now->t[i].starttime) : NULL;
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < n; i++) {
			const struct ptk_task *t = &now->t[i];
			const struct ptk_task *o = rc->match[i];
			u64 io = t->io_ok ? t->read_bytes + t->write_bytes : 0;
			if (pass == 0)
				rc->key[i] =
					ptk_delta(o ? o->utime + o->stime : 0, t->utime + t->stime);
			else if (pass == 1)
				rc->key[i] = t->rss_pages;
			else
				rc->key[i] = ptk_delta(
					o && o->io_ok ? o->read_bytes + o->write_bytes : 0, io);
		}
		pick_top(rc, n);
	}
	for (int i = 0; i < n; i++) {
		if (!rc->pick[i])
			continue;
		if (rc->s.nproc == rc->s.pcap) {
			rc->s.pcap = rc->s.pcap ? rc->s.pcap * 2 : 64;
			rc->s.procs = xrealloc(rc->s.procs, rc->s.pcap * sizeof(*rc->s.procs));
		}
		rc->s.procs[rc->s.nproc++] = now->t[i];
		/* a newcomer: store its previous values too, so its rates have a baseline */
		const struct ptk_task *o = rc->match[i];
		if (o && rc->prev_id > 0 && !was_stored(rc, o)) {
			if (*nextra == rc->ecap) {
				rc->ecap = rc->ecap ? rc->ecap * 2 : 32;
				rc->extra = xrealloc(rc->extra, rc->ecap * sizeof(*rc->extra));
			}
			rc->extra[(*nextra)++] = *o;
		}
	}
}

/*
 * The I/O counters the task iterator did not give (the /proc scan): /proc/PID/io of the
 * tasks that ran since the previous scan (and of new tasks). A task that
 * did not run did no I/O: its block-layer and syscall byte counts are charged in its own
 * context (task_io_account_read/write), so its previous values are carried over. This halves
 * the cost of a scan on a mostly idle machine.
 */
static void read_io(struct ptk_ctx *ctx, struct ptk_ptab *now, const struct ptk_ptab *prev)
{
	char rel[32], buf[1024];

	for (int i = 0; i < now->n; i++) {
		struct ptk_task *t = &now->t[i];
		if (t->io_ok)
			continue; /* from the task iterator */
		const struct ptk_task *o = prev ? ptk_ptab_find(prev, t->pid, t->starttime) : NULL;
		if (o && o->io_denied)
			t->io_denied = true;
		if (t->io_denied)
			continue; /* the access check failed: it does not pass by retrying */
		if (o && o->io_ok && o->utime == t->utime && o->stime == t->stime) {
			t->io_ok = true;
			t->rchar = o->rchar;
			t->wchar = o->wchar;
			t->read_bytes = o->read_bytes;
			t->write_bytes = o->write_bytes;
			t->cancelled_write_bytes = o->cancelled_write_bytes;
			continue;
		}
		snprintf(rel, sizeof(rel), "%d/io", t->pid);
		ssize_t n = ptk_src_read(&ctx->src, PTK_PROC, rel, buf, sizeof(buf));
		t->io_ok = n > 0 && ptk_task_parse_io(buf, t) == 0;
		t->io_denied = n == -EACCES || n == -EPERM;
	}
	/* where the tasks in D state sleep (/proc/PID/wchan), as PTK_PT_WCHAN reads it */
	for (int i = 0; i < now->n; i++) {
		struct ptk_task *t = &now->t[i];
		ssize_t n;
		t->wchan[0] = '\0';
		if (t->state != 'D')
			continue;
		snprintf(rel, sizeof(rel), "%d/wchan", t->pid);
		n = ptk_src_read(&ctx->src, PTK_PROC, rel, buf, sizeof(buf));
		if (n > 0 && strcmp(buf, "0"))
			snprintf(t->wchan, sizeof(t->wchan), "%.63s", buf);
	}
}

/* The cgroup of each stored task (/proc/PID/cgroup: the v2 path, else the first v1 one),
 * for top --at's CGROUP column and --cgroup filter: only the few tasks stored, not the scan. */
static void read_cgroup(struct ptk_ctx *ctx, struct ptk_task *t, int n)
{
	char rel[32], buf[4096];

	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%d/cgroup", t[i].pid);
		t[i].cgroup[0] = '\0';
		if (ptk_src_read(&ctx->src, PTK_PROC, rel, buf, sizeof(buf)) > 0)
			ptk_cgroup_path(buf, t[i].cgroup, sizeof(t[i].cgroup));
	}
}

static int cprof_open(struct cprof *p)
{
	struct ptk_perf_target all = { .kind = PTK_PERF_CPUS };
	struct perf_event_attr *a = &p->attr;
	int err;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = p->hz;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	a->comm = 1;
	a->comm_exec = 1;
	a->sample_id_all = 1;
	/* 128 pages a CPU: an interval of 19 Hz samples of deep stacks fits several times */
	err = ptk_perf_sampler_open(&p->ps, a, &all, 128);
	if (err)
		return err;
	p->sym = ptk_sym_new(NULL, 0);
	p->f = ptk_folded_new();
	p->st = ptk_stacks_new(p->sym, p->f, a->sample_type, 0, false);
	p->renew_ns = ptk_now_ns() + 3600ull * 1000000000;
	p->from_ms = ptk_snap_now_ms();
	return 0;
}

static void cprof_close(struct cprof *p)
{
	ptk_perf_sampler_close(&p->ps);
	ptk_stacks_free(p->st);
	ptk_folded_free(p->f);
	ptk_sym_free(p->sym);
}

/* Send the interval's stacks to Pyroscope (folded) and/or as pprof; failures are counted
 * and the first reason of a run of them is printed. */
static void cprof_push(struct cprof *p, s64 until_ms)
{
	char url[2048], err[256] = "";
	int st;

	if (p->push) {
		char *body = NULL;
		size_t len = 0, n;
		FILE *m = open_memstream(&body, &len);
		ptk_folded_write(p->f, m);
		fclose(m);
		n = snprintf(url, sizeof(url), "%s/ingest?name=", p->push);
		n = ptk_url_escape(url, sizeof(url), n, p->name);
		snprintf(url + n, sizeof(url) - n,
			 "&from=%" PRId64 "&until=%" PRId64 "&format=folded&sampleRate=%d"
			 "&spyName=ptk&units=samples&aggregationType=sum",
			 p->from_ms / 1000, (until_ms + 999) / 1000, p->hz);
		st = ptk_http_post(url, "text/plain", NULL, body, len, 3000, err, sizeof(err));
		free(body);
		if (st >= 200 && st < 300)
			p->pushed++;
		else
			p->push_failed++;
	}
	if (p->push_pprof) {
		struct ptk_pprof *pp = ptk_pprof_new();
		unsigned char *raw;
		size_t len;
		s64 per = 1000000000 / p->hz;
		ptk_pprof_sample_type(pp, "samples", "count");
		ptk_pprof_sample_type(pp, "cpu", "nanoseconds");
		ptk_pprof_period(pp, "cpu", "nanoseconds", per);
		ptk_pprof_time(pp, p->from_ms * 1000000, (until_ms - p->from_ms) * 1000000);
		ptk_pprof_add_folded(pp, p->f, true, (s64[]){ 1, per });
		raw = NULL;
		len = 0;
		if (ptk_pprof_gzip(pp, &raw, &len))
			len = 0;
		st = len ? ptk_http_post(p->push_pprof, "application/octet-stream", NULL, raw, len,
					 3000, err, sizeof(err)) :
			   -EIO;
		free(raw);
		ptk_pprof_free(pp);
		if (st >= 200 && st < 300)
			p->pushed++;
		else
			p->push_failed++;
	}
	if (err[0] && strcmp(err, p->push_err))
		ptk_warn("profile push: %s", err);
	snprintf(p->push_err, sizeof(p->push_err), "%s", err);
}

/* The stacks sampled since the last sample: stored with sample_id, pushed, then dropped. */
static void cprof_interval(struct rec *rc, s64 sample_id)
{
	struct cprof *p = rc->prof;
	s64 now_ms = ptk_snap_now_ms();

	ptk_perf_sampler_read(&p->ps, ptk_stacks_record, p->st);
	if (sample_id > 0 && p->f->n && ptk_arc_write_profile(rc->arc, sample_id, p->f))
		ptk_warn("profile not stored: %s", ptk_arc_errmsg(rc->arc));
	if ((p->push || p->push_pprof) && p->f->n) {
		ptk_folded_sort(p->f);
		cprof_push(p, now_ms);
	}
	ptk_folded_reset(p->f);
	p->from_ms = now_ms;
	if (ptk_now_ns() >= p->renew_ns) {
		/* the symbolizer keeps the modules of every process it resolved: start afresh */
		ptk_stacks_free(p->st);
		ptk_sym_free(p->sym);
		p->sym = ptk_sym_new(NULL, 0);
		p->st = ptk_stacks_new(p->sym, p->f, p->attr.sample_type, 0, false);
		p->renew_ns = ptk_now_ns() + 3600ull * 1000000000;
	}
}

static int record_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct rec *rc = arg;
	struct ptk_ptab *now = &rc->tab[rc->cur], *prev = &rc->tab[!rc->cur];
	int r, nextra = 0;

	if ((r = ptk_snap_read(&ctx->src, &rc->s, PTK_SNAP_ALL))) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, rc->s.err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	rc->s.nproc = 0;
	if (rc->nprocs > 0) {
		/* SKIPIDLE: tasks that did not run keep last scan's stat (schedstat tells) */
		unsigned fl = PTK_PT_OWNER | PTK_PT_SKIPIDLE | (rc->cmdline ? PTK_PT_CMDLINE : 0);
		now->keep = rc->keep;
		/* the task iterator reads every task in one read(); /proc needs an open, read
		 * and close per process, and is the fallback (other roots, no privilege) */
		r = rc->ts && !rc->cmdline ?
			    ptk_taskscan_scan(rc->ts, PTK_PT_OWNER | PTK_PT_IO, now) :
			    ptk_ptab_scan(&ctx->src, fl, now);
		if (r == 0) {
			read_io(ctx, now, rc->have_prev ? prev : NULL);
			select_procs(rc, now, rc->have_prev ? prev : NULL, &nextra);
			if (rc->ncg > 0) {
				read_cgroup(ctx, rc->s.procs, rc->s.nproc);
				read_cgroup(ctx, rc->extra, nextra);
			}
		}
	}
	/* the cgroups: the same reader as cgtop and check, files held open between samples */
	bool cg_ok = false;
	if (rc->ncg > 0 && !rc->cg_off) {
		cg_ok = ptk_cg_read(&ctx->src, &rc->cg, -1) == 0 && rc->cg.layout != PTK_CG_NONE;
		rc->cg_off = !cg_ok && i == 0;
	}
	r = ptk_arc_write_cg(rc->arc, &rc->s, cg_ok ? &rc->cg : NULL, rc->ncg, rc->prev_id,
			     rc->extra, nextra);
	if (r) {
		ptk_warn("sample not stored: %s", ptk_arc_errmsg(rc->arc));
		if (++rc->failures >= 10) {
			ptk_err("10 samples in a row could not be stored; giving up");
			return PTK_EXIT_RUNTIME;
		}
		rc->prev_id = 0;
		rc->nstored = 0;
	} else {
		rc->failures = 0;
		rc->prev_id = rc->s.id;
		if (rc->s.nproc > rc->scap) {
			rc->scap = rc->s.nproc + 32;
			rc->stored = xrealloc(rc->stored, rc->scap * sizeof(*rc->stored));
		}
		rc->nstored = rc->s.nproc;
		for (int k = 0; k < rc->s.nproc; k++) {
			rc->stored[k].pid = rc->s.procs[k].pid;
			rc->stored[k].start = rc->s.procs[k].starttime;
		}
	}
	if (rc->prof)
		cprof_interval(rc, r ? 0 : rc->s.id);
	if (rc->nprocs > 0) {
		rc->cur = !rc->cur;
		rc->have_prev = true;
	}
	if (rc->retain_days > 0 && rc->retain_every > 0 && i % rc->retain_every == 0) {
		s64 before = ptk_snap_now_ms() - llround(rc->retain_days * 86400e3);
		long n = ptk_arc_retain(rc->arc, before, 500);
		if (n < 0)
			ptk_warn("retention failed: %s", ptk_arc_errmsg(rc->arc));
	}
	return 0;
}

int cmd_record(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "db", required_argument, NULL, OPT_DB },
		{ "retain", required_argument, NULL, OPT_RETAIN },
		{ "processes", required_argument, NULL, OPT_PROCS },
		{ "cmdline", no_argument, NULL, OPT_CMDLINE },
		{ "schema", no_argument, NULL, OPT_SCHEMA },
		{ "profile", optional_argument, NULL, OPT_PROFILE },
		{ "push", required_argument, NULL, OPT_PUSH },
		{ "push-name", required_argument, NULL, OPT_PUSH_NAME },
		{ "push-pprof", required_argument, NULL, OPT_PUSH_PPROF },
		{ "cgroups", required_argument, NULL, OPT_CGROUPS },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct rec rc = { .nprocs = 10, .retain_days = 7, .ncg = PTK_ARC_CGROUPS_DEFAULT };
	struct cprof cp = { 0 };
	char v_hz[16];
	const char *db = PTK_ARC_DEFAULT_DB;
	double interval = 10;
	long count = -1;
	char err[PATH_MAX + 256];
	int c, r;

	while ((c = ptk_getopt(ctx, argc, argv, "i:c:", opts, usage, &r)) >= 0) {
		u64 u;
		switch (c) {
		case 'i':
			if (ptk_parse_double(optarg, &interval) || !(interval >= 0.01) ||
			    interval > 86400)
				return ptk_usage_error(ctx, "invalid interval '%s'", optarg);
			break;
		case 'c':
			if (ptk_parse_u64(optarg, &u) || u < 1 || u > (u64)1 << 40)
				return ptk_usage_error(ctx, "invalid count '%s'", optarg);
			count = (long)u;
			break;
		case OPT_DB:
			if (!*optarg)
				return ptk_usage_error(ctx, "empty --db");
			db = optarg;
			break;
		case OPT_RETAIN:
			if (ptk_parse_double(optarg, &rc.retain_days) || rc.retain_days < 0 ||
			    rc.retain_days > 36500)
				return ptk_usage_error(ctx, "invalid --retain '%s'", optarg);
			break;
		case OPT_PROCS:
			if (ptk_parse_u64(optarg, &u) || u > 10000)
				return ptk_usage_error(ctx, "invalid --processes '%s'", optarg);
			rc.nprocs = (int)u;
			break;
		case OPT_CMDLINE:
			rc.cmdline = true;
			break;
		case OPT_CGROUPS:
			if (ptk_parse_u64(optarg, &u) || u > PTK_CG_MAX_GROUPS)
				return ptk_usage_error(ctx, "invalid --cgroups '%s' (0 to %d)",
						       optarg, PTK_CG_MAX_GROUPS);
			rc.ncg = (int)u;
			break;
		case OPT_SCHEMA:
			ptk_arc_schema_print(stdout);
			return 0;
		case OPT_PROFILE:
			cp.hz = 19;
			if (optarg && (ptk_parse_int(optarg, &cp.hz) || cp.hz < 1 || cp.hz > 10000))
				return ptk_usage_error(
					ctx, "--profile: a rate 1..10000 Hz, not '%s'", optarg);
			break;
		case OPT_PUSH:
		case OPT_PUSH_PPROF:
			if (strncmp(optarg, "http://", 7))
				return ptk_usage_error(ctx, "%s: an http:// URL, not '%s'",
						       c == OPT_PUSH ? "--push" : "--push-pprof",
						       optarg);
			if (c == OPT_PUSH)
				cp.push = optarg;
			else
				cp.push_pprof = optarg;
			break;
		case OPT_PUSH_NAME:
			snprintf(cp.name, sizeof(cp.name), "%s", optarg);
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if ((cp.push || cp.push_pprof || cp.name[0]) && !cp.hz)
		return ptk_usage_error(ctx, "--push, --push-pprof and --push-name need --profile");
	if (cp.push) {
		/* the server's base: a trailing '/' would double */
		size_t l = strlen(cp.push);
		static char base[1024];
		snprintf(base, sizeof(base), "%.*s", (int)(l && cp.push[l - 1] == '/' ? l - 1 : l),
			 cp.push);
		cp.push = base;
	}
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	{
		char *dup = xstrdup(db), *dir = dirname(dup);
		if (strcmp(dir, ".") && (r = ptk_mkdir_p(dir, 0755))) {
			ptk_err("cannot create %s: %s", dir, strerror(-r));
			free(dup);
			return PTK_EXIT_RUNTIME;
		}
		free(dup);
	}
	rc.arc = ptk_arc_open(db, PTK_ARC_RDWR, err, sizeof(err));
	if (!rc.arc) {
		ptk_err("%s", err);
		return PTK_EXIT_RUNTIME;
	}
	ptk_arc_set_host_meta(rc.arc);
	if (cp.hz) {
		if (!ptk_src_is_live(&ctx->src)) {
			ptk_err("--profile samples this machine: not with --procfs");
			ptk_arc_close(rc.arc);
			return PTK_EXIT_RUNTIME;
		}
		if (!cp.name[0]) {
			struct utsname un;
			snprintf(cp.name, sizeof(cp.name), "ptk.cpu{host=%s}",
				 uname(&un) == 0 ? un.nodename : "unknown");
		}
		if ((r = cprof_open(&cp))) {
			ptk_err("--profile: perf_event_open cpu-clock: %s%s", strerror(-r),
				r == -EACCES || r == -EPERM ?
					" (needs root or kernel.perf_event_paranoid <= 1)" :
					"");
			ptk_arc_close(rc.arc);
			return PTK_EXIT_RUNTIME;
		}
		rc.prof = &cp;
		snprintf(v_hz, sizeof(v_hz), "%d", cp.hz);
		ptk_arc_set_meta(rc.arc, "profile_hz", v_hz);
	}
	rc.keep = ptk_src_is_live(&ctx->src) ? ptk_ptab_keep_new() : NULL;
	if (rc.ncg > 0 && ptk_src_is_live(&ctx->src))
		rc.cg.keep = ptk_cg_keep_new();
	/* every sample scans the table: the iterator pays off at any size */
	if (rc.nprocs > 0 && !rc.cmdline)
		rc.ts = ptk_taskscan_auto(&ctx->src, 0);
	/* retention at start, then about every 10 minutes */
	rc.retain_every = MAX(1, (long)(600 / interval));
	if (count >= 0)
		count--; /* ptk_loop counts intervals after the first sample */
	r = ptk_loop(ctx, interval, count, record_sample, &rc);
	if (r == -EINTR)
		r = 0; /* SIGTERM/SIGINT: every completed sample is committed */
	if (rc.prof) {
		if (cp.push || cp.push_pprof)
			fprintf(stderr,
				"%s: profile pushes: %" PRIu64 " sent, %" PRIu64 " failed\n",
				ptk_progname, cp.pushed, cp.push_failed);
		cprof_close(&cp);
	}
	ptk_arc_close(rc.arc); /* checkpoints the WAL */
	ptk_snap_free(&rc.s);
	ptk_ptab_free(&rc.tab[0]);
	ptk_ptab_free(&rc.tab[1]);
	ptk_ptab_keep_free(rc.keep);
	ptk_cg_keep_free(rc.cg.keep);
	ptk_cg_free(&rc.cg);
	ptk_taskscan_close(rc.ts);
	free(rc.stored);
	free(rc.extra);
	free(rc.key);
	free(rc.order);
	free(rc.pick);
	free(rc.match);
	return r;
}
