// SPDX-License-Identifier: GPL-2.0
/* The per-cgroup model (model/cgroup.h): rates and levels of every cgroup between two
 * snapshots, and cgtop's order. */
#include "model/cgroup.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/delta.h"

const char *const ptk_cg_sort_name[PTK_CGS_N] = {
	[PTK_CGS_PATH] = "path",	 [PTK_CGS_TASKS] = "tasks", [PTK_CGS_CPU] = "cpu",
	[PTK_CGS_MEMORY] = "memory",	 [PTK_CGS_IO] = "io",	    [PTK_CGS_THROTTLE] = "throttle",
	[PTK_CGS_PRESSURE] = "pressure",
};

int ptk_cg_sort_parse(const char *s, enum ptk_cg_sort *out)
{
	for (int i = 0; i < PTK_CGS_N; i++)
		if (!strcmp(s, ptk_cg_sort_name[i])) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

static double lvl(const struct ptk_cgroup *c, enum ptk_cg_val v)
{
	return c && ptk_cg_has(c, v) ? (double)c->v[v] : NAN;
}

/* A limit: INFINITY for "max". */
static double limit(const struct ptk_cgroup *c, enum ptk_cg_val v)
{
	if (!c || !ptk_cg_has(c, v))
		return NAN;
	return c->v[v] == PTK_CG_MAX ? INFINITY : (double)c->v[v];
}

/* The delta of counter v between a and b, NAN when either lacks it. */
static double dlt(const struct ptk_cgroup *a, const struct ptk_cgroup *b, enum ptk_cg_val v)
{
	if (!a || !b || !ptk_cg_has(a, v) || !ptk_cg_has(b, v))
		return NAN;
	return (double)ptk_delta(a->v[v], b->v[v]);
}

double ptk_cg_working_set(const struct ptk_cgroup *c)
{
	double use = lvl(c, PTK_CGV_MEM_CURRENT), inact = lvl(c, PTK_CGV_MEM_INACTIVE_FILE);

	if (isnan(use))
		return NAN;
	if (isnan(inact))
		return use;
	return inact < use ? use - inact : 0;
}

static void io_sum(const struct ptk_cgroup *c, double s[4])
{
	s[0] = s[1] = s[2] = s[3] = 0;
	for (int i = 0; i < c->nio; i++) {
		s[0] += c->io[i].rbytes;
		s[1] += c->io[i].wbytes;
		s[2] += c->io[i].rios;
		s[3] += c->io[i].wios;
	}
}

static void row_fill(struct ptk_cg_row *r, const struct ptk_cgroup *a, const struct ptk_cgroup *b,
		     double dt)
{
	bool rate = a && dt > 0;

	memset(r, 0, sizeof(*r));
	r->cur = b;
	r->prev = a;
	ptk_cg_identify(b->path, &r->ident);
	ptk_cg_ident_short(&r->ident, r->owner, sizeof(r->owner));
	/* CPU */
	double d = rate ? dlt(a, b, PTK_CGV_CPU_USAGE_NS) : NAN;
	r->cpu_pct = d / 1e9 / dt * 100;
	r->user_pct = rate ? dlt(a, b, PTK_CGV_CPU_USER_NS) / 1e9 / dt * 100 : NAN;
	r->sys_pct = rate ? dlt(a, b, PTK_CGV_CPU_SYSTEM_NS) / 1e9 / dt * 100 : NAN;
	double q = limit(b, PTK_CGV_CPU_QUOTA_US), per = lvl(b, PTK_CGV_CPU_PERIOD_US);
	r->quota_cpus = isinf(q) ? INFINITY : per > 0 ? q / per : NAN;
	r->quota_pct =
		isfinite(r->quota_cpus) && r->quota_cpus > 0 ? r->cpu_pct / r->quota_cpus : NAN;
	r->periods = rate ? dlt(a, b, PTK_CGV_CPU_PERIODS) : NAN;
	r->throttled = rate ? dlt(a, b, PTK_CGV_CPU_THROTTLED) : NAN;
	/* no period elapsed: nothing ran under the quota, none throttled */
	r->throttled_pct = isnan(r->periods) || isnan(r->throttled) ? NAN :
			   r->periods > 0 ? 100 * r->throttled / r->periods :
					    0;
	r->throttled_s = rate ? dlt(a, b, PTK_CGV_CPU_THROTTLED_NS) / 1e9 / dt : NAN;
	/* memory */
	r->mem = lvl(b, PTK_CGV_MEM_CURRENT);
	r->wset = ptk_cg_working_set(b);
	r->anon = lvl(b, PTK_CGV_MEM_ANON);
	r->file = lvl(b, PTK_CGV_MEM_FILE);
	r->swap = lvl(b, PTK_CGV_MEM_SWAP);
	r->peak = lvl(b, PTK_CGV_MEM_PEAK);
	r->mem_max = limit(b, PTK_CGV_MEM_MAX);
	r->mem_high = limit(b, PTK_CGV_MEM_HIGH);
	r->mem_low = limit(b, PTK_CGV_MEM_LOW);
	r->mem_limit = isnan(r->mem_high) ? r->mem_max :
		       isnan(r->mem_max)  ? r->mem_high :
					    MIN(r->mem_max, r->mem_high);
	r->mem_limit_pct =
		isfinite(r->mem_limit) && r->mem_limit > 0 ? 100 * r->wset / r->mem_limit : NAN;
	r->ev_high = rate ? dlt(a, b, PTK_CGV_MEM_EV_HIGH) : NAN;
	r->ev_max = rate ? dlt(a, b, PTK_CGV_MEM_EV_MAX) : NAN;
	r->ev_oom = rate ? dlt(a, b, PTK_CGV_MEM_EV_OOM) : NAN;
	r->ev_oom_kill = rate ? dlt(a, b, PTK_CGV_MEM_EV_OOM_KILL) : NAN;
	r->majflt_s = rate ? dlt(a, b, PTK_CGV_MEM_PGMAJFAULT) / dt : NAN;
	/* I/O */
	if (rate && a->has_io && b->has_io) {
		double x[4], y[4];
		io_sum(a, x);
		io_sum(b, y);
		r->rbps = (y[0] >= x[0] ? y[0] - x[0] : 0) / dt;
		r->wbps = (y[1] >= x[1] ? y[1] - x[1] : 0) / dt;
		r->riops = (y[2] >= x[2] ? y[2] - x[2] : 0) / dt;
		r->wiops = (y[3] >= x[3] ? y[3] - x[3] : 0) / dt;
	} else {
		r->rbps = r->wbps = r->riops = r->wiops = NAN;
	}
	r->tasks = lvl(b, PTK_CGV_PIDS_CURRENT);
	r->tasks_max = limit(b, PTK_CGV_PIDS_MAX);
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		const struct ptk_psi *pa = a && a->has_psi[k] ? &a->psi[k] : NULL;
		const struct ptk_psi *pb = b->has_psi[k] ? &b->psi[k] : NULL;
		r->psi_some[k] = r->psi_full[k] = NAN;
		if (!rate || !pa || !pb)
			continue;
		if (pa->some.present && pb->some.present)
			r->psi_some[k] =
				MIN(100.0, ptk_delta(pa->some.total_us, pb->some.total_us) /
						   (dt * 1e6) * 100);
		if (pa->full.present && pb->full.present)
			r->psi_full[k] =
				MIN(100.0, ptk_delta(pa->full.total_us, pb->full.total_us) /
						   (dt * 1e6) * 100);
	}
}

int ptk_cg_rows(const struct ptk_cgsnap *a, const struct ptk_cgsnap *b, struct ptk_cg_row *rows)
{
	double dt = a ? b->up_s - a->up_s : 0;

	for (int i = 0; i < b->n; i++)
		row_fill(&rows[i], a ? ptk_cg_find(a, b->cg[i].path) : NULL, &b->cg[i], dt);
	return b->n;
}

double ptk_cg_row_value(const struct ptk_cg_row *r, enum ptk_mid id)
{
	switch (id) {
	case PTK_M_CG_TASKS:
		return r->tasks;
	case PTK_M_CG_TASKS_MAX:
		return r->tasks_max;
	case PTK_M_CG_CPU_PCT:
		return r->cpu_pct;
	case PTK_M_CG_USER_PCT:
		return r->user_pct;
	case PTK_M_CG_SYS_PCT:
		return r->sys_pct;
	case PTK_M_CG_QUOTA:
		return r->quota_cpus;
	case PTK_M_CG_PERIOD_US:
		return lvl(r->cur, PTK_CGV_CPU_PERIOD_US);
	case PTK_M_CG_QUOTA_PCT:
		return r->quota_pct;
	case PTK_M_CG_PERIODS:
		return r->periods;
	case PTK_M_CG_THROTTLED:
		return r->throttled;
	case PTK_M_CG_THR_PCT:
		return r->throttled_pct;
	case PTK_M_CG_THR_S:
		return r->throttled_s;
	case PTK_M_CG_MEM:
		return r->mem;
	case PTK_M_CG_WSET:
		return r->wset;
	case PTK_M_CG_RSS:
		return r->anon;
	case PTK_M_CG_CACHE:
		return r->file;
	case PTK_M_CG_SWAP:
		return r->swap;
	case PTK_M_CG_PEAK:
		return r->peak;
	case PTK_M_CG_MEM_MAX:
		return r->mem_max;
	case PTK_M_CG_MEM_HIGH:
		return r->mem_high;
	case PTK_M_CG_MEM_LOW:
		return r->mem_low;
	case PTK_M_CG_LIMIT_PCT:
		return r->mem_limit_pct;
	case PTK_M_CG_EV_HIGH:
		return r->ev_high;
	case PTK_M_CG_EV_MAX:
	case PTK_M_CG_FAILCNT:
		return r->ev_max;
	case PTK_M_CG_EV_OOM:
		return r->ev_oom;
	case PTK_M_CG_EV_OOM_KILL:
		return r->ev_oom_kill;
	case PTK_M_CG_MAJFLT:
		return r->majflt_s;
	case PTK_M_CG_RBPS:
		return r->rbps;
	case PTK_M_CG_WBPS:
		return r->wbps;
	case PTK_M_CG_RIOPS:
		return r->riops;
	case PTK_M_CG_WIOPS:
		return r->wiops;
	case PTK_M_CG_PSI_CPU_SOME:
		return r->psi_some[PTK_PSI_CPU];
	case PTK_M_CG_PSI_CPU_FULL:
		return r->psi_full[PTK_PSI_CPU];
	case PTK_M_CG_PSI_MEM_SOME:
		return r->psi_some[PTK_PSI_MEMORY];
	case PTK_M_CG_PSI_MEM_FULL:
		return r->psi_full[PTK_PSI_MEMORY];
	case PTK_M_CG_PSI_IO_SOME:
		return r->psi_some[PTK_PSI_IO];
	case PTK_M_CG_PSI_IO_FULL:
		return r->psi_full[PTK_PSI_IO];
	default:
		return NAN;
	}
}

#define W(v) PTK_CGW(PTK_CGV_##v)

u64 ptk_cg_want(const enum ptk_mid *ids, int n)
{
	u64 w = 0;

	for (int i = 0; i < n; i++) {
		switch (ids[i]) {
		case PTK_M_CG_TASKS:
			w |= W(PIDS_CURRENT);
			break;
		case PTK_M_CG_TASKS_MAX:
			w |= W(PIDS_MAX);
			break;
		case PTK_M_CG_CPU_PCT:
			w |= W(CPU_USAGE_NS);
			break;
		case PTK_M_CG_USER_PCT:
			w |= W(CPU_USER_NS);
			break;
		case PTK_M_CG_SYS_PCT:
			w |= W(CPU_SYSTEM_NS);
			break;
		case PTK_M_CG_QUOTA:
		case PTK_M_CG_PERIOD_US:
			w |= W(CPU_QUOTA_US) | W(CPU_PERIOD_US);
			break;
		case PTK_M_CG_QUOTA_PCT:
			w |= W(CPU_USAGE_NS) | W(CPU_QUOTA_US) | W(CPU_PERIOD_US);
			break;
		case PTK_M_CG_PERIODS:
			w |= W(CPU_PERIODS);
			break;
		case PTK_M_CG_THROTTLED:
			w |= W(CPU_THROTTLED);
			break;
		case PTK_M_CG_THR_PCT:
			w |= W(CPU_PERIODS) | W(CPU_THROTTLED);
			break;
		case PTK_M_CG_THR_S:
			w |= W(CPU_THROTTLED_NS);
			break;
		case PTK_M_CG_MEM:
			w |= W(MEM_CURRENT);
			break;
		case PTK_M_CG_WSET:
			w |= W(MEM_CURRENT) | W(MEM_INACTIVE_FILE);
			break;
		case PTK_M_CG_RSS:
			w |= W(MEM_ANON);
			break;
		case PTK_M_CG_CACHE:
			w |= W(MEM_FILE);
			break;
		case PTK_M_CG_SWAP:
			w |= W(MEM_SWAP);
			break;
		case PTK_M_CG_PEAK:
			w |= W(MEM_PEAK);
			break;
		case PTK_M_CG_MEM_MAX:
			w |= W(MEM_MAX);
			break;
		case PTK_M_CG_MEM_HIGH:
			w |= W(MEM_HIGH);
			break;
		case PTK_M_CG_MEM_LOW:
			w |= W(MEM_LOW);
			break;
		case PTK_M_CG_LIMIT_PCT:
			w |= W(MEM_CURRENT) | W(MEM_INACTIVE_FILE) | W(MEM_MAX) | W(MEM_HIGH);
			break;
		case PTK_M_CG_EV_HIGH:
			w |= W(MEM_EV_HIGH);
			break;
		case PTK_M_CG_EV_MAX:
		case PTK_M_CG_FAILCNT:
			w |= W(MEM_EV_MAX);
			break;
		case PTK_M_CG_EV_OOM:
			w |= W(MEM_EV_OOM);
			break;
		case PTK_M_CG_EV_OOM_KILL:
			w |= W(MEM_EV_OOM_KILL);
			break;
		case PTK_M_CG_MAJFLT:
			w |= W(MEM_PGMAJFAULT);
			break;
		case PTK_M_CG_RBPS:
		case PTK_M_CG_WBPS:
			w |= PTK_CGW_IO_BYTES;
			break;
		case PTK_M_CG_RIOPS:
		case PTK_M_CG_WIOPS:
			w |= PTK_CGW_IO_IOS;
			break;
		case PTK_M_CG_PSI_CPU_SOME:
		case PTK_M_CG_PSI_CPU_FULL:
			w |= PTK_CGW_PSI(PTK_PSI_CPU);
			break;
		case PTK_M_CG_PSI_MEM_SOME:
		case PTK_M_CG_PSI_MEM_FULL:
			w |= PTK_CGW_PSI(PTK_PSI_MEMORY);
			break;
		case PTK_M_CG_PSI_IO_SOME:
		case PTK_M_CG_PSI_IO_FULL:
			w |= PTK_CGW_PSI(PTK_PSI_IO);
			break;
		default:
			break;
		}
	}
	return w;
}
#undef W

/* ---- order -------------------------------------------------------------------------------- */

static double key_of(const struct ptk_cg_row *r, enum ptk_cg_sort k)
{
	double x;

	switch (k) {
	case PTK_CGS_TASKS:
		x = r->tasks;
		break;
	case PTK_CGS_CPU:
		x = r->cpu_pct;
		break;
	case PTK_CGS_MEMORY:
		x = r->mem;
		break;
	case PTK_CGS_IO:
		x = r->rbps + r->wbps;
		break;
	case PTK_CGS_THROTTLE:
		x = r->throttled_pct;
		break;
	case PTK_CGS_PRESSURE:
		x = MAX(isnan(r->psi_some[0]) ? -1 : r->psi_some[0],
			MAX(isnan(r->psi_some[1]) ? -1 : r->psi_some[1],
			    isnan(r->psi_some[2]) ? -1 : r->psi_some[2]));
		break;
	default:
		x = 0;
	}
	return isnan(x) ? -1 : x;
}

struct sort_ctx {
	const struct ptk_cg_row *rows;
	enum ptk_cg_sort key;
};
static __thread struct sort_ctx sctx;

static int cmp_rows(const void *x, const void *y)
{
	const struct ptk_cg_row *a = &sctx.rows[*(const int *)x], *b = &sctx.rows[*(const int *)y];

	if (sctx.key != PTK_CGS_PATH) {
		double ka = key_of(a, sctx.key), kb = key_of(b, sctx.key);
		if (ka != kb)
			return ka < kb ? 1 : -1;
	}
	return strcmp(a->cur->path, b->cur->path);
}

static int emit(const struct ptk_cg_row *rows, int n, int node, int max_depth, const int *kids,
		const int *first, const int *nkids, int *order, int k)
{
	if (max_depth >= 0 && rows[node].cur->depth > max_depth)
		return k;
	order[k++] = node;
	for (int i = 0; i < nkids[node]; i++)
		k = emit(rows, n, kids[first[node] + i], max_depth, kids, first, nkids, order, k);
	return k;
}

int ptk_cg_order(const struct ptk_cg_row *rows, int n, enum ptk_cg_sort key, bool tree,
		 int max_depth, int *order)
{
	int *idx = xcalloc(n ? n : 1, sizeof(int)), k = 0;

	for (int i = 0; i < n; i++)
		idx[i] = i;
	sctx = (struct sort_ctx){ rows, key };
	qsort(idx, n, sizeof(int), cmp_rows);
	if (!tree) {
		for (int i = 0; i < n; i++)
			if (max_depth < 0 || rows[idx[i]].cur->depth <= max_depth)
				order[k++] = idx[i];
		free(idx);
		return k;
	}
	/* children lists in sorted order: counting sort by parent */
	int *nkids = xcalloc(n + 1, sizeof(int)), *first = xcalloc(n + 1, sizeof(int));
	int *kids = xcalloc(n ? n : 1, sizeof(int)), *fill = xcalloc(n + 1, sizeof(int));
	for (int i = 0; i < n; i++)
		if (rows[i].cur->parent >= 0)
			nkids[rows[i].cur->parent]++;
	for (int i = 1; i <= n; i++)
		first[i] = first[i - 1] + nkids[i - 1];
	for (int i = 0; i < n; i++) {
		int p = rows[idx[i]].cur->parent;
		if (p >= 0)
			kids[first[p] + fill[p]++] = idx[i];
	}
	for (int i = 0; i < n; i++)
		if (rows[idx[i]].cur->parent < 0)
			k = emit(rows, n, idx[i], max_depth, kids, first, nkids, order, k);
	free(nkids);
	free(first);
	free(kids);
	free(fill);
	free(idx);
	return k;
}
