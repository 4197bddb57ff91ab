/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptk check's USE rules as data. A rule names a resource, the registry metric it judges, a
 * comparison and threshold per level (critical, warning, note), the guards those levels need
 * ("aqu-sz > 1", "at least 100 segments out"), the evidence text of each level and the reason
 * for the threshold. ptk_rule_eval() is the one evaluator; `ptk check --help` and
 * ptk-check(1) print the thresholds from the same table (ptk_rules_print), so the text
 * cannot drift from the code.
 *
 * Values are passed as a vector indexed by enum ptk_mid (model/registry.h); NAN is unknown,
 * and an unknown value never fires a rule (every comparison with NAN is false), except the
 * explicit "is unknown" test PTK_CMP_NA.
 */
#ifndef PTK_MODEL_RULES_H
#define PTK_MODEL_RULES_H

#include <stdbool.h>
#include <stdio.h>

#include "model/registry.h"

/* A verdict: ok, warning, critical (ordered: a row takes the worst of its rules). */
enum ptk_verdict { PTK_VERDICT_OK, PTK_VERDICT_WARN, PTK_VERDICT_CRIT, PTK_VERDICT_N };

extern const char *const ptk_verdict_name[PTK_VERDICT_N]; /* "ok", "warning", "critical" */

/* What a rule yields: nothing, a note (evidence at verdict ok), a warning or a critical. */
enum ptk_rule_level {
	PTK_RULE_QUIET = -1,
	PTK_RULE_NOTE = PTK_VERDICT_OK,
	PTK_RULE_WARN = PTK_VERDICT_WARN,
	PTK_RULE_CRIT = PTK_VERDICT_CRIT,
};

enum ptk_cmp {
	PTK_CMP_NONE, /* no test (a level without one is never reached by its metric) */
	PTK_CMP_GE,
	PTK_CMP_GT,
	PTK_CMP_LT,
	PTK_CMP_LE,
	PTK_CMP_NA, /* the value is unknown */
};

/* A condition on one value: v[m] cmp at. m = PTK_M_NONE: the rule's own metric. */
struct ptk_cond {
	enum ptk_mid m;
	enum ptk_cmp cmp;
	double at;
	bool or_ncpu; /* the threshold is max(at, v[PTK_M_CHECK_NCPU]) */
};

/*
 * One level of a rule. It is reached when the rule's metric passes test and, if any guard is
 * given, at least one of them holds, unless every condition given in unless holds (the
 * conjunction: "unless runqlat p99 < 1024 us and busy < 70%"); or when alt alone holds.
 * evidence is a template:
 * {v} the rule's metric, {t} the threshold of test, {a} {b} {c} the rule's args[0..2], each
 * optionally with decimals ({v.1}: one decimal; default 0), {s0} {s1} the caller's strings.
 */
struct ptk_level {
	struct ptk_cond test;
	struct ptk_cond guard[2];
	struct ptk_cond unless[2];
	struct ptk_cond alt;
	const char *evidence;
};

/* The groups of rules, evaluated in this order on the values of one USE row. */
enum ptk_rule_group {
	PTK_RG_CPU,
	PTK_RG_MEMORY,
	PTK_RG_DISK,
	PTK_RG_DISK_PSI, /* PSI io, on the busiest disk's row */
	PTK_RG_NET,
	PTK_RG_TCP,
	PTK_RG_KLOG, /* once per kind of kernel log message, on the kernel row */
	PTK_RG_KERNEL,
	PTK_RG_CGROUP, /* once per cgroup (its own row when one fires) */
	PTK_RG_N
};

struct ptk_rule {
	const char *name; /* short id, e.g. "cpu.busy" */
	enum ptk_rule_group group;
	enum ptk_mid metric;
	struct ptk_cond guard; /* needed by every level (m NONE: none) */
	struct ptk_level crit, warn, note;
	enum ptk_mid args[3]; /* values the evidence shows beside the metric */
	const char *reason; /* why this threshold, for --help and the man page */
};

extern const struct ptk_rule ptk_rules[];
extern const int ptk_nrules;

extern const char *const ptk_rule_group_name[PTK_RG_N];

/* A vector of rule inputs: v[PTK_M_...], NAN = unknown. */
struct ptk_rule_vals {
	double v[PTK_M_COUNT];
};

/* Every value unknown. */
void ptk_rule_vals_init(struct ptk_rule_vals *rv);

/* Does c hold for the values (metric: the rule's own)? */
bool ptk_cond_holds(const struct ptk_cond *c, enum ptk_mid metric, const struct ptk_rule_vals *rv);

/* The level rule r reaches on rv: the highest of critical, warning, note whose conditions
 * hold, or PTK_RULE_QUIET. */
enum ptk_rule_level ptk_rule_eval(const struct ptk_rule *r, const struct ptk_rule_vals *rv);

/* The evidence of rule r at level lv (not QUIET) into buf, from its template; str[0..1]
 * fill {s0} {s1} (NULL: ""). Returns buf. */
const char *ptk_rule_evidence(const struct ptk_rule *r, enum ptk_rule_level lv,
			      const struct ptk_rule_vals *rv, const char *const str[2], char *buf,
			      size_t size);

/* The thresholds of every rule, one entry per rule with its reason: as plain text for
 * --help (man = false) or as man(7) source for ptk-check(1)'s THRESHOLDS section. */
void ptk_rules_print(FILE *f, bool man);

#endif
