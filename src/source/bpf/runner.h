/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one BPF runner. Every BPF tool is a struct ptk_bpf_ops; the runner owns option
 * conventions, libbpf logging, signals, the lifecycle (open -> set read-only filters ->
 * load -> attach -> poll interval/count -> report -> destroy), the observer cost (kernel
 * CPU of the tool's programs, from BPF_ENABLE_STATS run-time stats, and lost events) and
 * cleanup on SIGINT/SIGTERM or error: everything is detached when it returns.
 */
#ifndef PTK_SOURCE_BPF_RUNNER_H
#define PTK_SOURCE_BPF_RUNNER_H

#include <stdbool.h>

#include "lib/cli.h"
#include "lib/util.h"

struct bpf_object;
struct ring_buffer;

/* The common filters, set into each program's read-only data before load. */
struct ptk_bpf_filter {
	int tgid; /* -p PID: the process, all of its threads (0 = any) */
	int tid; /* -t TID: one thread (0 = any) */
	char comm[16]; /* -c COMM: exact task comm ("" = any) */
	const char *cgroup; /* --cgroup PATH (cgroup v2 directory) */
	u64 cgroup_id; /* its id (the directory's inode number), 0 = any */
	bool per_process; /* -P */
	bool per_thread; /* -L */
	bool millis; /* -m: milliseconds instead of microseconds */
	bool verbose; /* -v: libbpf debug output */
};

/* Short and long options every BPF tool takes; add a tool's own around them. */
#define PTK_BPF_SHORTOPTS "p:t:c:PLmv"
enum { PTK_OPT_CGROUP = 0x1100 };
#define PTK_BPF_LONGOPTS                                                                           \
	{ "pid", required_argument, NULL, 'p' }, { "tid", required_argument, NULL, 't' },          \
		{ "comm", required_argument, NULL, 'c' },                                          \
		{ "cgroup", required_argument, NULL, PTK_OPT_CGROUP },                             \
		{ "pids", no_argument, NULL, 'P' }, { "tids", no_argument, NULL, 'L' },            \
		{ "milliseconds", no_argument, NULL, 'm' }, { "verbose", no_argument, NULL, 'v' }, \
		PTK_COMMON_OPTS

/*
 * Handle one getopt code of the common BPF options (and PTK_COMMON_OPTS). Returns 0 when
 * handled, 1 for --help, -1 for a code that is not one of them, PTK_EXIT_USAGE (2) after
 * printing a bad value (e.g. -p abc, --cgroup on a missing path).
 */
int ptk_bpf_common_opt(struct ptk_ctx *ctx, struct ptk_bpf_filter *f, int c, const char *arg);

struct ptk_bpf_run;

struct ptk_bpf_ops {
	const char *name;
	/*
	 * Optional: open, set up, load and attach the tool's light skeleton (kernel-side loader,
	 * no user-space BTF parse), tried first unless PTK_BPF_LSKEL=0. 0, or -errno: on -EPERM
	 * the run fails; on any other error (a kernel before 5.17) the runner goes on with
	 * open() and load() of the libbpf skeleton, which this leaves unloaded.
	 */
	int (*load_lskel)(struct ptk_bpf_run *r);
	/* Open the libbpf skeleton (r->skel), pick hooks with the feature probes, set rodata
	 * filters. Not called when load_lskel succeeded. */
	int (*open)(struct ptk_bpf_run *r);
	/* Load and attach the libbpf skeleton when r->skel is set (else load_lskel did), then
	 * what both share: for event tools, create r->rb (ring_buffer__new) here. */
	int (*load)(struct ptk_bpf_run *r);
	/* Called at each interval end (i = 1..), and once more with last = true when stopped
	 * without an interval (Ctrl-C), to read the maps and print through ctx->sink. */
	int (*report)(struct ptk_bpf_run *r, long i, double itv_s, bool last);
	/* Lost events since start (ring buffer reserve failures etc.); NULL when none can be. */
	u64 (*lost)(struct ptk_bpf_run *r);
	/* The libbpf object, for run-time stats of its programs. */
	struct bpf_object *(*object)(struct ptk_bpf_run *r);
	/* Or, for a light skeleton (no bpf_object): fill up to max program fds, return the
	 * count; used when object() is NULL or returns NULL. */
	int (*prog_fds)(struct ptk_bpf_run *r, int *fds, int max);
	void (*destroy)(struct ptk_bpf_run *r);
	bool needs_tracefs; /* attaches tracepoints by name (perf_event): mount tracefs */
};

struct ptk_bpf_run {
	struct ptk_ctx *ctx;
	struct ptk_bpf_filter filter;
	const struct ptk_bpf_ops *ops;
	void *skel; /* the tool's skeleton */
	void *priv; /* the tool's own state */
	struct ring_buffer *rb; /* event tools: polled between reports */
	double interval_s; /* 0: report only at exit (Ctrl-C, or duration_s) */
	long count; /* reports to print; < 0 unbounded */
	double duration_s; /* > 0: stop after this long (for tests and scripts) */
	/* "Tracing ... Hit Ctrl-C to end.": printed on stderr once attached (text mode), so a
	 * failure stays one line */
	char banner[256];
	bool header_printed;
	u64 start_ns;
	/* observer cost, filled after each report (estimated over the whole run from the
	 * sampled windows, see stats_sampled) */
	u64 prog_run_ns, prog_run_cnt;
	bool stats_enabled;
	/* run-time stats windows: BPF_ENABLE_STATS costs two clock reads per program run, so
	 * when the programs run often it is held for 1 s of every 10 s; the sums over the closed
	 * windows, and the open one (checked each second: chk_*) */
	int stats_fd;
	u64 win_start_ns, win_ns0, win_cnt0, next_win_ns, chk_ns, chk_cnt, chk_run_ns;
	/* the gaps between windows, estimated at the rates of the check before each closed */
	u64 gap_start_ns; /* 0: no gap open */
	double gap_rate_ns, gap_rate_cnt, gap_ns, gap_cnt;
	u64 acc_ns, acc_cnt, acc_win_ns;
	bool stats_sampled; /* the windows cover less than the run: figures are scaled */
	u64 stats_win_ns; /* how long the windows held the stats, of the elapsed time */
};

/*
 * Run a tool. Parses nothing: the command has filled r->filter, interval, count.
 * Returns the process exit code (0, 1 runtime error with one line printed).
 */
int ptk_bpf_run(struct ptk_bpf_run *r);

/* Feature probes: is the BTF-typed tracepoint (tp_btf) available for this tracepoint
 * name (e.g. "sched_switch")? Looks for btf_trace_<name> in the kernel BTF. */
bool ptk_bpf_has_tp_btf(const char *tp);
/* Can fentry attach to this kernel function (it is in BTF and the kernel supports
 * trampolines)? */
bool ptk_bpf_has_fentry(const char *func);
/* Free the kernel BTF the probes parsed (the runner calls it between open and load). */
void ptk_bpf_probes_done(void);
/* Does this kernel function exist (kallsyms / BTF)? For kprobe fallbacks. */
bool ptk_bpf_has_ksym(const char *func);

/* Sum of one u64 slot of a BPF_MAP_TYPE_PERCPU_ARRAY over all possible CPUs (the lost-event
 * counters of event tools). Returns the sum, 0 when the map cannot be read. */
u64 ptk_bpf_percpu_sum(int map_fd, u32 key);

/* Observer line/object: kernel CPU of the programs and lost events over elapsed_s. */
void ptk_bpf_observer_text(struct ptk_bpf_run *r, FILE *f);
struct json_object *ptk_bpf_observer_json(struct ptk_bpf_run *r);

/*
 * Which loader a tool uses (PTK_BPF_LSKEL in the environment, for tests): the light skeleton
 * (default; its tp_btf flavour first where a tool has two), only its raw_tp flavour (=raw), or
 * the libbpf skeleton that is otherwise the fallback on kernels before 5.17 (=0).
 */
enum ptk_bpf_loader { PTK_BPF_LSKEL_ANY, PTK_BPF_LSKEL_RAW, PTK_BPF_LIBBPF };
enum ptk_bpf_loader ptk_bpf_loader_wanted(void);

/*
 * Attach a loaded program of type BPF_PROG_TYPE_TRACEPOINT (a light skeleton's, which cannot
 * attach those itself) to the tracepoint cat:event (ptk_tp_id_read): a
 * perf_event_open(PERF_TYPE_TRACEPOINT) event linked with BPF_LINK_CREATE. Returns the
 * link fd (close it to detach) or -errno.
 */
int ptk_bpf_attach_tp(int prog_fd, const char *cat, const char *event);

/*
 * Open, set up, load and attach one light skeleton of type struct NAME (bpftool gen skeleton
 * -L ... name NAME): SETUP(s) runs between open and load with s the skeleton (read-only
 * filters, map sizes). On success the skeleton is stored in out; on failure it is destroyed and
 * out is left alone. Evaluates to 0 or -errno (needs <errno.h>).
 */
#define PTK_LSKEL_LOAD(NAME, out, SETUP)                                                \
	({                                                                              \
		struct NAME *s_;                                                        \
		int err_;                                                               \
		errno = 0;                                                              \
		s_ = NAME##__open();                                                    \
		err_ = s_ ? 0 : errno ? -errno : -ENOMEM;                               \
		if (s_) {                                                               \
			SETUP(s_);                                                      \
			if (!(err_ = NAME##__load(s_)) && !(err_ = NAME##__attach(s_))) \
				(out) = s_;                                             \
			else                                                            \
				NAME##__destroy(s_);                                    \
		}                                                                       \
		err_ > 0 ? -EINVAL : err_;                                              \
	})

/*
 * Detach: close the link fds fds[0..n) at once, each from its own thread, and set them to -1.
 * Closing a perf_event tracepoint link waits for RCU grace periods (perf_trace_event_unreg ->
 * tracepoint_synchronize_unregister, ~50-80 ms each here); concurrent waits share them, so n
 * links take about one instead of n in a row. fds <= 0 are skipped.
 */
void ptk_bpf_close_links(int *fds, size_t n);
/* The same for all the links of a light skeleton (its links struct holds only fds). */
#define PTK_LSKEL_DETACH(l) \
	((l) ? ptk_bpf_close_links((int *)&(l)->links, sizeof((l)->links) / sizeof(int)) : (void)0)

/* Resolve a cgroup v2 directory to its id (inode number). 0 or -errno. */
int ptk_cgroup_id(const char *path, u64 *id);

/* Write the common filters into a skeleton's read-only data (before load). */
#define PTK_BPF_SET_FILTERS(skel, f)                                      \
	do {                                                              \
		(skel)->rodata->targ_tgid = (f)->tgid;                    \
		(skel)->rodata->targ_tid = (f)->tid;                      \
		(skel)->rodata->filter_comm = (f)->comm[0] != '\0';       \
		memcpy((void *)(skel)->rodata->targ_comm, (f)->comm, 16); \
		(skel)->rodata->targ_cgroup_id = (f)->cgroup_id;          \
	} while (0)

struct bpf_program;
/* Keep the cheapest hook of a pair: the tp_btf program when the kernel has a BTF-typed
 * tracepoint for tp, else the raw_tp one. Returns true when tp_btf was chosen. */
bool ptk_bpf_pick_tp(struct bpf_program *tp_btf, struct bpf_program *raw_tp, const char *tp);

#endif
