/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring buffer of an event tool and its lost counter, the maps the runner reads by these
 * names: events that did not fit (a reserve or output that failed) or were dropped on the
 * way (an in-flight table full) are counted per CPU in lost[0], never silently.
 */
#ifndef PTK_EVENTS_BPF_H
#define PTK_EVENTS_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	/* 1 MiB: hundreds of large events (thousands of small ones) between two polls; the
	 * reader is woken as they come (the runner polls), and a fuller burst is counted in
	 * lost. Mapped twice into ptk, it adds to its RSS. */
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* Room for an event of size bytes in the ring buffer, or NULL (counted lost). */
static __always_inline void *reserve_event(__u64 size)
{
	void *e = bpf_ringbuf_reserve(&events, size, 0);

	if (!e)
		count_lost();
	return e;
}

/* Send size bytes of an event assembled elsewhere (a large one, built in a map) through the
 * ring buffer, or count it lost. */
static __always_inline void output_event(void *e, __u64 size)
{
	if (bpf_ringbuf_output(&events, e, size, 0))
		count_lost();
}

#endif
