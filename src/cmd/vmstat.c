// SPDX-License-Identifier: GPL-2.0
/*
 * ptk vmstat: processes, memory, swap, I/O, system and CPU summary with the layout of
 * procps-ng 4.0.2 vmstat (normal and -w wide, the wide one with the gu column).
 *
 * The first line is "since boot", computed as procps 4.0.2 does: every event counter is
 * scaled by HZ and divided by the CPU ticks since boot summed over all CPUs (user + nice +
 * system + irq + softirq + idle + iowait + steal), i.e. (count * HZ + Div/2) / Div. On an
 * N-CPU machine that is the since-boot rate divided by N: procps's formula, kept so the
 * numbers match. Later lines are deltas over the measured interval.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "source/procfs/procfs.h"

enum {
	V_R,
	V_B,
	V_SWPD,
	V_FREE,
	V_BUFF,
	V_CACHE,
	V_SI,
	V_SO,
	V_BI,
	V_BO,
	V_IN,
	V_CS,
	V_US,
	V_SY,
	V_ID,
	V_WA,
	V_ST,
	V_GU,
	V_TIME,
	V_N
};
/* Widths are the normal layout; wide_width[] holds the -w ones (procps fields[]). */
static const struct ptk_metric vm_cols[V_N] = {
	[V_R] = { "r", "r", "", PTK_GAUGE, PTK_V_U64, 2, 0,
		  "runnable tasks, running or waiting for a CPU (/proc/stat procs_running)" },
	[V_B] = { "b", "b", "", PTK_GAUGE, PTK_V_U64, 2, 0,
		  "tasks in uninterruptible sleep, usually I/O (/proc/stat procs_blocked)" },
	[V_SWPD] = { "swpd", "swpd", "unit", PTK_GAUGE, PTK_V_U64, 6, 0,
		     "swap in use: SwapTotal - SwapFree (/proc/meminfo)" },
	[V_FREE] = { "free", "free", "unit", PTK_GAUGE, PTK_V_U64, 6, 0,
		     "unused RAM (/proc/meminfo MemFree)" },
	[V_BUFF] = { "buff", "buff", "unit", PTK_GAUGE, PTK_V_U64, 6, 0,
		     "block device buffers (/proc/meminfo Buffers); -a: inact = Inactive" },
	[V_CACHE] = { "cache", "cache", "unit", PTK_GAUGE, PTK_V_U64, 6, 0,
		      "page cache + reclaimable slab (/proc/meminfo Cached + SReclaimable); "
		      "-a: active = Active" },
	[V_SI] = { "si", "si", "unit/s", PTK_GAUGE, PTK_V_U64, 4, 0,
		   "swapped in from disk per second (/proc/vmstat pswpin x page size)" },
	[V_SO] = { "so", "so", "unit/s", PTK_GAUGE, PTK_V_U64, 4, 0,
		   "swapped out to disk per second (/proc/vmstat pswpout x page size)" },
	[V_BI] = { "bi", "bi", "blocks/s", PTK_GAUGE, PTK_V_U64, 5, 0,
		   "KiB read from block devices per second (/proc/vmstat pgpgin)" },
	[V_BO] = { "bo", "bo", "blocks/s", PTK_GAUGE, PTK_V_U64, 5, 0,
		   "KiB written to block devices per second (/proc/vmstat pgpgout)" },
	[V_IN] = { "in", "in", "/s", PTK_GAUGE, PTK_V_U64, 4, 0,
		   "interrupts per second (/proc/stat intr, first field)" },
	[V_CS] = { "cs", "cs", "/s", PTK_GAUGE, PTK_V_U64, 4, 0,
		   "context switches per second (/proc/stat ctxt)" },
	[V_US] = { "us", "us", "%", PTK_GAUGE, PTK_V_U64, 2, 0,
		   "user + nice time without guest (/proc/stat cpu user, nice - guest)" },
	[V_SY] = { "sy", "sy", "%", PTK_GAUGE, PTK_V_U64, 2, 0,
		   "kernel time incl. irq and softirq (/proc/stat cpu system, irq, softirq)" },
	[V_ID] = { "id", "id", "%", PTK_GAUGE, PTK_V_U64, 2, 0, "idle time (/proc/stat cpu idle)" },
	[V_WA] = { "wa", "wa", "%", PTK_GAUGE, PTK_V_U64, 2, 0,
		   "idle while I/O was outstanding (/proc/stat cpu iowait)" },
	[V_ST] = { "st", "st", "%", PTK_GAUGE, PTK_V_U64, 2, 0,
		   "stolen by the hypervisor (/proc/stat cpu steal)" },
	[V_GU] = { "gu", "gu", "%", PTK_GAUGE, PTK_V_U64, 2, 0,
		   "running guests, inside us (/proc/stat cpu guest + guest_nice)" },
	[V_TIME] = { "timestamp", "timestamp", "", PTK_GAUGE, PTK_V_STR, 19, 0,
		     "local time of the sample, -t (wall clock; replay: btime + uptime)" },
};
static const int wide_width[V_N] = { 4, 4, 12, 12, 12, 12, 4, 4, 5, 5, 4, 4, 3, 3, 3, 3, 3, 3, 19 };

static const char usage[] =
	"usage: ptk vmstat [-a] [-n] [-t] [-w] [-y] [-S k|K|m|M] [--json] [delay [count]]\n"
	"Processes, memory, swap, I/O, system and CPU activity, as procps-ng 4.0.2 vmstat.\n"
	"The first line is the average since boot (vmstat's formula); the following lines\n"
	"cover each interval. With a delay and no count, runs until interrupted.\n"
	" -a, --active      inact/active instead of buff/cache\n"
	" -n, --one-header  print the header once\n"
	" -S, --unit C      memory unit: k (1000), K (1024, default), m (10^6), M (2^20)\n"
	" -t, --timestamp   append the local time\n"
	" -w, --wide        wide layout (adds the gu column)\n"
	" -y, --no-first    skip the since-boot line\n";

struct vm_sample {
	struct ptk_stat st;
	struct ptk_vmstat vm;
	struct ptk_meminfo mi;
};

struct vm_state {
	bool active, one_header, timestamp, wide, no_first;
	u64 unit; /* bytes per display unit */
	int height;
	long hz, page_kb;
	struct ptk_metric cols[V_N];
	struct ptk_table tab;
	struct vm_sample s[2];
	int cur;
	long lines;
};

static u64 conv_kb(const struct vm_state *v, u64 kb)
{
	/* procps unitConvert: kB * 1024 / unit; exact here (procps rounds through a float) */
	return (u64)((unsigned __int128)kb * 1024 / v->unit);
}

static int read_sample(struct ptk_ctx *ctx, struct vm_sample *s)
{
	int r;

	if ((r = ptk_stat_read(&ctx->src, &s->st))) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if ((r = ptk_meminfo_read(&ctx->src, &s->mi))) {
		ptk_err("cannot read %s/meminfo: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if ((r = ptk_vmstat_read(&ctx->src, &s->vm))) {
		ptk_err("cannot read %s/vmstat: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

static void print_header(struct ptk_ctx *ctx, struct vm_state *v)
{
	FILE *out = ctx->sink.out;

	fputs(v->wide ? "--procs-- -----------------------memory---------------------- ---swap-- "
			"-----io---- -system-- ----------cpu----------" :
			"procs -----------memory---------- ---swap-- -----io---- -system-- "
			"------cpu-----",
	      out);
	if (v->timestamp)
		fputs(" -----timestamp-----", out);
	fputc('\n', out);
	/* the column line comes from the metric table; -t titles its column with the zone */
	char zone[32] = "";
	if (v->timestamp) {
		time_t t = (time_t)ptk_ctx_walltime(ctx);
		struct tm tm;
		if (!localtime_r(&t, &tm) || !strftime(zone, sizeof(zone), "%Z", &tm))
			zone[0] = 0;
		zone[19] = 0;
		v->cols[v->tab.ncols - 1].name = zone;
	}
	ptk_sink_table_begin(&ctx->sink, &v->tab, true, NULL);
	ptk_sink_table_end(&ctx->sink);
	if (v->timestamp)
		v->cols[v->tab.ncols - 1].name = vm_cols[V_TIME].name;
}

/* (100 * x + Div/2) / Div, procps's rounding of a tick share */
static u64 pct(u64 x, u64 div)
{
	return (100 * x + div / 2) / div;
}

static int vm_sample_fn(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct vm_state *v = arg;
	struct vm_sample *now = &v->s[v->cur], *old = &v->s[!v->cur];
	struct ptk_val val[V_N];
	int r;

	if ((r = read_sample(ctx, now)))
		return r;
	v->cur = !v->cur;
	if (i == 0 && v->no_first)
		return 0;

	const struct ptk_cpu_times *a = &now->st.all, *o = &old->st.all;
	u64 t[PTK_CPU_NSTATES];
	for (int k = 0; k < PTK_CPU_NSTATES; k++)
		t[k] = i == 0 ? a->t[k] : ptk_delta_ticks(o->t[k], a->t[k]);
	u64 use = t[PTK_CPU_USER] + t[PTK_CPU_NICE];
	u64 sys = t[PTK_CPU_SYSTEM] + t[PTK_CPU_IRQ] + t[PTK_CPU_SOFTIRQ];
	u64 idl = t[PTK_CPU_IDLE], iow = t[PTK_CPU_IOWAIT], sto = t[PTK_CPU_STEAL];
	u64 gue = t[PTK_CPU_GUEST] + t[PTK_CPU_GUEST_NICE];
	u64 div = use + sys + idl + iow + sto;
	if (!div)
		div = 1, idl = 1;
	use = use >= gue ? use - gue : 0;

	const struct ptk_meminfo *m = &now->mi;
	val[V_R] = PTK_U(now->st.procs_running);
	val[V_B] = PTK_U(now->st.procs_blocked);
	val[V_SWPD] =
		PTK_U(conv_kb(v, m->swap_total > m->swap_free ? m->swap_total - m->swap_free : 0));
	val[V_FREE] = PTK_U(conv_kb(v, m->mem_free));
	val[V_BUFF] = PTK_U(conv_kb(v, v->active ? m->inactive : m->buffers));
	val[V_CACHE] = PTK_U(conv_kb(v, v->active ? m->active : m->cached + m->sreclaimable));

	u64 ev[6]; /* si so bi bo in cs: counts since boot, or over the interval */
	const struct ptk_vmstat *vn = &now->vm, *vo = &old->vm;
	if (i == 0) {
		ev[0] = conv_kb(v, vn->pswpin * v->page_kb);
		ev[1] = conv_kb(v, vn->pswpout * v->page_kb);
		ev[2] = vn->pgpgin;
		ev[3] = vn->pgpgout;
		ev[4] = now->st.intr;
		ev[5] = now->st.ctxt;
		for (int k = 0; k < 6; k++) /* procps: (count * HZ + Div/2) / Div */
			val[V_SI + k] = PTK_U((u64)((ev[k] * (double)v->hz + div / 2) / div));
	} else {
		ev[0] = conv_kb(v, ptk_delta(vo->pswpin, vn->pswpin) * v->page_kb);
		ev[1] = conv_kb(v, ptk_delta(vo->pswpout, vn->pswpout) * v->page_kb);
		ev[2] = ptk_delta(vo->pgpgin, vn->pgpgin);
		ev[3] = ptk_delta(vo->pgpgout, vn->pgpgout);
		ev[4] = ptk_delta(old->st.intr, now->st.intr);
		ev[5] = ptk_delta(old->st.ctxt, now->st.ctxt);
		for (int k = 0; k < 6; k++)
			val[V_SI + k] = itv > 0 ? PTK_U((u64)(ev[k] / itv + 0.5)) : PTK_NA;
	}
	val[V_US] = PTK_U(pct(use, div));
	val[V_SY] = PTK_U(pct(sys, div));
	val[V_ID] = PTK_U(pct(idl, div));
	val[V_WA] = PTK_U(pct(iow, div));
	val[V_ST] = PTK_U(pct(sto, div));
	val[V_GU] = PTK_U(pct(gue, div));

	char ts[32] = "";
	time_t wt = (time_t)ptk_ctx_walltime(ctx);
	struct tm tm;
	if (localtime_r(&wt, &tm))
		strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);

	if (ctx->json) {
		struct ptk_val jv[V_N];
		int n = 0;
		/* JSON: every column (gu too) and the timestamp whether or not -t */
		for (int k = 0; k < V_N; k++)
			jv[k] = val[k];
		jv[V_TIME] = PTK_S(ts);
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_bool(&ctx->sink, "since_boot", i == 0);
		ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
		ptk_sink_meta_u64(&ctx->sink, "mem_unit_bytes", v->unit);
		ptk_sink_meta_bool(&ctx->sink, "active_inactive", v->active);
		struct ptk_metric jc[V_N];
		struct ptk_table jt = { "vmstat", jc, V_N };
		for (int k = 0; k < V_N; k++)
			jc[n++] = vm_cols[k];
		if (v->active) {
			jc[V_BUFF].key = "inact";
			jc[V_CACHE].key = "active";
		}
		ptk_sink_meta_json(&ctx->sink, "vmstat", ptk_json_row(&jt, jv));
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	if (v->lines == 0 || (!v->one_header && v->height > 0 && i > 0 && i % v->height == 0))
		print_header(ctx, v);
	val[V_TIME] = PTK_S(ts);
	if (v->timestamp) /* the timestamp column is the last one of the table */
		val[v->tab.ncols - 1] = val[V_TIME];
	ptk_sink_table_begin(&ctx->sink, &v->tab, false, NULL);
	ptk_sink_row(&ctx->sink, NULL, val);
	ptk_sink_table_end(&ctx->sink);
	fflush(ctx->sink.out);
	v->lines++;
	return 0;
}

int cmd_vmstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "active", no_argument, NULL, 'a' },
					      { "one-header", no_argument, NULL, 'n' },
					      { "unit", required_argument, NULL, 'S' },
					      { "wide", no_argument, NULL, 'w' },
					      { "timestamp", no_argument, NULL, 't' },
					      { "no-first", no_argument, NULL, 'y' },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct vm_state *v = xcalloc(1, sizeof(*v));
	double interval = 1.0;
	long count = 1;
	bool has_itv;
	int c, r;

	v->unit = 1024;
	opterr = 0; /* one error line, ours */
	while ((c = getopt_long(argc, argv, "anS:wty", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			v->active = true;
			break;
		case 'n':
			v->one_header = true;
			break;
		case 'w':
			v->wide = true;
			break;
		case 't':
			v->timestamp = true;
			break;
		case 'y':
			v->no_first = true;
			break;
		case 'S':
			switch (optarg[0]) {
			case 'k':
				v->unit = 1000;
				break;
			case 'K':
				v->unit = 1024;
				break;
			case 'm':
				v->unit = 1000000;
				break;
			case 'M':
				v->unit = 1048576;
				break;
			default:
				r = ptk_usage_error(ctx,
						    "-S requires k, K, m or M (default is KiB)");
				goto out;
			}
			if (optarg[1]) {
				r = ptk_usage_error(ctx,
						    "-S requires k, K, m or M (default is KiB)");
				goto out;
			}
			break;
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				r = 0;
				goto out;
			}
			if (r < 0) {
				r = ptk_usage_error(ctx, "invalid option or missing argument: '%s'",
						    argv[optind - 1]);
				goto out;
			}
		}
	}
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		goto out;
	if (has_itv && argc - optind == 1)
		count = -1; /* delay without count: until interrupted */
	if ((r = ptk_ctx_ready(ctx)))
		goto out;
	if (ctx->src.replay && !has_itv)
		count = -1; /* a snapshot tree: one line per snapshot */
	if (v->no_first && count > 0)
		count++; /* as procps: -y still prints count lines, all intervals */

	v->hz = sysconf(_SC_CLK_TCK);
	if (v->hz <= 0)
		v->hz = 100;
	v->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	if (v->page_kb <= 0)
		v->page_kb = 4;
	struct winsize ws;
	int rows = 24;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1 && ws.ws_row > 0)
		rows = ws.ws_row;
	v->height = rows - 3 > 0 ? rows - 3 : 22;

	int n = 0;
	for (int k = 0; k <= V_GU; k++) {
		if (k == V_GU && !v->wide)
			continue; /* 4.0.2 shows gu only in the wide layout */
		v->cols[n] = vm_cols[k];
		if (v->wide)
			v->cols[n].width = wide_width[k];
		n++;
	}
	if (v->active) {
		v->cols[V_BUFF].name = "inact";
		v->cols[V_CACHE].name = "active";
	}
	if (v->timestamp)
		v->cols[n++] = vm_cols[V_TIME];
	v->tab = (struct ptk_table){ "vmstat", v->cols, n };

	r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, vm_sample_fn, v);
	r = r > 0 ? r : 0;
out:
	ptk_stat_free(&v->s[0].st);
	ptk_stat_free(&v->s[1].st);
	free(v);
	return r;
}
