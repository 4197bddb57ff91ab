// SPDX-License-Identifier: GPL-2.0
/*
 * A child calls getppid() and tells whether it got its parent's pid: a tracer that leaves a
 * SECCOMP_RET_TRACE filter on a child it does not trace makes the call fail with ENOSYS.
 * Prints "child getppid N parent N seccomp S" and exits 0 when they agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int seccomp_mode(void)
{
	char line[256];
	int mode = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8))
			mode = atoi(line + 8);
	if (f)
		fclose(f);
	return mode;
}

int main(void)
{
	pid_t parent = getpid(), pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		long r = syscall(SYS_getppid);
		printf("child getppid %ld parent %d seccomp %d\n", r, (int)parent, seccomp_mode());
		return r == parent ? 0 : 1;
	}
	if (waitpid(pid, &st, 0) != pid)
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}
