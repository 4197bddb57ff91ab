// SPDX-License-Identifier: GPL-2.0
/* Per-task rates and grouping (model/ptask.h) between two fixture process tables 2.00 s apart
 * (tests/fixtures/pid_rates: uptime 1000.00 -> 1002.00), USER_HZ 100. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* sysstat's "active" test by activity: 200 moved every counter; 210 only its CPU ticks
 * (faults, size, I/O and switches unchanged); 400 is born, counted from 0. */
static void test_active(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_task_rate *r;
	struct ptk_group *g;

	scan_pair(flags, &a, &b);
	r = calloc(b.n, sizeof(*r));
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 8, r);
	const struct ptk_task_rate *x = rate_of(r, b.n, 200);
	for (unsigned act = PTK_ACT_CPU; act <= PTK_ACT_CSW; act <<= 1)
		assert_true(ptk_task_active(x, act));
	x = rate_of(r, b.n, 210);
	assert_true(ptk_task_active(x, PTK_ACT_CPU));
	assert_false(ptk_task_active(x, PTK_ACT_MEM));
	assert_false(ptk_task_active(x, PTK_ACT_IO));
	assert_false(ptk_task_active(x, PTK_ACT_CSW));
	assert_true(ptk_task_active(x, PTK_ACT_MEM | PTK_ACT_CPU));
	x = rate_of(r, b.n, 400); /* born: its 40 ticks, its size from 0 */
	assert_true(ptk_task_active(x, PTK_ACT_CPU));
	assert_true(ptk_task_active(x, PTK_ACT_MEM));

	/* groups: busy (200 + 210) moved everything; nobody's group (210) only CPU */
	int ng = ptk_group_rates(r, b.n, PTK_BY_USER, &g);
	const struct ptk_group *y = group_of(g, ng, ptk_user_name(65534));
	assert_true(ptk_group_active(y, PTK_ACT_CPU));
	assert_false(ptk_group_active(y, PTK_ACT_IO | PTK_ACT_CSW | PTK_ACT_MEM));
	y = group_of(g, ng, ptk_user_name(0));
	assert_true(ptk_group_active(y, PTK_ACT_IO));
	free(g);

	/* by %CPU, descending: mt4 400, busy 115, born 20, new 10 */
	ng = ptk_group_rates(r, b.n, PTK_BY_COMM, &g);
	ptk_group_sort_cpu(g, ng);
	assert_int_equal(ng, 4);
	assert_string_equal(g[0].key, "mt4");
	assert_string_equal(g[1].key, "busy");
	assert_string_equal(g[2].key, "born");
	assert_string_equal(g[3].key, "new");
	free(g);
	free(r);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

/* pidstat's Average: VSZ and RSS summed per (pid, starttime) over the samples; a reused pid
 * (300) starts over, a task gone is dropped. vsize 4096000 B = 4000 kB, rss 250 pages. */
static void test_means(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 }, c = { 0 };
	struct ptk_task_means m = { 0 };
	long pg_kb = sysconf(_SC_PAGESIZE) / 1024;

	scan_pair(flags, &a, &b);
	ptk_task_means_add(&m, &a);
	ptk_task_means_add(&m, &b);
	assert_int_equal(m.n, b.n);
	const struct ptk_task_mean *x = ptk_task_means_find(&m, ptk_ptab_find_pid(&b, 200));
	assert_non_null(x);
	assert_int_equal(x->n, 2);
	assert_float_equal(x->vsz_kb, 8000.0, 1e-9);
	assert_float_equal(x->rss_kb, 2.0 * 250 * pg_kb, 1e-9);
	x = ptk_task_means_find(&m, ptk_ptab_find_pid(&b, 300)); /* the new process */
	assert_non_null(x);
	assert_int_equal(x->n, 1);
	assert_null(ptk_task_means_find(&m, ptk_ptab_find_pid(&a, 300))); /* the old one */
	/* a sample without 210: its sums go */
	ptk_ptab_copy(&c, &b);
	for (int i = 0, w = 0; i < b.n; i++)
		if (b.t[i].pid != 210)
			c.t[w++] = b.t[i];
	c.n = b.n - 1;
	ptk_task_means_add(&m, &c);
	assert_null(ptk_task_means_find(&m, ptk_ptab_find_pid(&b, 210)));
	assert_int_equal(ptk_task_means_find(&m, ptk_ptab_find_pid(&b, 200))->n, 3);
	ptk_task_means_free(&m);
	/* by_pid (sysstat): the reused pid 300 goes on summing */
	struct ptk_task_means mp = { .by_pid = true };
	ptk_task_means_add(&mp, &a);
	ptk_task_means_add(&mp, &b);
	x = ptk_task_means_find(&mp, ptk_ptab_find_pid(&b, 300));
	assert_non_null(x);
	assert_int_equal(x->n, 2);
	assert_non_null(ptk_task_means_find(&mp, ptk_ptab_find_pid(&a, 300)));
	ptk_task_means_free(&mp);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
	ptk_ptab_free(&c);
}

/* iotop's bytes: 200 read 2048000 and wrote 409600 B in 2 s; 300 has no io file; 400 (no
 * io either) is born. The totals sum the tasks with io at both ends. */
static void test_io_bytes(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	double rd, wr, trd, twr;

	scan_pair(flags, &a, &b);
	const struct ptk_task *c = ptk_ptab_find_pid(&b, 200);
	assert_true(ptk_task_io_bytes(ptk_ptab_find(&a, 200, c->starttime), c, &rd, &wr));
	assert_float_equal(rd, 2048000.0, 1e-9);
	assert_float_equal(wr, 409600.0, 1e-9);
	/* counted from 0 when born */
	assert_true(ptk_task_io_bytes(NULL, c, &rd, &wr));
	assert_float_equal(rd, 2048000.0, 1e-9);
	assert_false(ptk_task_io_bytes(NULL, ptk_ptab_find_pid(&b, 300), &rd, &wr));
	/* cancelled bytes come off the written ones, never below 0 */
	struct ptk_task p = *c, q = *c;
	p.write_bytes = 1000, p.cancelled_write_bytes = 0;
	q.write_bytes = 5000, q.cancelled_write_bytes = 1500;
	assert_true(ptk_task_io_bytes(&p, &q, &rd, &wr));
	assert_float_equal(wr, 2500.0, 1e-9);
	q.cancelled_write_bytes = 4500;
	assert_true(ptk_task_io_bytes(&p, &q, &rd, &wr));
	assert_float_equal(wr, 0.0, 1e-9);

	ptk_ptab_io_totals(&a, &b, ITV, &trd, &twr);
	assert_float_equal(trd, 1024000.0, 1e-9); /* 200 only: 210 did no I/O */
	assert_float_equal(twr, 204800.0, 1e-9);
	ptk_ptab_io_totals(&a, &b, 0, &trd, &twr);
	assert_float_equal(trd, 0.0, 1e-9);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

/* Thread rates in (tgid, tid) order, whatever order they came in. */
static void test_sort_tgid(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_task_rate *r;

	scan_pair(flags | PTK_PT_THREADS, &a, &b);
	r = calloc(b.n, sizeof(*r));
	ptk_task_rates(&a, &b, ITV, HZ, PREV_UP, 8, r);
	for (int i = 0; i < b.n / 2; i++) { /* reverse */
		struct ptk_task_rate t = r[i];
		r[i] = r[b.n - 1 - i];
		r[b.n - 1 - i] = t;
	}
	ptk_task_rates_sort_tgid(r, b.n);
	for (int i = 1; i < b.n; i++)
		assert_true(r[i - 1].cur->tgid < r[i].cur->tgid ||
			    (r[i - 1].cur->tgid == r[i].cur->tgid &&
			     r[i - 1].cur->pid < r[i].cur->pid));
	int k = 0;
	while (k < b.n && r[k].cur->tgid != 500)
		k++;
	assert_true(k + 3 < b.n);
	assert_int_equal(r[k].cur->pid, 500);
	assert_int_equal(r[k + 3].cur->pid, 503);
	free(r);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

/* ---- sysstat pidstat's values (ptk_ps_vals) on tests/fixtures/pidstat_sysstat: samples at
 * uptime 1000.00, 1002.00 and 1001.00 s (the last one went back), USER_HZ 100 ---- */

static void scan3(unsigned fl, struct ptk_ptab *t)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/pidstat_sysstat", NULL), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ptk_ptab_scan(&src, fl, &t[i]), 0);
		if (i < 2)
			assert_int_equal(ptk_src_next(&src), 0);
	}
}

static struct ptk_ps_itv ps_itv(long itv_cs)
{
	return (struct ptk_ps_itv){
		.itv_cs = itv_cs, .hz = HZ, .page_kb = 4, .memtotal_kb = 1000000, .ncpu = 2
	};
}

#define F(col, x) assert_float_equal(v[col].f, (x), 1e-9)
#define NAV(col) assert_true(v[col].na)

/* 600 over 2.00 s: sysstat's arithmetic, digit for digit; %wait from run_delay rounded down
 * to ticks (123 -> 150: 27 ticks, 13.50 %; the exact 265.43 ms would be 13.27 %) */
static void test_ps_vals(void **state)
{
	const unsigned fl = PTK_PT_STATUS | PTK_PT_SCHED | PTK_PT_IO | PTK_PT_STACK | PTK_PT_FDS;
	struct ptk_ptab t[3] = { 0 };
	struct ptk_val v[PTK_PS_NCOLS];
	struct ptk_ps_itv in = ps_itv(200);

	scan3(fl, t);
	const struct ptk_task *p = ptk_ptab_find_pid(&t[0], 600),
			      *c = ptk_ptab_find_pid(&t[1], 600);
	assert_int_equal(ptk_ps_vals(&in, p, c, NULL, v), 0);
	F(PTK_PS_USR, 75.0);
	F(PTK_PS_SYSTEM, 25.0);
	F(PTK_PS_GUEST, 0.0);
	F(PTK_PS_WAIT, 13.5);
	F(PTK_PS_CPU, 100.0);
	assert_int_equal(v[PTK_PS_CPUNUM].i, 1);
	F(PTK_PS_CUSR_MS, 1700.0); /* (1150 + 50) - (1000 + 30) ticks */
	F(PTK_PS_CSYS_MS, 600.0);
	F(PTK_PS_MINFLT, 100.0);
	F(PTK_PS_MAJFLT, 1.0);
	F(PTK_PS_CMINFLT, 240.0); /* (300 + 50) - (100 + 10) */
	F(PTK_PS_CMAJFLT, 3.0);
	F(PTK_PS_VSZ, 8000.0);
	F(PTK_PS_RSS, 2000.0);
	F(PTK_PS_MEM, 0.2);
	F(PTK_PS_STKSIZE, 132.0);
	F(PTK_PS_STKREF, 44.0);
	F(PTK_PS_RD, 1000.0); /* 2048000 B / 2 s / 1024 */
	F(PTK_PS_WR, 200.0);
	F(PTK_PS_CCWR, 2.0);
	F(PTK_PS_IODELAY, 50.0);
	F(PTK_PS_CSW, 20.0);
	F(PTK_PS_THREADS, 2.0);
	F(PTK_PS_FDNR, 3.0);
	assert_int_equal(v[PTK_PS_PRIO].u, 0);
	assert_string_equal(v[PTK_PS_POLICY].s, "NORMAL");

	/* -I: 200 ticks of 400 on all CPUs in /proc/stat */
	in.irix_off = true;
	in.dtot = 400;
	ptk_ps_vals(&in, p, c, NULL, v);
	F(PTK_PS_CPU, 50.0);
	F(PTK_PS_USR, 75.0); /* only %CPU is divided, as sysstat */

	/* a task missing from the previous scan counts from 0 (sysstat) */
	in = ps_itv(200);
	ptk_ps_vals(&in, NULL, c, NULL, v);
	F(PTK_PS_USR, 575.0);
	F(PTK_PS_CUSR_MS, 12000.0);

	/* the real-time one */
	ptk_ps_vals(&in, NULL, ptk_ptab_find_pid(&t[1], 700), NULL, v);
	assert_int_equal(v[PTK_PS_PRIO].u, 50);
	assert_string_equal(v[PTK_PS_POLICY].s, "FIFO");
	NAV(PTK_PS_STKSIZE); /* no smaps */
	NAV(PTK_PS_FDNR); /* no fd directory */
	NAV(PTK_PS_RD); /* no io file */
	/* a stat line of an old kernel without delayacct_blkio_ticks and guest_time */
	struct ptk_task old = *c;
	old.no_blkio = old.no_gtime = true;
	ptk_ps_vals(&in, p, &old, NULL, v);
	NAV(PTK_PS_IODELAY);
	NAV(PTK_PS_GUEST);
	F(PTK_PS_USR, 75.0);
	for (int i = 0; i < 3; i++)
		ptk_ptab_free(&t[i]);
}

/* Bad input: only the values of the implausible field are unknown, and it is named */
static void test_ps_bad(void **state)
{
	struct ptk_ptab t[3] = { 0 }, th[3] = { 0 };
	struct ptk_val v[PTK_PS_NCOLS];
	struct ptk_ps_itv in = ps_itv(200);
	const char *file, *field;

	scan3(PTK_PT_STATUS | PTK_PT_SCHED, t);
	scan3(PTK_PT_STATUS | PTK_PT_SCHED | PTK_PT_THREADS, th);
	/* thread 601's stime went back from 10 to 5: %system, %CPU and system-ms unknown */
	unsigned bad = ptk_ps_vals(&in, ptk_ptab_find_pid(&th[0], 601),
				   ptk_ptab_find_pid(&th[1], 601), NULL, v);
	assert_int_equal(bad, 1u << PTK_PF_STIME);
	NAV(PTK_PS_SYSTEM);
	NAV(PTK_PS_CPU);
	NAV(PTK_PS_CSYS_MS);
	F(PTK_PS_USR, 50.0);
	F(PTK_PS_CUSR_MS, 1000.0);
	F(PTK_PS_MINFLT, 25.0);
	ptk_ps_field_where(PTK_PF_STIME, &file, &field);
	assert_string_equal(file, "stat");
	assert_string_equal(field, "stime");

	/* the uptime went back (1002 -> 1001 s): no interval, every rate unknown, the rest not */
	const struct ptk_task *c = ptk_ptab_find_pid(&t[2], 600);
	in = ps_itv(1001 * 100 - 1002 * 100);
	assert_int_equal(ptk_ps_vals(&in, ptk_ptab_find_pid(&t[1], 600), c, NULL, v), 0);
	NAV(PTK_PS_USR);
	NAV(PTK_PS_CPU);
	NAV(PTK_PS_WAIT);
	NAV(PTK_PS_MINFLT);
	NAV(PTK_PS_CSW);
	F(PTK_PS_CUSR_MS, 100.0);
	F(PTK_PS_VSZ, 8000.0);
	F(PTK_PS_MEM, 0.2);

	/* %CPU above ncpu x 100 (2 CPUs): unknown, named */
	struct ptk_task big = *c;
	big.utime += 100000;
	in = ps_itv(200);
	bad = ptk_ps_vals(&in, ptk_ptab_find_pid(&t[1], 600), &big, NULL, v);
	assert_true(bad & (1u << PTK_PF_CPU_SHARE));
	NAV(PTK_PS_CPU);
	/* RSS above MemTotal */
	big = *c;
	big.rss_pages = 1000000;
	bad = ptk_ps_vals(&in, ptk_ptab_find_pid(&t[1], 600), &big, NULL, v);
	assert_true(bad & (1u << PTK_PF_MEM_SHARE));
	NAV(PTK_PS_MEM);
	F(PTK_PS_RSS, 4000000.0);

	/* wrap, sysstat's unsigned arithmetic: the same fields named, its numbers shown */
	in = ps_itv(200);
	in.wrap = true;
	bad = ptk_ps_vals(&in, ptk_ptab_find_pid(&t[1], 600), &big, NULL, v);
	assert_true(bad & (1u << PTK_PF_MEM_SHARE));
	F(PTK_PS_MEM, 400.0);
	const struct ptk_task *tp = ptk_ptab_find_pid(&th[0], 601),
			      *tc = ptk_ptab_find_pid(&th[1], 601);
	bad = ptk_ps_vals(&in, tp, tc, NULL, v);
	assert_int_equal(bad, 1u << PTK_PF_STIME);
	F(PTK_PS_SYSTEM, (double)(tc->stime - tp->stime) / (200.0 * HZ / 100) * 100);
	assert_true(v[PTK_PS_SYSTEM].f > 1e18); /* 2^64 - 5 ticks */
	F(PTK_PS_USR, 50.0);
	/* an interval line's iodelay is the exact count, U64 */
	assert_int_equal(v[PTK_PS_IODELAY].u, tc->blkio_ticks - tp->blkio_ticks);
	/* the uptime went back 1 s: rates over the wrapped interval, near 0, not unknown */
	in = ps_itv(-100);
	in.wrap = true;
	ptk_ps_vals(&in, ptk_ptab_find_pid(&t[1], 600), c, NULL, v);
	assert_false(v[PTK_PS_MINFLT].na);
	assert_true(v[PTK_PS_MINFLT].f >= 0 && v[PTK_PS_MINFLT].f < 1e-9);
	assert_false(v[PTK_PS_USR].na);
	assert_true(v[PTK_PS_USR].f < 1e-9);
	for (int i = 0; i < 3; i++) {
		ptk_ptab_free(&t[i]);
		ptk_ptab_free(&th[i]);
	}
}

/* sysstat's activity test per activity, and the Average's baseline and means */
static void test_ps_active_avg(void **state)
{
	const unsigned fl = PTK_PT_STATUS | PTK_PT_SCHED | PTK_PT_STACK | PTK_PT_FDS;
	struct ptk_ptab t[3] = { 0 }, base = { 0 };
	struct ptk_task_means m = { 0 };
	struct ptk_val v[PTK_PS_NCOLS];

	scan3(fl, t);
	const struct ptk_task *r0 = ptk_ptab_find_pid(&t[0], 700),
			      *r1 = ptk_ptab_find_pid(&t[1], 700);
	assert_false(ptk_ps_active(r0, r1, PTK_ACT_CPU | PTK_ACT_MEM | PTK_ACT_RT, PTK_PS_TASK));
	assert_true(ptk_ps_active(NULL, r1, PTK_ACT_RT, 0)); /* new: FIFO 50 against 0 */
	assert_false(ptk_ps_active(NULL, r1, PTK_ACT_KTAB, 0)); /* no fd directory */
	const struct ptk_task *s0 = ptk_ptab_find_pid(&t[0], 600),
			      *s1 = ptk_ptab_find_pid(&t[1], 600);
	assert_true(ptk_ps_active(s0, s1, PTK_ACT_STACK, 0)); /* Referenced 40 -> 44 */
	assert_false(ptk_ps_active(s0, s1, PTK_ACT_KTAB, 0));
	struct ptk_task c = *s1;
	c.utime = s0->utime;
	c.stime = s0->stime;
	assert_false(ptk_ps_active(s0, &c, PTK_ACT_CPU, PTK_PS_TASK));
	assert_true(ptk_ps_active(s0, &c, PTK_ACT_CPU, PTK_PS_CHILD)); /* cutime moved */

	/* 800 missed sample 1: it leaves the baseline and counts from 0 when back */
	ptk_ptab_copy(&base, &t[0]);
	ptk_ps_baseline_keep(&base, &t[1], false);
	assert_null(ptk_ptab_find_pid(&base, 800));
	assert_non_null(ptk_ptab_find_pid(&base, 600));
	/* by pid: a task whose start time changed stays */
	ptk_ptab_copy(&base, &t[0]);
	struct ptk_ptab moved = { 0 };
	ptk_ptab_copy(&moved, &t[0]);
	for (int i = 0; i < moved.n; i++)
		moved.t[i].starttime += 1;
	ptk_ps_baseline_keep(&base, &moved, true);
	assert_int_equal(base.n, t[0].n);
	ptk_ps_baseline_keep(&base, &moved, false);
	assert_int_equal(base.n, 0);
	ptk_ptab_free(&moved);

	/* means over samples 1 and 2: StkRef 44 and 48 */
	ptk_task_means_add(&m, &t[1]);
	ptk_task_means_add(&m, &t[2]);
	struct ptk_ps_itv in = ps_itv(100);
	in.avg = true;
	ptk_ps_vals(&in, s0, ptk_ptab_find_pid(&t[2], 600),
		    ptk_task_means_find(&m, ptk_ptab_find_pid(&t[2], 600)), v);
	F(PTK_PS_STKREF, 46.0);
	F(PTK_PS_FDNR, 3.0);
	F(PTK_PS_CUSR_MS, (1160.0 + 50 - 1000 - 30) / HZ / 2 * 1000); /* per sample */
	F(PTK_PS_IODELAY, 25.0);
	assert_true(v[PTK_PS_CPUNUM].na);
	ptk_task_means_free(&m);
	ptk_ptab_free(&base);
	for (int i = 0; i < 3; i++)
		ptk_ptab_free(&t[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates_exact),
		cmocka_unit_test(test_reuse_and_birth),
		cmocka_unit_test(test_threads_cap_and_tgid),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_active),
		cmocka_unit_test(test_means),
		cmocka_unit_test(test_io_bytes),
		cmocka_unit_test(test_sort_tgid),
		cmocka_unit_test(test_ps_vals),
		cmocka_unit_test(test_ps_bad),
		cmocka_unit_test(test_ps_active_avg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
