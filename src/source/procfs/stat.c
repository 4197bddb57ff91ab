// SPDX-License-Identifier: GPL-2.0
/* /proc/stat, /proc/loadavg, /proc/uptime readers. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

/* node_exporter's node_cpu_seconds_total{cpu,mode}: the first 8 columns; guest and guest_nice
 * are its node_cpu_guest_seconds_total, modes user and nice */
#define CPU_HELP                                                                                   \
	"Seconds the CPUs spent in each mode (/proc/stat cpuN, USER_HZ ticks / USER_HZ; user and " \
	"nice include guest time)."
#define GUEST_HELP \
	"Seconds the CPUs spent in guests (VMs) for each mode (/proc/stat cpuN guest, guest_nice)."
#define CPU(e, k, p, l, h)                                                       \
	[PTK_CPU_##e] = { .key = k,                                              \
			  .name = k,                                             \
			  .off = offsetof(struct ptk_cpu_times, t[PTK_CPU_##e]), \
			  .unit = "ticks",                                       \
			  .prom = p,                                             \
			  .label = l,                                            \
			  .help = h }
const struct ptk_field_desc ptk_cpu_fields[PTK_CPU_NSTATES] = {
	CPU(USER, "user", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(NICE, "nice", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(SYSTEM, "system", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(IDLE, "idle", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(IOWAIT, "iowait", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(IRQ, "irq", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(SOFTIRQ, "softirq", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(STEAL, "steal", "node_cpu_seconds_total", NULL, CPU_HELP),
	CPU(GUEST, "guest", "node_cpu_guest_seconds_total", "user", GUEST_HELP),
	CPU(GUEST_NICE, "guest_nice", "node_cpu_guest_seconds_total", "nice", GUEST_HELP),
};
#undef CPU

#define ST(e, k, f, u, g, p, h)                               \
	[PTK_ST_##e] = { .key = k,                            \
			 .name = k,                           \
			 .off = offsetof(struct ptk_stat, f), \
			 .unit = u,                           \
			 .gauge = g,                          \
			 .prom = p,                           \
			 .help = h }
const struct ptk_field_desc ptk_stat_fields[PTK_ST_NFIELDS] = {
	ST(BTIME, "btime", btime, "s", true, "node_boot_time_seconds",
	   "Node boot time, in unixtime (/proc/stat btime)."),
	ST(CTXT, "ctxt", ctxt, "", false, "node_context_switches_total",
	   "Total number of context switches (/proc/stat ctxt)."),
	ST(INTR, "intr", intr, "", false, "node_intr_total",
	   "Total number of interrupts serviced (/proc/stat intr)."),
	ST(PROCESSES, "processes", processes, "", false, "node_forks_total",
	   "Total number of forks (/proc/stat processes)."),
	ST(PROCS_RUNNING, "procs_running", procs_running, "", true, "node_procs_running",
	   "Number of processes in runnable state (/proc/stat procs_running)."),
	ST(PROCS_BLOCKED, "procs_blocked", procs_blocked, "", true, "node_procs_blocked",
	   "Number of processes blocked waiting for I/O to complete (/proc/stat procs_blocked)."),
};
#undef ST

#define LA(e, k, f, t, p, h)                                     \
	[PTK_LA_##e] = { .key = k,                               \
			 .name = k,                              \
			 .off = offsetof(struct ptk_loadavg, f), \
			 .unit = "",                             \
			 .type = t,                              \
			 .gauge = true,                          \
			 .prom = p,                              \
			 .help = h }
const struct ptk_field_desc ptk_loadavg_fields[PTK_LA_NFIELDS] = {
	LA(LOAD1, "load1", load1, PTK_FT_F64, "node_load1",
	   "1m load average (/proc/loadavg field 1)."),
	LA(LOAD5, "load5", load5, PTK_FT_F64, "node_load5",
	   "5m load average (/proc/loadavg field 2)."),
	LA(LOAD15, "load15", load15, PTK_FT_F64, "node_load15",
	   "15m load average (/proc/loadavg field 3)."),
	LA(NR_RUNNING, "nr_running", nr_running, PTK_FT_U32, NULL,
	   "Runnable scheduling entities (/proc/loadavg field 4, before the slash)."),
	LA(NR_THREADS, "nr_threads", nr_threads, PTK_FT_U32, NULL,
	   "Scheduling entities (/proc/loadavg field 4, after the slash)."),
	LA(LAST_PID, "last_pid", last_pid, PTK_FT_I32, NULL,
	   "Last pid allocated (/proc/loadavg field 5)."),
};
#undef LA

/* names: the archive's columns, centiseconds (2 decimals, as the kernel prints them) */
const struct ptk_field_desc ptk_uptime_fields[PTK_UP_NFIELDS] = {
	[PTK_UP_UPTIME] = { .key = "uptime",
			    .name = "uptime_cs",
			    .off = offsetof(struct ptk_uptime, up_s),
			    .unit = "s",
			    .type = PTK_FT_F64,
			    .gauge = true,
			    .help = "Seconds since boot (/proc/uptime field 1, CLOCK_BOOTTIME)." },
	[PTK_UP_IDLE] = { .key = "idle",
			  .name = "idle_cs",
			  .off = offsetof(struct ptk_uptime, idle_s),
			  .unit = "s",
			  .type = PTK_FT_F64,
			  .help = "Seconds idle, summed over the CPUs (/proc/uptime field 2)." },
};

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
	/* a CPU the file does not list has no times (not those of an earlier read) */
	if (st->cap) {
		memset(st->present, 0, st->cap * sizeof(*st->present));
		memset(st->cpu, 0, st->cap * sizeof(*st->cpu));
	}
	for (int i = 0; i < PTK_ST_NFIELDS; i++)
		*(u64 *)((char *)st + ptk_stat_fields[i].off) = 0;
	st->has = 0;
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
		} else {
			/* "key value...": one of the table's lines, the first number */
			const char *sp = strchr(p, ' ');
			int i = sp && (!eol || sp < eol) ?
					ptk_field_find(ptk_stat_fields, PTK_ST_NFIELDS, p, sp - p) :
					-1;
			if (i >= 0) {
				if (field_u64(sp + 1, (u64 *)((char *)st + ptk_stat_fields[i].off)))
					return -EINVAL;
				st->has |= 1ull << i;
			}
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
	ssize_t n = ptk_src_read_text_buf(src, PTK_PROC, "stat", &b);

	return n < 0 ? n : ptk_stat_parse(b.p, st);
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

void ptk_stat_reserve(struct ptk_stat *st, int slots)
{
	stat_grow(st, slots);
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
	ssize_t n = ptk_src_read_text(src, PTK_PROC, "loadavg", buf, sizeof(buf));

	return n < 0 ? n : ptk_loadavg_parse(buf, la);
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
	ssize_t n = ptk_src_read_text(src, PTK_PROC, "uptime", buf, sizeof(buf));

	return n < 0 ? n : ptk_uptime_parse(buf, up);
}
