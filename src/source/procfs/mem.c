// SPDX-License-Identifier: GPL-2.0
/* /proc/meminfo and /proc/vmstat readers. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

#define MI(e, k, n, f, u)                                        \
	[PTK_MI_##e] = { .key = k,                               \
			 .name = n,                              \
			 .off = offsetof(struct ptk_meminfo, f), \
			 .unit = u,                              \
			 .gauge = true }
const struct ptk_field_desc ptk_meminfo_fields[PTK_MI_NFIELDS] = {
	MI(MEM_TOTAL, "MemTotal", "mem_total", mem_total, "kB"),
	MI(MEM_FREE, "MemFree", "mem_free", mem_free, "kB"),
	MI(MEM_AVAILABLE, "MemAvailable", "mem_available", mem_available, "kB"),
	MI(BUFFERS, "Buffers", "buffers", buffers, "kB"),
	MI(CACHED, "Cached", "cached", cached, "kB"),
	MI(SWAP_CACHED, "SwapCached", "swap_cached", swap_cached, "kB"),
	MI(ACTIVE, "Active", "active", active, "kB"),
	MI(INACTIVE, "Inactive", "inactive", inactive, "kB"),
	MI(ACTIVE_ANON, "Active(anon)", "active_anon", active_anon, "kB"),
	MI(INACTIVE_ANON, "Inactive(anon)", "inactive_anon", inactive_anon, "kB"),
	MI(ACTIVE_FILE, "Active(file)", "active_file", active_file, "kB"),
	MI(INACTIVE_FILE, "Inactive(file)", "inactive_file", inactive_file, "kB"),
	MI(SWAP_TOTAL, "SwapTotal", "swap_total", swap_total, "kB"),
	MI(SWAP_FREE, "SwapFree", "swap_free", swap_free, "kB"),
	MI(DIRTY, "Dirty", "dirty", dirty, "kB"),
	MI(WRITEBACK, "Writeback", "writeback", writeback, "kB"),
	MI(ANON_PAGES, "AnonPages", "anon_pages", anon_pages, "kB"),
	MI(MAPPED, "Mapped", "mapped", mapped, "kB"),
	MI(SHMEM, "Shmem", "shmem", shmem, "kB"),
	MI(KRECLAIMABLE, "KReclaimable", "kreclaimable", kreclaimable, "kB"),
	MI(SLAB, "Slab", "slab", slab, "kB"),
	MI(SRECLAIMABLE, "SReclaimable", "sreclaimable", sreclaimable, "kB"),
	MI(SUNRECLAIM, "SUnreclaim", "sunreclaim", sunreclaim, "kB"),
	MI(COMMIT_LIMIT, "CommitLimit", "commit_limit", commit_limit, "kB"),
	MI(COMMITTED_AS, "Committed_AS", "committed_as", committed_as, "kB"),
	MI(HUGEPAGES_TOTAL, "HugePages_Total", "hugepages_total", hugepages_total, "pages"),
	MI(HUGEPAGES_FREE, "HugePages_Free", "hugepages_free", hugepages_free, "pages"),
	MI(HUGEPAGESIZE, "Hugepagesize", "hugepagesize", hugepagesize, "kB"),
	MI(KERNEL_STACK, "KernelStack", "kernel_stack", kernel_stack, "kB"),
	MI(PAGE_TABLES, "PageTables", "page_tables", page_tables, "kB"),
	MI(VMALLOC_USED, "VmallocUsed", "vmalloc_used", vmalloc_used, "kB"),
	MI(HUGEPAGES_RSVD, "HugePages_Rsvd", "hugepages_rsvd", hugepages_rsvd, "pages"),
	MI(HUGEPAGES_SURP, "HugePages_Surp", "hugepages_surp", hugepages_surp, "pages"),
};
#undef MI

int ptk_field_find(const struct ptk_field_desc *tab, int n, const char *p, size_t klen)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(tab[i].key, p, klen) && tab[i].key[klen] == '\0')
			return i;
	return -1;
}

static inline u64 *field_ptr(void *obj, const struct ptk_field_desc *f)
{
	return (u64 *)((char *)obj + f->off);
}

int ptk_meminfo_parse(const char *text, struct ptk_meminfo *mi)
{
	const char *p = text;

	memset(mi, 0, sizeof(*mi));
	while (*p) {
		const char *colon = strchr(p, ':'), *eol = strchr(p, '\n');
		if (!colon || (eol && colon > eol))
			goto next;
		int i = ptk_field_find(ptk_meminfo_fields, PTK_MI_NFIELDS, p, colon - p);
		if (i < 0)
			goto next;
		const char *end;
		u64 v = ptk_strtou64(colon + 1, &end);
		/* kB: anything past 2^54 kB would overflow bytes */
		if (end == colon + 1 || v > (~0ull >> 10))
			return -EINVAL;
		*field_ptr(mi, &ptk_meminfo_fields[i]) = v;
		mi->present |= 1ull << i;
next:
		if (!eol)
			break;
		p = eol + 1;
	}
	if (!ptk_meminfo_has(mi, PTK_MI_MEM_TOTAL))
		return -EINVAL;
	mi->has_available = ptk_meminfo_has(mi, PTK_MI_MEM_AVAILABLE);
	ptk_meminfo_estimate(mi);
	return 0;
}

void ptk_meminfo_estimate(struct ptk_meminfo *mi)
{
	if (!mi->has_available) {
		/* Kernels before 3.14: estimate what can be had without swapping. */
		u64 est = mi->mem_free + mi->active_file + mi->inactive_file + mi->sreclaimable;
		if (!mi->active_file && !mi->inactive_file)
			est = mi->mem_free + mi->buffers + mi->cached + mi->sreclaimable;
		mi->mem_available = MIN(est, mi->mem_total);
	}
}

int ptk_meminfo_read(const struct ptk_src *src, struct ptk_meminfo *mi)
{
	char buf[8192];
	ssize_t n = ptk_src_read_text(src, PTK_PROC, "meminfo", buf, sizeof(buf));

	return n < 0 ? n : ptk_meminfo_parse(buf, mi);
}

int ptk_meminfo_lohi_parse(const char *text, struct ptk_meminfo_lohi *lh)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "LowTotal:", offsetof(struct ptk_meminfo_lohi, low_total) },
		{ "LowFree:", offsetof(struct ptk_meminfo_lohi, low_free) },
		{ "HighTotal:", offsetof(struct ptk_meminfo_lohi, high_total) },
		{ "HighFree:", offsetof(struct ptk_meminfo_lohi, high_free) },
	};
	unsigned seen = 0;

	memset(lh, 0, sizeof(*lh));
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			size_t kl = strlen(keys[k].key);
			const char *end;
			u64 v;

			if (strncmp(p, keys[k].key, kl))
				continue;
			v = ptk_strtou64(p + kl, &end);
			if (end == p + kl || v > (~0ull >> 10))
				return -EINVAL;
			*(u64 *)((char *)lh + keys[k].off) = v;
			seen |= 1u << k;
		}
	}
	lh->has_low = (seen & 3) == 3;
	lh->has_high = (seen & 12) == 12;
	return 0;
}

int ptk_meminfo_read_lohi(const struct ptk_src *src, struct ptk_meminfo *mi,
			  struct ptk_meminfo_lohi *lh)
{
	char buf[8192];
	ssize_t n = ptk_src_read(src, PTK_PROC, "meminfo", buf, sizeof(buf));
	int r;

	if (n < 0)
		return n;
	if ((r = ptk_meminfo_parse(buf, mi)))
		return r;
	return ptk_meminfo_lohi_parse(buf, lh);
}

#define VM(e, k, f) \
	[PTK_VM_##e] = { .key = k, .name = k, .off = offsetof(struct ptk_vmstat, f), .unit = "" }
const struct ptk_field_desc ptk_vmstat_fields[PTK_VM_NFIELDS] = {
	VM(PGPGIN, "pgpgin", pgpgin),
	VM(PGPGOUT, "pgpgout", pgpgout),
	VM(PSWPIN, "pswpin", pswpin),
	VM(PSWPOUT, "pswpout", pswpout),
	VM(PGFAULT, "pgfault", pgfault),
	VM(PGMAJFAULT, "pgmajfault", pgmajfault),
	VM(PGFREE, "pgfree", pgfree),
	VM(PGSCAN_KSWAPD, "pgscan_kswapd", pgscan_kswapd),
	VM(PGSCAN_DIRECT, "pgscan_direct", pgscan_direct),
	VM(PGSTEAL_KSWAPD, "pgsteal_kswapd", pgsteal_kswapd),
	VM(PGSTEAL_DIRECT, "pgsteal_direct", pgsteal_direct),
	VM(ALLOCSTALL, "allocstall", allocstall),
	VM(OOM_KILL, "oom_kill", oom_kill),
	VM(PGSTEAL_KHUGEPAGED, "pgsteal_khugepaged", pgsteal_khugepaged),
	VM(PGPROMOTE_SUCCESS, "pgpromote_success", pgpromote_success),
	VM(PGDEMOTE_KSWAPD, "pgdemote_kswapd", pgdemote_kswapd),
	VM(PGDEMOTE_DIRECT, "pgdemote_direct", pgdemote_direct),
	VM(PGDEMOTE_KHUGEPAGED, "pgdemote_khugepaged", pgdemote_khugepaged),
	VM(PGSTEAL_ANON, "pgsteal_anon", pgsteal_anon),
	VM(PGSTEAL_FILE, "pgsteal_file", pgsteal_file),
};
#undef VM

/*
 * Kernels before 4.8 count reclaim per zone only ("pgscan_kswapd_normal", ...); the node-wide
 * "pgscan_kswapd" came with node-based LRU. Sum the zones and use that when the node-wide
 * counter is absent. "pgscan_direct_throttle" is not a zone.
 */
static const char *const vm_zones[] = { "dma", "dma32", "normal", "high", "movable", "device" };
static const enum ptk_vm_field vm_zoned[] = {
	PTK_VM_PGSCAN_KSWAPD,
	PTK_VM_PGSCAN_DIRECT,
	PTK_VM_PGSTEAL_KSWAPD,
	PTK_VM_PGSTEAL_DIRECT,
};

/* Index in vm_zoned of a "<counter>_<zone>" key, or -1. */
static int zone_counter(const char *key, size_t klen)
{
	for (size_t i = 0; i < ARRAY_SIZE(vm_zoned); i++) {
		const char *name = ptk_vmstat_fields[vm_zoned[i]].key;
		size_t n = strlen(name);
		if (klen <= n + 1 || strncmp(key, name, n) || key[n] != '_')
			continue;
		for (size_t z = 0; z < ARRAY_SIZE(vm_zones); z++)
			if (klen - n - 1 == strlen(vm_zones[z]) &&
			    !strncmp(key + n + 1, vm_zones[z], klen - n - 1))
				return i;
	}
	return -1;
}

int ptk_vmstat_parse(const char *text, struct ptk_vmstat *vm)
{
	const char *p = text;
	u64 zsum[ARRAY_SIZE(vm_zoned)] = { 0 };
	bool zseen[ARRAY_SIZE(vm_zoned)] = { 0 };

	memset(vm, 0, sizeof(*vm));
	while (*p) {
		const char *sp, *eol = strchr(p, '\n');
		int i;
		/* every counter read here starts with p (pg*, psw*), o (oom_kill) or a
		 * (allocstall*): the ~180 other lines are skipped unparsed (record reads this
		 * file every sample) */
		if (*p != 'p' && *p != 'o' && *p != 'a')
			goto next;
		sp = strchr(p, ' ');
		if (!sp || (eol && sp > eol))
			goto next;
		size_t klen = sp - p;
		const char *vend;
		u64 v = ptk_strtou64(sp + 1, &vend);
		if (vend == sp + 1)
			return -EINVAL;
		if (klen > 10 && !strncmp(p, "allocstall", 10)) {
			vm->allocstall += v; /* allocstall_dma, _normal, _movable ... */
			vm->present |= 1ull << PTK_VM_ALLOCSTALL;
			goto next;
		}
		int z = zone_counter(p, klen);
		if (z >= 0) {
			zsum[z] += v;
			zseen[z] = true;
			goto next;
		}
		i = ptk_field_find(ptk_vmstat_fields, PTK_VM_NFIELDS, p, klen);
		if (i >= 0) {
			*field_ptr(vm, &ptk_vmstat_fields[i]) = v;
			vm->present |= 1ull << i;
		}
next:
		if (!eol)
			break;
		p = eol + 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_zoned); i++)
		if (zseen[i] && !ptk_vmstat_has(vm, vm_zoned[i])) {
			*field_ptr(vm, &ptk_vmstat_fields[vm_zoned[i]]) = zsum[i];
			vm->present |= 1ull << vm_zoned[i];
		}
	vm->has_oom_kill = ptk_vmstat_has(vm, PTK_VM_OOM_KILL);
	return vm->present ? 0 : -EINVAL;
}

int ptk_vmstat_read(const struct ptk_src *src, struct ptk_vmstat *vm)
{
	static __thread struct ptk_buf b;
	ssize_t n = ptk_src_read_text_buf(src, PTK_PROC, "vmstat", &b);

	return n < 0 ? n : ptk_vmstat_parse(b.p, vm);
}

void ptk_meminfo_text(const struct ptk_meminfo *mi, struct ptk_strbuf *b)
{
	for (int i = 0; i < PTK_MI_NFIELDS; i++) {
		const struct ptk_field_desc *f = &ptk_meminfo_fields[i];

		/* an absent field, or the MemAvailable estimate: the tree says what the kernel
		 * said */
		if (!ptk_meminfo_has(mi, i))
			continue;
		ptk_strbuf_addf(b, "%s: %" PRIu64 "%s\n", f->key, ptk_meminfo_get(mi, i),
				strcmp(f->unit, "kB") ? "" : " kB");
	}
}

void ptk_vmstat_text(const struct ptk_vmstat *vm, struct ptk_strbuf *b)
{
	for (int i = 0; i < PTK_VM_NFIELDS; i++) {
		if (!ptk_vmstat_has(vm, i))
			continue;
		/* allocstall: the sum of the zones, as one zone (it parses back to the total) */
		ptk_strbuf_addf(b, "%s%s %" PRIu64 "\n", ptk_vmstat_fields[i].key,
				i == PTK_VM_ALLOCSTALL ? "_normal" : "", ptk_vmstat_get(vm, i));
	}
}
