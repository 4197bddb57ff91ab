// SPDX-License-Identifier: GPL-2.0
#include "source/root.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/util.h"

/* 0 when p is a directory we can use; -ENOENT, -ENOTDIR, -EACCES ... otherwise. */
static int root_check(const char *p)
{
	struct stat st;

	if (stat(p, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int count_snapshots(const char *root)
{
	char p[PATH_MAX];
	int n = 0;

	for (;;) {
		snprintf(p, sizeof(p), "%s/%d", root, n);
		if (root_check(p))
			return n;
		n++;
	}
}

int ptk_src_init(struct ptk_src *src, const char *procfs, const char *sysfs)
{
	memset(src, 0, sizeof(*src));
	if (!procfs)
		procfs = "/proc";
	if (strlen(procfs) >= sizeof(src->procfs) - 64)
		return -ENAMETOOLONG;
	snprintf(src->procfs, sizeof(src->procfs), "%s", procfs);
	if (sysfs) {
		if (strlen(sysfs) >= sizeof(src->sysfs) - 64)
			return -ENAMETOOLONG;
		snprintf(src->sysfs, sizeof(src->sysfs), "%s", sysfs);
		src->sysfs_given = true;
	} else {
		snprintf(src->sysfs, sizeof(src->sysfs), "/sys");
	}
	int r = root_check(src->procfs);
	if (r)
		return r;
	if (src->sysfs_given && (r = root_check(src->sysfs))) {
		src->bad_sysfs = true;
		return r;
	}
	/* /proc itself has numeric dirs (PIDs), but never a "0" directory. */
	src->nsnap = count_snapshots(src->procfs);
	src->replay = src->nsnap > 0;
	if (src->sysfs_given)
		src->sys_replay = count_snapshots(src->sysfs) > 0;
	return 0;
}

bool ptk_src_is_live(const struct ptk_src *src)
{
	return !src->replay && !strcmp(src->procfs, "/proc");
}

int ptk_src_path(const struct ptk_src *src, enum ptk_fs fs, const char *rel, char *buf, size_t size)
{
	int n;

	if (fs == PTK_PROC) {
		if (src->replay)
			n = snprintf(buf, size, "%s/%d/%s", src->procfs, src->snap, rel);
		else
			n = snprintf(buf, size, "%s/%s", src->procfs, rel);
	} else if (src->replay && !src->sysfs_given) {
		n = snprintf(buf, size, "%s/%d/sys/%s", src->procfs, src->snap, rel);
	} else if (src->sys_replay) {
		n = snprintf(buf, size, "%s/%d/%s", src->sysfs, src->snap, rel);
	} else {
		n = snprintf(buf, size, "%s/%s", src->sysfs, rel);
	}
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

ssize_t ptk_src_read(const struct ptk_src *src, enum ptk_fs fs, const char *rel, char *buf,
		     size_t size)
{
	char path[PATH_MAX];
	int r = ptk_src_path(src, fs, rel, path, sizeof(path));

	if (r)
		return r;
	return ptk_read_file(path, buf, size);
}

int ptk_src_next(struct ptk_src *src)
{
	if (!src->replay)
		return 0;
	if (src->snap + 1 >= src->nsnap)
		return -ENODATA;
	src->snap++;
	return 0;
}

int ptk_src_remaining(const struct ptk_src *src)
{
	return src->replay ? src->nsnap - src->snap : -1;
}

ssize_t ptk_read_buf_at(int dirfd, const char *path, struct ptk_buf *b)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = ptk_read_fd_grow(fd, &b->p, &b->cap);
	close(fd);
	if (n >= 0)
		b->len = n;
	return n;
}

size_t ptk_text_lines(char *text, size_t n)
{
	while (n && text[n - 1] != '\n')
		n--;
	text[n] = '\0';
	return n;
}

ssize_t ptk_src_read_buf(const struct ptk_src *src, enum ptk_fs fs, const char *rel,
			 struct ptk_buf *b)
{
	char path[PATH_MAX];
	int r = ptk_src_path(src, fs, rel, path, sizeof(path));

	if (r)
		return r;
	return ptk_read_buf_at(AT_FDCWD, path, b);
}

ssize_t ptk_src_read_text(const struct ptk_src *src, enum ptk_fs fs, const char *rel, char *buf,
			  size_t size)
{
	ssize_t n = ptk_src_read(src, fs, rel, buf, size);

	return n < 0 ? n : (ssize_t)ptk_text_lines(buf, n);
}

ssize_t ptk_src_read_text_buf(const struct ptk_src *src, enum ptk_fs fs, const char *rel,
			      struct ptk_buf *b)
{
	ssize_t n = ptk_src_read_buf(src, fs, rel, b);

	return n < 0 ? n : (ssize_t)ptk_text_lines(b->p, n);
}

void ptk_buf_free(struct ptk_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->cap = b->len = 0;
}
