// SPDX-License-Identifier: GPL-2.0
/* forktree: fork + exec, vfork + exec and a thread (clone), then waits for all; prints the
 * pids it created on stdout ("fork PID", "vfork PID") for tests/cmd/60-strace.sh -f. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thr(void *a)
{
	(void)a;
	syscall(SYS_getppid);
	return NULL;
}

int main(void)
{
	pthread_t th;
	pid_t a, b;
	int st;

	a = fork();
	if (a == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	b = vfork();
	if (b == 0) {
		execl("/bin/echo", "echo", "vforked", (char *)NULL);
		_exit(127);
	}
	pthread_create(&th, NULL, thr, NULL);
	pthread_join(th, NULL);
	waitpid(a, &st, 0);
	waitpid(b, &st, 0);
	printf("fork %d\nvfork %d\n", a, b);
	return 0;
}
