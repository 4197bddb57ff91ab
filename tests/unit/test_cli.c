// SPDX-License-Identifier: GPL-2.0
/*
 * ptk_getopt() (lib/cli.c): the common options set the context, a command's own options
 * come back to it, --help and usage errors end the parse with the exit code to return.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/cli.h"

static const struct option opts[] = {
	{ "group", no_argument, NULL, 'g' },
	{ "depth", required_argument, NULL, 0x1300 },
	PTK_COMMON_OPTS,
	{ 0 },
};

/* Parse argv (NULL-terminated) with "o:a"; the codes the command saw go to seen[]. */
static int parse(char **argv, struct ptk_ctx *ctx, int *rc, int *seen, int nseen)
{
	int argc = 0, c, n = 0;

	while (argv[argc])
		argc++;
	optind = 0; /* full re-initialisation between parses (glibc) */
	opterr = 0;
	while ((c = ptk_getopt(ctx, argc, argv, "+o:a", opts, "usage: test\n", rc)) >= 0)
		if (n < nseen)
			seen[n++] = c;
	return c;
}

static void test_common_and_own(void **state)
{
	char *argv[] = { "cmd", "--json",  "-a",	"--procfs", "/p", "-o",
			 "x",	"--group", "--depth=3", "PID",	    "-a", NULL };
	struct ptk_ctx ctx = { .cmd = "cmd" };
	int rc = -1, seen[8] = { 0 };

	assert_int_equal(parse(argv, &ctx, &rc, seen, 8), PTK_GETOPT_END);
	assert_true(ctx.json);
	assert_string_equal(ctx.procfs, "/p");
	assert_int_equal(seen[0], 'a');
	assert_int_equal(seen[1], 'o');
	assert_int_equal(seen[2], 'g');
	assert_int_equal(seen[3], 0x1300);
	assert_int_equal(seen[4], 0); /* '+': stops at the first operand */
	assert_string_equal(argv[optind], "PID");
	assert_int_equal(rc, -1); /* untouched */
}

static void test_help(void **state)
{
	char *argv[] = { "cmd", "-a", "--help", "-z", NULL };
	struct ptk_ctx ctx = { .cmd = "cmd" };
	int rc = -1, seen[4];

	assert_int_equal(parse(argv, &ctx, &rc, seen, 4), PTK_GETOPT_EXIT);
	assert_int_equal(rc, PTK_EXIT_OK);
}

static void test_usage_errors(void **state)
{
	char *unknown_short[] = { "cmd", "-z", NULL };
	char *unknown_long[] = { "cmd", "--bogus=1", NULL };
	char *missing_short[] = { "cmd", "-o", NULL };
	char *missing_long[] = { "cmd", "--depth", NULL };
	char *extra_arg[] = { "cmd", "--json=yes", NULL };
	char **cases[] = { unknown_short, unknown_long, missing_short, missing_long, extra_arg };
	struct ptk_ctx ctx = { .cmd = "cmd" };
	int seen[4];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = -1;
		assert_int_equal(parse(cases[i], &ctx, &rc, seen, 4), PTK_GETOPT_EXIT);
		assert_int_equal(rc, PTK_EXIT_USAGE);
	}
	assert_false(ctx.json);
}

/* sysstat's first line, as print_gal_header lays it out. */
static void test_sysstat_banner(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ptk_sysstat_banner(f, "Linux", "6.1.0", "host", "x86_64", 2, 86400 * 365, true, false);
	ptk_sysstat_banner(f, "Linux", "6.1.0", "host", "x86_64", 16, 86400 * 365, true, true);
	fclose(f);
	assert_string_equal(buf, "Linux 6.1.0 (host) \t01/01/71 \t_x86_64_\t(2 CPU)\n"
				 "Linux 6.1.0 (host) \t1971-01-01 \t_x86_64_\t(16 CPU)\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_common_and_own),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_sysstat_banner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
