// SPDX-License-Identifier: GPL-2.0
#include "model/ptask.h"

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/delta.h"

int ptk_task_rates(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s, long hz,
		   double prev_up_s, int ncpu, struct ptk_task_rate *out)
{
	int valid = 0, j = 0;
	bool merge = true;
	double cap = ncpu > 0 ? ncpu * 100.0 : 1e18;

	for (int i = 0; i < cur->n; i++) {
		const struct ptk_task *c = &cur->t[i];
		const struct ptk_task *p = NULL;
		if (i && c->pid < cur->t[i - 1].pid)
			merge = false; /* not in pid order: a binary search each from here */
		if (prev && merge) {
			/* both sorted by pid: one merge walk, not a binary search per task */
			while (j < prev->n && prev->t[j].pid < c->pid)
				j++;
			if (j < prev->n && prev->t[j].pid == c->pid &&
			    prev->t[j].starttime == c->starttime)
				p = &prev->t[j];
		} else if (prev) {
			p = ptk_ptab_find(prev, c->pid, c->starttime);
		}
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

const char *ptk_user_name_or_null(unsigned uid)
{
	const char *name = ptk_user_name(uid);
	char num[16];

	snprintf(num, sizeof(num), "%u", uid);
	/* a name that is the number itself: none in the passwd database (or a user named so) */
	return strcmp(name, num) ? name : NULL;
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
		if (j < m->n && m->a[j].pid == t->pid &&
		    (m->by_pid || m->a[j].start == t->starttime))
			na[i] = m->a[j];
		na[i].vsz_kb += (double)(t->vsize >> 10);
		na[i].rss_kb += (double)(t->rss_pages * pagesz / 1024);
		na[i].stack_kb += (double)t->stack_kb;
		na[i].stack_ref_kb += (double)t->stack_ref_kb;
		na[i].threads += (double)t->nthreads;
		if (t->nfds >= 0) {
			na[i].fds += t->nfds;
			na[i].nfds++;
		}
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
			return m->by_pid || m->a[mid].start == t->starttime ? &m->a[mid] : NULL;
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

/* ---- sysstat pidstat's report of one task ---- */

static const struct {
	const char *file, *field;
} ps_fields[PTK_PF_COUNT] = {
	[PTK_PF_UTIME] = { "stat", "utime" },
	[PTK_PF_STIME] = { "stat", "stime" },
	[PTK_PF_GTIME] = { "stat", "guest_time" },
	[PTK_PF_CUTIME] = { "stat", "cutime" },
	[PTK_PF_CSTIME] = { "stat", "cstime" },
	[PTK_PF_CGTIME] = { "stat", "cguest_time" },
	[PTK_PF_RUN_DELAY] = { "schedstat", "run_delay" },
	[PTK_PF_MINFLT] = { "stat", "minflt" },
	[PTK_PF_MAJFLT] = { "stat", "majflt" },
	[PTK_PF_CMINFLT] = { "stat", "cminflt" },
	[PTK_PF_CMAJFLT] = { "stat", "cmajflt" },
	[PTK_PF_READ_BYTES] = { "io", "read_bytes" },
	[PTK_PF_WRITE_BYTES] = { "io", "write_bytes" },
	[PTK_PF_CCWR_BYTES] = { "io", "cancelled_write_bytes" },
	[PTK_PF_BLKIO] = { "stat", "delayacct_blkio_ticks" },
	[PTK_PF_VOL_CTXT] = { "status", "voluntary_ctxt_switches" },
	[PTK_PF_NONVOL_CTXT] = { "status", "nonvoluntary_ctxt_switches" },
	[PTK_PF_CPU_SHARE] = { "stat", "utime + stime" },
	[PTK_PF_MEM_SHARE] = { "stat", "rss" },
};

void ptk_ps_field_where(enum ptk_ps_field f, const char **file, const char **field)
{
	*file = ps_fields[f].file;
	*field = ps_fields[f].field;
}

const char *ptk_sched_policy_name(unsigned policy)
{
	/* include/uapi/linux/sched.h; 4 was SCHED_ISO, never merged */
	static const char *const names[] = {
		"NORMAL", "FIFO", "RR", "BATCH", "?", "IDLE", "DEADLN"
	};

	return policy < ARRAY_SIZE(names) ? names[policy] : "?";
}

/* c - p, or false (and bit f in *bad) when the counter went backwards. */
/* whether c - p is a value: it is when c >= p, and with in->wrap (sysstat's unsigned
 * arithmetic) always; a field that went back sets its bit in *bad either way */
static bool delta_ok(const struct ptk_ps_itv *in, u64 p, u64 c, int f, unsigned *bad)
{
	if (c >= p)
		return true;
	*bad |= 1u << f;
	return in->wrap;
}

/* sysstat's SP_VALUE: the share of n - m in p, in % */
static double sp_value(u64 m, u64 n, u64 p)
{
	return (double)(n - m) / (double)p * 100;
}

/* schedstat's run_delay in whole clock ticks, as sysstat keeps it */
static u64 wait_ticks(const struct ptk_task *t, long hz)
{
	return t->run_delay_ns * (u64)hz / 1000000000;
}

/* a count of the interval, per sample on an Average line; with wrap, on an interval
 * line, the exact unsigned number (U64) that sysstat prints */
static struct ptk_val count_val(const struct ptk_ps_itv *in, u64 d, double n)
{
	return in->wrap && !in->avg ? PTK_U(d) : PTK_F((double)d / n);
}

static u64 user_ticks(const struct ptk_task *t)
{
	return t->utime > t->gtime ? t->utime - t->gtime : 0;
}

unsigned ptk_ps_vals(const struct ptk_ps_itv *in, const struct ptk_task *p,
		     const struct ptk_task *c, const struct ptk_task_mean *m, struct ptk_val *v)
{
	static const struct ptk_task zero;
	const struct ptk_task *z = p ? p : &zero;
	const bool itv = in->itv_cs > 0 || in->wrap, avg = in->avg && m && m->n > 0;
	/* wrap: sysstat's get_interval(), the unsigned difference (at least 1), and its
	 * itv * HZ / 100 in unsigned arithmetic too */
	const u64 itv_cs = in->wrap ? MAX((u64)in->itv_cs, 1) :
			   itv	    ? (u64)in->itv_cs :
				      1,
		  itv_t = MAX(itv_cs * (u64)in->hz / 100, 1);
	const double n = avg ? (double)m->n : 1;
	unsigned bad = 0;
	bool ut, st, gt;

	for (int i = 0; i < PTK_PS_NCOLS; i++)
		v[i] = PTK_NA;

	/* CPU: ticks over the interval in ticks (sysstat's itv * HZ / 100) */
	ut = delta_ok(in, z->utime, c->utime, PTK_PF_UTIME, &bad);
	st = delta_ok(in, z->stime, c->stime, PTK_PF_STIME, &bad);
	gt = delta_ok(in, z->gtime, c->gtime, PTK_PF_GTIME, &bad);
	if (itv && ut && gt)
		v[PTK_PS_USR] = PTK_F(user_ticks(c) < user_ticks(z) ?
					      0.0 :
					      sp_value(user_ticks(z), user_ticks(c), itv_t));
	if (itv && st)
		v[PTK_PS_SYSTEM] = PTK_F(sp_value(z->stime, c->stime, itv_t));
	if (itv && gt && !c->no_gtime)
		v[PTK_PS_GUEST] = PTK_F(sp_value(z->gtime, c->gtime, itv_t));
	if (c->sched_ok && (!p || p->sched_ok)) {
		u64 a = wait_ticks(z, in->hz), b = wait_ticks(c, in->hz);
		if (delta_ok(in, a, b, PTK_PF_RUN_DELAY, &bad) && itv)
			v[PTK_PS_WAIT] = PTK_F(sp_value(a, b, itv_t));
	}
	if (ut && st) {
		u64 a = z->utime + z->stime, b = c->utime + c->stime;
		double pct = -1, cap = in->irix_off ? 100 : 100.0 * MAX(in->ncpu, 1);
		if (in->irix_off && in->dtot)
			pct = sp_value(a, b, in->dtot);
		else if (!in->irix_off && itv)
			pct = sp_value(a, b, itv_t);
		if (pct > cap + 0.005)
			bad |= 1u << PTK_PF_CPU_SHARE;
		if (pct >= 0 && (pct <= cap + 0.005 || in->wrap))
			v[PTK_PS_CPU] = PTK_F(pct);
	}
	if (!in->avg && c->processor >= 0)
		v[PTK_PS_CPUNUM] = PTK_I(c->processor);

	/* -T CHILD: the task's and its waited-for children's times, ms in the interval */
	bool cut = delta_ok(in, z->cutime, c->cutime, PTK_PF_CUTIME, &bad),
	     cst = delta_ok(in, z->cstime, c->cstime, PTK_PF_CSTIME, &bad),
	     cgt = delta_ok(in, z->cgtime, c->cgtime, PTK_PF_CGTIME, &bad);
	const double hzn = (double)in->hz * n; /* ticks per s, per sample */
	if (ut && gt && cut && cgt) {
		u64 a = z->utime + z->cutime, b = c->utime + c->cutime;
		u64 ga = z->gtime + z->cgtime, gb = c->gtime + c->cgtime;
		a = a > ga ? a - ga : 0;
		b = b > gb ? b - gb : 0;
		v[PTK_PS_CUSR_MS] = PTK_F(b < a ? 0.0 : (double)(b - a) / hzn * 1000);
	}
	if (st && cst)
		v[PTK_PS_CSYS_MS] = PTK_F(
			(double)((c->stime + c->cstime) - (z->stime + z->cstime)) / hzn * 1000);
	if (gt && cgt && !c->no_gtime)
		v[PTK_PS_CGUEST_MS] = PTK_F(
			(double)((c->gtime + c->cgtime) - (z->gtime + z->cgtime)) / hzn * 1000);

	/* memory: faults per second (the interval in cs), sizes now or their means */
	if (itv && delta_ok(in, z->minflt, c->minflt, PTK_PF_MINFLT, &bad))
		v[PTK_PS_MINFLT] = PTK_F((double)(c->minflt - z->minflt) / itv_cs * 100);
	if (itv && delta_ok(in, z->majflt, c->majflt, PTK_PF_MAJFLT, &bad))
		v[PTK_PS_MAJFLT] = PTK_F((double)(c->majflt - z->majflt) / itv_cs * 100);
	double rss = (double)(c->rss_pages * (u64)in->page_kb), rss_pct = rss;
	v[PTK_PS_VSZ] = PTK_F(avg ? m->vsz_kb / n : (double)(c->vsize >> 10));
	if (avg) {
		rss = m->rss_kb / n;
		rss_pct = floor(rss); /* sysstat divides the sum as integers */
	}
	v[PTK_PS_RSS] = PTK_F(rss);
	if (in->memtotal_kb) {
		double pct = sp_value(0, (u64)rss_pct, in->memtotal_kb);
		if (pct > 100.005)
			bad |= 1u << PTK_PF_MEM_SHARE;
		if (pct <= 100.005 || in->wrap)
			v[PTK_PS_MEM] = PTK_F(pct);
	}
	bool mi = delta_ok(in, z->minflt, c->minflt, PTK_PF_MINFLT, &bad),
	     ma = delta_ok(in, z->majflt, c->majflt, PTK_PF_MAJFLT, &bad);
	if (mi && delta_ok(in, z->cminflt, c->cminflt, PTK_PF_CMINFLT, &bad))
		v[PTK_PS_CMINFLT] =
			count_val(in, (c->minflt + c->cminflt) - (z->minflt + z->cminflt), n);
	if (ma && delta_ok(in, z->cmajflt, c->cmajflt, PTK_PF_CMAJFLT, &bad))
		v[PTK_PS_CMAJFLT] =
			count_val(in, (c->majflt + c->cmajflt) - (z->majflt + z->cmajflt), n);

	/* the stack mapping */
	if (c->stack_ok) {
		v[PTK_PS_STKSIZE] = PTK_F(avg ? m->stack_kb / n : (double)c->stack_kb);
		v[PTK_PS_STKREF] = PTK_F(avg ? m->stack_ref_kb / n : (double)c->stack_ref_kb);
	}

	/* I/O: kB/s at the block layer, readable at both ends; iodelay ticks per sample */
	if (itv && c->io_ok && (!p || p->io_ok)) {
		if (delta_ok(in, z->read_bytes, c->read_bytes, PTK_PF_READ_BYTES, &bad))
			v[PTK_PS_RD] = PTK_F((double)(c->read_bytes - z->read_bytes) / itv_cs *
					     100 / 1024);
		if (delta_ok(in, z->write_bytes, c->write_bytes, PTK_PF_WRITE_BYTES, &bad))
			v[PTK_PS_WR] = PTK_F((double)(c->write_bytes - z->write_bytes) / itv_cs *
					     100 / 1024);
		if (delta_ok(in, z->cancelled_write_bytes, c->cancelled_write_bytes,
			     PTK_PF_CCWR_BYTES, &bad))
			v[PTK_PS_CCWR] = PTK_F(
				(double)(c->cancelled_write_bytes - z->cancelled_write_bytes) /
				itv_cs * 100 / 1024);
	}
	if (!c->no_blkio && delta_ok(in, z->blkio_ticks, c->blkio_ticks, PTK_PF_BLKIO, &bad))
		v[PTK_PS_IODELAY] = count_val(in, c->blkio_ticks - z->blkio_ticks, n);

	/* context switches per second */
	if (itv && c->status_ok && (!p || p->status_ok)) {
		if (delta_ok(in, z->vol_ctxt, c->vol_ctxt, PTK_PF_VOL_CTXT, &bad))
			v[PTK_PS_CSW] = PTK_F((double)(c->vol_ctxt - z->vol_ctxt) / itv_cs * 100);
		if (delta_ok(in, z->nonvol_ctxt, c->nonvol_ctxt, PTK_PF_NONVOL_CTXT, &bad))
			v[PTK_PS_NVCSW] =
				PTK_F((double)(c->nonvol_ctxt - z->nonvol_ctxt) / itv_cs * 100);
	}

	/* kernel tables, scheduling */
	v[PTK_PS_THREADS] = PTK_F(avg ? m->threads / n : (double)c->nthreads);
	if (avg ? m->nfds > 0 : c->nfds >= 0)
		v[PTK_PS_FDNR] = PTK_F(avg ? m->fds / m->nfds : (double)c->nfds);
	if (c->rt_ok) {
		v[PTK_PS_PRIO] = PTK_U(c->rt_priority);
		v[PTK_PS_POLICY] = PTK_S(ptk_sched_policy_name(c->policy));
	}
	return bad;
}

bool ptk_ps_active(const struct ptk_task *p, const struct ptk_task *c, unsigned acts,
		   unsigned scope)
{
	static const struct ptk_task zero;
	const struct ptk_task *z = p ? p : &zero;

	if ((acts & PTK_ACT_CPU) &&
	    (c->utime != z->utime || c->stime != z->stime ||
	     ((scope & PTK_PS_CHILD) && (c->cutime != z->cutime || c->cstime != z->cstime))))
		return true;
	if (acts & PTK_ACT_MEM) {
		if (c->minflt != z->minflt || c->majflt != z->majflt)
			return true;
		if ((scope & PTK_PS_TASK) && (c->vsize != z->vsize || c->rss_pages != z->rss_pages))
			return true;
		if (!(scope & PTK_PS_TASK) && (scope & PTK_PS_CHILD) &&
		    (c->cminflt != z->cminflt || c->cmajflt != z->cmajflt))
			return true;
	}
	if ((acts & PTK_ACT_STACK) &&
	    (c->stack_kb != z->stack_kb || c->stack_ref_kb != z->stack_ref_kb))
		return true;
	if ((acts & PTK_ACT_IO) &&
	    (c->blkio_ticks != z->blkio_ticks ||
	     (c->io_ok && (c->read_bytes != z->read_bytes || c->write_bytes != z->write_bytes ||
			   c->cancelled_write_bytes != z->cancelled_write_bytes))))
		return true;
	if ((acts & PTK_ACT_CSW) &&
	    (c->vol_ctxt != z->vol_ctxt || c->nonvol_ctxt != z->nonvol_ctxt))
		return true;
	if ((acts & PTK_ACT_RT) && (c->rt_priority != z->rt_priority || c->policy != z->policy))
		return true;
	if ((acts & PTK_ACT_KTAB) && c->nfds >= 0 &&
	    (c->nthreads != z->nthreads || c->nfds != z->nfds))
		return true;
	return false;
}

void ptk_ps_baseline_keep(struct ptk_ptab *base, const struct ptk_ptab *cur, bool by_pid)
{
	int w = 0;

	for (int i = 0; i < base->n; i++)
		if (by_pid ? ptk_ptab_find_pid(cur, base->t[i].pid) != NULL :
			     ptk_ptab_find(cur, base->t[i].pid, base->t[i].starttime) != NULL)
			base->t[w++] = base->t[i];
	base->n = w;
}
