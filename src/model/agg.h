/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Aggregations, whatever probe makes the events (ptk agg's tracepoints; function, user and
 * USDT probes later): the language that says what to aggregate, and the rows that come back.
 *
 * The language: the keys of a row (a comma-separated list, "--by prev_comm,@pid"), what a row
 * aggregates (events, a sum of a value, its log2 or linear histogram, or the latency from one
 * probe to another), and a one-field filter "FIELD OP VALUE". Which names are fields is the
 * probe's business (source/bpf/agg.h resolves them); this is the syntax and its limits.
 *
 * The results: rows of key values with their aggregate, ordered heaviest first, printed
 * through a sink as a table (the keys, COUNT, and SUM and AVG for a sum) or as one histogram
 * per key, in text or JSON. A key that is a stack is printed as its frames above its row in
 * text (leaf first) and as one folded string (root first) in JSON.
 */
#ifndef PTK_MODEL_AGG_H
#define PTK_MODEL_AGG_H

#include "model/hist.h"
#include "model/metric.h"

#define PTK_AGG_MAX_KEYS 4 /* key columns of a row */
#define PTK_AGG_NAME_MAX 64 /* bytes of a key or field name, with its NUL */
#define PTK_AGG_VALUE_MAX 128 /* bytes of a filter's value, with its NUL */

/* What a row aggregates. */
enum ptk_agg_mode {
	PTK_AGG_COUNT, /* events */
	PTK_AGG_SUM, /* events and the sum of a value */
	PTK_AGG_HIST, /* log2 histogram of a value */
	PTK_AGG_LHIST, /* linear histogram of a value */
	PTK_AGG_LATENCY, /* log2 histogram of the time from one probe to another */
	PTK_AGG_MIN, /* events and the least value */
	PTK_AGG_MAX, /* events and the greatest value */
	PTK_AGG_AVG, /* events and the mean value */
	PTK_AGG_STATS, /* events, the sum, mean, least and greatest value */
};

/* The mode's name in the JSON ("count", "sum", "hist", "linear", "latency", "min", "max",
 * "avg", "stats"). */
const char *ptk_agg_mode_name(enum ptk_agg_mode mode);

/* Is the mode a histogram per row (HIST, LHIST, LATENCY)? */
static inline bool ptk_agg_is_hist(enum ptk_agg_mode mode)
{
	return mode == PTK_AGG_HIST || mode == PTK_AGG_LHIST || mode == PTK_AGG_LATENCY;
}

/* ---- the language ---- */

enum ptk_agg_op { PTK_AGG_EQ, PTK_AGG_NE, PTK_AGG_LT, PTK_AGG_LE, PTK_AGG_GT, PTK_AGG_GE };

/* "FIELD OP VALUE", parsed; the value is still text (its field says how to read it). */
struct ptk_agg_filter {
	char field[PTK_AGG_NAME_MAX];
	enum ptk_agg_op op;
	char value[PTK_AGG_VALUE_MAX];
};

/*
 * Parse a filter "FIELD OP VALUE", OP one of == != <= >= < > (looked for in that order, so
 * "a<=b" is a <= b), blanks around FIELD and VALUE ignored. Returns 0, or -EINVAL with the
 * reason (naming --filter) in err.
 */
int ptk_agg_filter_parse(const char *expr, struct ptk_agg_filter *f, char *err, size_t errsz);

/*
 * Parse conditions that must all hold, "COND [&& COND ...]" (each as ptk_agg_filter_parse,
 * a quoted value may hold "&&"), into f[0..max). Returns their number, or -EINVAL with the
 * reason in err (also for more than max).
 */
int ptk_agg_filters_parse(const char *expr, struct ptk_agg_filter *f, int max, char *err,
			  size_t errsz);

/* The filter's value as a string: without its quotes ('...' or "..."), and only for == and
 * !=. 0, or -EINVAL with the reason in err. */
int ptk_agg_filter_str(const struct ptk_agg_filter *f, char *out, size_t size, char *err,
		       size_t errsz);

/* The filter's value as a number (C notation: 42, -3, 0x1f, 017), up to 2^64 - 1 read as
 * unsigned into the same 64 bits. 0, or -EINVAL with the reason in err. */
int ptk_agg_filter_num(const struct ptk_agg_filter *f, s64 *v, char *err, size_t errsz);

/*
 * The items of a comma-separated list ("--by a, b,,c": "a", "b", "c"): blanks before an item
 * skipped, empty items dropped (an item of blanks only is kept as "", for the caller to refuse
 * by name). Returns the items (NULL-terminated, *n of them); free with ptk_agg_list_free().
 */
char **ptk_agg_list_split(const char *list, int *n);
void ptk_agg_list_free(char **items);

/*
 * A linear histogram "MIN,MAX,STEP" (MAX > MIN, STEP > 0) of at most PTK_HIST_SLOTS buckets
 * [MIN + i*STEP, MIN + (i+1)*STEP), the last one reaching MAX or past it: the bounds and the
 * bucket count into *min, *step, *nslots. 0, or -EINVAL with the reason (naming --linear).
 */
int ptk_agg_linear_parse(const char *spec, s64 *min, s64 *step, u32 *nslots, char *err,
			 size_t errsz);

/* ---- the results ---- */

/* A key column. */
struct ptk_agg_col {
	char name[PTK_AGG_NAME_MAX]; /* the title and JSON key */
	enum ptk_vtype type; /* PTK_V_STR (strings, stacks), PTK_V_U64 or PTK_V_S64 */
	bool task; /* a property of the task current at the event (comm, pid...) */
	bool stack; /* a stack: frames[] of each row (a missing one: one frame saying why) */
};

/* The shape of the rows: their keys, their aggregate and how its values read. Its columns
 * point at its keys' names: initialize it where it stays (ptk_agg_result_init), never copy. */
struct ptk_agg_result {
	enum ptk_agg_mode mode;
	int nkeys;
	struct ptk_agg_col keys[PTK_AGG_MAX_KEYS];
	bool sum_signed; /* PTK_AGG_SUM: the value summed is signed */
	s64 lin_min, lin_step; /* PTK_AGG_LHIST: bucket i = [min + i*step, min + (i+1)*step) */
	u32 lin_nslots;
	const char *unit; /* histograms: the unit of their values ("usecs", a field's name) */
	/* the table (ptk_agg_result_init): the keys, then COUNT and the mode's (SUM, AVG, MIN,
	 * MAX) */
	struct ptk_metric cols[PTK_AGG_MAX_KEYS + 5];
	int ncols;
	int vcol[5]; /* PTK_AGG_C_*: the column of each aggregate, -1 without it */
};

/* The aggregates of a row's table (ptk_agg_result.vcol) */
enum { PTK_AGG_C_COUNT, PTK_AGG_C_SUM, PTK_AGG_C_AVG, PTK_AGG_C_MIN, PTK_AGG_C_MAX };

/* Does the mode keep a value's count, sum, min and max (SUM, MIN, MAX, AVG, STATS)? */
static inline bool ptk_agg_has_value(enum ptk_agg_mode mode)
{
	return mode == PTK_AGG_SUM || mode == PTK_AGG_MIN || mode == PTK_AGG_MAX ||
	       mode == PTK_AGG_AVG || mode == PTK_AGG_STATS;
}

/* One row: its key values, its aggregate, its rank. */
struct ptk_agg_row {
	struct ptk_val v[PTK_AGG_MAX_KEYS + 5]; /* the keys, then the aggregates' columns */
	char *str[PTK_AGG_MAX_KEYS]; /* the strings of v[] (string keys, folded stacks), owned */
	char **frames[PTK_AGG_MAX_KEYS]; /* stack keys: the frames, leaf first, owned */
	int nframes[PTK_AGG_MAX_KEYS];
	u64 *addrs[PTK_AGG_MAX_KEYS]; /* stack keys: each frame's address (0: none), owned */
	u64 count; /* every mode but the histograms */
	s64 sum; /* the value's sum (wraps at 64 bits, as the kernel adds) */
	s64 min, max; /* the value's least and greatest (signed or not as it is) */
	u64 slot[PTK_HIST_SLOTS]; /* histograms */
	u64 below, above; /* values under the first bucket (negative, or < lin_min) / at or
			   * past the last bucket of a linear histogram */
	s64 hsum; /* the sum of the values put in the histogram */
	unsigned char tie[64]; /* orders rows of equal weight (the probe's raw key) */
};

/* The columns of res (keys, COUNT, SUM, AVG, MIN, MAX as the mode has them) into res->cols. */
void ptk_agg_result_init(struct ptk_agg_result *res);

/* A stack key's value: frames[0..n) (leaf first, moved into the row) and their folded
 * string (root first, ';' separated) as the column's value. */
void ptk_agg_row_set_stack(struct ptk_agg_row *w, int key, char **frames, int n);

/* Order rows heaviest first: by count (COUNT), sum (SUM, STATS; signed or not), the least,
 * greatest or mean value (MIN, MAX, AVG) or the values in the histogram (below and above
 * included); equal ones by tie. Fills each row's aggregate columns. */
void ptk_agg_rows_sort(const struct ptk_agg_result *res, struct ptk_agg_row *rows, size_t n);

struct ptk_sink;
/*
 * Print the rows through the sink, between its ptk_sink_begin() and ptk_sink_end(). Counts
 * and sums: the table "rows" (text: key columns as wide as their widest value; a stack key's
 * frames above each row, its header repeated under them). Histograms: text, for each row a
 * line "key = value, ..." (frames above it) and the histogram (ptk_hist_print) with a line
 * for the values outside it; JSON, "histograms": [{keys..., "hist", "below", "above",
 * "sum"}].
 */
void ptk_agg_print(struct ptk_sink *s, struct ptk_agg_result *res, const struct ptk_agg_row *rows,
		   size_t n);

/* Free what the rows own. */
void ptk_agg_rows_free(struct ptk_agg_row *rows, size_t n);

#endif
