// SPDX-License-Identifier: GPL-2.0
/* Source roots and snapshot replay (source/root.h) and the replay interval loop (lib/cli.h),
 * on tests/fixtures/unit_replay (snapshots 0..2, uptime 100.00, 101.50, 104.25). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "lib/cli.h"
#include "source/procfs/procfs.h"

#define REPLAY PTK_FIXTURES "/unit_replay"

static void assert_path(const struct ptk_src *src, enum ptk_fs fs, const char *rel,
			const char *want)
{
	char buf[PATH_MAX];

	assert_int_equal(ptk_src_path(src, fs, rel, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static int online_hi(const struct ptk_src *src)
{
	bool m[16] = { 0 };

	return ptk_cpu_online_read(src, m, 16);
}

static void test_replay(void **state)
{
	struct ptk_src src;
	struct ptk_uptime up;
	struct ptk_stat st = { 0 };

	assert_int_equal(ptk_src_init(&src, REPLAY, NULL), 0);
	assert_true(src.replay);
	assert_false(src.sysfs_given);
	assert_false(src.sys_replay);
	assert_false(ptk_src_is_live(&src));
	assert_int_equal(src.nsnap, 3);
	assert_int_equal(src.snap, 0);
	assert_int_equal(ptk_src_remaining(&src), 3);
	assert_path(&src, PTK_PROC, "stat", REPLAY "/0/stat");
	assert_path(&src, PTK_PROC, "net/dev", REPLAY "/0/net/dev");
	/* no --sysfs: sysfs comes from N/sys of the snapshot */
	assert_path(&src, PTK_SYS, "devices/system/cpu/online",
		    REPLAY "/0/sys/devices/system/cpu/online");
	assert_int_equal(online_hi(&src), 2); /* "0-1" */
	assert_int_equal(ptk_uptime_read(&src, &up), 0);
	assert_float_equal(up.up_s, 100.0, 1e-9);
	assert_int_equal(ptk_stat_read(&src, &st), 0);
	assert_int_equal(st.ctxt, 5000);

	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(src.snap, 1);
	assert_int_equal(ptk_src_remaining(&src), 2);
	assert_path(&src, PTK_PROC, "stat", REPLAY "/1/stat");
	assert_path(&src, PTK_SYS, "block", REPLAY "/1/sys/block");
	assert_int_equal(online_hi(&src), 1); /* "0" */
	assert_int_equal(ptk_stat_read(&src, &st), 0);
	assert_int_equal(st.ctxt, 5001);

	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(ptk_src_remaining(&src), 1);
	assert_int_equal(online_hi(&src), 2); /* "1" */
	assert_int_equal(ptk_uptime_read(&src, &up), 0);
	assert_float_equal(up.up_s, 104.25, 1e-9);

	/* out of snapshots: -ENODATA, and the source stays on the last one */
	assert_int_equal(ptk_src_next(&src), -ENODATA);
	assert_int_equal(ptk_src_next(&src), -ENODATA);
	assert_int_equal(src.snap, 2);
	assert_int_equal(ptk_src_remaining(&src), 1);
	assert_int_equal(ptk_stat_read(&src, &st), 0);
	assert_int_equal(st.ctxt, 5002);
	ptk_stat_free(&st);
}

/* An explicit --sysfs replaces N/sys; a sysfs root with its own 0/ 1/ ... follows the
 * procfs snapshot index. */
static void test_explicit_sysfs(void **state)
{
	struct ptk_src src;

	assert_int_equal(ptk_src_init(&src, REPLAY, PTK_FIXTURES "/unit_sysroot"), 0);
	assert_true(src.replay);
	assert_true(src.sysfs_given);
	assert_false(src.sys_replay);
	assert_path(&src, PTK_SYS, "devices/system/cpu/online",
		    PTK_FIXTURES "/unit_sysroot/devices/system/cpu/online");
	assert_int_equal(online_hi(&src), 8); /* "0-7" */
	assert_int_equal(ptk_src_next(&src), 0);
	assert_int_equal(online_hi(&src), 8);
	assert_path(&src, PTK_PROC, "stat", REPLAY "/1/stat");

	assert_int_equal(ptk_src_init(&src, REPLAY, PTK_FIXTURES "/unit_sysreplay"), 0);
	assert_true(src.sys_replay);
	assert_int_equal(online_hi(&src), 5); /* "0-4" */
	assert_int_equal(ptk_src_next(&src), 0);
	assert_path(&src, PTK_SYS, "devices/system/cpu/online",
		    PTK_FIXTURES "/unit_sysreplay/1/devices/system/cpu/online");
	assert_int_equal(online_hi(&src), 6); /* "1-5" */
}

/* A flat tree (no 0/): another root, not replay, not live; next is a no-op. */
static void test_flat_root(void **state)
{
	struct ptk_src src;
	struct ptk_loadavg la;

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/unit_flat", NULL), 0);
	assert_false(src.replay);
	assert_int_equal(src.nsnap, 0);
	assert_false(ptk_src_is_live(&src));
	assert_int_equal(ptk_src_remaining(&src), -1);
	assert_int_equal(ptk_src_next(&src), 0);
	assert_path(&src, PTK_PROC, "loadavg", PTK_FIXTURES "/unit_flat/loadavg");
	assert_path(&src, PTK_SYS, "block", "/sys/block");
	assert_int_equal(ptk_loadavg_read(&src, &la), 0);
	assert_int_equal(la.nr_threads, 412);

	assert_int_equal(ptk_src_init(&src, NULL, NULL), 0);
	assert_true(ptk_src_is_live(&src));
	assert_path(&src, PTK_PROC, "stat", "/proc/stat");
	assert_path(&src, PTK_SYS, "block", "/sys/block");
}

static void test_bad_roots(void **state)
{
	struct ptk_src src;
	char longp[PATH_MAX];
	char small[8];

	assert_int_equal(ptk_src_init(&src, PTK_FIXTURES "/no_such_tree", NULL), -ENOENT);
	assert_int_equal(ptk_src_init(&src, REPLAY, PTK_FIXTURES "/no_such_sysfs"), -ENOENT);
	/* a regular file is not a root */
	assert_int_equal(ptk_src_init(&src, REPLAY "/0/stat", NULL), -ENOTDIR);
	assert_false(src.bad_sysfs);
	assert_int_equal(ptk_src_init(&src, REPLAY, REPLAY "/0/stat"), -ENOTDIR);
	assert_true(src.bad_sysfs);
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	assert_int_equal(ptk_src_init(&src, longp, NULL), -ENAMETOOLONG);
	assert_int_equal(ptk_src_init(&src, REPLAY, longp), -ENAMETOOLONG);
	/* a path that does not fit the buffer */
	assert_int_equal(ptk_src_init(&src, REPLAY, NULL), 0);
	assert_int_equal(ptk_src_path(&src, PTK_PROC, "stat", small, sizeof(small)), -ENAMETOOLONG);
}

struct calls {
	int n;
	long i[8];
	double itv[8];
	u64 ctxt[8];
	int stop_at; /* return 7 from this call */
};

static int sample(struct ptk_ctx *ctx, void *arg, long i, double itv_s)
{
	struct calls *c = arg;
	struct ptk_stat st = { 0 };

	assert_true(c->n < 8);
	c->i[c->n] = i;
	c->itv[c->n] = itv_s;
	assert_int_equal(ptk_stat_read(&ctx->src, &st), 0);
	c->ctxt[c->n] = st.ctxt;
	ptk_stat_free(&st);
	return ++c->n == c->stop_at ? 7 : 0;
}

static void ready(struct ptk_ctx *ctx)
{
	memset((void *)ctx, 0, sizeof(*ctx));
	ctx->cmd = "test";
	ctx->procfs = REPLAY;
	assert_int_equal(ptk_ctx_ready(ctx), 0);
}

/* Replay: the baseline call, then one per snapshot with itv = uptime difference; with a
 * 3600 s interval and no count this only returns if nothing sleeps (the test harness has a
 * timeout). */
static void test_loop_replay(void **state)
{
	struct ptk_ctx ctx;
	struct calls c = { 0 };

	ready(&ctx);
	assert_int_equal(ptk_loop(&ctx, 3600, -1, sample, &c), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.i[0], 0);
	assert_int_equal(c.i[1], 1);
	assert_int_equal(c.i[2], 2);
	assert_float_equal(c.itv[0], 0.0, 0);
	assert_float_equal(c.itv[1], 1.5, 1e-9); /* 101.50 - 100.00 */
	assert_float_equal(c.itv[2], 2.75, 1e-9); /* 104.25 - 101.50 */
	assert_int_equal(c.ctxt[0], 5000);
	assert_int_equal(c.ctxt[1], 5001);
	assert_int_equal(c.ctxt[2], 5002);
	assert_float_equal(ptk_ctx_uptime(&ctx), 104.25, 1e-9);
	/* wall time of a replayed sample: btime + uptime */
	assert_float_equal(ptk_ctx_walltime(&ctx), 1700000000 + 104.25, 1e-6);

	/* count 1: baseline + one interval */
	ready(&ctx);
	memset(&c, 0, sizeof(c));
	assert_int_equal(ptk_loop(&ctx, 3600, 1, sample, &c), 0);
	assert_int_equal(c.n, 2);
	assert_float_equal(c.itv[1], 1.5, 1e-9);

	/* a callback's non-zero return stops the loop with that value */
	ready(&ctx);
	memset(&c, 0, sizeof(c));
	c.stop_at = 2;
	assert_int_equal(ptk_loop(&ctx, 3600, -1, sample, &c), 7);
	assert_int_equal(c.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay),	    cmocka_unit_test(test_explicit_sysfs),
		cmocka_unit_test(test_flat_root),   cmocka_unit_test(test_bad_roots),
		cmocka_unit_test(test_loop_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
