// SPDX-License-Identifier: GPL-2.0
#include "lib/child.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct sigaction start_act[NSIG];
static bool start_saved[NSIG];
static sigset_t start_mask;
static int start_mntns = -1;

void ptk_child_save_start(void)
{
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP && sigaction(s, NULL, &start_act[s]) == 0)
			start_saved[s] = true;
	sigprocmask(SIG_SETMASK, NULL, &start_mask);
}

int ptk_child_save_mntns(void)
{
	if (start_mntns >= 0)
		return 0;
	start_mntns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	return start_mntns < 0 ? -errno : 0;
}

int ptk_child_restore_mntns(void)
{
	if (start_mntns < 0)
		return -ENOENT;
	return setns(start_mntns, CLONE_NEWNS) ? -errno : 0;
}

int ptk_child_prepare(void)
{
	int err = 0;

	for (int s = 1; s < NSIG; s++) {
		struct sigaction now;
		if (!start_saved[s] || sigaction(s, NULL, &now))
			continue;
		/* a caught signal is reset by exec anyway; an ignored one is not */
		if (now.sa_handler != start_act[s].sa_handler &&
		    sigaction(s, &start_act[s], NULL) && !err)
			err = -errno;
	}
	if (sigprocmask(SIG_SETMASK, &start_mask, NULL) && !err)
		err = -errno;
	if (start_mntns >= 0 && setns(start_mntns, CLONE_NEWNS) && !err)
		err = -errno;
	return err;
}

/* path is an executable regular file: 0, or -ENOENT / -EACCES as exec would fail */
static int runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) ? -errno : 0;
}

int ptk_child_find(const char *name, char *path, size_t size)
{
	char defpath[256];
	const char *dirs = getenv("PATH");
	int err = -ENOENT;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		if ((size_t)snprintf(path, size, "%s", name) >= size)
			return -ENAMETOOLONG;
		return runnable(path);
	}
	if (!dirs) {
		size_t n = confstr(_CS_PATH, defpath, sizeof(defpath));
		dirs = n && n <= sizeof(defpath) ? defpath : "/bin:/usr/bin";
	}
	for (const char *d = dirs;; d++) {
		const char *e = strchrnul(d, ':');
		int len = (int)(e - d), rc;

		/* an empty entry is the current directory, as execvp takes it */
		if ((size_t)snprintf(path, size, "%.*s%s%s", len, d, len ? "/" : "", name) < size) {
			rc = runnable(path);
			if (!rc)
				return 0;
			if (rc == -EACCES)
				err = -EACCES; /* execvp reports EACCES if no later entry runs */
		}
		if (!*e)
			break;
		d = e;
	}
	return err;
}
