// SPDX-License-Identifier: GPL-2.0
/* /proc/meminfo and /proc/vmstat readers. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

struct field {
	const char *name;
	size_t off;
	size_t len; /* strlen(name) */
};

#define MI(n, f)                                                  \
	{                                                         \
		n, offsetof(struct ptk_meminfo, f), sizeof(n) - 1 \
	}
static const struct field meminfo_fields[] = {
	MI("MemTotal", mem_total),
	MI("MemFree", mem_free),
	MI("MemAvailable", mem_available),
	MI("Buffers", buffers),
	MI("Cached", cached),
	MI("SwapCached", swap_cached),
	MI("Active", active),
	MI("Inactive", inactive),
	MI("Active(anon)", active_anon),
	MI("Inactive(anon)", inactive_anon),
	MI("Active(file)", active_file),
	MI("Inactive(file)", inactive_file),
	MI("SwapTotal", swap_total),
	MI("SwapFree", swap_free),
	MI("Dirty", dirty),
	MI("Writeback", writeback),
	MI("AnonPages", anon_pages),
	MI("Mapped", mapped),
	MI("Shmem", shmem),
	MI("KReclaimable", kreclaimable),
	MI("Slab", slab),
	MI("SReclaimable", sreclaimable),
	MI("SUnreclaim", sunreclaim),
	MI("CommitLimit", commit_limit),
	MI("Committed_AS", committed_as),
	MI("HugePages_Total", hugepages_total),
	MI("HugePages_Free", hugepages_free),
	MI("Hugepagesize", hugepagesize),
};

int ptk_meminfo_parse(const char *text, struct ptk_meminfo *mi)
{
	const char *p = text;
	bool total = false;

	memset(mi, 0, sizeof(*mi));
	while (*p) {
		const char *colon = strchr(p, ':'), *eol = strchr(p, '\n');
		if (!colon || (eol && colon > eol))
			goto next;
		size_t klen = colon - p;
		for (size_t i = 0; i < ARRAY_SIZE(meminfo_fields); i++) {
			const struct field *f = &meminfo_fields[i];
			if (f->len != klen || memcmp(p, f->name, klen))
				continue;
			const char *end;
			u64 v = ptk_strtou64(colon + 1, &end);
			/* kB: anything past 2^54 kB would overflow bytes */
			if (end == colon + 1 || v > (~0ull >> 10))
				return -EINVAL;
			*(u64 *)((char *)mi + f->off) = v;
			if (f->off == offsetof(struct ptk_meminfo, mem_available))
				mi->has_available = true;
			if (f->off == offsetof(struct ptk_meminfo, mem_total))
				total = true;
			break;
		}
next:
		if (!eol)
			break;
		p = eol + 1;
	}
	if (!total)
		return -EINVAL;
	if (!mi->has_available) {
		/* Kernels before 3.14: estimate what can be had without swapping. */
		u64 est = mi->mem_free + mi->active_file + mi->inactive_file + mi->sreclaimable;
		if (!mi->active_file && !mi->inactive_file)
			est = mi->mem_free + mi->buffers + mi->cached + mi->sreclaimable;
		mi->mem_available = MIN(est, mi->mem_total);
	}
	return 0;
}

int ptk_meminfo_read(const struct ptk_src *src, struct ptk_meminfo *mi)
{
	char buf[8192];
	ssize_t n = ptk_src_read(src, PTK_PROC, "meminfo", buf, sizeof(buf));

	if (n < 0)
		return n;
	return ptk_meminfo_parse(buf, mi);
}

#define VM(n, f)                                                 \
	{                                                        \
		n, offsetof(struct ptk_vmstat, f), sizeof(n) - 1 \
	}
static const struct field vmstat_fields[] = {
	VM("pgpgin", pgpgin),
	VM("pgpgout", pgpgout),
	VM("pswpin", pswpin),
	VM("pswpout", pswpout),
	VM("pgfault", pgfault),
	VM("pgmajfault", pgmajfault),
	VM("pgscan_kswapd", pgscan_kswapd),
	VM("pgscan_direct", pgscan_direct),
	VM("pgsteal_kswapd", pgsteal_kswapd),
	VM("pgsteal_direct", pgsteal_direct),
	VM("oom_kill", oom_kill),
	VM("pgfree", pgfree),
};

/*
 * Kernels before 4.8 count reclaim per zone only ("pgscan_kswapd_normal", ...); the node-wide
 * "pgscan_kswapd" came with node-based LRU. Sum the zones and use that when the node-wide
 * counter is absent. "pgscan_direct_throttle" is not a zone.
 */
static const char *const vm_zones[] = { "dma", "dma32", "normal", "high", "movable", "device" };
static const struct field vm_zoned[] = {
	VM("pgscan_kswapd", pgscan_kswapd),
	VM("pgscan_direct", pgscan_direct),
	VM("pgsteal_kswapd", pgsteal_kswapd),
	VM("pgsteal_direct", pgsteal_direct),
};

/* Index in vm_zoned of a "<counter>_<zone>" key, or -1. */
static int zone_counter(const char *key, size_t klen)
{
	for (size_t i = 0; i < ARRAY_SIZE(vm_zoned); i++) {
		const char *name = vm_zoned[i].name;
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
	int seen = 0;
	u64 zsum[ARRAY_SIZE(vm_zoned)] = { 0 };
	bool zseen[ARRAY_SIZE(vm_zoned)] = { 0 }, nseen[ARRAY_SIZE(vm_zoned)] = { 0 };

	memset(vm, 0, sizeof(*vm));
	while (*p) {
		const char *sp, *eol = strchr(p, '\n');
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
		if (klen >= 10 && !strncmp(p, "allocstall", 10)) {
			vm->allocstall += v; /* allocstall_dma, _normal, _movable ... */
			seen++;
			goto next;
		}
		int z = zone_counter(p, klen);
		if (z >= 0) {
			zsum[z] += v;
			zseen[z] = true;
			seen++;
			goto next;
		}
		for (size_t i = 0; i < ARRAY_SIZE(vmstat_fields); i++) {
			const struct field *f = &vmstat_fields[i];
			if (f->len != klen || memcmp(p, f->name, klen))
				continue;
			*(u64 *)((char *)vm + f->off) = v;
			if (f->off == offsetof(struct ptk_vmstat, oom_kill))
				vm->has_oom_kill = true;
			for (size_t j = 0; j < ARRAY_SIZE(vm_zoned); j++)
				if (vm_zoned[j].off == f->off)
					nseen[j] = true;
			seen++;
			break;
		}
next:
		if (!eol)
			break;
		p = eol + 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_zoned); i++)
		if (zseen[i] && !nseen[i])
			*(u64 *)((char *)vm + vm_zoned[i].off) = zsum[i];
	return seen ? 0 : -EINVAL;
}

int ptk_vmstat_read(const struct ptk_src *src, struct ptk_vmstat *vm)
{
	static __thread struct ptk_buf b;
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, "vmstat", &b);

	if (n < 0)
		return n;
	return ptk_vmstat_parse(b.p, vm);
}

void ptk_meminfo_text(const struct ptk_meminfo *mi, struct ptk_strbuf *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(meminfo_fields); i++) {
		const struct field *f = &meminfo_fields[i];
		u64 v = *(const u64 *)((const char *)mi + f->off);
		bool kb = strncmp(f->name, "HugePages_", 10) != 0;

		if (f->off == offsetof(struct ptk_meminfo, mem_available) && !mi->has_available)
			continue; /* an estimate: the tree says what the kernel said */
		ptk_strbuf_addf(b, "%s: %" PRIu64 "%s\n", f->name, v, kb ? " kB" : "");
	}
}

void ptk_vmstat_text(const struct ptk_vmstat *vm, struct ptk_strbuf *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(vmstat_fields); i++) {
		const struct field *f = &vmstat_fields[i];

		if (f->off == offsetof(struct ptk_vmstat, oom_kill) && !vm->has_oom_kill)
			continue;
		ptk_strbuf_addf(b, "%s %" PRIu64 "\n", f->name,
				*(const u64 *)((const char *)vm + f->off));
	}
	/* the sum of the zones, as one zone: it parses back to the same total */
	ptk_strbuf_addf(b, "allocstall_normal %" PRIu64 "\n", vm->allocstall);
}
