// SPDX-License-Identifier: GPL-2.0
/* /proc/diskstats reader, partition detection and iostat -x rates (tests/fixtures/unit_disk);
 * /sys/block stat files and the /dev names of devices (tests/fixtures/unit_sysblock); the disk
 * activity's row: baselines, unknown and absent counters, groups. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "model/activity.h"
#include "model/delta.h"
#include "source/devname.h"
#include "source/procfs/procfs.h"

#define SB PTK_FIXTURES "/unit_sysblock/sys"
#define DEVROOT PTK_FIXTURES "/unit_sysblock/dev"

static void open_snap(struct ptk_src *src, int snap)
{
	assert_int_equal(ptk_src_init(src, PTK_FIXTURES "/unit_disk", NULL), 0);
	for (int i = 0; i < snap; i++)
		assert_int_equal(ptk_src_next(src), 0);
}

static const struct ptk_disk *find(const struct ptk_diskstats *ds, const char *name)
{
	const struct ptk_disk *d = ptk_diskstats_find(ds, name);

	if (!d)
		fail_msg("device %s not parsed", name);
	return d;
}

/* 17-, 11-, 15- and 4-counter lines, a partition before its disk, a 20-character name, and a
 * malformed line (sdc) that is skipped while the rest parses. */
static void test_diskstats_layouts(void **state)
{
	struct ptk_src src;
	struct ptk_diskstats ds = { 0 };
	static const u64 sda[PTK_DK_NFIELDS] = { 1000,	 100,  80000, 2000, 3000, 300,
						 240000, 6000, 2,     5000, 8000, 10,
						 0,	 800,  20,    50,   100 };
	const struct ptk_disk *d;

	open_snap(&src, 0);
	assert_int_equal(ptk_diskstats_read(&src, &ds), 0);
	assert_int_equal(ds.n, 12);
	assert_null(ptk_diskstats_find(&ds, "sdc"));

	d = find(&ds, "sda");
	assert_int_equal(d->major, 8);
	assert_int_equal(d->minor, 0);
	assert_int_equal(d->nfields, 17);
	for (int i = 0; i < PTK_DK_NFIELDS; i++)
		assert_int_equal(d->f[i], sda[i]);

	d = find(&ds, "sdb"); /* kernel < 4.18: 11 counters, no discard/flush */
	assert_int_equal(d->nfields, 11);
	assert_int_equal(d->f[PTK_DK_WR_IOS], 50000);
	assert_int_equal(d->f[PTK_DK_WR_SECTORS], 400000);
	assert_int_equal(d->f[PTK_DK_TIME_IN_QUEUE], 15);
	assert_int_equal(d->f[PTK_DK_DC_IOS], 0);
	assert_int_equal(d->f[PTK_DK_FL_IOS], 0);

	d = find(&ds, "nvme0n1"); /* kernel 4.18 - 5.4: 15 counters */
	assert_int_equal(d->major, 259);
	assert_int_equal(d->nfields, 15);
	assert_int_equal(d->f[PTK_DK_DC_IOS], 1);
	assert_int_equal(d->f[PTK_DK_DC_MERGES], 2);
	assert_int_equal(d->f[PTK_DK_DC_SECTORS], 3);
	assert_int_equal(d->f[PTK_DK_DC_TICKS], 4);
	assert_int_equal(d->f[PTK_DK_FL_IOS], 0);

	d = find(&ds, "hda1"); /* kernel < 2.6.25 partition: reads rd_sectors writes wr_sectors */
	assert_int_equal(d->nfields, 4);
	assert_int_equal(d->f[PTK_DK_RD_IOS], 35486);
	assert_int_equal(d->f[PTK_DK_RD_MERGES], 0);
	assert_int_equal(d->f[PTK_DK_RD_SECTORS], 38030);
	assert_int_equal(d->f[PTK_DK_WR_IOS], 38030);
	assert_int_equal(d->f[PTK_DK_WR_SECTORS], 38031);
	assert_true(d->is_partition);

	d = find(&ds, "hda");
	assert_int_equal(d->nfields, 11);
	assert_int_equal(d->f[PTK_DK_TIME_IN_QUEUE], 23705160);

	d = find(&ds, "rbd_long_device_name");
	assert_int_equal(strlen(d->name), 20);
	assert_int_equal(d->major, 252);
	assert_int_equal(d->f[PTK_DK_RD_SECTORS], 56);

	d = find(&ds, "sda1"); /* listed before sda */
	assert_int_equal(d->minor, 1);
	assert_int_equal(d->f[PTK_DK_RD_SECTORS], 14000);
	ptk_diskstats_free(&ds);
}

struct part_want {
	const char *name;
	bool part;
};

static void check_parts(const struct ptk_diskstats *ds, const struct part_want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ptk_disk *d = find(ds, w[i].name);
		if (d->is_partition != w[i].part)
			fail_msg("%s: is_partition %d, want %d", w[i].name, d->is_partition,
				 w[i].part);
	}
}

/* With <sysfs>/class/block: the "partition" file decides, even for odd names. */
static void test_partitions_sysfs(void **state)
{
	struct ptk_src src;
	struct ptk_diskstats ds = { 0 };
	static const struct part_want w[] = {
		{ "sda", false },     { "sda1", true },	     { "sdb", false },
		{ "nvme0n1", false }, { "nvme0n1p1", true }, { "hda", false },
		{ "hda1", true },     { "loop1", false },    { "loop10", false },
		{ "mmcblk0", false }, { "mmcblk0p1", true }, { "rbd_long_device_name", true },
	};

	open_snap(&src, 0);
	assert_int_equal(ptk_diskstats_read(&src, &ds), 0);
	check_parts(&ds, w, ARRAY_SIZE(w));
	ptk_diskstats_free(&ds);
}

/* Without sysfs (snapshot 1 has no sys/): the kernel's naming rule (disk_name()): a disk whose
 * name ends in a digit gets "p<N>" partitions, others "<N>". loop10 is not a partition of
 * loop1, nvme0n10 not of nvme0n1. */
static void test_partitions_by_name(void **state)
{
	struct ptk_src src;
	struct ptk_diskstats ds = { 0 };
	static const struct part_want w[] = {
		{ "sda", false },     { "sda1", true },	     { "sdb", false },
		{ "nvme0n1", false }, { "nvme0n1p1", true }, { "hda", false },
		{ "hda1", true },     { "loop1", false },    { "loop10", false },
		{ "mmcblk0", false }, { "mmcblk0p1", true }, { "rbd_long_device_name", false },
	};
	static const struct part_want w2[] = {
		{ "md1", false },     { "md12", false },     { "dm-1", false }, { "dm-10", false },
		{ "nvme0n1", false }, { "nvme0n10", false }, { "sdz", false },	{ "sdzp1", false },
		{ "sdz12", true },    { "md1p2", true },
	};

	open_snap(&src, 1);
	assert_int_equal(ptk_diskstats_read(&src, &ds), 0);
	assert_int_equal(ds.n, 12);
	check_parts(&ds, w, ARRAY_SIZE(w));

	assert_int_equal(ptk_diskstats_parse("9 1 md1 1 0 8 0 0 0 0 0 0 0 0\n"
					     "9 12 md12 1 0 8 0 0 0 0 0 0 0 0\n"
					     "253 1 dm-1 1 0 8 0 0 0 0 0 0 0 0\n"
					     "253 10 dm-10 1 0 8 0 0 0 0 0 0 0 0\n"
					     "259 0 nvme0n1 1 0 8 0 0 0 0 0 0 0 0\n"
					     "259 9 nvme0n10 1 0 8 0 0 0 0 0 0 0 0\n"
					     "65 160 sdz 1 0 8 0 0 0 0 0 0 0 0\n"
					     "65 161 sdzp1 1 0 8 0 0 0 0 0 0 0 0\n"
					     "65 172 sdz12 1 0 8 0 0 0 0 0 0 0 0\n"
					     "259 3 md1p2 1 0 8 0 0 0 0 0 0 0 0",
					     &ds),
			 0);
	assert_int_equal(ds.n, 10);
	check_parts(&ds, w2, ARRAY_SIZE(w2));
	ptk_diskstats_free(&ds);
}

static void test_diskstats_malformed(void **state)
{
	struct ptk_diskstats ds = { 0 };
	const struct ptk_disk *d;

	assert_int_equal(
		ptk_diskstats_parse("garbage\n"
				    "\n"
				    "   8 0 sda 1 2 3\n" /* 3 counters */
				    "   8 32 sdc 1 2 3 4 5 6 7 8 9 10\n" /* 10 counters */
				    "   8 48 sdd 1 2 3 4 5 6 7 8 9 10 11x\n"
				    "   x 0 sde 1 2 3 4 5 6 7 8 9 10 11\n"
				    "   8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n",
				    &ds),
		0);
	assert_int_equal(ds.n, 1);
	d = find(&ds, "sdb"); /* a future kernel's extra counters are dropped */
	assert_int_equal(d->nfields, 17);
	assert_int_equal(d->f[PTK_DK_FL_TICKS], 17);
	assert_int_equal(d->f[PTK_DK_RD_IOS], 1);
	assert_int_equal(ptk_diskstats_parse("", &ds), 0);
	assert_int_equal(ds.n, 0);
	ptk_diskstats_free(&ds);
}

/* sda between the two snapshots, 2.00 s apart (uptime 100.00 -> 102.00):
 * rd_ios +200 rd_merges +50 rd_sectors +16000 rd_ticks +600
 * wr_ios +400 wr_merges +100 wr_sectors +32000 wr_ticks +1800
 * io_ticks +1500 time_in_queue +3000, dc_ios +20 dc_merges +5 dc_sectors +800 dc_ticks +40,
 * fl_ios +20 fl_ticks +30. Formulas of sysstat compute_ext_disk_stats / iostat -x. */
static void test_disk_rates(void **state)
{
	struct ptk_src src;
	struct ptk_diskstats a = { 0 }, b = { 0 };
	struct ptk_uptime u0, u1;
	struct ptk_disk_rates r;

	open_snap(&src, 0);
	assert_int_equal(ptk_diskstats_read(&src, &a), 0);
	assert_int_equal(ptk_uptime_read(&src, &u0), 0);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_diskstats_read(&src, &b), 0);
	assert_int_equal(ptk_uptime_read(&src, &u1), 0);
	double itv = u1.up_s - u0.up_s;
	assert_float_equal(itv, 2.0, 1e-9);

	ptk_disk_rates(find(&a, "sda"), find(&b, "sda"), itv, &r);
	assert_true(r.has_discard);
	assert_true(r.has_flush);
	assert_float_equal(r.r_s, 100.0, 1e-9);
	assert_float_equal(r.w_s, 200.0, 1e-9);
	assert_float_equal(r.d_s, 10.0, 1e-9);
	assert_float_equal(r.f_s, 10.0, 1e-9);
	assert_float_equal(r.rkb_s, 4000.0, 1e-9);
	assert_float_equal(r.wkb_s, 8000.0, 1e-9);
	assert_float_equal(r.dkb_s, 200.0, 1e-9);
	assert_float_equal(r.rrqm_s, 25.0, 1e-9);
	assert_float_equal(r.wrqm_s, 50.0, 1e-9);
	assert_float_equal(r.drqm_s, 2.5, 1e-9);
	assert_float_equal(r.rrqm_pct, 20.0, 1e-9); /* 50 / (50 + 200) */
	assert_float_equal(r.wrqm_pct, 20.0, 1e-9); /* 100 / (100 + 400) */
	assert_float_equal(r.drqm_pct, 20.0, 1e-9); /* 5 / (5 + 20) */
	assert_float_equal(r.r_await, 3.0, 1e-9); /* 600 ms / 200 */
	assert_float_equal(r.w_await, 4.5, 1e-9); /* 1800 ms / 400 */
	assert_float_equal(r.d_await, 2.0, 1e-9);
	assert_float_equal(r.f_await, 1.5, 1e-9);
	assert_float_equal(r.rareq_sz, 40.0, 1e-9); /* 8000 kB / 200 */
	assert_float_equal(r.wareq_sz, 40.0, 1e-9);
	assert_float_equal(r.dareq_sz, 20.0, 1e-9);
	assert_float_equal(r.aqu_sz, 1.5, 1e-9); /* 3000 ms / 2000 ms */
	assert_float_equal(r.util, 75.0, 1e-9); /* 1500 ms / 2000 ms */
	assert_float_equal(r.tps, 310.0, 1e-9); /* r + w + d, flushes excluded */

	/* sdb recreated: writes 50000 -> 12, reads 10 -> 3: all rates 0, never a wrap */
	ptk_disk_rates(find(&a, "sdb"), find(&b, "sdb"), itv, &r);
	assert_false(r.has_discard);
	assert_float_equal(r.w_s, 0.0, 0);
	assert_float_equal(r.wkb_s, 0.0, 0);
	assert_float_equal(r.r_s, 0.0, 0);
	assert_float_equal(r.w_await, 0.0, 0);
	assert_float_equal(r.util, 0.0, 0);
	assert_float_equal(r.aqu_sz, 0.0, 0);
	assert_float_equal(r.tps, 0.0, 0);

	/* an idle device: 0 everywhere, no division by zero */
	ptk_disk_rates(find(&a, "hda1"), find(&b, "hda1"), itv, &r);
	assert_false(r.has_discard);
	assert_float_equal(r.r_await, 0.0, 0);
	assert_float_equal(r.rareq_sz, 0.0, 0);
	assert_float_equal(r.rrqm_pct, 0.0, 0);

	/* no interval: zeros */
	ptk_disk_rates(find(&a, "sda"), find(&b, "sda"), 0, &r);
	assert_float_equal(r.r_s, 0.0, 0);
	assert_float_equal(r.util, 0.0, 0);
	ptk_diskstats_free(&a);
	ptk_diskstats_free(&b);
}

/* %util is capped at 100 (io_ticks can run ahead of the wall clock by a tick). */
static void test_disk_util_cap(void **state)
{
	struct ptk_disk o = { .nfields = 11 }, n = { .nfields = 11 };
	struct ptk_disk_rates r;

	n.f[PTK_DK_RD_IOS] = 10;
	n.f[PTK_DK_IO_TICKS] = 1010;
	ptk_disk_rates(&o, &n, 1.0, &r);
	assert_float_equal(r.util, 100.0, 1e-9);
	assert_float_equal(r.r_s, 10.0, 1e-9);
}

static void test_delta_wrap_vs_reset(void **state)
{
	assert_int_equal(ptk_delta(5, 5), 0);
	assert_int_equal(ptk_delta(100, 350), 250);
	/* 32-bit counter wrapped: 0xfffffff0 -> 0x10 is 0x20 events */
	assert_int_equal(ptk_delta(0xfffffff0ull, 0x10), 0x20);
	assert_int_equal(ptk_delta(0xffffffffull, 0), 1);
	/* small drop: a reset (device recreated), not a wrap */
	assert_int_equal(ptk_delta(50000, 12), 0);
	assert_int_equal(ptk_delta(0x80000000ull, 0x10), 0);
	/* a 64-bit value going backwards is always a reset */
	assert_int_equal(ptk_delta(0x100000005ull, 3), 0);
	assert_int_equal(ptk_delta(~0ull, 0), 0);
	/* tick deltas clamp, never wrap */
	assert_int_equal(ptk_delta_ticks(0xfffffff0ull, 0x10), 0);
	assert_int_equal(ptk_delta_ticks(10, 25), 15);
	assert_float_equal(ptk_rate(100, 300, 2.0), 100.0, 1e-12);
	assert_float_equal(ptk_rate(0xfffffff0ull, 0x10, 2.0), 16.0, 1e-12);
	assert_float_equal(ptk_rate(100, 300, 0), 0.0, 0);
	assert_float_equal(ptk_rate(50000, 12, 1.0), 0.0, 0);
}

/* sysfs's per-device stat files: whole devices sorted, partitions of a device (the entries
 * holding a stat file), '!' for '/', old 4-counter partitions, the parent of a partition. */
static void test_sysblock(void **state)
{
	char **v, buf[64];
	struct ptk_disk d;
	int n;

	n = ptk_sysblock_devices(SB, &v);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "cciss!c0d0");
	assert_string_equal(v[1], "dm-0");
	assert_string_equal(v[2], "sda");
	assert_string_equal(v[3], "sdb");
	ptk_names_free(v, n);
	n = ptk_sysblock_partitions(SB, "sda", &v); /* queue/ holds no stat */
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "sda1");
	assert_string_equal(v[1], "sda2");
	ptk_names_free(v, n);
	n = ptk_sysblock_partitions(SB, "cciss/c0d0", &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "cciss!c0d0p1");
	ptk_names_free(v, n);
	assert_int_equal(ptk_sysblock_partitions(SB, "nosuch", &v), -ENOENT);

	assert_int_equal(ptk_sysblock_stat(SB, "sda", NULL, &d), 0);
	assert_string_equal(d.name, "sda");
	assert_false(d.is_partition);
	assert_int_equal(d.nfields, 17);
	assert_int_equal(d.f[PTK_DK_FL_TICKS], 14);
	assert_int_equal(ptk_sysblock_stat(SB, "cciss/c0d0", "cciss!c0d0p1", &d), 0);
	assert_string_equal(d.name, "cciss/c0d0p1");
	assert_true(d.is_partition);
	assert_int_equal(d.nfields, 11);
	assert_int_equal(d.f[PTK_DK_WR_IOS], 55711);
	assert_int_equal(ptk_sysblock_stat(SB, "sda", "sda2", &d), 0);
	assert_int_equal(d.nfields, 4);
	assert_int_equal(d.f[PTK_DK_WR_IOS], 2);
	assert_int_equal(d.f[PTK_DK_WR_SECTORS], 16);
	assert_true(ptk_disk_has(&d, PTK_DK_WR_SECTORS));
	assert_false(ptk_disk_has(&d, PTK_DK_RD_MERGES));
	assert_int_equal(ptk_sysblock_stat(SB, "sdb", NULL, &d), -ENOENT);

	assert_int_equal(ptk_sysblock_parent(SB, "sda2", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sda");
	assert_int_equal(ptk_sysblock_parent(SB, "cciss/c0d0p1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "cciss/c0d0");
	assert_int_equal(ptk_sysblock_parent(SB, "sda9", buf, sizeof(buf)), -ENOENT);
	assert_true(ptk_sysblock_is_device(SB, "cciss/c0d0"));
	assert_false(ptk_sysblock_is_device(SB, "sda1"));
}

/* A stat file whose counter is not a number: that field unknown, the others read. */
static void test_blockstat_bad_token(void **state)
{
	struct ptk_disk d = { 0 };

	assert_int_equal(ptk_blockstat_parse("1 2 3 4 5 6 x7 8 9 10 11 12 13 14 15\n", &d), 0);
	assert_int_equal(d.nfields, 15);
	assert_false(ptk_disk_has(&d, PTK_DK_WR_SECTORS));
	assert_true(ptk_disk_has(&d, PTK_DK_WR_TICKS));
	assert_int_equal(d.f[PTK_DK_WR_TICKS], 8);
	assert_int_equal(ptk_blockstat_parse("a b c d e f g h i j k\n", &d), -EINVAL);
	assert_int_equal(ptk_blockstat_parse("1 2 3\n", &d), -EINVAL);
	/* /proc/diskstats: the snapshot's reader leaves such a line out, iostat's keeps it */
	struct ptk_diskstats ds = { 0 };
	static const char txt[] =
		"8 0 sda 1 2 3 4 5 6 x7 8 9 10 11\n8 16 sdb 1 2 3 4 5 6 7 8 9 10 11\n";
	assert_int_equal(ptk_diskstats_parse(txt, &ds), 0);
	assert_int_equal(ds.n, 1);
	assert_int_equal(ptk_diskstats_parse_all(txt, &ds), 0);
	assert_int_equal(ds.n, 2);
	assert_int_equal(ds.d[0].bad, 1u << PTK_DK_WR_SECTORS);
	ptk_diskstats_free(&ds);
}

/* -N's device-mapper names and -j's persistent names: a real link, a file holding its target
 * (sysstat's test trees), the first of two names by name, none. */
static void test_devnames(void **state)
{
	char buf[64];

	assert_int_equal(ptk_dm_name(SB, DEVROOT, "dm-0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "vg-root"); /* sys/block/dm-0/dm/name */
	assert_int_equal(ptk_dm_name(NULL, DEVROOT, "dm-0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "vg-root"); /* dev/mapper/vg-root -> ../dm-0 */
	assert_int_equal(ptk_dm_name(SB, DEVROOT, "sda", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(ptk_dev_link(DEVROOT, "mapper/vg-root", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "dm-0");

	assert_true(ptk_persist_type_ok(DEVROOT, "id"));
	assert_true(ptk_persist_type_ok(DEVROOT, "label"));
	assert_false(ptk_persist_type_ok(DEVROOT, "uuid"));
	assert_false(ptk_persist_type_ok(DEVROOT, "../disk"));
	assert_int_equal(ptk_persist_name(DEVROOT, "id", "sda", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ata-DISK_1"); /* before wwn-0x5000 */
	assert_int_equal(ptk_persist_name(DEVROOT, "id", "sda1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ata-DISK_1-part1");
	assert_int_equal(ptk_persist_name(DEVROOT, "label", "sda1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ROOT");
	assert_int_equal(ptk_dev_link(DEVROOT, "disk/by-label/ROOT", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sda1");
	assert_int_equal(ptk_persist_name(DEVROOT, "id", "sdb", buf, sizeof(buf)), -ENOENT);
}

static struct ptk_disk mkdisk(int nfields, const u64 *f)
{
	struct ptk_disk d = { .nfields = nfields };

	memcpy(d.f, f, nfields * sizeof(u64));
	return d;
}

static const struct ptk_val *dcell(const struct ptk_row *r, enum ptk_mid m)
{
	int i = ptk_act_col(&ptk_activities[PTK_ACT_DISK], m);

	assert_true(i >= 0);
	return &r->v[i];
}
#define DEQ(r, m, x) assert_float_equal(dcell(r, PTK_M_DISK_##m)->f, (x), 1e-9)
#define DEQU(r, m, x) assert_int_equal(dcell(r, PTK_M_DISK_##m)->u, (x))
#define DNA(r, m) assert_true(dcell(r, PTK_M_DISK_##m)->na)

/*
 * The disk activity's row over 2 s. base: 1000 reads (8000 sectors, 4000 ms) 2000 writes
 * (16000 sectors, 6000 ms) io_ticks 3000, time_in_queue 9000, 11 counters (kernel < 4.18).
 */
static void test_disk_row(void **state)
{
	static const u64 a11[11] = { 1000, 10, 8000, 4000, 2000, 20, 16000, 6000, 0, 3000, 9000 };
	static const u64 b11[11] = { 1100, 20, 8800, 4200, 2300, 50, 18400, 6600, 1, 4000, 11000 };
	struct ptk_disk a = mkdisk(11, a11), b = mkdisk(11, b11);
	struct ptk_rows rs = { 0 };
	struct ptk_row *r = ptk_rows_add(&rs, "sdx");

	/* +100 reads (800 sectors, 200 ms), +300 writes (2400 sectors, 600 ms), in 2 s */
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 1, false), 0);
	DEQ(r, TPS, 200.0); /* (100 + 300) / 2: discards were writes before 4.18 */
	DEQ(r, R_S, 50.0);
	DEQ(r, WKB_S, 600.0);
	DEQ(r, KB_S, 800.0);
	DEQ(r, WDKB_S, 600.0);
	DEQ(r, RQM_S, 20.0);
	DEQ(r, AWAIT, 2.0); /* 800 ms / 400 */
	DEQ(r, UTIL, 50.0);
	DEQ(r, AQU_SZ, 1.0);
	DEQU(r, WDSECT, 2400);
	DNA(r, D_S); /* this kernel does not count discards apart */
	DNA(r, F_AWAIT);
	DNA(r, DKB_S);
	/* sysstat's layouts: a counter the line lacks counts 0 */
	r = ptk_rows_add(&rs, "sdx0");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 1, true), 0);
	DEQ(r, D_S, 0.0);
	DEQ(r, F_AWAIT, 0.0);
	DEQ(r, DKB_S, 0.0);

	/* one counter went back, the rest did not: only what needs it is unknown, and the
	 * field is reported */
	b.f[PTK_DK_WR_TICKS] = 5000;
	r = ptk_rows_add(&rs, "sdy");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 1, true), 1u << PTK_DK_WR_TICKS);
	DNA(r, W_AWAIT);
	DNA(r, AWAIT);
	DEQ(r, R_AWAIT, 2.0);
	DEQ(r, W_S, 150.0);
	b.f[PTK_DK_WR_TICKS] = 6600;

	/* a 32-bit tick counter that wrapped: unwrapped */
	a.f[PTK_DK_IO_TICKS] = 0xffffffc0ull; /* 64 ms before the wrap */
	b.f[PTK_DK_IO_TICKS] = 136; /* +200 ms */
	r = ptk_rows_add(&rs, "sdz");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 1, true), 0);
	DEQ(r, UTIL, 10.0);

	/* busy longer than the interval: %util unknown and io_ticks reported; a tick of
	 * quantisation (up to 101 %) reads 100 */
	a.f[PTK_DK_IO_TICKS] = 3000;
	b.f[PTK_DK_IO_TICKS] = 3000 + 2500;
	r = ptk_rows_add(&rs, "sdw");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 1, true), 1u << PTK_DK_IO_TICKS);
	DNA(r, UTIL);
	b.f[PTK_DK_IO_TICKS] = 3000 + 2010;
	r = ptk_rows_add(&rs, "sdw2");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 1, true), 0);
	DEQ(r, UTIL, 100.0);
	/* a group of 4 devices: %util is their mean */
	r = ptk_rows_add(&rs, " grp");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 2.0, 4, true), 0);
	DEQ(r, UTIL, 25.125);

	/* the uptime went back (another boot): rates unknown, counts kept */
	r = ptk_rows_add(&rs, "sdv");
	ptk_act_disk_row(r, &a, &b, -3.0, 1, true);
	DNA(r, R_S);
	DNA(r, UTIL);
	DEQU(r, RKB, 400);
	DEQ(r, R_AWAIT, 2.0);
	ptk_rows_free(&rs);
}

/* Recreated (sysstat's test: requests and every sector count went back, or were zero) or new:
 * from zero. Requests went back but sectors did not: implausible, not recreated. */
static void test_disk_row_baseline(void **state)
{
	static const u64 a15[15] = { 1000, 0, 8000, 400, 50, 0, 400, 10, 0, 500, 600, 0, 0, 0, 0 };
	static const u64 b15[15] = { 10, 0, 80, 4, 0, 0, 0, 0, 0, 5, 6, 2, 0, 16, 1 };
	struct ptk_disk a = mkdisk(15, a15), b = mkdisk(15, b15), sum;
	struct ptk_rows rs = { 0 };
	struct ptk_row *r = ptk_rows_add(&rs, "re");

	assert_true(ptk_disk_recreated(&a, &b));
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 1.0, 1, true), 0);
	DEQ(r, R_S, 10.0);
	DEQU(r, RKB, 40);
	DEQ(r, D_S, 2.0);
	DEQ(r, TPS, 12.0);
	r = ptk_rows_add(&rs, "new");
	assert_int_equal(ptk_act_disk_row(r, NULL, &b, 1.0, 1, true), 0);
	DEQU(r, RSECT, 80);
	DEQU(r, DSECT, 16);

	b.f[PTK_DK_WR_SECTORS] = 500; /* written sectors grew: not recreated */
	assert_false(ptk_disk_recreated(&a, &b));
	r = ptk_rows_add(&rs, "odd");
	assert_int_equal(ptk_act_disk_row(r, &a, &b, 1.0, 1, true),
			 (1u << PTK_DK_RD_IOS) | (1u << PTK_DK_RD_SECTORS) |
				 (1u << PTK_DK_RD_TICKS) | (1u << PTK_DK_WR_IOS) |
				 (1u << PTK_DK_WR_TICKS) | (1u << PTK_DK_IO_TICKS) |
				 (1u << PTK_DK_TIME_IN_QUEUE));
	DNA(r, R_S);
	DEQ(r, WKB_S, 50.0);

	/* a group: sums, holding the fields every member has */
	ptk_disk_sum(&sum, &a, true);
	ptk_disk_sum(&sum, &b, false);
	assert_int_equal(sum.f[PTK_DK_RD_IOS], 1010);
	assert_int_equal(sum.nfields, 15);
	struct ptk_disk old = mkdisk(11, a15);
	ptk_disk_sum(&sum, &old, false);
	assert_int_equal(sum.nfields, 11);
	assert_int_equal(sum.f[PTK_DK_RD_IOS], 2010);
	ptk_rows_free(&rs);
}

/* The disk activity's rows: a device that has only flushed since boot has none (sadc's
 * unused device, as sysstat's sar -d: root3's sdc of sysstat's 01760), nor one without any
 * request; o->unused keeps both. */
static void test_disk_rows_unused(void **state)
{
	static const u64 used[17] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 24, 1 };
	static const u64 flushed[17] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 2145 };
	struct ptk_disk d[3] = { mkdisk(17, used), mkdisk(17, flushed), mkdisk(17, flushed) };
	struct ptk_snap s = { 0 };
	struct ptk_act_opts all = { .unused = true };
	struct ptk_rows rs = { 0 };

	d[2].f[PTK_DK_FL_IOS] = 0;
	snprintf(d[0].name, sizeof(d[0].name), "sdd");
	snprintf(d[1].name, sizeof(d[1].name), "sdc");
	snprintf(d[2].name, sizeof(d[2].name), "sde");
	s.read = PTK_SNAP_BIT(PTK_SNAP_DISKSTATS);
	s.ds.n = 3;
	s.ds.d = d;
	assert_int_equal(ptk_activities[PTK_ACT_DISK].rows(NULL, &s, 1.0, NULL, &rs), 0);
	assert_int_equal(rs.n, 1); /* sdd: 3 discards */
	assert_non_null(ptk_rows_find(&rs, "sdd"));
	assert_null(ptk_rows_find(&rs, "sdc"));
	rs.n = 0;
	assert_int_equal(ptk_activities[PTK_ACT_DISK].rows(NULL, &s, 1.0, &all, &rs), 0);
	assert_int_equal(rs.n, 3);
	assert_non_null(ptk_rows_find(&rs, "sdc"));
	ptk_rows_free(&rs);
}

/* tests/fixtures/iostat_sysfs, three samples 2 s apart, each device's sysfs stat file:
 * sdb is recreated in sample 1 (its requests and sectors went back): it counts from zero;
 * sdc appears in sample 1: its I/O since it appeared; sda's wr_ios goes back alone in sample 2:
 * only what needs it is unknown, and the field is named; sdb's line has 11 counters (a kernel
 * before 4.18): discards and flushes unknown, or 0 in sysstat's layouts. */
static void test_disk_row_tree(void **state)
{
	struct ptk_src src;
	struct ptk_disk d[3][3];
	static const char *const dev[3] = { "sda", "sdb", "sdc" };
	struct ptk_rows rs = { 0 };
	struct ptk_row *r;
	char root[PATH_MAX];

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/iostat_sysfs", NULL), 0);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(ptk_src_path(&src, PTK_SYS, "", root, sizeof(root)), 0);
		for (int i = 0; i < 3; i++)
			assert_int_equal(ptk_sysblock_stat(root, dev[i], NULL, &d[k][i]),
					 k == 0 && i == 2 ? -ENOENT : 0);
		if (k < 2)
			assert_int_equal(ptk_src_next(&src), 0);
	}
	/* sdb: 500 reads -> 30 (4000 sectors -> 240), 100 writes -> 10: recreated */
	r = ptk_rows_add(&rs, "sdb");
	assert_true(ptk_disk_recreated(&d[0][1], &d[1][1]));
	assert_int_equal(ptk_act_disk_row(r, &d[0][1], &d[1][1], 2.0, 1, false), 0);
	DEQ(r, R_S, 15.0);
	DEQ(r, RKB_S, 60.0);
	DEQ(r, W_S, 5.0);
	DEQ(r, UTIL, 1.0);
	DNA(r, D_S);
	DNA(r, F_S);
	r = ptk_rows_add(&rs, "sdb0");
	ptk_act_disk_row(r, &d[0][1], &d[1][1], 2.0, 1, true);
	DEQ(r, D_S, 0.0);
	DEQ(r, F_AWAIT, 0.0);
	/* sdc: no previous sample: 20 reads, 160 sectors, 4 flushes (8 ms) since it appeared */
	r = ptk_rows_add(&rs, "sdc");
	assert_int_equal(ptk_act_disk_row(r, NULL, &d[1][2], 2.0, 1, false), 0);
	DEQ(r, R_S, 10.0);
	DEQ(r, RKB_S, 40.0);
	DEQ(r, F_S, 2.0);
	DEQ(r, F_AWAIT, 2.0);
	/* sda 0 -> 1: +200 reads (1600 sectors, 100 ms), +400 writes, +4 discards (32 sectors,
	 * 2 ms), io_ticks +200, time_in_queue +300; 15 counters: no flushes */
	r = ptk_rows_add(&rs, "sda");
	assert_int_equal(ptk_act_disk_row(r, &d[0][0], &d[1][0], 2.0, 1, false), 0);
	DEQ(r, TPS, 302.0); /* (200 + 400 + 4) / 2 */
	DEQ(r, R_AWAIT, 0.5);
	DEQ(r, D_S, 2.0);
	DEQ(r, DKB_S, 8.0);
	DEQ(r, D_AWAIT, 0.5);
	DEQ(r, AQU_SZ, 0.15);
	DEQ(r, UTIL, 10.0);
	DNA(r, F_S);
	/* sda 1 -> 2: writes 2400 -> 2300 while sectors grew */
	r = ptk_rows_add(&rs, "sda2");
	assert_int_equal(ptk_act_disk_row(r, &d[1][0], &d[2][0], 2.0, 1, true),
			 1u << PTK_DK_WR_IOS);
	DNA(r, W_S);
	DNA(r, W_AWAIT);
	DNA(r, WRQM_PCT);
	DNA(r, TPS);
	DEQ(r, WKB_S, 800.0);
	DEQ(r, R_S, 100.0);
	ptk_rows_free(&rs);
}

static void test_rotational(void **state)
{
	struct ptk_src src;

	open_snap(&src, 0);
	assert_int_equal(ptk_disk_rotational_read(&src, "sda"), 1);
	assert_int_equal(ptk_disk_rotational_read(&src, "nvme0n1"), 0);
	assert_int_equal(ptk_disk_rotational_read(&src, "nosuchdev"), -ENOENT);
	assert_int_equal(ptk_disk_rotational_read(&src, "weird"), -EINVAL);
	assert_int_equal(ptk_src_next(&src), 0); /* snapshot 1 has no sysfs */
	assert_int_equal(ptk_disk_rotational_read(&src, "sda"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diskstats_layouts),
		cmocka_unit_test(test_partitions_sysfs),
		cmocka_unit_test(test_partitions_by_name),
		cmocka_unit_test(test_diskstats_malformed),
		cmocka_unit_test(test_disk_rates),
		cmocka_unit_test(test_disk_util_cap),
		cmocka_unit_test(test_delta_wrap_vs_reset),
		cmocka_unit_test(test_rotational),
		cmocka_unit_test(test_sysblock),
		cmocka_unit_test(test_blockstat_bad_token),
		cmocka_unit_test(test_devnames),
		cmocka_unit_test(test_disk_row),
		cmocka_unit_test(test_disk_row_baseline),
		cmocka_unit_test(test_disk_row_tree),
		cmocka_unit_test(test_disk_rows_unused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
