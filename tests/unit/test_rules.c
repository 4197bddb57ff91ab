// SPDX-License-Identifier: GPL-2.0
/*
 * ptk check's rules table (model/rules.c) at each threshold edge: just below the warning
 * threshold ok, at it warning, at the critical threshold critical, guard not met ok, unknown
 * never fires; the evidence text with exact values (model/use.c ptk_use_apply); the man
 * page's THRESHOLDS section equals what the table generates.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/rules.h"
#include "model/use.h"

static const struct ptk_rule *rule(const char *name)
{
	for (int i = 0; i < ptk_nrules; i++)
		if (!strcmp(ptk_rules[i].name, name))
			return &ptk_rules[i];
	fail_msg("no rule %s", name);
	return NULL;
}

static struct ptk_rule_vals rv;
#define V(id) rv.v[PTK_M_CHECK_##id]

static enum ptk_rule_level eval(const char *name)
{
	return ptk_rule_eval(rule(name), &rv);
}

static int setup(void **state)
{
	ptk_rule_vals_init(&rv);
	return 0;
}

/* One rule's evidence at its level, through the row the analysis uses. */
static const char *evidence_of(const char *name, const char *s0, const char *s1)
{
	static char buf[512];
	const struct ptk_rule *r = rule(name);
	const char *str[2] = { s0, s1 };

	ptk_rule_evidence(r, ptk_rule_eval(r, &rv), &rv, str, buf, sizeof(buf));
	return buf;
}

static void test_cpu_busy(void **state)
{
	V(BUSY) = 69.99;
	assert_int_equal(eval("cpu.busy"), PTK_RULE_QUIET);
	V(BUSY) = 70;
	assert_int_equal(eval("cpu.busy"), PTK_RULE_WARN);
	assert_string_equal(evidence_of("cpu.busy", NULL, NULL), "CPUs 70% busy (warning at 70%)");
	V(BUSY) = 95; /* critical needs a queue: guard not met -> only the warning */
	V(RUNQ_PER_CPU) = 1.0;
	V(PSI_SOME) = 9.99;
	assert_int_equal(eval("cpu.busy"), PTK_RULE_WARN);
	V(RUNQ_PER_CPU) = 1.01;
	assert_int_equal(eval("cpu.busy"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("cpu.busy", NULL, NULL),
			    "CPUs 95% busy with 1.01 runnable tasks per CPU: saturated");
	V(RUNQ_PER_CPU) = NAN; /* unknown run queue, PSI at its threshold */
	V(PSI_SOME) = 10;
	V(BUSY) = 90;
	assert_int_equal(eval("cpu.busy"), PTK_RULE_CRIT);
	V(BUSY) = NAN;
	assert_int_equal(eval("cpu.busy"), PTK_RULE_QUIET);
}

static void test_cpu_runq_psi_steal(void **state)
{
	V(RUNQ_PER_CPU) = 1.0; /* warning is "> 1" */
	assert_int_equal(eval("cpu.runq"), PTK_RULE_QUIET);
	V(RUNQ_PER_CPU) = 1.01;
	assert_int_equal(eval("cpu.runq"), PTK_RULE_WARN);
	V(RUNQ_PER_CPU) = 1.99;
	assert_int_equal(eval("cpu.runq"), PTK_RULE_WARN);
	V(RUNQ_PER_CPU) = 2.0;
	assert_int_equal(eval("cpu.runq"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("cpu.runq", NULL, NULL),
			    "run queue 2.00 per CPU: tasks wait for a CPU (runqlat)");
	V(PSI_SOME) = 9.9;
	V(CG_THROTTLED_N) = 0;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_QUIET);
	V(PSI_SOME) = 10;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_WARN);
	V(PSI_SOME) = 40;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_CRIT);
	/* a cgroup throttled at its quota on CPUs under 70% busy: a note */
	V(CG_THROTTLED_N) = 1;
	V(BUSY) = 30;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_NOTE);
	V(BUSY) = 70;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_CRIT);
	V(CG_THROTTLED_N) = 0;
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_QUIET); /* runqlat unknown */
	V(STEAL) = 9.9;
	assert_int_equal(eval("cpu.steal"), PTK_RULE_QUIET);
	V(STEAL) = 10;
	assert_int_equal(eval("cpu.steal"), PTK_RULE_WARN);
	V(RUNQLAT_P99) = 16382;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_QUIET);
	V(RUNQLAT_P99) = 16383;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_WARN);
	V(RUNQLAT_P99) = 65535;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_CRIT);
	/* a cgroup throttled at its quota on CPUs under 70% busy: its tasks' wait for the
	 * next period (22-cgroup: p99 <= 131071 us, 20% busy) is a note */
	V(CG_THROTTLED_N) = 1;
	V(BUSY) = 20.4;
	V(RUNQLAT_P99) = 131071;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_NOTE);
	assert_string_equal(
		evidence_of("cpu.runqlat", NULL, NULL),
		"runqlat p99 <= 131071 us with the CPUs 20% busy: the tasks of 1 cgroup(s) "
		"throttled at their CPU quota wait for their next period, not for a CPU "
		"(see the cgroup rows)");
	V(RUNQLAT_P99) = 16382;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_QUIET);
	V(RUNQLAT_P99) = 65535;
	V(BUSY) = 70;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_CRIT);
	V(CG_THROTTLED_N) = 0;
	V(BUSY) = 20.4;
	assert_int_equal(eval("cpu.runqlat"), PTK_RULE_CRIT);
}

/* PSI cpu some with idle CPUs and a run queue that costs no time (22-cgroup's I/O scenario:
 * PSI cpu some 10-20% from fio's wake-ups at 19% busy, runqlat p99 <= 255 us): a note, not
 * saturation; each edge of the guard (p99 < 1024 us and busy < 70%) on its own. */
static void test_cpu_psi_short_waits(void **state)
{
	V(CG_THROTTLED_N) = 0;
	V(PSI_SOME) = 15;
	V(BUSY) = 19;
	V(RUNQLAT_P99) = NAN; /* without BPF: PSI alone judges, as before */
	assert_int_equal(eval("cpu.psi"), PTK_RULE_WARN);
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_QUIET);
	V(RUNQLAT_P99) = 1023; /* the 512-1023 us bucket: short waits */
	assert_int_equal(eval("cpu.psi"), PTK_RULE_QUIET);
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_NOTE);
	assert_string_equal(evidence_of("cpu.psi-short", NULL, NULL),
			    "PSI cpu some 15.0% with the CPUs 19% busy and runqlat p99 <= 1023 us: "
			    "many short waits of waking tasks, not a CPU shortage");
	V(PSI_SOME) = 40; /* even at the critical level */
	assert_int_equal(eval("cpu.psi"), PTK_RULE_QUIET);
	V(RUNQLAT_P99) = 2047; /* waits of 1-2 ms: the queue costs time */
	assert_int_equal(eval("cpu.psi"), PTK_RULE_CRIT);
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_QUIET);
	V(PSI_SOME) = 10;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_WARN);
	V(RUNQLAT_P99) = 1023;
	V(BUSY) = 69.9;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_QUIET);
	V(BUSY) = 70; /* busy CPUs: PSI is saturation whatever the latency */
	assert_int_equal(eval("cpu.psi"), PTK_RULE_WARN);
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_QUIET);
	V(BUSY) = NAN; /* busy unknown: the guard does not hold */
	assert_int_equal(eval("cpu.psi"), PTK_RULE_WARN);
	V(BUSY) = 19;
	V(PSI_SOME) = 9.9;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_QUIET);
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_QUIET);
	/* a throttled cgroup: cpu.psi's own note names it, cpu.psi-short stays quiet */
	V(PSI_SOME) = 15;
	V(CG_THROTTLED_N) = 1;
	assert_int_equal(eval("cpu.psi"), PTK_RULE_NOTE);
	assert_int_equal(eval("cpu.psi-short"), PTK_RULE_QUIET);
}

static void test_cpu_single_and_notes(void **state)
{
	V(MAXCPU) = 90;
	V(MAXCPU_ID) = 1;
	V(OTHERS_BUSY) = 50; /* guard "others < 50" not met */
	assert_int_equal(eval("cpu.single"), PTK_RULE_QUIET);
	V(OTHERS_BUSY) = 49.6;
	assert_int_equal(eval("cpu.single"), PTK_RULE_WARN);
	assert_string_equal(evidence_of("cpu.single", NULL, NULL),
			    "cpu1 90% busy while the other CPUs average 50%: a single-thread "
			    "bottleneck");
	V(MAXCPU) = 89.9;
	assert_int_equal(eval("cpu.single"), PTK_RULE_QUIET);
	V(OTHERS_BUSY) = NAN; /* one CPU */
	V(MAXCPU) = 100;
	assert_int_equal(eval("cpu.single"), PTK_RULE_QUIET);
	/* load above the CPUs with idle CPUs: a note */
	V(NCPU) = 2;
	V(LOAD1) = 2.0;
	V(BUSY) = 10;
	assert_int_equal(eval("cpu.load"), PTK_RULE_QUIET);
	V(LOAD1) = 2.01;
	assert_int_equal(eval("cpu.load"), PTK_RULE_NOTE);
	V(BUSY) = 50;
	assert_int_equal(eval("cpu.load"), PTK_RULE_QUIET);
	/* forks only without BPF (short-lived unknown) */
	V(FORKS) = 10;
	assert_int_equal(eval("cpu.forks"), PTK_RULE_NOTE);
	V(SHORTLIVED) = 0;
	assert_int_equal(eval("cpu.forks"), PTK_RULE_QUIET);
	assert_int_equal(eval("cpu.shortlived"), PTK_RULE_QUIET);
	V(SHORTLIVED) = 10;
	assert_int_equal(eval("cpu.shortlived"), PTK_RULE_NOTE);
	V(IOWAIT) = 4.9;
	assert_int_equal(eval("cpu.iowait"), PTK_RULE_QUIET);
	V(IOWAIT) = 5;
	assert_int_equal(eval("cpu.iowait"), PTK_RULE_NOTE);
}

static void test_memory(void **state)
{
	V(MEM_AVAIL_PCT) = 10;
	assert_int_equal(eval("memory.available"), PTK_RULE_QUIET);
	V(MEM_AVAIL_PCT) = 9.99;
	assert_int_equal(eval("memory.available"), PTK_RULE_WARN);
	V(MEM_AVAIL_PCT) = 5;
	assert_int_equal(eval("memory.available"), PTK_RULE_WARN);
	V(MEM_AVAIL_PCT) = 4.9;
	assert_int_equal(eval("memory.available"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("memory.available", " (estimated)", NULL),
			    "only 4.9% of memory available (estimated)");
	V(SWAP_BPS) = 0;
	assert_int_equal(eval("memory.swapping"), PTK_RULE_QUIET);
	V(SWAP_BPS) = 4096;
	V(SWAPIN) = 1;
	V(SWAPOUT) = 0;
	assert_int_equal(eval("memory.swapping"), PTK_RULE_WARN);
	V(SWAP_BPS) = 1048576;
	assert_int_equal(eval("memory.swapping"), PTK_RULE_WARN);
	V(SWAP_BPS) = 1048577;
	assert_int_equal(eval("memory.swapping"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("memory.swapping", NULL, NULL),
			    "swapping: 1.0 pages/s in, 0.0 pages/s out (anything above 0 is "
			    "saturation)");
	/* OOM: critical on the host, a warning when every kill was a memory cgroup's */
	V(OOM) = 0;
	V(OOM_HOST) = 0;
	assert_int_equal(eval("memory.oom"), PTK_RULE_QUIET);
	V(OOM) = 2;
	V(MEM_AVAIL_PCT) = 60;
	V(OOM_CG_UNSEEN) = 2;
	assert_int_equal(eval("memory.oom"), PTK_RULE_WARN);
	assert_string_equal(evidence_of("memory.oom", NULL, NULL),
			    "2 OOM kill(s) during the window, all inside a memory cgroup that hit "
			    "its limit (memory.max): the host itself has 60.0% available");
	V(OOM_HOST) = 2;
	assert_int_equal(eval("memory.oom"), PTK_RULE_CRIT);
	/* PSI: warning at full >= 5 or some >= 10 */
	V(PSI_FULL) = 4.9;
	V(PSI_SOME) = 9.9;
	V(CG_MEMLIMIT_N) = 0;
	V(MEM_PSI_HOST) = 9.9; /* no cgroup at its limit: the host's own */
	assert_int_equal(eval("memory.psi"), PTK_RULE_QUIET);
	V(PSI_SOME) = V(MEM_PSI_HOST) = 10;
	assert_int_equal(eval("memory.psi"), PTK_RULE_WARN);
	V(PSI_SOME) = V(MEM_PSI_HOST) = 0;
	V(PSI_FULL) = 5;
	assert_int_equal(eval("memory.psi"), PTK_RULE_WARN);
	V(PSI_FULL) = 20;
	assert_int_equal(eval("memory.psi"), PTK_RULE_CRIT);
	/* a cgroup at its own limit with the host at 60% available: a note */
	V(CG_MEMLIMIT_N) = 1;
	V(MEM_PSI_HOST) = NAN;
	V(PSI_SOME) = 30;
	assert_int_equal(eval("memory.psi"), PTK_RULE_NOTE);
}

static void test_disk(void **state)
{
	/* rotational %util: critical needs aqu-sz > 1 */
	V(DISK_ROT) = 1;
	V(DISK_UTIL) = 59.9;
	V(DISK_AQU) = 1.0;
	assert_int_equal(eval("disk.util"), PTK_RULE_QUIET);
	V(DISK_UTIL) = 60;
	assert_int_equal(eval("disk.util"), PTK_RULE_WARN);
	V(DISK_UTIL) = 95;
	assert_int_equal(eval("disk.util"), PTK_RULE_WARN);
	V(DISK_AQU) = 1.01;
	assert_int_equal(eval("disk.util"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("disk.util", NULL, NULL),
			    "%util 95 with aqu-sz 1.01 on a rotational disk: saturated");
	assert_int_equal(eval("disk.util-parallel"), PTK_RULE_QUIET);
	/* not rotational (or virtio): %util is only a note */
	V(DISK_ROT) = -1;
	V(DISK_AWAIT) = 3;
	assert_int_equal(eval("disk.util"), PTK_RULE_QUIET);
	assert_int_equal(eval("disk.util-parallel"), PTK_RULE_NOTE);
	assert_string_equal(
		evidence_of("disk.util-parallel", "vda", "virtual: rotational flag unreliable"),
		"%util 95 on a device that serves requests in parallel (virtual: "
		"rotational flag unreliable) is not saturation: judge by aqu-sz 1.01 "
		"and await 3.00 ms");
	/* await with a queue */
	V(DISK_AWAIT) = 19.9;
	assert_int_equal(eval("disk.await"), PTK_RULE_QUIET);
	V(DISK_AWAIT) = 20;
	assert_int_equal(eval("disk.await"), PTK_RULE_WARN);
	V(DISK_AWAIT) = 100;
	assert_int_equal(eval("disk.await"), PTK_RULE_CRIT);
	V(DISK_AQU) = 1.0; /* guard aqu-sz > 1 not met */
	assert_int_equal(eval("disk.await"), PTK_RULE_QUIET);
	/* kernel log I/O errors */
	V(DISK_IOERR) = 0;
	V(DISK_IOERR_BOOT) = 0;
	assert_int_equal(eval("disk.ioerr"), PTK_RULE_QUIET);
	V(DISK_IOERR_BOOT) = 3;
	assert_int_equal(eval("disk.ioerr"), PTK_RULE_WARN);
	assert_string_equal(evidence_of("disk.ioerr", "sdb", NULL),
			    "3 I/O error(s) for sdb in the kernel log since boot");
	V(DISK_IOERR) = 1;
	assert_int_equal(eval("disk.ioerr"), PTK_RULE_CRIT);
	assert_true(ptk_use_names_disk("blk_update_request: I/O error, dev sda1", "sda"));
	assert_false(ptk_use_names_disk("I/O error, dev sdab", "sda"));
	assert_true(ptk_use_names_disk("I/O error, dev nvme0n1p2", "nvme0n1"));
	assert_false(ptk_use_names_disk("I/O error, dev loop10", "loop1"));
	assert_false(ptk_use_names_disk("I/O error, dev xvda", "vda"));
}

static void test_network(void **state)
{
	V(NET_UTIL) = 69.9;
	assert_int_equal(eval("net.util"), PTK_RULE_QUIET);
	V(NET_UTIL) = 70;
	assert_int_equal(eval("net.util"), PTK_RULE_WARN);
	V(NET_UTIL) = 90;
	assert_int_equal(eval("net.util"), PTK_RULE_CRIT);
	V(NET_UTIL) = NAN; /* speed unknown: no verdict */
	assert_int_equal(eval("net.util"), PTK_RULE_QUIET);
	V(NET_DROPS) = 0;
	assert_int_equal(eval("net.drops"), PTK_RULE_QUIET);
	V(NET_DROPS) = 0.1;
	assert_int_equal(eval("net.drops"), PTK_RULE_WARN);
	/* retransmits over at least 100 segments */
	V(TCP_OUT_SEGS) = 99;
	V(TCP_RETRANS_SEGS) = 50;
	V(TCP_RETRANS_PCT) = 50.5;
	assert_int_equal(eval("tcp.retrans"), PTK_RULE_QUIET);
	V(TCP_OUT_SEGS) = 100;
	V(TCP_RETRANS_SEGS) = 0;
	V(TCP_RETRANS_PCT) = 0.99;
	assert_int_equal(eval("tcp.retrans"), PTK_RULE_QUIET);
	V(TCP_RETRANS_SEGS) = 1;
	V(TCP_RETRANS_PCT) = 1;
	assert_int_equal(eval("tcp.retrans"), PTK_RULE_WARN);
	V(TCP_RETRANS_SEGS) = 5;
	V(TCP_RETRANS_PCT) = 5;
	assert_int_equal(eval("tcp.retrans"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("tcp.retrans", NULL, NULL),
			    "5.00% of TCP segments retransmitted (5 of 100)");
	V(TCP_OUT_SEGS) = NAN; /* OutSegs missing on this kernel: unknown, not 0 */
	assert_int_equal(eval("tcp.retrans"), PTK_RULE_QUIET);
	V(TCP_LISTEN_DROPS) = NAN;
	assert_int_equal(eval("tcp.listen"), PTK_RULE_QUIET);
	V(TCP_LISTEN_DROPS) = 0;
	assert_int_equal(eval("tcp.listen"), PTK_RULE_QUIET);
	V(TCP_LISTEN_DROPS) = 1;
	assert_int_equal(eval("tcp.listen"), PTK_RULE_WARN);
}

static void test_kernel(void **state)
{
	V(NCPU) = 8;
	V(DSTATE) = 0.99;
	V(DSTATE_MAX) = 3;
	assert_int_equal(eval("kernel.dstate"), PTK_RULE_QUIET);
	V(DSTATE) = 1;
	assert_int_equal(eval("kernel.dstate"), PTK_RULE_WARN);
	V(DSTATE) = 7.9; /* critical at max(4, CPUs) = 8 */
	assert_int_equal(eval("kernel.dstate"), PTK_RULE_WARN);
	V(DSTATE) = 8;
	assert_int_equal(eval("kernel.dstate"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("kernel.dstate", NULL, NULL),
			    "8.0 tasks in D state on average (max 3): uninterruptible waits, "
			    "usually I/O; they inflate load");
	V(NCPU) = 2; /* max(4, 2) = 4 */
	V(DSTATE) = 3.9;
	assert_int_equal(eval("kernel.dstate"), PTK_RULE_WARN);
	V(DSTATE) = 4;
	assert_int_equal(eval("kernel.dstate"), PTK_RULE_CRIT);
	/* the kernel log: critical in the window, warning within the hour, else a note */
	V(KLOG_WINDOW) = 0;
	V(KLOG_BOOT) = 0;
	assert_int_equal(eval("kernel.log"), PTK_RULE_QUIET);
	V(KLOG_BOOT) = 2;
	V(KLOG_AGE) = 3599;
	assert_int_equal(eval("kernel.log"), PTK_RULE_WARN);
	assert_string_equal(evidence_of("kernel.log", "oom_kill", "Out of memory"),
			    "2 oom_kill message(s) since boot, the last 3599 s ago: Out of memory");
	V(KLOG_AGE) = 3600;
	assert_int_equal(eval("kernel.log"), PTK_RULE_NOTE);
	V(KLOG_WINDOW) = 1;
	assert_int_equal(eval("kernel.log"), PTK_RULE_CRIT);
	assert_string_equal(evidence_of("kernel.log", "oom_kill", NULL),
			    "1 oom_kill message(s) in the kernel log during the window");
}

/* A row takes the worst verdict of its rules, and gets every rule's evidence. */
static void test_apply_row(void **state)
{
	struct ptk_use_row row = { .resource = "cpu" };

	V(BUSY) = 75;
	V(STEAL) = 12.5;
	V(IOWAIT) = 6;
	ptk_use_apply(&row, PTK_RG_CPU, &rv, NULL);
	assert_int_equal(row.verdict, PTK_VERDICT_WARN);
	assert_int_equal(row.nev, 3);
	assert_string_equal(row.evidence[0], "CPUs 75% busy (warning at 70%)");
	assert_string_equal(row.evidence[1],
			    "steal 12.5%: the hypervisor ran other guests (noisy neighbour)");
	assert_string_equal(row.evidence[2], "iowait 6.0% is idle time: the CPUs are free, tasks "
					     "wait on I/O (see disk)");
	for (int i = 0; i < row.nev; i++)
		free(row.evidence[i]);
}

/* Every rule names a registry metric with a help text, and documents a reason. */
static void test_table(void **state)
{
	for (int i = 0; i < ptk_nrules; i++) {
		const struct ptk_rule *r = &ptk_rules[i];
		assert_true(r->metric > PTK_M_NONE && r->metric < PTK_M_COUNT);
		assert_non_null(ptk_registry[r->metric].help);
		assert_non_null(r->reason);
		assert_true(r->crit.evidence || r->warn.evidence || r->note.evidence);
	}
	for (int i = 1; i < PTK_M_COUNT; i++)
		assert_non_null(ptk_registry[i].key);
}

/* docs/man/ptk-check.1 between "rules: begin" and "rules: end" is what the table prints
 * (scripts/gen-man-check.sh regenerates it). */
static void test_man_page(void **state)
{
	FILE *f = fopen(PTK_FIXTURES "/../../docs/man/ptk-check.1", "r");
	char *gen = NULL, *page = NULL, line[1024];
	size_t ngen = 0, npage = 0;
	FILE *g = open_memstream(&gen, &ngen), *p = open_memstream(&page, &npage);
	bool in = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".\\\" rules: end", 14))
			in = false;
		if (in)
			fputs(line, p);
		if (!strncmp(line, ".\\\" rules: begin", 16))
			in = true;
	}
	fclose(f);
	ptk_rules_print(g, true);
	fclose(g);
	fclose(p);
	assert_true(npage > 0);
	assert_string_equal(page, gen);
	free(gen);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_cpu_busy, setup),
		cmocka_unit_test_setup(test_cpu_runq_psi_steal, setup),
		cmocka_unit_test_setup(test_cpu_psi_short_waits, setup),
		cmocka_unit_test_setup(test_cpu_single_and_notes, setup),
		cmocka_unit_test_setup(test_memory, setup),
		cmocka_unit_test_setup(test_disk, setup),
		cmocka_unit_test_setup(test_network, setup),
		cmocka_unit_test_setup(test_kernel, setup),
		cmocka_unit_test_setup(test_apply_row, setup),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_man_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
