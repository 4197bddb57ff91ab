/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stop every thread of a process for a bounded moment: PTRACE_SEIZE each thread, then
 * PTRACE_INTERRUPT them all, wait for the stops, read what the caller asked for (registers,
 * FP/XSTATE, siginfo, a copy of each thread's stack), and PTRACE_DETACH. The pause the target
 * sees is measured on CLOCK_MONOTONIC from the first PTRACE_INTERRUPT to the return of the
 * last PTRACE_DETACH. Unlike PTRACE_ATTACH, seizing sends no SIGSTOP, so nothing in the
 * target's signal state changes (kernel/ptrace.c ptrace_attach(), PTRACE_SEIZE).
 *
 * The thread list is /proc/PID/task, rescanned after every thread is stopped until no new
 * thread appears (a thread stopped cannot clone, so the scan converges). A thread found in a
 * signal-delivery-stop keeps its signal: it is handed back at PTRACE_DETACH.
 *
 * Used by ptk pstack (stacks copied during the stop, unwound after the target runs again) and
 * ptk gcore (memory written while the caller holds the stop).
 */
#ifndef PTK_SOURCE_PTRACE_STOP_H
#define PTK_SOURCE_PTRACE_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <sys/user.h>

#include "lib/util.h"

/* A copy of target memory [start, start + len). */
struct ptk_stop_mem {
	u64 start;
	size_t len;
	unsigned char *data;
};

struct ptk_stop_thread {
	pid_t tid;
	char comm[16]; /* /proc/PID/task/TID/comm, read before the stop */
	int err; /* 0 stopped and read; -errno otherwise (-ESRCH: it exited meanwhile) */
	int sig; /* signal of a signal-delivery-stop, re-injected at detach; 0 none */
	struct user_regs_struct regs; /* PTRACE_GETREGSET NT_PRSTATUS (arch/x86 genregs_get) */
	bool have_fpregs;
	struct user_fpregs_struct fpregs; /* NT_PRFPREG (FXSAVE layout, 512 bytes) */
	void *xstate; /* NT_X86_XSTATE (XSAVE layout), NULL when unavailable */
	size_t xstate_len;
	bool have_siginfo;
	siginfo_t siginfo; /* PTRACE_GETSIGINFO at the stop */
	struct ptk_stop_mem stack; /* [sp - 128 (red zone), end of its mapping), capped */
};

struct ptk_stop {
	pid_t pid;
	struct ptk_stop_thread *t; /* leader first, then in /proc/PID/task order */
	int n, cap;
	u64 stop_ns; /* CLOCK_MONOTONIC of the first PTRACE_INTERRUPT */
	u64 resume_ns; /* CLOCK_MONOTONIC after the last PTRACE_DETACH; 0 while stopped */
	bool stopped; /* threads are held */
	unsigned flags;
	size_t stack_max;
};

enum {
	PTK_STOP_FPREGS = 1 << 0, /* also NT_PRFPREG and NT_X86_XSTATE */
	PTK_STOP_SIGINFO = 1 << 1, /* also PTRACE_GETSIGINFO */
	PTK_STOP_STACKS = 1 << 2, /* copy each thread's stack (up to stack_max bytes) */
};

/*
 * Seize and stop every thread of pid, reading per flags. On success the threads are held
 * until ptk_stop_resume(). Threads that exit meanwhile are kept with err = -ESRCH (they are
 * skipped by readers of st->t). Returns 0; -ESRCH (no such process), -EPERM (no permission,
 * or another tracer holds it: kernel/ptrace.c ptrace_attach()), -errno otherwise, in which
 * case every thread already seized has been let go.
 */
int ptk_stop_all(pid_t pid, unsigned flags, size_t stack_max, struct ptk_stop *st);

/*
 * The same reads for one thread tid of pid that the caller already holds in a ptrace-stop
 * (strace -k at a syscall exit): registers, siginfo and the stack per flags (no FP state),
 * into st with st->t[0]; nothing is seized, and ptk_stop_free() does not resume it.
 * Returns 0 or the -errno of the reads (st is then freeable).
 */
int ptk_stop_one_held(pid_t pid, pid_t tid, unsigned flags, size_t stack_max, struct ptk_stop *st);

/* Detach every held thread (re-injecting pending signals) and record resume_ns. Safe to
 * call twice. Returns 0 or the first PTRACE_DETACH error (-errno). */
int ptk_stop_resume(struct ptk_stop *st);

/* The measured pause in ns (first interrupt to last detach); until resume, so far. */
u64 ptk_stop_pause_ns(const struct ptk_stop *st);

/* Threads successfully stopped and read. */
int ptk_stop_count(const struct ptk_stop *st);

/* Resume if still held, then free everything. */
void ptk_stop_free(struct ptk_stop *st);

/*
 * Read len bytes of pid's memory at addr into buf: process_vm_readv(2), falling back to
 * pread of /proc/PID/mem (memfd >= 0: an open fd of it) for what it cannot read. Returns the
 * bytes read from the start of the range (short at the first unreadable page), or -errno
 * when nothing was readable.
 */
ssize_t ptk_stop_read_mem(pid_t pid, int memfd, u64 addr, void *buf, size_t len);

#endif
