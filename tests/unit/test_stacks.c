// SPDX-License-Identifier: GPL-2.0
/* perf samples to folded stacks (source/perf/stacks.h): records built here in the
 * PERF_RECORD_SAMPLE layout (IP, TID, CALLCHAIN), kernel frames named from
 * tests/fixtures/sym_kallsyms, the thread's name from a PERF_RECORD_COMM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "source/perf/stacks.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN)

/* A sample of pid/tid whose callchain is ips[0..n), kernel mode. */
static struct perf_event_header *sample(u64 *buf, u32 pid, const u64 *ips, int n)
{
	struct perf_event_header *h = (void *)buf;
	u64 *p = buf + 1;
	u32 ids[2] = { pid, pid };

	*p++ = ips[1]; /* the sampled IP: the leaf */
	memcpy(p++, ids, sizeof(ids));
	*p++ = n;
	for (int i = 0; i < n; i++)
		*p++ = ips[i];
	*h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE,
					 .misc = PERF_RECORD_MISC_KERNEL,
					 .size = (__u16)((p - buf) * 8) };
	return h;
}

static struct perf_event_header *comm(u64 *buf, u32 pid, const char *name)
{
	struct perf_event_header *h = (void *)buf;
	u32 *v = (u32 *)(h + 1);

	v[0] = v[1] = pid;
	memset(v + 2, 0, 16);
	memcpy(v + 2, name, strlen(name));
	*h = (struct perf_event_header){ .type = PERF_RECORD_COMM, .size = 8 + 8 + 16 };
	return h;
}

static u64 count_of(struct ptk_folded *f, const char *stack)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->s[i].stack, stack))
			return f->s[i].count;
	return 0;
}

static void test_fold(void **state)
{
	struct ptk_symbolizer *sym = ptk_sym_new(PTK_FIXTURES "/sym_kallsyms", 0);
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_stacks *st = ptk_stacks_new(sym, f, ST, 0, false);
	struct ptk_stacks_counts n;
	u64 buf[64];
	/* leaf schedule+0x10 called from do_one_initcall+0x20, in ext4_iget's module */
	const u64 a[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffff81003010ull, 0xffffffff81001020ull };
	const u64 b[] = { (u64)PERF_CONTEXT_KERNEL, 0xffffffffc0a00410ull, 0xffffffff81001020ull };

	assert_int_equal(ptk_stacks_record(comm(buf, 4242, "worker"), st), 0);
	for (int i = 0; i < 3; i++)
		ptk_stacks_record(sample(buf, 4242, a, 3), st);
	ptk_stacks_record(sample(buf, 4242, b, 3), st);
	/* a truncated record does not fold */
	struct perf_event_header *h = sample(buf, 4242, a, 3);
	h->size = 16;
	ptk_stacks_record(h, st);
	ptk_stacks_counts(st, &n);
	assert_int_equal(n.samples, 4);
	assert_int_equal(n.bad, 1);
	assert_int_equal(f->total, 4);
	assert_int_equal(f->n, 2);
	/* root first: comm, then the kernel frames from the entry down to the leaf */
	assert_int_equal(count_of(f, "worker;do_one_initcall;schedule"), 3);
	assert_int_equal(count_of(f, "worker;do_one_initcall;ext4_iget"), 1);
	ptk_stacks_free(st);
	ptk_folded_free(f);
	ptk_sym_free(sym);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
