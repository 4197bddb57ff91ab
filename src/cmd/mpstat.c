// SPDX-License-Identifier: GPL-2.0
/*
 * ptk mpstat: per-CPU utilization, as sysstat mpstat -u [-P ...].
 *
 * Per-CPU times are keyed by the "cpuN" label of /proc/stat (struct ptk_stat present[]), never
 * by line order, so an offline CPU in the middle (cpu0 cpu1 cpu3) keeps every other CPU in its
 * own row. An offline CPU is printed with all-zero values as sysstat does ("online": false in
 * JSON); a CPU that came back online since the previous sample has no valid baseline, so its
 * values for that interval are unavailable ("-" / null) rather than a since-boot ratio.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/activity.h"

#define MP_MAX_CPUS 8192

/* mpstat's columns: registry entries (model/registry.c), in mpstat's narrower text layout */
static const enum ptk_mid mp_mids[] = {
	PTK_M_CPU_ID,	  PTK_M_CPU_USR,   PTK_M_CPU_NICE, PTK_M_CPU_SYS,
	PTK_M_CPU_IOWAIT, PTK_M_CPU_IRQ,   PTK_M_CPU_SOFT, PTK_M_CPU_STEAL,
	PTK_M_CPU_GUEST,  PTK_M_CPU_GNICE, PTK_M_CPU_IDLE,
};
#define M_N ((int)ARRAY_SIZE(mp_mids))
static struct ptk_metric mp_cols[M_N];
static const struct ptk_table mp_tab = { "cpus", mp_cols, M_N };

/* The registry's entries with mpstat's widths (4 for CPU, 7 for a share), as sysstat prints. */
static void mp_table_init(void)
{
	for (int i = 0; i < M_N; i++) {
		mp_cols[i] = ptk_registry[mp_mids[i]];
		mp_cols[i].width = i == 0 ? 4 : 7;
	}
}

static const char usage[] =
	"usage: ptk mpstat [-P ALL|ON|cpu-list] [-u] [--json] [interval [count]]\n"
	"Per-CPU utilization, as sysstat mpstat: %usr %nice %sys %iowait %irq %soft %steal\n"
	"%guest %gnice %idle for all CPUs together (default) or the CPUs selected with -P\n"
	"(e.g. -P ALL, -P 0,2-3). Without an interval: one report since boot. With one: a\n"
	"report per interval, then Average: lines (also on Ctrl-C). An offline CPU prints zeros.\n";

struct mp {
	struct ptk_snap first, prev, cur;
	struct ptk_rows rows; /* the cpu activity's rows of a report */
	bool *sel; /* selected CPUs (ncpu) */
	bool show_all; /* the "all" row */
	bool per_cpu; /* any CPU row: header repeated per interval */
	bool only_online; /* -P ON */
	int ncpu; /* CPUs shown: highest present/online + 1 */
	char prev_clock[32]; /* time of the previous sample (header) */
	long reports;
};

/* CPU n is online in s: listed in /proc/stat (and not offline per the online file). */
static bool cpu_online(const struct ptk_snap *s, int n)
{
	if (n >= s->st.ncpu || !s->st.present[n])
		return false;
	return !ptk_snap_has(s, PTK_SNAP_ONLINE) || (n < s->online_n && s->online[n]);
}

/* CPU n is online per the online file, yet /proc/stat has no line for it: that file was cut
 * short, and the CPU's times are unknown (not an offline CPU's zeros). */
static bool cpu_unlisted(const struct ptk_snap *s, int n)
{
	return ptk_snap_has(s, PTK_SNAP_ONLINE) && n < s->online_n && s->online[n] &&
	       (n >= s->st.ncpu || !s->st.present[n]);
}

/* v: the cpu activity's row r in mpstat's columns; x for every value when r is NULL */
static void fill(struct ptk_val *v, const struct ptk_row *r, struct ptk_val x)
{
	for (int i = 1; i < M_N; i++)
		v[i] = r ? r->v[ptk_act_col(&ptk_activities[PTK_ACT_CPU], mp_mids[i])] : x;
}

/*
 * Print one report between snapshots o and n (o NULL: since boot). prefix is the time of
 * day or "Average:"; hdr_prefix the prefix of the header line, NULL for no header.
 */
static void report(struct ptk_ctx *ctx, struct mp *m, const struct ptk_snap *o,
		   const struct ptk_snap *n, const char *prefix, const char *hdr_prefix,
		   const char *kind, double itv)
{
	static const struct ptk_act_opts per_cpu = { .per_cpu = true };
	struct ptk_sink *s = &ctx->sink;
	struct json_object *arr = NULL;
	struct ptk_val v[M_N];
	char label[16];

	m->rows.n = 0;
	ptk_activities[PTK_ACT_CPU].rows(o, n, itv, &per_cpu, &m->rows);
	if (ctx->json) {
		ptk_sink_begin(s);
		ptk_sink_meta_str(s, "type", kind);
		if (strcmp(kind, "average"))
			ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_f64(s, "interval_s", itv);
		ptk_sink_meta_u64(s, "ncpu", m->ncpu);
		arr = json_object_new_array();
	} else if (hdr_prefix) {
		fputc('\n', s->out);
		ptk_sink_table_begin(s, &mp_tab, true, hdr_prefix);
	} else {
		ptk_sink_table_begin(s, &mp_tab, false, NULL);
	}
	for (int c = -1; c < m->ncpu; c++) {
		bool online = true;

		if (c < 0 ? !m->show_all : !m->sel[c])
			continue;
		if (c < 0) {
			snprintf(label, sizeof(label), "all");
		} else {
			snprintf(label, sizeof(label), "%d", c);
			online = cpu_online(n, c);
			if (!online && m->only_online)
				continue;
		}
		v[0] = PTK_S(label);
		/* sysstat prints an offline CPU as zeros; one that came online has no baseline
		 * for this interval: its row is unknown */
		fill(v, online ? ptk_rows_find(&m->rows, label) : NULL,
		     c >= 0 && cpu_unlisted(n, c) ? PTK_NA : PTK_F(0));
		if (ctx->json) {
			struct json_object *row = ptk_json_row(&mp_tab, v);
			json_object_object_add(row, "online", json_object_new_boolean(online));
			json_object_array_add(arr, row);
		} else {
			ptk_sink_row(s, prefix, v);
		}
	}
	if (ctx->json)
		ptk_sink_meta_json(s, "cpus", arr);
	else
		ptk_sink_table_end(s);
	ptk_sink_end(s);
}

static int read_sample(struct ptk_ctx *ctx, struct ptk_snap *s)
{
	int r = ptk_snap_read(&ctx->src, s, PTK_SNAP_BIT(PTK_SNAP_ONLINE));

	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, s->err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

static int mp_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct mp *m = arg;
	char clock[32];
	int r;

	if (i == 0) {
		if ((r = read_sample(ctx, &m->prev)))
			return r;
		ptk_snap_copy(&m->first, &m->prev);
		ptk_ctx_clock(ctx, m->prev_clock, sizeof(m->prev_clock));
		return 0;
	}
	if ((r = read_sample(ctx, &m->cur)))
		return r;
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	report(ctx, m, &m->prev, &m->cur, clock,
	       (m->per_cpu || m->reports == 0) ? m->prev_clock : NULL, "interval", itv);
	m->reports++;
	ptk_snap_copy(&m->prev, &m->cur);
	snprintf(m->prev_clock, sizeof(m->prev_clock), "%s", clock);
	return 0;
}

/* CPUs the report covers: highest of /proc/stat labels, present and online lists, + 1. */
static int count_cpus(struct ptk_ctx *ctx, struct mp *m)
{
	char buf[4096];
	bool *present = xcalloc(MP_MAX_CPUS, sizeof(bool));
	int n = MAX(m->prev.st.ncpu, m->prev.online_n), r;

	if (ptk_src_read(&ctx->src, PTK_SYS, "devices/system/cpu/present", buf, sizeof(buf)) > 0) {
		r = ptk_parse_cpulist(buf, present, MP_MAX_CPUS);
		if (r > n)
			n = r;
	}
	free(present);
	return MIN(n, MP_MAX_CPUS);
}

int cmd_mpstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	struct mp m = { 0 };
	const char *parg = NULL;
	bool has_itv;
	double interval = 1;
	long count = -1;
	int c, r, rc = 0;

	while ((c = getopt_long(argc, argv, "P:u", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			parg = optarg;
			break;
		case 'u':
			break; /* CPU utilization: the only report */
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				return 0;
			}
			if (r < 0)
				return ptk_usage_error(ctx, "unknown option");
		}
	}
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		return r;
	m.sel = xcalloc(MP_MAX_CPUS, sizeof(bool));
	m.show_all = true;
	if (parg) {
		if (!strcasecmp(parg, "ALL")) {
			for (int i = 0; i < MP_MAX_CPUS; i++)
				m.sel[i] = true;
		} else if (!strcasecmp(parg, "ON")) {
			for (int i = 0; i < MP_MAX_CPUS; i++)
				m.sel[i] = true;
			m.only_online = true;
		} else {
			int hi = ptk_parse_cpulist(parg, m.sel, MP_MAX_CPUS);
			if (hi <= 0 || hi > MP_MAX_CPUS) {
				rc = ptk_usage_error(ctx, "invalid -P value '%s'", parg);
				goto out_free_samples;
			}
			m.show_all = false;
		}
		m.per_cpu = true;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out_free_samples;
	mp_table_init();
	if ((rc = read_sample(ctx, &m.prev)))
		goto out_free_samples;
	m.ncpu = count_cpus(ctx, &m);
	if (parg && !m.show_all) {
		for (int i = m.ncpu; i < MP_MAX_CPUS; i++) {
			if (m.sel[i]) {
				rc = ptk_usage_error(ctx,
						     "invalid -P value '%s': CPU %d does not exist",
						     parg, i);
				goto out_free_samples;
			}
		}
	}
	if (!ctx->json) {
		ptk_ctx_banner(ctx, m.ncpu);
		ctx->sink.prefix_width = 11;
	}
	if (!has_itv) {
		char clock[32];
		ptk_ctx_clock(ctx, clock, sizeof(clock));
		report(ctx, &m, NULL, &m.prev, clock, clock, "since_boot", m.prev.up.up_s);
		goto out_free_samples;
	}
	r = ptk_loop(ctx, interval, count, mp_sample, &m);
	if (r > 0) {
		rc = r;
		goto out_free_samples;
	}
	if (m.reports > 0)
		report(ctx, &m, &m.first, &m.prev, "Average:", m.per_cpu ? "Average:" : NULL,
		       "average", m.prev.up.up_s - m.first.up.up_s);
out_free_samples:
	ptk_snap_free(&m.first);
	ptk_snap_free(&m.prev);
	ptk_snap_free(&m.cur);
	ptk_rows_free(&m.rows);
	free(m.sel);
	return rc;
}
