// SPDX-License-Identifier: GPL-2.0
/*
 * ptk ltrace: the library calls of a program, as ltrace shows them, without breakpoints
 * that stop it: a uprobe on each PLT stub of the program (the calls it makes to its
 * libraries, as ltrace sees them), paired with a uretprobe there (matched per thread and
 * stack frame), sent as one event per call with the arguments read at the entry (strings
 * among them, as the prototypes in model/ltrace.h say) and the return. Stubs whose
 * prototypes read the same strings share one program. -c counts calls and their time in
 * the kernel instead.
 */
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/ltrace.h"
#include "output/sink.h"
#include "source/bpf/agg.h"
#include "source/perf/perf.h"
#include "source/ptrace/ptrace.h"
#include "source/sym/elfsym.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk ltrace [-c] [-T] [-t|-tt|-ttt] [-s STRSIZE] [-e FILTER] [-o FILE] [--json]\n"
	"                  [-p PID | [--] COMMAND [ARG...]]\n"
	"The calls a program makes to its libraries, with their arguments and returns, in\n"
	"ltrace's notation (common C library calls by their prototypes; others with four\n"
	"words in hex), on stderr (-o FILE). Through uprobes on the program's PLT: nothing\n"
	"stops it, and calls it makes without the PLT (static, -fno-plt) are not seen.\n"
	"  -c              count the calls and their time, a table at the end\n"
	"  -T              the time spent in each call\n"
	"  -t, -tt, -ttt   the time of day (-tt with microseconds, -ttt since the epoch)\n"
	"  -s STRSIZE      the longest string shown (32, at most 63)\n"
	"  -e FILTER       only these functions: NAME[+NAME...] (patterns), !NAME to leave out\n"
	"  -o FILE         the trace into FILE\n"
	"  -p PID          a running process\n";

#define MAX_CLASSES 8 /* pairs of programs, by the strings read */
#define MAX_EV 16

struct class {
	unsigned strs; /* argument strings read (bit i) */
	unsigned outs; /* argument strings read at the return */
	bool ret_str;
	char entry[PATH_MAX + 32], ret[PATH_MAX + 32];
	char ev[256];
	int evi_str[6], evi_ret_str; /* the event value of each string (-1: none) */
	size_t ntargets;
	struct ptk_probe_target *targets;
};

struct priv {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	struct ptk_bpf_run *run;
	bool count, dtime;
	int ttime, strsize;
	const char *filter, *strsz, *outpath;
	FILE *out;
	char exe[PATH_MAX];
	int nclasses;
	struct class cls[MAX_CLASSES];
	struct ptk_perf_child child;
	bool have_child;
	char **cmd;
	u64 boot_to_real_ns;
	struct ptk_tcb mem; /* the process whose memory strings are read again from */
	char reread[PTK_LT_MAX_ARGS + 1][AGG_EV_STR + 1];
};

static volatile int *stop_flag;

static void on_child(int sig)
{
	(void)sig;
	if (stop_flag)
		*stop_flag = 1;
}

static int opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	if (c == 't')
		p->ttime++;
	return 0;
}

/* Is name one of -e's functions: one of its patterns (any when it has none but !NAMEs),
 * and none of its !NAMEs? */
static bool wanted(const char *filter, const char *name)
{
	char *dup, *save = NULL;
	bool pos = false, hit = false, neg = false;

	if (!filter)
		return true;
	dup = xstrdup(filter);
	for (char *t = strtok_r(dup, "+,", &save); t; t = strtok_r(NULL, "+,", &save)) {
		if (t[0] == '!') {
			neg |= !fnmatch(t + 1, name, 0);
		} else {
			pos = true;
			hit |= !fnmatch(t, name, 0);
		}
	}
	free(dup);
	return !neg && (hit || !pos);
}

/* The PLT stubs of the program into classes of the strings they read. 0 or an exit code. */
static int classes(struct ptk_bpf_run *r, struct priv *p)
{
	struct ptk_elf *e;
	struct ptk_elf_sym *plt;
	size_t n;
	int rc;

	if ((rc = ptk_elf_open(p->exe, &e)))
		return ptk_usage_error(r->ctx, "%s: %s", p->exe,
				       rc == -ENOEXEC ? "not an x86_64 ELF file" : strerror(-rc));
	rc = ptk_elf_plt(e, &plt, &n);
	ptk_elf_close(e);
	if (rc || !n)
		return ptk_usage_error(r->ctx,
				       "%s: no PLT (a static or -fno-plt program): no "
				       "library calls to trace",
				       p->exe);
	for (size_t i = 0; i < n; i++) {
		bool known;
		const struct ptk_lt_proto *pr = ptk_lt_proto(plt[i].name, &known);
		unsigned strs = p->count ? 0 : ptk_lt_string_args(pr);
		unsigned outs = p->count ? 0 : ptk_lt_out_args(pr);
		bool rs = !p->count && ptk_lt_string_ret(pr);
		struct class *c = NULL;

		if (!wanted(p->filter, plt[i].name))
			continue;
		for (int k = 0; k < p->nclasses && !c; k++)
			if (p->cls[k].strs == strs && p->cls[k].outs == outs &&
			    p->cls[k].ret_str == rs)
				c = &p->cls[k];
		if (!c) {
			if (p->nclasses == MAX_CLASSES) {
				ptk_elf_syms_free(plt, n);
				return ptk_usage_error(r->ctx, "too many kinds of calls");
			}
			c = &p->cls[p->nclasses++];
			memset(c, 0, sizeof(*c));
			c->strs = strs;
			c->outs = outs;
			c->ret_str = rs;
		}
		c->targets = xrealloc(c->targets, (c->ntargets + 1) * sizeof(*c->targets));
		memset(&c->targets[c->ntargets], 0, sizeof(*c->targets));
		snprintf(c->targets[c->ntargets].name, sizeof(c->targets->name), "%s", plt[i].name);
		c->targets[c->ntargets++].off = plt[i].off;
	}
	ptk_elf_syms_free(plt, n);
	if (!p->nclasses)
		return ptk_usage_error(r->ctx, "-e %s: no library call of %s matches", p->filter,
				       p->exe);
	return 0;
}

/* Each class a pair of specs: the entry reads the arguments, the return the rest. */
static void class_specs(struct priv *p)
{
	struct ptk_agg *a = &p->agg;

	for (int k = 0; k < p->nclasses; k++) {
		struct class *c = &p->cls[k];
		int nv = 8;
		size_t n;

		snprintf(c->entry, sizeof(c->entry), "uprobe:%s:plt", p->exe);
		snprintf(c->ret, sizeof(c->ret), "uretprobe:%s:plt", p->exe);
		n = snprintf(c->ev, sizeof(c->ev), "arg0,arg1,arg2,arg3,arg4,arg5,retval,lat");
		for (int i = 0; i < 6; i++) {
			c->evi_str[i] = -1;
			if ((c->strs | c->outs) & (1u << i)) {
				n += snprintf(c->ev + n, sizeof(c->ev) - n, ",%sstr(arg%d)",
					      c->outs & (1u << i) ? "+" : "", i);
				c->evi_str[i] = nv++;
			}
		}
		c->evi_ret_str = -1;
		if (c->ret_str) {
			snprintf(c->ev + n, sizeof(c->ev) - n, ",str(retval)");
			c->evi_ret_str = nv++;
		}
		a->specs[a->nspecs++] = (struct ptk_agg_spec){
			.probe = c->entry, .role = AGG_ROLE_ENTRY, .mode = AGG_NONE, .frame = true
		};
		a->specs[a->nspecs++] =
			(struct ptk_agg_spec){ .probe = c->ret,
					       .role = AGG_ROLE_RETURN,
					       .mode = p->count ? AGG_COUNT : AGG_EVENT,
					       .ev = p->count ? NULL : c->ev,
					       .value = p->count ? "lat" : NULL,
					       .frame = true };
	}
	if (p->count) {
		a->mode = PTK_AGG_SUM;
		a->by = "probe";
	}
	a->lat_unit_ns = 1;
}

/* The targets of each class, set on its probes (the stubs are found here, not by name). */
static void set_targets(struct priv *p)
{
	for (int k = 0; k < p->nclasses; k++)
		for (int h = 0; h < 2; h++) {
			struct ptk_probe *pr = &p->agg.probe[2 * k + h];

			snprintf(pr->path, sizeof(pr->path), "%s", p->exe);
			pr->targets = xcalloc(p->cls[k].ntargets, sizeof(*pr->targets));
			memcpy(pr->targets, p->cls[k].targets,
			       p->cls[k].ntargets * sizeof(*pr->targets));
			pr->ntargets = p->cls[k].ntargets;
			pr->wildcard = true;
		}
}

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->agg;
	char err[256];
	int rc;

	unsetenv("POSIXLY_CORRECT");
	p->strsize = 32;
	if (p->strsz &&
	    (ptk_parse_int(p->strsz, &p->strsize) || p->strsize < 0 || p->strsize >= AGG_EV_STR))
		return ptk_usage_error(r->ctx, "invalid -s '%s' (0 to %d)", p->strsz,
				       AGG_EV_STR - 1);
	if (r->filter.tgid && optind < argc)
		return ptk_usage_error(r->ctx, "-p PID or a COMMAND");
	if (!r->filter.tgid && optind >= argc)
		return ptk_usage_error(r->ctx, "missing the COMMAND (or -p PID)");
	if (r->filter.tgid) {
		snprintf(p->exe, sizeof(p->exe), "/proc/%d/exe", r->filter.tgid);
	} else {
		p->cmd = argv + optind;
		optind = argc;
		if (ptk_probe_file(p->cmd[0], 0, p->exe, sizeof(p->exe), err, sizeof(err)))
			return ptk_usage_error(r->ctx, "%s", err);
	}
	if ((rc = classes(r, p)))
		return rc;
	if (p->outpath && !(p->out = fopen(p->outpath, "we"))) {
		ptk_err("cannot write %s: %s", p->outpath, strerror(errno));
		return PTK_EXIT_RUNTIME;
	}
	if (!p->out)
		p->out = stderr;
	class_specs(p);
	if ((rc = ptk_agg_parse(a)))
		return rc == -EINVAL ? ptk_usage_error(r->ctx, "%s", a->err) : PTK_EXIT_RUNTIME;
	set_targets(p);
	if (p->cmd) {
		if ((rc = ptk_perf_child_fork(p->cmd, &p->child))) {
			ptk_err("cannot run %s: %s", p->cmd[0], strerror(-rc));
			return PTK_EXIT_RUNTIME;
		}
		p->have_child = true;
		r->filter.tgid = p->child.pid;
	}
	return 0;
}

/* The value of event value i as a number. */
static u64 num(const struct ptk_agg_ev *ev, int i)
{
	return i < ev->nv ? ev->v[i].u : 0;
}

/*
 * The string at addr in the event's process, for one the probe read as "": a uprobe cannot
 * fault in a page the program has not touched yet (bpf_probe_read_user_str fails and leaves
 * it empty), where process_vm_readv (or /proc/PID/mem, FOLL_FORCE) does, as ltrace's ptrace
 * read does, while the process lives. NULL when that fails too (the address is not mapped,
 * or the process has exited since the call): the call then shows the pointer, as strace
 * does.
 */
static const char *reread(struct priv *p, u32 pid, u64 addr, const char *probed, char *buf)
{
	ssize_t n;

	if (!probed || probed[0] || !addr)
		return probed;
	if (p->mem.pid != (pid_t)pid) {
		if (p->mem.memfd >= 0)
			close(p->mem.memfd);
		p->mem = (struct ptk_tcb){ .pid = (pid_t)pid, .memfd = -1 };
	}
	n = ptk_tracee_readstr(&p->mem, addr, buf, AGG_EV_STR);
	if (n < 0)
		return NULL;
	buf[MIN((size_t)n, (size_t)AGG_EV_STR)] = '\0';
	return buf;
}

static int on_event(struct ptk_agg *a, const struct ptk_agg_ev *ev)
{
	struct priv *p = (struct priv *)a;
	const struct class *c = &p->cls[ev->spec / 2];
	struct ptk_lt_call call = { .ret = num(ev, 6) };
	const struct ptk_lt_proto *pr;
	char prefix[64] = "", line[2048];
	bool known;

	pr = ptk_lt_proto(ev->target, &known);
	for (int i = 0; i < 6; i++) {
		call.arg[i] = num(ev, i);
		call.str[i] =
			reread(p, ev->pid, call.arg[i],
			       c->evi_str[i] >= 0 ? ev->v[c->evi_str[i]].s : NULL, p->reread[i]);
	}
	call.ret_str =
		reread(p, ev->pid, call.ret, c->evi_ret_str >= 0 ? ev->v[c->evi_ret_str].s : NULL,
		       p->reread[PTK_LT_MAX_ARGS]);
	if (p->ttime) {
		u64 real = ev->ts_ns + p->boot_to_real_ns;
		time_t s = (time_t)(real / 1000000000ull);
		struct tm tm;

		localtime_r(&s, &tm);
		if (p->ttime >= 3)
			snprintf(prefix, sizeof(prefix), "%lld.%06llu ", (long long)s,
				 (unsigned long long)(real % 1000000000ull / 1000));
		else if (p->ttime == 2)
			snprintf(prefix, sizeof(prefix), "%02d:%02d:%02d.%06llu ", tm.tm_hour,
				 tm.tm_min, tm.tm_sec,
				 (unsigned long long)(real % 1000000000ull / 1000));
		else
			snprintf(prefix, sizeof(prefix), "%02d:%02d:%02d ", tm.tm_hour, tm.tm_min,
				 tm.tm_sec);
	}
	ptk_lt_format(line, sizeof(line), prefix, ev->target, pr, &call, p->strsize);
	if (p->run->ctx->json) {
		static const struct ptk_metric cols[] = {
			{ .name = "FUNC",
			  .key = "func",
			  .unit = "",
			  .type = PTK_V_STR,
			  .help = "" },
			{ .name = "CALL",
			  .key = "call",
			  .unit = "",
			  .type = PTK_V_STR,
			  .help = "" },
			{ .name = "PID", .key = "pid", .unit = "", .type = PTK_V_U64, .help = "" },
			{ .name = "TID", .key = "tid", .unit = "", .type = PTK_V_U64, .help = "" },
			{ .name = "DUR",
			  .key = "duration_s",
			  .unit = "s",
			  .type = PTK_V_F64,
			  .prec = 6,
			  .help = "" },
		};
		static const struct ptk_table tab = { "calls", cols, ARRAY_SIZE(cols) };
		struct ptk_val v[] = { PTK_S(ev->target), PTK_S(line), PTK_U(ev->pid),
				       PTK_U(ev->tid), PTK_F(num(ev, 7) / 1e9) };

		ptk_sink_event(&p->run->ctx->sink, &tab, v);
		return 1;
	}
	if (p->dtime)
		fprintf(p->out, "%s <%.6f>\n", line, num(ev, 7) / 1e9);
	else
		fprintf(p->out, "%s\n", line);
	return 1;
}

static int prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct timespec mono, real;
	int rc;

	if ((rc = ptk_agg_cmd_prepare(&p->agg, r)))
		return rc;
	p->run = r;
	p->agg.on_event = on_event;
	p->mem = (struct ptk_tcb){ .pid = -1, .memfd = -1 };
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	p->boot_to_real_ns = ((u64)real.tv_sec * 1000000000ull + real.tv_nsec) -
			     ((u64)mono.tv_sec * 1000000000ull + mono.tv_nsec);
	r->banner[0] = '\0'; /* ltrace says nothing before the calls */
	return 0;
}

static int started(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct sigaction sa = { .sa_handler = on_child };
	int rc;

	if (!p->have_child)
		return 0;
	stop_flag = &r->ctx->stop;
	sigaction(SIGCHLD, &sa, NULL);
	if ((rc = ptk_perf_child_start(&p->child))) {
		ptk_err("cannot run %s: %s", p->cmd[0], strerror(-rc));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

/* -c: ltrace's table, the most time first. */
static int report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_agg_row *rows;
	size_t n;
	double total = 0;
	u64 calls = 0;
	int rc;

	if (r->ctx->json)
		return ptk_agg_report(r, i, itv, last);
	if ((rc = ptk_agg_take(r, &rows, &n)))
		return rc;
	for (size_t j = 0; j < n; j++) {
		total += (double)rows[j].sum / 1e9;
		calls += rows[j].count;
	}
	fprintf(p->out, "%% time     seconds  usecs/call     calls      function\n");
	fprintf(p->out, "------ ----------- ----------- --------- --------------------\n");
	for (size_t j = 0; j < n; j++) {
		double s = (double)rows[j].sum / 1e9;

		if (!rows[j].count)
			continue;
		fprintf(p->out, "%6.2f %11.6f %11.0f %9" PRIu64 " %s\n",
			total > 0 ? 100 * s / total : 0, s, s * 1e6 / rows[j].count, rows[j].count,
			rows[j].str[0] ? rows[j].str[0] : "");
	}
	fprintf(p->out, "------ ----------- ----------- --------- --------------------\n");
	fprintf(p->out, "100.00 %11.6f             %9" PRIu64 " total\n", total, calls);
	ptk_agg_rows_free(rows, n);
	free(rows);
	return 0;
}

static void destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int status;

	ptk_agg_destroy(r);
	if (p->have_child) {
		signal(SIGCHLD, SIG_DFL);
		pid_t w = waitpid(p->child.pid, &status, WNOHANG);

		if (w == 0) { /* stopped by a signal: ptk started it, ptk ends it */
			kill(p->child.pid, SIGKILL);
			w = waitpid(p->child.pid, &status, 0);
		}
		if (w == p->child.pid && !p->count && !r->ctx->json) {
			if (WIFEXITED(status))
				fprintf(p->out, "+++ exited (status %d) +++\n",
					WEXITSTATUS(status));
			else if (WIFSIGNALED(status))
				fprintf(p->out, "+++ killed by %s +++\n",
					strsignal(WTERMSIG(status)));
		}
		p->have_child = false;
	}
	for (int k = 0; k < p->nclasses; k++) {
		free(p->cls[k].targets);
		p->cls[k].targets = NULL;
	}
	if (p->out && p->out != stderr)
		fclose(p->out);
	p->out = NULL;
	if (p->run && p->mem.memfd >= 0)
		close(p->mem.memfd);
	p->mem.memfd = -1;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_FLAG('c', "summary", struct priv, count),
	PTK_BPF_FLAG('T', NULL, struct priv, dtime),
	PTK_BPF_CALL('t', NULL, no_argument),
	PTK_BPF_STR('s', NULL, struct priv, strsz),
	PTK_BPF_STR('e', NULL, struct priv, filter),
	PTK_BPF_STR('o', "output", struct priv, outpath),
	{ 0 },
};

static const struct ptk_bpf_ops ops_trace = {
	.name = "ltrace",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_NO_OPERANDS,
	.own_timestamp = true,
	.opt = opt,
	.parsed = parsed,
	.prepare = prepare,
	.started = started,
	.begin = ptk_agg_begin,
	.load_lskel = ptk_agg_load_lskel,
	.open = ptk_agg_open,
	.load = ptk_agg_load,
	.event = ptk_agg_event,
	.destroy = destroy,
	.needs_tracefs = true,
};

/* -c: the same probes counting in the kernel, one table at the end */
static const struct ptk_bpf_ops ops_count = {
	.name = "ltrace",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_NO_OPERANDS,
	.own_timestamp = true,
	.opt = opt,
	.parsed = parsed,
	.prepare = prepare,
	.started = started,
	.begin = ptk_agg_begin,
	.load_lskel = ptk_agg_load_lskel,
	.open = ptk_agg_open,
	.load = ptk_agg_load,
	.report = report,
	.destroy = destroy,
	.needs_tracefs = true,
};

int cmd_ltrace(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;
	bool count = false;
	int rc;

	memset(&p, 0, sizeof(p));
	/* -c chooses the lifecycle: events or a table (the options end at the COMMAND) */
	for (int i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--summary"))
			count = true;
		if (strchr("sepo", argv[i][1]) && !argv[i][2])
			i++; /* its argument */
	}
	/* options end at the COMMAND, as ltrace's: its own options are its */
	setenv("POSIXLY_CORRECT", "1", 1);
	rc = ptk_bpf_main(ctx, count ? &ops_count : &ops_trace, &p, argc, argv);
	unsetenv("POSIXLY_CORRECT");
	return rc;
}
