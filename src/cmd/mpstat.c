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
#include <langinfo.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "source/procfs/procfs.h"

#define MP_MAX_CPUS 8192

enum {
	M_CPU,
	M_USR,
	M_NICE,
	M_SYS,
	M_IOWAIT,
	M_IRQ,
	M_SOFT,
	M_STEAL,
	M_GUEST,
	M_GNICE,
	M_IDLE,
	M_N
};

#define MP_PCT(title, key, help)                                  \
	{                                                         \
		title, key, "%", PTK_GAUGE, PTK_V_F64, 7, 2, help \
	}
static const struct ptk_metric mp_cols[M_N] = {
	[M_CPU] = { "CPU", "cpu", "", PTK_GAUGE, PTK_V_STR, 4, 0,
		    "processor number (the N of /proc/stat \"cpuN\"), or all" },
	[M_USR] = MP_PCT(
		"%usr", "usr_pct",
		"user mode, guest excluded: (user - guest) ticks (/proc/stat cpu fields 1, 9)"),
	[M_NICE] = MP_PCT("%nice", "nice_pct",
			  "niced user mode, guest_nice excluded (/proc/stat cpu fields 2, 10)"),
	[M_SYS] =
		MP_PCT("%sys", "sys_pct", "kernel mode, interrupts excluded (/proc/stat field 3)"),
	[M_IOWAIT] = MP_PCT("%iowait", "iowait_pct",
			    "idle with I/O outstanding (/proc/stat field 5; may go backwards)"),
	[M_IRQ] = MP_PCT("%irq", "irq_pct", "servicing hard interrupts (/proc/stat field 6)"),
	[M_SOFT] = MP_PCT("%soft", "soft_pct", "servicing softirqs (/proc/stat field 7)"),
	[M_STEAL] = MP_PCT("%steal", "steal_pct",
			   "involuntary wait while the hypervisor ran another vCPU (field 8)"),
	[M_GUEST] = MP_PCT("%guest", "guest_pct", "running a virtual CPU (/proc/stat field 9)"),
	[M_GNICE] = MP_PCT("%gnice", "gnice_pct", "running a niced guest (/proc/stat field 10)"),
	[M_IDLE] = MP_PCT("%idle", "idle_pct", "idle without I/O outstanding (/proc/stat field 4)"),
};
static const struct ptk_table mp_tab = { "cpus", mp_cols, M_N };

static const char usage[] =
	"usage: ptk mpstat [-P ALL|ON|cpu-list] [-u] [--json] [interval [count]]\n"
	"Per-CPU utilization, as sysstat mpstat: %usr %nice %sys %iowait %irq %soft %steal\n"
	"%guest %gnice %idle for all CPUs together (default) or the CPUs selected with -P\n"
	"(e.g. -P ALL, -P 0,2-3). Without an interval: one report since boot. With one: a\n"
	"report per interval, then Average: lines (also on Ctrl-C). An offline CPU prints zeros.\n";

struct mp {
	struct ptk_stat first, prev, cur;
	bool *sel; /* selected CPUs (ncpu) */
	bool *online; /* /sys/devices/system/cpu/online of the current sample */
	bool online_known; /* online file was readable */
	bool show_all; /* the "all" row */
	bool per_cpu; /* any CPU row: header repeated per interval */
	bool only_online; /* -P ON */
	int ncpu; /* CPUs shown: highest present/online + 1 */
	char prev_clock[32]; /* time of the previous sample (header) */
	double first_up, cur_up;
	long reports;
};

static int read_online(const struct ptk_ctx *ctx, struct mp *m)
{
	int r = ptk_cpu_online_read(&ctx->src, m->online, MP_MAX_CPUS);

	m->online_known = r >= 0;
	return r;
}

/* CPU n is online in st: listed in /proc/stat (and not offline per the online file). */
static bool cpu_online(const struct mp *m, const struct ptk_stat *st, int n)
{
	if (n >= st->ncpu || !st->present[n])
		return false;
	return !m->online_known || m->online[n];
}

/* One row of percentages between two cpu lines. */
static void fill_pct(struct ptk_val *v, const struct ptk_cpu_times *o,
		     const struct ptk_cpu_times *n)
{
	double pct[PTK_CPU_NSTATES], usr, nice;

	ptk_cpu_pct(o, n, pct);
	usr = pct[PTK_CPU_USER] - pct[PTK_CPU_GUEST];
	nice = pct[PTK_CPU_NICE] - pct[PTK_CPU_GUEST_NICE];
	v[M_USR] = PTK_F(usr > 0 ? usr : 0);
	v[M_NICE] = PTK_F(nice > 0 ? nice : 0);
	v[M_SYS] = PTK_F(pct[PTK_CPU_SYSTEM]);
	v[M_IOWAIT] = PTK_F(pct[PTK_CPU_IOWAIT]);
	v[M_IRQ] = PTK_F(pct[PTK_CPU_IRQ]);
	v[M_SOFT] = PTK_F(pct[PTK_CPU_SOFTIRQ]);
	v[M_STEAL] = PTK_F(pct[PTK_CPU_STEAL]);
	v[M_GUEST] = PTK_F(pct[PTK_CPU_GUEST]);
	v[M_GNICE] = PTK_F(pct[PTK_CPU_GUEST_NICE]);
	v[M_IDLE] = PTK_F(pct[PTK_CPU_IDLE]);
}

static void fill_const(struct ptk_val *v, struct ptk_val x)
{
	for (int i = M_USR; i < M_N; i++)
		v[i] = x;
}

/*
 * Print one report between snapshots o and n (o NULL: since boot). prefix is the time of
 * day or "Average:"; hdr_prefix the prefix of the header line, NULL for no header.
 */
static void report(struct ptk_ctx *ctx, struct mp *m, const struct ptk_stat *o,
		   const struct ptk_stat *n, const char *prefix, const char *hdr_prefix,
		   const char *kind, double itv)
{
	static const struct ptk_cpu_times zero;
	struct ptk_sink *s = &ctx->sink;
	struct json_object *arr = NULL;
	struct ptk_val v[M_N];
	char label[16];

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
			v[M_CPU] = PTK_S("all");
			fill_pct(v, o ? &o->all : &zero, &n->all);
		} else {
			snprintf(label, sizeof(label), "%d", c);
			v[M_CPU] = PTK_S(label);
			online = cpu_online(m, n, c);
			if (!online && m->only_online)
				continue;
			if (!online)
				fill_const(v,
					   PTK_F(0)); /* sysstat prints an offline CPU as zeros */
			else if (o && !(c < o->ncpu && o->present[c]))
				fill_const(v,
					   PTK_NA); /* came online: no baseline for this interval */
			else
				fill_pct(v, o ? &o->cpu[c] : &zero, &n->cpu[c]);
		}
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

static int read_sample(struct ptk_ctx *ctx, struct mp *m, struct ptk_stat *st)
{
	int r = ptk_stat_read(&ctx->src, st);

	if (r) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	read_online(ctx, m);
	m->cur_up = ptk_ctx_uptime(ctx);
	return 0;
}

static int mp_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct mp *m = arg;
	char clock[32];
	int r;

	if (i == 0) {
		if ((r = read_sample(ctx, m, &m->prev)))
			return r;
		ptk_stat_copy(&m->first, &m->prev);
		m->first_up = m->cur_up;
		ptk_ctx_clock(ctx, m->prev_clock, sizeof(m->prev_clock));
		return 0;
	}
	if ((r = read_sample(ctx, m, &m->cur)))
		return r;
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	report(ctx, m, &m->prev, &m->cur, clock,
	       (m->per_cpu || m->reports == 0) ? m->prev_clock : NULL, "interval", itv);
	m->reports++;
	ptk_stat_copy(&m->prev, &m->cur);
	snprintf(m->prev_clock, sizeof(m->prev_clock), "%s", clock);
	return 0;
}

/* "Linux 6.1.0 (host) \t11/29/26 \t_x86_64_\t(2 CPU)" as sysstat print_gal_header. */
static void banner(struct ptk_ctx *ctx, int ncpu)
{
	struct utsname u;
	char rel[128] = "", host[128] = "", date[64];
	time_t t = (time_t)ptk_ctx_walltime(ctx);
	struct tm tm;

	uname(&u);
	if (ptk_src_read(&ctx->src, PTK_PROC, "sys/kernel/osrelease", rel, sizeof(rel)) <= 0)
		snprintf(rel, sizeof(rel), "%s", u.release);
	if (ptk_src_read(&ctx->src, PTK_PROC, "sys/kernel/hostname", host, sizeof(host)) <= 0)
		snprintf(host, sizeof(host), "%s", u.nodename);
	rel[strcspn(rel, "\n")] = '\0';
	host[strcspn(host, "\n")] = '\0';
	localtime_r(&t, &tm);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	strftime(date, sizeof(date), nl_langinfo(D_FMT), &tm); /* %x, as sysstat */
#pragma GCC diagnostic pop
	printf("%s %s (%s) \t%s \t_%s_\t(%d CPU)\n", u.sysname, rel, host, date, u.machine, ncpu);
}

/* CPUs the report covers: highest of /proc/stat labels, present and online lists, + 1. */
static int count_cpus(struct ptk_ctx *ctx, struct mp *m)
{
	char buf[4096];
	int n = m->prev.ncpu, r;

	if (ptk_src_read(&ctx->src, PTK_SYS, "devices/system/cpu/present", buf, sizeof(buf)) > 0) {
		r = ptk_parse_cpulist(buf, m->online, MP_MAX_CPUS);
		if (r > n)
			n = r;
	}
	r = read_online(ctx, m); /* also restores m->online */
	if (r > n)
		n = r;
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
	m.online = xcalloc(MP_MAX_CPUS, sizeof(bool));
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
				goto out;
			}
			m.show_all = false;
		}
		m.per_cpu = true;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out;
	if ((rc = read_sample(ctx, &m, &m.prev)))
		goto out;
	m.ncpu = count_cpus(ctx, &m);
	if (parg && !m.show_all) {
		for (int i = m.ncpu; i < MP_MAX_CPUS; i++) {
			if (m.sel[i]) {
				rc = ptk_usage_error(ctx,
						     "invalid -P value '%s': CPU %d does not exist",
						     parg, i);
				goto out;
			}
		}
	}
	if (!ctx->json) {
		banner(ctx, m.ncpu);
		ctx->sink.prefix_width = 11;
	}
	if (!has_itv) {
		char clock[32];
		ptk_ctx_clock(ctx, clock, sizeof(clock));
		report(ctx, &m, NULL, &m.prev, clock, clock, "since_boot", m.cur_up);
		goto out;
	}
	r = ptk_loop(ctx, interval, count, mp_sample, &m);
	if (r > 0) {
		rc = r;
		goto out;
	}
	if (m.reports > 0)
		report(ctx, &m, &m.first, &m.prev, "Average:", m.per_cpu ? "Average:" : NULL,
		       "average", m.cur_up - m.first_up);
out:
	ptk_stat_free(&m.first);
	ptk_stat_free(&m.prev);
	ptk_stat_free(&m.cur);
	free(m.sel);
	free(m.online);
	return rc;
}
