// SPDX-License-Identifier: GPL-2.0
/* Stacks symbolized together (ptk_sym_stacks: kernel stacks over a kallsyms written here, the
 * tracer's own frames left out, user stacks of this process) and folded (ptk_folded_join,
 * ptk_folded_write_by_count). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/folded.h"
#include "source/sym/sym.h"

/* A kallsyms with the symbols a stack taken in a tp_btf program starts with. */
static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81001000 t __traceiter_sched_switch\n"
			       "ffffffff81002000 T bpf_trace_run4\n"
			       "ffffffff81003000 T __schedule\n"
			       "ffffffff81004000 T schedule\n"
			       "ffffffff81005000 T do_nanosleep\n"
			       "ffffffff81006000 T bpf_prog_run_helper\n"
			       "ffffffffa0000000 t bpf_prog_6deef7357e7b4530_on_switch\t[bpf]\n";

static char procdir[64];

static int setup(void **state)
{
	char path[96];
	FILE *f;

	snprintf(procdir, sizeof(procdir), "/tmp/ptk-test-stacks.XXXXXX");
	assert_non_null(mkdtemp(procdir));
	snprintf(path, sizeof(path), "%s/kallsyms", procdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(kallsyms, f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/kallsyms", procdir);
	unlink(path);
	rmdir(procdir);
	return 0;
}

static void test_kernel_stacks(void **state)
{
	struct ptk_symbolizer *s = ptk_sym_new(procdir, 0);
	/* leaf first: the program, bpf_trace_run4, the tracepoint, then the task's own frames;
	 * the second stack has a bpf_prog_ name below its leaf, which stays */
	const u64 a[] = { 0xffffffffa0000040ull, 0xffffffff81002010ull, 0xffffffff81001008ull,
			  0xffffffff81003100ull, 0xffffffff81004020ull, 0xffffffff81005030ull };
	const u64 b[] = { 0xffffffff81003200ull, 0xffffffff81006004ull, 0xffffffff80000000ull };
	struct ptk_sym_stack st[] = { { .ips = a, .n = 6 },
				      { .ips = b, .n = 3 },
				      { .ips = NULL, .n = 0 } };

	ptk_sym_stacks(s, st, 3, PTK_SYM_SKIP_TRACER);
	assert_int_equal(st[0].nf, 3);
	assert_string_equal(st[0].f[0].func, "__schedule");
	assert_int_equal(st[0].f[0].off, 0x100);
	assert_string_equal(st[0].f[1].func, "schedule");
	assert_int_equal(st[0].f[1].off, 0x20);
	assert_string_equal(st[0].f[2].func, "do_nanosleep");
	assert_string_equal(st[0].f[2].module, "kernel");
	assert_int_equal(st[1].nf, 3);
	assert_string_equal(st[1].f[0].func, "__schedule");
	assert_string_equal(st[1].f[1].func, "bpf_prog_run_helper");
	/* below the first symbol: unresolved, its address kept */
	assert_null(st[1].f[2].func);
	assert_int_equal(st[1].f[2].addr, 0xffffffff80000000ull);
	assert_int_equal(st[2].nf, 0);
	ptk_sym_stacks_free(st, 3);
	assert_null(st[0].f);

	/* without the flag the tracer's frames are the stack's first */
	struct ptk_sym_stack one = { .ips = a, .n = 6 };
	ptk_sym_stacks(s, &one, 1, 0);
	assert_int_equal(one.nf, 6);
	assert_string_equal(one.f[0].func, "bpf_prog_6deef7357e7b4530_on_switch");
	assert_string_equal(one.f[0].module, "bpf");
	assert_string_equal(one.f[1].func, "bpf_trace_run4");
	assert_string_equal(one.f[2].func, "__traceiter_sched_switch");
	ptk_sym_stacks_free(&one, 1);
	ptk_sym_free(s);
}

__attribute__((noinline, used)) int stacks_target(int x);
__attribute__((noinline, used)) int stacks_target(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 5 + 2;
}

static void test_user_stacks(void **state)
{
	struct ptk_symbolizer *s = ptk_sym_new(procdir, 0);
	u64 self = (u64)(uintptr_t)stacks_target + 4, libc = (u64)(uintptr_t)gnu_get_libc_version;
	const u64 u1[] = { self, libc }, u2[] = { libc }, k[] = { 0xffffffff81004010ull };
	/* two stacks of this process around a kernel one: the process's modules are dropped
	 * after its last stack, its frames outlive that */
	struct ptk_sym_stack st[] = { { .pid = getpid(), .ips = u1, .n = 2 },
				      { .ips = k, .n = 1 },
				      { .pid = getpid(), .ips = u2, .n = 1 } };

	ptk_sym_stacks(s, st, 3, PTK_SYM_SKIP_TRACER);
	assert_int_equal(st[0].nf, 2);
	assert_string_equal(st[0].f[0].func, "stacks_target");
	assert_int_equal(st[0].f[0].off, 4);
	/* a function of libc (one the sanitizers do not wrap) */
	assert_string_equal(st[0].f[1].func, "gnu_get_libc_version");
	assert_non_null(strstr(st[0].f[1].module, "libc.so"));
	assert_int_equal(st[2].nf, 1);
	assert_string_equal(st[2].f[0].func, st[0].f[1].func);
	assert_int_equal(st[1].nf, 1);
	assert_string_equal(st[1].f[0].func, "schedule");
	ptk_sym_stacks_free(st, 3);
	ptk_sym_free(s);
}

static void test_folded_join(void **state)
{
	const char *fr[] = { "comm;x", "main", "read\nv2" };
	char *j = ptk_folded_join(fr, 3);

	/* the separators inside a frame would split it: they become ':' */
	assert_string_equal(j, "comm:x;main;read:v2");
	free(j);
	j = ptk_folded_join(fr, 0);
	assert_string_equal(j, "");
	free(j);
}

static void test_folded_by_count(void **state)
{
	struct ptk_folded *f = ptk_folded_new();
	const char *a[] = { "a", "x" }, *b[] = { "b", "y" }, *c[] = { "c" };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ptk_folded_add(f, a, 2, 30);
	ptk_folded_add(f, b, 2, 10);
	ptk_folded_add(f, a, 2, 5); /* the same stack again: 35 */
	ptk_folded_add(f, c, 1, 10);
	assert_int_equal(f->n, 3);
	assert_int_equal(f->total, 55);
	assert_int_equal(ptk_folded_write_by_count(f, out), 0);
	fclose(out);
	/* lightest first, equal counts alphabetically */
	assert_string_equal(buf, "b;y 10\nc 10\na;x 35\n");
	free(buf);
	/* the index still finds the stacks after the sort */
	ptk_folded_add(f, c, 1, 1);
	assert_int_equal(f->n, 3);
	ptk_folded_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_stacks),
		cmocka_unit_test(test_user_stacks),
		cmocka_unit_test(test_folded_join),
		cmocka_unit_test(test_folded_by_count),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
