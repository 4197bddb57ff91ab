// SPDX-License-Identifier: GPL-2.0
/*
 * The io and disk activities: block device counters (/proc/diskstats, or the same per device
 * from /sys/block/DEV/stat; fields in Documentation/admin-guide/iostats.rst) over the
 * interval, as sysstat's sar -b, sar -d and iostat compute them (rd_stats.c
 * compute_ext_disk_stats, iostat.c write_ext_stat).
 *
 * Baselines, as sysstat's iostat write_stats and sar's check_disk_reg: a device with no
 * previous sample (since boot, or it appeared) counts from zero; one whose request count went
 * back while each of its sector counts went back or was zero was recreated, and counts from
 * zero too. Any other counter that went back is implausible (a 32-bit tick counter that
 * wrapped is unwrapped): the values computed from it are unknown this interval, and the
 * caller learns which field it was.
 */
#include <string.h>

#include "model/act.h"
#include "model/delta.h"

static const struct ptk_disk zero_disk;

static const struct ptk_disk *disk_find(const struct ptk_snap *s, const struct ptk_disk *d)
{
	for (int i = 0; i < s->ds.n; i++)
		if (s->ds.d[i].major == d->major && s->ds.d[i].minor == d->minor &&
		    !strcmp(s->ds.d[i].name, d->name))
			return &s->ds.d[i];
	return NULL;
}

static u64 ios_sum(const struct ptk_disk *d)
{
	return d->f[PTK_DK_RD_IOS] + d->f[PTK_DK_WR_IOS] + d->f[PTK_DK_DC_IOS] +
	       d->f[PTK_DK_FL_IOS];
}

bool ptk_disk_recreated(const struct ptk_disk *a, const struct ptk_disk *b)
{
	static const int sect[] = { PTK_DK_RD_SECTORS, PTK_DK_WR_SECTORS, PTK_DK_DC_SECTORS };

	if (ios_sum(b) >= ios_sum(a))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(sect); i++)
		if (a->f[sect[i]] && b->f[sect[i]] >= a->f[sect[i]])
			return false;
	return true;
}

/* The previous sample of device b to count from: its own, or zeros (none, or recreated). */
static const struct ptk_disk *disk_base(const struct ptk_snap *prev, const struct ptk_disk *b)
{
	const struct ptk_disk *a = prev ? disk_find(prev, b) : NULL;

	return !a || ptk_disk_recreated(a, b) ? &zero_disk : a;
}

/* The deltas of one device over the interval, and which of them are known. */
struct dk {
	u64 d[PTK_DK_NFIELDS];
	bool ok[PTK_DK_NFIELDS];
	unsigned bad; /* 1 << field: went back (implausible), or there but not a number */
};

/*
 * Deltas of b since a (a zeros: since zero). A field either line lacks is unknown; with
 * absent_zero it counts 0 (so a field that appears counts from 0).
 */
static void dk_deltas(const struct ptk_disk *a, const struct ptk_disk *b, bool absent_zero,
		      struct dk *k)
{
	memset(k, 0, sizeof(*k));
	for (int f = 0; f < PTK_DK_NFIELDS; f++) {
		bool in_b = ptk_disk_has(b, f), in_a = a == &zero_disk || ptk_disk_has(a, f);
		u64 o = a->f[f], n = b->f[f];

		if ((b->bad | a->bad) & (1u << f)) {
			k->bad |= 1u << f;
			continue;
		}
		if (!in_b || !in_a) {
			if (!absent_zero)
				continue;
			if (!in_a && in_b)
				k->d[f] = n; /* counted from 0 */
			k->ok[f] = true;
			continue;
		}
		if (f == PTK_DK_IN_FLIGHT) {
			k->d[f] = n;
		} else if (n >= o) {
			k->d[f] = n - o;
		} else if (o <= 0xffffffffull && o - n > 0x80000000ull) {
			k->d[f] = (0xffffffffull - o) + n + 1; /* a 32-bit counter wrapped */
		} else {
			k->bad |= 1u << f;
			continue;
		}
		k->ok[f] = true;
	}
}

/* Before 4.18 discards were written requests and before 5.5 flushes too: in the sums they
 * stand for nothing of their own when the line lacks them. */
static bool dk_or0(const struct dk *k, int f, const struct ptk_disk *b)
{
	return k->ok[f] || (!ptk_disk_has(b, f) && !(k->bad & (1u << f)));
}

const enum ptk_mid ptk_act_io_mids[] = {
	PTK_M_DISK_TPS, PTK_M_IO_RTPS,	PTK_M_IO_WTPS,	PTK_M_IO_DTPS,
	PTK_M_IO_BREAD, PTK_M_IO_BWRTN, PTK_M_IO_BDSCD, PTK_M_NONE,
};

/* Whole disks summed (partitions would count their requests twice). */
ACT_ROWS_FN(ptk_act_io_rows)
{
	static const int fs[] = { PTK_DK_RD_IOS,     PTK_DK_WR_IOS,	PTK_DK_DC_IOS,
				  PTK_DK_RD_SECTORS, PTK_DK_WR_SECTORS, PTK_DK_DC_SECTORS };
	static const enum ptk_mid ms[] = { PTK_M_IO_RTPS,  PTK_M_IO_WTPS,  PTK_M_IO_DTPS,
					   PTK_M_IO_BREAD, PTK_M_IO_BWRTN, PTK_M_IO_BDSCD };
	const enum ptk_mid *ids = ptk_act_io_mids;
	struct ptk_row *r;
	u64 sum[ARRAY_SIZE(fs)] = { 0 };
	bool ok[ARRAY_SIZE(fs)];

	if (!ptk_snap_has(cur, PTK_SNAP_DISKSTATS) ||
	    (prev && !ptk_snap_has(prev, PTK_SNAP_DISKSTATS)))
		return 0;
	r = ptk_rows_add(out, "");
	for (size_t j = 0; j < ARRAY_SIZE(fs); j++)
		ok[j] = true;
	for (int i = 0; i < cur->ds.n; i++) {
		const struct ptk_disk *b = &cur->ds.d[i];
		struct dk k;

		if (b->is_partition)
			continue;
		dk_deltas(disk_base(prev, b), b, false, &k);
		for (size_t j = 0; j < ARRAY_SIZE(fs); j++) {
			if (dk_or0(&k, fs[j], b))
				sum[j] += k.d[fs[j]];
			else
				ok[j] = false;
		}
	}
	if (itv_s <= 0)
		return 0;
	for (size_t j = 0; j < ARRAY_SIZE(fs); j++)
		if (ok[j])
			ACT_SET(ids, r, ms[j], PTK_F(sum[j] / itv_s));
	if (ok[0] && ok[1] && ok[2])
		ACT_SET(ids, r, PTK_M_DISK_TPS, PTK_F((sum[0] + sum[1] + sum[2]) / itv_s));
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
	PTK_M_DISK_WKB,	     PTK_M_DISK_DKB,	  PTK_M_DISK_KB_S,     PTK_M_DISK_RQM_S,
	PTK_M_DISK_WDKB_S,   PTK_M_DISK_RSECT,	  PTK_M_DISK_WSECT,    PTK_M_DISK_DSECT,
	PTK_M_DISK_WDSECT,   PTK_M_NONE,
};

/* %util above this share of the interval is more than the clock's quantisation: the busy
 * time grew by more than the time that passed */
#define UTIL_MAX_PCT 101.0

unsigned ptk_act_disk_row(struct ptk_row *r, const struct ptk_disk *base,
			  const struct ptk_disk *cur, double itv_s, int nmembers, bool absent_zero)
{
	const enum ptk_mid *ids = ptk_act_disk_mids;
	const struct ptk_disk *a = base ? base : &zero_disk, *b = cur;
	struct dk k;

	for (int i = 0; i < PTK_ROW_MAXCOLS; i++)
		r->v[i] = PTK_NA;
	if (a != &zero_disk && ptk_disk_recreated(a, b))
		a = &zero_disk;
	dk_deltas(a, b, absent_zero, &k);
	const u64 *d = k.d;
	bool rate = itv_s > 0;
	/* known: every field of the list known; or0: discards and flushes may be absent */
#define OK(f) (k.ok[PTK_DK_##f])
#define OR0(f) dk_or0(&k, PTK_DK_##f, b)
#define D(f) ((double)d[PTK_DK_##f])
#define SETF(m, cond, x)                                           \
	do {                                                       \
		if (cond)                                          \
			ACT_SET(ids, r, PTK_M_DISK_##m, PTK_F(x)); \
	} while (0)
#define SETU(m, cond, x)                                           \
	do {                                                       \
		if (cond)                                          \
			ACT_SET(ids, r, PTK_M_DISK_##m, PTK_U(x)); \
	} while (0)
#define PER(x, n) ((n) ? (double)(x) / (n) : 0.0)
#define PCT(m, i) ((m) + (i) ? 100.0 * (m) / ((m) + (i)) : 0.0)
	/* an average per request is 0 without requests, whatever its time counter */
#define AVG(m, t, n, x, scale) SETF(m, OK(n) && (OK(t) || !d[PTK_DK_##n]), PER(x, D(n)) * (scale))

	SETF(TPS, rate && OK(RD_IOS) && OK(WR_IOS) && OR0(DC_IOS),
	     (D(RD_IOS) + D(WR_IOS) + D(DC_IOS)) / itv_s);
	SETF(R_S, rate && OK(RD_IOS), D(RD_IOS) / itv_s);
	SETF(W_S, rate && OK(WR_IOS), D(WR_IOS) / itv_s);
	SETF(D_S, rate && OK(DC_IOS), D(DC_IOS) / itv_s);
	SETF(F_S, rate && OK(FL_IOS), D(FL_IOS) / itv_s);
	SETF(RKB_S, rate && OK(RD_SECTORS), D(RD_SECTORS) / 2 / itv_s);
	SETF(WKB_S, rate && OK(WR_SECTORS), D(WR_SECTORS) / 2 / itv_s);
	SETF(DKB_S, rate && OK(DC_SECTORS), D(DC_SECTORS) / 2 / itv_s);
	SETF(KB_S, rate && OK(RD_SECTORS) && OK(WR_SECTORS) && OR0(DC_SECTORS),
	     (D(RD_SECTORS) + D(WR_SECTORS) + D(DC_SECTORS)) / 2 / itv_s);
	SETF(WDKB_S, rate && OK(WR_SECTORS) && OR0(DC_SECTORS),
	     (D(WR_SECTORS) + D(DC_SECTORS)) / 2 / itv_s);
	SETF(RRQM_S, rate && OK(RD_MERGES), D(RD_MERGES) / itv_s);
	SETF(WRQM_S, rate && OK(WR_MERGES), D(WR_MERGES) / itv_s);
	SETF(DRQM_S, rate && OK(DC_MERGES), D(DC_MERGES) / itv_s);
	SETF(RQM_S, rate && OK(RD_MERGES) && OK(WR_MERGES) && OR0(DC_MERGES),
	     (D(RD_MERGES) + D(WR_MERGES) + D(DC_MERGES)) / itv_s);
	SETF(RRQM_PCT, OK(RD_MERGES) && OK(RD_IOS), PCT(D(RD_MERGES), D(RD_IOS)));
	SETF(WRQM_PCT, OK(WR_MERGES) && OK(WR_IOS), PCT(D(WR_MERGES), D(WR_IOS)));
	SETF(DRQM_PCT, OK(DC_MERGES) && OK(DC_IOS), PCT(D(DC_MERGES), D(DC_IOS)));
	AVG(R_AWAIT, RD_TICKS, RD_IOS, D(RD_TICKS), 1);
	AVG(W_AWAIT, WR_TICKS, WR_IOS, D(WR_TICKS), 1);
	AVG(D_AWAIT, DC_TICKS, DC_IOS, D(DC_TICKS), 1);
	AVG(F_AWAIT, FL_TICKS, FL_IOS, D(FL_TICKS), 1);
	AVG(RAREQ_SZ, RD_SECTORS, RD_IOS, D(RD_SECTORS), 0.5);
	AVG(WAREQ_SZ, WR_SECTORS, WR_IOS, D(WR_SECTORS), 0.5);
	AVG(DAREQ_SZ, DC_SECTORS, DC_IOS, D(DC_SECTORS), 0.5);
	{
		bool ios = OK(RD_IOS) && OK(WR_IOS) && OR0(DC_IOS);
		double n = D(RD_IOS) + D(WR_IOS) + D(DC_IOS);
		bool sect = OK(RD_SECTORS) && OK(WR_SECTORS) && OR0(DC_SECTORS);
		bool ticks = OK(RD_TICKS) && OK(WR_TICKS) && OR0(DC_TICKS);

		SETF(AREQ_SZ, ios && (sect || !n),
		     PER(D(RD_SECTORS) + D(WR_SECTORS) + D(DC_SECTORS), n) / 2);
		SETF(AWAIT, ios && (ticks || !n), PER(D(RD_TICKS) + D(WR_TICKS) + D(DC_TICKS), n));
		SETF(SVCTM, ios && (OK(IO_TICKS) || !n), PER(D(IO_TICKS), n));
	}
	SETF(AQU_SZ, rate && OK(TIME_IN_QUEUE), D(TIME_IN_QUEUE) / itv_s / 1000.0);
	if (rate && OK(IO_TICKS)) {
		double util = D(IO_TICKS) / itv_s / 10.0 / (nmembers > 0 ? nmembers : 1);
		if (util > UTIL_MAX_PCT)
			k.bad |= 1u << PTK_DK_IO_TICKS;
		else
			SETF(UTIL, true, util > 100.0 ? 100.0 : util);
	}
	SETU(RKB, OK(RD_SECTORS), d[PTK_DK_RD_SECTORS] / 2);
	SETU(WKB, OK(WR_SECTORS), d[PTK_DK_WR_SECTORS] / 2);
	SETU(DKB, OK(DC_SECTORS), d[PTK_DK_DC_SECTORS] / 2);
	SETU(RSECT, OK(RD_SECTORS), d[PTK_DK_RD_SECTORS]);
	SETU(WSECT, OK(WR_SECTORS), d[PTK_DK_WR_SECTORS]);
	SETU(DSECT, OK(DC_SECTORS), d[PTK_DK_DC_SECTORS]);
	SETU(WDSECT, OK(WR_SECTORS) && OR0(DC_SECTORS),
	     d[PTK_DK_WR_SECTORS] + d[PTK_DK_DC_SECTORS]);
#undef AVG
#undef PCT
#undef PER
#undef SETU
#undef SETF
#undef D
#undef OR0
#undef OK
	return k.bad;
}

void ptk_disk_sum(struct ptk_disk *sum, const struct ptk_disk *d, bool first)
{
	if (first) {
		*sum = *d;
		return;
	}
	for (int f = 0; f < PTK_DK_NFIELDS; f++)
		sum->f[f] += d->f[f];
	sum->bad |= d->bad;
	/* a field is the group's when every member has it; an old 4-field partition line has
	 * the four counters every layout has */
	if (d->nfields < sum->nfields)
		sum->nfields = d->nfields;
}

/* Has d been used, as sadc counts it (its read_diskstats_disk): a read, a write or a
 * discard since boot. A flush alone does not count (sadc does not read the flush fields). */
static bool disk_used(const struct ptk_disk *d)
{
	return d->f[PTK_DK_RD_IOS] || d->f[PTK_DK_WR_IOS] || d->f[PTK_DK_DC_IOS];
}

/* A row per whole disk (and partition, o->partitions) that has been used since boot (a read,
 * write or discard, as sadc: every device too with o->unused), in /proc/diskstats order. */
ACT_ROWS_FN(ptk_act_disk_rows)
{
	if (!ptk_snap_has(cur, PTK_SNAP_DISKSTATS) ||
	    (prev && !ptk_snap_has(prev, PTK_SNAP_DISKSTATS)))
		return 0;
	for (int i = 0; i < cur->ds.n; i++) {
		const struct ptk_disk *b = &cur->ds.d[i];

		if (b->is_partition && !(o && o->partitions))
			continue;
		if (!disk_used(b) && !(o && o->unused))
			continue;
		ptk_act_disk_row(ptk_rows_add(out, b->name), disk_base(prev, b), b, itv_s, 1,
				 o && o->absent_zero);
	}
	return 0;
}
