// SPDX-License-Identifier: GPL-2.0
/* Per-task rates and grouping (model/ptask.h) between two fixture process tables 2.00 s apart
 * (tests/fixtures/pid_rates: uptime 1000.00 -> 1002.00), USER_HZ 100. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ptask.h"

#define HZ 100
#define ITV 2.0
#define PREV_UP 1000.0

static const unsigned flags = PTK_PT_IO | PTK_PT_STATUS | PTK_PT_CGROUP;

static void scan_pair(unsigned fl, struct ptk_ptab *a, struct ptk_ptab *b)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/pid_rates", NULL), 0);
	assert_true(src.replay);
	assert_int_equal(ptk_ptab_scan(&src, fl, a), 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_ptab_scan(&src, fl, b), 0);
}

static const struct ptk_task_rate *rate_of(const struct ptk_task_rate *r, int n, int pid)
{
	for (int i = 0; i < n; i++)
		if (r[i].cur->pid == pid)
			return &r[i];
	fail_msg("pid %d not in the rates", pid);
	return NULL;
}

static void test_rates_exact(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_task_rate *r;

	scan_pair(flags, &a, &b);
	r = calloc(b.n, sizeof(*r));
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 8, r);
	const struct ptk_task_rate *x = rate_of(r, b.n, 200);
	assert_true(x->valid);
	assert_non_null(x->prev);
	assert_float_equal(x->usr_pct, 75.0, 1e-9); /* 150 ticks / 100 Hz / 2 s */
	assert_float_equal(x->sys_pct, 15.0, 1e-9);
	assert_float_equal(x->cpu_pct, 90.0, 1e-9);
	assert_float_equal(x->minflt_s, 100.0, 1e-9);
	assert_float_equal(x->majflt_s, 2.0, 1e-9);
	assert_true(x->io_ok);
	assert_float_equal(x->rkb_s, 1000.0, 1e-9); /* 2048000 B / 1024 / 2 s */
	assert_float_equal(x->wkb_s, 200.0, 1e-9);
	assert_true(x->csw_ok);
	assert_float_equal(x->cswch_s, 20.0, 1e-9);
	assert_float_equal(x->nvcswch_s, 2.0, 1e-9);
	assert_float_equal(x->iodelay_pct, 25.0, 1e-9); /* 50 ticks of blkio in 200 */
	assert_false(x->wait_ok); /* no schedstat in the fixture */
	free(r);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

/* pid 300 is reused: the new process (started at 1000.50 s) counts from 0, never against the
 * old one's 5000 ticks; 400 born at 1001.00 s counts its whole life. */
static void test_reuse_and_birth(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_task_rate *r;

	scan_pair(flags, &a, &b);
	r = calloc(b.n, sizeof(*r));
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 8, r);
	const struct ptk_task_rate *x = rate_of(r, b.n, 300);
	assert_string_equal(x->cur->comm, "new");
	assert_null(x->prev);
	assert_true(x->valid);
	assert_float_equal(x->cpu_pct, 10.0, 1e-9); /* 20 ticks from 0 */
	x = rate_of(r, b.n, 400);
	assert_null(x->prev);
	assert_true(x->valid);
	assert_float_equal(x->cpu_pct, 20.0, 1e-9);
	/* a task missing from prev that started before it is not a birth: no rate */
	ptk_task_rates(&a, &b, ITV, HZ, 1001.5, 8, r);
	assert_false(rate_of(r, b.n, 400)->valid);
	free(r);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

/* 4 threads at 100 % each: the process row is 400 %, capped at ncpu x 100; by tgid the
 * threads sum to 400 %. */
static void test_threads_cap_and_tgid(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 }, ta = { 0 }, tb = { 0 };
	struct ptk_task_rate *r, *rt;
	struct ptk_group *g;

	scan_pair(flags, &a, &b);
	r = calloc(b.n, sizeof(*r));
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 8, r);
	assert_float_equal(rate_of(r, b.n, 500)->cpu_pct, 400.0, 1e-9);
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 2, r);
	const struct ptk_task_rate *x = rate_of(r, b.n, 500);
	assert_float_equal(x->cpu_pct, 200.0, 1e-9);
	assert_float_equal(x->usr_pct, 200.0, 1e-9);

	int pids[] = { 500 };
	struct ptk_src src;
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/pid_rates", NULL), 0);
	assert_int_equal(ptk_ptab_scan_pids(&src, PTK_PT_THREADS | PTK_PT_STATUS, pids, 1, &ta), 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_ptab_scan_pids(&src, PTK_PT_THREADS | PTK_PT_STATUS, pids, 1, &tb), 0);
	assert_int_equal(tb.n, 4);
	rt = calloc(tb.n, sizeof(*rt));
	assert_int_equal(ptk_task_rates(&ta, &tb, ITV, HZ, PREV_UP, 8, rt), 4);
	for (int i = 0; i < 4; i++)
		assert_float_equal(rt[i].cpu_pct, 100.0, 1e-9);
	int ng = ptk_group_rates(rt, tb.n, PTK_BY_TGID, &g);
	assert_int_equal(ng, 1);
	assert_string_equal(g[0].key, "500");
	assert_int_equal(g[0].ntasks, 4);
	assert_float_equal(g[0].cpu_pct, 400.0, 1e-9);
	free(g);
	free(r);
	free(rt);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
	ptk_ptab_free(&ta);
	ptk_ptab_free(&tb);
}

static const struct ptk_group *group_of(const struct ptk_group *g, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(g[i].key, key))
			return &g[i];
	fail_msg("group '%s' missing", key);
	return NULL;
}

static void test_grouping(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_task_rate *r;
	struct ptk_group *g;
	int ng;

	scan_pair(flags, &a, &b);
	r = calloc(b.n, sizeof(*r));
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 8, r);

	ng = ptk_group_rates(r, b.n, PTK_BY_COMM, &g);
	const struct ptk_group *x = group_of(g, ng, "busy"); /* 200 (90 %) + 210 (25 %) */
	assert_int_equal(x->ntasks, 2);
	assert_float_equal(x->cpu_pct, 115.0, 1e-9);
	assert_float_equal(x->minflt_s, 100.0, 1e-9);
	free(g);

	ng = ptk_group_rates(r, b.n, PTK_BY_USER, &g);
	x = group_of(g, ng, ptk_user_name(65534));
	assert_int_equal(x->ntasks, 1);
	assert_float_equal(x->cpu_pct, 25.0, 1e-9);
	x = group_of(g, ng, ptk_user_name(0)); /* 200 + 300 + 400 + 500 */
	assert_int_equal(x->ntasks, 4);
	assert_float_equal(x->cpu_pct, 90.0 + 10.0 + 20.0 + 400.0, 1e-9);
	free(g);

	ng = ptk_group_rates(r, b.n, PTK_BY_CGROUP, &g);
	x = group_of(g, ng, "/user.slice"); /* 400 + 500 */
	assert_int_equal(x->ntasks, 2);
	assert_float_equal(x->cpu_pct, 420.0, 1e-9);
	free(g);

	ng = ptk_group_rates(r, b.n, PTK_BY_CONTAINER, &g);
	x = group_of(g, ng, "aaaaaaaaaaaa"); /* 200 + 300 in docker-aaaa....scope */
	assert_int_equal(x->ntasks, 2);
	assert_float_equal(x->cpu_pct, 100.0, 1e-9);
	assert_float_equal(x->rkb_s, 1000.0, 1e-9);
	x = group_of(g, ng, "-"); /* the host: 210, 400, 500 */
	assert_int_equal(x->ntasks, 3);
	assert_float_equal(x->cpu_pct, 445.0, 1e-9);
	free(g);

	enum ptk_group_by by;
	assert_int_equal(ptk_group_by_parse("container", &by), 0);
	assert_int_equal(by, PTK_BY_CONTAINER);
	assert_int_not_equal(ptk_group_by_parse("nope", &by), 0);
	free(r);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates_exact),
		cmocka_unit_test(test_reuse_and_birth),
		cmocka_unit_test(test_threads_cap_and_tgid),
		cmocka_unit_test(test_grouping),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
