// SPDX-License-Identifier: GPL-2.0
/*
 * ptk pidstat: per-task CPU, memory, I/O and context-switch rates, as sysstat pidstat (12.6)
 * with -u -r -d -w -t -p -C -G -l -I -h, plus --group-by (pid, tgid, comm, user, cgroup,
 * container), which sysstat lacks.
 *
 * Data: the process table (source/procfs/pid.h) scanned once per interval (twice with -t:
 * processes, then threads), rates from model/ptask.h keyed by (pid, starttime) so a reused
 * PID is never taken for the old process. As sysstat: %CPU is % of one CPU (a multithreaded
 * process can exceed 100) unless -I divides it by all CPUs; %wait is the run-queue wait of
 * /proc/PID/schedstat; without -p only tasks with activity in the interval are shown; without
 * an interval the report covers the time since boot. Unreadable values print "-" (sysstat
 * prints -1.00 for an unreadable io file and 0.00 for a missing schedstat).
 */
#include <errno.h>
#include <json-c/json.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/delta.h"
#include "model/ptask.h"
#include "source/bpf/taskscan.h"
#include "source/procfs/procfs.h"

enum {
	C_UID,
	C_PID,
	C_TGID,
	C_TID,
	C_USR,
	C_SYS,
	C_GUEST,
	C_WAIT,
	C_CPU,
	C_CPUNUM,
	C_MINFLT,
	C_MAJFLT,
	C_VSZ,
	C_RSS,
	C_MEM,
	C_RD,
	C_WR,
	C_CCWR,
	C_IODELAY,
	C_CSW,
	C_NVCSW,
	C_GUSER, /* --group-by columns */
	C_GRSS,
	C_NTASKS,
	C_KEY,
	C_CMD,
	C_N
};

static const struct ptk_metric *const ps_cols[C_N] = {
	[C_UID] = PTK_M(PROC_UID),	   [C_PID] = PTK_M(PROC_PID),
	[C_TGID] = PTK_M(PROC_TGID),	   [C_TID] = PTK_M(PROC_TID),
	[C_USR] = PTK_M(PROC_USR_PCT),	   [C_SYS] = PTK_M(PROC_SYSTEM_PCT),
	[C_GUEST] = PTK_M(PROC_GUEST_PCT), [C_WAIT] = PTK_M(PROC_WAIT_PCT),
	[C_CPU] = PTK_M(PROC_CPU_PCT),	   [C_CPUNUM] = PTK_M(PROC_CPUNUM),
	[C_MINFLT] = PTK_M(PROC_MINFLT_S), [C_MAJFLT] = PTK_M(PROC_MAJFLT_S),
	[C_VSZ] = PTK_M(PROC_VSZ_KB),	   [C_RSS] = PTK_M(PROC_RSS_KB),
	[C_MEM] = PTK_M(PROC_MEM_PCT),	   [C_RD] = PTK_M(PROC_RD_KB_S),
	[C_WR] = PTK_M(PROC_WR_KB_S),	   [C_CCWR] = PTK_M(PROC_CCWR_KB_S),
	[C_IODELAY] = PTK_M(PROC_IODELAY), [C_CSW] = PTK_M(PROC_CSWCH_S),
	[C_NVCSW] = PTK_M(PROC_NVCSWCH_S), [C_GUSER] = PTK_M(PROC_USER_PCT),
	[C_GRSS] = PTK_M(PROC_RSS_KB),	   [C_NTASKS] = PTK_M(PROC_GROUPBY_NTASKS),
	[C_KEY] = PTK_M(PROC_GROUPBY_KEY), [C_CMD] = PTK_M(PROC_COMMAND),
};
/* sysstat pidstat's layout: text widths (the key and the command are printed unpadded) */
static const int ps_width[C_N] = {
	[C_UID] = 5,	[C_PID] = 9,	[C_TGID] = 9, [C_TID] = 9,     [C_USR] = 7,
	[C_SYS] = 7,	[C_GUEST] = 7,	[C_WAIT] = 7, [C_CPU] = 7,     [C_CPUNUM] = 5,
	[C_MINFLT] = 9, [C_MAJFLT] = 9, [C_VSZ] = 7,  [C_RSS] = 7,     [C_MEM] = 6,
	[C_RD] = 9,	[C_WR] = 9,	[C_CCWR] = 9, [C_IODELAY] = 7, [C_CSW] = 9,
	[C_NVCSW] = 9,	[C_GUSER] = 7,	[C_GRSS] = 9, [C_NTASKS] = 6,
};

static const int act_order[] = { PTK_ACT_CPU, PTK_ACT_MEM, PTK_ACT_IO, PTK_ACT_CSW };

static const char usage[] =
	"usage: ptk pidstat [-u] [-r] [-d] [-w] [-t] [-p PID[,PID...]|SELF|ALL] [-C REGEX]\n"
	"                   [-G REGEX] [-l] [-I] [-h] [--group-by KEY] [--json]\n"
	"                   [interval [count]]\n"
	"Per-task statistics, as sysstat pidstat: -u CPU (default), -r page faults and memory,\n"
	"-d block I/O, -w context switches, -t threads too. Without -p only tasks active in the\n"
	"interval are shown; -p ALL shows all. -C keeps tasks whose command matches REGEX, -G\n"
	"processes whose name matches (and their threads). -l shows command lines, -I divides\n"
	"%CPU by the number of CPUs, -h prints one line per task. --group-by pid|tgid|comm|user|\n"
	"cgroup|container sums the rates per group. Without an interval: since boot.\n";

struct ps {
	unsigned acts;
	bool threads, irix, oneline, cmdline, all, active_only, group;
	enum ptk_group_by by;
	int *pids, npids;
	regex_t creg, greg;
	bool has_c, has_g;
	unsigned flags;
	long hz;
	int ncpu;
	u64 memtotal_kb;
	/* samples: [0] first, [1] previous, [2] current; p = processes, t = threads */
	struct ptk_ptab p[3], t[3];
	double up[3];
	u64 jiffies[3]; /* total CPU ticks of /proc/stat "cpu" (for -I) */
	struct ptk_task_means accp, acct; /* VSZ/RSS sums for the Average lines */
	char prev_clock[32];
	long reports, lines;
	double total_itv; /* sum of the reported intervals (Average lines) */
	int rows;
	bool dis_hdr;
	bool gone; /* every -p process has exited */
	struct ptk_taskscan *ts; /* the whole table from the BPF task iterator, or NULL */
	/* scratch */
	struct ptk_task_rate *rp, *rt;
	int nrp, nrt;
};

static void ptab_swap(struct ptk_ptab *a, struct ptk_ptab *b)
{
	struct ptk_ptab x = *a;
	*a = *b;
	*b = x;
}

#define PIDSTAT_TASKSCAN_MIN 1000

static bool use_threads(const struct ps *s)
{
	return s->threads || (s->group && s->by == PTK_BY_TGID);
}

static int scan(struct ptk_ctx *ctx, struct ps *s, int slot)
{
	int r;

	r = ptk_taskscan_or_proc(s->ts, &ctx->src, s->flags, s->pids, s->npids, &s->p[slot]);
	if (!r && use_threads(s))
		r = ptk_taskscan_or_proc(s->ts, &ctx->src, s->flags | PTK_PT_THREADS, s->pids,
					 s->npids, &s->t[slot]);
	if (r) {
		ptk_err("cannot scan %s: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	s->up[slot] = ptk_ctx_uptime(ctx);
	struct ptk_stat st = { 0 };
	s->jiffies[slot] = ptk_stat_read(&ctx->src, &st) == 0 ? ptk_cpu_total(&st.all) : 0;
	ptk_stat_free(&st);
	return 0;
}

static const char *task_cmd(const struct ps *s, const struct ptk_task *t, bool thread)
{
	if (s->cmdline && !thread && t->cmdline[0])
		return t->cmdline;
	return t->comm;
}

static bool cmd_match(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

/* Which columns a report shows, in order. Returns the count. */
static int pick_cols(const struct ps *s, unsigned acts, int *idx)
{
	int n = 0;

	if (s->group) {
		if (acts & PTK_ACT_CPU) {
			idx[n++] = C_GUSER;
			idx[n++] = C_SYS;
			idx[n++] = C_CPU;
		}
		if (acts & PTK_ACT_MEM) {
			idx[n++] = C_MINFLT;
			idx[n++] = C_MAJFLT;
			idx[n++] = C_GRSS;
		}
		if (acts & PTK_ACT_IO) {
			idx[n++] = C_RD;
			idx[n++] = C_WR;
			idx[n++] = C_CCWR;
		}
		if (acts & PTK_ACT_CSW) {
			idx[n++] = C_CSW;
			idx[n++] = C_NVCSW;
		}
		idx[n++] = C_NTASKS;
		idx[n++] = C_KEY;
		return n;
	}
	idx[n++] = C_UID;
	if (s->threads) {
		idx[n++] = C_TGID;
		idx[n++] = C_TID;
	} else {
		idx[n++] = C_PID;
	}
	if (acts & PTK_ACT_CPU)
		for (int c = C_USR; c <= C_CPUNUM; c++)
			idx[n++] = c;
	if (acts & PTK_ACT_MEM)
		for (int c = C_MINFLT; c <= C_MEM; c++)
			idx[n++] = c;
	if (acts & PTK_ACT_IO)
		for (int c = C_RD; c <= C_IODELAY; c++)
			idx[n++] = c;
	if (acts & PTK_ACT_CSW) {
		idx[n++] = C_CSW;
		idx[n++] = C_NVCSW;
	}
	idx[n++] = C_CMD;
	return n;
}

struct rctx {
	struct ptk_ctx *ctx;
	struct ps *s;
	bool avg;
	double itv;
	double irix_k; /* -I: ticks of one CPU over the interval / ticks of all CPUs */
	long pagesz;
	struct json_object *arr;
};

/* Values of one task row (all columns; the caller picks). */
static void task_vals(const struct rctx *rc, const struct ptk_task_rate *r, bool thread,
		      struct ptk_val *v)
{
	static const struct ptk_task zero;
	const struct ps *s = rc->s;
	const struct ptk_task *c = r->cur, *p = r->prev ? r->prev : &zero;
	const struct ptk_task_mean *a =
		rc->avg ? ptk_task_means_find(thread ? &s->acct : &s->accp, c) : NULL;
	double usr = r->usr_pct - r->guest_pct;

	for (int i = 0; i < C_N; i++)
		v[i] = PTK_NA;
	v[C_UID] = c->status_ok ? PTK_U(c->uid) : PTK_NA;
	v[C_PID] = PTK_I(c->pid);
	v[C_TGID] = PTK_I(c->tgid);
	v[C_TID] = thread ? PTK_I(c->pid) : PTK_NA;
	v[C_USR] = PTK_F(usr > 0 ? usr : 0);
	v[C_SYS] = PTK_F(r->sys_pct);
	v[C_GUEST] = PTK_F(r->guest_pct);
	v[C_WAIT] = r->wait_ok ? PTK_F(r->wait_pct) : PTK_NA;
	v[C_CPU] = PTK_F(r->cpu_pct * rc->irix_k);
	v[C_CPUNUM] = rc->avg || c->processor < 0 ? PTK_NA : PTK_I(c->processor);
	v[C_MINFLT] = PTK_F(r->minflt_s);
	v[C_MAJFLT] = PTK_F(r->majflt_s);
	double vsz = (double)(c->vsize >> 10), rss = (double)(c->rss_pages * rc->pagesz / 1024);
	if (a && a->n) {
		vsz = a->vsz_kb / a->n;
		rss = a->rss_kb / a->n;
	}
	v[C_VSZ] = PTK_F(vsz);
	v[C_RSS] = PTK_F(rss);
	v[C_MEM] = s->memtotal_kb ? PTK_F(100.0 * rss / s->memtotal_kb) : PTK_NA;
	if (r->io_ok) {
		v[C_RD] = PTK_F(r->rkb_s);
		v[C_WR] = PTK_F(r->wkb_s);
		v[C_CCWR] = PTK_F(r->ccwr_kb_s);
	}
	double d = (double)ptk_delta(p->blkio_ticks, c->blkio_ticks);
	v[C_IODELAY] = PTK_F(a && a->n ? d / a->n : d);
	if (r->csw_ok) {
		v[C_CSW] = PTK_F(r->cswch_s);
		v[C_NVCSW] = PTK_F(r->nvcswch_s);
	}
}

static void print_cell(FILE *f, int col, const struct ptk_val *v)
{
	char buf[512];

	fprintf(f, " %*s", ps_width[col], ptk_metric_fmt(ps_cols[col], v, buf, sizeof(buf)));
}

static void header(const struct rctx *rc, const char *prefix, const int *idx, int n)
{
	FILE *f = rc->ctx->sink.out;

	fprintf(f, "\n%-11s", prefix);
	for (int i = 0; i < n; i++) {
		if (idx[i] == C_KEY)
			fprintf(f, "  %s", ptk_group_by_name[rc->s->by]);
		else if (idx[i] == C_CMD)
			fputs("  Command", f); /* sysstat's title of the COMMAND column */
		else
			fprintf(f, " %*s", ps_width[idx[i]], ps_cols[idx[i]]->name);
	}
	fputc('\n', f);
}

/*
 * One row. leader_shown: for a thread, whether its process row is displayed in this table
 * (sysstat prints "-" as TGID and "|__" before the name; otherwise the TGID and
 * "(leader)__"). JSON gets every column.
 */
static void emit_row(const struct rctx *rc, const char *prefix, const int *idx, int n,
		     const struct ptk_val *v, bool thread, const char *leader_comm,
		     bool leader_shown, const char *cmd)
{
	FILE *f = rc->ctx->sink.out;

	if (rc->ctx->json) {
		const struct ptk_metric *cols[C_N];
		struct ptk_val vv[C_N];
		struct ptk_table tab = { .name = "tasks", .ncols = n, .refs = cols };
		for (int i = 0; i < n; i++) {
			cols[i] = ps_cols[idx[i]];
			vv[i] = v[idx[i]];
			if (idx[i] == C_CMD)
				vv[i] = PTK_S(cmd);
		}
		json_object_array_add(rc->arr, ptk_json_row(&tab, vv));
		return;
	}
	fprintf(f, "%-11s", prefix);
	for (int i = 0; i < n; i++) {
		int c = idx[i];
		if (c == C_CMD) {
			if (thread && leader_shown)
				fprintf(f, "  |__%s", cmd);
			else if (thread)
				fprintf(f, "  (%s)__%s", leader_comm, cmd);
			else
				fprintf(f, "  %s", cmd);
		} else if (c == C_KEY) {
			fprintf(f, "  %s", v[c].s);
		} else if (c == C_TGID && thread && leader_shown) {
			print_cell(f, c, &PTK_NA);
		} else {
			print_cell(f, c, &v[c]);
		}
	}
	fputc('\n', f);
}

/* One table (an activity set) of task rows. Returns the rows shown. */
static int task_table(struct rctx *rc, unsigned acts, const char *hdr_prefix, const char *prefix)
{
	struct ps *s = rc->s;
	int idx[C_N], n = pick_cols(s, acts, idx), shown = 0, j = 0;
	struct ptk_val v[C_N];
	bool filter_active = (s->all || s->threads) && s->active_only;

	if (!rc->ctx->json && hdr_prefix)
		header(rc, hdr_prefix, idx, n);
	for (int i = 0; i < s->nrp; i++) {
		const struct ptk_task_rate *r = &s->rp[i];
		bool shown_p = false;
		if (r->valid && (!filter_active || ptk_task_active(r, acts))) {
			const char *cmd = task_cmd(s, r->cur, false);
			if ((!s->has_c || cmd_match(&s->creg, cmd)) &&
			    (!s->has_g || cmd_match(&s->greg, cmd))) {
				task_vals(rc, r, false, v);
				emit_row(rc, prefix, idx, n, v, false, NULL, false, cmd);
				shown_p = true;
				shown++;
			}
		}
		if (!s->threads)
			continue;
		/* this process's threads (rt sorted by tgid, tid) */
		while (j < s->nrt && s->rt[j].cur->tgid < r->cur->pid)
			j++;
		bool leader_shown = shown_p;
		for (; j < s->nrt && s->rt[j].cur->tgid == r->cur->pid; j++) {
			const struct ptk_task_rate *t = &s->rt[j];
			if (!t->valid || (filter_active && !ptk_task_active(t, acts)))
				continue;
			if (s->has_c && !cmd_match(&s->creg, t->cur->comm))
				continue;
			if (s->has_g && !shown_p)
				continue;
			task_vals(rc, t, true, v);
			emit_row(rc, prefix, idx, n, v, true, r->cur->comm, leader_shown,
				 t->cur->comm);
			leader_shown = true;
			shown++;
		}
	}
	return shown;
}

static int group_table(struct rctx *rc, unsigned acts, const char *hdr_prefix, const char *prefix)
{
	struct ps *s = rc->s;
	int idx[C_N], n = pick_cols(s, acts, idx), shown = 0;
	bool thr = use_threads(s);
	struct ptk_task_rate *r = thr ? s->rt : s->rp;
	int nr = thr ? s->nrt : s->nrp;
	struct ptk_group *g;
	struct ptk_val v[C_N];

	/* filters apply to the tasks before grouping */
	for (int i = 0; i < nr; i++) {
		const char *cmd = task_cmd(s, r[i].cur, thr);
		if ((s->has_c && !cmd_match(&s->creg, cmd)) ||
		    (s->has_g && !cmd_match(&s->greg, cmd)))
			r[i].valid = false;
	}
	int ng = ptk_group_rates(r, nr, s->by, &g);
	if (!rc->ctx->json && hdr_prefix)
		header(rc, hdr_prefix, idx, n);
	for (int i = 0; i < ng; i++) {
		if (s->active_only && !ptk_group_active(&g[i], acts))
			continue;
		for (int c = 0; c < C_N; c++)
			v[c] = PTK_NA;
		v[C_GUSER] = PTK_F(g[i].usr_pct * rc->irix_k);
		v[C_SYS] = PTK_F(g[i].sys_pct * rc->irix_k);
		v[C_CPU] = PTK_F(g[i].cpu_pct * rc->irix_k);
		v[C_MINFLT] = PTK_F(g[i].minflt_s);
		v[C_MAJFLT] = PTK_F(g[i].majflt_s);
		v[C_GRSS] = PTK_F(g[i].rss_kb);
		if (g[i].io_ok) {
			v[C_RD] = PTK_F(g[i].rkb_s);
			v[C_WR] = PTK_F(g[i].wkb_s);
			v[C_CCWR] = PTK_F(g[i].ccwr_kb_s);
		}
		if (g[i].csw_ok) {
			v[C_CSW] = PTK_F(g[i].cswch_s);
			v[C_NVCSW] = PTK_F(g[i].nvcswch_s);
		}
		v[C_NTASKS] = PTK_U(g[i].ntasks);
		v[C_KEY] = PTK_S(g[i].key);
		emit_row(rc, prefix, idx, n, v, false, NULL, false, g[i].key);
		shown++;
	}
	free(g);
	return shown;
}

/*
 * One report between sample slots a (NULL: since boot) and b. prefix: time or "Average:";
 * hdr_prefix: the header's prefix, NULL for no header.
 */
static void report(struct ptk_ctx *ctx, struct ps *s, int a, int b, double itv, const char *prefix,
		   const char *hdr_prefix, const char *kind)
{
	struct rctx rc = { .ctx = ctx, .s = s, .avg = !strcmp(kind, "average"), .itv = itv };
	const struct ptk_ptab *pa = a >= 0 ? &s->p[a] : NULL, *ta = a >= 0 ? &s->t[a] : NULL;
	double up_a = a >= 0 ? s->up[a] : -1;

	rc.pagesz = sysconf(_SC_PAGESIZE);
	rc.irix_k = 1;
	if (s->irix) {
		u64 dj = ptk_delta(a >= 0 ? s->jiffies[a] : 0, s->jiffies[b]);
		rc.irix_k = dj ? itv * s->hz / (double)dj : 0;
	}
	s->rp = xrealloc(s->rp, (size_t)MAX(s->p[b].n, 1) * sizeof(*s->rp));
	s->nrp = s->p[b].n;
	ptk_task_rates(pa, &s->p[b], itv, s->hz, up_a, s->ncpu, s->rp);
	s->nrt = 0;
	if (use_threads(s)) {
		s->rt = xrealloc(s->rt, (size_t)MAX(s->t[b].n, 1) * sizeof(*s->rt));
		s->nrt = s->t[b].n;
		ptk_task_rates(ta, &s->t[b], itv, s->hz, up_a, s->ncpu, s->rt);
		ptk_task_rates_sort_tgid(s->rt, s->nrt);
	}
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_str(&ctx->sink, "type", kind);
		if (!rc.avg)
			ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
		ptk_sink_meta_u64(&ctx->sink, "ncpu", s->ncpu);
		if (s->group)
			ptk_sink_meta_str(&ctx->sink, "group_by", ptk_group_by_name[s->by]);
		rc.arr = json_object_new_array();
		if (s->group)
			group_table(&rc, s->acts, NULL, NULL);
		else
			task_table(&rc, s->acts, NULL, NULL);
		ptk_sink_meta_json(&ctx->sink, s->group ? "groups" : "tasks", rc.arr);
		ptk_sink_end(&ctx->sink);
		return;
	}
	if (s->group || s->oneline) {
		const char *hp = hdr_prefix ? (s->oneline ? "# Time" : hdr_prefix) : NULL;
		if (s->group)
			group_table(&rc, s->acts, hp, prefix);
		else
			task_table(&rc, s->acts, hp, prefix);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(act_order); i++)
			if (s->acts & act_order[i])
				task_table(&rc, act_order[i], hdr_prefix, prefix);
	}
	fflush(ctx->sink.out);
}

static bool any_selected_alive(const struct ps *s, int slot)
{
	return s->p[slot].n > 0;
}

static int ps_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct ps *s = arg;
	char clock[32];
	int r;

	if (i == 0) { /* the baseline, also kept for the Average lines */
		if ((r = scan(ctx, s, 1)))
			return r;
		ptk_ptab_copy(&s->p[0], &s->p[1]);
		ptk_ptab_copy(&s->t[0], &s->t[1]);
		s->up[0] = s->up[1];
		s->jiffies[0] = s->jiffies[1];
		ptk_ctx_clock(ctx, s->prev_clock, sizeof(s->prev_clock));
		return 0;
	}
	if ((r = scan(ctx, s, 2)))
		return r;
	if (s->npids && !any_selected_alive(s, 2)) {
		s->gone = true; /* sysstat stops when every -p task has exited */
		return -ESRCH;
	}
	ptk_task_means_add(&s->accp, &s->p[2]);
	if (use_threads(s))
		ptk_task_means_add(&s->acct, &s->t[2]);
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	bool dis = true;
	if (!s->dis_hdr) { /* a header every `rows` reports, as sysstat */
		dis = s->lines / s->rows;
		if (dis)
			s->lines %= s->rows;
		s->lines++;
	}
	report(ctx, s, 1, 2, itv, clock, dis ? s->prev_clock : NULL, "interval");
	s->reports++;
	s->total_itv += itv;
	ptab_swap(&s->p[1], &s->p[2]);
	ptab_swap(&s->t[1], &s->t[2]);
	s->up[1] = s->up[2];
	s->jiffies[1] = s->jiffies[2];
	snprintf(s->prev_clock, sizeof(s->prev_clock), "%s", clock);
	return 0;
}

static int parse_pids(struct ptk_ctx *ctx, struct ps *s, const char *arg)
{
	char *dup = xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int pid;
		if (!strcmp(t, "ALL")) {
			s->all = true;
			continue;
		}
		if (!strcmp(t, "SELF"))
			pid = getpid();
		else if (ptk_parse_int(t, &pid) || pid < 1) {
			rc = ptk_usage_error(ctx, "invalid PID '%s'", t);
			break;
		}
		s->pids = xrealloc(s->pids, (size_t)(s->npids + 1) * sizeof(int));
		s->pids[s->npids++] = pid;
	}
	free(dup);
	if (!rc && !s->npids && !s->all)
		rc = ptk_usage_error(ctx, "-p needs a PID list, SELF or ALL");
	if (s->all) /* ALL wins, as sysstat */
		s->npids = 0;
	return rc;
}

static int count_cpus(struct ptk_ctx *ctx)
{
	struct ptk_stat st = { 0 };
	int n = 0;

	if (ptk_stat_read(&ctx->src, &st) == 0)
		for (int i = 0; i < st.ncpu; i++)
			n += st.present[i];
	ptk_stat_free(&st);
	return n > 0 ? n : 1;
}

static int int_cmp(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

enum { OPT_GROUP_BY = 0x2000 };

int cmd_pidstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "group-by", required_argument, NULL, OPT_GROUP_BY },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct ps s = { .hz = sysconf(_SC_CLK_TCK), .rows = 23 };
	bool has_itv, pid_given = false;
	double interval = 1;
	long count = -1;
	int c, r, rc = 0, nact = 0;

	while ((c = ptk_getopt(ctx, argc, argv, "urdwtp:C:G:lIh", opts, usage, &rc)) >= 0) {
		switch (c) {
		case 'u':
			s.acts |= PTK_ACT_CPU;
			nact++;
			break;
		case 'r':
			s.acts |= PTK_ACT_MEM;
			nact++;
			break;
		case 'd':
			s.acts |= PTK_ACT_IO;
			nact++;
			break;
		case 'w':
			s.acts |= PTK_ACT_CSW;
			nact++;
			break;
		case 't':
			s.threads = true;
			break;
		case 'p':
			pid_given = true;
			if ((rc = parse_pids(ctx, &s, optarg)))
				goto out_free_tables;
			break;
		case 'C':
		case 'G': {
			regex_t *re = c == 'C' ? &s.creg : &s.greg;
			bool *has = c == 'C' ? &s.has_c : &s.has_g;
			if (!*optarg) {
				rc = ptk_usage_error(ctx, "-%c needs a pattern", c);
				goto out_free_tables;
			}
			if (*has)
				regfree(re);
			if (regcomp(re, optarg, REG_EXTENDED | REG_NOSUB)) {
				*has = false;
				rc = ptk_usage_error(ctx, "invalid regular expression '%s'",
						     optarg);
				goto out_free_tables;
			}
			*has = true;
			break;
		}
		case 'l':
			s.cmdline = true;
			break;
		case 'I':
			s.irix = true;
			break;
		case 'h':
			s.oneline = true;
			break;
		case OPT_GROUP_BY:
			if (ptk_group_by_parse(optarg, &s.by)) {
				rc = ptk_usage_error(ctx,
						     "invalid --group-by '%s' (pid, tgid, comm, "
						     "user, cgroup, container)",
						     optarg);
				goto out_free_tables;
			}
			s.group = true;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		goto out_free_tables;
	if ((rc = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		goto out_free_tables;
	if (!s.acts) {
		s.acts = PTK_ACT_CPU;
		nact = 1;
	}
	if (!pid_given)
		s.all = s.active_only = true;
	if (s.npids)
		qsort(s.pids, s.npids, sizeof(int), int_cmp);
	/* sysstat: header each interval unless one activity of a single -p task */
	s.dis_hdr = !pid_given || nact > 1 || s.npids > 1 || s.all || s.oneline || s.group;
	if (!s.dis_hdr) {
		struct winsize ws;
		if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) != -1 && ws.ws_row > 2)
			s.rows = ws.ws_row - 2;
		s.lines = s.rows;
	}
	s.flags = PTK_PT_STATUS | PTK_PT_SCHED;
	if (s.acts & PTK_ACT_IO)
		s.flags |= PTK_PT_IO;
	if (s.cmdline)
		s.flags |= PTK_PT_CMDLINE;
	if (s.group && (s.by == PTK_BY_CGROUP || s.by == PTK_BY_CONTAINER))
		s.flags |= PTK_PT_CGROUP;
	if ((rc = ptk_ctx_ready(ctx)))
		goto out_free_tables;
	if (s.npids && (rc = ptk_require_pids(ctx, s.pids, s.npids)))
		goto out_free_tables;
	/* every process, as root, on a large table: one iterator read instead of 3-4 files per
	 * task (-d, -l and cgroup grouping need files the iterator does not serve) */
	if (!s.npids && !(s.flags & ~PTK_TASKSCAN_FLAGS))
		s.ts = ptk_taskscan_auto(&ctx->src, PIDSTAT_TASKSCAN_MIN);
	s.ncpu = count_cpus(ctx);
	struct ptk_meminfo mi;
	if (ptk_meminfo_read(&ctx->src, &mi) == 0)
		s.memtotal_kb = mi.mem_total;
	if (!ctx->json)
		ptk_ctx_banner(ctx, s.ncpu);
	if (!has_itv) {
		if ((rc = scan(ctx, &s, 1)))
			goto out_free_tables;
		ptk_ctx_clock(ctx, s.prev_clock, sizeof(s.prev_clock));
		report(ctx, &s, -1, 1, s.up[1], s.prev_clock, s.prev_clock, "since_boot");
		goto out_free_tables;
	}
	r = ptk_loop(ctx, interval, count, ps_sample, &s);
	if (r > 0) {
		rc = r;
		goto out_free_tables;
	}
	if (s.reports > 0 && !s.gone && !s.oneline) {
		if (r == -EINTR && !ctx->json)
			putchar('\n'); /* after the ^C echo */
		report(ctx, &s, 0, 1, s.total_itv, "Average:", s.dis_hdr ? "Average:" : NULL,
		       "average");
	}
out_free_tables:
	ptk_taskscan_close(s.ts);
	for (int i = 0; i < 3; i++) {
		ptk_ptab_free(&s.p[i]);
		ptk_ptab_free(&s.t[i]);
	}
	ptk_task_means_free(&s.accp);
	ptk_task_means_free(&s.acct);
	free(s.rp);
	free(s.rt);
	free(s.pids);
	if (s.has_c)
		regfree(&s.creg);
	if (s.has_g)
		regfree(&s.greg);
	return rc;
}
