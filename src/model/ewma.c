// SPDX-License-Identifier: GPL-2.0
#include "model/ewma.h"

#include <math.h>

void ptk_ewma_init(struct ptk_ewma *e, double minutes)
{
	e->alpha = 1.0 - exp(-(PTK_EWMA_TICK_NS / 1e9) / 60.0 / minutes);
	e->rate = 0;
	e->init = false;
	e->uncounted = 0;
}

void ptk_ewma_update(struct ptk_ewma *e, double n)
{
	e->uncounted += n;
}

void ptk_ewma_tick(struct ptk_ewma *e)
{
	double instant = e->uncounted / (PTK_EWMA_TICK_NS / 1e9);

	e->uncounted = 0;
	if (e->init) {
		e->rate += e->alpha * (instant - e->rate);
	} else {
		e->rate = instant;
		e->init = true;
	}
}

void ptk_meter_init(struct ptk_meter *m, u64 now_ns)
{
	m->count = 0;
	m->start_ns = m->last_tick_ns = now_ns;
	ptk_ewma_init(&m->m1, 1);
	ptk_ewma_init(&m->m5, 5);
	ptk_ewma_init(&m->m15, 15);
}

static void tick_all(struct ptk_meter *m)
{
	ptk_ewma_tick(&m->m1);
	ptk_ewma_tick(&m->m5);
	ptk_ewma_tick(&m->m15);
}

static void update_all(struct ptk_meter *m, double n)
{
	ptk_ewma_update(&m->m1, n);
	ptk_ewma_update(&m->m5, n);
	ptk_ewma_update(&m->m15, n);
}

void ptk_meter_tick(struct ptk_meter *m, u64 now_ns)
{
	u64 age;

	if (now_ns <= m->last_tick_ns)
		return;
	age = now_ns - m->last_tick_ns;
	if (age <= PTK_EWMA_TICK_NS)
		return;
	m->last_tick_ns = now_ns - age % PTK_EWMA_TICK_NS;
	for (u64 i = age / PTK_EWMA_TICK_NS; i; i--)
		tick_all(m);
}

void ptk_meter_mark(struct ptk_meter *m, u64 n, u64 now_ns)
{
	ptk_meter_tick(m, now_ns);
	m->count += n;
	update_all(m, (double)n);
}

void ptk_meter_mark_span(struct ptk_meter *m, u64 n, u64 from_ns, u64 to_ns)
{
	double span, done = 0;
	u64 at = from_ns;

	if (from_ns >= to_ns) {
		ptk_meter_mark(m, n, to_ns);
		return;
	}
	span = (double)(to_ns - from_ns);
	/* a boundary is passed when to is strictly beyond it (Meter.tickIfNecessary: age > 5 s) */
	while (to_ns > m->last_tick_ns && to_ns - m->last_tick_ns > PTK_EWMA_TICK_NS) {
		u64 b = m->last_tick_ns + PTK_EWMA_TICK_NS;
		if (b > at) {
			double share = n * ((double)(b - from_ns) / span) - done;
			update_all(m, share);
			done += share;
			at = b;
		}
		tick_all(m);
		m->last_tick_ns = b;
	}
	update_all(m, (double)n - done);
	m->count += n;
}

double ptk_meter_mean(const struct ptk_meter *m, u64 now_ns)
{
	if (!m->count || now_ns <= m->start_ns)
		return 0;
	return (double)m->count / ((now_ns - m->start_ns) / 1e9);
}

double ptk_meter_m1(struct ptk_meter *m, u64 now_ns)
{
	ptk_meter_tick(m, now_ns);
	return m->m1.rate;
}

double ptk_meter_m5(struct ptk_meter *m, u64 now_ns)
{
	ptk_meter_tick(m, now_ns);
	return m->m5.rate;
}

double ptk_meter_m15(struct ptk_meter *m, u64 now_ns)
{
	ptk_meter_tick(m, now_ns);
	return m->m15.rate;
}
