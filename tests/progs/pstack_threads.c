// SPDX-License-Identifier: GPL-2.0
/*
 * Target for ptk pstack (tests/cmd/61-pstack.sh): threads with known names blocked in known
 * functions, so a stack dump can be checked frame by frame against eu-stack and gdb.
 *   main        main -> blocked_in_main -> nanosleep
 *   reader      blocked_in_read -> read() on a pipe nobody writes
 *   condwait    blocked_in_cond -> pthread_cond_wait
 *   sleeper     blocked_in_sleep -> nanosleep (wakes every 20 ms: proves the process runs)
 *   locker      blocked_in_mutex -> pthread_mutex_lock of a mutex main holds
 *   sighand     waiting_for_signal -> <signal frame> -> in_sigusr1_handler -> pause()
 *   worker x3   worker_idle -> pthread_cond_wait (identical stacks, for --group)
 * Prints "ready" once every thread sleeps in its call, then lives until killed (at most
 * 300 s: alarm).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NTHR 8

static int pipefd[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, cmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t wmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, wcv = PTHREAD_COND_INITIALIZER;
static volatile pid_t tids[NTHR];
static volatile sig_atomic_t in_handler;
volatile unsigned long sleeper_ticks;

static void mark(int i)
{
	tids[i] = (pid_t)syscall(SYS_gettid);
}

__attribute__((noinline)) static void blocked_in_read(void)
{
	char c;
	ssize_t n = read(pipefd[0], &c, 1);
	(void)n;
}

__attribute__((noinline)) static void blocked_in_cond(void)
{
	pthread_mutex_lock(&cmu);
	for (;;)
		pthread_cond_wait(&cv, &cmu);
}

__attribute__((noinline)) static void blocked_in_sleep(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	for (;;) {
		nanosleep(&ts, NULL);
		sleeper_ticks++;
	}
}

__attribute__((noinline)) static void blocked_in_mutex(void)
{
	pthread_mutex_lock(&mu);
	pthread_mutex_unlock(&mu);
}

__attribute__((noinline)) static void in_sigusr1_handler(int sig)
{
	(void)sig;
	in_handler = 1;
	for (;;)
		pause();
}

__attribute__((noinline)) static void waiting_for_signal(void)
{
	sigset_t set;
	sigemptyset(&set);
	for (;;)
		sigsuspend(&set);
}

__attribute__((noinline)) static void worker_idle(void)
{
	pthread_mutex_lock(&wmu);
	for (;;)
		pthread_cond_wait(&wcv, &wmu);
}

static void *thr(void *arg)
{
	int i = (int)(long)arg;
	static const char *const names[NTHR] = { "main",   "reader",  "condwait", "sleeper",
						 "locker", "sighand", "worker",	  "worker" };
	sigset_t set;

	pthread_setname_np(pthread_self(), names[i]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(i == 5 ? SIG_UNBLOCK : SIG_BLOCK, &set, NULL);
	mark(i);
	switch (i) {
	case 1:
		blocked_in_read();
		break;
	case 2:
		blocked_in_cond();
		break;
	case 3:
		blocked_in_sleep();
		break;
	case 4:
		blocked_in_mutex();
		break;
	case 5:
		waiting_for_signal();
		break;
	default:
		worker_idle();
		break;
	}
	return NULL;
}

/* Sleeping ('S') in the kernel, per /proc/self/task/TID/stat. */
static int sleeping(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')))
		return 0;
	return p[2] == 'S';
}

__attribute__((noinline)) static void blocked_in_main(void)
{
	struct timespec ts = { 1, 0 };
	for (;;)
		nanosleep(&ts, NULL);
}

int main(void)
{
	pthread_t t[NTHR + 1];
	struct sigaction sa;
	int nthr = NTHR + 1; /* 1..7 above, plus a third worker (index 8 -> worker) */

	alarm(300);
	if (pipe(pipefd))
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = in_sigusr1_handler;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_mutex_lock(&mu);
	mark(0);
	for (int i = 1; i < nthr; i++)
		if (pthread_create(&t[i], NULL, thr, (void *)(long)(i < NTHR ? i : 6)))
			return 1;
	for (int i = 1; i < NTHR; i++)
		while (!tids[i])
			usleep(1000);
	pthread_kill(t[5], SIGUSR1);
	while (!in_handler)
		usleep(1000);
	/* every thread asleep in its call (the third worker has no slot: give it time) */
	for (int tries = 0; tries < 2000; tries++) {
		int all = 1;
		for (int i = 1; i < NTHR; i++)
			all &= sleeping(tids[i]);
		if (all)
			break;
		usleep(1000);
	}
	usleep(50000);
	printf("ready %d\n", (int)getpid());
	for (int i = 0; i < NTHR; i++)
		printf("tid %d %d\n", i, (int)tids[i]);
	fflush(stdout);
	blocked_in_main();
	return 0;
}
