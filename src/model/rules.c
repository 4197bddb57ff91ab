// SPDX-License-Identifier: GPL-2.0
/* ptk check's USE rules (model/rules.h): the table, its evaluator and its documentation. */
#include "model/rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const ptk_verdict_name[PTK_VERDICT_N] = { "ok", "warning", "critical" };

const char *const ptk_rule_group_name[PTK_RG_N] = {
	[PTK_RG_CPU] = "cpu",	    [PTK_RG_MEMORY] = "memory", [PTK_RG_DISK] = "disk",
	[PTK_RG_DISK_PSI] = "disk", [PTK_RG_NET] = "network",	[PTK_RG_TCP] = "tcp",
	[PTK_RG_KLOG] = "kernel",   [PTK_RG_KERNEL] = "kernel", [PTK_RG_CGROUP] = "cgroup",
};

/* conditions on the rule's own metric, and on another one */
#define GE(x)                                \
	{                                    \
		.cmp = PTK_CMP_GE, .at = (x) \
	}
#define GT(x)                                \
	{                                    \
		.cmp = PTK_CMP_GT, .at = (x) \
	}
#define LT(x)                                \
	{                                    \
		.cmp = PTK_CMP_LT, .at = (x) \
	}
#define ON(id, c, x)                                                 \
	{                                                            \
		.m = PTK_M_CHECK_##id, .cmp = PTK_CMP_##c, .at = (x) \
	}
#define ARGS(...) .args = { __VA_ARGS__ }
#define A(id) PTK_M_CHECK_##id

const struct ptk_rule ptk_rules[] = {
	/* ---- cpu ---- */
	{ .name = "cpu.busy",
	  .group = PTK_RG_CPU,
	  .metric = A(BUSY),
	  .crit = { .test = GE(90),
		    .guard = { ON(RUNQ_PER_CPU, GT, 1), ON(PSI_SOME, GE, 10) },
		    .evidence = "CPUs {v}% busy with {a.2} runnable tasks per CPU: saturated" },
	  .warn = { .test = GE(70), .evidence = "CPUs {v}% busy (warning at {t}%)" },
	  ARGS(A(RUNQ_PER_CPU)),
	  .reason = "busy is CPU time neither idle nor iowait: iowait is idle time (the CPU is "
		    "free; a task waits on I/O). Busy CPUs are saturated only when tasks also "
		    "queue for them (run queue or PSI)." },
	{ .name = "cpu.runq",
	  .group = PTK_RG_CPU,
	  .metric = A(RUNQ_PER_CPU),
	  .crit = { .test = GE(2),
		    .evidence = "run queue {v.2} per CPU: tasks wait for a CPU "
				"(runqlat)" },
	  .warn = { .test = GT(1),
		    .evidence = "run queue {v.2} per CPU: more runnable tasks than CPUs" },
	  .reason = "runnable tasks (mean of 1 s samples of procs_running, ptk excluded) per "
		    "online CPU: above 1, tasks wait for a CPU." },
	{ .name = "cpu.psi",
	  .group = PTK_RG_CPU,
	  .metric = A(PSI_SOME),
	  .crit = { .test = GE(40),
		    .guard = { ON(CG_THROTTLED_N, LE, 0), ON(BUSY, GE, 70) },
		    .unless = { ON(RUNQLAT_P99, LT, 1024), ON(BUSY, LT, 70) },
		    .evidence = "PSI cpu some {v.1}%: tasks stalled waiting for "
				"CPU" },
	  .warn = { .test = GE(10),
		    .guard = { ON(CG_THROTTLED_N, LE, 0), ON(BUSY, GE, 70) },
		    .unless = { ON(RUNQLAT_P99, LT, 1024), ON(BUSY, LT, 70) },
		    .evidence = "PSI cpu some {v.1}%: tasks stalled waiting for "
				"CPU" },
	  .note = { .test = GE(10),
		    .guard = { ON(CG_THROTTLED_N, GT, 0) },
		    .evidence = "PSI cpu some {v.1}% with the CPUs {a}% busy: the tasks of {b} "
				"cgroup(s) throttled at their CPU quota wait for their next "
				"period, not for a CPU (see the cgroup rows)" },
	  ARGS(A(BUSY), A(CG_THROTTLED_N)),
	  .reason = "share of the window some task was runnable but waited for a CPU "
		    "(/proc/pressure/cpu); throttled tasks count as waiting, so with CPUs "
		    "under 70% busy and a cgroup throttled at its quota it is only a note. "
		    "Saturation is queueing that costs the waiters time: with CPUs under 70% "
		    "busy and a run-queue latency p99 under 1 ms (BPF runqlat), the stalls are "
		    "many short waits of waking tasks, and cpu.psi-short says so instead." },
	{ .name = "cpu.psi-short",
	  .group = PTK_RG_CPU,
	  .metric = A(PSI_SOME),
	  .guard = ON(RUNQLAT_P99, LT, 1024),
	  .note = { .test = GE(10),
		    .guard = { ON(CG_THROTTLED_N, LE, 0) },
		    .unless = { ON(BUSY, GE, 70) },
		    .evidence = "PSI cpu some {v.1}% with the CPUs {a}% busy and runqlat p99 <= "
				"{b} us: many short waits of waking tasks, not a CPU "
				"shortage" },
	  ARGS(A(BUSY), A(RUNQLAT_P99)),
	  .reason = "a note only (BPF): PSI counts every wait of a runnable task, however "
		    "short; while the CPUs are under 70% busy and 99% of the run-queue waits "
		    "end within 1 ms, no task is held up by a CPU shortage (the USE method's "
		    "saturation is a queue that costs time)." },
	{ .name = "cpu.single",
	  .group = PTK_RG_CPU,
	  .metric = A(MAXCPU),
	  .warn = { .test = GE(90),
		    .guard = { ON(OTHERS_BUSY, LT, 50) },
		    .evidence = "cpu{a} {v}% busy while the other CPUs average {b}%: a "
				"single-thread bottleneck" },
	  ARGS(A(MAXCPU_ID), A(OTHERS_BUSY)),
	  .reason = "one busy CPU beside idle ones is a single-thread bottleneck that the "
		    "machine-wide busy % hides (more than one CPU online)." },
	{ .name = "cpu.steal",
	  .group = PTK_RG_CPU,
	  .metric = A(STEAL),
	  .warn = { .test = GE(10),
		    .evidence = "steal {v.1}%: the hypervisor ran other guests "
				"(noisy neighbour)" },
	  .reason = "time the hypervisor gave this guest's CPUs to others: a noisy neighbour." },
	{ .name = "cpu.iowait",
	  .group = PTK_RG_CPU,
	  .metric = A(IOWAIT),
	  .note = { .test = GE(5),
		    .evidence = "iowait {v.1}% is idle time: the CPUs are free, "
				"tasks wait on I/O (see disk)" },
	  .reason = "a note only: iowait is idle time, the disks say whether I/O is the "
		    "problem." },
	{ .name = "cpu.load",
	  .group = PTK_RG_CPU,
	  .metric = A(LOAD1),
	  .note = { .test = { .cmp = PTK_CMP_GT, .at = 0, .or_ncpu = true },
		    .guard = { ON(BUSY, LT, 50) },
		    .evidence = "load {v.2} on {a} CPUs with CPUs {b}% busy: Linux load counts "
				"D-state tasks, so this is an I/O or D-state storm, not a CPU one "
				"(see kernel)" },
	  ARGS(A(NCPU), A(BUSY)),
	  .reason = "a note only: load averages count D-state tasks, so high load with idle "
		    "CPUs is an I/O or D-state storm, not a CPU storm." },
	{ .name = "cpu.runqlat",
	  .group = PTK_RG_CPU,
	  .metric = A(RUNQLAT_P99),
	  .crit = { .test = GE(65535),
		    .guard = { ON(CG_THROTTLED_N, LE, 0), ON(BUSY, GE, 70) },
		    .evidence = "runqlat p99 <= {v} us: runnable tasks waited "
				"tens of ms for a CPU" },
	  .warn = { .test = GE(16383),
		    .guard = { ON(CG_THROTTLED_N, LE, 0), ON(BUSY, GE, 70) },
		    .evidence = "runqlat p99 <= {v} us: runnable tasks waited "
				"ms for a CPU" },
	  .note = { .test = GE(16383),
		    .evidence = "runqlat p99 <= {v} us with the CPUs {a}% busy: the tasks of "
				"{b} cgroup(s) throttled at their CPU quota wait for their next "
				"period, not for a CPU (see the cgroup rows)" },
	  ARGS(A(BUSY), A(CG_THROTTLED_N)),
	  .reason = "with BPF (root, kernel BTF): the p99 log2 bucket of the run-queue latency "
		    "from sched_wakeup to sched_switch, warning at the 8-16 ms bucket, critical "
		    "at 32-64 ms. Without BPF check falls back to /proc quietly. A task "
		    "throttled at its cgroup's CPU quota stays runnable until the next period "
		    "(up to the period less the quota, 80 ms at 0.2 CPU), so with CPUs under 70% "
		    "busy and a cgroup throttled at its quota it is only a note, as PSI." },
	{ .name = "cpu.shortlived",
	  .group = PTK_RG_CPU,
	  .metric = A(SHORTLIVED),
	  .note = { .test = GE(10),
		    .evidence = "{v} processes started and exited inside the "
				"window: CPU no snapshot sees (ptk execsnoop "
				"names them)" },
	  .reason = "a note only (BPF): processes that start and exit inside the window take "
		    "CPU that no /proc snapshot sees." },
	{ .name = "cpu.forks",
	  .group = PTK_RG_CPU,
	  .metric = A(FORKS),
	  .note = { .test = GE(10),
		    .guard = { ON(SHORTLIVED, NA, 0) },
		    .evidence = "{v} forks/s: short-lived processes may take CPU no snapshot "
				"sees" },
	  .reason = "a note only, without BPF: the fork rate hints at short-lived processes." },

	/* ---- memory ---- */
	{ .name = "memory.oom",
	  .group = PTK_RG_MEMORY,
	  .metric = A(OOM),
	  .crit = { .test = GT(0),
		    .guard = { ON(OOM_HOST, GT, 0) },
		    .evidence = "{v} OOM kill(s) during the window" },
	  .warn = { .test = GT(0),
		    .guard = { ON(OOM_CG_UNSEEN, GT, 0) },
		    .evidence = "{v} OOM kill(s) during the window, all inside a memory cgroup "
				"that hit its limit (memory.max): the host itself has {a.1}% "
				"available" },
	  .note = { .test = GT(0),
		    .evidence = "{v} OOM kill(s) during the window, each inside a memory cgroup "
				"at its limit (see the cgroup rows): the host itself has {a.1}% "
				"available" },
	  ARGS(A(MEM_AVAIL_PCT)),
	  .reason = "an OOM kill in the window (/proc/vmstat oom_kill); a warning when the "
		    "kernel log shows each was a memory cgroup at its limit, a note when the "
		    "cgroups' own counters (memory.events, memory.oom_control) count them all." },
	{ .name = "memory.available",
	  .group = PTK_RG_MEMORY,
	  .metric = A(MEM_AVAIL_PCT),
	  .crit = { .test = LT(5), .evidence = "only {v.1}% of memory available{s0}" },
	  .warn = { .test = LT(10), .evidence = "only {v.1}% of memory available{s0}" },
	  .reason = "MemAvailable as a share of MemTotal (estimated, and said so, on kernels "
		    "without MemAvailable)." },
	{ .name = "memory.swapping",
	  .group = PTK_RG_MEMORY,
	  .metric = A(SWAP_BPS),
	  .crit = { .test = GT(1048576),
		    .evidence = "swapping: {a.1} pages/s in, {b.1} pages/s "
				"out (anything above 0 is saturation)" },
	  .warn = { .test = GT(0),
		    .evidence = "swapping: {a.1} pages/s in, {b.1} pages/s out "
				"(anything above 0 is saturation)" },
	  ARGS(A(SWAPIN), A(SWAPOUT)),
	  .reason = "any swap-in or swap-out is memory saturation; critical above 1 MiB/s." },
	{ .name = "memory.reclaim",
	  .group = PTK_RG_MEMORY,
	  .metric = A(PGSCAN_DIRECT),
	  .warn = { .test = GT(0),
		    .evidence = "direct reclaim: {v} pages/s scanned by allocating "
				"tasks" },
	  .reason = "allocating tasks reclaim pages themselves: memory saturation." },
	{ .name = "memory.psi",
	  .group = PTK_RG_MEMORY,
	  .metric = A(PSI_FULL),
	  .crit = { .test = GE(20),
		    .guard = { ON(CG_MEMLIMIT_N, LE, 0), ON(MEM_AVAIL_PCT, LT, 20) },
		    .evidence = "PSI memory full {v.1}%: all tasks stalled on "
				"memory" },
	  .warn = { .test = GE(5),
		    .guard = { ON(CG_MEMLIMIT_N, LE, 0), ON(MEM_AVAIL_PCT, LT, 20) },
		    .alt = ON(MEM_PSI_HOST, GE, 10),
		    .evidence = "PSI memory some {a.1}%, full {v.1}%: tasks stall on memory" },
	  .note = { .alt = ON(PSI_SOME, GE, 10),
		    .evidence = "PSI memory some {a.1}%, full {v.1}%: the stalls are inside {c} "
				"cgroup(s) at their own memory limit, the host has {b.1}% "
				"available (see the cgroup rows)" },
	  ARGS(A(PSI_SOME), A(MEM_AVAIL_PCT), A(CG_MEMLIMIT_N)),
	  .reason = "share of the window tasks stalled on memory (/proc/pressure/memory); "
		    "warning also at some >= 10%; only a note while a cgroup is at its own "
		    "memory limit and the host has 20% or more available." },

	/* ---- disks ---- */
	{ .name = "disk.ioerr",
	  .group = PTK_RG_DISK,
	  .metric = A(DISK_IOERR),
	  .crit = { .test = GT(0),
		    .evidence = "{v} I/O error(s) for {s0} in the kernel log "
				"during the window" },
	  .warn = { .alt = ON(DISK_IOERR_BOOT, GT, 0),
		    .evidence = "{a} I/O error(s) for {s0} in the kernel log since boot" },
	  ARGS(A(DISK_IOERR_BOOT)),
	  .reason = "I/O errors naming the device in the kernel log: critical in the window, "
		    "warning since boot." },
	{ .name = "disk.util",
	  .group = PTK_RG_DISK,
	  .metric = A(DISK_UTIL),
	  .guard = ON(DISK_ROT, GE, 1),
	  .crit = { .test = GE(90),
		    .guard = { ON(DISK_AQU, GT, 1) },
		    .evidence = "%util {v} with aqu-sz {a.2} on a rotational disk: saturated" },
	  .warn = { .test = GE(60), .evidence = "%util {v} on a rotational disk" },
	  ARGS(A(DISK_AQU)),
	  .reason = "%util means 'busy at least once per tick', not 'at capacity': a device "
		    "that serves requests in parallel (NVMe, SSD, virtio, RAID) can show 100% "
		    "with room to spare. So %util alone judges only rotational disks." },
	{ .name = "disk.util-parallel",
	  .group = PTK_RG_DISK,
	  .metric = A(DISK_UTIL),
	  .guard = ON(DISK_ROT, LT, 1),
	  .note = { .test = GE(90),
		    .evidence = "%util {v} on a device that serves requests in "
				"parallel ({s1}) is not saturation: judge by "
				"aqu-sz {a.2} and await {b.2} ms" },
	  ARGS(A(DISK_AQU), A(DISK_AWAIT)),
	  .reason = "a note only: on other devices (virtio and xen disks included, whatever "
		    "their rotational flag says) await with a queue judges." },
	{ .name = "disk.await",
	  .group = PTK_RG_DISK,
	  .metric = A(DISK_AWAIT),
	  .guard = ON(DISK_AQU, GT, 1),
	  .crit = { .test = GE(100), .evidence = "await {v.1} ms with {a.2} requests queued" },
	  .warn = { .test = GE(20), .evidence = "await {v.1} ms with {a.2} requests queued" },
	  ARGS(A(DISK_AQU)),
	  .reason = "the larger of r_await and w_await, on every device, when requests queue." },
	{ .name = "disk.psi",
	  .group = PTK_RG_DISK_PSI,
	  .metric = A(PSI_FULL),
	  .crit = { .test = GE(20), .evidence = "PSI io full {v.1}%: all tasks stalled on I/O" },
	  .warn = { .test = GE(5),
		    .alt = ON(PSI_SOME, GE, 10),
		    .evidence = "PSI io some {a.1}%, full {v.1}%: tasks stall on I/O" },
	  ARGS(A(PSI_SOME)),
	  .reason = "share of the window tasks stalled on I/O (/proc/pressure/io), on the "
		    "busiest disk's row; warning also at some >= 10%." },

	/* ---- network ---- */
	{ .name = "net.util",
	  .group = PTK_RG_NET,
	  .metric = A(NET_UTIL),
	  .crit = { .test = GE(90), .evidence = "link {v}% utilized" },
	  .warn = { .test = GE(70), .evidence = "link {v}% utilized" },
	  .reason = "max(rx, tx) over the link speed, full duplex, capped at 100; unknown (no "
		    "verdict) when the speed is unknown." },
	{ .name = "net.drops",
	  .group = PTK_RG_NET,
	  .metric = A(NET_DROPS),
	  .warn = { .test = GT(0), .evidence = "{v.1} drops/s" },
	  .reason = "any packet dropped (drop, fifo) on the interface." },
	{ .name = "net.errors",
	  .group = PTK_RG_NET,
	  .metric = A(NET_ERRS),
	  .warn = { .test = GT(0), .evidence = "{v.1} errors/s" },
	  .reason = "any error (errs, frame, carrier, collisions) on the interface." },
	{ .name = "tcp.retrans",
	  .group = PTK_RG_TCP,
	  .metric = A(TCP_RETRANS_PCT),
	  .guard = ON(TCP_OUT_SEGS, GE, 100),
	  .crit = { .test = GE(5),
		    .evidence = "{v.2}% of TCP segments retransmitted ({a} of "
				"{b})" },
	  .warn = { .test = GE(1),
		    .evidence = "{v.2}% of TCP segments retransmitted ({a} of "
				"{b})" },
	  ARGS(A(TCP_RETRANS_SEGS), A(TCP_OUT_SEGS)),
	  .reason = "retransmitted segments as a share of segments sent; below 100 segments "
		    "sent the share is noise." },
	{ .name = "tcp.listen",
	  .group = PTK_RG_TCP,
	  .metric = A(TCP_LISTEN_DROPS),
	  .warn = { .test = GT(0), .evidence = "{v} SYNs dropped at a full listen queue" },
	  .reason = "listen queue drops (TcpExt ListenDrops, overflows included)." },
	{ .name = "tcp.inerrs",
	  .group = PTK_RG_TCP,
	  .metric = A(TCP_INERRS),
	  .warn = { .test = GT(0), .evidence = "{v} TCP segments received in error" },
	  .reason = "segments received in error (Tcp InErrs + InCsumErrors)." },

	/* ---- kernel ---- */
	{ .name = "kernel.log",
	  .group = PTK_RG_KLOG,
	  .metric = A(KLOG_AGE),
	  .crit = { .alt = ON(KLOG_WINDOW, GT, 0),
		    .evidence = "{a} {s0} message(s) in the kernel log during the window" },
	  .warn = { .test = LT(3600),
		    .evidence = "{b} {s0} message(s) since boot, the last {v} "
				"s ago: {s1}" },
	  .note = { .test = GE(3600),
		    .evidence = "{b} {s0} message(s) since boot, the last {v} "
				"s ago: {s1}" },
	  ARGS(A(KLOG_WINDOW), A(KLOG_BOOT)),
	  .reason = "OOM kills, I/O errors, hung tasks and lockups in the kernel log: critical "
		    "in the window, warning when the last was within the hour." },
	{ .name = "kernel.dstate",
	  .group = PTK_RG_KERNEL,
	  .metric = A(DSTATE),
	  .crit = { .test = { .cmp = PTK_CMP_GE, .at = 4, .or_ncpu = true },
		    .evidence = "{v.1} tasks in D state on average (max {a}): uninterruptible "
				"waits, usually I/O; they inflate load" },
	  .warn = { .test = GE(1),
		    .evidence = "{v.1} tasks in D state on average (max {a}): "
				"uninterruptible waits, usually I/O; they inflate "
				"load" },
	  ARGS(A(DSTATE_MAX)),
	  .reason = "tasks in uninterruptible sleep, on average over the window; critical at "
		    "max(4, CPUs)." },

	/* ---- cgroups: each cgroup's own row (values of model/cgroup.h) ---- */
	{ .name = "cgroup.throttled",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_THR_PCT,
	  .guard = { .m = PTK_M_CG_PERIODS, .cmp = PTK_CMP_GE, .at = 10 },
	  .crit = { .test = GE(50),
		    .evidence = "throttled in {v.1}% of its CFS periods ({a} of {b}) at a quota "
				"of {c.2} CPUs: its tasks wait for the next period" },
	  .warn = { .test = GE(20),
		    .evidence = "throttled in {v.1}% of its CFS periods ({a} of {b}) at a quota "
				"of {c.2} CPUs" },
	  .args = { PTK_M_CG_THROTTLED, PTK_M_CG_PERIODS, PTK_M_CG_QUOTA },
	  .reason = "cpu.stat nr_throttled / nr_periods over the window: the cgroup used its "
		    "whole quota (cpu.max, cpu.cfs_quota_us) before the period ended; below 10 "
		    "periods the share is noise." },
	{ .name = "cgroup.quota-bound",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_THR_PCT,
	  .guard = { .m = PTK_M_CG_PERIODS, .cmp = PTK_CMP_GE, .at = 10 },
	  .note = { .test = GE(20),
		    .guard = { ON(HOST_IDLE, GE, 20) },
		    .evidence = "CPU-quota bound, not host-bound: the host's CPUs are {a.0}% idle "
				"while it is held to {b.2} CPUs (raise cpu.max / cfs_quota_us, or "
				"make it need less)" },
	  .args = { PTK_M_CHECK_HOST_IDLE, PTK_M_CG_QUOTA },
	  .reason = "a note only: a throttled cgroup on a host with 20% or more idle CPU time is "
		    "slow by its own quota." },
	{ .name = "cgroup.oom",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_EV_OOM_KILL,
	  .crit = { .test = GT(0),
		    .evidence = "{v} process(es) OOM-killed inside it at its memory limit{s1}" },
	  .reason = "memory.events oom_kill (v1 memory.oom_control oom_kill) in the window, "
		    "less what its child cgroups count." },
	{ .name = "cgroup.memory-max",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_EV_MAX,
	  .warn = { .test = GT(0),
		    .evidence = "{v} allocation(s) hit its memory limit{s1} in the window: it "
				"reclaims its own pages to stay under it (working set {s0})" },
	  .reason = "memory.events max (v1 memory.failcnt) in the window: charges that hit "
		    "memory.max / memory.limit_in_bytes and had to reclaim." },
	{ .name = "cgroup.memory-high",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_EV_HIGH,
	  .crit = { .test = GT(0),
		    .guard = { { .m = PTK_M_CG_PSI_MEM_SOME, .cmp = PTK_CMP_GE, .at = 40 } },
		    .evidence = "{v} memory.high event(s) with its tasks stalled {a.1}% of the "
				"time on memory: throttled in reclaim above memory.high{s1} "
				"(working set {s0})" },
	  .warn = { .test = GT(0),
		    .evidence = "{v} memory.high event(s): allocations over memory.high{s1} are "
				"throttled in reclaim (working set {s0})" },
	  .args = { PTK_M_CG_PSI_MEM_SOME },
	  .reason = "memory.events high in the window: usage went over memory.high and its "
		    "allocating tasks reclaimed and slept (v2 only)." },
	{ .name = "cgroup.psi-cpu",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_PSI_CPU_SOME,
	  .guard = { .m = PTK_M_CG_THR_PCT, .cmp = PTK_CMP_GT, .at = 0 },
	  .crit = { .test = GE(40),
		    .evidence = "its tasks waited for CPU {v.1}% of the time (cpu.pressure some)" },
	  .warn = { .test = GE(10),
		    .evidence = "its tasks waited for CPU {v.1}% of the time (cpu.pressure some)" },
	  .reason = "the cgroup's own cpu.pressure (cgroup v2 trees) while it is throttled: its "
		    "runnable tasks waited for their quota; without throttling the wait is for "
		    "the host's CPUs, which the cpu row judges." },
	{ .name = "cgroup.psi-memory",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_PSI_MEM_FULL,
	  .crit = { .test = GE(20),
		    .evidence = "all its tasks stalled on memory {v.1}% of the time "
				"(memory.pressure full)" },
	  .warn = { .test = GE(5),
		    .alt = { .m = PTK_M_CG_PSI_MEM_SOME, .cmp = PTK_CMP_GE, .at = 10 },
		    .evidence = "its tasks stalled on memory: some {a.1}%, full {v.1}% of the "
				"time (memory.pressure)" },
	  .args = { PTK_M_CG_PSI_MEM_SOME },
	  .reason = "the cgroup's own memory.pressure: reclaim, refaults and swap-in of its "
		    "tasks; warning also at some >= 10%." },
	{ .name = "cgroup.psi-io",
	  .group = PTK_RG_CGROUP,
	  .metric = PTK_M_CG_PSI_IO_FULL,
	  .crit = { .test = GE(20),
		    .evidence = "all its tasks stalled on I/O {v.1}% of the time (io.pressure "
				"full), at {s0} read, {s1} written per second" },
	  .warn = { .test = GE(5),
		    .alt = { .m = PTK_M_CG_PSI_IO_SOME, .cmp = PTK_CMP_GE, .at = 10 },
		    .evidence = "its tasks stalled on I/O: some {a.1}%, full {v.1}% of the time "
				"(io.pressure), at {s0} read, {s1} written per second" },
	  .args = { PTK_M_CG_PSI_IO_SOME },
	  .reason = "the cgroup's own io.pressure: its tasks waited for block I/O; warning "
		    "also at some >= 10%." },
};
const int ptk_nrules = ARRAY_SIZE(ptk_rules);

#undef GE
#undef GT
#undef LT
#undef ON
#undef ARGS
#undef A

void ptk_rule_vals_init(struct ptk_rule_vals *rv)
{
	for (int i = 0; i < PTK_M_COUNT; i++)
		rv->v[i] = NAN;
}

static double threshold(const struct ptk_cond *c, const struct ptk_rule_vals *rv)
{
	double n = rv->v[PTK_M_CHECK_NCPU];

	return c->or_ncpu && !isnan(n) ? MAX(c->at, n) : c->at;
}

bool ptk_cond_holds(const struct ptk_cond *c, enum ptk_mid metric, const struct ptk_rule_vals *rv)
{
	double x = rv->v[c->m ? c->m : metric], t = threshold(c, rv);

	switch (c->cmp) {
	case PTK_CMP_GE:
		return x >= t;
	case PTK_CMP_GT:
		return x > t;
	case PTK_CMP_LT:
		return x < t;
	case PTK_CMP_LE:
		return x <= t;
	case PTK_CMP_NA:
		return isnan(x);
	case PTK_CMP_NONE:
		break;
	}
	return false;
}

/* Does every condition of l's unless hold (none given: no)? */
static bool unless_holds(const struct ptk_level *l, const struct ptk_rule *r,
			 const struct ptk_rule_vals *rv)
{
	if (!l->unless[0].cmp)
		return false;
	for (int i = 0; i < 2; i++)
		if (l->unless[i].cmp && !ptk_cond_holds(&l->unless[i], r->metric, rv))
			return false;
	return true;
}

static bool level_reached(const struct ptk_rule *r, const struct ptk_level *l,
			  const struct ptk_rule_vals *rv)
{
	if (r->guard.cmp && !ptk_cond_holds(&r->guard, r->metric, rv))
		return false;
	if (l->test.cmp && ptk_cond_holds(&l->test, r->metric, rv) && !unless_holds(l, r, rv)) {
		bool guarded = l->guard[0].cmp != PTK_CMP_NONE;
		if (!guarded)
			return true;
		for (int i = 0; i < 2; i++)
			if (l->guard[i].cmp && ptk_cond_holds(&l->guard[i], r->metric, rv))
				return true;
	}
	return l->alt.cmp && ptk_cond_holds(&l->alt, r->metric, rv);
}

enum ptk_rule_level ptk_rule_eval(const struct ptk_rule *r, const struct ptk_rule_vals *rv)
{
	if (level_reached(r, &r->crit, rv))
		return PTK_RULE_CRIT;
	if (level_reached(r, &r->warn, rv))
		return PTK_RULE_WARN;
	if (level_reached(r, &r->note, rv))
		return PTK_RULE_NOTE;
	return PTK_RULE_QUIET;
}

static const struct ptk_level *rule_level(const struct ptk_rule *r, enum ptk_rule_level lv)
{
	return lv == PTK_RULE_CRIT ? &r->crit : lv == PTK_RULE_WARN ? &r->warn : &r->note;
}

const char *ptk_rule_evidence(const struct ptk_rule *r, enum ptk_rule_level lv,
			      const struct ptk_rule_vals *rv, const char *const str[2], char *buf,
			      size_t size)
{
	const struct ptk_level *l = rule_level(r, lv);
	const char *p = l->evidence ? l->evidence : "";
	size_t off = 0;

#define EMIT(...)                                                                       \
	do {                                                                            \
		int n_ = snprintf(buf + off, off < size ? size - off : 0, __VA_ARGS__); \
		off += n_ > 0 ? (size_t)n_ : 0;                                         \
	} while (0)
	if (size)
		buf[0] = '\0';
	while (*p) {
		const char *end = *p == '{' ? strchr(p, '}') : NULL;
		if (!end) {
			EMIT("%c", *p++);
			continue;
		}
		char name = p[1];
		int prec = 0;
		if (p[2] == '.')
			prec = atoi(p + 3);
		if (name == 's' && (p[2] == '0' || p[2] == '1')) {
			const char *s = str ? str[p[2] - '0'] : NULL;
			EMIT("%s", s ? s : "");
		} else if (name == 'v' || name == 't' || (name >= 'a' && name <= 'c')) {
			double x = name == 'v' ?
					   rv->v[r->metric] :
				   name == 't' ?
					   threshold(&l->test, rv) :
					   (r->args[name - 'a'] ? rv->v[r->args[name - 'a']] : NAN);
			EMIT("%.*f", prec, x);
		} else {
			EMIT("%.*s", (int)(end - p + 1), p);
		}
		p = end + 1;
	}
#undef EMIT
	if (off >= size && size)
		buf[size - 1] = '\0';
	return buf;
}

/* ---- documentation ------------------------------------------------------------------------ */
static const char *const cmp_text[] = {
	[PTK_CMP_NONE] = "", [PTK_CMP_GE] = ">=", [PTK_CMP_GT] = ">",
	[PTK_CMP_LT] = "<",  [PTK_CMP_LE] = "<=", [PTK_CMP_NA] = "unknown",
};

static void cond_text(char *buf, size_t size, const struct ptk_cond *c, enum ptk_mid metric,
		      bool name)
{
	const struct ptk_metric *m = &ptk_registry[c->m ? c->m : metric];
	const char *unit = !strcmp(m->unit, "%") ? "%" : "";
	/* a name that is itself a bound ("runqlat p99 <=") without it, before a comparison */
	size_t len = strlen(m->name);
	char num[48];

	if (len > 3 && !strcmp(m->name + len - 3, " <="))
		len -= 3;

	if (c->cmp == PTK_CMP_NA) {
		snprintf(buf, size, "%s unknown", m->name);
		return;
	}
	if (c->or_ncpu && c->at <= 0)
		snprintf(num, sizeof(num), "CPUs");
	else if (c->or_ncpu)
		snprintf(num, sizeof(num), "max(%.15g, CPUs)", c->at);
	else if (m->unit[0] && !unit[0] && strcmp(m->unit, "B"))
		snprintf(num, sizeof(num), "%.15g %s", c->at, m->unit);
	else
		snprintf(num, sizeof(num), "%.15g%s", c->at, unit);
	snprintf(buf, size, "%.*s%s%s %s", name ? (int)len : 0, m->name, name ? " " : "",
		 cmp_text[c->cmp], num);
}

/* "warning >= 70% with runq/cpu > 1 or psi some >= 10%" */
static void level_text(char *buf, size_t size, const char *label, const struct ptk_rule *r,
		       const struct ptk_level *l)
{
	size_t off = 0;
	char c[128];

	buf[0] = '\0';
	if (!l->evidence)
		return;
	off += snprintf(buf + off, size - off, "%s", label);
	if (l->test.cmp) {
		cond_text(c, sizeof(c), &l->test, r->metric, false);
		off += snprintf(buf + off, off < size ? size - off : 0, " %s", c);
		for (int i = 0; i < 2 && off < size; i++) {
			if (!l->guard[i].cmp)
				continue;
			cond_text(c, sizeof(c), &l->guard[i], r->metric, true);
			off += snprintf(buf + off, size - off, " %s %s", i ? "or" : "with", c);
		}
		for (int i = 0; i < 2 && off < size; i++) {
			if (!l->unless[i].cmp)
				continue;
			cond_text(c, sizeof(c), &l->unless[i], r->metric, true);
			off += snprintf(buf + off, size - off, " %s %s", i ? "and" : "unless", c);
		}
	}
	if (l->alt.cmp && off < size) {
		cond_text(c, sizeof(c), &l->alt, r->metric, true);
		off += snprintf(buf + off, size - off, "%s %s", l->test.cmp ? " or" : "", c);
	}
}

/* One rule's threshold line: "busy: critical >= 90% with ...; warning >= 70%". */
static void rule_text(char *buf, size_t size, const struct ptk_rule *r)
{
	const struct ptk_level *lv[] = { &r->crit, &r->warn, &r->note };
	static const char *const label[] = { "critical", "warning", "note" };
	size_t off = snprintf(buf, size, "%s", ptk_registry[r->metric].name);
	char c[128], l[384];

	if (r->guard.cmp) {
		cond_text(c, sizeof(c), &r->guard, r->metric, true);
		off += snprintf(buf + off, off < size ? size - off : 0, " (when %s)", c);
	}
	for (int i = 0, n = 0; i < 3 && off < size; i++) {
		level_text(l, sizeof(l), label[i], r, lv[i]);
		if (l[0])
			off += snprintf(buf + off, size - off, "%s %s", n++ ? ";" : ":", l);
	}
}

/* Words of text at indent, lines up to width columns; first line after a prefix of that
 * indent already printed. */
static void wrap(FILE *f, const char *text, int indent, int width)
{
	int col = indent;

	while (*text) {
		int n = strcspn(text, " ");
		if (col > indent && col + 1 + n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", n, text);
		col += n;
		text += n;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

static void man_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
	}
}

void ptk_rules_print(FILE *f, bool man)
{
	char line[768];

	for (int i = 0; i < ptk_nrules; i++) {
		const struct ptk_rule *r = &ptk_rules[i];
		rule_text(line, sizeof(line), r);
		if (man) {
			fputs(".TP\n.B ", f);
			man_escaped(f, r->name);
			fputc('\n', f);
			man_escaped(f, line);
			fputs(".\n.br\n", f);
			man_escaped(f, r->reason);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "  %-8s ", ptk_rule_group_name[r->group]);
		wrap(f, line, 11, 92);
		fprintf(f, "%11s", "");
		wrap(f, r->reason, 11, 92);
	}
}
