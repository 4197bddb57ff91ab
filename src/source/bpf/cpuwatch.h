/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc cannot show ptk check about CPUs, watched with BPF for the check window: the
 * run-queue latency histogram (the runqlat programs, system-wide) and the processes that
 * started and exited inside the window (shortlived). Falls back quietly: start() fails with
 * -errno and check carries on with /proc alone.
 */
#ifndef PTK_SOURCE_BPF_CPUWATCH_H
#define PTK_SOURCE_BPF_CPUWATCH_H

#include "lib/util.h"
#include "model/hist.h"

struct ptk_cpuwatch;

struct ptk_cpuwatch_result {
	struct ptk_hist runq; /* run-queue latency, log2 of usecs */
	u64 forks, execs, exits;
	u64 shortlived; /* processes started and exited inside the window */
	u64 bpf_run_ns; /* kernel CPU of the programs (BPF_ENABLE_STATS), 0 unknown */
	u64 bpf_run_cnt;
	const char *loader; /* "light skeleton" (kernel-side loader) or "libbpf" (before 5.17) */
	const char *hook; /* "tp_btf" or "raw_tp" */
};

/*
 * Load and attach: the light skeletons (tp_btf flavour, else raw_tp), or the libbpf skeletons
 * on kernels before 5.17; PTK_BPF_LSKEL=0 / =raw force one (ptk_bpf_loader_wanted). Returns 0
 * or -errno (-EPERM unprivileged, -ENOENT no BTF...).
 */
int ptk_cpuwatch_start(struct ptk_cpuwatch **w);
/* Read what was seen so far. 0 or -errno. */
int ptk_cpuwatch_read(struct ptk_cpuwatch *w, struct ptk_cpuwatch_result *res);
/* Detach and free (NULL is fine). */
void ptk_cpuwatch_stop(struct ptk_cpuwatch *w);

/* Add one program's run-time stats (run_time_ns, run_cnt since load; they count while
 * BPF_ENABLE_STATS is held) to *ns and *cnt. A negative fd adds nothing. */
void ptk_bpf_prog_runtime(int fd, u64 *ns, u64 *cnt);
/* Sum of run_time_ns / run_cnt of an object's loaded programs (needs BPF stats enabled). */
struct bpf_object;
void ptk_bpf_obj_runtime(struct bpf_object *obj, u64 *ns, u64 *cnt);

#endif
