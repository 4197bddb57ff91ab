// SPDX-License-Identifier: GPL-2.0
/*
 * What sar's and mpstat's other reports read, on tests/fixtures/unit_kx (a machine with
 * cpu1 offline): /proc/interrupts and /proc/softirqs per CPU column, softnet_stat by its
 * CPU field, the extended counters (snmp6, sockstat, /proc/sys/fs, serial lines, NFS, cpuinfo
 * MHz, USB, Fibre Channel), the activities over them, and the archive's ext table, which
 * must give back what was written. Every expected value is read off the fixture's files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/activity.h"
#include "output/archive.h"
#include "source/procfs/procfs.h"

#define FX PTK_FIXTURES "/unit_kx"

static void src_of(struct ptk_src *src)
{
	assert_int_equal(ptk_src_init(src, FX "/proc", FX "/sys"), 0);
}

static s64 kx(const struct ptk_xkvs *x, const char *key)
{
	s64 v;

	if (!ptk_xkvs_get(x, key, &v))
		fail_msg("no key %s", key);
	return v;
}

/* interrupts: CPU0 and CPU2 columns (cpu1 offline has none); ERR and MIS have CPU0's only */
static void test_interrupts(void **state)
{
	struct ptk_src src;
	struct ptk_irqs q = { 0 };
	int i;

	(void)state;
	src_of(&src);
	assert_int_equal(ptk_irqs_read(&src, "interrupts", &q), 0);
	assert_int_equal(q.n, 6);
	assert_int_equal(q.ncpu, 3);
	assert_true(ptk_irqs_known(&q, 0));
	assert_false(ptk_irqs_known(&q, 1));
	assert_true(ptk_irqs_known(&q, 2));
	assert_string_equal(q.name[0], "0");
	assert_string_equal(q.name[1], "16");
	assert_int_equal(ptk_irqs_get(&q, 1, 2), 1);
	i = ptk_irqs_find(&q, "LOC", 0);
	assert_int_equal(i, 3);
	assert_int_equal(ptk_irqs_get(&q, i, 2), 2000);
	i = ptk_irqs_find(&q, "ERR", 0);
	assert_int_equal(ptk_irqs_get(&q, i, 0), 5);
	assert_int_equal(ptk_irqs_get(&q, i, 2), 0);
	assert_int_equal(ptk_irqs_total(&q, 0), 40 + 7 + 3 + 1000 + 5);
	assert_int_equal(ptk_irqs_total(&q, 2), 2 + 1 + 4 + 2000);
	/* softirqs lists every possible CPU */
	assert_int_equal(ptk_irqs_read(&src, "softirqs", &q), 0);
	assert_int_equal(q.n, 3);
	assert_true(ptk_irqs_known(&q, 1));
	assert_string_equal(q.name[2], "NET_RX");
	assert_int_equal(ptk_irqs_get(&q, 1, 2), 300);
	/* no CPU header: not a file of counts */
	assert_int_equal(ptk_irqs_parse("  0: 1 2\n", &q), -EINVAL);
	ptk_irqs_free(&q);
}

/* softnet_stat: kernels from 5.10 end a line with its CPU (here 0, then 2); older ones have a
 * line per CPU /proc/stat lists, in order */
static void test_softnet(void **state)
{
	struct ptk_src src;
	struct ptk_softnet sn = { 0 };
	struct ptk_stat st = { 0 };
	static const char old[] = "0000000a 00000001 00000002 00000000 00000000 00000000 "
				  "00000000 00000000 00000000 00000003 00000004\n"
				  "00000014 00000000 00000000 00000000 00000000 00000000 "
				  "00000000 00000000 00000000 00000000 00000000\n";

	(void)state;
	src_of(&src);
	assert_int_equal(ptk_softnet_read(&src, NULL, &sn), 0);
	assert_int_equal(sn.ncpu, 3);
	assert_true(sn.has[0] && !sn.has[1] && sn.has[2]);
	assert_int_equal(sn.c[0].processed, 100);
	assert_int_equal(sn.c[0].dropped, 1);
	assert_int_equal(sn.c[0].squeezed, 2);
	assert_int_equal(sn.c[0].rps, 3);
	assert_int_equal(sn.c[0].flow_limit, 4);
	assert_int_equal(sn.c[0].backlog, 5);
	assert_int_equal(sn.c[2].processed, 200);
	/* the old layout on a machine whose /proc/stat lists cpu0 and cpu2 */
	assert_int_equal(ptk_stat_read(&src, &st), 0);
	assert_int_equal(ptk_softnet_parse(old, &st, &sn), 0);
	assert_true(sn.has[0] && !sn.has[1] && sn.has[2]);
	assert_int_equal(sn.c[2].processed, 20);
	assert_int_equal(sn.c[0].rps, 3);
	assert_int_equal(ptk_softnet_parse("00000001 zz\n", &st, &sn), -EINVAL);
	ptk_softnet_free(&sn);
	ptk_stat_free(&st);
}

static void test_kx_files(void **state)
{
	struct ptk_src src;
	struct ptk_xkvs x = { 0 };
	s64 v;

	(void)state;
	src_of(&src);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_SNMP6, 3, &x), 0);
	assert_int_equal(kx(&x, "snmp6.Ip6InReceives"), 1234);
	assert_int_equal(kx(&x, "snmp6.Udp6InDatagrams"), 99);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_SOCKSTAT, 3, &x), 0);
	assert_int_equal(kx(&x, "sockstat.sockets.used"), 321);
	assert_int_equal(kx(&x, "sockstat.TCP.tw"), 7);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_SOCKSTAT6, 3, &x), 0);
	assert_int_equal(kx(&x, "sockstat6.TCP6.inuse"), 5);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_KTABLES, 3, &x), 0);
	assert_int_equal(kx(&x, "fs.dentry-state.1"), 45012);
	assert_int_equal(kx(&x, "fs.file-nr.0"), 1632);
	assert_int_equal(kx(&x, "pty.nr.0"), 3);
	/* serial: the lines with a UART's counters (those 0 are not printed by the kernel) */
	ptk_xkvs_clear(&x);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_SERIAL, 3, &x), 0);
	assert_int_equal(kx(&x, "tty.0.rx"), 200);
	assert_int_equal(kx(&x, "tty.0.brk"), 3);
	assert_int_equal(kx(&x, "tty.0.pe"), 0);
	assert_int_equal(kx(&x, "tty.2.tx"), 0);
	assert_false(ptk_xkvs_get(&x, "tty.1.tx", &v));
	/* NFS: rpc calls and retransmissions; proc3 READ (7th) 60 + proc4 READ (2nd) 5 ... */
	assert_int_equal(ptk_kx_read(&src, PTK_KX_NFS, 3, &x), 0);
	assert_int_equal(kx(&x, "nfs.call"), 500);
	assert_int_equal(kx(&x, "nfs.retrans"), 3);
	assert_int_equal(kx(&x, "nfs.read"), 60 + 5);
	assert_int_equal(kx(&x, "nfs.write"), 70 + 6);
	assert_int_equal(kx(&x, "nfs.getatt"), 40);
	assert_int_equal(kx(&x, "nfs.access"), 10);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_NFSD, 3, &x), 0);
	assert_int_equal(kx(&x, "nfsd.scall"), 90);
	assert_int_equal(kx(&x, "nfsd.tcp"), 40);
	assert_int_equal(kx(&x, "nfsd.hit"), 11);
	assert_int_equal(kx(&x, "nfsd.sread"), 6);
	/* cpuinfo: hundredths of MHz, the rest cut (2600.456 -> 260045; 1200.5 -> 120050) */
	assert_int_equal(ptk_kx_read(&src, PTK_KX_CPUINFO, 3, &x), 0);
	assert_int_equal(kx(&x, "mhz.0"), 260045);
	assert_int_equal(kx(&x, "mhz.2"), 120050);
	/* USB: IDs in hexadecimal, bMaxPower in mA as sysfs has it, the strings escaped */
	ptk_xkvs_clear(&x);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_USB, 3, &x), 0);
	assert_int_equal(kx(&x, "usb.1-1.bus"), 1);
	assert_int_equal(kx(&x, "usb.1-1.idvendor"), 0x046d);
	assert_int_equal(kx(&x, "usb.1-1.idproduct"), 0xc077);
	assert_int_equal(kx(&x, "usb.1-1.maxpower"), 98);
	assert_int_equal(kx(&x, "usbs.1-1.manufacturer.Logi\\040tech"), 0);
	assert_true(ptk_xkvs_has_prefix(&x, "usbs.1-1.product."));
	assert_false(ptk_xkvs_has_prefix(&x, "usb.usb1."));
	/* Fibre Channel: hexadecimal; "zz" is no number: that counter is unknown */
	ptk_xkvs_clear(&x);
	assert_int_equal(ptk_kx_read(&src, PTK_KX_FCHOST, 3, &x), 0);
	assert_int_equal(kx(&x, "fc.host0.rx_frames"), 0x1a);
	assert_int_equal(kx(&x, "fc.host0.rx_words"), 0x100);
	assert_false(ptk_xkvs_get(&x, "fc.host0.tx_words", &v));
	/* filesystems only live: a tree has none */
	assert_int_equal(ptk_kx_read(&src, PTK_KX_FSYS, 3, &x), -EOPNOTSUPP);
	ptk_xkvs_free(&x);
}

static void test_escape(void **state)
{
	char e[256], u[256];
	const char *s = "a b.c\\d\t\xc3\xa9";

	(void)state;
	ptk_xkey_escape(s, e, sizeof(e));
	assert_null(strchr(e, ' '));
	assert_null(strchr(e, '.'));
	ptk_xkey_unescape(e, strlen(e), u, sizeof(u));
	assert_string_equal(u, s);
}

/* The activities over one snapshot of the tree (levels; since boot for the rates). */
static void test_activities(void **state)
{
	struct ptk_src src;
	struct ptk_snap s = { 0 };
	struct ptk_rows rs = { 0 };
	const struct ptk_act_opts o = { .per_cpu = true };
	const struct ptk_row *r;

	(void)state;
	src_of(&src);
	assert_int_equal(ptk_snap_read(&src, &s, PTK_SNAP_ALL), 0);
#define COL(a, m) ptk_act_col(&ptk_activities[a], PTK_M_##m)
	assert_int_equal(ptk_activities[PTK_ACT_SOCK].rows(NULL, &s, 0, &o, &rs), 0);
	assert_int_equal(rs.r[0].v[COL(PTK_ACT_SOCK, SOCK_TOT)].u, 321);
	assert_int_equal(rs.r[0].v[COL(PTK_ACT_SOCK, SOCK_TCPTW)].u, 7);
	/* file-nr: allocated less free; inode-nr: inodes less free ones */
	rs.n = 0;
	assert_int_equal(ptk_activities[PTK_ACT_KTABLES].rows(NULL, &s, 0, &o, &rs), 0);
	assert_int_equal(rs.r[0].v[COL(PTK_ACT_KTABLES, KT_FILE_NR)].u, 1632);
	assert_int_equal(rs.r[0].v[COL(PTK_ACT_KTABLES, KT_INODE_NR)].u, 60000 - 1500);
	assert_int_equal(rs.r[0].v[COL(PTK_ACT_KTABLES, KT_DENTUNUSD)].u, 45012);
	/* CPU MHz: all is the mean of the CPUs in whole hundredths: (260045 + 120050) / 2 */
	rs.n = 0;
	assert_int_equal(ptk_activities[PTK_ACT_PWR_CPU].rows(NULL, &s, 0, &o, &rs), 0);
	r = ptk_rows_find(&rs, "all");
	assert_non_null(r);
	assert_float_equal(r->v[COL(PTK_ACT_PWR_CPU, PWR_MHZ)].f, 1900.47, 1e-9);
	/* serial: a row per line with a UART's counters, rates since boot (100 s) */
	rs.n = 0;
	assert_int_equal(ptk_activities[PTK_ACT_SERIAL].rows(NULL, &s, 100, &o, &rs), 0);
	assert_int_equal(rs.n, 2);
	r = ptk_rows_find(&rs, "0");
	assert_non_null(r);
	assert_float_equal(r->v[COL(PTK_ACT_SERIAL, TTY_RCVIN)].f, 2.0, 1e-9);
	/* NFS without a previous sample: since boot */
	rs.n = 0;
	assert_int_equal(ptk_activities[PTK_ACT_NFS].rows(NULL, &s, 100, &o, &rs), 0);
	assert_float_equal(rs.r[0].v[COL(PTK_ACT_NFS, NFS_CALL)].f, 5.0, 1e-9);
#undef COL
	ptk_rows_free(&rs);
	ptk_snap_free(&s);
}

/* ext put/get and the archive's ext table give back every extended part written */
static void test_ext_roundtrip(void **state)
{
	struct ptk_src src;
	struct ptk_snap s = { 0 }, back = { 0 };
	struct ptk_xkvs a = { 0 }, b = { 0 };
	char dir[] = "/tmp/ptk-test-kx-XXXXXX", db[64], err[256];
	struct ptk_arc *arc;

	(void)state;
	src_of(&src);
	assert_int_equal(ptk_snap_read(&src, &s, PTK_SNAP_ALL), 0);
	assert_true(ptk_snap_has(&s, PTK_SNAP_INTERRUPTS));
	assert_true(ptk_snap_has(&s, PTK_SNAP_SOFTNET));
	assert_true(ptk_snap_has(&s, PTK_SNAP_KX + PTK_KX_USB));
	ptk_snap_ext_put(&s, &a);
	assert_true(a.n > 40);
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/a.db", dir);
	arc = ptk_arc_open(db, PTK_ARC_RDWR, err, sizeof(err));
	assert_non_null(arc);
	assert_int_equal(ptk_arc_write(arc, &s, 0, NULL, 0), 0);
	assert_int_equal(ptk_arc_load(arc, s.id, false, &back), 0);
	assert_string_equal(ptk_arc_impossible(arc), "");
	/* a count no kernel writes (2^63 and more: negative in the vector) makes its part
	 * unknown in that sample, named; the other parts stay */
	struct ptk_snap bad = { 0 };
	u64 intr0 = s.intr.v[0], sn0 = s.sn.c[0].processed;
	s.intr.v[0] = 1ull << 63;
	s.sn.c[0].processed = ~0ull;
	assert_int_equal(ptk_arc_write(arc, &s, 0, NULL, 0), 0);
	assert_int_equal(ptk_arc_load(arc, s.id, false, &bad), 0);
	const char *why = ptk_arc_impossible(arc);
	if (!strstr(why, "ext intr.0.") || !strstr(why, "-9223372036854775808 (negative)") ||
	    !strstr(why, "ext softnet.0.processed -1 (negative)"))
		fail_msg("not named: '%s'", why);
	assert_false(ptk_snap_has(&bad, PTK_SNAP_INTERRUPTS));
	assert_false(ptk_snap_has(&bad, PTK_SNAP_SOFTNET));
	assert_true(ptk_snap_has(&bad, PTK_SNAP_SOFTIRQS));
	assert_true(ptk_snap_has(&bad, PTK_SNAP_KX + PTK_KX_USB));
	s.intr.v[0] = intr0;
	s.sn.c[0].processed = sn0;
	ptk_snap_free(&bad);
	ptk_arc_close(arc);
	for (int g = 0; g < PTK_KX_NGROUPS; g++)
		if (g != PTK_KX_FSYS && g != PTK_KX_CPUFREQ)
			assert_int_equal(ptk_snap_has(&back, PTK_SNAP_KX + g),
					 ptk_snap_has(&s, PTK_SNAP_KX + g));
	assert_true(ptk_snap_has(&back, PTK_SNAP_SOFTIRQS));
	ptk_snap_ext_put(&back, &b);
	assert_int_equal(a.n, b.n);
	for (int i = 0; i < a.n; i++) {
		s64 v;
		if (!ptk_xkvs_get(&b, ptk_xkvs_key(&a, i), &v))
			fail_msg("%s lost in the archive", ptk_xkvs_key(&a, i));
		assert_int_equal(v, a.kv[i].val);
	}
	/* the offline CPU stays unknown, the listed ones keep their counts */
	assert_false(ptk_irqs_known(&back.intr, 1));
	assert_int_equal(ptk_irqs_get(&back.intr, ptk_irqs_find(&back.intr, "LOC", 0), 2), 2000);
	unlink(db);
	rmdir(dir);
	ptk_xkvs_free(&a);
	ptk_xkvs_free(&b);
	ptk_snap_free(&s);
	ptk_snap_free(&back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interrupts), cmocka_unit_test(test_softnet),
		cmocka_unit_test(test_kx_files),   cmocka_unit_test(test_escape),
		cmocka_unit_test(test_activities), cmocka_unit_test(test_ext_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
