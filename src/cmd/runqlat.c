// SPDX-License-Identifier: GPL-2.0
/* ptk runqlat: run-queue (scheduler) latency histograms, aggregated in the kernel. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "model/hist.h"
#include "runqlat.skel.h"
/* light skeletons, one per hook flavour (kernel-side loader: no vmlinux BTF parse here) */
#include "runqlat_btf.lskel.h"
#include "runqlat_raw.lskel.h"
#include "source/bpf/runner.h"
#include "source/bpf/runqlat.h"

static const char usage[] =
	"usage: ptk runqlat [-T] [-m] [-P|-L] [-p PID] [-t TID] [-c COMM] [--cgroup PATH] [--json]\n"
	"                   [interval [count]]\n"
	"Run-queue latency: the time runnable tasks waited for a CPU, from sched_wakeup,\n"
	"sched_wakeup_new and preemption (sched_switch with prev still runnable) to sched_switch\n"
	"running them, as a log2 histogram aggregated in the kernel (libbpf-tools runqlat).\n"
	"Without an interval it reports once at Ctrl-C.\n"
	"  -T           timestamp each report\n"
	"  -m           milliseconds instead of microseconds\n"
	"  -P / -L      one histogram per process (tgid) / per thread\n"
	"  -p PID       only this process (all of its threads); -t TID one thread\n"
	"  -c COMM      only tasks with this comm; --cgroup PATH only tasks in this cgroup v2\n"
	"p50/p90/p99/max are bucket upper bounds derived from the histogram.\n";

struct priv {
	bool timestamp;
	bool btf;
	/*
	 * Loaded as one of: a light skeleton (tp_btf flavour, else raw_tp), whose loader runs in
	 * the kernel so neither the kernel BTF nor the object is parsed in user space (~11 MiB
	 * of heap and ~20 ms with libbpf); or, on kernels without BPF_PROG_TYPE_SYSCALL or
	 * kernel-side CO-RE (before 5.17), the libbpf skeleton. PTK_BPF_LSKEL=0 forces the
	 * latter, PTK_BPF_LSKEL=raw the raw_tp light skeleton (tests).
	 */
	struct runqlat_btf_bpf *lbtf;
	struct runqlat_raw_bpf *lraw;
	int hists_fd;
};

static struct bpf_object *object(struct ptk_bpf_run *r)
{
	return r->skel ? ((struct runqlat_bpf *)r->skel)->obj : NULL;
}

static int prog_fds(struct ptk_bpf_run *r, int *fds, int max)
{
	struct priv *p = r->priv;

	if (max < 3)
		return 0;
	if (p->lbtf) {
		fds[0] = p->lbtf->progs.tp_btf_sched_wakeup.prog_fd;
		fds[1] = p->lbtf->progs.tp_btf_sched_wakeup_new.prog_fd;
		fds[2] = p->lbtf->progs.tp_btf_sched_switch.prog_fd;
		return 3;
	}
	if (p->lraw) {
		fds[0] = p->lraw->progs.raw_sched_wakeup.prog_fd;
		fds[1] = p->lraw->progs.raw_sched_wakeup_new.prog_fd;
		fds[2] = p->lraw->progs.raw_sched_switch.prog_fd;
		return 3;
	}
	return 0;
}

#define RQ_SET_RODATA(skel, r)                                              \
	do {                                                                \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);                    \
		(skel)->rodata->targ_per_process = (r)->filter.per_process; \
		(skel)->rodata->targ_per_thread = (r)->filter.per_thread;   \
		(skel)->rodata->targ_ms = (r)->filter.millis;               \
	} while (0)

/* Open the libbpf skeleton and keep the cheapest hooks (a BTF probe). 0 or -errno. */
static int open_libbpf(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct runqlat_bpf *s = runqlat_bpf__open();

	if (!s)
		return -errno;
	r->skel = s;
	RQ_SET_RODATA(s, r);
	p->btf = ptk_bpf_pick_tp(s->progs.tp_btf_sched_wakeup, s->progs.raw_sched_wakeup,
				 "sched_wakeup");
	ptk_bpf_pick_tp(s->progs.tp_btf_sched_wakeup_new, s->progs.raw_sched_wakeup_new,
			"sched_wakeup_new");
	ptk_bpf_pick_tp(s->progs.tp_btf_sched_switch, s->progs.raw_sched_switch, "sched_switch");
	return 0;
}

#define RQ_SETUP(s) RQ_SET_RODATA(s, r)

/* Try the light skeletons: tp_btf, then raw_tp. 0, or -errno of the last attempt. */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int err;

	if (ptk_bpf_loader_wanted() != PTK_BPF_LSKEL_RAW &&
	    !PTK_LSKEL_LOAD(runqlat_btf_bpf, p->lbtf, RQ_SETUP)) {
		p->btf = true;
		p->hists_fd = p->lbtf->maps.hists.map_fd;
		return 0;
	}
	if ((err = PTK_LSKEL_LOAD(runqlat_raw_bpf, p->lraw, RQ_SETUP)))
		return err;
	p->hists_fd = p->lraw->maps.hists.map_fd;
	return 0;
}

static int rq_load(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int err;

	struct runqlat_bpf *s = r->skel;
	if (!s)
		return 0; /* the light skeleton is loaded */
	if ((err = runqlat_bpf__load(s)))
		return err;
	p->hists_fd = bpf_map__fd(s->maps.hists);
	return runqlat_bpf__attach(s);
}

static int rq_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	int fd = p->hists_fd;
	__u32 key, next, *prev = NULL;
	struct runqlat_hist v;
	struct json_object *arr = NULL;
	const char *unit = r->filter.millis ? "msecs" : "usecs";
	__u32 *seen = NULL;
	size_t nseen = 0;

	if (r->ctx->json)
		arr = json_object_new_array();
	else if (p->timestamp) {
		char ts[16];
		time_t t = time(NULL);
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
		printf("%-8s\n", ts);
	}
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct ptk_hist h = { .unit = unit };
		if (bpf_map_lookup_elem(fd, &next, &v) == 0) {
			memcpy(h.slot, v.slots, sizeof(h.slot));
			if (arr) {
				struct json_object *o = json_object_new_object();
				if (next != RUNQLAT_ALL) {
					json_object_object_add(
						o, r->filter.per_process ? "pid" : "tid",
						json_object_new_int(next));
					json_object_object_add(o, "comm",
							       json_object_new_string(v.comm));
				}
				json_object_object_add(o, "hist", ptk_hist_json(&h));
				json_object_array_add(arr, o);
			} else {
				if (next != RUNQLAT_ALL)
					printf("\n%s = %u %s\n",
					       r->filter.per_process ? "pid" : "tid", next, v.comm);
				ptk_hist_print(stdout, &h);
			}
		}
		seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
		seen[nseen++] = next;
		key = next;
		prev = &key;
	}
	/*
	 * Clear for the next interval: the keys read, and only those. A loop deleting "the first
	 * key" until none is left never ends while the programs keep adding keys back (a busy
	 * machine, or this process's own syscalls under strace).
	 */
	for (size_t j = 0; j < nseen; j++)
		bpf_map_delete_elem(fd, &seen[j]);
	free(seen);
	if (arr) {
		ptk_sink_begin(&r->ctx->sink);
		ptk_sink_meta_f64(&r->ctx->sink, "interval_s", itv);
		ptk_sink_meta_str(&r->ctx->sink, "hook", p->btf ? "tp_btf" : "raw_tp");
		ptk_sink_meta_str(&r->ctx->sink, "loader",
				  p->lbtf || p->lraw ? "light skeleton" : "libbpf");
		ptk_sink_meta_json(&r->ctx->sink, "histograms", arr);
		ptk_sink_meta_json(&r->ctx->sink, "observer", ptk_bpf_observer_json(r));
		ptk_sink_end(&r->ctx->sink);
	} else {
		putchar('\n');
		fflush(stdout);
	}
	return 0;
}

static void rq_destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	runqlat_btf_bpf__destroy(p->lbtf);
	runqlat_raw_bpf__destroy(p->lraw);
	runqlat_bpf__destroy(r->skel);
}

static const struct ptk_bpf_ops ops = {
	.name = "runqlat",
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.load = rq_load,
	.report = rq_report,
	.object = object,
	.prog_fds = prog_fds,
	.destroy = rq_destroy,
};

int cmd_runqlat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "timestamp", no_argument, NULL, 'T' },
					      PTK_BPF_LONGOPTS,
					      { 0 } };
	struct priv p = { 0 };
	struct ptk_bpf_run r = { .ctx = ctx, .ops = &ops, .priv = &p, .count = -1 };
	bool has_itv;
	int c, rc;

	while ((c = getopt_long(argc, argv, "T" PTK_BPF_SHORTOPTS, opts, NULL)) != -1) {
		if (c == 'T') {
			p.timestamp = true;
			continue;
		}
		rc = ptk_bpf_common_opt(ctx, &r.filter, c, optarg);
		if (rc == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (rc == PTK_EXIT_USAGE)
			return rc;
		if (rc < 0)
			return ptk_usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
	}
	if (r.filter.per_process && r.filter.per_thread)
		return ptk_usage_error(ctx, "-P and -L are exclusive");
	if ((rc = ptk_parse_interval_count(ctx, argc, argv, &r.interval_s, &r.count, &has_itv)))
		return rc;
	if (!has_itv)
		r.interval_s = 0;
	snprintf(r.banner, sizeof(r.banner), "Tracing run queue latency... Hit Ctrl-C to end.");
	return ptk_bpf_run(&r);
}
