/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The aggregation engine: any probe's events (tracepoints, kernel functions, user functions,
 * USDT probes: source/bpf/probe.h) counted, summed, kept as min/max or put in a histogram
 * per key in the kernel, sent whole as events, or kept as a table of live objects, by ONE
 * precompiled program per hook type configured through read-only data (agg_abi.h; no
 * compiler at run time). ptk agg is its command line; funccount, funclatency, stackcount,
 * trace, memleak, ltrace and blktrace are configurations of it.
 *
 * A request is a list of probe specs (struct ptk_agg_spec). A spec alone aggregates its own
 * events; a pair (an AGG_ROLE_ENTRY spec followed by its AGG_ROLE_RETURN) is matched per
 * thread (or on a value both have), and the return aggregates with what the entry kept:
 * the time between them ("lat"), and any value only the entry can read (a function's
 * arguments at a uretprobe): each name the return cannot resolve is read at the entry.
 * ptk agg's own request (one probe, or --from/--to, or --latency) is turned into specs by
 * ptk_agg_parse().
 *
 * Values are named as the probe has them: a tracepoint's fields (FIELD[i] for an element of
 * a numeric array), a kernel function's arguments by their BTF names (and NAME->member.sub),
 * arg0..arg5 of a user function or kprobe, the arguments of a USDT probe, retval at a return;
 * with a cast "(u32)arg1", "str(arg0)" for the string a pointer points to, "*arg0" for the
 * u64 it points to; and the properties of the probe and the task: comm, pid, tid, cgroup,
 * uid, cpu, probe (which target fired), syscall (its name), kstack, ustack, lat (write
 * @comm... when the probe has a value of that name).
 *
 * Use: fill the request, check it with ptk_agg_parse(), make it the r->priv of a
 * ptk_bpf_ops that has PTK_AGG_OPS (or PTK_AGG_EVENT_OPS), and call ptk_agg_prepare() from
 * the ops' prepare() (it resolves every probe and name); the runner then loads, attaches,
 * reports (ptk_agg_report: the rows through model/agg.h) and detaches.
 *
 *	static struct ptk_agg a = { .mode = PTK_AGG_COUNT, .event = "sched:sched_switch",
 *				    .by = "prev_comm" };
 *
 * Errors: 0, -EINVAL for a request that cannot be (a usage error: exit 2), -EOPNOTSUPP for
 * what the kernel lacks (kprobes, trampolines) or another -errno (runtime errors: exit 1);
 * the one-line reason is in a->err either way.
 */
#ifndef PTK_SOURCE_BPF_AGG_H
#define PTK_SOURCE_BPF_AGG_H

#include <linux/types.h>

#include "model/agg.h"
#include "source/bpf/agg_abi.h"
#include "source/bpf/probe.h"
#include "source/bpf/runner.h"
#include "source/tracefs/tracefs.h"

#define PTK_AGG_MAX_SPECS 24 /* probe specs of one request */
#define PTK_AGG_MAX_PROGS 32 /* programs: a spec per USDT argument layout */

/* A probe as the engine resolves it (the name kept for the tests and callers of 0.x). */
#define ptk_agg_probe ptk_probe

/* One probe of a request. */
struct ptk_agg_spec {
	const char *probe; /* the probe (probe.h) */
	enum agg_role role; /* ONE, or ENTRY then RETURN (the next spec) of a pair */
	enum agg_mode mode; /* a RETURN's or ONE's aggregation; an ENTRY's: NONE, TRACK_DEL */
	const char *value; /* the value aggregated or tracked (an object's size) */
	const char *value2; /* times this one (calloc's nmemb * size), or NULL */
	bool value_pow2; /* the value is an exponent: 1 << value */
	s64 value_scale; /* then times this (0: 1) */
	const char *track; /* AGG_TRACK_*: the object's key (an address) */
	const char *ev; /* AGG_EVENT: the values sent, comma-separated */
	const char *filter; /* this probe's own conditions (with the request's), or NULL */
	const char *match; /* a pair: the value matched (NULL: the thread) */
	bool frame; /* a pair of user probes: also matched on the stack frame (recursion) */
	bool optional; /* a probe the kernel or file may lack: left out then (with its pair) */
	u32 sample; /* > 1: one event in sample */
	bool has_range; /* only values in [vmin, vmax] */
	u64 vmin, vmax;
};

/* A key part as the program reads it and as the rows show it. */
struct ptk_agg_key {
	struct agg_field f;
	struct ptk_agg_col col;
	bool syscall; /* a syscall number, shown by name */
};

/* One value of an event, as decoded (ptk_agg_event_decode). */
struct ptk_agg_evval {
	char name[PTK_AGG_NAME_MAX];
	enum ptk_vtype type; /* PTK_V_STR, PTK_V_U64 or PTK_V_S64 */
	u32 ofs, len; /* in the event's data */
	enum {
		PTK_AGG_EV_PLAIN,
		PTK_AGG_EV_SYSCALL,
		PTK_AGG_EV_PROBE
	} named; /* a number
										* shown by name */
};

/* An event from the ring buffer, decoded. */
struct ptk_agg_ev {
	int spec; /* which spec sent it */
	const char *target; /* which of its targets fired ("malloc", "block:block_rq_issue") */
	u64 ts_ns; /* CLOCK_MONOTONIC */
	u32 pid, tid, cpu;
	char comm[17];
	int nv;
	struct ptk_val v[AGG_MAX_EVF];
	char str[AGG_MAX_EVF][AGG_EV_STR + 1]; /* the strings of v[] */
};

/* A live object (AGG_TRACK_ADD) read back: its key, size and age. */
struct ptk_agg_obj {
	u64 addr;
	s64 size;
	u64 age_ns;
	int row; /* the row of its key (ptk_agg_track) */
};

struct ptk_symbolizer;

struct ptk_agg {
	/* ---- ptk agg's request (ptk_agg_parse turns it into specs) ---- */
	enum ptk_agg_mode mode;
	const char *event; /* the probe (every mode but PTK_AGG_LATENCY) */
	const char *from, *to; /* PTK_AGG_LATENCY between two probes ("CAT:EVENT:FIELD" each
				* for tracepoints, or --match) */
	const char *latency; /* PTK_AGG_LATENCY from a function's entry to its return */
	const char *match; /* --match FIELD[,FIELD]: the values a pair is matched on */
	const char *by; /* the keys, "KEY[,KEY...]", or NULL */
	const char *value; /* SUM, MIN, MAX, AVG, STATS, HIST, LHIST: the value */
	s64 lin_min, lin_step; /* PTK_AGG_LHIST: bucket i = [min + i*step, min + (i+1)*step), */
	u32 lin_nslots; /* i < nslots <= AGG_SLOTS (ptk_agg_linear_parse) */
	const char *filter; /* "FIELD OP VALUE [&& ...]", or NULL: for every probe */
	u64 lat_unit_ns; /* lat in these units (0: usecs, msecs with -m) */

	/* ---- or a tool's: the specs themselves (nspecs > 0 before ptk_agg_parse) ---- */
	int nspecs;
	struct ptk_agg_spec specs[PTK_AGG_MAX_SPECS];
	const char *result_unit; /* histograms: the unit shown (NULL: the value's name) */
	bool cli; /* the specs are ptk agg's request's (ptk_agg_parse made them) */
	bool frames_plain; /* stack frames by function name only (no +offset, no [module]) */

	/* ---- resolved (ptk_agg_parse, ptk_agg_prepare) ---- */
	int nprobes; /* programs: one per spec, one per USDT argument layout */
	struct ptk_probe probe[PTK_AGG_MAX_PROGS];
	int prog_spec[PTK_AGG_MAX_PROGS]; /* the spec of each */
	int prog_layout[PTK_AGG_MAX_PROGS]; /* USDT: its argument layout */
	struct agg_cfg cfg[PTK_AGG_MAX_PROGS];
	int nkeys;
	struct ptk_agg_key keys[PTK_AGG_MAX_KEYS];
	int nev; /* AGG_EVENT: the values of each spec's events */
	struct ptk_agg_evval evv[PTK_AGG_MAX_SPECS][AGG_MAX_EVF];
	int nevv[PTK_AGG_MAX_SPECS];
	char desc[1024]; /* "cat:event", "uprobe:... -> uretprobe:..." */
	size_t ntargets; /* targets attached in all */
	struct ptk_agg_result res; /* the shape of the rows */
	bool has_stack, has_ustack;
	u32 key_bytes; /* the bytes of a row's key its --by values take (0..AGG_KEY_SIZE) */
	u32 stacks_max;
	bool pid_given; /* -p PID: the uprobes are the process's only */
	char err[512];

	/* ---- the run ---- */
	int *links; /* link fds */
	size_t nlinks;
	struct ptk_probe_preopen preopen; /* the probes' perf events, opened while loading */
	bool preopen_started;
	int *progs; /* the program copies */
	size_t nprogs;
	int *fds; /* their data maps */
	size_t nfds;
	struct ptk_symbolizer *sym;
	void *ops_priv; /* the tool's own (an event tool's printer) */
	int (*on_event)(struct ptk_agg *a, const struct ptk_agg_ev *ev); /* event tools */
	/* optional: each report's rows, sorted, after they are printed (pprof output) */
	void (*on_rows)(struct ptk_agg *a, const struct ptk_agg_row *rows, size_t n);
};

/* Parse the request's probes (their syntax only) into specs. 0 or -EINVAL. */
int ptk_agg_parse(struct ptk_agg *a);

/*
 * Resolve the probes (tracefs formats, BTF, ELF symbols and notes; mounting tracefs when
 * needed) and the request (ptk_agg_configure). flt: the common options (-m msecs, -P/-L add
 * @pid/@tid to the keys, -p the process of user probes; the task filters are set at load).
 * Sets the runner's lost-event slots and banner of r when r is not NULL. 0, -EINVAL (an
 * unknown probe or field...), -EOPNOTSUPP (the kernel lacks the probe type), or -errno.
 */
int ptk_agg_prepare(struct ptk_agg *a, const struct ptk_bpf_filter *flt, struct ptk_bpf_run *r);

/*
 * The ops' prepare() of a command made of agg (funccount, funclatency, stackcount, trace,
 * memleak, ltrace, blktrace): ptk_ctx_ready(), then ptk_agg_prepare() with the run's filter.
 * Returns 0; or, with a's error printed and tracefs released, the exit code: 2 for a request
 * that cannot be (-EINVAL), 1 for what the kernel lacks or another failure; or PTK_BPF_DONE
 * when a signal came meanwhile.
 */
int ptk_agg_cmd_prepare(struct ptk_agg *a, struct ptk_bpf_run *r);

/* The state the bcc-style counting tools (funccount, funclatency, stackcount) share: first
 * in their r->priv. */
struct ptk_agg_tool {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	const char *operand; /* the PATTERN or FUNCTION */
	char probe[300]; /* it as a probe (ptk_probe_from_bcc) */
	char filter[32]; /* --cpu's filter */
	double interval, duration; /* seconds, 0: none */
};

/*
 * The ops' opt() of those tools, for their options by their long names in r->ops->opts:
 * "interval" and "duration" (seconds > 0), "cpu" (only the events on that CPU), "cgroup"
 * (the common --cgroup). r->priv is a struct ptk_agg_tool. 0, or the exit code of the usage
 * error printed (an invalid value, an option none of those).
 */
int ptk_agg_cmd_opt(struct ptk_bpf_run *r, int c, const char *arg);

/*
 * The ops' parsed() part those tools share: the one operand (what names it in the error:
 * "PATTERN") into t->operand and, as bcc writes probes, into t->probe. 0 or the exit code of
 * the usage error printed.
 */
int ptk_agg_cmd_operand(struct ptk_bpf_run *r, int argc, char **argv, const char *what);

/* Their request set in t->agg: ptk_agg_parse(), then the interval and duration given to r.
 * 0 or the exit code of the error printed (2 for a request that cannot be). */
int ptk_agg_cmd_parsed(struct ptk_bpf_run *r);

/* The same on the probes already resolved (a->probe[i].have_fmt: a tracepoint's record): the
 * names resolved, the programs' configurations and the rows' shape built. */
int ptk_agg_configure(struct ptk_agg *a, const struct ptk_bpf_filter *flt);

/*
 * Resolve name against probe p (USDT: its argument layout) into f (AGG_SRC_*, base, reads,
 * bytes in the key) and the type of its column. numeric: only numbers will do (a value, a
 * match). 0 or -EINVAL with the reason in err.
 */
int ptk_agg_field(const struct ptk_probe *p, const char *name, bool numeric, struct agg_field *f,
		  enum ptk_vtype *type, char *err, size_t errsz);
int ptk_agg_field_layout(const struct ptk_probe *p, int layout, const char *name, bool numeric,
			 struct agg_field *f, enum ptk_vtype *type, char *err, size_t errsz);

/* Parse a probe (with_field: a tracepoint may end in ":FIELD") into p. 0 or -EINVAL. */
int ptk_agg_probe_parse(const char *spec, bool with_field, struct ptk_probe *p, char *err,
			size_t errsz);

/* The runner's callbacks, r->priv being the struct ptk_agg. */
void ptk_agg_begin(struct ptk_bpf_run *r);
int ptk_agg_load_lskel(struct ptk_bpf_run *r);
int ptk_agg_open(struct ptk_bpf_run *r);
int ptk_agg_load(struct ptk_bpf_run *r);
/* Take the rows out of the maps (an interval's events go to the next one, not lost between
 * read and clear) and print them: interval_s, event, mode, loader, the rows, the observer. */
int ptk_agg_report(struct ptk_bpf_run *r, long i, double itv_s, bool last);
/* An event record: decoded and given to a->on_event. */
int ptk_agg_event(struct ptk_bpf_run *r, const void *data, size_t len);
void ptk_agg_destroy(struct ptk_bpf_run *r);

/*
 * Take the rows out of the maps without printing (tools that print their own way): rows
 * ordered heaviest first, their stacks symbolized. Free with ptk_agg_rows_free() and free().
 * 0 or -errno.
 */
int ptk_agg_take(struct ptk_bpf_run *r, struct ptk_agg_row **rows, size_t *n);

/*
 * The live objects (AGG_TRACK_ADD, not yet deleted) older than min_age_ns, grouped into rows
 * by key (count = objects, sum = bytes; heaviest first, stacks symbolized), and each object
 * with its row (*objs, ordered by row then address, when objs is not NULL). 0 or -errno.
 */
int ptk_agg_track(struct ptk_bpf_run *r, u64 min_age_ns, struct ptk_agg_row **rows, size_t *n,
		  struct ptk_agg_obj **objs, size_t *nobjs);

/* Decode one ring buffer record of ptk_agg_event into ev. 0, or -EINVAL (a short record). */
int ptk_agg_event_decode(const struct ptk_agg *a, const void *data, size_t len,
			 struct ptk_agg_ev *ev);

/* The name of cookie's target (AGG_SRC_PROBE values, events). */
const char *ptk_agg_target_name(const struct ptk_agg *a, u64 cookie);

/* The runner's load, attach and detach callbacks of the engine; PTK_AGG_OPS with its rows
 * printed at each report, PTK_AGG_EVENT_OPS with each event given to a->on_event. */
#define PTK_AGG_LOAD_OPS                                                                \
	.begin = ptk_agg_begin, .load_lskel = ptk_agg_load_lskel, .open = ptk_agg_open, \
	.load = ptk_agg_load, .destroy = ptk_agg_destroy, .needs_tracefs = true
#define PTK_AGG_OPS PTK_AGG_LOAD_OPS, .report = ptk_agg_report
#define PTK_AGG_EVENT_OPS PTK_AGG_LOAD_OPS, .event = ptk_agg_event

#endif
