/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The aggregation engine: any probe's events counted, summed or put in a histogram per key in
 * the kernel, by ONE precompiled program configured through read-only data (agg_abi.h; no
 * compiler at run time), or the latency from one probe to another matched by a field. ptk agg
 * is its command line; funccount, funclatency or stackcount are other configurations of it.
 *
 * A probe is a tracepoint "CATEGORY:EVENT" (its fields' offsets and sizes from the tracefs
 * format file). The keys, the value and the filter name fields of the probe's record, an
 * element FIELD[i] of a numeric array, or a property of the current task: comm, pid, tid,
 * cgroup, kstack (written @comm, @pid... when the record has a field of that name).
 *
 * Use: fill the request fields of a struct ptk_agg, check them with ptk_agg_parse(), make it
 * the r->priv of a ptk_bpf_ops that has PTK_AGG_OPS, and call ptk_agg_prepare() from the ops'
 * prepare() (it reads the formats and resolves every name); the runner then loads, attaches,
 * reports (ptk_agg_report: the rows through model/agg.h) and detaches.
 *
 *	static struct ptk_agg a = { .mode = PTK_AGG_COUNT, .event = "sched:sched_switch",
 *				    .by = "prev_comm" };
 *
 * Errors: 0, -EINVAL for a request that cannot be (a usage error: exit 2), or another -errno
 * (a runtime error); the one-line reason is in a->err either way.
 */
#ifndef PTK_SOURCE_BPF_AGG_H
#define PTK_SOURCE_BPF_AGG_H

#include <linux/types.h>

#include "model/agg.h"
#include "source/bpf/agg_abi.h"
#include "source/bpf/runner.h"
#include "source/tracefs/tracefs.h"

/* A probe: the tracepoint cat:name, and with a latency the field matched across the two. */
struct ptk_agg_probe {
	char cat[128], name[128];
	char field[PTK_AGG_NAME_MAX];
	struct ptk_tp_format fmt; /* its record (ptk_agg_prepare, or set by the caller) */
	bool have_fmt;
};

/* A key part as the program reads it and as the rows show it. */
struct ptk_agg_key {
	struct agg_field f;
	struct ptk_agg_col col;
};

struct ptk_symbolizer;
struct bpf_link;

struct ptk_agg {
	/* ---- the request ---- */
	enum ptk_agg_mode mode;
	const char *event; /* the probe, "CAT:EVENT" (every mode but PTK_AGG_LATENCY) */
	const char *from, *to; /* PTK_AGG_LATENCY: "CAT:EVENT:FIELD" each, matched on FIELD */
	const char *by; /* the keys, "KEY[,KEY...]", or NULL */
	const char *value; /* PTK_AGG_SUM, PTK_AGG_HIST, PTK_AGG_LHIST: the field */
	s64 lin_min, lin_step; /* PTK_AGG_LHIST: bucket i = [min + i*step, min + (i+1)*step), */
	u32 lin_nslots; /* i < nslots <= AGG_SLOTS (ptk_agg_linear_parse) */
	const char *filter; /* "FIELD OP VALUE", or NULL */

	/* ---- resolved (ptk_agg_parse, ptk_agg_prepare) ---- */
	int nprobes;
	struct ptk_agg_probe probe[AGG_NPROGS]; /* [0] the event or --from, [1] --to */
	int nkeys;
	struct ptk_agg_key keys[PTK_AGG_MAX_KEYS];
	struct agg_cfg cfg[AGG_NPROGS]; /* the program's read-only data, one per probe */
	char desc[1024]; /* "cat:event", or "cat:event:field -> cat:event:field" */
	struct ptk_agg_result res; /* the shape of the rows */
	bool has_stack;
	u32 stacks_max;
	char err[512];

	/* ---- the run ---- */
	struct bpf_link *links[AGG_NPROGS]; /* the libbpf loader's */
	struct ptk_symbolizer *sym;
	/* optional: each report's rows, sorted, after they are printed (pprof output) */
	void (*on_rows)(struct ptk_agg *a, const struct ptk_agg_row *rows, size_t n);
};

/* Parse the request's probes (their syntax only). 0 or -EINVAL. */
int ptk_agg_parse(struct ptk_agg *a);

/*
 * Read the probes' formats from tracefs (mounting it when needed) and resolve the request
 * (ptk_agg_configure). flt: the common options (-m msecs, -P/-L add @pid/@tid to the keys;
 * the task filters are set at load). Sets the runner's lost-event slots and banner of r when
 * r is not NULL. 0, -EINVAL (an unknown tracepoint or field...), or -errno.
 */
int ptk_agg_prepare(struct ptk_agg *a, const struct ptk_bpf_filter *flt, struct ptk_bpf_run *r);

/* The same on the formats already in a->probe[i].fmt (have_fmt): the fields of the keys, the
 * value and the filter resolved, the program's configuration and the rows' shape built. */
int ptk_agg_configure(struct ptk_agg *a, const struct ptk_bpf_filter *flt);

/*
 * Resolve name in probe p's record into f (AGG_SRC_*: offset, size, bytes in the key) and the
 * type of its column: a field, FIELD[i] of a numeric array, or a task property (comm, pid,
 * tid, cgroup, kstack; @name forces it). numeric: only numbers will do (a value, a match
 * field). 0 or -EINVAL with the reason in err.
 */
int ptk_agg_field(const struct ptk_agg_probe *p, const char *name, bool numeric,
		  struct agg_field *f, enum ptk_vtype *type, char *err, size_t errsz);

/* Parse a probe "CAT:EVENT" (with_field: "CAT:EVENT:FIELD") into p. 0 or -EINVAL. */
int ptk_agg_probe_parse(const char *spec, bool with_field, struct ptk_agg_probe *p, char *err,
			size_t errsz);

/* The runner's callbacks, r->priv being the struct ptk_agg. */
int ptk_agg_load_lskel(struct ptk_bpf_run *r);
int ptk_agg_open(struct ptk_bpf_run *r);
int ptk_agg_load(struct ptk_bpf_run *r);
/* Take the rows out of the maps (an interval's events go to the next one, not lost between
 * read and clear) and print them: interval_s, event, mode, loader, the rows, the observer. */
int ptk_agg_report(struct ptk_bpf_run *r, long i, double itv_s, bool last);
void ptk_agg_destroy(struct ptk_bpf_run *r);

#define PTK_AGG_OPS                                                                   \
	.load_lskel = ptk_agg_load_lskel, .open = ptk_agg_open, .load = ptk_agg_load, \
	.report = ptk_agg_report, .destroy = ptk_agg_destroy, .needs_tracefs = true

#endif
