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
	int pid; /* tgid for a process row, tid for a thread row */
	int tgid; /* thread group id */
	int ppid;
	char comm[64]; /* between the first '(' and the last ')' of stat, controls escaped */
	char state; /* R S D Z T t X I ... */
	u64 minflt, majflt; /* faults since start (stat fields 10, 12) */
	u64 cminflt, cmajflt; /* faults of the waited-for children (stat fields 11, 13) */
	u64 utime, stime; /* USER_HZ ticks (stat fields 14, 15) */
	u64 cutime, cstime; /* ticks of the waited-for children (stat fields 16, 17) */
	long priority, nice;
	long nthreads; /* stat field 20 */
	u64 starttime; /* ticks after boot (stat field 22): part of the task's identity */
	u64 vsize; /* bytes (stat field 23) */
	u64 rss_pages; /* resident pages (stat field 24) */
	int processor; /* CPU last run on (stat field 39) */
	bool rt_ok; /* rt_priority and policy present (stat fields 40, 41) */
	unsigned rt_priority; /* real-time priority, 0 for the normal policies (field 40) */
	unsigned policy; /* SCHED_NORMAL 0, FIFO 1, RR 2, BATCH 3, IDLE 5, DEADLINE 6 (41) */
	u64 blkio_ticks; /* delayacct_blkio_ticks (stat field 42), 0 when absent */
	u64 gtime; /* guest_time ticks (stat field 43; inside utime), 0 when absent */
	u64 cgtime; /* cguest_time ticks of the children (stat field 44), 0 when absent */
	bool no_blkio, no_gtime; /* the stat line ended before field 42, 43 (older kernels):
				  * those values are unknown, not 0 */
	bool io_ok; /* /proc/PID/io was readable */
	bool io_denied; /* /proc/PID/io: EACCES/EPERM (ptrace access check), not worth retrying */
	u64 rchar, wchar; /* bytes via read()/write() syscalls (io) */
	u64 read_bytes, write_bytes, cancelled_write_bytes; /* bytes at the block layer (io) */
	char wchan[64]; /* kernel function the task sleeps in ("" when running or unknown) */

	/* /proc/PID/status (PTK_PT_STATUS); its Threads: replaces stat's nthreads (the same
	 * signal->nr_threads) */
	bool status_ok;
	unsigned uid; /* real uid (Uid: field 1) */
	u64 vol_ctxt, nonvol_ctxt; /* voluntary_/nonvoluntary_ctxt_switches since start */
	u64 vmrss_kb, vmswap_kb; /* VmRSS, VmSwap (kB); 0 for kernel threads */
	char name[64]; /* Name: as the kernel prints it (escaped) */

	/* /proc/PID/statm (PTK_PT_STATM), pages */
	bool statm_ok;
	u64 statm_size, statm_resident, statm_shared;

	/* /proc/PID/cmdline (PTK_PT_CMDLINE): NUL separators shown as spaces, control
	 * characters escaped (\n, \t, \ooo), never raw; "" for kernel threads */
	char cmdline[256];

	/* /proc/PID/cgroup (PTK_PT_CGROUP): the v2 path ("0::/..."), else the first v1 path */
	char cgroup[192];

	/* number of open fds, the numbered /proc/PID/fd entries (PTK_PT_FDS); -1 when
	 * unreadable */
	int nfds;

	/* the main thread's stack mapping, "[stack]" in /proc/PID/smaps (PTK_PT_STACK): its
	 * Size and Referenced, kB; 0 when smaps has none (a kernel thread) */
	bool stack_ok;
	u64 stack_kb, stack_ref_kb;

	/* /proc/PID/schedstat (PTK_PT_SCHED; CONFIG_SCHED_INFO): time spent runnable on a run
	 * queue waiting for a CPU, ns (field 2, sched_info.run_delay) */
	bool sched_ok;
	u64 run_delay_ns;

	/* owner of /proc/PID (PTK_PT_OWNER): the effective uid, as procps top and ps show
	 * it; root for a non-dumpable process (proc's task_dump_owner) */
	bool owner_ok;
	unsigned euid;
};

enum ptk_ptab_flags {
	PTK_PT_IO = 1 << 0, /* read /proc/PID/io */
	PTK_PT_WCHAN = 1 << 1, /* read /proc/PID/wchan for tasks in D state */
	PTK_PT_THREADS = 1 << 2, /* rows are threads (/proc/PID/task/TID), not processes */
	PTK_PT_STATUS = 1 << 3, /* read status (uid, context switches, VmRSS, VmSwap) */
	PTK_PT_STATM = 1 << 4, /* read statm */
	PTK_PT_CMDLINE = 1 << 5, /* read cmdline (per process, also set on its threads) */
	PTK_PT_CGROUP = 1 << 6, /* read cgroup */
	PTK_PT_FDS = 1 << 7, /* count /proc/PID/fd entries */
	PTK_PT_ALLWCHAN = 1 << 8, /* read wchan for every task, not only D */
	PTK_PT_SCHED = 1 << 9, /* read schedstat (run-queue wait) */
	PTK_PT_OWNER = 1 << 10, /* fstat the task's stat file: euid (no extra read) */
	PTK_PT_STACK = 1 << 12, /* read smaps for the [stack] mapping (per process, also set
				 * on its threads) */
	/*
	 * With a keep cache: a task whose schedstat sum_exec_runtime did not move since its last
	 * full read did not run, so its stat/statm rows are reused instead of re-read (schedstat
	 * costs a quarter of stat). Only for thread rows and single-threaded processes, only with
	 * flags limited to STATM, OWNER, CMDLINE, THREADS; a full read is forced every 10th scan
	 * (RSS can shrink by reclaim and nice can change by renice without the task running).
 */
	PTK_PT_SKIPIDLE = 1 << 11,
	/* Thread rows (PTK_PT_THREADS) only of the tasks in D state: the rows of a storm of
	 * uninterruptible sleepers without a row for every other thread. */
	PTK_PT_DSTATE = 1 << 13,
};

/* File descriptors held open across scans (see struct ptk_ptab.keep). */
struct ptk_ptab_keep;

struct ptk_ptab {
	int n, cap;
	struct ptk_task *t; /* sorted by pid after a scan */
	u64 scanned_ns; /* CLOCK_MONOTONIC of the scan */
	int vanished; /* tasks that disappeared mid-scan (dropped) */
	int denied; /* files we could not read (EACCES/EPERM) */
	/*
	 * Optional, set by the caller (share one between the tables of a loop): keep each
	 * task's stat and statm open between scans and re-read them with pread() at offset 0,
	 * which costs about half of open+read+close on /proc. A held fd whose task died
	 * reads -ESRCH and is reopened by path, so a reused pid gets the new process. Ignored
	 * in replay mode (the root changes every sample). NULL: open and close every file.
 */
	struct ptk_ptab_keep *keep;
};

/* Keep only the rows of tasks in D state (PTK_PT_DSTATE), in order. */
void ptk_ptab_keep_d(struct ptk_ptab *pt);

/* A new fd cache for struct ptk_ptab.keep. Raises RLIMIT_NOFILE's soft limit to the hard
 * limit; when fds run out anyway, files are read without being kept. */
struct ptk_ptab_keep *ptk_ptab_keep_new(void);
/* Close every held fd and free the cache (NULL is fine). */
void ptk_ptab_keep_free(struct ptk_ptab_keep *k);
/* Number of fds held now. */
int ptk_ptab_keep_count(const struct ptk_ptab_keep *k);

/*
 * Parse one /proc/PID/stat line into t (pid, comm, state, ppid, faults, times, threads,
 * starttime, vsize, rss, processor, blkio). comm is the text between the first '(' and the
 * last ')': names such as "a) b" or ":-) 1 2 3" parse. Returns 0 or -EINVAL.
 */
int ptk_task_parse_stat(const char *buf, struct ptk_task *t);

/* Parse /proc/PID/statm (size resident shared ..., pages) into t, setting statm_ok.
 * Returns 0 or -EINVAL. */
int ptk_task_parse_statm(const char *buf, struct ptk_task *t);

/* Parse /proc/PID/io ("rchar: N" lines) into t. Returns 0 or -EINVAL. */
int ptk_task_parse_io(const char *buf, struct ptk_task *t);

/* Scan the process table of the source's current sample (live /proc or a snapshot's
 * N/<pid>/ directories). Returns 0 or -errno when the root cannot be listed. */
int ptk_ptab_scan(const struct ptk_src *src, unsigned flags, struct ptk_ptab *pt);

/* Read the wchan of the thread rows of pt in D state (<procfs>/TGID/task/TID/wchan), as
 * PTK_PT_WCHAN does during a scan: for a table from another source (the task iterator). */
void ptk_ptab_wchan_d(const struct ptk_src *src, struct ptk_ptab *pt);

/* Scan only the given processes (tgids; with PTK_PT_THREADS all their threads). A pid
 * that does not exist is skipped. Returns 0 or -errno. */
int ptk_ptab_scan_pids(const struct ptk_src *src, unsigned flags, const int *pids, int npids,
		       struct ptk_ptab *pt);

/* The given processes (ptk_ptab_scan_pids) when npids > 0, else every task (ptk_ptab_scan):
 * a command's -p selection. Returns 0 or -errno. */
int ptk_ptab_scan_some(const struct ptk_src *src, unsigned flags, const int *pids, int npids,
		       struct ptk_ptab *pt);

/* Parse /proc/PID/schedstat ("run_ns wait_ns timeslices") into t->run_delay_ns and set
 * t->sched_ok. Returns 0 or -EINVAL. */
int ptk_task_parse_schedstat(const char *buf, struct ptk_task *t);

/* Parse /proc/PID/status text into t (uid, ctxt switches, VmRSS, VmSwap, Name, Threads).
 * 0/-EINVAL */
int ptk_task_parse_status(const char *buf, struct ptk_task *t);

/* Parse /proc/PID/smaps text: the Size and Referenced of the "[stack]" mapping into t,
 * stack_ok set (both 0 when there is no such mapping). Returns 0. */
int ptk_task_parse_stack(const char *buf, struct ptk_task *t);

/*
 * Escape a NUL-separated cmdline of len bytes into out (size bytes): NULs between
 * arguments become spaces, controls become \n \t or \ooo. The file's last byte is the NUL
 * that ends the last argument, and NULs before it that follow the last other byte are
 * padding (a process that rewrote its argument area): neither is shown.
 */
void ptk_cmdline_escape(const char *raw, size_t len, char *out, size_t size);

/*
 * The whole command line of process pid (<procfs>/PID/cmdline), escaped as
 * ptk_cmdline_escape does, in *out (malloc'd; "" for a kernel thread). Returns 0 or
 * -errno (the process is gone).
 */
int ptk_task_cmdline_read(const struct ptk_src *src, int pid, char **out);

/* Whole command lines of the processes of a table, read once per process lifetime (pid,
 * starttime), as sysstat pidstat -l reads them. */
struct ptk_cmdlines {
	struct ptk_cmdline_ent *e; /* sorted by pid */
	int n;
};
/* Make c hold the command line of every row of pt (read the new ones, drop the gone).
 * A row whose file cannot be read gets "". */
void ptk_cmdlines_update(struct ptk_cmdlines *c, const struct ptk_src *src,
			 const struct ptk_ptab *pt);
/* The command line of t, "" when not held. */
const char *ptk_cmdlines_get(const struct ptk_cmdlines *c, const struct ptk_task *t);
void ptk_cmdlines_free(struct ptk_cmdlines *c);

/* Pick the cgroup path from /proc/PID/cgroup text: the v2 "0::" line when present, else the
 * first v1 line's path. Writes "" when none. */
void ptk_cgroup_path(const char *buf, char *out, size_t size);

/* The container id a cgroup path shows (64 hex chars after docker-, cri-containerd-,
 * crio-, libpod- or a /docker/ component), first 12 chars in out; "" when none. */
void ptk_container_id(const char *cgroup, char *out, size_t size);

/* Find the task with this pid and starttime (binary search). NULL when absent or reused. */
const struct ptk_task *ptk_ptab_find(const struct ptk_ptab *pt, int pid, u64 starttime);

/* True while task pid exists and is not a zombie (state Z or X in <procfs>/PID/stat). */
bool ptk_task_alive(const struct ptk_src *src, int pid);

/* What a task is, for the tools that stop it (gcore, pstack, strace -p). */
enum ptk_task_kind {
	PTK_TASK_USER, /* a user-space task */
	PTK_TASK_ZOMBIE, /* state Z or X: exited, no memory or threads left to read */
	PTK_TASK_KTHREAD, /* PF_KTHREAD in stat's flags (field 9): no user-space memory */
};
/* The kind of task pid (<procfs>/PID/stat), or -ENOENT / -errno. */
int ptk_task_kind(const struct ptk_src *src, int pid);

/* Find the task with this pid, whatever its starttime (binary search), or NULL. */
const struct ptk_task *ptk_ptab_find_pid(const struct ptk_ptab *pt, int pid);

/* Copy the rows and scan facts of src into dst (its own storage, grown as needed; dst's
 * keep cache is left as it is). */
void ptk_ptab_copy(struct ptk_ptab *dst, const struct ptk_ptab *src);

void ptk_ptab_free(struct ptk_ptab *pt);

#endif
