// SPDX-License-Identifier: GPL-2.0
/* Device-mapper and persistent names of block devices (the links under /dev). */
#include "source/devname.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/util.h"
#include "source/procfs/procfs.h"

/* The target of the link at path, or the first line of a regular file standing for one (a
 * path: "../../sda5"). */
static int link_target(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);

	if (n < 0 && errno == EINVAL) {
		struct stat st;
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			return -EINVAL;
		n = ptk_read_file(path, buf, size);
		if (n < 0)
			return n;
		buf[strcspn(buf, "\n")] = '\0';
		/* a link's target is a path; such trees keep device nodes as files too */
		if (buf[0] != '/' && strncmp(buf, "./", 2) && strncmp(buf, "../", 3))
			return -EINVAL;
		n = strlen(buf);
	} else if (n < 0) {
		return -errno;
	} else {
		buf[n] = '\0';
	}
	return n ? 0 : -EINVAL;
}

/* The device name of a link target: "../../sda5", "/dev/sda5", "../dm-2/" -> sda5, dm-2 */
static void target_dev(char *t)
{
	char *p = t;
	size_t n;

	for (;;) {
		if (!strncmp(p, "../", 3))
			p += 3;
		else if (!strncmp(p, "./", 2))
			p += 2;
		else if (!strncmp(p, "/dev/", 5))
			p += 5;
		else
			break;
	}
	memmove(t, p, strlen(p) + 1);
	n = strlen(t);
	while (n && t[n - 1] == '/')
		t[--n] = '\0';
}

int ptk_dev_link(const char *devroot, const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX];
	int r;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", devroot, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	if ((r = link_target(path, buf, size)))
		return r;
	target_dev(buf);
	return *buf ? 0 : -EINVAL;
}

/* The first entry (by name) of devroot/sub whose link points at dev, into buf. */
static int link_to(const char *devroot, const char *sub, const char *dev, char *buf, size_t size)
{
	char dir[PATH_MAX], rel[PATH_MAX], t[PATH_MAX];
	struct dirent **ents;
	int n, r = -ENOENT;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", devroot, sub) >= sizeof(dir))
		return -ENAMETOOLONG;
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;
		if (r && strcmp(e, ".") && strcmp(e, "..") &&
		    (size_t)snprintf(rel, sizeof(rel), "%s/%s", sub, e) < sizeof(rel) &&
		    ptk_dev_link(devroot, rel, t, sizeof(t)) == 0 && !strcmp(t, dev) &&
		    strlen(e) < size) {
			memcpy(buf, e, strlen(e) + 1);
			r = 0;
		}
		free(ents[i]);
	}
	free(ents);
	return r;
}

int ptk_dm_name(const char *sysroot, const char *devroot, const char *dev, char *buf, size_t size)
{
	char path[PATH_MAX];

	if (sysroot &&
	    (size_t)snprintf(path, sizeof(path), "%s/block/%s/dm/name", sysroot, dev) <
		    sizeof(path) &&
	    ptk_read_file(path, buf, size) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (*buf)
			return 0;
	}
	return devroot ? link_to(devroot, "mapper", dev, buf, size) : -ENOENT;
}

bool ptk_persist_type_ok(const char *devroot, const char *type)
{
	char path[PATH_MAX];
	struct stat st;

	return *type && !strchr(type, '/') &&
	       (size_t)snprintf(path, sizeof(path), "%s/disk/by-%s", devroot, type) <
		       sizeof(path) &&
	       stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ptk_persist_name(const char *devroot, const char *type, const char *dev, char *buf, size_t size)
{
	char sub[64];

	if ((size_t)snprintf(sub, sizeof(sub), "disk/by-%s", type) >= sizeof(sub))
		return -ENAMETOOLONG;
	return link_to(devroot, sub, dev, buf, size);
}
