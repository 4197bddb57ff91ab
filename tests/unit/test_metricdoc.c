// SPDX-License-Identifier: GPL-2.0
/* The metric registry's invariants (every entry it holds, whatever they are) and its
 * documentation sinks (output/metricdoc.h) on made-up entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "model/registry.h"
#include "registry_shared.h"
#include "output/metricdoc.h"

static const struct ptk_metric fake = {
	.name = "%util",
	.key = "util_pct",
	.unit = "%",
	.kind = PTK_PCT,
	.type = PTK_V_F64,
	.width = 7,
	.prec = 2,
	.help = ".share of time busy, io_ticks (/proc/diskstats field 13) \\ not-a-cap",
	.prom = "node_disk_io_time_seconds_total",
	.from = "d(io_ticks) / interval",
};

static bool prom_name_ok(const char *s)
{
	if (!*s || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == ':'))
			return false;
	return true;
}

/* Every entry: non-empty key, title and help; a known kind and type; keys unique; a
 * Prometheus family that is a valid name; ptk_registry_by_key finds each. Holds for any
 * registry, empty included. */
static void test_registry_entries(void **state)
{
	for (int i = 1; i < PTK_M_COUNT; i++) {
		const struct ptk_metric *m = &ptk_registry[i];

		assert_non_null(m->key);
		assert_true(m->key[0]);
		assert_non_null(m->name);
		assert_true(m->name[0]);
		assert_non_null(m->help);
		assert_true(m->help[0]);
		assert_non_null(m->unit);
		assert_string_not_equal(ptk_metric_kind_name(m->kind), "?");
		assert_string_not_equal(ptk_metric_type_name(m->type), "?");
		assert_true(m->prec >= 0 && m->prec <= 9);
		if (m->prom)
			assert_true(prom_name_ok(m->prom));
		if (registry_key_shared(m->key))
			continue;
		for (int j = 1; j < i; j++)
			assert_string_not_equal(ptk_registry[j].key, m->key);
		assert_ptr_equal(ptk_registry_by_key(m->key), m);
	}
	assert_null(ptk_registry_by_key("no such key, surely"));
}

static void test_match(void **state)
{
	assert_true(ptk_metric_match(&fake, "util_*"));
	assert_true(ptk_metric_match(&fake, "%util"));
	assert_true(ptk_metric_match(&fake, "node_disk_*"));
	assert_false(ptk_metric_match(&fake, "cpu_*"));
	assert_false(ptk_metric_match(&fake, "util"));
}

static void test_json(void **state)
{
	struct json_object *o = ptk_metric_doc_json(&fake), *v;

	assert_true(json_object_object_get_ex(o, "key", &v));
	assert_string_equal(json_object_get_string(v), "util_pct");
	assert_true(json_object_object_get_ex(o, "kind", &v));
	assert_string_equal(json_object_get_string(v), "pct");
	assert_true(json_object_object_get_ex(o, "type", &v));
	assert_string_equal(json_object_get_string(v), "f64");
	assert_true(json_object_object_get_ex(o, "prec", &v));
	assert_int_equal(json_object_get_int(v), 2);
	assert_true(json_object_object_get_ex(o, "prom", &v));
	assert_string_equal(json_object_get_string(v), "node_disk_io_time_seconds_total");
	json_object_put(o);

	struct ptk_metric noprom = fake;
	noprom.prom = NULL;
	o = ptk_metric_doc_json(&noprom);
	assert_true(json_object_object_get_ex(o, "prom", &v));
	assert_null(v); /* present, null: not exported */
	json_object_put(o);
}

static void test_man(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ptk_metric_doc_man_begin(f);
	ptk_metric_doc_man_row(f, &fake);
	ptk_metric_doc_man_end(f);
	fclose(f);
	assert_true(!strncmp(buf, ".TS\n", 4));
	assert_non_null(strstr(buf, "util_pct\t%util\t%\tpct\tT{\n"));
	/* the help starts a text-block line with '.': escaped; backslash and hyphens too */
	assert_non_null(strstr(buf, "\tT{\n\\&.share of time busy"));
	assert_non_null(
		strstr(buf, " \\e not\\-a\\-cap Prometheus: node_disk_io_time_seconds_total."));
	assert_non_null(strstr(buf, "\nT}\n.TE\n"));
	free(buf);
}

static void test_text(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ptk_metric_doc_text_header(f);
	ptk_metric_doc_text_row(f, &fake);
	fclose(f);
	assert_true(!strncmp(buf, "KEY ", 4));
	char *row = strchr(buf, '\n') + 1;
	assert_true(!strncmp(row, "util_pct ", 9));
	assert_non_null(strstr(row, " pct "));
	assert_non_null(strstr(row, "node_disk_io_time_seconds_total"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_entries),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_man),
		cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
