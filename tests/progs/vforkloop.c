// SPDX-License-Identifier: GPL-2.0
/* vforkloop: vfork + exec /bin/true in a loop, forever, with a second thread making
 * syscalls: a target that is always inside a fork, an exec or a syscall, for the detach
 * tests of tests/cmd/60-strace.sh. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *spin(void *a)
{
	(void)a;
	for (;;)
		syscall(SYS_getppid);
	return NULL;
}

int main(void)
{
	pthread_t th;

	pthread_create(&th, NULL, spin, NULL);
	for (;;) {
		pid_t p = vfork();
		if (p == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}
