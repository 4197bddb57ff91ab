// SPDX-License-Identifier: GPL-2.0
/*
 * Target for ptk gcore (tests/cmd/62-gcore.sh): known values in data, bss and heap, and three
 * threads in known functions, so a core file can be checked with gdb and eu-stack.
 *   main        main -> gcore_main_wait -> nanosleep (counts ticks: proves it keeps running)
 *   gc-reader   gcore_blocked_read -> read() on a pipe nobody writes
 *   gc-cond     gcore_blocked_cond -> pthread_cond_wait
 * Prints "ready PID" and lives until killed (at most 300 s: alarm).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int answer = 42;
char marker[] = "ptk-gcore";
char *heap_marker;
volatile unsigned long ticks;
static int pipefd[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile int started;

__attribute__((noinline)) static void gcore_blocked_read(void)
{
	char c;
	ssize_t n = read(pipefd[0], &c, 1);
	(void)n;
}

__attribute__((noinline)) static void gcore_blocked_cond(void)
{
	pthread_mutex_lock(&mu);
	for (;;)
		pthread_cond_wait(&cv, &mu);
}

static void *reader(void *arg)
{
	pthread_setname_np(pthread_self(), "gc-reader");
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	gcore_blocked_read();
	return arg;
}

static void *condw(void *arg)
{
	pthread_setname_np(pthread_self(), "gc-cond");
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	gcore_blocked_cond();
	return arg;
}

__attribute__((noinline)) static void gcore_main_wait(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	for (;;) {
		nanosleep(&ts, NULL);
		ticks++;
	}
}

int main(void)
{
	pthread_t a, b;

	alarm(300);
	heap_marker = strdup("heap-marker-7f3a");
	if (pipe(pipefd) || pthread_create(&a, NULL, reader, NULL) ||
	    pthread_create(&b, NULL, condw, NULL))
		return 1;
	while (started < 2)
		usleep(1000);
	usleep(100000);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	gcore_main_wait();
	return 0;
}
