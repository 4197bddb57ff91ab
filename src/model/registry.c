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

/* ---- processes and threads ---- */
#define PM(t, k, u, kd, ty, w, p, h)                                                           \
	{                                                                                      \
		.name = t, .key = k, .unit = u, .kind = kd, .type = ty, .width = w, .prec = p, \
		.help = h                                                                      \
	}
	/* ids: signed, as pid_t (the kernel's -1 / 0 mean "none" in some records) */
	[PTK_M_PROC_PID] = PM("PID", "pid", "", PTK_GAUGE, PTK_V_S64, 5, 0,
			      "process id: the thread group id; a thread's id in thread rows "
			      "(top -H) (/proc/PID/stat field 1)"),
	[PTK_M_PROC_TID] = PM("TID", "tid", "", PTK_GAUGE, PTK_V_S64, 7, 0,
			      "thread id (/proc/PID/task/TID); iotop -P shows a process id in it"),
	[PTK_M_PROC_TGID] = PM("TGID", "tgid", "", PTK_GAUGE, PTK_V_S64, 9, 0,
			       "thread group id: the process a thread belongs to (/proc/PID/status "
			       "Tgid:)"),
	[PTK_M_PROC_PPID] = PM("PPID", "ppid", "", PTK_GAUGE, PTK_V_S64, 6, 0,
			       "parent process id (/proc/PID/stat field 4, task->real_parent)"),
	[PTK_M_PROC_UID] = PM("UID", "uid", "", PTK_GAUGE, PTK_V_U64, 5, 0,
			      "real user id (/proc/PID/status Uid: field 1)"),
	[PTK_M_PROC_EUSER] = PM("USER", "user", "", PTK_GAUGE, PTK_V_STR, -8, 0,
				"effective user: owner of /proc/PID (root when not dumpable)"),
	[PTK_M_PROC_RUSER] = PM("USER", "user", "", PTK_GAUGE, PTK_V_STR, -8, 0,
				"real user (/proc/PID/status Uid:)"),
	[PTK_M_PROC_COMM] =
		PM("comm", "comm", "", PTK_GAUGE, PTK_V_STR, 0, 0, "process name (/proc/PID/comm)"),
	[PTK_M_PROC_COMMAND] = PM("COMMAND", "command", "", PTK_GAUGE, PTK_V_STR, -7, 0,
				  "command name (/proc/PID/stat comm) or, as the command's option "
				  "asks (top -c, pidstat -l, iotop), the command line "
				  "(/proc/PID/cmdline, controls escaped)"),
	[PTK_M_PROC_STATE] = PM("S", "state", "", PTK_GAUGE, PTK_V_STR, 1, 0,
				"state R S D Z T t I (/proc/PID/stat field 3)"),
	[PTK_M_PROC_PRIORITY] = PM("PR", "priority", "", PTK_GAUGE, PTK_V_S64, 3, 0,
				   "kernel priority; rt for real-time (/proc/PID/stat field 18)"),
	[PTK_M_PROC_NICE] = PM("NI", "nice", "", PTK_GAUGE, PTK_V_S64, 3, 0,
			       "nice value (/proc/PID/stat field 19)"),
	[PTK_M_PROC_IOPRIO] = PM("PRIO", "prio", "", PTK_GAUGE, PTK_V_STR, 4, 0,
				 "I/O priority class/level (ioprio_get(2)); be/N derived from nice "
				 "when unset"),
	[PTK_M_PROC_CPUNUM] = PM("CPU", "cpu", "", PTK_GAUGE, PTK_V_S64, 5, 0,
				 "processor the task last ran on (/proc/PID/stat field 39)"),
	[PTK_M_PROC_CGROUP] = PM("CGROUP", "cgroup", "", PTK_GAUGE, PTK_V_STR, -24, 0,
				 "cgroup v2 path (/proc/PID/cgroup)"),
	[PTK_M_PROC_FDS] = PM("FDS", "fds", "", PTK_GAUGE, PTK_V_S64, 5, 0,
			      "open file descriptors (/proc/PID/fd entries)"),
	/* CPU: sysstat pidstat's (2 decimals) and procps top's (1 decimal) */
	[PTK_M_PROC_USR_PCT] = PM("%usr", "usr_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				  "user mode, guest time excluded: (utime - guest_time) ticks per "
				  "interval, % of one CPU (/proc/PID/stat fields 14, 43)"),
	[PTK_M_PROC_SYSTEM_PCT] = PM("%system", "system_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				     "kernel mode: stime ticks, % of one CPU (/proc/PID/stat "
				     "field 15)"),
	[PTK_M_PROC_GUEST_PCT] = PM("%guest", "guest_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				    "running a virtual CPU: guest_time ticks (/proc/PID/stat field "
				    "43)"),
	[PTK_M_PROC_WAIT_PCT] =
		PM("%wait", "wait_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
		   "runnable but waiting for a CPU: run_delay ns (/proc/PID/schedstat "
		   "field 2, CONFIG_SCHED_INFO)"),
	[PTK_M_PROC_CPU_PCT] = PM("%CPU", "cpu_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				  "utime + stime as % of one CPU (a process is the sum of its "
				  "threads); with pidstat -I as % of all CPUs (/proc/stat total "
				  "ticks)"),
	[PTK_M_PROC_USER_PCT] = PM("%user", "user_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				   "group: user mode including guest time (utime), % of one CPU"),
	[PTK_M_TOP_CPU_PCT] =
		PM("%CPU", "cpu_pct", "%", PTK_PCT, PTK_V_F64, 5, 1,
		   "CPU time in the interval, % of one CPU; threads summed, capped at "
		   "ncpu x 100; a group's tasks summed (/proc/PID/stat utime+stime)"),
	[PTK_M_PROC_CPU_TIME] = PM("TIME+", "time_s", "s", PTK_COUNTER, PTK_V_F64, 9, 2,
				   "CPU time since start, shown min:sec.hundredths (stat "
				   "utime+stime)"),
	[PTK_M_PROC_MINFLT_S] = PM("minflt/s", "minflt_s", "/s", PTK_RATE, PTK_V_F64, 9, 2,
				   "minor faults (no disk read) per second (/proc/PID/stat field "
				   "10)"),
	[PTK_M_PROC_MAJFLT_S] = PM("majflt/s", "majflt_s", "/s", PTK_RATE, PTK_V_F64, 9, 2,
				   "major faults (page read from disk) per second (/proc/PID/stat "
				   "field 12)"),
	[PTK_M_TOP_MAJFLT_S] = PM("majflt/s", "majflt_s", "/s", PTK_RATE, PTK_V_F64, 8, 1,
				  "major page faults (/proc/PID/stat field 12)"),
	/* memory */
	[PTK_M_PROC_VIRT_KB] = PM("VIRT", "virt_kb", "KiB", PTK_GAUGE, PTK_V_U64, 7, 0,
				  "virtual memory size (/proc/PID/statm size x page size)"),
	[PTK_M_PROC_RES_KB] = PM("RES", "res_kb", "KiB", PTK_GAUGE, PTK_V_U64, 6, 0,
				 "resident memory (/proc/PID/statm resident = VmRSS); a group's "
				 "sum counts each process once"),
	[PTK_M_PROC_SHR_KB] = PM("SHR", "shr_kb", "KiB", PTK_GAUGE, PTK_V_U64, 6, 0,
				 "resident file-backed and shmem pages (/proc/PID/statm shared)"),
	[PTK_M_PROC_VSZ_KB] =
		PM("VSZ", "vsz_kb", "kB", PTK_GAUGE, PTK_V_F64, 7, 0,
		   "virtual memory size (/proc/PID/stat field 23 / 1024); mean of the "
		   "samples on Average lines"),
	[PTK_M_PROC_RSS_KB] =
		PM("RSS", "rss_kb", "kB", PTK_GAUGE, PTK_V_F64, 7, 0,
		   "resident set size (/proc/PID/stat field 24 x page size); mean of "
		   "the samples on Average lines; a group's sum counts the threads of "
		   "a process once"),
	[PTK_M_PROC_MEM_PCT] = PM("%MEM", "mem_pct", "%", PTK_PCT, PTK_V_F64, 6, 2,
				  "RSS as % of MemTotal (/proc/meminfo)"),
	[PTK_M_TOP_MEM_PCT] = PM("%MEM", "mem_pct", "%", PTK_PCT, PTK_V_F64, 5, 1,
				 "RES as % of MemTotal (/proc/meminfo)"),
	/* I/O */
	[PTK_M_PROC_RD_KB_S] = PM("kB_rd/s", "rd_kb_s", "kB/s", PTK_RATE, PTK_V_F64, 9, 2,
				  "read from storage, page cache misses (/proc/PID/io read_bytes)"),
	[PTK_M_PROC_WR_KB_S] = PM("kB_wr/s", "wr_kb_s", "kB/s", PTK_RATE, PTK_V_F64, 9, 2,
				  "caused to be written to storage, counted when dirtied "
				  "(/proc/PID/io write_bytes)"),
	[PTK_M_PROC_CCWR_KB_S] = PM("kB_ccwr/s", "ccwr_kb_s", "kB/s", PTK_RATE, PTK_V_F64, 9, 2,
				    "dirty page cache truncated before writeback (/proc/PID/io "
				    "cancelled_write_bytes)"),
	[PTK_M_PROC_RKB_S] = PM("rkB/s", "rkb_s", "kB/s", PTK_RATE, PTK_V_F64, 8, 1,
				"block-layer reads (/proc/PID/io read_bytes)"),
	[PTK_M_PROC_WKB_S] = PM("wkB/s", "wkb_s", "kB/s", PTK_RATE, PTK_V_F64, 8, 1,
				"block-layer writes (/proc/PID/io write_bytes)"),
	[PTK_M_PROC_IODELAY] =
		PM("iodelay", "iodelay_ticks", "ticks", PTK_GAUGE, PTK_V_F64, 7, 0,
		   "clock ticks spent waiting for block I/O and swap-in in the "
		   "interval (/proc/PID/stat field 42, needs kernel.task_delayacct=1); "
		   "per interval on Average lines"),
	[PTK_M_PROC_READ_BPS] = PM("DISK READ", "read_Bps", "B/s", PTK_RATE, PTK_V_F64, 11, 2,
				   "bytes read from storage per second (/proc/PID/io read_bytes); "
				   "bytes since start with iotop -a"),
	[PTK_M_PROC_WRITE_BPS] = PM("DISK WRITE", "write_Bps", "B/s", PTK_RATE, PTK_V_F64, 11, 2,
				    "bytes caused to be written to storage per second, truncated "
				    "dirty pages excluded (/proc/PID/io write_bytes - "
				    "cancelled_write_bytes); bytes with iotop -a"),
	[PTK_M_PROC_SWAPIN_PCT] = PM("SWAPIN", "swapin_pct", "%", PTK_PCT, PTK_V_F64, 6, 2,
				     "% of the interval waiting for swap-in (taskstats "
				     "swapin_delay_total, needs delay accounting)"),
	[PTK_M_PROC_IO_PCT] = PM("IO>", "io_pct", "%", PTK_PCT, PTK_V_F64, 6, 2,
				 "% of the interval waiting for block I/O (taskstats "
				 "blkio_delay_total, needs delay accounting)"),
	[PTK_M_IOTOP_TOTAL_READ_BPS] =
		PM("Total DISK READ", "total_read_Bps", "B/s", PTK_RATE, PTK_V_F64, 0, 2,
		   "sum of the tasks' read_bytes rates (/proc/PID/io)"),
	[PTK_M_IOTOP_TOTAL_WRITE_BPS] =
		PM("Total DISK WRITE", "total_write_Bps", "B/s", PTK_RATE, PTK_V_F64, 0, 2,
		   "sum of the tasks' write_bytes - cancelled_write_bytes "
		   "rates"),
	[PTK_M_IOTOP_ACTUAL_READ_BPS] =
		PM("Actual DISK READ", "actual_read_Bps", "B/s", PTK_RATE, PTK_V_F64, 0, 2,
		   "read from block devices (/proc/vmstat pgpgin, kB)"),
	[PTK_M_IOTOP_ACTUAL_WRITE_BPS] =
		PM("Actual DISK WRITE", "actual_write_Bps", "B/s", PTK_RATE, PTK_V_F64, 0, 2,
		   "written to block devices (/proc/vmstat pgpgout, kB)"),
	/* context switches: pidstat -w's (2 decimals), cswtop's and top's (1 decimal) */
	[PTK_M_PROC_CSW_S] = PM("csw/s", "csw_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
				"context switches per second in the interval, voluntary + "
				"involuntary (/proc/PID/task/TID/status)"),
	[PTK_M_PROC_CSWCH_S] = PM("cswch/s", "cswch_s", "/s", PTK_RATE, PTK_V_F64, 9, 2,
				  "voluntary context switches per second: the task blocked "
				  "(/proc/PID/status voluntary_ctxt_switches)"),
	[PTK_M_PROC_NVCSWCH_S] = PM("nvcswch/s", "nvcswch_s", "/s", PTK_RATE, PTK_V_F64, 9, 2,
				    "involuntary context switches per second: preempted "
				    "(/proc/PID/status nonvoluntary_ctxt_switches)"),
	[PTK_M_CSW_CSWCH_S] = PM("cswch/s", "cswch_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
				 "voluntary switches per second: the thread blocked or slept "
				 "(status voluntary_ctxt_switches, as pidstat -w cswch/s)"),
	[PTK_M_CSW_NVCSWCH_S] = PM("nvcswch/s", "nvcswch_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
				   "involuntary switches per second: preempted while runnable "
				   "(status nonvoluntary_ctxt_switches, as pidstat -w nvcswch/s)"),
	[PTK_M_CSW_SHARE_PCT] = PM("%csw", "csw_pct", "%", PTK_PCT, PTK_V_F64, 6, 1,
				   "share of all switches counted in the interval (shown threads "
				   "only)"),
	[PTK_M_CSW_THREADS] = PM("threads", "threads", "", PTK_GAUGE, PTK_V_U64, 7, 0,
				 "threads in the group now (/proc/PID/task entries)"),
	[PTK_M_CSW_MEAN_S] = PM("mean/s", "mean_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
				"switches counted since the group was first seen / elapsed seconds "
				"(Coda Hale Meter mean rate)"),
	[PTK_M_CSW_M1_S] = PM("m1/s", "m1_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
			      "1-minute EWMA rate, 5 s ticks, alpha = 1 - exp(-5/60); '-' before "
			      "the first tick (Coda Hale Meter)"),
	[PTK_M_CSW_M5_S] = PM("m5/s", "m5_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
			      "5-minute EWMA rate, alpha = 1 - exp(-5/300) (Coda Hale Meter)"),
	[PTK_M_CSW_M15_S] = PM("m15/s", "m15_s", "/s", PTK_RATE, PTK_V_F64, 9, 1,
			       "15-minute EWMA rate, alpha = 1 - exp(-5/900) (Coda Hale Meter)"),
	[PTK_M_CSW_GROUP] = PM("group", "group", "", PTK_GAUGE, PTK_V_STR, 0, 0,
			       "grouping key: pool name, regex capture, comm, comm[tgid] or cgroup "
			       "path"),
	/* --group-by (model/ptask.h) */
	[PTK_M_PROC_GROUPBY_KEY] = PM("Group", "key", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				      "group: the key (pid, tgid, comm, user, cgroup path or "
				      "container id)"),
	[PTK_M_PROC_GROUPBY_NTASKS] = PM("tasks", "ntasks", "", PTK_GAUGE, PTK_V_U64, 6, 0,
					 "group: tasks with a valid rate in the group"),
	[PTK_M_TOP_GROUP] = PM("GROUP", "group", "", PTK_GAUGE, PTK_V_STR, -24, 0,
			       "grouping key (pid, tgid, comm, user, cgroup path or container "
			       "id)"),
	[PTK_M_TOP_GROUP_TASKS] =
		PM("TASKS", "tasks", "", PTK_GAUGE, PTK_V_U64, 6, 0, "tasks in the group"),
	/* memory maps: /proc/PID/smaps, maps (pmap) */
	[PTK_M_MAP_ADDRESS] =
		PM("Address", "address", "", PTK_GAUGE, PTK_V_STR, -16, 0,
		   "start of the mapping, hex (/proc/PID/smaps header line, field 1)"),
	[PTK_M_MAP_KBYTES] = PM("Kbytes", "kbytes", "kB", PTK_GAUGE, PTK_V_U64, 7, 0,
				"virtual size, (end - start) / 1024 (smaps header line, field 1)"),
	[PTK_M_MAP_RSS_KB] = PM("RSS", "rss_kb", "kB", PTK_GAUGE, PTK_V_U64, 7, 0,
				"resident in RAM (smaps Rss:, fs/proc/task_mmu.c smaps_account)"),
	[PTK_M_MAP_PSS_KB] = PM("PSS", "pss_kb", "kB", PTK_GAUGE, PTK_V_U64, 7, 0,
				"proportional share: each resident page divided by its mapcount "
				"(smaps Pss:)"),
	[PTK_M_MAP_DIRTY_KB] = PM("Dirty", "dirty_kb", "kB", PTK_GAUGE, PTK_V_U64, 7, 0,
				  "modified resident pages (smaps Shared_Dirty: + Private_Dirty:)"),
	[PTK_M_MAP_SWAP_KB] = PM("Swap", "swap_kb", "kB", PTK_GAUGE, PTK_V_U64, 7, 0,
				 "anonymous pages of the mapping in swap (smaps Swap:)"),
	[PTK_M_MAP_MODE] = PM("Mode", "mode", "", PTK_GAUGE, PTK_V_STR, 5, 0,
			      "r w x and s(hared) or - (private), then '-' (smaps header field "
			      "2)"),
	[PTK_M_MAP_MAPPING] = PM("Mapping", "mapping", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				 "file name (full path with -p), [ anon ], [ stack ], or the -X "
				 "kernel name"),
	[PTK_M_MAP_OFFSET] = PM("Offset", "offset", "bytes", PTK_GAUGE, PTK_V_STR, -16, 0,
				"file offset of the mapping, hex (maps field 3)"),
	[PTK_M_MAP_DEVICE] = PM("Device", "device", "", PTK_GAUGE, PTK_V_STR, -9, 0,
				"major:minor of the file's device, hex (maps field 4)"),
	[PTK_M_MAP_MAPPED_KB] = PM("mapped", "mapped_kb", "kB", PTK_GAUGE, PTK_V_U64, 0, 0,
				   "sum of the virtual sizes of all mappings"),
	[PTK_M_MAP_WPRIV_KB] =
		PM("writeable/private", "writeable_private_kb", "kB", PTK_GAUGE, PTK_V_U64, 0, 0,
		   "virtual size of private writable mappings (perms rw?p)"),
	[PTK_M_MAP_SHARED_KB] = PM("shared", "shared_kb", "kB", PTK_GAUGE, PTK_V_U64, 0, 0,
				   "virtual size of shared mappings (perms ???s)"),
/* top's summary: %Cpu(s) shares of the interval's /proc/stat cpu line ticks */
#define TOPCPU(t, k, h) PM(t, k, "%", PTK_PCT, PTK_V_F64, 5, 1, h " (/proc/stat cpu line)")
	[PTK_M_TOP_FORKS_S] = PM("forks/s", "forks_s", "/s", PTK_RATE, PTK_V_F64, 5, 1,
				 "processes created per second (/proc/stat processes)"),
	[PTK_M_TOP_CPU_US_PCT] = TOPCPU("us", "cpu_us_pct", "user mode, guest included: user"),
	[PTK_M_TOP_CPU_NI_PCT] = TOPCPU("ni", "cpu_ni_pct", "niced user mode: nice"),
	[PTK_M_TOP_CPU_SY_PCT] = TOPCPU("sy", "cpu_sy_pct", "kernel mode: system"),
	[PTK_M_TOP_CPU_ID_PCT] = TOPCPU("id", "cpu_id_pct", "idle"),
	[PTK_M_TOP_CPU_WA_PCT] = TOPCPU("wa", "cpu_wa_pct", "idle with I/O outstanding: iowait"),
	[PTK_M_TOP_CPU_HI_PCT] = TOPCPU("hi", "cpu_hi_pct", "hardware interrupts: irq"),
	[PTK_M_TOP_CPU_SI_PCT] = TOPCPU("si", "cpu_si_pct", "software interrupts: softirq"),
	[PTK_M_TOP_CPU_ST_PCT] = TOPCPU("st", "cpu_st_pct", "stolen by the hypervisor: steal"),
#undef TOPCPU

	/* ---- BPF, perf and ptrace tools ---- */
	[PTK_M_EVENT_TS] = PM("TIME(s)", "ts_s", "s", PTK_GAUGE, PTK_V_F64, -8, 3,
			      "seconds since tracing started (the first event), CLOCK_MONOTONIC "
			      "(bpf_ktime_get_ns)"),
	/* perf stat: perf stat --json-output's keys */
	[PTK_M_PERF_COUNT] = PM("counts", "counter-value", "", PTK_COUNTER, PTK_V_F64, 18, 6,
				"the count over the interval, scaled by time_enabled/time_running "
				"when multiplexed; msec for task-clock and cpu-clock (perf_event "
				"read(2))"),
	[PTK_M_PERF_UNIT] = PM("unit", "unit", "", PTK_GAUGE, PTK_V_STR, -4, 0,
			       "unit of the count: msec for the clock events, else empty"),
	[PTK_M_PERF_EVENT] = PM("events", "event", "", PTK_GAUGE, PTK_V_STR, -32, 0,
				"the event as given with -e"),
	[PTK_M_PERF_RUNTIME] = PM("run", "event-runtime", "ns", PTK_COUNTER, PTK_V_U64, 0, 0,
				  "time the event was on the PMU (PERF_FORMAT_TOTAL_TIME_RUNNING)"),
	[PTK_M_PERF_RUNNING_PCT] = PM("%run", "pcnt-running", "%", PTK_PCT, PTK_V_F64, 0, 2,
				      "time_running / time_enabled: below 100 the PMU multiplexed "
				      "the event"),
	[PTK_M_PERF_METRIC] = PM("metric", "metric-value", "", PTK_GAUGE, PTK_V_F64, 0, 6,
				 "derived metric (perf stat-shadow): CPUs utilized, GHz, IPC, miss "
				 "%, rate"),
	[PTK_M_PERF_METRIC_UNIT] = PM("metric unit", "metric-unit", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				      "what the derived metric is"),
	[PTK_M_PERF_STATUS] = PM("status", "status", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				 "counted, not counted (never ran) or not supported (no such PMU "
				 "event)"),
	/* profile --top: perf report's Self and Children */
	[PTK_M_PROF_SELF_PCT] = PM("SELF%", "self_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				   "share of samples taken in this function (the leaf frame)"),
	[PTK_M_PROF_TOTAL_PCT] = PM("TOTAL%", "total_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				    "share of samples with this function anywhere on the stack "
				    "(once per stack)"),
	[PTK_M_PROF_SELF_SAMPLES] = PM("SAMPLES", "self_samples", "", PTK_COUNTER, PTK_V_U64, 8, 0,
				       "samples taken in this function"),
	[PTK_M_PROF_FUNCTION] = PM("FUNCTION", "function", "", PTK_GAUGE, PTK_V_STR, -1, 0,
				   "symbol: ELF .symtab/.dynsym by build ID, /tmp/perf-PID.map, "
				   "kallsyms"),
	/* strace -c: strace's summary layout */
	[PTK_M_SYSC_TIME_PCT] = PM("% time", "time_pct", "%", PTK_PCT, PTK_V_F64, 6, 2,
				   "share of the traced system time spent in this syscall"),
	[PTK_M_SYSC_SECONDS] = PM("seconds", "seconds", "s", PTK_COUNTER, PTK_V_F64, 11, 6,
				  "tracee system time between syscall entry and exit stops (wait4 "
				  "rusage ru_stime, kernel/sys.c getrusage)"),
	[PTK_M_SYSC_USECS_PER_CALL] = PM("usecs/call", "usecs_per_call", "us", PTK_GAUGE, PTK_V_U64,
					 11, 0, "seconds / calls, in microseconds"),
	[PTK_M_SYSC_CALLS] = PM("calls", "calls", "", PTK_COUNTER, PTK_V_U64, 9, 0,
				"completed calls (syscall-exit stops)"),
	[PTK_M_SYSC_ERRORS] = PM("errors", "errors", "", PTK_COUNTER, PTK_V_U64, 9, 0,
				 "calls that returned an error (PTRACE_GET_SYSCALL_INFO is_error)"),
	[PTK_M_SYSC_NAME] = PM("syscall", "syscall", "", PTK_GAUGE, PTK_V_STR, -16, 0,
			       "syscall name (x86_64 table, "
			       "arch/x86/entry/syscalls/syscall_64.tbl)"),
	/* ptrace stops: pstack, gcore */
	[PTK_M_PTRACE_THREADS] = PM("threads", "threads", "", PTK_GAUGE, PTK_V_U64, 0, 0,
				    "threads found in /proc/PID/task"),
	[PTK_M_PTRACE_THREADS_STOPPED] =
		PM("stopped", "threads_stopped", "", PTK_GAUGE, PTK_V_U64, 0, 0,
		   "threads stopped and read (others exited meanwhile)"),
	[PTK_M_PTRACE_PAUSE_MS] = PM("pause", "pause_ms", "ms", PTK_GAUGE, PTK_V_F64, 0, 3,
				     "time the process was held: first PTRACE_INTERRUPT to last "
				     "PTRACE_DETACH (CLOCK_MONOTONIC)"),
	[PTK_M_STACK_THREADS] = PM("threads", "count", "", PTK_GAUGE, PTK_V_U64, 0, 0,
				   "threads with this stack (pstack --group)"),
	[PTK_M_STACK_THREAD_NAME] = PM("name", "name", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				       "thread name (/proc/PID/task/TID/comm, "
				       "pthread_setname_np)"),
	[PTK_M_STACK_END] = PM("end", "stack_end", "", PTK_GAUGE, PTK_V_STR, 0, 0,
			       "why the stack ends: outermost frame, loop (pc and CFA repeat), max "
			       "frames, or the unwinder's error"),
	[PTK_M_FRAME_LEVEL] =
		PM("#", "level", "", PTK_GAUGE, PTK_V_U64, 0, 0, "frame number, 0 innermost"),
	[PTK_M_FRAME_PC] = PM("pc", "pc", "", PTK_GAUGE, PTK_V_STR, 0, 0,
			      "program counter (frame 0, signal-interrupted frames) or return "
			      "address"),
	[PTK_M_FRAME_FUNC] = PM("function", "func", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				"symbol (.symtab, else .dynsym) or inlined function (DWARF)"),
	[PTK_M_FRAME_OFFSET] =
		PM("offset", "offset", "bytes", PTK_GAUGE, PTK_V_U64, 0, 0, "pc - function start"),
	[PTK_M_FRAME_MODULE] = PM("module", "module", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				  "ELF file mapped at pc (/proc/PID/maps)"),
	[PTK_M_FRAME_FILE] = PM("file", "file", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				"source file (DWARF line table; -s)"),
	[PTK_M_FRAME_LINE] = PM("line", "line", "", PTK_GAUGE, PTK_V_U64, 0, 0, "source line (-s)"),
	[PTK_M_FRAME_INLINED] = PM("inlined", "inlined", "", PTK_GAUGE, PTK_V_U64, 0, 0,
				   "1: inlined into the next frame (same pc; -i)"),
	[PTK_M_CORE_FILE] = PM("file", "file", "", PTK_GAUGE, PTK_V_STR, 0, 0, "core file written"),
	[PTK_M_CORE_THREADS] = PM("threads", "threads", "", PTK_GAUGE, PTK_V_U64, 0, 0,
				  "threads dumped (one NT_PRSTATUS each)"),
	[PTK_M_CORE_MAPPINGS] = PM("mappings", "mappings", "", PTK_GAUGE, PTK_V_U64, 0, 0,
				   "PT_LOAD segments: one per mapping of /proc/PID/maps"),
	[PTK_M_CORE_DUMPED_BYTES] =
		PM("dumped", "dumped_bytes", "bytes", PTK_GAUGE, PTK_V_U64, 0, 0,
		   "memory contents read and stored: sum of p_filesz (per "
		   "coredump_filter) minus the untouched and unreadable bytes"),
	[PTK_M_CORE_UNTOUCHED_BYTES] =
		PM("untouched", "untouched_bytes", "bytes", PTK_GAUGE, PTK_V_U64, 0, 0,
		   "bytes of dumped private anonymous mappings never touched "
		   "(pagemap: not present, not swapped): holes reading as "
		   "zeros, not read (the kernel skips them too: FOLL_DUMP)"),
	[PTK_M_CORE_UNREADABLE_BYTES] =
		PM("unreadable", "unreadable_bytes", "bytes", PTK_GAUGE, PTK_V_U64, 0, 0,
		   "bytes of dumped mappings that could not be read: holes "
		   "reading as zeros (the kernel skips such pages the same "
		   "way, fs/coredump.c dump_user_range)"),
	[PTK_M_CORE_FILTER] = PM("filter", "coredump_filter", "", PTK_GAUGE, PTK_V_STR, 0, 0,
				 "/proc/PID/coredump_filter used (\"all\" with -a)"),
#undef PM

	/* ---- the observer ---- */
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
