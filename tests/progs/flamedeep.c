// SPDX-License-Identifier: GPL-2.0
/*
 * Deep and varied stacks for flame graph tests and bench/flamegraph.sh: each round calls
 * f0 with a pseudo-random depth of 5..44, every level picks one of f0..f7 at random, the
 * leaf (work) spins 200..2200 iterations and calls getppid() one time in 64 (kernel frames).
 * usage: flamedeep [SECONDS]   (default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static unsigned rnd = 12345;

static unsigned next(void)
{
	rnd = rnd * 1103515245 + 12345;
	return rnd >> 8;
}

typedef void (*fn)(int);
static void f0(int), f1(int), f2(int), f3(int), f4(int), f5(int), f6(int), f7(int);
static fn tab[8] = { f0, f1, f2, f3, f4, f5, f6, f7 };

__attribute__((noinline)) static void work(int d)
{
	unsigned n = 200 + (next() % 2000);

	for (unsigned i = 0; i < n; i++)
		sink += i * d;
	if ((next() & 63) == 0)
		getppid();
}

__attribute__((noinline)) static void f0(int d)
{
	if (d <= 0)
		work(0);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f1(int d)
{
	if (d <= 0)
		work(1);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f2(int d)
{
	if (d <= 0)
		work(2);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f3(int d)
{
	if (d <= 0)
		work(3);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f4(int d)
{
	if (d <= 0)
		work(4);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f5(int d)
{
	if (d <= 0)
		work(5);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f6(int d)
{
	if (d <= 0)
		work(6);
	else
		tab[next() % 8](d - 1);
	sink++;
}

__attribute__((noinline)) static void f7(int d)
{
	if (d <= 0)
		work(7);
	else
		tab[next() % 8](d - 1);
	sink++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1, t0 = now();

	for (long it = 0;; it++) {
		f0(5 + next() % 40);
		if ((it & 255) == 0 && now() - t0 >= secs)
			break;
	}
	printf("%lu\n", sink);
	return 0;
}
