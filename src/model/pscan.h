/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the exporter keeps of the process table between scans: context switches per thread
 * group, counted since the group was first seen (as ptk cswtop -g prefix groups threads), and
 * the top-N processes by CPU over the last scan interval.
 */
#ifndef PTK_MODEL_PSCAN_H
#define PTK_MODEL_PSCAN_H

#include "source/procfs/pid.h"

#define PTK_TG_MAX 2000 /* thread-group series; more go to process="(other)" */

struct ptk_tgroup {
	char process[64]; /* comm of the thread group leader */
	char group[64]; /* ptk_pool_name() of the thread's comm */
	u64 csw; /* switches counted since first seen */
	int threads; /* at the last scan */
	double created; /* epoch s, first seen */
};

/* The groups, sorted by (process, group). */
struct ptk_tgroups {
	struct ptk_tgroup *g;
	int n, cap;
};

/*
 * Add the switches of the threads of scan cur since scan prev (PTK_PT_THREADS |
 * PTK_PT_STATUS) to their groups, created at now (epoch s) when new; a group whose threads
 * are all gone is dropped. first: cur is the baseline (nothing counted); prev_up_s: uptime
 * at prev (-1 unknown), a thread started after it counts all its switches. hz: USER_HZ.
 */
void ptk_tgroups_merge(struct ptk_tgroups *tg, const struct ptk_ptab *prev,
		       const struct ptk_ptab *cur, bool first, double prev_up_s, long hz,
		       double now);
void ptk_tgroups_free(struct ptk_tgroups *tg);

/* A top-N process. */
struct ptk_proc_row {
	int pid;
	char comm[64];
	char cmdline[256]; /* only when asked for */
	double cpu_s; /* utime + stime, s */
	double start_s; /* epoch s, -1 unknown */
	u64 rss_bytes, threads;
	bool io_ok; /* /proc/PID/io readable */
	u64 rd, wr; /* read_bytes, write_bytes */
};

/*
 * The n processes of scan cur with the most CPU over itv_s seconds since scan prev (without
 * a previous scan, itv_s <= 0: the most CPU since they started), by pid on a tie, into
 * out[n]. btime: boot time (epoch s, 0 unknown); prev_up_s: uptime at prev (-1 unknown);
 * cmdline: copy command lines. Returns the number of rows written.
 */
int ptk_top_procs(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s,
		  double prev_up_s, long hz, long pagesz, u64 btime, bool cmdline,
		  struct ptk_proc_row *out, int n);

#endif
