// SPDX-License-Identifier: GPL-2.0
/* Stacks symbolized together (sym.h ptk_sym_stacks). */
#include <stdlib.h>
#include <string.h>

#include "source/sym/sym.h"

/* A frame of the tracer itself at the top of a kernel stack taken in a BPF program: the
 * program, bpf_trace_run<N>, the tracepoint's glue (tp_btf: __traceiter_<tp>; raw_tp:
 * __bpf_trace_<tp>), a trampoline (fentry/fexit). */
static bool tracer_frame(const char *name)
{
	static const char *const pfx[] = { "bpf_prog_", "bpf_trace_run", "__bpf_trace_",
					   "__traceiter_", "bpf_trampoline_" };

	for (size_t i = 0; name && i < ARRAY_SIZE(pfx); i++)
		if (!strncmp(name, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

/* The order in which user stacks are symbolized (indices into st): by process, then as
 * given. */
static int by_pid(const void *a, const void *b, void *arg)
{
	const struct ptk_sym_stack *st = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (st[x].pid != st[y].pid)
		return st[x].pid < st[y].pid ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void kernel_frames(struct ptk_symbolizer *s, struct ptk_sym_stack *st, unsigned flags)
{
	for (int i = 0; i < st->n; i++) {
		struct ptk_frame *f = &st->f[st->nf];

		ptk_sym_kernel(s, st->ips[i], f);
		if (st->nf == 0 && (flags & PTK_SYM_SKIP_TRACER) && tracer_frame(f->func))
			continue;
		st->nf++;
	}
}

void ptk_sym_stacks(struct ptk_symbolizer *s, struct ptk_sym_stack *st, size_t n, unsigned flags)
{
	size_t nk = 0, nu = 0, *user = xmalloc((n ? n : 1) * sizeof(*user));
	u64 *kips;

	for (size_t i = 0; i < n; i++) {
		st[i].f = xcalloc(st[i].n > 0 ? st[i].n : 1, sizeof(*st[i].f));
		st[i].nf = 0;
		if (st[i].pid)
			user[nu++] = i;
		else
			nk += st[i].n > 0 ? st[i].n : 0;
	}
	kips = xmalloc((nk ? nk : 1) * sizeof(*kips));
	nk = 0;
	for (size_t i = 0; i < n; i++)
		if (!st[i].pid && st[i].n > 0) {
			memcpy(kips + nk, st[i].ips, st[i].n * sizeof(*kips));
			nk += st[i].n;
		}
	ptk_sym_kernel_prepare(s, kips, nk);
	free(kips);
	for (size_t i = 0; i < n; i++)
		if (!st[i].pid)
			kernel_frames(s, &st[i], flags);
	if (nu)
		qsort_r(user, nu, sizeof(*user), by_pid, st);
	for (size_t j = 0; j < nu; j++) {
		struct ptk_sym_stack *u = &st[user[j]];

		for (int i = 0; i < u->n; i++) {
			ptk_sym_user(s, u->pid, u->ips[i], &u->f[u->nf]);
			ptk_sym_frame_keep(s, &u->f[u->nf++]);
		}
		if (j + 1 == nu || st[user[j + 1]].pid != u->pid)
			ptk_sym_forget(s, u->pid);
	}
	free(user);
}

void ptk_sym_stacks_free(struct ptk_sym_stack *st, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(st[i].f);
		st[i].f = NULL;
		st[i].nf = 0;
	}
}
