// SPDX-License-Identifier: GPL-2.0
/*
 * cpumix: three threads whose mix of user and system time changes every 50 ms (busy in user
 * space, in read(2) of /dev/zero, asleep, in turn): the group's tick-sampled utime/stime
 * split keeps moving while its runtime grows, which cputime_adjust must not show going
 * backwards. Runs until killed.
 */
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

static long elapsed_ns(const struct timespec *a)
{
	struct timespec c;

	clock_gettime(CLOCK_MONOTONIC, &c);
	return (c.tv_sec - a->tv_sec) * 1000000000L + c.tv_nsec - a->tv_nsec;
}

static void *run(void *arg)
{
	long k = (long)arg;
	int fd = open("/dev/zero", O_RDONLY);
	volatile unsigned long x = 0;
	char b[8];

	for (unsigned n = 0;; n++) {
		struct timespec a;

		clock_gettime(CLOCK_MONOTONIC, &a);
		do {
			if ((n + k) % 3 == 0)
				for (int i = 0; i < 5000; i++)
					x += i;
			else if ((n + k) % 3 == 1)
				for (int i = 0; i < 50; i++)
					(void)!read(fd, b, 1);
			else
				usleep(2000);
		} while (elapsed_ns(&a) < 50000000L);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	pause();
	return 0;
}
