// SPDX-License-Identifier: GPL-2.0
/* ptk biolatency: block I/O latency histograms (optionally per disk, per flags, per stage),
 * aggregated in the kernel, after libbpf-tools biolatency. */
#include <assert.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "biolatency.skel.h"
/* light skeletons, one per hook flavour (kernel-side loader: no vmlinux BTF parse here) */
#include "biolatency_btf.lskel.h"
#include "biolatency_raw.lskel.h"
#include "cmd/cmd.h"
#include "model/hist.h"
#include "source/bpf/biolatency.h"
#include "source/bpf/blk.h"
#include "source/bpf/runner.h"

static const char usage[] =
	"usage: ptk biolatency [-T] [-m] [-D] [-F] [-Q] [--stages] [-d DISK] [-c COMM] [-p PID]\n"
	"                      [--json] [interval [count]]\n"
	"Block I/O latency as a log2 histogram aggregated in the kernel (libbpf-tools\n"
	"biolatency): from block_rq_issue (driver dispatch) to the final block_rq_complete of each\n"
	"request. Without an interval it reports once at Ctrl-C.\n"
	"  -T           timestamp each report\n"
	"  -m           milliseconds instead of microseconds\n"
	"  -D           one histogram per disk\n"
	"  -F           one histogram per request flags (op and REQ_* flags)\n"
	"  -Q           include the OS queue time (from block_rq_insert)\n"
	"  --stages     three histograms, as blktrace's events: Q2D (insert->issue, OS queue),\n"
	"               D2C (issue->complete, device) and Q2C (insert->complete, total)\n"
	"  -d DISK      only this disk (a name under /sys/block)\n"
	"  -p PID / -c COMM  only I/O submitted by this process / command (block_io_start)\n"
	"p50/p90/p99/max are bucket upper bounds derived from the histogram.\n";

enum { OPT_STAGES = 0x1200 };

struct priv {
	bool per_disk, per_flag, queued, stages;
	const char *disk;
	u32 dev;
};

/* a light skeleton (tp_btf flavour, else raw_tp), or the libbpf skeleton in r->skel on kernels
 * before 5.17 or with the pre-5.11 (q, rq) block tracepoints (PTK_BPF_LSKEL=0 forces it, =raw
 * the raw_tp light skeleton) */
PTK_BPF_LSKEL_PAIR_FREE(biolatency)

/* The per-report request counters, described once for text and JSON. */
enum { C_DONE, C_NOQ, C_PART, C_NEG, C_UNTR, C_N };
static const struct ptk_metric count_cols[C_N] = {
	[C_DONE] = { "completed", "completed", "requests", PTK_GAUGE, PTK_V_U64, 10, 0,
		     "requests counted, at their final block_rq_complete" },
	[C_NOQ] = { "no-insert", "no_insert", "requests", PTK_GAUGE, PTK_V_U64, 10, 0,
		    "of those, issued without block_rq_insert (bypassed the scheduler): not in "
		    "Q2D/Q2C, Q2C falls back to D2C with -Q" },
	[C_PART] = { "partial", "partial_completions", "events", PTK_GAUGE, PTK_V_U64, 10, 0,
		     "block_rq_complete with bytes still outstanding (not counted)" },
	[C_NEG] = { "negative", "negative_dropped", "deltas", PTK_GAUGE, PTK_V_U64, 10, 0,
		    "latencies < 0 dropped" },
	[C_UNTR] = { "untracked", "untracked", "requests", PTK_GAUGE, PTK_V_U64, 10, 0,
		     "completions of requests issued before tracing started (not counted)" },
};
static const struct ptk_table count_tab = { "requests", count_cols, C_N };
static_assert((int)C_N == (int)BIOLAT_CNT_MAX, "one column per BPF counter");

static const char *const stage_names[] = {
	[BIOLAT_LAT] = "",
	[BIOLAT_Q2D] = "Q2D",
	[BIOLAT_D2C] = "D2C",
	[BIOLAT_Q2C] = "Q2C",
};
static const char *const stage_help[] = {
	[BIOLAT_LAT] = "",
	[BIOLAT_Q2D] = "block_rq_insert -> block_rq_issue: OS queue",
	[BIOLAT_D2C] = "block_rq_issue -> block_rq_complete: device service",
	[BIOLAT_Q2C] = "block_rq_insert -> block_rq_complete: total",
};

static bool task_filter(const struct ptk_bpf_filter *f)
{
	return f->tgid || f->tid || f->comm[0] || f->cgroup_id;
}

/* The read-only data of any of the three skeletons (io_start_hooked set apart). */
#define BL_SET_RODATA(skel, r, p)                                        \
	do {                                                             \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);                 \
		(skel)->rodata->targ_per_disk = (p)->per_disk;           \
		(skel)->rodata->targ_per_flag = (p)->per_flag;           \
		(skel)->rodata->targ_queued = (p)->queued;               \
		(skel)->rodata->targ_stages = (p)->stages;               \
		(skel)->rodata->targ_ms = (r)->filter.millis;            \
		(skel)->rodata->filter_dev = (p)->disk != NULL;          \
		(skel)->rodata->targ_dev = (p)->dev;                     \
		(skel)->rodata->filter_task = task_filter(&(r)->filter); \
	} while (0)

/* Open the libbpf skeleton and keep the hooks this kernel has (BTF probes). 0 or -errno. */
static int open_libbpf(struct ptk_bpf_run *r)
{
	struct biolatency_bpf *s = PTK_BPF_OPEN(r, biolatency_bpf);
	struct priv *p = r->priv;
	bool io_start = false;

	if (!s)
		return -errno;
	BL_SET_RODATA(s, r, p);

	/* the submitting task is only needed for -p/-c/-t/--cgroup */
	if (task_filter(&r->filter) && ptk_bpf_has_tp_btf("block_io_start"))
		io_start = true;
	s->rodata->io_start_hooked = io_start;
	bpf_program__set_autoload(s->progs.tp_btf_block_io_start, io_start);

	r->hook = PTK_BLK_PICK_HOOKS(s);
	return 0;
}

/* The tp_btf flavour hooks block_io_start (6.5+) too: it judges the submitting task. */
#define BL_SETUP_BTF(s)                                                 \
	do {                                                            \
		BL_SET_RODATA(s, r, p);                                 \
		(s)->rodata->io_start_hooked = task_filter(&r->filter); \
	} while (0)
#define BL_SETUP_RAW(s) BL_SET_RODATA(s, r, p)

/*
 * Try the light skeletons: tp_btf, then raw_tp (kernels >= 5.17 have both the loader and the
 * one-argument block tracepoints, so no arity probe is needed). 0 or -errno of the last try.
 */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int err = PTK_BPF_LSKEL_PAIR(r, biolatency, BL_SETUP_BTF, BL_SETUP_RAW);

	if (!err && !strcmp(r->hook, "tp_btf") && !task_filter(&r->filter)) {
		/* block_io_start is not needed: detach it */
		struct biolatency_btf_bpf *l = r->lskel;

		close(l->links.tp_btf_block_io_start_fd);
		l->links.tp_btf_block_io_start_fd = -1;
	}
	return err;
}

struct entry {
	struct biolat_key k;
	struct biolat_hist h;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct biolat_key *x = &((const struct entry *)a)->k;
	const struct biolat_key *y = &((const struct entry *)b)->k;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->flags != y->flags)
		return x->flags < y->flags ? -1 : 1;
	return (int)x->stage - (int)y->stage;
}

static int bl_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;
	struct entry *e;
	size_t n;
	struct json_object *arr = NULL;
	const char *unit = r->filter.millis ? "msecs" : "usecs";
	u64 cnt[BIOLAT_CNT_MAX];
	struct ptk_val v[C_N];

	(void)i;
	(void)last;
	/* take each histogram out of the map as it is read */
	e = PTK_BPF_MAP_ENTRIES(ptk_bpf_map_fd(r, "hists"), struct entry, k, h, true, &n);
	for (u32 k = 0; k < BIOLAT_CNT_MAX; k++)
		cnt[k] = ptk_bpf_percpu_take(ptk_bpf_map_fd(r, "counts"), k);
	if (n > 1)
		qsort(e, n, sizeof(*e), entry_cmp);

	if (r->ctx->json)
		arr = json_object_new_array();
	for (size_t j = 0; j < n; j++) {
		struct ptk_hist h = { .unit = unit };
		char disk[64] = "", flags[256] = "";
		u32 st = e[j].k.stage;
		bool new_group =
			j == 0 || e[j].k.dev != e[j - 1].k.dev || e[j].k.flags != e[j - 1].k.flags;

		memcpy(h.slot, e[j].h.slots, sizeof(h.slot));
		if (p->per_disk)
			ptk_blk_dev_name(e[j].k.dev, disk, sizeof(disk));
		if (p->per_flag)
			ptk_blk_flags_str(e[j].k.flags, flags, sizeof(flags));
		if (arr) {
			struct json_object *o = json_object_new_object();
			if (p->per_disk)
				json_object_object_add(o, "disk", json_object_new_string(disk));
			if (p->per_flag) {
				json_object_object_add(o, "flags", json_object_new_string(flags));
				json_object_object_add(o, "cmd_flags",
						       json_object_new_uint64(e[j].k.flags));
			}
			if (p->stages)
				json_object_object_add(o, "stage",
						       json_object_new_string(stage_names[st & 3]));
			json_object_object_add(o, "hist", ptk_hist_json(&h));
			json_object_array_add(arr, o);
			continue;
		}
		if (new_group && (p->per_disk || p->per_flag)) {
			putchar('\n');
			if (p->per_disk)
				printf(p->per_flag ? "disk = %s\t" : "disk = %s", disk);
			if (p->per_flag)
				printf("flags = %s", flags);
			putchar('\n');
		}
		if (p->stages)
			printf("\n%s (%s)\n", stage_names[st & 3], stage_help[st & 3]);
		ptk_hist_print(stdout, &h);
	}
	free(e);

	v[C_DONE] = PTK_U(cnt[BIOLAT_CNT_DONE]);
	v[C_NOQ] = PTK_U(cnt[BIOLAT_CNT_NO_INSERT]);
	v[C_PART] = PTK_U(cnt[BIOLAT_CNT_PARTIAL]);
	v[C_NEG] = PTK_U(cnt[BIOLAT_CNT_NEGATIVE]);
	v[C_UNTR] = PTK_U(cnt[BIOLAT_CNT_UNTRACKED]);
	ptk_bpf_report_begin(r, "interval_s", itv);
	if (arr) {
		ptk_sink_meta_str(sink, "measure",
				  p->stages ? "stages" :
				  p->queued ? "Q2C" :
					      "D2C");
		if (p->disk)
			ptk_sink_meta_str(sink, "disk_filter", p->disk);
		ptk_sink_meta_json(sink, "histograms", arr);
	} else {
		putchar('\n');
	}
	ptk_sink_table_begin(sink, &count_tab, true, NULL);
	ptk_sink_row(sink, NULL, v);
	ptk_sink_table_end(sink);
	if (!arr)
		putchar('\n');
	ptk_bpf_report_end(r);
	return 0;
}

/* -d DISK, and -P/-L refused with what to use */
static int bl_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	if (c != 'd')
		return ptk_usage_error(r->ctx, "-%c is not supported here (try -D or -F)", c);
	p->disk = arg;
	return ptk_blk_disk_opt(r->ctx, arg, &p->dev);
}

static int bl_parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;

	if (p->stages && p->queued)
		return ptk_usage_error(r->ctx, "--stages already shows the queue time: drop -Q");
	return 0;
}

static const struct ptk_bpf_opt bl_opts[] = {
	PTK_BPF_FLAG('D', "disks", struct priv, per_disk),
	PTK_BPF_FLAG('F', "flag", struct priv, per_flag),
	PTK_BPF_FLAG('Q', "queued", struct priv, queued),
	PTK_BPF_CALL('d', "disk", required_argument),
	PTK_BPF_FLAG(OPT_STAGES, "stages", struct priv, stages),
	PTK_BPF_CALL('P', NULL, no_argument),
	PTK_BPF_CALL('L', NULL, no_argument),
	{ 0 },
};

const struct ptk_bpf_ops ptk_biolatency_ops = {
	.name = "biolatency",
	.usage = usage,
	.banner = "block device I/O",
	.opts = bl_opts,
	.common = PTK_BPF_OPT_TASK | PTK_BPF_OPT_MS | PTK_BPF_OPT_VERBOSE | PTK_BPF_OPT_TIMESTAMP,
	.operands = PTK_BPF_INTERVAL_COUNT,
	.opt = bl_opt,
	.parsed = bl_parsed,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.report = bl_report,
	.priv_size = sizeof(struct priv),
};
