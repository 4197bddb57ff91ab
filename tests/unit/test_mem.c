// SPDX-License-Identifier: GPL-2.0
/* /proc/meminfo and /proc/vmstat readers on fixture trees (tests/fixtures/unit_mem). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "source/procfs/procfs.h"

static void open_snap(struct ptk_src *src, int snap)
{
	assert_int_equal(ptk_src_init(src, PTK_FIXTURES "/unit_mem", NULL), 0);
	for (int i = 0; i < snap; i++)
		assert_int_equal(ptk_src_next(src), 0);
}

/* Kernel 6.1 meminfo: every field read in kB as printed. */
static void test_meminfo_current(void **state)
{
	struct ptk_src src;
	struct ptk_meminfo mi;

	open_snap(&src, 0);
	assert_int_equal(ptk_meminfo_read(&src, &mi), 0);
	assert_true(mi.has_available);
	assert_int_equal(mi.mem_total, 4012848);
	assert_int_equal(mi.mem_free, 512340);
	assert_int_equal(mi.mem_available, 2876544);
	assert_int_equal(mi.buffers, 81234);
	assert_int_equal(mi.cached, 2214560);
	assert_int_equal(mi.swap_cached, 1024);
	assert_int_equal(mi.active, 1603452);
	assert_int_equal(mi.inactive, 1456780);
	assert_int_equal(mi.active_anon, 612300);
	assert_int_equal(mi.inactive_anon, 210004);
	assert_int_equal(mi.active_file, 991152);
	assert_int_equal(mi.inactive_file, 1246776);
	assert_int_equal(mi.swap_total, 1048572);
	assert_int_equal(mi.swap_free, 998400);
	assert_int_equal(mi.dirty, 412);
	assert_int_equal(mi.writeback, 16);
	assert_int_equal(mi.anon_pages, 800120);
	assert_int_equal(mi.mapped, 301200);
	assert_int_equal(mi.shmem, 22184);
	assert_int_equal(mi.kreclaimable, 140512);
	assert_int_equal(mi.slab, 230400);
	assert_int_equal(mi.sreclaimable, 140512);
	assert_int_equal(mi.sunreclaim, 89888);
	assert_int_equal(mi.commit_limit, 3054996);
	assert_int_equal(mi.committed_as, 2456780);
	assert_int_equal(mi.hugepages_total, 4);
	assert_int_equal(mi.hugepages_free, 3);
	assert_int_equal(mi.hugepagesize, 2048);
}

/* Kernel < 3.14 with 8 TiB: MemTotal exact in 64 bits, MemAvailable estimated (not 0):
 * MemFree + Active(file) + Inactive(file) + SReclaimable. */
static void test_meminfo_no_available_8tib(void **state)
{
	struct ptk_src src;
	struct ptk_meminfo mi;

	open_snap(&src, 1);
	assert_int_equal(ptk_meminfo_read(&src, &mi), 0);
	assert_false(mi.has_available);
	assert_int_equal(mi.mem_total, 8589934592ull);
	assert_int_equal(mi.mem_free, 1073741824ull);
	assert_int_equal(mi.cached, 2147483648ull);
	/* 1073741824 + 1073741824 + 1610612736 + 104857600 */
	assert_int_equal(mi.mem_available, 3862953984ull);
	/* fields absent from this kernel read 0 and are flagged absent (unknown) */
	assert_int_equal(mi.kreclaimable, 0);
	assert_int_equal(mi.shmem, 0);
	assert_false(ptk_meminfo_has(&mi, PTK_MI_KRECLAIMABLE));
	assert_false(ptk_meminfo_has(&mi, PTK_MI_SHMEM));
	assert_false(
		ptk_meminfo_has(&mi, PTK_MI_MEM_AVAILABLE)); /* the estimate is not the kernel's */
	assert_true(ptk_meminfo_has(&mi, PTK_MI_MEM_TOTAL));
	assert_true(ptk_meminfo_has(&mi, PTK_MI_CACHED));
}

/* A file with only some fields: what is there is present, the rest absent, and the text
 * written back (snapshot trees, the archive's --at replay) parses to the same presence. */
static void test_meminfo_presence_roundtrip(void **state)
{
	struct ptk_meminfo mi, back;
	struct ptk_strbuf b = { 0 };

	assert_int_equal(ptk_meminfo_parse("MemTotal: 1000 kB\nMemFree: 400 kB\n"
					   "Committed_AS: 0 kB\nHugePages_Total: 2\n",
					   &mi),
			 0);
	assert_true(ptk_meminfo_has(&mi, PTK_MI_COMMITTED_AS)); /* 0, but there */
	assert_false(ptk_meminfo_has(&mi, PTK_MI_COMMIT_LIMIT));
	assert_false(ptk_meminfo_has(&mi, PTK_MI_DIRTY));
	assert_int_equal(ptk_meminfo_get(&mi, PTK_MI_HUGEPAGES_TOTAL), 2);
	ptk_meminfo_text(&mi, &b);
	assert_string_equal(b.p, "MemTotal: 1000 kB\nMemFree: 400 kB\nCommitted_AS: 0 kB\n"
				 "HugePages_Total: 2\n");
	assert_int_equal(ptk_meminfo_parse(b.p, &back), 0);
	assert_true(back.present == mi.present);
	assert_int_equal(back.mem_available, mi.mem_available); /* the same estimate */
	free(b.p);
	/* no MemTotal: not a meminfo */
	assert_int_equal(ptk_meminfo_parse("MemFree: 400 kB\n", &mi), -EINVAL);
	/* every field of the table is found by its kernel key */
	for (int i = 0; i < PTK_MI_NFIELDS; i++) {
		char line[96];
		snprintf(line, sizeof(line), "MemTotal: 5 kB\n%s: %d kB\n",
			 ptk_meminfo_fields[i].key, 7 + i);
		assert_int_equal(ptk_meminfo_parse(line, &mi), 0);
		assert_true(ptk_meminfo_has(&mi, i));
		if (i != PTK_MI_MEM_TOTAL)
			assert_int_equal(ptk_meminfo_get(&mi, i), 7 + i);
	}
}

static void test_meminfo_estimate_variants(void **state)
{
	struct ptk_meminfo mi;

	/* before 2.6.28 (no Active(file)): MemFree + Buffers + Cached + SReclaimable */
	assert_int_equal(ptk_meminfo_parse("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 20 kB\n"
					   "Cached: 300 kB\nSReclaimable: 4 kB\n",
					   &mi),
			 0);
	assert_int_equal(mi.mem_available, 424);
	/* the estimate never exceeds MemTotal */
	assert_int_equal(ptk_meminfo_parse("MemTotal: 1000 kB\nMemFree: 600 kB\nActive(file): 300 "
					   "kB\nInactive(file): 300 kB\n",
					   &mi),
			 0);
	assert_int_equal(mi.mem_available, 1000);
	/* "Active" must not be confused with "Active(file)" or "Active(anon)" */
	assert_int_equal(ptk_meminfo_parse("MemTotal: 10 kB\nActive(anon): 1 kB\nActive: 7 kB\n"
					   "Active(file): 2 kB\nMemAvailable: 0 kB\n",
					   &mi),
			 0);
	assert_int_equal(mi.active, 7);
	assert_int_equal(mi.active_anon, 1);
	assert_int_equal(mi.active_file, 2);
	assert_true(mi.has_available);
	assert_int_equal(mi.mem_available, 0); /* a real 0 stays 0 */
	/* no MemTotal: not a meminfo file */
	assert_int_equal(ptk_meminfo_parse("MemFree: 100 kB\n", &mi), -EINVAL);
	assert_int_equal(ptk_meminfo_parse("", &mi), -EINVAL);
}

/* Kernel 6.1 vmstat: allocstall_* summed (1+2+30+400+0), oom_kill present;
 * pgscan_direct_throttle / pgsteal_khugepaged are not mixed in. */
static void test_vmstat_current(void **state)
{
	struct ptk_src src;
	struct ptk_vmstat vm;

	open_snap(&src, 0);
	assert_int_equal(ptk_vmstat_read(&src, &vm), 0);
	assert_int_equal(vm.pgpgin, 7654321);
	assert_int_equal(vm.pgpgout, 12345678);
	assert_int_equal(vm.pswpin, 12);
	assert_int_equal(vm.pswpout, 345);
	assert_int_equal(vm.pgfault, 987654321);
	assert_int_equal(vm.pgmajfault, 4321);
	assert_int_equal(vm.pgscan_kswapd, 8888);
	assert_int_equal(vm.pgscan_direct, 99);
	assert_int_equal(vm.pgsteal_kswapd, 5555);
	assert_int_equal(vm.pgsteal_direct, 66);
	assert_int_equal(vm.allocstall, 433);
	assert_true(vm.has_oom_kill);
	assert_int_equal(vm.oom_kill, 3);
}

/* Kernel 4.4: a single "allocstall" counter, no oom_kill (added in 4.13), and reclaim counted
 * per zone only (node-wide pgscan_kswapd etc. came in 4.8): the zones are summed, without
 * pgscan_direct_throttle. */
static void test_vmstat_old(void **state)
{
	struct ptk_src src;
	struct ptk_vmstat vm;

	open_snap(&src, 1);
	assert_int_equal(ptk_vmstat_read(&src, &vm), 0);
	assert_int_equal(vm.allocstall, 17);
	assert_false(vm.has_oom_kill);
	assert_false(ptk_vmstat_has(&vm, PTK_VM_OOM_KILL));
	assert_true(ptk_vmstat_has(&vm, PTK_VM_PGSCAN_KSWAPD)); /* from its zones */
	assert_true(ptk_vmstat_has(&vm, PTK_VM_ALLOCSTALL));
	assert_int_equal(vm.oom_kill, 0);
	assert_int_equal(vm.pgfault, 500);
	assert_int_equal(vm.pgmajfault, 5);
	assert_int_equal(vm.pgsteal_kswapd, 321); /* 1 + 20 + 300 + 0 */
	assert_int_equal(vm.pgsteal_direct, 54); /* 0 + 4 + 50 + 0 */
	assert_int_equal(vm.pgscan_kswapd, 642); /* 2 + 40 + 600 + 0 */
	assert_int_equal(vm.pgscan_direct, 108); /* 0 + 8 + 100 + 0, throttle excluded */
	assert_int_equal(ptk_vmstat_parse("nothing here\n", &vm), -EINVAL);
	/* when the node-wide counter is there it wins over zone lines */
	assert_int_equal(ptk_vmstat_parse("pgscan_kswapd_normal 5\npgscan_kswapd 70\n"
					  "pgscan_kswapd_dma 6\n",
					  &vm),
			 0);
	assert_int_equal(vm.pgscan_kswapd, 70);
	assert_false(ptk_vmstat_has(&vm, PTK_VM_PGFAULT));
	/* written back: the same counters, the same presence */
	struct ptk_vmstat back;
	struct ptk_strbuf b = { 0 };
	assert_int_equal(
		ptk_vmstat_parse("pgfault 9\nallocstall_dma 2\nallocstall_normal 3\n", &vm), 0);
	ptk_vmstat_text(&vm, &b);
	assert_string_equal(b.p, "pgfault 9\nallocstall_normal 5\n");
	assert_int_equal(ptk_vmstat_parse(b.p, &back), 0);
	assert_true(back.present == vm.present);
	assert_int_equal(back.allocstall, 5);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo_current),
		cmocka_unit_test(test_meminfo_no_available_8tib),
		cmocka_unit_test(test_meminfo_estimate_variants),
		cmocka_unit_test(test_meminfo_presence_roundtrip),
		cmocka_unit_test(test_vmstat_current),
		cmocka_unit_test(test_vmstat_old),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
