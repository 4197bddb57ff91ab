// SPDX-License-Identifier: GPL-2.0
/*
 * ptk ftrace: trace-cmd's record and report in one, streamed: the function tracer with its
 * function and pid filters and stack traces, any events with filters, function_graph where
 * the kernel has it, always in a private tracefs instance (source/tracefs/instance.h): the
 * global tracer, filters and buffers are never touched, and an instance left by a killed
 * run is removed by the next. Records are described by libtraceevent (trace-cmd's library,
 * its plugins loaded) and printed in trace-cmd report's notation, or as JSON.
 */
#include <errno.h>
#include <event-parse.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <trace-seq.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "output/sink.h"
#include "source/perf/perf.h"
#include "source/sym/sym.h"
#include "source/tracefs/instance.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk ftrace [-p TRACER] [-l FUNC]... [-n FUNC]... [-g FUNC]... [-P PID]...\n"
	"                  [-e EVENT [-f FILTER]]... [-T] [--func-stack] [-b KB] [-d SECONDS]\n"
	"                  [-F] [--json] [-- COMMAND [ARG...]]\n"
	"ftrace through a private tracefs instance, printed as trace-cmd report prints it. The\n"
	"global tracer, filters and buffers are never changed; an instance a killed run left is\n"
	"removed by the next run.\n"
	"  -p TRACER       function or function_graph (where the kernel has them)\n"
	"  -l FUNC         trace only these functions (patterns); -n FUNC: not these\n"
	"  -g FUNC         function_graph: graph these functions only\n"
	"  -P PID          only this process (the tracer and the events)\n"
	"  -e EVENT        events: SYSTEM, SYSTEM:EVENT (patterns), or all\n"
	"  -f FILTER       the kernel's filter for the -e before it ('prev_pid == 1')\n"
	"  -T              a kernel stack trace after each event\n"
	"  --func-stack    a kernel stack trace after each traced function\n"
	"  -b KB           the instance's buffer per CPU, in KiB\n"
	"  -d SECONDS      stop after SECONDS (else at Ctrl-C, or when COMMAND exits)\n"
	"  -F              only COMMAND (and its children)\n";

enum { OPT_FUNC_STACK = 0x3000 };

#define MAX_ITEMS 64

struct req {
	const char *tracer;
	const char *funcs[3][MAX_ITEMS];
	int nfuncs[3];
	int pids[MAX_ITEMS], npids;
	const char *events[MAX_ITEMS], *filters[MAX_ITEMS];
	int nevents;
	bool stack, func_stack, only_cmd;
	int buffer_kb;
	double duration;
};

struct run {
	struct ptk_ctx *ctx;
	struct tep_handle *tep;
	struct ptk_symbolizer *sym;
	struct trace_seq seq;
	unsigned long long records;
	bool hidden_exec; /* sched_process_exec enabled for the names only: not printed */
};

static int add_item(struct ptk_ctx *ctx, const char **v, int *n, const char *arg)
{
	if (*n == MAX_ITEMS)
		return ptk_usage_error(ctx, "more than %d of one option", MAX_ITEMS);
	v[(*n)++] = arg;
	return 0;
}

static int parse(struct ptk_ctx *ctx, int argc, char **argv, struct req *q)
{
	static const struct option longs[] = {
		{ "func-stack", no_argument, NULL, OPT_FUNC_STACK },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	int c, rc = 0, pid;

	while ((c = ptk_getopt(ctx, argc, argv, "+p:l:n:g:P:e:f:Tb:d:F", longs, usage, &rc)) >= 0) {
		switch (c) {
		case 'p':
			q->tracer = optarg;
			break;
		case 'l':
		case 'n':
		case 'g': {
			int w = c == 'l' ? PTK_FTRACE_FILTER :
				c == 'n' ? PTK_FTRACE_NOTRACE :
					   PTK_FTRACE_GRAPH;
			if ((rc = add_item(ctx, q->funcs[w], &q->nfuncs[w], optarg)))
				return rc;
			break;
		}
		case 'P':
			if (ptk_parse_int(optarg, &pid) || pid <= 0)
				return ptk_usage_error(ctx, "invalid PID '%s'", optarg);
			if (q->npids == MAX_ITEMS)
				return ptk_usage_error(ctx, "too many -P");
			q->pids[q->npids++] = pid;
			break;
		case 'e':
			if ((rc = add_item(ctx, q->events, &q->nevents, optarg)))
				return rc;
			break;
		case 'f':
			if (!q->nevents)
				return ptk_usage_error(ctx, "-f goes after the -e it filters");
			q->filters[q->nevents - 1] = optarg;
			break;
		case 'T':
			q->stack = true;
			break;
		case OPT_FUNC_STACK:
			q->func_stack = true;
			break;
		case 'b':
			if (ptk_parse_int(optarg, &q->buffer_kb) || q->buffer_kb <= 0)
				return ptk_usage_error(ctx, "invalid buffer size '%s'", optarg);
			break;
		case 'd':
			if (ptk_parse_double(optarg, &q->duration) || !(q->duration > 0))
				return ptk_usage_error(ctx, "invalid duration '%s'", optarg);
			break;
		case 'F':
			q->only_cmd = true;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return rc ? rc : -1;
	if (!q->tracer && !q->nevents)
		return ptk_usage_error(ctx, "nothing to trace: -p TRACER or -e EVENT");
	if (q->only_cmd && optind >= argc)
		return ptk_usage_error(ctx, "-F goes with a COMMAND");
	if ((q->nfuncs[0] || q->nfuncs[1] || q->nfuncs[2] || q->func_stack) && !q->tracer)
		return ptk_usage_error(ctx, "-l, -n, -g and --func-stack go with -p TRACER");
	return 0;
}

/*
 * A sched_process_exec record names its task from then on: the kernel sets the new comm
 * (the file's base name, TASK_COMM_LEN - 1 bytes) before the event, but saved_cmdlines
 * records it only at the task's next context switch, after ptk may have read it.
 * Returns whether rec was one.
 */
static bool exec_names(struct run *r, struct tep_event *ev, struct tep_record *rec, int pid)
{
	char comm[16];
	const char *fn, *base;
	int len;

	if (strcmp(ev->name, "sched_process_exec") || strcmp(ev->system, "sched"))
		return false;
	fn = tep_get_field_raw(NULL, ev, "filename", rec, &len, 0);
	if (fn && len > 0 && pid) {
		len = (int)strnlen(fn, (size_t)len);
		base = memrchr(fn, '/', (size_t)len);
		base = base ? base + 1 : fn;
		snprintf(comm, sizeof(comm), "%.*s", (int)(fn + len - base), base);
		tep_override_comm(r->tep, comm, pid);
	}
	return true;
}

/* The comm of a record's task, as trace-cmd resolves it (saved_cmdlines, and the execs
 * seen), "<...>" unknown. */
static const char *comm_of(struct run *r, int pid)
{
	return pid ? tep_data_comm_from_pid(r->tep, pid) : "<idle>";
}

/* ftrace's own records: a traced function, a stack; ptk's symbolizer names their addresses. */
static bool special(struct run *r, struct tep_event *ev, struct tep_record *rec)
{
	struct trace_seq *s = &r->seq;
	unsigned long long ip, pip;
	struct ptk_frame f;

	if (!r->sym)
		r->sym = ptk_sym_new(NULL, 0);
	if (!strcmp(ev->name, "function") && !tep_get_field_val(NULL, ev, "ip", rec, &ip, 0) &&
	    !tep_get_field_val(NULL, ev, "parent_ip", rec, &pip, 0)) {
		ptk_sym_kernel(r->sym, ip, &f);
		trace_seq_printf(s, "%s", f.func ? f.func : "[unknown]");
		ptk_sym_kernel(r->sym, pip, &f);
		trace_seq_printf(s, " <-- %s", f.func ? f.func : "[unknown]");
		return true;
	}
	if (!strcmp(ev->name, "kernel_stack")) {
		struct tep_format_field *fld = tep_find_field(ev, "caller");
		const unsigned long long *addrs;
		int n;

		if (!fld)
			return false;
		addrs = (const void *)((const char *)rec->data + fld->offset);
		n = (rec->size - fld->offset) / 8;
		trace_seq_printf(s, "<stack trace >");
		for (int i = 0; i < n && addrs[i]; i++) {
			if (addrs[i] == ~0ull)
				break;
			ptk_sym_kernel(r->sym, addrs[i], &f);
			trace_seq_printf(s, "\n=> %s (%016llx)", f.func ? f.func : "[unknown]",
					 addrs[i]);
		}
		return true;
	}
	return false;
}

/* A record's fields as JSON: numbers, strings. */
static struct json_object *fields_json(struct tep_event *ev, struct tep_record *rec)
{
	struct json_object *o = json_object_new_object();

	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		unsigned long long v;

		if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) {
			int len;
			const char *p = tep_get_field_raw(NULL, ev, f->name, rec, &len, 0);
			if (p)
				json_object_object_add(
					o, f->name, json_object_new_string_len(p, strnlen(p, len)));
			continue;
		}
		if (f->flags & TEP_FIELD_IS_ARRAY)
			continue;
		if (!tep_read_number_field(f, rec->data, &v))
			json_object_object_add(o, f->name,
					       f->flags & TEP_FIELD_IS_SIGNED ?
						       json_object_new_int64((long long)v) :
						       json_object_new_uint64(v));
	}
	return o;
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *arg)
{
	struct run *r = arg;
	struct trace_seq *s = &r->seq;
	int pid = tep_data_pid(r->tep, rec);
	unsigned long long sec = rec->ts / 1000000000ull, usec = rec->ts % 1000000000ull / 1000;
	char name[160];

	if (exec_names(r, ev, rec, pid) && r->hidden_exec)
		return 0;
	trace_seq_reset(s);
	if (!special(r, ev, rec))
		tep_print_event(r->tep, s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	r->records++;
	if (r->ctx->json) {
		struct ptk_sink *k = &r->ctx->sink;

		snprintf(name, sizeof(name), "%s:%s", ev->system, ev->name);
		ptk_sink_begin(k);
		ptk_sink_meta_f64(k, "ts_s", rec->ts / 1e9);
		ptk_sink_meta_u64(k, "cpu", cpu);
		ptk_sink_meta_u64(k, "pid", pid);
		ptk_sink_meta_str(k, "comm", comm_of(r, pid));
		ptk_sink_meta_str(k, "event", name);
		ptk_sink_meta_str(k, "info", s->buffer);
		ptk_sink_meta_json(k, "fields", fields_json(ev, rec));
		ptk_sink_end(k);
		return 0;
	}
	/* trace-cmd report: "COMM-PID [CPU] SEC.USEC: NAME: INFO", SEC padded to 5 as the
	 * kernel's trace file has it (before 10,000 s of uptime), NAME: to 22 */
	snprintf(name, sizeof(name), "%s:", ev->name);
	printf("%16s-%-5d [%03d] %5llu.%06llu: %-*s%s\n", comm_of(r, pid), pid, cpu, sec, usec,
	       strlen(name) < 22 ? 22 : (int)strlen(name) + 1, name, s->buffer);
	return 0;
}

/* Whether one of q's events is sched:sched_process_exec. */
static bool asks_exec(const struct req *q)
{
	for (int i = 0; i < q->nevents; i++) {
		const char *e = q->events[i], *colon = strchr(e, ':');
		char sys[128];

		if (!strcmp(e, "all"))
			return true;
		snprintf(sys, sizeof(sys), "%.*s", colon ? (int)(colon - e) : (int)strlen(e), e);
		if (!fnmatch(sys, "sched", 0) &&
		    (!colon || !fnmatch(colon + 1, "sched_process_exec", 0)))
			return true;
	}
	return false;
}

/* The instance set up as q asks (with sched_process_exec for the names of tasks that exec,
 * r->hidden_exec, where q does not ask for it); an error printed and its exit code. */
static int setup(struct ptk_ctx *ctx, struct ptk_ftrace *f, const struct req *q, int child,
		 struct run *r)
{
	char err[512];
	int rc = 0;

	if (q->buffer_kb)
		rc = ptk_ftrace_buffer_kb(f, q->buffer_kb, err, sizeof(err));
	for (int i = 0; !rc && i < q->npids; i++)
		rc = ptk_ftrace_pid(f, q->pids[i], err, sizeof(err));
	if (!rc && child > 0 && q->only_cmd) {
		rc = ptk_ftrace_pid(f, child, err, sizeof(err));
		if (!rc)
			rc = ptk_ftrace_option(f, "event-fork", true, err, sizeof(err));
		if (!rc && q->tracer)
			ptk_ftrace_option(f, "function-fork", true, err, sizeof(err));
	}
	for (int i = 0; !rc && i < q->nevents; i++)
		rc = ptk_ftrace_event(f, q->events[i], q->filters[i], err, sizeof(err));
	if (!rc && !q->stack && !asks_exec(q))
		r->hidden_exec =
			!ptk_ftrace_event(f, "sched:sched_process_exec", NULL, err, sizeof(err));
	if (!rc && q->stack)
		rc = ptk_ftrace_option(f, "stacktrace", true, err, sizeof(err));
	for (int w = 0; !rc && w < 3; w++)
		for (int i = 0; !rc && i < q->nfuncs[w]; i++)
			rc = ptk_ftrace_functions(f, q->funcs[w][i], w, err, sizeof(err));
	if (!rc && q->func_stack)
		rc = ptk_ftrace_option(f, "func_stack_trace", true, err, sizeof(err));
	if (!rc && q->tracer)
		rc = ptk_ftrace_tracer(f, q->tracer, err, sizeof(err));
	if (!rc)
		rc = ptk_ftrace_start(f, err, sizeof(err));
	if (!rc)
		return 0;
	if (rc == -EINVAL)
		return ptk_usage_error(ctx, "%s", err);
	ptk_err("%s", err);
	return PTK_EXIT_RUNTIME;
}

static volatile int *stop_flag;

static void on_child(int sig)
{
	(void)sig;
	if (stop_flag)
		*stop_flag = 1;
}

int cmd_ftrace(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct req q;
	struct run r = { .ctx = ctx };
	struct ptk_ftrace *f = NULL;
	struct ptk_perf_child child = { .pid = -1 };
	char err[512];
	int rc;
	u64 end;

	memset(&q, 0, sizeof(q));
	if ((rc = parse(ctx, argc, argv, &q)))
		return rc < 0 ? PTK_EXIT_OK : rc;
	if (geteuid() != 0) {
		ptk_err("needs root to make a tracefs instance");
		return PTK_EXIT_RUNTIME;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		return rc;
	if ((rc = ptk_ftrace_open(&f, err, sizeof(err)))) {
		ptk_err("%s", err);
		return PTK_EXIT_RUNTIME;
	}
	if (optind < argc && (rc = ptk_perf_child_fork(argv + optind, &child))) {
		ptk_err("cannot run %s: %s", argv[optind], strerror(-rc));
		ptk_ftrace_close(f);
		return PTK_EXIT_RUNTIME;
	}
	if ((rc = setup(ctx, f, &q, child.pid, &r))) {
		if (child.pid > 0) {
			kill(child.pid, SIGKILL);
			waitpid(child.pid, NULL, 0);
		}
		ptk_ftrace_close(f);
		ptk_tracefs_release();
		return rc;
	}
	r.tep = ptk_ftrace_tep(f);
	trace_seq_init(&r.seq);
	if (!ctx->json)
		printf("cpus=%ld\n", sysconf(_SC_NPROCESSORS_CONF));
	fflush(stdout);
	fprintf(stderr, "Tracing in %s... Hit Ctrl-C to end.\n", ptk_ftrace_dir(f));
	if (child.pid > 0) {
		struct sigaction sa = { .sa_handler = on_child };

		stop_flag = &ctx->stop;
		sigaction(SIGCHLD, &sa, NULL);
		if ((rc = ptk_perf_child_start(&child))) {
			ptk_err("cannot run %s: %s", argv[optind], strerror(-rc));
			child.pid = -1;
			ctx->stop = 1;
		}
	}
	end = q.duration > 0 ? ptk_now_ns() + (u64)(q.duration * 1e9) : 0;
	rc = PTK_EXIT_OK;
	while (!ctx->stop && !ptk_output_broken() && (!end || ptk_now_ns() < end)) {
		if (ptk_ftrace_read(f, on_record, &r) < 0) {
			ptk_err("cannot read the trace buffers");
			rc = PTK_EXIT_RUNTIME;
			break;
		}
		fflush(stdout);
		ptk_sleep_until(ptk_now_ns() + 100000000ull, &ctx->stop);
	}
	/* what the last moments left in the buffers */
	if (rc == PTK_EXIT_OK)
		ptk_ftrace_read(f, on_record, &r);
	fflush(stdout);
	if (ptk_ftrace_overruns(f))
		fprintf(stderr, "ptk ftrace: %llu events lost (the buffers were full: -b KB)\n",
			ptk_ftrace_overruns(f));
	fprintf(stderr, "%llu records\n", r.records);
	if (child.pid > 0) {
		signal(SIGCHLD, SIG_DFL);
		if (waitpid(child.pid, NULL, WNOHANG) == 0)
			kill(child.pid, SIGTERM);
		waitpid(child.pid, NULL, 0);
	}
	trace_seq_destroy(&r.seq);
	ptk_sym_free(r.sym);
	ptk_ftrace_close(f);
	ptk_tracefs_release();
	return rc;
}
