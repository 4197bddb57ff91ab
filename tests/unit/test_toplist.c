// SPDX-License-Identifier: GPL-2.0
/* top's model (model/toplist.h): rows, task states, order and tree on
 * tests/fixtures/pid_rates (two scans 2 s apart, USER_HZ 100, MemTotal 1000000 kB), and the
 * summary's CPU shares on tests/fixtures/mpstat_hotplug (cpu1 offline in the middle
 * snapshot). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/registry.h"
#include "model/toplist.h"

#define HZ 100

static const struct ptk_metric *const cols[TC_N] = {
	[TC_PID] = PTK_M(PROC_PID),	    [TC_USER] = PTK_M(PROC_EUSER),
	[TC_PR] = PTK_M(PROC_PRIORITY),	    [TC_NI] = PTK_M(PROC_NICE),
	[TC_VIRT] = PTK_M(PROC_VIRT_KB),    [TC_RES] = PTK_M(PROC_RES_KB),
	[TC_SHR] = PTK_M(PROC_SHR_KB),	    [TC_S] = PTK_M(PROC_STATE),
	[TC_CPU] = PTK_M(TOP_CPU_PCT),	    [TC_MEM] = PTK_M(TOP_MEM_PCT),
	[TC_TIME] = PTK_M(PROC_CPU_TIME),   [TC_RKB] = PTK_M(PROC_RKB_S),
	[TC_WKB] = PTK_M(PROC_WKB_S),	    [TC_MAJFLT] = PTK_M(TOP_MAJFLT_S),
	[TC_CSW] = PTK_M(PROC_CSW_S),	    [TC_FDS] = PTK_M(PROC_FDS),
	[TC_CGROUP] = PTK_M(PROC_CGROUP),   [TC_CONTAINER] = PTK_M(PROC_CONTAINER),
	[TC_COMMAND] = PTK_M(PROC_COMMAND),
};

/* The frame of the fixture's second scan against its first. */
static void frame(unsigned fl, struct ptk_ptab *a, struct ptk_ptab *b, struct ptk_top_frame *f,
		  struct ptk_task_rate **r)
{
	struct ptk_src src;
	struct ptk_top_fill how = { .hz = HZ,
				    .page_kb = sysconf(_SC_PAGESIZE) / 1024,
				    .mem_total_kb = 1000000,
				    .cmdline = true };

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/pid_rates", NULL), 0);
	assert_int_equal(ptk_ptab_scan(&src, fl, a), 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_ptab_scan(&src, fl, b), 0);
	*r = calloc(b->n, sizeof(**r));
	ptk_task_rates(a, b, 2.0, HZ, 1000.0, 8, *r);
	memset(f, 0, sizeof(*f));
	f->rows = calloc(b->n, sizeof(*f->rows));
	f->order = calloc(b->n, sizeof(*f->order));
	for (int i = 0; i < b->n; i++) {
		ptk_task_states_add(&f->tasks, b->t[i].state);
		ptk_top_row_set(&f->rows[f->nrows++], &b->t[i], &(*r)[i], &how);
	}
}

static void frame_free(struct ptk_ptab *a, struct ptk_ptab *b, struct ptk_top_frame *f,
		       struct ptk_task_rate *r)
{
	free(f->rows);
	free(f->order);
	free(r);
	ptk_ptab_free(a);
	ptk_ptab_free(b);
}

static const struct ptk_top_row *row_of(const struct ptk_top_frame *f, int pid)
{
	for (int i = 0; i < f->nrows; i++)
		if (f->rows[i].pid == pid)
			return &f->rows[i];
	fail_msg("pid %d not in the frame", pid);
	return NULL;
}

static void test_rows(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_top_frame f;
	struct ptk_task_rate *r;
	long pg_kb = sysconf(_SC_PAGESIZE) / 1024;

	frame(PTK_PT_IO | PTK_PT_STATUS, &a, &b, &f, &r);
	assert_int_equal(f.tasks.total, 5);
	assert_int_equal(f.tasks.sleeping, 5);
	assert_int_equal(f.tasks.running + f.tasks.stopped + f.tasks.zombie, 0);
	const struct ptk_top_row *x = row_of(&f, 200);
	assert_int_equal(x->v[TC_VIRT].u, 4000); /* no statm: vsize 4096000 B */
	assert_int_equal(x->v[TC_RES].u, 250 * pg_kb);
	assert_true(x->v[TC_SHR].na);
	assert_float_equal(x->v[TC_CPU].f, 90.0, 1e-9);
	assert_float_equal(x->v[TC_MEM].f, 100.0 * 250 * pg_kb / 1000000, 1e-9);
	assert_float_equal(x->v[TC_TIME].f, 16.8, 1e-9); /* (1150 + 530) / 100 */
	assert_float_equal(x->v[TC_RKB].f, 1000.0, 1e-9);
	assert_float_equal(x->v[TC_WKB].f, 200.0, 1e-9);
	assert_float_equal(x->v[TC_MAJFLT].f, 2.0, 1e-9);
	assert_float_equal(x->v[TC_CSW].f, 22.0, 1e-9);
	assert_string_equal(x->v[TC_S].s, "S");
	assert_true(x->v[TC_USER].na); /* not asked for (PTK_PT_OWNER) */
	assert_string_equal(x->cmd, "[busy]"); /* no cmdline file */
	x = row_of(&f, 300);
	assert_true(x->v[TC_RKB].na); /* no io file */

	/* by %CPU descending: 500 400 % (8 CPUs), 200, 210, 400 (born), 300 (new) */
	struct ptk_top_order o = { .cols = cols, .sort = TC_CPU };
	static const int by_cpu[] = { 500, 200, 210, 400, 300 };
	ptk_top_arrange(&f, &o);
	assert_int_equal(f.norder, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(f.rows[f.order[i]].pid, by_cpu[i]);
	o.sort = TC_PID;
	o.asc = true;
	ptk_top_arrange(&f, &o);
	for (int i = 1; i < f.norder; i++)
		assert_true(f.rows[f.order[i - 1]].pid < f.rows[f.order[i]].pid);
	/* a filter on COMMAND; unknown values (no io) sort lowest */
	o.filter = "bus";
	ptk_top_arrange(&f, &o);
	assert_int_equal(f.norder, 2);
	o.filter = NULL;
	o.sort = TC_RKB;
	o.asc = false;
	ptk_top_arrange(&f, &o);
	assert_int_equal(f.rows[f.order[0]].pid, 200);
	assert_true(f.rows[f.order[f.norder - 1]].v[TC_RKB].na);
	/* --cgroup /a: 210 at /a and 200 below it; 300 at /ab is not, nor rows without one */
	for (int i = 0; i < f.nrows; i++) {
		struct ptk_top_row *w = &f.rows[i];
		w->v[TC_CGROUP] = w->pid == 200 ? PTK_S("/a/b.scope") :
				  w->pid == 210 ? PTK_S("/a") :
				  w->pid == 300 ? PTK_S("/ab") :
						  PTK_NA;
	}
	o.cgroup = "/a";
	o.sort = TC_PID;
	o.asc = true;
	ptk_top_arrange(&f, &o);
	assert_int_equal(f.norder, 2);
	assert_int_equal(f.rows[f.order[0]].pid, 200);
	assert_int_equal(f.rows[f.order[1]].pid, 210);
	o.cgroup = "/";
	ptk_top_arrange(&f, &o);
	assert_int_equal(f.norder, 3);
	frame_free(&a, &b, &f, r);
}

/* Threads under their process: 500's threads 501..503 below it, sorted by PID, with the
 * branches drawn. */
static void test_tree(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_top_frame f;
	struct ptk_task_rate *r;
	struct ptk_top_order o = {
		.cols = cols, .sort = TC_PID, .asc = true, .tree = true, .threads = true
	};

	frame(PTK_PT_THREADS, &a, &b, &f, &r);
	ptk_top_arrange(&f, &o);
	int k = 0;
	while (k < f.norder && f.rows[f.order[k]].pid != 500)
		k++;
	assert_true(k + 3 < f.norder);
	static const char *const branch[] = { "", "|- ", "|- ", "`- " };
	for (int i = 0; i < 4; i++) {
		const struct ptk_top_row *x = &f.rows[f.order[k + i]];
		assert_int_equal(x->pid, 500 + i);
		assert_int_equal(x->depth, i ? 1 : 0);
		assert_string_equal(x->tree, branch[i]);
	}
	frame_free(&a, &b, &f, r);
}

static void test_frame_cpu(void **state)
{
	struct ptk_stat st[3] = { 0 };
	struct ptk_top_frame f = { 0 };
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/mpstat_hotplug", NULL), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ptk_stat_read(&src, &st[i]), 0);
		if (i < 2)
			assert_int_equal(ptk_src_next(&src), 0);
	}
	/* cpu1 gone: one CPU online; all CPUs: +50 user +20 system +80 idle */
	assert_int_equal(ptk_top_frame_cpu(&f, &st[0], &st[1], 1.0), 1);
	assert_float_equal(f.cpu[PTK_CPU_USER], 100.0 * 50 / 150, 1e-9);
	assert_float_equal(f.cpu[PTK_CPU_SYSTEM], 100.0 * 20 / 150, 1e-9);
	assert_float_equal(f.cpu[PTK_CPU_IDLE], 100.0 * 80 / 150, 1e-9);
	assert_true(f.present[0]);
	/* back: both online, cpu1 has no share (not present at the start) */
	assert_int_equal(ptk_top_frame_cpu(&f, &st[1], &st[2], 1.0), 2);
	assert_int_equal(f.ncpu, 2);
	assert_true(f.present[0]);
	assert_false(f.present[1]);
	/* cpu0: +30 user +10 system +60 idle */
	assert_float_equal(f.percpu[0][PTK_CPU_USER], 30.0, 1e-9);
	assert_float_equal(f.percpu[0][PTK_CPU_IDLE], 60.0, 1e-9);
	assert_float_equal(f.forks_s, 0.0, 1e-9);
	free(f.percpu);
	free(f.present);
	for (int i = 0; i < 3; i++)
		ptk_stat_free(&st[i]);
}

static void test_states(void **state)
{
	struct ptk_task_states s = { 0 };
	const char *all = "RSDIDTtZXK";

	for (const char *p = all; *p; p++)
		ptk_task_states_add(&s, *p);
	assert_int_equal(s.total, 10);
	assert_int_equal(s.running, 1);
	assert_int_equal(s.sleeping, 4); /* S, D, I, D */
	assert_int_equal(s.disk, 2);
	assert_int_equal(s.idle, 1);
	assert_int_equal(s.stopped, 2);
	assert_int_equal(s.zombie, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_frame_cpu),
		cmocka_unit_test(test_states),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
