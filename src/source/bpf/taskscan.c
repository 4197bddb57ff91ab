// SPDX-License-Identifier: GPL-2.0
#include "source/bpf/taskscan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/bpf/runner.h"
#include "source/bpf/taskiter.h"
#include "source/procfs/procfs.h"
/* light skeleton: loaded by a kernel-side loader program, without libbpf's BTF parse */
#include "taskiter.lskel.h"

struct group_sum;

/* The utime and stime a task (a thread, or a group) was last shown with (ns), as the kernel
 * keeps them in prev_cputime for /proc: so that neither goes backwards. */
struct prev_cpu {
	int pid;
	u64 start_ns, ut, st;
};
struct prev_tab {
	struct prev_cpu *v;
	size_t n, cap, at; /* at: the merge cursor of the scan reading it */
};

struct ptk_taskscan {
	struct taskiter_bpf *skel;
	struct ptk_src proc; /* the live /proc, for init (see add_init) */
	struct ptk_ptab_keep *keep; /* init's /proc files, held open across scans */
	bool init_io_denied; /* /proc/1/io failed its access check */
	int init_fd[3]; /* /proc/1/stat, statm, io held open (pid 1 is never reused), or -errno */
	bool init_opened[3];
	struct taskiter_rec *rec;
	size_t cap; /* records */
	struct group_sum *sum; /* process rows: each group's sums, by leader */
	long *lead; /* process rows: the leaders' records */
	struct prev_tab prev[2], next[2]; /* [0] process rows, [1] thread rows: last scan's,
					   * and this scan's as it is built */
	size_t scap;
	long hz, pagesz;
};

int ptk_taskscan_open(struct ptk_taskscan **out)
{
	struct ptk_taskscan *ts = xcalloc(1, sizeof(*ts));
	int err;

	if ((err = ptk_src_init(&ts->proc, NULL, NULL)))
		goto err_close;
	ts->keep = ptk_ptab_keep_new();
	ts->hz = sysconf(_SC_CLK_TCK);
	ts->pagesz = sysconf(_SC_PAGESIZE);
	errno = 0;
	ts->skel = taskiter_bpf__open_and_load();
	if (!ts->skel) {
		err = errno ? -errno : -EINVAL;
		goto err_close;
	}
	err = taskiter_bpf__attach(ts->skel);
	if (err < 0) {
		err = errno ? -errno : -EINVAL;
		goto err_close;
	}
	*out = ts;
	return 0;
err_close:
	ptk_taskscan_close(ts);
	return err;
}

void ptk_taskscan_close(struct ptk_taskscan *ts)
{
	if (!ts)
		return;
	taskiter_bpf__destroy(ts->skel); /* closes the link, program and map fds */
	ptk_ptab_keep_free(ts->keep);
	for (int i = 0; i < 3; i++)
		if (ts->init_opened[i] && ts->init_fd[i] >= 0)
			close(ts->init_fd[i]);
	free(ts->rec);
	free(ts->sum);
	free(ts->lead);
	for (int i = 0; i < 2; i++) {
		free(ts->prev[i].v);
		free(ts->next[i].v);
	}
	free(ts);
}

/* Read every record of one iteration (until the end marker, or end of file on a kernel that
 * does not call the program at the end). Returns the count or -errno. */
static long read_all(struct ptk_taskscan *ts)
{
	union bpf_attr attr = { .iter_create.link_fd = ts->skel->links.dump_task_fd };
	int fd = skel_sys_bpf(BPF_ITER_CREATE, &attr, sizeof(attr));
	size_t n = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (n == ts->cap) {
			ts->cap = ts->cap ? ts->cap * 2 : 4096;
			ts->rec = xrealloc(ts->rec, ts->cap * sizeof(*ts->rec));
		}
		ssize_t r = read(fd, (char *)(ts->rec + n), (ts->cap - n) * sizeof(*ts->rec));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += r / sizeof(*ts->rec);
		if (n && ts->rec[n - 1].pid == TASKITER_END) {
			n--; /* the end marker: no read() left to do */
			break;
		}
	}
	close(fd);
	return n;
}

static char state_letter(unsigned s)
{
	/* fs/proc/array.c task_state_array: R S D T t X Z P I, by the highest bit set */
	static const char letters[] = "RSDTtXZPI";

	if (s == 0x402)
		return 'I';
	if (!s)
		return 'R';
	int i = 32 - __builtin_clz(s);
	return i < (int)sizeof(letters) - 1 ? letters[i] : '?';
}

static u64 ticks(const struct ptk_taskscan *ts, u64 ns)
{
	return ns / (1000000000ull / ts->hz);
}

static void fill(const struct ptk_taskscan *ts, const struct taskiter_rec *r, struct ptk_task *t)
{
	memset(t, 0, sizeof(*t));
	t->pid = r->pid;
	t->tgid = r->tgid;
	t->ppid = r->ppid;
	memcpy(t->comm, r->comm, sizeof(r->comm));
	t->comm[sizeof(r->comm)] = '\0';
	for (char *c = t->comm; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	t->state = state_letter(r->state);
	t->priority = r->prio - 100;
	t->nice = r->static_prio - 120;
	t->nthreads = r->nr_threads;
	t->processor = r->cpu;
	t->starttime = ticks(ts, r->start_boottime_ns);
	t->vsize = r->total_vm * ts->pagesz;
	s64 res = r->rss_file + r->rss_anon + r->rss_shmem;
	t->rss_pages = res > 0 ? res : 0;
	t->statm_ok = true;
	t->statm_size = r->total_vm;
	t->statm_resident = t->rss_pages;
	t->statm_shared = MAX(r->rss_file + r->rss_shmem, 0);
	t->owner_ok = true;
	t->euid = r->euid;
	t->nfds = -1;
	/* status: Uid, the task's own context switches, VmRSS/VmSwap (0 without an mm) */
	t->status_ok = true;
	t->uid = r->uid;
	t->vol_ctxt = r->nvcsw;
	t->nonvol_ctxt = r->nivcsw;
	t->vmrss_kb = t->rss_pages * (ts->pagesz / 1024);
	t->vmswap_kb = MAX(r->rss_swap, 0) * (ts->pagesz / 1024);
	memcpy(t->name, t->comm, sizeof(t->name));
	/* schedstat of the task itself (for a process: its leader, as /proc/PID/schedstat) */
	t->sched_ok = r->has_sched;
	t->run_delay_ns = r->run_delay_ns;
	/* stat field 42: the task's own (a process's leader's) block I/O delay */
	t->blkio_ticks = ticks(ts, r->blkio_delay_ns);
}

/* The last values shown of task pid started at start_ns, NULL for none: a merge walk, the
 * rows coming in pid order as the last scan's did (else a binary search). */
static struct prev_cpu *prev_find(struct prev_tab *pt, int pid, u64 start_ns)
{
	size_t lo = 0, hi = pt->n;

	if (pt->at < pt->n && pt->v[pt->at].pid <= pid) {
		while (pt->at < pt->n && pt->v[pt->at].pid < pid)
			pt->at++;
		lo = pt->at;
		hi = MIN(pt->at + 1, pt->n);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pt->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < pt->n && pt->v[lo].pid == pid && pt->v[lo].start_ns == start_ns)
		return &pt->v[lo];
	return NULL;
}

/*
 * utime and stime as /proc shows them (kernel/sched/cputime.c cputime_adjust): the tick-
 * sampled split scaled so that their sum is the precise runtime (sum_exec_runtime, ns), and
 * neither below what this scanner showed last for the same task (kind 0 a group's, 1 a
 * thread's; /proc's memory is the kernel's prev_cputime): a split that moved would make a
 * rate negative. Sets the two in USER_HZ ticks.
 */
static void cputime_adjust(struct ptk_taskscan *ts, int kind, int pid, u64 start_ns, u64 ut, u64 st,
			   u64 rt, struct ptk_task *t)
{
	struct prev_cpu *p = prev_find(&ts->prev[kind], pid, start_ns), *q;
	struct prev_tab *nt = &ts->next[kind];
	u64 put = p ? p->ut : 0, pst = p ? p->st : 0;

	if (put + pst >= rt) {
		ut = put;
		st = pst;
	} else {
		if (st == 0)
			ut = rt;
		else if (ut == 0)
			st = rt;
		else
			st = (u64)((unsigned __int128)st * rt / (st + ut));
		st = MAX(st, pst);
		ut = rt - st;
		if (ut < put) {
			ut = put;
			st = rt - ut;
		}
	}
	if (nt->n == nt->cap)
		nt->v = xrealloc(nt->v, (nt->cap = nt->cap ? 2 * nt->cap : 256) * sizeof(*nt->v));
	q = &nt->v[nt->n++];
	*q = (struct prev_cpu){ .pid = pid, .start_ns = start_ns, .ut = ut, .st = st };
	t->utime = ticks(ts, ut);
	t->stime = ticks(ts, st);
}

/* A scan of kind's rows begins: the last one's values are the ones to look up. */
static void prev_begin(struct ptk_taskscan *ts, int kind)
{
	struct prev_tab tmp = ts->prev[kind];

	ts->prev[kind] = ts->next[kind];
	ts->prev[kind].at = 0;
	ts->next[kind] = tmp;
	ts->next[kind].n = 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct taskiter_rec *x = a, *y = b;

	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* pread one of init's files, opened on first use and held. Returns the length or -errno. */
static ssize_t init_read(struct ptk_taskscan *ts, int i, char *buf, size_t size)
{
	static const char *const files[] = { "/proc/1/stat", "/proc/1/statm", "/proc/1/io" };
	ssize_t n;

	if (!ts->init_opened[i]) {
		ts->init_opened[i] = true;
		ts->init_fd[i] = open(files[i], O_RDONLY | O_CLOEXEC);
		if (ts->init_fd[i] < 0)
			ts->init_fd[i] = -errno;
	}
	if (ts->init_fd[i] < 0)
		return ts->init_fd[i];
	n = pread(ts->init_fd[i], buf, size - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/*
 * init as a process row from its held stat, statm and io files: what the iterator serves
 * for record and top (the owner, statm, io), without the /proc scan's directory walk.
 * Returns 0, or -errno when the generic scan must do it.
 */
static int init_fast(struct ptk_taskscan *ts, unsigned flags, struct ptk_task *t)
{
	char buf[1024];
	struct stat sb;

	memset(t, 0, sizeof(*t));
	t->nfds = -1;
	if (init_read(ts, 0, buf, sizeof(buf)) <= 0 || ptk_task_parse_stat(buf, t))
		return -ENOENT;
	t->tgid = 1;
	if (flags & PTK_PT_OWNER) {
		/* /proc/1's owner (euid, root when not dumpable), as fstat of its stat shows */
		t->owner_ok = fstat(ts->init_fd[0], &sb) == 0;
		t->euid = sb.st_uid;
	}
	if ((flags & PTK_PT_STATM) && init_read(ts, 1, buf, sizeof(buf)) > 0)
		ptk_task_parse_statm(buf, t);
	if (!(flags & PTK_PT_IO))
		return 0;
	ssize_t n = init_read(ts, 2, buf, sizeof(buf));
	if (n > 0)
		t->io_ok = ptk_task_parse_io(buf, t) == 0;
	else
		t->io_denied = n == -EACCES || n == -EPERM;
	return 0;
}

/*
 * Make the first hole rows of pt (left free for init by rows_begin) n rows: move the rows
 * after them once, only when the counts differ.
 */
static void init_slots(struct ptk_ptab *pt, int hole, int n)
{
	if (n == hole)
		return;
	if (pt->cap < pt->n - hole + n) {
		pt->cap = pt->n - hole + n;
		pt->t = xrealloc(pt->t, pt->cap * sizeof(*pt->t));
	}
	memmove(pt->t + n, pt->t + hole, (pt->n - hole) * sizeof(*pt->t));
	pt->n += n - hole;
}

/* The task iterator of some kernels (seen on 6.18) starts after pid 1: read init from /proc
 * and put it first (in the hole rows that rows_begin left), so both sources list the same
 * tasks. */
static void add_init(struct ptk_taskscan *ts, unsigned flags, struct ptk_ptab *pt, int hole)
{
	struct ptk_ptab one = { .keep = ts->keep };
	static const int init = 1;

	if (ts->init_io_denied)
		flags &= ~PTK_PT_IO; /* asked once: the access check will not pass later */
	if (!hole)
		return;
	/* the held files when they serve the flags, else the /proc scan of pid 1 */
	if (!(flags & ~(PTK_PT_OWNER | PTK_PT_STATM | PTK_PT_IO | PTK_PT_SKIPIDLE))) {
		one.t = xmalloc(sizeof(*one.t));
		one.cap = 1;
		if (init_fast(ts, flags, &one.t[0]) == 0)
			one.n = 1;
	}
	if (!one.n &&
	    (ptk_ptab_scan_pids(&ts->proc, flags & ~PTK_PT_SKIPIDLE, &init, 1, &one) || !one.n)) {
		init_slots(pt, hole, 0);
		ptk_ptab_free(&one);
		return;
	}
	init_slots(pt, hole, one.n);
	memcpy(pt->t, one.t, one.n * sizeof(*pt->t));
	if (one.t[0].io_denied)
		ts->init_io_denied = true;
	if (ts->init_io_denied)
		for (int i = 0; i < one.n; i++)
			pt->t[i].io_denied = true;
	ptk_ptab_free(&one);
}

static void add_io(struct taskiter_io *sum, const struct taskiter_io *io)
{
	sum->rchar += io->rchar;
	sum->wchar += io->wchar;
	sum->read_bytes += io->read_bytes;
	sum->write_bytes += io->write_bytes;
	sum->cancelled_write_bytes += io->cancelled_write_bytes;
}

/* The task's /proc/PID/io counters. */
static void set_io(struct ptk_task *t, const struct taskiter_io *io)
{
	t->rchar = io->rchar;
	t->wchar = io->wchar;
	t->read_bytes = io->read_bytes;
	t->write_bytes = io->write_bytes;
	t->cancelled_write_bytes = io->cancelled_write_bytes;
}

/* Start a table of up to n rows after hole rows left free (for init, add_init). */
static void rows_begin(struct ptk_ptab *pt, long n, int hole)
{
	pt->n = pt->vanished = pt->denied = 0;
	pt->scanned_ns = ptk_now_ns();
	if (pt->cap < n + hole) {
		pt->cap = n + hole;
		pt->t = xrealloc(pt->t, pt->cap * sizeof(*pt->t));
	}
	pt->n = hole;
}

/* The rows to leave for init: 1 when the n records lack it (it would be the first). */
static int init_hole(const struct ptk_taskscan *ts, long n)
{
	return !(n && ts->rec[0].pid == 1);
}

/* Thread rows from the n records of one iteration (in tid order, as the /proc scan sorts). */
static void thread_rows(struct ptk_taskscan *ts, long n, unsigned flags, struct ptk_ptab *pt)
{
	int hole = init_hole(ts, n);

	rows_begin(pt, n, hole);
	prev_begin(ts, 1);
	for (long i = 0; i < n; i++) {
		const struct taskiter_rec *r = &ts->rec[i];
		if ((flags & PTK_PT_DSTATE) && state_letter(r->state) != 'D')
			continue;
		struct ptk_task *t = &pt->t[pt->n++];
		fill(ts, r, t);
		cputime_adjust(ts, 1, r->pid, r->start_boottime_ns, r->utime_ns, r->stime_ns,
			       r->runtime_ns, t);
		t->minflt = ts->rec[i].min_flt;
		t->majflt = ts->rec[i].maj_flt;
		t->gtime = ticks(ts, ts->rec[i].gtime_ns);
		t->io_ok = ts->rec[i].has_io;
		set_io(t, &ts->rec[i].io);
	}
	add_init(ts, (flags & ~PTK_PT_DSTATE) | PTK_PT_THREADS, pt, hole);
	if (flags & PTK_PT_DSTATE)
		ptk_ptab_keep_d(pt); /* init's rows */
}

/* A thread group's counters, summed over its live threads. */
struct group_sum {
	u64 ut, st, rt, mi, ma, gt; /* ns, ns, ns, faults, faults, ns */
	struct taskiter_io io;
};

static void sum_add(struct group_sum *g, const struct taskiter_rec *r)
{
	g->ut += r->utime_ns;
	g->st += r->stime_ns;
	g->rt += r->runtime_ns;
	g->mi += r->min_flt;
	g->ma += r->maj_flt;
	g->gt += r->gtime_ns;
	add_io(&g->io, &r->io);
}

/* The group leaders (tid == tgid) in record order into ts->lead, their own counters into
 * ts->sum. Returns their count, or -1 when they are not in ascending order. */
static long leaders(struct ptk_taskscan *ts, long n)
{
	long nl = 0;

	for (long i = 0; i < n; i++) {
		const struct taskiter_rec *r = &ts->rec[i];
		if (r->pid != r->tgid)
			continue;
		if (nl && ts->rec[ts->lead[nl - 1]].tgid >= r->tgid)
			return -1;
		ts->lead[nl] = i;
		memset(&ts->sum[nl], 0, sizeof(ts->sum[nl]));
		sum_add(&ts->sum[nl], r);
		nl++;
	}
	return nl;
}

/* The index in ts->lead of the leader of tgid, or -1 (the leader is gone). */
static long leader_of(const struct ptk_taskscan *ts, long nl, int tgid)
{
	long lo = 0, hi = nl - 1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		int g = ts->rec[ts->lead[mid]].tgid;
		if (g == tgid)
			return mid;
		if (g < tgid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * Process rows: a thread group's live threads summed, plus its exited threads, in pid order.
 * The iterator goes in tid order, so the leaders come in pid order: the other threads are
 * added to theirs by a binary search, without sorting the records (which, in (tgid, tid)
 * order, they are not as soon as one process has threads). A group whose leader is gone
 * has no row, as in /proc.
 */
static void process_rows(struct ptk_taskscan *ts, long n, unsigned flags, struct ptk_ptab *pt)
{
	long nl;
	int hole;

	if (ts->scap < (size_t)n) {
		ts->scap = n;
		ts->sum = xrealloc(ts->sum, ts->scap * sizeof(*ts->sum));
		ts->lead = xrealloc(ts->lead, ts->scap * sizeof(*ts->lead));
	}
	nl = leaders(ts, n);
	if (nl < 0) {
		/* not in tid order (another kernel's iterator): sort them */
		qsort(ts->rec, n, sizeof(*ts->rec), cmp_rec);
		nl = leaders(ts, n);
	}
	hole = init_hole(ts, n);
	rows_begin(pt, n, hole);
	prev_begin(ts, 0);
	for (long i = 0; i < n; i++) {
		const struct taskiter_rec *r = &ts->rec[i];
		long g = r->pid == r->tgid ? -1 : leader_of(ts, nl, r->tgid);
		if (g >= 0)
			sum_add(&ts->sum[g], r);
	}
	for (long k = 0; k < nl; k++) {
		const struct taskiter_rec *lead = &ts->rec[ts->lead[k]];
		struct group_sum *g = &ts->sum[k];
		struct ptk_task *t = &pt->t[pt->n++];
		fill(ts, lead, t);
		/* thread_group_cputime_adjusted: the group's sums, then the same scaling */
		cputime_adjust(ts, 0, lead->pid, lead->start_boottime_ns,
			       g->ut + lead->sig_utime_ns, g->st + lead->sig_stime_ns,
			       g->rt + lead->sig_runtime_ns, t);
		t->minflt = g->mi + lead->sig_min_flt;
		t->majflt = g->ma + lead->sig_maj_flt;
		t->gtime = ticks(ts, g->gt + lead->sig_gtime_ns);
		/* /proc/PID/io of a process: signal->ioac plus every live thread's */
		t->io_ok = lead->has_io;
		add_io(&g->io, &lead->sig_io);
		set_io(t, &g->io);
	}
	add_init(ts, flags & ~PTK_PT_THREADS, pt, hole);
}

int ptk_taskscan_scan(struct ptk_taskscan *ts, unsigned flags, struct ptk_ptab *pt)
{
	long n = read_all(ts);

	if (n < 0) {
		rows_begin(pt, 0, 0);
		return n;
	}
	if (flags & PTK_PT_THREADS)
		thread_rows(ts, n, flags, pt);
	else
		process_rows(ts, n, flags, pt);
	return 0;
}

int ptk_taskscan_scan_both(struct ptk_taskscan *ts, unsigned flags, struct ptk_ptab *procs,
			   struct ptk_ptab *threads)
{
	long n = read_all(ts);

	if (n < 0) {
		rows_begin(procs, 0, 0);
		rows_begin(threads, 0, 0);
		return n;
	}
	thread_rows(ts, n, flags, threads); /* before process_rows reorders the records */
	process_rows(ts, n, flags & ~PTK_PT_DSTATE, procs);
	return 0;
}

struct ptk_taskscan *ptk_taskscan_auto(const struct ptk_src *src, long min_tasks)
{
	const char *force = getenv("PTK_TASK_SOURCE");
	struct ptk_taskscan *ts = NULL;
	struct ptk_loadavg la;

	if (!ptk_src_is_live(src) || (force && !strcmp(force, "proc")))
		return NULL;
	if (!(force && !strcmp(force, "bpf")) &&
	    (geteuid() != 0 ||
	     (min_tasks > 0 && (ptk_loadavg_read(src, &la) || la.nr_threads < min_tasks))))
		return NULL;
	if (ptk_taskscan_open(&ts))
		return NULL;
	return ts;
}

int ptk_taskscan_or_proc(struct ptk_taskscan *ts, const struct ptk_src *src, unsigned flags,
			 const int *pids, int npids, struct ptk_ptab *pt)
{
	if (ts && npids <= 0 && !(flags & ~PTK_TASKSCAN_FLAGS))
		return ptk_taskscan_scan(ts, flags, pt);
	return ptk_ptab_scan_some(src, flags, pids, npids, pt);
}
