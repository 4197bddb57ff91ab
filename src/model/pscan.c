// SPDX-License-Identifier: GPL-2.0
/* Thread-group switch counters and the top-N processes between process-table scans. */
#include "model/pscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/delta.h"
#include "model/jstack.h"
#include "model/ptask.h"

static int tg_cmp(const struct ptk_tgroup *x, const struct ptk_tgroup *y)
{
	int c = strcmp(x->process, y->process);

	return c ? c : strcmp(x->group, y->group);
}

/* The group of (process, group), created (csw 0) when new. */
static struct ptk_tgroup *tg_get(struct ptk_tgroups *tg, const char *process, const char *group,
				 double now)
{
	struct ptk_tgroup key;
	int lo = 0, hi = tg->n;

	snprintf(key.process, sizeof(key.process), "%s", process);
	snprintf(key.group, sizeof(key.group), "%s", group);
	while (lo < hi) {
		int mid = (lo + hi) / 2, c = tg_cmp(&key, &tg->g[mid]);
		if (c == 0)
			return &tg->g[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (tg->n >= PTK_TG_MAX && strcmp(process, "(other)"))
		return tg_get(tg, "(other)", "(other)", now);
	if (tg->n == tg->cap) {
		tg->cap = tg->cap ? tg->cap * 2 : 64;
		tg->g = xrealloc(tg->g, tg->cap * sizeof(*tg->g));
	}
	memmove(&tg->g[lo + 1], &tg->g[lo], (tg->n - lo) * sizeof(*tg->g));
	tg->n++;
	key.csw = 0;
	key.threads = 0;
	key.created = now;
	tg->g[lo] = key;
	return &tg->g[lo];
}

/* The row with this pid in a scan sorted by pid, or NULL. */
static const struct ptk_task *find_pid(const struct ptk_ptab *pt, int pid)
{
	int lo = 0, hi = pt->n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (pt->t[mid].pid == pid)
			return &pt->t[mid];
		if (pt->t[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Switches of one thread since the previous scan: the counter delta, its whole count when it
 * was born after that scan, 0 at the first scan (the baseline). */
static u64 thread_delta(const struct ptk_ptab *prev, const struct ptk_task *t, bool first,
			double prev_up_s, long hz)
{
	u64 now = t->vol_ctxt + t->nonvol_ctxt;
	const struct ptk_task *p;

	if (first)
		return 0;
	p = ptk_ptab_find(prev, t->pid, t->starttime);
	if (p)
		return ptk_delta(p->vol_ctxt + p->nonvol_ctxt, now);
	if (prev_up_s >= 0 && (double)t->starttime / hz >= prev_up_s)
		return now;
	return 0;
}

void ptk_tgroups_merge(struct ptk_tgroups *tg, const struct ptk_ptab *prev,
		       const struct ptk_ptab *cur, bool first, double prev_up_s, long hz,
		       double now)
{
	char group[64];
	int k = 0;

	for (int i = 0; i < tg->n; i++)
		tg->g[i].threads = 0;
	for (int i = 0; i < cur->n; i++) {
		const struct ptk_task *t = &cur->t[i];
		const struct ptk_task *leader = find_pid(cur, t->tgid);
		if (!t->status_ok)
			continue;
		ptk_pool_name(t->comm, 0, group, sizeof(group));
		struct ptk_tgroup *g = tg_get(tg, leader ? leader->comm : t->comm, group, now);
		g->csw += thread_delta(prev, t, first, prev_up_s, hz);
		g->threads++;
	}
	/* a group whose threads are all gone ends its series */
	for (int i = 0; i < tg->n; i++)
		if (tg->g[i].threads > 0)
			tg->g[k++] = tg->g[i];
	tg->n = k;
}

void ptk_tgroups_free(struct ptk_tgroups *tg)
{
	free(tg->g);
	memset(tg, 0, sizeof(*tg));
}

struct prank {
	const struct ptk_task *t;
	double cpu;
};

static int prank_cmp(const void *a, const void *b)
{
	const struct prank *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? 1 : -1;
	return x->t->pid - y->t->pid;
}

int ptk_top_procs(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s,
		  double prev_up_s, long hz, long pagesz, u64 btime, bool cmdline,
		  struct ptk_proc_row *out, int n)
{
	struct ptk_task_rate *tr = xcalloc(cur->n ? cur->n : 1, sizeof(*tr));
	struct prank *rk = xcalloc(cur->n ? cur->n : 1, sizeof(*rk));

	if (prev && itv_s > 0)
		ptk_task_rates(prev, cur, itv_s, hz, prev_up_s, 4096, tr);
	for (int i = 0; i < cur->n; i++) {
		rk[i].t = &cur->t[i];
		rk[i].cpu = prev && itv_s > 0 && tr[i].valid ?
				    tr[i].cpu_pct :
				    (double)(cur->t[i].utime + cur->t[i].stime);
	}
	qsort(rk, cur->n, sizeof(*rk), prank_cmp);
	n = MIN(n, cur->n);
	for (int i = 0; i < n; i++) {
		const struct ptk_task *t = rk[i].t;
		struct ptk_proc_row *r = &out[i];
		memset(r, 0, sizeof(*r));
		r->pid = t->pid;
		snprintf(r->comm, sizeof(r->comm), "%s", t->comm);
		if (cmdline)
			snprintf(r->cmdline, sizeof(r->cmdline), "%s", t->cmdline);
		r->cpu_s = (double)(t->utime + t->stime) / hz;
		r->start_s = btime ? btime + (double)t->starttime / hz : -1;
		r->rss_bytes = t->rss_pages * (u64)pagesz;
		r->threads = t->nthreads;
		r->io_ok = t->io_ok;
		r->rd = t->read_bytes;
		r->wr = t->write_bytes;
	}
	free(tr);
	free(rk);
	return n;
}
