/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the /proc and /sys readers read from.
 *
 * Every path is rooted at --procfs DIR / --sysfs DIR (default /proc and /sys), the idea of
 * node_exporter's --path.procfs. When the procfs root holds numbered snapshot directories
 * 0/ 1/ 2/ ... (written by `ptk capture`), the source is in replay mode: sample N reads
 * snapshot N, interval lengths come from each snapshot's `uptime` file and nothing sleeps.
 * In replay mode with no --sysfs given, sysfs files are read from N/sys/ inside the snapshot,
 * and the kernel log from N/kmsg.
 */
#ifndef PTK_SOURCE_ROOT_H
#define PTK_SOURCE_ROOT_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

enum ptk_fs { PTK_PROC, PTK_SYS };

/* File in each snapshot written by `ptk capture`: the capturing process's pid. That process
 * was running while it read /proc/stat, so procs_running counts it once. */
#define PTK_CAPTURE_MARKER "ptk-capture"

struct ptk_src {
	char procfs[PATH_MAX];
	char sysfs[PATH_MAX];
	bool sysfs_given; /* --sysfs was set explicitly */
	bool replay; /* procfs root holds snapshots 0/ 1/ ... */
	int nsnap; /* number of consecutive snapshots from 0 */
	int snap; /* current snapshot index in replay mode */
	bool sys_replay; /* sysfs root itself holds numbered snapshots */
	bool bad_sysfs; /* ptk_src_init failed on the sysfs root, not the procfs one */
};

/*
 * Set up a source. procfs/sysfs may be NULL for the defaults.
 * Returns 0, or -ENOENT / -ENOTDIR / -EACCES when a given root is not a directory we can use
 * (bad_sysfs says which one).
 */
int ptk_src_init(struct ptk_src *src, const char *procfs, const char *sysfs);

/* True when reading the live kernel (not a snapshot tree or another root). */
bool ptk_src_is_live(const struct ptk_src *src);

/*
 * Build the full path of rel (e.g. "stat", "net/dev", "devices/system/cpu/online") under
 * the procfs or sysfs root of the current sample. Returns 0 or -ENAMETOOLONG.
 */
int ptk_src_path(const struct ptk_src *src, enum ptk_fs fs, const char *rel, char *buf,
		 size_t size);

/* Read rel under the current root into buf (NUL-terminated). Returns bytes or -errno. */
ssize_t ptk_src_read(const struct ptk_src *src, enum ptk_fs fs, const char *rel, char *buf,
		     size_t size);

/*
 * Move to the next sample. Live: no-op, returns 0. Replay: advances to the next snapshot;
 * returns 0, or -ENODATA when there is none left.
 */
int ptk_src_next(struct ptk_src *src);

/* Samples left including the current one (replay), or -1 (live: unbounded). */
int ptk_src_remaining(const struct ptk_src *src);

/* A growable, reusable read buffer. */
struct ptk_buf {
	char *p;
	size_t cap;
	size_t len;
};
/* Read rel under the current root into b, growing it to fit the whole file.
 * Returns bytes or -errno. */
/*
 * The whole lines of text[0..n): a /proc file always ends with a newline, so a last line
 * without one was cut (a tree copied while written, a truncated file) and is dropped; a
 * reader then sees its fields absent (unknown), never a cut number. NUL-terminates text at
 * the new length, which it returns (0 when not one line is whole).
 */
size_t ptk_text_lines(char *text, size_t n);
/*
 * Read rel under the current root as text: ptk_src_read() into buf, then ptk_text_lines(), so
 * a cut last line is dropped. Returns the length of the whole lines kept, or -errno.
 */
ssize_t ptk_src_read_text(const struct ptk_src *src, enum ptk_fs fs, const char *rel, char *buf,
			  size_t size);
/* The same into the growable b (ptk_src_read_buf()): the text is at b->p. Length or -errno. */
ssize_t ptk_src_read_text_buf(const struct ptk_src *src, enum ptk_fs fs, const char *rel,
			      struct ptk_buf *b);
ssize_t ptk_src_read_buf(const struct ptk_src *src, enum ptk_fs fs, const char *rel,
			 struct ptk_buf *b);
/* Same for an absolute path / path relative to dirfd. */
ssize_t ptk_read_buf_at(int dirfd, const char *path, struct ptk_buf *b);
void ptk_buf_free(struct ptk_buf *b);
#endif
