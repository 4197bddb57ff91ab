// SPDX-License-Identifier: GPL-2.0
/* The kernel log: /dev/kmsg records, classified into the errors `ptk check` reports. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include "source/procfs/procfs.h"

const char *const ptk_kmsg_kind_name[PTK_KMSG_NKINDS] = {
	[PTK_KMSG_OOM] = "oom_kill",
	[PTK_KMSG_IO_ERROR] = "io_error",
	[PTK_KMSG_HUNG_TASK] = "hung_task",
	[PTK_KMSG_SOFT_LOCKUP] = "lockup",
};

static const struct {
	const char *needle;
	enum ptk_kmsg_kind kind;
} patterns[] = {
	/*
	 * One OOM kill logs "invoked oom-killer", "oom-kill:constraint=..." and "[Memory cgroup]
	 * Out of memory: Killed process N" (mm/oom_kill.c; before 4.19 "Out of memory: Kill
	 * process N ... or sacrifice child" then "Killed process N"). Only the "Killed process"
	 * line counts, so a kill is one event. No kill possible is a panic: count that too.
	 */
	{ "Killed process", PTK_KMSG_OOM },
	{ "Out of memory and no killable processes", PTK_KMSG_OOM },
	{ "I/O error", PTK_KMSG_IO_ERROR },
	{ "critical medium error", PTK_KMSG_IO_ERROR },
	{ "critical target error", PTK_KMSG_IO_ERROR },
	{ "EXT4-fs error", PTK_KMSG_IO_ERROR },
	{ "XFS (", PTK_KMSG_IO_ERROR }, /* refined below: only with "error" */
	{ "blocked for more than", PTK_KMSG_HUNG_TASK },
	{ "soft lockup", PTK_KMSG_SOFT_LOCKUP },
	{ "hard LOCKUP", PTK_KMSG_SOFT_LOCKUP },
	{ "rcu_sched self-detected stall", PTK_KMSG_SOFT_LOCKUP },
	{ "rcu: INFO: rcu_preempt detected stalls", PTK_KMSG_SOFT_LOCKUP },
};

int ptk_kmsg_classify(const char *msg)
{
	for (size_t i = 0; i < ARRAY_SIZE(patterns); i++) {
		if (!strstr(msg, patterns[i].needle))
			continue;
		if (!strcmp(patterns[i].needle, "XFS (") && !strstr(msg, "error"))
			continue;
		return patterns[i].kind;
	}
	return -1;
}

static void add_record(struct ptk_kmsg *km, const char *rec, size_t len)
{
	char line[1024];
	unsigned long long ts = 0;
	const char *semi, *text;
	int kind;

	if (len == 0 || rec[0] == ' ')
		return; /* continuation ("KEY=value") line */
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, rec, len);
	line[len] = '\0';
	semi = strchr(line, ';');
	if (!semi)
		return;
	km->records++;
	/* "pri,seq,ts_us,flags[,...];text" */
	if (sscanf(line, "%*u,%*u,%llu", &ts) != 1)
		return;
	text = semi + 1;
	kind = ptk_kmsg_classify(text);
	if (kind < 0)
		return;
	if (km->n == km->cap) {
		km->cap = km->cap ? km->cap * 2 : 16;
		km->ev = xrealloc(km->ev, km->cap * sizeof(*km->ev));
	}
	struct ptk_kmsg_event *e = &km->ev[km->n++];
	e->kind = kind;
	e->ts_us = ts;
	snprintf(e->msg, sizeof(e->msg), "%s", text);
	/* escape controls so the message stays on one line */
	for (char *c = e->msg; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = ' ';
}

int ptk_kmsg_parse(const char *text, struct ptk_kmsg *km)
{
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		add_record(km, p, len);
		if (!eol)
			break;
		p = eol + 1;
	}
	return 0;
}

/* A "kmsg" file on a real procfs is the blocking syslog(2) interface: never read it. */
static bool on_procfs(const struct ptk_src *src)
{
	char path[PATH_MAX];
	struct statfs sfs;

	if (ptk_src_path(src, PTK_PROC, "kmsg", path, sizeof(path)))
		return false;
	return statfs(path, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

int ptk_kmsg_read(const struct ptk_src *src, struct ptk_kmsg *km)
{
	km->n = 0;
	km->records = 0;
	if (ptk_src_is_live(src) || on_procfs(src)) {
		char rec[8192];
		int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

		if (fd < 0)
			return -errno;
		for (;;) {
			/* one record per read(); EPIPE = overwritten while reading, go on */
			ssize_t n = read(fd, rec, sizeof(rec) - 1);
			if (n < 0) {
				if (errno == EINTR || errno == EPIPE)
					continue;
				int e = errno;
				close(fd);
				return e == EAGAIN ? 0 : -e;
			}
			if (n == 0)
				break;
			const char *eol = memchr(rec, '\n', n);
			add_record(km, rec, eol ? (size_t)(eol - rec) : (size_t)n);
		}
		close(fd);
		return 0;
	}
	struct ptk_buf b = { 0 };
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, "kmsg", &b);
	if (n < 0)
		return n;
	ptk_kmsg_parse(b.p, km);
	ptk_buf_free(&b);
	return 0;
}

void ptk_kmsg_free(struct ptk_kmsg *km)
{
	free(km->ev);
	memset(km, 0, sizeof(*km));
}
