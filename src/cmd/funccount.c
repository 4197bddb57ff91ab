// SPDX-License-Identifier: GPL-2.0
/*
 * ptk funccount: count calls of kernel functions, user functions, tracepoints or USDT probes
 * matching a pattern, with bcc funccount's options and output: the aggregation engine
 * counting by probe (which target fired), every match attached to one program.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "output/sink.h"
#include "source/bpf/agg.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk funccount [-p PID] [-i INTERVAL] [-d DURATION] [-T] [-c CPU] [--json] PATTERN\n"
	"Count the calls of the functions (or tracepoints, USDT probes) that match PATTERN.\n"
	"PATTERN: FUNC or p:FUNC (kernel functions: fentry, or kprobes), [p:]LIB:FUNC (a user\n"
	"  library's or program's; with -p among the process's), t:CAT:EVENT (tracepoints),\n"
	"  u:LIB:PROBE (USDT probes); * and ? are wildcards: vfs_*, c:str*, t:sched:*\n"
	"  -p, --pid PID        count this process only (its user functions only are probed)\n"
	"  -i, --interval S     print the counts every S seconds\n"
	"  -d, --duration S     stop after S seconds\n"
	"  -T, --timestamp      print the time before each report\n"
	"  -c, --cpu CPU        count on this CPU only\n"
	"Rows are in increasing count, as bcc prints them.\n";

enum { OPT_INTERVAL = 'i', OPT_DURATION = 'd', OPT_CPU = 'c' };

struct priv {
	struct ptk_agg_tool t; /* first: the runner's r->priv is the engine's */
};

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	int rc;

	if ((rc = ptk_agg_cmd_operand(r, argc, argv, "PATTERN")))
		return rc;
	p->t.agg.mode = PTK_AGG_COUNT;
	p->t.agg.event = p->t.probe;
	p->t.agg.by = "probe";
	return ptk_agg_cmd_parsed(r);
}

static int prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int rc;

	if ((rc = ptk_agg_cmd_prepare(&p->t.agg, r)))
		return rc;
	snprintf(r->banner, sizeof(r->banner),
		 "Tracing %zu functions for \"%.150s\"... Hit "
		 "Ctrl-C to end.",
		 p->t.agg.ntargets, p->t.operand);
	return 0;
}

/* "FUNC  COUNT", least first (bcc's order). */
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
	if (r->filter.timestamp)
		printf("%-8s\n", ptk_bpf_clock((char[16]){ 0 }, 16));
	printf("\n%-36s %8s\n", "FUNC", "COUNT");
	for (size_t j = n; j-- > 0;)
		if (rows[j].count)
			printf("%-36s %8" PRIu64 "\n", rows[j].str[0] ? rows[j].str[0] : "",
			       rows[j].count);
	if (last || (r->count > 0 && i >= r->count))
		printf("Detaching...\n");
	ptk_agg_rows_free(rows, n);
	free(rows);
	(void)p;
	return 0;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_CALL(OPT_INTERVAL, "interval", required_argument),
	PTK_BPF_CALL(OPT_DURATION, "duration", required_argument),
	PTK_BPF_CALL(OPT_CPU, "cpu", required_argument),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "funccount",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_VERBOSE | PTK_BPF_OPT_TIMESTAMP,
	.operands = PTK_BPF_NO_OPERANDS,
	.own_timestamp = true,
	.opt = ptk_agg_cmd_opt,
	.parsed = parsed,
	.prepare = prepare,
	PTK_AGG_LOAD_OPS,
	.report = report,
};

int cmd_funccount(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;

	memset(&p, 0, sizeof(p));
	return ptk_bpf_main(ctx, &ops, &p, argc, argv);
}
