/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system snapshot: everything the system-wide commands read, in one struct, read by one
 * reader. check, record, sar, the exporter and the monitors all read through it; the archive
 * stores and loads it (and never opens /proc); ptk_snap_write_tree turns it back into a
 * /proc tree, which is what `ptk capture` writes and the archive's replay (--at) reads.
 *
 * Parts: /proc/stat (+ uptime), loadavg, meminfo, vmstat, diskstats (+ partition and
 * rotational flags from /sys), net/dev (+ link speeds from /sys), net/snmp + net/netstat,
 * pressure/{cpu,memory,io}, the online CPU list, interrupts, softirqs and softnet_stat, and
 * the extended counters of sar's other reports (sockets, IPv6, NFS, serial lines...). The caller asks for the parts it needs;
 * `read` says which were read and err[] holds the -errno of each that failed (0 otherwise).
 * An unread part is unknown, never zero.
 */
#ifndef PTK_SOURCE_SNAP_H
#define PTK_SOURCE_SNAP_H

#include <stdbool.h>

#include "lib/util.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"

enum ptk_snap_part {
	PTK_SNAP_STAT, /* /proc/stat and /proc/uptime: required */
	PTK_SNAP_LOADAVG,
	PTK_SNAP_MEMINFO,
	PTK_SNAP_VMSTAT,
	PTK_SNAP_DISKSTATS, /* with /sys/class/block/DEV/partition, /sys/block/DEV/queue/rotational */
	PTK_SNAP_NETDEV, /* with /sys/class/net/IF/speed */
	PTK_SNAP_SNMP, /* /proc/net/snmp + /proc/net/netstat */
	PTK_SNAP_PSI_CPU, /* PTK_SNAP_PSI_CPU + enum ptk_psi_res */
	PTK_SNAP_PSI_MEMORY,
	PTK_SNAP_PSI_IO,
	PTK_SNAP_ONLINE, /* /sys/devices/system/cpu/online */
	PTK_SNAP_INTERRUPTS, /* /proc/interrupts */
	PTK_SNAP_SOFTIRQS, /* /proc/softirqs */
	PTK_SNAP_SOFTNET, /* /proc/net/softnet_stat */
	PTK_SNAP_KX, /* PTK_SNAP_KX + enum ptk_kx_group: the extended counters (kx) */
	PTK_SNAP_NPARTS = PTK_SNAP_KX + PTK_KX_NGROUPS
};
#define PTK_SNAP_BIT(p) (1u << (p))
/* every part of the extended counters */
#define PTK_SNAP_KX_ALL (((1u << PTK_KX_NGROUPS) - 1) << PTK_SNAP_KX)
#define PTK_SNAP_PSI                                                          \
	(PTK_SNAP_BIT(PTK_SNAP_PSI_CPU) | PTK_SNAP_BIT(PTK_SNAP_PSI_MEMORY) | \
	 PTK_SNAP_BIT(PTK_SNAP_PSI_IO))
/* In a mask: a root without /proc/stat is read all the same, its part unread (err[] set, st
 * zero), for the commands that need only the uptime and their own parts (nicstat,
 * pressure). Live, /proc/stat is always there. */
#define PTK_SNAP_STAT_OPTIONAL (1u << 31)
/* Everything the archive stores (the online list is derived from /proc/stat there). */
#define PTK_SNAP_ALL ((1u << PTK_SNAP_NPARTS) - 1 - PTK_SNAP_BIT(PTK_SNAP_ONLINE))

extern const char *const ptk_snap_part_name[PTK_SNAP_NPARTS];

/* The files a snapshot is read from, one entry per file: `ptk capture` copies exactly these
 * (byte for byte) for the system-wide part of a capture, so a replay reads what a live
 * snapshot reads (and iostat's /sys/block stat files). sys paths are glob patterns: '*' is one
 * entry per device, interface or partition. */
enum {
	PTK_SNAP_F_REQUIRED = 1 << 0, /* no snapshot without it */
	PTK_SNAP_F_MARKER = 1 << 1, /* its existence is the value (class/block/X/partition) */
};
struct ptk_snap_file {
	enum ptk_snap_part part;
	enum ptk_fs fs; /* PTK_PROC or PTK_SYS */
	const char *rel; /* relative to the procfs or sysfs root */
	unsigned flags;
	const char *reader; /* the reader that parses it (documentation) */
};
#define PTK_SNAP_NFILES 43
extern const struct ptk_snap_file ptk_snap_files[PTK_SNAP_NFILES];

/* One snapshot. Buffers are reused across reads and loads; free with ptk_snap_free(). */
struct ptk_snap {
	s64 id; /* archive row id (0 when live) */
	s64 t_ms; /* wall clock, UTC ms since the epoch */
	unsigned read; /* PTK_SNAP_BIT()s of the parts read */
	int err[PTK_SNAP_NPARTS]; /* -errno of each part asked for that failed, else 0 */
	const char *err_file; /* ptk_snap_read failed: the required file ("uptime", "stat") */
	struct ptk_uptime up;
	struct ptk_stat st;
	bool has_la, has_mi, has_vm; /* = the LOADAVG, MEMINFO, VMSTAT bits of read */
	struct ptk_loadavg la;
	struct ptk_meminfo mi;
	struct ptk_vmstat vm;
	struct ptk_diskstats ds;
	int *rot; /* per ds.d[i]: /sys/block/DEV/queue/rotational, -1 unknown */
	struct ptk_netdevs nd;
	long *speed; /* per nd.d[i]: /sys/class/net/IF/speed Mb/s, -1 unknown */
	struct ptk_kvs kvs; /* net/snmp + net/netstat */
	bool has_psi[PTK_PSI_NRES];
	struct ptk_psi psi[PTK_PSI_NRES];
	bool *online; /* [online_n]: CPUs online per /sys (PTK_SNAP_ONLINE) */
	int online_n; /* highest online CPU + 1 */
	struct ptk_irqs intr, sirq; /* /proc/interrupts, /proc/softirqs */
	struct ptk_softnet sn; /* /proc/net/softnet_stat */
	struct ptk_xkvs kx; /* the extended counters: sar's other files (procfs/kx.c) */
	int nproc, pcap; /* processes: the archive's top-N (not read by ptk_snap_read) */
	struct ptk_task *procs;
	int dcap, ncap; /* allocated slots of rot[] / speed[] */
};

/* Was part p read? */
static inline bool ptk_snap_has(const struct ptk_snap *s, enum ptk_snap_part p)
{
	return s->read & PTK_SNAP_BIT(p);
}

/*
 * The scalar fields of a snapshot, by reader: each group is one reader's field table
 * (source/procfs/procfs.h) at its place in struct ptk_snap, in the order the archive's
 * sample row stores them. A field is held when its file was read and had it.
 */
enum ptk_snap_group_id {
	PTK_SNAP_G_UPTIME,
	PTK_SNAP_G_STAT,
	PTK_SNAP_G_LOADAVG,
	PTK_SNAP_G_MEMINFO,
	PTK_SNAP_G_VMSTAT,
	PTK_SNAP_G_PSI, /* PTK_SNAP_G_PSI + enum ptk_psi_res */
	PTK_SNAP_NGROUPS = PTK_SNAP_G_PSI + PTK_PSI_NRES
};
struct ptk_snap_group {
	enum ptk_snap_part part;
	size_t off; /* of the reader's struct in struct ptk_snap */
	const struct ptk_field_desc *fields;
	int n;
};
extern const struct ptk_snap_group ptk_snap_groups[PTK_SNAP_NGROUPS];
/* Does s hold field f of group g? */
bool ptk_snap_field_has(const struct ptk_snap *s, enum ptk_snap_group_id g, int f);
/* Mark field f of group g held, and its part read (a loader filling s field by field). */
void ptk_snap_field_mark(struct ptk_snap *s, enum ptk_snap_group_id g, int f);
/*
 * Make field f of group g unknown (a loader that found its value impossible): its value 0
 * and its presence cleared, as narrowly as s records presence: the field (stat, meminfo,
 * vmstat), its line (PSI), the whole file (loadavg: the part's bit), or NAN (uptime).
 * mi.has_available stays what it was: whether the kernel wrote MemAvailable.
 */
void ptk_snap_field_unmark(struct ptk_snap *s, enum ptk_snap_group_id g, int f);

/* Release the snapshot's buffers and zero it. */
void ptk_snap_free(struct ptk_snap *s);
/* Make room in rot[] / speed[] for ds.n disks and nd.n interfaces (the archive loader). */
void ptk_snap_reserve(struct ptk_snap *s);
/* Deep copy of the system parts of src into dst (dst's buffers reused; processes not copied). */
void ptk_snap_copy(struct ptk_snap *dst, const struct ptk_snap *src);

/*
 * Read the parts in mask (PTK_SNAP_BIT()s; PTK_SNAP_STAT is always read, and required unless
 * PTK_SNAP_STAT_OPTIONAL) of the source's current sample into s. Live, the files are kept
 * open and pread() at offset 0 (seq_file regenerates them), which saves a path walk per file
 * per interval; /proc/uptime comes from CLOCK_BOOTTIME there. Other roots (--procfs,
 * snapshot trees): the ordinary readers. t_ms is the wall clock live (ptk_snap_now_ms),
 * btime + uptime on another root.
 * Returns 0, or the -errno of /proc/stat or /proc/uptime (then nothing else is valid, and
 * s->err_file names which); the other parts fail alone (s->err[part], bit clear in s->read).
 */
int ptk_snap_read(const struct ptk_src *src, struct ptk_snap *s, unsigned mask);

/* Wall clock in UTC ms. Test hook: PTK_FAKE_TIME=EPOCH_SECONDS moves the clock so that the
 * first call returns EPOCH_SECONDS and later calls advance with CLOCK_MONOTONIC. */
s64 ptk_snap_now_ms(void);

/*
 * The parts of s that have no table of their own in the archive (interrupts, softirqs,
 * softnet, the extended counters) as one list of named values, and back: the archive's ext
 * table stores it. ptk_snap_ext_get sets the read bits of the parts it finds.
 */
void ptk_snap_ext_put(const struct ptk_snap *s, struct ptk_xkvs *x);
void ptk_snap_ext_get(struct ptk_snap *s, const struct ptk_xkvs *x);

/*
 * Write s as /proc text files (and sys/ files) into dir, in the layout `ptk capture` writes
 * for one snapshot, so the readers parse back the same values. Processes go to dir/<pid>/
 * (stat, io, wchan, cmdline, status). Returns 0 or -errno.
 */
int ptk_snap_write_tree(const struct ptk_snap *s, const char *dir);

#endif
