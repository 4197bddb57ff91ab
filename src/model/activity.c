// SPDX-License-Identifier: GPL-2.0
/* The activity table (model/activity.h): rows, and the table the act_*.c files fill. */
#include "model/act.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ptk_row *ptk_rows_add(struct ptk_rows *rs, const char *key)
{
	struct ptk_row *r;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 8;
		rs->r = xrealloc(rs->r, rs->cap * sizeof(*rs->r));
	}
	r = &rs->r[rs->n++];
	snprintf(r->key, sizeof(r->key), "%s", key);
	for (int i = 0; i < PTK_ROW_MAXCOLS; i++)
		r->v[i] = PTK_NA;
	return r;
}

struct ptk_row *ptk_rows_find(const struct ptk_rows *rs, const char *key)
{
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].key, key))
			return &rs->r[i];
	return NULL;
}

void ptk_rows_free(struct ptk_rows *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

int ptk_act_col(const struct ptk_activity *a, enum ptk_mid m)
{
	for (int i = 0; a->mids[i] != PTK_M_NONE; i++)
		if (a->mids[i] == m)
			return i;
	return -1;
}

double ptk_act_boot_s(const struct ptk_snap *s)
{
	return s->up.up_s > 0 ? s->up.up_s : 1.0;
}

int ptk_act_idx(const enum ptk_mid *mids, enum ptk_mid m)
{
	for (int i = 0; mids[i] != PTK_M_NONE; i++)
		if (mids[i] == m)
			return i;
	return PTK_ROW_MAXCOLS - 1; /* not listed: a scratch slot, never read */
}

static struct ptk_act_avg_ent *avg_find(const struct ptk_act_avg *avg, const char *key)
{
	for (int i = 0; i < avg->n; i++)
		if (!strcmp(avg->e[i].key, key))
			return &avg->e[i];
	return NULL;
}

static double val_num(const struct ptk_metric *m, const struct ptk_val *v)
{
	return m->type == PTK_V_F64 ? v->f : m->type == PTK_V_U64 ? (double)v->u : (double)v->i;
}

void ptk_act_avg_add(struct ptk_act_avg *avg, const struct ptk_rows *rs, double itv_s)
{
	const enum ptk_mid *ids = avg->act->mids;

	avg->nitv++;
	for (int k = 0; k < rs->n; k++) {
		const struct ptk_row *r = &rs->r[k];
		struct ptk_act_avg_ent *e = avg_find(avg, r->key);

		if (!e) {
			avg->e = xrealloc(avg->e, (avg->n + 1) * sizeof(*avg->e));
			e = &avg->e[avg->n++];
			memset(e, 0, sizeof(*e));
			snprintf(e->key, sizeof(e->key), "%s", r->key);
		}
		e->nrow++;
		for (int i = 0; ids[i] != PTK_M_NONE; i++) {
			const struct ptk_metric *m = &ptk_registry[ids[i]];
			double v;

			if (m->type == PTK_V_STR || r->v[i].na)
				continue;
			v = val_num(m, &r->v[i]);
			if (fabs(v * 100 - round(v * 100)) > 1e-6)
				e->inexact[i] = true;
			else
				e->csum[i] += llround(v * 100);
			e->sum[i] += v;
			e->wsum[i] += v * itv_s;
			e->nv[i]++;
			e->w[i] += itv_s;
		}
	}
}

void ptk_act_avg_rows(const struct ptk_act_avg *avg, const struct ptk_rows *whole,
		      struct ptk_rows *out)
{
	const enum ptk_mid *ids = avg->act->mids;

	out->n = 0;
	if (whole) {
		for (int k = 0; k < whole->n; k++)
			*ptk_rows_add(out, "") = whole->r[k];
	} else {
		for (int k = 0; k < avg->n; k++)
			ptk_rows_add(out, avg->e[k].key);
	}
	for (int k = 0; k < out->n; k++) {
		struct ptk_row *r = &out->r[k];
		const struct ptk_act_avg_ent *e = avg_find(avg, r->key);

		for (int i = 0; ids[i] != PTK_M_NONE; i++) {
			const struct ptk_metric *m = &ptk_registry[ids[i]];
			bool mean = m->kind == PTK_GAUGE;
			double v;

			if (m->type == PTK_V_STR || (!mean && whole))
				continue;
			if (!e || !e->nv[i]) {
				r->v[i] = PTK_NA;
				continue;
			}
			long n = e->nv[i] + MAX(avg->nitv - e->nrow, 0);
			if (mean && !e->inexact[i] && m->type == PTK_V_F64)
				v = (double)e->csum[i] / n / 100;
			else if (mean)
				v = e->sum[i] / n;
			else
				v = e->w[i] > 0 ? e->wsum[i] / e->w[i] : 0;
			r->v[i] = m->type == PTK_V_F64 ? PTK_F(v) : PTK_U((u64)llround(v));
		}
	}
}

void ptk_act_avg_free(struct ptk_act_avg *avg)
{
	free(avg->e);
	avg->e = NULL;
	avg->n = 0;
	avg->nitv = 0;
}

#define SNAP(p) PTK_SNAP_BIT(PTK_SNAP_##p)
#define KX(g) PTK_SNAP_BIT(PTK_SNAP_KX + PTK_KX_##g)

const struct ptk_activity ptk_activities[PTK_ACT_COUNT] = {
	[PTK_ACT_CPU] = { "cpu", SNAP(STAT), ptk_act_cpu_mids, ptk_act_cpu_rows },
	[PTK_ACT_MEM] = { "memory", SNAP(MEMINFO), ptk_act_mem_mids, ptk_act_mem_rows },
	[PTK_ACT_SWAP] = { "swap", SNAP(MEMINFO) | SNAP(VMSTAT), ptk_act_swap_mids,
			   ptk_act_swap_rows },
	[PTK_ACT_PAGING] = { "paging", SNAP(VMSTAT), ptk_act_paging_mids, ptk_act_paging_rows },
	[PTK_ACT_IO] = { "io", SNAP(DISKSTATS), ptk_act_io_mids, ptk_act_io_rows },
	[PTK_ACT_DISK] = { "disk", SNAP(DISKSTATS), ptk_act_disk_mids, ptk_act_disk_rows },
	[PTK_ACT_NET_DEV] = { "net_dev", SNAP(NETDEV), ptk_act_net_dev_mids, ptk_act_net_dev_rows },
	[PTK_ACT_NET_EDEV] = { "net_edev", SNAP(NETDEV), ptk_act_net_edev_mids,
			       ptk_act_net_edev_rows },
	[PTK_ACT_TCP] = { "tcp", SNAP(SNMP), ptk_act_tcp_mids, ptk_act_tcp_rows },
	[PTK_ACT_ETCP] = { "etcp", SNAP(SNMP), ptk_act_etcp_mids, ptk_act_etcp_rows },
	[PTK_ACT_QUEUE] = { "queue", SNAP(STAT) | SNAP(LOADAVG), ptk_act_queue_mids,
			    ptk_act_queue_rows },
	[PTK_ACT_TASK] = { "task", SNAP(STAT), ptk_act_task_mids, ptk_act_task_rows },
	[PTK_ACT_PSI_CPU] = { "psi_cpu", SNAP(PSI_CPU), ptk_act_psi_cpu_mids,
			      ptk_act_psi_cpu_rows },
	[PTK_ACT_PSI_IO] = { "psi_io", SNAP(PSI_IO), ptk_act_psi_io_mids, ptk_act_psi_io_rows },
	[PTK_ACT_PSI_MEM] = { "psi_mem", SNAP(PSI_MEMORY), ptk_act_psi_mem_mids,
			      ptk_act_psi_mem_rows },
	[PTK_ACT_NODE] = { "node", SNAP(STAT), ptk_act_node_mids, ptk_act_node_rows },
	[PTK_ACT_IRQ_SUM] = { "sum_interrupts", SNAP(STAT) | SNAP(INTERRUPTS), ptk_act_irq_sum_mids,
			      ptk_act_irq_sum_rows },
	[PTK_ACT_IRQ] = { "interrupts", SNAP(STAT) | SNAP(INTERRUPTS), ptk_act_irq_mids,
			  ptk_act_irq_rows },
	[PTK_ACT_SOFTIRQ] = { "soft_interrupts", SNAP(STAT) | SNAP(SOFTIRQS), ptk_act_softirq_mids,
			      ptk_act_softirq_rows },
	[PTK_ACT_SOFTNET] = { "softnet", SNAP(STAT) | SNAP(SOFTNET), ptk_act_softnet_mids,
			      ptk_act_softnet_rows },
	[PTK_ACT_IP] = { "ip", SNAP(SNMP), ptk_act_ip_mids, ptk_act_ip_rows },
	[PTK_ACT_EIP] = { "eip", SNAP(SNMP), ptk_act_eip_mids, ptk_act_eip_rows },
	[PTK_ACT_ICMP] = { "icmp", SNAP(SNMP), ptk_act_icmp_mids, ptk_act_icmp_rows },
	[PTK_ACT_EICMP] = { "eicmp", SNAP(SNMP), ptk_act_eicmp_mids, ptk_act_eicmp_rows },
	[PTK_ACT_UDP] = { "udp", SNAP(SNMP), ptk_act_udp_mids, ptk_act_udp_rows },
	[PTK_ACT_IP6] = { "ip6", KX(SNMP6), ptk_act_ip6_mids, ptk_act_ip6_rows },
	[PTK_ACT_EIP6] = { "eip6", KX(SNMP6), ptk_act_eip6_mids, ptk_act_eip6_rows },
	[PTK_ACT_ICMP6] = { "icmp6", KX(SNMP6), ptk_act_icmp6_mids, ptk_act_icmp6_rows },
	[PTK_ACT_EICMP6] = { "eicmp6", KX(SNMP6), ptk_act_eicmp6_mids, ptk_act_eicmp6_rows },
	[PTK_ACT_UDP6] = { "udp6", KX(SNMP6), ptk_act_udp6_mids, ptk_act_udp6_rows },
	[PTK_ACT_NFS] = { "nfs", KX(NFS), ptk_act_nfs_mids, ptk_act_nfs_rows },
	[PTK_ACT_NFSD] = { "nfsd", KX(NFSD), ptk_act_nfsd_mids, ptk_act_nfsd_rows },
	[PTK_ACT_SOCK] = { "sock", KX(SOCKSTAT), ptk_act_sock_mids, ptk_act_sock_rows },
	[PTK_ACT_SOCK6] = { "sock6", KX(SOCKSTAT6), ptk_act_sock6_mids, ptk_act_sock6_rows },
	[PTK_ACT_KTABLES] = { "ktables", KX(KTABLES), ptk_act_ktables_mids, ptk_act_ktables_rows },
	[PTK_ACT_HUGE] = { "huge", SNAP(MEMINFO), ptk_act_huge_mids, ptk_act_huge_rows },
	[PTK_ACT_SERIAL] = { "serial", KX(SERIAL), ptk_act_serial_mids, ptk_act_serial_rows },
	[PTK_ACT_FC] = { "fc", KX(FCHOST), ptk_act_fc_mids, ptk_act_fc_rows },
	[PTK_ACT_PWR_CPU] = { "pwr_cpu", KX(CPUINFO), ptk_act_pwr_cpu_mids, ptk_act_pwr_cpu_rows },
	[PTK_ACT_PWR_FREQ] = { "pwr_freq", KX(CPUFREQ), ptk_act_pwr_freq_mids,
			       ptk_act_pwr_freq_rows },
	[PTK_ACT_USB] = { "usb", KX(USB), ptk_act_usb_mids, ptk_act_usb_rows },
	[PTK_ACT_FSYS] = { "fsys", KX(FSYS), ptk_act_fsys_mids, ptk_act_fsys_rows },
};
