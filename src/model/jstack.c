// SPDX-License-Identifier: GPL-2.0
#include "model/jstack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* The last occurrence of needle in [s, e), or NULL. */
static const char *last_in(const char *s, const char *e, const char *needle)
{
	size_t nl = strlen(needle);
	const char *found = NULL;

	for (const char *p = s; p + nl <= e; p++)
		if (!memcmp(p, needle, nl))
			found = p;
	return found;
}

static bool has_token(const char *s, const char *e, const char *tok, const char **val)
{
	size_t tl = strlen(tok);

	for (const char *p = s; p + tl <= e; p++) {
		if ((p == s || p[-1] == ' ') && !memcmp(p, tok, tl)) {
			if (val)
				*val = p + tl;
			return true;
		}
	}
	return false;
}

/* Parse one header line [line, e). Returns 0 and fills t (name malloc'd), or -EINVAL. */
static int parse_header(const char *line, const char *e, struct ptk_jthread *t)
{
	const char *nid = last_in(line, e, " nid="), *q, *v;
	char *end;
	long x;

	if (!nid)
		return -EINVAL;
	q = nid;
	while (q > line && *q != '"')
		q--;
	if (q == line)
		return -EINVAL;
	v = nid + 5;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		x = strtol(v + 2, &end, 16);
	else
		x = strtol(v, &end, 10);
	if (end == v || x <= 0 || x > 0x7fffffff)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->nid = (int)x;
	t->jid = -1;
	t->prio = -1;
	t->daemon = has_token(q + 1, nid, "daemon ", NULL);
	if (has_token(q + 1, nid, "#", &v) && *v >= '0' && *v <= '9')
		t->jid = strtol(v, NULL, 10);
	if (has_token(q + 1, nid, "prio=", &v))
		t->prio = (int)strtol(v, NULL, 10);
	t->name = xmalloc(q - line);
	memcpy(t->name, line + 1, q - line - 1);
	t->name[q - line - 1] = '\0';
	for (char *c = t->name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return 0;
}

static int cmp_nid(const void *a, const void *b)
{
	const struct ptk_jthread *x = a, *y = b;

	return (x->nid > y->nid) - (x->nid < y->nid);
}

int ptk_jstack_parse(const char *text, struct ptk_jdump *d)
{
	static const char state_key[] = "java.lang.Thread.State: ";
	struct ptk_jthread *last = NULL;
	int w = 0;

	ptk_jstack_free(d);
	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n'), *s = p;
		if (!e)
			e = p + strlen(p);
		if (*p == '"') {
			struct ptk_jthread t;
			last = NULL;
			if (parse_header(p, e, &t) == 0) {
				if (d->n == d->cap) {
					d->cap = d->cap ? d->cap * 2 : 64;
					d->t = xrealloc(d->t, d->cap * sizeof(*d->t));
				}
				d->t[d->n] = t;
				last = &d->t[d->n++];
			}
		} else if (last) {
			while (s < e && (*s == ' ' || *s == '\t'))
				s++;
			if ((size_t)(e - s) > sizeof(state_key) - 1 &&
			    !memcmp(s, state_key, sizeof(state_key) - 1)) {
				s += sizeof(state_key) - 1;
				size_t n = MIN((size_t)(e - s), sizeof(last->state) - 1);
				memcpy(last->state, s, n);
				last->state[n] = '\0';
			}
			last = NULL; /* the state line, if any, follows the header directly */
		}
		p = *e ? e + 1 : NULL;
	}
	if (!d->n)
		return -EINVAL;
	qsort(d->t, d->n, sizeof(*d->t), cmp_nid);
	/* a nid printed twice (should not happen): keep the first of each */
	for (int r = 0; r < d->n; r++) {
		if (w && d->t[w - 1].nid == d->t[r].nid) {
			free(d->t[r].name);
			continue;
		}
		d->t[w++] = d->t[r];
	}
	d->n = w;
	return d->n;
}

const struct ptk_jthread *ptk_jstack_find(const struct ptk_jdump *d, int nid)
{
	int lo = 0, hi = d->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (d->t[mid].nid == nid)
			return &d->t[mid];
		if (d->t[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

void ptk_jstack_free(struct ptk_jdump *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->t[i].name);
	free(d->t);
	memset(d, 0, sizeof(*d));
}

static bool is_sep(char c)
{
	return c && strchr("-_.#:/ ", c);
}

void ptk_pool_name(const char *name, int maxchars, char *out, size_t size)
{
	size_t len = strlen(name), ds = len, de = len, cut, o = 0;

	if (!size)
		return;
	/* the last run of digits: [ds, de); the separators before it: [cut, ds) */
	for (size_t i = len; i > 0; i--) {
		if (name[i - 1] >= '0' && name[i - 1] <= '9') {
			de = i;
			ds = i - 1;
			while (ds > 0 && name[ds - 1] >= '0' && name[ds - 1] <= '9')
				ds--;
			break;
		}
	}
	/* an index ends the name or follows a separator: the 1 of "G1 Service" is not one */
	if (de < len && ds > 0 && !is_sep(name[ds - 1]))
		ds = de = len;
	cut = ds;
	while (cut > 0 && is_sep(name[cut - 1]))
		cut--;
#define PUT(from, to)                                             \
	for (size_t i_ = (from); i_ < (to) && o + 1 < size; i_++) \
	out[o++] = name[i_]
	if (ds == len) {
		PUT(0, len); /* no digits */
	} else if (de == len) {
		if (cut > 0) { /* "alpha-12" -> "alpha" */
			PUT(0, cut);
		} else { /* only digits and separators: keep it */
			PUT(0, len);
		}
	} else if (cut == 0) { /* "0-foo" -> "foo" */
		size_t t = de;
		while (t < len && is_sep(name[t]))
			t++;
		if (t < len) {
			PUT(t, len);
		} else {
			PUT(0, len);
		}
	} else if (is_sep(name[de])) { /* "thread#0 (x)" -> "thread (x)" */
		PUT(0, cut);
		PUT(de, len);
	} else { /* "a-0b" -> "a-b" */
		PUT(0, ds);
		PUT(de, len);
	}
#undef PUT
	out[o] = '\0';
	if (maxchars <= 0)
		return;
	int chars = 0;
	for (size_t i = 0; out[i]; i++) {
		if (((unsigned char)out[i] & 0xc0) != 0x80 && ++chars > maxchars) {
			/* cut: trim the separators it leaves at the end */
			while (i > 1 && is_sep(out[i - 1]))
				i--;
			out[i] = '\0';
			break;
		}
	}
}

const char *ptk_jstack_name(const struct ptk_jdump *d, int tid, const char *comm, bool trusted)
{
	const struct ptk_jthread *j = d->n ? ptk_jstack_find(d, tid) : NULL;

	if (!j)
		return NULL;
	if (!trusted) {
		size_t cl = strlen(comm);
		if (strncmp(comm, j->name, cl) || (cl < 15 && j->name[cl]))
			return NULL;
	}
	return j->name;
}
