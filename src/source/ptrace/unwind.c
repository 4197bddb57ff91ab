// SPDX-License-Identifier: GPL-2.0
/* libdwfl unwinding over registers and stack copies taken by ptk_stop_all(). */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source/ptrace/unwind.h"

struct ustate {
	const struct ptk_stop *st;
	int next; /* next_thread cursor */
};

static const struct ptk_stop_thread *thread_of(const struct ptk_stop *st, pid_t tid)
{
	for (int i = 0; i < st->n; i++)
		if (st->t[i].tid == tid && st->t[i].err == 0)
			return &st->t[i];
	return NULL;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct ustate *u = arg;

	while (u->next < u->st->n) {
		const struct ptk_stop_thread *t = &u->st->t[u->next++];
		if (t->err == 0) {
			*thread_argp = (void *)t;
			return t->tid;
		}
	}
	return 0;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	const struct ptk_stop_thread *t = thread_of(((struct ustate *)arg)->st, tid);

	*thread_argp = (void *)t;
	return t != NULL;
}

/* 8 bytes at addr: from a stack copy of the stop, else from the live process. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	const struct ptk_stop *st = ((struct ustate *)arg)->st;

	for (int i = 0; i < st->n; i++) {
		const struct ptk_stop_mem *m = &st->t[i].stack;
		if (m->data && addr >= m->start && addr + sizeof(*result) <= m->start + m->len) {
			memcpy(result, m->data + (addr - m->start), sizeof(*result));
			return true;
		}
	}
	return ptk_stop_read_mem(st->pid, -1, addr, result, sizeof(*result)) ==
	       (ssize_t)sizeof(*result);
}

/* x86_64 DWARF register numbers 0-16: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip (psABI). */
static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	const struct user_regs_struct *r = &((const struct ptk_stop_thread *)thread_arg)->regs;
	Dwarf_Word regs[17] = {
		r->rax, r->rdx, r->rcx, r->rbx, r->rsi, r->rdi, r->rbp, r->rsp, r->r8,
		r->r9,	r->r10, r->r11, r->r12, r->r13, r->r14, r->r15, r->rip,
	};

	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static void detach(Dwfl *dwfl, void *arg)
{
	free(arg);
}

static const Dwfl_Thread_Callbacks callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
	.detach = detach,
};

struct walk {
	struct ptk_symbolizer *s;
	pid_t pid;
	struct ptk_ustack *u;
	int max;
	unsigned flags;
	u64 last_pc, last_sp;
};

static struct ptk_uframe *push(struct walk *w)
{
	w->u->f = xrealloc(w->u->f, (w->u->n + 1) * sizeof(*w->u->f));
	return memset(&w->u->f[w->u->n++], 0, sizeof(*w->u->f));
}

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	Dwarf_Word sp = 0;
	bool act;
	struct ptk_frame inl[16];
	const char *cfile = NULL;
	int cline = 0, ninl = 0;
	u64 at;

	if (!dwfl_frame_pc(frame, &pc, &act))
		return DWARF_CB_ABORT;
	dwfl_frame_reg(frame, 7, &sp); /* rsp: the CFA of the frame above */
	if (w->u->n && pc == w->last_pc && sp == w->last_sp) {
		w->u->err = -ELOOP;
		return DWARF_CB_ABORT;
	}
	w->last_pc = pc;
	w->last_sp = sp;
	if (w->u->n >= w->max) {
		w->u->err = -E2BIG;
		return DWARF_CB_ABORT;
	}
	/* a return address points after the call: look up the call instruction */
	at = act ? pc : pc - 1;
	if (w->flags & PTK_UNWIND_INLINES)
		ninl = ptk_sym_user_inlines(w->s, w->pid, at, inl, ARRAY_SIZE(inl), &cfile, &cline);
	for (int i = 0; i < ninl && w->u->n < w->max - 1; i++) {
		struct ptk_uframe *f = push(w);
		f->pc = pc;
		f->activation = act;
		f->inlined = true;
		f->sym = inl[i];
		f->sym.addr = pc;
	}
	struct ptk_uframe *f = push(w);
	f->pc = pc;
	f->activation = act;
	ptk_sym_user(w->s, w->pid, at, &f->sym);
	f->sym.addr = pc;
	if (f->sym.func)
		f->sym.off += pc - at;
	if (ninl > 0 && cfile) {
		f->sym.file = cfile;
		f->sym.line = cline;
	}
	return DWARF_CB_OK;
}

int ptk_unwind_threads(struct ptk_symbolizer *s, const struct ptk_stop *st, int max_frames,
		       unsigned flags, struct ptk_ustack *out)
{
	Dwfl *dwfl = ptk_sym_dwfl(s, st->pid);
	struct ustate *us;

	if (!dwfl)
		return -ESRCH;
	/* the state lives as long as the Dwfl (the symbolizer's): freed by its detach */
	us = xcalloc(1, sizeof(*us));
	us->st = st;
	if (!dwfl_attach_state(dwfl, NULL, st->pid, &callbacks, us)) {
		free(us);
		return -EINVAL;
	}
	for (int i = 0; i < st->n; i++) {
		struct walk w = { s, st->pid, &out[i], max_frames, flags, 0, 0 };

		memset(&out[i], 0, sizeof(out[i]));
		if (st->t[i].err) {
			out[i].err = st->t[i].err;
			continue;
		}
		if (dwfl_getthread_frames(dwfl, st->t[i].tid, frame_cb, &w) != 0 && !out[i].err) {
			out[i].err = -EIO;
			snprintf(out[i].errmsg, sizeof(out[i].errmsg), "%s", dwfl_errmsg(-1));
		}
	}
	return 0;
}

void ptk_ustack_free(struct ptk_ustack *u)
{
	free(u->f);
	memset(u, 0, sizeof(*u));
}

bool ptk_ustack_same(const struct ptk_ustack *a, const struct ptk_ustack *b)
{
	if (a->n != b->n || a->err != b->err || (a->err && !a->n))
		return false;
	for (int k = 0; k < a->n; k++)
		if (a->f[k].pc != b->f[k].pc || a->f[k].inlined != b->f[k].inlined)
			return false;
	return true;
}
