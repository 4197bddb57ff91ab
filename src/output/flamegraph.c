// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks -> interactive SVG flame graph. Layout and colours follow flamegraph.pl
 * (frame height 16, font 12 px, average glyph width 0.59 em, frames narrower than 0.1 px
 * left out, palettes hot/mem/io/java/js, red/blue differentials); the script is our own.
 */
#include "output/flamegraph.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	FONT_SIZE = 12,
	FRAME_H = 16,
	XPAD = 10,
	YPAD1 = FONT_SIZE * 3, /* top: title */
	YPAD2 = FONT_SIZE * 2 + 30, /* bottom: details, matched */
	YPAD3 = FONT_SIZE * 2, /* subtitle */
};
#define FONT_WIDTH 0.59
#define MIN_WIDTH 0.1 /* px */

/* One merged frame: frames with the same name under the same parent. */
struct node {
	const char *name; /* not NUL-terminated */
	int len, depth;
	u64 stime, etime; /* [stime, etime) on the cumulative sample axis (widths) */
	u64 astime, aetime; /* the same on the base axis (differential) */
	s64 self_delta; /* differential: sum of (f - base) of the stacks ending here */
};

struct graph {
	struct node *n;
	int nn, cap;
	bool diff;
	u64 total, atotal;
	s64 maxdelta;
};

struct entry {
	const char *stack;
	u64 count, base;
};

/* Frame order: ';' sorts before every other byte so that "a" and "a;b" stay next to each
 * other and every subtree is contiguous (plain strcmp puts "a!x" between them). */
static int frame_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = (unsigned char)*a, cb = (unsigned char)*b;
		if (ca == ';')
			ca = 1;
		if (cb == ';')
			cb = 1;
		if (ca != cb || !ca)
			return ca - cb;
	}
}

static int entry_cmp(const void *x, const void *y)
{
	return frame_cmp(((const struct entry *)x)->stack, ((const struct entry *)y)->stack);
}

static int new_node(struct graph *g, const char *name, int len, int depth, u64 t, u64 at)
{
	if (g->nn == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->n = xrealloc(g->n, g->cap * sizeof(*g->n));
	}
	g->n[g->nn] = (struct node){ name, len, depth, t, t, at, at, 0 };
	return g->nn++;
}

/*
 * Merge the sorted stacks into nodes (flamegraph.pl's flow()): walking the stacks in order,
 * a frame stays open while the next stack shares the path up to it.
 */
static void build(struct graph *g, struct entry *e, int ne)
{
	int cap = 64, depth = 0; /* open path: open[0] is the root */
	int *open = xmalloc(cap * sizeof(*open));
	u64 t = 0, at = 0;

	open[0] = new_node(g, "all", 3, 0, 0, 0);
	for (int i = 0; i < ne; i++) {
		const char *p = e[i].stack, *q;
		bool more = *p != '\0'; /* "" has no frames; "a;;b" has an empty one */
		int d = 0, len;

		/* frames shared with the open path */
		while (more && d < depth) {
			struct node *o = &g->n[open[d + 1]];
			q = strchr(p, ';');
			len = q ? q - p : (int)strlen(p);
			if (o->len != len || memcmp(o->name, p, len))
				break;
			d++;
			if (q)
				p = q + 1;
			else
				more = false;
		}
		for (; depth > d; depth--) {
			g->n[open[depth]].etime = t;
			g->n[open[depth]].aetime = at;
		}
		while (more) {
			q = strchr(p, ';');
			len = q ? q - p : (int)strlen(p);
			if (depth + 2 > cap) {
				cap *= 2;
				open = xrealloc(open, cap * sizeof(*open));
			}
			depth++;
			open[depth] = new_node(g, p, len, depth, t, at);
			if (q)
				p = q + 1;
			else
				more = false;
		}
		if (g->diff) {
			s64 dl = (s64)e[i].count - (s64)e[i].base;
			g->n[open[depth]].self_delta += dl;
			if (llabs(dl) > g->maxdelta)
				g->maxdelta = llabs(dl);
		}
		t += e[i].count;
		at += e[i].base;
	}
	for (; depth > 0; depth--) {
		g->n[open[depth]].etime = t;
		g->n[open[depth]].aetime = at;
	}
	g->n[open[0]].etime = t;
	g->n[open[0]].aetime = at;
	g->total = t;
	g->atotal = at;
	free(open);
}

/* flamegraph.pl namehash(): a vector hash weighting early characters, in [0, 1] */
static double namehash(const char *s, int len, bool rev)
{
	double vector = 0, weight = 1, max = 1;
	int mod = 10, i = 0;
	const char *tick = memchr(s, '`', len);

	if (tick && !rev) { /* "module`func": keep the first char of the module only */
		len -= tick + 1 - s;
		s = tick + 1;
	}
	for (; i < len; i++) {
		unsigned char c = rev ? s[len - 1 - i] : s[i];
		vector += ((double)(c % mod) / (mod - 1)) * weight;
		mod++;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static bool ends_with(const char *s, int len, const char *suf)
{
	int n = strlen(suf);
	return len >= n && !memcmp(s + len - n, suf, n);
}

static bool has(const char *s, int len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static bool java_pkg(const char *s, int len)
{
	static const char *const pk[] = { "java/", "javax/", "jdk/", "net/",
					  "org/",  "com/",   "io/",  "sun/" };
	if (len && s[0] == 'L') {
		s++;
		len--;
	}
	for (size_t i = 0; i < ARRAY_SIZE(pk); i++)
		if (len >= (int)strlen(pk[i]) && !memcmp(s, pk[i], strlen(pk[i])))
			return true;
	return false;
}

/* Palette colour of a frame, flamegraph.pl --hash style: the same name gets the same
 * colour in every graph, so two runs can be compared and diffed. */
static void color(const char *pal, const char *s, int len, char *buf, size_t size)
{
	double v1 = namehash(s, len, false), v2 = namehash(s, len, true), v3 = v2;
	const char *type = pal;

	if (!strcmp(pal, "java")) {
		if (ends_with(s, len, "_[j]"))
			type = "green"; /* JIT compiled */
		else if (ends_with(s, len, "_[i]"))
			type = "aqua"; /* inlined */
		else if (java_pkg(s, len) || has(s, len, ":::"))
			type = "green"; /* Java method (perf-map-agent uses ":::") */
		else if (ends_with(s, len, "_[k]"))
			type = "orange";
		else if (has(s, len, "::"))
			type = "yellow"; /* C++ (the JVM) */
		else
			type = "red"; /* system */
	} else if (!strcmp(pal, "js")) {
		bool src = has(s, len, "/") || has(s, len, ".js:");
		if (ends_with(s, len, "_[j]"))
			type = src ? "green" : "aqua";
		else if (has(s, len, "::"))
			type = "yellow";
		else if (src)
			type = "green"; /* JavaScript source */
		else if (has(s, len, ":"))
			type = "aqua"; /* builtin */
		else if (len == 1 && s[0] == ' ')
			type = "green"; /* missing symbol */
		else if (has(s, len, "_[k]"))
			type = "orange";
		else
			type = "red";
	}
	if (!strcmp(type, "hot"))
		snprintf(buf, size, "rgb(%d,%d,%d)", 205 + (int)(50 * v3), (int)(230 * v1),
			 (int)(55 * v2));
	else if (!strcmp(type, "mem"))
		snprintf(buf, size, "rgb(0,%d,%d)", 190 + (int)(50 * v2), (int)(210 * v1));
	else if (!strcmp(type, "io"))
		snprintf(buf, size, "rgb(%d,%d,%d)", 80 + (int)(60 * v1), 80 + (int)(60 * v1),
			 190 + (int)(55 * v2));
	else if (!strcmp(type, "red"))
		snprintf(buf, size, "rgb(%d,%d,%d)", 200 + (int)(55 * v1), 50 + (int)(80 * v1),
			 50 + (int)(80 * v1));
	else if (!strcmp(type, "green"))
		snprintf(buf, size, "rgb(%d,%d,%d)", 50 + (int)(60 * v1), 200 + (int)(55 * v1),
			 50 + (int)(60 * v1));
	else if (!strcmp(type, "aqua"))
		snprintf(buf, size, "rgb(%d,%d,%d)", 50 + (int)(60 * v1), 165 + (int)(55 * v1),
			 165 + (int)(55 * v1));
	else if (!strcmp(type, "yellow"))
		snprintf(buf, size, "rgb(%d,%d,%d)", 175 + (int)(55 * v1), 175 + (int)(55 * v1),
			 50 + (int)(20 * v1));
	else /* orange */
		snprintf(buf, size, "rgb(%d,%d,0)", 190 + (int)(65 * v1), 90 + (int)(65 * v1));
}

/* Differential colour: white unchanged, red grew, blue shrank, by |delta| / max |delta|. */
static void diff_color(s64 delta, s64 max, char *buf, size_t size)
{
	int r = 255, g = 255, b = 255;

	if (max > 0 && delta > 0)
		g = b = (int)(210 * (double)(max - delta) / max);
	else if (max > 0 && delta < 0)
		r = g = (int)(210 * (double)(max + delta) / max);
	snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static int utf8_len(const unsigned char *s, size_t n)
{
	int l;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		l = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		l = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		l = 4;
	else
		return 0;
	if ((size_t)l > n)
		return 0;
	for (int i = 1; i < l; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return l;
}

/*
 * Make a name safe for XML: control characters and invalid UTF-8 become '?'. Returns a
 * malloc'd NUL-terminated copy; *chars gets its length in characters (code points).
 */
static char *clean(const char *s, int len, int *chars)
{
	char *o = xmalloc(len + 1), *w = o;
	int nc = 0;

	for (int i = 0; i < len;) {
		const unsigned char *c = (const unsigned char *)s + i;
		int l = utf8_len(c, len - i);
		if (!l || (l == 1 && (c[0] < 0x20 || c[0] == 0x7f))) {
			*w++ = '?';
			i++;
		} else {
			memcpy(w, c, l);
			w += l;
			i += l;
		}
		nc++;
	}
	*w = '\0';
	*chars = nc;
	return o;
}

/* Write s escaped for XML text and attribute values. */
static void xml_puts(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			putc(*s, out);
		}
	}
}

/* 1234567 -> "1,234,567" (flamegraph.pl prints counts with commas) */
/* v with dec (1 or 2) decimals, as "%.*f" prints it but without printf's exact decimal
 * expansion (the SVG writes four numbers a frame); b holds at least 32 bytes */
static const char *fixed(char *b, double v, int dec)
{
	double m = dec == 2 ? 100 : 10;
	u64 q;

	if (!(v >= 0 && v < 1e15)) {
		snprintf(b, 32, "%.*f", dec, v);
		return b;
	}
	q = (u64)rint(v * m);
	snprintf(b, 32, dec == 2 ? "%" PRIu64 ".%02u" : "%" PRIu64 ".%u", q / (u64)m,
		 (unsigned)(q % (u64)m));
	return b;
}

static void commas(u64 v, char *buf, size_t size)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), j = 0;

	for (int i = 0; i < n && j + 2 < (int)size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
}

static void scommas(s64 v, char *buf, size_t size)
{
	buf[0] = v < 0 ? '-' : '+';
	commas(v < 0 ? -(u64)v : (u64)v, buf + 1, size - 1);
}

/* The annotation suffix stackcollapse adds (_[k] kernel, _[i] inlined, _[j] JIT, _[w]
 * waker) is for colours only: labels and titles leave it out. */
static int strip_annotation(const char *s, int len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	    strchr("kwij", s[len - 2]))
		return len - 4;
	return len;
}

static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"\"use strict\";\n"
	"var svg, frames, details, matched, searchbtn, unzoombtn, W, X0 = "
	"10"
	", FW = 12 * 0.59;\n"
	"var inverted, term = null, zoomed = null, total = 0;\n"
	"function init(evt) {\n"
	"\tsvg = document.documentElement;\n"
	"\tinverted = svg.getAttribute('data-inverted') == '1';\n"
	"\tW = parseFloat(svg.getAttribute('viewBox').split(' ')[2]);\n"
	"\tdetails = document.getElementById('details').firstChild;\n"
	"\tmatched = document.getElementById('matched').firstChild;\n"
	"\tsearchbtn = document.getElementById('search');\n"
	"\tunzoombtn = document.getElementById('unzoom');\n"
	"\tframes = Array.prototype.slice.call(document.getElementById('frames').children);\n"
	"\tframes.forEach(function (g) {\n"
	"\t\tvar r = g.querySelector('rect');\n"
	"\t\tg.fx = parseFloat(r.getAttribute('x'));\n"
	"\t\tg.fw = parseFloat(r.getAttribute('width'));\n"
	"\t\tg.fy = parseFloat(r.getAttribute('y'));\n"
	"\t\tg.info = g.querySelector('title').textContent;\n"
	"\t\tg.fname = g.info.replace(/ \\([^()]*\\)$/, '');\n"
	"\t\tif (g.fw > total) total = g.fw;\n"
	"\t});\n"
	"\tsvg.addEventListener('click', click);\n"
	"\tsvg.addEventListener('mouseover', function (e) {\n"
	"\t\tvar g = group(e.target);\n"
	"\t\tif (g) details.nodeValue = 'Function: ' + g.info;\n"
	"\t});\n"
	"\tsvg.addEventListener('mouseout', function (e) {\n"
	"\t\tif (group(e.target)) details.nodeValue = ' ';\n"
	"\t});\n"
	"\twindow.addEventListener('keydown', function (e) {\n"
	"\t\tif (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) {\n"
	"\t\t\te.preventDefault();\n"
	"\t\t\tsearch_prompt();\n"
	"\t\t} else if (e.keyCode === 27) {\n"
	"\t\t\tunzoom();\n"
	"\t\t\treset_search();\n"
	"\t\t}\n"
	"\t});\n"
	"\t/* #s=REGEX&z=FRAME in the URL: search and zoom on load (links, tests) */\n"
	"\tlocation.hash.replace(/^#/, '').split('&').forEach(function (kv) {\n"
	"\t\tvar i = kv.indexOf('='), k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));\n"
	"\t\tif (i < 0) return;\n"
	"\t\tif (k == 's') search(v);\n"
	"\t\tif (k == 'z') {\n"
	"\t\t\tvar best = null;\n"
	"\t\t\tframes.forEach(function (g) { if (g.fname == v && (!best || g.fw > best.fw)) best = g; });\n"
	"\t\t\tif (best) zoom(best);\n"
	"\t\t}\n"
	"\t});\n"
	"}\n"
	"function group(n) {\n"
	"\tfor (; n && n.parentNode; n = n.parentNode)\n"
	"\t\tif (n.parentNode.id == 'frames') return n;\n"
	"\treturn null;\n"
	"}\n"
	"function click(e) {\n"
	"\tvar g = group(e.target);\n"
	"\tif (g) zoom(g);\n"
	"\telse if (e.target.id == 'unzoom') unzoom();\n"
	"\telse if (e.target.id == 'search') search_prompt();\n"
	"}\n"
	"function label(g, w) {\n"
	"\tvar t = g.querySelector('text'), n = Math.floor(w / FW), s = g.fname;\n"
	"\tif (n < 3) s = '';\n"
	"\telse if (s.length > n) s = s.substring(0, n - 2) + '..';\n"
	"\tt.textContent = s;\n"
	"}\n"
	"function place(g, x, w) {\n"
	"\tvar r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"\tr.setAttribute('x', x.toFixed(2));\n"
	"\tr.setAttribute('width', w.toFixed(2));\n"
	"\tt.setAttribute('x', (x + 3).toFixed(2));\n"
	"\tlabel(g, w);\n"
	"}\n"
	"function zoom(z) {\n"
	"\tvar eps = 0.0001, ratio = (W - 2 * X0) / z.fw;\n"
	"\tzoomed = z;\n"
	"\tunzoombtn.classList.remove('hide');\n"
	"\tframes.forEach(function (g) {\n"
	"\t\tvar up = inverted ? g.fy < z.fy : g.fy > z.fy;\n"
	"\t\tg.classList.remove('hide');\n"
	"\t\tg.classList.remove('parent');\n"
	"\t\tif (up) {\n"
	"\t\t\tif (g.fx <= z.fx + eps && g.fx + g.fw >= z.fx + z.fw - eps) {\n"
	"\t\t\t\tg.classList.add('parent');\n"
	"\t\t\t\tplace(g, X0, W - 2 * X0);\n"
	"\t\t\t} else g.classList.add('hide');\n"
	"\t\t} else if (g.fx >= z.fx - eps && g.fx + g.fw <= z.fx + z.fw + eps) {\n"
	"\t\t\tplace(g, X0 + (g.fx - z.fx) * ratio, g.fw * ratio);\n"
	"\t\t} else g.classList.add('hide');\n"
	"\t});\n"
	"}\n"
	"function unzoom() {\n"
	"\tzoomed = null;\n"
	"\tunzoombtn.classList.add('hide');\n"
	"\tframes.forEach(function (g) {\n"
	"\t\tg.classList.remove('hide');\n"
	"\t\tg.classList.remove('parent');\n"
	"\t\tplace(g, g.fx, g.fw);\n"
	"\t});\n"
	"}\n"
	"function reset_search() {\n"
	"\tframes.forEach(function (g) {\n"
	"\t\tvar r = g.querySelector('rect');\n"
	"\t\tif (r.hasAttribute('data-fill')) {\n"
	"\t\t\tr.setAttribute('fill', r.getAttribute('data-fill'));\n"
	"\t\t\tr.removeAttribute('data-fill');\n"
	"\t\t}\n"
	"\t});\n"
	"\tterm = null;\n"
	"\tsearchbtn.firstChild.nodeValue = 'Search';\n"
	"\tsearchbtn.classList.remove('show');\n"
	"\tmatched.nodeValue = ' ';\n"
	"}\n"
	"function search_prompt() {\n"
	"\tif (term !== null) { reset_search(); return; }\n"
	"\tvar t = prompt('Search (regular expression, e.g. ^ext4_)', '');\n"
	"\tif (t) search(t);\n"
	"}\n"
	"/* Highlight frames matching re; Matched: the share of all samples under a match\n"
	"   (nested matches counted once). */\n"
	"function search(t) {\n"
	"\tvar re, hits = [], sum = 0, end = -1;\n"
	"\ttry { re = new RegExp(t); } catch (err) { matched.nodeValue = 'bad regex: ' + t; return; }\n"
	"\treset_search();\n"
	"\tterm = t;\n"
	"\tframes.forEach(function (g) {\n"
	"\t\tif (!re.test(g.fname)) return;\n"
	"\t\tvar r = g.querySelector('rect');\n"
	"\t\tr.setAttribute('data-fill', r.getAttribute('fill'));\n"
	"\t\tr.setAttribute('fill', 'rgb(230,0,230)');\n"
	"\t\thits.push(g);\n"
	"\t});\n"
	"\thits.sort(function (a, b) { return a.fx - b.fx || b.fw - a.fw; });\n"
	"\thits.forEach(function (g) {\n"
	"\t\tif (g.fx >= end - 0.0001) { sum += g.fw; end = g.fx + g.fw; }\n"
	"\t});\n"
	"\tsearchbtn.firstChild.nodeValue = 'Reset Search';\n"
	"\tsearchbtn.classList.add('show');\n"
	"\tvar pct = total ? 100 * sum / total : 0;\n"
	"\tmatched.nodeValue = 'Matched: ' + (pct >= 99.995 ? '100' : pct.toFixed(2)) + '%';\n"
	"}\n"
	"]]></script>\n";

int ptk_flamegraph_svg(struct ptk_folded *f, struct ptk_folded *base,
		       const struct ptk_flame_opts *o, FILE *out)
{
	const struct ptk_flame_opts def = { 0 };
	struct graph g = { 0 };
	struct entry *e;
	int ne = 0, width, height, depthmax = 0, chars;
	const char *pal, *title, *countname, *bg1 = "#eeeeee", *bg2 = "#eeeeb0";
	double wpt;
	char col[48], num[32], num2[32], num3[32], fx[4][32];

	if (!o)
		o = &def;
	width = o->width > 2 * XPAD + 10 ? o->width : 1200;
	pal = o->palette ? o->palette : "hot";
	countname = o->countname ? o->countname : "samples";
	title = o->title ? o->title : (o->reverse ? "Icicle Graph" : "Flame Graph");
	if (!f)
		return -EINVAL;

	/* the stacks to draw: f's, plus base-only stacks (width 0) in a differential */
	e = xmalloc((f->n + (base ? base->n : 0) + 1) * sizeof(*e));
	for (int i = 0; i < f->n; i++)
		e[ne++] = (struct entry){ f->s[i].stack, f->s[i].count, 0 };
	if (base) {
		g.diff = true;
		for (int i = 0; i < base->n; i++)
			e[ne++] = (struct entry){ base->s[i].stack, 0, base->s[i].count };
	}
	qsort(e, ne, sizeof(*e), entry_cmp);
	if (base) { /* merge equal stacks: f's count with base's */
		int w = 0;
		for (int i = 0; i < ne; i++) {
			if (w && !strcmp(e[w - 1].stack, e[i].stack)) {
				e[w - 1].count += e[i].count;
				e[w - 1].base += e[i].base;
			} else {
				e[w++] = e[i];
			}
		}
		ne = w;
	}
	build(&g, e, ne);
	free(e);
	if (!g.total) {
		free(g.n);
		return -EINVAL;
	}
	if (base && g.maxdelta == 0)
		g.maxdelta = 1;

	wpt = (double)(width - 2 * XPAD) / g.total;
	for (int i = 0; i < g.nn; i++)
		if ((g.n[i].etime - g.n[i].stime) * wpt >= MIN_WIDTH && g.n[i].depth > depthmax)
			depthmax = g.n[i].depth;
	height = (depthmax + 1) * FRAME_H + YPAD1 + YPAD2 + (o->subtitle ? YPAD3 : 0);
	if (!strcmp(pal, "mem")) {
		bg1 = "#eef2ee";
		bg2 = "#e0ffe0";
	} else if (!strcmp(pal, "io")) {
		bg2 = "#e0e0ff";
	}

	fprintf(out,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" onload=\"init(evt)\" "
		"viewBox=\"0 0 %d %d\" data-inverted=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" "
		"xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
		"<!-- Flame graph written by ptk flamegraph: hover for details, click to zoom, "
		"Ctrl-F or Search to highlight a regular expression, Esc to reset. -->\n"
		"<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		"<stop stop-color=\"%s\" offset=\"5%%\"/><stop stop-color=\"%s\" offset=\"95%%\"/>"
		"</linearGradient></defs>\n"
		"<style type=\"text/css\">\n"
		"text { font-family:Verdana,sans-serif; font-size:%dpx; fill:rgb(0,0,0); }\n"
		"#search { opacity:0.1; cursor:pointer; }\n"
		"#search:hover, #search.show { opacity:1; }\n"
		"#subtitle { text-anchor:middle; fill:rgb(160,160,160); }\n"
		"#title { text-anchor:middle; font-size:%dpx; }\n"
		"#unzoom { cursor:pointer; }\n"
		"#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
		".hide { display:none; }\n"
		".parent { opacity:0.5; }\n"
		"</style>\n",
		width, height, width, height, o->reverse ? 1 : 0, bg1, bg2, FONT_SIZE,
		FONT_SIZE + 5);
	fputs(script, out);
	fprintf(out,
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"url(#background)\"/>\n",
		width, height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"%d\">", width / 2, FONT_SIZE * 2);
	xml_puts(out, title);
	fputs("</text>\n", out);
	if (o->subtitle) {
		fprintf(out, "<text id=\"subtitle\" x=\"%d\" y=\"%d\">", width / 2, FONT_SIZE * 4);
		xml_puts(out, o->subtitle);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", XPAD, height - YPAD2 / 2);
	fprintf(out, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"%d\">Reset Zoom</text>\n",
		XPAD, FONT_SIZE * 2);
	fprintf(out, "<text id=\"search\" x=\"%d\" y=\"%d\">Search</text>\n", width - XPAD - 100,
		FONT_SIZE * 2);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n", width - XPAD - 100,
		height - YPAD2 / 2);

	fputs("<g id=\"frames\">\n", out);
	for (int i = 0; i < g.nn; i++) {
		struct node *n = &g.n[i];
		u64 cnt = n->etime - n->stime;
		double x1 = XPAD + n->stime * wpt, x2 = XPAD + n->etime * wpt, y1, y2;
		int len = strip_annotation(n->name, n->len), nc;
		char *name;

		if ((x2 - x1) < MIN_WIDTH)
			continue;
		if (o->reverse) {
			y1 = YPAD1 + (o->subtitle ? YPAD3 : 0) + n->depth * FRAME_H;
			y2 = y1 + FRAME_H - 1;
		} else {
			y2 = height - YPAD2 - n->depth * FRAME_H;
			y1 = y2 - FRAME_H + 1;
		}
		name = clean(n->name, len, &nc);
		commas(cnt, num, sizeof(num));
		fputs("<g><title>", out);
		xml_puts(out, name);
		fprintf(out, " (%s ", num);
		xml_puts(out, countname);
		fprintf(out, ", %s%%", fixed(fx[0], 100.0 * cnt / g.total, 2));
		if (g.diff) {
			commas(n->aetime - n->astime, num2, sizeof(num2));
			scommas((s64)cnt - (s64)(n->aetime - n->astime), num3, sizeof(num3));
			fprintf(out, "; before %s, %s", num2, num3);
			if (n->depth) {
				scommas(n->self_delta, num2, sizeof(num2));
				fprintf(out, ", self %s", num2);
			}
		}
		fputs(")</title>", out);
		if (n->depth == 0)
			snprintf(col, sizeof(col), "rgb(250,250,250)");
		else if (len == 2 && !memcmp(n->name, "--", 2))
			snprintf(col, sizeof(col), "rgb(160,160,160)");
		else if (len == 1 && n->name[0] == '-')
			snprintf(col, sizeof(col), "rgb(200,200,200)");
		else if (g.diff)
			diff_color(n->self_delta, g.maxdelta, col, sizeof(col));
		else
			color(pal, n->name, n->len, col, sizeof(col));
		if (n->depth == 0 && !g.diff)
			color(pal, "all", 3, col, sizeof(col));
		fprintf(out,
			"<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" "
			"rx=\"2\" ry=\"2\"/>",
			fixed(fx[0], x1, 2), fixed(fx[1], y1, 1), fixed(fx[2], x2 - x1, 2),
			fixed(fx[3], y2 - y1, 1), col);
		/* label: truncate the raw name (by characters), then escape */
		chars = (int)((x2 - x1) / (FONT_SIZE * FONT_WIDTH));
		fprintf(out, "<text x=\"%s\" y=\"%s\">", fixed(fx[0], x1 + 3, 2),
			fixed(fx[1], 3 + (y1 + y2) / 2, 1));
		if (chars >= 3) {
			if (chars < nc) {
				char *p = name;
				for (int k = 0; k < chars - 2; k++)
					p += utf8_len((unsigned char *)p, strlen(p));
				strcpy(p, "..");
			}
			xml_puts(out, name);
		}
		fputs("</text></g>\n", out);
		free(name);
	}
	fputs("</g>\n</svg>\n", out);
	free(g.n);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
