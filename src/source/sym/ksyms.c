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

/* Split one kallsyms line in place: "ADDR TYPE NAME[\t[MODULE]]". True for a text symbol,
 * with *mod NULL for the core kernel, else the module name without its brackets. */
static bool parse_line(char *line, u64 *a, char **name, char **mod)
{
	char *addr, *type, *save;

	line[strcspn(line, "\n")] = '\0';
	addr = strtok_r(line, " \t", &save);
	type = strtok_r(NULL, " \t", &save);
	*name = strtok_r(NULL, " \t", &save);
	*mod = strtok_r(NULL, " \t", &save);
	if (!addr || !type || !*name || type[1] || !is_text(type[0]) || parse_hex(addr, a))
		return false;
	if (*mod) {
		size_t ml = strlen(*mod);
		if ((*mod)[0] != '[' || (*mod)[ml - 1] != ']')
			return false;
		(*mod)[ml - 1] = '\0';
		(*mod)++;
	}
	return true;
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

/* Heapsort by ksym_cmp, in place: glibc's qsort is a merge sort that allocates a copy of the
 * array (3 MB for 120k symbols), which would be the peak of the whole load. */
static void sift_down(struct ptk_ksym *a, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && ksym_cmp(&a[c], &a[c + 1]) < 0)
			c++;
		if (ksym_cmp(&a[i], &a[c]) >= 0)
			return;
		struct ptk_ksym t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

static void ksym_sort(struct ptk_ksym *a, size_t n)
{
	size_t i;

	/* the core kernel's symbols come in address order: skip the sort when all do */
	for (i = 1; i < n && ksym_cmp(&a[i - 1], &a[i]) <= 0; i++)
		;
	if (i >= n)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (i = n; i-- > 1;) {
		struct ptk_ksym t = a[0];
		a[0] = a[i];
		a[i] = t;
		sift_down(a, 0, i);
	}
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
		char *name, *mod;
		size_t mo = SIZE_MAX;
		u64 a;

		if (!parse_line(line, &a, &name, &mod))
			continue;
		if (mod) {
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
	ksym_sort(ks->syms, ks->n);
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The best symbol seen so far for one wanted address. */
struct kcand {
	u64 addr;
	char *name; /* NULL: none yet */
	size_t cap;
	int mod; /* index in the module names, -1 the core kernel */
};

/* Index of name in the module list (added when new); the last hit is tried first. */
static int mod_index(char ***mods, int *nmods, int *last, const char *name)
{
	if (*last >= 0 && !strcmp((*mods)[*last], name))
		return *last;
	for (int i = 0; i < *nmods; i++)
		if (!strcmp((*mods)[i], name))
			return *last = i;
	*mods = xrealloc(*mods, (*nmods + 1) * sizeof(**mods));
	(*mods)[*nmods] = xstrdup(name);
	return *last = (*nmods)++;
}

/*
 * One pass over the file, holding one candidate per wanted address. A symbol at A can only
 * be the answer for the wanted addresses >= A; if it is the answer for any, it is for the
 * first of them, t[j] (no symbol lies between A and it). So each symbol competes only for
 * slot j, t[j-1] < A <= t[j] (the highest A wins, the first in file order among aliases).
 * The candidates then increase with j, and the answer for t[i] is the last candidate of
 * slots 0..i: what ptk_ksyms_find() returns over the table of all candidates.
 */
int ptk_ksyms_load_addrs(const char *path, const u64 *addrs, size_t n, struct ptk_ksyms *ks)
{
	char line[2048], **mods = NULL;
	int nmods = 0, last = -1, err = 0;
	size_t m = 0, ntext = 0, nwin = 0, blen = 0;
	bool nonzero = false;
	struct kcand *c;
	u64 *t;
	FILE *f;

	memset(ks, 0, sizeof(*ks));
	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f)
		return -errno;
	t = xmalloc(MAX(n, 1) * sizeof(*t));
	if (n)
		memcpy(t, addrs, n * sizeof(*t));
	qsort(t, n, sizeof(*t), u64_cmp);
	for (size_t i = 0; i < n; i++)
		if (!m || t[m - 1] != t[i])
			t[m++] = t[i];
	c = xcalloc(MAX(m, 1), sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		char *name, *mod;
		size_t lo = 0, hi = m, len;
		u64 a;

		if (!parse_line(line, &a, &name, &mod))
			continue;
		ntext++;
		nonzero |= a != 0;
		while (lo < hi) { /* the first wanted address >= a */
			size_t mid = lo + (hi - lo) / 2;
			if (t[mid] < a)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == m || (c[lo].name && c[lo].addr >= a))
			continue;
		len = strlen(name) + 1;
		if (len > c[lo].cap) {
			c[lo].cap = MAX(len, 32);
			c[lo].name = xrealloc(c[lo].name, c[lo].cap);
		}
		memcpy(c[lo].name, name, len);
		c[lo].addr = a;
		c[lo].mod = mod ? mod_index(&mods, &nmods, &last, mod) : -1;
	}
	if (ferror(f))
		err = -EIO;
	else if (!ntext)
		err = -ENOENT;
	else if (!nonzero)
		err = -EPERM;
	fclose(f);
	for (size_t i = 0; !err && i < m; i++) {
		if (c[i].name) {
			nwin++;
			blen += strlen(c[i].name) + 1;
		}
	}
	if (!err && nwin) {
		size_t o = 0;
		for (int i = 0; i < nmods; i++)
			blen += strlen(mods[i]) + 1;
		ks->buf = xmalloc(blen);
		ks->syms = xmalloc(nwin * sizeof(*ks->syms));
		for (int i = 0; i < nmods; i++) {
			size_t l = strlen(mods[i]) + 1;
			memcpy(ks->buf + o, mods[i], l);
			free(mods[i]);
			mods[i] = ks->buf + o; /* now points into the table */
			o += l;
		}
		for (size_t i = 0; i < m; i++) {
			if (!c[i].name)
				continue;
			size_t l = strlen(c[i].name) + 1;
			memcpy(ks->buf + o, c[i].name, l);
			ks->syms[ks->n++] = (struct ptk_ksym){
				.addr = c[i].addr,
				.name = ks->buf + o,
				.module = c[i].mod >= 0 ? mods[c[i].mod] : NULL,
			};
			o += l;
		}
		nmods = 0; /* owned by ks->buf */
	}
	for (int i = 0; i < nmods; i++)
		free(mods[i]);
	free(mods);
	for (size_t i = 0; i < m; i++)
		free(c[i].name);
	free(c);
	free(t);
	return err;
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
