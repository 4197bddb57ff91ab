/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ELF files as probes see them (libelf): the functions of a binary or library by name or
 * pattern, the PLT stubs through which a binary calls its libraries, and the USDT probes of
 * its .note.stapsdt section, each with the file offset a uprobe is placed at (the virtual
 * address mapped back through the PT_LOAD segment that holds it).
 */
#ifndef PTK_SOURCE_SYM_ELFSYM_H
#define PTK_SOURCE_SYM_ELFSYM_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

struct ptk_elf;

/* Open an ELF file. 0, -ENOEXEC (not ELF, or not x86_64), or -errno from open(2). */
int ptk_elf_open(const char *path, struct ptk_elf **out);
void ptk_elf_close(struct ptk_elf *e);

/* The file offset of virtual address vaddr: 0, or -ENOENT when no PT_LOAD segment holds it. */
int ptk_elf_vaddr_off(const struct ptk_elf *e, u64 vaddr, u64 *off);

/* A function (or a PLT stub, or a USDT site): its name and where it is. */
struct ptk_elf_sym {
	char *name;
	u64 vaddr;
	u64 size;
	u64 off; /* file offset: where a uprobe goes */
	bool ifunc; /* an STT_GNU_IFUNC: vaddr is the resolver's */
};

/*
 * The defined functions (STT_FUNC, STT_GNU_IFUNC) of .symtab, else .dynsym, whose names match
 * pattern (fnmatch(3) when it has * ? or [, else the exact name; a symbol version "@..." is
 * not part of a name), each address once (aliases: the first name in the table), in address
 * order. *syms is allocated (ptk_elf_syms_free). 0 (n may be 0) or -errno.
 */
int ptk_elf_funcs(struct ptk_elf *e, const char *pattern, struct ptk_elf_sym **syms, size_t *n);

/*
 * The PLT stubs of the file: one per R_X86_64_JUMP_SLOT relocation of .rela.plt, named by
 * its symbol (the library function called through it), at .plt.sec + 16 * i when the file
 * has .plt.sec (IBT), else .plt + 16 * (i + 1) (after the resolver stub). 0 or -errno.
 */
int ptk_elf_plt(struct ptk_elf *e, struct ptk_elf_sym **syms, size_t *n);

void ptk_elf_syms_free(struct ptk_elf_sym *syms, size_t n);

/* A USDT probe site of .note.stapsdt (SystemTap's sdt.h notes). */
struct ptk_usdt_note {
	char provider[64], name[64];
	u64 pc; /* the probe's address, corrected for prelinking (.stapsdt.base) */
	u64 off; /* its file offset */
	u64 sema_off; /* the semaphore's file offset (0: none): a uprobe ref_ctr_offset */
	char args[256]; /* "-4@%edi 8@-16(%rbp) ..." */
};

/* Every USDT probe site of the file, in note order. *notes allocated (free()). 0 or -errno. */
int ptk_elf_usdt(struct ptk_elf *e, struct ptk_usdt_note **notes, size_t *n);

/* One argument of a USDT site, from its "SIZE@LOCATION" spec. */
struct ptk_usdt_arg {
	int size; /* bytes: 1, 2, 4, 8 */
	bool is_signed; /* a negative SIZE */
	enum { PTK_USDT_REG, PTK_USDT_MEM, PTK_USDT_IMM } kind;
	int reg; /* byte offset of the register in x86_64 struct pt_regs (REG, MEM) */
	long long val; /* MEM: the displacement; IMM: the constant */
};

/*
 * Parse a site's argument specs ("-4@%edi 8@-16(%rbp) 4@$5") into args[0..max): registers by
 * any of their names (rax eax ax al ... r15 r15d r15w r15b), a register plus displacement,
 * a constant. Returns the number of arguments, or -EINVAL with the spec that is not one of
 * these (an index register, a symbol) in bad.
 */
int ptk_usdt_args_parse(const char *spec, struct ptk_usdt_arg *args, int max, char *bad,
			size_t badsz);

/* The byte offset in x86_64 struct pt_regs of register name (without '%': "rdi", "r8d",
 * "ax"), and its size in bytes; -1 when not a general register. */
int ptk_pt_regs_offset(const char *name, int *size);

#endif
