// SPDX-License-Identifier: GPL-2.0
/* ptk pstack: the user stack of every thread of a process, with a bounded, measured pause. */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "source/ptrace/stop.h"
#include "source/ptrace/unwind.h"
#include "source/sym/sym.h"

static const char usage[] =
	"usage: ptk pstack PID [-n MAXFRAMES] [-s] [-i] [--group] [--json]\n"
	"Stack trace of every thread of PID (pstack, eu-stack -p, gdb 'thread apply all bt').\n"
	"Every thread is seized and interrupted (PTRACE_SEIZE + PTRACE_INTERRUPT: no SIGSTOP),\n"
	"its registers and a copy of its stack are taken, and the process is let go; the stacks\n"
	"are unwound afterwards (libdw: DWARF CFI, frame pointers as a fallback, signal frames).\n"
	"The pause the process saw is measured and printed.\n"
	"  -n MAXFRAMES  at most this many frames per thread (default 256)\n"
	"  -s            add source file:line where debug info exists\n"
	"  -i            add inlined functions as frames (DWARF)\n"
	"  --group       merge threads with identical stacks (\"12 threads x\" one stack)\n"
	"  --stack-max BYTES  stack bytes copied per thread (default 1048576); deeper frames\n"
	"                are read from the running process\n";

enum { OPT_GROUP = 0x1300, OPT_STACK_MAX };

/* The process line. */
enum { P_PID, P_COMM, P_THREADS, P_STOPPED, P_PAUSE, P_N };
static const struct ptk_metric *const proc_cols[P_N] = {
	[P_PID] = PTK_M(PROC_PID),	     [P_COMM] = PTK_M(PROC_COMM),
	[P_THREADS] = PTK_M(PTRACE_THREADS), [P_STOPPED] = PTK_M(PTRACE_THREADS_STOPPED),
	[P_PAUSE] = PTK_M(PTRACE_PAUSE_MS),
};
static const struct ptk_table proc_tab = { .name = "process", .ncols = P_N, .refs = proc_cols };

/* One frame. */
enum { F_LEVEL, F_PC, F_FUNC, F_OFF, F_MODULE, F_FILE, F_LINE, F_INLINED, F_N };
static const struct ptk_metric *const frame_cols[F_N] = {
	[F_LEVEL] = PTK_M(FRAME_LEVEL),	  [F_PC] = PTK_M(FRAME_PC),
	[F_FUNC] = PTK_M(FRAME_FUNC),	  [F_OFF] = PTK_M(FRAME_OFFSET),
	[F_MODULE] = PTK_M(FRAME_MODULE), [F_FILE] = PTK_M(FRAME_FILE),
	[F_LINE] = PTK_M(FRAME_LINE),	  [F_INLINED] = PTK_M(FRAME_INLINED),
};
static const struct ptk_table frame_tab = { .name = "frames", .ncols = F_N, .refs = frame_cols };

/* One thread, or a group of threads with the same stack. */
enum { T_COUNT, T_TID, T_NAME, T_END, T_N };
static const struct ptk_metric *const thr_cols[T_N] = {
	[T_COUNT] = PTK_M(STACK_THREADS),
	[T_TID] = PTK_M(PROC_TID),
	[T_NAME] = PTK_M(STACK_THREAD_NAME),
	[T_END] = PTK_M(STACK_END),
};
static const struct ptk_table thr_tab = { .name = "threads", .ncols = T_N, .refs = thr_cols };

struct opts {
	pid_t pid;
	int max_frames;
	bool lines, inlines, group;
	size_t stack_max;
};

static void frame_vals(const struct ptk_uframe *f, int level, const struct opts *o, char *pc,
		       size_t pcsize, struct ptk_val *v)
{
	snprintf(pc, pcsize, "0x%016" PRIx64, f->pc);
	v[F_LEVEL] = PTK_U(level);
	v[F_PC] = PTK_S(pc);
	v[F_FUNC] = f->sym.func ? PTK_S(f->sym.func) : PTK_NA;
	v[F_OFF] = f->sym.func && !f->inlined ? PTK_U(f->sym.off) : PTK_NA;
	v[F_MODULE] = f->sym.module ? PTK_S(f->sym.module) : PTK_NA;
	v[F_FILE] = o->lines && f->sym.file ? PTK_S(f->sym.file) : PTK_NA;
	v[F_LINE] = o->lines && f->sym.file && f->sym.line > 0 ? PTK_U(f->sym.line) : PTK_NA;
	v[F_INLINED] = PTK_U(f->inlined);
}

static const char *stack_end(const struct ptk_ustack *u, char *buf, size_t size)
{
	switch (u->err) {
	case 0:
		return "outermost";
	case -ELOOP:
		return "loop";
	case -E2BIG:
		return "max frames";
	case -EIO:
		snprintf(buf, size, "unwind error: %s", u->errmsg);
		return buf;
	default:
		snprintf(buf, size, "thread not stopped: %s", strerror(-u->err));
		return buf;
	}
}

static void print_stack_text(const struct ptk_ustack *u, const struct opts *o)
{
	unsigned fl = PTK_FRAME_OFFSET | PTK_FRAME_MODULE | (o->lines ? PTK_FRAME_LINE : 0);
	char buf[1024], end[160];

	for (int k = 0; k < u->n; k++) {
		const struct ptk_uframe *f = &u->f[k];

		ptk_frame_fmt(&f->sym, f->inlined ? fl & ~PTK_FRAME_OFFSET : fl, buf, sizeof(buf));
		printf("#%-2d 0x%016" PRIx64 " %s%s\n", k, f->pc, f->inlined ? "(inlined) " : "",
		       buf);
	}
	if (u->err)
		printf("    (%s)\n", stack_end(u, end, sizeof(end)));
}

static struct json_object *stack_json(const struct ptk_ustack *u, const struct opts *o)
{
	struct json_object *a = json_object_new_array();
	struct ptk_val v[F_N];
	char pc[24];

	for (int k = 0; k < u->n; k++) {
		frame_vals(&u->f[k], k, o, pc, sizeof(pc), v);
		json_object_array_add(a, ptk_json_row(&frame_tab, v));
	}
	return a;
}

static int report(struct ptk_ctx *ctx, const struct opts *o, const struct ptk_stop *st,
		  const struct ptk_ustack *u, const char *comm)
{
	struct ptk_val pv[P_N], tv[T_N];
	int *group = xcalloc(st->n, sizeof(int)); /* group leader index of each thread */
	struct json_object *arr = ctx->json ? json_object_new_array() : NULL;
	char buf[64], end[160];

	for (int i = 0; i < st->n; i++) {
		group[i] = i;
		for (int j = 0; o->group && j < i; j++) {
			if (group[j] == j && ptk_ustack_same(&u[i], &u[j])) {
				group[i] = j;
				break;
			}
		}
	}
	pv[P_PID] = PTK_I(st->pid);
	pv[P_COMM] = PTK_S(comm);
	pv[P_THREADS] = PTK_U(st->n);
	pv[P_STOPPED] = PTK_U(ptk_stop_count(st));
	pv[P_PAUSE] = PTK_F(ptk_stop_pause_ns(st) / 1e6);
	if (!ctx->json) {
		printf("pid %s (%s): %s threads, %s stopped, paused %s ms\n",
		       ptk_metric_fmt(proc_cols[P_PID], &pv[P_PID], buf, 16), comm,
		       ptk_metric_fmt(proc_cols[P_THREADS], &pv[P_THREADS], buf + 16, 16),
		       ptk_metric_fmt(proc_cols[P_STOPPED], &pv[P_STOPPED], buf + 32, 16),
		       ptk_metric_fmt(proc_cols[P_PAUSE], &pv[P_PAUSE], buf + 48, 16));
	}
	for (int i = 0; i < st->n; i++) {
		int cnt = 0;
		struct json_object *tids = NULL, *names = NULL;

		if (group[i] != i)
			continue;
		if (ctx->json && o->group) {
			tids = json_object_new_array();
			names = json_object_new_array();
		}
		for (int j = i; j < st->n; j++) {
			if (group[j] != i)
				continue;
			cnt++;
			if (tids) {
				json_object_array_add(tids, json_object_new_int(st->t[j].tid));
				json_object_array_add(names, json_object_new_string(st->t[j].comm));
			}
		}
		tv[T_COUNT] = PTK_U(cnt);
		tv[T_TID] = PTK_I(st->t[i].tid);
		tv[T_NAME] = PTK_S(st->t[i].comm);
		tv[T_END] = PTK_S(stack_end(&u[i], end, sizeof(end)));
		if (ctx->json) {
			struct json_object *o_ = ptk_json_row(&thr_tab, tv);
			if (!o->group) {
				json_object_object_del(o_, "count");
			} else {
				json_object_object_del(o_, "tid");
				json_object_object_del(o_, "name");
				json_object_object_add(o_, "tids", tids);
				json_object_object_add(o_, "names", names);
			}
			json_object_object_add(o_, "frames", stack_json(&u[i], o));
			json_object_array_add(arr, o_);
			continue;
		}
		if (o->group && cnt > 1) {
			printf("\n%d threads \u00d7", cnt);
			for (int j = i; j < st->n; j++)
				if (group[j] == i)
					printf(" %d \"%s\"", st->t[j].tid, st->t[j].comm);
			printf(":\n");
		} else {
			printf("\nThread %d \"%s\":\n", st->t[i].tid, st->t[i].comm);
		}
		print_stack_text(&u[i], o);
	}
	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(&ctx->sink, "process", ptk_json_row(&proc_tab, pv));
		ptk_sink_meta_json(&ctx->sink, o->group ? "groups" : "threads", arr);
		ptk_sink_end(&ctx->sink);
	}
	free(group);
	return 0;
}

int cmd_pstack(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { { "group", no_argument, NULL, OPT_GROUP },
					       { "stack-max", required_argument, NULL,
						 OPT_STACK_MAX },
					       PTK_COMMON_OPTS,
					       { 0 } };
	struct opts o = { .max_frames = 256, .stack_max = 1 << 20 };
	struct ptk_symbolizer *sym = NULL;
	struct ptk_ustack *u = NULL;
	struct ptk_stop st = { 0 };
	char path[64], comm[32] = "";
	int c, r, rc = PTK_EXIT_RUNTIME;
	u64 v;

	while ((c = ptk_getopt(ctx, argc, argv, "n:si", lopts, usage, &r)) >= 0) {
		switch (c) {
		case 'n':
			if (ptk_parse_int(optarg, &o.max_frames) || o.max_frames < 1)
				return ptk_usage_error(ctx, "bad frame count '%s'", optarg);
			break;
		case 's':
			o.lines = true;
			break;
		case 'i':
			o.inlines = true;
			break;
		case OPT_GROUP:
			o.group = true;
			break;
		case OPT_STACK_MAX:
			if (ptk_parse_u64(optarg, &v) || v < 4096 || v > (1ULL << 30))
				return ptk_usage_error(ctx, "bad --stack-max '%s' (4096..2^30)",
						       optarg);
			o.stack_max = v;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if ((r = ptk_parse_pid_operand(ctx, argc, argv, &o.pid)))
		return r;
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	if (!ptk_src_is_live(&ctx->src)) {
		ptk_err("needs a live process: --procfs/--sysfs trees cannot be ptraced");
		return PTK_EXIT_RUNTIME;
	}
	if ((r = ptk_require_stoppable(ctx, o.pid, "unwind")))
		return r;
	if (o.pid == getpid()) {
		ptk_err("cannot stop itself");
		return PTK_EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", o.pid);
	if ((r = ptk_read_file(path, comm, sizeof(comm))) < 0) {
		ptk_err("process %d: %s", o.pid, strerror(r == -ENOENT ? ESRCH : -r));
		return PTK_EXIT_RUNTIME;
	}
	comm[strcspn(comm, "\n")] = '\0';

	/* modules and ELF files are read before the stop, so the pause holds only the stop */
	sym = ptk_sym_new(ctx->procfs, o.lines ? PTK_SYM_LINES : 0);
	if (!ptk_sym_dwfl(sym, o.pid)) {
		ptk_err("process %d: cannot read its memory map", o.pid);
		goto out_free_stacks;
	}
	r = ptk_stop_all(o.pid, PTK_STOP_STACKS, o.stack_max, &st);
	if (r) {
		ptk_err("cannot stop process %d: %s%s", o.pid, strerror(-r),
			r == -EPERM ? " (another tracer, or no permission: "
				      "/proc/sys/kernel/yama/ptrace_scope, CAP_SYS_PTRACE)" :
				      "");
		goto out_free_stacks;
	}
	ptk_stop_resume(&st);

	u = xcalloc(st.n, sizeof(*u));
	r = ptk_unwind_threads(sym, &st, o.max_frames, o.inlines ? PTK_UNWIND_INLINES : 0, u);
	if (r) {
		ptk_err("process %d: cannot unwind: %s", o.pid, strerror(-r));
		goto out_free_stacks;
	}
	rc = report(ctx, &o, &st, u, comm);
out_free_stacks:
	for (int i = 0; u && i < st.n; i++)
		ptk_ustack_free(&u[i]);
	free(u);
	ptk_sym_free(sym); /* before the stop state: the Dwfl's thread callbacks read it */
	ptk_stop_free(&st);
	return rc;
}
