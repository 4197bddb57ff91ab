// SPDX-License-Identifier: GPL-2.0
/* The aggregation engine without BPF: the language (filters, key lists, linear buckets), the
 * probes and their fields resolved against tracepoint formats (as this kernel's tracefs
 * writes them), the program's configuration, and the rows ordered and printed (text and
 * JSON), histograms included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/agg.h"
#include "model/hist.h"
#include "output/sink.h"
#include "source/bpf/agg.h"

/* events/<cat>/<event>/format of a 6.x x86_64 kernel (fields only) */
static const char fmt_switch[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s\", REC->prev_comm\n";
static const char fmt_wakeup[] =
	"name: sched_wakeup\nID: 375\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s\", REC->comm\n";
static const char fmt_sys_enter[] =
	"name: sys_enter\nID: 21\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld\", REC->id\n";
static const char fmt_openat[] =
	"name: sys_enter_openat\nID: 782\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"dfd: 0x%08lx\", REC->dfd\n";
static const char fmt_rq_complete[] =
	"name: block_rq_complete\nID: 1234\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
	"\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%d,%d\", REC->dev\n";

static void probe(struct ptk_agg_probe *p, const char *spec, bool with_field, const char *fmt)
{
	char err[256];

	assert_int_equal(ptk_agg_probe_parse(spec, with_field, p, err, sizeof(err)), 0);
	assert_int_equal(ptk_tp_format_parse(fmt, &p->fmt), 0);
	p->have_fmt = true;
}

/* ---- the language ---- */

static void test_filter(void **state)
{
	struct ptk_agg_filter f;
	char err[256], s[128];
	s64 v;

	assert_int_equal(ptk_agg_filter_parse(" prev_pid == 3 ", &f, err, sizeof(err)), 0);
	assert_string_equal(f.field, "prev_pid");
	assert_int_equal(f.op, PTK_AGG_EQ);
	assert_string_equal(f.value, "3");
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 3);
	assert_int_equal(ptk_agg_filter_parse("a<=b", &f, err, sizeof(err)), 0);
	assert_int_equal(f.op, PTK_AGG_LE);
	assert_string_equal(f.field, "a");
	assert_int_equal(ptk_agg_filter_parse("nr>0x1f", &f, err, sizeof(err)), 0);
	assert_int_equal(f.op, PTK_AGG_GT);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 31);
	/* the operators are looked for in the order == != <= >= < >, not by position */
	assert_int_equal(ptk_agg_filter_parse("x<y==z", &f, err, sizeof(err)), 0);
	assert_int_equal(f.op, PTK_AGG_EQ);
	assert_string_equal(f.field, "x<y");
	assert_string_equal(f.value, "z");

	/* strings: quotes dropped, == and != only */
	assert_int_equal(ptk_agg_filter_parse("comm != 'my task'", &f, err, sizeof(err)), 0);
	assert_int_equal(f.op, PTK_AGG_NE);
	assert_int_equal(ptk_agg_filter_str(&f, s, sizeof(s), err, sizeof(err)), 0);
	assert_string_equal(s, "my task");
	assert_int_equal(ptk_agg_filter_parse("comm==\"a\"", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_str(&f, s, sizeof(s), err, sizeof(err)), 0);
	assert_string_equal(s, "a");
	assert_int_equal(ptk_agg_filter_parse("comm=='a\"", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_str(&f, s, sizeof(s), err, sizeof(err)), 0);
	assert_string_equal(s, "'a\"");
	assert_int_equal(ptk_agg_filter_parse("comm<x", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_str(&f, s, sizeof(s), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--filter: strings compare with == or != only");

	/* numbers: signed, else up to 2^64 - 1 into the same bits */
	assert_int_equal(ptk_agg_filter_parse("x==-3", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), 0);
	assert_int_equal(v, -3);
	assert_int_equal(ptk_agg_filter_parse("x==017", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 15);
	assert_int_equal(ptk_agg_filter_parse("x==18446744073709551615", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), 0);
	assert_int_equal(v, -1);
	assert_int_equal(ptk_agg_filter_parse("x==9223372036854775808", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(ptk_agg_filter_parse("x==-9223372036854775809", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--filter: '-9223372036854775809' is not a number");
	assert_int_equal(ptk_agg_filter_parse("x==12k", &f, err, sizeof(err)), 0);
	assert_int_equal(ptk_agg_filter_num(&f, &v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--filter: '12k' is not a number");

	/* malformed */
	assert_int_equal(ptk_agg_filter_parse("prev_pid~3", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(
		err, "invalid --filter 'prev_pid~3' (want FIELD==VALUE, OP one of == != < <= > "
		     ">=)");
	assert_int_equal(ptk_agg_filter_parse(" == 3", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "invalid --filter ' == 3'");
	assert_int_equal(ptk_agg_filter_parse("a ==  ", &f, err, sizeof(err)), -EINVAL);
	assert_int_equal(ptk_agg_filter_parse("a234567890123456789012345678901234567890123456789012"
					      "345678901234==1",
					      &f, err, sizeof(err)),
			 -EINVAL);
}

static void test_list(void **state)
{
	int n;
	char **it = ptk_agg_list_split("prev_comm, @pid,,  kstack", &n);

	assert_int_equal(n, 3);
	assert_string_equal(it[0], "prev_comm");
	assert_string_equal(it[1], "@pid");
	assert_string_equal(it[2], "kstack");
	assert_null(it[3]);
	ptk_agg_list_free(it);
	/* an item of blanks stays, empty, for the caller to refuse by name */
	it = ptk_agg_list_split("a, ,b", &n);
	assert_int_equal(n, 3);
	assert_string_equal(it[1], "");
	ptk_agg_list_free(it);
	it = ptk_agg_list_split(",,", &n);
	assert_int_equal(n, 0);
	assert_null(it[0]);
	ptk_agg_list_free(it);
}

static void test_linear(void **state)
{
	char err[256];
	s64 min, step;
	u32 n;

	assert_int_equal(ptk_agg_linear_parse("0,100,10", &min, &step, &n, err, sizeof(err)), 0);
	assert_int_equal(min, 0);
	assert_int_equal(step, 10);
	assert_int_equal(n, 10);
	/* a last bucket reaching past MAX */
	assert_int_equal(ptk_agg_linear_parse("0,101,10", &min, &step, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 11);
	assert_int_equal(ptk_agg_linear_parse("-20,200,20", &min, &step, &n, err, sizeof(err)), 0);
	assert_int_equal(min, -20);
	assert_int_equal(n, 11);
	assert_int_equal(ptk_agg_linear_parse("0,64,1", &min, &step, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 64);
	/* bounds whose difference overflows 64 bits */
	assert_int_equal(ptk_agg_linear_parse("-9000000000000000000,9000000000000000000,"
					      "300000000000000000",
					      &min, &step, &n, err, sizeof(err)),
			 0);
	assert_int_equal(n, 60);
	assert_int_equal(ptk_agg_linear_parse("0,65,1", &min, &step, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "--linear 0,65,1: more than 64 buckets");
	assert_int_equal(ptk_agg_linear_parse("-9223372036854775807,9223372036854775807,1", &min,
					      &step, &n, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(ptk_agg_linear_parse("10,0,1", &min, &step, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "invalid --linear '10,0,1' (want MIN,MAX,STEP, MAX > MIN, STEP > 0)");
	assert_int_equal(ptk_agg_linear_parse("0,10,0", &min, &step, &n, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(ptk_agg_linear_parse("0,10,1,2", &min, &step, &n, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(ptk_agg_linear_parse("a,b,c", &min, &step, &n, err, sizeof(err)), -EINVAL);
}

/* ---- probes and fields ---- */

static void test_probe_parse(void **state)
{
	struct ptk_agg_probe p;
	char err[256];

	assert_int_equal(ptk_agg_probe_parse("sched:sched_switch", false, &p, err, sizeof(err)), 0);
	assert_string_equal(p.cat, "sched");
	assert_string_equal(p.name, "sched_switch");
	assert_string_equal(p.field, "");
	assert_int_equal(ptk_agg_probe_parse("sched:sched_wakeup:pid", true, &p, err, sizeof(err)),
			 0);
	assert_string_equal(p.name, "sched_wakeup");
	assert_string_equal(p.field, "pid");
	/* a pair's tracepoint may name the field it matches on, or not (the thread) */
	assert_int_equal(ptk_agg_probe_parse("sched:sched_switch", true, &p, err, sizeof(err)), 0);
	assert_string_equal(p.field, "");
	assert_int_equal(ptk_agg_probe_parse("a:b:c", false, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "invalid tracepoint 'a:b:c' (want CATEGORY:EVENT)");
	assert_int_equal(ptk_agg_probe_parse("sched_switch", false, &p, err, sizeof(err)), -EINVAL);
	assert_int_equal(ptk_agg_probe_parse(":b", false, &p, err, sizeof(err)), -EINVAL);
	assert_int_equal(ptk_agg_probe_parse("a:", false, &p, err, sizeof(err)), -EINVAL);
	assert_int_equal(ptk_agg_probe_parse("a:b:", true, &p, err, sizeof(err)), -EINVAL);
}

static void test_fields(void **state)
{
	struct ptk_agg_probe *p = calloc(1, sizeof(*p));
	struct agg_field f;
	enum ptk_vtype t;
	char err[512];

	probe(p, "sched:sched_switch", false, fmt_switch);
	/* char[16]: the bytes of the array */
	assert_int_equal(ptk_agg_field(p, "prev_comm", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_ARRAY);
	assert_int_equal(f.off, 8);
	assert_int_equal(f.len, 16);
	assert_int_equal(t, PTK_V_STR);
	/* numbers of 4 and 8 bytes, signed */
	assert_int_equal(ptk_agg_field(p, "prev_pid", true, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_NUM);
	assert_int_equal(f.off, 24);
	assert_int_equal(f.size, 4);
	assert_int_equal(f.len, 8);
	assert_true(f.is_signed);
	assert_int_equal(t, PTK_V_S64);
	assert_int_equal(ptk_agg_field(p, "prev_state", true, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.size, 8);
	assert_int_equal(f.off, 32);
	/* a byte of the array is a number */
	assert_int_equal(ptk_agg_field(p, "prev_comm[1]", true, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_NUM);
	assert_int_equal(f.off, 9);
	assert_int_equal(f.size, 1);
	assert_int_equal(t, PTK_V_U64);
	assert_int_equal(ptk_agg_field(p, "prev_comm", true, &f, &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "sched:sched_switch field 'prev_comm' (char[16]) is not a number");
	/* the task's properties: no field has their names here */
	assert_int_equal(ptk_agg_field(p, "pid", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_PID);
	assert_int_equal(t, PTK_V_U64);
	assert_int_equal(ptk_agg_field(p, "comm", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_COMM);
	assert_int_equal(f.len, 16);
	assert_int_equal(ptk_agg_field(p, "kstack", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_KSTACK);
	assert_int_equal(t, PTK_V_STR);
	assert_int_equal(ptk_agg_field(p, "kstack", true, &f, &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(
		err, "unknown numeric field 'kstack' for sched:sched_switch (fields: "
		     "prev_comm,prev_pid,prev_prio,prev_state,next_comm,next_pid,next_prio)");
	assert_int_equal(ptk_agg_field(p, "nope", false, &f, &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(
		err, "unknown field 'nope' for sched:sched_switch (fields: "
		     "prev_comm,prev_pid,prev_prio,prev_state,next_comm,next_pid,next_prio)");
	assert_int_equal(ptk_agg_field(p, "prev_pid[0]", false, &f, &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
			    "'prev_pid[0]': sched:sched_switch field 'prev_pid' is not an array");

	/* a field named as a property: the field, unless written @name */
	probe(p, "sched:sched_wakeup", false, fmt_wakeup);
	assert_int_equal(ptk_agg_field(p, "pid", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_NUM);
	assert_int_equal(f.off, 24);
	assert_int_equal(ptk_agg_field(p, "@pid", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_PID);

	/* numeric arrays: by element */
	probe(p, "raw_syscalls:sys_enter", false, fmt_sys_enter);
	assert_int_equal(ptk_agg_field(p, "args", false, &f, &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "raw_syscalls:sys_enter field 'args' is an array (unsigned "
				 "long[6]): use args[INDEX]");
	assert_int_equal(ptk_agg_field(p, "args[2]", true, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.off, 32);
	assert_int_equal(f.size, 8);
	assert_int_equal(ptk_agg_field(p, "args[6]", true, &f, &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(
		err, "'args[6]': raw_syscalls:sys_enter field 'args' is indexed out of range");
	assert_int_equal(ptk_agg_field(p, "args[x]", true, &f, &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(ptk_agg_field(p, "args[1", true, &f, &t, err, sizeof(err)), -EINVAL);

	/* a string pointer of a syscall: user memory */
	probe(p, "syscalls:sys_enter_openat", false, fmt_openat);
	assert_int_equal(ptk_agg_field(p, "filename", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_PTRSTR);
	assert_int_equal(f.len, AGG_STR_MAX);
	assert_true(f.user);
	assert_int_equal(t, PTK_V_STR);
	assert_int_equal(ptk_agg_field(p, "filename", true, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_NUM); /* as a number: the pointer */

	/* __data_loc strings and short char arrays */
	probe(p, "block:block_rq_complete", false, fmt_rq_complete);
	assert_int_equal(ptk_agg_field(p, "cmd", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_DATALOC);
	assert_int_equal(f.off, 44);
	assert_int_equal(f.len, AGG_STR_MAX);
	assert_int_equal(ptk_agg_field(p, "rwbs", false, &f, &t, err, sizeof(err)), 0);
	assert_int_equal(f.src, AGG_SRC_ARRAY);
	assert_int_equal(f.len, 10);
	assert_int_equal(ptk_agg_field(p, "nr_sector", true, &f, &t, err, sizeof(err)), 0);
	assert_false(f.is_signed);
	assert_int_equal(t, PTK_V_U64);
	free(p);
}

/* ---- the configuration ---- */

static struct ptk_agg *new_agg(enum ptk_agg_mode mode, const char *by)
{
	struct ptk_agg *a = calloc(1, sizeof(*a));

	a->mode = mode;
	a->by = by;
	return a;
}

static void test_configure_count(void **state)
{
	struct ptk_bpf_filter flt = { 0 };
	struct ptk_agg *a = new_agg(PTK_AGG_COUNT, "prev_comm, prev_pid,kstack");

	a->event = "sched:sched_switch";
	assert_int_equal(ptk_agg_parse(a), 0);
	assert_int_equal(a->nprobes, 1);
	probe(&a->probe[0], a->event, false, fmt_switch);
	a->filter = "next_comm == 'swapper/0'";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_string_equal(a->desc, "sched:sched_switch");
	assert_int_equal(a->cfg[0].mode, AGG_COUNT);
	/* the key: 16 bytes of comm, then two 8-byte numbers */
	assert_int_equal(a->cfg[0].nkeys, 3);
	assert_int_equal(a->cfg[0].key[0].kofs, 0);
	assert_int_equal(a->cfg[0].key[1].kofs, 16);
	assert_int_equal(a->cfg[0].key[2].kofs, 24);
	assert_int_equal(a->cfg[0].key[2].src, AGG_SRC_KSTACK);
	assert_true(a->has_stack);
	assert_int_equal(a->stacks_max, 4096);
	/* the filter, a string of the record */
	assert_int_equal(a->cfg[0].nfilters, 1);
	assert_true(a->cfg[0].filter[0].is_str);
	assert_int_equal(a->cfg[0].filter[0].op, AGG_OP_EQ);
	assert_int_equal(a->cfg[0].filter[0].f.off, 40);
	assert_string_equal(a->cfg[0].filter[0].s, "swapper/0");
	assert_int_equal(a->cfg[0].role, AGG_ROLE_ONE);
	assert_true(a->cfg[0].task_filter);
	/* the rows: three keys and COUNT */
	assert_int_equal(a->res.ncols, 4);
	assert_string_equal(a->res.cols[0].name, "prev_comm");
	assert_int_equal(a->res.cols[1].type, PTK_V_S64);
	assert_true(a->res.keys[2].stack);
	assert_true(a->res.keys[2].task);
	assert_string_equal(a->res.cols[3].name, "COUNT");

	/* -P adds @pid: a fifth key is one too many */
	flt.per_process = true;
	a->by = "prev_comm,next_comm,prev_pid,next_pid";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err, "--by: at most 4 keys");
	/* four 16-byte strings fill the 64 bytes */
	flt.per_process = false;
	a->by = "comm,prev_comm,next_comm,comm";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].key[3].kofs, 48);
	a->by = "prev_comm, ,next_comm";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err, "--by: invalid key ''");
	/* the first error in the order given */
	a->by = "nope,a,b,c,d";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_true(!strncmp(a->err, "unknown field 'nope'", 20));
	a->by = NULL;
	a->filter = "kstack == 3";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err, "--filter: stacks cannot be compared");
	a->filter = "prev_comm == 'a0123456789012345678901234567890123'";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(
		a->err, "--filter: 'a0123456789012345678901234567890123' longer than the field");
	a->filter = "prev_pid >= 100";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_false(a->cfg[0].filter[0].is_str);
	assert_int_equal(a->cfg[0].filter[0].op, AGG_OP_GE);
	assert_int_equal(a->cfg[0].filter[0].v, 100);
	assert_true(a->cfg[0].filter[0].f.is_signed);
	assert_int_equal(a->res.ncols, 1); /* no key: COUNT alone */
	/* conditions that must all hold, each read where it is */
	a->filter = "prev_pid >= 100 && next_comm != 'a && b' && prev_state == 1";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].nfilters, 3);
	assert_string_equal(a->cfg[0].filter[1].s, "a && b");
	assert_int_equal(a->cfg[0].filter[1].op, AGG_OP_NE);
	assert_int_equal(a->cfg[0].filter[2].f.off, 32);
	a->filter = "a == 1 && b == 2 && c == 3 && d == 4 && e == 5";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_true(strstr(a->err, "more than 4 conditions") != NULL);
	free(a);
}

static void test_configure_values(void **state)
{
	struct ptk_bpf_filter flt = { 0 };
	struct ptk_agg *a = new_agg(PTK_AGG_SUM, "comm");

	a->event = "block:block_rq_complete";
	a->value = "nr_sector";
	assert_int_equal(ptk_agg_parse(a), 0);
	probe(&a->probe[0], a->event, false, fmt_rq_complete);
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].mode, AGG_COUNT);
	assert_int_equal(a->cfg[0].val.src, AGG_SRC_NUM);
	assert_int_equal(a->cfg[0].val.off, 24);
	assert_int_equal(a->cfg[0].val.size, 4);
	assert_false(a->res.sum_signed);
	assert_int_equal(a->res.ncols, 4);
	assert_string_equal(a->res.cols[2].name, "SUM");
	assert_int_equal(a->res.cols[2].type, PTK_V_U64);
	assert_string_equal(a->res.cols[3].name, "AVG");
	a->value = "error";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_true(a->res.sum_signed);
	assert_int_equal(a->res.cols[2].type, PTK_V_S64);
	a->value = "rwbs";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err,
			    "block:block_rq_complete field 'rwbs' (char[10]) is not a number");
	/* the task's numbers are values too; its comm is not */
	a->value = "pid";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].val.src, AGG_SRC_PID);
	a->value = "comm";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_true(!strncmp(a->err, "unknown numeric field 'comm'", 28));
	/* min, max, avg and stats keep the count, sum, least and greatest value */
	a->value = "nr_sector";
	a->mode = PTK_AGG_STATS;
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->res.ncols, 6);
	assert_string_equal(a->res.cols[4].name, "MIN");
	assert_string_equal(a->res.cols[5].name, "MAX");
	a->mode = PTK_AGG_MIN;
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->res.ncols, 3);
	assert_string_equal(a->res.cols[2].name, "MIN");
	a->mode = PTK_AGG_SUM;
	/* __data_loc strings take 32 bytes of the key: two and a char[10] are too many */
	a->value = "nr_sector";
	a->by = "cmd,cmd,rwbs";
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err, "--by: the key is larger than 64 bytes");
	a->by = "cmd,rwbs,@pid";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].key[1].kofs, 32);
	assert_int_equal(a->cfg[0].key[2].kofs, 48);
	a->by = "comm";

	/* a linear histogram of a field */
	a->mode = PTK_AGG_LHIST;
	a->value = "nr_sector";
	a->lin_min = 0;
	a->lin_step = 8;
	a->lin_nslots = 16;
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].mode, AGG_LHIST);
	assert_int_equal(a->cfg[0].lin_step, 8);
	assert_int_equal(a->cfg[0].lin_nslots, 16);
	assert_string_equal(a->res.unit, "nr_sector");
	assert_int_equal(a->res.ncols, 1); /* histograms: the key columns only */
	free(a);
}

static void test_configure_latency(void **state)
{
	struct ptk_bpf_filter flt = { .millis = true, .per_thread = true };
	struct ptk_agg *a = new_agg(PTK_AGG_LATENCY, "next_comm");

	a->from = "sched:sched_wakeup:pid";
	a->to = "sched:sched_switch:next_pid";
	assert_int_equal(ptk_agg_parse(a), 0);
	assert_int_equal(a->nprobes, 2);
	probe(&a->probe[0], a->from, true, fmt_wakeup);
	probe(&a->probe[1], a->to, true, fmt_switch);
	a->filter = "target_cpu == 1"; /* only the --from event has it */
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_string_equal(a->desc, "sched:sched_wakeup:pid -> sched:sched_switch:next_pid");
	assert_int_equal(a->cfg[0].role, AGG_ROLE_ENTRY);
	assert_int_equal(a->cfg[0].mode, AGG_NONE);
	assert_int_equal(a->cfg[0].match.off, 24);
	assert_false(a->cfg[0].task_filter); /* the waker is not the task meant */
	assert_int_equal(a->cfg[1].role, AGG_ROLE_RETURN);
	assert_int_equal(a->cfg[1].mode, AGG_HIST);
	assert_int_equal(a->cfg[1].match.off, 56);
	assert_int_equal(a->cfg[1].val.src, AGG_SRC_LAT);
	assert_int_equal(a->cfg[1].val.imm, 1000000);
	assert_int_equal(a->cfg[0].nfilters, 1);
	assert_int_equal(a->cfg[1].nfilters, 0);
	assert_int_equal(a->cfg[0].filter[0].f.off, 32);
	assert_true(a->cfg[0].filter[0].f.at_entry);
	/* the keys (and -L's tid) are the --to event's */
	assert_int_equal(a->cfg[0].nkeys, 0);
	assert_int_equal(a->cfg[1].nkeys, 2);
	assert_int_equal(a->cfg[1].key[1].src, AGG_SRC_TID);
	assert_string_equal(a->res.keys[1].name, "tid");
	assert_string_equal(a->res.unit, "msecs");
	a->filter = "next_pid == 7"; /* --to's own */
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].nfilters, 0);
	assert_int_equal(a->cfg[1].nfilters, 1);
	/* a key only the --from event has is read there, kept for --to */
	a->by = "target_cpu";
	assert_int_equal(ptk_agg_configure(a, &flt), 0);
	assert_int_equal(a->cfg[0].nkeys, 1);
	assert_true(a->cfg[0].key[0].at_entry);
	assert_int_equal(a->cfg[0].key[0].off, 32);
	assert_true(a->cfg[1].key[0].at_entry);
	assert_int_equal(a->cfg[1].key[1].src, AGG_SRC_TID);
	a->by = "next_comm";
	a->filter = NULL;
	/* the match fields are numbers of the records */
	snprintf(a->probe[1].field, sizeof(a->probe[1].field), "next_comm");
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err,
			    "sched:sched_switch field 'next_comm' (char[16]) is not a number");
	snprintf(a->probe[1].field, sizeof(a->probe[1].field), "tid");
	assert_int_equal(ptk_agg_configure(a, &flt), -EINVAL);
	assert_string_equal(a->err, "--to: 'tid' is not a field of sched:sched_switch");
	free(a);
}

/* ---- rows ---- */

/* What a sink prints: text or JSON, into a string. */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
	struct ptk_sink s;
};

static void capture_start(struct capture *c, enum ptk_fmt fmt)
{
	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	ptk_sink_init(&c->s, fmt, c->f);
	ptk_sink_begin(&c->s);
}

static char *capture_end(struct capture *c)
{
	ptk_sink_end(&c->s);
	fclose(c->f);
	return c->buf;
}

/* Rows keyed by comm and pid (or a stack). */
static void counts_of(struct ptk_agg_result *res, enum ptk_agg_mode mode, bool stack)
{
	*res = (struct ptk_agg_result){ .mode = mode, .nkeys = 2, .sum_signed = true };
	snprintf(res->keys[0].name, sizeof(res->keys[0].name), "comm");
	res->keys[0].type = PTK_V_STR;
	res->keys[0].task = true;
	snprintf(res->keys[1].name, sizeof(res->keys[1].name), stack ? "kstack" : "pid");
	res->keys[1].type = stack ? PTK_V_STR : PTK_V_U64;
	res->keys[1].stack = stack;
	ptk_agg_result_init(res);
}

static void row(struct ptk_agg_row *w, const char *comm, u64 pid, u64 count, s64 sum)
{
	memset(w, 0, sizeof(*w));
	w->str[0] = strdup(comm);
	w->v[0] = PTK_S(w->str[0]);
	w->v[1] = PTK_U(pid);
	w->count = count;
	w->sum = sum;
	memcpy(w->tie, &pid, sizeof(pid));
}

static void test_rows_counts(void **state)
{
	struct ptk_agg_result res;
	struct ptk_agg_row rows[4];
	struct capture c;
	char *out;

	counts_of(&res, PTK_AGG_SUM, false);
	row(&rows[0], "bash", 300, 2, 10);
	row(&rows[1], "systemd-journald", 20, 4, -50);
	row(&rows[2], "cc1", 4000, 9, 7);
	row(&rows[3], "make", 10, 3, 10); /* the same sum as bash: the lower key first */
	ptk_agg_rows_sort(&res, rows, 4);
	/* heaviest sum first, signed */
	assert_string_equal(rows[0].v[0].s, "make");
	assert_string_equal(rows[1].v[0].s, "bash");
	assert_string_equal(rows[2].v[0].s, "cc1");
	assert_string_equal(rows[3].v[0].s, "systemd-journald");
	assert_int_equal(rows[3].v[3].i, -50);
	assert_true(rows[3].v[4].f == -12.5);

	capture_start(&c, PTK_FMT_TEXT);
	ptk_agg_print(&c.s, &res, rows, 4);
	out = capture_end(&c);
	assert_string_equal(out, "comm              pid    COUNT          SUM        AVG\n"
				 "make               10        3           10        3.3\n"
				 "bash              300        2           10        5.0\n"
				 "cc1              4000        9            7        0.8\n"
				 "systemd-journald   20        4          -50      -12.5\n");
	free(out);

	capture_start(&c, PTK_FMT_JSON);
	ptk_agg_print(&c.s, &res, rows, 2);
	out = capture_end(&c);
	assert_string_equal(out, "{\"rows\":[{\"comm\":\"make\",\"pid\":10,\"count\":3,\"sum\":10,"
				 "\"avg\":3.3},{\"comm\":\"bash\",\"pid\":300,"
				 "\"count\":2,\"sum\":10,\"avg\":5.0}]}\n");
	free(out);
	ptk_agg_rows_free(rows, 4);
}

static void test_rows_stacks(void **state)
{
	struct ptk_agg_result res;
	struct ptk_agg_row rows[2];
	struct capture c;
	char *out, **fr = calloc(2, sizeof(*fr)), **none = calloc(1, sizeof(*none));

	counts_of(&res, PTK_AGG_COUNT, true);
	row(&rows[0], "a", 1, 5, 0);
	row(&rows[1], "b", 2, 7, 0);
	fr[0] = strdup("__schedule+0x628");
	fr[1] = strdup("schedule+0x23");
	ptk_agg_row_set_stack(&rows[0], 1, fr, 2);
	none[0] = strdup("[no stack: File exists]");
	ptk_agg_row_set_stack(&rows[1], 1, none, 1);
	/* folded root first */
	assert_string_equal(rows[0].v[1].s, "schedule+0x23;__schedule+0x628");
	ptk_agg_rows_sort(&res, rows, 2);

	capture_start(&c, PTK_FMT_TEXT);
	ptk_agg_print(&c.s, &res, rows, 2);
	out = capture_end(&c);
	/* the frames above each row (leaf first), the header under them */
	assert_string_equal(out, "    [no stack: File exists]\n"
				 "comm    COUNT\n"
				 "b           7\n"
				 "\n"
				 "    __schedule+0x628\n"
				 "    schedule+0x23\n"
				 "comm    COUNT\n"
				 "a           5\n"
				 "\n");
	free(out);
	capture_start(&c, PTK_FMT_JSON);
	ptk_agg_print(&c.s, &res, rows, 2);
	out = capture_end(&c);
	assert_string_equal(out,
			    "{\"rows\":[{\"comm\":\"b\",\"kstack\":\"[no stack: File exists]\","
			    "\"count\":7},{\"comm\":\"a\",\"kstack\":\"schedule+0x23;__schedule+"
			    "0x628\",\"count\":5}]}\n");
	free(out);
	ptk_agg_rows_free(rows, 2);
}

static void test_rows_hists(void **state)
{
	struct ptk_agg_result res = { .mode = PTK_AGG_LHIST,
				      .nkeys = 1,
				      .lin_min = -20,
				      .lin_step = 20,
				      .lin_nslots = 3,
				      .unit = "prio" };
	struct ptk_agg_row rows[2] = { 0 };
	struct capture c;
	struct json_object *o, *h, *x;
	char *out;

	snprintf(res.keys[0].name, sizeof(res.keys[0].name), "cpu");
	res.keys[0].type = PTK_V_U64;
	ptk_agg_result_init(&res);
	rows[0].v[0] = PTK_U(0);
	rows[0].slot[0] = 1; /* [-20, 0) */
	rows[0].slot[1] = 4; /* [0, 20) */
	rows[1].v[0] = PTK_U(1);
	rows[1].slot[1] = 2;
	rows[1].slot[2] = 8;
	rows[1].below = 1;
	rows[1].above = 3;
	rows[1].hsum = 321;
	ptk_agg_rows_sort(&res, rows, 2);
	assert_int_equal(rows[0].v[0].u, 1); /* 14 values, then 5 */

	capture_start(&c, PTK_FMT_TEXT);
	ptk_agg_print(&c.s, &res, rows, 2);
	out = capture_end(&c);
	assert_string_equal(
		out, "\ncpu = 1\n"
		     "     prio          : count     distribution\n"
		     "        -20        : 0        |                                        |\n"
		     "        0          : 2        |**********                              |\n"
		     "        20         : 8        |****************************************|\n"
		     "count 10  p50 <= 39  p90 <= 39  p99 <= 39  max <= 39 prio (bucket upper "
		     "bounds)\n"
		     "outside the histogram: 1 below -20, 3 at or above 40\n"
		     "\ncpu = 0\n"
		     "     prio          : count     distribution\n"
		     "        -20        : 1        |**********                              |\n"
		     "        0          : 4        |****************************************|\n"
		     "count 5  p50 <= 19  p90 <= 19  p99 <= 19  max <= 19 prio (bucket upper "
		     "bounds)\n");
	free(out);

	capture_start(&c, PTK_FMT_JSON);
	ptk_agg_print(&c.s, &res, rows, 2);
	out = capture_end(&c);
	o = json_tokener_parse(out);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "histograms", &h));
	assert_int_equal(json_object_array_length(h), 2);
	x = json_object_array_get_idx(h, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(x, "cpu")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(x, "below")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(x, "above")), 3);
	assert_int_equal(json_object_get_int(json_object_object_get(x, "sum")), 321);
	x = json_object_object_get(x, "hist");
	assert_int_equal(json_object_get_int(json_object_object_get(x, "total")), 10);
	assert_int_equal(json_object_get_int(json_object_object_get(x, "p50_le")), 39);
	/* a negative bucket bound is negative in JSON too */
	x = json_object_array_get_idx(h, 1);
	x = json_object_array_get_idx(
		json_object_object_get(json_object_object_get(x, "hist"), "buckets"), 0);
	assert_int_equal(json_object_get_int64(json_object_object_get(x, "low")), -20);
	assert_int_equal(json_object_get_int64(json_object_object_get(x, "high")), -1);
	json_object_put(o);
	free(out);
}

/* No key: one histogram, and a latency's values below zero said as such. */
static void test_rows_latency(void **state)
{
	struct ptk_agg_result res = { .mode = PTK_AGG_LATENCY, .unit = "usecs" };
	struct ptk_agg_row w = { .slot = { [0] = 2, [3] = 6, [4] = 1 }, .below = 2 };
	struct capture c;
	char *out;

	ptk_agg_result_init(&res);
	assert_int_equal(res.ncols, 0);
	ptk_agg_rows_sort(&res, &w, 1);
	capture_start(&c, PTK_FMT_TEXT);
	ptk_agg_print(&c.s, &res, &w, 1);
	out = capture_end(&c);
	assert_string_equal(
		out,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 2        |*************                           |\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 0        |                                        |\n"
		"         8 -> 15         : 6        |****************************************|\n"
		"        16 -> 31         : 1        |******                                  |\n"
		"count 9  p50 <= 15  p90 <= 31  p99 <= 31  max <= 31 usecs (bucket upper "
		"bounds)\n"
		"outside the histogram: 2 negative values\n");
	free(out);
	assert_string_equal(ptk_agg_mode_name(PTK_AGG_LATENCY), "latency");
	assert_string_equal(ptk_agg_mode_name(PTK_AGG_LHIST), "linear");
}

/* The log2 layout past slot 32: wider columns, 20-character bars. */
static void test_hist_wide(void **state)
{
	struct ptk_hist h = { .unit = "nsecs" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	h.slot[33] = 3;
	h.slot[34] = 1;
	ptk_hist_print(f, &h);
	fclose(f);
	assert_non_null(strstr(buf, "               nsecs                         : count    "
				    "distribution\n"));
	assert_non_null(strstr(buf, "          8589934592 -> 17179869183          : 3        "
				    "|********************|\n"));
	assert_non_null(strstr(buf, "         17179869184 -> 34359738367          : 1        "
				    "|******              |\n"));
	assert_non_null(strstr(buf, "count 4  p50 <= 17179869183  p90 <= 34359738367"));
	free(buf);
	assert_int_equal(ptk_log2_slot(0), 0);
	assert_int_equal(ptk_log2_slot(1), 0);
	assert_int_equal(ptk_log2_slot(2), 1);
	assert_int_equal(ptk_log2_slot(1023), 9);
	assert_int_equal(ptk_log2_slot(1024), 10);
	assert_int_equal(ptk_log2_slot(~0ull), 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),		 cmocka_unit_test(test_list),
		cmocka_unit_test(test_linear),		 cmocka_unit_test(test_probe_parse),
		cmocka_unit_test(test_fields),		 cmocka_unit_test(test_configure_count),
		cmocka_unit_test(test_configure_values), cmocka_unit_test(test_configure_latency),
		cmocka_unit_test(test_rows_counts),	 cmocka_unit_test(test_rows_stacks),
		cmocka_unit_test(test_rows_hists),	 cmocka_unit_test(test_rows_latency),
		cmocka_unit_test(test_hist_wide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
