// SPDX-License-Identifier: GPL-2.0
/* ptk strace's tables and builders: the syscall table against the kernel headers, trace
 * classes and -e trace= sets, the seccomp-bpf filter (run by a small classic-BPF
 * interpreter over every number), strace's string quoting, flag and signal names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ptrace/decode.h"
#include "source/ptrace/ptrace.h"
#include "source/ptrace/syscalls.h"
#include "source/ptrace/xlat.h"

/* every __NR_ of the installed uapi header has the same number and name in the table */
static void test_table_matches_unistd(void **state)
{
	FILE *f = fopen("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "r");
	char line[256], name[128];
	int nr, n = 0;

	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "#define __NR_%127s %d", name, &nr) != 2)
			continue;
		const struct ptk_syscall *sc = ptk_syscall_get(nr);
		assert_non_null(sc);
		assert_string_equal(sc->name, name);
		assert_true(sc->nargs <= 6);
		n++;
	}
	fclose(f);
	assert_true(n > 350);
	assert_int_equal(ptk_syscall_lookup("openat"), 257);
	assert_int_equal(ptk_syscall_lookup("clone3"), 435);
	assert_int_equal(ptk_syscall_lookup("nosuchcall"), -1);
	assert_null(ptk_syscall_get(400)); /* unassigned on x86_64 */
}

static void test_classes_and_sets(void **state)
{
	bool sel[PTK_NSYSCALLS];
	const char *bad = NULL;
	char e1[] = "%file", e2[] = "openat,%network", e3[] = "!%desc", e4[] = "open,bogus";

	assert_true(ptk_syscalls[257].cls & TF);
	assert_true(ptk_syscalls[257].cls & TD);
	assert_false(ptk_syscalls[0].cls & TF);
	assert_true(ptk_syscalls[228].cls & TCL); /* clock_gettime */
	assert_true(ptk_syscalls[105].cls & TC); /* setuid */
	assert_true(ptk_syscalls[9].cls & TM); /* mmap */
	assert_int_equal(ptk_syscall_parse_set(e1, sel, &bad), 0);
	assert_true(sel[257] && sel[4] && !sel[0] && !sel[1]);
	assert_int_equal(ptk_syscall_parse_set(e2, sel, &bad), 0);
	assert_true(sel[257] && sel[41] && sel[42] && !sel[2]);
	assert_int_equal(ptk_syscall_parse_set(e3, sel, &bad), 0);
	assert_true(!sel[0] && !sel[257] && sel[39] && !sel[400]);
	assert_int_equal(ptk_syscall_parse_set(e4, sel, &bad), -EINVAL);
	assert_string_equal(bad, "bogus");
}

/* classic BPF, the subset the builder emits */
static unsigned run_bpf(const struct sock_filter *f, int n, const struct seccomp_data *d)
{
	unsigned a = 0;

	for (int pc = 0; pc < n; pc++) {
		const struct sock_filter *i = &f[pc];
		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			memcpy(&a, (const char *)d + i->k, 4);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > i->k ? i->jt : i->jf;
			break;
		case BPF_RET | BPF_K:
			return i->k;
		default:
			fail_msg("unexpected BPF code %#x", i->code);
		}
	}
	fail_msg("fell off the program");
	return 0;
}

static void test_seccomp_filter(void **state)
{
	static bool sel[PTK_NSYSCALLS];
	struct sock_filter *f;
	struct seccomp_data d = { .arch = AUDIT_ARCH_X86_64 };
	int n;

	/* singles, a range, both ends of the table */
	sel[0] = sel[1] = sel[2] = sel[3] = true;
	sel[257] = sel[3 + 50] = sel[PTK_NSYSCALLS - 1] = true;
	n = ptk_seccomp_build(sel, &f);
	assert_true(n > 0 && n <= BPF_MAXINSNS);
	for (int nr = 0; nr < PTK_NSYSCALLS + 10; nr++) {
		d.nr = nr;
		unsigned want =
			nr < PTK_NSYSCALLS && sel[nr] ? SECCOMP_RET_TRACE : SECCOMP_RET_ALLOW;
		assert_int_equal(run_bpf(f, n, &d), want);
	}
	d.nr = 0x40000000 + 1; /* x32 ABI */
	assert_int_equal(run_bpf(f, n, &d), SECCOMP_RET_TRACE);
	d.arch = AUDIT_ARCH_I386;
	d.nr = 5;
	assert_int_equal(run_bpf(f, n, &d), SECCOMP_RET_TRACE);
	free(f);

	/* every syscall selected: still within the BPF size limit */
	for (int i = 0; i < PTK_NSYSCALLS; i++)
		sel[i] = (i % 2) == 0;
	n = ptk_seccomp_build(sel, &f);
	assert_true(n > 0 && n <= BPF_MAXINSNS);
	d.arch = AUDIT_ARCH_X86_64;
	for (int nr = 0; nr < PTK_NSYSCALLS; nr++) {
		d.nr = nr;
		assert_int_equal(run_bpf(f, n, &d), nr % 2 ? SECCOMP_RET_ALLOW : SECCOMP_RET_TRACE);
	}
	free(f);
}

static void test_quote(void **state)
{
	struct ptk_sbuf sb = { 0 };
	const unsigned char s[] = "a\n\t\"\\\0"
				  "1\377\033x";

	ptk_dec_quote(&sb, s, sizeof(s) - 1, true);
	/* \0 before a digit takes 3 digits; \377 \33 as strace */
	assert_string_equal(sb.p, "\"a\\n\\t\\\"\\\\\\0001\\377\\33x\"...");
	ptk_sb_reset(&sb);
	ptk_dec_quote(&sb, (const unsigned char *)"", 0, false);
	assert_string_equal(sb.p, "\"\"");
	ptk_sb_free(&sb);
}

static void test_flags_and_signals(void **state)
{
	char buf[256];

	assert_string_equal(ptk_xlat_flags(&ptk_x_open_flags, O_CREAT | O_TRUNC | O_CLOEXEC, NULL,
					   buf, sizeof(buf)),
			    "O_CREAT|O_TRUNC|O_CLOEXEC");
	assert_string_equal(ptk_xlat_flags(&ptk_x_prot, 0, "PROT_NONE", buf, sizeof(buf)),
			    "PROT_NONE");
	assert_string_equal(
		ptk_xlat_flags(&ptk_x_prot, 0x1 | 0x4 | 0x100000, NULL, buf, sizeof(buf)),
		"PROT_READ|PROT_EXEC|0x100000");
	assert_string_equal(ptk_signal_name(10), "SIGUSR1");
	assert_string_equal(ptk_signal_abbrev(32), "RTMIN");
	assert_string_equal(ptk_signal_abbrev(34), "RT_2");
	assert_int_equal(ptk_signal_parse("SIGCHLD"), 17);
	assert_int_equal(ptk_signal_parse("usr2"), 12);
	assert_int_equal(ptk_signal_parse("9"), 9);
	assert_int_equal(ptk_signal_parse("NOPE"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_unistd),
		cmocka_unit_test(test_classes_and_sets),
		cmocka_unit_test(test_seccomp_filter),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_flags_and_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
