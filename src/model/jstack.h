/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A jstack thread dump, parsed: the native thread id (nid) of every Java thread with its full
 * name. The kernel keeps 15 characters of a thread name (TASK_COMM_LEN 16, include/linux/
 * sched.h), HotSpot names native threads with at most that much (os::set_native_thread_name,
 * os_linux.cpp), so "order-processor-pool-1" and "order-processor-batch-1" are both
 * "order-processor" in /proc/PID/task/TID/comm; the dump has the full names.
 *
 * A thread header line looks like (JDK 8 ... 17; JDK 19+ prints nid in decimal and adds
 * "[nid]" after "#N"):
 *   "name" #12 daemon prio=5 os_prio=0 cpu=54.26ms elapsed=2.22s tid=0x00007f6b9c11e1f0
 *        nid=0x125c waiting on condition  [0x00007f6b6d4fd000]
 *   "VM Thread" os_prio=0 cpu=0.41ms elapsed=2.25s tid=0x00007f6b9c0f4c00 nid=0x1250 runnable
 * followed, for Java threads, by "   java.lang.Thread.State: TIMED_WAITING (sleeping)".
 */
#ifndef PTK_MODEL_JSTACK_H
#define PTK_MODEL_JSTACK_H

#include <stdbool.h>
#include <stddef.h>

struct ptk_jthread {
	int nid; /* native thread id = Linux TID (nid=0x... hex, or decimal on JDK 19+) */
	long jid; /* Java thread number "#N"; -1 for VM-internal threads */
	bool daemon; /* "daemon" flag */
	int prio; /* Java priority "prio=N"; -1 when absent (VM threads) */
	char *name; /* full name as printed between the quotes; controls shown as '?' */
	char state[48]; /* java.lang.Thread.State text, "" when the dump has none */
};

struct ptk_jdump {
	int n, cap;
	struct ptk_jthread *t; /* sorted by nid */
};

/*
 * Parse the text of a jstack dump into d (any previous content is freed). Lines that are
 * not thread headers are skipped; a name may hold spaces, brackets and quotes (the name ends
 * at the last quote before " nid="). Returns the number of threads found (>= 0), or -EINVAL
 * when the text has no thread header at all (not a thread dump).
 */
int ptk_jstack_parse(const char *text, struct ptk_jdump *d);

/* The thread with this nid (= TID), or NULL. */
const struct ptk_jthread *ptk_jstack_find(const struct ptk_jdump *d, int nid);

/*
 * The full Java name of thread tid whose kernel name is comm, or NULL when the dump does
 * not name it. Unless trusted (tid is known to be a thread of the dumped JVM), the name is
 * taken only when comm is its 15-character cut (TASK_COMM_LEN - 1), so a TID of another
 * process is not taken for a JVM thread.
 */
const char *ptk_jstack_name(const struct ptk_jdump *d, int tid, const char *comm, bool trusted);

void ptk_jstack_free(struct ptk_jdump *d);

/*
 * The pool name of a thread name, the grouping key of `ptk cswtop -g prefix`: the last run of
 * digits, when it ends the name or follows a separator ('-', '_', '.', '#', ':', '/', ' '),
 * is an index within a pool and is removed together with the separators right before it,
 * unless that would leave nothing ("G1 Service" keeps its 1); then the result is
 * cut to at most maxchars characters (UTF-8 characters; 0 = no limit) and trailing
 * separators are trimmed. "alpha-12" -> "alpha", "pool-1-thread-3" -> "pool-1-thread",
 * "GC task thread#0 (ParallelGC)" -> "GC task thread (ParallelGC)", "C2 CompilerThread0" ->
 * "C2 CompilerThread", "ksoftirqd/1" -> "ksoftirqd", "VM Thread" unchanged.
 */
void ptk_pool_name(const char *name, int maxchars, char *out, size_t size);

#endif
