// SPDX-License-Identifier: GPL-2.0
/* The process-table parsers and scanner (source/procfs/pid.h) on strings and fixture trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/procfs/pid.h"

/* A full 52-field stat line: comm as given, ppid 7, minflt 11, majflt 12, utime 13, stime 14,
 * 3 threads, starttime 4242, vsize 8192, rss 99, processor 1, blkio 5, guest 6. */
static void stat_line(char *buf, size_t size, int pid, const char *comm)
{
	snprintf(buf, size,
		 "%d (%s) S 7 1 1 0 -1 4194304 11 0 12 0 13 14 0 0 20 0 3 0 4242 8192 99 "
		 "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 5 6 0 0 0 0 0 0 0 0 0\n",
		 pid, comm);
}

static void check_fields(const struct ptk_task *t)
{
	assert_int_equal(t->state, 'S');
	assert_int_equal(t->ppid, 7);
	assert_int_equal(t->minflt, 11);
	assert_int_equal(t->majflt, 12);
	assert_int_equal(t->utime, 13);
	assert_int_equal(t->stime, 14);
	assert_int_equal(t->nthreads, 3);
	assert_int_equal(t->starttime, 4242);
	assert_int_equal(t->vsize, 8192);
	assert_int_equal(t->rss_pages, 99);
	assert_int_equal(t->processor, 1);
	assert_int_equal(t->blkio_ticks, 5);
	assert_int_equal(t->gtime, 6);
}

/* comm is everything between the first '(' and the LAST ')'; fields count from there. */
static void test_stat_comm(void **state)
{
	static const char *const names[] = { "a) b", ":-) 1 2 3", ") ", "my prog", "", "((x))" };
	char buf[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct ptk_task t;
		memset(&t, 0, sizeof(t));
		stat_line(buf, sizeof(buf), 40 + (int)i, names[i]);
		assert_int_equal(ptk_task_parse_stat(buf, &t), 0);
		assert_int_equal(t.pid, 40 + (int)i);
		assert_string_equal(t.comm, names[i]);
		check_fields(&t);
	}
}

static void test_stat_bad(void **state)
{
	struct ptk_task t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_stat("12 no parens S 1", &t), -EINVAL);
	assert_int_equal(ptk_task_parse_stat("12 (short) S 1 2 3", &t), -EINVAL);
	assert_int_equal(ptk_task_parse_stat("12 (x)", &t), -EINVAL);
}

/* sh\0-c\0echo\ta\nb\0 is one row with the controls escaped, never raw. */
static void test_cmdline_escape(void **state)
{
	static const char raw[] = "sh\0-c\0echo\ta\nb\0";
	char out[64];

	ptk_cmdline_escape(raw, sizeof(raw) - 1, out, sizeof(out));
	assert_string_equal(out, "sh -c echo\\ta\\nb");
	assert_null(strchr(out, '\n'));
	ptk_cmdline_escape("a\x01"
			   "b",
			   3, out, sizeof(out));
	assert_string_equal(out, "a\\001b");
	/* truncation keeps the string terminated */
	ptk_cmdline_escape("abcdefghij", 10, out, 6);
	assert_true(strlen(out) < 6);
}

/* The children's counters (fields 11, 13, 16, 17, 44), rt_priority and policy (40, 41):
 * sysstat pidstat -T CHILD and -R. A line cut before field 40 has no policy to show. */
static void test_stat_child_rt(void **state)
{
	static const char line[] =
		"600 (srv) S 1 600 600 0 -1 4194304 100 10 1 3 1000 200 30 5 -51 0 2 0 5000 8192 "
		"500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 50 1 7 4 9 0 0 0 0 0 0 0 0\n";
	struct ptk_task t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_stat(line, &t), 0);
	assert_int_equal(t.minflt, 100);
	assert_int_equal(t.cminflt, 10);
	assert_int_equal(t.majflt, 1);
	assert_int_equal(t.cmajflt, 3);
	assert_int_equal(t.cutime, 30);
	assert_int_equal(t.cstime, 5);
	assert_true(t.rt_ok);
	assert_int_equal(t.rt_priority, 50);
	assert_int_equal(t.policy, 1);
	assert_int_equal(t.blkio_ticks, 7);
	assert_int_equal(t.gtime, 4);
	assert_int_equal(t.cgtime, 9);
	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_stat("1 (old) S 0 1 1 0 -1 0 1 2 3 4 5 6 7 8 20 0 1 0 9 "
					     "100 10 1 1 1 0 0 0 0 0 0 0 0 0 0 17 0\n",
					     &t),
			 0);
	assert_false(t.rt_ok);
	assert_int_equal(t.cgtime, 0);
	assert_true(t.no_blkio); /* absent: unknown, not 0 */
	assert_true(t.no_gtime);
}

/* smaps: the Size and Referenced of the [stack] mapping only, not of the mappings around
 * it; no [stack] (a kernel thread): 0 and known. */
static void test_stack(void **state)
{
	static const char smaps[] =
		"55d5c0000000-55d5c0021000 rw-p 00000000 00:00 0          [heap]\n"
		"Size:                132 kB\nReferenced:           64 kB\n"
		"7ffd1000-7ffd2000 rw-p 00000000 00:00 0                  [stack]\n"
		"Size:                136 kB\nKernelPageSize:        4 kB\nReferenced:   40 kB\n"
		"7ffd3000-7ffd4000 r--p 00000000 00:00 0                  [vvar]\n"
		"Size:                 16 kB\nReferenced:            8 kB\n";
	struct ptk_task t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_stack(smaps, &t), 0);
	assert_true(t.stack_ok);
	assert_int_equal(t.stack_kb, 136);
	assert_int_equal(t.stack_ref_kb, 40);
	assert_int_equal(ptk_task_parse_stack("7f-80 r--p 0 00:00 0 [vvar]\nSize: 4 kB\n", &t), 0);
	assert_true(t.stack_ok);
	assert_int_equal(t.stack_kb, 0);
	assert_int_equal(t.stack_ref_kb, 0);
}

/* A rewritten argument area: the text, then NUL padding up to the file's last byte (here a
 * newline, as in sysstat's test trees): neither the padding nor that byte is shown (ptk
 * showed the padding as spaces and the newline as \n). A last byte that is not a NUL right
 * after the text is shown. */
static void test_cmdline_padding(void **state)
{
	static const char raw[] = "/usr/libexec/server\0\0\0\0\0\0\0\0\n";
	char out[64];

	ptk_cmdline_escape(raw, sizeof(raw) - 1, out, sizeof(out));
	assert_string_equal(out, "/usr/libexec/server");
	ptk_cmdline_escape("abc", 3, out, sizeof(out));
	assert_string_equal(out, "abc");
	ptk_cmdline_escape("a\0b\0\0\0", 6, out, sizeof(out));
	assert_string_equal(out, "a b");
	ptk_cmdline_escape("\0", 1, out, sizeof(out));
	assert_string_equal(out, "");
}

static void test_status(void **state)
{
	static const char st[] = "Name:\tmy prog\nUmask:\t0022\nUid:\t1000\t1001\t1000\t1000\n"
				 "VmRSS:\t    2048 kB\nVmSwap:\t      16 kB\n"
				 "voluntary_ctxt_switches:\t70\nnonvoluntary_ctxt_switches:\t8\n";
	struct ptk_task t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_status(st, &t), 0);
	assert_string_equal(t.name, "my prog");
	assert_int_equal(t.uid, 1000);
	assert_int_equal(t.vmrss_kb, 2048);
	assert_int_equal(t.vmswap_kb, 16);
	assert_int_equal(t.vol_ctxt, 70);
	assert_int_equal(t.nonvol_ctxt, 8);
	assert_int_equal(ptk_task_parse_status("Uid:\t0\t0\t0\t0\nThreads:\t67\n"
					       "voluntary_ctxt_switches:\t1\n",
					       &t),
			 0);
	assert_int_equal(t.nthreads, 67); /* Threads: as pidstat -v shows it */
	assert_int_equal(ptk_task_parse_status("Foo:\t1\n", &t), -EINVAL);
}

static void test_io_schedstat(void **state)
{
	struct ptk_task t;

	memset(&t, 0, sizeof(t));
	assert_int_equal(ptk_task_parse_io("rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\n"
					   "read_bytes: 5\nwrite_bytes: 6\n"
					   "cancelled_write_bytes: 7\n",
					   &t),
			 0);
	assert_int_equal(t.rchar, 1);
	assert_int_equal(t.wchar, 2);
	assert_int_equal(t.read_bytes, 5);
	assert_int_equal(t.write_bytes, 6);
	assert_int_equal(t.cancelled_write_bytes, 7);
	assert_int_equal(ptk_task_parse_io("rchar: 1\n", &t), -EINVAL);
	assert_int_equal(ptk_task_parse_schedstat("123456 789000 42\n", &t), 0);
	assert_true(t.sched_ok);
	assert_int_equal(t.run_delay_ns, 789000);
	assert_int_equal(ptk_task_parse_schedstat("garbage\n", &t), -EINVAL);
}

static void test_cgroup_paths(void **state)
{
	char out[192];

	ptk_cgroup_path("0::/user.slice/user-0.slice/session-1.scope\n", out, sizeof(out));
	assert_string_equal(out, "/user.slice/user-0.slice/session-1.scope");
	/* v1 only: the first line's path */
	ptk_cgroup_path("12:pids:/docker/abc\n11:cpu,cpuacct:/other\n", out, sizeof(out));
	assert_string_equal(out, "/docker/abc");
	/* hybrid: the v2 line wins wherever it is */
	ptk_cgroup_path("5:memory:/v1path\n0::/v2path\n", out, sizeof(out));
	assert_string_equal(out, "/v2path");
	ptk_cgroup_path("", out, sizeof(out));
	assert_string_equal(out, "");
}

static void test_container_ids(void **state)
{
	char h[65], cg[256], out[16];

	memset(h, 'a', 64);
	h[0] = '0';
	h[11] = 'f';
	h[64] = '\0';
	snprintf(cg, sizeof(cg), "/system.slice/docker-%s.scope", h);
	ptk_container_id(cg, out, sizeof(out));
	assert_string_equal(out, "0aaaaaaaaaaf");
	snprintf(cg, sizeof(cg), "/docker/%s", h);
	ptk_container_id(cg, out, sizeof(out));
	assert_string_equal(out, "0aaaaaaaaaaf");
	snprintf(cg, sizeof(cg), "/kubepods.slice/kubepods-pod1.slice/cri-containerd-%s.scope", h);
	ptk_container_id(cg, out, sizeof(out));
	assert_string_equal(out, "0aaaaaaaaaaf");
	/* not 64 hex characters: no container */
	ptk_container_id("/system.slice/docker-abc.scope", out, sizeof(out));
	assert_string_equal(out, "");
	h[30] = 'z';
	snprintf(cg, sizeof(cg), "/docker/%s", h);
	ptk_container_id(cg, out, sizeof(out));
	assert_string_equal(out, "");
	ptk_container_id("/user.slice", out, sizeof(out));
	assert_string_equal(out, "");
}

static void src_at(struct ptk_src *src, const char *tree)
{
	assert_int_equal(ptk_src_init(src, tree, NULL), 0);
	assert_true(src->replay);
}

/* 101 lacks its stat (it vanished between readdir and read): dropped, counted. */
static void test_scan_fixture(void **state)
{
	struct ptk_src src;
	struct ptk_ptab pt = { 0 };
	char cid[16];

	src_at(&src, PTK_FIXTURES "/pid_scan");
	assert_int_equal(ptk_ptab_scan(&src,
				       PTK_PT_IO | PTK_PT_STATUS | PTK_PT_CMDLINE | PTK_PT_CGROUP,
				       &pt),
			 0);
	assert_int_equal(pt.n, 2);
	assert_true(pt.vanished >= 1);
	assert_int_equal(pt.t[0].pid, 100);
	assert_int_equal(pt.t[1].pid, 102);
	assert_string_equal(pt.t[0].comm, "my prog");
	assert_string_equal(pt.t[0].cmdline, "sh -c echo\\ta\\nb");
	assert_true(pt.t[0].io_ok);
	assert_int_equal(pt.t[0].read_bytes, 4096);
	assert_int_equal(pt.t[0].write_bytes, 8192);
	assert_int_equal(pt.t[0].cancelled_write_bytes, 512);
	assert_true(pt.t[0].status_ok);
	assert_int_equal(pt.t[0].uid, 1000);
	assert_int_equal(pt.t[0].vol_ctxt, 7);
	ptk_container_id(pt.t[0].cgroup, cid, sizeof(cid));
	assert_string_equal(cid, "aaaaaaaaaaaa");
	/* 102 has no io file: unavailable, not zero */
	assert_false(pt.t[1].io_ok);
	assert_string_equal(pt.t[1].cgroup,
			    "/docker/"
			    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
	assert_non_null(ptk_ptab_find(&pt, 102, 600));
	assert_null(ptk_ptab_find(&pt, 102, 601)); /* same pid, other start: not it */

	/* threads: 100 has no task/ (its process row stands in), 102 has 102 and 103 */
	assert_int_equal(ptk_ptab_scan(&src, PTK_PT_THREADS | PTK_PT_CMDLINE, &pt), 0);
	assert_int_equal(pt.n, 3);
	assert_int_equal(pt.t[1].pid, 102);
	assert_int_equal(pt.t[2].pid, 103);
	assert_int_equal(pt.t[2].tgid, 102);
	assert_string_equal(pt.t[2].comm, "worker");
	assert_int_equal(pt.t[2].utime, 20);

	/* -p style scan: a missing pid is skipped */
	int pids[] = { 100, 999 };
	assert_int_equal(ptk_ptab_scan_pids(&src, 0, pids, 2, &pt), 0);
	assert_int_equal(pt.n, 1);
	assert_int_equal(pt.t[0].pid, 100);
	ptk_ptab_free(&pt);
}

/* tests/fixtures/pidstat_sysstat/0: 600 with threads 600 and 601, an smaps with a [stack]
 * mapping, an fd directory of 3 descriptors and a placeholder file, a 370-byte command line
 * padded with NULs (sysstat's pidstat -l shows all of it; ptk cut it at 251). Threads get
 * the process's stack and fd count. */
static void test_scan_pidstat(void **state)
{
	struct ptk_src src;
	struct ptk_ptab pt = { 0 };
	struct ptk_cmdlines cl = { 0 };
	char *cmd = NULL;

	src_at(&src, PTK_FIXTURES "/pidstat_sysstat");
	assert_int_equal(ptk_ptab_scan(&src, PTK_PT_STATUS | PTK_PT_STACK | PTK_PT_FDS, &pt), 0);
	const struct ptk_task *t = ptk_ptab_find_pid(&pt, 600);
	assert_non_null(t);
	assert_true(t->stack_ok);
	assert_int_equal(t->stack_kb, 132);
	assert_int_equal(t->stack_ref_kb, 40);
	assert_int_equal(t->nfds, 3); /* 0 1 2, not _void */
	assert_int_equal(t->nthreads, 2);
	t = ptk_ptab_find_pid(&pt, 700);
	assert_false(t->stack_ok); /* no smaps file */
	assert_int_equal(t->nfds, -1);
	assert_int_equal(t->policy, 1);
	assert_int_equal(t->rt_priority, 50);

	assert_int_equal(ptk_task_cmdline_read(&src, 600, &cmd), 0);
	assert_true(strlen(cmd) > 300);
	assert_true(!strncmp(cmd, "/usr/lib/srv/bin/server --option-00=value ", 42));
	assert_string_equal(cmd + strlen(cmd) - 17, "--option-15=value");
	free(cmd);
	assert_int_equal(ptk_task_cmdline_read(&src, 999, &cmd), -ENOENT);

	/* the cache: read once per (pid, starttime); a gone pid leaves it */
	ptk_cmdlines_update(&cl, &src, &pt);
	assert_int_equal(cl.n, pt.n);
	assert_true(strlen(ptk_cmdlines_get(&cl, ptk_ptab_find_pid(&pt, 600))) > 300);
	assert_string_equal(ptk_cmdlines_get(&cl, ptk_ptab_find_pid(&pt, 700)), "");
	struct ptk_task other = *ptk_ptab_find_pid(&pt, 600);
	other.starttime++; /* the same pid, another process */
	assert_string_equal(ptk_cmdlines_get(&cl, &other), "");
	struct ptk_ptab one = { 0 };
	int pid = 700;
	assert_int_equal(ptk_ptab_scan_pids(&src, 0, &pid, 1, &one), 0);
	ptk_cmdlines_update(&cl, &src, &one);
	assert_int_equal(cl.n, 1);
	ptk_cmdlines_free(&cl);
	ptk_ptab_free(&one);

	/* threads: the process's stack and fds copied to each */
	assert_int_equal(ptk_ptab_scan(&src, PTK_PT_THREADS | PTK_PT_STACK | PTK_PT_FDS, &pt), 0);
	t = ptk_ptab_find_pid(&pt, 601);
	assert_non_null(t);
	assert_int_equal(t->tgid, 600);
	assert_int_equal(t->stack_kb, 132);
	assert_int_equal(t->nfds, 3);
	ptk_ptab_free(&pt);
}

/* An io file we may not read leaves io_ok false and counts as denied. chmod cannot deny
 * root, so as root only the parser path above is tested. */
static void test_io_denied(void **state)
{
	char tmpl[] = "/tmp/ptk_test_pid_XXXXXX", cmd[512], path[300];
	struct ptk_src src;
	struct ptk_ptab pt = { 0 };

	if (geteuid() == 0) {
		print_message("# skip: running as root, chmod 000 does not deny reads\n");
		skip();
	}
	assert_non_null(mkdtemp(tmpl));
	snprintf(cmd, sizeof(cmd), "cp -r %s/pid_scan/0 %s/", PTK_FIXTURES, tmpl);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/0/100/io", tmpl);
	assert_int_equal(chmod(path, 0), 0);
	src_at(&src, tmpl);
	assert_int_equal(ptk_ptab_scan(&src, PTK_PT_IO, &pt), 0);
	assert_int_equal(pt.n, 2);
	assert_false(pt.t[0].io_ok);
	assert_int_equal(pt.t[0].read_bytes, 0);
	assert_true(pt.denied >= 1);
	ptk_ptab_free(&pt);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_comm),      cmocka_unit_test(test_stat_bad),
		cmocka_unit_test(test_cmdline_escape), cmocka_unit_test(test_status),
		cmocka_unit_test(test_io_schedstat),   cmocka_unit_test(test_cgroup_paths),
		cmocka_unit_test(test_container_ids),  cmocka_unit_test(test_scan_fixture),
		cmocka_unit_test(test_io_denied),      cmocka_unit_test(test_stat_child_rt),
		cmocka_unit_test(test_stack),	       cmocka_unit_test(test_cmdline_padding),
		cmocka_unit_test(test_scan_pidstat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
