// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup source (source/cgroup/cgroup.h): a walk of every hierarchy under fs/cgroup, the
 * files of each cgroup parsed into one record per (hierarchy, path), then merged by path.
 * Files are read relative to each cgroup's directory fd (openat), which saves a path walk
 * per file: a 500-cgroup machine costs a few thousand small reads.
 */
#include "source/cgroup/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *const ptk_cg_layout_name[4] = { "none", "v1", "hybrid", "v2" };

#define VBIT(v) (1ull << (v))

/* ---- hierarchies ------------------------------------------------------------------------ */

struct hier {
	char rel[64]; /* below the sysfs root: "fs/cgroup", "fs/cgroup/memory", ... */
	unsigned ctrl; /* PTK_CGC_* */
};

/* PTK_CGC_* of a v1 hierarchy named by its controllers ("cpu,cpuacct"); 0 = nothing read. */
static unsigned v1_ctrl(const char *name)
{
	static const struct {
		const char *name;
		unsigned bit;
	} known[] = { { "cpu", PTK_CGC_CPU },
		      { "cpuacct", PTK_CGC_CPUACCT },
		      { "memory", PTK_CGC_MEMORY },
		      { "blkio", PTK_CGC_IO },
		      { "pids", PTK_CGC_PIDS } };
	unsigned ctrl = 0;
	const char *p = name;

	while (*p) {
		size_t l = strcspn(p, ",");
		for (size_t k = 0; k < ARRAY_SIZE(known); k++)
			if (strlen(known[k].name) == l && !strncmp(p, known[k].name, l))
				ctrl |= known[k].bit;
		p += l;
		if (*p == ',')
			p++;
	}
	return ctrl;
}

static bool exists_at(int dfd, const char *name)
{
	return faccessat(dfd, name, F_OK, 0) == 0;
}

/* The hierarchies under the source's fs/cgroup, v1 ones first (their values win a merge),
 * v2 last. Returns the layout; *n the hierarchies found. */
static enum ptk_cg_layout hierarchies(const struct ptk_src *src, struct hier *h, int max, int *n,
				      int *err)
{
	char root[PATH_MAX];
	bool v2 = false;
	DIR *d;
	int fd;

	*n = 0;
	*err = 0;
	if (ptk_src_path(src, PTK_SYS, "fs/cgroup", root, sizeof(root))) {
		*err = -ENAMETOOLONG;
		return PTK_CG_NONE;
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return PTK_CG_NONE;
	}
	if (exists_at(fd, "cgroup.controllers")) {
		snprintf(h[0].rel, sizeof(h[0].rel), "fs/cgroup");
		h[0].ctrl = PTK_CGC_CPU | PTK_CGC_CPUACCT | PTK_CGC_MEMORY | PTK_CGC_IO |
			    PTK_CGC_PIDS | PTK_CGC_V2;
		*n = 1;
		close(fd);
		return PTK_CG_V2;
	}
	if (!(d = fdopendir(fd))) {
		*err = -errno;
		close(fd);
		return PTK_CG_NONE;
	}
	struct dirent *de;
	int nv2 = -1;
	while ((de = readdir(d)) && *n < max - 1) {
		struct stat st;
		int sub;
		if (de->d_name[0] == '.' || strlen(de->d_name) > 40)
			continue;
		/* cpu -> cpu,cpuacct: the symlinks name a hierarchy listed under its own name */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub < 0)
			continue;
		if (exists_at(sub, "cgroup.controllers")) {
			nv2 = *n;
			v2 = true;
		} else if (!exists_at(sub, "cgroup.procs") || !v1_ctrl(de->d_name)) {
			close(sub);
			continue;
		}
		close(sub);
		snprintf(h[*n].rel, sizeof(h[*n].rel), "fs/cgroup/%.40s", de->d_name);
		h[*n].ctrl = nv2 == *n ? PTK_CGC_CPU | PTK_CGC_CPUACCT | PTK_CGC_MEMORY |
						 PTK_CGC_IO | PTK_CGC_PIDS | PTK_CGC_V2 :
					 v1_ctrl(de->d_name);
		(*n)++;
	}
	closedir(d);
	/* readdir order is the filesystem's: sort by name for a stable order, v2 last */
	for (int i = 1; i < *n; i++)
		for (int j = i; j > 0; j--) {
			bool a2 = h[j - 1].ctrl & PTK_CGC_V2, b2 = h[j].ctrl & PTK_CGC_V2;
			if (a2 < b2 || (a2 == b2 && strcmp(h[j - 1].rel, h[j].rel) <= 0))
				break;
			struct hier t = h[j];
			h[j] = h[j - 1];
			h[j - 1] = t;
		}
	if (!*n)
		return PTK_CG_NONE;
	return v2 ? (*n > 1 ? PTK_CG_HYBRID : PTK_CG_V2) : PTK_CG_V1;
}

enum ptk_cg_layout ptk_cg_layout(const struct ptk_src *src)
{
	struct hier h[16];
	int n, err;

	return hierarchies(src, h, ARRAY_SIZE(h), &n, &err);
}

/* ---- parsers ---------------------------------------------------------------------------- */

/* A value file: a number, or "max" (v2) / "-1" (v1 cfs_quota_us) for no limit. v1 memory
 * limits of 2^62 and above are the page counter's "unlimited". 0 or -EINVAL. */
static int parse_limit(const char *t, u64 *out)
{
	const char *end;

	while (*t == ' ')
		t++;
	if (!strncmp(t, "max", 3) || !strncmp(t, "-1", 2)) {
		*out = PTK_CG_MAX;
		return 0;
	}
	*out = ptk_strtou64(t, &end);
	if (end == t)
		return -EINVAL;
	if (*out >= (1ull << 62))
		*out = PTK_CG_MAX;
	return 0;
}

struct keymap {
	const char *key;
	enum ptk_cg_val v;
	u64 mul; /* 0: 1 */
};

/* "key value" lines into c->v[] by map; keys not in the map are ignored. */
static void parse_keyed(struct ptk_cgroup *c, const char *t, const struct keymap *map, int n)
{
	const char *p = t;

	while (*p) {
		size_t kl = strcspn(p, " \n");
		if (p[kl] == ' ') {
			for (int k = 0; k < n; k++) {
				const char *end;
				u64 x;
				if (strlen(map[k].key) != kl || strncmp(p, map[k].key, kl))
					continue;
				x = ptk_strtou64(p + kl + 1, &end);
				if (end != p + kl + 1) {
					c->v[map[k].v] = x * (map[k].mul ? map[k].mul : 1);
					c->has |= VBIT(map[k].v);
				}
				break;
			}
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
}

/* "MAJ:MIN" at p: 0 with *end after it, or -EINVAL. */
static int parse_devno(const char *p, unsigned *maj, unsigned *min, const char **end)
{
	const char *q;
	u64 a = ptk_strtou64(p, &q), b;

	if (q == p || *q != ':')
		return -EINVAL;
	p = q + 1;
	b = ptk_strtou64(p, &q);
	if (q == p || a > UINT32_MAX || b > UINT32_MAX)
		return -EINVAL;
	*maj = a;
	*min = b;
	*end = q;
	return 0;
}

static struct ptk_cg_io *io_dev(struct ptk_cgroup *c, unsigned major, unsigned minor)
{
	for (int i = 0; i < c->nio; i++)
		if (c->io[i].major == major && c->io[i].minor == minor)
			return &c->io[i];
	c->io = xrealloc(c->io, (c->nio + 1) * sizeof(*c->io));
	struct ptk_cg_io *d = &c->io[c->nio++];
	memset(d, 0, sizeof(*d));
	d->major = major;
	d->minor = minor;
	return d;
}

/* v2 io.stat: "MAJ:MIN rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N" per device
 * (block/blk-cgroup.c blkcg_print_one_stat). */
static void parse_io_stat(struct ptk_cgroup *c, const char *t)
{
	const char *p = t;

	while (*p) {
		unsigned maj, min;
		const char *q;
		if (!parse_devno(p, &maj, &min, &q)) {
			struct ptk_cg_io *d = io_dev(c, maj, min);
			const char *eol = strchr(q, '\n');
			if (!eol)
				eol = q + strlen(q);
			while (q < eol) {
				const char *tok, *end;
				size_t l;
				if (!(q = ptk_next_tok(q, &tok, &l)) || tok >= eol)
					break;
				const char *eq = memchr(tok, '=', l);
				if (!eq)
					continue;
				u64 x = ptk_strtou64(eq + 1, &end);
				if (end == eq + 1)
					continue;
				size_t kl = eq - tok;
				if (kl == 6 && !strncmp(tok, "rbytes", 6))
					d->rbytes = x;
				else if (kl == 6 && !strncmp(tok, "wbytes", 6))
					d->wbytes = x;
				else if (kl == 4 && !strncmp(tok, "rios", 4))
					d->rios = x;
				else if (kl == 4 && !strncmp(tok, "wios", 4))
					d->wios = x;
			}
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	c->has_io = true;
}

/* v1 blkio.throttle.io_service_bytes(_recursive) or io_serviced: "MAJ:MIN Read N" lines
 * (Read, Write, Sync, Async, Discard, Total) and a final "Total N" (block/blk-cgroup-rwstat.c
 * __blkg_prfill_rwstat). bytes: which file. */
static void parse_blkio(struct ptk_cgroup *c, const char *t, bool bytes)
{
	const char *p = t;

	while (*p) {
		unsigned maj, min;
		const char *q, *end = NULL;
		if (!parse_devno(p, &maj, &min, &q) && *q == ' ') {
			bool rd = !strncmp(q + 1, "Read ", 5), wr = !strncmp(q + 1, "Write ", 6);
			const char *num = q + (rd ? 6 : 7);
			u64 x = rd || wr ? ptk_strtou64(num, &end) : 0;
			if ((rd || wr) && end != num) {
				struct ptk_cg_io *d = io_dev(c, maj, min);
				u64 *dst = bytes ? (rd ? &d->rbytes : &d->wbytes) :
						   (rd ? &d->rios : &d->wios);
				*dst = x;
			}
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	c->has_io = true;
}

/* ---- reading one cgroup ------------------------------------------------------------------- */

/* ---- fds held across reads (struct ptk_cg_keep) ------------------------------------------ */

#define KEEP_NFILES 40 /* >= ARRAY_SIZE(cg_files) */
#define FD_ABSENT -2 /* the file is not there (ENOENT) while the controllers stay the same */

/* One cgroup directory of one hierarchy: its fd and its files' fds, -1 when not held. */
struct kent {
	char path[256];
	int hier; /* index in ptk_cg_keep.hier */
	u64 ino; /* the directory's inode when first seen: another one is another cgroup */
	unsigned ctlsum; /* v2: a hash of its controllers when files were found absent */
	unsigned gen; /* the read that last saw it */
	int dirfd;
	int fd[KEEP_NFILES]; /* by cg_files index */
};

struct ptk_cg_keep {
	struct kent *e;
	int n, cap;
	int *slot; /* hash of (hier, path): entry index + 1, 0 empty */
	unsigned nslot; /* a power of 2, at least 2n */
	char hier[16][64]; /* hierarchies by their rel */
	int nhier;
	unsigned gen;
	int held, max_held;
};

struct ptk_cg_keep *ptk_cg_keep_new(void)
{
	struct ptk_cg_keep *k = xcalloc(1, sizeof(*k));
	u64 nofile = ptk_nofile_raise();

	/* three quarters of the limit, the rest for everything else the process opens (the
	 * process table's kept fds, connections) */
	if (nofile > 1024)
		k->max_held = (int)MIN(nofile / 4 * 3 - 256, 1u << 22);
	return k;
}

static void kent_close(struct ptk_cg_keep *k, struct kent *e)
{
	if (e->dirfd >= 0) {
		close(e->dirfd);
		k->held--;
	}
	e->dirfd = -1;
	for (int i = 0; i < KEEP_NFILES; i++) {
		if (e->fd[i] >= 0) {
			close(e->fd[i]);
			k->held--;
		}
		e->fd[i] = -1;
	}
}

void ptk_cg_keep_free(struct ptk_cg_keep *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->n; i++)
		kent_close(k, &k->e[i]);
	free(k->e);
	free(k->slot);
	free(k);
}

int ptk_cg_keep_count(const struct ptk_cg_keep *k)
{
	return k ? k->held : 0;
}

static unsigned kent_hash(int hier, const char *path)
{
	unsigned h = 2166136261u ^ (unsigned)hier;

	for (const char *p = path; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static void keep_rehash(struct ptk_cg_keep *k)
{
	unsigned want = 64;

	while (want < 2u * (unsigned)k->n + 2)
		want *= 2;
	if (want != k->nslot) {
		free(k->slot);
		k->slot = xmalloc(want * sizeof(*k->slot));
		k->nslot = want;
	}
	memset(k->slot, 0, k->nslot * sizeof(*k->slot));
	for (int i = 0; i < k->n; i++) {
		unsigned h = kent_hash(k->e[i].hier, k->e[i].path) & (k->nslot - 1);
		while (k->slot[h])
			h = (h + 1) & (k->nslot - 1);
		k->slot[h] = i + 1;
	}
}

/* The entry of (hier, path) for this read, new or reset when its inode changed (the
 * cgroup was removed and made again). Returns its index. */
static int kent_get(struct ptk_cg_keep *k, int hier, const char *path, u64 ino)
{
	unsigned h = kent_hash(hier, path) & (k->nslot - 1);
	struct kent *e;

	for (; k->slot[h]; h = (h + 1) & (k->nslot - 1)) {
		e = &k->e[k->slot[h] - 1];
		if (e->hier != hier || strcmp(e->path, path))
			continue;
		if (e->ino != ino) {
			kent_close(k, e);
			e->ino = ino;
			e->ctlsum = 0;
		}
		e->gen = k->gen;
		return k->slot[h] - 1;
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 256;
		k->e = xrealloc(k->e, k->cap * sizeof(*k->e));
	}
	e = &k->e[k->n];
	memset(e, 0, sizeof(*e));
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->hier = hier;
	e->ino = ino;
	e->gen = k->gen;
	e->dirfd = -1;
	for (int i = 0; i < KEEP_NFILES; i++)
		e->fd[i] = -1;
	k->slot[h] = ++k->n;
	if (2u * (unsigned)k->n + 2 > k->nslot)
		keep_rehash(k);
	return k->n - 1;
}

/* The start of a read: a new generation, the hash ready. */
static void keep_begin(struct ptk_cg_keep *k)
{
	k->gen++;
	if (!k->nslot)
		keep_rehash(k);
}

/* The end of a read: close what it did not see (removed cgroups). */
static void keep_end(struct ptk_cg_keep *k)
{
	int out = 0;

	for (int i = 0; i < k->n; i++) {
		if (k->e[i].gen != k->gen) {
			kent_close(k, &k->e[i]);
			continue;
		}
		if (out != i)
			k->e[out] = k->e[i];
		out++;
	}
	if (out != k->n) {
		k->n = out;
		keep_rehash(k);
	}
}

/* The index of hierarchy rel in k (added when new). */
static int keep_hier(struct ptk_cg_keep *k, const char *rel)
{
	for (int i = 0; i < k->nhier; i++)
		if (!strcmp(k->hier[i], rel))
			return i;
	if (k->nhier == (int)ARRAY_SIZE(k->hier) || strlen(rel) >= sizeof(k->hier[0]))
		return -1;
	memcpy(k->hier[k->nhier], rel, strlen(rel) + 1);
	return k->nhier++;
}

struct walk {
	const struct ptk_src *src;
	struct ptk_cgsnap *s;
	const struct hier *h;
	int hidx;
	int max_depth;
	char *buf;
	size_t bufsz;
	long hz;
	u64 want; /* PTK_CGW_* */
	struct {
		const struct cg_file *f;
		int idx; /* in cg_files */
		u64 gives; /* PTK_CGW_* */
	} plan[KEEP_NFILES]; /* the files of this hierarchy that give a wanted value */
	int nplan;
	struct ptk_cg_keep *keep; /* NULL: open and close every file */
	int khier; /* this hierarchy in keep */
	int ndone; /* s->cg[0..ndone): the earlier hierarchies' cgroups, merged, by path */
	bool nlink_ok; /* a cgroup filesystem: a directory's link count is 2 + its subdirs */
	const char *leaf; /* non-NULL: read_at reads LEAF/NAME under the fd it is given (a leaf
			   * cgroup read without opening its directory) */
	/* capture */
	const char *dst; /* non-NULL: copy files to dst/sys/<h->rel>/<path>/ */
	int *nfiles;
	int err;
};

/* Read the open file fd from its start into w->buf (pread: a held cgroup file gives its
 * current text again, kernfs seq files regenerate at offset 0). Bytes, or -errno. */
static ssize_t read_fd(struct walk *w, int fd)
{
	ssize_t n, off = 0;

	for (;;) {
		n = pread(fd, w->buf + off, w->bufsz - 1 - off, off);
		if (n < 0) {
			n = -errno;
			break;
		}
		off += n;
		if (n == 0 || (size_t)off < w->bufsz - 1)
			break;
		/* a full buffer: there may be more (io.stat with many devices) */
		w->bufsz *= 2;
		w->buf = xrealloc(w->buf, w->bufsz);
	}
	if (n < 0)
		return n;
	w->buf[off] = '\0';
	return off;
}

/* Read name in the directory dfd into w->buf. Bytes, or -errno. */
static ssize_t read_at(struct walk *w, int dfd, const char *name)
{
	char rel[512];
	ssize_t n;

	if (w->leaf && (size_t)snprintf(rel, sizeof(rel), "%s/%s", w->leaf, name) < sizeof(rel))
		name = rel;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read_fd(w, fd);
	close(fd);
	return n;
}

static const struct keymap v2_cpu_stat[] = {
	{ "usage_usec", PTK_CGV_CPU_USAGE_NS, 1000 },
	{ "user_usec", PTK_CGV_CPU_USER_NS, 1000 },
	{ "system_usec", PTK_CGV_CPU_SYSTEM_NS, 1000 },
	{ "nr_periods", PTK_CGV_CPU_PERIODS, 0 },
	{ "nr_throttled", PTK_CGV_CPU_THROTTLED, 0 },
	{ "throttled_usec", PTK_CGV_CPU_THROTTLED_NS, 1000 },
};
static const struct keymap v1_cpu_stat[] = {
	{ "nr_periods", PTK_CGV_CPU_PERIODS, 0 },
	{ "nr_throttled", PTK_CGV_CPU_THROTTLED, 0 },
	{ "throttled_time", PTK_CGV_CPU_THROTTLED_NS, 0 },
};
static const struct keymap v2_mem_events[] = {
	{ "low", PTK_CGV_MEM_EV_LOW, 0 },	    { "high", PTK_CGV_MEM_EV_HIGH, 0 },
	{ "max", PTK_CGV_MEM_EV_MAX, 0 },	    { "oom", PTK_CGV_MEM_EV_OOM, 0 },
	{ "oom_kill", PTK_CGV_MEM_EV_OOM_KILL, 0 },
};
static const struct keymap v2_mem_stat[] = {
	{ "anon", PTK_CGV_MEM_ANON, 0 },
	{ "file", PTK_CGV_MEM_FILE, 0 },
	{ "inactive_file", PTK_CGV_MEM_INACTIVE_FILE, 0 },
	{ "active_file", PTK_CGV_MEM_ACTIVE_FILE, 0 },
	{ "pgfault", PTK_CGV_MEM_PGFAULT, 0 },
	{ "pgmajfault", PTK_CGV_MEM_PGMAJFAULT, 0 },
};
/* v1 memory.stat: the total_* lines count the cgroup and its descendants, as v2 does */
static const struct keymap v1_mem_stat[] = {
	{ "total_rss", PTK_CGV_MEM_ANON, 0 },
	{ "total_cache", PTK_CGV_MEM_FILE, 0 },
	{ "total_inactive_file", PTK_CGV_MEM_INACTIVE_FILE, 0 },
	{ "total_active_file", PTK_CGV_MEM_ACTIVE_FILE, 0 },
	{ "total_swap", PTK_CGV_MEM_SWAP, 0 },
	{ "total_pgfault", PTK_CGV_MEM_PGFAULT, 0 },
	{ "total_pgmajfault", PTK_CGV_MEM_PGMAJFAULT, 0 },
};
static const struct keymap v1_oom_control[] = {
	{ "oom_kill", PTK_CGV_MEM_EV_OOM_KILL, 0 },
};

enum file_kind {
	FK_KEYED, /* map */
	FK_VALUE, /* one number into v */
	FK_LIMIT, /* a number or max into v */
	FK_CPU_MAX, /* "QUOTA PERIOD" */
	FK_CPUACCT_STAT, /* user/system in USER_HZ ticks */
	FK_IO_STAT,
	FK_BLKIO_BYTES,
	FK_BLKIO_IOS,
	FK_PSI, /* psi */
	FK_PROCS, /* cgroup.procs: copied, not parsed here */
};

/* The files of a hierarchy kind: ctrl = the bit a hierarchy needs for the file; v2 = a v2
 * file name (v2 hierarchies) or a v1 one; v2ctl = the cgroup.controllers word a v2 cgroup
 * needs for it ("" = always there). */
static const struct cg_file {
	unsigned ctrl;
	bool v2;
	const char *v2ctl;
	const char *name;
	enum file_kind kind;
	int v; /* enum ptk_cg_val, or enum ptk_psi_res for FK_PSI */
	const struct keymap *map;
	int nmap;
} cg_files[] = {
#define KEYED(m) FK_KEYED, 0, m, ARRAY_SIZE(m)
	/* v2 (kernel/cgroup/rstat.c cgroup_base_stat_cputime_show, kernel/sched/core.c
	 * cpu_extra_stat_show, mm/memcontrol.c, block/blk-cgroup.c, kernel/cgroup/pids.c,
	 * kernel/sched/psi.c) */
	{ PTK_CGC_CPU, true, "", "cpu.stat", KEYED(v2_cpu_stat) },
	{ PTK_CGC_CPU, true, "cpu", "cpu.max", FK_CPU_MAX, PTK_CGV_CPU_QUOTA_US },
	{ PTK_CGC_MEMORY, true, "memory", "memory.current", FK_VALUE, PTK_CGV_MEM_CURRENT },
	{ PTK_CGC_MEMORY, true, "memory", "memory.max", FK_LIMIT, PTK_CGV_MEM_MAX },
	{ PTK_CGC_MEMORY, true, "memory", "memory.high", FK_LIMIT, PTK_CGV_MEM_HIGH },
	{ PTK_CGC_MEMORY, true, "memory", "memory.low", FK_LIMIT, PTK_CGV_MEM_LOW },
	{ PTK_CGC_MEMORY, true, "memory", "memory.peak", FK_VALUE, PTK_CGV_MEM_PEAK },
	{ PTK_CGC_MEMORY, true, "memory", "memory.events", KEYED(v2_mem_events) },
	{ PTK_CGC_MEMORY, true, "memory", "memory.stat", KEYED(v2_mem_stat) },
	{ PTK_CGC_MEMORY, true, "memory", "memory.swap.current", FK_VALUE, PTK_CGV_MEM_SWAP },
	{ PTK_CGC_IO, true, "io", "io.stat", FK_IO_STAT },
	{ PTK_CGC_PIDS, true, "pids", "pids.current", FK_VALUE, PTK_CGV_PIDS_CURRENT },
	{ PTK_CGC_PIDS, true, "pids", "pids.max", FK_LIMIT, PTK_CGV_PIDS_MAX },
	{ PTK_CGC_V2, true, "", "cpu.pressure", FK_PSI, PTK_PSI_CPU },
	{ PTK_CGC_V2, true, "", "memory.pressure", FK_PSI, PTK_PSI_MEMORY },
	{ PTK_CGC_V2, true, "", "io.pressure", FK_PSI, PTK_PSI_IO },
	/* v1 (kernel/sched/cpuacct.c, kernel/sched/core.c cpu_cfs_stat_show, mm/memcontrol-v1.c,
	 * block/blk-throttle.c, kernel/cgroup/pids.c) */
	{ PTK_CGC_CPUACCT, false, "", "cpuacct.usage", FK_VALUE, PTK_CGV_CPU_USAGE_NS },
	{ PTK_CGC_CPUACCT, false, "", "cpuacct.stat", FK_CPUACCT_STAT },
	{ PTK_CGC_CPU, false, "", "cpu.stat", KEYED(v1_cpu_stat) },
	{ PTK_CGC_CPU, false, "", "cpu.cfs_quota_us", FK_LIMIT, PTK_CGV_CPU_QUOTA_US },
	{ PTK_CGC_CPU, false, "", "cpu.cfs_period_us", FK_VALUE, PTK_CGV_CPU_PERIOD_US },
	{ PTK_CGC_MEMORY, false, "", "memory.usage_in_bytes", FK_VALUE, PTK_CGV_MEM_CURRENT },
	{ PTK_CGC_MEMORY, false, "", "memory.limit_in_bytes", FK_LIMIT, PTK_CGV_MEM_MAX },
	{ PTK_CGC_MEMORY, false, "", "memory.soft_limit_in_bytes", FK_LIMIT, PTK_CGV_MEM_LOW },
	{ PTK_CGC_MEMORY, false, "", "memory.max_usage_in_bytes", FK_VALUE, PTK_CGV_MEM_PEAK },
	{ PTK_CGC_MEMORY, false, "", "memory.failcnt", FK_VALUE, PTK_CGV_MEM_EV_MAX },
	{ PTK_CGC_MEMORY, false, "", "memory.oom_control", KEYED(v1_oom_control) },
	{ PTK_CGC_MEMORY, false, "", "memory.stat", KEYED(v1_mem_stat) },
	{ PTK_CGC_IO, false, "", "blkio.throttle.io_service_bytes_recursive", FK_BLKIO_BYTES },
	{ PTK_CGC_IO, false, "", "blkio.throttle.io_serviced_recursive", FK_BLKIO_IOS },
	{ PTK_CGC_PIDS, false, "", "pids.current", FK_VALUE, PTK_CGV_PIDS_CURRENT },
	{ PTK_CGC_PIDS, false, "", "pids.max", FK_LIMIT, PTK_CGV_PIDS_MAX },
#undef KEYED
};
_Static_assert(ARRAY_SIZE(cg_files) <= KEEP_NFILES, "KEEP_NFILES");

/* What a file gives: PTK_CGW_* bits. */
static u64 file_gives(const struct cg_file *f)
{
	u64 g = 0;

	switch (f->kind) {
	case FK_KEYED:
		for (int k = 0; k < f->nmap; k++)
			g |= PTK_CGW(f->map[k].v);
		return g;
	case FK_VALUE:
	case FK_LIMIT:
		return PTK_CGW(f->v);
	case FK_CPU_MAX:
		return PTK_CGW(PTK_CGV_CPU_QUOTA_US) | PTK_CGW(PTK_CGV_CPU_PERIOD_US);
	case FK_CPUACCT_STAT:
		return PTK_CGW(PTK_CGV_CPU_USER_NS) | PTK_CGW(PTK_CGV_CPU_SYSTEM_NS);
	case FK_IO_STAT:
		return PTK_CGW_IO_BYTES | PTK_CGW_IO_IOS;
	case FK_BLKIO_BYTES:
		return PTK_CGW_IO_BYTES;
	case FK_BLKIO_IOS:
		return PTK_CGW_IO_IOS;
	case FK_PSI:
		return PTK_CGW_PSI(f->v);
	case FK_PROCS:
		break;
	}
	return 0;
}

/* What an earlier hierarchy already gave for c: PTK_CGW_* bits. */
static u64 given(const struct ptk_cgroup *c)
{
	u64 g = c->has;

	if (c->has_io)
		g |= PTK_CGW_IO_BYTES | PTK_CGW_IO_IOS;
	for (int k = 0; k < PTK_PSI_NRES; k++)
		if (c->has_psi[k])
			g |= PTK_CGW_PSI(k);
	return g;
}

static int cmp_path(const void *key, const void *y)
{
	return strcmp(key, ((const struct ptk_cgroup *)y)->path);
}

/* Does the v2 cgroup.controllers text ctl list word? */
static bool has_word(const char *ctl, const char *word)
{
	size_t l = strlen(word);

	for (const char *p = strstr(ctl, word); p; p = strstr(p + 1, word))
		if ((p == ctl || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\n' || !p[l]))
			return true;
	return false;
}

static void set_v(struct ptk_cgroup *c, int v, u64 x)
{
	c->v[v] = x;
	c->has |= VBIT(v);
}

static void parse_file(struct walk *w, struct ptk_cgroup *c, const struct cg_file *f, const char *t)
{
	u64 x;

	switch (f->kind) {
	case FK_KEYED:
		parse_keyed(c, t, f->map, f->nmap);
		break;
	case FK_VALUE: {
		const char *end;
		x = ptk_strtou64(t, &end);
		if (end != t)
			set_v(c, f->v, x);
		break;
	}
	case FK_LIMIT:
		if (!parse_limit(t, &x))
			set_v(c, f->v, x);
		break;
	case FK_CPU_MAX: {
		const char *end;
		if (!parse_limit(t, &x))
			set_v(c, PTK_CGV_CPU_QUOTA_US, x);
		t += strcspn(t, " ");
		x = ptk_strtou64(t, &end);
		if (end != t)
			set_v(c, PTK_CGV_CPU_PERIOD_US, x);
		break;
	}
	case FK_CPUACCT_STAT: {
		static const struct keymap m[] = { { "user", PTK_CGV_CPU_USER_NS, 0 },
						   { "system", PTK_CGV_CPU_SYSTEM_NS, 0 } };
		parse_keyed(c, t, m, ARRAY_SIZE(m));
		/* USER_HZ ticks (kernel/sched/cpuacct.c cpuacct_stats_show) */
		for (int k = 0; k < 2; k++)
			if (ptk_cg_has(c, m[k].v))
				c->v[m[k].v] = c->v[m[k].v] * (1000000000ull / w->hz);
		break;
	}
	case FK_IO_STAT:
		parse_io_stat(c, t);
		break;
	case FK_BLKIO_BYTES:
	case FK_BLKIO_IOS:
		parse_blkio(c, t, f->kind == FK_BLKIO_BYTES);
		break;
	case FK_PSI:
		if (!ptk_psi_parse(t, &c->psi[f->v]))
			c->has_psi[f->v] = true;
		break;
	case FK_PROCS:
		break;
	}
}

static struct ptk_cgroup *cg_add(struct ptk_cgsnap *s)
{
	if (s->n == s->cap) {
		int old = s->cap;
		s->cap = s->cap ? s->cap * 2 : 64;
		s->cg = xrealloc(s->cg, s->cap * sizeof(*s->cg));
		memset(s->cg + old, 0, (s->cap - old) * sizeof(*s->cg));
	}
	struct ptk_cgroup *c = &s->cg[s->n++];
	free(c->io);
	memset(c, 0, sizeof(*c));
	return c;
}

/* Copy name of the directory dfd to w->dst/sys/<hier>/<path>/name. */
static void copy_one(struct walk *w, int dfd, const char *path, const char *name)
{
	char out[PATH_MAX];
	ssize_t n = read_at(w, dfd, name);
	int r;

	if (n < 0)
		return;
	r = snprintf(out, sizeof(out), "%s/sys/%s%s/%s", w->dst, w->h->rel,
		     strcmp(path, "/") ? path : "", name);
	if (r < 0 || (size_t)r >= sizeof(out))
		return;
	r = ptk_write_file(out, w->buf, n);
	if (r == -ENOENT) {
		char *slash = strrchr(out, '/');
		*slash = '\0';
		if (ptk_mkdir_p(out, 0755))
			return;
		*slash = '/';
		r = ptk_write_file(out, w->buf, n);
	}
	if (!r && w->nfiles)
		(*w->nfiles)++;
}

/* Read file idx of cg_files (name) of the cgroup directory dfd into w->buf: from its held
 * fd in entry ke of w->keep, else opened (and held when the budget allows). Bytes or -errno.
 * ke < 0: open, read, close. */
static ssize_t read_kept(struct walk *w, int ke, int idx, int dfd, const char *name)
{
	struct ptk_cg_keep *k = w->keep;
	struct kent *e;
	ssize_t n;
	int fd;

	if (ke < 0)
		return read_at(w, dfd, name);
	e = &k->e[ke];
	if (e->fd[idx] == FD_ABSENT)
		return -ENOENT;
	if (e->fd[idx] >= 0) {
		n = read_fd(w, e->fd[idx]);
		if (n >= 0)
			return n;
		/* -ENODEV: removed under us; open it again */
		close(e->fd[idx]);
		e->fd[idx] = -1;
		k->held--;
	}
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		n = -errno;
		if (n == -ENOENT)
			e->fd[idx] = FD_ABSENT;
		return n;
	}
	n = read_fd(w, fd);
	if (n >= 0 && k->held < k->max_held) {
		e->fd[idx] = fd;
		k->held++;
	} else {
		close(fd);
	}
	return n;
}

/* The files of one cgroup directory (entry ke of w->keep, or -1). ctl: its v2 controllers
 * (its parent's cgroup.subtree_control, the root's cgroup.controllers). */
static void visit(struct walk *w, int dfd, const char *path, int depth, const char *ctl, int ke)
{
	bool v2 = w->h->ctrl & PTK_CGC_V2;
	struct ptk_cgroup *c = NULL;
	u64 want = w->want;

	if (w->dst) {
		copy_one(w, dfd, path, "cgroup.procs");
		if (v2)
			copy_one(w, dfd, path, "cgroup.controllers");
	} else {
		if (w->s->n >= PTK_CG_MAX_GROUPS)
			return;
		c = cg_add(w->s);
		memcpy(c->path, path, strlen(path) + 1); /* below 256: walk_dir's bound */
		c->ctrl = w->h->ctrl;
		c->depth = depth;
		c->parent = w->hidx; /* the hierarchy, until the merge sets the parent */
		const struct ptk_cgroup *e =
			w->ndone ? bsearch(path, w->s->cg, w->ndone, sizeof(*c), cmp_path) : NULL;
		if (e)
			want &= ~given(e);
	}
	if (ke >= 0 && v2) {
		/* a file found absent may come with a controller enabled since */
		struct kent *k = &w->keep->e[ke];
		unsigned sum = kent_hash(0, ctl);
		if (k->ctlsum != sum)
			for (int i = 0; i < KEEP_NFILES; i++)
				if (k->fd[i] == FD_ABSENT)
					k->fd[i] = -1;
		k->ctlsum = sum;
	}
	for (int k = 0; k < w->nplan; k++) {
		const struct cg_file *f = w->plan[k].f;
		if (v2 && f->v2ctl[0] && !has_word(ctl, f->v2ctl))
			continue; /* the controller is not enabled for this cgroup */
		if (c && !(w->plan[k].gives & want))
			continue;
		/* the period matters only under a quota */
		if (c && f->kind == FK_VALUE && f->v == PTK_CGV_CPU_PERIOD_US &&
		    ptk_cg_has(c, PTK_CGV_CPU_QUOTA_US) && c->v[PTK_CGV_CPU_QUOTA_US] == PTK_CG_MAX)
			continue;
		if (w->dst) {
			copy_one(w, dfd, path, f->name);
			continue;
		}
		if (read_kept(w, ke, w->plan[k].idx, dfd, f->name) < 0)
			continue;
		parse_file(w, c, f, w->buf);
	}
}

struct linux_dirent64 {
	u64 d_ino;
	s64 d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Does the v2 controllers text ctl name one that the reader reads files of? */
static bool any_ctl(const char *ctl)
{
	return has_word(ctl, "cpu") || has_word(ctl, "memory") || has_word(ctl, "io") ||
	       has_word(ctl, "pids");
}

/*
 * Is the subdirectory de of dfd, at depth, a cgroup the walk reads without going into it (a
 * leaf, or at the depth limit)? Only for a one-off read of a cgroup filesystem: a kept
 * walk holds each directory open, a capture copies from it, and elsewhere the link count
 * says nothing.
 */
static bool leaf_at(const struct walk *w, int dfd, const struct linux_dirent64 *de, int depth)
{
	struct stat st;

	if (w->keep || w->dst || !w->nlink_ok || de->d_type != DT_DIR)
		return false;
	if (w->max_depth >= 0 && depth >= w->max_depth)
		return true;
	return !fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
	       st.st_nlink == 2;
}

/*
 * A cgroup directory and its subdirectories, depth first. The directory fd is read with
 * getdents64 itself (no DIR stream: that costs a dup, an fcntl and an fstat per cgroup). On
 * a cgroup filesystem a directory's link count is 2 + its subdirectories (fs/kernfs/inode.c
 * kernfs_refresh_inode): a leaf is not listed at all, and the listing of another stops at
 * its last subdirectory. Listing costs more than reading a file: a cgroup has 20 to 90.
 */
static void walk_dir(struct walk *w, int dfd, char *path, size_t plen, int depth, const char *ctl,
		     int ke)
{
	char kidctl[512] = "";
	char dents[8192];
	long n, kids = -1, found = 0;

	visit(w, dfd, plen ? path : "/", depth, ctl, ke);
	if (w->max_depth >= 0 && depth >= w->max_depth)
		return;
	if (w->nlink_ok) {
		struct stat st;
		if (!fstat(dfd, &st) && st.st_nlink >= 2)
			kids = st.st_nlink - 2;
		if (!kids)
			return;
	}
	if (w->h->ctrl & PTK_CGC_V2) {
		/* what this cgroup enables for its children (a subset of its own) */
		if ((w->dst || any_ctl(ctl)) && read_at(w, dfd, "cgroup.subtree_control") >= 0)
			snprintf(kidctl, sizeof(kidctl), "%s", w->buf);
		if (w->dst)
			copy_one(w, dfd, plen ? path : "/", "cgroup.subtree_control");
	}
	if (ke >= 0 && lseek(dfd, 0, SEEK_SET) < 0)
		return; /* a held directory fd: list it from the start */
	while (found != kids && (n = syscall(SYS_getdents64, dfd, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < n && found != kids;) {
			struct linux_dirent64 *de = (struct linux_dirent64 *)(dents + off);
			size_t l = strlen(de->d_name);
			int sub;
			off += de->d_reclen;
			if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
				continue;
			if (de->d_type == DT_DIR && strcmp(de->d_name, ".") &&
			    strcmp(de->d_name, ".."))
				found++;
			if (de->d_name[0] == '.')
				continue;
			if (plen + 1 + l >= 256)
				continue; /* deeper than a path we keep */
			path[plen] = '/';
			memcpy(path + plen + 1, de->d_name, l + 1);
			if (leaf_at(w, dfd, de, depth + 1)) {
				/* its files as NAME/FILE: no open, fstat and close of the directory */
				w->leaf = de->d_name;
				visit(w, dfd, path, depth + 1, kidctl, -1);
				w->leaf = NULL;
				path[plen] = '\0';
				continue;
			}
			int ce = w->keep ? kent_get(w->keep, w->khier, path, de->d_ino) : -1;
			bool held = ce >= 0 && w->keep->e[ce].dirfd >= 0;
			sub = held ? w->keep->e[ce].dirfd :
				     openat(dfd, de->d_name,
					    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
			if (sub >= 0 && !held && ce >= 0 && w->keep->held < w->keep->max_held) {
				w->keep->e[ce].dirfd = sub;
				w->keep->held++;
				held = true;
			}
			if (sub >= 0)
				walk_dir(w, sub, path, plen + 1 + l, depth + 1, kidctl, ce);
			path[plen] = '\0';
			if (sub >= 0 && !held)
				close(sub);
		}
	}
}

static int walk_hier(struct walk *w)
{
	char root[PATH_MAX], path[256] = "";
	int fd;

	if (ptk_src_path(w->src, PTK_SYS, w->h->rel + 0, root, sizeof(root)))
		return -ENAMETOOLONG;
	/* the source path of "fs/cgroup/X" */
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char ctl[512] = "";
	struct statfs sf;
	w->nplan = 0;
	for (size_t k = 0; k < ARRAY_SIZE(cg_files) && w->nplan < (int)ARRAY_SIZE(w->plan); k++) {
		const struct cg_file *f = &cg_files[k];
		u64 g = file_gives(f);
		if (f->v2 != !!(w->h->ctrl & PTK_CGC_V2) || !(w->h->ctrl & f->ctrl) ||
		    (!w->dst && !(g & w->want)))
			continue;
		w->plan[w->nplan].f = f;
		w->plan[w->nplan].idx = (int)k;
		w->plan[w->nplan++].gives = w->dst ? PTK_CGW_ALL : g;
	}
	w->nlink_ok = !fstatfs(fd, &sf) &&
		      (sf.f_type == CGROUP_SUPER_MAGIC || sf.f_type == CGROUP2_SUPER_MAGIC);
	if (w->h->ctrl & PTK_CGC_V2 && read_at(w, fd, "cgroup.controllers") >= 0)
		snprintf(ctl, sizeof(ctl), "%s", w->buf);
	walk_dir(w, fd, path, 0, 0, ctl, w->keep ? kent_get(w->keep, w->khier, "/", 0) : -1);
	close(fd);
	return 0;
}

/* ---- the merge ----------------------------------------------------------------------------- */

static int cmp_rec(const void *x, const void *y)
{
	const struct ptk_cgroup *a = x, *b = y;
	int r = strcmp(a->path, b->path);

	/* the same path: in hierarchy order (v1 first, their values win) */
	return r ? r : a->parent - b->parent;
}

/* Fold each run of records of one path into its first. */
static void merge(struct ptk_cgsnap *s, bool parents)
{
	int out = 0;

	if (s->n > 1)
		qsort(s->cg, s->n, sizeof(*s->cg), cmp_rec);
	for (int i = 0; i < s->n; i++) {
		struct ptk_cgroup *c = &s->cg[i];
		if (out && !strcmp(s->cg[out - 1].path, c->path)) {
			struct ptk_cgroup *m = &s->cg[out - 1];
			m->ctrl |= c->ctrl;
			for (int v = 0; v < PTK_CGV_N; v++)
				if (!ptk_cg_has(m, v) && ptk_cg_has(c, v)) {
					m->v[v] = c->v[v];
					m->has |= VBIT(v);
				}
			for (int k = 0; k < PTK_PSI_NRES; k++)
				if (!m->has_psi[k] && c->has_psi[k]) {
					m->psi[k] = c->psi[k];
					m->has_psi[k] = true;
				}
			if (!m->has_io && c->has_io) {
				free(m->io);
				m->io = c->io;
				m->nio = c->nio;
				m->has_io = true;
				c->io = NULL;
			}
			free(c->io);
			c->io = NULL;
			continue;
		}
		if (out != i) {
			struct ptk_cgroup *dst = &s->cg[out];
			free(dst->io);
			*dst = *c;
			c->io = NULL;
		}
		out++;
	}
	for (int i = out; i < s->n; i++) {
		free(s->cg[i].io);
		s->cg[i].io = NULL;
	}
	s->n = out;
	if (!parents)
		return;
	/* parents: the longest proper prefix at a '/' */
	for (int i = 0; i < s->n; i++) {
		struct ptk_cgroup *c = &s->cg[i];
		char p[256];
		c->parent = -1;
		if (!strcmp(c->path, "/"))
			continue;
		snprintf(p, sizeof(p), "%s", c->path);
		for (char *slash = strrchr(p, '/'); slash; slash = strrchr(p, '/')) {
			if (slash == p)
				p[1] = '\0';
			else
				*slash = '\0';
			const struct ptk_cgroup *q =
				bsearch(p, s->cg, s->n, sizeof(*s->cg), cmp_path);
			if (q) {
				c->parent = q - s->cg;
				break;
			}
			if (slash == p)
				break;
		}
	}
}

static double now_boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int ptk_cg_read(const struct ptk_src *src, struct ptk_cgsnap *s, int max_depth)
{
	struct hier h[16];
	struct walk w = { .src = src, .s = s, .max_depth = max_depth, .want = s->want };
	bool live = ptk_src_is_live(src) && !src->sysfs_given;
	double t0 = 0;
	int nh, err;

	for (int i = 0; i < s->n; i++) {
		free(s->cg[i].io);
		s->cg[i].io = NULL;
	}
	s->n = 0;
	s->nhier = 0;
	s->layout = hierarchies(src, h, ARRAY_SIZE(h), &nh, &err);
	s->err = err;
	if (err == -ENOENT) {
		s->err = 0; /* nothing mounted: no cgroups, not an error */
		err = 0;
	}
	if (err)
		return err;
	if (live) {
		t0 = now_boottime();
	} else {
		struct ptk_uptime up;
		s->up_s = ptk_uptime_read(src, &up) == 0 ? up.up_s : 0;
	}
	w.hz = sysconf(_SC_CLK_TCK);
	w.bufsz = 16384;
	w.buf = xmalloc(w.bufsz);
	if (!w.want)
		w.want = PTK_CGW_ALL;
	struct ptk_cg_keep *keep = live ? s->keep : NULL;
	if (keep)
		keep_begin(keep);
	for (int i = 0; i < nh; i++) {
		w.h = &h[i];
		w.hidx = i;
		w.khier = keep ? keep_hier(keep, h[i].rel) : -1;
		w.keep = w.khier >= 0 ? keep : NULL;
		if (h[i].ctrl & PTK_CGC_V2 && i && s->n) {
			/* the v1 cgroups by path, so the v2 tree reads only what they lack */
			merge(s, false);
			w.ndone = s->n;
		}
		if (walk_hier(&w) == 0)
			s->nhier++;
	}
	free(w.buf);
	if (keep)
		keep_end(keep);
	if (live)
		s->up_s = (t0 + now_boottime()) / 2; /* the middle of the walk */
	merge(s, true);
	return 0;
}

const struct ptk_cgroup *ptk_cg_find(const struct ptk_cgsnap *s, const char *path)
{
	if (!s->n)
		return NULL;
	return bsearch(path, s->cg, s->n, sizeof(*s->cg), cmp_path);
}

void ptk_cg_copy(struct ptk_cgsnap *dst, const struct ptk_cgsnap *src)
{
	for (int i = 0; i < dst->n; i++) {
		free(dst->cg[i].io);
		dst->cg[i].io = NULL;
	}
	if (src->n > dst->cap) {
		dst->cg = xrealloc(dst->cg, src->n * sizeof(*dst->cg));
		dst->cap = src->n;
	}
	struct ptk_cgroup *cg = dst->cg;
	int cap = dst->cap;
	*dst = *src;
	dst->cg = cg;
	dst->cap = cap;
	for (int i = 0; i < src->n; i++) {
		dst->cg[i] = src->cg[i];
		if (src->cg[i].nio) {
			size_t sz = src->cg[i].nio * sizeof(*src->cg[i].io);
			dst->cg[i].io = xmalloc(sz);
			memcpy(dst->cg[i].io, src->cg[i].io, sz);
		} else {
			dst->cg[i].io = NULL;
		}
	}
}

void ptk_cg_free(struct ptk_cgsnap *s)
{
	for (int i = 0; i < s->cap; i++)
		free(s->cg ? s->cg[i].io : NULL);
	free(s->cg);
	memset(s, 0, sizeof(*s));
}

/* ---- tasks, capture ------------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int ptk_cg_procs(const struct ptk_src *src, const char *path, int **pids, int *n)
{
	struct hier h[16];
	int nh, err, found = 0;

	*n = 0;
	hierarchies(src, h, ARRAY_SIZE(h), &nh, &err);
	if (err)
		return err;
	for (int i = nh - 1; i >= 0; i--) { /* the v2 tree first */
		char rel[PATH_MAX], full[PATH_MAX];
		struct ptk_buf b = { 0 };
		snprintf(rel, sizeof(rel), "%s%s/cgroup.procs", h[i].rel,
			 strcmp(path, "/") ? path : "");
		if (ptk_src_path(src, PTK_SYS, rel, full, sizeof(full)) ||
		    ptk_read_buf_at(AT_FDCWD, full, &b) < 0) {
			ptk_buf_free(&b);
			continue;
		}
		found++;
		for (const char *p = b.p; *p;) {
			const char *end;
			u64 pid = ptk_strtou64(p, &end);
			if (end == p)
				break;
			*pids = xrealloc(*pids, (*n + 1) * sizeof(**pids));
			(*pids)[(*n)++] = (int)pid;
			p = end;
			while (*p == '\n')
				p++;
		}
		ptk_buf_free(&b);
	}
	if (!found)
		return -ENOENT;
	/* a process in several hierarchies is listed once */
	if (*n > 1) {
		int out = 1;
		qsort(*pids, *n, sizeof(**pids), cmp_int);
		for (int i = 1; i < *n; i++)
			if ((*pids)[i] != (*pids)[out - 1])
				(*pids)[out++] = (*pids)[i];
		*n = out;
	}
	return 0;
}

int ptk_cg_capture(const struct ptk_src *src, const char *dir, int *nfiles)
{
	struct hier h[16];
	struct walk w = { .src = src, .max_depth = -1, .dst = dir, .nfiles = nfiles };
	int nh, err;

	hierarchies(src, h, ARRAY_SIZE(h), &nh, &err);
	if (err)
		return err == -ENOENT ? 0 : err;
	w.hz = sysconf(_SC_CLK_TCK);
	w.bufsz = 16384;
	w.buf = xmalloc(w.bufsz);
	for (int i = 0; i < nh; i++) {
		w.h = &h[i];
		walk_hier(&w);
	}
	free(w.buf);
	return 0;
}
