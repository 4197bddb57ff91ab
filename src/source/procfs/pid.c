// SPDX-License-Identifier: GPL-2.0
#include "source/procfs/pid.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An unsigned decimal at p (after blanks) into *v: 0, or -EINVAL when p holds no digits, a
 * sign, or more than 2^64 - 1. */
static int num(const char *p, u64 *v)
{
	const char *e;

	*v = ptk_strtou64(p, &e);
	return e == p ? -EINVAL : 0;
}

/* As num(), returning the text after the number, or NULL. */
static const char *num_next(const char *p, u64 *v)
{
	const char *e;

	*v = ptk_strtou64(p, &e);
	return e == p ? NULL : e;
}

/* A task name (comm) of n bytes from src into dst[size]: cut to fit, control characters shown
 * as '?' (one task a line). */
static void set_name(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	for (char *c = dst; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

int ptk_task_parse_stat(const char *buf, struct ptk_task *t)
{
	const char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	unsigned long long v[45];
	const char *p;
	int nf = 0;
	u64 pid;

	if (!open || !close || close < open)
		return -EINVAL;
	if (num(buf, &pid) || pid == 0 || pid > INT_MAX)
		return -EINVAL;
	t->pid = (int)pid;
	set_name(t->comm, sizeof(t->comm), open + 1, close - open - 1);
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
		const char *e;
		int field = nf + 4;
		v[nf] = ptk_strtou64(p, &e);
		if (e == p) {
			/* signed fields: tty_nr, tpgid, priority, nice, exit_signal, the
			 * kstk/wchan placeholders; never the counters and times */
			bool sgn = field == 7 || field == 8 || field == 18 || field == 19 ||
				   field == 38 || field > 44;
			long long sv = strtoll(p, &end, 10);
			if (end == p || !sgn)
				return -EINVAL;
			v[nf] = (unsigned long long)sv;
			e = end;
		}
		p = e;
		nf++;
	}
	if (nf < 21) /* through rss (field 24) */
		return -EINVAL;
	/* pids and thread counts are ints in the kernel: a larger one is not its */
	if (v[4 - 4] > INT_MAX || v[20 - 4] > INT_MAX || (nf >= 36 && v[39 - 4] > INT_MAX))
		return -EINVAL;
#define F(k) v[(k)-4]
	t->ppid = F(4);
	t->minflt = F(10);
	t->cminflt = F(11);
	t->majflt = F(12);
	t->cmajflt = F(13);
	t->utime = F(14);
	t->stime = F(15);
	t->cutime = F(16);
	t->cstime = F(17);
	t->priority = (long)F(18);
	t->nice = (long)F(19);
	t->nthreads = F(20);
	t->starttime = F(22);
	t->vsize = F(23);
	t->rss_pages = F(24);
	t->processor = nf >= 36 ? (int)F(39) : -1;
	t->rt_ok = nf >= 38 && F(40) <= UINT_MAX && F(41) <= UINT_MAX;
	t->rt_priority = t->rt_ok ? (unsigned)F(40) : 0;
	t->policy = t->rt_ok ? (unsigned)F(41) : 0;
	t->blkio_ticks = nf >= 39 ? F(42) : 0;
	t->no_blkio = nf < 39;
	t->gtime = nf >= 40 ? F(43) : 0;
	t->cgtime = nf >= 41 ? F(44) : 0;
	t->no_gtime = nf < 41;
#undef F
	return 0;
}

int ptk_task_parse_statm(const char *buf, struct ptk_task *t)
{
	const char *p = buf;
	u64 a, b, c;

	if ((p = num_next(p, &a)) == NULL || (p = num_next(p, &b)) == NULL ||
	    num_next(p, &c) == NULL)
		return -EINVAL;
	t->statm_size = a;
	t->statm_resident = b;
	t->statm_shared = c;
	t->statm_ok = true;
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
			if (num(p + kl, (u64 *)((char *)t + keys[i].off)))
				return -EINVAL;
			seen++;
		}
	}
	return seen >= 4 ? 0 : -EINVAL;
}

int ptk_task_parse_schedstat(const char *buf, struct ptk_task *t)
{
	const char *p;
	u64 run, wait;

	if ((p = num_next(buf, &run)) == NULL || num_next(p, &wait) == NULL)
		return -EINVAL;
	t->run_delay_ns = wait;
	t->sched_ok = true;
	return 0;
}

int ptk_task_parse_status(const char *buf, struct ptk_task *t)
{
	int seen = 0;

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, "Name:\t", 6)) {
			const char *e = strchr(p + 6, '\n');

			set_name(t->name, sizeof(t->name), p + 6,
				 e ? (size_t)(e - p - 6) : strlen(p + 6));
			seen++;
		} else if (!strncmp(p, "Uid:", 4)) {
			u64 uid;
			if (num(p + 4, &uid) || uid > UINT_MAX)
				return -EINVAL;
			t->uid = (unsigned)uid;
			seen++;
		} else if (!strncmp(p, "Threads:", 8)) {
			u64 n;
			if (num(p + 8, &n) || n > INT_MAX)
				return -EINVAL;
			t->nthreads = (long)n;
		} else if (!strncmp(p, "VmRSS:", 6)) {
			if (num(p + 6, &t->vmrss_kb))
				return -EINVAL;
		} else if (!strncmp(p, "VmSwap:", 7)) {
			if (num(p + 7, &t->vmswap_kb))
				return -EINVAL;
		} else if (!strncmp(p, "voluntary_ctxt_switches:", 24)) {
			if (num(p + 24, &t->vol_ctxt))
				return -EINVAL;
			seen++;
		} else if (!strncmp(p, "nonvoluntary_ctxt_switches:", 27)) {
			if (num(p + 27, &t->nonvol_ctxt))
				return -EINVAL;
			seen++;
		}
	}
	return seen >= 2 ? 0 : -EINVAL;
}

/* A smaps mapping header: "start-end perms offset dev inode [path]" (hex start). */
static bool smaps_header(const char *p)
{
	const char *h = p;

	while ((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f'))
		h++;
	return h > p && *h == '-';
}

int ptk_task_parse_stack(const char *buf, struct ptk_task *t)
{
	bool in = false;

	t->stack_kb = t->stack_ref_kb = 0;
	t->stack_ok = true;
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (smaps_header(p)) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			if (in)
				break; /* the next mapping */
			in = n >= 7 && !memcmp(p + n - 7, "[stack]", 7);
		} else if (in && !strncmp(p, "Size:", 5)) {
			num(p + 5, &t->stack_kb);
		} else if (in && !strncmp(p, "Referenced:", 11)) {
			num(p + 11, &t->stack_ref_kb);
		}
	}
	return 0;
}

void ptk_cmdline_escape(const char *raw, size_t len, char *out, size_t size)
{
	size_t o = 0, body = len ? len - 1 : 0;

	/* raw[len - 1] ends the last argument; the NULs before it after the last other byte
	 * pad a rewritten argument area. A last byte that is not a NUL (an argument area
	 * rewritten to its end) is shown when it follows the text directly. */
	while (body && raw[body - 1] == '\0')
		body--;
	if (len && raw[len - 1] != '\0' && body == len - 1)
		body = len;
	len = body;
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

/*
 * fds held open across scans (struct ptk_ptab.keep). Entries are sorted by (kind, id); a
 * scan takes the entries of the tasks it meets into a new array and closes the rest (tasks
 * that exited).
 */
struct keep_ent {
	int id; /* pid (process row) or tid (thread row) */
	int kind; /* 0 process row, 1 thread row; -1 once taken by the current scan */
	int stat_fd, statm_fd, sched_fd;
	unsigned euid; /* owner of the stat file when it was opened */
	bool owner_ok;
	/* PTK_PT_SKIPIDLE: the last full read, the flags it used, schedstat run time then */
	struct ptk_task *last;
	unsigned last_flags;
	int age;
	u64 sum_exec;
};

struct ptk_ptab_keep {
	struct keep_ent *old, *cur;
	int nold, ncur, capold, capcur;
	int held, max_held;
};

struct ptk_ptab_keep *ptk_ptab_keep_new(void)
{
	struct ptk_ptab_keep *k = xcalloc(1, sizeof(*k));
	u64 nofile = ptk_nofile_raise();

	/* leave room for everything else the process opens */
	k->max_held = nofile > 512 ? (int)MIN(nofile - 256, 1u << 22) : 0;
	return k;
}

static void keep_close(struct ptk_ptab_keep *k, struct keep_ent *e)
{
	if (e->stat_fd >= 0) {
		close(e->stat_fd);
		k->held--;
	}
	if (e->statm_fd >= 0) {
		close(e->statm_fd);
		k->held--;
	}
	if (e->sched_fd >= 0) {
		close(e->sched_fd);
		k->held--;
	}
	e->stat_fd = e->statm_fd = e->sched_fd = -1;
	free(e->last);
	e->last = NULL;
}

void ptk_ptab_keep_free(struct ptk_ptab_keep *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->nold; i++)
		keep_close(k, &k->old[i]);
	for (int i = 0; i < k->ncur; i++)
		keep_close(k, &k->cur[i]);
	free(k->old);
	free(k->cur);
	free(k);
}

int ptk_ptab_keep_count(const struct ptk_ptab_keep *k)
{
	return k ? k->held : 0;
}

static int keep_cmp(const void *a, const void *b)
{
	const struct keep_ent *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->id > y->id) - (x->id < y->id);
}

/* The entry of (id, kind) for this scan: moved over from the last scan, or a new one. The
 * pointer is valid until the next keep_take(). */
static struct keep_ent *keep_take(struct ptk_ptab_keep *k, int id, int kind)
{
	struct keep_ent key = {
		.id = id, .kind = kind, .stat_fd = -1, .statm_fd = -1, .sched_fd = -1
	};
	struct keep_ent *e =
		k->nold ? bsearch(&key, k->old, k->nold, sizeof(*k->old), keep_cmp) : NULL;

	if (k->ncur == k->capcur) {
		k->capcur = k->capcur ? k->capcur * 2 : 512;
		k->cur = xrealloc(k->cur, k->capcur * sizeof(*k->cur));
	}
	if (e) {
		k->cur[k->ncur] = *e;
		/* taken: its fds moved (kind stays, the array must stay sorted for bsearch) */
		e->stat_fd = e->statm_fd = e->sched_fd = -1;
		e->last = NULL;
	} else {
		k->cur[k->ncur] = key;
	}
	return &k->cur[k->ncur++];
}

/* End of a scan: close what no task took, make this scan's entries the lookup table. */
static void keep_end(struct ptk_ptab_keep *k)
{
	bool sorted = true;

	for (int i = 0; i < k->nold; i++)
		keep_close(k, &k->old[i]);
	for (int i = 1; i < k->ncur && sorted; i++)
		sorted = keep_cmp(&k->cur[i - 1], &k->cur[i]) < 0;
	if (!sorted)
		qsort(k->cur, k->ncur, sizeof(*k->cur), keep_cmp);
	struct keep_ent *t = k->old;
	int cap = k->capold;
	k->old = k->cur;
	k->nold = k->ncur;
	k->capold = k->capcur;
	k->cur = t;
	k->capcur = cap;
	k->ncur = 0;
}

/*
 * Read a /proc file that the kernel generates in one show() call (stat, statm): one pread
 * at offset 0 is the whole file when it comes back short. Returns bytes or -errno.
 */
static ssize_t pread_whole(int fd, char *buf, size_t size)
{
	ssize_t n;

	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/*
 * Read base/path into buf. With a held-fd slot (fdp != NULL) the fd stays open for the next
 * scan (re-read with pread); a held fd that fails (the task died: -ESRCH) is reopened by
 * path. owner (may be NULL) gets the file's uid when the file is opened here.
 */
static ssize_t read_kept(struct ptk_ptab_keep *k, int *fdp, int base, const char *path, char *buf,
			 size_t size, struct keep_ent *owner)
{
	int fd = fdp ? *fdp : -1;
	ssize_t n;

	if (fd >= 0) {
		n = pread_whole(fd, buf, size);
		if (n > 0) {
			/* the owner can change (setuid): fstat the held fd, no path walk */
			if (owner) {
				struct stat st;
				owner->owner_ok = fstat(fd, &st) == 0;
				owner->euid = st.st_uid;
			}
			return n;
		}
		close(fd);
		k->held--;
		*fdp = -1;
	}
	fd = openat(base, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread_whole(fd, buf, size);
	if (owner && n > 0) {
		struct stat st;
		owner->owner_ok = fstat(fd, &st) == 0;
		owner->euid = st.st_uid;
	}
	if (fdp && k && n > 0 && k->held < k->max_held) {
		*fdp = fd;
		k->held++;
	} else {
		close(fd);
	}
	return n;
}

static void count_fds(int base, const char *path, int *nfds)
{
	int fdd = openat(base, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *fdir = fdd >= 0 ? fdopendir(fdd) : NULL;

	if (!fdir) {
		if (fdd >= 0)
			close(fdd);
		return;
	}
	struct dirent *fe;
	*nfds = 0;
	while ((fe = readdir(fdir)))
		*nfds += fe->d_name[0] >= '0' && fe->d_name[0] <= '9';
	closedir(fdir);
}

/* The [stack] mapping of base/path (an smaps file) into t; big holds the file. */
static void read_stack(int base, const char *path, struct ptk_buf *big, struct ptk_task *t)
{
	if (ptk_read_buf_at(base, path, big) >= 0)
		ptk_task_parse_stack(big->p ? big->p : "", t);
}

/*
 * Read one task: base is a directory fd (the procfs root, or /proc/PID/task) and rel the
 * task's directory under it ("PID" or "TID"); files are opened as "rel/name", without
 * opening the task directory itself. kind: 0 process row, 1 thread row (fd cache key).
 */
static int read_task(struct ptk_ptab *pt, int base, const char *rel, int kind, int tgid,
		     unsigned flags, char *buf, size_t size, struct ptk_buf *big)
{
	struct ptk_ptab_keep *k = pt->keep;
	struct keep_ent tmp = { .stat_fd = -1, .statm_fd = -1, .sched_fd = -1 };
	struct keep_ent *e = k ? keep_take(k, atoi(rel), kind) : &tmp;
	const unsigned reusable =
		PTK_PT_STATM | PTK_PT_OWNER | PTK_PT_CMDLINE | PTK_PT_THREADS | PTK_PT_SKIPIDLE;
	bool can = k && (flags & PTK_PT_SKIPIDLE) && !(flags & ~reusable), same = false;
	u64 sum_exec = 0;
	struct ptk_task *t;
	char path[96];
	ssize_t n;

#define P(name) (snprintf(path, sizeof(path), "%s/%s", rel, name), path)
	/* schedstat before stat: a run time that did not move since then means stat did not */
	if (can && (kind == 1 || !e->last || e->last->nthreads == 1)) {
		bool held = e->sched_fd >= 0;
		n = held ? pread_whole(e->sched_fd, buf, size) : -EBADF;
		if (n <= 0) {
			/* not held, or its task died (a reused pid): this is a new task */
			held = false;
			if (e->sched_fd >= 0) {
				close(e->sched_fd);
				k->held--;
				e->sched_fd = -1;
			}
			n = read_kept(k, &e->sched_fd, base, P("schedstat"), buf, size, NULL);
		}
		sum_exec = n > 0 ? strtoull(buf, NULL, 10) : 0;
		same = held && n > 0 && e->last && e->last_flags == flags &&
		       e->sum_exec == sum_exec && e->age < 10;
	}
	if (same) {
		e->age++;
		t = ptab_add(pt);
		*t = *e->last;
		return 0;
	}
	n = read_kept(k, k ? &e->stat_fd : NULL, base, P("stat"), buf, size,
		      (flags & PTK_PT_OWNER) || k ? e : NULL);
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
	/* the row is the directory it was read from (a copied tree may hold another task's
	 * stat there; the kernel's always agree) */
	t->pid = atoi(rel);
	t->tgid = tgid;
	t->owner_ok = e->owner_ok;
	t->euid = e->euid;
	if (flags & PTK_PT_IO) {
		n = ptk_read_file_at(base, P("io"), buf, size);
		if (n >= 0)
			t->io_ok = ptk_task_parse_io(buf, t) == 0;
		else if (n == -EACCES || n == -EPERM)
			pt->denied++, t->io_denied = true;
	}
	if (flags & PTK_PT_STATUS) {
		n = ptk_read_file_at(base, P("status"), buf, size);
		t->status_ok = n > 0 && ptk_task_parse_status(buf, t) == 0;
	}
	if (flags & PTK_PT_SCHED) {
		n = ptk_read_file_at(base, P("schedstat"), buf, size);
		if (n > 0)
			ptk_task_parse_schedstat(buf, t);
	}
	if (flags & PTK_PT_STATM) {
		n = read_kept(k, k ? &e->statm_fd : NULL, base, P("statm"), buf, size, NULL);
		if (n > 0)
			ptk_task_parse_statm(buf, t);
	}
	if (flags & PTK_PT_CMDLINE) {
		n = ptk_read_file_at(base, P("cmdline"), buf, size);
		if (n > 0)
			ptk_cmdline_escape(buf, n, t->cmdline, sizeof(t->cmdline));
	}
	if (flags & PTK_PT_CGROUP) {
		n = ptk_read_file_at(base, P("cgroup"), buf, size);
		if (n > 0)
			ptk_cgroup_path(buf, t->cgroup, sizeof(t->cgroup));
	}
	if (flags & PTK_PT_FDS)
		count_fds(base, P("fd"), &t->nfds);
	if (flags & PTK_PT_STACK)
		read_stack(base, P("smaps"), big, t);
	if ((flags & PTK_PT_WCHAN) && (t->state == 'D' || (flags & PTK_PT_ALLWCHAN))) {
		n = ptk_read_file_at(base, P("wchan"), buf, 64);
		if (n > 0 && strcmp(buf, "0"))
			snprintf(t->wchan, sizeof(t->wchan), "%s", buf);
	}
#undef P
	if (can) {
		if (!e->last)
			e->last = xmalloc(sizeof(*e->last));
		*e->last = *t;
		e->last_flags = flags;
		e->sum_exec = sum_exec;
		e->age = 0;
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
		     char *buf, size_t size, struct ptk_buf *big)
{
	int tgid = atoi(pidname);
	char path[64];

	if (!(flags & PTK_PT_THREADS)) {
		read_task(pt, rootfd, pidname, 0, tgid, flags, buf, size, big);
		return;
	}
	snprintf(path, sizeof(path), "%s/task", pidname);
	int tfd = openat(rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *td = tfd >= 0 ? fdopendir(tfd) : NULL;
	if (!td) {
		if (tfd >= 0)
			close(tfd);
		else if (errno == ENOENT && faccessat(rootfd, pidname, F_OK, 0) == 0)
			/* snapshot without task/: fall back to the process row */
			read_task(pt, rootfd, pidname, 0, tgid, flags, buf, size, big);
		else
			pt->vanished++;
		return;
	}
	/* cmdline, the fd count and the stack mapping belong to the process: read once, copy
	 * to each thread */
	int first = pt->n;
	const unsigned shared = PTK_PT_CMDLINE | PTK_PT_FDS | PTK_PT_STACK;
	unsigned tflags = flags & ~shared;
	struct dirent *te;
	while ((te = readdir(td))) {
		if (ptk_is_digits(te->d_name))
			read_task(pt, dirfd(td), te->d_name, 1, tgid, tflags, buf, size, big);
	}
	closedir(td);
	if ((flags & shared) && pt->n > first) {
		char cmdline[sizeof(pt->t->cmdline)] = "";
		int nfds = -1;
		struct ptk_task stk = { 0 };
		if (flags & PTK_PT_STACK) {
			snprintf(path, sizeof(path), "%s/smaps", pidname);
			read_stack(rootfd, path, big, &stk);
		}
		if (flags & PTK_PT_CMDLINE) {
			snprintf(path, sizeof(path), "%s/cmdline", pidname);
			ssize_t n = ptk_read_file_at(rootfd, path, buf, size);
			if (n > 0)
				ptk_cmdline_escape(buf, n, cmdline, sizeof(cmdline));
		}
		if (flags & PTK_PT_FDS) {
			snprintf(path, sizeof(path), "%s/fd", pidname);
			count_fds(rootfd, path, &nfds);
		}
		for (int i = first; i < pt->n; i++) {
			memcpy(pt->t[i].cmdline, cmdline, sizeof(cmdline));
			pt->t[i].nfds = nfds;
			pt->t[i].stack_ok = stk.stack_ok;
			pt->t[i].stack_kb = stk.stack_kb;
			pt->t[i].stack_ref_kb = stk.stack_ref_kb;
		}
	}
}

static int scan(const struct ptk_src *src, unsigned flags, const int *pids, int npids,
		struct ptk_ptab *pt)
{
	char root[PATH_MAX], buf[8192];
	struct ptk_buf big = { 0 }; /* smaps */
	struct ptk_ptab_keep *keep = pt->keep;
	bool sorted = true;
	int r;

	pt->n = pt->vanished = pt->denied = 0;
	pt->scanned_ns = ptk_now_ns();
	if (src->replay)
		pt->keep = NULL; /* the root moves every sample: nothing to keep */
	r = ptk_src_path(src, PTK_PROC, ".", root, sizeof(root));
	if (r)
		goto out;
	if (pids) {
		int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (rootfd < 0) {
			r = -errno;
			goto out;
		}
		for (int i = 0; i < npids; i++) {
			char name[16];
			snprintf(name, sizeof(name), "%d", pids[i]);
			scan_one(pt, rootfd, name, flags, buf, sizeof(buf), &big);
		}
		close(rootfd);
	} else {
		DIR *d = opendir(root);
		struct dirent *de;
		if (!d) {
			r = -errno;
			goto out;
		}
		while ((de = readdir(d)))
			if (de->d_name[0] >= '1' && de->d_name[0] <= '9' &&
			    ptk_is_digits(de->d_name))
				scan_one(pt, dirfd(d), de->d_name, flags, buf, sizeof(buf), &big);
		closedir(d);
	}
	if (pt->keep)
		keep_end(pt->keep);
	/* /proc lists pids in ascending order: sort only when it did not */
	for (int i = 1; i < pt->n && sorted; i++)
		sorted = pt->t[i - 1].pid < pt->t[i].pid;
	if (!sorted)
		qsort(pt->t, pt->n, sizeof(*pt->t), cmp_pid);
	if ((flags & PTK_PT_DSTATE) && (flags & PTK_PT_THREADS))
		ptk_ptab_keep_d(pt);
out:
	pt->keep = keep;
	ptk_buf_free(&big);
	return r;
}

void ptk_ptab_wchan_d(const struct ptk_src *src, struct ptk_ptab *pt)
{
	char rel[64], path[PATH_MAX], buf[64];

	for (int i = 0; i < pt->n; i++) {
		struct ptk_task *t = &pt->t[i];
		if (t->state != 'D')
			continue;
		snprintf(rel, sizeof(rel), "%d/task/%d/wchan", t->tgid, t->pid);
		if (ptk_src_path(src, PTK_PROC, rel, path, sizeof(path)) == 0 &&
		    ptk_read_file(path, buf, sizeof(buf)) > 0 && strcmp(buf, "0"))
			snprintf(t->wchan, sizeof(t->wchan), "%s", buf);
	}
}

void ptk_ptab_keep_d(struct ptk_ptab *pt)
{
	int n = 0;

	for (int i = 0; i < pt->n; i++)
		if (pt->t[i].state == 'D') {
			if (n != i)
				pt->t[n] = pt->t[i];
			n++;
		}
	pt->n = n;
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

int ptk_ptab_scan_some(const struct ptk_src *src, unsigned flags, const int *pids, int npids,
		       struct ptk_ptab *pt)
{
	return scan(src, flags, npids > 0 ? pids : NULL, npids, pt);
}

bool ptk_task_alive(const struct ptk_src *src, int pid)
{
	char rel[32], buf[512];
	const char *p;

	snprintf(rel, sizeof(rel), "%d/stat", pid);
	if (ptk_src_read(src, PTK_PROC, rel, buf, sizeof(buf)) <= 0)
		return false;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

int ptk_task_kind(const struct ptk_src *src, int pid)
{
	char rel[32], buf[1024];
	const char *p;
	ssize_t n;
	u64 flags;

	snprintf(rel, sizeof(rel), "%d/stat", pid);
	n = ptk_src_read(src, PTK_PROC, rel, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -EINVAL;
	if (p[2] == 'Z' || p[2] == 'X')
		return PTK_TASK_ZOMBIE;
	/* fields after the state: ppid pgrp session tty_nr tpgid flags (field 9) */
	p += 3;
	for (int i = 0; i < 5 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || num(p, &flags))
		return -EINVAL;
	return flags & 0x00200000 /* PF_KTHREAD, include/linux/sched.h */ ? PTK_TASK_KTHREAD :
									    PTK_TASK_USER;
}

const struct ptk_task *ptk_ptab_find_pid(const struct ptk_ptab *pt, int pid)
{
	int lo = 0, hi = pt->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (pt->t[mid].pid == pid)
			return &pt->t[mid];
		if (pt->t[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

const struct ptk_task *ptk_ptab_find(const struct ptk_ptab *pt, int pid, u64 starttime)
{
	const struct ptk_task *t = ptk_ptab_find_pid(pt, pid);

	return t && t->starttime == starttime ? t : NULL;
}

void ptk_ptab_copy(struct ptk_ptab *dst, const struct ptk_ptab *src)
{
	if (dst->cap < src->n) {
		dst->cap = src->n;
		dst->t = xrealloc(dst->t, (size_t)MAX(dst->cap, 1) * sizeof(*dst->t));
	}
	if (src->n)
		memcpy(dst->t, src->t, (size_t)src->n * sizeof(*src->t));
	dst->n = src->n;
	dst->scanned_ns = src->scanned_ns;
	dst->vanished = src->vanished;
	dst->denied = src->denied;
}

void ptk_ptab_free(struct ptk_ptab *pt)
{
	free(pt->t);
	memset(pt, 0, sizeof(*pt));
}

int ptk_task_cmdline_read(const struct ptk_src *src, int pid, char **out)
{
	struct ptk_buf b = { 0 };
	char rel[32];
	ssize_t n;

	*out = NULL;
	snprintf(rel, sizeof(rel), "%d/cmdline", pid);
	n = ptk_src_read_buf(src, PTK_PROC, rel, &b);
	if (n < 0)
		return (int)n;
	/* worst case: every byte a \ooo escape */
	size_t size = 4 * (size_t)n + 8;
	*out = xmalloc(size);
	ptk_cmdline_escape(b.p ? b.p : "", (size_t)n, *out, size);
	ptk_buf_free(&b);
	return 0;
}

struct ptk_cmdline_ent {
	int pid;
	u64 start;
	char *s;
};

void ptk_cmdlines_update(struct ptk_cmdlines *c, const struct ptk_src *src,
			 const struct ptk_ptab *pt)
{
	struct ptk_cmdline_ent *ne = xcalloc((size_t)MAX(pt->n, 1), sizeof(*ne));
	int j = 0, m = 0;

	/* both sorted by pid: one merge pass keeps what is still there, reads what is new */
	for (int i = 0; i < pt->n; i++) {
		const struct ptk_task *t = &pt->t[i];
		if (m && ne[m - 1].pid == t->pid)
			continue; /* a pid twice (should not be): keep the first */
		while (j < c->n && c->e[j].pid < t->pid)
			free(c->e[j++].s);
		if (j < c->n && c->e[j].pid == t->pid && c->e[j].start == t->starttime) {
			ne[m++] = c->e[j++];
			continue;
		}
		if (j < c->n && c->e[j].pid == t->pid)
			free(c->e[j++].s); /* a reused pid: another process */
		ne[m].pid = t->pid;
		ne[m].start = t->starttime;
		if (ptk_task_cmdline_read(src, t->pid, &ne[m].s))
			ne[m].s = xstrdup("");
		m++;
	}
	while (j < c->n)
		free(c->e[j++].s);
	free(c->e);
	c->e = ne;
	c->n = m;
}

const char *ptk_cmdlines_get(const struct ptk_cmdlines *c, const struct ptk_task *t)
{
	int lo = 0, hi = c->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (c->e[mid].pid == t->pid)
			return c->e[mid].start == t->starttime ? c->e[mid].s : "";
		if (c->e[mid].pid < t->pid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return "";
}

void ptk_cmdlines_free(struct ptk_cmdlines *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->e[i].s);
	free(c->e);
	c->e = NULL;
	c->n = 0;
}
