/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tables of procps-ng vmstat's other modes, from a snapshot: -s (the event counter
 * table), -D (the disk summary), -d and -p (a device's counters), -m (slab caches). The
 * command lays them out; the values come from here so text and JSON agree.
 */
#ifndef PTK_MODEL_PROCPS_H
#define PTK_MODEL_PROCPS_H

#include "model/activity.h"

/* One line of vmstat -s. */
struct ptk_vmstats_line {
	const char *label; /* what procps prints after the number ("total memory") */
	const char *key; /* JSON key */
	bool mem; /* kB: printed in the -S unit, its letter before the label */
	struct ptk_val v; /* u64; na when the snapshot lacks it */
};
#define PTK_VMSTATS_N 28

/*
 * vmstat -s's lines in procps 4.0.2's order: memory and swap (the memory and swap
 * activities: used = MemTotal - MemAvailable, "swap cache" = Cached + SReclaimable as procps
 * names it), the /proc/stat cpu ticks (USER_HZ), pgpgin/pgpgout (kB), pswpin/pswpout (pages),
 * intr, ctxt, btime and processes. A value whose file or line is missing is na.
 */
void ptk_vmstats(const struct ptk_snap *s, struct ptk_vmstats_line out[PTK_VMSTATS_N]);

/* vmstat -D: the counters of the whole disks summed, and how many disks and partitions. */
struct ptk_disksum {
	u64 disks, partitions;
	u64 f[PTK_DK_NFIELDS]; /* sums of the disks' /proc/diskstats counters (ms, sectors) */
};
void ptk_disksum(const struct ptk_diskstats *ds, struct ptk_disksum *out);

/* vmstat -m: the caches of si sorted by name (strcmp, as procps sorts them), in place. */
void ptk_slabinfo_sort(struct ptk_slabinfo *si);

#endif
