// SPDX-License-Identifier: GPL-2.0
#include "model/folded.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct ptk_folded *ptk_folded_new(void)
{
	struct ptk_folded *f = xcalloc(1, sizeof(*f));

	f->hcap = 1024;
	f->hash = xmalloc(f->hcap * sizeof(*f->hash));
	memset(f->hash, 0xff, f->hcap * sizeof(*f->hash));
	return f;
}

void ptk_folded_free(struct ptk_folded *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++)
		free(f->s[i].stack);
	free(f->s);
	free(f->hash);
	free(f);
}

void ptk_folded_reset(struct ptk_folded *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->s[i].stack);
	f->n = 0;
	f->total = 0;
	memset(f->hash, 0xff, f->hcap * sizeof(*f->hash));
}

static void rehash(struct ptk_folded *f)
{
	free(f->hash);
	f->hcap *= 2;
	f->hash = xmalloc(f->hcap * sizeof(*f->hash));
	memset(f->hash, 0xff, f->hcap * sizeof(*f->hash));
	for (int i = 0; i < f->n; i++) {
		unsigned h = hash_str(f->s[i].stack) & (f->hcap - 1);
		while (f->hash[h] != ~0u)
			h = (h + 1) & (f->hcap - 1);
		f->hash[h] = i;
	}
}

int ptk_folded_add_joined(struct ptk_folded *f, const char *stack, u64 count)
{
	unsigned h;

	if (f->total + count < f->total)
		return -ERANGE; /* the total (and so any stack) would wrap past 2^64 */
	if ((unsigned)f->n * 2 >= f->hcap)
		rehash(f);
	h = hash_str(stack) & (f->hcap - 1);
	while (f->hash[h] != ~0u) {
		struct ptk_folded_stack *e = &f->s[f->hash[h]];
		if (!strcmp(e->stack, stack)) {
			e->count += count;
			f->total += count;
			return 0;
		}
		h = (h + 1) & (f->hcap - 1);
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->s = xrealloc(f->s, f->cap * sizeof(*f->s));
	}
	f->s[f->n].stack = xstrdup(stack);
	f->s[f->n].count = count;
	f->hash[h] = f->n++;
	f->total += count;
	return 0;
}

char *ptk_folded_join(const char *const *frames, int n)
{
	size_t len = 1;
	char *buf, *p;

	for (int i = 0; i < n; i++)
		len += strlen(frames[i]) + 1;
	p = buf = xmalloc(len);
	for (int i = 0; i < n; i++) {
		if (i)
			*p++ = ';';
		for (const char *c = frames[i]; *c; c++)
			*p++ = (*c == ';' || *c == '\n' || *c == '\r') ? ':' : *c;
	}
	*p = '\0';
	return buf;
}

int ptk_folded_add(struct ptk_folded *f, const char *const *frames, int n, u64 count)
{
	char *buf = ptk_folded_join(frames, n);
	int r = ptk_folded_add_joined(f, buf, count);

	free(buf);
	return r;
}

int ptk_folded_add_line(struct ptk_folded *f, const char *line)
{
	size_t n = strcspn(line, "\r\n");
	char *copy, *sp, *end;
	unsigned long long c;
	int r;

	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	copy = xmalloc(n + 1);
	memcpy(copy, line, n);
	copy[n] = '\0';
	sp = strrchr(copy, ' ');
	if (!sp || sp == copy) {
		free(copy);
		return -EINVAL;
	}
	/* digits only: strtoull would read "-1" as 2^64 - 1 */
	errno = 0;
	c = sp[1] >= '0' && sp[1] <= '9' ? strtoull(sp + 1, &end, 10) : 0;
	if (sp[1] < '0' || sp[1] > '9' || errno || *end) {
		free(copy);
		return -EINVAL;
	}
	*sp = '\0';
	r = ptk_folded_add_joined(f, copy, c);
	free(copy);
	return r;
}

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct ptk_folded_stack *)a)->stack,
		      ((const struct ptk_folded_stack *)b)->stack);
}

static int cmp_count(const void *a, const void *b)
{
	const struct ptk_folded_stack *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return strcmp(x->stack, y->stack);
}

static void sort_by(struct ptk_folded *f, int (*cmp)(const void *, const void *))
{
	if (!f->n)
		return;
	qsort(f->s, f->n, sizeof(*f->s), cmp);
	/* indices moved: rebuild the index */
	f->hcap /= 2;
	rehash(f);
}

void ptk_folded_sort(struct ptk_folded *f)
{
	sort_by(f, cmp_stack);
}

static int write_lines(const struct ptk_folded *f, FILE *out)
{
	for (int i = 0; i < f->n; i++)
		if (fprintf(out, "%s %" PRIu64 "\n", f->s[i].stack, f->s[i].count) < 0)
			return -EIO;
	return 0;
}

int ptk_folded_write(struct ptk_folded *f, FILE *out)
{
	ptk_folded_sort(f);
	return write_lines(f, out);
}

int ptk_folded_write_by_count(struct ptk_folded *f, FILE *out)
{
	sort_by(f, cmp_count);
	return write_lines(f, out);
}
