// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/smaps and maps parsing on fixture trees (tests/fixtures/pmap_*). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "source/procfs/smaps.h"

/* The fixture's long path: /opt/d{120}/e{60}/libveryL{80}.so.1 (277 characters). */
static const char *longpath(void)
{
	static char p[300];
	char *q = p;

	q += sprintf(q, "/opt/");
	memset(q, 'd', 120);
	q += 120;
	*q++ = '/';
	memset(q, 'e', 60);
	q += 60;
	q += sprintf(q, "/libvery");
	memset(q, 'L', 80);
	q += 80;
	strcpy(q, ".so.1");
	return p;
}

static void src_at(struct ptk_src *src, const char *tree)
{
	assert_int_equal(ptk_src_init(src, tree, NULL), 0);
}

static u64 get(const struct ptk_smaps *s, const struct ptk_smap *m, enum ptk_smaps_key k)
{
	u64 v = 0;

	assert_true(ptk_smap_get(s, m, k, &v));
	return v;
}

/* Every kind of mapping: file, anonymous, [heap]/[stack]/[vvar]/[vdso]/[vsyscall], a path with
 * spaces, a "(deleted)" path, a 200+ character path, SysV shm; VmFlags. */
static void test_smaps_fixture(void **state)
{
	struct ptk_src src;
	struct ptk_smaps s;

	src_at(&src, PTK_FIXTURES "/pmap_basic");
	assert_int_equal(ptk_smaps_read(&src, 4242, true, &s), 0);
	assert_int_equal(s.n, 13);
	assert_false(s.truncated);
	assert_int_equal(s.nfields, 23);
	assert_string_equal(s.field[0], "Size");
	assert_string_equal(s.field[22], "THPeligible");
	assert_true(s.field_kb[0]);
	assert_false(s.field_kb[22]); /* "THPeligible:    0" has no unit */
	assert_int_equal(s.key[PTK_SM_RSS], 3);
	assert_int_equal(ptk_smaps_field(&s, "Pss_Dirty"), 5);
	assert_int_equal(ptk_smaps_field(&s, "NoSuchKey"), -1);
	assert_true(s.has_vmflags);

	const struct ptk_smap *m = s.m;
	assert_int_equal(m[0].start, 0x555ccbd93000ULL);
	assert_int_equal(m[0].end, 0x555ccbdc2000ULL);
	assert_string_equal(m[0].perms, "r--p");
	assert_string_equal(m[0].start_s, "555ccbd93000");
	assert_string_equal(m[0].dev_s, "fe:00");
	assert_int_equal(m[0].dev_major, 0xfe);
	assert_int_equal(m[0].inode, 247101);
	assert_string_equal(m[0].path, "/usr/bin/bash");
	assert_string_equal(m[0].vmflags, "rd mr mw me"); /* trailing space dropped */
	assert_int_equal(m[1].offset, 0x2f000);
	assert_string_equal(m[1].offset_s, "0002f000");

	assert_string_equal(m[3].path, "[heap]");
	assert_string_equal(m[4].path, ""); /* anonymous: nothing after the inode */
	assert_int_equal(m[4].inode, 0);
	assert_string_equal(m[5].path, longpath());
	assert_true(strlen(m[5].path) > 200);
	assert_string_equal(m[6].path, "/tmp/my dir/file with spaces.bin");
	assert_string_equal(m[6].perms, "rw-s");
	assert_string_equal(m[7].path, "/tmp/gone soon.bin (deleted)");
	assert_string_equal(m[8].path, "/SYSV00000000 (deleted)");
	assert_int_equal(m[8].dev_minor, 1);
	assert_string_equal(m[9].path, "[vvar]");
	assert_string_equal(m[9].vmflags, "rd mr pf io de dd sd");
	assert_string_equal(m[10].path, "[vdso]");
	assert_string_equal(m[11].path, "[stack]");
	assert_string_equal(m[12].path, "[vsyscall]");
	assert_int_equal(m[12].start, 0xffffffffff600000ULL);
	assert_string_equal(m[12].start_s, "ffffffffff600000");

	/* Per mapping: Size is the address range; the sums are the fixture's totals. */
	u64 size = 0, rss = 0, pss = 0, dirty = 0, swap = 0;
	for (int i = 0; i < s.n; i++) {
		assert_int_equal(get(&s, &m[i], PTK_SM_SIZE), (m[i].end - m[i].start) >> 10);
		size += get(&s, &m[i], PTK_SM_SIZE);
		rss += get(&s, &m[i], PTK_SM_RSS);
		pss += get(&s, &m[i], PTK_SM_PSS);
		dirty += get(&s, &m[i], PTK_SM_SHARED_DIRTY) + get(&s, &m[i], PTK_SM_PRIVATE_DIRTY);
		swap += get(&s, &m[i], PTK_SM_SWAP);
	}
	assert_int_equal(size, 2320);
	assert_int_equal(rss, 2068);
	assert_int_equal(pss, 1165);
	assert_int_equal(dirty, 1096);
	assert_int_equal(swap, 56);
	assert_int_equal(get(&s, &m[6], PTK_SM_SHARED_DIRTY), 256);
	assert_int_equal(get(&s, &m[3], PTK_SM_SWAP), 40);
	ptk_smaps_free(&s);
}

/* pmap's totals (-x, -d, -X, --json) from ptk_smaps_totals and ptk_smaps_field_sum: the
 * fixture's sums, and the -d split by permissions (4 writeable private and 2 shared
 * mappings), also worked out from the address ranges by hand. */
static void test_totals(void **state)
{
	struct ptk_src src;
	struct ptk_smaps s;
	struct ptk_smaps_totals t;
	u64 d;

	src_at(&src, PTK_FIXTURES "/pmap_basic");
	assert_int_equal(ptk_smaps_read(&src, 4242, true, &s), 0);
	ptk_smaps_totals(&s, &t);
	assert_int_equal(t.size_kb, 2320);
	assert_true(t.rss_ok && t.pss_ok && t.dirty_ok && t.swap_ok);
	assert_int_equal(t.rss_kb, 2068);
	assert_int_equal(t.pss_kb, 1165);
	assert_int_equal(t.dirty_kb, 1096);
	assert_int_equal(t.swap_kb, 56);
	assert_int_equal(t.mapped_kb, 2320);
	assert_int_equal(t.wpriv_kb, 944);
	assert_int_equal(t.shared_kb, 324);
	assert_int_equal(ptk_smaps_field_sum(&s, ptk_smaps_field(&s, "Pss_Dirty")), 968);
	assert_int_equal(ptk_smaps_field_sum(&s, ptk_smaps_field(&s, "Anonymous")), 744);
	assert_int_equal(ptk_smaps_field_sum(&s, -1), 0);
	assert_true(ptk_smap_dirty(&s, &s.m[6], &d));
	assert_int_equal(d, 256); /* Shared_Dirty 256 + Private_Dirty 0 */
	ptk_smaps_free(&s);

	/* maps: the same ranges, no fields: the sizes and the -d split only */
	assert_int_equal(ptk_smaps_read(&src, 4242, false, &s), 0);
	ptk_smaps_totals(&s, &t);
	assert_int_equal(t.size_kb, 2320);
	assert_int_equal(t.wpriv_kb, 944);
	assert_int_equal(t.shared_kb, 324);
	assert_false(t.rss_ok || t.pss_ok || t.dirty_ok || t.swap_ok);
	assert_int_equal(t.rss_kb, 0);
	assert_false(ptk_smap_dirty(&s, &s.m[6], &d));
	ptk_smaps_free(&s);
}

/* maps has the same header lines and no fields. */
static void test_maps_fixture(void **state)
{
	struct ptk_src src;
	struct ptk_smaps s, f;
	u64 v;

	src_at(&src, PTK_FIXTURES "/pmap_basic");
	assert_int_equal(ptk_smaps_read(&src, 4242, false, &s), 0);
	assert_int_equal(ptk_smaps_read(&src, 4242, true, &f), 0);
	assert_int_equal(s.n, f.n);
	assert_int_equal(s.nfields, 0);
	assert_false(s.has_vmflags);
	assert_false(s.truncated);
	assert_false(ptk_smap_get(&s, &s.m[0], PTK_SM_RSS, &v));
	for (int i = 0; i < s.n; i++) {
		assert_int_equal(s.m[i].start, f.m[i].start);
		assert_int_equal(s.m[i].end, f.m[i].end);
		assert_string_equal(s.m[i].perms, f.m[i].perms);
		assert_string_equal(s.m[i].path, f.m[i].path);
		assert_null(s.m[i].vmflags);
	}
	ptk_smaps_free(&s);
	ptk_smaps_free(&f);
}

/* The process exited mid-read: the last entry stops after Rss: (100) or inside a line
 * (101). The whole entries before it are kept, the cut one dropped and flagged. */
static void test_truncated(void **state)
{
	struct ptk_src src;
	struct ptk_smaps s;

	src_at(&src, PTK_FIXTURES "/pmap_truncated");
	for (int pid = 100; pid <= 101; pid++) {
		assert_int_equal(ptk_smaps_read(&src, pid, true, &s), 0);
		assert_true(s.truncated);
		assert_int_equal(s.n, 2);
		assert_int_equal(s.m[1].end, 0x555ccbe83000ULL);
		assert_int_equal(get(&s, &s.m[0], PTK_SM_RSS) + get(&s, &s.m[1], PTK_SM_RSS), 884);
		ptk_smaps_free(&s);
	}
}

static void test_parse_text(void **state)
{
	static const char one[] =
		"00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbus\n"
		"Size:                328 kB\n"
		"Rss:                 300 kB\n"
		"ProtectionKey:         0\n"
		"VmFlags: rd ex mr mw me dw \n";
	struct ptk_smaps s;

	assert_int_equal(ptk_smaps_parse(one, strlen(one), &s), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.m[0].start_s, "00400000");
	assert_string_equal(s.m[0].path, "/usr/bin/dbus");
	assert_int_equal(s.nfields, 3);
	assert_false(s.field_kb[2]);
	assert_int_equal(s.key[PTK_SM_PSS], -1); /* a kernel without Pss: absent, not 0 */
	assert_int_equal(get(&s, &s.m[0], PTK_SM_RSS), 300);
	assert_string_equal(s.m[0].vmflags, "rd ex mr mw me dw");
	ptk_smaps_free(&s);

	assert_int_equal(ptk_smaps_parse("", 0, &s), 0);
	assert_int_equal(s.n, 0);
	assert_false(s.truncated);
	ptk_smaps_free(&s);

	/* A key before any mapping, and a line that is neither kind. */
	assert_int_equal(ptk_smaps_parse("Rss: 4 kB\n", 10, &s), -EINVAL);
	assert_int_equal(ptk_smaps_parse("hello world\n", 12, &s), -EINVAL);
	assert_int_equal(ptk_smaps_parse("00400000 r-xp\n", 14, &s), -EINVAL);
}

static void test_missing_and_proc_info(void **state)
{
	struct ptk_src src;
	struct ptk_smaps s;
	u64 ss = 0;
	char *cmd;

	src_at(&src, PTK_FIXTURES "/pmap_basic");
	assert_int_equal(ptk_smaps_read(&src, 99999, true, &s), -ENOENT);
	assert_int_equal(ptk_smaps_startstack(&src, 4242, &ss), 0);
	assert_int_equal(ss, 0x7ffc1b4a6f30ULL);
	assert_int_equal(ptk_smaps_startstack(&src, 99999, &ss), -ENOENT);
	cmd = ptk_smaps_cmdline(&src, 4242);
	assert_non_null(cmd);
	assert_string_equal(cmd, "/usr/bin/my prog --flag two words");
	free(cmd);
	errno = 0;
	assert_null(ptk_smaps_cmdline(&src, 99999));
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smaps_fixture), cmocka_unit_test(test_totals),
		cmocka_unit_test(test_maps_fixture),  cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_parse_text),    cmocka_unit_test(test_missing_and_proc_info),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
