// SPDX-License-Identifier: GPL-2.0
/* /proc/stat, /proc/loadavg, /proc/uptime readers. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

static void stat_grow(struct ptk_stat *st, int slots)
{
	if (slots <= st->cap)
		return;
	int cap = st->cap ? st->cap : 8;
	while (cap < slots)
		cap *= 2;
	st->cpu = xrealloc(st->cpu, cap * sizeof(*st->cpu));
	st->present = xrealloc(st->present, cap * sizeof(*st->present));
	memset(st->cpu + st->cap, 0, (cap - st->cap) * sizeof(*st->cpu));
	memset(st->present + st->cap, 0, (cap - st->cap) * sizeof(*st->present));
	st->cap = cap;
}

/* Parse the tick columns of a cpu line. Kernels before 2.6.33 print fewer columns (the
 * rest stay 0); anything but digits is an error. Returns 0 or -EINVAL. */
static int parse_cpu_times(const char *p, struct ptk_cpu_times *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < PTK_CPU_NSTATES; i++) {
		const char *end;
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			return 0;
		t->t[i] = ptk_strtou64(p, &end);
		if (end == p)
			return -EINVAL;
		p = end;
	}
	return 0;
}

static int field_u64(const char *p, u64 *v)
{
	const char *end;

	*v = ptk_strtou64(p, &end);
	return end == p ? -EINVAL : 0;
}

int ptk_stat_parse(const char *text, struct ptk_stat *st)
{
	const char *p = text;
	bool have_all = false;

	st->ncpu = 0;
	if (st->present)
		memset(st->present, 0, st->cap * sizeof(*st->present));
	st->ctxt = st->intr = st->processes = st->procs_running = st->procs_blocked = 0;
	st->btime = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		if (!strncmp(p, "cpu", 3)) {
			if (p[3] == ' ') {
				if (parse_cpu_times(p + 4, &st->all))
					return -EINVAL;
				have_all = true;
			} else if (p[3] >= '0' && p[3] <= '9') {
				char *end;
				unsigned long n = strtoul(p + 3, &end, 10);
				/* CONFIG_NR_CPUS is at most 8192 (x86 MAXSMP) */
				if (*end != ' ' || n >= PTK_MAX_CPUS)
					return -EINVAL;
				stat_grow(st, n + 1);
				if (parse_cpu_times(end, &st->cpu[n]))
					return -EINVAL;
				st->present[n] = true;
				if ((int)n + 1 > st->ncpu)
					st->ncpu = n + 1;
			}
		} else if (!strncmp(p, "ctxt ", 5)) {
			if (field_u64(p + 5, &st->ctxt))
				return -EINVAL;
		} else if (!strncmp(p, "intr ", 5)) {
			if (field_u64(p + 5, &st->intr))
				return -EINVAL;
		} else if (!strncmp(p, "processes ", 10)) {
			if (field_u64(p + 10, &st->processes))
				return -EINVAL;
		} else if (!strncmp(p, "procs_running ", 14)) {
			if (field_u64(p + 14, &st->procs_running))
				return -EINVAL;
		} else if (!strncmp(p, "procs_blocked ", 14)) {
			if (field_u64(p + 14, &st->procs_blocked))
				return -EINVAL;
		} else if (!strncmp(p, "btime ", 6)) {
			if (field_u64(p + 6, &st->btime))
				return -EINVAL;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return have_all ? 0 : -EINVAL;
}

int ptk_stat_read(const struct ptk_src *src, struct ptk_stat *st)
{
	static __thread struct ptk_buf b;
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, "stat", &b);

	if (n < 0)
		return n;
	return ptk_stat_parse(b.p, st);
}

void ptk_stat_free(struct ptk_stat *st)
{
	free(st->cpu);
	free(st->present);
	memset(st, 0, sizeof(*st));
}

void ptk_stat_copy(struct ptk_stat *dst, const struct ptk_stat *src)
{
	struct ptk_cpu_times *cpu;
	bool *present;
	int cap;

	stat_grow(dst, src->ncpu);
	cpu = dst->cpu;
	present = dst->present;
	cap = dst->cap;
	*dst = *src;
	dst->cpu = cpu;
	dst->present = present;
	dst->cap = cap;
	if (cap)
		memset(dst->present, 0, cap * sizeof(*present));
	if (src->ncpu) {
		memcpy(dst->cpu, src->cpu, src->ncpu * sizeof(*cpu));
		memcpy(dst->present, src->present, src->ncpu * sizeof(*present));
	}
}

u64 ptk_cpu_total(const struct ptk_cpu_times *t)
{
	u64 s = 0;

	for (int i = 0; i < PTK_CPU_GUEST; i++)
		s += t->t[i];
	return s;
}

/* A load or a time the kernel prints: finite and not negative. */
static bool plausible(double x)
{
	return isfinite(x) && x >= 0;
}

int ptk_loadavg_parse(const char *text, struct ptk_loadavg *la)
{
	memset(la, 0, sizeof(*la));
	if (sscanf(text, "%lf %lf %lf %u/%u %d", &la->load1, &la->load5, &la->load15,
		   &la->nr_running, &la->nr_threads, &la->last_pid) < 5)
		return -EINVAL;
	if (!plausible(la->load1) || !plausible(la->load5) || !plausible(la->load15) ||
	    la->last_pid < 0)
		return -EINVAL;
	return 0;
}

int ptk_loadavg_read(const struct ptk_src *src, struct ptk_loadavg *la)
{
	char buf[256];
	ssize_t n = ptk_src_read(src, PTK_PROC, "loadavg", buf, sizeof(buf));

	if (n < 0)
		return n;
	return ptk_loadavg_parse(buf, la);
}

int ptk_uptime_parse(const char *text, struct ptk_uptime *up)
{
	if (sscanf(text, "%lf %lf", &up->up_s, &up->idle_s) != 2)
		return -EINVAL;
	if (!plausible(up->up_s) || !plausible(up->idle_s))
		return -EINVAL;
	return 0;
}

int ptk_uptime_read(const struct ptk_src *src, struct ptk_uptime *up)
{
	char buf[128];
	ssize_t n = ptk_src_read(src, PTK_PROC, "uptime", buf, sizeof(buf));

	if (n < 0)
		return n;
	return ptk_uptime_parse(buf, up);
}
