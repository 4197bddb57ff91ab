// SPDX-License-Identifier: GPL-2.0
/* The metric registry (model/registry.c): every id described, one key per metric, Prometheus
 * families well-formed. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "model/registry.h"
#include "registry_shared.h"

/* Every id has an entry: title, key, help and unit set (a missing designated initializer
 * leaves them NULL). */
static void test_every_id(void **state)
{
	for (int i = 1; i < PTK_M_COUNT; i++) {
		const struct ptk_metric *m = &ptk_registry[i];

		if (!m->key || !m->name || !m->help || !m->unit)
			fail_msg("registry id %d has no entry", i);
		assert_true(m->key[0] && m->name[0] && m->help[0]);
		/* width 0: shown in free text only (check's evidence), never in a column */
		assert_true(m->type != PTK_V_STR || m->kind == PTK_GAUGE);
		if (m->kind == PTK_PCT)
			assert_string_equal(m->unit, "%");
	}
}

/* A JSON key names one metric: keys are unique but for the ones registry_shared.h lists. */
static void test_keys_unique(void **state)
{
	for (int i = 1; i < PTK_M_COUNT; i++) {
		const char *k = ptk_registry[i].key;

		for (const char *c = k; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
				fail_msg(
					"key '%s': [A-Za-z0-9_-] only (perf stat's keys keep perf's dashes)",
					k);
		if (registry_key_shared(k))
			continue;
		for (int j = i + 1; j < PTK_M_COUNT; j++)
			if (!strcmp(k, ptk_registry[j].key))
				fail_msg("key '%s' twice (ids %d, %d)", k, i, j);
		assert_ptr_equal(ptk_registry_by_key(k), &ptk_registry[i]);
	}
	assert_null(ptk_registry_by_key("no_such_metric"));
}

/* Prometheus metric names: [a-zA-Z_:][a-zA-Z0-9_:]*, node_exporter's node_ prefix (cAdvisor's
 * container_ for the cgroup entries); a counter
 * family of node_exporter's own naming ends in _total (node_netstat_* and node_vmstat_* keep
 * the kernel's field names, as node_exporter does). */
static void test_prom_families(void **state)
{
	for (int i = 1; i < PTK_M_COUNT; i++) {
		const char *p = ptk_registry[i].prom;

		if (!p)
			continue;
		if (!isalpha((unsigned char)p[0]) && p[0] != '_' && p[0] != ':')
			fail_msg("family '%s'", p);
		for (const char *c = p; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != ':')
				fail_msg("family '%s': bad character '%c'", p, *c);
		/* node_exporter's names, cAdvisor's for the cgroups (container_), or ptk's own
		 * (ptk_) for what they lack */
		assert_true(!strncmp(p, "node_", 5) || !strncmp(p, "ptk_", 4) ||
			    (!strncmp(p, "container_", 10) && i >= PTK_M_CG_PATH &&
			     i <= PTK_M_CG_INFO));
		if (ptk_registry[i].kind == PTK_COUNTER && strstr(p, "_seconds") &&
		    !strstr(p, "_seconds_total"))
			fail_msg("family '%s': a seconds counter ends in _seconds_total", p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_id),
		cmocka_unit_test(test_keys_unique),
		cmocka_unit_test(test_prom_families),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
