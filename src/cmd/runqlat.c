// SPDX-License-Identifier: GPL-2.0
/* ptk runqlat: run-queue (scheduler) latency histograms, aggregated in the kernel. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <string.h>

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

/*
 * Loaded as one of: a light skeleton (tp_btf flavour, else raw_tp), whose loader runs in the
 * kernel so neither the kernel BTF nor the object is parsed in user space (~11 MiB of heap and
 * ~20 ms with libbpf); or, on kernels without BPF_PROG_TYPE_SYSCALL or kernel-side CO-RE
 * (before 5.17), the libbpf skeleton. PTK_BPF_LSKEL=0 forces the latter, PTK_BPF_LSKEL=raw
 * the raw_tp light skeleton (tests).
 */
PTK_BPF_LSKEL_PAIR_FREE(runqlat)

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
	struct runqlat_bpf *s = PTK_BPF_OPEN(r, runqlat_bpf);

	if (!s)
		return -errno;
	RQ_SET_RODATA(s, r);
	r->hook = ptk_bpf_pick_tp(s->progs.tp_btf_sched_wakeup, s->progs.raw_sched_wakeup,
				  "sched_wakeup") ?
			  "tp_btf" :
			  "raw_tp";
	ptk_bpf_pick_tp(s->progs.tp_btf_sched_wakeup_new, s->progs.raw_sched_wakeup_new,
			"sched_wakeup_new");
	ptk_bpf_pick_tp(s->progs.tp_btf_sched_switch, s->progs.raw_sched_switch, "sched_switch");
	return 0;
}

#define RQ_SETUP(s) RQ_SET_RODATA(s, r)

static int load_lskel(struct ptk_bpf_run *r)
{
	return PTK_BPF_LSKEL_PAIR(r, runqlat, RQ_SETUP, RQ_SETUP);
}

struct entry {
	__u32 id; /* tgid (-P), tid (-L) or RUNQLAT_ALL */
	struct runqlat_hist h;
};

static int rq_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct json_object *arr = NULL;
	const char *unit = r->filter.millis ? "msecs" : "usecs", *who;
	size_t n;
	/* taken out of the map: the next interval starts from zero */
	struct entry *e =
		PTK_BPF_MAP_ENTRIES(ptk_bpf_map_fd(r, "hists"), struct entry, id, h, true, &n);

	who = r->filter.per_process ? "pid" : "tid";
	if (r->ctx->json)
		arr = json_object_new_array();
	for (size_t j = 0; j < n; j++) {
		struct ptk_hist h = { .unit = unit };

		memcpy(h.slot, e[j].h.slots, sizeof(h.slot));
		if (arr) {
			struct json_object *o = json_object_new_object();
			if (e[j].id != RUNQLAT_ALL) {
				json_object_object_add(o, who, json_object_new_int(e[j].id));
				json_object_object_add(o, "comm",
						       json_object_new_string(e[j].h.comm));
			}
			json_object_object_add(o, "hist", ptk_hist_json(&h));
			json_object_array_add(arr, o);
			continue;
		}
		if (e[j].id != RUNQLAT_ALL)
			printf("\n%s = %u %s\n", who, e[j].id, e[j].h.comm);
		ptk_hist_print(stdout, &h);
	}
	free(e);
	if (arr) {
		ptk_bpf_report_begin(r, "interval_s", itv);
		ptk_sink_meta_json(&r->ctx->sink, "histograms", arr);
		ptk_bpf_report_end(r);
	} else {
		putchar('\n');
	}
	return 0;
}

const struct ptk_bpf_ops ptk_runqlat_ops = {
	.name = "runqlat",
	.usage = usage,
	.common = PTK_BPF_OPT_ALL,
	.operands = PTK_BPF_INTERVAL_COUNT,
	.banner = "run queue latency",
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.report = rq_report,
};
