// SPDX-License-Identifier: GPL-2.0
/*
 * ptk stackcount: count the stacks that lead to kernel functions, user functions,
 * tracepoints or USDT probes matching a pattern, with bcc stackcount's options and output:
 * the aggregation engine counting by kernel and user stack (and task with -P).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "output/sink.h"
#include "source/bpf/agg.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk stackcount [-p PID] [-c CPU] [-i INTERVAL] [-D DURATION] [-T] [-s] [-P]\n"
	"                      [-K|-U] [-d] [-f] [--json] PATTERN\n"
	"Count the kernel and user stacks of the events of PATTERN (as ptk funccount's: FUNC,\n"
	"LIB:FUNC, t:CAT:EVENT, u:LIB:PROBE; wildcards * ?). User stacks are walked by frame\n"
	"pointers: frames of code built without them are missing. Stacks are least first.\n"
	"  -p, --pid PID        this process only      -c, --cpu CPU   this CPU only\n"
	"  -i, --interval S     print every S seconds  -D, --duration S  stop after S seconds\n"
	"  -T, --timestamp      the time before each report\n"
	"  -s, --offset         frames with their offsets (func+0x1a)\n"
	"  -P, --perpid         a stack per process (comm [pid] under it)\n"
	"  -K, --kernel-stacks-only, -U, --user-stacks-only\n"
	"  -d, --delimited      \"--\" between the kernel and the user stack\n"
	"  -f, --folded         folded stacks (comm;user...;-;kernel... count) for flame graphs\n";

enum { OPT_INTERVAL = 'i', OPT_DURATION = 'D', OPT_CPU = 'c' };

struct priv {
	struct ptk_agg_tool t; /* first: the runner's r->priv is the engine's */
	char by[64];
	bool offset, perpid, konly, uonly, delim, folded;
	int kkey, ukey; /* the keys of the stacks (-1: none) */
};

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->t.agg;
	struct ptk_probe pr;
	bool user;
	int rc, n = 0;

	if ((rc = ptk_agg_cmd_operand(r, argc, argv, "PATTERN")))
		return rc;
	if (p->konly && p->uonly)
		return ptk_usage_error(r->ctx, "-K and -U are exclusive");
	if (ptk_probe_parse(p->t.probe, false, &pr, a->err, sizeof(a->err)))
		return ptk_usage_error(r->ctx, "%s", a->err);
	/* a user probe has no kernel stack worth a key */
	user = pr.kind == PTK_PROBE_UPROBE || pr.kind == PTK_PROBE_URETPROBE ||
	       pr.kind == PTK_PROBE_USDT;
	p->kkey = p->ukey = -1;
	p->by[0] = '\0';
	if (!p->uonly && !user) {
		p->kkey = n++;
		snprintf(p->by, sizeof(p->by), "kstack");
	}
	if (!p->konly) {
		p->ukey = n++;
		snprintf(p->by + strlen(p->by), sizeof(p->by) - strlen(p->by), "%sustack",
			 n > 1 ? "," : "");
	}
	if (!n)
		return ptk_usage_error(r->ctx, "-K: a user probe has no kernel stack");
	if (p->perpid)
		snprintf(p->by + strlen(p->by), sizeof(p->by) - strlen(p->by), ",comm,pid");
	a->mode = PTK_AGG_COUNT;
	a->event = p->t.probe;
	a->by = p->by;
	a->frames_plain = !p->offset;
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

/* A stack's frames, none when it was not captured ("[no stack: ...]"). */
static int frames(const struct ptk_agg_row *w, int key, char ***fr)
{
	if (key < 0 || !w->nframes[key] || !strncmp(w->frames[key][0], "[no stack", 9))
		return 0;
	*fr = w->frames[key];
	return w->nframes[key];
}

static void print_folded(const struct priv *p, const struct ptk_agg_row *w)
{
	char **kf = NULL, **uf = NULL;
	int nk = frames(w, p->kkey, &kf), nu = frames(w, p->ukey, &uf);
	int ck = p->perpid ? p->kkey < 0 ? 1 : 2 : -1;

	/* root first: the task, the user stack, the kernel stack */
	fputs(ck >= 0 && w->str[ck] ? w->str[ck] : "", stdout);
	for (int i = nu; i-- > 0;)
		printf(";%s", uf[i]);
	if (p->delim && nk && nu)
		fputs(";-", stdout);
	for (int i = nk; i-- > 0;)
		printf(";%s", kf[i]);
	printf(" %" PRIu64 "\n", w->count);
}

static void print_stack(const struct priv *p, const struct ptk_agg_row *w)
{
	char **kf = NULL, **uf = NULL;
	int nk = frames(w, p->kkey, &kf), nu = frames(w, p->ukey, &uf);
	int ck = p->kkey < 0 ? 1 : 2;

	for (int i = 0; i < nk; i++)
		printf("  %s\n", kf[i]);
	if (p->delim && nk && nu)
		printf("    --\n");
	for (int i = 0; i < nu; i++)
		printf("  %s\n", uf[i]);
	if (p->perpid)
		printf("    %s [%" PRIu64 "]\n", w->str[ck] ? w->str[ck] : "", w->v[ck + 1].u);
	printf("    %" PRIu64 "\n\n", w->count);
}

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
	for (size_t j = n; j-- > 0;) {
		if (!rows[j].count)
			continue;
		if (p->folded)
			print_folded(p, &rows[j]);
		else
			print_stack(p, &rows[j]);
	}
	if (!p->folded && (last || (r->count > 0 && i >= r->count)))
		printf("Detaching...\n");
	ptk_agg_rows_free(rows, n);
	free(rows);
	return 0;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_CALL(OPT_INTERVAL, "interval", required_argument),
	PTK_BPF_CALL(OPT_DURATION, "duration", required_argument),
	PTK_BPF_CALL(OPT_CPU, "cpu", required_argument),
	PTK_BPF_FLAG('s', "offset", struct priv, offset),
	PTK_BPF_FLAG('P', "perpid", struct priv, perpid),
	PTK_BPF_FLAG('K', "kernel-stacks-only", struct priv, konly),
	PTK_BPF_FLAG('U', "user-stacks-only", struct priv, uonly),
	PTK_BPF_FLAG('d', "delimited", struct priv, delim),
	PTK_BPF_FLAG('f', "folded", struct priv, folded),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "stackcount",
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

int cmd_stackcount(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;

	memset(&p, 0, sizeof(p));
	return ptk_bpf_main(ctx, &ops, &p, argc, argv);
}
