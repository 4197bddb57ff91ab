/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of a sampled user stack (--call-graph dwarf): the registers and the copy of
 * the stack a sample carries (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER) are handed to
 * libdwfl (dwfl_attach_state with our own thread callbacks on the symbolizer's session of the
 * process; dwfl_getthread_frames walks the CFI of .eh_frame / .debug_frame).
 */
#ifndef PTK_SOURCE_PERF_UNWIND_H
#define PTK_SOURCE_PERF_UNWIND_H

#include "source/perf/perf.h"
#include "source/sym/sym.h"

/* The user registers to ask for (sample_regs_user): AX..IP and R8..R15 of
 * arch/x86/include/uapi/asm/perf_regs.h, the ones DWARF CFI can refer to. */
u64 ptk_unwind_regs_mask(void);

/*
 * Unwind the user stack of sample s (process pid) into ips[] (leaf first: the sampled IP,
 * then return addresses), at most max. Memory reads inside the stack copy come from it;
 * anything else is not available (the sample's moment is gone). Returns the number of frames
 * (>= 1 when the sample has user registers), 0 when it has none, or -ESRCH when the process's
 * modules cannot be read (it exited before we saw it), -ENOTSUP on a non-x86_64 build.
 */
int ptk_unwind_dwarf(struct ptk_symbolizer *sym, pid_t pid, const struct ptk_perf_sample *s,
		     u64 *ips, int max);

enum {
	PTK_UNWIND_TRUNCATED = 1 << 0, /* a read past the copied bytes: the stack went on */
	PTK_UNWIND_GUESSED = 1 << 1, /* a frame without CFI: the step from it was a guess */
};
/*
 * The same, and *flags (may be NULL) says how it ended. Where a frame has no call frame
 * information (JIT code), or the copy ended before the stack (truncated), an address 0 stands
 * in ips[] for the callers that may be missing (symbolized "[unknown]"), never a caller
 * skipped silently.
 */
int ptk_unwind_dwarf_ex(struct ptk_symbolizer *sym, pid_t pid, const struct ptk_perf_sample *s,
			u64 *ips, int max, unsigned *flags);

#endif
