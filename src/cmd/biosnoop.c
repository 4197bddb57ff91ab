// SPDX-License-Identifier: GPL-2.0
/* ptk biosnoop: one line per block I/O request with its latency, after libbpf-tools
 * biosnoop. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "biosnoop.skel.h"
/* light skeletons, one per hook flavour (kernel-side loader: no vmlinux BTF parse here) */
#include "biosnoop_btf.lskel.h"
#include "biosnoop_raw.lskel.h"
#include "cmd/cmd.h"
#include "source/bpf/biosnoop.h"
#include "source/bpf/blk.h"
#include "source/bpf/runner.h"

static const char usage[] =
	"usage: ptk biosnoop [-d DISK] [-Q] [-p PID] [-c COMM] [--json] [duration]\n"
	"One line per block I/O request, printed when it completes (libbpf-tools biosnoop).\n"
	"Stops at Ctrl-C, or after duration seconds.\n"
	"  -d DISK      only this disk (a name under /sys/block)\n"
	"  -Q           add QUE(ms), the OS queue time (block_rq_insert -> block_rq_issue)\n"
	"  -p PID / -c COMM  only I/O submitted by this process / command\n";

enum { S_TIME, S_COMM, S_PID, S_DISK, S_T, S_SECTOR, S_BYTES, S_QUE, S_LAT, S_N };
static const struct ptk_metric snoop_cols[S_N] = {
	[S_TIME] = { "TIME(s)", "time_s", "s", PTK_GAUGE, PTK_V_F64, -11, 6,
		     "completion time, seconds since the first traced completion" },
	[S_COMM] = { "COMM", "comm", "", PTK_GAUGE, PTK_V_STR, -14, 0,
		     "task that submitted the request (block_io_start), else inserted/issued it" },
	[S_PID] = { "PID", "pid", "", PTK_GAUGE, PTK_V_U64, -7, 0, "its process id (tgid)" },
	[S_DISK] = { "DISK", "disk", "", PTK_GAUGE, PTK_V_STR, -7, 0,
		     "disk (gendisk of the request queue; /sys/dev/block/MAJ:MIN)" },
	[S_T] = { "T", "rwbs", "", PTK_GAUGE, PTK_V_STR, -4, 0,
		  "op and flags as blktrace rwbs: R read, W write, F flush/FUA, D discard, S sync, "
		  "A readahead, M meta (rq->cmd_flags)" },
	[S_SECTOR] = { "SECTOR", "sector", "512-byte sectors", PTK_GAUGE, PTK_V_U64, -10, 0,
		       "first sector (rq->__sector at block_rq_issue)" },
	[S_BYTES] = { "BYTES", "bytes", "bytes", PTK_GAUGE, PTK_V_U64, -7, 0,
		      "size of the request (rq->__data_len at block_rq_issue)" },
	[S_QUE] = { "QUE(ms)", "queue_ms", "ms", PTK_GAUGE, PTK_V_F64, 7, 3,
		    "block_rq_insert -> block_rq_issue; - when the request bypassed the scheduler" },
	[S_LAT] = { "LAT(ms)", "lat_ms", "ms", PTK_GAUGE, PTK_V_F64, 7, 3,
		    "block_rq_issue -> final block_rq_complete (device service time)" },
};

struct priv {
	const char *disk;
	u32 dev;
	bool queued;
	u64 first_ns, events;
	struct ptk_metric cols[S_N];
	struct ptk_table tab;
	const char *hook;
	/* a light skeleton (tp_btf flavour with block_io_start, else raw_tp), or the libbpf
	 * skeleton in r->skel on kernels before 5.17 (PTK_BPF_LSKEL=0 forces it, =raw the
	 * raw_tp light skeleton) */
	struct biosnoop_btf_bpf *lbtf;
	struct biosnoop_raw_bpf *lraw;
	int events_fd, lost_fd;
};

static struct bpf_object *object(struct ptk_bpf_run *r)
{
	return r->skel ? ((struct biosnoop_bpf *)r->skel)->obj : NULL;
}

static int prog_fds(struct ptk_bpf_run *r, int *fds, int max)
{
	struct priv *p = r->priv;
	int n = 0;

	if (max >= 5)
		PTK_BLK_LSKEL_FDS(p->lbtf, p->lraw, fds, n);
	return n;
}

#define BS_SET_RODATA(skel)                                   \
	do {                                                  \
		PTK_BPF_SET_FILTERS(skel, &r->filter);        \
		(skel)->rodata->filter_dev = p->disk != NULL; \
		(skel)->rodata->targ_dev = p->dev;            \
	} while (0)

/* Open the libbpf skeleton and keep the hooks this kernel has (BTF probes). 0 or -errno. */
static int open_libbpf(struct ptk_bpf_run *r)
{
	struct biosnoop_bpf *s = biosnoop_bpf__open();
	struct priv *p = r->priv;

	if (!s)
		return -errno;
	r->skel = s;
	BS_SET_RODATA(s);
	bpf_program__set_autoload(s->progs.tp_btf_block_io_start,
				  ptk_bpf_has_tp_btf("block_io_start"));
	p->hook = PTK_BLK_PICK_HOOKS(s);
	return 0;
}

/* Try the light skeletons: tp_btf (with block_io_start, 6.5+), then raw_tp (kernels >= 5.17
 * have the loader and the one-argument block tracepoints). 0 or -errno of the last try. */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int err;

	if (ptk_bpf_loader_wanted() != PTK_BPF_LSKEL_RAW &&
	    !PTK_LSKEL_LOAD(biosnoop_btf_bpf, p->lbtf, BS_SET_RODATA)) {
		p->hook = "tp_btf";
		p->events_fd = p->lbtf->maps.events.map_fd;
		p->lost_fd = p->lbtf->maps.lost.map_fd;
		return 0;
	}
	if ((err = PTK_LSKEL_LOAD(biosnoop_raw_bpf, p->lraw, BS_SET_RODATA)))
		return err;
	p->hook = "raw_tp";
	p->events_fd = p->lraw->maps.events.map_fd;
	p->lost_fd = p->lraw->maps.lost.map_fd;
	return 0;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct ptk_bpf_run *r = ctx;
	struct priv *p = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;
	const struct biosnoop_event *e = data;
	struct ptk_val v[S_N];
	char comm[17], disk[64], rwbs[8];
	int n = 0;

	if (size < sizeof(*e))
		return 0;
	if (!p->events++)
		p->first_ns = e->ts_ns;
	memcpy(comm, e->comm, 16);
	comm[16] = '\0';
	v[n++] = PTK_F((e->ts_ns - p->first_ns) / 1e9);
	v[n++] = PTK_S(comm);
	v[n++] = PTK_U(e->pid);
	v[n++] = PTK_S(ptk_blk_dev_name(e->dev, disk, sizeof(disk)));
	v[n++] = PTK_S(ptk_blk_rwbs(e->cmd_flags, rwbs));
	v[n++] = PTK_U(e->sector);
	v[n++] = PTK_U(e->bytes);
	if (p->queued)
		v[n++] = e->que_ns < 0 ? PTK_NA : PTK_F(e->que_ns / 1e6);
	v[n++] = PTK_F(e->lat_ns / 1e6);
	ptk_sink_begin(sink);
	if (r->ctx->json) {
		/* one flat object per I/O, keys from the metric descriptions */
		for (int i = 0; i < n; i++)
			ptk_sink_meta_json(sink, p->tab.cols[i].key,
					   ptk_json_val(&p->tab.cols[i], &v[i]));
	} else {
		ptk_sink_table_begin(sink, &p->tab, false, NULL);
		ptk_sink_row(sink, NULL, v);
		ptk_sink_table_end(sink);
	}
	ptk_sink_end(sink);
	return 0;
}

static int bs_load(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct biosnoop_bpf *s = r->skel;
	int err;

	if (s) { /* else the light skeleton is loaded */
		if ((err = biosnoop_bpf__load(s)) || (err = biosnoop_bpf__attach(s)))
			return err;
		p->events_fd = bpf_map__fd(s->maps.events);
		p->lost_fd = bpf_map__fd(s->maps.lost);
	}
	r->rb = ring_buffer__new(p->events_fd, on_event, r, NULL);
	if (!r->rb)
		return -errno;
	if (!r->ctx->json) {
		ptk_sink_table_begin(&r->ctx->sink, &p->tab, true, NULL);
		ptk_sink_table_end(&r->ctx->sink);
	}
	return 0;
}

static u64 bs_lost(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	return p->lbtf || p->lraw || r->skel ? ptk_bpf_percpu_sum(p->lost_fd, 0) : 0;
}

static int bs_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;

	(void)i;
	(void)itv;
	(void)last;
	if (!r->ctx->json)
		return 0; /* the runner prints events and lost events on stderr */
	ptk_sink_begin(sink);
	ptk_sink_meta_u64(sink, "events", p->events);
	ptk_sink_meta_u64(sink, "lost_events", bs_lost(r));
	ptk_sink_meta_str(sink, "hook", p->hook);
	ptk_sink_meta_str(sink, "loader", p->lbtf || p->lraw ? "light skeleton" : "libbpf");
	ptk_sink_meta_json(sink, "observer", ptk_bpf_observer_json(r));
	ptk_sink_end(sink);
	return 0;
}

static void bs_destroy(struct ptk_bpf_run *r)
{
	if (r->rb)
		ring_buffer__free(r->rb);
	r->rb = NULL;
	biosnoop_btf_bpf__destroy(((struct priv *)r->priv)->lbtf);
	biosnoop_raw_bpf__destroy(((struct priv *)r->priv)->lraw);
	biosnoop_bpf__destroy(r->skel);
}

static const struct ptk_bpf_ops ops = {
	.name = "biosnoop",
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.load = bs_load,
	.report = bs_report,
	.lost = bs_lost,
	.object = object,
	.prog_fds = prog_fds,
	.destroy = bs_destroy,
};

int cmd_biosnoop(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "disk", required_argument, NULL, 'd' },
					      { "queued", no_argument, NULL, 'Q' },
					      PTK_BPF_LONGOPTS,
					      { 0 } };
	struct priv p = { 0 };
	struct ptk_bpf_run r = { .ctx = ctx, .ops = &ops, .priv = &p, .count = -1 };
	int c, rc, n = 0;
	double d;

	while ((c = getopt_long(argc, argv, "d:Q" PTK_BPF_SHORTOPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'Q':
			p.queued = true;
			continue;
		case 'd':
			p.disk = optarg;
			rc = ptk_blk_disk_dev(optarg, &p.dev);
			if (rc)
				return ptk_usage_error(ctx,
						       "-d %s: no such disk in /sys/block (%s)",
						       optarg, strerror(-rc));
			continue;
		case 'P':
		case 'L':
		case 'm':
			return ptk_usage_error(ctx, "-%c is not supported here", c);
		}
		rc = ptk_bpf_common_opt(ctx, &r.filter, c, optarg);
		if (rc == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (rc == PTK_EXIT_USAGE)
			return rc;
		if (rc < 0)
			return ptk_usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
	}
	if (optind < argc) {
		if (ptk_parse_double(argv[optind], &d) || !(d > 0))
			return ptk_usage_error(ctx, "invalid duration '%s'", argv[optind]);
		r.duration_s = d;
		optind++;
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	for (int i = 0; i < S_N; i++)
		if (i != S_QUE || p.queued)
			p.cols[n++] = snoop_cols[i];
	p.tab = (struct ptk_table){ "io", p.cols, n };
	return ptk_bpf_run(&r);
}
