// SPDX-License-Identifier: GPL-2.0
/* Self and total samples per function from folded stacks. */
#include "source/perf/ptop.h"

#include <stdlib.h>
#include <string.h>

struct acc {
	struct ptk_top_fn *v;
	int n, cap;
	unsigned *hash; /* index + 1, 0 = empty */
	unsigned hcap;
	u64 *seen; /* stack number that last counted total for v[i] */
};

static unsigned hs(const char *s, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int lookup(struct acc *a, const char *s, size_t n)
{
	unsigned h;

	if ((unsigned)a->n * 2 >= a->hcap) {
		unsigned cap = a->hcap ? a->hcap * 2 : 256;
		unsigned *nh = xcalloc(cap, sizeof(*nh));
		for (int i = 0; i < a->n; i++) {
			unsigned k = hs(a->v[i].name, strlen(a->v[i].name)) & (cap - 1);
			while (nh[k])
				k = (k + 1) & (cap - 1);
			nh[k] = i + 1;
		}
		free(a->hash);
		a->hash = nh;
		a->hcap = cap;
	}
	h = hs(s, n) & (a->hcap - 1);
	while (a->hash[h]) {
		struct ptk_top_fn *t = &a->v[a->hash[h] - 1];
		if (!strncmp(t->name, s, n) && t->name[n] == '\0')
			return a->hash[h] - 1;
		h = (h + 1) & (a->hcap - 1);
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 256;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
		a->seen = xrealloc(a->seen, a->cap * sizeof(*a->seen));
	}
	a->v[a->n].name = xmalloc(n + 1);
	memcpy(a->v[a->n].name, s, n);
	a->v[a->n].name[n] = '\0';
	a->v[a->n].self = a->v[a->n].total = 0;
	a->seen[a->n] = 0;
	a->hash[h] = a->n + 1;
	return a->n++;
}

static int by_self(const void *x, const void *y)
{
	const struct ptk_top_fn *a = x, *b = y;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->name, b->name);
}

int ptk_top_functions(const struct ptk_folded *f, struct ptk_top_fn **out)
{
	struct acc a = { 0 };

	for (int i = 0; i < f->n; i++) {
		const char *s = f->s[i].stack, *p = strchr(s, ';');
		int last = -1;

		while (p) {
			const char *b = p + 1, *e = strchr(b, ';');
			size_t n = e ? (size_t)(e - b) : strlen(b);
			int k = lookup(&a, b, n);
			if (a.seen[k] != (u64)i + 1) {
				a.seen[k] = (u64)i + 1;
				a.v[k].total += f->s[i].count;
			}
			last = k;
			p = e;
		}
		if (last >= 0)
			a.v[last].self += f->s[i].count;
	}
	free(a.hash);
	free(a.seen);
	if (a.n)
		qsort(a.v, a.n, sizeof(*a.v), by_self);
	*out = a.v;
	return a.n;
}

void ptk_top_free(struct ptk_top_fn *t, int n)
{
	for (int i = 0; i < n; i++)
		free(t[i].name);
	free(t);
}
