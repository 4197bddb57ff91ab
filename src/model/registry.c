// SPDX-License-Identifier: GPL-2.0
/* The metric registry (model/registry.h): every metric once, indexed by enum ptk_mid. */
#include "model/registry.h"

#include <string.h>

/* Shorthands for the common shapes; every field can still be given by name. */
#define PCT(t, k, w, h, f)                                                                        \
	{                                                                                         \
		.name = t, .key = k, .unit = "%", .kind = PTK_PCT, .type = PTK_V_F64, .width = w, \
		.prec = 2, .help = h, .from = f                                                   \
	}

const struct ptk_metric ptk_registry[PTK_M_COUNT] = {
	[PTK_M_NONE] = { .name = "", .key = "", .unit = "", .help = "no metric" },

/* ---- cpu ---- */

/* ---- load and run queue ---- */

/* ---- tasks and context switches ---- */

/* ---- memory ---- */

/* ---- swap and paging ---- */

/* ---- block I/O and disks ---- */

/* ---- network devices ---- */

/* ---- TCP, IP, UDP, sockets ---- */

/* ---- pressure stall information ---- */

/* ---- check ---- */
#define CG(n, k, u, p, h)                                                                        \
	{                                                                                        \
		.name = n, .key = k, .unit = u, .kind = PTK_GAUGE, .type = PTK_V_F64, .prec = p, \
		.help = h                                                                        \
	}
#define CC(n, k, u, h)                                                                            \
	{                                                                                         \
		.name = n, .key = k, .unit = u, .kind = PTK_COUNTER, .type = PTK_V_U64, .help = h \
	}
#define PROM(k, knd, t, h)                                                                    \
	{                                                                                     \
		.name = k, .key = k, .unit = "", .kind = knd, .type = t, .help = h, .prom = k \
	}
	[PTK_M_CHECK_BUSY] =
		CG("busy", "busy_pct", "%", 1, "CPU time not idle and not iowait (/proc/stat cpu)"),
	[PTK_M_CHECK_USER] =
		CG("usr", "user_pct", "%", 1, "user+nice time (/proc/stat cpu fields 1-2)"),
	[PTK_M_CHECK_SYS] =
		CG("sys", "system_pct", "%", 1, "system+irq+softirq (/proc/stat cpu fields 3,6,7)"),
	[PTK_M_CHECK_IOWAIT] =
		CG("iowait", "iowait_pct", "%", 1,
		   "idle time with I/O outstanding: idle, not busy (/proc/stat field 5)"),
	[PTK_M_CHECK_STEAL] = CG("steal", "steal_pct", "%", 1,
				 "time the hypervisor ran another guest (/proc/stat field 8)"),
	[PTK_M_CHECK_MAXCPU] =
		CG("max cpu", "max_cpu_busy_pct", "%", 1, "busiest single CPU (/proc/stat cpuN)"),
	[PTK_M_CHECK_RUNQ] =
		CG("runq", "runq", "", 2,
		   "runnable tasks, mean of 1 s samples, ptk excluded (/proc/stat procs_running)"),
	[PTK_M_CHECK_RUNQ_PER_CPU] =
		CG("runq/cpu", "runq_per_cpu", "", 2, "run queue per online CPU"),
	[PTK_M_CHECK_LOAD1] =
		CG("load1", "load1", "", 2, "1-min load: R and D tasks (/proc/loadavg)"),
	[PTK_M_CHECK_PSI_SOME] =
		CG("psi some", "psi_some_pct", "%", 1,
		   "share of the window some task stalled (/proc/pressure/* some total=)"),
	[PTK_M_CHECK_PSI_FULL] =
		CG("psi full", "psi_full_pct", "%", 1,
		   "share of the window all non-idle tasks stalled (/proc/pressure/* full)"),
	[PTK_M_CHECK_FORKS] = CG("forks", "forks_per_s", "/s", 1,
				 "processes created per second (/proc/stat processes)"),
	[PTK_M_CHECK_SHORTLIVED] =
		CC("short-lived", "shortlived_processes", "",
		   "processes started and exited inside the window, invisible to any "
		   "snapshot (BPF sched_process_exit)"),
	[PTK_M_CHECK_RUNQLAT_P99] = { .name = "runqlat p99 <=",
				      .key = "runqlat_p99_le_us",
				      .unit = "us",
				      .kind = PTK_GAUGE,
				      .type = PTK_V_U64,
				      .help = "run-queue latency p99, a log2 bucket upper bound (BPF "
					      "sched_wakeup -> sched_switch)" },
	[PTK_M_CHECK_MEM_USED] =
		CG("used", "used_pct", "%", 1, "MemTotal - MemAvailable (/proc/meminfo)"),
	[PTK_M_CHECK_MEM_AVAIL] =
		CG("avail", "available_bytes", "B", 0, "MemAvailable (/proc/meminfo)"),
	[PTK_M_CHECK_SWAP_USED] =
		CG("swap", "swap_used_pct", "%", 1, "SwapTotal - SwapFree (/proc/meminfo)"),
	[PTK_M_CHECK_SWAPIN] = CG("si", "swap_in_pages_per_s", "pg/s", 1,
				  "pages swapped in (/proc/vmstat pswpin)"),
	[PTK_M_CHECK_SWAPOUT] = CG("so", "swap_out_pages_per_s", "pg/s", 1,
				   "pages swapped out (/proc/vmstat pswpout)"),
	[PTK_M_CHECK_PGSCAN_DIRECT] =
		CG("direct reclaim", "direct_scan_pages_per_s", "pg/s", 1,
		   "pages scanned by allocating tasks (/proc/vmstat pgscan_direct)"),
	[PTK_M_CHECK_MAJFLT] = CG("majflt", "major_faults_per_s", "/s", 1,
				  "major page faults (/proc/vmstat pgmajfault)"),
	[PTK_M_CHECK_OOM] =
		CC("oom kills", "oom_kills", "", "OOM kills in the window (/proc/vmstat oom_kill)"),
	[PTK_M_CHECK_DISK_UTIL] = CG("%util", "util_pct", "%", 1,
				     "time with >= 1 request in flight (/proc/diskstats io_ticks)"),
	[PTK_M_CHECK_DISK_RS] =
		CG("r/s", "reads_per_s", "/s", 1, "reads completed (/proc/diskstats field 1)"),
	[PTK_M_CHECK_DISK_WS] =
		CG("w/s", "writes_per_s", "/s", 1, "writes completed (/proc/diskstats field 5)"),
	[PTK_M_CHECK_DISK_RKB] =
		CG("rkB/s", "read_kb_per_s", "kB/s", 1, "kB read (/proc/diskstats sectors/2)"),
	[PTK_M_CHECK_DISK_WKB] =
		CG("wkB/s", "write_kb_per_s", "kB/s", 1, "kB written (/proc/diskstats sectors/2)"),
	[PTK_M_CHECK_DISK_AQU] =
		CG("aqu-sz", "aqu_sz", "", 2,
		   "mean requests queued or in flight (/proc/diskstats time_in_queue)"),
	[PTK_M_CHECK_DISK_RAWAIT] =
		CG("r_await", "r_await_ms", "ms", 2, "mean read latency incl. queueing"),
	[PTK_M_CHECK_DISK_WAWAIT] =
		CG("w_await", "w_await_ms", "ms", 2, "mean write latency incl. queueing"),
	[PTK_M_CHECK_DISK_IOERR] = CC("I/O errors", "io_errors", "",
				      "kernel log I/O errors naming this device (/dev/kmsg)"),
	[PTK_M_CHECK_NET_UTIL] =
		CG("util", "util_pct", "%", 1,
		   "max(rx, tx) bytes/s over link speed, capped at 100; null when the "
		   "speed is unknown (/sys/class/net/IF/speed)"),
	[PTK_M_CHECK_NET_RXKB] =
		CG("rxkB/s", "rx_kb_per_s", "kB/s", 1, "bytes received (/proc/net/dev)"),
	[PTK_M_CHECK_NET_TXKB] =
		CG("txkB/s", "tx_kb_per_s", "kB/s", 1, "bytes sent (/proc/net/dev)"),
	[PTK_M_CHECK_NET_DROPS] =
		CG("drops", "drops_per_s", "/s", 1, "rx+tx drop and fifo (/proc/net/dev)"),
	[PTK_M_CHECK_NET_ERRS] =
		CG("errs", "errors_per_s", "/s", 1, "rx+tx errs, frame, carrier (/proc/net/dev)"),
	[PTK_M_CHECK_TCP_RETRANS_PCT] =
		CG("retrans", "retrans_pct", "%", 2, "RetransSegs / OutSegs (/proc/net/snmp Tcp)"),
	[PTK_M_CHECK_TCP_RETRANS] =
		CG("retrans/s", "retrans_per_s", "/s", 1, "/proc/net/snmp Tcp RetransSegs"),
	[PTK_M_CHECK_TCP_LISTEN_DROPS] =
		CC("listen drops", "listen_drops", "",
		   "SYNs dropped by listeners, accept queue overflows included (/proc/net/netstat "
		   "TcpExt ListenDrops), as nicstat -t Drops"),
	[PTK_M_CHECK_TCP_RESETS] = CG("resets/s", "resets_per_s", "/s", 1,
				      "EstabResets + OutRsts (/proc/net/snmp Tcp)"),
	[PTK_M_CHECK_TCP_INERRS] =
		CC("in errs", "in_errors", "", "/proc/net/snmp Tcp InErrs + InCsumErrors"),
	[PTK_M_CHECK_DSTATE] =
		CG("D tasks", "dstate_tasks", "", 2,
		   "tasks in D state: the larger of the mean of 1 s samples of /proc/stat "
		   "procs_blocked (I/O wait) and the D threads at the first and last scan "
		   "(/proc/PID/task/TID/stat state)"),
	[PTK_M_CHECK_DSTATE_MAX] =
		CG("D max", "dstate_tasks_max", "", 0, "highest 1 s sample of procs_blocked"),
	[PTK_M_CHECK_HUNG] =
		CC("hung tasks", "hung_tasks", "", "'blocked for more than' reports (/dev/kmsg)"),
	[PTK_M_CHECK_LOCKUP] =
		CC("lockups", "lockups", "", "soft/hard lockups, RCU stalls (/dev/kmsg)"),
	[PTK_M_CHECK_KOOM] =
		CC("OOM", "oom_kills_logged", "", "OOM kills in the kernel log (/dev/kmsg)"),
	[PTK_M_CHECK_KOOM_BOOT] = CC("since boot", "oom_kills_logged_since_boot", "",
				     "OOM kills in the kernel log since boot (/dev/kmsg)"),
	[PTK_M_CHECK_KIOERR] =
		CC("I/O err", "io_errors_logged", "", "I/O errors in the kernel log (/dev/kmsg)"),
	[PTK_M_CHECK_OFF_CPU] =
		CG("%CPU", "cpu_pct", "%", 1, "utime+stime over the window (/proc/PID/stat)"),
	[PTK_M_CHECK_OFF_MAJFLT] =
		CG("majflt/s", "major_faults_per_s", "/s", 1, "/proc/PID/stat majflt"),
	[PTK_M_CHECK_OFF_RSS] = CG("RSS", "rss_bytes", "B", 0, "/proc/PID/stat rss * page size"),
	[PTK_M_CHECK_OFF_IO] =
		CG("I/O", "io_bytes_per_s", "B/s", 0, "read_bytes+write_bytes (/proc/PID/io)"),
	[PTK_M_CHECK_NCPU] =
		CG("CPUs", "online_cpus", "", 0,
		   "online CPUs (/sys/devices/system/cpu/online, else /proc/stat cpuN)"),
	[PTK_M_CHECK_MAXCPU_ID] = CG("busiest cpu", "max_cpu", "", 0, "the busiest CPU's number"),
	[PTK_M_CHECK_OTHERS_BUSY] =
		CG("others busy", "others_busy_pct", "%", 0,
		   "mean busy % of the CPUs but the busiest; unknown on one CPU (/proc/stat cpuN)"),
	[PTK_M_CHECK_MEM_AVAIL_PCT] = CG(
		"avail", "available_pct", "%", 1,
		"MemAvailable / MemTotal; MemAvailable is estimated before Linux 3.14 (/proc/meminfo)"),
	[PTK_M_CHECK_OOM_HOST] =
		CC("host oom kills", "oom_kills_host", "",
		   "OOM kills in the window not explained by memory cgroup OOM messages in the "
		   "kernel log (all of them when the log is unreadable)"),
	[PTK_M_CHECK_SWAP_BPS] = CG("swapping", "swap_bytes_per_s", "B/s", 0,
				    "(pswpin + pswpout) x page size per second (/proc/vmstat)"),
	[PTK_M_CHECK_DISK_AWAIT] =
		CG("await", "await_ms", "ms", 1, "max(r_await, w_await) (/proc/diskstats)"),
	[PTK_M_CHECK_DISK_ROT] =
		CG("rotational", "rotational", "", 0,
		   "1 rotational, 0 not, -1 unknown or virtio/xen (whose flag says nothing) "
		   "(/sys/block/DEV/queue/rotational)"),
	[PTK_M_CHECK_DISK_IOERR_BOOT] = CC("I/O errors since boot", "io_errors_since_boot", "",
					   "kernel log I/O errors naming this device since boot"),
	[PTK_M_CHECK_TCP_OUT_SEGS] = CC("segments out", "out_segs", "",
					"segments sent in the window (/proc/net/snmp Tcp OutSegs)"),
	[PTK_M_CHECK_TCP_RETRANS_SEGS] =
		CC("retransmits", "retrans_segs", "",
		   "segments retransmitted in the window (Tcp RetransSegs)"),
	[PTK_M_CHECK_KLOG_WINDOW] = CC("in the window", "logged", "",
				       "messages of one kind in the kernel log in the window"),
	[PTK_M_CHECK_KLOG_BOOT] = CC("since boot", "logged_since_boot", "",
				     "messages of one kind in the kernel log since boot"),
	[PTK_M_CHECK_KLOG_AGE] = CG("last", "last_logged_age_s", "s", 0,
				    "age of the last message of one kind in the kernel log"),
	[PTK_M_CHECK_VERDICT] = PROM(
		"ptk_check_verdict", PTK_GAUGE, PTK_V_U64,
		"ptk check's verdict per resource over the last check window: 0 ok, 1 warning, 2 "
		"critical (the worst device of the resource)."),
	[PTK_M_CHECK_WINDOW] = { .name = "ptk_check_window_seconds",
				 .key = "ptk_check_window_seconds",
				 .prom = "ptk_check_window_seconds",
				 .unit = "seconds",
				 .kind = PTK_GAUGE,
				 .type = PTK_V_F64,
				 .help = "Length of the window the verdicts were computed over." },
	[PTK_M_CHECK_LAST_RUN] = { .name = "ptk_check_last_run_timestamp_seconds",
				   .key = "ptk_check_last_run_timestamp_seconds",
				   .prom = "ptk_check_last_run_timestamp_seconds",
				   .unit = "seconds",
				   .kind = PTK_GAUGE,
				   .type = PTK_V_F64,
				   .help = "When the last check window ended, unixtime." },

	/* ---- processes and threads ---- */

	/* ---- BPF, perf and ptrace tools ---- */

	/* ---- the observer ---- */
	[PTK_M_OBS_BPF_RUN] = { .name = "ptk_bpf_program_run_seconds_total",
				.key = "ptk_bpf_program_run_seconds_total",
				.prom = "ptk_bpf_program_run_seconds_total",
				.unit = "seconds",
				.kind = PTK_COUNTER,
				.type = PTK_V_F64,
				.help = "Kernel CPU time of the exporter's BPF programs (bpf_prog_info "
					"run_time_ns, BPF_ENABLE_STATS), since the exporter started." },
	[PTK_M_OBS_SUCCESS] =
		PROM("ptk_scrape_collector_success", PTK_GAUGE, PTK_V_U64,
		     "Whether a collector succeeded: 1 yes, 0 no (file unreadable, BPF "
		     "unavailable, no result yet)."),
	[PTK_M_OBS_SCRAPE] = { .name = "ptk_scrape_duration_seconds",
			       .key = "ptk_scrape_duration_seconds",
			       .prom = "ptk_scrape_duration_seconds",
			       .unit = "seconds",
			       .kind = PTK_GAUGE,
			       .type = PTK_V_F64,
			       .help = "Time this scrape's collection took to read its sources and "
				       "render, up to this line (CLOCK_MONOTONIC)." },
	[PTK_M_OBS_SCRAPES] =
		PROM("ptk_exporter_scrapes_total", PTK_COUNTER, PTK_V_U64,
		     "/metrics requests answered or being answered, since the exporter "
		     "started."),
	[PTK_M_OBS_COLLECTIONS] =
		PROM("ptk_exporter_collections_total", PTK_COUNTER, PTK_V_U64,
		     "Collections made for them: scrapes that arrive during a collection share the "
		     "next one, so under concurrent scrapes this grows slower than "
		     "ptk_exporter_scrapes_total."),
	[PTK_M_CHECK_AVAILABLE_BYTES] = {
		.name = "ptk_memory_available_bytes",
		.key = "ptk_memory_available_bytes",
		.prom = "ptk_memory_available_bytes",
		.unit = "bytes",
		.kind = PTK_GAUGE,
		.type = PTK_V_U64,
		.help = "Memory available for starting new applications without swapping, as ptk "
			"check judges it and free shows it (/proc/meminfo MemAvailable x 1024); "
			"estimated=\"true\" on kernels without MemAvailable (before 3.14), where "
			"free flags the estimate and node_memory_MemAvailable_bytes is absent.",
	},
#undef CG
#undef CC
#undef PROM
};

/* Every id has an entry: a missing one would have a NULL key. Checked by the unit test
 * (test_registry), and the array size by the compiler. */
_Static_assert(ARRAY_SIZE(ptk_registry) == PTK_M_COUNT, "one registry entry per metric id");

const struct ptk_metric *ptk_registry_by_key(const char *key)
{
	for (int i = 1; i < PTK_M_COUNT; i++)
		if (ptk_registry[i].key && !strcmp(ptk_registry[i].key, key))
			return &ptk_registry[i];
	return NULL;
}
