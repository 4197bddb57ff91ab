// SPDX-License-Identifier: GPL-2.0
/*
 * ptk check's measurements and rules end to end (model/use.c on model/rules.c), on snapshot
 * trees written here: two snapshots 1 s apart that put one measurement just below a
 * threshold, at it, and past the critical one with its guard met and not met. Everything
 * else in the trees is quiet (no process, no kernel message, no swap, no drops), so each
 * row's verdict comes from the rule under test.
 *
 * The counters: 2 CPUs with 1000 ticks in the interval; sda with 1000 ms of wall time;
 * TCP with the segments given. Each case gives the deltas of snapshot 1 over snapshot 0.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/use.h"

/* One snapshot's deltas over the base counters. */
struct tree {
	long busy; /* user ticks of the 1000 in the interval (the rest idle) */
	int running; /* procs_running at both snapshots (the run queue is one less: the reader) */
	long avail_kb; /* MemAvailable of MemTotal 1,000,000 kB */
	int rotational;
	long io_ticks_ms; /* sda: ms busy in the 1000 ms interval */
	long weighted_ms; /* sda: time in queue, ms (aqu-sz = this / 1000) */
	long out_segs, retrans;
};

static char root[64];

static void put(const char *rel, const char *fmt, ...)
{
	char path[256], dir[256];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* make the parents */
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(s - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* Snapshot n (0 or 1) of tree t: snapshot 0 holds the base counters, 1 adds the deltas. */
static void write_snap(int n, const struct tree *t)
{
	long k = n; /* 0: base, 1: base + deltas */
	long user = 100000 + k * t->busy, idle = 400000 + k * (1000 - t->busy);
	long half_u = 50000 + k * t->busy / 2, half_i = 200000 + k * (1000 - t->busy) / 2;
	char p[64];

#define P(rel, ...)                                      \
	do {                                             \
		snprintf(p, sizeof(p), "%d/%s", n, rel); \
		put(p, __VA_ARGS__);                     \
	} while (0)
	P("stat",
	  "cpu  %ld 0 0 %ld 0 0 0 0 0 0\ncpu0 %ld 0 0 %ld 0 0 0 0 0 0\n"
	  "cpu1 %ld 0 0 %ld 0 0 0 0 0 0\nintr 1000 0\nctxt 5000\nbtime 1700000000\n"
	  "processes 100\nprocs_running %d\nprocs_blocked 0\n",
	  user, idle, half_u, half_i, user - half_u, idle - half_i, t->running);
	P("uptime", "%ld.00 %ld.00\n", 5000 + k, 9000 + k);
	P("loadavg", "0.10 0.10 0.10 1/100 100\n");
	P("meminfo",
	  "MemTotal:        1000000 kB\nMemFree:          %ld kB\nMemAvailable:     %ld kB\n"
	  "Buffers:           1000 kB\nCached:           10000 kB\nSwapTotal:             0 kB\n"
	  "SwapFree:              0 kB\n",
	  t->avail_kb, t->avail_kb);
	P("vmstat", "pgpgin 0\npgpgout 0\npswpin 0\npswpout 0\npgscan_direct 0\noom_kill 0\n");
	P("diskstats", "   8       0 sda %ld 0 %ld 0 0 0 0 0 0 %ld %ld 0 0 0 0 0 0\n",
	  100 + k * 100, 800 + k * 800, 10000 + k * t->io_ticks_ms, 20000 + k * t->weighted_ms);
	P("net/dev",
	  "Inter-|   Receive                                                |  Transmit\n"
	  " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	  "errs drop fifo colls carrier compressed\n"
	  "    lo: 100 1 0 0 0 0 0 0 100 1 0 0 0 0 0 0\n");
	P("net/snmp",
	  "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails "
	  "EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
	  "Tcp: 1 200 120000 -1 10 10 0 0 1 5000 %ld %ld 0 0 0\n",
	  5000 + k * t->out_segs, 100 + k * t->retrans);
	P("net/netstat", "TcpExt: ListenOverflows ListenDrops\nTcpExt: 0 0\n");
	P("sys/block/sda/queue/rotational", "%d\n", t->rotational);
	P("sys/devices/system/cpu/online", "0-1\n");
#undef P
}

/* The verdict of row resource (device: NULL for none) over tree t, and its evidence. */
static enum ptk_verdict verdict(const struct tree *t, const char *resource, const char *device)
{
	struct ptk_src src;
	volatile int stop = 0;
	struct ptk_use u = { .src = &src, .stop = &stop, .want_s = 1, .quiet = true };
	struct ptk_use_rows *rs;
	enum ptk_verdict v = PTK_VERDICT_N;
	char cmd[96];

	strcpy(root, "/tmp/ptk-test-use-XXXXXX");
	assert_non_null(mkdtemp(root));
	write_snap(0, t);
	write_snap(1, t);
	assert_int_equal(ptk_src_init(&src, root, NULL), 0);
	assert_true(src.replay);
	assert_int_equal(ptk_use_window(&u), 0);
	rs = ptk_use_analyse(&u);
	for (int i = 0; i < rs->n; i++) {
		const struct ptk_use_row *r = &rs->r[i];
		if (strcmp(r->resource, resource) || (device && strcmp(r->device, device)))
			continue;
		v = r->verdict;
		for (int e = 0; e < r->nev; e++)
			print_message("    %s: %s\n", resource, r->evidence[e]);
	}
	ptk_use_rows_free(rs);
	ptk_use_free(&u);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	if (v == PTK_VERDICT_N)
		fail_msg("no row %s %s", resource, device ? device : "");
	return v;
}

/* A quiet machine: every rule below its threshold. */
static const struct tree quiet = { .busy = 100,
				   .running = 2,
				   .avail_kb = 900000,
				   .rotational = 1,
				   .io_ticks_ms = 100,
				   .weighted_ms = 100,
				   .out_segs = 1000,
				   .retrans = 0 };

#define OK PTK_VERDICT_OK
#define WARN PTK_VERDICT_WARN
#define CRIT PTK_VERDICT_CRIT

static void test_quiet(void **state)
{
	assert_int_equal(verdict(&quiet, "cpu", NULL), OK);
	assert_int_equal(verdict(&quiet, "memory", NULL), OK);
	assert_int_equal(verdict(&quiet, "disk", "sda"), OK);
	assert_int_equal(verdict(&quiet, "network", "tcp"), OK);
}

/* cpu busy: warning at 70%, critical at 90% only with a run queue over 1 per CPU (or PSI
 * some at 10%, unknown here: no /proc/pressure). */
static void test_cpu(void **state)
{
	struct tree t = quiet;

	t.busy = 699;
	assert_int_equal(verdict(&t, "cpu", NULL), OK);
	t.busy = 700;
	assert_int_equal(verdict(&t, "cpu", NULL), WARN);
	t.busy = 950; /* past critical, run queue 0.5 per CPU: the guard is not met */
	assert_int_equal(verdict(&t, "cpu", NULL), WARN);
	t.running = 4; /* 3 besides the reader, 1.5 per CPU: guard met */
	assert_int_equal(verdict(&t, "cpu", NULL), CRIT);
	t.busy = 100; /* idle CPUs, run queue 1.5 per CPU: the run-queue rule warns alone */
	assert_int_equal(verdict(&t, "cpu", NULL), WARN);
	t.running = 5; /* 4 besides the reader, 2 per CPU: its critical threshold */
	assert_int_equal(verdict(&t, "cpu", NULL), CRIT);
}

/* memory available: warning under 10%, critical under 5%. */
static void test_memory(void **state)
{
	struct tree t = quiet;

	t.avail_kb = 100000; /* 10.0% */
	assert_int_equal(verdict(&t, "memory", NULL), OK);
	t.avail_kb = 99990; /* 9.999% */
	assert_int_equal(verdict(&t, "memory", NULL), WARN);
	t.avail_kb = 50000; /* 5.0% */
	assert_int_equal(verdict(&t, "memory", NULL), WARN);
	t.avail_kb = 49990;
	assert_int_equal(verdict(&t, "memory", NULL), CRIT);
}

/* a rotational disk's %util: warning at 60, critical at 90 with aqu-sz over 1. A
 * non-rotational disk's %util is no saturation (requests overlap). */
static void test_disk(void **state)
{
	struct tree t = quiet;

	t.io_ticks_ms = 599;
	assert_int_equal(verdict(&t, "disk", "sda"), OK);
	t.io_ticks_ms = 600;
	assert_int_equal(verdict(&t, "disk", "sda"), WARN);
	t.io_ticks_ms = 950;
	t.weighted_ms = 1000; /* aqu-sz 1.00: the guard is not met */
	assert_int_equal(verdict(&t, "disk", "sda"), WARN);
	t.weighted_ms = 1500; /* aqu-sz 1.50, await 15 ms (100 I/Os): guard met */
	assert_int_equal(verdict(&t, "disk", "sda"), CRIT);
	t.rotational = 0;
	t.weighted_ms = 100;
	assert_int_equal(verdict(&t, "disk", "sda"), OK);
}

/* TCP retransmits: warning at 1% of the segments sent, critical at 5%, and only with at
 * least 100 segments sent in the interval. */
static void test_tcp(void **state)
{
	struct tree t = quiet;

	t.out_segs = 99;
	t.retrans = 50; /* 50% of too few segments */
	assert_int_equal(verdict(&t, "network", "tcp"), OK);
	t.out_segs = 1000;
	t.retrans = 9; /* 0.9% */
	assert_int_equal(verdict(&t, "network", "tcp"), OK);
	t.retrans = 10; /* 1.0% */
	assert_int_equal(verdict(&t, "network", "tcp"), WARN);
	t.retrans = 49;
	assert_int_equal(verdict(&t, "network", "tcp"), WARN);
	t.retrans = 50; /* 5.0% */
	assert_int_equal(verdict(&t, "network", "tcp"), CRIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet),  cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_memory), cmocka_unit_test(test_disk),
		cmocka_unit_test(test_tcp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
