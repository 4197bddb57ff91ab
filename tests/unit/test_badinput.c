// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for input the readers got wrong (found by the fuzz harnesses in
 * tests/fuzz and by bad-input runs): each case failed before its fix. A value that is not
 * the kernel's (a sign on a counter, a share above 100, a name the kernel cannot write) is
 * refused or unknown, never a wrapped or invented number.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/folded.h"
#include "model/perfscript.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"
#include "source/tracefs/tracefs.h"

/* /proc/stat without a cpuN line: copying it used to memset(NULL, 0, 0) (UBSan in mpstat) */
static void test_stat_no_cpu_lines(void **state)
{
	struct ptk_stat st = { 0 }, cp = { 0 };

	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4 5 6 7 8 0 0\nctxt 9\n", &st), 0);
	assert_int_equal(st.ncpu, 0);
	ptk_stat_copy(&cp, &st);
	assert_int_equal(cp.ncpu, 0);
	assert_int_equal(cp.ctxt, 9);
	/* a cpu number no kernel has is refused, not a 90 MB allocation */
	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4\ncpu1000000 1 2 3 4\n", &st), -EINVAL);
	ptk_stat_free(&st);
	ptk_stat_free(&cp);
}

static void test_loadavg_uptime_implausible(void **state)
{
	struct ptk_loadavg la;
	struct ptk_uptime up;

	assert_int_equal(ptk_loadavg_parse("0.10 0.20 0.30 1/100 4242\n", &la), 0);
	assert_int_equal(ptk_loadavg_parse("nan 0.20 0.30 1/100 4242\n", &la), -EINVAL);
	assert_int_equal(ptk_loadavg_parse("-1 0.20 0.30 1/100 4242\n", &la), -EINVAL);
	assert_int_equal(ptk_loadavg_parse("0.1 inf 0.30 1/100 4242\n", &la), -EINVAL);
	assert_int_equal(ptk_loadavg_parse("0.1 0.2 0.3 1/100 -7\n", &la), -EINVAL);
	assert_int_equal(ptk_uptime_parse("123.45 200.00\n", &up), 0);
	assert_true(up.up_s == 123.45 && up.idle_s == 200.0);
	assert_int_equal(ptk_uptime_parse("-5 1\n", &up), -EINVAL);
	assert_int_equal(ptk_uptime_parse("nan 1\n", &up), -EINVAL);
}

/* PSI: a share of time above 100 (or NaN, or a signed total) leaves that line unknown */
static void test_psi_out_of_range(void **state)
{
	struct ptk_psi psi;

	assert_int_equal(ptk_psi_parse("some avg10=1.00 avg60=2.00 avg300=3.00 total=4\n"
				       "full avg10=0.00 avg60=0.00 avg300=600 total=0\n",
				       &psi),
			 0);
	assert_true(psi.some.present);
	assert_false(psi.full.present);
	assert_true(psi.full.avg300 == 0);
	assert_int_equal(ptk_psi_parse("some avg10=nan avg60=2.00 avg300=3.00 total=4\n", &psi),
			 -EINVAL);
	assert_int_equal(ptk_psi_parse("some avg10=1.00 avg60=2.00 avg300=3.00 total=-4\n", &psi),
			 -EINVAL);
}

/* /proc/net/dev: a name with white space or '/' is no interface's (dev_valid_name) */
static void test_netdev_names(void **state)
{
	struct ptk_netdevs nd = { 0 };
	static const char text[] =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
		"errs drop fifo colls carrier compressed\n"
		"  ! lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
		"  a/b: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
		"  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";

	assert_int_equal(ptk_netdev_parse(text, &nd), 0);
	assert_int_equal(nd.n, 1);
	assert_string_equal(nd.d[0].name, "eth0");
	assert_int_equal(nd.d[0].f[PTK_ND_TX_COMPRESSED], 16);
	ptk_netdev_free(&nd);
}

/* /proc/PID files: counters with a sign are refused (strtoull read "-1" as 2^64 - 1) */
static void test_pid_files_signed(void **state)
{
	struct ptk_task t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_io("rchar: 1\nwchar: 2\nread_bytes: 3\nwrite_bytes: 4\n"
					   "cancelled_write_bytes: 5\n",
					   &t),
			 0);
	assert_int_equal(t.cancelled_write_bytes, 5);
	assert_int_equal(
		ptk_task_parse_io("rchar: -1\nwchar: 2\nread_bytes: 3\nwrite_bytes: 4\n", &t),
		-EINVAL);
	assert_int_equal(ptk_task_parse_statm("10 -2 3 0 0 4 0\n", &t), -EINVAL);
	assert_int_equal(ptk_task_parse_statm("10 2 3 0 0 4 0\n", &t), 0);
	assert_int_equal(t.statm_resident, 2);
	assert_int_equal(ptk_task_parse_schedstat("100 -5 3\n", &t), -EINVAL);
	assert_int_equal(ptk_task_parse_schedstat("100 5 3\n", &t), 0);
	assert_int_equal(t.run_delay_ns, 5);
	/* a ppid past INT_MAX wrapped to a negative int */
	assert_int_equal(ptk_task_parse_stat("42 (x) S 7370955161950 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 "
					     "0 1 0 5 0 0",
					     &t),
			 -EINVAL);
	/* a negative pid in stat */
	assert_int_equal(
		ptk_task_parse_stat("-5 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0", &t),
		-EINVAL);
	/* status: Name: is escaped like comm; Uid: with a sign is refused */
	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_status("Name:\ta\033[2Jb\nUid:\t0\t0\t0\t0\n"
					       "voluntary_ctxt_switches:\t3\n",
					       &t),
			 0);
	assert_string_equal(t.name, "a?[2Jb");
	assert_int_equal(ptk_task_parse_status("Name:\tx\nUid:\t-1\t0\t0\t0\n", &t), -EINVAL);
}

/* net/snmp: a protocol name with blanks is not the kernel's; a value that is not a number
 * leaves its key out (it read as 0); values never come from the next line */
static void test_snmp_pairs(void **state)
{
	struct ptk_kvs kvs = { 0 };
	s64 v;

	assert_int_equal(ptk_netsnmp_parse("TcpExt : A B\nTcpExt : 1 2\n", &kvs), -EINVAL);
	kvs.n = 0;
	assert_int_equal(ptk_netsnmp_parse("Tcp: MaxConn InSegs OutSegs\nTcp: -1 x7 9\n"
					   "Udp: InDatagrams\nUdp: 5\n",
					   &kvs),
			 0);
	assert_true(ptk_kvs_get(&kvs, "Tcp.MaxConn", &v) && v == -1);
	assert_false(ptk_kvs_get(&kvs, "Tcp.InSegs", &v));
	assert_true(ptk_kvs_get(&kvs, "Tcp.OutSegs", &v) && v == 9);
	assert_true(ptk_kvs_get(&kvs, "Udp.InDatagrams", &v) && v == 5);
	kvs.n = 0;
	/* fewer values than names: the names without one are unknown */
	assert_int_equal(ptk_netsnmp_parse("Ip: A B C\nIp: 1\nIcmp: D\nIcmp: 4\n", &kvs), 0);
	assert_true(ptk_kvs_get(&kvs, "Ip.A", &v) && v == 1);
	assert_false(ptk_kvs_get(&kvs, "Ip.B", &v));
	assert_true(ptk_kvs_get(&kvs, "Icmp.D", &v) && v == 4);
	ptk_kvs_free(&kvs);
}

/* tracefs formats: offsets and sizes outside a record are refused */
static void test_tp_format_offsets(void **state)
{
	struct ptk_tp_format fmt;

	assert_int_equal(ptk_tp_format_parse(
				 "ID: 5\n\tfield:int x;\toffset:-4;\tsize:4;\tsigned:1;\n", &fmt),
			 -EINVAL);
	assert_int_equal(ptk_tp_format_parse("\tfield:int x;\toffset:8;\tsize:99999999999;\t"
					     "signed:1;\n",
					     &fmt),
			 -EINVAL);
	assert_int_equal(ptk_tp_format_parse("ID: 5\n\tfield:pid_t pid;\toffset:8;\tsize:4;\t"
					     "signed:1;\n",
					     &fmt),
			 0);
	assert_int_equal(fmt.f[0].offset, 8);
	assert_int_equal(fmt.f[0].size, 4);
	assert_true(fmt.f[0].is_signed);
}

/* folded stacks: a signed count is refused (it read as 2^64 - 1), a total past 2^64 - 1 is
 * refused (it wrapped), and a file starting with a signed count is still folded, not sent
 * down the perf script path */
static void test_folded_counts(void **state)
{
	struct ptk_folded *f = ptk_folded_new();

	assert_int_equal(ptk_folded_add_line(f, "a;b -1"), -EINVAL);
	assert_int_equal(ptk_folded_add_line(f, "a;b +1"), -EINVAL);
	assert_int_equal(ptk_folded_add_line(f, "a;b 18446744073709551615"), 0);
	assert_int_equal(ptk_folded_add_line(f, "a;c 1"), -ERANGE);
	assert_int_equal(f->n, 1);
	assert_true(f->total == 18446744073709551615ull);
	assert_int_equal(ptk_folded_add_line(f, "a;b 18446744073709551616"), -EINVAL);
	ptk_folded_free(f);
	assert_false(ptk_perfscript_detect("main;foo -1", "main;bar 2"));
	assert_false(ptk_perfscript_detect("main;foo 3", NULL));
	assert_true(
		ptk_perfscript_detect("dd 123 [000] 1.000: cpu-clock:", "\tffff main (/bin/x)"));
}

/* perf script recorded without -g pads the comm with blanks (%16s) and puts the one frame
 * on the header line: it was refused as "no stack counts found" */
static void test_perfscript_no_callchain(void **state)
{
	static const char *const lines[] = {
		"              dd  6794  1005.443307:    2004008 cpu-clock:pppH:  ffffffff812491db "
		"x64_sys_call+0x3b ([kernel.kallsyms])",
		"              dd  6794  1005.445334:    2004008 cpu-clock:pppH:  ffffffff8225a0d6 "
		"do_syscall_64+0x46 ([kernel.kallsyms])",
		"  Plex DLNA Serve  6795/6796  1005.447364:    2004008 cpu-clock:pppH:  "
		"ffffffff8225a0d6 do_syscall_64+0x46 ([kernel.kallsyms])",
	};
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_perfscript ps;

	assert_true(ptk_perfscript_detect(lines[0], lines[1]));
	ptk_perfscript_init(&ps, f, NULL);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ptk_perfscript_line(&ps, lines[i]);
	ptk_perfscript_finish(&ps);
	assert_int_equal(ps.samples_in, 3);
	assert_int_equal(ps.samples_out, 3);
	assert_int_equal(f->n, 3);
	ptk_folded_sort(f);
	assert_string_equal(f->s[0].stack, "Plex_DLNA_Serve;do_syscall_64");
	assert_string_equal(f->s[1].stack, "dd;do_syscall_64");
	assert_string_equal(f->s[2].stack, "dd;x64_sys_call");
	ptk_perfscript_release(&ps);
	ptk_folded_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_no_cpu_lines),
		cmocka_unit_test(test_loadavg_uptime_implausible),
		cmocka_unit_test(test_psi_out_of_range),
		cmocka_unit_test(test_netdev_names),
		cmocka_unit_test(test_pid_files_signed),
		cmocka_unit_test(test_snmp_pairs),
		cmocka_unit_test(test_tp_format_offsets),
		cmocka_unit_test(test_folded_counts),
		cmocka_unit_test(test_perfscript_no_callchain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
