// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/smaps and /proc/PID/maps (fs/proc/task_mmu.c). */
#include "source/procfs/smaps.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/pid.h"

static const char *const key_names[PTK_SM_NKEYS] = {
	[PTK_SM_SIZE] = "Size",
	[PTK_SM_RSS] = "Rss",
	[PTK_SM_PSS] = "Pss",
	[PTK_SM_SHARED_DIRTY] = "Shared_Dirty",
	[PTK_SM_PRIVATE_DIRTY] = "Private_Dirty",
	[PTK_SM_SWAP] = "Swap",
};

void ptk_smaps_free(struct ptk_smaps *s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->m[i].path);
		free(s->m[i].vmflags);
	}
	free(s->m);
	memset(s, 0, sizeof(*s));
}

int ptk_smaps_field(const struct ptk_smaps *s, const char *name)
{
	for (int i = 0; i < s->nfields; i++)
		if (!strcmp(s->field[i], name))
			return i;
	return -1;
}

bool ptk_smap_get(const struct ptk_smaps *s, const struct ptk_smap *m, enum ptk_smaps_key k, u64 *v)
{
	int i = s->key[k];

	if (i < 0 || !(m->have & (1ULL << i)))
		return false;
	*v = m->val[i];
	return true;
}

bool ptk_smap_dirty(const struct ptk_smaps *s, const struct ptk_smap *m, u64 *kb)
{
	u64 sd, pd;
	bool hs = ptk_smap_get(s, m, PTK_SM_SHARED_DIRTY, &sd);
	bool hp = ptk_smap_get(s, m, PTK_SM_PRIVATE_DIRTY, &pd);

	*kb = (hs ? sd : 0) + (hp ? pd : 0);
	return hs || hp;
}

/* Add field k of m to *sum when present, setting *ok. */
static void add_key(const struct ptk_smaps *s, const struct ptk_smap *m, enum ptk_smaps_key k,
		    u64 *sum, bool *ok)
{
	u64 v;

	if (ptk_smap_get(s, m, k, &v)) {
		*sum += v;
		*ok = true;
	}
}

void ptk_smaps_totals(const struct ptk_smaps *s, struct ptk_smaps_totals *t)
{
	u64 mapped = 0, wpriv = 0, shared = 0, d;

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < s->n; i++) {
		const struct ptk_smap *m = &s->m[i];
		u64 bytes = m->end - m->start;

		t->size_kb += bytes >> 10;
		add_key(s, m, PTK_SM_RSS, &t->rss_kb, &t->rss_ok);
		add_key(s, m, PTK_SM_PSS, &t->pss_kb, &t->pss_ok);
		add_key(s, m, PTK_SM_SWAP, &t->swap_kb, &t->swap_ok);
		if (ptk_smap_dirty(s, m, &d)) {
			t->dirty_kb += d;
			t->dirty_ok = true;
		}
		mapped += bytes;
		if (m->perms[3] == 's')
			shared += bytes;
		else if (m->perms[3] == 'p' && m->perms[1] == 'w')
			wpriv += bytes;
	}
	t->mapped_kb = mapped >> 10;
	t->wpriv_kb = wpriv >> 10;
	t->shared_kb = shared >> 10;
}

u64 ptk_smaps_field_sum(const struct ptk_smaps *s, int i)
{
	u64 sum = 0;

	for (int k = 0; i >= 0 && k < s->n; k++)
		if (s->m[k].have & (1ULL << i))
			sum += s->m[k].val[i];
	return sum;
}

/* Copy a token into buf as a C string; false when it does not fit. */
static bool tok_copy(const char *tok, size_t len, char *buf, size_t size)
{
	if (!tok || len == 0 || len >= size)
		return false;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	return true;
}

static bool parse_hex(const char *s, u64 *out)
{
	char *end;

	if (!isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 16);
	return !errno && *end == '\0';
}

/* "start-end perms offset major:minor inode   path" (show_map_vma). */
static int parse_header(const char *p, const char *eol, struct ptk_smap *m)
{
	char line[160], tmp[48], *dash, *colon;
	const char *tok;
	size_t len;

	/* The fixed columns fit in 128 bytes; the path is taken from the original line. */
	len = MIN((size_t)(eol - p), sizeof(line) - 1);
	memcpy(line, p, len);
	line[len] = '\0';
	const char *q = line;

	memset(m, 0, sizeof(*m));
	if (!(q = ptk_next_tok(q, &tok, &len)) || !tok_copy(tok, len, tmp, sizeof(tmp)))
		return -EINVAL;
	dash = strchr(tmp, '-');
	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (!parse_hex(tmp, &m->start) || !parse_hex(dash + 1, &m->end) || m->end < m->start ||
	    !tok_copy(tmp, strlen(tmp), m->start_s, sizeof(m->start_s)))
		return -EINVAL;
	if (!(q = ptk_next_tok(q, &tok, &len)) || !tok_copy(tok, len, m->perms, sizeof(m->perms)) ||
	    len < 4)
		return -EINVAL;
	if (!(q = ptk_next_tok(q, &tok, &len)) ||
	    !tok_copy(tok, len, m->offset_s, sizeof(m->offset_s)) ||
	    !parse_hex(m->offset_s, &m->offset))
		return -EINVAL;
	if (!(q = ptk_next_tok(q, &tok, &len)) || !tok_copy(tok, len, m->dev_s, sizeof(m->dev_s)))
		return -EINVAL;
	colon = strchr(m->dev_s, ':');
	if (!colon)
		return -EINVAL;
	m->dev_major = strtoul(m->dev_s, NULL, 16);
	m->dev_minor = strtoul(colon + 1, NULL, 16);
	if (!(q = ptk_next_tok(q, &tok, &len)) ||
	    !tok_copy(tok, len, m->inode_s, sizeof(m->inode_s)) ||
	    ptk_parse_u64(m->inode_s, &m->inode))
		return -EINVAL;
	/* The path is the rest of the original line after the padding: spaces inside it and
	 * a " (deleted)" suffix belong to it. */
	const char *path = p + (q - line);
	while (path < eol && (*path == ' ' || *path == '\t'))
		path++;
	m->path = xmalloc(eol - path + 1);
	memcpy(m->path, path, eol - path);
	m->path[eol - path] = '\0';
	return 0;
}

static int field_index(struct ptk_smaps *s, const char *name, size_t len, int hint, bool kb)
{
	if (hint < s->nfields && strlen(s->field[hint]) == len &&
	    !memcmp(s->field[hint], name, len))
		return hint;
	for (int i = 0; i < s->nfields; i++)
		if (strlen(s->field[i]) == len && !memcmp(s->field[i], name, len))
			return i;
	if (s->nfields >= PTK_SMAPS_MAXF || len >= sizeof(s->field[0]))
		return -1;
	memcpy(s->field[s->nfields], name, len);
	s->field[s->nfields][len] = '\0';
	s->field_kb[s->nfields] = kb;
	return s->nfields++;
}

/* "Key:   value kB" or "VmFlags: rd wr ...". Returns 0, 1 for a line we skip, -EINVAL. */
static int parse_key(struct ptk_smaps *s, struct ptk_smap *m, const char *p, const char *eol,
		     int hint)
{
	const char *colon = memchr(p, ':', eol - p), *v;
	u64 val = 0;
	bool kb = false;

	if (!colon || colon == p)
		return -EINVAL;
	for (const char *c = p; c < colon; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return -EINVAL;
	v = colon + 1;
	while (v < eol && *v == ' ')
		v++;
	if (colon - p == 7 && !memcmp(p, "VmFlags", 7)) {
		const char *e = eol;
		while (e > v && e[-1] == ' ')
			e--;
		free(m->vmflags);
		m->vmflags = xmalloc(e - v + 1);
		memcpy(m->vmflags, v, e - v);
		m->vmflags[e - v] = '\0';
		s->has_vmflags = true;
		return 0;
	}
	if (v >= eol || !isdigit((unsigned char)*v))
		return 1; /* a key whose value is not a number: not ours to total */
	for (; v < eol && isdigit((unsigned char)*v); v++) {
		if (val > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		val = val * 10 + (*v - '0');
	}
	while (v < eol && *v == ' ')
		v++;
	if (eol - v >= 2 && v[0] == 'k' && v[1] == 'B')
		kb = true;
	int i = field_index(s, p, colon - p, hint, kb);
	if (i < 0)
		return 1;
	m->val[i] = val;
	m->have |= 1ULL << i;
	return 0;
}

static void drop_last(struct ptk_smaps *s)
{
	struct ptk_smap *m = &s->m[--s->n];

	free(m->path);
	free(m->vmflags);
	memset(m, 0, sizeof(*m));
	s->truncated = true;
}

int ptk_smaps_parse(const char *buf, size_t len, struct ptk_smaps *s)
{
	const char *p = buf, *end = buf + len;
	int nkeys = 0; /* key lines of the current entry */
	int expect = -1; /* key lines of a whole entry (from the first one) */
	int r;

	memset(s, 0, sizeof(*s));
	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		if (!eol) {
			/* A line cut short: the process went away mid-read. */
			if (s->n)
				drop_last(s);
			s->truncated = true;
			break;
		}
		if (eol == p) {
			p = eol + 1;
			continue;
		}
		if (isdigit((unsigned char)*p) || (*p >= 'a' && *p <= 'f')) {
			if (s->n == 1 && expect < 0)
				expect = nkeys;
			if (s->n == s->cap) {
				s->cap = s->cap ? 2 * s->cap : 64;
				s->m = xrealloc(s->m, s->cap * sizeof(*s->m));
			}
			if ((r = parse_header(p, eol, &s->m[s->n]))) {
				free(s->m[s->n].path);
				ptk_smaps_free(s);
				return r;
			}
			s->n++;
			nkeys = 0;
		} else if (*p >= 'A' && *p <= 'Z' && s->n) {
			r = parse_key(s, &s->m[s->n - 1], p, eol, nkeys);
			if (r < 0) {
				ptk_smaps_free(s);
				return r;
			}
			nkeys++;
		} else {
			ptk_smaps_free(s);
			return -EINVAL;
		}
		p = eol + 1;
	}
	/* The last entry lacks keys the others had: it was cut at a line boundary. */
	if (!s->truncated && s->n >= 2 && expect > 0 && nkeys < expect)
		drop_last(s);
	for (int k = 0; k < PTK_SM_NKEYS; k++)
		s->key[k] = ptk_smaps_field(s, key_names[k]);
	return 0;
}

int ptk_smaps_read(const struct ptk_src *src, int pid, bool full, struct ptk_smaps *s)
{
	struct ptk_buf b = { 0 };
	char rel[64];
	ssize_t n;
	int r;

	memset(s, 0, sizeof(*s));
	snprintf(rel, sizeof(rel), "%d/%s", pid, full ? "smaps" : "maps");
	n = ptk_src_read_buf(src, PTK_PROC, rel, &b);
	if (n < 0) {
		ptk_buf_free(&b);
		return n == -ESRCH ? -ENOENT : (int)n;
	}
	r = ptk_smaps_parse(b.p, b.len, s);
	ptk_buf_free(&b);
	return r;
}

int ptk_smaps_startstack(const struct ptk_src *src, int pid, u64 *addr)
{
	char rel[64], buf[2048], num[32];
	const char *p, *tok;
	size_t len;
	ssize_t n;

	snprintf(rel, sizeof(rel), "%d/stat", pid);
	n = ptk_src_read(src, PTK_PROC, rel, buf, sizeof(buf));
	if (n < 0)
		return n;
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	p++;
	/* Token 0 after ')' is field 3 (state); startstack is field 28. */
	for (int i = 0; i <= 25; i++)
		if (!(p = ptk_next_tok(p, &tok, &len)))
			return -EINVAL;
	if (!tok_copy(tok, len, num, sizeof(num)) || ptk_parse_u64(num, addr))
		return -EINVAL;
	return 0;
}

char *ptk_smaps_cmdline(const struct ptk_src *src, int pid)
{
	struct ptk_buf b = { 0 };
	char rel[64], *out;
	ssize_t n;

	snprintf(rel, sizeof(rel), "%d/cmdline", pid);
	n = ptk_src_read_buf(src, PTK_PROC, rel, &b);
	if (n < 0) {
		ptk_buf_free(&b);
		errno = -n;
		return NULL;
	}
	while (b.len && b.p[b.len - 1] == '\0')
		b.len--;
	if (b.len) {
		out = xmalloc(4 * b.len + 8);
		ptk_cmdline_escape(b.p, b.len, out, 4 * b.len + 8);
		ptk_buf_free(&b);
		return out;
	}
	/* No arguments (kernel thread, zombie): "[comm]" as procps shows it. */
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	n = ptk_src_read_buf(src, PTK_PROC, rel, &b);
	const char *l = n > 0 ? strchr(b.p, '(') : NULL, *r = n > 0 ? strrchr(b.p, ')') : NULL;
	if (!l || !r || r < l) {
		ptk_buf_free(&b);
		errno = n < 0 ? (int)-n : EINVAL;
		return NULL;
	}
	out = xmalloc(4 * (r - l) + 8);
	out[0] = '[';
	ptk_cmdline_escape(l + 1, r - l - 1, out + 1, 4 * (r - l) + 4);
	strcat(out, "]");
	ptk_buf_free(&b);
	return out;
}
