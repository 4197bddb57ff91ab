// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus sink's twin rendering (output/prom.h ptk_prom.twin): one pass over the
 * calls renders the text and the OpenMetrics exposition, byte for byte what two separate
 * passes give (counters with _created, untyped counters, gauges with a unit, a histogram,
 * label values and help text that need escaping, an unknown value left out).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "output/prom.h"

static const struct ptk_metric counter = { .key = "demo_seconds_total",
					   .unit = "seconds",
					   .kind = PTK_COUNTER,
					   .type = PTK_V_F64,
					   .help = "A \"quoted\" help\\ with\na newline" };
static const struct ptk_metric untyped = { .key = "demo_pgfault",
					   .kind = PTK_COUNTER,
					   .type = PTK_V_U64,
					   .help = "untyped" };
static const struct ptk_metric gauge = { .key = "demo_bytes",
					 .unit = "bytes",
					 .kind = PTK_GAUGE,
					 .type = PTK_V_F64,
					 .help = "g" };
static const struct ptk_metric hist = { .key = "demo_latency_seconds",
					.unit = "seconds",
					.kind = PTK_COUNTER,
					.help = "h" };

static void render(struct ptk_prom *p)
{
	const char *lab[] = { "id", "/a\"b\\c\nd", "cpu", "total", NULL };
	const char *lab2[] = { "id", "/x", NULL };
	const double le[] = { 0.001, 0.01 };
	const u64 cum[] = { 3, 7 };
	struct ptk_val v = PTK_F(1.5), na = PTK_NA, u = PTK_U(42), g = PTK_F(1e300);

	ptk_prom_family(p, &counter);
	p->created = 1700000000.25;
	ptk_prom_sample(p, &counter, lab, &v);
	ptk_prom_sample(p, &counter, lab2, &na);
	ptk_prom_sample(p, &counter, NULL, &v);
	ptk_prom_family(p, &untyped);
	ptk_prom_sample(p, &untyped, lab2, &u);
	ptk_prom_family(p, &gauge);
	ptk_prom_sample(p, &gauge, lab2, &g);
	p->created = 1700000001;
	ptk_prom_histogram(p, &hist, lab2, le, cum, 2, 0.125, 9);
	ptk_prom_end(p);
}

static void test_twin_equals_two_passes(void **state)
{
	struct ptk_prom text, om, t2, om2;

	ptk_prom_init(&text, PTK_PROM_TEXT);
	ptk_prom_init(&om, PTK_PROM_OPENMETRICS);
	render(&text);
	render(&om);
	ptk_prom_init(&t2, PTK_PROM_TEXT);
	ptk_prom_init(&om2, PTK_PROM_OPENMETRICS);
	t2.twin = &om2;
	render(&t2);
	assert_string_equal(t2.buf, text.buf);
	assert_string_equal(om2.buf, om.buf);
	assert_int_equal(om2.len, om.len);
	/* the formats differ where they must */
	assert_non_null(strstr(om.buf,
			       "demo_seconds_created{id=\"/a\\\"b\\\\c\\nd\",cpu=\"total\"} "
			       "1700000000.25\n"));
	assert_null(strstr(text.buf, "_created"));
	assert_non_null(strstr(om.buf, "# TYPE demo_pgfault unknown\n"));
	assert_non_null(strstr(text.buf, "# TYPE demo_pgfault untyped\n"));
	assert_non_null(strstr(om.buf, "# UNIT demo_bytes bytes\n"));
	assert_non_null(strstr(om.buf, "demo_latency_seconds_created{id=\"/x\"} 1700000001\n"));
	assert_int_equal(strcmp(om.buf + om.len - 6, "# EOF\n"), 0);
	assert_null(strstr(text.buf, "# EOF"));
	assert_null(strstr(text.buf, "id=\"/x\"} NaN")); /* the unknown value is left out */
	ptk_prom_free(&text);
	ptk_prom_free(&om);
	ptk_prom_free(&t2);
	ptk_prom_free(&om2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twin_equals_two_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
