// SPDX-License-Identifier: GPL-2.0
/*
 * ptk vmstat: processes, memory, swap, I/O, system and CPU summary with the layout of
 * procps-ng 4.0.2 vmstat (normal and -w wide, the wide one with the gu column).
 *
 * Every column is a registry entry computed by the activities (queue, swap, memory, paging,
 * task, cpu); this file lays them out as vmstat does: integers rounded half up, memory in
 * the -S unit. The first line is "since boot": rates over the uptime (ptk_act_boot_s), as
 * procps computes them from 4.0.3 on, truncated as procps truncates them; 4.0.2 divided by
 * the CPU ticks of all CPUs, N times too small on N CPUs (a deliberate difference). Later
 * lines are rates over the measured interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmd/cmd.h"
#include "model/activity.h"
#include "model/procps.h"

/* A column: registry entry m (alt with -a), titled and sized as procps 4.0.2 prints it. */
struct vm_col {
	enum ptk_mid m, alt;
	const char *name, *alt_name; /* NULL: the registry's title */
	int width, wide; /* normal and -w */
	enum ptk_act_id act;
	bool mem; /* kB (a level, or kB/s), shown in the -S unit */
};

enum { V_GU = 17, V_TIME, V_N };
static const struct vm_col vm_layout[V_N] = {
	{ PTK_M_Q_PROCS_RUNNING, 0, "r", NULL, 2, 4, PTK_ACT_QUEUE },
	{ PTK_M_Q_BLOCKED, 0, "b", NULL, 2, 4, PTK_ACT_QUEUE },
	{ PTK_M_SWP_USED, 0, "swpd", NULL, 6, 12, PTK_ACT_SWAP, true },
	{ PTK_M_MEM_FREE, 0, "free", NULL, 6, 12, PTK_ACT_MEM, true },
	{ PTK_M_MEM_BUFFERS, PTK_M_MEM_INACTIVE, "buff", "inact", 6, 12, PTK_ACT_MEM, true },
	{ PTK_M_MEM_CACHE, PTK_M_MEM_ACTIVE, "cache", "active", 6, 12, PTK_ACT_MEM, true },
	{ PTK_M_SWP_SI, 0, NULL, NULL, 4, 4, PTK_ACT_SWAP, true },
	{ PTK_M_SWP_SO, 0, NULL, NULL, 4, 4, PTK_ACT_SWAP, true },
	{ PTK_M_PG_PGPGIN, 0, "bi", NULL, 5, 5, PTK_ACT_PAGING },
	{ PTK_M_PG_PGPGOUT, 0, "bo", NULL, 5, 5, PTK_ACT_PAGING },
	{ PTK_M_TASK_INTR_S, 0, "in", NULL, 4, 4, PTK_ACT_TASK },
	{ PTK_M_TASK_CSWCH_S, 0, "cs", NULL, 4, 4, PTK_ACT_TASK },
	{ PTK_M_CPU_USER_NICE, 0, NULL, NULL, 2, 3, PTK_ACT_CPU },
	{ PTK_M_CPU_SYSTEM, 0, "sy", NULL, 2, 3, PTK_ACT_CPU },
	{ PTK_M_CPU_IDLE, 0, "id", NULL, 2, 3, PTK_ACT_CPU },
	{ PTK_M_CPU_IOWAIT, 0, "wa", NULL, 2, 3, PTK_ACT_CPU },
	{ PTK_M_CPU_STEAL, 0, "st", NULL, 2, 3, PTK_ACT_CPU },
	[V_GU] = { PTK_M_CPU_GUEST_ALL, 0, NULL, NULL, 2, 3, PTK_ACT_CPU },
	[V_TIME] = { PTK_M_SAMPLE_TIME, 0, NULL, NULL, 19, 19, PTK_ACT_COUNT },
};
/* the activities of the columns, each run once a sample */
static const enum ptk_act_id vm_acts[] = { PTK_ACT_QUEUE,  PTK_ACT_SWAP, PTK_ACT_MEM,
					   PTK_ACT_PAGING, PTK_ACT_TASK, PTK_ACT_CPU };
#define VM_NACTS ((int)ARRAY_SIZE(vm_acts))

static const char usage[] =
	"usage: ptk vmstat [-a] [-n] [-t] [-w] [-y] [-S k|K|m|M] [--json] [delay [count]]\n"
	"       ptk vmstat -s | -f | -D | -d | -p DEV | -m [options] [delay [count]]\n"
	"Processes, memory, swap, I/O, system and CPU activity, as procps-ng 4.0.2 vmstat.\n"
	"The first line is the average since boot (counters over the uptime); the following\n"
	"lines cover each interval. With a delay and no count, runs until interrupted.\n"
	" -a, --active         inact/active instead of buff/cache\n"
	" -f, --forks          forks since boot\n"
	" -m, --slabs          slab caches (/proc/slabinfo, root only)\n"
	" -n, --one-header     print the header once\n"
	" -s, --stats          event counters and memory since boot, one per line\n"
	" -d, --disk           each disk's counters since boot\n"
	" -D, --disk-sum       the disks' counters summed\n"
	" -p, --partition DEV  one disk or partition's reads and writes since boot\n"
	" -S, --unit C         memory unit: k (1000), K (1024, default), m (10^6), M (2^20)\n"
	" -t, --timestamp      append the local time\n"
	" -w, --wide           wide layout (adds the gu column)\n"
	" -y, --no-first       skip the since-boot line\n"
	" -V, --version        the version\n";

/* The modes besides the default one (procps's statMode); one at a time. */
enum vm_mode { VM_DEFAULT, VM_STATS, VM_FORKS, VM_DISKSUM, VM_DISK, VM_PART, VM_SLAB };

struct vm_state {
	bool active, one_header, timestamp, wide, no_first;
	enum vm_mode mode;
	const char *dev; /* -p */
	char unit_c; /* the -S letter (vmstat -s prints it) */
	u64 unit; /* bytes per display unit */
	int height;
	struct ptk_metric cols[V_N]; /* text: the shown columns, integers */
	const struct vm_col *shown[V_N]; /* cols[i] shows shown[i] */
	struct ptk_table tab;
	const struct ptk_metric *refs[V_N]; /* JSON: every column's registry entry */
	struct ptk_table jtab;
	struct ptk_snap s[2];
	int cur;
	struct ptk_rows rows[VM_NACTS];
	long lines;
	u64 warned; /* meminfo fields above their total, warned about */
};

static enum ptk_mid col_mid(const struct vm_state *v, const struct vm_col *c)
{
	return v->active && c->alt ? c->alt : c->m;
}

/* One warning per /proc/meminfo field above its total (its values are unknown), once. */
static void mi_warn(const struct ptk_ctx *ctx, const struct ptk_snap *s, u64 *warned)
{
	u64 bad = s->has_mi ? ptk_meminfo_implausible(&s->mi) & ~*warned : 0;
	char why[128];

	for (int f = 0; f < PTK_MI_NFIELDS; f++)
		if (bad & (1ull << f))
			ptk_warn("%s/meminfo: %s: the values computed from it are unknown",
				 ctx->src.procfs,
				 ptk_meminfo_implausible_why(&s->mi, f, why, sizeof(why)));
	*warned |= bad;
}

static const struct ptk_snap *sample_read(struct ptk_ctx *ctx, struct ptk_snap *s)
{
	static const struct {
		enum ptk_snap_part part;
		const char *file;
	} need[] = { { PTK_SNAP_MEMINFO, "meminfo" }, { PTK_SNAP_VMSTAT, "vmstat" } };
	int r = ptk_snap_read(&ctx->src, s,
			      PTK_SNAP_BIT(PTK_SNAP_MEMINFO) | PTK_SNAP_BIT(PTK_SNAP_VMSTAT));

	if (r) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		return NULL;
	}
	for (size_t k = 0; k < ARRAY_SIZE(need); k++) {
		if (!ptk_snap_has(s, need[k].part)) {
			ptk_err("cannot read %s/%s: %s", ctx->src.procfs, need[k].file,
				strerror(-s->err[need[k].part]));
			return NULL;
		}
	}
	return s;
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
	/* the column line comes from the table; -t titles its column with the zone */
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
		v->cols[v->tab.ncols - 1].name = ptk_registry[PTK_M_SAMPLE_TIME].name;
}

/* kB in the -S unit, truncated: procps unitConvert, kB * 1024 / unit (exact here; procps
 * rounds through a float) */
static u64 conv_kb(const struct vm_state *v, u64 kb)
{
	return (u64)((unsigned __int128)kb * 1024 / v->unit);
}

/* x (of entry m, column c, a rate over span seconds) as vmstat prints it: an integer rounded
 * half up, as procps rounds ((x + 0.5) truncated), or truncated on the since-boot line
 * (boot), as procps 4.0.3 truncates counter / uptime there; kB in the -S unit, a rate in
 * kB/s being the interval's kB converted, truncated, then divided, as procps does it. The
 * shares (PTK_PCT) round half up on every line. */
static struct ptk_val vm_text(const struct vm_state *v, const struct vm_col *c,
			      const struct ptk_metric *m, struct ptk_val x, double span, bool boot)
{
	double f = x.f;

	if (x.na || m->type == PTK_V_STR)
		return x;
	if (m->type == PTK_V_U64)
		return c->mem ? PTK_U(conv_kb(v, x.u)) : x;
	if (c->mem && span > 0)
		f = (double)conv_kb(v, (u64)llround(MAX(f, 0) * span)) / span;
	if (boot && m->kind == PTK_RATE)
		return PTK_U(f > 0 ? (u64)f : 0);
	return PTK_U(f > 0 ? (u64)(f + 0.5) : 0);
}

static int vm_sample_fn(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct vm_state *v = arg;
	struct ptk_snap *now = &v->s[v->cur], *old = &v->s[!v->cur];
	struct ptk_val val[V_N];
	char ts[32] = "";

	if (!sample_read(ctx, now))
		return PTK_EXIT_RUNTIME;
	mi_warn(ctx, now, &v->warned);
	v->cur = !v->cur;
	if (i == 0 && v->no_first)
		return 0;

	/* the since-boot line: counters from zero over the uptime */
	double span = i == 0 ? ptk_act_boot_s(now) : itv;
	for (int k = 0; k < VM_NACTS; k++) {
		v->rows[k].n = 0;
		ptk_activities[vm_acts[k]].rows(i == 0 ? NULL : old, now, span, NULL, &v->rows[k]);
	}
	time_t wt = (time_t)ptk_ctx_walltime(ctx);
	struct tm tm;
	if (localtime_r(&wt, &tm))
		strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	for (int c = 0; c < V_N; c++) {
		const struct vm_col *col = &vm_layout[c];
		int k = 0;

		while (k < VM_NACTS && vm_acts[k] != col->act)
			k++;
		if (k == VM_NACTS) {
			val[c] = PTK_S(ts); /* the timestamp */
			continue;
		}
		int idx = ptk_act_col(&ptk_activities[col->act], col_mid(v, col));
		val[c] = idx >= 0 && v->rows[k].n ? v->rows[k].r[0].v[idx] : PTK_NA;
		/* no interval, no rate */
		if (i > 0 && itv <= 0 && ptk_registry[col_mid(v, col)].kind == PTK_RATE)
			val[c] = PTK_NA;
	}

	if (ctx->json) {
		/* JSON: every column (gu too) and the timestamp whether or not -t, as the
		 * registry holds them (kB whatever -S) */
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_bool(&ctx->sink, "since_boot", i == 0);
		ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
		ptk_sink_meta_bool(&ctx->sink, "active_inactive", v->active);
		ptk_sink_meta_json(&ctx->sink, "vmstat", ptk_json_row(&v->jtab, val));
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	if (v->lines == 0 || (!v->one_header && v->height > 0 && i > 0 && i % v->height == 0))
		print_header(ctx, v);
	struct ptk_val tv[V_N];
	for (int c = 0; c < v->tab.ncols; c++)
		tv[c] = vm_text(v, v->shown[c], &ptk_registry[col_mid(v, v->shown[c])],
				val[v->shown[c] - vm_layout], span, i == 0);
	ptk_sink_table_begin(&ctx->sink, &v->tab, false, NULL);
	ptk_sink_row(&ctx->sink, NULL, tv);
	ptk_sink_table_end(&ctx->sink);
	fflush(ctx->sink.out);
	v->lines++;
	return 0;
}

/* ---- the other modes: -s, -f, -D, -d, -p, -m -------------------------------------------- */

/* The sample's local time as "%Y-%m-%d %H:%M:%S" (-t), or its zone (zone: the header) */
static void vm_clock(struct ptk_ctx *ctx, bool zone, char *buf, size_t size)
{
	time_t t = (time_t)ptk_ctx_walltime(ctx);
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !(zone ? strftime(buf, size, "%Z", &tm) : strftime(buf, size, "%F %T", &tm)))
		buf[0] = 0;
}

/* the text of an integer value, "-" when unknown */
static const char *vm_num(struct ptk_val v, char *buf, size_t size)
{
	if (v.na)
		return "-";
	snprintf(buf, size, "%" PRIu64, v.u);
	return buf;
}

static int vm_read(struct ptk_ctx *ctx, struct ptk_snap *s, enum ptk_snap_part part,
		   const char *file)
{
	int r = ptk_snap_read(&ctx->src, s, PTK_SNAP_BIT(part));

	if (!r && !ptk_snap_has(s, part))
		r = s->err[part];
	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, r == s->err[part] ? file : "stat",
			strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

/* -s: procps's table ("%13lu %c label" for memory in the -S unit, "%13lu label" else) */
static int vm_stats(struct ptk_ctx *ctx, struct vm_state *v)
{
	struct ptk_vmstats_line l[PTK_VMSTATS_N];
	struct ptk_snap *s = &v->s[0];
	int r = ptk_snap_read(&ctx->src, s,
			      PTK_SNAP_BIT(PTK_SNAP_MEMINFO) | PTK_SNAP_BIT(PTK_SNAP_VMSTAT));

	if (r) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (!s->has_mi)
		ptk_warn("cannot read %s/meminfo: %s: its lines unknown", ctx->src.procfs,
			 strerror(-s->err[PTK_SNAP_MEMINFO]));
	if (!s->has_vm)
		ptk_warn("cannot read %s/vmstat: %s: its lines unknown", ctx->src.procfs,
			 strerror(-s->err[PTK_SNAP_VMSTAT]));
	mi_warn(ctx, s, &v->warned);
	ptk_vmstats(s, l);
	if (ctx->json) {
		struct json_object *o = json_object_new_object();

		for (int i = 0; i < PTK_VMSTATS_N; i++)
			json_object_object_add(o, l[i].key,
					       l[i].v.na ? NULL : json_object_new_uint64(l[i].v.u));
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(&ctx->sink, "stats", o);
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	for (int i = 0; i < PTK_VMSTATS_N; i++) {
		char b[32];
		struct ptk_val x = l[i].v;

		if (l[i].mem && !x.na)
			x = PTK_U(conv_kb(v, x.u));
		if (l[i].mem)
			printf("%13s %c %s\n", vm_num(x, b, sizeof(b)), v->unit_c, l[i].label);
		else
			printf("%13s %s\n", vm_num(x, b, sizeof(b)), l[i].label);
	}
	return 0;
}

/* -f: forks since boot (/proc/stat processes) */
static int vm_forks(struct ptk_ctx *ctx, struct vm_state *v)
{
	struct ptk_snap *s = &v->s[0];
	int r = ptk_snap_read(&ctx->src, s, 0);

	if (!r && !ptk_stat_has(&s->st, PTK_ST_PROCESSES))
		r = -ENODATA;
	if (r) {
		ptk_err("cannot read %s/stat%s: %s", ctx->src.procfs,
			r == -ENODATA ? " field processes" : "", strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_u64(&ctx->sink, "forks", s->st.processes);
		ptk_sink_end(&ctx->sink);
	} else {
		printf("%13" PRIu64 " forks\n", s->st.processes);
	}
	return 0;
}

/* the counters of d (or sums) as a JSON object named by the diskstats field table */
static struct json_object *disk_json(const char *name, const u64 *f, int nfields)
{
	struct json_object *o = json_object_new_object();

	if (name)
		json_object_object_add(o, "disk", json_object_new_string(name));
	for (int i = 0; i < PTK_DK_NFIELDS; i++)
		if (ptk_disk_fields[i].min_fields <= nfields)
			json_object_object_add(o, ptk_disk_fields[i].name,
					       json_object_new_uint64(f[i]));
	return o;
}

/* -D: the disks summed. procps 4.0.2 divides in-progress, io_ticks and time_in_queue by
 * 1000 under labels that say "milli" (and in-progress is a count): ptk prints them as the
 * kernel counts them (see ptk-vmstat(1)). */
static int vm_disksum(struct ptk_ctx *ctx, struct vm_state *v)
{
	static const struct {
		enum ptk_disk_field f;
		const char *label;
	} lines[] = {
		{ PTK_DK_RD_IOS, "total reads" },
		{ PTK_DK_RD_MERGES, "merged reads" },
		{ PTK_DK_RD_SECTORS, "read sectors" },
		{ PTK_DK_RD_TICKS, "milli reading" },
		{ PTK_DK_WR_IOS, "writes" },
		{ PTK_DK_WR_MERGES, "merged writes" },
		{ PTK_DK_WR_SECTORS, "written sectors" },
		{ PTK_DK_WR_TICKS, "milli writing" },
		{ PTK_DK_IN_FLIGHT, "inprogress IO" },
		{ PTK_DK_IO_TICKS, "milli spent IO" },
		{ PTK_DK_TIME_IN_QUEUE, "milli weighted IO" },
	};
	struct ptk_snap *s = &v->s[0];
	struct ptk_disksum sum;
	int r = vm_read(ctx, s, PTK_SNAP_DISKSTATS, "diskstats");

	if (r)
		return r;
	ptk_disksum(&s->ds, &sum);
	if (ctx->json) {
		struct json_object *o = disk_json(NULL, sum.f, 11);

		json_object_object_add(o, "disks", json_object_new_uint64(sum.disks));
		json_object_object_add(o, "partitions", json_object_new_uint64(sum.partitions));
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(&ctx->sink, "disk_summary", o);
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	printf("%13" PRIu64 " disks\n%13" PRIu64 " partitions\n", sum.disks, sum.partitions);
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		printf("%13" PRIu64 " %s\n", sum.f[lines[i].f], lines[i].label);
	return 0;
}

static void disk_header(struct ptk_ctx *ctx, const struct vm_state *v)
{
	fputs(v->wide ? "disk- -------------------reads------------------- "
			"-------------------writes------------------ ------IO-------" :
			"disk- ------------reads------------ ------------writes----------- "
			"-----IO------",
	      stdout);
	if (v->timestamp)
		fputs(" -----timestamp-----", stdout);
	putchar('\n');
	static const char *const t[] = { " ",	   "total",   "merged", "sectors", "ms", "total",
					 "merged", "sectors", "ms",	"cur",	   "sec" };
	static const int nw[] = { 5, 6, 6, 7, 7, 6, 6, 7, 7, 6, 6 };
	static const int ww[] = { 5, 9, 9, 11, 11, 9, 9, 11, 11, 7, 7 };
	for (int i = 0; i < (int)ARRAY_SIZE(t); i++)
		printf("%s%*s", i ? " " : "", v->wide ? ww[i] : nw[i], t[i]);
	if (v->timestamp) {
		char zone[32];

		vm_clock(ctx, true, zone, sizeof(zone));
		zone[19] = 0;
		printf(" %19s", zone);
	}
	putchar('\n');
}

/* -d: each whole disk's counters since boot, in file order; "cur" is the requests in
 * flight (procps 4.0.2 divides it by 1000), "sec" io_ticks in seconds. The header again
 * every screen of lines, counting every diskstats line as procps does. */
static int vm_disk_fn(struct ptk_ctx *ctx, void *arg, long it, double itv)
{
	struct vm_state *v = arg;
	struct ptk_snap *s = &v->s[0];
	struct json_object *arr = NULL;
	char ts[32] = "";
	int r = vm_read(ctx, s, PTK_SNAP_DISKSTATS, "diskstats");

	if (r)
		return r;
	if (v->timestamp)
		vm_clock(ctx, false, ts, sizeof(ts));
	if (ctx->json)
		arr = json_object_new_array();
	else if (v->one_header && it == 0)
		disk_header(ctx, v);
	for (int j = 0; j < s->ds.n; j++) {
		const struct ptk_disk *d = &s->ds.d[j];
		const u64 *f = d->f;

		if (d->is_partition)
			continue;
		if (arr) {
			json_object_array_add(arr, disk_json(d->name, f, d->nfields));
			continue;
		}
		if (!v->one_header && v->height > 0 && j % v->height == 0)
			disk_header(ctx, v);
		if (v->wide)
			printf("%-5s %9" PRIu64 " %9" PRIu64 " %11" PRIu64 " %11" PRIu64
			       " %9" PRIu64 " %9" PRIu64 " %11" PRIu64 " %11" PRIu64 " %7" PRIu64
			       " %7" PRIu64,
			       d->name, f[PTK_DK_RD_IOS], f[PTK_DK_RD_MERGES], f[PTK_DK_RD_SECTORS],
			       f[PTK_DK_RD_TICKS], f[PTK_DK_WR_IOS], f[PTK_DK_WR_MERGES],
			       f[PTK_DK_WR_SECTORS], f[PTK_DK_WR_TICKS], f[PTK_DK_IN_FLIGHT],
			       f[PTK_DK_IO_TICKS] / 1000);
		else
			printf("%-5s %6" PRIu64 " %6" PRIu64 " %7" PRIu64 " %7" PRIu64 " %6" PRIu64
			       " %6" PRIu64 " %7" PRIu64 " %7" PRIu64 " %6" PRIu64 " %6" PRIu64,
			       d->name, f[PTK_DK_RD_IOS], f[PTK_DK_RD_MERGES], f[PTK_DK_RD_SECTORS],
			       f[PTK_DK_RD_TICKS], f[PTK_DK_WR_IOS], f[PTK_DK_WR_MERGES],
			       f[PTK_DK_WR_SECTORS], f[PTK_DK_WR_TICKS], f[PTK_DK_IN_FLIGHT],
			       f[PTK_DK_IO_TICKS] / 1000);
		if (v->timestamp)
			printf(" %s", ts);
		putchar('\n');
	}
	if (arr) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(&ctx->sink, "disks", arr);
		ptk_sink_end(&ctx->sink);
	}
	fflush(stdout);
	return 0;
}

/* -p DEV: a partition's (or disk's) reads, sectors read, writes, sectors written since
 * boot; the header once. */
static int vm_part_fn(struct ptk_ctx *ctx, void *arg, long it, double itv)
{
	struct vm_state *v = arg;
	struct ptk_snap *s = &v->s[0];
	const struct ptk_disk *d;
	int r = vm_read(ctx, s, PTK_SNAP_DISKSTATS, "diskstats");

	if (r)
		return r;
	if (!(d = ptk_diskstats_find(&s->ds, v->dev))) {
		ptk_err("Disk/Partition %s not found (%s/diskstats)", v->dev, ctx->src.procfs);
		return PTK_EXIT_RUNTIME;
	}
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(&ctx->sink, "partition", disk_json(d->name, d->f, 4));
		ptk_sink_end(&ctx->sink);
		return 0;
	}
	if (it == 0)
		printf("%-10s %10s  %16s  %10s  %16s\n", v->dev, "reads", "read sectors", "writes",
		       "requested writes");
	printf("%21" PRIu64 "  %16" PRIu64 "  %10" PRIu64 "  %16" PRIu64 "\n", d->f[PTK_DK_RD_IOS],
	       d->f[PTK_DK_RD_SECTORS], d->f[PTK_DK_WR_IOS], d->f[PTK_DK_WR_SECTORS]);
	fflush(stdout);
	return 0;
}

static void slab_header(void)
{
	printf("%-24s %6s %6s %6s %6s\n", "Cache", "Num", "Total", "Size", "Pages");
}

/* -m: the slab caches sorted by name: objects in use, all objects, object size, pages per
 * slab (procps 4.0.2 prints objects per slab under "Pages"); the header every screen. */
static int vm_slab_fn(struct ptk_ctx *ctx, void *arg, long it, double itv)
{
	struct vm_state *v = arg;
	struct ptk_slabinfo si = { 0 };
	int r = ptk_slabinfo_read(&ctx->src, &si);

	if (r) {
		ptk_err("cannot read %s/slabinfo: %s%s", ctx->src.procfs, strerror(-r),
			r == -EACCES ? " (root only)" :
			r == -EINVAL ? " (not slabinfo version 2.x)" :
				       "");
		ptk_slabinfo_free(&si);
		return PTK_EXIT_RUNTIME;
	}
	ptk_slabinfo_sort(&si);
	if (ctx->json) {
		struct json_object *arr = json_object_new_array();

		for (int j = 0; j < si.n; j++) {
			const struct ptk_slab *c = &si.s[j];
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "cache", json_object_new_string(c->name));
			json_object_object_add(o, "active_objs",
					       json_object_new_uint64(c->active_objs));
			json_object_object_add(o, "num_objs", json_object_new_uint64(c->num_objs));
			json_object_object_add(o, "objsize", json_object_new_uint64(c->objsize));
			json_object_object_add(o, "objperslab",
					       json_object_new_uint64(c->objperslab));
			json_object_object_add(o, "pagesperslab",
					       json_object_new_uint64(c->pagesperslab));
			json_object_array_add(arr, o);
		}
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(&ctx->sink, "slabs", arr);
		ptk_sink_end(&ctx->sink);
	} else {
		if (v->one_header && it == 0)
			slab_header();
		for (int j = 0; j < si.n; j++) {
			const struct ptk_slab *c = &si.s[j];

			if (!v->one_header && v->height > 0 && j % v->height == 0)
				slab_header();
			printf("%-24.24s %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "\n",
			       c->name, c->active_objs, c->num_objs, c->objsize, c->pagesperslab);
		}
	}
	fflush(stdout);
	ptk_slabinfo_free(&si);
	return 0;
}

/* The text and JSON tables of the options. */
static void vm_tables(struct vm_state *v)
{
	int n = 0;

	for (int k = 0; k < V_N; k++) {
		const struct vm_col *c = &vm_layout[k];
		const struct ptk_metric *m = &ptk_registry[col_mid(v, c)];

		v->refs[k] = m;
		if ((k == V_GU && !v->wide) || (k == V_TIME && !v->timestamp))
			continue; /* 4.0.2 shows gu only in the wide layout */
		v->shown[n] = c;
		v->cols[n] = *m;
		if (v->active && c->alt_name)
			v->cols[n].name = c->alt_name;
		else if (c->name)
			v->cols[n].name = c->name;
		v->cols[n].width = v->wide ? c->wide : c->width;
		if (m->type != PTK_V_STR) {
			v->cols[n].type = PTK_V_U64;
			v->cols[n].prec = 0;
		}
		n++;
	}
	v->tab = (struct ptk_table){ "vmstat", v->cols, n };
	v->jtab = (struct ptk_table){ .name = "vmstat", .ncols = V_N, .refs = v->refs };
}

int cmd_vmstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "active", no_argument, NULL, 'a' },
					      { "one-header", no_argument, NULL, 'n' },
					      { "unit", required_argument, NULL, 'S' },
					      { "wide", no_argument, NULL, 'w' },
					      { "timestamp", no_argument, NULL, 't' },
					      { "no-first", no_argument, NULL, 'y' },
					      { "forks", no_argument, NULL, 'f' },
					      { "slabs", no_argument, NULL, 'm' },
					      { "stats", no_argument, NULL, 's' },
					      { "disk", no_argument, NULL, 'd' },
					      { "disk-sum", no_argument, NULL, 'D' },
					      { "partition", required_argument, NULL, 'p' },
					      { "version", no_argument, NULL, 'V' },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct vm_state *v = xcalloc(1, sizeof(*v));
	double interval = 1.0;
	long count = 1;
	bool has_itv;
	int c, r;

	v->unit = 1024;
	v->unit_c = 'K';
	opterr = 0; /* one error line, ours */
	bool forks = false;
	while ((c = getopt_long(argc, argv, "anS:wtyfmsdDp:V", opts, NULL)) != -1) {
		enum vm_mode m = VM_DEFAULT;

		switch (c) {
		case 'f':
			forks = true; /* procps prints them as soon as it reads -f */
			break;
		case 'm':
			m = VM_SLAB;
			break;
		case 's':
			m = VM_STATS;
			break;
		case 'd':
			m = VM_DISK;
			break;
		case 'D':
			m = VM_DISKSUM;
			break;
		case 'p':
			m = VM_PART;
			v->dev = strncmp(optarg, "/dev/", 5) ? optarg : optarg + 5;
			break;
		case 'V':
			printf("ptk vmstat %s (procps-ng vmstat's layout)\n", PTK_VERSION);
			r = 0;
			goto out;
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
			v->unit_c = optarg[0];
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
		if (m != VM_DEFAULT && v->mode != VM_DEFAULT && m != v->mode) {
			r = ptk_usage_error(ctx,
					    "options -s, -d, -D, -p and -m are mutually exclusive");
			goto out;
		}
		if (m != VM_DEFAULT)
			v->mode = m;
	}
	if (forks)
		v->mode = VM_FORKS;
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		goto out;
	if (has_itv && argc - optind == 1)
		count = -1; /* delay without count: until interrupted */
	if ((r = ptk_ctx_ready(ctx)))
		goto out;
	if (ctx->src.replay && !has_itv)
		count = -1; /* a snapshot tree: one line per snapshot */
	struct winsize ws;
	int rows = 24;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1 && ws.ws_row > 0)
		rows = ws.ws_row;
	v->height = rows - 3 > 0 ? rows - 3 : 22;
	switch (v->mode) {
	case VM_FORKS:
		r = vm_forks(ctx, v);
		goto out;
	case VM_STATS:
		r = vm_stats(ctx, v);
		goto out;
	case VM_DISKSUM:
		r = vm_disksum(ctx, v);
		goto out;
	case VM_DISK:
	case VM_PART:
	case VM_SLAB:
		/* count reports, each of counters since boot; -y and -a do not apply */
		r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1,
			     v->mode == VM_DISK ? vm_disk_fn :
			     v->mode == VM_PART ? vm_part_fn :
						  vm_slab_fn,
			     v);
		r = r > 0 ? r : 0;
		goto out;
	case VM_DEFAULT:
		break;
	}
	if (v->no_first && count > 0)
		count++; /* as procps: -y still prints count lines, all intervals */

	vm_tables(v);

	r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, vm_sample_fn, v);
	r = r > 0 ? r : 0;
out:
	ptk_snap_free(&v->s[0]);
	ptk_snap_free(&v->s[1]);
	for (int k = 0; k < VM_NACTS; k++)
		ptk_rows_free(&v->rows[k]);
	free(v);
	return r;
}
