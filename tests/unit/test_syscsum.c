// SPDX-License-Identifier: GPL-2.0
/* strace -c's summary (model/syscsum.h): counts, the -S orders and the figures of a row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "model/syscsum.h"

/* read: 3 calls 300 us, 1 error; write: 1 call 600 us; openat: 3 calls 300 us, 3 errors;
 * close: 2 calls 0 us. Total 9 calls, 1200 us, 4 errors. */
static void fill(struct ptk_sysc_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < 3; i++)
		ptk_sysc_count(st, __NR_read, i == 0, 100);
	ptk_sysc_count(st, __NR_write, false, 600);
	for (int i = 0; i < 3; i++)
		ptk_sysc_count(st, __NR_openat, true, 100);
	ptk_sysc_count(st, __NR_close, false, 0);
	ptk_sysc_count(st, __NR_close, false, 0);
	ptk_sysc_count(st, -1, true, 5); /* not a syscall number: ignored */
	ptk_sysc_count(st, PTK_NSYSCALLS, true, 5);
}

static void expect(const struct ptk_sysc_stats *st, enum ptk_sysc_sort by, const int *want)
{
	int rows[PTK_NSYSCALLS];
	struct ptk_sysc_ent tot;

	assert_int_equal(ptk_sysc_summary(st, by, rows, &tot), 4);
	assert_int_equal(tot.calls, 9);
	assert_int_equal(tot.errors, 4);
	assert_int_equal(tot.time_us, 1200);
	for (int i = 0; i < 4; i++)
		assert_int_equal(rows[i], want[i]);
}

static void test_orders(void **state)
{
	struct ptk_sysc_stats *st = malloc(sizeof(*st));
	enum ptk_sysc_sort by;

	fill(st);
	/* ties (read and openat: 300 us, 3 calls) in syscall number order: read 0 < openat */
	expect(st, PTK_SYSC_TIME, (int[]){ __NR_write, __NR_read, __NR_openat, __NR_close });
	expect(st, PTK_SYSC_CALLS, (int[]){ __NR_read, __NR_openat, __NR_close, __NR_write });
	expect(st, PTK_SYSC_ERRORS, (int[]){ __NR_openat, __NR_read, __NR_write, __NR_close });
	expect(st, PTK_SYSC_NAME, (int[]){ __NR_close, __NR_openat, __NR_read, __NR_write });
	expect(st, PTK_SYSC_NOTHING, (int[]){ __NR_read, __NR_write, __NR_close, __NR_openat });
	assert_int_equal(ptk_sysc_sort_parse("time_total", &by), 0);
	assert_int_equal(by, PTK_SYSC_TIME);
	assert_int_equal(ptk_sysc_sort_parse("errors", &by), 0);
	assert_int_equal(by, PTK_SYSC_ERRORS);
	assert_int_equal(ptk_sysc_sort_parse("size", &by), -EINVAL);
	free(st);
}

static void test_figures(void **state)
{
	struct ptk_sysc_ent w = { .calls = 1, .time_us = 600 }, r = { .calls = 3, .time_us = 301 };
	struct ptk_sysc_ent none = { 0 };
	double pct, secs;
	u64 us;

	ptk_sysc_figures(&w, 1200, &pct, &secs, &us);
	assert_float_equal(pct, 50.0, 1e-9);
	assert_float_equal(secs, 0.0006, 1e-12);
	assert_int_equal(us, 600);
	ptk_sysc_figures(&r, 1200, &pct, &secs, &us);
	assert_int_equal(us, 100); /* 301 / 3, truncated as strace */
	ptk_sysc_figures(&none, 0, &pct, &secs, &us);
	assert_float_equal(pct, 0.0, 1e-9);
	assert_int_equal(us, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
