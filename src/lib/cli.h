/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for command-line conventions: the context every command gets, the common
 * options (--json, --procfs, --sysfs, --help), signal handling and the interval/count loop.
 */
#ifndef PTK_LIB_CLI_H
#define PTK_LIB_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "output/sink.h"
#include "source/root.h"

/* Bounds of an interval or duration in seconds: below a few clock ticks the counters
 * (USER_HZ ticks, ms in diskstats) are pure quantisation; above a year it is a typo. */
#define PTK_MIN_INTERVAL_S 0.01
#define PTK_MAX_INTERVAL_S (86400.0 * 365)

/* True once a write to stdout failed (EPIPE from a closed pipe, ENOSPC): loops stop. */
bool ptk_output_broken(void);

/* Exit codes: 0 ok, 1 runtime error, 2 usage error. */
enum { PTK_EXIT_OK = 0, PTK_EXIT_RUNTIME = 1, PTK_EXIT_USAGE = 2 };

struct ptk_ctx {
	const char *cmd; /* command name */
	const char *procfs; /* --procfs, NULL = /proc */
	const char *sysfs; /* --sysfs, NULL = /sys */
	bool json; /* --json */
	struct ptk_src src; /* valid after ptk_ctx_ready() */
	struct ptk_sink sink;
	volatile int stop; /* set by SIGINT/SIGTERM */
	u64 cpu_start_ns; /* observer cost accounting */
};

/* Long options every command accepts; put PTK_COMMON_OPTS at the end of a command's
 * struct option array (before the terminator) and pass unknown codes to ptk_common_opt(). */
enum { PTK_OPT_JSON = 0x1000, PTK_OPT_PROCFS, PTK_OPT_SYSFS, PTK_OPT_HELP };
#define PTK_COMMON_OPTS                                                \
	{ "json", no_argument, NULL, PTK_OPT_JSON },                   \
		{ "procfs", required_argument, NULL, PTK_OPT_PROCFS }, \
		{ "sysfs", required_argument, NULL, PTK_OPT_SYSFS },   \
	{                                                              \
		"help", no_argument, NULL, PTK_OPT_HELP                \
	}

/*
 * Handle a common option code from getopt_long. Returns 0 when handled, 1 for --help (the
 * caller prints its usage to stdout and exits 0), -1 for an unknown option (usage error:
 * the caller prints a one-line hint and exits 2).
 */
int ptk_common_opt(struct ptk_ctx *ctx, int c, const char *arg);

/* ptk_getopt()'s results besides an option code. */
enum { PTK_GETOPT_END = -1, PTK_GETOPT_EXIT = -2 };

/*
 * getopt_long() over a command's options with the conventions every command shares: the
 * common options (PTK_COMMON_OPTS at the end of longopts) set ctx; --help prints usage to
 * stdout; an unknown option or a missing argument is reported by name ("unknown option
 * '-z'", "option '--procfs' needs an argument"). Returns the next option code for the
 * command to handle, PTK_GETOPT_END after the last option (optind is the first operand),
 * or PTK_GETOPT_EXIT when the command is to return *rc: 0 after --help, PTK_EXIT_USAGE
 * after a usage error. optstring as getopt_long's (a leading '+' stops at the first
 * operand).
 *
 *	while ((c = ptk_getopt(ctx, argc, argv, "o:a", opts, usage, &rc)) >= 0)
 *		switch (c) { ... }
 *	if (c == PTK_GETOPT_EXIT)
 *		return rc;
 */
int ptk_getopt(struct ptk_ctx *ctx, int argc, char **argv, const char *optstring,
	       const struct option *longopts, const char *usage, int *rc);

/* The one operand of a command that takes a process: argv[optind], a PID > 0, and nothing
 * after it. Returns 0, or PTK_EXIT_USAGE after printing what is wrong. */
int ptk_parse_pid_operand(struct ptk_ctx *ctx, int argc, char **argv, int *pid);

/* The processes of -p PID,...: 0 when all exist; a warning per missing one when some do;
 * when none does, one error line each and PTK_EXIT_RUNTIME (the caller returns it). */
int ptk_require_pids(const struct ptk_ctx *ctx, const int *pids, int n);

/* Before stopping process pid (gcore, pstack, strace -p): 0 for a user-space task; for a
 * zombie, a kernel thread or no such process, one line saying so ("... nothing to WHAT")
 * and PTK_EXIT_RUNTIME. */
int ptk_require_stoppable(const struct ptk_ctx *ctx, int pid, const char *what);

/* Print "ptk CMD: msg" plus "Try 'ptk CMD --help'." and return PTK_EXIT_USAGE. */
int ptk_usage_error(const struct ptk_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Open the source (after options are parsed), set up the sink and signal handlers.
 * Returns 0, or PTK_EXIT_RUNTIME after printing why. */
int ptk_ctx_ready(struct ptk_ctx *ctx);

/* Parse the trailing "[interval [count]]" operands. interval > 0 (seconds, fractions
 * allowed), count >= 1. Missing operands leave the defaults. Returns 0 or PTK_EXIT_USAGE
 * after printing the error. */
int ptk_parse_interval_count(struct ptk_ctx *ctx, int argc, char **argv, double *interval,
			     long *count, bool *has_interval);

/*
 * The interval loop. Calls sample(ctx, arg, i, itv_s) for i = 0 (the baseline read, itv_s =
 * 0) and then once per interval for i = 1..count (count < 0: until stopped). Live: intervals
 * are paced on CLOCK_MONOTONIC without drift, itv_s measured on it. Replay: each step moves
 * to the next snapshot, itv_s is the difference of the snapshots' /proc/uptime, and nothing
 * sleeps; the loop ends when the snapshots run out. A sample callback returning non-zero
 * stops the loop with that value. Returns 0, the callback's value, or -EINTR (stopped).
 */
typedef int (*ptk_sample_fn)(struct ptk_ctx *ctx, void *arg, long i, double itv_s);
int ptk_loop(struct ptk_ctx *ctx, double interval_s, long count, ptk_sample_fn sample, void *arg);

/* Seconds since boot of the current sample (from <procfs>/uptime), or -1. */
double ptk_ctx_uptime(const struct ptk_ctx *ctx);

/* Local time of day "HH:MM:SS" (or with AM/PM per LC_TIME like sysstat) for the current
 * sample: wall clock live, btime+uptime in replay. */
void ptk_ctx_clock(const struct ptk_ctx *ctx, char *buf, size_t size);
/* Wall time (epoch seconds) of the current sample. */
double ptk_ctx_walltime(const struct ptk_ctx *ctx);

/*
 * sysstat's first line (print_gal_header in sysstat's common.c), shared by mpstat, iostat,
 * pidstat and sar: "Linux 6.1.0 (host) \t11/29/26 \t_x86_64_\t(2 CPU)\n". The date is t's
 * day in local time (utc: UTC), in the locale's format (%x) or ISO 8601 (iso).
 */
void ptk_sysstat_banner(FILE *f, const char *sys, const char *rel, const char *host,
			const char *mach, int ncpu, time_t t, bool utc, bool iso);
/*
 * The same for the current sample of ctx: the kernel release and host name from
 * <procfs>/sys/kernel/{osrelease,hostname} (uname(2) when absent), the date from
 * ptk_ctx_walltime.
 */
void ptk_ctx_banner(const struct ptk_ctx *ctx, int ncpu);

/* What the banner shows: uname's system and machine, the kernel release and host name of
 * the current sample of ctx (as ptk_ctx_banner). */
struct ptk_host {
	char sys[65], rel[128], host[128], mach[65];
};
void ptk_ctx_host(const struct ptk_ctx *ctx, struct ptk_host *h);

/*
 * sysstat's environment (sysstat(5)), shared by pidstat, mpstat, iostat and sar:
 *   S_TIME_FORMAT=ISO   dates %Y-%m-%d and times %H:%M:%S (else the locale's %x and %X)
 *   S_TIME_DEF_TIME=UTC times in UTC
 *   S_COLORS            never, always, or auto (the default): colours when stdout is a
 *                       terminal
 *   S_COLORS_SGR        "K=SGR:..." colour codes: M or W warning, X or H extreme, Z zero, N
 *                       other values, I item names, C comments, R restarts, + and - trends
 *   S_REPEAT_HEADER     rows between headers when stdout is not a terminal
 *   POSIXLY_CORRECT     set: iostat's 512-byte blocks; options are still taken anywhere
 * ptk_sysenv_read() also sets LC_TIME from the environment, as sysstat does.
 */
enum ptk_sgr {
	PTK_SGR_WARN,
	PTK_SGR_XTREME,
	PTK_SGR_ZERO,
	PTK_SGR_INT,
	PTK_SGR_ITEM,
	PTK_SGR_COMMENT,
	PTK_SGR_RESTART,
	PTK_SGR_TREND_POS,
	PTK_SGR_TREND_NEG,
	PTK_SGR_NORMAL,
	PTK_SGR_N
};
struct ptk_sysenv {
	bool iso, utc, posix;
	bool color;
	int repeat; /* S_REPEAT_HEADER (> 0), else 0 */
	char sgr[PTK_SGR_N][16];
};
void ptk_sysenv_read(struct ptk_sysenv *e);
/* The escape sequence of k, "" without colours. */
const char *ptk_sgr(const struct ptk_sysenv *e, enum ptk_sgr k);
/* -V as sysstat 12.7: the variables of names[] that are set, as NAME=value lines, then
 * ptk's version. */
void ptk_sysstat_version(FILE *f, const char *const *names, int n);
/* The time of a report line: epoch seconds (sysstat's -H), or the time of day. */
void ptk_sysstat_time(const struct ptk_sysenv *e, bool epoch, time_t t, char *buf, size_t size);
/* The report date of the banner (%x, or %Y-%m-%d with ISO). */
void ptk_sysstat_date(const struct ptk_sysenv *e, time_t t, char *buf, size_t size);
/* Reports between two headers: the terminal's height - 2 when stdout is one, else
 * S_REPEAT_HEADER, else dflt. */
int ptk_sysstat_rows(const struct ptk_sysenv *e, int dflt);

#endif
