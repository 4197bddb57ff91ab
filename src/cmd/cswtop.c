// SPDX-License-Identifier: GPL-2.0
/*
 * ptk cswtop: context-switch rates by thread group -- thread pools of a JVM (full names from
 * jstack), name prefixes, regex captures, comm, process or cgroup -- with a Coda Hale meter
 * (mean, 1/5/15-minute rates) per group. Counters: voluntary_ctxt_switches and
 * nonvoluntary_ctxt_switches of /proc/PID/task/TID/status (kernel/sched/core.c nvcsw/nivcsw,
 * printed by fs/proc/array.c task_context_switch_counts).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/delta.h"
#include "model/ewma.h"
#include "model/jstack.h"
#include "source/procfs/pid.h"

enum { C_CSW, C_SHARE, C_VOL, C_INV, C_THR, C_MEAN, C_M1, C_M5, C_M15, C_GROUP, C_N };
static const struct ptk_metric *const csw_cols[C_N] = {
	[C_CSW] = PTK_M(PROC_CSW_S),  [C_SHARE] = PTK_M(CSW_SHARE_PCT),
	[C_VOL] = PTK_M(CSW_CSWCH_S), [C_INV] = PTK_M(CSW_NVCSWCH_S),
	[C_THR] = PTK_M(CSW_THREADS), [C_MEAN] = PTK_M(CSW_MEAN_S),
	[C_M1] = PTK_M(CSW_M1_S),     [C_M5] = PTK_M(CSW_M5_S),
	[C_M15] = PTK_M(CSW_M15_S),   [C_GROUP] = PTK_M(CSW_GROUP),
};
static const struct ptk_table group_tab = { .name = "groups", .ncols = C_N, .refs = csw_cols };
static const struct ptk_table total_tab = { .name = "total", .ncols = C_N, .refs = csw_cols };

enum gmode { G_PREFIX, G_REGEX, G_COMM, G_PROCESS, G_CGROUP };
static const char *const gmode_names[] = { "prefix", "regex", "comm", "process", "cgroup" };

#define DEFAULT_NCHARS 32
#define DEFAULT_TOP 10
#define JSTACK_TIMEOUT_MS 60000
#define STOP_GONE 1000 /* sample return: the watched processes exited */

struct group {
	char *key;
	struct ptk_meter meter;
	u64 dvol, dinv; /* this interval */
	int threads; /* rows in the current scan */
	int counted; /* threads that have a delta this interval (seen in both scans) */
	bool fresh; /* created at this sample: no interval yet */
	double rate; /* (dvol + dinv) / interval, for sorting */
};

struct cswtop {
	int *pids, npids;
	enum gmode mode;
	int nchars, topk;
	bool has_re;
	regex_t re;
	bool jstack_live;
	const char *jfile;
	struct ptk_jdump jd;
	int *tried, ntried; /* TIDs of the JVM the last dump did not name */
	int jmapped; /* threads named from the dump in this scan */
	bool last_check; /* check_jvm before each jstack rerun */
	const struct ptk_src *src;
	unsigned flags;
	struct ptk_ptab pt[2];
	int cur;
	struct group *g;
	int ng, capg;
	int *hidx, hcap; /* open addressing: index into g, -1 empty */
	struct ptk_meter total;
	u64 now_ns, prev_ns;
};

static const char usage[] =
	"usage: ptk cswtop [-p PID[,PID...]] [-g prefix|regex|comm|process|cgroup] [-n N]\n"
	"                  [-r REGEX] [--top K] [--jstack | --jstack-file FILE] [--json]\n"
	"                  [interval [count]]\n"
	"Context switches per second of thread groups (thread pools), from the voluntary and\n"
	"involuntary counters of /proc/PID/task/TID/status, with a Coda Hale meter per group:\n"
	"mean rate and 1-, 5-, 15-minute moving averages (5 s ticks). Each interval lists the\n"
	"top K groups by their rate in that interval.\n"
	"  -p PID       only these processes (default: every thread of the machine)\n"
	"  -g MODE      group by: prefix (default) = the thread name without its trailing\n"
	"               index, cut to N characters (\"alpha-12\" -> \"alpha\",\n"
	"               \"pool-1-thread-3\" -> \"pool-1-thread\"); regex = the first capture\n"
	"               group of -r (whole match without one); comm = the thread name;\n"
	"               process = comm[tgid]; cgroup = the cgroup path\n"
	"  -n N         characters kept by -g prefix (default 32; 0 = all; 10 = the seed\n"
	"               script's grouping)\n"
	"  -r REGEX     POSIX extended regex for -g regex (implies it); unmatched threads\n"
	"               form the group \"(unmatched)\"\n"
	"  --top K      groups shown per interval (default 10; 0 = all)\n"
	"  --jstack     name the threads of the JVM -p PID from `jstack PID` (full Java names;\n"
	"               the kernel keeps 15 characters); rerun when unnamed threads appear\n"
	"  --jstack-file FILE  the same from a saved dump\n"
	"  interval     seconds between reports (default 1); count: reports (default: until\n"
	"               interrupted). The first read is the baseline: nothing is printed.\n";

/* ---- groups ---- */

static u64 hash_str(const char *s)
{
	u64 h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void rehash(struct cswtop *c)
{
	if (c->hcap < 2 * c->ng + 16) {
		c->hcap = 64;
		while (c->hcap < 4 * c->ng)
			c->hcap *= 2;
		c->hidx = xrealloc(c->hidx, c->hcap * sizeof(*c->hidx));
	}
	for (int i = 0; i < c->hcap; i++)
		c->hidx[i] = -1;
	for (int i = 0; i < c->ng; i++) {
		u64 h = hash_str(c->g[i].key) & (c->hcap - 1);
		while (c->hidx[h] >= 0)
			h = (h + 1) & (c->hcap - 1);
		c->hidx[h] = i;
	}
}

static struct group *group_get(struct cswtop *c, const char *key)
{
	u64 h;

	if (!c->hidx)
		rehash(c);
	h = hash_str(key) & (c->hcap - 1);
	while (c->hidx[h] >= 0) {
		if (!strcmp(c->g[c->hidx[h]].key, key))
			return &c->g[c->hidx[h]];
		h = (h + 1) & (c->hcap - 1);
	}
	if (c->ng == c->capg) {
		c->capg = c->capg ? c->capg * 2 : 64;
		c->g = xrealloc(c->g, c->capg * sizeof(*c->g));
	}
	struct group *g = &c->g[c->ng];
	memset(g, 0, sizeof(*g));
	g->key = xstrdup(key);
	g->fresh = true;
	ptk_meter_init(&g->meter, c->now_ns);
	c->hidx[h] = c->ng++;
	if (4 * c->ng > 3 * c->hcap / 2)
		rehash(c);
	return g;
}

/* Drop the groups without threads (their meters go with them) and rebuild the index. */
static void groups_prune(struct cswtop *c)
{
	int w = 0;

	for (int i = 0; i < c->ng; i++) {
		if (c->g[i].threads)
			c->g[w++] = c->g[i];
		else
			free(c->g[i].key);
	}
	c->ng = w;
	rehash(c);
}

/* ---- naming ---- */

static const struct ptk_task *row_by_pid(const struct ptk_ptab *pt, int pid)
{
	int lo = 0, hi = pt->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (pt->t[mid].pid == pid)
			return &pt->t[mid];
		if (pt->t[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

static bool watched(const struct cswtop *c, int tgid)
{
	for (int i = 0; i < c->npids; i++)
		if (c->pids[i] == tgid)
			return true;
	return false;
}

/*
 * The thread's name: the full Java name when the dump has its TID -- for the threads of -p
 * PID, or without -p only when the kernel name is the 15-character cut of the Java name (a
 * TID of another process is not taken for a JVM thread) -- else the kernel comm.
 */
static const char *thread_name(struct cswtop *c, const struct ptk_task *t, bool *mapped)
{
	const struct ptk_jthread *j = c->jd.n ? ptk_jstack_find(&c->jd, t->pid) : NULL;

	*mapped = false;
	if (!j)
		return t->comm;
	if (c->npids) {
		if (!watched(c, t->tgid))
			return t->comm;
	} else {
		size_t cl = strlen(t->comm);
		if (strncmp(t->comm, j->name, cl) || (cl < 15 && j->name[cl]))
			return t->comm;
	}
	*mapped = true;
	return j->name;
}

static void group_key(struct cswtop *c, const struct ptk_task *t, char *key, size_t size)
{
	bool mapped;
	const char *name = thread_name(c, t, &mapped);
	regmatch_t m[2];

	c->jmapped += mapped;
	switch (c->mode) {
	case G_PREFIX:
		ptk_pool_name(name, c->nchars, key, size);
		break;
	case G_REGEX:
		if (regexec(&c->re, name, 2, m, 0)) {
			snprintf(key, size, "(unmatched)");
			break;
		}
		int k = m[1].rm_so >= 0 ? 1 : 0;
		int len = (int)(m[k].rm_eo - m[k].rm_so);
		snprintf(key, size, "%.*s", len, name + m[k].rm_so);
		if (!len)
			snprintf(key, size, "(empty)");
		break;
	case G_COMM:
		snprintf(key, size, "%s", name);
		break;
	case G_PROCESS: {
		const struct ptk_task *leader = row_by_pid(&c->pt[c->cur], t->tgid);
		snprintf(key, size, "%s[%d]", leader ? leader->comm : t->comm, t->tgid);
		break;
	}
	case G_CGROUP:
		snprintf(key, size, "%s", t->cgroup[0] ? t->cgroup : "-");
		break;
	}
}

/* ---- jstack ---- */

/*
 * Run `jstack PID` and return its output (malloc'd) in *out. On failure returns -1 with the
 * reason in why: jstack missing, its own message (first line), or a timeout.
 */
static int run_jstack(int pid, char **out, char *why, size_t wsize)
{
	struct ptk_buf b = { 0 };
	char arg[16];
	int fds[2], st;
	pid_t child;
	u64 deadline = ptk_now_ns() + (u64)JSTACK_TIMEOUT_MS * 1000000;
	bool timeout = false;

	*out = NULL;
	snprintf(arg, sizeof(arg), "%d", pid);
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(why, wsize, "pipe: %s", strerror(errno));
		return -1;
	}
	child = fork();
	if (child < 0) {
		snprintf(why, wsize, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (child == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execlp("jstack", "jstack", arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		u64 now = ptk_now_ns();
		if (now >= deadline) {
			timeout = true;
			break;
		}
		int r = poll(&p, 1, (int)((deadline - now) / 1000000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		if (b.cap - b.len < 4096) {
			b.cap = b.cap ? b.cap * 2 : 65536;
			b.p = xrealloc(b.p, b.cap);
		}
		ssize_t n = read(fds[0], b.p + b.len, b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		b.len += n;
	}
	close(fds[0]);
	if (timeout)
		kill(child, SIGKILL);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	if (b.p)
		b.p[b.len] = '\0';
	if (timeout) {
		snprintf(why, wsize, "jstack %d did not finish within %d s", pid,
			 JSTACK_TIMEOUT_MS / 1000);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !b.len) {
		snprintf(why, wsize,
			 "jstack not found in PATH (it comes with a JDK, e.g. Debian "
			 "openjdk-17-jdk-headless)");
	} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		const char *msg = b.p ? b.p : "";
		while (*msg == '\n' || *msg == ' ')
			msg++;
		int n = (int)strcspn(msg, "\n");
		if (WIFEXITED(st))
			snprintf(why, wsize, "jstack %d failed (exit %d): %.*s", pid,
				 WEXITSTATUS(st), n ? n : 11, n ? msg : "(no output)");
		else
			snprintf(why, wsize, "jstack %d killed by signal %d", pid, WTERMSIG(st));
	} else {
		*out = b.p;
		return 0;
	}
	free(b.p);
	return -1;
}

/*
 * jstack attaches by sending SIGQUIT, which kills a process that is not a JVM: run it only on
 * a process that has HotSpot's libjvm.so mapped (/proc/PID/maps). 0, or -1 with why.
 */
static int check_jvm(const struct ptk_src *src, int pid, char *why, size_t wsize)
{
	char rel[32], path[PATH_MAX];
	size_t len;
	char *maps;
	bool jvm;

	snprintf(rel, sizeof(rel), "%d/maps", pid);
	if (ptk_src_path(src, PTK_PROC, rel, path, sizeof(path)))
		return -1;
	maps = ptk_slurp(path, &len);
	if (!maps) {
		snprintf(why, wsize, "cannot read %.256s: %s", path,
			 errno == ENOENT ? "no such process" : strerror(errno));
		return -1;
	}
	jvm = strstr(maps, "/libjvm.so\n") != NULL;
	free(maps);
	if (!jvm) {
		snprintf(why, wsize,
			 "process %d is not a HotSpot JVM (no libjvm.so in %.256s); jstack would "
			 "send it SIGQUIT",
			 pid, path);
		return -1;
	}
	return 0;
}

static int load_dump(struct cswtop *c, const char *text, const char *what, char *why, size_t wsize)
{
	if (ptk_jstack_parse(text, &c->jd) < 0) {
		snprintf(why, wsize, "%s: not a jstack thread dump (no \"name\" ... nid= line)",
			 what);
		return -1;
	}
	return 0;
}

static int jstack_refresh(struct cswtop *c, char *why, size_t wsize)
{
	char *text;
	int r;

	/* the JVM may have exited and its PID been reused since the last run */
	if (c->last_check && check_jvm(c->src, c->pids[0], why, wsize))
		return -1;
	c->last_check = true;

	if (run_jstack(c->pids[0], &text, why, wsize))
		return -1;
	r = load_dump(c, text, "jstack output", why, wsize);
	free(text);
	return r;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* TIDs of the JVM in the current scan that the dump does not name. */
static void remember_unnamed(struct cswtop *c)
{
	const struct ptk_ptab *pt = &c->pt[c->cur];

	c->ntried = 0;
	c->tried = xrealloc(c->tried, (pt->n + 1) * sizeof(*c->tried));
	for (int i = 0; i < pt->n; i++)
		if (pt->t[i].tgid == c->pids[0] && !ptk_jstack_find(&c->jd, pt->t[i].pid))
			c->tried[c->ntried++] = pt->t[i].pid;
	if (c->ntried)
		qsort(c->tried, c->ntried, sizeof(*c->tried), cmp_int);
}

/* A JVM thread appeared that neither the dump names nor the last run left unnamed. */
static bool jstack_stale(const struct cswtop *c)
{
	const struct ptk_ptab *pt = &c->pt[c->cur];

	for (int i = 0; i < pt->n; i++) {
		int tid = pt->t[i].pid;
		if (pt->t[i].tgid == c->pids[0] && !ptk_jstack_find(&c->jd, tid) &&
		    !bsearch(&tid, c->tried, c->ntried, sizeof(int), cmp_int))
			return true;
	}
	return false;
}

/* ---- the interval ---- */

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	bool xn = !x->counted, yn = !y->counted;

	if (xn != yn)
		return xn - yn; /* groups without a measured interval last */
	if (x->rate != y->rate)
		return x->rate < y->rate ? 1 : -1;
	return strcmp(x->key, y->key);
}

static void fill_row(struct ptk_val *v, struct ptk_meter *m, u64 dvol, u64 dinv, int threads,
		     bool measured, double itv, double total_rate, u64 now_ns, const char *key)
{
	double rate = measured ? (double)(dvol + dinv) / itv : 0;

	v[C_CSW] = measured ? PTK_F(rate) : PTK_NA;
	v[C_SHARE] = measured && total_rate > 0 ? PTK_F(100.0 * rate / total_rate) : PTK_NA;
	v[C_VOL] = measured ? PTK_F(dvol / itv) : PTK_NA;
	v[C_INV] = measured ? PTK_F(dinv / itv) : PTK_NA;
	v[C_THR] = PTK_U(threads);
	v[C_MEAN] = now_ns > m->start_ns ? PTK_F(ptk_meter_mean(m, now_ns)) : PTK_NA;
	ptk_meter_tick(m, now_ns);
	v[C_M1] = ptk_meter_ticked(m) ? PTK_F(ptk_meter_m1(m, now_ns)) : PTK_NA;
	v[C_M5] = ptk_meter_ticked(m) ? PTK_F(ptk_meter_m5(m, now_ns)) : PTK_NA;
	v[C_M15] = ptk_meter_ticked(m) ? PTK_F(ptk_meter_m15(m, now_ns)) : PTK_NA;
	v[C_GROUP] = PTK_S(key);
}

static int scan(struct ptk_ctx *ctx, struct cswtop *c, struct ptk_ptab *pt)
{
	int r = c->npids ? ptk_ptab_scan_pids(&ctx->src, c->flags, c->pids, c->npids, pt) :
			   ptk_ptab_scan(&ctx->src, c->flags, pt);
	if (r)
		ptk_err("cannot read the process table under %s: %s", ctx->src.procfs,
			strerror(-r));
	return r;
}

static int sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct cswtop *c = arg;
	struct ptk_ptab *prev = &c->pt[c->cur], *pt = &c->pt[!c->cur];
	struct ptk_sink *s = &ctx->sink;
	u64 tvol = 0, tinv = 0;
	int tthreads = 0, tcounted = 0;
	char key[256], why[512];

	if (scan(ctx, c, pt))
		return PTK_EXIT_RUNTIME;
	c->cur = !c->cur;
	if (c->npids && !pt->n) {
		if (i == 0) {
			ptk_err("no such process: %d%s", c->pids[0], c->npids > 1 ? " ..." : "");
			return PTK_EXIT_RUNTIME;
		}
		ptk_warn("the watched process%s exited", c->npids > 1 ? "es" : "");
		return STOP_GONE;
	}
	if (c->jstack_live) {
		if (i == 0) {
			remember_unnamed(c);
		} else if (jstack_stale(c)) {
			if (jstack_refresh(c, why, sizeof(why)))
				ptk_warn("%s (keeping the previous names)", why);
			remember_unnamed(c);
		}
	}
	if (i > 0) {
		c->prev_ns = c->now_ns;
		c->now_ns += itv > 0 ? (u64)llround(itv * 1e9) : 0;
	}
	for (int k = 0; k < c->ng; k++) {
		c->g[k].dvol = c->g[k].dinv = 0;
		c->g[k].threads = c->g[k].counted = 0;
		c->g[k].fresh = false;
	}
	c->jmapped = 0;
	for (int k = 0; k < pt->n; k++) {
		const struct ptk_task *t = &pt->t[k], *o;
		if (!t->status_ok)
			continue;
		group_key(c, t, key, sizeof(key));
		struct group *g = group_get(c, key);
		g->threads++;
		tthreads++;
		o = i > 0 ? ptk_ptab_find(prev, t->pid, t->starttime) : NULL;
		if (!o || !o->status_ok)
			continue; /* new thread (or reused TID): counted from the next interval */
		g->dvol += ptk_delta(o->vol_ctxt, t->vol_ctxt);
		g->dinv += ptk_delta(o->nonvol_ctxt, t->nonvol_ctxt);
		g->counted++;
		tcounted++;
	}
	groups_prune(c);
	if (i == 0)
		return 0;

	if (itv <= 0) /* replay: the same uptime twice; no rate can be measured */
		tcounted = 0;
	for (int k = 0; k < c->ng; k++) {
		struct group *g = &c->g[k];
		if (itv <= 0)
			g->counted = 0;
		g->rate = itv > 0 ? (double)(g->dvol + g->dinv) / itv : 0;
		tvol += g->dvol;
		tinv += g->dinv;
		if (!g->fresh)
			ptk_meter_mark_span(&g->meter, g->dvol + g->dinv, c->prev_ns, c->now_ns);
	}
	ptk_meter_mark_span(&c->total, tvol + tinv, c->prev_ns, c->now_ns);
	if (c->ng)
		qsort(c->g, c->ng, sizeof(*c->g), cmp_group);
	rehash(c);

	double total_rate = itv > 0 ? (double)(tvol + tinv) / itv : 0;
	struct ptk_val v[C_N];
	char clock[16];
	int shown = c->topk > 0 ? MIN(c->topk, c->ng) : c->ng;

	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_f64(s, "interval_s", itv);
	ptk_sink_meta_str(s, "group_by", gmode_names[c->mode]);
	ptk_sink_meta_u64(s, "ngroups", c->ng);
	if (c->jd.n)
		ptk_sink_meta_u64(s, "jstack_named", c->jmapped);
	fill_row(v, &c->total, tvol, tinv, tthreads, tcounted > 0, itv, total_rate, c->now_ns,
		 "(all)");
	if (ctx->json) {
		ptk_sink_meta_json(s, "total", ptk_json_row(&total_tab, v));
	} else {
		if (i > 1)
			fputc('\n', s->out);
		ptk_sink_table_begin(s, &total_tab, true, "Time");
		ptk_sink_row(s, clock, v);
		ptk_sink_table_end(s);
	}
	ptk_sink_table_begin(s, &group_tab, false, NULL);
	for (int k = 0; k < shown; k++) {
		struct group *g = &c->g[k];
		fill_row(v, &g->meter, g->dvol, g->dinv, g->threads, g->counted > 0, itv,
			 total_rate, c->now_ns, g->key);
		ptk_sink_row(s, clock, v);
	}
	ptk_sink_table_end(s);
	ptk_sink_end(s);
	return 0;
}

static int parse_pids(const char *arg, struct cswtop *c)
{
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p;
		if (ptk_parse_int(tok, &p) || p <= 0) {
			r = -EINVAL;
			break;
		}
		c->pids = xrealloc(c->pids, (c->npids + 1) * sizeof(int));
		c->pids[c->npids++] = p;
	}
	free(dup);
	return c->npids ? r : -EINVAL;
}

static void cswtop_free(struct cswtop *c)
{
	for (int k = 0; k < c->ng; k++)
		free(c->g[k].key);
	free(c->g);
	free(c->hidx);
	free(c->pids);
	free(c->tried);
	ptk_ptab_free(&c->pt[0]);
	ptk_ptab_free(&c->pt[1]);
	ptk_jstack_free(&c->jd);
	if (c->has_re)
		regfree(&c->re);
}

enum { OPT_TOP = 1, OPT_JSTACK, OPT_JFILE };

int cmd_cswtop(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, OPT_TOP },
		{ "jstack", no_argument, NULL, OPT_JSTACK },
		{ "jstack-file", required_argument, NULL, OPT_JFILE },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct cswtop c = { .mode = G_PREFIX, .nchars = DEFAULT_NCHARS, .topk = DEFAULT_TOP };
	const char *regex = NULL;
	bool mode_set = false, n_set = false;
	double interval = 1;
	long count = -1;
	char why[512];
	int ch, r;

	while ((ch = ptk_getopt(ctx, argc, argv, "p:g:n:r:", opts, usage, &r)) >= 0) {
		switch (ch) {
		case 'p':
			if (parse_pids(optarg, &c)) {
				r = ptk_usage_error(ctx, "invalid PID list '%s'", optarg);
				goto out_free_groups;
			}
			break;
		case 'g': {
			int m = -1;
			for (int k = 0; k < (int)ARRAY_SIZE(gmode_names); k++)
				if (!strcmp(optarg, gmode_names[k]))
					m = k;
			if (m < 0) {
				r = ptk_usage_error(ctx,
						    "invalid -g '%s' (prefix, regex, comm, "
						    "process or cgroup)",
						    optarg);
				goto out_free_groups;
			}
			c.mode = m;
			mode_set = true;
			break;
		}
		case 'n':
			if (ptk_parse_int(optarg, &c.nchars) || c.nchars < 0 || c.nchars > 255) {
				r = ptk_usage_error(ctx, "invalid -n '%s' (0..255)", optarg);
				goto out_free_groups;
			}
			n_set = true;
			break;
		case 'r':
			regex = optarg;
			break;
		case OPT_TOP:
			if (ptk_parse_int(optarg, &c.topk) || c.topk < 0) {
				r = ptk_usage_error(ctx, "invalid --top '%s'", optarg);
				goto out_free_groups;
			}
			break;
		case OPT_JSTACK:
			c.jstack_live = true;
			break;
		case OPT_JFILE:
			c.jfile = optarg;
			break;
		}
	}
	if (ch == PTK_GETOPT_EXIT)
		goto out_free_groups;
	if (regex && !mode_set)
		c.mode = G_REGEX;
	if (c.mode == G_REGEX && !regex) {
		r = ptk_usage_error(ctx, "-g regex needs -r REGEX");
		goto out_free_groups;
	}
	if (regex && c.mode != G_REGEX) {
		r = ptk_usage_error(ctx, "-r goes with -g regex, not -g %s", gmode_names[c.mode]);
		goto out_free_groups;
	}
	if (n_set && c.mode != G_PREFIX) {
		r = ptk_usage_error(ctx, "-n goes with -g prefix");
		goto out_free_groups;
	}
	if (c.jstack_live && c.jfile) {
		r = ptk_usage_error(ctx, "--jstack and --jstack-file exclude each other");
		goto out_free_groups;
	}
	if (c.jstack_live && c.npids != 1) {
		r = ptk_usage_error(ctx, "--jstack needs -p with the one PID of the JVM");
		goto out_free_groups;
	}
	if (regex) {
		int e = regcomp(&c.re, regex, REG_EXTENDED);
		if (e) {
			char msg[128];
			regerror(e, &c.re, msg, sizeof(msg));
			r = ptk_usage_error(ctx, "invalid regex '%s': %s", regex, msg);
			goto out_free_groups;
		}
		c.has_re = true;
	}
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, NULL)))
		goto out_free_groups;
	if ((r = ptk_ctx_ready(ctx)))
		goto out_free_groups;
	if (c.jstack_live && !ptk_src_is_live(&ctx->src)) {
		r = ptk_usage_error(ctx, "--jstack needs the live /proc (use --jstack-file with "
					 "--procfs)");
		goto out_free_groups;
	}
	c.flags = PTK_PT_THREADS | PTK_PT_STATUS | (c.mode == G_CGROUP ? PTK_PT_CGROUP : 0);
	if (c.jfile) {
		size_t len;
		char *text = ptk_slurp(c.jfile, &len);
		if (!text) {
			ptk_err("cannot read %s: %s", c.jfile, strerror(errno));
			r = PTK_EXIT_RUNTIME;
			goto out_free_groups;
		}
		r = load_dump(&c, text, c.jfile, why, sizeof(why));
		free(text);
		if (r) {
			ptk_err("%s", why);
			r = PTK_EXIT_RUNTIME;
			goto out_free_groups;
		}
	}
	if (c.jstack_live) {
		c.src = &ctx->src;
		if (check_jvm(&ctx->src, c.pids[0], why, sizeof(why)) ||
		    jstack_refresh(&c, why, sizeof(why))) {
			ptk_err("%s", why);
			r = PTK_EXIT_RUNTIME;
			goto out_free_groups;
		}
	}
	ptk_meter_init(&c.total, 0);
	if (!ctx->json)
		ctx->sink.prefix_width = 9;
	r = ptk_loop(ctx, interval, count, sample, &c);
	if (r == -EINTR || r == STOP_GONE)
		r = 0;
out_free_groups:
	cswtop_free(&c);
	return r;
}
