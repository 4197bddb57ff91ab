// SPDX-License-Identifier: GPL-2.0
/*
 * The activities (model/act_*.c) on tests/fixtures/unit_act: two snapshots 2 s apart. Every
 * expected value is computed by hand from the fixture's files, in the comments.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/activity.h"
#include "model/runq.h"

struct fx {
	struct ptk_snap s[2];
	struct ptk_rows rs;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/unit_act", NULL), 0);
	assert_int_equal(ptk_snap_read(&src, &f->s[0], PTK_SNAP_ALL), 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_snap_read(&src, &f->s[1], PTK_SNAP_ALL), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ptk_snap_free(&f->s[0]);
	ptk_snap_free(&f->s[1]);
	ptk_rows_free(&f->rs);
	free(f);
	return 0;
}

/* The rows of activity a between snapshot 0 (or since boot: prev NULL) and snapshot 1 (or
 * 0 when since boot). */
static void rows(struct fx *f, enum ptk_act_id a, bool since_boot, const struct ptk_act_opts *o)
{
	const struct ptk_snap *prev = since_boot ? NULL : &f->s[0];
	const struct ptk_snap *cur = since_boot ? &f->s[0] : &f->s[1];
	double itv = since_boot ? cur->up.up_s : cur->up.up_s - prev->up.up_s;

	f->rs.n = 0;
	assert_int_equal(ptk_activities[a].rows(prev, cur, itv, o, &f->rs), 0);
}

static const struct ptk_val *cell(struct fx *f, enum ptk_act_id a, const char *key, enum ptk_mid m)
{
	const struct ptk_row *r = ptk_rows_find(&f->rs, key);
	int i = ptk_act_col(&ptk_activities[a], m);

	if (!r)
		fail_msg("no row '%s'", key);
	if (i < 0)
		fail_msg("%s is not a metric of %s", ptk_registry[m].key, ptk_activities[a].name);
	return &r->v[i];
}

static double num(struct fx *f, enum ptk_act_id a, const char *key, enum ptk_mid m)
{
	const struct ptk_val *v = cell(f, a, key, m);

	if (v->na)
		fail_msg("%s of '%s' is na", ptk_registry[m].key, key);
	return ptk_registry[m].type == PTK_V_U64 ? (double)v->u : v->f;
}

#define EQ(f, a, key, m, x) assert_float_equal(num(f, a, key, PTK_M_##m), (x), 1e-9)
#define NA(f, a, key, m) assert_true(cell(f, a, key, PTK_M_##m)->na)

/* cpu: ticks of the interval (guest not counted: inside user) user 100 nice 0 system 50 idle
 * 300 iowait 20 irq 10 softirq 10 steal 10 = 500; guest 20. cpu2 appeared: no baseline. */
static void test_cpu(void **state)
{
	struct fx *f = *state;
	struct ptk_act_opts o = { .per_cpu = true };

	rows(f, PTK_ACT_CPU, false, &o);
	assert_int_equal(f->rs.n, 4);
	assert_string_equal(f->rs.r[0].key, "all");
	EQ(f, PTK_ACT_CPU, "all", CPU_USER, 20.0);
	EQ(f, PTK_ACT_CPU, "all", CPU_USR, 16.0); /* (100 - 20) / 500 */
	EQ(f, PTK_ACT_CPU, "all", CPU_SYSTEM, 14.0); /* (50 + 10 + 10) / 500 */
	EQ(f, PTK_ACT_CPU, "all", CPU_SYS, 10.0);
	EQ(f, PTK_ACT_CPU, "all", CPU_IOWAIT, 4.0);
	EQ(f, PTK_ACT_CPU, "all", CPU_STEAL, 2.0);
	EQ(f, PTK_ACT_CPU, "all", CPU_GUEST, 4.0);
	EQ(f, PTK_ACT_CPU, "all", CPU_IDLE, 60.0);
	EQ(f, PTK_ACT_CPU, "0", CPU_USR, 16.0);
	NA(f, PTK_ACT_CPU, "2", CPU_IDLE);
	NA(f, PTK_ACT_CPU, "2", CPU_USR);
}

/* since boot: the counters from zero; all = 600+100+300+8000+100+50+50 = 9200 ticks */
static void test_cpu_since_boot(void **state)
{
	struct fx *f = *state;

	rows(f, PTK_ACT_CPU, true, NULL);
	assert_int_equal(f->rs.n, 1);
	EQ(f, PTK_ACT_CPU, "all", CPU_IDLE, 100.0 * 8000 / 9200);
	EQ(f, PTK_ACT_CPU, "all", CPU_USER, 100.0 * 600 / 9200);
}

/* sda: reads 200 (sectors 2000, ms 1000, merged 20), writes 100 (sectors 800, ms 500),
 * io_ticks 1000 ms, time_in_queue 1500 ms, over 2 s. sdb's counters went back: it counts
 * from zero (10 reads, 80 sectors, io_ticks 10). sdc appeared: from zero too. */
static void test_disk(void **state)
{
	struct fx *f = *state;

	rows(f, PTK_ACT_DISK, false, NULL);
	assert_int_equal(f->rs.n, 3);
	EQ(f, PTK_ACT_DISK, "sda", DISK_TPS, 150.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_R_S, 100.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_W_S, 50.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_RKB_S, 500.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_WKB_S, 200.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_RRQM_S, 10.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_RRQM_PCT, 100.0 * 20 / 220);
	EQ(f, PTK_ACT_DISK, "sda", DISK_R_AWAIT, 5.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_RAREQ_SZ, 5.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_WAREQ_SZ, 4.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_AREQ_SZ, 2800.0 / 2 / 300);
	EQ(f, PTK_ACT_DISK, "sda", DISK_AWAIT, 5.0); /* (1000 + 500) / 300 */
	EQ(f, PTK_ACT_DISK, "sda", DISK_AQU_SZ, 0.75);
	EQ(f, PTK_ACT_DISK, "sda", DISK_UTIL, 50.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_SVCTM, 1000.0 / 300);
	EQ(f, PTK_ACT_DISK, "sda", DISK_D_S, 0.0); /* 17 fields: discards known, none */
	EQ(f, PTK_ACT_DISK, "sdb", DISK_R_S, 5.0);
	EQ(f, PTK_ACT_DISK, "sdb", DISK_RKB_S, 20.0);
	EQ(f, PTK_ACT_DISK, "sdb", DISK_UTIL, 0.5);
	EQ(f, PTK_ACT_DISK, "sdc", DISK_R_S, 2.0);
	EQ(f, PTK_ACT_DISK, "sdc", DISK_RKB_S, 16.0);

	/* one policy for every caller, as sysstat's iostat and sar: restart_zero (nicstat's
	 * network policy) leaves disks as they are */
	struct ptk_act_opts rz = { .restart_zero = true };
	rows(f, PTK_ACT_DISK, false, &rz);
	EQ(f, PTK_ACT_DISK, "sdb", DISK_R_S, 5.0);
	EQ(f, PTK_ACT_DISK, "sdb", DISK_RKB, 40); /* 80 sectors since it was recreated */
	EQ(f, PTK_ACT_DISK, "sdc", DISK_R_S, 2.0);
	EQ(f, PTK_ACT_DISK, "sdc", DISK_RSECT, 64);
	EQ(f, PTK_ACT_DISK, "sda", DISK_RKB, 1000); /* 2000 sectors */
	EQ(f, PTK_ACT_DISK, "sda", DISK_KB_S, 700.0); /* (2000 + 800) sectors / 2 / 2 s */
	EQ(f, PTK_ACT_DISK, "sda", DISK_RQM_S, 15.0); /* (20 + 10) merged / 2 s */
	EQ(f, PTK_ACT_DISK, "sda", DISK_WDKB_S, 200.0);
	EQ(f, PTK_ACT_DISK, "sda", DISK_WDSECT, 800);

	/* sar -b: the whole disks summed: reads 200 + 10 + 4, sectors 2000 + 80 + 64 */
	rows(f, PTK_ACT_IO, false, NULL);
	EQ(f, PTK_ACT_IO, "", IO_RTPS, 107.0);
	EQ(f, PTK_ACT_IO, "", IO_BREAD, 1072.0);
	EQ(f, PTK_ACT_IO, "", DISK_TPS, 157.0);
}

/* eth0: 25,000,000 bytes received in 2 s on a 1000 Mb/s link: 12207.03125 kB/s, 10 %.
 * lo has no link speed: %ifutil unknown. tun0 appeared: from zero. */
static void test_net(void **state)
{
	struct fx *f = *state;

	rows(f, PTK_ACT_NET_DEV, false, NULL);
	assert_int_equal(f->rs.n, 3);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_RXKB, 25e6 / 1024 / 2);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_RXPCK, 1000.0);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_RXMCST, 2.0);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_IFUTIL, 10.0);
	EQ(f, PTK_ACT_NET_DEV, "lo", NET_RXKB, 1.0);
	NA(f, PTK_ACT_NET_DEV, "lo", NET_IFUTIL);
	EQ(f, PTK_ACT_NET_DEV, "tun0", NET_RXKB, 1.0);
	/* nicstat's: bytes per packet (25e6 / 2000, 1e6 / 1000), rx errs +1 in 2 s */
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_RXAVS, 12500.0);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_TXAVS, 1000.0);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_SAT, 0.5);
	EQ(f, PTK_ACT_NET_DEV, "tun0", NET_TXAVS, 0.0); /* no packet sent */
	/* restart_zero: tun0 appeared, so it has no baseline */
	rows(f, PTK_ACT_NET_DEV, false, &(struct ptk_act_opts){ .restart_zero = true });
	NA(f, PTK_ACT_NET_DEV, "tun0", NET_RXKB);
	EQ(f, PTK_ACT_NET_DEV, "eth0", NET_RXPCK, 1000.0);
	rows(f, PTK_ACT_NET_EDEV, false, NULL);
	EQ(f, PTK_ACT_NET_EDEV, "eth0", NET_RXERR, 0.5);
}

/* Tcp: OutSegs +2000, RetransSegs +20 in 2 s; InErrs is missing from the second sample:
 * unknown, not 0. */
static void test_tcp(void **state)
{
	struct fx *f = *state;

	rows(f, PTK_ACT_TCP, false, NULL);
	EQ(f, PTK_ACT_TCP, "", TCP_ACTIVE, 5.0);
	EQ(f, PTK_ACT_TCP, "", TCP_OSEG, 1000.0);
	rows(f, PTK_ACT_ETCP, false, NULL);
	EQ(f, PTK_ACT_ETCP, "", TCP_RETRANS, 10.0);
	EQ(f, PTK_ACT_ETCP, "", TCP_RETRANS_PCT, 1.0);
	NA(f, PTK_ACT_ETCP, "", TCP_ISEGERR);
	EQ(f, PTK_ACT_ETCP, "", TCP_ORSTS, 0.0);
	EQ(f, PTK_ACT_ETCP, "", TCP_RESETS, 0.0); /* EstabResets 3 -> 3, OutRsts 10 -> 10 */
	NA(f, PTK_ACT_ETCP, "", TCP_LDROPS); /* no /proc/net/netstat */
	rows(f, PTK_ACT_TCP, false, NULL);
	NA(f, PTK_ACT_TCP, "", TCP_INKB); /* no Linux counter */
}

/* meminfo (second sample only; the first has none: unknown) */
static void test_mem(void **state)
{
	struct fx *f = *state;

	rows(f, PTK_ACT_MEM, false, NULL);
	EQ(f, PTK_ACT_MEM, "", MEM_USED, 400000); /* total - available */
	EQ(f, PTK_ACT_MEM, "", MEM_BUFF_CACHE, 330000); /* 50000 + 250000 + 30000 */
	EQ(f, PTK_ACT_MEM, "", MEM_KBMEMUSED, 400000); /* sysstat 12.7: total - available */
	EQ(f, PTK_ACT_MEM, "", MEM_USED_PCT, 40.0);
	EQ(f, PTK_ACT_MEM, "", MEM_KBSHMEM, 10000);
	EQ(f, PTK_ACT_MEM, "", MEM_SLAB, 50000);
	NA(f, PTK_ACT_MEM, "", MEM_KSTACK); /* no KernelStack line */
	EQ(f, PTK_ACT_MEM, "", MEM_COMMIT_PCT, 50.0); /* 550000 / (1e6 + 100000) */
	rows(f, PTK_ACT_MEM, true, NULL);
	NA(f, PTK_ACT_MEM, "", MEM_USED);
	NA(f, PTK_ACT_MEM, "", MEM_FREE);

	rows(f, PTK_ACT_SWAP, false, NULL);
	EQ(f, PTK_ACT_SWAP, "", SWP_USED, 40000);
	EQ(f, PTK_ACT_SWAP, "", SWP_USED_PCT, 40.0);
	EQ(f, PTK_ACT_SWAP, "", SWP_CAD_PCT, 2.5);
	EQ(f, PTK_ACT_SWAP, "", SWP_PSWPIN, 2.0);

	/* pgscan 200 + 100, pgsteal 120 + 80 in 2 s */
	rows(f, PTK_ACT_PAGING, false, NULL);
	EQ(f, PTK_ACT_PAGING, "", PG_PGPGIN, 1000.0);
	EQ(f, PTK_ACT_PAGING, "", PG_MAJFLT, 5.0);
	EQ(f, PTK_ACT_PAGING, "", PG_PGSTEAL, 100.0);
	EQ(f, PTK_ACT_PAGING, "", PG_VMEFF, 100.0 * 200 / 300);
}

/* loadavg 5/210 and procs_running 5: runq-sz leaves the reader out as sadc (4), procs_running
 * is as read (procps vmstat's r); ctxt +1000 and processes +20 in 2 s, PSI cpu some total
 * +500000 us in 2 s: 25 % */
static void test_queue_task_psi(void **state)
{
	struct fx *f = *state;

	rows(f, PTK_ACT_QUEUE, false, NULL);
	EQ(f, PTK_ACT_QUEUE, "", Q_RUNQ_SZ, 4);
	EQ(f, PTK_ACT_QUEUE, "", Q_PROCS_RUNNING, 5);
	assert_int_equal(ptk_act_runq_sz(0), 0); /* nothing to leave out */
	assert_int_equal(ptk_act_runq_sz(1), 0);
	rows(f, PTK_ACT_QUEUE, false, NULL);
	EQ(f, PTK_ACT_QUEUE, "", Q_PLIST_SZ, 210);
	EQ(f, PTK_ACT_QUEUE, "", Q_LDAVG_1, 1.5);
	EQ(f, PTK_ACT_QUEUE, "", Q_BLOCKED, 2);
	rows(f, PTK_ACT_TASK, false, NULL);
	EQ(f, PTK_ACT_TASK, "", TASK_CSWCH_S, 500.0);
	EQ(f, PTK_ACT_TASK, "", TASK_PROC_S, 10.0);
	rows(f, PTK_ACT_TASK, true, NULL);
	EQ(f, PTK_ACT_TASK, "", TASK_CSWCH_S, 100.0); /* 10000 over 100 s of uptime */
	rows(f, PTK_ACT_PSI_CPU, false, NULL);
	EQ(f, PTK_ACT_PSI_CPU, "", PSI_CPU_SOME_AVG10, 5.0);
	EQ(f, PTK_ACT_PSI_CPU, "", PSI_CPU_SOME_PCT, 25.0);
	EQ(f, PTK_ACT_PSI_CPU, "", PSI_CPU_SOME_TOTAL, 1500000);
	EQ(f, PTK_ACT_PSI_CPU, "", PSI_CPU_FULL_PCT, 0.0); /* the full line (>= 5.13): zero */
	EQ(f, PTK_ACT_PSI_CPU, "", PSI_CPU_FULL_TOTAL, 0);
	/* no /proc/pressure/io in the fixture: unknown */
	rows(f, PTK_ACT_PSI_IO, false, NULL);
	NA(f, PTK_ACT_PSI_IO, "", PSI_IO_SOME_AVG10);
	NA(f, PTK_ACT_PSI_IO, "", PSI_IO_FULL_PCT);
}

/* One interval's row of activity a for entity "", values set by metric. */
static void one_row(struct ptk_rows *rs, enum ptk_act_id a, enum ptk_mid m1, struct ptk_val v1,
		    enum ptk_mid m2, struct ptk_val v2)
{
	struct ptk_row *r;

	rs->n = 0;
	r = ptk_rows_add(rs, "");
	r->v[ptk_act_col(&ptk_activities[a], m1)] = v1;
	r->v[ptk_act_col(&ptk_activities[a], m2)] = v2;
}

/* sar's Average by kind: levels (PTK_GAUGE) are the mean of the intervals, whatever their
 * length; rates come from the whole window, or after a reboot the interval-weighted mean;
 * an interval where a value was unknown does not count for it. */
static void test_average(void **state)
{
	struct fx *f = *state;
	struct ptk_act_avg q = { .act = &ptk_activities[PTK_ACT_QUEUE] };
	struct ptk_act_avg t = { .act = &ptk_activities[PTK_ACT_TASK] };
	struct ptk_rows rs = { 0 }, whole = { 0 };

	/* 1 s with runq-sz 4, ldavg-1 unknown; then 3 s with runq-sz 1, ldavg-1 2.0 */
	one_row(&rs, PTK_ACT_QUEUE, PTK_M_Q_RUNQ_SZ, PTK_U(4), PTK_M_Q_LDAVG_1, PTK_NA);
	ptk_act_avg_add(&q, &rs, 1);
	one_row(&rs, PTK_ACT_QUEUE, PTK_M_Q_RUNQ_SZ, PTK_U(1), PTK_M_Q_LDAVG_1, PTK_F(2.0));
	ptk_act_avg_add(&q, &rs, 3);
	ptk_act_avg_rows(&q, NULL, &f->rs);
	EQ(f, PTK_ACT_QUEUE, "", Q_RUNQ_SZ, 3); /* llround(2.5) */
	EQ(f, PTK_ACT_QUEUE, "", Q_LDAVG_1, 2.0);
	NA(f, PTK_ACT_QUEUE, "", Q_BLOCKED); /* never known */

	/* cswch/s 100 for 1 s, 300 for 3 s */
	one_row(&rs, PTK_ACT_TASK, PTK_M_TASK_CSWCH_S, PTK_F(100), PTK_M_TASK_PROC_S, PTK_F(1));
	ptk_act_avg_add(&t, &rs, 1);
	one_row(&rs, PTK_ACT_TASK, PTK_M_TASK_CSWCH_S, PTK_F(300), PTK_M_TASK_PROC_S, PTK_F(1));
	ptk_act_avg_add(&t, &rs, 3);
	ptk_act_avg_rows(&t, NULL, &f->rs); /* a reboot in the window: weighted mean */
	EQ(f, PTK_ACT_TASK, "", TASK_CSWCH_S, 250.0);
	/* no reboot: the rate over the whole window, here that of the fixture's 2 s */
	assert_int_equal(ptk_activities[PTK_ACT_TASK].rows(&f->s[0], &f->s[1], 2, NULL, &whole), 0);
	ptk_act_avg_rows(&t, &whole, &f->rs);
	EQ(f, PTK_ACT_TASK, "", TASK_CSWCH_S, 500.0);

	ptk_act_avg_free(&q);
	ptk_act_avg_free(&t);
	ptk_rows_free(&rs);
	ptk_rows_free(&whole);
}

/* Every activity lists registry metrics, fits a row, and reads parts the snapshot has. */
static void test_table(void **state)
{
	for (int a = 0; a < PTK_ACT_COUNT; a++) {
		const struct ptk_activity *act = &ptk_activities[a];
		int n = 0;

		assert_non_null(act->name);
		assert_non_null(act->rows);
		assert_true(act->parts && !(act->parts & ~((1u << PTK_SNAP_NPARTS) - 1)));
		while (act->mids[n] != PTK_M_NONE) {
			assert_true(act->mids[n] > PTK_M_NONE && act->mids[n] < PTK_M_COUNT);
			n++;
		}
		assert_true(n > 0 && n < PTK_ROW_MAXCOLS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_cpu_since_boot),
		cmocka_unit_test(test_disk),
		cmocka_unit_test(test_net),
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_queue_task_psi),
		cmocka_unit_test(test_average),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
