// SPDX-License-Identifier: GPL-2.0
/* kallsyms: the kernel's text symbols, sorted for address lookup. */
#include <errno.h>
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

int ptk_ksyms_load(const char *path, struct ptk_ksyms *ks)
{
	size_t len, cap = 0;
	bool nonzero = false;
	char *p, *eol;

	memset(ks, 0, sizeof(*ks));
	ks->buf = ptk_slurp(path ? path : "/proc/kallsyms", &len);
	if (!ks->buf)
		return -errno;
	for (p = ks->buf; p < ks->buf + len; p = eol + 1) {
		char *addr, *type, *name, *mod, *save;
		u64 a;

		eol = memchr(p, '\n', ks->buf + len - p);
		if (!eol)
			eol = ks->buf + len;
		*eol = '\0';
		addr = strtok_r(p, " \t", &save);
		type = strtok_r(NULL, " \t", &save);
		name = strtok_r(NULL, " \t", &save);
		mod = strtok_r(NULL, " \t", &save);
		if (!addr || !type || !name || type[1] || !is_text(type[0]))
			continue;
		if (parse_hex(addr, &a))
			continue;
		if (mod) {
			size_t ml = strlen(mod);
			if (mod[0] != '[' || mod[ml - 1] != ']')
				continue;
			mod[ml - 1] = '\0';
			mod++;
		}
		if (ks->n == cap) {
			cap = cap ? cap * 2 : 4096;
			ks->syms = xrealloc(ks->syms, cap * sizeof(*ks->syms));
		}
		ks->syms[ks->n++] = (struct ptk_ksym){ .addr = a, .name = name, .module = mod };
		nonzero |= a != 0;
	}
	if (!ks->n || !nonzero) {
		int err = ks->n ? -EPERM : -ENOENT;
		ptk_ksyms_free(ks);
		return err;
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
