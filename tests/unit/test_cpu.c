// SPDX-License-Identifier: GPL-2.0
/* /proc/stat parsing and CPU percentages, on fixture snapshot trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/delta.h"
#include "source/procfs/procfs.h"

static void read_snap(const char *tree, int snap, struct ptk_stat *st)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, tree, NULL), 0);
	assert_true(src.replay);
	for (int i = 0; i < snap; i++)
		assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_stat_read(&src, st), 0);
}

/* cpu0 iowait 5000 -> 4990 while idle 100000 -> 100100: iowait ~0%, idle ~100%. */
static void test_iowait_backwards(void **state)
{
	struct ptk_stat a = { 0 }, b = { 0 };
	double pct[PTK_CPU_NSTATES];

	read_snap(PTK_FIXTURES "/cpu_iowait_back", 0, &a);
	read_snap(PTK_FIXTURES "/cpu_iowait_back", 1, &b);
	assert_true(a.present[0] && b.present[0]);
	assert_int_equal(a.cpu[0].t[PTK_CPU_IOWAIT], 5000);
	assert_int_equal(b.cpu[0].t[PTK_CPU_IOWAIT], 4990);
	u64 total = ptk_cpu_pct(&a.cpu[0], &b.cpu[0], pct);
	assert_int_equal(total, 100);
	assert_float_equal(pct[PTK_CPU_IOWAIT], 0.0, 1e-9);
	assert_float_equal(pct[PTK_CPU_IDLE], 100.0, 1e-9);
	ptk_stat_free(&a);
	ptk_stat_free(&b);
}

/* cpu1 user 1000 -> 900, the others +100: the row still sums to 100%. */
static void test_field_backwards_sums_100(void **state)
{
	struct ptk_cpu_times o = { { 1000, 100, 100, 100, 100, 100, 100, 100, 0, 0 } };
	struct ptk_cpu_times n = { { 900, 200, 200, 200, 200, 200, 200, 200, 0, 0 } };
	double pct[PTK_CPU_NSTATES], sum = 0;

	ptk_cpu_pct(&o, &n, pct);
	for (int i = 0; i < PTK_CPU_GUEST; i++)
		sum += pct[i];
	assert_float_equal(sum, 100.0, 1e-9);
	assert_float_equal(pct[PTK_CPU_USER], 0.0, 1e-9);
	assert_float_equal(pct[PTK_CPU_IDLE], 100.0 / 7, 1e-9);
}

/* guest is inside user: user +300 of which guest +120, idle +700 => user 30%, guest 12%, and
 * the row (guest excluded) sums to 100. guest_nice is capped by nice. */
static void test_guest_inside_user(void **state)
{
	struct ptk_cpu_times o = { { 1000, 50, 0, 5000, 0, 0, 0, 0, 400, 10 } };
	struct ptk_cpu_times n = { { 1300, 50, 0, 5700, 0, 0, 0, 0, 520, 30 } };
	double pct[PTK_CPU_NSTATES], sum = 0;

	assert_int_equal(ptk_cpu_pct(&o, &n, pct), 1000);
	assert_float_equal(pct[PTK_CPU_USER], 30.0, 1e-9);
	assert_float_equal(pct[PTK_CPU_GUEST], 12.0, 1e-9);
	assert_float_equal(pct[PTK_CPU_IDLE], 70.0, 1e-9);
	/* guest_nice +20 but nice +0: it cannot exceed nice */
	assert_float_equal(pct[PTK_CPU_GUEST_NICE], 0.0, 1e-9);
	for (int i = 0; i < PTK_CPU_GUEST; i++)
		sum += pct[i];
	assert_float_equal(sum, 100.0, 1e-9);
	assert_float_equal(ptk_cpu_busy(pct), 30.0, 1e-9);
}

/* No tick passed (offline CPU, same snapshot twice): idle 100, everything else 0. */
static void test_zero_ticks_idle_100(void **state)
{
	struct ptk_cpu_times t = { { 7, 8, 9, 10, 11, 12, 13, 14, 1, 2 } };
	double pct[PTK_CPU_NSTATES];

	assert_int_equal(ptk_cpu_pct(&t, &t, pct), 0);
	for (int i = 0; i < PTK_CPU_NSTATES; i++)
		assert_float_equal(pct[i], i == PTK_CPU_IDLE ? 100.0 : 0.0, 1e-12);
	assert_float_equal(ptk_cpu_busy(pct), 0.0, 1e-12);
}

/* Every field backwards (counters of a hot-plugged CPU restarted): 0 ticks, idle 100. */
static void test_all_backwards(void **state)
{
	struct ptk_cpu_times o = { { 500, 500, 500, 500, 500, 500, 500, 500, 0, 0 } };
	struct ptk_cpu_times n = { { 5, 5, 5, 5, 5, 5, 5, 5, 0, 0 } };
	double pct[PTK_CPU_NSTATES];

	assert_int_equal(ptk_cpu_pct(&o, &n, pct), 0);
	assert_float_equal(pct[PTK_CPU_IDLE], 100.0, 1e-12);
	assert_float_equal(pct[PTK_CPU_USER], 0.0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iowait_backwards),
		cmocka_unit_test(test_field_backwards_sums_100),
		cmocka_unit_test(test_guest_inside_user),
		cmocka_unit_test(test_zero_ticks_idle_100),
		cmocka_unit_test(test_all_backwards),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
