// SPDX-License-Identifier: GPL-2.0
/* The busiest task of an interval (model/tasktop.h). */
#include <stdlib.h>
#include <string.h>

#include "model/ptask.h"
#include "model/tasktop.h"

static void top_set(struct ptk_task_top *t, const struct ptk_task_rate *r)
{
	t->any = true;
	t->pid = r->cur->pid;
	snprintf(t->comm, sizeof(t->comm), "%s", r->cur->comm);
}

void ptk_task_tops(const struct ptk_ptab *prev, const struct ptk_ptab *cur, double itv_s, long hz,
		   double prev_up_s, int ncpu, int skip, struct ptk_task_top *cpu,
		   struct ptk_task_top *io)
{
	struct ptk_task_rate *r = xcalloc((size_t)MAX(cur->n, 1), sizeof(*r));
	double best_cpu = 0, best_io = 0;

	memset(cpu, 0, sizeof(*cpu));
	memset(io, 0, sizeof(*io));
	ptk_task_rates(prev, cur, itv_s, hz, prev_up_s, ncpu, r);
	for (int k = 0; k < cur->n; k++) {
		double c = r[k].cpu_pct / MAX(ncpu, 1);
		double b = (r[k].rchar_kb_s + r[k].wchar_kb_s) * 1024;

		if (!r[k].valid || r[k].cur->pid == skip)
			continue;
		if (c > 0 && c >= best_cpu) {
			best_cpu = c;
			top_set(cpu, &r[k]);
			cpu->cpu_all_pct = c;
		}
		if (r[k].io_ok && b > best_io) {
			best_io = b;
			top_set(io, &r[k]);
			io->rchar_s = r[k].rchar_kb_s * 1024;
			io->wchar_s = r[k].wchar_kb_s * 1024;
		}
	}
	free(r);
}
