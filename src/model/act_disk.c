// SPDX-License-Identifier: GPL-2.0
/*
 * The io and disk activities: /proc/diskstats counters (block/genhd.c diskstats_show; fields
 * in Documentation/admin-guide/iostats.rst) over the interval, as sysstat's sar -b, sar -d
 * and iostat -x compute them (rd_stats.c compute_ext_disk_stats). A device whose counters
 * went back was recreated, and one that appeared has no previous sample: both count from
 * zero, as sysstat does.
 */
#include <string.h>

#include "model/act.h"
#include "model/delta.h"

static const struct ptk_disk *disk_find(const struct ptk_snap *s, const struct ptk_disk *d)
{
	for (int i = 0; i < s->ds.n; i++)
		if (s->ds.d[i].major == d->major && s->ds.d[i].minor == d->minor &&
		    !strcmp(s->ds.d[i].name, d->name))
			return &s->ds.d[i];
	return NULL;
}

static bool disk_restarted(const struct ptk_disk *a, const struct ptk_disk *b)
{
	for (int f = 0; f < PTK_DK_NFIELDS; f++)
		if (f != PTK_DK_IN_FLIGHT && b->f[f] < a->f[f])
			return true;
	return false;
}

/* The previous sample of device b to count from: its own, or zeros when it has none or its
 * counters restarted. */
static const struct ptk_disk *disk_base(const struct ptk_snap *prev, const struct ptk_disk *b)
{
	static const struct ptk_disk zero;
	const struct ptk_disk *a = prev ? disk_find(prev, b) : NULL;

	return !a || disk_restarted(a, b) ? &zero : a;
}

/* counter f of device b since its base a */
static u64 dk(const struct ptk_disk *a, const struct ptk_disk *b, int f)
{
	return b->f[f] - a->f[f];
}

static bool disk_both(const struct ptk_snap *prev, const struct ptk_snap *cur)
{
	return ptk_snap_has(cur, PTK_SNAP_DISKSTATS) &&
	       (!prev || ptk_snap_has(prev, PTK_SNAP_DISKSTATS));
}

const enum ptk_mid ptk_act_io_mids[] = {
	PTK_M_DISK_TPS, PTK_M_IO_RTPS,	PTK_M_IO_WTPS,	PTK_M_IO_DTPS,
	PTK_M_IO_BREAD, PTK_M_IO_BWRTN, PTK_M_IO_BDSCD, PTK_M_NONE,
};

/* Whole disks summed (partitions would count their requests twice). */
ACT_ROWS_FN(ptk_act_io_rows)
{
	const enum ptk_mid *ids = ptk_act_io_mids;
	struct ptk_row *r = ptk_rows_add(out, "");
	u64 rd = 0, wr = 0, dc = 0, rs = 0, ws = 0, ds = 0;

	if (!disk_both(prev, cur))
		return 0;
	for (int i = 0; i < cur->ds.n; i++) {
		const struct ptk_disk *b = &cur->ds.d[i], *a = disk_base(prev, b);

		if (b->is_partition)
			continue;
		rd += dk(a, b, PTK_DK_RD_IOS);
		wr += dk(a, b, PTK_DK_WR_IOS);
		dc += dk(a, b, PTK_DK_DC_IOS);
		rs += dk(a, b, PTK_DK_RD_SECTORS);
		ws += dk(a, b, PTK_DK_WR_SECTORS);
		ds += dk(a, b, PTK_DK_DC_SECTORS);
	}
#define PER_S(x) PTK_F(itv_s > 0 ? (double)(x) / itv_s : 0)
	ACT_SET(ids, r, PTK_M_DISK_TPS, PER_S(rd + wr + dc));
	ACT_SET(ids, r, PTK_M_IO_RTPS, PER_S(rd));
	ACT_SET(ids, r, PTK_M_IO_WTPS, PER_S(wr));
	ACT_SET(ids, r, PTK_M_IO_DTPS, PER_S(dc));
	ACT_SET(ids, r, PTK_M_IO_BREAD, PER_S(rs));
	ACT_SET(ids, r, PTK_M_IO_BWRTN, PER_S(ws));
	ACT_SET(ids, r, PTK_M_IO_BDSCD, PER_S(ds));
#undef PER_S
	return 0;
}

const enum ptk_mid ptk_act_disk_mids[] = {
	PTK_M_DISK_DEV,	     PTK_M_DISK_TPS,	  PTK_M_DISK_R_S,      PTK_M_DISK_W_S,
	PTK_M_DISK_D_S,	     PTK_M_DISK_F_S,	  PTK_M_DISK_RKB_S,    PTK_M_DISK_WKB_S,
	PTK_M_DISK_DKB_S,    PTK_M_DISK_RRQM_S,	  PTK_M_DISK_WRQM_S,   PTK_M_DISK_DRQM_S,
	PTK_M_DISK_RRQM_PCT, PTK_M_DISK_WRQM_PCT, PTK_M_DISK_DRQM_PCT, PTK_M_DISK_R_AWAIT,
	PTK_M_DISK_W_AWAIT,  PTK_M_DISK_D_AWAIT,  PTK_M_DISK_F_AWAIT,  PTK_M_DISK_RAREQ_SZ,
	PTK_M_DISK_WAREQ_SZ, PTK_M_DISK_DAREQ_SZ, PTK_M_DISK_AREQ_SZ,  PTK_M_DISK_AQU_SZ,
	PTK_M_DISK_AWAIT,    PTK_M_DISK_SVCTM,	  PTK_M_DISK_UTIL,     PTK_M_DISK_RKB,
	PTK_M_DISK_WKB,	     PTK_M_DISK_DKB,	  PTK_M_NONE,
};

static u64 disk_ios(const struct ptk_disk *d)
{
	return d->f[PTK_DK_RD_IOS] + d->f[PTK_DK_WR_IOS] + d->f[PTK_DK_DC_IOS];
}

static void disk_row(struct ptk_row *r, const struct ptk_disk *a, const struct ptk_disk *b,
		     double itv_s)
{
	const enum ptk_mid *ids = ptk_act_disk_mids;
	struct ptk_disk_rates dr;
	u64 ios = disk_ios(b) - disk_ios(a);
	u64 sect = dk(a, b, PTK_DK_RD_SECTORS) + dk(a, b, PTK_DK_WR_SECTORS) +
		   dk(a, b, PTK_DK_DC_SECTORS);
	u64 ticks =
		dk(a, b, PTK_DK_RD_TICKS) + dk(a, b, PTK_DK_WR_TICKS) + dk(a, b, PTK_DK_DC_TICKS);

	ptk_disk_rates(a, b, itv_s, &dr);
#define SET(m, x) ACT_SET(ids, r, PTK_M_DISK_##m, PTK_F(x))
	SET(TPS, itv_s > 0 ? ios / itv_s : 0);
	SET(R_S, dr.r_s);
	SET(W_S, dr.w_s);
	SET(RKB_S, dr.rkb_s);
	SET(WKB_S, dr.wkb_s);
	SET(RRQM_S, dr.rrqm_s);
	SET(WRQM_S, dr.wrqm_s);
	SET(RRQM_PCT, dr.rrqm_pct);
	SET(WRQM_PCT, dr.wrqm_pct);
	SET(R_AWAIT, dr.r_await);
	SET(W_AWAIT, dr.w_await);
	SET(RAREQ_SZ, dr.rareq_sz);
	SET(WAREQ_SZ, dr.wareq_sz);
	SET(AREQ_SZ, ios ? sect / 2.0 / ios : 0);
	SET(AQU_SZ, dr.aqu_sz);
	SET(AWAIT, ios ? (double)ticks / ios : 0);
	SET(SVCTM, ios ? (double)dk(a, b, PTK_DK_IO_TICKS) / ios : 0);
	SET(UTIL, dr.util);
	ACT_SET(ids, r, PTK_M_DISK_RKB, PTK_U(dk(a, b, PTK_DK_RD_SECTORS) / 2));
	ACT_SET(ids, r, PTK_M_DISK_WKB, PTK_U(dk(a, b, PTK_DK_WR_SECTORS) / 2));
	if (b->nfields >= 15) { /* discards: kernel >= 4.18 */
		ACT_SET(ids, r, PTK_M_DISK_DKB, PTK_U(dk(a, b, PTK_DK_DC_SECTORS) / 2));
		SET(D_S, dr.d_s);
		SET(DKB_S, dr.dkb_s);
		SET(DRQM_S, dr.drqm_s);
		SET(DRQM_PCT, dr.drqm_pct);
		SET(D_AWAIT, dr.d_await);
		SET(DAREQ_SZ, dr.dareq_sz);
	}
	if (b->nfields >= 17) { /* flushes: kernel >= 5.5 */
		SET(F_S, dr.f_s);
		SET(F_AWAIT, dr.f_await);
	}
#undef SET
}

/* A row per whole disk (and partition, o->partitions) that has completed a request since
 * boot (every device too, o->unused), in /proc/diskstats order. */
ACT_ROWS_FN(ptk_act_disk_rows)
{
	if (!disk_both(prev, cur))
		return 0;
	for (int i = 0; i < cur->ds.n; i++) {
		const struct ptk_disk *b = &cur->ds.d[i];

		if (b->is_partition && !(o && o->partitions))
			continue;
		if (!disk_ios(b) && !(o && o->unused))
			continue;
		const struct ptk_disk *a = prev ? disk_find(prev, b) : NULL;
		struct ptk_row *r = ptk_rows_add(out, b->name);

		if (o && o->restart_zero && prev && (!a || disk_restarted(a, b))) {
			if (a) /* went back: 0 for the interval */
				disk_row(r, b, b, itv_s);
			continue; /* appeared: no baseline, unknown */
		}
		disk_row(r, disk_base(prev, b), b, itv_s);
	}
	return 0;
}
