// SPDX-License-Identifier: GPL-2.0
/*
 * ptk iostat: CPU and per-device I/O statistics, as sysstat iostat [-x].
 *
 * Rates come from ptk_disk_rates (model/delta.c), which follows sysstat's
 * compute_ext_disk_stats/write_ext_stat; the first report is since boot (interval = the
 * uptime) unless -y. A device whose counters drop between samples (recreated) shows 0 for that
 * interval, and one that appeared since the previous sample shows "-": it has no baseline.
 * The discard (d*) columns appear only when the kernel gives 15+ counters (>= 4.18), the flush
 * (f*) columns with 17 (>= 5.5).
 */
#include <json-c/json.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "source/procfs/procfs.h"

/* ---- metric descriptions ----------------------------------------------------------------- */

enum { C_USER, C_NICE, C_SYS, C_IOWAIT, C_STEAL, C_IDLE, C_N };
#define IO_PCT(title, key, help)                                  \
	{                                                         \
		title, key, "%", PTK_GAUGE, PTK_V_F64, 7, 2, help \
	}
static const struct ptk_metric cpu_cols[C_N] = {
	[C_USER] = IO_PCT("%user", "user_pct", "user mode incl. guest (/proc/stat cpu field 1)"),
	[C_NICE] = IO_PCT("%nice", "nice_pct", "niced user mode (/proc/stat cpu field 2)"),
	[C_SYS] = IO_PCT("%system", "system_pct",
			 "kernel mode incl. hard and soft interrupts (/proc/stat fields 3, 6, 7)"),
	[C_IOWAIT] =
		IO_PCT("%iowait", "iowait_pct", "idle with I/O outstanding (/proc/stat field 5)"),
	[C_STEAL] = IO_PCT("%steal", "steal_pct",
			   "involuntary wait for the hypervisor (/proc/stat field 8)"),
	[C_IDLE] = IO_PCT("%idle", "idle_pct", "idle without I/O outstanding (/proc/stat field 4)"),
};
static const struct ptk_table cpu_tab = { "avg_cpu", cpu_cols, C_N };

#define DEV_COL                                                       \
	{                                                             \
		"Device", "device", "", PTK_GAUGE, PTK_V_STR, -13, 0, \
			"block device (/proc/diskstats field 3)"      \
	}
#define F(title, key, unit, w, help)                               \
	{                                                          \
		title, key, unit, PTK_GAUGE, PTK_V_F64, w, 2, help \
	}

/* iostat -x, sysstat 12.6 layout. The kB columns are renamed MB with -m. */
enum {
	X_DEV,
	X_RS,
	X_RKB,
	X_RRQM,
	X_RRQM_PCT,
	X_RAWAIT,
	X_RAREQ,
	X_WS,
	X_WKB,
	X_WRQM,
	X_WRQM_PCT,
	X_WAWAIT,
	X_WAREQ,
	X_DS,
	X_DKB,
	X_DRQM,
	X_DRQM_PCT,
	X_DAWAIT,
	X_DAREQ,
	X_FS,
	X_FAWAIT,
	X_AQU,
	X_UTIL,
	X_N
};
static const struct ptk_metric x_cols[X_N] = {
	[X_DEV] = DEV_COL,
	[X_RS] = F("r/s", "r_s", "/s", 7, "reads completed (/proc/diskstats field 4)"),
	[X_RKB] = F("rkB/s", "rkB_s", "kB/s", 9, "kB read: sectors/2 (field 6)"),
	[X_RRQM] = F("rrqm/s", "rrqm_s", "/s", 8, "reads merged into another request (field 5)"),
	[X_RRQM_PCT] = F("%rrqm", "rrqm_pct", "%", 6, "merged / (merged + completed) reads"),
	[X_RAWAIT] = F("r_await", "r_await", "ms", 7,
		       "ms per read incl. queueing: read ticks / reads (fields 7, 4)"),
	[X_RAREQ] = F("rareq-sz", "rareq_sz", "kB", 8, "kB per read (fields 6, 4)"),
	[X_WS] = F("w/s", "w_s", "/s", 7, "writes completed (/proc/diskstats field 8)"),
	[X_WKB] = F("wkB/s", "wkB_s", "kB/s", 9, "kB written: sectors/2 (field 10)"),
	[X_WRQM] = F("wrqm/s", "wrqm_s", "/s", 8, "writes merged (field 9)"),
	[X_WRQM_PCT] = F("%wrqm", "wrqm_pct", "%", 6, "merged / (merged + completed) writes"),
	[X_WAWAIT] = F("w_await", "w_await", "ms", 7,
		       "ms per write incl. queueing: write ticks / writes (fields 11, 8)"),
	[X_WAREQ] = F("wareq-sz", "wareq_sz", "kB", 8, "kB per write (fields 10, 8)"),
	[X_DS] = F("d/s", "d_s", "/s", 7, "discards completed (field 15, kernel >= 4.18)"),
	[X_DKB] = F("dkB/s", "dkB_s", "kB/s", 9, "kB discarded (field 17)"),
	[X_DRQM] = F("drqm/s", "drqm_s", "/s", 8, "discards merged (field 16)"),
	[X_DRQM_PCT] = F("%drqm", "drqm_pct", "%", 6, "merged / (merged + completed) discards"),
	[X_DAWAIT] = F("d_await", "d_await", "ms", 7, "ms per discard (fields 18, 15)"),
	[X_DAREQ] = F("dareq-sz", "dareq_sz", "kB", 8, "kB per discard (fields 17, 15)"),
	[X_FS] = F("f/s", "f_s", "/s", 7, "flush requests completed (field 19, kernel >= 5.5)"),
	[X_FAWAIT] = F("f_await", "f_await", "ms", 7, "ms per flush (fields 20, 19)"),
	[X_AQU] = F("aqu-sz", "aqu_sz", "", 7,
		    "average requests in flight: weighted ms / interval (field 14)"),
	[X_UTIL] = F("%util", "util_pct", "%", 6,
		     "time with >= 1 request in flight (field 13); not saturation on devices "
		     "serving requests in parallel"),
};
static const char *const x_mb_name[X_N][2] = {
	[X_RKB] = { "rMB/s", "rMB_s" },
	[X_WKB] = { "wMB/s", "wMB_s" },
	[X_DKB] = { "dMB/s", "dMB_s" },
};

/* iostat without -x. */
enum { B_DEV, B_TPS, B_RKBS, B_WKBS, B_DKBS, B_RKB, B_WKB, B_DKB, B_N };
#define U(title, key, unit, help)                                   \
	{                                                           \
		title, key, unit, PTK_GAUGE, PTK_V_U64, 10, 0, help \
	}
static const struct ptk_metric b_cols[B_N] = {
	[B_DEV] = DEV_COL,
	[B_TPS] = F("tps", "tps", "/s", 8, "reads + writes + discards completed per second"),
	[B_RKBS] = F("kB_read/s", "kB_read_s", "kB/s", 12, "kB read per second (field 6)"),
	[B_WKBS] = F("kB_wrtn/s", "kB_wrtn_s", "kB/s", 12, "kB written per second (field 10)"),
	[B_DKBS] = F("kB_dscd/s", "kB_dscd_s", "kB/s", 12, "kB discarded per second (field 17)"),
	[B_RKB] = U("kB_read", "kB_read", "kB", "kB read in the interval (field 6)"),
	[B_WKB] = U("kB_wrtn", "kB_wrtn", "kB", "kB written in the interval (field 10)"),
	[B_DKB] = U("kB_dscd", "kB_dscd", "kB", "kB discarded in the interval (field 17)"),
};
static const char *const b_mb_name[B_N][2] = {
	[B_RKBS] = { "MB_read/s", "MB_read_s" }, [B_WKBS] = { "MB_wrtn/s", "MB_wrtn_s" },
	[B_DKBS] = { "MB_dscd/s", "MB_dscd_s" }, [B_RKB] = { "MB_read", "MB_read" },
	[B_WKB] = { "MB_wrtn", "MB_wrtn" },	 [B_DKB] = { "MB_dscd", "MB_dscd" },
};

static const char usage[] =
	"usage: ptk iostat [-x] [-d] [-c] [-k|-m] [-p [dev,...|ALL]] [-y] [-z] [-t] [--json]\n"
	"                  [interval [count]] [device...]\n"
	"CPU and per-device I/O statistics, as sysstat iostat. The first report is since boot\n"
	"(-y skips it). -x: extended columns (r/s rkB/s ... r_await ... aqu-sz %util); -d/-c:\n"
	"device/CPU report only; -k/-m: kB or MB; -p: partitions too (of the devices listed, or\n"
	"ALL); -z: omit idle devices; -t: timestamp. Devices with no I/O ever are hidden unless\n"
	"named. %util is busy time, not saturation, on NVMe/SSD/virtio: read aqu-sz and await.\n";

/* ---- state ------------------------------------------------------------------------------ */

struct io {
	bool ext, show_cpu, show_dev, mb, skip_first, zero_omit, stamp;
	bool part_all; /* -p / -p ALL: every line of /proc/diskstats */
	bool unfiltered; /* devices named, or -p with an argument: show never-used ones too */
	char **devs; /* devices named on the command line */
	bool *devs_part; /* ... and their partitions wanted (-p dev) */
	int ndevs;
	struct ptk_stat st_prev, st_cur;
	struct ptk_diskstats ds_prev, ds_cur;
	struct ptk_metric cols[X_N];
	int ncols;
	int map[X_N]; /* cols[i] shows value index map[i] */
};

static void swap_samples(struct io *io)
{
	struct ptk_stat st = io->st_prev;
	struct ptk_diskstats ds = io->ds_prev;

	io->st_prev = io->st_cur;
	io->st_cur = st;
	io->ds_prev = io->ds_cur;
	io->ds_cur = ds;
}

/* name is a partition of dev: dev + [p]digits ("sda1", "nvme0n1p2"). */
static bool part_of(const char *name, const char *dev)
{
	size_t n = strlen(dev);
	const char *p = name + n;

	if (strncmp(name, dev, n))
		return false;
	if (*p == 'p')
		p++;
	if (!*p)
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p;
}

static bool wanted(const struct io *io, const struct ptk_disk *d)
{
	if (io->part_all)
		return true;
	if (!io->ndevs)
		return !d->is_partition;
	for (int i = 0; i < io->ndevs; i++) {
		if (!strcmp(d->name, io->devs[i]))
			return true;
		if (io->devs_part[i] && d->is_partition && part_of(d->name, io->devs[i]))
			return true;
	}
	return false;
}

static u64 ios(const struct ptk_disk *d)
{
	return d->f[PTK_DK_RD_IOS] + d->f[PTK_DK_WR_IOS] + d->f[PTK_DK_DC_IOS] +
	       d->f[PTK_DK_FL_IOS];
}

/* Choose the visible columns: discard/flush only when this kernel has those counters. */
static const struct ptk_table *dev_table(struct io *io, const struct ptk_diskstats *ds,
					 struct ptk_table *tab)
{
	int nf = 0, n = io->ext ? X_N : B_N;
	const struct ptk_metric *src = io->ext ? x_cols : b_cols;

	for (int i = 0; i < ds->n; i++)
		nf = MAX(nf, ds->d[i].nfields);
	io->ncols = 0;
	for (int i = 0; i < n; i++) {
		if (io->ext ? (nf < 15 && i >= X_DS && i <= X_DAREQ) ||
				      (nf < 17 && i >= X_FS && i <= X_FAWAIT) :
			      (nf < 15 && (i == B_DKBS || i == B_DKB)))
			continue;
		io->cols[io->ncols] = src[i];
		if (io->mb) {
			const char *const *mb = io->ext ? x_mb_name[i] : b_mb_name[i];
			if (mb[0]) {
				io->cols[io->ncols].name = mb[0];
				io->cols[io->ncols].key = mb[1];
				io->cols[io->ncols].unit = io->ext ? "MB/s" : "MB";
			}
		}
		io->map[io->ncols++] = i;
	}
	*tab = (struct ptk_table){ "devices", io->cols, io->ncols };
	return tab;
}

/* All values of one device row (in x_cols or b_cols order). o NULL: no baseline ("-"). */
static void dev_vals(const struct io *io, const struct ptk_disk *o, const struct ptk_disk *n,
		     double itv, struct ptk_val *v, double *util)
{
	double f = io->mb ? 1.0 / 1024 : 1.0;
	struct ptk_disk_rates r;

	v[0] = PTK_S(n->name);
	*util = -1;
	if (!o) {
		for (int i = 1; i < X_N; i++)
			v[i] = PTK_NA;
		return;
	}
	ptk_disk_rates(o, n, itv, &r);
	if (!io->ext) {
		/* Interval totals: 0 for a recreated device, as the rates are. */
		bool reset = r.tps == 0 && ios(n) < ios(o);
		v[B_TPS] = PTK_F(r.tps);
		v[B_RKBS] = PTK_F(r.rkb_s * f);
		v[B_WKBS] = PTK_F(r.wkb_s * f);
		v[B_DKBS] = PTK_F(r.dkb_s * f);
		v[B_RKB] =
			PTK_U(reset ? 0 :
				      ptk_delta(o->f[PTK_DK_RD_SECTORS], n->f[PTK_DK_RD_SECTORS]) /
					      (io->mb ? 2048 : 2));
		v[B_WKB] =
			PTK_U(reset ? 0 :
				      ptk_delta(o->f[PTK_DK_WR_SECTORS], n->f[PTK_DK_WR_SECTORS]) /
					      (io->mb ? 2048 : 2));
		v[B_DKB] =
			PTK_U(reset ? 0 :
				      ptk_delta(o->f[PTK_DK_DC_SECTORS], n->f[PTK_DK_DC_SECTORS]) /
					      (io->mb ? 2048 : 2));
		return;
	}
	v[X_RS] = PTK_F(r.r_s);
	v[X_RKB] = PTK_F(r.rkb_s * f);
	v[X_RRQM] = PTK_F(r.rrqm_s);
	v[X_RRQM_PCT] = PTK_F(r.rrqm_pct);
	v[X_RAWAIT] = PTK_F(r.r_await);
	v[X_RAREQ] = PTK_F(r.rareq_sz);
	v[X_WS] = PTK_F(r.w_s);
	v[X_WKB] = PTK_F(r.wkb_s * f);
	v[X_WRQM] = PTK_F(r.wrqm_s);
	v[X_WRQM_PCT] = PTK_F(r.wrqm_pct);
	v[X_WAWAIT] = PTK_F(r.w_await);
	v[X_WAREQ] = PTK_F(r.wareq_sz);
	v[X_DS] = PTK_F(r.d_s);
	v[X_DKB] = PTK_F(r.dkb_s * f);
	v[X_DRQM] = PTK_F(r.drqm_s);
	v[X_DRQM_PCT] = PTK_F(r.drqm_pct);
	v[X_DAWAIT] = PTK_F(r.d_await);
	v[X_DAREQ] = PTK_F(r.dareq_sz);
	v[X_FS] = PTK_F(r.f_s);
	v[X_FAWAIT] = PTK_F(r.f_await);
	v[X_AQU] = PTK_F(r.aqu_sz);
	v[X_UTIL] = PTK_F(r.util);
	*util = r.util;
}

/* ---- one report ------------------------------------------------------------------------- */

#define LIE_UTIL_PCT 90.0

static void report(struct ptk_ctx *ctx, struct io *io, bool since_boot, double itv)
{
	static const struct ptk_cpu_times zero_cpu;
	struct ptk_sink *s = &ctx->sink;
	const struct ptk_cpu_times *oc = since_boot ? &zero_cpu : &io->st_prev.all;
	char lie[512] = "";
	size_t lie_len = 0;

	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_f64(s, "interval_s", itv);
	ptk_sink_meta_bool(s, "since_boot", since_boot);
	if (io->stamp && !ctx->json) {
		time_t t = (time_t)ptk_ctx_walltime(ctx);
		char buf[64], fmt[32];
		struct tm tm;
		localtime_r(&t, &tm);
		snprintf(fmt, sizeof(fmt), "%s %s", nl_langinfo(D_FMT), nl_langinfo(T_FMT));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		strftime(buf, sizeof(buf), fmt, &tm); /* "%x %X", as sysstat */
#pragma GCC diagnostic pop
		printf("%s\n", buf);
	}
	if (io->show_cpu) {
		double pct[PTK_CPU_NSTATES];
		struct ptk_val v[C_N];

		ptk_cpu_pct(oc, &io->st_cur.all, pct);
		v[C_USER] = PTK_F(pct[PTK_CPU_USER]);
		v[C_NICE] = PTK_F(pct[PTK_CPU_NICE]);
		v[C_SYS] = PTK_F(pct[PTK_CPU_SYSTEM] + pct[PTK_CPU_IRQ] + pct[PTK_CPU_SOFTIRQ]);
		v[C_IOWAIT] = PTK_F(pct[PTK_CPU_IOWAIT]);
		v[C_STEAL] = PTK_F(pct[PTK_CPU_STEAL]);
		v[C_IDLE] = PTK_F(pct[PTK_CPU_IDLE]);
		if (ctx->json) {
			ptk_sink_meta_json(s, "avg_cpu", ptk_json_row(&cpu_tab, v));
		} else {
			/* sysstat's header is not aligned on its values: "avg-cpu:  %user   %nice" */
			fputs("avg-cpu:", s->out);
			for (int i = 0; i < C_N; i++)
				fprintf(s->out, i ? " %7s" : " %6s", cpu_cols[i].name);
			fputc('\n', s->out);
			s->prefix_width = 7;
			ptk_sink_table_begin(s, &cpu_tab, false, NULL);
			ptk_sink_row(s, "", v);
			ptk_sink_table_end(s);
			s->prefix_width = 0;
			fputc('\n', s->out);
		}
	}
	if (io->show_dev) {
		struct ptk_table tab;
		struct ptk_val full[X_N], row[X_N];

		dev_table(io, &io->ds_cur, &tab);
		ptk_sink_table_begin(s, &tab, true, NULL);
		for (int i = 0; i < io->ds_cur.n; i++) {
			const struct ptk_disk *n = &io->ds_cur.d[i], *o;
			static const struct ptk_disk zero_disk;
			double util;

			if (!wanted(io, n))
				continue;
			if (!io->unfiltered && !ios(n))
				continue; /* never used since boot */
			o = since_boot ? &zero_disk : ptk_diskstats_find(&io->ds_prev, n->name);
			if (io->zero_omit && o && ios(o) == ios(n))
				continue;
			dev_vals(io, o, n, itv, full, &util);
			for (int c = 0; c < io->ncols; c++)
				row[c] = full[io->map[c]];
			ptk_sink_row(s, NULL, row);
			if (io->ext && util >= LIE_UTIL_PCT &&
			    ptk_disk_rotational_read(&ctx->src, n->name) == 0 &&
			    lie_len + strlen(n->name) + 2 < sizeof(lie))
				lie_len += snprintf(lie + lie_len, sizeof(lie) - lie_len, "%s%s",
						    lie_len ? ", " : "", n->name);
		}
		ptk_sink_table_end(s);
	}
	if (lie_len) {
		char note[768];
		snprintf(note, sizeof(note),
			 "note: %%util >= %.0f on %s (non-rotational) is not saturation: devices "
			 "serving requests in parallel (NVMe/SSD/virtio) can do more at 100%%; "
			 "read aqu-sz and r_await/w_await",
			 LIE_UTIL_PCT, lie);
		if (ctx->json) {
			struct json_object *a = json_object_new_array();
			json_object_array_add(a, json_object_new_string(note));
			ptk_sink_meta_json(s, "notes", a);
		} else {
			printf("%s\n", note);
		}
	}
	if (!ctx->json)
		fputs("\n\n", s->out);
	ptk_sink_end(s);
}

static int read_sample(struct ptk_ctx *ctx, struct io *io)
{
	int r = ptk_stat_read(&ctx->src, &io->st_cur);

	if (r) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (io->show_dev && (r = ptk_diskstats_read(&ctx->src, &io->ds_cur))) {
		ptk_err("cannot read %s/diskstats: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

static int io_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct io *io = arg;
	int r = read_sample(ctx, io);

	if (r)
		return r;
	if (i > 0)
		report(ctx, io, false, itv);
	else if (!io->skip_first)
		report(ctx, io, true, ptk_ctx_uptime(ctx));
	else if (!ctx->json)
		fputc('\n', stdout); /* sysstat still ends the skipped report */
	swap_samples(io);
	return 0;
}

/* "Linux 6.1.0 (host) \t11/29/26 \t_x86_64_\t(2 CPU)" as sysstat print_gal_header. */
static void banner(struct ptk_ctx *ctx, const struct ptk_stat *st)
{
	struct utsname u;
	char rel[128] = "", host[128] = "", date[64], buf[4096];
	time_t t = (time_t)ptk_ctx_walltime(ctx);
	int ncpu = st->ncpu;
	bool *mask = xcalloc(8192, sizeof(bool));
	struct tm tm;

	if (ptk_src_read(&ctx->src, PTK_SYS, "devices/system/cpu/present", buf, sizeof(buf)) > 0)
		ncpu = MAX(ncpu, ptk_parse_cpulist(buf, mask, 8192));
	ncpu = MAX(ncpu, ptk_cpu_online_read(&ctx->src, mask, 8192));
	free(mask);
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
	printf("%s %s (%s) \t%s \t_%s_\t(%d CPU)\n\n", u.sysname, rel, host, date, u.machine, ncpu);
}

static void add_dev(struct io *io, const char *name, bool part)
{
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	for (int i = 0; i < io->ndevs; i++) {
		if (!strcmp(io->devs[i], name)) {
			io->devs_part[i] |= part;
			return;
		}
	}
	io->devs = xrealloc(io->devs, (io->ndevs + 1) * sizeof(*io->devs));
	io->devs_part = xrealloc(io->devs_part, (io->ndevs + 1) * sizeof(*io->devs_part));
	io->devs[io->ndevs] = xstrdup(name);
	io->devs_part[io->ndevs++] = part;
}

static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789.") == strlen(s);
}

enum { OPT_PARTS = 0x2000 };

int cmd_iostat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "partitions", required_argument, NULL, OPT_PARTS },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct io io = { 0 };
	bool has_itv, report_set = false, kb = false;
	double interval = 1;
	long count = -1;
	int c, r, rc = 0, nargs = 0, nnum = 0;
	char **args = xcalloc(argc + 1, sizeof(char *)), **nums;

	/* sysstat's "-p [dev,...|ALL]": the argument is separate and optional; it is taken when
	 * the next word is not a number and not an option. Rewrite it as --partitions=ARG. */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc && argv[i + 1][0] != '-' &&
		    !is_number(argv[i + 1])) {
			if (asprintf(&args[nargs], "--partitions=%s", argv[++i]) < 0)
				abort();
		} else {
			args[nargs] = xstrdup(argv[i]);
		}
		nargs++;
	}
	while ((c = getopt_long(nargs, args, "xdckmpyzt", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			io.ext = true;
			break;
		case 'd':
			io.show_dev = report_set = true;
			break;
		case 'c':
			io.show_cpu = report_set = true;
			break;
		case 'k':
		case 'm':
			if ((c == 'k' && io.mb) || (c == 'm' && kb)) {
				rc = ptk_usage_error(ctx, "-k and -m cannot be used together");
				goto out;
			}
			io.mb = c == 'm';
			kb = c == 'k';
			break;
		case 'p':
			io.part_all = true;
			break;
		case OPT_PARTS: {
			char *save = NULL;
			io.unfiltered = true;
			for (char *t = strtok_r(optarg, ",", &save); t;
			     t = strtok_r(NULL, ",", &save)) {
				if (!strcmp(t, "ALL"))
					io.part_all = true;
				else
					add_dev(&io, t, true);
			}
			break;
		}
		case 'y':
			io.skip_first = true;
			break;
		case 'z':
			io.zero_omit = true;
			break;
		case 't':
			io.stamp = true;
			break;
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				goto out;
			}
			if (r < 0) {
				rc = ptk_usage_error(ctx, "unknown option");
				goto out;
			}
		}
	}
	/* Operands: device names (or ALL) and then-or-interleaved "interval [count]". */
	nums = xcalloc(nargs + 1, sizeof(char *));
	for (int i = optind; i < nargs; i++) {
		if (is_number(args[i]) || args[i][0] == '-') {
			nums[nnum++] = args[i];
		} else {
			io.unfiltered = true;
			if (strcmp(args[i], "ALL"))
				add_dev(&io, args[i], false);
		}
	}
	optind = 0;
	rc = ptk_parse_interval_count(ctx, nnum, nums, &interval, &count, &has_itv);
	free(nums);
	if (rc)
		goto out;
	if (io.part_all) {
		for (int i = 0; i < io.ndevs; i++)
			free(io.devs[i]);
		io.ndevs = 0; /* "-p ALL" ignores the device list, as sysstat */
	}
	if (!report_set)
		io.show_cpu = io.show_dev = true;
	if (io.ext || io.part_all || io.unfiltered)
		io.show_dev = true;
	if (!has_itv) {
		count = 0;
		io.skip_first = false;
	} else if (count > 0 && !io.skip_first) {
		count--; /* the since-boot report is one of the count */
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out;
	if (!ctx->json) {
		if ((rc = read_sample(ctx, &io)))
			goto out;
		banner(ctx, &io.st_cur);
	}
	r = ptk_loop(ctx, interval, count, io_sample, &io);
	if (r > 0)
		rc = r;
out:
	for (int i = 0; i < nargs; i++)
		free(args[i]);
	free(args);
	for (int i = 0; i < io.ndevs; i++)
		free(io.devs[i]);
	free(io.devs);
	free(io.devs_part);
	ptk_stat_free(&io.st_prev);
	ptk_stat_free(&io.st_cur);
	ptk_diskstats_free(&io.ds_prev);
	ptk_diskstats_free(&io.ds_cur);
	return rc;
}
