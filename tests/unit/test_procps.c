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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat_since_boot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
