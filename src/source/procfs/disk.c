// SPDX-License-Identifier: GPL-2.0
/* /proc/diskstats reader: 14-, 18- and 20-field layouts, and old 7-field partition lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/procfs/procfs.h"

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

static int parse_line(const char *line, struct ptk_disk *d)
{
	const char *p = line, *tok;
	size_t len;
	u64 v[PTK_DK_NFIELDS + 4];
	int nv = 0;
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
	while ((p = ptk_next_tok(p, &tok, &len)) && nv < (int)ARRAY_SIZE(v)) {
		const char *e;
		v[nv] = ptk_strtou64(tok, &e);
		end = (char *)e;
		if (end != tok + len)
			return -EINVAL;
		nv++;
	}
	if (nv == 4) {
		/* Kernels < 2.6.25 print partitions as: reads rd_sectors writes wr_sectors */
		d->f[PTK_DK_RD_IOS] = v[0];
		d->f[PTK_DK_RD_SECTORS] = v[1];
		d->f[PTK_DK_WR_IOS] = v[2];
		d->f[PTK_DK_WR_SECTORS] = v[3];
		d->nfields = 4;
		return 0;
	}
	if (nv < 11)
		return -EINVAL;
	if (nv > PTK_DK_NFIELDS)
		nv = PTK_DK_NFIELDS; /* newer kernels may append; keep what we know */
	memcpy(d->f, v, nv * sizeof(u64));
	d->nfields = nv;
	return 0;
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

int ptk_diskstats_parse(const char *text, struct ptk_diskstats *ds)
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
			if (parse_line(line, d) < 0)
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

int ptk_diskstats_read(const struct ptk_src *src, struct ptk_diskstats *ds)
{
	static __thread struct ptk_buf b;
	char rel[128], path[PATH_MAX];
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, "diskstats", &b);
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
