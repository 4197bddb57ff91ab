// SPDX-License-Identifier: GPL-2.0
/*
 * A known CPU split for profilers: main calls burn_a for 7 work units and burn_b for 3, so
 * about 70% of the CPU time is in burn_a and 30% in burn_b (the same loop body in both).
 * Built twice by tests/cmd/51-profile.sh: -O1 -fno-omit-frame-pointer -g (frame-pointer
 * call chains) and -O2 -fomit-frame-pointer -g (only DWARF CFI unwinds it).
 * usage: burn SECONDS   (runs at least that long; prints "burn N rounds" at the end, and
 *                        with BURN_SPLIT set in the environment, on stderr, burn_a's share
 *                        of the CPU time of the two)
 *        burn -n ROUNDS (a fixed amount of work: bench/profile.sh)
 *        burn -g N      (calls getppid() exactly N times: a known tracepoint count)
 *        burn -m MIB    (writes MIB MiB of fresh memory, then 100 rounds: page faults)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define UNIT 200000

static volatile unsigned long sink;

/* Called once per call of burn_a/burn_b so they are not leaf functions: GCC 12 keeps no
 * frame pointer in a leaf that needs no stack, even with -fno-omit-frame-pointer, and a
 * frame-pointer walk from such a leaf skips its caller (main). */
__attribute__((noinline)) void tick(void);
__attribute__((noinline)) void tick(void)
{
	__asm__ volatile("" ::: "memory");
}

/* the same body in both, so the split is 7:3 in time as in work */
#define BODY(n)                                                                \
	do {                                                                   \
		unsigned long x = sink;                                        \
		for (long i = 0; i < (n); i++) {                               \
			x = x * 6364136223846793005ul + 1442695040888963407ul; \
			__asm__ volatile("" : "+r"(x));                        \
		}                                                              \
		sink = x;                                                      \
		tick();                                                        \
	} while (0)

__attribute__((noinline)) void burn_a(long units);
__attribute__((noinline)) void burn_a(long units)
{
	BODY(units * UNIT);
}

__attribute__((noinline)) void burn_b(long units);
__attribute__((noinline)) void burn_b(long units)
{
	BODY(units * UNIT);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* this thread's CPU time, in seconds */
static double cputime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = 2, t0 = now();
	long rounds = -1, n = 0;

	if (argc > 2 && !strcmp(argv[1], "-g")) {
		long k = atol(argv[2]);
		for (long i = 0; i < k; i++)
			getppid(); /* glibc calls the syscall every time (no cache) */
		printf("getppid %ld\n", k);
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "-m")) {
		size_t len = (size_t)atol(argv[2]) << 20;
		char *m =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return 1;
		/* no transparent huge pages: one fault per 4 KiB page */
		madvise(m, len, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < len; i += 4096)
			m[i] = 1;
		munmap(m, len);
		rounds = 100;
	} else if (argc > 2 && !strcmp(argv[1], "-n"))
		rounds = atol(argv[2]);
	else if (argc > 1)
		secs = atof(argv[1]);
	/* the split as it ran: the thread's CPU time in each (code placement or the host can
	 * make the same body run at different speeds in the two) */
	double ca = 0, cb = 0, c0 = cputime(), c1, c2;
	while (rounds >= 0 ? n < rounds : now() - t0 < secs) {
		burn_a(7);
		c1 = cputime();
		burn_b(3);
		c2 = cputime();
		ca += c1 - c0;
		cb += c2 - c1;
		c0 = c2;
		n++;
	}
	if (getenv("BURN_SPLIT") && ca + cb > 0) /* asked for: stderr is perf stat's too */
		fprintf(stderr, "burn: burn_a %.1f%% of burn_a+burn_b CPU time\n",
			100 * ca / (ca + cb));
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	/* switches out of this task: what perf's context-switches counts for it */
	printf("burn %ld rounds %.6f s csw %ld\n", n, now() - t0, ru.ru_nvcsw + ru.ru_nivcsw);
	return 0;
}
