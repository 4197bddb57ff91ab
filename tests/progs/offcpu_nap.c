// SPDX-License-Identifier: GPL-2.0
/*
 * Load for the offcputime tests: a loop main -> work -> nap -> sleep_once -> nanosleep(50 ms),
 * built with -fno-omit-frame-pointer -g so the kernel's frame-pointer walk of the user stack
 * finds every frame of ours. sleep_once calls libc, which has no frame pointer: the walk
 * skips the frame of the function that called libc (sleep_once), so nap is the innermost of
 * our frames that the stack shows (main;work;nap;clock_nanosleep).
 * usage: offcpu_nap [MS]   (default 50)
 * Prints "ready" once, then runs until SIGINT/SIGTERM and prints
 * "naps N slept_us S elapsed_us E" (S: the time spent inside nanosleep, measured on
 * CLOCK_MONOTONIC; E: the run time since "ready").
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile sig_atomic_t stop;
static long nap_ms = 50;
static unsigned long naps;
static unsigned long long slept_ns;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void on_signal(int sig)
{
	stop = 1;
}

__attribute__((noinline)) static void sleep_once(void)
{
	struct timespec ts = { nap_ms / 1000, (nap_ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void nap(void)
{
	unsigned long long t0 = now_ns();

	sleep_once();
	slept_ns += now_ns() - t0;
	naps++;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void work(void)
{
	nap();
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long long t0;

	if (argc > 1)
		nap_ms = atol(argv[1]);
	if (nap_ms <= 0)
		return 2;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	t0 = now_ns();
	while (!stop)
		work();
	printf("naps %lu slept_us %llu elapsed_us %llu\n", naps, slept_ns / 1000,
	       (now_ns() - t0) / 1000);
	return 0;
}
