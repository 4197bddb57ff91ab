/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collapse `perf script` text into folded stacks (model/folded.h) with the semantics of
 * FlameGraph's stackcollapse-perf.pl: one sample = a header line ("comm pid[/tid] [cpu]
 * time: [period] event:") then one frame per line, leaf first ("addr sym[+0xoff] (dso)"),
 * then an empty line. Stacks come out root first with the process name as the first frame,
 * each weighted by the sample's period (1 when perf printed none, or 0). By default only the
 * first event seen is kept, as the Perl script does; the others are counted in ev[].
 *
 * Where ptk differs on purpose (each in ptk-flamegraph(1)): a comm holding digits or spaces
 * ("Thread 2 4567 [000] ...") is split from the pid by the cpu/time field after it; samples
 * without a callchain (one line each, no empty line between them) are kept, a header always
 * ends the sample before it; the last sample is counted without a trailing empty line;
 * a line of blanks ends a sample; frames of "(anonymous namespace)::f" are kept; tracepoint
 * headers (which end with the event's fields) are filtered by their event too; jitted-*.so
 * (perf inject --jit) counts as JIT code for _[j]; srcline lines are skipped.
 *
 * The parser is streaming and allocates nothing per line: frame lines are looked up by
 * their text (symbol without offset, DSO) in a cache of already tidied frame ids, samples
 * are id arrays interned in a hash table, and the strings are built once per distinct stack
 * by ptk_perfscript_finish().
 */
#ifndef PTK_MODEL_PERFSCRIPT_H
#define PTK_MODEL_PERFSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/folded.h"

struct ptk_perfscript_opts {
	bool pid; /* first frame "comm-pid" ("comm-?" when perf printed only the tid) */
	bool tid; /* first frame "comm-pid/tid" */
	bool annotate_kernel; /* append "_[k]" to kernel frames (dso "[...]" or "...vmlinux") */
	bool annotate_jit; /* append "_[j]" to frames of /tmp/perf-PID.map or jitted-*.so */
	bool addrs; /* "[dso <addr>]" for frames without a symbol (--addrs) */
	bool unit; /* count 1 per sample instead of its period */
	/* keep only this event ("cycles", "cpu-clock:pppH" ...); NULL: the first one seen */
	const char *event;
};

#define PTK_PERFSCRIPT_MAX_EVENTS 16

struct ptk_ps_state;

struct ptk_perfscript {
	struct ptk_folded *out;
	struct ptk_perfscript_opts o;
	struct ptk_ps_state *st; /* interned frames and stacks, the sample being read */
	/* counters: samples_in == samples_out + samples_filtered, always */
	u64 samples_in; /* sample headers read */
	u64 samples_out; /* samples added (weight_out is their periods' sum) */
	u64 samples_filtered; /* samples of another event than the one kept */
	u64 weight_out; /* the sum of the counts written, saturated at 2^64 - 1 */
	u64 frames_in; /* frame lines read */
	u64 lines_skipped; /* srcline and other unrecognized lines */
	u64 overflow; /* distinct stacks whose count would pass 2^64 - 1 (not written) */
	struct {
		char name[64];
		u64 samples;
		u64 weight;
		bool kept;
	} ev[PTK_PERFSCRIPT_MAX_EVENTS];
	int nev; /* distinct events seen (more than the table holds are not named) */
};

/* Start collapsing into out (which keeps ownership). o may be NULL for the defaults. The
 * stacks reach out at ptk_perfscript_finish(). */
void ptk_perfscript_init(struct ptk_perfscript *ps, struct ptk_folded *out,
			 const struct ptk_perfscript_opts *o);
/* Feed one line (NUL-terminated, with or without its trailing newline). */
void ptk_perfscript_line(struct ptk_perfscript *ps, const char *line);
/* Feed one line of n bytes (no newline in it; line[n] need not be NUL). */
void ptk_perfscript_linen(struct ptk_perfscript *ps, const char *line, size_t n);
/* End of input: count the last sample and add every stack to out. */
void ptk_perfscript_finish(struct ptk_perfscript *ps);
/* Free the parser state (not out). */
void ptk_perfscript_release(struct ptk_perfscript *ps);

/*
 * Tell perf script text from folded stacks, given the first two lines that are neither empty
 * nor '#' comments (line2 may be NULL). perf script: a line starting with whitespace (a
 * frame), or a first line whose last token is not a count. Folded: "a;b;c 12".
 */
bool ptk_perfscript_detect(const char *line1, const char *line2);

/*
 * Tidy one function name of a frame as stackcollapse-perf.pl does: "[unknown]" becomes
 * "[dso basename]" when the DSO is known ("[unknown]" else, with " <addr>" inside the
 * brackets when addr is not NULL), ';' -> ':', everything from the first '(' dropped
 * (argument lists) except in Go methods "pkg.(*T).M" and "(anonymous namespace)", quotes
 * removed, and for java the leading 'L' of names holding a '/'. The "+0x1a" offset is the
 * caller's to strip. Writes into buf (NUL-terminated, truncated to size).
 */
void ptk_perfscript_tidy(const char *func, size_t funclen, const char *dso, size_t dsolen,
			 const char *addr, size_t addrlen, bool java, char *buf, size_t size);

#endif
