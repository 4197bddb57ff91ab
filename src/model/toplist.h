/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top's model: one frame = the summary (load, task states, %CPU by state, memory, forks/s)
 * and one row of registry values per task, in the order shown (filter, sort, parent/child
 * tree). ptk top builds it from the process table and its rates (model/ptask.h); `top -b`,
 * `--json` and the viewer (output/tui.h) render the same frame.
 */
#ifndef PTK_MODEL_TOPLIST_H
#define PTK_MODEL_TOPLIST_H

#include "model/metric.h"
#include "model/ptask.h"
#include "source/procfs/procfs.h"

/* Columns of the process list, in default display order. */
enum ptk_top_col {
	TC_PID,
	TC_USER,
	TC_PR,
	TC_NI,
	TC_VIRT,
	TC_RES,
	TC_SHR,
	TC_S,
	TC_CPU,
	TC_MEM,
	TC_TIME,
	TC_RKB,
	TC_WKB,
	TC_MAJFLT,
	TC_CSW,
	TC_FDS,
	TC_CGROUP,
	TC_CONTAINER, /* ptk_cg_container of the cgroup */
	TC_COMMAND,
	TC_N
};

struct ptk_top_row {
	struct ptk_val v[TC_N];
	int pid, ppid, tgid;
	int depth; /* tree view: nesting level */
	char tree[48]; /* tree view: the branch drawn before the command */
	char cmd[256]; /* COMMAND text (comm, or the command line with 'c') */
	char owner[80]; /* CONTAINER text */
};

/* Tasks by state letter of /proc/PID/stat (fs/proc/array.c task_state_array), as top's
 * "Tasks:" line counts them: D and I count as sleeping too. */
struct ptk_task_states {
	int total, running, sleeping, disk, stopped, zombie, idle;
};

struct ptk_top_frame {
	double up_s, itv_s;
	int users; /* -1 unknown */
	struct ptk_loadavg la;
	struct ptk_task_states tasks;
	double cpu[PTK_CPU_NSTATES]; /* all CPUs, % of the interval */
	int ncpu; /* slots in percpu[] */
	double (*percpu)[PTK_CPU_NSTATES];
	bool *present;
	struct ptk_meminfo mi;
	double psi10[PTK_PSI_NRES]; /* "some avg10"; NAN when unavailable */
	double forks_s; /* /proc/stat processes, per second; NAN when unknown */
	double observer_pct; /* ptk's own CPU time, % of one CPU */
	/* time travel (top --at): "recorded YYYY-MM-DD HH:MM:SS", the sample shown; "" live */
	char at_label[64];
	int nrows;
	struct ptk_top_row *rows;
	int norder; /* rows to show, in display order (after filter, sort, tree) */
	int *order;
};

/* Count one task of state letter state ('R', 'S', 'D', 'I', 'T', 't', 'Z'; others only in
 * the total). */
void ptk_task_states_add(struct ptk_task_states *s, char state);

/* How a row's values are computed from the task. */
struct ptk_top_fill {
	long hz; /* USER_HZ */
	long page_kb; /* page size in KiB */
	u64 mem_total_kb; /* MemTotal, for %MEM (0: unknown) */
	bool cmdline; /* COMMAND is the command line ("[comm]" without one) */
};

/*
 * Row of task t with its rates r (model/ptask.h): VIRT/RES/SHR in KiB from statm (stat's
 * vsize/rss without it), %CPU (0 when the rates are unknown), %MEM of MemTotal, TIME+ in
 * seconds, I/O kB/s, major faults/s, context switches/s, fds, cgroup and command. USER is
 * the owner of /proc/PID (PTK_PT_OWNER). The row's strings point into row, t and static
 * storage.
 */
void ptk_top_row_set(struct ptk_top_row *row, const struct ptk_task *t,
		     const struct ptk_task_rate *r, const struct ptk_top_fill *how);

/*
 * The summary's CPU figures between two /proc/stat reads over itv_s seconds: f->cpu, the
 * per-CPU shares of the CPUs present at both ends (f->percpu, f->present, grown to cur's
 * count) and forks per second. Returns the number of CPUs online in cur.
 */
int ptk_top_frame_cpu(struct ptk_top_frame *f, const struct ptk_stat *prev,
		      const struct ptk_stat *cur, double itv_s);

/* What the frame shows and in which order. */
struct ptk_top_order {
	const struct ptk_metric *const *cols; /* TC_N registry entries: the value types */
	int sort; /* enum ptk_top_col */
	bool asc; /* ascending; default descending */
	bool tree; /* children below their parent */
	bool threads; /* rows are threads: a thread's parent is its process */
	const char *filter; /* substring of COMMAND; NULL or "" = all */
	const char *cgroup; /* tasks in this cgroup or below (ptk_cg_under); NULL or "" = all */
};

/*
 * Fill f->order[0..f->norder) with the rows shown: those whose command contains the
 * filter and whose cgroup is under o->cgroup (then a row without a cgroup is left out),
 * sorted by the sort column (unknown values lowest, ties by pid ascending); with tree,
 * each row's children (threads under their process) follow it depth first, in sort order,
 * with row->depth and the branch drawing row->tree ("|- ", "`- ").
 */
void ptk_top_arrange(struct ptk_top_frame *f, const struct ptk_top_order *o);

#endif
