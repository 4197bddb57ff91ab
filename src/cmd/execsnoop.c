// SPDX-License-Identifier: GPL-2.0
/* ptk execsnoop: trace execve/execveat as they complete (libbpf-tools execsnoop). */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "execsnoop.skel.h"
/* the light skeleton (kernel-side loader: no vmlinux BTF parsed here); the libbpf skeleton
 * above is the fallback on kernels before 5.17 (PTK_BPF_LSKEL=0 forces it) */
#include "execsnoop_l.lskel.h"
#include "source/bpf/execsnoop.h"
#include "source/bpf/runner.h"

static const char usage[] =
	"usage: ptk execsnoop [-T] [-t] [-x] [-U] [-u UID] [-q] [-n NAME] [-l LINE]\n"
	"                     [--max-args N] [-P PPID] [-p PID] [-c CGROUP] [--json]\n"
	"Trace exec() as it completes: execve and execveat, from the syscalls tracepoints\n"
	"(sys_enter_* reads the path and argv, sys_exit_* the return code and new comm).\n"
	"  -T           HH:MM:SS time column          -t  seconds since start column\n"
	"  -x           include failed execs (RET is -errno)\n"
	"  -U           UID column                    -u UID  only this user\n"
	"  -q           \"quote\" each argument\n"
	"  -n NAME      only commands whose comm contains NAME\n"
	"  -l LINE      only commands whose arguments contain LINE\n"
	"  --max-args N arguments read per exec (1..60, default 20); \"...\" marks more\n"
	"  -P PPID      only children of this process   -p PID  only execs by this process\n"
	"  -c CGROUP    only tasks in this cgroup v2 directory (also --cgroup)\n"
	"Events lost (ring buffer full) are counted and printed at exit, never dropped silently.\n";

enum { COL_TIME, COL_TS, COL_UID, COL_COMM, COL_PID, COL_PPID, COL_RET, COL_ARGS, NCOLS };

static const struct ptk_metric cols[NCOLS] = {
	[COL_TIME] = { "TIME", "time", "", PTK_GAUGE, PTK_V_STR, -8, 0,
		       "wall-clock time the event was printed (HH:MM:SS)" },
	[COL_TS] = { "TIME(s)", "ts_s", "s", PTK_GAUGE, PTK_V_F64, -8, 3,
		     "seconds since tracing started, from bpf_ktime_get_ns() at sys_exit" },
	[COL_UID] = { "UID", "uid", "", PTK_GAUGE, PTK_V_U64, -6, 0,
		      "real UID of the caller (bpf_get_current_uid_gid)" },
	[COL_COMM] = { "PCOMM", "comm", "", PTK_GAUGE, PTK_V_STR, -16, 0,
		       "task comm after exec (the new program), task_struct::comm" },
	[COL_PID] = { "PID", "pid", "", PTK_GAUGE, PTK_V_S64, -6, 0,
		      "process id (tgid) that called exec" },
	[COL_PPID] = { "PPID", "ppid", "", PTK_GAUGE, PTK_V_S64, -6, 0,
		       "parent process id, task_struct::real_parent->tgid" },
	[COL_RET] = { "RET", "ret", "", PTK_GAUGE, PTK_V_S64, 3, 0,
		      "exec return value: 0, or -errno (failed, shown with -x)" },
	[COL_ARGS] = { "ARGS", "args", "", PTK_GAUGE, PTK_V_STR, 0, 0,
		       "path given to exec then argv[1..], space-separated; \"...\" = more" },
};

struct priv {
	bool time, timestamp, fails, print_uid, quote;
	__u32 uid;
	int ppid;
	int max_args;
	const char *name, *line;
	struct ptk_metric shown[NCOLS];
	int map[NCOLS]; /* shown index -> column */
	struct ptk_table tab;
	u64 start_ns;
	u64 events;
	struct execsnoop_l_bpf *l; /* the light skeleton, or NULL (libbpf's in r->skel) */
	int events_fd, lost_fd;
};

static struct bpf_object *object(struct ptk_bpf_run *r)
{
	return r->skel ? ((struct execsnoop_bpf *)r->skel)->obj : NULL;
}

static int prog_fds(struct ptk_bpf_run *r, int *fds, int max)
{
	struct priv *p = r->priv;

	if (!p->l || max < 4)
		return 0;
	fds[0] = p->l->progs.tp_sys_enter_execve.prog_fd;
	fds[1] = p->l->progs.tp_sys_enter_execveat.prog_fd;
	fds[2] = p->l->progs.tp_sys_exit_execve.prog_fd;
	fds[3] = p->l->progs.tp_sys_exit_execveat.prog_fd;
	return 4;
}

#define ES_SET_RODATA(skel, r, p)                            \
	do {                                                 \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);     \
		(skel)->rodata->ignore_failed = !(p)->fails; \
		(skel)->rodata->targ_uid = (p)->uid;         \
		(skel)->rodata->targ_ppid = (p)->ppid;       \
		(skel)->rodata->max_args = (p)->max_args;    \
	} while (0)

static int open_libbpf(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct execsnoop_bpf *s = execsnoop_bpf__open();

	if (!s)
		return -errno;
	r->skel = s;
	ES_SET_RODATA(s, r, p);
	return 0;
}

/* Load the light skeleton and attach its tracepoints. 0 or -errno (then it is freed). */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct execsnoop_l_bpf *l;
	int err;

	errno = 0;
	if (!(l = p->l = execsnoop_l_bpf__open()))
		return errno ? -errno : -ENOMEM;
	ES_SET_RODATA(l, r, p);
	err = execsnoop_l_bpf__load(l);

	if (!err &&
	    (err = l->links.tp_sys_enter_execve_fd = ptk_bpf_attach_tp(
		     l->progs.tp_sys_enter_execve.prog_fd, "syscalls", "sys_enter_execve")) >= 0 &&
	    (err = l->links.tp_sys_exit_execve_fd = ptk_bpf_attach_tp(
		     l->progs.tp_sys_exit_execve.prog_fd, "syscalls", "sys_exit_execve")) >= 0 &&
	    (err = l->links.tp_sys_enter_execveat_fd =
		     ptk_bpf_attach_tp(l->progs.tp_sys_enter_execveat.prog_fd, "syscalls",
				       "sys_enter_execveat")) >= 0 &&
	    (err = l->links.tp_sys_exit_execveat_fd = ptk_bpf_attach_tp(
		     l->progs.tp_sys_exit_execveat.prog_fd, "syscalls", "sys_exit_execveat")) >= 0)
		return 0;
	/* failed attaches hold -errno, which destroy's skel_closenz skips */
	execsnoop_l_bpf__destroy(l);
	p->l = NULL;
	return err < 0 ? err : -EINVAL;
}

/* Append the arguments, NUL-separated in e->args, joined by spaces (quoted with -q). */
static void join_args(const struct execsnoop_event *e, size_t len, const struct priv *p, char *out,
		      size_t size)
{
	size_t o = 0, used = MIN((size_t)e->args_size, len);
	u32 n = 0, shown = MIN(e->args_count, (u32)p->max_args);

#define PUT(c)                          \
	do {                            \
		if (o + 1 < size)       \
			out[o++] = (c); \
	} while (0)
	for (size_t i = 0; i < used && n < shown; i++) {
		char c = e->args[i];
		bool start = i == 0 || e->args[i - 1] == '\0';

		if (start) {
			if (n)
				PUT(' ');
			if (p->quote)
				PUT('"');
		}
		if (c == '\0') {
			n++;
			if (p->quote)
				PUT('"');
			continue;
		}
		/* one event per line: controls are escaped whether quoting or not */
		if ((p->quote && (c == '"' || c == '\\')) || c == '\n' || c == '\t' || c == '\r') {
			PUT('\\');
			c = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : c;
		} else if ((unsigned char)c < 0x20 || c == 0x7f) {
			PUT('\\');
			PUT('x');
			PUT("0123456789abcdef"[(unsigned char)c >> 4]);
			c = "0123456789abcdef"[c & 15];
		}
		PUT(c);
	}
	if (e->args_count > (u32)p->max_args) {
		PUT(' ');
		PUT('.');
		PUT('.');
		PUT('.');
	}
#undef PUT
	out[o] = '\0';
}

static int handle_event(void *ctx, void *data, size_t len)
{
	struct ptk_bpf_run *r = ctx;
	struct priv *p = r->priv;
	const struct execsnoop_event *e = data;
	static char args[EXECSNOOP_ARGS_LEN * 2 + 8];
	struct ptk_val all[NCOLS], vals[NCOLS];
	char ts[16], comm[17];
	size_t alen;

	if (len < offsetof(struct execsnoop_event, args))
		return 0;
	alen = len - offsetof(struct execsnoop_event, args);
	memcpy(comm, e->comm, 16);
	comm[16] = '\0';
	join_args(e, alen, p, args, sizeof(args));
	if (p->name && !strstr(comm, p->name))
		return 0;
	if (p->line && !strstr(args, p->line))
		return 0;
	p->events++;
	ptk_ctx_clock(r->ctx, ts, sizeof(ts));
	all[COL_TIME] = PTK_S(ts);
	all[COL_TS] = PTK_F(e->ts_ns > p->start_ns ? (e->ts_ns - p->start_ns) / 1e9 : 0);
	all[COL_UID] = PTK_U(e->uid);
	all[COL_COMM] = PTK_S(comm);
	all[COL_PID] = PTK_I(e->pid);
	all[COL_PPID] = PTK_I(e->ppid);
	all[COL_RET] = PTK_I(e->retval);
	all[COL_ARGS] = PTK_S(args);
	for (int i = 0; i < p->tab.ncols; i++)
		vals[i] = all[p->map[i]];
	ptk_sink_event(&r->ctx->sink, &p->tab, vals);
	return 0;
}

static int es_load(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int err;

	if (p->l) {
		p->events_fd = p->l->maps.events.map_fd;
		p->lost_fd = p->l->maps.lost.map_fd;
	} else {
		struct execsnoop_bpf *s = r->skel;
		if ((err = execsnoop_bpf__load(s)))
			return err;
		if ((err = execsnoop_bpf__attach(s)))
			return err;
		p->events_fd = bpf_map__fd(s->maps.events);
		p->lost_fd = bpf_map__fd(s->maps.lost);
	}
	r->rb = ring_buffer__new(p->events_fd, handle_event, r, NULL);
	if (!r->rb)
		return -errno;
	p->start_ns = ptk_now_ns();
	if (!r->ctx->json)
		ptk_sink_table_begin(&r->ctx->sink, &p->tab, true, NULL);
	fflush(stdout);
	fprintf(stderr, "Tracing exec()s... Hit Ctrl-C to end.\n");
	return 0;
}

static u64 es_lost(struct ptk_bpf_run *r)
{
	return ptk_bpf_percpu_sum(((struct priv *)r->priv)->lost_fd, 0);
}

static int es_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;

	if (r->ctx->json) {
		ptk_sink_begin(&r->ctx->sink);
		ptk_sink_meta_u64(&r->ctx->sink, "events", p->events);
		ptk_sink_meta_str(&r->ctx->sink, "loader", p->l ? "light skeleton" : "libbpf");
		ptk_sink_meta_json(&r->ctx->sink, "observer", ptk_bpf_observer_json(r));
		ptk_sink_end(&r->ctx->sink);
	}
	fflush(stdout);
	return 0;
}

static void es_destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	ring_buffer__free(r->rb);
	r->rb = NULL;
	PTK_LSKEL_DETACH(p->l);
	execsnoop_l_bpf__destroy(p->l);
	execsnoop_bpf__destroy(r->skel);
}

static const struct ptk_bpf_ops ops = {
	.name = "execsnoop",
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.load = es_load,
	.report = es_report,
	.lost = es_lost,
	.object = object,
	.prog_fds = prog_fds,
	.destroy = es_destroy,
	.needs_tracefs = true,
};

enum { OPT_MAX_ARGS = 0x1200 };

int cmd_execsnoop(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "time", no_argument, NULL, 'T' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "fails", no_argument, NULL, 'x' },
		{ "uid", required_argument, NULL, 'u' },
		{ "print-uid", no_argument, NULL, 'U' },
		{ "quote", no_argument, NULL, 'q' },
		{ "name", required_argument, NULL, 'n' },
		{ "line", required_argument, NULL, 'l' },
		{ "ppid", required_argument, NULL, 'P' },
		{ "max-args", required_argument, NULL, OPT_MAX_ARGS },
		{ "pid", required_argument, NULL, 'p' },
		{ "cgroup", required_argument, NULL, PTK_OPT_CGROUP },
		{ "verbose", no_argument, NULL, 'v' },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct priv p = { .uid = EXECSNOOP_INVALID_UID,
			  .max_args = EXECSNOOP_DEFAULT_MAX_ARGS,
			  .events_fd = -1,
			  .lost_fd = -1 };
	struct ptk_bpf_run r = { .ctx = ctx, .ops = &ops, .priv = &p, .count = -1 };
	int c, rc, v;

	while ((c = getopt_long(argc, argv, "TtxUu:qn:l:P:p:c:v", opts, NULL)) != -1) {
		switch (c) {
		case 'T':
			p.time = true;
			continue;
		case 't':
			p.timestamp = true;
			continue;
		case 'x':
			p.fails = true;
			continue;
		case 'U':
			p.print_uid = true;
			continue;
		case 'q':
			p.quote = true;
			continue;
		case 'n':
			p.name = optarg;
			continue;
		case 'l':
			p.line = optarg;
			continue;
		case 'u':
			if (ptk_parse_int(optarg, &v) || v < 0)
				return ptk_usage_error(ctx, "invalid UID '%s'", optarg);
			p.uid = v;
			continue;
		case 'P':
			if (ptk_parse_int(optarg, &v) || v <= 0)
				return ptk_usage_error(ctx, "invalid PPID '%s'", optarg);
			p.ppid = v;
			continue;
		case OPT_MAX_ARGS:
			if (ptk_parse_int(optarg, &v) || v < 1 || v > EXECSNOOP_TOTAL_MAX_ARGS)
				return ptk_usage_error(ctx, "invalid --max-args '%s' (1 to %d)",
						       optarg, EXECSNOOP_TOTAL_MAX_ARGS);
			p.max_args = v;
			continue;
		case 'c':
			c = PTK_OPT_CGROUP;
			break;
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
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	for (int i = 0; i < NCOLS; i++) {
		if ((i == COL_TIME && !p.time) || (i == COL_TS && !p.timestamp) ||
		    (i == COL_UID && !p.print_uid))
			continue;
		p.map[p.tab.ncols] = i;
		p.shown[p.tab.ncols++] = cols[i];
	}
	p.tab.name = "execs";
	p.tab.cols = p.shown;
	return ptk_bpf_run(&r);
}
