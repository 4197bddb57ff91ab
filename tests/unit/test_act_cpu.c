// SPDX-License-Identifier: GPL-2.0
/*
 * The cpu activity's cpu_sum rows (model/act_cpu.c), those of ptk mpstat and sar, on fixture
 * trees: the "all" row is the sum of the CPUs shown, not the kernel's aggregate line; an
 * offline CPU has no row; a CPU back online counts from its last known times with idle and
 * iowait restarting, not from a backwards step clamped to 0 (which gave 0.00 %idle and
 * inflated %usr and %sys). Every expected value is computed by hand from the fixture files.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/activity.h"

#define NSNAP 3

struct fx {
	struct ptk_snap s[NSNAP];
	int n;
	struct ptk_rows rs;
};

static void load(struct fx *f, const char *dir)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, dir, NULL), 0);
	for (f->n = 0; f->n < NSNAP; f->n++) {
		if (f->n && ptk_src_next(&src))
			break;
		assert_int_equal(ptk_snap_read(&src, &f->s[f->n], PTK_SNAP_ALL), 0);
	}
}

static int teardown(void **state)
{
	struct fx *f = *state;

	for (int i = 0; i < f->n; i++)
		ptk_snap_free(&f->s[i]);
	ptk_rows_free(&f->rs);
	free(f);
	return 0;
}

static int setup_allsum(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	load(f, PTK_FIXTURES "/cpu_allsum");
	assert_int_equal(f->n, 2);
	*state = f;
	return 0;
}

static int setup_offline(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	load(f, PTK_FIXTURES "/mpstat_offline");
	assert_int_equal(f->n, 2);
	*state = f;
	return 0;
}

static int setup_hotplug(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	load(f, PTK_FIXTURES "/mpstat_hotplug");
	assert_int_equal(f->n, 3);
	*state = f;
	return 0;
}

/* The cpu_sum rows of interval (i-1, i), per CPU, as mpstat -P ALL and sar -P ALL ask. */
static void interval(struct fx *f, int i)
{
	const struct ptk_act_opts o = { .per_cpu = true, .cpu_sum = true };
	const struct ptk_snap *p = &f->s[i - 1], *c = &f->s[i];

	f->rs.n = 0;
	assert_int_equal(
		ptk_activities[PTK_ACT_CPU].rows(p, c, c->up.up_s - p->up.up_s, &o, &f->rs), 0);
}

static double pct(struct fx *f, const char *cpu, enum ptk_mid m)
{
	const struct ptk_row *r = ptk_rows_find(&f->rs, cpu);
	int i = ptk_act_col(&ptk_activities[PTK_ACT_CPU], m);

	if (!r)
		fail_msg("no row for cpu '%s'", cpu);
	assert_true(i >= 0);
	if (r->v[i].na)
		fail_msg("%s of cpu '%s' is unknown", ptk_registry[m].key, cpu);
	return r->v[i].f;
}

#define PCT(f, cpu, m, x) assert_float_equal(pct(f, cpu, PTK_M_##m), (x), 1e-9)

/* Aggregate line: +130 usr +60 sys +100 idle +10 iowait (300 ticks, 43.33 % usr). The CPUs:
 * cpu0 +100 +20 +50 +0, cpu1 +20 +40 +50 +10: 290 ticks. all is their sum, as sysstat. */
static void test_all_is_sum(void **state)
{
	struct fx *f = *state;

	interval(f, 1);
	assert_int_equal(f->rs.n, 3);
	PCT(f, "all", CPU_USR, 100.0 * 120 / 290);
	PCT(f, "all", CPU_SYS, 100.0 * 60 / 290);
	PCT(f, "all", CPU_IDLE, 100.0 * 100 / 290);
	PCT(f, "all", CPU_IOWAIT, 100.0 * 10 / 290);
	PCT(f, "0", CPU_USR, 100.0 * 100 / 170);
	PCT(f, "1", CPU_IOWAIT, 100.0 * 10 / 120);
}

/* online = 0-1,3: cpu2 has no row (was: a row of zeros with 0.00 idle); cpu3 its own 90 usr
 * 5 sys 5 idle of 100 ticks; all = (10+50+90) usr, (10+0+5) sys, (80+50+5) idle of 300. */
static void test_offline_no_row(void **state)
{
	struct fx *f = *state;

	interval(f, 1);
	assert_null(ptk_rows_find(&f->rs, "2"));
	assert_int_equal(f->rs.n, 4);
	PCT(f, "3", CPU_USR, 90.0);
	PCT(f, "3", CPU_SYS, 5.0);
	PCT(f, "3", CPU_IDLE, 5.0);
	PCT(f, "all", CPU_USR, 50.0);
	PCT(f, "all", CPU_SYS, 5.0);
	PCT(f, "all", CPU_IDLE, 45.0);
	assert_false(ptk_act_cpu_shown(&f->s[0], &f->s[1], 2));
	assert_true(ptk_act_cpu_shown(&f->s[0], &f->s[1], 3));
}

/* cpu1 goes offline in 1/ and comes back in 2/ with its idle restarted (10000 -> 50) and
 * iowait 200 -> 0. Interval 1: no cpu1 row, all = cpu0 (50 usr 20 sys 80 idle of 150). Then
 * cpu1 counts from its carried times: +20 usr +10 sys, idle from 0: 50, iowait restarted: 0,
 * 80 ticks: 25 % usr, 12.5 % sys, 62.5 % idle (was 0.00 idle, inflated usr and sys). all:
 * cpu0 +30 +10 +60 and cpu1: 50 usr 20 sys 110 idle of 180. The aggregate line's idle went
 * back 20080 -> 10190: it is not what all counts. */
static void test_hotplug(void **state)
{
	struct fx *f = *state;

	interval(f, 1);
	assert_null(ptk_rows_find(&f->rs, "1"));
	PCT(f, "all", CPU_USR, 100.0 * 50 / 150);
	PCT(f, "all", CPU_IDLE, 100.0 * 80 / 150);
	ptk_act_cpu_carry(&f->s[0], &f->s[1]);
	interval(f, 2);
	PCT(f, "1", CPU_USR, 25.0);
	PCT(f, "1", CPU_SYS, 12.5);
	PCT(f, "1", CPU_IDLE, 62.5);
	PCT(f, "1", CPU_IOWAIT, 0.0);
	PCT(f, "0", CPU_USR, 30.0);
	PCT(f, "all", CPU_USR, 100.0 * 50 / 180);
	PCT(f, "all", CPU_SYS, 100.0 * 20 / 180);
	PCT(f, "all", CPU_IDLE, 100.0 * 110 / 180);
	assert_int_equal(ptk_act_cpu_ticks(&f->s[1], &f->s[2], 1), 80);
}

/* Without the carry, cpu1 has no baseline in 1/ (offline there): no row in interval 2. */
static void test_hotplug_no_baseline(void **state)
{
	struct fx *f = *state;

	interval(f, 2);
	assert_null(ptk_rows_find(&f->rs, "1"));
	PCT(f, "all", CPU_USR, 30.0);
}

/* Counters no kernel writes (an edited archive's: user 2^62 with a guest part past it) sum
 * without overflow (UBSan stopped fuzz_archive here) into finite shares. */
static void test_huge_counters(void **state)
{
	struct fx *f = *state;
	struct ptk_cpu_times *c = &f->s[1].st.cpu[0];

	c->t[PTK_CPU_USER] = 1ull << 62;
	c->t[PTK_CPU_GUEST] = (1ull << 63) + (1ull << 61);
	interval(f, 1);
	for (int k = 0; k < f->rs.n; k++)
		for (int i = 0; ptk_activities[PTK_ACT_CPU].mids[i] != PTK_M_NONE; i++) {
			const struct ptk_val *v = &f->rs.r[k].v[i];
			if (!v->na &&
			    ptk_registry[ptk_activities[PTK_ACT_CPU].mids[i]].type == PTK_V_F64)
				assert_true(isfinite(v->f));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_all_is_sum, setup_allsum, teardown),
		cmocka_unit_test_setup_teardown(test_offline_no_row, setup_offline, teardown),
		cmocka_unit_test_setup_teardown(test_hotplug, setup_hotplug, teardown),
		cmocka_unit_test_setup_teardown(test_hotplug_no_baseline, setup_hotplug, teardown),
		cmocka_unit_test_setup_teardown(test_huge_counters, setup_allsum, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
