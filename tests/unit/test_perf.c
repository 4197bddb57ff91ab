// SPDX-License-Identifier: GPL-2.0
/* perf_event source: event names, multiplex scaling, the ring buffer reader over a synthetic
 * buffer (wraparound, lost records, corruption), sample parsing, perf stat's derived metrics,
 * top functions from folded stacks, the JIT map in the symbolizer, and a live software
 * counter on this process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "source/perf/perf.h"
#include "source/perf/pstat.h"
#include "source/perf/ptop.h"
#include "source/sym/sym.h"

static void test_event_names(void **state)
{
	struct perf_event_attr a;

	assert_int_equal(ptk_perf_event_parse("task-clock", &a), 0);
	assert_int_equal(a.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(a.size, sizeof(a));
	assert_int_equal(ptk_perf_event_parse("cs", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(ptk_perf_event_parse("faults", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(ptk_perf_event_parse("minor-faults", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	assert_int_equal(ptk_perf_event_parse("major-faults", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	assert_int_equal(ptk_perf_event_parse("cpu-cycles", &a), 0);
	assert_int_equal(a.type, PERF_TYPE_HARDWARE);
	assert_int_equal(a.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(ptk_perf_event_parse("branch-misses", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_HW_BRANCH_MISSES);

	/* cache: id | op << 8 | result << 16 */
	assert_int_equal(ptk_perf_event_parse("L1-dcache-load-misses", &a), 0);
	assert_int_equal(a.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(a.config, PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
					   PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	assert_int_equal(ptk_perf_event_parse("LLC-loads", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_READ << 8 |
					   PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
	assert_int_equal(ptk_perf_event_parse("dTLB-store-misses", &a), 0);
	assert_int_equal(a.config, PERF_COUNT_HW_CACHE_DTLB | PERF_COUNT_HW_CACHE_OP_WRITE << 8 |
					   PERF_COUNT_HW_CACHE_RESULT_MISS << 16);

	/* raw and modifiers */
	assert_int_equal(ptk_perf_event_parse("r01c2", &a), 0);
	assert_int_equal(a.type, PERF_TYPE_RAW);
	assert_int_equal(a.config, 0x1c2);
	assert_int_equal(ptk_perf_event_parse("cycles:u", &a), 0);
	assert_true(a.exclude_kernel && !a.exclude_user);
	assert_int_equal(ptk_perf_event_parse("page-faults:k", &a), 0);
	assert_true(!a.exclude_kernel && a.exclude_user);
	assert_int_equal(ptk_perf_event_parse("cycles:uk", &a), 0);
	assert_true(!a.exclude_kernel && !a.exclude_user);

	/* bad names */
	assert_int_equal(ptk_perf_event_parse("cycle", &a), -EINVAL);
	assert_int_equal(ptk_perf_event_parse("", &a), -EINVAL);
	assert_int_equal(ptk_perf_event_parse("cycles:x", &a), -EINVAL);
	assert_int_equal(ptk_perf_event_parse("L1-dcache-bogus", &a), -EINVAL);
	assert_int_equal(ptk_perf_event_parse("sched:../../etc", &a), -EINVAL);
	assert_int_equal(ptk_perf_event_parse("rxyz", &a), -EINVAL);
}

static void test_tracepoint(void **state)
{
	struct perf_event_attr a;
	char buf[32];
	int err = ptk_perf_event_parse("sched:sched_switch", &a);

	if (err == -EPERM || err == -EACCES) {
		skip(); /* tracefs cannot be mounted by this user */
		return;
	}
	assert_int_equal(err, 0);
	assert_int_equal(a.type, PERF_TYPE_TRACEPOINT);
	/* the id is the one tracefs shows */
	assert_true(ptk_read_file("/sys/kernel/tracing/events/sched/sched_switch/id", buf,
				  sizeof(buf)) > 0 ||
		    ptk_read_file("/sys/kernel/debug/tracing/events/sched/sched_switch/id", buf,
				  sizeof(buf)) > 0);
	assert_int_equal(a.config, strtoull(buf, NULL, 10));
	assert_int_equal(ptk_perf_event_parse("sched:no_such_event", &a), -ENOENT);
}

static void test_scale(void **state)
{
	struct ptk_perf_count c = { .val = 1000, .ena = 200, .run = 100 }, a, b, d;
	double v, pct;

	/* multiplexed: counted half of the time -> doubled */
	assert_true(ptk_perf_scale(&c, &v, &pct));
	assert_float_equal(v, 2000, 1e-9);
	assert_float_equal(pct, 50, 1e-9);
	/* not multiplexed */
	c = (struct ptk_perf_count){ 1000, 300, 300 };
	assert_true(ptk_perf_scale(&c, &v, &pct));
	assert_float_equal(v, 1000, 1e-9);
	assert_float_equal(pct, 100, 1e-9);
	/* never ran: <not counted> */
	c = (struct ptk_perf_count){ 0, 300, 0 };
	assert_false(ptk_perf_scale(&c, &v, &pct));
	assert_float_equal(pct, 0, 1e-9);
	c = (struct ptk_perf_count){ 0, 0, 0 };
	assert_false(ptk_perf_scale(&c, &v, &pct));
	assert_float_equal(pct, 100, 1e-9);
	/* interval deltas */
	a = (struct ptk_perf_count){ 50, 40, 30 };
	b = (struct ptk_perf_count){ 20, 10, 10 };
	ptk_perf_count_sub(&a, &b, &d);
	assert_int_equal(d.val, 30);
	assert_int_equal(d.ena, 30);
	assert_int_equal(d.run, 20);
	ptk_perf_count_sub(&b, &a, &d); /* a reset reads 0, not a wrap */
	assert_int_equal(d.val, 0);
}

/* ---- ring buffer ---- */

#define PAGE 4096
#define DATA 256

struct seen {
	int n;
	u32 types[64];
	u64 first[64]; /* first u64 of the payload */
	int stop_after;
};

static int collect(const struct perf_event_header *h, void *arg)
{
	struct seen *s = arg;

	s->types[s->n] = h->type;
	memcpy(&s->first[s->n], h + 1, sizeof(u64));
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

/* Write a record of type/size at absolute position pos (wrapping), payload value v. */
static u64 put(char *data, u64 pos, u32 type, uint16_t size, u64 v)
{
	char rec[128] = { 0 };
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), &v, sizeof(v));
	if (type == PERF_RECORD_LOST) {
		u64 id = 7;
		memcpy(rec + sizeof(h), &id, 8);
		memcpy(rec + sizeof(h) + 8, &v, 8);
	}
	for (uint16_t i = 0; i < size; i++)
		data[(pos + i) % DATA] = rec[i];
	return pos + size;
}

static void test_ring(void **state)
{
	char *mem = aligned_alloc(PAGE, 2 * PAGE); /* size: a multiple of the alignment */
	struct perf_event_mmap_page *pg = (void *)mem;
	char *data = mem + PAGE;
	struct ptk_perf_ring r;
	struct seen s = { 0 };
	u64 pos;

	memset(mem, 0, PAGE + DATA);
	ptk_perf_ring_init(&r, mem, PAGE, DATA);
	/* start near the end so the third record wraps around */
	pg->data_tail = pos = 200;
	pos = put(data, pos, PERF_RECORD_SAMPLE, 24, 111);
	pos = put(data, pos, PERF_RECORD_LOST, 24, 5); /* id, lost = 5 */
	pos = put(data, pos, PERF_RECORD_SAMPLE, 40, 333); /* at 248: wraps */
	pos = put(data, pos, PERF_RECORD_LOST_SAMPLES, 16, 2);
	pg->data_head = pos;
	assert_int_equal(ptk_perf_ring_read(&r, collect, &s), 4);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.types[0], PERF_RECORD_SAMPLE);
	assert_int_equal(s.first[0], 111);
	assert_int_equal(s.types[2], PERF_RECORD_SAMPLE);
	assert_int_equal(s.first[2], 333); /* read whole across the wrap */
	assert_int_equal(r.lost, 7);
	assert_int_equal(r.lost_records, 2);
	assert_int_equal(pg->data_tail, pos);
	/* nothing new: nothing read */
	assert_int_equal(ptk_perf_ring_read(&r, collect, &s), 0);

	/* early stop leaves the rest for the next call */
	s = (struct seen){ .stop_after = 1 };
	pos = put(data, pos, PERF_RECORD_SAMPLE, 16, 1);
	pos = put(data, pos, PERF_RECORD_SAMPLE, 16, 2);
	pg->data_head = pos;
	assert_int_equal(ptk_perf_ring_read(&r, collect, &s), 1);
	s.stop_after = 0;
	assert_int_equal(ptk_perf_ring_read(&r, collect, &s), 1);
	assert_int_equal(s.first[1], 2);

	/* a corrupt record (size 0) ends the read with -EIO and drops the rest: no spin */
	pos = put(data, pos, PERF_RECORD_SAMPLE, 16, 3);
	{
		struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 0 };
		memcpy(data + pos % DATA, &h, sizeof(h));
	}
	pg->data_head = pos + 64;
	s = (struct seen){ 0 };
	assert_int_equal(ptk_perf_ring_read(&r, collect, &s), -EIO);
	assert_int_equal(s.n, 1);
	assert_int_equal(pg->data_tail, pos + 64);
	ptk_perf_ring_unmap(&r);
	free(mem);
}

static void test_sample_parse(void **state)
{
	/* IP | TID | TIME | CPU | PERIOD | CALLCHAIN | REGS_USER(ip, sp) | STACK_USER */
	u64 buf[64];
	struct perf_event_header *h = (void *)buf;
	u64 *p = buf + 1, mask = (1ull << 7) | (1ull << 8); /* SP, IP */
	u64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
		 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
		 PERF_SAMPLE_STACK_USER;
	struct ptk_perf_sample s;

	*p++ = 0x401000; /* ip */
	*p++ = 42ull | 43ull << 32; /* pid, tid */
	*p++ = 123456789; /* time */
	*p++ = 1; /* cpu, res */
	*p++ = 10101; /* period */
	*p++ = 3; /* nr */
	*p++ = (u64)PERF_CONTEXT_USER;
	*p++ = 0x401000;
	*p++ = 0x401234;
	*p++ = PERF_SAMPLE_REGS_ABI_64;
	*p++ = 0x7ffc0000; /* SP (bit 7 comes first) */
	*p++ = 0x401000; /* IP */
	*p++ = 16; /* stack size */
	*p++ = 0xaaaa;
	*p++ = 0xbbbb;
	*p++ = 8; /* dyn_size */
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (char *)p - (char *)buf;
	assert_int_equal(ptk_perf_sample_parse(h, st, mask, &s), 0);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 42);
	assert_int_equal(s.tid, 43);
	assert_int_equal(s.time, 123456789);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.period, 10101);
	assert_int_equal(s.nr, 3);
	assert_int_equal(s.ips[2], 0x401234);
	assert_int_equal(s.regs[7], 0x7ffc0000);
	assert_int_equal(s.regs[8], 0x401000);
	assert_int_equal(s.stack_size, 8);
	assert_int_equal(((const u64 *)s.stack)[1], 0xbbbb);
	assert_true(s.user);
	/* truncated: -EINVAL, never a read past the record */
	h->size -= 16;
	assert_int_equal(ptk_perf_sample_parse(h, st, mask, &s), -EINVAL);
	h->size = sizeof(*h) + 8 * 4;
	assert_int_equal(ptk_perf_sample_parse(h, st, mask, &s), -EINVAL);
	/* an unknown sample_type bit is refused */
	assert_int_equal(ptk_perf_sample_parse(h, PERF_SAMPLE_RAW, 0, &s), -ENOTSUP);
}

/* ---- perf stat derived metrics ---- */

static void row(struct ptk_pstat_row *w, struct perf_event_attr *a, const char *name, u64 val,
		u64 ena, u64 run)
{
	struct ptk_perf_count c = { val, ena, run };

	assert_int_equal(ptk_perf_event_parse(name, a), 0);
	ptk_pstat_row_set(w, name, a, &c, 0);
}

static void test_metrics(void **state)
{
	struct perf_event_attr a[8];
	struct ptk_pstat_row w[8];
	char buf[64];

	row(&w[0], &a[0], "task-clock", 2000000000, 1, 1); /* 2 s of CPU */
	row(&w[1], &a[1], "cycles", 5000000000, 100, 50); /* multiplexed: x2 */
	row(&w[2], &a[2], "instructions", 12000000000, 100, 100);
	row(&w[3], &a[3], "branches", 1000000, 1, 1);
	row(&w[4], &a[4], "branch-misses", 25000, 1, 1);
	row(&w[5], &a[5], "page-faults", 3000, 1, 1);
	row(&w[6], &a[6], "L1-dcache-loads", 400, 1, 1);
	row(&w[7], &a[7], "L1-dcache-load-misses", 100, 1, 1);
	ptk_pstat_metrics(w, 8, 1e9); /* over 1 s of wall time */

	assert_string_equal(w[0].unit, "msec");
	assert_float_equal(w[0].val, 2000, 1e-9);
	assert_string_equal(w[0].munit, "CPUs utilized");
	assert_float_equal(w[0].mval, 2.0, 1e-9);
	ptk_pstat_metric_fmt(&w[0], buf, sizeof(buf));
	assert_string_equal(buf, "   2.000");

	assert_float_equal(w[1].raw, 1e10, 1);
	assert_float_equal(w[1].pct, 50, 1e-9);
	assert_string_equal(w[1].munit, "GHz");
	assert_float_equal(w[1].mval, 5.0, 1e-9); /* 1e10 cycles / 2e9 ns */

	assert_string_equal(w[2].munit, "insn per cycle");
	assert_float_equal(w[2].mval, 1.2, 1e-9); /* scaled cycles are the base */
	ptk_pstat_metric_fmt(&w[2], buf, sizeof(buf));
	assert_string_equal(buf, "   1.20 ");

	assert_string_equal(w[3].munit, "K/sec"); /* 1e6 / 2 s of task-clock */
	assert_float_equal(w[3].mval, 500, 1e-9);
	assert_string_equal(w[4].munit, "of all branches");
	assert_float_equal(w[4].mval, 2.5, 1e-9);
	ptk_pstat_metric_fmt(&w[4], buf, sizeof(buf));
	assert_string_equal(buf, "   2.50%");
	assert_string_equal(w[5].munit, "K/sec");
	assert_float_equal(w[5].mval, 1.5, 1e-9);
	assert_string_equal(w[7].munit, "of all L1-dcache accesses");
	assert_float_equal(w[7].mval, 25, 1e-9);

	/* without task-clock: no rate, no GHz; not supported rows get no metric */
	ptk_pstat_row_set(&w[0], "cycles", &a[1], NULL, -ENOENT);
	assert_int_equal(w[0].status, PTK_PSTAT_NOT_SUPPORTED);
	row(&w[1], &a[5], "page-faults", 10, 1, 1);
	ptk_pstat_metrics(w, 2, 1e9);
	assert_false(w[0].has_metric);
	assert_false(w[1].has_metric);
	/* a rate below 1000/s has no K */
	row(&w[0], &a[0], "task-clock", 1000000000, 1, 1);
	row(&w[1], &a[5], "page-faults", 10, 1, 1);
	ptk_pstat_metrics(w, 2, 1e9);
	assert_string_equal(w[1].munit, "/sec");
	assert_float_equal(w[1].mval, 10, 1e-9);
}

static void test_top(void **state)
{
	struct ptk_folded *f = ptk_folded_new();
	struct ptk_top_fn *t;
	int n;

	ptk_folded_add_joined(f, "burn;main;burn_a", 70);
	ptk_folded_add_joined(f, "burn;main;burn_b", 20);
	ptk_folded_add_joined(f, "burn;main;burn_b;helper", 10);
	ptk_folded_add_joined(f, "other;rec;rec;rec", 5); /* recursion: total counted once */
	ptk_folded_add_joined(f, "idle", 3); /* only the comm: no function */
	n = ptk_top_functions(f, &t);
	assert_int_equal(n, 5);
	assert_string_equal(t[0].name, "burn_a");
	assert_int_equal(t[0].self, 70);
	assert_int_equal(t[0].total, 70);
	assert_string_equal(t[1].name, "burn_b");
	assert_int_equal(t[1].self, 20);
	assert_int_equal(t[1].total, 30);
	assert_string_equal(t[2].name, "helper");
	assert_string_equal(t[3].name, "rec");
	assert_int_equal(t[3].self, 5);
	assert_int_equal(t[3].total, 5);
	assert_string_equal(t[4].name, "main");
	assert_int_equal(t[4].self, 0);
	assert_int_equal(t[4].total, 100);
	ptk_top_free(t, n);
	ptk_folded_free(f);
}

/* ---- JIT map in the shared symbolizer ---- */

static void test_jit_map(void **state)
{
	char path[64];
	FILE *f;
	struct ptk_symbolizer *s = ptk_sym_new(NULL, 0);
	struct ptk_frame fr;
	/* anonymous memory: in no ELF module of this process */
	char *code = malloc(0x400);
	u64 base = (u64)(uintptr_t)code;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%" PRIx64 " 100 LazyCompile:~fib /app.js:1\n", base + 0x100);
	fprintf(f, "%" PRIx64 " 80 jitted_b\n", base);
	fprintf(f, "garbage line\n");
	fclose(f);
	assert_int_equal(ptk_sym_user(s, getpid(), base + 0x150, &fr), 0);
	assert_string_equal(fr.func, "LazyCompile:~fib /app.js:1");
	assert_int_equal(fr.off, 0x50);
	assert_string_equal(fr.module, path);
	assert_int_equal(ptk_sym_user(s, getpid(), base + 0x10, &fr), 0);
	assert_string_equal(fr.func, "jitted_b");
	/* in the gap between them and past the end: not resolved */
	assert_int_not_equal(ptk_sym_user(s, getpid(), base + 0x90, &fr), 0);
	assert_int_not_equal(ptk_sym_user(s, getpid(), base + 0x200, &fr), 0);
	unlink(path);
	ptk_sym_free(s);
	free(code);
}

/* ---- a live software counter ---- */

static void test_live_counter(void **state)
{
	struct ptk_perf_evsel e = { 0 };
	struct ptk_perf_pair pair = { .pid = 0, .cpu = -1 };
	struct ptk_perf_count c;
	volatile char *mem;
	int err;

	assert_int_equal(ptk_perf_event_parse("minor-faults", &e.attr), 0);
	e.attr.exclude_kernel = 0;
	err = ptk_perf_evsel_open(&e, &pair, 1);
	if (err == -EACCES || err == -EPERM || err == -ENOSYS) {
		ptk_perf_evsel_close(&e);
		skip(); /* perf_event_open not allowed here */
		return;
	}
	assert_int_equal(err, 0);
	/* touch 256 fresh pages: at least 256 minor faults */
	mem = mmap(NULL, 256 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 256; i++)
		mem[i * 4096] = 1;
	assert_int_equal(ptk_perf_evsel_read(&e, &c), 0);
	assert_true(c.val >= 256);
	assert_true(c.val < 256 + 2000);
	assert_true(c.ena > 0 && c.run == c.ena);
	munmap((void *)mem, 256 * 4096);
	ptk_perf_evsel_close(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_names),  cmocka_unit_test(test_tracepoint),
		cmocka_unit_test(test_scale),	     cmocka_unit_test(test_ring),
		cmocka_unit_test(test_sample_parse), cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_top),	     cmocka_unit_test(test_jit_map),
		cmocka_unit_test(test_live_counter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
