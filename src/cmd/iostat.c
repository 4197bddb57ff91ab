// SPDX-License-Identifier: GPL-2.0
/*
 * ptk iostat: CPU and per-device I/O statistics, as sysstat iostat [-x].
 *
 * Values are the cpu and disk activities' rows (model/act_cpu.c, act_disk.c: sysstat's
 * compute_ext_disk_stats); the first report is since boot (interval = the uptime) unless -y.
 * A device whose counters drop between samples (recreated) shows 0 for that interval, and one
 * that appeared since the previous sample shows "-": it has no baseline (the disk activity's
 * restart_zero).
 * The discard (d*) columns appear only when the kernel gives 15+ counters (>= 4.18), the flush
 * (f*) columns with 17 (>= 5.5).
 */
#include <json-c/json.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/activity.h"

/* ---- columns: registry entries (model/registry.c) in iostat's layout ------------------- */

/* A column of iostat's layout: the registry entry m, titled and sized as sysstat's iostat
 * prints it; with -m the kB columns are MB ones (mb_name, mb_key). */
struct io_col {
	enum ptk_mid m;
	const char *name;
	int width;
	const char *mb_name, *mb_key;
	bool dc, fl; /* a discard / flush column: shown when the kernel has those counters */
};

static const struct io_col cpu_layout[] = {
	{ PTK_M_CPU_USER, NULL, 7 },   { PTK_M_CPU_NICE_ALL, NULL, 7 },
	{ PTK_M_CPU_SYSTEM, NULL, 7 }, { PTK_M_CPU_IOWAIT, NULL, 7 },
	{ PTK_M_CPU_STEAL, NULL, 7 },  { PTK_M_CPU_IDLE, NULL, 7 },
};
#define C_N ((int)ARRAY_SIZE(cpu_layout))

/* iostat -x, sysstat 12.6 layout */
static const struct io_col x_layout[] = {
	{ PTK_M_DISK_DEV, "Device", -13 },
	{ PTK_M_DISK_R_S, NULL, 7 },
	{ PTK_M_DISK_RKB_S, NULL, 9, "rMB/s", "rMB_s" },
	{ PTK_M_DISK_RRQM_S, NULL, 8 },
	{ PTK_M_DISK_RRQM_PCT, NULL, 6 },
	{ PTK_M_DISK_R_AWAIT, NULL, 7 },
	{ PTK_M_DISK_RAREQ_SZ, NULL, 8 },
	{ PTK_M_DISK_W_S, NULL, 7 },
	{ PTK_M_DISK_WKB_S, NULL, 9, "wMB/s", "wMB_s" },
	{ PTK_M_DISK_WRQM_S, NULL, 8 },
	{ PTK_M_DISK_WRQM_PCT, NULL, 6 },
	{ PTK_M_DISK_W_AWAIT, NULL, 7 },
	{ PTK_M_DISK_WAREQ_SZ, NULL, 8 },
	{ PTK_M_DISK_D_S, NULL, 7, .dc = true },
	{ PTK_M_DISK_DKB_S, NULL, 9, "dMB/s", "dMB_s", .dc = true },
	{ PTK_M_DISK_DRQM_S, NULL, 8, .dc = true },
	{ PTK_M_DISK_DRQM_PCT, NULL, 6, .dc = true },
	{ PTK_M_DISK_D_AWAIT, NULL, 7, .dc = true },
	{ PTK_M_DISK_DAREQ_SZ, NULL, 8, .dc = true },
	{ PTK_M_DISK_F_S, NULL, 7, .fl = true },
	{ PTK_M_DISK_F_AWAIT, NULL, 7, .fl = true },
	{ PTK_M_DISK_AQU_SZ, NULL, 7 },
	{ PTK_M_DISK_UTIL, NULL, 6 },
};

/* iostat without -x */
static const struct io_col b_layout[] = {
	{ PTK_M_DISK_DEV, "Device", -13 },
	{ PTK_M_DISK_TPS, NULL, 8 },
	{ PTK_M_DISK_RKB_S, "kB_read/s", 12, "MB_read/s", "MB_read_s" },
	{ PTK_M_DISK_WKB_S, "kB_wrtn/s", 12, "MB_wrtn/s", "MB_wrtn_s" },
	{ PTK_M_DISK_DKB_S, "kB_dscd/s", 12, "MB_dscd/s", "MB_dscd_s", .dc = true },
	{ PTK_M_DISK_RKB, NULL, 10, "MB_read", "MB_read" },
	{ PTK_M_DISK_WKB, NULL, 10, "MB_wrtn", "MB_wrtn" },
	{ PTK_M_DISK_DKB, NULL, 10, "MB_dscd", "MB_dscd", .dc = true },
};
#define X_N ((int)ARRAY_SIZE(x_layout))

/* The column of c as iostat shows it (mb: -m). */
static struct ptk_metric io_metric(const struct io_col *c, bool mb)
{
	struct ptk_metric m = ptk_registry[c->m];

	if (c->name)
		m.name = c->name;
	m.width = c->width;
	if (mb && c->mb_name) {
		m.name = c->mb_name;
		m.key = c->mb_key;
		m.unit = m.kind == PTK_COUNTER ? "MB" : "MB/s";
	}
	return m;
}

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
	struct ptk_snap prev, cur;
	struct ptk_rows rows; /* an activity's rows of the report */
	struct ptk_metric cpu_cols[C_N], cols[X_N];
	const struct io_col *layout[X_N]; /* cols[i] shows layout[i] */
	int ncols;
};

static void swap_samples(struct io *io)
{
	struct ptk_snap s = io->prev;

	io->prev = io->cur;
	io->cur = s;
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
	const struct io_col *lay = io->ext ? x_layout : b_layout;
	int nf = 0, n = io->ext ? X_N : (int)ARRAY_SIZE(b_layout);

	for (int i = 0; i < ds->n; i++)
		nf = MAX(nf, ds->d[i].nfields);
	io->ncols = 0;
	for (int i = 0; i < n; i++) {
		if ((lay[i].dc && nf < 15) || (lay[i].fl && nf < 17))
			continue;
		io->cols[io->ncols] = io_metric(&lay[i], io->mb);
		io->layout[io->ncols++] = &lay[i];
	}
	*tab = (struct ptk_table){ "devices", io->cols, io->ncols };
	return tab;
}

/* One device row in the visible columns, from the disk activity's row r (NULL: none). */
static void dev_vals(const struct io *io, const struct ptk_row *r, const char *name,
		     struct ptk_val *v, double *util)
{
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_DISK];

	*util = -1;
	for (int c = 0; c < io->ncols; c++) {
		const struct io_col *l = io->layout[c];
		struct ptk_val x = r ? r->v[ptk_act_col(act, l->m)] : PTK_NA;

		if (l->m == PTK_M_DISK_DEV)
			x = PTK_S(name);
		else if (io->mb && l->mb_name && !x.na)
			x = ptk_registry[l->m].type == PTK_V_U64 ? PTK_U(x.u / 1024) :
								   PTK_F(x.f / 1024);
		else if (l->m == PTK_M_DISK_UTIL && !x.na)
			*util = x.f;
		v[c] = x;
	}
}

/* ---- one report ------------------------------------------------------------------------- */

#define LIE_UTIL_PCT 90.0

static void report(struct ptk_ctx *ctx, struct io *io, bool since_boot, double itv)
{
	static const struct ptk_act_opts disk_opts = { .partitions = true,
						       .unused = true,
						       .restart_zero = true };
	struct ptk_sink *s = &ctx->sink;
	const struct ptk_snap *prev = since_boot ? NULL : &io->prev;
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
		const struct ptk_activity *act = &ptk_activities[PTK_ACT_CPU];
		const struct ptk_table cpu_tab = { "avg_cpu", io->cpu_cols, C_N };
		struct ptk_val v[C_N];

		io->rows.n = 0;
		act->rows(prev, &io->cur, itv, NULL, &io->rows); /* the "all" row */
		for (int i = 0; i < C_N; i++)
			v[i] = io->rows.r[0].v[ptk_act_col(act, cpu_layout[i].m)];
		if (ctx->json) {
			ptk_sink_meta_json(s, "avg_cpu", ptk_json_row(&cpu_tab, v));
		} else {
			/* sysstat's header is not aligned on its values: "avg-cpu:  %user   %nice" */
			fputs("avg-cpu:", s->out);
			for (int i = 0; i < C_N; i++)
				fprintf(s->out, i ? " %7s" : " %6s", io->cpu_cols[i].name);
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
		struct ptk_val row[X_N];

		io->rows.n = 0;
		ptk_activities[PTK_ACT_DISK].rows(prev, &io->cur, itv, &disk_opts, &io->rows);
		dev_table(io, &io->cur.ds, &tab);
		ptk_sink_table_begin(s, &tab, true, NULL);
		for (int i = 0; i < io->cur.ds.n; i++) {
			const struct ptk_disk *n = &io->cur.ds.d[i], *o;
			double util;

			if (!wanted(io, n))
				continue;
			if (!io->unfiltered && !ios(n))
				continue; /* never used since boot */
			o = since_boot ? NULL : ptk_diskstats_find(&io->prev.ds, n->name);
			if (io->zero_omit && (since_boot ? !ios(n) : o && ios(o) == ios(n)))
				continue;
			dev_vals(io, ptk_rows_find(&io->rows, n->name), n->name, row, &util);
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
	unsigned mask = io->show_dev ? PTK_SNAP_BIT(PTK_SNAP_DISKSTATS) : 0;
	int r = ptk_snap_read(&ctx->src, &io->cur, mask);

	if (r) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (io->show_dev && !ptk_snap_has(&io->cur, PTK_SNAP_DISKSTATS)) {
		r = io->cur.err[PTK_SNAP_DISKSTATS];
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
		report(ctx, io, true, io->cur.up.up_s);
	else if (!ctx->json)
		fputc('\n', stdout); /* sysstat still ends the skipped report */
	swap_samples(io);
	return 0;
}

/* sysstat's banner, then a blank line; the CPU count as iostat's get_cpu_nr: the highest of
 * /proc/stat, the present and the online lists. */
static void banner(struct ptk_ctx *ctx, const struct ptk_stat *st)
{
	char buf[4096];
	int ncpu = st->ncpu;
	bool *mask = xcalloc(8192, sizeof(bool));

	if (ptk_src_read(&ctx->src, PTK_SYS, "devices/system/cpu/present", buf, sizeof(buf)) > 0)
		ncpu = MAX(ncpu, ptk_parse_cpulist(buf, mask, 8192));
	ncpu = MAX(ncpu, ptk_cpu_online_read(&ctx->src, mask, 8192));
	free(mask);
	ptk_ctx_banner(ctx, ncpu);
	putchar('\n');
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
	for (int i = 0; i < C_N; i++)
		io.cpu_cols[i] = io_metric(&cpu_layout[i], false);
	if (!ctx->json) {
		if ((rc = read_sample(ctx, &io)))
			goto out;
		banner(ctx, &io.cur.st);
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
	ptk_snap_free(&io.prev);
	ptk_snap_free(&io.cur);
	ptk_rows_free(&io.rows);
	return rc;
}
