// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny JIT with a perf map: copies two busy loops (x86-64 machine code) into an
 * executable mapping, names them in /tmp/perf-PID.map the way V8, the JVM's agents and
 * LuaJIT do ("START SIZE name", hex), and calls them for SECONDS (default 1). perf script
 * then names the JIT frames from the map, with the DSO "/tmp/perf-PID.map".
 * usage: perfmapjit [SECONDS]    (the map stays for perf script: the caller removes it)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* mov ecx, 20000; 1: dec ecx; jnz 1b; ret */
static const unsigned char loop[] = { 0xb9, 0x20, 0x4e, 0x00, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

typedef void (*jitfn)(void);

__attribute__((noinline)) static void run(jitfn f, int n)
{
	for (int i = 0; i < n; i++)
		f();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void interpreter(jitfn a, jitfn b)
{
	run(a, 3);
	run(b, 1);
	__asm__ volatile("" ::: "memory");
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
	unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *m;

	if (code == MAP_FAILED)
		return perror("mmap"), 1;
	memcpy(code, loop, sizeof(loop));
	memcpy(code + 64, loop, sizeof(loop));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	m = fopen(path, "w");
	if (!m)
		return perror(path), 1;
	/* names as JITs write them: a JS function with its source, a Java method signature */
	fprintf(m, "%lx %zx LazyCompile:*spin /app/x.js:1\n", (unsigned long)code, sizeof(loop));
	fprintf(m, "%lx %zx Lcom/example/Jit;::spin(I)V\n", (unsigned long)(code + 64),
		sizeof(loop));
	fclose(m);
	while (now() - t0 < secs)
		interpreter((jitfn)code, (jitfn)(code + 64));
	printf("%s\n", path);
	return 0;
}
