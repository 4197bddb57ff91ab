/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open(2): event names as perf spells them, counters kept as {val, ena, run} so
 * multiplexed counts scale, targets (CPUs, a process, a thread, a launched command), the
 * mmap ring buffer reader with lost-record accounting, and sample record parsing.
 * Kernel source: include/uapi/linux/perf_event.h, kernel/events/core.c, ring_buffer.c.
 */
#ifndef PTK_SOURCE_PERF_PERF_H
#define PTK_SOURCE_PERF_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/util.h"

/* ---- event names ---- */

/*
 * Parse one event name as perf spells it into attr (type, config; the rest zeroed, size set):
 * software ("task-clock", "page-faults", "faults", "cs", "minor-faults", ...), hardware
 * ("cycles", "instructions", "branch-misses", ...), hardware cache ("L1-dcache-load-misses",
 * "LLC-loads", "dTLB-load-misses", ...), raw ("r01c2"), tracepoints ("sched:sched_switch",
 * id from tracefs events/<cat>/<name>/id, tracefs mounted when absent) and the modifiers
 * ":u" ":k" (exclude the other side). Returns 0, -EINVAL for an unknown name or modifier,
 * -ENOENT for a tracepoint that does not exist, or the tracefs error (e.g. -EPERM).
 */
int ptk_perf_event_parse(const char *name, struct perf_event_attr *attr);

/* perf's "unit" of an event as perf stat prints it: "msec" for task-clock and cpu-clock
 * (counted in ns, shown in ms), "" otherwise. scale receives the factor (1e-6 or 1). */
const char *ptk_perf_event_unit(const struct perf_event_attr *attr, double *scale);

/* True when attr is the software or hardware event (type, config). */
bool ptk_perf_is(const struct perf_event_attr *attr, u32 type, u64 config);

/* ---- counts ---- */

/* One counter reading (read(2) with PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING): the raw
 * value and the ns the event was enabled and actually on the PMU. */
struct ptk_perf_count {
	u64 val, ena, run;
};

/*
 * The value scaled for multiplexing: val * ena / run (perf_counts_values__scale()). Returns
 * false when the event never ran (run or ena 0: "<not counted>", as perf stat decides it).
 * pct receives 100 * run / ena (100 when ena is 0).
 */
bool ptk_perf_scale(const struct ptk_perf_count *c, double *val, double *pct);

/* c = a - b, field by field (counts only grow; a reset gives 0, not a wrap). */
void ptk_perf_count_sub(const struct ptk_perf_count *a, const struct ptk_perf_count *b,
			struct ptk_perf_count *c);

/* ---- targets ---- */

enum ptk_perf_target_kind {
	PTK_PERF_CPUS, /* -a / -C: every selected CPU, all tasks */
	PTK_PERF_PID, /* -p: every thread of a process (new threads through inherit) */
	PTK_PERF_TID, /* -t: one thread */
	PTK_PERF_CMD, /* -- CMD: the launched command and its children (inherit) */
};

struct ptk_perf_target {
	enum ptk_perf_target_kind kind;
	pid_t pid; /* PID, TID, or the launched child */
	bool *cpus; /* PTK_PERF_CPUS: cpus[c] selected, NULL = all online */
	int ncpus; /* size of the possible-CPU space */
};

/* One (pid, cpu) pair perf_event_open() is called for. */
struct ptk_perf_pair {
	pid_t pid;
	int cpu;
};

/*
 * The (pid, cpu) pairs of a target. per_cpu: also split task targets by online CPU (needed
 * to share one ring buffer per CPU when sampling); else tasks use cpu -1. Returns the count
 * (>= 1) with *out malloc'd, -ESRCH when the process has no thread left, -ENOENT when no
 * selected CPU is online. Source: /sys/devices/system/cpu/online, /proc/PID/task.
 */
int ptk_perf_target_pairs(const struct ptk_perf_target *t, bool per_cpu,
			  struct ptk_perf_pair **out);

/* Number of possible CPUs (the highest in /sys/devices/system/cpu/possible + 1). */
int ptk_perf_ncpus(void);

/* ---- one event on a target ---- */

struct ptk_perf_evsel {
	char name[128]; /* as the user spelled it */
	struct perf_event_attr attr;
	int *fd; /* one per pair, -1 when that pair failed */
	int nfd;
	int err; /* 0 when at least one fd is open, else the first -errno */
	struct ptk_perf_count prev; /* for interval deltas */
};

/* perf_event_open(2). Returns the fd or -errno. */
int ptk_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		  unsigned long flags);

/*
 * Open e->attr on every pair (read_format gets TOTAL_TIME_ENABLED|RUNNING). Per-pair errors
 * for tasks that exited in between (-ESRCH) are skipped. Returns 0 when any pair opened,
 * else the error (-ENOENT/-EOPNOTSUPP: the PMU lacks the event, "<not supported>"), also
 * kept in e->err.
 */
int ptk_perf_evsel_open(struct ptk_perf_evsel *e, const struct ptk_perf_pair *pairs, int n);
/* Sum the readings of every fd into *c. Returns 0 or -errno (e->err when never opened). */
int ptk_perf_evsel_read(struct ptk_perf_evsel *e, struct ptk_perf_count *c);
/* PERF_EVENT_IOC_ENABLE / DISABLE on every fd. */
void ptk_perf_evsel_enable(struct ptk_perf_evsel *e, bool on);
void ptk_perf_evsel_close(struct ptk_perf_evsel *e);

/* True when err from ptk_perf_evsel_open means "this PMU has no such event". */
bool ptk_perf_err_unsupported(int err);

/* ---- a launched command ---- */

struct ptk_perf_child {
	pid_t pid;
	int go_fd; /* write end: the child execs when it is written/closed */
	int err_fd; /* read end: errno of a failed exec, EOF on success */
};

/*
 * Fork argv[0] (PATH searched) stopped before exec: the child waits until
 * ptk_perf_child_start(). Counters opened with enable_on_exec count from the exec on.
 * Returns 0 or -errno.
 */
int ptk_perf_child_fork(char **argv, struct ptk_perf_child *c);
/* Let the child exec. Returns 0, or -errno of a failed exec (the child has exited 127 and
 * been reaped). */
int ptk_perf_child_start(struct ptk_perf_child *c);

/* ---- the mmap ring buffer ---- */

struct ptk_perf_ring {
	int fd;
	void *base; /* the control page (struct perf_event_mmap_page), data follows */
	size_t len; /* the mapping: 1 + 2^n pages */
	u64 mask; /* data size - 1 */
	char *tmp; /* a record that wraps around the end is copied here */
	size_t tmp_size;
	u64 lost; /* samples lost: PERF_RECORD_LOST + PERF_RECORD_LOST_SAMPLES */
	u64 lost_records; /* how many such records */
	u64 records; /* records handed to the callback */
};

/* mmap the ring buffer of fd: data_pages must be a power of 2. Returns 0 or -errno. */
int ptk_perf_ring_mmap(struct ptk_perf_ring *r, int fd, int data_pages);
/*
 * Set up a ring over caller memory (tests): base holds the control page and data_size
 * (power of 2) bytes of data right after page_size bytes.
 */
void ptk_perf_ring_init(struct ptk_perf_ring *r, void *base, size_t page_size, u64 data_size);
typedef int (*ptk_perf_record_fn)(const struct perf_event_header *h, void *arg);
/*
 * Hand every record between data_tail and data_head to fn (a contiguous copy when it wraps),
 * then advance data_tail. PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES are counted in
 * r->lost and also passed on. A record of size 0 or larger than the buffer (corruption) ends
 * the read with -EIO, with the tail moved to the head so the reader never spins. fn returning
 * non-zero stops early (the rest stays for the next call). Returns the records read, or -EIO.
 */
int ptk_perf_ring_read(struct ptk_perf_ring *r, ptk_perf_record_fn fn, void *arg);
void ptk_perf_ring_unmap(struct ptk_perf_ring *r);

/* ---- sampling: one ring per CPU ---- */

/* A sampling event on every (task, CPU) pair of a target; the events of one CPU write into
 * that CPU's ring (PERF_EVENT_IOC_SET_OUTPUT), so a process's threads cost no extra rings. */
struct ptk_perf_sampler {
	int *fd, nfd;
	struct ptk_perf_ring *ring;
	int nring;
};

/*
 * Open attr on the target's pairs, with data_pages (power of 2) per ring. Threads that exit
 * meanwhile are skipped. Returns 0, -ESRCH when no task was left, or the -errno of
 * perf_event_open/mmap (nothing stays open then).
 */
int ptk_perf_sampler_open(struct ptk_perf_sampler *s, struct perf_event_attr *attr,
			  const struct ptk_perf_target *t, int data_pages);
/* Hand every ring's records to fn. Returns how many rings were corrupt (-EIO). */
int ptk_perf_sampler_read(struct ptk_perf_sampler *s, ptk_perf_record_fn fn, void *arg);
/* Samples lost in every ring. */
u64 ptk_perf_sampler_lost(const struct ptk_perf_sampler *s);
/* PERF_EVENT_IOC_DISABLE on every event. */
void ptk_perf_sampler_disable(struct ptk_perf_sampler *s);
void ptk_perf_sampler_close(struct ptk_perf_sampler *s);

/* ---- samples ---- */

#define PTK_PERF_MAX_REGS 24

struct ptk_perf_sample {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u32 cpu;
	u64 period;
	u64 nr; /* callchain entries (PERF_CONTEXT_* markers included) */
	const u64 *ips;
	u64 regs_abi; /* PERF_SAMPLE_REGS_ABI_*, 0 = no user regs (kernel thread) */
	u64 regs[PTK_PERF_MAX_REGS]; /* user regs, indexed by enum perf_event_x86_regs */
	u64 regs_mask;
	u64 stack_size; /* bytes of user stack copied (dyn_size) */
	const void *stack;
	bool user; /* misc: the sample hit user mode */
};

/*
 * Parse a PERF_RECORD_SAMPLE laid out per sample_type (IP, TID, TIME, ID, CPU, PERIOD,
 * CALLCHAIN, REGS_USER with regs_mask bits, STACK_USER; others: -ENOTSUP). Pointers point
 * into h. Returns 0 or -EINVAL (truncated record).
 */
int ptk_perf_sample_parse(const struct perf_event_header *h, u64 sample_type, u64 regs_mask,
			  struct ptk_perf_sample *s);

#endif
