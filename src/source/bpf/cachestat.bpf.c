// SPDX-License-Identifier: GPL-2.0
/*
 * cachestat: count calls of the page cache functions (mm/swap.c folio_mark_accessed,
 * mm/filemap.c filemap_add_folio, mm/page-writeback.c folio_account_dirtied, fs/buffer.c
 * mark_buffer_dirty, or their pre-folio names). Each role has an fentry and a kprobe program;
 * user space picks one and sets the function that exists on the running kernel. Dirtied pages
 * can also be counted at the writeback_dirty_folio/page tracepoint (fired by
 * folio_account_dirtied, which is often inlined and then has no symbol).
 */
#include "common.bpf.h"
#include "cachestat.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CS_NR);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline int add(__u32 idx, __u64 n)
{
	__u64 *c;

	if (!current_selected())
		return 0;
	c = bpf_map_lookup_elem(&counts, &idx);
	if (c)
		*c += n;
	return 0;
}

static __always_inline int inc(__u32 idx)
{
	return add(idx, 1);
}

SEC("fentry")
int BPF_PROG(fentry_accessed)
{
	return inc(CS_ACCESSED);
}

SEC("fentry")
int BPF_PROG(fentry_added)
{
	return inc(CS_ADDED);
}

SEC("fentry")
int BPF_PROG(fentry_dirtied)
{
	return inc(CS_DIRTIED);
}

SEC("fentry")
int BPF_PROG(fentry_buf_dirty)
{
	return inc(CS_BUF_DIRTY);
}

SEC("kprobe")
int BPF_KPROBE(kprobe_accessed)
{
	return inc(CS_ACCESSED);
}

SEC("kprobe")
int BPF_KPROBE(kprobe_added)
{
	return inc(CS_ADDED);
}

SEC("kprobe")
int BPF_KPROBE(kprobe_dirtied)
{
	return inc(CS_DIRTIED);
}

SEC("kprobe")
int BPF_KPROBE(kprobe_buf_dirty)
{
	return inc(CS_BUF_DIRTY);
}

SEC("tp_btf/writeback_dirty_folio")
int BPF_PROG(tp_btf_dirty_folio)
{
	return inc(CS_DIRTIED);
}

SEC("raw_tp/writeback_dirty_folio")
int BPF_PROG(raw_dirty_folio)
{
	return inc(CS_DIRTIED);
}

SEC("raw_tp/writeback_dirty_page")
int BPF_PROG(raw_dirty_page)
{
	return inc(CS_DIRTIED);
}

/*
 * Tracepoint mode, for kernels where neither fentry nor kprobes work: counts in pages.
 * Accesses: the page range each filemap_get_pages() call of the read path looks up
 * (mm/filemap.c; mmap faults are not in it); misses: pages of the folios added to the cache.
 */
SEC("tracepoint/filemap/mm_filemap_get_pages")
int tp_get_pages(struct trace_event_raw_mm_filemap_op_page_cache_range *ctx)
{
	return add(CS_ACCESSED, ctx->last_index - ctx->index + 1);
}

SEC("tracepoint/filemap/mm_filemap_add_to_page_cache")
int tp_add_to_page_cache(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	__u64 n = 1;

	if (bpf_core_field_exists(ctx->order))
		n = 1ull << (BPF_CORE_READ(ctx, order) & 31);
	return add(CS_ADDED, n);
}

SEC("tracepoint/block/block_dirty_buffer")
int tp_dirty_buffer(void *ctx)
{
	return inc(CS_BUF_DIRTY);
}

char LICENSE[] SEC("license") = "GPL";
