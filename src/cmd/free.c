// SPDX-License-Identifier: GPL-2.0
/*
 * ptk free: memory and swap usage, laid out byte for byte as procps-ng 4.0.2 free(1).
 *
 * procps 4.0.2 (libproc2 meminfo.c): used = MemTotal - MemAvailable, buff/cache = Buffers +
 * Cached + SReclaimable, -w splits it into buffers (Buffers) and cache (Cached +
 * SReclaimable); -l adds Low (LowTotal/LowFree, else MemTotal/MemFree) and High (HighTotal/
 * HighFree, else 0); -L prints procps 4.0.4's one line. JSON values are bytes whatever the
 * display unit.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/activity.h"

enum { F_TOTAL, F_USED, F_FREE, F_SHARED, F_BUFFCACHE, F_BUFFERS, F_CACHE, F_AVAIL, F_N };
static const struct ptk_metric free_cols[F_N] = {
	[F_TOTAL] = { "total", "total", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
		      "usable RAM / swap (/proc/meminfo MemTotal, SwapTotal)" },
	[F_USED] = { "used", "used", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
		     "RAM: MemTotal - MemAvailable; swap: SwapTotal - SwapFree" },
	[F_FREE] = { "free", "free", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
		     "unused (/proc/meminfo MemFree, SwapFree)" },
	[F_SHARED] = { "shared", "shared", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
		       "tmpfs and shared anonymous memory (/proc/meminfo Shmem)" },
	[F_BUFFCACHE] = { "buff/cache", "buff_cache", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
			  "Buffers + Cached + SReclaimable (/proc/meminfo)" },
	[F_BUFFERS] = { "buffers", "buffers", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
			"block device page cache (/proc/meminfo Buffers)" },
	[F_CACHE] = { "cache", "cache", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
		      "page cache + reclaimable slab (/proc/meminfo Cached + SReclaimable)" },
	[F_AVAIL] = { "available", "available", "bytes", PTK_GAUGE, PTK_V_U64, 11, 0,
		      "estimate of memory usable without swapping (/proc/meminfo MemAvailable)" },
};

static const char usage[] =
	"usage: ptk free [-b|-k|-m|-g|--tera|--peta|-h] [--si] [-l] [-L] [-w] [-t] [-v] [-s N]\n"
	"                [-c N] [-V]\n"
	"Memory and swap usage from /proc/meminfo, as procps-ng 4.0.2 free.\n"
	" -b, --bytes      bytes            -k, --kibi  KiB (default)   -m, --mebi  MiB\n"
	" -g, --gibi       GiB              --tebi, --pebi               TiB, PiB\n"
	" --kilo, --mega, --giga, --tera, --peta   powers of 1000\n"
	" -h, --human      human-readable (B, Ki, Mi, ...)   --si  powers of 1000\n"
	" -w, --wide       buffers and cache in separate columns\n"
	" -l, --lohi       add Low: and High: rows (low and high memory)\n"
	" -L, --line       one line: SwapUse, CachUse, MemUse, MemFree\n"
	" -t, --total      add a Total: row (RAM + swap)\n"
	" -v, --committed  add a Comm: row (CommitLimit, Committed_AS, limit - committed)\n"
	" -s, --seconds N  repeat every N seconds (fractions allowed)\n"
	" -c, --count N    repeat N times, then exit (every second without -s)\n"
	" -V, --version    the version\n"
	" --json           one JSON object per display, values in bytes\n";

struct free_opts {
	int exponent; /* 0 = kB as read, 1 = bytes, 2.. = base^(exponent-1) */
	bool si, human, wide, total, committed, lohi, line;
	u64 warned; /* meminfo fields warned about (ptk_meminfo_implausible) */
	long reps; /* displays left; < 0 = until stopped */
};

static u64 ipow(u64 base, int e)
{
	u64 r = 1;

	while (e-- > 0)
		r *= base;
	return r;
}

/*
 * procps free's scale_size(): kb is the /proc/meminfo value in kB. Non-human output
 * truncates; human output tries "%.1f<unit>" then "%ld<unit>" for B, K, M, G, T, P and keeps
 * the first that fits in 4 (SI) or 5 (binary, "i" suffix) characters, so 23.5 GiB shows
 * as "23Gi", truncated, like procps.
 */
static const char *free_scale(u64 kb, const struct free_opts *o, char *buf, size_t size)
{
	static const char up[] = { 'B', 'K', 'M', 'G', 'T', 'P' };
	u64 bytes = kb * 1024, base = o->si ? 1000 : 1024;
	int max = o->si ? 4 : 5;

	if (!o->human) {
		if (o->exponent == 0) /* kB, or kB of 1000 bytes with --si alone */
			snprintf(buf, size, "%" PRIu64, o->si ? bytes / 1000 : kb);
		else if (o->exponent == 1)
			snprintf(buf, size, "%" PRIu64, bytes);
		else
			snprintf(buf, size, "%" PRIu64, bytes / ipow(base, o->exponent - 1));
		return buf;
	}
	if (snprintf(buf, size, "%" PRIu64 "B", bytes) <= 4)
		return buf;
	for (int i = 1; i < (int)sizeof(up); i++) {
		double p = (double)ipow(base, i);
		/* procps rounds through a float here; keep it for identical output */
		if (snprintf(buf, size, "%.1f%c%s", (float)(bytes / p), up[i], o->si ? "" : "i") <=
		    max)
			return buf;
		if (snprintf(buf, size, "%ld%c%s", (long)(bytes / p), up[i], o->si ? "" : "i") <=
		    max)
			return buf;
	}
	return buf;
}

/* Print one text row: label then cells from kb (kB; unknown: "-") rescaled per the options. The
 * columns, widths and titles come from free_cols through a string copy of the table. */
static void text_row(struct ptk_sink *s, const struct free_opts *o, const char *label,
		     const int *idx, int n, const struct ptk_val *kb)
{
	struct ptk_metric cols[F_N];
	struct ptk_val v[F_N];
	char cell[F_N][32];
	struct ptk_table tab = { "free", cols, n };

	for (int i = 0; i < n; i++) {
		cols[i] = free_cols[idx[i]];
		cols[i].type = PTK_V_STR;
		v[i] = kb[i].na ? PTK_NA : PTK_S(free_scale(kb[i].u, o, cell[i], sizeof(cell[i])));
	}
	ptk_sink_table_begin(s, &tab, false, NULL);
	ptk_sink_row(s, label, v);
	ptk_sink_table_end(s);
}

static void text_header(struct ptk_sink *s, const int *idx, int n)
{
	struct ptk_metric cols[F_N];
	struct ptk_table tab = { "free", cols, n };

	for (int i = 0; i < n; i++)
		cols[i] = free_cols[idx[i]];
	ptk_sink_table_begin(s, &tab, true, "");
	ptk_sink_table_end(s);
}

static struct json_object *json_obj(const int *idx, int n, const struct ptk_val *kb)
{
	struct ptk_metric cols[F_N];
	struct ptk_val v[F_N];
	struct ptk_table tab = { "free", cols, n };

	for (int i = 0; i < n; i++) {
		cols[i] = free_cols[idx[i]];
		v[i] = kb[i].na ? PTK_NA : PTK_U(kb[i].u * 1024);
	}
	return ptk_json_row(&tab, v);
}

/* a + b, or - of the two; unknown when either is */
static struct ptk_val kb_add(struct ptk_val a, struct ptk_val b)
{
	return a.na || b.na ? PTK_NA : PTK_U(a.u + b.u);
}

static struct ptk_val kb_sub0(struct ptk_val a, struct ptk_val b)
{
	return a.na || b.na ? PTK_NA : PTK_U(a.u > b.u ? a.u - b.u : 0);
}

/* the text of a kB value in the unit of the options, "-" when unknown */
static const char *free_cell(struct ptk_val kb, const struct free_opts *o, char *buf, size_t size)
{
	return kb.na ? "-" : free_scale(kb.u, o, buf, size);
}

static int free_sample(struct ptk_ctx *ctx, void *arg, long i, double itv_s)
{
	struct free_opts *o = arg;
	struct ptk_sink *s = &ctx->sink;
	struct ptk_snap sn = { 0 };
	struct ptk_rows mem = { 0 }, swap = { 0 };
	struct ptk_meminfo_lohi lh;
	int r = ptk_meminfo_read_lohi(&ctx->src, &sn.mi, &lh);

	if (r) {
		ptk_err("cannot read %s/meminfo: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	/* meminfo alone (free runs on trees holding only that file): the memory and swap
	 * activities compute the columns; a field above its total makes its values unknown */
	sn.has_mi = true;
	sn.read = PTK_SNAP_BIT(PTK_SNAP_MEMINFO);
	ptk_activities[PTK_ACT_MEM].rows(NULL, &sn, 0, NULL, &mem);
	ptk_activities[PTK_ACT_SWAP].rows(NULL, &sn, 0, NULL, &swap);
	const struct ptk_meminfo mi = sn.mi;
	u64 bad = ptk_meminfo_implausible(&mi) & ~o->warned;
	for (int f = 0; f < PTK_MI_NFIELDS; f++) {
		char why[128];

		if (bad & (1ull << f))
			ptk_warn("%s/meminfo: %s: the values computed from it are unknown",
				 ctx->src.procfs,
				 ptk_meminfo_implausible_why(&mi, f, why, sizeof(why)));
	}
	o->warned |= bad;
#define MEM(m) mem.r[0].v[ptk_act_col(&ptk_activities[PTK_ACT_MEM], PTK_M_##m)]
#define SWP(m) swap.r[0].v[ptk_act_col(&ptk_activities[PTK_ACT_SWAP], PTK_M_##m)]
	struct ptk_val total = MEM(MEM_TOTAL), used = MEM(MEM_USED), fr = MEM(MEM_FREE);
	struct ptk_val shared = MEM(MEM_SHARED), buffers = MEM(MEM_BUFFERS);
	struct ptk_val cache = MEM(MEM_CACHE), buff_cache = MEM(MEM_BUFF_CACHE);
	struct ptk_val avail = MEM(MEM_AVAIL);
	struct ptk_val swap_kb[] = { SWP(SWP_TOTAL), SWP(SWP_USED), SWP(SWP_FREE) };
#undef MEM
#undef SWP
	ptk_rows_free(&mem);
	ptk_rows_free(&swap);
	static const int mem_w[] = {
		F_TOTAL, F_USED, F_FREE, F_SHARED, F_BUFFERS, F_CACHE, F_AVAIL
	};
	static const int mem_n[] = { F_TOTAL, F_USED, F_FREE, F_SHARED, F_BUFFCACHE, F_AVAIL };
	static const int three[] = { F_TOTAL, F_USED, F_FREE };
	const int *mem_idx = o->wide ? mem_w : mem_n;
	int nmem = o->wide ? 7 : 6;
	struct ptk_val mem_kb_w[] = { total, used, fr, shared, buffers, cache, avail };
	struct ptk_val mem_kb_n[] = { total, used, fr, shared, buff_cache, avail };
	const struct ptk_val *mem_kb = o->wide ? mem_kb_w : mem_kb_n;
	/* procps (library/meminfo.c): without the Low lines all memory is low, high is 0 */
	struct ptk_val low_t = lh.has_low ? PTK_U(lh.low_total) : total;
	struct ptk_val low_f = lh.has_low ? PTK_U(lh.low_free) : fr;
	struct ptk_val high_t = PTK_U(lh.has_high ? lh.high_total : 0);
	struct ptk_val high_f = PTK_U(lh.has_high ? lh.high_free : 0);
	struct ptk_val low_kb[] = { low_t, kb_sub0(low_t, low_f), low_f };
	struct ptk_val high_kb[] = { high_t, kb_sub0(high_t, high_f), high_f };
	struct ptk_val tot_kb[] = { kb_add(total, swap_kb[0]), kb_add(used, swap_kb[1]),
				    kb_add(fr, swap_kb[2]) };
	/* procps prints CommitLimit - Committed_AS as an unsigned long: negative wraps. We
	 * clamp at 0 instead of printing 18446744073709551xxx. */
	struct ptk_val cl =
		ptk_meminfo_has(&mi, PTK_MI_COMMIT_LIMIT) ? PTK_U(mi.commit_limit) : PTK_NA;
	struct ptk_val ca =
		ptk_meminfo_has(&mi, PTK_MI_COMMITTED_AS) ? PTK_U(mi.committed_as) : PTK_NA;
	struct ptk_val comm_kb[] = { cl, ca, kb_sub0(cl, ca) };

	if (ctx->json) {
		ptk_sink_begin(s);
		ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(s, "mem", json_obj(mem_idx, nmem, mem_kb));
		ptk_sink_meta_json(s, "swap", json_obj(three, 3, swap_kb));
		if (o->lohi) {
			ptk_sink_meta_json(s, "low", json_obj(three, 3, low_kb));
			ptk_sink_meta_json(s, "high", json_obj(three, 3, high_kb));
		}
		if (o->total)
			ptk_sink_meta_json(s, "total", json_obj(three, 3, tot_kb));
		if (o->committed)
			ptk_sink_meta_json(s, "committed", json_obj(three, 3, comm_kb));
		ptk_sink_meta_bool(s, "mem_available_estimated", !mi.has_available);
		ptk_sink_end(s);
		return 0;
	}
	if (o->line) {
		/* procps 4.0.4 -L: four labelled values on one line, each %11s and a space */
		char b[4][32];

		fprintf(s->out, "SwapUse %11s CachUse %11s  MemUse %11s MemFree %11s \n",
			free_cell(swap_kb[1], o, b[0], 32), free_cell(buff_cache, o, b[1], 32),
			free_cell(used, o, b[2], 32), free_cell(fr, o, b[3], 32));
		fflush(s->out);
		return 0;
	}
	if (i > 0)
		fputc('\n', s->out); /* procps separates repeated displays by a blank line */
	s->prefix_width = 8; /* "Mem:" padded to 9 columns incl. the separator */
	text_header(s, mem_idx, nmem);
	text_row(s, o, "Mem:", mem_idx, nmem, mem_kb);
	if (o->lohi) {
		text_row(s, o, "Low:", three, 3, low_kb);
		text_row(s, o, "High:", three, 3, high_kb);
	}
	text_row(s, o, "Swap:", three, 3, swap_kb);
	if (o->total)
		text_row(s, o, "Total:", three, 3, tot_kb);
	if (o->committed)
		text_row(s, o, "Comm:", three, 3, comm_kb);
	fflush(s->out);
	return 0;
}

/*
 * procps free's -s argument (strtod_nol_or_err in procps's strutils.c): blanks, a sign,
 * digits, a '.' and digits, nothing else (no exponent, inf or hex). Returns 0, or -EINVAL.
 */
static int parse_seconds(const char *arg, double *v)
{
	const char *p = arg;
	double num = 0, scale = 1;
	bool neg = false;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; isdigit((unsigned char)*p); p++)
		num = num * 10 + (*p - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			num += (*p - '0') * (scale /= 10);
	if (*p || !*arg)
		return -EINVAL;
	*v = neg ? -num : num;
	return 0;
}

enum {
	O_SI = 0x100,
	O_KILO,
	O_MEGA,
	O_GIGA,
	O_TERA,
	O_PETA,
	O_TEBI,
	O_PEBI,
};

int cmd_free(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "bytes", no_argument, NULL, 'b' },
					      { "kilo", no_argument, NULL, O_KILO },
					      { "mega", no_argument, NULL, O_MEGA },
					      { "giga", no_argument, NULL, O_GIGA },
					      { "tera", no_argument, NULL, O_TERA },
					      { "peta", no_argument, NULL, O_PETA },
					      { "kibi", no_argument, NULL, 'k' },
					      { "mebi", no_argument, NULL, 'm' },
					      { "gibi", no_argument, NULL, 'g' },
					      { "tebi", no_argument, NULL, O_TEBI },
					      { "pebi", no_argument, NULL, O_PEBI },
					      { "human", no_argument, NULL, 'h' },
					      { "si", no_argument, NULL, O_SI },
					      { "lohi", no_argument, NULL, 'l' },
					      { "line", no_argument, NULL, 'L' },
					      { "version", no_argument, NULL, 'V' },
					      { "total", no_argument, NULL, 't' },
					      { "committed", no_argument, NULL, 'v' },
					      { "seconds", required_argument, NULL, 's' },
					      { "count", required_argument, NULL, 'c' },
					      { "wide", no_argument, NULL, 'w' },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct free_opts o = { .reps = 1 };
	double interval = 1.0;
	bool unit_set = false, repeat = false, counted = false;
	int c, r;

	opterr = 0; /* one error line, ours */
	while ((c = getopt_long(argc, argv, "bkmghlLtvc:ws:V", opts, NULL)) != -1) {
		int e = -1;
		bool si = false;

		switch (c) {
		case 'b':
			e = 1;
			break;
		case 'k':
			e = 2;
			break;
		case 'm':
			e = 3;
			break;
		case 'g':
			e = 4;
			break;
		case O_TEBI:
			e = 5;
			break;
		case O_PEBI:
			e = 6;
			break;
		case O_KILO:
			e = 2, si = true;
			break;
		case O_MEGA:
			e = 3, si = true;
			break;
		case O_GIGA:
			e = 4, si = true;
			break;
		case O_TERA:
			e = 5, si = true;
			break;
		case O_PETA:
			e = 6, si = true;
			break;
		case 'h':
			o.human = true;
			break;
		case O_SI:
			o.si = true;
			break;
		case 'l':
			o.lohi = true;
			break;
		case 'L':
			o.line = true;
			break;
		case 'V':
			printf("ptk free %s (procps-ng free's layout)\n", PTK_VERSION);
			return 0;
		case 't':
			o.total = true;
			break;
		case 'v':
			o.committed = true;
			break;
		case 'w':
			o.wide = true;
			break;
		case 's':
			/* procps free's words */
			if (!*optarg)
				return ptk_usage_error(ctx, "seconds argument failed: ''");
			if (parse_seconds(optarg, &interval))
				return ptk_usage_error(ctx, "seconds argument failed: '%s': %s",
						       optarg, strerror(EINVAL));
			if (!(interval * 1e6 >= 1))
				return ptk_usage_error(
					ctx, "seconds argument `%s' is not positive number",
					optarg);
			if (interval > PTK_MAX_INTERVAL_S)
				return ptk_usage_error(
					ctx, "seconds argument `%s' is more than a year", optarg);
			repeat = true;
			break;
		case 'c': {
			/* procps free's words (strtol_or_err, then < 1 is ERANGE); above INT_MAX
			 * procps wraps its int, ptk refuses */
			char *end;
			long n;

			errno = 0;
			n = *optarg ? strtol(optarg, &end, 10) : 0;
			if (!*optarg || (!errno && (end == optarg || *end)))
				return ptk_usage_error(ctx, "failed to parse count argument: '%s'",
						       optarg);
			if (errno || n < 1 || n > 0x7fffffffL)
				return ptk_usage_error(ctx,
						       "failed to parse count argument: '%s': %s",
						       optarg, strerror(ERANGE));
			o.reps = n;
			repeat = counted = true;
			break;
		}
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				return 0;
			}
			if (r < 0)
				return ptk_usage_error(ctx,
						       "invalid option or missing argument: '%s'",
						       argv[optind - 1]);
		}
		if (e >= 0) {
			if (unit_set)
				return ptk_usage_error(ctx,
						       "Multiple unit options don't make sense.");
			unit_set = true;
			o.exponent = e;
			o.si |= si;
		}
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (repeat && !counted)
		o.reps = -1;
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	r = ptk_loop(ctx, interval, o.reps < 0 ? -1 : o.reps - 1, free_sample, &o);
	return r > 0 ? r : 0;
}
