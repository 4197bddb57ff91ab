/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter deltas and rates. Counters are 64-bit; a counter that goes backwards is either a
 * 32-bit wrap (old value fits in 32 bits and the jump back is more than half the range) or a
 * reset (device recreated, module reloaded). A reset yields 0 for the interval, never a
 * huge wrapped value.
 */
#ifndef PTK_MODEL_DELTA_H
#define PTK_MODEL_DELTA_H

#include "lib/util.h"
#include "source/procfs/procfs.h"

/* Delta of a monotonically increasing counter, with wrap and reset detection. */
static inline u64 ptk_delta(u64 old, u64 new)
{
	if (new >= old)
		return new - old;
	if (old <= 0xffffffffull && old - new > 0x80000000ull)
		return (0xffffffffull - old) + new + 1; /* 32-bit counter wrapped */
	return 0; /* reset */
}

/* Delta of a tick counter that may legitimately go backwards by a little (iowait on
 * NO_HZ kernels, see Documentation/filesystems/proc.rst): backwards clamps to 0. */
static inline u64 ptk_delta_ticks(u64 old, u64 new)
{
	return new >= old ? new - old : 0;
}

/* Rate per second of a counter delta over interval_s (0 when interval_s <= 0). */
static inline double ptk_rate(u64 old, u64 new, double interval_s)
{
	return interval_s > 0 ? (double)ptk_delta(old, new) / interval_s : 0.0;
}

/*
 * Ticks of one CPU line between two reads into d[state], as ptk_cpu_pct counts them (a field
 * that went backwards counts 0; guest and guest_nice at most user and nice, which hold them).
 * Returns the total: every state but guest and guest_nice.
 */
u64 ptk_cpu_ticks(const struct ptk_cpu_times *old, const struct ptk_cpu_times *new,
		  u64 d[PTK_CPU_NSTATES]);

/*
 * Percentages of one CPU line between two reads: pct[state] for every state, with
 * guest/guest_nice reported separately but not counted in the total (they are inside
 * user/nice already). Fields that go backwards count 0, so the row always sums to 100
 * (or to 0 when no tick passed, in which case idle is set to 100, as sysstat does).
 * Returns the total ticks of the interval.
 */
u64 ptk_cpu_pct(const struct ptk_cpu_times *old, const struct ptk_cpu_times *new,
		double pct[PTK_CPU_NSTATES]);

/* Convenience: busy% = 100 - idle - iowait of a pct row. */
static inline double ptk_cpu_busy(const double pct[PTK_CPU_NSTATES])
{
	double b = 100.0 - pct[PTK_CPU_IDLE] - pct[PTK_CPU_IOWAIT];
	return b < 0 ? 0 : b;
}

/*
 * Per-device extended statistics between two /proc/diskstats reads, as sysstat iostat -x
 * computes them (rd_stats.c compute_ext_disk_stats). interval_s is the wall interval.
 */
struct ptk_disk_rates {
	double r_s, w_s, d_s, f_s; /* requests completed per second */
	double rkb_s, wkb_s, dkb_s; /* kB per second */
	double rrqm_s, wrqm_s, drqm_s; /* merges per second */
	double rrqm_pct, wrqm_pct, drqm_pct; /* merged / (merged + issued) % */
	double r_await, w_await, d_await, f_await; /* ms per request */
	double rareq_sz, wareq_sz, dareq_sz; /* kB per request */
	double aqu_sz; /* avg requests in queue (time_in_queue/interval) */
	double util; /* % of the interval with >= 1 request in flight */
	double tps; /* r_s + w_s + d_s (iostat's tps; flushes excluded) */
	bool has_discard, has_flush;
};
void ptk_disk_rates(const struct ptk_disk *old, const struct ptk_disk *new, double interval_s,
		    struct ptk_disk_rates *r);

#endif
