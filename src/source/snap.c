// SPDX-License-Identifier: GPL-2.0
/* The system snapshot: one reader for every system-wide file, and its /proc tree writer. */
#include "source/snap.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const ptk_snap_part_name[PTK_SNAP_NPARTS] = {
	[PTK_SNAP_STAT] = "stat",
	[PTK_SNAP_LOADAVG] = "loadavg",
	[PTK_SNAP_MEMINFO] = "meminfo",
	[PTK_SNAP_VMSTAT] = "vmstat",
	[PTK_SNAP_DISKSTATS] = "diskstats",
	[PTK_SNAP_NETDEV] = "net/dev",
	[PTK_SNAP_SNMP] = "net/snmp",
	[PTK_SNAP_PSI_CPU] = "pressure/cpu",
	[PTK_SNAP_PSI_MEMORY] = "pressure/memory",
	[PTK_SNAP_PSI_IO] = "pressure/io",
	[PTK_SNAP_ONLINE] = "cpu/online",
	[PTK_SNAP_INTERRUPTS] = "interrupts",
	[PTK_SNAP_SOFTIRQS] = "softirqs",
	[PTK_SNAP_SOFTNET] = "net/softnet_stat",
	[PTK_SNAP_KX + PTK_KX_SNMP6] = "net/snmp6",
	[PTK_SNAP_KX + PTK_KX_SOCKSTAT] = "net/sockstat",
	[PTK_SNAP_KX + PTK_KX_SOCKSTAT6] = "net/sockstat6",
	[PTK_SNAP_KX + PTK_KX_KTABLES] = "sys/fs",
	[PTK_SNAP_KX + PTK_KX_SERIAL] = "tty/driver/serial",
	[PTK_SNAP_KX + PTK_KX_NFS] = "net/rpc/nfs",
	[PTK_SNAP_KX + PTK_KX_NFSD] = "net/rpc/nfsd",
	[PTK_SNAP_KX + PTK_KX_FCHOST] = "fc_host",
	[PTK_SNAP_KX + PTK_KX_CPUINFO] = "cpuinfo",
	[PTK_SNAP_KX + PTK_KX_CPUFREQ] = "cpufreq",
	[PTK_SNAP_KX + PTK_KX_USB] = "usb",
	[PTK_SNAP_KX + PTK_KX_FSYS] = "filesystems",
};
_Static_assert(ARRAY_SIZE(ptk_snap_part_name) == PTK_SNAP_NPARTS, "one name per part");

const struct ptk_snap_file ptk_snap_files[] = {
	/* uptime first: it dates the files read after it (replay interval lengths) */
	{ PTK_SNAP_STAT, PTK_PROC, "uptime", PTK_SNAP_F_REQUIRED, "ptk_uptime_read" },
	{ PTK_SNAP_STAT, PTK_PROC, "stat", PTK_SNAP_F_REQUIRED, "ptk_stat_read" },
	{ PTK_SNAP_LOADAVG, PTK_PROC, "loadavg", 0, "ptk_loadavg_read" },
	{ PTK_SNAP_MEMINFO, PTK_PROC, "meminfo", 0, "ptk_meminfo_read" },
	{ PTK_SNAP_VMSTAT, PTK_PROC, "vmstat", 0, "ptk_vmstat_read" },
	{ PTK_SNAP_DISKSTATS, PTK_PROC, "diskstats", 0, "ptk_diskstats_read" },
	{ PTK_SNAP_NETDEV, PTK_PROC, "net/dev", 0, "ptk_netdev_read" },
	{ PTK_SNAP_SNMP, PTK_PROC, "net/snmp", 0, "ptk_netsnmp_read" },
	{ PTK_SNAP_SNMP, PTK_PROC, "net/netstat", 0, "ptk_netsnmp_read" },
	{ PTK_SNAP_PSI_CPU, PTK_PROC, "pressure/cpu", 0, "ptk_psi_read (kernel >= 4.20)" },
	{ PTK_SNAP_PSI_MEMORY, PTK_PROC, "pressure/memory", 0, "ptk_psi_read" },
	{ PTK_SNAP_PSI_IO, PTK_PROC, "pressure/io", 0, "ptk_psi_read" },
	{ PTK_SNAP_ONLINE, PTK_SYS, "devices/system/cpu/online", 0, "ptk_cpu_online_read" },
	{ PTK_SNAP_INTERRUPTS, PTK_PROC, "interrupts", 0, "ptk_irqs_read" },
	{ PTK_SNAP_SOFTIRQS, PTK_PROC, "softirqs", 0, "ptk_irqs_read" },
	{ PTK_SNAP_SOFTNET, PTK_PROC, "net/softnet_stat", 0, "ptk_softnet_read" },
#define KX(g, fs, rel)                                              \
	{                                                           \
		PTK_SNAP_KX + PTK_KX_##g, fs, rel, 0, "ptk_kx_read" \
	}
	KX(SNMP6, PTK_PROC, "net/snmp6"),
	KX(SOCKSTAT, PTK_PROC, "net/sockstat"),
	KX(SOCKSTAT6, PTK_PROC, "net/sockstat6"),
	KX(KTABLES, PTK_PROC, "sys/fs/dentry-state"),
	KX(KTABLES, PTK_PROC, "sys/fs/file-nr"),
	KX(KTABLES, PTK_PROC, "sys/fs/inode-state"),
	KX(KTABLES, PTK_PROC, "sys/kernel/pty/nr"),
	KX(SERIAL, PTK_PROC, "tty/driver/serial"),
	KX(NFS, PTK_PROC, "net/rpc/nfs"),
	KX(NFSD, PTK_PROC, "net/rpc/nfsd"),
	KX(FCHOST, PTK_SYS, "class/fc_host/*/statistics/rx_frames"),
	KX(FCHOST, PTK_SYS, "class/fc_host/*/statistics/tx_frames"),
	KX(FCHOST, PTK_SYS, "class/fc_host/*/statistics/rx_words"),
	KX(FCHOST, PTK_SYS, "class/fc_host/*/statistics/tx_words"),
	KX(CPUINFO, PTK_PROC, "cpuinfo"),
	KX(CPUFREQ, PTK_SYS, "devices/system/cpu/*/cpufreq/stats/time_in_state"),
	KX(USB, PTK_SYS, "bus/usb/devices/*/idVendor"),
	KX(USB, PTK_SYS, "bus/usb/devices/*/idProduct"),
	KX(USB, PTK_SYS, "bus/usb/devices/*/bMaxPower"),
	KX(USB, PTK_SYS, "bus/usb/devices/*/manufacturer"),
	KX(USB, PTK_SYS, "bus/usb/devices/*/product"),
	KX(FSYS, PTK_PROC, "self/mounts"),
#undef KX
	{ PTK_SNAP_NETDEV, PTK_SYS, "class/net/*/speed", 0,
	  "ptk_net_speed_read (EINVAL when unknown)" },
	{ PTK_SNAP_DISKSTATS, PTK_SYS, "block/*/queue/rotational", 0, "ptk_disk_rotational_read" },
	{ PTK_SNAP_DISKSTATS, PTK_SYS, "class/block/*/partition", PTK_SNAP_F_MARKER,
	  "ptk_diskstats_read (existence)" },
	/* iostat reads each device's own counters, as sysstat's does without -p ALL */
	{ PTK_SNAP_DISKSTATS, PTK_SYS, "block/*/stat", 0, "ptk_sysblock_stat (iostat)" },
	{ PTK_SNAP_DISKSTATS, PTK_SYS, "block/*/*/stat", 0, "ptk_sysblock_stat (iostat -p DEV)" },
};
_Static_assert(ARRAY_SIZE(ptk_snap_files) == PTK_SNAP_NFILES, "PTK_SNAP_NFILES counts them");

#define G_(p, m, t, n)                                                           \
	{                                                                        \
		PTK_SNAP_##p, offsetof(struct ptk_snap, m), t, PTK_##n##_NFIELDS \
	}
const struct ptk_snap_group ptk_snap_groups[PTK_SNAP_NGROUPS] = {
	[PTK_SNAP_G_UPTIME] = G_(STAT, up, ptk_uptime_fields, UP),
	[PTK_SNAP_G_STAT] = G_(STAT, st, ptk_stat_fields, ST),
	[PTK_SNAP_G_LOADAVG] = G_(LOADAVG, la, ptk_loadavg_fields, LA),
	[PTK_SNAP_G_MEMINFO] = G_(MEMINFO, mi, ptk_meminfo_fields, MI),
	[PTK_SNAP_G_VMSTAT] = G_(VMSTAT, vm, ptk_vmstat_fields, VM),
	[PTK_SNAP_G_PSI + PTK_PSI_CPU] =
		G_(PSI_CPU, psi[PTK_PSI_CPU], ptk_psi_fields[PTK_PSI_CPU], PSI),
	[PTK_SNAP_G_PSI + PTK_PSI_MEMORY] =
		G_(PSI_MEMORY, psi[PTK_PSI_MEMORY], ptk_psi_fields[PTK_PSI_MEMORY], PSI),
	[PTK_SNAP_G_PSI + PTK_PSI_IO] =
		G_(PSI_IO, psi[PTK_PSI_IO], ptk_psi_fields[PTK_PSI_IO], PSI),
};
#undef G_

bool ptk_snap_field_has(const struct ptk_snap *s, enum ptk_snap_group_id g, int f)
{
	switch (g) {
	case PTK_SNAP_G_UPTIME:
		return true;
	case PTK_SNAP_G_STAT:
		return ptk_stat_has(&s->st, f);
	case PTK_SNAP_G_LOADAVG:
		return s->has_la;
	case PTK_SNAP_G_MEMINFO:
		return s->has_mi && ptk_meminfo_has(&s->mi, f);
	case PTK_SNAP_G_VMSTAT:
		return s->has_vm && ptk_vmstat_has(&s->vm, f);
	default:
		return s->has_psi[g - PTK_SNAP_G_PSI] &&
		       ptk_psi_has(&s->psi[g - PTK_SNAP_G_PSI], f);
	}
}

void ptk_snap_field_mark(struct ptk_snap *s, enum ptk_snap_group_id g, int f)
{
	s->read |= PTK_SNAP_BIT(ptk_snap_groups[g].part);
	switch (g) {
	case PTK_SNAP_G_UPTIME:
		break;
	case PTK_SNAP_G_STAT:
		s->st.has |= 1ull << f;
		break;
	case PTK_SNAP_G_LOADAVG:
		s->has_la = true;
		break;
	case PTK_SNAP_G_MEMINFO:
		s->has_mi = true;
		s->mi.present |= 1ull << f;
		s->mi.has_available = ptk_meminfo_has(&s->mi, PTK_MI_MEM_AVAILABLE);
		break;
	case PTK_SNAP_G_VMSTAT:
		s->has_vm = true;
		s->vm.present |= 1ull << f;
		s->vm.has_oom_kill = ptk_vmstat_has(&s->vm, PTK_VM_OOM_KILL);
		break;
	default: {
		struct ptk_psi *psi = &s->psi[g - PTK_SNAP_G_PSI];
		s->has_psi[g - PTK_SNAP_G_PSI] = true;
		(f < PTK_PSI_FULL_AVG10 ? &psi->some : &psi->full)->present = true;
	}
	}
}

void ptk_snap_field_unmark(struct ptk_snap *s, enum ptk_snap_group_id g, int f)
{
	/* uptime has no presence of its own: NAN is what every use of it can test */
	ptk_field_store(&ptk_snap_groups[g].fields[f], (char *)s + ptk_snap_groups[g].off, 0,
			g == PTK_SNAP_G_UPTIME ? NAN : 0);
	switch (g) {
	case PTK_SNAP_G_UPTIME:
		break;
	case PTK_SNAP_G_STAT:
		s->st.has &= ~(1ull << f);
		break;
	case PTK_SNAP_G_LOADAVG:
		s->read &= ~PTK_SNAP_BIT(PTK_SNAP_LOADAVG);
		s->has_la = false;
		break;
	case PTK_SNAP_G_MEMINFO:
		s->mi.present &= ~(1ull << f); /* has_available stays: the kernel had it */
		break;
	case PTK_SNAP_G_VMSTAT:
		s->vm.present &= ~(1ull << f);
		s->vm.has_oom_kill = ptk_vmstat_has(&s->vm, PTK_VM_OOM_KILL);
		break;
	default: {
		struct ptk_psi *psi = &s->psi[g - PTK_SNAP_G_PSI];
		(f < PTK_PSI_FULL_AVG10 ? &psi->some : &psi->full)->present = false;
	}
	}
}

void ptk_snap_free(struct ptk_snap *s)
{
	ptk_stat_free(&s->st);
	ptk_diskstats_free(&s->ds);
	ptk_netdev_free(&s->nd);
	ptk_kvs_free(&s->kvs);
	free(s->rot);
	free(s->speed);
	free(s->procs);
	free(s->online);
	ptk_irqs_free(&s->intr);
	ptk_irqs_free(&s->sirq);
	ptk_softnet_free(&s->sn);
	ptk_xkvs_free(&s->kx);
	memset(s, 0, sizeof(*s));
}

void ptk_snap_reserve(struct ptk_snap *s)
{
	if (s->ds.n > s->dcap) {
		s->dcap = s->ds.n + 8;
		s->rot = xrealloc(s->rot, s->dcap * sizeof(*s->rot));
	}
	if (s->nd.n > s->ncap) {
		s->ncap = s->nd.n + 8;
		s->speed = xrealloc(s->speed, s->ncap * sizeof(*s->speed));
	}
}

void ptk_snap_copy(struct ptk_snap *dst, const struct ptk_snap *src)
{
	struct ptk_stat st = dst->st;
	struct ptk_diskstats ds = dst->ds;
	struct ptk_netdevs nd = dst->nd;
	struct ptk_kvs kvs = dst->kvs;
	int *rot = dst->rot;
	long *speed = dst->speed;
	bool *online = dst->online;
	struct ptk_irqs intr = dst->intr, sirq = dst->sirq;
	struct ptk_softnet sn = dst->sn;
	struct ptk_xkvs kx = dst->kx;
	struct ptk_task *procs = dst->procs;
	int dcap = dst->dcap, ncap = dst->ncap, pcap = dst->pcap;

	*dst = *src;
	dst->st = st;
	ptk_stat_copy(&dst->st, &src->st);
	dst->ds = ds;
	dst->ds.n = 0;
	if (src->ds.n > dst->ds.cap) {
		dst->ds.cap = src->ds.n;
		dst->ds.d = xrealloc(dst->ds.d, dst->ds.cap * sizeof(*dst->ds.d));
	}
	if (src->ds.n)
		memcpy(dst->ds.d, src->ds.d, src->ds.n * sizeof(*dst->ds.d));
	dst->ds.n = src->ds.n;
	dst->nd = nd;
	if (src->nd.n > dst->nd.cap) {
		dst->nd.cap = src->nd.n;
		dst->nd.d = xrealloc(dst->nd.d, dst->nd.cap * sizeof(*dst->nd.d));
	}
	if (src->nd.n)
		memcpy(dst->nd.d, src->nd.d, src->nd.n * sizeof(*dst->nd.d));
	dst->nd.n = src->nd.n;
	dst->kvs = kvs;
	if (src->kvs.n > dst->kvs.cap) {
		dst->kvs.cap = src->kvs.n;
		dst->kvs.kv = xrealloc(dst->kvs.kv, dst->kvs.cap * sizeof(*dst->kvs.kv));
	}
	if (src->kvs.n)
		memcpy(dst->kvs.kv, src->kvs.kv, src->kvs.n * sizeof(*dst->kvs.kv));
	dst->kvs.n = src->kvs.n;
	dst->rot = rot;
	dst->speed = speed;
	dst->dcap = dcap;
	dst->ncap = ncap;
	ptk_snap_reserve(dst);
	if (src->ds.n)
		memcpy(dst->rot, src->rot, src->ds.n * sizeof(*dst->rot));
	if (src->nd.n)
		memcpy(dst->speed, src->speed, src->nd.n * sizeof(*dst->speed));
	dst->online = online;
	if (src->online_n) {
		dst->online = xrealloc(dst->online, src->online_n * sizeof(*dst->online));
		memcpy(dst->online, src->online, src->online_n * sizeof(*dst->online));
	}
	dst->intr = intr;
	ptk_irqs_copy(&dst->intr, &src->intr);
	dst->sirq = sirq;
	ptk_irqs_copy(&dst->sirq, &src->sirq);
	dst->sn = sn;
	ptk_softnet_copy(&dst->sn, &src->sn);
	dst->kx = kx;
	ptk_xkvs_copy(&dst->kx, &src->kx);
	dst->procs = procs;
	dst->pcap = pcap;
	dst->nproc = 0;
}

/* ---- the clock ------------------------------------------------------------------------- */

s64 ptk_snap_now_ms(void)
{
	static bool init;
	static s64 fake0_ms = -1;
	static u64 mono0;
	struct timespec ts;

	if (!init) {
		const char *f = getenv("PTK_FAKE_TIME");
		double v;
		init = true;
		if (f && *f && ptk_parse_double(f, &v) == 0 && v >= 0) {
			fake0_ms = llround(v * 1000.0);
			mono0 = ptk_now_ns();
		}
	}
	if (fake0_ms >= 0)
		return fake0_ms + (s64)((ptk_now_ns() - mono0) / 1000000);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (s64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- reading ---------------------------------------------------------------------------- */

/*
 * Live, a reader reads the same dozen files every interval: keep them open and pread() them
 * at offset 0 (seq_file regenerates the text), which saves the path walk of every open().
 * The text goes to the same parsers the readers use. The cache is per thread (the exporter
 * reads from several). Other roots: the ordinary readers.
 */
enum {
	F_STAT, /* /proc/uptime is not read: see read_live */
	F_LOADAVG,
	F_MEMINFO,
	F_VMSTAT,
	F_DISKSTATS,
	F_NETDEV,
	F_SNMP,
	F_NETSTAT,
	F_PSI_CPU,
	F_PSI_MEM,
	F_PSI_IO,
	F_INTERRUPTS,
	F_SOFTIRQS,
	F_SOFTNET,
	F_N
};
static const char *const live_files[F_N] = {
	"/proc/stat",	      "/proc/loadavg",		"/proc/meminfo",     "/proc/vmstat",
	"/proc/diskstats",    "/proc/net/dev",		"/proc/net/snmp",    "/proc/net/netstat",
	"/proc/pressure/cpu", "/proc/pressure/memory",	"/proc/pressure/io", "/proc/interrupts",
	"/proc/softirqs",     "/proc/net/softnet_stat",
};
static __thread struct {
	int fd; /* 0: not opened yet, -errno: absent */
	struct ptk_buf b;
} live[F_N];

/* pread the whole of live file f into live[f].b. The byte count, or -errno. */
static ssize_t live_read(int f)
{
	struct ptk_buf *b = &live[f].b;

	if (live[f].fd == 0) {
		live[f].fd = open(live_files[f], O_RDONLY | O_CLOEXEC);
		if (live[f].fd < 0)
			live[f].fd = errno ? -errno : -ENOENT;
	}
	if (live[f].fd < 0)
		return live[f].fd;
	for (;;) {
		if (b->cap < 4096) {
			b->cap = 65536;
			b->p = xrealloc(b->p, b->cap);
		}
		ssize_t n = pread(live[f].fd, b->p, b->cap - 1, 0);
		if (n < 0)
			return -errno;
		if ((size_t)n < b->cap - 1) {
			b->p[n] = '\0';
			b->len = n;
			return n;
		}
		b->cap *= 2; /* did not fit: read again with room */
		b->p = xrealloc(b->p, b->cap);
	}
}

/* Read live file f and parse it with parse(text, out). 0 or -errno. */
static int live_parse(int f, int (*parse)(const char *, void *), void *out)
{
	ssize_t n = live_read(f);

	if (n < 0)
		return (int)n;
	return parse(live[f].b.p, out);
}

/* sysfs facts per device/interface, re-read every 60 reads (they rarely change) */
struct sys_fact {
	char name[64];
	int part, rot;
	long speed;
};
static __thread struct sys_fact *facts;
static __thread int nfacts;
static __thread unsigned nreads;

static struct sys_fact *fact(const struct ptk_src *src, const char *name, bool disk)
{
	for (int i = 0; i < nfacts; i++)
		if (!strcmp(facts[i].name, name) && (facts[i].speed == -2) == disk)
			return &facts[i];
	facts = xrealloc(facts, (nfacts + 1) * sizeof(*facts));
	struct sys_fact *f = &facts[nfacts++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->part = -1;
	f->rot = -1;
	f->speed = disk ? -2 : -1;
	if (disk) {
		char rel[128], path[PATH_MAX], nm[64];
		snprintf(nm, sizeof(nm), "%s", name);
		for (char *c = nm; *c; c++)
			if (*c == '/')
				*c = '!';
		snprintf(rel, sizeof(rel), "class/block/%s", nm);
		if (!ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)) && !access(path, F_OK)) {
			snprintf(rel, sizeof(rel), "class/block/%s/partition", nm);
			if (!ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)))
				f->part = access(path, F_OK) == 0;
		}
		if (f->part != 1)
			f->rot = ptk_disk_rotational_read(src, name);
		if (f->rot < 0)
			f->rot = -1;
	} else if (ptk_net_speed_read(src, name, &f->speed) || f->speed <= 0) {
		f->speed = -1;
	}
	return f;
}

/* live_parse()'s parsers: each reader's own, its output as the void * live_parse() holds. */
#define SNAP_PARSER(name, fn)                           \
	static int parse_##name(const char *t, void *o) \
	{                                               \
		return fn(t, o);                        \
	}
SNAP_PARSER(stat, ptk_stat_parse)
SNAP_PARSER(loadavg, ptk_loadavg_parse)
SNAP_PARSER(meminfo, ptk_meminfo_parse)
SNAP_PARSER(vmstat, ptk_vmstat_parse)
SNAP_PARSER(diskstats, ptk_diskstats_parse)
SNAP_PARSER(netdev, ptk_netdev_parse)
SNAP_PARSER(snmp, ptk_netsnmp_parse)
SNAP_PARSER(psi, ptk_psi_parse)
SNAP_PARSER(irqs, ptk_irqs_parse)
#undef SNAP_PARSER

/* Record the outcome r of part p. */
static void part_done(struct ptk_snap *s, enum ptk_snap_part p, int r)
{
	s->err[p] = r;
	if (!r)
		s->read |= PTK_SNAP_BIT(p);
}

/* An interrupt file that failed: nothing of it is known. */
static void irqs_done(struct ptk_snap *s, enum ptk_snap_part p, struct ptk_irqs *q, int r)
{
	part_done(s, p, r);
	if (r)
		q->n = q->ncpu = 0;
}

static int read_live(const struct ptk_src *src, struct ptk_snap *s, unsigned mask)
{
	struct timespec bt;
	int r;

	if (++nreads % 60 == 0)
		nfacts = 0;
	if ((r = live_parse(F_STAT, parse_stat, &s->st)))
		return r;
	/*
	 * /proc/uptime without reading it: its first field is CLOCK_BOOTTIME, its second the
	 * sum of every CPU's idle time (fs/proc/uptime.c get_idle_time), which is /proc/stat's
	 * aggregate idle column (same function, USER_HZ ticks: the same 10 ms resolution).
	 */
	if (clock_gettime(CLOCK_BOOTTIME, &bt))
		return -errno;
	s->up.up_s = bt.tv_sec + bt.tv_nsec / 1e9;
	s->up.idle_s = (double)s->st.all.t[PTK_CPU_IDLE] / sysconf(_SC_CLK_TCK);
	part_done(s, PTK_SNAP_STAT, 0);
	if (mask & PTK_SNAP_BIT(PTK_SNAP_LOADAVG))
		part_done(s, PTK_SNAP_LOADAVG, live_parse(F_LOADAVG, parse_loadavg, &s->la));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_MEMINFO))
		part_done(s, PTK_SNAP_MEMINFO, live_parse(F_MEMINFO, parse_meminfo, &s->mi));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_VMSTAT))
		part_done(s, PTK_SNAP_VMSTAT, live_parse(F_VMSTAT, parse_vmstat, &s->vm));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_DISKSTATS)) {
		s->ds.n = 0;
		part_done(s, PTK_SNAP_DISKSTATS,
			  r = live_parse(F_DISKSTATS, parse_diskstats, &s->ds));
		if (r)
			s->ds.n = 0;
	}
	if (mask & PTK_SNAP_BIT(PTK_SNAP_NETDEV)) {
		s->nd.n = 0;
		part_done(s, PTK_SNAP_NETDEV, r = live_parse(F_NETDEV, parse_netdev, &s->nd));
		if (r)
			s->nd.n = 0;
	}
	ptk_snap_reserve(s);
	for (int i = 0; i < s->ds.n; i++) {
		struct sys_fact *f = fact(src, s->ds.d[i].name, true);
		if (f->part >= 0)
			s->ds.d[i].is_partition = f->part;
		s->rot[i] = s->ds.d[i].is_partition ? -1 : f->rot;
	}
	for (int i = 0; i < s->nd.n; i++)
		s->speed[i] = fact(src, s->nd.d[i].name, false)->speed;
	if (mask & PTK_SNAP_BIT(PTK_SNAP_SNMP)) {
		int r1, r2;
		s->kvs.n = 0;
		r1 = live_parse(F_SNMP, parse_snmp, &s->kvs);
		r2 = live_parse(F_NETSTAT, parse_snmp, &s->kvs);
		part_done(s, PTK_SNAP_SNMP, r1 && r2 ? r1 : 0);
	}
	for (int k = 0; k < PTK_PSI_NRES; k++)
		if (mask & PTK_SNAP_BIT(PTK_SNAP_PSI_CPU + k))
			part_done(s, PTK_SNAP_PSI_CPU + k,
				  live_parse(F_PSI_CPU + k, parse_psi, &s->psi[k]));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_INTERRUPTS))
		irqs_done(s, PTK_SNAP_INTERRUPTS, &s->intr,
			  live_parse(F_INTERRUPTS, parse_irqs, &s->intr));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_SOFTIRQS))
		irqs_done(s, PTK_SNAP_SOFTIRQS, &s->sirq,
			  live_parse(F_SOFTIRQS, parse_irqs, &s->sirq));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_SOFTNET)) {
		ssize_t n = live_read(F_SOFTNET);
		r = n < 0 ? (int)n : ptk_softnet_parse(live[F_SOFTNET].b.p, &s->st, &s->sn);
		part_done(s, PTK_SNAP_SOFTNET, r);
		if (r)
			s->sn.ncpu = 0;
	}
	s->t_ms = ptk_snap_now_ms();
	return 0;
}

static int read_root(const struct ptk_src *src, struct ptk_snap *s, unsigned mask)
{
	int r;

	s->err_file = "uptime";
	if ((r = ptk_uptime_read(src, &s->up)))
		return r;
	s->err_file = "stat";
	if ((r = ptk_stat_read(src, &s->st)) && !(mask & PTK_SNAP_STAT_OPTIONAL))
		return r;
	s->err_file = NULL;
	part_done(s, PTK_SNAP_STAT, r);
	if (r) { /* unread: nothing of it is known */
		memset(&s->st.all, 0, sizeof(s->st.all));
		s->st.ncpu = 0;
		s->st.ctxt = s->st.intr = s->st.processes = s->st.btime = 0;
		s->st.procs_running = s->st.procs_blocked = 0;
	}
	if (mask & PTK_SNAP_BIT(PTK_SNAP_LOADAVG))
		part_done(s, PTK_SNAP_LOADAVG, ptk_loadavg_read(src, &s->la));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_MEMINFO))
		part_done(s, PTK_SNAP_MEMINFO, ptk_meminfo_read(src, &s->mi));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_VMSTAT))
		part_done(s, PTK_SNAP_VMSTAT, ptk_vmstat_read(src, &s->vm));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_DISKSTATS)) {
		part_done(s, PTK_SNAP_DISKSTATS, r = ptk_diskstats_read(src, &s->ds));
		if (r)
			s->ds.n = 0;
	}
	if (mask & PTK_SNAP_BIT(PTK_SNAP_NETDEV)) {
		part_done(s, PTK_SNAP_NETDEV, r = ptk_netdev_read(src, &s->nd));
		if (r)
			s->nd.n = 0;
	}
	ptk_snap_reserve(s);
	for (int i = 0; i < s->ds.n; i++) {
		s->rot[i] = s->ds.d[i].is_partition ?
				    -1 :
				    ptk_disk_rotational_read(src, s->ds.d[i].name);
		if (s->rot[i] < 0)
			s->rot[i] = -1;
	}
	for (int i = 0; i < s->nd.n; i++)
		if (ptk_net_speed_read(src, s->nd.d[i].name, &s->speed[i]) || s->speed[i] <= 0)
			s->speed[i] = -1;
	if (mask & PTK_SNAP_BIT(PTK_SNAP_SNMP)) {
		s->kvs.n = 0;
		part_done(s, PTK_SNAP_SNMP, r = ptk_netsnmp_read(src, &s->kvs));
		if (r)
			s->kvs.n = 0;
	}
	for (int k = 0; k < PTK_PSI_NRES; k++)
		if (mask & PTK_SNAP_BIT(PTK_SNAP_PSI_CPU + k))
			part_done(s, PTK_SNAP_PSI_CPU + k, ptk_psi_read(src, k, &s->psi[k]));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_INTERRUPTS))
		irqs_done(s, PTK_SNAP_INTERRUPTS, &s->intr,
			  ptk_irqs_read(src, "interrupts", &s->intr));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_SOFTIRQS))
		irqs_done(s, PTK_SNAP_SOFTIRQS, &s->sirq, ptk_irqs_read(src, "softirqs", &s->sirq));
	if (mask & PTK_SNAP_BIT(PTK_SNAP_SOFTNET)) {
		part_done(s, PTK_SNAP_SOFTNET, r = ptk_softnet_read(src, &s->st, &s->sn));
		if (r)
			s->sn.ncpu = 0;
	}
	s->t_ms = llround((s->st.btime + s->up.up_s) * 1000.0);
	return 0;
}

/* The online CPU list (/sys/devices/system/cpu/online), sized by /proc/stat's slots. */
static int read_online(const struct ptk_src *src, struct ptk_snap *s)
{
	int n = MAX(s->st.ncpu, 1) + 64, r;

	s->online = xrealloc(s->online, n * sizeof(*s->online));
	memset(s->online, 0, n * sizeof(*s->online));
	r = ptk_cpu_online_read(src, s->online, n);
	s->online_n = r > 0 ? r : 0;
	return r < 0 ? r : 0;
}

/* The extended counters of the groups in mask (the same readers live and on a tree). */
static void read_kx(const struct ptk_src *src, struct ptk_snap *s, unsigned mask)
{
	ptk_xkvs_clear(&s->kx);
	for (int g = 0; g < PTK_KX_NGROUPS; g++) {
		int n0 = s->kx.n, r;
		size_t l0 = s->kx.len;
		if (!(mask & PTK_SNAP_BIT(PTK_SNAP_KX + g)))
			continue;
		r = ptk_kx_read(src, g, s->st.ncpu + 64, &s->kx);
		if (r) { /* nothing of a group that failed */
			s->kx.n = n0;
			s->kx.len = l0;
		}
		part_done(s, PTK_SNAP_KX + g, r);
	}
}

int ptk_snap_read(const struct ptk_src *src, struct ptk_snap *s, unsigned mask)
{
	int r;

	s->id = 0;
	s->read = 0;
	s->err_file = NULL;
	memset(s->err, 0, sizeof(s->err));
	if (ptk_src_is_live(src) && !src->sysfs_given)
		r = read_live(src, s, mask);
	else
		r = read_root(src, s, mask);
	if (r) {
		s->err[PTK_SNAP_STAT] = r;
		if (!s->err_file)
			s->err_file = "stat";
		return r;
	}
	if (mask & PTK_SNAP_BIT(PTK_SNAP_ONLINE))
		part_done(s, PTK_SNAP_ONLINE, read_online(src, s));
	read_kx(src, s, mask);
	s->has_la = ptk_snap_has(s, PTK_SNAP_LOADAVG);
	s->has_mi = ptk_snap_has(s, PTK_SNAP_MEMINFO);
	s->has_vm = ptk_snap_has(s, PTK_SNAP_VMSTAT);
	for (int k = 0; k < PTK_PSI_NRES; k++)
		s->has_psi[k] = ptk_snap_has(s, PTK_SNAP_PSI_CPU + k);
	return 0;
}

/* ---- the /proc tree writer ---------------------------------------------------------------- */

static void write_cpu(struct ptk_strbuf *b, const char *label, const struct ptk_cpu_times *t)
{
	ptk_strbuf_addf(b, "%s", label);
	for (int k = 0; k < PTK_CPU_NSTATES; k++)
		ptk_strbuf_addf(b, " %" PRIu64, t->t[k]);
	ptk_strbuf_addf(b, "\n");
}

static void write_psi_line(struct ptk_strbuf *b, const char *w, const struct ptk_psi_line *l)
{
	if (l->present)
		ptk_strbuf_addf(b, "%s avg10=%.2f avg60=%.2f avg300=%.2f total=%" PRIu64 "\n", w,
				l->avg10, l->avg60, l->avg300, l->total_us);
}

/* net/snmp text for the keys of one file: "Proto: names\nProto: values\n" per protocol,
 * in first-seen order. netstat: the *Ext protocols (TcpExt, IpExt, MPTcpExt). */
static void write_snmp(struct ptk_strbuf *b, const struct ptk_kvs *kvs, bool netstat)
{
	for (int i = 0; i < kvs->n; i++) {
		const char *dot = strchr(kvs->kv[i].key, '.');
		size_t plen = dot ? (size_t)(dot - kvs->kv[i].key) : 0;
		bool seen = false, ext = plen >= 3 && !strncmp(kvs->kv[i].key + plen - 3, "Ext", 3);
		if (!dot || ext != netstat)
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = !strncmp(kvs->kv[j].key, kvs->kv[i].key, plen + 1);
		if (seen)
			continue;
		for (int pass = 0; pass < 2; pass++) {
			ptk_strbuf_addf(b, "%.*s:", (int)plen, kvs->kv[i].key);
			for (int j = i; j < kvs->n; j++) {
				if (strncmp(kvs->kv[j].key, kvs->kv[i].key, plen + 1))
					continue;
				if (pass == 0)
					ptk_strbuf_addf(b, " %s", kvs->kv[j].key + plen + 1);
				else
					ptk_strbuf_addf(b, " %" PRId64, kvs->kv[j].val);
			}
			ptk_strbuf_addf(b, "\n");
		}
	}
}

static void write_task_stat(struct ptk_strbuf *b, const struct ptk_task *t, int pid)
{
	/* proc(5) fields 1..44; the ones the readers do not use are 0 */
	ptk_strbuf_addf(
		b,
		"%d (%s) %c %d 0 0 0 -1 0 %" PRIu64 " 0 %" PRIu64 " 0 %" PRIu64 " %" PRIu64
		" 0 0 %ld %ld %ld 0 %" PRIu64 " %" PRIu64 " %" PRIu64 " 0 0 0 0 0 0 0 0 0 0 0 0 "
		"0 17 %d 0 0 %" PRIu64 " %" PRIu64 " 0\n",
		pid, t->comm, t->state ? t->state : 'S', t->ppid, t->minflt, t->majflt, t->utime,
		t->stime, t->priority, t->nice, t->nthreads, t->starttime, t->vsize, t->rss_pages,
		t->processor < 0 ? 0 : t->processor, t->blkio_ticks, t->gtime);
}

static int write_task(struct ptk_strbuf *b, const char *dir, const struct ptk_task *t)
{
	char rel[128];
	int r;

	snprintf(rel, sizeof(rel), "%d/stat", t->pid);
	write_task_stat(b, t, t->pid);
	if ((r = ptk_strbuf_write(b, dir, rel)))
		return r;
	/* the main thread, for thread scans (D-state tasks and their wchan) */
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", t->pid, t->pid);
	write_task_stat(b, t, t->pid);
	if ((r = ptk_strbuf_write(b, dir, rel)))
		return r;
	if (t->io_ok) {
		ptk_strbuf_addf(b,
				"rchar: %" PRIu64 "\nwchar: %" PRIu64
				"\nsyscr: 0\nsyscw: 0\nread_bytes: %" PRIu64
				"\nwrite_bytes: %" PRIu64 "\ncancelled_write_bytes: %" PRIu64 "\n",
				t->rchar, t->wchar, t->read_bytes, t->write_bytes,
				t->cancelled_write_bytes);
		snprintf(rel, sizeof(rel), "%d/io", t->pid);
		if ((r = ptk_strbuf_write(b, dir, rel)))
			return r;
	}
	if (t->wchan[0]) {
		ptk_strbuf_addf(b, "%s", t->wchan);
		snprintf(rel, sizeof(rel), "%d/wchan", t->pid);
		ptk_strbuf_write(b, dir, rel);
		snprintf(rel, sizeof(rel), "%d/task/%d/wchan", t->pid, t->pid);
		ptk_strbuf_addf(b, "%s", t->wchan);
		ptk_strbuf_write(b, dir, rel);
	}
	if (t->cmdline[0]) {
		ptk_strbuf_addf(b, "%s", t->cmdline);
		b->len++; /* the kernel's trailing NUL */
		snprintf(rel, sizeof(rel), "%d/cmdline", t->pid);
		ptk_strbuf_write(b, dir, rel);
	}
	if (t->owner_ok) {
		ptk_strbuf_addf(b, "Name:\t%s\nUid:\t%u\t%u\t%u\t%u\n", t->comm, t->euid, t->euid,
				t->euid, t->euid);
		snprintf(rel, sizeof(rel), "%d/status", t->pid);
		ptk_strbuf_write(b, dir, rel);
		/* the owner of /proc/PID/stat is what top and ps show as USER */
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%d/stat", dir, t->pid);
		if (lchown(path, t->euid, -1)) {
			/* not root: USER shows the reader's uid; nothing else is affected */
		}
	}
	return 0;
}

int ptk_snap_write_tree(const struct ptk_snap *s, const char *dir)
{
	struct ptk_strbuf b = { 0 };
	char rel[PATH_MAX];
	int r;

	if ((r = ptk_mkdir_p(dir, 0755)))
		return r;
	/* an unknown uptime (NAN: an archived value that was impossible): no file, and the
	 * tree reads as unreadable */
	bool up_ok = !isnan(s->up.up_s) && !isnan(s->up.idle_s);
	if (up_ok) {
		ptk_strbuf_addf(&b, "%.2f %.2f\n", s->up.up_s, s->up.idle_s);
		if ((r = ptk_strbuf_write(&b, dir, "uptime")))
			goto out_free;
	}
	/* The replayed clock is btime + uptime: write the btime that makes it the recorded
	 * wall time t_ms (to the second), so time travel shows the time the sample was taken
	 * even where the kernel's btime drifted from the wall clock. */
	u64 btime = s->st.btime;
	if (up_ok && s->t_ms > 0 && s->t_ms / 1000 > (s64)s->up.up_s)
		btime = (u64)(s->t_ms / 1000 - (s64)s->up.up_s);
	/* cpu lines not known (an archived sample's impossible values): none, and the tree's
	 * /proc/stat reads as unreadable */
	if (ptk_snap_has(s, PTK_SNAP_STAT))
		write_cpu(&b, "cpu ", &s->st.all);
	for (int i = 0; i < s->st.ncpu && ptk_snap_has(s, PTK_SNAP_STAT); i++) {
		char label[32];
		if (!s->st.present[i])
			continue;
		snprintf(label, sizeof(label), "cpu%d", i);
		write_cpu(&b, label, &s->st.cpu[i]);
	}
	/* the lines the kernel had (btime always: the replay's clock) */
	for (int i = 0; i < PTK_ST_NFIELDS; i++)
		if (i == PTK_ST_BTIME || ptk_stat_has(&s->st, i))
			ptk_strbuf_addf(&b, "%s %" PRIu64 "\n", ptk_stat_fields[i].key,
					i == PTK_ST_BTIME ?
						btime :
						ptk_field_u64(&ptk_stat_fields[i], &s->st));
	if ((r = ptk_strbuf_write(&b, dir, "stat")))
		goto out_free;
	/* online CPUs = the CPUs /proc/stat listed (the kernel hides offline ones) */
	for (int i = 0, first = 1; i < s->st.ncpu; i++) {
		if (!s->st.present[i])
			continue;
		ptk_strbuf_addf(&b, "%s%d", first ? "" : ",", i);
		first = 0;
	}
	ptk_strbuf_addf(&b, "\n");
	if ((r = ptk_strbuf_write(&b, dir, "sys/devices/system/cpu/online")))
		goto out_free;
	if (s->has_la) {
		ptk_strbuf_addf(&b, "%.2f %.2f %.2f %u/%u %d\n", s->la.load1, s->la.load5,
				s->la.load15, s->la.nr_running, s->la.nr_threads, s->la.last_pid);
		if ((r = ptk_strbuf_write(&b, dir, "loadavg")))
			goto out_free;
	}
	if (s->has_mi) {
		ptk_meminfo_text(&s->mi, &b);
		if ((r = ptk_strbuf_write(&b, dir, "meminfo")))
			goto out_free;
	}
	if (s->has_vm) {
		ptk_vmstat_text(&s->vm, &b);
		if ((r = ptk_strbuf_write(&b, dir, "vmstat")))
			goto out_free;
	}
	if (s->ds.n) {
		for (int i = 0; i < s->ds.n; i++) {
			const struct ptk_disk *d = &s->ds.d[i];
			ptk_strbuf_addf(&b, "%4u %7u %s", d->major, d->minor, d->name);
			for (int k = 0; k < d->nfields && k < PTK_DK_NFIELDS; k++)
				ptk_strbuf_addf(&b, " %" PRIu64, d->f[k]);
			ptk_strbuf_addf(&b, "\n");
		}
		if ((r = ptk_strbuf_write(&b, dir, "diskstats")))
			goto out_free;
		for (int i = 0; i < s->ds.n; i++) {
			const struct ptk_disk *d = &s->ds.d[i];
			char name[64];
			snprintf(name, sizeof(name), "%s", d->name);
			for (char *c = name; *c; c++)
				if (*c == '/')
					*c = '!';
			snprintf(rel, sizeof(rel), "sys/class/block/%s/%s", name,
				 d->is_partition ? "partition" : "dev");
			ptk_strbuf_addf(&b, d->is_partition ? "1\n" : "%u:%u\n", d->major,
					d->minor);
			ptk_strbuf_write(&b, dir, rel);
			if (s->rot && s->rot[i] >= 0) {
				snprintf(rel, sizeof(rel), "sys/block/%s/queue/rotational", name);
				ptk_strbuf_addf(&b, "%d\n", s->rot[i]);
				ptk_strbuf_write(&b, dir, rel);
			}
		}
	}
	if (s->nd.n) {
		ptk_strbuf_addf(
			&b, "Inter-|   Receive                                                |  "
			    "Transmit\n face |bytes    packets errs drop fifo frame compressed "
			    "multicast|bytes    packets errs drop fifo colls carrier compressed\n");
		for (int i = 0; i < s->nd.n; i++) {
			ptk_strbuf_addf(&b, "%6s:", s->nd.d[i].name);
			for (int k = 0; k < PTK_ND_NFIELDS; k++)
				ptk_strbuf_addf(&b, " %" PRIu64, s->nd.d[i].f[k]);
			ptk_strbuf_addf(&b, "\n");
		}
		if ((r = ptk_strbuf_write(&b, dir, "net/dev")))
			goto out_free;
		for (int i = 0; s->speed && i < s->nd.n; i++) {
			if (s->speed[i] <= 0)
				continue;
			snprintf(rel, sizeof(rel), "sys/class/net/%s/speed", s->nd.d[i].name);
			ptk_strbuf_addf(&b, "%ld\n", s->speed[i]);
			ptk_strbuf_write(&b, dir, rel);
		}
	}
	if (s->kvs.n) {
		write_snmp(&b, &s->kvs, false);
		if ((r = ptk_strbuf_write(&b, dir, "net/snmp")))
			goto out_free;
		write_snmp(&b, &s->kvs, true);
		if (b.len && (r = ptk_strbuf_write(&b, dir, "net/netstat")))
			goto out_free;
		b.len = 0;
	}
	for (int k = 0; k < PTK_PSI_NRES; k++) {
		if (!s->has_psi[k])
			continue;
		write_psi_line(&b, "some", &s->psi[k].some);
		write_psi_line(&b, "full", &s->psi[k].full);
		snprintf(rel, sizeof(rel), "pressure/%s", ptk_psi_res_name[k]);
		if ((r = ptk_strbuf_write(&b, dir, rel)))
			goto out_free;
	}
	if (ptk_snap_has(s, PTK_SNAP_INTERRUPTS) && s->intr.n) {
		ptk_irqs_text(&s->intr, &b);
		if ((r = ptk_strbuf_write(&b, dir, "interrupts")))
			goto out_free;
	}
	if (ptk_snap_has(s, PTK_SNAP_SOFTIRQS) && s->sirq.n) {
		ptk_irqs_text(&s->sirq, &b);
		if ((r = ptk_strbuf_write(&b, dir, "softirqs")))
			goto out_free;
	}
	if (ptk_snap_has(s, PTK_SNAP_SOFTNET)) {
		ptk_softnet_text(&s->sn, &b);
		if ((r = ptk_strbuf_write(&b, dir, "net/softnet_stat")))
			goto out_free;
	}
	for (int i = 0; i < s->nproc; i++)
		if ((r = write_task(&b, dir, &s->procs[i])))
			goto out_free;
out_free:
	free(b.p);
	return r;
}

/* ---- the extended parts as one list (the archive's ext table) ---------------------------- */

static void irqs_put(const struct ptk_irqs *q, const char *prefix, struct ptk_xkvs *x)
{
	for (int i = 0; i < q->n; i++) {
		char name[4 * PTK_IRQ_NAME + 1];
		ptk_xkey_escape(q->name[i], name, sizeof(name));
		for (int c = 0; c < q->ncpu; c++)
			if (q->col[c] == PTK_IRQ_LISTED)
				ptk_xkvs_addf(x, (s64)ptk_irqs_get(q, i, c), "%s.%d.%s", prefix, c,
					      name);
	}
}

static const char *const sn_field[] = { "processed", "dropped",	   "squeezed",
					"rps",	     "flow_limit", "backlog" };

void ptk_snap_ext_put(const struct ptk_snap *s, struct ptk_xkvs *x)
{
	ptk_xkvs_clear(x);
	for (int i = 0; i < s->kx.n; i++)
		ptk_xkvs_add(x, ptk_xkvs_key(&s->kx, i), s->kx.kv[i].val);
	if (ptk_snap_has(s, PTK_SNAP_INTERRUPTS))
		irqs_put(&s->intr, "intr", x);
	if (ptk_snap_has(s, PTK_SNAP_SOFTIRQS))
		irqs_put(&s->sirq, "sirq", x);
	if (ptk_snap_has(s, PTK_SNAP_SOFTNET))
		for (int c = 0; c < s->sn.ncpu; c++) {
			const u64 *v = &s->sn.c[c].processed;
			if (!s->sn.has[c])
				continue;
			for (size_t k = 0; k < ARRAY_SIZE(sn_field); k++)
				ptk_xkvs_addf(x, (s64)v[k], "softnet.%d.%s", c, sn_field[k]);
		}
}

/* Key "PREFIX.CPU.NAME" into q (a new line for a new name, in the order of first sight). */
static void irqs_get(struct ptk_irqs *q, const char *rest, s64 v)
{
	char *end, name[PTK_IRQ_NAME];
	long c = strtol(rest, &end, 10);
	int i;

	if (end == rest || *end != '.' || c < 0 || c >= PTK_MAX_CPUS || v < 0)
		return;
	ptk_xkey_unescape(end + 1, strlen(end + 1), name, sizeof(name));
	i = ptk_irqs_find(q, name, q->n - 1);
	if (i < 0) {
		i = q->n;
		ptk_irqs_resize(q, i + 1, MAX(q->ncpu, (int)c + 1));
		snprintf(q->name[i], sizeof(q->name[i]), "%s", name);
	} else if (c >= q->ncpu) {
		ptk_irqs_resize(q, q->n, (int)c + 1);
	}
	q->v[(size_t)i * q->cap_cpu + c] = (u64)v;
	q->col[c] = PTK_IRQ_LISTED;
}

void ptk_snap_ext_get(struct ptk_snap *s, const struct ptk_xkvs *x)
{
	ptk_xkvs_clear(&s->kx);
	s->intr.n = s->intr.ncpu = 0;
	s->sirq.n = s->sirq.ncpu = 0;
	s->sn.ncpu = 0;
	if (s->sn.cap)
		memset(s->sn.has, 0, s->sn.cap * sizeof(*s->sn.has));
	for (int i = 0; i < x->n; i++) {
		const char *k = ptk_xkvs_key(x, i);
		s64 v = x->kv[i].val;
		int g;

		if (!strncmp(k, "intr.", 5)) {
			irqs_get(&s->intr, k + 5, v);
			s->read |= PTK_SNAP_BIT(PTK_SNAP_INTERRUPTS);
		} else if (!strncmp(k, "sirq.", 5)) {
			irqs_get(&s->sirq, k + 5, v);
			s->read |= PTK_SNAP_BIT(PTK_SNAP_SOFTIRQS);
		} else if (!strncmp(k, "softnet.", 8)) {
			char *end;
			long c = strtol(k + 8, &end, 10);
			if (end == k + 8 || *end != '.' || c < 0 || c >= PTK_MAX_CPUS || v < 0)
				continue;
			for (size_t f = 0; f < ARRAY_SIZE(sn_field); f++) {
				if (strcmp(end + 1, sn_field[f]))
					continue;
				ptk_softnet_reserve(&s->sn, (int)c + 1);
				(&s->sn.c[c].processed)[f] = (u64)v;
				s->sn.has[c] = true;
				s->sn.ncpu = MAX(s->sn.ncpu, (int)c + 1);
			}
			s->read |= PTK_SNAP_BIT(PTK_SNAP_SOFTNET);
		} else if ((g = ptk_kx_group_of(k)) >= 0) {
			ptk_xkvs_add(&s->kx, k, v);
			s->read |= PTK_SNAP_BIT(PTK_SNAP_KX + g);
		}
	}
}
