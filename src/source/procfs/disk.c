// SPDX-License-Identifier: GPL-2.0
/* /proc/diskstats reader (14-, 18- and 20-field layouts, and old 7-field partition lines), and
 * the same counters per device from /sys/block/DEV[/PART]/stat. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "source/procfs/procfs.h"

/* Documentation/admin-guide/iostats.rst; node_exporter's node_disk_* families */
#define DK(e, k, u, g, min, p, h)                                         \
	[PTK_DK_##e] = { .key = k,                                        \
			 .name = k,                                       \
			 .off = offsetof(struct ptk_disk, f[PTK_DK_##e]), \
			 .unit = u,                                       \
			 .gauge = g,                                      \
			 .min_fields = min,                               \
			 .prom = p,                                       \
			 .help = h }
const struct ptk_field_desc ptk_disk_fields[PTK_DK_NFIELDS] = {
	DK(RD_IOS, "rd_ios", "", false, 4, "node_disk_reads_completed_total",
	   "The total number of reads completed successfully (/proc/diskstats field 1)."),
	DK(RD_MERGES, "rd_merges", "", false, 11, "node_disk_reads_merged_total",
	   "The total number of reads merged (/proc/diskstats field 2)."),
	DK(RD_SECTORS, "rd_sectors", "sectors", false, 4, "node_disk_read_bytes_total",
	   "The total number of bytes read successfully (/proc/diskstats field 3, 512-byte "
	   "sectors)."),
	DK(RD_TICKS, "rd_ticks", "ms", false, 11, "node_disk_read_time_seconds_total",
	   "The total number of seconds spent by all reads (/proc/diskstats field 4, ms)."),
	DK(WR_IOS, "wr_ios", "", false, 4, "node_disk_writes_completed_total",
	   "The total number of writes completed successfully (/proc/diskstats field 5)."),
	DK(WR_MERGES, "wr_merges", "", false, 11, "node_disk_writes_merged_total",
	   "The number of writes merged (/proc/diskstats field 6)."),
	DK(WR_SECTORS, "wr_sectors", "sectors", false, 4, "node_disk_written_bytes_total",
	   "The total number of bytes written successfully (/proc/diskstats field 7, 512-byte "
	   "sectors)."),
	DK(WR_TICKS, "wr_ticks", "ms", false, 11, "node_disk_write_time_seconds_total",
	   "This is the total number of seconds spent by all writes (/proc/diskstats field 8, "
	   "ms)."),
	DK(IN_FLIGHT, "in_flight", "", true, 11, "node_disk_io_now",
	   "The number of I/Os currently in progress (/proc/diskstats field 9)."),
	DK(IO_TICKS, "io_ticks", "ms", false, 11, "node_disk_io_time_seconds_total",
	   "Total seconds spent doing I/Os (/proc/diskstats field 10, io_ticks ms)."),
	DK(TIME_IN_QUEUE, "time_in_queue", "ms", false, 11,
	   "node_disk_io_time_weighted_seconds_total",
	   "The weighted number of seconds spent doing I/Os (/proc/diskstats field 11, "
	   "time_in_queue ms)."),
	DK(DC_IOS, "dc_ios", "", false, 15, "node_disk_discards_completed_total",
	   "The total number of discards completed successfully (/proc/diskstats field 12)."),
	DK(DC_MERGES, "dc_merges", "", false, 15, "node_disk_discards_merged_total",
	   "The total number of discards merged (/proc/diskstats field 13)."),
	/* node_exporter keeps this one in sectors */
	DK(DC_SECTORS, "dc_sectors", "sectors", false, 15, "node_disk_discarded_sectors_total",
	   "The total number of sectors discarded successfully (/proc/diskstats field 14)."),
	DK(DC_TICKS, "dc_ticks", "ms", false, 15, "node_disk_discard_time_seconds_total",
	   "This is the total number of seconds spent by all discards (/proc/diskstats field 15, "
	   "ms)."),
	DK(FL_IOS, "fl_ios", "", false, 17, "node_disk_flush_requests_total",
	   "The total number of flush requests completed successfully (/proc/diskstats field "
	   "16)."),
	DK(FL_TICKS, "fl_ticks", "ms", false, 17, "node_disk_flush_requests_time_seconds_total",
	   "This is the total number of seconds spent by all flush requests (/proc/diskstats "
	   "field 17, ms)."),
};
#undef DK

static struct ptk_disk *disk_add(struct ptk_diskstats *ds)
{
	if (ds->n == ds->cap) {
		ds->cap = ds->cap ? ds->cap * 2 : 16;
		ds->d = xrealloc(ds->d, ds->cap * sizeof(*ds->d));
	}
	struct ptk_disk *d = &ds->d[ds->n++];
	memset(d, 0, sizeof(*d));
	return d;
}

/* The counters after the name (a diskstats line) or the whole of a sysfs stat file, into d:
 * positional, so nfields says which are there; a token that is not a number leaves its field
 * unknown (d->bad) and the others stand. -EINVAL when no counter layout fits. */
static int parse_counters(const char *p, struct ptk_disk *d)
{
	const char *tok;
	size_t len;
	u64 v[PTK_DK_NFIELDS];
	unsigned bad = 0;
	int nv = 0, ntok = 0;

	while ((p = ptk_next_tok(p, &tok, &len))) {
		const char *e;
		u64 x = ptk_strtou64(tok, &e);

		if (ntok++ >= PTK_DK_NFIELDS)
			continue; /* newer kernels may append; keep what we know */
		if (e != tok + len) {
			bad |= 1u << nv;
			x = 0;
		}
		v[nv++] = x;
	}
	memset(d->f, 0, sizeof(d->f));
	d->bad = 0;
	if (nv == 4) {
		/* Kernels < 2.6.25 print partitions as: reads rd_sectors writes wr_sectors */
		static const int at[4] = { PTK_DK_RD_IOS, PTK_DK_RD_SECTORS, PTK_DK_WR_IOS,
					   PTK_DK_WR_SECTORS };
		for (int i = 0; i < 4; i++) {
			d->f[at[i]] = v[i];
			if (bad & (1u << i))
				d->bad |= 1u << at[i];
		}
		d->nfields = 4;
		return bad == 0xf ? -EINVAL : 0;
	}
	if (nv < 11 || bad == (1u << nv) - 1)
		return -EINVAL;
	memcpy(d->f, v, nv * sizeof(u64));
	d->nfields = nv;
	d->bad = bad;
	return 0;
}

static int parse_line(const char *line, struct ptk_disk *d)
{
	const char *p = line, *tok;
	size_t len;
	char *end;

	d->major = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	p = end;
	d->minor = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	p = end;
	p = ptk_next_tok(p, &tok, &len);
	if (!p || len >= sizeof(d->name))
		return -EINVAL;
	memcpy(d->name, tok, len);
	d->name[len] = '\0';
	return parse_counters(p, d);
}

int ptk_blockstat_parse(const char *text, struct ptk_disk *d)
{
	return parse_counters(text, d);
}

/* Without sysfs: a device is a partition when another device's name is a proper prefix
 * and the rest is the kernel's partition suffix (block/partitions/core.c): "<N>" after a
 * disk name ending in a letter ("sda1"), "p<N>" after one ending in a digit ("nvme0n1p2",
 * "mmcblk0p1"). So loop10 is not a partition of loop1, nor nvme0n10 of nvme0n1. */
static bool name_is_partition(const struct ptk_diskstats *ds, const struct ptk_disk *d)
{
	size_t n = strlen(d->name);

	for (int i = 0; i < ds->n; i++) {
		const char *o = ds->d[i].name;
		size_t on = strlen(o);
		if (&ds->d[i] == d || on == 0 || on >= n || strncmp(o, d->name, on))
			continue;
		const char *rest = d->name + on;
		if (o[on - 1] >= '0' && o[on - 1] <= '9') {
			if (*rest != 'p')
				continue;
			rest++;
		}
		if (!*rest)
			continue;
		while (*rest >= '0' && *rest <= '9')
			rest++;
		if (!*rest)
			return true;
	}
	return false;
}

static int parse_text(const char *text, struct ptk_diskstats *ds, bool keep_bad)
{
	const char *p = text;

	ds->n = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		char line[512];
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len && len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			struct ptk_disk *d = disk_add(ds);
			if (parse_line(line, d) < 0 || (d->bad && !keep_bad))
				ds->n--; /* skip a malformed line, keep the rest */
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	for (int i = 0; i < ds->n; i++)
		ds->d[i].is_partition = ds->d[i].nfields == 4 || name_is_partition(ds, &ds->d[i]);
	return 0;
}

int ptk_diskstats_parse(const char *text, struct ptk_diskstats *ds)
{
	return parse_text(text, ds, false);
}

int ptk_diskstats_parse_all(const char *text, struct ptk_diskstats *ds)
{
	return parse_text(text, ds, true);
}

int ptk_diskstats_read(const struct ptk_src *src, struct ptk_diskstats *ds)
{
	static __thread struct ptk_buf b;
	char rel[128], path[PATH_MAX];
	ssize_t n = ptk_src_read_text_buf(src, PTK_PROC, "diskstats", &b);
	int r;

	if (n < 0)
		return n;
	r = ptk_diskstats_parse(b.p, ds);
	if (r)
		return r;
	/* sysfs knows for sure: /sys/class/block/NAME/partition exists for partitions. */
	snprintf(rel, sizeof(rel), "class/block");
	if (ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)) == 0 && access(path, F_OK) == 0) {
		for (int i = 0; i < ds->n; i++) {
			char name[64];
			snprintf(name, sizeof(name), "%s", ds->d[i].name);
			for (char *c = name; *c; c++)
				if (*c == '/')
					*c = '!'; /* cciss/c0d0 is cciss!c0d0 in sysfs */
			snprintf(rel, sizeof(rel), "class/block/%s", name);
			if (ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)) ||
			    access(path, F_OK))
				continue;
			snprintf(rel, sizeof(rel), "class/block/%s/partition", name);
			if (ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)) == 0)
				ds->d[i].is_partition = access(path, F_OK) == 0;
		}
	}
	return 0;
}

void ptk_diskstats_free(struct ptk_diskstats *ds)
{
	free(ds->d);
	memset(ds, 0, sizeof(*ds));
}

const struct ptk_disk *ptk_diskstats_find(const struct ptk_diskstats *ds, const char *name)
{
	for (int i = 0; i < ds->n; i++)
		if (!strcmp(ds->d[i].name, name))
			return &ds->d[i];
	return NULL;
}

/* ---- /sys/block ---------------------------------------------------------------------- */

/* dev as its sysfs entry: '/' in a kernel name is '!' there (cciss/c0d0: cciss!c0d0) */
static void sys_entry(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s", name);
	for (char *c = buf; *c; c++)
		if (*c == '/')
			*c = '!';
}

char *ptk_sysblock_name(char *s)
{
	for (char *c = s; *c; c++)
		if (*c == '!')
			*c = '/';
	return s;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ptk_names_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The entries of dir, sorted; with leaf, only those holding the file dir/ENTRY/leaf. */
static int list_dir(const char *dir, const char *leaf, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (leaf) {
			char path[PATH_MAX];
			struct stat st;
			if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name,
					     leaf) >= sizeof(path) ||
			    stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*out = v;
	return n;
}

int ptk_sysblock_devices(const char *root, char ***names)
{
	char dir[PATH_MAX];

	if ((size_t)snprintf(dir, sizeof(dir), "%s/block", root) >= sizeof(dir))
		return -ENAMETOOLONG;
	return list_dir(dir, NULL, names);
}

int ptk_sysblock_partitions(const char *root, const char *dev, char ***names)
{
	char dir[PATH_MAX], ent[256];

	sys_entry(ent, sizeof(ent), dev);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/block/%s", root, ent) >= sizeof(dir))
		return -ENAMETOOLONG;
	return list_dir(dir, "stat", names);
}

int ptk_sysblock_stat(const char *root, const char *dev, const char *part, struct ptk_disk *d)
{
	char path[PATH_MAX], ed[256], ep[256] = "", buf[512];
	ssize_t n;
	int r;

	sys_entry(ed, sizeof(ed), dev);
	if (part)
		sys_entry(ep, sizeof(ep), part);
	if ((size_t)snprintf(path, sizeof(path), "%s/block/%s%s%s/stat", root, ed, part ? "/" : "",
			     ep) >= sizeof(path))
		return -ENAMETOOLONG;
	if ((n = ptk_read_file(path, buf, sizeof(buf))) < 0)
		return n;
	memset(d, 0, sizeof(*d));
	if ((r = ptk_blockstat_parse(buf, d)))
		return r;
	if (strlen(part ? ep : ed) >= sizeof(d->name))
		return -ENAMETOOLONG;
	memcpy(d->name, part ? ep : ed, strlen(part ? ep : ed) + 1);
	ptk_sysblock_name(d->name);
	d->is_partition = part != NULL;
	return 0;
}

int ptk_sysblock_parent(const char *root, const char *part, char *buf, size_t size)
{
	char **devs, ep[256], path[PATH_MAX];
	int n = ptk_sysblock_devices(root, &devs), r = -ENOENT;
	struct stat st;

	sys_entry(ep, sizeof(ep), part);
	for (int i = 0; i < n && r; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/block/%s/%s/stat", root, devs[i], ep) <
			    sizeof(path) &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			snprintf(buf, size, "%s", devs[i]);
			ptk_sysblock_name(buf);
			r = 0;
		}
	}
	if (n > 0)
		ptk_names_free(devs, n);
	return r;
}

bool ptk_sysblock_is_device(const char *root, const char *dev)
{
	char path[PATH_MAX], ed[256];
	struct stat st;

	sys_entry(ed, sizeof(ed), dev);
	return (size_t)snprintf(path, sizeof(path), "%s/block/%s", root, ed) < sizeof(path) &&
	       stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
