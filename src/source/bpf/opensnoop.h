/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of opensnoop: one event per completed open/openat/openat2. */
#ifndef PTK_OPENSNOOP_H
#define PTK_OPENSNOOP_H

#define OPENSNOOP_NAME_LEN 256 /* bytes of the path argument, and of one path component (-F) */
#define OPENSNOOP_MAX_DEPTH 16 /* directory components resolved for -F */
#define OPENSNOOP_AT_FDCWD -100

enum opensnoop_sys { OPENSNOOP_OPEN, OPENSNOOP_OPENAT, OPENSNOOP_OPENAT2 };

struct opensnoop_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC at sys_exit */
	__s32 pid; /* tgid */
	__s32 tid;
	__u32 uid;
	__s32 ret; /* fd, or -errno */
	__s32 dirfd; /* AT_FDCWD for open() */
	__u32 flags; /* O_* (open_how.flags for openat2) */
	__u32 mode; /* when O_CREAT / O_TMPFILE, else 0 */
	__u32 sys; /* enum opensnoop_sys */
	__u32 depth; /* -F: directory components in dirs[], innermost first */
	__u32 dir_truncated; /* -F: the walk stopped before the root */
	char comm[16];
	char fname[OPENSNOOP_NAME_LEN]; /* the path as passed */
	char dirs[OPENSNOOP_MAX_DEPTH][OPENSNOOP_NAME_LEN]; /* -F: only depth entries sent */
};

#endif
