// SPDX-License-Identifier: GPL-2.0
/*
 * The model behind ptk's procps commands (vmstat, free) on fixture trees. Every expected
 * value is computed by hand from the fixture's files, in the comments.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/activity.h"

static void read_tree(const char *dir, struct ptk_snap *s)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, dir, NULL), 0);
	assert_int_equal(ptk_snap_read(&src, s, PTK_SNAP_ALL), 0);
}

static double val(const struct ptk_snap *s, enum ptk_act_id a, enum ptk_mid m, double itv)
{
	struct ptk_rows rs = { 0 };
	int i = ptk_act_col(&ptk_activities[a], m);
	double f;

	assert_true(i >= 0);
	assert_int_equal(ptk_activities[a].rows(NULL, s, itv, NULL, &rs), 0);
	assert_true(rs.n >= 1);
	assert_false(rs.r[0].v[i].na);
	f = rs.r[0].v[i].f;
	ptk_rows_free(&rs);
	return f;
}

/*
 * vmstat's first line (issue 13 defect 4): tests/fixtures/vmstat_boot is a 4-CPU machine up
 * 1000 s, with 400000 CPU ticks at HZ 100 (4 x 1000 s). The since-boot interval is the
 * uptime, so the rates are counter / 1000; procps 4.0.2 divided by the ticks of all CPUs
 * (4000 s at HZ 100), a quarter of these.
 */
static void test_vmstat_since_boot(void **state)
{
	struct ptk_snap s = { 0 };
	double boot;

	read_tree(PTK_FIXTURES "/vmstat_boot", &s);
	boot = ptk_act_boot_s(&s);
	assert_float_equal(boot, 1000.0, 1e-9);
	/* cs: ctxt 2000000 / 1000 s; in: intr 500000 / 1000 s */
	assert_float_equal(val(&s, PTK_ACT_TASK, PTK_M_TASK_CSWCH_S, boot), 2000.0, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_TASK, PTK_M_TASK_INTR_S, boot), 500.0, 1e-9);
	/* bi, bo: pgpgin 3000000 kB, pgpgout 1000500 kB over 1000 s */
	assert_float_equal(val(&s, PTK_ACT_PAGING, PTK_M_PG_PGPGIN, boot), 3000.0, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_PAGING, PTK_M_PG_PGPGOUT, boot), 1000.5, 1e-9);
	/* si, so: pswpin 2500, pswpout 250 pages (4 kB on x86) over 1000 s: 10, 1 kB/s */
	double pkb = (double)sysconf(_SC_PAGESIZE) / 1024;
	assert_float_equal(val(&s, PTK_ACT_SWAP, PTK_M_SWP_SI, boot), 2.5 * pkb, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_SWAP, PTK_M_SWP_SO, boot), 0.25 * pkb, 1e-9);
	/* the shares do not depend on the interval: us 40000/400000, id 330000/400000 */
	assert_float_equal(val(&s, PTK_ACT_CPU, PTK_M_CPU_USER_NICE, boot), 10.0, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_CPU, PTK_M_CPU_IDLE, boot), 82.5, 1e-9);
	/* an uptime of 0 (a damaged tree) is taken as 1 s, never a division by zero */
	s.up.up_s = 0;
	assert_float_equal(ptk_act_boot_s(&s), 1.0, 0);
	ptk_snap_free(&s);
}

/* free -l: the Low/High lines of a CONFIG_HIGHMEM kernel's meminfo (tests/fixtures/
 * free_highmem), and their absence on x86_64 (free_basic: free falls back to MemTotal/MemFree) */
static void test_meminfo_lohi(void **state)
{
	struct ptk_meminfo mi;
	struct ptk_meminfo_lohi lh;
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/free_highmem", NULL), 0);
	assert_int_equal(ptk_meminfo_read_lohi(&src, &mi, &lh), 0);
	assert_true(lh.has_low && lh.has_high);
	assert_int_equal(lh.low_total, 870192);
	assert_int_equal(lh.low_free, 492852);
	assert_int_equal(lh.high_total, 2236360);
	assert_int_equal(lh.high_free, 712020);
	assert_int_equal(mi.mem_total, 3106552); /* the main fields read from the same text */
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/free_basic", NULL), 0);
	assert_int_equal(ptk_meminfo_read_lohi(&src, &mi, &lh), 0);
	assert_false(lh.has_low || lh.has_high);
	/* one line of a pair is not the pair; a value that is not a number is refused */
	assert_int_equal(ptk_meminfo_lohi_parse("LowTotal: 5 kB\nHighFree: 1 kB\n", &lh), 0);
	assert_false(lh.has_low || lh.has_high);
	assert_int_equal(ptk_meminfo_lohi_parse("HighTotal: x kB\n", &lh), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat_since_boot),
		cmocka_unit_test(test_meminfo_lohi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
