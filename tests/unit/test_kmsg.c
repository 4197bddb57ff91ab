// SPDX-License-Identifier: GPL-2.0
/* Kernel log records (/dev/kmsg format): parsing and classification
 * (tests/fixtures/unit_kmsg). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "source/procfs/procfs.h"

static void test_classify(void **state)
{
	static const struct {
		const char *msg;
		int kind;
	} c[] = {
		{ "Out of memory: Killed process 42 (stress-ng)", PTK_KMSG_OOM },
		/* the summary line of the same kill: not a second event */
		{ "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task=stress-ng,pid=42", -1 },
		{ "stress-ng invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE), order=0",
		  -1 },
		/* kernels < 4.19: "Kill process ... or sacrifice child", then "Killed process" */
		{ "Out of memory: Kill process 42 (stress-ng) score 900 or sacrifice child", -1 },
		{ "Killed process 42 (stress-ng) total-vm:1048576kB, anon-rss:524288kB",
		  PTK_KMSG_OOM },
		{ "Kernel panic - not syncing: Out of memory and no killable processes...",
		  PTK_KMSG_OOM },
		{ "Memory cgroup out of memory: Killed process 1234 (java)", PTK_KMSG_OOM },
		{ "blk_update_request: I/O error, dev sdb, sector 0", PTK_KMSG_IO_ERROR },
		{ "I/O error, dev nvme0n1, sector 2048 op 0x1:(WRITE)", PTK_KMSG_IO_ERROR },
		{ "sd 2:0:0:0: [sdb] tag#0 critical medium error, dev sdb, sector 8",
		  PTK_KMSG_IO_ERROR },
		{ "EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2: comm ls",
		  PTK_KMSG_IO_ERROR },
		{ "XFS (sdb1): log I/O error -5", PTK_KMSG_IO_ERROR },
		{ "XFS (sdb1): metadata write error", PTK_KMSG_IO_ERROR },
		{ "XFS (sdb1): Mounting V5 Filesystem", -1 },
		{ "INFO: task kworker:12 blocked for more than 120 seconds.", PTK_KMSG_HUNG_TASK },
		{ "watchdog: BUG: soft lockup - CPU#1 stuck for 22s!", PTK_KMSG_SOFT_LOCKUP },
		{ "NMI watchdog: Watchdog detected hard LOCKUP on cpu 3", PTK_KMSG_SOFT_LOCKUP },
		{ "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", PTK_KMSG_SOFT_LOCKUP },
		{ "e1000e 0000:00:1f.6 eth0: NIC Link is Up 1000 Mbps Full Duplex", -1 },
		{ "Linux version 6.1.0-13-amd64", -1 },
		{ "", -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		int k = ptk_kmsg_classify(c[i].msg);
		if (k != c[i].kind)
			fail_msg("\"%s\": kind %d, want %d", c[i].msg, k, c[i].kind);
	}
	assert_string_equal(ptk_kmsg_kind_name[PTK_KMSG_OOM], "oom_kill");
	assert_string_equal(ptk_kmsg_kind_name[PTK_KMSG_IO_ERROR], "io_error");
	assert_string_equal(ptk_kmsg_kind_name[PTK_KMSG_HUNG_TASK], "hung_task");
	assert_string_equal(ptk_kmsg_kind_name[PTK_KMSG_SOFT_LOCKUP], "lockup");
}

/* The fixture log: 11 records, 4 of interest (one OOM kill logs "invoked oom-killer",
 * "oom-kill:constraint=..." and "Killed process": one event); continuation lines (leading
 * space) ignored even when they contain a pattern; timestamps in µs since boot. */
static void test_kmsg_read_fixture(void **state)
{
	struct ptk_src src;
	struct ptk_kmsg km = { 0 };

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/unit_kmsg", NULL), 0);
	for (int pass = 0; pass < 2; pass++) { /* a second read starts over */
		assert_int_equal(ptk_kmsg_read(&src, &km), 0);
		assert_int_equal(km.records, 11);
		assert_int_equal(km.n, 4);
		assert_int_equal(km.ev[0].kind, PTK_KMSG_OOM);
		assert_int_equal(km.ev[0].ts_us, 5000000);
		assert_string_equal(
			km.ev[0].msg,
			"Out of memory: Killed process 42 (stress-ng) total-vm:1048576kB, "
			"anon-rss:524288kB, file-rss:0kB");
		assert_int_equal(km.ev[1].kind, PTK_KMSG_IO_ERROR);
		assert_int_equal(km.ev[1].ts_us, 6000000);
		assert_non_null(strstr(km.ev[1].msg, "dev sdb, sector 0"));
		assert_int_equal(km.ev[2].kind, PTK_KMSG_HUNG_TASK);
		assert_int_equal(km.ev[2].ts_us, 7500000);
		assert_string_equal(km.ev[2].msg,
				    "INFO: task kworker:12 blocked for more than 120 seconds.");
		assert_int_equal(km.ev[3].kind, PTK_KMSG_SOFT_LOCKUP);
		assert_int_equal(km.ev[3].ts_us, 8000001);
		assert_string_equal(
			km.ev[3].msg,
			"watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [stress-ng:99]");
	}
	ptk_kmsg_free(&km);

	/* a tree without a kmsg file */
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/unit_stat", NULL), 0);
	assert_int_equal(ptk_kmsg_read(&src, &km), -ENOENT);
	ptk_kmsg_free(&km);
}

static void test_kmsg_parse_edge(void **state)
{
	struct ptk_kmsg km = { 0 };
	char big[600];

	/* parse appends; records without a timestamp or without ';' give no event */
	assert_int_equal(
		ptk_kmsg_parse("3,1,notanumber,-;Out of memory: Killed process 1 (a)\n"
			       "Out of memory: no record header\n"
			       " Out of memory: continuation\n"
			       "\n"
			       "3,2,18446744073709551615,-;INFO: task a:1 blocked for more than "
			       "10 seconds.\n"
			       "4,3,123,-,caller=T42;soft lockup - CPU#0 stuck for 23s!",
			       &km),
		0);
	assert_int_equal(km.n, 2);
	assert_int_equal(km.ev[0].kind, PTK_KMSG_HUNG_TASK);
	assert_int_equal(km.ev[0].ts_us, 18446744073709551615ull);
	assert_int_equal(km.ev[1].kind, PTK_KMSG_SOFT_LOCKUP);
	assert_int_equal(km.ev[1].ts_us, 123);

	/* a long message is truncated to fit, NUL-terminated */
	memset(big, 'x', sizeof(big));
	memcpy(big, "3,9,77,-;I/O error ", 19);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(ptk_kmsg_parse(big, &km), 0);
	assert_int_equal(km.n, 3);
	assert_int_equal(km.ev[2].kind, PTK_KMSG_IO_ERROR);
	assert_int_equal(km.ev[2].ts_us, 77);
	assert_int_equal(strlen(km.ev[2].msg), sizeof(km.ev[2].msg) - 1);
	ptk_kmsg_free(&km);
}

/* The live kernel log (/dev/kmsg): read without blocking up to the end; the boot records are
 * there, and every event found carries a known kind. */
static void test_kmsg_live(void **state)
{
	struct ptk_src src;
	struct ptk_kmsg km = { 0 };
	int r;

	assert_int_equal(ptk_src_init(&src, NULL, NULL), 0);
	r = ptk_kmsg_read(&src, &km);
	if (r == -EPERM || r == -EACCES || r == -ENOENT) {
		print_message("# skip: /dev/kmsg not readable here (%s)\n", strerror(-r));
		skip();
	}
	assert_int_equal(r, 0);
	assert_true(km.records > 0);
	for (int i = 0; i < km.n; i++)
		assert_in_range(km.ev[i].kind, 0, PTK_KMSG_NKINDS - 1);
	ptk_kmsg_free(&km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_kmsg_read_fixture),
		cmocka_unit_test(test_kmsg_parse_edge),
		cmocka_unit_test(test_kmsg_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
