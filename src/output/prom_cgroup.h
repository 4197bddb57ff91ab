/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cAdvisor's container_* families from a cgroup snapshot (source/cgroup/cgroup.h), for the
 * exporter's cgroups collector, so that one agent serves what node_exporter and cAdvisor
 * serve together. Each family is a registry entry (model/registry.h, the cgroup section:
 * its prom is cAdvisor's name), rendered as the counter or gauge the exposition holds: the
 * kernel's cumulative counts in base units (seconds, bytes), limits only when the cgroup has
 * one, the I/O counters per device. Labels as cAdvisor's: id (the cgroup path), cpu="total"
 * on container_cpu_usage_seconds_total, device on container_fs_*; ptk_cgroup_info{id,
 * runtime, container_id, pod_uid, qos, unit} tells what the path says of its owner.
 */
#ifndef PTK_OUTPUT_PROM_CGROUP_H
#define PTK_OUTPUT_PROM_CGROUP_H

#include "output/prom.h"
#include "source/cgroup/cgroup.h"
#include "source/snap.h"

/*
 * Render every cgroup of cg into p. host: a system snapshot whose diskstats name the devices
 * (device="/dev/NAME"; "MAJ:MIN" when absent or NULL).
 */
void ptk_prom_cgroups(struct ptk_prom *p, const struct ptk_cgsnap *cg, const struct ptk_snap *host);

#endif
