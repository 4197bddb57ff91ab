// SPDX-License-Identifier: GPL-2.0
/* The symbolizer: kallsyms fixtures (sorted, unsorted, modules, hidden addresses) and user
 * lookups of functions in this very binary and in a shared library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "source/sym/sym.h"

#define KS PTK_FIXTURES "/sym_kallsyms"

/* A function whose address we resolve: noinline and used, so it exists as itself. */
__attribute__((noinline, used)) int sym_target(int x);
__attribute__((noinline, used)) int sym_target(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static void check_kallsyms(const char *file)
{
	struct ptk_ksyms ks;
	const struct ptk_ksym *k;

	assert_int_equal(ptk_ksyms_load(file, &ks), 0);
	/* text symbols only: some_data (D) and __ksymtab_schedule (r) are dropped */
	assert_int_equal(ks.n, 8);
	for (size_t i = 1; i < ks.n; i++)
		assert_true(ks.syms[i - 1].addr <= ks.syms[i].addr);

	/* below the first symbol */
	assert_null(ptk_ksyms_find(&ks, 0xffffffff80ffffffull));
	assert_null(ptk_ksyms_find(&ks, 0));

	/* exact address with aliases: the first in file order */
	k = ptk_ksyms_find(&ks, 0xffffffff81000000ull);
	assert_non_null(k);
	assert_string_equal(k->name, "_stext");
	assert_null(k->module);

	/* inside a function; a data symbol in between does not end it */
	k = ptk_ksyms_find(&ks, 0xffffffff81002500ull);
	assert_string_equal(k->name, "do_one_initcall");
	assert_int_equal(0xffffffff81002500ull - k->addr, 0x1500);

	k = ptk_ksyms_find(&ks, 0xffffffff81003100ull);
	assert_string_equal(k->name, "weak_fn");

	/* module symbols carry the module name, without brackets */
	k = ptk_ksyms_find(&ks, 0xffffffffc0a00410ull);
	assert_string_equal(k->name, "ext4_iget");
	assert_string_equal(k->module, "ext4");
	k = ptk_ksyms_find(&ks, 0xffffffffc09fffffull);
	assert_string_equal(k->name, "xfs_iget");
	assert_string_equal(k->module, "xfs");
	k = ptk_ksyms_find(&ks, 0xffffffffc0a003ffull);
	assert_string_equal(k->name, "ext4_fill_super");
	ptk_ksyms_free(&ks);
}

static void test_kallsyms_sorted(void **state)
{
	check_kallsyms(KS "/kallsyms.sorted");
}

static void test_kallsyms_unsorted(void **state)
{
	check_kallsyms(KS "/kallsyms");
}

static void test_kallsyms_errors(void **state)
{
	struct ptk_ksyms ks;

	assert_int_equal(ptk_ksyms_load(KS "/kallsyms.hidden", &ks), -EPERM);
	assert_int_equal(ptk_ksyms_load(KS "/nonexistent", &ks), -ENOENT);
}

/* The symbolizer reads <procfs>/kallsyms and formats frames. */
static void test_sym_kernel(void **state)
{
	struct ptk_symbolizer *s = ptk_sym_new(KS, 0);
	struct ptk_frame f;
	char buf[128];

	assert_int_equal(ptk_sym_kernel(s, 0xffffffff81003010ull, &f), 0);
	assert_string_equal(f.func, "schedule");
	assert_int_equal(f.off, 0x10);
	assert_string_equal(f.module, "kernel");
	ptk_frame_fmt(&f, PTK_FRAME_OFFSET | PTK_FRAME_MODULE, buf, sizeof(buf));
	assert_string_equal(buf, "schedule+0x10 [kernel]");

	assert_int_equal(ptk_sym_kernel(s, 0xffffffffc0a00401ull, &f), 0);
	ptk_frame_fmt(&f, PTK_FRAME_OFFSET | PTK_FRAME_MODULE, buf, sizeof(buf));
	assert_string_equal(buf, "ext4_iget+0x1 [ext4]");

	assert_int_equal(ptk_sym_kernel(s, 0x1000, &f), -ENOENT);
	assert_null(f.func);
	assert_string_equal(ptk_frame_name(&f), "[unknown]");
	ptk_frame_fmt(&f, PTK_FRAME_OFFSET, buf, sizeof(buf));
	assert_string_equal(buf, "[unknown]");
	/* truncation keeps snprintf semantics */
	assert_int_equal(ptk_frame_fmt(&f, 0, buf, 4), 9);
	assert_string_equal(buf, "[un");
	ptk_sym_free(s);

	s = ptk_sym_new(KS "/nonexistent", 0);
	assert_int_equal(ptk_sym_kernel(s, 0xffffffff81003010ull, &f), -ENOENT);
	assert_string_equal(ptk_frame_name(&f), "[unknown]");
	ptk_sym_free(s);
}

/* A noinline function of this binary resolves to its name +0x0 and +offset, with its module
 * (this executable) and, with PTK_SYM_LINES, this source file. */
static void test_sym_user_self(void **state)
{
	struct ptk_symbolizer *s = ptk_sym_new(NULL, PTK_SYM_LINES);
	u64 a = (u64)(uintptr_t)&sym_target;
	struct ptk_frame f;
	char exe[4096], buf[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	assert_int_equal(sym_target(1), 4);
	assert_int_equal(ptk_sym_user(s, getpid(), a, &f), 0);
	assert_string_equal(f.func, "sym_target");
	assert_int_equal(f.off, 0);
	assert_non_null(f.module);
	assert_string_equal(f.module, exe);
	assert_non_null(f.file);
	assert_non_null(strstr(f.file, "test_sym.c"));
	assert_true(f.line > 0);

	assert_int_equal(ptk_sym_user(s, getpid(), a + 3, &f), 0);
	assert_string_equal(f.func, "sym_target");
	assert_int_equal(f.off, 3);
	ptk_frame_fmt(&f, PTK_FRAME_OFFSET, buf, sizeof(buf));
	assert_string_equal(buf, "sym_target+0x3");

	/* a function of a shared library: its module is the library */
	a = (u64)(uintptr_t)&dwfl_begin;
	assert_int_equal(ptk_sym_user(s, getpid(), a, &f), 0);
	assert_string_equal(f.func, "dwfl_begin");
	assert_int_equal(f.off, 0);
	assert_non_null(strstr(f.module, "libdw"));
	ptk_frame_fmt(&f, PTK_FRAME_MODULE, buf, sizeof(buf));
	assert_true(!strncmp(buf, "dwfl_begin [libdw", 17));

	/* the same pid is served from the cache: the same session */
	assert_ptr_equal(ptk_sym_dwfl(s, getpid()), ptk_sym_dwfl(s, getpid()));
	assert_non_null(ptk_sym_dwfl(s, getpid()));

	/* nothing is mapped at page 0 */
	assert_int_equal(ptk_sym_user(s, getpid(), 0x10, &f), -ENOENT);
	assert_string_equal(ptk_frame_name(&f), "[unknown]");

	/* forget drops the session; a later lookup builds a new one */
	ptk_sym_forget(s, getpid());
	assert_int_equal(ptk_sym_user(s, getpid(), (u64)(uintptr_t)&sym_target, &f), 0);
	assert_string_equal(f.func, "sym_target");
	ptk_sym_free(s);
}

/* A pid that cannot exist (above PID_MAX_LIMIT): -ESRCH, "[unknown]", no crash. */
static void test_sym_user_gone(void **state)
{
	struct ptk_symbolizer *s = ptk_sym_new(NULL, 0);
	struct ptk_frame f;

	assert_int_equal(ptk_sym_user(s, 0x7ffffff0, 0x401000, &f), -ESRCH);
	assert_string_equal(ptk_frame_name(&f), "[unknown]");
	assert_null(ptk_sym_dwfl(s, 0x7ffffff0));
	ptk_sym_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_sorted), cmocka_unit_test(test_kallsyms_unsorted),
		cmocka_unit_test(test_kallsyms_errors), cmocka_unit_test(test_sym_kernel),
		cmocka_unit_test(test_sym_user_self),	cmocka_unit_test(test_sym_user_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
