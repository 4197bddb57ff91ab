/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sched tracepoints as perf sched record takes them: sched_switch, sched_wakeup,
 * sched_wakeup_new and sched_migrate_task on every CPU (perf_event_open, PERF_TYPE_TRACEPOINT,
 * period 1, PERF_SAMPLE_RAW), the raw records decoded with the field offsets of tracefs's
 * format files into model/sched.h events, collected in arrival order.
 */
#ifndef PTK_SOURCE_PERF_SCHEDREC_H
#define PTK_SOURCE_PERF_SCHEDREC_H

#include "model/sched.h"
#include "source/perf/perf.h"
#include "source/tracefs/tracefs.h"

enum { SR_SWITCH, SR_WAKEUP, SR_WAKEUP_NEW, SR_MIGRATE, SR_N };

struct ptk_schedrec {
	struct ptk_perf_sampler s[SR_N];
	struct ptk_tp_format fmt[SR_N];
	bool open[SR_N];
	struct ptk_sched_ev *ev;
	size_t n, cap;
	u32 seq;
	u64 bad; /* records that did not decode */
};

/*
 * Open the tracepoints on every online CPU with data_pages (power of 2) per ring, disabled
 * until ptk_schedrec_enable(). sched_switch is required; the others are used when present.
 * Returns 0 or -errno (-ENOENT: no sched_switch tracepoint; -EACCES/-EPERM: not root).
 */
int ptk_schedrec_open(struct ptk_schedrec *r, int data_pages);
void ptk_schedrec_enable(struct ptk_schedrec *r, bool on);
struct pollfd;
/* The rings' fds into pf[0..max) (POLLIN when a quarter of a ring is used). Returns n. */
int ptk_schedrec_pollfds(const struct ptk_schedrec *r, struct pollfd *pf, int max);
/* Move every ring's records into r->ev. Returns the records added. */
size_t ptk_schedrec_read(struct ptk_schedrec *r);
/* Records the kernel dropped (rings full). */
u64 ptk_schedrec_lost(const struct ptk_schedrec *r);
void ptk_schedrec_close(struct ptk_schedrec *r);

/* Decode one raw sched record of kind k (format fmt) into e (time and cpu not set).
 * Returns 0 or -EINVAL (too short). */
int ptk_schedrec_decode(const struct ptk_tp_format *fmt, int k, const unsigned char *raw, u32 size,
			struct ptk_sched_ev *e);

#endif
