// SPDX-License-Identifier: GPL-2.0
/*
 * Coda Hale meters. Expected values are worked out by hand from the Meter/EWMA formulas:
 * alpha_M = 1 - exp(-5/60/M); a tick sets rate = uncounted / 5 s the first time, then
 * rate += alpha * (instant - rate); so after k ticks of nothing a rate r0 is r0 * exp(-5k/60/M).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/ewma.h"

#define S(x) ((u64)((x)*1000000000.0))

static void test_alpha(void **state)
{
	struct ptk_ewma e;

	ptk_ewma_init(&e, 1);
	assert_float_equal(e.alpha, 0.07995558537067671, 1e-15);
	ptk_ewma_init(&e, 5);
	assert_float_equal(e.alpha, 0.01652854617838251, 1e-15);
	ptk_ewma_init(&e, 15);
	assert_float_equal(e.alpha, 0.005540151995103271, 1e-15);
}

/* The metrics-core EWMA example: 3 events, one tick = 0.6/s; then a minute (12 ticks) of
 * nothing: 0.6 * exp(-1) for m1, 0.6 * exp(-1/5) for m5, 0.6 * exp(-1/15) for m15. */
static void test_ewma_decay(void **state)
{
	struct ptk_ewma e1, e5, e15;

	ptk_ewma_init(&e1, 1);
	ptk_ewma_init(&e5, 5);
	ptk_ewma_init(&e15, 15);
	ptk_ewma_update(&e1, 3);
	ptk_ewma_update(&e5, 3);
	ptk_ewma_update(&e15, 3);
	ptk_ewma_tick(&e1);
	ptk_ewma_tick(&e5);
	ptk_ewma_tick(&e15);
	assert_float_equal(e1.rate, 0.6, 1e-12);
	assert_float_equal(e15.rate, 0.6, 1e-12);
	for (int i = 0; i < 12; i++) {
		ptk_ewma_tick(&e1);
		ptk_ewma_tick(&e5);
		ptk_ewma_tick(&e15);
	}
	assert_float_equal(e1.rate, 0.2207276647028654, 1e-9);
	assert_float_equal(e5.rate, 0.49123845184678905, 1e-9);
	assert_float_equal(e15.rate, 0.5613041910189707, 1e-9);
}

/* A constant 100/s sampled every second converges at once: every tick sees 500 events. */
static void test_constant_rate(void **state)
{
	struct ptk_meter m;

	ptk_meter_init(&m, 0);
	assert_float_equal(ptk_meter_mean(&m, 0), 0, 0);
	for (int t = 1; t <= 5; t++)
		ptk_meter_mark_span(&m, 100, S(t - 1), S(t));
	assert_false(ptk_meter_ticked(&m)); /* 5 s is not "more than" one tick interval */
	assert_float_equal(ptk_meter_m1(&m, S(5)), 0, 0);
	for (int t = 6; t <= 600; t++)
		ptk_meter_mark_span(&m, 100, S(t - 1), S(t));
	assert_true(ptk_meter_ticked(&m));
	assert_int_equal(m.count, 60000);
	assert_float_equal(ptk_meter_mean(&m, S(600)), 100, 1e-9);
	assert_float_equal(ptk_meter_m1(&m, S(600)), 100, 1e-9);
	assert_float_equal(ptk_meter_m5(&m, S(600)), 100, 1e-9);
	assert_float_equal(ptk_meter_m15(&m, S(600)), 100, 1e-9);
}

/* 100/s for 30 s, then 200/s. At t = 61 the ticks at 5..30 saw 100/s and those at 35..60
 * saw 200/s: m = 200 - 100 * (1 - alpha)^6 = 200 - 100 * exp(-30/60/M). */
static void test_step_change(void **state)
{
	struct ptk_meter m;

	ptk_meter_init(&m, 0);
	for (int t = 1; t <= 61; t++)
		ptk_meter_mark_span(&m, t <= 30 ? 100 : 200, S(t - 1), S(t));
	assert_int_equal(m.count, 30 * 100 + 31 * 200);
	assert_float_equal(ptk_meter_mean(&m, S(61)), 150.81967213114754, 1e-9);
	assert_float_equal(ptk_meter_m1(&m, S(61)), 139.34693402873665, 1e-9);
	assert_float_equal(ptk_meter_m5(&m, S(61)), 109.51625819640405, 1e-9);
	assert_float_equal(ptk_meter_m15(&m, S(61)), 103.27838995179941, 1e-9);
	assert_int_equal(m.last_tick_ns, S(60));
}

/* Meter.mark semantics: tick only when more than 5 s passed, as many ticks as whole periods,
 * the tick time stays on start + k * 5 s, and events marked at a tick count in the next. */
static void test_tick_alignment(void **state)
{
	struct ptk_meter m;

	ptk_meter_init(&m, S(100));
	for (int t = 1; t <= 5; t++)
		ptk_meter_mark(&m, 1, S(100 + t));
	assert_false(ptk_meter_ticked(&m));
	ptk_meter_mark(&m, 1, S(106)); /* tick first (5 events -> 1/s), then count 1 */
	assert_true(ptk_meter_ticked(&m));
	assert_int_equal(m.last_tick_ns, S(105));
	assert_float_equal(m.m1.rate, 1.0, 1e-12);
	ptk_meter_mark(&m, 0, S(117)); /* 12 s: two ticks, 1 event then none */
	assert_int_equal(m.last_tick_ns, S(115));
	assert_float_equal(m.m1.rate, 0.861194262838356, 1e-12);
	ptk_meter_tick(&m, S(120)); /* exactly 5 s: not yet */
	assert_int_equal(m.last_tick_ns, S(115));
	ptk_meter_tick(&m, S(120) + 1);
	assert_int_equal(m.last_tick_ns, S(120));
	assert_float_equal(m.m1.rate, 0.861194262838356 * (1 - 0.07995558537067671), 1e-12);
	assert_float_equal(ptk_meter_mean(&m, S(107)), 6.0 / 7, 1e-12);
}

/* Spans that straddle tick boundaries put each share in its own tick: 3 s samples of 300
 * events give 500 per 5 s tick; a 12 s span of 120 gives two ticks of 50 and keeps 20. */
static void test_span_split(void **state)
{
	struct ptk_meter m, g;

	ptk_meter_init(&m, 0);
	for (int t = 3; t <= 600; t += 3)
		ptk_meter_mark_span(&m, 300, S(t - 3), S(t));
	assert_float_equal(ptk_meter_m1(&m, S(600)), 100, 1e-9);
	assert_float_equal(ptk_meter_m15(&m, S(600)), 100, 1e-9);

	ptk_meter_init(&g, 0);
	ptk_meter_mark_span(&g, 120, 0, S(12));
	assert_int_equal(g.last_tick_ns, S(10));
	assert_float_equal(g.m1.rate, 10, 1e-9);
	assert_float_equal(g.m1.uncounted, 20, 1e-9);
	assert_int_equal(g.count, 120);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alpha),	       cmocka_unit_test(test_ewma_decay),
		cmocka_unit_test(test_constant_rate),  cmocka_unit_test(test_step_change),
		cmocka_unit_test(test_tick_alignment), cmocka_unit_test(test_span_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
