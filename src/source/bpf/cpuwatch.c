// SPDX-License-Identifier: GPL-2.0
#include "source/bpf/cpuwatch.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runqlat.skel.h"
#include "shortlived.skel.h"
/* light skeletons, one per hook flavour (kernel-side loader: no vmlinux BTF parse here) */
#include "runqlat_btf.lskel.h"
#include "runqlat_raw.lskel.h"
#include "shortlived_btf.lskel.h"
#include "shortlived_raw.lskel.h"
#include "source/bpf/runner.h"
#include "source/bpf/runqlat.h"
#include "source/bpf/shortlived.h"

#define CW_MAX_PROGS 6

/*
 * Loaded as one of: the light skeletons of one hook flavour (tp_btf, else raw_tp), whose loader
 * runs in the kernel so neither the kernel BTF nor the objects are parsed in user space (libbpf
 * spends ~11 MiB of heap and ~20 ms there); or, on kernels without BPF_PROG_TYPE_SYSCALL or
 * kernel-side CO-RE (before 5.17), the libbpf skeletons. PTK_BPF_LSKEL=0 forces the latter,
 * PTK_BPF_LSKEL=raw the raw_tp light skeletons (ptk_bpf_loader_wanted).
 */
struct ptk_cpuwatch {
	struct runqlat_btf_bpf *rq_btf;
	struct shortlived_btf_bpf *sl_btf;
	struct runqlat_raw_bpf *rq_raw;
	struct shortlived_raw_bpf *sl_raw;
	struct runqlat_bpf *rq; /* libbpf fallback */
	struct shortlived_bpf *sl;
	int hists_fd, counts_fd;
	int prog_fd[CW_MAX_PROGS]; /* for run-time stats */
	int nprog;
	const char *loader, *hook;
	int stats_fd;
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

void ptk_bpf_prog_runtime(int fd, u64 *ns, u64 *cnt)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0) {
		*ns += info.run_time_ns;
		*cnt += info.run_cnt;
	}
}

void ptk_bpf_obj_runtime(struct bpf_object *obj, u64 *ns, u64 *cnt)
{
	struct bpf_program *prog;

	*ns = *cnt = 0;
	bpf_object__for_each_program(prog, obj)
	{
		ptk_bpf_prog_runtime(bpf_program__fd(prog), ns, cnt);
	}
}

/* shortlived counts processes started after this (CLOCK_MONOTONIC, as task->start_time) */
#define SL_SETUP(s) ((s)->rodata->attach_ns = ptk_now_ns())
/* runqlat system-wide: its read-only defaults (no filter, one histogram, usecs), and room for
 * that one histogram only: the kernel preallocates every entry of a hash map at load */
#define RQ_SETUP(s) ((s)->maps.hists.max_entries = 1)

/*
 * load_lskel_FL: the light skeletons of one hook flavour FL (btf, raw), whose programs are
 * named P<hook> (tp_btf_, raw_). 0 or -errno; on failure nothing stays loaded.
 */
#define DEFINE_LOAD_FLAVOUR(FL, P, HOOK)                                                   \
	static int load_lskel_##FL(struct ptk_cpuwatch *w)                                 \
	{                                                                                  \
		int err;                                                                   \
                                                                                           \
		if ((err = PTK_LSKEL_LOAD(runqlat_##FL##_bpf, w->rq_##FL, RQ_SETUP)))      \
			return err;                                                        \
		if ((err = PTK_LSKEL_LOAD(shortlived_##FL##_bpf, w->sl_##FL, SL_SETUP))) { \
			runqlat_##FL##_bpf__destroy(w->rq_##FL);                           \
			w->rq_##FL = NULL;                                                 \
			return err;                                                        \
		}                                                                          \
		w->hook = HOOK;                                                            \
		w->hists_fd = w->rq_##FL->maps.hists.map_fd;                               \
		w->counts_fd = w->sl_##FL->maps.counts.map_fd;                             \
		w->prog_fd[0] = w->rq_##FL->progs.P##sched_wakeup.prog_fd;                 \
		w->prog_fd[1] = w->rq_##FL->progs.P##sched_wakeup_new.prog_fd;             \
		w->prog_fd[2] = w->rq_##FL->progs.P##sched_switch.prog_fd;                 \
		w->prog_fd[3] = w->sl_##FL->progs.P##exit.prog_fd;                         \
		w->prog_fd[4] = w->sl_##FL->progs.P##fork.prog_fd;                         \
		w->prog_fd[5] = w->sl_##FL->progs.P##exec.prog_fd;                         \
		return 0;                                                                  \
	}
DEFINE_LOAD_FLAVOUR(btf, tp_btf_, "tp_btf")
DEFINE_LOAD_FLAVOUR(raw, raw_, "raw_tp")

/* Light skeletons: tp_btf, then raw_tp. 0, or -errno of the last attempt. */
static int load_lskel(struct ptk_cpuwatch *w)
{
	int err;

	if (ptk_bpf_loader_wanted() != PTK_BPF_LSKEL_RAW && !load_lskel_btf(w))
		err = 0;
	else
		err = load_lskel_raw(w);
	if (err)
		return err;
	w->loader = "light skeleton";
	w->nprog = CW_MAX_PROGS;
	return 0;
}

/* The libbpf skeletons, the cheapest hooks picked with the kernel BTF probes. 0 or -errno. */
static int load_libbpf(struct ptk_cpuwatch *w)
{
	struct bpf_program *prog;
	bool btf;
	int err;

	errno = 0;
	w->rq = runqlat_bpf__open();
	w->sl = shortlived_bpf__open();
	if (!w->rq || !w->sl)
		return errno ? -errno : -ENOMEM;
	btf = ptk_bpf_pick_tp(w->rq->progs.tp_btf_sched_wakeup, w->rq->progs.raw_sched_wakeup,
			      "sched_wakeup");
	ptk_bpf_pick_tp(w->rq->progs.tp_btf_sched_wakeup_new, w->rq->progs.raw_sched_wakeup_new,
			"sched_wakeup_new");
	ptk_bpf_pick_tp(w->rq->progs.tp_btf_sched_switch, w->rq->progs.raw_sched_switch,
			"sched_switch");
	ptk_bpf_pick_tp(w->sl->progs.tp_btf_exit, w->sl->progs.raw_exit, "sched_process_exit");
	ptk_bpf_pick_tp(w->sl->progs.tp_btf_fork, w->sl->progs.raw_fork, "sched_process_fork");
	ptk_bpf_pick_tp(w->sl->progs.tp_btf_exec, w->sl->progs.raw_exec, "sched_process_exec");
	SL_SETUP(w->sl);
	bpf_map__set_max_entries(w->rq->maps.hists, 1);
	ptk_bpf_probes_done();
	if ((err = runqlat_bpf__load(w->rq)) || (err = shortlived_bpf__load(w->sl)) ||
	    (err = runqlat_bpf__attach(w->rq)) || (err = shortlived_bpf__attach(w->sl)))
		return err < 0 ? err : -EINVAL;
	w->loader = "libbpf";
	w->hook = btf ? "tp_btf" : "raw_tp";
	w->hists_fd = bpf_map__fd(w->rq->maps.hists);
	w->counts_fd = bpf_map__fd(w->sl->maps.counts);
	bpf_object__for_each_program(prog, w->rq->obj)
	{
		if (bpf_program__fd(prog) >= 0 && w->nprog < CW_MAX_PROGS)
			w->prog_fd[w->nprog++] = bpf_program__fd(prog);
	}
	bpf_object__for_each_program(prog, w->sl->obj)
	{
		if (bpf_program__fd(prog) >= 0 && w->nprog < CW_MAX_PROGS)
			w->prog_fd[w->nprog++] = bpf_program__fd(prog);
	}
	return 0;
}

int ptk_cpuwatch_start(struct ptk_cpuwatch **out)
{
	struct ptk_cpuwatch *w = xcalloc(1, sizeof(*w));
	int err;

	libbpf_set_print(quiet); /* the fallback is quiet: check carries on with /proc */
	w->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (ptk_bpf_loader_wanted() != PTK_BPF_LIBBPF) {
		err = load_lskel(w);
		if (!err)
			goto done;
		if (err == -EPERM)
			goto err_stop;
		/* an older kernel: the libbpf skeletons */
	}
	if ((err = load_libbpf(w)))
		goto err_stop;
done:
	*out = w;
	return 0;
err_stop:
	ptk_cpuwatch_stop(w);
	return err;
}

int ptk_cpuwatch_read(struct ptk_cpuwatch *w, struct ptk_cpuwatch_result *res)
{
	__u32 key = RUNQLAT_ALL, zero = 0;
	struct runqlat_hist h;
	int ncpu = libbpf_num_possible_cpus();

	memset(res, 0, sizeof(*res));
	res->runq.unit = "usecs";
	res->loader = w->loader;
	res->hook = w->hook;
	if (bpf_map_lookup_elem(w->hists_fd, &key, &h) == 0)
		memcpy(res->runq.slot, h.slots, sizeof(res->runq.slot));
	if (ncpu > 0) {
		struct shortlived_counts *c = xcalloc(ncpu, sizeof(*c));
		if (bpf_map_lookup_elem(w->counts_fd, &zero, c) == 0) {
			for (int i = 0; i < ncpu; i++) {
				res->forks += c[i].forks;
				res->execs += c[i].execs;
				res->exits += c[i].exits;
				res->shortlived += c[i].shortlived;
			}
		}
		free(c);
	}
	for (int i = 0; i < w->nprog; i++)
		ptk_bpf_prog_runtime(w->prog_fd[i], &res->bpf_run_ns, &res->bpf_run_cnt);
	return 0;
}

void ptk_cpuwatch_stop(struct ptk_cpuwatch *w)
{
	if (!w)
		return;
	runqlat_btf_bpf__destroy(w->rq_btf);
	shortlived_btf_bpf__destroy(w->sl_btf);
	runqlat_raw_bpf__destroy(w->rq_raw);
	shortlived_raw_bpf__destroy(w->sl_raw);
	runqlat_bpf__destroy(w->rq);
	shortlived_bpf__destroy(w->sl);
	if (w->stats_fd >= 0)
		close(w->stats_fd);
	free(w);
}
