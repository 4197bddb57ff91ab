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
#include <stddef.h>

#include "lib/cli.h"
#include "lib/util.h"

struct bpf_map_desc;
struct bpf_object;
struct ring_buffer;

/* The common filters, set into each program's read-only data before load. */
struct ptk_bpf_filter {
	int tgid; /* -p PID: the process, all of its threads (0 = any) */
	int tid; /* -t TID: one thread (0 = any) */
	char comm[16]; /* -c COMM: exact task comm ("" = any) */
	const char *cgroup; /* --cgroup PATH (cgroup v2 directory) */
	u64 cgroup_id; /* its id (the directory's inode number), 0 = any */
	bool filter_uid; /* -u UID: only tasks of this real UID */
	u32 uid;
	bool per_process; /* -P */
	bool per_thread; /* -L */
	bool millis; /* -m: milliseconds instead of microseconds */
	bool verbose; /* -v: libbpf debug output */
	bool timestamp; /* -T: the time of day before each report */
};

/*
 * The common options, parsed by the runner for every tool: a tool says which of them it takes
 * (the others are usage errors) and gives its own; its own letters win (execsnoop's -t is a
 * timestamp, offcputime's -m a minimum), and the common long option of such a letter is left
 * out. Plus --json and --help, and --procfs/--sysfs refused (the live kernel is traced).
 */
enum {
	PTK_BPF_OPT_PID = 1 << 0, /* -p PID, --pid */
	PTK_BPF_OPT_TID = 1 << 1, /* -t TID, --tid */
	PTK_BPF_OPT_COMM = 1 << 2, /* -c COMM, --comm */
	PTK_BPF_OPT_CGROUP = 1 << 3, /* --cgroup PATH */
	PTK_BPF_OPT_PER_TASK = 1 << 4, /* -P/--pids, -L/--tids (exclusive) */
	PTK_BPF_OPT_MS = 1 << 5, /* -m, --milliseconds */
	PTK_BPF_OPT_VERBOSE = 1 << 6, /* -v, --verbose */
	PTK_BPF_OPT_TIMESTAMP = 1 << 7, /* -T, --timestamp: the time of day before each report */
	PTK_BPF_OPT_TASK =
		PTK_BPF_OPT_PID | PTK_BPF_OPT_TID | PTK_BPF_OPT_COMM | PTK_BPF_OPT_CGROUP,
	PTK_BPF_OPT_ALL = (1 << 8) - 1, /* all of the above */
	/* -u UID, --uid: for the programs that check it (uid_selected() in common.bpf.h) */
	PTK_BPF_OPT_UID = 1 << 8,
};
enum { PTK_OPT_CGROUP = 0x1100 };

/* The operands after the options. */
enum ptk_bpf_operands {
	PTK_BPF_NO_OPERANDS,
	PTK_BPF_INTERVAL_COUNT, /* [interval [count]]: without them, r->interval_s as preset */
	PTK_BPF_DURATION, /* [duration]: seconds, unless r->duration_s is set already (-d) */
};

/*
 * Handle one getopt code of the common BPF options (and PTK_COMMON_OPTS). Returns 0 when
 * handled, 1 for --help, -1 for a code that is not one of them, PTK_EXIT_USAGE (2) after
 * printing a bad value (e.g. -p abc, --cgroup on a missing path).
 */
int ptk_bpf_common_opt(struct ptk_ctx *ctx, struct ptk_bpf_filter *f, int c, const char *arg);

struct ptk_bpf_run;

/*
 * One of a tool's own options, as data (perf's parse-options): the runner builds the getopt
 * tables from a tool's list, in its order, and stores the plain kinds into the tool's state
 * (r->priv, at off) itself. Write them with the macros below; { 0 } ends the list.
 */
enum ptk_bpf_opt_kind {
	PTK_BPF_OPT_FLAG = 1, /* no argument: the bool at off becomes true */
	PTK_BPF_OPT_STR, /* an argument: the const char * at off points to it */
	PTK_BPF_OPT_CALL, /* ops->opt(r, code, arg) handles it */
};
struct ptk_bpf_opt {
	int code; /* a letter, or a code >= 0x100 for a long option only */
	const char *name; /* the long name, or NULL for a letter alone */
	enum ptk_bpf_opt_kind kind;
	int has_arg; /* no_argument, required_argument or optional_argument */
	size_t off;
};
#define PTK_BPF_FLAG(code, name, T, field)                                    \
	{                                                                     \
		code, name, PTK_BPF_OPT_FLAG, no_argument, offsetof(T, field) \
	}
#define PTK_BPF_STR(code, name, T, field)                                          \
	{                                                                          \
		code, name, PTK_BPF_OPT_STR, required_argument, offsetof(T, field) \
	}
#define PTK_BPF_CALL(code, name, has_arg)                \
	{                                                \
		code, name, PTK_BPF_OPT_CALL, has_arg, 0 \
	}

struct ptk_bpf_ops {
	const char *name;

	/* ---- the command line (parsed by ptk_bpf_main) ---- */
	const char *usage; /* --help, on stdout */
	const struct ptk_bpf_opt *opts; /* its own options, or NULL */
	unsigned common; /* PTK_BPF_OPT_* it takes */
	enum ptk_bpf_operands operands;
	double interval_s; /* without an interval operand (0: report at the end) */
	bool own_timestamp; /* -T is report()'s to print (else "HH:MM:SS" on a line before it) */
	/* what it traces, for the banner "Tracing <banner>... Hit Ctrl-C to end." (r->banner
	 * before the callbacks, which may write another), or NULL */
	const char *banner;
	/* One of the tool's PTK_BPF_OPT_CALL options: 0 when handled, -1 to leave it to the
	 * common options, PTK_EXIT_USAGE after printing why. */
	int (*opt)(struct ptk_bpf_run *r, int c, const char *arg);
	/* Optional, after the options: check their combinations, take operands of its own before
	 * the common ones (argv[optind++]). 0, or an exit code. */
	int (*parsed)(struct ptk_bpf_run *r, int argc, char **argv);
	/* Optional, after the operands: tables, banner. 0, an exit code, or PTK_BPF_DONE. */
	int (*prepare)(struct ptk_bpf_run *r);

	/* ---- the lifecycle (ptk_bpf_run) ---- */
	/* Optional, first, once the run is to load (privileges checked): what can start while
	 * the programs load (the probes' perf events, in a thread). */
	void (*begin)(struct ptk_bpf_run *r);
	/*
	 * Optional: open, set up, load and attach the tool's light skeleton (kernel-side loader,
	 * no user-space BTF parse) with PTK_BPF_LSKEL, tried first unless PTK_BPF_LSKEL=0. 0, or
	 * -errno: on -EPERM the run fails; on any other error (a kernel before 5.17) the runner
	 * goes on with open() of the libbpf skeleton.
	 */
	int (*load_lskel)(struct ptk_bpf_run *r);
	/* Open the libbpf skeleton with PTK_BPF_OPEN, pick hooks with the feature probes, set
	 * rodata filters. Not called when load_lskel succeeded. */
	int (*open)(struct ptk_bpf_run *r);
	/* Optional: load and attach the libbpf skeleton opened (default ptk_bpf_skel_load). */
	int (*load)(struct ptk_bpf_run *r);
	/* Event tools: one ring buffer record of r->events_fd. 1 when it was shown (counted in
	 * r->events), 0 when filtered out, or -errno. */
	int (*event)(struct ptk_bpf_run *r, const void *data, size_t len);
	/*
	 * Called at each interval end (i = 1..), and once more with last = true when stopped
	 * without an interval (Ctrl-C), to read the maps and print through ctx->sink. NULL for
	 * an event tool: the runner prints its JSON summary (events, lost, hook, loader,
	 * observer) at the end.
	 */
	int (*report)(struct ptk_bpf_run *r, long i, double itv_s, bool last);
	/* Optional: everything is attached and the banner printed (start a command traced from
	 * its first instruction). 0, or an exit code that ends the run. */
	int (*started)(struct ptk_bpf_run *r);
	/* Optional: free the tool's own state (links it made itself...), before the runner
	 * destroys the light skeleton (its links closed first) or the libbpf skeleton. */
	void (*destroy)(struct ptk_bpf_run *r);
	bool needs_tracefs; /* attaches tracepoints by name (perf_event): mount tracefs */

	/* ---- the tool's state (r->priv), made by ptk_bpf_cmd ---- */
	size_t priv_size; /* 0: none (r->priv is NULL) */
	const void *priv_init; /* its first value (priv_size bytes), or NULL: zeroed */
};

/* prepare(): stop here and exit 0 (stopped by a signal before the run). */
#define PTK_BPF_DONE (-1)

/* The most columns of an event table (ptk_bpf_event_table). */
#define PTK_BPF_MAX_COLS 16

struct ptk_bpf_run {
	struct ptk_ctx *ctx;
	struct ptk_bpf_filter filter;
	const struct ptk_bpf_ops *ops;
	void *priv; /* the tool's own state */
	/* the libbpf skeleton (PTK_BPF_OPEN), its object and bpftool's skeleton of it */
	void *skel;
	struct bpf_object *obj;
	struct bpf_object_skeleton *skeleton;
	/* the light skeleton loaded (PTK_BPF_LSKEL), its program, link and map fds and its
	 * destructor (called by the runner at the end); NULL: libbpf */
	void *lskel;
	void (*lskel_free)(void *lskel);
	int *lskel_progs, *lskel_links;
	size_t lskel_nprogs, lskel_nlinks;
	const struct bpf_map_desc *lskel_maps;
	size_t lskel_nmaps;
	const char *hook; /* the hooks chosen ("tp_btf", "fexit"...), for the JSON, or NULL */
	/* programs the tool loaded itself (copies of its skeleton's), counted in the observer
	 * cost with the skeleton's; the tool closes them */
	const int *xprogs;
	size_t nxprogs;
	/* the tool's one-line reason when its load or attach failed ("" : the runner's) */
	char load_err[512];
	/* event tools: the ring buffer of events_fd (map "events", made by the runner), the
	 * events shown, and the table they are printed as; any tool: the per-CPU lost counters
	 * of map "lost" (lost_fd, -1 without one), its slots lost_keys (bit k: slot k; 0: slot 0),
	 * summed since the start */
	int events_fd, lost_fd;
	u32 lost_keys;
	struct ring_buffer *rb;
	u64 events;
	struct ptk_table tab;
	struct ptk_metric tab_cols[PTK_BPF_MAX_COLS];
	int tab_map[PTK_BPF_MAX_COLS]; /* shown column -> the tool's column */
	double interval_s; /* 0: report only at exit (Ctrl-C, or duration_s) */
	long count; /* reports to print; < 0 unbounded */
	double duration_s; /* > 0: stop after this long (for tests and scripts) */
	/* "Tracing ... Hit Ctrl-C to end.": printed on stderr once attached (also with --json:
	 * scripts wait for it), so a failure stays one line */
	char banner[256];
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
 * A BPF command: parse the command line as ops describes (common options into r->filter,
 * the tool's own through ops->opt, the operands into interval_s/count or duration_s), then
 * ptk_bpf_run with priv as r->priv. Returns the process exit code.
 */
int ptk_bpf_main(struct ptk_ctx *ctx, const struct ptk_bpf_ops *ops, void *priv, int argc,
		 char **argv);

/*
 * A BPF command as the command table runs it: ptk_bpf_main with a fresh state of
 * ops->priv_size bytes, a copy of ops->priv_init (zeroed without one), freed at the end.
 * Returns the process exit code.
 */
int ptk_bpf_cmd(struct ptk_ctx *ctx, const struct ptk_bpf_ops *ops, int argc, char **argv);

/*
 * Run a tool whose options are parsed. Returns the process exit code (0, 1 runtime error
 * with one line printed).
 */
int ptk_bpf_run(struct ptk_bpf_run *r);

/* Load and attach the libbpf skeleton opened with PTK_BPF_OPEN. 0 or -errno. */
int ptk_bpf_skel_load(struct ptk_bpf_run *r);
/* Destroy it (to open it again with other programs). */
void ptk_bpf_skel_destroy(struct ptk_bpf_run *r);

/* Open the libbpf skeleton struct NAME into r (skel, obj, skeleton). Evaluates to it, or
 * NULL with errno set. */
#define PTK_BPF_OPEN(r, NAME)                         \
	({                                            \
		struct NAME *o_ = NAME##__open();     \
		if (o_) {                             \
			(r)->skel = o_;               \
			(r)->obj = o_->obj;           \
			(r)->skeleton = o_->skeleton; \
		}                                     \
		o_;                                   \
	})

/*
 * The destructor of the light skeleton struct NAME as the runner calls it (r->lskel_free):
 * one line at file scope for each light skeleton type a tool loads with PTK_BPF_LSKEL*.
 */
#define PTK_BPF_LSKEL_FREE(NAME)             \
	static void NAME##__free(void *skel) \
	{                                    \
		NAME##__destroy(skel);       \
	}
/* Both flavours of PTK_BPF_LSKEL_PAIR. */
#define PTK_BPF_LSKEL_PAIR_FREE(NAME)      \
	PTK_BPF_LSKEL_FREE(NAME##_btf_bpf) \
	PTK_BPF_LSKEL_FREE(NAME##_raw_bpf)

/*
 * The loaded light skeleton l of type struct NAME is the one the run uses: its programs for
 * the run-time stats, its maps for ptk_bpf_map_fd(), its links to close (all at once) when the
 * run ends, and then the skeleton to destroy (NAME##__free, from PTK_BPF_LSKEL_FREE).
 */
#define PTK_BPF_USE_LSKEL(r, NAME, l)                                               \
	do {                                                                        \
		(r)->lskel = (l);                                                   \
		(r)->lskel_free = NAME##__free;                                     \
		(r)->lskel_progs = (int *)&(l)->progs;                              \
		(r)->lskel_nprogs = sizeof((l)->progs) / sizeof(int);               \
		(r)->lskel_links = (int *)&(l)->links;                              \
		(r)->lskel_nlinks = sizeof((l)->links) / sizeof(int);               \
		(r)->lskel_maps = (const struct bpf_map_desc *)&(l)->maps;          \
		(r)->lskel_nmaps = sizeof((l)->maps) / sizeof(struct bpf_map_desc); \
	} while (0)

/* PTK_LSKEL_LOAD, and on success PTK_BPF_USE_LSKEL. Evaluates to 0 or -errno. */
#define PTK_BPF_LSKEL(r, NAME, out, SETUP)                 \
	({                                                 \
		int e_ = PTK_LSKEL_LOAD(NAME, out, SETUP); \
		if (!e_)                                   \
			PTK_BPF_USE_LSKEL(r, NAME, out);   \
		e_;                                        \
	})

/*
 * The light skeletons of a tool built in a tp_btf and a raw_tp flavour (struct NAME_btf_bpf,
 * NAME_raw_bpf; PTK_BPF_LSKEL_PAIR_FREE(NAME) at file scope): tp_btf first unless
 * PTK_BPF_LSKEL=raw, then raw_tp, set up by SETUP_BTF or SETUP_RAW (as PTK_LSKEL_LOAD's); the
 * one loaded is r->lskel, and r->hook says which. Evaluates to 0 or the -errno of the last try.
 */
#define PTK_BPF_LSKEL_PAIR(r, NAME, SETUP_BTF, SETUP_RAW)                         \
	({                                                                        \
		struct NAME##_btf_bpf *b_ = NULL;                                 \
		struct NAME##_raw_bpf *w_ = NULL;                                 \
		int p_ = -ENOTSUP;                                                \
		if (ptk_bpf_loader_wanted() != PTK_BPF_LSKEL_RAW &&               \
		    !(p_ = PTK_BPF_LSKEL(r, NAME##_btf_bpf, b_, SETUP_BTF)))      \
			(r)->hook = "tp_btf";                                     \
		else if (!(p_ = PTK_BPF_LSKEL(r, NAME##_raw_bpf, w_, SETUP_RAW))) \
			(r)->hook = "raw_tp";                                     \
		p_;                                                               \
	})

/*
 * Event tools: the table events are printed as, the columns cols[0..n) but those whose bit is
 * set in hide (bit i: cols[i]); then ptk_bpf_event_row(r, vals) prints one event from the
 * values of all n columns.
 */
void ptk_bpf_event_table(struct ptk_bpf_run *r, const char *name, const struct ptk_metric *cols,
			 int n, u64 hide);
void ptk_bpf_event_row(struct ptk_bpf_run *r, const struct ptk_val *vals);

/* JSON: "hook" (when r->hook is set) and "loader" (when the tool has a light skeleton). */
void ptk_bpf_meta_loader(struct ptk_bpf_run *r);

/* "HH:MM:SS" local time now, in buf (16 bytes); returns buf. */
char *ptk_bpf_clock(char *buf, size_t size);

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

/*
 * The fd of the loaded map called name (its name in the object, as the kernel keeps it: at
 * most 15 characters), whichever loader loaded it: libbpf's object, or the light skeleton's
 * maps looked up by their kernel names. Returns the fd (owned by the run), or -ENOENT.
 */
int ptk_bpf_map_fd(struct ptk_bpf_run *r, const char *name);

/*
 * The frames of stack id of a BPF_MAP_TYPE_STACK_TRACE map, leaf first, into ips[0..max)
 * (zeroed first). Returns their number, id itself when it is negative (bpf_get_stackid()'s
 * -errno: -EEXIST a bucket collision or a full map, -EFAULT unreadable), or -errno from the
 * lookup (-ENOENT: the id was reused or cleared since).
 */
int ptk_bpf_stack_read(int fd, s64 id, u64 *ips, int max);

/*
 * The frame of one report: ptk_sink_begin(), then in JSON span_key (e.g. "interval_s") =
 * span_s and the loader (ptk_bpf_meta_loader()). ptk_bpf_report_end() adds, in JSON, the
 * observer object (ptk_bpf_observer_json()) and ends it (ptk_sink_end()).
 */
void ptk_bpf_report_begin(struct ptk_bpf_run *r, const char *span_key, double span_s);
void ptk_bpf_report_end(struct ptk_bpf_run *r);

/* Sum of one u64 slot of a BPF_MAP_TYPE_PERCPU_ARRAY over all possible CPUs (the lost-event
 * counters of event tools). Returns the sum, 0 when the map cannot be read. */
u64 ptk_bpf_percpu_sum(int map_fd, u32 key);
/* The same, and the slot set back to 0 on every CPU. */
u64 ptk_bpf_percpu_take(int map_fd, u32 key);

/*
 * Every entry of a hash map, as an array of n structs of stride bytes (zeroed, at least one)
 * holding each key at koff and its value at voff; with take, each entry read is deleted (the
 * keys read, and only those: a loop deleting "the first key" until none is left would not end
 * while the programs add keys back). A map of fewer key bytes than ksize fills the first of
 * them, the rest zeros. Free the array. Use PTK_BPF_MAP_ENTRIES.
 */
void *ptk_bpf_map_entries(int fd, size_t koff, size_t ksize, size_t voff, size_t stride, bool take,
			  size_t *n);
#define PTK_BPF_MAP_ENTRIES(fd, T, k, v, take, n)                                          \
	((T *)ptk_bpf_map_entries(fd, offsetof(T, k), sizeof(((T *)0)->k), offsetof(T, v), \
				  sizeof(T), take, n))

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

/* A tracepoint program of a light skeleton and where its link goes (PTK_LSKEL_TP). */
struct ptk_bpf_tp {
	int prog_fd;
	int *link_fd;
	const char *cat, *event;
	bool optional; /* a tracepoint this kernel may not have (open(2) on arm64): skipped */
};
#define PTK_LSKEL_TP(l, prog, cat, event, optional)                                  \
	{                                                                            \
		(l)->progs.prog.prog_fd, &(l)->links.prog##_fd, cat, event, optional \
	}

/*
 * Attach each program of tps[0..n) with ptk_bpf_attach_tp, its link fd into *link_fd. 0, or
 * the first -errno (then the links made are closed again).
 */
int ptk_bpf_attach_tps(const struct ptk_bpf_tp *tps, size_t n);

/*
 * Load the light skeleton struct NAME (PTK_LSKEL_LOAD with SETUP), attach the tracepoint
 * programs that TPS(l) lists (PTK_LSKEL_TP entries) and use it (PTK_BPF_USE_LSKEL). Evaluates
 * to 0 or -errno (then the skeleton is freed).
 */
#define PTK_BPF_LSKEL_TPS(r, NAME, SETUP, TPS)                            \
	({                                                                \
		struct NAME *t_ = NULL;                                   \
		int te_ = PTK_LSKEL_LOAD(NAME, t_, SETUP);                \
		if (!te_) {                                               \
			const struct ptk_bpf_tp tps_[] = { TPS(t_) };     \
			te_ = ptk_bpf_attach_tps(tps_, ARRAY_SIZE(tps_)); \
			if (te_)                                          \
				NAME##__destroy(t_);                      \
			else                                              \
				PTK_BPF_USE_LSKEL(r, NAME, t_);           \
		}                                                         \
		te_;                                                      \
	})

/*
 * Detach: close the link fds fds[0..n) at once, each from its own thread, and set them to -1.
 * Closing a perf_event tracepoint link waits for RCU grace periods (perf_trace_event_unreg ->
 * tracepoint_synchronize_unregister, ~50-80 ms each here); concurrent waits share them, so n
 * links take about one instead of n in a row. fds <= 0 are skipped.
 */
void ptk_bpf_close_links(int *fds, size_t n);

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
		(skel)->rodata->filter_uid = (f)->filter_uid;             \
		(skel)->rodata->targ_uid = (f)->uid;                      \
	} while (0)

struct bpf_program;
/* Keep the cheapest hook of a pair: the tp_btf program when the kernel has a BTF-typed
 * tracepoint for tp, else the raw_tp one. Returns true when tp_btf was chosen. */
bool ptk_bpf_pick_tp(struct bpf_program *tp_btf, struct bpf_program *raw_tp, const char *tp);

#endif
