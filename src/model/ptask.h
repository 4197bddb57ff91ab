/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task rates between two process-table scans (source/procfs/pid.h), and grouping of those
 * rates by pid, tgid, comm, user, cgroup path or container id. Shared by top, pidstat, iotop
 * and check: one scanner, one delta model.
 */
#ifndef PTK_MODEL_PTASK_H
#define PTK_MODEL_PTASK_H

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

/* pidstat's activities (-u -r -d -w), as bits. */
enum ptk_task_act { PTK_ACT_CPU = 1, PTK_ACT_MEM = 2, PTK_ACT_IO = 4, PTK_ACT_CSW = 8 };

/*
 * sysstat pidstat's "active" test: some counter of the activities acts moved between the
 * two scans (CPU: utime, stime; memory: faults, vsize, rss; I/O: blkio ticks and, when io
 * is readable, the byte counters; switches: both counters). A task born in the interval
 * counts from 0.
 */
bool ptk_task_active(const struct ptk_task_rate *r, unsigned acts);
/* The same for a group: one of its rates of acts is above 0. */
bool ptk_group_active(const struct ptk_group *g, unsigned acts);

/* Per-task sums of VSZ and RSS over the samples, for pidstat's Average lines. */
struct ptk_task_mean {
	int pid;
	u64 start; /* starttime: a reused pid is another task */
	double vsz_kb, rss_kb; /* sums */
	long n; /* samples summed */
};
struct ptk_task_means {
	struct ptk_task_mean *a; /* sorted by pid, as the table */
	int n;
};

/* Add the sample pt (sorted by pid) to the sums; tasks not in pt are dropped. */
void ptk_task_means_add(struct ptk_task_means *m, const struct ptk_ptab *pt);
/* The sums of task t (same pid and starttime), or NULL. */
const struct ptk_task_mean *ptk_task_means_find(const struct ptk_task_means *m,
						const struct ptk_task *t);
void ptk_task_means_free(struct ptk_task_means *m);

/* User name of uid (cached getpwuid), or the number as text. */
const char *ptk_user_name(unsigned uid);

#endif
