/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process table: a scan of /proc/PID (and optionally /proc/PID/task/TID) through openat
 * on directory fds with one reused buffer. Tasks that vanish between readdir and read are
 * dropped silently; fields we may not read (EACCES on /proc/PID/io) are flagged unavailable,
 * never 0. Per-task deltas are keyed by (pid, starttime), so a reused PID is never taken for
 * the old process.
 */
#ifndef PTK_SOURCE_PROCFS_PID_H
#define PTK_SOURCE_PROCFS_PID_H

#include <stdbool.h>

#include "lib/util.h"
#include "source/root.h"

struct ptk_task {
	int pid;  /* tgid for a process row, tid for a thread row */
	int tgid; /* thread group id */
	int ppid;
	char comm[64]; /* between the first '(' and the last ')' of stat, controls escaped */
	char state;    /* R S D Z T t X I ... */
	u64 minflt, majflt; /* faults since start (stat fields 10, 12) */
	u64 utime, stime;   /* USER_HZ ticks (stat fields 14, 15) */
	long priority, nice;
	long nthreads;	   /* stat field 20 */
	u64 starttime;	   /* ticks after boot (stat field 22): part of the task's identity */
	u64 vsize;	   /* bytes (stat field 23) */
	u64 rss_pages;	   /* resident pages (stat field 24) */
	int processor;	   /* CPU last run on (stat field 39) */
	u64 blkio_ticks;   /* delayacct_blkio_ticks (stat field 42), 0 when absent */
	bool io_ok;	   /* /proc/PID/io was readable */
	u64 rchar, wchar;  /* bytes via read()/write() syscalls (io) */
	u64 read_bytes, write_bytes, cancelled_write_bytes; /* bytes at the block layer (io) */
	char wchan[64];	   /* kernel function the task sleeps in ("" when running or unknown) */
};

enum ptk_ptab_flags {
	PTK_PT_IO = 1 << 0,	 /* read /proc/PID/io */
	PTK_PT_WCHAN = 1 << 1,	 /* read /proc/PID/wchan for tasks in D state */
	PTK_PT_THREADS = 1 << 2, /* rows are threads (/proc/PID/task/TID), not processes */
};

struct ptk_ptab {
	int n, cap;
	struct ptk_task *t; /* sorted by pid after a scan */
	u64 scanned_ns;	    /* CLOCK_MONOTONIC of the scan */
	int vanished;	    /* tasks that disappeared mid-scan (dropped) */
	int denied;	    /* files we could not read (EACCES/EPERM) */
};

/*
 * Parse one /proc/PID/stat line into t (pid, comm, state, ppid, faults, times, threads,
 * starttime, vsize, rss, processor, blkio). comm is the text between the first '(' and the
 * last ')': names such as "a) b" or ":-) 1 2 3" parse. Returns 0 or -EINVAL.
 */
int ptk_task_parse_stat(const char *buf, struct ptk_task *t);

/* Parse /proc/PID/io ("rchar: N" lines) into t. Returns 0 or -EINVAL. */
int ptk_task_parse_io(const char *buf, struct ptk_task *t);

/* Scan the process table of the source's current sample (live /proc or a snapshot's
 * N/<pid>/ directories). Returns 0 or -errno when the root cannot be listed. */
int ptk_ptab_scan(const struct ptk_src *src, unsigned flags, struct ptk_ptab *pt);

/* Find the task with this pid and starttime (binary search). NULL when absent or reused. */
const struct ptk_task *ptk_ptab_find(const struct ptk_ptab *pt, int pid, u64 starttime);

void ptk_ptab_free(struct ptk_ptab *pt);

#endif
