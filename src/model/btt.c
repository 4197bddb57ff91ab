// SPDX-License-Identifier: GPL-2.0
/* btt's latencies (btt.h). */
#include "model/btt.h"

#include <stdlib.h>
#include <string.h>

/* A bio or a request in flight: where it is, and when each of its actions was. */
struct io {
	u32 dev;
	u64 sector;
	u32 nr;
	u64 q, g, i, d, m; /* 0: not seen */
	bool merged; /* a bio merged into another's request (M/F) */
	bool request; /* a request (G, I or D seen) */
};

struct ptk_btt {
	struct io *io;
	size_t n, cap;
	u64 last_q;
	struct ptk_btt_stat st[PTK_BTT_NSTAGES];
};

static const char *const names[PTK_BTT_NSTAGES] = {
	[PTK_BTT_Q2Q] = "Q2Q", [PTK_BTT_Q2G] = "Q2G", [PTK_BTT_G2I] = "G2I", [PTK_BTT_Q2M] = "Q2M",
	[PTK_BTT_I2D] = "I2D", [PTK_BTT_M2D] = "M2D", [PTK_BTT_D2C] = "D2C", [PTK_BTT_Q2C] = "Q2C",
};

const char *ptk_btt_stage_name(enum ptk_btt_stage s)
{
	return (unsigned)s < PTK_BTT_NSTAGES ? names[s] : "";
}

struct ptk_btt *ptk_btt_new(void)
{
	return xcalloc(1, sizeof(struct ptk_btt));
}

void ptk_btt_free(struct ptk_btt *b)
{
	if (!b)
		return;
	free(b->io);
	free(b);
}

static void add(struct ptk_btt *b, enum ptk_btt_stage s, u64 from, u64 to)
{
	struct ptk_btt_stat *st = &b->st[s];
	u64 d;

	if (!from || to < from)
		return;
	d = to - from;
	if (!st->n || d < st->min_ns)
		st->min_ns = d;
	if (d > st->max_ns)
		st->max_ns = d;
	st->sum_ns += (double)d;
	st->n++;
}

/* The I/O of dev at sector (a request's first bio, or the bio itself), or NULL. */
static struct io *find(struct ptk_btt *b, u32 dev, u64 sector, bool merged)
{
	for (size_t i = b->n; i-- > 0;)
		if (b->io[i].dev == dev && b->io[i].sector == sector && b->io[i].merged == merged)
			return &b->io[i];
	return NULL;
}

static struct io *add_io(struct ptk_btt *b, u32 dev, u64 sector, u32 nr)
{
	struct io *o;

	if (b->n == b->cap)
		b->io = xrealloc(b->io, (b->cap = b->cap ? 2 * b->cap : 256) * sizeof(*b->io));
	o = &b->io[b->n++];
	memset(o, 0, sizeof(*o));
	o->dev = dev;
	o->sector = sector;
	o->nr = nr;
	return o;
}

static void drop(struct ptk_btt *b, struct io *o)
{
	*o = b->io[--b->n];
}

void ptk_btt_event(struct ptk_btt *b, char action, u32 dev, u64 sector, u32 nr, u64 t)
{
	struct io *o;

	switch (action) {
	case 'Q':
		add(b, PTK_BTT_Q2Q, b->last_q, t);
		b->last_q = t;
		o = add_io(b, dev, sector, nr);
		o->q = t;
		break;
	case 'M':
	case 'F':
		/* the bio joins a request in the queue: it is done when that one is */
		if ((o = find(b, dev, sector, false)) && !o->request) {
			o->merged = true;
			o->m = t;
			add(b, PTK_BTT_Q2M, o->q, t);
		}
		break;
	case 'G':
		if (!(o = find(b, dev, sector, false)))
			o = add_io(b, dev, sector, nr);
		o->request = true;
		o->g = t;
		add(b, PTK_BTT_Q2G, o->q, t);
		break;
	case 'I':
		if (!(o = find(b, dev, sector, false)))
			o = add_io(b, dev, sector, nr);
		o->request = true;
		o->i = t;
		add(b, PTK_BTT_G2I, o->g, t);
		break;
	case 'D':
		if (!(o = find(b, dev, sector, false)))
			o = add_io(b, dev, sector, nr);
		o->request = true;
		o->d = t;
		o->nr = nr;
		add(b, PTK_BTT_I2D, o->i, t);
		/* the bios merged into it are issued with it */
		for (size_t i = 0; i < b->n; i++) {
			struct io *m = &b->io[i];

			if (m->merged && m->dev == dev && m->sector >= sector &&
			    m->sector < sector + nr && !m->d) {
				m->d = t;
				add(b, PTK_BTT_M2D, m->m, t);
			}
		}
		break;
	case 'C':
		if (!(o = find(b, dev, sector, false)))
			break;
		add(b, PTK_BTT_D2C, o->d, t);
		add(b, PTK_BTT_Q2C, o->q, t);
		for (size_t i = b->n; i-- > 0;) {
			struct io *m = &b->io[i];

			if (m->merged && m->dev == dev && m->sector >= sector &&
			    m->sector < sector + (o->nr > nr ? o->nr : nr)) {
				add(b, PTK_BTT_Q2C, m->q, t);
				drop(b, m);
				if (o == &b->io[b->n]) /* o moved into m's place */
					o = m;
			}
		}
		drop(b, o);
		break;
	}
}

const struct ptk_btt_stat *ptk_btt_stat(const struct ptk_btt *b, enum ptk_btt_stage s)
{
	return &b->st[s];
}

void ptk_btt_print(const struct ptk_btt *b, FILE *out)
{
	fprintf(out, "==================== All Devices ====================\n\n");
	fprintf(out, "%15s %13s %13s %13s %11s\n", "ALL", "MIN", "AVG", "MAX", "N");
	fprintf(out, "--------------- ------------- ------------- ------------- -----------\n\n");
	for (int s = 0; s < PTK_BTT_NSTAGES; s++) {
		const struct ptk_btt_stat *st = &b->st[s];

		if (!st->n)
			continue;
		fprintf(out, "%-15s %13.9f %13.9f %13.9f %11" PRIu64 "\n", names[s],
			st->min_ns / 1e9, st->sum_ns / st->n / 1e9, st->max_ns / 1e9, st->n);
	}
	fputc('\n', out);
}
