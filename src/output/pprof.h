/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof profiles: the gzipped protocol buffer of github.com/google/pprof's profile.proto,
 * which Go's pprof, Parca, Pyroscope and Google Cloud Profiler read. Our own encoder for the
 * proto's few messages (Profile, ValueType, Sample, Label, Mapping, Location, Line,
 * Function); zlib writes the gzip stream.
 *
 * Build a profile: sample types (e.g. "samples"/"count", "cpu"/"nanoseconds"), then
 * mappings, locations (interned: the same mapping and address, or the same name without an
 * address, is one location) and samples (location ids leaf first, one value per sample
 * type, labels). Every location carries one Line naming its function, so the profile is
 * symbolized (has_functions) and pprof needs no binaries to read it.
 */
#ifndef PTK_OUTPUT_PPROF_H
#define PTK_OUTPUT_PPROF_H

#include <stdbool.h>

#include "lib/util.h"
#include "model/folded.h"

#define PTK_PPROF_MAX_TYPES 4

struct ptk_pprof;

struct ptk_pprof_label {
	const char *key;
	const char *str; /* a string label, or NULL for a numeric one */
	s64 num;
	const char *unit; /* numeric labels: "bytes", "nanoseconds" ... or NULL */
};

struct ptk_pprof *ptk_pprof_new(void);
void ptk_pprof_free(struct ptk_pprof *p);
/* Add a sample type (what each value of a sample is): up to PTK_PPROF_MAX_TYPES. 0 or
 * -E2BIG. */
int ptk_pprof_sample_type(struct ptk_pprof *p, const char *type, const char *unit);
/* The sampling period: "cpu"/"nanoseconds" 10101010 for 99 Hz. */
void ptk_pprof_period(struct ptk_pprof *p, const char *type, const char *unit, s64 period);
/* Wall-clock start of the profile (ns since the epoch) and its length (ns). */
void ptk_pprof_time(struct ptk_pprof *p, s64 time_nanos, s64 duration_nanos);
/* A comment line (pprof -comments). */
void ptk_pprof_comment(struct ptk_pprof *p, const char *text);
/*
 * A mapping: [start, limit) mapped from file at offset, build_id the hex GNU build ID (or
 * NULL). Interned by (file, start). Returns its id (>= 1).
 */
u64 ptk_pprof_mapping(struct ptk_pprof *p, u64 start, u64 limit, u64 offset, const char *file,
		      const char *build_id);
/*
 * A location: address addr (0 when unknown) in mapping (0: none), naming func (source file
 * and line when known, else NULL / 0). Interned by (mapping, addr) when addr != 0, else by
 * (mapping, func). Returns its id (>= 1).
 */
u64 ptk_pprof_location(struct ptk_pprof *p, u64 mapping, u64 addr, const char *func,
		       const char *file, s64 line);
/* A sample: locs[0..n) leaf first; one value per sample type; labels may be NULL. */
void ptk_pprof_sample(struct ptk_pprof *p, const u64 *locs, int n, const s64 *values,
		      const struct ptk_pprof_label *labels, int nlabels);
/*
 * Folded stacks as samples: "a;b;c N" -> locations c, b, a (by name) with values N (then
 * N * scale[i] for the further sample types, when given). comm_first: the first frame is
 * the process name, written as the label "comm" instead of a frame.
 */
void ptk_pprof_add_folded(struct ptk_pprof *p, const struct ptk_folded *f, bool comm_first,
			  const s64 *scale);
/* The gzipped profile into a malloc'ed buffer. 0 or -ENOMEM/-EIO. */
int ptk_pprof_gzip(struct ptk_pprof *p, unsigned char **out, size_t *len);
/* Write the gzipped profile to fd. 0 or -errno. */
int ptk_pprof_write(struct ptk_pprof *p, int fd);
/* Write the gzipped profile to path, named only when whole (lib/util.h ptk_outfile). 0 or
 * -errno. */
int ptk_pprof_save(struct ptk_pprof *p, const char *path);
/* Encode the profile (not gzipped) into a malloc'ed buffer *out of *len bytes. */
void ptk_pprof_encode(struct ptk_pprof *p, unsigned char **out, size_t *len);

/* True when path names a pprof file: ends with ".pb.gz" or ".pprof". */
bool ptk_pprof_path(const char *path);

/* The GNU build ID of ELF file path as hex into buf (size >= 41 for SHA-1 IDs). 0, -ENOENT
 * (no build ID note) or -errno. */
int ptk_elf_build_id(const char *path, char *buf, size_t size);

#endif
