// SPDX-License-Identifier: GPL-2.0
/*
 * ptk dstat: the columns, titles and number format of dstat 0.7.4 (Dag Wieers' dstat, the
 * Python 3 one Debian ships, which calls itself 0.8.0), composed from the activities' rows:
 * every value is a registry entry of an activity (cpu, disk, io, net_dev, swap, memory,
 * task, queue) or of the per-task rates (model/ptask.c), only scaled to dstat's unit (kB to
 * bytes) or summed over the entities of a total. The first line is since boot, as dstat's.
 *
 * dstat's plugins: -c cpu, -d disk, -n net, -g page, -y sys, -m mem, -r io, -s swap, -p
 * proc, --top-cpu, --top-io; -C/-D/-N pick CPUs, disks and interfaces, -f every one;
 * --output FILE appends dstat's CSV.
 */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmd/cmd.h"
#include "model/activity.h"
#include "model/tasktop.h"

/* ---- dstat's number format (dstat's cprint, dchg, fchg) ---------------------------------- */

/* Python's str(int(x)): the integer part, toward zero */
static int py_int_str(double x, char *buf, size_t size)
{
	return snprintf(buf, size, "%.0f", trunc(x) == 0 ? 0.0 : trunc(x));
}

/* Python's round(x, n) of a float: correctly rounded, ties to even on the exact value */
static double py_round_n(double x, int n)
{
	char b[400];

	snprintf(b, sizeof(b), "%.*f", n, x);
	return strtod(b, NULL);
}

/* dstat's dchg: the integer, divided by base until it fits width; *c = divisions */
static void ds_dchg(double v, int width, double base, char *buf, size_t size, int *c)
{
	*c = 0;
	for (;;) {
		if (py_int_str(nearbyint(v), buf, size) <= width || *c > 8)
			return;
		v /= base;
		(*c)++;
	}
}

/* dstat's fchg: as many decimals as fit width (none when the integer fills it) */
static void ds_fchg(double v, int width, double base, char *buf, size_t size, int *c)
{
	char in[64];

	*c = 0;
	for (;;) {
		if (v == 0) {
			snprintf(buf, size, "0");
			return;
		}
		int n = py_int_str(py_round_n(v, width), in, sizeof(in));
		if (n <= width || *c > 8) {
			for (int i = width - n - 1; i > 0; i--) {
				int m = snprintf(buf, size, "%.*f", i, v);
				if (m <= width && strcmp(buf, in))
					return;
			}
			py_int_str(nearbyint(v), buf, size);
			return;
		}
		v /= base;
		(*c)++;
	}
}

/*
 * dstat's cprint without colors: v as dstat prints a column of type t ('b' bytes, 'd'
 * decimal, 'p' percentage, 'f' float), width and scale; scale 1000 or 1024 adds a unit
 * letter (k M G ..., "B" or " " for none) in the last column. Unknown (na) or negative: "-".
 */
static void ds_cprint(struct ptk_strbuf *o, struct ptk_val x, char t, int width, int scale)
{
	static const char units1024[] = "BkMGTPEZY", units1000[] = " kMGTPEZY";
	double base = scale == 1024 ? 1024 : 1000;
	bool unit = (scale == 1000 || scale == 1024) && width >= 4;
	char buf[64];
	int c = 0;

	if (unit)
		width--;
	if (x.na || x.f < 0) {
		ptk_strbuf_addf(o, "%*s%s", width, "-", unit ? " " : "");
		return;
	}
	if (t == 'f')
		ds_fchg(x.f, width, base, buf, sizeof(buf), &c);
	else
		ds_dchg(x.f, width, base, buf, sizeof(buf), &c);
	ptk_strbuf_addf(o, "%*s", width, buf);
	if (unit)
		ptk_strbuf_addf(o, "%c",
				nearbyint(x.f) != 0 && c < 9 ?
					(scale == 1024 ? units1024 : units1000)[c] :
					' ');
}

/* dstat's CSV number: "%.3f" when not whole, else "%d" of the rounded value */
static void ds_csvnum(struct ptk_strbuf *o, struct ptk_val x)
{
	if (x.na)
		return; /* an empty cell: unknown */
	if (x.f != nearbyint(x.f))
		ptk_strbuf_addf(o, "%.3f", x.f);
	else
		ptk_strbuf_addf(o, "%.0f", x.f);
}

/* Python's str.center, then spaces as dashes when dash */
static void ds_center(struct ptk_strbuf *o, const char *s, int width, bool dash)
{
	int len = MIN((int)strlen(s), width), marg = width - len;
	int left = marg / 2 + (marg & width & 1);

	for (int i = 0; i < left; i++)
		ptk_strbuf_addf(o, "%c", dash ? '-' : ' ');
	for (int i = 0; i < len; i++)
		ptk_strbuf_addf(o, "%c", dash && s[i] == ' ' ? '-' : s[i]);
	for (int i = 0; i < marg - left; i++)
		ptk_strbuf_addf(o, "%c", dash ? '-' : ' ');
}

/* ---- the plugins: dstat's columns as registry entries of the activities ------------------ */

/* A column: activity act's entry m times mul (kB -> bytes: 1024, 512-byte sectors: 512). */
struct ds_col {
	const char *nick;
	enum ptk_act_id act;
	enum ptk_mid m;
	double mul;
};

enum ds_kind {
	K_CPU, /* entities: "total" or CPU numbers */
	K_DISK, /* entities: "total" (the io activity) or devices (disk activity rows) */
	K_NET, /* entities: "total" (rows summed) or interfaces */
	K_ONE, /* one row */
	K_TOP_CPU,
	K_TOP_IO,
};

#define DS_MAXCOLS 5
struct ds_def {
	const char *opt; /* dstat's plugin name */
	enum ds_kind kind;
	const char *name; /* K_ONE and K_TOP: the title; else NULL (per entity: prefix) */
	const char *prefix; /* "dsk/", "io/", "net/" */
	char type;
	int width, scale;
	int ncols;
	struct ds_col tot[DS_MAXCOLS]; /* the total (K_CPU: every row) */
	struct ds_col ent[DS_MAXCOLS]; /* an entity's row (K_DISK, K_NET) */
};

#define KB 1024.0
static const struct ds_def ds_defs[] = {
	{ "cpu",
	  K_CPU,
	  NULL,
	  NULL,
	  'p',
	  3,
	  34,
	  5,
	  { { "usr", PTK_ACT_CPU, PTK_M_CPU_USR_IRQ, 1 },
	    { "sys", PTK_ACT_CPU, PTK_M_CPU_SYS, 1 },
	    { "idl", PTK_ACT_CPU, PTK_M_CPU_IDLE, 1 },
	    { "wai", PTK_ACT_CPU, PTK_M_CPU_IOWAIT, 1 },
	    { "stl", PTK_ACT_CPU, PTK_M_CPU_STEAL, 1 } } },
	{ "disk",
	  K_DISK,
	  NULL,
	  "dsk/",
	  'b',
	  5,
	  1024,
	  2,
	  { { "read", PTK_ACT_IO, PTK_M_IO_BREAD, 512 },
	    { "writ", PTK_ACT_IO, PTK_M_IO_BWRTN, 512 } },
	  { { "read", PTK_ACT_DISK, PTK_M_DISK_RKB_S, KB },
	    { "writ", PTK_ACT_DISK, PTK_M_DISK_WKB_S, KB } } },
	{ "net",
	  K_NET,
	  NULL,
	  "net/",
	  'b',
	  5,
	  1024,
	  2,
	  { { "recv", PTK_ACT_NET_DEV, PTK_M_NET_RXKB, KB },
	    { "send", PTK_ACT_NET_DEV, PTK_M_NET_TXKB, KB } },
	  { { "recv", PTK_ACT_NET_DEV, PTK_M_NET_RXKB, KB },
	    { "send", PTK_ACT_NET_DEV, PTK_M_NET_TXKB, KB } } },
	{ "page",
	  K_ONE,
	  "paging",
	  NULL,
	  'd',
	  5,
	  1024,
	  2,
	  { { "in", PTK_ACT_SWAP, PTK_M_SWP_SI, KB }, { "out", PTK_ACT_SWAP, PTK_M_SWP_SO, KB } } },
	{ "sys",
	  K_ONE,
	  "system",
	  NULL,
	  'd',
	  5,
	  1000,
	  2,
	  { { "int", PTK_ACT_TASK, PTK_M_TASK_INTR_S, 1 },
	    { "csw", PTK_ACT_TASK, PTK_M_TASK_CSWCH_S, 1 } } },
	{ "mem",
	  K_ONE,
	  "memory usage",
	  NULL,
	  'f',
	  5,
	  1024,
	  4,
	  { { "used", PTK_ACT_MEM, PTK_M_MEM_USED_NOCACHE, KB },
	    { "free", PTK_ACT_MEM, PTK_M_MEM_FREE, KB },
	    { "buff", PTK_ACT_MEM, PTK_M_MEM_BUFFERS, KB },
	    { "cach", PTK_ACT_MEM, PTK_M_MEM_CACHED, KB } } },
	{ "io",
	  K_DISK,
	  NULL,
	  "io/",
	  'f',
	  5,
	  1000,
	  2,
	  { { "read", PTK_ACT_IO, PTK_M_IO_RTPS, 1 }, { "writ", PTK_ACT_IO, PTK_M_IO_WTPS, 1 } },
	  { { "read", PTK_ACT_DISK, PTK_M_DISK_R_S, 1 },
	    { "writ", PTK_ACT_DISK, PTK_M_DISK_W_S, 1 } } },
	{ "swap",
	  K_ONE,
	  "swap",
	  NULL,
	  'd',
	  5,
	  1024,
	  2,
	  { { "used", PTK_ACT_SWAP, PTK_M_SWP_USED, KB },
	    { "free", PTK_ACT_SWAP, PTK_M_SWP_FREE, KB } } },
	{ "proc",
	  K_ONE,
	  "procs",
	  NULL,
	  'f',
	  3,
	  10,
	  3,
	  { { "run", PTK_ACT_QUEUE, PTK_M_Q_RUNQ_SZ, 1 },
	    { "blk", PTK_ACT_QUEUE, PTK_M_Q_BLOCKED, 1 },
	    { "new", PTK_ACT_TASK, PTK_M_TASK_PROC_S, 1 } } },
	{ "top-cpu", K_TOP_CPU, "most expensive", NULL, 's', 16, 0, 1, { { "cpu process" } } },
	{ "top-io", K_TOP_IO, "most expensive", NULL, 's', 22, 0, 1, { { "i/o process" } } },
};
#undef KB
#define DS_NDEFS ((int)ARRAY_SIZE(ds_defs))

/* A plugin on the command line and its entities. */
struct ds_plug {
	const struct ds_def *d;
	int n; /* entities */
	char (*ent)[64]; /* "total", "0", "vda", "eth0" */
	bool swap_devs; /* swap: SwapTotal > 0 titles it swp/total, as dstat's swap plugin */
};

struct ds_state {
	struct ds_plug *p;
	int np;
	unsigned parts; /* snapshot parts */
	bool acts[PTK_ACT_COUNT];
	struct ptk_rows rows[PTK_ACT_COUNT];
	struct ptk_snap s[2];
	int cur;
	bool tops, topio; /* a process table is scanned (and /proc/PID/io) */
	struct ptk_ptab pt[2];
	struct ptk_task_top top_cpu, top_io; /* the interval's busiest tasks */
	long hz;
	int ncpu; /* online CPUs (dstat's cpunr) */
	int height; /* terminal rows, 0 not a terminal */
	bool noheaders;
	long lines;
	FILE *csv;
	u64 warned; /* meminfo fields above their total, warned about */
};

static const char usage[] =
	"usage: ptk dstat [-c] [-C CPUS] [-d] [-D DISKS] [-n] [-N IFS] [-g] [-y] [-m] [-r] [-s]\n"
	"                 [-p] [-a] [-v] [-f] [--top-cpu] [--top-io] [--output FILE]\n"
	"                 [--noheaders] [--json] [delay [count]]\n"
	"System resource statistics in dstat 0.7.4's columns and number format; the first line\n"
	"is since boot. Without a plugin: -cdngy. Without count: until interrupted.\n"
	" -c, --cpu           CPU usage: usr (user, nice, irq, softirq) sys idl wai stl, in %\n"
	" -C 0,3,total|all    CPUs to show (per CPU usage)\n"
	" -d, --disk          disk read, write bytes/s\n"
	" -D total,sda,...    disks to show\n"
	" -n, --net           network receive, send bytes/s\n"
	" -N eth0,total,...   interfaces to show\n"
	" -g, --page          swap paging in, out bytes/s\n"
	" -y, --sys           interrupts, context switches /s\n"
	" -m, --mem           memory used, free, buffers, cache (bytes)\n"
	" -r, --io            disk read, write requests/s\n"
	" -s, --swap          swap used, free (bytes)\n"
	" -p, --proc          processes runnable, blocked, new/s\n"
	" -a, --all           -cdngy; -v, --vmstat: -pmgdyc\n"
	" -f, --full          every disk and interface (-C, -D, -N give lists)\n"
	" --top-cpu           the process using the most CPU (% of all CPUs)\n"
	" --top-io            the process doing the most read()/write() I/O (bytes/s)\n"
	" --output FILE       append dstat's CSV to FILE\n"
	" --noheaders         print the header once, even on a terminal\n"
	" --json              one object per line: every plugin's values under registry keys\n";

static const struct ds_def *def_by_opt(const char *opt)
{
	for (int i = 0; i < DS_NDEFS; i++)
		if (!strcmp(ds_defs[i].opt, opt))
			return &ds_defs[i];
	return NULL;
}

static void plug_add(struct ds_state *st, const char *opt)
{
	const struct ds_def *d = def_by_opt(opt);

	for (int i = 0; i < st->np; i++)
		if (st->p[i].d == d)
			return; /* once */
	st->p = xrealloc(st->p, (st->np + 1) * sizeof(*st->p));
	memset(&st->p[st->np], 0, sizeof(st->p[0]));
	st->p[st->np++].d = d;
}

static void ent_add(struct ds_plug *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->ent[i], name))
			return;
	p->ent = xrealloc(p->ent, (p->n + 1) * sizeof(*p->ent));
	snprintf(p->ent[p->n++], sizeof(p->ent[0]), "%s", name);
}

static int ent_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* dstat's total and -f leave out what would count twice: disks dm-N and mdN (on other
 * disks), interfaces lo, bond masters, "face" and VLANs (NAME.N) */
static bool net_in_total(const char *n)
{
	const char *dot = strrchr(n, '.');

	if (!strcmp(n, "lo") || !strcmp(n, "face") || !strncmp(n, "bond", 4))
		return false;
	return !(dot && dot > n && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1));
}

static bool disk_in_full(const char *n)
{
	return strncmp(n, "dm-", 3) && !(n[0] == 'm' && n[1] == 'd' && n[2] >= '0' && n[2] <= '9');
}

/*
 * The entities of each plugin from the options and the first snapshot: -C/-D/-N lists as
 * given (names not there are refused), -f every disk (not dm-/md) and every interface with
 * packets (not lo), sorted as dstat sorts them; else "total".
 */
static int plug_entities(struct ptk_ctx *ctx, struct ds_state *st, const char *cpus,
			 const char *disks, const char *nets, bool full)
{
	const struct ptk_snap *s = &st->s[0];

	for (int i = 0; i < st->np; i++) {
		struct ds_plug *p = &st->p[i];
		const char *list = p->d->kind == K_CPU	? cpus :
				   p->d->kind == K_DISK ? disks :
				   p->d->kind == K_NET	? nets :
							  NULL;

		if (p->d->kind == K_ONE || p->d->kind >= K_TOP_CPU) {
			ent_add(p, "total");
			p->swap_devs = s->has_mi && s->mi.swap_total > 0;
			continue;
		}
		if (list) {
			char *dup = xstrdup(list), *save = NULL;

			for (char *t = strtok_r(dup, ",", &save); t;
			     t = strtok_r(NULL, ",", &save)) {
				bool found = !strcmp(t, "total");

				if (!strncmp(t, "/dev/", 5))
					t += 5;
				if (p->d->kind == K_CPU && !strcmp(t, "all")) {
					for (int c = 0; c < st->ncpu; c++) {
						char k[16];
						snprintf(k, sizeof(k), "%d", c);
						ent_add(p, k);
					}
					continue;
				}
				if (p->d->kind == K_CPU)
					for (int c = 0; c < s->st.ncpu && !found; c++)
						found = s->st.present[c] && ptk_is_digits(t) &&
							atoi(t) == c;
				if (p->d->kind == K_DISK)
					found |= ptk_diskstats_find(&s->ds, t) != NULL;
				if (p->d->kind == K_NET)
					found |= ptk_netdev_find(&s->nd, t) != NULL;
				if (!found) {
					int r = ptk_usage_error(ctx, "-%c: no %s '%s' in %s/%s",
								p->d->kind == K_CPU  ? 'C' :
								p->d->kind == K_DISK ? 'D' :
										       'N',
								p->d->kind == K_CPU  ? "CPU" :
								p->d->kind == K_DISK ? "disk" :
										       "interface",
								t, ctx->src.procfs,
								p->d->kind == K_CPU  ? "stat" :
								p->d->kind == K_DISK ? "diskstats" :
										       "net/dev");
					free(dup);
					return r;
				}
				ent_add(p, t);
			}
			free(dup);
		} else if (full && p->d->kind == K_DISK) {
			for (int k = 0; k < s->ds.n; k++)
				if (!s->ds.d[k].is_partition && disk_in_full(s->ds.d[k].name))
					ent_add(p, s->ds.d[k].name);
			qsort(p->ent, p->n, sizeof(*p->ent), ent_cmp);
		} else if (full && p->d->kind == K_NET) {
			for (int k = 0; k < s->nd.n; k++) {
				const struct ptk_netdev *d = &s->nd.d[k];

				if (strcmp(d->name, "lo") && strcmp(d->name, "face") &&
				    (d->f[PTK_ND_RX_PACKETS] || d->f[PTK_ND_TX_PACKETS]))
					ent_add(p, d->name);
			}
			qsort(p->ent, p->n, sizeof(*p->ent), ent_cmp);
		}
		if (!p->n)
			ent_add(p, "total");
	}
	return 0;
}

/* ---- values ---------------------------------------------------------------------------- */

/* column m of the row key of an activity's rows, as a double (PTK_F) or na */
static struct ptk_val row_val(const struct ptk_rows *rs, const char *key, enum ptk_act_id act,
			      enum ptk_mid m)
{
	const struct ptk_row *r = ptk_rows_find(rs, key);
	int i = ptk_act_col(&ptk_activities[act], m);
	struct ptk_val v = r && i >= 0 ? r->v[i] : PTK_NA;

	if (v.na)
		return v;
	switch (ptk_registry[m].type) {
	case PTK_V_U64:
		return PTK_F((double)v.u);
	case PTK_V_S64:
		return PTK_F((double)v.i);
	case PTK_V_F64:
		return v;
	default:
		return PTK_NA;
	}
}

static struct ptk_val scaled(struct ptk_val v, double mul)
{
	return v.na ? v : PTK_F(v.f * mul);
}

/* The value of column c of entity e of plugin p this interval. */
static struct ptk_val ds_value(const struct ds_state *st, const struct ds_plug *p, int e, int c)
{
	const struct ds_def *d = p->d;
	const char *ent = p->ent[e];
	bool total = !strcmp(ent, "total");
	const struct ds_col *col = total || d->kind == K_CPU ? &d->tot[c] : &d->ent[c];
	const struct ptk_rows *rs = &st->rows[col->act];

	if (d->kind == K_CPU)
		return scaled(row_val(rs, total ? "all" : ent, col->act, col->m), col->mul);
	if (d->kind == K_NET && total) {
		/* the interfaces' rows summed, as dstat's net/total */
		double sum = 0;
		bool any = false;

		for (int i = 0; i < rs->n; i++) {
			struct ptk_val v = row_val(rs, rs->r[i].key, col->act, col->m);

			if (!net_in_total(rs->r[i].key) || v.na)
				continue;
			sum += v.f;
			any = true;
		}
		return any || !rs->n ? PTK_F(sum * col->mul) : PTK_NA;
	}
	if (total || d->kind == K_ONE)
		return scaled(row_val(rs, rs->n ? rs->r[0].key : "", col->act, col->m), col->mul);
	return scaled(row_val(rs, ent, col->act, col->m), col->mul);
}

/* The registry entry of column c of entity e (JSON keys). */
static const struct ptk_metric *ds_metric(const struct ds_plug *p, int e, int c)
{
	bool total = !strcmp(p->ent[e], "total");

	return &ptk_registry[total || p->d->kind == K_CPU ? p->d->tot[c].m : p->d->ent[c].m];
}

/* ---- output ---------------------------------------------------------------------------- */

static int plug_colwidth(const struct ds_plug *p)
{
	return p->d->ncols * p->d->width + p->d->ncols - 1;
}

/* the title of entity e ("total cpu usage", "cpu0 usage", "dsk/vda"), or the plugin's */
static void ent_title(const struct ds_plug *p, int e, char *buf, size_t size)
{
	const struct ds_def *d = p->d;

	if (d->kind == K_CPU)
		snprintf(buf, size, strcmp(p->ent[e], "total") ? "cpu%s usage" : "%s cpu usage",
			 p->ent[e]);
	else if (d->prefix)
		snprintf(buf, size, "%s%s", d->prefix, p->ent[e]);
	else if (!strcmp(d->opt, "swap") && p->swap_devs)
		snprintf(buf, size, "swp/total");
	else
		snprintf(buf, size, "%s", d->name);
}

/* dstat's plugins with one title for all columns (a string name) vs one per entity */
static bool one_title(const struct ds_plug *p)
{
	return p->d->kind == K_ONE && !(!strcmp(p->d->opt, "swap") && p->swap_devs);
}

static void ds_header(const struct ds_state *st, FILE *out)
{
	struct ptk_strbuf t = { 0 }, u = { 0 };

	for (int i = 0; i < st->np; i++) {
		const struct ds_plug *p = &st->p[i];
		int w = p->d->width;
		char name[96];

		if (i) {
			ptk_strbuf_addf(&t, " ");
			ptk_strbuf_addf(&u, "|");
		}
		for (int e = 0; e < p->n; e++) {
			ent_title(p, e, name, sizeof(name));
			if (e)
				ptk_strbuf_addf(&t, " ");
			ds_center(&t, name, plug_colwidth(p), true);
			if (e)
				ptk_strbuf_addf(&u, ":");
			for (int c = 0; c < p->d->ncols; c++) {
				if (c)
					ptk_strbuf_addf(&u, " ");
				ds_center(&u, p->d->tot[c].nick, w, false);
			}
		}
	}
	fprintf(out, "%s\n%s\n", t.p ? t.p : "", u.p ? u.p : "");
	free(t.p);
	free(u.p);
}

static void ds_line(const struct ds_state *st, struct ptk_strbuf *o)
{
	for (int i = 0; i < st->np; i++) {
		const struct ds_plug *p = &st->p[i];
		const struct ds_def *d = p->d;

		if (i)
			ptk_strbuf_addf(o, "|");
		if (d->kind == K_TOP_CPU || d->kind == K_TOP_IO) {
			/* dstat: the name in the width less the values, then the values */
			const struct ptk_task_top *t =
				d->kind == K_TOP_CPU ? &st->top_cpu : &st->top_io;
			struct ptk_strbuf v = { 0 };
			int nw = d->width - (d->kind == K_TOP_CPU ? 3 : 11);

			if (t->any) {
				ptk_strbuf_addf(&v, "%-*.*s", nw, nw, t->comm);
				if (d->kind == K_TOP_CPU) {
					ds_cprint(&v, PTK_F(t->cpu_all_pct), 'f', 3, 34);
				} else {
					ds_cprint(&v, PTK_F(t->rchar_s), 'd', 5, 1024);
					ptk_strbuf_addf(&v, " ");
					ds_cprint(&v, PTK_F(t->wchar_s), 'd', 5, 1024);
				}
			}
			ptk_strbuf_addf(o, "%-*s", d->width, v.p ? v.p : "");
			free(v.p);
			continue;
		}
		for (int e = 0; e < p->n; e++) {
			if (e)
				ptk_strbuf_addf(o, ":");
			for (int c = 0; c < d->ncols; c++) {
				if (c)
					ptk_strbuf_addf(o, " ");
				ds_cprint(o, ds_value(st, p, e, c), d->type, d->width, d->scale);
			}
		}
	}
}

/* dstat's CSV: titles, then the nicknames ("name:nick" when a plugin has several entities) */
static void csv_header(const struct ds_state *st, struct ptk_strbuf *o)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < st->np; i++) {
			const struct ds_plug *p = &st->p[i];
			int nt = one_title(p) || p->d->kind >= K_TOP_CPU ? 1 : p->n;

			if (i)
				ptk_strbuf_addf(o, ",");
			for (int e = 0; e < nt; e++) {
				char name[96];

				ent_title(p, e, name, sizeof(name));
				if (e)
					ptk_strbuf_addf(o, ",");
				for (int c = 0; c < p->d->ncols; c++) {
					if (pass == 0)
						ptk_strbuf_addf(o, c ? "," : "\"%s\"", name);
					else if (nt > 1)
						ptk_strbuf_addf(o, "%s\"%s:%s\"", c ? "," : "",
								name, p->d->tot[c].nick);
					else
						ptk_strbuf_addf(o, "%s\"%s\"", c ? "," : "",
								p->d->tot[c].nick);
				}
			}
		}
		ptk_strbuf_addf(o, "\n");
	}
}

static void csv_line(const struct ds_state *st, struct ptk_strbuf *o)
{
	for (int i = 0; i < st->np; i++) {
		const struct ds_plug *p = &st->p[i];

		if (i)
			ptk_strbuf_addf(o, ",");
		/* dstat's "name / N%" and "name / R:W" */
		if (p->d->kind == K_TOP_CPU) {
			ptk_strbuf_addf(o, "%s / %d%%", st->top_cpu.comm,
					(int)st->top_cpu.cpu_all_pct);
			continue;
		}
		if (p->d->kind == K_TOP_IO) {
			ptk_strbuf_addf(o, "%s / %d:%d", st->top_io.comm, (int)st->top_io.rchar_s,
					(int)st->top_io.wchar_s);
			continue;
		}
		for (int e = 0; e < p->n; e++)
			for (int c = 0; c < p->d->ncols; c++) {
				if (e || c)
					ptk_strbuf_addf(o, ",");
				ds_csvnum(o, ds_value(st, p, e, c));
			}
	}
	ptk_strbuf_addf(o, "\n");
}

static void ds_json(struct ptk_ctx *ctx, const struct ds_state *st, long i, double span)
{
	struct json_object *all = json_object_new_object();

	for (int k = 0; k < st->np; k++) {
		const struct ds_plug *p = &st->p[k];
		struct json_object *po = json_object_new_object();

		if (p->d->kind == K_TOP_CPU || p->d->kind == K_TOP_IO) {
			const struct ptk_task_top *t =
				p->d->kind == K_TOP_CPU ? &st->top_cpu : &st->top_io;

			json_object_object_add(po, "comm",
					       t->any ? json_object_new_string(t->comm) : NULL);
			json_object_object_add(po, "pid",
					       t->any ? json_object_new_int(t->pid) : NULL);
			if (p->d->kind == K_TOP_CPU) {
				json_object_object_add(po, "cpu_all_pct",
						       json_object_new_double(t->cpu_all_pct));
			} else {
				json_object_object_add(po, "rchar_s",
						       json_object_new_double(t->rchar_s));
				json_object_object_add(po, "wchar_s",
						       json_object_new_double(t->wchar_s));
			}
			json_object_object_add(all, p->d->opt, po);
			continue;
		}
		for (int e = 0; e < p->n; e++) {
			struct json_object *eo = json_object_new_object();

			for (int c = 0; c < p->d->ncols; c++) {
				const struct ds_col *col =
					!strcmp(p->ent[e], "total") || p->d->kind == K_CPU ?
						&p->d->tot[c] :
						&p->d->ent[c];
				struct ptk_val v = ds_value(st, p, e, c);
				/* the registry's unit: undo the display scaling */
				json_object_object_add(
					eo, ds_metric(p, e, c)->key,
					v.na ? NULL : json_object_new_double(v.f / col->mul));
			}
			json_object_object_add(po, p->ent[e], eo);
		}
		json_object_object_add(all, p->d->opt, po);
	}
	ptk_sink_begin(&ctx->sink);
	ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_bool(&ctx->sink, "since_boot", i == 0);
	ptk_sink_meta_f64(&ctx->sink, "interval_s", span); /* the uptime since boot */
	ptk_sink_meta_json(&ctx->sink, "dstat", all);
	ptk_sink_end(&ctx->sink);
}

/* ---- the loop -------------------------------------------------------------------------- */

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

static int ds_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	static const struct ptk_act_opts cpu_opts = { .per_cpu = true };
	static const struct ptk_act_opts disk_opts = { .partitions = true, .unused = true };
	struct ds_state *st = arg;
	struct ptk_snap *now = &st->s[st->cur], *old = &st->s[!st->cur];
	int r = ptk_snap_read(&ctx->src, now, st->parts);

	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, now->err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	mi_warn(ctx, now, &st->warned);
	double span = i == 0 ? ptk_act_boot_s(now) : itv;
	for (int a = 0; a < PTK_ACT_COUNT; a++) {
		if (!st->acts[a])
			continue;
		st->rows[a].n = 0;
		ptk_activities[a].rows(i == 0 ? NULL : old, now, span,
				       a == PTK_ACT_CPU	 ? &cpu_opts :
				       a == PTK_ACT_DISK ? &disk_opts :
							   NULL,
				       &st->rows[a]);
	}
	if (st->tops) {
		struct ptk_ptab *pc = &st->pt[st->cur], *pp = &st->pt[!st->cur];

		if (ptk_ptab_scan(&ctx->src, st->topio ? PTK_PT_IO : 0, pc))
			pc->n = 0;
		ptk_task_tops(i == 0 ? NULL : pp, pc, span, st->hz, i == 0 ? -1 : old->up.up_s,
			      st->ncpu, getpid(), &st->top_cpu, &st->top_io);
	}
	st->cur = !st->cur;
	if (ctx->json) {
		ds_json(ctx, st, i, span);
	} else {
		struct ptk_strbuf o = { 0 };

		if (st->lines == 0 ||
		    (!st->noheaders && st->height >= 6 && st->lines % (st->height - 2) == 0))
			ds_header(st, ctx->sink.out);
		ds_line(st, &o);
		fprintf(ctx->sink.out, "%s\n", o.p ? o.p : "");
		fflush(ctx->sink.out);
		free(o.p);
		st->lines++;
	}
	if (st->csv) {
		struct ptk_strbuf o = { 0 };

		csv_line(st, &o);
		fputs(o.p, st->csv);
		fflush(st->csv);
		free(o.p);
	}
	return 0;
}

/* dstat's CSV preamble: its four lines (ours where they name dstat's author), or a blank
 * pair and the host and command lines when appending to an existing file */
static FILE *csv_open(struct ptk_ctx *ctx, const char *path, int argc, char **argv)
{
	bool exists = access(path, F_OK) == 0;
	FILE *f = fopen(path, "a");
	char host[256] = "", date[64] = "";
	struct passwd *pw;
	time_t t = time(NULL);
	struct tm tm;

	if (!f)
		return NULL;
	pw = getpwuid(getuid());
	gethostname(host, sizeof(host) - 1);
	if (localtime_r(&t, &tm))
		strftime(date, sizeof(date), "%d %b %Y %H:%M:%S %Z", &tm);
	if (exists) {
		fputs("\n\n", f);
	} else {
		fprintf(f, "\"ptk dstat %s CSV output\"\n", PTK_VERSION);
		fputs("\"Author:\",\"ptk (dstat 0.7.4's CSV layout)\",,,,\"URL:\",\"man ptk-dstat\"\n",
		      f);
	}
	fprintf(f, "\"Host:\",\"%s\",,,,\"User:\",\"%s\"\n", host, pw ? pw->pw_name : "");
	fputs("\"Cmdline:\",\"ptk dstat", f);
	for (int i = 1; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f, "\",,,,\"Date:\",\"%s\"\n", date);
	(void)ctx;
	return f;
}

enum { O_TOPCPU = 0x100, O_TOPIO, O_OUTPUT, O_NOHEADERS, O_NOCOLOR, O_NOUPDATE };

int cmd_dstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "cpu", no_argument, NULL, 'c' },
					      { "disk", no_argument, NULL, 'd' },
					      { "net", no_argument, NULL, 'n' },
					      { "page", no_argument, NULL, 'g' },
					      { "sys", no_argument, NULL, 'y' },
					      { "mem", no_argument, NULL, 'm' },
					      { "io", no_argument, NULL, 'r' },
					      { "swap", no_argument, NULL, 's' },
					      { "proc", no_argument, NULL, 'p' },
					      { "all", no_argument, NULL, 'a' },
					      { "vmstat", no_argument, NULL, 'v' },
					      { "full", no_argument, NULL, 'f' },
					      { "top-cpu", no_argument, NULL, O_TOPCPU },
					      { "top-io", no_argument, NULL, O_TOPIO },
					      { "output", required_argument, NULL, O_OUTPUT },
					      { "noheaders", no_argument, NULL, O_NOHEADERS },
					      { "nocolor", no_argument, NULL, O_NOCOLOR },
					      { "noupdate", no_argument, NULL, O_NOUPDATE },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct ds_state *st = xcalloc(1, sizeof(*st));
	const char *cpus = NULL, *disks = NULL, *nets = NULL, *output = NULL;
	double interval = 1.0;
	long count = -1;
	bool has_itv, full = false;
	int c, r = 0;

	while ((c = ptk_getopt(ctx, argc, argv, "cdngymrspavfC:D:N:o:h", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'c':
			plug_add(st, "cpu");
			break;
		case 'd':
			plug_add(st, "disk");
			break;
		case 'n':
			plug_add(st, "net");
			break;
		case 'g':
			plug_add(st, "page");
			break;
		case 'y':
			plug_add(st, "sys");
			break;
		case 'm':
			plug_add(st, "mem");
			break;
		case 'r':
			plug_add(st, "io");
			break;
		case 's':
			plug_add(st, "swap");
			break;
		case 'p':
			plug_add(st, "proc");
			break;
		case 'a':
			for (const char *const *o = (const char *const[]){ "cpu", "disk", "net",
									   "page", "sys", NULL };
			     *o; o++)
				plug_add(st, *o);
			break;
		case 'v':
			for (const char *const *o =
				     (const char *const[]){ "proc", "mem", "page", "disk", "sys",
							    "cpu", NULL };
			     *o; o++)
				plug_add(st, *o);
			break;
		case 'f':
			full = true;
			break;
		case 'C':
			cpus = optarg;
			break;
		case 'D':
			disks = optarg;
			break;
		case 'N':
			nets = optarg;
			break;
		case O_TOPCPU:
			plug_add(st, "top-cpu");
			break;
		case O_TOPIO:
			plug_add(st, "top-io");
			break;
		case 'o':
		case O_OUTPUT:
			output = optarg;
			break;
		case O_NOHEADERS:
			st->noheaders = true;
			break;
		case O_NOCOLOR:
		case O_NOUPDATE:
			break; /* ptk dstat has neither colors nor updates within an interval */
		case 'h':
			fputs(usage, stdout);
			goto out;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		goto out;
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		goto out;
	if (argc - optind < 2)
		count = -1; /* dstat: without a count, until interrupted */
	if ((r = ptk_ctx_ready(ctx)))
		goto out;
	bool dflt = !st->np;
	if (dflt)
		for (const char *const *o =
			     (const char *const[]){ "cpu", "disk", "net", "page", "sys", NULL };
		     *o; o++)
			plug_add(st, *o);
	/* what the plugins read */
	st->parts = 0;
	for (int i = 0; i < st->np; i++) {
		const struct ds_def *d = st->p[i].d;

		st->tops |= d->kind == K_TOP_CPU || d->kind == K_TOP_IO;
		st->topio |= d->kind == K_TOP_IO;
		for (int k = 0; k < d->ncols && d->kind < K_TOP_CPU; k++) {
			st->acts[d->tot[k].act] = true;
			st->parts |= ptk_activities[d->tot[k].act].parts;
			if (d->kind == K_DISK || d->kind == K_NET) {
				st->acts[d->ent[k].act] = true;
				st->parts |= ptk_activities[d->ent[k].act].parts;
			}
		}
	}
	st->parts |= PTK_SNAP_BIT(PTK_SNAP_MEMINFO); /* the swap title */
	st->hz = sysconf(_SC_CLK_TCK);
	if (st->hz <= 0)
		st->hz = 100;
	st->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (st->ncpu < 1)
		st->ncpu = 1;
	if (!ctx->src.replay && isatty(STDOUT_FILENO)) {
		struct winsize ws;

		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != -1)
			st->height = ws.ws_row;
	}
	/* the entities come from the first snapshot, read again by the first sample */
	if ((r = ptk_snap_read(&ctx->src, &st->s[0], st->parts))) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, st->s[0].err_file, strerror(-r));
		r = PTK_EXIT_RUNTIME;
		goto out;
	}
	if ((r = plug_entities(ctx, st, cpus, disks, nets, full)))
		goto out;
	if (dflt && !ctx->json)
		puts("You did not select any stats, using -cdngy by default.");
	if (output && !(st->csv = csv_open(ctx, output, argc, argv))) {
		ptk_err("cannot open %s: %s", output, strerror(errno));
		r = PTK_EXIT_RUNTIME;
		goto out;
	}
	if (st->csv) {
		struct ptk_strbuf o = { 0 };

		csv_header(st, &o);
		fputs(o.p, st->csv);
		free(o.p);
	}
	r = ptk_loop(ctx, interval, count < 0 ? -1 : count - 1, ds_sample, st);
	r = r > 0 ? r : 0;
out:
	if (st->csv && fclose(st->csv) && !r) {
		ptk_err("cannot write %s: %s", output, strerror(errno));
		r = PTK_EXIT_RUNTIME;
	}
	for (int i = 0; i < st->np; i++)
		free(st->p[i].ent);
	free(st->p);
	for (int a = 0; a < PTK_ACT_COUNT; a++)
		ptk_rows_free(&st->rows[a]);
	ptk_snap_free(&st->s[0]);
	ptk_snap_free(&st->s[1]);
	ptk_ptab_free(&st->pt[0]);
	ptk_ptab_free(&st->pt[1]);
	free(st);
	return r;
}
