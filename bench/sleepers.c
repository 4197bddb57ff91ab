// SPDX-License-Identifier: GPL-2.0
/*
 * bench/sleepers N: fork N children that sleep in pause() until this process ends, print
 * "ready" once all exist, and wait. On SIGTERM, SIGINT or SIGHUP every child is killed and
 * reaped; if this process dies any other way (SIGKILL), each child gets SIGKILL from the
 * kernel (PR_SET_PDEATHSIG). An alarm ends the whole group after an hour at most.
 * Built and run by bench/lib.sh (bench_sleepers).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	pid_t self = getpid(), *kids;
	long nkids = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old;

	if (n < 0 || n > 1000000) {
		fprintf(stderr, "usage: sleepers N (0..1000000)\n");
		return 2;
	}
	kids = calloc(n ? n : 1, sizeof(*kids));
	if (!kids)
		return 1;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	for (long i = 0; i < n && !done; i++) {
		pid_t p = fork();
		if (p < 0) {
			fprintf(stderr, "sleepers: fork %ld of %ld: %m\n", i + 1, n);
			done = 1;
			break;
		}
		if (p == 0) {
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			signal(SIGALRM, SIG_DFL);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != self) /* the parent died before the prctl */
				_exit(0);
			sigprocmask(SIG_SETMASK, &old, NULL);
			for (;;)
				pause();
		}
		kids[nkids++] = p;
	}
	if (!done) {
		alarm(3600);
		printf("ready\n");
		fflush(stdout);
	}
	while (!done)
		sigsuspend(&old);
	for (long i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
