// SPDX-License-Identifier: GPL-2.0
/*
 * ptk pidstat: per-task CPU, memory, stack, I/O, context-switch, kernel-table and
 * scheduling reports, as sysstat pidstat 12.7 (-u -r -s -d -w -v -R, -t, -p, -C, -G, -U,
 * -T TASK|CHILD|ALL, -l, -I, -h, -H, --dec, --human, -o JSON, -e, -V), plus --group-by
 * (pid, tgid, comm, user, cgroup, container) and --json (ptk's NDJSON), which sysstat lacks.
 *
 * Data: the process table (source/procfs/pid.h) scanned once per interval (twice with -t:
 * processes, then threads); each row's values come from the model (model/ptask.h,
 * ptk_ps_vals: sysstat's arithmetic, its unsigned wrap-around included, tasks keyed by pid
 * as sysstat keys them; ptk's --json and --group-by key them by (pid, starttime) and show
 * an implausible value as unknown). The command picks the rows sysstat would show (active
 * tasks without -p, -C/-G/-U filters, a thread under its process) and lays them out as
 * sysstat does (output/sysstat.h: cells, colours, -o JSON).
 *
 * Where ptk differs on purpose (ptk-pidstat(1) DIFFERENCES): an unreadable value is "-"
 * (null in JSON), where sysstat prints -1.00 or 0.00; an implausible one (a counter that
 * went back) is sysstat's wrapped number with a warning naming the file and the field; a
 * -p process that does not exist is an error; -V prints ptk's version.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/child.h"
#include "model/registry.h"
#include "model/delta.h"
#include "model/ptask.h"
#include "output/sysstat.h"
#include "source/bpf/taskscan.h"
#include "source/cgroup/cgroup.h"
#include "source/procfs/procfs.h"

/* the value columns: registry entries, how sysstat prints them, the unit --human shows */
static const struct ptk_metric *const ps_m[PTK_PS_NCOLS] = {
	[PTK_PS_USR] = PTK_M(PROC_USR_PCT),	    [PTK_PS_SYSTEM] = PTK_M(PROC_SYSTEM_PCT),
	[PTK_PS_GUEST] = PTK_M(PROC_GUEST_PCT),	    [PTK_PS_WAIT] = PTK_M(PROC_WAIT_PCT),
	[PTK_PS_CPU] = PTK_M(PROC_CPU_PCT),	    [PTK_PS_CPUNUM] = PTK_M(PROC_CPUNUM),
	[PTK_PS_CUSR_MS] = PTK_M(PROC_CUSR_MS),	    [PTK_PS_CSYS_MS] = PTK_M(PROC_CSYS_MS),
	[PTK_PS_CGUEST_MS] = PTK_M(PROC_CGUEST_MS), [PTK_PS_MINFLT] = PTK_M(PROC_MINFLT_S),
	[PTK_PS_MAJFLT] = PTK_M(PROC_MAJFLT_S),	    [PTK_PS_VSZ] = PTK_M(PROC_VSZ_KB),
	[PTK_PS_RSS] = PTK_M(PROC_RSS_KB),	    [PTK_PS_MEM] = PTK_M(PROC_MEM_PCT),
	[PTK_PS_CMINFLT] = PTK_M(PROC_CMINFLT),	    [PTK_PS_CMAJFLT] = PTK_M(PROC_CMAJFLT),
	[PTK_PS_STKSIZE] = PTK_M(PROC_STKSIZE),	    [PTK_PS_STKREF] = PTK_M(PROC_STKREF),
	[PTK_PS_RD] = PTK_M(PROC_RD_KB_S),	    [PTK_PS_WR] = PTK_M(PROC_WR_KB_S),
	[PTK_PS_CCWR] = PTK_M(PROC_CCWR_KB_S),	    [PTK_PS_IODELAY] = PTK_M(PROC_IODELAY),
	[PTK_PS_CSW] = PTK_M(PROC_CSWCH_S),	    [PTK_PS_NVCSW] = PTK_M(PROC_NVCSWCH_S),
	[PTK_PS_THREADS] = PTK_M(PROC_NTHREADS),    [PTK_PS_FDNR] = PTK_M(PROC_FD_NR),
	[PTK_PS_PRIO] = PTK_M(PROC_RTPRIO),	    [PTK_PS_POLICY] = PTK_M(PROC_POLICY),
};

static enum ptk_scell ps_kind(int c)
{
	switch (c) {
	case PTK_PS_USR:
	case PTK_PS_SYSTEM:
	case PTK_PS_GUEST:
	case PTK_PS_WAIT:
	case PTK_PS_CPU:
	case PTK_PS_MEM:
		return PTK_SC_PCT;
	case PTK_PS_CPUNUM:
		return PTK_SC_ITEM;
	case PTK_PS_POLICY:
		return PTK_SC_STR;
	default:
		return PTK_SC_VAL;
	}
}

/* --human: sizes from kB, I/O rates from bytes (as sysstat) */
static char ps_human(int c)
{
	switch (c) {
	case PTK_PS_VSZ:
	case PTK_PS_RSS:
	case PTK_PS_STKSIZE:
	case PTK_PS_STKREF:
		return 'k';
	case PTK_PS_RD:
	case PTK_PS_WR:
	case PTK_PS_CCWR:
		return 'B';
	default:
		return 0;
	}
}

/* sysstat's reports, in its order; scope 0: the task's own (TASK), whatever -T says */
static const struct ps_report {
	unsigned act, scope;
	const char *json;
	int ncols;
	int cols[6];
} ps_reports[] = {
	{ PTK_ACT_CPU,
	  PTK_PS_TASK,
	  "task-cpu-load",
	  6,
	  { PTK_PS_USR, PTK_PS_SYSTEM, PTK_PS_GUEST, PTK_PS_WAIT, PTK_PS_CPU, PTK_PS_CPUNUM } },
	{ PTK_ACT_CPU,
	  PTK_PS_CHILD,
	  "child-cpu-load",
	  3,
	  { PTK_PS_CUSR_MS, PTK_PS_CSYS_MS, PTK_PS_CGUEST_MS } },
	{ PTK_ACT_MEM,
	  PTK_PS_TASK,
	  "task-memory",
	  5,
	  { PTK_PS_MINFLT, PTK_PS_MAJFLT, PTK_PS_VSZ, PTK_PS_RSS, PTK_PS_MEM } },
	{ PTK_ACT_MEM, PTK_PS_CHILD, "child-memory", 2, { PTK_PS_CMINFLT, PTK_PS_CMAJFLT } },
	{ PTK_ACT_STACK, 0, "stack", 2, { PTK_PS_STKSIZE, PTK_PS_STKREF } },
	{ PTK_ACT_IO, 0, "io", 4, { PTK_PS_RD, PTK_PS_WR, PTK_PS_CCWR, PTK_PS_IODELAY } },
	{ PTK_ACT_CSW, 0, "context-switch", 2, { PTK_PS_CSW, PTK_PS_NVCSW } },
	{ PTK_ACT_KTAB, 0, "kernel", 2, { PTK_PS_THREADS, PTK_PS_FDNR } },
	{ PTK_ACT_RT, 0, "realtime", 2, { PTK_PS_PRIO, PTK_PS_POLICY } },
};

/* --group-by columns */
enum {
	G_USER,
	G_SYS,
	G_CPU,
	G_MINFLT,
	G_MAJFLT,
	G_RSS,
	G_RD,
	G_WR,
	G_CCWR,
	G_CSW,
	G_NVCSW,
	G_NTASKS,
	G_KEY,
	G_N
};
static const struct ptk_metric *const g_cols[G_N] = {
	[G_USER] = PTK_M(PROC_USER_PCT),   [G_SYS] = PTK_M(PROC_SYSTEM_PCT),
	[G_CPU] = PTK_M(PROC_CPU_PCT),	   [G_MINFLT] = PTK_M(PROC_MINFLT_S),
	[G_MAJFLT] = PTK_M(PROC_MAJFLT_S), [G_RSS] = PTK_M(PROC_RSS_KB),
	[G_RD] = PTK_M(PROC_RD_KB_S),	   [G_WR] = PTK_M(PROC_WR_KB_S),
	[G_CCWR] = PTK_M(PROC_CCWR_KB_S),  [G_CSW] = PTK_M(PROC_CSWCH_S),
	[G_NVCSW] = PTK_M(PROC_NVCSWCH_S), [G_NTASKS] = PTK_M(PROC_GROUPBY_NTASKS),
	[G_KEY] = PTK_M(PROC_GROUPBY_KEY),
};
static const int g_width[G_N] = { [G_RSS] = 9, [G_NTASKS] = 6 };
static const struct {
	unsigned act;
	int cols[3]; /* -1: none */
} g_reports[] = {
	{ PTK_ACT_CPU, { G_USER, G_SYS, G_CPU } },
	{ PTK_ACT_MEM, { G_MINFLT, G_MAJFLT, G_RSS } },
	{ PTK_ACT_IO, { G_RD, G_WR, G_CCWR } },
	{ PTK_ACT_CSW, { G_CSW, G_NVCSW, -1 } },
};

static const char usage[] =
	"usage: ptk pidstat [-d] [-H] [-h] [-I] [-l] [-R] [-r] [-s] [-t] [-U [USER]] [-u] [-V]\n"
	"                   [-v] [-w] [-C REGEX] [-G REGEX] [-p PID[,PID...]|SELF|ALL]\n"
	"                   [-T TASK|CHILD|ALL] [--dec=0|1|2] [--human] [-o JSON]\n"
	"                   [--group-by KEY] [--cgroup PATH] [--json] [interval [count]]\n"
	"                   [-e PROGRAM ARGS...]\n"
	"Per-task statistics, as sysstat pidstat: -u CPU (the default), -r page faults and\n"
	"memory, -s stack, -d block I/O, -w context switches, -v threads and open files, -R\n"
	"real-time priority and policy; -t threads too; -T CHILD the task's and its waited-for\n"
	"children's CPU time and faults (-T ALL both). Without -p only tasks active in the\n"
	"interval are shown; -p ALL shows all. -C keeps tasks whose command matches REGEX, -G\n"
	"processes whose name matches (and their threads), -U shows user names (-U USER: only\n"
	"USER's tasks). -l shows command lines, -I divides %CPU by the number of CPUs, -h puts a\n"
	"task on one line, -H prints times as seconds since the epoch, --human sizes with units,\n"
	"--dec decimal places. -o JSON writes sysstat's JSON, --json ptk's NDJSON. -e runs\n"
	"PROGRAM and reports it until it exits. --group-by pid|tgid|comm|user|cgroup|container\n"
	"sums -u -r -d -w per group. --cgroup PATH keeps the tasks in cgroup PATH or below (the\n"
	"v2 path of /proc/PID/cgroup, else its first v1 one); --json then gives each task's\n"
	"cgroup and container (runtime:id, pod:uid or systemd unit). Without an interval (or\n"
	"with 0): since boot.\n";

/* the environment pidstat reads (printed by -V) */
static const char *const ps_env[] = { "S_COLORS", "S_COLORS_SGR", "S_REPEAT_HEADER",
				      "S_TIME_FORMAT" };

/* the activity of an option letter (-u -r -d -w -s -v -R) */
static unsigned act_of(int c)
{
	static const char opts[] = "urdwsvR";
	static const unsigned acts[] = { PTK_ACT_CPU,	PTK_ACT_MEM,  PTK_ACT_IO, PTK_ACT_CSW,
					 PTK_ACT_STACK, PTK_ACT_KTAB, PTK_ACT_RT };
	const char *p = strchr(opts, c);

	return p && *p ? acts[p - opts] : 0;
}

enum ps_mode {
	M_ACTIVE, /* no -p: every task, only the active ones */
	M_ALL, /* -p ALL */
	M_LIST, /* -p PID,... or -e: those processes, until they are gone */
};

struct ps {
	unsigned acts, scope;
	enum ps_mode mode;
	bool threads, irix, oneline, cmdline, username, epoch, sjson, group;
	bool wrap; /* sysstat's text and -o JSON: its unsigned arithmetic, a task is its pid */
	const char *user; /* -U USER */
	const char *cgroup; /* --cgroup PATH: only the tasks of that cgroup and below */
	regex_t creg, greg;
	bool has_c, has_g;
	enum ptk_group_by by;
	int *pids, npids; /* M_LIST: the processes still watched */
	int pid_words; /* words of the -p lists (sysstat's pid_nr) */
	pid_t child; /* -e */
	unsigned flags;
	long hz;
	int ncpu;
	u64 memtotal_kb;
	struct ptk_sysenv env;
	struct ptk_sfmt fmt;
	struct ptk_sjson js;
	/* samples: [0] the Average's baseline, [1] previous, [2] current */
	struct ptk_ptab p[3], t[3];
	double up[3];
	u64 jiffies[3]; /* total CPU ticks of /proc/stat "cpu" (-I) */
	time_t wall[3];
	struct ptk_task_means accp, acct; /* gauges summed for the Average lines */
	struct ptk_cmdlines cmdl; /* -l */
	long reports, lines;
	int rows;
	bool dis_hdr;
	bool quiet; /* stop: nothing left to show (sysstat stops then, without Average) */
	struct ptk_taskscan *ts;
	/* scratch */
	int *tord; /* thread rows by (tgid, tid) */
	struct ptk_task_rate *rp, *rt;
	struct {
		int pid;
		bool thr;
		unsigned bits;
	} * warned; /* implausible fields already told in this report */
	int nwarned;
};

static volatile int *stop_flag;

static void on_chld(int sig)
{
	if (stop_flag)
		*stop_flag = 1;
}

static int scan(struct ptk_ctx *ctx, struct ps *s, int slot)
{
	const int *pids = s->mode == M_LIST ? s->pids : NULL;
	int n = s->mode == M_LIST ? s->npids : 0, r;

	if (s->mode == M_LIST && !n) {
		s->p[slot].n = s->t[slot].n = 0;
		r = 0;
	} else {
		r = ptk_taskscan_or_proc(s->ts, &ctx->src, s->flags, pids, n, &s->p[slot]);
		if (!r && (s->threads || (s->group && s->by == PTK_BY_TGID)))
			r = ptk_taskscan_or_proc(s->ts, &ctx->src, s->flags | PTK_PT_THREADS, pids,
						 n, &s->t[slot]);
	}
	if (r) {
		ptk_err("cannot scan %s: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (s->mode == M_LIST) {
		/* a process that is gone leaves the list (its PID may come back as another) */
		int w = 0;
		for (int i = 0; i < s->npids; i++)
			if (ptk_ptab_find_pid(&s->p[slot], s->pids[i]))
				s->pids[w++] = s->pids[i];
		s->npids = w;
	}
	if (s->cmdline)
		ptk_cmdlines_update(&s->cmdl, &ctx->src, &s->p[slot]);
	s->up[slot] = ptk_ctx_uptime(ctx);
	s->wall[slot] = (time_t)ptk_ctx_walltime(ctx);
	struct ptk_stat st = { 0 };
	s->jiffies[slot] = ptk_stat_read(&ctx->src, &st) == 0 ? ptk_cpu_total(&st.all) : 0;
	ptk_stat_free(&st);
	return 0;
}

/* the command shown for a process (-l: its command line) or a thread (its name) */
static const char *task_cmd(const struct ps *s, const struct ptk_task *t, bool thread)
{
	if (s->cmdline && !thread) {
		const char *c = ptk_cmdlines_get(&s->cmdl, t);
		if (c[0])
			return c;
	}
	return t->comm;
}

static bool cmd_match(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

/* One report: slots a (-1: since boot) and b, the interval, the line prefixes. */
struct rctx {
	struct ptk_ctx *ctx;
	struct ps *s;
	int a, b;
	struct ptk_ps_itv in;
	const char *prefix, *hdr_prefix; /* hdr_prefix NULL: no header */
	const char *kind; /* --json's "type": interval, average, since_boot */
	int shown;
};

static const struct ptk_task *prev_of(const struct rctx *rc, const struct ptk_task *c, bool thr)
{
	const struct ptk_ptab *pt = rc->a < 0 ? NULL : thr ? &rc->s->t[rc->a] : &rc->s->p[rc->a];

	if (!pt)
		return NULL;
	return rc->s->wrap ? ptk_ptab_find_pid(pt, c->pid) :
			     ptk_ptab_find(pt, c->pid, c->starttime);
}

/* sysstat's get_pid_to_display(): whether the row of c (prev p) is shown */
static bool selected(const struct rctx *rc, const struct ptk_task *p, const struct ptk_task *c,
		     bool thread, bool leader_shown, unsigned acts, unsigned scope)
{
	const struct ps *s = rc->s;

	if (s->mode == M_ACTIVE && !ptk_ps_active(p, c, acts, scope))
		return false;
	if (s->has_c && !cmd_match(&s->creg, task_cmd(s, c, thread)))
		return false;
	if (s->has_g && (thread ? !leader_shown : !cmd_match(&s->greg, task_cmd(s, c, false))))
		return false;
	if (s->cgroup && !(c->cgroup[0] && ptk_cg_under(c->cgroup, s->cgroup)))
		return false;
	if (s->user && c->status_ok) {
		const char *name = ptk_user_name_or_null(c->uid);
		if (name && strcmp(name, s->user))
			return false; /* a uid without a name is not filtered, as sysstat */
	}
	return true;
}

/* A warning per implausible field of a shown row, once a report. */
static void warn_bad(struct rctx *rc, const struct ptk_task *c, bool thr, unsigned bad)
{
	struct ps *s = rc->s;
	int i;

	for (i = 0; i < s->nwarned; i++)
		if (s->warned[i].pid == c->pid && s->warned[i].thr == thr)
			break;
	if (i == s->nwarned) {
		s->warned = xrealloc(s->warned, (size_t)(i + 1) * sizeof(*s->warned));
		s->warned[i].pid = c->pid;
		s->warned[i].thr = thr;
		s->warned[i].bits = 0;
		s->nwarned++;
	}
	bad &= ~s->warned[i].bits;
	s->warned[i].bits |= bad;
	for (int f = 0; f < PTK_PF_COUNT; f++) {
		if (!(bad & (1u << f)))
			continue;
		const char *file, *field;
		char rel[96], path[PATH_MAX];
		ptk_ps_field_where(f, &file, &field);
		if (thr)
			snprintf(rel, sizeof(rel), "%d/task/%d/%s", c->tgid, c->pid, file);
		else
			snprintf(rel, sizeof(rel), "%d/%s", c->pid, file);
		if (ptk_src_path(&rc->ctx->src, PTK_PROC, rel, path, sizeof(path)))
			snprintf(path, sizeof(path), "%s", rel);
		if (f == PTK_PF_CPU_SHARE || f == PTK_PF_MEM_SHARE)
			ptk_warn("%s: %s: %s above its total: %s", path, field,
				 f == PTK_PF_CPU_SHARE ? "%CPU" : "%MEM",
				 s->wrap ? "shown as sysstat does" : "unknown");
		else
			ptk_warn("%s: %s went backwards: the values from it are %s", path, field,
				 s->wrap ? "sysstat's wrapped unsigned differences" : "unknown");
	}
}

static void id_header(const struct rctx *rc)
{
	FILE *f = rc->ctx->sink.out;
	const struct ps *s = rc->s;

	fputs(s->username ? "     USER" : "   UID", f);
	fputs(s->threads ? "      TGID       TID" : "       PID", f);
}

static void header(const struct rctx *rc, const int *cols, int n)
{
	FILE *f = rc->ctx->sink.out;

	fprintf(f, "\n%-11s", rc->hdr_prefix);
	id_header(rc);
	for (int i = 0; i < n; i++) {
		const struct ptk_metric *m = ps_m[cols[i]];
		fprintf(f, " %*s", m->width < 0 ? -m->width : m->width, m->name);
	}
	fputs("  Command\n", f);
}

/* sysstat's __print_line_id(): UID or USER, then PID, or TGID and TID ("-" for the one a
 * row does not have) */
static void text_ids(const struct rctx *rc, const struct ptk_task *c, bool thr, bool leader_shown)
{
	const struct ps *s = rc->s;
	const struct ptk_sfmt *fmt = &s->fmt;
	char b[64];
	const char *name = s->username && c->status_ok ? ptk_user_name_or_null(c->uid) : NULL;

	if (name)
		snprintf(b, sizeof(b), " %8s", name);
	else if (c->status_ok)
		snprintf(b, sizeof(b), s->username ? " %8u" : " %5u", c->uid);
	else
		snprintf(b, sizeof(b), s->username ? " %8s" : " %5s", "-");
	ptk_sstr(fmt, PTK_SGR_ITEM, "", b, "");
	if (!s->threads)
		snprintf(b, sizeof(b), " %9d", c->pid);
	else if (!thr)
		snprintf(b, sizeof(b), " %9d         -", c->pid);
	else if (leader_shown)
		snprintf(b, sizeof(b), "         - %9d", c->pid);
	else {
		snprintf(b, sizeof(b), " %9d", c->tgid);
		ptk_sstr(fmt, PTK_SGR_ITEM, "", b, "");
		snprintf(b, sizeof(b), " %9d", c->pid);
	}
	ptk_sstr(fmt, PTK_SGR_ITEM, "", b, "");
}

static void text_cmd(const struct rctx *rc, const char *cmd, bool thr, bool leader_shown,
		     const char *leader)
{
	const struct ptk_sfmt *fmt = &rc->s->fmt;

	if (!thr) {
		ptk_sstr(fmt, PTK_SGR_INT, "  ", cmd, "\n");
	} else if (leader_shown) {
		ptk_sstr(fmt, PTK_SGR_ZERO, "  |__", cmd, "\n");
	} else {
		ptk_sstr(fmt, PTK_SGR_INT, "  (", leader, ")");
		ptk_sstr(fmt, PTK_SGR_ZERO, "__", cmd, "\n");
	}
}

/* The metric that prints column col: with sysstat's arithmetic an interval's iodelay and
 * CHILD fault counts are exact unsigned integers (ptk_ps_vals gives them as U64). */
static const struct ptk_metric *col_m(const struct rctx *rc, int col)
{
	static struct ptk_metric u[PTK_PS_NCOLS];

	if (!rc->in.wrap || rc->in.avg ||
	    (col != PTK_PS_IODELAY && col != PTK_PS_CMINFLT && col != PTK_PS_CMAJFLT))
		return ps_m[col];
	if (!u[col].name) {
		u[col] = *ps_m[col];
		u[col].type = PTK_V_U64;
	}
	return &u[col];
}

static void json_row(struct rctx *rc, const int *cols, int n, const struct ptk_val *v,
		     const struct ptk_task *c, bool thr, const char *cmd, const char *leader)
{
	struct ps *s = rc->s;
	struct ptk_sjson *j = &s->js;
	char b[32];
	const char *name = s->username && c->status_ok ? ptk_user_name_or_null(c->uid) : NULL;

	ptk_sjson_row_begin(j);
	if (s->username) {
		snprintf(b, sizeof(b), "%u", c->uid);
		ptk_sjson_str(j, "USER", name ? name : c->status_ok ? b : NULL);
	} else {
		snprintf(b, sizeof(b), "%u", c->uid);
		ptk_sjson_str(j, "UID", c->status_ok ? b : NULL);
	}
	if (s->threads) {
		snprintf(b, sizeof(b), "%d", thr ? c->tgid : c->pid);
		ptk_sjson_str(j, "TGID", b);
		snprintf(b, sizeof(b), "%d", c->pid);
		ptk_sjson_str(j, "TID", thr ? b : "");
	} else {
		snprintf(b, sizeof(b), "%d", c->pid);
		ptk_sjson_str(j, "PID", b);
	}
	for (int i = 0; i < n; i++)
		ptk_sjson_val(j, col_m(rc, cols[i]), &v[cols[i]]);
	if (s->threads)
		ptk_sjson_str(j, "leader", thr ? leader : "");
	ptk_sjson_str(j, "cmd", cmd);
	ptk_sjson_row_end(j);
}

/* ptk's --json: one object per task with every column of the report */
static void ndjson_row(struct rctx *rc, struct json_object *arr, const struct ptk_val *v,
		       const struct ptk_task *c, bool thr, const char *cmd)
{
	const struct ps *s = rc->s;
	const struct ptk_metric *cols[PTK_PS_NCOLS + 8];
	struct ptk_val vv[PTK_PS_NCOLS + 8];
	int n = 0;

	cols[n] = PTK_M(PROC_UID);
	vv[n++] = c->status_ok ? PTK_U(c->uid) : PTK_NA;
	cols[n] = PTK_M(PROC_PID);
	vv[n++] = PTK_I(c->pid);
	if (s->threads) {
		cols[n] = PTK_M(PROC_TGID);
		vv[n++] = PTK_I(c->tgid);
		cols[n] = PTK_M(PROC_TID);
		vv[n++] = thr ? PTK_I(c->pid) : PTK_NA;
	}
	for (size_t r = 0; r < ARRAY_SIZE(ps_reports); r++) {
		const struct ps_report *rp = &ps_reports[r];
		if (!(s->acts & rp->act) || (rp->scope && !(s->scope & rp->scope)))
			continue;
		for (int i = 0; i < rp->ncols; i++) {
			cols[n] = ps_m[rp->cols[i]];
			vv[n++] = v[rp->cols[i]];
		}
	}
	char owner[80] = "";
	if (s->flags & PTK_PT_CGROUP) {
		cols[n] = PTK_M(PROC_CGROUP);
		vv[n++] = c->cgroup[0] ? PTK_S(c->cgroup) : PTK_NA;
		cols[n] = PTK_M(PROC_CONTAINER);
		if (c->cgroup[0])
			ptk_cg_container(c->cgroup, owner, sizeof(owner));
		vv[n++] = owner[0] ? PTK_S(owner) : PTK_NA;
	}
	cols[n] = PTK_M(PROC_COMMAND);
	vv[n++] = PTK_S(cmd);
	struct ptk_table tab = { .name = "tasks", .ncols = n, .refs = cols };
	json_object_array_add(arr, ptk_json_row(&tab, vv));
}

/* qsort has no context argument: the table being ordered */
static const struct ptk_task *tord_base;

static int tord_cmp(const void *a, const void *b)
{
	const struct ptk_task *x = &tord_base[*(const int *)a], *y = &tord_base[*(const int *)b];

	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* One shown row: its values, a warning for the implausible ones, then text, -o JSON or
 * --json's object (arr set). leader: a thread's process name. */
static void emit(struct rctx *rc, const int *cols, int n, const struct ptk_task *p,
		 const struct ptk_task *c, bool thr, bool leader_shown, const char *leader,
		 struct json_object *arr)
{
	struct ps *s = rc->s;
	const struct ptk_task_means *m = !rc->in.avg ? NULL : thr ? &s->acct : &s->accp;
	const char *cmd = task_cmd(s, c, thr);
	struct ptk_val v[PTK_PS_NCOLS];
	unsigned bad = ptk_ps_vals(&rc->in, p, c, m ? ptk_task_means_find(m, c) : NULL, v);

	if (bad)
		warn_bad(rc, c, thr, bad);
	if (arr) {
		ndjson_row(rc, arr, v, c, thr, cmd);
	} else if (s->sjson) {
		json_row(rc, cols, n, v, c, thr, cmd, leader);
	} else {
		fprintf(rc->ctx->sink.out, "%-11s", rc->prefix);
		text_ids(rc, c, thr, leader_shown);
		for (int k = 0; k < n; k++)
			ptk_scell(&s->fmt, ps_kind(cols[k]), col_m(rc, cols[k]), 0,
				  ps_human(cols[k]), &v[cols[k]]);
		text_cmd(rc, cmd, thr, leader_shown, leader);
	}
}

/*
 * The rows of one table (text, -o JSON, or --json's array when arr is set): each process
 * of slot b, then with -t its threads. cols: the value columns (text and -o JSON);
 * acts/scope: the activity test. Returns the rows shown.
 */
static int rows(struct rctx *rc, const int *cols, int n, unsigned acts, unsigned scope,
		struct json_object *arr)
{
	struct ps *s = rc->s;
	const struct ptk_ptab *pt = &s->p[rc->b], *tt = &s->t[rc->b];
	int shown = 0, j = 0;

	for (int i = 0; i < pt->n; i++) {
		const struct ptk_task *c = &pt->t[i], *p = prev_of(rc, c, false);
		bool leader_shown = false;
		if (selected(rc, p, c, false, false, acts, scope)) {
			emit(rc, cols, n, p, c, false, false, NULL, arr);
			leader_shown = true;
			shown++;
		}
		if (!s->threads)
			continue;
		while (j < tt->n && tt->t[s->tord[j]].tgid < c->pid)
			j++;
		for (; j < tt->n && tt->t[s->tord[j]].tgid == c->pid; j++) {
			const struct ptk_task *tc = &tt->t[s->tord[j]], *tp = prev_of(rc, tc, true);
			if (!selected(rc, tp, tc, true, leader_shown, acts, scope))
				continue;
			emit(rc, cols, n, tp, tc, true, leader_shown, c->comm, arr);
			leader_shown = true;
			shown++;
		}
	}
	return shown;
}

/* One table: its header (text), its rows. */
static void table(struct rctx *rc, const int *cols, int n, unsigned acts, unsigned scope,
		  const char *json_name)
{
	if (rc->s->sjson)
		ptk_sjson_section(&rc->s->js, json_name);
	else if (rc->hdr_prefix)
		header(rc, cols, n);
	rc->shown += rows(rc, cols, n, acts, scope, NULL);
}

static void group_report(struct rctx *rc);

/* -h: the columns of the task's reports, or of the children's, on one line */
static int oneline_cols(const struct ps *s, bool child, int *cols)
{
	int n = 0;

	for (size_t r = 0; r < ARRAY_SIZE(ps_reports); r++)
		if ((s->acts & ps_reports[r].act) && (ps_reports[r].scope == PTK_PS_CHILD) == child)
			for (int i = 0; i < ps_reports[r].ncols; i++)
				cols[n++] = ps_reports[r].cols[i];
	return n;
}

/* sysstat's write_stats_core(): the tables of one report. */
static void report(struct ptk_ctx *ctx, struct ps *s, int a, int b, const char *prefix,
		   const char *hdr_prefix, const char *kind, const char *stamp)
{
	struct rctx rc = { .ctx = ctx,
			   .s = s,
			   .a = a,
			   .b = b,
			   .prefix = prefix,
			   .hdr_prefix = hdr_prefix,
			   .kind = kind };
	double up_a = a >= 0 ? s->up[a] : 0;

	rc.in.hz = s->hz;
	rc.in.page_kb = sysconf(_SC_PAGESIZE) / 1024;
	rc.in.memtotal_kb = s->memtotal_kb;
	rc.in.ncpu = s->ncpu;
	rc.in.avg = !strcmp(kind, "average");
	rc.in.irix_off = s->irix;
	rc.in.wrap = s->wrap;
	rc.in.itv_cs = s->up[b] >= 0 && up_a >= 0 ? llround((s->up[b] - up_a) * 100) : 0;
	rc.in.dtot = s->irix ? ptk_delta(a >= 0 ? s->jiffies[a] : 0, s->jiffies[b]) : 0;
	s->nwarned = 0;
	if (rc.in.itv_cs <= 0 && s->up[b] >= 0 && up_a >= 0) {
		char path[PATH_MAX];
		if (ptk_src_path(&ctx->src, PTK_PROC, "uptime", path, sizeof(path)))
			snprintf(path, sizeof(path), "uptime");
		ptk_warn("%s: the uptime went back from %.2f to %.2f s (another boot?): the "
			 "rates of this report are %s",
			 path, up_a, s->up[b],
			 s->wrap ? "over sysstat's wrapped interval (near 0)" : "unknown");
	}
	if (s->threads) {
		const struct ptk_ptab *tt = &s->t[b];
		s->tord = xrealloc(s->tord, (size_t)MAX(tt->n, 1) * sizeof(int));
		for (int i = 0; i < tt->n; i++)
			s->tord[i] = i;
		tord_base = tt->t;
		qsort(s->tord, tt->n, sizeof(int), tord_cmp);
	}
	if (s->group) {
		group_report(&rc);
		return;
	}
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_str(&ctx->sink, "type", kind);
		if (!rc.in.avg)
			ptk_sink_meta_f64(&ctx->sink, "time", (double)s->wall[b]);
		ptk_sink_meta_f64(&ctx->sink, "interval_s", rc.in.itv_cs / 100.0);
		ptk_sink_meta_u64(&ctx->sink, "ncpu", s->ncpu);
		struct json_object *arr = json_object_new_array();
		rc.shown += rows(&rc, NULL, 0, s->acts,
				 s->scope & PTK_PS_TASK ? PTK_PS_TASK : PTK_PS_CHILD, arr);
		ptk_sink_meta_json(&ctx->sink, "tasks", arr);
		ptk_sink_end(&ctx->sink);
		s->quiet = !rc.shown && s->mode == M_LIST;
		return;
	}
	if (s->sjson)
		ptk_sjson_stat(&s->js, stamp);
	if (s->oneline && !s->sjson) {
		int cols[PTK_PS_NCOLS], n;
		if (s->scope & PTK_PS_TASK) {
			n = oneline_cols(s, false, cols);
			table(&rc, cols, n, s->acts, PTK_PS_TASK, NULL);
		}
		if (s->scope & PTK_PS_CHILD) {
			n = oneline_cols(s, true, cols);
			table(&rc, cols, n, s->acts, PTK_PS_CHILD, NULL);
		}
	} else {
		for (size_t r = 0; r < ARRAY_SIZE(ps_reports); r++) {
			const struct ps_report *rp = &ps_reports[r];
			if (!(s->acts & rp->act) || (rp->scope && !(s->scope & rp->scope)))
				continue;
			table(&rc, rp->cols, rp->ncols, rp->act, rp->scope, rp->json);
		}
	}
	fflush(ctx->sink.out);
	/* -p: nothing shown, nothing left to watch (sysstat stops, without the Average) */
	s->quiet = !rc.shown && s->mode == M_LIST;
}

static void group_header(const struct rctx *rc, const int *idx, int n)
{
	FILE *f = rc->ctx->sink.out;

	fprintf(f, "\n%-11s", rc->hdr_prefix);
	for (int i = 0; i < n; i++) {
		if (idx[i] == G_KEY)
			fprintf(f, "  %s", ptk_group_by_name[rc->s->by]);
		else
			fprintf(f, " %*s",
				g_width[idx[i]] ? g_width[idx[i]] : g_cols[idx[i]]->width,
				g_cols[idx[i]]->name);
	}
	fputc('\n', f);
}

/* --group-by: the rates of the tasks summed per group */
static void group_report(struct rctx *rc)
{
	struct ptk_ctx *ctx = rc->ctx;
	struct ps *s = rc->s;
	bool thr = s->by == PTK_BY_TGID || s->threads;
	const struct ptk_ptab *cur = thr ? &s->t[rc->b] : &s->p[rc->b];
	const struct ptk_ptab *prev = rc->a < 0 ? NULL : thr ? &s->t[rc->a] : &s->p[rc->a];
	struct ptk_task_rate **rp = thr ? &s->rt : &s->rp;
	double itv = rc->in.itv_cs / 100.0;
	int idx[G_N], n = 0;
	struct ptk_group *g;

	*rp = xrealloc(*rp, (size_t)MAX(cur->n, 1) * sizeof(**rp));
	ptk_task_rates(prev, cur, itv, s->hz, -1, s->ncpu, *rp);
	for (int i = 0; i < cur->n; i++) {
		const char *cmd = task_cmd(s, (*rp)[i].cur, thr);
		const struct ptk_task *t = (*rp)[i].cur;
		if ((s->has_c && !cmd_match(&s->creg, cmd)) ||
		    (s->has_g && !cmd_match(&s->greg, cmd)) ||
		    (s->cgroup && !(t->cgroup[0] && ptk_cg_under(t->cgroup, s->cgroup))))
			(*rp)[i].valid = false;
	}
	for (size_t r = 0; r < ARRAY_SIZE(g_reports); r++)
		if (s->acts & g_reports[r].act)
			for (int i = 0; i < 3 && g_reports[r].cols[i] >= 0; i++)
				idx[n++] = g_reports[r].cols[i];
	idx[n++] = G_NTASKS;
	idx[n++] = G_KEY;
	int ng = ptk_group_rates(*rp, cur->n, s->by, &g);
	double k = 1;
	if (s->irix)
		k = rc->in.dtot ? itv * s->hz / (double)rc->in.dtot : 0;
	struct json_object *arr = NULL;
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_str(&ctx->sink, "type", rc->kind);
		ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
		ptk_sink_meta_u64(&ctx->sink, "ncpu", s->ncpu);
		ptk_sink_meta_str(&ctx->sink, "group_by", ptk_group_by_name[s->by]);
		arr = json_object_new_array();
	} else if (rc->hdr_prefix) {
		group_header(rc, idx, n);
	}
	for (int i = 0; i < ng; i++) {
		struct ptk_val v[G_N];
		if (s->mode == M_ACTIVE && !ptk_group_active(&g[i], s->acts))
			continue;
		for (int c = 0; c < G_N; c++)
			v[c] = PTK_NA;
		v[G_USER] = PTK_F(g[i].usr_pct * k);
		v[G_SYS] = PTK_F(g[i].sys_pct * k);
		v[G_CPU] = PTK_F(g[i].cpu_pct * k);
		v[G_MINFLT] = PTK_F(g[i].minflt_s);
		v[G_MAJFLT] = PTK_F(g[i].majflt_s);
		v[G_RSS] = PTK_F(g[i].rss_kb);
		if (g[i].io_ok) {
			v[G_RD] = PTK_F(g[i].rkb_s);
			v[G_WR] = PTK_F(g[i].wkb_s);
			v[G_CCWR] = PTK_F(g[i].ccwr_kb_s);
		}
		if (g[i].csw_ok) {
			v[G_CSW] = PTK_F(g[i].cswch_s);
			v[G_NVCSW] = PTK_F(g[i].nvcswch_s);
		}
		v[G_NTASKS] = PTK_U(g[i].ntasks);
		v[G_KEY] = PTK_S(g[i].key);
		rc->shown++;
		if (arr) {
			const struct ptk_metric *cols[G_N];
			struct ptk_val vv[G_N];
			for (int c = 0; c < n; c++) {
				cols[c] = g_cols[idx[c]];
				vv[c] = v[idx[c]];
			}
			struct ptk_table tab = { .name = "groups", .ncols = n, .refs = cols };
			json_object_array_add(arr, ptk_json_row(&tab, vv));
			continue;
		}
		fprintf(ctx->sink.out, "%-11s", rc->prefix);
		for (int c = 0; c < n; c++) {
			if (idx[c] == G_KEY)
				fprintf(ctx->sink.out, "  %s", v[G_KEY].s);
			else
				ptk_scell(&s->fmt, PTK_SC_VAL, g_cols[idx[c]], g_width[idx[c]], 0,
					  &v[idx[c]]);
		}
		fputc('\n', ctx->sink.out);
	}
	free(g);
	if (arr) {
		ptk_sink_meta_json(&ctx->sink, "groups", arr);
		ptk_sink_end(&ctx->sink);
	}
	fflush(ctx->sink.out);
}

static void ptab_swap(struct ptk_ptab *a, struct ptk_ptab *b)
{
	struct ptk_ptab x = *a;
	*a = *b;
	*b = x;
}

static void stamp(const struct ps *s, int slot, char *buf, size_t size)
{
	ptk_sysstat_time(&s->env, s->epoch, s->wall[slot], buf, size);
}

static int ps_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct ps *s = arg;
	char prev[32], cur[32];
	int r;

	if (i == 0) { /* the baseline, also the Average's */
		if ((r = scan(ctx, s, 1)))
			return r;
		ptk_ptab_copy(&s->p[0], &s->p[1]);
		ptk_ptab_copy(&s->t[0], &s->t[1]);
		s->up[0] = s->up[1];
		s->jiffies[0] = s->jiffies[1];
		s->wall[0] = s->wall[1];
		return 0;
	}
	if ((r = scan(ctx, s, 2)))
		return r;
	ptk_ps_baseline_keep(&s->p[0], &s->p[2], s->wrap);
	ptk_ps_baseline_keep(&s->t[0], &s->t[2], s->wrap);
	ptk_task_means_add(&s->accp, &s->p[2]);
	if (s->threads)
		ptk_task_means_add(&s->acct, &s->t[2]);
	bool dis = true;
	if (!s->dis_hdr) { /* a header every `rows` reports, as sysstat */
		dis = s->lines / s->rows;
		if (dis)
			s->lines %= s->rows;
		s->lines++;
	}
	if (s->oneline)
		snprintf(prev, sizeof(prev), "# Time");
	else
		stamp(s, 1, prev, sizeof(prev));
	stamp(s, 2, cur, sizeof(cur));
	report(ctx, s, 1, 2, cur, dis ? prev : NULL, "interval", cur);
	s->reports++;
	ptab_swap(&s->p[1], &s->p[2]);
	ptab_swap(&s->t[1], &s->t[2]);
	s->up[1] = s->up[2];
	s->jiffies[1] = s->jiffies[2];
	s->wall[1] = s->wall[2];
	return s->quiet ? -ESRCH : 0;
}

static int parse_pids(struct ptk_ctx *ctx, struct ps *s, const char *arg)
{
	char *dup = xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int pid;
		s->pid_words++;
		if (!strcmp(t, "ALL")) {
			s->mode = M_ALL;
			s->pid_words++; /* sysstat counts ALL twice (a header every interval) */
			continue;
		}
		if (!strcmp(t, "SELF"))
			pid = getpid();
		else if (ptk_parse_int(t, &pid) || pid < 1) {
			rc = ptk_usage_error(ctx, "-p: invalid PID '%s' (a number, SELF or ALL)",
					     t);
			break;
		}
		s->pids = xrealloc(s->pids, (size_t)(s->npids + 1) * sizeof(int));
		s->pids[s->npids++] = pid;
	}
	free(dup);
	if (!rc && !s->pid_words)
		rc = ptk_usage_error(ctx, "-p needs a PID list, SELF or ALL");
	if (!rc && s->mode != M_ALL)
		s->mode = M_LIST;
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

/* -e: run the program; its pid is the one watched. Returns 0 or PTK_EXIT_RUNTIME. */
static int start_program(struct ps *s, char **argv)
{
	int pfd[2];
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC)) {
		ptk_err("-e: pipe: %s", strerror(errno));
		return PTK_EXIT_RUNTIME;
	}
	pid = fork();
	if (pid < 0) {
		ptk_err("-e: fork: %s", strerror(errno));
		return PTK_EXIT_RUNTIME;
	}
	if (pid == 0) {
		int e;
		close(pfd[0]);
		ptk_child_prepare();
		execvp(argv[0], argv);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	int e = 0;
	ssize_t n = read(pfd[0], &e, sizeof(e));
	close(pfd[0]);
	if (n == sizeof(e)) {
		waitpid(pid, NULL, 0);
		ptk_err("-e: cannot run '%s': %s", argv[0], strerror(e));
		return PTK_EXIT_RUNTIME;
	}
	s->child = pid;
	s->pids = xrealloc(s->pids, sizeof(int));
	s->pids[0] = pid;
	s->npids = 1;
	s->mode = M_LIST;
	return 0;
}

enum { OPT_GROUP_BY = 0x2000, OPT_DEC, OPT_HUMAN, OPT_CGROUP };

int cmd_pidstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "group-by", required_argument, NULL, OPT_GROUP_BY },
					      { "dec", required_argument, NULL, OPT_DEC },
					      { "human", no_argument, NULL, OPT_HUMAN },
					      { "cgroup", required_argument, NULL, OPT_CGROUP },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct ps s = { .hz = sysconf(_SC_CLK_TCK), .rows = 23 };
	const char *operands[3] = { 0 };
	char **prog = NULL;
	int nops = 0, nact = 0, ntask = 0, c, r, rc = 0;
	double interval = 0;
	long count = -1;
	bool pid_given = false, since_boot;

	s.fmt.dec = -1;
	/* '-': operands come in order with the options (sysstat takes options anywhere,
	 * POSIXLY_CORRECT or not), and -e ends the options */
	while ((c = ptk_getopt(ctx, argc, argv, "-urdwsvRtp:C:G:lIhHT:UVeo:", opts, usage, &rc)) >=
	       0) {
		switch (c) {
		case 1:
			if (nops == 2) {
				rc = ptk_usage_error(ctx,
						     "unexpected operand '%s' (interval and count "
						     "only)",
						     optarg);
				goto out;
			}
			operands[nops++] = optarg;
			break;
		case 'u':
		case 'r':
		case 'd':
		case 'w':
		case 's':
		case 'v':
		case 'R':
			s.acts |= act_of(c);
			nact++;
			break;
		case 't':
			s.threads = true;
			break;
		case 'p':
			pid_given = true;
			if ((rc = parse_pids(ctx, &s, optarg)))
				goto out;
			break;
		case 'C':
		case 'G': {
			regex_t *re = c == 'C' ? &s.creg : &s.greg;
			bool *has = c == 'C' ? &s.has_c : &s.has_g;
			if (!*optarg) {
				rc = ptk_usage_error(ctx, "-%c needs a pattern", c);
				goto out;
			}
			if (*has)
				regfree(re);
			if (regcomp(re, optarg, REG_EXTENDED | REG_NOSUB)) {
				*has = false;
				rc = ptk_usage_error(ctx, "-%c: invalid regular expression '%s'", c,
						     optarg);
				goto out;
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
		case 'H':
			s.epoch = true;
			break;
		case 'T':
			/* each -T after the first, and ALL, ask for a header every interval */
			ntask += s.scope ? 1 : 0;
			if (!strcmp(optarg, "TASK"))
				s.scope |= PTK_PS_TASK;
			else if (!strcmp(optarg, "CHILD"))
				s.scope |= PTK_PS_CHILD;
			else if (!strcmp(optarg, "ALL")) {
				s.scope |= PTK_PS_TASK | PTK_PS_CHILD;
				ntask++;
			} else {
				rc = ptk_usage_error(ctx, "-T: invalid '%s' (TASK, CHILD or ALL)",
						     optarg);
				goto out;
			}
			break;
		case 'U':
			s.username = true;
			/* "-U NAME" alone takes the next word when it is not an option or a
			 * number (sysstat's rule); grouped ("-tU") it takes none */
			if (!strcmp(argv[optind - 1], "-U") && optind < argc &&
			    argv[optind][0] != '-' &&
			    strspn(argv[optind], "0123456789") != strlen(argv[optind]))
				s.user = argv[optind++];
			break;
		case 'V':
			ptk_sysstat_version(stdout, ps_env, ARRAY_SIZE(ps_env));
			goto out;
		case 'e':
			if (strcmp(argv[optind - 1], "-e")) {
				rc = ptk_usage_error(ctx, "-e takes the rest of the line: give it "
							  "alone, last");
				goto out;
			}
			if (optind >= argc) {
				rc = ptk_usage_error(ctx, "-e needs a program to run");
				goto out;
			}
			prog = argv + optind;
			optind = argc;
			break;
		case 'o':
			if (strcmp(optarg, "JSON")) {
				rc = ptk_usage_error(ctx, "-o: invalid '%s' (JSON)", optarg);
				goto out;
			}
			s.sjson = true;
			break;
		case OPT_DEC:
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2') {
				rc = ptk_usage_error(ctx, "--dec: invalid '%s' (0, 1 or 2)",
						     optarg);
				goto out;
			}
			s.fmt.dec = optarg[0] - '0';
			break;
		case OPT_HUMAN:
			s.fmt.human = true;
			break;
		case OPT_GROUP_BY:
			if (ptk_group_by_parse(optarg, &s.by)) {
				rc = ptk_usage_error(ctx,
						     "--group-by: invalid '%s' (pid, tgid, comm, "
						     "user, cgroup, container)",
						     optarg);
				goto out;
			}
			s.group = true;
			break;
		case OPT_CGROUP:
			if (optarg[0] != '/' ||
			    strlen(optarg) >= sizeof(((struct ptk_task *)NULL)->cgroup)) {
				rc = ptk_usage_error(ctx, "--cgroup: invalid '%s' (a path from /)",
						     optarg);
				goto out;
			}
			s.cgroup = optarg;
			break;
		}
		if (prog)
			break;
	}
	if (c == PTK_GETOPT_EXIT)
		goto out;
	/* operands: interval (0: since boot) and count */
	if (nops >= 1) {
		if (!strcmp(operands[0], "0") || !strcmp(operands[0], "00")) {
			interval = 0;
		} else if (ptk_parse_double(operands[0], &interval) ||
			   interval < PTK_MIN_INTERVAL_S || interval > PTK_MAX_INTERVAL_S) {
			rc = ptk_usage_error(ctx, "invalid interval '%s' (0, or %.2g to %.0f s)",
					     operands[0], PTK_MIN_INTERVAL_S, PTK_MAX_INTERVAL_S);
			goto out;
		}
	}
	if (nops == 2) {
		u64 n;
		if (interval == 0) {
			rc = ptk_usage_error(ctx, "a count ('%s') needs an interval above 0",
					     operands[1]);
			goto out;
		}
		if (ptk_parse_u64(operands[1], &n) || n < 1 || n > (u64)1 << 40) {
			rc = ptk_usage_error(ctx, "invalid count '%s' (1 or more)", operands[1]);
			goto out;
		}
		count = (long)n;
	}
	since_boot = interval == 0;
	if (prog && since_boot) {
		rc = ptk_usage_error(ctx, "-e needs an interval (the program's report starts "
					  "with it)");
		goto out;
	}
	if (s.sjson && (ctx->json || s.group)) {
		rc = ptk_usage_error(ctx, "-o JSON (sysstat's layout) and %s do not go together",
				     ctx->json ? "--json (ptk's)" : "--group-by");
		goto out;
	}
	/* sysstat's own layouts compute as sysstat does; --json and --group-by keep ptk's
	 * unknown values and (pid, start time) keys */
	s.wrap = !ctx->json && !s.group;
	s.accp.by_pid = s.acct.by_pid = s.wrap;
	if (!s.acts)
		s.acts = PTK_ACT_CPU;
	if (!s.scope)
		s.scope = PTK_PS_TASK;
	/* sysstat: what -T asks limits the activities (CHILD: CPU and memory only) */
	{
		unsigned ok = 0;
		if (s.scope & PTK_PS_TASK)
			ok |= ~0u;
		if (s.scope & PTK_PS_CHILD)
			ok |= PTK_ACT_CPU | PTK_ACT_MEM;
		s.acts &= ok;
		if (!s.acts) {
			ptk_err("-T CHILD reports CPU (-u) and memory (-r) only: none of the "
				"activities asked");
			rc = PTK_EXIT_RUNTIME;
			goto out;
		}
	}
	if (s.group &&
	    (s.acts & (PTK_ACT_STACK | PTK_ACT_KTAB | PTK_ACT_RT) || (s.scope & PTK_PS_CHILD))) {
		rc = ptk_usage_error(ctx, "--group-by sums -u -r -d -w; not -s -v -R or -T CHILD");
		goto out;
	}
	if (s.npids)
		qsort(s.pids, s.npids, sizeof(int), int_cmp);
	/* sysstat's dis_hdr: a header every interval unless -p (or -e) names at most one
	 * task and at most one activity was asked (then one every screen) */
	s.dis_hdr = !(pid_given || prog) || nact + ntask > 1 || s.pid_words > 1 || s.group;
	ptk_sysenv_read(&s.env);
	s.env.utc = false; /* sysstat's pidstat prints local time, S_TIME_DEF_TIME or not */
	s.fmt.f = stdout;
	s.fmt.env = &s.env;
	s.js.dec = s.fmt.dec;
	if (!s.dis_hdr) {
		s.rows = ptk_sysstat_rows(&s.env, 23);
		s.lines = s.rows;
	}
	s.flags = PTK_PT_STATUS | PTK_PT_SCHED;
	if (s.acts & PTK_ACT_IO)
		s.flags |= PTK_PT_IO;
	if (s.acts & PTK_ACT_STACK)
		s.flags |= PTK_PT_STACK;
	if (s.acts & PTK_ACT_KTAB)
		s.flags |= PTK_PT_FDS;
	if ((s.group && (s.by == PTK_BY_CGROUP || s.by == PTK_BY_CONTAINER)) || s.cgroup)
		s.flags |= PTK_PT_CGROUP;
	if ((rc = ptk_ctx_ready(ctx)))
		goto out;
	if (prog) {
		stop_flag = &ctx->stop;
		struct sigaction sa = { .sa_handler = on_chld, .sa_flags = SA_NOCLDSTOP };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGCHLD, &sa, NULL);
		if ((rc = start_program(&s, prog)))
			goto out;
	}
	if (s.mode == M_LIST && (rc = ptk_require_pids(ctx, s.pids, s.npids)))
		goto out;
	/* every process, as root, on a large table: one iterator read instead of 3-4 files
	 * per task (the iterator serves the stat, status and io fields of -u -r -d -w) */
	if (s.mode != M_LIST && !(s.flags & ~PTK_TASKSCAN_FLAGS) && !s.cmdline &&
	    !(s.acts & ~(PTK_ACT_CPU | PTK_ACT_MEM | PTK_ACT_IO | PTK_ACT_CSW)) &&
	    s.scope == PTK_PS_TASK)
		s.ts = ptk_taskscan_auto(&ctx->src, 1000);
	s.ncpu = count_cpus(ctx);
	struct ptk_meminfo mi;
	if (ptk_meminfo_read(&ctx->src, &mi) == 0)
		s.memtotal_kb = mi.mem_total;
	time_t t0 = (time_t)ptk_ctx_walltime(ctx);
	if (s.sjson) {
		struct ptk_host h;
		char date[64];
		ptk_ctx_host(ctx, &h);
		ptk_sysstat_date(&s.env, t0, date, sizeof(date));
		ptk_sjson_begin(&s.js, stdout, &h, s.ncpu, date);
	} else if (!ctx->json) {
		struct ptk_host h;
		ptk_ctx_host(ctx, &h);
		ptk_sysstat_banner(stdout, h.sys, h.rel, h.host, h.mach, s.ncpu, t0, s.env.utc,
				   s.env.iso);
	}
	if (since_boot) {
		char now[32];
		if ((rc = scan(ctx, &s, 1)))
			goto out_json;
		stamp(&s, 1, now, sizeof(now));
		report(ctx, &s, -1, 1, now, s.oneline ? "# Time" : now, "since_boot", now);
		goto out_json;
	}
	r = ptk_loop(ctx, interval, count, ps_sample, &s);
	if (r > 0) {
		rc = r;
		goto out_json;
	}
	if (s.reports > 0 && !s.quiet && !s.oneline && !s.sjson) {
		/* after the ^C echo; a replay that ran out of samples before the count is
		 * stopped the same way */
		if ((r == -EINTR || (count < 0 || s.reports < count)) && !ctx->json)
			putchar('\n');
		/* the last sample is in slot 1 after the swap */
		report(ctx, &s, 0, 1, "Average:", s.dis_hdr ? "Average:" : NULL, "average",
		       "Average:");
	}
out_json:
	if (s.sjson)
		ptk_sjson_end(&s.js);
out:
	if (s.child > 0) /* -e: reaped if it has ended, else left running (as sysstat) */
		waitpid(s.child, NULL, WNOHANG);
	ptk_taskscan_close(s.ts);
	for (int i = 0; i < 3; i++) {
		ptk_ptab_free(&s.p[i]);
		ptk_ptab_free(&s.t[i]);
	}
	ptk_task_means_free(&s.accp);
	ptk_task_means_free(&s.acct);
	ptk_cmdlines_free(&s.cmdl);
	free(s.rp);
	free(s.rt);
	free(s.tord);
	free(s.warned);
	free(s.pids);
	if (s.has_c)
		regfree(&s.creg);
	if (s.has_g)
		regfree(&s.greg);
	return rc;
}
