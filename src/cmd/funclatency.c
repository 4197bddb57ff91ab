// SPDX-License-Identifier: GPL-2.0
/*
 * ptk funclatency: the latency of a kernel or user function as a log2 histogram, with
 * libbpf-tools funclatency's options and output: the aggregation engine's pair of probes
 * (the function's entry and return, matched per thread and stack frame) with the histogram
 * of the time between them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "source/bpf/agg.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk funclatency [-m|-u] [-p PID] [-d DURATION] [-i INTERVAL] [-c CG] [-T] [-v]\n"
	"                       [--json] FUNCTION\n"
	"Time a function and print its latency as a log2 histogram (nsecs; -u usecs, -m msecs).\n"
	"FUNCTION: FUNCTION (a kernel function: fentry, or a kprobe), LIBRARY:FUNCTION (a\n"
	"  library's, c:malloc; with -p among the process's), :FUNCTION (-p's binary),\n"
	"  PROGRAM:FUNCTION; or a probe of ptk agg (uprobe:PATH:FUNC, fentry:FUNC). Patterns\n"
	"  (vfs_*) time every match, in one histogram.\n"
	"  -m, --milliseconds   output in milliseconds\n"
	"  -u, --microseconds   output in microseconds\n"
	"  -p, --pid PID        trace this process only\n"
	"  -c, --cgroup PATH    trace the processes of this cgroup (v2) only\n"
	"  -d, --duration S     trace for S seconds\n"
	"  -i, --interval S     print a histogram every S seconds\n"
	"  -T, --timestamp      print the time before each histogram\n"
	"Examples:\n"
	"  ptk funclatency -p 181 c:read       time the read() C library function\n"
	"  ptk funclatency -u vfs_read         time vfs_read(), in microseconds\n";

enum { OPT_DURATION = 'd', OPT_INTERVAL = 'i', OPT_CG = 'c', OPT_MICRO = 'u' };

struct priv {
	struct ptk_agg_tool t; /* first: the runner's r->priv is the engine's */
	bool micro;
};

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->t.agg;
	int rc;

	if ((rc = ptk_agg_cmd_operand(r, argc, argv, "FUNCTION")))
		return rc;
	if (p->micro && r->filter.millis)
		return ptk_usage_error(r->ctx, "-m and -u are exclusive");
	a->mode = PTK_AGG_LATENCY;
	a->latency = p->t.probe;
	a->lat_unit_ns = r->filter.millis ? 1000000 : p->micro ? 1000 : 1;
	a->result_unit = r->filter.millis ? "msec" : p->micro ? "usec" : "nsec";
	return ptk_agg_cmd_parsed(r);
}

static int prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int rc;

	if ((rc = ptk_agg_cmd_prepare(&p->t.agg, r)))
		return rc;
	if (p->t.agg.ntargets > 2)
		snprintf(r->banner, sizeof(r->banner),
			 "Tracing %zu functions for \"%.150s\".  Hit "
			 "Ctrl-C to exit",
			 p->t.agg.ntargets / 2, p->t.operand);
	else
		snprintf(r->banner, sizeof(r->banner), "Tracing %.180s.  Hit Ctrl-C to exit",
			 p->t.operand);
	return 0;
}

/* The histogram, as libbpf-tools prints it (a blank line before it), and at the end
 * "Exiting trace of FUNCTION". */
static int report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_agg_row *rows;
	size_t n;
	int rc;

	if (r->ctx->json)
		return ptk_agg_report(r, i, itv, last);
	if ((rc = ptk_agg_take(r, &rows, &n)))
		return rc;
	ptk_sink_begin(&r->ctx->sink);
	fputc('\n', stdout);
	if (r->filter.timestamp)
		printf("%-8s\n", ptk_bpf_clock((char[16]){ 0 }, 16));
	ptk_agg_print(&r->ctx->sink, &p->t.agg.res, rows, n);
	ptk_sink_end(&r->ctx->sink);
	if (last || (r->count > 0 && i >= r->count))
		printf("Exiting trace of %s\n", p->t.operand);
	ptk_agg_rows_free(rows, n);
	free(rows);
	return 0;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_CALL(OPT_DURATION, "duration", required_argument),
	PTK_BPF_CALL(OPT_INTERVAL, "interval", required_argument),
	PTK_BPF_CALL(OPT_CG, "cgroup", required_argument),
	PTK_BPF_FLAG(OPT_MICRO, "microseconds", struct priv, micro),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "funclatency",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_MS | PTK_BPF_OPT_VERBOSE | PTK_BPF_OPT_TIMESTAMP,
	.operands = PTK_BPF_NO_OPERANDS,
	.own_timestamp = true,
	.opt = ptk_agg_cmd_opt,
	.parsed = parsed,
	.prepare = prepare,
	PTK_AGG_LOAD_OPS,
	.report = report,
};

int cmd_funclatency(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;

	memset(&p, 0, sizeof(p));
	return ptk_bpf_main(ctx, &ops, &p, argc, argv);
}
