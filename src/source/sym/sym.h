/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one symbolizer: kernel addresses through kallsyms, user addresses through elfutils
 * (libdwfl over /proc/PID/maps, ELF .symtab/.dynsym, DWARF line tables). Used by every tool
 * that prints stacks (offcputime, profile, pstack): they resolve raw addresses into frames
 * and print them with ptk_frame_name()/ptk_frame_fmt(), so the same address always reads the
 * same everywhere.
 *
 * Lifetime: the strings of a struct ptk_frame belong to the symbolizer; they stay valid until
 * ptk_sym_forget() of that pid (user frames; ptk_sym_frame_keep() detaches a frame from it),
 * a new ptk_sym_kernel_prepare() (kernel frames) or ptk_sym_free(). Not thread-safe: one
 * symbolizer per thread.
 */
#ifndef PTK_SOURCE_SYM_SYM_H
#define PTK_SOURCE_SYM_SYM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/util.h"

/* One resolved address. */
struct ptk_frame {
	u64 addr; /* the address looked up */
	const char *func; /* function (symbol) name, NULL when nothing resolves */
	u64 off; /* addr - start of func */
	const char *module; /* kernel: "kernel" or the module name; user: the ELF path as
			     * mapped (e.g. /usr/lib/x86_64-linux-gnu/libc.so.6); NULL unknown */
	const char *file; /* source file (PTK_SYM_LINES and DWARF present), else NULL */
	int line; /* source line, 0 when unknown */
};

/* ---- kallsyms ---- */

/* One text symbol of /proc/kallsyms: "ffffffff81000000 T _stext" or
 * "ffffffffc0a01000 t ext4_foo\t[ext4]". */
struct ptk_ksym {
	u64 addr;
	const char *name;
	const char *module; /* NULL for the core kernel */
};

struct ptk_ksyms {
	struct ptk_ksym *syms; /* sorted by address */
	size_t n;
	char *buf; /* the names (and module names), NUL-separated: name/module point into it */
};

/*
 * Load the text symbols (types t, T, w, W) of a kallsyms file (path NULL: /proc/kallsyms) and
 * sort them by address (the file is not sorted across modules). Returns 0, -errno from
 * reading, -ENOENT when it holds no text symbol, -EPERM when every address reads as 0
 * (kptr_restrict hides them from this user). Source: kernel/kallsyms.c s_show().
 */
int ptk_ksyms_load(const char *path, struct ptk_ksyms *ks);
/*
 * Load only the symbols that contain addrs[0..n-1] (any order, repeats allowed), in one pass
 * over the file: memory in the number of distinct addresses, not in the 120k symbols of the
 * file (~7 MB as a table). ptk_ksyms_find() then answers exactly as over the whole table for
 * these addresses, and only for them. Same errors as ptk_ksyms_load().
 */
int ptk_ksyms_load_addrs(const char *path, const u64 *addrs, size_t n, struct ptk_ksyms *ks);
/* The symbol containing addr (the highest symbol address <= addr), or NULL when addr is below
 * the first symbol. kallsyms has no sizes: an address past the end of the last function of a
 * region resolves to that function. */
const struct ptk_ksym *ptk_ksyms_find(const struct ptk_ksyms *ks, u64 addr);
void ptk_ksyms_free(struct ptk_ksyms *ks);

/* ---- the symbolizer ---- */

enum {
	PTK_SYM_LINES = 1 << 0, /* also resolve file:line (DWARF line tables, when present) */
};

struct ptk_symbolizer;

/* A symbolizer; procfs is the /proc root (NULL = /proc) for kallsyms. Never NULL. */
struct ptk_symbolizer *ptk_sym_new(const char *procfs, unsigned flags);
void ptk_sym_free(struct ptk_symbolizer *s);

/*
 * Resolve a kernel address. Fills *f (f->func NULL when unresolved). Returns 0 when resolved,
 * -ENOENT when not, or the kallsyms load error (e.g. -EPERM), remembered so the file is read
 * once.
 */
int ptk_sym_kernel(struct ptk_symbolizer *s, u64 addr, struct ptk_frame *f);

/*
 * Announce the kernel addresses that ptk_sym_kernel() will be asked for (e.g. every frame of
 * every stack of a report): kallsyms is read once, keeping only the symbols of these
 * addresses (ptk_ksyms_load_addrs) instead of the whole table. An address outside the set
 * still resolves, through the whole table loaded on first need. A new call replaces the set
 * (frames resolved through the old one become invalid). Returns 0 or the kallsyms error, as
 * ptk_sym_kernel() would.
 */
int ptk_sym_kernel_prepare(struct ptk_symbolizer *s, const u64 *addrs, size_t n);

/*
 * Resolve a user address of process pid (any thread id of it works: /proc/TID/maps is the
 * process's). The process's modules come from /proc/PID/maps (dwfl_linux_proc_report),
 * cached per pid; each module's build ID is read from the process's memory and reported to
 * libdwfl, so a file replaced on disk since it was mapped is refused rather than giving wrong
 * names, and separate debuginfo is found by build ID (/usr/lib/debug/.build-id), else by
 * .gnu_debuglink (the debuginfod client only when DEBUGINFOD_URLS is set). Files are
 * opened through /proc/PID/root (processes in containers). An address outside every known
 * module re-reads the maps once (libraries loaded later), keeping the modules known before
 * (frames resolved from them stay valid). The name is the symbol containing addr from
 * .symtab, else .dynsym, without its symbol version ("clock_nanosleep", not
 * "clock_nanosleep@GLIBC_2.2.5"). An address in no module (JIT code in anonymous memory) is
 * looked up in the JIT map /tmp/perf-PID.map ("START SIZE name" lines, hex; read once per pid),
 * f->module then being that file. Returns 0 when a function resolved; -ESRCH (process gone),
 * -ENOENT (no module or no symbol: f->module may still be set).
 */
int ptk_sym_user(struct ptk_symbolizer *s, pid_t pid, u64 addr, struct ptk_frame *f);

/*
 * The functions inlined at user address addr of pid, innermost first, from the DWARF scopes
 * of the compile unit (DW_TAG_inlined_subroutine, names through DW_AT_abstract_origin). Fills
 * out[0..n-1]: func = the inlined function, module, file:line = where addr's code is for
 * out[0] (line table) and the call site of out[i-1] for i > 0 (DW_AT_call_file/_line).
 * *call_file / *call_line get the call site of the outermost one, inside the real function.
 * Returns n (0 when nothing is inlined there or there is no DWARF).
 */
int ptk_sym_user_inlines(struct ptk_symbolizer *s, pid_t pid, u64 addr, struct ptk_frame *out,
			 int max, const char **call_file, int *call_line);

/* Drop the cached modules of pid (it exited, or its pid may be reused). Frames resolved for
 * it before become invalid. */
void ptk_sym_forget(struct ptk_symbolizer *s, pid_t pid);

/* Make a frame outlive ptk_sym_forget(): its strings are replaced by copies owned by the
 * symbolizer (each distinct string kept once), valid until ptk_sym_free(). */
void ptk_sym_frame_keep(struct ptk_symbolizer *s, struct ptk_frame *f);

/* The libdwfl session of pid (modules reported), for unwinders (pstack): NULL when the
 * process cannot be read. Owned by the symbolizer. */
struct Dwfl *ptk_sym_dwfl(struct ptk_symbolizer *s, pid_t pid);

/* ---- stacks, symbolized together ---- */

/* One stack: its raw addresses in, its frames out. */
struct ptk_sym_stack {
	pid_t pid; /* 0: a kernel stack; else a user stack of this process */
	const u64 *ips; /* the addresses, leaf first */
	int n;
	struct ptk_frame *f; /* out: the frames, leaf first (allocated) */
	int nf;
};

enum {
	/* kernel stacks: leave out the leading frames of the tracer itself, when the stack was
	 * taken in a BPF program (the program, bpf_trace_run*, the tracepoint's __traceiter_ and
	 * __bpf_trace_ glue, a trampoline) */
	PTK_SYM_SKIP_TRACER = 1 << 0,
};

/*
 * Symbolize the stacks st[0..n) of one report together: every kernel address through one pass
 * over kallsyms (ptk_sym_kernel_prepare() of all of them, so only their symbols are kept), the
 * user stacks process by process, each process's modules dropped after its last stack
 * (ptk_sym_forget(): one process's ELF files held at a time, not those of every process seen;
 * its frames are kept with ptk_sym_frame_keep()). Kernel frames stay valid until the next
 * ptk_sym_stacks() or ptk_sym_kernel_prepare(), user frames until ptk_sym_free(). Free the
 * frame arrays with ptk_sym_stacks_free().
 */
void ptk_sym_stacks(struct ptk_symbolizer *s, struct ptk_sym_stack *st, size_t n, unsigned flags);
void ptk_sym_stacks_free(struct ptk_sym_stack *st, size_t n);

/* The frame's function name, or "[unknown]" when nothing resolved. */
const char *ptk_frame_name(const struct ptk_frame *f);

enum {
	PTK_FRAME_OFFSET = 1 << 0, /* "func+0x1a" */
	PTK_FRAME_MODULE = 1 << 1, /* " [module basename]" */
	PTK_FRAME_LINE = 1 << 2, /* " (file:line)" when known */
};
/* Format a frame into buf ("[unknown]" when unresolved; with PTK_FRAME_MODULE an unresolved
 * address in a known module reads "[unknown] [libc.so.6]"). Returns the length that the
 * full string has (snprintf semantics). */
int ptk_frame_fmt(const struct ptk_frame *f, unsigned flags, char *buf, size_t size);

#endif
