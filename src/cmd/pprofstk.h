/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resolved perf samples (source/perf/stacks.h) into a pprof profile (output/pprof.h), for
 * the commands that sample: each frame a location at its address, in a mapping of the
 * process's /proc/PID/maps with the ELF's build ID (the kernel's from /sys/kernel/notes),
 * labels pid, tid, comm and cgroup (the v2 path of /proc/PID/cgroup), values samples (1)
 * and the period (cpu-clock: nanoseconds of CPU).
 */
#ifndef PTK_CMD_PPROFSTK_H
#define PTK_CMD_PPROFSTK_H

#include "output/pprof.h"
#include "source/perf/stacks.h"
#include "source/root.h"

struct pprofstk;

/* A collector into pp (which it does not own), reading /proc through src. */
struct pprofstk *pprofstk_new(struct ptk_pprof *pp, const struct ptk_src *src);
void pprofstk_free(struct pprofstk *c);
/* ptk_stack_fn: one sample, values 1 and s->period. */
void pprofstk_sample(const struct ptk_stack_sample *s, void *c);
/* One sample with its values (one per sample type of the profile). */
void pprofstk_sample_values(struct pprofstk *c, const struct ptk_stack_sample *s,
			    const s64 *values);

#endif
