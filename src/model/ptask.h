/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task rates between two process-table scans (source/procfs/pid.h), and grouping of those
 * rates by pid, tgid, comm, user, cgroup path or container id. Shared by top, pidstat, iotop
 * and check: one scanner, one delta model.
 */
#ifndef PTK_MODEL_PTASK_H
#define PTK_MODEL_PTASK_H

#include "model/metric.h"
#include "source/procfs/pid.h"

struct ptk_task_rate {
	const struct ptk_task *cur; /* row of the newer scan */
	const struct ptk_task *prev; /* same (pid, starttime) in the older scan; NULL when new */
	bool valid; /* rates known: prev found, or the task was born in the
				      * interval (its whole life counts) */
	double cpu_pct, usr_pct, sys_pct; /* % of one CPU (utime/stime ticks); a process is the
					   * sum of its threads, capped at ncpu x 100 */
	double minflt_s, majflt_s; /* page faults per second */
	bool io_ok; /* /proc/PID/io readable at both ends */
	double rkb_s, wkb_s, ccwr_kb_s; /* block-layer kB/s: read_bytes, write_bytes,
					   * cancelled_write_bytes */
	double rchar_kb_s, wchar_kb_s; /* read()/write() kB/s */
	bool csw_ok; /* status readable at both ends */
	double cswch_s, nvcswch_s; /* voluntary / involuntary context switches per s */
	double iodelay_pct; /* delayacct_blkio_ticks: % of the interval the task
					   * waited for block I/O (needs kernel.task_delayacct) */
	double guest_pct; /* % of one CPU running a vCPU (guest_time, inside usr_pct);
			   * scaled with the cap like usr/sys */
	bool wait_ok; /* schedstat read at both ends (PTK_PT_SCHED) */
	double wait_pct; /* % of the interval runnable but waiting for a CPU (schedstat
			   * run_delay) */
};

/*
 * Rates of every task of cur against prev over itv_s seconds. out must hold cur->n
 * entries. hz = USER_HZ (sysconf(_SC_CLK_TCK)); prev_up_s = seconds since boot at the prev
 * scan (-1 unknown: a task missing from prev then counts from 0, as pidstat does);
 * ncpu caps %CPU. Returns the number of valid rows.
 */
int ptk_task_rates(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s, long hz,
		   double prev_up_s, int ncpu, struct ptk_task_rate *out);

enum ptk_group_by {
	PTK_BY_PID, /* each row (a process or a thread) */
	PTK_BY_TGID, /* thread group: a process's threads summed */
	PTK_BY_COMM, /* command name */
	PTK_BY_USER, /* real uid, shown as a user name (needs PTK_PT_STATUS) */
	PTK_BY_CGROUP, /* cgroup path, v2 or first v1 (needs PTK_PT_CGROUP) */
	PTK_BY_CONTAINER, /* container id in the cgroup path, "-" for the host */
};

/* "pid", "tgid", "comm", "user", "cgroup", "container" -> by. 0 or -EINVAL. */
int ptk_group_by_parse(const char *s, enum ptk_group_by *by);
extern const char *const ptk_group_by_name[];

struct ptk_group {
	char key[192];
	int pid; /* first task's pid (tgid for PTK_BY_TGID) */
	int ntasks;
	double cpu_pct, usr_pct, sys_pct, minflt_s, majflt_s;
	double rkb_s, wkb_s, ccwr_kb_s, cswch_s, nvcswch_s;
	u64 rss_kb; /* sum of RSS (rss pages x page size): threads share it, so
			   * PTK_BY_TGID counts it once */
	bool io_ok, csw_ok;
};

/* Aggregate valid rates by key. *out is malloc'd (free it); returns the group count. */
int ptk_group_rates(const struct ptk_task_rate *r, int n, enum ptk_group_by by,
		    struct ptk_group **out);

/* Sort groups by %CPU, descending; equal ones keep their (key) order. */
void ptk_group_sort_cpu(struct ptk_group *g, int n);

/* The key of one task for a grouping, into buf. */
void ptk_group_key(const struct ptk_task *t, enum ptk_group_by by, char *buf, size_t size);

/*
 * Bytes task c read from and wrote to storage since p (NULL: born in the interval, counted
 * from 0), as iotop counts them: read_bytes, and write_bytes less cancelled_write_bytes (a
 * dirty page truncated before writeback never reaches the disk). false when /proc/PID/io
 * was unreadable at either end.
 */
bool ptk_task_io_bytes(const struct ptk_task *p, const struct ptk_task *c, double *rd, double *wr);
/* Read and write bytes per second of every task of cur against prev over itv_s seconds,
 * summed (iotop's "Total DISK READ/WRITE"). */
void ptk_ptab_io_totals(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s,
			double *rd_s, double *wr_s);

/* Sort rates by (tgid, pid): each process's threads together, in TID order. */
void ptk_task_rates_sort_tgid(struct ptk_task_rate *r, int n);

/* pidstat's activities (-u -r -d -w -s -v -R), as bits. */
enum ptk_task_act {
	PTK_ACT_CPU = 1,
	PTK_ACT_MEM = 2,
	PTK_ACT_IO = 4,
	PTK_ACT_CSW = 8,
	PTK_ACT_STACK = 16, /* -s: the main stack's size and referenced part */
	PTK_ACT_KTAB = 32, /* -v: threads and open fds */
	PTK_ACT_RT = 64, /* -R: real-time priority and policy */
};

/*
 * sysstat pidstat's "active" test: some counter of the activities acts moved between the
 * two scans (CPU: utime, stime; memory: faults, vsize, rss; I/O: blkio ticks and, when io
 * is readable, the byte counters; switches: both counters). A task born in the interval
 * counts from 0.
 */
bool ptk_task_active(const struct ptk_task_rate *r, unsigned acts);
/* The same for a group: one of its rates of acts is above 0. */
bool ptk_group_active(const struct ptk_group *g, unsigned acts);

/* Per-task sums of the gauges over the samples, for pidstat's Average lines. */
struct ptk_task_mean {
	int pid;
	u64 start; /* starttime: a reused pid is another task */
	double vsz_kb, rss_kb; /* sums */
	double stack_kb, stack_ref_kb, threads, fds; /* sums (fds: of the samples with fds) */
	long n; /* samples summed */
	long nfds; /* samples whose fd directory was readable */
};
struct ptk_task_means {
	struct ptk_task_mean *a; /* sorted by pid, as the table */
	int n;
	bool by_pid; /* a task is its pid, whatever its start time (sysstat) */
};

/* Add the sample pt (sorted by pid) to the sums; tasks not in pt are dropped. */
void ptk_task_means_add(struct ptk_task_means *m, const struct ptk_ptab *pt);
/* The sums of task t (same pid and starttime, or pid with by_pid), or NULL. */
const struct ptk_task_mean *ptk_task_means_find(const struct ptk_task_means *m,
						const struct ptk_task *t);
void ptk_task_means_free(struct ptk_task_means *m);

/* User name of uid (cached getpwuid), or the number as text. */
const char *ptk_user_name(unsigned uid);
/* The same, NULL when the passwd database has no such uid. */
const char *ptk_user_name_or_null(unsigned uid);

/*
 * ---- sysstat pidstat's report of one task (sysstat 12.7 pidstat.c semantics) ----
 * Computed as sysstat computes it, so that the same /proc gives the same digits: the
 * interval in centiseconds of /proc/uptime, %CPU as ticks over interval x HZ, schedstat's
 * run_delay rounded down to whole clock ticks before %wait (so %wait moves in steps of
 * 100 / (interval x HZ) points; exact nanoseconds would differ by less than one step), a
 * task missing from the previous scan counted from 0 (its whole life). A counter that went
 * backwards, a share above its total, or an interval that is not positive (the uptime went
 * back: another boot) makes only those values unknown, or (wrap) gives sysstat's wrapped
 * unsigned numbers; either way the fields are reported.
 */

/* -T: the task's own counters, or with its waited-for children's added (CHILD). */
enum ptk_ps_scope { PTK_PS_TASK = 1, PTK_PS_CHILD = 2 };

/* The values of a row, by column. */
enum ptk_ps_col {
	PTK_PS_USR, /* %usr: utime - guest_time */
	PTK_PS_SYSTEM,
	PTK_PS_GUEST,
	PTK_PS_WAIT,
	PTK_PS_CPU,
	PTK_PS_CPUNUM, /* unknown on Average lines */
	PTK_PS_CUSR_MS, /* -T CHILD: ms in the interval, the task's and its children's */
	PTK_PS_CSYS_MS,
	PTK_PS_CGUEST_MS,
	PTK_PS_MINFLT,
	PTK_PS_MAJFLT,
	PTK_PS_VSZ,
	PTK_PS_RSS,
	PTK_PS_MEM,
	PTK_PS_CMINFLT, /* -T CHILD: faults in the interval, the task's and its children's */
	PTK_PS_CMAJFLT,
	PTK_PS_STKSIZE,
	PTK_PS_STKREF,
	PTK_PS_RD,
	PTK_PS_WR,
	PTK_PS_CCWR,
	PTK_PS_IODELAY,
	PTK_PS_CSW,
	PTK_PS_NVCSW,
	PTK_PS_THREADS,
	PTK_PS_FDNR,
	PTK_PS_PRIO,
	PTK_PS_POLICY,
	PTK_PS_NCOLS
};

/* One report: an interval between two scans, or the time since boot. */
struct ptk_ps_itv {
	s64 itv_cs; /* centiseconds between the scans' /proc/uptime; <= 0: unknown */
	u64 dtot; /* -I: ticks of all CPUs in the interval (/proc/stat cpu), else 0 */
	bool irix_off; /* -I: %CPU of all CPUs (dtot); else of one CPU */
	long hz; /* USER_HZ */
	long page_kb;
	u64 memtotal_kb; /* 0: %MEM unknown */
	int ncpu; /* %CPU above ncpu x 100 is implausible */
	bool avg; /* an Average line: gauges are the means m, deltas per sample */
	bool wrap; /* sysstat's unsigned arithmetic (its text and -o JSON): a counter that
		    * went back gives the wrapped difference, an interval that is not
		    * positive the wrapped interval, a share above its total is kept; the
		    * fields are still reported in the result */
};

/* The fields whose going backwards ptk_ps_vals reports (bits of its result). */
enum ptk_ps_field {
	PTK_PF_UTIME,
	PTK_PF_STIME,
	PTK_PF_GTIME,
	PTK_PF_CUTIME,
	PTK_PF_CSTIME,
	PTK_PF_CGTIME,
	PTK_PF_RUN_DELAY,
	PTK_PF_MINFLT,
	PTK_PF_MAJFLT,
	PTK_PF_CMINFLT,
	PTK_PF_CMAJFLT,
	PTK_PF_READ_BYTES,
	PTK_PF_WRITE_BYTES,
	PTK_PF_CCWR_BYTES,
	PTK_PF_BLKIO,
	PTK_PF_VOL_CTXT,
	PTK_PF_NONVOL_CTXT,
	PTK_PF_CPU_SHARE, /* %CPU above ncpu x 100 (stat utime + stime) */
	PTK_PF_MEM_SHARE, /* RSS above MemTotal (stat rss) */
	PTK_PF_COUNT
};
/* The file under /proc/PID and the field name of f, e.g. "stat", "utime". */
void ptk_ps_field_where(enum ptk_ps_field f, const char **file, const char **field);

/*
 * The values of task c over in against p, the same task at the previous scan (NULL: counted
 * from 0), into v[PTK_PS_NCOLS] as the registry entries of the columns hold them (F64, the
 * CPU number S64, prio U64, the policy a name); m: the task's means for an Average line
 * (NULL otherwise). Returns the bits (1 << enum ptk_ps_field) of the implausible fields,
 * whose values are left unknown (in->wrap: computed as sysstat does, and on an interval
 * line iodelay and the CHILD fault counts are U64, sysstat's exact integers).
 */
unsigned ptk_ps_vals(const struct ptk_ps_itv *in, const struct ptk_task *p,
		     const struct ptk_task *c, const struct ptk_task_mean *m, struct ptk_val *v);

/*
 * sysstat's "active" test for pidstat without -p: some counter of the activities acts (for
 * scope) changed between p (NULL: zeros) and c: CPU utime/stime (CHILD: or the children's),
 * memory faults (TASK: or VSZ/RSS; CHILD: or the children's faults), stack size or
 * referenced, I/O blkio ticks or (io readable) bytes, switches, the fd directory's count or
 * threads, the real-time priority or policy.
 */
bool ptk_ps_active(const struct ptk_task *p, const struct ptk_task *c, unsigned acts,
		   unsigned scope);

/*
 * The baseline of pidstat's Average lines after one more sample: a task of base missing
 * from cur leaves base (sysstat forgets a task it did not find; seen again, it counts from
 * 0). Both sorted by pid. by_pid: a task is its pid, as sysstat keys it (else pid and start
 * time: a reused pid is another task).
 */
void ptk_ps_baseline_keep(struct ptk_ptab *base, const struct ptk_ptab *cur, bool by_pid);

/* sysstat's name of a scheduling policy: NORMAL FIFO RR BATCH IDLE DEADLN, else "?". */
const char *ptk_sched_policy_name(unsigned policy);

#endif
