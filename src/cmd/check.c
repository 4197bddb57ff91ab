// SPDX-License-Identifier: GPL-2.0
/*
 * ptk check: the USE method (utilization, saturation, errors per resource) and the "first 60
 * seconds" checklist (uptime, dmesg, vmstat, mpstat, pidstat, iostat, free, sar -n DEV/TCP)
 * as one command. Samples for -d seconds, then gives each resource a verdict with its
 * evidence, the offending processes and the ptk command to run next.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/check.h"
#include "cmd/cmd.h"
#include "model/delta.h"
#include "model/ptask.h"
#include "output/archive.h"
#include "source/bpf/cpuwatch.h"
#include "source/procfs/pid.h"
#include "source/procfs/procfs.h"

/* ---- thresholds (documented in the usage text and ptk-check(1)) ----------------------- */
#define CPU_BUSY_WARN 70.0 /* % busy (not idle, not iowait) over the window */
#define CPU_BUSY_CRIT 90.0
#define RUNQ_WARN 1.0 /* runnable tasks per CPU, averaged over the window */
#define RUNQ_CRIT 2.0
#define PSI_SOME_WARN 10.0 /* % of the window some task stalled */
#define PSI_SOME_CRIT 40.0
#define PSI_FULL_WARN 5.0 /* % of the window all non-idle tasks stalled */
#define PSI_FULL_CRIT 20.0
#define SINGLE_CPU_BUSY 90.0 /* one CPU at least this busy ... */
#define OTHERS_IDLE 50.0 /* ... while the others average below this: one thread */
#define STEAL_WARN 10.0 /* % stolen by the hypervisor */
#define MEM_AVAIL_WARN 10.0 /* % of MemTotal still available */
#define MEM_AVAIL_CRIT 5.0
#define DISK_UTIL_WARN 60.0 /* %util, rotational devices only */
#define DISK_UTIL_CRIT 90.0
#define DISK_AWAIT_WARN 20.0 /* ms per request, any device, with aqu-sz > 1 */
#define DISK_AWAIT_CRIT 100.0
#define NET_UTIL_WARN 70.0 /* % of link speed */
#define NET_UTIL_CRIT 90.0
#define RETRANS_WARN 1.0 /* % of TCP segments sent that were retransmitted */
#define RETRANS_CRIT 5.0
#define RETRANS_MIN_SEGS 100 /* below this many segments sent, % retransmits is noise */
#define DSTATE_WARN 1.0 /* tasks in D state, averaged over the window */
#define RUNQLAT_WARN_US 16383 /* p99 in the 8-16 ms bucket or above */
#define RUNQLAT_CRIT_US 65535 /* p99 in the 32-64 ms bucket or above */
#define TOP_N 5

enum verdict { V_OK, V_WARN, V_CRIT };
static const char *const verdict_name[] = { "ok", "warning", "critical" };

/* ---- metric descriptions: every value in the USE table is one of these ---------------- */
enum {
	M_BUSY,
	M_USER,
	M_SYS,
	M_IOWAIT,
	M_STEAL,
	M_MAXCPU,
	M_RUNQ,
	M_RUNQ_PER_CPU,
	M_LOAD1,
	M_PSI_SOME,
	M_PSI_FULL,
	M_FORKS,
	M_SHORTLIVED,
	M_RUNQLAT_P99,
	M_MEM_USED,
	M_MEM_AVAIL,
	M_SWAP_USED,
	M_SWAPIN,
	M_SWAPOUT,
	M_PGSCAN_DIRECT,
	M_MAJFLT,
	M_OOM,
	M_UTIL,
	M_RS,
	M_WS,
	M_RKB,
	M_WKB,
	M_AQU,
	M_RAWAIT,
	M_WAWAIT,
	M_IOERR,
	M_NET_UTIL,
	M_RXKB,
	M_TXKB,
	M_DROPS,
	M_NET_ERRS,
	M_RETRANS_PCT,
	M_RETRANS,
	M_LISTEN_DROPS,
	M_RESETS,
	M_INERRS,
	M_DSTATE,
	M_DSTATE_MAX,
	M_HUNG,
	M_LOCKUP,
	M_KOOM,
	M_KOOM_BOOT,
	M_KIOERR,
	M_NMETRICS
};

#define G(n, k, u, p, h)                               \
	{                                              \
		n, k, u, PTK_GAUGE, PTK_V_F64, 0, p, h \
	}
#define C(n, k, u, h)                                    \
	{                                                \
		n, k, u, PTK_COUNTER, PTK_V_U64, 0, 0, h \
	}
static const struct ptk_metric metrics[M_NMETRICS] = {
	[M_BUSY] =
		G("busy", "busy_pct", "%", 1, "CPU time not idle and not iowait (/proc/stat cpu)"),
	[M_USER] = G("usr", "user_pct", "%", 1, "user+nice time (/proc/stat cpu fields 1-2)"),
	[M_SYS] =
		G("sys", "system_pct", "%", 1, "system+irq+softirq (/proc/stat cpu fields 3,6,7)"),
	[M_IOWAIT] = G("iowait", "iowait_pct", "%", 1,
		       "idle time with I/O outstanding: idle, not busy (/proc/stat field 5)"),
	[M_STEAL] = G("steal", "steal_pct", "%", 1,
		      "time the hypervisor ran another guest (/proc/stat field 8)"),
	[M_MAXCPU] =
		G("max cpu", "max_cpu_busy_pct", "%", 1, "busiest single CPU (/proc/stat cpuN)"),
	[M_RUNQ] =
		G("runq", "runq", "", 2,
		  "runnable tasks, mean of 1 s samples, ptk excluded (/proc/stat procs_running)"),
	[M_RUNQ_PER_CPU] = G("runq/cpu", "runq_per_cpu", "", 2, "run queue per online CPU"),
	[M_LOAD1] = G("load1", "load1", "", 2, "1-min load: R and D tasks (/proc/loadavg)"),
	[M_PSI_SOME] = G("psi some", "psi_some_pct", "%", 1,
			 "share of the window some task stalled (/proc/pressure/* some total=)"),
	[M_PSI_FULL] = G("psi full", "psi_full_pct", "%", 1,
			 "share of the window all non-idle tasks stalled (/proc/pressure/* full)"),
	[M_SHORTLIVED] = C("short-lived", "shortlived_processes", "",
			   "processes started and exited inside the window, invisible to any "
			   "snapshot (BPF sched_process_exit)"),
	[M_RUNQLAT_P99] = { "runqlat p99 <=", "runqlat_p99_le_us", "us", PTK_GAUGE, PTK_V_U64, 0, 0,
			    "run-queue latency p99, a log2 bucket upper bound (BPF sched_wakeup -> "
			    "sched_switch)" },
	[M_FORKS] = G("forks", "forks_per_s", "/s", 1,
		      "processes created per second (/proc/stat processes)"),
	[M_MEM_USED] = G("used", "used_pct", "%", 1, "MemTotal - MemAvailable (/proc/meminfo)"),
	[M_MEM_AVAIL] = G("avail", "available_bytes", "B", 0, "MemAvailable (/proc/meminfo)"),
	[M_SWAP_USED] = G("swap", "swap_used_pct", "%", 1, "SwapTotal - SwapFree (/proc/meminfo)"),
	[M_SWAPIN] =
		G("si", "swap_in_pages_per_s", "pg/s", 1, "pages swapped in (/proc/vmstat pswpin)"),
	[M_SWAPOUT] = G("so", "swap_out_pages_per_s", "pg/s", 1,
			"pages swapped out (/proc/vmstat pswpout)"),
	[M_PGSCAN_DIRECT] = G("direct reclaim", "direct_scan_pages_per_s", "pg/s", 1,
			      "pages scanned by allocating tasks (/proc/vmstat pgscan_direct)"),
	[M_MAJFLT] = G("majflt", "major_faults_per_s", "/s", 1,
		       "major page faults (/proc/vmstat pgmajfault)"),
	[M_OOM] =
		C("oom kills", "oom_kills", "", "OOM kills in the window (/proc/vmstat oom_kill)"),
	[M_UTIL] = G("%util", "util_pct", "%", 1,
		     "time with >= 1 request in flight (/proc/diskstats io_ticks)"),
	[M_RS] = G("r/s", "reads_per_s", "/s", 1, "reads completed (/proc/diskstats field 1)"),
	[M_WS] = G("w/s", "writes_per_s", "/s", 1, "writes completed (/proc/diskstats field 5)"),
	[M_RKB] = G("rkB/s", "read_kb_per_s", "kB/s", 1, "kB read (/proc/diskstats sectors/2)"),
	[M_WKB] = G("wkB/s", "write_kb_per_s", "kB/s", 1, "kB written (/proc/diskstats sectors/2)"),
	[M_AQU] = G("aqu-sz", "aqu_sz", "", 2,
		    "mean requests queued or in flight (/proc/diskstats time_in_queue)"),
	[M_RAWAIT] = G("r_await", "r_await_ms", "ms", 2, "mean read latency incl. queueing"),
	[M_WAWAIT] = G("w_await", "w_await_ms", "ms", 2, "mean write latency incl. queueing"),
	[M_IOERR] = C("I/O errors", "io_errors", "",
		      "kernel log I/O errors naming this device (/dev/kmsg)"),
	[M_NET_UTIL] = G("util", "util_pct", "%", 1,
			 "max(rx, tx) bytes/s over link speed (/sys/class/net/IF/speed)"),
	[M_RXKB] = G("rxkB/s", "rx_kb_per_s", "kB/s", 1, "bytes received (/proc/net/dev)"),
	[M_TXKB] = G("txkB/s", "tx_kb_per_s", "kB/s", 1, "bytes sent (/proc/net/dev)"),
	[M_DROPS] = G("drops", "drops_per_s", "/s", 1, "rx+tx drop and fifo (/proc/net/dev)"),
	[M_NET_ERRS] =
		G("errs", "errors_per_s", "/s", 1, "rx+tx errs, frame, carrier (/proc/net/dev)"),
	[M_RETRANS_PCT] =
		G("retrans", "retrans_pct", "%", 2, "RetransSegs / OutSegs (/proc/net/snmp Tcp)"),
	[M_RETRANS] = G("retrans/s", "retrans_per_s", "/s", 1, "/proc/net/snmp Tcp RetransSegs"),
	[M_LISTEN_DROPS] = C("listen drops", "listen_drops", "",
			     "SYNs dropped at a full accept queue (/proc/net/netstat ListenDrops)"),
	[M_RESETS] = G("resets/s", "resets_per_s", "/s", 1,
		       "EstabResets + OutRsts (/proc/net/snmp Tcp)"),
	[M_INERRS] = C("in errs", "in_errors", "", "/proc/net/snmp Tcp InErrs + InCsumErrors"),
	[M_DSTATE] = G("D tasks", "dstate_tasks", "", 2,
		       "tasks in D state: the larger of the mean of 1 s samples of /proc/stat "
		       "procs_blocked (I/O wait) and the D threads at the first and last scan "
		       "(/proc/PID/task/TID/stat state)"),
	[M_DSTATE_MAX] =
		G("D max", "dstate_tasks_max", "", 0, "highest 1 s sample of procs_blocked"),
	[M_HUNG] = C("hung tasks", "hung_tasks", "", "'blocked for more than' reports (/dev/kmsg)"),
	[M_LOCKUP] = C("lockups", "lockups", "", "soft/hard lockups, RCU stalls (/dev/kmsg)"),
	[M_KOOM_BOOT] = C("since boot", "oom_kills_logged_since_boot", "",
			  "OOM kills in the kernel log since boot (/dev/kmsg)"),
	[M_KOOM] = C("OOM", "oom_kills_logged", "", "OOM kills in the kernel log (/dev/kmsg)"),
	[M_KIOERR] =
		C("I/O err", "io_errors_logged", "", "I/O errors in the kernel log (/dev/kmsg)"),
};
#undef G
#undef C

/* ---- the model: one USE row per resource ---------------------------------------------- */
struct mval {
	int m; /* index into metrics[] */
	struct ptk_val v;
};

struct offender {
	int pid;
	char comm[64];
	char what[96]; /* "cpu 98.0%", "read+write 12.0 MB/s", "D in io_schedule" */
	double score;
	const struct ptk_metric *m;
	double value;
};

#define MAXV 10
struct row {
	const char *resource; /* cpu memory disk network kernel */
	char device[64];
	struct mval util[MAXV], sat[MAXV], err[MAXV];
	int nu, ns, ne;
	enum verdict verdict;
	char *evidence[16];
	int nev;
	struct offender off[TOP_N * 2];
	int noff;
	const char *offender_kind; /* "cpu", "io", "memory", "D state" */
	bool partial; /* a source was unreadable: the verdict covers less */
	char next[3][160];
	int nnext;
};

struct rows {
	struct row r[64];
	int n;
};

static struct row *row_new(struct rows *rs, const char *resource, const char *device)
{
	if (rs->n >= (int)ARRAY_SIZE(rs->r))
		return NULL;
	struct row *r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	r->resource = resource;
	snprintf(r->device, sizeof(r->device), "%s", device ? device : "");
	return r;
}

static void put(struct mval *a, int *n, int m, struct ptk_val v)
{
	if (*n < MAXV)
		a[(*n)++] = (struct mval){ m, v };
}
#define UTIL(r, m, x) put((r)->util, &(r)->nu, m, x)
#define SAT(r, m, x) put((r)->sat, &(r)->ns, m, x)
#define ERR(r, m, x) put((r)->err, &(r)->ne, m, x)

static void raise_to(struct row *r, enum verdict v)
{
	if (v > r->verdict)
		r->verdict = v;
}

static void evidence(struct row *r, enum verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void evidence(struct row *r, enum verdict v, const char *fmt, ...)
{
	va_list ap;
	char *s;

	raise_to(r, v);
	if (r->nev >= (int)ARRAY_SIZE(r->evidence))
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		r->evidence[r->nev++] = s;
}

static void next(struct row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void next(struct row *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nnext >= (int)ARRAY_SIZE(r->next))
		return;
	va_start(ap, fmt);
	vsnprintf(r->next[r->nnext++], sizeof(r->next[0]), fmt, ap);
	va_end(ap);
}

/* ---- the sources: one system sample ----------------------------------------------------- */
struct sample {
	struct ptk_stat st;
	struct ptk_loadavg la;
	struct ptk_meminfo mi;
	struct ptk_vmstat vm;
	struct ptk_diskstats ds;
	struct ptk_netdevs nd;
	struct ptk_kvs snmp;
	struct ptk_psi psi[PTK_PSI_NRES];
	int err_st, err_la, err_mi, err_vm, err_ds, err_nd, err_snmp, err_psi[PTK_PSI_NRES];
	double up;
};

static void sample_read(const struct ptk_src *src, struct sample *s)
{
	struct ptk_uptime up;

	s->up = ptk_uptime_read(src, &up) ? -1 : up.up_s;
	s->err_st = ptk_stat_read(src, &s->st);
	s->err_la = ptk_loadavg_read(src, &s->la);
	s->err_mi = ptk_meminfo_read(src, &s->mi);
	s->err_vm = ptk_vmstat_read(src, &s->vm);
	s->err_ds = ptk_diskstats_read(src, &s->ds);
	s->err_nd = ptk_netdev_read(src, &s->nd);
	s->err_snmp = ptk_netsnmp_read(src, &s->snmp);
	for (int i = 0; i < PTK_PSI_NRES; i++)
		s->err_psi[i] = ptk_psi_read(src, i, &s->psi[i]);
}

static void sample_free(struct sample *s)
{
	ptk_stat_free(&s->st);
	ptk_diskstats_free(&s->ds);
	ptk_netdev_free(&s->nd);
	ptk_kvs_free(&s->snmp);
}

struct state {
	struct ptk_ctx *ctx;
	struct ptk_cpuwatch *watch; /* BPF: runqlat + short-lived processes, when available */
	struct ptk_cpuwatch *shared_watch; /* started by the caller (ptk_check_run): read at
					    * both ends of the window, never stopped here */
	struct ptk_cpuwatch_result wres0; /* shared_watch at the start of the window */
	bool quiet; /* no countdown, no "interrupted" warning (background checks) */
	int err_watch;
	bool have_watch;
	struct ptk_cpuwatch_result wres;
	double want_s; /* -d */
	int capture_pid; /* replay: the pid of the ptk capture that wrote the tree, 0 unknown */
	int self_pid; /* the observer: never an offender */
	struct sample a, b;
	struct ptk_ptab pa, pb, threads;
	int err_pa, err_pb, err_threads;
	int dthreads_a, dthreads_b; /* threads in D state at the first and last scan */
	struct ptk_kmsg km;
	int err_km;
	double runq_sum, dstate_sum, dstate_max;
	int ticks;
	bool live;
	int ncpu_online;
	long hz;
	double dur;
	u64 cpu_ns;
	bool countdown;
};

/* ---- analysis ------------------------------------------------------------------------- */
static double psi_stall_pct(const struct state *s, int res, bool full)
{
	const struct ptk_psi_line *a = full ? &s->a.psi[res].full : &s->a.psi[res].some;
	const struct ptk_psi_line *b = full ? &s->b.psi[res].full : &s->b.psi[res].some;

	if (!a->present || !b->present || s->dur <= 0)
		return NAN;
	double p = ptk_delta(a->total_us, b->total_us) / (s->dur * 1e6) * 100.0;
	return p > 100.0 ? 100.0 : p;
}

static struct ptk_val fval(double x)
{
	return isnan(x) ? PTK_NA : PTK_F(x);
}

struct proc_delta {
	const struct ptk_task *t;
	double cpu_pct, majflt_s, io_bps, rss_bytes;
};

static int cmp_score(const void *x, const void *y)
{
	const struct offender *a = x, *b = y;

	return (a->score < b->score) - (a->score > b->score);
}

static void add_offenders(struct row *r, struct proc_delta *pd, int n, int metric_off,
			  const char *kind, double min_score, int midx)
{
	struct offender tmp[TOP_N];
	int k = 0;

	r->offender_kind = kind;
	for (int i = 0; i < n; i++) {
		double score = *(double *)((char *)&pd[i] + metric_off);
		if (!(score > min_score))
			continue;
		struct offender o = {
			.pid = pd[i].t->pid, .score = score, .m = &metrics[midx], .value = score
		};
		snprintf(o.comm, sizeof(o.comm), "%s", pd[i].t->comm);
		if (k < TOP_N) {
			tmp[k++] = o;
		} else if (score > tmp[TOP_N - 1].score) {
			tmp[TOP_N - 1] = o;
		} else {
			continue;
		}
		qsort(tmp, k, sizeof(*tmp), cmp_score);
	}
	for (int i = 0; i < k && r->noff < (int)ARRAY_SIZE(r->off); i++)
		r->off[r->noff++] = tmp[i];
}

static const struct ptk_metric off_cpu = {
	"%CPU",	   "cpu_pct", "%", PTK_GAUGE,
	PTK_V_F64, 0,	      1,   "utime+stime over the window (/proc/PID/stat)"
};
static const struct ptk_metric off_majflt = {
	"majflt/s", "major_faults_per_s", "/s", PTK_GAUGE, PTK_V_F64, 0, 1, "/proc/PID/stat majflt"
};
static const struct ptk_metric off_rss = {
	"RSS", "rss_bytes", "B", PTK_GAUGE, PTK_V_F64, 0, 0, "/proc/PID/stat rss * page size"
};
static const struct ptk_metric off_io = { "I/O",     "io_bytes_per_s",
					  "B/s",     PTK_GAUGE,
					  PTK_V_F64, 0,
					  0,	     "read_bytes+write_bytes (/proc/PID/io)" };

static void offenders_of(struct row *r, struct proc_delta *pd, int n, int kind)
{
	int start = r->noff;

	switch (kind) {
	case 0:
		add_offenders(r, pd, n, offsetof(struct proc_delta, cpu_pct), "cpu", 0.5, M_BUSY);
		break;
	case 1:
		add_offenders(r, pd, n, offsetof(struct proc_delta, majflt_s), "memory", 0.0,
			      M_MAJFLT);
		for (int i = start; i < r->noff; i++)
			r->off[i].m = &off_majflt;
		start = r->noff;
		add_offenders(r, pd, n, offsetof(struct proc_delta, rss_bytes), "memory", 0.0,
			      M_MEM_AVAIL);
		for (int i = start; i < r->noff; i++)
			r->off[i].m = &off_rss;
		return;
	case 2:
		add_offenders(r, pd, n, offsetof(struct proc_delta, io_bps), "io", 0.0, M_RKB);
		for (int i = start; i < r->noff; i++)
			r->off[i].m = &off_io;
		return;
	}
	for (int i = start; i < r->noff; i++)
		r->off[i].m = &off_cpu;
}

/* D-state threads with their wchan, as offenders (score = 1 each, grouped by tgid). */
static void dstate_offenders(struct row *r, const struct state *s)
{
	for (int i = 0; i < s->threads.n && r->noff < (int)ARRAY_SIZE(r->off); i++) {
		const struct ptk_task *t = &s->threads.t[i];
		if (t->state != 'D')
			continue;
		struct offender *o = &r->off[r->noff++];
		memset(o, 0, sizeof(*o));
		o->pid = t->pid;
		snprintf(o->comm, sizeof(o->comm), "%s", t->comm);
		snprintf(o->what, sizeof(o->what), "D state in %s (tgid %d)",
			 t->wchan[0] ? t->wchan : "?", t->tgid);
		o->score = 1;
	}
	if (!r->offender_kind)
		r->offender_kind = "D state";
}

static void analyse_cpu(struct state *s, struct rows *rs, struct proc_delta *pd, int npd)
{
	struct row *r = row_new(rs, "cpu", NULL);
	double pct[PTK_CPU_NSTATES], busy, maxb = -1, others = 0;
	int maxcpu = -1, nothers = 0;

	if (s->a.err_st || s->b.err_st) {
		evidence(r, V_OK, "could not read /proc/stat: %s",
			 strerror(-(s->a.err_st ? s->a.err_st : s->b.err_st)));
		return;
	}
	ptk_cpu_pct(&s->a.st.all, &s->b.st.all, pct);
	busy = ptk_cpu_busy(pct);
	UTIL(r, M_BUSY, PTK_F(busy));
	UTIL(r, M_USER, PTK_F(pct[PTK_CPU_USER] + pct[PTK_CPU_NICE]));
	UTIL(r, M_SYS, PTK_F(pct[PTK_CPU_SYSTEM] + pct[PTK_CPU_IRQ] + pct[PTK_CPU_SOFTIRQ]));
	UTIL(r, M_IOWAIT, PTK_F(pct[PTK_CPU_IOWAIT]));
	UTIL(r, M_STEAL, PTK_F(pct[PTK_CPU_STEAL]));
	int nb = MIN(s->a.st.ncpu, s->b.st.ncpu);
	double *cb = xcalloc(nb ? nb : 1, sizeof(double));
	for (int c = 0; c < nb; c++) {
		double p[PTK_CPU_NSTATES];
		cb[c] = -1;
		if (!s->a.st.present[c] || !s->b.st.present[c])
			continue;
		ptk_cpu_pct(&s->a.st.cpu[c], &s->b.st.cpu[c], p);
		cb[c] = ptk_cpu_busy(p);
		if (cb[c] > maxb) {
			maxb = cb[c];
			maxcpu = c;
		}
	}
	for (int c = 0; c < nb; c++) {
		if (c != maxcpu && cb[c] >= 0) {
			others += cb[c];
			nothers++;
		}
	}
	free(cb);
	if (maxcpu >= 0)
		UTIL(r, M_MAXCPU, PTK_F(maxb));
	double runq = s->ticks ? s->runq_sum / s->ticks : NAN;
	double per = s->ncpu_online ? runq / s->ncpu_online : NAN;
	u64 p99 = 0;
	SAT(r, M_RUNQ_PER_CPU, fval(per));
	/* second, so the table's saturation cell shows it: what the queue cost the waiters */
	if (s->have_watch) {
		p99 = ptk_hist_pct_le(&s->wres.runq, 99);
		SAT(r, M_RUNQLAT_P99, ptk_hist_total(&s->wres.runq) ? PTK_U(p99) : PTK_NA);
	}
	SAT(r, M_RUNQ, fval(runq));
	double psome = psi_stall_pct(s, PTK_PSI_CPU, false);
	SAT(r, M_PSI_SOME, fval(psome));
	if (!s->b.err_la)
		SAT(r, M_LOAD1, PTK_F(s->b.la.load1));
	double forks = s->dur > 0 ? ptk_delta(s->a.st.processes, s->b.st.processes) / s->dur : 0;
	UTIL(r, M_FORKS, PTK_F(forks));
	if (s->have_watch)
		UTIL(r, M_SHORTLIVED, PTK_U(s->wres.shortlived));

	if (busy >= CPU_BUSY_CRIT && (per > RUNQ_WARN || psome >= PSI_SOME_WARN))
		evidence(r, V_CRIT, "CPUs %.0f%% busy with %.2f runnable tasks per CPU: saturated",
			 busy, per);
	else if (busy >= CPU_BUSY_WARN)
		evidence(r, V_WARN, "CPUs %.0f%% busy (warning at %.0f%%)", busy, CPU_BUSY_WARN);
	if (per >= RUNQ_CRIT)
		evidence(r, V_CRIT, "run queue %.2f per CPU: tasks wait for a CPU (runqlat)", per);
	else if (per > RUNQ_WARN)
		evidence(r, V_WARN, "run queue %.2f per CPU: more runnable tasks than CPUs", per);
	if (psome >= PSI_SOME_CRIT)
		evidence(r, V_CRIT, "PSI cpu some %.1f%%: tasks stalled waiting for CPU", psome);
	else if (psome >= PSI_SOME_WARN)
		evidence(r, V_WARN, "PSI cpu some %.1f%%: tasks stalled waiting for CPU", psome);
	if (s->ncpu_online > 1 && maxb >= SINGLE_CPU_BUSY && nothers &&
	    others / nothers < OTHERS_IDLE)
		evidence(r, V_WARN,
			 "cpu%d %.0f%% busy while the other CPUs average %.0f%%: a single-thread "
			 "bottleneck",
			 maxcpu, maxb, others / nothers);
	if (pct[PTK_CPU_STEAL] >= STEAL_WARN)
		evidence(r, V_WARN,
			 "steal %.1f%%: the hypervisor ran other guests (noisy neighbour)",
			 pct[PTK_CPU_STEAL]);
	if (pct[PTK_CPU_IOWAIT] >= 5.0)
		evidence(
			r, V_OK,
			"iowait %.1f%% is idle time: the CPUs are free, tasks wait on I/O (see disk)",
			pct[PTK_CPU_IOWAIT]);
	if (!s->b.err_la && s->b.la.load1 > s->ncpu_online && busy < 50.0)
		evidence(r, V_OK,
			 "load %.2f on %d CPUs with CPUs %.0f%% busy: Linux load counts D-state "
			 "tasks, so this is an I/O or D-state storm, not a CPU one (see kernel)",
			 s->b.la.load1, s->ncpu_online, busy);
	if (s->have_watch && p99 >= RUNQLAT_CRIT_US)
		evidence(r, V_CRIT,
			 "runqlat p99 <= %" PRIu64
			 " us: runnable tasks waited tens of ms for a CPU",
			 p99);
	else if (s->have_watch && p99 >= RUNQLAT_WARN_US)
		evidence(r, V_WARN,
			 "runqlat p99 <= %" PRIu64 " us: runnable tasks waited ms for a CPU", p99);
	if (s->have_watch && s->wres.shortlived >= 10)
		evidence(r, V_OK,
			 "%" PRIu64
			 " processes started and exited inside the window: CPU no snapshot "
			 "sees (ptk execsnoop names them)",
			 s->wres.shortlived);
	else if (!s->have_watch && forks >= 10)
		evidence(r, V_OK,
			 "%.0f forks/s: short-lived processes may take CPU no snapshot sees",
			 forks);
	offenders_of(r, pd, npd, 0);
	next(r, "ptk mpstat -P ALL 1 5");
	next(r, "ptk vmstat 1 5");
}

static int kmsg_count_text(const struct state *s, int kind, const char *text, bool window);

static void analyse_memory(struct state *s, struct rows *rs, struct proc_delta *pd, int npd)
{
	struct row *r = row_new(rs, "memory", NULL);
	const struct ptk_meminfo *mi = &s->b.mi;
	double d = s->dur > 0 ? s->dur : 1;

	if (s->b.err_mi) {
		evidence(r, V_OK, "could not read /proc/meminfo: %s", strerror(-s->b.err_mi));
		return;
	}
	double used = mi->mem_total ?
			      100.0 * (mi->mem_total - MIN(mi->mem_available, mi->mem_total)) /
				      mi->mem_total :
			      0;
	double availp = 100.0 - used;
	UTIL(r, M_MEM_USED, PTK_F(used));
	UTIL(r, M_MEM_AVAIL, PTK_F((double)mi->mem_available * 1024));
	UTIL(r, M_SWAP_USED,
	     mi->swap_total ? PTK_F(100.0 * (mi->swap_total - MIN(mi->swap_free, mi->swap_total)) /
				    mi->swap_total) :
			      PTK_NA);
	double si = 0, so = 0, scan = 0, majf = 0;
	u64 ooms = 0;
	if (!s->a.err_vm && !s->b.err_vm) {
		si = ptk_delta(s->a.vm.pswpin, s->b.vm.pswpin) / d;
		so = ptk_delta(s->a.vm.pswpout, s->b.vm.pswpout) / d;
		scan = ptk_delta(s->a.vm.pgscan_direct, s->b.vm.pgscan_direct) / d;
		majf = ptk_delta(s->a.vm.pgmajfault, s->b.vm.pgmajfault) / d;
		ooms = ptk_delta(s->a.vm.oom_kill, s->b.vm.oom_kill);
		SAT(r, M_SWAPIN, PTK_F(si));
		SAT(r, M_SWAPOUT, PTK_F(so));
		SAT(r, M_PGSCAN_DIRECT, PTK_F(scan));
		SAT(r, M_MAJFLT, PTK_F(majf));
	}
	double psome = psi_stall_pct(s, PTK_PSI_MEMORY, false);
	double pfull = psi_stall_pct(s, PTK_PSI_MEMORY, true);
	SAT(r, M_PSI_SOME, fval(psome));
	SAT(r, M_PSI_FULL, fval(pfull));
	ERR(r, M_OOM, s->b.vm.has_oom_kill ? PTK_U(ooms) : PTK_NA);

	int cg_ooms = kmsg_count_text(s, PTK_KMSG_OOM, "Memory cgroup", true);
	if (ooms && s->err_km == 0 && (u64)cg_ooms >= ooms)
		evidence(r, V_WARN,
			 "%" PRIu64
			 " OOM kill(s) during the window, all inside a memory cgroup that "
			 "hit its limit (memory.max): the host itself has %.1f%% available",
			 ooms, availp);
	else if (ooms)
		evidence(r, V_CRIT, "%" PRIu64 " OOM kill(s) during the window", ooms);
	if (availp < MEM_AVAIL_CRIT)
		evidence(r, V_CRIT, "only %.1f%% of memory available", availp);
	else if (availp < MEM_AVAIL_WARN)
		evidence(r, V_WARN, "only %.1f%% of memory available", availp);
	if (si > 0 || so > 0)
		evidence(r, (si + so) * sysconf(_SC_PAGESIZE) > 1024 * 1024 ? V_CRIT : V_WARN,
			 "swapping: %.1f pages/s in, %.1f pages/s out (anything above 0 is "
			 "saturation)",
			 si, so);
	if (scan > 0)
		evidence(r, V_WARN, "direct reclaim: %.0f pages/s scanned by allocating tasks",
			 scan);
	if (pfull >= PSI_FULL_CRIT)
		evidence(r, V_CRIT, "PSI memory full %.1f%%: all tasks stalled on memory", pfull);
	else if (pfull >= PSI_FULL_WARN || psome >= PSI_SOME_WARN)
		evidence(r, V_WARN, "PSI memory some %.1f%%, full %.1f%%: tasks stall on memory",
			 psome, pfull);
	offenders_of(r, pd, npd, 1);
	next(r, "ptk free -w");
	next(r, "ptk vmstat 1 5");
	next(r, "ptk pressure 1 5");
}

static bool disk_has_io(const struct ptk_disk *d)
{
	return d->f[PTK_DK_RD_IOS] || d->f[PTK_DK_WR_IOS] || d->f[PTK_DK_DC_IOS];
}

/* Does a kernel message name this disk (or one of its partitions)? "sda" matches "sda" and
 * "sda1" but not "sdab"; "loop1" and "nvme0n1" match "nvme0n1p2" but not "loop10". */
static bool names_disk(const char *msg, const char *dev)
{
	size_t l = strlen(dev);
	bool ends_digit = l && dev[l - 1] >= '0' && dev[l - 1] <= '9';

	for (const char *p = strstr(msg, dev); p; p = strstr(p + 1, dev)) {
		const char *q = p + l;
		if (p > msg && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9')))
			continue; /* "xvda" is not "vda" */
		if (ends_digit && *q == 'p' && q[1] >= '0' && q[1] <= '9')
			return true; /* nvme0n1p2 */
		if (*q >= 'a' && *q <= 'z')
			continue;
		if (ends_digit && *q >= '0' && *q <= '9')
			continue;
		return true;
	}
	return false;
}

/* Kernel log events of a kind, since boot or inside the window, optionally only those naming
 * a disk (dev) or containing a text. */
static int kmsg_match(const struct state *s, int kind, const char *dev, const char *text,
		      bool window)
{
	int n = 0;
	double from_us = (s->a.up >= 0 ? s->a.up : 0) * 1e6;

	for (int i = 0; i < s->km.n; i++) {
		const struct ptk_kmsg_event *e = &s->km.ev[i];
		if ((int)e->kind != kind || (window && e->ts_us < from_us))
			continue;
		if ((dev && !names_disk(e->msg, dev)) || (text && !strstr(e->msg, text)))
			continue;
		n++;
	}
	return n;
}

static int kmsg_count(const struct state *s, int kind, const char *dev, bool window)
{
	return kmsg_match(s, kind, dev, NULL, window);
}

static int kmsg_count_text(const struct state *s, int kind, const char *text, bool window)
{
	return kmsg_match(s, kind, NULL, text, window);
}

static void analyse_disks(struct state *s, struct rows *rs, struct proc_delta *pd, int npd,
			  bool *any)
{
	double iosome = psi_stall_pct(s, PTK_PSI_IO, false);
	double iofull = psi_stall_pct(s, PTK_PSI_IO, true);
	struct row *busiest = NULL;
	double busiest_util = -1;

	*any = false;
	if (s->b.err_ds) {
		struct row *r = row_new(rs, "disk", NULL);
		evidence(r, V_OK, "could not read /proc/diskstats: %s", strerror(-s->b.err_ds));
		return;
	}
	for (int i = 0; i < s->b.ds.n; i++) {
		const struct ptk_disk *nd = &s->b.ds.d[i], *od;
		struct ptk_disk_rates dr;

		if (nd->is_partition || !disk_has_io(nd))
			continue;
		od = ptk_diskstats_find(&s->a.ds, nd->name);
		if (!od)
			continue; /* appeared during the window */
		struct row *r = row_new(rs, "disk", nd->name);
		if (!r)
			break;
		*any = true;
		ptk_disk_rates(od, nd, s->dur, &dr);
		int rot = ptk_disk_rotational_read(&s->ctx->src, nd->name);
		UTIL(r, M_UTIL, PTK_F(dr.util));
		UTIL(r, M_RS, PTK_F(dr.r_s));
		UTIL(r, M_WS, PTK_F(dr.w_s));
		UTIL(r, M_RKB, PTK_F(dr.rkb_s));
		UTIL(r, M_WKB, PTK_F(dr.wkb_s));
		SAT(r, M_AQU, PTK_F(dr.aqu_sz));
		SAT(r, M_RAWAIT, PTK_F(dr.r_await));
		SAT(r, M_WAWAIT, PTK_F(dr.w_await));
		int errs = kmsg_count(s, PTK_KMSG_IO_ERROR, nd->name, true);
		int errs_boot = kmsg_count(s, PTK_KMSG_IO_ERROR, nd->name, false);
		ERR(r, M_IOERR, s->err_km ? PTK_NA : PTK_U(errs));
		r->partial = s->err_km != 0;
		if (errs)
			evidence(r, V_CRIT,
				 "%d I/O error(s) for %s in the kernel log during the window", errs,
				 nd->name);
		else if (errs_boot)
			evidence(r, V_WARN, "%d I/O error(s) for %s in the kernel log since boot",
				 errs_boot, nd->name);
		double await = MAX(dr.r_await, dr.w_await);
		/* virtio-blk and xen-blkfront report rotational=1 whatever is behind them (often
		 * SSD or network storage serving requests in parallel): %util alone is no
		 * evidence of saturation there */
		if (rot == 1 && (!strncmp(nd->name, "vd", 2) || !strncmp(nd->name, "xvd", 3)))
			rot = -1;
		if (rot == 1) {
			if (dr.util >= DISK_UTIL_CRIT && dr.aqu_sz > 1)
				evidence(r, V_CRIT,
					 "%%util %.0f with aqu-sz %.2f on a rotational disk: "
					 "saturated",
					 dr.util, dr.aqu_sz);
			else if (dr.util >= DISK_UTIL_WARN)
				evidence(r, V_WARN, "%%util %.0f on a rotational disk", dr.util);
		} else if (dr.util >= DISK_UTIL_CRIT) {
			evidence(
				r, V_OK,
				"%%util %.0f on a device that serves requests in parallel (%s) is not "
				"saturation: judge by aqu-sz %.2f and await %.2f ms",
				dr.util,
				rot == 0 ? "non-rotational" : "virtual: rotational flag unreliable",
				dr.aqu_sz, await);
		}
		if (await >= DISK_AWAIT_CRIT && dr.aqu_sz > 1)
			evidence(r, V_CRIT, "await %.1f ms with %.2f requests queued", await,
				 dr.aqu_sz);
		else if (await >= DISK_AWAIT_WARN && dr.aqu_sz > 1)
			evidence(r, V_WARN, "await %.1f ms with %.2f requests queued", await,
				 dr.aqu_sz);
		if (dr.util > busiest_util) {
			busiest_util = dr.util;
			busiest = r;
		}
		next(r, "ptk iostat -x 1 5 %s", nd->name);
	}
	if (busiest) {
		SAT(busiest, M_PSI_SOME, fval(iosome));
		SAT(busiest, M_PSI_FULL, fval(iofull));
		if (iofull >= PSI_FULL_CRIT)
			evidence(busiest, V_CRIT, "PSI io full %.1f%%: all tasks stalled on I/O",
				 iofull);
		else if (iofull >= PSI_FULL_WARN || iosome >= PSI_SOME_WARN)
			evidence(busiest, V_WARN,
				 "PSI io some %.1f%%, full %.1f%%: tasks stall on I/O", iosome,
				 iofull);
	}
	for (int i = 0; i < rs->n; i++) {
		struct row *r = &rs->r[i];
		if (strcmp(r->resource, "disk") || r->verdict == V_OK)
			continue;
		offenders_of(r, pd, npd, 2);
		dstate_offenders(r, s);
	}
}

static void analyse_net(struct state *s, struct rows *rs)
{
	double d = s->dur > 0 ? s->dur : 1;

	for (int i = 0; !s->b.err_nd && i < s->b.nd.n; i++) {
		const struct ptk_netdev *n = &s->b.nd.d[i], *o;
		if (!strcmp(n->name, "lo") || !(n->f[PTK_ND_RX_BYTES] || n->f[PTK_ND_TX_BYTES]))
			continue; /* loopback, or never used since boot */
		o = ptk_netdev_find(&s->a.nd, n->name);
		if (!o)
			continue;
		struct row *r = row_new(rs, "network", n->name);
		if (!r)
			break;
		u64 dv[PTK_ND_NFIELDS];
		for (int k = 0; k < PTK_ND_NFIELDS; k++)
			dv[k] = ptk_delta(o->f[k], n->f[k]);
		double rx = dv[PTK_ND_RX_BYTES] / d, tx = dv[PTK_ND_TX_BYTES] / d;
		long mbps;
		double util = NAN;
		if (ptk_net_speed_read(&s->ctx->src, n->name, &mbps) == 0)
			util = 100.0 * MAX(rx, tx) * 8 / (mbps * 1e6);
		UTIL(r, M_NET_UTIL, fval(util));
		UTIL(r, M_RXKB, PTK_F(rx / 1024));
		UTIL(r, M_TXKB, PTK_F(tx / 1024));
		double drops = (dv[PTK_ND_RX_DROP] + dv[PTK_ND_TX_DROP] + dv[PTK_ND_RX_FIFO] +
				dv[PTK_ND_TX_FIFO]) /
			       d;
		double errs = (dv[PTK_ND_RX_ERRS] + dv[PTK_ND_TX_ERRS] + dv[PTK_ND_RX_FRAME] +
			       dv[PTK_ND_TX_CARRIER] + dv[PTK_ND_TX_COLLS]) /
			      d;
		SAT(r, M_DROPS, PTK_F(drops));
		ERR(r, M_NET_ERRS, PTK_F(errs));
		if (util >= NET_UTIL_CRIT)
			evidence(r, V_CRIT, "link %.0f%% utilized", util);
		else if (util >= NET_UTIL_WARN)
			evidence(r, V_WARN, "link %.0f%% utilized", util);
		if (drops > 0)
			evidence(r, V_WARN, "%.1f drops/s", drops);
		if (errs > 0)
			evidence(r, V_WARN, "%.1f errors/s", errs);
		next(r, "ptk nicstat -i %s 1 5", n->name);
	}
	if (s->a.err_snmp || s->b.err_snmp)
		return;
	struct row *r = row_new(rs, "network", "tcp");
	if (!r)
		return;
	s64 a_out = 0, b_out = 0, a_re = 0, b_re = 0, a_ld = 0, b_ld = 0, a_lo = 0, b_lo = 0;
	s64 a_er = 0, b_er = 0, a_or = 0, b_or = 0, a_ie = 0, b_ie = 0, a_ce = 0, b_ce = 0;
	ptk_kvs_get(&s->a.snmp, "Tcp.OutSegs", &a_out);
	ptk_kvs_get(&s->b.snmp, "Tcp.OutSegs", &b_out);
	ptk_kvs_get(&s->a.snmp, "Tcp.RetransSegs", &a_re);
	ptk_kvs_get(&s->b.snmp, "Tcp.RetransSegs", &b_re);
	ptk_kvs_get(&s->a.snmp, "TcpExt.ListenDrops", &a_ld);
	ptk_kvs_get(&s->b.snmp, "TcpExt.ListenDrops", &b_ld);
	ptk_kvs_get(&s->a.snmp, "TcpExt.ListenOverflows", &a_lo);
	ptk_kvs_get(&s->b.snmp, "TcpExt.ListenOverflows", &b_lo);
	ptk_kvs_get(&s->a.snmp, "Tcp.EstabResets", &a_er);
	ptk_kvs_get(&s->b.snmp, "Tcp.EstabResets", &b_er);
	ptk_kvs_get(&s->a.snmp, "Tcp.OutRsts", &a_or);
	ptk_kvs_get(&s->b.snmp, "Tcp.OutRsts", &b_or);
	ptk_kvs_get(&s->a.snmp, "Tcp.InErrs", &a_ie);
	ptk_kvs_get(&s->b.snmp, "Tcp.InErrs", &b_ie);
	ptk_kvs_get(&s->a.snmp, "Tcp.InCsumErrors", &a_ce);
	ptk_kvs_get(&s->b.snmp, "Tcp.InCsumErrors", &b_ce);
	u64 out = ptk_delta(a_out, b_out), re = ptk_delta(a_re, b_re);
	u64 ld = MAX(ptk_delta(a_ld, b_ld), ptk_delta(a_lo, b_lo));
	double rp = out ? 100.0 * re / out : 0;
	UTIL(r, M_RETRANS, PTK_F(re / d));
	SAT(r, M_RETRANS_PCT, PTK_F(rp));
	SAT(r, M_LISTEN_DROPS, PTK_U(ld));
	SAT(r, M_RESETS, PTK_F((ptk_delta(a_er, b_er) + ptk_delta(a_or, b_or)) / d));
	u64 ie = ptk_delta(a_ie, b_ie) + ptk_delta(a_ce, b_ce);
	ERR(r, M_INERRS, PTK_U(ie));
	if (out >= RETRANS_MIN_SEGS && rp >= RETRANS_CRIT)
		evidence(r, V_CRIT,
			 "%.2f%% of TCP segments retransmitted (%" PRIu64 " of %" PRIu64 ")", rp,
			 re, out);
	else if (out >= RETRANS_MIN_SEGS && rp >= RETRANS_WARN)
		evidence(r, V_WARN,
			 "%.2f%% of TCP segments retransmitted (%" PRIu64 " of %" PRIu64 ")", rp,
			 re, out);
	if (ld)
		evidence(r, V_WARN, "%" PRIu64 " SYNs dropped at a full listen queue", ld);
	if (ie)
		evidence(r, V_WARN, "%" PRIu64 " TCP segments received in error", ie);
	next(r, "ptk nicstat -t 1 5");
}

static void analyse_kernel(struct state *s, struct rows *rs)
{
	struct row *r = row_new(rs, "kernel", NULL);
	double dst = s->ticks ? s->dstate_sum / s->ticks : NAN;
	double dthr = (s->dthreads_a + s->dthreads_b) / 2.0;

	if (!s->err_threads && (isnan(dst) || dthr > dst))
		dst = dthr;
	if (s->dthreads_b > s->dstate_max)
		s->dstate_max = s->dthreads_b;
	static const int kinds[] = { PTK_KMSG_OOM, PTK_KMSG_IO_ERROR, PTK_KMSG_HUNG_TASK,
				     PTK_KMSG_SOFT_LOCKUP };
	static const int mets[] = { M_KOOM, M_KIOERR, M_HUNG, M_LOCKUP };

	SAT(r, M_DSTATE, fval(dst));
	SAT(r, M_DSTATE_MAX, PTK_F(s->dstate_max));
	bool want_mem = false, want_io = false, want_stack = false;

	if (s->err_km) {
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++)
			ERR(r, mets[k], PTK_NA);
		ERR(r, M_KOOM_BOOT, PTK_NA);
		r->partial = true;
		evidence(r, V_OK, "kernel log not readable (%s)%s", strerror(-s->err_km),
			 s->err_km == -EPERM || s->err_km == -EACCES ?
				 ": needs CAP_SYSLOG or kernel.dmesg_restrict=0" :
				 "");
	} else {
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			int win = kmsg_count(s, kinds[k], NULL, true);
			int boot = kmsg_count(s, kinds[k], NULL, false);
			ERR(r, mets[k], PTK_U(win));
			if (kinds[k] == PTK_KMSG_OOM)
				ERR(r, M_KOOM_BOOT, PTK_U(boot));
			if (boot && kinds[k] == PTK_KMSG_OOM)
				want_mem = true;
			if (boot && kinds[k] == PTK_KMSG_IO_ERROR)
				want_io = true;
			if (boot && kinds[k] == PTK_KMSG_HUNG_TASK)
				want_stack = true;
			if (win)
				evidence(r, V_CRIT,
					 "%d %s message(s) in the kernel log during the window",
					 win, ptk_kmsg_kind_name[kinds[k]]);
			else if (boot) {
				/* the most recent one, with its age */
				double last = 0;
				const char *msg = "";
				for (int i = 0; i < s->km.n; i++)
					if ((int)s->km.ev[i].kind == kinds[k] &&
					    s->km.ev[i].ts_us / 1e6 >= last) {
						last = s->km.ev[i].ts_us / 1e6;
						msg = s->km.ev[i].msg;
					}
				double age = s->b.up - last;
				evidence(r, age < 3600 ? V_WARN : V_OK,
					 "%d %s message(s) since boot, the last %.0f s ago: %.100s",
					 boot, ptk_kmsg_kind_name[kinds[k]], age, msg);
			}
		}
	}
	if (dst >= MAX(4.0, (double)s->ncpu_online))
		evidence(r, V_CRIT,
			 "%.1f tasks in D state on average (max %.0f): uninterruptible "
			 "waits, usually I/O; they inflate load",
			 dst, s->dstate_max);
	else if (dst >= DSTATE_WARN)
		evidence(r, V_WARN,
			 "%.1f tasks in D state on average (max %.0f): uninterruptible "
			 "waits, usually I/O; they inflate load",
			 dst, s->dstate_max);
	if (r->verdict != V_OK)
		dstate_offenders(r, s);
	/* the next step follows what fired */
	int dpid = 0;
	for (int i = 0; i < s->threads.n && !dpid; i++)
		if (s->threads.t[i].state == 'D')
			dpid = s->threads.t[i].tgid;
	if (want_mem) {
		next(r, "ptk free -w");
		next(r, "ptk top -b -n 1 -o %%MEM");
	}
	if (want_io)
		next(r, "ptk iostat -x 1 5");
	if ((want_stack || dst >= DSTATE_WARN) && dpid)
		next(r, "ptk pstack %d", dpid);
	else if (dst >= DSTATE_WARN)
		next(r, "ptk iostat -x 1 5");
	if (!r->nnext)
		next(r, "ptk uptime");
}

/* ---- sampling ------------------------------------------------------------------------- */
static void tick(struct state *s, const struct ptk_stat *st)
{
	double run = st->procs_running;

	if ((s->live || s->capture_pid) && run > 0)
		run -= 1; /* ptk itself (or ptk capture) was running while it read /proc/stat */
	s->runq_sum += run;
	s->dstate_sum += st->procs_blocked;
	if (st->procs_blocked > s->dstate_max)
		s->dstate_max = st->procs_blocked;
	s->ticks++;
}

/* procs_blocked counts only tasks in I/O wait; a D-state storm (fsfreeze, NFS, a stuck
 * mutex_lock) shows in the task states, so both are counted. */
static int count_d(const struct ptk_ptab *pt)
{
	int n = 0;

	for (int i = 0; i < pt->n; i++)
		n += pt->t[i].state == 'D';
	return n;
}

static int run_window(struct state *s)
{
	struct ptk_ctx *ctx = s->ctx;
	struct ptk_src *src = &ctx->src;

	if (s->shared_watch) {
		s->err_watch = ptk_cpuwatch_read(s->shared_watch, &s->wres0);
	} else if (s->live && !src->replay) {
		s->err_watch = ptk_cpuwatch_start(&s->watch);
	} else {
		s->err_watch = -ENOTSUP;
	}
	sample_read(src, &s->a);
	if (s->a.err_st) {
		ptk_err("cannot read %s/stat: %s", src->procfs, strerror(-s->a.err_st));
		return PTK_EXIT_RUNTIME;
	}
	s->err_pa = ptk_ptab_scan(src, PTK_PT_IO, &s->pa);
	/* the first scan sees processes (their main thread's state): cheap, and a storm of
	 * D-state tasks shows in it as well as in the thread scan at the end */
	if (!s->err_pa)
		s->dthreads_a = count_d(&s->pa);
	s->self_pid = s->live ? (int)getpid() : 0;
	if (src->replay) {
		char buf[32];
		if (ptk_src_read(src, PTK_PROC, PTK_CAPTURE_MARKER, buf, sizeof(buf)) > 0)
			s->capture_pid = atoi(buf);
	}
	tick(s, &s->a.st);
	if (src->replay) {
		/* the window: snapshot 0 to the last one within -d seconds of it, and always at
		 * least one step */
		int first = src->snap, end = first + 1;
		if (ptk_src_remaining(src) < 2) {
			ptk_err("%s: a window needs at least two snapshots, found %d", src->procfs,
				ptk_src_remaining(src));
			return PTK_EXIT_RUNTIME;
		}
		for (int i = first + 2; i < src->nsnap; i++) {
			struct ptk_uptime up;
			src->snap = i;
			if (ptk_uptime_read(src, &up) || s->a.up < 0 ||
			    up.up_s - s->a.up > s->want_s + 0.5)
				break;
			end = i;
		}
		for (int i = first + 1; i < end; i++) {
			struct ptk_stat st = { 0 };
			src->snap = i;
			if (ptk_stat_read(src, &st) == 0)
				tick(s, &st);
			ptk_stat_free(&st);
		}
		src->snap = end;
	} else {
		u64 t0 = ptk_now_ns();
		int n = (int)ceil(s->want_s);
		for (int i = 1; i <= n; i++) {
			u64 at = t0 + (u64)(MIN((double)i, s->want_s) * 1e9);
			if (s->countdown)
				fprintf(stderr, "\rptk check: sampling, %2d s left ", n - i + 1);
			if (ptk_sleep_until(at, &ctx->stop))
				break;
			if (i < n) {
				struct ptk_stat st = { 0 };
				if (ptk_stat_read(src, &st) == 0)
					tick(s, &st);
				ptk_stat_free(&st);
			}
		}
		if (s->countdown)
			fprintf(stderr, "\r%40s\r", "");
		if (ctx->stop && !s->quiet)
			ptk_warn("interrupted: reporting the %.1f s sampled so far",
				 (ptk_now_ns() - t0) / 1e9);
	}
	if (s->watch) {
		s->have_watch = ptk_cpuwatch_read(s->watch, &s->wres) == 0;
		ptk_cpuwatch_stop(s->watch);
		s->watch = NULL;
	} else if (s->shared_watch && !s->err_watch) {
		/* the shared programs count since they were attached: keep the window's part */
		struct ptk_cpuwatch_result *w = &s->wres, *w0 = &s->wres0;
		s->have_watch = ptk_cpuwatch_read(s->shared_watch, w) == 0;
		for (int i = 0; i < PTK_HIST_SLOTS; i++)
			w->runq.slot[i] = ptk_delta(w0->runq.slot[i], w->runq.slot[i]);
		w->forks = ptk_delta(w0->forks, w->forks);
		w->execs = ptk_delta(w0->execs, w->execs);
		w->exits = ptk_delta(w0->exits, w->exits);
		w->shortlived = ptk_delta(w0->shortlived, w->shortlived);
		w->bpf_run_ns = ptk_delta(w0->bpf_run_ns, w->bpf_run_ns);
		w->bpf_run_cnt = ptk_delta(w0->bpf_run_cnt, w->bpf_run_cnt);
	}
	sample_read(src, &s->b);
	if (s->b.err_st) {
		ptk_err("cannot read %s/stat: %s", src->procfs, strerror(-s->b.err_st));
		return PTK_EXIT_RUNTIME;
	}
	tick(s, &s->b.st);
	s->err_pb = ptk_ptab_scan(src, PTK_PT_IO, &s->pb);
	s->err_threads = ptk_ptab_scan(src, PTK_PT_THREADS | PTK_PT_WCHAN, &s->threads);
	if (!s->err_threads)
		s->dthreads_b = count_d(&s->threads);
	s->err_km = ptk_kmsg_read(src, &s->km);
	s->dur = (s->a.up >= 0 && s->b.up >= 0) ? s->b.up - s->a.up : s->want_s;
	if (src->replay && s->dur <= 0) {
		ptk_err("%s: snapshots %d and %d are %.2f s apart: not one boot's capture in order",
			src->procfs, 0, src->snap, s->dur);
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

/* Per-process rates over the window, from the shared per-task model (model/ptask.h). */
static int build_proc_deltas(struct state *s, struct proc_delta **out)
{
	struct ptk_task_rate *tr = xcalloc(s->pb.n ? s->pb.n : 1, sizeof(*tr));
	struct proc_delta *pd = xcalloc(s->pb.n ? s->pb.n : 1, sizeof(*pd));
	long pagesz = sysconf(_SC_PAGESIZE);
	int n = 0;

	ptk_task_rates(&s->pa, &s->pb, s->dur, s->hz, s->a.up, s->ncpu_online, tr);
	for (int i = 0; i < s->pb.n; i++) {
		if (tr[i].cur->pid == s->self_pid || tr[i].cur->pid == s->capture_pid)
			continue; /* the observer is not an offender */
		struct proc_delta *p = &pd[n++];
		p->t = tr[i].cur;
		p->rss_bytes = (double)tr[i].cur->rss_pages * pagesz;
		if (!tr[i].valid)
			continue; /* existed before the window but missed by the first scan */
		p->cpu_pct = tr[i].cpu_pct;
		p->majflt_s = tr[i].majflt_s;
		if (tr[i].io_ok)
			p->io_bps = (tr[i].rkb_s + tr[i].wkb_s) * 1024;
	}
	free(tr);
	*out = pd;
	return n;
}

/* ---- one check: sample the window, then analyse it ------------------------------------- */
/* Sample s->want_s seconds and give every resource its row; *rsp and *pdp are malloc'd (free
 * them with rows_free() and free()). Returns 0 or PTK_EXIT_RUNTIME (after printing why). */
static int check_window(struct state *s, struct rows **rsp, struct proc_delta **pdp)
{
	struct ptk_ctx *ctx = s->ctx;
	bool mask[4096] = { 0 };
	struct rows *rs;
	int r, npd;

	s->live = ptk_src_is_live(&ctx->src);
	s->hz = sysconf(_SC_CLK_TCK);
	r = run_window(s);
	if (r)
		return r;
	int hi = ptk_cpu_online_read(&ctx->src, mask, ARRAY_SIZE(mask));
	s->ncpu_online = 0;
	for (int i = 0; hi > 0 && i < hi && i < (int)ARRAY_SIZE(mask); i++)
		s->ncpu_online += mask[i];
	if (s->ncpu_online == 0)
		for (int i = 0; i < s->b.st.ncpu; i++)
			s->ncpu_online += s->b.st.present[i];

	rs = xcalloc(1, sizeof(*rs));
	npd = build_proc_deltas(s, pdp);
	bool any_disk;
	analyse_cpu(s, rs, *pdp, npd);
	analyse_memory(s, rs, *pdp, npd);
	analyse_disks(s, rs, *pdp, npd, &any_disk);
	analyse_net(s, rs);
	analyse_kernel(s, rs);
	*rsp = rs;
	return 0;
}

static void rows_free(struct rows *rs)
{
	for (int i = 0; i < rs->n; i++)
		for (int k = 0; k < rs->r[i].nev; k++)
			free(rs->r[i].evidence[k]);
	free(rs);
}

static void state_free(struct state *s)
{
	sample_free(&s->a);
	sample_free(&s->b);
	ptk_cpuwatch_stop(s->watch);
	ptk_ptab_free(&s->pa);
	ptk_ptab_free(&s->pb);
	ptk_ptab_free(&s->threads);
	ptk_kmsg_free(&s->km);
}

/* ---- sinks ------------------------------------------------------------------------------ */
static struct json_object *mvals_json(const struct mval *v, int n)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++)
		json_object_object_add(o, metrics[v[i].m].key,
				       ptk_json_val(&metrics[v[i].m], &v[i].v));
	return o;
}

static void fmt_value(const struct ptk_metric *m, const struct ptk_val *v, char *buf, size_t size)
{
	char num[40];

	if (!strcmp(m->unit, "B") && !v->na) {
		ptk_human_bytes((u64)v->f, num, sizeof(num), false);
		snprintf(buf, size, "%s", num);
		return;
	}
	ptk_metric_fmt(m, v, num, sizeof(num));
	/* the unit follows the number unless the name already says it ("r/s", "%util") */
	if (v->na || !m->unit[0] || strchr(m->name, '/') || strchr(m->name, '%'))
		snprintf(buf, size, "%s", num);
	else if (!strcmp(m->unit, "%"))
		snprintf(buf, size, "%s%%", num);
	else
		snprintf(buf, size, "%s %.8s", num, m->unit);
}

/* "name value, name value" of the first max entries */
static void summary(const struct mval *v, int n, int max, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && i < max; i++) {
		char val[64];
		fmt_value(&metrics[v[i].m], &v[i].v, val, sizeof(val));
		off += snprintf(buf + off, off < size ? size - off : 0, "%s%s %s", i ? ", " : "",
				metrics[v[i].m].name, val);
	}
	if (!n)
		snprintf(buf, size, "-");
}

static void print_offender(FILE *f, const struct offender *o)
{
	char val[64];

	if (o->what[0]) {
		fprintf(f, "      %7d %-16s %s\n", o->pid, o->comm, o->what);
		return;
	}
	struct ptk_val v = PTK_F(o->value);
	fmt_value(o->m, &v, val, sizeof(val));
	fprintf(f, "      %7d %-16s %s %s\n", o->pid, o->comm, o->m->name, val);
}

static void print_text(struct state *s, struct rows *rs, double wall)
{
	FILE *f = stdout;
	struct utsname un;
	char clock[16];
	static const char *const upper[] = { "ok", "WARNING", "CRITICAL" };
	bool any_partial = false;

	uname(&un);
	ptk_ctx_clock(s->ctx, clock, sizeof(clock));
	fprintf(f, "ptk check: %.1f s window ending %s on %s (%d CPUs)%s\n\n", s->dur, clock,
		s->live ? un.nodename : s->ctx->src.procfs, s->ncpu_online,
		s->live ? "" : " [replay]");
	fprintf(f, "%-14s %-9s %-38s %-40s %s\n", "RESOURCE", "VERDICT", "UTILIZATION",
		"SATURATION", "ERRORS");
	for (int i = 0; i < rs->n; i++) {
		struct row *r = &rs->r[i];
		char name[80], u[256], sa[256], e[256];
		snprintf(name, sizeof(name), "%s%s%s", r->resource, r->device[0] ? " " : "",
			 r->device);
		summary(r->util, r->nu, 2, u, sizeof(u));
		summary(r->sat, r->ns, 2, sa, sizeof(sa));
		summary(r->err, r->ne, 2, e, sizeof(e));
		char v[16];
		snprintf(v, sizeof(v), "%s%s", upper[r->verdict], r->partial ? "*" : "");
		if (r->partial)
			any_partial = true;
		fprintf(f, "%-14s %-9s %-38s %-40s %s\n", name, v, u, sa, e);
	}
	if (any_partial)
		fprintf(f,
			"* partial: a source of this row could not be read (see its evidence)\n");
	for (int i = 0; i < rs->n; i++) {
		struct row *r = &rs->r[i];
		if (r->verdict == V_OK && !r->nev)
			continue;
		fprintf(f, "\n%s%s%s: %s\n", r->resource, r->device[0] ? " " : "", r->device,
			upper[r->verdict]);
		if (r->verdict != V_OK) {
			char u[512], sa[512], e[512];
			summary(r->util, r->nu, MAXV, u, sizeof(u));
			summary(r->sat, r->ns, MAXV, sa, sizeof(sa));
			summary(r->err, r->ne, MAXV, e, sizeof(e));
			fprintf(f, "  utilization: %s\n  saturation:  %s\n  errors:      %s\n", u,
				sa, e);
		}
		for (int k = 0; k < r->nev; k++)
			fprintf(f, "  - %s\n", r->evidence[k]);
		if (r->verdict == V_OK)
			continue;
		if (r->noff) {
			fprintf(f, "  offenders (%s):\n", r->offender_kind);
			for (int k = 0; k < r->noff; k++)
				print_offender(f, &r->off[k]);
		}
		for (int k = 0; k < r->nnext; k++)
			fprintf(f, "  next: %s\n", r->next[k]);
	}
	double cpu_s = s->cpu_ns / 1e9;
	fprintf(f, "\nobserver: %.3f s CPU over %.1f s (%.2f%% of one CPU)", cpu_s, wall,
		wall > 0 ? 100.0 * cpu_s / wall : 0);
	if (s->pb.denied)
		fprintf(f, "; %d per-process files unreadable (permission)", s->pb.denied);
	if (s->err_km)
		fprintf(f, "; kernel log: %s", strerror(-s->err_km));
	if (s->have_watch && s->wres.bpf_run_ns)
		fprintf(f, "; BPF programs %.3f ms kernel CPU (%.2f%% of one CPU)",
			s->wres.bpf_run_ns / 1e6,
			wall > 0 ? 100.0 * s->wres.bpf_run_ns / 1e9 / wall : 0);
	else if (s->live && s->err_watch)
		fprintf(f, "; BPF unavailable (%s): /proc only", strerror(-s->err_watch));
	fputc('\n', f);
}

static void source_json(struct json_object *arr, const char *name, int err)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "source", json_object_new_string(name));
	json_object_object_add(o, "ok", json_object_new_boolean(err == 0));
	if (err)
		json_object_object_add(o, "error", json_object_new_string(strerror(-err)));
	json_object_array_add(arr, o);
}

static void print_json(struct state *s, struct rows *rs, double wall)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();

	char dbuf[32];
	/* uptime has 10 ms resolution: print what was measured, not float noise */
	snprintf(dbuf, sizeof(dbuf), "%.3f", s->dur);
	json_object_object_add(root, "duration_s", json_object_new_double_s(s->dur, dbuf));
	json_object_object_add(root, "time", json_object_new_double(ptk_ctx_walltime(s->ctx)));
	json_object_object_add(root, "ncpu", json_object_new_int(s->ncpu_online));
	for (int i = 0; i < rs->n; i++) {
		struct row *r = &rs->r[i];
		struct json_object *o = json_object_new_object(), *a;
		json_object_object_add(o, "resource", json_object_new_string(r->resource));
		json_object_object_add(o, "device",
				       r->device[0] ? json_object_new_string(r->device) : NULL);
		json_object_object_add(o, "utilization", mvals_json(r->util, r->nu));
		json_object_object_add(o, "saturation", mvals_json(r->sat, r->ns));
		json_object_object_add(o, "errors", mvals_json(r->err, r->ne));
		json_object_object_add(o, "verdict",
				       json_object_new_string(verdict_name[r->verdict]));
		json_object_object_add(o, "partial", json_object_new_boolean(r->partial));
		a = json_object_new_array();
		for (int k = 0; k < r->nev; k++)
			json_object_array_add(a, json_object_new_string(r->evidence[k]));
		json_object_object_add(o, "evidence", a);
		a = json_object_new_array();
		for (int k = 0; k < r->noff; k++) {
			struct json_object *x = json_object_new_object();
			const struct offender *of = &r->off[k];
			json_object_object_add(x, "pid", json_object_new_int(of->pid));
			json_object_object_add(x, "comm", json_object_new_string(of->comm));
			json_object_object_add(x, "kind", json_object_new_string(r->offender_kind));
			if (of->what[0]) {
				json_object_object_add(x, "detail",
						       json_object_new_string(of->what));
			} else {
				struct ptk_val v = PTK_F(of->value);
				json_object_object_add(x, of->m->key, ptk_json_val(of->m, &v));
			}
			json_object_array_add(a, x);
		}
		json_object_object_add(o, "offenders", a);
		a = json_object_new_array();
		for (int k = 0; k < r->nnext; k++)
			json_object_array_add(a, json_object_new_string(r->next[k]));
		json_object_object_add(o, "next", a);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "resources", arr);
	struct json_object *obs = json_object_new_object(), *src = json_object_new_array();
	json_object_object_add(obs, "cpu_s", json_object_new_double(s->cpu_ns / 1e9));
	json_object_object_add(obs, "wall_s", json_object_new_double(wall));
	json_object_object_add(
		obs, "cpu_pct_of_one_cpu",
		json_object_new_double(wall > 0 ? 100.0 * s->cpu_ns / 1e9 / wall : 0));
	json_object_object_add(obs, "samples", json_object_new_int(s->ticks));
	json_object_object_add(obs, "bpf_run_time_ns",
			       s->have_watch && s->wres.bpf_run_ns ?
				       json_object_new_uint64(s->wres.bpf_run_ns) :
				       NULL);
	/* which BPF loader and hook flavour ran the programs (cpuwatch.h), null without BPF */
	json_object_object_add(
		obs, "bpf_loader",
		s->have_watch && s->wres.loader ? json_object_new_string(s->wres.loader) : NULL);
	json_object_object_add(
		obs, "bpf_hook",
		s->have_watch && s->wres.hook ? json_object_new_string(s->wres.hook) : NULL);
	source_json(src, "/proc/stat", s->b.err_st);
	source_json(src, "/proc/loadavg", s->b.err_la);
	source_json(src, "/proc/meminfo", s->b.err_mi);
	source_json(src, "/proc/vmstat", s->b.err_vm);
	source_json(src, "/proc/diskstats", s->b.err_ds);
	source_json(src, "/proc/net/dev", s->b.err_nd);
	source_json(src, "/proc/net/snmp+netstat", s->b.err_snmp);
	for (int i = 0; i < PTK_PSI_NRES; i++) {
		char n[64];
		snprintf(n, sizeof(n), "/proc/pressure/%s", ptk_psi_res_name[i]);
		source_json(src, n, s->b.err_psi[i]);
	}
	source_json(src, "/proc/PID/{stat,io}",
		    s->err_pb ? s->err_pb : (s->pb.denied ? -EACCES : 0));
	source_json(src, "/proc/PID/task/TID/{stat,wchan}", s->err_threads);
	source_json(src, s->live ? "/dev/kmsg" : "kmsg", s->err_km);
	source_json(src, "bpf: runqlat + short-lived processes", s->err_watch);
	json_object_object_add(obs, "sources", src);
	json_object_object_add(root, "observer", obs);
	ptk_sink_begin(&s->ctx->sink);
	json_object_put(s->ctx->sink.obj);
	s->ctx->sink.obj = root;
	ptk_sink_end(&s->ctx->sink);
}

static const char usage[] =
	"usage: ptk check [-d SECONDS] [--json] [--procfs DIR] [--sysfs DIR]\n"
	"\n"
	"The USE method (Utilization, Saturation, Errors) for every resource, and the 'first\n"
	"60 seconds' checklist (uptime, dmesg, vmstat, mpstat, pidstat, iostat, free, sar -n\n"
	"DEV/TCP) in one command. Samples for -d seconds (default 10; a countdown shows on a\n"
	"terminal), then prints one row per resource -- cpu, memory, each disk with I/O, each\n"
	"network interface and TCP, the kernel log -- with a verdict (ok, warning, critical), the\n"
	"evidence, the top offending processes, and the ptk command to run next.\n"
	"\n"
	"  -d, --duration SECONDS   sampling window, 1 to 86400 (default 10, fractions allowed)\n"
	"  --json                   one JSON object: {duration_s, resources:[...], observer}\n"
	"  --procfs DIR             read a snapshot tree from 'ptk capture' (no sleeping)\n"
	"\n"
	"Thresholds and why:\n"
	"  cpu     warning: busy >= 70%, run queue > 1 per CPU, PSI cpu some >= 10% of the window,\n"
	"          one CPU >= 90% busy while the others average < 50% (a single-thread\n"
	"          bottleneck), steal >= 10% (a noisy neighbour).\n"
	"          critical: busy >= 90% with run queue > 1 per CPU or PSI some >= 10%; run queue\n"
	"          >= 2 per CPU; PSI cpu some >= 40%.\n"
	"          With BPF (root, kernel BTF): run-queue latency p99 from sched_wakeup to\n"
	"          sched_switch, warning when its log2 bucket reaches 8-16 ms, critical at\n"
	"          32-64 ms; and the processes that started and exited inside the window, which\n"
	"          no snapshot sees. Without BPF check falls back to /proc quietly.\n"
	"          busy excludes iowait: iowait is idle time (the CPU is free; a task waits on I/O).\n"
	"          Load averages count D-state tasks: high load with idle CPUs is an I/O or\n"
	"          D-state storm, not a CPU storm.\n"
	"  memory  warning: available < 10%, any swap-in or swap-out (saturation), direct\n"
	"          reclaim, PSI memory some >= 10% or full >= 5%.\n"
	"          critical: an OOM kill in the window, available < 5%, swapping > 1 MiB/s, PSI\n"
	"          memory full >= 20%.\n"
	"  disk    %util means 'busy at least once per tick', not 'at capacity': a device that\n"
	"          serves requests in parallel (NVMe, SSD, virtio, RAID) can show 100% with room\n"
	"          to spare. So %util alone judges only rotational disks (warning >= 60%,\n"
	"          critical >= 90% with aqu-sz > 1); every device is judged by await with a queue\n"
	"          (warning >= 20 ms, critical >= 100 ms, with aqu-sz > 1), PSI io (warning some\n"
	"          >= 10% or full >= 5%, critical full >= 20%), and I/O errors in the kernel log\n"
	"          (critical in the window, warning since boot).\n"
	"  network interfaces: warning at 70% of link speed (critical 90%) when the speed is\n"
	"          known, any drops or errors. TCP: retransmits >= 1% of segments sent (critical\n"
	"          5%, over at least 100 segments), listen queue drops, segments in error.\n"
	"  kernel  OOM kills, I/O errors, hung tasks and lockups in the kernel log: critical in\n"
	"          the window, warning within the last hour. Tasks in D state: warning at >= 1 on\n"
	"          average, critical at >= max(4, CPUs).\n"
	"\n"
	"Unprivileged, it reports what it could not read (other users' /proc/PID/io, the\n"
	"kernel log under kernel.dmesg_restrict=1) instead of guessing. Its own CPU cost over the\n"
	"window is measured and reported under 'observer'.\n"
	"Time travel: --at TIME [--db PATH] [--utc] runs the triage over the window of -d seconds\n"
	"recorded by 'ptk record' from the sample nearest TIME (the kernel log is not recorded).\n"
	"Exit status: 0 when the check ran (whatever the verdicts), 1 on a runtime error, 2 on\n"
	"a usage error.\n";

int cmd_check(struct ptk_ctx *ctx, int argc, char **argv)
{
	enum { OPT_AT = 0x3000, OPT_DB, OPT_UTC };
	static const struct option opts[] = { { "duration", required_argument, NULL, 'd' },
					      { "at", required_argument, NULL, OPT_AT },
					      { "db", required_argument, NULL, OPT_DB },
					      { "utc", no_argument, NULL, OPT_UTC },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct state s = { .ctx = ctx, .want_s = 10 };
	struct rows *rs;
	struct proc_delta *pd;
	const char *at = NULL, *db = NULL;
	char at_dir[PATH_MAX] = "";
	bool utc = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "d:", opts, NULL)) != -1) {
		if (c == OPT_AT || c == OPT_DB) {
			*(c == OPT_AT ? &at : &db) = optarg;
			continue;
		}
		if (c == OPT_UTC) {
			utc = true;
			continue;
		}
		if (c == 'd') {
			if (ptk_parse_double(optarg, &s.want_s) || s.want_s < 1 || s.want_s > 86400)
				return ptk_usage_error(ctx, "invalid duration '%s' (1 to 86400 s)",
						       optarg);
			continue;
		}
		r = ptk_common_opt(ctx, c, optarg);
		if (r == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (r < 0)
			return ptk_usage_error(ctx, "unknown option");
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (at) {
		/* time travel: the recorded window as a snapshot tree, replayed as usual */
		char err[PATH_MAX + 256];
		if (ctx->procfs)
			return ptk_usage_error(ctx, "--at replays the archive: no --procfs");
		int n = ptk_arc_at(db, at, utc, 0, s.want_s, 0, at_dir, sizeof(at_dir), NULL, err,
				   sizeof(err));
		if (n < 2) {
			if (n >= 0)
				ptk_arc_rmtree(at_dir);
			ptk_err("%s", err);
			return PTK_EXIT_RUNTIME;
		}
		ctx->procfs = at_dir;
	}
	if ((r = ptk_ctx_ready(ctx))) {
		ptk_arc_rmtree(at_dir);
		return r;
	}
	s.countdown = isatty(STDERR_FILENO) && !ctx->src.replay && !ctx->json;
	u64 w0 = ptk_now_ns();
	r = check_window(&s, &rs, &pd);
	if (r)
		goto out;
	double wall = ctx->src.replay ? s.dur : (ptk_now_ns() - w0) / 1e9;
	s.cpu_ns = ptk_self_cpu_ns() - ctx->cpu_start_ns;
	if (ctx->json)
		print_json(&s, rs, wall);
	else
		print_text(&s, rs, wall);
	rows_free(rs);
	free(pd);
out:
	state_free(&s);
	ptk_arc_rmtree(at_dir);
	return r;
}

int ptk_check_run(struct ptk_ctx *ctx, double window_s, struct ptk_cpuwatch *watch,
		  struct ptk_check_verdict *out, int max)
{
	struct state s = { .ctx = ctx, .want_s = window_s, .shared_watch = watch, .quiet = true };
	struct rows *rs;
	struct proc_delta *pd;
	int r, n = 0;

	r = check_window(&s, &rs, &pd);
	if (r) {
		state_free(&s);
		return -EIO;
	}
	for (int i = 0; i < rs->n && n < max; i++) {
		out[n].resource = rs->r[i].resource;
		snprintf(out[n].device, sizeof(out[n].device), "%s", rs->r[i].device);
		out[n].verdict = rs->r[i].verdict;
		n++;
	}
	rows_free(rs);
	free(pd);
	state_free(&s);
	return n;
}
