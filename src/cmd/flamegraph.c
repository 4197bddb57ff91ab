// SPDX-License-Identifier: GPL-2.0
/* ptk flamegraph: folded stacks or `perf script` text -> interactive SVG flame graph. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/folded.h"
#include "model/perfscript.h"
#include "output/archive.h"
#include "output/flamegraph.h"
#include "output/pprof.h"

static const char usage[] =
	"usage: ptk flamegraph [IN...] [-o OUT.svg] [--reverse] [--title T] [--subtitle T]\n"
	"                      [--width PX] [--colors hot|mem|io|java|js] [--countname NAME]\n"
	"                      [--diff A B] [--folded] [--pid | --tid] [--kernel] [--jit]\n"
	"                      [--all] [--addrs] [--event-filter NAME] [--no-period] [-v]\n"
	"                      [--db FILE [--at T | --from T --to T] [--utc]]\n"
	"Draw an interactive SVG flame graph (flamegraph.pl) from folded stacks (\"a;b;c 12\")\n"
	"or from `perf script` text, recognised by itself and collapsed as stackcollapse-perf.pl\n"
	"does (process name first, then frames root to leaf, each sample weighted by its\n"
	"period, only the first event kept). IN defaults to standard input;\n"
	"several inputs are added together. In the SVG: hover for counts, click to zoom, Ctrl-F\n"
	"or Search for a regular expression (the matched share is shown), Esc resets.\n"
	"  -o OUT        write the SVG to OUT (default standard output); OUT.pb.gz or OUT.pprof:\n"
	"                a pprof profile of the stacks (go tool pprof, Parca, Pyroscope)\n"
	"  --reverse     icicle graph: root at the top (also --inverted)\n"
	"  --title T / --subtitle T   heading (default \"Flame Graph\" / none)\n"
	"  --width PX    image width (default 1200)\n"
	"  --colors P    palette: hot (default), mem, io, java (green Java, yellow C++, orange\n"
	"                kernel, aqua inlined), js (green JS source, aqua builtins)\n"
	"  --countname NAME   what the counts are (default \"samples\")\n"
	"  --diff A B    differential graph of B against A (difffolded.pl + flamegraph.pl):\n"
	"                widths from B, red grew, blue shrank (by the frame's own change)\n"
	"  --folded      write the folded stacks instead of an SVG (stackcollapse-perf.pl)\n"
	"  --pid / --tid first frame comm-PID / comm-PID/TID instead of comm\n"
	"  --kernel / --jit   annotate kernel (_[k]) / JIT (_[j]) frames, for --colors java\n"
	"  --all         both annotations (--kernel --jit)\n"
	"  --addrs       frames without a symbol as [dso <addr>]\n"
	"  --event-filter NAME   perf script input: keep only samples of this event (default:\n"
	"                the first one seen, with a warning naming the others; also --event)\n"
	"  --no-period   count 1 per sample instead of the sample's period\n"
	"  -v            print the samples read and written, per event, to standard error\n"
	"  --db FILE     the continuous profile of 'ptk record --profile' in that archive:\n"
	"                --at T the interval nearest T, --from T / --to T a window (default all);\n"
	"                with --diff A B, A and B are windows 'FROM..TO' or times T\n"
	"  --utc         times are UTC (default local); T as 'ptk sar' takes it (HH:MM[:SS],\n"
	"                'YYYY-MM-DD HH:MM', @EPOCH, -30m, now)\n";

enum {
	OPT_REVERSE = 0x1300,
	OPT_TITLE,
	OPT_SUBTITLE,
	OPT_WIDTH,
	OPT_COLORS,
	OPT_COUNTNAME,
	OPT_DIFF,
	OPT_FOLDED,
	OPT_PID,
	OPT_TID,
	OPT_KERNEL,
	OPT_JIT,
	OPT_EVENT,
	OPT_ALL,
	OPT_ADDRS,
	OPT_NOPERIOD,
	OPT_DB,
	OPT_AT,
	OPT_FROM,
	OPT_TO,
	OPT_UTC,
};

/* The archive's profile over [from_ms, to_ms] into f; "T" alone: the interval nearest T.
 * 0, or an exit code after printing the reason. */
static int read_db_window(struct ptk_arc *a, const char *spec_from, const char *spec_to,
			  const char *spec_at, bool utc, struct ptk_folded *f)
{
	s64 from = INT64_MIN, to = INT64_MAX;
	long n = 0;
	int r;

	if (spec_at) {
		struct ptk_arc_index idx = { 0 };
		s64 t;
		int k;
		if (ptk_arc_parse_time(spec_at, utc, 0, &t)) {
			ptk_err("--at: cannot read the time '%s'", spec_at);
			return PTK_EXIT_USAGE;
		}
		if (ptk_arc_list(a, INT64_MIN, INT64_MAX, &idx) ||
		    (k = ptk_arc_nearest(&idx, t)) < 0) {
			ptk_arc_index_free(&idx);
			ptk_err("the archive has no samples");
			return PTK_EXIT_RUNTIME;
		}
		from = to = idx.t_ms[k];
		ptk_arc_index_free(&idx);
	}
	if (spec_from && ptk_arc_parse_time(spec_from, utc, 0, &from)) {
		ptk_err("cannot read the time '%s'", spec_from);
		return PTK_EXIT_USAGE;
	}
	if (spec_to && ptk_arc_parse_time(spec_to, utc, 0, &to)) {
		ptk_err("cannot read the time '%s'", spec_to);
		return PTK_EXIT_USAGE;
	}
	r = ptk_arc_load_profile(a, from, to, f, &n);
	if (r == -ENOENT) {
		ptk_err("this archive holds no profiles (recorded before schema version 3)");
		return PTK_EXIT_RUNTIME;
	}
	if (r) {
		ptk_err("cannot read the profile: %s", ptk_arc_errmsg(a));
		return PTK_EXIT_RUNTIME;
	}
	if (!n) {
		ptk_err("no profile in that window (record with 'ptk record --profile')");
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

/* A --diff operand with --db: "FROM..TO" or a time T (the interval nearest it). */
static int read_db_spec(struct ptk_arc *a, const char *spec, bool utc, struct ptk_folded *f)
{
	const char *dots = strstr(spec, "..");
	char from[128], to[128];

	if (!dots)
		return read_db_window(a, NULL, NULL, spec, utc, f);
	snprintf(from, sizeof(from), "%.*s", (int)(dots - spec), spec);
	snprintf(to, sizeof(to), "%s", dots + 2);
	return read_db_window(a, from[0] ? from : NULL, to[0] ? to : NULL, NULL, utc, f);
}

struct totals {
	u64 samples_in, samples_out, filtered, skipped, folded_bad, overflow;
	struct ptk_perfscript ev; /* events summed over inputs (names and counts only) */
	bool perf;
};

static void add_events(struct totals *t, const struct ptk_perfscript *ps)
{
	for (int i = 0; i < ps->nev && i < PTK_PERFSCRIPT_MAX_EVENTS; i++) {
		int k;
		for (k = 0; k < t->ev.nev; k++)
			if (!strcmp(t->ev.ev[k].name, ps->ev[i].name))
				break;
		if (k == PTK_PERFSCRIPT_MAX_EVENTS)
			continue;
		if (k == t->ev.nev) {
			strcpy(t->ev.ev[k].name, ps->ev[i].name);
			t->ev.nev++;
		}
		t->ev.ev[k].samples += ps->ev[i].samples;
		t->ev.ev[k].kept |= ps->ev[i].kept;
	}
}

/* One input line: folded or perf script (decided). line is NUL-terminated, n its length. */
static void one_line(char *line, size_t n, bool perf, struct ptk_perfscript *ps,
		     struct ptk_folded *f, struct totals *t)
{
	if (perf)
		ptk_perfscript_linen(ps, line, n);
	else if (line[0] != '#' && line[strspn(line, " \t\r")] != '\0' &&
		 ptk_folded_add_line(f, line))
		t->folded_bad++;
}

static bool significant(const char *l)
{
	return l[0] != '#' && l[strspn(l, " \t\r")] != '\0';
}

/* The format from the first two significant held lines, then the held lines fed. Returns
 * true for perf script. */
static bool decide(char *held, const size_t *off, size_t n, struct ptk_perfscript *ps,
		   struct ptk_folded *f, struct totals *t)
{
	const char *first[2] = { NULL, NULL };
	int nsig = 0;
	bool perf;

	for (size_t i = 0; i < n && nsig < 2; i++)
		if (significant(held + off[i]))
			first[nsig++] = held + off[i];
	perf = ptk_perfscript_detect(first[0], first[1]);
	for (size_t i = 0; i < n; i++)
		one_line(held + off[i], strlen(held + off[i]), perf, ps, f, t);
	return perf;
}

/*
 * Read one input (NULL or "-" = stdin), folded or perf script, into f, in 1 MiB blocks
 * split at newlines in place: no copy and no allocation per line. The first two
 * significant lines decide the format. 0 or -errno.
 */
static int read_input(const char *path, struct ptk_folded *f, const struct ptk_perfscript_opts *po,
		      struct totals *t)
{
	int fd = (!path || !strcmp(path, "-")) ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 20, len = 0, nheld = 0, heldcap = 0;
	char *buf, *held = NULL;
	size_t *heldoff = NULL, nhoff = 0;
	int nsig = 0, err = 0;
	bool decided = false, perf = false, eof = false;
	struct ptk_perfscript ps;

	if (fd < 0)
		return -errno;
	buf = xmalloc(cap + 1);
	ptk_perfscript_init(&ps, f, po);
	while (!eof) {
		ssize_t r = read(fd, buf + len, cap - len);
		char *p = buf, *end, *nl;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0) {
			eof = true;
			if (len && buf[len - 1] != '\n')
				buf[len++] = '\n'; /* the last line, without its newline */
		}
		len += r;
		end = buf + len;
		while ((nl = memchr(p, '\n', end - p))) {
			size_t n = nl - p;
			*nl = '\0';
			if (!decided) {
				/* hold the lines until two significant ones decide the format */
				if (nheld + n + 1 > heldcap) {
					heldcap = (nheld + n + 1) * 2;
					held = xrealloc(held, heldcap);
				}
				memcpy(held + nheld, p, n + 1);
				heldoff = xrealloc(heldoff, (nhoff + 1) * sizeof(*heldoff));
				heldoff[nhoff++] = nheld;
				nheld += n + 1;
				if (significant(p))
					nsig++;
				p = nl + 1;
				if (nsig < 2)
					continue;
			} else {
				one_line(p, n, perf, &ps, f, t);
				p = nl + 1;
				continue;
			}
			perf = decide(held, heldoff, nhoff, &ps, f, t);
			decided = true;
		}
		/* keep the partial last line; a line longer than the buffer grows it */
		len = end - p;
		memmove(buf, p, len);
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		if (eof && !decided) {
			perf = decide(held, heldoff, nhoff, &ps, f, t);
			decided = true;
		}
	}
	free(held);
	free(heldoff);
	free(buf);
	if (perf) {
		ptk_perfscript_finish(&ps);
		t->perf = true;
		t->samples_in += ps.samples_in;
		t->samples_out += ps.samples_out;
		t->filtered += ps.samples_filtered;
		t->skipped += ps.lines_skipped;
		t->overflow += ps.overflow;
		add_events(t, &ps);
	}
	ptk_perfscript_release(&ps);
	if (fd)
		close(fd);
	return err;
}

static void report(const struct totals *t, const char *event, bool verbose)
{
	if (t->folded_bad)
		ptk_warn("ignored %" PRIu64 " lines with invalid format", t->folded_bad);
	if (t->overflow)
		ptk_warn("%" PRIu64 " stacks left out: their count passes 2^64 - 1", t->overflow);
	if (!t->perf)
		return;
	if (t->ev.nev > 1 && !event) {
		char buf[512];
		int n = 0;
		const char *kept = "?";
		for (int i = 0; i < t->ev.nev && n < (int)sizeof(buf) - 80; i++) {
			if (t->ev.ev[i].kept) {
				kept = t->ev.ev[i].name[0] ? t->ev.ev[i].name : "?";
				continue;
			}
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s %" PRIu64, n ? ", " : "",
				      t->ev.ev[i].name[0] ? t->ev.ev[i].name : "?",
				      t->ev.ev[i].samples);
		}
		ptk_warn("%d events: kept the first, %s; left out %s samples (pick one with "
			 "--event-filter NAME)",
			 t->ev.nev, kept, buf);
	}
	if (verbose) {
		fprintf(stderr,
			"%s: perf script: %" PRIu64 " samples in, %" PRIu64 " out, %" PRIu64
			" of other events, %" PRIu64 " lines skipped\n",
			ptk_progname, t->samples_in, t->samples_out, t->filtered, t->skipped);
		for (int i = 0; i < t->ev.nev; i++)
			fprintf(stderr, "%s:   event %s: %" PRIu64 " samples%s\n", ptk_progname,
				t->ev.ev[i].name, t->ev.ev[i].samples,
				t->ev.ev[i].kept ? "" : " (left out)");
	}
}

int cmd_flamegraph(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "reverse", no_argument, NULL, OPT_REVERSE },
		{ "inverted", no_argument, NULL, OPT_REVERSE },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "colors", required_argument, NULL, OPT_COLORS },
		{ "colours", required_argument, NULL, OPT_COLORS },
		{ "countname", required_argument, NULL, OPT_COUNTNAME },
		{ "diff", required_argument, NULL, OPT_DIFF },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "pid", no_argument, NULL, OPT_PID },
		{ "tid", no_argument, NULL, OPT_TID },
		{ "kernel", no_argument, NULL, OPT_KERNEL },
		{ "jit", no_argument, NULL, OPT_JIT },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "event-filter", required_argument, NULL, OPT_EVENT },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "no-period", no_argument, NULL, OPT_NOPERIOD },
		{ "db", required_argument, NULL, OPT_DB },
		{ "at", required_argument, NULL, OPT_AT },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "utc", no_argument, NULL, OPT_UTC },
		{ "verbose", no_argument, NULL, 'v' },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	static const char *const palettes[] = { "hot", "mem", "io", "java", "js" };
	struct ptk_flame_opts fo = { 0 };
	struct ptk_perfscript_opts po = { 0 };
	struct totals tot = { 0 };
	struct ptk_folded *f = NULL, *base = NULL;
	const char *outpath = NULL, *diff_a = NULL, *diff_b = NULL;
	const char *db = NULL, *at = NULL, *from = NULL, *to = NULL;
	bool utc = false;
	bool folded_out = false, verbose = false, pal_ok = false;
	FILE *out = stdout;
	struct ptk_outfile of = { .fd = -1 };
	int c, r, rc = PTK_EXIT_RUNTIME;

	while ((c = ptk_getopt(ctx, argc, argv, "o:v", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case OPT_REVERSE:
			fo.reverse = true;
			break;
		case OPT_TITLE:
			fo.title = optarg;
			break;
		case OPT_SUBTITLE:
			fo.subtitle = optarg;
			break;
		case OPT_WIDTH:
			if (ptk_parse_int(optarg, &fo.width) || fo.width < 100 || fo.width > 100000)
				return ptk_usage_error(
					ctx, "--width: expected pixels 100..100000, got '%s'",
					optarg);
			break;
		case OPT_COLORS:
			fo.palette = optarg;
			for (size_t i = 0; i < ARRAY_SIZE(palettes); i++)
				pal_ok |= !strcmp(optarg, palettes[i]);
			if (!pal_ok)
				return ptk_usage_error(
					ctx,
					"--colors: expected hot, mem, io, java or js, got '%s'",
					optarg);
			break;
		case OPT_COUNTNAME:
			fo.countname = optarg;
			break;
		case OPT_DIFF:
			if (optind >= argc)
				return ptk_usage_error(ctx, "--diff needs two inputs: --diff A B");
			diff_a = optarg;
			diff_b = argv[optind++];
			break;
		case OPT_FOLDED:
			folded_out = true;
			break;
		case OPT_PID:
			po.pid = true;
			break;
		case OPT_TID:
			po.tid = true;
			break;
		case OPT_KERNEL:
			po.annotate_kernel = true;
			break;
		case OPT_JIT:
			po.annotate_jit = true;
			break;
		case OPT_EVENT:
			po.event = optarg;
			break;
		case OPT_ALL:
			po.annotate_kernel = po.annotate_jit = true;
			break;
		case OPT_ADDRS:
			po.addrs = true;
			break;
		case OPT_NOPERIOD:
			po.unit = true;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_AT:
			at = optarg;
			break;
		case OPT_FROM:
			from = optarg;
			break;
		case OPT_TO:
			to = optarg;
			break;
		case OPT_UTC:
			utc = true;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (ctx->json)
		return ptk_usage_error(ctx, "no --json output: the output is an SVG (or --folded)");
	if (diff_a && optind < argc)
		return ptk_usage_error(ctx, "--diff A B takes no other inputs ('%s')",
				       argv[optind]);
	if (diff_a && folded_out)
		return ptk_usage_error(ctx, "--diff draws an SVG: --folded does not apply");
	if (diff_a && ptk_pprof_path(outpath))
		return ptk_usage_error(ctx, "--diff draws an SVG: no pprof output");
	if (folded_out && ptk_pprof_path(outpath))
		return ptk_usage_error(ctx, "--folded and a pprof -o %s: pick one", outpath);

	if ((at || from || to) && !db)
		return ptk_usage_error(ctx,
				       "--at, --from and --to read an archive: give --db FILE");
	if (db && at && (from || to))
		return ptk_usage_error(ctx, "--at or --from/--to, not both");
	if (db && optind < argc)
		return ptk_usage_error(ctx, "--db takes no input files ('%s')", argv[optind]);
	if (db && diff_a && (at || from || to))
		return ptk_usage_error(ctx, "--diff with --db: the windows are its operands "
					    "(--diff FROM..TO FROM..TO)");
	f = ptk_folded_new();
	if (db) {
		char err[256];
		struct ptk_arc *a = ptk_arc_open(db, PTK_ARC_RDONLY, err, sizeof(err));
		if (!a) {
			ptk_err("%s", err);
			goto out_close_output;
		}
		if (diff_a) {
			base = ptk_folded_new();
			r = read_db_spec(a, diff_a, utc, base);
			if (!r)
				r = read_db_spec(a, diff_b, utc, f);
		} else {
			r = read_db_window(a, from, to, at, utc, f);
		}
		ptk_arc_close(a);
		if (r) {
			rc = r;
			goto out_close_output;
		}
	} else if (diff_a) {
		base = ptk_folded_new();
		if ((r = read_input(diff_a, base, &po, &tot)) ||
		    (r = read_input(diff_b, f, &po, &tot))) {
			ptk_err("cannot read %s: %s", r == 0 ? diff_b : diff_a, strerror(-r));
			goto out_close_output;
		}
	} else if (optind >= argc) {
		if ((r = read_input(NULL, f, &po, &tot))) {
			ptk_err("cannot read standard input: %s", strerror(-r));
			goto out_close_output;
		}
	} else {
		for (int i = optind; i < argc; i++) {
			if ((r = read_input(argv[i], f, &po, &tot))) {
				ptk_err("cannot read %s: %s", argv[i], strerror(-r));
				goto out_close_output;
			}
		}
	}
	report(&tot, po.event, verbose);
	if (!f->total && !(base && base->total)) {
		ptk_err("no stack counts found in the input");
		goto out_close_output;
	}
	/* -o FILE gets its name only when whole (lib/util.h ptk_outfile) */
	if (outpath &&
	    ((r = ptk_outfile_open(&of, outpath, 0666)) || !(out = fdopen(of.fd, "w")))) {
		ptk_err("cannot write %s: %s", outpath, strerror(r ? -r : errno));
		if (!r)
			close(of.fd);
		ptk_outfile_abort(&of);
		out = stdout;
		goto out_close_output;
	}
	if (folded_out) {
		r = ptk_folded_write(f, out);
	} else if (ptk_pprof_path(outpath)) {
		struct ptk_pprof *pp = ptk_pprof_new();
		ptk_pprof_sample_type(pp, fo.countname ? fo.countname : "samples", "count");
		ptk_folded_sort(f);
		ptk_pprof_add_folded(pp, f, false, NULL);
		r = fflush(out) ? -errno : ptk_pprof_write(pp, fileno(out));
		ptk_pprof_free(pp);
	} else {
		if (base && !fo.subtitle)
			fo.subtitle = "differential: widths from B, red grew, blue shrank since A";
		r = ptk_flamegraph_svg(f, base, &fo, out);
	}
	if (r == -EINVAL) {
		ptk_err("nothing to draw: B has no samples");
		goto out_close_output;
	}
	if (r) {
		ptk_err("write error: %s", strerror(-r));
		goto out_close_output;
	}
	rc = 0;
out_close_output:
	if (out != stdout) {
		if (!rc && (fflush(out) || ferror(out) || (r = ptk_outfile_commit(&of)))) {
			ptk_err("write error on %s: %s", outpath, strerror(r ? -r : errno));
			rc = PTK_EXIT_RUNTIME;
		}
		if (rc)
			ptk_outfile_abort(&of);
		fclose(out);
	}
	ptk_folded_free(f);
	ptk_folded_free(base);
	return rc;
}
