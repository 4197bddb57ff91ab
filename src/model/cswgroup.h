/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cswtop's model: threads grouped by a key (thread pool name, regex capture, comm, process,
 * cgroup), each group's voluntary and involuntary context switches over the interval and a
 * Coda Hale meter (model/ewma.h) per group and for the total. Counters:
 * voluntary_ctxt_switches and nonvoluntary_ctxt_switches of /proc/PID/task/TID/status
 * (kernel/sched/core.c nvcsw/nivcsw, fs/proc/array.c task_context_switch_counts).
 */
#ifndef PTK_MODEL_CSWGROUP_H
#define PTK_MODEL_CSWGROUP_H

#include <regex.h>

#include "model/ewma.h"
#include "source/procfs/pid.h"

enum ptk_csw_by {
	PTK_CSW_PREFIX,
	PTK_CSW_REGEX,
	PTK_CSW_COMM,
	PTK_CSW_PROCESS,
	PTK_CSW_CGROUP,
	PTK_CSW_CONTAINER
};
#define PTK_CSW_NBY (PTK_CSW_CONTAINER + 1)
extern const char
	*const ptk_csw_by_name[PTK_CSW_NBY]; /* "prefix", "regex", "comm", "process", "cgroup",
					       * "container" */

/* How threads are keyed. */
struct ptk_csw_keying {
	enum ptk_csw_by by;
	int nchars; /* PTK_CSW_PREFIX: characters kept (0 = all) */
	const regex_t *re; /* PTK_CSW_REGEX: the first capture group (the whole match without
			    * one); "(unmatched)" and "(empty)" otherwise */
};

/*
 * The group key of thread t named name (its comm, or the full Java name from a dump) into
 * key: the pool name without its trailing index cut to nchars (model/jstack.h
 * ptk_pool_name), the regex capture, the name, "comm[tgid]" of its process (leader: the
 * process's row, NULL to use t's comm), the cgroup path or its owner
 * (source/cgroup/cgroup.h ptk_cg_container: "docker:3f2a1b9c8d7e", a pod, a systemd unit)
 * ("-" without one).
 */
void ptk_csw_key(const struct ptk_csw_keying *k, const struct ptk_task *t, const char *name,
		 const struct ptk_task *leader, char *key, size_t size);

struct ptk_csw_group {
	char *key;
	struct ptk_meter meter;
	u64 dvol, dinv; /* this interval */
	int threads; /* rows in the current scan */
	int counted; /* threads that have a delta this interval (seen in both scans) */
	bool fresh; /* created at this scan: no interval yet */
	double rate; /* (dvol + dinv) / interval */
};

struct ptk_csw_groups {
	struct ptk_csw_group *g; /* after ptk_csw_end: by rate, descending */
	int n, cap;
	int *hidx, hcap; /* open addressing: index into g, -1 empty */
	struct ptk_meter total;
	u64 tvol, tinv; /* totals of the interval */
	int tthreads, tcounted;
	u64 now_ns, prev_ns; /* the meters' clock: the sum of the intervals */
};

/* An empty set whose total meter starts at 0. */
void ptk_csw_init(struct ptk_csw_groups *c);
void ptk_csw_free(struct ptk_csw_groups *c);

/* Start a scan: the clock moves by itv_s (not on the first scan), interval counts reset. */
void ptk_csw_begin(struct ptk_csw_groups *c, bool first, double itv_s);

/*
 * Count thread t (status read) in the group of key; prev is the same thread (pid and
 * starttime) in the previous scan, or NULL: a new thread or a reused TID is counted from
 * the next interval.
 */
void ptk_csw_add(struct ptk_csw_groups *c, const char *key, const struct ptk_task *t,
		 const struct ptk_task *prev);

/*
 * End a scan: groups without threads go (with their meters). After the first scan, each
 * group's rate over itv_s (no rate at all when itv_s <= 0: a replay with the same uptime
 * twice), the meters marked with the interval's switches, and the groups sorted by rate
 * (groups without a measured interval last, then by key).
 */
void ptk_csw_end(struct ptk_csw_groups *c, bool first, double itv_s);

#endif
