// SPDX-License-Identifier: GPL-2.0
/*
 * A tight loop of 1-byte writes to /dev/null: writeloop N [FILE] does N write(fd, "x", 1)
 * and writes the loop's CLOCK_MONOTONIC duration in ns to FILE (default stderr), so that a
 * tracer's cost to the program is measured from inside it, not from the tracer's start-up.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct timespec a, b;
	FILE *out = stderr;
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return 1;
	if (argc > 2 && !(out = fopen(argv[2], "w")))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		if (write(fd, "x", 1) != 1)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(out, "%lld\n",
		(long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
	fclose(out);
	return 0;
}
