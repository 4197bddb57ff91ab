/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysstat's output conventions, for the commands that stand in for it (pidstat; mpstat,
 * iostat and sar can take the same): a text cell as sysstat's cprintf_* functions print it
 * (width, decimals or --dec, --human units, S_COLORS colours, from the cell's registry
 * entry), and the -o JSON layout with sysstat's whitespace:
 *
 *   {"sysstat": {
 *   	"hosts": [
 *   		{
 *   			"nodename": ..., "sysname", "release", "machine", "number-of-cpus", "date",
 *   			"statistics": [
 *   				{
 *   					"timestamp": "12:53:22",
 *   					"task-cpu-load": [
 *   						{"UID": "0", "PID": "1", "usr": 0.00, ...},
 *   						...
 *   					],
 *   					...
 *   				},
 *   				...
 *   			]
 *   		}
 *   	]
 *   }}
 *
 * An unknown value is "-" in text (in the cell's width) and null in JSON.
 */
#ifndef PTK_OUTPUT_SYSSTAT_H
#define PTK_OUTPUT_SYSSTAT_H

#include <stdio.h>

#include "lib/cli.h"
#include "model/metric.h"

struct ptk_sfmt {
	FILE *f;
	const struct ptk_sysenv *env; /* colours; NULL: none */
	int dec; /* --dec=N (0 to 2), -1: each metric's precision */
	bool human; /* --human */
};

enum ptk_scell {
	PTK_SC_ITEM, /* an identifier (UID, PID, CPU number, user): the item colour */
	PTK_SC_PCT, /* a percentage: the warning colour from 75, the extreme one from 90;
		     * --human: one decimal less and a '%' */
	PTK_SC_VAL, /* a number: the zero colour when it prints as 0, else the value colour */
	PTK_SC_STR, /* a word (a scheduling policy): the value colour */
};

/*
 * One cell: " " and v right-aligned in width (the metric's width when width is 0), with the
 * metric's precision or --dec. human: with --human, the unit letter v is printed in --
 * 'k' (v is kB) or 'B' (v is kB, shown from bytes as sysstat shows I/O rates) -- scaled by
 * 1024 up to the unit under 1024, with one decimal (none with --dec=0); 0: never scaled.
 */
void ptk_scell(const struct ptk_sfmt *fmt, enum ptk_scell kind, const struct ptk_metric *m,
	       int width, char human, const struct ptk_val *v);
/* pre, s and post in colour k, the reset after them (sysstat's command names end in
 * their newline, and the reset follows it). */
void ptk_sstr(const struct ptk_sfmt *fmt, enum ptk_sgr k, const char *pre, const char *s,
	      const char *post);

/* The -o JSON writer. */
struct ptk_sjson {
	FILE *f;
	int dec; /* as ptk_sfmt.dec */
	int nstat; /* statistics opened */
	int npair; /* pairs of the open statistics element (timestamp, sections) */
	bool in_sec; /* a section is open */
	int nrow; /* rows of the open section */
	int nkv; /* pairs of the open row */
	int nitem; /* items of the open list in a row */
	int row_nkv; /* the row's pairs while a list in it is open */
};
/* The host object up to "statistics": [ */
void ptk_sjson_begin(struct ptk_sjson *j, FILE *f, const struct ptk_host *h, int ncpu,
		     const char *date);
/* A new element of "statistics" (closing the one before); timestamp NULL: none (iostat
 * without -t). */
void ptk_sjson_stat(struct ptk_sjson *j, const char *timestamp);
/* A new "name": [ array in the current statistics element. */
void ptk_sjson_section(struct ptk_sjson *j, const char *name);
/* A new "name":  { object in it (iostat's avg-cpu, with sysstat's two spaces): its pairs,
 * then ptk_sjson_row_end(). */
void ptk_sjson_object(struct ptk_sjson *j, const char *name);
void ptk_sjson_row_begin(struct ptk_sjson *j);
void ptk_sjson_str(struct ptk_sjson *j, const char *key, const char *s);
/* key: the metric's sysstat key (its title without a leading '%' unless it names one); its
 * precision or --dec. */
void ptk_sjson_val(struct ptk_sjson *j, const struct ptk_metric *m, const struct ptk_val *v);
/* The same for an identifier (a CPU or node number): its value as a string, "0", as sysstat
 * writes them; null when unknown. */
void ptk_sjson_id(struct ptk_sjson *j, const struct ptk_metric *m, const struct ptk_val *v);
/*
 * A list of objects in the open row ("intr": [ ... ] of mpstat's interrupts per CPU):
 *   {"cpu": "0", "intr": [
 *   	{"name": "HI", "value": 0.00},
 *   	...
 *   ] }
 * Each item is ptk_sjson_item_begin(), its pairs, ptk_sjson_row_end().
 */
void ptk_sjson_list_begin(struct ptk_sjson *j, const char *key);
void ptk_sjson_item_begin(struct ptk_sjson *j);
void ptk_sjson_list_end(struct ptk_sjson *j);
void ptk_sjson_row_end(struct ptk_sjson *j);
/* Close everything opened. */
void ptk_sjson_end(struct ptk_sjson *j);

#endif
