// SPDX-License-Identifier: GPL-2.0
/* ptk opensnoop: trace open/openat/openat2 as they complete (libbpf-tools opensnoop). */
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/errnoname.h"
#include "opensnoop.skel.h"
/* the light skeleton (kernel-side loader: no vmlinux BTF parsed here); the libbpf skeleton
 * above is the fallback on kernels before 5.17 (PTK_BPF_LSKEL=0 forces it) */
#include "opensnoop_l.lskel.h"
#include "source/bpf/opensnoop.h"
#include "source/bpf/runner.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk opensnoop [-T] [-U] [-x] [-e] [-F] [-p PID] [-t TID] [-u UID] [-n NAME]\n"
	"                     [-c COMM] [--cgroup PATH] [-d SECONDS] [--json] [duration]\n"
	"Trace open(), openat() and openat2() as they complete, from the syscalls tracepoints.\n"
	"  -T           HH:MM:SS time column           -U  UID column\n"
	"  -x           failed opens only (ERR is the errno name, FD -1)\n"
	"  -e           extended columns: FLAGS (octal O_*) and MODE (with O_CREAT/O_TMPFILE)\n"
	"  -F           full path: a relative path is prefixed with its directory (the cwd or\n"
	"               the dirfd), resolved in the kernel at the time of the open\n"
	"  -p PID       only this process, any of its threads; -t TID one thread\n"
	"  -u UID       only this user; -n NAME only comms containing NAME; -c COMM exact comm\n"
	"  duration / -d SECONDS  stop after this long (default: until Ctrl-C)\n"
	"Events lost (ring buffer full) are counted and printed at exit, never dropped silently.\n";

enum {
	COL_TIME,
	COL_UID,
	COL_PID,
	COL_COMM,
	COL_FD,
	COL_ERR,
	COL_FLAGS,
	COL_MODE,
	COL_PATH,
	NCOLS
};

static const struct ptk_metric cols[NCOLS] = {
	[COL_TIME] = { "TIME", "time", "", PTK_GAUGE, PTK_V_STR, -8, 0,
		       "wall-clock time the event was printed (HH:MM:SS)" },
	[COL_UID] = { "UID", "uid", "", PTK_GAUGE, PTK_V_U64, -7, 0,
		      "real UID of the caller (bpf_get_current_uid_gid)" },
	[COL_PID] = { "PID", "pid", "", PTK_GAUGE, PTK_V_S64, -6, 0,
		      "process id (tgid) of the opening thread" },
	[COL_COMM] = { "COMM", "comm", "", PTK_GAUGE, PTK_V_STR, -16, 0,
		       "comm of the opening thread, task_struct::comm" },
	[COL_FD] = { "FD", "fd", "", PTK_GAUGE, PTK_V_S64, 3, 0,
		     "file descriptor returned, -1 when the open failed" },
	[COL_ERR] = { "ERR", "err", "", PTK_GAUGE, PTK_V_STR, -6, 0,
		      "errno name of a failed open (ENOENT), 0 on success; sys_exit ret" },
	[COL_FLAGS] = { "FLAGS", "flags", "", PTK_GAUGE, PTK_V_STR, -8, 0,
			"open flags in octal (O_*; open_how.flags for openat2)" },
	[COL_MODE] = { "MODE", "mode", "", PTK_GAUGE, PTK_V_STR, -5, 0,
		       "creation mode in octal, n/a without O_CREAT/O_TMPFILE" },
	[COL_PATH] = { "PATH", "path", "", PTK_GAUGE, PTK_V_STR, 0, 0,
		       "path argument as passed (-F: with its directory resolved)" },
};

struct priv {
	bool time, print_uid, failed, extended, full_path;
	const char *name;
};

/* the light skeleton, else the libbpf skeleton in r->skel */
PTK_BPF_LSKEL_FREE(opensnoop_l_bpf)

static bool tp_exists(const char *event)
{
	char path[PATH_MAX + 64], root[PATH_MAX];

	if (ptk_tracefs_find(root, sizeof(root)))
		return true; /* let attach report it */
	snprintf(path, sizeof(path), "%s/events/syscalls/%s", root, event);
	return access(path, F_OK) == 0;
}

#define OS_SET_RODATA(skel, r, p)                           \
	do {                                                \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);    \
		(skel)->rodata->targ_failed = (p)->failed;  \
		(skel)->rodata->full_path = (p)->full_path; \
	} while (0)

#define OS_SETUP(s) OS_SET_RODATA(s, r, p)
/* open(2) does not exist on arm64/riscv, openat2(2) came with 5.6 */
#define OS_TPS(l)                                                                             \
	PTK_LSKEL_TP(l, tp_sys_enter_openat, "syscalls", "sys_enter_openat", false),          \
		PTK_LSKEL_TP(l, tp_sys_exit_openat, "syscalls", "sys_exit_openat", false),    \
		PTK_LSKEL_TP(l, tp_sys_enter_open, "syscalls", "sys_enter_open", true),       \
		PTK_LSKEL_TP(l, tp_sys_exit_open, "syscalls", "sys_exit_open", true),         \
		PTK_LSKEL_TP(l, tp_sys_enter_openat2, "syscalls", "sys_enter_openat2", true), \
		PTK_LSKEL_TP(l, tp_sys_exit_openat2, "syscalls", "sys_exit_openat2", true)

/* The light skeleton, with the tracepoints this kernel has attached. 0 or -errno. */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	return PTK_BPF_LSKEL_TPS(r, opensnoop_l_bpf, OS_SETUP, OS_TPS);
}

/* The libbpf skeleton (kernels before 5.17), with the absent syscalls left out. 0 or -errno. */
static int open_libbpf(struct ptk_bpf_run *r)
{
	struct opensnoop_bpf *s = PTK_BPF_OPEN(r, opensnoop_bpf);
	struct priv *p = r->priv;

	if (!s)
		return -errno;
	OS_SET_RODATA(s, r, p);
	if (!tp_exists("sys_enter_open")) {
		bpf_program__set_autoload(s->progs.tp_sys_enter_open, false);
		bpf_program__set_autoload(s->progs.tp_sys_exit_open, false);
	}
	if (!tp_exists("sys_enter_openat2")) {
		bpf_program__set_autoload(s->progs.tp_sys_enter_openat2, false);
		bpf_program__set_autoload(s->progs.tp_sys_exit_openat2, false);
	}
	return 0;
}

/* The path to show: with -F, "/dir/.../fname" for a relative fname. */
static void full_path(const struct opensnoop_event *e, u32 depth, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	if (e->dir_truncated)
		o += snprintf(out + o, size - o, "...");
	for (int d = (int)depth - 1; d >= 0 && o < size; d--)
		o += snprintf(out + o, size - o, "/%.*s", OPENSNOOP_NAME_LEN, e->dirs[d]);
	if (o < size)
		snprintf(out + o, size - o, "/%s", e->fname);
}

static int os_event(struct ptk_bpf_run *r, const void *data, size_t len)
{
	struct priv *p = r->priv;
	const struct opensnoop_event *e = data;
	static char path[OPENSNOOP_NAME_LEN * (OPENSNOOP_MAX_DEPTH + 2)];
	struct ptk_val v[NCOLS];
	char ts[16], comm[17], err[16], flags[16], mode[16], fname[OPENSNOOP_NAME_LEN + 1];
	const char *en;
	u32 depth;

	if (len < offsetof(struct opensnoop_event, dirs))
		return 0;
	memcpy(comm, e->comm, 16);
	comm[16] = '\0';
	if (p->name && !strstr(comm, p->name))
		return 0;
	memcpy(fname, e->fname, OPENSNOOP_NAME_LEN);
	fname[OPENSNOOP_NAME_LEN] = '\0';
	depth = MIN(e->depth,
		    (u32)((len - offsetof(struct opensnoop_event, dirs)) / OPENSNOOP_NAME_LEN));
	if (p->full_path && fname[0] != '/')
		full_path(e, depth, path, sizeof(path));
	else
		snprintf(path, sizeof(path), "%s", fname);
	if (e->ret >= 0)
		snprintf(err, sizeof(err), "0");
	else if ((en = ptk_errno_name(e->ret)))
		snprintf(err, sizeof(err), "%s", en);
	else
		snprintf(err, sizeof(err), "%d", -e->ret);
	snprintf(flags, sizeof(flags), "%08o", e->flags);
	if (e->mode == 0 && !(e->flags & O_CREAT) && (e->flags & O_TMPFILE) != O_TMPFILE)
		snprintf(mode, sizeof(mode), "n/a");
	else
		snprintf(mode, sizeof(mode), "%04o", e->mode);
	ptk_ctx_clock(r->ctx, ts, sizeof(ts));
	v[COL_TIME] = PTK_S(ts);
	v[COL_UID] = PTK_U(e->uid);
	v[COL_PID] = PTK_I(e->pid);
	v[COL_COMM] = PTK_S(comm);
	v[COL_FD] = PTK_I(e->ret >= 0 ? e->ret : -1);
	v[COL_ERR] = PTK_S(err);
	v[COL_FLAGS] = PTK_S(flags);
	v[COL_MODE] = PTK_S(mode);
	v[COL_PATH] = PTK_S(path);
	ptk_bpf_event_row(r, v);
	return 1;
}

/* -d: the duration */
static int os_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	if (ptk_parse_double(arg, &r->duration_s) || !(r->duration_s > 0))
		return ptk_usage_error(r->ctx, "invalid duration '%s'", arg);
	return 0;
}

static int os_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	ptk_bpf_event_table(r, "opens", cols, NCOLS,
			    (p->time ? 0 : 1u << COL_TIME) | (p->print_uid ? 0 : 1u << COL_UID) |
				    (p->extended ? 0 : 1u << COL_FLAGS | 1u << COL_MODE));
	return 0;
}

static const struct ptk_bpf_opt os_opts[] = {
	PTK_BPF_FLAG('T', "timestamp", struct priv, time),
	PTK_BPF_FLAG('U', "print-uid", struct priv, print_uid),
	PTK_BPF_FLAG('x', "failed", struct priv, failed),
	PTK_BPF_FLAG('e', "extended-fields", struct priv, extended),
	PTK_BPF_FLAG('F', "full-path", struct priv, full_path),
	PTK_BPF_STR('n', "name", struct priv, name),
	PTK_BPF_CALL('d', "duration", required_argument),
	{ 0 },
};

const struct ptk_bpf_ops ptk_opensnoop_ops = {
	.name = "opensnoop",
	.usage = usage,
	.banner = "open()s",
	.opts = os_opts,
	.common = PTK_BPF_OPT_TASK | PTK_BPF_OPT_UID | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_DURATION,
	.opt = os_opt,
	.prepare = os_prepare,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.event = os_event,
	.needs_tracefs = true,
	.priv_size = sizeof(struct priv),
};
