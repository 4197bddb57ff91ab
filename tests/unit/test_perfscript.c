// SPDX-License-Identifier: GPL-2.0
/* perf script -> folded stacks (stackcollapse-perf.pl rules), on hand-made and real captures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/perfscript.h"

/* Collapse a whole file into f; returns the parser (released) counters in *ps. */
static void collapse_file(const char *path, struct ptk_folded *f,
			  const struct ptk_perfscript_opts *o, struct ptk_perfscript *ps)
{
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	assert_non_null(in);
	ptk_perfscript_init(ps, f, o);
	while (getline(&line, &cap, in) >= 0)
		ptk_perfscript_line(ps, line);
	ptk_perfscript_finish(ps);
	ptk_perfscript_release(ps);
	free(line);
	fclose(in);
}

static char *folded_text(struct ptk_folded *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_int_equal(ptk_folded_write(f, m), 0);
	fclose(m);
	return buf;
}

/* Every header and frame form of the fixture, compared line by line with the expected
 * folded output (written by hand from stackcollapse-perf.pl's rules); no sample dropped. */
static void test_fixture_matches_expected(void **state)
{
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;
	size_t len;
	char *want = ptk_slurp(PTK_FIXTURES "/flame_perf/expected.folded", &len);
	char *got;

	assert_non_null(want);
	collapse_file(PTK_FIXTURES "/flame_perf/perf.script", f, NULL, &ps);
	got = folded_text(f);
	assert_string_equal(got, want);
	assert_int_equal(ps.samples_in, 11);
	assert_int_equal(ps.samples_out, 11);
	assert_int_equal(f->total, 11);
	assert_int_equal(ps.samples_filtered, 0);
	assert_int_equal(ps.lines_skipped, 2); /* the two srcline lines */
	assert_int_equal(ps.nev, 2);
	assert_string_equal(ps.ev[0].name, "cycles");
	assert_int_equal(ps.ev[0].samples, 9);
	assert_string_equal(ps.ev[1].name, "instructions");
	assert_int_equal(ps.ev[1].samples, 2);
	free(got);
	free(want);
	ptk_folded_free(f);
}

/* --event keeps one event; the others are counted, not lost. */
static void test_event_filter(void **state)
{
	struct ptk_perfscript_opts o = { .event = "instructions" };
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;
	char *got;

	collapse_file(PTK_FIXTURES "/flame_perf/perf.script", f, &o, &ps);
	got = folded_text(f);
	assert_string_equal(got, "swapper;start_kernel;default_idle;native_safe_halt 2\n");
	assert_int_equal(ps.samples_in, 11);
	assert_int_equal(ps.samples_out, 2);
	assert_int_equal(ps.samples_filtered, 9);
	free(got);
	ptk_folded_free(f);
}

/* --tid / --pid naming: comm-PID/TID, "?" when perf printed only the TID. */
static void test_pid_tid_names(void **state)
{
	struct ptk_perfscript_opts o = { .tid = true, .annotate_kernel = true };
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;
	char *got;

	ptk_perfscript_init(&ps, f, &o);
	ptk_perfscript_line(&ps, "java 4000/4001 [001] 1.000000: 1 cycles:\n");
	ptk_perfscript_line(&ps, "\tffffffff81000000 schedule+0x1 ([kernel.kallsyms])\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_line(&ps, "Plex DLNA Serve 26638 [001] 856620.530720: 2654110 cycles:\n");
	ptk_perfscript_line(&ps, "\t7f00 main (/opt/my app/plex)\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_finish(&ps);
	ptk_perfscript_release(&ps);
	got = folded_text(f);
	assert_string_equal(got, "Plex_DLNA_Serve-?/26638;main 1\n"
				 "java-4000/4001;schedule_[k] 1\n");
	free(got);
	ptk_folded_free(f);

	o = (struct ptk_perfscript_opts){ .pid = true };
	f = ptk_folded_new();
	ptk_perfscript_init(&ps, f, &o);
	ptk_perfscript_line(&ps, "[ET_NET 0] 1234/1240 [000] 5.5: 1 cycles:\n");
	ptk_perfscript_line(&ps, "\t55 f (/x)\n");
	ptk_perfscript_finish(&ps);
	ptk_perfscript_release(&ps);
	got = folded_text(f);
	assert_string_equal(got, "[ET_NET_0]-1234;f 1\n");
	free(got);
	ptk_folded_free(f);
}

/* The tidy rules one by one. */
static void test_tidy(void **state)
{
	char b[256];
#define TIDY(sym, dso, java) \
	ptk_perfscript_tidy(sym, strlen(sym), dso, strlen(dso), java, b, sizeof(b))
	TIDY("func+0x1a", "/lib/x.so", false);
	assert_string_equal(b, "func");
	TIDY("func+0xzz", "/lib/x.so", false); /* not an offset: kept */
	assert_string_equal(b, "func+0xzz");
	TIDY("[unknown]", "/opt/my app/lib.so", false);
	assert_string_equal(b, "[lib.so]");
	TIDY("[unknown]", "[unknown]", false);
	assert_string_equal(b, "[unknown]");
	TIDY("[unknown]", "", false);
	assert_string_equal(b, "[unknown]");
	TIDY("foo(int, char const*)", "", false);
	assert_string_equal(b, "foo");
	TIDY("net/http.(*Client).Do", "", false);
	assert_string_equal(b, "net/http.(*Client).Do");
	TIDY("(anonymous namespace)::f(int)", "", false);
	assert_string_equal(b, "(anonymous namespace)::f");
	TIDY("RegExp:[&<>\"']", "/tmp/perf-1.map", false);
	assert_string_equal(b, "RegExp:[&<>]");
	TIDY("Ljava/lang/Thread;::run", "", true);
	assert_string_equal(b, "java/lang/Thread:::run");
	TIDY("Ljava/lang/Thread;::run", "", false);
	assert_string_equal(b, "Ljava/lang/Thread:::run");
#undef TIDY
}

/* Inlined frames "a->b" (perf script --inline): b annotated _[i], a closer to the root. */
static void test_inline_and_jit(void **state)
{
	struct ptk_perfscript_opts o = { .annotate_jit = true };
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;
	char *got;

	ptk_perfscript_init(&ps, f, &o);
	ptk_perfscript_line(&ps, "node 10 1.0: 1 cycles:\n");
	ptk_perfscript_line(&ps, "\t7f01 LazyCompile:~run /app/x.js:1 (/tmp/perf-10.map)\n");
	ptk_perfscript_line(&ps, "\t4001 outer->inner (/usr/bin/node)\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_finish(&ps);
	ptk_perfscript_release(&ps);
	got = folded_text(f);
	assert_string_equal(got, "node;outer;inner_[i];LazyCompile:~run /app/x.js:1_[j] 1\n");
	free(got);
	ptk_folded_free(f);
}

/* A real capture from this kind of machine: perf record -F 999 -g (cpu-clock, no cpu
 * column); 40 samples, all kept. */
static void test_real_capture(void **state)
{
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;
	size_t len;
	char *want = ptk_slurp(PTK_FIXTURES "/flame_real/expected.folded", &len), *got;

	assert_non_null(want);
	collapse_file(PTK_FIXTURES "/flame_real/perf.script", f, NULL, &ps);
	got = folded_text(f);
	assert_string_equal(got, want);
	assert_int_equal(ps.samples_in, ps.samples_out);
	assert_int_equal(ps.lines_skipped, 0);
	assert_int_equal(f->total, ps.samples_in);
	free(got);
	free(want);
	ptk_folded_free(f);
}

static void test_detect(void **state)
{
	assert_false(ptk_perfscript_detect("main;foo 12\n", "main;bar 3\n"));
	assert_false(ptk_perfscript_detect("[ET_NET 0];x 5\n", NULL));
	assert_true(ptk_perfscript_detect("perf 12 [000] 1.0: 1 cycles:\n", "\tffff f (k)\n"));
	assert_true(ptk_perfscript_detect("comm 12\n", "\tffff f (k)\n"));
	assert_true(ptk_perfscript_detect("swapper 0 [000] 1.0: cpu-clock:\n", NULL));
	assert_false(ptk_perfscript_detect(NULL, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_matches_expected),
		cmocka_unit_test(test_event_filter),
		cmocka_unit_test(test_pid_tid_names),
		cmocka_unit_test(test_tidy),
		cmocka_unit_test(test_inline_and_jit),
		cmocka_unit_test(test_real_capture),
		cmocka_unit_test(test_detect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
