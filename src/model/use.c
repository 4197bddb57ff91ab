// SPDX-License-Identifier: GPL-2.0
/*
 * ptk check's measurements (model/use.h): a window of two snapshots and the 1 s samples
 * between them, turned into one USE row per resource whose verdicts come from the rules
 * table (model/rules.c).
 */
#include "model/use.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cli.h"
#include "model/cgroup.h"
#include "model/runq.h"
#include "model/delta.h"
#include "model/ptask.h"
#include "source/bpf/taskscan.h"

#define TOP_N PTK_USE_TOP_N

static int cmp_int_key(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* ---- rows ------------------------------------------------------------------------------ */
static struct ptk_use_row *row_new(struct ptk_use_rows *rs, const char *resource,
				   const char *device)
{
	if (rs->n >= (int)ARRAY_SIZE(rs->r))
		return NULL;
	struct ptk_use_row *r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	r->resource = resource;
	snprintf(r->device, sizeof(r->device), "%s", device ? device : "");
	return r;
}

/* Add value x of metric id to one column of a row and to the rule inputs rv. */
static void mval_add(struct ptk_use_mval *a, int *n, enum ptk_mid id, struct ptk_val x,
		     struct ptk_rule_vals *rv)
{
	const struct ptk_metric *m = &ptk_registry[id];

	if (*n < PTK_USE_MAXV)
		a[(*n)++] = (struct ptk_use_mval){ m, x };
	if (!rv)
		return;
	if (x.na)
		rv->v[id] = NAN;
	else
		rv->v[id] = m->type == PTK_V_U64 ? (double)x.u : x.f;
}
#define UTIL(r, id, x) mval_add((r)->util, &(r)->nu, PTK_M_CHECK_##id, x, &rv)
#define SAT(r, id, x) mval_add((r)->sat, &(r)->ns, PTK_M_CHECK_##id, x, &rv)
#define ERR(r, id, x) mval_add((r)->err, &(r)->ne, PTK_M_CHECK_##id, x, &rv)
#define IN(id) rv.v[PTK_M_CHECK_##id]

static void add_evidence(struct ptk_use_row *r, enum ptk_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_evidence(struct ptk_use_row *r, enum ptk_verdict v, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (v > r->verdict)
		r->verdict = v;
	if (r->nev >= (int)ARRAY_SIZE(r->evidence))
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		r->evidence[r->nev++] = s;
}

static void next_cmd(struct ptk_use_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void next_cmd(struct ptk_use_row *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nnext >= (int)ARRAY_SIZE(r->next))
		return;
	va_start(ap, fmt);
	vsnprintf(r->next[r->nnext++], sizeof(r->next[0]), fmt, ap);
	va_end(ap);
}

void ptk_use_apply(struct ptk_use_row *r, enum ptk_rule_group g, const struct ptk_rule_vals *rv,
		   const char *const str[2])
{
	char buf[512];

	for (int i = 0; i < ptk_nrules; i++) {
		const struct ptk_rule *rule = &ptk_rules[i];
		if (rule->group != g)
			continue;
		enum ptk_rule_level lv = ptk_rule_eval(rule, rv);
		if (lv == PTK_RULE_QUIET)
			continue;
		ptk_rule_evidence(rule, lv, rv, str, buf, sizeof(buf));
		add_evidence(r, (enum ptk_verdict)lv, "%s", buf);
	}
}

/* ---- analysis ------------------------------------------------------------------------- */
static double psi_stall_pct(const struct ptk_use *s, int res, bool full)
{
	const struct ptk_psi_line *a = full ? &s->a.psi[res].full : &s->a.psi[res].some;
	const struct ptk_psi_line *b = full ? &s->b.psi[res].full : &s->b.psi[res].some;

	if (!s->a.has_psi[res] || !s->b.has_psi[res] || !a->present || !b->present || s->dur <= 0)
		return NAN;
	double p = ptk_delta(a->total_us, b->total_us) / (s->dur * 1e6) * 100.0;
	return p > 100.0 ? 100.0 : p;
}

static struct ptk_val fval(double x)
{
	return isnan(x) ? PTK_NA : PTK_F(x);
}

struct proc_delta {
	const struct ptk_task *t;
	double cpu_pct, majflt_s, io_bps, rss_bytes;
};

static int cmp_score(const void *x, const void *y)
{
	const struct ptk_use_offender *a = x, *b = y;

	return (a->score < b->score) - (a->score > b->score);
}

/* The top TOP_N processes by the field at metric_off of pd[], above min_score. */
static void add_offenders(struct ptk_use_row *r, struct proc_delta *pd, int n, int metric_off,
			  const char *kind, double min_score, enum ptk_mid id)
{
	struct ptk_use_offender tmp[TOP_N];
	int k = 0;

	r->offender_kind = kind;
	for (int i = 0; i < n; i++) {
		double score = *(double *)((char *)&pd[i] + metric_off);
		if (!(score > min_score))
			continue;
		struct ptk_use_offender o = {
			.pid = pd[i].t->pid, .score = score, .m = &ptk_registry[id], .value = score
		};
		snprintf(o.comm, sizeof(o.comm), "%s", pd[i].t->comm);
		if (k < TOP_N) {
			tmp[k++] = o;
		} else if (score > tmp[TOP_N - 1].score) {
			tmp[TOP_N - 1] = o;
		} else {
			continue;
		}
		qsort(tmp, k, sizeof(*tmp), cmp_score);
	}
	for (int i = 0; i < k && r->noff < (int)ARRAY_SIZE(r->off); i++)
		r->off[r->noff++] = tmp[i];
}

enum offender_kind { OFF_CPU, OFF_MEMORY, OFF_IO };

static void offenders_of(struct ptk_use_row *r, struct proc_delta *pd, int n,
			 enum offender_kind kind)
{
	switch (kind) {
	case OFF_CPU:
		add_offenders(r, pd, n, offsetof(struct proc_delta, cpu_pct), "cpu", 0.5,
			      PTK_M_CHECK_OFF_CPU);
		break;
	case OFF_MEMORY:
		add_offenders(r, pd, n, offsetof(struct proc_delta, majflt_s), "memory", 0.0,
			      PTK_M_CHECK_OFF_MAJFLT);
		add_offenders(r, pd, n, offsetof(struct proc_delta, rss_bytes), "memory", 0.0,
			      PTK_M_CHECK_OFF_RSS);
		break;
	case OFF_IO:
		add_offenders(r, pd, n, offsetof(struct proc_delta, io_bps), "io", 0.0,
			      PTK_M_CHECK_OFF_IO);
		break;
	}
}

/* D-state threads with their wchan, as offenders (score = 1 each, grouped by tgid). */
static void dstate_offenders(struct ptk_use_row *r, const struct ptk_use *s)
{
	for (int i = 0; i < s->threads.n && r->noff < (int)ARRAY_SIZE(r->off); i++) {
		const struct ptk_task *t = &s->threads.t[i];
		if (t->state != 'D')
			continue;
		struct ptk_use_offender *o = &r->off[r->noff++];
		memset(o, 0, sizeof(*o));
		o->pid = t->pid;
		snprintf(o->comm, sizeof(o->comm), "%s", t->comm);
		snprintf(o->what, sizeof(o->what), "D state in %s (tgid %d)",
			 t->wchan[0] ? t->wchan : "?", t->tgid);
		o->score = 1;
	}
	if (!r->offender_kind)
		r->offender_kind = "D state";
}

static bool snap_both(const struct ptk_use *s, enum ptk_snap_part p)
{
	return ptk_snap_has(&s->a, p) && ptk_snap_has(&s->b, p);
}

/* What the cgroup rows tell the host rows (model/rules.c's cgroup inputs). */
struct cg_facts {
	int throttled_n; /* cgroups throttled at the warning share or more */
	int memlimit_n; /* cgroups at their memory limit (events, OOM kills, memory stalls) */
	double oom_kills; /* OOM kills the cgroups' own counters count, each once */
	bool known; /* the cgroups were read at both ends of the window */
};

/* ---- cgroups ------------------------------------------------------------------------------ */

/* The rules of the cgroup group that fired on rv, as bits of their index in the group. */
static unsigned cg_rules_fired(const struct ptk_rule_vals *rv, enum ptk_rule_level min,
			       enum ptk_mid metric)
{
	unsigned bits = 0;

	for (int i = 0, k = 0; i < ptk_nrules; i++) {
		const struct ptk_rule *rule = &ptk_rules[i];
		if (rule->group != PTK_RG_CGROUP)
			continue;
		if ((!metric || rule->metric == metric) && ptk_rule_eval(rule, rv) >= min)
			bits |= 1u << k;
		k++;
	}
	return bits;
}

/* Bits of the cgroup rules on pressure, which a parent shares with its children. */
static unsigned cg_psi_bits(void)
{
	unsigned bits = 0;

	for (int i = 0, k = 0; i < ptk_nrules; i++) {
		const struct ptk_rule *rule = &ptk_rules[i];
		if (rule->group != PTK_RG_CGROUP)
			continue;
		if (rule->metric >= PTK_M_CG_PSI_CPU_SOME && rule->metric <= PTK_M_CG_PSI_IO_FULL)
			bits |= 1u << k;
		k++;
	}
	return bits;
}

struct cg_cand {
	int row; /* in the cgroup rows */
	unsigned fired; /* rules at warning or above */
	enum ptk_verdict verdict;
	struct ptk_rule_vals rv;
};

static const enum ptk_mid cg_ins[] = {
	PTK_M_CG_CPU_PCT,     PTK_M_CG_QUOTA,	     PTK_M_CG_PERIODS,	    PTK_M_CG_THROTTLED,
	PTK_M_CG_THR_PCT,     PTK_M_CG_THR_S,	     PTK_M_CG_WSET,	    PTK_M_CG_LIMIT_PCT,
	PTK_M_CG_EV_HIGH,     PTK_M_CG_EV_MAX,	     PTK_M_CG_EV_OOM_KILL,  PTK_M_CG_RBPS,
	PTK_M_CG_WBPS,	      PTK_M_CG_PSI_CPU_SOME, PTK_M_CG_PSI_MEM_SOME, PTK_M_CG_PSI_MEM_FULL,
	PTK_M_CG_PSI_IO_SOME, PTK_M_CG_PSI_IO_FULL,
};

/* One cgroup's rule inputs; events less what its direct children count (memory events are
 * hierarchical: a parent counts its descendants'). */
static void cg_vals(const struct ptk_cg_row *rows, int n, int i, bool v2events, double host_idle,
		    struct ptk_rule_vals *rv)
{
	static const enum ptk_mid ev[] = { PTK_M_CG_EV_HIGH, PTK_M_CG_EV_MAX,
					   PTK_M_CG_EV_OOM_KILL };

	ptk_rule_vals_init(rv);
	for (size_t k = 0; k < ARRAY_SIZE(cg_ins); k++)
		rv->v[cg_ins[k]] = ptk_cg_row_value(&rows[i], cg_ins[k]);
	rv->v[PTK_M_CHECK_HOST_IDLE] = host_idle;
	for (size_t k = 0; k < ARRAY_SIZE(ev); k++) {
		double own = rv->v[ev[k]], kids = 0;
		/* v1 memory.failcnt is the cgroup's own page counter's: not hierarchical */
		if (isnan(own) || (ev[k] == PTK_M_CG_EV_MAX && !v2events))
			continue;
		for (int j = 0; j < n; j++) {
			double x = ptk_cg_row_value(&rows[j], ev[k]);
			if (rows[j].cur->parent == i && !isnan(x))
				kids += x;
		}
		rv->v[ev[k]] = own > kids ? own - kids : 0;
	}
}

static bool cg_under(const char *path, const char *parent)
{
	size_t l = strlen(parent);

	return !strcmp(parent, "/") ? strcmp(path, "/") != 0 :
				      !strncmp(path, parent, l) && path[l] == '/';
}

static void human(double b, char *buf, size_t size)
{
	if (isnan(b))
		snprintf(buf, size, "unknown");
	else if (isinf(b))
		snprintf(buf, size, "max");
	else
		ptk_human_bytes((u64)b, buf, size, false);
}

/* The cgroup's tasks among the window's processes, as offenders of kind. */
static void cg_offenders(struct ptk_use *s, struct ptk_use_row *r, const char *path,
			 struct proc_delta *pd, int npd, enum offender_kind kind)
{
	int *pids = NULL, n = 0, m = 0;

	if (ptk_cg_procs(s->src, path, &pids, &n) || !n) {
		free(pids);
		return;
	}
	struct proc_delta *in = xcalloc(n, sizeof(*in));
	for (int i = 0; i < npd; i++)
		if (bsearch(&pd[i].t->pid, pids, n, sizeof(int), cmp_int_key))
			in[m++] = pd[i];
	offenders_of(r, in, m, kind);
	if (r->noff) {
		char list[96] = "";
		size_t off = 0;
		for (int i = 0; i < r->noff && i < 5; i++)
			off += snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
					"%s%d", i ? "," : "", r->off[i].pid);
		static const char *const opt[] = { "-u", "-r", "-d" };
		next_cmd(r, "ptk pidstat %s -p %s 1 5", opt[kind], list);
	}
	free(in);
	free(pids);
}

/* Candidate rows for the cgroups that are not ok, and the facts the host rows need. */
static int analyse_cgroups(struct ptk_use *s, struct ptk_cg_row **rowsp, struct cg_cand **candp,
			   struct cg_facts *cf)
{
	memset(cf, 0, sizeof(*cf));
	*rowsp = NULL;
	*candp = NULL;
	if (s->err_cg || s->cgb.layout == PTK_CG_NONE || !s->cgb.n || !s->cga.n)
		return 0;
	cf->known = true;
	struct ptk_cg_row *rows = xcalloc(s->cgb.n, sizeof(*rows));
	struct cg_cand *cand = xcalloc(s->cgb.n, sizeof(*cand));
	int n = ptk_cg_rows(&s->cga, &s->cgb, rows), nc = 0;
	double pct[PTK_CPU_NSTATES];
	ptk_cpu_pct(&s->a.st.all, &s->b.st.all, pct);
	double idle = 100.0 - ptk_cpu_busy(pct);
	bool v2events = s->cgb.layout == PTK_CG_V2;
	unsigned psi = cg_psi_bits();

	for (int i = 0; i < n; i++) {
		struct cg_cand *c = &cand[nc];
		if (!strcmp(rows[i].cur->path, "/") || !rows[i].prev)
			continue; /* the host's rows judge the root; a new cgroup has no window */
		cg_vals(rows, n, i, v2events, idle, &c->rv);
		c->fired = cg_rules_fired(&c->rv, PTK_RULE_WARN, PTK_M_NONE);
		if (!c->fired)
			continue;
		c->row = i;
		cf->throttled_n += cg_rules_fired(&c->rv, PTK_RULE_WARN, PTK_M_CG_THR_PCT) != 0;
		cf->memlimit_n +=
			(cg_rules_fired(&c->rv, PTK_RULE_WARN, PTK_M_CG_EV_OOM_KILL) |
			 cg_rules_fired(&c->rv, PTK_RULE_WARN, PTK_M_CG_EV_MAX) |
			 cg_rules_fired(&c->rv, PTK_RULE_WARN, PTK_M_CG_EV_HIGH) |
			 cg_rules_fired(&c->rv, PTK_RULE_WARN, PTK_M_CG_PSI_MEM_FULL)) != 0;
		nc++;
	}
	for (int i = 0; i < n; i++) {
		struct ptk_rule_vals rv;
		if (!strcmp(rows[i].cur->path, "/") || !rows[i].prev)
			continue;
		cg_vals(rows, n, i, v2events, idle, &rv);
		if (!isnan(rv.v[PTK_M_CG_EV_OOM_KILL]))
			cf->oom_kills += rv.v[PTK_M_CG_EV_OOM_KILL];
	}
	/* a parent flagged only for the pressure of a flagged child is that child's row */
	for (int i = 0; i < nc; i++) {
		unsigned kids = 0;
		if (cand[i].fired & ~psi)
			continue;
		for (int j = 0; j < nc; j++)
			if (j != i &&
			    cg_under(rows[cand[j].row].cur->path, rows[cand[i].row].cur->path))
				kids |= cand[j].fired;
		if ((cand[i].fired & ~kids) == 0)
			cand[i].fired = 0;
	}
	*rowsp = rows;
	*candp = cand;
	return nc;
}

/* The rows of the cgroups that are not ok, after the host's. */
static void cgroup_rows(struct ptk_use *s, struct ptk_use_rows *rs, struct ptk_cg_row *rows,
			struct cg_cand *cand, int nc, struct proc_delta *pd, int npd)
{
	for (int i = 0; i < nc; i++) {
		const struct ptk_cg_row *cr = &rows[cand[i].row];
		struct ptk_rule_vals rv = cand[i].rv;
		if (!cand[i].fired)
			continue;
		struct ptk_use_row *r = row_new(rs, "cgroup", cr->cur->path);
		if (!r)
			break;
		snprintf(r->owner, sizeof(r->owner), "%s", cr->owner);
		r->ident = cr->ident;
#define CGV_U(id) mval_add(r->util, &r->nu, id, fval(rv.v[id]), NULL)
#define CGV_S(id) mval_add(r->sat, &r->ns, id, fval(rv.v[id]), NULL)
#define CGV_E(id) mval_add(r->err, &r->ne, id, fval(rv.v[id]), NULL)
		CGV_U(PTK_M_CG_CPU_PCT);
		if (isfinite(rv.v[PTK_M_CG_QUOTA]))
			CGV_U(PTK_M_CG_QUOTA);
		CGV_U(PTK_M_CG_WSET);
		if (!isnan(rv.v[PTK_M_CG_LIMIT_PCT]))
			CGV_U(PTK_M_CG_LIMIT_PCT);
		CGV_U(PTK_M_CG_RBPS);
		CGV_U(PTK_M_CG_WBPS);
		CGV_S(PTK_M_CG_THR_PCT);
		CGV_S(PTK_M_CG_THR_S);
		CGV_S(PTK_M_CG_PSI_CPU_SOME);
		CGV_S(PTK_M_CG_PSI_MEM_SOME);
		CGV_S(PTK_M_CG_PSI_IO_SOME);
		CGV_E(PTK_M_CG_EV_HIGH);
		CGV_E(PTK_M_CG_EV_MAX);
		CGV_E(PTK_M_CG_EV_OOM_KILL);
#undef CGV_U
#undef CGV_S
#undef CGV_E
		char ws[32], lim[48], rd[32], wr[32];
		human(cr->wset, ws, sizeof(ws));
		human(cr->mem_limit, lim, sizeof(lim) - 3);
		char lims[64];
		snprintf(lims, sizeof(lims), " (%s)", lim);
		const char *str[2] = { ws, lims };
		bool io = cg_rules_fired(&rv, PTK_RULE_WARN, PTK_M_CG_PSI_IO_FULL) != 0;
		if (io) {
			human(cr->rbps, rd, sizeof(rd));
			human(cr->wbps, wr, sizeof(wr));
			str[0] = rd;
			str[1] = wr;
		}
		if (cr->owner[0])
			add_evidence(r, PTK_VERDICT_OK, "%s", cr->owner);
		for (int k = 0; k < ptk_nrules; k++) {
			const struct ptk_rule *rule = &ptk_rules[k];
			char buf[512];
			if (rule->group != PTK_RG_CGROUP)
				continue;
			enum ptk_rule_level lv = ptk_rule_eval(rule, &rv);
			if (lv == PTK_RULE_QUIET)
				continue;
			bool this_io = rule->metric == PTK_M_CG_PSI_IO_FULL;
			const char *st[2] = { this_io ? str[0] : ws, this_io ? str[1] : lims };
			ptk_rule_evidence(rule, lv, &rv, st, buf, sizeof(buf));
			add_evidence(r, (enum ptk_verdict)lv, "%s", buf);
		}
		enum offender_kind kind = OFF_CPU;
		if (io)
			kind = OFF_IO;
		else if (cg_rules_fired(&rv, PTK_RULE_WARN, PTK_M_CG_EV_OOM_KILL) |
			 cg_rules_fired(&rv, PTK_RULE_WARN, PTK_M_CG_EV_MAX) |
			 cg_rules_fired(&rv, PTK_RULE_WARN, PTK_M_CG_EV_HIGH) |
			 cg_rules_fired(&rv, PTK_RULE_WARN, PTK_M_CG_PSI_MEM_FULL))
			kind = OFF_MEMORY;
		next_cmd(r, "ptk cgtop -b -n 5 -d 1 --depth -1 %s", cr->cur->path);
		cg_offenders(s, r, cr->cur->path, pd, npd, kind);
	}
}

static void analyse_cpu(struct ptk_use *s, struct ptk_use_rows *rs, struct proc_delta *pd, int npd,
			const struct cg_facts *cf)
{
	struct ptk_use_row *r = row_new(rs, "cpu", NULL);
	struct ptk_rule_vals rv;
	double pct[PTK_CPU_NSTATES], busy, maxb = -1, others = 0;
	int maxcpu = -1, nothers = 0;

	ptk_rule_vals_init(&rv);
	IN(NCPU) = s->ncpu_online;
	IN(CG_THROTTLED_N) = cf->throttled_n;
	ptk_cpu_pct(&s->a.st.all, &s->b.st.all, pct);
	busy = ptk_cpu_busy(pct);
	UTIL(r, BUSY, PTK_F(busy));
	UTIL(r, USER, PTK_F(pct[PTK_CPU_USER] + pct[PTK_CPU_NICE]));
	UTIL(r, SYS, PTK_F(pct[PTK_CPU_SYSTEM] + pct[PTK_CPU_IRQ] + pct[PTK_CPU_SOFTIRQ]));
	UTIL(r, IOWAIT, PTK_F(pct[PTK_CPU_IOWAIT]));
	UTIL(r, STEAL, PTK_F(pct[PTK_CPU_STEAL]));
	int nb = MIN(s->a.st.ncpu, s->b.st.ncpu);
	double *cb = xcalloc(nb ? nb : 1, sizeof(double));
	for (int c = 0; c < nb; c++) {
		double p[PTK_CPU_NSTATES];
		cb[c] = -1;
		if (!s->a.st.present[c] || !s->b.st.present[c])
			continue;
		ptk_cpu_pct(&s->a.st.cpu[c], &s->b.st.cpu[c], p);
		cb[c] = ptk_cpu_busy(p);
		if (cb[c] > maxb) {
			maxb = cb[c];
			maxcpu = c;
		}
	}
	for (int c = 0; c < nb; c++) {
		if (c != maxcpu && cb[c] >= 0) {
			others += cb[c];
			nothers++;
		}
	}
	free(cb);
	if (maxcpu >= 0)
		UTIL(r, MAXCPU, PTK_F(maxb));
	IN(MAXCPU_ID) = maxcpu;
	if (s->ncpu_online > 1 && nothers)
		IN(OTHERS_BUSY) = others / nothers;
	double runq = s->ticks ? s->runq_sum / s->ticks : NAN;
	double per = s->ncpu_online ? runq / s->ncpu_online : NAN;
	SAT(r, RUNQ_PER_CPU, fval(per));
	/* second, so the table's saturation cell shows it: what the queue cost the waiters */
	if (s->have_watch) {
		u64 p99 = ptk_hist_pct_le(&s->wres.runq, 99);
		SAT(r, RUNQLAT_P99, ptk_hist_total(&s->wres.runq) ? PTK_U(p99) : PTK_NA);
		IN(RUNQLAT_P99) = ptk_hist_total(&s->wres.runq) ? (double)p99 : NAN;
	}
	SAT(r, RUNQ, fval(runq));
	SAT(r, PSI_SOME, fval(psi_stall_pct(s, PTK_PSI_CPU, false)));
	if (ptk_snap_has(&s->b, PTK_SNAP_LOADAVG))
		SAT(r, LOAD1, PTK_F(s->b.la.load1));
	double forks = s->dur > 0 ? ptk_delta(s->a.st.processes, s->b.st.processes) / s->dur : 0;
	UTIL(r, FORKS, PTK_F(forks));
	if (s->have_watch)
		UTIL(r, SHORTLIVED, PTK_U(s->wres.shortlived));
	ptk_use_apply(r, PTK_RG_CPU, &rv, NULL);
	offenders_of(r, pd, npd, OFF_CPU);
	next_cmd(r, "ptk mpstat -P ALL 1 5");
	next_cmd(r, "ptk vmstat 1 5");
}

static int kmsg_match(const struct ptk_use *s, int kind, const char *dev, const char *text,
		      bool window);

static void analyse_memory(struct ptk_use *s, struct ptk_use_rows *rs, struct proc_delta *pd,
			   int npd, const struct cg_facts *cf)
{
	struct ptk_use_row *r = row_new(rs, "memory", NULL);
	const struct ptk_meminfo *mi = &s->b.mi;
	double d = s->dur > 0 ? s->dur : 1;
	struct ptk_rule_vals rv;

	if (!ptk_snap_has(&s->b, PTK_SNAP_MEMINFO)) {
		add_evidence(r, PTK_VERDICT_OK, "could not read /proc/meminfo: %s",
			     strerror(-s->b.err[PTK_SNAP_MEMINFO]));
		return;
	}
	ptk_rule_vals_init(&rv);
	double used = mi->mem_total ?
			      100.0 * (mi->mem_total - MIN(mi->mem_available, mi->mem_total)) /
				      mi->mem_total :
			      0;
	r->estimated = !mi->has_available;
	IN(MEM_AVAIL_PCT) = 100.0 - used;
	UTIL(r, MEM_USED, PTK_F(used));
	UTIL(r, MEM_AVAIL, PTK_F((double)mi->mem_available * 1024));
	UTIL(r, SWAP_USED,
	     mi->swap_total ? PTK_F(100.0 * (mi->swap_total - MIN(mi->swap_free, mi->swap_total)) /
				    mi->swap_total) :
			      PTK_NA);
	u64 ooms = 0;
	if (snap_both(s, PTK_SNAP_VMSTAT)) {
		double si = ptk_delta(s->a.vm.pswpin, s->b.vm.pswpin) / d;
		double so = ptk_delta(s->a.vm.pswpout, s->b.vm.pswpout) / d;
		SAT(r, SWAPIN, PTK_F(si));
		SAT(r, SWAPOUT, PTK_F(so));
		SAT(r, PGSCAN_DIRECT,
		    PTK_F(ptk_delta(s->a.vm.pgscan_direct, s->b.vm.pgscan_direct) / d));
		SAT(r, MAJFLT, PTK_F(ptk_delta(s->a.vm.pgmajfault, s->b.vm.pgmajfault) / d));
		IN(SWAP_BPS) = (si + so) * sysconf(_SC_PAGESIZE);
		ooms = ptk_delta(s->a.vm.oom_kill, s->b.vm.oom_kill);
	}
	SAT(r, PSI_SOME, fval(psi_stall_pct(s, PTK_PSI_MEMORY, false)));
	SAT(r, PSI_FULL, fval(psi_stall_pct(s, PTK_PSI_MEMORY, true)));
	ERR(r, OOM, s->b.vm.has_oom_kill ? PTK_U(ooms) : PTK_NA);
	IN(OOM) = ooms;
	/* OOM kills that the kernel log puts inside a memory cgroup are the cgroup's limit */
	int cg_ooms = kmsg_match(s, PTK_KMSG_OOM, NULL, "Memory cgroup", true);
	IN(OOM_HOST) = s->err_km == 0 && (u64)cg_ooms >= ooms ? 0 : ooms;
	/* ... and those the cgroups count themselves have their own rows */
	IN(OOM_CG_UNSEEN) = cf->known && cf->oom_kills >= ooms ? 0 : ooms;
	IN(CG_MEMLIMIT_N) = cf->memlimit_n;
	IN(MEM_PSI_HOST) = cf->memlimit_n == 0 || IN(MEM_AVAIL_PCT) < 20 ? IN(PSI_SOME) : NAN;
	const char *str[2] = { r->estimated ? " (estimated)" : "", NULL };
	ptk_use_apply(r, PTK_RG_MEMORY, &rv, str);
	if (r->estimated)
		add_evidence(r, PTK_VERDICT_OK,
			     "available memory is estimated: /proc/meminfo has no MemAvailable "
			     "(kernel before 3.14), as free flags it");
	offenders_of(r, pd, npd, OFF_MEMORY);
	next_cmd(r, "ptk free -w");
	next_cmd(r, "ptk vmstat 1 5");
	next_cmd(r, "ptk pressure 1 5");
}

static bool disk_has_io(const struct ptk_disk *d)
{
	return d->f[PTK_DK_RD_IOS] || d->f[PTK_DK_WR_IOS] || d->f[PTK_DK_DC_IOS];
}

bool ptk_use_names_disk(const char *msg, const char *dev)
{
	size_t l = strlen(dev);
	bool ends_digit = l && dev[l - 1] >= '0' && dev[l - 1] <= '9';

	for (const char *p = strstr(msg, dev); p; p = strstr(p + 1, dev)) {
		const char *q = p + l;
		if (p > msg && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9')))
			continue; /* "xvda" is not "vda" */
		if (ends_digit && *q == 'p' && q[1] >= '0' && q[1] <= '9')
			return true; /* nvme0n1p2 */
		if (*q >= 'a' && *q <= 'z')
			continue;
		if (ends_digit && *q >= '0' && *q <= '9')
			continue;
		return true;
	}
	return false;
}

/* Kernel log events of a kind, since boot or inside the window, optionally only those naming
 * a disk (dev) or containing a text. */
static int kmsg_match(const struct ptk_use *s, int kind, const char *dev, const char *text,
		      bool window)
{
	int n = 0;
	double from_us = s->a.up.up_s * 1e6;

	for (int i = 0; i < s->km.n; i++) {
		const struct ptk_kmsg_event *e = &s->km.ev[i];
		if ((int)e->kind != kind || (window && e->ts_us < from_us))
			continue;
		if ((dev && !ptk_use_names_disk(e->msg, dev)) || (text && !strstr(e->msg, text)))
			continue;
		n++;
	}
	return n;
}

static void analyse_disks(struct ptk_use *s, struct ptk_use_rows *rs, struct proc_delta *pd,
			  int npd)
{
	struct ptk_use_row *busiest = NULL;
	double busiest_util = -1;
	struct ptk_rule_vals rv;

	if (!ptk_snap_has(&s->b, PTK_SNAP_DISKSTATS)) {
		struct ptk_use_row *r = row_new(rs, "disk", NULL);
		add_evidence(r, PTK_VERDICT_OK, "could not read /proc/diskstats: %s",
			     strerror(-s->b.err[PTK_SNAP_DISKSTATS]));
		return;
	}
	for (int i = 0; i < s->b.ds.n; i++) {
		const struct ptk_disk *nd = &s->b.ds.d[i], *od;
		struct ptk_disk_rates dr;

		if (nd->is_partition || !disk_has_io(nd))
			continue;
		od = ptk_diskstats_find(&s->a.ds, nd->name);
		if (!od)
			continue; /* appeared during the window */
		struct ptk_use_row *r = row_new(rs, "disk", nd->name);
		if (!r)
			break;
		ptk_rule_vals_init(&rv);
		ptk_disk_rates(od, nd, s->dur, &dr);
		int rot = s->b.rot[i];
		UTIL(r, DISK_UTIL, PTK_F(dr.util));
		UTIL(r, DISK_RS, PTK_F(dr.r_s));
		UTIL(r, DISK_WS, PTK_F(dr.w_s));
		UTIL(r, DISK_RKB, PTK_F(dr.rkb_s));
		UTIL(r, DISK_WKB, PTK_F(dr.wkb_s));
		SAT(r, DISK_AQU, PTK_F(dr.aqu_sz));
		SAT(r, DISK_RAWAIT, PTK_F(dr.r_await));
		SAT(r, DISK_WAWAIT, PTK_F(dr.w_await));
		int errs = kmsg_match(s, PTK_KMSG_IO_ERROR, nd->name, NULL, true);
		ERR(r, DISK_IOERR, s->err_km ? PTK_NA : PTK_U(errs));
		IN(DISK_IOERR_BOOT) = kmsg_match(s, PTK_KMSG_IO_ERROR, nd->name, NULL, false);
		r->partial = s->err_km != 0;
		IN(DISK_AWAIT) = MAX(dr.r_await, dr.w_await);
		/* virtio-blk and xen-blkfront report rotational=1 whatever is behind them (often
		 * SSD or network storage serving requests in parallel): %util alone is no
		 * evidence of saturation there */
		if (rot == 1 && (!strncmp(nd->name, "vd", 2) || !strncmp(nd->name, "xvd", 3)))
			rot = -1;
		IN(DISK_ROT) = rot;
		const char *str[2] = { nd->name, rot == 0 ? "non-rotational" :
							    "virtual: rotational flag unreliable" };
		ptk_use_apply(r, PTK_RG_DISK, &rv, str);
		if (dr.util > busiest_util) {
			busiest_util = dr.util;
			busiest = r;
		}
		next_cmd(r, "ptk iostat -x 1 5 %s", nd->name);
	}
	if (busiest) {
		ptk_rule_vals_init(&rv);
		SAT(busiest, PSI_SOME, fval(psi_stall_pct(s, PTK_PSI_IO, false)));
		SAT(busiest, PSI_FULL, fval(psi_stall_pct(s, PTK_PSI_IO, true)));
		ptk_use_apply(busiest, PTK_RG_DISK_PSI, &rv, NULL);
	}
	for (int i = 0; i < rs->n; i++) {
		struct ptk_use_row *r = &rs->r[i];
		if (strcmp(r->resource, "disk") || r->verdict == PTK_VERDICT_OK)
			continue;
		offenders_of(r, pd, npd, OFF_IO);
		dstate_offenders(r, s);
	}
}

/* The delta of an SNMP counter over the window, NAN when either snapshot lacks it. */
static double snmp_delta(const struct ptk_use *s, const char *key)
{
	s64 a, b;

	if (!ptk_kvs_get(&s->a.kvs, key, &a) || !ptk_kvs_get(&s->b.kvs, key, &b))
		return NAN;
	return ptk_delta(a, b);
}

static void analyse_net(struct ptk_use *s, struct ptk_use_rows *rs)
{
	double d = s->dur > 0 ? s->dur : 1;
	struct ptk_rule_vals rv;

	for (int i = 0; ptk_snap_has(&s->b, PTK_SNAP_NETDEV) && i < s->b.nd.n; i++) {
		const struct ptk_netdev *n = &s->b.nd.d[i], *o;
		if (!strcmp(n->name, "lo") || !(n->f[PTK_ND_RX_BYTES] || n->f[PTK_ND_TX_BYTES]))
			continue; /* loopback, or never used since boot */
		o = ptk_netdev_find(&s->a.nd, n->name);
		if (!o)
			continue;
		struct ptk_use_row *r = row_new(rs, "network", n->name);
		if (!r)
			break;
		ptk_rule_vals_init(&rv);
		u64 dv[PTK_ND_NFIELDS];
		for (int k = 0; k < PTK_ND_NFIELDS; k++)
			dv[k] = ptk_delta(o->f[k], n->f[k]);
		double rx = dv[PTK_ND_RX_BYTES] / d, tx = dv[PTK_ND_TX_BYTES] / d;
		double util = NAN;
		/* full duplex: the busier direction; unknown speed: unknown, as nicstat */
		if (s->b.speed[i] > 0)
			util = MIN(100.0 * MAX(rx, tx) * 8 / (s->b.speed[i] * 1e6), 100.0);
		UTIL(r, NET_UTIL, fval(util));
		UTIL(r, NET_RXKB, PTK_F(rx / 1024));
		UTIL(r, NET_TXKB, PTK_F(tx / 1024));
		double drops = (dv[PTK_ND_RX_DROP] + dv[PTK_ND_TX_DROP] + dv[PTK_ND_RX_FIFO] +
				dv[PTK_ND_TX_FIFO]) /
			       d;
		double errs = (dv[PTK_ND_RX_ERRS] + dv[PTK_ND_TX_ERRS] + dv[PTK_ND_RX_FRAME] +
			       dv[PTK_ND_TX_CARRIER] + dv[PTK_ND_TX_COLLS]) /
			      d;
		SAT(r, NET_DROPS, PTK_F(drops));
		ERR(r, NET_ERRS, PTK_F(errs));
		ptk_use_apply(r, PTK_RG_NET, &rv, NULL);
		next_cmd(r, "ptk nicstat -i %s 1 5", n->name);
	}
	if (!snap_both(s, PTK_SNAP_SNMP))
		return;
	struct ptk_use_row *r = row_new(rs, "network", "tcp");
	if (!r)
		return;
	/* a counter this kernel does not have is unknown (null), never 0 */
	ptk_rule_vals_init(&rv);
	double out = snmp_delta(s, "Tcp.OutSegs"), re = snmp_delta(s, "Tcp.RetransSegs");
	double ld = snmp_delta(s, "TcpExt.ListenDrops");
	double rst = snmp_delta(s, "Tcp.EstabResets") + snmp_delta(s, "Tcp.OutRsts");
	double ie = snmp_delta(s, "Tcp.InErrs") + snmp_delta(s, "Tcp.InCsumErrors");
	IN(TCP_OUT_SEGS) = out;
	IN(TCP_RETRANS_SEGS) = re;
	UTIL(r, TCP_RETRANS, fval(re / d));
	SAT(r, TCP_RETRANS_PCT, fval(isnan(out) || isnan(re) ? NAN : out ? 100.0 * re / out : 0));
	SAT(r, TCP_LISTEN_DROPS, isnan(ld) ? PTK_NA : PTK_U((u64)ld));
	SAT(r, TCP_RESETS, fval(rst / d));
	ERR(r, TCP_INERRS, isnan(ie) ? PTK_NA : PTK_U((u64)ie));
	ptk_use_apply(r, PTK_RG_TCP, &rv, NULL);
	next_cmd(r, "ptk nicstat -t 1 5");
}

static void analyse_kernel(struct ptk_use *s, struct ptk_use_rows *rs)
{
	struct ptk_use_row *r = row_new(rs, "kernel", NULL);
	double dst = s->ticks ? s->dstate_sum / s->ticks : NAN;
	double dthr = (s->dthreads_a + s->dthreads_b) / 2.0;
	static const int kinds[] = { PTK_KMSG_OOM, PTK_KMSG_IO_ERROR, PTK_KMSG_HUNG_TASK,
				     PTK_KMSG_SOFT_LOCKUP };
	static const enum ptk_mid mets[] = { PTK_M_CHECK_KOOM, PTK_M_CHECK_KIOERR, PTK_M_CHECK_HUNG,
					     PTK_M_CHECK_LOCKUP };
	bool want_mem = false, want_io = false, want_stack = false;
	struct ptk_rule_vals rv;

	ptk_rule_vals_init(&rv);
	if (!s->err_threads && (isnan(dst) || dthr > dst))
		dst = dthr;
	if (s->dthreads_b > s->dstate_max)
		s->dstate_max = s->dthreads_b;
	SAT(r, DSTATE, fval(dst));
	SAT(r, DSTATE_MAX, PTK_F(s->dstate_max));
	if (s->err_km) {
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++)
			mval_add(r->err, &r->ne, mets[k], PTK_NA, NULL);
		ERR(r, KOOM_BOOT, PTK_NA);
		r->partial = true;
		add_evidence(r, PTK_VERDICT_OK, "kernel log not readable (%s)%s",
			     strerror(-s->err_km),
			     s->err_km == -EPERM || s->err_km == -EACCES ?
				     ": needs CAP_SYSLOG or kernel.dmesg_restrict=0" :
				     "");
	}
	for (size_t k = 0; !s->err_km && k < ARRAY_SIZE(kinds); k++) {
		struct ptk_rule_vals kv;
		int win = kmsg_match(s, kinds[k], NULL, NULL, true);
		int boot = kmsg_match(s, kinds[k], NULL, NULL, false);
		double last = 0;
		const char *msg = "";
		char msg100[101];

		mval_add(r->err, &r->ne, mets[k], PTK_U(win), NULL);
		if (kinds[k] == PTK_KMSG_OOM)
			ERR(r, KOOM_BOOT, PTK_U(boot));
		want_mem |= boot && kinds[k] == PTK_KMSG_OOM;
		want_io |= boot && kinds[k] == PTK_KMSG_IO_ERROR;
		want_stack |= boot && kinds[k] == PTK_KMSG_HUNG_TASK;
		/* the most recent one, with its age */
		for (int i = 0; i < s->km.n; i++)
			if ((int)s->km.ev[i].kind == kinds[k] && s->km.ev[i].ts_us / 1e6 >= last) {
				last = s->km.ev[i].ts_us / 1e6;
				msg = s->km.ev[i].msg;
			}
		snprintf(msg100, sizeof(msg100), "%s", msg);
		ptk_rule_vals_init(&kv);
		kv.v[PTK_M_CHECK_KLOG_WINDOW] = win;
		kv.v[PTK_M_CHECK_KLOG_BOOT] = boot;
		if (boot)
			kv.v[PTK_M_CHECK_KLOG_AGE] = s->b.up.up_s - last;
		const char *str[2] = { ptk_kmsg_kind_name[kinds[k]], msg100 };
		ptk_use_apply(r, PTK_RG_KLOG, &kv, str);
	}
	IN(NCPU) = s->ncpu_online;
	ptk_use_apply(r, PTK_RG_KERNEL, &rv, NULL);
	if (r->verdict != PTK_VERDICT_OK)
		dstate_offenders(r, s);
	/* the next step follows what fired */
	int dpid = 0;
	for (int i = 0; i < s->threads.n && !dpid; i++)
		if (s->threads.t[i].state == 'D')
			dpid = s->threads.t[i].tgid;
	if (want_mem) {
		next_cmd(r, "ptk free -w");
		next_cmd(r, "ptk top -b -n 1 -o %%MEM");
	}
	if (want_io)
		next_cmd(r, "ptk iostat -x 1 5");
	if ((want_stack || dst >= 1.0) && dpid)
		next_cmd(r, "ptk pstack %d", dpid);
	else if (dst >= 1.0)
		next_cmd(r, "ptk iostat -x 1 5");
	if (!r->nnext)
		next_cmd(r, "ptk uptime");
}

/* ---- sampling ------------------------------------------------------------------------- */
static void tick(struct ptk_use *s, const struct ptk_stat *st)
{
	/* runq-sz, as sar: without the reader (ptk itself live, whoever read a tree) */
	s->runq_sum += (double)ptk_act_runq_sz(st->procs_running);
	s->dstate_sum += st->procs_blocked;
	if (st->procs_blocked > s->dstate_max)
		s->dstate_max = st->procs_blocked;
	s->ticks++;
}

/* procs_blocked counts only tasks in I/O wait; a D-state storm (fsfreeze, NFS, a stuck
 * mutex_lock) shows in the task states, so both are counted. */
static int count_d(const struct ptk_ptab *pt)
{
	int n = 0;

	for (int i = 0; i < pt->n; i++)
		n += pt->t[i].state == 'D';
	return n;
}

/* The 1 s samples of /proc/stat between the two snapshots. */
static int sample_between(struct ptk_use *s)
{
	struct ptk_src *src = s->src;

	if (src->replay) {
		/* the window: snapshot 0 to the last one within -d seconds of it, and always at
		 * least one step */
		int first = src->snap, end = first + 1;
		if (ptk_src_remaining(src) < 2) {
			ptk_err("%s: a window needs at least two snapshots, found %d", src->procfs,
				ptk_src_remaining(src));
			return PTK_EXIT_RUNTIME;
		}
		for (int i = first + 2; i < src->nsnap; i++) {
			struct ptk_uptime up;
			src->snap = i;
			if (ptk_uptime_read(src, &up) || up.up_s - s->a.up.up_s > s->want_s + 0.5)
				break;
			end = i;
		}
		for (int i = first + 1; i < end; i++) {
			struct ptk_stat st = { 0 };
			src->snap = i;
			if (ptk_stat_read(src, &st) == 0)
				tick(s, &st);
			ptk_stat_free(&st);
		}
		src->snap = end;
		return 0;
	}
	u64 t0 = ptk_now_ns();
	int n = (int)ceil(s->want_s);
	for (int i = 1; i <= n; i++) {
		u64 at = t0 + (u64)(MIN((double)i, s->want_s) * 1e9);
		if (s->countdown)
			s->countdown(n - i + 1);
		if (ptk_sleep_until(at, s->stop))
			break;
		if (i < n) {
			struct ptk_stat st = { 0 };
			if (ptk_stat_read(src, &st) == 0)
				tick(s, &st);
			ptk_stat_free(&st);
		}
	}
	if (s->countdown)
		s->countdown(-1);
	if (*s->stop && !s->quiet)
		ptk_warn("interrupted: reporting the %.1f s sampled so far",
			 (ptk_now_ns() - t0) / 1e9);
	return 0;
}

/* The BPF counts of the window. */
static void watch_end(struct ptk_use *s)
{
	if (s->watch) {
		s->have_watch = ptk_cpuwatch_read(s->watch, &s->wres) == 0;
		ptk_cpuwatch_stop(s->watch);
		s->watch = NULL;
	} else if (s->shared_watch && !s->err_watch) {
		/* the shared programs count since they were attached: keep the window's part */
		struct ptk_cpuwatch_result *w = &s->wres, *w0 = &s->wres0;
		s->have_watch = ptk_cpuwatch_read(s->shared_watch, w) == 0;
		for (int i = 0; i < PTK_HIST_SLOTS; i++)
			w->runq.slot[i] = ptk_delta(w0->runq.slot[i], w->runq.slot[i]);
		w->forks = ptk_delta(w0->forks, w->forks);
		w->execs = ptk_delta(w0->execs, w->execs);
		w->exits = ptk_delta(w0->exits, w->exits);
		w->shortlived = ptk_delta(w0->shortlived, w->shortlived);
		w->bpf_run_ns = ptk_delta(w0->bpf_run_ns, w->bpf_run_ns);
		w->bpf_run_cnt = ptk_delta(w0->bpf_run_cnt, w->bpf_run_cnt);
	}
}

/*
 * The process table at the end of the window: processes with their I/O, and threads with the
 * wchan of those in D state. With the task iterator, one iteration serves both (the same
 * instant); else two /proc scans.
 */
static void scan_end(struct ptk_use *s, struct ptk_taskscan *ts)
{
	if (ts) {
		s->err_pb = s->err_threads =
			ptk_taskscan_scan_both(ts, PTK_PT_IO | PTK_PT_DSTATE, &s->pb, &s->threads);
		if (!s->err_threads)
			ptk_ptab_wchan_d(s->src, &s->threads);
		return;
	}
	s->err_pb = ptk_ptab_scan(s->src, PTK_PT_IO, &s->pb);
	s->err_threads =
		ptk_ptab_scan(s->src, PTK_PT_THREADS | PTK_PT_WCHAN | PTK_PT_DSTATE, &s->threads);
}

static int window(struct ptk_use *s, struct ptk_taskscan *ts)
{
	struct ptk_src *src = s->src;
	int r;

	s->live = ptk_src_is_live(src);
	s->hz = sysconf(_SC_CLK_TCK);
	if (s->shared_watch)
		s->err_watch = ptk_cpuwatch_read(s->shared_watch, &s->wres0);
	else if (s->live && !src->replay)
		s->err_watch = ptk_cpuwatch_start(&s->watch);
	else
		s->err_watch = -ENOTSUP;
	if ((r = ptk_snap_read(src, &s->a, PTK_USE_SNAP_PARTS))) {
		ptk_err("cannot read %s/%s: %s", src->procfs, s->a.err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	/* only the files of the values the cgroup rules and rows use */
	s->cga.want = s->cgb.want = ptk_cg_want(cg_ins, ARRAY_SIZE(cg_ins));
	s->err_cg = ptk_cg_read(src, &s->cga, -1);
	s->err_pa = ptk_taskscan_or_proc(ts, src, PTK_PT_IO, NULL, 0, &s->pa);
	/* the first scan sees processes (their main thread's state): cheap, and a storm of
	 * D-state tasks shows in it as well as in the thread scan at the end */
	if (!s->err_pa)
		s->dthreads_a = count_d(&s->pa);
	s->self_pid = s->live ? (int)getpid() : 0;
	if (src->replay) {
		char buf[32];
		if (ptk_src_read(src, PTK_PROC, PTK_CAPTURE_MARKER, buf, sizeof(buf)) > 0)
			s->capture_pid = atoi(buf);
	}
	tick(s, &s->a.st);
	if ((r = sample_between(s)))
		return r;
	watch_end(s);
	if ((r = ptk_snap_read(src, &s->b, PTK_USE_SNAP_PARTS))) {
		ptk_err("cannot read %s/%s: %s", src->procfs, s->b.err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	tick(s, &s->b.st);
	if (!s->err_cg)
		s->err_cg = ptk_cg_read(src, &s->cgb, -1);
	scan_end(s, ts);
	if (!s->err_threads)
		s->dthreads_b = count_d(&s->threads);
	s->err_km = ptk_kmsg_read(src, &s->km);
	s->dur = s->b.up.up_s - s->a.up.up_s;
	if (src->replay && s->dur <= 0) {
		ptk_err("%s: snapshots %d and %d are %.2f s apart: not one boot's capture in order",
			src->procfs, 0, src->snap, s->dur);
		return PTK_EXIT_RUNTIME;
	}
	s->ncpu_online = 0;
	for (int i = 0; i < s->b.online_n; i++)
		s->ncpu_online += s->b.online[i];
	if (s->ncpu_online == 0)
		for (int i = 0; i < s->b.st.ncpu; i++)
			s->ncpu_online += s->b.st.present[i];
	return 0;
}

int ptk_use_window(struct ptk_use *s)
{
	/* the task iterator as root on a live system: loading it costs less than reading
	 * stat and io of every process twice and stat of every thread once, even at 100 */
	struct ptk_taskscan *ts = ptk_taskscan_auto(s->src, 0);
	int r = window(s, ts);

	ptk_taskscan_close(ts);
	return r;
}

/* Per-process rates over the window, from the shared per-task model (model/ptask.h). */
static int build_proc_deltas(struct ptk_use *s, struct proc_delta **out)
{
	struct ptk_task_rate *tr = xcalloc(s->pb.n ? s->pb.n : 1, sizeof(*tr));
	struct proc_delta *pd = xcalloc(s->pb.n ? s->pb.n : 1, sizeof(*pd));
	long pagesz = sysconf(_SC_PAGESIZE);
	int n = 0;

	ptk_task_rates(&s->pa, &s->pb, s->dur, s->hz, s->a.up.up_s, s->ncpu_online, tr);
	for (int i = 0; i < s->pb.n; i++) {
		if (tr[i].cur->pid == s->self_pid || tr[i].cur->pid == s->capture_pid)
			continue; /* the observer is not an offender */
		struct proc_delta *p = &pd[n++];
		p->t = tr[i].cur;
		p->rss_bytes = (double)tr[i].cur->rss_pages * pagesz;
		if (!tr[i].valid)
			continue; /* existed before the window but missed by the first scan */
		p->cpu_pct = tr[i].cpu_pct;
		p->majflt_s = tr[i].majflt_s;
		if (tr[i].io_ok)
			p->io_bps = (tr[i].rkb_s + tr[i].wkb_s) * 1024;
	}
	free(tr);
	*out = pd;
	return n;
}

struct ptk_use_rows *ptk_use_analyse(struct ptk_use *s)
{
	struct ptk_use_rows *rs = xcalloc(1, sizeof(*rs));
	struct proc_delta *pd;
	int npd = build_proc_deltas(s, &pd);

	struct ptk_cg_row *cgrows;
	struct cg_cand *cand;
	struct cg_facts cf;
	int nc = analyse_cgroups(s, &cgrows, &cand, &cf);

	analyse_cpu(s, rs, pd, npd, &cf);
	analyse_memory(s, rs, pd, npd, &cf);
	analyse_disks(s, rs, pd, npd);
	analyse_net(s, rs);
	analyse_kernel(s, rs);
	cgroup_rows(s, rs, cgrows, cand, nc, pd, npd);
	free(cgrows);
	free(cand);
	free(pd);
	return rs;
}

void ptk_use_rows_free(struct ptk_use_rows *rs)
{
	if (!rs)
		return;
	for (int i = 0; i < rs->n; i++)
		for (int k = 0; k < rs->r[i].nev; k++)
			free(rs->r[i].evidence[k]);
	free(rs);
}

void ptk_use_free(struct ptk_use *s)
{
	ptk_snap_free(&s->a);
	ptk_snap_free(&s->b);
	ptk_cg_free(&s->cga);
	ptk_cg_free(&s->cgb);
	ptk_cpuwatch_stop(s->watch);
	s->watch = NULL;
	ptk_ptab_free(&s->pa);
	ptk_ptab_free(&s->pb);
	ptk_ptab_free(&s->threads);
	ptk_kmsg_free(&s->km);
}

int ptk_use_verdicts(struct ptk_src *src, volatile int *stop, double window_s,
		     struct ptk_cpuwatch *watch, struct ptk_use_verdict *out, int max)
{
	struct ptk_use s = {
		.src = src, .stop = stop, .want_s = window_s, .shared_watch = watch, .quiet = true
	};
	struct ptk_use_rows *rs;
	int n = 0;

	if (ptk_use_window(&s)) {
		ptk_use_free(&s);
		return -EIO;
	}
	rs = ptk_use_analyse(&s);
	for (int i = 0; i < rs->n && n < max; i++) {
		out[n].resource = rs->r[i].resource;
		snprintf(out[n].device, sizeof(out[n].device), "%s", rs->r[i].device);
		out[n].verdict = rs->r[i].verdict;
		n++;
	}
	ptk_use_rows_free(rs);
	ptk_use_free(&s);
	return n;
}
