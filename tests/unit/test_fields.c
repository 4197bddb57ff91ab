// SPDX-License-Identifier: GPL-2.0
/*
 * The field tables of the counter files (source/procfs/procfs.h): every field is found by its
 * kernel key, or at its position for a positional file; the units, kinds and minimum field
 * counts are the ones the parsers and the kernel use; names are unique (they are the
 * archive's columns); a snapshot written back as text parses to the same values and presence.
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

#include "output/archive.h"
#include "source/snap.h"

/* keys: unique but in PSI, where each line has the same ones */
static void assert_unique_names(const struct ptk_field_desc *f, int n, bool keys)
{
	for (int i = 0; i < n; i++) {
		assert_non_null(f[i].key);
		assert_non_null(f[i].name);
		assert_non_null(f[i].unit);
		for (int j = 0; j < i; j++) {
			assert_string_not_equal(f[i].name, f[j].name);
			if (keys)
				assert_string_not_equal(f[i].key, f[j].key);
		}
	}
}

/* /proc/stat: each line by its key, alone in the file, present with its value; the others
 * absent; the cpu columns at their positions */
static void test_stat_fields(void **state)
{
	struct ptk_stat st = { 0 };
	char text[256];

	assert_unique_names(ptk_stat_fields, PTK_ST_NFIELDS, true);
	assert_unique_names(ptk_cpu_fields, PTK_CPU_NSTATES, true);
	for (int i = 0; i < PTK_ST_NFIELDS; i++) {
		snprintf(text, sizeof(text), "cpu  1 2 3 4\n%s %d 5 6\nsoftirq 9 9\n",
			 ptk_stat_fields[i].key, 100 + i);
		assert_int_equal(ptk_stat_parse(text, &st), 0);
		for (int j = 0; j < PTK_ST_NFIELDS; j++) {
			assert_int_equal(ptk_stat_has(&st, j), i == j);
			assert_int_equal(ptk_field_u64(&ptk_stat_fields[j], &st),
					 i == j ? 100 + i : 0);
		}
	}
	/* every line the kernel writes (fs/proc/stat.c), in its order */
	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\n"
					"intr 4000 1 2 3\nctxt 5000\nbtime 1700000000\n"
					"processes 60\nprocs_running 3\nprocs_blocked 1\n"
					"softirq 77 1 2\n",
					&st),
			 0);
	assert_int_equal(st.has, (1u << PTK_ST_NFIELDS) - 1);
	assert_int_equal(st.intr, 4000);
	assert_int_equal(st.ctxt, 5000);
	assert_int_equal(st.btime, 1700000000);
	assert_int_equal(st.processes, 60);
	assert_int_equal(st.procs_running, 3);
	assert_int_equal(st.procs_blocked, 1);
	for (int k = 0; k < PTK_CPU_NSTATES; k++) {
		assert_int_equal(ptk_field_u64(&ptk_cpu_fields[k], &st.all), k + 1);
		assert_string_equal(ptk_cpu_fields[k].unit, "ticks");
		assert_false(ptk_cpu_fields[k].gauge);
	}
	/* node_exporter's modes: the 8 states, then guest time as user and nice */
	assert_string_equal(ptk_cpu_fields[PTK_CPU_STEAL].prom, "node_cpu_seconds_total");
	assert_string_equal(ptk_cpu_fields[PTK_CPU_GUEST].prom, "node_cpu_guest_seconds_total");
	assert_string_equal(ptk_cpu_fields[PTK_CPU_GUEST].label, "user");
	assert_string_equal(ptk_cpu_fields[PTK_CPU_GUEST_NICE].label, "nice");
	/* a value that is not a number is an error, never a 0 */
	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4\nctxt x\n", &st), -EINVAL);
	ptk_stat_free(&st);
}

static void test_loadavg_uptime_fields(void **state)
{
	struct ptk_loadavg la;

	assert_unique_names(ptk_loadavg_fields, PTK_LA_NFIELDS, true);
	assert_int_equal(ptk_loadavg_parse("0.50 1.25 2.00 3/400 5678\n", &la), 0);
	static const double want[] = { 0.5, 1.25, 2.0, 3, 400, 5678 };
	for (int i = 0; i < PTK_LA_NFIELDS; i++) {
		assert_true(ptk_field_f64(&ptk_loadavg_fields[i], &la) == want[i]);
		assert_true(ptk_loadavg_fields[i].gauge);
	}
	assert_int_equal(ptk_field_u64(&ptk_loadavg_fields[PTK_LA_NR_THREADS], &la), 400);
	struct ptk_uptime up;
	up.up_s = 12.34;
	up.idle_s = 56.78;
	assert_true(ptk_field_f64(&ptk_uptime_fields[PTK_UP_UPTIME], &up) == 12.34);
	assert_true(ptk_field_f64(&ptk_uptime_fields[PTK_UP_IDLE], &up) == 56.78);
	assert_int_equal(ptk_uptime_fields[PTK_UP_IDLE].type, PTK_FT_F64);
}

/* diskstats: each counter at its position in a 17-counter line; a line of n counters holds
 * exactly the fields whose min_fields <= n (the 4-counter partition line: ios and sectors) */
static void test_disk_fields(void **state)
{
	struct ptk_diskstats ds = { 0 };
	static const int layouts[] = { 4, 11, 15, 17 };
	char text[512];

	assert_unique_names(ptk_disk_fields, PTK_DK_NFIELDS, true);
	for (size_t l = 0; l < ARRAY_SIZE(layouts); l++) {
		int n = layouts[l], len;
		len = snprintf(text, sizeof(text), "   8       0 sda");
		for (int k = 0; k < n; k++)
			len += snprintf(text + len, sizeof(text) - len, " %d", 100 + k);
		snprintf(text + len, sizeof(text) - len, "\n");
		assert_int_equal(ptk_diskstats_parse(text, &ds), 0);
		assert_int_equal(ds.n, 1);
		assert_int_equal(ds.d[0].nfields, n);
		int held = 0;
		for (int i = 0; i < PTK_DK_NFIELDS; i++) {
			u64 v = ptk_field_u64(&ptk_disk_fields[i], &ds.d[0]);
			if (ptk_disk_fields[i].min_fields <= n) {
				/* the 4-counter line: rd_ios rd_sectors wr_ios wr_sectors */
				assert_int_equal(v, 100 + (n == 4 ? held : i));
				held++;
			} else {
				assert_int_equal(v, 0);
			}
		}
		assert_int_equal(held, n);
	}
	assert_string_equal(ptk_disk_fields[PTK_DK_RD_SECTORS].unit, "sectors");
	assert_string_equal(ptk_disk_fields[PTK_DK_IO_TICKS].unit, "ms");
	assert_true(ptk_disk_fields[PTK_DK_IN_FLIGHT].gauge); /* the only level */
	for (int i = 0; i < PTK_DK_NFIELDS; i++)
		assert_int_equal(ptk_disk_fields[i].gauge, i == PTK_DK_IN_FLIGHT);
	ptk_diskstats_free(&ds);
}

/* net/dev: the keys are the header's direction and column names, as the tree writer prints
 * the header; the values at their positions */
static void test_netdev_fields(void **state)
{
	struct ptk_snap s = { 0 };
	struct ptk_netdevs nd = { 0 };
	char dir[] = "/tmp/ptk-fields.XXXXXX", path[PATH_MAX], text[4096];

	assert_unique_names(ptk_netdev_fields, PTK_ND_NFIELDS, true);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ptk_stat_parse("cpu  1 2 3 4\nbtime 1\n", &s.st), 0);
	s.nd.n = s.nd.cap = 1;
	s.nd.d = xcalloc(1, sizeof(*s.nd.d));
	snprintf(s.nd.d[0].name, sizeof(s.nd.d[0].name), "eth0");
	for (int k = 0; k < PTK_ND_NFIELDS; k++)
		s.nd.d[0].f[k] = 1000 + k;
	assert_int_equal(ptk_snap_write_tree(&s, dir), 0);
	snprintf(path, sizeof(path), "%s/net/dev", dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	/* " face |bytes packets ...|bytes packets ..." */
	char *hdr = strstr(text, " face |");
	assert_non_null(hdr);
	hdr += 7;
	int k = 0;
	for (int dirn = 0; dirn < 2; dirn++) {
		char *end = dirn ? strchr(hdr, '\n') : strchr(hdr, '|');
		assert_non_null(end);
		*end = '\0';
		for (char *save = NULL, *w = strtok_r(hdr, " ", &save); w;
		     w = strtok_r(NULL, " ", &save), k++) {
			char key[64];
			snprintf(key, sizeof(key), "%s_%s", dirn ? "transmit" : "receive", w);
			assert_string_equal(ptk_netdev_fields[k].key, key);
		}
		hdr = end + 1;
	}
	assert_int_equal(k, PTK_ND_NFIELDS);
	/* and read back: each value at its column */
	struct ptk_src src;
	assert_int_equal(ptk_src_init(&src, dir, NULL), 0);
	assert_int_equal(ptk_netdev_read(&src, &nd), 0);
	assert_int_equal(nd.n, 1);
	for (int i = 0; i < PTK_ND_NFIELDS; i++)
		assert_int_equal(ptk_field_u64(&ptk_netdev_fields[i], &nd.d[0]), 1000 + i);
	ptk_netdev_free(&nd);
	ptk_snap_free(&s);
	ptk_arc_rmtree(dir);
}

/* PSI: a file written from the keys parses to the table's values; a file without a "full"
 * line (cpu before 5.13) holds only the "some" fields */
static void test_psi_fields(void **state)
{
	struct ptk_psi psi;
	char text[512];
	int len = 0;

	for (int r = 0; r < PTK_PSI_NRES; r++)
		assert_unique_names(ptk_psi_fields[r], PTK_PSI_NFIELDS, false);
	for (int i = 0; i < PTK_PSI_NFIELDS; i++) {
		const struct ptk_field_desc *f = &ptk_psi_fields[PTK_PSI_IO][i];
		if (i % 4 == 0)
			len += snprintf(text + len, sizeof(text) - len, "%s%s", i ? "\n" : "",
					i ? "full" : "some");
		if (f->type == PTK_FT_F64)
			len += snprintf(text + len, sizeof(text) - len, " %s=%d.25", f->key, i);
		else
			len += snprintf(text + len, sizeof(text) - len, " %s=%d", f->key, 1000 + i);
	}
	snprintf(text + len, sizeof(text) - len, "\n");
	assert_int_equal(ptk_psi_parse(text, &psi), 0);
	for (int i = 0; i < PTK_PSI_NFIELDS; i++) {
		const struct ptk_field_desc *f = &ptk_psi_fields[PTK_PSI_IO][i];
		assert_true(ptk_psi_has(&psi, i));
		if (f->type == PTK_FT_F64)
			assert_true(ptk_field_f64(f, &psi) == i + 0.25);
		else
			assert_int_equal(ptk_field_u64(f, &psi), 1000 + i);
	}
	*strstr(text, "\nfull") = '\0';
	assert_int_equal(ptk_psi_parse(text, &psi), 0);
	for (int i = 0; i < PTK_PSI_NFIELDS; i++)
		assert_int_equal(ptk_psi_has(&psi, i), i < PTK_PSI_FULL_AVG10);
	/* the totals are node_exporter's families, in seconds */
	assert_string_equal(ptk_psi_fields[PTK_PSI_MEMORY][PTK_PSI_FULL_TOTAL].prom,
			    "node_pressure_memory_stalled_seconds_total");
	assert_string_equal(ptk_psi_fields[PTK_PSI_CPU][PTK_PSI_SOME_TOTAL].unit, "us");
	assert_string_equal(ptk_psi_fields[PTK_PSI_CPU][PTK_PSI_SOME_AVG10].name,
			    "psi_cpu_some_avg10");
}

static void test_snmp_fields(void **state)
{
	struct ptk_kvs kvs = { 0 };

	assert_unique_names(ptk_snmp_fields, PTK_SN_NFIELDS, true);
	assert_int_equal(ptk_netsnmp_parse("Tcp: RtoAlgorithm ActiveOpens InSegs OutSegs "
					   "RetransSegs InErrs MaxConn\n"
					   "Tcp: 1 2 30 40 5 6 -1\n",
					   &kvs),
			 0);
	static const s64 want[PTK_SN_NFIELDS] = { 40, 5, 30, 6 };
	for (int i = 0; i < PTK_SN_NFIELDS; i++) {
		s64 v;
		assert_true(ptk_kvs_get(&kvs, ptk_snmp_fields[i].key, &v));
		assert_int_equal(v, want[i]);
	}
	ptk_kvs_free(&kvs);
}

/* the snapshot's groups: every field of every group once, the archive's column names unique */
static void test_snap_groups(void **state)
{
	const char *names[256];
	int n = 0;

	for (int g = 0; g < PTK_SNAP_NGROUPS; g++)
		for (int f = 0; f < ptk_snap_groups[g].n; f++) {
			names[n] = ptk_snap_groups[g].fields[f].name;
			for (int j = 0; j < n; j++)
				assert_string_not_equal(names[j], names[n]);
			n++;
		}
	assert_int_equal(n, PTK_UP_NFIELDS + PTK_ST_NFIELDS + PTK_LA_NFIELDS + PTK_MI_NFIELDS +
				    PTK_VM_NFIELDS + PTK_PSI_NRES * PTK_PSI_NFIELDS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_fields), cmocka_unit_test(test_loadavg_uptime_fields),
		cmocka_unit_test(test_disk_fields), cmocka_unit_test(test_netdev_fields),
		cmocka_unit_test(test_psi_fields),  cmocka_unit_test(test_snmp_fields),
		cmocka_unit_test(test_snap_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
