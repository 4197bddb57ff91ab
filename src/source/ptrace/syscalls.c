// SPDX-License-Identifier: GPL-2.0
#include "source/ptrace/syscalls.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

#include "lib/util.h"

const struct ptk_syscall ptk_syscalls[PTK_NSYSCALLS] = {
#define PTK_SYSCALLENT_TABLE
#include "source/ptrace/syscallent.h"
#undef PTK_SYSCALLENT_TABLE
};
static_assert(ARRAY_SIZE(ptk_syscalls) == PTK_SYSCALL_MAX_NR + 1, "syscall table size");
static_assert(SA_NTYPES < 256, "decoder ids fit in a byte");

const struct ptk_syscall *ptk_syscall_get(long nr)
{
	if (nr < 0 || nr >= PTK_NSYSCALLS || !ptk_syscalls[nr].name)
		return NULL;
	return &ptk_syscalls[nr];
}

int ptk_syscall_lookup(const char *name)
{
	for (int i = 0; i < PTK_NSYSCALLS; i++)
		if (ptk_syscalls[i].name && !strcmp(ptk_syscalls[i].name, name))
			return i;
	return -1;
}

static const struct {
	const char *name;
	unsigned bit;
} classes[] = {
	{ "desc", TD },	  { "file", TF }, { "network", TN }, { "net", TN },   { "process", TP },
	{ "signal", TS }, { "ipc", TI },  { "memory", TM },  { "creds", TC }, { "clock", TCL },
};

unsigned ptk_syscall_class(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(classes[i].name, name))
			return classes[i].bit;
	return 0;
}

int ptk_syscall_parse_set(char *expr, bool *sel, const char **bad)
{
	bool neg = false;
	char *save = NULL, *tok;

	memset(sel, 0, PTK_NSYSCALLS * sizeof(*sel));
	if (*expr == '!') {
		neg = true;
		expr++;
	}
	for (tok = strtok_r(expr, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			for (int i = 0; i < PTK_NSYSCALLS; i++)
				sel[i] = ptk_syscalls[i].name != NULL;
		} else if (!strcmp(tok, "none")) {
			continue;
		} else if (tok[0] == '%' ||
			   (ptk_syscall_lookup(tok) < 0 && ptk_syscall_class(tok))) {
			/* strace's old class names without the '%': file, network, ... */
			unsigned bit = ptk_syscall_class(tok + (tok[0] == '%'));
			if (!bit) {
				*bad = tok;
				return -EINVAL;
			}
			for (int i = 0; i < PTK_NSYSCALLS; i++)
				if (ptk_syscalls[i].cls & bit)
					sel[i] = true;
		} else {
			int nr = ptk_syscall_lookup(tok);
			if (nr < 0) {
				*bad = tok;
				return -EINVAL;
			}
			sel[nr] = true;
		}
	}
	if (neg)
		for (int i = 0; i < PTK_NSYSCALLS; i++)
			sel[i] = !sel[i] && ptk_syscalls[i].name;
	return 0;
}
