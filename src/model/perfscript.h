/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collapse `perf script` text into folded stacks (model/folded.h), with the rules of
 * stackcollapse-perf.pl: one sample = a header line ("comm pid[/tid] [cpu] time: [period]
 * event:") then one frame per line, leaf first ("addr sym[+0xoff] (dso)"), then a blank line.
 * Stacks come out root first with the process name as the first frame.
 *
 * Beyond stackcollapse-perf.pl: comms with spaces or digits ("Plex DLNA Serve",
 * "[ET_NET 0]") are split from the pid by the cpu/time field that follows it, DSO names with
 * spaces are kept, srcline lines (perf script -F +srcline) are skipped, samples without a
 * callchain (one line each, no blank line between them) are kept, and every sample of every
 * event is counted: nothing is dropped silently.
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
	const char *event; /* keep only this event ("cycles", "cpu-clock" ...); NULL: all */
};

#define PTK_PERFSCRIPT_MAX_EVENTS 16

struct ptk_perfscript {
	struct ptk_folded *out;
	struct ptk_perfscript_opts o;
	/* the sample being read */
	bool in_sample, keep;
	char *pname;
	char **frames; /* leaf first */
	int nframes, capframes;
	/* counters: samples_in == samples_out + samples_filtered, always */
	u64 samples_in; /* sample headers read */
	u64 samples_out; /* samples added to out (one count each) */
	u64 samples_filtered; /* samples of another event than o.event */
	u64 frames_in; /* frame lines read */
	u64 lines_skipped; /* srcline and other unrecognized lines */
	struct {
		char name[64];
		u64 samples;
	} ev[PTK_PERFSCRIPT_MAX_EVENTS];
	int nev; /* distinct events seen (more than the table holds are not named) */
};

/* Start collapsing into out (which keeps ownership). o may be NULL for the defaults. */
void ptk_perfscript_init(struct ptk_perfscript *ps, struct ptk_folded *out,
			 const struct ptk_perfscript_opts *o);
/* Feed one line (without or with its trailing newline). */
void ptk_perfscript_line(struct ptk_perfscript *ps, const char *line);
/* End of input: flush the last sample. */
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
 * Tidy one symbol the way stackcollapse-perf.pl does: "+0x1a" offsets removed, "[unknown]"
 * replaced by "[dso basename]" when the DSO is known, ';' -> ':', everything from the first
 * '(' dropped (argument lists) except Go methods "pkg.(*T).M" and "(anonymous namespace)",
 * quotes removed, and for java the leading 'L' of "Lpkg/Class;" names. Writes into buf
 * (NUL-terminated, truncated to size). dso may be "" when perf printed none.
 */
void ptk_perfscript_tidy(const char *sym, size_t symlen, const char *dso, size_t dsolen, bool java,
			 char *buf, size_t size);

#endif
