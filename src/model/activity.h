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
#include "model/runq.h"
#include "source/snap.h"

#define PTK_ROW_MAXCOLS 48

struct ptk_row {
	char key[64]; /* entity: CPU number or "all", device, interface; "" for one-row */
	/* in the order of the activity's mids[]; the entity column (PTK_V_STR) is na here,
	 * its text is key (rows move when the array grows) */
	struct ptk_val v[PTK_ROW_MAXCOLS];
};

struct ptk_rows {
	int n, cap;
	struct ptk_row *r;
};

/* Append a row for entity key, every value na. */
struct ptk_row *ptk_rows_add(struct ptk_rows *rs, const char *key);
/* The row of entity key, or NULL. */
struct ptk_row *ptk_rows_find(const struct ptk_rows *rs, const char *key);
void ptk_rows_free(struct ptk_rows *rs);

/* What the callers select (sar's flags, the monitors' options). Zero: the defaults. */
struct ptk_act_opts {
	bool per_cpu; /* cpu: a row per CPU listed in /proc/stat after "all" */
	bool partitions; /* disks: partitions too */
	bool unused; /* disks: devices that never completed a request too */
	/* network devices: one that appeared has no baseline (na) and a counter that went back
	 * counts 0, as ptk nicstat always has; otherwise they count from zero, as sysstat's
	 * sar does (check_net_dev_reg). Disks always count as sysstat does (ptk_act_disk_row). */
	bool restart_zero;
	/* disks: a counter the device's line lacks (discards before kernel 4.18, flushes before
	 * 5.5) counts 0, as sysstat prints it; otherwise the values computed from it are na */
	bool absent_zero;
	/* cpu: sysstat's mpstat and sar rows (model/act_cpu.c): "all" is the sum of the CPUs
	 * shown; a CPU offline now, or without a baseline, has no row */
	bool cpu_sum;
	int ncpu; /* cpu_sum: the CPUs counted, 0..ncpu-1 (0: every slot of either snapshot) */
	const int *cpu2node; /* node: [ncpu] the NUMA node of each CPU (-1: none) */
	/* irq_sum: a CPU's total from /proc/softirqs, as sysstat 12.7's mpstat prints it when
	 * it also shows softirqs (it sums both files into the same totals, softirqs last) */
	bool irq_sum_softirqs;
	bool fs_mount; /* fsys: rows keyed by mount point, not device (sar -F MOUNT) */
};

enum ptk_act_id {
	PTK_ACT_CPU, /* sar -u, -u ALL, -P; mpstat */
	PTK_ACT_MEM, /* sar -r; free */
	PTK_ACT_SWAP, /* sar -S, -W */
	PTK_ACT_PAGING, /* sar -B */
	PTK_ACT_IO, /* sar -b */
	PTK_ACT_DISK, /* sar -d; iostat -x */
	PTK_ACT_NET_DEV, /* sar -n DEV; nicstat */
	PTK_ACT_NET_EDEV, /* sar -n EDEV */
	PTK_ACT_TCP, /* sar -n TCP */
	PTK_ACT_ETCP, /* sar -n ETCP */
	PTK_ACT_QUEUE, /* sar -q; uptime */
	PTK_ACT_TASK, /* sar -w */
	PTK_ACT_PSI_CPU, /* sar --psi; pressure */
	PTK_ACT_PSI_IO,
	PTK_ACT_PSI_MEM,
	PTK_ACT_NODE, /* mpstat -N */
	PTK_ACT_IRQ_SUM, /* mpstat -I SUM */
	PTK_ACT_IRQ, /* sar -I; mpstat -I CPU */
	PTK_ACT_SOFTIRQ, /* mpstat -I SCPU */
	PTK_ACT_SOFTNET, /* sar -n SOFT */
	PTK_ACT_IP,
	PTK_ACT_EIP,
	PTK_ACT_ICMP,
	PTK_ACT_EICMP,
	PTK_ACT_UDP,
	PTK_ACT_IP6,
	PTK_ACT_EIP6,
	PTK_ACT_ICMP6,
	PTK_ACT_EICMP6,
	PTK_ACT_UDP6,
	PTK_ACT_NFS,
	PTK_ACT_NFSD,
	PTK_ACT_SOCK,
	PTK_ACT_SOCK6,
	PTK_ACT_KTABLES,
	PTK_ACT_HUGE,
	PTK_ACT_SERIAL,
	PTK_ACT_FC,
	PTK_ACT_PWR_CPU,
	PTK_ACT_PWR_FREQ,
	PTK_ACT_USB,
	PTK_ACT_FSYS,
	PTK_ACT_COUNT
};

struct ptk_activity {
	const char *name; /* JSON table name and --help label: "cpu", "disk", "net_dev" */
	unsigned parts; /* PTK_SNAP_BIT()s of the snapshot parts it reads */
	const enum ptk_mid *mids; /* the metrics of a row, PTK_M_NONE-terminated */
	/* Append the rows of (prev, cur, itv_s) to out; prev NULL: since boot. 0 or -errno. */
	int (*rows)(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		    const struct ptk_act_opts *o, struct ptk_rows *out);
};

extern const struct ptk_activity ptk_activities[PTK_ACT_COUNT];

/*
 * Give the CPUs that cur does not list (offline) the last known times of prev (its own or
 * carried), as sysstat keeps them: the baseline of a CPU when it comes back online (also
 * their /proc/interrupts and /proc/softirqs columns). Call it on each new sample, with the
 * sample before it, after that interval's rows: an offline CPU has no row in the interval
 * it went offline in (its times are zero then), and has one in an average that ends with
 * its carried times, as sysstat's mpstat and sar.
 */
void ptk_act_cpu_carry(const struct ptk_snap *prev, struct ptk_snap *cur);
/* The CPUs the cpu_sum rows of (prev, cur) count (0..n-1). */
int ptk_act_cpu_n(const struct ptk_snap *prev, const struct ptk_snap *cur,
		  const struct ptk_act_opts *o);
/* Has CPU i a row (cpu_sum): times in cur (listed, or carried), and a baseline in prev (any
 * when prev is NULL: since boot)? */
bool ptk_act_cpu_shown(const struct ptk_snap *prev, const struct ptk_snap *cur, int i);
/* The ticks CPU i counted from prev to cur as the cpu_sum rows count them (0: tickless). */
u64 ptk_act_cpu_ticks(const struct ptk_snap *prev, const struct ptk_snap *cur, int i);

/*
 * The interval of since-boot figures (prev == NULL): the snapshot's uptime in seconds
 * (/proc/uptime, CLOCK_BOOTTIME), or 1 s when it reads 0, so a rate over it is counter /
 * uptime. procps vmstat's first line uses it from 4.0.3 on (4.0.2 divided by the CPU ticks
 * of every CPU, which made the rates N times too small on N CPUs); sysstat's first reports
 * too.
 */
double ptk_act_boot_s(const struct ptk_snap *s);

/*
 * One row of the disk activity (ptk_activities[PTK_ACT_DISK].mids): device cur over itv_s
 * seconds since base, as sysstat counts (rd_stats.c compute_ext_disk_stats). base NULL: since
 * zero (since boot, or the device appeared). A base that ptk_disk_recreated() says was
 * recreated counts from zero too. A counter that went back otherwise (a 32-bit tick counter
 * that wrapped is unwrapped), one that is not a number, and io_ticks growing by more than the
 * interval are implausible: the values computed from them are na. nmembers: devices summed in
 * cur (a group: %util is their mean), else 1. itv_s <= 0 (the uptime went back): rates and
 * %util na, counts kept. absent_zero as struct ptk_act_opts. Every value of r is set (na when
 * unknown; r->key is left as it is). Returns the implausible fields (1 << enum
 * ptk_disk_field), for the caller to name.
 */
unsigned ptk_act_disk_row(struct ptk_row *r, const struct ptk_disk *base,
			  const struct ptk_disk *cur, double itv_s, int nmembers, bool absent_zero);
/* Was device b (current) recreated since a (its previous sample)? sysstat's test: its
 * requests went back and each sector count went back or was zero. */
bool ptk_disk_recreated(const struct ptk_disk *a, const struct ptk_disk *b);
/* Add d's counters into sum, a group of devices (first: sum = d). The group holds a field
 * when every member does. */
void ptk_disk_sum(struct ptk_disk *sum, const struct ptk_disk *d, bool first);

/*
 * The /proc/meminfo fields of m above their total (MemFree, MemAvailable, Buffers, Cached,
 * Shmem, Active, Inactive, Slab, SReclaimable, Dirty above MemTotal; SwapFree, SwapCached
 * above SwapTotal), as bits (1 << enum ptk_mi_field). The memory and swap activities make
 * the values computed from such a field unknown (na) and keep the others; commands warn
 * with ptk_meminfo_implausible_why: "MemAvailable 9000000 kB above MemTotal 8000000 kB".
 */
u64 ptk_meminfo_implausible(const struct ptk_meminfo *m);
const char *ptk_meminfo_implausible_why(const struct ptk_meminfo *m, enum ptk_mi_field f, char *buf,
					size_t size);

/* Index of metric m in activity a's rows, or -1. */
int ptk_act_col(const struct ptk_activity *a, enum ptk_mid m);

/*
 * Averages over a window of intervals, as sar's "Average:" lines: a column of kind
 * PTK_GAUGE is the mean of the intervals' values (an interval without the row, a CPU
 * offline then, counts 0 as sysstat counts it); PTK_RATE and PTK_PCT are the activity over
 * the whole window (first to last sample: a ratio of totals), or, when the window holds a
 * reboot, the interval-weighted mean of the intervals' values.
 */
struct ptk_act_avg_ent {
	char key[64];
	long nrow; /* intervals with this row */
	double sum[PTK_ROW_MAXCOLS], wsum[PTK_ROW_MAXCOLS];
	long nv[PTK_ROW_MAXCOLS]; /* intervals with a known value */
	/* the values in hundredths while every one is a whole hundredth (the kernel's two
	 * decimals: load and PSI averages), so that their mean rounds as sysstat's does */
	long long csum[PTK_ROW_MAXCOLS];
	bool inexact[PTK_ROW_MAXCOLS];
	double w[PTK_ROW_MAXCOLS]; /* ... and their seconds */
};
struct ptk_act_avg {
	const struct ptk_activity *act;
	long nitv; /* intervals added */
	int n;
	struct ptk_act_avg_ent *e;
};

/* Add one interval's rows (of avg->act, itv_s long). */
void ptk_act_avg_add(struct ptk_act_avg *avg, const struct ptk_rows *rs, double itv_s);
/* The average rows into out: whole is the activity's rows over the whole window, or NULL
 * when the window holds a reboot. A value no interval knew is na. */
void ptk_act_avg_rows(const struct ptk_act_avg *avg, const struct ptk_rows *whole,
		      struct ptk_rows *out);
void ptk_act_avg_free(struct ptk_act_avg *avg);

/*
 * Delta of a counter between two samples, as sysstat counts it: a 32-bit counter that
 * wrapped is unwrapped; one that went back otherwise was restarted (device recreated,
 * module reloaded) and counts from zero: the new value.
 */
static inline u64 ptk_act_delta(u64 old, u64 new)
{
	if (new >= old)
		return new - old;
	if (old <= 0xffffffffull && old - new > 0x80000000ull)
		return (0xffffffffull - old) + new + 1;
	return new;
}

/*
 * Rate per second of ptk_act_delta over itv_s (0 when itv_s <= 0). An interval of whole
 * centiseconds (two /proc/uptime readings) divides as sysstat's S_VALUE does (d / cs * 100),
 * so that the same counts round the same way.
 */
static inline double ptk_act_rate(u64 old, u64 new, double itv_s)
{
	double cs = itv_s * 100, r = __builtin_round(cs);

	if (itv_s <= 0)
		return 0.0;
	if (__builtin_fabs(cs - r) < 1e-6)
		return (double)ptk_act_delta(old, new) / r * 100;
	return (double)ptk_act_delta(old, new) / itv_s;
}

#endif
