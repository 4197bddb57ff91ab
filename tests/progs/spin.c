// SPDX-License-Identifier: GPL-2.0
/* N busy threads (argv[1], default 4) for argv[2] seconds (default 10): CPU-bound load. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static volatile int stop;

static void *spin(void *arg)
{
	volatile unsigned long x = 0;

	while (!stop)
		x++;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int secs = argc > 2 ? atoi(argv[2]) : 10;
	pthread_t t[64];

	if (n < 1 || n > 64)
		return 2;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	struct timespec ts = { .tv_sec = secs };
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
