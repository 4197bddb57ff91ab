// SPDX-License-Identifier: GPL-2.0
/*
 * The memory, swap and paging activities: levels of /proc/meminfo (fs/proc/meminfo.c
 * meminfo_proc_show) and rates of /proc/vmstat event counters (mm/vmstat.c), as sysstat's
 * sar -r, -S, -W, -B and procps free compute them.
 */
#include <unistd.h>

#include "model/act.h"

const enum ptk_mid ptk_act_mem_mids[] = {
	PTK_M_MEM_TOTAL,      PTK_M_MEM_USED,	    PTK_M_MEM_FREE,	    PTK_M_MEM_AVAIL,
	PTK_M_MEM_SHARED,     PTK_M_MEM_BUFF_CACHE, PTK_M_MEM_CACHE,	    PTK_M_MEM_KBMEMUSED,
	PTK_M_MEM_USED_PCT,   PTK_M_MEM_BUFFERS,    PTK_M_MEM_CACHED,	    PTK_M_MEM_COMMIT,
	PTK_M_MEM_COMMIT_PCT, PTK_M_MEM_ACTIVE,	    PTK_M_MEM_INACTIVE,	    PTK_M_MEM_DIRTY,
	PTK_M_MEM_KBSHMEM,    PTK_M_MEM_ANONPG,	    PTK_M_MEM_SLAB,	    PTK_M_MEM_KSTACK,
	PTK_M_MEM_PGTBL,      PTK_M_MEM_VMUSED,	    PTK_M_MEM_USED_NOCACHE, PTK_M_NONE,
};

/* a - b, 0 when b is larger */
static u64 sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

#define SET(mids, r, m, val) ACT_SET(mids, r, PTK_M_##m, val)

#define B(f) (1ull << PTK_MI_##f)
/* The fields that cannot exceed their total (MemTotal, SwapTotal), and the values computed
 * from each: one above its total (a damaged file, a tree put together by hand) makes those
 * values unknown, not a wrong number (sub0's 0), and leaves the others. */
static const struct {
	enum ptk_mi_field f, total;
} bounded[] = {
	{ PTK_MI_MEM_FREE, PTK_MI_MEM_TOTAL },	   { PTK_MI_MEM_AVAILABLE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_BUFFERS, PTK_MI_MEM_TOTAL },	   { PTK_MI_CACHED, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SHMEM, PTK_MI_MEM_TOTAL },	   { PTK_MI_ACTIVE, PTK_MI_MEM_TOTAL },
	{ PTK_MI_INACTIVE, PTK_MI_MEM_TOTAL },	   { PTK_MI_SLAB, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SRECLAIMABLE, PTK_MI_MEM_TOTAL }, { PTK_MI_DIRTY, PTK_MI_MEM_TOTAL },
	{ PTK_MI_SWAP_FREE, PTK_MI_SWAP_TOTAL },   { PTK_MI_SWAP_CACHED, PTK_MI_SWAP_TOTAL },
};
static const struct {
	enum ptk_mid m;
	u64 deps;
	int avail; /* 1: only with the kernel's MemAvailable, 0: only without, -1: always */
} mi_deps[] = {
	{ PTK_M_MEM_USED, B(MEM_AVAILABLE), -1 },
	{ PTK_M_MEM_FREE, B(MEM_FREE), -1 },
	{ PTK_M_MEM_AVAIL, B(MEM_AVAILABLE), -1 },
	{ PTK_M_MEM_SHARED, B(SHMEM), -1 },
	{ PTK_M_MEM_CACHE, B(CACHED) | B(SRECLAIMABLE), -1 },
	{ PTK_M_MEM_BUFF_CACHE, B(BUFFERS) | B(CACHED) | B(SRECLAIMABLE), -1 },
	/* kbmemused: sysstat 12.7's MemTotal - MemAvailable, or 12.6's without it */
	{ PTK_M_MEM_KBMEMUSED, B(MEM_AVAILABLE), 1 },
	{ PTK_M_MEM_USED_PCT, B(MEM_AVAILABLE), 1 },
	{ PTK_M_MEM_KBMEMUSED, B(MEM_FREE) | B(BUFFERS) | B(CACHED) | B(SLAB), 0 },
	{ PTK_M_MEM_USED_PCT, B(MEM_FREE) | B(BUFFERS) | B(CACHED) | B(SLAB), 0 },
	{ PTK_M_MEM_BUFFERS, B(BUFFERS), -1 },
	{ PTK_M_MEM_CACHED, B(CACHED), -1 },
	{ PTK_M_MEM_ACTIVE, B(ACTIVE), -1 },
	{ PTK_M_MEM_INACTIVE, B(INACTIVE), -1 },
	{ PTK_M_MEM_DIRTY, B(DIRTY), -1 },
	{ PTK_M_MEM_KBSHMEM, B(SHMEM), -1 },
	{ PTK_M_MEM_SLAB, B(SLAB), -1 },
	{ PTK_M_MEM_USED_NOCACHE, B(MEM_FREE) | B(BUFFERS) | B(CACHED) | B(SRECLAIMABLE) | B(SHMEM),
	  -1 },
	{ PTK_M_SWP_FREE, B(SWAP_FREE), -1 },
	{ PTK_M_SWP_USED, B(SWAP_FREE), -1 },
	{ PTK_M_SWP_USED_PCT, B(SWAP_FREE), -1 },
	{ PTK_M_SWP_CAD, B(SWAP_CACHED), -1 },
	{ PTK_M_SWP_CAD_PCT, B(SWAP_CACHED) | B(SWAP_FREE), -1 },
};
#undef B

u64 ptk_meminfo_implausible(const struct ptk_meminfo *m)
{
	u64 bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(bounded); i++)
		if (ptk_meminfo_has(m, bounded[i].f) &&
		    ptk_meminfo_get(m, bounded[i].f) > ptk_meminfo_get(m, bounded[i].total))
			bad |= 1ull << bounded[i].f;
	return bad;
}

const char *ptk_meminfo_implausible_why(const struct ptk_meminfo *m, enum ptk_mi_field f, char *buf,
					size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(bounded); i++)
		if (bounded[i].f == f)
			snprintf(buf, size, "%s %" PRIu64 " kB above %s %" PRIu64 " kB",
				 ptk_meminfo_fields[f].key, ptk_meminfo_get(m, f),
				 ptk_meminfo_fields[bounded[i].total].key,
				 ptk_meminfo_get(m, bounded[i].total));
	return buf;
}

/* the values of row r (of the activity of mids) computed from an implausible field: unknown */
static void mi_unknown(const enum ptk_mid *mids, struct ptk_row *r, const struct ptk_meminfo *m,
		       u64 bad)
{
	if (!bad)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(mi_deps); i++) {
		int k = ptk_act_idx(mids, mi_deps[i].m);

		if (mi_deps[i].avail >= 0 && mi_deps[i].avail != m->has_available)
			continue;
		if ((mi_deps[i].deps & bad) && k < PTK_ROW_MAXCOLS - 1 && mids[k] == mi_deps[i].m)
			r->v[k] = PTK_NA;
	}
}

/* meminfo field f of m (kB), unknown when the file lacks it (older kernels, a cut file, an
 * impossible archived value) */
static struct ptk_val mi_val(const struct ptk_meminfo *m, enum ptk_mi_field f)
{
	return ptk_meminfo_has(m, f) ? PTK_U(ptk_meminfo_get(m, f)) : PTK_NA;
}

/* Does m hold every field of mask (bits 1 << enum ptk_mi_field)? */
static bool mi_all(const struct ptk_meminfo *m, u64 mask)
{
	return (m->present & mask) == mask;
}
#define MI(f) (1ull << PTK_MI_##f)

/* MemAvailable: the kernel's, or (before 3.14) the reader's estimate from MemFree */
static bool mi_avail(const struct ptk_meminfo *m)
{
	return ptk_meminfo_has(m, PTK_MI_MEM_AVAILABLE) ||
	       (!m->has_available && mi_all(m, MI(MEM_FREE) | MI(MEM_TOTAL)));
}

/* x when every field of mask is known, else unknown */
static struct ptk_val mi_if(const struct ptk_meminfo *m, u64 mask, struct ptk_val x)
{
	return mi_all(m, mask) ? x : PTK_NA;
}

/* Rate of vmstat counter f from a to b over itv_s; unknown when either sample lacks it
 * (a == NULL: since boot, from zero). */
static struct ptk_val vm_rate(const struct ptk_vmstat *a, const struct ptk_vmstat *b,
			      enum ptk_vm_field f, double itv_s)
{
	if (!ptk_vmstat_has(b, f) || (a && !ptk_vmstat_has(a, f)))
		return PTK_NA;
	return PTK_F(ptk_act_rate(a ? ptk_vmstat_get(a, f) : 0, ptk_vmstat_get(b, f), itv_s));
}

ACT_ROWS_FN(ptk_act_mem_rows)
{
	const struct ptk_meminfo *m = &cur->mi;
	struct ptk_row *r = ptk_rows_add(out, "");
	const enum ptk_mid *ids = ptk_act_mem_mids;
	u64 kbmemused;

	if (!cur->has_mi)
		return 0;
	/* sysstat 12.7: what is not available (MemAvailable, kernel >= 3.14); before, and
	 * without it: neither free, buffers, cache nor slab (sysstat 12.6, rd_stats.c
	 * read_meminfo, pr_stats.c) */
	u64 used_from;
	if (m->has_available) {
		used_from = MI(MEM_TOTAL) | MI(MEM_AVAILABLE);
		kbmemused = sub0(m->mem_total, m->mem_available);
	} else {
		used_from = MI(MEM_TOTAL) | MI(MEM_FREE) | MI(BUFFERS) | MI(CACHED) | MI(SLAB);
		kbmemused = sub0(m->mem_total, m->mem_free + m->buffers + m->cached + m->slab);
	}
	SET(ids, r, MEM_TOTAL, mi_val(m, PTK_MI_MEM_TOTAL));
	if (mi_avail(m)) {
		SET(ids, r, MEM_USED,
		    mi_if(m, MI(MEM_TOTAL), PTK_U(sub0(m->mem_total, m->mem_available))));
		SET(ids, r, MEM_AVAIL, PTK_U(m->mem_available));
	}
	SET(ids, r, MEM_FREE, mi_val(m, PTK_MI_MEM_FREE));
	SET(ids, r, MEM_SHARED, mi_val(m, PTK_MI_SHMEM));
	/* procps 4 (library/meminfo.c): cache = Cached + SReclaimable, buff/cache adds Buffers */
	SET(ids, r, MEM_CACHE,
	    mi_if(m, MI(CACHED) | MI(SRECLAIMABLE), PTK_U(m->cached + m->sreclaimable)));
	SET(ids, r, MEM_BUFF_CACHE,
	    mi_if(m, MI(BUFFERS) | MI(CACHED) | MI(SRECLAIMABLE),
		  PTK_U(m->buffers + m->cached + m->sreclaimable)));
	SET(ids, r, MEM_KBMEMUSED, mi_if(m, used_from, PTK_U(kbmemused)));
	SET(ids, r, MEM_USED_PCT, mi_if(m, used_from, PTK_F(pct(kbmemused, m->mem_total))));
	SET(ids, r, MEM_BUFFERS, mi_val(m, PTK_MI_BUFFERS));
	SET(ids, r, MEM_CACHED, mi_val(m, PTK_MI_CACHED));
	SET(ids, r, MEM_COMMIT, mi_val(m, PTK_MI_COMMITTED_AS));
	SET(ids, r, MEM_COMMIT_PCT,
	    mi_if(m, MI(COMMITTED_AS) | MI(MEM_TOTAL) | MI(SWAP_TOTAL),
		  PTK_F(pct(m->committed_as, m->mem_total + m->swap_total))));
	SET(ids, r, MEM_ACTIVE, mi_val(m, PTK_MI_ACTIVE));
	SET(ids, r, MEM_INACTIVE, mi_val(m, PTK_MI_INACTIVE));
	SET(ids, r, MEM_DIRTY, mi_val(m, PTK_MI_DIRTY));
	/* sar -r (12.7), -r ALL */
	SET(ids, r, MEM_KBSHMEM, mi_val(m, PTK_MI_SHMEM));
	SET(ids, r, MEM_ANONPG, mi_val(m, PTK_MI_ANON_PAGES));
	SET(ids, r, MEM_SLAB, mi_val(m, PTK_MI_SLAB));
	SET(ids, r, MEM_KSTACK, mi_val(m, PTK_MI_KERNEL_STACK));
	SET(ids, r, MEM_PGTBL, mi_val(m, PTK_MI_PAGE_TABLES));
	SET(ids, r, MEM_VMUSED, mi_val(m, PTK_MI_VMALLOC_USED));
	/* dstat's used (dstat_mem): Cached holds Shmem, which cannot be dropped; unknown without
	 * the lines it needs */
	SET(ids, r, MEM_USED_NOCACHE,
	    mi_if(m,
		  MI(MEM_TOTAL) | MI(MEM_FREE) | MI(BUFFERS) | MI(CACHED) | MI(SRECLAIMABLE) |
			  MI(SHMEM),
		  PTK_U(sub0(m->mem_total + m->shmem,
			     m->mem_free + m->buffers + m->cached + m->sreclaimable))));
	mi_unknown(ids, r, m, ptk_meminfo_implausible(m));
	return 0;
}

const enum ptk_mid ptk_act_swap_mids[] = {
	PTK_M_SWP_TOTAL, PTK_M_SWP_FREE,    PTK_M_SWP_USED,   PTK_M_SWP_USED_PCT,
	PTK_M_SWP_CAD,	 PTK_M_SWP_CAD_PCT, PTK_M_SWP_PSWPIN, PTK_M_SWP_PSWPOUT,
	PTK_M_SWP_SI,	 PTK_M_SWP_SO,	    PTK_M_NONE,
};

/* kB in a page of this machine (the archive's and a tree's pages are taken to be as big) */
static u64 page_kb(void)
{
	static u64 kb;

	if (!kb) {
		long sz = sysconf(_SC_PAGESIZE);
		kb = sz >= 1024 ? (u64)sz / 1024 : 4;
	}
	return kb;
}

/* the vmstat counters of prev and cur can both be read (prev NULL: since boot) */
static bool vm_both(const struct ptk_snap *prev, const struct ptk_snap *cur)
{
	return cur->has_vm && (!prev || prev->has_vm);
}

ACT_ROWS_FN(ptk_act_swap_rows)
{
	const struct ptk_meminfo *m = &cur->mi;
	const struct ptk_vmstat *a = prev ? &prev->vm : NULL, *b = &cur->vm;
	const enum ptk_mid *ids = ptk_act_swap_mids;
	struct ptk_row *r = ptk_rows_add(out, "");

	if (cur->has_mi) {
		const u64 both = MI(SWAP_TOTAL) | MI(SWAP_FREE);
		u64 used = sub0(m->swap_total, m->swap_free);

		SET(ids, r, SWP_TOTAL, mi_val(m, PTK_MI_SWAP_TOTAL));
		SET(ids, r, SWP_FREE, mi_val(m, PTK_MI_SWAP_FREE));
		SET(ids, r, SWP_USED, mi_if(m, both, PTK_U(used)));
		SET(ids, r, SWP_USED_PCT, mi_if(m, both, PTK_F(pct(used, m->swap_total))));
		SET(ids, r, SWP_CAD, mi_val(m, PTK_MI_SWAP_CACHED));
		SET(ids, r, SWP_CAD_PCT,
		    mi_if(m, both | MI(SWAP_CACHED), PTK_F(pct(m->swap_cached, used))));
		mi_unknown(ids, r, m, ptk_meminfo_implausible(m));
	}
	if (vm_both(prev, cur)) {
		struct ptk_val pin = vm_rate(a, b, PTK_VM_PSWPIN, itv_s);
		struct ptk_val pout = vm_rate(a, b, PTK_VM_PSWPOUT, itv_s);

		SET(ids, r, SWP_PSWPIN, pin);
		SET(ids, r, SWP_PSWPOUT, pout);
		/* the same counters in kB */
		SET(ids, r, SWP_SI, pin.na ? pin : PTK_F(pin.f * (double)page_kb()));
		SET(ids, r, SWP_SO, pout.na ? pout : PTK_F(pout.f * (double)page_kb()));
	}
	return 0;
}

const enum ptk_mid ptk_act_paging_mids[] = {
	PTK_M_PG_PGPGIN, PTK_M_PG_PGPGOUT, PTK_M_PG_FAULT,   PTK_M_PG_MAJFLT,
	PTK_M_PG_PGFREE, PTK_M_PG_PGSCANK, PTK_M_PG_PGSCAND, PTK_M_PG_PGSTEAL,
	PTK_M_PG_VMEFF,	 PTK_M_PG_PGPROM,  PTK_M_PG_PGDEM,   PTK_M_NONE,
};

ACT_ROWS_FN(ptk_act_paging_rows)
{
	const struct ptk_vmstat *a = prev ? &prev->vm : NULL, *b = &cur->vm;
	const enum ptk_mid *ids = ptk_act_paging_mids;
	struct ptk_row *r = ptk_rows_add(out, "");
	struct ptk_val sk, sd, tk, td;

	if (!vm_both(prev, cur))
		return 0;
	SET(ids, r, PG_PGPGIN, vm_rate(a, b, PTK_VM_PGPGIN, itv_s));
	SET(ids, r, PG_PGPGOUT, vm_rate(a, b, PTK_VM_PGPGOUT, itv_s));
	SET(ids, r, PG_FAULT, vm_rate(a, b, PTK_VM_PGFAULT, itv_s));
	SET(ids, r, PG_MAJFLT, vm_rate(a, b, PTK_VM_PGMAJFAULT, itv_s));
	SET(ids, r, PG_PGFREE, vm_rate(a, b, PTK_VM_PGFREE, itv_s));
	sk = vm_rate(a, b, PTK_VM_PGSCAN_KSWAPD, itv_s);
	sd = vm_rate(a, b, PTK_VM_PGSCAN_DIRECT, itv_s);
	tk = vm_rate(a, b, PTK_VM_PGSTEAL_KSWAPD, itv_s);
	td = vm_rate(a, b, PTK_VM_PGSTEAL_DIRECT, itv_s);
	SET(ids, r, PG_PGSCANK, sk);
	SET(ids, r, PG_PGSCAND, sd);
	if (!tk.na && !td.na) {
		/* khugepaged's reclaim (kernel >= 6.3) too: pages reclaimed counted once (sysstat
		 * sums every pgsteal_* line, which counts them again as pgsteal_anon/file) */
		struct ptk_val th = vm_rate(a, b, PTK_VM_PGSTEAL_KHUGEPAGED, itv_s);
		struct ptk_val ta = vm_rate(a, b, PTK_VM_PGSTEAL_ANON, itv_s);
		struct ptk_val tf = vm_rate(a, b, PTK_VM_PGSTEAL_FILE, itv_s);
		double steal = tk.f + td.f + (th.na ? 0 : th.f);
		/* the same pages split by kind (kernel >= 5.18): their sum where the kernel has
		 * it, as sysstat 12.7 counts pgsteal_anon + pgsteal_file */
		if (!ta.na && !tf.na)
			steal = ta.f + tf.f;
		SET(ids, r, PG_PGSTEAL, PTK_F(steal));
		if (!sk.na && !sd.na) {
			double scan = sk.f + sd.f;
			SET(ids, r, PG_VMEFF,
			    PTK_F(scan > 0 ? MIN(100.0, 100.0 * steal / scan) : 0));
		}
	}
	SET(ids, r, PG_PGPROM, vm_rate(a, b, PTK_VM_PGPROMOTE_SUCCESS, itv_s));
	if (ptk_vmstat_has(b, PTK_VM_PGDEMOTE_KSWAPD) &&
	    (!a || ptk_vmstat_has(a, PTK_VM_PGDEMOTE_KSWAPD))) {
		u64 d1 = b->pgdemote_kswapd + b->pgdemote_direct + b->pgdemote_khugepaged;
		u64 d0 = a ? a->pgdemote_kswapd + a->pgdemote_direct + a->pgdemote_khugepaged : 0;
		SET(ids, r, PG_PGDEM, PTK_F(ptk_act_rate(d0, d1, itv_s)));
	}
	return 0;
}
