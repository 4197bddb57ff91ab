// SPDX-License-Identifier: GPL-2.0
/* ELF core file writer: the layout of fs/binfmt_elf.c elf_core_dump(). */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/elfcore.h"

#define CORE_PAGE 4096 /* ELF_EXEC_PAGESIZE on x86_64 */

static u64 align4(u64 x)
{
	return (x + 3) & ~3ULL;
}

void ptk_elfcore_note(struct ptk_elfcore *c, const char *name, u32 type, const void *desc,
		      size_t len)
{
	struct ptk_elfcore_note *n;

	if (c->nnotes == c->capnotes) {
		c->capnotes = c->capnotes ? c->capnotes * 2 : 32;
		c->notes = xrealloc(c->notes, c->capnotes * sizeof(*c->notes));
	}
	n = &c->notes[c->nnotes++];
	n->name = name;
	n->type = type;
	n->len = len;
	n->desc = xmalloc(len ? len : 1);
	if (len)
		memcpy(n->desc, desc, len);
}

int ptk_elfcore_seg(struct ptk_elfcore *c, u64 vaddr, u64 memsz, u64 filesz, u32 flags)
{
	if (c->nsegs == c->capsegs) {
		c->capsegs = c->capsegs ? c->capsegs * 2 : 64;
		c->segs = xrealloc(c->segs, c->capsegs * sizeof(*c->segs));
	}
	c->segs[c->nsegs] = (struct ptk_elfcore_seg){ vaddr, memsz, MIN(filesz, memsz), flags, 0 };
	return c->nsegs++;
}

static u64 note_size(const struct ptk_elfcore_note *n)
{
	return sizeof(Elf64_Nhdr) + align4(strlen(n->name) + 1) + align4(n->len);
}

static int write_all(int fd, const void *buf, size_t len, u64 off)
{
	while (len) {
		ssize_t w = pwrite(fd, buf, len, off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf = (const char *)buf + w;
		len -= w;
		off += w;
	}
	return 0;
}

static bool xnum(const struct ptk_elfcore *c)
{
	return c->nsegs + 1 >= PN_XNUM;
}

int ptk_elfcore_write_headers(struct ptk_elfcore *c, int fd)
{
	u64 nphdr = c->nsegs + 1, notes_off = sizeof(Elf64_Ehdr) + nphdr * sizeof(Elf64_Phdr);
	u64 notes_len = 0, off;
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr *ph;
	char *nb;
	int err;

	for (int i = 0; i < c->nnotes; i++)
		notes_len += note_size(&c->notes[i]);
	off = (notes_off + notes_len + CORE_PAGE - 1) & ~(u64)(CORE_PAGE - 1);
	for (int i = 0; i < c->nsegs; i++) {
		c->segs[i].offset = off;
		off += c->segs[i].filesz;
	}
	c->size = off + (xnum(c) ? sizeof(Elf64_Shdr) : 0);

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = xnum(c) ? PN_XNUM : nphdr;
	if (xnum(c)) {
		eh.e_shoff = off;
		eh.e_shentsize = sizeof(Elf64_Shdr);
		eh.e_shnum = 1;
	}

	ph = xcalloc(nphdr, sizeof(*ph));
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = notes_off;
	ph[0].p_filesz = notes_len;
	ph[0].p_align = 4;
	for (int i = 0; i < c->nsegs; i++) {
		Elf64_Phdr *p = &ph[i + 1];
		p->p_type = PT_LOAD;
		p->p_offset = c->segs[i].offset;
		p->p_vaddr = c->segs[i].vaddr;
		p->p_filesz = c->segs[i].filesz;
		p->p_memsz = c->segs[i].memsz;
		p->p_flags = c->segs[i].flags;
		p->p_align = CORE_PAGE;
	}

	nb = xcalloc(1, notes_len ? notes_len : 1);
	off = 0;
	for (int i = 0; i < c->nnotes; i++) {
		const struct ptk_elfcore_note *n = &c->notes[i];
		Elf64_Nhdr nh = { strlen(n->name) + 1, n->len, n->type };

		memcpy(nb + off, &nh, sizeof(nh));
		off += sizeof(nh);
		memcpy(nb + off, n->name, nh.n_namesz);
		off += align4(nh.n_namesz);
		memcpy(nb + off, n->desc, n->len);
		off += align4(n->len);
	}

	if (!(err = write_all(fd, &eh, sizeof(eh), 0)) &&
	    !(err = write_all(fd, ph, nphdr * sizeof(*ph), sizeof(eh))))
		err = write_all(fd, nb, notes_len, notes_off);
	free(ph);
	free(nb);
	return err;
}

int ptk_elfcore_finish(struct ptk_elfcore *c, int fd)
{
	if (xnum(c)) {
		Elf64_Shdr sh = { 0 };
		sh.sh_info = c->nsegs + 1; /* the real e_phnum */
		return write_all(fd, &sh, sizeof(sh), c->size - sizeof(sh));
	}
	if (ftruncate(fd, c->size))
		return -errno;
	return 0;
}

void ptk_elfcore_free(struct ptk_elfcore *c)
{
	for (int i = 0; i < c->nnotes; i++)
		free(c->notes[i].desc);
	free(c->notes);
	free(c->segs);
	memset(c, 0, sizeof(*c));
}
