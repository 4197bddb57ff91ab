// SPDX-License-Identifier: GPL-2.0
/* /proc/pressure/{cpu,memory,io}, the cpu online list (tests/fixtures/unit_sys). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "source/procfs/procfs.h"

static void open_snap(struct ptk_src *src, int snap)
{
	assert_int_equal(ptk_src_init(src, PTK_FIXTURES "/unit_sys", NULL), 0);
	for (int i = 0; i < snap; i++)
		assert_int_equal(ptk_src_next(src), 0);
}

/* Kernel 5.4 pressure/cpu has only a "some" line; memory and io have both. */
static void test_psi(void **state)
{
	struct ptk_src src;
	struct ptk_psi psi;

	open_snap(&src, 0);
	assert_int_equal(ptk_psi_read(&src, PTK_PSI_CPU, &psi), 0);
	assert_true(psi.some.present);
	assert_float_equal(psi.some.avg10, 1.23, 1e-12);
	assert_float_equal(psi.some.avg60, 0.50, 1e-12);
	assert_float_equal(psi.some.avg300, 0.10, 1e-12);
	assert_int_equal(psi.some.total_us, 123456789);
	assert_false(psi.full.present);

	assert_int_equal(ptk_psi_read(&src, PTK_PSI_MEMORY, &psi), 0);
	assert_true(psi.some.present);
	assert_true(psi.full.present);
	assert_float_equal(psi.full.avg10, 0.0, 0);
	assert_int_equal(psi.full.total_us, 0);

	assert_int_equal(ptk_psi_read(&src, PTK_PSI_IO, &psi), 0);
	assert_float_equal(psi.some.avg10, 12.34, 1e-12);
	assert_float_equal(psi.some.avg60, 5.67, 1e-12);
	assert_float_equal(psi.some.avg300, 1.01, 1e-12);
	assert_int_equal(psi.some.total_us, 98765432101ull); /* beyond 32 bits */
	assert_true(psi.full.present);
	assert_float_equal(psi.full.avg10, 10.50, 1e-12);
	assert_float_equal(psi.full.avg60, 4.25, 1e-12);
	assert_float_equal(psi.full.avg300, 0.75, 1e-12);
	assert_int_equal(psi.full.total_us, 87654321012ull);

	assert_string_equal(ptk_psi_res_name[PTK_PSI_CPU], "cpu");
	assert_string_equal(ptk_psi_res_name[PTK_PSI_MEMORY], "memory");
	assert_string_equal(ptk_psi_res_name[PTK_PSI_IO], "io");

	/* snapshot 1: a kernel without PSI */
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_psi_read(&src, PTK_PSI_CPU, &psi), -ENOENT);
}

/* The kernel's fixed form is parsed by hand, any other by sscanf: both give strtod's double
 * exactly (==, not within a tolerance), and the total to its last digit. */
static void test_psi_parse_forms(void **state)
{
	static const char *const num[] = { "0.00", "0.29", "99.99", "100.00", "1.1", "7.123456" };
	char text[160], *end;
	struct ptk_psi psi;

	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++) {
		double x = strtod(num[i], &end);
		snprintf(text, sizeof(text), "some avg10=%s avg60=%s avg300=%s total=18446744073\n",
			 num[i], num[i], num[i]);
		assert_int_equal(ptk_psi_parse(text, &psi), 0);
		assert_true(psi.some.avg10 == x && psi.some.avg60 == x && psi.some.avg300 == x);
		assert_int_equal(psi.some.total_us, 18446744073ull);
	}
	/* forms the hand parser leaves to sscanf: no decimals, a total at the end of the text,
	 * a total of 20 digits */
	assert_int_equal(ptk_psi_parse("some avg10=3 avg60=0.50 avg300=0.10 total=42", &psi), 0);
	assert_true(psi.some.avg10 == 3.0 && psi.some.avg60 == 0.5 && psi.some.total_us == 42);
	assert_int_equal(ptk_psi_parse("some avg10=1.00 avg60=2.00 avg300=3.00 "
				       "total=10000000000000000000\n",
				       &psi),
			 0);
	assert_int_equal(psi.some.total_us, 10000000000000000000ull);
	assert_true(psi.some.avg300 == 3.0);
}

static void test_psi_parse_bad(void **state)
{
	struct ptk_psi psi;

	assert_int_equal(ptk_psi_parse("", &psi), -EINVAL);
	assert_int_equal(ptk_psi_parse("full avg10=1.00 avg60=1.00 avg300=1.00 total=5\n", &psi),
			 -EINVAL); /* no "some" */
	assert_int_equal(ptk_psi_parse("some avg10=x avg60=1.00 avg300=1.00 total=5\n", &psi),
			 -EINVAL);
	assert_false(psi.some.present);
}

static int cpulist(const char *s, bool *mask, int nbits)
{
	memset(mask, 0, nbits * sizeof(*mask));
	return ptk_parse_cpulist(s, mask, nbits);
}

static void assert_mask(const bool *mask, int nbits, const char *want)
{
	for (int i = 0; i < nbits; i++)
		if (mask[i] != (want[i] == '1'))
			fail_msg("cpu %d: %d, want %c (%s)", i, mask[i], want[i], want);
}

static void test_parse_cpulist(void **state)
{
	bool m[12];

	assert_int_equal(cpulist("0-3,5,7-8", m, 12), 9);
	assert_mask(m, 12, "111101011000");
	assert_int_equal(cpulist("0", m, 12), 1);
	assert_mask(m, 12, "100000000000");
	assert_int_equal(cpulist("0-1,3\n", m, 12), 4);
	assert_mask(m, 12, "110100000000");
	assert_int_equal(cpulist("11", m, 12), 12);
	assert_mask(m, 12, "000000000001");
	/* CPUs beyond the mask: counted in the return value, not written past the end */
	assert_int_equal(cpulist("2,14-15", m, 4), 16);
	assert_mask(m, 4, "0010");
	/* bad input */
	assert_int_equal(cpulist("a", m, 12), -EINVAL);
	assert_int_equal(cpulist("3-1", m, 12), -EINVAL);
	assert_int_equal(cpulist("1-", m, 12), -EINVAL);
	assert_int_equal(cpulist("-1", m, 12), -EINVAL);
	assert_int_equal(cpulist("1,,2", m, 12), -EINVAL);
	assert_int_equal(cpulist("1 2", m, 12), -EINVAL);
	assert_int_equal(cpulist("0-3x", m, 12), -EINVAL);
	assert_int_equal(cpulist("99999999999999999999", m, 12), -EINVAL);
	assert_int_equal(cpulist("0-9223372036854775807", m, 12), -EINVAL);
	assert_int_equal(cpulist("4294967296", m, 12), -EINVAL);
}

static void test_cpu_online_read(void **state)
{
	struct ptk_src src;
	bool m[10];

	open_snap(&src, 0);
	memset(m, 1, sizeof(m)); /* the reader clears the mask itself */
	assert_int_equal(ptk_cpu_online_read(&src, m, 10), 9);
	assert_mask(m, 10, "1111010110");
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_cpu_online_read(&src, m, 10), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_psi_parse_forms),
		cmocka_unit_test(test_psi_parse_bad),
		cmocka_unit_test(test_parse_cpulist),
		cmocka_unit_test(test_cpu_online_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
