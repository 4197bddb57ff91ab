// SPDX-License-Identifier: GPL-2.0
#include "source/jvm.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"

int ptk_jvm_jstack(int pid, int timeout_ms, char **out, char *why, size_t wsize)
{
	struct ptk_buf b = { 0 };
	char arg[16];
	int fds[2], st, err;
	pid_t child;
	u64 deadline = ptk_now_ns() + (u64)timeout_ms * 1000000;
	bool timeout = false;

	*out = NULL;
	snprintf(arg, sizeof(arg), "%d", pid);
	if (pipe2(fds, O_CLOEXEC)) {
		err = -errno;
		snprintf(why, wsize, "pipe: %s", strerror(-err));
		return err;
	}
	child = fork();
	if (child < 0) {
		err = -errno;
		snprintf(why, wsize, "fork: %s", strerror(-err));
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (child == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execlp("jstack", "jstack", arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		u64 now = ptk_now_ns();
		if (now >= deadline) {
			timeout = true;
			break;
		}
		int r = poll(&p, 1, (int)((deadline - now) / 1000000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		if (b.cap - b.len < 4096) {
			b.cap = b.cap ? b.cap * 2 : 65536;
			b.p = xrealloc(b.p, b.cap);
		}
		ssize_t n = read(fds[0], b.p + b.len, b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		b.len += n;
	}
	close(fds[0]);
	if (timeout)
		kill(child, SIGKILL);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	if (b.p)
		b.p[b.len] = '\0';
	err = -EIO;
	if (timeout) {
		err = -ETIMEDOUT;
		snprintf(why, wsize, "jstack %d did not finish within %d s", pid,
			 timeout_ms / 1000);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !b.len) {
		err = -ENOENT;
		snprintf(why, wsize,
			 "jstack not found in PATH (it comes with a JDK, e.g. Debian "
			 "openjdk-17-jdk-headless)");
	} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		const char *msg = b.p ? b.p : "";
		while (*msg == '\n' || *msg == ' ')
			msg++;
		int n = (int)strcspn(msg, "\n");
		if (WIFEXITED(st))
			snprintf(why, wsize, "jstack %d failed (exit %d): %.*s", pid,
				 WEXITSTATUS(st), n ? n : 11, n ? msg : "(no output)");
		else
			snprintf(why, wsize, "jstack %d killed by signal %d", pid, WTERMSIG(st));
	} else {
		*out = b.p;
		return 0;
	}
	free(b.p);
	return err;
}

int ptk_jvm_check(const struct ptk_src *src, int pid, char *why, size_t wsize)
{
	char rel[32], path[PATH_MAX];
	size_t len;
	char *maps;
	bool jvm;

	snprintf(rel, sizeof(rel), "%d/maps", pid);
	if (ptk_src_path(src, PTK_PROC, rel, path, sizeof(path))) {
		snprintf(why, wsize, "process %d: path too long", pid);
		return -ENAMETOOLONG;
	}
	maps = ptk_slurp(path, &len);
	if (!maps) {
		int err = errno == ENOENT ? -ESRCH : -errno;
		snprintf(why, wsize, "cannot read %.256s: %s", path,
			 err == -ESRCH ? "no such process" : strerror(-err));
		return err;
	}
	jvm = strstr(maps, "/libjvm.so\n") != NULL;
	free(maps);
	if (!jvm) {
		snprintf(why, wsize,
			 "process %d is not a HotSpot JVM (no libjvm.so in %.256s); jstack would "
			 "send it SIGQUIT",
			 pid, path);
		return -ENOEXEC;
	}
	return 0;
}
