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

	/* ---- processes and threads: /proc/PID (top, pidstat, iotop, cswtop) ---- */

	/* ---- BPF, perf and ptrace tools ---- */

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
