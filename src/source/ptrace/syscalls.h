/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 system call table: name, argument decoders and trace classes of every number,
 * generated (scripts/gen-syscalls.sh) from the declarative list syscalls.list into
 * syscallent.h, as designated initializers indexed by number.
 */
#ifndef PTK_SOURCE_PTRACE_SYSCALLS_H
#define PTK_SOURCE_PTRACE_SYSCALLS_H

#include <stdbool.h>

#include "source/ptrace/syscallent.h"
#include "source/ptrace/xlat.h"

/* Trace classes (strace -e trace=%NAME). */
enum {
	TD = 1 << 0, /* %desc: takes or returns a file descriptor */
	TF = 1 << 1, /* %file: takes a file name */
	TN = 1 << 2, /* %network */
	TP = 1 << 3, /* %process: process lifecycle */
	TS = 1 << 4, /* %signal */
	TI = 1 << 5, /* %ipc: SysV IPC */
	TM = 1 << 6, /* %memory: memory mapping */
	TC = 1 << 7, /* %creds: user/group ids, capabilities */
	TCL = 1 << 8, /* %clock: read or change system clocks */
};

/* Argument (and return value) decoders; see syscalls.list for their meaning. */
enum ptk_sarg {
	SA_NONE = 0,
	SA_D,
	SA_LD,
	SA_U,
	SA_X,
	SA_P,
	SA_O,
	SA_FD,
	SA_DFD,
	SA_PATH,
	SA_STR,
	SA_IBUF,
	SA_OBUF,
	SA_OBUFS,
	SA_IOV,
	SA_OIOV,
	SA_OFLAGS,
	SA_OMODE,
	SA_MODE,
	SA_OFL,
	SA_ATFL,
	SA_ACC,
	SA_PROT,
	SA_MAPFL,
	SA_SIG,
	SA_SIGSET,
	SA_OSIGSET,
	SA_SIGHOW,
	SA_SIGACT,
	SA_OSIGACT,
	SA_IOREQ,
	SA_IOARG,
	SA_OSTAT,
	SA_ITS,
	SA_OTS,
	SA_ISA,
	SA_OSA,
	SA_OSALEN,
	SA_FAM,
	SA_STYPE,
	SA_SPROTO,
	SA_SOCKFL,
	SA_MSGFL,
	SA_CLK,
	SA_TMFL,
	SA_WHENCE,
	SA_CLONEFLAGS,
	SA_ARGV,
	SA_ENVP,
	SA_OWSTATUS,
	SA_WOPTS,
	SA_OPIPE,
	SA_FCNTLCMD,
	SA_FCNTLARG,
	SA_ARCHCODE,
	SA_ODENTS,
	SA_UI,
	SA_XI,
	SA_V,
	SA_VL,
	SA_VD,
	SA_F,
	SA_FL,
	SA_FX,
	/* structs and arrays (decode.c): i in at entry, o out at exit */
	SA_IRLIM,
	SA_ORLIM,
	SA_ORUSAGE,
	SA_IITSPEC,
	SA_OITSPEC,
	SA_IEPEV,
	SA_OEPEVS,
	SA_SIGSETSZ,
	SA_OSIGSETSZ,
	SA_LOHI,
	SA_STATXFL,
	SA_OSTATX,
	SA_OMINCORE,
	SA_OUTS,
	SA_OSYSINFO,
	SA_OTMS,
	SA_OTV,
	SA_ITV,
	SA_OITV,
	SA_IITV,
	SA_ISTK,
	SA_OSTK,
	SA_OSIGINFO,
	SA_ISIGINFO,
	SA_ISIGEV,
	SA_OTIMERID,
	SA_OCPUSET,
	SA_ICPUSET,
	SA_IOOFF,
	SA_POLLFDS,
	SA_FDSET,
	SA_OTVSEL,
	SA_OTSSEL,
	SA_PSIGMASK,
	SA_ITS2,
	SA_OTIME,
	SA_FUTEX,
	SA_MEMFDFL,
	SA_MREMAP_ADDR,
	SA_ITZ,
	SA_OTZ,
	SA_IMSG,
	SA_OMSG,
	SA_SONAME,
	SA_ISOVAL,
	SA_OSOVAL,
	SA_NTYPES
};

struct ptk_syscall {
	const char *name; /* NULL: number not assigned on x86_64 */
	unsigned char nargs;
	unsigned short cls; /* TD | TF ... */
	unsigned char ret; /* enum ptk_sarg: SA_D, SA_X, SA_FD, SA_O */
	unsigned char args[6]; /* enum ptk_sarg */
	const struct ptk_xlat *xl[6]; /* the table of a v:, f: ... argument */
};

#define PTK_NSYSCALLS (PTK_SYSCALL_MAX_NR + 1)
extern const struct ptk_syscall ptk_syscalls[PTK_NSYSCALLS];

/* The entry of a syscall number, or NULL when the number is not assigned. */
const struct ptk_syscall *ptk_syscall_get(long nr);

/* Number of a syscall name ("openat" -> 257), or -1. */
int ptk_syscall_lookup(const char *name);

/* Class bit of a class name without '%' ("file" -> TF; "desc", "network"/"net", "process",
 * "signal", "ipc", "memory", "creds", "clock"), or 0 when unknown. */
unsigned ptk_syscall_class(const char *name);

/*
 * Parse a strace -e trace= expression into sel[PTK_NSYSCALLS]: comma-separated syscall
 * names and %classes, "all", "none", a leading '!' negates the whole set. Returns 0, or
 * -EINVAL with *bad pointing at the unknown token (inside the caller's string copy).
 */
int ptk_syscall_parse_set(char *expr, bool *sel, const char **bad);

#endif
