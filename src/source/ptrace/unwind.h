/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unwind the user stacks of threads held (or just released) by ptk_stop_all(), with libdwfl:
 * DWARF CFI from .eh_frame and .debug_frame, the backend's frame-pointer fallback where a
 * module has no CFI (elfutils backends/x86_64_unwind.c), through signal frames (the 'S' CIE
 * of __restore_rt). The registers are the ones read at the stop; memory reads come from the
 * stack copies taken at the stop, so the target may already run again while we unwind (the
 * pause does not include unwinding). A read outside every copy (a sigaltstack frame's
 * interrupted stack, data a CFI expression points to) falls back to reading the live process.
 * Frames are resolved by the shared symbolizer (src/source/sym), through its per-pid Dwfl.
 */
#ifndef PTK_SOURCE_PTRACE_UNWIND_H
#define PTK_SOURCE_PTRACE_UNWIND_H

#include "source/ptrace/stop.h"
#include "source/sym/sym.h"

struct ptk_uframe {
	u64 pc; /* frame 0 / signal-interrupted frames: the PC; callers: the return address */
	bool activation; /* pc is exact (not a return address): resolved at pc, else pc - 1 */
	bool inlined; /* a function inlined into the next frame of the list (same pc) */
	struct ptk_frame sym; /* function+offset (offset from pc), module, file:line */
};

struct ptk_ustack {
	struct ptk_uframe *f; /* innermost first */
	int n;
	int err; /* 0: the unwinder reached the outermost frame; -ELOOP: PC and CFA
		  * repeated; -E2BIG: max frames reached; -EIO: unwinder error (errmsg) */
	char errmsg[128];
};

enum {
	PTK_UNWIND_INLINES = 1 << 0, /* add inlined functions as frames (DWARF scopes) */
};

/*
 * Unwind every thread of st (out[i] for st->t[i]; threads with t->err get an empty stack
 * with err = t->err). max_frames bounds each stack (including inlined frames). Returns 0, or
 * -errno when the process's modules cannot be read at all (then out is untouched).
 */
int ptk_unwind_threads(struct ptk_symbolizer *s, const struct ptk_stop *st, int max_frames,
		       unsigned flags, struct ptk_ustack *out);

/* The same frames (PCs and inlined marks) ending the same way: pstack's grouping of
 * threads. A stack that failed without frames is never the same as another. */
bool ptk_ustack_same(const struct ptk_ustack *a, const struct ptk_ustack *b);

void ptk_ustack_free(struct ptk_ustack *u);

#endif
