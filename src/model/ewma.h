/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate meters as the Coda Hale / Dropwizard Metrics Meter defines them: a count, a mean rate
 * (count / elapsed), and 1-, 5- and 15-minute exponentially weighted moving averages that are
 * ticked every 5 s, alpha = 1 - exp(-5 / 60 / M) for the M-minute rate, so they decay like the
 * UNIX load averages. Time is whatever the caller passes (ns on any monotonic axis; a replay
 * passes the snapshots' uptime), which makes the meters deterministic and testable.
 *
 * Semantics kept from the Java original (metrics-core Meter/EWMA):
 *  - events marked since the last tick are "uncounted"; a tick turns them into the instant
 *    rate uncounted / 5 s; the first tick sets the rate, later ticks move it by alpha;
 *  - ticks happen lazily on mark() and on reads, when more than 5 s passed since the last tick
 *    (strictly more); as many ticks as whole 5 s periods elapsed, and the last-tick time stays
 *    aligned to start + k * 5 s;
 *  - mark() ticks first, then counts, so the events marked at a tick belong to the next one;
 *  - until the first tick the moving averages read 0 (ptk_meter_ticked() says whether one
 *    happened, so a caller can show "not yet" instead of a 0 that looks like a measurement).
 *
 * A sampler that reads a counter every interval knows only that n events happened somewhere
 * in (from, to]; marking them all at `to` would push the events before a tick boundary into
 * the next 5 s period. ptk_meter_mark_span() spreads them evenly instead: the share that falls
 * before each boundary is counted in that boundary's tick, which is what the Java Meter gets
 * when every event is marked as it happens at a steady pace.
 */
#ifndef PTK_MODEL_EWMA_H
#define PTK_MODEL_EWMA_H

#include <stdbool.h>

#include "lib/util.h"

#define PTK_EWMA_TICK_NS 5000000000ull /* 5 s, the Meter's tick interval */

/* One exponentially weighted moving average of a rate. */
struct ptk_ewma {
	double alpha; /* 1 - exp(-tick / 60 s / minutes) */
	double rate; /* events per second */
	bool init; /* the first tick happened */
	double uncounted; /* events since the last tick (fractional: see mark_span) */
};

/* Set up an M-minute EWMA ticked every 5 s (alpha = 1 - exp(-5/60/minutes)). */
void ptk_ewma_init(struct ptk_ewma *e, double minutes);
/* Count n events towards the next tick. */
void ptk_ewma_update(struct ptk_ewma *e, double n);
/* One 5 s tick: instant = uncounted / 5 s; rate = instant (first tick) or
 * rate + alpha * (instant - rate). */
void ptk_ewma_tick(struct ptk_ewma *e);

/* A meter: count, mean rate, and the 1/5/15-minute rates. */
struct ptk_meter {
	u64 count; /* events marked since start */
	u64 start_ns; /* when the meter was created */
	u64 last_tick_ns; /* start + k * 5 s: the last tick boundary */
	struct ptk_ewma m1, m5, m15;
};

/* Create a meter at time now_ns (ns, caller's monotonic axis). */
void ptk_meter_init(struct ptk_meter *m, u64 now_ns);
/* Tick as many times as whole 5 s periods passed since the last tick, if more than 5 s
 * passed (Meter.tickIfNecessary). Called by mark and the rate getters. */
void ptk_meter_tick(struct ptk_meter *m, u64 now_ns);
/* Mark n events at now_ns: tick if necessary, then count them. */
void ptk_meter_mark(struct ptk_meter *m, u64 n, u64 now_ns);
/*
 * Mark n events that happened evenly over (from_ns, to_ns] (a counter delta between two
 * reads). For every tick boundary B = last_tick + 5 s with B < to_ns, the events of
 * (from, B] are counted and the meter ticks at B; the rest are counted towards the next
 * tick. from_ns >= to_ns marks all n at to_ns (as ptk_meter_mark).
 */
void ptk_meter_mark_span(struct ptk_meter *m, u64 n, u64 from_ns, u64 to_ns);
/* True once the moving averages have had a tick (more than 5 s after start). */
static inline bool ptk_meter_ticked(const struct ptk_meter *m)
{
	return m->m1.init;
}
/* count / (now - start) in events per second; 0 when nothing was counted or no time passed. */
double ptk_meter_mean(const struct ptk_meter *m, u64 now_ns);
/* The 1-, 5-, 15-minute rates in events per second (ticking first, as the getters of the
 * Java Meter do). */
double ptk_meter_m1(struct ptk_meter *m, u64 now_ns);
double ptk_meter_m5(struct ptk_meter *m, u64 now_ns);
double ptk_meter_m15(struct ptk_meter *m, u64 now_ns);

#endif
