// SPDX-License-Identifier: GPL-2.0
#include "model/cswgroup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/delta.h"
#include "model/jstack.h"
#include "source/cgroup/cgroup.h"

const char *const ptk_csw_by_name[PTK_CSW_NBY] = {
	[PTK_CSW_PREFIX] = "prefix", [PTK_CSW_REGEX] = "regex",
	[PTK_CSW_COMM] = "comm",     [PTK_CSW_PROCESS] = "process",
	[PTK_CSW_CGROUP] = "cgroup", [PTK_CSW_CONTAINER] = "container",
};

void ptk_csw_key(const struct ptk_csw_keying *k, const struct ptk_task *t, const char *name,
		 const struct ptk_task *leader, char *key, size_t size)
{
	regmatch_t m[2];

	switch (k->by) {
	case PTK_CSW_PREFIX:
		ptk_pool_name(name, k->nchars, key, size);
		break;
	case PTK_CSW_REGEX:
		if (regexec(k->re, name, 2, m, 0)) {
			snprintf(key, size, "(unmatched)");
			break;
		}
		int i = m[1].rm_so >= 0 ? 1 : 0;
		int len = (int)(m[i].rm_eo - m[i].rm_so);
		snprintf(key, size, "%.*s", len, name + m[i].rm_so);
		if (!len)
			snprintf(key, size, "(empty)");
		break;
	case PTK_CSW_COMM:
		snprintf(key, size, "%s", name);
		break;
	case PTK_CSW_PROCESS:
		snprintf(key, size, "%s[%d]", leader ? leader->comm : t->comm, t->tgid);
		break;
	case PTK_CSW_CGROUP:
		snprintf(key, size, "%s", t->cgroup[0] ? t->cgroup : "-");
		break;
	case PTK_CSW_CONTAINER:
		if (!t->cgroup[0] || !ptk_cg_container(t->cgroup, key, size)[0])
			snprintf(key, size, "-");
		break;
	}
}

static u64 hash_str(const char *s)
{
	u64 h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void rehash(struct ptk_csw_groups *c)
{
	if (c->hcap < 2 * c->n + 16) {
		c->hcap = 64;
		while (c->hcap < 4 * c->n)
			c->hcap *= 2;
		c->hidx = xrealloc(c->hidx, c->hcap * sizeof(*c->hidx));
	}
	for (int i = 0; i < c->hcap; i++)
		c->hidx[i] = -1;
	for (int i = 0; i < c->n; i++) {
		u64 h = hash_str(c->g[i].key) & (c->hcap - 1);
		while (c->hidx[h] >= 0)
			h = (h + 1) & (c->hcap - 1);
		c->hidx[h] = i;
	}
}

static struct ptk_csw_group *group_get(struct ptk_csw_groups *c, const char *key)
{
	u64 h;

	if (!c->hidx)
		rehash(c);
	h = hash_str(key) & (c->hcap - 1);
	while (c->hidx[h] >= 0) {
		if (!strcmp(c->g[c->hidx[h]].key, key))
			return &c->g[c->hidx[h]];
		h = (h + 1) & (c->hcap - 1);
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->g = xrealloc(c->g, c->cap * sizeof(*c->g));
	}
	struct ptk_csw_group *g = &c->g[c->n];
	memset(g, 0, sizeof(*g));
	g->key = xstrdup(key);
	g->fresh = true;
	ptk_meter_init(&g->meter, c->now_ns);
	c->hidx[h] = c->n++;
	if (4 * c->n > 3 * c->hcap / 2)
		rehash(c);
	return g;
}

void ptk_csw_init(struct ptk_csw_groups *c)
{
	memset(c, 0, sizeof(*c));
	ptk_meter_init(&c->total, 0);
}

void ptk_csw_free(struct ptk_csw_groups *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->g[i].key);
	free(c->g);
	free(c->hidx);
	memset(c, 0, sizeof(*c));
}

void ptk_csw_begin(struct ptk_csw_groups *c, bool first, double itv_s)
{
	if (!first) {
		c->prev_ns = c->now_ns;
		c->now_ns += itv_s > 0 ? (u64)llround(itv_s * 1e9) : 0;
	}
	for (int i = 0; i < c->n; i++) {
		c->g[i].dvol = c->g[i].dinv = 0;
		c->g[i].threads = c->g[i].counted = 0;
		c->g[i].fresh = false;
	}
	c->tvol = c->tinv = 0;
	c->tthreads = c->tcounted = 0;
}

void ptk_csw_add(struct ptk_csw_groups *c, const char *key, const struct ptk_task *t,
		 const struct ptk_task *prev)
{
	struct ptk_csw_group *g = group_get(c, key);

	g->threads++;
	c->tthreads++;
	if (!prev || !prev->status_ok)
		return;
	g->dvol += ptk_delta(prev->vol_ctxt, t->vol_ctxt);
	g->dinv += ptk_delta(prev->nonvol_ctxt, t->nonvol_ctxt);
	g->counted++;
	c->tcounted++;
}

static int cmp_group(const void *a, const void *b)
{
	const struct ptk_csw_group *x = a, *y = b;
	bool xn = !x->counted, yn = !y->counted;

	if (xn != yn)
		return xn - yn; /* groups without a measured interval last */
	if (x->rate != y->rate)
		return x->rate < y->rate ? 1 : -1;
	return strcmp(x->key, y->key);
}

void ptk_csw_end(struct ptk_csw_groups *c, bool first, double itv_s)
{
	int w = 0;

	for (int i = 0; i < c->n; i++) {
		if (c->g[i].threads)
			c->g[w++] = c->g[i];
		else
			free(c->g[i].key);
	}
	c->n = w;
	rehash(c);
	if (first)
		return;
	if (itv_s <= 0) /* replay: the same uptime twice; no rate can be measured */
		c->tcounted = 0;
	for (int i = 0; i < c->n; i++) {
		struct ptk_csw_group *g = &c->g[i];
		if (itv_s <= 0)
			g->counted = 0;
		g->rate = itv_s > 0 ? (double)(g->dvol + g->dinv) / itv_s : 0;
		c->tvol += g->dvol;
		c->tinv += g->dinv;
		if (!g->fresh)
			ptk_meter_mark_span(&g->meter, g->dvol + g->dinv, c->prev_ns, c->now_ns);
	}
	ptk_meter_mark_span(&c->total, c->tvol + c->tinv, c->prev_ns, c->now_ns);
	if (c->n)
		qsort(c->g, c->n, sizeof(*c->g), cmp_group);
	rehash(c);
}
