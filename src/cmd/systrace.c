// SPDX-License-Identifier: GPL-2.0
/* The raw_syscalls programs of ptk syscount and ptk strace --bpf (systrace.h). */
#include "cmd/systrace.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "source/ptrace/decode.h"
#include "source/ptrace/syscalls.h"
#include "systrace.skel.h"
#include "systrace_l.lskel.h"

#define ST_SET_RODATA(skel, r, st)                                   \
	do {                                                         \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);             \
		(skel)->rodata->trace_events = (st)->trace_events;   \
		(skel)->rodata->count_latency = (st)->latency;       \
		(skel)->rodata->count_by_process = (st)->by_process; \
		(skel)->rodata->filter_failed = (st)->failed;        \
		(skel)->rodata->filter_errno = (st)->err_filter;     \
		(skel)->rodata->follow_forks = (st)->follow;         \
		(skel)->rodata->use_tgids = (st)->use_tgids;         \
		(skel)->rodata->exec_seed = (st)->exec_seed;         \
	} while (0)

/* How the memory of argument kind k of a decoder is read (the ptrace path reads it live). */
static struct systrace_plan_arg plan_arg(const struct ptk_syscall *sc, int i)
{
	struct ptk_dec_mem m = ptk_dec_arg_mem(sc, i);
	struct systrace_plan_arg p = { ST_K_NONE, 7, 0 };

	switch (m.when) {
	case PTK_DEC_MEM_NONE:
		return p;
	case PTK_DEC_MEM_STR:
		p.kind = ST_K_STR;
		return p;
	case PTK_DEC_MEM_IN:
		p.kind = ST_K_IN;
		break;
	case PTK_DEC_MEM_OUT:
		p.kind = ST_K_OUT;
		break;
	case PTK_DEC_MEM_INOUT:
		p.kind = ST_K_INOUT;
		break;
	}
	p.lenarg = (__u8)(m.lenarg < 0 ? 7 : m.lenarg);
	p.size = (__u16)MIN(m.size, (size_t)SYSTRACE_BLOB);
	return p;
}

/* After attach: the plan, the syscalls shown, the processes followed; then the child execs. */
static int fill_maps(struct ptk_bpf_run *r)
{
	struct ptk_systrace *st = r->priv;
	int plan_fd = ptk_bpf_map_fd(r, "plan"), sel_fd = ptk_bpf_map_fd(r, "selected");
	int tgids_fd = ptk_bpf_map_fd(r, "tgids");
	__u8 one = 1;

	st->counts_fd = ptk_bpf_map_fd(r, "counts");
	if (plan_fd < 0 || sel_fd < 0 || tgids_fd < 0 || st->counts_fd < 0)
		return -ENOENT;
	for (__u32 nr = 0; nr < SYSTRACE_NR_MAX; nr++) {
		const struct ptk_syscall *sc = ptk_syscall_get(nr);
		struct systrace_plan p;
		__u8 on;
		memset(&p, 0, sizeof(p));
		for (int i = 0; sc && i < sc->nargs; i++)
			p.a[i] = plan_arg(sc, i);
		/* execve always: a launched command is shown from its execve on */
		on = !st->sel || (nr < PTK_NSYSCALLS && st->sel[nr]) || nr == __NR_execve ||
		     nr == __NR_execveat;
		if (bpf_map_update_elem(plan_fd, &nr, &p, BPF_ANY) ||
		    bpf_map_update_elem(sel_fd, &nr, &on, BPF_ANY))
			return -errno;
	}
	for (int i = 0; i < st->nseeds; i++) {
		__u32 tgid = (__u32)st->seeds[i];
		if (bpf_map_update_elem(tgids_fd, &tgid, &one, BPF_ANY))
			return -errno;
	}
	if (st->sync_fd >= 0) {
		char c = 0;
		if (write(st->sync_fd, &c, 1) != 1)
			return -errno;
		close(st->sync_fd);
		st->sync_fd = -1;
	}
	return 0;
}

PTK_BPF_LSKEL_FREE(systrace_l_bpf)

#define ST_SETUP(s) ST_SET_RODATA(s, r, st)

int ptk_systrace_load_lskel(struct ptk_bpf_run *r)
{
	struct ptk_systrace *st = r->priv;
	struct systrace_l_bpf *l = NULL;
	int err = PTK_BPF_LSKEL(r, systrace_l_bpf, l, ST_SETUP);

	if (err)
		return err;
	r->hook = "raw_tp";
	return fill_maps(r);
}

int ptk_systrace_open(struct ptk_bpf_run *r)
{
	struct systrace_bpf *s = PTK_BPF_OPEN(r, systrace_bpf);
	struct ptk_systrace *st = r->priv;

	if (!s)
		return -errno;
	ST_SET_RODATA(s, r, st);
	return 0;
}

int ptk_systrace_load(struct ptk_bpf_run *r)
{
	int err = ptk_bpf_skel_load(r);

	if (err)
		return err;
	r->hook = "raw_tp";
	return fill_maps(r);
}

int ptk_systrace_counts(struct ptk_systrace *st, bool take, struct ptk_systrace_row **out)
{
	size_t n = 0;

	*out = PTK_BPF_MAP_ENTRIES(st->counts_fd, struct ptk_systrace_row, key, val, take, &n);
	if (!*out)
		return -ENOMEM;
	return (int)n;
}
