// SPDX-License-Identifier: GPL-2.0
#include "source/procfs/pid.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ptk_task_parse_stat(const char *buf, struct ptk_task *t)
{
	const char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	unsigned long long v[45];
	const char *p;
	size_t n;
	int nf = 0;

	if (!open || !close || close < open)
		return -EINVAL;
	t->pid = atoi(buf);
	n = close - open - 1;
	if (n >= sizeof(t->comm))
		n = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, n);
	t->comm[n] = '\0';
	for (char *c = t->comm; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	p = close + 1;
	while (*p == ' ')
		p++;
	if (!*p)
		return -EINVAL;
	t->state = *p++;
	/* v[k] holds stat field k+4 (1-based field numbers as in proc(5)) */
	while (*p && nf < (int)ARRAY_SIZE(v)) {
		char *end;
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		v[nf] = strtoull(p, &end, 10);
		if (end == p) {
			/* negative values (priority, nice) */
			long long s = strtoll(p, &end, 10);
			if (end == p)
				return -EINVAL;
			v[nf] = (unsigned long long)s;
		}
		p = end;
		nf++;
	}
	if (nf < 21) /* through rss (field 24) */
		return -EINVAL;
#define F(k) v[(k) - 4]
	t->ppid = F(4);
	t->minflt = F(10);
	t->majflt = F(12);
	t->utime = F(14);
	t->stime = F(15);
	t->priority = (long)F(18);
	t->nice = (long)F(19);
	t->nthreads = F(20);
	t->starttime = F(22);
	t->vsize = F(23);
	t->rss_pages = F(24);
	t->processor = nf >= 36 ? (int)F(39) : -1;
	t->blkio_ticks = nf >= 39 ? F(42) : 0;
#undef F
	return 0;
}

int ptk_task_parse_io(const char *buf, struct ptk_task *t)
{
	static const struct {
		const char *k;
		size_t off;
	} keys[] = {
		{ "rchar: ", offsetof(struct ptk_task, rchar) },
		{ "wchar: ", offsetof(struct ptk_task, wchar) },
		{ "read_bytes: ", offsetof(struct ptk_task, read_bytes) },
		{ "write_bytes: ", offsetof(struct ptk_task, write_bytes) },
		{ "cancelled_write_bytes: ", offsetof(struct ptk_task, cancelled_write_bytes) },
	};
	int seen = 0;

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t kl = strlen(keys[i].k);
			if (strncmp(p, keys[i].k, kl))
				continue;
			*(u64 *)((char *)t + keys[i].off) = strtoull(p + kl, NULL, 10);
			seen++;
		}
	}
	return seen >= 4 ? 0 : -EINVAL;
}

static struct ptk_task *ptab_add(struct ptk_ptab *pt)
{
	if (pt->n == pt->cap) {
		pt->cap = pt->cap ? pt->cap * 2 : 512;
		pt->t = xrealloc(pt->t, pt->cap * sizeof(*pt->t));
	}
	struct ptk_task *t = &pt->t[pt->n++];
	memset(t, 0, sizeof(*t));
	return t;
}

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Read one task directory (dirfd points at /proc/PID or /proc/PID/task/TID). */
static int read_task(struct ptk_ptab *pt, int dirfd, int tgid, unsigned flags, char *buf,
		     size_t size)
{
	struct ptk_task *t;
	ssize_t n = ptk_read_file_at(dirfd, "stat", buf, size);

	if (n < 0) {
		if (n == -EACCES || n == -EPERM)
			pt->denied++;
		else
			pt->vanished++;
		return n;
	}
	t = ptab_add(pt);
	if (ptk_task_parse_stat(buf, t)) {
		pt->n--;
		pt->vanished++;
		return -EINVAL;
	}
	t->tgid = tgid;
	if (flags & PTK_PT_IO) {
		n = ptk_read_file_at(dirfd, "io", buf, size);
		if (n >= 0)
			t->io_ok = ptk_task_parse_io(buf, t) == 0;
		else if (n == -EACCES || n == -EPERM)
			pt->denied++;
	}
	if ((flags & PTK_PT_WCHAN) && t->state == 'D') {
		n = ptk_read_file_at(dirfd, "wchan", buf, 64);
		if (n > 0 && strcmp(buf, "0"))
			snprintf(t->wchan, sizeof(t->wchan), "%s", buf);
	}
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct ptk_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

int ptk_ptab_scan(const struct ptk_src *src, unsigned flags, struct ptk_ptab *pt)
{
	char root[PATH_MAX], buf[4096];
	struct dirent *de;
	DIR *d;
	int r;

	pt->n = pt->vanished = pt->denied = 0;
	pt->scanned_ns = ptk_now_ns();
	r = ptk_src_path(src, PTK_PROC, ".", root, sizeof(root));
	if (r)
		return r;
	d = opendir(root);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!numeric(de->d_name))
			continue;
		int pfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0) {
			pt->vanished++;
			continue;
		}
		int tgid = atoi(de->d_name);
		if (!(flags & PTK_PT_THREADS)) {
			read_task(pt, pfd, tgid, flags, buf, sizeof(buf));
			close(pfd);
			continue;
		}
		int tfd = openat(pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *td = tfd >= 0 ? fdopendir(tfd) : NULL;
		if (!td) {
			if (tfd >= 0)
				close(tfd);
			/* snapshot without task/: fall back to the process row */
			read_task(pt, pfd, tgid, flags, buf, sizeof(buf));
			close(pfd);
			continue;
		}
		struct dirent *te;
		while ((te = readdir(td))) {
			if (!numeric(te->d_name))
				continue;
			int xfd = openat(dirfd(td), te->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (xfd < 0)
				continue;
			read_task(pt, xfd, tgid, flags, buf, sizeof(buf));
			close(xfd);
		}
		closedir(td);
		close(pfd);
	}
	closedir(d);
	qsort(pt->t, pt->n, sizeof(*pt->t), cmp_pid);
	return 0;
}

const struct ptk_task *ptk_ptab_find(const struct ptk_ptab *pt, int pid, u64 starttime)
{
	int lo = 0, hi = pt->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (pt->t[mid].pid == pid)
			return pt->t[mid].starttime == starttime ? &pt->t[mid] : NULL;
		if (pt->t[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

void ptk_ptab_free(struct ptk_ptab *pt)
{
	free(pt->t);
	memset(pt, 0, sizeof(*pt));
}
