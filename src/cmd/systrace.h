/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ptk syscount and ptk strace --bpf share: the raw_syscalls programs (systrace.bpf.c)
 * loaded (light skeleton, libbpf's as the fallback), their read-only settings, the maps
 * filled once attached (the processes followed, the syscalls shown and what memory each
 * argument points to, from the ptrace decoders' table), and a launched command released to
 * exec only once everything is attached.
 */
#ifndef PTK_CMD_SYSTRACE_H
#define PTK_CMD_SYSTRACE_H

#include <linux/types.h>

#include "source/bpf/runner.h"
#include "source/bpf/systrace.h"

struct ptk_systrace {
	bool trace_events; /* strace: events (else counts) */
	bool latency, by_process, failed;
	bool use_tgids; /* the processes followed are the tgids map's (seeds, exec_seed, -f) */
	bool follow; /* -f: children are followed */
	int exec_seed; /* this process is followed from its execve on (a launched command) */
	int err_filter; /* syscount -e: an errno, 0 = any */
	const bool *sel; /* strace -e trace=: PTK_NSYSCALLS entries, NULL = all */
	int seeds[64]; /* tgids followed from the start (-f) */
	int nseeds;
	int sync_fd; /* a launched child waits on it to exec: written once attached; -1 */
	int counts_fd; /* the counts map */
	void *arg; /* the command's own state */
};

/* The runner ops' load_lskel, open and load for these programs (r->priv: ptk_systrace). */
int ptk_systrace_load_lskel(struct ptk_bpf_run *r);
int ptk_systrace_open(struct ptk_bpf_run *r);
int ptk_systrace_load(struct ptk_bpf_run *r);

/*
 * Every entry of the counts map (taken: deleted as read when take), into *out (free it).
 * Returns the number of entries or -errno.
 */
struct ptk_systrace_row {
	struct systrace_key key;
	struct systrace_count val;
};
int ptk_systrace_counts(struct ptk_systrace *st, bool take, struct ptk_systrace_row **out);

#endif
