// SPDX-License-Identifier: GPL-2.0
/* DWARF unwinding of sampled user stacks through libdwfl (facts from perf's
 * util/unwind-libdw.c: the callbacks read the copied stack, registers in DWARF order). */
#include "source/perf/unwind.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <string.h>

#if defined(__x86_64__)
#include <asm/perf_regs.h>

u64 ptk_unwind_regs_mask(void)
{
	u64 m = 0;

	for (int r = PERF_REG_X86_AX; r <= PERF_REG_X86_IP; r++)
		m |= 1ull << r;
	for (int r = PERF_REG_X86_R8; r <= PERF_REG_X86_R15; r++)
		m |= 1ull << r;
	return m;
}

/* The sample being unwound: the session's callbacks are fixed at attach time, so they read
 * the current sample from here (one symbolizer per thread, see sym.h). */
struct uw {
	const struct ptk_perf_sample *s;
	Dwfl *dwfl;
	u64 *ips;
	int n, max;
	unsigned flags; /* PTK_UNWIND_* */
};
static struct uw cur;

static pid_t uw_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0; /* no enumeration: only dwfl_getthread_frames(tid) is used */
}

static bool uw_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	const struct ptk_perf_sample *s = cur.s;
	u64 sp;

	if (!s || !s->stack)
		return false;
	sp = s->regs[PERF_REG_X86_SP];
	if (addr < sp || addr + sizeof(*result) > sp + s->stack_size) {
		/* above the copy: the stack went on past the bytes taken */
		if (addr >= sp + s->stack_size && addr < sp + s->stack_size + (1 << 20))
			cur.flags |= PTK_UNWIND_TRUNCATED;
		return false;
	}
	memcpy(result, (const char *)s->stack + (addr - sp), sizeof(*result));
	return true;
}

static bool uw_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const u64 *r = cur.s->regs;
	/* DWARF register numbers of x86_64: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
	Dwarf_Word d[17] = {
		r[PERF_REG_X86_AX],  r[PERF_REG_X86_DX],  r[PERF_REG_X86_CX],  r[PERF_REG_X86_BX],
		r[PERF_REG_X86_SI],  r[PERF_REG_X86_DI],  r[PERF_REG_X86_BP],  r[PERF_REG_X86_SP],
		r[PERF_REG_X86_R8],  r[PERF_REG_X86_R9],  r[PERF_REG_X86_R10], r[PERF_REG_X86_R11],
		r[PERF_REG_X86_R12], r[PERF_REG_X86_R13], r[PERF_REG_X86_R14], r[PERF_REG_X86_R15],
		r[PERF_REG_X86_IP],
	};

	return dwfl_thread_state_registers(thread, 0, 17, d);
}

static const Dwfl_Thread_Callbacks callbacks = {
	.next_thread = uw_next_thread,
	.get_thread = uw_get_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_set_initial_registers,
};

/* Does the code at pc have call frame information (.eh_frame or .debug_frame)? JIT code in
 * anonymous memory has none. */
static bool has_cfi(Dwfl *dwfl, Dwarf_Addr pc)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, pc);
	Dwarf_Addr bias;

	return m && (dwfl_module_eh_cfi(m, &bias) || dwfl_module_dwarf_cfi(m, &bias));
}

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	cur.ips[cur.n++] = pc;
	if (cur.n >= cur.max)
		return DWARF_CB_ABORT;
	/* without CFI libdwfl's next step is a frame-pointer guess that may skip callers:
	 * say so with a frame of its own (address 0, "[unknown]") */
	if (!has_cfi(cur.dwfl, activation ? pc : pc - 1)) {
		cur.flags |= PTK_UNWIND_GUESSED;
		cur.ips[cur.n++] = 0;
	}
	return cur.n < cur.max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int ptk_unwind_dwarf(struct ptk_symbolizer *sym, pid_t pid, const struct ptk_perf_sample *s,
		     u64 *ips, int max)
{
	return ptk_unwind_dwarf_ex(sym, pid, s, ips, max, NULL);
}

int ptk_unwind_dwarf_ex(struct ptk_symbolizer *sym, pid_t pid, const struct ptk_perf_sample *s,
			u64 *ips, int max, unsigned *flags)
{
	Dwfl *dwfl;

	if (flags)
		*flags = 0;
	if (!s->regs_abi || max <= 0)
		return 0;
	dwfl = ptk_sym_dwfl(sym, pid);
	if (!dwfl) {
		ips[0] = s->regs[PERF_REG_X86_IP];
		return -ESRCH;
	}
	/* attach once per session; dwfl_pid() is -1 until then */
	if (dwfl_pid(dwfl) < 0 && !dwfl_attach_state(dwfl, NULL, pid, &callbacks, NULL)) {
		ips[0] = s->regs[PERF_REG_X86_IP];
		return 1;
	}
	cur = (struct uw){ .s = s, .dwfl = dwfl, .ips = ips, .max = max };
	/* the end of the stack reads as an error in most cases: keep the frames found */
	dwfl_getthread_frames(dwfl, s->tid ? (pid_t)s->tid : pid, uw_frame, NULL);
	if (!cur.n)
		ips[cur.n++] = s->regs[PERF_REG_X86_IP];
	/* the copy ended before the stack did: the outermost callers are missing */
	if ((cur.flags & PTK_UNWIND_TRUNCATED) && cur.n < max && ips[cur.n - 1])
		ips[cur.n++] = 0;
	if (flags)
		*flags = cur.flags;
	cur.s = NULL;
	return cur.n;
}
#else
u64 ptk_unwind_regs_mask(void)
{
	return 0;
}

int ptk_unwind_dwarf(struct ptk_symbolizer *sym, pid_t pid, const struct ptk_perf_sample *s,
		     u64 *ips, int max)
{
	return -ENOTSUP;
}

int ptk_unwind_dwarf_ex(struct ptk_symbolizer *sym, pid_t pid, const struct ptk_perf_sample *s,
			u64 *ips, int max, unsigned *flags)
{
	if (flags)
		*flags = 0;
	return -ENOTSUP;
}
#endif
