/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's own ptk_* families, each a registry entry (model/registry.h, the
 * "exporter" and "observer" sections): the run-queue latency histogram and the short-lived
 * processes (BPF), context switches per thread group and the top-N processes (model/pscan.h),
 * ptk check's verdicts, and how the exporter itself is doing.
 */
#ifndef PTK_OUTPUT_PROM_PTK_H
#define PTK_OUTPUT_PROM_PTK_H

#include "model/pscan.h"
#include "model/use.h"
#include "output/prom.h"
#include "source/bpf/cpuwatch.h"

/* ptk_runqueue_latency_seconds (created: the exporter's start, epoch s),
 * ptk_shortlived_processes_total and ptk_bpf_program_run_seconds_total. */
void ptk_prom_cpuwatch(struct ptk_prom *p, const struct ptk_cpuwatch_result *w, double created);
/* ptk_thread_group_context_switches_total and ptk_thread_group_threads{process,group}. */
void ptk_prom_tgroups(struct ptk_prom *p, const struct ptk_tgroups *tg);
/* ptk_process_*{pid,comm[,cmdline]} of the top-N rows. */
void ptk_prom_procs(struct ptk_prom *p, const struct ptk_proc_row *rows, int n, bool cmdline);
/* ptk_check_verdict{resource} (the worst of each resource's devices), the window and when it
 * ended (epoch s); n < 0: no result yet, the values are absent. */
void ptk_prom_verdicts(struct ptk_prom *p, const struct ptk_use_verdict *v, int n, double window_s,
		       double ts);

/* The exporter's view of itself. */
struct ptk_prom_obs {
	int ncoll;
	const char *const *coll_name; /* [ncoll] */
	const bool *on, *ok; /* [ncoll]: collector enabled / succeeded */
	u64 scrapes, collections;
	/* connections closed before libmicrohttpd answered: header timeout, evicted, by the
	 * client, refused, answered 400 by the gate (ptk_prom_http_stats) */
	u64 closed_timeout, closed_evicted, closed_client, closed_refused, closed_bad;
	double start; /* epoch s */
	u64 t0_ns; /* ptk_now_ns() when the collection began */
};
/* ptk_scrape_collector_success{collector}, ptk_exporter_scrapes_total,
 * ptk_exporter_collections_total, ptk_exporter_connections_closed_total{reason},
 * ptk_scrape_duration_seconds (up to this call). */
void ptk_prom_observer(struct ptk_prom *p, const struct ptk_prom_obs *o);

#endif
