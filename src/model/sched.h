/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler timelines from the sched tracepoints, as perf sched latency and timehist read
 * them: events in time order (sched_switch, sched_wakeup/_new, sched_migrate_task) give,
 * for every thread, each period it ran (run time), the wait before it (sleeping: from its
 * switch-out to its wakeup), and the scheduler delay (runnable: from the wakeup, or from a
 * preemption's switch-out, to its switch-in); and its migrations.
 * Kernel source: include/trace/events/sched.h, kernel/sched/core.c (__schedule,
 * ttwu_do_wakeup, set_task_cpu).
 */
#ifndef PTK_MODEL_SCHED_H
#define PTK_MODEL_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"

enum ptk_sched_kind { PTK_SCHED_SWITCH, PTK_SCHED_WAKEUP, PTK_SCHED_MIGRATE };

/* One tracepoint record (time in ns of perf's clock, the tracepoints' clock). */
struct ptk_sched_ev {
	u64 time;
	u32 cpu;
	u32 seq; /* arrival order: ties in time keep it */
	uint8_t kind;
	/* switch: prev_* out, next_* in; wakeup: next_* is the woken task, target_cpu in
	 * cpu2; migrate: next_* the task, orig_cpu in cpu2, dest_cpu in cpu3 */
	int32_t prev_pid, next_pid;
	s64 prev_state; /* 0 = TASK_RUNNING (preempted), else sleeping (S, D, ...) */
	int32_t prev_prio, next_prio;
	int32_t cpu2, cpu3;
	char prev_comm[16], next_comm[16];
};

/* One period a thread ran: timehist's line, a Chrome trace slice. */
struct ptk_sched_slice {
	u64 start, end; /* switched in, switched out (ns) */
	u64 wait; /* sleeping before it: switch-out to wakeup, ns (0 when preempted) */
	u64 delay; /* runnable before it: wakeup (or preemption) to switch-in, ns */
	/* as perf sched timehist reads them: the whole time off CPU before it (switch-out
	 * to switch-in) and the delay from a wakeup only (0 after a preemption) */
	u64 offcpu, wdelay;
	u32 cpu;
	int32_t tid;
	u32 task; /* index into tasks */
	char comm[16]; /* the comm at the switch-out (a thread renamed later keeps this) */
	char state; /* how it ended: 'R' preempted, 'S' 'D' ... as prev_state reads, '-' open */
};

struct ptk_sched_task {
	int32_t tid, pid; /* pid: the thread group when known (/proc), else -1 */
	char comm[16]; /* the last comm seen */
	u64 runtime; /* ns on CPU within the trace */
	u64 switches; /* times switched out */
	/* scheduler delays measured, perf sched latency's "Switches" (its atoms): a switch-in
	 * after a wakeup or a preemption, or the first switch-in of a task not heard of */
	u64 ndelay, delay_sum, delay_max;
	u64 max_start, max_end; /* the largest delay's wakeup and switch-in */
	u64 wait_sum; /* ns sleeping before runs (from switch-out to wakeup) */
	u64 migrations;
	/* state */
	u64 last_out, ready, in; /* ns; 0 = unknown */
	u64 wakeup_wait; /* the wait that ended at the last wakeup, for the next slice */
	u64 woken_at; /* the last wakeup since the switch-out, 0 none */
	size_t open_slice; /* index + 1 of the slice running now, 0 none */
	bool seen; /* an event named it before (a wakeup, a switch); a migration does not count */
	bool running, sleeping, wakeup_wait_pending;
	int32_t oncpu;
};

struct ptk_sched_mig {
	u64 time;
	int32_t tid, from, to;
};

struct ptk_sched {
	struct ptk_sched_task *t;
	u32 nt, capt;
	u32 *hash; /* tid -> task index + 1; open addressing, size hcap */
	u32 hcap;
	struct ptk_sched_slice *s;
	size_t ns, caps;
	struct ptk_sched_mig *mig; /* keep_slices: every migration */
	size_t nmig, capmig;
	bool keep_slices;
	u64 first, last; /* time of the first and last event */
	u64 events, migrations, out_of_order;
	u64 mismatched; /* switches whose prev was not the task last switched in on that CPU */
	size_t cpu_open[1024]; /* keep_slices: index + 1 of the run open on each CPU */
	u64 cpu_busy[1024]; /* ns of non-idle run per CPU (cpu < 1024) */
	int ncpu; /* highest CPU seen + 1 */
};

/* keep_slices: remember every run period (timehist, Chrome trace); else totals only. */
void ptk_sched_init(struct ptk_sched *m, bool keep_slices);
void ptk_sched_release(struct ptk_sched *m);
/* Feed one event; events must come in time order (out-of-order ones are counted and
 * used as if at the last time). */
void ptk_sched_feed(struct ptk_sched *m, const struct ptk_sched_ev *e);
/* The task of tid, or NULL. */
const struct ptk_sched_task *ptk_sched_find(const struct ptk_sched *m, int32_t tid);
/* The task of tid (created when new). */
struct ptk_sched_task *ptk_sched_task(struct ptk_sched *m, int32_t tid);
/* Sort events by time, ties by seq (their arrival order). */
void ptk_sched_sort(struct ptk_sched_ev *e, size_t n);

#endif
