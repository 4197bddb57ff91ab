// SPDX-License-Identifier: GPL-2.0
#include "model/syscsum.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ptk_sysc_sort_parse(const char *s, enum ptk_sysc_sort *by)
{
	static const struct {
		const char *name;
		enum ptk_sysc_sort by;
	} names[] = {
		{ "time", PTK_SYSC_TIME },   { "time_total", PTK_SYSC_TIME },
		{ "calls", PTK_SYSC_CALLS }, { "errors", PTK_SYSC_ERRORS },
		{ "name", PTK_SYSC_NAME },   { "nothing", PTK_SYSC_NOTHING },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name)) {
			*by = names[i].by;
			return 0;
		}
	}
	return -EINVAL;
}

void ptk_sysc_count(struct ptk_sysc_stats *st, long nr, bool error, u64 time_us)
{
	if (nr < 0 || nr >= PTK_NSYSCALLS)
		return;
	st->e[nr].calls++;
	st->e[nr].errors += error;
	st->e[nr].time_us += time_us;
}

struct sort_ctx {
	const struct ptk_sysc_stats *st;
	enum ptk_sysc_sort by;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	const struct ptk_sysc_ent *p = &c->st->e[x], *q = &c->st->e[y];

	switch (c->by) {
	case PTK_SYSC_CALLS:
		if (p->calls != q->calls)
			return p->calls < q->calls ? 1 : -1;
		break;
	case PTK_SYSC_ERRORS:
		if (p->errors != q->errors)
			return p->errors < q->errors ? 1 : -1;
		break;
	case PTK_SYSC_NAME:
		return strcmp(ptk_syscalls[x].name, ptk_syscalls[y].name);
	case PTK_SYSC_NOTHING:
		return x - y;
	case PTK_SYSC_TIME:
		if (p->time_us != q->time_us)
			return p->time_us < q->time_us ? 1 : -1;
	}
	return x - y; /* ties in syscall number order, as strace lists them */
}

int ptk_sysc_summary(const struct ptk_sysc_stats *st, enum ptk_sysc_sort by, int *rows,
		     struct ptk_sysc_ent *tot)
{
	struct sort_ctx c = { st, by };
	int n = 0;

	memset(tot, 0, sizeof(*tot));
	for (int i = 0; i < PTK_NSYSCALLS; i++) {
		if (!st->e[i].calls)
			continue;
		rows[n++] = i;
		tot->time_us += st->e[i].time_us;
		tot->calls += st->e[i].calls;
		tot->errors += st->e[i].errors;
	}
	if (n)
		qsort_r(rows, (size_t)n, sizeof(rows[0]), cmp_rows, &c);
	return n;
}

void ptk_sysc_figures(const struct ptk_sysc_ent *e, u64 tot_us, double *pct, double *secs,
		      u64 *us_per_call)
{
	*pct = tot_us ? 100.0 * (double)e->time_us / (double)tot_us : 0;
	*secs = (double)e->time_us / 1e6;
	*us_per_call = e->calls ? e->time_us / e->calls : 0;
}
