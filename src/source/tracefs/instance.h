/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A private tracefs instance (instances/ptk-PID-START): its own tracer, function and pid
 * filters, events, options and buffers, so ptk never changes the global ones. The name holds
 * the process's pid and start time: an instance whose process is gone (killed with SIGKILL
 * before it could remove it) is removed by the next ptk_ftrace_open(). Records are read from
 * the instance's per-CPU raw buffers through libtracefs and described by libtraceevent
 * (trace-cmd's libraries), its plugins loaded, so they render as trace-cmd renders them.
 *
 * Errors: 0 or -errno with the one-line reason in err; -EOPNOTSUPP for what the kernel lacks
 * or refuses (a tracer not in available_tracers, the function tracer refused).
 */
#ifndef PTK_SOURCE_TRACEFS_INSTANCE_H
#define PTK_SOURCE_TRACEFS_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>

struct ptk_ftrace;
struct tep_event;
struct tep_record;
struct tep_handle;

/* Remove the instances of ptk processes that are gone. Returns how many, or -errno. */
int ptk_ftrace_clean_stale(void);

/* Make the private instance (stale ones removed first). 0 or -errno. */
int ptk_ftrace_open(struct ptk_ftrace **out, char *err, size_t errsz);

/* The instance's directory ("/sys/kernel/tracing/instances/ptk-1234-5678"). */
const char *ptk_ftrace_dir(const struct ptk_ftrace *f);

/* The tracer (function, function_graph, nop): -EOPNOTSUPP when the kernel has not it or
 * refuses it. */
int ptk_ftrace_tracer(struct ptk_ftrace *f, const char *tracer, char *err, size_t errsz);

/* Functions the tracer traces (notrace: those it leaves out; graph: set_graph_function), a
 * pattern each. -EINVAL for one that matches no function. */
int ptk_ftrace_functions(struct ptk_ftrace *f, const char *pattern, int which, char *err,
			 size_t errsz);
enum { PTK_FTRACE_FILTER, PTK_FTRACE_NOTRACE, PTK_FTRACE_GRAPH };

/* Only this process (its tasks) in the tracer and the events. */
int ptk_ftrace_pid(struct ptk_ftrace *f, int pid, char *err, size_t errsz);

/* Enable events: "all", "SYSTEM", "SYSTEM:EVENT" (patterns allowed), with filter (the
 * kernel's event filter syntax) or NULL. -EINVAL for no such event or a bad filter. */
int ptk_ftrace_event(struct ptk_ftrace *f, const char *spec, const char *filter, char *err,
		     size_t errsz);

/* Set one of the instance's options (options/NAME: stacktrace, func_stack_trace...). */
int ptk_ftrace_option(struct ptk_ftrace *f, const char *name, bool on, char *err, size_t errsz);

/* The instance's buffer size per CPU, in KiB. */
int ptk_ftrace_buffer_kb(struct ptk_ftrace *f, int kb, char *err, size_t errsz);

/* Start recording (tracing_on), and load the formats of the events enabled. */
int ptk_ftrace_start(struct ptk_ftrace *f, char *err, size_t errsz);

/* The event descriptions (libtraceevent), for rendering records. */
struct tep_handle *ptk_ftrace_tep(struct ptk_ftrace *f);

/*
 * Take what the buffers hold now, each record to cb in time order across CPUs (cb returns
 * non-zero to stop early). Returns the records taken, or -errno.
 */
int ptk_ftrace_read(struct ptk_ftrace *f,
		    int (*cb)(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx),
		    void *ctx);

/* Events the kernel dropped because the buffers were full, summed over the CPUs. */
unsigned long long ptk_ftrace_overruns(struct ptk_ftrace *f);

/* Stop, and remove the instance. */
void ptk_ftrace_close(struct ptk_ftrace *f);

#endif
