// SPDX-License-Identifier: GPL-2.0
/*
 * ptk sar: reports from the `ptk record` archive (or live, with "interval count") in sysstat
 * sar's layouts and column names, with Average lines. Every report is a function of two
 * consecutive samples (struct ptk_snap, the same struct live and recorded), computed
 * with the shared delta model.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/activity.h"
#include "output/archive.h"

#define MAXCOL 12

/* A report: the columns sar shows of one activity (model/activity.h). */
struct report {
	enum ptk_act_id act;
	struct ptk_table tab; /* refs: registry entries, each a metric of the activity */
	enum ptk_mid na_zero; /* na printed 0.00 in text, as sysstat does (JSON: null) */
};

/* The impossible values of one sample: shown as unknown, named in one warning. */
struct warning {
	s64 id, t_ms;
	struct ptk_strbuf text;
};

struct sar {
	struct ptk_ctx *ctx;
	struct warning *warn; /* in the order found */
	int nwarn, capwarn;
	struct taint { /* a sample's counter behind a rate beyond 2^53 (see impossible_rates) */
		s64 id;
		enum ptk_mid m;
		char key[64];
	} * taint;
	int ntaint, captaint;
	bool utc, iso, csv;
	struct ptk_act_opts aopts;
	const struct report *rep[16];
	int nrep;
	struct ptk_act_avg avg[16]; /* per report: its activity's rows averaged */
	bool restart; /* a reboot inside the window: Average from rows */
	struct ptk_rows act_rows; /* scratch: the activity's rows */
};

#define REPORT(a, nm, naz, ...)                                                                   \
	{                                                                                         \
		.act = a, .na_zero = naz,                                                         \
		.tab = {.name = nm,                                                               \
			.refs = (const struct ptk_metric *const[]){ __VA_ARGS__ },                \
			.ncols = ARRAY_SIZE(((const struct ptk_metric *const[]){ __VA_ARGS__ })), \
		}                                                                                 \
	}

enum {
	R_CPU,
	R_CPUALL,
	R_MEM,
	R_SWS,
	R_IO,
	R_DEV,
	R_NDEV,
	R_EDEV,
	R_TCP,
	R_ETCP,
	R_Q,
	R_W,
	R_SW,
	R_PG,
	R_PSIC,
	R_PSII,
	R_PSIM,
	R_N
};
static const struct report reports[R_N] = {
	[R_CPU] = REPORT(PTK_ACT_CPU, "cpu", PTK_M_NONE, PTK_M(CPU_ID), PTK_M(CPU_USER),
			 PTK_M(CPU_NICE_ALL), PTK_M(CPU_SYSTEM), PTK_M(CPU_IOWAIT),
			 PTK_M(CPU_STEAL), PTK_M(CPU_IDLE)),
	[R_CPUALL] = REPORT(PTK_ACT_CPU, "cpu", PTK_M_NONE, PTK_M(CPU_ID), PTK_M(CPU_USR),
			    PTK_M(CPU_NICE), PTK_M(CPU_SYS), PTK_M(CPU_IOWAIT), PTK_M(CPU_STEAL),
			    PTK_M(CPU_IRQ), PTK_M(CPU_SOFT), PTK_M(CPU_GUEST), PTK_M(CPU_GNICE),
			    PTK_M(CPU_IDLE)),
	[R_MEM] = REPORT(PTK_ACT_MEM, "memory", PTK_M_NONE, PTK_M(MEM_FREE), PTK_M(MEM_AVAIL),
			 PTK_M(MEM_KBMEMUSED), PTK_M(MEM_USED_PCT), PTK_M(MEM_BUFFERS),
			 PTK_M(MEM_CACHED), PTK_M(MEM_COMMIT), PTK_M(MEM_COMMIT_PCT),
			 PTK_M(MEM_ACTIVE), PTK_M(MEM_INACTIVE), PTK_M(MEM_DIRTY)),
	[R_SWS] = REPORT(PTK_ACT_SWAP, "swap_space", PTK_M_NONE, PTK_M(SWP_FREE), PTK_M(SWP_USED),
			 PTK_M(SWP_USED_PCT), PTK_M(SWP_CAD), PTK_M(SWP_CAD_PCT)),
	[R_IO] = REPORT(PTK_ACT_IO, "io", PTK_M_NONE, PTK_M(DISK_TPS), PTK_M(IO_RTPS),
			PTK_M(IO_WTPS), PTK_M(IO_DTPS), PTK_M(IO_BREAD), PTK_M(IO_BWRTN),
			PTK_M(IO_BDSCD)),
	[R_DEV] =
		REPORT(PTK_ACT_DISK, "disk", PTK_M_NONE, PTK_M(DISK_DEV), PTK_M(DISK_TPS),
		       PTK_M(DISK_RKB_S), PTK_M(DISK_WKB_S), PTK_M(DISK_DKB_S), PTK_M(DISK_AREQ_SZ),
		       PTK_M(DISK_AQU_SZ), PTK_M(DISK_AWAIT), PTK_M(DISK_UTIL)),
	[R_NDEV] = REPORT(PTK_ACT_NET_DEV, "net_dev", PTK_M_NET_IFUTIL, PTK_M(NET_IFACE),
			  PTK_M(NET_RXPCK), PTK_M(NET_TXPCK), PTK_M(NET_RXKB), PTK_M(NET_TXKB),
			  PTK_M(NET_RXCMP), PTK_M(NET_TXCMP), PTK_M(NET_RXMCST), PTK_M(NET_IFUTIL)),
	[R_EDEV] =
		REPORT(PTK_ACT_NET_EDEV, "net_edev", PTK_M_NONE, PTK_M(NET_IFACE), PTK_M(NET_RXERR),
		       PTK_M(NET_TXERR), PTK_M(NET_COLL), PTK_M(NET_RXDROP), PTK_M(NET_TXDROP),
		       PTK_M(NET_TXCARR), PTK_M(NET_RXFRAM), PTK_M(NET_RXFIFO), PTK_M(NET_TXFIFO)),
	[R_TCP] = REPORT(PTK_ACT_TCP, "tcp", PTK_M_NONE, PTK_M(TCP_ACTIVE), PTK_M(TCP_PASSIVE),
			 PTK_M(TCP_ISEG), PTK_M(TCP_OSEG)),
	[R_ETCP] = REPORT(PTK_ACT_ETCP, "etcp", PTK_M_NONE, PTK_M(TCP_ATMPTF), PTK_M(TCP_ESTRES),
			  PTK_M(TCP_RETRANS), PTK_M(TCP_ISEGERR), PTK_M(TCP_ORSTS)),
	[R_Q] = REPORT(PTK_ACT_QUEUE, "queue", PTK_M_NONE, PTK_M(Q_RUNQ_SZ), PTK_M(Q_PLIST_SZ),
		       PTK_M(Q_LDAVG_1), PTK_M(Q_LDAVG_5), PTK_M(Q_LDAVG_15), PTK_M(Q_BLOCKED)),
	[R_W] = REPORT(PTK_ACT_TASK, "task", PTK_M_NONE, PTK_M(TASK_PROC_S), PTK_M(TASK_CSWCH_S)),
	[R_SW] = REPORT(PTK_ACT_SWAP, "swap", PTK_M_NONE, PTK_M(SWP_PSWPIN), PTK_M(SWP_PSWPOUT)),
	[R_PG] = REPORT(PTK_ACT_PAGING, "paging", PTK_M_NONE, PTK_M(PG_PGPGIN), PTK_M(PG_PGPGOUT),
			PTK_M(PG_FAULT), PTK_M(PG_MAJFLT), PTK_M(PG_PGFREE), PTK_M(PG_PGSCANK),
			PTK_M(PG_PGSCAND), PTK_M(PG_PGSTEAL), PTK_M(PG_VMEFF)),
	[R_PSIC] = REPORT(PTK_ACT_PSI_CPU, "psi_cpu", PTK_M_NONE, PTK_M(PSI_CPU_SOME_AVG10),
			  PTK_M(PSI_CPU_SOME_AVG60), PTK_M(PSI_CPU_SOME_AVG300),
			  PTK_M(PSI_CPU_SOME_PCT)),
	[R_PSII] =
		REPORT(PTK_ACT_PSI_IO, "psi_io", PTK_M_NONE, PTK_M(PSI_IO_SOME_AVG10),
		       PTK_M(PSI_IO_SOME_AVG60), PTK_M(PSI_IO_SOME_AVG300), PTK_M(PSI_IO_SOME_PCT),
		       PTK_M(PSI_IO_FULL_AVG10), PTK_M(PSI_IO_FULL_AVG60),
		       PTK_M(PSI_IO_FULL_AVG300), PTK_M(PSI_IO_FULL_PCT)),
	[R_PSIM] = REPORT(PTK_ACT_PSI_MEM, "psi_mem", PTK_M_NONE, PTK_M(PSI_MEM_SOME_AVG10),
			  PTK_M(PSI_MEM_SOME_AVG60), PTK_M(PSI_MEM_SOME_AVG300),
			  PTK_M(PSI_MEM_SOME_PCT), PTK_M(PSI_MEM_FULL_AVG10),
			  PTK_M(PSI_MEM_FULL_AVG60), PTK_M(PSI_MEM_FULL_AVG300),
			  PTK_M(PSI_MEM_FULL_PCT)),
};

/* Note what of sample s is impossible (one item of its warning; the same item once). */
static void warn_add(struct sar *o, const struct ptk_snap *s, const char *item)
{
	struct warning *w = NULL;

	for (int i = o->nwarn - 1; i >= 0 && !w; i--)
		if (o->warn[i].id == s->id)
			w = &o->warn[i];
	if (!w) {
		if (o->nwarn == o->capwarn) {
			o->capwarn = o->capwarn ? 2 * o->capwarn : 8;
			o->warn = xrealloc(o->warn, o->capwarn * sizeof(*o->warn));
		}
		w = &o->warn[o->nwarn++];
		*w = (struct warning){ .id = s->id, .t_ms = s->t_ms };
	}
	if (w->text.p && strstr(w->text.p, item))
		return;
	ptk_strbuf_addf(&w->text, "%s%s", w->text.len ? "; " : "", item);
}

static int warn_cmp(const void *x, const void *y)
{
	const struct warning *a = x, *b = y;

	return a->t_ms < b->t_ms ? -1 : a->t_ms > b->t_ms ? 1 : a->id < b->id ? -1 : a->id > b->id;
}

/* One warning per sample with impossible values, in time order; then forget them. */
static void warn_flush(struct sar *o)
{
	char t[64];

	if (o->nwarn)
		qsort(o->warn, o->nwarn, sizeof(*o->warn), warn_cmp);
	for (int i = 0; i < o->nwarn; i++) {
		ptk_arc_fmt_time(o->warn[i].t_ms, o->utc, true, t, sizeof(t));
		ptk_warn("sample %" PRId64 " at %s: impossible values shown as unknown: %s",
			 o->warn[i].id, t, o->warn[i].text.p);
		free(o->warn[i].text.p);
	}
	free(o->warn);
	o->warn = NULL;
	o->nwarn = o->capwarn = 0;
	free(o->taint);
	o->taint = NULL;
	o->ntaint = o->captaint = 0;
}

static bool tainted(const struct sar *o, s64 id, enum ptk_mid m, const char *key)
{
	for (int i = 0; i < o->ntaint; i++)
		if (o->taint[i].id == id && o->taint[i].m == m && !strcmp(o->taint[i].key, key))
			return true;
	return false;
}

/*
 * A rate beyond 2^53 per second is no kernel counter's (9 PB/s; a double no longer holds
 * such a count exactly): the archive holds an impossible jump of the counter into cur. The
 * rate is shown as unknown and named in cur's warning; so is the rate of the interval after
 * it, from cur's counter (which counts as a reset, a wrong number either way). Archived
 * samples only (prev, cur ids): live values are the kernel's.
 */
static void impossible_rates(struct sar *o, const struct ptk_activity *act,
			     const struct ptk_snap *prev, const struct ptk_snap *cur,
			     struct ptk_rows *rows)
{
	const double limit = 9007199254740992.0; /* 2^53 */

	for (int k = 0; k < rows->n; k++) {
		struct ptk_row *r = &rows->r[k];
		for (int i = 0; act->mids[i] != PTK_M_NONE; i++) {
			const struct ptk_metric *m = &ptk_registry[act->mids[i]];
			char item[160];
			if (m->kind != PTK_RATE || r->v[i].na || m->type != PTK_V_F64)
				continue;
			if (prev && tainted(o, prev->id, act->mids[i], r->key)) {
				r->v[i] = PTK_NA;
				continue;
			}
			if (!(fabs(r->v[i].f) > limit))
				continue;
			snprintf(item, sizeof(item), "%s%s%s %.3g (a rate beyond 2^53)", m->name,
				 r->key[0] ? " of " : "", r->key, r->v[i].f);
			warn_add(o, cur, item);
			r->v[i] = PTK_NA;
			if (tainted(o, cur->id, act->mids[i], r->key))
				continue;
			if (o->ntaint == o->captaint) {
				o->captaint = o->captaint ? 2 * o->captaint : 8;
				o->taint = xrealloc(o->taint, o->captaint * sizeof(*o->taint));
			}
			struct taint *t = &o->taint[o->ntaint++];
			t->id = cur->id;
			t->m = act->mids[i];
			snprintf(t->key, sizeof(t->key), "%s", r->key);
		}
	}
}

/* The activity's rows in o->act_rows into out, in report rep's columns (the entity column:
 * the row's key). */
static void pick_rows(const struct sar *o, const struct report *rep, struct ptk_rows *out)
{
	const struct ptk_activity *act = &ptk_activities[rep->act];
	int col[MAXCOL];

	for (int i = 0; i < rep->tab.ncols; i++)
		col[i] = ptk_act_col(act, ptk_col(&rep->tab, i) - ptk_registry);
	out->n = 0;
	for (int k = 0; k < o->act_rows.n; k++) {
		const struct ptk_row *a = &o->act_rows.r[k];
		struct ptk_row *r = ptk_rows_add(out, a->key);

		for (int i = 0; i < rep->tab.ncols; i++)
			if (col[i] >= 0)
				r->v[i] = a->v[col[i]];
	}
}

/* The rows of report ri between p and c into out, counted in its Average. */
static void report_rows(struct sar *o, int ri, const struct ptk_snap *p, const struct ptk_snap *c,
			double itv, struct ptk_rows *out)
{
	const struct ptk_activity *act = &ptk_activities[o->rep[ri]->act];

	o->act_rows.n = 0;
	act->rows(p, c, itv, &o->aopts, &o->act_rows);
	if (c->id)
		impossible_rates(o, act, p, c, &o->act_rows);
	o->avg[ri].act = act;
	ptk_act_avg_add(&o->avg[ri], &o->act_rows, itv);
	pick_rows(o, o->rep[ri], out);
}

/* The Average rows of report ri over first..last (model/activity.h ptk_act_avg). */
static void average_rows(struct sar *o, int ri, const struct ptk_snap *first,
			 const struct ptk_snap *last, struct ptk_rows *out)
{
	const struct ptk_activity *act = &ptk_activities[o->rep[ri]->act];
	double itv = last->up.up_s - first->up.up_s;
	bool whole = !o->restart && itv > 0;
	struct ptk_rows w = { 0 };

	o->avg[ri].act = act;
	if (whole) {
		act->rows(first, last, itv, &o->aopts, &w);
		if (last->id)
			impossible_rates(o, act, NULL, last, &w);
	}
	ptk_act_avg_rows(&o->avg[ri], whole ? &w : NULL, &o->act_rows);
	pick_rows(o, o->rep[ri], out);
	ptk_rows_free(&w);
}

/* ---- output ------------------------------------------------------------------------------- */

/* The values of row r as rep shows them: the entity column is the row's key; in text, the
 * na_zero column prints 0 for unknown. */
static void shown_vals(const struct sar *o, const struct report *rep, const struct ptk_row *r,
		       struct ptk_val *v)
{
	for (int i = 0; i < rep->tab.ncols; i++) {
		const struct ptk_metric *m = ptk_col(&rep->tab, i);
		v[i] = r->v[i];
		if (m->type == PTK_V_STR)
			v[i] = PTK_S(r->key);
		else if (v[i].na && m == &ptk_registry[rep->na_zero] && !o->ctx->json)
			v[i] = PTK_F(0);
	}
}

static void print_header(const struct sar *o, const struct report *rep, const char *t)
{
	if (o->csv) {
		fputs("time", stdout);
		for (int i = 0; i < rep->tab.ncols; i++)
			printf(",%s", ptk_col(&rep->tab, i)->name);
		putchar('\n');
		return;
	}
	ptk_sink_table_begin(&o->ctx->sink, &rep->tab, true, t);
	ptk_sink_table_end(&o->ctx->sink);
}

/* The rows of one report: text or CSV with the time t in front, or a JSON table. */
static void print_rows(const struct sar *o, const struct report *rep, const char *t,
		       const struct ptk_rows *rs)
{
	struct ptk_val v[MAXCOL];
	char buf[64];

	if (!o->csv)
		ptk_sink_table_begin(&o->ctx->sink, &rep->tab, false, NULL);
	for (int k = 0; k < rs->n; k++) {
		shown_vals(o, rep, &rs->r[k], v);
		if (!o->csv) {
			ptk_sink_row(&o->ctx->sink, o->ctx->json ? NULL : t, v);
			continue;
		}
		fputs(t, stdout);
		for (int i = 0; i < rep->tab.ncols; i++)
			printf(",%s",
			       ptk_metric_fmt(ptk_col(&rep->tab, i), &v[i], buf, sizeof(buf)));
		putchar('\n');
	}
	if (!o->csv)
		ptk_sink_table_end(&o->ctx->sink);
}

static void fmt_t(const struct sar *o, s64 t_ms, char *buf, size_t size)
{
	ptk_arc_fmt_time(t_ms, o->utc, o->iso || o->csv || o->ctx->json, buf, size);
}

static void banner(const struct sar *o, const char *sys, const char *rel, const char *host,
		   const char *mach, int ncpu, s64 t_ms)
{
	if (!o->csv && !o->ctx->json)
		ptk_sysstat_banner(stdout, sys, rel, host, mach, ncpu, (time_t)(t_ms / 1000),
				   o->utc, o->iso);
}

/* a reboot between two samples: btime moved or uptime went back */
static bool restarted(const struct ptk_snap *p, const struct ptk_snap *c)
{
	s64 db = (s64)c->st.btime - (s64)p->st.btime;
	return c->up.up_s < p->up.up_s || db > 2 || db < -2;
}

static double interval_of(const struct ptk_snap *p, const struct ptk_snap *c)
{
	double itv = c->up.up_s - p->up.up_s;
	return itv > 0 ? itv : (c->t_ms - p->t_ms) / 1000.0;
}

/* ---- the two feeds: archive and live ------------------------------------------------------ */

struct feed {
	struct sar *o; /* warned of impossible values */
	struct ptk_arc *arc;
	const struct ptk_arc_index *idx;
	int pos;
	long bad; /* samples that could not be read */
	char err[256];
};

/* Sample id of the archive into s. */
static int feed_load(const struct feed *f, s64 id, struct ptk_snap *s)
{
	int r = ptk_arc_load(f->arc, id, false, s);

	if (r == 0 && ptk_arc_impossible(f->arc)[0])
		warn_add(f->o, s, ptk_arc_impossible(f->arc));
	return r;
}

/* Next readable sample of the archive into s; -ENODATA at the end. */
static int feed_next(struct feed *f, struct ptk_snap *s)
{
	while (f->pos < f->idx->n) {
		int r = feed_load(f, f->idx->id[f->pos++], s);
		if (r == 0)
			return 0;
		f->bad++;
		if (!f->err[0])
			snprintf(f->err, sizeof(f->err), "%s", ptk_arc_errmsg(f->arc));
		return -EIO;
	}
	return -ENODATA;
}

/* One report over the archive window, text/CSV block with its Average. */
static void archive_block(struct sar *o, int ri, struct feed *f)
{
	const struct report *rep = o->rep[ri];
	struct ptk_snap s[3] = { { 0 } }; /* first, and two alternating */
	struct ptk_rows rs = { 0 };
	int cur = 1, prev = -1, first = -1, last = -1, r;
	char t[64];
	bool header = false;

	f->pos = 0;
	ptk_act_avg_free(&o->avg[ri]);
	o->restart = false;
	while ((r = feed_next(f, &s[cur])) != -ENODATA) {
		if (r) {
			prev = -1; /* a hole: the next sample starts over */
			continue;
		}
		if (first < 0) {
			/* keep the very first sample in slot 0 for the Average */
			feed_load(f, s[cur].id, &s[0]);
			first = 0;
		}
		if (prev >= 0 && restarted(&s[prev], &s[cur])) {
			fmt_t(o, s[cur].t_ms, t, sizeof(t));
			if (!o->csv)
				printf("\n%-11s     LINUX RESTART\t(%d CPU)\n", t, s[cur].st.ncpu);
			o->restart = true;
			header = false;
			prev = -1;
		}
		if (prev >= 0) {
			double itv = interval_of(&s[prev], &s[cur]);
			if (!header) {
				fmt_t(o, s[prev].t_ms, t, sizeof(t));
				if (!o->csv)
					putchar('\n');
				print_header(o, rep, t);
				header = true;
			}
			rs.n = 0;
			report_rows(o, ri, &s[prev], &s[cur], itv, &rs);
			fmt_t(o, s[cur].t_ms, t, sizeof(t));
			print_rows(o, rep, t, &rs);
			last = cur;
		}
		prev = cur;
		cur = cur == 1 ? 2 : 1;
	}
	if (last > 0 && first == 0) {
		average_rows(o, ri, &s[0], &s[last], &rs);
		print_rows(o, rep, "Average:", &rs);
	}
	for (int i = 0; i < 3; i++)
		ptk_snap_free(&s[i]);
	ptk_rows_free(&rs);
	ptk_act_avg_free(&o->avg[ri]);
}

/* JSON (archive or live) and live text: every report per interval. */
struct inter {
	struct sar *o;
	struct ptk_snap s[3];
	int cur, prev;
	bool have_first;
	struct ptk_rows rs;
	bool any;
};

static void interval_out(struct inter *it, const struct ptk_snap *p, const struct ptk_snap *c,
			 double itv)
{
	struct sar *o = it->o;
	struct ptk_sink *sk = &o->ctx->sink;
	char t[64], t0[64];

	fmt_t(o, c->t_ms, t, sizeof(t));
	fmt_t(o, p->t_ms, t0, sizeof(t0));
	if (o->ctx->json) {
		ptk_sink_begin(sk);
		ptk_sink_meta_str(sk, "timestamp", t);
		ptk_sink_meta_f64(sk, "interval_s", round(itv * 1000) / 1000);
	}
	for (int ri = 0; ri < o->nrep; ri++) {
		const struct report *rep = o->rep[ri];
		it->rs.n = 0;
		report_rows(o, ri, p, c, itv, &it->rs);
		if (!o->ctx->json && !o->csv && (o->nrep > 1 || !it->any)) {
			putchar('\n');
			print_header(o, rep, t0);
		} else if (o->csv && !it->any) {
			print_header(o, rep, t0);
		}
		print_rows(o, rep, t, &it->rs);
	}
	if (o->ctx->json)
		ptk_sink_end(sk);
	fflush(stdout);
	it->any = true;
}

static void interval_average(struct inter *it, const struct ptk_snap *first,
			     const struct ptk_snap *last)
{
	struct sar *o = it->o;
	struct ptk_sink *sk = &o->ctx->sink;

	if (o->ctx->json) {
		ptk_sink_begin(sk);
		ptk_sink_meta_str(sk, "timestamp", "Average");
		ptk_sink_meta_f64(sk, "interval_s", round(interval_of(first, last) * 1000) / 1000);
	}
	for (int ri = 0; ri < o->nrep; ri++) {
		const struct report *rep = o->rep[ri];
		average_rows(o, ri, first, last, &it->rs);
		if (o->nrep > 1 && !o->csv && !o->ctx->json) {
			putchar('\n');
			print_header(o, rep, "Average:");
		}
		print_rows(o, rep, "Average:", &it->rs);
	}
	if (o->ctx->json)
		ptk_sink_end(sk);
}

static int live_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct inter *it = arg;
	int slot = i == 0 ? 0 : it->cur;
	int r = ptk_snap_read(&ctx->src, &it->s[slot], PTK_SNAP_ALL);

	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, it->s[slot].err_file,
			strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (i > 0) {
		const struct ptk_snap *p = it->prev < 0 ? &it->s[0] : &it->s[it->prev];
		interval_out(it, p, &it->s[slot], itv > 0 ? itv : interval_of(p, &it->s[slot]));
		it->prev = slot;
		it->cur = slot == 1 ? 2 : 1;
	}
	return 0;
}

/* ---- options ------------------------------------------------------------------------------- */

static const char usage[] =
	"usage: ptk sar [-u [ALL]] [-P ALL] [-r] [-S] [-b] [-d] [-n DEV|EDEV|TCP|ETCP] [-q] [-w]\n"
	"               [-W] [-B] [--psi] [-s HH:MM[:SS]] [-e HH:MM[:SS]]\n"
	"               [--from DATETIME --to DATETIME] [--db PATH] [--utc] [--iso]\n"
	"               [--json|--csv] [interval [count]]\n"
	"Reports from the 'ptk record' archive (default " PTK_ARC_DEFAULT_DB ") in sysstat sar's\n"
	"layouts and column names, with Average lines. With interval [count] it samples live.\n"
	"  -u [ALL]   CPU utilization (ALL: %usr %sys %irq %soft %guest %gnice)\n"
	"  -P ALL     per CPU as well          -r   memory        -b   I/O totals\n"
	"  -d         per block device         -q   run queue and load averages\n"
	"  -S         swap space               -n DEV|EDEV|TCP|ETCP|ALL  interfaces, their\n"
	"             errors, TCP, TCP errors (comma list allowed)\n"
	"  -w         task creation and context switches      -W   swapping\n"
	"  -B         paging                   --psi  pressure stall (sar -q CPU,IO,MEM)\n"
	"  -s, -e     start/end time of day (on the day of --from, else of the last sample)\n"
	"  --from, --to  'YYYY-MM-DD HH:MM[:SS]', ISO 8601 with a zone, '@EPOCH', '-2h'\n"
	"  --utc      show (and read) times in UTC instead of local time; --iso: ISO 8601\n"
	"Without an option, -u. Times are stored in UTC: any TZ reads an archive correctly.\n";

enum { OPT_DB = 0x100, OPT_PSI, OPT_FROM, OPT_TO, OPT_UTC, OPT_ISO, OPT_CSV };

/* -n KEYWORD[,KEYWORD...] into want[]. 0, or -EINVAL for an unknown keyword. */
static int net_keywords(const char *arg, bool *want)
{
	static const struct {
		const char *kw;
		int rep;
	} kws[] = { { "DEV", R_NDEV }, { "EDEV", R_EDEV }, { "TCP", R_TCP }, { "ETCP", R_ETCP } };
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0;

	for (char *w = strtok_r(dup, ",", &save); w && !r; w = strtok_r(NULL, ",", &save)) {
		bool all = !strcmp(w, "ALL"), found = all;

		for (size_t k = 0; k < ARRAY_SIZE(kws); k++)
			if (all || !strcmp(w, kws[k].kw))
				want[kws[k].rep] = found = true;
		if (!found)
			r = -EINVAL;
	}
	free(dup);
	return r;
}

static void add_rep(struct sar *o, int r)
{
	for (int i = 0; i < o->nrep; i++)
		if (o->rep[i] == &reports[r])
			return;
	if (o->nrep < (int)ARRAY_SIZE(o->rep))
		o->rep[o->nrep++] = &reports[r];
}

int cmd_sar(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "psi", no_argument, NULL, OPT_PSI },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "utc", no_argument, NULL, OPT_UTC },
		{ "iso", no_argument, NULL, OPT_ISO },
		{ "csv", no_argument, NULL, OPT_CSV },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct sar o = { .ctx = ctx };
	const char *db = NULL, *s_opt = NULL, *e_opt = NULL, *from_s = NULL, *to_s = NULL;
	bool want_u = false, want_p = false, all_u = false;
	bool want[R_N] = { 0 };
	double interval = 0;
	long count = -1;
	bool has_itv = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "u::P:rSbdn:qwWBs:e:", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			want_u = true;
			/* "-u ALL": the optional argument may be the next word */
			if (!optarg && optind < argc && !strcmp(argv[optind], "ALL"))
				optarg = argv[optind++];
			if (optarg) {
				if (strcmp(optarg, "ALL"))
					return ptk_usage_error(ctx, "invalid -u argument '%s'",
							       optarg);
				all_u = true;
			}
			break;
		case 'P':
			if (strcmp(optarg, "ALL"))
				return ptk_usage_error(ctx, "-P takes ALL, not '%s'", optarg);
			want_p = true;
			break;
		case 'r':
			want[R_MEM] = true;
			break;
		case 'b':
			want[R_IO] = true;
			break;
		case 'd':
			want[R_DEV] = true;
			break;
		case 'n':
			if (net_keywords(optarg, want))
				return ptk_usage_error(ctx, "unsupported -n keyword '%s'", optarg);
			break;
		case 'S':
			want[R_SWS] = true;
			break;
		case 'q':
			want[R_Q] = true;
			break;
		case 'w':
			want[R_W] = true;
			break;
		case 'W':
			want[R_SW] = true;
			break;
		case 'B':
			want[R_PG] = true;
			break;
		case 's':
			s_opt = optarg;
			break;
		case 'e':
			e_opt = optarg;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_PSI:
			want[R_PSIC] = want[R_PSII] = want[R_PSIM] = true;
			break;
		case OPT_FROM:
			from_s = optarg;
			break;
		case OPT_TO:
			to_s = optarg;
			break;
		case OPT_UTC:
			o.utc = true;
			break;
		case OPT_ISO:
			o.iso = true;
			break;
		case OPT_CSV:
			o.csv = true;
			break;
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				return 0;
			}
			if (r < 0)
				return ptk_usage_error(ctx, "unknown or incomplete option");
		}
	}
	if (o.csv && ctx->json)
		return ptk_usage_error(ctx, "--json and --csv exclude each other");
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		return r;
	if (has_itv && (db || from_s || to_s || s_opt || e_opt))
		return ptk_usage_error(ctx, "interval/count samples live: no --db, --from, -s, -e");
	o.aopts.per_cpu = want_p;
	{
		bool any = want_u || want_p;
		for (int i = 0; i < R_N; i++)
			any |= want[i];
		if (!any)
			want_u = true; /* as sar: -u by default */
	}
	if (want_u || want_p)
		add_rep(&o, all_u ? R_CPUALL : R_CPU);
	for (int i = 0; i < R_N; i++)
		if (want[i])
			add_rep(&o, i);
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	ctx->sink.prefix_width = 11;
	if (o.iso || o.csv)
		ctx->sink.prefix_width = 26;

	struct inter it = { .o = &o, .cur = 1, .prev = -1 };
	if (has_itv) {
		struct utsname un;
		uname(&un);
		banner(&o, un.sysname, un.release, un.nodename, un.machine,
		       (int)sysconf(_SC_NPROCESSORS_ONLN), ptk_snap_now_ms());
		r = ptk_loop(ctx, interval, count, live_sample, &it);
		if (r == -EINTR || r == 0) {
			if (it.any)
				interval_average(&it, &it.s[0], &it.s[it.prev]);
			r = 0;
		}
		for (int i = 0; i < 3; i++)
			ptk_snap_free(&it.s[i]);
		for (int i = 0; i < o.nrep; i++)
			ptk_act_avg_free(&o.avg[i]);
		ptk_rows_free(&it.rs);
		ptk_rows_free(&o.act_rows);
		return r;
	}

	/* archive */
	char err[PATH_MAX + 256], meta[6][128];
	struct ptk_arc_index idx = { 0 };
	struct feed f = { 0 };
	s64 from = INT64_MIN, to = INT64_MAX;
	if (!db)
		db = PTK_ARC_DEFAULT_DB;
	struct ptk_arc *arc = ptk_arc_open(db, PTK_ARC_RDONLY, err, sizeof(err));
	if (!arc) {
		ptk_err("%s", err);
		ptk_rows_free(&it.rs);
		return PTK_EXIT_RUNTIME;
	}
	r = 0;
	if ((from_s && ptk_arc_parse_time(from_s, o.utc, 0, &from)) ||
	    (to_s && ptk_arc_parse_time(to_s, o.utc, 0, &to))) {
		r = ptk_usage_error(ctx, "invalid --from/--to time");
		goto out_close_arc;
	}
	if (ptk_arc_list(arc, from, to, &idx) < 0) {
		ptk_err("%s: %s", db, ptk_arc_errmsg(arc));
		r = PTK_EXIT_RUNTIME;
		goto out_close_arc;
	}
	if (s_opt || e_opt || (!from_s && !to_s)) {
		/* times of day on one day: that of --from, else of the last sample */
		s64 ref = from_s ? from : idx.n ? idx.t_ms[idx.n - 1] : ptk_snap_now_ms();
		s64 day0, s = INT64_MIN, e = INT64_MAX;
		if (ptk_arc_parse_time("00:00:00", o.utc, ref, &day0) ||
		    (s_opt && ptk_arc_parse_time(s_opt, o.utc, ref, &s)) ||
		    (e_opt && ptk_arc_parse_time(e_opt, o.utc, ref, &e))) {
			r = ptk_usage_error(ctx, "invalid -s/-e time (HH:MM[:SS])");
			goto out_close_arc;
		}
		if (e_opt)
			e += 999; /* -e HH:MM:SS takes the whole second */
		if (!s_opt && !from_s)
			s = day0;
		if (!e_opt && !to_s)
			e = day0 + 86400000LL + 3600000LL; /* to the end of the day (DST-safe) */
		int k = 0;
		for (int i = 0; i < idx.n; i++)
			if (idx.t_ms[i] >= s && idx.t_ms[i] <= e && idx.t_ms[i] >= from &&
			    idx.t_ms[i] <= to) {
				idx.id[k] = idx.id[i];
				idx.t_ms[k++] = idx.t_ms[i];
			}
		idx.n = k;
	}
	ptk_arc_meta(arc, "sysname", meta[0], sizeof(meta[0]));
	ptk_arc_meta(arc, "release", meta[1], sizeof(meta[1]));
	ptk_arc_meta(arc, "hostname", meta[2], sizeof(meta[2]));
	ptk_arc_meta(arc, "machine", meta[3], sizeof(meta[3]));
	ptk_arc_meta(arc, "ncpu", meta[4], sizeof(meta[4]));
	f.o = &o;
	f.arc = arc;
	int ncpu;
	if (ptk_parse_int(meta[4], &ncpu) || ncpu < 1 || ncpu > PTK_MAX_CPUS) {
		/* the CPUs of the first sample instead */
		ncpu = 0;
		if (idx.n && ptk_arc_load(arc, idx.id[0], false, &it.s[0]) == 0)
			for (int i = 0; i < it.s[0].st.ncpu; i++)
				ncpu += it.s[0].st.present[i];
		ptk_warn("%s: meta ncpu '%s' is impossible: %d CPU%s, as the first sample has", db,
			 meta[4], ncpu, ncpu == 1 ? "" : "s");
	}
	banner(&o, meta[0][0] ? meta[0] : "Linux", meta[1], meta[2], meta[3], ncpu,
	       idx.n ? idx.t_ms[0] : ptk_snap_now_ms());
	f.idx = &idx;
	if (ctx->json) {
		/* interleaved: one object per interval with every report */
		int slot = 1, prev = -1, first = -1, last = -1;
		while ((r = feed_next(&f, &it.s[slot])) != -ENODATA) {
			if (r) {
				prev = -1;
				continue;
			}
			if (first < 0) {
				feed_load(&f, it.s[slot].id, &it.s[0]);
				first = 0;
			}
			if (prev >= 0 && restarted(&it.s[prev], &it.s[slot])) {
				o.restart = true;
				prev = -1;
			}
			if (prev >= 0) {
				interval_out(&it, &it.s[prev], &it.s[slot],
					     interval_of(&it.s[prev], &it.s[slot]));
				last = slot;
			}
			prev = slot;
			slot = slot == 1 ? 2 : 1;
		}
		if (last > 0)
			interval_average(&it, &it.s[0], &it.s[last]);
		r = 0;
	} else {
		for (int ri = 0; ri < o.nrep; ri++)
			archive_block(&o, ri, &f);
		r = 0;
	}
	fflush(stdout);
	warn_flush(&o);
	if (idx.damaged || f.bad) {
		ptk_err("%s: %s: %ld of %d listed samples unreadable%s; printed what could be read",
			db, f.err[0] ? f.err : ptk_arc_errmsg(arc), f.bad / MAX(o.nrep, 1), idx.n,
			idx.damaged ? ", samples past the damage may be missing" : "");
		r = PTK_EXIT_RUNTIME;
	} else if (idx.n < 2 && !ctx->json) {
		ptk_err("%s: %d sample(s) in the window: nothing to report", db, idx.n);
		r = PTK_EXIT_RUNTIME;
	}
out_close_arc:
	for (int i = 0; i < 3; i++)
		ptk_snap_free(&it.s[i]);
	for (int i = 0; i < o.nrep; i++)
		ptk_act_avg_free(&o.avg[i]);
	ptk_rows_free(&it.rs);
	ptk_rows_free(&o.act_rows);
	ptk_arc_index_free(&idx);
	ptk_arc_close(arc);
	return r;
}
