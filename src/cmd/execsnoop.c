// SPDX-License-Identifier: GPL-2.0
/* ptk execsnoop: trace execve/execveat as they complete (libbpf-tools execsnoop). */
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

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
	int ppid;
	int max_args;
	const char *name, *line;
};

/* the light skeleton, else the libbpf skeleton in r->skel */
PTK_BPF_LSKEL_FREE(execsnoop_l_bpf)

#define ES_SET_RODATA(skel, r, p)                            \
	do {                                                 \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);     \
		(skel)->rodata->ignore_failed = !(p)->fails; \
		(skel)->rodata->targ_ppid = (p)->ppid;       \
		(skel)->rodata->max_args = (p)->max_args;    \
	} while (0)

static int open_libbpf(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct execsnoop_bpf *s = PTK_BPF_OPEN(r, execsnoop_bpf);

	if (!s)
		return -errno;
	ES_SET_RODATA(s, r, p);
	return 0;
}

#define ES_SETUP(s) ES_SET_RODATA(s, r, p)
#define ES_TPS(l)                                                                                \
	PTK_LSKEL_TP(l, tp_sys_enter_execve, "syscalls", "sys_enter_execve", false),             \
		PTK_LSKEL_TP(l, tp_sys_exit_execve, "syscalls", "sys_exit_execve", false),       \
		PTK_LSKEL_TP(l, tp_sys_enter_execveat, "syscalls", "sys_enter_execveat", false), \
		PTK_LSKEL_TP(l, tp_sys_exit_execveat, "syscalls", "sys_exit_execveat", false)

/* The light skeleton, its tracepoints attached. 0 or -errno (then it is freed). */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	return PTK_BPF_LSKEL_TPS(r, execsnoop_l_bpf, ES_SETUP, ES_TPS);
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

static int es_event(struct ptk_bpf_run *r, const void *data, size_t len)
{
	struct priv *p = r->priv;
	const struct execsnoop_event *e = data;
	static char args[EXECSNOOP_ARGS_LEN * 2 + 8];
	struct ptk_val v[NCOLS];
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
	ptk_ctx_clock(r->ctx, ts, sizeof(ts));
	v[COL_TIME] = PTK_S(ts);
	v[COL_TS] = PTK_F(e->ts_ns > r->start_ns ? (e->ts_ns - r->start_ns) / 1e9 : 0);
	v[COL_UID] = PTK_U(e->uid);
	v[COL_COMM] = PTK_S(comm);
	v[COL_PID] = PTK_I(e->pid);
	v[COL_PPID] = PTK_I(e->ppid);
	v[COL_RET] = PTK_I(e->retval);
	v[COL_ARGS] = PTK_S(args);
	ptk_bpf_event_row(r, v);
	return 1;
}

enum { OPT_MAX_ARGS = 0x1200 };

static int es_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;
	int v;

	switch (c) {
	case 'P':
		if (ptk_parse_int(arg, &v) || v <= 0)
			return ptk_usage_error(r->ctx, "invalid PPID '%s'", arg);
		p->ppid = v;
		return 0;
	case OPT_MAX_ARGS:
		if (ptk_parse_int(arg, &v) || v < 1 || v > EXECSNOOP_TOTAL_MAX_ARGS)
			return ptk_usage_error(r->ctx, "invalid --max-args '%s' (1 to %d)", arg,
					       EXECSNOOP_TOTAL_MAX_ARGS);
		p->max_args = v;
		return 0;
	case 'c': /* -c is the cgroup here (libbpf-tools execsnoop) */
		return ptk_bpf_common_opt(r->ctx, &r->filter, PTK_OPT_CGROUP, arg);
	}
	return -1;
}

static int es_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	ptk_bpf_event_table(r, "execs", cols, NCOLS,
			    (p->time ? 0 : 1u << COL_TIME) | (p->timestamp ? 0 : 1u << COL_TS) |
				    (p->print_uid ? 0 : 1u << COL_UID));
	return 0;
}

static const struct ptk_bpf_opt es_opts[] = {
	PTK_BPF_FLAG('T', "time", struct priv, time),
	PTK_BPF_FLAG('t', "timestamp", struct priv, timestamp),
	PTK_BPF_FLAG('x', "fails", struct priv, fails),
	PTK_BPF_FLAG('U', "print-uid", struct priv, print_uid),
	PTK_BPF_FLAG('q', "quote", struct priv, quote),
	PTK_BPF_STR('n', "name", struct priv, name),
	PTK_BPF_STR('l', "line", struct priv, line),
	PTK_BPF_CALL('P', "ppid", required_argument),
	PTK_BPF_CALL(OPT_MAX_ARGS, "max-args", required_argument),
	PTK_BPF_CALL('c', NULL, required_argument),
	{ 0 },
};

const struct ptk_bpf_ops ptk_execsnoop_ops = {
	.name = "execsnoop",
	.usage = usage,
	.banner = "exec()s",
	.opts = es_opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_CGROUP | PTK_BPF_OPT_UID | PTK_BPF_OPT_VERBOSE,
	.opt = es_opt,
	.prepare = es_prepare,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.event = es_event,
	.needs_tracefs = true,
	.priv_size = sizeof(struct priv),
	.priv_init = &(const struct priv){ .max_args = EXECSNOOP_DEFAULT_MAX_ARGS },
};
