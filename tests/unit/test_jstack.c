// SPDX-License-Identifier: GPL-2.0
/* jstack thread dump parsing (a JDK 17 dump plus hand-written edge cases) and pool names. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/util.h"
#include "model/jstack.h"

static char *dump_text(void)
{
	size_t len;
	char *t = ptk_slurp(PTK_FIXTURES "/cswtop_jstack/dump.txt", &len);

	assert_non_null(t);
	return t;
}

/* 19 header lines, one without nid=: 18 threads, sorted by nid. */
static void test_parse_count_sorted(void **state)
{
	struct ptk_jdump d = { 0 };
	char *t = dump_text();

	assert_int_equal(ptk_jstack_parse(t, &d), 18);
	assert_int_equal(d.n, 18);
	for (int i = 1; i < d.n; i++)
		assert_true(d.t[i - 1].nid < d.t[i].nid);
	assert_null(ptk_jstack_find(&d, 0x1234));
	ptk_jstack_free(&d);
	free(t);
}

/* A Java thread: hex nid, #N, daemon, prio, state line; the main thread is not a daemon. */
static void test_java_threads(void **state)
{
	struct ptk_jdump d = { 0 };
	char *t = dump_text();
	const struct ptk_jthread *j;

	ptk_jstack_parse(t, &d);
	j = ptk_jstack_find(&d, 0x125c); /* 4700 */
	assert_non_null(j);
	assert_int_equal(j->nid, 4700);
	assert_string_equal(j->name, "order-processor-pool-1");
	assert_true(j->daemon);
	assert_int_equal(j->jid, 12);
	assert_int_equal(j->prio, 5);
	assert_string_equal(j->state, "TIMED_WAITING (sleeping)");
	j = ptk_jstack_find(&d, 0x125f);
	assert_string_equal(j->name, "order-processor-batch-2");
	j = ptk_jstack_find(&d, 0x124a);
	assert_string_equal(j->name, "main");
	assert_false(j->daemon);
	assert_int_equal(j->jid, 1);
	j = ptk_jstack_find(&d, 0x1251);
	assert_string_equal(j->name, "Reference Handler");
	assert_int_equal(j->prio, 10);
	assert_string_equal(j->state, "RUNNABLE");
	ptk_jstack_free(&d);
	free(t);
}

/* VM threads: no #N, no prio, no state line; names with '#'. */
static void test_vm_threads(void **state)
{
	struct ptk_jdump d = { 0 };
	char *t = dump_text();
	const struct ptk_jthread *j;

	ptk_jstack_parse(t, &d);
	j = ptk_jstack_find(&d, 0x1250);
	assert_string_equal(j->name, "VM Thread");
	assert_int_equal(j->jid, -1);
	assert_int_equal(j->prio, -1);
	assert_false(j->daemon);
	assert_string_equal(j->state, "");
	j = ptk_jstack_find(&d, 0x124b);
	assert_string_equal(j->name, "GC Thread#0");
	ptk_jstack_free(&d);
	free(t);
}

/* Names with spaces, brackets, quotes and a fake " nid=" inside; JDK 21 decimal nid. */
static void test_odd_names(void **state)
{
	struct ptk_jdump d = { 0 };
	char *t = dump_text();
	const struct ptk_jthread *j;

	ptk_jstack_parse(t, &d);
	j = ptk_jstack_find(&d, 0x1300);
	assert_string_equal(j->name, "[grpc] default-executor #3 (shard:a)");
	assert_true(j->daemon);
	assert_int_equal(j->jid, 21);
	assert_string_equal(j->state, "WAITING (parking)");
	j = ptk_jstack_find(&d, 0x1301);
	assert_string_equal(j->name, "say \"hi\" nid=0x1 thread");
	assert_false(j->daemon);
	assert_int_equal(j->prio, 7);
	assert_null(ptk_jstack_find(&d, 1));
	j = ptk_jstack_find(&d, 4711);
	assert_non_null(j);
	assert_string_equal(j->name, "jdk21-style");
	assert_int_equal(j->jid, 31);
	assert_true(j->daemon);
	ptk_jstack_free(&d);
	free(t);
}

static void test_not_a_dump(void **state)
{
	struct ptk_jdump d = { 0 };

	assert_int_equal(ptk_jstack_parse("12345: Unable to open socket file\n", &d), -EINVAL);
	assert_int_equal(d.n, 0);
	assert_int_equal(ptk_jstack_parse("", &d), -EINVAL);
	/* a control character in a name is shown as '?' */
	assert_int_equal(ptk_jstack_parse("\"a\tb\" #1 prio=5 tid=0x1 nid=0x10 runnable", &d), 1);
	assert_string_equal(d.t[0].name, "a?b");
	ptk_jstack_free(&d);
}

static void test_pool_name(void **state)
{
	static const struct {
		const char *in;
		int n;
		const char *out;
	} cases[] = {
		{ "alpha-1", 0, "alpha" },
		{ "alpha-12", 32, "alpha" },
		{ "order-processor-pool-7", 0, "order-processor-pool" },
		{ "order-processor", 0, "order-processor" }, /* kernel's 15-char cut */
		{ "pool-1-thread-3", 0, "pool-1-thread" },
		{ "GC task thread#0 (ParallelGC)", 0, "GC task thread (ParallelGC)" },
		{ "C2 CompilerThread0", 0, "C2 CompilerThread" },
		{ "ksoftirqd/1", 0, "ksoftirqd" },
		{ "kworker/0:1-events", 0, "kworker/0-events" },
		{ "VM Thread", 0, "VM Thread" },
		{ "worker1x", 0, "worker1x" }, /* not an index: no separator before it */
		{ "G1 Service", 0, "G1 Service" },
		{ "C1 CompilerThre", 0, "C1 CompilerThre" }, /* kernel cut of C1 CompilerThread0 */
		{ "C1 CompilerThread0", 0, "C1 CompilerThread" },
		{ "G1 Conc#0", 0, "G1 Conc" },
		{ "a-0b", 0, "a-b" },
		{ "12345", 0, "12345" },
		{ "0-foo", 0, "foo" },
		{ "grpc-default-executor-3", 10, "grpc-defau" },
		{ "gaia-service-worker-1", 5, "gaia" }, /* cut "gaia-", trailing '-' trimmed */
		{ "h\xc3\xa9llo-1", 2, "h\xc3\xa9" }, /* UTF-8 characters, not bytes */
	};
	char out[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ptk_pool_name(cases[i].in, cases[i].n, out, sizeof(out));
		assert_string_equal(out, cases[i].out);
	}
	ptk_pool_name("order-processor-pool-7", 0, out, 6);
	assert_string_equal(out, "order");
}

/* The dump's name for a TID: trusted (the JVM's own thread) or only when the kernel name is
 * its 15-character cut. nid 0x12d = 301: "order-processor-pool-1". */
static void test_name_of_tid(void **state)
{
	struct ptk_jdump d = { 0 };
	size_t len;
	char *text = ptk_slurp(PTK_FIXTURES "/cswtop_jvm/dump.txt", &len);

	assert_non_null(text);
	assert_true(ptk_jstack_parse(text, &d) > 0);
	assert_string_equal(ptk_jstack_name(&d, 0x12d, "whatever", true), "order-processor-pool-1");
	assert_string_equal(ptk_jstack_name(&d, 0x12d, "order-processor", false),
			    "order-processor-pool-1");
	assert_null(ptk_jstack_name(&d, 0x12d, "other-process", false));
	assert_null(ptk_jstack_name(&d, 1, "main", true)); /* not in the dump */
	ptk_jstack_free(&d);
	free(text);
	assert_null(ptk_jstack_name(&d, 0x12d, "x", true)); /* empty dump */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_count_sorted), cmocka_unit_test(test_java_threads),
		cmocka_unit_test(test_vm_threads),	   cmocka_unit_test(test_odd_names),
		cmocka_unit_test(test_not_a_dump),	   cmocka_unit_test(test_pool_name),
		cmocka_unit_test(test_name_of_tid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
