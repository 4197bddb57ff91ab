// SPDX-License-Identifier: GPL-2.0
/*
 * The registry's processes-and-threads and BPF/perf/ptrace sections (model/registry.c):
 * every entry complete, one signed entry per task id, entries that share a JSON key agree on
 * its title and unit, and values render the same in text and JSON.
 */
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "model/registry.h"
#include "output/sink.h"

/* The range of the two sections this test covers. */
#define FIRST PTK_M_PROC_PID
#define LAST PTK_M_CORE_FILTER

static void test_complete(void **state)
{
	for (int i = FIRST; i <= LAST; i++) {
		const struct ptk_metric *m = &ptk_registry[i];
		assert_non_null(m->name);
		assert_non_null(m->key);
		assert_non_null(m->unit);
		assert_non_null(m->help);
		assert_true(m->key[0] != '\0');
		assert_true(m->type != PTK_V_F64 || m->prec >= 0);
	}
}

/* pid, tid, tgid, ppid: one entry each in the whole registry, signed as pid_t is, so that
 * the kernel's -1 ("no process") is -1 in JSON, not 18446744073709551615. */
static void test_ids_signed(void **state)
{
	static const char *const ids[] = { "pid", "tid", "tgid", "ppid" };

	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		int n = 0;
		for (int i = 1; i < PTK_M_COUNT; i++) {
			if (!ptk_registry[i].key || strcmp(ptk_registry[i].key, ids[k]))
				continue;
			assert_int_equal(ptk_registry[i].type, PTK_V_S64);
			n++;
		}
		assert_int_equal(n, 1);
	}
	assert_ptr_equal(ptk_registry_by_key("pid"), PTK_M(PROC_PID));

	struct ptk_val v = PTK_I(-1);
	struct json_object *o = ptk_json_val(PTK_M(PROC_PID), &v);
	char buf[32];
	assert_string_equal(json_object_to_json_string(o), "-1");
	assert_string_equal(ptk_metric_fmt(PTK_M(PROC_TID), &v, buf, sizeof(buf)), "-1");
	json_object_put(o);
}

/* Two entries with one key are the same quantity at two tools' precisions (or the same
 * name in two tables): the unit and the title (its case is the tool's style) must not
 * differ. */
static void test_shared_keys_agree(void **state)
{
	for (int i = FIRST; i <= LAST; i++)
		for (int j = i + 1; j <= LAST; j++) {
			const struct ptk_metric *a = &ptk_registry[i], *b = &ptk_registry[j];
			if (strcmp(a->key, b->key))
				continue;
			assert_string_equal(a->unit, b->unit);
			if (strcasecmp(a->name, b->name))
				fail_msg("key %s: titles %s and %s", a->key, a->name, b->name);
		}
}

/* A value renders as the same number in text and JSON: printf's rounding in both (12.25 at
 * one decimal is 12.2, where round(x * 10) / 10 gave 12.3). */
static void test_text_is_json(void **state)
{
	static const double xs[] = { 12.25, 12.75, 0.05, 99.95, 100, 0 };
	char buf[64];

	for (size_t k = 0; k < sizeof(xs) / sizeof(xs[0]); k++) {
		struct ptk_val v = PTK_F(xs[k]);
		const struct ptk_metric *m = PTK_M(TOP_CPU_US_PCT);
		struct json_object *o = ptk_json_val(m, &v);
		assert_string_equal(json_object_to_json_string(o),
				    ptk_metric_fmt(m, &v, buf, sizeof(buf)));
		json_object_put(o);
	}
	struct ptk_val v = PTK_F(12.25);
	assert_string_equal(ptk_metric_fmt(PTK_M(TOP_CPU_US_PCT), &v, buf, sizeof(buf)), "12.2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_ids_signed),
		cmocka_unit_test(test_shared_keys_agree),
		cmocka_unit_test(test_text_is_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
