/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ELF core file writer (ET_CORE, ELFCLASS64, this machine's e_machine), laid out as the
 * kernel's binfmt_elf.c elf_core_dump() does: ELF header, program headers (one PT_NOTE, then
 * one PT_LOAD per mapping), the notes, padding to a page, then the PT_LOAD contents in order.
 * More than 65534 program headers use the PN_XNUM escape (e_phnum in section header 0's
 * sh_info, as the kernel's fill_extnum_info()).
 *
 *   ptk_elfcore_note() ... ptk_elfcore_seg() ...  build the layout
 *   ptk_elfcore_write_headers(c, fd)               header, program headers, notes
 *   pwrite(fd, data, len, ptk_elfcore_seg_offset(c, i) + off)   segment contents
 *   ptk_elfcore_finish(c, fd)                      the file gets its full length: pages
 *                                                  never written read back as zeros
 */
#ifndef PTK_OUTPUT_ELFCORE_H
#define PTK_OUTPUT_ELFCORE_H

#include <stddef.h>

#include "lib/util.h"

struct ptk_elfcore_note {
	const char *name; /* "CORE", "LINUX" */
	u32 type; /* NT_PRSTATUS, ... (elf.h) */
	void *desc; /* owned copy */
	size_t len;
};

struct ptk_elfcore_seg {
	u64 vaddr, memsz, filesz; /* filesz <= memsz: bytes stored in the file */
	u32 flags; /* PF_R | PF_W | PF_X */
	u64 offset; /* file offset (after ptk_elfcore_write_headers) */
};

struct ptk_elfcore {
	struct ptk_elfcore_note *notes;
	int nnotes, capnotes;
	struct ptk_elfcore_seg *segs;
	int nsegs, capsegs;
	u64 size; /* whole file, after ptk_elfcore_write_headers */
};

/* Append a note (desc copied). Notes are written in the order appended. */
void ptk_elfcore_note(struct ptk_elfcore *c, const char *name, u32 type, const void *desc,
		      size_t len);
/* Append a PT_LOAD. Returns its index. */
int ptk_elfcore_seg(struct ptk_elfcore *c, u64 vaddr, u64 memsz, u64 filesz, u32 flags);

/* Lay out and write the ELF header, program headers and notes at the start of fd. Sets each
 * segment's offset and c->size. Returns 0 or -errno. */
int ptk_elfcore_write_headers(struct ptk_elfcore *c, int fd);
static inline u64 ptk_elfcore_seg_offset(const struct ptk_elfcore *c, int i)
{
	return c->segs[i].offset;
}
/* Extend fd to c->size (trailing pages not written become holes) and write the PN_XNUM
 * section header when needed. Returns 0 or -errno. */
int ptk_elfcore_finish(struct ptk_elfcore *c, int fd);

void ptk_elfcore_free(struct ptk_elfcore *c);

#endif
