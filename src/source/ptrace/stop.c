// SPDX-License-Identifier: GPL-2.0
/* Seize, interrupt and read every thread of a process; detach; the measured pause. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "source/ptrace/stop.h"

#define RED_ZONE 128 /* x86_64 ABI: below rsp, leaf functions may keep data */
#define XSTATE_MAX (64 * 1024)

/* Mapping ranges of /proc/PID/maps, to bound each stack copy at its mapping's end. */
struct range {
	u64 start, end;
};

static int read_ranges(pid_t pid, struct range **out, int *n)
{
	char path[64], line[512];
	int cap = 0;
	FILE *f;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		size_t l = strlen(line);

		if (sscanf(line, "%llx-%llx", &s, &e) == 2) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 256;
				*out = xrealloc(*out, cap * sizeof(**out));
			}
			(*out)[(*n)++] = (struct range){ s, e };
		}
		/* a long path: skip the rest of the line */
		while (l && line[l - 1] != '\n' && fgets(line, sizeof(line), f))
			l = strlen(line);
	}
	fclose(f);
	return 0;
}

static u64 range_end(const struct range *r, int n, u64 addr)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (addr < r[mid].start)
			hi = mid - 1;
		else if (addr >= r[mid].end)
			lo = mid + 1;
		else
			return r[mid].end;
	}
	return 0;
}

ssize_t ptk_stop_read_mem(pid_t pid, int memfd, u64 addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		struct iovec local = { (char *)buf + done, len - done };
		struct iovec remote = { (void *)(uintptr_t)(addr + done), len - done };
		ssize_t r = process_vm_readv(pid, &local, 1, &remote, 1, 0);

		if (r > 0) {
			done += r;
			continue;
		}
		/* the first page failed: /proc/PID/mem reads with FOLL_FORCE (PROT_NONE too) */
		if (memfd < 0)
			break;
		size_t page = 4096 - ((addr + done) & 4095);
		r = pread(memfd, (char *)buf + done, MIN(page, len - done), addr + done);
		if (r <= 0)
			break;
		done += r;
	}
	if (done == 0 && len)
		return -EFAULT;
	return done;
}

static struct ptk_stop_thread *find_tid(struct ptk_stop *st, pid_t tid)
{
	for (int i = 0; i < st->n; i++)
		if (st->t[i].tid == tid)
			return &st->t[i];
	return NULL;
}

/* Add threads of /proc/PID/task not yet known. Returns the number added, or -errno. */
static int scan_tasks(struct ptk_stop *st)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int added = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", st->pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((d = readdir(dir))) {
		int tid;
		struct ptk_stop_thread *t;

		if (ptk_parse_int(d->d_name, &tid) || tid <= 0 || find_tid(st, tid))
			continue;
		if (st->n == st->cap) {
			st->cap = st->cap ? st->cap * 2 : 16;
			st->t = xrealloc(st->t, st->cap * sizeof(*st->t));
		}
		t = &st->t[st->n++];
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		t->err = -EAGAIN; /* not seized yet */
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", st->pid, tid);
		if (ptk_read_file(path, t->comm, sizeof(t->comm)) > 0)
			t->comm[strcspn(t->comm, "\n")] = '\0';
		added++;
	}
	closedir(dir);
	return added;
}

/* Seize threads [from, n). Returns 0, or -errno of a refusal other than a thread gone. */
static int seize_new(struct ptk_stop *st, int from)
{
	for (int i = from; i < st->n; i++) {
		struct ptk_stop_thread *t = &st->t[i];

		if (ptrace(PTRACE_SEIZE, t->tid, 0, 0) == 0) {
			t->err = -EINPROGRESS; /* seized, not stopped */
		} else if (errno == ESRCH) {
			t->err = -ESRCH;
		} else {
			t->err = -errno;
			return t->err;
		}
	}
	return 0;
}

static void interrupt_new(struct ptk_stop *st, int from)
{
	for (int i = from; i < st->n; i++) {
		struct ptk_stop_thread *t = &st->t[i];

		if (t->err != -EINPROGRESS)
			continue;
		if (!st->stop_ns)
			st->stop_ns = ptk_now_ns();
		if (ptrace(PTRACE_INTERRUPT, t->tid, 0, 0))
			t->err = -errno;
	}
}

/* Wait for the stops of threads [from, n). */
static void wait_new(struct ptk_stop *st, int from)
{
	for (int i = from; i < st->n; i++) {
		struct ptk_stop_thread *t = &st->t[i];
		int status;

		if (t->err != -EINPROGRESS)
			continue;
		for (;;) {
			pid_t r = waitpid(t->tid, &status, __WALL);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				t->err = -errno;
				break;
			}
			if (WIFEXITED(status) || WIFSIGNALED(status)) {
				t->err = -ESRCH;
				break;
			}
			if (WIFSTOPPED(status)) {
				/* PTRACE_EVENT_STOP: our interrupt or a group-stop; otherwise a
				 * signal-delivery-stop whose signal goes back at detach */
				if ((status >> 16) != PTRACE_EVENT_STOP)
					t->sig = WSTOPSIG(status);
				t->err = 0;
				break;
			}
		}
	}
}

static void read_thread(struct ptk_stop *st, struct ptk_stop_thread *t, const struct range *r,
			int nr, void *xbuf)
{
	struct iovec iov = { &t->regs, sizeof(t->regs) };

	if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS, &iov)) {
		t->err = -errno;
		return;
	}
	if (st->flags & PTK_STOP_FPREGS) {
		iov = (struct iovec){ &t->fpregs, sizeof(t->fpregs) };
		t->have_fpregs = ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRFPREG, &iov) == 0;
		iov = (struct iovec){ xbuf, XSTATE_MAX };
		if (xbuf && ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_X86_XSTATE, &iov) == 0 &&
		    iov.iov_len) {
			t->xstate = xmalloc(iov.iov_len);
			memcpy(t->xstate, xbuf, iov.iov_len);
			t->xstate_len = iov.iov_len;
		}
	}
	if (st->flags & PTK_STOP_SIGINFO)
		t->have_siginfo = ptrace(PTRACE_GETSIGINFO, t->tid, 0, &t->siginfo) == 0;
	if (st->flags & PTK_STOP_STACKS) {
		u64 lo = t->regs.rsp - RED_ZONE, end = range_end(r, nr, t->regs.rsp);
		ssize_t got;

		if (!end) /* a mapping newer than our read of the maps */
			end = lo + st->stack_max;
		end = MIN(end, lo + st->stack_max);
		if (end <= lo)
			return;
		t->stack.data = xmalloc(end - lo);
		got = ptk_stop_read_mem(st->pid, -1, lo, t->stack.data, end - lo);
		if (got <= 0 && (got = ptk_stop_read_mem(st->pid, -1, t->regs.rsp, t->stack.data,
							 end - t->regs.rsp)) > 0)
			lo = t->regs.rsp; /* red zone unreadable (sp at the mapping start) */
		if (got > 0) {
			t->stack.start = lo;
			t->stack.len = got;
		} else {
			free(t->stack.data);
			t->stack.data = NULL;
		}
	}
}

int ptk_stop_all(pid_t pid, unsigned flags, size_t stack_max, struct ptk_stop *st)
{
	struct range *ranges = NULL;
	void *xbuf = NULL;
	int nr = 0, from = 0, err, n;

	memset(st, 0, sizeof(*st));
	st->pid = pid;
	st->flags = flags;
	st->stack_max = stack_max;
	if (pid <= 0)
		return -ESRCH;
	if ((flags & PTK_STOP_STACKS) && (err = read_ranges(pid, &ranges, &nr)))
		return err == -ENOENT ? -ESRCH : err;
	if ((n = scan_tasks(st)) <= 0) {
		free(ranges);
		return n ? n : -ESRCH;
	}
	/* seize, interrupt, wait; again for threads born meanwhile, until none is */
	do {
		if ((err = seize_new(st, from)))
			goto out_release;
		interrupt_new(st, from);
		wait_new(st, from);
		from = st->n;
	} while ((n = scan_tasks(st)) > 0);
	if (n < 0) {
		err = n;
		goto out_release;
	}
	st->stopped = true;
	if (flags & PTK_STOP_FPREGS)
		xbuf = xmalloc(XSTATE_MAX);
	for (int i = 0; i < st->n; i++)
		if (st->t[i].err == 0)
			read_thread(st, &st->t[i], ranges, nr, xbuf);
	free(xbuf);
	free(ranges);
	/* the leader first (gdb takes the first NT_PRSTATUS as the current thread) */
	for (int i = 1; i < st->n; i++) {
		if (st->t[i].tid == pid) {
			struct ptk_stop_thread lead = st->t[i];
			memmove(&st->t[1], &st->t[0], i * sizeof(st->t[0]));
			st->t[0] = lead;
			break;
		}
	}
	if (ptk_stop_count(st) == 0) {
		ptk_stop_resume(st);
		return -ESRCH;
	}
	return 0;

out_release:
	free(ranges);
	st->stopped = true;
	ptk_stop_resume(st);
	return err;
}

int ptk_stop_one_held(pid_t pid, pid_t tid, unsigned flags, size_t stack_max, struct ptk_stop *st)
{
	struct range *r = NULL;
	int nr = 0, err;

	memset(st, 0, sizeof(*st));
	st->pid = pid;
	st->flags = flags & ~PTK_STOP_FPREGS;
	st->stack_max = stack_max;
	st->t = xcalloc(1, sizeof(*st->t));
	st->n = st->cap = 1;
	st->t[0].tid = tid;
	if ((flags & PTK_STOP_STACKS) && (err = read_ranges(pid, &r, &nr))) {
		free(st->t);
		memset(st, 0, sizeof(*st));
		return err;
	}
	read_thread(st, &st->t[0], r, nr, NULL);
	free(r);
	/* not ours to resume: the tracer holding it resumes it */
	st->stopped = false;
	return st->t[0].err;
}

int ptk_stop_resume(struct ptk_stop *st)
{
	int err = 0;

	if (!st->stopped)
		return 0;
	for (int i = 0; i < st->n; i++) {
		struct ptk_stop_thread *t = &st->t[i];

		/* held: stopped (0), read failed after the stop, or seized not yet stopped */
		if (t->err == -ESRCH || t->err == -EAGAIN || t->err == -EPERM)
			continue;
		if (ptrace(PTRACE_DETACH, t->tid, 0, (void *)(long)t->sig) && errno != ESRCH &&
		    !err)
			err = -errno;
	}
	st->resume_ns = ptk_now_ns();
	st->stopped = false;
	return err;
}

u64 ptk_stop_pause_ns(const struct ptk_stop *st)
{
	if (!st->stop_ns)
		return 0;
	return (st->resume_ns ? st->resume_ns : ptk_now_ns()) - st->stop_ns;
}

int ptk_stop_count(const struct ptk_stop *st)
{
	int n = 0;

	for (int i = 0; i < st->n; i++)
		n += st->t[i].err == 0;
	return n;
}

void ptk_stop_free(struct ptk_stop *st)
{
	ptk_stop_resume(st);
	for (int i = 0; i < st->n; i++) {
		free(st->t[i].xstate);
		free(st->t[i].stack.data);
	}
	free(st->t);
	memset(st, 0, sizeof(*st));
}
