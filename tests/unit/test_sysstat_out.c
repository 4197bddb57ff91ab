// SPDX-License-Identifier: GPL-2.0
/*
 * sysstat's conventions shared by the commands that stand in for it: its environment
 * (lib/cli.c: S_TIME_FORMAT, S_COLORS, S_COLORS_SGR, S_REPEAT_HEADER, -V), its text cells
 * (output/sysstat.c: --dec, --human, colours) and its -o JSON layout. The expected strings
 * are what sysstat 12.7 prints for the same values (its test suite's expected files and
 * Debian's pidstat).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/registry.h"
#include "output/sysstat.h"

static char *buf;
static size_t len;

static FILE *mem(void)
{
	free(buf);
	buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	return f;
}

static void cell(const struct ptk_sfmt *fmt, enum ptk_scell k, const struct ptk_metric *m,
		 char human, struct ptk_val v, const char *want)
{
	struct ptk_sfmt f = *fmt;

	f.f = mem();
	ptk_scell(&f, k, m, 0, human, &v);
	fclose(f.f);
	assert_string_equal(buf, want);
}

static void test_cells(void **state)
{
	struct ptk_sfmt fmt = { .dec = -1 };

	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_USR_PCT), 0, PTK_F(359.42), "  359.42");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_VSZ_KB), 'k', PTK_F(4453984), " 4453984");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_RD_KB_S), 'B', PTK_NA, "         -");
	cell(&fmt, PTK_SC_ITEM, PTK_M(PROC_CPUNUM), 0, PTK_NA, "     -");
	/* --human: percentages with one decimal less and '%'; sizes from kB; I/O from bytes */
	fmt.human = true;
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_USR_PCT), 0, PTK_F(359.42), "  359.4%");
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_MEM_PCT), 0, PTK_F(3.18), "   3.2%");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_VSZ_KB), 'k', PTK_F(4453984), "    4.2G");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_RSS_KB), 'k', PTK_F(259044), "  253.0M");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_STKSIZE), 'k', PTK_F(128), "  128.0k");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_RD_KB_S), 'B', PTK_F(411.81), "    411.8k");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_RD_KB_S), 'B', PTK_F(0), "      0.0B");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_MINFLT_S), 0, PTK_F(25095.93), "  25095.93");
	/* --dec: the values with decimals, not the counts */
	fmt.human = false;
	fmt.dec = 1;
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_CPU_PCT), 0, PTK_F(412.96), "   413.0");
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_IODELAY), 0, PTK_F(253), "     253");
	fmt.dec = 0;
	fmt.human = true;
	cell(&fmt, PTK_SC_VAL, PTK_M(PROC_VSZ_KB), 'k', PTK_F(4453984), "      4G");
}

static void test_colours(void **state)
{
	struct ptk_sysenv env;
	struct ptk_sfmt fmt = { .dec = -1, .env = &env };

	setenv("S_COLORS", "always", 1);
	setenv("S_COLORS_SGR", "I=37;1:Z=36;22:bad:N=3x:H=31;1", 1);
	ptk_sysenv_read(&env);
	assert_true(env.color);
	/* the item colour and the zero one replaced; a malformed item ignored (N stays) */
	cell(&fmt, PTK_SC_ITEM, PTK_M(PROC_UID), 0, PTK_U(0), "\033[37;1m     0\033[0m");
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_CPU_PCT), 0, PTK_F(0.004), "\033[36;22m    0.00\033[0m");
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_CPU_PCT), 0, PTK_F(39), "\033[34;1m   39.00\033[0m");
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_CPU_PCT), 0, PTK_F(80), "\033[35;1m   80.00\033[0m");
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_CPU_PCT), 0, PTK_F(95), "\033[31;1m   95.00\033[0m");
	setenv("S_COLORS", "never", 1);
	ptk_sysenv_read(&env);
	assert_false(env.color);
	cell(&fmt, PTK_SC_PCT, PTK_M(PROC_CPU_PCT), 0, PTK_F(95), "   95.00");
	unsetenv("S_COLORS");
	unsetenv("S_COLORS_SGR");
	ptk_sysenv_read(&env);
	assert_false(env.color); /* unset: colours on a terminal only; stdout is not one here */
}

static void test_env_time(void **state)
{
	struct ptk_sysenv env;
	char b[64];
	time_t t = 1591016002; /* 2020-06-01 12:53:22 UTC */

	setenv("TZ", "GMT", 1);
	tzset();
	unsetenv("S_TIME_FORMAT");
	setenv("LC_ALL", "C", 1);
	ptk_sysenv_read(&env);
	ptk_sysstat_date(&env, t, b, sizeof(b));
	assert_string_equal(b, "06/01/20");
	ptk_sysstat_time(&env, false, t, b, sizeof(b));
	assert_string_equal(b, "12:53:22");
	ptk_sysstat_time(&env, true, t, b, sizeof(b));
	assert_string_equal(b, "1591016002");
	setenv("S_TIME_FORMAT", "ISO", 1);
	ptk_sysenv_read(&env);
	ptk_sysstat_date(&env, t, b, sizeof(b));
	assert_string_equal(b, "2020-06-01");
	/* S_REPEAT_HEADER when stdout is not a terminal; a non-number is ignored */
	setenv("S_REPEAT_HEADER", "7", 1);
	ptk_sysenv_read(&env);
	assert_int_equal(ptk_sysstat_rows(&env, 23), 7);
	setenv("S_REPEAT_HEADER", "7x", 1);
	ptk_sysenv_read(&env);
	assert_int_equal(ptk_sysstat_rows(&env, 23), 23);
	unsetenv("S_REPEAT_HEADER");

	/* -V: the variables that are set, then the version */
	static const char *const names[] = { "S_COLORS", "S_TIME_FORMAT" };
	FILE *f = mem();
	ptk_sysstat_version(f, names, 2);
	fclose(f);
	assert_string_equal(buf, "S_TIME_FORMAT=ISO\nptk version " PTK_VERSION "\n");
	unsetenv("S_TIME_FORMAT");
}

/* -o JSON: sysstat's whitespace (an empty section is "[", a blank line, "]"), valid JSON,
 * an unknown value null, names escaped */
static void test_json(void **state)
{
	struct ptk_sjson j = { .dec = -1 };
	struct ptk_host h = {
		.sys = "Linux", .rel = "1.2.3-TEST", .host = "SYSSTAT.TEST", .mach = "x86_64"
	};
	FILE *f = mem();

	ptk_sjson_begin(&j, f, &h, 9, "06/01/20");
	ptk_sjson_stat(&j, "12:53:20");
	ptk_sjson_section(&j, "task-cpu-load");
	ptk_sjson_row_begin(&j);
	ptk_sjson_str(&j, "UID", "0");
	ptk_sjson_str(&j, "PID", "8407");
	ptk_sjson_val(&j, PTK_M(PROC_USR_PCT), &PTK_F(0.12));
	ptk_sjson_val(&j, PTK_M(PROC_WAIT_PCT), &PTK_NA);
	ptk_sjson_val(&j, PTK_M(PROC_CPUNUM), &PTK_I(1));
	ptk_sjson_val(&j, PTK_M(PROC_VSZ_KB), &PTK_F(723868));
	ptk_sjson_str(&j, "cmd", "a \"b\"\\c");
	ptk_sjson_row_end(&j);
	ptk_sjson_section(&j, "realtime");
	ptk_sjson_stat(&j, "12:53:22");
	ptk_sjson_section(&j, "task-cpu-load");
	ptk_sjson_end(&j);
	fclose(f);
	assert_non_null(
		strstr(buf, "\t\t\t\"number-of-cpus\": 9,\n\t\t\t\"date\": \"06/01/20\",\n"));
	assert_non_null(strstr(buf,
			       "\t\t\t\t\t\t{\"UID\": \"0\", \"PID\": \"8407\", \"usr\": 0.12, "
			       "\"wait\": null, \"cpu_nr\": 1, \"VSZ\": 723868, \"cmd\": "
			       "\"a \\\"b\\\"\\\\c\"}\n\t\t\t\t\t],\n"));
	assert_non_null(strstr(buf, "\t\t\t\t\t\"realtime\": [\n\n\t\t\t\t\t]\n\t\t\t\t},\n"));
	assert_non_null(strstr(buf, "\t\t\t\t\t]\n\t\t\t\t}\n\t\t\t]\n\t\t}\n\t]\n}}\n"));
	struct json_object *o = json_tokener_parse(buf);
	assert_non_null(o);
	struct json_object *hosts, *stats;
	assert_true(
		json_object_object_get_ex(json_object_object_get(o, "sysstat"), "hosts", &hosts));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(hosts, 0), "statistics",
					      &stats));
	assert_int_equal(json_object_array_length(stats), 2);
	json_object_put(o);
}

/* mpstat's and iostat's pieces: an identifier as a string, a key without the title's '%',
 * a list inside a row ("intr": [...] }), an element without a timestamp and an object
 * member ("avg-cpu":  {...}) */
static void test_json_parts(void **state)
{
	struct ptk_sjson j = { .dec = -1 };
	struct ptk_host h = { .sys = "Linux", .rel = "1", .host = "h", .mach = "x86_64" };
	struct ptk_metric cpu = ptk_registry[PTK_M_IRQ_CPU], rate = ptk_registry[PTK_M_IRQ_S];
	FILE *f = mem();

	cpu.sjson = "cpu";
	rate.sjson = "value";
	ptk_sjson_begin(&j, f, &h, 2, "06/01/20");
	ptk_sjson_stat(&j, "12:53:21");
	ptk_sjson_section(&j, "cpu-load");
	ptk_sjson_row_begin(&j);
	ptk_sjson_id(&j, PTK_M(CPU_CORE), &PTK_I(3));
	ptk_sjson_id(&j, PTK_M(CPU_SOCKET), &PTK_NA);
	ptk_sjson_val(&j, PTK_M(CPU_USR), &PTK_F(1.5));
	ptk_sjson_row_end(&j);
	ptk_sjson_section(&j, "soft-interrupts");
	ptk_sjson_row_begin(&j);
	ptk_sjson_id(&j, &cpu, &PTK_S("0"));
	ptk_sjson_list_begin(&j, "intr");
	for (int i = 0; i < 2; i++) {
		ptk_sjson_item_begin(&j);
		ptk_sjson_str(&j, "name", i ? "TIMER" : "HI");
		ptk_sjson_val(&j, &rate, &PTK_F(i * 13.085));
		ptk_sjson_row_end(&j);
	}
	ptk_sjson_list_end(&j);
	ptk_sjson_str(&j, "after", "x"); /* the row's pairs go on after its list */
	ptk_sjson_row_end(&j);
	ptk_sjson_stat(&j, NULL);
	ptk_sjson_object(&j, "avg-cpu");
	ptk_sjson_val(&j, PTK_M(CPU_IDLE), &PTK_F(99));
	ptk_sjson_row_end(&j);
	ptk_sjson_end(&j);
	fclose(f);
	/* the registry's CORE and SOCK name no sysstat key: their titles (mpstat names them) */
	assert_non_null(strstr(buf, "\t\t\t\t\t\t{\"CORE\": \"3\", \"SOCK\": null, "
				    "\"usr\": 1.50}\n\t\t\t\t\t],\n"));
	assert_non_null(strstr(buf,
			       "\t\t\t\t\t\t{\"cpu\": \"0\", \"intr\": [\n"
			       "\t\t\t\t\t\t\t{\"name\": \"HI\", \"value\": 0.00},\n"
			       "\t\t\t\t\t\t\t{\"name\": \"TIMER\", \"value\": 13.09}\n"
			       "\t\t\t\t\t\t] , \"after\": \"x\"}\n\t\t\t\t\t]\n\t\t\t\t},\n"));
	assert_non_null(strstr(buf, "\t\t\t\t},\n\t\t\t\t{\n\t\t\t\t\t\"avg-cpu\":  "
				    "{\"idle\": 99.00}\n\t\t\t\t}\n\t\t\t]\n"));
	struct json_object *o = json_tokener_parse(buf);
	assert_non_null(o);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),	   cmocka_unit_test(test_colours),
		cmocka_unit_test(test_env_time),   cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_parts),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	free(buf);
	return r;
}
