// SPDX-License-Identifier: GPL-2.0
/* ptk profile: sample stacks with perf_event_open, fold them, show top functions or an SVG. */
#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/pprofstk.h"
#include "model/registry.h"
#include "model/folded.h"
#include "output/flamegraph.h"
#include "source/perf/perf.h"
#include "source/perf/ptop.h"
#include "source/perf/stacks.h"
#include "source/procfs/pid.h"
#include "source/perf/unwind.h"
#include "source/sym/sym.h"

static const char usage[] =
	"usage: ptk profile [-F HZ] [-a | -p PID | -- CMD [ARGS]] [-d SECONDS]\n"
	"                   [-g | --call-graph fp|dwarf] [--kernel | --user] [-m PAGES] [-o FILE]\n"
	"                   [--folded | --top | --svg] [--json]\n"
	"Sample on-CPU stacks with perf_event_open(2): hardware cycles when the PMU has them,\n"
	"else cpu-clock (a timer). Until CMD exits, the process exits, -d SECONDS pass, or Ctrl-C.\n"
	"  -F HZ         samples per second per CPU (default 99)\n"
	"  -a            all CPUs (the default without -p or CMD); -p PID one process\n"
	"  -d SECONDS    stop after this long\n"
	"  -m PAGES      ring buffer pages per CPU, a power of 2 (default 64; 512 with dwarf)\n"
	"  -g            call chains by frame pointer (PERF_SAMPLE_CALLCHAIN); without -g only\n"
	"                the sampled function\n"
	"  --call-graph fp|dwarf   dwarf: copy 8 KiB of user stack and the registers with each\n"
	"                sample and unwind them with libdw's CFI (code built without frame\n"
	"                pointers); kernel frames still come from the kernel's unwinder\n"
	"  --kernel / --user   only samples in kernel mode / user mode\n"
	"  --folded      'comm;root;...;leaf count' lines, the FlameGraph format (default)\n"
	"  --top         top functions: self % (sampled there) and total % (on the stack)\n"
	"  --svg         a flame graph (also chosen by -o NAME.svg)\n"
	"  -o FILE       write the folded stacks / table / SVG to FILE (default stdout);\n"
	"                FILE.pb.gz or FILE.pprof: a pprof profile (go tool pprof, Parca,\n"
	"                Pyroscope) with addresses, mappings and build IDs, labels pid, tid,\n"
	"                comm and cgroup\n"
	"  --json        one object: top functions, folded stacks, samples, lost, observer\n"
	"The cost of ptk itself (its CPU time, samples, samples lost) is printed on stderr.\n";

enum { CG_NONE, CG_FP, CG_DWARF };
enum { OUT_FOLDED, OUT_TOP, OUT_SVG, OUT_PPROF };
enum { OPT_CALLGRAPH = 0x1400, OPT_KERNEL, OPT_USER, OPT_FOLDED, OPT_TOP, OPT_SVG };

#define STACK_USER 8192

/* top functions: perf report's Self and Children */
enum { T_SELF, T_TOTAL, T_SAMPLES, T_FUNC, T_N };
static const struct ptk_metric *const top_cols[T_N] = {
	[T_SELF] = PTK_M(PROF_SELF_PCT),
	[T_TOTAL] = PTK_M(PROF_TOTAL_PCT),
	[T_SAMPLES] = PTK_M(PROF_SELF_SAMPLES),
	[T_FUNC] = PTK_M(PROF_FUNCTION),
};
static const struct ptk_table top_tab = { .name = "top", .ncols = T_N, .refs = top_cols };
#define TOP_ROWS 50

struct prof {
	struct ptk_ctx *ctx;
	struct ptk_perf_target tgt;
	int hz, cg, mode, pages;
	double dur;
	bool kernel_only, user_only;
	const char *outpath;
	const char *event; /* "cycles" or "cpu-clock" */
	struct perf_event_attr attr;
	u64 regs_mask;
	struct ptk_perf_sampler ps;
	struct ptk_symbolizer *sym;
	struct ptk_folded *folded;
	struct ptk_stacks *stacks;
	struct ptk_stacks_counts n; /* samples folded, unwind failures */
	pid_t child;
	struct ptk_pprof *pp; /* OUT_PPROF */
	struct pprofstk *ppc;
	s64 wall_start_ns;
	u64 t0;
};

/* ---- opening ---- */

static void drain(struct prof *p)
{
	ptk_perf_sampler_read(&p->ps, ptk_stacks_record, p->stacks);
}

static int open_all(struct prof *p)
{
	return ptk_perf_sampler_open(&p->ps, &p->attr, &p->tgt,
				     p->pages	       ? p->pages :
				     p->cg == CG_DWARF ? 512 :
							 64);
}

static void setup_attr(struct prof *p, bool cycles)
{
	struct perf_event_attr *a = &p->attr;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = cycles ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	a->config = cycles ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = p->hz;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_PERIOD;
	if (p->cg != CG_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (p->cg == CG_DWARF) {
		/* kernel frames from the kernel; user frames from the copied stack */
		a->exclude_callchain_user = 1;
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = p->regs_mask;
		a->sample_stack_user = STACK_USER;
	}
	a->exclude_kernel = p->user_only;
	a->exclude_user = p->kernel_only;
	a->comm = 1;
	a->comm_exec = 1;
	a->inherit = p->tgt.kind != PTK_PERF_CPUS;
	a->sample_id_all = 1;
	if (p->tgt.kind == PTK_PERF_CMD) {
		a->disabled = 1;
		a->enable_on_exec = 1;
	}
	p->event = cycles ? "cycles" : "cpu-clock";
}

/* ---- output ---- */

/* The row of top function t of tot samples. */
static void top_row(const struct ptk_top_fn *t, u64 tot, struct ptk_val *v)
{
	v[T_SELF] = PTK_F(tot ? 100.0 * t->self / tot : 0);
	v[T_TOTAL] = PTK_F(tot ? 100.0 * t->total / tot : 0);
	v[T_SAMPLES] = PTK_U(t->self);
	v[T_FUNC] = PTK_S(t->name);
}

static int write_top(struct prof *p, FILE *out)
{
	struct ptk_top_fn *t;
	int n = ptk_top_functions(p->folded, &t);
	struct ptk_val v[T_N];
	struct ptk_sink sk;

	ptk_sink_init(&sk, PTK_FMT_TEXT, out);
	ptk_sink_table_begin(&sk, &top_tab, true, NULL);
	for (int i = 0; i < n && i < TOP_ROWS; i++) {
		top_row(&t[i], p->folded->total, v);
		ptk_sink_row(&sk, NULL, v);
	}
	ptk_sink_table_end(&sk);
	ptk_top_free(t, n);
	return ferror(out) ? -EIO : 0;
}

static struct json_object *top_json(struct prof *p)
{
	struct ptk_top_fn *t;
	int n = ptk_top_functions(p->folded, &t);
	struct json_object *a = json_object_new_array();
	struct ptk_val v[T_N];

	for (int i = 0; i < n && i < TOP_ROWS; i++) {
		top_row(&t[i], p->folded->total, v);
		struct json_object *o = ptk_json_row(&top_tab, v);
		json_object_object_add(o, "total_samples", json_object_new_uint64(t[i].total));
		json_object_array_add(a, o);
	}
	ptk_top_free(t, n);
	return a;
}

static int write_output(struct prof *p)
{
	FILE *out = stdout;
	struct ptk_outfile of = { .fd = -1 };
	int err = 0;

	if (p->ctx->json && !p->outpath)
		return 0; /* the stacks are in the JSON object */
	/* -o FILE gets its name only when whole (lib/util.h ptk_outfile) */
	if (p->outpath &&
	    ((err = ptk_outfile_open(&of, p->outpath, 0666)) || !(out = fdopen(of.fd, "w")))) {
		ptk_err("cannot write %s: %s", p->outpath, strerror(err ? -err : errno));
		if (!err)
			close(of.fd);
		ptk_outfile_abort(&of);
		return PTK_EXIT_RUNTIME;
	}
	if (p->mode == OUT_SVG) {
		struct ptk_flame_opts o = { .title = "CPU profile", .countname = "samples" };
		char sub[160];
		snprintf(sub, sizeof(sub), "ptk profile: %s at %d Hz, %" PRIu64 " samples",
			 p->event, p->hz, p->folded->total);
		o.subtitle = sub;
		err = p->folded->n ? ptk_flamegraph_svg(p->folded, NULL, &o, out) : -ENODATA;
	} else if (p->mode == OUT_PPROF) {
		ptk_pprof_time(p->pp, p->wall_start_ns, (s64)(ptk_now_ns() - p->t0));
		err = !p->folded->n ? -ENODATA :
		      fflush(out)   ? -errno :
				      ptk_pprof_write(p->pp, of.fd);
	} else if (p->mode == OUT_TOP) {
		err = write_top(p, out);
	} else {
		if (p->folded->n) /* qsort(NULL, 0) upsets UBSan in ptk_folded_sort */
			ptk_folded_sort(p->folded);
		err = ptk_folded_write(p->folded, out);
	}
	if (out != stdout) {
		if (!err && (fflush(out) || ferror(out)))
			err = -errno;
		if (!err)
			err = ptk_outfile_commit(&of);
		if (err)
			ptk_outfile_abort(&of);
		fclose(out);
	}
	if (err) {
		ptk_err("cannot write %s: %s", p->outpath ? p->outpath : "the output",
			err == -ENODATA ? "no samples" : strerror(-err));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

static void report(struct prof *p, double wall)
{
	double cpu = (ptk_self_cpu_ns() - p->ctx->cpu_start_ns) / 1e9;
	u64 l = ptk_perf_sampler_lost(&p->ps);

	if (p->ctx->json) {
		struct ptk_sink *sk = &p->ctx->sink;
		struct json_object *st = json_object_new_array(), *ob = json_object_new_object();

		if (p->folded->n) /* qsort(NULL, 0) upsets UBSan in ptk_folded_sort */
			ptk_folded_sort(p->folded);
		for (int i = 0; i < p->folded->n; i++) {
			struct json_object *o = json_object_new_object();
			json_object_object_add(o, "stack",
					       json_object_new_string(p->folded->s[i].stack));
			json_object_object_add(o, "count",
					       json_object_new_uint64(p->folded->s[i].count));
			json_object_array_add(st, o);
		}
		json_object_object_add(ob, "cpu_s", json_object_new_double(cpu));
		json_object_object_add(ob, "wall_s", json_object_new_double(wall));
		json_object_object_add(ob, "cpu_pct_of_one_cpu",
				       json_object_new_double(wall > 0 ? 100 * cpu / wall : 0));
		json_object_object_add(ob, "samples", json_object_new_uint64(p->n.samples));
		json_object_object_add(ob, "lost", json_object_new_uint64(l));
		ptk_sink_begin(sk);
		ptk_sink_meta_str(sk, "event", p->event);
		ptk_sink_meta_u64(sk, "frequency_hz", p->hz);
		ptk_sink_meta_str(sk, "call_graph",
				  p->cg == CG_DWARF ? "dwarf" :
				  p->cg == CG_FP    ? "fp" :
						      "none");
		ptk_sink_meta_f64(sk, "duration_s", wall);
		ptk_sink_meta_u64(sk, "samples", p->n.samples);
		ptk_sink_meta_u64(sk, "lost", l);
		ptk_sink_meta_json(sk, "top", top_json(p));
		ptk_sink_meta_json(sk, "stacks", st);
		ptk_sink_meta_json(sk, "observer", ob);
		ptk_sink_end(sk);
		fflush(stdout);
	}
	fprintf(stderr,
		"observer: ptk used %.1f ms of CPU over %.2f s (%.3f%% of one CPU); %" PRIu64
		" samples of %s at %d Hz, %" PRIu64 " lost\n",
		cpu * 1e3, wall, wall > 0 ? 100 * cpu / wall : 0, p->n.samples, p->event, p->hz, l);
	if (l)
		fprintf(stderr,
			"lost: %" PRIu64 " samples (ring buffer full: raise -m or lower -F)\n", l);
	if (p->cg == CG_DWARF && p->n.unwind_truncated)
		fprintf(stderr,
			"dwarf: %" PRIu64 " of %" PRIu64 " user stacks went on past the %d bytes "
			"copied (their root reads [unknown])\n",
			p->n.unwind_truncated, p->n.samples, STACK_USER);
	if (p->cg == CG_DWARF && p->n.unwind_fail)
		fprintf(stderr,
			"dwarf: %" PRIu64 " of %" PRIu64 " user stacks did not unwind past "
			"the sampled function\n",
			p->n.unwind_fail, p->n.samples);
}

static void run_loop(struct prof *p, u64 t0)
{
	struct pollfd *pf = xcalloc(p->ps.nring ? p->ps.nring : 1, sizeof(*pf));
	u64 deadline = p->dur > 0 ? t0 + (u64)(p->dur * 1e9) : 0;

	for (int i = 0; i < p->ps.nring; i++)
		pf[i] = (struct pollfd){ .fd = p->ps.ring[i].fd, .events = POLLIN };
	for (;;) {
		int timeout = 100;
		u64 now = ptk_now_ns();

		if (deadline && now >= deadline)
			break;
		if (deadline && (deadline - now) / 1000000 < 100)
			timeout = (int)((deadline - now) / 1000000) + 1;
		poll(pf, p->ps.nring, timeout);
		drain(p);
		if (p->ctx->stop)
			break;
		if (p->child > 0) {
			if (waitpid(p->child, NULL, WNOHANG) == p->child) {
				p->child = 0;
				break;
			}
		} else if (p->tgt.kind == PTK_PERF_PID &&
			   !ptk_task_alive(&p->ctx->src, p->tgt.pid)) {
			break;
		}
	}
	free(pf);
}

static int parse_opts(struct prof *p, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "freq", required_argument, NULL, 'F' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'd' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "call-graph", required_argument, NULL, OPT_CALLGRAPH },
		{ "kernel", no_argument, NULL, OPT_KERNEL },
		{ "user", no_argument, NULL, OPT_USER },
		{ "output", required_argument, NULL, 'o' },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "top", no_argument, NULL, OPT_TOP },
		{ "svg", no_argument, NULL, OPT_SVG },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct ptk_ctx *ctx = p->ctx;
	int c, r, ntarget = 0, nmode = 0;
	char buf[32];
	u64 maxrate = 0;

	p->hz = 99;
	p->mode = -1;
	p->tgt.kind = PTK_PERF_CPUS;
	while ((c = ptk_getopt(ctx, argc, argv, "+F:ap:d:m:go:", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'F':
			if (ptk_parse_int(optarg, &p->hz) || p->hz < 1)
				return ptk_usage_error(ctx, "invalid frequency '%s'", optarg);
			break;
		case 'a':
			p->tgt.kind = PTK_PERF_CPUS;
			ntarget++;
			break;
		case 'p': {
			int pid;
			if (ptk_parse_int(optarg, &pid) || pid <= 0)
				return ptk_usage_error(ctx, "invalid PID '%s'", optarg);
			p->tgt.kind = PTK_PERF_PID;
			p->tgt.pid = pid;
			ntarget++;
			break;
		}
		case 'd':
			if (ptk_parse_double(optarg, &p->dur) || p->dur <= 0 || p->dur > 1e7)
				return ptk_usage_error(ctx, "invalid duration '%s'", optarg);
			break;
		case 'm':
			if (ptk_parse_int(optarg, &p->pages) || p->pages < 1 || p->pages > 65536 ||
			    (p->pages & (p->pages - 1)))
				return ptk_usage_error(ctx, "-m: a power of 2 pages, not '%s'",
						       optarg);
			break;
		case 'g':
			p->cg = CG_FP;
			break;
		case OPT_CALLGRAPH:
			if (!strcmp(optarg, "fp"))
				p->cg = CG_FP;
			else if (!strcmp(optarg, "dwarf"))
				p->cg = CG_DWARF;
			else
				return ptk_usage_error(
					ctx, "--call-graph: 'fp' or 'dwarf', not '%s'", optarg);
			break;
		case OPT_KERNEL:
			p->kernel_only = true;
			break;
		case OPT_USER:
			p->user_only = true;
			break;
		case 'o':
			p->outpath = optarg;
			break;
		case OPT_FOLDED:
		case OPT_TOP:
		case OPT_SVG:
			p->mode = c == OPT_FOLDED ? OUT_FOLDED : c == OPT_TOP ? OUT_TOP : OUT_SVG;
			nmode++;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r ? r : -1; /* -1: --help, exit 0 */
	if (ntarget > 1)
		return ptk_usage_error(ctx, "-a and -p exclude each other");
	if (nmode > 1)
		return ptk_usage_error(ctx, "--folded, --top and --svg exclude each other");
	if (p->kernel_only && p->user_only)
		return ptk_usage_error(ctx, "--kernel and --user exclude each other");
	if (p->cg == CG_DWARF && p->kernel_only)
		return ptk_usage_error(ctx, "--call-graph dwarf unwinds user stacks: not with "
					    "--kernel");
	if (optind < argc) {
		if (ntarget)
			return ptk_usage_error(ctx, "-a/-p and a command exclude each other");
		p->tgt.kind = PTK_PERF_CMD;
	}
	if (p->mode < 0) {
		size_t l = p->outpath ? strlen(p->outpath) : 0;
		p->mode = l > 4 && !strcmp(p->outpath + l - 4, ".svg") ? OUT_SVG :
			  ptk_pprof_path(p->outpath)		       ? OUT_PPROF :
									 OUT_FOLDED;
	}
	if (p->mode == OUT_SVG && !p->outpath && !ctx->json && isatty(STDOUT_FILENO) == 1)
		return ptk_usage_error(ctx, "--svg to a terminal: give -o FILE.svg");
	if ((ctx->procfs && strcmp(ctx->procfs, "/proc")) ||
	    (ctx->sysfs && strcmp(ctx->sysfs, "/sys")))
		return ptk_usage_error(ctx, "samples come from perf_event_open: --procfs/--sysfs "
					    "replay does not apply");
	if (ptk_read_file("/proc/sys/kernel/perf_event_max_sample_rate", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (ptk_parse_u64(buf, &maxrate) == 0 && maxrate && (u64)p->hz > maxrate)
			return ptk_usage_error(ctx,
					       "-F %d is above kernel.perf_event_max_sample_rate "
					       "(%" PRIu64 ")",
					       p->hz, maxrate);
	}
	return 0;
}

int cmd_profile(struct ptk_ctx *ctx, int argc, char **argv)
{
	struct prof p = { .ctx = ctx };
	struct ptk_perf_child child = { .go_fd = -1, .err_fd = -1 };
	int rc, err;
	u64 t0;

	rc = parse_opts(&p, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = ptk_ctx_ready(ctx)))
		return rc;
	p.regs_mask = ptk_unwind_regs_mask();
	if (p.cg == CG_DWARF && !p.regs_mask) {
		ptk_err("--call-graph dwarf is only implemented for x86_64");
		return PTK_EXIT_RUNTIME;
	}
	if (p.tgt.kind == PTK_PERF_CMD) {
		err = ptk_perf_child_fork(argv + optind, &child);
		if (err) {
			ptk_err("cannot fork: %s", strerror(-err));
			return PTK_EXIT_RUNTIME;
		}
		p.child = p.tgt.pid = child.pid;
	}
	/* cycles when the PMU has them, else the cpu-clock timer */
	setup_attr(&p, true);
	err = open_all(&p);
	if (err && ptk_perf_err_unsupported(err)) {
		setup_attr(&p, false);
		err = open_all(&p);
	}
	if (err) {
		if (err == -ESRCH)
			ptk_err("no such process: %d", p.tgt.pid);
		else
			ptk_err("perf_event_open %s: %s%s", p.event, strerror(-err),
				err == -EACCES || err == -EPERM ?
					" (needs root or kernel.perf_event_paranoid <= 1)" :
				err == -EMFILE ? " (raise ulimit -n)" :
						 "");
		rc = PTK_EXIT_RUNTIME;
		goto out_kill_child;
	}
	p.sym = ptk_sym_new(NULL, 0);
	p.folded = ptk_folded_new();
	p.stacks =
		ptk_stacks_new(p.sym, p.folded, p.attr.sample_type, p.regs_mask, p.cg == CG_DWARF);
	if (p.mode == OUT_PPROF) {
		struct timespec ts;
		bool clk = !strcmp(p.event, "cpu-clock");
		clock_gettime(CLOCK_REALTIME, &ts);
		p.wall_start_ns = (s64)ts.tv_sec * 1000000000 + ts.tv_nsec;
		p.pp = ptk_pprof_new();
		ptk_pprof_sample_type(p.pp, "samples", "count");
		ptk_pprof_sample_type(p.pp, clk ? "cpu" : "cycles", clk ? "nanoseconds" : "count");
		ptk_pprof_period(p.pp, clk ? "cpu" : "cycles", clk ? "nanoseconds" : "count",
				 clk ? 1000000000 / p.hz : 0);
		ptk_pprof_comment(p.pp, clk ? "ptk profile: cpu-clock" : "ptk profile: cycles");
		p.ppc = pprofstk_new(p.pp, &ctx->src);
		ptk_stacks_on_sample(p.stacks, pprofstk_sample, p.ppc);
	}
	p.t0 = t0 = ptk_now_ns();
	if (p.child > 0) {
		err = ptk_perf_child_start(&child);
		if (err) {
			ptk_err("cannot run '%s': %s", argv[optind], strerror(-err));
			p.child = 0;
			rc = PTK_EXIT_RUNTIME;
			goto out_unmap_rings;
		}
	}
	run_loop(&p, t0);
	ptk_perf_sampler_disable(&p.ps);
	drain(&p);
	ptk_stacks_counts(p.stacks, &p.n);
	if (p.child > 0) {
		/* stopped (Ctrl-C, -d) while the command runs: end it as perf record does */
		kill(p.child, SIGTERM);
		waitpid(p.child, NULL, 0);
		p.child = 0;
	}
	rc = write_output(&p);
	report(&p, (ptk_now_ns() - t0) / 1e9);
out_unmap_rings:
	ptk_perf_sampler_close(&p.ps);
	ptk_stacks_free(p.stacks);
	pprofstk_free(p.ppc);
	ptk_pprof_free(p.pp);
	ptk_folded_free(p.folded);
	ptk_sym_free(p.sym);
out_kill_child:
	if (p.child > 0) {
		if (child.go_fd >= 0)
			close(child.go_fd);
		if (child.err_fd >= 0)
			close(child.err_fd);
		kill(p.child, SIGKILL);
		waitpid(p.child, NULL, 0);
	}
	return rc;
}
