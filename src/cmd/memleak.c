// SPDX-License-Identifier: GPL-2.0
/*
 * ptk memleak: the allocations still outstanding, by the stack that made them, with
 * libbpf-tools memleak's options and output. A process (-p, -c): the aggregation engine's
 * pairs on libc's allocator (malloc's entry keeps the size, its return adds the object under
 * its user stack; free deletes it); the kernel: its kmem tracepoints. The objects live in
 * the kernel's table (AGG_TRACK_*) and are grouped by stack at each report.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cmd/cmd.h"
#include "source/bpf/agg.h"
#include "source/perf/perf.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk memleak [-p PID | -c COMMAND] [-a] [-o AGE_MS] [-C] [-s SAMPLE_RATE]\n"
	"                   [-T TOP_STACKS] [-z MIN_SIZE] [-Z MAX_SIZE] [-O OBJECT] [-P] [-v]\n"
	"                   [--json] [INTERVAL [INTERVALS]]\n"
	"Outstanding allocations by stack, every INTERVAL seconds (5). With -p or -c, those of a\n"
	"process through its C library's allocator (malloc calloc realloc posix_memalign\n"
	"aligned_alloc valloc memalign pvalloc mmap, free munmap: uprobes, stacks by frame\n"
	"pointers); else the kernel's (kmem tracepoints: kmalloc kmem_cache_alloc mm_page_alloc\n"
	"and their frees).\n"
	"  -p, --pid PID            trace this process's allocations\n"
	"  -c, --command CMD        run CMD (\"prog args\") and trace its allocations\n"
	"  -a, --show-allocs        each allocation's address and size too\n"
	"  -o, --older AGE_MS       only allocations older than AGE_MS\n"
	"  -C, --combined-only      stacks only (the default here)\n"
	"  -s, --sample-rate N      one allocation in N (by the clock)\n"
	"  -T, --top N              the N stacks with the most bytes outstanding (10)\n"
	"  -z, --min-size N         only allocations of at least N bytes\n"
	"  -Z, --max-size N         only allocations of at most N bytes\n"
	"  -O, --obj OBJECT         the allocator of this library or program (default: c)\n"
	"  -P, --percpu             the kernel's per-CPU allocations too\n";

struct priv {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	bool show_allocs, combined, percpu;
	const char *older, *sample, *top, *minsz, *maxsz, *obj, *command;
	u64 older_ns, vmin, vmax;
	u32 sample_n;
	int ntop;
	char probes[PTK_AGG_MAX_SPECS][300];
	struct ptk_perf_child child;
	bool have_child;
};

static volatile int *stop_flag;

static void on_child(int sig)
{
	(void)sig;
	if (stop_flag)
		*stop_flag = 1;
}

/* An allocator function of the user: its entry keeps what the return needs. */
struct ufunc {
	const char *name;
	const char *value, *value2; /* the size (read at the entry) */
	const char *track; /* the object (read at the return) */
	const char *del; /* realloc: the object freed at the entry */
	const char *filter; /* a success (posix_memalign returns 0, mmap not MAP_FAILED) */
};

static const struct ufunc allocs[] = {
	{ "malloc", "arg0", NULL, "retval", NULL, NULL },
	{ "calloc", "arg0", "arg1", "retval", NULL, NULL },
	{ "realloc", "arg1", NULL, "retval", "arg0", NULL },
	{ "posix_memalign", "arg2", NULL, "*arg0", NULL, "retval == 0" },
	{ "aligned_alloc", "arg1", NULL, "retval", NULL, NULL },
	{ "valloc", "arg0", NULL, "retval", NULL, NULL },
	{ "memalign", "arg1", NULL, "retval", NULL, NULL },
	{ "pvalloc", "arg0", NULL, "retval", NULL, NULL },
	{ "mmap", "arg1", NULL, "retval", NULL, "retval != -1" },
};
static const char *const frees[] = { "free", "munmap" };

/* The kernel's: an allocation (object, bytes) and its free, by tracepoint. */
struct kfunc {
	const char *tp, *track, *value;
	bool pages, percpu, optional;
};
static const struct kfunc kallocs[] = {
	{ "kmem:kmalloc", "ptr", "bytes_alloc", false, false, false },
	{ "kmem:kmalloc_node", "ptr", "bytes_alloc", false, false, true },
	{ "kmem:kmem_cache_alloc", "ptr", "bytes_alloc", false, false, false },
	{ "kmem:kmem_cache_alloc_node", "ptr", "bytes_alloc", false, false, true },
	{ "kmem:mm_page_alloc", "pfn", "order", true, false, false },
	{ "percpu:percpu_alloc_percpu", "ptr", "bytes_alloc", false, true, true },
	{ "kmem:kfree", "ptr", NULL, false, false, false },
	{ "kmem:kmem_cache_free", "ptr", NULL, false, false, false },
	{ "kmem:mm_page_free", "pfn", NULL, true, false, false },
	{ "percpu:percpu_free_percpu", "ptr", NULL, false, true, true },
};

static int add_spec(struct priv *p, const struct ptk_agg_spec *s)
{
	struct ptk_agg *a = &p->agg;

	if (a->nspecs == PTK_AGG_MAX_SPECS)
		return -E2BIG;
	a->specs[a->nspecs++] = *s;
	return 0;
}

static void user_specs(struct priv *p)
{
	const char *lib = p->obj ? p->obj : "c";
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(allocs); i++) {
		const struct ufunc *u = &allocs[i];
		char *e = p->probes[n++], *r = p->probes[n++];

		snprintf(e, 300, "uprobe:%s:%s", lib, u->name);
		snprintf(r, 300, "uretprobe:%s:%s", lib, u->name);
		add_spec(p, &(struct ptk_agg_spec){ .probe = e,
						    .role = AGG_ROLE_ENTRY,
						    .mode = u->del ? AGG_TRACK_DEL : AGG_NONE,
						    .track = u->del,
						    .frame = true,
						    .optional = true,
						    .sample = p->sample_n });
		add_spec(p, &(struct ptk_agg_spec){ .probe = r,
						    .role = AGG_ROLE_RETURN,
						    .mode = AGG_TRACK_ADD,
						    .value = u->value,
						    .value2 = u->value2,
						    .track = u->track,
						    .filter = u->filter,
						    .frame = true,
						    .optional = true,
						    .has_range = p->vmin || p->vmax,
						    .vmin = p->vmin,
						    .vmax = p->vmax ? p->vmax : ~0ull });
	}
	for (size_t i = 0; i < ARRAY_SIZE(frees); i++) {
		char *f = p->probes[n++];

		snprintf(f, 300, "uprobe:%s:%s", lib, frees[i]);
		add_spec(p, &(struct ptk_agg_spec){ .probe = f,
						    .mode = AGG_TRACK_DEL,
						    .track = "arg0",
						    .optional = true });
	}
	p->agg.by = "ustack";
}

static void kernel_specs(struct priv *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(kallocs); i++) {
		const struct kfunc *k = &kallocs[i];

		if (k->percpu && !p->percpu)
			continue;
		add_spec(p, &(struct ptk_agg_spec){
				    .probe = k->tp,
				    .mode = k->value ? AGG_TRACK_ADD : AGG_TRACK_DEL,
				    .value = k->value,
				    .value_pow2 = k->pages,
				    .value_scale = k->pages ? 4096 : 0,
				    .track = k->track,
				    /* a page allocation that failed has pfn -1 */
				    .filter = k->pages && k->value ? "pfn != 0xffffffffffffffff" :
								     NULL,
				    .optional = k->optional,
				    .sample = k->value ? p->sample_n : 0,
				    .has_range = k->value && (p->vmin || p->vmax),
				    .vmin = p->vmin,
				    .vmax = p->vmax ? p->vmax : ~0ull });
	}
	p->agg.by = "kstack";
}

static int num_opt(struct ptk_ctx *ctx, const char *name, const char *arg, u64 *v)
{
	if (arg && ptk_parse_u64(arg, v))
		return ptk_usage_error(ctx, "invalid %s '%s'", name, arg);
	return 0;
}

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->agg;
	u64 v = 10, age = 0, smp = 0;
	int rc;

	if ((rc = num_opt(r->ctx, "-o", p->older, &age)) ||
	    (rc = num_opt(r->ctx, "-s", p->sample, &smp)) ||
	    (rc = num_opt(r->ctx, "-T", p->top, &v)) ||
	    (rc = num_opt(r->ctx, "-z", p->minsz, &p->vmin)) ||
	    (rc = num_opt(r->ctx, "-Z", p->maxsz, &p->vmax)))
		return rc;
	if (!v || v > 100000 || smp > 1000000)
		return ptk_usage_error(r->ctx, "invalid -T or -s");
	if (p->vmax && p->vmin > p->vmax)
		return ptk_usage_error(r->ctx, "-z %" PRIu64 " is above -Z %" PRIu64, p->vmin,
				       p->vmax);
	if (p->command && r->filter.tgid)
		return ptk_usage_error(r->ctx, "-p or -c");
	p->ntop = (int)v;
	p->older_ns = age * 1000000;
	p->sample_n = (u32)smp;
	if (p->command) {
		static char *args[64];
		char *dup = xstrdup(p->command), *save = NULL;
		int n = 0;

		for (char *t = strtok_r(dup, " \t", &save); t && n < 63;
		     t = strtok_r(NULL, " \t", &save))
			args[n++] = t;
		args[n] = NULL;
		if (!n)
			return ptk_usage_error(r->ctx, "-c: no command");
		if ((rc = ptk_perf_child_fork(args, &p->child))) {
			ptk_err("cannot run %s: %s", args[0], strerror(-rc));
			return PTK_EXIT_RUNTIME;
		}
		p->have_child = true;
		r->filter.tgid = p->child.pid;
	}
	if (r->filter.tgid)
		user_specs(p);
	else
		kernel_specs(p);
	a->mode = PTK_AGG_SUM;
	if ((rc = ptk_agg_parse(a)))
		return rc == -EINVAL ? ptk_usage_error(r->ctx, "%s", a->err) : PTK_EXIT_RUNTIME;
	return 0;
}

static int prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int rc;

	if ((rc = ptk_agg_cmd_prepare(&p->agg, r)))
		return rc;
	if (r->filter.tgid)
		snprintf(r->banner, sizeof(r->banner),
			 "Attaching to pid %d, Ctrl+C to quit (%zu probes).", r->filter.tgid,
			 p->agg.ntargets);
	else
		snprintf(r->banner, sizeof(r->banner),
			 "Tracing outstanding memory allocs...  Hit Ctrl-C to end");
	return 0;
}

/* The command starts once its allocator is probed; its exit ends the run. */
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
		ptk_err("cannot run %s: %s", p->command, strerror(-rc));
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

/* One stack's frames: "\tN [<addr>] func+0x1a [module]". */
static void print_frames(const struct ptk_agg_row *w)
{
	for (int i = 0; i < w->nframes[0]; i++) {
		u64 addr = w->addrs[0] ? w->addrs[0][i] : 0;
		const char *f = w->frames[0][i];

		if (!strncmp(f, "[no stack", 9) || !strncmp(f, "0x", 2))
			printf("\t%d [<%016" PRIx64 ">] <%s>\n", i, addr, "null sym");
		else
			printf("\t%d [<%016" PRIx64 ">] %s\n", i, addr, f);
	}
}

static int report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_agg_row *rows;
	struct ptk_agg_obj *objs = NULL;
	size_t n, nobjs = 0, shown;
	struct timespec ts;
	struct tm tm;
	int rc;

	if ((rc = ptk_agg_track(r, p->older_ns, &rows, &n, &objs, &nobjs)))
		return rc;
	shown = MIN(n, (size_t)p->ntop);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	if (r->ctx->json) {
		struct ptk_sink *s = &r->ctx->sink;

		ptk_sink_begin(s);
		ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(r->ctx));
		ptk_sink_meta_f64(s, "interval_s", itv);
		ptk_sink_meta_u64(s, "stacks", n);
		ptk_bpf_meta_loader(r);
		ptk_agg_print(s, &p->agg.res, rows, shown);
		ptk_bpf_report_end(r);
	} else {
		printf("[%d:%d:%d] Top %zu stacks with outstanding allocations:\n", tm.tm_hour,
		       tm.tm_min, tm.tm_sec, shown);
		for (size_t j = 0; j < shown; j++) {
			printf("%" PRId64 " bytes in %" PRIu64 " allocations from stack\n",
			       rows[j].sum, rows[j].count);
			for (size_t k = 0; p->show_allocs && k < nobjs; k++)
				if (objs[k].row == (int)j)
					printf("\taddr = %#" PRIx64 " size = %" PRId64 "\n",
					       objs[k].addr, objs[k].size);
			print_frames(&rows[j]);
		}
	}
	fflush(stdout);
	ptk_agg_rows_free(rows, n);
	free(rows);
	free(objs);
	(void)i;
	(void)last;
	return 0;
}

static void destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	ptk_agg_destroy(r);
	if (p->have_child) {
		signal(SIGCHLD, SIG_DFL);
		/* a command not started (the probes failed) is ended */
		kill(p->child.pid, SIGKILL);
		waitpid(p->child.pid, NULL, 0);
		p->have_child = false;
	}
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_FLAG('a', "show-allocs", struct priv, show_allocs),
	PTK_BPF_STR('o', "older", struct priv, older),
	PTK_BPF_STR('c', "command", struct priv, command),
	PTK_BPF_FLAG('C', "combined-only", struct priv, combined),
	PTK_BPF_STR('s', "sample-rate", struct priv, sample),
	PTK_BPF_STR('T', "top", struct priv, top),
	PTK_BPF_STR('z', "min-size", struct priv, minsz),
	PTK_BPF_STR('Z', "max-size", struct priv, maxsz),
	PTK_BPF_STR('O', "obj", struct priv, obj),
	PTK_BPF_FLAG('P', "percpu", struct priv, percpu),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "memleak",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_INTERVAL_COUNT,
	.interval_s = 5,
	.own_timestamp = true,
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

int cmd_memleak(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;

	memset(&p, 0, sizeof(p));
	return ptk_bpf_main(ctx, &ops, &p, argc, argv);
}
