/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SQLite archive behind `ptk record`, `ptk sar` and time travel (`--at`).
 *
 * One sample is one system snapshot (struct ptk_snap, source/snap.h) plus a few processes
 * (struct ptk_task rows). The archive stores and loads snapshots and never opens /proc: the
 * recorder reads them with ptk_snap_read, and time travel writes loaded ones back as /proc
 * trees (ptk_snap_write_tree) so every command replays a recorded window through the
 * ordinary --procfs snapshot path.
 *
 * Integers only (SQLite stores them in 0-8 bytes by size); fractional kernel values are
 * stored scaled (uptime in centiseconds, load and PSI averages in hundredths), exactly as
 * precise as the kernel prints them. Times are UTC milliseconds since the epoch. The schema
 * is versioned (PRAGMA user_version, meta.schema_version) and documented in docs/schema.md.
 */
#ifndef PTK_OUTPUT_ARCHIVE_H
#define PTK_OUTPUT_ARCHIVE_H

#include <stdbool.h>

#include "lib/util.h"
#include "model/folded.h"
#include "source/cgroup/cgroup.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"
#include "source/snap.h"

/* written: 3 added the profile tables, 4 the ext table, 5 the cgroup tables */
#define PTK_ARC_SCHEMA_VERSION 5
#define PTK_ARC_SCHEMA_MIN \
	1 /* the oldest read: version 1 had a table each for cpu, disk, net, snmp */
#define PTK_ARC_DEFAULT_DB "/var/lib/ptk/ptk.db"

struct ptk_arc;

enum { PTK_ARC_RDONLY = 0, PTK_ARC_RDWR = 1 };

/*
 * Open (RDWR: create, WAL mode, schema) or open read-only an archive. On failure returns
 * NULL and writes a one-line reason into err (never prints).
 */
struct ptk_arc *ptk_arc_open(const char *path, int mode, char *err, size_t errsize);
void ptk_arc_close(struct ptk_arc *a);
/* Print the schema's SQL (CREATE statements) to f. */
void ptk_arc_schema_print(FILE *f);
/* The last SQLite error message of a ("" when none). */
const char *ptk_arc_errmsg(const struct ptk_arc *a);
/* Set (replace) a meta table value. */
void ptk_arc_set_meta(struct ptk_arc *a, const char *key, const char *val);
/* meta table value of key into buf ("" when absent). */
void ptk_arc_meta(struct ptk_arc *a, const char *key, char *buf, size_t size);
/* The recording machine in the meta table: sysname, release, hostname, machine (uname(2)),
 * ncpu (configured CPUs), hz and page_size, as sar's banner and the loaders read them. */
void ptk_arc_set_host_meta(struct ptk_arc *a);

/*
 * Store one sample in one transaction: the sample with its processes, plus prev_procs (tasks
 * that joined the top-N this interval, as they were at the previous sample prev_id; 0 = none)
 * so that every recorded process has a baseline for its rates. s->id is set. 0 or -EIO.
 */
int ptk_arc_write(struct ptk_arc *a, struct ptk_snap *s, s64 prev_id,
		  const struct ptk_task *prev_procs, int nprev);
/*
 * ptk_arc_write with the sample's cgroups: the first ncg of cg (a cgroup snapshot read by
 * source/cgroup ptk_cg_read; path order keeps every parent before its children), in the
 * same transaction (schema version 5: cgroups table, paths and owners in cgpath). cg NULL
 * or ncg 0: no cgroup row. 0 or -EIO.
 */
int ptk_arc_write_cg(struct ptk_arc *a, struct ptk_snap *s, const struct ptk_cgsnap *cg, int ncg,
		     s64 prev_id, const struct ptk_task *prev_procs, int nprev);
/* The cgroups a sample stores by default (ptk record --cgroups): the first in path order. */
#define PTK_ARC_CGROUPS_DEFAULT 512
/*
 * Load the cgroups of sample id into cg (its buffers reused; parents and depths from the
 * paths, up_s as recorded). 0, -ENOENT (no cgroups stored with the sample: an archive
 * before version 5, or recorded with --cgroups 0), or -EIO (damaged).
 */
int ptk_arc_load_cg(struct ptk_arc *a, s64 id, struct ptk_cgsnap *cg);

/*
 * Delete the samples older than before_ms (and their rows): the oldest in recording order,
 * up to the first sample taken at or after before_ms (after a wall clock stepped back, a
 * sample stamped older than one before it goes when those before it have gone), at most
 * batch samples per transaction, until none is left. Returns the number deleted, or -EIO.
 */
long ptk_arc_retain(struct ptk_arc *a, s64 before_ms, int batch);

/*
 * Store a profile: the folded stacks f sampled during the interval that ends at sample
 * sample_id (continuous profiling, ptk record --profile), in one transaction. Stacks are
 * interned in the stack table. 0 or -EIO.
 */
int ptk_arc_write_profile(struct ptk_arc *a, s64 sample_id, const struct ptk_folded *f);
/*
 * Add to f the profile stacks of the samples with from_ms <= t_ms <= to_ms. *nsamples
 * (may be NULL) gets the number of samples that carried a profile. Returns 0, -ENOENT for
 * an archive without profiles (schema version < 3), or -EIO.
 */
int ptk_arc_load_profile(struct ptk_arc *a, s64 from_ms, s64 to_ms, struct ptk_folded *f,
			 long *nsamples);

/* The samples of a window, in time order. */
struct ptk_arc_index {
	int n, cap;
	s64 *id, *t_ms;
	bool damaged; /* a corrupt page cut the listing short: some samples are missing */
};
/* List the samples with from_ms <= t_ms <= to_ms. Corruption is not fatal: the rows read
 * before it are kept (and scanning resumes past it when possible), idx->damaged is set.
 * Returns 0, or -EIO when nothing at all could be read. */
int ptk_arc_list(struct ptk_arc *a, s64 from_ms, s64 to_ms, struct ptk_arc_index *idx);
void ptk_arc_index_free(struct ptk_arc_index *idx);
/* Index in idx of the sample nearest t_ms (-1 when empty). */
int ptk_arc_nearest(const struct ptk_arc_index *idx, s64 t_ms);

/*
 * Load sample id into s (with its processes when procs). 0, -ENOENT, or -EIO (corrupt).
 * A value the kernel cannot have written (negative, not an integer, a 32-bit field beyond
 * 32 bits, a PSI average above 100%, a meminfo part above its total, nr_running above
 * nr_threads, a negative counter in the cpu, disk or interface vectors) is loaded as
 * unknown (ptk_snap_field_unmark; a vector's whole part, or one CPU's line) and named in
 * ptk_arc_impossible.
 */
int ptk_arc_load(struct ptk_arc *a, s64 id, bool procs, struct ptk_snap *s);
/* The impossible values of the last sample loaded, "name value (why); ...", "" when none. */
const char *ptk_arc_impossible(const struct ptk_arc *a);

/*
 * Time travel: write the samples idx[first..last] as snapshot directories 0/, 1/, ... under
 * a new temporary directory (its path into dir), ready for --procfs; a sample's cgroups as
 * a cgroup v2 tree in N/sys/fs/cgroup (whatever the recorded layout: the values the
 * reader had merged, under the v2 file names), which the cgroup source reads in replay. Unreadable samples are
 * skipped; impossible values are left out of the files (unknown to their readers), and
 * ptk_arc_impossible names the first sample with some. Returns the number of snapshots
 * written, or -errno.
 */
int ptk_arc_snapshot_tree(struct ptk_arc *a, const struct ptk_arc_index *idx, int first, int last,
			  char *dir, size_t size);
/*
 * Time travel in one call: open db read-only, find the sample nearest the time `at`
 * (ptk_arc_parse_time; shift moves that many samples later/earlier), and write it with
 * `before` samples before it (baselines for rates) and the samples up to span_s seconds
 * after it as a snapshot tree (ptk_arc_snapshot_tree). *t_ms gets the time of the sample
 * found. Returns the number of snapshots (< 2: nothing to compute rates from), or -errno
 * with a one-line reason in err. With 2 or more, err is "" or names the impossible values
 * found (shown as unknown): a warning.
 */
int ptk_arc_at(const char *db, const char *at, bool utc, int before, double span_s, int shift,
	       char *dir, size_t size, s64 *t_ms, char *err, size_t errsize);
/* rm -rf of a tree made by ptk_arc_snapshot_tree. */
void ptk_arc_rmtree(const char *dir);

/*
 * Parse a time: "YYYY-MM-DD HH:MM[:SS]", "YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM]", "HH:MM[:SS]"
 * (today, or of the day of ref_ms when ref_ms > 0), "@EPOCH", or "now"/"-30m"/"-2h"/"-1d"
 * relative to now. Local time unless utc or an explicit zone. 0 or -EINVAL.
 */
int ptk_arc_parse_time(const char *s, bool utc, s64 ref_ms, s64 *out_ms);

/* Format t_ms as "HH:MM:SS" (local, or UTC when utc), or ISO 8601 with the zone offset
 * ("2024-05-01T13:20:01+02:00") when iso. */
void ptk_arc_fmt_time(s64 t_ms, bool utc, bool iso, char *buf, size_t size);

#endif
