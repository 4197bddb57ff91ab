// SPDX-License-Identifier: GPL-2.0
/* ELF functions, PLT stubs and USDT notes for probes (elfsym.h). */
#include "source/sym/elfsym.h"

#include <asm/ptrace.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ptk_elf {
	int fd;
	Elf *elf;
	size_t nseg;
	GElf_Phdr *seg; /* the PT_LOAD segments */
};

int ptk_elf_open(const char *path, struct ptk_elf **out)
{
	struct ptk_elf *e;
	GElf_Ehdr eh;
	size_t nph;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = xcalloc(1, sizeof(*e));
	e->fd = fd;
	e->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &eh) ||
	    eh.e_machine != EM_X86_64 || elf_getphdrnum(e->elf, &nph)) {
		ptk_elf_close(e);
		return -ENOEXEC;
	}
	e->seg = xcalloc(nph ? nph : 1, sizeof(*e->seg));
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			e->seg[e->nseg++] = ph;
	}
	*out = e;
	return 0;
}

void ptk_elf_close(struct ptk_elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	close(e->fd);
	free(e->seg);
	free(e);
}

int ptk_elf_vaddr_off(const struct ptk_elf *e, u64 vaddr, u64 *off)
{
	for (size_t i = 0; i < e->nseg; i++) {
		const GElf_Phdr *p = &e->seg[i];

		if (vaddr >= p->p_vaddr && vaddr < p->p_vaddr + p->p_memsz) {
			*off = vaddr - p->p_vaddr + p->p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* The section called name (and its header), or NULL. */
static Elf_Scn *section(struct ptk_elf *e, const char *name, GElf_Shdr *sh)
{
	size_t shstr;
	Elf_Scn *s = NULL;

	if (elf_getshdrstrndx(e->elf, &shstr))
		return NULL;
	while ((s = elf_nextscn(e->elf, s))) {
		const char *n;

		if (!gelf_getshdr(s, sh))
			continue;
		n = elf_strptr(e->elf, shstr, sh->sh_name);
		if (n && !strcmp(n, name))
			return s;
	}
	return NULL;
}

/* The first section of type type, or NULL. */
static Elf_Scn *section_of_type(struct ptk_elf *e, unsigned type, GElf_Shdr *sh)
{
	Elf_Scn *s = NULL;

	while ((s = elf_nextscn(e->elf, s)))
		if (gelf_getshdr(s, sh) && sh->sh_type == type)
			return s;
	return NULL;
}

static void add_sym(struct ptk_elf_sym **v, size_t *n, size_t *cap, const char *name, u64 vaddr,
		    u64 size, bool ifunc)
{
	if (*n == *cap)
		*v = xrealloc(*v, (*cap = *cap ? 2 * *cap : 64) * sizeof(**v));
	(*v)[(*n)++] = (struct ptk_elf_sym){
		.name = xstrdup(name), .vaddr = vaddr, .size = size, .ifunc = ifunc
	};
}

static int by_vaddr(const void *a, const void *b)
{
	const struct ptk_elf_sym *x = a, *y = b;

	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	/* the same address: the one found first (the table's order) wins */
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

/* Does name (without its "@version") match pattern? */
static bool name_matches(const char *name, const char *pattern, bool glob)
{
	const char *at = strchr(name, '@');
	char buf[512];

	if (at) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(at - name), name);
		name = buf;
	}
	return glob ? !fnmatch(pattern, name, 0) : !strcmp(pattern, name);
}

static int table_funcs(struct ptk_elf *e, unsigned type, const char *pattern, bool glob,
		       struct ptk_elf_sym **v, size_t *n, size_t *cap)
{
	GElf_Shdr sh;
	Elf_Scn *s = section_of_type(e, type, &sh);
	Elf_Data *d = s ? elf_getdata(s, NULL) : NULL;
	size_t count;

	if (!d || !sh.sh_entsize)
		return -ENOENT;
	count = sh.sh_size / sh.sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;
		int t;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(e->elf, sh.sh_link, sym.st_name);
		if (!name || !*name || !name_matches(name, pattern, glob))
			continue;
		add_sym(v, n, cap, name, sym.st_value, sym.st_size, t == STT_GNU_IFUNC);
	}
	return 0;
}

int ptk_elf_funcs(struct ptk_elf *e, const char *pattern, struct ptk_elf_sym **syms, size_t *n)
{
	bool glob = strpbrk(pattern, "*?[") != NULL;
	struct ptk_elf_sym *v = NULL;
	size_t cnt = 0, cap = 0, m = 0;

	/* .symtab has the local functions too; a stripped file has .dynsym only */
	if (table_funcs(e, SHT_SYMTAB, pattern, glob, &v, &cnt, &cap) || !cnt)
		table_funcs(e, SHT_DYNSYM, pattern, glob, &v, &cnt, &cap);
	if (cnt > 1)
		qsort(v, cnt, sizeof(*v), by_vaddr);
	for (size_t i = 0; i < cnt; i++) {
		if (m && v[m - 1].vaddr == v[i].vaddr) {
			free(v[i].name);
			continue;
		}
		v[m++] = v[i];
	}
	for (size_t i = 0; i < m; i++)
		if (ptk_elf_vaddr_off(e, v[i].vaddr, &v[i].off)) {
			ptk_elf_syms_free(v, m);
			return -ENOEXEC;
		}
	*syms = v;
	*n = m;
	return 0;
}

int ptk_elf_plt(struct ptk_elf *e, struct ptk_elf_sym **syms, size_t *n)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rela = section(e, ".rela.plt", &rsh), *plt = section(e, ".plt.sec", &psh);
	Elf_Data *rd, *dd;
	struct ptk_elf_sym *v = NULL;
	size_t cnt = 0, cap = 0, nrel;
	u64 base;
	int slot = 0;

	if (plt)
		base = psh.sh_addr;
	else if ((plt = section(e, ".plt", &psh)))
		base = psh.sh_addr + 16; /* after PLT0, the resolver's stub */
	else
		return -ENOENT;
	if (!rela || !rsh.sh_entsize || !(rd = elf_getdata(rela, NULL)))
		return -ENOENT;
	{
		Elf_Scn *ds = elf_getscn(e->elf, rsh.sh_link);
		if (!ds || !gelf_getshdr(ds, &dsh) || !(dd = elf_getdata(ds, NULL)))
			return -ENOENT;
	}
	nrel = rsh.sh_size / rsh.sh_entsize;
	for (size_t i = 0; i < nrel; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(rd, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT)
			continue;
		if (!gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym) ||
		    !(name = elf_strptr(e->elf, dsh.sh_link, sym.st_name)) || !*name) {
			slot++;
			continue;
		}
		add_sym(&v, &cnt, &cap, name, base + 16 * (u64)slot++, 16, false);
	}
	for (size_t i = 0; i < cnt; i++)
		if (ptk_elf_vaddr_off(e, v[i].vaddr, &v[i].off)) {
			ptk_elf_syms_free(v, cnt);
			return -ENOEXEC;
		}
	*syms = v;
	*n = cnt;
	return 0;
}

void ptk_elf_syms_free(struct ptk_elf_sym *syms, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(syms[i].name);
	free(syms);
}

/*
 * One NT_STAPSDT note's description: pc, base, semaphore (3 addresses of the file's class),
 * then provider, name and argument strings, NUL-terminated.
 */
static int usdt_note(struct ptk_elf *e, const char *desc, size_t len, u64 base_now,
		     struct ptk_usdt_note *u)
{
	const char *p = desc + 24, *end = desc + len, *prov, *name, *args;
	u64 pc, base, sema;

	if (len < 24 + 3)
		return -EINVAL;
	memcpy(&pc, desc, 8);
	memcpy(&base, desc + 8, 8);
	memcpy(&sema, desc + 16, 8);
	prov = p;
	p = memchr(p, 0, end - p);
	if (!p++)
		return -EINVAL;
	name = p;
	p = memchr(p, 0, end - p);
	if (!p++)
		return -EINVAL;
	args = p;
	if (!memchr(p, 0, end - p))
		return -EINVAL;
	memset(u, 0, sizeof(*u));
	snprintf(u->provider, sizeof(u->provider), "%s", prov);
	snprintf(u->name, sizeof(u->name), "%s", name);
	snprintf(u->args, sizeof(u->args), "%s", args);
	/* a prelinked file moved .stapsdt.base: the probe moved with it */
	if (base_now && base) {
		pc += base_now - base;
		if (sema)
			sema += base_now - base;
	}
	u->pc = pc;
	if (ptk_elf_vaddr_off(e, pc, &u->off))
		return -EINVAL;
	if (sema && ptk_elf_vaddr_off(e, sema, &u->sema_off))
		return -EINVAL;
	return 0;
}

int ptk_elf_usdt(struct ptk_elf *e, struct ptk_usdt_note **notes, size_t *n)
{
	GElf_Shdr sh, bsh;
	Elf_Scn *s = section(e, ".note.stapsdt", &sh);
	u64 base_now = section(e, ".stapsdt.base", &bsh) ? bsh.sh_addr : 0;
	struct ptk_usdt_note *v = NULL;
	size_t cnt = 0, cap = 0, off = 0, noff, doff;
	Elf_Data *d;
	GElf_Nhdr nh;

	*notes = NULL;
	*n = 0;
	if (!s || !(d = elf_getdata(s, NULL)))
		return 0;
	while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		const char *owner = (const char *)d->d_buf + noff;

		if (nh.n_type != 3 || nh.n_namesz != 8 || memcmp(owner, "stapsdt", 8))
			continue;
		if (cnt == cap)
			v = xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
		if (!usdt_note(e, (const char *)d->d_buf + doff, nh.n_descsz, base_now, &v[cnt]))
			cnt++;
	}
	*notes = v;
	*n = cnt;
	return 0;
}

/* The general registers of x86_64 by their 64-, 32-, 16- and 8-bit names. */
static const struct reg {
	const char *n64, *n32, *n16, *n8;
	int off;
} regs[] = {
	{ "rax", "eax", "ax", "al", offsetof(struct pt_regs, rax) },
	{ "rbx", "ebx", "bx", "bl", offsetof(struct pt_regs, rbx) },
	{ "rcx", "ecx", "cx", "cl", offsetof(struct pt_regs, rcx) },
	{ "rdx", "edx", "dx", "dl", offsetof(struct pt_regs, rdx) },
	{ "rsi", "esi", "si", "sil", offsetof(struct pt_regs, rsi) },
	{ "rdi", "edi", "di", "dil", offsetof(struct pt_regs, rdi) },
	{ "rbp", "ebp", "bp", "bpl", offsetof(struct pt_regs, rbp) },
	{ "rsp", "esp", "sp", "spl", offsetof(struct pt_regs, rsp) },
	{ "r8", "r8d", "r8w", "r8b", offsetof(struct pt_regs, r8) },
	{ "r9", "r9d", "r9w", "r9b", offsetof(struct pt_regs, r9) },
	{ "r10", "r10d", "r10w", "r10b", offsetof(struct pt_regs, r10) },
	{ "r11", "r11d", "r11w", "r11b", offsetof(struct pt_regs, r11) },
	{ "r12", "r12d", "r12w", "r12b", offsetof(struct pt_regs, r12) },
	{ "r13", "r13d", "r13w", "r13b", offsetof(struct pt_regs, r13) },
	{ "r14", "r14d", "r14w", "r14b", offsetof(struct pt_regs, r14) },
	{ "r15", "r15d", "r15w", "r15b", offsetof(struct pt_regs, r15) },
	{ "rip", NULL, NULL, NULL, offsetof(struct pt_regs, rip) },
};

int ptk_pt_regs_offset(const char *name, int *size)
{
	for (size_t i = 0; i < ARRAY_SIZE(regs); i++) {
		const struct reg *r = &regs[i];
		int sz = !strcmp(name, r->n64)		 ? 8 :
			 r->n32 && !strcmp(name, r->n32) ? 4 :
			 r->n16 && !strcmp(name, r->n16) ? 2 :
			 r->n8 && !strcmp(name, r->n8)	 ? 1 :
							   0;

		if (sz) {
			if (size)
				*size = sz;
			return r->off;
		}
	}
	return -1;
}

/* "%reg" at *p: its pt_regs offset, *p moved past it; -1 when not one. */
static int parse_reg(const char **p)
{
	char name[8];
	int n = 0;

	if (**p != '%')
		return -1;
	(*p)++;
	while (isalnum((unsigned char)**p) && n < (int)sizeof(name) - 1)
		name[n++] = *(*p)++;
	name[n] = '\0';
	return ptk_pt_regs_offset(name, NULL);
}

int ptk_usdt_args_parse(const char *spec, struct ptk_usdt_arg *args, int max, char *bad,
			size_t badsz)
{
	const char *p = spec;
	int n = 0;

	while (*p) {
		struct ptk_usdt_arg a = { 0 };
		const char *start, *q;
		char *end;
		long sz;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		sz = strtol(p, &end, 10);
		if (end == p || *end != '@' || !sz || labs(sz) > 8 || (labs(sz) & (labs(sz) - 1)))
			goto bad;
		a.size = (int)labs(sz);
		a.is_signed = sz < 0;
		q = end + 1;
		if (*q == '$') {
			a.kind = PTK_USDT_IMM;
			a.val = strtoll(q + 1, &end, 0);
			if (end == q + 1)
				goto bad;
			q = end;
		} else if (*q == '%') {
			a.kind = PTK_USDT_REG;
			if ((a.reg = parse_reg(&q)) < 0)
				goto bad;
		} else {
			a.kind = PTK_USDT_MEM;
			a.val = *q == '(' ? 0 : strtoll(q, &end, 0);
			if (*q != '(') {
				if (end == q)
					goto bad;
				q = end;
			}
			if (*q++ != '(' || (a.reg = parse_reg(&q)) < 0 || *q++ != ')')
				goto bad;
		}
		if (*q && !isspace((unsigned char)*q))
			goto bad;
		if (n == max) {
			snprintf(bad, badsz, "more than %d arguments", max);
			return -EINVAL;
		}
		args[n++] = a;
		p = q;
		continue;
bad:
		q = start;
		while (*q && !isspace((unsigned char)*q))
			q++;
		snprintf(bad, badsz, "%.*s", (int)(q - start), start);
		return -EINVAL;
	}
	return n;
}
