// SPDX-License-Identifier: GPL-2.0
/* /proc/net/dev, /proc/net/snmp, /proc/net/netstat, /sys/class/net/IF/speed
 * (tests/fixtures/unit_net). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "source/procfs/procfs.h"

static void open_net(struct ptk_src *src)
{
	assert_int_equal(ptk_src_init(src, PTK_FIXTURES "/unit_net", NULL), 0);
	assert_true(src->replay);
}

static const struct ptk_netdev *find(const struct ptk_netdevs *nd, const char *name)
{
	const struct ptk_netdev *d = ptk_netdev_find(nd, name);

	if (!d)
		fail_msg("interface %s not parsed", name);
	return d;
}

/* Two header lines skipped; names with dots, dashes and 15 characters (IFNAMSIZ - 1). */
static void test_netdev(void **state)
{
	struct ptk_src src;
	struct ptk_netdevs nd = { 0 };
	const struct ptk_netdev *d;
	static const u64 eth0[PTK_ND_NFIELDS] = { 9876543210ull, 1234567, 1, 2, 3, 4,  5,  6,
						  1234567890,	 765432,  7, 8, 9, 10, 11, 12 };

	open_net(&src);
	assert_int_equal(ptk_netdev_read(&src, &nd), 0);
	assert_int_equal(nd.n, 4);
	assert_string_equal(nd.d[0].name, "lo");
	assert_string_equal(nd.d[1].name, "eth0");
	assert_string_equal(nd.d[2].name, "eth0.100");
	assert_string_equal(nd.d[3].name, "br-3f2a9c01d7e4");

	d = find(&nd, "lo");
	assert_int_equal(d->f[PTK_ND_RX_BYTES], 123456);
	assert_int_equal(d->f[PTK_ND_TX_PACKETS], 789);
	d = find(&nd, "eth0");
	for (int i = 0; i < PTK_ND_NFIELDS; i++)
		assert_int_equal(d->f[i], eth0[i]);
	d = find(&nd, "eth0.100");
	assert_int_equal(d->f[PTK_ND_RX_BYTES], 1000);
	assert_int_equal(d->f[PTK_ND_TX_BYTES], 2000);
	assert_int_equal(d->f[PTK_ND_TX_PACKETS], 20);
	d = find(&nd, "br-3f2a9c01d7e4");
	for (int i = 0; i < PTK_ND_NFIELDS; i++)
		assert_int_equal(d->f[i], i + 1);
	assert_null(ptk_netdev_find(&nd, "eth1"));
	ptk_netdev_free(&nd);
}

/* Truncated lines (fewer than 16 counters) are skipped; "name:value" without a space parses. */
static void test_netdev_edge(void **state)
{
	struct ptk_netdevs nd = { 0 };

	assert_int_equal(ptk_netdev_parse("Inter-|   Receive |  Transmit\n"
					  " face |bytes packets|bytes packets\n"
					  "  eth1: 1 2 3\n"
					  "  eth2:5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
					  &nd),
			 0);
	assert_int_equal(nd.n, 1);
	assert_string_equal(nd.d[0].name, "eth2");
	assert_int_equal(nd.d[0].f[PTK_ND_RX_BYTES], 5);
	assert_int_equal(nd.d[0].f[PTK_ND_TX_COMPRESSED], 20);
	ptk_netdev_free(&nd);
}

/* snmp + netstat in one list: "Proto.Name" keys, signed values (Tcp MaxConn is -1). */
static void test_netsnmp(void **state)
{
	struct ptk_src src;
	struct ptk_kvs kvs = { 0 };
	s64 v;

	open_net(&src);
	assert_int_equal(ptk_netsnmp_read(&src, &kvs), 0);
	/* Ip 19 + Icmp 29 + IcmpMsg 2 + Tcp 15 + Udp 9 + UdpLite 9 + TcpExt 21 + IpExt 8 */
	assert_int_equal(kvs.n, 112);
	assert_true(ptk_kvs_get(&kvs, "Tcp.RetransSegs", &v));
	assert_int_equal(v, 4321);
	assert_true(ptk_kvs_get(&kvs, "Tcp.MaxConn", &v));
	assert_int_equal(v, -1);
	assert_true(ptk_kvs_get(&kvs, "Tcp.OutSegs", &v));
	assert_int_equal(v, 1504522);
	assert_true(ptk_kvs_get(&kvs, "Tcp.InCsumErrors", &v)); /* last of its line */
	assert_int_equal(v, 0);
	assert_true(ptk_kvs_get(&kvs, "Ip.Forwarding", &v));
	assert_int_equal(v, 2);
	assert_true(ptk_kvs_get(&kvs, "IcmpMsg.OutType3", &v));
	assert_int_equal(v, 45);
	assert_true(ptk_kvs_get(&kvs, "Udp.NoPorts", &v));
	assert_int_equal(v, 45);
	assert_true(ptk_kvs_get(&kvs, "UdpLite.MemErrors", &v));
	assert_int_equal(v, 0);
	assert_true(ptk_kvs_get(&kvs, "TcpExt.ListenOverflows", &v));
	assert_int_equal(v, 1234);
	assert_true(ptk_kvs_get(&kvs, "TcpExt.ListenDrops", &v));
	assert_int_equal(v, 1240);
	assert_true(ptk_kvs_get(&kvs, "TcpExt.TCPTimeouts", &v));
	assert_int_equal(v, 56);
	assert_true(ptk_kvs_get(&kvs, "IpExt.InOctets", &v));
	assert_int_equal(v, 18446744073709ll);
	assert_false(ptk_kvs_get(&kvs, "Tcp.NoSuchCounter", &v));
	assert_false(ptk_kvs_get(&kvs, "ListenOverflows", &v));

	/* a second read starts over instead of appending */
	assert_int_equal(ptk_netsnmp_read(&src, &kvs), 0);
	assert_int_equal(kvs.n, 112);
	ptk_kvs_free(&kvs);
}

static void test_netsnmp_bad(void **state)
{
	struct ptk_src src;
	struct ptk_kvs kvs = { 0 };
	s64 v;

	/* names and values of different protocols: not an snmp file */
	assert_int_equal(ptk_netsnmp_parse("Tcp: A B\nUdp: 1 2\n", &kvs), -EINVAL);
	assert_int_equal(ptk_netsnmp_parse("no colon\nat all\n", &kvs), -EINVAL);
	kvs.n = 0;
	assert_int_equal(ptk_netsnmp_parse("Tcp: A B\nTcp: 7 -8\n", &kvs), 0);
	assert_int_equal(kvs.n, 2);
	assert_true(ptk_kvs_get(&kvs, "Tcp.B", &v));
	assert_int_equal(v, -8);
	/* a tree without net/: the errno of the read */
	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/unit_stat", NULL), 0);
	assert_int_equal(ptk_netsnmp_read(&src, &kvs), -ENOENT);
	ptk_kvs_free(&kvs);
}

/* /sys/class/net/IF/speed: Mb/s; -1 (virtual NIC, link down) is unknown, not a speed. */
static void test_net_speed(void **state)
{
	struct ptk_src src;
	long mbps = 42;

	open_net(&src);
	assert_int_equal(ptk_net_speed_read(&src, "eth0", &mbps), 0);
	assert_int_equal(mbps, 10000);
	assert_int_equal(ptk_net_speed_read(&src, "veth-a.1", &mbps), -EINVAL);
	assert_int_equal(ptk_net_speed_read(&src, "lo", &mbps), -ENOENT);
	assert_int_equal(ptk_net_speed_read(&src, "nosuchif", &mbps), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netdev),	  cmocka_unit_test(test_netdev_edge),
		cmocka_unit_test(test_netsnmp),	  cmocka_unit_test(test_netsnmp_bad),
		cmocka_unit_test(test_net_speed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
