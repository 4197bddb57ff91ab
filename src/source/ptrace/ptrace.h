/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ptrace source: launch or seize tracees, run the stop loop (syscall entry/exit, seccomp,
 * signal-delivery, group-stop, fork/clone/exec events) and detach them all on request.
 *
 * Every tracee is taken with PTRACE_SEIZE, so group-stops are reported as PTRACE_EVENT_STOP
 * and left in place with PTRACE_LISTEN, and PTRACE_INTERRUPT can stop a running tracee for
 * detaching. PTRACE_O_EXITKILL is never set: if the tracer dies, the kernel detaches the
 * tracees (kernel/ptrace.c exit_ptrace) and they keep running.
 */
#ifndef PTK_SOURCE_PTRACE_PTRACE_H
#define PTK_SOURCE_PTRACE_PTRACE_H

#include <linux/filter.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "lib/util.h"

struct ptk_tracer;

/* One tracee (a thread). */
struct ptk_tcb {
	pid_t pid;
	bool held; /* in a ptrace-stop we have not resumed yet */
	bool in_syscall; /* between entry (or seccomp) stop and exit stop */
	bool seen; /* a stop of it was reported */
	bool hide; /* launched child before its execve: not shown */
	int nr; /* syscall number at entry */
	u64 args[6];
	u64 sp; /* stack pointer at entry */
	u64 saved[2]; /* values a decoder read at entry for the exit (a socklen_t in) */
	u64 entry_ns; /* CLOCK_MONOTONIC at entry (only when timing is on) */
	u64 entry_stime_us; /* tracee system time at entry, from wait4 rusage (-c) */
	int memfd; /* /proc/PID/mem, -1 until needed */
	/* where the memory is read from when it is not the live process (strace --bpf: what
	 * the kernel copied at the entry and exit); NULL: the tracee */
	ssize_t (*mem_read)(struct ptk_tcb *t, u64 addr, void *buf, size_t len);
	void *mem_arg;
	void *user; /* the command's per-tracee state */
	struct ptk_tcb *next; /* hash chain */
};

/* What the stop loop reports. Callbacks may be NULL. */
struct ptk_tracer_ops {
	void (*added)(struct ptk_tracer *tr, struct ptk_tcb *t);
	/* syscall entry (or seccomp stop): t->nr, t->args are set */
	void (*entry)(struct ptk_tracer *tr, struct ptk_tcb *t);
	/* syscall exit: rval as returned (negative errno when is_error) */
	void (*exit)(struct ptk_tracer *tr, struct ptk_tcb *t, s64 rval, bool is_error,
		     u64 stime_us);
	/* signal-delivery-stop; return false to suppress the signal (never used by strace) */
	void (*signal)(struct ptk_tracer *tr, struct ptk_tcb *t, const siginfo_t *si);
	void (*group_stop)(struct ptk_tracer *tr, struct ptk_tcb *t, int sig);
	void (*exec)(struct ptk_tracer *tr, struct ptk_tcb *t, pid_t old_tid);
	/* clone/fork/vfork event: the new tracee child_pid; flags = its clone flags if known */
	void (*child)(struct ptk_tracer *tr, struct ptk_tcb *parent, pid_t child_pid);
	/* exit or kill (wait status); t is freed after the call */
	void (*gone)(struct ptk_tracer *tr, struct ptk_tcb *t, int status);
	/* being detached on request (t->in_syscall: entry seen, no exit); t is freed after */
	void (*detached)(struct ptk_tracer *tr, struct ptk_tcb *t);
};

struct ptk_tracer {
	const struct ptk_tracer_ops *ops;
	void *arg;
	bool follow; /* -f: PTRACE_O_TRACECLONE|FORK|VFORK */
	bool seccomp; /* tracees run under a SECCOMP_RET_TRACE filter */
	bool rusage; /* collect tracee system time (wait4 rusage) */
	bool timing; /* fill entry_ns */
	volatile int *stop; /* set asynchronously: leave the loop and detach */
	pid_t launched; /* the command we started, or 0 */
	int launched_status; /* its wait status once it ended */
	bool launched_done;
	int ntcb;
	u64 nstops, nsyscalls, held_ns; /* held_ns: time between wait4 return and resume */
	struct ptk_tcb *hash[1024];
};

/* Initialise tr (zeroed first). */
void ptk_tracer_init(struct ptk_tracer *tr, const struct ptk_tracer_ops *ops, void *arg);

/*
 * Build a seccomp-bpf program returning SECCOMP_RET_TRACE for the syscalls with sel[nr]
 * set (sel has PTK_NSYSCALLS entries) and SECCOMP_RET_ALLOW for the others, for
 * AUDIT_ARCH_X86_64; other ABIs (i386, x32) are all traced. Consecutive numbers become one
 * range test. Returns the instruction count (filter malloc'd in *out), or -E2BIG.
 */
int ptk_seccomp_build(const bool *sel, struct sock_filter **out);

/*
 * Start argv[0] (PATH searched) as a tracee: fork, the child stops itself, the parent seizes
 * it with the loop's options, then the child installs filter (when not NULL; with
 * PR_SET_NO_NEW_PRIVS unless root) and execs. Returns 0 or -errno (execvp failure is
 * reported by the child on stderr and exit 127).
 */
int ptk_tracer_launch(struct ptk_tracer *tr, char **argv, const struct sock_fprog *filter);

/*
 * Seize every thread of process pid (/proc/PID/task, re-read until no new thread appears)
 * and interrupt them. Returns the number of threads seized, or -errno (-ESRCH, -EPERM).
 */
int ptk_tracer_attach(struct ptk_tracer *tr, pid_t pid);

/*
 * The stop loop: runs until no tracee is left (0) or *tr->stop is set (-EINTR). It does not
 * detach: call ptk_tracer_detach_all() after it.
 */
int ptk_tracer_run(struct ptk_tracer *tr);

/*
 * Detach every tracee, each within timeout_ns: tracees held in a stop are detached at once
 * (a pending signal is delivered); running ones are PTRACE_INTERRUPTed and detached at
 * their next stop, including children whose first stop was not reported yet and children
 * announced by a fork event meanwhile. Group-stopped tracees stay stopped (job control).
 * Returns the number that could not be detached in time (the kernel detaches them when
 * this process exits).
 */
int ptk_tracer_detach_all(struct ptk_tracer *tr, u64 timeout_ns);

/* Find a tracee by tid, or NULL. */
struct ptk_tcb *ptk_tracer_find(struct ptk_tracer *tr, pid_t pid);

/*
 * Read len bytes at addr of the tracee: process_vm_readv, falling back to /proc/PID/mem
 * (pread) when it is refused (EPERM/ENOSYS). Returns the bytes read (short at an unmapped
 * page) or -errno (-EFAULT for none).
 */
ssize_t ptk_tracee_read(struct ptk_tcb *t, u64 addr, void *buf, size_t len);

/*
 * Read a NUL-terminated string of at most max bytes (buf has max+1 bytes), page by page so
 * that an unmapped page after the terminator does not fail the read. Returns the length
 * (without NUL), max+1 if no NUL was found within max bytes (buf[max] = 0), or -errno
 * (-EFAULT also when an unreadable page comes before the NUL).
 */
ssize_t ptk_tracee_readstr(struct ptk_tcb *t, u64 addr, char *buf, size_t max);

/*
 * Make the syscall t is stopped at the entry of not happen (orig_rax = -1: the kernel skips
 * it and returns -ENOSYS), for -e inject=. Returns 0 or -errno.
 */
int ptk_tracee_skip_syscall(struct ptk_tcb *t);

/* Set the return value of the syscall t is stopped at the exit of (rax). 0 or -errno. */
int ptk_tracee_set_return(struct ptk_tcb *t, s64 rval);

/* Measure the cost of one ptrace stop on this machine: a child runs n getppid() calls
 * untraced and then under PTRACE_SYSCALL; returns (traced - untraced) / (2 n) in ns, or 0. */
u64 ptk_ptrace_stop_cost_ns(int n);

#endif
