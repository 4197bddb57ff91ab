/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the model: the rows functions and metric lists of the act_*.c files, which
 * activity.c gathers into ptk_activities[]. Callers use model/activity.h. */
#ifndef PTK_MODEL_ACT_H
#define PTK_MODEL_ACT_H

#include "model/activity.h"

#define ACT_ROWS_FN(name)                                                               \
	int name(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s, \
		 const struct ptk_act_opts *o, struct ptk_rows *out)

extern const enum ptk_mid ptk_act_cpu_mids[], ptk_act_mem_mids[], ptk_act_swap_mids[],
	ptk_act_paging_mids[], ptk_act_io_mids[], ptk_act_disk_mids[], ptk_act_net_dev_mids[],
	ptk_act_net_edev_mids[], ptk_act_tcp_mids[], ptk_act_etcp_mids[], ptk_act_queue_mids[],
	ptk_act_task_mids[], ptk_act_psi_cpu_mids[], ptk_act_psi_io_mids[], ptk_act_psi_mem_mids[],
	ptk_act_irq_sum_mids[], ptk_act_node_mids[], ptk_act_irq_mids[], ptk_act_softirq_mids[],
	ptk_act_softnet_mids[], ptk_act_ip_mids[], ptk_act_eip_mids[], ptk_act_icmp_mids[],
	ptk_act_eicmp_mids[], ptk_act_udp_mids[], ptk_act_ip6_mids[], ptk_act_eip6_mids[],
	ptk_act_icmp6_mids[], ptk_act_eicmp6_mids[], ptk_act_udp6_mids[], ptk_act_nfs_mids[],
	ptk_act_nfsd_mids[], ptk_act_sock_mids[], ptk_act_sock6_mids[], ptk_act_ktables_mids[],
	ptk_act_huge_mids[], ptk_act_serial_mids[], ptk_act_fc_mids[], ptk_act_pwr_cpu_mids[],
	ptk_act_pwr_freq_mids[], ptk_act_usb_mids[], ptk_act_fsys_mids[];

ACT_ROWS_FN(ptk_act_cpu_rows);
ACT_ROWS_FN(ptk_act_mem_rows);
ACT_ROWS_FN(ptk_act_swap_rows);
ACT_ROWS_FN(ptk_act_paging_rows);
ACT_ROWS_FN(ptk_act_io_rows);
ACT_ROWS_FN(ptk_act_disk_rows);
ACT_ROWS_FN(ptk_act_net_dev_rows);
ACT_ROWS_FN(ptk_act_net_edev_rows);
ACT_ROWS_FN(ptk_act_tcp_rows);
ACT_ROWS_FN(ptk_act_etcp_rows);
ACT_ROWS_FN(ptk_act_queue_rows);
ACT_ROWS_FN(ptk_act_task_rows);
ACT_ROWS_FN(ptk_act_psi_cpu_rows);
ACT_ROWS_FN(ptk_act_psi_io_rows);
ACT_ROWS_FN(ptk_act_psi_mem_rows);
ACT_ROWS_FN(ptk_act_node_rows);
ACT_ROWS_FN(ptk_act_irq_sum_rows);
ACT_ROWS_FN(ptk_act_irq_rows);
ACT_ROWS_FN(ptk_act_softirq_rows);
ACT_ROWS_FN(ptk_act_softnet_rows);
ACT_ROWS_FN(ptk_act_ip_rows);
ACT_ROWS_FN(ptk_act_eip_rows);
ACT_ROWS_FN(ptk_act_icmp_rows);
ACT_ROWS_FN(ptk_act_eicmp_rows);
ACT_ROWS_FN(ptk_act_udp_rows);
ACT_ROWS_FN(ptk_act_ip6_rows);
ACT_ROWS_FN(ptk_act_eip6_rows);
ACT_ROWS_FN(ptk_act_icmp6_rows);
ACT_ROWS_FN(ptk_act_eicmp6_rows);
ACT_ROWS_FN(ptk_act_udp6_rows);
ACT_ROWS_FN(ptk_act_nfs_rows);
ACT_ROWS_FN(ptk_act_nfsd_rows);
ACT_ROWS_FN(ptk_act_sock_rows);
ACT_ROWS_FN(ptk_act_sock6_rows);
ACT_ROWS_FN(ptk_act_ktables_rows);
ACT_ROWS_FN(ptk_act_huge_rows);
ACT_ROWS_FN(ptk_act_serial_rows);
ACT_ROWS_FN(ptk_act_fc_rows);
ACT_ROWS_FN(ptk_act_pwr_cpu_rows);
ACT_ROWS_FN(ptk_act_pwr_freq_rows);
ACT_ROWS_FN(ptk_act_usb_rows);
ACT_ROWS_FN(ptk_act_fsys_rows);

/* Set column m of row r (a metric of activity a's list). */
#define ACT_SET(a_mids, r, m, val) ((r)->v[ptk_act_idx(a_mids, m)] = (val))
int ptk_act_idx(const enum ptk_mid *mids, enum ptk_mid m);

#endif
