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
	PTK_M_CPU_ID,
	PTK_M_CPU_USER, /* sar -u: user incl. guest */
	PTK_M_CPU_NICE_ALL, /* sar -u: nice incl. guest_nice */
	PTK_M_CPU_SYSTEM, /* sar -u: system + irq + softirq */
	PTK_M_CPU_USR,
	PTK_M_CPU_NICE,
	PTK_M_CPU_SYS,
	PTK_M_CPU_IOWAIT,
	PTK_M_CPU_IRQ,
	PTK_M_CPU_SOFT,
	PTK_M_CPU_STEAL,
	PTK_M_CPU_GUEST,
	PTK_M_CPU_GNICE,
	PTK_M_CPU_IDLE,
	PTK_M_CPU_USER_NICE, /* vmstat us: user + nice, guests excluded */
	PTK_M_CPU_GUEST_ALL, /* vmstat gu: guest + guest_nice */
	PTK_M_CPU_USR_IRQ, /* dstat usr: user + nice + irq + softirq */

	/* ---- load and run queue: /proc/loadavg, /proc/stat procs_* (act_queue.c) ---- */
	PTK_M_Q_RUNQ_SZ,
	PTK_M_Q_PLIST_SZ,
	PTK_M_Q_LDAVG_1,
	PTK_M_Q_LDAVG_5,
	PTK_M_Q_LDAVG_15,
	PTK_M_Q_BLOCKED,
	PTK_M_Q_PROCS_RUNNING, /* /proc/stat procs_running */
	PTK_M_Q_DSTATE, /* threads in D state (a /proc/PID scan: uptime) */
	PTK_M_Q_UPTIME,
	PTK_M_Q_USERS, /* utmp */

	/* ---- tasks, context switches, interrupts: /proc/stat processes, ctxt, intr ---- */
	PTK_M_TASK_PROC_S,
	PTK_M_TASK_CSWCH_S,
	PTK_M_TASK_INTR_S,

	/* ---- memory: /proc/meminfo (act_mem.c) ---- */
	PTK_M_MEM_TOTAL,
	PTK_M_MEM_USED, /* total - available (free's "used") */
	PTK_M_MEM_FREE,
	PTK_M_MEM_AVAIL,
	PTK_M_MEM_SHARED,
	PTK_M_MEM_BUFF_CACHE,
	PTK_M_MEM_CACHE, /* Cached + SReclaimable (free -w's "cache") */
	PTK_M_MEM_KBMEMUSED, /* total - free - buffers - cached - slab (sar's kbmemused) */
	PTK_M_MEM_USED_PCT,
	PTK_M_MEM_BUFFERS,
	PTK_M_MEM_CACHED,
	PTK_M_MEM_COMMIT,
	PTK_M_MEM_COMMIT_PCT,
	PTK_M_MEM_ACTIVE,
	PTK_M_MEM_INACTIVE,
	PTK_M_MEM_DIRTY,
	PTK_M_MEM_USED_NOCACHE, /* dstat used: total - free - buffers - cache + shmem */

	/* ---- swap and paging: /proc/meminfo Swap*, /proc/vmstat (act_mem.c) ---- */
	PTK_M_SWP_TOTAL,
	PTK_M_SWP_FREE,
	PTK_M_SWP_USED,
	PTK_M_SWP_USED_PCT,
	PTK_M_SWP_CAD,
	PTK_M_SWP_CAD_PCT,
	PTK_M_SWP_PSWPIN,
	PTK_M_SWP_PSWPOUT,
	PTK_M_SWP_SI, /* pswpin in kB: vmstat si */
	PTK_M_SWP_SO,
	PTK_M_PG_PGPGIN,
	PTK_M_PG_PGPGOUT,
	PTK_M_PG_FAULT,
	PTK_M_PG_MAJFLT,
	PTK_M_PG_PGFREE,
	PTK_M_PG_PGSCANK,
	PTK_M_PG_PGSCAND,
	PTK_M_PG_PGSTEAL,
	PTK_M_PG_VMEFF,

	/* ---- block I/O and disks: /proc/diskstats (act_disk.c) ---- */
	PTK_M_IO_RTPS, /* sar -b: whole disks summed */
	PTK_M_IO_WTPS,
	PTK_M_IO_DTPS,
	PTK_M_IO_BREAD,
	PTK_M_IO_BWRTN,
	PTK_M_IO_BDSCD,
	PTK_M_DISK_DEV,
	PTK_M_DISK_TPS, /* per device, and summed in sar -b */
	PTK_M_DISK_R_S,
	PTK_M_DISK_W_S,
	PTK_M_DISK_D_S,
	PTK_M_DISK_F_S,
	PTK_M_DISK_RKB_S,
	PTK_M_DISK_WKB_S,
	PTK_M_DISK_DKB_S,
	PTK_M_DISK_RRQM_S,
	PTK_M_DISK_WRQM_S,
	PTK_M_DISK_DRQM_S,
	PTK_M_DISK_RRQM_PCT,
	PTK_M_DISK_WRQM_PCT,
	PTK_M_DISK_DRQM_PCT,
	PTK_M_DISK_R_AWAIT,
	PTK_M_DISK_W_AWAIT,
	PTK_M_DISK_D_AWAIT,
	PTK_M_DISK_F_AWAIT,
	PTK_M_DISK_RAREQ_SZ,
	PTK_M_DISK_WAREQ_SZ,
	PTK_M_DISK_DAREQ_SZ,
	PTK_M_DISK_AREQ_SZ,
	PTK_M_DISK_AQU_SZ,
	PTK_M_DISK_AWAIT,
	PTK_M_DISK_SVCTM,
	PTK_M_DISK_UTIL,
	PTK_M_DISK_RKB, /* kB in the interval (iostat without -x) */
	PTK_M_DISK_WKB,
	PTK_M_DISK_DKB,
	PTK_M_DISK_KB_S, /* iostat -x -s: r + w + d */
	PTK_M_DISK_RQM_S,
	PTK_M_DISK_WDKB_S, /* iostat -s: written or discarded */
	PTK_M_DISK_RSECT, /* sectors in the interval: iostat's Blk_ columns and its units */
	PTK_M_DISK_WSECT,
	PTK_M_DISK_DSECT,
	PTK_M_DISK_WDSECT,

	/* ---- network devices: /proc/net/dev, /sys/class/net (act_net.c) ---- */
	PTK_M_NET_IFACE,
	PTK_M_NET_RXPCK,
	PTK_M_NET_TXPCK,
	PTK_M_NET_RXKB,
	PTK_M_NET_TXKB,
	PTK_M_NET_RXCMP,
	PTK_M_NET_TXCMP,
	PTK_M_NET_RXMCST,
	PTK_M_NET_IFUTIL,
	PTK_M_NET_RXAVS, /* nicstat rAvs, wAvs: bytes per packet */
	PTK_M_NET_TXAVS,
	PTK_M_NET_SAT, /* nicstat Sat: errors and drops per second */
	PTK_M_NET_RXERR,
	PTK_M_NET_TXERR,
	PTK_M_NET_COLL,
	PTK_M_NET_RXDROP,
	PTK_M_NET_TXDROP,
	PTK_M_NET_TXCARR,
	PTK_M_NET_RXFRAM,
	PTK_M_NET_RXFIFO,
	PTK_M_NET_TXFIFO,

	/* ---- TCP, IP, UDP, sockets: /proc/net/snmp, /proc/net/netstat (act_net.c) ---- */
	PTK_M_TCP_ACTIVE,
	PTK_M_TCP_PASSIVE,
	PTK_M_TCP_ISEG,
	PTK_M_TCP_OSEG,
	PTK_M_TCP_ATMPTF,
	PTK_M_TCP_ESTRES,
	PTK_M_TCP_RETRANS,
	PTK_M_TCP_ISEGERR,
	PTK_M_TCP_ORSTS,
	PTK_M_TCP_RETRANS_PCT, /* retransmitted / sent segments: the one retransmit ratio */
	PTK_M_TCP_RESETS, /* EstabResets + OutRsts (nicstat Reset) */
	PTK_M_TCP_LDROPS, /* TcpExt ListenDrops (nicstat Drops) */
	PTK_M_TCP_INKB, /* nicstat InKB, OutKB: no Linux counter, always unknown */
	PTK_M_TCP_OUTKB,

	/* ---- pressure stall information: /proc/pressure (act_psi.c) ---- */
	PTK_M_PSI_CPU_SOME_AVG10,
	PTK_M_PSI_CPU_SOME_AVG60,
	PTK_M_PSI_CPU_SOME_AVG300,
	PTK_M_PSI_CPU_SOME_PCT,
	PTK_M_PSI_CPU_FULL_AVG10, /* cpu full: kernel >= 5.13, system-wide zero */
	PTK_M_PSI_CPU_FULL_AVG60,
	PTK_M_PSI_CPU_FULL_AVG300,
	PTK_M_PSI_CPU_FULL_PCT,
	PTK_M_PSI_IO_SOME_AVG10,
	PTK_M_PSI_IO_SOME_AVG60,
	PTK_M_PSI_IO_SOME_AVG300,
	PTK_M_PSI_IO_SOME_PCT,
	PTK_M_PSI_IO_FULL_AVG10,
	PTK_M_PSI_IO_FULL_AVG60,
	PTK_M_PSI_IO_FULL_AVG300,
	PTK_M_PSI_IO_FULL_PCT,
	PTK_M_PSI_MEM_SOME_AVG10,
	PTK_M_PSI_MEM_SOME_AVG60,
	PTK_M_PSI_MEM_SOME_AVG300,
	PTK_M_PSI_MEM_SOME_PCT,
	PTK_M_PSI_MEM_FULL_AVG10,
	PTK_M_PSI_MEM_FULL_AVG60,
	PTK_M_PSI_MEM_FULL_AVG300,
	PTK_M_PSI_MEM_FULL_PCT,
	PTK_M_PSI_CPU_SOME_TOTAL, /* total= of each line, us since boot */
	PTK_M_PSI_CPU_FULL_TOTAL,
	PTK_M_PSI_IO_SOME_TOTAL,
	PTK_M_PSI_IO_FULL_TOTAL,
	PTK_M_PSI_MEM_SOME_TOTAL,
	PTK_M_PSI_MEM_FULL_TOTAL,
	PTK_M_PSI_RESOURCE, /* a row's resource and kind (ptk pressure) */
	PTK_M_PSI_KIND,

	/* ---- cgroups: /sys/fs/cgroup (model/cgroup.c; ptk cgtop, check, the exporter) ---- */
	PTK_M_CG_PATH,
	PTK_M_CG_OWNER,
	PTK_M_CG_TASKS,
	PTK_M_CG_TASKS_MAX,
	PTK_M_CG_CPU_PCT,
	PTK_M_CG_USER_PCT,
	PTK_M_CG_SYS_PCT,
	PTK_M_CG_QUOTA,
	PTK_M_CG_PERIOD_US,
	PTK_M_CG_QUOTA_PCT,
	PTK_M_CG_PERIODS,
	PTK_M_CG_THROTTLED,
	PTK_M_CG_THR_PCT,
	PTK_M_CG_THR_S,
	PTK_M_CG_MEM,
	PTK_M_CG_WSET,
	PTK_M_CG_RSS,
	PTK_M_CG_CACHE,
	PTK_M_CG_SWAP,
	PTK_M_CG_PEAK,
	PTK_M_CG_MEM_MAX,
	PTK_M_CG_MEM_HIGH,
	PTK_M_CG_MEM_LOW,
	PTK_M_CG_LIMIT_PCT,
	PTK_M_CG_EV_HIGH,
	PTK_M_CG_EV_MAX,
	PTK_M_CG_FAILCNT,
	PTK_M_CG_EV_OOM,
	PTK_M_CG_EV_OOM_KILL,
	PTK_M_CG_MAJFLT,
	PTK_M_CG_RBPS,
	PTK_M_CG_WBPS,
	PTK_M_CG_RIOPS,
	PTK_M_CG_WIOPS,
	PTK_M_CG_PSI_CPU_SOME,
	PTK_M_CG_PSI_CPU_FULL,
	PTK_M_CG_PSI_MEM_SOME,
	PTK_M_CG_PSI_MEM_FULL,
	PTK_M_CG_PSI_IO_SOME,
	PTK_M_CG_PSI_IO_FULL,
	PTK_M_CG_INFO,

	/* ---- check: USE verdicts and the kernel log (rules.c) ---- */
	/* values of check's USE table (model/use.c) */
	PTK_M_CHECK_BUSY,
	PTK_M_CHECK_USER,
	PTK_M_CHECK_SYS,
	PTK_M_CHECK_IOWAIT,
	PTK_M_CHECK_STEAL,
	PTK_M_CHECK_MAXCPU,
	PTK_M_CHECK_RUNQ,
	PTK_M_CHECK_RUNQ_PER_CPU,
	PTK_M_CHECK_LOAD1,
	PTK_M_CHECK_PSI_SOME,
	PTK_M_CHECK_PSI_FULL,
	PTK_M_CHECK_FORKS,
	PTK_M_CHECK_SHORTLIVED,
	PTK_M_CHECK_RUNQLAT_P99,
	PTK_M_CHECK_MEM_USED,
	PTK_M_CHECK_MEM_AVAIL,
	PTK_M_CHECK_SWAP_USED,
	PTK_M_CHECK_SWAPIN,
	PTK_M_CHECK_SWAPOUT,
	PTK_M_CHECK_PGSCAN_DIRECT,
	PTK_M_CHECK_MAJFLT,
	PTK_M_CHECK_OOM,
	PTK_M_CHECK_DISK_UTIL,
	PTK_M_CHECK_DISK_RS,
	PTK_M_CHECK_DISK_WS,
	PTK_M_CHECK_DISK_RKB,
	PTK_M_CHECK_DISK_WKB,
	PTK_M_CHECK_DISK_AQU,
	PTK_M_CHECK_DISK_RAWAIT,
	PTK_M_CHECK_DISK_WAWAIT,
	PTK_M_CHECK_DISK_IOERR,
	PTK_M_CHECK_NET_UTIL,
	PTK_M_CHECK_NET_RXKB,
	PTK_M_CHECK_NET_TXKB,
	PTK_M_CHECK_NET_DROPS,
	PTK_M_CHECK_NET_ERRS,
	PTK_M_CHECK_TCP_RETRANS_PCT,
	PTK_M_CHECK_TCP_RETRANS,
	PTK_M_CHECK_TCP_LISTEN_DROPS,
	PTK_M_CHECK_TCP_RESETS,
	PTK_M_CHECK_TCP_INERRS,
	PTK_M_CHECK_DSTATE,
	PTK_M_CHECK_DSTATE_MAX,
	PTK_M_CHECK_HUNG,
	PTK_M_CHECK_LOCKUP,
	PTK_M_CHECK_KOOM,
	PTK_M_CHECK_KOOM_BOOT,
	PTK_M_CHECK_KIOERR,
	/* offenders: what a process is ranked by */
	PTK_M_CHECK_OFF_CPU,
	PTK_M_CHECK_OFF_MAJFLT,
	PTK_M_CHECK_OFF_RSS,
	PTK_M_CHECK_OFF_IO,
	/* rule inputs that the table does not show (model/rules.c) */
	PTK_M_CHECK_NCPU,
	PTK_M_CHECK_MAXCPU_ID,
	PTK_M_CHECK_OTHERS_BUSY,
	PTK_M_CHECK_MEM_AVAIL_PCT,
	PTK_M_CHECK_OOM_HOST,
	PTK_M_CHECK_SWAP_BPS,
	PTK_M_CHECK_DISK_AWAIT,
	PTK_M_CHECK_DISK_ROT,
	PTK_M_CHECK_DISK_IOERR_BOOT,
	PTK_M_CHECK_TCP_OUT_SEGS,
	PTK_M_CHECK_TCP_RETRANS_SEGS,
	PTK_M_CHECK_KLOG_WINDOW,
	PTK_M_CHECK_KLOG_BOOT,
	PTK_M_CHECK_KLOG_AGE,
	PTK_M_CHECK_CG_THROTTLED_N,
	PTK_M_CHECK_CG_MEMLIMIT_N,
	PTK_M_CHECK_HOST_IDLE,
	PTK_M_CHECK_OOM_CG_UNSEEN,
	PTK_M_CHECK_MEM_PSI_HOST,
	/* the exporter's verdict families */
	PTK_M_CHECK_VERDICT,
	PTK_M_CHECK_WINDOW,
	PTK_M_CHECK_LAST_RUN,
	PTK_M_CHECK_AVAILABLE_BYTES,

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
	/* sysstat pidstat -T CHILD, -s, -v, -R */
	PTK_M_PROC_CUSR_MS,
	PTK_M_PROC_CSYS_MS,
	PTK_M_PROC_CGUEST_MS,
	PTK_M_PROC_CMINFLT,
	PTK_M_PROC_CMAJFLT,
	PTK_M_PROC_STKSIZE,
	PTK_M_PROC_STKREF,
	PTK_M_PROC_NTHREADS,
	PTK_M_PROC_FD_NR,
	PTK_M_PROC_RTPRIO,
	PTK_M_PROC_POLICY,
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

	/* ---- the sample ---- */
	PTK_M_SAMPLE_TIME, /* local time of a sample, as a column (vmstat -t) */

	/* ---- the observer ---- */
	PTK_M_OBS_BPF_RUN,
	PTK_M_OBS_SUCCESS,
	PTK_M_OBS_SCRAPE,
	PTK_M_OBS_SCRAPES,
	PTK_M_OBS_COLLECTIONS,

	/* ---- the exporter: BPF and process-table families (ptk exporter) ---- */
	PTK_M_EXP_RUNQ_LATENCY, /* a histogram */
	PTK_M_EXP_SHORTLIVED,
	PTK_M_EXP_TG_CSW, /* {process, group} */
	PTK_M_EXP_TG_THREADS,
	PTK_M_EXP_PROC_CPU, /* top-N processes {pid, comm[, cmdline]} */
	PTK_M_EXP_PROC_RSS,
	PTK_M_EXP_PROC_THREADS,
	PTK_M_EXP_PROC_READ,
	PTK_M_EXP_PROC_WRITTEN,
	PTK_M_EXP_PROC_START,

	PTK_M_COUNT
};

extern const struct ptk_metric ptk_registry[PTK_M_COUNT];

/* The registry entry of PTK_M_<name>: PTK_M(CPU_USR) is &ptk_registry[PTK_M_CPU_USR]. An
 * address constant, usable in static tables. */
#define PTK_M(name) (&ptk_registry[PTK_M_##name])

/* The entry whose JSON key is key (the first, in registry order), or NULL. */
const struct ptk_metric *ptk_registry_by_key(const char *key);

#endif
