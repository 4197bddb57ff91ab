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
#include "source/bpf/runner.h"
#include "source/bpf/runqlat.h"
#include "source/bpf/shortlived.h"

struct ptk_cpuwatch {
	struct runqlat_bpf *rq;
	struct shortlived_bpf *sl;
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

int ptk_cpuwatch_start(struct ptk_cpuwatch **out)
{
	struct ptk_cpuwatch *w = xcalloc(1, sizeof(*w));
	int err;

	libbpf_set_print(quiet);
	w->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	w->rq = runqlat_bpf__open();
	w->sl = shortlived_bpf__open();
	if (!w->rq || !w->sl) {
		err = -errno ? -errno : -ENOMEM;
		goto fail;
	}
	ptk_bpf_pick_tp(w->rq->progs.tp_btf_sched_wakeup, w->rq->progs.raw_sched_wakeup,
			"sched_wakeup");
	ptk_bpf_pick_tp(w->rq->progs.tp_btf_sched_wakeup_new, w->rq->progs.raw_sched_wakeup_new,
			"sched_wakeup_new");
	ptk_bpf_pick_tp(w->rq->progs.tp_btf_sched_switch, w->rq->progs.raw_sched_switch,
			"sched_switch");
	ptk_bpf_pick_tp(w->sl->progs.tp_btf_exit, w->sl->progs.raw_exit, "sched_process_exit");
	ptk_bpf_pick_tp(w->sl->progs.tp_btf_fork, w->sl->progs.raw_fork, "sched_process_fork");
	ptk_bpf_pick_tp(w->sl->progs.tp_btf_exec, w->sl->progs.raw_exec, "sched_process_exec");
	w->sl->rodata->attach_ns = ptk_now_ns(); /* CLOCK_MONOTONIC, as task->start_time */
	ptk_bpf_probes_done();
	if ((err = runqlat_bpf__load(w->rq)) || (err = shortlived_bpf__load(w->sl)) ||
	    (err = runqlat_bpf__attach(w->rq)) || (err = shortlived_bpf__attach(w->sl)))
		goto fail;
	*out = w;
	return 0;
fail:
	ptk_cpuwatch_stop(w);
	return err < 0 ? err : -EINVAL;
}

int ptk_cpuwatch_read(struct ptk_cpuwatch *w, struct ptk_cpuwatch_result *res)
{
	__u32 key = RUNQLAT_ALL, zero = 0;
	struct runqlat_hist h;
	int ncpu = libbpf_num_possible_cpus();
	u64 ns, cnt;

	memset(res, 0, sizeof(*res));
	res->runq.unit = "usecs";
	if (bpf_map_lookup_elem(bpf_map__fd(w->rq->maps.hists), &key, &h) == 0)
		memcpy(res->runq.slot, h.slots, sizeof(res->runq.slot));
	if (ncpu > 0) {
		struct shortlived_counts *c = xcalloc(ncpu, sizeof(*c));
		if (bpf_map_lookup_elem(bpf_map__fd(w->sl->maps.counts), &zero, c) == 0) {
			for (int i = 0; i < ncpu; i++) {
				res->forks += c[i].forks;
				res->execs += c[i].execs;
				res->exits += c[i].exits;
				res->shortlived += c[i].shortlived;
			}
		}
		free(c);
	}
	ptk_bpf_obj_runtime(w->rq->obj, &res->bpf_run_ns, &res->bpf_run_cnt);
	ptk_bpf_obj_runtime(w->sl->obj, &ns, &cnt);
	res->bpf_run_ns += ns;
	res->bpf_run_cnt += cnt;
	return 0;
}

void ptk_cpuwatch_stop(struct ptk_cpuwatch *w)
{
	if (!w)
		return;
	runqlat_bpf__destroy(w->rq);
	shortlived_bpf__destroy(w->sl);
	if (w->stats_fd >= 0)
		close(w->stats_fd);
	free(w);
}
