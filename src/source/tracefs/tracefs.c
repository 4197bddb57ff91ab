// SPDX-License-Identifier: GPL-2.0
#include "source/tracefs/tracefs.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "lib/child.h"
#include "lib/util.h"

static char mounted_at[PATH_MAX];
static char found[PATH_MAX];

bool ptk_tracefs_mounted_by_us(void)
{
	return mounted_at[0] != '\0';
}

void ptk_tracefs_release(void)
{
	if (!mounted_at[0])
		return;
	if (umount2(mounted_at, MNT_DETACH) == 0)
		mounted_at[0] = '\0';
}

static bool lookup_mount(char *path, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/mounts", "re");
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[512], type[64];
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) != 3)
			continue;
		if (!strcmp(type, "tracefs")) {
			snprintf(path, size, "%s", dir);
			ok = true;
			break;
		}
		if (!strcmp(type, "debugfs")) {
			char t[PATH_MAX];
			struct stat st;
			snprintf(t, sizeof(t), "%s/tracing/events", dir);
			if (stat(t, &st) == 0) {
				snprintf(path, size, "%s/tracing", dir);
				ok = true; /* keep looking for a tracefs mount */
			}
		}
	}
	fclose(f);
	return ok;
}

int ptk_tracefs_find(char *path, size_t size)
{
	static const char *const target = "/sys/kernel/tracing";

	if (found[0] || lookup_mount(found, sizeof(found))) {
		snprintf(path, size, "%s", found);
		return 0;
	}
	/*
	 * Mount it in a private mount namespace of our own when we can: the kernel drops the
	 * mount with the namespace when ptk exits, whatever signal ends it (SIGKILL included),
	 * so nothing is left mounted. The programs ptk launches go back to the original
	 * namespace (lib/child.h). Without CAP_SYS_ADMIN for unshare, mount where we are and
	 * unmount at exit.
	 */
	if (ptk_child_save_mntns() == 0 && unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		ptk_child_restore_mntns(); /* shared: a mount would reach the original */
	if (mount("nodev", target, "tracefs", 0, NULL) < 0)
		return -errno;
	snprintf(mounted_at, sizeof(mounted_at), "%s", target);
	snprintf(found, sizeof(found), "%s", target);
	atexit(ptk_tracefs_release);
	snprintf(path, size, "%s", found);
	return 0;
}

/* A decimal 0..65535 at p into *v: 0 or -EINVAL. */
static int small_num(const char *p, int *v)
{
	const char *e;
	u64 x = ptk_strtou64(p, &e);

	if (e == p || x > 65535)
		return -EINVAL;
	*v = (int)x;
	return 0;
}

/* "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;" */
static int parse_field(const char *line, struct ptk_tp_field *f)
{
	const char *p = strstr(line, "field:"), *semi;
	char decl[192];
	int off, sz, sg = 0;

	if (!p)
		return -EINVAL;
	p += 6;
	semi = strchr(p, ';');
	if (!semi || (size_t)(semi - p) >= sizeof(decl))
		return -EINVAL;
	memcpy(decl, p, semi - p);
	decl[semi - p] = '\0';
	const char *o = strstr(semi, "offset:"), *s = strstr(semi, "size:"),
		   *g = strstr(semi, "signed:");
	/* a raw record is smaller than a page: offsets and sizes outside 0..65535 are not a
	 * kernel's (and would index past any record the BPF programs copy) */
	if (!o || !s || small_num(o + 7, &off) || small_num(s + 5, &sz) || off + sz > 65535)
		return -EINVAL;
	if (g)
		sscanf(g, "signed:%d", &sg);
	memset(f, 0, sizeof(*f));
	f->offset = off;
	f->size = sz;
	f->is_signed = sg;
	f->is_data_loc = strstr(decl, "__data_loc") != NULL;
	/* the name is the last identifier, before a [N] that ends the declaration ("char
	 * comm[16]"); a [] inside the type ("__data_loc char[] filename") is the type's */
	char *br = strrchr(decl, '['), *rb = br ? strchr(br, ']') : NULL;
	if (!rb || rb[1 + strspn(rb + 1, " ")] != '\0')
		br = NULL;
	char *end = br ? br : decl + strlen(decl);
	if (br && !f->is_data_loc)
		f->is_array = true;
	while (end > decl && end[-1] == ' ')
		end--;
	char *start = end;
	while (start > decl &&
	       (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
		(start[-1] >= 'A' && start[-1] <= 'Z') || (start[-1] >= '0' && start[-1] <= '9')))
		start--;
	if (start == end || (size_t)(end - start) >= sizeof(f->name))
		return -EINVAL;
	memcpy(f->name, start, end - start);
	f->name[end - start] = '\0';
	size_t tl = start - decl;
	while (tl && decl[tl - 1] == ' ')
		tl--;
	snprintf(f->type, sizeof(f->type), "%.*s%s", (int)tl, decl,
		 br && !f->is_data_loc ? br : "");
	return 0;
}

int ptk_tp_format_parse(const char *text, struct ptk_tp_format *fmt)
{
	const char *p = text;

	memset(fmt, 0, sizeof(*fmt));
	fmt->id = -1;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		char line[512];
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (!strncmp(line, "ID:", 3))
				fmt->id = atoi(line + 3);
			else if (strstr(line, "field:") && fmt->nfields < PTK_TP_MAX_FIELDS &&
				 parse_field(line, &fmt->f[fmt->nfields]) == 0)
				fmt->nfields++;
		}
		p = eol ? eol + 1 : NULL;
	}
	return fmt->nfields ? 0 : -EINVAL;
}

int ptk_tp_id_read(const char *cat, const char *event, u64 *id)
{
	char root[PATH_MAX], path[PATH_MAX * 2], buf[32];
	int r = ptk_tracefs_find(root, sizeof(root));

	if (r)
		return r;
	if (!*cat || !*event || strchr(cat, '/') || strchr(event, '/') || strstr(cat, "..") ||
	    strstr(event, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, cat, event);
	ssize_t n = ptk_read_file(path, buf, sizeof(buf));
	if (n < 0) /* tracefs is mode 700 for root: say so, it is not an unknown event */
		return n == -EACCES || n == -EPERM ? (int)n : -ENOENT;
	buf[strcspn(buf, "\n")] = '\0';
	return ptk_parse_u64(buf, id) ? -ENOENT : 0;
}

int ptk_tp_format_read(const char *cat, const char *event, struct ptk_tp_format *fmt)
{
	char root[PATH_MAX], path[PATH_MAX * 2];
	char *text;
	int r = ptk_tracefs_find(root, sizeof(root));

	if (r)
		return r;
	if (strchr(cat, '/') || strchr(event, '/') || strstr(cat, "..") || strstr(event, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, cat, event);
	text = ptk_slurp(path, NULL);
	if (!text)
		return -errno;
	r = ptk_tp_format_parse(text, fmt);
	free(text);
	return r;
}

const struct ptk_tp_field *ptk_tp_field_find(const struct ptk_tp_format *fmt, const char *name)
{
	for (int i = 0; i < fmt->nfields; i++)
		if (!strcmp(fmt->f[i].name, name))
			return &fmt->f[i];
	return NULL;
}
