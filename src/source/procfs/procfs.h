/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed readers of /proc and /sys. Each returns 0 or -errno and never exits or prints.
 * All paths go through struct ptk_src (source/root.h), so a reader works the same on the
 * live kernel, on another root (--procfs DIR) and on a captured snapshot tree.
 */
#ifndef PTK_SOURCE_PROCFS_H
#define PTK_SOURCE_PROCFS_H

#include <stdbool.h>
#include <string.h>

#include "lib/util.h"
#include "source/root.h"

/* ---- field descriptions ------------------------------------------------------------- */

/*
 * The raw fields of a counter file, described once (the kernel file and field in help): the
 * readers parse by these tables where the file is keyed, the snapshot writes trees from them,
 * the archive names its columns and vectors after them (output/archive.c) and the exporter
 * serves node_exporter's families from them (output/prom_node.c): a field with `prom` is
 * that family, the other tables' names follow node_exporter's rule for their file
 * (node_memory_<key>_bytes, node_vmstat_<key>, node_network_<key>_total,
 * node_netstat_<Proto>_<Name>).
 */
enum ptk_field_type {
	PTK_FT_U64, /* u64 (the default) */
	PTK_FT_U32, /* unsigned */
	PTK_FT_I32, /* int */
	PTK_FT_F64, /* double the kernel prints with 2 decimals */
};

struct ptk_field_desc {
	const char *key; /* as the kernel writes it: "Active(file)", "pgmajfault", "ctxt";
			  * a positional field: its column's name ("rd_ios", "receive_bytes") */
	const char *name; /* snake_case: "active_file" (the archive's column or vector entry) */
	size_t off; /* of the value in the reader's struct */
	const char *unit; /* as the kernel counts: "kB", "pages", "sectors" (512 bytes), "ms",
			   * "us", "ticks" (USER_HZ), "s", "%", "bytes", "" (a count) */
	enum ptk_field_type type;
	bool gauge; /* a level now; else a count since boot (or since the device appeared) */
	int min_fields; /* diskstats: the fewest counters of a line that hold it (4, 11, 15, 17) */
	const char *prom; /* node_exporter's family of the field, when it is not the file's rule */
	const char *label; /* node_cpu_*: its mode label, when not the key */
	const char *help; /* the family's HELP, when not the file's rule: meaning, kernel source */
};

/* The value of field f in obj, the reader's struct that f describes: as an integer (an F64
 * field truncated), or as a double. */
static inline double ptk_field_f64(const struct ptk_field_desc *f, const void *obj)
{
	const char *p = (const char *)obj + f->off;
	union {
		u64 u;
		unsigned u32;
		int i32;
		double d;
	} v;

	switch (f->type) {
	case PTK_FT_F64:
		memcpy(&v.d, p, sizeof(v.d));
		return v.d;
	case PTK_FT_U32:
		memcpy(&v.u32, p, sizeof(v.u32));
		return v.u32;
	case PTK_FT_I32:
		memcpy(&v.i32, p, sizeof(v.i32));
		return v.i32;
	default:
		memcpy(&v.u, p, sizeof(v.u));
		return (double)v.u;
	}
}
static inline u64 ptk_field_u64(const struct ptk_field_desc *f, const void *obj)
{
	u64 u;

	if (f->type != PTK_FT_U64)
		return (u64)(s64)ptk_field_f64(f, obj);
	memcpy(&u, (const char *)obj + f->off, sizeof(u));
	return u;
}
/* Store into field f of obj: the integer v as its type holds it, or x for an F64 field. */
static inline void ptk_field_store(const struct ptk_field_desc *f, void *obj, u64 v, double x)
{
	char *p = (char *)obj + f->off;
	unsigned w32 = (unsigned)v;
	int i32 = (int)v;

	switch (f->type) {
	case PTK_FT_F64:
		memcpy(p, &x, sizeof(x));
		break;
	case PTK_FT_U32:
		memcpy(p, &w32, sizeof(w32));
		break;
	case PTK_FT_I32:
		memcpy(p, &i32, sizeof(i32));
		break;
	default:
		memcpy(p, &v, sizeof(v));
	}
}

/* The entry of the key at p (klen bytes, not terminated) in tab[n], or -1. */
int ptk_field_find(const struct ptk_field_desc *tab, int n, const char *p, size_t klen);

/* ---- /proc/stat ---------------------------------------------------------------------- */

/* Columns of a cpu line in /proc/stat, in file order. Units: USER_HZ ticks. */
enum ptk_cpu_state {
	PTK_CPU_USER,
	PTK_CPU_NICE,
	PTK_CPU_SYSTEM,
	PTK_CPU_IDLE,
	PTK_CPU_IOWAIT,
	PTK_CPU_IRQ,
	PTK_CPU_SOFTIRQ,
	PTK_CPU_STEAL,
	PTK_CPU_GUEST,
	PTK_CPU_GUEST_NICE,
	PTK_CPU_NSTATES
};

struct ptk_cpu_times {
	u64 t[PTK_CPU_NSTATES]; /* ticks; guest is already included in user (kernel) */
};
/* The columns of a cpu line (struct ptk_cpu_times), in file order: node_cpu_seconds_total and
 * node_cpu_guest_seconds_total by mode. */
extern const struct ptk_field_desc ptk_cpu_fields[PTK_CPU_NSTATES];

/* The other counters of /proc/stat (fs/proc/stat.c), one line each: "intr" is its first
 * number (the total), the per-IRQ ones are not read. */
enum ptk_stat_field {
	PTK_ST_BTIME,
	PTK_ST_CTXT,
	PTK_ST_INTR,
	PTK_ST_PROCESSES,
	PTK_ST_PROCS_RUNNING,
	PTK_ST_PROCS_BLOCKED,
	PTK_ST_NFIELDS
};
extern const struct ptk_field_desc ptk_stat_fields[PTK_ST_NFIELDS];

/* CPU numbers above this are not a kernel's (CONFIG_NR_CPUS <= 8192): a cpuN line with a
 * larger N is refused, so a damaged file cannot make a reader allocate for millions. */
#define PTK_MAX_CPUS 65536

/*
 * /proc/stat. Per-CPU times are keyed by the number in the "cpuN" label, not by line
 * order: cpu[N] is valid only when present[N]. ncpu = highest label + 1 (slots). A CPU the
 * file does not list has zero times after a read (model/activity.h ptk_act_cpu_carry may
 * then give it its last known ones).
 */
struct ptk_stat {
	struct ptk_cpu_times all; /* the aggregate "cpu" line */
	int ncpu; /* slots in cpu[]/present[] */
	int cap; /* allocated slots */
	struct ptk_cpu_times *cpu;
	bool *present;
	u64 ctxt; /* "ctxt": context switches since boot */
	u64 intr; /* "intr" first field: interrupts since boot */
	u64 processes; /* "processes": forks since boot */
	u64 procs_running; /* "procs_running": tasks in R state now */
	u64 procs_blocked; /* "procs_blocked": tasks in D state (I/O) now */
	u64 btime; /* "btime": boot time, seconds since the epoch */
	u64 has; /* bit (1 << enum ptk_stat_field) of each line the file had */
};
/* Was line f in the file? An absent one reads 0 and is unknown. */
static inline bool ptk_stat_has(const struct ptk_stat *st, enum ptk_stat_field f)
{
	return st->has & (1ull << f);
}

/* Read /proc/stat into st (buffers reused across calls). 0 or -errno. */
int ptk_stat_read(const struct ptk_src *src, struct ptk_stat *st);
/* Parse /proc/stat text. 0 or -EINVAL. */
int ptk_stat_parse(const char *text, struct ptk_stat *st);
void ptk_stat_free(struct ptk_stat *st);
/* Deep copy (dst buffers reused). */
void ptk_stat_copy(struct ptk_stat *dst, const struct ptk_stat *src);
/* Room for slots CPUs in cpu[]/present[] (new slots zero, not present); ncpu unchanged. */
void ptk_stat_reserve(struct ptk_stat *st, int slots);
/* Sum of all states but guest/guest_nice (already inside user/nice). */
u64 ptk_cpu_total(const struct ptk_cpu_times *t);

/* ---- /proc/loadavg, /proc/uptime ----------------------------------------------------- */

struct ptk_loadavg {
	double load1, load5, load15; /* exponentially-damped run+D queue length */
	unsigned nr_running; /* runnable entities now */
	unsigned nr_threads; /* kernel scheduling entities */
	int last_pid;
};
/* Its fields in file order ("0.00 0.01 0.05 1/123 4567", fs/proc/loadavg.c). */
enum ptk_la_field {
	PTK_LA_LOAD1,
	PTK_LA_LOAD5,
	PTK_LA_LOAD15,
	PTK_LA_NR_RUNNING,
	PTK_LA_NR_THREADS,
	PTK_LA_LAST_PID,
	PTK_LA_NFIELDS
};
extern const struct ptk_field_desc ptk_loadavg_fields[PTK_LA_NFIELDS];
int ptk_loadavg_read(const struct ptk_src *src, struct ptk_loadavg *la);
/* Parse /proc/loadavg text ("0.00 0.01 0.05 1/123 4567"). 0 or -EINVAL (also for a
 * negative or non-finite load). */
int ptk_loadavg_parse(const char *text, struct ptk_loadavg *la);

struct ptk_uptime {
	double up_s; /* seconds since boot (CLOCK_BOOTTIME) */
	double idle_s; /* summed idle seconds of all CPUs */
};
enum ptk_up_field { PTK_UP_UPTIME, PTK_UP_IDLE, PTK_UP_NFIELDS };
extern const struct ptk_field_desc ptk_uptime_fields[PTK_UP_NFIELDS];
int ptk_uptime_read(const struct ptk_src *src, struct ptk_uptime *up);
/* Parse /proc/uptime text ("12345.67 23456.78"). 0, or -EINVAL (also for negative or
 * non-finite seconds). */
int ptk_uptime_parse(const char *text, struct ptk_uptime *up);

/* ---- /proc/meminfo (values in kB, as the kernel prints them) ------------------------ */

enum ptk_mi_field {
	PTK_MI_MEM_TOTAL,
	PTK_MI_MEM_FREE,
	PTK_MI_MEM_AVAILABLE,
	PTK_MI_BUFFERS,
	PTK_MI_CACHED,
	PTK_MI_SWAP_CACHED,
	PTK_MI_ACTIVE,
	PTK_MI_INACTIVE,
	PTK_MI_ACTIVE_ANON,
	PTK_MI_INACTIVE_ANON,
	PTK_MI_ACTIVE_FILE,
	PTK_MI_INACTIVE_FILE,
	PTK_MI_SWAP_TOTAL,
	PTK_MI_SWAP_FREE,
	PTK_MI_DIRTY,
	PTK_MI_WRITEBACK,
	PTK_MI_ANON_PAGES,
	PTK_MI_MAPPED,
	PTK_MI_SHMEM,
	PTK_MI_KRECLAIMABLE,
	PTK_MI_SLAB,
	PTK_MI_SRECLAIMABLE,
	PTK_MI_SUNRECLAIM,
	PTK_MI_COMMIT_LIMIT,
	PTK_MI_COMMITTED_AS,
	PTK_MI_HUGEPAGES_TOTAL,
	PTK_MI_HUGEPAGES_FREE,
	PTK_MI_HUGEPAGESIZE,
	PTK_MI_KERNEL_STACK,
	PTK_MI_PAGE_TABLES,
	PTK_MI_VMALLOC_USED,
	PTK_MI_HUGEPAGES_RSVD,
	PTK_MI_HUGEPAGES_SURP,
	PTK_MI_NFIELDS
};
extern const struct ptk_field_desc ptk_meminfo_fields[PTK_MI_NFIELDS];

struct ptk_meminfo {
	u64 mem_total, mem_free, mem_available, buffers, cached, swap_cached;
	u64 active, inactive, active_anon, inactive_anon, active_file, inactive_file;
	u64 swap_total, swap_free, dirty, writeback, anon_pages, mapped, shmem;
	u64 kreclaimable, slab, sreclaimable, sunreclaim, commit_limit, committed_as;
	u64 hugepages_total, hugepages_free, hugepagesize;
	u64 kernel_stack, page_tables, vmalloc_used, hugepages_rsvd, hugepages_surp;
	u64 present; /* bit (1 << enum ptk_mi_field) of each field the file had */
	bool has_available; /* MemAvailable present (kernel >= 3.14) */
};
/* Was field f in the file? An absent field reads 0 in the struct and is unknown. */
static inline bool ptk_meminfo_has(const struct ptk_meminfo *mi, enum ptk_mi_field f)
{
	return mi->present & (1ull << f);
}
/* Field f's value (kB, or pages for HugePages_*). */
static inline u64 ptk_meminfo_get(const struct ptk_meminfo *mi, enum ptk_mi_field f)
{
	return *(const u64 *)((const char *)mi + ptk_meminfo_fields[f].off);
}
/* Reads /proc/meminfo. When MemAvailable is missing, mem_available holds an estimate
 * (MemFree + Active(file) + Inactive(file) + SReclaimable, capped at MemTotal) and its
 * present bit stays clear. MemTotal is required: -EINVAL without it. */
int ptk_meminfo_read(const struct ptk_src *src, struct ptk_meminfo *mi);
int ptk_meminfo_parse(const char *text, struct ptk_meminfo *mi);
/* Unless has_available (the kernel wrote MemAvailable, >= 3.14), mem_available = the
 * estimate from MemFree, the file LRU lists (or Buffers + Cached) and SReclaimable, at most
 * MemTotal. The parser calls it; so does a loader that changed the fields. */
void ptk_meminfo_estimate(struct ptk_meminfo *mi);
/* Append mi as /proc/meminfo text (the fields present), so ptk_meminfo_parse reads back the
 * same values and the same presence. */
void ptk_meminfo_text(const struct ptk_meminfo *mi, struct ptk_strbuf *b);

/* The low and high memory lines of /proc/meminfo (CONFIG_HIGHMEM kernels, 32-bit: absent
 * elsewhere), for free -l. kB; has_* says whether the file had the pair. */
struct ptk_meminfo_lohi {
	u64 low_total, low_free, high_total, high_free;
	bool has_low, has_high;
};
/* Read /proc/meminfo once into mi (as ptk_meminfo_read) and lh (LowTotal, LowFree, HighTotal,
 * HighFree). 0 or -errno. */
int ptk_meminfo_read_lohi(const struct ptk_src *src, struct ptk_meminfo *mi,
			  struct ptk_meminfo_lohi *lh);
/* Parse the four lines from /proc/meminfo text (the others are skipped). 0, or -EINVAL for a
 * value that is not a number. */
int ptk_meminfo_lohi_parse(const char *text, struct ptk_meminfo_lohi *lh);

/* ---- /proc/vmstat (event counters since boot) --------------------------------------- */

enum ptk_vm_field {
	PTK_VM_PGPGIN,
	PTK_VM_PGPGOUT,
	PTK_VM_PSWPIN,
	PTK_VM_PSWPOUT,
	PTK_VM_PGFAULT,
	PTK_VM_PGMAJFAULT,
	PTK_VM_PGFREE,
	PTK_VM_PGSCAN_KSWAPD,
	PTK_VM_PGSCAN_DIRECT,
	PTK_VM_PGSTEAL_KSWAPD,
	PTK_VM_PGSTEAL_DIRECT,
	PTK_VM_ALLOCSTALL,
	PTK_VM_OOM_KILL,
	PTK_VM_PGSTEAL_KHUGEPAGED,
	PTK_VM_PGPROMOTE_SUCCESS,
	PTK_VM_PGDEMOTE_KSWAPD,
	PTK_VM_PGDEMOTE_DIRECT,
	PTK_VM_PGDEMOTE_KHUGEPAGED,
	PTK_VM_PGSTEAL_ANON,
	PTK_VM_PGSTEAL_FILE,
	PTK_VM_NFIELDS
};
/* key "allocstall" stands for the sum of the allocstall_<zone> lines */
extern const struct ptk_field_desc ptk_vmstat_fields[PTK_VM_NFIELDS];

struct ptk_vmstat {
	u64 pgpgin, pgpgout; /* kB read from/written to block devices */
	u64 pswpin, pswpout; /* pages swapped in/out */
	u64 pgfault, pgmajfault; /* page faults, major faults */
	u64 pgfree; /* pages freed (sar -B pgfree/s) */
	u64 pgscan_kswapd, pgscan_direct; /* node-wide, or the sum of the zones (< 4.8) */
	u64 pgsteal_kswapd, pgsteal_direct;
	u64 allocstall; /* sum of allocstall_* (direct reclaim entries) */
	u64 oom_kill; /* OOM kills (kernel >= 4.13) */
	u64 pgsteal_khugepaged; /* pages khugepaged reclaimed (kernel >= 6.3) */
	u64 pgpromote_success; /* pages promoted to a faster memory tier (kernel >= 5.18) */
	u64 pgdemote_kswapd, pgdemote_direct, pgdemote_khugepaged; /* demoted (>= 5.16) */
	u64 pgsteal_anon, pgsteal_file; /* pages reclaimed, by kind (>= 5.18) */
	u64 present; /* bit (1 << enum ptk_vm_field) of each counter the file had */
	bool has_oom_kill;
};
static inline bool ptk_vmstat_has(const struct ptk_vmstat *vm, enum ptk_vm_field f)
{
	return vm->present & (1ull << f);
}
static inline u64 ptk_vmstat_get(const struct ptk_vmstat *vm, enum ptk_vm_field f)
{
	return *(const u64 *)((const char *)vm + ptk_vmstat_fields[f].off);
}
int ptk_vmstat_read(const struct ptk_src *src, struct ptk_vmstat *vm);
/* Parse /proc/vmstat text; -EINVAL when none of the counters above is there. */
int ptk_vmstat_parse(const char *text, struct ptk_vmstat *vm);
/* Append vm as /proc/vmstat text that ptk_vmstat_parse reads back to the same values. */
void ptk_vmstat_text(const struct ptk_vmstat *vm, struct ptk_strbuf *b);

/* ---- /proc/diskstats ----------------------------------------------------------------- */

/* Counter fields after "major minor name", in kernel order (Documentation/admin-guide/
 * iostats.rst). Sectors are 512 bytes; *_TICKS are ms. */
enum ptk_disk_field {
	PTK_DK_RD_IOS,
	PTK_DK_RD_MERGES,
	PTK_DK_RD_SECTORS,
	PTK_DK_RD_TICKS,
	PTK_DK_WR_IOS,
	PTK_DK_WR_MERGES,
	PTK_DK_WR_SECTORS,
	PTK_DK_WR_TICKS,
	PTK_DK_IN_FLIGHT, /* a gauge, not a counter */
	PTK_DK_IO_TICKS, /* ms the device had >= 1 request in flight (%util) */
	PTK_DK_TIME_IN_QUEUE, /* weighted ms (aqu-sz) */
	PTK_DK_DC_IOS, /* discards: kernel >= 4.18 (15 counters) */
	PTK_DK_DC_MERGES,
	PTK_DK_DC_SECTORS,
	PTK_DK_DC_TICKS,
	PTK_DK_FL_IOS, /* flushes: kernel >= 5.5 (17 counters) */
	PTK_DK_FL_TICKS,
	PTK_DK_NFIELDS
};
/* The counters, with their units and the fewest fields of a line that hold each. */
extern const struct ptk_field_desc ptk_disk_fields[PTK_DK_NFIELDS];

struct ptk_disk {
	unsigned major, minor;
	char name[64];
	int nfields; /* counters present: 11, 15 or 17 (4 for old partition lines) */
	bool is_partition;
	unsigned bad; /* 1 << field: there, but not a number (its value unknown, 0 in f[]) */
	u64 f[PTK_DK_NFIELDS];
};

/* Does d's line hold field f (and was it a number)? Positional: the first nfields counters,
 * or the four of an old partition line (rd_ios rd_sectors wr_ios wr_sectors). */
static inline bool ptk_disk_has(const struct ptk_disk *d, enum ptk_disk_field f)
{
	if (d->bad & (1u << f))
		return false;
	if (d->nfields == 4)
		return f == PTK_DK_RD_IOS || f == PTK_DK_RD_SECTORS || f == PTK_DK_WR_IOS ||
		       f == PTK_DK_WR_SECTORS;
	return (int)f < d->nfields;
}

struct ptk_diskstats {
	int n, cap;
	struct ptk_disk *d;
};
/* Read /proc/diskstats; is_partition comes from sysfs (<sysfs>/class/block/NAME/partition)
 * when available, else from the name (a line whose name extends another device's). */
int ptk_diskstats_read(const struct ptk_src *src, struct ptk_diskstats *ds);
int ptk_diskstats_parse(const char *text, struct ptk_diskstats *ds);
/* The same, keeping a line whose counters are not all numbers: those fields are in bad (the
 * commands that name them: iostat). ptk_diskstats_parse() leaves such a line out. */
int ptk_diskstats_parse_all(const char *text, struct ptk_diskstats *ds);
void ptk_diskstats_free(struct ptk_diskstats *ds);
const struct ptk_disk *ptk_diskstats_find(const struct ptk_diskstats *ds, const char *name);

/*
 * A block device's own statistics file, /sys/block/DEV/stat or /sys/block/DEV/PART/stat
 * (block/partitions/core.c part_stat_show): the counters of its /proc/diskstats line without
 * major, minor and name. Parses text into d->f, nfields and bad (name untouched). 0, or
 * -EINVAL when it holds no counter layout.
 */
int ptk_blockstat_parse(const char *text, struct ptk_disk *d);

/*
 * The block devices of a sysfs tree, as sysstat's iostat reads them when not given -p ALL.
 * root is a directory holding block/ (the sysfs root of the current sample, or another tree
 * laid out like it: iostat -f). Names are the directory entries ('!' where the kernel name
 * has '/': cciss!c0d0); ptk_sysblock_name() turns them back.
 *
 * ptk_sysblock_devices: the entries of ROOT/block, sorted (strcmp), "." and ".." left out.
 * ptk_sysblock_partitions: the entries of ROOT/block/DEV that hold a stat file, sorted.
 * Both return the count and an array freed by ptk_names_free(), or -errno (the directory).
 */
int ptk_sysblock_devices(const char *root, char ***names);
int ptk_sysblock_partitions(const char *root, const char *dev, char ***names);
void ptk_names_free(char **names, int n);
/* Read ROOT/block/DEV/stat (part NULL) or ROOT/block/DEV/PART/stat into d: counters as
 * ptk_blockstat_parse, name the kernel's (ptk_sysblock_name of the last entry), is_partition
 * when part is given. dev and part may be kernel names ("cciss/c0d0"). 0 or -errno. */
int ptk_sysblock_stat(const char *root, const char *dev, const char *part, struct ptk_disk *d);
/* The whole device under which partition PART sits: the entry D of ROOT/block with
 * ROOT/block/D/PART/stat, into buf. 0 or -ENOENT. */
int ptk_sysblock_parent(const char *root, const char *part, char *buf, size_t size);
/* Is DEV an entry of ROOT/block (a whole device, not a partition)? */
bool ptk_sysblock_is_device(const char *root, const char *dev);
/* A sysfs entry name as the kernel names the device: '!' back to '/'. In place; returns s. */
char *ptk_sysblock_name(char *s);

/* ---- /proc/slabinfo (root only: 0400) ----------------------------------------------- */

/* One cache of /proc/slabinfo version 2.x (mm/slab_common.c slab_show): objects in use, all
 * objects, object size in bytes, objects per slab, pages per slab. */
struct ptk_slab {
	char name[64];
	u64 active_objs, num_objs, objsize, objperslab, pagesperslab;
};
struct ptk_slabinfo {
	int n, cap;
	struct ptk_slab *s; /* in file order */
};
/* Read /proc/slabinfo (buffers reused). 0, -errno (-EACCES without root), or -EINVAL for a
 * file that is not version 2.x or a line that does not parse. */
int ptk_slabinfo_read(const struct ptk_src *src, struct ptk_slabinfo *si);
int ptk_slabinfo_parse(const char *text, struct ptk_slabinfo *si);
void ptk_slabinfo_free(struct ptk_slabinfo *si);

/* ---- /proc/net/dev ------------------------------------------------------------------- */

enum ptk_netdev_field {
	PTK_ND_RX_BYTES,
	PTK_ND_RX_PACKETS,
	PTK_ND_RX_ERRS,
	PTK_ND_RX_DROP,
	PTK_ND_RX_FIFO,
	PTK_ND_RX_FRAME,
	PTK_ND_RX_COMPRESSED,
	PTK_ND_RX_MULTICAST,
	PTK_ND_TX_BYTES,
	PTK_ND_TX_PACKETS,
	PTK_ND_TX_ERRS,
	PTK_ND_TX_DROP,
	PTK_ND_TX_FIFO,
	PTK_ND_TX_COLLS,
	PTK_ND_TX_CARRIER,
	PTK_ND_TX_COMPRESSED,
	PTK_ND_NFIELDS
};
/* The columns, keyed as the header names them (receive_bytes ... transmit_compressed). */
extern const struct ptk_field_desc ptk_netdev_fields[PTK_ND_NFIELDS];

struct ptk_netdev {
	char name[32];
	u64 f[PTK_ND_NFIELDS];
};
struct ptk_netdevs {
	int n, cap;
	struct ptk_netdev *d;
};
int ptk_netdev_read(const struct ptk_src *src, struct ptk_netdevs *nd);
int ptk_netdev_parse(const char *text, struct ptk_netdevs *nd);
void ptk_netdev_free(struct ptk_netdevs *nd);
const struct ptk_netdev *ptk_netdev_find(const struct ptk_netdevs *nd, const char *name);

/* ---- /proc/net/snmp and /proc/net/netstat ("Proto: names" / "Proto: values" pairs) ---- */

struct ptk_kv {
	char key[64]; /* "Tcp.RetransSegs", "TcpExt.ListenOverflows" */
	s64 val; /* signed: Tcp MaxConn is -1 */
};
struct ptk_kvs {
	int n, cap;
	struct ptk_kv *kv;
};
/* Reads net/snmp and net/netstat into one list. 0, or -errno if neither is readable. */
int ptk_netsnmp_read(const struct ptk_src *src, struct ptk_kvs *kvs);
/* Append the pairs of one snmp-format file. 0 or -EINVAL. */
int ptk_netsnmp_parse(const char *text, struct ptk_kvs *kvs);
/* Look up "Proto.Name". Returns true and *val when present. */
bool ptk_kvs_get(const struct ptk_kvs *kvs, const char *key, s64 *val);
void ptk_kvs_free(struct ptk_kvs *kvs);
/* The keys the exporter serves (node_netstat_<Proto>_<Name>), by "Proto.Name". */
enum ptk_snmp_field {
	PTK_SN_TCP_OUT_SEGS,
	PTK_SN_TCP_RETRANS_SEGS,
	PTK_SN_TCP_IN_SEGS,
	PTK_SN_TCP_IN_ERRS,
	PTK_SN_NFIELDS
};
extern const struct ptk_field_desc ptk_snmp_fields[PTK_SN_NFIELDS];

/* ---- /proc/pressure/{cpu,memory,io} (PSI, kernel >= 4.20) ----------------------------- */

struct ptk_psi_line {
	bool present;
	double avg10, avg60, avg300; /* % of wall time stalled */
	u64 total_us; /* stall time since boot, µs */
};
struct ptk_psi {
	struct ptk_psi_line some, full; /* cpu "full" is system-wide since 5.13 */
};
enum ptk_psi_res { PTK_PSI_CPU, PTK_PSI_MEMORY, PTK_PSI_IO, PTK_PSI_NRES };
extern const char *const ptk_psi_res_name[PTK_PSI_NRES];
/* The fields of a PSI file (struct ptk_psi): key= values of its "some" line, then of its
 * "full" line (kernel/sched/psi.c psi_show), per resource (the names and families differ). */
enum ptk_psi_field {
	PTK_PSI_SOME_AVG10,
	PTK_PSI_SOME_AVG60,
	PTK_PSI_SOME_AVG300,
	PTK_PSI_SOME_TOTAL,
	PTK_PSI_FULL_AVG10,
	PTK_PSI_FULL_AVG60,
	PTK_PSI_FULL_AVG300,
	PTK_PSI_FULL_TOTAL,
	PTK_PSI_NFIELDS
};
extern const struct ptk_field_desc ptk_psi_fields[PTK_PSI_NRES][PTK_PSI_NFIELDS];
/* Was field f's line in the file? */
static inline bool ptk_psi_has(const struct ptk_psi *psi, enum ptk_psi_field f)
{
	return f < PTK_PSI_FULL_AVG10 ? psi->some.present : psi->full.present;
}
/* 0, -ENOENT (no PSI in this kernel), -EOPNOTSUPP (psi=0 on the command line). */
int ptk_psi_read(const struct ptk_src *src, enum ptk_psi_res res, struct ptk_psi *psi);
int ptk_psi_parse(const char *text, struct ptk_psi *psi);

/* ---- /proc/interrupts, /proc/softirqs ------------------------------------------------- */

/*
 * One of the interrupt files: a line per interrupt (its name is what comes before the ':',
 * "0", "LOC", "NET_RX"), a column per CPU. /proc/interrupts has a column for each online CPU
 * only (kernel/irq/proc.c show_interrupts), /proc/softirqs one for each possible CPU.
 * Counts are per CPU since boot (unsigned int in the kernel: they wrap at 2^32). Lines
 * such as ERR and MIS have one count, CPU0's.
 */
#define PTK_IRQ_NAME 32
#define PTK_IRQ_MAXCOLS 8192
enum { PTK_IRQ_UNKNOWN = 0, PTK_IRQ_LISTED = 1, PTK_IRQ_CARRIED = 2 };
struct ptk_irqs {
	int n; /* lines, in file order */
	int ncpu; /* CPU slots: the highest CPU of the header + 1 */
	char (*name)[PTK_IRQ_NAME]; /* [n] */
	u64 *v; /* v[i * cap_cpu + cpu]: the count of line i on cpu */
	/* [ncpu] per CPU: PTK_IRQ_LISTED (a column of the file), PTK_IRQ_CARRIED (offline: the
	 * counts of an earlier sample, model/activity.h ptk_act_cpu_carry), or unknown (0) */
	unsigned char *col;
	int cap_n, cap_cpu;
};
static inline u64 ptk_irqs_get(const struct ptk_irqs *q, int i, int cpu)
{
	return cpu < q->ncpu ? q->v[(size_t)i * q->cap_cpu + cpu] : 0;
}
/* Is cpu's column known (listed or carried)? */
static inline bool ptk_irqs_known(const struct ptk_irqs *q, int cpu)
{
	return cpu >= 0 && cpu < q->ncpu && q->col[cpu] != PTK_IRQ_UNKNOWN;
}
/* Parse the text of either file. 0, or -EINVAL (no "CPUn" header). */
int ptk_irqs_parse(const char *text, struct ptk_irqs *q);
/* Read rel ("interrupts" or "softirqs") under the procfs root. 0 or -errno. */
int ptk_irqs_read(const struct ptk_src *src, const char *rel, struct ptk_irqs *q);
/* The line named name (hint: the index to try first), or -1. */
int ptk_irqs_find(const struct ptk_irqs *q, const char *name, int hint);
/* The sum of cpu's counts over every line. */
u64 ptk_irqs_total(const struct ptk_irqs *q, int cpu);
/* n lines of ncpu CPU slots (new lines and slots empty and 0). */
void ptk_irqs_resize(struct ptk_irqs *q, int n, int ncpu);
void ptk_irqs_copy(struct ptk_irqs *dst, const struct ptk_irqs *src);
/* The file's text back (the listed columns), for snapshot trees. */
void ptk_irqs_text(const struct ptk_irqs *q, struct ptk_strbuf *b);
void ptk_irqs_free(struct ptk_irqs *q);

/* ---- /proc/net/softnet_stat ---------------------------------------------------------- */

/* A line per online CPU (net/core/net-procfs.c softnet_seq_show), hex counters since boot. */
struct ptk_softnet_cpu {
	u64 processed; /* packets taken off the backlog (field 1) */
	u64 dropped; /* dropped: the backlog was full (field 2) */
	u64 squeezed; /* net_rx_action ran out of budget or time with work left (field 3) */
	u64 rps; /* woken up to process another CPU's packets (RPS, field 10) */
	u64 flow_limit; /* dropped by the flow limit (field 11) */
	u64 backlog; /* packets in the backlog now, a level (field 12, kernel >= 5.10) */
};
struct ptk_softnet {
	int ncpu; /* slots: the highest CPU + 1 */
	struct ptk_softnet_cpu *c; /* [ncpu], valid where has[] */
	bool *has; /* the CPU has a line (or carried values: model/activity.h ptk_act_cpu_carry) */
	int cap;
};
/* Parse it. The CPU of a line is its last field on kernels that print it (>= 5.10), else
 * the next CPU that st (the same sample's /proc/stat) lists. 0 or -EINVAL. */
int ptk_softnet_parse(const char *text, const struct ptk_stat *st, struct ptk_softnet *sn);
int ptk_softnet_read(const struct ptk_src *src, const struct ptk_stat *st, struct ptk_softnet *sn);
void ptk_softnet_reserve(struct ptk_softnet *sn, int ncpu);
void ptk_softnet_copy(struct ptk_softnet *dst, const struct ptk_softnet *src);
void ptk_softnet_free(struct ptk_softnet *sn);
/* The file's text back (with the CPU field), for snapshot trees. */
void ptk_softnet_text(const struct ptk_softnet *sn, struct ptk_strbuf *b);

/* ---- the extended counters (kx.c): sar's other files, as named values -------------- */

/* A list of named values; keys of any length, kept in one buffer. */
struct ptk_xkvs {
	int n, cap;
	struct {
		u32 off; /* of the key in txt */
		s64 val;
	} * kv;
	char *txt;
	size_t len, tcap;
};
static inline const char *ptk_xkvs_key(const struct ptk_xkvs *x, int i)
{
	return x->txt + x->kv[i].off;
}
void ptk_xkvs_clear(struct ptk_xkvs *x);
void ptk_xkvs_add(struct ptk_xkvs *x, const char *key, s64 val);
void ptk_xkvs_addf(struct ptk_xkvs *x, s64 val, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The index of key (hint: the index to try first), or -1. */
int ptk_xkvs_find(const struct ptk_xkvs *x, const char *key, int hint);
bool ptk_xkvs_get(const struct ptk_xkvs *x, const char *key, s64 *val);
bool ptk_xkvs_has_prefix(const struct ptk_xkvs *x, const char *prefix);
void ptk_xkvs_copy(struct ptk_xkvs *dst, const struct ptk_xkvs *src);
void ptk_xkvs_free(struct ptk_xkvs *x);
/* Free text as one part of a key: bytes up to ' ', '.', '\\' and from 0x7f as \ooo. */
void ptk_xkey_escape(const char *s, char *out, size_t size);
/* The text of an escaped part (its first len bytes); also the \040 of /proc/mounts. */
void ptk_xkey_unescape(const char *s, size_t len, char *out, size_t size);

/* The groups of the extended counters (source/procfs/kx.c lists the keys of each). */
enum ptk_kx_group {
	PTK_KX_SNMP6, /* /proc/net/snmp6 */
	PTK_KX_SOCKSTAT, /* /proc/net/sockstat */
	PTK_KX_SOCKSTAT6, /* /proc/net/sockstat6 */
	PTK_KX_KTABLES, /* /proc/sys/fs/{dentry-state,file-nr,inode-state}, sys/kernel/pty/nr */
	PTK_KX_SERIAL, /* /proc/tty/driver/serial */
	PTK_KX_NFS, /* /proc/net/rpc/nfs */
	PTK_KX_NFSD, /* /proc/net/rpc/nfsd */
	PTK_KX_FCHOST, /* /sys/class/fc_host/HOST/statistics */
	PTK_KX_CPUINFO, /* /proc/cpuinfo cpu MHz */
	PTK_KX_CPUFREQ, /* /sys/devices/system/cpu/cpuN/cpufreq/stats/time_in_state */
	PTK_KX_USB, /* /sys/bus/usb/devices */
	PTK_KX_FSYS, /* statvfs(2) of the mounted filesystems (live) */
	PTK_KX_NGROUPS
};
extern const char *const ptk_kx_prefix[PTK_KX_NGROUPS];
/* Append group g's values (ncpu: the CPUs to look for). 0 or -errno. */
int ptk_kx_read(const struct ptk_src *src, enum ptk_kx_group g, int ncpu, struct ptk_xkvs *x);
/* The group of a key, or -1. */
int ptk_kx_group_of(const char *key);
/* The parsers, on a file's text. 0 or -EINVAL. */
int ptk_kx_snmp6_parse(const char *text, struct ptk_xkvs *x);
int ptk_kx_sockstat_parse(const char *text, const char *prefix, struct ptk_xkvs *x);
int ptk_kx_serial_parse(const char *text, struct ptk_xkvs *x);
int ptk_kx_nfs_parse(const char *text, struct ptk_xkvs *x);
int ptk_kx_nfsd_parse(const char *text, struct ptk_xkvs *x);
int ptk_kx_cpuinfo_parse(const char *text, struct ptk_xkvs *x);
int ptk_kx_tis_parse(const char *text, int cpu, struct ptk_xkvs *x);
int ptk_kx_usb_read(const struct ptk_src *src, struct ptk_xkvs *x);
int ptk_kx_fc_read(const struct ptk_src *src, struct ptk_xkvs *x);
int ptk_kx_fsys_read(const struct ptk_src *src, struct ptk_xkvs *x);
int ptk_kx_tis_read(const struct ptk_src *src, int ncpu, struct ptk_xkvs *x);
int ptk_kx_ktables_read(const struct ptk_src *src, struct ptk_xkvs *x);

/* ---- /sys ---------------------------------------------------------------------------- */

/* /sys/devices/system/cpu/online into mask[nbits]. Returns highest online CPU + 1. */
int ptk_cpu_online_read(const struct ptk_src *src, bool *mask, int nbits);
/* CPU cpu's core (the first CPU of topology/thread_siblings_list, as sysstat's mpstat -T
 * numbers logical cores) and socket (topology/physical_package_id); -1 each when unknown.
 * 0 or the -errno of the first file that failed. */
int ptk_cpu_topo_read(const struct ptk_src *src, int cpu, int *core, int *socket);
/* The NUMA node of cpu (its devices/system/cpu/cpuN/nodeM link), or -errno (-ENOENT: none). */
int ptk_cpu_node_read(const struct ptk_src *src, int cpu);
/* The CPUs of devices/system/cpu: the highest cpuN directory + 1, or -errno. */
int ptk_cpu_count_read(const struct ptk_src *src);
/* /sys/class/net/IF/speed in Mb/s. -EINVAL/-ENOENT when unknown (virtual NICs, link down);
 * also negative values the kernel reports as -1. */
int ptk_net_speed_read(const struct ptk_src *src, const char *ifname, long *mbps);
/* /sys/block/DEV/queue/rotational: 1 rotational, 0 not, -errno unknown. */
int ptk_disk_rotational_read(const struct ptk_src *src, const char *dev);

/* ---- kernel log (/dev/kmsg) ---------------------------------------------------------- */

enum ptk_kmsg_kind {
	PTK_KMSG_OOM, /* "Out of memory", "oom-kill", "Killed process" */
	PTK_KMSG_IO_ERROR, /* "I/O error", "critical medium error", fs errors */
	PTK_KMSG_HUNG_TASK, /* "blocked for more than N seconds" */
	PTK_KMSG_SOFT_LOCKUP, /* "soft lockup", "hard LOCKUP", RCU stalls */
	PTK_KMSG_NKINDS
};
extern const char *const ptk_kmsg_kind_name[PTK_KMSG_NKINDS];

struct ptk_kmsg_event {
	enum ptk_kmsg_kind kind;
	u64 ts_us; /* µs since boot (record timestamp) */
	char msg[200];
};
struct ptk_kmsg {
	int n, cap;
	struct ptk_kmsg_event *ev;
	u64 records; /* records scanned */
};
/*
 * Scan the kernel log for OOM kills, I/O errors, hung tasks and soft lockups.
 * Live: /dev/kmsg, opened O_NONBLOCK, read until EAGAIN (never blocks).
 * Other roots: the file "kmsg" in the procfs root / current snapshot (same record format).
 * Returns 0, -EPERM/-EACCES (dmesg_restrict without CAP_SYSLOG), -ENOENT.
 */
int ptk_kmsg_read(const struct ptk_src *src, struct ptk_kmsg *km);
/* Parse kmsg records ("pri,seq,ts_us,flags;text" one per line). Continuation lines
 * starting with a space are skipped. 0 or -EINVAL. */
int ptk_kmsg_parse(const char *text, struct ptk_kmsg *km);
/* Classify one message text. Returns the kind, or -1 for an uninteresting line. */
int ptk_kmsg_classify(const char *msg);
void ptk_kmsg_free(struct ptk_kmsg *km);

#endif
