/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ltrace's notation: the prototypes of common C library calls (what each argument is: a
 * number, an address, a string, a printf format), and a call written as ltrace writes it:
 * 'name(arg, "string"...)' with the "= value" at column 49, strings quoted with C escapes
 * and cut at the string size ("abc"...), NULL as nil, void returns as <void>. A function
 * without a prototype is shown with four arguments in hex and an int return, as ltrace does.
 */
#ifndef PTK_MODEL_LTRACE_H
#define PTK_MODEL_LTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

enum ptk_lt_type {
	PTK_LT_END = 0, /* no more arguments */
	PTK_LT_INT, /* int, in decimal */
	PTK_LT_UINT,
	PTK_LT_LONG,
	PTK_LT_ULONG,
	PTK_LT_OCT, /* an octal mode (open's third) */
	PTK_LT_HEX, /* an unknown word: 0x... */
	PTK_LT_ADDR, /* an address: 0x..., or nil */
	PTK_LT_CHAR, /* a character, quoted: '\0' */
	PTK_LT_STR, /* a NUL-terminated string */
	PTK_LT_OSTR, /* a string the call writes: read at its return (snprintf's buffer) */
	PTK_LT_STRN, /* a string of the length in the next argument (write's buffer) */
	PTK_LT_FMT, /* a printf format: the arguments after it as it says */
	PTK_LT_VOID, /* a return of nothing */
};

#define PTK_LT_MAX_ARGS 6

struct ptk_lt_proto {
	const char *name;
	enum ptk_lt_type ret;
	enum ptk_lt_type arg[PTK_LT_MAX_ARGS];
};

/* The prototype of a function, or a default one (4 hex arguments, an int) when it has none;
 * *known says which. */
const struct ptk_lt_proto *ptk_lt_proto(const char *name, bool *known);

/* Which of the six argument registers are read as strings at the call (bit i: argument i;
 * a printf format's arguments after it all are, since only the format says which are),
 * which at its return (the strings it writes), and whether the return is a string. */
unsigned ptk_lt_string_args(const struct ptk_lt_proto *p);
unsigned ptk_lt_out_args(const struct ptk_lt_proto *p);
bool ptk_lt_string_ret(const struct ptk_lt_proto *p);

/* A call's values as the probes read them: the six registers, the strings of those that
 * ptk_lt_string_args() names (NULL: unread), the return and its string. */
struct ptk_lt_call {
	u64 arg[PTK_LT_MAX_ARGS];
	const char *str[PTK_LT_MAX_ARGS];
	u64 ret;
	const char *ret_str;
};

/* s quoted as ltrace quotes it, cut at strsize characters ("..." after the quote). */
void ptk_lt_quote(const char *s, size_t len, int strsize, char *out, size_t size);

/*
 * The line of a call: prefix (times, "" none), 'name(args)', padded so that "= " starts at
 * column 49 (one space when longer), then the return. Returns the length written.
 */
int ptk_lt_format(char *out, size_t size, const char *prefix, const char *name,
		  const struct ptk_lt_proto *p, const struct ptk_lt_call *c, int strsize);

#endif
