// SPDX-License-Identifier: GPL-2.0
#include "model/perfscript.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void ptk_perfscript_init(struct ptk_perfscript *ps, struct ptk_folded *out,
			 const struct ptk_perfscript_opts *o)
{
	memset(ps, 0, sizeof(*ps));
	ps->out = out;
	if (o)
		ps->o = *o;
}

static void clear_sample(struct ptk_perfscript *ps)
{
	for (int i = 0; i < ps->nframes; i++)
		free(ps->frames[i]);
	ps->nframes = 0;
	free(ps->pname);
	ps->pname = NULL;
	ps->in_sample = false;
	ps->keep = false;
}

void ptk_perfscript_release(struct ptk_perfscript *ps)
{
	clear_sample(ps);
	free(ps->frames);
	ps->frames = NULL;
	ps->capframes = 0;
}

/* End of one sample: emit pname;root;...;leaf with a count of 1. */
static void flush(struct ptk_perfscript *ps)
{
	const char **v;

	if (!ps->in_sample)
		return;
	if (ps->keep) {
		v = xmalloc((ps->nframes + 1) * sizeof(*v));
		v[0] = ps->pname ? ps->pname : "";
		for (int i = 0; i < ps->nframes; i++)
			v[1 + i] = ps->frames[ps->nframes - 1 - i];
		ptk_folded_add(ps->out, v, ps->nframes + 1, 1);
		free(v);
		ps->samples_out++;
	}
	clear_sample(ps);
}

void ptk_perfscript_finish(struct ptk_perfscript *ps)
{
	flush(ps);
}

static void push_frame(struct ptk_perfscript *ps, const char *s)
{
	if (ps->nframes == ps->capframes) {
		ps->capframes = ps->capframes ? ps->capframes * 2 : 64;
		ps->frames = xrealloc(ps->frames, ps->capframes * sizeof(*ps->frames));
	}
	ps->frames[ps->nframes++] = xstrdup(s);
}

struct tok {
	const char *s;
	size_t n;
};

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool all_hex(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
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

static int tokenize(const char *line, struct tok *t, int max)
{
	const char *p = line, *tok;
	size_t len;
	int n = 0;

	while (n < max && (p = ptk_next_tok(p, &tok, &len))) {
		t[n].s = tok;
		t[n].n = len;
		n++;
	}
	return n;
}

static const char *basename_n(const char *s, size_t n, size_t *outlen)
{
	const char *b = s;

	for (size_t i = 0; i < n; i++)
		if (s[i] == '/')
			b = s + i + 1;
	*outlen = s + n - b;
	return b;
}

/* Go method names such as "net/http.(*Client).Do": a ".(" later followed by ")." */
static bool is_go_method(const char *s)
{
	const char *a = strstr(s, ".(");

	return a && strstr(a + 2, ").");
}

void ptk_perfscript_tidy(const char *sym, size_t symlen, const char *dso, size_t dsolen, bool java,
			 char *buf, size_t size)
{
	char *tmp, *w, *cut;
	size_t n = symlen;

	if (!size)
		return;
	/* "func+0x1a" (perf >= 4.8 prints symbol offsets): strip */
	for (size_t i = n; i >= 3; i--) {
		if (!memcmp(sym + i - 3, "+0x", 3)) {
			if (all_hex(sym + i, n - i))
				n = i - 3;
			break;
		}
	}
	tmp = xmalloc(n + dsolen + 3);
	if (n == 9 && !memcmp(sym, "[unknown]", 9)) {
		/* a missing symbol: name it after the DSO when perf knows that */
		if (dsolen && !(dsolen == 9 && !memcmp(dso, "[unknown]", 9))) {
			size_t bl;
			const char *b = basename_n(dso, dsolen, &bl);
			sprintf(tmp, "[%.*s]", (int)bl, b);
		} else {
			strcpy(tmp, "[unknown]");
		}
	} else {
		memcpy(tmp, sym, n);
		tmp[n] = '\0';
	}
	for (w = tmp; *w; w++)
		if (*w == ';')
			*w = ':';
	if (!is_go_method(tmp)) {
		/* everything after the first '(' is an argument list, unless it opens
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
	if (n >= 9 && memmem(d, n, "unknown", 7))
		return false;
	return (n && d[0] == '[') || (n >= 7 && !memcmp(d + n - 7, "vmlinux", 7));
}

static bool dso_is_jit(const char *d, size_t n)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)n, d);
	if (!strncmp(buf, "/tmp/perf-", 10) && strstr(buf, ".map"))
		return true;
	return strstr(buf, "/jitted-") && strstr(buf, ".so");
}

/*
 * One frame: "addr sym[+0xoff] (dso)", possibly "a->b->c" for inlined frames. The DSO is
 * the last parenthesized group, matched from the end so that DSO paths with spaces work
 * and symbols with parentheses ("f(int)") keep theirs for the tidy step.
 */
static bool frame_line(struct ptk_perfscript *ps, const char *p, size_t n)
{
	const char *sym, *dso = "", *end = p + n;
	size_t symlen, dsolen = 0, i = 0;
	char name[1024];
	const char *part, *arrow;
	int first, nparts = 0;
	char **parts = NULL;

	while (i < n && isxdigit((unsigned char)p[i]))
		i++;
	if (!i || (i < n && !isspace((unsigned char)p[i])))
		return false; /* a srcline ("file.c:12"), or something else */
	sym = p + i;
	while (sym < end && isspace((unsigned char)*sym))
		sym++;
	while (end > sym && isspace((unsigned char)end[-1]))
		end--;
	if (end > sym && end[-1] == ')') {
		int depth = 0;
		const char *q = end - 1;
		for (; q >= sym; q--) {
			if (*q == ')')
				depth++;
			else if (*q == '(' && --depth == 0)
				break;
		}
		if (q >= sym && (q == sym || q[-1] == ' ' || q[-1] == '\t')) {
			dso = q + 1;
			dsolen = end - 1 - dso;
			end = q;
			while (end > sym && isspace((unsigned char)end[-1]))
				end--;
		}
	}
	symlen = end - sym;
	ps->frames_in++;
	if (!ps->keep)
		return true;
	if (!symlen)
		return true; /* an address alone: perf printed no symbol field */
	if (sym[0] == '(' && strncmp(sym, "(anonymous namespace)", 21))
		return true; /* "(comm)" process names, as stackcollapse-perf.pl skips them */
	/* "a->b": b inlined into a; all pushed leaf first */
	part = sym;
	first = 1;
	for (;;) {
		arrow = memmem(part, end - part, "->", 2);
		size_t pl = (arrow ? arrow : end) - part;
		ptk_perfscript_tidy(part, pl, dso, dsolen, ps->pname && !strcmp(ps->pname, "java"),
				    name, sizeof(name) - 5);
		if (!first)
			strcat(name, "_[i]");
		else if (ps->o.annotate_kernel && dso_is_kernel(dso, dsolen))
			strcat(name, "_[k]");
		else if (ps->o.annotate_jit && dso_is_jit(dso, dsolen))
			strcat(name, "_[j]");
		parts = xrealloc(parts, (nparts + 1) * sizeof(*parts));
		parts[nparts++] = xstrdup(name);
		first = 0;
		if (!arrow)
			break;
		part = arrow + 2;
	}
	/* frames are kept leaf first: push the inline group in reverse */
	for (int k = nparts - 1; k >= 0; k--) {
		push_frame(ps, parts[k]);
		free(parts[k]);
	}
	free(parts);
	return true;
}

static void count_event(struct ptk_perfscript *ps, const char *name, size_t n)
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
}

#define MAX_TOKS 64

/*
 * A sample header. The comm may hold spaces and digits ("Plex DLNA Serve 26638 [001]",
 * "[ET_NET 0] 1234 [000]"), so the pid is the token just before the first cpu ("[001]") or
 * time ("856620.530720:") token; without either, the first pid-like token after the comm
 * (the stackcollapse-perf.pl rule). Returns false when the line is no header.
 */
static bool header_line(struct ptk_perfscript *ps, const char *line)
{
	struct tok t[MAX_TOKS];
	int n = tokenize(line, t, MAX_TOKS), pidx = -1, k;
	const char *comm_end, *ev = NULL, *sl;
	size_t evn = 0;
	char pidbuf[32], tidbuf[32];
	char *pn;

	for (k = 2; k < n; k++) {
		if (is_cpu(&t[k]) || is_time(&t[k])) {
			if (is_pid(&t[k - 1]))
				pidx = k - 1;
			break;
		}
	}
	if (pidx < 0)
		for (k = 1; k < n && pidx < 0; k++)
			if (is_pid(&t[k]))
				pidx = k;
	if (pidx < 1)
		return false;

	flush(ps); /* samples without callchains have no blank line between them */
	ps->in_sample = true;
	ps->samples_in++;

	/* event: the first "name:" token after the pid that is not the time */
	for (k = pidx + 1; k < n; k++) {
		if (is_cpu(&t[k]) || is_time(&t[k]))
			continue;
		if (t[k].n > 1 && t[k].s[t[k].n - 1] == ':') {
			ev = t[k].s;
			evn = t[k].n - 1;
			break;
		}
	}
	if (ev)
		count_event(ps, ev, evn);
	else
		count_event(ps, "", 0);
	ps->keep =
		!ps->o.event || (ev && strlen(ps->o.event) == evn && !memcmp(ps->o.event, ev, evn));
	if (!ps->keep)
		ps->samples_filtered++;

	comm_end = t[pidx].s;
	while (comm_end > line && isspace((unsigned char)comm_end[-1]))
		comm_end--;
	sl = memchr(t[pidx].s, '/', t[pidx].n);
	if (sl) {
		snprintf(pidbuf, sizeof(pidbuf), "%.*s", (int)(sl - t[pidx].s), t[pidx].s);
		snprintf(tidbuf, sizeof(tidbuf), "%.*s", (int)(t[pidx].s + t[pidx].n - sl - 1),
			 sl + 1);
	} else {
		strcpy(pidbuf, "?");
		snprintf(tidbuf, sizeof(tidbuf), "%.*s", (int)t[pidx].n, t[pidx].s);
	}
	pn = xmalloc((comm_end - line) + sizeof(pidbuf) + sizeof(tidbuf) + 3);
	if (ps->o.tid)
		sprintf(pn, "%.*s-%s/%s", (int)(comm_end - line), line, pidbuf, tidbuf);
	else if (ps->o.pid)
		sprintf(pn, "%.*s-%s", (int)(comm_end - line), line, pidbuf);
	else
		sprintf(pn, "%.*s", (int)(comm_end - line), line);
	for (char *c = pn; *c; c++)
		if (*c == ' ' || *c == '\t')
			*c = '_';
	ps->pname = pn;

	/* without -g, the sample's one frame follows the event on the same line */
	if (ev && ps->keep) {
		const char *rest = ev + evn + 1;
		while (*rest == ' ' || *rest == '\t')
			rest++;
		if (*rest && isxdigit((unsigned char)*rest))
			frame_line(ps, rest, strcspn(rest, "\r\n"));
	}
	return true;
}

/*
 * A header whose comm perf padded with leading blanks (perf script without -g prints the
 * comm as %16s): a pid token followed by a cpu or time token. A frame line ("addr sym
 * (dso)") never has that shape.
 */
static bool padded_header(const char *p)
{
	struct tok t[8];
	int n = tokenize(p, t, 8);

	for (int k = 2; k < n; k++)
		if (is_cpu(&t[k]) || is_time(&t[k]))
			return is_pid(&t[k - 1]);
	return false;
}

void ptk_perfscript_line(struct ptk_perfscript *ps, const char *line)
{
	size_t n = strcspn(line, "\r\n");
	const char *p = line;

	if (line[0] == '#')
		return;
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	if (!n) {
		flush(ps);
		return;
	}
	if (isspace((unsigned char)line[0])) {
		while (isspace((unsigned char)*p))
			p++;
		if (padded_header(p)) {
			header_line(ps, p);
			return;
		}
		if (!ps->in_sample || !frame_line(ps, p, line + n - p))
			ps->lines_skipped++;
		return;
	}
	if (!header_line(ps, line))
		ps->lines_skipped++;
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
