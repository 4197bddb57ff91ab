/* SPDX-License-Identifier: GPL-2.0 */
/*
 * node_exporter's families from a system snapshot (source/snap.h), for the exporter. Every
 * node_* family is a field of a reader's table (source/procfs/procfs.h): its name is the
 * field's `prom`, or node_exporter's rule for its file (node_memory_<Key>_bytes,
 * node_vmstat_<key>, node_network_<key>_total, node_netstat_<Proto>_<Name>); its help the
 * field's, or the rule's; its type the field's kind; its value the field converted to the
 * base unit the name says (kB and 512-byte sectors to _bytes, ms, us and USER_HZ ticks to
 * _seconds), else as the kernel counts. What the snapshot does not hold is absent.
 */
#ifndef PTK_OUTPUT_PROM_NODE_H
#define PTK_OUTPUT_PROM_NODE_H

#include "output/prom.h"
#include "source/snap.h"

/* The collectors, named as node_exporter's (--collectors of ptk exporter). */
enum ptk_node_coll {
	PTK_NC_CPU, /* node_cpu_seconds_total, node_cpu_guest_seconds_total */
	PTK_NC_STAT, /* node_boot_time_seconds, node_context_switches_total, ... */
	PTK_NC_LOADAVG,
	PTK_NC_MEMINFO, /* with ptk_memory_available_bytes (what ptk check judges) */
	PTK_NC_VMSTAT,
	PTK_NC_DISKSTATS,
	PTK_NC_NETDEV,
	PTK_NC_PRESSURE,
	PTK_NC_NETSTAT,
	PTK_NC_N
};
extern const char *const ptk_node_coll_name[PTK_NC_N];

/* The snapshot parts (PTK_SNAP_BIT()s) that the collectors in mask (bits 1 << enum
 * ptk_node_coll) read. */
unsigned ptk_prom_node_parts(unsigned mask);

/*
 * Render the families of the collectors in mask from s into p, in collector order. ok[c] is
 * set for each collector of mask: whether s holds its files. hz: USER_HZ (the cpu ticks).
 */
void ptk_prom_node(struct ptk_prom *p, const struct ptk_snap *s, unsigned mask, long hz,
		   bool ok[PTK_NC_N]);

#endif
