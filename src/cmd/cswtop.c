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
#include "model/cswgroup.h"
#include "model/ewma.h"
#include "model/jstack.h"
#include "source/cgroup/cgroup.h"
#include "source/jvm.h"
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

#define DEFAULT_NCHARS 32
#define DEFAULT_TOP 10
#define JSTACK_TIMEOUT_MS 60000
#define STOP_GONE 1000 /* sample return: the watched processes exited */

struct cswtop {
	int *pids, npids;
	struct ptk_csw_keying key;
	int topk;
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
	struct ptk_csw_groups gs;
	const char *cgroup; /* --cgroup: only the threads of this cgroup and below */
};

static const char usage[] =
	"usage: ptk cswtop [-p PID[,PID...]] [-g prefix|regex|comm|process|cgroup|container]\n"
	"                  [-n N] [-r REGEX] [--top K] [--jstack | --jstack-file FILE]\n"
	"                  [--cgroup PATH] [--json] [interval [count]]\n"
	"Context switches per second of thread groups (thread pools), from the voluntary and\n"
	"involuntary counters of /proc/PID/task/TID/status, with a Coda Hale meter per group:\n"
	"mean rate and 1-, 5-, 15-minute moving averages (5 s ticks). Each interval lists the\n"
	"top K groups by their rate in that interval.\n"
	"  -p PID       only these processes (default: every thread of the machine)\n"
	"  -g MODE      group by: prefix (default) = the thread name without its trailing\n"
	"               index, cut to N characters (\"alpha-12\" -> \"alpha\",\n"
	"               \"pool-1-thread-3\" -> \"pool-1-thread\"); regex = the first capture\n"
	"               group of -r (whole match without one); comm = the thread name;\n"
	"               process = comm[tgid]; cgroup = the cgroup path (v2, else the first\n"
	"               v1 one of /proc/PID/task/TID/cgroup); container = its owner\n"
	"               (runtime:id, pod:uid or the systemd unit)\n"
	"  -n N         characters kept by -g prefix (default 32; 0 = all; 10 = the seed\n"
	"               script's grouping)\n"
	"  -r REGEX     POSIX extended regex for -g regex (implies it); unmatched threads\n"
	"               form the group \"(unmatched)\"\n"
	"  --top K      groups shown per interval (default 10; 0 = all)\n"
	"  --cgroup PATH  only the threads in cgroup PATH or below (the total too)\n"
	"  --jstack     name the threads of the JVM -p PID from `jstack PID` (full Java names;\n"
	"               the kernel keeps 15 characters); rerun when unnamed threads appear\n"
	"  --jstack-file FILE  the same from a saved dump\n"
	"  interval     seconds between reports (default 1); count: reports (default: until\n"
	"               interrupted). The first read is the baseline: nothing is printed.\n";

/* ---- naming ---- */

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
static const char *thread_name(struct cswtop *c, const struct ptk_task *t)
{
	const char *j = NULL;

	if (!c->npids || watched(c, t->tgid))
		j = ptk_jstack_name(&c->jd, t->pid, t->comm, c->npids > 0);
	c->jmapped += j != NULL;
	return j ? j : t->comm;
}

/* ---- jstack ---- */

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
	if (c->last_check && ptk_jvm_check(c->src, c->pids[0], why, wsize))
		return -1;
	c->last_check = true;

	if (ptk_jvm_jstack(c->pids[0], JSTACK_TIMEOUT_MS, &text, why, wsize))
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
	int r = ptk_ptab_scan_some(&ctx->src, c->flags, c->pids, c->npids, pt);
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
	ptk_csw_begin(&c->gs, i == 0, itv);
	c->jmapped = 0;
	for (int k = 0; k < pt->n; k++) {
		const struct ptk_task *t = &pt->t[k];
		if (!t->status_ok)
			continue;
		if (c->cgroup && !(t->cgroup[0] && ptk_cg_under(t->cgroup, c->cgroup)))
			continue;
		const struct ptk_task *leader =
			c->key.by == PTK_CSW_PROCESS ? ptk_ptab_find_pid(pt, t->tgid) : NULL;
		ptk_csw_key(&c->key, t, thread_name(c, t), leader, key, sizeof(key));
		ptk_csw_add(&c->gs, key, t,
			    i > 0 ? ptk_ptab_find(prev, t->pid, t->starttime) : NULL);
	}
	ptk_csw_end(&c->gs, i == 0, itv);
	if (i == 0)
		return 0;

	struct ptk_csw_groups *gs = &c->gs;
	double total_rate = itv > 0 ? (double)(gs->tvol + gs->tinv) / itv : 0;
	struct ptk_val v[C_N];
	char clock[16];
	int shown = c->topk > 0 ? MIN(c->topk, gs->n) : gs->n;

	ptk_ctx_clock(ctx, clock, sizeof(clock));
	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_f64(s, "interval_s", itv);
	ptk_sink_meta_str(s, "group_by", ptk_csw_by_name[c->key.by]);
	ptk_sink_meta_u64(s, "ngroups", gs->n);
	if (c->jd.n)
		ptk_sink_meta_u64(s, "jstack_named", c->jmapped);
	if (c->cgroup)
		ptk_sink_meta_str(s, "cgroup", c->cgroup);
	fill_row(v, &gs->total, gs->tvol, gs->tinv, gs->tthreads, gs->tcounted > 0, itv, total_rate,
		 gs->now_ns, "(all)");
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
		struct ptk_csw_group *g = &gs->g[k];
		fill_row(v, &g->meter, g->dvol, g->dinv, g->threads, g->counted > 0, itv,
			 total_rate, gs->now_ns, g->key);
		ptk_sink_row(s, clock, v);
	}
	ptk_sink_table_end(s);
	ptk_sink_end(s);
	return 0;
}

static void cswtop_free(struct cswtop *c)
{
	ptk_csw_free(&c->gs);
	free(c->pids);
	free(c->tried);
	ptk_ptab_free(&c->pt[0]);
	ptk_ptab_free(&c->pt[1]);
	ptk_jstack_free(&c->jd);
	if (c->has_re)
		regfree(&c->re);
}

enum { OPT_TOP = 1, OPT_JSTACK, OPT_JFILE, OPT_CGROUP };

int cmd_cswtop(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, OPT_TOP },
		{ "jstack", no_argument, NULL, OPT_JSTACK },
		{ "jstack-file", required_argument, NULL, OPT_JFILE },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct cswtop c = { .key = { .by = PTK_CSW_PREFIX, .nchars = DEFAULT_NCHARS },
			    .topk = DEFAULT_TOP };
	const char *regex = NULL;
	bool mode_set = false, n_set = false;
	double interval = 1;
	long count = -1;
	char why[512];
	int ch, r;

	ptk_csw_init(&c.gs);

	while ((ch = ptk_getopt(ctx, argc, argv, "p:g:n:r:", opts, usage, &r)) >= 0) {
		switch (ch) {
		case 'p':
			if (ptk_parse_id_list(optarg, ",", &c.pids, &c.npids, NULL, 0) ||
			    !c.npids) {
				r = ptk_usage_error(ctx, "invalid PID list '%s'", optarg);
				goto out_free_groups;
			}
			break;
		case 'g': {
			int m = -1;
			for (int k = 0; k < (int)ARRAY_SIZE(ptk_csw_by_name); k++)
				if (!strcmp(optarg, ptk_csw_by_name[k]))
					m = k;
			if (m < 0) {
				r = ptk_usage_error(ctx,
						    "invalid -g '%s' (prefix, regex, comm, "
						    "process, cgroup or container)",
						    optarg);
				goto out_free_groups;
			}
			c.key.by = m;
			mode_set = true;
			break;
		}
		case 'n':
			if (ptk_parse_int(optarg, &c.key.nchars) || c.key.nchars < 0 ||
			    c.key.nchars > 255) {
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
		case OPT_CGROUP:
			if (optarg[0] != '/' ||
			    strlen(optarg) >= sizeof(((struct ptk_task *)NULL)->cgroup)) {
				r = ptk_usage_error(ctx, "invalid --cgroup '%s' (a path from /)",
						    optarg);
				goto out_free_groups;
			}
			c.cgroup = optarg;
			break;
		}
	}
	if (ch == PTK_GETOPT_EXIT)
		goto out_free_groups;
	if (regex && !mode_set)
		c.key.by = PTK_CSW_REGEX;
	if (c.key.by == PTK_CSW_REGEX && !regex) {
		r = ptk_usage_error(ctx, "-g regex needs -r REGEX");
		goto out_free_groups;
	}
	if (regex && c.key.by != PTK_CSW_REGEX) {
		r = ptk_usage_error(ctx, "-r goes with -g regex, not -g %s",
				    ptk_csw_by_name[c.key.by]);
		goto out_free_groups;
	}
	if (n_set && c.key.by != PTK_CSW_PREFIX) {
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
		c.key.re = &c.re;
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
	c.flags = PTK_PT_THREADS | PTK_PT_STATUS;
	if (c.key.by == PTK_CSW_CGROUP || c.key.by == PTK_CSW_CONTAINER || c.cgroup)
		c.flags |= PTK_PT_CGROUP;
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
		if (ptk_jvm_check(&ctx->src, c.pids[0], why, sizeof(why)) ||
		    jstack_refresh(&c, why, sizeof(why))) {
			ptk_err("%s", why);
			r = PTK_EXIT_RUNTIME;
			goto out_free_groups;
		}
	}
	if (!ctx->json)
		ctx->sink.prefix_width = 9;
	r = ptk_loop(ctx, interval, count, sample, &c);
	if (r == -EINTR || r == STOP_GONE)
		r = 0;
out_free_groups:
	cswtop_free(&c);
	return r;
}
