/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metric registry: every metric ptk shows, described once. An entry (struct ptk_metric,
 * model/metric.h) carries the column title as the classic tool prints it, one JSON key (the
 * same in every command), its Prometheus family or NULL, unit, kind (counter, gauge, rate,
 * percentage), text width and precision, what it is computed from, and its help text
 * (meaning plus the kernel source: file and field). Text columns, JSON keys, exposition
 * names and help, the archive's columns, --help listings and man page tables all come from
 * here, so the sinks cannot disagree.
 *
 * How to add a metric: add PTK_M_<AREA>_<NAME> to the enum in the section of its area, and
 * its designated initializer [PTK_M_...] = { ... } in the same section of registry.c (the
 * static_assert there checks every id has an entry). Name the JSON key for what it is, not
 * for the command that shows it: a metric two commands show is one entry. Commands point
 * at entries with PTK_M(NAME) in a table's refs[] (struct ptk_table).
 */
#ifndef PTK_MODEL_REGISTRY_H
#define PTK_MODEL_REGISTRY_H

#include "model/metric.h"

enum ptk_mid {
	PTK_M_NONE, /* 0: no metric (a terminator for id lists) */

	/* ---- cpu: /proc/stat cpu lines (act_cpu.c) ---- */

	/* ---- load and run queue: /proc/loadavg, /proc/stat procs_* (act_queue.c) ---- */

	/* ---- tasks and context switches: /proc/stat processes, ctxt (act_task.c) ---- */

	/* ---- memory: /proc/meminfo (act_mem.c) ---- */

	/* ---- swap and paging: /proc/meminfo Swap*, /proc/vmstat (act_mem.c) ---- */

	/* ---- block I/O and disks: /proc/diskstats (act_disk.c) ---- */

	/* ---- network devices: /proc/net/dev, /sys/class/net (act_net.c) ---- */

	/* ---- TCP, IP, UDP, sockets: /proc/net/snmp, /proc/net/netstat (act_net.c) ---- */

	/* ---- pressure stall information: /proc/pressure (act_psi.c) ---- */

	/* ---- check: USE verdicts and the kernel log (rules.c) ---- */

	/* ---- processes and threads: /proc/PID (top, pidstat, iotop, cswtop, pmap) ---- */
	/* Where procps top and sysstat pidstat print the same quantity with different
	 * decimals, each keeps its classic precision as its own entry (TOP_* beside PROC_*,
	 * CSW_* beside PROC_*), with the same key: a JSON value is the printed text. */
	PTK_M_PROC_PID,
	PTK_M_PROC_TID,
	PTK_M_PROC_TGID,
	PTK_M_PROC_PPID,
	PTK_M_PROC_UID,
	PTK_M_PROC_EUSER,
	PTK_M_PROC_RUSER,
	PTK_M_PROC_COMM,
	PTK_M_PROC_COMMAND,
	PTK_M_PROC_STATE,
	PTK_M_PROC_PRIORITY,
	PTK_M_PROC_NICE,
	PTK_M_PROC_IOPRIO,
	PTK_M_PROC_CPUNUM,
	PTK_M_PROC_CGROUP,
	PTK_M_PROC_FDS,
	PTK_M_PROC_USR_PCT,
	PTK_M_PROC_SYSTEM_PCT,
	PTK_M_PROC_GUEST_PCT,
	PTK_M_PROC_WAIT_PCT,
	PTK_M_PROC_CPU_PCT,
	PTK_M_PROC_USER_PCT,
	PTK_M_TOP_CPU_PCT,
	PTK_M_PROC_CPU_TIME,
	PTK_M_PROC_MINFLT_S,
	PTK_M_PROC_MAJFLT_S,
	PTK_M_TOP_MAJFLT_S,
	PTK_M_PROC_VIRT_KB,
	PTK_M_PROC_RES_KB,
	PTK_M_PROC_SHR_KB,
	PTK_M_PROC_VSZ_KB,
	PTK_M_PROC_RSS_KB,
	PTK_M_PROC_MEM_PCT,
	PTK_M_TOP_MEM_PCT,
	PTK_M_PROC_RD_KB_S,
	PTK_M_PROC_WR_KB_S,
	PTK_M_PROC_CCWR_KB_S,
	PTK_M_PROC_RKB_S,
	PTK_M_PROC_WKB_S,
	PTK_M_PROC_IODELAY,
	PTK_M_PROC_READ_BPS,
	PTK_M_PROC_WRITE_BPS,
	PTK_M_PROC_SWAPIN_PCT,
	PTK_M_PROC_IO_PCT,
	PTK_M_IOTOP_TOTAL_READ_BPS,
	PTK_M_IOTOP_TOTAL_WRITE_BPS,
	PTK_M_IOTOP_ACTUAL_READ_BPS,
	PTK_M_IOTOP_ACTUAL_WRITE_BPS,
	PTK_M_PROC_CSW_S,
	PTK_M_PROC_CSWCH_S,
	PTK_M_PROC_NVCSWCH_S,
	PTK_M_CSW_CSWCH_S,
	PTK_M_CSW_NVCSWCH_S,
	PTK_M_CSW_SHARE_PCT,
	PTK_M_CSW_THREADS,
	PTK_M_CSW_MEAN_S,
	PTK_M_CSW_M1_S,
	PTK_M_CSW_M5_S,
	PTK_M_CSW_M15_S,
	PTK_M_CSW_GROUP,
	PTK_M_PROC_GROUPBY_KEY,
	PTK_M_PROC_GROUPBY_NTASKS,
	PTK_M_TOP_GROUP,
	PTK_M_TOP_GROUP_TASKS,
	PTK_M_MAP_ADDRESS,
	PTK_M_MAP_KBYTES,
	PTK_M_MAP_RSS_KB,
	PTK_M_MAP_PSS_KB,
	PTK_M_MAP_DIRTY_KB,
	PTK_M_MAP_SWAP_KB,
	PTK_M_MAP_MODE,
	PTK_M_MAP_MAPPING,
	PTK_M_MAP_OFFSET,
	PTK_M_MAP_DEVICE,
	PTK_M_MAP_MAPPED_KB,
	PTK_M_MAP_WPRIV_KB,
	PTK_M_MAP_SHARED_KB,
	/* top's summary lines, procps top's precision (1 decimal) */
	PTK_M_TOP_FORKS_S,
	PTK_M_TOP_CPU_US_PCT,
	PTK_M_TOP_CPU_NI_PCT,
	PTK_M_TOP_CPU_SY_PCT,
	PTK_M_TOP_CPU_ID_PCT,
	PTK_M_TOP_CPU_WA_PCT,
	PTK_M_TOP_CPU_HI_PCT,
	PTK_M_TOP_CPU_SI_PCT,
	PTK_M_TOP_CPU_ST_PCT,

	/* ---- BPF, perf and ptrace tools ---- */
	PTK_M_EVENT_TS, /* an event's time since tracing started (the snoop tools' TIME(s)) */
	PTK_M_PERF_COUNT,
	PTK_M_PERF_UNIT,
	PTK_M_PERF_EVENT,
	PTK_M_PERF_RUNTIME,
	PTK_M_PERF_RUNNING_PCT,
	PTK_M_PERF_METRIC,
	PTK_M_PERF_METRIC_UNIT,
	PTK_M_PERF_STATUS,
	PTK_M_PROF_SELF_PCT,
	PTK_M_PROF_TOTAL_PCT,
	PTK_M_PROF_SELF_SAMPLES,
	PTK_M_PROF_FUNCTION,
	PTK_M_SYSC_TIME_PCT,
	PTK_M_SYSC_SECONDS,
	PTK_M_SYSC_USECS_PER_CALL,
	PTK_M_SYSC_CALLS,
	PTK_M_SYSC_ERRORS,
	PTK_M_SYSC_NAME,
	PTK_M_PTRACE_THREADS,
	PTK_M_PTRACE_THREADS_STOPPED,
	PTK_M_PTRACE_PAUSE_MS,
	PTK_M_STACK_THREADS,
	PTK_M_STACK_THREAD_NAME,
	PTK_M_STACK_END,
	PTK_M_FRAME_LEVEL,
	PTK_M_FRAME_PC,
	PTK_M_FRAME_FUNC,
	PTK_M_FRAME_OFFSET,
	PTK_M_FRAME_MODULE,
	PTK_M_FRAME_FILE,
	PTK_M_FRAME_LINE,
	PTK_M_FRAME_INLINED,
	PTK_M_CORE_FILE,
	PTK_M_CORE_THREADS,
	PTK_M_CORE_MAPPINGS,
	PTK_M_CORE_DUMPED_BYTES,
	PTK_M_CORE_UNTOUCHED_BYTES,
	PTK_M_CORE_UNREADABLE_BYTES,
	PTK_M_CORE_FILTER,

	/* ---- the observer ---- */

	PTK_M_COUNT
};

extern const struct ptk_metric ptk_registry[PTK_M_COUNT];

/* The registry entry of PTK_M_<name>: PTK_M(CPU_USR) is &ptk_registry[PTK_M_CPU_USR]. An
 * address constant, usable in static tables. */
#define PTK_M(name) (&ptk_registry[PTK_M_##name])

/* The entry whose JSON key is key (the first, in registry order), or NULL. */
const struct ptk_metric *ptk_registry_by_key(const char *key);

#endif
