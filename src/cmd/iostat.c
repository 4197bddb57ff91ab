// SPDX-License-Identifier: GPL-2.0
/*
 * ptk iostat: CPU and per-device I/O statistics, as sysstat's iostat 12.7.
 *
 * Where the counters come from, as sysstat: with -p ALL, /proc/diskstats (and iostat -f's
 * DIR/diskstats); otherwise each device's /sys/block/DEV/stat, the partitions of -p DEV from
 * /sys/block/DEV/PART/stat (and the same under -f's DIR). A tree without any of those stat
 * files (a capture by an older ptk) is read from /proc/diskstats.
 * Devices are listed as sysstat lists them: sorted by name from sysfs, in /proc/diskstats
 * order with -p ALL, in command-line order around -g groups.
 *
 * Values are the disk activity's rows (model/act_disk.c, ptk_act_disk_row: sysstat's
 * compute_ext_disk_stats and its baselines) and the cpu activity's "all" row; the first
 * report is since boot (the interval is the uptime) unless -y. The columns are the same in
 * every report: a counter the kernel does not keep (discards before 4.18, flushes before 5.5)
 * prints 0.00 in the text and -o JSON layouts, as sysstat prints it, and null in --json. A
 * value that cannot be known (a counter that went back on its own, the uptime going back) is
 * "-" / null, with a warning naming the file and the field; so is every value of a report
 * whose uptime went back (a boot in between). avg-cpu over an interval in which the cpu
 * line's total went back is sysstat's 0.00 (cpu_went_back).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "model/activity.h"
#include "output/sysstat.h"
#include "source/devname.h"

/* ---- columns: registry entries (model/registry.c) in iostat's layouts --------------- */

enum col_kind {
	K_NUM, /* a number with two decimals (--dec) */
	K_PCT, /* a percentage (--human: one decimal and '%') */
	K_RATE, /* sectors per second in the report's unit (--human: scaled from kB) */
	K_CNT, /* sectors in the report's unit, an integer (--human: scaled from kB) */
	K_KB, /* kB (--human: scaled) */
};

/* A column: the registry entry m, with sysstat's width; title: a format of the unit ("kB",
 * "MB", "GB", "Blk" or "sec") when the column is in it, else the entry's title. part: the
 * part of the -x --pretty report it is in (1 to 4). */
struct io_col {
	enum ptk_mid m;
	int width;
	enum col_kind kind;
	const char *title;
	int part;
};

#define C(m, w, k, t, p)                       \
	{                                      \
		PTK_M_DISK_##m, w, K_##k, t, p \
	}
static const struct io_col x_cols[] = {
	C(R_S, 7, NUM, NULL, 1),      C(RKB_S, 9, RATE, "r%s/s", 1), C(RRQM_S, 8, NUM, NULL, 1),
	C(RRQM_PCT, 6, PCT, NULL, 1), C(R_AWAIT, 7, NUM, NULL, 1),   C(RAREQ_SZ, 8, KB, NULL, 1),
	C(W_S, 7, NUM, NULL, 2),      C(WKB_S, 9, RATE, "w%s/s", 2), C(WRQM_S, 8, NUM, NULL, 2),
	C(WRQM_PCT, 6, PCT, NULL, 2), C(W_AWAIT, 7, NUM, NULL, 2),   C(WAREQ_SZ, 8, KB, NULL, 2),
	C(D_S, 7, NUM, NULL, 3),      C(DKB_S, 9, RATE, "d%s/s", 3), C(DRQM_S, 8, NUM, NULL, 3),
	C(DRQM_PCT, 6, PCT, NULL, 3), C(D_AWAIT, 7, NUM, NULL, 3),   C(DAREQ_SZ, 8, KB, NULL, 3),
	C(F_S, 7, NUM, NULL, 4),      C(F_AWAIT, 7, NUM, NULL, 4),   C(AQU_SZ, 7, NUM, NULL, 4),
	C(UTIL, 6, PCT, NULL, 4),
};
/* -x -o JSON: sysstat's order of the same */
static const enum ptk_mid x_json[] = {
	PTK_M_DISK_R_S,	     PTK_M_DISK_W_S,	  PTK_M_DISK_D_S,      PTK_M_DISK_F_S,
	PTK_M_DISK_RKB_S,    PTK_M_DISK_WKB_S,	  PTK_M_DISK_DKB_S,    PTK_M_DISK_RRQM_S,
	PTK_M_DISK_WRQM_S,   PTK_M_DISK_DRQM_S,	  PTK_M_DISK_RRQM_PCT, PTK_M_DISK_WRQM_PCT,
	PTK_M_DISK_DRQM_PCT, PTK_M_DISK_R_AWAIT,  PTK_M_DISK_W_AWAIT,  PTK_M_DISK_D_AWAIT,
	PTK_M_DISK_F_AWAIT,  PTK_M_DISK_RAREQ_SZ, PTK_M_DISK_WAREQ_SZ, PTK_M_DISK_DAREQ_SZ,
	PTK_M_DISK_AQU_SZ,   PTK_M_DISK_UTIL,
};
_Static_assert(ARRAY_SIZE(x_json) == ARRAY_SIZE(x_cols), "-x JSON: the text's columns");
static const struct io_col xs_cols[] = {
	C(TPS, 8, NUM, NULL, 0),   C(KB_S, 9, RATE, "%s/s", 0), C(RQM_S, 8, NUM, NULL, 0),
	C(AWAIT, 7, NUM, NULL, 0), C(AREQ_SZ, 8, KB, NULL, 0),	C(AQU_SZ, 7, NUM, NULL, 0),
	C(UTIL, 6, PCT, NULL, 0),
};
static const struct io_col b_cols[] = {
	C(TPS, 8, NUM, NULL, 0),
	C(RKB_S, 12, RATE, "%s_read/s", 0),
	C(WKB_S, 12, RATE, "%s_wrtn/s", 0),
	C(DKB_S, 12, RATE, "%s_dscd/s", 0),
	C(RSECT, 10, CNT, "%s_read", 0),
	C(WSECT, 10, CNT, "%s_wrtn", 0),
	C(DSECT, 10, CNT, "%s_dscd", 0),
};
static const struct io_col bs_cols[] = {
	C(TPS, 8, NUM, NULL, 0),
	C(RKB_S, 12, RATE, "%s_read/s", 0),
	C(WDKB_S, 12, RATE, "%s_w+d/s", 0),
	C(RSECT, 10, CNT, "%s_read", 0),
	C(WDSECT, 10, CNT, "%s_w+d", 0),
};
#undef C
#define MAX_COLS ((int)ARRAY_SIZE(x_cols))

/* avg-cpu: the cpu activity's entries, sysstat's keys in -o JSON */
static const struct {
	enum ptk_mid m;
	const char *json;
} cpu_cols[] = {
	{ PTK_M_CPU_USER, "user" },	{ PTK_M_CPU_NICE_ALL, "nice" },
	{ PTK_M_CPU_SYSTEM, "system" }, { PTK_M_CPU_IOWAIT, "iowait" },
	{ PTK_M_CPU_STEAL, "steal" },	{ PTK_M_CPU_IDLE, "idle" },
};
#define C_N ((int)ARRAY_SIZE(cpu_cols))

/* the units of the device report: sectors per unit */
static const struct io_unit {
	const char *name;
	double sect;
} u_kb = { "kB", 2 }, u_mb = { "MB", 2048 }, u_gb = { "GB", 2048.0 * 1024 }, u_blk = { "Blk", 1 },
  u_sec = { "sec", 1 };

static const char usage[] =
	"usage: ptk iostat [-c] [-d] [-h] [-k|-m|-G] [-N] [-s] [-t] [-V] [-x] [-y] [-z]\n"
	"                  [--compact] [--dec={0|1|2}] [--human] [--pretty] [-o JSON] [--json]\n"
	"                  [{-f|+f} DIR] [-j {ID|LABEL|PATH|UUID|...}] [[-H] -g GROUP]\n"
	"                  [-p [DEV[,...]|ALL]] [DEV...|ALL] [interval [count]]\n"
	"                  [--procfs DIR] [--sysfs DIR] [--devfs DIR]\n"
	"CPU and per-device I/O statistics, as sysstat iostat 12.7. The first report is since\n"
	"boot (-y skips it). -c/-d: CPU/device report only; -x: extended columns; -s: 80 columns;\n"
	"-k/-m/-G: kB, MB, GB (POSIXLY_CORRECT: 512-byte blocks); -p: partitions too (of the\n"
	"devices listed, or ALL from /proc/diskstats); ALL: unused devices too; -z: omit idle\n"
	"devices; -g: a group's totals after its devices (-H: the totals only); -N: device-mapper\n"
	"names; -j: persistent names (/dev/disk/by-TYPE); -f/+f DIR: statistics from DIR only\n"
	"/ also; -t: timestamps; --human, --pretty (-h: both), --compact, --dec: formatting;\n"
	"-o JSON: sysstat's JSON; --json: ptk's NDJSON. %util is busy time, not saturation, on\n"
	"NVMe/SSD/virtio: read aqu-sz and await.\n";

/* the environment -V prints, as sysstat's iostat */
static const char *const io_env[] = { "POSIXLY_CORRECT", "S_COLORS", "S_COLORS_SGR",
				      "S_TIME_FORMAT" };

/* ---- state ------------------------------------------------------------------------------ */

enum dev_type {
	T_DEV, /* a whole device */
	T_PART_DEV, /* a whole device and its partitions (-p DEV) */
	T_PART, /* a partition (or a name nothing has) */
	T_GROUP, /* -g NAME */
};

struct iodev {
	char name[64]; /* kernel name ("sda", "cciss/c0d0"); a group: " NAME" */
	char shown[256]; /* as printed (-N, -j) */
	enum dev_type tp;
	bool exist; /* read this sample */
	bool named; /* on the command line */
	bool had; /* prev holds the previous sample */
	int members; /* a group: devices summed this sample */
	struct ptk_disk cur, prev;
	/* where cur was read, for warnings: the sysfs tree's or -f's stat file under parent,
	 * or the /proc/diskstats line */
	enum { F_SYS, F_ALT, F_PROC, F_ALT_PROC } from;
	char parent[64]; /* a partition's whole device; "" otherwise */
	struct ptk_row row; /* this report's values */
	bool show; /* in this report */
};

/* a device of the command line, resolved once the roots are known */
struct arg_dev {
	const char *name;
	enum dev_type tp;
	bool persist; /* after -j: a persistent name */
};

struct io {
	bool cpu, disk, ext, short_out, pretty, human, compact, stamp, zero_omit, skip_first;
	bool everything; /* -p ALL: /proc/diskstats */
	bool all_devices; /* every device of /sys/block */
	bool unfiltered; /* devices named (or -p LIST, ALL): never-used ones too */
	bool group_only; /* -H */
	bool groups; /* -g given */
	bool devmap; /* -N */
	bool sjson; /* -o JSON */
	struct ptk_sjson js;
	const char *persist; /* -j TYPE (lower-case), or NULL */
	const char *alt; /* -f/+f DIR */
	bool alt_plus; /* +f */
	const char *devfs; /* --devfs, else /dev live (none on another root) */
	const struct io_unit *unit;
	struct arg_dev *args;
	int nargs;

	struct iodev *d;
	int n, cap;
	struct ptk_snap prev, cur; /* the CPU part (and /proc/diskstats for the fallback) */
	bool ds_read; /* cur.ds read this sample */
	bool sys_stats; /* the sysfs tree has the devices' stat files (else /proc/diskstats) */
	bool reboot; /* this report spans a boot: every value unknown */
	struct ptk_rows rows;
	struct ptk_sysenv env;
	struct ptk_sfmt fmt;
	char sysroot[PATH_MAX], altroot[PATH_MAX], devroot[PATH_MAX];
	bool alt_replay, dev_replay;
	long reports;
	const struct io_col *cols;
	int ncols;
	char titles[MAX_COLS][24];
	struct ptk_buf buf;
};

static struct iodev *dev_find(struct io *io, const char *name)
{
	for (int i = 0; i < io->n; i++)
		if (!strcmp(io->d[i].name, name))
			return &io->d[i];
	return NULL;
}

/* The root a sample reads dir from: dir itself, or dir/N when it holds numbered snapshots. */
static void sample_root(const struct ptk_ctx *ctx, const char *dir, bool replay, char *buf,
			size_t size)
{
	if (replay)
		snprintf(buf, size, "%s/%d", dir, ctx->src.snap);
	else
		snprintf(buf, size, "%s", dir);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool numbered(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/0", dir);
	return is_dir(p);
}

static void set_roots(struct ptk_ctx *ctx, struct io *io)
{
	size_t n;

	if (ptk_src_path(&ctx->src, PTK_SYS, "", io->sysroot, sizeof(io->sysroot)))
		io->sysroot[0] = '\0';
	n = strlen(io->sysroot);
	while (n > 1 && io->sysroot[n - 1] == '/')
		io->sysroot[--n] = '\0';
	if (io->alt)
		sample_root(ctx, io->alt, io->alt_replay, io->altroot, sizeof(io->altroot));
	if (io->devfs)
		sample_root(ctx, io->devfs, io->dev_replay, io->devroot, sizeof(io->devroot));
	else
		io->devroot[0] = '\0';
}

/* sysstat's is_device(): a whole device of /sys/block, or of -f's DIR/block */
static bool whole_device(const struct io *io, const char *name)
{
	bool rc = false;

	if (!io->alt || io->alt_plus)
		rc = ptk_sysblock_is_device(io->sysroot, name);
	if (io->alt && !rc)
		rc = ptk_sysblock_is_device(io->altroot, name);
	return rc;
}

/* The name a device is printed with: -N's device-mapper name, -j's persistent name, else
 * the kernel's. */
static void shown_name(const struct io *io, struct iodev *d)
{
	char buf[256];

	snprintf(d->shown, sizeof(d->shown), "%s", d->name);
	if (d->tp == T_GROUP)
		return;
	if (io->devmap && ptk_dm_name(io->sysroot, io->devroot, d->name, buf, sizeof(buf)) == 0)
		snprintf(d->shown, sizeof(d->shown), "%s", buf);
	else if (io->persist &&
		 ptk_persist_name(io->devroot, io->persist, d->name, buf, sizeof(buf)) == 0)
		snprintf(d->shown, sizeof(d->shown), "%s", buf);
}

/*
 * sysstat's add_list_device(): the device of that name, added when new, sorted by name when
 * the list is neither grouped nor read from /proc/diskstats, else at the end. tp: T_PART_DEV
 * (-p DEV), T_GROUP, or T_DEV to let sysfs say whether it is a whole device.
 */
static struct iodev *dev_add(struct io *io, const char *name, enum dev_type tp)
{
	struct iodev *d = dev_find(io, name);
	int at = io->n;

	if (d) {
		if (tp == T_PART_DEV && d->tp == T_DEV)
			d->tp = T_PART_DEV;
		d->exist = true;
		return d;
	}
	if (strlen(name) >= sizeof(d->name))
		return NULL;
	if (!io->groups && !io->everything)
		for (at = 0; at < io->n && strcmp(io->d[at].name, name) < 0; at++)
			;
	if (io->n == io->cap) {
		io->cap = io->cap ? io->cap * 2 : 32;
		io->d = xrealloc(io->d, io->cap * sizeof(*io->d));
	}
	memmove(&io->d[at + 1], &io->d[at], (io->n - at) * sizeof(*io->d));
	io->n++;
	d = &io->d[at];
	memset(d, 0, sizeof(*d));
	memcpy(d->name, name, strlen(name) + 1);
	d->exist = true;
	if (tp == T_GROUP)
		d->tp = T_GROUP;
	else if (whole_device(io, name))
		d->tp = tp == T_PART_DEV ? T_PART_DEV : T_DEV;
	else
		d->tp = T_PART;
	shown_name(io, d);
	return d;
}

/* ---- reading a sample --------------------------------------------------------------- */

/* The /proc/diskstats line of name, read once per sample (the fallback of a tree without
 * the sysfs stat files). */
static const struct ptk_disk *ds_line(struct ptk_ctx *ctx, struct io *io, const char *name)
{
	if (!io->ds_read) {
		io->ds_read = true;
		if (ptk_diskstats_read(&ctx->src, &io->cur.ds))
			io->cur.ds.n = 0;
	}
	return ptk_diskstats_find(&io->cur.ds, name);
}

static void dev_set(struct iodev *d, const struct ptk_disk *k, int from, const char *parent)
{
	d->cur = *k;
	d->exist = true;
	d->from = from;
	snprintf(d->parent, sizeof(d->parent), "%s", parent ? parent : "");
}

/* Does any whole device of the tree have its stat file? A tree captured without them (an
 * older ptk capture) is read from /proc/diskstats instead. */
static bool sys_stats(const char *root)
{
	char **v;
	int n = ptk_sysblock_devices(root, &v);
	bool any = false;

	for (int i = 0; i < n && !any; i++) {
		char p[PATH_MAX];
		struct stat st;
		snprintf(p, sizeof(p), "%.*s/block/%s/stat", PATH_MAX - 320, root, v[i]);
		any = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	}
	if (n > 0)
		ptk_names_free(v, n);
	return any;
}

/* Read root/block/DEV[/PART]/stat into the list (adding it); 0 or -errno. */
static int read_stat(struct io *io, const char *root, const char *dev, const char *part)
{
	struct ptk_disk k;
	struct iodev *d;
	int r = ptk_sysblock_stat(root, dev, part, &k);

	if (r == -EINVAL)
		ptk_warn("%s/block/%s%s%s/stat: no statistics there (not 4, or 11 to 17, "
			 "numbers): %s left out",
			 root, dev, part ? "/" : "", part ? part : "", part ? part : dev);
	if (r)
		return r;
	if (!(d = dev_add(io, k.name, T_DEV)))
		return -ENAMETOOLONG;
	dev_set(d, &k, root == io->altroot ? F_ALT : F_SYS, part ? dev : NULL);
	return 0;
}

/* The file d's counters came from (warnings). */
static void file_of(struct ptk_ctx *ctx, const struct io *io, const struct iodev *d, char *buf,
		    size_t size)
{
	char e[256], p[256];
	const char *root = d->from == F_ALT || d->from == F_ALT_PROC ? io->altroot : io->sysroot;

	if (d->from == F_PROC) {
		if (ptk_src_path(&ctx->src, PTK_PROC, "diskstats", buf, size))
			snprintf(buf, size, "diskstats");
		return;
	}
	if (d->from == F_ALT_PROC) {
		snprintf(buf, size, "%.*s/diskstats", (int)(size - 16), root);
		return;
	}
	snprintf(e, sizeof(e), "%s", d->name);
	snprintf(p, sizeof(p), "%s", d->parent);
	for (char *c = e; *c; c++)
		*c = *c == '/' ? '!' : *c;
	for (char *c = p; *c; c++)
		*c = *c == '/' ? '!' : *c;
	snprintf(buf, size, "%.*s/block/%s%s%s/stat", (int)(size / 2), root, p, *p ? "/" : "", e);
}

/* A whole device: its stat file in sysfs, or under -f's DIR (+f: when sysfs has none);
 * in a tree without the stat files, its /proc/diskstats line. */
static int read_whole(struct ptk_ctx *ctx, struct io *io, const char *dev)
{
	int r = -ENOENT;

	if (!io->alt || io->alt_plus)
		r = read_stat(io, io->sysroot, dev, NULL);
	if (io->alt && r)
		r = read_stat(io, io->altroot, dev, NULL);
	if (r && !io->sys_stats && (!io->alt || io->alt_plus)) {
		const struct ptk_disk *k = ds_line(ctx, io, dev);
		struct iodev *d;
		if (k && !k->is_partition && (d = dev_add(io, dev, T_DEV))) {
			dev_set(d, k, F_PROC, NULL);
			r = 0;
		}
	}
	return r;
}

/* name is a partition of dev by the kernel's naming rule: dev + N, or dev + pN when dev
 * ends in a digit (block/partitions/core.c) */
static bool part_of(const char *name, const char *dev)
{
	size_t n = strlen(dev);
	const char *p = name + n;

	if (!n || strncmp(name, dev, n))
		return false;
	if (dev[n - 1] >= '0' && dev[n - 1] <= '9' && *p++ != 'p')
		return false;
	if (!*p)
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p;
}

/* The partitions of dev (-p DEV): the entries of its sysfs directory, or -f's; else the
 * /proc/diskstats lines of its partitions. */
static void read_partitions(struct ptk_ctx *ctx, struct io *io, const char *dev)
{
	const char *roots[2] = { NULL, NULL };
	char **v;
	int n = -ENOENT;

	if (!io->alt || io->alt_plus)
		roots[0] = io->sysroot;
	if (io->alt)
		roots[1] = io->altroot;
	for (int k = 0; k < 2 && n < 0; k++) {
		if (!roots[k] || (k == 1 && !io->alt_plus && roots[0]))
			continue;
		n = ptk_sysblock_partitions(roots[k], dev, &v);
		if (n < 0)
			continue;
		for (int i = 0; i < n; i++)
			read_stat(io, roots[k], dev, v[i]);
		ptk_names_free(v, n);
		if (n == 0 && k == 0 && !io->sys_stats) {
			/* a tree without the stat files: /proc/diskstats */
			ds_line(ctx, io, dev);
			for (int i = 0; i < io->cur.ds.n; i++) {
				const struct ptk_disk *p = &io->cur.ds.d[i];
				struct iodev *d;
				if (p->is_partition && part_of(p->name, dev) &&
				    (d = dev_add(io, p->name, T_PART)))
					dev_set(d, p, F_PROC, NULL);
			}
		}
	}
}

/* A named partition: its stat file under the whole device that holds it in sysfs (the
 * device's /sys/dev/block/MAJ:MIN/stat), or under -f's DIR; in a tree without the stat
 * files, its /proc/diskstats line. */
static int read_part(struct ptk_ctx *ctx, struct io *io, struct iodev *d)
{
	char parent[64];
	int r = -ENOENT;

	if ((!io->alt || io->alt_plus) &&
	    ptk_sysblock_parent(io->sysroot, d->name, parent, sizeof(parent)) == 0)
		r = read_stat(io, io->sysroot, parent, d->name);
	if (io->alt && r && ptk_sysblock_parent(io->altroot, d->name, parent, sizeof(parent)) == 0)
		r = read_stat(io, io->altroot, parent, d->name);
	if (r && !io->sys_stats && (!io->alt || io->alt_plus)) {
		const struct ptk_disk *k = ds_line(ctx, io, d->name);
		if (k && k->is_partition) {
			dev_set(d, k, F_PROC, NULL);
			r = 0;
		}
	}
	return r;
}

/* Every whole device of a sysfs tree (ALL, or no device named). */
static int read_all(struct ptk_ctx *ctx, struct io *io, const char *root, bool fallback)
{
	char **v;
	int n = ptk_sysblock_devices(root, &v);

	if (fallback && (n < 0 || !io->sys_stats)) {
		if (n > 0)
			ptk_names_free(v, n);
		/* no sysfs at all: the whole devices of /proc/diskstats */
		ds_line(ctx, io, "");
		for (int i = 0; i < io->cur.ds.n; i++)
			if (!io->cur.ds.d[i].is_partition)
				read_whole(ctx, io, io->cur.ds.d[i].name);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		char name[256];
		snprintf(name, sizeof(name), "%s", v[i]);
		ptk_sysblock_name(name);
		read_stat(io, root, name, NULL);
	}
	if (n > 0)
		ptk_names_free(v, n);
	return n < 0 ? n : 0;
}

/* -p ALL: the lines of /proc/diskstats (and -f's DIR/diskstats), in their order. */
static int read_diskstats(struct ptk_ctx *ctx, struct io *io, const char *path, int from)
{
	struct ptk_diskstats ds = { 0 };
	ssize_t n = ptk_read_buf_at(AT_FDCWD, path, &io->buf);

	if (n < 0)
		return n;
	ptk_diskstats_parse_all(io->buf.p, &ds);
	for (int i = 0; i < ds.n; i++) {
		struct iodev *d = dev_add(io, ds.d[i].name, T_DEV);
		if (d)
			dev_set(d, &ds.d[i], from, NULL);
	}
	ptk_diskstats_free(&ds);
	return 0;
}

static int read_disks(struct ptk_ctx *ctx, struct io *io)
{
	char path[PATH_MAX];

	for (int i = 0; i < io->n; i++) {
		struct iodev *d = &io->d[i];
		d->had = d->exist;
		if (d->exist)
			d->prev = d->cur;
		d->exist = false;
	}
	io->ds_read = false;
	set_roots(ctx, io);
	io->sys_stats = ptk_src_is_live(&ctx->src) || sys_stats(io->sysroot);
	if (io->everything) {
		int r = -ENOENT;
		if (!io->alt || io->alt_plus) {
			ptk_src_path(&ctx->src, PTK_PROC, "diskstats", path, sizeof(path));
			r = read_diskstats(ctx, io, path, F_PROC);
		}
		if (io->alt) {
			snprintf(path, sizeof(path), "%.*s/diskstats", PATH_MAX - 16, io->altroot);
			if (read_diskstats(ctx, io, path, F_ALT_PROC) == 0)
				r = 0;
		}
		return r;
	}
	for (int i = 0; i < io->n; i++) {
		struct iodev *d = &io->d[i];
		char name[64];
		if (d->exist || d->tp == T_GROUP)
			continue;
		memcpy(name, d->name, sizeof(name));
		if (d->tp == T_PART) {
			read_part(ctx, io, d);
			continue;
		}
		bool parts = d->tp == T_PART_DEV;
		read_whole(ctx, io, name);
		if (parts)
			read_partitions(ctx, io, name);
	}
	if (io->all_devices) {
		if (!io->alt || io->alt_plus)
			read_all(ctx, io, io->sysroot, true);
		if (io->alt)
			read_all(ctx, io, io->altroot, false);
	}
	return 0;
}

/* ---- computing a report --------------------------------------------------------------- */

static u64 ios(const struct ptk_disk *k)
{
	return k->f[PTK_DK_RD_IOS] + k->f[PTK_DK_WR_IOS] + k->f[PTK_DK_DC_IOS] +
	       k->f[PTK_DK_FL_IOS];
}

static bool same_ios(const struct ptk_disk *a, const struct ptk_disk *b)
{
	static const int f[] = { PTK_DK_RD_IOS, PTK_DK_WR_IOS, PTK_DK_DC_IOS, PTK_DK_FL_IOS };

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (a->f[f[i]] != b->f[f[i]])
			return false;
	return true;
}

/* Name the fields that made values unknown. */
static void warn_bad(struct ptk_ctx *ctx, const struct io *io, const struct iodev *d,
		     const struct ptk_disk *base, unsigned bad, double itv)
{
	char file[PATH_MAX];

	file_of(ctx, io, d, file, sizeof(file));
	for (int f = 0; f < PTK_DK_NFIELDS; f++) {
		const char *k = ptk_disk_fields[f].key;
		if (!(bad & (1u << f)))
			continue;
		if (d->tp == T_GROUP)
			ptk_warn("group%s: the sum of its devices' %s went back: its values are "
				 "unknown this interval",
				 d->name, k);
		else if (d->cur.bad & (1u << f))
			ptk_warn("%s: %s: field %s is not a number (or too large): its values are "
				 "unknown",
				 file, d->name, k);
		else if (base && base->bad & (1u << f))
			continue; /* said when the previous sample was read */
		else if (f == PTK_DK_IO_TICKS && (!base || d->cur.f[f] >= base->f[f]))
			ptk_warn("%s: %s: io_ticks grew by %llu ms in %.2f s: %%util unknown "
				 "this interval",
				 file, d->name,
				 (unsigned long long)(d->cur.f[f] - (base ? base->f[f] : 0)), itv);
		else
			ptk_warn("%s: %s: %s went back from %llu to %llu while the device's other "
				 "counters did not (it was not recreated): the values from it are "
				 "unknown this interval",
				 file, d->name, k, base ? (unsigned long long)base->f[f] : 0ull,
				 (unsigned long long)d->cur.f[f]);
	}
}

static void dev_row(struct ptk_ctx *ctx, struct io *io, struct iodev *d, bool since_boot,
		    double itv, bool absent0)
{
	const struct ptk_disk *base = since_boot || !d->had ? NULL : &d->prev;
	unsigned bad;

	if (io->reboot) {
		for (int i = 0; i < PTK_ROW_MAXCOLS; i++)
			d->row.v[i] = PTK_NA;
		return;
	}
	bad = ptk_act_disk_row(&d->row, base, &d->cur, itv, d->tp == T_GROUP ? d->members : 1,
			       absent0);
	if (!io->ext) /* the basic report shows requests and sectors only */
		bad &= (1u << PTK_DK_RD_IOS) | (1u << PTK_DK_WR_IOS) | (1u << PTK_DK_DC_IOS) |
		       (1u << PTK_DK_RD_SECTORS) | (1u << PTK_DK_WR_SECTORS) |
		       (1u << PTK_DK_DC_SECTORS);
	if (bad)
		warn_bad(ctx, io, d, base, bad, itv);
}

/* Whether d is printed: sysstat's write_stats filters. */
static bool dev_shown(const struct io *io, const struct iodev *d, bool since_boot)
{
	static const struct ptk_disk zero;
	const struct ptk_disk *base = since_boot || !d->had ? &zero : &d->prev;

	if (!io->unfiltered && !ios(&d->cur))
		return false; /* never used */
	if (io->zero_omit && same_ios(&d->cur, base))
		return false; /* no activity this interval */
	if (io->ext && d->cur.nfields == 4)
		return false; /* an old partition line has no extended counters */
	return true;
}

/* The groups' sums and every row of the report, with what is shown. */
static void compute(struct ptk_ctx *ctx, struct io *io, bool since_boot, double itv, bool absent0)
{
	struct iodev *g = NULL;

	for (int i = 0; i < io->n; i++) {
		struct iodev *d = &io->d[i];
		d->show = false;
		if (d->tp == T_GROUP) {
			memset(&d->cur, 0, sizeof(d->cur));
			d->cur.nfields = PTK_DK_NFIELDS;
			d->members = 0;
			d->exist = true;
			g = d;
			continue;
		}
		if (!d->exist)
			continue;
		if (g) {
			g->members++;
			if (io->unfiltered || ios(&d->cur))
				ptk_disk_sum(&g->cur, &d->cur, false);
		}
		if (io->group_only && g)
			continue;
		d->show = dev_shown(io, d, since_boot);
		if (d->show)
			dev_row(ctx, io, d, since_boot, itv, absent0);
	}
	for (int i = 0; i < io->n; i++) {
		struct iodev *d = &io->d[i];
		if (d->tp != T_GROUP)
			continue;
		d->show = dev_shown(io, d, since_boot);
		if (d->show)
			dev_row(ctx, io, d, since_boot, itv, absent0);
	}
}

/* The order devices and groups are printed in: a group after its devices. */
static int print_order(const struct io *io, int *order)
{
	int n = 0, g = -1;

	for (int i = 0; i < io->n; i++) {
		if (io->d[i].tp == T_GROUP) {
			if (g >= 0)
				order[n++] = g;
			g = i;
		} else {
			order[n++] = i;
		}
	}
	if (g >= 0)
		order[n++] = g;
	return n;
}

/* ---- text, as sysstat prints it ---------------------------------------------------------- */

static const struct ptk_val *val(const struct iodev *d, enum ptk_mid m)
{
	static const struct ptk_val na = { .na = true };
	int i = ptk_act_col(&ptk_activities[PTK_ACT_DISK], m);

	return i < 0 ? &na : &d->row.v[i];
}

/* The value of column c in the report's unit: sectors to it, or kB; human (--human in text):
 * kB. */
static struct ptk_val in_unit(const struct io *io, const struct io_col *c, const struct ptk_val *v,
			      struct ptk_metric *m, bool human)
{
	struct ptk_val x = *v;

	*m = ptk_registry[c->m];
	if (x.na)
		return x;
	if (c->kind == K_RATE) { /* kB/s from the activity */
		x.f = human ? v->f : v->f * 2 / io->unit->sect;
	} else if (c->kind == K_CNT) { /* sectors */
		if (human) {
			m->type = PTK_V_F64;
			x.f = v->u / 2.0;
		} else {
			x.u = (u64)(v->u / io->unit->sect);
		}
	}
	return x;
}

static void text_cell(struct io *io, const struct io_col *c, const struct iodev *d)
{
	struct ptk_metric m;
	struct ptk_val x = in_unit(io, c, val(d, c->m), &m, io->human);
	enum ptk_scell kind = c->kind == K_PCT ? PTK_SC_PCT : PTK_SC_VAL;
	char human = c->kind == K_RATE || c->kind == K_CNT || c->kind == K_KB ? 'k' : 0;

	ptk_scell(&io->fmt, kind, &m, c->width, human, &x);
}

static void text_header(struct io *io, int part)
{
	if (!io->pretty)
		printf("%-13s", "Device");
	for (int i = 0; i < io->ncols; i++)
		if (!part || io->cols[i].part == part)
			printf(" %*s", io->cols[i].width, io->titles[i]);
	if (io->pretty)
		printf(" Device");
	putchar('\n');
}

static void text_row(struct io *io, const struct iodev *d, int part)
{
	if (!io->pretty) {
		char name[300];
		snprintf(name, sizeof(name), "%-13s", d->shown);
		ptk_sstr(&io->fmt, PTK_SGR_ITEM, "", name, "");
	}
	for (int i = 0; i < io->ncols; i++)
		if (!part || io->cols[i].part == part)
			text_cell(io, &io->cols[i], d);
	if (io->pretty)
		ptk_sstr(&io->fmt, PTK_SGR_ITEM, " ", d->shown, "");
	putchar('\n');
}

static void text_cpu(struct io *io, const struct ptk_row *r)
{
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_CPU];

	printf("avg-cpu:  %%user   %%nice %%system %%iowait  %%steal   %%idle\n       ");
	for (int i = 0; i < C_N; i++) {
		const struct ptk_metric *m = &ptk_registry[cpu_cols[i].m];
		ptk_scell(&io->fmt, PTK_SC_PCT, m, 7, 0, &r->v[ptk_act_col(act, cpu_cols[i].m)]);
	}
	printf("\n\n");
}

/* The %util note: a non-rotational device near 100 % is not saturated. */
#define LIE_UTIL_PCT 90.0
static void util_note(struct ptk_ctx *ctx, struct io *io, const int *order, int n,
		      struct json_object *notes)
{
	char lie[512] = "", note[768];
	size_t len = 0;

	if (!io->ext)
		return;
	for (int k = 0; k < n; k++) {
		const struct iodev *d = &io->d[order[k]];
		const struct ptk_val *u = val(d, PTK_M_DISK_UTIL);
		if (!d->show || d->tp == T_GROUP || u->na || u->f < LIE_UTIL_PCT ||
		    ptk_disk_rotational_read(&ctx->src, d->name) != 0 ||
		    len + strlen(d->shown) + 2 >= sizeof(lie))
			continue;
		len += snprintf(lie + len, sizeof(lie) - len, "%s%s", len ? ", " : "", d->shown);
	}
	if (!len)
		return;
	snprintf(note, sizeof(note),
		 "note: %%util >= %.0f on %s (non-rotational) is not saturation: devices serving "
		 "requests in parallel (NVMe/SSD/virtio) can do more at 100%%; read aqu-sz and "
		 "r_await/w_await",
		 LIE_UTIL_PCT, lie);
	if (notes)
		json_object_array_add(notes, json_object_new_string(note));
	else
		printf("%s\n", note);
}

static void stamp(struct ptk_ctx *ctx, const struct io *io, char *buf, size_t size)
{
	time_t t = (time_t)ptk_ctx_walltime(ctx);
	struct tm tm;

	buf[0] = '\0';
	if (!localtime_r(&t, &tm))
		return;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-y2k"
	strftime(buf, size, io->env.iso ? "%FT%T%z" : "%x %X", &tm);
#pragma GCC diagnostic pop
}

static void text_report(struct ptk_ctx *ctx, struct io *io, const struct ptk_row *cpu,
			const int *order, int n)
{
	char ts[64];

	if (io->stamp) {
		stamp(ctx, io, ts, sizeof(ts));
		printf("%s\n", ts);
	}
	if (io->cpu)
		text_cpu(io, cpu);
	if (io->disk) {
		/* -x --pretty: four parts, each with the device name at its end */
		int parts = io->pretty && io->ext && !io->short_out && !io->compact ? 4 : 0;
		for (int part = parts ? 1 : 0; part <= parts; part++) {
			text_header(io, part);
			for (int k = 0; k < n; k++)
				if (io->d[order[k]].show)
					text_row(io, &io->d[order[k]], part);
			if (part && part < parts)
				putchar('\n');
		}
		util_note(ctx, io, order, n, NULL);
	}
	printf("\n\n");
}

/* ---- -o JSON, sysstat's layout (output/sysstat.h) ------------------------------------- */

/* A value as sysstat's JSON has it under key: "%.2f", an integer, or null. */
static void sjson_num(struct io *io, const char *key, struct ptk_metric m, const struct ptk_val *v)
{
	m.sjson = key;
	if (m.type == PTK_V_F64)
		m.prec = 2;
	ptk_sjson_val(&io->js, &m, v);
}

static void sjson_dev(struct io *io, const struct iodev *d)
{
	/* -x: sysstat's JSON order, not its text order */
	bool reorder = io->ext && !io->short_out;

	ptk_sjson_row_begin(&io->js);
	ptk_sjson_str(&io->js, "disk_device", d->shown);
	for (int k = 0; k < io->ncols; k++) {
		int i = 0;
		struct ptk_metric m;
		if (reorder)
			while (i < io->ncols - 1 && io->cols[i].m != x_json[k])
				i++;
		else
			i = k;
		struct ptk_val x = in_unit(io, &io->cols[i], val(d, io->cols[i].m), &m, false);
		const char *t = io->titles[i];
		sjson_num(io, t[0] == '%' ? t + 1 : t, m, &x);
	}
	ptk_sjson_row_end(&io->js);
}

static void sjson_report(struct ptk_ctx *ctx, struct io *io, const struct ptk_row *cpu,
			 const int *order, int n)
{
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_CPU];
	char ts[64];

	if (io->stamp)
		stamp(ctx, io, ts, sizeof(ts));
	ptk_sjson_stat(&io->js, io->stamp ? ts : NULL);
	if (io->cpu) {
		ptk_sjson_object(&io->js, "avg-cpu");
		for (int i = 0; i < C_N; i++)
			sjson_num(io, cpu_cols[i].json, ptk_registry[cpu_cols[i].m],
				  &cpu->v[ptk_act_col(act, cpu_cols[i].m)]);
		ptk_sjson_row_end(&io->js);
	}
	if (io->disk) {
		ptk_sjson_section(&io->js, "disk");
		for (int k = 0; k < n; k++)
			if (io->d[order[k]].show)
				sjson_dev(io, &io->d[order[k]]);
	}
	fflush(stdout);
}

static void sjson_begin(struct ptk_ctx *ctx, struct io *io, int ncpu)
{
	struct ptk_host h;
	char date[64];

	ptk_ctx_host(ctx, &h);
	ptk_sysstat_date(&io->env, (time_t)ptk_ctx_walltime(ctx), date, sizeof(date));
	io->js.dec = -1;
	ptk_sjson_begin(&io->js, stdout, &h, ncpu, date);
}

/* ---- --json: ptk's NDJSON ---------------------------------------------------------------- */

/* --json: the counts of the interval in kB (kb_read ...), as the text's default unit */
static enum ptk_mid json_mid(enum ptk_mid m)
{
	return m == PTK_M_DISK_RSECT ? PTK_M_DISK_RKB :
	       m == PTK_M_DISK_WSECT ? PTK_M_DISK_WKB :
	       m == PTK_M_DISK_DSECT ? PTK_M_DISK_DKB :
				       m;
}

static void ptk_json_report(struct ptk_ctx *ctx, struct io *io, const struct ptk_row *cpu,
			    const int *order, int n, bool since_boot, double itv)
{
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_CPU];
	struct ptk_sink *s = &ctx->sink;
	struct ptk_metric cols[1 + MAX_COLS], ccols[C_N];
	struct ptk_val v[1 + MAX_COLS], cv[C_N];
	struct ptk_table tab = { "devices", cols, 1 + io->ncols };

	ptk_sink_begin(s);
	ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_f64(s, "interval_s", itv);
	ptk_sink_meta_bool(s, "since_boot", since_boot);
	if (io->cpu) {
		struct ptk_table ct = { "avg_cpu", ccols, C_N };
		for (int i = 0; i < C_N; i++) {
			ccols[i] = ptk_registry[cpu_cols[i].m];
			cv[i] = cpu->v[ptk_act_col(act, cpu_cols[i].m)];
		}
		ptk_sink_meta_json(s, "avg_cpu", ptk_json_row(&ct, cv));
	}
	if (io->disk) {
		cols[0] = ptk_registry[PTK_M_DISK_DEV];
		for (int i = 0; i < io->ncols; i++)
			cols[1 + i] = ptk_registry[json_mid(io->cols[i].m)];
		ptk_sink_table_begin(s, &tab, false, NULL);
		for (int k = 0; k < n; k++) {
			const struct iodev *d = &io->d[order[k]];
			if (!d->show)
				continue;
			v[0] = PTK_S(d->tp == T_GROUP ? d->shown + 1 : d->shown);
			for (int i = 0; i < io->ncols; i++)
				v[1 + i] = *val(d, json_mid(io->cols[i].m));
			ptk_sink_row(s, NULL, v);
		}
		ptk_sink_table_end(s);
		struct json_object *notes = json_object_new_array();
		util_note(ctx, io, order, n, notes);
		if (json_object_array_length(notes))
			ptk_sink_meta_json(s, "notes", notes);
		else
			json_object_put(notes);
	}
	ptk_sink_end(s);
}

/* ---- the loop ----------------------------------------------------------------------------- */

/*
 * sysstat's avg-cpu when the aggregate cpu line's total went back (CPUs coming back online
 * restart their idle ticks): its interval is the wrapped unsigned difference, so every
 * share is 0.00 (a state that went back counts 0, the others divide by about 2^64). The
 * text and -o JSON layouts show that, with a warning; --json keeps the cpu activity's row.
 */
static void cpu_went_back(struct ptk_ctx *ctx, struct io *io, struct ptk_row *cpu)
{
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_CPU];
	u64 a = ptk_cpu_total(&io->prev.st.all), b = ptk_cpu_total(&io->cur.st.all);

	if (b >= a || !ptk_snap_has(&io->prev, PTK_SNAP_STAT) ||
	    !ptk_snap_has(&io->cur, PTK_SNAP_STAT))
		return;
	char path[PATH_MAX];
	if (ptk_src_path(&ctx->src, PTK_PROC, "stat", path, sizeof(path)))
		snprintf(path, sizeof(path), "stat");
	ptk_warn("%s: the cpu line's total went back from %llu to %llu ticks: avg-cpu is "
		 "0.00, as sysstat's unsigned interval makes it",
		 path, (unsigned long long)a, (unsigned long long)b);
	for (int i = 0; i < C_N; i++)
		cpu->v[ptk_act_col(act, cpu_cols[i].m)] = PTK_F(0.0);
}

static void report(struct ptk_ctx *ctx, struct io *io, bool since_boot, double itv)
{
	const struct ptk_activity *act = &ptk_activities[PTK_ACT_CPU];
	int *order = xcalloc(io->n + 1, sizeof(int)), n;
	struct ptk_row cpu;

	io->rows.n = 0;
	if (!io->reboot)
		act->rows(since_boot ? NULL : &io->prev, &io->cur, itv, NULL, &io->rows);
	if (io->rows.n)
		cpu = io->rows.r[0];
	else
		cpu = *ptk_rows_add(&io->rows, "all"); /* every value na */
	if (io->cpu && !since_boot && !ctx->json)
		cpu_went_back(ctx, io, &cpu);
	if (io->disk)
		compute(ctx, io, since_boot, itv, !ctx->json);
	n = print_order(io, order);
	if (ctx->json)
		ptk_json_report(ctx, io, &cpu, order, n, since_boot, itv);
	else if (io->sjson)
		sjson_report(ctx, io, &cpu, order, n);
	else
		text_report(ctx, io, &cpu, order, n);
	io->reports++;
	free(order);
}

static int read_sample(struct ptk_ctx *ctx, struct io *io)
{
	int r = ptk_snap_read(&ctx->src, &io->cur, 0);

	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, io->cur.err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (io->disk && (r = read_disks(ctx, io)) && io->everything) {
		ptk_err("cannot read %s/diskstats: %s",
			io->alt && !io->alt_plus ? io->altroot : ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

static int io_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct io *io = arg;
	struct ptk_snap t;
	int r = read_sample(ctx, io);

	if (r)
		return r;
	for (int k = 0; i == 0 && k < io->n; k++) {
		const char *in = io->everything ? "diskstats" : "block";
		if (io->d[k].named && !io->d[k].exist)
			ptk_warn("no block device %s (in %s/%s%s%s%s%s)", io->d[k].name,
				 io->everything ? ctx->src.procfs : io->sysroot, in,
				 io->alt ? " or " : "", io->alt ? io->altroot : "",
				 io->alt ? "/" : "", io->alt ? in : "");
	}
	if (i > 0 && io->cur.up.up_s < io->prev.up.up_s) {
		/* the uptime went back: a boot in between (another machine's tree): how long
		 * the interval was and what the counters did in it are unknown */
		ptk_warn("%s/uptime: %.2f s, below the previous sample's %.2f s: the machine "
			 "booted in between; this interval's values are unknown",
			 ctx->src.procfs, io->cur.up.up_s, io->prev.up.up_s);
		io->reboot = true;
		report(ctx, io, false, itv);
		io->reboot = false;
	} else if (i > 0)
		report(ctx, io, false, itv);
	else if (!io->skip_first)
		report(ctx, io, true, io->cur.up.up_s);
	else
		compute(ctx, io, true, io->cur.up.up_s, !ctx->json); /* the groups' first sums */
	t = io->prev;
	io->prev = io->cur;
	io->cur = t;
	return 0;
}

/* iostat's CPU count (sysstat's get_cpu_nr): the cpuN entries of /sys/devices/system/cpu,
 * else the cpuN lines of /proc/stat. */
static int cpu_count(struct ptk_ctx *ctx, const struct ptk_stat *st)
{
	char path[PATH_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (ptk_src_path(&ctx->src, PTK_SYS, "devices/system/cpu", path, sizeof(path)) ||
	    !(d = opendir(path)))
		return st->ncpu;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "cpu", 3) && e->d_name[3] && ptk_is_digits(e->d_name + 3))
			n++;
	closedir(d);
	return n ? n : st->ncpu;
}

/* ---- options -------------------------------------------------------------------------------- */

static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789.") == strlen(s) && strchr(s, '.') == strrchr(s, '.');
}

static void arg_add(struct io *io, const char *name, enum dev_type tp)
{
	io->args = xrealloc(io->args, (io->nargs + 1) * sizeof(*io->args));
	io->args[io->nargs++] = (struct arg_dev){ name, tp, io->persist != NULL };
}

/* A device of the command line as a kernel name: "/dev/NAME" (a link there: what it links
 * to), a persistent name after -j, a device-mapper name; else as given. */
static void arg_name(const struct io *io, const struct arg_dev *a, char *buf, size_t size)
{
	const char *s = a->name;
	char t[256];

	if (!strncmp(s, "/dev/", 5)) {
		s += 5;
		if (ptk_dev_link(io->devroot, s, t, sizeof(t)) == 0) {
			snprintf(buf, size, "%s", t);
			return;
		}
	}
	snprintf(buf, size, "%s", s);
	if (a->persist && io->persist) {
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "disk/by-%s/%s", io->persist, s);
		if (!strchr(s, '/') && ptk_dev_link(io->devroot, rel, t, sizeof(t)) == 0) {
			snprintf(buf, size, "%s", t);
			return;
		}
	}
	if (!ptk_sysblock_is_device(io->sysroot, buf) && !strchr(s, '/')) {
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "mapper/%s", s);
		if (ptk_dev_link(io->devroot, rel, t, sizeof(t)) == 0)
			snprintf(buf, size, "%s", t);
	}
}

/* "--name=value" or "--name value": the value, or NULL */
static const char *long_arg(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

enum { OPT_OK = 0, OPT_EXIT = -1 };

/* Parse sysstat's command line. Returns OPT_OK, OPT_EXIT (-V, --help: rc set) or rc. */
static int parse(struct ptk_ctx *ctx, struct io *io, int argc, char **argv, double *interval,
		 long *count, bool *has_itv, int *rc)
{
	bool report_set = false;
	int nnum = 0;
	char *persist_type = NULL;
	char *nums[2];

	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		const char *v;

		if (!strcmp(a, "-p")) {
			if (i + 1 < argc && !ptk_is_digits(argv[i + 1]) && argv[i + 1][0] != '-' &&
			    !is_number(argv[i + 1])) {
				char *save = NULL;
				io->unfiltered = true;
				for (char *t = strtok_r(argv[++i], ",", &save); t;
				     t = strtok_r(NULL, ",", &save)) {
					if (!strcmp(t, "ALL"))
						io->everything = true;
					else
						arg_add(io, t, T_PART_DEV);
				}
			} else {
				io->everything = true;
			}
		} else if (!strcmp(a, "-g")) {
			if (i + 1 >= argc)
				return ptk_usage_error(ctx, "option '-g' needs a group name");
			char *g = xmalloc(strlen(argv[i + 1]) + 2);
			sprintf(g, " %s", argv[++i]);
			if (strlen(g) >= sizeof(((struct iodev *)0)->name))
				g[sizeof(((struct iodev *)0)->name) - 1] = '\0';
			io->groups = true;
			arg_add(io, g, T_GROUP);
		} else if (!strcmp(a, "--human")) {
			io->human = true;
		} else if (!strcmp(a, "--pretty")) {
			io->pretty = true;
		} else if (!strcmp(a, "--compact")) {
			io->compact = true;
		} else if (!strncmp(a, "--dec=", 6)) {
			if (strlen(a) != 7 || a[6] < '0' || a[6] > '2')
				return ptk_usage_error(ctx, "option '--dec': '%s' is not 0, 1 or 2",
						       a + 6);
			io->fmt.dec = a[6] - '0';
		} else if (!strcmp(a, "-f") || !strcmp(a, "+f")) {
			if (i + 1 >= argc)
				return ptk_usage_error(ctx, "option '%s' needs a directory", a);
			if (io->alt)
				return ptk_usage_error(ctx, "option '%s': only one -f or +f", a);
			io->alt_plus = a[0] == '+';
			io->alt = argv[++i];
			if (!is_dir(io->alt))
				return ptk_usage_error(ctx, "option '%s': %s is not a directory", a,
						       io->alt);
		} else if (!strcmp(a, "-j")) {
			if (i + 1 >= argc)
				return ptk_usage_error(ctx,
						       "option '-j' needs a type of persistent "
						       "name (ID, LABEL, PATH, UUID, ...)");
			persist_type = xstrdup(argv[++i]);
			for (char *c = persist_type; *c; c++)
				*c = *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c;
			free((char *)io->persist);
			io->persist = persist_type;
			io->pretty = true; /* persistent names are long */
		} else if (!strcmp(a, "-o")) {
			if (i + 1 >= argc || strcmp(argv[i + 1], "JSON"))
				return ptk_usage_error(ctx, "option '-o' takes JSON, not '%s'",
						       i + 1 < argc ? argv[i + 1] : "");
			io->sjson = true;
			i++;
		} else if (!strcmp(a, "--json")) {
			ctx->json = true;
		} else if (!strcmp(a, "--help")) {
			fputs(usage, stdout);
			*rc = PTK_EXIT_OK;
			return OPT_EXIT;
		} else if ((v = long_arg(argc, argv, &i, "--procfs"))) {
			ctx->procfs = v;
		} else if ((v = long_arg(argc, argv, &i, "--sysfs"))) {
			ctx->sysfs = v;
		} else if ((v = long_arg(argc, argv, &i, "--devfs"))) {
			io->devfs = v;
		} else if (!strcmp(a, "--procfs") || !strcmp(a, "--sysfs") ||
			   !strcmp(a, "--devfs")) {
			return ptk_usage_error(ctx, "option '%s' needs a directory", a);
		} else if (!strncmp(a, "--", 2)) {
			return ptk_usage_error(ctx, "unknown option '%.*s'", (int)strcspn(a, "="),
					       a);
		} else if (a[0] == '-' && a[1]) {
			for (const char *c = a + 1; *c; c++) {
				switch (*c) {
				case 'c':
					io->cpu = report_set = true;
					break;
				case 'd':
					io->disk = report_set = true;
					break;
				case 'H':
					io->group_only = true;
					break;
				case 'h':
					io->pretty = io->human = true;
					break;
				case 'k':
				case 'm':
				case 'G':
					if (io->unit && io->unit != (*c == 'k' ? &u_kb :
								     *c == 'm' ? &u_mb :
										 &u_gb))
						return ptk_usage_error(
							ctx,
							"options '-%c' and '-%c' cannot be used together",
							io->unit == &u_kb ? 'k' :
							io->unit == &u_mb ? 'm' :
									    'G',
							*c);
					io->unit = *c == 'k' ? &u_kb : *c == 'm' ? &u_mb : &u_gb;
					break;
				case 'N':
					io->devmap = true;
					break;
				case 'p':
					io->everything = true; /* grouped: no argument */
					break;
				case 's':
					io->short_out = true;
					break;
				case 't':
					io->stamp = true;
					break;
				case 'V':
					ptk_sysstat_version(stdout, io_env, ARRAY_SIZE(io_env));
					*rc = PTK_EXIT_OK;
					return OPT_EXIT;
				case 'x':
					io->ext = true;
					break;
				case 'y':
					io->skip_first = true;
					break;
				case 'z':
					io->zero_omit = true;
					break;
				default:
					return ptk_usage_error(ctx, "unknown option '-%c'", *c);
				}
			}
		} else if (!strcmp(a, "-")) {
			continue; /* sysstat takes it as no option */
		} else if (!is_number(a)) {
			io->unfiltered = true;
			if (strcmp(a, "ALL"))
				arg_add(io, a, T_DEV);
			else
				io->all_devices = true;
		} else {
			if (nnum == 2)
				return ptk_usage_error(ctx,
						       "too many numbers: '%s' after interval "
						       "and count",
						       a);
			nums[nnum++] = a;
		}
	}
	*has_itv = false;
	if (nnum >= 1) {
		if (ptk_parse_double(nums[0], interval) || *interval > PTK_MAX_INTERVAL_S ||
		    (*interval > 0 && *interval < PTK_MIN_INTERVAL_S))
			return ptk_usage_error(ctx, "invalid interval '%s' (0, or %.2g to %.0f s)",
					       nums[0], PTK_MIN_INTERVAL_S, PTK_MAX_INTERVAL_S);
		*has_itv = *interval > 0;
	}
	*count = *has_itv ? -1 : 1;
	if (nnum == 2) {
		u64 c;
		if (ptk_parse_u64(nums[1], &c) || c < 1 || c > (u64)1 << 40)
			return ptk_usage_error(ctx, "invalid count '%s' (1 or more)", nums[1]);
		if (!*has_itv)
			return ptk_usage_error(ctx, "a count needs an interval above 0");
		*count = c;
	}
	if (!report_set)
		io->cpu = io->disk = true;
	if (io->everything || io->ext || io->unfiltered)
		io->disk = true;
	if (!io->unfiltered)
		io->all_devices = true;
	if (io->group_only && !io->groups)
		return ptk_usage_error(ctx, "option '-H' needs a group (-g NAME)");
	if (!io->unit)
		io->unit = io->env.posix ? (io->ext ? &u_sec : &u_blk) : &u_kb;
	return OPT_OK;
}

static void set_columns(struct io *io)
{
	io->cols = io->ext ? (io->short_out ? xs_cols : x_cols) : io->short_out ? bs_cols : b_cols;
	io->ncols = io->ext	  ? (io->short_out ? ARRAY_SIZE(xs_cols) : ARRAY_SIZE(x_cols)) :
		    io->short_out ? ARRAY_SIZE(bs_cols) :
				    ARRAY_SIZE(b_cols);
	for (int i = 0; i < io->ncols; i++) {
		const struct io_col *c = &io->cols[i];
		if (c->title) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			snprintf(io->titles[i], sizeof(io->titles[i]), c->title, io->unit->name);
#pragma GCC diagnostic pop
		} else {
			snprintf(io->titles[i], sizeof(io->titles[i]), "%s",
				 ptk_registry[c->m].name);
		}
	}
}

int cmd_iostat(struct ptk_ctx *ctx, int argc, char **argv)
{
	struct io io = { .fmt = { .dec = -1 } };
	double interval = 0;
	long count = 1;
	bool has_itv = false;
	int rc = 0, r;

	ptk_sysenv_read(&io.env);
	r = parse(ctx, &io, argc, argv, &interval, &count, &has_itv, &rc);
	if (r != OPT_OK) {
		if (r != OPT_EXIT)
			rc = r;
		goto out;
	}
	io.fmt.f = stdout;
	io.fmt.env = &io.env;
	io.fmt.human = io.human;
	set_columns(&io);
	/* the loop's count is of intervals after the first sample */
	if (!has_itv) {
		count = 0;
		io.skip_first = false;
	} else if (count > 0 && !io.skip_first) {
		count--;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out;
	/* another machine's tree: its /dev is not this one's */
	if (!io.devfs && ptk_src_is_live(&ctx->src))
		io.devfs = "/dev";
	if (io.devfs && !is_dir(io.devfs)) {
		rc = ptk_usage_error(ctx, "option '--devfs': %s is not a directory", io.devfs);
		goto out;
	}
	io.alt_replay = io.alt && numbered(io.alt);
	io.dev_replay = io.devfs && numbered(io.devfs);
	set_roots(ctx, &io);
	if (io.persist && (!io.devfs || !ptk_persist_type_ok(io.devroot, io.persist))) {
		if (io.devfs)
			rc = ptk_usage_error(ctx,
					     "option '-j': no %s/disk/by-%s: not a type of "
					     "persistent name here",
					     io.devroot, io.persist);
		else
			rc = ptk_usage_error(ctx, "option '-j' on another machine's tree needs "
						  "its /dev (--devfs DIR)");
		goto out;
	}
	for (int i = 0; i < io.nargs; i++) {
		char name[256];
		if (io.args[i].tp == T_GROUP) {
			dev_add(&io, io.args[i].name, T_GROUP);
			continue;
		}
		arg_name(&io, &io.args[i], name, sizeof(name));
		struct iodev *d = dev_add(&io, name, io.args[i].tp);
		if (d)
			d->named = true;
		else
			ptk_warn("device name too long, left out: %s", name);
	}
	for (int i = 0; i < io.n; i++)
		io.d[i].exist = false; /* read by the first sample */
	struct ptk_stat st = { 0 };
	if ((r = ptk_stat_read(&ctx->src, &st))) {
		ptk_err("cannot read %s/stat: %s", ctx->src.procfs, strerror(-r));
		rc = PTK_EXIT_RUNTIME;
		goto out;
	}
	int ncpu = cpu_count(ctx, &st);
	ptk_stat_free(&st);
	if (io.sjson && !ctx->json) {
		sjson_begin(ctx, &io, ncpu);
	} else if (!ctx->json) {
		struct ptk_host h;
		ptk_ctx_host(ctx, &h);
		ptk_sysstat_banner(stdout, h.sys, h.rel, h.host, h.mach, ncpu,
				   (time_t)ptk_ctx_walltime(ctx), false, io.env.iso);
		putchar('\n');
	}
	r = ptk_loop(ctx, interval, count, io_sample, &io);
	if (r > 0)
		rc = r;
	if (io.sjson && !ctx->json)
		ptk_sjson_end(&io.js);
out:
	for (int i = 0; i < io.nargs; i++)
		if (io.args[i].tp == T_GROUP)
			free((char *)io.args[i].name);
	free(io.args);
	free((char *)io.persist);
	free(io.d);
	ptk_snap_free(&io.prev);
	ptk_snap_free(&io.cur);
	ptk_rows_free(&io.rows);
	ptk_buf_free(&io.buf);
	return rc;
}
