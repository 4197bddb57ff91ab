// SPDX-License-Identifier: GPL-2.0
/* ptk flamegraph: folded stacks or `perf script` text -> interactive SVG flame graph. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/folded.h"
#include "model/perfscript.h"
#include "output/flamegraph.h"

static const char usage[] =
	"usage: ptk flamegraph [IN...] [-o OUT.svg] [--reverse] [--title T] [--subtitle T]\n"
	"                      [--width PX] [--colors hot|mem|io|java|js] [--countname NAME]\n"
	"                      [--diff A B] [--folded] [--pid | --tid] [--kernel] [--jit]\n"
	"                      [--event NAME] [-v]\n"
	"Draw an interactive SVG flame graph (flamegraph.pl) from folded stacks (\"a;b;c 12\")\n"
	"or from `perf script` text, recognised by itself and collapsed as stackcollapse-perf.pl\n"
	"does (process name first, then frames root to leaf). IN defaults to standard input;\n"
	"several inputs are added together. In the SVG: hover for counts, click to zoom, Ctrl-F\n"
	"or Search for a regular expression (the matched share is shown), Esc resets.\n"
	"  -o OUT        write the SVG to OUT (default standard output)\n"
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
	"  --event NAME  perf script input: keep only samples of this event (default: all,\n"
	"                with a warning when there are several)\n"
	"  -v            print the samples read and written, per event, to standard error\n";

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
};

struct totals {
	u64 samples_in, samples_out, filtered, skipped, folded_bad;
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
	}
}

/* Read one input (NULL or "-" = stdin), folded or perf script, into f. 0 or -errno. */
static int read_input(const char *path, struct ptk_folded *f, const struct ptk_perfscript_opts *po,
		      struct totals *t)
{
	FILE *in = (!path || !strcmp(path, "-")) ? stdin : fopen(path, "r");
	char *line = NULL, *first[2] = { NULL, NULL };
	char **held = NULL;
	size_t cap = 0;
	int nheld = 0, nsig = 0;
	bool decided = false, perf = false;
	struct ptk_perfscript ps;

	if (!in)
		return -errno;
	ptk_perfscript_init(&ps, f, po);
	for (;;) {
		bool eof = getline(&line, &cap, in) < 0;
		if (!decided) {
			if (!eof) {
				held = xrealloc(held, (nheld + 1) * sizeof(*held));
				held[nheld++] = xstrdup(line);
				if (line[0] != '#' && line[strspn(line, " \t\r\n")] != '\0' &&
				    nsig < 2)
					first[nsig++] = held[nheld - 1];
				if (nsig < 2)
					continue;
			}
			perf = ptk_perfscript_detect(first[0], first[1]);
			decided = true;
			for (int i = 0; i < nheld; i++) {
				if (perf)
					ptk_perfscript_line(&ps, held[i]);
				else if (held[i][0] != '#' &&
					 held[i][strspn(held[i], " \t\r\n")] != '\0' &&
					 ptk_folded_add_line(f, held[i]))
					t->folded_bad++;
				free(held[i]);
			}
			free(held);
			held = NULL;
			if (eof)
				break;
			continue;
		}
		if (eof)
			break;
		if (perf)
			ptk_perfscript_line(&ps, line);
		else if (line[0] != '#' && line[strspn(line, " \t\r\n")] != '\0' &&
			 ptk_folded_add_line(f, line))
			t->folded_bad++;
	}
	free(line);
	if (perf) {
		ptk_perfscript_finish(&ps);
		t->perf = true;
		t->samples_in += ps.samples_in;
		t->samples_out += ps.samples_out;
		t->filtered += ps.samples_filtered;
		t->skipped += ps.lines_skipped;
		add_events(t, &ps);
	}
	ptk_perfscript_release(&ps);
	if (ferror(in)) {
		int e = errno ? errno : EIO;
		if (in != stdin)
			fclose(in);
		return -e;
	}
	if (in != stdin)
		fclose(in);
	return 0;
}

static void report(const struct totals *t, const char *event, bool verbose)
{
	if (t->folded_bad)
		ptk_warn("ignored %" PRIu64 " lines with invalid format", t->folded_bad);
	if (!t->perf)
		return;
	if (t->ev.nev > 1 && !event) {
		char buf[512];
		int n = 0;
		for (int i = 0; i < t->ev.nev && n < (int)sizeof(buf) - 80; i++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s %" PRIu64, i ? ", " : "",
				      t->ev.ev[i].name[0] ? t->ev.ev[i].name : "?",
				      t->ev.ev[i].samples);
		ptk_warn("%d events added together (%s): pick one with --event NAME", t->ev.nev,
			 buf);
	}
	if (verbose) {
		fprintf(stderr,
			"%s: perf script: %" PRIu64 " samples in, %" PRIu64 " out, %" PRIu64
			" of other events, %" PRIu64 " lines skipped\n",
			ptk_progname, t->samples_in, t->samples_out, t->filtered, t->skipped);
		for (int i = 0; i < t->ev.nev; i++)
			fprintf(stderr, "%s:   event %s: %" PRIu64 " samples\n", ptk_progname,
				t->ev.ev[i].name, t->ev.ev[i].samples);
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

	f = ptk_folded_new();
	if (diff_a) {
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
