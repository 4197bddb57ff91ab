/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What goes into a core file of a live process, chosen as the kernel chooses it when it dumps
 * core (fs/coredump.c, fs/binfmt_elf.c): which mappings and how much of each (the
 * coredump_filter rules of vma_dump_size()), the NT_FILE table, and the values of the
 * NT_PRSTATUS / NT_PRPSINFO notes read from /proc. Readers return 0 or -errno.
 */
#ifndef PTK_SOURCE_PTRACE_CORE_H
#define PTK_SOURCE_PTRACE_CORE_H

#include <stdbool.h>
#include <sys/procfs.h>
#include <sys/types.h>

#include "lib/util.h"
#include "source/procfs/smaps.h"

/* /proc/PID/coredump_filter bits (Documentation/filesystems/proc.rst, MMF_DUMP_*). */
enum {
	PTK_DUMP_ANON_PRIVATE = 1 << 0,
	PTK_DUMP_ANON_SHARED = 1 << 1,
	PTK_DUMP_MAPPED_PRIVATE = 1 << 2,
	PTK_DUMP_MAPPED_SHARED = 1 << 3,
	PTK_DUMP_ELF_HEADERS = 1 << 4,
	PTK_DUMP_HUGETLB_PRIVATE = 1 << 5,
	PTK_DUMP_HUGETLB_SHARED = 1 << 6,
	PTK_DUMP_DAX_PRIVATE = 1 << 7,
	PTK_DUMP_DAX_SHARED = 1 << 8,
	PTK_DUMP_DEFAULT = 0x33, /* kernel default (MMF_DUMP_FILTER_DEFAULT) */
};

/* One mapping as the dump rules see it, from /proc/PID/smaps. */
struct ptk_core_vma {
	u64 start, end, offset; /* offset: file offset in bytes */
	bool r, w, x, shared; /* perms; shared = VmFlags "sh" (VM_SHARED), else perms 's' */
	bool file; /* file-backed (path starts with '/'): vma->vm_file != NULL */
	bool file_gone; /* " (deleted)" file: i_nlink == 0 (shmem of MAP_SHARED|ANON, SysV) */
	bool special; /* [vdso], [vsyscall]: always dumped (always_dump_vma) */
	bool dontdump, io, hugetlb; /* VmFlags dd, io, ht */
	bool anon_pages; /* Anonymous + Swap > 0: has an anon_vma (pages written) */
	bool exec_file; /* the file has an execute bit (ELF_HEADERS rule) */
	bool elf_magic; /* its first page in memory starts with \177ELF */
	const char *path; /* "" for anonymous */
};

/*
 * Bytes of v to dump under filter (fs/coredump.c vma_dump_size()): 0, one page (ELF_HEADERS:
 * the first page of an executable or ELF file mapping), or the whole mapping. all = -a:
 * every mapping not VM_DONTDUMP / VM_IO, whole.
 */
u64 ptk_core_dump_size(const struct ptk_core_vma *v, unsigned filter, bool all);

/* Fill v from one smaps entry (m, of s). Does not set exec_file / elf_magic. */
void ptk_core_vma_from_smap(const struct ptk_smaps *s, const struct ptk_smap *m,
			    struct ptk_core_vma *v);

/* The NT_FILE note body for the file-backed mappings (fs/binfmt_elf.c fill_files_note():
 * count, page size, {start, end, offset in pages} each, then the NUL-terminated names).
 * Returns a malloc'd buffer, its length in *len. */
void *ptk_core_nt_file(const struct ptk_core_vma *v, int n, size_t *len);

/* Per-thread /proc values of NT_PRSTATUS (fs/binfmt_elf.c fill_prstatus()): pid/ppid/pgrp/
 * sid, utime/stime (the leader: the whole process, as thread_group_cputime()), children
 * times, pending and blocked signals (status SigPnd, SigBlk). pr_reg, pr_cursig and pr_info
 * are the caller's. Returns 0 or -errno (-ENOENT: thread gone). */
int ptk_core_prstatus(pid_t pid, pid_t tid, struct elf_prstatus *ps);

/* NT_PRPSINFO (fs/binfmt_elf.c fill_psinfo()): state, nice, flags, uid/gid, ids, comm and
 * the first 80 bytes of the command line. Returns 0 or -errno. */
int ptk_core_prpsinfo(pid_t pid, struct elf_prpsinfo *pi);

/* /proc/PID/coredump_filter (hex). Returns 0 or -errno. */
int ptk_core_filter(pid_t pid, unsigned *filter);

/* What a dump of a process covers: its mappings (smaps) with the facts the dump rules
 * need, exec_file and elf_magic included. */
struct ptk_core_plan {
	struct ptk_smaps sm;
	struct ptk_core_vma *v;
	int n; /* v[] entries, one per smaps mapping */
};

/* Read the plan of pid (its smaps, the file modes under /proc/PID/root, the first bytes of
 * file mappings in memory). Returns 0 or -errno of the smaps read. */
int ptk_core_plan_read(const struct ptk_src *src, pid_t pid, struct ptk_core_plan *p);
/* Did the mappings change since the plan (a mmap, munmap or mprotect meanwhile)? */
bool ptk_core_plan_stale(const struct ptk_src *src, pid_t pid, const struct ptk_core_plan *p);
void ptk_core_plan_free(struct ptk_core_plan *p);

/* The /proc part of one thread's NT_PRSTATUS (ptk_core_prstatus), read before the stop. */
struct ptk_core_thread {
	pid_t tid;
	struct elf_prstatus ps;
};
/* Every thread of pid (/proc/PID/task) whose status could be read; *n of them. Returns a
 * malloc'd array (NULL when none). */
struct ptk_core_thread *ptk_core_threads_read(pid_t pid, int *n);

#endif
