// SPDX-License-Identifier: GPL-2.0
/* /proc/pressure/{cpu,memory,io}, /sys/devices/system/cpu/online, /sys/block/DEV/queue/rotational. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

const char *const ptk_psi_res_name[PTK_PSI_NRES] = {
	[PTK_PSI_CPU] = "cpu",
	[PTK_PSI_MEMORY] = "memory",
	[PTK_PSI_IO] = "io",
};

static bool share_ok(double x)
{
	return x >= 0 && x <= 100; /* false for NaN too */
}

/* The total= of the line at p is written with a sign (%llu would wrap it). */
static bool total_negative(const char *p)
{
	const char *eol = strchr(p, '\n'), *t = strstr(p, "total=");
	return t && (!eol || t < eol) && (t[6] == '-' || t[6] == '+');
}

/* avg*: % of wall time (gauges, x 100 in the archive); total: us stalled since boot, which
 * node_exporter serves as node_pressure_<res>_{waiting,stalled}_seconds_total */
#define PSI_F(r, L, l, F, k, f, u, t, g, p, h)                        \
	[PTK_PSI_##L##_##F] = { .key = k,                             \
				.name = "psi_" r "_" #l "_" k,        \
				.off = offsetof(struct ptk_psi, l.f), \
				.unit = u,                            \
				.type = t,                            \
				.gauge = g,                           \
				.prom = p,                            \
				.help = h }
#define PSI_LINE(r, L, l, p, h)                                                              \
	PSI_F(r, L, l, AVG10, "avg10", avg10, "%", PTK_FT_F64, true, NULL, NULL),            \
		PSI_F(r, L, l, AVG60, "avg60", avg60, "%", PTK_FT_F64, true, NULL, NULL),    \
		PSI_F(r, L, l, AVG300, "avg300", avg300, "%", PTK_FT_F64, true, NULL, NULL), \
		PSI_F(r, L, l, TOTAL, "total", total_us, "us", PTK_FT_U64, false, p, h)
const struct ptk_field_desc ptk_psi_fields[PTK_PSI_NRES][PTK_PSI_NFIELDS] = {
	[PTK_PSI_CPU] = {
		PSI_LINE("cpu", SOME, some, "node_pressure_cpu_waiting_seconds_total",
			 "Total time in seconds that processes have waited for CPU time (/proc/"
			 "pressure/cpu some total=)."),
		PSI_LINE("cpu", FULL, full, "node_pressure_cpu_stalled_seconds_total",
			 "Total time in seconds no process could make progress due to CPU "
			 "congestion (/proc/pressure/cpu full total=, kernel >= 5.13)."),
	},
	[PTK_PSI_MEMORY] = {
		PSI_LINE("memory", SOME, some, "node_pressure_memory_waiting_seconds_total",
			 "Total time in seconds that processes have waited for memory (/proc/"
			 "pressure/memory some total=)."),
		PSI_LINE("memory", FULL, full, "node_pressure_memory_stalled_seconds_total",
			 "Total time in seconds no process could make progress due to memory "
			 "congestion (/proc/pressure/memory full total=)."),
	},
	[PTK_PSI_IO] = {
		PSI_LINE("io", SOME, some, "node_pressure_io_waiting_seconds_total",
			 "Total time in seconds that processes have waited due to IO congestion "
			 "(/proc/pressure/io some total=)."),
		PSI_LINE("io", FULL, full, "node_pressure_io_stalled_seconds_total",
			 "Total time in seconds no process could make progress due to IO "
			 "congestion (/proc/pressure/io full total=)."),
	},
};
#undef PSI_LINE
#undef PSI_F

/* "KEY=I.F" at *p (the kernel's LOAD_INT.LOAD_FRAC, kernel/sched/psi.c psi_show) into *x,
 * *p after it: the value sscanf's %lf gives (I x 10^k + F and 10^k are exact, so their
 * quotient is the correctly rounded decimal). false: another form, for sscanf to judge. */
static bool psi_fixed(const char **p, const char *key, size_t kl, double *x)
{
	const char *q = *p;
	u64 v = 0, scale = 1;
	int ni = 0, nf = 0;

	if (strncmp(q, key, kl))
		return false;
	for (q += kl; *q >= '0' && *q <= '9' && ni < 9; q++, ni++)
		v = v * 10 + (u64)(*q - '0');
	if (!ni || *q++ != '.')
		return false;
	for (; *q >= '0' && *q <= '9' && nf < 6; q++, nf++) {
		v = v * 10 + (u64)(*q - '0');
		scale *= 10;
	}
	if (!nf || *q != ' ')
		return false;
	*x = (double)v / (double)scale;
	*p = q + 1;
	return true;
}

/* One PSI line after "some " / "full ": the kernel's exact form by hand (a cgroup snapshot
 * parses three files per cgroup), anything else by sscanf. 4 when every field was read. */
static int psi_line(const char *p, struct ptk_psi_line *l, unsigned long long *total)
{
	const char *q = p;

	if (psi_fixed(&q, "avg10=", 6, &l->avg10) && psi_fixed(&q, "avg60=", 6, &l->avg60) &&
	    psi_fixed(&q, "avg300=", 7, &l->avg300) && !strncmp(q, "total=", 6)) {
		const char *d = q + 6, *end;
		u64 t = ptk_strtou64(d, &end);
		if (end > d && end - d < 20 && (*end == '\n' || !*end)) {
			*total = t;
			return 4;
		}
	}
	return sscanf(p, "avg10=%lf avg60=%lf avg300=%lf total=%llu", &l->avg10, &l->avg60,
		      &l->avg300, total);
}

int ptk_psi_parse(const char *text, struct ptk_psi *psi)
{
	const char *p = text;

	memset(psi, 0, sizeof(*psi));
	while (*p) {
		struct ptk_psi_line *l = NULL;
		unsigned long long total;
		const char *eol = strchr(p, '\n');

		if (!strncmp(p, "some ", 5))
			l = &psi->some;
		else if (!strncmp(p, "full ", 5))
			l = &psi->full;
		/* a share of wall time is 0..100; a line with another value (or a negative
		 * total) is not the kernel's: that line stays unknown */
		if (l && psi_line(p + 5, l, &total) == 4 && share_ok(l->avg10) &&
		    share_ok(l->avg60) && share_ok(l->avg300) && !total_negative(p)) {
			l->total_us = total;
			l->present = true;
		} else if (l) {
			memset(l, 0, sizeof(*l));
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return psi->some.present ? 0 : -EINVAL;
}

int ptk_psi_read(const struct ptk_src *src, enum ptk_psi_res res, struct ptk_psi *psi)
{
	char rel[64], buf[512];
	ssize_t n;

	snprintf(rel, sizeof(rel), "pressure/%s", ptk_psi_res_name[res]);
	n = ptk_src_read_text(src, PTK_PROC, rel, buf, sizeof(buf));
	return n < 0 ? n : ptk_psi_parse(buf, psi);
}

int ptk_cpu_online_read(const struct ptk_src *src, bool *mask, int nbits)
{
	char buf[4096];
	ssize_t n = ptk_src_read(src, PTK_SYS, "devices/system/cpu/online", buf, sizeof(buf));

	if (n < 0)
		return n;
	memset(mask, 0, nbits * sizeof(*mask));
	return ptk_parse_cpulist(buf, mask, nbits);
}

int ptk_disk_rotational_read(const struct ptk_src *src, const char *dev)
{
	char rel[128], buf[16];
	ssize_t n;

	snprintf(rel, sizeof(rel), "block/%s/queue/rotational", dev);
	n = ptk_src_read(src, PTK_SYS, rel, buf, sizeof(buf));
	if (n < 0)
		return n;
	if ((buf[0] != '0' && buf[0] != '1') || (buf[1] && buf[1] != '\n'))
		return -EINVAL;
	return buf[0] == '1';
}
