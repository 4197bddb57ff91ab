// SPDX-License-Identifier: GPL-2.0
/*
 * main -> g -> f -> nanosleep(1 us) in a loop for SECONDS (default 2): the stack of the
 * issue where a libc leaf without a frame pointer hides its caller (main;g;clock_nanosleep
 * with frame pointers). Built with and without -fomit-frame-pointer by the tests; f and g
 * are never inlined nor tail-called.
 * usage: nanoloop [SECONDS]
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void f(void);
__attribute__((noinline)) void g(void);

__attribute__((noinline)) void f(void)
{
	struct timespec ts = { 0, 1000 };

	for (int i = 0; i < 100; i++)
		nanosleep(&ts, NULL);
	sink++; /* work after the call: no tail call */
}

__attribute__((noinline)) void g(void)
{
	f();
	sink++;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		g();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return (int)(sink & 0);
}
