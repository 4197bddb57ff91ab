// SPDX-License-Identifier: GPL-2.0
/* The metric registry (model/registry.h): every metric once, indexed by enum ptk_mid. */
#include "model/registry.h"

#include <string.h>

/* Shorthands for the common shapes; every field can still be given by name. t: title, k: JSON
 * key, u: unit, pr: Prometheus family, f: what it is computed from, h: help. */
#define ENTRY(t, k, u, kd, ty, w, p, pr, f, h)                                                 \
	{                                                                                      \
		.name = t, .key = k, .unit = u, .kind = kd, .type = ty, .width = w, .prec = p, \
		.prom = pr, .from = f, .help = h                                               \
	}
/* a share of the interval, %, two decimals, sar's width */
#define PCT(t, k, pr, f, h) ENTRY(t, k, "%", PTK_PCT, PTK_V_F64, 9, 2, pr, f, h)
/* a level shown in % (averaged as a mean) */
#define LPCT(t, k, f, h) ENTRY(t, k, "%", PTK_GAUGE, PTK_V_F64, 9, 2, NULL, f, h)
/* a counter's delta per second */
#define RATE(t, k, u, pr, f, h) ENTRY(t, k, u, PTK_RATE, PTK_V_F64, 9, 2, pr, f, h)
/* a level in kB */
#define KB(t, k, pr, f, h) ENTRY(t, k, "kB", PTK_GAUGE, PTK_V_U64, 9, 0, pr, f, h)
/* a level, two decimals */
#define LEVEL(t, k, u, pr, f, h) ENTRY(t, k, u, PTK_GAUGE, PTK_V_F64, 9, 2, pr, f, h)
/* the entity of a row (CPU, device, interface) */
#define ENTITY(t, k, w, h) ENTRY(t, k, "", PTK_GAUGE, PTK_V_STR, w, 0, NULL, "the row's key", h)

const struct ptk_metric ptk_registry[PTK_M_COUNT] = {
	[PTK_M_NONE] = { .name = "", .key = "", .unit = "", .help = "no metric" },

	/* ---- cpu ---- */
	[PTK_M_CPU_ID] =
		ENTITY("CPU", "cpu", 7, "processor number (the N of /proc/stat \"cpuN\"), or all"),
	[PTK_M_CPU_USER] = PCT("%user", "user_pct", "node_cpu_seconds_total", "d(user) / d(total)",
			       "user mode, guest included (/proc/stat cpu field 1)"),
	[PTK_M_CPU_NICE_ALL] =
		PCT("%nice", "nice_pct", "node_cpu_seconds_total", "d(nice) / d(total)",
		    "niced user mode, guest_nice included (/proc/stat cpu field 2)"),
	[PTK_M_CPU_SYSTEM] =
		PCT("%system", "system_pct", NULL, "d(system + irq + softirq) / d(total)",
		    "kernel mode with interrupts (/proc/stat cpu fields 3, 6, 7)"),
	[PTK_M_CPU_USR] = PCT("%usr", "usr_pct", NULL, "d(user - guest) / d(total)",
			      "user mode, guest excluded (/proc/stat cpu fields 1, 9)"),
	[PTK_M_CPU_NICE] =
		PCT("%nice", "nice_excl_guest_pct", NULL, "d(nice - guest_nice) / d(total)",
		    "niced user mode, guest_nice excluded (/proc/stat cpu fields 2, 10)"),
	[PTK_M_CPU_SYS] = PCT("%sys", "sys_pct", "node_cpu_seconds_total", "d(system) / d(total)",
			      "kernel mode, interrupts excluded (/proc/stat cpu field 3)"),
	[PTK_M_CPU_IOWAIT] =
		PCT("%iowait", "iowait_pct", "node_cpu_seconds_total", "d(iowait) / d(total)",
		    "idle with I/O outstanding (/proc/stat cpu field 5; may go backwards)"),
	[PTK_M_CPU_IRQ] = PCT("%irq", "irq_pct", "node_cpu_seconds_total", "d(irq) / d(total)",
			      "servicing hard interrupts (/proc/stat cpu field 6)"),
	[PTK_M_CPU_SOFT] =
		PCT("%soft", "soft_pct", "node_cpu_seconds_total", "d(softirq) / d(total)",
		    "servicing softirqs (/proc/stat cpu field 7)"),
	[PTK_M_CPU_STEAL] = PCT(
		"%steal", "steal_pct", "node_cpu_seconds_total", "d(steal) / d(total)",
		"involuntary wait while the hypervisor ran another vCPU (/proc/stat cpu field 8)"),
	[PTK_M_CPU_GUEST] =
		PCT("%guest", "guest_pct", "node_cpu_guest_seconds_total", "d(guest) / d(total)",
		    "running a virtual CPU (/proc/stat cpu field 9)"),
	[PTK_M_CPU_GNICE] =
		PCT("%gnice", "gnice_pct", "node_cpu_guest_seconds_total",
		    "d(guest_nice) / d(total)", "running a niced guest (/proc/stat cpu field 10)"),
	[PTK_M_CPU_IDLE] = PCT("%idle", "idle_pct", "node_cpu_seconds_total", "d(idle) / d(total)",
			       "idle without I/O outstanding (/proc/stat cpu field 4)"),
	[PTK_M_CPU_USER_NICE] =
		PCT("us", "user_nice_excl_guest_pct", NULL,
		    "d(user + nice - guest - guest_nice) / d(total)",
		    "user mode, niced or not, guests excluded (/proc/stat cpu fields 1, 2, 9, 10)"),
	[PTK_M_CPU_GUEST_ALL] = PCT("gu", "guest_all_pct", NULL, "d(guest + guest_nice) / d(total)",
				    "running virtual CPUs, niced or not (/proc/stat cpu fields 9, "
				    "10; inside user and nice)"),
	[PTK_M_NODE_ID] = ENTITY("NODE", "node", 4,
				 "NUMA node (/sys/devices/system/cpu/cpuN/nodeM), or all"),
	[PTK_M_CPU_CORE] = ENTRY("CORE", "core", "", PTK_GAUGE, PTK_V_S64, 4, 0, NULL,
				 "first CPU of topology/thread_siblings_list",
				 "logical core of the CPU (/sys/devices/system/cpu/cpuN/topology/"
				 "thread_siblings_list, first CPU)"),
	[PTK_M_CPU_SOCKET] = ENTRY("SOCK", "socket", "", PTK_GAUGE, PTK_V_S64, 4, 0, NULL,
				   "topology/physical_package_id",
				   "socket of the CPU (/sys/devices/system/cpu/cpuN/topology/"
				   "physical_package_id)"),
	[PTK_M_CPU_NODE] = ENTRY("NODE", "node_id", "", PTK_GAUGE, PTK_V_S64, 4, 0, NULL,
				 "cpuN/nodeM", "NUMA node of the CPU (/sys/devices/system/cpu/cpuN/"
				 "nodeM)"),
	[PTK_M_CPU_USR_IRQ] =
		PCT("usr", "user_nice_irq_pct", NULL, "d(user + nice + irq + softirq) / d(total)",
		    "user mode (niced or not, guests inside) and interrupt servicing, as dstat's usr "
		    "counts them (/proc/stat cpu fields 1, 2, 6, 7)"),

	/* ---- load and run queue ---- */
	[PTK_M_Q_RUNQ_SZ] = ENTRY(
		"runq-sz", "runq_sz", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
		"loadavg nr_running - 1 (the reader)",
		"runnable tasks, without the task that read the file (/proc/loadavg field 4, before "
		"'/', less one): the reader was running while it read, and sadc leaves itself out "
		"this way always, live and on any tree"),
	[PTK_M_Q_PLIST_SZ] =
		ENTRY("plist-sz", "nr_threads", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
		      "loadavg nr_threads",
		      "tasks (threads) in the system (/proc/loadavg field 4, after '/')"),
	[PTK_M_Q_LDAVG_1] =
		LEVEL("ldavg-1", "load1", "", "node_load1", "loadavg field 1",
		      "run + D queue length, 1 min exponential average (/proc/loadavg)"),
	[PTK_M_Q_LDAVG_5] = LEVEL("ldavg-5", "load5", "", "node_load5", "loadavg field 2",
				  "5 min load average (/proc/loadavg)"),
	[PTK_M_Q_LDAVG_15] = LEVEL("ldavg-15", "load15", "", "node_load15", "loadavg field 3",
				   "15 min load average (/proc/loadavg)"),
	[PTK_M_Q_BLOCKED] = ENTRY("blocked", "procs_blocked", "", PTK_GAUGE, PTK_V_U64, 9, 0,
				  "node_procs_blocked", "stat procs_blocked",
				  "tasks in D state, waiting for I/O (/proc/stat procs_blocked)"),

	[PTK_M_Q_PROCS_RUNNING] = ENTRY(
		"running", "procs_running", "", PTK_GAUGE, PTK_V_U64, 9, 0, "node_procs_running",
		"stat procs_running, as read",
		"tasks runnable now, R state, the reader included (/proc/stat procs_running), as "
		"procps 4.0.2 vmstat prints r and node_exporter serves node_procs_running"),
	[PTK_M_Q_DSTATE] =
		ENTRY("D", "dstate_tasks", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
		      "threads in state D, at least procs_blocked",
		      "threads in uninterruptible sleep, D state: I/O, fsfreeze, NFS, locks "
		      "(/proc/PID/task/TID/stat state)"),
	[PTK_M_Q_UPTIME] = ENTRY("up", "uptime_s", "s", PTK_GAUGE, PTK_V_F64, 9, 2, NULL,
				 "uptime field 1", "time since boot (/proc/uptime field 1)"),
	[PTK_M_Q_USERS] =
		ENTRY("users", "users", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
		      "utmp USER_PROCESS entries", "logged-in users (utmp USER_PROCESS entries)"),

	/* ---- tasks and context switches ---- */
	[PTK_M_TASK_PROC_S] = RATE("proc/s", "proc_s", "/s", "node_forks_total",
				   "d(processes) / itv", "tasks created (/proc/stat processes)"),
	[PTK_M_TASK_CSWCH_S] = RATE("cswch/s", "cswch_s", "/s", "node_context_switches_total",
				    "d(ctxt) / itv", "context switches (/proc/stat ctxt)"),
	[PTK_M_TASK_INTR_S] = RATE("intr/s", "intr_s", "/s", "node_intr_total", "d(intr) / itv",
				   "interrupts serviced, every source (/proc/stat intr, first field)"),

	/* ---- interrupts ---- */
	[PTK_M_IRQ_CPU] = ENTITY("CPU", "cpu", 4, "CPU number, or all"),
	[PTK_M_IRQ_NAME] = ENTITY("INTR", "intr", 9,
				  "interrupt: its /proc/interrupts or /proc/softirqs line name "
				  "(sum: every line)"),
	[PTK_M_IRQ_CPU_S] = RATE("intr/s", "cpu_intr_s", "/s", NULL,
				 "d(sum of the CPU's /proc/interrupts column) / itv",
				 "interrupts the CPU serviced (/proc/interrupts, its column summed); "
				 "all: every source (/proc/stat intr, first field)"),
	[PTK_M_IRQ_S] = RATE("intr/s", "irq_s", "/s", NULL, "d(count) / itv",
			     "one interrupt serviced by one CPU (/proc/interrupts line, CPU "
			     "column; all: the columns of the online CPUs summed)"),
	[PTK_M_SOFTIRQ_S] = RATE("intr/s", "softirq_s", "/s", NULL,
				 "d(count) / itv",
				 "one softirq handled by one CPU (/proc/softirqs line, CPU column)"),

	/* ---- sar's other activities ---- */
	[PTK_M_IP_IREC] = RATE("irec/s", "ip_irec_s", "/s", NULL, "d(InReceives) / itv",
			"IPv4 datagrams received, errors included (/proc/net/snmp Ip InReceives)"),
	[PTK_M_IP_FWDDGM] = RATE("fwddgm/s", "ip_fwddgm_s", "/s", NULL, "d(ForwDatagrams) / itv",
			"IPv4 datagrams forwarded (Ip ForwDatagrams)"),
	[PTK_M_IP_IDEL] = RATE("idel/s", "ip_idel_s", "/s", NULL, "d(InDelivers) / itv",
			"IPv4 datagrams delivered to the protocols, ICMP included (Ip InDelivers)"),
	[PTK_M_IP_ORQ] = RATE("orq/s", "ip_orq_s", "/s", NULL, "d(OutRequests) / itv",
			"IPv4 datagrams the protocols asked to send, ICMP included (Ip OutRequests)"),
	[PTK_M_IP_ASMRQ] = RATE("asmrq/s", "ip_asmrq_s", "/s", NULL, "d(ReasmReqds) / itv",
			"IPv4 fragments received to reassemble (Ip ReasmReqds)"),
	[PTK_M_IP_ASMOK] = RATE("asmok/s", "ip_asmok_s", "/s", NULL, "d(ReasmOKs) / itv",
			"IPv4 datagrams reassembled (Ip ReasmOKs)"),
	[PTK_M_IP_FRAGOK] = RATE("fragok/s", "ip_fragok_s", "/s", NULL, "d(FragOKs) / itv",
			"IPv4 datagrams fragmented (Ip FragOKs)"),
	[PTK_M_IP_FRAGCRT] = RATE("fragcrt/s", "ip_fragcrt_s", "/s", NULL, "d(FragCreates) / itv",
			"IPv4 fragments created (Ip FragCreates)"),
	[PTK_M_EIP_IHDRERR] = RATE("ihdrerr/s", "ip_ihdrerr_s", "/s", NULL, "d(InHdrErrors) / itv",
			"IPv4 datagrams dropped for header errors (Ip InHdrErrors)"),
	[PTK_M_EIP_IADRERR] = RATE("iadrerr/s", "ip_iadrerr_s", "/s", NULL, "d(InAddrErrors) / itv",
			"IPv4 datagrams dropped for a bad destination address (Ip InAddrErrors)"),
	[PTK_M_EIP_IUKWNPR] = RATE("iukwnpr/s", "ip_iukwnpr_s", "/s", NULL, "d(InUnknownProtos) / itv",
			"IPv4 datagrams of an unknown protocol (Ip InUnknownProtos)"),
	[PTK_M_EIP_IDISC] = RATE("idisc/s", "ip_idisc_s", "/s", NULL, "d(InDiscards) / itv",
			"IPv4 datagrams received and discarded, no error (Ip InDiscards)"),
	[PTK_M_EIP_ODISC] = RATE("odisc/s", "ip_odisc_s", "/s", NULL, "d(OutDiscards) / itv",
			"IPv4 datagrams to send discarded, no error (Ip OutDiscards)"),
	[PTK_M_EIP_ONORT] = RATE("onort/s", "ip_onort_s", "/s", NULL, "d(OutNoRoutes) / itv",
			"IPv4 datagrams discarded for no route (Ip OutNoRoutes)"),
	[PTK_M_EIP_ASMF] = RATE("asmf/s", "ip_asmf_s", "/s", NULL, "d(ReasmFails) / itv",
			"IPv4 reassembly failures (Ip ReasmFails)"),
	[PTK_M_EIP_FRAGF] = RATE("fragf/s", "ip_fragf_s", "/s", NULL, "d(FragFails) / itv",
			"IPv4 datagrams not fragmented: DF set (Ip FragFails)"),
	[PTK_M_ICMP_IMSG] = RATE("imsg/s", "icmp_imsg_s", "/s", NULL, "d(InMsgs) / itv",
			"ICMP messages received, errors included (/proc/net/snmp Icmp InMsgs)"),
	[PTK_M_ICMP_OMSG] = RATE("omsg/s", "icmp_omsg_s", "/s", NULL, "d(OutMsgs) / itv",
			"ICMP messages sent (Icmp OutMsgs)"),
	[PTK_M_ICMP_IECH] = RATE("iech/s", "icmp_iech_s", "/s", NULL, "d(InEchos) / itv",
			"ICMP echo requests received (Icmp InEchos)"),
	[PTK_M_ICMP_IECHR] = RATE("iechr/s", "icmp_iechr_s", "/s", NULL, "d(InEchoReps) / itv",
			"ICMP echo replies received (Icmp InEchoReps)"),
	[PTK_M_ICMP_OECH] = RATE("oech/s", "icmp_oech_s", "/s", NULL, "d(OutEchos) / itv",
			"ICMP echo requests sent (Icmp OutEchos)"),
	[PTK_M_ICMP_OECHR] = RATE("oechr/s", "icmp_oechr_s", "/s", NULL, "d(OutEchoReps) / itv",
			"ICMP echo replies sent (Icmp OutEchoReps)"),
	[PTK_M_ICMP_ITM] = RATE("itm/s", "icmp_itm_s", "/s", NULL, "d(InTimestamps) / itv",
			"ICMP timestamp requests received (Icmp InTimestamps)"),
	[PTK_M_ICMP_ITMR] = RATE("itmr/s", "icmp_itmr_s", "/s", NULL, "d(InTimestampReps) / itv",
			"ICMP timestamp replies received (Icmp InTimestampReps)"),
	[PTK_M_ICMP_OTM] = RATE("otm/s", "icmp_otm_s", "/s", NULL, "d(OutTimestamps) / itv",
			"ICMP timestamp requests sent (Icmp OutTimestamps)"),
	[PTK_M_ICMP_OTMR] = RATE("otmr/s", "icmp_otmr_s", "/s", NULL, "d(OutTimestampReps) / itv",
			"ICMP timestamp replies sent (Icmp OutTimestampReps)"),
	[PTK_M_ICMP_IADRMK] = RATE("iadrmk/s", "icmp_iadrmk_s", "/s", NULL, "d(InAddrMasks) / itv",
			"ICMP address mask requests received (Icmp InAddrMasks)"),
	[PTK_M_ICMP_IADRMKR] = RATE("iadrmkr/s", "icmp_iadrmkr_s", "/s", NULL, "d(InAddrMaskReps) / itv",
			"ICMP address mask replies received (Icmp InAddrMaskReps)"),
	[PTK_M_ICMP_OADRMK] = RATE("oadrmk/s", "icmp_oadrmk_s", "/s", NULL, "d(OutAddrMasks) / itv",
			"ICMP address mask requests sent (Icmp OutAddrMasks)"),
	[PTK_M_ICMP_OADRMKR] = RATE("oadrmkr/s", "icmp_oadrmkr_s", "/s", NULL, "d(OutAddrMaskReps) / itv",
			"ICMP address mask replies sent (Icmp OutAddrMaskReps)"),
	[PTK_M_EICMP_IERR] = RATE("ierr/s", "icmp_ierr_s", "/s", NULL, "d(InErrors) / itv",
			"ICMP messages received with errors (Icmp InErrors)"),
	[PTK_M_EICMP_OERR] = RATE("oerr/s", "icmp_oerr_s", "/s", NULL, "d(OutErrors) / itv",
			"ICMP messages not sent for errors (Icmp OutErrors)"),
	[PTK_M_EICMP_IDSTUNR] = RATE("idstunr/s", "icmp_idstunr_s", "/s", NULL, "d(InDestUnreachs) / itv",
			"ICMP destination unreachable received (Icmp InDestUnreachs)"),
	[PTK_M_EICMP_ODSTUNR] = RATE("odstunr/s", "icmp_odstunr_s", "/s", NULL, "d(OutDestUnreachs) / itv",
			"ICMP destination unreachable sent (Icmp OutDestUnreachs)"),
	[PTK_M_EICMP_ITMEX] = RATE("itmex/s", "icmp_itmex_s", "/s", NULL, "d(InTimeExcds) / itv",
			"ICMP time exceeded received (Icmp InTimeExcds)"),
	[PTK_M_EICMP_OTMEX] = RATE("otmex/s", "icmp_otmex_s", "/s", NULL, "d(OutTimeExcds) / itv",
			"ICMP time exceeded sent (Icmp OutTimeExcds)"),
	[PTK_M_EICMP_IPARMPB] = RATE("iparmpb/s", "icmp_iparmpb_s", "/s", NULL, "d(InParmProbs) / itv",
			"ICMP parameter problems received (Icmp InParmProbs)"),
	[PTK_M_EICMP_OPARMPB] = RATE("oparmpb/s", "icmp_oparmpb_s", "/s", NULL, "d(OutParmProbs) / itv",
			"ICMP parameter problems sent (Icmp OutParmProbs)"),
	[PTK_M_EICMP_ISRCQ] = RATE("isrcq/s", "icmp_isrcq_s", "/s", NULL, "d(InSrcQuenchs) / itv",
			"ICMP source quench received (Icmp InSrcQuenchs)"),
	[PTK_M_EICMP_OSRCQ] = RATE("osrcq/s", "icmp_osrcq_s", "/s", NULL, "d(OutSrcQuenchs) / itv",
			"ICMP source quench sent (Icmp OutSrcQuenchs)"),
	[PTK_M_EICMP_IREDIR] = RATE("iredir/s", "icmp_iredir_s", "/s", NULL, "d(InRedirects) / itv",
			"ICMP redirects received (Icmp InRedirects)"),
	[PTK_M_EICMP_OREDIR] = RATE("oredir/s", "icmp_oredir_s", "/s", NULL, "d(OutRedirects) / itv",
			"ICMP redirects sent (Icmp OutRedirects)"),
	[PTK_M_UDP_IDGM] = RATE("idgm/s", "udp_idgm_s", "/s", NULL, "d(InDatagrams) / itv",
			"UDP datagrams delivered (/proc/net/snmp Udp InDatagrams)"),
	[PTK_M_UDP_ODGM] = RATE("odgm/s", "udp_odgm_s", "/s", NULL, "d(OutDatagrams) / itv",
			"UDP datagrams sent (Udp OutDatagrams)"),
	[PTK_M_UDP_NOPORT] = RATE("noport/s", "udp_noport_s", "/s", NULL, "d(NoPorts) / itv",
			"UDP datagrams to a port nobody listens on (Udp NoPorts)"),
	[PTK_M_UDP_IDGMERR] = RATE("idgmerr/s", "udp_idgmerr_s", "/s", NULL, "d(InErrors) / itv",
			"UDP datagrams not delivered for other reasons (Udp InErrors)"),
	[PTK_M_IP6_IREC] = RATE("irec6/s", "ip6_irec_s", "/s", NULL, "d(snmp6.Ip6InReceives) / itv",
			"IPv6 datagrams received, errors included (/proc/net/snmp6 Ip6InReceives)"),
	[PTK_M_IP6_FWDDGM] = RATE("fwddgm6/s", "ip6_fwddgm_s", "/s", NULL, "d(snmp6.Ip6OutForwDatagrams) / itv",
			"IPv6 datagrams forwarded (/proc/net/snmp6 Ip6OutForwDatagrams)"),
	[PTK_M_IP6_IDEL] = RATE("idel6/s", "ip6_idel_s", "/s", NULL, "d(snmp6.Ip6InDelivers) / itv",
			"IPv6 datagrams delivered to the protocols (/proc/net/snmp6 Ip6InDelivers)"),
	[PTK_M_IP6_ORQ] = RATE("orq6/s", "ip6_orq_s", "/s", NULL, "d(snmp6.Ip6OutRequests) / itv",
			"IPv6 datagrams the protocols asked to send (/proc/net/snmp6 Ip6OutRequests)"),
	[PTK_M_IP6_ASMRQ] = RATE("asmrq6/s", "ip6_asmrq_s", "/s", NULL, "d(snmp6.Ip6ReasmReqds) / itv",
			"IPv6 fragments received to reassemble (/proc/net/snmp6 Ip6ReasmReqds)"),
	[PTK_M_IP6_ASMOK] = RATE("asmok6/s", "ip6_asmok_s", "/s", NULL, "d(snmp6.Ip6ReasmOKs) / itv",
			"IPv6 datagrams reassembled (/proc/net/snmp6 Ip6ReasmOKs)"),
	[PTK_M_IP6_IMCPCK] = RATE("imcpck6/s", "ip6_imcpck_s", "/s", NULL, "d(snmp6.Ip6InMcastPkts) / itv",
			"IPv6 multicast packets received (/proc/net/snmp6 Ip6InMcastPkts)"),
	[PTK_M_IP6_OMCPCK] = RATE("omcpck6/s", "ip6_omcpck_s", "/s", NULL, "d(snmp6.Ip6OutMcastPkts) / itv",
			"IPv6 multicast packets sent (/proc/net/snmp6 Ip6OutMcastPkts)"),
	[PTK_M_IP6_FRAGOK] = RATE("fragok6/s", "ip6_fragok_s", "/s", NULL, "d(snmp6.Ip6FragOKs) / itv",
			"IPv6 datagrams fragmented (/proc/net/snmp6 Ip6FragOKs)"),
	[PTK_M_IP6_FRAGCR] = RATE("fragcr6/s", "ip6_fragcr_s", "/s", NULL, "d(snmp6.Ip6FragCreates) / itv",
			"IPv6 fragments created (/proc/net/snmp6 Ip6FragCreates)"),
	[PTK_M_EIP6_IHDRER] = RATE("ihdrer6/s", "ip6_ihdrer_s", "/s", NULL, "d(snmp6.Ip6InHdrErrors) / itv",
			"IPv6 datagrams dropped for header errors (/proc/net/snmp6 Ip6InHdrErrors)"),
	[PTK_M_EIP6_IADRER] = RATE("iadrer6/s", "ip6_iadrer_s", "/s", NULL, "d(snmp6.Ip6InAddrErrors) / itv",
			"IPv6 datagrams dropped for a bad destination address (/proc/net/snmp6 Ip6InAddrErrors)"),
	[PTK_M_EIP6_IUKWNP] = RATE("iukwnp6/s", "ip6_iukwnp_s", "/s", NULL, "d(snmp6.Ip6InUnknownProtos) / itv",
			"IPv6 datagrams of an unknown protocol (/proc/net/snmp6 Ip6InUnknownProtos)"),
	[PTK_M_EIP6_I2BIG] = RATE("i2big6/s", "ip6_i2big_s", "/s", NULL, "d(snmp6.Ip6InTooBigErrors) / itv",
			"IPv6 datagrams too big to forward (/proc/net/snmp6 Ip6InTooBigErrors)"),
	[PTK_M_EIP6_IDISC] = RATE("idisc6/s", "ip6_idisc_s", "/s", NULL, "d(snmp6.Ip6InDiscards) / itv",
			"IPv6 datagrams received and discarded, no error (/proc/net/snmp6 Ip6InDiscards)"),
	[PTK_M_EIP6_ODISC] = RATE("odisc6/s", "ip6_odisc_s", "/s", NULL, "d(snmp6.Ip6OutDiscards) / itv",
			"IPv6 datagrams to send discarded, no error (/proc/net/snmp6 Ip6OutDiscards)"),
	[PTK_M_EIP6_INORT] = RATE("inort6/s", "ip6_inort_s", "/s", NULL, "d(snmp6.Ip6InNoRoutes) / itv",
			"IPv6 datagrams received with no route (/proc/net/snmp6 Ip6InNoRoutes)"),
	[PTK_M_EIP6_ONORT] = RATE("onort6/s", "ip6_onort_s", "/s", NULL, "d(snmp6.Ip6OutNoRoutes) / itv",
			"IPv6 datagrams to send with no route (/proc/net/snmp6 Ip6OutNoRoutes)"),
	[PTK_M_EIP6_ASMF] = RATE("asmf6/s", "ip6_asmf_s", "/s", NULL, "d(snmp6.Ip6ReasmFails) / itv",
			"IPv6 reassembly failures (/proc/net/snmp6 Ip6ReasmFails)"),
	[PTK_M_EIP6_FRAGF] = RATE("fragf6/s", "ip6_fragf_s", "/s", NULL, "d(snmp6.Ip6FragFails) / itv",
			"IPv6 datagrams not fragmented (/proc/net/snmp6 Ip6FragFails)"),
	[PTK_M_EIP6_ITRPCK] = RATE("itrpck6/s", "ip6_itrpck_s", "/s", NULL, "d(snmp6.Ip6InTruncatedPkts) / itv",
			"IPv6 datagrams truncated (/proc/net/snmp6 Ip6InTruncatedPkts)"),
	[PTK_M_ICMP6_IMSG] = RATE("imsg6/s", "icmp6_imsg_s", "/s", NULL, "d(snmp6.Icmp6InMsgs) / itv",
			"ICMPv6 messages received (/proc/net/snmp6 Icmp6InMsgs)"),
	[PTK_M_ICMP6_OMSG] = RATE("omsg6/s", "icmp6_omsg_s", "/s", NULL, "d(snmp6.Icmp6OutMsgs) / itv",
			"ICMPv6 messages sent (/proc/net/snmp6 Icmp6OutMsgs)"),
	[PTK_M_ICMP6_IECH] = RATE("iech6/s", "icmp6_iech_s", "/s", NULL, "d(snmp6.Icmp6InEchos) / itv",
			"ICMPv6 echo requests received (/proc/net/snmp6 Icmp6InEchos)"),
	[PTK_M_ICMP6_IECHR] = RATE("iechr6/s", "icmp6_iechr_s", "/s", NULL, "d(snmp6.Icmp6InEchoReplies) / itv",
			"ICMPv6 echo replies received (/proc/net/snmp6 Icmp6InEchoReplies)"),
	[PTK_M_ICMP6_OECHR] = RATE("oechr6/s", "icmp6_oechr_s", "/s", NULL, "d(snmp6.Icmp6OutEchoReplies) / itv",
			"ICMPv6 echo replies sent (/proc/net/snmp6 Icmp6OutEchoReplies)"),
	[PTK_M_ICMP6_IGMBQ] = RATE("igmbq6/s", "icmp6_igmbq_s", "/s", NULL, "d(snmp6.Icmp6InGroupMembQueries) / itv",
			"ICMPv6 group membership queries received (/proc/net/snmp6 Icmp6InGroupMembQueries)"),
	[PTK_M_ICMP6_IGMBR] = RATE("igmbr6/s", "icmp6_igmbr_s", "/s", NULL, "d(snmp6.Icmp6InGroupMembResponses) / itv",
			"ICMPv6 group membership responses received (/proc/net/snmp6 Icmp6InGroupMembResponses)"),
	[PTK_M_ICMP6_OGMBR] = RATE("ogmbr6/s", "icmp6_ogmbr_s", "/s", NULL, "d(snmp6.Icmp6OutGroupMembResponses) / itv",
			"ICMPv6 group membership responses sent (/proc/net/snmp6 Icmp6OutGroupMembResponses)"),
	[PTK_M_ICMP6_IGMBRD] = RATE("igmbrd6/s", "icmp6_igmbrd_s", "/s", NULL, "d(snmp6.Icmp6InGroupMembReductions) / itv",
			"ICMPv6 group membership reductions received (/proc/net/snmp6 Icmp6InGroupMembReductions)"),
	[PTK_M_ICMP6_OGMBRD] = RATE("ogmbrd6/s", "icmp6_ogmbrd_s", "/s", NULL, "d(snmp6.Icmp6OutGroupMembReductions) / itv",
			"ICMPv6 group membership reductions sent (/proc/net/snmp6 Icmp6OutGroupMembReductions)"),
	[PTK_M_ICMP6_IRTSOL] = RATE("irtsol6/s", "icmp6_irtsol_s", "/s", NULL, "d(snmp6.Icmp6InRouterSolicits) / itv",
			"ICMPv6 router solicitations received (/proc/net/snmp6 Icmp6InRouterSolicits)"),
	[PTK_M_ICMP6_ORTSOL] = RATE("ortsol6/s", "icmp6_ortsol_s", "/s", NULL, "d(snmp6.Icmp6OutRouterSolicits) / itv",
			"ICMPv6 router solicitations sent (/proc/net/snmp6 Icmp6OutRouterSolicits)"),
	[PTK_M_ICMP6_IRTAD] = RATE("irtad6/s", "icmp6_irtad_s", "/s", NULL, "d(snmp6.Icmp6InRouterAdvertisements) / itv",
			"ICMPv6 router advertisements received (/proc/net/snmp6 Icmp6InRouterAdvertisements)"),
	[PTK_M_ICMP6_INBSOL] = RATE("inbsol6/s", "icmp6_inbsol_s", "/s", NULL, "d(snmp6.Icmp6InNeighborSolicits) / itv",
			"ICMPv6 neighbor solicitations received (/proc/net/snmp6 Icmp6InNeighborSolicits)"),
	[PTK_M_ICMP6_ONBSOL] = RATE("onbsol6/s", "icmp6_onbsol_s", "/s", NULL, "d(snmp6.Icmp6OutNeighborSolicits) / itv",
			"ICMPv6 neighbor solicitations sent (/proc/net/snmp6 Icmp6OutNeighborSolicits)"),
	[PTK_M_ICMP6_INBAD] = RATE("inbad6/s", "icmp6_inbad_s", "/s", NULL, "d(snmp6.Icmp6InNeighborAdvertisements) / itv",
			"ICMPv6 neighbor advertisements received (/proc/net/snmp6 Icmp6InNeighborAdvertisements)"),
	[PTK_M_ICMP6_ONBAD] = RATE("onbad6/s", "icmp6_onbad_s", "/s", NULL, "d(snmp6.Icmp6OutNeighborAdvertisements) / itv",
			"ICMPv6 neighbor advertisements sent (/proc/net/snmp6 Icmp6OutNeighborAdvertisements)"),
	[PTK_M_EICMP6_IERR] = RATE("ierr6/s", "icmp6_ierr_s", "/s", NULL, "d(snmp6.Icmp6InErrors) / itv",
			"ICMPv6 messages received with errors (/proc/net/snmp6 Icmp6InErrors)"),
	[PTK_M_EICMP6_IDTUNR] = RATE("idtunr6/s", "icmp6_idtunr_s", "/s", NULL, "d(snmp6.Icmp6InDestUnreachs) / itv",
			"ICMPv6 destination unreachable received (/proc/net/snmp6 Icmp6InDestUnreachs)"),
	[PTK_M_EICMP6_ODTUNR] = RATE("odtunr6/s", "icmp6_odtunr_s", "/s", NULL, "d(snmp6.Icmp6OutDestUnreachs) / itv",
			"ICMPv6 destination unreachable sent (/proc/net/snmp6 Icmp6OutDestUnreachs)"),
	[PTK_M_EICMP6_ITMEX] = RATE("itmex6/s", "icmp6_itmex_s", "/s", NULL, "d(snmp6.Icmp6InTimeExcds) / itv",
			"ICMPv6 time exceeded received (/proc/net/snmp6 Icmp6InTimeExcds)"),
	[PTK_M_EICMP6_OTMEX] = RATE("otmex6/s", "icmp6_otmex_s", "/s", NULL, "d(snmp6.Icmp6OutTimeExcds) / itv",
			"ICMPv6 time exceeded sent (/proc/net/snmp6 Icmp6OutTimeExcds)"),
	[PTK_M_EICMP6_IPRMPB] = RATE("iprmpb6/s", "icmp6_iprmpb_s", "/s", NULL, "d(snmp6.Icmp6InParmProblems) / itv",
			"ICMPv6 parameter problems received (/proc/net/snmp6 Icmp6InParmProblems)"),
	[PTK_M_EICMP6_OPRMPB] = RATE("oprmpb6/s", "icmp6_oprmpb_s", "/s", NULL, "d(snmp6.Icmp6OutParmProblems) / itv",
			"ICMPv6 parameter problems sent (/proc/net/snmp6 Icmp6OutParmProblems)"),
	[PTK_M_EICMP6_IREDIR] = RATE("iredir6/s", "icmp6_iredir_s", "/s", NULL, "d(snmp6.Icmp6InRedirects) / itv",
			"ICMPv6 redirects received (/proc/net/snmp6 Icmp6InRedirects)"),
	[PTK_M_EICMP6_OREDIR] = RATE("oredir6/s", "icmp6_oredir_s", "/s", NULL, "d(snmp6.Icmp6OutRedirects) / itv",
			"ICMPv6 redirects sent (/proc/net/snmp6 Icmp6OutRedirects)"),
	[PTK_M_EICMP6_IPCK2B] = RATE("ipck2b6/s", "icmp6_ipck2b_s", "/s", NULL, "d(snmp6.Icmp6InPktTooBigs) / itv",
			"ICMPv6 packet too big received (/proc/net/snmp6 Icmp6InPktTooBigs)"),
	[PTK_M_EICMP6_OPCK2B] = RATE("opck2b6/s", "icmp6_opck2b_s", "/s", NULL, "d(snmp6.Icmp6OutPktTooBigs) / itv",
			"ICMPv6 packet too big sent (/proc/net/snmp6 Icmp6OutPktTooBigs)"),
	[PTK_M_UDP6_IDGM] = RATE("idgm6/s", "udp6_idgm_s", "/s", NULL, "d(snmp6.Udp6InDatagrams) / itv",
			"UDPv6 datagrams delivered (/proc/net/snmp6 Udp6InDatagrams)"),
	[PTK_M_UDP6_ODGM] = RATE("odgm6/s", "udp6_odgm_s", "/s", NULL, "d(snmp6.Udp6OutDatagrams) / itv",
			"UDPv6 datagrams sent (/proc/net/snmp6 Udp6OutDatagrams)"),
	[PTK_M_UDP6_NOPORT] = RATE("noport6/s", "udp6_noport_s", "/s", NULL, "d(snmp6.Udp6NoPorts) / itv",
			"UDPv6 datagrams to a port nobody listens on (/proc/net/snmp6 Udp6NoPorts)"),
	[PTK_M_UDP6_IDGMER] = RATE("idgmer6/s", "udp6_idgmer_s", "/s", NULL, "d(snmp6.Udp6InErrors) / itv",
			"UDPv6 datagrams not delivered for other reasons (/proc/net/snmp6 Udp6InErrors)"),
	[PTK_M_NFS_CALL] = RATE("call/s", "nfs_call_s", "/s", NULL, "d(nfs.call) / itv",
			"NFS client RPC calls (/proc/net/rpc/nfs rpc, first field)"),
	[PTK_M_NFS_RETRANS] = RATE("retrans/s", "nfs_retrans_s", "/s", NULL, "d(nfs.retrans) / itv",
			"NFS client RPC calls retransmitted (rpc, second field)"),
	[PTK_M_NFS_READ] = RATE("read/s", "nfs_read_s", "/s", NULL, "d(nfs.read) / itv",
			"NFS client READ calls, v3 and v4 (proc3, proc4)"),
	[PTK_M_NFS_WRITE] = RATE("write/s", "nfs_write_s", "/s", NULL, "d(nfs.write) / itv",
			"NFS client WRITE calls, v3 and v4"),
	[PTK_M_NFS_ACCESS] = RATE("access/s", "nfs_access_s", "/s", NULL, "d(nfs.access) / itv",
			"NFS client ACCESS calls, v3 and v4"),
	[PTK_M_NFS_GETATT] = RATE("getatt/s", "nfs_getatt_s", "/s", NULL, "d(nfs.getatt) / itv",
			"NFS client GETATTR calls, v3 and v4"),
	[PTK_M_NFSD_SCALL] = RATE("scall/s", "nfsd_scall_s", "/s", NULL, "d(nfsd.scall) / itv",
			"NFS server RPC calls (/proc/net/rpc/nfsd rpc)"),
	[PTK_M_NFSD_BADCALL] = RATE("badcall/s", "nfsd_badcall_s", "/s", NULL, "d(nfsd.badcall) / itv",
			"NFS server bad RPC calls (rpc, second field)"),
	[PTK_M_NFSD_PACKET] = RATE("packet/s", "nfsd_packet_s", "/s", NULL, "d(nfsd.packet) / itv",
			"NFS server network packets (net)"),
	[PTK_M_NFSD_UDP] = RATE("udp/s", "nfsd_udp_s", "/s", NULL, "d(nfsd.udp) / itv",
			"NFS server UDP packets (net)"),
	[PTK_M_NFSD_TCP] = RATE("tcp/s", "nfsd_tcp_s", "/s", NULL, "d(nfsd.tcp) / itv",
			"NFS server TCP packets (net)"),
	[PTK_M_NFSD_HIT] = RATE("hit/s", "nfsd_hit_s", "/s", NULL, "d(nfsd.hit) / itv",
			"NFS server reply cache hits (rc)"),
	[PTK_M_NFSD_MISS] = RATE("miss/s", "nfsd_miss_s", "/s", NULL, "d(nfsd.miss) / itv",
			"NFS server reply cache misses (rc)"),
	[PTK_M_NFSD_SREAD] = RATE("sread/s", "nfsd_sread_s", "/s", NULL, "d(nfsd.sread) / itv",
			"NFS server READ calls, v3 and v4 (proc3, proc4ops)"),
	[PTK_M_NFSD_SWRITE] = RATE("swrite/s", "nfsd_swrite_s", "/s", NULL, "d(nfsd.swrite) / itv",
			"NFS server WRITE calls, v3 and v4"),
	[PTK_M_NFSD_SACCESS] = RATE("saccess/s", "nfsd_saccess_s", "/s", NULL, "d(nfsd.saccess) / itv",
			"NFS server ACCESS calls, v3 and v4"),
	[PTK_M_NFSD_SGETATT] = RATE("sgetatt/s", "nfsd_sgetatt_s", "/s", NULL, "d(nfsd.sgetatt) / itv",
			"NFS server GETATTR calls, v3 and v4"),
	/* ---- sockets ---- */
	[PTK_M_SOCK_TOT] = ENTRY("totsck", "totsck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				 "sockets: used", "sockets in use, every family (/proc/net/sockstat)"),
	[PTK_M_SOCK_TCP] = ENTRY("tcpsck", "tcpsck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				 "TCP: inuse", "TCP sockets in use (/proc/net/sockstat)"),
	[PTK_M_SOCK_UDP] = ENTRY("udpsck", "udpsck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				 "UDP: inuse", "UDP sockets in use (/proc/net/sockstat)"),
	[PTK_M_SOCK_RAW] = ENTRY("rawsck", "rawsck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				 "RAW: inuse", "raw sockets in use (/proc/net/sockstat)"),
	[PTK_M_SOCK_FRAG] = ENTRY("ip-frag", "ip_frag", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "FRAG: inuse",
				  "IP fragment queues in use (/proc/net/sockstat FRAG inuse)"),
	[PTK_M_SOCK_TCPTW] = ENTRY("tcp-tw", "tcp_tw", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				   "TCP: tw", "TCP sockets in TIME_WAIT (/proc/net/sockstat)"),
	[PTK_M_SOCK6_TCP] = ENTRY("tcp6sck", "tcp6sck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "TCP6: inuse", "TCPv6 sockets in use (/proc/net/sockstat6)"),
	[PTK_M_SOCK6_UDP] = ENTRY("udp6sck", "udp6sck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "UDP6: inuse", "UDPv6 sockets in use (/proc/net/sockstat6)"),
	[PTK_M_SOCK6_RAW] = ENTRY("raw6sck", "raw6sck", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "RAW6: inuse", "raw IPv6 sockets in use (/proc/net/sockstat6)"),
	[PTK_M_SOCK6_FRAG] = ENTRY("ip6-frag", "ip6_frag", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				   "FRAG6: inuse",
				   "IPv6 fragment queues in use (/proc/net/sockstat6 FRAG6 inuse)"),

	/* ---- kernel tables ---- */
	[PTK_M_KT_DENTUNUSD] =
		ENTRY("dentunusd", "dentunusd", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
		      "dentry-state field 2", "unused dentries in the dentry cache "
					      "(/proc/sys/fs/dentry-state, second field)"),
	[PTK_M_KT_FILE_NR] = ENTRY("file-nr", "file_nr", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				   "file-nr field 1 - field 2",
				   "file handles in use: allocated less free (/proc/sys/fs/file-nr)"),
	[PTK_M_KT_INODE_NR] =
		ENTRY("inode-nr", "inode_nr", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
		      "inode-state field 1 - field 2",
		      "inodes in use: allocated less free (/proc/sys/fs/inode-state)"),
	[PTK_M_KT_PTY_NR] = ENTRY("pty-nr", "pty_nr", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "pty/nr", "pseudo-terminals in use (/proc/sys/kernel/pty/nr)"),

	/* ---- huge pages ---- */
	[PTK_M_HUGE_FREE] = KB("kbhugfree", "kbhugfree", NULL, "HugePages_Free * Hugepagesize",
			       "free huge pages, kB (/proc/meminfo)"),
	[PTK_M_HUGE_USED] = KB("kbhugused", "kbhugused", NULL,
			       "(HugePages_Total - HugePages_Free) * Hugepagesize",
			       "huge pages in use, kB (/proc/meminfo)"),
	[PTK_M_HUGE_USED_PCT] = LPCT("%hugused", "hugused_pct", "used / total",
				     "huge pages in use, % of all (/proc/meminfo)"),
	[PTK_M_HUGE_RSVD] = KB("kbhugrsvd", "kbhugrsvd", NULL, "HugePages_Rsvd * Hugepagesize",
			       "huge pages reserved, not yet allocated, kB (/proc/meminfo)"),
	[PTK_M_HUGE_SURP] = KB("kbhugsurp", "kbhugsurp", NULL, "HugePages_Surp * Hugepagesize",
			       "surplus huge pages above the pool, kB (/proc/meminfo)"),

	/* ---- serial lines ---- */
	[PTK_M_TTY_LINE] = ENTITY("TTY", "tty", 9, "serial line (/proc/tty/driver/serial)"),
	[PTK_M_TTY_RCVIN] = RATE("rcvin/s", "rcvin_s", "/s", NULL, "d(rx) / itv",
				 "receive interrupts of the serial line (/proc/tty/driver/serial rx)"),
	[PTK_M_TTY_XMTIN] = RATE("xmtin/s", "xmtin_s", "/s", NULL, "d(tx) / itv",
				 "transmit interrupts of the serial line (tx)"),
	[PTK_M_TTY_FRAMERR] = RATE("framerr/s", "framerr_s", "/s", NULL, "d(fe) / itv",
				   "frame errors of the serial line (fe)"),
	[PTK_M_TTY_PRTYERR] = RATE("prtyerr/s", "prtyerr_s", "/s", NULL, "d(pe) / itv",
				   "parity errors of the serial line (pe)"),
	[PTK_M_TTY_BRK] = RATE("brk/s", "brk_s", "/s", NULL, "d(brk) / itv",
			       "breaks on the serial line (brk)"),
	[PTK_M_TTY_OVRUN] = RATE("ovrun/s", "ovrun_s", "/s", NULL, "d(oe) / itv",
				 "overrun errors of the serial line (oe)"),

	/* ---- Fibre Channel ---- */
	[PTK_M_FC_RXF] = RATE("fch_rxf/s", "fch_rxf_s", "/s", NULL, "d(rx_frames) / itv",
			      "frames received (/sys/class/fc_host/HOST/statistics/rx_frames)"),
	[PTK_M_FC_TXF] = RATE("fch_txf/s", "fch_txf_s", "/s", NULL, "d(tx_frames) / itv",
			      "frames sent (statistics/tx_frames)"),
	[PTK_M_FC_RXW] = RATE("fch_rxw/s", "fch_rxw_s", "/s", NULL, "d(rx_words) / itv",
			      "words received (statistics/rx_words)"),
	[PTK_M_FC_TXW] = RATE("fch_txw/s", "fch_txw_s", "/s", NULL, "d(tx_words) / itv",
			      "words sent (statistics/tx_words)"),
	[PTK_M_FC_HOST] = ENTITY("FCHOST", "fchost", 0, "Fibre Channel host (/sys/class/fc_host)"),

	/* ---- CPU clock ---- */
	[PTK_M_PWR_MHZ] = LEVEL("MHz", "mhz", "MHz", NULL, "cpu MHz",
				"the CPU's clock now (/proc/cpuinfo cpu MHz; all: the mean)"),
	[PTK_M_PWR_WGHMHZ] =
		ENTRY("wghMHz", "wghmhz", "MHz", PTK_RATE, PTK_V_F64, 9, 2, NULL,
		      "sum(freq * d(time)) / sum(d(time))",
		      "the CPU's clock over the interval, each frequency weighted by the time "
		      "spent at it (cpufreq/stats/time_in_state; all: the CPUs' mean times)"),

	/* ---- USB devices ---- */
	[PTK_M_USB_BUS] = ENTRY("BUS", "bus_number", "", PTK_GAUGE, PTK_V_U64, 7, 0, NULL,
				"the device's bus", "USB bus of the device (/sys/bus/usb/devices)"),
	[PTK_M_USB_IDVENDOR] = ENTRY("idvendor", "idvendor", "", PTK_GAUGE, PTK_V_U64, 9, 0,
				     NULL, "idVendor", "USB vendor ID (hexadecimal, idVendor)"),
	[PTK_M_USB_IDPROD] = ENTRY("idprod", "idprod", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				   "idProduct", "USB product ID (hexadecimal, idProduct)"),
	[PTK_M_USB_MAXPOWER] = ENTRY("maxpower", "maxpower", "mA", PTK_GAUGE, PTK_V_U64, 9, 0,
				     NULL, "bMaxPower", "the most current the device draws, mA "
							"(bMaxPower, as sysfs prints it)"),
	[PTK_M_USB_MANUFACT] = ENTRY("manufact", "manufact", "", PTK_GAUGE, PTK_V_STR, -23, 0,
				     NULL, "manufacturer", "manufacturer (manufacturer)"),
	[PTK_M_USB_PRODUCT] = ENTRY("product", "product", "", PTK_GAUGE, PTK_V_STR, 0, 0, NULL,
				    "product", "product name (product)"),

	/* ---- filesystems ---- */
	[PTK_M_FS_MBFREE] = ENTRY("MBfsfree", "mbfsfree", "MB", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "f_bfree * f_frsize / 2^20",
				  "free space, MB (statvfs f_bfree)"),
	[PTK_M_FS_MBUSED] = ENTRY("MBfsused", "mbfsused", "MB", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				  "(f_blocks - f_bfree) * f_frsize / 2^20",
				  "used space, MB (statvfs)"),
	[PTK_M_FS_USED_PCT] = LPCT("%fsused", "fsused_pct", "(blocks - bfree) / blocks",
				   "used space, % of the filesystem (statvfs)"),
	[PTK_M_FS_UUSED_PCT] = LPCT("%ufsused", "ufsused_pct", "(blocks - bavail) / blocks",
				    "space that unprivileged users cannot use, % (statvfs "
				    "f_bavail: the root reserve counts as used)"),
	[PTK_M_FS_IFREE] = ENTRY("Ifree", "ifree", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				 "f_ffree", "free inodes (statvfs)"),
	[PTK_M_FS_IUSED] = ENTRY("Iused", "iused", "", PTK_GAUGE, PTK_V_U64, 9, 0, NULL,
				 "f_files - f_ffree", "inodes in use (statvfs)"),
	[PTK_M_FS_IUSED_PCT] = LPCT("%Iused", "iused_pct", "(files - ffree) / files",
				    "inodes in use, % (statvfs)"),
	[PTK_M_FS_NAME] = ENTITY("FILESYSTEM", "filesystem", 0,
				 "the mounted device (/proc/self/mounts)"),
	[PTK_M_FS_MOUNT] = ENTITY("MOUNTPOINT", "mountpoint", 0,
				  "where the device is mounted first (/proc/self/mounts)"),

	/* ---- softnet ---- */
	[PTK_M_SN_TOTAL] = RATE("total/s", "softnet_total_s", "/s", NULL, "d(processed) / itv",
				"network frames processed (/proc/net/softnet_stat field 1)"),
	[PTK_M_SN_DROPD] = RATE("dropd/s", "softnet_dropd_s", "/s", NULL, "d(dropped) / itv",
				"frames dropped, the processing queue full (softnet_stat field 2)"),
	[PTK_M_SN_SQUEEZD] = RATE(
		"squeezd/s", "softnet_squeezd_s", "/s", NULL, "d(time_squeeze) / itv",
		"times net_rx_action ran out of budget with work left (softnet_stat field 3)"),
	[PTK_M_SN_RX_RPS] = RATE("rx_rps/s", "softnet_rx_rps_s", "/s", NULL, "d(received_rps) / itv",
				 "times the CPU was woken to process packets of another (RPS, "
				 "softnet_stat field 10)"),
	[PTK_M_SN_FLW_LIM] = RATE("flw_lim/s", "softnet_flw_lim_s", "/s", NULL,
				  "d(flow_limit_count) / itv",
				  "frames dropped by the flow limit (softnet_stat field 11)"),
	[PTK_M_SN_BLG_LEN] = ENTRY("blg_len", "softnet_blg_len", "", PTK_GAUGE, PTK_V_U64, 9, 0,
				   NULL, "backlog length", "frames in the backlog queue now "
				   "(softnet_stat field 12, kernel >= 5.10)"),

	/* ---- memory ---- */
	[PTK_M_MEM_TOTAL] = KB("total", "mem_total", "node_memory_MemTotal_bytes", "MemTotal",
			       "usable RAM (/proc/meminfo MemTotal)"),
	[PTK_M_MEM_USED] =
		KB("used", "mem_used", NULL, "MemTotal - MemAvailable",
		   "memory in use: total less what is available without swapping (/proc/meminfo)"),
	[PTK_M_MEM_FREE] = KB("kbmemfree", "kbmemfree", "node_memory_MemFree_bytes", "MemFree",
			      "unused RAM (/proc/meminfo MemFree)"),
	[PTK_M_MEM_AVAIL] =
		KB("kbavail", "kbavail", "node_memory_MemAvailable_bytes", "MemAvailable",
		   "available for new work without swapping (/proc/meminfo MemAvailable; "
		   "estimated before 3.14)"),
	[PTK_M_MEM_SHARED] = KB("shared", "mem_shared", "node_memory_Shmem_bytes", "Shmem",
				"tmpfs and shared memory (/proc/meminfo Shmem)"),
	[PTK_M_MEM_BUFF_CACHE] =
		KB("buff/cache", "mem_buff_cache", NULL, "Buffers + Cached + SReclaimable",
		   "page cache, buffers and reclaimable slab (/proc/meminfo)"),
	[PTK_M_MEM_CACHE] = KB("cache", "mem_cache", NULL, "Cached + SReclaimable",
			       "page cache and reclaimable slab (/proc/meminfo)"),
	[PTK_M_MEM_KBMEMUSED] = KB(
		"kbmemused", "kbmemused", NULL, "MemTotal - MemAvailable",
		"used, as sysstat 12.7 counts it: what is not available (/proc/meminfo; without "
		"MemAvailable, kernel < 3.14: neither free, cache, buffers nor slab)"),
	[PTK_M_MEM_USED_PCT] = LPCT("%memused", "memused_pct", "kbmemused / MemTotal",
				    "share of RAM used, as sysstat counts it (/proc/meminfo)"),
	[PTK_M_MEM_BUFFERS] = KB("kbbuffers", "kbbuffers", "node_memory_Buffers_bytes", "Buffers",
				 "block device buffers (/proc/meminfo Buffers)"),
	[PTK_M_MEM_CACHED] = KB("kbcached", "kbcached", "node_memory_Cached_bytes", "Cached",
				"page cache (/proc/meminfo Cached)"),
	[PTK_M_MEM_COMMIT] =
		KB("kbcommit", "kbcommit", "node_memory_Committed_AS_bytes", "Committed_AS",
		   "memory committed to allocations (/proc/meminfo Committed_AS)"),
	[PTK_M_MEM_COMMIT_PCT] =
		LPCT("%commit", "commit_pct", "Committed_AS / (MemTotal + SwapTotal)",
		     "commitment against RAM + swap (/proc/meminfo)"),
	[PTK_M_MEM_ACTIVE] = KB("kbactive", "kbactive", "node_memory_Active_bytes", "Active",
				"recently used, not reclaimed soon (/proc/meminfo Active)"),
	[PTK_M_MEM_INACTIVE] = KB("kbinact", "kbinact", "node_memory_Inactive_bytes", "Inactive",
				  "reclaim candidates (/proc/meminfo Inactive)"),
	[PTK_M_MEM_DIRTY] = KB("kbdirty", "kbdirty", "node_memory_Dirty_bytes", "Dirty",
			       "waiting to be written back (/proc/meminfo Dirty)"),
	[PTK_M_MEM_KBSHMEM] = KB("kbshmem", "kbshmem", NULL, "Shmem",
				 "tmpfs and shared memory, kB (/proc/meminfo Shmem)"),
	[PTK_M_MEM_ANONPG] = KB("kbanonpg", "kbanonpg", NULL, "AnonPages",
				"anonymous memory mapped in user space (/proc/meminfo AnonPages)"),
	[PTK_M_MEM_SLAB] = KB("kbslab", "kbslab", NULL, "Slab",
			      "kernel slab caches (/proc/meminfo Slab)"),
	[PTK_M_MEM_KSTACK] = KB("kbkstack", "kbkstack", NULL, "KernelStack",
				"kernel stacks of the tasks (/proc/meminfo KernelStack)"),
	[PTK_M_MEM_PGTBL] = KB("kbpgtbl", "kbpgtbl", NULL, "PageTables",
			       "page tables (/proc/meminfo PageTables)"),
	[PTK_M_MEM_VMUSED] = KB("kbvmused", "kbvmused", NULL, "VmallocUsed",
				"vmalloc area in use (/proc/meminfo VmallocUsed)"),
	[PTK_M_MEM_USED_NOCACHE] =
		KB("used", "mem_used_nocache", NULL,
		   "MemTotal - MemFree - Buffers - Cached - SReclaimable + Shmem",
		   "neither free nor reclaimable cache, tmpfs counted as used (Shmem is inside "
		   "Cached), as dstat and htop count used (/proc/meminfo)"),

	/* ---- swap and paging ---- */
	[PTK_M_SWP_TOTAL] = KB("total", "swap_total", "node_memory_SwapTotal_bytes", "SwapTotal",
			       "swap space (/proc/meminfo SwapTotal)"),
	[PTK_M_SWP_FREE] = KB("kbswpfree", "kbswpfree", "node_memory_SwapFree_bytes", "SwapFree",
			      "unused swap (/proc/meminfo SwapFree)"),
	[PTK_M_SWP_USED] = KB("kbswpused", "kbswpused", NULL, "SwapTotal - SwapFree",
			      "swap in use (/proc/meminfo)"),
	[PTK_M_SWP_USED_PCT] = LPCT("%swpused", "swpused_pct", "kbswpused / SwapTotal",
				    "share of swap in use (/proc/meminfo)"),
	[PTK_M_SWP_CAD] = KB("kbswpcad", "kbswpcad", "node_memory_SwapCached_bytes", "SwapCached",
			     "swapped out and back in, still in swap (/proc/meminfo SwapCached)"),
	[PTK_M_SWP_CAD_PCT] = LPCT("%swpcad", "swpcad_pct", "SwapCached / kbswpused",
				   "share of used swap also in RAM (/proc/meminfo)"),
	[PTK_M_SWP_PSWPIN] = RATE("pswpin/s", "pswpin_s", "pages/s", "node_vmstat_pswpin",
				  "d(pswpin) / itv", "pages swapped in (/proc/vmstat pswpin)"),
	[PTK_M_SWP_PSWPOUT] = RATE("pswpout/s", "pswpout_s", "pages/s", "node_vmstat_pswpout",
				   "d(pswpout) / itv", "pages swapped out (/proc/vmstat pswpout)"),
	[PTK_M_SWP_SI] = RATE("si", "swpin_kb_s", "kB/s", NULL, "pswpin/s x page size / 1024",
			      "memory swapped in from disk (/proc/vmstat pswpin, pages of "
			      "sysconf(_SC_PAGESIZE))"),
	[PTK_M_SWP_SO] = RATE("so", "swpout_kb_s", "kB/s", NULL, "pswpout/s x page size / 1024",
			      "memory swapped out to disk (/proc/vmstat pswpout, pages of "
			      "sysconf(_SC_PAGESIZE))"),
	[PTK_M_PG_PGPGIN] = RATE("pgpgin/s", "pgpgin_s", "kB/s", "node_vmstat_pgpgin",
				 "d(pgpgin) / itv", "kB paged in from disk (/proc/vmstat pgpgin)"),
	[PTK_M_PG_PGPGOUT] =
		RATE("pgpgout/s", "pgpgout_s", "kB/s", "node_vmstat_pgpgout", "d(pgpgout) / itv",
		     "kB paged out to disk (/proc/vmstat pgpgout)"),
	[PTK_M_PG_FAULT] =
		RATE("fault/s", "fault_s", "/s", "node_vmstat_pgfault", "d(pgfault) / itv",
		     "page faults, minor + major (/proc/vmstat pgfault)"),
	[PTK_M_PG_MAJFLT] =
		RATE("majflt/s", "majflt_s", "/s", "node_vmstat_pgmajfault", "d(pgmajfault) / itv",
		     "major faults, needing a disk read (/proc/vmstat pgmajfault)"),
	[PTK_M_PG_PGFREE] = RATE("pgfree/s", "pgfree_s", "pages/s", NULL, "d(pgfree) / itv",
				 "pages freed (/proc/vmstat pgfree)"),
	[PTK_M_PG_PGSCANK] =
		RATE("pgscank/s", "pgscank_s", "pages/s", NULL, "d(pgscan_kswapd) / itv",
		     "pages scanned by kswapd (/proc/vmstat pgscan_kswapd)"),
	[PTK_M_PG_PGSCAND] =
		RATE("pgscand/s", "pgscand_s", "pages/s", NULL, "d(pgscan_direct) / itv",
		     "pages scanned in direct reclaim (/proc/vmstat pgscan_direct)"),
	[PTK_M_PG_PGSTEAL] = RATE("pgsteal/s", "pgsteal_s", "pages/s", NULL,
				  "d(pgsteal_anon + pgsteal_file) / itv",
				  "pages reclaimed (/proc/vmstat pgsteal_anon + pgsteal_file; before "
				  "kernel 5.18 pgsteal_kswapd + pgsteal_direct)"),
	[PTK_M_PG_VMEFF] =
		PCT("%vmeff", "vmeff_pct", NULL, "d(pgsteal) / d(pgscan_kswapd + pgscan_direct)",
		    "reclaim efficiency: pages reclaimed per page scanned (/proc/vmstat)"),
	[PTK_M_PG_PGPROM] = RATE("pgprom/s", "pgprom_s", "pages/s", NULL,
				 "d(pgpromote_success) / itv",
				 "pages promoted to a faster memory tier (/proc/vmstat "
				 "pgpromote_success)"),
	[PTK_M_PG_PGDEM] = RATE("pgdem/s", "pgdem_s", "pages/s", NULL,
				"d(pgdemote_kswapd + pgdemote_direct + pgdemote_khugepaged) / itv",
				"pages demoted to a slower memory tier (/proc/vmstat pgdemote_*)"),

	/* ---- block I/O and disks ---- */
	[PTK_M_IO_RTPS] = RATE("rtps", "rtps", "/s", NULL, "sum d(reads completed) / itv",
			       "reads completed, whole disks (/proc/diskstats field 1)"),
	[PTK_M_IO_WTPS] = RATE("wtps", "wtps", "/s", NULL, "sum d(writes completed) / itv",
			       "writes completed, whole disks (/proc/diskstats field 5)"),
	[PTK_M_IO_DTPS] = RATE("dtps", "dtps", "/s", NULL, "sum d(discards completed) / itv",
			       "discards completed, whole disks (/proc/diskstats field 12)"),
	[PTK_M_IO_BREAD] =
		RATE("bread/s", "bread_s", "sectors/s", NULL, "sum d(sectors read) / itv",
		     "512-byte sectors read, whole disks (/proc/diskstats field 3)"),
	[PTK_M_IO_BWRTN] =
		RATE("bwrtn/s", "bwrtn_s", "sectors/s", NULL, "sum d(sectors written) / itv",
		     "sectors written, whole disks (/proc/diskstats field 7)"),
	[PTK_M_IO_BDSCD] =
		RATE("bdscd/s", "bdscd_s", "sectors/s", NULL, "sum d(sectors discarded) / itv",
		     "sectors discarded, whole disks (/proc/diskstats field 14)"),
	[PTK_M_DISK_DEV] = ENTITY("DEV", "device", 9, "block device (/proc/diskstats name)"),
	[PTK_M_DISK_TPS] = RATE("tps", "tps", "/s", NULL, "d(reads + writes + discards) / itv",
				"requests completed (/proc/diskstats fields 1, 5, 12)"),
	[PTK_M_DISK_R_S] =
		RATE("r/s", "r_s", "/s", "node_disk_reads_completed_total",
		     "d(reads completed) / itv", "reads completed (/proc/diskstats field 1)"),
	[PTK_M_DISK_W_S] =
		RATE("w/s", "w_s", "/s", "node_disk_writes_completed_total",
		     "d(writes completed) / itv", "writes completed (/proc/diskstats field 5)"),
	[PTK_M_DISK_D_S] = RATE("d/s", "d_s", "/s", "node_disk_discards_completed_total",
				"d(discards completed) / itv",
				"discards completed (/proc/diskstats field 12, kernel >= 4.18)"),
	[PTK_M_DISK_F_S] = RATE(
		"f/s", "f_s", "/s", "node_disk_flush_requests_total", "d(flushes completed) / itv",
		"flush requests completed (/proc/diskstats field 16, kernel >= 5.5)"),
	[PTK_M_DISK_RKB_S] = RATE("rkB/s", "rkb_s", "kB/s", "node_disk_read_bytes_total",
				  "d(sectors read) / 2 / itv", "kB read (/proc/diskstats field 3)"),
	[PTK_M_DISK_WKB_S] =
		RATE("wkB/s", "wkb_s", "kB/s", "node_disk_written_bytes_total",
		     "d(sectors written) / 2 / itv", "kB written (/proc/diskstats field 7)"),
	[PTK_M_DISK_DKB_S] =
		RATE("dkB/s", "dkb_s", "kB/s", "node_disk_discarded_sectors_total",
		     "d(sectors discarded) / 2 / itv", "kB discarded (/proc/diskstats field 14)"),
	[PTK_M_DISK_RRQM_S] =
		RATE("rrqm/s", "rrqm_s", "/s", "node_disk_reads_merged_total",
		     "d(reads merged) / itv", "read requests merged (/proc/diskstats field 2)"),
	[PTK_M_DISK_WRQM_S] =
		RATE("wrqm/s", "wrqm_s", "/s", "node_disk_writes_merged_total",
		     "d(writes merged) / itv", "write requests merged (/proc/diskstats field 6)"),
	[PTK_M_DISK_DRQM_S] = RATE("drqm/s", "drqm_s", "/s", "node_disk_discards_merged_total",
				   "d(discards merged) / itv",
				   "discard requests merged (/proc/diskstats field 13)"),
	[PTK_M_DISK_RRQM_PCT] = PCT("%rrqm", "rrqm_pct", NULL, "d(merged) / d(merged + completed)",
				    "share of read requests merged (/proc/diskstats fields 1, 2)"),
	[PTK_M_DISK_WRQM_PCT] = PCT("%wrqm", "wrqm_pct", NULL, "d(merged) / d(merged + completed)",
				    "share of write requests merged (/proc/diskstats fields 5, 6)"),
	[PTK_M_DISK_DRQM_PCT] =
		PCT("%drqm", "drqm_pct", NULL, "d(merged) / d(merged + completed)",
		    "share of discard requests merged (/proc/diskstats fields 12, 13)"),
	[PTK_M_DISK_R_AWAIT] =
		ENTRY("r_await", "r_await", "ms", PTK_RATE, PTK_V_F64, 9, 2,
		      "node_disk_read_time_seconds_total", "d(read ms) / d(reads)",
		      "mean time per read, queue + service (/proc/diskstats fields 1, 4)"),
	[PTK_M_DISK_W_AWAIT] =
		ENTRY("w_await", "w_await", "ms", PTK_RATE, PTK_V_F64, 9, 2,
		      "node_disk_write_time_seconds_total", "d(write ms) / d(writes)",
		      "mean time per write, queue + service (/proc/diskstats fields 5, 8)"),
	[PTK_M_DISK_D_AWAIT] =
		ENTRY("d_await", "d_await", "ms", PTK_RATE, PTK_V_F64, 9, 2,
		      "node_disk_discard_time_seconds_total", "d(discard ms) / d(discards)",
		      "mean time per discard (/proc/diskstats fields 12, 15)"),
	[PTK_M_DISK_F_AWAIT] =
		ENTRY("f_await", "f_await", "ms", PTK_RATE, PTK_V_F64, 9, 2,
		      "node_disk_flush_requests_time_seconds_total", "d(flush ms) / d(flushes)",
		      "mean time per flush (/proc/diskstats fields 16, 17)"),
	[PTK_M_DISK_RAREQ_SZ] = ENTRY("rareq-sz", "rareq_sz", "kB", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				      "d(sectors read) / 2 / d(reads)",
				      "mean read size (/proc/diskstats fields 1, 3)"),
	[PTK_M_DISK_WAREQ_SZ] = ENTRY("wareq-sz", "wareq_sz", "kB", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				      "d(sectors written) / 2 / d(writes)",
				      "mean write size (/proc/diskstats fields 5, 7)"),
	[PTK_M_DISK_DAREQ_SZ] = ENTRY("dareq-sz", "dareq_sz", "kB", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				      "d(sectors discarded) / 2 / d(discards)",
				      "mean discard size (/proc/diskstats fields 12, 14)"),
	[PTK_M_DISK_AREQ_SZ] = ENTRY("areq-sz", "areq_sz", "kB", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				     "d(sectors r + w + d) / 2 / d(requests r + w + d)",
				     "mean request size (/proc/diskstats)"),
	[PTK_M_DISK_AQU_SZ] = ENTRY(
		"aqu-sz", "aqu_sz", "", PTK_RATE, PTK_V_F64, 9, 2,
		"node_disk_io_time_weighted_seconds_total", "d(time_in_queue ms) / itv / 1000",
		"mean requests queued or in service (/proc/diskstats field 11)"),
	[PTK_M_DISK_AWAIT] = ENTRY("await", "await", "ms", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				   "d(ms r + w + d) / d(requests r + w + d)",
				   "mean time per request, queue + service (/proc/diskstats)"),
	[PTK_M_DISK_SVCTM] =
		ENTRY("svctm", "svctm", "ms", PTK_RATE, PTK_V_F64, 9, 2, NULL,
		      "d(io_ticks) / d(requests r + w)",
		      "mean service time (deprecated by sysstat; /proc/diskstats field 10)"),
	[PTK_M_DISK_UTIL] = PCT("%util", "util_pct", "node_disk_io_time_seconds_total",
				"d(io_ticks ms) / itv / 10, capped at 100",
				"time with >= 1 request in flight (/proc/diskstats field 10)"),

	[PTK_M_DISK_RKB] =
		ENTRY("kB_read", "kb_read", "kB", PTK_COUNTER, PTK_V_U64, 10, 0, NULL,
		      "d(sectors read) / 2", "kB read in the interval (/proc/diskstats field 3)"),
	[PTK_M_DISK_WKB] = ENTRY("kB_wrtn", "kb_wrtn", "kB", PTK_COUNTER, PTK_V_U64, 10, 0, NULL,
				 "d(sectors written) / 2",
				 "kB written in the interval (/proc/diskstats field 7)"),
	[PTK_M_DISK_DKB] = ENTRY("kB_dscd", "kb_dscd", "kB", PTK_COUNTER, PTK_V_U64, 10, 0, NULL,
				 "d(sectors discarded) / 2",
				 "kB discarded in the interval (/proc/diskstats field 14)"),
	[PTK_M_DISK_KB_S] = RATE("kB/s", "kb_s", "kB/s", NULL,
				 "d(sectors read + written + discarded) / 2 / itv",
				 "kB read, written or discarded (/proc/diskstats fields 3, 7, 14)"),
	[PTK_M_DISK_RQM_S] = RATE("rqm/s", "rqm_s", "/s", NULL,
				  "d(reads + writes + discards merged) / itv",
				  "requests merged (/proc/diskstats fields 2, 6, 13)"),
	[PTK_M_DISK_WDKB_S] = RATE("kB_w+d/s", "kb_wd_s", "kB/s", NULL,
				   "d(sectors written + discarded) / 2 / itv",
				   "kB written or discarded (/proc/diskstats fields 7, 14)"),
	[PTK_M_DISK_RSECT] = ENTRY("Blk_read", "rd_sect", "sectors", PTK_COUNTER, PTK_V_U64, 10, 0,
				   NULL, "d(sectors read)",
				   "512-byte sectors read in the interval (/proc/diskstats field 3)"),
	[PTK_M_DISK_WSECT] =
		ENTRY("Blk_wrtn", "wr_sect", "sectors", PTK_COUNTER, PTK_V_U64, 10, 0, NULL,
		      "d(sectors written)",
		      "512-byte sectors written in the interval (/proc/diskstats field 7)"),
	[PTK_M_DISK_DSECT] =
		ENTRY("Blk_dscd", "dc_sect", "sectors", PTK_COUNTER, PTK_V_U64, 10, 0, NULL,
		      "d(sectors discarded)",
		      "512-byte sectors discarded in the interval (/proc/diskstats field 14)"),
	[PTK_M_DISK_WDSECT] = ENTRY("Blk_w+d", "wd_sect", "sectors", PTK_COUNTER, PTK_V_U64, 10, 0,
				    NULL, "d(sectors written + discarded)",
				    "512-byte sectors written or discarded in the interval "
				    "(/proc/diskstats fields 7, 14)"),

	/* ---- network devices ---- */
	[PTK_M_NET_IFACE] = ENTITY("IFACE", "iface", 9, "network interface (/proc/net/dev)"),
	[PTK_M_NET_RXPCK] = RATE("rxpck/s", "rxpck_s", "/s", "node_network_receive_packets_total",
				 "d(rx packets) / itv", "packets received (/proc/net/dev)"),
	[PTK_M_NET_TXPCK] = RATE("txpck/s", "txpck_s", "/s", "node_network_transmit_packets_total",
				 "d(tx packets) / itv", "packets transmitted (/proc/net/dev)"),
	[PTK_M_NET_RXKB] = RATE("rxkB/s", "rxkb_s", "kB/s", "node_network_receive_bytes_total",
				"d(rx bytes) / 1024 / itv", "kB received (/proc/net/dev)"),
	[PTK_M_NET_TXKB] = RATE("txkB/s", "txkb_s", "kB/s", "node_network_transmit_bytes_total",
				"d(tx bytes) / 1024 / itv", "kB transmitted (/proc/net/dev)"),
	[PTK_M_NET_RXCMP] =
		RATE("rxcmp/s", "rxcmp_s", "/s", "node_network_receive_compressed_total",
		     "d(rx compressed) / itv", "compressed packets received (/proc/net/dev)"),
	[PTK_M_NET_TXCMP] =
		RATE("txcmp/s", "txcmp_s", "/s", "node_network_transmit_compressed_total",
		     "d(tx compressed) / itv", "compressed packets transmitted (/proc/net/dev)"),
	[PTK_M_NET_RXMCST] =
		RATE("rxmcst/s", "rxmcst_s", "/s", "node_network_receive_multicast_total",
		     "d(rx multicast) / itv", "multicast packets received (/proc/net/dev)"),
	[PTK_M_NET_IFUTIL] = PCT("%ifutil", "ifutil_pct", NULL,
				 "max(d(rx bytes), d(tx bytes)) * 8 / itv / speed, capped at 100",
				 "link utilisation, full duplex assumed (/proc/net/dev, "
				 "/sys/class/net/IF/speed); unknown without a link speed"),
	[PTK_M_NET_RXAVS] = ENTRY("rAvs", "ravs_bytes", "bytes", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				  "d(rx bytes) / d(rx packets), 0 without a packet",
				  "mean size of the packets received (/proc/net/dev)"),
	[PTK_M_NET_TXAVS] = ENTRY("wAvs", "wavs_bytes", "bytes", PTK_RATE, PTK_V_F64, 9, 2, NULL,
				  "d(tx bytes) / d(tx packets), 0 without a packet",
				  "mean size of the packets transmitted (/proc/net/dev)"),
	[PTK_M_NET_SAT] = RATE("Sat", "sat_s", "/s", NULL,
			       "d(rx errs + rx drop + tx drop + tx fifo + tx colls + tx carrier) / itv",
			       "saturation as nicstat counts it: errors and drops of both "
			       "directions, receive FIFO overruns excluded (/proc/net/dev)"),
	[PTK_M_NET_RXERR] = RATE("rxerr/s", "rxerr_s", "/s", "node_network_receive_errs_total",
				 "d(rx errs) / itv", "bad packets received (/proc/net/dev)"),
	[PTK_M_NET_TXERR] = RATE("txerr/s", "txerr_s", "/s", "node_network_transmit_errs_total",
				 "d(tx errs) / itv", "transmit errors (/proc/net/dev)"),
	[PTK_M_NET_COLL] = RATE("coll/s", "coll_s", "/s", "node_network_transmit_colls_total",
				"d(colls) / itv", "collisions while transmitting (/proc/net/dev)"),
	[PTK_M_NET_RXDROP] = RATE("rxdrop/s", "rxdrop_s", "/s", "node_network_receive_drop_total",
				  "d(rx drop) / itv",
				  "received packets dropped, no buffer space (/proc/net/dev)"),
	[PTK_M_NET_TXDROP] =
		RATE("txdrop/s", "txdrop_s", "/s", "node_network_transmit_drop_total",
		     "d(tx drop) / itv", "packets dropped on transmit (/proc/net/dev)"),
	[PTK_M_NET_TXCARR] =
		RATE("txcarr/s", "txcarr_s", "/s", "node_network_transmit_carrier_total",
		     "d(tx carrier) / itv", "carrier errors on transmit (/proc/net/dev)"),
	[PTK_M_NET_RXFRAM] = RATE("rxfram/s", "rxfram_s", "/s", "node_network_receive_frame_total",
				  "d(rx frame) / itv", "frame alignment errors (/proc/net/dev)"),
	[PTK_M_NET_RXFIFO] = RATE("rxfifo/s", "rxfifo_s", "/s", "node_network_receive_fifo_total",
				  "d(rx fifo) / itv", "receive FIFO overruns (/proc/net/dev)"),
	[PTK_M_NET_TXFIFO] = RATE("txfifo/s", "txfifo_s", "/s", "node_network_transmit_fifo_total",
				  "d(tx fifo) / itv", "transmit FIFO overruns (/proc/net/dev)"),

	/* ---- TCP, IP, UDP, sockets ---- */
	[PTK_M_TCP_ACTIVE] = RATE("active/s", "active_s", "/s", "node_netstat_Tcp_ActiveOpens",
				  "d(Tcp ActiveOpens) / itv",
				  "active opens: connect() (/proc/net/snmp Tcp ActiveOpens)"),
	[PTK_M_TCP_PASSIVE] = RATE("passive/s", "passive_s", "/s", "node_netstat_Tcp_PassiveOpens",
				   "d(Tcp PassiveOpens) / itv",
				   "passive opens: accepted (/proc/net/snmp Tcp PassiveOpens)"),
	[PTK_M_TCP_ISEG] =
		RATE("iseg/s", "iseg_s", "/s", "node_netstat_Tcp_InSegs", "d(Tcp InSegs) / itv",
		     "segments received (/proc/net/snmp Tcp InSegs)"),
	[PTK_M_TCP_OSEG] =
		RATE("oseg/s", "oseg_s", "/s", "node_netstat_Tcp_OutSegs", "d(Tcp OutSegs) / itv",
		     "segments sent (/proc/net/snmp Tcp OutSegs)"),
	[PTK_M_TCP_ATMPTF] = RATE("atmptf/s", "atmptf_s", "/s", "node_netstat_Tcp_AttemptFails",
				  "d(Tcp AttemptFails) / itv",
				  "failed connection attempts (/proc/net/snmp Tcp AttemptFails)"),
	[PTK_M_TCP_ESTRES] =
		RATE("estres/s", "estres_s", "/s", "node_netstat_Tcp_EstabResets",
		     "d(Tcp EstabResets) / itv",
		     "resets of established connections (/proc/net/snmp Tcp EstabResets)"),
	[PTK_M_TCP_RETRANS] = RATE("retrseg/s", "retrans_s", "/s", "node_netstat_Tcp_RetransSegs",
				   "d(Tcp RetransSegs) / itv",
				   "segments retransmitted (/proc/net/snmp Tcp RetransSegs)"),
	[PTK_M_TCP_ISEGERR] =
		RATE("isegerr/s", "isegerr_s", "/s", "node_netstat_Tcp_InErrs",
		     "d(Tcp InErrs) / itv", "bad segments received (/proc/net/snmp Tcp InErrs)"),
	[PTK_M_TCP_ORSTS] =
		RATE("orsts/s", "orsts_s", "/s", "node_netstat_Tcp_OutRsts", "d(Tcp OutRsts) / itv",
		     "RST segments sent (/proc/net/snmp Tcp OutRsts)"),
	[PTK_M_TCP_RETRANS_PCT] =
		PCT("%retrans", "retrans_pct", NULL, "d(Tcp RetransSegs) / d(Tcp OutSegs)",
		    "segments retransmitted per segment sent (/proc/net/snmp Tcp "
		    "RetransSegs, OutSegs); unknown with none sent"),
	[PTK_M_TCP_RESETS] = RATE("Reset", "reset_s", "/s", NULL,
				  "d(Tcp EstabResets + Tcp OutRsts) / itv",
				  "resets: of established connections, and RST segments sent "
				  "(/proc/net/snmp Tcp EstabResets, OutRsts)"),
	[PTK_M_TCP_LDROPS] = RATE("Drops", "listen_drops_s", "/s", "node_netstat_TcpExt_ListenDrops",
				  "d(TcpExt ListenDrops) / itv",
				  "SYNs and connections dropped by listeners, accept queue overflows "
				  "included (/proc/net/netstat TcpExt ListenDrops)"),
	[PTK_M_TCP_INKB] = RATE("InKB", "in_kb_s", "kB/s", NULL, "none: always unknown",
				"TCP payload received: Linux keeps no TCP byte counter, so this is "
				"always unknown (nicstat's column; it prints 0)"),
	[PTK_M_TCP_OUTKB] = RATE("OutKB", "out_kb_s", "kB/s", NULL, "none: always unknown",
				 "TCP payload sent: no Linux counter, always unknown (nicstat's "
				 "column)"),

	/* ---- pressure stall information ---- */
	[PTK_M_PSI_CPU_SOME_AVG10] =
		LEVEL("%scpu-10", "psi_cpu_some_avg10", "%", NULL, "cpu some avg10",
		      "some tasks stalled on CPU, 10 s average (/proc/pressure/cpu some avg10)"),
	[PTK_M_PSI_CPU_SOME_AVG60] =
		LEVEL("%scpu-60", "psi_cpu_some_avg60", "%", NULL, "cpu some avg60",
		      "some tasks stalled on CPU, 60 s average (/proc/pressure/cpu some avg60)"),
	[PTK_M_PSI_CPU_SOME_AVG300] =
		LEVEL("%scpu-300", "psi_cpu_some_avg300", "%", NULL, "cpu some avg300",
		      "some tasks stalled on CPU, 300 s average (/proc/pressure/cpu some avg300)"),
	[PTK_M_PSI_CPU_SOME_PCT] = PCT(
		"%scpu", "psi_cpu_some_pct", "node_pressure_cpu_waiting_seconds_total",
		"d(some total us) / itv / 10^4, capped at 100",
		"share of the interval with some tasks stalled on CPU (/proc/pressure/cpu some total)"),
	[PTK_M_PSI_CPU_FULL_AVG10] = LEVEL(
		"%fcpu-10", "psi_cpu_full_avg10", "%", NULL, "cpu full avg10",
		"all non-idle tasks stalled on CPU, 10 s average (/proc/pressure/cpu full avg10; "
		"kernel >= 5.13, zero system-wide)"),
	[PTK_M_PSI_CPU_FULL_AVG60] =
		LEVEL("%fcpu-60", "psi_cpu_full_avg60", "%", NULL, "cpu full avg60",
		      "all non-idle tasks stalled on CPU, 60 s average (/proc/pressure/cpu full "
		      "avg60)"),
	[PTK_M_PSI_CPU_FULL_AVG300] =
		LEVEL("%fcpu-300", "psi_cpu_full_avg300", "%", NULL, "cpu full avg300",
		      "all non-idle tasks stalled on CPU, 300 s average (/proc/pressure/cpu full "
		      "avg300)"),
	[PTK_M_PSI_CPU_FULL_PCT] =
		PCT("%fcpu", "psi_cpu_full_pct", NULL, "d(full total us) / itv / 10^4, capped at 100",
		    "share of the interval with all non-idle tasks stalled on CPU "
		    "(/proc/pressure/cpu full total)"),
	[PTK_M_PSI_IO_SOME_AVG10] =
		LEVEL("%sio-10", "psi_io_some_avg10", "%", NULL, "io some avg10",
		      "some tasks stalled on I/O, 10 s average (/proc/pressure/io some avg10)"),
	[PTK_M_PSI_IO_SOME_AVG60] =
		LEVEL("%sio-60", "psi_io_some_avg60", "%", NULL, "io some avg60",
		      "some tasks stalled on I/O, 60 s average (/proc/pressure/io some avg60)"),
	[PTK_M_PSI_IO_SOME_AVG300] =
		LEVEL("%sio-300", "psi_io_some_avg300", "%", NULL, "io some avg300",
		      "some tasks stalled on I/O, 300 s average (/proc/pressure/io some avg300)"),
	[PTK_M_PSI_IO_SOME_PCT] = PCT(
		"%sio", "psi_io_some_pct", "node_pressure_io_waiting_seconds_total",
		"d(some total us) / itv / 10^4, capped at 100",
		"share of the interval with some tasks stalled on I/O (/proc/pressure/io some total)"),
	[PTK_M_PSI_IO_FULL_AVG10] = LEVEL(
		"%fio-10", "psi_io_full_avg10", "%", NULL, "io full avg10",
		"all non-idle tasks stalled on I/O, 10 s average (/proc/pressure/io full avg10)"),
	[PTK_M_PSI_IO_FULL_AVG60] = LEVEL(
		"%fio-60", "psi_io_full_avg60", "%", NULL, "io full avg60",
		"all non-idle tasks stalled on I/O, 60 s average (/proc/pressure/io full avg60)"),
	[PTK_M_PSI_IO_FULL_AVG300] = LEVEL(
		"%fio-300", "psi_io_full_avg300", "%", NULL, "io full avg300",
		"all non-idle tasks stalled on I/O, 300 s average (/proc/pressure/io full avg300)"),
	[PTK_M_PSI_IO_FULL_PCT] = PCT(
		"%fio", "psi_io_full_pct", "node_pressure_io_stalled_seconds_total",
		"d(full total us) / itv / 10^4, capped at 100",
		"share of the interval with all non-idle tasks stalled on I/O (/proc/pressure/io full total)"),
	[PTK_M_PSI_MEM_SOME_AVG10] = LEVEL(
		"%smem-10", "psi_mem_some_avg10", "%", NULL, "memory some avg10",
		"some tasks stalled on memory, 10 s average (/proc/pressure/memory some avg10)"),
	[PTK_M_PSI_MEM_SOME_AVG60] = LEVEL(
		"%smem-60", "psi_mem_some_avg60", "%", NULL, "memory some avg60",
		"some tasks stalled on memory, 60 s average (/proc/pressure/memory some avg60)"),
	[PTK_M_PSI_MEM_SOME_AVG300] = LEVEL(
		"%smem-300", "psi_mem_some_avg300", "%", NULL, "memory some avg300",
		"some tasks stalled on memory, 300 s average (/proc/pressure/memory some avg300)"),
	[PTK_M_PSI_MEM_SOME_PCT] = PCT(
		"%smem", "psi_mem_some_pct", "node_pressure_memory_waiting_seconds_total",
		"d(some total us) / itv / 10^4, capped at 100",
		"share of the interval with some tasks stalled on memory (/proc/pressure/memory some total)"),
	[PTK_M_PSI_MEM_FULL_AVG10] = LEVEL(
		"%fmem-10", "psi_mem_full_avg10", "%", NULL, "memory full avg10",
		"all non-idle tasks stalled on memory, 10 s average (/proc/pressure/memory full avg10)"),
	[PTK_M_PSI_MEM_FULL_AVG60] = LEVEL(
		"%fmem-60", "psi_mem_full_avg60", "%", NULL, "memory full avg60",
		"all non-idle tasks stalled on memory, 60 s average (/proc/pressure/memory full avg60)"),
	[PTK_M_PSI_MEM_FULL_AVG300] = LEVEL(
		"%fmem-300", "psi_mem_full_avg300", "%", NULL, "memory full avg300",
		"all non-idle tasks stalled on memory, 300 s average (/proc/pressure/memory full avg300)"),
	[PTK_M_PSI_MEM_FULL_PCT] = PCT(
		"%fmem", "psi_mem_full_pct", "node_pressure_memory_stalled_seconds_total",
		"d(full total us) / itv / 10^4, capped at 100",
		"share of the interval with all non-idle tasks stalled on memory (/proc/pressure/memory full total)"),
#define PSI_TOTAL(k, res, kd, who)                                                            \
	ENTRY("total_us", k, "us", PTK_COUNTER, PTK_V_U64, 14, 0, NULL, res " " kd " total=", \
	      "time " who " stalled on " res " since boot, us (/proc/pressure/" res " " kd    \
	      " total=)")
	[PTK_M_PSI_CPU_SOME_TOTAL] =
		PSI_TOTAL("psi_cpu_some_total_us", "cpu", "some", "with some tasks"),
	[PTK_M_PSI_CPU_FULL_TOTAL] =
		PSI_TOTAL("psi_cpu_full_total_us", "cpu", "full", "with all non-idle tasks"),
	[PTK_M_PSI_IO_SOME_TOTAL] = PSI_TOTAL("psi_io_some_total_us", "io", "some", "with some tasks"),
	[PTK_M_PSI_IO_FULL_TOTAL] =
		PSI_TOTAL("psi_io_full_total_us", "io", "full", "with all non-idle tasks"),
	[PTK_M_PSI_MEM_SOME_TOTAL] =
		PSI_TOTAL("psi_mem_some_total_us", "memory", "some", "with some tasks"),
	[PTK_M_PSI_MEM_FULL_TOTAL] =
		PSI_TOTAL("psi_mem_full_total_us", "memory", "full", "with all non-idle tasks"),
#undef PSI_TOTAL
	[PTK_M_PSI_RESOURCE] =
		ENTITY("resource", "resource", -8, "cpu, memory or io (/proc/pressure/<resource>)"),
	[PTK_M_PSI_KIND] = ENTITY("kind", "kind", -4,
				  "some: at least one task stalled on the resource; full: every "
				  "non-idle task stalled at once"),

/* ---- cgroups ---- */
#define CGE(t, k, u, kd, ty, w, p, pr, f, h)                                                   \
	{                                                                                      \
		.name = t, .key = k, .unit = u, .kind = kd, .type = ty, .width = w, .prec = p, \
		.prom = pr, .from = f, .help = h                                               \
	}
	[PTK_M_CG_PATH] = CGE("Control Group", "cgroup_path", "", PTK_GAUGE, PTK_V_STR, -40, 0, NULL,
			      "the directory below each hierarchy root",
			      "cgroup path below the hierarchy roots (/sys/fs/cgroup, v1 "
			      "/sys/fs/cgroup/CONTROLLER); one cgroup of every hierarchy that has "
			      "the path (the cAdvisor label id)"),
	[PTK_M_CG_OWNER] = CGE("Owner", "owner", "", PTK_GAUGE, PTK_V_STR, -24, 0, NULL,
			       "the path's names",
			       "container runtime and id (docker, containerd, cri-o, podman, lxc), "
			       "Kubernetes pod UID and QoS class, or the innermost systemd unit, read "
			       "from the path alone"),
	[PTK_M_CG_TASKS] = CGE("Tasks", "cgroup_tasks", "", PTK_GAUGE, PTK_V_F64, 6, 0, "container_threads",
			       "pids.current",
			       "tasks (threads) in the cgroup and its descendants (pids.current, "
			       "kernel/cgroup/pids.c)"),
	[PTK_M_CG_TASKS_MAX] = CGE("TasksMax", "tasks_max", "", PTK_GAUGE, PTK_V_F64, 8, 0,
				   "container_threads_max", "pids.max",
				   "task limit (pids.max; \"max\" none, absent from the exposition)"),
	[PTK_M_CG_CPU_PCT] =
		CGE("%CPU", "cgroup_cpu_pct", "%", PTK_PCT, PTK_V_F64, 6, 1,
		    "container_cpu_usage_seconds_total", "d(usage) / itv",
		    "CPU time of the cgroup and its descendants, % of one CPU; exported as "
		    "cumulative seconds {cpu=\"total\"} (v2 cpu.stat usage_usec, "
		    "kernel/cgroup/rstat.c; v1 cpuacct.usage, kernel/sched/cpuacct.c)"),
	[PTK_M_CG_USER_PCT] = CGE("%usr", "cgroup_user_pct", "%", PTK_PCT, PTK_V_F64, 6, 1,
				  "container_cpu_user_seconds_total", "d(user) / itv",
				  "user-mode CPU time, % of one CPU; exported as seconds (cpu.stat "
				  "user_usec; v1 cpuacct.stat user, USER_HZ ticks)"),
	[PTK_M_CG_SYS_PCT] = CGE("%sys", "cgroup_system_pct", "%", PTK_PCT, PTK_V_F64, 6, 1,
				 "container_cpu_system_seconds_total", "d(system) / itv",
				 "kernel-mode CPU time, % of one CPU; exported as seconds (cpu.stat "
				 "system_usec; v1 cpuacct.stat system)"),
	[PTK_M_CG_QUOTA] = CGE("Quota", "cpu_quota_cpus", "CPUs", PTK_GAUGE, PTK_V_F64, 6, 2,
			       "container_spec_cpu_quota", "quota / period",
			       "CPU bandwidth limit in CPUs, \"max\" none; exported as the quota in "
			       "microseconds per period, as cAdvisor (cpu.max; v1 cpu.cfs_quota_us, "
			       "kernel/sched/core.c)"),
	[PTK_M_CG_PERIOD_US] = CGE("Period", "cpu_period_us", "us", PTK_GAUGE, PTK_V_F64, 7, 0,
				   "container_spec_cpu_period", "cpu.max period",
				   "CFS bandwidth period in microseconds (cpu.max second field; v1 "
				   "cpu.cfs_period_us)"),
	[PTK_M_CG_QUOTA_PCT] = CGE("%Quota", "quota_used_pct", "%", PTK_PCT, PTK_V_F64, 6, 1, NULL,
				   "%CPU / (quota x 100)",
				   "share of its CPU quota the cgroup used in the interval"),
	[PTK_M_CG_PERIODS] = CGE("periods", "cfs_periods", "", PTK_COUNTER, PTK_V_F64, 8, 0,
				 "container_cpu_cfs_periods_total", "d(nr_periods)",
				 "CFS enforcement periods with runnable tasks in the interval "
				 "(cpu.stat nr_periods, kernel/sched/core.c cpu_cfs_stat_show)"),
	[PTK_M_CG_THROTTLED] = CGE("throttled", "cfs_throttled_periods", "", PTK_COUNTER,
				   PTK_V_F64, 9, 0, "container_cpu_cfs_throttled_periods_total",
				   "d(nr_throttled)",
				   "periods in which the cgroup used up its quota and was throttled "
				   "(cpu.stat nr_throttled)"),
	[PTK_M_CG_THR_PCT] = CGE("%Thr", "throttled_pct", "%", PTK_PCT, PTK_V_F64, 5, 1, NULL,
				 "d(nr_throttled) / d(nr_periods)",
				 "share of its CFS periods in which the cgroup was throttled (cpu.stat "
				 "nr_throttled / nr_periods)"),
	[PTK_M_CG_THR_S] = CGE("Thr s/s", "throttled_s_per_s", "s/s", PTK_RATE, PTK_V_F64, 7, 2,
			       "container_cpu_cfs_throttled_seconds_total", "d(throttled) / itv",
			       "time its runqueues spent throttled per second; exported as seconds "
			       "(cpu.stat throttled_usec; v1 throttled_time, ns)"),
	[PTK_M_CG_MEM] = CGE("Memory", "memory_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
			     "container_memory_usage_bytes", "memory.current",
			     "memory charged to the cgroup, page cache included (memory.current; v1 "
			     "memory.usage_in_bytes, mm/memcontrol.c)"),
	[PTK_M_CG_WSET] = CGE("WSet", "working_set_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
			      "container_memory_working_set_bytes", "usage - inactive_file",
			      "working set as cAdvisor computes it: usage less inactive file pages, "
			      "never below 0 (memory.stat inactive_file; v1 total_inactive_file)"),
	[PTK_M_CG_RSS] = CGE("anon", "anon_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
			     "container_memory_rss", "memory.stat anon",
			     "anonymous memory (memory.stat anon; v1 total_rss)"),
	[PTK_M_CG_CACHE] = CGE("file", "cache_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
			       "container_memory_cache", "memory.stat file",
			       "page cache (memory.stat file; v1 total_cache)"),
	[PTK_M_CG_SWAP] = CGE("swap", "swap_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
			      "container_memory_swap", "memory.swap.current",
			      "swap used (memory.swap.current; v1 memory.stat total_swap)"),
	[PTK_M_CG_PEAK] = CGE("peak", "memory_peak_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
			      "container_memory_max_usage_bytes", "memory.peak",
			      "highest usage recorded (memory.peak; v1 memory.max_usage_in_bytes)"),
	[PTK_M_CG_MEM_MAX] = CGE("Max", "memory_max_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
				 "container_spec_memory_limit_bytes", "memory.max",
				 "hard limit: above it the cgroup reclaims, then OOM-kills; \"max\" "
				 "none, absent from the exposition (memory.max; v1 "
				 "memory.limit_in_bytes)"),
	[PTK_M_CG_MEM_HIGH] = CGE("High", "memory_high_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
				  "ptk_cgroup_memory_high_bytes", "memory.high",
				  "throttling limit: above it allocations reclaim and sleep (v2 "
				  "memory.high; v1 has none)"),
	[PTK_M_CG_MEM_LOW] = CGE("Low", "memory_low_bytes", "B", PTK_GAUGE, PTK_V_F64, 8, 0,
				 "container_spec_memory_reservation_limit_bytes", "memory.low",
				 "protection from reclaim (memory.low; v1 memory.soft_limit_in_bytes)"),
	[PTK_M_CG_LIMIT_PCT] = CGE("%Lim", "limit_used_pct", "%", PTK_GAUGE, PTK_V_F64, 5, 1, NULL,
				   "working set / min(max, high)",
				   "working set as a share of the lower of memory.max and memory.high"),
	[PTK_M_CG_EV_HIGH] = CGE("high", "memory_high_events", "", PTK_COUNTER, PTK_V_F64, 6, 0,
				 "container_memory_events_high_total", "d(memory.events high)",
				 "times usage went over memory.high and allocations were throttled "
				 "(memory.events high, mm/memcontrol.c)"),
	[PTK_M_CG_EV_MAX] = CGE("max", "memory_max_events", "", PTK_COUNTER, PTK_V_F64, 6, 0,
				"container_memory_events_max_total", "d(memory.events max)",
				"times usage was about to go over memory.max (memory.events max; v1 "
				"memory.failcnt, charges that hit memory.limit_in_bytes)"),
	[PTK_M_CG_FAILCNT] = CGE("failcnt", "memory_failcnt", "", PTK_COUNTER, PTK_V_F64, 7, 0,
				 "container_memory_failcnt", "memory.failcnt",
				 "memory usage hits of the limit, cAdvisor's name for memory.events "
				 "max (v1 memory.failcnt)"),
	[PTK_M_CG_EV_OOM] = CGE("oom", "memory_oom_events", "", PTK_COUNTER, PTK_V_F64, 5, 0,
				"ptk_cgroup_memory_oom_events_total", "d(memory.events oom)",
				"times the cgroup's OOM killer was invoked (memory.events oom; v2 "
				"only)"),
	[PTK_M_CG_EV_OOM_KILL] = CGE("oom_kill", "cgroup_oom_kills", "", PTK_COUNTER, PTK_V_F64, 8, 0,
				     "container_oom_events_total", "d(memory.events oom_kill)",
				     "processes of the cgroup killed by an OOM killer (memory.events "
				     "oom_kill; v1 memory.oom_control oom_kill)"),
	[PTK_M_CG_MAJFLT] = CGE("majflt/s", "cgroup_majflt_s", "/s", PTK_RATE, PTK_V_F64, 8, 1, NULL,
				"d(pgmajfault) / itv",
				"major page faults (memory.stat pgmajfault; v1 total_pgmajfault)"),
	[PTK_M_CG_RBPS] = CGE("Input/s", "read_bytes_per_s", "B/s", PTK_RATE, PTK_V_F64, 9, 0,
			      "container_fs_reads_bytes_total", "d(rbytes) / itv",
			      "bytes read from block devices; exported per device (io.stat rbytes, "
			      "block/blk-cgroup.c; v1 blkio.throttle.io_service_bytes_recursive "
			      "Read)"),
	[PTK_M_CG_WBPS] = CGE("Output/s", "write_bytes_per_s", "B/s", PTK_RATE, PTK_V_F64, 9, 0,
			      "container_fs_writes_bytes_total", "d(wbytes) / itv",
			      "bytes written to block devices (io.stat wbytes; v1 "
			      "blkio.throttle.io_service_bytes_recursive Write)"),
	[PTK_M_CG_RIOPS] = CGE("r/s", "read_ios_per_s", "/s", PTK_RATE, PTK_V_F64, 7, 1,
			       "container_fs_reads_total", "d(rios) / itv",
			       "read requests (io.stat rios; v1 blkio.throttle.io_serviced_recursive "
			       "Read)"),
	[PTK_M_CG_WIOPS] = CGE("w/s", "write_ios_per_s", "/s", PTK_RATE, PTK_V_F64, 7, 1,
			       "container_fs_writes_total", "d(wios) / itv",
			       "write requests (io.stat wios; v1 "
			       "blkio.throttle.io_serviced_recursive Write)"),
#define CGPSI(t, k, pr, res, w)                                                               \
	CGE(t, k, "%", PTK_PCT, PTK_V_F64, 6, 1, pr, "d(total) / itv",                        \
	    "share of the interval " w " of the cgroup's tasks stalled on " res "; exported " \
	    "as seconds (" res ".pressure total, kernel/sched/psi.c; cgroup v2 trees only)")
	[PTK_M_CG_PSI_CPU_SOME] = CGPSI("CPU-P", "pressure_cpu_some_pct",
					"container_pressure_cpu_waiting_seconds_total", "cpu",
					"some"),
	[PTK_M_CG_PSI_CPU_FULL] = CGPSI("CPU-F", "pressure_cpu_full_pct",
					"container_pressure_cpu_stalled_seconds_total", "cpu",
					"all"),
	[PTK_M_CG_PSI_MEM_SOME] = CGPSI("MEM-P", "pressure_memory_some_pct",
					"container_pressure_memory_waiting_seconds_total", "memory",
					"some"),
	[PTK_M_CG_PSI_MEM_FULL] = CGPSI("MEM-F", "pressure_memory_full_pct",
					"container_pressure_memory_stalled_seconds_total", "memory",
					"all"),
	[PTK_M_CG_PSI_IO_SOME] = CGPSI("IO-P", "pressure_io_some_pct",
				       "container_pressure_io_waiting_seconds_total", "io", "some"),
	[PTK_M_CG_PSI_IO_FULL] = CGPSI("IO-F", "pressure_io_full_pct",
				       "container_pressure_io_stalled_seconds_total", "io", "all"),
#undef CGPSI
	[PTK_M_CG_INFO] = CGE("ptk_cgroup_info", "ptk_cgroup_info", "", PTK_GAUGE, PTK_V_U64, 0, 0,
			      "ptk_cgroup_info", "the path",
			      "1 per cgroup, with what its path says: runtime and container_id, "
			      "pod_uid and qos (kubepods), unit (systemd); join on id"),
#undef CGE

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
	[PTK_M_CHECK_CG_THROTTLED_N] =
		CG("throttled cgroups", "throttled_cgroups", "", 0,
		   "cgroups throttled in at least the warning share of their CFS periods"),
	[PTK_M_CHECK_CG_MEMLIMIT_N] =
		CG("cgroups at limit", "memory_limited_cgroups", "", 0,
		   "cgroups with memory.high or memory.max events or OOM kills in the window"),
	[PTK_M_CHECK_HOST_IDLE] = CG("host idle", "host_idle_pct", "%", 0,
				     "the host's CPU time idle over the window (/proc/stat cpu)"),
	[PTK_M_CHECK_OOM_CG_UNSEEN] =
		CC("oom kills not in a cgroup row", "oom_kills_not_in_cgroups", "",
		   "OOM kills in the window less those the cgroups' own counters count "
		   "(memory.events oom_kill, memory.oom_control oom_kill)"),
	[PTK_M_CHECK_MEM_PSI_HOST] =
		CG("psi some (host)", "psi_some_host_pct", "%", 1,
		   "PSI memory some when no memory cgroup at its own limit accounts for it, or the "
		   "host has under 20% available; unknown otherwise (/proc/pressure/memory)"),
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
#define PM(t, k, u, kd, ty, w, p, h)                                                           \
	{                                                                                      \
		.name = t, .key = k, .unit = u, .kind = kd, .type = ty, .width = w, .prec = p, \
		.help = h                                                                      \
	}
/* the same with its key in sysstat's -o JSON */
#define PMJ(j, t, k, u, kd, ty, w, p, h)                                                       \
	{                                                                                      \
		.name = t, .key = k, .unit = u, .kind = kd, .type = ty, .width = w, .prec = p, \
		.help = h, .sjson = j                                                          \
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
	[PTK_M_PROC_COMMAND] = PMJ("cmd", "COMMAND", "command", "", PTK_GAUGE, PTK_V_STR, -7, 0,
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
	[PTK_M_PROC_CPUNUM] = PMJ("cpu_nr", "CPU", "cpu", "", PTK_GAUGE, PTK_V_S64, 5, 0,
				 "processor the task last ran on (/proc/PID/stat field 39)"),
	[PTK_M_PROC_CGROUP] = PM("CGROUP", "cgroup", "", PTK_GAUGE, PTK_V_STR, -24, 0,
				 "cgroup v2 path (/proc/PID/cgroup)"),
	[PTK_M_PROC_CONTAINER] = PM("CONTAINER", "container", "", PTK_GAUGE, PTK_V_STR, -20, 0,
				    "who owns the task's cgroup, from its path "
				    "(source/cgroup/ident.c ptk_cg_container): the container runtime "
				    "and short id (docker:3f2a1b9c8d7e), the pod (pod:UID), else the "
				    "innermost systemd unit"),
	[PTK_M_PROC_FDS] = PM("FDS", "fds", "", PTK_GAUGE, PTK_V_S64, 5, 0,
			      "open file descriptors (/proc/PID/fd entries)"),
	/* CPU: sysstat pidstat's (2 decimals) and procps top's (1 decimal) */
	[PTK_M_PROC_USR_PCT] = PMJ("usr", "%usr", "usr_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				  "user mode, guest time excluded: (utime - guest_time) ticks per "
				  "interval, % of one CPU (/proc/PID/stat fields 14, 43)"),
	[PTK_M_PROC_SYSTEM_PCT] = PMJ("system", "%system", "system_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				     "kernel mode: stime ticks, % of one CPU (/proc/PID/stat "
				     "field 15)"),
	[PTK_M_PROC_GUEST_PCT] = PMJ("guest", "%guest", "guest_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
				    "running a virtual CPU: guest_time ticks (/proc/PID/stat field "
				    "43)"),
	[PTK_M_PROC_WAIT_PCT] =
		PMJ("wait", "%wait", "wait_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
		   "runnable but waiting for a CPU: run_delay (/proc/PID/schedstat field 2, "
		   "CONFIG_SCHED_INFO) rounded down to clock ticks at each sample, as sysstat "
		   "(within one step, 100 / (interval x HZ) points, of the exact ns)"),
	[PTK_M_PROC_CPU_PCT] = PMJ("cpu", "%CPU", "cpu_pct", "%", PTK_PCT, PTK_V_F64, 7, 2,
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
	[PTK_M_PROC_MEM_PCT] = PMJ("MEM", "%MEM", "mem_pct", "%", PTK_PCT, PTK_V_F64, 6, 2,
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
	/* sysstat pidstat -T CHILD: the task's and its waited-for children's, in the interval
	 * (per sample on Average lines) */
	[PTK_M_PROC_CUSR_MS] = PM("usr-ms", "child_usr_ms", "ms", PTK_COUNTER, PTK_V_F64, 9, 0,
				  "user time, guest excluded, of the task and its waited-for "
				  "children: (utime + cutime) - (guest_time + cguest_time) "
				  "(/proc/PID/stat fields 14, 16, 43, 44)"),
	[PTK_M_PROC_CSYS_MS] = PM("system-ms", "child_system_ms", "ms", PTK_COUNTER, PTK_V_F64,
				  9, 0,
				  "system time of the task and its waited-for children: stime + "
				  "cstime (/proc/PID/stat fields 15, 17)"),
	[PTK_M_PROC_CGUEST_MS] = PM("guest-ms", "child_guest_ms", "ms", PTK_COUNTER, PTK_V_F64,
				    9, 0,
				    "guest time of the task and its waited-for children: "
				    "guest_time + cguest_time (/proc/PID/stat fields 43, 44)"),
	[PTK_M_PROC_CMINFLT] = PM("minflt-nr", "child_minflt", "", PTK_COUNTER, PTK_V_F64, 9, 0,
				  "minor faults of the task and its waited-for children: minflt + "
				  "cminflt (/proc/PID/stat fields 10, 11)"),
	[PTK_M_PROC_CMAJFLT] = PM("majflt-nr", "child_majflt", "", PTK_COUNTER, PTK_V_F64, 9, 0,
				  "major faults of the task and its waited-for children: majflt + "
				  "cmajflt (/proc/PID/stat fields 12, 13)"),
	/* pidstat -s, -v, -R; gauges: the mean of the samples on Average lines */
	[PTK_M_PROC_STKSIZE] =
		PM("StkSize", "stack_kb", "kB", PTK_GAUGE, PTK_V_F64, 7, 0,
		   "memory reserved for the main thread's stack: Size of the [stack] mapping "
		   "(/proc/PID/smaps)"),
	[PTK_M_PROC_STKREF] =
		PM("StkRef", "stack_ref_kb", "kB", PTK_GAUGE, PTK_V_F64, 7, 0,
		   "part of the main thread's stack referenced: Referenced of the [stack] "
		   "mapping (/proc/PID/smaps)"),
	[PTK_M_PROC_NTHREADS] = PM("threads", "threads", "", PTK_GAUGE, PTK_V_F64, 7, 0,
				   "threads in the task's group (/proc/PID/status Threads:, "
				   "signal->nr_threads)"),
	[PTK_M_PROC_FD_NR] = PM("fd-nr", "fd_nr", "", PTK_GAUGE, PTK_V_F64, 7, 0,
				"open file descriptors: numbered entries of /proc/PID/fd"),
	[PTK_M_PROC_RTPRIO] = PM("prio", "rt_priority", "", PTK_GAUGE, PTK_V_U64, 4, 0,
				 "real-time priority, 0 for the normal policies (/proc/PID/stat "
				 "field 40)"),
	[PTK_M_PROC_POLICY] = PM("policy", "policy", "", PTK_GAUGE, PTK_V_STR, 6, 0,
				 "scheduling policy: NORMAL FIFO RR BATCH IDLE DEADLN "
				 "(/proc/PID/stat field 41, include/uapi/linux/sched.h)"),
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

	/* ---- the sample ---- */
	[PTK_M_SAMPLE_TIME] = ENTRY("timestamp", "timestamp", "", PTK_GAUGE, PTK_V_STR, 19, 0, NULL,
				    "strftime %Y-%m-%d %H:%M:%S of the sample's time",
				    "local time of the sample (wall clock; replay: btime + uptime)"),

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
	[PTK_M_OBS_CONNS_CLOSED] =
		PROM("ptk_exporter_connections_closed_total", PTK_COUNTER, PTK_V_U64,
		     "Connections the exporter closed before libmicrohttpd answered them, by reason: "
		     "header_timeout (no complete request header 5 s after accept), evicted "
		     "(the oldest held, closed to make room for a new one), client_closed (closed "
		     "by the client before its header ended), refused (requests being answered "
		     "at their limit), bad_request (no request line: answered 400). Held "
		     "connections blinding the exporter show here."),
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

/* ---- the exporter: BPF and process-table families ---- */
#define EXP(k, u, knd, t, h)                                                                 \
	{                                                                                    \
		.name = k, .key = k, .prom = k, .unit = u, .kind = knd, .type = t, .help = h \
	}
	[PTK_M_EXP_RUNQ_LATENCY] =
		EXP("ptk_runqueue_latency_seconds", "seconds", PTK_GAUGE, PTK_V_F64,
		    "Run-queue latency: time from wakeup to running, every CPU (BPF sched_wakeup, "
		    "sched_wakeup_new -> sched_switch, log2 buckets of microseconds; le = the "
		    "bucket's exclusive upper bound). _sum is approximate: bucket midpoints x "
		    "counts."),
	[PTK_M_EXP_SHORTLIVED] =
		EXP("ptk_shortlived_processes_total", "", PTK_COUNTER, PTK_V_U64,
		    "Processes that started and exited between two scrapes' worth of BPF counting, "
		    "invisible to any /proc snapshot (BPF sched_process_fork/exit), since the "
		    "exporter started."),
	[PTK_M_EXP_TG_CSW] = EXP(
		"ptk_thread_group_context_switches_total", "", PTK_COUNTER, PTK_V_U64,
		"Context switches, voluntary + involuntary, of the threads of a thread group: "
		"process = the process's comm, group = the thread name without its trailing pool "
		"index, as ptk cswtop -g prefix (/proc/PID/task/TID/status voluntary_ctxt_switches "
		"+ nonvoluntary_ctxt_switches), counted since the exporter first saw the group."),
	[PTK_M_EXP_TG_THREADS] =
		EXP("ptk_thread_group_threads", "", PTK_GAUGE, PTK_V_U64,
		    "Threads in the thread group at the last scan (/proc/PID/task)."),
	[PTK_M_EXP_PROC_CPU] =
		EXP("ptk_process_cpu_seconds_total", "seconds", PTK_COUNTER, PTK_V_F64,
		    "CPU time of a top-N process (by CPU over the last scan interval), user + "
		    "system (/proc/PID/stat utime + stime / USER_HZ)."),
	[PTK_M_EXP_PROC_RSS] =
		EXP("ptk_process_resident_memory_bytes", "bytes", PTK_GAUGE, PTK_V_U64,
		    "Resident set size of a top-N process (/proc/PID/stat rss x page size)."),
	[PTK_M_EXP_PROC_THREADS] = EXP("ptk_process_threads", "", PTK_GAUGE, PTK_V_U64,
				       "Threads of a top-N process (/proc/PID/stat num_threads)."),
	[PTK_M_EXP_PROC_READ] =
		EXP("ptk_process_read_bytes_total", "bytes", PTK_COUNTER, PTK_V_U64,
		    "Bytes a top-N process caused to be read from block devices (/proc/PID/io "
		    "read_bytes; absent when unreadable)."),
	[PTK_M_EXP_PROC_WRITTEN] =
		EXP("ptk_process_written_bytes_total", "bytes", PTK_COUNTER, PTK_V_U64,
		    "Bytes a top-N process caused to be written to block devices (/proc/PID/io "
		    "write_bytes; absent when unreadable)."),
	[PTK_M_EXP_PROC_START] =
		EXP("ptk_process_start_time_seconds", "seconds", PTK_GAUGE, PTK_V_F64,
		    "Start time of a top-N process, unixtime (/proc/stat btime + /proc/PID/stat "
		    "starttime / USER_HZ)."),
#undef EXP
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
