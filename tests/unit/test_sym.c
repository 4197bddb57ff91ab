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
#include <sys/mman.h>
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

/* The one-pass load of the symbols of given addresses answers as the whole table does, for
 * those addresses, whatever their order and repeats, and keeps only the symbols they use. */
static void check_kallsyms_addrs(const char *file)
{
	static const u64 want[] = {
		0xffffffffc0a00410ull, 0xffffffff81002500ull, 0xffffffff81000000ull,
		0xffffffff80ffffffull, 0xffffffffc09fffffull, 0xffffffff81002500ull,
		0xffffffff81003100ull, 0xffffffffc0a003ffull, 0xffffffff81003010ull,
	};
	struct ptk_ksyms all, part;
	const struct ptk_ksym *a, *p;

	assert_int_equal(ptk_ksyms_load(file, &all), 0);
	assert_int_equal(ptk_ksyms_load_addrs(file, want, ARRAY_SIZE(want), &part), 0);
	/* _stext, do_one_initcall, schedule, weak_fn, xfs_iget, ext4_fill_super, ext4_iget */
	assert_int_equal(part.n, 7);
	for (size_t i = 1; i < part.n; i++)
		assert_true(part.syms[i - 1].addr < part.syms[i].addr);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		a = ptk_ksyms_find(&all, want[i]);
		p = ptk_ksyms_find(&part, want[i]);
		if (!a) {
			assert_null(p);
			continue;
		}
		assert_non_null(p);
		assert_int_equal(p->addr, a->addr);
		assert_string_equal(p->name, a->name);
		if (a->module)
			assert_string_equal(p->module, a->module);
		else
			assert_null(p->module);
	}
	/* the alias first in file order, the module without brackets */
	assert_string_equal(ptk_ksyms_find(&part, 0xffffffff81000000ull)->name, "_stext");
	assert_string_equal(ptk_ksyms_find(&part, 0xffffffffc0a00410ull)->module, "ext4");
	ptk_ksyms_free(&part);

	/* one address: one symbol */
	assert_int_equal(ptk_ksyms_load_addrs(file, &want[1], 1, &part), 0);
	assert_int_equal(part.n, 1);
	assert_string_equal(part.syms[0].name, "do_one_initcall");
	ptk_ksyms_free(&part);
	/* none below the first symbol, or no address at all: an empty table, no error */
	assert_int_equal(ptk_ksyms_load_addrs(file, &want[3], 1, &part), 0);
	assert_int_equal(part.n, 0);
	assert_null(ptk_ksyms_find(&part, want[3]));
	ptk_ksyms_free(&part);
	assert_int_equal(ptk_ksyms_load_addrs(file, NULL, 0, &part), 0);
	assert_int_equal(part.n, 0);
	ptk_ksyms_free(&part);
	ptk_ksyms_free(&all);
}

static void test_kallsyms_addrs(void **state)
{
	struct ptk_ksyms ks;
	u64 a = 0xffffffff81003010ull;

	check_kallsyms_addrs(KS "/kallsyms");
	check_kallsyms_addrs(KS "/kallsyms.sorted");
	assert_int_equal(ptk_ksyms_load_addrs(KS "/kallsyms.hidden", &a, 1, &ks), -EPERM);
	assert_int_equal(ptk_ksyms_load_addrs(KS "/nonexistent", &a, 1, &ks), -ENOENT);
}

/*
 * One pass of the live comparison below: 0 when every address resolves to the same symbol in
 * both reads, 1 (with what differed in msg) when one does not, -errno when kallsyms cannot be
 * read.
 */
static int kallsyms_addrs_pass(char *msg, size_t msgsz)
{
	struct ptk_ksyms all, part;
	u64 want[4000], x = 88172645463325252ull;
	int err = ptk_ksyms_load(NULL, &all), bad = 0;

	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
		if (i % 2)
			want[i] = all.syms[x % all.n].addr;
		else
			want[i] = all.syms[0].addr +
				  x % (all.syms[all.n - 1].addr - all.syms[0].addr + 1);
	}
	assert_int_equal(ptk_ksyms_load_addrs(NULL, want, ARRAY_SIZE(want), &part), 0);
	assert_true(part.n <= ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want) && !bad; i++) {
		const struct ptk_ksym *a = ptk_ksyms_find(&all, want[i]),
				      *p = ptk_ksyms_find(&part, want[i]);
		/* BPF JIT images come and go between the reads: an address that lands on a
		 * [bpf] symbol in either read is not compared */
		if ((a && a->module && !strcmp(a->module, "bpf")) ||
		    (p && p->module && !strcmp(p->module, "bpf")))
			continue;
		if (!a || !p || p->addr != a->addr || strcmp(p->name, a->name) ||
		    !p->module != !a->module || (a->module && strcmp(p->module, a->module))) {
			snprintf(msg, msgsz, "%#llx: %s %#llx [%s] vs %s %#llx [%s]",
				 (unsigned long long)want[i], a ? a->name : "-",
				 a ? (unsigned long long)a->addr : 0ull,
				 a && a->module ? a->module : "", p ? p->name : "-",
				 p ? (unsigned long long)p->addr : 0ull,
				 p && p->module ? p->module : "");
			bad = 1;
		}
	}
	ptk_ksyms_free(&part);
	ptk_ksyms_free(&all);
	return bad;
}

/* The same on this machine's /proc/kallsyms (120k symbols, modules out of order): 4000
 * addresses, half exact symbol starts, half pseudo-random inside the text range. The two
 * reads are apart, and BPF programs other work loads or unloads meanwhile add or drop
 * [bpf] symbols: addresses on [bpf] symbols are left out, and a pass that differs is
 * tried again, up to three. */
static void test_kallsyms_addrs_live(void **state)
{
	char msg[512] = "";
	int r = 1;

	for (int k = 0; k < 3 && r == 1; k++) {
		r = kallsyms_addrs_pass(msg, sizeof(msg));
		if (r == 1)
			print_message("# kallsyms pass %d differed: %s\n", k + 1, msg);
	}
	if (r < 0) {
		print_message("# skip: /proc/kallsyms not readable here (%s)\n", strerror(-r));
		skip();
	}
	assert_int_equal(r, 0);
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

/* Prepared addresses resolve from the partial table, others from the whole one: the same
 * frames either way. */
static void test_sym_kernel_prepare(void **state)
{
	static const u64 want[] = { 0xffffffffc0a00401ull, 0xffffffff81003010ull };
	struct ptk_symbolizer *s = ptk_sym_new(KS, 0);
	struct ptk_frame f;
	char buf[128];

	assert_int_equal(ptk_sym_kernel_prepare(s, want, ARRAY_SIZE(want)), 0);
	assert_int_equal(ptk_sym_kernel(s, 0xffffffff81003010ull, &f), 0);
	ptk_frame_fmt(&f, PTK_FRAME_OFFSET | PTK_FRAME_MODULE, buf, sizeof(buf));
	assert_string_equal(buf, "schedule+0x10 [kernel]");
	assert_int_equal(ptk_sym_kernel(s, 0xffffffffc0a00401ull, &f), 0);
	ptk_frame_fmt(&f, PTK_FRAME_OFFSET | PTK_FRAME_MODULE, buf, sizeof(buf));
	assert_string_equal(buf, "ext4_iget+0x1 [ext4]");
	/* not prepared: do_one_initcall, not the prepared schedule below it */
	assert_int_equal(ptk_sym_kernel(s, 0xffffffff81002500ull, &f), 0);
	assert_string_equal(f.func, "do_one_initcall");
	assert_int_equal(f.off, 0x1500);
	/* the whole table is loaded now: a later prepare keeps using it */
	assert_int_equal(ptk_sym_kernel_prepare(s, want, 1), 0);
	assert_int_equal(ptk_sym_kernel(s, 0xffffffff81003100ull, &f), 0);
	assert_string_equal(f.func, "weak_fn");
	ptk_sym_free(s);

	/* a new set replaces the old; an unreadable file fails as ptk_sym_kernel would */
	s = ptk_sym_new(KS, 0);
	assert_int_equal(ptk_sym_kernel_prepare(s, want, 1), 0);
	assert_int_equal(ptk_sym_kernel_prepare(s, &want[1], 1), 0);
	assert_int_equal(ptk_sym_kernel(s, want[1], &f), 0);
	assert_string_equal(f.func, "schedule");
	ptk_sym_free(s);
	s = ptk_sym_new(KS "/nonexistent", 0);
	assert_int_equal(ptk_sym_kernel_prepare(s, want, 1), -ENOENT);
	assert_int_equal(ptk_sym_kernel(s, want[0], &f), -ENOENT);
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

	/* a kept frame outlives forget; one copy per distinct string */
	struct ptk_frame k1, k2;
	assert_int_equal(ptk_sym_user(s, getpid(), (u64)(uintptr_t)&sym_target, &k1), 0);
	assert_int_equal(ptk_sym_user(s, getpid(), (u64)(uintptr_t)&sym_target + 1, &k2), 0);
	ptk_sym_frame_keep(s, &k1);
	ptk_sym_frame_keep(s, &k2);
	assert_ptr_equal(k1.func, k2.func);
	assert_ptr_equal(k1.module, k2.module);

	/* forget drops the session; a later lookup builds a new one */
	ptk_sym_forget(s, getpid());
	assert_string_equal(k1.func, "sym_target");
	assert_int_equal(k2.off, 1);
	assert_string_equal(k2.module, exe);
	assert_non_null(k1.file);
	assert_non_null(strstr(k1.file, "test_sym.c"));
	assert_int_equal(ptk_sym_user(s, getpid(), (u64)(uintptr_t)&sym_target, &f), 0);
	assert_string_equal(f.func, "sym_target");
	ptk_sym_free(s);
}

/* A miss re-reads the maps (a library loaded since): the frames resolved before stay valid,
 * although this process's maps have changed meanwhile (the ELF files libdwfl mapped, a new
 * mapping). */
static void test_sym_user_rereport(void **state)
{
	struct ptk_symbolizer *s = ptk_sym_new(NULL, 0);
	struct ptk_frame f, miss;
	char copy[64];
	void *anon;

	assert_int_equal(ptk_sym_user(s, getpid(), (u64)(uintptr_t)&sym_target, &f), 0);
	snprintf(copy, sizeof(copy), "%s", f.func);
	anon = mmap(NULL, 1 << 16, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(anon != MAP_FAILED);
	assert_int_equal(ptk_sym_user(s, getpid(), (u64)(uintptr_t)anon + 64, &miss), -ENOENT);
	assert_string_equal(f.func, copy);
	assert_string_equal(f.func, "sym_target");
	assert_non_null(f.module);
	assert_non_null(strstr(f.module, "test_sym"));
	munmap(anon, 1 << 16);
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
		cmocka_unit_test(test_kallsyms_sorted),
		cmocka_unit_test(test_kallsyms_unsorted),
		cmocka_unit_test(test_kallsyms_errors),
		cmocka_unit_test(test_sym_kernel),
		cmocka_unit_test(test_kallsyms_addrs),
		cmocka_unit_test(test_kallsyms_addrs_live),
		cmocka_unit_test(test_sym_kernel_prepare),
		cmocka_unit_test(test_sym_user_self),
		cmocka_unit_test(test_sym_user_rereport),
		cmocka_unit_test(test_sym_user_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
