// SPDX-License-Identifier: GPL-2.0
/* errno names: every value <errno.h> defines maps back to itself through the table, negative
 * syscall returns work, unknown values give NULL, kernel-internal codes are named. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "lib/errnoname.h"

static void test_known(void **state)
{
	assert_string_equal(ptk_errno_name(ENOENT), "ENOENT");
	assert_string_equal(ptk_errno_name(-ENOENT), "ENOENT");
	assert_string_equal(ptk_errno_name(EACCES), "EACCES");
	assert_string_equal(ptk_errno_name(EAGAIN), "EAGAIN"); /* not EWOULDBLOCK */
	assert_string_equal(ptk_errno_name(ENAMETOOLONG), "ENAMETOOLONG");
	assert_string_equal(ptk_errno_name(EHWPOISON), "EHWPOISON");
	assert_string_equal(ptk_errno_name(-512), "ERESTARTSYS");
	assert_string_equal(ptk_errno_name(524), "ENOTSUPP");
}

static void test_unknown(void **state)
{
	assert_null(ptk_errno_name(0));
	assert_null(ptk_errno_name(41)); /* unassigned */
	assert_null(ptk_errno_name(58)); /* unassigned */
	assert_null(ptk_errno_name(134));
	assert_null(ptk_errno_name(520));
	assert_null(ptk_errno_name(PTK_ERRNO_MAX + 1));
	assert_null(ptk_errno_name(-100000));
	assert_int_equal(ptk_errno_value("ENOSUCH"), -1);
}

/* every name round-trips, and agrees with strerrorname_np where glibc has it */
static void test_roundtrip(void **state)
{
	int named = 0;

	for (int e = 1; e <= PTK_ERRNO_MAX; e++) {
		const char *n = ptk_errno_name(e);
		if (!n)
			continue;
		named++;
		assert_int_equal(ptk_errno_value(n), e);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
		if (e < 512 && strerrorname_np(e))
			assert_string_equal(n, strerrorname_np(e));
#endif
	}
	assert_int_equal(named, 150);
	assert_int_equal(ptk_errno_value("EWOULDBLOCK"), EAGAIN);
	assert_int_equal(ptk_errno_value("EDEADLOCK"), EDEADLK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
