// SPDX-License-Identifier: GPL-2.0
/*
 * ptk exporter: the machine's metrics over HTTP for Prometheus, in the text exposition format
 * or OpenMetrics (Accept: application/openmetrics-text). node_exporter's metric names wherever
 * node_exporter has the metric (node_cpu_seconds_total, node_memory_*_bytes, node_disk_*,
 * node_network_*, node_pressure_*, node_load*, node_vmstat_*), so existing dashboards work;
 * ptk_* for what it lacks: the run-queue latency histogram (BPF), context switches by thread
 * group, top-N processes (opt-in) and ptk check's verdicts.
 *
 * Threads: libmicrohttpd's pool parses requests; a /metrics request is suspended (no thread
 * held) until the collector thread has read /proc for every scrape waiting -- one collection
 * per batch, started after each of them arrived, so 200 concurrent scrapes cost a few
 * collections, not 200, and none is answered with data older than its request. A scanner thread walks the process table every --scan-interval for the thread-group
 * counters and the top-N processes; a check thread runs ptk check's analysis over
 * --check-window again and again. Their results are kept under one lock.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "model/use.h"
#include "model/delta.h"
#include "model/jstack.h"
#include "model/ptask.h"
#include "output/prom.h"
#include "source/bpf/cpuwatch.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"

#define DEFAULT_LISTEN "127.0.0.1:9469"
#define MAX_GROUPS 2000 /* thread-group series; more go to process="(other)" */
#define MAX_PROCESSES 1000 /* --processes limit */
#define MAX_VERDICTS 64
#define CONN_TIMEOUT_S 10 /* idle or slow (slowloris) connections are closed after this */
#define CONN_MEMORY (64 * 1024) /* per-connection buffer: request line + headers */
#define CONN_LIMIT 1024

/* ---- collectors ------------------------------------------------------------------------- */
enum coll {
	CL_CPU,
	CL_STAT,
	CL_LOADAVG,
	CL_MEMINFO,
	CL_VMSTAT,
	CL_DISKSTATS,
	CL_NETDEV,
	CL_PRESSURE,
	CL_NETSTAT,
	CL_RUNQLAT,
	CL_THREADS,
	CL_PROCESSES,
	CL_CHECK,
	CL_N
};
static const char *const coll_name[CL_N] = {
	[CL_CPU] = "cpu",	  [CL_STAT] = "stat",	      [CL_LOADAVG] = "loadavg",
	[CL_MEMINFO] = "meminfo", [CL_VMSTAT] = "vmstat",     [CL_DISKSTATS] = "diskstats",
	[CL_NETDEV] = "netdev",	  [CL_PRESSURE] = "pressure", [CL_NETSTAT] = "netstat",
	[CL_RUNQLAT] = "runqlat", [CL_THREADS] = "threads",   [CL_PROCESSES] = "processes",
	[CL_CHECK] = "check",
};

/* ---- metric descriptions: every family of the exposition is one of these ----------------- */
#define GAUGE(k, u, t, h)                      \
	{                                      \
		k, k, u, PTK_GAUGE, t, 0, 0, h \
	}
#define COUNTER(k, u, t, h)                      \
	{                                        \
		k, k, u, PTK_COUNTER, t, 0, 0, h \
	}

static const struct ptk_metric m_cpu = COUNTER(
	"node_cpu_seconds_total", "seconds", PTK_V_F64,
	"Seconds the CPUs spent in each mode (/proc/stat cpuN, USER_HZ ticks / USER_HZ; user "
	"and nice include guest time).");
static const struct ptk_metric m_cpu_guest =
	COUNTER("node_cpu_guest_seconds_total", "seconds", PTK_V_F64,
		"Seconds the CPUs spent in guests (VMs) for each mode (/proc/stat cpuN guest, "
		"guest_nice).");
static const struct ptk_metric m_ctxt =
	COUNTER("node_context_switches_total", "", PTK_V_U64,
		"Total number of context switches (/proc/stat ctxt).");
static const struct ptk_metric m_forks =
	COUNTER("node_forks_total", "", PTK_V_U64, "Total number of forks (/proc/stat processes).");
static const struct ptk_metric m_intr = COUNTER(
	"node_intr_total", "", PTK_V_U64, "Total number of interrupts serviced (/proc/stat intr).");
static const struct ptk_metric m_btime = GAUGE("node_boot_time_seconds", "seconds", PTK_V_U64,
					       "Node boot time, in unixtime (/proc/stat btime).");
static const struct ptk_metric m_running =
	GAUGE("node_procs_running", "", PTK_V_U64,
	      "Number of processes in runnable state (/proc/stat procs_running).");
static const struct ptk_metric m_blocked = GAUGE(
	"node_procs_blocked", "", PTK_V_U64,
	"Number of processes blocked waiting for I/O to complete (/proc/stat procs_blocked).");
static const struct ptk_metric m_load[3] = {
	GAUGE("node_load1", "", PTK_V_F64, "1m load average (/proc/loadavg field 1)."),
	GAUGE("node_load5", "", PTK_V_F64, "5m load average (/proc/loadavg field 2)."),
	GAUGE("node_load15", "", PTK_V_F64, "15m load average (/proc/loadavg field 3)."),
};

/*
 * /proc/meminfo and /proc/vmstat: one family per field of the readers' tables
 * (ptk_meminfo_fields, ptk_vmstat_fields), named as node_exporter names them:
 * node_memory_<Key>_bytes (kB x 1024; '(' and ')' become '_', "HugePages_*" counts have no
 * _bytes), node_vmstat_<key> for its default fields. A field the kernel lacks is absent.
 */
static struct ptk_metric mi_m[PTK_MI_NFIELDS], vm_m[PTK_VM_NFIELDS];
static char mi_names[PTK_MI_NFIELDS][80], mi_help[PTK_MI_NFIELDS][160];
static char vm_names[PTK_VM_NFIELDS][64], vm_help[PTK_VM_NFIELDS][96];

/* node_exporter's default vmstat fields: ^(oom_kill|pgpg|pswp|pg.*fault).* */
static bool vm_exported(enum ptk_vm_field f)
{
	const char *k = ptk_vmstat_fields[f].key;
	return !strcmp(k, "oom_kill") || !strncmp(k, "pgpg", 4) || !strncmp(k, "pswp", 4) ||
	       (!strncmp(k, "pg", 2) && strstr(k, "fault"));
}

static void field_metrics_init(void)
{
	for (int i = 0; i < PTK_MI_NFIELDS; i++) {
		const struct ptk_field_desc *f = &ptk_meminfo_fields[i];
		bool kb = !strcmp(f->unit, "kB");
		char key[32];
		size_t n = 0;

		for (const char *c = f->key; *c && n + 1 < sizeof(key); c++)
			if (*c != ')')
				key[n++] = *c == '(' ? '_' : *c;
		key[n] = '\0';
		snprintf(mi_names[i], sizeof(mi_names[i]), "node_memory_%s%s", key,
			 kb ? "_bytes" : "");
		snprintf(mi_help[i], sizeof(mi_help[i]),
			 "Memory information field %s%s (/proc/meminfo %s%s).", key,
			 kb ? "_bytes" : "", f->key, kb ? "" : ", pages");
		mi_m[i] = (struct ptk_metric){ mi_names[i], mi_names[i], kb ? "bytes" : "",
					       PTK_GAUGE,   PTK_V_U64,	 0,
					       0,	    mi_help[i] };
	}
	for (int i = 0; i < PTK_VM_NFIELDS; i++) {
		const char *k = ptk_vmstat_fields[i].key;
		snprintf(vm_names[i], sizeof(vm_names[i]), "node_vmstat_%s", k);
		snprintf(vm_help[i], sizeof(vm_help[i]), "/proc/vmstat information field %s.", k);
		vm_m[i] = (struct ptk_metric){ vm_names[i], vm_names[i], "", PTK_COUNTER,
					       PTK_V_U64,   0,		 0,  vm_help[i] };
	}
}

/* /proc/diskstats, per whole device: value = field x scale (sectors -> bytes, ms -> s) */
static const struct disk_family {
	struct ptk_metric m;
	int field;
	double scale;
	int min_fields;
} disk_families[] = {
	{ COUNTER("node_disk_reads_completed_total", "", PTK_V_U64,
		  "The total number of reads completed successfully (/proc/diskstats field 1)."),
	  PTK_DK_RD_IOS, 1, 4 },
	{ COUNTER("node_disk_reads_merged_total", "", PTK_V_U64,
		  "The total number of reads merged (/proc/diskstats field 2)."),
	  PTK_DK_RD_MERGES, 1, 11 },
	{ COUNTER("node_disk_read_bytes_total", "bytes", PTK_V_U64,
		  "The total number of bytes read successfully (/proc/diskstats field 3, 512-byte "
		  "sectors)."),
	  PTK_DK_RD_SECTORS, 512, 4 },
	{ COUNTER("node_disk_read_time_seconds_total", "seconds", PTK_V_F64,
		  "The total number of seconds spent by all reads (/proc/diskstats field 4, ms)."),
	  PTK_DK_RD_TICKS, 0.001, 11 },
	{ COUNTER("node_disk_writes_completed_total", "", PTK_V_U64,
		  "The total number of writes completed successfully (/proc/diskstats field 5)."),
	  PTK_DK_WR_IOS, 1, 4 },
	{ COUNTER("node_disk_writes_merged_total", "", PTK_V_U64,
		  "The number of writes merged (/proc/diskstats field 6)."),
	  PTK_DK_WR_MERGES, 1, 11 },
	{ COUNTER("node_disk_written_bytes_total", "bytes", PTK_V_U64,
		  "The total number of bytes written successfully (/proc/diskstats field 7, "
		  "512-byte sectors)."),
	  PTK_DK_WR_SECTORS, 512, 4 },
	{ COUNTER("node_disk_write_time_seconds_total", "seconds", PTK_V_F64,
		  "This is the total number of seconds spent by all writes (/proc/diskstats field "
		  "8, ms)."),
	  PTK_DK_WR_TICKS, 0.001, 11 },
	{ GAUGE("node_disk_io_now", "", PTK_V_U64,
		"The number of I/Os currently in progress (/proc/diskstats field 9)."),
	  PTK_DK_IN_FLIGHT, 1, 11 },
	{ COUNTER("node_disk_io_time_seconds_total", "seconds", PTK_V_F64,
		  "Total seconds spent doing I/Os (/proc/diskstats field 10, io_ticks ms)."),
	  PTK_DK_IO_TICKS, 0.001, 11 },
	{ COUNTER("node_disk_io_time_weighted_seconds_total", "seconds", PTK_V_F64,
		  "The weighted number of seconds spent doing I/Os (/proc/diskstats field 11, "
		  "time_in_queue ms)."),
	  PTK_DK_TIME_IN_QUEUE, 0.001, 11 },
	{ COUNTER("node_disk_discards_completed_total", "", PTK_V_U64,
		  "The total number of discards completed successfully (/proc/diskstats field "
		  "12)."),
	  PTK_DK_DC_IOS, 1, 15 },
	{ COUNTER("node_disk_discards_merged_total", "", PTK_V_U64,
		  "The total number of discards merged (/proc/diskstats field 13)."),
	  PTK_DK_DC_MERGES, 1, 15 },
	{ COUNTER("node_disk_discarded_sectors_total", "", PTK_V_U64,
		  "The total number of sectors discarded successfully (/proc/diskstats field 14)."),
	  PTK_DK_DC_SECTORS, 1, 15 },
	{ COUNTER("node_disk_discard_time_seconds_total", "seconds", PTK_V_F64,
		  "This is the total number of seconds spent by all discards (/proc/diskstats "
		  "field 15, ms)."),
	  PTK_DK_DC_TICKS, 0.001, 15 },
	{ COUNTER("node_disk_flush_requests_total", "", PTK_V_U64,
		  "The total number of flush requests completed successfully (/proc/diskstats "
		  "field 16)."),
	  PTK_DK_FL_IOS, 1, 17 },
	{ COUNTER("node_disk_flush_requests_time_seconds_total", "seconds", PTK_V_F64,
		  "This is the total number of seconds spent by all flush requests (/proc/diskstats "
		  "field 17, ms)."),
	  PTK_DK_FL_TICKS, 0.001, 17 },
};

/* /proc/net/dev, per interface */
#define ND(k, f, u)                                                         \
	{                                                                   \
		COUNTER("node_network_" k "_total", u, PTK_V_U64,           \
			"Network device statistic " k " (/proc/net/dev)."), \
			f                                                   \
	}
static const struct net_family {
	struct ptk_metric m;
	int field;
} net_families[] = {
	ND("receive_bytes", PTK_ND_RX_BYTES, "bytes"),
	ND("receive_packets", PTK_ND_RX_PACKETS, ""),
	ND("receive_errs", PTK_ND_RX_ERRS, ""),
	ND("receive_drop", PTK_ND_RX_DROP, ""),
	ND("receive_fifo", PTK_ND_RX_FIFO, ""),
	ND("receive_frame", PTK_ND_RX_FRAME, ""),
	ND("receive_compressed", PTK_ND_RX_COMPRESSED, ""),
	ND("receive_multicast", PTK_ND_RX_MULTICAST, ""),
	ND("transmit_bytes", PTK_ND_TX_BYTES, "bytes"),
	ND("transmit_packets", PTK_ND_TX_PACKETS, ""),
	ND("transmit_errs", PTK_ND_TX_ERRS, ""),
	ND("transmit_drop", PTK_ND_TX_DROP, ""),
	ND("transmit_fifo", PTK_ND_TX_FIFO, ""),
	ND("transmit_colls", PTK_ND_TX_COLLS, ""),
	ND("transmit_carrier", PTK_ND_TX_CARRIER, ""),
	ND("transmit_compressed", PTK_ND_TX_COMPRESSED, ""),
};
#undef ND

/* /proc/pressure/<res>: "some" = waiting, "full" = stalled; total= is in µs */
static const struct psi_family {
	struct ptk_metric m;
	enum ptk_psi_res res;
	bool full;
} psi_families[] = {
	{ COUNTER("node_pressure_cpu_waiting_seconds_total", "seconds", PTK_V_F64,
		  "Total time in seconds that processes have waited for CPU time (/proc/pressure/"
		  "cpu some total=)."),
	  PTK_PSI_CPU, false },
	{ COUNTER("node_pressure_cpu_stalled_seconds_total", "seconds", PTK_V_F64,
		  "Total time in seconds no process could make progress due to CPU congestion "
		  "(/proc/pressure/cpu full total=, kernel >= 5.13)."),
	  PTK_PSI_CPU, true },
	{ COUNTER("node_pressure_memory_waiting_seconds_total", "seconds", PTK_V_F64,
		  "Total time in seconds that processes have waited for memory (/proc/pressure/"
		  "memory some total=)."),
	  PTK_PSI_MEMORY, false },
	{ COUNTER("node_pressure_memory_stalled_seconds_total", "seconds", PTK_V_F64,
		  "Total time in seconds no process could make progress due to memory congestion "
		  "(/proc/pressure/memory full total=)."),
	  PTK_PSI_MEMORY, true },
	{ COUNTER("node_pressure_io_waiting_seconds_total", "seconds", PTK_V_F64,
		  "Total time in seconds that processes have waited due to IO congestion (/proc/"
		  "pressure/io some total=)."),
	  PTK_PSI_IO, false },
	{ COUNTER("node_pressure_io_stalled_seconds_total", "seconds", PTK_V_F64,
		  "Total time in seconds no process could make progress due to IO congestion "
		  "(/proc/pressure/io full total=)."),
	  PTK_PSI_IO, true },
};

/* /proc/net/snmp and /proc/net/netstat: node_netstat_<Group>_<Name> as node_exporter */
#define NETSTAT(g, n, h)                                                       \
	{                                                                      \
		COUNTER("node_netstat_" g "_" n, "", PTK_V_U64,                \
			"Statistic " g n " (/proc/net/snmp " g " " n "): " h), \
			g "." n                                                \
	}
static const struct netstat_family {
	struct ptk_metric m;
	const char *key; /* ptk_kvs key */
} netstat_families[] = {
	NETSTAT("Tcp", "OutSegs", "segments sent, retransmissions excluded."),
	NETSTAT("Tcp", "RetransSegs", "segments retransmitted."),
	NETSTAT("Tcp", "InSegs", "segments received."),
	NETSTAT("Tcp", "InErrs", "segments received in error."),
};
#undef NETSTAT

/* ptk_* */
static const struct ptk_metric m_runq = {
	"ptk_runqueue_latency_seconds",
	"ptk_runqueue_latency_seconds",
	"seconds",
	PTK_GAUGE,
	PTK_V_F64,
	0,
	0,
	"Run-queue latency: time from wakeup to running, every CPU (BPF sched_wakeup, "
	"sched_wakeup_new -> sched_switch, log2 buckets of microseconds; le = the bucket's "
	"exclusive upper bound). _sum is approximate: bucket midpoints x counts."
};
static const struct ptk_metric m_shortlived =
	COUNTER("ptk_shortlived_processes_total", "", PTK_V_U64,
		"Processes that started and exited between two scrapes' worth of BPF counting, "
		"invisible to any /proc snapshot (BPF sched_process_fork/exit), since the exporter "
		"started.");
static const struct ptk_metric m_tg_csw =
	COUNTER("ptk_thread_group_context_switches_total", "", PTK_V_U64,
		"Context switches, voluntary + involuntary, of the threads of a thread group: "
		"process = the process's comm, group = the thread name without its trailing pool "
		"index, as ptk cswtop -g prefix (/proc/PID/task/TID/status voluntary_ctxt_switches "
		"+ nonvoluntary_ctxt_switches), counted since the exporter first saw the group.");
static const struct ptk_metric m_tg_threads =
	GAUGE("ptk_thread_group_threads", "", PTK_V_U64,
	      "Threads in the thread group at the last scan (/proc/PID/task).");
static const struct ptk_metric m_pcpu =
	COUNTER("ptk_process_cpu_seconds_total", "seconds", PTK_V_F64,
		"CPU time of a top-N process (by CPU over the last scan interval), user + system "
		"(/proc/PID/stat utime + stime / USER_HZ).");
static const struct ptk_metric m_prss =
	GAUGE("ptk_process_resident_memory_bytes", "bytes", PTK_V_U64,
	      "Resident set size of a top-N process (/proc/PID/stat rss x page size).");
static const struct ptk_metric m_pthreads =
	GAUGE("ptk_process_threads", "", PTK_V_U64,
	      "Threads of a top-N process (/proc/PID/stat num_threads).");
static const struct ptk_metric m_prd =
	COUNTER("ptk_process_read_bytes_total", "bytes", PTK_V_U64,
		"Bytes a top-N process caused to be read from block devices (/proc/PID/io "
		"read_bytes; absent when unreadable).");
static const struct ptk_metric m_pwr =
	COUNTER("ptk_process_written_bytes_total", "bytes", PTK_V_U64,
		"Bytes a top-N process caused to be written to block devices (/proc/PID/io "
		"write_bytes; absent when unreadable).");
static const struct ptk_metric m_pstart =
	GAUGE("ptk_process_start_time_seconds", "seconds", PTK_V_F64,
	      "Start time of a top-N process, unixtime (/proc/stat btime + /proc/PID/stat "
	      "starttime / USER_HZ).");
#undef GAUGE
#undef COUNTER

/* ---- state -------------------------------------------------------------------------------- */
struct tgroup {
	char process[64]; /* comm of the thread group leader */
	char group[64]; /* ptk_pool_name() of the thread's comm */
	u64 csw; /* switches counted since first seen */
	int threads; /* at the last scan */
	double created; /* epoch s, first seen */
};

struct proc_row {
	int pid;
	char comm[64];
	char cmdline[256]; /* only with --expose-cmdline */
	double cpu_s, start_s;
	u64 rss_bytes, threads, rd, wr;
	bool io_ok;
};

/* A rendered exposition, shared by the responses of the scrapes that wait for it. */
struct body {
	int refs; /* atomic */
	struct ptk_prom out[2]; /* [PTK_PROM_TEXT], [PTK_PROM_OPENMETRICS] */
};

/* Per-request state of a /metrics scrape, suspended until its collection is done. */
struct req {
	struct MHD_Connection *conn;
	struct body *b; /* set by the collector, then the connection is resumed */
	struct req *next;
};

struct exporter {
	struct ptk_ctx *ctx;
	bool on[CL_N];
	int nproc; /* --processes */
	bool cmdline; /* --expose-cmdline */
	double scan_s, window_s;
	long hz;
	long pagesz;
	double start_wall; /* epoch s */
	struct ptk_cpuwatch *watch;
	int err_watch;
	volatile int quit;

	/* scrapes waiting (suspended) for the next collection; one collector thread serves
	 * them in batches: every scrape that arrived during a collection gets the next one */
	pthread_mutex_t flight;
	pthread_cond_t wake;
	pthread_cond_t park; /* worker threads that are done wait here until exit */
	int parked;
	struct req *pending;
	bool first_scrape_done; /* replay: later collections move to the next snapshot */
	u64 nscrapes, ncollections; /* collector thread only */

	/* results of the background threads, under data */
	pthread_mutex_t data;
	struct tgroup *tg;
	int ntg, captg;
	bool tg_ok;
	struct proc_row *procs;
	int nprocs;
	bool procs_ok;
	struct ptk_use_verdict verdicts[MAX_VERDICTS];
	int nverdicts; /* < 0: no result yet */
	double verdict_ts, verdict_window;

	/* scanner state (scanner thread, or the collection in replay) */
	struct ptk_ptab thr[2], prc[2];
	int cur;
	double prev_up; /* uptime at the previous scan, -1 none */
	bool scanned;
	struct ptk_ctx check_ctx; /* the check thread's own context */
};

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- thread groups and processes ------------------------------------------------------ */
static int tg_cmp(const void *a, const void *b)
{
	const struct tgroup *x = a, *y = b;
	int c = strcmp(x->process, y->process);

	return c ? c : strcmp(x->group, y->group);
}

/* The group of (process, group), created (csw 0) when new. Caller holds data. */
static struct tgroup *tg_get(struct exporter *ex, const char *process, const char *group,
			     double now)
{
	struct tgroup key;
	int lo = 0, hi = ex->ntg;

	snprintf(key.process, sizeof(key.process), "%s", process);
	snprintf(key.group, sizeof(key.group), "%s", group);
	while (lo < hi) {
		int mid = (lo + hi) / 2, c = tg_cmp(&key, &ex->tg[mid]);
		if (c == 0)
			return &ex->tg[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (ex->ntg >= MAX_GROUPS && strcmp(process, "(other)"))
		return tg_get(ex, "(other)", "(other)", now);
	if (ex->ntg == ex->captg) {
		ex->captg = ex->captg ? ex->captg * 2 : 64;
		ex->tg = xrealloc(ex->tg, ex->captg * sizeof(*ex->tg));
	}
	memmove(&ex->tg[lo + 1], &ex->tg[lo], (ex->ntg - lo) * sizeof(*ex->tg));
	ex->ntg++;
	key.csw = 0;
	key.threads = 0;
	key.created = now;
	ex->tg[lo] = key;
	return &ex->tg[lo];
}

/* The row with this pid in a scan sorted by pid, or NULL. */
static const struct ptk_task *find_pid(const struct ptk_ptab *pt, int pid)
{
	int lo = 0, hi = pt->n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (pt->t[mid].pid == pid)
			return &pt->t[mid];
		if (pt->t[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Switches of one thread since the previous scan: the counter delta, its whole count when it
 * was born after that scan, 0 at the first scan (the baseline). */
static u64 thread_delta(const struct exporter *ex, const struct ptk_ptab *prev,
			const struct ptk_task *t)
{
	u64 now = t->vol_ctxt + t->nonvol_ctxt;
	const struct ptk_task *p;

	if (!ex->scanned)
		return 0;
	p = ptk_ptab_find(prev, t->pid, t->starttime);
	if (p)
		return ptk_delta(p->vol_ctxt + p->nonvol_ctxt, now);
	if (ex->prev_up >= 0 && (double)t->starttime / ex->hz >= ex->prev_up)
		return now;
	return 0;
}

static void merge_threads(struct exporter *ex, const struct ptk_ptab *prev,
			  const struct ptk_ptab *cur, double now)
{
	char group[64];

	for (int i = 0; i < ex->ntg; i++)
		ex->tg[i].threads = 0;
	for (int i = 0; i < cur->n; i++) {
		const struct ptk_task *t = &cur->t[i];
		const struct ptk_task *leader = find_pid(cur, t->tgid);
		if (!t->status_ok)
			continue;
		ptk_pool_name(t->comm, 0, group, sizeof(group));
		struct tgroup *g = tg_get(ex, leader ? leader->comm : t->comm, group, now);
		g->csw += thread_delta(ex, prev, t);
		g->threads++;
	}
	/* a group whose threads are all gone ends its series */
	int k = 0;
	for (int i = 0; i < ex->ntg; i++)
		if (ex->tg[i].threads > 0)
			ex->tg[k++] = ex->tg[i];
	ex->ntg = k;
}

struct prank {
	const struct ptk_task *t;
	double cpu;
};

static int prank_cmp(const void *a, const void *b)
{
	const struct prank *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? 1 : -1;
	return x->t->pid - y->t->pid;
}

/* Top --processes N by CPU over the last interval (the first scan: by CPU since start). */
static void rank_processes(struct exporter *ex, const struct ptk_ptab *prev,
			   const struct ptk_ptab *cur, double itv_s, u64 btime)
{
	struct ptk_task_rate *tr = xcalloc(cur->n ? cur->n : 1, sizeof(*tr));
	struct prank *rk = xcalloc(cur->n ? cur->n : 1, sizeof(*rk));
	int n = 0;

	if (ex->scanned && itv_s > 0)
		ptk_task_rates(prev, cur, itv_s, ex->hz, ex->prev_up, 4096, tr);
	for (int i = 0; i < cur->n; i++) {
		rk[n].t = &cur->t[i];
		rk[n].cpu =
			tr[i].valid ? tr[i].cpu_pct : (double)(cur->t[i].utime + cur->t[i].stime);
		if (!ex->scanned || itv_s <= 0)
			rk[n].cpu = (double)(cur->t[i].utime + cur->t[i].stime);
		n++;
	}
	qsort(rk, n, sizeof(*rk), prank_cmp);
	n = MIN(n, ex->nproc);
	struct proc_row *rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (int i = 0; i < n; i++) {
		const struct ptk_task *t = rk[i].t;
		struct proc_row *r = &rows[i];
		r->pid = t->pid;
		snprintf(r->comm, sizeof(r->comm), "%s", t->comm);
		if (ex->cmdline)
			snprintf(r->cmdline, sizeof(r->cmdline), "%s", t->cmdline);
		r->cpu_s = (double)(t->utime + t->stime) / ex->hz;
		r->start_s = btime ? btime + (double)t->starttime / ex->hz : -1;
		r->rss_bytes = t->rss_pages * (u64)ex->pagesz;
		r->threads = t->nthreads;
		r->io_ok = t->io_ok;
		r->rd = t->read_bytes;
		r->wr = t->write_bytes;
	}
	pthread_mutex_lock(&ex->data);
	free(ex->procs);
	ex->procs = rows;
	ex->nprocs = n;
	ex->procs_ok = true;
	pthread_mutex_unlock(&ex->data);
	free(tr);
	free(rk);
}

/* One scan of the process table: thread groups and/or the top-N processes. */
static void scan_once(struct exporter *ex)
{
	const struct ptk_src *src = &ex->ctx->src;
	struct ptk_uptime up;
	struct ptk_stat st = { 0 };
	double now = wall_now(), up_s = ptk_uptime_read(src, &up) ? -1 : up.up_s;
	int prev = ex->cur, cur = !ex->cur;
	u64 btime = ptk_stat_read(src, &st) ? 0 : st.btime;

	ptk_stat_free(&st);
	if (ex->on[CL_THREADS]) {
		int r = ptk_ptab_scan(src, PTK_PT_THREADS | PTK_PT_STATUS, &ex->thr[cur]);
		pthread_mutex_lock(&ex->data);
		ex->tg_ok = r == 0;
		if (r == 0)
			merge_threads(ex, &ex->thr[prev], &ex->thr[cur], now);
		pthread_mutex_unlock(&ex->data);
	}
	if (ex->on[CL_PROCESSES]) {
		unsigned fl = PTK_PT_IO | (ex->cmdline ? PTK_PT_CMDLINE : 0);
		if (ptk_ptab_scan(src, fl, &ex->prc[cur]) == 0)
			rank_processes(ex, &ex->prc[prev], &ex->prc[cur],
				       ex->prev_up >= 0 && up_s >= 0 ? up_s - ex->prev_up : 0,
				       btime);
	}
	ex->cur = cur;
	ex->prev_up = up_s;
	ex->scanned = true;
}

/*
 * The end of a worker thread. The /proc readers keep one thread-local buffer each (static
 * __thread in source/procfs), which a thread that exits would leak; the workers live as long
 * as the process, so at shutdown they report being done and wait here until it exits.
 */
static void park(struct exporter *ex)
{
	pthread_mutex_lock(&ex->flight);
	ex->parked++;
	pthread_cond_broadcast(&ex->wake);
	for (;;)
		pthread_cond_wait(&ex->park, &ex->flight);
}

static void *scanner_main(void *arg)
{
	struct exporter *ex = arg;
	u64 next = ptk_now_ns();

	while (!ex->quit) {
		scan_once(ex);
		next += (u64)(ex->scan_s * 1e9);
		if (next < ptk_now_ns())
			next = ptk_now_ns();
		/* short sleeps so a shutdown is seen within 100 ms */
		while (!ex->quit && ptk_now_ns() < next)
			ptk_sleep_until(MIN(next, ptk_now_ns() + 100000000ull), &ex->quit);
	}
	park(ex);
	return NULL;
}

static void *checker_main(void *arg)
{
	struct exporter *ex = arg;
	struct ptk_use_verdict v[MAX_VERDICTS];

	while (!ex->quit) {
		int n = ptk_use_verdicts(&ex->check_ctx.src, &ex->check_ctx.stop, ex->window_s,
					 ex->watch, v, MAX_VERDICTS);
		if (ex->quit)
			break;
		pthread_mutex_lock(&ex->data);
		if (n >= 0)
			memcpy(ex->verdicts, v, n * sizeof(v[0]));
		ex->nverdicts = n;
		ex->verdict_ts = wall_now();
		ex->verdict_window = ex->window_s;
		pthread_mutex_unlock(&ex->data);
		if (n < 0) /* /proc/stat unreadable: retry after a window */
			ptk_sleep_until(ptk_now_ns() + (u64)(ex->window_s * 1e9), &ex->quit);
	}
	park(ex);
	return NULL;
}

/* ---- collection: one exposition ------------------------------------------------------------ */
/* Render one sample into both formats. */
static void both_sample(struct body *b, const struct ptk_metric *m, const char *const *labels,
			struct ptk_val v, double created)
{
	for (int f = 0; f < 2; f++) {
		b->out[f].created = created;
		ptk_prom_sample(&b->out[f], m, labels, &v);
	}
}

static void both_family(struct body *b, const struct ptk_metric *m)
{
	for (int f = 0; f < 2; f++)
		ptk_prom_family(&b->out[f], m);
}

static bool disk_exported(const struct ptk_disk *d)
{
	static const char *const skip[] = { "ram", "loop", "fd" };

	if (d->is_partition)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++) {
		size_t n = strlen(skip[i]);
		if (!strncmp(d->name, skip[i], n) && d->name[n] >= '0' && d->name[n] <= '9')
			return false; /* node_exporter's default device-exclude */
	}
	return true;
}

static void collect_cpu(struct exporter *ex, struct body *b, const struct ptk_stat *st,
			double btime)
{
	static const char *const mode[] = { "user",   "nice", "system",	 "idle",
					    "iowait", "irq",  "softirq", "steal" };
	char cpu[16];

	both_family(b, &m_cpu);
	for (int c = 0; c < st->ncpu; c++) {
		if (!st->present[c])
			continue;
		snprintf(cpu, sizeof(cpu), "%d", c);
		for (int k = 0; k < (int)ARRAY_SIZE(mode); k++) {
			const char *lab[] = { "cpu", cpu, "mode", mode[k], NULL };
			both_sample(b, &m_cpu, lab, PTK_F((double)st->cpu[c].t[k] / ex->hz), btime);
		}
	}
	both_family(b, &m_cpu_guest);
	for (int c = 0; c < st->ncpu; c++) {
		if (!st->present[c])
			continue;
		snprintf(cpu, sizeof(cpu), "%d", c);
		const char *lu[] = { "cpu", cpu, "mode", "user", NULL };
		const char *ln[] = { "cpu", cpu, "mode", "nice", NULL };
		both_sample(b, &m_cpu_guest, lu,
			    PTK_F((double)st->cpu[c].t[PTK_CPU_GUEST] / ex->hz), btime);
		both_sample(b, &m_cpu_guest, ln,
			    PTK_F((double)st->cpu[c].t[PTK_CPU_GUEST_NICE] / ex->hz), btime);
	}
}

static void collect_runqlat(struct exporter *ex, struct body *b,
			    const struct ptk_cpuwatch_result *w)
{
	enum { NB = 27 }; /* le = 2 us ... 134 s; slower wakeups only in +Inf */
	double le[NB], sum = 0;
	u64 cum[NB], run = 0, total = ptk_hist_total(&w->runq);

	for (int i = 0; i < PTK_HIST_SLOTS; i++) {
		u64 lo, hi;
		ptk_hist_bounds(&w->runq, i, &lo, &hi);
		sum += w->runq.slot[i] * ((double)lo + (double)hi) / 2.0 / 1e6;
		if (i < NB) {
			run += w->runq.slot[i];
			cum[i] = run;
			le[i] = ldexp(1.0, i + 1) / 1e6; /* slot i holds [2^i, 2^(i+1)) us */
		}
	}
	for (int f = 0; f < 2; f++) {
		b->out[f].created = ex->start_wall;
		ptk_prom_histogram(&b->out[f], &m_runq, NULL, le, cum, NB, sum, total);
	}
	both_family(b, &m_shortlived);
	both_sample(b, &m_shortlived, NULL, PTK_U(w->shortlived), ex->start_wall);
	both_family(b, PTK_M(OBS_BPF_RUN));
	both_sample(b, PTK_M(OBS_BPF_RUN), NULL,
		    w->bpf_run_ns ? PTK_F(w->bpf_run_ns / 1e9) : PTK_NA, ex->start_wall);
}

static void collect_background(struct exporter *ex, struct body *b, bool *ok)
{
	char pid[16];

	pthread_mutex_lock(&ex->data);
	if (ex->on[CL_THREADS]) {
		ok[CL_THREADS] = ex->tg_ok;
		both_family(b, &m_tg_csw);
		for (int i = 0; i < ex->ntg; i++) {
			const char *lab[] = { "process", ex->tg[i].process, "group",
					      ex->tg[i].group, NULL };
			both_sample(b, &m_tg_csw, lab, PTK_U(ex->tg[i].csw), ex->tg[i].created);
		}
		both_family(b, &m_tg_threads);
		for (int i = 0; i < ex->ntg; i++) {
			const char *lab[] = { "process", ex->tg[i].process, "group",
					      ex->tg[i].group, NULL };
			both_sample(b, &m_tg_threads, lab, PTK_U(ex->tg[i].threads), -1);
		}
	}
	if (ex->on[CL_PROCESSES]) {
		static const struct ptk_metric *const pm[] = { &m_pcpu, &m_prss, &m_pthreads,
							       &m_prd,	&m_pwr,	 &m_pstart };
		ok[CL_PROCESSES] = ex->procs_ok;
		for (size_t k = 0; k < ARRAY_SIZE(pm); k++) {
			both_family(b, pm[k]);
			for (int i = 0; i < ex->nprocs; i++) {
				const struct proc_row *r = &ex->procs[i];
				const char *lab[] = { "pid",
						      pid,
						      "comm",
						      r->comm,
						      ex->cmdline ? "cmdline" : NULL,
						      r->cmdline,
						      NULL };
				struct ptk_val v = PTK_NA;
				snprintf(pid, sizeof(pid), "%d", r->pid);
				if (pm[k] == &m_pcpu)
					v = PTK_F(r->cpu_s);
				else if (pm[k] == &m_prss)
					v = PTK_U(r->rss_bytes);
				else if (pm[k] == &m_pthreads)
					v = PTK_U(r->threads);
				else if (pm[k] == &m_prd && r->io_ok)
					v = PTK_U(r->rd);
				else if (pm[k] == &m_pwr && r->io_ok)
					v = PTK_U(r->wr);
				else if (pm[k] == &m_pstart && r->start_s >= 0)
					v = PTK_F(r->start_s);
				both_sample(b, pm[k], lab, v, r->start_s);
			}
		}
	}
	if (ex->on[CL_CHECK]) {
		static const char *const res[] = { "cpu", "memory", "disk", "network", "kernel" };
		ok[CL_CHECK] = ex->nverdicts >= 0;
		both_family(b, PTK_M(CHECK_VERDICT));
		for (size_t k = 0; ex->nverdicts >= 0 && k < ARRAY_SIZE(res); k++) {
			int worst = -1;
			for (int i = 0; i < ex->nverdicts; i++)
				if (!strcmp(ex->verdicts[i].resource, res[k]))
					worst = MAX(worst, (int)ex->verdicts[i].verdict);
			const char *lab[] = { "resource", res[k], NULL };
			both_sample(b, PTK_M(CHECK_VERDICT), lab,
				    worst >= 0 ? PTK_U(worst) : PTK_NA, -1);
		}
		both_family(b, PTK_M(CHECK_WINDOW));
		both_sample(b, PTK_M(CHECK_WINDOW), NULL,
			    ex->nverdicts >= 0 ? PTK_F(ex->verdict_window) : PTK_NA, -1);
		both_family(b, PTK_M(CHECK_LAST_RUN));
		both_sample(b, PTK_M(CHECK_LAST_RUN), NULL,
			    ex->nverdicts >= 0 ? PTK_F(ex->verdict_ts) : PTK_NA, -1);
	}
	pthread_mutex_unlock(&ex->data);
}

static struct body *collect(struct exporter *ex)
{
	const struct ptk_src *src = &ex->ctx->src;
	struct body *b = xcalloc(1, sizeof(*b));
	bool ok[CL_N] = { false };
	u64 t0 = ptk_now_ns();
	double btime = -1;

	b->refs = 1;
	ptk_prom_init(&b->out[PTK_PROM_TEXT], PTK_PROM_TEXT);
	ptk_prom_init(&b->out[PTK_PROM_OPENMETRICS], PTK_PROM_OPENMETRICS);

	if (ex->on[CL_CPU] || ex->on[CL_STAT]) {
		struct ptk_stat st = { 0 };
		if (ptk_stat_read(src, &st) == 0) {
			btime = st.btime;
			if (ex->on[CL_CPU]) {
				collect_cpu(ex, b, &st, btime);
				ok[CL_CPU] = true;
			}
			if (ex->on[CL_STAT]) {
				both_family(b, &m_btime);
				both_sample(b, &m_btime, NULL, PTK_U(st.btime), -1);
				both_family(b, &m_ctxt);
				both_sample(b, &m_ctxt, NULL, PTK_U(st.ctxt), btime);
				both_family(b, &m_forks);
				both_sample(b, &m_forks, NULL, PTK_U(st.processes), btime);
				both_family(b, &m_intr);
				both_sample(b, &m_intr, NULL, PTK_U(st.intr), btime);
				both_family(b, &m_running);
				both_sample(b, &m_running, NULL, PTK_U(st.procs_running), -1);
				both_family(b, &m_blocked);
				both_sample(b, &m_blocked, NULL, PTK_U(st.procs_blocked), -1);
				ok[CL_STAT] = true;
			}
		}
		ptk_stat_free(&st);
	}
	if (ex->on[CL_LOADAVG]) {
		struct ptk_loadavg la;
		if (ptk_loadavg_read(src, &la) == 0) {
			double l[3] = { la.load1, la.load5, la.load15 };
			for (int i = 0; i < 3; i++) {
				both_family(b, &m_load[i]);
				both_sample(b, &m_load[i], NULL, PTK_F(l[i]), -1);
			}
			ok[CL_LOADAVG] = true;
		}
	}
	if (ex->on[CL_MEMINFO]) {
		struct ptk_meminfo mi;
		if (ptk_meminfo_read(src, &mi) == 0) {
			for (int i = 0; i < PTK_MI_NFIELDS; i++) {
				u64 scale = strcmp(ptk_meminfo_fields[i].unit, "kB") ? 1 : 1024;
				/* absent, or MemAvailable's estimate: not node_exporter's */
				if (!ptk_meminfo_has(&mi, i))
					continue;
				both_family(b, &mi_m[i]);
				both_sample(b, &mi_m[i], NULL,
					    PTK_U(ptk_meminfo_get(&mi, i) * scale), -1);
			}
			/* what check judges and free shows, the estimate labelled as free flags it */
			const char *lab[] = { "estimated", mi.has_available ? "false" : "true",
					      NULL };
			both_family(b, PTK_M(CHECK_AVAILABLE_BYTES));
			both_sample(b, PTK_M(CHECK_AVAILABLE_BYTES), lab,
				    PTK_U(mi.mem_available * 1024), -1);
			ok[CL_MEMINFO] = true;
		}
	}
	if (ex->on[CL_VMSTAT]) {
		struct ptk_vmstat vm;
		if (ptk_vmstat_read(src, &vm) == 0) {
			for (int i = 0; i < PTK_VM_NFIELDS; i++) {
				if (!vm_exported(i) || !ptk_vmstat_has(&vm, i))
					continue;
				both_family(b, &vm_m[i]);
				both_sample(b, &vm_m[i], NULL, PTK_U(ptk_vmstat_get(&vm, i)), -1);
			}
			ok[CL_VMSTAT] = true;
		}
	}
	if (ex->on[CL_DISKSTATS]) {
		struct ptk_diskstats ds = { 0 };
		if (ptk_diskstats_read(src, &ds) == 0) {
			for (size_t k = 0; k < ARRAY_SIZE(disk_families); k++) {
				const struct disk_family *f = &disk_families[k];
				both_family(b, &f->m);
				for (int i = 0; i < ds.n; i++) {
					const struct ptk_disk *d = &ds.d[i];
					const char *lab[] = { "device", d->name, NULL };
					struct ptk_val v = PTK_NA;
					if (!disk_exported(d) || d->nfields < f->min_fields)
						continue;
					if (f->m.type == PTK_V_F64)
						v = PTK_F(d->f[f->field] * f->scale);
					else
						v = PTK_U(d->f[f->field] * (u64)f->scale);
					both_sample(b, &f->m, lab, v, btime);
				}
			}
			ok[CL_DISKSTATS] = true;
		}
		ptk_diskstats_free(&ds);
	}
	if (ex->on[CL_NETDEV]) {
		struct ptk_netdevs nd = { 0 };
		if (ptk_netdev_read(src, &nd) == 0) {
			for (size_t k = 0; k < ARRAY_SIZE(net_families); k++) {
				const struct net_family *f = &net_families[k];
				both_family(b, &f->m);
				for (int i = 0; i < nd.n; i++) {
					const char *lab[] = { "device", nd.d[i].name, NULL };
					if (!strcmp(nd.d[i].name, "lo"))
						continue; /* as node_exporter's default */
					both_sample(b, &f->m, lab, PTK_U(nd.d[i].f[f->field]), -1);
				}
			}
			ok[CL_NETDEV] = true;
		}
		ptk_netdev_free(&nd);
	}
	if (ex->on[CL_PRESSURE]) {
		struct ptk_psi psi[PTK_PSI_NRES];
		int err[PTK_PSI_NRES];
		for (int i = 0; i < PTK_PSI_NRES; i++)
			err[i] = ptk_psi_read(src, i, &psi[i]);
		for (size_t k = 0; k < ARRAY_SIZE(psi_families); k++) {
			const struct psi_family *f = &psi_families[k];
			const struct ptk_psi_line *l =
				f->full ? &psi[f->res].full : &psi[f->res].some;
			if (err[f->res] || !l->present)
				continue;
			both_family(b, &f->m);
			both_sample(b, &f->m, NULL, PTK_F(l->total_us / 1e6), btime);
		}
		ok[CL_PRESSURE] = !err[0] && !err[1] && !err[2];
	}
	if (ex->on[CL_NETSTAT]) {
		struct ptk_kvs kvs = { 0 };
		if (ptk_netsnmp_read(src, &kvs) == 0) {
			for (size_t k = 0; k < ARRAY_SIZE(netstat_families); k++) {
				const struct netstat_family *f = &netstat_families[k];
				s64 v;
				/* a counter this kernel lacks is absent, never 0 */
				if (!ptk_kvs_get(&kvs, f->key, &v))
					continue;
				both_family(b, &f->m);
				both_sample(b, &f->m, NULL, PTK_U((u64)v), -1);
			}
			ok[CL_NETSTAT] = true;
		}
		ptk_kvs_free(&kvs);
	}
	if (ex->on[CL_RUNQLAT] && ex->watch) {
		struct ptk_cpuwatch_result w;
		if (ptk_cpuwatch_read(ex->watch, &w) == 0) {
			collect_runqlat(ex, b, &w);
			ok[CL_RUNQLAT] = true;
		}
	}
	if (src->replay && (ex->on[CL_THREADS] || ex->on[CL_PROCESSES]))
		scan_once(ex); /* replay: one scan per scrape, deltas between snapshots */
	collect_background(ex, b, ok);

	both_family(b, PTK_M(OBS_SUCCESS));
	for (int i = 0; i < CL_N; i++) {
		const char *lab[] = { "collector", coll_name[i], NULL };
		if (ex->on[i])
			both_sample(b, PTK_M(OBS_SUCCESS), lab, PTK_U(ok[i]), -1);
	}
	both_family(b, PTK_M(OBS_SCRAPES));
	both_sample(b, PTK_M(OBS_SCRAPES), NULL, PTK_U(ex->nscrapes), ex->start_wall);
	both_family(b, PTK_M(OBS_COLLECTIONS));
	both_sample(b, PTK_M(OBS_COLLECTIONS), NULL, PTK_U(ex->ncollections), ex->start_wall);
	both_family(b, PTK_M(OBS_SCRAPE));
	both_sample(b, PTK_M(OBS_SCRAPE), NULL, PTK_F((ptk_now_ns() - t0) / 1e9), -1);
	ptk_prom_end(&b->out[0]);
	ptk_prom_end(&b->out[1]);
	return b;
}

static void body_unref(struct body *b)
{
	if (b && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		ptk_prom_free(&b->out[0]);
		ptk_prom_free(&b->out[1]);
		free(b);
	}
}

/*
 * The collector thread: waits for suspended scrapes, takes all of them, collects once for the
 * batch (after every one of them arrived, so no scrape gets data older than its request) and
 * resumes them. At shutdown it serves what is pending, then returns.
 */
static void *collector_main(void *arg)
{
	struct exporter *ex = arg;

	for (;;) {
		struct req *batch;

		pthread_mutex_lock(&ex->flight);
		while (!ex->pending && !ex->quit)
			pthread_cond_wait(&ex->wake, &ex->flight);
		batch = ex->pending;
		ex->pending = NULL;
		pthread_mutex_unlock(&ex->flight);
		if (!batch)
			break; /* quit, nothing pending */
		if (ex->ctx->src.replay) {
			if (ex->first_scrape_done && ptk_src_remaining(&ex->ctx->src) > 1)
				ptk_src_next(&ex->ctx->src);
			ex->first_scrape_done = true;
		}
		for (struct req *r = batch; r; r = r->next)
			ex->nscrapes++;
		ex->ncollections++;
		struct body *b = collect(ex);
		while (batch) {
			struct req *r = batch;
			batch = r->next; /* r may be freed once resumed */
			__atomic_add_fetch(&b->refs, 1, __ATOMIC_ACQ_REL);
			r->b = b;
			MHD_resume_connection(r->conn);
		}
		body_unref(b);
	}
	park(ex);
	return NULL;
}

/* ---- HTTP -------------------------------------------------------------------------------- */
static void response_free(void *cls)
{
	body_unref(cls);
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned status, const char *text,
				  const char *allow)
{
	struct MHD_Response *rsp =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result r;

	if (!rsp)
		return MHD_NO;
	MHD_add_response_header(rsp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(rsp, MHD_HTTP_HEADER_ALLOW, allow);
	r = MHD_queue_response(conn, status, rsp);
	MHD_destroy_response(rsp);
	return r;
}

static const char landing[] =
	"<html><head><title>ptk exporter</title></head><body><h1>ptk exporter</h1>"
	"<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct exporter *ex = cls;
	struct MHD_Response *rsp;
	enum MHD_Result r;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "405 method not allowed\n",
				  "GET, HEAD");
	if (*upload_size) /* a GET with a body: not ours to read */
		return reply_text(conn, MHD_HTTP_BAD_REQUEST, "400 bad request\n", NULL);
	if (!strcmp(url, "/")) {
		rsp = MHD_create_response_from_buffer(sizeof(landing) - 1, (void *)landing,
						      MHD_RESPMEM_PERSISTENT);
		if (!rsp)
			return MHD_NO;
		MHD_add_response_header(rsp, MHD_HTTP_HEADER_CONTENT_TYPE,
					"text/html; charset=utf-8");
		r = MHD_queue_response(conn, MHD_HTTP_OK, rsp);
		MHD_destroy_response(rsp);
		return r;
	}
	if (strcmp(url, "/metrics"))
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "404 not found\n", NULL);

	struct req *rq = *con_cls;
	if (!rq) {
		/* first call: wait (suspended, no thread held) for the next collection */
		rq = xcalloc(1, sizeof(*rq));
		rq->conn = conn;
		*con_cls = rq;
		pthread_mutex_lock(&ex->flight);
		if (ex->quit) {
			pthread_mutex_unlock(&ex->flight);
			return reply_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "503 shutting down\n",
					  NULL);
		}
		rq->next = ex->pending;
		ex->pending = rq;
		MHD_suspend_connection(conn); /* before the collector can see rq: under the lock */
		pthread_cond_signal(&ex->wake);
		pthread_mutex_unlock(&ex->flight);
		return MHD_YES;
	}
	enum ptk_prom_fmt fmt = ptk_prom_negotiate(
		MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	struct body *b = rq->b;
	rq->b = NULL; /* the response owns the reference now */
	if (!b)
		return MHD_NO;
	rsp = MHD_create_response_from_buffer_with_free_callback_cls(
		b->out[fmt].len, b->out[fmt].buf, response_free, b);
	if (!rsp) {
		body_unref(b);
		return MHD_NO;
	}
	MHD_add_response_header(rsp, MHD_HTTP_HEADER_CONTENT_TYPE, ptk_prom_content_type(fmt));
	r = MHD_queue_response(conn, MHD_HTTP_OK, rsp);
	MHD_destroy_response(rsp);
	return r;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct req *rq = *con_cls;

	if (rq) {
		body_unref(rq->b);
		free(rq);
		*con_cls = NULL;
	}
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	/* libmicrohttpd's own messages (a client closing early, a request too large) are the
	 * client's business, not the operator's: dropped */
}

/* "HOST:PORT", ":PORT" (every IPv4 interface), "[V6]:PORT". 0 or -EINVAL. */
static int parse_listen(const char *s, struct sockaddr_storage *ss, bool *v6)
{
	char host[256];
	const char *colon = strrchr(s, ':');
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV },
			*ai = NULL;
	int port;

	if (!colon || ptk_parse_int(colon + 1, &port) || port < 0 || port > 65535)
		return -EINVAL;
	size_t n = colon - s;
	if (n && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (!n)
		hints.ai_family = AF_INET;
	if (getaddrinfo(n ? host : NULL, colon + 1, &hints, &ai) || !ai)
		return -EINVAL;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*v6 = ai->ai_family == AF_INET6;
	freeaddrinfo(ai);
	return 0;
}

/* --collectors LIST: "a,b" exactly these; "+a,-b" the defaults with a added, b removed. */
static int parse_collectors(const char *list, bool *on)
{
	char *dup = xstrdup(list), *save = NULL;
	bool first = true;
	int r = 0;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool add = *tok != '-';
		const char *name = (*tok == '+' || *tok == '-') ? tok + 1 : tok;
		int k;
		if (first && *tok != '+' && *tok != '-')
			memset(on, 0, CL_N * sizeof(*on));
		first = false;
		if (!strcmp(name, "all")) {
			for (k = 0; k < CL_N; k++)
				on[k] = add;
			continue;
		}
		for (k = 0; k < CL_N && strcmp(name, coll_name[k]); k++)
			;
		if (k == CL_N) {
			r = -EINVAL;
			break;
		}
		on[k] = add;
	}
	free(dup);
	return r;
}

static const char usage[] =
	"usage: ptk exporter [--listen HOST:PORT] [--collectors LIST] [--processes N]\n"
	"                    [--expose-cmdline] [--scan-interval S] [--check-window S]\n"
	"                    [--threads N]\n"
	"Serve this machine's metrics for Prometheus at http://HOST:PORT/metrics: the text\n"
	"exposition format, or OpenMetrics when the Accept header asks for\n"
	"application/openmetrics-text. node_exporter's names where it has the metric\n"
	"(node_cpu_seconds_total, node_memory_*_bytes, node_disk_*, node_network_*,\n"
	"node_pressure_*, node_load*, node_vmstat_*), ptk_* for the rest: the run-queue latency\n"
	"histogram (BPF), context switches per thread group, top-N processes, ptk check verdicts.\n"
	"  --listen A     address to bind (default " DEFAULT_LISTEN ", loopback only);\n"
	"                 ':PORT' = every IPv4 interface, '[::]:PORT' IPv6; port 0 = any free\n"
	"  --collectors L comma-separated collectors: exactly these, or '+name'/'-name' to\n"
	"                 add to/remove from the defaults ('all' = every one). Collectors: cpu\n"
	"                 stat loadavg meminfo vmstat diskstats netdev pressure runqlat threads\n"
	"                 processes check; default all but processes\n"
	"  --processes N  export the top N processes by CPU (ptk_process_*; enables the\n"
	"                 processes collector; at most 1000)\n"
	"  --expose-cmdline  add a cmdline label to ptk_process_* (off: command lines and\n"
	"                 environments are never exposed)\n"
	"  --scan-interval S  process-table scan period for threads/processes (default 5)\n"
	"  --check-window S   ptk check window for ptk_check_verdict (default 60)\n"
	"  --threads N    HTTP worker threads (default 4)\n"
	"Stops on SIGINT/SIGTERM. Exit status: 0 after a clean stop, 1 on a runtime error\n"
	"(cannot bind), 2 on a usage error.\n";

enum { O_LISTEN = 0x100, O_COLL, O_PROCS, O_CMDLINE, O_SCAN, O_WINDOW, O_THREADS };

int cmd_exporter(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "listen", required_argument, NULL, O_LISTEN },
					      { "collectors", required_argument, NULL, O_COLL },
					      { "processes", required_argument, NULL, O_PROCS },
					      { "expose-cmdline", no_argument, NULL, O_CMDLINE },
					      { "scan-interval", required_argument, NULL, O_SCAN },
					      { "check-window", required_argument, NULL, O_WINDOW },
					      { "threads", required_argument, NULL, O_THREADS },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct exporter *ex = xcalloc(1, sizeof(*ex));
	const char *listen = DEFAULT_LISTEN, *coll = NULL;
	struct sockaddr_storage ss = { 0 };
	pthread_t scanner, checker, collector; /* never joined: see park() */
	bool have_scanner = false, have_checker = false, have_collector = false, v6 = false;
	struct MHD_Daemon *d = NULL;
	MHD_socket lsock = MHD_INVALID_SOCKET;
	int c, r, nthreads = 4;
	sigset_t block, old;

	field_metrics_init();
	ex->ctx = ctx;
	ex->scan_s = 5;
	ex->window_s = 60;
	ex->nverdicts = -1;
	ex->prev_up = -1;
	for (int i = 0; i < CL_N; i++)
		ex->on[i] = i != CL_PROCESSES;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_LISTEN:
			listen = optarg;
			break;
		case O_COLL:
			coll = optarg;
			break;
		case O_PROCS:
			if (ptk_parse_int(optarg, &ex->nproc) || ex->nproc < 1 ||
			    ex->nproc > MAX_PROCESSES) {
				r = ptk_usage_error(ctx, "invalid --processes '%s' (1..%d)", optarg,
						    MAX_PROCESSES);
				goto out_free;
			}
			break;
		case O_CMDLINE:
			ex->cmdline = true;
			break;
		case O_SCAN:
		case O_WINDOW: {
			double v;
			if (ptk_parse_double(optarg, &v) || v < 0.1 || v > 86400) {
				r = ptk_usage_error(
					ctx, "invalid %s '%s'",
					c == O_SCAN ? "--scan-interval" : "--check-window", optarg);
				goto out_free;
			}
			*(c == O_SCAN ? &ex->scan_s : &ex->window_s) = v;
			break;
		}
		case O_THREADS:
			if (ptk_parse_int(optarg, &nthreads) || nthreads < 1 || nthreads > 64) {
				r = ptk_usage_error(ctx, "invalid --threads '%s' (1..64)", optarg);
				goto out_free;
			}
			break;
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				r = 0;
				goto out_free;
			}
			if (r < 0) {
				r = ptk_usage_error(ctx, "unknown option");
				goto out_free;
			}
		}
	}
	if (optind < argc) {
		r = ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
		goto out_free;
	}
	if (coll && parse_collectors(coll, ex->on)) {
		r = ptk_usage_error(ctx, "invalid --collectors '%s'", coll);
		goto out_free;
	}
	if (ex->nproc)
		ex->on[CL_PROCESSES] = true;
	else if (ex->on[CL_PROCESSES])
		ex->nproc = 10;
	if (parse_listen(listen, &ss, &v6)) {
		r = ptk_usage_error(ctx, "invalid --listen '%s' (HOST:PORT, :PORT, [V6]:PORT)",
				    listen);
		goto out_free;
	}
	if ((r = ptk_ctx_ready(ctx)))
		goto out_free;
	ex->hz = sysconf(_SC_CLK_TCK);
	ex->pagesz = sysconf(_SC_PAGESIZE);
	ex->start_wall = wall_now();
	pthread_mutex_init(&ex->flight, NULL);
	pthread_mutex_init(&ex->data, NULL);
	pthread_cond_init(&ex->wake, NULL);
	pthread_cond_init(&ex->park, NULL);

	bool live = ptk_src_is_live(&ctx->src) && !ctx->src.replay;
	if (ex->on[CL_RUNQLAT] || ex->on[CL_CHECK]) {
		ex->err_watch = live ? ptk_cpuwatch_start(&ex->watch) : -ENOTSUP;
		if (ex->err_watch && ex->on[CL_RUNQLAT])
			ptk_warn("runqlat collector off: BPF unavailable (%s)",
				 strerror(-ex->err_watch));
	}
	if (!live && ex->on[CL_CHECK]) {
		ptk_warn("check collector off: it needs the live kernel");
		ex->on[CL_CHECK] = false;
	}

	/* workers never take SIGINT/SIGTERM: the main thread does */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	have_collector = pthread_create(&collector, NULL, collector_main, ex) == 0;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			 MHD_ALLOW_SUSPEND_RESUME | (v6 ? MHD_USE_IPv6 : 0);
	/* clang-format off */
	d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, ex,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned)nthreads,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_TIMEOUT_S,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONN_LIMIT,
			     MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
			     MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
			     MHD_OPTION_END);
	/* clang-format on */
	if (d && !ctx->src.replay && (ex->on[CL_THREADS] || ex->on[CL_PROCESSES]))
		have_scanner = pthread_create(&scanner, NULL, scanner_main, ex) == 0;
	if (d && ex->on[CL_CHECK]) {
		ex->check_ctx = *ctx;
		ex->check_ctx.stop = 0;
		have_checker = pthread_create(&checker, NULL, checker_main, ex) == 0;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!d) {
		ptk_err("cannot listen on %s: %s", listen, strerror(errno ? errno : EADDRINUSE));
		r = PTK_EXIT_RUNTIME;
		goto out;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	char addr[INET6_ADDRSTRLEN] = "?";
	if (v6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, addr, sizeof(addr));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, addr, sizeof(addr));
	fprintf(stderr, "ptk exporter: listening on http://%s%s%s:%u/metrics\n", v6 ? "[" : "",
		addr, v6 ? "]" : "", info ? info->port : 0);

	while (!ctx->stop)
		ptk_sleep_until(ptk_now_ns() + 1000000000ull, &ctx->stop);
	r = 0;
out:
	/* stop accepting, let the collector answer the scrapes waiting for it, then stop the
	 * daemon (it must not hold suspended connections) */
	if (d)
		lsock = MHD_quiesce_daemon(d);
	pthread_mutex_lock(&ex->flight);
	ex->quit = 1;
	pthread_cond_broadcast(&ex->wake);
	pthread_mutex_unlock(&ex->flight);
	ex->check_ctx.stop = 1;
	pthread_mutex_lock(&ex->flight);
	while (ex->parked < have_collector + have_scanner + have_checker)
		pthread_cond_wait(&ex->wake, &ex->flight);
	pthread_mutex_unlock(&ex->flight);
	if (d)
		MHD_stop_daemon(d);
	if (lsock != MHD_INVALID_SOCKET)
		close(lsock);
	ptk_cpuwatch_stop(ex->watch);
	for (int i = 0; i < 2; i++) {
		ptk_ptab_free(&ex->thr[i]);
		ptk_ptab_free(&ex->prc[i]);
	}
	free(ex->tg);
	free(ex->procs);
	if (have_collector + have_scanner + have_checker)
		return r; /* ex stays: the parked workers wait on its lock until exit */
	pthread_mutex_destroy(&ex->flight);
	pthread_mutex_destroy(&ex->data);
	pthread_cond_destroy(&ex->wake);
	pthread_cond_destroy(&ex->park);
out_free:
	free(ex);
	return r;
}
