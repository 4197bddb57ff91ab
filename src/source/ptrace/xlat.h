/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constant -> name tables for the syscall decoders (flags, commands, ioctl requests,
 * signals), generated (scripts/gen-xlat.sh) from the declarative lists xlat/NAME.in into
 * xlatent.h, each value checked against the libc/uapi headers by a static_assert.
 */
#ifndef PTK_SOURCE_PTRACE_XLAT_H
#define PTK_SOURCE_PTRACE_XLAT_H

#include <stddef.h>
#include <stdint.h>

struct ptk_xlat_ent {
	uint64_t val;
	const char *name;
};

struct ptk_xlat {
	const struct ptk_xlat_ent *e;
	size_t n;
	const char *unknown; /* an unknown value's comment: "MADV_???" */
};

/* ptk_x_NAME for each src/source/ptrace/xlat/NAME.in */
#include "source/ptrace/xlatent.h"

/* Name of an exact value, or NULL. */
const char *ptk_xlat_name(const struct ptk_xlat *x, uint64_t val);

/*
 * Format the set bits of flags as "A|B|0x40" into buf (size bytes); zero prints as zero_name
 * (or "0" when NULL). Returns buf.
 */
char *ptk_xlat_flags(const struct ptk_xlat *x, uint64_t flags, const char *zero_name, char *buf,
		     size_t size);

/* Signal name without the "SIG" prefix ("USR1", "RTMIN", "RT_3"), or NULL for 0 or >64. */
const char *ptk_signal_abbrev(int sig);
/* Full signal name "SIGUSR1", or NULL. */
const char *ptk_signal_name(int sig);
/* Signal number of "SIGUSR1", "USR1" or "10"; -1 when unknown. */
int ptk_signal_parse(const char *s);

#endif
