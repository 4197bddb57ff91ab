/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probes: the one place where a probe written by a user or a tool is parsed, resolved to the
 * places it attaches to (its targets), attached and detached. The kinds, as bpftrace writes
 * them (with its short aliases):
 *
 *	CAT:EVENT, tracepoint:CAT:EVENT, t:	a tracepoint (wildcards: sched:sched_*)
 *	fentry:FUNC, kfunc:, fexit:FUNC, kretfunc:	a kernel function's entry / return
 *						through a BPF trampoline (arguments by
 *						their BTF names; retval at fexit)
 *	kprobe:FUNC[+OFF], k:, kretprobe:FUNC, kr:	a kprobe; without +OFF, fentry/fexit
 *						when the kernel has trampolines
 *	uprobe:PATH:FUNC[+OFF], u:, uretprobe:PATH:FUNC, ur:	a user function (arg0..arg5,
 *						retval at the return)
 *	usdt:PATH:PROVIDER:NAME, usdt:PATH:NAME, U:	a USDT probe of .note.stapsdt
 *						(its arguments from the note; semaphores
 *						counted by the kernel)
 *
 * FUNC and NAME may be patterns (fnmatch: vfs_*, str*): every match is a target. PATH is a
 * file, a program found in $PATH, or a library by name (c, libc, libc.so.6) found among
 * those mapped by the process of pid (-p), else in the system's library directories.
 *
 * Errors: 0, -EINVAL for a probe that cannot be (bad syntax, no such function: a usage error)
 * or another -errno; the one-line reason is in err.
 */
#ifndef PTK_SOURCE_BPF_PROBE_H
#define PTK_SOURCE_BPF_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"
#include "source/sym/elfsym.h"
#include "source/tracefs/tracefs.h"

enum ptk_probe_kind {
	PTK_PROBE_TP = 0,
	PTK_PROBE_FENTRY,
	PTK_PROBE_FEXIT,
	PTK_PROBE_KPROBE,
	PTK_PROBE_KRETPROBE,
	PTK_PROBE_UPROBE,
	PTK_PROBE_URETPROBE,
	PTK_PROBE_USDT,
};

/* The kind's name as written ("tracepoint", "fentry", "uprobe"...). */
const char *ptk_probe_kind_name(enum ptk_probe_kind k);
/* Is it a probe at a function's return (fexit, kretprobe, uretprobe)? */
bool ptk_probe_is_return(enum ptk_probe_kind k);
/* Does its program see pt_regs (kprobes, uprobes, USDT)? */
bool ptk_probe_has_regs(enum ptk_probe_kind k);
/* The return kind of an entry kind (uprobe -> uretprobe...), or -1 when it has none. */
int ptk_probe_return_kind(enum ptk_probe_kind k);

#define PTK_USDT_MAX_ARGS 12
#define PTK_PROBE_MAX_ARGS 12

/* One place a probe attaches to. */
struct ptk_probe_target {
	char name
		[160]; /* as rows and banners show it: "vfs_read", "malloc", "sched:sched_switch" */
	u64 off; /* uprobe, USDT: the file offset; kprobe: the offset into the function */
	u64 ref_ctr; /* USDT: the semaphore's file offset (0: none) */
	u32 btf_id; /* fentry/fexit: the function's id in vmlinux BTF */
	int layout; /* USDT: the index of its argument layout (ptk_probe.usdt[]) */
	bool opened; /* its perf event was opened ahead (ptk_probe_preopen_start): */
	int pfd; /* its fd, or -errno */
};

/* A USDT probe's argument layout, shared by the sites that have the same one. */
struct ptk_usdt_layout {
	char args[256];
	int nargs;
	struct ptk_usdt_arg arg[PTK_USDT_MAX_ARGS];
};

/* A kernel function's argument (fentry/fexit), from its BTF prototype. */
struct ptk_probe_arg {
	char name[64];
	u32 type_id;
};

struct btf;

struct ptk_probe {
	enum ptk_probe_kind kind;
	char spec[256]; /* as written */
	bool chosen; /* written kprobe:/kretprobe:, and ptk chose fentry/fexit */
	/* ---- parsed ---- */
	char cat[128], name[128]; /* tracepoint: category and event (or their patterns) */
	char field[64]; /* a tracepoint of a latency pair: "CAT:EVENT:FIELD" */
	char path[PATH_MAX]; /* uprobe, USDT: the file as written, then resolved */
	char func[128]; /* a function (pattern); USDT: the probe's name (pattern) */
	char provider[64]; /* USDT ("" any) */
	u64 func_off; /* +OFF */
	bool wildcard;
	int pid; /* uprobes, USDT: only in this process (0: all) */
	/* ---- resolved (ptk_probe_resolve) ---- */
	size_t ntargets;
	struct ptk_probe_target *targets;
	struct ptk_tp_format fmt; /* a tracepoint that is no pattern: its record */
	bool have_fmt;
	int nargs; /* fentry/fexit, one function: its arguments */
	struct ptk_probe_arg args[PTK_PROBE_MAX_ARGS];
	u32 ret_type; /* its return type (0: void) */
	struct btf *btf; /* the kernel's BTF they are described by (shared, not owned) */
	int nlayouts; /* USDT: the argument layouts of its sites */
	struct ptk_usdt_layout *usdt;
};

/*
 * Parse spec into p (its syntax only; p zeroed first). with_field: a tracepoint may end in
 * ":FIELD" (the match field of a latency pair). 0 or -EINVAL.
 */
int ptk_probe_parse(const char *spec, bool with_field, struct ptk_probe *p, char *err,
		    size_t errsz);

/*
 * Resolve p's targets: tracepoints in tracefs (and the record of one), functions in BTF or
 * in the ELF file's symbols, USDT sites in its notes; kprobe: becomes fentry where the kernel
 * has trampolines. pid: -p (a library by name among its mappings; uprobes only there).
 * 0, -EINVAL (no match: a usage error), -EOPNOTSUPP (the kernel lacks the probe type: the
 * reason in err), or -errno.
 */
int ptk_probe_resolve(struct ptk_probe *p, int pid, char *err, size_t errsz);

/*
 * A probe in the notation of bcc and libbpf-tools (funccount, stackcount, funclatency, trace)
 * into ours: FUNC and p:FUNC a kernel function (kprobe:, so fentry where it loads), r:FUNC
 * its return; LIB:FUNC, p:LIB:FUNC a user function (uprobe:), r:LIB:FUNC its return, :FUNC
 * a function of -p's binary; t:CAT:EVENT a tracepoint; u:LIB:PROBE a USDT probe; a probe
 * already in ours ("uprobe:...") as it is. 0 or -EINVAL.
 */
int ptk_probe_from_bcc(const char *in, char *out, size_t size, char *err, size_t errsz);

/*
 * The file a probe's PATH names (as resolve finds it): a path, a program in $PATH, a library
 * by name (among pid's mappings first when pid > 0), "" the binary of pid. 0, or -EINVAL
 * with the reason in err.
 */
int ptk_probe_file(const char *name, int pid, char *out, size_t size, char *err, size_t errsz);

/* Free what resolve allocated (the targets, layouts). */
void ptk_probe_free(struct ptk_probe *p);

/* The kernel's BTF of the probes (loaded on first need), freed by ptk_probe_btf_release(). */
struct btf *ptk_probe_btf(void);
void ptk_probe_btf_release(void);

/*
 * Attach the loaded program prog_fd (of the type the kind needs: tracepoint, kprobe for
 * pt_regs probes, tracing for fentry/fexit loaded for this target) to target t of p, with
 * cookie (bpf_get_attach_cookie()); a perf event opened ahead for t is used (and is then
 * the link's). Returns the link fd (close it to detach) or -errno.
 */
int ptk_probe_attach(const struct ptk_probe *p, struct ptk_probe_target *t, int prog_fd,
		     u64 cookie);

/*
 * The perf events of uprobe, USDT and kprobe targets, opened ahead in a thread while the
 * caller loads its programs. Creating a uprobe waits for an RCU grace period (uprobe_register
 * takes dup_mmap_sem, a percpu rw-semaphore, for writing): 6-25 ms of sleep on this machine,
 * more than the verifier's work, which it then overlaps. Until its program is attached an
 * event fires into no buffer and no program: the probed process sees the same trap it will
 * see traced. start: 0, or -errno when the thread cannot start (the events are then opened
 * at attach, as without it). wait: until every event is open (or failed: t->pfd). end: the
 * thread stopped (no event opened after it), then the events no link took closed.
 */
struct ptk_probe_preopen {
	struct ptk_probe *probes;
	int n;
	bool running;
	bool cancel; /* set by end: the thread opens no more */
	unsigned long thread; /* pthread_t */
};
int ptk_probe_preopen_start(struct ptk_probe_preopen *po, struct ptk_probe *probes, int n);
void ptk_probe_preopen_wait(struct ptk_probe_preopen *po);
void ptk_probe_preopen_end(struct ptk_probe_preopen *po);

/* A frozen BPF array map holding ro (rosz bytes), to stand for a program's .rodata in a copy
 * (ptk_probe_prog_copy). Returns its fd or -errno. */
int ptk_probe_rodata(const void *ro, size_t rosz);

struct bpf_program;
/*
 * Load a copy of the loaded libbpf program tmpl (its instructions as libbpf loaded them),
 * reading the map ro_fd (ptk_probe_rodata) wherever it read the object's .rodata map
 * rodata_fd (ro_fd < 0: the same data), and for fentry/fexit attached to the function of
 * BTF id btf_id. The verifier sees the copy's data as constants, as the original's. Returns
 * the program fd or -errno.
 */
int ptk_probe_prog_copy(const struct bpf_program *tmpl, int rodata_fd, int ro_fd, u32 btf_id);

#endif
