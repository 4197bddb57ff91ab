// SPDX-License-Identifier: GPL-2.0
/*
 * ptk strace: trace system calls and signals with ptrace, in strace's notation, with a
 * bounded pause: a -e trace= subset is filtered in the kernel (seccomp-bpf,
 * SECCOMP_RET_TRACE) so untraced calls never stop the target, every tracee is detached
 * within 1 s of SIGINT/SIGTERM, and the cost (stops x measured per-stop cost) is reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/syscsum.h"
#include "source/ptrace/decode.h"
#include "source/ptrace/stop.h"
#include "source/ptrace/unwind.h"
#include "source/sym/sym.h"
#include "source/ptrace/ptrace.h"
#include "source/ptrace/syscalls.h"
#include "source/ptrace/xlat.h"
#include "cmd/systrace.h"
#include "lib/child.h"
#include "lib/errnoname.h"
#include "source/bpf/runner.h"

/* -c summary columns, strace -c layout */
enum { C_PCT, C_SEC, C_USEC, C_CALLS, C_ERR, C_NAME, C_N };
static const struct ptk_metric *const sum_cols[C_N] = {
	[C_PCT] = PTK_M(SYSC_TIME_PCT),	       [C_SEC] = PTK_M(SYSC_SECONDS),
	[C_USEC] = PTK_M(SYSC_USECS_PER_CALL), [C_CALLS] = PTK_M(SYSC_CALLS),
	[C_ERR] = PTK_M(SYSC_ERRORS),	       [C_NAME] = PTK_M(SYSC_NAME),
};
static const struct ptk_table sum_tab = { .name = "syscalls", .ncols = C_N, .refs = sum_cols };

static const char usage[] =
	"usage: ptk strace [-f|-ff] [-p PID...] [-e trace=SET] [-e status=SET] [-e signal=SET]\n"
	"                  [-e read=FDS] [-e write=FDS] [-P PATH] [-c|-C] [-S SORTBY] [-T]\n"
	"                  [-t|-tt|-ttt] [-r] [-y] [-a COL] [-s N] [-x|-xx] [-v] [-q|-qq]\n"
	"                  [-o FILE] [--bpf] [--json] [-- CMD ARGS]\n"
	"Trace system calls and signals (ptrace), in strace's notation.\n"
	"  -f          follow fork, vfork, clone and clone3\n"
	"  -p PID      attach to every thread of PID (repeat or comma-separate)\n"
	"  -e trace=SET     names and %%classes (%%file %%desc %%network %%process %%signal\n"
	"                   %%ipc %%memory %%creds %%clock), all, none, !SET; a launched command\n"
	"                   gets a seccomp-bpf filter so only these stop\n"
	"  -e status=SET    successful, failed (-Z), unfinished, unavailable, detached, all, none\n"
	"  -e read=FDS / -e write=FDS    hex dump of the data read from / written to FDS\n"
	"  -e verbose=none|all, -e abbrev=none|all   (--no-abbrev: -v)\n"
	"  -P PATH     only calls that name PATH or a descriptor of it (--trace-path)\n"
	"  -e signal=SET    signals shown as --- SIG... --- lines (default all)\n"
	"  -c / -C     summary table (only / as well as the trace); -S time|calls|errors|name|nothing\n"
	"  -w          the summary's time is each call's wall time, entry to exit (else system time)\n"
	"  -T          time spent in each call <s>;  -t -tt -ttt  wall clock;  -r  relative\n"
	"  -y          descriptors with their paths;  -s N  string size (32);  -v  whole structs\n"
	"  -a COL      return values at column COL (40);  -x / -xx  non-ASCII / all strings in hex\n"
	"  -q / -qq    no attach messages / nor the exit lines (--quiet=attach,exit, --silence=)\n"
	"  -k          the user stack at each syscall's exit (DWARF unwinding)\n"
	"  -o FILE     write the trace (and summary) to FILE instead of stderr; -ff: FILE.PID each\n"
	"  --bpf       no ptrace: the raw_syscalls tracepoints (eBPF) see every call of -p PID\n"
	"              (-f: and its children) or the command, which never stop; arguments and\n"
	"              the memory they point to are copied in the kernel (up to 256 bytes each,\n"
	"              3 per call: iovecs, argv, msghdr by address); lines as without --bpf;\n"
	"              -c counts in the kernel (the time is entry to exit, as -w); lost events\n"
	"              and the programs' cost per event are printed at exit\n"
	"The cost of tracing is reported on stderr at exit: syscalls seen, stops, and the time\n"
	"added to the target (stops x the per-stop cost measured on this machine).\n";

/* -e status= (strace's names), a bit each */
enum {
	ST_SUCCESSFUL = 1 << 0,
	ST_FAILED = 1 << 1,
	ST_UNFINISHED = 1 << 2, /* never returned (exit_group, execve of another thread) */
	ST_UNAVAILABLE = 1 << 3, /* the tracee went away before its exit stop */
	ST_DETACHED = 1 << 4, /* detached in the middle */
	ST_ALL = (1 << 5) - 1,
};

/* -q, -qq, --quiet= */
enum { Q_ATTACH = 1 << 0, Q_EXIT = 1 << 1, Q_PERSONALITY = 1 << 2, Q_THREAD_EXECVE = 1 << 3 };

/* -e inject=SET:error=E|retval=N[:signal=S][:when=FIRST[..LAST][+STEP]] */
struct inject {
	bool sel[PTK_NSYSCALLS];
	int err; /* errno to return, 0: retval */
	s64 retval;
	bool has_ret; /* error= or retval= given: the call is not made */
	int sig; /* signal to deliver at exit, 0: none */
	unsigned first, last, step; /* the Nth calls (1-based) of each syscall */
	unsigned count[PTK_NSYSCALLS];
};

struct st {
	struct ptk_ctx *ctx;
	struct ptk_decopt dec;
	struct ptk_tracer tr;
	FILE *out;
	const char *outname;
	bool to_file;
	int ff; /* -ff: a file per process (FILE.PID) */
	bool trace_all;
	bool sel[PTK_NSYSCALLS];
	bool sigsel[65];
	unsigned status; /* ST_* shown */
	unsigned quiet; /* Q_* */
	char **paths; /* -P */
	int npaths;
	struct inject *inj;
	int ninj;
	int cmode; /* 0 trace, 1 -c (summary only), 2 -C (both) */
	enum ptk_sysc_sort sortby;
	bool show_time; /* -T */
	bool wall_summary; /* -w: -c counts each call's wall time, entry to exit */
	int tstamp; /* -t count */
	bool relative; /* -r */
	bool multi; /* more than one tracee seen: prefix lines with the pid */
	u64 last_ts_ns;
	struct ptk_tcb *cur; /* tracee whose line is open (eager printing) */
	size_t cur_col;
	struct ptk_sysc_stats stats;
	u64 nsys_shown;
	bool bpf; /* --bpf: raw_syscalls events, nothing stops */
	struct ptk_symbolizer *sym; /* -k */
	u64 exit_ns; /* --bpf: the exit time of the call being printed */
};

struct tstate {
	struct ptk_sbuf line; /* entry text kept for -e status= and for resumed lines */
	FILE *out; /* -ff: this tracee's file, else the trace's */
	int from; /* first argument still to print at exit */
	bool skip; /* not selected */
	bool printed; /* the entry is on the output */
	bool injected; /* the call was replaced by -e inject= */
	const struct inject *inj;
	struct timespec wall; /* entry wall clock, for -t */
};

static volatile int *stop_flag;

static void on_alarm(int sig)
{
	(void)sig; /* only interrupts wait4 */
}

static void on_stop(int sig)
{
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } };

	(void)sig;
	*stop_flag = 1;
	/* wait4 may have been entered just before the flag was set: keep interrupting it */
	setitimer(ITIMER_REAL, &it, NULL);
}

static bool printing(const struct st *s)
{
	return s->cmode != 1;
}

/* Entries are held until their exit decides whether they are shown. */
static bool deciding_at_exit(const struct st *s)
{
	return (s->status & ST_ALL) != ST_ALL;
}

static FILE *out_of(struct st *s, struct ptk_tcb *t)
{
	struct tstate *u = t->user;
	return u && u->out ? u->out : s->out;
}

static size_t leader(struct st *s, struct ptk_tcb *t, const struct timespec *wall)
{
	char buf[96];
	int n = 0;

	buf[0] = 0;
	if (s->tr.ntcb > 1)
		s->multi = true; /* sticky: lines stay attributable while tracees go away */
	if (s->ff)
		; /* one file per process: no prefix */
	else if (s->to_file && (s->tr.follow || s->multi))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%-5d ", t->pid);
	else if (s->multi)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[pid %5d] ", t->pid);
	if (s->tstamp) {
		struct tm tm;
		time_t sec = wall->tv_sec;
		if (s->tstamp >= 3) {
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%lld.%06ld ",
				      (long long)wall->tv_sec, wall->tv_nsec / 1000);
		} else {
			localtime_r(&sec, &tm);
			n += (int)strftime(buf + n, sizeof(buf) - (size_t)n, "%H:%M:%S", &tm);
			if (s->tstamp == 2)
				n += snprintf(buf + n, sizeof(buf) - (size_t)n, ".%06ld",
					      wall->tv_nsec / 1000);
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, " ");
		}
	}
	if (s->relative) {
		u64 now = ptk_now_ns(), d = s->last_ts_ns ? now - s->last_ts_ns : 0;
		s->last_ts_ns = now;
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%6llu.%06llu ",
			      (unsigned long long)(d / 1000000000),
			      (unsigned long long)(d / 1000 % 1000000));
	}
	fputs(buf, out_of(s, t));
	return (size_t)n;
}

/* End another tracee's open line (on the same output) before printing something else. */
static void interrupt_open_line(struct st *s, struct ptk_tcb *t)
{
	if (s->cur && s->cur != t && out_of(s, s->cur) == out_of(s, t)) {
		fputs(" <unfinished ...>\n", out_of(s, s->cur));
		s->cur = NULL;
	}
}

static void now_wall(const struct st *s, struct timespec *ts)
{
	if (s->tstamp)
		clock_gettime(CLOCK_REALTIME, ts);
	else
		ts->tv_sec = ts->tv_nsec = 0;
}

static void on_added(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	struct st *s = tr->arg;
	struct tstate *u = xcalloc(1, sizeof(struct tstate));

	t->user = u;
	if (s->ff && s->outname) {
		char path[4096];
		snprintf(path, sizeof(path), "%s.%d", s->outname, t->pid);
		u->out = fopen(path, "we");
		if (!u->out)
			ptk_warn("cannot open %s: %s; pid %d goes to %s", path, strerror(errno),
				 t->pid, s->outname);
	}
}

static void tstate_free(struct st *s, struct ptk_tcb *t)
{
	struct tstate *u = t->user;

	if (s->cur == t) {
		if (u && u->out)
			fputs("\n", u->out);
		s->cur = NULL;
	}
	if (!u)
		return;
	ptk_sb_free(&u->line);
	if (u->out)
		fclose(u->out);
	free(u);
	t->user = NULL;
}

/* The -e inject= rule that applies to this call of syscall nr, or NULL (counts the call). */
static const struct inject *inject_rule(struct st *s, int nr)
{
	if (nr < 0 || nr >= PTK_NSYSCALLS)
		return NULL;
	for (int i = 0; i < s->ninj; i++) {
		struct inject *in = &s->inj[i];
		if (!in->sel[nr])
			continue;
		unsigned k = ++in->count[nr];
		if (k < in->first || k > in->last)
			continue;
		if (in->step ? (k - in->first) % in->step : k != in->first)
			continue;
		return in;
	}
	return NULL;
}

static void on_entry(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	struct st *s = tr->arg;
	struct tstate *u = t->user;

	u->printed = false;
	u->injected = false;
	u->inj = NULL;
	u->skip = t->hide || (t->nr >= 0 && t->nr < PTK_NSYSCALLS && !s->sel[t->nr]) ||
		  (t->nr < 0 && !s->trace_all) || (t->nr >= PTK_NSYSCALLS && !s->trace_all);
	if (!u->skip && s->npaths && !ptk_dec_touches(t, s->paths, s->npaths))
		u->skip = true;
	if (!u->skip && (t->nr == __NR_clone || t->nr == __NR_clone3)) {
		u64 fl = t->args[0];
		struct {
			u64 flags;
		} ca = { 0 };
		if (t->nr == __NR_clone3)
			fl = ptk_tracee_read(t, t->args[0], &ca, sizeof(ca)) == sizeof(ca) ?
				     ca.flags :
				     0;
		if ((fl & 0x00800000 /* CLONE_UNTRACED */) && tr->follow)
			ptk_warn("pid %d: clone with CLONE_UNTRACED: the child will not be traced",
				 t->pid);
	}
	if (!t->hide && s->ninj && (u->inj = inject_rule(s, t->nr)) && u->inj->has_ret)
		u->injected = !ptk_tracee_skip_syscall(t);
	if (u->skip || !printing(s))
		return;
	now_wall(s, &u->wall);
	ptk_sb_reset(&u->line);
	u->from = ptk_dec_entry(&u->line, &s->dec, t);
	if (deciding_at_exit(s))
		return; /* decided at exit */
	interrupt_open_line(s, t);
	s->cur_col = leader(s, t, &u->wall) + u->line.len;
	fputs(u->line.p, out_of(s, t));
	s->cur = t;
	u->printed = true;
}

/*
 * Continue the line of t's syscall whose entry is printed: on the open line (col0 = its
 * column), or on a new "<... NAME resumed>" line after another tracee's output. False when
 * the entry is not printed.
 */
static bool resume_line(struct st *s, struct ptk_tcb *t, struct ptk_sbuf *sb, size_t *col0)
{
	struct tstate *u = t->user;
	char nb[32];

	if (!u->printed)
		return false;
	if (s->cur == t) {
		*col0 = s->cur_col;
		return true;
	}
	interrupt_open_line(s, t);
	*col0 = leader(s, t, &u->wall);
	ptk_sb_printf(sb, "<... %s resumed>", ptk_dec_name(t->nr, nb, sizeof(nb)));
	return true;
}

/*
 * The line of t's syscall to finish in sb: its entry's line continued (resume_line), or, when
 * the entry was held for its status, the whole entry printed now. Returns its first column.
 */
static size_t exit_line(struct st *s, struct ptk_tcb *t, struct ptk_sbuf *sb)
{
	struct tstate *u = t->user;
	size_t col0;

	if (!resume_line(s, t, sb, &col0)) {
		interrupt_open_line(s, t);
		col0 = leader(s, t, &u->wall);
		ptk_sb_puts(sb, u->line.p);
	}
	return col0;
}

/* A syscall its status filters out: end the line its entry left open, if it did. */
static void drop_line(struct st *s, struct ptk_tcb *t)
{
	struct tstate *u = t->user;

	if (u->printed) {
		fputs("\n", out_of(s, t));
		s->cur = NULL;
	}
	u->printed = false;
}

/*
 * -k: the tracee's user stack at its syscall exit stop, one " > module(function+0xoff)
 * [0xaddr]" line a frame (strace -k's shape; the address is the absolute PC), unwound by the
 * DWARF unwinder pstack uses.
 */
static void put_kstack(struct st *s, struct ptk_tcb *t, struct ptk_sbuf *sb)
{
	struct ptk_stop st;
	struct ptk_ustack u = { 0 };

	if (ptk_stop_one_held(t->pid, t->pid, PTK_STOP_STACKS, 512 * 1024, &st)) {
		ptk_stop_free(&st);
		ptk_sb_puts(sb,
			    " > unexpected_backtracing_error [the registers could not be read]\n");
		return;
	}
	if (ptk_unwind_threads(s->sym, &st, 64, 0, &u)) {
		ptk_sb_puts(sb,
			    " > unexpected_backtracing_error [the modules could not be read]\n");
	} else {
		for (int i = 0; i < u.n; i++) {
			const struct ptk_frame *f = &u.f[i].sym;
			ptk_sb_printf(sb, " > %s(", f->module ? f->module : "?");
			if (f->func)
				ptk_sb_printf(sb, "%s+%#" PRIx64, f->func, f->off);
			ptk_sb_printf(sb, ") [%#" PRIx64 "]\n", u.f[i].pc);
		}
		if (u.err && u.err != -ELOOP && !u.n)
			ptk_sb_puts(sb, " > unexpected_backtracing_error\n");
	}
	ptk_ustack_free(&u);
	ptk_stop_free(&st);
	/* a Dwfl takes one thread state: the next stop gets a new one (the modules are read
	 * again: -k is slow, as strace's) */
	ptk_sym_forget(s->sym, t->pid);
}

static void on_exit_(struct ptk_tracer *tr, struct ptk_tcb *t, s64 rval, bool is_error,
		     u64 stime_us)
{
	struct st *s = tr->arg;
	struct tstate *u = t->user;
	struct ptk_sbuf sb = { 0 };
	size_t col0;

	if (u->injected) {
		const struct inject *in = u->inj;
		rval = in->err ? -(s64)in->err : in->retval;
		is_error = in->err != 0;
		ptk_tracee_set_return(t, rval);
	}
	if (u->inj && u->inj->sig)
		kill(t->pid, u->inj->sig); /* delivered as the call returns */
	if (u->skip)
		return;
	if (s->wall_summary) /* -w: the call's latency, not the system time it used */
		stime_us = ((s->exit_ns ? s->exit_ns : ptk_now_ns()) - t->entry_ns) / 1000;
	ptk_sysc_count(&s->stats, t->nr, is_error, stime_us);
	s->nsys_shown++;
	if (!printing(s))
		return;
	if (!(s->status & (is_error ? ST_FAILED : ST_SUCCESSFUL))) {
		/* none is open: entries wait when a status is filtered */
		drop_line(s, t);
		return;
	}
	col0 = exit_line(s, t, &sb);
	ptk_dec_exit(&sb, &s->dec, t, u->from, rval, is_error, col0 + sb.len);
	if (u->injected)
		ptk_sb_puts(&sb, " (INJECTED)");
	if (s->show_time) {
		u64 d = (s->exit_ns ? s->exit_ns : ptk_now_ns()) - t->entry_ns;
		ptk_sb_printf(&sb, " <%llu.%06llu>", (unsigned long long)(d / 1000000000),
			      (unsigned long long)(d / 1000 % 1000000));
	}
	ptk_sb_puts(&sb, "\n");
	ptk_dec_dumpio(&sb, &s->dec, t, rval, is_error);
	if (s->sym)
		put_kstack(s, t, &sb);
	fputs(sb.p, out_of(s, t));
	ptk_sb_free(&sb);
	s->cur = NULL;
	u->printed = false;
}

/* A syscall that never returned (exit_group, a killed tracee): " = ?", or mark. */
static void finish_unreturned(struct st *s, struct ptk_tcb *t, const char *mark, unsigned status)
{
	struct tstate *u = t->user;
	struct ptk_sbuf sb = { 0 };
	size_t col0;

	if (!u || !t->in_syscall || u->skip || !printing(s))
		return;
	if (!(s->status & status)) {
		drop_line(s, t);
		return;
	}
	col0 = exit_line(s, t, &sb);
	if (mark) {
		ptk_sb_printf(&sb, " %s\n", mark);
	} else {
		ptk_sb_puts(&sb, ") ");
		ptk_dec_pad(&sb, col0, 0, s->dec.acol);
		ptk_sb_puts(&sb, "= ?\n");
	}
	fputs(sb.p, out_of(s, t));
	ptk_sb_free(&sb);
	s->cur = NULL;
	u->printed = false;
}

static void on_signal(struct ptk_tracer *tr, struct ptk_tcb *t, const siginfo_t *si)
{
	struct st *s = tr->arg;
	struct ptk_sbuf sb = { 0 };
	struct timespec wall;

	if (!printing(s) || si->si_signo <= 0 || si->si_signo > 64 || !s->sigsel[si->si_signo])
		return;
	interrupt_open_line(s, t);
	now_wall(s, &wall);
	leader(s, t, &wall);
	ptk_sb_printf(&sb, "--- %s ", ptk_signal_name(si->si_signo));
	ptk_dec_siginfo(&sb, si);
	ptk_sb_puts(&sb, " ---\n");
	fputs(sb.p, out_of(s, t));
	ptk_sb_free(&sb);
}

static void on_group_stop(struct ptk_tracer *tr, struct ptk_tcb *t, int sig)
{
	struct st *s = tr->arg;
	struct timespec wall;

	if (!printing(s) || !s->sigsel[sig])
		return;
	interrupt_open_line(s, t);
	now_wall(s, &wall);
	leader(s, t, &wall);
	fprintf(out_of(s, t), "--- stopped by %s ---\n", ptk_signal_name(sig));
}

static void on_gone(struct ptk_tracer *tr, struct ptk_tcb *t, int status)
{
	struct st *s = tr->arg;
	struct timespec wall;

	if (status != -1 && printing(s) && !t->hide) {
		/* exit_group never returns; a call cut short by a kill has no result */
		finish_unreturned(s, t, NULL, WIFEXITED(status) ? ST_UNFINISHED : ST_UNAVAILABLE);
		if (!(s->quiet & Q_EXIT)) {
			FILE *f = out_of(s, t);
			interrupt_open_line(s, t);
			now_wall(s, &wall);
			leader(s, t, &wall);
			if (WIFEXITED(status))
				fprintf(f, "+++ exited with %d +++\n", WEXITSTATUS(status));
			else
				fprintf(f, "+++ killed by %s%s +++\n",
					ptk_signal_name(WTERMSIG(status)),
					WCOREDUMP(status) ? " (core dumped)" : "");
		}
	}
	tstate_free(s, t);
}

static void on_detached(struct ptk_tracer *tr, struct ptk_tcb *t)
{
	struct st *s = tr->arg;

	finish_unreturned(s, t, "<detached ...>", ST_DETACHED);
	tstate_free(s, t);
}

static const struct ptk_tracer_ops ops = {
	.added = on_added,
	.entry = on_entry,
	.exit = on_exit_,
	.signal = on_signal,
	.group_stop = on_group_stop,
	.gone = on_gone,
	.detached = on_detached,
};

/* ---- --bpf: the same lines from raw_syscalls events ------------------------------------- */

struct bpf_state {
	struct ptk_systrace st; /* r->priv */
	struct st *s;
	struct ptk_tcb *hash[256]; /* the tracees seen, by tid */
	int tgids[SYSTRACE_TGIDS]; /* processes seen and not ended */
	int ntgids;
	pid_t child; /* the command launched, 0 with -p */
	bool hide; /* the child's own setup before its execve is not shown */
	const struct systrace_event *ev; /* the event being decoded */
	bool at_exit; /* decoding its exit */
};

/* An argument's memory from the copies the programs made (entry, or exit then entry). */
static ssize_t bpf_mem(struct ptk_tcb *t, u64 addr, void *buf, size_t len)
{
	struct bpf_state *b = t->mem_arg;
	const struct systrace_event *e = b->ev;

	for (int pass = b->at_exit ? 0 : 1; pass < 2; pass++) {
		for (u32 i = 0; i < MIN(e->nblob, (u32)SYSTRACE_NBLOB); i++) {
			const struct systrace_blob *bl = &e->b[i];
			bool exit_blob = bl->flags & ST_BLOB_EXIT;
			if (exit_blob != (pass == 0) || addr < bl->addr ||
			    addr >= bl->addr + MIN(bl->len, (u32)SYSTRACE_BLOB))
				continue;
			if (bl->flags & ST_BLOB_FAULT)
				return -EFAULT;
			size_t n = MIN(len, (size_t)(bl->addr + bl->len - addr));
			memcpy(buf, bl->data + (addr - bl->addr), n);
			return (ssize_t)n;
		}
	}
	return -EFAULT;
}

static struct ptk_tcb *bpf_tcb(struct bpf_state *b, pid_t tid, bool add)
{
	struct ptk_tcb **pp = &b->hash[(unsigned)tid & 255], *t;

	for (t = *pp; t; t = t->next)
		if (t->pid == tid)
			return t;
	if (!add)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->pid = tid;
	t->memfd = -1;
	t->nr = -1;
	t->mem_read = bpf_mem;
	t->mem_arg = b;
	t->next = *pp;
	*pp = t;
	b->s->tr.ntcb++;
	on_added(&b->s->tr, t);
	return t;
}

static void bpf_tcb_del(struct bpf_state *b, struct ptk_tcb *t)
{
	struct ptk_tcb **pp = &b->hash[(unsigned)t->pid & 255];

	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	b->s->tr.ntcb--;
	free(t);
}

/* the process is counted as alive from its first event to its exit */
static void bpf_tgid_seen(struct bpf_state *b, int tgid, bool gone)
{
	int i;

	for (i = 0; i < b->ntgids && b->tgids[i] != tgid; i++)
		;
	if (gone) {
		if (i < b->ntgids)
			b->tgids[i] = b->tgids[--b->ntgids];
		if (!b->ntgids)
			*b->s->tr.stop = 1; /* every process traced has ended */
	} else if (i == b->ntgids && b->ntgids < SYSTRACE_TGIDS) {
		b->tgids[b->ntgids++] = tgid;
	}
}

static int bpf_event(struct ptk_bpf_run *r, const void *data, size_t len)
{
	struct ptk_systrace *sys = r->priv;
	struct bpf_state *b = sys->arg;
	struct st *s = b->s;
	const struct systrace_event *e = data;
	struct ptk_tcb *t;

	if (len < offsetof(struct systrace_event, b))
		return 0;
	if (e->type == ST_EV_EXIT) {
		t = bpf_tcb(b, (pid_t)e->tid, true);
		b->ev = e;
		if (!(b->hide && (pid_t)e->tgid == b->child))
			on_gone(&s->tr, t, (int)e->ret);
		else
			tstate_free(s, t);
		bpf_tcb_del(b, t);
		bpf_tgid_seen(b, (int)e->tgid, true);
		return 1;
	}
	if (e->nblob > SYSTRACE_NBLOB)
		return 0;
	/* the last blob's data is cut to its length */
	if (e->nblob && len < offsetof(struct systrace_event, b) +
					(e->nblob - 1) * sizeof(struct systrace_blob) +
					offsetof(struct systrace_blob, data) +
					e->b[e->nblob - 1].len)
		return 0;
	if (b->hide && (pid_t)e->tgid == b->child) {
		if (e->nr != __NR_execve && e->nr != __NR_execveat)
			return 0;
		b->hide = false;
	}
	bpf_tgid_seen(b, (int)e->tgid, false);
	t = bpf_tcb(b, (pid_t)e->tid, true);
	if (s->tr.ntcb > 1)
		s->multi = true;
	t->nr = e->nr;
	memcpy(t->args, e->args, sizeof(t->args));
	t->entry_ns = e->entry_ns;
	t->in_syscall = true;
	b->ev = e;
	b->at_exit = false;
	s->tr.nsyscalls++;
	on_entry(&s->tr, t);
	if (!e->exit_ns) /* no return (exit_group): " = ?" with the exit line */
		return 1;
	b->at_exit = true;
	t->in_syscall = false;
	s->exit_ns = e->exit_ns;
	on_exit_(&s->tr, t, e->ret, e->ret < 0 && e->ret >= -4095, 0);
	s->exit_ns = 0;
	return 1;
}

/* -c --bpf: the kernel's counts into strace -c's summary (the time: entry to exit) */
static int bpf_report(struct ptk_bpf_run *r, long i, double itv_s, bool last)
{
	struct ptk_systrace *sys = r->priv;
	struct bpf_state *b = sys->arg;
	struct ptk_systrace_row *rows;
	int n;

	(void)i;
	(void)itv_s;
	(void)last;
	if (sys->trace_events)
		return 0;
	n = ptk_systrace_counts(sys, false, &rows);
	if (n < 0)
		return n;
	for (int k = 0; k < n; k++) {
		struct ptk_sysc_ent *en;
		if (rows[k].key.nr >= PTK_NSYSCALLS || !rows[k].val.count)
			continue;
		en = &b->s->stats.e[rows[k].key.nr];
		en->calls = rows[k].val.count;
		en->errors = rows[k].val.errors;
		en->time_us = rows[k].val.total_ns / 1000;
	}
	free(rows);
	return 0;
}

static const struct ptk_bpf_ops bpf_ops = {
	.name = "strace",
	.load_lskel = ptk_systrace_load_lskel,
	.open = ptk_systrace_open,
	.load = ptk_systrace_load,
	.event = bpf_event,
	.report = bpf_report,
};

/* -c --bpf: counted in the kernel, no events */
static const struct ptk_bpf_ops bpf_count_ops = {
	.name = "strace",
	.load_lskel = ptk_systrace_load_lskel,
	.open = ptk_systrace_open,
	.load = ptk_systrace_load,
	.report = bpf_report,
};

/* --bpf: the processes to watch for their end (the programs only see their calls) */
static volatile pid_t bpf_watch_child, bpf_watch_pid;
static volatile int bpf_child_status, bpf_child_done;

/* SIGALRM every 100 ms under --bpf: the command launched reaped, or -p's process gone */
static void bpf_watch(int sig)
{
	int st, e = errno;

	(void)sig;
	if (bpf_watch_child && !bpf_child_done && waitpid(bpf_watch_child, &st, WNOHANG) > 0) {
		bpf_child_status = st;
		bpf_child_done = 1;
		*stop_flag = 1;
	}
	if (bpf_watch_pid && kill(bpf_watch_pid, 0) && errno == ESRCH)
		*stop_flag = 1;
	errno = e;
}

/* Fork argv: the child waits on a pipe until the programs are attached, then execs. */
static pid_t bpf_launch(char **argv, int *sync_fd)
{
	int p[2];
	char c, path[PATH_MAX];
	pid_t pid;
	int rc;

	if ((rc = ptk_child_find(argv[0], path, sizeof(path))))
		return rc;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127); /* ptk gave up before attaching */
		close(p[0]);
		ptk_child_prepare();
		execv(path, argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", ptk_progname, argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*sync_fd = p[1];
	return pid;
}

/* strace --bpf: -p pids (or the command) to the end. Returns the exit code. */
static int bpf_strace(struct st *s, int *pids, int npids, char **argv, bool follow)
{
	struct bpf_state *b = xcalloc(1, sizeof(*b));
	struct ptk_bpf_run r = { .ctx = s->ctx,
				 .ops = s->cmode == 1 ? &bpf_count_ops : &bpf_ops,
				 .count = -1 };
	int rc, st;

	b->s = s;
	b->st.arg = b;
	b->st.sync_fd = -1;
	b->st.counts_fd = -1;
	b->st.trace_events = s->cmode != 1;
	b->st.latency = s->cmode != 0;
	b->st.follow = follow;
	b->st.use_tgids = follow;
	b->st.sel = s->trace_all ? NULL : s->sel;
	r.priv = &b->st;
	if (s->cmode == 2)
		ptk_warn("--bpf -C: the trace, then the summary counted in the kernel");
	if (npids) {
		if (npids > 1 && !follow) {
			ptk_err("--bpf -p takes one process (or -f with several)");
			free(b);
			return PTK_EXIT_USAGE;
		}
		if (follow)
			for (int i = 0; i < npids && i < (int)ARRAY_SIZE(b->st.seeds); i++)
				b->st.seeds[b->st.nseeds++] = pids[i];
		else
			r.filter.tgid = pids[0];
		for (int i = 0; i < npids; i++) {
			bpf_tgid_seen(b, pids[i], false);
			if (!(s->quiet & Q_ATTACH))
				fprintf(stderr,
					"%s: Process %d attached (--bpf: it does not stop)\n",
					ptk_progname, pids[i]);
		}
	} else {
		pid_t pid = bpf_launch(argv, &b->st.sync_fd);
		if (pid < 0) {
			ptk_err("cannot start %s: %s", argv[0], strerror((int)-pid));
			free(b);
			return PTK_EXIT_RUNTIME;
		}
		b->child = pid;
		b->hide = true;
		if (!b->st.trace_events) {
			/* counted from its execve on (events are hidden until it instead) */
			b->st.use_tgids = true;
			b->st.exec_seed = pid;
		} else if (follow) {
			b->st.seeds[b->st.nseeds++] = pid;
		} else {
			r.filter.tgid = pid;
		}
		bpf_tgid_seen(b, pid, false);
	}
	/* the end of the command or of -p's process stops the run too (the counts see none) */
	{
		struct sigaction al = { .sa_handler = bpf_watch, .sa_flags = SA_RESTART };
		struct itimerval it = { { 0, 100000 }, { 0, 100000 } };
		bpf_watch_child = b->child;
		bpf_watch_pid = npids == 1 ? pids[0] : 0;
		sigemptyset(&al.sa_mask);
		sigaction(SIGALRM, &al, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
	}
	rc = ptk_bpf_run(&r);
	{
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		setitimer(ITIMER_REAL, &off, NULL);
	}
	if (b->st.sync_fd >= 0) { /* never attached: the child ends without running */
		close(b->st.sync_fd);
		b->st.sync_fd = -1;
	}
	if (s->cur) {
		fputs("\n", out_of(s, s->cur));
		s->cur = NULL;
	}
	for (size_t k = 0; k < ARRAY_SIZE(b->hash); k++)
		while (b->hash[k]) {
			struct ptk_tcb *t = b->hash[k];
			tstate_free(s, t);
			bpf_tcb_del(b, t);
		}
	if (b->child) {
		/* Ctrl-C: the command goes on untraced, as after a ptrace detach */
		pid_t w = bpf_child_done ? b->child : waitpid(b->child, &st, WNOHANG);
		if (bpf_child_done)
			st = bpf_child_status;
		if (w == b->child && !rc)
			rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	free(b);
	return rc;
}

/* ---- -c summary ------------------------------------------------------------------------ */

static void sum_text_row(FILE *f, const struct ptk_val *v, bool blank_err)
{
	char b[C_N][64];

	for (int i = 0; i < C_N; i++)
		ptk_metric_fmt(sum_cols[i], &v[i], b[i], sizeof(b[i]));
	fprintf(f, "%6s %11s %11s %9s %9s %s\n", b[C_PCT], b[C_SEC], b[C_USEC], b[C_CALLS],
		blank_err ? "" : b[C_ERR], b[C_NAME]);
}

static void print_summary(struct st *s)
{
	int rows[PTK_NSYSCALLS];
	struct ptk_sysc_ent tot;
	int n = ptk_sysc_summary(&s->stats, s->sortby, rows, &tot);
	struct ptk_val v[C_N];
	static const char dash[] =
		"------ ----------- ----------- --------- --------- ----------------\n";
	bool json = s->ctx->json;
	FILE *f = s->out;

	if (json) {
		ptk_sink_begin(&s->ctx->sink);
		ptk_sink_table_begin(&s->ctx->sink, &sum_tab, false, NULL);
	} else {
		fprintf(f, "%6.6s %11.11s %11.11s %9.9s %9.9s %s\n", "% time", "seconds",
			"usecs/call", "calls", "errors", "syscall");
		fputs(dash, f);
	}
	for (int k = 0; k <= n; k++) {
		const struct ptk_sysc_ent *e = k == n ? &tot : &s->stats.e[rows[k]];
		double pct, secs;
		u64 us;
		if (k == n) {
			if (json)
				break;
			fputs(dash, f);
		}
		ptk_sysc_figures(e, tot.time_us, &pct, &secs, &us);
		v[C_PCT] = PTK_F(k == n ? 100.0 : pct);
		v[C_SEC] = PTK_F(secs);
		v[C_USEC] = PTK_U(us);
		v[C_CALLS] = PTK_U(e->calls);
		v[C_ERR] = PTK_U(e->errors);
		v[C_NAME] = PTK_S(k == n ? "total" : ptk_syscalls[rows[k]].name);
		if (json)
			ptk_sink_row(&s->ctx->sink, NULL, v);
		else
			sum_text_row(f, v, e->errors == 0);
	}
	if (json) {
		ptk_sink_table_end(&s->ctx->sink);
		ptk_sink_meta_u64(&s->ctx->sink, "calls", tot.calls);
		ptk_sink_meta_u64(&s->ctx->sink, "errors", tot.errors);
		ptk_sink_end(&s->ctx->sink);
	}
}

/* ---- options ---------------------------------------------------------------------------- */

/* *err = "WHAT 'ARG'" (a static buffer); returns -1 */
static int err_msg(const char **err, const char *what, const char *arg)
{
	static char msg[256];

	if (arg)
		snprintf(msg, sizeof(msg), "%s '%s'", what, arg);
	else
		snprintf(msg, sizeof(msg), "%s", what);
	*err = msg;
	return -1;
}

static int parse_trace(struct st *s, const char *val, const char **err)
{
	char *dup = xstrdup(val);
	const char *bad = NULL;
	int r = ptk_syscall_parse_set(dup, s->sel, &bad);

	if (r) {
		err_msg(err, "invalid system call", bad);
		free(dup);
		return -1;
	}
	free(dup);
	s->trace_all = true;
	for (int i = 0; i < PTK_NSYSCALLS; i++)
		if (ptk_syscalls[i].name && !s->sel[i])
			s->trace_all = false;
	return 0;
}

/* A comma-separated set of names from names[] (bit i for names[i]), with all, none and a
 * leading '!'. Returns 0 or -1 naming the bad token. */
static int parse_names(const char *val, const char *const *names, int n, unsigned *out,
		       const char *what, const char **err)
{
	char *dup = xstrdup(val), *p = dup, *save = NULL, *tok;
	bool neg = *p == '!';
	unsigned set = 0, all = (1u << n) - 1;

	if (neg)
		p++;
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;
		if (!strcmp(tok, "all")) {
			set = all;
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		for (i = 0; i < n && strcmp(tok, names[i]); i++)
			;
		if (i == n) {
			static char msg[128];
			snprintf(msg, sizeof(msg), "invalid %s '%s'", what, tok);
			*err = msg;
			free(dup);
			return -1;
		}
		set |= 1u << i;
	}
	free(dup);
	*out = neg ? all & ~set : set;
	return 0;
}

static int parse_status(struct st *s, const char *val, const char **err)
{
	static const char *const names[] = { "successful", "failed", "unfinished", "unavailable",
					     "detached" };
	return parse_names(val, names, 5, &s->status, "status", err);
}

static int parse_quiet(struct st *s, const char *val, const char **err)
{
	static const char *const names[] = { "attach", "exit", "personality", "thread-execve" };
	unsigned q;
	char *v = xstrdup(val);
	int r;

	/* strace's aliases */
	for (char *p = v; (p = strstr(p, "exits")); p++)
		memmove(p + 4, p + 5, strlen(p + 5) + 1);
	r = parse_names(v, names, 4, &q, "quiet", err);
	free(v);
	if (!r)
		s->quiet = q;
	return r;
}

static int parse_fdset(struct ptk_fdset *set, const char *val, const char **err)
{
	char *dup = xstrdup(val), *p = dup, *save = NULL, *tok;
	bool neg = false;

	while (*p == '!') { /* each '!' negates again */
		neg = !neg;
		p++;
	}
	memset(set, 0, sizeof(*set));
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int fd;
		if (!strcmp(tok, "all")) {
			memset(set->bits, 0xff, sizeof(set->bits));
			set->high = true;
		} else if (!strcmp(tok, "none")) {
			continue;
		} else if (ptk_parse_int(tok, &fd) || fd < 0) {
			err_msg(err, "invalid descriptor", tok);
			free(dup);
			return -1;
		} else if (fd < PTK_FDSET_MAX) {
			set->bits[fd / 64] |= 1ULL << (fd % 64);
		}
	}
	free(dup);
	if (neg) {
		for (size_t i = 0; i < ARRAY_SIZE(set->bits); i++)
			set->bits[i] = ~set->bits[i];
		set->high = !set->high;
	}
	return 0;
}

static int parse_signals(struct st *s, const char *val, const char **err)
{
	char *dup = xstrdup(val), *p = dup, *save = NULL, *tok;
	bool neg = *p == '!';

	if (neg)
		p++;
	memset(s->sigsel, 0, sizeof(s->sigsel));
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			memset(s->sigsel, 1, sizeof(s->sigsel));
		} else if (strcmp(tok, "none")) {
			int sig = ptk_signal_parse(tok);
			if (sig < 0) {
				err_msg(err, "invalid signal", tok);
				free(dup);
				return -1;
			}
			s->sigsel[sig] = true;
		}
	}
	if (neg)
		for (int i = 0; i <= 64; i++)
			s->sigsel[i] = !s->sigsel[i];
	free(dup);
	return 0;
}

/* when=FIRST[..LAST][+[STEP]] */
static int parse_when(struct inject *in, const char *v)
{
	char *end;
	unsigned long a = strtoul(v, &end, 10), b;

	if (end == v || a < 1 || a > 65535)
		return -1;
	in->first = (unsigned)a;
	in->last = (unsigned)a;
	in->step = 0;
	if (!strncmp(end, "..", 2)) {
		v = end + 2;
		b = strtoul(v, &end, 10);
		if (end == v || b < a || b > 65535)
			return -1;
		in->last = (unsigned)b;
		in->step = 1;
	}
	if (*end == '+') {
		in->step = 1;
		if (end[1]) {
			v = end + 1;
			b = strtoul(v, &end, 10);
			if (end == v || !b || b > 65535)
				return -1;
			in->step = (unsigned)b;
		}
		if (in->last == in->first && !strchr(v, '.'))
			in->last = 65535;
	}
	return *end ? -1 : 0;
}

static int parse_inject(struct st *s, const char *key, const char *val, const char **err)
{
	char *dup = xstrdup(val), *save = NULL, *tok, *set = strtok_r(dup, ":", &save);
	struct inject in = { .first = 1, .last = 1 };
	bool fault = !strcmp(key, "fault");
	bool any = false;

	if (!set)
		goto bad;
	{
		char *sd = xstrdup(set);
		const char *bad = NULL;
		int r = ptk_syscall_parse_set(sd, in.sel, &bad);
		free(sd);
		if (r) {
			err_msg(err, "invalid system call", bad);
			free(dup);
			return -1;
		}
	}
	in.last = 65535; /* every call unless when= */
	in.step = 1;
	while ((tok = strtok_r(NULL, ":", &save))) {
		int v;
		if (!strncmp(tok, "error=", 6)) {
			const char *e = tok + 6;
			v = ptk_parse_int(e, &v) ? ptk_errno_value(e) : v;
			if (v <= 0 || v > 4095)
				goto bad;
			in.err = v;
			in.has_ret = true;
		} else if (!strncmp(tok, "retval=", 7) && !fault) {
			long long r;
			char *end;
			r = strtoll(tok + 7, &end, 0);
			if (*end || end == tok + 7)
				goto bad;
			in.retval = r;
			in.err = 0;
			in.has_ret = true;
		} else if (!strncmp(tok, "signal=", 7) && !fault) {
			if ((in.sig = ptk_signal_parse(tok + 7)) < 0)
				goto bad;
		} else if (!strncmp(tok, "when=", 5)) {
			if (parse_when(&in, tok + 5))
				goto bad;
		} else {
			goto bad;
		}
		any = true;
	}
	if (fault && !in.has_ret) {
		in.err = ENOSYS;
		in.has_ret = true;
		any = true;
	}
	if (!any)
		goto bad;
	free(dup);
	s->inj = xrealloc(s->inj, (size_t)(s->ninj + 1) * sizeof(*s->inj));
	s->inj[s->ninj++] = in;
	return 0;
bad:
	free(dup);
	return err_msg(err,
		       fault ? "invalid fault= (SET[:error=E][:when=N..M+S])" :
			       "invalid inject= (SET:error=E|retval=N[:signal=S][:when=N..M+S])",
		       NULL);
}

static int parse_e(struct st *s, char *arg, const char **err)
{
	char *eq = strchr(arg, '=');
	const char *key = "trace", *val = arg;

	if (eq) {
		*eq = 0;
		key = arg;
		val = eq + 1;
	}
	if (!strcmp(key, "trace") || !strcmp(key, "t"))
		return parse_trace(s, val, err);
	if (!strcmp(key, "status"))
		return parse_status(s, val, err);
	if (!strcmp(key, "signal") || !strcmp(key, "signals") || !strcmp(key, "s"))
		return parse_signals(s, val, err);
	if (!strcmp(key, "read") || !strcmp(key, "reads") || !strcmp(key, "r"))
		return parse_fdset(&s->dec.rdump, val, err);
	if (!strcmp(key, "write") || !strcmp(key, "writes") || !strcmp(key, "w"))
		return parse_fdset(&s->dec.wdump, val, err);
	if (!strcmp(key, "quiet") || !strcmp(key, "silent") || !strcmp(key, "silence") ||
	    !strcmp(key, "q"))
		return parse_quiet(s, val, err);
	if (!strcmp(key, "inject") || !strcmp(key, "fault"))
		return parse_inject(s, key, val, err);
	if (!strcmp(key, "verbose") || !strcmp(key, "v") || !strcmp(key, "abbrev") ||
	    !strcmp(key, "a")) {
		/* per-syscall verbosity is all or nothing here */
		bool all = !strcmp(val, "all"), none = !strcmp(val, "none");
		if (!all && !none)
			return err_msg(err, "-e verbose= and abbrev= take all or none here, not",
				       val);
		s->dec.verbose = (key[0] == 'v') == all;
		return 0;
	}
	return err_msg(err,
		       "unknown -e qualifier (trace, status, signal, read, write, quiet, "
		       "inject, fault, verbose, abbrev)",
		       key);
}

enum {
	OPT_TRACE = 0x2000,
	OPT_TRACE_PATH,
	OPT_STATUS,
	OPT_SIGNAL,
	OPT_QUIET,
	OPT_NO_ABBREV,
	OPT_FAILED_ONLY,
	OPT_SUCCESSFUL_ONLY,
	OPT_INJECT,
	OPT_FAULT,
	OPT_SUMMARY_ONLY,
	OPT_OUTPUT_SEPARATELY,
	OPT_FOLLOW_FORKS,
	OPT_STRING_LIMIT,
	OPT_COLUMNS,
	OPT_BPF,
};

/* The long options that are -e qualifiers: --trace=SET is -e trace=SET, and so on. */
static const char *const qual_opts[] = {
	[OPT_TRACE - OPT_TRACE] = "trace",   [OPT_STATUS - OPT_TRACE] = "status",
	[OPT_SIGNAL - OPT_TRACE] = "signal", [OPT_QUIET - OPT_TRACE] = "quiet",
	[OPT_INJECT - OPT_TRACE] = "inject", [OPT_FAULT - OPT_TRACE] = "fault",
};

int cmd_strace(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "trace-path", required_argument, NULL, OPT_TRACE_PATH },
		{ "status", required_argument, NULL, OPT_STATUS },
		{ "signal", required_argument, NULL, OPT_SIGNAL },
		{ "signals", required_argument, NULL, OPT_SIGNAL },
		{ "quiet", required_argument, NULL, OPT_QUIET },
		{ "silent", required_argument, NULL, OPT_QUIET },
		{ "silence", required_argument, NULL, OPT_QUIET },
		{ "no-abbrev", no_argument, NULL, OPT_NO_ABBREV },
		{ "failed-only", no_argument, NULL, OPT_FAILED_ONLY },
		{ "successful-only", no_argument, NULL, OPT_SUCCESSFUL_ONLY },
		{ "inject", required_argument, NULL, OPT_INJECT },
		{ "fault", required_argument, NULL, OPT_FAULT },
		{ "summary-only", no_argument, NULL, OPT_SUMMARY_ONLY },
		{ "output-separately", no_argument, NULL, OPT_OUTPUT_SEPARATELY },
		{ "follow-forks", no_argument, NULL, OPT_FOLLOW_FORKS },
		{ "string-limit", required_argument, NULL, OPT_STRING_LIMIT },
		{ "columns", required_argument, NULL, OPT_COLUMNS },
		{ "bpf", no_argument, NULL, OPT_BPF },
		PTK_COMMON_OPTS,
		{ 0 }
	};
	struct st *s = xcalloc(1, sizeof(*s));
	int *pids = NULL, npids = 0, c, r, rc = 0, nq = 0;
	char bad[128];
	int follow = 0;
	const char *err = NULL;
	struct sock_filter *filt = NULL;
	struct sock_fprog prog;
	u64 t_start;

	s->ctx = ctx;
	s->dec.strsize = 32;
	s->dec.acol = 40;
	s->status = ST_ALL;
	s->trace_all = true;
	memset(s->sigsel, 1, sizeof(s->sigsel));
	for (int i = 0; i < PTK_NSYSCALLS; i++)
		s->sel[i] = ptk_syscalls[i].name != NULL;
	while ((c = ptk_getopt(ctx, argc, argv, "+fp:e:cCS:Ttryws:vo:hP:a:qxZzk", opts, usage,
			       &r)) >= 0) {
		switch (c) {
		case 'f':
		case OPT_FOLLOW_FORKS:
			follow++;
			break;
		case OPT_OUTPUT_SEPARATELY:
			s->ff = 1;
			break;
		case 'p':
			if (ptk_parse_id_list(optarg, ", ", &pids, &npids, bad, sizeof(bad))) {
				rc = ptk_usage_error(ctx, "invalid process id '%s'", bad);
				goto out_free;
			}
			break;
		case OPT_TRACE:
		case OPT_STATUS:
		case OPT_SIGNAL:
		case OPT_QUIET:
		case OPT_INJECT:
		case OPT_FAULT:
		case 'e': {
			char *q = NULL;

			if (c != 'e') {
				const char *name = qual_opts[c - OPT_TRACE];

				q = xmalloc(strlen(name) + strlen(optarg) + 2);
				sprintf(q, "%s=%s", name, optarg);
			}
			r = parse_e(s, q ? q : optarg, &err);
			free(q);
			if (r < 0) {
				rc = ptk_usage_error(ctx, "%s", err);
				goto out_free;
			}
			break;
		}
		case 'P':
		case OPT_TRACE_PATH: {
			char *rp = realpath(optarg, NULL);
			s->paths = xrealloc(s->paths, (size_t)(s->npaths + 2) * sizeof(char *));
			s->paths[s->npaths++] = xstrdup(optarg);
			if (rp && strcmp(rp, optarg))
				s->paths[s->npaths++] = rp;
			else
				free(rp);
			break;
		}
		case 'Z':
		case OPT_FAILED_ONLY:
			s->status = ST_FAILED;
			break;
		case 'z':
		case OPT_SUCCESSFUL_ONLY:
			s->status = ST_SUCCESSFUL;
			break;
		case 'q':
			nq++;
			s->quiet |= Q_ATTACH | Q_PERSONALITY | (nq > 1 ? Q_EXIT : 0);
			break;
		case 'x':
			s->dec.xstr++;
			break;
		case 'a':
		case OPT_COLUMNS:
			if (ptk_parse_int(optarg, &s->dec.acol) || s->dec.acol < 0) {
				rc = ptk_usage_error(ctx, "invalid -a '%s'", optarg);
				goto out_free;
			}
			break;
		case 'c':
		case OPT_SUMMARY_ONLY:
			s->cmode = 1;
			break;
		case 'C':
			s->cmode = 2;
			break;
		case 'S':
			if (ptk_sysc_sort_parse(optarg, &s->sortby)) {
				rc = ptk_usage_error(ctx, "invalid sortby '%s'", optarg);
				goto out_free;
			}
			break;
		case 'T':
			s->show_time = true;
			break;
		case 't':
			s->tstamp++;
			break;
		case 'r':
			s->relative = true;
			break;
		case 'y':
			s->dec.fdpath = true;
			break;
		case 'w':
			s->wall_summary = true; /* -c: wall time from entry to exit */
			break;
		case 's':
		case OPT_STRING_LIMIT:
			if (ptk_parse_int(optarg, &s->dec.strsize) || s->dec.strsize < 0) {
				rc = ptk_usage_error(ctx, "invalid -s '%s'", optarg);
				goto out_free;
			}
			break;
		case 'v':
		case OPT_NO_ABBREV:
			s->dec.verbose = true;
			break;
		case 'o':
			s->outname = optarg;
			break;
		case OPT_BPF:
			s->bpf = true;
			break;
		case 'k':
			if (!s->sym)
				s->sym = ptk_sym_new(ctx->procfs, 0);
			break;
		case 'h':
			fputs(usage, stdout);
			goto out_free;
		}
	}
	if (c == PTK_GETOPT_EXIT) {
		rc = r;
		goto out_free;
	}
	if (follow > 1)
		s->ff = 1;
	if (s->ff && !follow)
		follow = 1;
	if (s->ff && !s->outname)
		s->ff = 0; /* strace: -ff without -o is -f */
	if (s->ff && s->cmode) {
		rc = ptk_usage_error(ctx, "-c and -ff are exclusive");
		goto out_free;
	}
	if (s->bpf && s->ninj) {
		rc = ptk_usage_error(ctx, "--bpf cannot inject: the tracepoints only watch");
		goto out_free;
	}
	if (s->bpf && s->sym) {
		rc = ptk_usage_error(ctx, "-k needs the ptrace path (a stop at each syscall exit)");
		goto out_free;
	}
	if (!npids && optind >= argc) {
		rc = ptk_usage_error(ctx, "must have -p PID or a command to run");
		goto out_free;
	}
	if (npids && optind < argc) {
		rc = ptk_usage_error(ctx, "-p and a command are exclusive");
		goto out_free;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		goto out_free;
	for (int i = 0; i < npids; i++)
		if ((rc = ptk_require_stoppable(ctx, pids[i], "trace")))
			goto out_free;

	if (s->outname && !s->ff) {
		s->out = fopen(s->outname, "we");
		if (!s->out) {
			ptk_err("cannot open %s: %s", s->outname, strerror(errno));
			rc = PTK_EXIT_RUNTIME;
			goto out_free;
		}
		s->to_file = true;
	} else {
		s->out = fdopen(fcntl(2, F_DUPFD_CLOEXEC, 3), "w");
		if (!s->out)
			s->out = stderr;
		s->to_file = s->ff;
	}
	setvbuf(s->out, NULL, isatty(fileno(s->out)) ? _IOLBF : _IOFBF, 1 << 16);

	ptk_tracer_init(&s->tr, &ops, s);
	s->tr.follow = follow > 0;
	s->tr.rusage = s->cmode != 0;
	s->tr.timing = s->show_time || s->wall_summary;
	s->tr.stop = &ctx->stop;

	stop_flag = &ctx->stop;
	struct sigaction sa = { .sa_handler = on_stop }, al = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &al, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (s->bpf) {
		rc = bpf_strace(s, pids, npids, argv + optind, follow > 0);
		{
			struct itimerval off = { { 0, 0 }, { 0, 0 } };
			setitimer(ITIMER_REAL, &off, NULL);
		}
		if (s->cmode)
			print_summary(s);
		fflush(s->out);
		goto out_free;
	}
	t_start = ptk_now_ns();
	if (npids) {
		for (int i = 0; i < npids; i++) {
			r = ptk_tracer_attach(&s->tr, pids[i]);
			if (r < 0) {
				ptk_err("attach: ptrace(PTRACE_SEIZE, %d): %s", pids[i],
					strerror(-r));
				rc = PTK_EXIT_RUNTIME;
				goto out_detach;
			}
			if (!(s->quiet & Q_ATTACH))
				fprintf(stderr, "%s: Process %d attached (%d thread%s)\n",
					ptk_progname, pids[i], r, r == 1 ? "" : "s");
		}
	} else {
		/*
		 * The filter is inherited by every descendant, and a SECCOMP_RET_TRACE with no
		 * tracer fails the call with ENOSYS: only with -f, where every descendant is
		 * traced, may the kernel filter (strace refuses --seccomp-bpf without -f).
		 */
		if (!s->trace_all && s->tr.follow && !s->ninj) {
			int n = ptk_seccomp_build(s->sel, &filt);
			if (n > 0) {
				prog.len = (unsigned short)n;
				prog.filter = filt;
				s->tr.seccomp = true;
			}
		}
		r = ptk_tracer_launch(&s->tr, argv + optind, s->tr.seccomp ? &prog : NULL);
		if (r < 0) {
			ptk_err("cannot start %s: %s", argv[optind], strerror(-r));
			rc = PTK_EXIT_RUNTIME;
			goto out_free;
		}
	}

	r = ptk_tracer_run(&s->tr);
out_detach:
	if (s->tr.ntcb > 0) {
		int left = ptk_tracer_detach_all(&s->tr, 1000000000ULL);
		if (left)
			ptk_warn("%d tracee(s) did not stop within 1 s: the kernel detaches them "
				 "as ptk exits",
				 left);
	}
	{
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		setitimer(ITIMER_REAL, &off, NULL);
	}
	if (s->cur) {
		fputs("\n", s->out);
		s->cur = NULL;
	}
	if (s->cmode)
		print_summary(s);
	fflush(s->out);
	if (!rc || s->tr.nstops) { /* nothing was traced when the attach failed */
		u64 wall = ptk_now_ns() - t_start;
		u64 cost = s->tr.nstops ? ptk_ptrace_stop_cost_ns(300) : 0;
		fprintf(stderr,
			"%s: %llu syscalls, %llu stops, ~%.1f ms added to the target "
			"(%.2f us per stop measured here; %.1f s traced)\n",
			ptk_progname, (unsigned long long)s->tr.nsyscalls,
			(unsigned long long)s->tr.nstops, (double)s->tr.nstops * (double)cost / 1e6,
			(double)cost / 1e3, (double)wall / 1e9);
	}
	if (!rc && s->tr.launched && s->tr.launched_done) {
		int st = s->tr.launched_status;
		rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
out_free:
	if (s->out && s->out != stderr)
		fclose(s->out);
	for (int i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->inj);
	if (s->sym)
		ptk_sym_free(s->sym);
	free(filt);
	free(pids);
	free(s);
	return rc;
}
