// SPDX-License-Identifier: GPL-2.0
/*
 * opensnoop: sys_enter_open/openat/openat2 remember the arguments per thread,
 * sys_exit_* read the path (resident by then: the kernel has just copied it) and send one
 * event through a ring buffer. -p matches the tgid, so opens by any thread of the process
 * are seen. With -F a relative path's directory (the cwd, or the dirfd's file) is resolved
 * by walking dentries up to the root across mounts. Ring buffer reserve failures and a full
 * in-flight table are counted per CPU in lost[0].
 */
#include "common.bpf.h"
#include "events.bpf.h"
#include "opensnoop.h"

#define O_CREAT 00000100
#define O_TMPFILE 020200000

const volatile bool targ_failed = false;
const volatile bool full_path = false;

struct args {
	const char *fname;
	__u32 flags, mode, sys;
	__s32 dirfd;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct args);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct opensnoop_event);
} scratch SEC(".maps");

static __always_inline int on_enter(const char *fname, int dirfd, __u32 flags, __u32 mode,
				    __u32 sys)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct args a = {
		.fname = fname, .dirfd = dirfd, .flags = flags, .mode = mode, .sys = sys
	};

	if (!current_selected() || !uid_selected())
		return 0;
	if (bpf_map_update_elem(&start, &tid, &a, BPF_ANY))
		count_lost();
	return 0;
}

struct walk {
	struct opensnoop_event *e;
	struct dentry *dentry, *mnt_root;
	struct mount *mnt;
	__u32 depth;
	bool done;
};

/* One step up the tree (a bpf_loop callback: verified once, whatever the depth). */
static long walk_step(__u32 i, void *arg)
{
	struct walk *w = arg;
	struct dentry *dentry = w->dentry;
	struct mount *mnt = w->mnt;
	struct dentry *parent = BPF_CORE_READ(dentry, d_parent);
	__u32 d = w->depth;

	if (dentry == w->mnt_root || dentry == parent) {
		struct mount *up = BPF_CORE_READ(mnt, mnt_parent);

		if (up == mnt) {
			w->done = true; /* the root */
			return 1;
		}
		w->dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
		w->mnt = up;
		w->mnt_root = BPF_CORE_READ(up, mnt.mnt_root);
		return 0;
	}
	if (d >= OPENSNOOP_MAX_DEPTH)
		return 1;
	bpf_probe_read_kernel_str(w->e->dirs[d], OPENSNOOP_NAME_LEN,
				  BPF_CORE_READ(dentry, d_name.name));
	w->depth = d + 1;
	w->dentry = parent;
	return 0;
}

/* Directory components of the open's base directory (cwd or dirfd), innermost first. */
static __always_inline void walk_dir(struct opensnoop_event *e, int dirfd)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct walk w = { .e = e };
	struct vfsmount *vfsmnt;

	if (dirfd == OPENSNOOP_AT_FDCWD) {
		w.dentry = BPF_CORE_READ(task, fs, pwd.dentry);
		vfsmnt = BPF_CORE_READ(task, fs, pwd.mnt);
	} else {
		struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
		struct file **fds = BPF_CORE_READ(fdt, fd);
		struct file *f = NULL;

		if (dirfd < 0 || (__u32)dirfd >= BPF_CORE_READ(fdt, max_fds))
			return;
		bpf_probe_read_kernel(&f, sizeof(f), &fds[dirfd]);
		if (!f)
			return;
		w.dentry = BPF_CORE_READ(f, f_path.dentry);
		vfsmnt = BPF_CORE_READ(f, f_path.mnt);
	}
	w.mnt = container_of(vfsmnt, struct mount, mnt);
	w.mnt_root = BPF_CORE_READ(vfsmnt, mnt_root);
	bpf_loop(OPENSNOOP_MAX_DEPTH * 2, walk_step, &w, 0);
	e->depth = w.depth;
	e->dir_truncated = !w.done;
}

static __always_inline int on_exit(void *ctx, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, zero = 0, size;
	struct opensnoop_event *e;
	struct args *a;

	a = bpf_map_lookup_elem(&start, &tid);
	if (!a)
		return 0;
	if (targ_failed && ret >= 0)
		goto out_delete_start;
	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		goto out_delete_start;
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = tid;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ret = ret;
	e->dirfd = a->dirfd;
	e->flags = a->flags;
	e->mode = (a->flags & O_CREAT) || (a->flags & O_TMPFILE) == O_TMPFILE ? a->mode : 0;
	e->sys = a->sys;
	e->depth = 0;
	e->dir_truncated = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (bpf_probe_read_user_str(e->fname, sizeof(e->fname), a->fname) < 0)
		e->fname[0] = '\0';
	if (full_path && e->fname[0] != '/')
		walk_dir(e, a->dirfd);
	size = e->depth;
	if (size > OPENSNOOP_MAX_DEPTH)
		size = OPENSNOOP_MAX_DEPTH;
	size = offsetof(struct opensnoop_event, dirs) + size * OPENSNOOP_NAME_LEN;
	output_event(e, size);
out_delete_start:
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_open")
int tp_sys_enter_open(struct trace_event_raw_sys_enter *ctx)
{
	return on_enter((const char *)ctx->args[0], OPENSNOOP_AT_FDCWD, ctx->args[1], ctx->args[2],
			OPENSNOOP_OPEN);
}

SEC("tracepoint/syscalls/sys_enter_openat")
int tp_sys_enter_openat(struct trace_event_raw_sys_enter *ctx)
{
	return on_enter((const char *)ctx->args[1], (int)ctx->args[0], ctx->args[2], ctx->args[3],
			OPENSNOOP_OPENAT);
}

SEC("tracepoint/syscalls/sys_enter_openat2")
int tp_sys_enter_openat2(struct trace_event_raw_sys_enter *ctx)
{
	struct open_how how = {};

	bpf_probe_read_user(&how, sizeof(how), (void *)ctx->args[2]);
	return on_enter((const char *)ctx->args[1], (int)ctx->args[0], how.flags, how.mode,
			OPENSNOOP_OPENAT2);
}

SEC("tracepoint/syscalls/sys_exit_open")
int tp_sys_exit_open(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit(ctx, ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_openat")
int tp_sys_exit_openat(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit(ctx, ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_openat2")
int tp_sys_exit_openat2(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit(ctx, ctx->ret);
}

char LICENSE[] SEC("license") = "GPL";
