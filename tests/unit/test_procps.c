// SPDX-License-Identifier: GPL-2.0
/*
 * The model behind ptk's procps commands (vmstat, free) on fixture trees. Every expected
 * value is computed by hand from the fixture's files, in the comments.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/activity.h"
#include "model/procps.h"
#include "model/tasktop.h"

static void read_tree(const char *dir, struct ptk_snap *s)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, dir, NULL), 0);
	assert_int_equal(ptk_snap_read(&src, s, PTK_SNAP_ALL), 0);
}

static double val(const struct ptk_snap *s, enum ptk_act_id a, enum ptk_mid m, double itv)
{
	struct ptk_rows rs = { 0 };
	int i = ptk_act_col(&ptk_activities[a], m);
	double f;

	assert_true(i >= 0);
	assert_int_equal(ptk_activities[a].rows(NULL, s, itv, NULL, &rs), 0);
	assert_true(rs.n >= 1);
	assert_false(rs.r[0].v[i].na);
	f = rs.r[0].v[i].f;
	ptk_rows_free(&rs);
	return f;
}

/*
 * vmstat's first line (issue 13 defect 4): tests/fixtures/vmstat_boot is a 4-CPU machine up
 * 1000 s, with 400000 CPU ticks at HZ 100 (4 x 1000 s). The since-boot interval is the
 * uptime, so the rates are counter / 1000; procps 4.0.2 divided by the ticks of all CPUs
 * (4000 s at HZ 100), a quarter of these.
 */
static void test_vmstat_since_boot(void **state)
{
	struct ptk_snap s = { 0 };
	double boot;

	read_tree(PTK_FIXTURES "/vmstat_boot", &s);
	boot = ptk_act_boot_s(&s);
	assert_float_equal(boot, 1000.0, 1e-9);
	/* cs: ctxt 2000000 / 1000 s; in: intr 500000 / 1000 s */
	assert_float_equal(val(&s, PTK_ACT_TASK, PTK_M_TASK_CSWCH_S, boot), 2000.0, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_TASK, PTK_M_TASK_INTR_S, boot), 500.0, 1e-9);
	/* bi, bo: pgpgin 3000000 kB, pgpgout 1000500 kB over 1000 s */
	assert_float_equal(val(&s, PTK_ACT_PAGING, PTK_M_PG_PGPGIN, boot), 3000.0, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_PAGING, PTK_M_PG_PGPGOUT, boot), 1000.5, 1e-9);
	/* si, so: pswpin 2500, pswpout 250 pages (4 kB on x86) over 1000 s: 10, 1 kB/s */
	double pkb = (double)sysconf(_SC_PAGESIZE) / 1024;
	assert_float_equal(val(&s, PTK_ACT_SWAP, PTK_M_SWP_SI, boot), 2.5 * pkb, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_SWAP, PTK_M_SWP_SO, boot), 0.25 * pkb, 1e-9);
	/* the shares do not depend on the interval: us 40000/400000, id 330000/400000 */
	assert_float_equal(val(&s, PTK_ACT_CPU, PTK_M_CPU_USER_NICE, boot), 10.0, 1e-9);
	assert_float_equal(val(&s, PTK_ACT_CPU, PTK_M_CPU_IDLE, boot), 82.5, 1e-9);
	/* an uptime of 0 (a damaged tree) is taken as 1 s, never a division by zero */
	s.up.up_s = 0;
	assert_float_equal(ptk_act_boot_s(&s), 1.0, 0);
	ptk_snap_free(&s);
}

/* free -l: the Low/High lines of a CONFIG_HIGHMEM kernel's meminfo (tests/fixtures/
 * free_highmem), and their absence on x86_64 (free_basic: free falls back to MemTotal/MemFree) */
static void test_meminfo_lohi(void **state)
{
	struct ptk_meminfo mi;
	struct ptk_meminfo_lohi lh;
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/free_highmem", NULL), 0);
	assert_int_equal(ptk_meminfo_read_lohi(&src, &mi, &lh), 0);
	assert_true(lh.has_low && lh.has_high);
	assert_int_equal(lh.low_total, 870192);
	assert_int_equal(lh.low_free, 492852);
	assert_int_equal(lh.high_total, 2236360);
	assert_int_equal(lh.high_free, 712020);
	assert_int_equal(mi.mem_total, 3106552); /* the main fields read from the same text */
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/free_basic", NULL), 0);
	assert_int_equal(ptk_meminfo_read_lohi(&src, &mi, &lh), 0);
	assert_false(lh.has_low || lh.has_high);
	/* one line of a pair is not the pair; a value that is not a number is refused */
	assert_int_equal(ptk_meminfo_lohi_parse("LowTotal: 5 kB\nHighFree: 1 kB\n", &lh), 0);
	assert_false(lh.has_low || lh.has_high);
	assert_int_equal(ptk_meminfo_lohi_parse("HighTotal: x kB\n", &lh), -EINVAL);
}

/* vmstat -s on tests/fixtures/vmstat_modes: the lines in procps's order, the memory ones from
 * the activities, the counters as the files hold them */
static void test_vmstats(void **state)
{
	struct ptk_vmstats_line l[PTK_VMSTATS_N];
	struct ptk_snap s = { 0 };

	read_tree(PTK_FIXTURES "/vmstat_modes", &s);
	ptk_vmstats(&s, l);
	assert_string_equal(l[0].label, "total memory");
	assert_int_equal(l[0].v.u, 8000000);
	assert_string_equal(l[1].label, "used memory"); /* MemTotal - MemAvailable */
	assert_int_equal(l[1].v.u, 2000000);
	assert_string_equal(l[6].label, "swap cache"); /* Cached 1000000 + SReclaimable 200000 */
	assert_int_equal(l[6].v.u, 1200000);
	assert_true(l[6].mem);
	assert_int_equal(l[8].v.u, 100000); /* used swap: 2000000 - 1900000 */
	assert_string_equal(l[10].label, "non-nice user cpu ticks");
	assert_int_equal(l[10].v.u, 40000);
	assert_false(l[10].mem);
	assert_string_equal(l[20].label, "K paged in");
	assert_int_equal(l[20].v.u, 3000000);
	assert_int_equal(l[23].v.u, 250); /* pages swapped out */
	assert_string_equal(l[25].label, "CPU context switches");
	assert_int_equal(l[25].v.u, 2000000);
	assert_int_equal(l[26].v.u, 1700000000); /* boot time */
	assert_string_equal(l[27].label, "forks");
	assert_int_equal(l[27].v.u, 12345);
	/* without /proc/vmstat its four lines are unknown, never 0 */
	s.has_vm = false;
	s.read &= ~PTK_SNAP_BIT(PTK_SNAP_VMSTAT);
	ptk_vmstats(&s, l);
	assert_true(l[20].v.na && l[23].v.na);
	assert_false(l[25].v.na);
	ptk_snap_free(&s);
}

/* vmstat -D: whole disks summed (loop0, loop1, vda, zram0), vda1 and vda2 counted apart */
static void test_disksum(void **state)
{
	struct ptk_snap s = { 0 };
	struct ptk_disksum d;

	read_tree(PTK_FIXTURES "/vmstat_modes", &s);
	ptk_disksum(&s.ds, &d);
	assert_int_equal(d.disks, 4);
	assert_int_equal(d.partitions, 2);
	assert_int_equal(d.f[PTK_DK_RD_IOS], 6210782 + 300298 + 1527037);
	assert_int_equal(d.f[PTK_DK_IN_FLIGHT], 2 + 1500);
	assert_int_equal(d.f[PTK_DK_IO_TICKS], 402148 + 12756 + 300380);
	assert_int_equal(d.f[PTK_DK_TIME_IN_QUEUE], 5778876 + 351762 + 1190624);
	ptk_snap_free(&s);
}

/* vmstat -m: /proc/slabinfo 2.1 parsed and sorted by name as strcmp orders it */
static void test_slabinfo(void **state)
{
	static const char text[] =
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> "
		"<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata "
		"<active_slabs> <num_slabs> <sharedavail>\n"
		"kmalloc-64          1200   1280     64   64    1 : tunables    0    0    0 : "
		"slabdata     20     20      0\n"
		"AF_VSOCK              36     36   1280   12    4 : tunables    0    0    0 : "
		"slabdata      3      3      0\n"
		"Acpi-State           102    102     80   51    1 : tunables    0    0    0 : "
		"slabdata      2      2      0\n";
	struct ptk_slabinfo si = { 0 };
	struct ptk_src src;

	assert_int_equal(ptk_slabinfo_parse(text, &si), 0);
	assert_int_equal(si.n, 3);
	ptk_slabinfo_sort(&si);
	assert_string_equal(si.s[0].name, "AF_VSOCK"); /* 'F' < 'c' */
	assert_string_equal(si.s[1].name, "Acpi-State");
	assert_string_equal(si.s[2].name, "kmalloc-64");
	assert_int_equal(si.s[0].active_objs, 36);
	assert_int_equal(si.s[0].objsize, 1280);
	assert_int_equal(si.s[0].objperslab, 12);
	assert_int_equal(si.s[0].pagesperslab, 4);
	assert_int_equal(ptk_slabinfo_parse("slabinfo - version: 1.1\n", &si), -EINVAL);
	assert_int_equal(ptk_slabinfo_parse("slabinfo - version: 2.1\nbad 1 2\n", &si), -EINVAL);
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/vmstat_modes", NULL), 0);
	assert_int_equal(ptk_slabinfo_read(&src, &si), 0);
	assert_true(si.n > 30);
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/vmstat_boot", NULL), 0);
	assert_int_equal(ptk_slabinfo_read(&src, &si), -ENOENT);
	ptk_slabinfo_free(&si);
}

/* dstat's composed columns, registry entries of the activities (tests/fixtures/vmstat_boot):
 * usr = user + nice + irq + softirq = 40000 of 400000 ticks; used = MemTotal 8000000 -
 * MemFree 5000000 - Buffers 100000 - Cached 1000000 - SReclaimable 200000 + Shmem 50000 */
static void test_dstat_columns(void **state)
{
	struct ptk_snap s = { 0 };
	struct ptk_rows rs = { 0 };
	int i;

	read_tree(PTK_FIXTURES "/vmstat_boot", &s);
	assert_float_equal(val(&s, PTK_ACT_CPU, PTK_M_CPU_USR_IRQ, 1), 10.0, 1e-9);
	ptk_activities[PTK_ACT_MEM].rows(NULL, &s, 1, NULL, &rs);
	i = ptk_act_col(&ptk_activities[PTK_ACT_MEM], PTK_M_MEM_USED_NOCACHE);
	assert_true(i >= 0 && !rs.r[0].v[i].na);
	assert_int_equal(rs.r[0].v[i].u, 1750000);
	ptk_rows_free(&rs);
	/* without Shmem (kernels before 2.6.32) it is unknown, not a wrong number */
	s.mi.present &= ~(1ull << PTK_MI_SHMEM);
	ptk_activities[PTK_ACT_MEM].rows(NULL, &s, 1, NULL, &rs);
	assert_true(rs.r[0].v[i].na);
	ptk_rows_free(&rs);
	ptk_snap_free(&s);
}

/* dstat --top-cpu, --top-io on tests/fixtures/pid_rates (2 s, USER_HZ 100, 8 CPUs): mt4 (pid
 * 500, 800 ticks: 400% of one CPU) is 50% of all; no task moved rchar or wchar: no top I/O;
 * the caller's own pid is never picked */
static void test_task_tops(void **state)
{
	struct ptk_ptab a = { 0 }, b = { 0 };
	struct ptk_task_top cpu, io;
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/pid_rates", NULL), 0);
	assert_int_equal(ptk_ptab_scan(&src, PTK_PT_IO, &a), 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_ptab_scan(&src, PTK_PT_IO, &b), 0);
	ptk_task_tops(&a, &b, 2.0, 100, 1000.0, 8, 0, &cpu, &io);
	assert_true(cpu.any);
	assert_int_equal(cpu.pid, 500);
	assert_string_equal(cpu.comm, "mt4");
	assert_float_equal(cpu.cpu_all_pct, 50.0, 1e-9);
	assert_false(io.any);
	ptk_task_tops(&a, &b, 2.0, 100, 1000.0, 8, 500, &cpu, &io);
	assert_int_equal(cpu.pid, 200); /* 180 ticks in 2 s: 90% of one CPU */
	assert_float_equal(cpu.cpu_all_pct, 90.0 / 8, 1e-9);
	ptk_ptab_free(&a);
	ptk_ptab_free(&b);
}

/* Bad input (tests/fixtures/free_implausible): MemAvailable 9999999 kB above MemTotal 3106552
 * kB and SwapFree 2000000 kB above SwapTotal 1046524 kB make the values computed from them
 * unknown (not sub0's 0) and leave the others */
static void test_meminfo_implausible(void **state)
{
	struct ptk_snap s = { 0 };
	struct ptk_rows mem = { 0 }, swap = { 0 };
	char why[128];
	u64 bad;

	struct ptk_src src;
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/free_implausible", NULL), 0);
	assert_int_equal(ptk_meminfo_read(&src, &s.mi), 0);
	s.has_mi = true;
	s.read = PTK_SNAP_BIT(PTK_SNAP_MEMINFO);
	bad = ptk_meminfo_implausible(&s.mi);
	assert_int_equal(bad, (1ull << PTK_MI_MEM_AVAILABLE) | (1ull << PTK_MI_SWAP_FREE));
	assert_string_equal(ptk_meminfo_implausible_why(&s.mi, PTK_MI_MEM_AVAILABLE, why, 128),
			    "MemAvailable 9999999 kB above MemTotal 3106552 kB");
	ptk_activities[PTK_ACT_MEM].rows(NULL, &s, 1, NULL, &mem);
	ptk_activities[PTK_ACT_SWAP].rows(NULL, &s, 1, NULL, &swap);
#define MEMV(m) mem.r[0].v[ptk_act_col(&ptk_activities[PTK_ACT_MEM], PTK_M_##m)]
#define SWPV(m) swap.r[0].v[ptk_act_col(&ptk_activities[PTK_ACT_SWAP], PTK_M_##m)]
	assert_true(MEMV(MEM_USED).na && MEMV(MEM_AVAIL).na);
	assert_int_equal(MEMV(MEM_FREE).u, 1204872);
	assert_int_equal(MEMV(MEM_BUFF_CACHE).u, 81220 + 1005088 + 61784);
	assert_true(SWPV(SWP_FREE).na && SWPV(SWP_USED).na && SWPV(SWP_USED_PCT).na);
	assert_int_equal(SWPV(SWP_TOTAL).u, 1046524);
#undef MEMV
#undef SWPV
	ptk_rows_free(&mem);
	ptk_rows_free(&swap);
	/* a plausible file: nothing */
	read_tree(PTK_FIXTURES "/vmstat_boot", &s);
	assert_int_equal(ptk_meminfo_implausible(&s.mi), 0);
	ptk_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat_since_boot),
		cmocka_unit_test(test_meminfo_lohi),
		cmocka_unit_test(test_vmstats),
		cmocka_unit_test(test_disksum),
		cmocka_unit_test(test_slabinfo),
		cmocka_unit_test(test_dstat_columns),
		cmocka_unit_test(test_task_tops),
		cmocka_unit_test(test_meminfo_implausible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
