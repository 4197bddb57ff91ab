// SPDX-License-Identifier: GPL-2.0
/* ptk biosnoop: one line per block I/O request with its latency, after libbpf-tools
 * biosnoop. */
#include <bpf/libbpf.h>
#include <errno.h>
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
	u64 first_ns;
};

/* a light skeleton (tp_btf flavour with block_io_start, else raw_tp), or the libbpf skeleton
 * in r->skel on kernels before 5.17 (PTK_BPF_LSKEL=0 forces it, =raw the raw_tp light
 * skeleton) */
PTK_BPF_LSKEL_PAIR_FREE(biosnoop)

#define BS_SET_RODATA(skel)                                   \
	do {                                                  \
		PTK_BPF_SET_FILTERS(skel, &r->filter);        \
		(skel)->rodata->filter_dev = p->disk != NULL; \
		(skel)->rodata->targ_dev = p->dev;            \
	} while (0)

/* Open the libbpf skeleton and keep the hooks this kernel has (BTF probes). 0 or -errno. */
static int open_libbpf(struct ptk_bpf_run *r)
{
	struct biosnoop_bpf *s = PTK_BPF_OPEN(r, biosnoop_bpf);
	struct priv *p = r->priv;

	if (!s)
		return -errno;
	BS_SET_RODATA(s);
	bpf_program__set_autoload(s->progs.tp_btf_block_io_start,
				  ptk_bpf_has_tp_btf("block_io_start"));
	r->hook = PTK_BLK_PICK_HOOKS(s);
	return 0;
}

/* The light skeletons: tp_btf (with block_io_start, 6.5+), then raw_tp (kernels >= 5.17 have
 * the loader and the one-argument block tracepoints). 0 or -errno of the last try. */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	return PTK_BPF_LSKEL_PAIR(r, biosnoop, BS_SET_RODATA, BS_SET_RODATA);
}

static int bs_event(struct ptk_bpf_run *r, const void *data, size_t size)
{
	struct priv *p = r->priv;
	const struct biosnoop_event *e = data;
	struct ptk_val v[S_N];
	char comm[17], disk[64], rwbs[8];

	if (size < sizeof(*e))
		return 0;
	if (!r->events)
		p->first_ns = e->ts_ns;
	memcpy(comm, e->comm, 16);
	comm[16] = '\0';
	v[S_TIME] = PTK_F((e->ts_ns - p->first_ns) / 1e9);
	v[S_COMM] = PTK_S(comm);
	v[S_PID] = PTK_U(e->pid);
	v[S_DISK] = PTK_S(ptk_blk_dev_name(e->dev, disk, sizeof(disk)));
	v[S_T] = PTK_S(ptk_blk_rwbs(e->cmd_flags, rwbs));
	v[S_SECTOR] = PTK_U(e->sector);
	v[S_BYTES] = PTK_U(e->bytes);
	v[S_QUE] = e->que_ns < 0 ? PTK_NA : PTK_F(e->que_ns / 1e6);
	v[S_LAT] = PTK_F(e->lat_ns / 1e6);
	ptk_bpf_event_row(r, v);
	return 1;
}

/* -d DISK */
static int bs_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	p->disk = arg;
	return ptk_blk_disk_opt(r->ctx, arg, &p->dev);
}

static int bs_prepare(struct ptk_bpf_run *r)
{
	ptk_bpf_event_table(r, "io", snoop_cols, S_N,
			    ((struct priv *)r->priv)->queued ? 0 : 1u << S_QUE);
	return 0;
}

const struct ptk_bpf_ops ptk_biosnoop_ops = {
	.name = "biosnoop",
	.usage = usage,
	.opts = (const struct ptk_bpf_opt[]){ PTK_BPF_CALL('d', "disk", required_argument),
					      PTK_BPF_FLAG('Q', "queued", struct priv, queued),
					      { 0 } },
	.common = PTK_BPF_OPT_TASK | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_DURATION,
	.opt = bs_opt,
	.prepare = bs_prepare,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.event = bs_event,
	.priv_size = sizeof(struct priv),
};
