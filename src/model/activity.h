/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The activity table, in the manner of sysstat's activity.c: each activity turns (previous
 * snapshot, current snapshot, interval) into rows of registry values. mpstat, iostat, vmstat,
 * free, nicstat, pressure, sar's reports, the exporter's collectors and check's measurements
 * all compute from these rows, so a formula exists once.
 *
 * A row holds the values of the activity's metrics (mids[], in that order); the entity is in
 * key ("all", "0", "sda", "eth0"; "" for single-row activities). prev == NULL asks for the
 * since-boot figures (counters from zero, the interval is the uptime), as sysstat's first
 * report. A value that cannot be known (its file unread, a counter that went backwards, a
 * device that appeared this interval) is na, never 0.
 */
#ifndef PTK_MODEL_ACTIVITY_H
#define PTK_MODEL_ACTIVITY_H

#include "model/registry.h"
#include "source/snap.h"

#define PTK_ROW_MAXCOLS 32

struct ptk_row {
	char key[64]; /* entity: CPU number or "all", device, interface; "" for one-row */
	struct ptk_val v[PTK_ROW_MAXCOLS]; /* in the order of the activity's mids[] */
};

struct ptk_rows {
	int n, cap;
	struct ptk_row *r;
};

/* What the callers select (sar's flags, the monitors' options). Zero: the defaults. */
struct ptk_act_opts {
	bool per_cpu; /* cpu: a row per online CPU after "all" */
	bool partitions; /* disks: partitions too */
	double hz; /* USER_HZ (0: sysconf(_SC_CLK_TCK)) */
};

enum ptk_act_id {
	PTK_ACT_NONE, /* filled by the activity engineer: cpu, memory, swap, paging, io, disks,
		       * network devices, network errors, TCP, ETCP, sockets, load and queue,
		       * tasks, PSI ... */
	PTK_ACT_COUNT
};

struct ptk_activity {
	const char *name; /* JSON table name and --help label: "cpu", "disk", "net_dev" */
	unsigned parts; /* PTK_SNAP_BIT()s of the snapshot parts it reads */
	const enum ptk_mid *mids; /* the metrics of a row, PTK_M_NONE-terminated */
	/* Append the rows of (prev, cur, itv_s) to out. 0 or -errno. */
	int (*rows)(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		    const struct ptk_act_opts *o, struct ptk_rows *out);
};

extern const struct ptk_activity ptk_activities[PTK_ACT_COUNT];

#endif
