// SPDX-License-Identifier: GPL-2.0
#include "source/ptrace/ptrace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/child.h"
#include "source/ptrace/syscalls.h"

#define HASH(pid) ((unsigned)(pid) & (ARRAY_SIZE(((struct ptk_tracer *)0)->hash) - 1))

void ptk_tracer_init(struct ptk_tracer *tr, const struct ptk_tracer_ops *ops, void *arg)
{
	memset(tr, 0, sizeof(*tr));
	tr->ops = ops;
	tr->arg = arg;
}

struct ptk_tcb *ptk_tracer_find(struct ptk_tracer *tr, pid_t pid)
{
	for (struct ptk_tcb *t = tr->hash[HASH(pid)]; t; t = t->next)
		if (t->pid == pid)
			return t;
	return NULL;
}

static struct ptk_tcb *tcb_add(struct ptk_tracer *tr, pid_t pid)
{
	struct ptk_tcb *t = xcalloc(1, sizeof(*t));

	t->pid = pid;
	t->memfd = -1;
	t->nr = -1;
	t->next = tr->hash[HASH(pid)];
	tr->hash[HASH(pid)] = t;
	tr->ntcb++;
	if (tr->ops->added)
		tr->ops->added(tr, t);
	return t;
}

static void tcb_del(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	struct ptk_tcb **pp = &tr->hash[HASH(t->pid)];

	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	if (t->memfd >= 0)
		close(t->memfd);
	tr->ntcb--;
	free(t);
}

static void tcb_gone(struct ptk_tracer *tr, struct ptk_tcb *t, int status)
{
	if (tr->ops->gone)
		tr->ops->gone(tr, t, status);
	tcb_del(tr, t);
}

static unsigned trace_options(const struct ptk_tracer *tr)
{
	unsigned o = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC;

	if (tr->follow)
		o |= PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	if (tr->seccomp)
		o |= PTRACE_O_TRACESECCOMP;
	return o; /* never PTRACE_O_EXITKILL: tracees must survive our death */
}

/* ---- seccomp filter -------------------------------------------------------------------- */

int ptk_seccomp_build(const bool *sel, struct sock_filter **out)
{
	/* worst case: 3 instructions per selected number plus the prologue */
	size_t cap = 8 + 3 * PTK_NSYSCALLS, n = 0;
	struct sock_filter *f = xcalloc(cap, sizeof(*f));

#define EMIT(c, k, jt, jf) (f[n++] = (struct sock_filter)BPF_JUMP(c, k, jt, jf))
	EMIT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
	/* another ABI (int 0x80 i386 calls): trace everything, numbers differ */
	EMIT(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	EMIT(BPF_RET | BPF_K, SECCOMP_RET_TRACE, 0, 0);
	EMIT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
	/* x32 numbers (bit 30): trace */
	EMIT(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
	EMIT(BPF_RET | BPF_K, SECCOMP_RET_TRACE, 0, 0);
	for (int lo = 0; lo < PTK_NSYSCALLS; lo++) {
		int hi = lo;
		if (!sel[lo])
			continue;
		while (hi + 1 < PTK_NSYSCALLS && sel[hi + 1])
			hi++;
		if (lo == hi) {
			EMIT(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 1);
		} else {
			/* nr < lo: skip the test of hi and the return */
			EMIT(BPF_JMP | BPF_JGE | BPF_K, lo, 0, 2);
			EMIT(BPF_JMP | BPF_JGT | BPF_K, hi, 1, 0);
		}
		EMIT(BPF_RET | BPF_K, SECCOMP_RET_TRACE, 0, 0);
		lo = hi;
	}
	EMIT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
#undef EMIT
	if (n > BPF_MAXINSNS) {
		free(f);
		return -E2BIG;
	}
	*out = f;
	return (int)n;
}

/* ---- starting and seizing ------------------------------------------------------------- */

int ptk_tracer_launch(struct ptk_tracer *tr, char **argv, const struct sock_fprog *filter)
{
	int sync[2];
	pid_t pid;
	char c = 0;
	struct ptk_tcb *t;
	char path[PATH_MAX];
	int rc;

	/* found before the fork: the trace begins with the one execve that runs it */
	if ((rc = ptk_child_find(argv[0], path, sizeof(path))))
		return rc;
	if (pipe2(sync, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(sync[0]);
		close(sync[1]);
		return -e;
	}
	if (pid == 0) {
		/* child: wait until the parent has seized us, then filter and exec */
		close(sync[1]);
		if (read(sync[0], &c, 1) != 1)
			_exit(127);
		close(sync[0]);
		/* ptk's own signal handling and mounts are not the program's */
		ptk_child_prepare();
		if (filter) {
			if (geteuid() != 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
				fprintf(stderr, "%s: PR_SET_NO_NEW_PRIVS: %s\n", ptk_progname,
					strerror(errno));
				_exit(127);
			}
			if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, filter)) {
				fprintf(stderr, "%s: seccomp filter: %s\n", ptk_progname,
					strerror(errno));
				_exit(127);
			}
		}
		execv(path, argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", ptk_progname, argv[0], strerror(errno));
		_exit(127);
	}
	close(sync[0]);
	if (ptrace(PTRACE_SEIZE, pid, 0L, (long)trace_options(tr)) ||
	    ptrace(PTRACE_INTERRUPT, pid, 0L, 0L)) {
		int e = errno;
		kill(pid, SIGKILL);
		close(sync[1]);
		waitpid(pid, NULL, 0);
		return -e;
	}
	tr->launched = pid;
	t = tcb_add(tr, pid);
	t->hide = true; /* the child's own setup is not shown: the trace starts at execve */
	if (write(sync[1], &c, 1) != 1) {
		int e = errno;
		close(sync[1]);
		return -e;
	}
	close(sync[1]);
	return 0;
}

int ptk_tracer_attach(struct ptk_tracer *tr, pid_t pid)
{
	char path[64];
	int n = 0, added;

	/* threads may be created while we seize: repeat until a pass adds none */
	do {
		DIR *d;
		struct dirent *de;

		added = 0;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		d = opendir(path);
		if (!d)
			return n ? n : -errno;
		while ((de = readdir(d))) {
			int tid = atoi(de->d_name);
			if (tid <= 0 || ptk_tracer_find(tr, tid))
				continue;
			if (ptrace(PTRACE_SEIZE, tid, 0L, (long)trace_options(tr))) {
				int e = errno;
				if (e == ESRCH)
					continue; /* thread exited meanwhile */
				closedir(d);
				return n ? n : -e;
			}
			ptrace(PTRACE_INTERRUPT, tid, 0L, 0L);
			tcb_add(tr, tid);
			n++;
			added++;
		}
		closedir(d);
	} while (added);
	return n ? n : -ESRCH;
}

/* ---- memory --------------------------------------------------------------------------- */

ssize_t ptk_tracee_read(struct ptk_tcb *t, u64 addr, void *buf, size_t len)
{
	struct iovec l = { buf, len }, r = { (void *)(uintptr_t)addr, len };
	ssize_t n;

	if (!len)
		return 0;
	if (t->mem_read)
		return t->mem_read(t, addr, buf, len);
	if (t->memfd < 0) {
		n = process_vm_readv(t->pid, &l, 1, &r, 1, 0);
		if (n >= 0)
			return n;
		if (errno != EPERM && errno != ENOSYS)
			return -errno;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/mem", t->pid);
		t->memfd = open(path, O_RDONLY | O_CLOEXEC);
		if (t->memfd < 0)
			return -errno;
	}
	n = pread(t->memfd, buf, len, (off_t)addr);
	return n < 0 ? -errno : n == 0 ? -EFAULT : n;
}

ssize_t ptk_tracee_readstr(struct ptk_tcb *t, u64 addr, char *buf, size_t max)
{
	size_t got = 0;

	while (got <= max) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		if (chunk > max + 1 - got)
			chunk = max + 1 - got;
		ssize_t n = ptk_tracee_read(t, addr + got, buf + got, chunk);
		if (n <= 0) {
			if (!got)
				return n ? n : -EFAULT;
			break;
		}
		char *z = memchr(buf + got, 0, (size_t)n);
		if (z)
			return z - buf;
		got += (size_t)n;
		if ((size_t)n < chunk)
			break;
	}
	if (got >= max) { /* max bytes without a NUL: cut, whatever follows */
		buf[max] = 0;
		return (ssize_t)max + 1;
	}
	buf[got] = 0;
	return -EFAULT; /* unterminated before an unreadable page: no string (as strace) */
}

/* ---- tampering (-e inject=) ------------------------------------------------------------ */

int ptk_tracee_skip_syscall(struct ptk_tcb *t)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, t->pid, 0L, &regs))
		return -errno;
	regs.orig_rax = (unsigned long long)-1;
	return ptrace(PTRACE_SETREGS, t->pid, 0L, &regs) ? -errno : 0;
}

int ptk_tracee_set_return(struct ptk_tcb *t, s64 rval)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, t->pid, 0L, &regs))
		return -errno;
	regs.rax = (unsigned long long)rval;
	return ptrace(PTRACE_SETREGS, t->pid, 0L, &regs) ? -errno : 0;
}

/* ---- the stop loop -------------------------------------------------------------------- */

static void resume(struct ptk_tracer *tr, struct ptk_tcb *t, int sig)
{
	int req = (!tr->seccomp || t->in_syscall) ? PTRACE_SYSCALL : PTRACE_CONT;

	t->held = false;
	ptrace(req, t->pid, 0L, (long)sig); /* ESRCH: killed meanwhile, its exit follows */
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void on_syscall_stop(struct ptk_tracer *tr, struct ptk_tcb *t, u64 stime_us)
{
	struct __ptrace_syscall_info si;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->pid, (void *)sizeof(si), &si) <= 0)
		return;
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY || si.op == PTRACE_SYSCALL_INFO_SECCOMP) {
		t->nr = (int)(si.op == PTRACE_SYSCALL_INFO_ENTRY ? si.entry.nr : si.seccomp.nr);
		memcpy(t->args,
		       si.op == PTRACE_SYSCALL_INFO_ENTRY ? si.entry.args : si.seccomp.args,
		       sizeof(t->args));
		if (si.arch != AUDIT_ARCH_X86_64)
			t->nr = -1 - t->nr; /* another ABI: shown by number */
		t->sp = si.stack_pointer;
		t->in_syscall = true;
		t->entry_stime_us = stime_us;
		if (tr->timing)
			t->entry_ns = ptk_now_ns();
		tr->nsyscalls++;
		if (t->hide && t->nr == __NR_execve)
			t->hide = false;
		if (tr->ops->entry)
			tr->ops->entry(tr, t);
	} else if (si.op == PTRACE_SYSCALL_INFO_EXIT) {
		if (!t->in_syscall)
			return; /* attached in the middle of a syscall */
		t->in_syscall = false;
		if (tr->ops->exit)
			tr->ops->exit(tr, t, si.exit.rval, si.exit.is_error,
				      stime_us - t->entry_stime_us);
	}
}

static void on_exec(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	unsigned long old = 0;
	struct ptk_tcb *o;

	ptrace(PTRACE_GETEVENTMSG, t->pid, 0L, &old);
	/* a non-leader thread exec'd: it took the leader's pid; its own tcb carries the
	 * execve in progress, the leader's tcb is stale */
	if (old && (pid_t)old != t->pid && (o = ptk_tracer_find(tr, (pid_t)old))) {
		struct ptk_tcb tmp = *t;
		t->in_syscall = o->in_syscall;
		t->nr = o->nr;
		memcpy(t->args, o->args, sizeof(t->args));
		t->entry_ns = o->entry_ns;
		t->entry_stime_us = o->entry_stime_us;
		t->user = o->user;
		o->user = tmp.user;
		o->in_syscall = false;
		tcb_gone(tr, o, -1);
	}
	t->hide = false;
	if (tr->ops->exec)
		tr->ops->exec(tr, t, (pid_t)old);
}

/* A wait status that ends tracee pid (t, NULL when unknown): note the launched command's
 * status and forget the tracee. True when it ended. */
static bool reap(struct ptk_tracer *tr, struct ptk_tcb *t, pid_t pid, int status)
{
	if (!WIFEXITED(status) && !WIFSIGNALED(status))
		return false;
	if (pid == tr->launched) {
		tr->launched_done = true;
		tr->launched_status = status;
	}
	if (t)
		tcb_gone(tr, t, status);
	return true;
}
int ptk_tracer_run(struct ptk_tracer *tr)
{
	while (tr->ntcb > 0) {
		struct rusage ru;
		int status, sig, ev, rsig = 0;
		struct ptk_tcb *t;
		pid_t pid;
		u64 t0, stime = 0;

		if (*tr->stop)
			return -EINTR;
		pid = wait4(-1, &status, __WALL, tr->rusage ? &ru : NULL);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break;
			return -errno;
		}
		t0 = ptk_now_ns();
		t = ptk_tracer_find(tr, pid);
		if (reap(tr, t, pid, status))
			continue;
		if (!WIFSTOPPED(status))
			continue;
		if (!t) /* a new child whose fork event we have not seen yet */
			t = tcb_add(tr, pid);
		if (tr->rusage)
			stime = (u64)ru.ru_stime.tv_sec * 1000000 + (u64)ru.ru_stime.tv_usec;
		tr->nstops++;
		t->held = true;
		t->seen = true;
		sig = WSTOPSIG(status);
		ev = (unsigned)status >> 16;
		switch (ev) {
		case 0:
			if (sig == (SIGTRAP | 0x80)) {
				on_syscall_stop(tr, t, stime);
			} else {
				siginfo_t si;
				if (ptrace(PTRACE_GETSIGINFO, pid, 0L, &si) == 0) {
					if (tr->ops->signal && !t->hide)
						tr->ops->signal(tr, t, &si);
					rsig = sig;
				}
			}
			break;
		case PTRACE_EVENT_STOP:
			if (is_stop_signal(sig)) {
				/* group-stop: stay stopped, but keep reporting (SIGCONT, interrupt) */
				if (tr->ops->group_stop && !t->hide)
					tr->ops->group_stop(tr, t, sig);
				t->held = false;
				ptrace(PTRACE_LISTEN, pid, 0L, 0L);
				tr->held_ns += ptk_now_ns() - t0;
				continue;
			}
			break; /* PTRACE_INTERRUPT or a new child's first stop */
		case PTRACE_EVENT_FORK:
		case PTRACE_EVENT_VFORK:
		case PTRACE_EVENT_CLONE: {
			unsigned long child = 0;
			if (!ptrace(PTRACE_GETEVENTMSG, pid, 0L, &child) && child) {
				struct ptk_tcb *c = ptk_tracer_find(tr, (pid_t)child);
				if (!c)
					c = tcb_add(tr, (pid_t)child);
				c->hide = t->hide;
				if (tr->ops->child)
					tr->ops->child(tr, t, (pid_t)child);
			}
			break;
		}
		case PTRACE_EVENT_EXEC:
			on_exec(tr, t);
			break;
		case PTRACE_EVENT_SECCOMP:
			on_syscall_stop(tr, t, stime);
			break;
		default:
			break;
		}
		resume(tr, t, rsig);
		tr->held_ns += ptk_now_ns() - t0;
	}
	return 0;
}

/* ---- detaching ------------------------------------------------------------------------- */

static void detach_one(struct ptk_tracer *tr, struct ptk_tcb *t, int sig)
{
	if (tr->ops->detached)
		tr->ops->detached(tr, t);
	ptrace(PTRACE_DETACH, t->pid, 0L, (long)sig);
	tcb_del(tr, t);
}

int ptk_tracer_detach_all(struct ptk_tracer *tr, u64 timeout_ns)
{
	u64 deadline = ptk_now_ns() + timeout_ns;

	/* held tracees go at once; the others are interrupted so that they stop soon */
	for (size_t b = 0; b < ARRAY_SIZE(tr->hash); b++) {
		for (struct ptk_tcb *t = tr->hash[b], *nx; t; t = nx) {
			nx = t->next;
			if (t->held)
				detach_one(tr, t, 0);
			else
				ptrace(PTRACE_INTERRUPT, t->pid, 0L, 0L);
		}
	}
	while (tr->ntcb > 0 && ptk_now_ns() < deadline) {
		int status, sig, ev, dsig = 0;
		struct ptk_tcb *t;
		pid_t pid = wait4(-1, &status, __WALL | WNOHANG, NULL);

		if (pid == 0) {
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);
			continue;
		}
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: no tracee left at all */
		}
		t = ptk_tracer_find(tr, pid);
		if (reap(tr, t, pid, status))
			continue;
		if (!WIFSTOPPED(status))
			continue;
		sig = WSTOPSIG(status);
		ev = (unsigned)status >> 16;
		if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
		    ev == PTRACE_EVENT_CLONE) {
			unsigned long child = 0;
			/* the new child is attached already: it must be detached too */
			if (!ptrace(PTRACE_GETEVENTMSG, pid, 0L, &child) && child &&
			    !ptk_tracer_find(tr, (pid_t)child)) {
				tcb_add(tr, (pid_t)child);
				ptrace(PTRACE_INTERRUPT, (pid_t)child, 0L, 0L);
			}
		} else if (ev == 0 && sig != (SIGTRAP | 0x80)) {
			siginfo_t si;
			if (ptrace(PTRACE_GETSIGINFO, pid, 0L, &si) == 0)
				dsig = sig; /* signal-delivery-stop: deliver it on the way out */
		}
		if (!t) { /* an auto-attached child reporting before its parent's event */
			ptrace(PTRACE_DETACH, pid, 0L, (long)dsig);
			continue;
		}
		detach_one(tr, t, dsig);
	}
	int left = tr->ntcb;
	/* not stopped in time: forget them, the kernel detaches them when we exit */
	for (size_t b = 0; b < ARRAY_SIZE(tr->hash); b++) {
		while (tr->hash[b]) {
			struct ptk_tcb *t = tr->hash[b];
			if (tr->ops->detached)
				tr->ops->detached(tr, t);
			tcb_del(tr, t);
		}
	}
	return left;
}

/* ---- cost of a stop --------------------------------------------------------------------- */

u64 ptk_ptrace_stop_cost_ns(int n)
{
	int pfd[2], status;
	u64 times[2] = { 0, 0 };
	pid_t pid;

	if (pipe(pfd))
		return 0;
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		u64 a, b;
		close(pfd[0]);
		if (ptrace(PTRACE_TRACEME, 0L, 0L, 0L))
			_exit(1);
		raise(SIGSTOP); /* parent: PTRACE_CONT (untraced syscalls) */
		a = ptk_now_ns();
		for (int i = 0; i < n; i++)
			syscall(SYS_getppid);
		b = ptk_now_ns();
		times[0] = b - a;
		raise(SIGUSR2); /* parent: from here on PTRACE_SYSCALL */
		a = ptk_now_ns();
		for (int i = 0; i < n; i++)
			syscall(SYS_getppid);
		b = ptk_now_ns();
		times[1] = b - a;
		_exit(write(pfd[1], times, sizeof(times)) == sizeof(times) ? 0 : 1);
	}
	close(pfd[1]);
	bool traced = false;
	while (waitpid(pid, &status, __WALL) == pid && WIFSTOPPED(status)) {
		int sig = WSTOPSIG(status);
		if (sig == SIGSTOP) {
			ptrace(PTRACE_SETOPTIONS, pid, 0L,
			       (long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
			ptrace(PTRACE_CONT, pid, 0L, 0L);
		} else if (sig == SIGUSR2) {
			traced = true;
			ptrace(PTRACE_SYSCALL, pid, 0L, 0L);
		} else {
			ptrace(traced ? PTRACE_SYSCALL : PTRACE_CONT, pid, 0L,
			       sig == (SIGTRAP | 0x80) ? 0L : (long)sig);
		}
	}
	if (read(pfd[0], times, sizeof(times)) != sizeof(times))
		times[0] = times[1] = 0;
	close(pfd[0]);
	if (times[1] <= times[0])
		return 0;
	return (times[1] - times[0]) / (2 * (u64)n);
}
