// SPDX-License-Identifier: GPL-2.0
#include "model/ptask.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/delta.h"

int ptk_task_rates(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s, long hz,
		   double prev_up_s, int ncpu, struct ptk_task_rate *out)
{
	int valid = 0;
	double cap = ncpu > 0 ? ncpu * 100.0 : 1e18;

	for (int i = 0; i < cur->n; i++) {
		const struct ptk_task *c = &cur->t[i];
		const struct ptk_task *p = prev ? ptk_ptab_find(prev, c->pid, c->starttime) : NULL;
		struct ptk_task_rate *r = &out[i];
		static const struct ptk_task zero;

		memset(r, 0, sizeof(*r));
		r->cur = c;
		r->prev = p;
		if (!p) {
			/* born during the interval (or no previous scan): all of it is new */
			bool born = prev_up_s < 0 || (double)c->starttime / hz >= prev_up_s - 0.01;
			if (prev && !born)
				continue;
			p = &zero;
		}
		if (itv_s <= 0)
			continue;
		r->valid = true;
		valid++;
		double ut = ptk_delta_ticks(p->utime, c->utime),
		       st = ptk_delta_ticks(p->stime, c->stime);
		r->usr_pct = 100.0 * ut / hz / itv_s;
		r->sys_pct = 100.0 * st / hz / itv_s;
		r->cpu_pct = r->usr_pct + r->sys_pct;
		r->guest_pct = 100.0 * ptk_delta_ticks(p->gtime, c->gtime) / hz / itv_s;
		if (r->cpu_pct > cap) {
			double k = cap / r->cpu_pct;
			r->cpu_pct = cap;
			r->usr_pct *= k;
			r->sys_pct *= k;
			r->guest_pct *= k;
		}
		r->wait_ok = c->sched_ok && (p == &zero || p->sched_ok);
		if (r->wait_ok)
			r->wait_pct =
				100.0 * ptk_delta(p->run_delay_ns, c->run_delay_ns) / 1e9 / itv_s;
		r->minflt_s = ptk_delta(p->minflt, c->minflt) / itv_s;
		r->majflt_s = ptk_delta(p->majflt, c->majflt) / itv_s;
		r->iodelay_pct =
			100.0 * ptk_delta_ticks(p->blkio_ticks, c->blkio_ticks) / hz / itv_s;
		if (r->iodelay_pct > 100)
			r->iodelay_pct = 100;
		r->io_ok = c->io_ok && (p == &zero || p->io_ok);
		if (r->io_ok) {
			r->rkb_s = ptk_delta(p->read_bytes, c->read_bytes) / 1024.0 / itv_s;
			r->wkb_s = ptk_delta(p->write_bytes, c->write_bytes) / 1024.0 / itv_s;
			r->ccwr_kb_s =
				ptk_delta(p->cancelled_write_bytes, c->cancelled_write_bytes) /
				1024.0 / itv_s;
			r->rchar_kb_s = ptk_delta(p->rchar, c->rchar) / 1024.0 / itv_s;
			r->wchar_kb_s = ptk_delta(p->wchar, c->wchar) / 1024.0 / itv_s;
		}
		r->csw_ok = c->status_ok && (p == &zero || p->status_ok);
		if (r->csw_ok) {
			r->cswch_s = ptk_delta(p->vol_ctxt, c->vol_ctxt) / itv_s;
			r->nvcswch_s = ptk_delta(p->nonvol_ctxt, c->nonvol_ctxt) / itv_s;
		}
	}
	return valid;
}

const char *const ptk_group_by_name[] = {
	[PTK_BY_PID] = "pid",	[PTK_BY_TGID] = "tgid",	    [PTK_BY_COMM] = "comm",
	[PTK_BY_USER] = "user", [PTK_BY_CGROUP] = "cgroup", [PTK_BY_CONTAINER] = "container",
};

int ptk_group_by_parse(const char *s, enum ptk_group_by *by)
{
	for (int i = 0; i <= PTK_BY_CONTAINER; i++) {
		if (!strcmp(s, ptk_group_by_name[i])) {
			*by = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *ptk_user_name(unsigned uid)
{
	static struct {
		unsigned uid;
		char name[33];
	} cache[64];
	static int n;
	struct passwd *pw;

	for (int i = 0; i < n; i++)
		if (cache[i].uid == uid)
			return cache[i].name;
	int slot = n < 64 ? n++ : (int)(uid % 64);
	cache[slot].uid = uid;
	pw = getpwuid(uid);
	if (pw)
		snprintf(cache[slot].name, sizeof(cache[slot].name), "%s", pw->pw_name);
	else
		snprintf(cache[slot].name, sizeof(cache[slot].name), "%u", uid);
	return cache[slot].name;
}

void ptk_group_key(const struct ptk_task *t, enum ptk_group_by by, char *buf, size_t size)
{
	switch (by) {
	case PTK_BY_PID:
		snprintf(buf, size, "%d", t->pid);
		break;
	case PTK_BY_TGID:
		snprintf(buf, size, "%d", t->tgid);
		break;
	case PTK_BY_COMM:
		snprintf(buf, size, "%s", t->comm);
		break;
	case PTK_BY_USER:
		snprintf(buf, size, "%s", t->status_ok ? ptk_user_name(t->uid) : "?");
		break;
	case PTK_BY_CGROUP:
		snprintf(buf, size, "%s", t->cgroup[0] ? t->cgroup : "-");
		break;
	case PTK_BY_CONTAINER: {
		char id[16];
		ptk_container_id(t->cgroup, id, sizeof(id));
		snprintf(buf, size, "%s", id[0] ? id : "-");
		break;
	}
	}
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct ptk_group *)a)->key, ((const struct ptk_group *)b)->key);
}

int ptk_group_rates(const struct ptk_task_rate *r, int n, enum ptk_group_by by,
		    struct ptk_group **out)
{
	struct ptk_group *g = xcalloc(n ? n : 1, sizeof(*g));
	long pagesz = sysconf(_SC_PAGESIZE);
	int ng = 0;

	/* a linear-probe hash would be faster; n log n sort-and-merge keeps it simple */
	for (int i = 0; i < n; i++) {
		if (!r[i].valid)
			continue;
		ptk_group_key(r[i].cur, by, g[ng].key, sizeof(g[ng].key));
		g[ng].pid = by == PTK_BY_TGID ? r[i].cur->tgid : r[i].cur->pid;
		g[ng].ntasks = 1;
		g[ng].cpu_pct = r[i].cpu_pct;
		g[ng].usr_pct = r[i].usr_pct;
		g[ng].sys_pct = r[i].sys_pct;
		g[ng].minflt_s = r[i].minflt_s;
		g[ng].majflt_s = r[i].majflt_s;
		g[ng].rkb_s = r[i].rkb_s;
		g[ng].wkb_s = r[i].wkb_s;
		g[ng].ccwr_kb_s = r[i].ccwr_kb_s;
		g[ng].cswch_s = r[i].cswch_s;
		g[ng].nvcswch_s = r[i].nvcswch_s;
		g[ng].rss_kb = r[i].cur->rss_pages * (u64)pagesz / 1024;
		g[ng].io_ok = r[i].io_ok;
		g[ng].csw_ok = r[i].csw_ok;
		ng++;
	}
	qsort(g, ng, sizeof(*g), cmp_key);
	int m = 0;
	for (int i = 0; i < ng; i++) {
		if (m && !strcmp(g[m - 1].key, g[i].key)) {
			struct ptk_group *a = &g[m - 1], *b = &g[i];
			a->ntasks++;
			a->cpu_pct += b->cpu_pct;
			a->usr_pct += b->usr_pct;
			a->sys_pct += b->sys_pct;
			a->minflt_s += b->minflt_s;
			a->majflt_s += b->majflt_s;
			a->rkb_s += b->rkb_s;
			a->wkb_s += b->wkb_s;
			a->ccwr_kb_s += b->ccwr_kb_s;
			a->cswch_s += b->cswch_s;
			a->nvcswch_s += b->nvcswch_s;
			if (by != PTK_BY_TGID)
				a->rss_kb += b->rss_kb;
			a->io_ok = a->io_ok && b->io_ok;
			a->csw_ok = a->csw_ok && b->csw_ok;
			if (b->pid < a->pid)
				a->pid = b->pid;
		} else {
			g[m++] = g[i];
		}
	}
	*out = g;
	return m;
}

void ptk_group_sort_cpu(struct ptk_group *g, int n)
{
	/* insertion sort: stable, and the groups of a frame are few */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && g[j].cpu_pct > g[j - 1].cpu_pct; j--) {
			struct ptk_group t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
}

static int cmp_tgid(const void *a, const void *b)
{
	const struct ptk_task_rate *x = a, *y = b;

	if (x->cur->tgid != y->cur->tgid)
		return (x->cur->tgid > y->cur->tgid) - (x->cur->tgid < y->cur->tgid);
	return (x->cur->pid > y->cur->pid) - (x->cur->pid < y->cur->pid);
}

void ptk_task_rates_sort_tgid(struct ptk_task_rate *r, int n)
{
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_tgid);
}

bool ptk_task_active(const struct ptk_task_rate *r, unsigned acts)
{
	static const struct ptk_task zero;
	const struct ptk_task *c = r->cur, *p = r->prev ? r->prev : &zero;

	if ((acts & PTK_ACT_CPU) && (c->utime != p->utime || c->stime != p->stime))
		return true;
	if ((acts & PTK_ACT_MEM) && (c->minflt != p->minflt || c->majflt != p->majflt ||
				     c->vsize != p->vsize || c->rss_pages != p->rss_pages))
		return true;
	if ((acts & PTK_ACT_IO) &&
	    (c->blkio_ticks != p->blkio_ticks ||
	     (r->io_ok && (c->read_bytes != p->read_bytes || c->write_bytes != p->write_bytes ||
			   c->cancelled_write_bytes != p->cancelled_write_bytes))))
		return true;
	if ((acts & PTK_ACT_CSW) &&
	    (c->vol_ctxt != p->vol_ctxt || c->nonvol_ctxt != p->nonvol_ctxt))
		return true;
	return false;
}

bool ptk_group_active(const struct ptk_group *g, unsigned acts)
{
	return ((acts & PTK_ACT_CPU) && g->cpu_pct > 0) ||
	       ((acts & PTK_ACT_MEM) && (g->minflt_s > 0 || g->majflt_s > 0)) ||
	       ((acts & PTK_ACT_IO) && (g->rkb_s > 0 || g->wkb_s > 0 || g->ccwr_kb_s > 0)) ||
	       ((acts & PTK_ACT_CSW) && (g->cswch_s > 0 || g->nvcswch_s > 0));
}

void ptk_task_means_add(struct ptk_task_means *m, const struct ptk_ptab *pt)
{
	struct ptk_task_mean *na = xcalloc((size_t)MAX(pt->n, 1), sizeof(*na));
	u64 pagesz = (u64)sysconf(_SC_PAGESIZE);
	int j = 0;

	for (int i = 0; i < pt->n; i++) {
		const struct ptk_task *t = &pt->t[i];
		while (j < m->n && m->a[j].pid < t->pid)
			j++;
		na[i].pid = t->pid;
		na[i].start = t->starttime;
		if (j < m->n && m->a[j].pid == t->pid && m->a[j].start == t->starttime)
			na[i] = m->a[j];
		na[i].vsz_kb += (double)(t->vsize >> 10);
		na[i].rss_kb += (double)(t->rss_pages * pagesz / 1024);
		na[i].n++;
	}
	free(m->a);
	m->a = na;
	m->n = pt->n;
}

const struct ptk_task_mean *ptk_task_means_find(const struct ptk_task_means *m,
						const struct ptk_task *t)
{
	int lo = 0, hi = m->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (m->a[mid].pid == t->pid)
			return m->a[mid].start == t->starttime ? &m->a[mid] : NULL;
		if (m->a[mid].pid < t->pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

void ptk_task_means_free(struct ptk_task_means *m)
{
	free(m->a);
	m->a = NULL;
	m->n = 0;
}

/* write_bytes less cancelled_write_bytes, never below 0 */
static u64 net_written(const struct ptk_task *t)
{
	return t->write_bytes > t->cancelled_write_bytes ?
		       t->write_bytes - t->cancelled_write_bytes :
		       0;
}

bool ptk_task_io_bytes(const struct ptk_task *p, const struct ptk_task *c, double *rd, double *wr)
{
	static const struct ptk_task zero;

	if (!c->io_ok || (p && !p->io_ok))
		return false;
	if (!p)
		p = &zero;
	u64 wc = net_written(c), wp = net_written(p);
	*rd = (double)ptk_delta(p->read_bytes, c->read_bytes);
	*wr = (double)(wc > wp ? wc - wp : 0);
	return true;
}

void ptk_ptab_io_totals(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s,
			double *rd_s, double *wr_s)
{
	*rd_s = *wr_s = 0;
	for (int i = 0; i < cur->n && itv_s > 0; i++) {
		const struct ptk_task *c = &cur->t[i];
		double rd, wr;
		if (ptk_task_io_bytes(ptk_ptab_find(prev, c->pid, c->starttime), c, &rd, &wr)) {
			*rd_s += rd / itv_s;
			*wr_s += wr / itv_s;
		}
	}
}
