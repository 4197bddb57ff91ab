// SPDX-License-Identifier: GPL-2.0
/* cswtop's groups (model/cswgroup.h) on tests/fixtures/cswtop_replay: 3 snapshots of process
 * 100's threads at uptime 5000, 5002 and 5006 s (the same tree and the same values as
 * tests/cmd/34-cswtop.sh, worked out by hand there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/cswgroup.h"

static const struct ptk_csw_group *group_of(const struct ptk_csw_groups *c, const char *key)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->g[i].key, key))
			return &c->g[i];
	fail_msg("group '%s' missing", key);
	return NULL;
}

/* One scan of the tree's current snapshot into the groups, keyed by k. */
static void scan(struct ptk_src *src, const struct ptk_csw_keying *k, struct ptk_ptab *prev,
		 struct ptk_ptab *pt, struct ptk_csw_groups *c, bool first, double itv)
{
	int pid = 100;
	char key[256];

	assert_int_equal(ptk_ptab_scan_pids(src, PTK_PT_THREADS | PTK_PT_STATUS, &pid, 1, pt), 0);
	ptk_csw_begin(c, first, itv);
	for (int i = 0; i < pt->n; i++) {
		const struct ptk_task *t = &pt->t[i];
		if (!t->status_ok)
			continue;
		ptk_csw_key(k, t, t->comm, ptk_ptab_find_pid(pt, t->tgid), key, sizeof(key));
		ptk_csw_add(c, key, t, first ? NULL : ptk_ptab_find(prev, t->pid, t->starttime));
	}
	ptk_csw_end(c, first, itv);
}

static void test_intervals(void **state)
{
	struct ptk_csw_keying k = { .by = PTK_CSW_PREFIX, .nchars = 32 };
	struct ptk_ptab pt[2] = { 0 };
	struct ptk_csw_groups c;
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/cswtop_replay", NULL), 0);
	ptk_csw_init(&c);
	scan(&src, &k, NULL, &pt[0], &c, true, 0);
	assert_int_equal(c.tthreads, 4); /* 100 101 102 103 */
	assert_int_equal(c.tcounted, 0); /* the baseline: no delta */

	/* interval 1, 2 s: alpha-1 (101) +2000 vol +4 inv, alpha-2 (102) gone, alpha-3 (104)
	 * new (no delta), beta-1 +40 inv */
	assert_int_equal(ptk_src_next(&src), 0);
	scan(&src, &k, &pt[0], &pt[1], &c, false, 2.0);
	assert_int_equal(c.tthreads, 4); /* 100 101 103 104 */
	assert_int_equal(c.tvol + c.tinv, 2044);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.g[0].key, "alpha"); /* by rate */
	assert_string_equal(c.g[1].key, "beta");
	assert_string_equal(c.g[2].key, "app");
	const struct ptk_csw_group *g = group_of(&c, "alpha");
	assert_int_equal(g->threads, 2);
	assert_int_equal(g->counted, 1);
	assert_int_equal(g->dvol, 2000);
	assert_int_equal(g->dinv, 4);
	assert_float_equal(g->rate, 1002.0, 1e-9);
	assert_float_equal(group_of(&c, "beta")->rate, 20.0, 1e-9);
	assert_int_equal(c.now_ns, 2000000000ULL);

	/* interval 2, 4 s: 101's TID reused (no delta), 104 +400 vol, beta +40, app +4 */
	assert_int_equal(ptk_src_next(&src), 0);
	scan(&src, &k, &pt[1], &pt[0], &c, false, 4.0);
	assert_int_equal(c.tvol + c.tinv, 444);
	g = group_of(&c, "alpha");
	assert_float_equal(g->rate, 100.0, 1e-9);
	assert_float_equal(group_of(&c, "app")->rate, 1.0, 1e-9);
	/* the meters: mean over 6 s, the first 5 s tick sets the EWMAs */
	struct ptk_meter *m = &c.g[0].meter;
	assert_string_equal(c.g[0].key, "alpha");
	assert_float_equal(ptk_meter_mean(m, c.now_ns), 2404.0 / 6, 1e-6);
	ptk_meter_tick(m, c.now_ns);
	assert_true(ptk_meter_ticked(m));
	assert_float_equal(ptk_meter_m1(m, c.now_ns), (2004 + 400 * 0.75) / 5, 1e-6);
	assert_float_equal(ptk_meter_mean(&c.total, c.now_ns), 2488.0 / 6, 1e-6);

	/* the same uptime twice: no rate at all */
	scan(&src, &k, &pt[0], &pt[1], &c, false, 0);
	assert_int_equal(c.tcounted, 0);
	for (int i = 0; i < c.n; i++)
		assert_int_equal(c.g[i].counted, 0);
	ptk_csw_free(&c);
	ptk_ptab_free(&pt[0]);
	ptk_ptab_free(&pt[1]);
}

static void test_keys(void **state)
{
	struct ptk_task t = { .pid = 7, .tgid = 5 }, leader = { .pid = 5, .tgid = 5 };
	struct ptk_csw_keying k = { .by = PTK_CSW_PREFIX, .nchars = 0 };
	regex_t re;
	char key[64];

	snprintf(t.comm, sizeof(t.comm), "pool-1-thread-3");
	snprintf(leader.comm, sizeof(leader.comm), "java");
	ptk_csw_key(&k, &t, t.comm, NULL, key, sizeof(key));
	assert_string_equal(key, "pool-1-thread");
	k.nchars = 4;
	ptk_csw_key(&k, &t, t.comm, NULL, key, sizeof(key));
	assert_string_equal(key, "pool");
	k.by = PTK_CSW_COMM;
	ptk_csw_key(&k, &t, "full Java name", NULL, key, sizeof(key));
	assert_string_equal(key, "full Java name");
	k.by = PTK_CSW_PROCESS;
	ptk_csw_key(&k, &t, t.comm, &leader, key, sizeof(key));
	assert_string_equal(key, "java[5]");
	ptk_csw_key(&k, &t, t.comm, NULL, key, sizeof(key));
	assert_string_equal(key, "pool-1-thread-3[5]");
	k.by = PTK_CSW_CGROUP;
	ptk_csw_key(&k, &t, t.comm, NULL, key, sizeof(key));
	assert_string_equal(key, "-");
	assert_int_equal(regcomp(&re, "^([a-z]+)-", REG_EXTENDED), 0);
	k.by = PTK_CSW_REGEX;
	k.re = &re;
	ptk_csw_key(&k, &t, t.comm, NULL, key, sizeof(key));
	assert_string_equal(key, "pool");
	ptk_csw_key(&k, &t, "UPPER", NULL, key, sizeof(key));
	assert_string_equal(key, "(unmatched)");
	regfree(&re);
	assert_int_equal(regcomp(&re, "x*", REG_EXTENDED), 0);
	ptk_csw_key(&k, &t, "abc", NULL, key, sizeof(key));
	assert_string_equal(key, "(empty)");
	regfree(&re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
