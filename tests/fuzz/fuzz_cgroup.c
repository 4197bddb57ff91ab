// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup files as they arrive: the input is the text of every file of one cgroup "/a",
 * split at \x01 bytes, written into a fresh tree under a scratch sysfs root and read through
 * ptk_cg_read as a live read reads /sys/fs/cgroup. The first byte picks the layout (bit 0:
 * v2 at fs/cgroup, else hybrid: v1 controllers and v2 at fs/cgroup/unified), what is wanted
 * (bit 1: everything, else a view's few values as cgtop's) and a second read through the
 * cache of held files (bit 2: ptk_cgsnap.keep, pread at offset 0). Invariants: the read
 * succeeds with the layout made; cgroups are sorted by path, each path "/"-rooted and
 * terminated, its depth its component count, its parent the cgroup of its dirname and before
 * it; "/a" is there; no device twice in its I/O list; pressure averages finite and in 0..100;
 * the identity of each path terminated. What follows the last file's chunk is a cgroup path
 * given to ptk_cg_identify (container ids, pod UIDs, units: every field terminated, the short
 * name too).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "source/cgroup/cgroup.h"

/* The files of "/a", in the order the input's chunks fill them; dir "" is the v2 hierarchy
 * (fs/cgroup or fs/cgroup/unified). */
static const struct {
	const char *dir, *name;
} files[] = {
	{ "", "cgroup.controllers" },
	{ "", "cpu.stat" },
	{ "", "cpu.max" },
	{ "", "memory.current" },
	{ "", "memory.max" },
	{ "", "memory.high" },
	{ "", "memory.low" },
	{ "", "memory.peak" },
	{ "", "memory.events" },
	{ "", "memory.stat" },
	{ "", "memory.swap.current" },
	{ "", "io.stat" },
	{ "", "pids.current" },
	{ "", "pids.max" },
	{ "", "cpu.pressure" },
	{ "", "memory.pressure" },
	{ "", "io.pressure" },
	{ "cpu,cpuacct", "cpuacct.usage" },
	{ "cpu,cpuacct", "cpuacct.stat" },
	{ "cpu,cpuacct", "cpu.stat" },
	{ "cpu,cpuacct", "cpu.cfs_quota_us" },
	{ "cpu,cpuacct", "cpu.cfs_period_us" },
	{ "memory", "memory.usage_in_bytes" },
	{ "memory", "memory.limit_in_bytes" },
	{ "memory", "memory.soft_limit_in_bytes" },
	{ "memory", "memory.max_usage_in_bytes" },
	{ "memory", "memory.failcnt" },
	{ "memory", "memory.oom_control" },
	{ "memory", "memory.stat" },
	{ "blkio", "blkio.throttle.io_service_bytes_recursive" },
	{ "blkio", "blkio.throttle.io_serviced_recursive" },
	{ "pids", "pids.current" },
	{ "pids", "pids.max" },
};
static const char *const v1_dirs[] = { "cpu,cpuacct", "memory", "blkio", "pids" };

static char root[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static void put(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return;
	if (len && write(fd, text, len) < 0)
		fprintf(stderr, "fuzz_cgroup: write %s: %d\n", path, errno);
	close(fd);
}

/* A hierarchy at fs/cgroup/SUB (SUB "" = fs/cgroup itself) with the cgroup "a" below it;
 * v2 is marked by cgroup.controllers at its root, v1 by cgroup.procs. */
static void hier(const char *sub, bool v2, char *dir, size_t size)
{
	char p[PATH_MAX];

	snprintf(dir, size, "%s/fs/cgroup%s%s", root, *sub ? "/" : "", sub);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/%s", dir, v2 ? "cgroup.controllers" : "cgroup.procs");
	put(p, v2 ? "cpu io memory pids\n" : "", v2 ? 19 : 0);
	snprintf(p, sizeof(p), "%s/a", dir);
	mkdir(p, 0755);
}

static void check_ident(const char *path)
{
	struct ptk_cg_ident id;
	char buf[128];

	ptk_cg_identify(path, &id);
	FUZZ_CHECK(fuzz_terminated(id.runtime, sizeof(id.runtime)));
	FUZZ_CHECK(fuzz_terminated(id.id, sizeof(id.id)));
	FUZZ_CHECK(fuzz_terminated(id.pod_uid, sizeof(id.pod_uid)));
	FUZZ_CHECK(fuzz_terminated(id.qos, sizeof(id.qos)));
	FUZZ_CHECK(fuzz_terminated(id.unit, sizeof(id.unit)));
	ptk_cg_ident_short(&id, buf, sizeof(buf));
	FUZZ_CHECK(fuzz_terminated(buf, sizeof(buf)));
}

static void check_cg(const struct ptk_cgsnap *s, int i)
{
	const struct ptk_cgroup *c = &s->cg[i];
	int depth = 0;

	FUZZ_CHECK(fuzz_terminated(c->path, sizeof(c->path)));
	FUZZ_CHECK(c->path[0] == '/');
	for (const char *p = c->path + 1; *p; p++)
		depth += *p == '/';
	if (c->path[1])
		depth++;
	FUZZ_CHECK(c->depth == depth);
	if (i)
		FUZZ_CHECK(strcmp(s->cg[i - 1].path, c->path) < 0);
	if (c->parent >= 0) {
		const struct ptk_cgroup *p = &s->cg[c->parent];
		size_t n = strlen(p->path);

		FUZZ_CHECK(c->parent < i);
		FUZZ_CHECK(p->depth == c->depth - 1);
		FUZZ_CHECK(!strncmp(p->path, c->path, n) && (n == 1 || c->path[n] == '/'));
	} else {
		FUZZ_CHECK(c->depth == 0);
	}
	FUZZ_CHECK(c->nio >= 0 && (c->nio == 0 || c->io));
	for (int a = 0; a < c->nio; a++)
		for (int b = a + 1; b < c->nio; b++)
			FUZZ_CHECK(c->io[a].major != c->io[b].major ||
				   c->io[a].minor != c->io[b].minor);
	for (int r = 0; r < PTK_PSI_NRES; r++) {
		const struct ptk_psi_line *l[2] = { &c->psi[r].some, &c->psi[r].full };

		if (!c->has_psi[r])
			continue;
		for (int k = 0; k < 2; k++) {
			if (!l[k]->present)
				continue;
			FUZZ_CHECK(isfinite(l[k]->avg10) && l[k]->avg10 >= 0 && l[k]->avg10 <= 100);
			FUZZ_CHECK(isfinite(l[k]->avg60) && l[k]->avg60 >= 0 && l[k]->avg60 <= 100);
			FUZZ_CHECK(isfinite(l[k]->avg300) && l[k]->avg300 >= 0 &&
				   l[k]->avg300 <= 100);
		}
	}
	FUZZ_CHECK(c->has < (1ull << PTK_CGV_N));
	check_ident(c->path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char v2dir[PATH_MAX], d[PATH_MAX], p[PATH_MAX + 64];
	struct ptk_cgsnap s = { 0 };
	struct ptk_cg_keep *keep;
	struct ptk_src src;
	bool pure_v2, found = false;
	size_t at = 1;

	if (!size)
		return 0;
	pure_v2 = data[0] & 1;
	s.want = data[0] & 2 ? PTK_CGW_ALL :
			       PTK_CGW(PTK_CGV_CPU_USAGE_NS) | PTK_CGW(PTK_CGV_MEM_CURRENT) |
				       PTK_CGW(PTK_CGV_CPU_QUOTA_US) | PTK_CGW_PSI(PTK_PSI_CPU) |
				       PTK_CGW_IO_BYTES;
	if (data[0] & 4)
		s.keep = ptk_cg_keep_new();
	snprintf(root, sizeof(root), "/dev/shm/fuzz_cgroup.%d", (int)getpid());
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/fs", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/fs/cgroup", root);
	mkdir(p, 0755);
	hier(pure_v2 ? "" : "unified", true, v2dir, sizeof(v2dir));
	if (!pure_v2)
		for (size_t i = 0; i < ARRAY_SIZE(v1_dirs); i++)
			hier(v1_dirs[i], false, d, sizeof(d));
	for (size_t f = 0; f < ARRAY_SIZE(files) && at <= size; f++) {
		const uint8_t *end = memchr(data + at, 1, size - at);
		size_t len = end ? (size_t)(end - (data + at)) : size - at;

		if (*files[f].dir && pure_v2) { /* no v1 hierarchies: the chunk is unused */
			at += len + 1;
			continue;
		}
		if (*files[f].dir)
			snprintf(d, sizeof(d), "%s/fs/cgroup/%s", root, files[f].dir);
		else
			snprintf(d, sizeof(d), "%s", v2dir);
		snprintf(p, sizeof(p), "%s/a/%s", d, files[f].name);
		put(p, (const char *)data + at, len);
		at += len + 1;
	}
	FUZZ_CHECK(ptk_src_init(&src, "/proc", root) == 0);
	FUZZ_CHECK(ptk_cg_read(&src, &s, -1) == 0);
	if (s.keep) /* the held files read again */
		FUZZ_CHECK(ptk_cg_read(&src, &s, -1) == 0);
	FUZZ_CHECK(s.layout == (pure_v2 ? PTK_CG_V2 : PTK_CG_HYBRID));
	FUZZ_CHECK(s.n >= 1 && s.n <= PTK_CG_MAX_GROUPS);
	for (int i = 0; i < s.n; i++) {
		check_cg(&s, i);
		found |= !strcmp(s.cg[i].path, "/a");
	}
	FUZZ_CHECK(found);
	FUZZ_CHECK(ptk_cg_find(&s, "/a") != NULL);
	keep = s.keep;
	ptk_cg_free(&s);
	ptk_cg_keep_free(keep);
	if (at < size) {
		char *path = fuzz_text(data + at, size - at);

		check_ident(path);
		free(path);
	}
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
