/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler timelines (model/sched.h) as a Chrome JSON trace (the Trace Event Format that
 * chrome://tracing and ui.perfetto.dev open): one process "CPUs" with a thread per CPU
 * holding a complete event ("ph":"X") for every run of a task on it; one process per thread
 * group with a thread per task holding its "running", "runnable" (scheduler delay) and
 * "sleeping" (wait) periods, and its migrations as instant events ("ph":"i"); names from
 * metadata events ("ph":"M", process_name / thread_name). Times in microseconds from the
 * first event. On one thread the complete events never overlap, as the format asks.
 */
#ifndef PTK_OUTPUT_CHROMETRACE_H
#define PTK_OUTPUT_CHROMETRACE_H

#include <stdio.h>

#include "model/sched.h"

/* The pid/tid base of the CPU tracks (a real pid never reaches it). */
#define PTK_CHROME_CPU_PID 1000000000

/* Write m (made with keep_slices) to out. 0 or -EIO. */
int ptk_chrome_trace_write(const struct ptk_sched *m, FILE *out);

#endif
