// SPDX-License-Identifier: GPL-2.0
/*
 * Load for the cswtop tests: named thread pools with known context-switch behaviour.
 *   alpha-N  sleep 1 ms in a loop      -> ~1000 voluntary switches/s each
 *   beta-N   spin                      -> no voluntary switches, involuntary only when preempted
 *   gamma-N  sleep 10 ms in a loop     -> ~100 voluntary switches/s each
 * usage: cswload NALPHA NBETA NGAMMA SECONDS
 * Prints "ready" once every thread is named, exits after SECONDS.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile int spin_sink;

static void *sleeper(void *arg)
{
	struct timespec ts = { 0, (long)(size_t)arg * 1000000L };

	for (;;)
		nanosleep(&ts, NULL);
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	for (;;)
		spin_sink++;
	return NULL;
}

static void start(const char *pool, int n, void *(*fn)(void *), long ms)
{
	for (int i = 1; i <= n; i++) {
		pthread_t t;
		char name[16];

		if (pthread_create(&t, NULL, fn, (void *)(size_t)ms)) {
			perror("pthread_create");
			exit(1);
		}
		snprintf(name, sizeof(name), "%s-%d", pool, i);
		pthread_setname_np(t, name);
	}
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: cswload NALPHA NBETA NGAMMA SECONDS\n");
		return 2;
	}
	start("alpha", atoi(argv[1]), sleeper, 1);
	start("beta", atoi(argv[2]), spinner, 0);
	start("gamma", atoi(argv[3]), sleeper, 10);
	printf("ready\n");
	fflush(stdout);
	sleep(atoi(argv[4]));
	return 0;
}
