// SPDX-License-Identifier: GPL-2.0
/*
 * For the opensnoop test: the main thread only waits; a second thread opens files.
 * usage: openthr DIR N
 * Prints "ready <pid> <tid>" once the thread exists, waits for a line on stdin, then the
 * thread opens DIR/thr-<i> (created) for i in 0..N-1, open()s DIR/missing-thr (ENOENT) and
 * openat2()s DIR/thr-0; prints "done" and exits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *dir;
static int n;
static pthread_barrier_t go;

static void *opener(void *arg)
{
	char path[4096];
	struct open_how how = { .flags = O_RDONLY };
	int fd;

	printf("ready %d %ld\n", getpid(), (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_barrier_wait(&go);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/thr-%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
		if (fd >= 0)
			close(fd);
	}
	snprintf(path, sizeof(path), "%s/missing-thr", dir);
	fd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/thr-0", dir);
	fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char line[16];

	if (argc < 3)
		return 2;
	dir = argv[1];
	n = atoi(argv[2]);
	pthread_barrier_init(&go, NULL, 2);
	pthread_create(&t, NULL, opener, NULL);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	pthread_barrier_wait(&go);
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
