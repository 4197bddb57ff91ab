// SPDX-License-Identifier: GPL-2.0
/*
 * ptk blktrace: every block request's events (queue, get request, merges, insert, issue,
 * complete, requeue, split, remap) in blkparse's notation, and at the end btt's table of
 * Q2G, G2I, I2D, D2C, Q2C (model/btt.h): blktrace | blkparse | btt in one. The events come
 * from the block tracepoints, each a spec of the aggregation engine sending its fields
 * (filtered to the device in the kernel); nothing global is changed (no blk tracer).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cmd/cmd.h"
#include "model/btt.h"
#include "output/sink.h"
#include "source/bpf/agg.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk blktrace [-d DEV] [-w SECONDS] [-a ACTION]... [--no-btt] [--json]\n"
	"Block requests' events in blkparse's notation, then btt's latencies (Q2Q Q2G G2I\n"
	"Q2M I2D M2D D2C Q2C: min, avg, max in seconds, and count). From the block\n"
	"tracepoints: Q queued, G get request, M/F back/front merge, I inserted, D issued,\n"
	"C completed, R requeued, X split, A remapped (plugs are not per device: left out).\n"
	"  -d DEV       this device only (/dev/sda, /dev/loop0); default every device\n"
	"  -w SECONDS   stop after SECONDS (else at Ctrl-C)\n"
	"  -a ACTION    only these: queue, getrq, merge, insert, issue, complete, requeue,\n"
	"               split, remap (repeatable; btt needs queue..complete)\n"
	"  --no-btt     no btt table at the end\n";

/* The tracepoints: their action, what selects them (-a), the fields sent. */
static const struct bt_tp {
	const char *tp;
	char action;
	const char *mask;
	const char *ev;
	bool optional;
} tps[] = {
	{ "block:block_bio_queue", 'Q', "queue", "dev,sector,nr_sector,rwbs,comm", false },
	{ "block:block_getrq", 'G', "getrq", "dev,sector,nr_sector,rwbs,comm", false },
	{ "block:block_bio_backmerge", 'M', "merge", "dev,sector,nr_sector,rwbs,comm", false },
	{ "block:block_bio_frontmerge", 'F', "merge", "dev,sector,nr_sector,rwbs,comm", false },
	{ "block:block_rq_insert", 'I', "insert", "dev,sector,nr_sector,rwbs,comm", false },
	{ "block:block_rq_issue", 'D', "issue", "dev,sector,nr_sector,rwbs,comm", false },
	{ "block:block_rq_complete", 'C', "complete", "dev,sector,nr_sector,rwbs,error", false },
	{ "block:block_rq_requeue", 'R', "requeue", "dev,sector,nr_sector,rwbs", false },
	{ "block:block_split", 'X', "split", "dev,sector,new_sector,rwbs,comm", true },
	{ "block:block_bio_remap", 'A', "remap", "dev,sector,nr_sector,rwbs,old_dev,old_sector",
	  true },
	{ "block:block_rq_remap", 'A', "remap", "dev,sector,nr_sector,rwbs,old_dev,old_sector",
	  true },
};

#define MAX_CPUS 1024

struct priv {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	struct ptk_bpf_run *run;
	const char *dev;
	const char *masks[16];
	int nmasks;
	bool no_btt;
	double wait;
	char filter[64];
	int tp_of[PTK_AGG_MAX_SPECS]; /* spec -> tps[] */
	u64 first_ns;
	u32 seq[MAX_CPUS];
	u64 events;
	struct ptk_btt *btt;
};

static int opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	if (c == 'a') {
		if (p->nmasks == (int)ARRAY_SIZE(p->masks))
			return ptk_usage_error(r->ctx, "too many -a");
		p->masks[p->nmasks++] = arg;
		return 0;
	}
	if (ptk_parse_double(arg, &p->wait) || !(p->wait > 0))
		return ptk_usage_error(r->ctx, "invalid -w '%s'", arg);
	return 0;
}

static bool selected(const struct priv *p, const char *mask)
{
	for (int i = 0; i < p->nmasks; i++)
		if (!strcmp(p->masks[i], mask))
			return true;
	return !p->nmasks;
}

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->agg;
	int rc;

	if (optind < argc)
		return ptk_usage_error(r->ctx, "unexpected operand '%s'", argv[optind]);
	for (int i = 0; i < p->nmasks; i++) {
		bool known = false;
		for (size_t j = 0; j < ARRAY_SIZE(tps); j++)
			known |= !strcmp(tps[j].mask, p->masks[i]);
		if (!known)
			return ptk_usage_error(r->ctx, "unknown action '%s'", p->masks[i]);
	}
	if (p->dev) {
		struct stat st;

		if (stat(p->dev, &st) || !S_ISBLK(st.st_mode))
			return ptk_usage_error(r->ctx, "-d %s: not a block device", p->dev);
		/* the kernel's dev_t in the tracepoints: major << 20 | minor */
		snprintf(p->filter, sizeof(p->filter), "dev == %u",
			 major(st.st_rdev) << 20 | minor(st.st_rdev));
		a->filter = p->filter;
	}
	for (size_t j = 0; j < ARRAY_SIZE(tps); j++) {
		if (!selected(p, tps[j].mask))
			continue;
		p->tp_of[a->nspecs] = (int)j;
		a->specs[a->nspecs++] = (struct ptk_agg_spec){
			.probe = tps[j].tp, .mode = AGG_EVENT, .ev = tps[j].ev, .optional = true
		};
	}
	a->mode = PTK_AGG_COUNT;
	if ((rc = ptk_agg_parse(a)))
		return rc == -EINVAL ? ptk_usage_error(r->ctx, "%s", a->err) : PTK_EXIT_RUNTIME;
	r->duration_s = p->wait;
	return 0;
}

/* The value of field name of ev (its place in the spec's values). */
static const struct ptk_val *field(const struct priv *p, const struct ptk_agg_ev *ev,
				   const char *name)
{
	for (int i = 0; i < ev->nv; i++)
		if (!strcmp(p->agg.evv[ev->spec][i].name, name))
			return &ev->v[i];
	return NULL;
}

static u64 num(const struct priv *p, const struct ptk_agg_ev *ev, const char *name)
{
	const struct ptk_val *v = field(p, ev, name);

	return v ? v->u : 0;
}

static const char *str(const struct priv *p, const struct ptk_agg_ev *ev, const char *name)
{
	const struct ptk_val *v = field(p, ev, name);

	return v && v->s ? v->s : "";
}

static int on_event(struct ptk_agg *a, const struct ptk_agg_ev *ev)
{
	struct priv *p = (struct priv *)a;
	const struct bt_tp *t = &tps[p->tp_of[ev->spec]];
	u32 dev = (u32)num(p, ev, "dev"), seq;
	u64 sector = num(p, ev, "sector"), rel;
	u32 nr = (u32)num(p, ev, "nr_sector");
	char detail[128];

	if (!p->first_ns)
		p->first_ns = ev->ts_ns;
	rel = ev->ts_ns - p->first_ns;
	seq = ev->cpu < MAX_CPUS ? ++p->seq[ev->cpu] : 0;
	p->events++;
	ptk_btt_event(p->btt, t->action, dev, sector, nr, ev->ts_ns);
	switch (t->action) {
	case 'C':
		snprintf(detail, sizeof(detail), "%" PRIu64 " + %u [%d]", sector, nr,
			 (int)num(p, ev, "error"));
		break;
	case 'R':
		snprintf(detail, sizeof(detail), "%" PRIu64 " + %u [0]", sector, nr);
		break;
	case 'X':
		snprintf(detail, sizeof(detail), "%" PRIu64 " / %" PRIu64 " [%s]", sector,
			 num(p, ev, "new_sector"), str(p, ev, "comm"));
		break;
	case 'A': {
		u32 od = (u32)num(p, ev, "old_dev");
		snprintf(detail, sizeof(detail), "%" PRIu64 " + %u <- (%u,%u) %" PRIu64, sector, nr,
			 od >> 20, od & 0xfffff, num(p, ev, "old_sector"));
		break;
	}
	default:
		snprintf(detail, sizeof(detail), "%" PRIu64 " + %u [%s]", sector, nr,
			 str(p, ev, "comm"));
	}
	if (p->run->ctx->json) {
		static const struct ptk_metric cols[] = {
			{ .name = "DEV", .key = "dev", .unit = "", .type = PTK_V_STR, .help = "" },
			{ .name = "CPU", .key = "cpu", .unit = "", .type = PTK_V_U64, .help = "" },
			{ .name = "SEQ", .key = "seq", .unit = "", .type = PTK_V_U64, .help = "" },
			{ .name = "TIME",
			  .key = "time_s",
			  .unit = "s",
			  .type = PTK_V_F64,
			  .prec = 9,
			  .help = "" },
			{ .name = "PID", .key = "pid", .unit = "", .type = PTK_V_U64, .help = "" },
			{ .name = "ACT",
			  .key = "action",
			  .unit = "",
			  .type = PTK_V_STR,
			  .help = "" },
			{ .name = "RWBS",
			  .key = "rwbs",
			  .unit = "",
			  .type = PTK_V_STR,
			  .help = "" },
			{ .name = "SECTOR",
			  .key = "sector",
			  .unit = "",
			  .type = PTK_V_U64,
			  .help = "" },
			{ .name = "NR",
			  .key = "nr_sector",
			  .unit = "",
			  .type = PTK_V_U64,
			  .help = "" },
			{ .name = "DETAIL",
			  .key = "detail",
			  .unit = "",
			  .type = PTK_V_STR,
			  .help = "" },
		};
		static const struct ptk_table tab = { "events", cols, ARRAY_SIZE(cols) };
		char devs[24], act[2] = { t->action, 0 };
		struct ptk_val v[10];

		snprintf(devs, sizeof(devs), "%u,%u", dev >> 20, dev & 0xfffff);
		v[0] = PTK_S(devs);
		v[1] = PTK_U(ev->cpu);
		v[2] = PTK_U(seq);
		v[3] = PTK_F(rel / 1e9);
		v[4] = PTK_U(ev->tid);
		v[5] = PTK_S(act);
		v[6] = PTK_S(str(p, ev, "rwbs"));
		v[7] = PTK_U(sector);
		v[8] = PTK_U(nr);
		v[9] = PTK_S(detail);
		ptk_sink_event(&p->run->ctx->sink, &tab, v);
		return 1;
	}
	/* blkparse's "%D %2c %8s %5T.%9t %5p %2a %3d " and the action's own */
	printf("%3u,%-3u %2u %8u %5llu.%09llu %5u %2c %3s %s\n", dev >> 20, dev & 0xfffff, ev->cpu,
	       seq, (unsigned long long)(rel / 1000000000ull),
	       (unsigned long long)(rel % 1000000000ull), ev->tid, t->action, str(p, ev, "rwbs"),
	       detail);
	return 1;
}

static int prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int rc;

	if ((rc = ptk_agg_cmd_prepare(&p->agg, r)))
		return rc;
	/* the specs left after optional ones went: which tracepoint each is */
	for (int s = 0, j = 0; s < p->agg.nspecs; s++) {
		while (strcmp(tps[p->tp_of[j]].tp, p->agg.specs[s].probe))
			j++;
		p->tp_of[s] = p->tp_of[j++];
	}
	p->run = r;
	p->agg.on_event = on_event;
	p->btt = ptk_btt_new();
	snprintf(r->banner, sizeof(r->banner),
		 "Tracing %s (%zu block tracepoints)... Hit Ctrl-C "
		 "to end.",
		 p->dev ? p->dev : "every device", p->agg.ntargets);
	return 0;
}

/* At the end: btt's table (JSON: its numbers). */
static void destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	ptk_agg_destroy(r);
	if (!p->btt)
		return;
	if (!p->no_btt && r->ctx->json) {
		struct ptk_sink *s = &r->ctx->sink;
		struct json_object *o = json_object_new_object();

		for (int st = 0; st < PTK_BTT_NSTAGES; st++) {
			const struct ptk_btt_stat *b = ptk_btt_stat(p->btt, st);
			struct json_object *x = json_object_new_object();

			json_object_object_add(x, "n", json_object_new_uint64(b->n));
			json_object_object_add(
				x, "min_s", b->n ? json_object_new_double(b->min_ns / 1e9) : NULL);
			json_object_object_add(
				x, "avg_s",
				b->n ? json_object_new_double(b->sum_ns / b->n / 1e9) : NULL);
			json_object_object_add(
				x, "max_s", b->n ? json_object_new_double(b->max_ns / 1e9) : NULL);
			json_object_object_add(o, ptk_btt_stage_name(st), x);
		}
		ptk_sink_begin(s);
		ptk_sink_meta_u64(s, "events", p->events);
		ptk_sink_meta_json(s, "btt", o);
		ptk_sink_end(s);
	} else if (!p->no_btt) {
		fputc('\n', stdout);
		ptk_btt_print(p->btt, stdout);
	}
	fflush(stdout);
	ptk_btt_free(p->btt);
	p->btt = NULL;
}

static const struct ptk_bpf_opt opts[] = {
	PTK_BPF_STR('d', "dev", struct priv, dev),
	PTK_BPF_CALL('w', "stopwatch", required_argument),
	PTK_BPF_CALL('a', "act-mask", required_argument),
	PTK_BPF_FLAG(0x3100, "no-btt", struct priv, no_btt),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "blktrace",
	.usage = usage,
	.opts = opts,
	.common = PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_NO_OPERANDS,
	.opt = opt,
	.parsed = parsed,
	.prepare = prepare,
	.begin = ptk_agg_begin,
	.load_lskel = ptk_agg_load_lskel,
	.open = ptk_agg_open,
	.load = ptk_agg_load,
	.event = ptk_agg_event,
	.destroy = destroy,
	.needs_tracefs = true,
};

int cmd_blktrace(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;

	memset(&p, 0, sizeof(p));
	return ptk_bpf_main(ctx, &ops, &p, argc, argv);
}
