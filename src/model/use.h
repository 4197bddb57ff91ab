/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptk check's measurements: the USE method (utilization, saturation, errors) over a window
 * of two system snapshots (source/snap.h), the 1 s run-queue samples between them, the
 * process and thread tables, the kernel log and, when available, the BPF run-queue latency
 * and short-lived processes. Each resource becomes one row of registry values (the check
 * section of model/registry.h) with a verdict from the rules table (model/rules.h), its
 * evidence, its offending processes and the ptk command to run next.
 *
 * ptk check prints the rows; ptk exporter exports their verdicts (ptk_use_verdicts). Both
 * run the same window and the same rules.
 */
#ifndef PTK_MODEL_USE_H
#define PTK_MODEL_USE_H

#include <stdbool.h>

#include "model/metric.h"
#include "model/rules.h"
#include "source/bpf/cpuwatch.h"
#include "source/cgroup/cgroup.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"
#include "source/snap.h"

#define PTK_USE_TOP_N 5 /* offenders per kind */
#define PTK_USE_MAXV 10 /* values per USE column */

/* One value of a row: a registry entry and its value (na: unknown, shown "-" / null). */
struct ptk_use_mval {
	const struct ptk_metric *m;
	struct ptk_val v;
};

struct ptk_use_offender {
	int pid;
	char comm[64];
	char what[96]; /* "D state in io_schedule (tgid 12)"; empty: m and value say it */
	double score;
	const struct ptk_metric *m;
	double value;
};

struct ptk_use_row {
	const char *resource; /* cpu memory disk network kernel cgroup */
	char device[256]; /* the disk, interface or cgroup path */
	char owner[160]; /* a cgroup's container, pod or unit (ptk_cg_ident_short), or "" */
	struct ptk_cg_ident ident; /* a cgroup's identity */
	struct ptk_use_mval util[PTK_USE_MAXV], sat[PTK_USE_MAXV], err[PTK_USE_MAXV];
	int nu, ns, ne;
	enum ptk_verdict verdict;
	char *evidence[16];
	int nev;
	struct ptk_use_offender off[PTK_USE_TOP_N * 2];
	int noff;
	const char *offender_kind; /* "cpu", "io", "memory", "D state" */
	bool partial; /* a source was unreadable: the verdict covers less */
	bool estimated; /* memory: MemAvailable estimated (no such field in /proc/meminfo) */
	char next[3][160];
	int nnext;
};

struct ptk_use_rows {
	struct ptk_use_row r[64];
	int n;
};

/* The window: set src, stop, want_s (and watch, quiet, countdown) and call ptk_use_window. */
struct ptk_use {
	struct ptk_src *src; /* replay: moved through the window's snapshots */
	volatile int *stop; /* set asynchronously: end the window early */
	double want_s; /* window length, s */
	struct ptk_cpuwatch *shared_watch; /* started by the caller: read at both ends of the
					    * window, never stopped here; NULL: loaded for the
					    * window when live */
	bool quiet; /* no "interrupted" warning (background checks) */
	void (*countdown)(int left); /* each second live (left = -1 at the end), or NULL */

	/* results, valid after ptk_use_window() */
	struct ptk_cpuwatch *watch;
	struct ptk_cpuwatch_result wres0, wres;
	int err_watch;
	bool have_watch;
	int capture_pid; /* replay: the pid of the ptk capture that wrote the tree, 0 unknown */
	int self_pid; /* the observer: never an offender */
	struct ptk_snap a, b; /* the window's first and last snapshots */
	struct ptk_cgsnap cga, cgb; /* the cgroups at both ends of the window */
	int err_cg; /* -errno of fs/cgroup, 0 */
	struct ptk_ptab pa, pb, threads;
	int err_pa, err_pb, err_threads;
	int dthreads_a, dthreads_b; /* threads in D state at the first and last scan */
	struct ptk_kmsg km;
	int err_km;
	double runq_sum, dstate_sum, dstate_max;
	int ticks; /* 1 s samples of /proc/stat */
	bool live;
	int ncpu_online;
	long hz;
	double dur; /* window, s, from the snapshots' uptimes */
};

/* The snapshot parts check reads. */
#define PTK_USE_SNAP_PARTS (PTK_SNAP_ALL | PTK_SNAP_BIT(PTK_SNAP_ONLINE))

/*
 * Sample u->want_s seconds of u->src (sleeps live; replay: the snapshots within want_s of
 * the current one). Returns 0, or PTK_EXIT_RUNTIME after printing one line why (/proc/stat
 * unreadable, a replay window of fewer than two snapshots or out of order).
 */
int ptk_use_window(struct ptk_use *u);

/* Every resource's row over the window sampled by ptk_use_window(). Free with
 * ptk_use_rows_free(). */
struct ptk_use_rows *ptk_use_analyse(struct ptk_use *u);

void ptk_use_rows_free(struct ptk_use_rows *rs);
void ptk_use_free(struct ptk_use *u);

/* The verdict of one row, as the exporter keeps it. */
struct ptk_use_verdict {
	const char *resource; /* static string */
	char device[64];
	enum ptk_verdict verdict;
};

/*
 * One check over window_s seconds of src (sleeps for the window; returns early when *stop is
 * set, analysing what was sampled), as `ptk check -d WINDOW` without the report. watch: BPF
 * programs the caller started (ptk_cpuwatch_start) -- their counts over the window are used
 * and they stay attached; NULL: loaded for the window when live. Safe in a thread of its own
 * as long as src is not shared. Returns the number of verdicts written to out (at most
 * max), or -EIO.
 */
int ptk_use_verdicts(struct ptk_src *src, volatile int *stop, double window_s,
		     struct ptk_cpuwatch *watch, struct ptk_use_verdict *out, int max);

/*
 * The rules of group g on the values rv, applied to row r: each rule that fires adds its
 * evidence (str: the {s0} {s1} strings) and raises the verdict. Exposed for the unit tests.
 */
void ptk_use_apply(struct ptk_use_row *r, enum ptk_rule_group g, const struct ptk_rule_vals *rv,
		   const char *const str[2]);

/* Does kernel message msg name disk dev or one of its partitions? ("sda" matches "sda1",
 * not "sdab"; "nvme0n1" matches "nvme0n1p2"). */
bool ptk_use_names_disk(const char *msg, const char *dev);

#endif
