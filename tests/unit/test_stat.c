// SPDX-License-Identifier: GPL-2.0
/* /proc/stat, /proc/loadavg, /proc/uptime readers on fixture trees (tests/fixtures/unit_stat*). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "model/delta.h"
#include "source/procfs/procfs.h"

static void open_snap(struct ptk_src *src, const char *tree, int snap)
{
	assert_int_equal(ptk_src_init(src, tree, NULL), 0);
	for (int i = 0; i < snap; i++)
		assert_int_equal(ptk_src_next(src), 0);
}

static void assert_times(const struct ptk_cpu_times *t, const u64 *want)
{
	for (int i = 0; i < PTK_CPU_NSTATES; i++)
		assert_int_equal(t->t[i], want[i]);
}

/* cpu0, cpu1, cpu3 listed (cpu2 offline, online = "0-1,3"): slots keyed by the label. */
static void test_stat_keyed_by_label(void **state)
{
	struct ptk_src src;
	struct ptk_stat st = { 0 };
	bool online[8] = { 0 };
	static const u64 all[] = {
		4034585, 87368, 1636068, 40271826, 16283, 0, 25195, 0, 175628, 0
	};
	static const u64 c0[] = { 1393280, 32966, 572056, 13343292, 6130, 0, 17875, 0, 23933, 0 };
	static const u64 c1[] = { 1335205, 24402, 563512, 13414463, 5117, 0, 3940, 0, 70000, 0 };
	static const u64 c3[] = { 1306100, 30000, 500500, 13514071, 5036, 0, 3380, 0, 81695, 0 };

	open_snap(&src, PTK_FIXTURES "/unit_stat", 0);
	assert_int_equal(ptk_stat_read(&src, &st), 0);
	assert_int_equal(st.ncpu, 4);
	assert_true(st.present[0]);
	assert_true(st.present[1]);
	assert_false(st.present[2]);
	assert_true(st.present[3]);
	assert_times(&st.all, all);
	assert_times(&st.cpu[0], c0);
	assert_times(&st.cpu[1], c1);
	assert_times(&st.cpu[3], c3); /* not cpu[2]: line order must not matter */
	assert_int_equal(st.ctxt, 381912541);
	assert_int_equal(st.intr, 199292614); /* first field only: the total */
	assert_int_equal(st.processes, 312441);
	assert_int_equal(st.procs_running, 3);
	assert_int_equal(st.procs_blocked, 1);
	assert_int_equal(st.btime, 1700000000);
	/* total excludes guest (already in user): 4034585+87368+1636068+40271826+16283+25195 */
	assert_int_equal(ptk_cpu_total(&st.all), 46071325);

	/* the online list of the same snapshot agrees with the present[] slots */
	assert_int_equal(ptk_cpu_online_read(&src, online, 8), 4);
	for (int i = 0; i < 8; i++)
		assert_int_equal(online[i], i == 0 || i == 1 || i == 3);
	ptk_stat_free(&st);
}

/* Kernel 2.6.0-2.6.10: 7 columns; 2.6.11-2.6.23: 8 (steal). Missing columns read 0. */
static void test_stat_old_kernel_columns(void **state)
{
	struct ptk_src src;
	struct ptk_stat a = { 0 }, b = { 0 };
	double pct[PTK_CPU_NSTATES];
	static const u64 c1_7[] = { 1123, 0, 849, 11313845, 2614, 0, 18, 0, 0, 0 };
	static const u64 c1_8[] = { 1150, 0, 850, 11313870, 2620, 0, 18, 37, 0, 0 };

	open_snap(&src, PTK_FIXTURES "/unit_stat_old", 0);
	assert_int_equal(ptk_stat_read(&src, &a), 0);
	assert_int_equal(a.ncpu, 2);
	assert_times(&a.cpu[1], c1_7);
	assert_int_equal(a.all.t[PTK_CPU_SOFTIRQ], 456);
	assert_int_equal(a.ctxt, 1990473);
	assert_int_equal(a.intr, 114930548);
	assert_int_equal(a.btime, 1062191376);
	assert_int_equal(a.processes, 2915);
	assert_int_equal(a.procs_running, 1);
	assert_int_equal(a.procs_blocked, 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_stat_read(&src, &b), 0);
	assert_times(&b.cpu[1], c1_8);
	assert_int_equal(b.all.t[PTK_CPU_STEAL], 77);
	assert_int_equal(b.procs_blocked, 1);

	/* cpu1 deltas: user 27, system 1, idle 25, iowait 6, steal 37 => total 96 */
	assert_int_equal(ptk_cpu_pct(&a.cpu[1], &b.cpu[1], pct), 96);
	assert_float_equal(pct[PTK_CPU_USER], 100.0 * 27 / 96, 1e-9);
	assert_float_equal(pct[PTK_CPU_STEAL], 100.0 * 37 / 96, 1e-9);
	assert_float_equal(pct[PTK_CPU_IDLE], 100.0 * 25 / 96, 1e-9);
	ptk_stat_free(&a);
	ptk_stat_free(&b);
}

/* Re-parsing into the same struct clears columns and slots the new text lacks. */
static void test_stat_reparse_clears(void **state)
{
	struct ptk_stat st = { 0 };

	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\n"
					"cpu5 1 1 1 1 1 1 1 1 1 1\nctxt 9\n",
					&st),
			 0);
	assert_int_equal(st.ncpu, 6);
	assert_int_equal(st.all.t[PTK_CPU_GUEST_NICE], 10);
	assert_int_equal(st.ctxt, 9);
	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n", &st), 0);
	assert_int_equal(st.ncpu, 1);
	assert_true(st.present[0]);
	assert_false(st.present[5]);
	assert_int_equal(st.all.t[PTK_CPU_GUEST], 0);
	assert_int_equal(st.all.t[PTK_CPU_GUEST_NICE], 0);
	assert_int_equal(st.ctxt, 0);
	ptk_stat_free(&st);
}

static void test_stat_bad_input(void **state)
{
	struct ptk_stat st = { 0 };

	/* no aggregate "cpu" line */
	assert_int_equal(ptk_stat_parse("cpu0 1 2 3 4\nctxt 5\n", &st), -EINVAL);
	assert_int_equal(ptk_stat_parse("", &st), -EINVAL);
	/* a cpuN label that is not a number followed by a space */
	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4\ncpu1x 1 2 3 4\n", &st), -EINVAL);
	ptk_stat_free(&st);
}

static void test_stat_copy(void **state)
{
	struct ptk_src src;
	struct ptk_stat st = { 0 }, cp = { 0 };

	open_snap(&src, PTK_FIXTURES "/unit_stat", 0);
	assert_int_equal(ptk_stat_read(&src, &st), 0);
	ptk_stat_copy(&cp, &st);
	assert_ptr_not_equal(cp.cpu, st.cpu);
	assert_int_equal(cp.ncpu, 4);
	assert_false(cp.present[2]);
	assert_true(cp.present[3]);
	assert_int_equal(cp.cpu[3].t[PTK_CPU_GUEST], 81695);
	assert_int_equal(cp.ctxt, 381912541);
	ptk_stat_free(&st);
	ptk_stat_free(&cp);
}

static void test_loadavg_uptime(void **state)
{
	struct ptk_src src;
	struct ptk_loadavg la;
	struct ptk_uptime up;

	open_snap(&src, PTK_FIXTURES "/unit_stat", 0);
	assert_int_equal(ptk_loadavg_read(&src, &la), 0);
	assert_float_equal(la.load1, 0.52, 1e-12);
	assert_float_equal(la.load5, 1.25, 1e-12);
	assert_float_equal(la.load15, 2.50, 1e-12);
	assert_int_equal(la.nr_running, 3);
	assert_int_equal(la.nr_threads, 412);
	assert_int_equal(la.last_pid, 12345);
	assert_int_equal(ptk_uptime_read(&src, &up), 0);
	assert_float_equal(up.up_s, 12345.67, 1e-9);
	assert_float_equal(up.idle_s, 23456.78, 1e-9);

	/* a snapshot without loadavg */
	open_snap(&src, PTK_FIXTURES "/unit_stat_old", 0);
	assert_int_equal(ptk_loadavg_read(&src, &la), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_keyed_by_label),
		cmocka_unit_test(test_stat_old_kernel_columns),
		cmocka_unit_test(test_stat_reparse_clears),
		cmocka_unit_test(test_stat_bad_input),
		cmocka_unit_test(test_stat_copy),
		cmocka_unit_test(test_loadavg_uptime),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
