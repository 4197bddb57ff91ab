// SPDX-License-Identifier: GPL-2.0
/* kallsyms: the kernel's text symbols, sorted for address lookup. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/sym/sym.h"

static int ksym_cmp(const void *a, const void *b)
{
	const struct ptk_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* same address (aliases): keep the file order, names point into one buffer */
	return x->name < y->name ? -1 : x->name > y->name;
}

static int parse_hex(const char *s, u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 16);
	return errno || end == s || *end ? -EINVAL : 0;
}

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* Append a NUL-terminated string to the table; returns its offset. */
static size_t strtab_add(struct ptk_ksyms *ks, size_t *len, size_t *cap, const char *str)
{
	size_t n = strlen(str) + 1, off = *len;

	if (*len + n > *cap) {
		*cap = MAX(*cap * 2, *len + n + 65536);
		ks->buf = xrealloc(ks->buf, *cap);
	}
	memcpy(ks->buf + off, str, n);
	*len += n;
	return off;
}

/*
 * Read line by line (a 5 MB file, 120k lines): only the text symbols' names are kept, in one
 * string table, with each module name stored once per run of its symbols. While loading,
 * name/module hold offsets into the table (it moves as it grows); pointers at the end.
 */
int ptk_ksyms_load(const char *path, struct ptk_ksyms *ks)
{
	size_t cap = 0, slen = 0, scap = 0, last_mod = SIZE_MAX;
	bool nonzero = false;
	char line[2048], prev_mod[128] = ""; /* names: KSYM_NAME_LEN 512 */
	FILE *f;

	memset(ks, 0, sizeof(*ks));
	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *addr, *type, *name, *mod, *save;
		u64 a;

		line[strcspn(line, "\n")] = '\0';
		addr = strtok_r(line, " \t", &save);
		type = strtok_r(NULL, " \t", &save);
		name = strtok_r(NULL, " \t", &save);
		mod = strtok_r(NULL, " \t", &save);
		if (!addr || !type || !name || type[1] || !is_text(type[0]))
			continue;
		if (parse_hex(addr, &a))
			continue;
		size_t mo = SIZE_MAX;
		if (mod) {
			size_t ml = strlen(mod);
			if (mod[0] != '[' || mod[ml - 1] != ']')
				continue;
			mod[ml - 1] = '\0';
			mod++;
			if (last_mod == SIZE_MAX || strcmp(mod, prev_mod)) {
				last_mod = strtab_add(ks, &slen, &scap, mod);
				snprintf(prev_mod, sizeof(prev_mod), "%s", mod);
			}
			mo = last_mod;
		}
		if (ks->n == cap) {
			cap = cap ? cap * 2 : 4096;
			ks->syms = xrealloc(ks->syms, cap * sizeof(*ks->syms));
		}
		ks->syms[ks->n++] = (struct ptk_ksym){
			.addr = a,
			.name = (const char *)(uintptr_t)strtab_add(ks, &slen, &scap, name),
			.module = mo == SIZE_MAX ? NULL : (const char *)(uintptr_t)(mo + 1),
		};
		nonzero |= a != 0;
	}
	int rerr = ferror(f) ? -EIO : 0;
	fclose(f);
	if (rerr || !ks->n || !nonzero) {
		int err = rerr ? rerr : ks->n ? -EPERM : -ENOENT;
		ptk_ksyms_free(ks);
		return err;
	}
	for (size_t i = 0; i < ks->n; i++) {
		ks->syms[i].name = ks->buf + (uintptr_t)ks->syms[i].name;
		if (ks->syms[i].module)
			ks->syms[i].module = ks->buf + (uintptr_t)ks->syms[i].module - 1;
	}
	qsort(ks->syms, ks->n, sizeof(*ks->syms), ksym_cmp);
	return 0;
}

const struct ptk_ksym *ptk_ksyms_find(const struct ptk_ksyms *ks, u64 addr)
{
	size_t lo = 0, hi = ks->n;

	if (!ks->n || addr < ks->syms[0].addr)
		return NULL;
	/* the last symbol whose address is <= addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* of aliases at one address, the first in file order */
	while (lo > 0 && ks->syms[lo - 1].addr == ks->syms[lo].addr)
		lo--;
	return &ks->syms[lo];
}

void ptk_ksyms_free(struct ptk_ksyms *ks)
{
	free(ks->syms);
	free(ks->buf);
	memset(ks, 0, sizeof(*ks));
}
