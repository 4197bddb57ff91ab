// SPDX-License-Identifier: GPL-2.0
/*
 * The cpu activity: shares of /proc/stat cpu ticks over the interval, as sysstat's sar -u,
 * sar -u ALL and mpstat compute them (rd_stats.c read_stat_cpu, pr_stats.c print_cpu_stats,
 * mpstat.c get_global_cpu_mpstats). guest and guest_nice are inside user and nice
 * (kernel/sched/cputime.c account_guest_time): %user and %nice keep them, %usr and %nice of
 * -u ALL take them out.
 *
 * Two ways to count (struct ptk_act_opts cpu_sum):
 *  - the aggregate "cpu" line, each per-CPU row from its own line (vmstat, iostat's avg-cpu);
 *  - sysstat's mpstat and sar: "all" is the sum of the CPU rows. A CPU that is offline now
 *    (not listed) has no row and adds nothing; one without a baseline (offline at the
 *    previous sample and never seen before) neither. A CPU that comes back online restarts
 *    some counters from zero (idle, iowait: kernel/sched/cputime.c keeps them per CPU in
 *    tick_sched, which a CPU coming up resets) and continues others: its idle and iowait
 *    baselines become 0, a field that went back counts 0, and the interval of the CPU is the
 *    sum of what each field moved. The baseline of a CPU that went offline is its last known
 *    times (ptk_act_cpu_carry), as sysstat keeps them.
 */
#include "model/act.h"
#include "model/delta.h"

#include <string.h>

const enum ptk_mid ptk_act_cpu_mids[] = {
	PTK_M_CPU_ID,	   PTK_M_CPU_USER, PTK_M_CPU_NICE_ALL,	PTK_M_CPU_SYSTEM,
	PTK_M_CPU_USR,	   PTK_M_CPU_NICE, PTK_M_CPU_SYS,	PTK_M_CPU_IOWAIT,
	PTK_M_CPU_IRQ,	   PTK_M_CPU_SOFT, PTK_M_CPU_STEAL,	PTK_M_CPU_GUEST,
	PTK_M_CPU_GNICE,   PTK_M_CPU_IDLE, PTK_M_CPU_USER_NICE, PTK_M_CPU_GUEST_ALL,
	PTK_M_CPU_USR_IRQ, PTK_M_NONE,
};

#define SET(r, m, val) ACT_SET(ptk_act_cpu_mids, r, PTK_M_##m, PTK_F(val))

static void cpu_row(struct ptk_rows *out, const char *key, const struct ptk_cpu_times *a,
		    const struct ptk_cpu_times *b)
{
	struct ptk_row *r = ptk_rows_add(out, key);
	double p[PTK_CPU_NSTATES];
	u64 d[PTK_CPU_NSTATES], total;

	if (!a)
		return; /* no baseline (the CPU came online): unknown */
	ptk_cpu_pct(a, b, p);
	total = ptk_cpu_ticks(a, b, d);
	/* a share of several states: one division of their ticks, so that a share that is
	 * exactly k + 0.5 stays so (vmstat rounds it up) */
#define SHARE(x) (total ? 100.0 * (double)(x) / (double)total : 0.0)
	SET(r, CPU_USER, p[PTK_CPU_USER]);
	SET(r, CPU_NICE_ALL, p[PTK_CPU_NICE]);
	SET(r, CPU_SYSTEM, SHARE(d[PTK_CPU_SYSTEM] + d[PTK_CPU_IRQ] + d[PTK_CPU_SOFTIRQ]));
	SET(r, CPU_USER_NICE,
	    SHARE(d[PTK_CPU_USER] + d[PTK_CPU_NICE] - d[PTK_CPU_GUEST] - d[PTK_CPU_GUEST_NICE]));
	SET(r, CPU_GUEST_ALL, SHARE(d[PTK_CPU_GUEST] + d[PTK_CPU_GUEST_NICE]));
	SET(r, CPU_USR_IRQ,
	    SHARE(d[PTK_CPU_USER] + d[PTK_CPU_NICE] + d[PTK_CPU_IRQ] + d[PTK_CPU_SOFTIRQ]));
#undef SHARE
	SET(r, CPU_USR, MAX(p[PTK_CPU_USER] - p[PTK_CPU_GUEST], 0));
	SET(r, CPU_NICE, MAX(p[PTK_CPU_NICE] - p[PTK_CPU_GUEST_NICE], 0));
	SET(r, CPU_SYS, p[PTK_CPU_SYSTEM]);
	SET(r, CPU_IOWAIT, p[PTK_CPU_IOWAIT]);
	SET(r, CPU_IRQ, p[PTK_CPU_IRQ]);
	SET(r, CPU_SOFT, p[PTK_CPU_SOFTIRQ]);
	SET(r, CPU_STEAL, p[PTK_CPU_STEAL]);
	SET(r, CPU_GUEST, p[PTK_CPU_GUEST]);
	SET(r, CPU_GNICE, p[PTK_CPU_GUEST_NICE]);
	SET(r, CPU_IDLE, p[PTK_CPU_IDLE]);
}

/* ---- sysstat's way: "all" as the sum of the CPUs ------------------------------------------ */

#define T(x, s) ((x)->t[PTK_CPU_##s])

/* Ticks from a to b of a counter, signed (a counter that went back is negative). */
static s64 moved(u64 a, u64 b)
{
	return (s64)(b - a);
}

/*
 * The ticks of one CPU from p to c, as sysstat 12.7 counts them (rd_stats.c
 * get_per_cpu_interval), adjusting the baseline p first: idle that went back is a CPU back
 * online (p's idle becomes 0); iowait that went back is one too when idle did not move on,
 * else the kernel moved iowait ticks to idle (p's iowait becomes c's). Every field counts
 * what it moved, or 0 when it went back.
 */
static u64 cpu_interval(const struct ptk_cpu_times *c, struct ptk_cpu_times *p)
{
	static const int fields[] = {
		PTK_CPU_USER,	PTK_CPU_NICE, PTK_CPU_SYSTEM,  PTK_CPU_IDLE,
		PTK_CPU_IOWAIT, PTK_CPU_IRQ,  PTK_CPU_SOFTIRQ, PTK_CPU_STEAL
	};
	/* unsigned: counters no kernel writes (an archive's, past 2^62) wrap, never overflow */
	u64 t = 0;
	s64 du, dn;

	if (T(c, IOWAIT) < T(p, IOWAIT))
		T(p, IOWAIT) = T(c, IDLE) > T(p, IDLE) ? T(c, IOWAIT) : 0;
	if (T(c, IDLE) < T(p, IDLE))
		T(p, IDLE) = 0;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		t += (u64)MAX(moved(p->t[fields[i]], c->t[fields[i]]), 0);
	/* user (nice) moved on but less than its guest part: guest counted a little ahead of
	 * user; what user less guest went back is counted (sysstat's ishift) */
	du = moved(T(p, USER) - T(p, GUEST), T(c, USER) - T(c, GUEST));
	dn = moved(T(p, NICE) - T(p, GUEST_NICE), T(c, NICE) - T(c, GUEST_NICE));
	if (T(c, USER) >= T(p, USER) && du < 0)
		t += 0 - (u64)du;
	if (T(c, NICE) >= T(p, NICE) && dn < 0)
		t += 0 - (u64)dn;
	return t;
}

/* The share of itv ticks that a counter moved from a to b; 0 when it went back. The
 * operations in sysstat's order (ll_sp_value: d / itv * 100), so that the same ticks round
 * the same way. */
static double share(u64 a, u64 b, u64 itv)
{
	return b < a ? 0.0 : (double)(b - a) / (double)itv * 100;
}

/* The row of p..c over itv ticks (itv 0: a tickless CPU, all idle, as sysstat). */
static void sum_row(struct ptk_rows *out, const char *key, const struct ptk_cpu_times *p,
		    const struct ptk_cpu_times *c, u64 itv)
{
	struct ptk_row *r = ptk_rows_add(out, key);

	if (!itv) {
		for (int i = 0; ptk_act_cpu_mids[i] != PTK_M_NONE; i++)
			if (ptk_act_cpu_mids[i] != PTK_M_CPU_ID)
				r->v[i] = PTK_F(0);
		SET(r, CPU_IDLE, 100.0);
		return;
	}
	SET(r, CPU_USER, share(T(p, USER), T(c, USER), itv));
	SET(r, CPU_NICE_ALL, share(T(p, NICE), T(c, NICE), itv));
	SET(r, CPU_SYSTEM,
	    share(T(p, SYSTEM) + T(p, IRQ) + T(p, SOFTIRQ),
		  T(c, SYSTEM) + T(c, IRQ) + T(c, SOFTIRQ), itv));
	SET(r, CPU_USR, share(T(p, USER) - T(p, GUEST), T(c, USER) - T(c, GUEST), itv));
	SET(r, CPU_NICE, share(T(p, NICE) - T(p, GUEST_NICE), T(c, NICE) - T(c, GUEST_NICE), itv));
	SET(r, CPU_SYS, share(T(p, SYSTEM), T(c, SYSTEM), itv));
	SET(r, CPU_IOWAIT, share(T(p, IOWAIT), T(c, IOWAIT), itv));
	SET(r, CPU_IRQ, share(T(p, IRQ), T(c, IRQ), itv));
	SET(r, CPU_SOFT, share(T(p, SOFTIRQ), T(c, SOFTIRQ), itv));
	SET(r, CPU_STEAL, share(T(p, STEAL), T(c, STEAL), itv));
	SET(r, CPU_GUEST, share(T(p, GUEST), T(c, GUEST), itv));
	SET(r, CPU_GNICE, share(T(p, GUEST_NICE), T(c, GUEST_NICE), itv));
	SET(r, CPU_IDLE, share(T(p, IDLE), T(c, IDLE), itv));
	SET(r, CPU_USER_NICE,
	    share(T(p, USER) + T(p, NICE) - T(p, GUEST) - T(p, GUEST_NICE),
		  T(c, USER) + T(c, NICE) - T(c, GUEST) - T(c, GUEST_NICE), itv));
	SET(r, CPU_GUEST_ALL,
	    share(T(p, GUEST) + T(p, GUEST_NICE), T(c, GUEST) + T(c, GUEST_NICE), itv));
	SET(r, CPU_USR_IRQ,
	    share(T(p, USER) + T(p, NICE) + T(p, IRQ) + T(p, SOFTIRQ),
		  T(c, USER) + T(c, NICE) + T(c, IRQ) + T(c, SOFTIRQ), itv));
}

static void add_times(struct ptk_cpu_times *sum, const struct ptk_cpu_times *t)
{
	for (int k = 0; k < PTK_CPU_NSTATES; k++)
		sum->t[k] += t->t[k];
}

int ptk_act_cpu_n(const struct ptk_snap *prev, const struct ptk_snap *cur,
		  const struct ptk_act_opts *o)
{
	if (o && o->ncpu > 0)
		return o->ncpu;
	return MAX(cur->st.ncpu, prev ? prev->st.ncpu : 0);
}

u64 ptk_act_cpu_ticks(const struct ptk_snap *prev, const struct ptk_snap *cur, int i)
{
	static const struct ptk_cpu_times zero;
	struct ptk_cpu_times p = prev && i < prev->st.ncpu ? prev->st.cpu[i] : zero;

	return i < cur->st.ncpu ? cpu_interval(&cur->st.cpu[i], &p) : 0;
}

bool ptk_act_cpu_shown(const struct ptk_snap *prev, const struct ptk_snap *cur, int i)
{
	if (i >= cur->st.ncpu || !ptk_cpu_total(&cur->st.cpu[i]))
		return false;
	return !prev || (i < prev->st.ncpu && ptk_cpu_total(&prev->st.cpu[i]) > 0);
}

static void sum_rows(const struct ptk_snap *prev, const struct ptk_snap *cur,
		     const struct ptk_act_opts *o, struct ptk_rows *out);
static void sum_rows(const struct ptk_snap *prev, const struct ptk_snap *cur,
		     const struct ptk_act_opts *o, struct ptk_rows *out)
{
	static const struct ptk_cpu_times zero;
	struct ptk_cpu_times sc = { 0 }, sp = { 0 };
	int n = ptk_act_cpu_n(prev, cur, o), first;
	u64 deltot = 0;

	ptk_rows_add(out, "all");
	first = out->n;
	for (int i = 0; i < n; i++) {
		struct ptk_cpu_times p = prev && i < prev->st.ncpu ? prev->st.cpu[i] : zero;
		u64 itv;
		char key[16];

		if (!ptk_act_cpu_shown(prev, cur, i))
			continue;
		itv = cpu_interval(&cur->st.cpu[i], &p);
		deltot += itv;
		add_times(&sc, &cur->st.cpu[i]);
		add_times(&sp, &p);
		if (o->per_cpu) {
			snprintf(key, sizeof(key), "%d", i);
			sum_row(out, key, &p, &cur->st.cpu[i], itv);
		}
	}
	/* the "all" row, first: built last, copied to its slot */
	struct ptk_rows all = { 0 };
	sum_row(&all, "all", &sp, &sc, deltot ? deltot : 1);
	out->r[first - 1] = all.r[0];
	ptk_rows_free(&all);
}

const enum ptk_mid ptk_act_node_mids[] = {
	PTK_M_NODE_ID,	   PTK_M_CPU_USER, PTK_M_CPU_NICE_ALL,	PTK_M_CPU_SYSTEM,
	PTK_M_CPU_USR,	   PTK_M_CPU_NICE, PTK_M_CPU_SYS,	PTK_M_CPU_IOWAIT,
	PTK_M_CPU_IRQ,	   PTK_M_CPU_SOFT, PTK_M_CPU_STEAL,	PTK_M_CPU_GUEST,
	PTK_M_CPU_GNICE,   PTK_M_CPU_IDLE, PTK_M_CPU_USER_NICE, PTK_M_CPU_GUEST_ALL,
	PTK_M_CPU_USR_IRQ, PTK_M_NONE,
};
_Static_assert(ARRAY_SIZE(ptk_act_node_mids) == ARRAY_SIZE(ptk_act_cpu_mids),
	       "a node row has a CPU row's columns");

/*
 * mpstat -N: "all" (the cpu activity's), then a row per NUMA node with a CPU (o->cpu2node):
 * its CPUs summed as "all" sums them, counting also a CPU offline now (its carried times
 * add nothing), as mpstat's set_node_cpu_stats.
 */
ACT_ROWS_FN(ptk_act_node_rows)
{
	struct ptk_act_opts all = o ? *o : (struct ptk_act_opts){ 0 };
	int n = ptk_act_cpu_n(prev, cur, o), nnode = 0;

	all.per_cpu = false;
	sum_rows(prev, cur, &all, out);
	if (!o || !o->cpu2node)
		return 0;
	for (int i = 0; i < n; i++)
		nnode = MAX(nnode, o->cpu2node[i] + 1);
	for (int node = 0; node < nnode; node++) {
		struct ptk_cpu_times sc = { 0 }, sp = { 0 };
		static const struct ptk_cpu_times zero;
		bool any = false;
		u64 deltot = 0;
		char key[16];

		for (int i = 0; i < n; i++) {
			struct ptk_cpu_times p = prev && i < prev->st.ncpu ? prev->st.cpu[i] : zero;
			const struct ptk_cpu_times *c = i < cur->st.ncpu ? &cur->st.cpu[i] : &zero;

			if (o->cpu2node[i] != node)
				continue;
			any = true;
			if ((prev && !ptk_cpu_total(&p)) || !ptk_cpu_total(c))
				continue; /* no baseline, or offline and never seen */
			deltot += cpu_interval(c, &p);
			add_times(&sc, c);
			add_times(&sp, &p);
		}
		if (!any)
			continue;
		snprintf(key, sizeof(key), "%d", node);
		sum_row(out, key, &sp, &sc, deltot);
	}
	return 0;
}

/* Rows "all", then (per_cpu) one per CPU; see the top of this file for which. */
ACT_ROWS_FN(ptk_act_cpu_rows)
{
	static const struct ptk_cpu_times zero;

	/* the aggregate line of a sample whose cpu lines are unknown (an impossible archived
	 * value): an unknown row */
	bool all = ptk_snap_has(cur, PTK_SNAP_STAT) && (!prev || ptk_snap_has(prev, PTK_SNAP_STAT));
	if (o && o->cpu_sum) {
		if (!all)
			ptk_rows_add(out, "all"); /* the CPUs it would sum are not known */
		else
			sum_rows(prev, cur, o, out);
		return 0;
	}
	cpu_row(out, "all", !all ? NULL : prev ? &prev->st.all : &zero, &cur->st.all);
	if (!o || !o->per_cpu)
		return 0;
	for (int i = 0; i < cur->st.ncpu; i++) {
		const struct ptk_cpu_times *a = &zero;
		char key[16];

		if (!cur->st.present[i])
			continue;
		if (prev)
			a = i < prev->st.ncpu && prev->st.present[i] ? &prev->st.cpu[i] : NULL;
		snprintf(key, sizeof(key), "%d", i);
		cpu_row(out, key, a, &cur->st.cpu[i]);
	}
	return 0;
}
/* The columns of the CPUs that cur lacks: prev's counts of the same-named lines. */
static void carry_irqs(const struct ptk_irqs *p, struct ptk_irqs *c)
{
	if (!c->n)
		return;
	for (int cpu = 0; cpu < p->ncpu; cpu++) {
		if (!ptk_irqs_known(p, cpu) || ptk_irqs_known(c, cpu))
			continue;
		if (cpu >= c->ncpu)
			ptk_irqs_resize(c, c->n, cpu + 1);
		for (int i = 0; i < c->n; i++) {
			int j = ptk_irqs_find(p, c->name[i], i);
			c->v[(size_t)i * c->cap_cpu + cpu] = j < 0 ? 0 : ptk_irqs_get(p, j, cpu);
		}
		c->col[cpu] = PTK_IRQ_CARRIED;
	}
}

void ptk_act_cpu_carry(const struct ptk_snap *prev, struct ptk_snap *cur)
{
	int n = prev->st.ncpu;

	carry_irqs(&prev->intr, &cur->intr);
	carry_irqs(&prev->sirq, &cur->sirq);
	if (cur->sn.ncpu || ptk_snap_has(cur, PTK_SNAP_SOFTNET)) {
		ptk_softnet_reserve(&cur->sn, prev->sn.ncpu);
		for (int i = 0; i < prev->sn.ncpu; i++) {
			if (!prev->sn.has[i] || (i < cur->sn.ncpu && cur->sn.has[i]))
				continue;
			cur->sn.c[i] = prev->sn.c[i];
			cur->sn.has[i] = true;
		}
		cur->sn.ncpu = MAX(cur->sn.ncpu, prev->sn.ncpu);
	}
	if (n > cur->st.ncpu) {
		ptk_stat_reserve(&cur->st, n);
		for (int i = cur->st.ncpu; i < n; i++) {
			memset(&cur->st.cpu[i], 0, sizeof(cur->st.cpu[i]));
			cur->st.present[i] = false;
		}
		cur->st.ncpu = n;
	}
	for (int i = 0; i < n; i++)
		if (!cur->st.present[i])
			cur->st.cpu[i] = prev->st.cpu[i];
}
