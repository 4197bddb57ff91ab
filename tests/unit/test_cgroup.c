// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup source and model (source/cgroup, model/cgroup) on three layouts replayed from
 * tests/fixtures: cgroup-v2 (hand-made with the file formats of Linux 6.x: a docker scope
 * at 0.2 CPU throttled in 18 of 20 periods, a kubepods container over memory.high, a session
 * with an OOM kill, an I/O-heavy service), cgroup-hybrid (captured on a hybrid machine: v1
 * cpu, cpuacct, memory, blkio, pids and v2 at unified, a burner at a quota of 0.2 CPU with
 * 64 MiB touched) and cgroup-v1 (the same capture as pure v1 with the cpu,cpuacct hierarchy
 * most distributions mount). Each snapshot pair is 2.00 s apart.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/cgroup.h"

#define MiB (1024.0 * 1024.0)
#define DOCKER "3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a"
#define CTR "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d"
#define POD "0f3a6c1e_52b4_4d7e_9a21_7c5e3b8d1f46"
#define PODSLICE "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" POD ".slice"

struct pair {
	struct ptk_src src;
	struct ptk_cgsnap a, b;
	struct ptk_cg_row *rows;
	int n;
};

static void load(struct pair *p, const char *fixture)
{
	char dir[512];

	memset(p, 0, sizeof(*p));
	snprintf(dir, sizeof(dir), "%s/%s", PTK_FIXTURES, fixture);
	assert_int_equal(ptk_src_init(&p->src, dir, NULL), 0);
	assert_true(p->src.replay);
	p->a.want = p->b.want = PTK_CGW_ALL; /* every file, as the exporter reads them */
	assert_int_equal(ptk_cg_read(&p->src, &p->a, -1), 0);
	assert_int_equal(ptk_src_next(&p->src), 0);
	assert_int_equal(ptk_cg_read(&p->src, &p->b, -1), 0);
	p->rows = calloc(p->b.n, sizeof(*p->rows));
	p->n = ptk_cg_rows(&p->a, &p->b, p->rows);
}

static void unload(struct pair *p)
{
	ptk_cg_free(&p->a);
	ptk_cg_free(&p->b);
	free(p->rows);
}

static const struct ptk_cg_row *row(const struct pair *p, const char *path)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->rows[i].cur->path, path))
			return &p->rows[i];
	fail_msg("no cgroup %s", path);
	return NULL;
}

#define near(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

static void test_v2(void **state)
{
	struct pair p;
	const struct ptk_cg_row *r;

	load(&p, "cgroup-v2");
	assert_int_equal(p.b.layout, PTK_CG_V2);
	assert_int_equal(p.n, 13);
	near(p.b.up_s - p.a.up_s, 2.0, 1e-9);
	/* the docker scope: 0.4 s of CPU in 2 s under a quota of 20 ms per 100 ms */
	r = row(&p, "/system.slice/docker-" DOCKER ".scope");
	assert_string_equal(r->ident.runtime, "docker");
	assert_string_equal(r->ident.id, DOCKER);
	near(r->cpu_pct, 20.0, 1e-9);
	near(r->user_pct + r->sys_pct, 20.0, 1e-6);
	near(r->quota_cpus, 0.2, 1e-12);
	near(r->quota_pct, 100.0, 1e-9);
	near(r->periods, 20, 0);
	near(r->throttled, 18, 0);
	near(r->throttled_pct, 90.0, 1e-9);
	near(r->throttled_s, 0.8, 1e-9);
	near(r->psi_some[PTK_PSI_CPU], 80.0, 1e-9);
	near(r->psi_full[PTK_PSI_CPU], 77.5, 1e-9);
	near(r->tasks, 3, 0);
	assert_true(isinf(r->mem_max) && isinf(r->mem_high));
	assert_true(isnan(r->mem_limit_pct));
	/* the kubepods container: working set over memory.high, 150 high events */
	r = row(&p, PODSLICE "/cri-containerd-" CTR ".scope");
	assert_string_equal(r->ident.runtime, "containerd");
	assert_string_equal(r->ident.id, CTR);
	assert_string_equal(r->ident.pod_uid, "0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46");
	assert_string_equal(r->ident.qos, "burstable");
	near(r->mem, 106 * MiB, 0);
	near(r->wset, 103 * MiB, 0);
	near(r->mem_high, 100 * MiB, 0);
	near(r->mem_max, 512 * MiB, 0);
	near(r->mem_limit, 100 * MiB, 0);
	near(r->mem_limit_pct, 103.0, 1e-9);
	near(r->ev_high, 150, 0);
	near(r->ev_max, 0, 0);
	near(r->psi_some[PTK_PSI_MEMORY], 30.0, 1e-9);
	near(r->psi_full[PTK_PSI_MEMORY], 10.0, 1e-9);
	near(r->majflt_s, 2.0, 1e-9);
	/* the session: an OOM kill at memory.max */
	r = row(&p, "/user.slice/user-1000.slice/session-3.scope");
	assert_string_equal(r->ident.unit, "session-3.scope");
	assert_string_equal(r->ident.runtime, "");
	near(r->ev_oom_kill, 1, 0);
	near(r->ev_oom, 1, 0);
	near(r->ev_max, 32, 0);
	near(r->mem_max, 64 * MiB, 0);
	/* the I/O service: 200 MiB read in 2 s over two devices */
	r = row(&p, "/batch.slice/io.service");
	near(r->rbps, 104857600, 1e-6);
	near(r->wbps, 2048, 1e-6);
	near(r->riops, 800, 1e-9);
	near(r->wiops, 0.5, 1e-9);
	near(r->psi_some[PTK_PSI_IO], 50.0, 1e-9);
	assert_int_equal(r->cur->nio, 2);
	/* the root has no limits and no memory.current: unknown, not 0 */
	r = row(&p, "/");
	assert_int_equal(r->cur->parent, -1);
	assert_true(isnan(r->mem) && isnan(r->mem_max) && isnan(r->tasks));
	near(r->cpu_pct, 155.0, 1e-9);
	/* parents by path */
	r = row(&p, "/system.slice/nginx.service");
	assert_string_equal(p.b.cg[r->cur->parent].path, "/system.slice");
	near(r->wset, 181 * MiB, 0);
	unload(&p);
}

/* The v1 controllers: the same capture read from separate cpu + cpuacct hierarchies
 * (hybrid) and from one cpu,cpuacct (v1) gives the same values. */
static void test_v1_and_hybrid(void **state)
{
	struct pair h, v;
	const struct ptk_cg_row *rh, *rv;

	load(&h, "cgroup-hybrid");
	load(&v, "cgroup-v1");
	assert_int_equal(h.b.layout, PTK_CG_HYBRID);
	assert_int_equal(v.b.layout, PTK_CG_V1);
	rh = row(&h, "/ptk-fixture/app.service");
	rv = row(&v, "/ptk-fixture/app.service");
	/* a 0.2 CPU quota, a spinning task: about 20% of a CPU, throttled in most periods */
	near(rv->quota_cpus, 0.2, 1e-12);
	assert_true(rv->cpu_pct > 17 && rv->cpu_pct < 22);
	assert_true(rv->throttled_pct > 80);
	assert_true(rv->throttled_s > 0.2 && rv->throttled_s <= 1.0);
	near(rv->mem_max, 256 * MiB, 0);
	assert_true(isnan(rv->mem_high)); /* v1 has no memory.high */
	/* 64 MiB touched by the task */
	assert_true(rv->anon >= 64 * MiB && rv->mem >= rv->anon);
	near(rv->tasks, 1, 0);
	assert_true(isinf(rv->tasks_max));
	/* v1 has no pressure files; hybrid has them from the unified tree */
	assert_true(isnan(rv->psi_some[PTK_PSI_CPU]));
	assert_true(rh->psi_some[PTK_PSI_CPU] > 10);
	/* the v1 controllers' values win the merge: identical in both layouts */
	near(rh->cpu_pct, rv->cpu_pct, 0);
	near(rh->throttled_pct, rv->throttled_pct, 0);
	near(rh->mem, rv->mem, 0);
	near(rh->wset, rv->wset, 0);
	assert_true(rh->cur->ctrl & PTK_CGC_V2);
	assert_false(rv->cur->ctrl & PTK_CGC_V2);
	assert_true(rv->cur->ctrl & PTK_CGC_CPU && rv->cur->ctrl & PTK_CGC_CPUACCT);
	/* the working set is usage less inactive file pages */
	double inact = (double)rv->cur->v[PTK_CGV_MEM_INACTIVE_FILE];
	near(rv->wset, rv->mem - inact, 0);
	unload(&h);
	unload(&v);
}

static void test_procs(void **state)
{
	struct ptk_src src;
	char dir[512];
	int *pids = NULL, n = 0;

	snprintf(dir, sizeof(dir), "%s/cgroup-v2", PTK_FIXTURES);
	assert_int_equal(ptk_src_init(&src, dir, NULL), 0);
	assert_int_equal(
		ptk_cg_procs(&src, "/user.slice/user-1000.slice/session-3.scope", &pids, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pids[0], 4000);
	assert_int_equal(pids[1], 4001);
	assert_int_equal(ptk_cg_procs(&src, "/no/such", &pids, &n), -ENOENT);
	free(pids);
}

static void test_identify(void **state)
{
	static const struct {
		const char *path, *runtime, *id, *pod, *qos, *unit;
	} cases[] = {
		{ "/docker/" DOCKER, "docker", DOCKER, "", "", "" },
		{ "/system.slice/docker-" DOCKER ".scope", "docker", DOCKER, "", "",
		  "docker-" DOCKER ".scope" },
		{ "/machine.slice/libpod-" CTR ".scope/container", "podman", CTR, "", "",
		  "libpod-" CTR ".scope" },
		{ "/libpod_parent/libpod-" CTR, "podman", CTR, "", "", "" },
		{ "/kubepods/besteffort/pod0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46/" CTR, "cri", CTR,
		  "0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46", "besteffort", "" },
		{ "/kubepods/pod0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46/" CTR, "cri", CTR,
		  "0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46", "guaranteed", "" },
		{ "/kubepods.slice/kubepods-pod" POD ".slice/crio-" CTR ".scope", "cri-o", CTR,
		  "0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46", "guaranteed", "crio-" CTR ".scope" },
		{ "/kubepods.slice", "", "", "", "", "kubepods.slice" },
		{ "/lxc/web1", "lxc", "web1", "", "", "" },
		{ "/lxc.payload.web2/init.scope", "lxc", "web2", "", "", "init.scope" },
		{ "/system.slice/nginx.service", "", "", "", "", "nginx.service" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope", "", "", "", "",
		  "x.scope" },
		{ "/", "", "", "", "", "" },
		{ "/docker/abc", "", "", "", "", "" }, /* not 64 hex digits */
	};
	struct ptk_cg_ident id;
	char buf[200];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ptk_cg_identify(cases[i].path, &id);
		assert_string_equal(id.runtime, cases[i].runtime);
		assert_string_equal(id.id, cases[i].id);
		assert_string_equal(id.pod_uid, cases[i].pod);
		assert_string_equal(id.qos, cases[i].qos);
		assert_string_equal(id.unit, cases[i].unit);
	}
	ptk_cg_identify("/system.slice/docker-" DOCKER ".scope", &id);
	assert_string_equal(ptk_cg_ident_short(&id, buf, sizeof(buf)), "docker 3f2a1b9c8d7e");
}

/* ptk_cg_container: a task's CONTAINER cell; ptk_cg_under: top's --cgroup filter */
static void test_container_and_under(void **state)
{
	static const struct {
		const char *path, *want;
	} cases[] = {
		{ "/system.slice/docker-" DOCKER ".scope", "docker:3f2a1b9c8d7e" },
		{ "/docker/" DOCKER, "docker:3f2a1b9c8d7e" },
		{ "/kubepods/besteffort/pod0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46/" CTR,
		  "cri:9e8d7c6b5a4f" },
		{ "/kubepods/besteffort/pod0f3a6c1e-52b4-4d7e-9a21-7c5e3b8d1f46", "pod:0f3a6c1e" },
		{ "/lxc/web1", "lxc:web1" },
		{ "/system.slice/nginx.service", "nginx.service" },
		{ "/", "" },
		{ "/docker/abc", "" },
	};
	char buf[80];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_string_equal(ptk_cg_container(cases[i].path, buf, sizeof(buf)),
				    cases[i].want);
	/* a short buffer is cut, still terminated */
	assert_string_equal(ptk_cg_container("/docker/" DOCKER, buf, 8), "docker:");

	assert_true(ptk_cg_under("/a", "/a"));
	assert_true(ptk_cg_under("/a/b", "/a"));
	assert_true(ptk_cg_under("/a/b", "/a/"));
	assert_true(ptk_cg_under("/a/b", "/a//"));
	assert_false(ptk_cg_under("/ab", "/a"));
	assert_false(ptk_cg_under("/a", "/a/b"));
	assert_true(ptk_cg_under("/", "/"));
	assert_true(ptk_cg_under("/x/y", "/"));
	assert_true(ptk_cg_under("/x/y", "//"));
}

static void test_order(void **state)
{
	struct pair p;
	int order[32], n;

	load(&p, "cgroup-v2");
	/* tree: parents before children, siblings by CPU descending */
	n = ptk_cg_order(p.rows, p.n, PTK_CGS_CPU, true, -1, order);
	assert_int_equal(n, 13);
	assert_string_equal(p.rows[order[0]].cur->path, "/");
	assert_string_equal(p.rows[order[1]].cur->path, "/system.slice");
	assert_string_equal(p.rows[order[2]].cur->path, "/system.slice/docker-" DOCKER ".scope");
	assert_string_equal(p.rows[order[3]].cur->path, "/system.slice/nginx.service");
	assert_string_equal(p.rows[order[4]].cur->path, "/kubepods.slice");
	for (int i = 1; i < n; i++) {
		int par = p.rows[order[i]].cur->parent, seen = 0;
		for (int j = 0; j < i; j++)
			seen |= order[j] == par;
		assert_true(seen);
	}
	/* depth 1: the root and its children */
	n = ptk_cg_order(p.rows, p.n, PTK_CGS_PATH, true, 1, order);
	assert_int_equal(n, 5);
	/* flat by memory: the largest first, unknown last */
	n = ptk_cg_order(p.rows, p.n, PTK_CGS_MEMORY, false, -1, order);
	assert_string_equal(p.rows[order[0]].cur->path, "/system.slice");
	assert_string_equal(p.rows[order[n - 1]].cur->path, "/");
	enum ptk_cg_sort s;
	assert_int_equal(ptk_cg_sort_parse("throttle", &s), 0);
	assert_int_equal(s, PTK_CGS_THROTTLE);
	assert_int_equal(ptk_cg_sort_parse("bogus", &s), -EINVAL);
	unload(&p);
}

/* No rates from a single snapshot; levels still known. */
static void test_first(void **state)
{
	struct pair p;
	struct ptk_cg_row r[16];

	load(&p, "cgroup-v2");
	assert_int_equal(ptk_cg_rows(NULL, &p.b, r), 13);
	for (int i = 0; i < 13; i++) {
		assert_true(isnan(r[i].cpu_pct));
		assert_true(isnan(r[i].throttled_pct));
		assert_true(isnan(r[i].ev_high));
	}
	unload(&p);
}

static void test_copy_and_missing(void **state)
{
	struct pair p;
	struct ptk_cgsnap c = { 0 };
	struct ptk_src src;

	load(&p, "cgroup-v2");
	ptk_cg_copy(&c, &p.b);
	assert_int_equal(c.n, p.b.n);
	const struct ptk_cgroup *g = ptk_cg_find(&c, "/batch.slice/io.service");
	assert_non_null(g);
	assert_int_equal(g->nio, 2);
	assert_true(g->io != ptk_cg_find(&p.b, "/batch.slice/io.service")->io);
	ptk_cg_free(&c);
	unload(&p);
	/* a root without fs/cgroup: no cgroups, no error */
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/psi_none", PTK_FIXTURES);
	assert_int_equal(ptk_src_init(&src, dir, dir), 0);
	assert_int_equal(ptk_cg_layout(&src), PTK_CG_NONE);
	assert_int_equal(ptk_cg_read(&src, &c, -1), 0);
	assert_int_equal(c.n, 0);
	ptk_cg_free(&c);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(ptk_mkdir_p(path, 0755), 0);
	*slash = '/';
	assert_int_equal(ptk_write_file(path, text, strlen(text)), 0);
}

/* What a snapshot reads: only the wanted values, and in the v2 tree of a hybrid layout only
 * what the v1 hierarchies did not give that cgroup. */
static void test_want(void **state)
{
	char root[] = "/tmp/ptk-test-cgwant-XXXXXX", cmd[600];
	struct ptk_src src;
	struct ptk_cgsnap s = { 0 };

	assert_non_null(mkdtemp(root));
	put(root, "fs/cgroup/cpuacct/cgroup.procs", "");
	put(root, "fs/cgroup/cpuacct/cpuacct.usage", "1000\n");
	put(root, "fs/cgroup/cpuacct/both/cgroup.procs", "");
	put(root, "fs/cgroup/cpuacct/both/cpuacct.usage", "7000000\n");
	put(root, "fs/cgroup/memory/cgroup.procs", "");
	put(root, "fs/cgroup/memory/memory.usage_in_bytes", "4096\n");
	put(root, "fs/cgroup/memory/memory.failcnt", "3\n");
	put(root, "fs/cgroup/unified/cgroup.controllers", "");
	put(root, "fs/cgroup/unified/cgroup.procs", "");
	put(root, "fs/cgroup/unified/cpu.stat", "usage_usec 1\nuser_usec 1\n");
	put(root, "fs/cgroup/unified/both/cpu.stat", "usage_usec 99\nuser_usec 50\n");
	put(root, "fs/cgroup/unified/v2only/cpu.stat", "usage_usec 5\nuser_usec 2\n");
	assert_int_equal(ptk_src_init(&src, NULL, root), 0);
	s.want = PTK_CGW(PTK_CGV_CPU_USAGE_NS) | PTK_CGW(PTK_CGV_MEM_CURRENT);
	assert_int_equal(ptk_cg_read(&src, &s, -1), 0);
	assert_int_equal(s.layout, PTK_CG_HYBRID);
	const struct ptk_cgroup *both = ptk_cg_find(&s, "/both"), *v2 = ptk_cg_find(&s, "/v2only");
	const struct ptk_cgroup *top = ptk_cg_find(&s, "/");
	assert_non_null(both);
	assert_non_null(v2);
	assert_non_null(top);
	/* v1 gave /both its usage: its v2 cpu.stat is not read (no user time either) */
	assert_true(ptk_cg_has(both, PTK_CGV_CPU_USAGE_NS));
	assert_int_equal(both->v[PTK_CGV_CPU_USAGE_NS], 7000000);
	assert_false(ptk_cg_has(both, PTK_CGV_CPU_USER_NS));
	/* a cgroup only the v2 tree has gets its usage from there */
	assert_int_equal(v2->v[PTK_CGV_CPU_USAGE_NS], 5000);
	assert_int_equal(top->v[PTK_CGV_MEM_CURRENT], 4096);
	/* memory.failcnt is not wanted */
	assert_false(ptk_cg_has(top, PTK_CGV_MEM_EV_MAX));
	/* everything: user time from the v2 tree for both, the failure count */
	s.want = PTK_CGW_ALL;
	assert_int_equal(ptk_cg_read(&src, &s, -1), 0);
	both = ptk_cg_find(&s, "/both");
	top = ptk_cg_find(&s, "/");
	assert_int_equal(both->v[PTK_CGV_CPU_USAGE_NS], 7000000);
	assert_int_equal(both->v[PTK_CGV_CPU_USER_NS], 50000);
	assert_int_equal(top->v[PTK_CGV_MEM_EV_MAX], 3);
	assert_int_equal(top->parent, -1);
	assert_int_equal(both->parent, top - s.cg);
	ptk_cg_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v1_and_hybrid),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_container_and_under),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_first),
		cmocka_unit_test(test_copy_and_missing),
		cmocka_unit_test(test_want),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
