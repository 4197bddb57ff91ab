// SPDX-License-Identifier: GPL-2.0
/* The SVG flame graph writer: escaping, truncation, geometry, palettes, differentials. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/flamegraph.h"

__attribute__((noinline)) static char *render(const char *const *lines, int n,
					      const char *const *blines, int bn,
					      const struct ptk_flame_opts *o, int *rc)
{
	struct ptk_folded *f = ptk_folded_new(), *b = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	for (int i = 0; i < n; i++)
		assert_int_equal(ptk_folded_add_line(f, lines[i]), 0);
	if (blines) {
		b = ptk_folded_new();
		for (int i = 0; i < bn; i++)
			assert_int_equal(ptk_folded_add_line(b, blines[i]), 0);
	}
	*rc = ptk_flamegraph_svg(f, b, o, m);
	fclose(m);
	ptk_folded_free(f);
	ptk_folded_free(b);
	return buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

/* The <g> of the frame whose title starts with name: copied out, NUL-terminated. */
static char *frame(const char *svg, const char *name)
{
	char key[256];
	const char *a, *e;

	snprintf(key, sizeof(key), "<g><title>%s (", name);
	a = strstr(svg, key);
	if (!a)
		return NULL;
	e = strstr(a, "</g>");
	return strndup(a, e - a);
}

static double attr(const char *g, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(g, key);
	assert_non_null(p);
	return strtod(p + strlen(key), NULL);
}

/* Every '&' in the document starts one of the five XML entities. */
static void assert_entities_ok(const char *svg)
{
	const char *body = strstr(svg, "]]></script>"); /* the script is CDATA */

	assert_non_null(body);
	for (const char *p = body; (p = strchr(p, '&')); p++)
		assert_true(!strncmp(p, "&amp;", 5) || !strncmp(p, "&lt;", 4) ||
			    !strncmp(p, "&gt;", 4) || !strncmp(p, "&quot;", 6) ||
			    !strncmp(p, "&apos;", 6));
}

static void test_escaping(void **state)
{
	const char *in[] = { "main;std::vector<int>::push_back;a&b;q\"x 5", "main;it's 5" };
	int rc;
	char *svg = render(in, 2, NULL, 0, NULL, &rc), *g;

	assert_int_equal(rc, 0);
	assert_non_null(
		strstr(svg, "<title>std::vector&lt;int&gt;::push_back (5 samples, 50.00%)"));
	assert_non_null(strstr(svg, "<title>a&amp;b (5 samples, 50.00%)</title>"));
	assert_non_null(strstr(svg, "<title>q&quot;x (5 samples, 50.00%)</title>"));
	assert_non_null(strstr(svg, "<title>it&apos;s (5 samples, 50.00%)</title>"));
	assert_null(strstr(svg, "a&b"));
	assert_entities_ok(svg);
	/* 6 frames + all, each a <g> with title, rect and text */
	assert_int_equal(count(svg, "<g><title>"), 6);
	assert_int_equal(count(svg, "<rect x=\""), 7); /* + the background */
	g = frame(svg, "main");
	assert_non_null(g);
	assert_float_equal(attr(g, "width"), 1180.0, 0.01);
	free(g);
	g = frame(svg, "a&amp;b");
	assert_float_equal(attr(g, "width"), 590.0, 0.01);
	free(g);
	free(svg);
}

/* A long name of '&' in a narrow frame: the label is cut on the raw text, then escaped,
 * so it is whole "&amp;" entities followed by "..". */
static void test_truncation_keeps_entities(void **state)
{
	char big[128], small[64], *svg, *g, *t;
	const char *in[2] = { big, small };
	struct ptk_flame_opts o = { .width = 1200 };
	int rc, amps = 0;

	/* 6 of 59 samples: 120 px, 120 / (12 * 0.59) = 16 characters */
	snprintf(big, sizeof(big), "root;&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&& 6");
	snprintf(small, sizeof(small), "other 53");
	svg = render(in, 2, NULL, 0, &o, &rc);
	assert_int_equal(rc, 0);
	g = strstr(svg, "<g><title>&amp;");
	assert_non_null(g);
	g = strndup(g, strstr(g, "</g>") - g);
	t = strstr(g, "<text");
	t = strchr(t, '>') + 1;
	for (; !strncmp(t, "&amp;", 5); t += 5)
		amps++;
	assert_int_equal(amps, 14);
	assert_true(!strncmp(t, "..</text>", 9));
	assert_entities_ok(svg);
	free(g);
	free(svg);
}

/* Truncation counts characters, not bytes, and never splits a UTF-8 sequence; invalid
 * bytes and control characters become '?' so the XML stays valid. */
static void test_utf8(void **state)
{
	const char *in[] = { "main;\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 1",
			     "x\xff\x01y 9" };
	int rc;
	char *svg = render(in, 2, NULL, 0, NULL, &rc);

	assert_int_equal(rc, 0);
	/* 1 of 10 samples: 118 px = 16 characters: 14 x U+00E9 then ".." */
	assert_non_null(
		strstr(svg, ">\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..</text>"));
	assert_non_null(strstr(svg, "<title>x??y (9 samples, 90.00%)</title>"));
	assert_null(strchr(svg, '\xff'));
	free(svg);
}

/* Same input, same bytes (colours come from a hash of the name); --reverse puts the root
 * at the top. */
static void test_deterministic_and_reverse(void **state)
{
	const char *in[] = { "a;b;c 3", "a;b;d 1", "a;e 2" };
	struct ptk_flame_opts o = { .reverse = true, .title = "T<1>" };
	int rc;
	char *s1 = render(in, 3, NULL, 0, NULL, &rc), *s2 = render(in, 3, NULL, 0, NULL, &rc);
	char *r = render(in, 3, NULL, 0, &o, &rc), *ga, *gc;

	assert_string_equal(s1, s2);
	ga = frame(s1, "a");
	gc = frame(s1, "c");
	assert_true(attr(ga, "y") > attr(gc, "y")); /* flame: leaves above */
	free(ga);
	free(gc);
	ga = frame(r, "a");
	gc = frame(r, "c");
	assert_true(attr(ga, "y") < attr(gc, "y")); /* icicle: leaves below */
	assert_non_null(strstr(r, "<text id=\"title\" x=\"600\" y=\"24\">T&lt;1&gt;</text>"));
	/* c: 3 of 6 samples, after nothing under b -> x = 10 */
	assert_float_equal(attr(gc, "width"), 590.0, 0.01);
	free(ga);
	free(gc);
	free(s1);
	free(s2);
	free(r);
}

/* One node per frame path, whatever bytes sort between "a" and "a;b" ("a!x"). */
static void test_merge_order(void **state)
{
	const char *in[] = { "a 1", "a!x 1", "a;b 2" };
	int rc;
	char *svg = render(in, 3, NULL, 0, NULL, &rc), *g;

	assert_int_equal(count(svg, "<title>a ("), 1);
	g = frame(svg, "a");
	assert_non_null(strstr(g, "(3 samples, 75.00%)"));
	free(g);
	free(svg);
}

/* Palettes: java greens Java frames, yellows C++, oranges _[k] (label without it). */
static void test_java_palette(void **state)
{
	const char *in[] = { "java;java/lang/Thread:::run 1", "java;JVM::loop 1",
			     "java;schedule_[k] 1", "java;Interpreter 1" };
	struct ptk_flame_opts o = { .palette = "java" };
	int rc, r, g, b;
	char *svg = render(in, 4, NULL, 0, &o, &rc), *f;

	f = frame(svg, "java/lang/Thread:::run");
	assert_int_equal(sscanf(strstr(f, "fill=\"rgb("), "fill=\"rgb(%d,%d,%d)", &r, &g, &b), 3);
	assert_true(g >= 200 && r < 120 && b < 120); /* green */
	free(f);
	f = frame(svg, "JVM::loop");
	sscanf(strstr(f, "fill=\"rgb("), "fill=\"rgb(%d,%d,%d)", &r, &g, &b);
	assert_true(r >= 175 && r == g && b <= 70); /* yellow */
	free(f);
	f = frame(svg, "schedule");
	assert_non_null(f);
	sscanf(strstr(f, "fill=\"rgb("), "fill=\"rgb(%d,%d,%d)", &r, &g, &b);
	assert_true(r >= 190 && g >= 90 && g < r && b == 0); /* orange */
	free(f);
	f = frame(svg, "Interpreter");
	sscanf(strstr(f, "fill=\"rgb("), "fill=\"rgb(%d,%d,%d)", &r, &g, &b);
	assert_true(r >= 200 && g < 135 && g == b); /* red: system */
	free(f);
	free(svg);
}

/* Differential: widths from B, red for frames that grew, blue for those that shrank,
 * tooltips with both counts. */
static void test_diff(void **state)
{
	const char *a[] = { "m;grow 10", "m;shrink 30", "m;same 10", "m;gone 5" };
	const char *b[] = { "m;grow 30", "m;shrink 10", "m;same 10" };
	int rc, r, g, bl;
	char *svg = render(b, 3, a, 4, NULL, &rc), *f;

	assert_int_equal(rc, 0);
	f = frame(svg, "grow");
	assert_non_null(strstr(f, "(30 samples, 60.00%; before 10, +20, self +20)"));
	sscanf(strstr(f, "fill=\"rgb("), "fill=\"rgb(%d,%d,%d)", &r, &g, &bl);
	assert_true(r == 255 && g == 0 && bl == 0); /* the largest change: full red */
	free(f);
	f = frame(svg, "shrink");
	assert_non_null(strstr(f, "(10 samples, 20.00%; before 30, -20, self -20)"));
	sscanf(strstr(f, "fill=\"rgb("), "fill=\"rgb(%d,%d,%d)", &r, &g, &bl);
	assert_true(bl == 255 && r == 0 && g == 0); /* full blue */
	free(f);
	f = frame(svg, "same");
	assert_non_null(strstr(f, "fill=\"rgb(255,255,255)\""));
	free(f);
	assert_null(frame(svg, "gone")); /* width 0 in B */
	f = frame(svg, "m");
	assert_non_null(strstr(f, "(50 samples, 100.00%; before 55, -5, self +0)"));
	free(f);
	free(svg);
}

static void test_empty(void **state)
{
	struct ptk_folded *f = ptk_folded_new();
	FILE *devnull = fopen("/dev/null", "w");

	assert_int_equal(ptk_flamegraph_svg(f, NULL, NULL, devnull), -EINVAL);
	fclose(devnull);
	ptk_folded_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_truncation_keeps_entities),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_deterministic_and_reverse),
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_java_palette),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
