/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf samples to folded stacks: each PERF_RECORD_SAMPLE becomes "comm;root;...;leaf" with
 * one count in a model/folded.h table -- user frames (the callchain after PERF_CONTEXT_USER,
 * or the registers and stack copy unwound by libdw with --call-graph dwarf) below the
 * kernel frames, named by the symbolizer (source/sym/sym.h) through a cache by (pid,
 * address). The thread's comm comes from PERF_RECORD_COMM, else /proc/PID/task/TID/comm,
 * else ":TID" as perf script shows it. An exec (COMM with PERF_RECORD_MISC_COMM_EXEC)
 * forgets the modules read for the old image.
 */
#ifndef PTK_SOURCE_PERF_STACKS_H
#define PTK_SOURCE_PERF_STACKS_H

#include "model/folded.h"
#include "source/perf/perf.h"
#include "source/sym/sym.h"

struct ptk_stacks;

/*
 * A folder into f, with the symbolizer sym, for samples laid out per sample_type (with
 * regs_mask user registers); dwarf: user frames from the copied stack.
 */
struct ptk_stacks *ptk_stacks_new(struct ptk_symbolizer *sym, struct ptk_folded *f, u64 sample_type,
				  u64 regs_mask, bool dwarf);
void ptk_stacks_free(struct ptk_stacks *st);

/* A ring record (ptk_perf_record_fn): samples are folded, COMM records kept. Returns 0. */
int ptk_stacks_record(const struct perf_event_header *h, void *st);

/* One resolved sample, for sinks that keep more than the folded names (pprof). */
struct ptk_stack_frame {
	u64 addr; /* the sampled or return address */
	const char *name; /* ptk_frame_name(): never NULL */
	const char *module; /* user: the ELF path as mapped; kernel: "kernel" or the module;
			     * NULL when unknown */
	bool kernel;
};
struct ptk_stack_sample {
	u32 pid, tid, cpu;
	u64 time, period; /* perf's sample time (ns) and period (cpu-clock: ns) */
	const char *comm;
	int n;
	const struct ptk_stack_frame *f; /* leaf first: kernel frames, then user frames */
};
typedef void (*ptk_stack_fn)(const struct ptk_stack_sample *s, void *arg);
/* Also call fn with every sample folded (the strings are valid during the call only). */
void ptk_stacks_on_sample(struct ptk_stacks *st, ptk_stack_fn fn, void *arg);

struct ptk_stacks_counts {
	u64 samples; /* samples folded */
	u64 bad; /* records that did not parse */
	u64 unwind_fail; /* dwarf: user stacks that did not unwind past the sampled function */
	u64 unwind_truncated; /* dwarf: stacks deeper than the bytes copied ("[unknown]" root) */
};
void ptk_stacks_counts(const struct ptk_stacks *st, struct ptk_stacks_counts *c);

#endif
