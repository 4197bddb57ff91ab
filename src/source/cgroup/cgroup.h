/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup source: every cgroup of the machine in one snapshot, from cgroup v2, v1 or both
 * (hybrid), rooted at the source's sysfs (<sysfs>/fs/cgroup, the snapshot's sys/fs/cgroup in
 * replay), so `ptk capture` and replays read what a live read reads.
 *
 * A cgroup is one path below the hierarchy roots ("/", "/system.slice/nginx.service"). Under
 * v1 each controller has its own hierarchy (cpu, cpuacct or cpu,cpuacct, memory, blkio,
 * pids, and in hybrid mode the v2 tree at fs/cgroup/unified, which has the pressure files and
 * cpu.stat); a path present in several of them is one cgroup, filled from each, as
 * systemd-cgtop merges them.
 *
 * The files read, per hierarchy (ptk_cg_files): v2 cgroup.controllers-bearing trees give
 * cpu.stat, cpu.max, memory.current/max/high/low/events/stat/peak, io.stat, pids.current/max
 * and {cpu,memory,io}.pressure; v1 gives cpuacct.usage/stat, cpu.stat and cpu.cfs_quota_us /
 * cpu.cfs_period_us, memory.usage_in_bytes/limit_in_bytes/soft_limit_in_bytes/failcnt/
 * max_usage_in_bytes/oom_control/stat, blkio.throttle.io_service{d,_bytes}_recursive and
 * pids.current/max. A value whose file is absent is unknown (its bit clear in has), never 0.
 * v1 blk-throttle keeps its per-cgroup counters only for a group with a rule on the device
 * (Linux 6.18 does so): without one they read 0, which is what the kernel says.
 */
#ifndef PTK_SOURCE_CGROUP_H
#define PTK_SOURCE_CGROUP_H

#include <stdbool.h>

#include "lib/util.h"
#include "source/procfs/procfs.h"
#include "source/root.h"

/* How the cgroup filesystem is mounted. */
enum ptk_cg_layout {
	PTK_CG_NONE, /* nothing mounted at fs/cgroup */
	PTK_CG_V1, /* v1 controller hierarchies only */
	PTK_CG_HYBRID, /* v1 controllers, v2 at fs/cgroup/unified */
	PTK_CG_V2, /* the unified hierarchy at fs/cgroup */
};
extern const char *const ptk_cg_layout_name[4]; /* "none", "v1", "hybrid", "v2" */

/* What a hierarchy provides (a v1 hierarchy's controllers, all for v2). */
enum {
	PTK_CGC_CPU = 1 << 0, /* cpu.stat throttling, quota */
	PTK_CGC_CPUACCT = 1 << 1, /* cpuacct.usage, cpuacct.stat */
	PTK_CGC_MEMORY = 1 << 2,
	PTK_CGC_IO = 1 << 3, /* io (v2) or blkio (v1) */
	PTK_CGC_PIDS = 1 << 4,
	PTK_CGC_V2 = 1 << 5, /* a v2 hierarchy: v2 file names, pressure files */
};

/* The values of one cgroup, and which of them were read (has). */
enum ptk_cg_val {
	PTK_CGV_CPU_USAGE_NS, /* v2 cpu.stat usage_usec x 1000; v1 cpuacct.usage */
	PTK_CGV_CPU_USER_NS, /* v2 cpu.stat user_usec x 1000; v1 cpuacct.stat user (USER_HZ) */
	PTK_CGV_CPU_SYSTEM_NS,
	PTK_CGV_CPU_PERIODS, /* cpu.stat nr_periods */
	PTK_CGV_CPU_THROTTLED, /* cpu.stat nr_throttled */
	PTK_CGV_CPU_THROTTLED_NS, /* v2 throttled_usec x 1000; v1 throttled_time */
	PTK_CGV_CPU_QUOTA_US, /* cpu.max first field, cpu.cfs_quota_us; PTK_CG_MAX = none */
	PTK_CGV_CPU_PERIOD_US, /* cpu.max second field, cpu.cfs_period_us */
	PTK_CGV_MEM_CURRENT, /* memory.current, memory.usage_in_bytes */
	PTK_CGV_MEM_MAX, /* memory.max, memory.limit_in_bytes; PTK_CG_MAX = none */
	PTK_CGV_MEM_HIGH, /* memory.high (v2 only) */
	PTK_CGV_MEM_LOW, /* memory.low; v1 memory.soft_limit_in_bytes */
	PTK_CGV_MEM_PEAK, /* memory.peak (6.? and later), memory.max_usage_in_bytes */
	PTK_CGV_MEM_EV_LOW, /* memory.events low */
	PTK_CGV_MEM_EV_HIGH, /* memory.events high */
	PTK_CGV_MEM_EV_MAX, /* memory.events max; v1 memory.failcnt (charges that hit the limit) */
	PTK_CGV_MEM_EV_OOM, /* memory.events oom; v1 oom_control under_oom is a state, not this */
	PTK_CGV_MEM_EV_OOM_KILL, /* memory.events oom_kill; v1 memory.oom_control oom_kill */
	PTK_CGV_MEM_ANON, /* memory.stat anon; v1 total_rss */
	PTK_CGV_MEM_FILE, /* memory.stat file; v1 total_cache */
	PTK_CGV_MEM_INACTIVE_FILE, /* memory.stat inactive_file; v1 total_inactive_file */
	PTK_CGV_MEM_ACTIVE_FILE, /* memory.stat active_file; v1 total_active_file */
	PTK_CGV_MEM_SWAP, /* memory.swap.current; v1 memory.stat total_swap */
	PTK_CGV_MEM_PGFAULT, /* memory.stat pgfault; v1 total_pgfault */
	PTK_CGV_MEM_PGMAJFAULT, /* memory.stat pgmajfault; v1 total_pgmajfault */
	PTK_CGV_PIDS_CURRENT, /* pids.current */
	PTK_CGV_PIDS_MAX, /* pids.max; PTK_CG_MAX = none */
	PTK_CGV_N
};
#define PTK_CG_MAX UINT64_MAX /* "max": no limit */

/* One device's I/O counters of a cgroup (io.stat line, or blkio lines of one MAJ:MIN). */
struct ptk_cg_io {
	unsigned major, minor;
	u64 rbytes, wbytes, rios, wios;
};

struct ptk_cgroup {
	char path[256]; /* "/" or "/a/b" below the hierarchy roots */
	unsigned ctrl; /* PTK_CGC_* of the hierarchies it was found in */
	u64 has; /* 1 << enum ptk_cg_val: read */
	u64 v[PTK_CGV_N];
	bool has_psi[PTK_PSI_NRES];
	struct ptk_psi psi[PTK_PSI_NRES]; /* {cpu,memory,io}.pressure */
	struct ptk_cg_io *io;
	int nio;
	bool has_io; /* io.stat / blkio files read (nio may be 0: no I/O yet) */
	int depth; /* "/" 0, "/a" 1 ... */
	int parent; /* index of the parent cgroup in the snapshot, -1 for the root */
};

static inline bool ptk_cg_has(const struct ptk_cgroup *c, enum ptk_cg_val v)
{
	return c->has & (1ull << v);
}

/* One cgroup snapshot: every cgroup, sorted by path (a parent before its children). */
struct ptk_cgsnap {
	enum ptk_cg_layout layout;
	double up_s; /* uptime when read: live CLOCK_BOOTTIME, replay the snapshot's uptime */
	struct ptk_cgroup *cg;
	int n, cap;
	int err; /* 0, or -errno of fs/cgroup itself */
	int nhier; /* hierarchies read */
	/* set by the caller: what to read (PTK_CGW_* bits); 0 = everything */
	u64 want;
	/* set by the caller (one for the snapshots of a loop): hold the directories and files
	 * open between reads and re-read them with pread at offset 0, about half the cost of
	 * open+read+close on kernfs. A cgroup removed and made again (another inode) is opened
	 * anew, a removed one's fds are closed at the next read. Ignored in replay. NULL:
	 * open and close every file. */
	struct ptk_cg_keep *keep;
};

struct ptk_cg_keep;
/* A new fd cache for ptk_cgsnap.keep. Raises RLIMIT_NOFILE's soft limit to the hard limit
 * and holds at most three quarters of it; past that, files are opened and closed. */
struct ptk_cg_keep *ptk_cg_keep_new(void);
/* Close every held fd and free the cache (NULL is fine). */
void ptk_cg_keep_free(struct ptk_cg_keep *k);
/* The fds held now. */
int ptk_cg_keep_count(const struct ptk_cg_keep *k);

/*
 * What a snapshot reads (ptk_cgsnap.want): the values 1 << enum ptk_cg_val and the bits
 * below. A file is read when it gives a wanted value, and in a later hierarchy only when it
 * gives one the earlier ones did not for that cgroup (the hybrid v2 tree's cpu.stat beside
 * v1 cpuacct.usage). The CFS period is read only under a quota.
 */
#define PTK_CGW(v) (1ull << (v))
#define PTK_CGW_PSI(res) (1ull << (48 + (res))) /* {cpu,memory,io}.pressure */
#define PTK_CGW_IO_BYTES (1ull << 56)
#define PTK_CGW_IO_IOS (1ull << 57)
#define PTK_CGW_ALL (~0ull)

/* The most cgroups a snapshot holds (the rest are left out, in path order). */
#define PTK_CG_MAX_GROUPS 20000

/*
 * Read every cgroup under the source's fs/cgroup into s (its buffers reused). max_depth
 * limits the walk (0 = the root only, -1 = unlimited). Returns 0 (s->layout PTK_CG_NONE when
 * nothing is mounted there), or -errno when fs/cgroup cannot be listed (also in s->err).
 * Files a cgroup lacks leave their values unknown.
 */
int ptk_cg_read(const struct ptk_src *src, struct ptk_cgsnap *s, int max_depth);

/* The layout of the source's fs/cgroup (from its files alone, so replays detect it too). */
enum ptk_cg_layout ptk_cg_layout(const struct ptk_src *src);

/* The cgroup of path in s, or NULL. */
const struct ptk_cgroup *ptk_cg_find(const struct ptk_cgsnap *s, const char *path);

/* Deep copy of src into dst (dst's buffers reused). */
void ptk_cg_copy(struct ptk_cgsnap *dst, const struct ptk_cgsnap *src);
void ptk_cg_free(struct ptk_cgsnap *s);

/*
 * The process ids in cgroup path (its cgroup.procs in the first hierarchy that has it,
 * the v2 tree first) into *pids (realloc'd), *n of them. Returns 0 or -errno (-ENOENT: no
 * such cgroup).
 */
int ptk_cg_procs(const struct ptk_src *src, const char *path, int **pids, int *n);

/*
 * Copy every file ptk_cg_read and ptk_cg_procs read into dir/sys/fs/cgroup/..., byte for
 * byte, so a replay of dir reads the same cgroups (ptk capture). *nfiles counts the copies.
 * Returns 0 or -errno (only for dir itself: unreadable cgroup files are skipped).
 */
int ptk_cg_capture(const struct ptk_src *src, const char *dir, int *nfiles);

/* ---- identity: what a cgroup path says, from the path alone ---------------------------- */

struct ptk_cg_ident {
	char runtime[16]; /* "docker", "containerd", "cri-o", "podman", "lxc", "" */
	char id[72]; /* the container id (64 hex digits for the OCI runtimes) */
	char pod_uid[40]; /* Kubernetes pod UID, dashes restored ("" none) */
	char qos[12]; /* "guaranteed", "burstable", "besteffort" ("" not a pod) */
	char unit[128]; /* the innermost systemd unit: "nginx.service", "session-3.scope" */
};

/*
 * Identify the cgroup at path (below the hierarchy root): container runtime and id (docker,
 * containerd/cri, cri-o, podman, lxc; systemd and cgroupfs drivers), the Kubernetes pod UID
 * and QoS class (kubepods), and the innermost systemd unit. Fields it does not show are "".
 */
void ptk_cg_identify(const char *path, struct ptk_cg_ident *id);

/* "docker 3f2a1b..." (12 hex digits), "pod 1234-... (burstable)", the unit, or "": a short
 * name for a cgroup, for tables and evidence. Returns buf. */
const char *ptk_cg_ident_short(const struct ptk_cg_ident *id, char *buf, size_t size);

/*
 * The owner of cgroup path in one short word, for a task's CONTAINER column (top, pidstat,
 * cswtop): "RUNTIME:ID" (12 hex digits of an OCI id), "pod:UID" (its first 8 characters)
 * for a pod's own cgroup, else the innermost systemd unit, else "". Returns buf.
 */
const char *ptk_cg_container(const char *path, char *buf, size_t size);

/* Is the cgroup path under (or at) the cgroup prefix? "/a" holds "/a" and "/a/b", not
 * "/ab"; "/" holds every path. A trailing '/' of prefix is ignored. */
bool ptk_cg_under(const char *path, const char *prefix);

#endif
