// SPDX-License-Identifier: GPL-2.0
/* lib/util.h helpers: strict number parsing, tokens, human-readable sizes, file helpers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/util.h"

static void test_parse_u64(void **state)
{
	u64 v = 0;

	assert_int_equal(ptk_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ptk_parse_u64("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(ptk_parse_u64("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	v = 7;
	assert_int_equal(ptk_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(ptk_parse_u64("-1", &v), -EINVAL);
	assert_int_equal(ptk_parse_u64(" -1", &v), -EINVAL); /* strtoull would negate it */
	assert_int_equal(ptk_parse_u64(" 5", &v), -EINVAL);
	assert_int_equal(ptk_parse_u64("+5", &v), -EINVAL);
	assert_int_equal(ptk_parse_u64("5 ", &v), -EINVAL);
	assert_int_equal(ptk_parse_u64("5x", &v), -EINVAL);
	assert_int_equal(ptk_parse_u64("", &v), -EINVAL);
	assert_int_equal(ptk_parse_u64(NULL, &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched on error */
}

static void test_parse_int(void **state)
{
	int v = 0;

	assert_int_equal(ptk_parse_int("-17", &v), 0);
	assert_int_equal(v, -17);
	assert_int_equal(ptk_parse_int("2147483647", &v), 0);
	assert_int_equal(v, 2147483647);
	assert_int_equal(ptk_parse_int("-2147483648", &v), 0);
	assert_int_equal(v, -2147483648);
	v = 3;
	assert_int_equal(ptk_parse_int("2147483648", &v), -ERANGE);
	assert_int_equal(ptk_parse_int("-2147483649", &v), -ERANGE);
	assert_int_equal(ptk_parse_int("99999999999999999999", &v), -ERANGE);
	assert_int_equal(ptk_parse_int("1.5", &v), -EINVAL);
	assert_int_equal(ptk_parse_int(" 1", &v), -EINVAL);
	assert_int_equal(ptk_parse_int("1 ", &v), -EINVAL);
	assert_int_equal(ptk_parse_int("-", &v), -EINVAL);
	assert_int_equal(ptk_parse_int("", &v), -EINVAL);
	assert_int_equal(v, 3);
}

static void test_parse_double(void **state)
{
	double d = 0;

	assert_int_equal(ptk_parse_double("0.5", &d), 0);
	assert_float_equal(d, 0.5, 0);
	assert_int_equal(ptk_parse_double("2", &d), 0);
	assert_float_equal(d, 2.0, 0);
	assert_int_equal(ptk_parse_double("-1.25", &d), 0);
	assert_float_equal(d, -1.25, 0);
	assert_int_equal(ptk_parse_double("1e3", &d), 0);
	assert_float_equal(d, 1000.0, 0);
	assert_int_equal(ptk_parse_double(".25", &d), 0);
	assert_float_equal(d, 0.25, 0);
	d = 9;
	assert_int_equal(ptk_parse_double("nan", &d), -EINVAL);
	assert_int_equal(ptk_parse_double("inf", &d), -EINVAL);
	assert_int_equal(ptk_parse_double("1e999", &d), -ERANGE);
	assert_int_equal(ptk_parse_double("0x10", &d), -EINVAL); /* not "16 seconds" */
	assert_int_equal(ptk_parse_double("1,5", &d), -EINVAL);
	assert_int_equal(ptk_parse_double(" 1", &d), -EINVAL);
	assert_int_equal(ptk_parse_double("1s", &d), -EINVAL);
	assert_int_equal(ptk_parse_double("", &d), -EINVAL);
	assert_float_equal(d, 9.0, 0);
}

static void test_next_tok(void **state)
{
	const char *p = "  sda\t12  x\nnext", *tok;
	size_t len;

	p = ptk_next_tok(p, &tok, &len);
	assert_non_null(p);
	assert_int_equal(len, 3);
	assert_memory_equal(tok, "sda", 3);
	p = ptk_next_tok(p, &tok, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(tok, "12", 2);
	p = ptk_next_tok(p, &tok, &len);
	assert_int_equal(len, 1);
	assert_memory_equal(tok, "x", 1);
	assert_null(ptk_next_tok(p, &tok, &len)); /* stops at the end of the line */
	assert_null(ptk_next_tok("   ", &tok, &len));
}

static const char *human(u64 bytes, bool si)
{
	static char buf[32];

	ptk_human_bytes(bytes, buf, sizeof(buf), si);
	return buf;
}

/* procps-ng free -h rules (free.c scale_size): bytes while "NB" fits in 4 characters, then
 * per unit "%.1f" if it fits (5 characters with the 'i', 4 for --si), else the truncated
 * integer if that fits, else the next unit. */
static void test_human_bytes(void **state)
{
	assert_string_equal(human(0, false), "0B");
	assert_string_equal(human(999, false), "999B");
	assert_string_equal(human(1023, false), "1.0Ki");
	assert_string_equal(human(1024, false), "1.0Ki");
	assert_string_equal(human(1536, false), "1.5Ki");
	assert_string_equal(human(10240, false), "10Ki");
	assert_string_equal(human(16076, false), "15Ki"); /* 15.7: truncated like procps */
	assert_string_equal(human(999 * 1024, false), "999Ki");
	assert_string_equal(human(1000 * 1024, false), "1.0Mi"); /* "1000Ki" is too wide */
	assert_string_equal(human(4012848ull * 1024, false), "3.8Gi");
	assert_string_equal(human(10694315950ull, false), "9Gi"); /* 9.96Gi: "10.0Gi" too wide */
	assert_string_equal(human(8796093022208ull, false), "8.0Ti");
	assert_string_equal(human(UINT64_MAX, false), "16Ei");
	assert_string_equal(human(999, true), "999B");
	assert_string_equal(human(1000, true), "1.0K");
	assert_string_equal(human(1500000, true), "1.5M");
	assert_string_equal(human(12345678, true), "12M");
	assert_string_equal(human(999999999, true), "999M");
	assert_string_equal(human(4109156352ull, true), "4.1G");
}

static void test_files(void **state)
{
	char dir[] = "/tmp/ptk-test-util-XXXXXX", path[256], buf[8], *s;
	size_t len = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	assert_int_equal(ptk_mkdir_p(path, 0755), 0);
	assert_int_equal(ptk_mkdir_p(path, 0755), 0); /* exists: fine */
	snprintf(path, sizeof(path), "%s/a/b/c/f", dir);
	assert_int_equal(ptk_write_file(path, "hello world\n", 12), 0);
	/* ptk_read_file truncates to size - 1 and NUL-terminates */
	assert_int_equal(ptk_read_file(path, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "hello w");
	s = ptk_slurp(path, &len);
	assert_non_null(s);
	assert_int_equal(len, 12);
	assert_string_equal(s, "hello world\n");
	free(s);
	assert_int_equal(ptk_read_file("/nonexistent/ptk", buf, sizeof(buf)), -ENOENT);
	assert_null(ptk_slurp("/nonexistent/ptk", &len));
	assert_int_equal(errno, ENOENT);
	unlink(path);
	for (int i = 0; i < 3; i++) {
		char *slash = strrchr(path, '/');
		*slash = '\0';
		assert_int_equal(rmdir(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void test_digits_and_ids(void **state)
{
	int *ids = NULL, n = 0;
	char bad[16];

	assert_true(ptk_is_digits("0123"));
	assert_false(ptk_is_digits(""));
	assert_false(ptk_is_digits("12a"));
	assert_false(ptk_is_digits("-1"));
	assert_int_equal(ptk_parse_id_list("12,34", ",", &ids, &n, bad, sizeof(bad)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 12);
	assert_int_equal(ids[1], 34);
	/* appended; a bad token is named, those before it stay */
	assert_int_equal(ptk_parse_id_list("5 6,x,7", ", ", &ids, &n, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(n, 4);
	assert_int_equal(ids[3], 6);
	assert_string_equal(bad, "x");
	assert_int_equal(ptk_parse_id_list("0", ",", &ids, &n, NULL, 0), -EINVAL);
	assert_int_equal(ptk_parse_id_list(",,", ",", &ids, &n, NULL, 0), 0);
	assert_int_equal(n, 4);
	free(ids);
}

/* procps's uptime text: days, H:MM or minutes, users */
static void test_fmt_uptime(void **state)
{
	char b[96];

	ptk_fmt_uptime(59, -1, b, sizeof(b));
	assert_string_equal(b, "up 0 min, ");
	ptk_fmt_uptime(3 * 3600 + 5 * 60 + 9, 1, b, sizeof(b));
	assert_string_equal(b, "up  3:05,  1 user, ");
	ptk_fmt_uptime(86400 + 42 * 60, 2, b, sizeof(b));
	assert_string_equal(b, "up 1 day, 42 min,  2 users, ");
	ptk_fmt_uptime(3 * 86400 + 12 * 3600, 0, b, sizeof(b));
	assert_string_equal(b, "up 3 days, 12:00,  0 user, ");
	ptk_fmt_uptime(3 * 86400, 1, b, 8); /* cut, NUL-terminated */
	assert_string_equal(b, "up 3 da");
}

/* One read loop for the fixed buffer, the growing buffer and ptk_slurp. */
static void test_read_loops(void **state)
{
	char path[] = "/tmp/ptk_test_readXXXXXX", small[8], *p = NULL;
	size_t cap = 0, len;
	int fd = mkstemp(path);
	char big[10000];

	assert_true(fd >= 0);
	memset(big, 'a', sizeof(big));
	assert_int_equal(write(fd, big, sizeof(big)), sizeof(big));
	assert_int_equal(ptk_read_file(path, small, sizeof(small)), 7); /* cut to size - 1 */
	assert_string_equal(small, "aaaaaaa");
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(ptk_read_fd_grow(fd, &p, &cap), sizeof(big));
	assert_true(cap > sizeof(big));
	assert_int_equal(p[sizeof(big)], '\0');
	char *q = ptk_slurp(path, &len);
	assert_non_null(q);
	assert_int_equal(len, sizeof(big));
	assert_memory_equal(q, big, sizeof(big));
	free(q);
	free(p);
	close(fd);
	unlink(path);
	assert_null(ptk_slurp(path, &len));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ptk_read_file(path, small, sizeof(small)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),      cmocka_unit_test(test_parse_int),
		cmocka_unit_test(test_parse_double),   cmocka_unit_test(test_next_tok),
		cmocka_unit_test(test_human_bytes),    cmocka_unit_test(test_files),
		cmocka_unit_test(test_digits_and_ids), cmocka_unit_test(test_fmt_uptime),
		cmocka_unit_test(test_read_loops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
