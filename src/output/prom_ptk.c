// SPDX-License-Identifier: GPL-2.0
/* The exporter's ptk_* families, rendered from their registry entries. */
#include "output/prom_ptk.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/registry.h"

/* A family of one sample. */
static void single(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
		   struct ptk_val v, double created)
{
	ptk_prom_family(p, m);
	p->created = created;
	ptk_prom_sample(p, m, labels, &v);
}

void ptk_prom_cpuwatch(struct ptk_prom *p, const struct ptk_cpuwatch_result *w, double created)
{
	enum { NB = 27 }; /* le = 2 us ... 134 s; slower wakeups only in +Inf */
	double le[NB], sum = 0;
	u64 cum[NB], run = 0, total = ptk_hist_total(&w->runq);

	for (int i = 0; i < PTK_HIST_SLOTS; i++) {
		u64 lo, hi;
		ptk_hist_bounds(&w->runq, i, &lo, &hi);
		sum += w->runq.slot[i] * ((double)lo + (double)hi) / 2.0 / 1e6;
		if (i < NB) {
			run += w->runq.slot[i];
			cum[i] = run;
			le[i] = ldexp(1.0, i + 1) / 1e6; /* slot i holds [2^i, 2^(i+1)) us */
		}
	}
	p->created = created;
	ptk_prom_histogram(p, PTK_M(EXP_RUNQ_LATENCY), NULL, le, cum, NB, sum, total);
	single(p, PTK_M(EXP_SHORTLIVED), NULL, PTK_U(w->shortlived), created);
	single(p, PTK_M(OBS_BPF_RUN), NULL, w->bpf_run_ns ? PTK_F(w->bpf_run_ns / 1e9) : PTK_NA,
	       created);
}

void ptk_prom_tgroups(struct ptk_prom *p, const struct ptk_tgroups *tg)
{
	for (int k = 0; k < 2; k++) {
		const struct ptk_metric *m = k ? PTK_M(EXP_TG_THREADS) : PTK_M(EXP_TG_CSW);
		ptk_prom_family(p, m);
		for (int i = 0; i < tg->n; i++) {
			const struct ptk_tgroup *g = &tg->g[i];
			const char *lab[] = { "process", g->process, "group", g->group, NULL };
			struct ptk_val v = k ? PTK_U(g->threads) : PTK_U(g->csw);
			p->created = k ? -1 : g->created;
			ptk_prom_sample(p, m, lab, &v);
		}
	}
}

void ptk_prom_procs(struct ptk_prom *p, const struct ptk_proc_row *rows, int n, bool cmdline)
{
	static const enum ptk_mid fam[] = { PTK_M_EXP_PROC_CPU,	    PTK_M_EXP_PROC_RSS,
					    PTK_M_EXP_PROC_THREADS, PTK_M_EXP_PROC_READ,
					    PTK_M_EXP_PROC_WRITTEN, PTK_M_EXP_PROC_START };
	char pid[16];

	for (size_t k = 0; k < ARRAY_SIZE(fam); k++) {
		const struct ptk_metric *m = &ptk_registry[fam[k]];
		ptk_prom_family(p, m);
		for (int i = 0; i < n; i++) {
			const struct ptk_proc_row *r = &rows[i];
			const char *lab[] = {
				"pid",	    pid, "comm", r->comm, cmdline ? "cmdline" : NULL,
				r->cmdline, NULL
			};
			struct ptk_val v = PTK_NA;
			snprintf(pid, sizeof(pid), "%d", r->pid);
			switch (fam[k]) {
			case PTK_M_EXP_PROC_CPU:
				v = PTK_F(r->cpu_s);
				break;
			case PTK_M_EXP_PROC_RSS:
				v = PTK_U(r->rss_bytes);
				break;
			case PTK_M_EXP_PROC_THREADS:
				v = PTK_U(r->threads);
				break;
			case PTK_M_EXP_PROC_READ:
				v = r->io_ok ? PTK_U(r->rd) : PTK_NA;
				break;
			case PTK_M_EXP_PROC_WRITTEN:
				v = r->io_ok ? PTK_U(r->wr) : PTK_NA;
				break;
			default:
				v = r->start_s >= 0 ? PTK_F(r->start_s) : PTK_NA;
			}
			p->created = r->start_s;
			ptk_prom_sample(p, m, lab, &v);
		}
	}
}

void ptk_prom_verdicts(struct ptk_prom *p, const struct ptk_use_verdict *v, int n, double window_s,
		       double ts)
{
	static const char *const res[] = { "cpu", "memory", "disk", "network", "kernel" };

	ptk_prom_family(p, PTK_M(CHECK_VERDICT));
	for (size_t k = 0; n >= 0 && k < ARRAY_SIZE(res); k++) {
		int worst = -1;
		for (int i = 0; i < n; i++)
			if (!strcmp(v[i].resource, res[k]))
				worst = MAX(worst, (int)v[i].verdict);
		const char *lab[] = { "resource", res[k], NULL };
		struct ptk_val x = worst >= 0 ? PTK_U(worst) : PTK_NA;
		ptk_prom_sample(p, PTK_M(CHECK_VERDICT), lab, &x);
	}
	single(p, PTK_M(CHECK_WINDOW), NULL, n >= 0 ? PTK_F(window_s) : PTK_NA, -1);
	single(p, PTK_M(CHECK_LAST_RUN), NULL, n >= 0 ? PTK_F(ts) : PTK_NA, -1);
}

void ptk_prom_observer(struct ptk_prom *p, const struct ptk_prom_obs *o)
{
	ptk_prom_family(p, PTK_M(OBS_SUCCESS));
	for (int i = 0; i < o->ncoll; i++) {
		const char *lab[] = { "collector", o->coll_name[i], NULL };
		struct ptk_val v = PTK_U(o->ok[i]);
		if (o->on[i])
			ptk_prom_sample(p, PTK_M(OBS_SUCCESS), lab, &v);
	}
	single(p, PTK_M(OBS_SCRAPES), NULL, PTK_U(o->scrapes), o->start);
	single(p, PTK_M(OBS_COLLECTIONS), NULL, PTK_U(o->collections), o->start);
	const char *why[] = { "header_timeout", "evicted", "client_closed", "refused",
			      "bad_request" };
	const u64 n[] = { o->closed_timeout, o->closed_evicted, o->closed_client, o->closed_refused,
			  o->closed_bad };
	ptk_prom_family(p, PTK_M(OBS_CONNS_CLOSED));
	for (size_t i = 0; i < ARRAY_SIZE(why); i++) {
		const char *lab[] = { "reason", why[i], NULL };
		struct ptk_val v = PTK_U(n[i]);
		p->created = o->start;
		ptk_prom_sample(p, PTK_M(OBS_CONNS_CLOSED), lab, &v);
	}
	single(p, PTK_M(OBS_SCRAPE), NULL, PTK_F((ptk_now_ns() - o->t0_ns) / 1e9), -1);
}
