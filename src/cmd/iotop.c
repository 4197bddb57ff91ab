// SPDX-License-Identifier: GPL-2.0
/*
 * ptk iotop: per-task disk I/O, as iotop: read and write rates of every thread (-P: process)
 * from /proc/PID/io, and the share of the interval it waited for block I/O (IO>) and for
 * swap-in (SWAPIN) from taskstats delay accounting over generic netlink
 * (source/taskstats.h). Totals like iotop: "Total DISK READ/WRITE" sums the tasks, "Actual
 * DISK READ/WRITE" is what reached the block devices (/proc/vmstat pgpgin/pgpgout).
 *
 * When delay accounting is off (kernel.task_delayacct=0), taskstats is missing, we are not
 * root, or the input is a snapshot tree, IO> and SWAPIN are unavailable ("-" / null, never
 * 0), one line says why and how to turn it on, and the byte rates are still shown.
 */
#include <curses.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/delta.h"
#include "model/ptask.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"
#include "source/taskstats.h"

enum { I_ID, I_PRIO, I_USER, I_READ, I_WRITE, I_SWAPIN, I_IO, I_CMD, I_N };
static const struct ptk_metric *const io_cols[I_N] = {
	[I_ID] = PTK_M(PROC_TID),	   [I_PRIO] = PTK_M(PROC_IOPRIO),
	[I_USER] = PTK_M(PROC_RUSER),	   [I_READ] = PTK_M(PROC_READ_BPS),
	[I_WRITE] = PTK_M(PROC_WRITE_BPS), [I_SWAPIN] = PTK_M(PROC_SWAPIN_PCT),
	[I_IO] = PTK_M(PROC_IO_PCT),	   [I_CMD] = PTK_M(PROC_COMMAND),
};
static const struct ptk_table io_tab = { .name = "tasks", .ncols = I_N, .refs = io_cols };

enum { T_READ, T_WRITE, T_AREAD, T_AWRITE, T_N };
static const struct ptk_metric *const tot_cols[T_N] = {
	[T_READ] = PTK_M(IOTOP_TOTAL_READ_BPS),
	[T_WRITE] = PTK_M(IOTOP_TOTAL_WRITE_BPS),
	[T_AREAD] = PTK_M(IOTOP_ACTUAL_READ_BPS),
	[T_AWRITE] = PTK_M(IOTOP_ACTUAL_WRITE_BPS),
};
static const struct ptk_table tot_tab = { .name = "totals", .ncols = T_N, .refs = tot_cols };

static const char usage[] =
	"usage: ptk iotop [-o] [-b] [-n N] [-d SEC] [-P] [-a] [-k] [-p PID]... [--json]\n"
	"Disk I/O per task, as iotop: read and write rates (/proc/PID/io) and the share of\n"
	"time each task waited for block I/O (IO>) and swap-in (SWAPIN), from taskstats delay\n"
	"accounting (root, kernel.task_delayacct=1). -o only tasks doing I/O, -b batch output,\n"
	"-n iterations, -d delay between them (default 1 s), -P processes instead of threads,\n"
	"-a bytes accumulated since start instead of rates, -k kilobytes, -p only these PIDs.\n";

struct delay {
	bool ok;
	u64 blkio_ns, swapin_ns;
};

struct io {
	bool only, batch, procs, accum, kb;
	int *pids, npids;
	unsigned flags;
	struct ptk_taskstats *ts;
	bool delay_on;
	char why[256]; /* why delays are unavailable */
	struct ptk_ptab pt[3]; /* [0] first, [1] previous, [2] current */
	struct delay *dl[3];
	struct ptk_vmstat vm[3];
	bool vm_ok[3];
	double elapsed; /* seconds since the first sample (-a) */
	bool curses;
	long hz;
};

static void read_delays(struct io *s, int slot)
{
	struct ptk_ptab *pt = &s->pt[slot];

	s->dl[slot] = xrealloc(s->dl[slot], (size_t)MAX(pt->n, 1) * sizeof(struct delay));
	for (int i = 0; i < pt->n; i++) {
		struct ptk_taskdelay d;
		struct delay *o = &s->dl[slot][i];
		o->ok = s->delay_on && ptk_taskstats_get(s->ts, pt->t[i].pid, s->procs, &d) == 0;
		o->blkio_ns = o->ok ? d.blkio_delay_ns : 0;
		o->swapin_ns = o->ok ? d.swapin_delay_ns : 0;
	}
}

static int scan(struct ptk_ctx *ctx, struct io *s, int slot)
{
	unsigned fl = s->flags | (s->procs ? 0 : PTK_PT_THREADS);
	int r = ptk_ptab_scan_some(&ctx->src, fl, s->pids, s->npids, &s->pt[slot]);

	if (r) {
		ptk_err("cannot scan %s: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	s->vm_ok[slot] = ptk_vmstat_read(&ctx->src, &s->vm[slot]) == 0;
	read_delays(s, slot);
	return 0;
}

static void copy_slot(struct io *s, int dst, int src)
{
	ptk_ptab_copy(&s->pt[dst], &s->pt[src]);
	s->dl[dst] = xrealloc(s->dl[dst], (size_t)MAX(s->pt[src].n, 1) * sizeof(struct delay));
	if (s->pt[src].n)
		memcpy(s->dl[dst], s->dl[src], (size_t)s->pt[src].n * sizeof(struct delay));
	s->vm[dst] = s->vm[src];
	s->vm_ok[dst] = s->vm_ok[src];
}

/* iotop's human_size: "0.00 B", "1.50 K", "12.00 M" (-k: always K). */
static void human(const struct io *s, double v, bool rate, char *buf, size_t size)
{
	static const char units[] = "BKMGTPE";
	int e = 0;

	if (s->kb) {
		snprintf(buf, size, "%.2f K%s", v / 1024, rate ? "/s" : "");
		return;
	}
	while (v >= 1024.0 * 2 && e < 6) { /* int(log2(size / 2) / 10), as iotop */
		v /= 1024;
		e++;
	}
	snprintf(buf, size, "%.2f %c%s", v, units[e], rate ? "/s" : "");
}

static void ioprio(const struct ptk_ctx *ctx, const struct ptk_task *t, char *buf, size_t size)
{
	static const char *const cls[] = { "none", "rt", "be", "idle" };
	long p;

	if (!ptk_src_is_live(&ctx->src) || (p = syscall(SYS_ioprio_get, 1, t->pid)) < 0) {
		snprintf(buf, size, "-");
		return;
	}
	int c = (int)(p >> 13), lvl = (int)(p & 0xff);
	if (c == 0) /* not set: best effort, level from nice (block/ioprio.c) */
		snprintf(buf, size, "be/%d", (int)((t->nice + 20) / 5) & 7);
	else
		snprintf(buf, size, "%s/%d", c < 4 ? cls[c] : "?", lvl);
}

struct row {
	const struct ptk_task *t;
	struct ptk_val v[I_N];
	char prio[16], cmd[300];
	double key1, key2; /* sort: IO> then bytes */
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->key1 != y->key1)
		return x->key1 < y->key1 ? 1 : -1;
	if (x->key2 != y->key2)
		return x->key2 < y->key2 ? 1 : -1;
	return (x->t->pid > y->t->pid) - (x->t->pid < y->t->pid);
}

static double pct(u64 d_ns, double itv)
{
	double p = itv > 0 ? d_ns / (itv * 1e7) : 0;

	return p > 99.99 ? 99.99 : p; /* iotop caps at 99.99 */
}

/* Rates of slot b against slot a over itv (or accumulated since slot 0 with -a). */
static void report(struct ptk_ctx *ctx, struct io *s, int a, int b, double itv)
{
	const struct ptk_ptab *cur = &s->pt[b], *old = &s->pt[a];
	struct row *rows = xcalloc((size_t)MAX(cur->n, 1), sizeof(*rows));
	double tot_r, tot_w, span = s->accum ? s->elapsed : itv;
	int nr = 0;

	for (int i = 0; i < cur->n; i++) {
		const struct ptk_task *c = &cur->t[i],
				      *p = ptk_ptab_find(old, c->pid, c->starttime);
		const struct delay *dc = &s->dl[b][i], *dp = p ? &s->dl[a][p - old->t] : NULL;
		struct row *r = &rows[nr];
		bool born = !p; /* new in the interval: all of its I/O is new */

		r->t = c;
		for (int k = 0; k < I_N; k++)
			r->v[k] = PTK_NA;
		r->v[I_ID] = PTK_I(c->pid);
		ioprio(ctx, c, r->prio, sizeof(r->prio));
		r->v[I_PRIO] = PTK_S(r->prio);
		r->v[I_USER] = c->status_ok ? PTK_S(ptk_user_name(c->uid)) : PTK_NA;
		bool did = false;
		double rd, wr;
		if (ptk_task_io_bytes(p, c, &rd, &wr)) {
			did = rd > 0 || wr > 0;
			r->v[I_READ] = PTK_F(s->accum ? rd : rd / itv);
			r->v[I_WRITE] = PTK_F(s->accum ? wr : wr / itv);
			r->key2 = rd + wr;
		}
		if (dc->ok && (born || (dp && dp->ok))) {
			u64 bd = ptk_delta(born ? 0 : dp->blkio_ns, dc->blkio_ns);
			u64 sd = ptk_delta(born ? 0 : dp->swapin_ns, dc->swapin_ns);
			r->v[I_IO] = PTK_F(pct(bd, span));
			r->v[I_SWAPIN] = PTK_F(pct(sd, span));
			r->key1 = r->v[I_IO].f;
			did = did || bd || sd;
		}
		if (c->cmdline[0])
			snprintf(r->cmd, sizeof(r->cmd), "%s", c->cmdline);
		else
			snprintf(r->cmd, sizeof(r->cmd), "[%s]", c->comm);
		r->v[I_CMD] = PTK_S(r->cmd);
		if (s->only && !did)
			continue;
		nr++;
	}
	qsort(rows, nr, sizeof(*rows), cmp_row);
	ptk_ptab_io_totals(&s->pt[1], &s->pt[2], itv, &tot_r, &tot_w);

	struct ptk_val tv[T_N] = { PTK_F(tot_r), PTK_F(tot_w), PTK_NA, PTK_NA };
	if (s->vm_ok[1] && s->vm_ok[2] && itv > 0) {
		tv[T_AREAD] = PTK_F(ptk_delta(s->vm[1].pgpgin, s->vm[2].pgpgin) * 1024.0 / itv);
		tv[T_AWRITE] = PTK_F(ptk_delta(s->vm[1].pgpgout, s->vm[2].pgpgout) * 1024.0 / itv);
	}
	if (ctx->json) {
		struct json_object *arr = json_object_new_array();
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_str(&ctx->sink, "type", "interval");
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
		ptk_sink_meta_bool(&ctx->sink, "processes", s->procs);
		ptk_sink_meta_bool(&ctx->sink, "accumulated", s->accum);
		ptk_sink_meta_bool(&ctx->sink, "delayacct", s->delay_on);
		if (!s->delay_on)
			ptk_sink_meta_str(&ctx->sink, "delayacct_off_reason", s->why);
		ptk_sink_meta_json(&ctx->sink, "totals", ptk_json_row(&tot_tab, tv));
		for (int i = 0; i < nr; i++) {
			struct json_object *o = ptk_json_row(&io_tab, rows[i].v);
			if (s->procs) { /* the id is a process id */
				struct json_object *id = NULL;
				json_object_object_get_ex(o, "tid", &id);
				json_object_object_add(o, "pid", json_object_get(id));
				json_object_object_del(o, "tid");
			}
			json_object_array_add(arr, o);
		}
		ptk_sink_meta_json(&ctx->sink, "tasks", arr);
		ptk_sink_end(&ctx->sink);
		free(rows);
		return;
	}

	char line[1024], b1[64], b2[64], f1[32], f2[32];
	int y = 0;
	if (s->curses)
		erase();
#define OUT(...)                                                       \
	do {                                                           \
		snprintf(line, sizeof(line), __VA_ARGS__);             \
		if (s->curses)                                         \
			mvaddnstr(y++, 0, line, COLS > 0 ? COLS : 80); \
		else                                                   \
			puts(line);                                    \
	} while (0)
#define BW(v, buf) \
	((v).na ? snprintf(buf, sizeof(buf), "-") : (human(s, (v).f, true, buf, sizeof(buf)), 0))
	BW(tv[T_READ], b1);
	BW(tv[T_WRITE], b2);
	OUT("Total DISK READ : %14s | Total DISK WRITE : %14s", b1, b2);
	BW(tv[T_AREAD], b1);
	BW(tv[T_AWRITE], b2);
	OUT("Actual DISK READ: %14s | Actual DISK WRITE: %14s", b1, b2);
	if (s->curses && !s->delay_on)
		OUT("%s", s->why);
	OUT("%*s  %4s  %-8s %11s %11s %8s %8s  %s", io_cols[I_ID]->width, s->procs ? "PID" : "TID",
	    io_cols[I_PRIO]->name, io_cols[I_USER]->name, io_cols[I_READ]->name,
	    io_cols[I_WRITE]->name, io_cols[I_SWAPIN]->name, io_cols[I_IO]->name,
	    io_cols[I_CMD]->name);
	for (int i = 0; i < nr; i++) {
		struct row *r = &rows[i];
		if (s->curses && y >= LINES)
			break;
		if (r->v[I_READ].na) {
			snprintf(b1, sizeof(b1), "-");
			snprintf(b2, sizeof(b2), "-");
		} else {
			human(s, r->v[I_READ].f, !s->accum, b1, sizeof(b1));
			human(s, r->v[I_WRITE].f, !s->accum, b2, sizeof(b2));
		}
		ptk_metric_fmt(io_cols[I_SWAPIN], &r->v[I_SWAPIN], f1, sizeof(f1));
		ptk_metric_fmt(io_cols[I_IO], &r->v[I_IO], f2, sizeof(f2));
		OUT("%*" PRId64 "  %4s  %-8.8s %11s %11s %6s %s %6s %s  %s", io_cols[I_ID]->width,
		    r->v[I_ID].i, r->prio, r->v[I_USER].na ? "?" : r->v[I_USER].s, b1, b2, f1,
		    r->v[I_SWAPIN].na ? " " : "%", f2, r->v[I_IO].na ? " " : "%", r->cmd);
	}
#undef OUT
#undef BW
	if (s->curses)
		refresh();
	else
		fflush(stdout);
	free(rows);
}

static int io_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct io *s = arg;
	int r;

	if (i == 0) {
		if ((r = scan(ctx, s, 1)))
			return r;
		copy_slot(s, 0, 1);
		return 0;
	}
	if ((r = scan(ctx, s, 2)))
		return r;
	s->elapsed += itv;
	if (s->accum) /* bytes and delays since the first sample */
		report(ctx, s, 0, 2, itv);
	else
		report(ctx, s, 1, 2, itv);
	copy_slot(s, 1, 2);
	if (s->curses) {
		int ch = getch();
		if (ch == 'q' || ch == 'Q')
			return -EINTR;
	}
	return 0;
}

/* Decide whether IO> and SWAPIN can be shown; s->why says why not. */
static void probe_delays(struct ptk_ctx *ctx, struct io *s)
{
	static const char how[] =
		"turn it on with 'sysctl kernel.task_delayacct=1' or boot with 'delayacct'";
	int on, r;

	s->delay_on = false;
	if (!ptk_src_is_live(&ctx->src)) {
		snprintf(s->why, sizeof(s->why),
			 "IO> and SWAPIN unavailable: taskstats delays are not in snapshot trees");
		return;
	}
	on = ptk_delayacct_enabled(&ctx->src);
	if (on == 0) {
		snprintf(s->why, sizeof(s->why),
			 "delay accounting is off (kernel.task_delayacct = 0): IO> and SWAPIN "
			 "unavailable; %s",
			 how);
		return;
	}
	r = ptk_taskstats_open(&s->ts);
	if (r) {
		snprintf(s->why, sizeof(s->why), "IO> and SWAPIN unavailable: taskstats: %s",
			 r == -ENOENT ? "no TASKSTATS netlink family (CONFIG_TASKSTATS off)" :
					strerror(-r));
		return;
	}
	struct ptk_taskdelay d;
	r = ptk_taskstats_get(s->ts, getpid(), false, &d);
	if (r) {
		snprintf(s->why, sizeof(s->why), "IO> and SWAPIN unavailable: taskstats: %s",
			 r == -EPERM ? "needs CAP_NET_ADMIN (run as root)" : strerror(-r));
		return;
	}
	if (on < 0) { /* no sysctl (kernel < 5.14): on unless booted with nodelayacct */
		char cmd[4096] = "";
		ptk_src_read(&ctx->src, PTK_PROC, "cmdline", cmd, sizeof(cmd));
		if (strstr(cmd, "nodelayacct")) {
			snprintf(s->why, sizeof(s->why),
				 "delay accounting is off (booted with nodelayacct): IO> and "
				 "SWAPIN unavailable; %s",
				 how);
			return;
		}
	}
	s->delay_on = true;
}

int cmd_iotop(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "only", no_argument, NULL, 'o' },
					      { "batch", no_argument, NULL, 'b' },
					      { "iter", required_argument, NULL, 'n' },
					      { "delay", required_argument, NULL, 'd' },
					      { "pid", required_argument, NULL, 'p' },
					      { "processes", no_argument, NULL, 'P' },
					      { "accumulated", no_argument, NULL, 'a' },
					      { "kilobytes", no_argument, NULL, 'k' },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct io s = { .hz = sysconf(_SC_CLK_TCK) };
	double delay = 1;
	long iter = -1;
	int c, r, rc = 0, pid;

	while ((c = ptk_getopt(ctx, argc, argv, "obn:d:p:Pak", opts, usage, &rc)) >= 0) {
		switch (c) {
		case 'o':
			s.only = true;
			break;
		case 'b':
			s.batch = true;
			break;
		case 'n':
			if (ptk_parse_int(optarg, &pid) || pid < 1) {
				rc = ptk_usage_error(ctx, "invalid -n '%s'", optarg);
				goto out_free_tables;
			}
			iter = pid;
			break;
		case 'd':
			if (ptk_parse_double(optarg, &delay) || !(delay > 0)) {
				rc = ptk_usage_error(ctx, "invalid -d '%s'", optarg);
				goto out_free_tables;
			}
			break;
		case 'p':
			if (ptk_parse_int(optarg, &pid) || pid < 1) {
				rc = ptk_usage_error(ctx, "invalid -p '%s'", optarg);
				goto out_free_tables;
			}
			s.pids = xrealloc(s.pids, (size_t)(s.npids + 1) * sizeof(int));
			s.pids[s.npids++] = pid;
			break;
		case 'P':
			s.procs = true;
			break;
		case 'a':
			s.accum = true;
			break;
		case 'k':
			s.kb = true;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		goto out_free_tables;
	if (optind < argc) {
		rc = ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
		goto out_free_tables;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out_free_tables;
	if (s.npids && (rc = ptk_require_pids(ctx, s.pids, s.npids)))
		goto out_free_tables;
	s.flags = PTK_PT_IO | PTK_PT_STATUS | PTK_PT_CMDLINE;
	probe_delays(ctx, &s);
	s.curses = !s.batch && !ctx->json && ptk_src_is_live(&ctx->src) && isatty(STDOUT_FILENO);
	if (!s.delay_on && !s.curses)
		ptk_warn("%s", s.why);
	if (s.curses) {
		initscr();
		cbreak();
		noecho();
		nodelay(stdscr, TRUE);
		curs_set(0);
	}
	r = ptk_loop(ctx, delay, iter, io_sample, &s);
	if (s.curses)
		endwin();
	if (r > 0)
		rc = r;
out_free_tables:
	for (int i = 0; i < 3; i++) {
		ptk_ptab_free(&s.pt[i]);
		free(s.dl[i]);
	}
	ptk_taskstats_close(s.ts);
	free(s.pids);
	return rc;
}
