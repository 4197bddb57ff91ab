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

int ptk_task_parse_status(const char *buf, struct ptk_task *t)
{
	int seen = 0;

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, "Name:\t", 6)) {
			const char *e = strchr(p + 6, '\n');
			size_t n = e ? (size_t)(e - p - 6) : strlen(p + 6);
			if (n >= sizeof(t->name))
				n = sizeof(t->name) - 1;
			memcpy(t->name, p + 6, n);
			t->name[n] = '\0';
			seen++;
		} else if (!strncmp(p, "Uid:", 4)) {
			t->uid = strtoul(p + 4, NULL, 10);
			seen++;
		} else if (!strncmp(p, "VmRSS:", 6)) {
			t->vmrss_kb = strtoull(p + 6, NULL, 10);
		} else if (!strncmp(p, "VmSwap:", 7)) {
			t->vmswap_kb = strtoull(p + 7, NULL, 10);
		} else if (!strncmp(p, "voluntary_ctxt_switches:", 24)) {
			t->vol_ctxt = strtoull(p + 24, NULL, 10);
			seen++;
		} else if (!strncmp(p, "nonvoluntary_ctxt_switches:", 27)) {
			t->nonvol_ctxt = strtoull(p + 27, NULL, 10);
			seen++;
		}
	}
	return seen >= 2 ? 0 : -EINVAL;
}

void ptk_cmdline_escape(const char *raw, size_t len, char *out, size_t size)
{
	size_t o = 0;

	while (len && raw[len - 1] == '\0')
		len--;
	for (size_t i = 0; i < len && o + 5 < size; i++) {
		unsigned char c = raw[i];
		if (c == '\0') {
			out[o++] = ' ';
		} else if (c == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (c == '\t') {
			out[o++] = '\\';
			out[o++] = 't';
		} else if (c < 0x20 || c == 0x7f) {
			o += snprintf(out + o, size - o, "\\%03o", c);
		} else {
			out[o++] = c;
		}
	}
	out[o < size ? o : size - 1] = '\0';
}

void ptk_cgroup_path(const char *buf, char *out, size_t size)
{
	const char *first = NULL;

	out[0] = '\0';
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *c1 = strchr(p, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		const char *e = strchr(p, '\n');
		if (!c2 || (e && c2 > e))
			continue;
		if (!strncmp(p, "0::", 3)) {
			first = c2 + 1;
			break;
		}
		if (!first)
			first = c2 + 1;
	}
	if (!first)
		return;
	const char *e = strchr(first, '\n');
	size_t n = e ? (size_t)(e - first) : strlen(first);
	if (n >= size)
		n = size - 1;
	memcpy(out, first, n);
	out[n] = '\0';
}

static bool hex64(const char *p)
{
	for (int i = 0; i < 64; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return false;
	return true;
}

void ptk_container_id(const char *cg, char *out, size_t size)
{
	out[0] = '\0';
	for (const char *p = cg; *p; p++) {
		if ((p == cg || p[-1] == '/' || p[-1] == '-') && strlen(p) >= 64 && hex64(p)) {
			snprintf(out, size, "%.12s", p);
			return;
		}
	}
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
	t->nfds = -1;
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
	if (flags & PTK_PT_STATUS) {
		n = ptk_read_file_at(dirfd, "status", buf, size);
		t->status_ok = n > 0 && ptk_task_parse_status(buf, t) == 0;
	}
	if (flags & PTK_PT_STATM) {
		n = ptk_read_file_at(dirfd, "statm", buf, size);
		unsigned long long a, b, c;
		if (n > 0 && sscanf(buf, "%llu %llu %llu", &a, &b, &c) == 3) {
			t->statm_size = a;
			t->statm_resident = b;
			t->statm_shared = c;
			t->statm_ok = true;
		}
	}
	if (flags & PTK_PT_CMDLINE) {
		n = ptk_read_file_at(dirfd, "cmdline", buf, size);
		if (n > 0)
			ptk_cmdline_escape(buf, n, t->cmdline, sizeof(t->cmdline));
	}
	if (flags & PTK_PT_CGROUP) {
		n = ptk_read_file_at(dirfd, "cgroup", buf, size);
		if (n > 0)
			ptk_cgroup_path(buf, t->cgroup, sizeof(t->cgroup));
	}
	if (flags & PTK_PT_FDS) {
		int fdd = openat(dirfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *fdir = fdd >= 0 ? fdopendir(fdd) : NULL;
		if (fdir) {
			struct dirent *fe;
			t->nfds = 0;
			while ((fe = readdir(fdir)))
				t->nfds += fe->d_name[0] != '.';
			closedir(fdir);
		} else if (fdd >= 0) {
			close(fdd);
		}
	}
	if ((flags & PTK_PT_WCHAN) && (t->state == 'D' || (flags & PTK_PT_ALLWCHAN))) {
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

/* Read one process (and its threads with PTK_PT_THREADS) under the directory fd rootfd. */
static void scan_one(struct ptk_ptab *pt, int rootfd, const char *pidname, unsigned flags,
		     char *buf, size_t size)
{
	int pfd = openat(rootfd, pidname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int tgid = atoi(pidname);

	if (pfd < 0) {
		pt->vanished++;
		return;
	}
	if (!(flags & PTK_PT_THREADS)) {
		read_task(pt, pfd, tgid, flags, buf, size);
		close(pfd);
		return;
	}
	int tfd = openat(pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *td = tfd >= 0 ? fdopendir(tfd) : NULL;
	if (!td) {
		if (tfd >= 0)
			close(tfd);
		/* snapshot without task/: fall back to the process row */
		read_task(pt, pfd, tgid, flags, buf, size);
		close(pfd);
		return;
	}
	/* cmdline and cgroup belong to the process: read once, copy to each thread */
	int first = pt->n;
	unsigned tflags = flags & ~(PTK_PT_CMDLINE | PTK_PT_FDS);
	struct dirent *te;
	while ((te = readdir(td))) {
		if (!numeric(te->d_name))
			continue;
		int xfd = openat(dirfd(td), te->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (xfd < 0)
			continue;
		read_task(pt, xfd, tgid, tflags, buf, size);
		close(xfd);
	}
	closedir(td);
	if ((flags & (PTK_PT_CMDLINE | PTK_PT_FDS)) && pt->n > first) {
		struct ptk_task one;
		memset(&one, 0, sizeof(one));
		one.nfds = -1;
		if (flags & PTK_PT_CMDLINE) {
			ssize_t n = ptk_read_file_at(pfd, "cmdline", buf, size);
			if (n > 0)
				ptk_cmdline_escape(buf, n, one.cmdline, sizeof(one.cmdline));
		}
		if (flags & PTK_PT_FDS) {
			int fdd = openat(pfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			DIR *fdir = fdd >= 0 ? fdopendir(fdd) : NULL;
			if (fdir) {
				struct dirent *fe;
				one.nfds = 0;
				while ((fe = readdir(fdir)))
					one.nfds += fe->d_name[0] != '.';
				closedir(fdir);
			} else if (fdd >= 0) {
				close(fdd);
			}
		}
		for (int i = first; i < pt->n; i++) {
			memcpy(pt->t[i].cmdline, one.cmdline, sizeof(one.cmdline));
			pt->t[i].nfds = one.nfds;
		}
	}
	close(pfd);
}

static int scan(const struct ptk_src *src, unsigned flags, const int *pids, int npids,
		struct ptk_ptab *pt)
{
	char root[PATH_MAX], buf[8192];
	int r;

	pt->n = pt->vanished = pt->denied = 0;
	pt->scanned_ns = ptk_now_ns();
	r = ptk_src_path(src, PTK_PROC, ".", root, sizeof(root));
	if (r)
		return r;
	if (pids) {
		int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (rootfd < 0)
			return -errno;
		for (int i = 0; i < npids; i++) {
			char name[16];
			snprintf(name, sizeof(name), "%d", pids[i]);
			scan_one(pt, rootfd, name, flags, buf, sizeof(buf));
		}
		close(rootfd);
	} else {
		DIR *d = opendir(root);
		struct dirent *de;
		if (!d)
			return -errno;
		while ((de = readdir(d)))
			if (numeric(de->d_name))
				scan_one(pt, dirfd(d), de->d_name, flags, buf, sizeof(buf));
		closedir(d);
	}
	qsort(pt->t, pt->n, sizeof(*pt->t), cmp_pid);
	return 0;
}

int ptk_ptab_scan(const struct ptk_src *src, unsigned flags, struct ptk_ptab *pt)
{
	return scan(src, flags, NULL, 0, pt);
}

int ptk_ptab_scan_pids(const struct ptk_src *src, unsigned flags, const int *pids, int npids,
		       struct ptk_ptab *pt)
{
	return scan(src, flags, pids, npids, pt);
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
