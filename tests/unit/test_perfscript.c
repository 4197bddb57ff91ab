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
	/* the first event (cycles) is kept, each sample weighted by its period */
	assert_int_equal(ps.samples_in, 11);
	assert_int_equal(ps.samples_out, 9);
	assert_int_equal(ps.samples_filtered, 2);
	assert_int_equal(f->total, 2 * 2654110 + 5 * 1000000 + 2 * 1);
	assert_int_equal(ps.weight_out, f->total);
	assert_int_equal(ps.lines_skipped, 2); /* the two srcline lines */
	assert_int_equal(ps.nev, 2);
	assert_string_equal(ps.ev[0].name, "cycles");
	assert_int_equal(ps.ev[0].samples, 9);
	assert_true(ps.ev[0].kept);
	assert_string_equal(ps.ev[1].name, "instructions");
	assert_int_equal(ps.ev[1].samples, 2);
	assert_false(ps.ev[1].kept);
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
	assert_string_equal(got, "swapper;start_kernel;default_idle;native_safe_halt 2000000\n");
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
	assert_string_equal(got, "Plex_DLNA_Serve-?/26638;main 2654110\n"
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

	/* a one-character comm as perf script -F comm,pid,tid prints it (two blanks before the
	 * pid) keeps its first blank, as stackcollapse-perf.pl; with one blank it is read whole,
	 * and a header perf indented (no -g) is not Perl's */
	f = ptk_folded_new();
	ptk_perfscript_init(&ps, f, &o);
	ptk_perfscript_line(&ps, "w  9503/9503  [000] 13490.393031: cpu-clock:pppH: \n");
	ptk_perfscript_line(&ps, "\t55 f (/x)\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_line(&ps, "a 7/7 [000] 1.0: 3 cpu-clock:pppH:\n");
	ptk_perfscript_line(&ps, "\t55 g (/x)\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_line(&ps, "               b  8 [000] 2.0: 4 cpu-clock:pppH:  55 h (/x)\n");
	ptk_perfscript_finish(&ps);
	ptk_perfscript_release(&ps);
	got = folded_text(f);
	assert_string_equal(got, "a-7;g 3\nb-?;h 4\nw_-9503;f 1\n");
	free(got);
	ptk_folded_free(f);

	/* a tid of 0 (the idle task, "0/0") is none to Perl: the pid goes in its place */
	o = (struct ptk_perfscript_opts){ .tid = true };
	f = ptk_folded_new();
	ptk_perfscript_init(&ps, f, &o);
	ptk_perfscript_line(&ps, "swapper     0/0     [000] 13490.393031: cpu-clock:pppH: \n");
	ptk_perfscript_line(&ps, "\t55 pv_native_safe_halt (/x)\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_line(&ps, "x  123/0  [001] 1.0: cpu-clock:pppH: \n");
	ptk_perfscript_line(&ps, "\t55 f (/x)\n");
	ptk_perfscript_line(&ps, "\n");
	ptk_perfscript_line(&ps, "kworker/0:1  0/77  [001] 1.0: cpu-clock:pppH: \n");
	ptk_perfscript_line(&ps, "\t55 f (/x)\n");
	ptk_perfscript_finish(&ps);
	ptk_perfscript_release(&ps);
	got = folded_text(f);
	assert_string_equal(
		got, "kworker/0:1-0/77;f 1\nswapper-?/0;pv_native_safe_halt 1\nx_-?/123;f 1\n");
	free(got);
	ptk_folded_free(f);
}

/* The tidy rules one by one. */
static void test_tidy(void **state)
{
	char b[256];
#define TIDY(sym, dso, java) \
	ptk_perfscript_tidy(sym, strlen(sym), dso, strlen(dso), NULL, 0, java, b, sizeof(b))
	TIDY("[unknown]", "/opt/my app/lib.so", false);
	assert_string_equal(b, "[lib.so]");
	TIDY("[unknown]", "[unknown]", false);
	assert_string_equal(b, "[unknown]");
	TIDY("[unknown]", "", false); /* a DSO printed as "()" is a known, empty name */
	assert_string_equal(b, "[]");
	TIDY("[unknown]", "[kernel.kallsyms]", false);
	assert_string_equal(b, "[[kernel.kallsyms]]");
	ptk_perfscript_tidy("[unknown]", 9, "/lib/x.so", 9, "7f01", 4, false, b, sizeof(b));
	assert_string_equal(b, "[x.so <7f01>]"); /* --addrs */
	ptk_perfscript_tidy("[unknown]", 9, "[unknown]", 9, "7f01", 4, false, b, sizeof(b));
	assert_string_equal(b, "[unknown <7f01>]");
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
	assert_int_equal(f->total, ps.samples_in * 1001001); /* cpu-clock's period, in ns */
	free(got);
	free(want);
	ptk_folded_free(f);
}

/* Collapse lines (NULL-terminated list) with o; the folded text (caller frees). */
static char *collapse_lines(const char *const *lines, const struct ptk_perfscript_opts *o)
{
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;
	char *got;

	ptk_perfscript_init(&ps, f, o);
	for (int i = 0; lines[i]; i++)
		ptk_perfscript_line(&ps, lines[i]);
	ptk_perfscript_finish(&ps);
	ptk_perfscript_release(&ps);
	got = folded_text(f);
	ptk_folded_free(f);
	return got;
}

/* The cases of issue 17, each as stackcollapse-perf.pl collapses it. */
static void test_perl_semantics(void **state)
{
	/* the period is the weight: 1000 + 3000 */
	static const char *const period[] = { "dd 1 [000] 1.0: 1000 cycles:",
					      "\t1 main (/bin/dd)",
					      "",
					      "dd 1 [000] 2.0: 3000 cycles:",
					      "\t1 main (/bin/dd)",
					      "",
					      NULL };
	/* frame lines at column 0; a java-prefixed comm strips the L of class names */
	static const char *const col0[] = { "javaw 7/8 1.0: 1 cycles:",
					    "7f01 Lorg/x/Foo;::bar (/tmp/perf-7.map)",
					    "7f02 Interpreter (/tmp/perf-7.map)", "", NULL };
	/* an empty symbol keeps its frame (as Perl's regex reads it: one blank) */
	static const char *const empty[] = { "a.out 5 1.0: 1 cycles:", "\t  1234  (/tmp/a.out)",
					     "\t  1000 main (/tmp/a.out)", "", NULL };
	/* several events: the first is kept */
	static const char *const events[] = { "x 1 1.0: 5 instructions:",
					      "\t1 f (/x)",
					      "",
					      "x 1 2.0: 7 cycles:",
					      "\t1 g (/x)",
					      "",
					      NULL };
	static const char *const unknown[] = { "x 1 1.0: 1 cycles:", "\t7f01 [unknown] (/lib/l.so)",
					       "\tab [unknown] ([unknown])", "", NULL };
	struct ptk_perfscript_opts o = { 0 };
	char *got;

	got = collapse_lines(period, NULL);
	assert_string_equal(got, "dd;main 4000\n");
	free(got);
	got = collapse_lines(col0, NULL);
	assert_string_equal(got, "javaw;Interpreter;org/x/Foo:::bar 1\n");
	free(got);
	got = collapse_lines(empty, NULL);
	assert_string_equal(got, "a.out;main;  1\n");
	free(got);
	got = collapse_lines(events, NULL);
	assert_string_equal(got, "x;f 5\n");
	free(got);
	o.event = "cycles";
	got = collapse_lines(events, &o);
	assert_string_equal(got, "x;g 7\n");
	free(got);
	o = (struct ptk_perfscript_opts){ .addrs = true };
	got = collapse_lines(unknown, &o);
	assert_string_equal(got, "x;[unknown <ab>];[l.so <7f01>] 1\n");
	free(got);
	o = (struct ptk_perfscript_opts){ .unit = true };
	got = collapse_lines(period, &o);
	assert_string_equal(got, "dd;main 2\n");
	free(got);
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
		cmocka_unit_test(test_perl_semantics),
		cmocka_unit_test(test_detect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
