// SPDX-License-Identifier: GPL-2.0
#include "model/toplist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/delta.h"
#include "source/cgroup/cgroup.h"

void ptk_task_states_add(struct ptk_task_states *s, char state)
{
	s->total++;
	switch (state) {
	case 'R':
		s->running++;
		break;
	case 'D':
		s->disk++;
		s->sleeping++;
		break;
	case 'I':
		s->idle++;
		s->sleeping++;
		break;
	case 'S':
		s->sleeping++;
		break;
	case 'T':
	case 't':
		s->stopped++;
		break;
	case 'Z':
		s->zombie++;
		break;
	}
}

void ptk_top_row_set(struct ptk_top_row *row, const struct ptk_task *t,
		     const struct ptk_task_rate *r, const struct ptk_top_fill *how)
{
	static char states[256][2];
	struct ptk_val *v = row->v;
	u64 virt = t->statm_ok ? t->statm_size * how->page_kb : t->vsize / 1024;
	u64 res = (t->statm_ok ? t->statm_resident : t->rss_pages) * how->page_kb;
	bool ok = r->valid;

	row->pid = t->pid;
	row->ppid = t->ppid;
	row->tgid = t->tgid;
	row->depth = 0;
	row->tree[0] = '\0';
	if (how->cmdline && t->cmdline[0])
		snprintf(row->cmd, sizeof(row->cmd), "%s", t->cmdline);
	else if (how->cmdline)
		snprintf(row->cmd, sizeof(row->cmd), "[%s]", t->comm);
	else
		snprintf(row->cmd, sizeof(row->cmd), "%s", t->comm);
	states[(unsigned char)t->state][0] = t->state;
	v[TC_PID] = PTK_I(t->pid);
	v[TC_USER] = t->owner_ok ? PTK_S(ptk_user_name(t->euid)) : PTK_NA;
	v[TC_PR] = PTK_I(t->priority);
	v[TC_NI] = PTK_I(t->nice);
	v[TC_VIRT] = PTK_U(virt);
	v[TC_RES] = PTK_U(res);
	v[TC_SHR] = t->statm_ok ? PTK_U(t->statm_shared * how->page_kb) : PTK_NA;
	v[TC_S] = PTK_S(states[(unsigned char)t->state]);
	v[TC_CPU] = PTK_F(ok ? r->cpu_pct : 0);
	v[TC_MEM] = how->mem_total_kb ? PTK_F(100.0 * res / how->mem_total_kb) : PTK_NA;
	v[TC_TIME] = PTK_F((double)(t->utime + t->stime) / how->hz);
	v[TC_RKB] = ok && r->io_ok ? PTK_F(r->rkb_s) : PTK_NA;
	v[TC_WKB] = ok && r->io_ok ? PTK_F(r->wkb_s) : PTK_NA;
	v[TC_MAJFLT] = ok ? PTK_F(r->majflt_s) : PTK_NA;
	v[TC_CSW] = ok && r->csw_ok ? PTK_F(r->cswch_s + r->nvcswch_s) : PTK_NA;
	v[TC_FDS] = t->nfds >= 0 ? PTK_I(t->nfds) : PTK_NA;
	v[TC_CGROUP] = t->cgroup[0] ? PTK_S(t->cgroup) : PTK_NA;
	row->owner[0] = '\0';
	if (t->cgroup[0])
		ptk_cg_container(t->cgroup, row->owner, sizeof(row->owner));
	v[TC_CONTAINER] = row->owner[0] ? PTK_S(row->owner) : PTK_NA;
	v[TC_COMMAND] = PTK_S(row->cmd);
}

int ptk_top_frame_cpu(struct ptk_top_frame *f, const struct ptk_stat *prev,
		      const struct ptk_stat *cur, double itv_s)
{
	int online = 0;

	ptk_cpu_pct(&prev->all, &cur->all, f->cpu);
	if (f->ncpu < cur->ncpu) {
		f->percpu = xrealloc(f->percpu, cur->ncpu * sizeof(*f->percpu));
		f->present = xrealloc(f->present, cur->ncpu * sizeof(*f->present));
	}
	f->ncpu = cur->ncpu;
	for (int c = 0; c < cur->ncpu; c++) {
		f->present[c] = cur->present[c] && c < prev->ncpu && prev->present[c];
		online += cur->present[c];
		if (f->present[c])
			ptk_cpu_pct(&prev->cpu[c], &cur->cpu[c], f->percpu[c]);
	}
	/* a /proc/stat without its processes line (cut short): unknown */
	f->forks_s = ptk_stat_has(prev, PTK_ST_PROCESSES) && ptk_stat_has(cur, PTK_ST_PROCESSES) ?
			     ptk_rate(prev->processes, cur->processes, itv_s) :
			     NAN;
	return online;
}

/* ---- order ---- */

struct sort_ctx {
	const struct ptk_top_row *rows;
	const struct ptk_metric *const *cols;
	int col;
	bool asc;
};

static int cmp_val(const struct ptk_val *x, const struct ptk_val *y, enum ptk_vtype type)
{
	if (x->na || y->na)
		return (int)y->na - (int)x->na;
	switch (type) {
	case PTK_V_STR:
		return strcmp(x->s, y->s);
	case PTK_V_U64:
		return (x->u > y->u) - (x->u < y->u);
	case PTK_V_S64:
		return (x->i > y->i) - (x->i < y->i);
	case PTK_V_F64:
		return (x->f > y->f) - (x->f < y->f);
	}
	return 0;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *s = arg;
	const struct ptk_top_row *a = &s->rows[*(const int *)pa], *b = &s->rows[*(const int *)pb];
	int c = cmp_val(&a->v[s->col], &b->v[s->col], s->cols[s->col]->type);

	if (!s->asc)
		c = -c;
	if (!c)
		c = (a->pid > b->pid) - (a->pid < b->pid);
	return c;
}

/* Depth-first walk of the tree below row idx (children already in sort order). */
static void tree_walk(struct ptk_top_frame *f, const int *first, const int *next, int idx,
		      int depth, const char *branch, int *out)
{
	struct ptk_top_row *r = &f->rows[idx];

	r->depth = depth;
	snprintf(r->tree, sizeof(r->tree), "%s", branch);
	f->order[(*out)++] = idx;
	size_t bl = strlen(branch);
	for (int c = first[idx]; c >= 0; c = next[c]) {
		char sub[48];
		/* replace this level's marker by a continuation for the children */
		snprintf(sub, sizeof(sub), "%.*s%s", (int)(bl >= 3 ? bl - 3 : 0), branch,
			 bl >= 3 ? (branch[bl - 3] == '`' ? "   " : "|  ") : "");
		size_t sl = strlen(sub);
		snprintf(sub + sl, sizeof(sub) - sl, "%s", next[c] >= 0 ? "|- " : "`- ");
		if (depth < 14)
			tree_walk(f, first, next, c, depth + 1, sub, out);
		else
			f->order[(*out)++] = c;
	}
}

/* Row of pid in byid (row indexes sorted by pid), or -1. */
static int find_row(const struct ptk_top_frame *f, const int *byid, int n, int pid)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int m = (lo + hi) / 2, p = f->rows[byid[m]].pid;
		if (p == pid)
			return byid[m];
		if (p < pid)
			lo = m + 1;
		else
			hi = m - 1;
	}
	return -1;
}

void ptk_top_arrange(struct ptk_top_frame *f, const struct ptk_top_order *o)
{
	struct sort_ctx s = { f->rows, o->cols, o->sort, o->asc };
	int n = 0;

	for (int i = 0; i < f->nrows; i++) {
		const struct ptk_val *cg = &f->rows[i].v[TC_CGROUP];
		if (o->filter && o->filter[0] && !strstr(f->rows[i].cmd, o->filter))
			continue;
		if (o->cgroup && o->cgroup[0] && (cg->na || !ptk_cg_under(cg->s, o->cgroup)))
			continue;
		f->order[n++] = i;
	}
	if (n)
		qsort_r(f->order, n, sizeof(int), cmp_rows, &s);
	f->norder = n;
	if (!o->tree || !n)
		return;
	/* tree: children in sort order under their parent (thread rows under their process) */
	int *sorted = xmalloc(n * sizeof(int)), *byid = xmalloc(n * sizeof(int));
	int *first = xmalloc(f->nrows * sizeof(int)), *next = xmalloc(f->nrows * sizeof(int));
	int *last = xmalloc(f->nrows * sizeof(int));
	bool *child = xcalloc(f->nrows, sizeof(bool));
	struct sort_ctx bypid = { f->rows, o->cols, TC_PID, true };

	memcpy(sorted, f->order, n * sizeof(int));
	memcpy(byid, f->order, n * sizeof(int));
	qsort_r(byid, n, sizeof(int), cmp_rows, &bypid);
	for (int i = 0; i < f->nrows; i++)
		first[i] = next[i] = last[i] = -1;
	for (int k = 0; k < n; k++) {
		int i = sorted[k];
		struct ptk_top_row *r = &f->rows[i];
		int parent = o->threads && r->pid != r->tgid ? r->tgid : r->ppid;
		int p = parent != r->pid ? find_row(f, byid, n, parent) : -1;
		if (p < 0)
			continue;
		child[i] = true;
		if (last[p] < 0)
			first[p] = i;
		else
			next[last[p]] = i;
		last[p] = i;
	}
	int out = 0;
	for (int k = 0; k < n; k++)
		if (!child[sorted[k]])
			tree_walk(f, first, next, sorted[k], 0, "", &out);
	f->norder = out;
	free(sorted);
	free(byid);
	free(first);
	free(next);
	free(last);
	free(child);
}
