// SPDX-License-Identifier: GPL-2.0
/* The tables of procps-ng vmstat's -s, -D and -m modes (model/procps.h). */
#include <stdlib.h>
#include <string.h>

#include "model/procps.h"

/* column m of activity a's first row (prev NULL: levels, which need no interval) */
static struct ptk_val act_val(const struct ptk_snap *s, enum ptk_act_id a, enum ptk_mid m)
{
	struct ptk_rows rs = { 0 };
	int i = ptk_act_col(&ptk_activities[a], m);
	struct ptk_val v = PTK_NA;

	ptk_activities[a].rows(NULL, s, ptk_act_boot_s(s), NULL, &rs);
	if (i >= 0 && rs.n)
		v = rs.r[0].v[i];
	ptk_rows_free(&rs);
	return v;
}

void ptk_vmstats(const struct ptk_snap *s, struct ptk_vmstats_line out[PTK_VMSTATS_N])
{
	static const struct {
		enum ptk_act_id act;
		enum ptk_mid m;
		const char *label;
	} mem[] = {
		{ PTK_ACT_MEM, PTK_M_MEM_TOTAL, "total memory" },
		{ PTK_ACT_MEM, PTK_M_MEM_USED, "used memory" },
		{ PTK_ACT_MEM, PTK_M_MEM_ACTIVE, "active memory" },
		{ PTK_ACT_MEM, PTK_M_MEM_INACTIVE, "inactive memory" },
		{ PTK_ACT_MEM, PTK_M_MEM_FREE, "free memory" },
		{ PTK_ACT_MEM, PTK_M_MEM_BUFFERS, "buffer memory" },
		{ PTK_ACT_MEM, PTK_M_MEM_CACHE, "swap cache" },
		{ PTK_ACT_SWAP, PTK_M_SWP_TOTAL, "total swap" },
		{ PTK_ACT_SWAP, PTK_M_SWP_USED, "used swap" },
		{ PTK_ACT_SWAP, PTK_M_SWP_FREE, "free swap" },
	};
	static const struct {
		enum ptk_cpu_state st;
		const char *label, *key;
	} ticks[] = {
		{ PTK_CPU_USER, "non-nice user cpu ticks", "user_ticks" },
		{ PTK_CPU_NICE, "nice user cpu ticks", "nice_ticks" },
		{ PTK_CPU_SYSTEM, "system cpu ticks", "system_ticks" },
		{ PTK_CPU_IDLE, "idle cpu ticks", "idle_ticks" },
		{ PTK_CPU_IOWAIT, "IO-wait cpu ticks", "iowait_ticks" },
		{ PTK_CPU_IRQ, "IRQ cpu ticks", "irq_ticks" },
		{ PTK_CPU_SOFTIRQ, "softirq cpu ticks", "softirq_ticks" },
		{ PTK_CPU_STEAL, "stolen cpu ticks", "steal_ticks" },
		{ PTK_CPU_GUEST, "non-nice guest cpu ticks", "guest_ticks" },
		{ PTK_CPU_GUEST_NICE, "nice guest cpu ticks", "guest_nice_ticks" },
	};
	static const struct {
		enum ptk_vm_field f;
		const char *label, *key;
	} vm[] = {
		{ PTK_VM_PGPGIN, "K paged in", "pgpgin_kb" },
		{ PTK_VM_PGPGOUT, "K paged out", "pgpgout_kb" },
		{ PTK_VM_PSWPIN, "pages swapped in", "pswpin" },
		{ PTK_VM_PSWPOUT, "pages swapped out", "pswpout" },
	};
	static const struct {
		enum ptk_stat_field f;
		const char *label, *key;
	} st[] = {
		{ PTK_ST_INTR, "interrupts", "intr" },
		{ PTK_ST_CTXT, "CPU context switches", "ctxt" },
		{ PTK_ST_BTIME, "boot time", "btime" },
		{ PTK_ST_PROCESSES, "forks", "processes" },
	};
	bool has_st = ptk_snap_has(s, PTK_SNAP_STAT);
	int n = 0;

	_Static_assert(ARRAY_SIZE(mem) + ARRAY_SIZE(ticks) + ARRAY_SIZE(vm) + ARRAY_SIZE(st) ==
			       PTK_VMSTATS_N,
		       "the lines of vmstat -s");
	for (size_t i = 0; i < ARRAY_SIZE(mem); i++, n++)
		out[n] = (struct ptk_vmstats_line){ mem[i].label, ptk_registry[mem[i].m].key, true,
						    act_val(s, mem[i].act, mem[i].m) };
	for (size_t i = 0; i < ARRAY_SIZE(ticks); i++, n++)
		out[n] = (struct ptk_vmstats_line){ ticks[i].label, ticks[i].key, false,
						    has_st ? PTK_U(s->st.all.t[ticks[i].st]) :
							     PTK_NA };
	for (size_t i = 0; i < ARRAY_SIZE(vm); i++, n++)
		out[n] = (struct ptk_vmstats_line){ vm[i].label, vm[i].key, false,
						    s->has_vm && ptk_vmstat_has(&s->vm, vm[i].f) ?
							    PTK_U(ptk_vmstat_get(&s->vm, vm[i].f)) :
							    PTK_NA };
	for (size_t i = 0; i < ARRAY_SIZE(st); i++, n++)
		out[n] = (struct ptk_vmstats_line){
			st[i].label, st[i].key, false,
			has_st && ptk_stat_has(&s->st, st[i].f) ?
				PTK_U(ptk_field_u64(&ptk_stat_fields[st[i].f], &s->st)) :
				PTK_NA
		};
}

void ptk_disksum(const struct ptk_diskstats *ds, struct ptk_disksum *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < ds->n; i++) {
		const struct ptk_disk *d = &ds->d[i];

		if (d->is_partition) {
			out->partitions++;
			continue;
		}
		out->disks++;
		for (int f = 0; f < PTK_DK_NFIELDS; f++)
			out->f[f] += d->f[f];
	}
}

static int slab_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ptk_slab *)a)->name, ((const struct ptk_slab *)b)->name);
}

void ptk_slabinfo_sort(struct ptk_slabinfo *si)
{
	if (si->n > 1)
		qsort(si->s, si->n, sizeof(*si->s), slab_cmp);
}
