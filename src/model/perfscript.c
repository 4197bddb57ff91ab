// SPDX-License-Identifier: GPL-2.0
#include "model/perfscript.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static inline bool is_word(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';
}

/* Perl's \s (and C's isspace): space, \t \n \v \f \r */
static inline bool is_sp(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * An interning table: byte strings -> dense ids 0, 1, 2 ... in insertion order. The keys
 * live in one arena, the index is open addressing on a 32-bit hash.
 */
struct itab {
	char *arena;
	size_t alen, acap;
	struct ient {
		size_t off;
		u32 len, hash;
	} * e;
	u32 n, cap;
	u32 *idx; /* ~0u = empty; size icap, a power of 2 */
	u32 icap;
};

static u32 hash_bytes(const void *key, size_t n)
{
	const unsigned char *p = key;
	u64 h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull), v;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&v, p, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	v = 0;
	memcpy(&v, p, n);
	h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0x9e3779b97f4a7c15ull;
	return (u32)(h >> 32);
}

static void itab_grow(struct itab *t)
{
	u32 ncap = t->icap ? t->icap * 2 : 1024;

	free(t->idx);
	t->idx = xmalloc(ncap * sizeof(*t->idx));
	memset(t->idx, 0xff, ncap * sizeof(*t->idx));
	t->icap = ncap;
	for (u32 i = 0; i < t->n; i++) {
		u32 h = t->e[i].hash & (ncap - 1);
		while (t->idx[h] != ~0u)
			h = (h + 1) & (ncap - 1);
		t->idx[h] = i;
	}
}

/* The id of key[0..len), added when new (*added set then). */
static u32 itab_put(struct itab *t, const void *key, size_t len, bool *added)
{
	u32 hv = hash_bytes(key, len), h;

	if ((size_t)t->n * 2 >= t->icap)
		itab_grow(t);
	for (h = hv & (t->icap - 1); t->idx[h] != ~0u; h = (h + 1) & (t->icap - 1)) {
		const struct ient *e = &t->e[t->idx[h]];
		if (e->hash == hv && e->len == len && !memcmp(t->arena + e->off, key, len)) {
			if (added)
				*added = false;
			return t->idx[h];
		}
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->e = xrealloc(t->e, t->cap * sizeof(*t->e));
	}
	t->alen = (t->alen + 3) & ~(size_t)3; /* keys of u32 arrays are read in place */
	if (t->alen + len + 1 > t->acap) {
		while (t->alen + len + 1 > t->acap)
			t->acap = t->acap ? t->acap * 2 : 1 << 16;
		t->arena = xrealloc(t->arena, t->acap);
	}
	memcpy(t->arena + t->alen, key, len);
	t->arena[t->alen + len] = '\0';
	t->e[t->n] = (struct ient){ t->alen, (u32)len, hv };
	t->alen += len + 1;
	t->idx[h] = t->n;
	if (added)
		*added = true;
	return t->n++;
}

static const char *itab_key(const struct itab *t, u32 id, u32 *len)
{
	*len = t->e[id].len;
	return t->arena + t->e[id].off;
}

static void itab_free(struct itab *t)
{
	free(t->arena);
	free(t->e);
	free(t->idx);
	memset(t, 0, sizeof(*t));
}

/* A growing u32 array. */
struct u32v {
	u32 *v;
	size_t n, cap;
};

static void u32v_push(struct u32v *a, u32 x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 256;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = x;
}

struct ptk_ps_state {
	struct itab names; /* tidied frame names and process names */
	struct itab fcache; /* frame-line key -> fval[id] */
	struct {
		u32 start, n; /* a run in runs[], in push (leaf-first) order */
	} * fval;
	struct u32v runs;
	struct itab stacks; /* [pname, root, ..., leaf] as u32 bytes -> weight[id] */
	u64 *weight;
	u32 wcap;
	struct u32v stk; /* the sample being read: frame ids, leaf first */
	struct u32v key; /* scratch: a stack key */
	char *scratch;
	size_t scap;
	/* the sample being read */
	bool in_sample, keep, java;
	bool chain; /* in a sample whose header had no frame on it: frame lines follow */
	u32 pname;
	u64 period;
	/* the event kept: o.event, else the first one seen */
	char filter[64];
	bool have_filter;
};

void ptk_perfscript_init(struct ptk_perfscript *ps, struct ptk_folded *out,
			 const struct ptk_perfscript_opts *o)
{
	memset(ps, 0, sizeof(*ps));
	ps->out = out;
	if (o)
		ps->o = *o;
	ps->st = xcalloc(1, sizeof(*ps->st));
	if (ps->o.event) {
		snprintf(ps->st->filter, sizeof(ps->st->filter), "%s", ps->o.event);
		ps->st->have_filter = true;
	}
}

void ptk_perfscript_release(struct ptk_perfscript *ps)
{
	struct ptk_ps_state *st = ps->st;

	if (!st)
		return;
	itab_free(&st->names);
	itab_free(&st->fcache);
	itab_free(&st->stacks);
	free(st->fval);
	free(st->runs.v);
	free(st->weight);
	free(st->stk.v);
	free(st->key.v);
	free(st->scratch);
	free(st);
	ps->st = NULL;
}

static char *scratch(struct ptk_ps_state *st, size_t n)
{
	if (n > st->scap) {
		st->scap = n + 256;
		st->scratch = xrealloc(st->scratch, st->scap);
	}
	return st->scratch;
}

/* End of one sample: add [pname, root..leaf] with the sample's period. */
static void flush(struct ptk_perfscript *ps)
{
	struct ptk_ps_state *st = ps->st;
	u32 id;
	bool added;

	if (!st->in_sample)
		return;
	st->in_sample = false;
	st->chain = false;
	if (!st->keep)
		return;
	st->key.n = 0;
	u32v_push(&st->key, st->pname);
	for (size_t i = st->stk.n; i > 0; i--)
		u32v_push(&st->key, st->stk.v[i - 1]);
	id = itab_put(&st->stacks, st->key.v, st->key.n * sizeof(u32), &added);
	if (id >= st->wcap) {
		u32 ncap = st->wcap ? st->wcap * 2 : 1024;
		st->weight = xrealloc(st->weight, ncap * sizeof(*st->weight));
		memset(st->weight + st->wcap, 0, (ncap - st->wcap) * sizeof(*st->weight));
		st->wcap = ncap;
	}
	if (st->weight[id] + st->period < st->weight[id])
		st->weight[id] = ~0ull; /* saturate: reported by finish() */
	else
		st->weight[id] += st->period;
	ps->samples_out++;
	ps->weight_out =
		ps->weight_out + st->period < ps->weight_out ? ~0ull : ps->weight_out + st->period;
}

void ptk_perfscript_finish(struct ptk_perfscript *ps)
{
	struct ptk_ps_state *st = ps->st;
	char *buf = NULL;
	size_t cap = 0;

	flush(ps);
	for (u32 id = 0; id < st->stacks.n; id++) {
		u32 klen, nlen;
		const u32 *k = (const u32 *)itab_key(&st->stacks, id, &klen);
		size_t len = 0, nk = klen / sizeof(u32);

		for (size_t i = 0; i < nk; i++) {
			itab_key(&st->names, k[i], &nlen);
			len += nlen + 1;
		}
		if (len > cap) {
			cap = len + 256;
			buf = xrealloc(buf, cap);
		}
		len = 0;
		for (size_t i = 0; i < nk; i++) {
			const char *s = itab_key(&st->names, k[i], &nlen);
			if (i)
				buf[len++] = ';';
			memcpy(buf + len, s, nlen);
			len += nlen;
		}
		buf[len] = '\0';
		if (st->weight[id] == ~0ull || ptk_folded_add_joined(ps->out, buf, st->weight[id]))
			ps->overflow++;
	}
	free(buf);
	/* the stacks are in out now: a second finish() adds nothing twice */
	itab_free(&st->stacks);
	if (st->wcap)
		memset(st->weight, 0, st->wcap * sizeof(*st->weight));
}

struct tok {
	const char *s;
	size_t n;
};

/* s[0..n) is not empty and every byte of it is one of set. */
static bool all_in(const char *s, size_t n, const char *set)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

static bool all_digits(const char *s, size_t n)
{
	return all_in(s, n, "0123456789");
}

/* lower-case hex only: stackcollapse-perf.pl strips "\+0x[\da-f]+$" */
static bool all_lhex(const char *s, size_t n)
{
	return all_in(s, n, "0123456789abcdef");
}

static bool all_hex(const char *s, size_t n)
{
	return all_in(s, n, "0123456789abcdefABCDEF");
}

/* "[001]" */
static bool is_cpu(const struct tok *t)
{
	return t->n >= 3 && t->s[0] == '[' && t->s[t->n - 1] == ']' &&
	       all_digits(t->s + 1, t->n - 2);
}

/* "856620.530720:" */
static bool is_time(const struct tok *t)
{
	const char *dot;

	if (t->n < 4 || t->s[t->n - 1] != ':')
		return false;
	dot = memchr(t->s, '.', t->n);
	return dot && all_digits(t->s, dot - t->s) && all_digits(dot + 1, t->s + t->n - 2 - dot);
}

/* "26638" or "24636/25607" */
static bool is_pid(const struct tok *t)
{
	const char *sl = memchr(t->s, '/', t->n);

	if (!sl)
		return all_digits(t->s, t->n);
	return all_digits(t->s, sl - t->s) && all_digits(sl + 1, t->s + t->n - 1 - sl);
}

static int tokenize(const char *p, const char *end, struct tok *t, int max)
{
	int n = 0;

	while (n < max) {
		while (p < end && is_sp(*p))
			p++;
		if (p == end)
			break;
		t[n].s = p;
		while (p < end && !is_sp(*p))
			p++;
		t[n].n = p - t[n].s;
		n++;
	}
	return n;
}

/* Go method names such as "net/http.(*Client).Do": a ".(" later followed by ")." */
static bool is_go_method(const char *s)
{
	const char *a = strstr(s, ".(");

	return a && strstr(a + 2, ").");
}

void ptk_perfscript_tidy(const char *func, size_t funclen, const char *dso, size_t dsolen,
			 const char *addr, size_t addrlen, bool java, char *buf, size_t size)
{
	char *tmp, *w, *cut;

	if (!size)
		return;
	tmp = xmalloc(funclen + dsolen + addrlen + 16);
	if (funclen == 9 && !memcmp(func, "[unknown]", 9)) {
		/* a missing symbol: name it after the DSO when perf knows that */
		const char *b = "unknown";
		size_t bl = 7;
		if (!(dsolen == 9 && !memcmp(dso, "[unknown]", 9))) {
			b = dso;
			bl = dsolen;
			for (size_t i = 0; i < dsolen; i++)
				if (dso[i] == '/') {
					b = dso + i + 1;
					bl = dsolen - i - 1;
				}
		}
		if (addr)
			sprintf(tmp, "[%.*s <%.*s>]", (int)bl, b, (int)addrlen, addr);
		else
			sprintf(tmp, "[%.*s]", (int)bl, b);
	} else {
		memcpy(tmp, func, funclen);
		tmp[funclen] = '\0';
	}
	for (w = tmp; *w; w++)
		if (*w == ';')
			*w = ':';
	if (!is_go_method(tmp)) {
		/* everything from the first '(' is an argument list, unless it opens
		 * "(anonymous namespace)" */
		for (cut = tmp; (cut = strchr(cut, '(')); cut++) {
			if (strncmp(cut, "(anonymous namespace)", 21)) {
				*cut = '\0';
				break;
			}
		}
	}
	for (w = cut = tmp; *cut; cut++)
		if (*cut != '"' && *cut != '\'')
			*w++ = *cut;
	*w = '\0';
	w = tmp;
	if (java && w[0] == 'L' && strchr(w, '/'))
		w++;
	snprintf(buf, size, "%s", w);
	free(tmp);
}

static bool dso_is_kernel(const char *d, size_t n)
{
	if (memmem(d, n, "unknown", 7))
		return false;
	return (n && d[0] == '[') || (n >= 7 && !memcmp(d + n - 7, "vmlinux", 7));
}

/* "/tmp/perf-PID.map" anywhere in the name (perf map JITs), or ".../jitted-PID-N.so"
 * (perf inject --jit) */
static bool dso_is_jit(const char *d, size_t n)
{
	const char *p = d, *end = d + n, *j;

	while ((p = memmem(p, end - p, "/tmp/perf-", 10))) {
		const char *q = p + 10;
		while (q < end && isdigit((unsigned char)*q))
			q++;
		if (q > p + 10 && end - q >= 4 && !memcmp(q, ".map", 4))
			return true;
		p += 10;
	}
	j = memmem(d, n, "/jitted-", 8);
	return j && n >= 3 && !memcmp(end - 3, ".so", 3);
}

static bool has_str(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* Tidy and annotate the parts of one frame ("a->b->c") and append their ids to runs[],
 * in push order (leaf first: c, b, a). Returns the number of ids. */
static u32 make_frames(struct ptk_perfscript *ps, const char *fn, size_t fnlen, const char *dso,
		       size_t dsolen, const char *pc, size_t pclen)
{
	struct ptk_ps_state *st = ps->st;
	const char *part = fn, *end = fn + fnlen, *arrow;
	u32 ids[64], n = 0;
	size_t nparts, size;
	char *name;

	/* split on "->" with Perl's split: trailing empty fields dropped */
	while (end - fn >= 2 && end[-1] == '>' && end[-2] == '-')
		end -= 2;
	nparts = 1;
	for (const char *p = fn; (p = memmem(p, end - p, "->", 2)); p += 2)
		nparts++;
	if (end == fn)
		return 0;
	size = fnlen + dsolen + pclen + 32;
	name = xmalloc(size);
	for (size_t k = 0; k < nparts; k++) {
		size_t pl, nl;
		bool unknown;
		arrow = memmem(part, end - part, "->", 2);
		pl = (arrow ? arrow : end) - part;
		unknown = pl == 9 && !memcmp(part, "[unknown]", 9);
		ptk_perfscript_tidy(part, pl, dso, dsolen, ps->o.addrs && unknown ? pc : NULL,
				    pclen, st->java, name, size - 5);
		nl = strlen(name);
		if (k) {
			if (!strstr(name, "_[i]"))
				strcpy(name + nl, "_[i]");
		} else if (ps->o.annotate_kernel && dso_is_kernel(dso, dsolen)) {
			strcpy(name + nl, "_[k]");
		} else if (ps->o.annotate_jit && dso_is_jit(dso, dsolen)) {
			if (!strstr(name, "_[j]"))
				strcpy(name + nl, "_[j]");
		}
		if (n < ARRAY_SIZE(ids))
			ids[n++] = itab_put(&st->names, name, strlen(name), NULL);
		if (!arrow)
			break;
		part = arrow + 2;
	}
	free(name);
	for (u32 i = n; i > 0; i--)
		u32v_push(&st->runs, ids[i - 1]);
	return n;
}

/*
 * One frame line, with the match stackcollapse-perf.pl's /^\s*(\w+)\s*(.+) \((.*)\)/ makes:
 * the address is the leading word, the DSO runs from the last " (" that has a ')' after it
 * to the last ')', and the function is what lies between (at least one byte). Returns
 * false when the line is no frame.
 */
static bool frame_line(struct ptk_perfscript *ps, const char *p, size_t n)
{
	struct ptk_ps_state *st = ps->st;
	const char *end = p + n, *lead = p, *w, *r, *s, *start, *fn, *dso, *pc;
	size_t fnlen, dsolen, pclen, klen;
	u32 id;
	bool added;
	char *k;

	while (lead < end && is_sp(*lead))
		lead++;
	for (w = lead; w < end && is_word(*w);)
		w++;
	if (w == lead)
		return false;
	start = w;
	while (start < end && is_sp(*start))
		start++;
	for (r = end - 1; r >= lead && *r != ')'; r--)
		;
	if (r < lead)
		return false;
	for (s = r - 2; s >= lead && !(s[0] == ' ' && s[1] == '('); s--)
		;
	if (s < lead)
		return false;
	if (start > s - 1)
		start = s - 1; /* the regex backtracks: the function takes one byte back */
	if (start < lead + 1)
		return false;
	pc = lead;
	pclen = (start < w ? start : w) - lead;
	fn = start;
	fnlen = s - start;
	dso = s + 2;
	dsolen = r - dso;
	ps->frames_in++;
	if (!st->keep)
		return true;
	/* "func+0x1a" (perf >= 4.8 prints symbol offsets): strip */
	for (size_t i = fnlen; i >= 3; i--) {
		if (fn[i - 3] == '+' && fn[i - 2] == '0' && fn[i - 1] == 'x') {
			if (all_lhex(fn + i, fnlen - i))
				fnlen = i - 3;
			break;
		}
	}
	/* "(comm)" process names are skipped as stackcollapse-perf.pl does; ptk keeps
	 * "(anonymous namespace)::f" */
	if (fn[0] == '(' && !(fnlen >= 21 && !memcmp(fn, "(anonymous namespace)", 21)))
		return true;
	/* the cache key: java flag, function, DSO, and the address when --addrs may use it */
	if (!ps->o.addrs || !has_str(fn, fnlen, "[unknown]"))
		pclen = 0;
	klen = 1 + fnlen + 1 + dsolen + 1 + pclen;
	k = scratch(st, klen);
	k[0] = st->java ? 'j' : '-';
	memcpy(k + 1, fn, fnlen);
	k[1 + fnlen] = '\0';
	memcpy(k + 2 + fnlen, dso, dsolen);
	k[2 + fnlen + dsolen] = '\0';
	memcpy(k + 3 + fnlen + dsolen, pc, pclen);
	id = itab_put(&st->fcache, k, klen, &added);
	if (added) {
		u32 at = st->runs.n, cnt;
		if (!(id & (id - 1)) || id == 0) /* grow fval at powers of two */
			st->fval = xrealloc(st->fval, (id ? id * 2 : 1) * sizeof(*st->fval));
		cnt = make_frames(ps, fn, fnlen, dso, dsolen, pc, pclen);
		st->fval[id].start = at;
		st->fval[id].n = cnt;
	}
	for (u32 i = 0; i < st->fval[id].n; i++)
		u32v_push(&st->stk, st->runs.v[st->fval[id].start + i]);
	return true;
}

static void count_event(struct ptk_perfscript *ps, const char *name, size_t n, bool kept)
{
	int i;

	for (i = 0; i < ps->nev && i < PTK_PERFSCRIPT_MAX_EVENTS; i++)
		if (strlen(ps->ev[i].name) == n && !memcmp(ps->ev[i].name, name, n))
			break;
	if (i == PTK_PERFSCRIPT_MAX_EVENTS)
		return;
	if (i == ps->nev) {
		snprintf(ps->ev[i].name, sizeof(ps->ev[i].name), "%.*s", (int)n, name);
		ps->nev++;
	}
	ps->ev[i].samples++;
	if (kept) {
		ps->ev[i].kept = true;
		ps->ev[i].weight += ps->st->period;
	}
}

/*
 * The event and period as stackcollapse-perf.pl's /:\s*(\d+)*\s+(\S+):\s*$/ reads them: the
 * last token ends with ':' and is the event; the token before it is the period when it is
 * digits after a ':' (the time's), else it ends with ':' itself (no period). Returns false
 * when the header has no such end (a tracepoint's fields follow the event).
 */
static bool perl_event(const struct tok *t, int n, const char **ev, size_t *evn, u64 *period)
{
	const struct tok *e, *p;
	size_t d;

	if (n < 2)
		return false;
	e = &t[n - 1];
	p = &t[n - 2];
	if (e->n < 2 || e->s[e->n - 1] != ':')
		return false;
	*ev = e->s;
	*evn = e->n - 1;
	*period = 1;
	if (p->s[p->n - 1] == ':')
		return true;
	for (d = 0; d < p->n && isdigit((unsigned char)p->s[p->n - 1 - d]);)
		d++;
	if (!d)
		return false;
	if (d < p->n) {
		if (p->s[p->n - 1 - d] != ':')
			return false;
	} else if (n < 3 || t[n - 3].s[t[n - 3].n - 1] != ':') {
		return false;
	}
	/* Perl's `not $period`: "0" (and "") count 1; "00" is a true string worth 0 */
	if (!(d == 1 && p->s[p->n - 1] == '0')) {
		u64 v = 0;
		for (size_t i = p->n - d; i < p->n; i++)
			v = v * 10 + (p->s[i] - '0');
		*period = v;
	}
	return true;
}

#define MAX_TOKS 64

/*
 * A sample header. The comm may hold spaces and digits ("Plex DLNA Serve 26638 [001]",
 * "[ET_NET 0] 1234 [000]"), so the pid is the token just before the first cpu ("[001]") or
 * time ("856620.530720:") token; without either, the first pid-like token after the comm
 * that blanks follow (the stackcollapse-perf.pl rule). padded: perf indented the header
 * (Perl reads no such header). Returns false when the line is no header.
 */
static bool header_line(struct ptk_perfscript *ps, const char *line, const char *end, bool padded)
{
	struct ptk_ps_state *st = ps->st;
	struct tok t[MAX_TOKS];
	int n = tokenize(line, end, t, MAX_TOKS), pidx = -1, k, ek = -1;
	const char *comm_end, *ev = NULL, *sl;
	size_t evn = 0, cl, len;
	char pidbuf[32], tidbuf[32];
	char *pn;
	u64 period = 1;
	bool perl;

	for (k = 2; k < n; k++) {
		if (is_cpu(&t[k]) || is_time(&t[k])) {
			if (is_pid(&t[k - 1]))
				pidx = k - 1;
			break;
		}
	}
	if (pidx < 0)
		for (k = 1; k < n && pidx < 0; k++)
			if (is_pid(&t[k]) && t[k].s + t[k].n < end)
				pidx = k;
	if (pidx < 1)
		return false;

	flush(ps); /* samples without callchains have no empty line between them */
	st->in_sample = true;
	st->stk.n = 0;
	ps->samples_in++;

	perl = n == MAX_TOKS ? false : perl_event(t, n, &ev, &evn, &period);
	if (perl && ev < t[pidx].s + t[pidx].n)
		perl = false; /* the event must follow the pid */
	if (!perl) {
		/* beyond the Perl script: the first "name:" token after the pid that is
		 * not the time (tracepoints, samples without callchain) */
		ev = NULL;
		period = 1;
		for (k = pidx + 1; k < n; k++) {
			if (is_cpu(&t[k]) || is_time(&t[k]))
				continue;
			if (t[k].n > 1 && t[k].s[t[k].n - 1] == ':') {
				ev = t[k].s;
				evn = t[k].n - 1;
				ek = k;
				break;
			}
		}
		if (ek > pidx + 1 && all_digits(t[ek - 1].s, t[ek - 1].n) && !is_cpu(&t[ek - 1])) {
			period = 0;
			for (size_t i = 0; i < t[ek - 1].n; i++)
				period = period * 10 + (t[ek - 1].s[i] - '0');
			if (!period)
				period = 1;
		}
	}
	if (ps->o.unit)
		period = 1;
	st->period = period;
	if (ev && !st->have_filter) {
		snprintf(st->filter, sizeof(st->filter), "%.*s", (int)evn, ev);
		st->have_filter = true;
	}
	st->keep = !ev || (strlen(st->filter) == evn && !memcmp(st->filter, ev, evn));
	count_event(ps, ev ? ev : "", ev ? evn : 0, st->keep);
	if (!st->keep)
		ps->samples_filtered++;

	comm_end = t[pidx].s;
	while (comm_end > line && isspace((unsigned char)comm_end[-1]))
		comm_end--;
	cl = comm_end - line;
	/* Perl's comm is at least two characters: a one-character comm followed by more than
	 * one blank ("w  9503/9503  [000]", perf script -F comm,pid,tid) keeps its first blank,
	 * "w_" in the stack (with one blank Perl mixes the header up and ptk reads "w") */
	if (cl == 1 && !padded && t[pidx].s - comm_end >= 2)
		cl = 2;
	sl = memchr(t[pidx].s, '/', t[pidx].n);
	/* Perl takes a tid of "0" (the idle task's "0/0") for none: "swapper-?/0" */
	if (sl && t[pidx].s + t[pidx].n - sl - 1 == 1 && sl[1] == '0') {
		snprintf(tidbuf, sizeof(tidbuf), "%.*s", (int)(sl - t[pidx].s), t[pidx].s);
		strcpy(pidbuf, "?");
	} else if (sl) {
		snprintf(pidbuf, sizeof(pidbuf), "%.*s", (int)(sl - t[pidx].s), t[pidx].s);
		snprintf(tidbuf, sizeof(tidbuf), "%.*s", (int)(t[pidx].s + t[pidx].n - sl - 1),
			 sl + 1);
	} else {
		strcpy(pidbuf, "?");
		snprintf(tidbuf, sizeof(tidbuf), "%.*s", (int)t[pidx].n, t[pidx].s);
	}
	pn = scratch(st, cl + sizeof(pidbuf) + sizeof(tidbuf) + 3);
	if (ps->o.tid)
		len = sprintf(pn, "%.*s-%s/%s", (int)cl, line, pidbuf, tidbuf);
	else if (ps->o.pid)
		len = sprintf(pn, "%.*s-%s", (int)cl, line, pidbuf);
	else
		len = sprintf(pn, "%.*s", (int)cl, line);
	for (size_t i = 0; i < len; i++)
		if (pn[i] == ' ')
			pn[i] = '_';
	st->java = cl >= 4 && !memcmp(line, "java", 4);
	st->pname = itab_put(&st->names, pn, len, NULL);

	/* without -g, the sample's one frame follows the event on the same line */
	if (ek >= 0 && ek + 1 < n && all_hex(t[ek + 1].s, t[ek + 1].n)) {
		if (st->keep)
			frame_line(ps, t[ek + 1].s, end - t[ek + 1].s);
	} else {
		st->chain = true;
	}
	return true;
}

/*
 * A header whose comm perf padded with leading blanks (perf script without -g prints the
 * comm as %16s): a pid token followed by a cpu or time token. A frame line ("addr sym
 * (dso)") never has that shape.
 */
static bool padded_header(const char *p, const char *end)
{
	struct tok t[8];
	int n = tokenize(p, end, t, 8);

	for (int k = 2; k < n; k++)
		if (is_cpu(&t[k]) || is_time(&t[k]))
			return is_pid(&t[k - 1]);
	return false;
}

void ptk_perfscript_linen(struct ptk_perfscript *ps, const char *line, size_t n)
{
	const char *p = line, *end;

	if (n && line[n - 1] == '\r')
		n--;
	if (n && line[0] == '#')
		return;
	end = line + n;
	while (p < end && is_sp(*p))
		p++;
	if (p == end) {
		flush(ps);
		return;
	}
	if (p != line) {
		/* a frame (perf indents them), or a header perf padded (without -g, where the
		 * frame is on the header line: then no callchain follows it) */
		if (ps->st->chain && frame_line(ps, p, end - p))
			return;
		if (padded_header(p, end) && header_line(ps, p, end, true))
			return;
		if (ps->st->in_sample && !ps->st->chain && frame_line(ps, p, end - p))
			return;
		ps->lines_skipped++;
		return;
	}
	if (header_line(ps, line, end, false))
		return;
	/* a frame at column 0 (hand-made or converted stacks) */
	if (!ps->st->in_sample || !frame_line(ps, line, n))
		ps->lines_skipped++;
}

void ptk_perfscript_line(struct ptk_perfscript *ps, const char *line)
{
	ptk_perfscript_linen(ps, line, strcspn(line, "\n"));
}

/* "a;b;c 12": the last token is a count */
static bool folded_like(const char *l)
{
	size_t n = strcspn(l, "\r\n");
	size_t e;

	while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
		n--;
	e = n;
	while (n && isdigit((unsigned char)l[n - 1]))
		n--;
	/* a signed count is a folded line too (which the folded parser then refuses): never
	 * a perf script header */
	if (e > n && n > 1 && (l[n - 1] == '-' || l[n - 1] == '+'))
		n--;
	return e > n && n > 1 && (l[n - 1] == ' ' || l[n - 1] == '\t');
}

bool ptk_perfscript_detect(const char *line1, const char *line2)
{
	if (!line1)
		return false;
	if (isspace((unsigned char)line1[0]) || (line2 && isspace((unsigned char)line2[0])))
		return true;
	return !folded_like(line1);
}
