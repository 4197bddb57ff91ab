// SPDX-License-Identifier: GPL-2.0
/*
 * ptk free: memory and swap usage, laid out byte for byte as procps-ng 4.0.2 free(1).
 *
 * procps 4.0.2 (libproc2 meminfo.c): used = MemTotal - MemAvailable, buff/cache = Buffers +
 * Cached + SReclaimable, -w splits it into buffers (Buffers) and cache (Cached +
 * SReclaimable). JSON values are bytes whatever the display unit.
 */
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
	"usage: ptk free [-b|-k|-m|-g|--tera|--peta|-h] [--si] [-w] [-t] [-v] [-s N] [-c N]\n"
	"Memory and swap usage from /proc/meminfo, as procps-ng 4.0.2 free.\n"
	" -b, --bytes      bytes            -k, --kibi  KiB (default)   -m, --mebi  MiB\n"
	" -g, --gibi       GiB              --tebi, --pebi               TiB, PiB\n"
	" --kilo, --mega, --giga, --tera, --peta   powers of 1000\n"
	" -h, --human      human-readable (B, Ki, Mi, ...)   --si  powers of 1000\n"
	" -w, --wide       buffers and cache in separate columns\n"
	" -t, --total      add a Total: row (RAM + swap)\n"
	" -v, --committed  add a Comm: row (CommitLimit, Committed_AS, limit - committed)\n"
	" -s, --seconds N  repeat every N seconds (fractions allowed)\n"
	" -c, --count N    repeat N times, then exit\n"
	" --json           one JSON object per display, values in bytes\n";

struct free_opts {
	int exponent; /* 0 = kB as read, 1 = bytes, 2.. = base^(exponent-1) */
	bool si, human, wide, total, committed;
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
		if (o->exponent == 0)
			snprintf(buf, size, "%" PRIu64, kb);
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

#define KB_NA UINT64_MAX /* a value unknown: meminfo lacked a field it needs (a cut file) */

/* Print one text row: label then cells from kb (KB_NA: "-") rescaled per the options. The
 * columns, widths and titles come from free_cols through a string copy of the table. */
static void text_row(struct ptk_sink *s, const struct free_opts *o, const char *label,
		     const int *idx, int n, const u64 *kb)
{
	struct ptk_metric cols[F_N];
	struct ptk_val v[F_N];
	char cell[F_N][32];
	struct ptk_table tab = { "free", cols, n };

	for (int i = 0; i < n; i++) {
		cols[i] = free_cols[idx[i]];
		cols[i].type = PTK_V_STR;
		v[i] = PTK_S(kb[i] == KB_NA ? "-" : free_scale(kb[i], o, cell[i], sizeof(cell[i])));
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

static struct json_object *json_obj(const int *idx, int n, const u64 *kb)
{
	struct ptk_metric cols[F_N];
	struct ptk_val v[F_N];
	struct ptk_table tab = { "free", cols, n };

	for (int i = 0; i < n; i++) {
		cols[i] = free_cols[idx[i]];
		v[i] = kb[i] == KB_NA ? PTK_NA : PTK_U(kb[i] * 1024);
	}
	return ptk_json_row(&tab, v);
}

static u64 kb_of(struct ptk_val v)
{
	return v.na ? KB_NA : v.u;
}

static u64 kb_add(u64 a, u64 b)
{
	return a == KB_NA || b == KB_NA ? KB_NA : a + b;
}

static u64 mi_kb(const struct ptk_meminfo *mi, enum ptk_mi_field f)
{
	return ptk_meminfo_has(mi, f) ? ptk_meminfo_get(mi, f) : KB_NA;
}

static int free_sample(struct ptk_ctx *ctx, void *arg, long i, double itv_s)
{
	const struct free_opts *o = arg;
	struct ptk_sink *s = &ctx->sink;
	struct ptk_snap sn = { 0 };
	struct ptk_rows mem = { 0 }, swap = { 0 };
	int r = ptk_meminfo_read(&ctx->src, &sn.mi);

	if (r) {
		ptk_err("cannot read %s/meminfo: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	/* meminfo alone (free runs on trees holding only that file): the memory and swap
	 * activities compute the columns */
	sn.has_mi = true;
	sn.read = PTK_SNAP_BIT(PTK_SNAP_MEMINFO);
	ptk_activities[PTK_ACT_MEM].rows(NULL, &sn, 0, NULL, &mem);
	ptk_activities[PTK_ACT_SWAP].rows(NULL, &sn, 0, NULL, &swap);
	/* each value: the activity's, KB_NA where it is unknown */
#define MEM(m) kb_of(mem.r[0].v[ptk_act_col(&ptk_activities[PTK_ACT_MEM], PTK_M_##m)])
#define SWP(m) kb_of(swap.r[0].v[ptk_act_col(&ptk_activities[PTK_ACT_SWAP], PTK_M_##m)])
	const struct ptk_meminfo mi = sn.mi;
	u64 total = MEM(MEM_TOTAL), used = MEM(MEM_USED), mfree = MEM(MEM_FREE);
	u64 shared = MEM(MEM_SHARED), buffers = MEM(MEM_BUFFERS), avail = MEM(MEM_AVAIL);
	u64 cache = MEM(MEM_CACHE), buff_cache = MEM(MEM_BUFF_CACHE);
	u64 swap_total = SWP(SWP_TOTAL), swap_used = SWP(SWP_USED), swap_free = SWP(SWP_FREE);
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
	u64 mem_kb_w[] = { total, used, mfree, shared, buffers, cache, avail };
	u64 mem_kb_n[] = { total, used, mfree, shared, buff_cache, avail };
	const u64 *mem_kb = o->wide ? mem_kb_w : mem_kb_n;
	u64 swap_kb[] = { swap_total, swap_used, swap_free };
	u64 tot_kb[] = { kb_add(total, swap_total), kb_add(used, swap_used),
			 kb_add(mfree, swap_free) };
	/* procps prints CommitLimit - Committed_AS as an unsigned long: negative wraps. We
	 * clamp at 0 instead of printing 18446744073709551xxx. */
	u64 limit = mi_kb(&mi, PTK_MI_COMMIT_LIMIT), as = mi_kb(&mi, PTK_MI_COMMITTED_AS);
	u64 comm_kb[] = { limit, as,
			  limit == KB_NA || as == KB_NA ? KB_NA :
			  limit > as			? limit - as :
							  0 };

	if (ctx->json) {
		ptk_sink_begin(s);
		ptk_sink_meta_f64(s, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_json(s, "mem", json_obj(mem_idx, nmem, mem_kb));
		ptk_sink_meta_json(s, "swap", json_obj(three, 3, swap_kb));
		if (o->total)
			ptk_sink_meta_json(s, "total", json_obj(three, 3, tot_kb));
		if (o->committed)
			ptk_sink_meta_json(s, "committed", json_obj(three, 3, comm_kb));
		ptk_sink_meta_bool(s, "mem_available_estimated", !mi.has_available);
		ptk_sink_end(s);
		return 0;
	}
	if (i > 0)
		fputc('\n', s->out); /* procps separates repeated displays by a blank line */
	s->prefix_width = 8; /* "Mem:" padded to 9 columns incl. the separator */
	text_header(s, mem_idx, nmem);
	text_row(s, o, "Mem:", mem_idx, nmem, mem_kb);
	text_row(s, o, "Swap:", three, 3, swap_kb);
	if (o->total)
		text_row(s, o, "Total:", three, 3, tot_kb);
	if (o->committed)
		text_row(s, o, "Comm:", three, 3, comm_kb);
	fflush(s->out);
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
	while ((c = getopt_long(argc, argv, "bkmghtvc:ws:", opts, NULL)) != -1) {
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
			if (ptk_parse_double(optarg, &interval) || !(interval >= 1e-6) ||
			    interval > 86400.0 * 365)
				return ptk_usage_error(
					ctx, "seconds argument '%s' is not a positive number",
					optarg);
			repeat = true;
			break;
		case 'c': {
			u64 n;
			if (ptk_parse_u64(optarg, &n) || n < 1 || n > (u64)1 << 40)
				return ptk_usage_error(ctx, "invalid count '%s'", optarg);
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
						       "multiple unit options don't make sense");
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
