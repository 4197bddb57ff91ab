// SPDX-License-Identifier: GPL-2.0
/*
 * ptk capture: write snapshot directories DIR/0, DIR/1, ... that every command replays with
 * --procfs DIR. A snapshot holds only the files the readers use, copied byte for byte:
 *   N/<procfs file>        the system snapshot's /proc files (ptk_snap_files, source/snap.h;
 *                          uptime first: it times the replay)
 *   N/sys/<sysfs file>     the system snapshot's /sys files
 *   N/sys/fs/cgroup/...    every cgroup file the cgroup reader reads (source/cgroup)
 *   N/kmsg                 kernel log records from /dev/kmsg
 *   N/<pid>/..., N/<pid>/task/<tid>/...   the process table
 * Each snapshot is written into DIR/.N.tmp and renamed to DIR/N when complete, so a reader
 * never sees a half-written snapshot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <stdarg.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "source/cgroup/cgroup.h"
#include "source/snap.h"

enum cap_where {
	CAP_KMSG, /* /dev/kmsg records (or <procfs>/kmsg of a copied root) -> N/kmsg */
	CAP_PID, /* <procfs>/<pid>/REL -> N/<pid>/REL */
	CAP_TID, /* <procfs>/<pid>/task/<tid>/REL -> N/<pid>/task/<tid>/REL */
};

enum {
	CAP_REQUIRED = 1 << 0, /* no snapshot without it */
};

struct cap_file {
	enum cap_where where;
	const char *rel;
	unsigned flags;
	const char *reader; /* who reads it (documentation) */
};

/* Every per-process file and the kernel log: the files the readers use, and nothing else.
 * The system-wide files are the snapshot's (ptk_snap_files). */
static const struct cap_file cap_files[] = {
	{ CAP_KMSG, "kmsg", 0, "ptk_kmsg_read" },
	{ CAP_PID, "stat", CAP_REQUIRED, "ptk_ptab_scan" },
	{ CAP_PID, "statm", 0, "process memory" },
	{ CAP_PID, "status", 0, "process identity, memory, context switches" },
	{ CAP_PID, "io", 0, "ptk_ptab_scan (PTK_PT_IO)" },
	{ CAP_PID, "wchan", 0, "ptk_ptab_scan (PTK_PT_WCHAN)" },
	{ CAP_PID, "cmdline", 0, "process command line" },
	{ CAP_PID, "schedstat", 0, "run-queue wait (PTK_PT_SCHED, pidstat %wait)" },
	{ CAP_PID, "cgroup", 0, "cgroup path (PTK_PT_CGROUP, --group-by)" },
	{ CAP_TID, "stat", CAP_REQUIRED, "ptk_ptab_scan (PTK_PT_THREADS)" },
	{ CAP_TID, "status", 0, "per-thread context switches (cswtop, pidstat -w -t)" },
	{ CAP_TID, "io", 0, "per-thread I/O (iotop, pidstat -d -t)" },
	{ CAP_TID, "schedstat", 0, "per-thread run-queue wait" },
	{ CAP_TID, "wchan", 0, "ptk_ptab_scan (PTK_PT_THREADS | PTK_PT_WCHAN)" },
};

struct capture {
	const char *dir;
	char tmp[PATH_MAX];
	struct ptk_buf proc_buf[PTK_SNAP_NFILES]; /* system-wide files, read together */
	ssize_t proc_len[PTK_SNAP_NFILES];
	struct ptk_buf b;
	bool warned[PTK_SNAP_NFILES];
	bool kmsg_warned, cg_warned;
	/* per-snapshot counts for the progress line */
	int nfiles, nprocs, nthreads;
};

static const char usage[] =
	"usage: ptk capture DIR [interval [count]]\n"
	"Write count snapshots (default 1), interval seconds apart (default 1), of the /proc and\n"
	"/sys files ptk reads, into DIR/0, DIR/1, ... Replay them with any command:\n"
	"  ptk vmstat --procfs DIR 1\n"
	"DIR is created if needed and must not already hold snapshots.\n";

/* snprintf into a path buffer; false when it does not fit (the file is then skipped). */
static bool __attribute__((format(printf, 3, 4)))
path_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < size;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* rm -rf path (our own temporary trees only). */
static void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int write_at(struct capture *cap, const char *rel, const char *buf, size_t len)
{
	char path[PATH_MAX];
	int r;

	if (!path_fmt(path, sizeof(path), "%s/%s", cap->tmp, rel))
		return -ENAMETOOLONG;
	r = ptk_write_file(path, buf, len);
	if (r == -ENOENT) { /* parent directory missing */
		char *slash = strrchr(path, '/');
		*slash = '\0';
		if ((r = ptk_mkdir_p(path, 0755)))
			return r;
		*slash = '/';
		r = ptk_write_file(path, buf, len);
	}
	if (r == 0)
		cap->nfiles++;
	return r;
}

static bool is_procfs(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

/* Kernel log records, one per line ("pri,seq,ts_us,flags;text"); dictionary continuation
 * lines (" KEY=value") are dropped. Returns 0 or -errno. */
static int copy_kmsg(struct ptk_ctx *ctx, struct capture *cap, const struct cap_file *cf)
{
	char path[PATH_MAX];

	if (ptk_src_path(&ctx->src, PTK_PROC, cf->rel, path, sizeof(path)))
		return -ENAMETOOLONG;
	if (!is_procfs(ctx->src.procfs)) {
		/* a copied root: take its kmsg file as is, when it has one */
		ssize_t n = ptk_read_buf_at(AT_FDCWD, path, &cap->b);
		if (n == -ENOENT)
			return 0;
		return n < 0 ? n : write_at(cap, "kmsg", cap->b.p, n);
	}
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char rec[8192];
	size_t len = 0;

	if (fd < 0)
		return -errno;
	cap->b.len = 0;
	for (;;) {
		/* one record per read(); EPIPE: overwritten while we read, go on */
		ssize_t n = read(fd, rec, sizeof(rec));
		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;
			if (errno == EAGAIN)
				break;
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		char *eol = memchr(rec, '\n', n);
		size_t l = eol ? (size_t)(eol - rec) : (size_t)n;
		if (len + l + 2 > cap->b.cap) {
			cap->b.cap = MAX(cap->b.cap * 2, len + l + 4096);
			cap->b.p = xrealloc(cap->b.p, cap->b.cap);
		}
		memcpy(cap->b.p + len, rec, l);
		len += l;
		cap->b.p[len++] = '\n';
	}
	close(fd);
	return write_at(cap, "kmsg", cap->b.p ? cap->b.p : "", len);
}

/* Copy the sysfs files of one snapshot file entry (globs expanded; a marker entry
 * "D/ * /LEAF" makes every D/ * and an empty LEAF where one exists). Unreadable files are
 * skipped. */
static void copy_sys(struct ptk_ctx *ctx, struct capture *cap, const struct ptk_snap_file *cf)
{
	char pat[PATH_MAX], root[PATH_MAX], leaf[64] = "";
	size_t rootlen;
	glob_t g;

	if (ptk_src_path(&ctx->src, PTK_SYS, "", root, sizeof(root)) ||
	    ptk_src_path(&ctx->src, PTK_SYS, cf->rel, pat, sizeof(pat)))
		return;
	rootlen = strlen(root); /* "<sysfs>/" */
	if (cf->flags & PTK_SNAP_F_MARKER) {
		char *slash = strrchr(pat, '/');
		snprintf(leaf, sizeof(leaf), "%s", slash + 1);
		*slash = '\0';
	}
	if (glob(pat, 0, NULL, &g))
		return;
	for (size_t k = 0; k < g.gl_pathc; k++) {
		const char *src = g.gl_pathv[k];
		char rel[PATH_MAX];

		if (!path_fmt(rel, sizeof(rel), "sys/%s", src + rootlen))
			continue;
		if (cf->flags & PTK_SNAP_F_MARKER) {
			char path[PATH_MAX], live[PATH_MAX];
			if (!path_fmt(path, sizeof(path), "%s/%s", cap->tmp, rel) ||
			    ptk_mkdir_p(path, 0755))
				continue;
			if (path_fmt(live, sizeof(live), "%s/%s", src, leaf) &&
			    access(live, F_OK) == 0) {
				if (path_fmt(path, sizeof(path), "%s/%s", rel, leaf))
					write_at(cap, path, "", 0);
			}
			continue;
		}
		ssize_t n = ptk_read_buf_at(AT_FDCWD, src, &cap->b);
		if (n >= 0)
			write_at(cap, rel, cap->b.p, n);
	}
	globfree(&g);
}

/* A task is gone when its stat cannot be opened any more. */
static bool task_gone(int dirfd)
{
	return faccessat(dirfd, "stat", F_OK, 0) < 0;
}

/*
 * Copy the files of one task (where = CAP_PID or CAP_TID) from dirfd into rel/. Returns 0,
 * or -ESRCH when the task vanished (its partial copy is removed).
 */
static int copy_task(struct capture *cap, int dirfd, const char *rel, enum cap_where where)
{
	char path[PATH_MAX];
	bool made = false;

	for (size_t k = 0; k < ARRAY_SIZE(cap_files); k++) {
		const struct cap_file *cf = &cap_files[k];
		if (cf->where != where)
			continue;
		ssize_t n = ptk_read_buf_at(dirfd, cf->rel, &cap->b);
		if (n < 0) {
			if (cf->flags & CAP_REQUIRED ||
			    ((n == -ENOENT || n == -ESRCH) && task_gone(dirfd)))
				goto err_remove_copy;
			continue; /* unreadable (EACCES, not in this kernel) */
		}
		if (!made) {
			int r = path_fmt(path, sizeof(path), "%s/%s", cap->tmp, rel) ?
					ptk_mkdir_p(path, 0755) :
					-ENAMETOOLONG;
			if (r)
				return r;
			made = true;
		}
		if (path_fmt(path, sizeof(path), "%s/%s", rel, cf->rel))
			write_at(cap, path, cap->b.p, n);
	}
	return 0;
err_remove_copy:
	if (made && path_fmt(path, sizeof(path), "%s/%s", cap->tmp, rel))
		rm_rf(path);
	return -ESRCH;
}

static void copy_threads(struct capture *cap, int pfd, const char *pid)
{
	int tfd = openat(pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (tfd < 0)
		return;
	if (!(d = fdopendir(tfd))) {
		close(tfd);
		return;
	}
	while ((de = readdir(d))) {
		char rel[128];
		int fd;
		if (!ptk_is_digits(de->d_name))
			continue;
		fd = openat(tfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (path_fmt(rel, sizeof(rel), "%s/task/%s", pid, de->d_name) &&
		    copy_task(cap, fd, rel, CAP_TID) == 0)
			cap->nthreads++;
		close(fd);
	}
	closedir(d);
}

/* The process table; processes that vanish mid-copy are skipped silently. */
static int copy_procs(struct ptk_ctx *ctx, struct capture *cap)
{
	int rfd = open(ctx->src.procfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (rfd < 0)
		return -errno;
	if (!(d = fdopendir(rfd))) {
		int e = errno;
		close(rfd);
		return -e;
	}
	char self[16];
	snprintf(self, sizeof(self), "%d", (int)getpid());
	while ((de = readdir(d))) {
		int pfd;
		if (!ptk_is_digits(de->d_name))
			continue;
		/* leave the observer out: its own pid in the capture would show ptk capture as
		 * the top CPU offender of every replay */
		if (ptk_src_is_live(&ctx->src) && !strcmp(de->d_name, self))
			continue;
		pfd = openat(rfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0)
			continue;
		if (copy_task(cap, pfd, de->d_name, CAP_PID) == 0) {
			cap->nprocs++;
			copy_threads(cap, pfd, de->d_name);
		}
		close(pfd);
	}
	closedir(d);
	return 0;
}

static int capture_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct capture *cap = arg;
	char final[PATH_MAX];
	size_t k;
	int r;

	snprintf(cap->tmp, sizeof(cap->tmp), "%s/.%ld.tmp", cap->dir, i);
	snprintf(final, sizeof(final), "%s/%ld", cap->dir, i);
	rm_rf(cap->tmp); /* left over by an interrupted run */
	if (mkdir(cap->tmp, 0755) < 0) {
		ptk_err("cannot create %s: %s", cap->tmp, strerror(errno));
		return PTK_EXIT_RUNTIME;
	}
	cap->nfiles = cap->nprocs = cap->nthreads = 0;

	/* System-wide /proc files first, back to back, so uptime dates all of them. */
	for (k = 0; k < PTK_SNAP_NFILES; k++)
		if (ptk_snap_files[k].fs == PTK_PROC)
			cap->proc_len[k] = ptk_src_read_buf(
				&ctx->src, PTK_PROC, ptk_snap_files[k].rel, &cap->proc_buf[k]);
	for (k = 0; k < PTK_SNAP_NFILES; k++) {
		const struct ptk_snap_file *sf = &ptk_snap_files[k];
		ssize_t n = cap->proc_len[k];

		if (sf->fs != PTK_PROC) {
			copy_sys(ctx, cap, sf);
			continue;
		}
		if (n < 0 && sf->flags & PTK_SNAP_F_REQUIRED) {
			ptk_err("cannot read %s/%s: %s", ctx->src.procfs, sf->rel, strerror(-n));
			goto err_remove_tmp;
		}
		if (n < 0) {
			/* absent files (no PSI in this kernel) are expected; say why once else */
			if (n != -ENOENT && !cap->warned[k])
				ptk_warn("skipping %s/%s: %s", ctx->src.procfs, sf->rel,
					 strerror(-n));
			cap->warned[k] = true;
			continue;
		}
		if ((r = write_at(cap, sf->rel, cap->proc_buf[k].p, n))) {
			ptk_err("cannot write %s/%s: %s", cap->tmp, sf->rel, strerror(-r));
			goto err_remove_tmp;
		}
	}
	/* the cgroups, right after the system files: their uptime dates them too */
	if ((r = ptk_cg_capture(&ctx->src, cap->tmp, &cap->nfiles)) && !cap->cg_warned) {
		ptk_warn("cgroups not captured: %s/fs/cgroup: %s", ctx->src.sysfs, strerror(-r));
		cap->cg_warned = true;
	}
	for (k = 0; k < ARRAY_SIZE(cap_files); k++) {
		const struct cap_file *cf = &cap_files[k];

		if (cf->where == CAP_KMSG) {
			r = copy_kmsg(ctx, cap, cf);
			if (r && !cap->kmsg_warned)
				ptk_warn("kernel log not captured: /dev/kmsg: %s", strerror(-r));
			cap->kmsg_warned |= r != 0;
		}
	}
	if ((r = copy_procs(ctx, cap))) {
		ptk_err("cannot list %s: %s", ctx->src.procfs, strerror(-r));
		goto err_remove_tmp;
	}
	/* the capturing process was running while it read stat: procs_running counts it.
	 * The marker lets replays subtract it, as live tools subtract themselves. */
	if (ptk_src_is_live(&ctx->src)) {
		char pid[24];
		int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if ((r = write_at(cap, PTK_CAPTURE_MARKER, pid, n))) {
			ptk_err("cannot write %s/%s: %s", cap->tmp, PTK_CAPTURE_MARKER,
				strerror(-r));
			goto err_remove_tmp;
		}
	}
	if (rename(cap->tmp, final) < 0) {
		ptk_err("cannot rename %s to %s: %s", cap->tmp, final, strerror(errno));
		goto err_remove_tmp;
	}
	fprintf(stderr, "%s: %s: %d files, %d processes, %d threads\n", ptk_progname, final,
		cap->nfiles, cap->nprocs, cap->nthreads);
	return 0;
err_remove_tmp:
	rm_rf(cap->tmp);
	return PTK_EXIT_RUNTIME;
}

int cmd_capture(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { PTK_COMMON_OPTS, { 0 } };
	struct capture cap = { 0 };
	double interval = 1;
	long count = 1;
	char path[PATH_MAX];
	struct stat st;
	int c, r;

	while ((c = ptk_getopt(ctx, argc, argv, "", opts, usage, &r)) >= 0)
		; /* the common options only */
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (optind >= argc)
		return ptk_usage_error(ctx, "missing DIR");
	cap.dir = argv[optind++];
	if (!*cap.dir || strlen(cap.dir) > PATH_MAX - 256)
		return ptk_usage_error(ctx, "invalid DIR '%s'", cap.dir);
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, NULL)))
		return r;
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	if (ctx->src.replay) {
		ptk_err("%s holds snapshots: capture reads a live /proc", ctx->src.procfs);
		return PTK_EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "%s/0", cap.dir);
	if (stat(path, &st) == 0) {
		ptk_err("%s already holds snapshots; use a new directory", cap.dir);
		return PTK_EXIT_RUNTIME;
	}
	if ((r = ptk_mkdir_p(cap.dir, 0755))) {
		ptk_err("cannot create %s: %s", cap.dir, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	r = ptk_loop(ctx, interval, count - 1, capture_sample, &cap);
	if (r == -EINTR)
		r = 0; /* the snapshots written so far are complete */
	for (size_t k = 0; k < PTK_SNAP_NFILES; k++)
		ptk_buf_free(&cap.proc_buf[k]);
	ptk_buf_free(&cap.b);
	return r;
}
