/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader of /proc/PID/smaps and /proc/PID/maps (fs/proc/task_mmu.c: show_map_vma() prints the
 * header line of each mapping, show_smap() its "Key: value kB" lines and VmFlags). Fields
 * are kept generically, by name in file order, so a kernel that adds one (Pss_Dirty in 6.0,
 * KSM in 6.7) is shown without a code change; the ones ptk pmap totals are also pulled out
 * by name. Readers return 0 or -errno and never print.
 */
#ifndef PTK_SOURCE_PROCFS_SMAPS_H
#define PTK_SOURCE_PROCFS_SMAPS_H

#include <stdbool.h>

#include "lib/util.h"
#include "source/root.h"

#define PTK_SMAPS_MAXF 64 /* distinct smaps keys kept (6.18 prints 25) */

/* One mapping (one VMA). */
struct ptk_smap {
	u64 start, end; /* [start, end) virtual addresses */
	char perms[8]; /* "r-xp": read, write, exec, p(rivate)/s(hared) */
	u64 offset; /* file offset, bytes */
	unsigned dev_major, dev_minor;
	u64 inode; /* 0 for anonymous mappings */
	char start_s[20]; /* start as the kernel printed it ("%08lx") */
	char offset_s[20]; /* offset as printed ("%08llx") */
	char dev_s[16]; /* "fe:00" as printed */
	char inode_s[24]; /* inode as printed (decimal) */
	char *path; /* everything after the inode column, spaces and a trailing
				 * " (deleted)" included; "" for anonymous; "[heap]",
				 * "[stack]", "[vdso]", "[anon:name]" as the kernel names them */
	u64 val[PTK_SMAPS_MAXF]; /* values by field index (struct ptk_smaps.field) */
	u64 have; /* bit i set: val[i] was present for this mapping */
	char *vmflags; /* "rd mr mw me" (VmFlags, trailing space dropped); NULL if absent */
};

/* Field indexes pulled out by name (-1 when this kernel does not print the field). */
enum ptk_smaps_key {
	PTK_SM_SIZE, /* Size: virtual size, kB */
	PTK_SM_RSS, /* Rss: resident, kB */
	PTK_SM_PSS, /* Pss: proportional share of Rss, kB */
	PTK_SM_SHARED_DIRTY, /* Shared_Dirty, kB */
	PTK_SM_PRIVATE_DIRTY, /* Private_Dirty, kB */
	PTK_SM_SWAP, /* Swap, kB */
	PTK_SM_NKEYS
};

struct ptk_smaps {
	int n, cap;
	struct ptk_smap *m; /* in address order, as the kernel lists them */
	int nfields;
	char field[PTK_SMAPS_MAXF][32]; /* key names in file order: "Size", "Rss", ... */
	bool field_kb[PTK_SMAPS_MAXF]; /* the value carried " kB" (THPeligible does not) */
	int key[PTK_SM_NKEYS]; /* field index of each ptk_smaps_key, or -1 */
	bool has_vmflags; /* some mapping had a VmFlags line */
	bool truncated; /* the text ended inside an entry (process exited mid-read): that last
			 * entry was dropped, the others are whole */
};

/*
 * Parse smaps (or maps: header lines only) text of len bytes into s (zeroed or freed
 * first). A final line without '\n', or a final entry missing keys that the entries before
 * it had, is dropped and s->truncated set. Returns 0, or -EINVAL on a line that is neither
 * a mapping header nor "Key: value".
 */
int ptk_smaps_parse(const char *buf, size_t len, struct ptk_smaps *s);

/*
 * Read <procfs>/PID/smaps (full = true) or <procfs>/PID/maps into s.
 * Returns 0; -ENOENT when there is no such process; -EACCES when we may not read its
 * memory map (another user's process, ptrace_may_access() in fs/proc/base.c); -EINVAL on
 * text that does not parse. A kernel thread has no mappings (s->n == 0).
 */
int ptk_smaps_read(const struct ptk_src *src, int pid, bool full, struct ptk_smaps *s);

/* Value of key k of mapping m into *v (kB). Returns false when absent. */
bool ptk_smap_get(const struct ptk_smaps *s, const struct ptk_smap *m, enum ptk_smaps_key k,
		  u64 *v);

/* Dirty kB of mapping m: Shared_Dirty + Private_Dirty (either alone when the other is
 * absent). false when neither is present. */
bool ptk_smap_dirty(const struct ptk_smaps *s, const struct ptk_smap *m, u64 *kb);

/* The totals of a process's mappings, as pmap -x, -d and --json print them, kB. */
struct ptk_smaps_totals {
	u64 size_kb; /* sum of each mapping's (end - start) >> 10 (pmap's Kbytes) */
	u64 rss_kb, pss_kb, dirty_kb, swap_kb; /* sums over the mappings that have the field */
	bool rss_ok, pss_ok, dirty_ok, swap_ok; /* some mapping had it */
	u64 mapped_kb; /* all mappings' bytes >> 10 (pmap -d "mapped") */
	u64 wpriv_kb; /* writeable private ("rw-p") bytes >> 10 ("writeable/private") */
	u64 shared_kb; /* shared ("...s") bytes >> 10 ("shared") */
};

/* Sum the mappings of s into t. */
void ptk_smaps_totals(const struct ptk_smaps *s, struct ptk_smaps_totals *t);

/* Sum of field i (struct ptk_smaps.field) over the mappings that have it; 0 for i < 0. */
u64 ptk_smaps_field_sum(const struct ptk_smaps *s, int i);

/* Index of the field named name, or -1. */
int ptk_smaps_field(const struct ptk_smaps *s, const char *name);

void ptk_smaps_free(struct ptk_smaps *s);

/*
 * Start of the main thread's stack, <procfs>/PID/stat field 28 (startstack), as pmap uses it
 * to label "[ stack ]". Returns 0 or -errno (-ENOENT gone, -EINVAL unparsable).
 */
int ptk_smaps_startstack(const struct ptk_src *src, int pid, u64 *addr);

/*
 * The command line as pmap's first line shows it: <procfs>/PID/cmdline arguments joined by
 * spaces, control characters escaped; "[comm]" (from stat) when empty, as for a kernel
 * thread. Returns a malloc'd string, or NULL with errno set (ENOENT when gone).
 */
char *ptk_smaps_cmdline(const struct ptk_src *src, int pid);

#endif
