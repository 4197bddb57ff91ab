// SPDX-License-Identifier: GPL-2.0
/*
 * ptk top: procps-ng top's batch layout (-b) and an htop-like interactive viewer.
 *
 * First frame: like procps top 4.x (top.c frame_make: "prime the pump" with a refresh, then
 * usleep(LIB_USLEEP) = 0.15 s, then the real refresh), the first frame's %CPU is measured
 * over a short real interval of 0.15 s, not since boot or since the process started.
 *
 * Cost: the process table keeps each task's stat and statm open between scans and re-reads
 * them with pread (struct ptk_ptab.keep); USER is the owner of the stat file (procps top
 * fstat()s /proc/PID the same way) rather than a parse of status.
 */
#include <errno.h>
#include <pwd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/delta.h"
#include "model/ptask.h"
#include "model/toplist.h"
#include "output/archive.h"
#include "output/tui.h"
#include "source/bpf/taskscan.h"
#include "source/cgroup/cgroup.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"

#define PRIME_S 0.15 /* procps top LIB_USLEEP */

static const struct ptk_metric *const top_cols[TC_N] = {
	[TC_PID] = PTK_M(PROC_PID),	    [TC_USER] = PTK_M(PROC_EUSER),
	[TC_PR] = PTK_M(PROC_PRIORITY),	    [TC_NI] = PTK_M(PROC_NICE),
	[TC_VIRT] = PTK_M(PROC_VIRT_KB),    [TC_RES] = PTK_M(PROC_RES_KB),
	[TC_SHR] = PTK_M(PROC_SHR_KB),	    [TC_S] = PTK_M(PROC_STATE),
	[TC_CPU] = PTK_M(TOP_CPU_PCT),	    [TC_MEM] = PTK_M(TOP_MEM_PCT),
	[TC_TIME] = PTK_M(PROC_CPU_TIME),   [TC_RKB] = PTK_M(PROC_RKB_S),
	[TC_WKB] = PTK_M(PROC_WKB_S),	    [TC_MAJFLT] = PTK_M(TOP_MAJFLT_S),
	[TC_CSW] = PTK_M(PROC_CSW_S),	    [TC_FDS] = PTK_M(PROC_FDS),
	[TC_CGROUP] = PTK_M(PROC_CGROUP),   [TC_CONTAINER] = PTK_M(PROC_CONTAINER),
	[TC_COMMAND] = PTK_M(PROC_COMMAND),
};
/* procps top's layout: text widths (negative: left-aligned); the viewer's columns too */
static const int top_width[TC_N] = {
	[TC_PID] = 5,  [TC_USER] = -8,	  [TC_PR] = 3,		[TC_NI] = 3,	   [TC_VIRT] = 7,
	[TC_RES] = 6,  [TC_SHR] = 6,	  [TC_S] = 1,		[TC_CPU] = 5,	   [TC_MEM] = 5,
	[TC_TIME] = 9, [TC_RKB] = 8,	  [TC_WKB] = 8,		[TC_MAJFLT] = 8,   [TC_CSW] = 8,
	[TC_FDS] = 5,  [TC_CGROUP] = -24, [TC_CONTAINER] = -20, [TC_COMMAND] = -7,
};
static const struct ptk_table top_tab = { .name = "processes", .ncols = TC_N, .refs = top_cols };

static const char usage[] =
	"usage: ptk top [-b] [-n N] [-d S] [-p PID,...] [-u USER] [-H] [-c] [-o FIELD] [-w COLS]\n"
	"               [--group-by pid|tgid|comm|user|cgroup|container] [--cgroup PATH]\n"
	"               [--json]\n"
	"Processes by CPU. -b prints procps top's batch layout; without it an interactive\n"
	"viewer runs (keys: P M T N sort, < > column, t tree, H threads, \\ filter, g cgroup,\n"
	"/ search, k kill, r renice, f columns, q quit). -o sorts by a field (PID USER PR NI\n"
	"VIRT RES SHR S %CPU %MEM TIME+ CGROUP CONTAINER COMMAND, '+' descending or '-'\n"
	"ascending prefix).\n"
	"--cgroup PATH shows only the tasks in cgroup PATH or below (the v2 path of\n"
	"/proc/PID/cgroup, else its first v1 one; key g in the viewer); the viewer's f adds the\n"
	"CGROUP and CONTAINER (runtime:id, pod:uid or systemd unit) columns.\n"
	"Time travel: --at TIME [--db PATH] [--utc] shows the processes and meters recorded by\n"
	"'ptk record' nearest TIME ('YYYY-MM-DD HH:MM[:SS]', ISO 8601, HH:MM, -30m); in the\n"
	"viewer '[' and ']' step to the previous and next recorded sample.\n";

struct top {
	struct ptk_ctx *ctx;
	long hz, page_kb;
	int ncpu_online;
	struct ptk_ptab tab[2];
	int cur;
	struct ptk_ptab_keep *keep;
	struct ptk_taskscan *ts; /* BPF task iterator for large tables (root), else NULL */
	struct ptk_stat st[2];
	u64 prev_ns;
	double prev_up;
	struct ptk_task_rate *rates;
	int rcap;
	int *pids, npids;
	bool user_set;
	char user[64];
	struct ptk_top_frame f;
	int ocap;
	u64 cpu0_ns, wall0_ns;
	bool have_prev;
	struct ptk_top_view *view;
	/* time travel (--at): snapshots materialised from the archive */
	const char *at, *db;
	bool utc;
	int at_shift; /* samples from the one nearest TIME, as built */
	int at_bias; /* added to the viewer's step: steps past either end are undone */
	s64 at_t_ms; /* the time of the sample shown */
	char at_anchor[32]; /* "@EPOCH.ms" of the first sample shown: TIME once resolved */
	char at_dir[PATH_MAX];
};

/* --at: (re)build the two-snapshot tree (baseline + the sample nearest TIME, moved by the
 * viewer's '[' ']' steps) and replay it from its start. 0 or an exit code. */
static int at_tree(struct top *tp, int shift)
{
	char dir[PATH_MAX], err[PATH_MAX + 256];
	s64 t_ms = 0;
	int n = ptk_arc_at(tp->db, tp->at, tp->utc, 1, 0, shift, dir, sizeof(dir), &t_ms, err,
			   sizeof(err));

	if (n < 2) {
		if (n >= 0)
			ptk_arc_rmtree(dir);
		ptk_err("%s", err);
		return PTK_EXIT_RUNTIME;
	}
	if (err[0] && !tp->at_dir[0]) /* the first build: before the viewer draws */
		ptk_warn("%s", err);
	ptk_arc_rmtree(tp->at_dir);
	snprintf(tp->at_dir, sizeof(tp->at_dir), "%s", dir);
	tp->at_shift = shift;
	tp->at_t_ms = t_ms;
	/* the viewer says which recorded sample it shows */
	time_t t = (time_t)(t_ms / 1000);
	struct tm tm;
	char when[32];
	if ((tp->utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) &&
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(tp->f.at_label, sizeof(tp->f.at_label), "recorded %s%s", when,
			 tp->utc ? " UTC" : "");
	return 0;
}

/* ---- sampling -------------------------------------------------------------------------- */

/* Files to read. The priming scan reads the same, so the frame after it can reuse the rows
 * of tasks that did not run (PTK_PT_SKIPIDLE). */
static unsigned scan_flags(const struct ptk_top_view *v, bool prime)
{
	unsigned fl = (v->threads ? PTK_PT_THREADS : 0) | PTK_PT_STATM | PTK_PT_OWNER;

	if (prime && v->oneshot)
		return fl & ~(PTK_PT_STATM | PTK_PT_OWNER); /* one frame: stat is the baseline */
	if (!v->oneshot)
		fl |= PTK_PT_SKIPIDLE; /* pays off from the second frame on */

	if (v->cmdline)
		fl |= PTK_PT_CMDLINE;
	if (v->show[TC_RKB] || v->show[TC_WKB])
		fl |= PTK_PT_IO;
	if (v->show[TC_CSW])
		fl |= PTK_PT_STATUS;
	if (v->show[TC_FDS])
		fl |= PTK_PT_FDS;
	if (v->show[TC_CGROUP] || v->show[TC_CONTAINER] || v->cgroup[0] || v->sort == TC_CGROUP ||
	    v->sort == TC_CONTAINER)
		fl |= PTK_PT_CGROUP;
	return fl;
}

static int do_scan(struct top *tp, unsigned flags, struct ptk_ptab *pt)
{
	pt->keep = tp->keep; /* the iterator serves stat, statm and the owner; others: /proc */
	return ptk_taskscan_or_proc(tp->ts, &tp->ctx->src, flags, tp->pids, tp->npids, pt);
}

/*
 * Scanning thousands of /proc/PID directories costs an open, read and close of two files per
 * process; above TASKSCAN_MIN tasks, as root, one BPF task iterator read returns them all
 * (source/bpf/taskscan.h).
 */
#define TASKSCAN_MIN 1000
static struct ptk_taskscan *open_taskscan(struct ptk_ctx *ctx, const struct top *tp)
{
	if (tp->pids || tp->at)
		return NULL;
	return ptk_taskscan_auto(&ctx->src, TASKSCAN_MIN);
}

static bool user_match(const struct top *tp, const struct ptk_task *t)
{
	if (!tp->user_set)
		return true;
	if (!t->owner_ok)
		return false;
	char num[16];
	snprintf(num, sizeof(num), "%u", t->euid);
	return !strcmp(tp->user, num) || !strcmp(tp->user, ptk_user_name(t->euid));
}

/* Build the rows of tab[cur] against tab[!cur] (NULL prev: first frame without priming). */
static void build_rows(struct top *tp, double itv)
{
	struct ptk_ptab *cur = &tp->tab[tp->cur], *prev = tp->have_prev ? &tp->tab[!tp->cur] : NULL;
	struct ptk_top_frame *f = &tp->f;
	struct ptk_top_fill how = { .hz = tp->hz,
				    .page_kb = tp->page_kb,
				    .mem_total_kb = f->mi.mem_total,
				    .cmdline = tp->view->cmdline };

	if (cur->n > tp->rcap) {
		tp->rcap = cur->n;
		tp->rates = xrealloc(tp->rates, tp->rcap * sizeof(*tp->rates));
		f->rows = xrealloc(f->rows, tp->rcap * sizeof(*f->rows));
		f->order = xrealloc(f->order, tp->rcap * sizeof(*f->order));
	}
	ptk_task_rates(prev, cur, itv, tp->hz, tp->prev_up, tp->ncpu_online, tp->rates);
	memset(&f->tasks, 0, sizeof(f->tasks));
	f->nrows = 0;
	for (int i = 0; i < cur->n; i++) {
		if (!user_match(tp, &cur->t[i]))
			continue;
		ptk_task_states_add(&f->tasks, cur->t[i].state);
		ptk_top_row_set(&f->rows[f->nrows++], &cur->t[i], &tp->rates[i], &how);
	}
}

/* The error of a read of file what (NULL: the process table) under the root. */
static int read_failed(const struct ptk_ctx *ctx, const char *what, int r)
{
	if (what)
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, what, strerror(-r));
	else
		ptk_err("cannot scan the processes of %s: %s", ctx->src.procfs, strerror(-r));
	return PTK_EXIT_RUNTIME;
}

/*
 * One sample: /proc/stat, meminfo, loadavg, PSI and the process table. first: no previous
 * table yet (live: prime, sleep 0.15 s, scan again; replay: snapshot N is the baseline and
 * N+1 the frame).
 */
static int sample(void *arg, const struct ptk_top_view *v)
{
	struct top *tp = arg;
	struct ptk_ctx *ctx = tp->ctx;
	struct ptk_top_frame *f = &tp->f;
	struct ptk_uptime up;
	int r;

	if (tp->at && tp->at_dir[0]) {
		/* time travel: every frame is computed afresh from the tree's two snapshots */
		int want = v->step + tp->at_bias;
		if (want != tp->at_shift) {
			s64 shown = tp->at_t_ms;
			int was = tp->at_shift;
			if ((r = at_tree(tp, want)))
				return r;
			if (tp->at_t_ms == shown) {
				/* at the first or last sample: the step did not move, undo it */
				tp->at_bias -= want - was;
				tp->at_shift = was;
			}
		}
		if (ptk_src_init(&ctx->src, tp->at_dir, NULL))
			return PTK_EXIT_RUNTIME;
		tp->have_prev = false;
	}
	const char *what = "stat";
	if (!tp->have_prev) {
		if ((r = ptk_stat_read(&ctx->src, &tp->st[0])) ||
		    (what = NULL, r = do_scan(tp, scan_flags(v, true), &tp->tab[0]))) {
			return read_failed(ctx, what, r);
		}
		tp->prev_ns = tp->tab[0].scanned_ns;
		tp->prev_up = ptk_ctx_uptime(ctx);
		tp->cur = 0;
		if (ctx->src.replay) {
			if (ptk_src_next(&ctx->src))
				return -ENODATA;
		} else {
			ptk_sleep_until(ptk_now_ns() + (u64)(PRIME_S * 1e9), &ctx->stop);
		}
		tp->have_prev = true;
	}
	tp->cur = !tp->cur;
	struct ptk_stat *sc = &tp->st[tp->cur], *sp = &tp->st[!tp->cur];
	if ((what = "stat", r = ptk_stat_read(&ctx->src, sc)) ||
	    (what = "meminfo", r = ptk_meminfo_read(&ctx->src, &f->mi)) ||
	    (what = "loadavg", r = ptk_loadavg_read(&ctx->src, &f->la)) ||
	    (what = "uptime", r = ptk_uptime_read(&ctx->src, &up)) ||
	    (what = NULL, r = do_scan(tp, scan_flags(v, false), &tp->tab[tp->cur]))) {
		return read_failed(ctx, what, r);
	}
	double itv = ctx->src.replay ? up.up_s - tp->prev_up :
				       (tp->tab[tp->cur].scanned_ns - tp->prev_ns) / 1e9;
	if (itv <= 0)
		itv = 1e-3;
	f->itv_s = itv;
	f->up_s = up.up_s;
	f->users = ptk_src_is_live(&ctx->src) ? ptk_count_users() : -1;
	tp->ncpu_online = ptk_top_frame_cpu(f, sp, sc, itv);
	for (int i = 0; i < PTK_PSI_NRES; i++) {
		struct ptk_psi psi;
		f->psi10[i] = ptk_psi_read(&ctx->src, i, &psi) == 0 && psi.some.present ?
				      psi.some.avg10 :
				      NAN;
	}
	build_rows(tp, itv);
	u64 now = ptk_now_ns(), cpu = ptk_self_cpu_ns();
	if (tp->wall0_ns && now > tp->wall0_ns)
		f->observer_pct = 100.0 * (cpu - tp->cpu0_ns) / (now - tp->wall0_ns);
	tp->wall0_ns = now;
	tp->cpu0_ns = cpu;
	tp->prev_ns = tp->tab[tp->cur].scanned_ns;
	tp->prev_up = up.up_s;
	return 0;
}

static void arrange(void *arg, const struct ptk_top_view *v)
{
	struct top *tp = arg;
	struct ptk_top_order o = { .cols = top_cols,
				   .sort = v->sort,
				   .asc = v->asc,
				   .tree = v->tree,
				   .threads = v->threads,
				   .filter = v->filter,
				   .cgroup = v->cgroup };

	ptk_top_arrange(&tp->f, &o);
}

/* ---- top-style text --------------------------------------------------------------------- */

/*
 * v in decimal at buf (at least 21 bytes), NUL-terminated; returns the length. What
 * snprintf's %llu prints, without its format parsing: a batch frame has ~12 cells a task.
 */
static int fmt_u64(char *buf, u64 v)
{
	char tmp[20];
	int n = 0, len;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	for (len = 0; n;)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

/* procps top scale_mem: KiB when it fits, else m with 1 decimal, g with 3, t with 4 ... */
static void scale_mem(u64 kib, int width, char *buf, size_t size)
{
	static const char sfx[] = "kmgtpe";
	double num = kib;

	/* KiB as "%.0f" prints the (exact, integral) double: the integer itself */
	if (size > 20 && kib < (1ull << 53) && fmt_u64(buf, kib) <= width)
		return;
	for (int i = 0; i < 6; i++) {
		int n = i == 0 ? snprintf(buf, size, "%.0f", num) :
				 snprintf(buf, size, "%#.*f%c", i == 1 ? 1 : i + 1, num, sfx[i]);
		if (n <= width)
			return;
		num /= 1024.0;
	}
	/* too wide even so: whole units, from the smallest that fits */
	num = kib;
	for (int i = 0; i < 6; i++, num /= 1024.0)
		if (snprintf(buf, size, "%.0f%c", num, i ? sfx[i] : 'k') <= width)
			return;
	snprintf(buf, size, "?");
}

/* procps top scale_tics for TIME+: min:sec.hundredths, then min:sec, then hours, days. */
static void scale_tics(double secs, int width, char *buf, size_t size)
{
	u64 cs = (u64)(secs * 100 + 0.5), s = cs / 100, m = s / 60;

	if (size > 28) { /* "%llu:%02llu.%02llu" by hand */
		int n = fmt_u64(buf, m);
		if (n + 6 <= width) {
			char *p = buf + n;
			*p++ = ':';
			*p++ = (char)('0' + s % 60 / 10);
			*p++ = (char)('0' + s % 10);
			*p++ = '.';
			*p++ = (char)('0' + cs % 100 / 10);
			*p++ = (char)('0' + cs % 10);
			*p = '\0';
			return;
		}
	}
	if (snprintf(buf, size, "%" PRIu64 ":%02" PRIu64 ".%02" PRIu64, m, s % 60, cs % 100) <=
	    width)
		return;
	if (snprintf(buf, size, "%" PRIu64 ":%02" PRIu64, m, s % 60) <= width)
		return;
	if (snprintf(buf, size, "%" PRIu64 ",%02" PRIu64, m / 60, m % 60) <= width)
		return;
	if (snprintf(buf, size, "%" PRIu64 "h", m / 60) <= width)
		return;
	snprintf(buf, size, "%" PRIu64 "d", m / 60 / 24);
}

/* Truncate to width with '+' in the last column, as top does. */
static void trunc_plus(char *buf, int width)
{
	if (width > 0 && (int)strlen(buf) > width) {
		buf[width - 1] = '+';
		buf[width] = '\0';
	}
}

static void cell(void *arg, const struct ptk_top_row *r, int col, int width, char *buf, size_t size)
{
	const struct ptk_val *v = &r->v[col];

	if (v->na) {
		snprintf(buf, size, "-");
		return;
	}
	switch (col) {
	case TC_VIRT:
	case TC_RES:
	case TC_SHR:
		scale_mem(v->u, width, buf, size);
		return;
	case TC_TIME:
		scale_tics(v->f, width, buf, size);
		return;
	case TC_PR:
		if (v->i < -99)
			snprintf(buf, size, "rt");
		else if (v->i >= 0 && size > 20)
			fmt_u64(buf, (u64)v->i);
		else
			snprintf(buf, size, "%" PRId64, v->i);
		return;
	case TC_CPU:
	case TC_MEM:
		if (v->f == 0 && !signbit(v->f) && width >= 3 && size >= 4) {
			memcpy(buf, "0.0", 4); /* most tasks: what "%.1f" prints for +0 */
			return;
		}
		if (snprintf(buf, size, "%.1f", v->f) > width)
			snprintf(buf, size, "%.0f", v->f);
		return;
	case TC_COMMAND:
		snprintf(buf, size, "%s%s", r->tree, r->cmd);
		trunc_plus(buf, width);
		return;
	default:
		ptk_metric_fmt(top_cols[col], v, buf, size);
		trunc_plus(buf, width);
	}
}

/* ---- batch output ----------------------------------------------------------------------- */

static int pid_width(void)
{
	char buf[32];
	int w = 5;

	if (ptk_read_file("/proc/sys/kernel/pid_max", buf, sizeof(buf)) > 0) {
		int d = (int)strlen(buf) - (buf[strlen(buf) - 1] == '\n');
		w = MAX(w, d);
	}
	return w;
}

/* The %Cpu(s) shares of the summary, by /proc/stat state (guest states: none). */
static const struct ptk_metric *const top_cpu[PTK_CPU_NSTATES] = {
	[PTK_CPU_USER] = PTK_M(TOP_CPU_US_PCT),	   [PTK_CPU_NICE] = PTK_M(TOP_CPU_NI_PCT),
	[PTK_CPU_SYSTEM] = PTK_M(TOP_CPU_SY_PCT),  [PTK_CPU_IDLE] = PTK_M(TOP_CPU_ID_PCT),
	[PTK_CPU_IOWAIT] = PTK_M(TOP_CPU_WA_PCT),  [PTK_CPU_IRQ] = PTK_M(TOP_CPU_HI_PCT),
	[PTK_CPU_SOFTIRQ] = PTK_M(TOP_CPU_SI_PCT), [PTK_CPU_STEAL] = PTK_M(TOP_CPU_ST_PCT),
};

/* An interval-level JSON field rendered from its registry entry. */
static void meta_val(struct ptk_sink *s, const struct ptk_metric *m, struct ptk_val v)
{
	ptk_sink_meta_json(s, m->key, ptk_json_val(m, &v));
}

/* kB as procps top's summary shows MiB (8 columns, '+' when wider); "-" when unknown. */
static void summary_kb(char *b, u64 kb, bool known)
{
	if (!known)
		snprintf(b, 16, "-");
	else if (snprintf(b, 16, "%.1f", kb / 1024.0) > 9)
		b[8] = '+', b[9] = '\0';
}

static void print_summary(struct top *tp)
{
	struct ptk_top_frame *f = &tp->f;
	const double *c = f->cpu;
	char clock[16];
	struct ptk_meminfo *mi = &f->mi;
	char b[4][16], up[96];

	ptk_ctx_clock(tp->ctx, clock, sizeof(clock));
	ptk_fmt_uptime(f->up_s, f->users, up, sizeof(up));
	printf("top - %s %s", clock, up);
	printf(" load average: %.2f, %.2f, %.2f\n", f->la.load1, f->la.load5, f->la.load15);
	printf("%s: %3d total, %3d running, %3d sleeping, %3d stopped, %3d zombie, %5s forks/s\n",
	       tp->view->threads ? "Threads" : "Tasks", f->tasks.total, f->tasks.running,
	       f->tasks.sleeping, f->tasks.stopped, f->tasks.zombie,
	       ptk_metric_fmt(PTK_M(TOP_FORKS_S), isnan(f->forks_s) ? &PTK_NA : &PTK_F(f->forks_s),
			      b[0], 16));
	/* procps top's order, not /proc/stat's */
	static const int order[] = {
		PTK_CPU_USER,	PTK_CPU_SYSTEM, PTK_CPU_NICE,	 PTK_CPU_IDLE,
		PTK_CPU_IOWAIT, PTK_CPU_IRQ,	PTK_CPU_SOFTIRQ, PTK_CPU_STEAL
	};
	printf("%%Cpu(s):");
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		const struct ptk_metric *m = top_cpu[order[i]];
		printf("%5s %s%s", ptk_metric_fmt(m, &PTK_F(c[order[i]]), b[0], 16), m->name,
		       i + 1 < ARRAY_SIZE(order) ? "," : " \n");
	}
	u64 used = mi->mem_total > mi->mem_available ? mi->mem_total - mi->mem_available : 0;
	u64 swap_used = mi->swap_total > mi->swap_free ? mi->swap_total - mi->swap_free : 0;
	u64 mem[4] = { mi->mem_total, mi->mem_free, used,
		       mi->buffers + mi->cached + mi->sreclaimable };
	/* a meminfo cut short: what it lacks is unknown ("-"), not 0 */
#define MI_(f) (1ull << PTK_MI_##f)
	const u64 avail = mi->has_available ? MI_(MEM_AVAILABLE) : MI_(MEM_FREE);
	const u64 mem_need[4] = { MI_(MEM_TOTAL), MI_(MEM_FREE), MI_(MEM_TOTAL) | avail,
				  MI_(BUFFERS) | MI_(CACHED) | MI_(SRECLAIMABLE) };
	for (int i = 0; i < 4; i++)
		summary_kb(b[i], mem[i], (mi->present & mem_need[i]) == mem_need[i]);
	printf("MiB Mem : %8s total, %8s free, %8s used, %8s buff/cache     \n", b[0], b[1], b[2],
	       b[3]);
	u64 swp[4] = { mi->swap_total, mi->swap_free, swap_used, mi->mem_available };
	const u64 swp_need[4] = { MI_(SWAP_TOTAL), MI_(SWAP_FREE), MI_(SWAP_TOTAL) | MI_(SWAP_FREE),
				  avail };
#undef MI_
	for (int i = 0; i < 4; i++)
		summary_kb(b[i], swp[i], (mi->present & swp_need[i]) == swp_need[i]);
	printf("MiB Swap: %8s total, %8s free, %8s used. %8s avail Mem \n", b[0], b[1], b[2], b[3]);
}

static const int batch_cols[] = { TC_PID, TC_USER, TC_PR,  TC_NI,  TC_VIRT, TC_RES,
				  TC_SHR, TC_S,	   TC_CPU, TC_MEM, TC_TIME, TC_COMMAND };

/*
 * Append txt to line (of size bytes, o used) as snprintf's " %*s" (sep) or "%*s" would:
 * padded to |w| columns, on the left for w > 0 and on the right for w < 0, cut at the end
 * of line. Returns the new length.
 */
static int put_cell(char *line, size_t size, int o, bool sep, int w, const char *txt)
{
	int len = (int)strlen(txt), pad = abs(w) > len ? abs(w) - len : 0;
	int need = (sep ? 1 : 0) + pad + len;

	if (o < 0 || (size_t)(o + need) >= size)
		return o + snprintf(line + o, size - o, sep ? " %*s" : "%*s", w, txt);
	char *p = line + o;
	if (sep)
		*p++ = ' ';
	if (w > 0) {
		memset(p, ' ', pad);
		p += pad;
	}
	memcpy(p, txt, len);
	p += len;
	if (w < 0) {
		memset(p, ' ', pad);
		p += pad;
	}
	*p = '\0';
	return o + need;
}

static void print_batch(struct top *tp, int width, int pidw)
{
	struct ptk_top_frame *f = &tp->f;
	char line[4096], cellbuf[512];

	print_summary(tp);
	/* header */
	int o = snprintf(line, sizeof(line), "\n");
	for (size_t k = 0; k < ARRAY_SIZE(batch_cols); k++) {
		const struct ptk_metric *m = top_cols[batch_cols[k]];
		int w = batch_cols[k] == TC_PID ? pidw : top_width[batch_cols[k]];
		o += snprintf(line + o, sizeof(line) - o, k ? " %*s" : "%*s", w, m->name);
	}
	line[MIN(o, width + 1)] = '\0';
	puts(line);
	for (int i = 0; i < f->norder; i++) {
		const struct ptk_top_row *r = &f->rows[f->order[i]];
		o = 0;
		for (size_t k = 0; k < ARRAY_SIZE(batch_cols); k++) {
			int col = batch_cols[k], w = col == TC_PID ? pidw : top_width[col];
			if (col == TC_COMMAND) {
				cell(tp, r, col, MAX(width - o - 1, 1), cellbuf, sizeof(cellbuf));
				o += snprintf(line + o, sizeof(line) - o, " %s", cellbuf);
				break;
			}
			cell(tp, r, col, abs(w), cellbuf, sizeof(cellbuf));
			o = put_cell(line, sizeof(line), o, k > 0, w, cellbuf);
		}
		line[MIN(o, width)] = '\0';
		puts(line);
	}
}

static void print_json(struct top *tp)
{
	struct ptk_top_frame *f = &tp->f;
	struct ptk_sink *s = &tp->ctx->sink;
	struct ptk_val v[TC_N];

	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(tp->ctx));
	ptk_sink_meta_f64(s, "interval_s", f->itv_s);
	ptk_sink_meta_f64(s, "uptime_s", f->up_s);
	ptk_sink_meta_f64(s, "load1", f->la.load1);
	ptk_sink_meta_f64(s, "load5", f->la.load5);
	ptk_sink_meta_f64(s, "load15", f->la.load15);
	ptk_sink_meta_u64(s, "tasks_total", f->tasks.total);
	ptk_sink_meta_u64(s, "tasks_running", f->tasks.running);
	ptk_sink_meta_u64(s, "tasks_sleeping", f->tasks.sleeping);
	ptk_sink_meta_u64(s, "tasks_stopped", f->tasks.stopped);
	ptk_sink_meta_u64(s, "tasks_zombie", f->tasks.zombie);
	/* the summary's values as its text prints them (the registry's precision) */
	meta_val(s, PTK_M(TOP_FORKS_S), isnan(f->forks_s) ? PTK_NA : PTK_F(f->forks_s));
	for (int i = 0; i < PTK_CPU_NSTATES; i++)
		if (top_cpu[i])
			meta_val(s, top_cpu[i], PTK_F(f->cpu[i]));
	ptk_sink_meta_u64(s, "mem_total_kb", f->mi.mem_total);
	ptk_sink_meta_u64(s, "mem_free_kb", f->mi.mem_free);
	ptk_sink_meta_u64(s, "mem_avail_kb", f->mi.mem_available);
	ptk_sink_meta_u64(s, "swap_total_kb", f->mi.swap_total);
	ptk_sink_meta_u64(s, "swap_free_kb", f->mi.swap_free);
	ptk_sink_table_begin(s, &top_tab, false, NULL);
	for (int i = 0; i < f->norder; i++) {
		const struct ptk_top_row *r = &f->rows[f->order[i]];
		memcpy(v, r->v, sizeof(v));
		ptk_sink_row(s, NULL, v);
	}
	ptk_sink_table_end(s);
	ptk_sink_end(s);
}

/* One text line of cols in top's layout widths: their titles, or vals (NULL: the header). */
static void text_row(const struct ptk_metric *const *cols, const int *width, int n,
		     const struct ptk_val *vals)
{
	char buf[512];

	for (int i = 0; i < n; i++) {
		const char *txt =
			vals ? ptk_metric_fmt(cols[i], &vals[i], buf, sizeof(buf)) : cols[i]->name;
		printf(width[i] < 0 ? "%s%-*s" : "%s%*s", i ? " " : "", abs(width[i]), txt);
	}
	putchar('\n');
}

/* --group-by: the rates of the frame summed per key. */
static void print_groups(struct top *tp, enum ptk_group_by by)
{
	static const struct ptk_metric *const gcols[] = {
		PTK_M(TOP_GROUP),   PTK_M(TOP_GROUP_TASKS), PTK_M(TOP_CPU_PCT),
		PTK_M(PROC_RES_KB), PTK_M(PROC_RKB_S),	    PTK_M(PROC_WKB_S),
	};
	static const int gwidth[ARRAY_SIZE(gcols)] = { -24, 6, 6, 10, 9, 9 };
	static const struct ptk_table gtab = { .name = "groups",
					       .ncols = ARRAY_SIZE(gcols),
					       .refs = gcols };
	struct ptk_ptab *cur = &tp->tab[tp->cur];
	struct ptk_group *g;
	const char *cg = tp->view->cgroup;
	struct ptk_task_rate *rt = xmalloc((size_t)MAX(cur->n, 1) * sizeof(*rt));
	int n = 0;

	/* the tasks the list would show: -u's and --cgroup's */
	for (int i = 0; i < cur->n; i++) {
		const struct ptk_task *t = &cur->t[i];
		if (user_match(tp, t) && (!cg[0] || (t->cgroup[0] && ptk_cg_under(t->cgroup, cg))))
			rt[n++] = tp->rates[i];
	}
	int ng = ptk_group_rates(rt, n, by, &g);

	free(rt);
	struct ptk_sink *s = &tp->ctx->sink;

	ptk_group_sort_cpu(g, ng);
	if (!tp->ctx->json) {
		print_summary(tp);
		putchar('\n');
		text_row(gcols, gwidth, gtab.ncols, NULL);
	} else {
		ptk_sink_begin(s);
		ptk_sink_table_begin(s, &gtab, false, NULL);
	}
	for (int i = 0; i < ng; i++) {
		struct ptk_val v[] = { PTK_S(g[i].key),
				       PTK_U(g[i].ntasks),
				       PTK_F(g[i].cpu_pct),
				       PTK_U(g[i].rss_kb),
				       g[i].io_ok ? PTK_F(g[i].rkb_s) : PTK_NA,
				       g[i].io_ok ? PTK_F(g[i].wkb_s) : PTK_NA };
		if (tp->ctx->json)
			ptk_sink_row(s, NULL, v);
		else
			text_row(gcols, gwidth, gtab.ncols, v);
	}
	if (tp->ctx->json)
		ptk_sink_table_end(s);
	ptk_sink_end(s);
	free(g);
}

/* ---- options ---------------------------------------------------------------------------- */

static int parse_sort(const char *s, struct ptk_top_view *v)
{
	bool asc = false, forced = false;

	if (*s == '+' || *s == '-') {
		asc = *s == '-';
		forced = true;
		s++;
	}
	for (int i = 0; i < TC_N; i++) {
		if (!strcasecmp(s, top_cols[i]->name)) {
			v->sort = i;
			v->asc = forced ? asc : false;
			return 0;
		}
	}
	return -EINVAL;
}

enum { OPT_GROUP_BY = 0x2000, OPT_AT, OPT_DB, OPT_UTC, OPT_CGROUP };

int cmd_top(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "threads", no_argument, NULL, 'H' },
		{ "sort", required_argument, NULL, 'o' },
		{ "width", required_argument, NULL, 'w' },
		{ "group-by", required_argument, NULL, OPT_GROUP_BY },
		{ "at", required_argument, NULL, OPT_AT },
		{ "db", required_argument, NULL, OPT_DB },
		{ "utc", no_argument, NULL, OPT_UTC },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct ptk_top_view view = { .sort = TC_CPU };
	struct top tp = { .ctx = ctx, .view = &view };
	bool batch = false, grouped = false;
	enum ptk_group_by by = PTK_BY_PID;
	double delay = 3.0;
	long iters = -1;
	int width = 0, c, r;

	for (int i = 0; i <= TC_TIME; i++)
		view.show[i] = true;
	view.show[TC_COMMAND] = true;
	while ((c = ptk_getopt(ctx, argc, argv, "bn:d:p:u:Ho:w:c", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'b':
			batch = true;
			break;
		case 'n': {
			u64 n;
			if (ptk_parse_u64(optarg, &n) || n < 1 || n > 1u << 30)
				return ptk_usage_error(ctx, "invalid iteration count '%s'", optarg);
			iters = n;
			break;
		}
		case 'd':
			if (ptk_parse_double(optarg, &delay) || !(delay > 0) || delay > 86400)
				return ptk_usage_error(ctx, "invalid delay '%s'", optarg);
			break;
		case 'p':
			if (ptk_parse_id_list(optarg, ",", &tp.pids, &tp.npids, NULL, 0) ||
			    !tp.npids)
				return ptk_usage_error(ctx, "invalid pid list '%s'", optarg);
			break;
		case 'u': {
			/* as procps: a user name or number that does not exist is an error */
			char *e;
			strtoul(optarg, &e, 10);
			if (!getpwnam(optarg) && (*e || e == optarg))
				return ptk_usage_error(ctx, "invalid user '%s'", optarg);
			snprintf(tp.user, sizeof(tp.user), "%s", optarg);
			tp.user_set = true;
			break;
		}
		case 'H':
			view.threads = true;
			break;
		case 'c':
			view.cmdline = true;
			break;
		case 'o':
			if (parse_sort(optarg, &view))
				return ptk_usage_error(ctx, "unrecognized field name '%s'", optarg);
			break;
		case 'w':
			if (ptk_parse_int(optarg, &width) || width < 20 || width > 4000)
				return ptk_usage_error(ctx, "invalid width '%s'", optarg);
			break;
		case OPT_GROUP_BY:
			if (ptk_group_by_parse(optarg, &by))
				return ptk_usage_error(ctx, "invalid --group-by '%s'", optarg);
			grouped = true;
			break;
		case OPT_AT:
			tp.at = optarg;
			break;
		case OPT_DB:
			tp.db = optarg;
			break;
		case OPT_UTC:
			tp.utc = true;
			break;
		case OPT_CGROUP:
			if (optarg[0] != '/' || strlen(optarg) >= sizeof(view.cgroup))
				return ptk_usage_error(ctx, "invalid --cgroup '%s' (a path from /)",
						       optarg);
			snprintf(view.cgroup, sizeof(view.cgroup), "%s", optarg);
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT) {
		free(tp.pids);
		return r;
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (ctx->json || grouped)
		batch = true;
	if (!batch && !isatty(STDOUT_FILENO))
		batch = true; /* as procps top without a terminal: print, do not draw */
	if (batch && iters < 0 && (ctx->json || grouped))
		iters = 1;
	view.oneshot = batch && iters == 1;
	if (tp.at) {
		if (ctx->procfs)
			return ptk_usage_error(ctx, "--at replays the archive: no --procfs");
		if ((r = at_tree(&tp, 0)))
			goto out_free_tables;
		/* steps count from the sample shown, not from a relative TIME ("-30m") that
		 * would move with the clock */
		snprintf(tp.at_anchor, sizeof(tp.at_anchor), "@%.3f", tp.at_t_ms / 1000.0);
		tp.at = tp.at_anchor;
		ctx->procfs = tp.at_dir;
	}
	if ((r = ptk_ctx_ready(ctx)))
		goto out_free_tables;
	if (tp.npids && (r = ptk_require_pids(ctx, tp.pids, tp.npids)))
		goto out_free_tables;
	tp.hz = sysconf(_SC_CLK_TCK);
	tp.page_kb = sysconf(_SC_PAGESIZE) / 1024;
	tp.ncpu_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	tp.keep = ptk_ptab_keep_new();
	tp.ts = open_taskscan(ctx, &tp);
	if (by == PTK_BY_USER)
		view.show[TC_CSW] = true; /* status: real uid */
	if (by == PTK_BY_CGROUP || by == PTK_BY_CONTAINER)
		view.show[TC_CGROUP] = true;

	struct ptk_top_ops ops = {
		.arg = &tp,
		.cols = top_cols,
		.width = top_width,
		.sample = sample,
		.arrange = arrange,
		.frame = &tp.f,
		.cell = cell,
	};
	if (!batch) {
		r = ptk_tui_top(ctx, &ops, &view, delay);
		goto out_free_tables;
	}
	if (!width) {
		const char *cols = getenv("COLUMNS");
		struct winsize ws;
		if (cols && atoi(cols) >= 20)
			width = atoi(cols);
		else if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
			 ws.ws_col >= 20)
			width = ws.ws_col;
		else
			width = 80;
	}
	width--; /* as procps top: the last column stays empty */
	int pidw = pid_width();
	r = 0;
	for (long i = 0; iters < 0 || i < iters; i++) {
		if (i) {
			if (ctx->src.replay ?
				    ptk_src_next(&ctx->src) :
				    ptk_sleep_until(ptk_now_ns() + (u64)(delay * 1e9), &ctx->stop))
				break;
		}
		if (ctx->stop)
			break;
		r = sample(&tp, &view);
		if (r == -ENODATA) {
			r = 0;
			break;
		}
		if (r)
			break;
		arrange(&tp, &view);
		if (grouped)
			print_groups(&tp, by);
		else if (ctx->json)
			print_json(&tp);
		else {
			if (i)
				fputs("\n", stdout);
			print_batch(&tp, width, pidw);
			fflush(stdout);
		}
	}
out_free_tables:
	ptk_arc_rmtree(tp.at_dir);
	ptk_ptab_free(&tp.tab[0]);
	ptk_ptab_free(&tp.tab[1]);
	ptk_ptab_keep_free(tp.keep);
	ptk_taskscan_close(tp.ts);
	ptk_stat_free(&tp.st[0]);
	ptk_stat_free(&tp.st[1]);
	free(tp.rates);
	free(tp.f.rows);
	free(tp.f.order);
	free(tp.f.percpu);
	free(tp.f.present);
	free(tp.pids);
	return r;
}
