// SPDX-License-Identifier: GPL-2.0
/* ptk cachestat: page cache hits, misses and dirties from counts of the kernel's page cache
 * functions, after libbpf-tools cachestat. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachestat.skel.h"
#include "cmd/cmd.h"
#include "source/bpf/cachestat.h"
#include "source/bpf/runner.h"
#include "source/procfs/procfs.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk cachestat [-T] [-v] [-p PID] [-c COMM] [--json] [interval [count]]\n"
	"Page cache hits, misses and dirties per interval (default 1 s, until Ctrl-C), from\n"
	"call counts of the kernel's page cache functions (libbpf-tools cachestat):\n"
	"  accesses = folio_mark_accessed - mark_buffer_dirty\n"
	"  misses   = filemap_add_folio - folio_account_dirtied (pages added by reads)\n"
	"  hits     = accesses - misses\n"
	"(or mark_page_accessed, add_to_page_cache_lru, account_page_dirtied on older kernels).\n"
	"Without fentry and kprobes it counts pages at the filemap tracepoints instead:\n"
	"accesses = pages looked up by reads (mm_filemap_get_pages), misses = pages added\n"
	"(mm_filemap_add_to_page_cache) - folios dirtied (writeback_dirty_folio).\n"
	"  -T           timestamp each line\n"
	"  -v           say which functions and hooks were attached (and libbpf debug output)\n"
	"  -p PID / -c COMM  only calls made by this process / command\n";

enum { C_HITS, C_MISSES, C_DIRTIES, C_RATIO, C_BUF, C_CACHED, C_N };
static const struct ptk_metric cs_cols[C_N] = {
	[C_HITS] = { "HITS", "hits", "", PTK_GAUGE, PTK_V_U64, 8, 0,
		     "page cache accesses that found the page: accesses - misses "
		     "(folio_mark_accessed - mark_buffer_dirty - misses)" },
	[C_MISSES] = { "MISSES", "misses", "", PTK_GAUGE, PTK_V_U64, 8, 0,
		       "pages added to the cache by reads: filemap_add_folio - "
		       "folio_account_dirtied" },
	[C_DIRTIES] = { "DIRTIES", "dirties", "", PTK_GAUGE, PTK_V_U64, 8, 0,
			"buffers dirtied (fs/buffer.c mark_buffer_dirty)" },
	[C_RATIO] = { "HITRATIO", "hit_ratio_pct", "%", PTK_GAUGE, PTK_V_F64, 8, 2,
		      "hits / accesses, in percent" },
	[C_BUF] = { "BUFFERS_MB", "buffers_mb", "MiB", PTK_GAUGE, PTK_V_U64, 12, 0,
		    "block device buffers (/proc/meminfo Buffers)" },
	[C_CACHED] = { "CACHED_MB", "cached_mb", "MiB", PTK_GAUGE, PTK_V_U64, 10, 0,
		       "page cache (/proc/meminfo Cached)" },
};
static const struct ptk_table cs_tab = { "cachestat", cs_cols, C_N };

enum hook { H_NONE, H_FENTRY, H_KPROBE, H_TP_BTF, H_RAW_TP, H_TRACEPOINT };
static const char *const hook_names[] = { "none",   "fentry", "kprobe",
					  "tp_btf", "raw_tp", "tracepoint" };

struct role {
	const char *name; /* accessed, added, dirtied, buffer_dirty */
	const char *const *funcs; /* candidates, newest first */
	const char *func; /* chosen function or tracepoint */
	enum hook hook;
	struct bpf_program *prog;
	struct bpf_link *link; /* kprobes, attached by hand */
};

struct priv {
	bool pages; /* tracepoint mode: accesses and misses in pages, not calls */
	struct role roles[CS_NR];
	u64 prev[CS_NR];
	u64 raw[CS_NR]; /* this interval's counts */
};

static const char *const f_accessed[] = { "folio_mark_accessed", "mark_page_accessed", NULL };
static const char *const f_added[] = { "filemap_add_folio", "add_to_page_cache_lru", NULL };
static const char *const f_dirtied[] = { "folio_account_dirtied", "account_page_dirtied", NULL };
static const char *const f_buf_dirty[] = { "mark_buffer_dirty", NULL };

/* libbpf attaches kprobes through the perf "kprobe" PMU (or tracefs kprobe_events): absent
 * when the kernel is built without CONFIG_KPROBES. */
static bool have_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0 ||
	       access("/sys/kernel/tracing/kprobe_events", F_OK) == 0;
}

static bool tp_exists(const char *cat, const char *event)
{
	struct ptk_tp_format *f = xcalloc(1, sizeof(*f));
	bool ok = ptk_tp_format_read(cat, event, f) == 0;

	free(f);
	return ok;
}

/* Pick the first candidate function that exists: fentry when it can attach, else kprobe. */
static void pick_func(struct role *ro, struct bpf_program *fentry, struct bpf_program *kprobe)
{
	bool kp = have_kprobes();

	for (int i = 0; ro->funcs[i]; i++) {
		if (ptk_bpf_has_fentry(ro->funcs[i])) {
			ro->func = ro->funcs[i];
			ro->hook = H_FENTRY;
			ro->prog = fentry;
			return;
		}
		if (kp && ptk_bpf_has_ksym(ro->funcs[i])) {
			ro->func = ro->funcs[i];
			ro->hook = H_KPROBE;
			ro->prog = kprobe;
			return;
		}
	}
}

static void set_role(struct role *ro, const char *func, enum hook hook, struct bpf_program *prog)
{
	ro->func = func;
	ro->hook = hook;
	ro->prog = prog;
}

static int cs_open(struct ptk_bpf_run *r)
{
	struct cachestat_bpf *s = PTK_BPF_OPEN(r, cachestat_bpf);
	struct priv *p = r->priv;
	struct bpf_program *prog;
	struct role *ro = p->roles;

	if (!s)
		return -errno;
	PTK_BPF_SET_FILTERS(s, &r->filter);
	bpf_object__for_each_program(prog, s->obj)
	{
		bpf_program__set_autoload(prog, false);
	}
	ro[CS_ACCESSED] = (struct role){ .name = "accessed", .funcs = f_accessed };
	ro[CS_ADDED] = (struct role){ .name = "added", .funcs = f_added };
	ro[CS_DIRTIED] = (struct role){ .name = "dirtied", .funcs = f_dirtied };
	ro[CS_BUF_DIRTY] = (struct role){ .name = "buffer_dirty", .funcs = f_buf_dirty };
	pick_func(&ro[CS_ACCESSED], s->progs.fentry_accessed, s->progs.kprobe_accessed);
	pick_func(&ro[CS_ADDED], s->progs.fentry_added, s->progs.kprobe_added);
	if (ro[CS_ACCESSED].hook == H_NONE || ro[CS_ADDED].hook == H_NONE) {
		/* no function hooks (no BPF trampolines, no kprobes): the filemap tracepoints,
		 * counting pages */
		if (!tp_exists("filemap", "mm_filemap_get_pages") ||
		    !tp_exists("filemap", "mm_filemap_add_to_page_cache")) {
			ptk_err("cachestat: neither fentry, kprobes nor the filemap tracepoints "
				"(mm_filemap_get_pages, 6.8+) are available on this kernel");
			return -ENOTSUP;
		}
		p->pages = true;
		set_role(&ro[CS_ACCESSED], "filemap:mm_filemap_get_pages", H_TRACEPOINT,
			 s->progs.tp_get_pages);
		set_role(&ro[CS_ADDED], "filemap:mm_filemap_add_to_page_cache", H_TRACEPOINT,
			 s->progs.tp_add_to_page_cache);
	} else {
		pick_func(&ro[CS_DIRTIED], s->progs.fentry_dirtied, s->progs.kprobe_dirtied);
		pick_func(&ro[CS_BUF_DIRTY], s->progs.fentry_buf_dirty, s->progs.kprobe_buf_dirty);
	}
	/* folio_account_dirtied is static and usually inlined: its tracepoint instead */
	if (ro[CS_DIRTIED].hook == H_NONE) {
		if (ptk_bpf_has_tp_btf("writeback_dirty_folio"))
			set_role(&ro[CS_DIRTIED], "writeback_dirty_folio", H_TP_BTF,
				 s->progs.tp_btf_dirty_folio);
		else if (tp_exists("writeback", "writeback_dirty_folio"))
			set_role(&ro[CS_DIRTIED], "writeback_dirty_folio", H_RAW_TP,
				 s->progs.raw_dirty_folio);
		else if (tp_exists("writeback", "writeback_dirty_page"))
			set_role(&ro[CS_DIRTIED], "writeback_dirty_page", H_RAW_TP,
				 s->progs.raw_dirty_page);
	}
	if (ro[CS_BUF_DIRTY].hook == H_NONE && tp_exists("block", "block_dirty_buffer"))
		set_role(&ro[CS_BUF_DIRTY], "block:block_dirty_buffer", H_TRACEPOINT,
			 s->progs.tp_dirty_buffer);
	for (int i = 0; i < CS_NR; i++) {
		if (ro[i].hook == H_NONE) {
			ptk_err("cachestat: no kernel function or tracepoint for the '%s' count "
				"(tried %s%s)",
				ro[i].name, ro[i].funcs[0], ro[i].funcs[1] ? " and others" : "");
			return -ENOENT;
		}
		bpf_program__set_autoload(ro[i].prog, true);
		if (ro[i].hook == H_FENTRY) {
			int err = bpf_program__set_attach_target(ro[i].prog, 0, ro[i].func);
			if (err)
				return err;
		}
	}
	return 0;
}

static int cs_load(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	/* fentry and tracepoints: the skeleton (kprobes without a target are skipped) */
	int err = ptk_bpf_skel_load(r);

	if (err)
		return err;
	for (int i = 0; i < CS_NR; i++) {
		struct role *ro = &p->roles[i];
		if (ro->hook == H_KPROBE) {
			ro->link = bpf_program__attach_kprobe(ro->prog, false, ro->func);
			if (!ro->link)
				return -errno;
		}
		if (r->filter.verbose)
			fprintf(stderr, "cachestat: %-12s %s:%s\n", ro->name, hook_names[ro->hook],
				ro->func);
	}
	return 0;
}

/* This interval's counts: the counters only grow, the difference since the last read. */
static void read_counts(struct ptk_bpf_run *r)
{
	struct cachestat_bpf *s = r->skel;
	struct priv *p = r->priv;

	for (u32 k = 0; k < CS_NR; k++) {
		u64 sum = ptk_bpf_percpu_sum(bpf_map__fd(s->maps.counts), k);

		p->raw[k] = sum - p->prev[k];
		p->prev[k] = sum;
	}
}

static int cs_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;
	struct ptk_meminfo mi;
	struct ptk_val v[C_N];
	s64 total, misses, hits;
	char ts[16] = "";

	read_counts(r);
	/* libbpf-tools cachestat's arithmetic: buffer dirtying is not a cache access, pages
	 * added because they were written are not read misses */
	total = (s64)p->raw[CS_ACCESSED];
	if (!p->pages) /* mark_buffer_dirty also marks its page accessed */
		total -= (s64)p->raw[CS_BUF_DIRTY];
	misses = (s64)p->raw[CS_ADDED] - (s64)p->raw[CS_DIRTIED];
	if (total < 0)
		total = 0;
	if (misses < 0)
		misses = 0;
	hits = total - misses;
	if (hits < 0) {
		/* readahead added more pages than were accessed: all accesses missed */
		misses = total;
		hits = 0;
	}
	v[C_HITS] = PTK_U(hits);
	v[C_MISSES] = PTK_U(misses);
	v[C_DIRTIES] = PTK_U(p->raw[CS_BUF_DIRTY]);
	v[C_RATIO] = total > 0 ? PTK_F(100.0 * hits / total) : PTK_F(0);
	if (ptk_meminfo_read(&r->ctx->src, &mi) == 0) {
		v[C_BUF] = PTK_U(mi.buffers / 1024);
		v[C_CACHED] = PTK_U(mi.cached / 1024);
	} else {
		v[C_BUF] = v[C_CACHED] = PTK_NA;
	}
	if (r->filter.timestamp) {
		ptk_bpf_clock(ts, sizeof(ts));
		sink->prefix_width = 8;
	}
	ptk_bpf_report_begin(r, "interval_s", itv);
	if (r->ctx->json) {
		struct json_object *raw = json_object_new_object(),
				   *probes = json_object_new_array();
		for (int k = 0; k < CS_NR; k++) {
			struct json_object *o = json_object_new_object();
			json_object_object_add(raw, p->roles[k].name,
					       json_object_new_uint64(p->raw[k]));
			json_object_object_add(o, "count",
					       json_object_new_string(p->roles[k].name));
			json_object_object_add(
				o, "hook", json_object_new_string(hook_names[p->roles[k].hook]));
			json_object_object_add(o, "func", json_object_new_string(p->roles[k].func));
			json_object_array_add(probes, o);
		}
		if (r->filter.timestamp)
			ptk_sink_meta_str(sink, "clock", ts);
		ptk_sink_meta_json(sink, "counts", raw);
		ptk_sink_meta_json(sink, "probes", probes);
		ptk_sink_meta_str(sink, "unit", p->pages ? "pages" : "calls");
	}
	ptk_sink_table_begin(sink, &cs_tab, i == 1, r->filter.timestamp ? "TIME" : NULL);
	ptk_sink_row(sink, ts, v);
	ptk_sink_table_end(sink);
	ptk_bpf_report_end(r);
	return 0;
}

static void cs_destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	for (int i = 0; i < CS_NR; i++) {
		bpf_link__destroy(p->roles[i].link);
		p->roles[i].link = NULL;
	}
}

const struct ptk_bpf_ops ptk_cachestat_ops = {
	.name = "cachestat",
	.usage = usage,
	.common = PTK_BPF_OPT_TASK | PTK_BPF_OPT_VERBOSE | PTK_BPF_OPT_TIMESTAMP,
	.operands = PTK_BPF_INTERVAL_COUNT,
	.interval_s = 1, /* libbpf-tools cachestat: 1 s until stopped */
	.own_timestamp = true, /* a TIME column */
	.open = cs_open,
	.load = cs_load,
	.report = cs_report,
	.destroy = cs_destroy,
	.needs_tracefs = true, /* tracepoint mode, and to see which tracepoints exist */
	.priv_size = sizeof(struct priv),
};
