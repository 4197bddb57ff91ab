// SPDX-License-Identifier: GPL-2.0
/* ltrace's notation (ltrace.h). */
#include "model/ltrace.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I PTK_LT_INT
#define U PTK_LT_UINT
#define L PTK_LT_LONG
#define UL PTK_LT_ULONG
#define O PTK_LT_OCT
#define A PTK_LT_ADDR
#define C PTK_LT_CHAR
#define S PTK_LT_STR
#define SN PTK_LT_STRN
#define F PTK_LT_FMT
#define V PTK_LT_VOID
#define OS PTK_LT_OSTR

/* The common calls, by name (sorted: bsearch), typed as the ltrace.conf of ltrace 0.7 types
 * them (file is an address; an output string, read after the call there, an address here). */
static const struct ptk_lt_proto protos[] = {
	{ "abort", V, { 0 } },
	{ "access", I, { S, I } },
	{ "calloc", A, { UL, UL } },
	{ "chdir", I, { S } },
	{ "close", I, { I } },
	{ "closedir", I, { A } },
	{ "dup2", I, { I, I } },
	{ "exit", V, { I } },
	{ "fclose", I, { A } },
	{ "fflush", I, { A } },
	{ "fgets", A, { OS, I, A } },
	{ "fopen", A, { S, S } },
	{ "fprintf", I, { A, F } },
	{ "fputs", I, { S, A } },
	{ "fread", UL, { A, UL, UL, A } },
	{ "free", V, { A } },
	{ "fwrite", UL, { S, UL, UL, A } },
	{ "getcwd", S, { A, UL } },
	{ "getenv", S, { S } },
	{ "getpid", I, { 0 } },
	{ "gettimeofday", I, { A, A } },
	{ "isatty", I, { I } },
	{ "malloc", A, { UL } },
	{ "memchr", A, { S, C, UL } },
	{ "memcpy", A, { A, SN, UL } },
	{ "memmove", A, { A, SN, UL } },
	{ "memset", A, { A, C, L } },
	{ "mkdir", I, { S, O } },
	{ "open", I, { S, I, O } },
	{ "opendir", A, { S } },
	{ "perror", V, { S } },
	{ "printf", I, { F } },
	{ "puts", I, { S } },
	{ "read", L, { I, OS, UL } },
	{ "readdir", A, { A } },
	{ "realloc", A, { A, UL } },
	{ "remove", I, { S } },
	{ "rename", I, { S, S } },
	{ "rmdir", I, { S } },
	{ "setlocale", S, { I, S } },
	{ "sleep", U, { U } },
	{ "snprintf", I, { OS, UL, F } },
	{ "sprintf", I, { OS, F } },
	{ "strcasecmp", I, { S, S } },
	{ "strcat", S, { S, S } },
	{ "strchr", S, { S, C } },
	{ "strcmp", I, { S, S } },
	{ "strcpy", A, { A, S } },
	{ "strdup", A, { S } },
	{ "strerror", S, { I } },
	{ "strlen", UL, { S } },
	{ "strncmp", I, { S, S, UL } },
	{ "strncpy", A, { A, SN, UL } },
	{ "strrchr", S, { S, C } },
	{ "strstr", S, { S, S } },
	{ "time", L, { A } },
	{ "unlink", I, { S } },
	{ "usleep", V, { U } },
	{ "write", L, { I, SN, UL } },
};

#undef I
#undef U
#undef L
#undef UL
#undef O
#undef A
#undef C
#undef S
#undef SN
#undef F
#undef V
#undef OS

/* a function without a prototype: four words in hex, an int */
static const struct ptk_lt_proto unknown = { "",
					     PTK_LT_INT,
					     { PTK_LT_HEX, PTK_LT_HEX, PTK_LT_HEX, PTK_LT_HEX } };

static int by_name(const void *k, const void *e)
{
	return strcmp(k, ((const struct ptk_lt_proto *)e)->name);
}

const struct ptk_lt_proto *ptk_lt_proto(const char *name, bool *known)
{
	const struct ptk_lt_proto *p =
		bsearch(name, protos, ARRAY_SIZE(protos), sizeof(protos[0]), by_name);

	*known = p != NULL;
	return p ? p : &unknown;
}

unsigned ptk_lt_string_args(const struct ptk_lt_proto *p)
{
	unsigned m = 0;
	bool fmt = false;

	for (int i = 0; i < PTK_LT_MAX_ARGS; i++) {
		enum ptk_lt_type t = p->arg[i];

		if (fmt || t == PTK_LT_STR || t == PTK_LT_STRN || t == PTK_LT_FMT)
			m |= 1u << i;
		fmt |= t == PTK_LT_FMT;
		if (t == PTK_LT_END && !fmt)
			break;
	}
	return m;
}

unsigned ptk_lt_out_args(const struct ptk_lt_proto *p)
{
	unsigned m = 0;

	for (int i = 0; i < PTK_LT_MAX_ARGS; i++)
		if (p->arg[i] == PTK_LT_OSTR)
			m |= 1u << i;
	return m;
}

bool ptk_lt_string_ret(const struct ptk_lt_proto *p)
{
	return p->ret == PTK_LT_STR;
}

void ptk_lt_quote(const char *s, size_t len, int strsize, char *out, size_t size)
{
	size_t n = 0, i;

	if (size < 8) {
		if (size)
			out[0] = '\0';
		return;
	}
	out[n++] = '"';
	for (i = 0; i < len && s[i] && (int)i < strsize && n + 8 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c == '\n' ? "\\n" :
				c == '\t' ? "\\t" :
				c == '\r' ? "\\r" :
				c == '"'  ? "\\\"" :
				c == '\\' ? "\\\\" :
					    NULL;

		if (e)
			n += snprintf(out + n, size - n, "%s", e);
		else if (isprint(c))
			out[n++] = (char)c;
		else
			n += snprintf(out + n, size - n, "\\%03o", c);
	}
	out[n++] = '"';
	out[n] = '\0';
	if (i < len && s[i] && (int)i >= strsize && n + 4 < size)
		snprintf(out + n, size - n, "...");
}

/* One value in ltrace's way into buf. */
static void value(enum ptk_lt_type t, u64 v, const char *str, u64 next, int strsize, char *buf,
		  size_t size)
{
	switch (t) {
	case PTK_LT_INT:
		snprintf(buf, size, "%d", (int)v);
		break;
	case PTK_LT_UINT:
		snprintf(buf, size, "%u", (unsigned)v);
		break;
	case PTK_LT_LONG:
		snprintf(buf, size, "%ld", (long)v);
		break;
	case PTK_LT_ULONG:
		snprintf(buf, size, "%lu", (unsigned long)v);
		break;
	case PTK_LT_OCT:
		snprintf(buf, size, "0%lo", (unsigned long)v);
		break;
	case PTK_LT_CHAR:
		if ((char)v == '\0')
			snprintf(buf, size, "'\\0'");
		else if (isprint((unsigned char)v))
			snprintf(buf, size, "'%c'", (char)v);
		else
			snprintf(buf, size, "'\\%03o'", (unsigned char)v);
		break;
	case PTK_LT_STR:
	case PTK_LT_OSTR:
	case PTK_LT_STRN:
	case PTK_LT_FMT:
		if (!v)
			snprintf(buf, size, "nil");
		else if (str)
			ptk_lt_quote(str, t == PTK_LT_STRN ? (size_t)next : (size_t)-1, strsize,
				     buf, size);
		else
			snprintf(buf, size, "%#lx", (unsigned long)v);
		break;
	case PTK_LT_ADDR:
		if (!v)
			snprintf(buf, size, "nil");
		else
			snprintf(buf, size, "%#lx", (unsigned long)v);
		break;
	case PTK_LT_VOID:
		snprintf(buf, size, "<void>");
		break;
	default:
		snprintf(buf, size, "%#lx", (unsigned long)v);
	}
}

/* The type of the next conversion of a printf format at *f (moved past it), or END. */
static enum ptk_lt_type next_conv(const char **f)
{
	for (const char *p = *f; *p; p++) {
		int lng = 0;

		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		p += strspn(p + 1, "-+ #0123456789.*") + 1;
		for (; *p == 'l' || *p == 'h' || *p == 'z' || *p == 'j' || *p == 'q'; p++)
			lng += *p != 'h';
		*f = *p ? p + 1 : p;
		switch (*p) {
		case 'd':
		case 'i':
			return lng ? PTK_LT_LONG : PTK_LT_INT;
		case 'u':
			return lng ? PTK_LT_ULONG : PTK_LT_UINT;
		case 'x':
		case 'X':
		case 'o':
		case 'p':
			return PTK_LT_ADDR;
		case 'c':
			return PTK_LT_CHAR;
		case 's':
			return PTK_LT_STR;
		default:
			return PTK_LT_HEX;
		}
	}
	return PTK_LT_END;
}

int ptk_lt_format(char *out, size_t size, const char *prefix, const char *name,
		  const struct ptk_lt_proto *p, const struct ptk_lt_call *c, int strsize)
{
	const char *fmt = NULL;
	char buf[512];
	int n = snprintf(out, size, "%s%s(", prefix, name);

	for (int i = 0; i < PTK_LT_MAX_ARGS && n < (int)size; i++) {
		enum ptk_lt_type t = p->arg[i];

		if (fmt) /* the arguments a format names */
			t = next_conv(&fmt);
		if (t == PTK_LT_END)
			break;
		value(t, c->arg[i], c->str[i], i + 1 < PTK_LT_MAX_ARGS ? c->arg[i + 1] : 0, strsize,
		      buf, sizeof(buf));
		n += snprintf(out + n, size - n, "%s%s", i ? ", " : "", buf);
		if (p->arg[i] == PTK_LT_FMT && !fmt)
			fmt = c->str[i] ? c->str[i] : "";
	}
	if (n < (int)size)
		n += snprintf(out + n, size - n, ")");
	value(p->ret, c->ret, c->ret_str, 0, strsize, buf, sizeof(buf));
	if (n < 49 && n < (int)size)
		n += snprintf(out + n, size - n, "%*s", 49 - n, "");
	else if (n < (int)size)
		n += snprintf(out + n, size - n, " ");
	if (n < (int)size)
		n += snprintf(out + n, size - n, "= %s", buf);
	return n < (int)size ? n : (int)size - 1;
}
