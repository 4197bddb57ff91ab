// SPDX-License-Identifier: GPL-2.0
/*
 * sar's other activities, from /proc/net/snmp (kvs) and the snapshot's extended counters
 * (kx, source/procfs/kx.c): IPv4 and IPv6 traffic and errors, ICMP, UDP, NFS client and
 * server, sockets, kernel tables, huge pages, serial lines, Fibre Channel hosts, CPU clock,
 * USB devices, filesystems; as sysstat's sar -n IP..UDP6|NFS|NFSD|SOCK|SOCK6|FC, -v, -H,
 * -y, -m CPU|FREQ|USB, -F compute them (pr_stats.c).
 */
#include <stdlib.h>
#include <string.h>

#include "model/act.h"

/* A rate column: metric m, from key of /proc/net/snmp (kvs) or of the extended counters. */
struct kx_col {
	enum ptk_mid m;
	bool kvs;
	const char *key;
};

static bool col_get(const struct ptk_snap *s, const struct kx_col *c, s64 *v)
{
	return c->kvs ? ptk_kvs_get(&s->kvs, c->key, v) : ptk_xkvs_get(&s->kx, c->key, v);
}

/* One row of rates of the columns (unknown where either sample lacks the key). */
static int rate_rows(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		     const struct kx_col *cols, size_t n, const enum ptk_mid *ids,
		     struct ptk_rows *out)
{
	struct ptk_row *r = ptk_rows_add(out, "");

	for (size_t i = 0; i < n; i++) {
		s64 a = 0, b;
		if (!col_get(cur, &cols[i], &b) || (prev && !col_get(prev, &cols[i], &a)))
			continue;
		ACT_SET(ids, r, cols[i].m, PTK_F(ptk_act_rate((u64)a, (u64)b, itv_s)));
	}
	return 0;
}

#define KX_RATE_ACT(g)                                                             \
	ACT_ROWS_FN(ptk_act_##g##_rows)                                            \
	{                                                                          \
		(void)o;                                                           \
		return rate_rows(prev, cur, itv_s, g##_cols, ARRAY_SIZE(g##_cols), \
				 ptk_act_##g##_mids, out);                         \
	}

static const struct kx_col ip_cols[] = {
	{ PTK_M_IP_IREC, true, "Ip.InReceives" },  { PTK_M_IP_FWDDGM, true, "Ip.ForwDatagrams" },
	{ PTK_M_IP_IDEL, true, "Ip.InDelivers" },  { PTK_M_IP_ORQ, true, "Ip.OutRequests" },
	{ PTK_M_IP_ASMRQ, true, "Ip.ReasmReqds" }, { PTK_M_IP_ASMOK, true, "Ip.ReasmOKs" },
	{ PTK_M_IP_FRAGOK, true, "Ip.FragOKs" },   { PTK_M_IP_FRAGCRT, true, "Ip.FragCreates" },
};
const enum ptk_mid ptk_act_ip_mids[] = {
	PTK_M_IP_IREC,	PTK_M_IP_FWDDGM, PTK_M_IP_IDEL,	   PTK_M_IP_ORQ, PTK_M_IP_ASMRQ,
	PTK_M_IP_ASMOK, PTK_M_IP_FRAGOK, PTK_M_IP_FRAGCRT, PTK_M_NONE,
};
KX_RATE_ACT(ip)

static const struct kx_col eip_cols[] = {
	{ PTK_M_EIP_IHDRERR, true, "Ip.InHdrErrors" },
	{ PTK_M_EIP_IADRERR, true, "Ip.InAddrErrors" },
	{ PTK_M_EIP_IUKWNPR, true, "Ip.InUnknownProtos" },
	{ PTK_M_EIP_IDISC, true, "Ip.InDiscards" },
	{ PTK_M_EIP_ODISC, true, "Ip.OutDiscards" },
	{ PTK_M_EIP_ONORT, true, "Ip.OutNoRoutes" },
	{ PTK_M_EIP_ASMF, true, "Ip.ReasmFails" },
	{ PTK_M_EIP_FRAGF, true, "Ip.FragFails" },
};
const enum ptk_mid ptk_act_eip_mids[] = {
	PTK_M_EIP_IHDRERR, PTK_M_EIP_IADRERR, PTK_M_EIP_IUKWNPR, PTK_M_EIP_IDISC, PTK_M_EIP_ODISC,
	PTK_M_EIP_ONORT,   PTK_M_EIP_ASMF,    PTK_M_EIP_FRAGF,	 PTK_M_NONE,
};
KX_RATE_ACT(eip)

static const struct kx_col icmp_cols[] = {
	{ PTK_M_ICMP_IMSG, true, "Icmp.InMsgs" },
	{ PTK_M_ICMP_OMSG, true, "Icmp.OutMsgs" },
	{ PTK_M_ICMP_IECH, true, "Icmp.InEchos" },
	{ PTK_M_ICMP_IECHR, true, "Icmp.InEchoReps" },
	{ PTK_M_ICMP_OECH, true, "Icmp.OutEchos" },
	{ PTK_M_ICMP_OECHR, true, "Icmp.OutEchoReps" },
	{ PTK_M_ICMP_ITM, true, "Icmp.InTimestamps" },
	{ PTK_M_ICMP_ITMR, true, "Icmp.InTimestampReps" },
	{ PTK_M_ICMP_OTM, true, "Icmp.OutTimestamps" },
	{ PTK_M_ICMP_OTMR, true, "Icmp.OutTimestampReps" },
	{ PTK_M_ICMP_IADRMK, true, "Icmp.InAddrMasks" },
	{ PTK_M_ICMP_IADRMKR, true, "Icmp.InAddrMaskReps" },
	{ PTK_M_ICMP_OADRMK, true, "Icmp.OutAddrMasks" },
	{ PTK_M_ICMP_OADRMKR, true, "Icmp.OutAddrMaskReps" },
};
const enum ptk_mid ptk_act_icmp_mids[] = {
	PTK_M_ICMP_IMSG,   PTK_M_ICMP_OMSG,    PTK_M_ICMP_IECH,	  PTK_M_ICMP_IECHR,
	PTK_M_ICMP_OECH,   PTK_M_ICMP_OECHR,   PTK_M_ICMP_ITM,	  PTK_M_ICMP_ITMR,
	PTK_M_ICMP_OTM,	   PTK_M_ICMP_OTMR,    PTK_M_ICMP_IADRMK, PTK_M_ICMP_IADRMKR,
	PTK_M_ICMP_OADRMK, PTK_M_ICMP_OADRMKR, PTK_M_NONE,
};
KX_RATE_ACT(icmp)

static const struct kx_col eicmp_cols[] = {
	{ PTK_M_EICMP_IERR, true, "Icmp.InErrors" },
	{ PTK_M_EICMP_OERR, true, "Icmp.OutErrors" },
	{ PTK_M_EICMP_IDSTUNR, true, "Icmp.InDestUnreachs" },
	{ PTK_M_EICMP_ODSTUNR, true, "Icmp.OutDestUnreachs" },
	{ PTK_M_EICMP_ITMEX, true, "Icmp.InTimeExcds" },
	{ PTK_M_EICMP_OTMEX, true, "Icmp.OutTimeExcds" },
	{ PTK_M_EICMP_IPARMPB, true, "Icmp.InParmProbs" },
	{ PTK_M_EICMP_OPARMPB, true, "Icmp.OutParmProbs" },
	{ PTK_M_EICMP_ISRCQ, true, "Icmp.InSrcQuenchs" },
	{ PTK_M_EICMP_OSRCQ, true, "Icmp.OutSrcQuenchs" },
	{ PTK_M_EICMP_IREDIR, true, "Icmp.InRedirects" },
	{ PTK_M_EICMP_OREDIR, true, "Icmp.OutRedirects" },
};
const enum ptk_mid ptk_act_eicmp_mids[] = {
	PTK_M_EICMP_IERR,  PTK_M_EICMP_OERR,  PTK_M_EICMP_IDSTUNR, PTK_M_EICMP_ODSTUNR,
	PTK_M_EICMP_ITMEX, PTK_M_EICMP_OTMEX, PTK_M_EICMP_IPARMPB, PTK_M_EICMP_OPARMPB,
	PTK_M_EICMP_ISRCQ, PTK_M_EICMP_OSRCQ, PTK_M_EICMP_IREDIR,  PTK_M_EICMP_OREDIR,
	PTK_M_NONE,
};
KX_RATE_ACT(eicmp)

static const struct kx_col udp_cols[] = {
	{ PTK_M_UDP_IDGM, true, "Udp.InDatagrams" },
	{ PTK_M_UDP_ODGM, true, "Udp.OutDatagrams" },
	{ PTK_M_UDP_NOPORT, true, "Udp.NoPorts" },
	{ PTK_M_UDP_IDGMERR, true, "Udp.InErrors" },
};
const enum ptk_mid ptk_act_udp_mids[] = {
	PTK_M_UDP_IDGM, PTK_M_UDP_ODGM, PTK_M_UDP_NOPORT, PTK_M_UDP_IDGMERR, PTK_M_NONE,
};
KX_RATE_ACT(udp)

static const struct kx_col ip6_cols[] = {
	{ PTK_M_IP6_IREC, false, "snmp6.Ip6InReceives" },
	{ PTK_M_IP6_FWDDGM, false, "snmp6.Ip6OutForwDatagrams" },
	{ PTK_M_IP6_IDEL, false, "snmp6.Ip6InDelivers" },
	{ PTK_M_IP6_ORQ, false, "snmp6.Ip6OutRequests" },
	{ PTK_M_IP6_ASMRQ, false, "snmp6.Ip6ReasmReqds" },
	{ PTK_M_IP6_ASMOK, false, "snmp6.Ip6ReasmOKs" },
	{ PTK_M_IP6_IMCPCK, false, "snmp6.Ip6InMcastPkts" },
	{ PTK_M_IP6_OMCPCK, false, "snmp6.Ip6OutMcastPkts" },
	{ PTK_M_IP6_FRAGOK, false, "snmp6.Ip6FragOKs" },
	{ PTK_M_IP6_FRAGCR, false, "snmp6.Ip6FragCreates" },
};
const enum ptk_mid ptk_act_ip6_mids[] = {
	PTK_M_IP6_IREC,	  PTK_M_IP6_FWDDGM, PTK_M_IP6_IDEL,   PTK_M_IP6_ORQ,
	PTK_M_IP6_ASMRQ,  PTK_M_IP6_ASMOK,  PTK_M_IP6_IMCPCK, PTK_M_IP6_OMCPCK,
	PTK_M_IP6_FRAGOK, PTK_M_IP6_FRAGCR, PTK_M_NONE,
};
KX_RATE_ACT(ip6)

static const struct kx_col eip6_cols[] = {
	{ PTK_M_EIP6_IHDRER, false, "snmp6.Ip6InHdrErrors" },
	{ PTK_M_EIP6_IADRER, false, "snmp6.Ip6InAddrErrors" },
	{ PTK_M_EIP6_IUKWNP, false, "snmp6.Ip6InUnknownProtos" },
	{ PTK_M_EIP6_I2BIG, false, "snmp6.Ip6InTooBigErrors" },
	{ PTK_M_EIP6_IDISC, false, "snmp6.Ip6InDiscards" },
	{ PTK_M_EIP6_ODISC, false, "snmp6.Ip6OutDiscards" },
	{ PTK_M_EIP6_INORT, false, "snmp6.Ip6InNoRoutes" },
	{ PTK_M_EIP6_ONORT, false, "snmp6.Ip6OutNoRoutes" },
	{ PTK_M_EIP6_ASMF, false, "snmp6.Ip6ReasmFails" },
	{ PTK_M_EIP6_FRAGF, false, "snmp6.Ip6FragFails" },
	{ PTK_M_EIP6_ITRPCK, false, "snmp6.Ip6InTruncatedPkts" },
};
const enum ptk_mid ptk_act_eip6_mids[] = {
	PTK_M_EIP6_IHDRER, PTK_M_EIP6_IADRER, PTK_M_EIP6_IUKWNP, PTK_M_EIP6_I2BIG,
	PTK_M_EIP6_IDISC,  PTK_M_EIP6_ODISC,  PTK_M_EIP6_INORT,	 PTK_M_EIP6_ONORT,
	PTK_M_EIP6_ASMF,   PTK_M_EIP6_FRAGF,  PTK_M_EIP6_ITRPCK, PTK_M_NONE,
};
KX_RATE_ACT(eip6)

static const struct kx_col icmp6_cols[] = {
	{ PTK_M_ICMP6_IMSG, false, "snmp6.Icmp6InMsgs" },
	{ PTK_M_ICMP6_OMSG, false, "snmp6.Icmp6OutMsgs" },
	{ PTK_M_ICMP6_IECH, false, "snmp6.Icmp6InEchos" },
	{ PTK_M_ICMP6_IECHR, false, "snmp6.Icmp6InEchoReplies" },
	{ PTK_M_ICMP6_OECHR, false, "snmp6.Icmp6OutEchoReplies" },
	{ PTK_M_ICMP6_IGMBQ, false, "snmp6.Icmp6InGroupMembQueries" },
	{ PTK_M_ICMP6_IGMBR, false, "snmp6.Icmp6InGroupMembResponses" },
	{ PTK_M_ICMP6_OGMBR, false, "snmp6.Icmp6OutGroupMembResponses" },
	{ PTK_M_ICMP6_IGMBRD, false, "snmp6.Icmp6InGroupMembReductions" },
	{ PTK_M_ICMP6_OGMBRD, false, "snmp6.Icmp6OutGroupMembReductions" },
	{ PTK_M_ICMP6_IRTSOL, false, "snmp6.Icmp6InRouterSolicits" },
	{ PTK_M_ICMP6_ORTSOL, false, "snmp6.Icmp6OutRouterSolicits" },
	{ PTK_M_ICMP6_IRTAD, false, "snmp6.Icmp6InRouterAdvertisements" },
	{ PTK_M_ICMP6_INBSOL, false, "snmp6.Icmp6InNeighborSolicits" },
	{ PTK_M_ICMP6_ONBSOL, false, "snmp6.Icmp6OutNeighborSolicits" },
	{ PTK_M_ICMP6_INBAD, false, "snmp6.Icmp6InNeighborAdvertisements" },
	{ PTK_M_ICMP6_ONBAD, false, "snmp6.Icmp6OutNeighborAdvertisements" },
};
const enum ptk_mid ptk_act_icmp6_mids[] = {
	PTK_M_ICMP6_IMSG,   PTK_M_ICMP6_OMSG,	PTK_M_ICMP6_IECH,   PTK_M_ICMP6_IECHR,
	PTK_M_ICMP6_OECHR,  PTK_M_ICMP6_IGMBQ,	PTK_M_ICMP6_IGMBR,  PTK_M_ICMP6_OGMBR,
	PTK_M_ICMP6_IGMBRD, PTK_M_ICMP6_OGMBRD, PTK_M_ICMP6_IRTSOL, PTK_M_ICMP6_ORTSOL,
	PTK_M_ICMP6_IRTAD,  PTK_M_ICMP6_INBSOL, PTK_M_ICMP6_ONBSOL, PTK_M_ICMP6_INBAD,
	PTK_M_ICMP6_ONBAD,  PTK_M_NONE,
};
KX_RATE_ACT(icmp6)

static const struct kx_col eicmp6_cols[] = {
	{ PTK_M_EICMP6_IERR, false, "snmp6.Icmp6InErrors" },
	{ PTK_M_EICMP6_IDTUNR, false, "snmp6.Icmp6InDestUnreachs" },
	{ PTK_M_EICMP6_ODTUNR, false, "snmp6.Icmp6OutDestUnreachs" },
	{ PTK_M_EICMP6_ITMEX, false, "snmp6.Icmp6InTimeExcds" },
	{ PTK_M_EICMP6_OTMEX, false, "snmp6.Icmp6OutTimeExcds" },
	{ PTK_M_EICMP6_IPRMPB, false, "snmp6.Icmp6InParmProblems" },
	{ PTK_M_EICMP6_OPRMPB, false, "snmp6.Icmp6OutParmProblems" },
	{ PTK_M_EICMP6_IREDIR, false, "snmp6.Icmp6InRedirects" },
	{ PTK_M_EICMP6_OREDIR, false, "snmp6.Icmp6OutRedirects" },
	{ PTK_M_EICMP6_IPCK2B, false, "snmp6.Icmp6InPktTooBigs" },
	{ PTK_M_EICMP6_OPCK2B, false, "snmp6.Icmp6OutPktTooBigs" },
};
const enum ptk_mid ptk_act_eicmp6_mids[] = {
	PTK_M_EICMP6_IERR,   PTK_M_EICMP6_IDTUNR, PTK_M_EICMP6_ODTUNR, PTK_M_EICMP6_ITMEX,
	PTK_M_EICMP6_OTMEX,  PTK_M_EICMP6_IPRMPB, PTK_M_EICMP6_OPRMPB, PTK_M_EICMP6_IREDIR,
	PTK_M_EICMP6_OREDIR, PTK_M_EICMP6_IPCK2B, PTK_M_EICMP6_OPCK2B, PTK_M_NONE,
};
KX_RATE_ACT(eicmp6)

static const struct kx_col udp6_cols[] = {
	{ PTK_M_UDP6_IDGM, false, "snmp6.Udp6InDatagrams" },
	{ PTK_M_UDP6_ODGM, false, "snmp6.Udp6OutDatagrams" },
	{ PTK_M_UDP6_NOPORT, false, "snmp6.Udp6NoPorts" },
	{ PTK_M_UDP6_IDGMER, false, "snmp6.Udp6InErrors" },
};
const enum ptk_mid ptk_act_udp6_mids[] = {
	PTK_M_UDP6_IDGM, PTK_M_UDP6_ODGM, PTK_M_UDP6_NOPORT, PTK_M_UDP6_IDGMER, PTK_M_NONE,
};
KX_RATE_ACT(udp6)

static const struct kx_col nfs_cols[] = {
	{ PTK_M_NFS_CALL, false, "nfs.call" },	   { PTK_M_NFS_RETRANS, false, "nfs.retrans" },
	{ PTK_M_NFS_READ, false, "nfs.read" },	   { PTK_M_NFS_WRITE, false, "nfs.write" },
	{ PTK_M_NFS_ACCESS, false, "nfs.access" }, { PTK_M_NFS_GETATT, false, "nfs.getatt" },
};
const enum ptk_mid ptk_act_nfs_mids[] = {
	PTK_M_NFS_CALL,	  PTK_M_NFS_RETRANS, PTK_M_NFS_READ, PTK_M_NFS_WRITE,
	PTK_M_NFS_ACCESS, PTK_M_NFS_GETATT,  PTK_M_NONE,
};
KX_RATE_ACT(nfs)

static const struct kx_col nfsd_cols[] = {
	{ PTK_M_NFSD_SCALL, false, "nfsd.scall" },
	{ PTK_M_NFSD_BADCALL, false, "nfsd.badcall" },
	{ PTK_M_NFSD_PACKET, false, "nfsd.packet" },
	{ PTK_M_NFSD_UDP, false, "nfsd.udp" },
	{ PTK_M_NFSD_TCP, false, "nfsd.tcp" },
	{ PTK_M_NFSD_HIT, false, "nfsd.hit" },
	{ PTK_M_NFSD_MISS, false, "nfsd.miss" },
	{ PTK_M_NFSD_SREAD, false, "nfsd.sread" },
	{ PTK_M_NFSD_SWRITE, false, "nfsd.swrite" },
	{ PTK_M_NFSD_SACCESS, false, "nfsd.saccess" },
	{ PTK_M_NFSD_SGETATT, false, "nfsd.sgetatt" },
};
const enum ptk_mid ptk_act_nfsd_mids[] = {
	PTK_M_NFSD_SCALL,  PTK_M_NFSD_BADCALL, PTK_M_NFSD_PACKET,  PTK_M_NFSD_UDP,
	PTK_M_NFSD_TCP,	   PTK_M_NFSD_HIT,     PTK_M_NFSD_MISS,	   PTK_M_NFSD_SREAD,
	PTK_M_NFSD_SWRITE, PTK_M_NFSD_SACCESS, PTK_M_NFSD_SGETATT, PTK_M_NONE,
};
KX_RATE_ACT(nfsd)

/* ---- levels: sockets, kernel tables, huge pages ------------------------------------------ */

/* A level column: metric m from key of the extended counters. */
struct kx_level {
	enum ptk_mid m;
	const char *key;
};

static int level_rows(const struct ptk_snap *cur, const struct kx_level *cols, size_t n,
		      const enum ptk_mid *ids, struct ptk_rows *out)
{
	struct ptk_row *r = ptk_rows_add(out, "");

	for (size_t i = 0; i < n; i++) {
		s64 v;
		if (ptk_xkvs_get(&cur->kx, cols[i].key, &v) && v >= 0)
			ACT_SET(ids, r, cols[i].m, PTK_U((u64)v));
	}
	return 0;
}

static const struct kx_level sock_cols[] = {
	{ PTK_M_SOCK_TOT, "sockstat.sockets.used" }, { PTK_M_SOCK_TCP, "sockstat.TCP.inuse" },
	{ PTK_M_SOCK_UDP, "sockstat.UDP.inuse" },    { PTK_M_SOCK_RAW, "sockstat.RAW.inuse" },
	{ PTK_M_SOCK_FRAG, "sockstat.FRAG.inuse" },  { PTK_M_SOCK_TCPTW, "sockstat.TCP.tw" },
};
const enum ptk_mid ptk_act_sock_mids[] = {
	PTK_M_SOCK_TOT,	 PTK_M_SOCK_TCP,   PTK_M_SOCK_UDP, PTK_M_SOCK_RAW,
	PTK_M_SOCK_FRAG, PTK_M_SOCK_TCPTW, PTK_M_NONE,
};
ACT_ROWS_FN(ptk_act_sock_rows)
{
	(void)prev, (void)itv_s, (void)o;
	return level_rows(cur, sock_cols, ARRAY_SIZE(sock_cols), ptk_act_sock_mids, out);
}

static const struct kx_level sock6_cols[] = {
	{ PTK_M_SOCK6_TCP, "sockstat6.TCP6.inuse" },
	{ PTK_M_SOCK6_UDP, "sockstat6.UDP6.inuse" },
	{ PTK_M_SOCK6_RAW, "sockstat6.RAW6.inuse" },
	{ PTK_M_SOCK6_FRAG, "sockstat6.FRAG6.inuse" },
};
const enum ptk_mid ptk_act_sock6_mids[] = {
	PTK_M_SOCK6_TCP, PTK_M_SOCK6_UDP, PTK_M_SOCK6_RAW, PTK_M_SOCK6_FRAG, PTK_M_NONE,
};
ACT_ROWS_FN(ptk_act_sock6_rows)
{
	(void)prev, (void)itv_s, (void)o;
	return level_rows(cur, sock6_cols, ARRAY_SIZE(sock6_cols), ptk_act_sock6_mids, out);
}

const enum ptk_mid ptk_act_ktables_mids[] = {
	PTK_M_KT_DENTUNUSD, PTK_M_KT_FILE_NR, PTK_M_KT_INODE_NR, PTK_M_KT_PTY_NR, PTK_M_NONE,
};
/* sar -v: unused dentries, and file handles and inodes in use: allocated less free, as
 * sysstat's read_kernel_tables */
ACT_ROWS_FN(ptk_act_ktables_rows)
{
	const enum ptk_mid *ids = ptk_act_ktables_mids;
	const struct ptk_xkvs *x = &cur->kx;
	struct ptk_row *r = ptk_rows_add(out, "");
	s64 a, b;

	(void)prev, (void)itv_s, (void)o;
	if (ptk_xkvs_get(x, "fs.dentry-state.1", &a) && a >= 0)
		ACT_SET(ids, r, PTK_M_KT_DENTUNUSD, PTK_U((u64)a));
	if (ptk_xkvs_get(x, "fs.file-nr.0", &a) && ptk_xkvs_get(x, "fs.file-nr.1", &b) && a >= b)
		ACT_SET(ids, r, PTK_M_KT_FILE_NR, PTK_U((u64)(a - b)));
	if (ptk_xkvs_get(x, "fs.inode-state.0", &a) && ptk_xkvs_get(x, "fs.inode-state.1", &b) &&
	    a >= b)
		ACT_SET(ids, r, PTK_M_KT_INODE_NR, PTK_U((u64)(a - b)));
	if (ptk_xkvs_get(x, "pty.nr.0", &a) && a >= 0)
		ACT_SET(ids, r, PTK_M_KT_PTY_NR, PTK_U((u64)a));
	return 0;
}

const enum ptk_mid ptk_act_huge_mids[] = {
	PTK_M_HUGE_FREE, PTK_M_HUGE_USED, PTK_M_HUGE_USED_PCT,
	PTK_M_HUGE_RSVD, PTK_M_HUGE_SURP, PTK_M_NONE,
};
/* sar -H: the default size's pool of /proc/meminfo, in kB */
ACT_ROWS_FN(ptk_act_huge_rows)
{
	const enum ptk_mid *ids = ptk_act_huge_mids;
	const struct ptk_meminfo *m = &cur->mi;
	struct ptk_row *r = ptk_rows_add(out, "");
	u64 sz = m->hugepagesize;

	(void)prev, (void)itv_s, (void)o;
	if (!cur->has_mi || !ptk_meminfo_has(m, PTK_MI_HUGEPAGES_TOTAL) ||
	    !ptk_meminfo_has(m, PTK_MI_HUGEPAGES_FREE) ||
	    !ptk_meminfo_has(m, PTK_MI_HUGEPAGESIZE) || m->hugepages_free > m->hugepages_total)
		return 0;
	u64 tot = m->hugepages_total * sz, fr = m->hugepages_free * sz;
	ACT_SET(ids, r, PTK_M_HUGE_FREE, PTK_U(fr));
	ACT_SET(ids, r, PTK_M_HUGE_USED, PTK_U(tot - fr));
	ACT_SET(ids, r, PTK_M_HUGE_USED_PCT,
		PTK_F(tot ? (double)(tot - fr) / (double)tot * 100 : 0.0));
	if (ptk_meminfo_has(m, PTK_MI_HUGEPAGES_RSVD))
		ACT_SET(ids, r, PTK_M_HUGE_RSVD, PTK_U(m->hugepages_rsvd * sz));
	if (ptk_meminfo_has(m, PTK_MI_HUGEPAGES_SURP))
		ACT_SET(ids, r, PTK_M_HUGE_SURP, PTK_U(m->hugepages_surp * sz));
	return 0;
}

/* ---- items: serial lines, Fibre Channel hosts --------------------------------------------- */

/* The items of prefix (e.g. "tty.") whose key names field (e.g. "tx"): item i's name into
 * name (the part between prefix and ".field"). Returns the next index after i, or -1. */
static int next_item(const struct ptk_xkvs *x, const char *prefix, const char *field, int i,
		     char *name, size_t size)
{
	size_t pl = strlen(prefix), fl = strlen(field);

	for (; i < x->n; i++) {
		const char *k = ptk_xkvs_key(x, i);
		size_t kl = strlen(k);
		if (strncmp(k, prefix, pl) || kl < pl + fl + 2 || strcmp(k + kl - fl, field) ||
		    k[kl - fl - 1] != '.')
			continue;
		snprintf(name, size, "%.*s", (int)(kl - fl - 1 - pl), k + pl);
		return i + 1;
	}
	return -1;
}

/* Rows of item rates: an item of cur per row, key its (unescaped) name; each column the
 * rate of prefix.ITEM.field. An item that appeared counts from zero, as sysstat does. */
static void item_rates(const struct ptk_snap *prev, const struct ptk_snap *cur, double itv_s,
		       const char *prefix, const char *const *fields, const enum ptk_mid *cols,
		       int ncols, const enum ptk_mid *ids, struct ptk_rows *out)
{
	char item[512], key[700];

	for (int i = 0; (i = next_item(&cur->kx, prefix, fields[0], i, item, sizeof(item))) >= 0;) {
		char shown[512];
		struct ptk_row *r;

		ptk_xkey_unescape(item, strlen(item), shown, sizeof(shown));
		r = ptk_rows_add(out, shown);
		for (int c = 0; c < ncols; c++) {
			s64 a = 0, b;
			snprintf(key, sizeof(key), "%s%s.%s", prefix, item, fields[c]);
			if (!ptk_xkvs_get(&cur->kx, key, &b))
				continue;
			if (prev && !ptk_xkvs_get(&prev->kx, key, &a))
				a = 0;
			ACT_SET(ids, r, cols[c], PTK_F(ptk_act_rate((u64)a, (u64)b, itv_s)));
		}
	}
}

const enum ptk_mid ptk_act_serial_mids[] = {
	PTK_M_TTY_LINE,	   PTK_M_TTY_RCVIN, PTK_M_TTY_XMTIN, PTK_M_TTY_FRAMERR,
	PTK_M_TTY_PRTYERR, PTK_M_TTY_BRK,   PTK_M_TTY_OVRUN, PTK_M_NONE,
};
ACT_ROWS_FN(ptk_act_serial_rows)
{
	static const char *const f[] = { "rx", "tx", "fe", "pe", "brk", "oe" };
	static const enum ptk_mid m[] = { PTK_M_TTY_RCVIN,   PTK_M_TTY_XMTIN, PTK_M_TTY_FRAMERR,
					  PTK_M_TTY_PRTYERR, PTK_M_TTY_BRK,   PTK_M_TTY_OVRUN };
	(void)o;
	item_rates(prev, cur, itv_s, "tty.", f, m, 6, ptk_act_serial_mids, out);
	return 0;
}

const enum ptk_mid ptk_act_fc_mids[] = {
	PTK_M_FC_RXF, PTK_M_FC_TXF, PTK_M_FC_RXW, PTK_M_FC_TXW, PTK_M_FC_HOST, PTK_M_NONE,
};
ACT_ROWS_FN(ptk_act_fc_rows)
{
	static const char *const f[] = { "rx_frames", "tx_frames", "rx_words", "tx_words" };
	static const enum ptk_mid m[] = { PTK_M_FC_RXF, PTK_M_FC_TXF, PTK_M_FC_RXW, PTK_M_FC_TXW };
	(void)o;
	item_rates(prev, cur, itv_s, "fc.", f, m, 4, ptk_act_fc_mids, out);
	return 0;
}

/* ---- CPU clock ------------------------------------------------------------------------------ */

const enum ptk_mid ptk_act_pwr_cpu_mids[] = { PTK_M_CPU_ID, PTK_M_PWR_MHZ, PTK_M_NONE };
/* sar -m CPU: each CPU's cpu MHz now; all the mean (whole hundredths, as sysstat) */
ACT_ROWS_FN(ptk_act_pwr_cpu_rows)
{
	const enum ptk_mid *ids = ptk_act_pwr_cpu_mids;
	const struct ptk_xkvs *x = &cur->kx;
	struct ptk_row *all = ptk_rows_add(out, "all");
	s64 sum = 0, n = 0;
	int first = out->n - 1;

	(void)prev, (void)itv_s;
	for (int i = 0; i < x->n; i++) {
		const char *k = ptk_xkvs_key(x, i);
		if (strncmp(k, "mhz.", 4))
			continue;
		sum += x->kv[i].val;
		n++;
		if (o && o->per_cpu) {
			struct ptk_row *r = ptk_rows_add(out, k + 4);
			ACT_SET(ids, r, PTK_M_PWR_MHZ, PTK_F((double)x->kv[i].val / 100));
		}
	}
	all = &out->r[first];
	if (n)
		ACT_SET(ids, all, PTK_M_PWR_MHZ, PTK_F((double)(sum / n) / 100));
	return 0;
}

/* The time_in_state lines of CPU cpu in x, in file order: their frequencies (kHz) and times
 * into f[], t[] (at most max). Returns how many. */
static int tis_lines(const struct ptk_xkvs *x, int cpu, s64 *f, s64 *t, int max)
{
	char pre[32];
	size_t pl;
	int n = 0;

	snprintf(pre, sizeof(pre), "tis.%d.", cpu);
	pl = strlen(pre);
	for (int i = 0; i < x->n && n < max; i++) {
		const char *k = ptk_xkvs_key(x, i);
		if (strncmp(k, pre, pl))
			continue;
		f[n] = strtoll(k + pl, NULL, 10);
		t[n++] = x->kv[i].val;
	}
	return n;
}

#define TIS_MAX 64

/*
 * The weighted clock from prev to cur in MHz: each frequency weighted by the time spent at
 * it, for CPU cpu, or (cpu < 0) for all: the CPUs' times line by line averaged in whole
 * units, the frequencies CPU 0's, as sysstat's read_cpu_wghfreq and print_pwr_wghfreq_stats
 * (they assume that every CPU has the same frequencies). False when cur has none.
 */
static bool wgh(const struct ptk_snap *prev, const struct ptk_snap *cur, int cpu, double *mhz)
{
	s64 f[TIS_MAX], tc[TIS_MAX] = { 0 }, tp[TIS_MAX] = { 0 }, ff[TIS_MAX], tt[TIS_MAX];
	s64 tis = 0, itv = 0;
	int n;

	if (cpu >= 0) {
		n = tis_lines(&cur->kx, cpu, f, tc, TIS_MAX);
		if (prev && tis_lines(&prev->kx, cpu, ff, tp, TIS_MAX) != n)
			memset(tp, 0, sizeof(tp));
	} else {
		int ncpu = 0, m;
		n = tis_lines(&cur->kx, 0, f, tt, TIS_MAX);
		for (int c = 0; (m = tis_lines(&cur->kx, c, ff, tt, TIS_MAX)) > 0; c++, ncpu++)
			for (int j = 0; j < MIN(m, n); j++)
				tc[j] += tt[j];
		for (int c = 0; prev && (m = tis_lines(&prev->kx, c, ff, tt, TIS_MAX)) > 0; c++)
			for (int j = 0; j < MIN(m, n); j++)
				tp[j] += tt[j];
		for (int j = 0; j < n && ncpu; j++) {
			tc[j] /= ncpu;
			tp[j] /= ncpu;
		}
	}
	if (n <= 0)
		return false;
	for (int j = 0; j < n; j++) {
		itv += tc[j] - tp[j];
		tis += f[j] / 1000 * (tc[j] - tp[j]);
	}
	*mhz = itv > 0 ? (double)tis / (double)itv : 0.0;
	return true;
}

const enum ptk_mid ptk_act_pwr_freq_mids[] = { PTK_M_CPU_ID, PTK_M_PWR_WGHMHZ, PTK_M_NONE };
ACT_ROWS_FN(ptk_act_pwr_freq_rows)
{
	const enum ptk_mid *ids = ptk_act_pwr_freq_mids;
	struct ptk_row *r;
	double v;

	(void)itv_s;
	if (!wgh(prev, cur, -1, &v))
		return 0; /* no CPU with time_in_state: no rows, as sysstat */
	r = ptk_rows_add(out, "all");
	ACT_SET(ids, r, PTK_M_PWR_WGHMHZ, PTK_F(v));
	if (!o || !o->per_cpu)
		return 0;
	for (int c = 0; c < PTK_MAX_CPUS; c++) {
		char cpu[16];
		snprintf(cpu, sizeof(cpu), "%d", c);
		if (!wgh(prev, cur, c, &v))
			break;
		r = ptk_rows_add(out, cpu);
		ACT_SET(ids, r, PTK_M_PWR_WGHMHZ, PTK_F(v));
	}
	return 0;
}

/* ---- USB devices, filesystems -------------------------------------------------------------- */

const enum ptk_mid ptk_act_usb_mids[] = {
	PTK_M_USB_BUS,	    PTK_M_USB_IDVENDOR, PTK_M_USB_IDPROD, PTK_M_USB_MAXPOWER,
	PTK_M_USB_MANUFACT, PTK_M_USB_PRODUCT,	PTK_M_NONE,
};
/* The text of usbs.DEV.what.TEXT in cur (pointing into cur's keys, escaped), or NULL. */
static const char *usb_str(const struct ptk_snap *cur, const char *dev, const char *what)
{
	char pre[600];
	size_t pl;

	snprintf(pre, sizeof(pre), "usbs.%s.%s.", dev, what);
	pl = strlen(pre);
	for (int i = 0; i < cur->kx.n; i++)
		if (!strncmp(ptk_xkvs_key(&cur->kx, i), pre, pl))
			return ptk_xkvs_key(&cur->kx, i) + pl;
	return NULL;
}

/* sar -m USB: a row per device (its rows' strings point into cur's keys: escaped; the
 * command unescapes them) */
ACT_ROWS_FN(ptk_act_usb_rows)
{
	const enum ptk_mid *ids = ptk_act_usb_mids;
	char dev[512], key[600];

	(void)prev, (void)itv_s, (void)o;
	for (int i = 0; (i = next_item(&cur->kx, "usb.", "bus", i, dev, sizeof(dev))) >= 0;) {
		static const char *const f[] = { "bus", "idvendor", "idproduct", "maxpower" };
		static const enum ptk_mid m[] = { PTK_M_USB_BUS, PTK_M_USB_IDVENDOR,
						  PTK_M_USB_IDPROD, PTK_M_USB_MAXPOWER };
		struct ptk_row *r = ptk_rows_add(out, dev);
		const char *s;
		for (int c = 0; c < 4; c++) {
			s64 v;
			snprintf(key, sizeof(key), "usb.%s.%s", dev, f[c]);
			if (ptk_xkvs_get(&cur->kx, key, &v) && v >= 0)
				ACT_SET(ids, r, m[c], PTK_U((u64)v));
		}
		if ((s = usb_str(cur, dev, "manufacturer")))
			ACT_SET(ids, r, PTK_M_USB_MANUFACT, PTK_S(s));
		if ((s = usb_str(cur, dev, "product")))
			ACT_SET(ids, r, PTK_M_USB_PRODUCT, PTK_S(s));
	}
	return 0;
}

const enum ptk_mid ptk_act_fsys_mids[] = {
	PTK_M_FS_MBFREE, PTK_M_FS_MBUSED,    PTK_M_FS_USED_PCT, PTK_M_FS_UUSED_PCT, PTK_M_FS_IFREE,
	PTK_M_FS_IUSED,	 PTK_M_FS_IUSED_PCT, PTK_M_FS_NAME,	PTK_M_NONE,
};
/* sar -F: a row per mounted filesystem, key its device (the first mount of it), or with
 * o->fs_mount that mount point */
ACT_ROWS_FN(ptk_act_fsys_rows)
{
	const enum ptk_mid *ids = ptk_act_fsys_mids;
	char item[1024], key[1200];

	struct ptk_rows seen = { 0 };

	(void)prev, (void)itv_s;
	for (int i = 0; (i = next_item(&cur->kx, "fsys.", "blocks", i, item, sizeof(item))) >= 0;) {
		char dev[600], mnt[600];
		s64 bl, bf, ba, fi, ff;
		struct ptk_row *r;
		size_t dl = strcspn(item, ".");

		ptk_xkey_unescape(item, dl, dev, sizeof(dev));
		ptk_xkey_unescape(item + dl + 1, strlen(item + dl + 1), mnt, sizeof(mnt));
		if (ptk_rows_find(&seen, dev))
			continue;
		ptk_rows_add(&seen, dev);
		r = ptk_rows_add(out, o && o->fs_mount ? mnt : dev);
#define FS_GET(f, v) \
	(snprintf(key, sizeof(key), "fsys.%s.%s", item, f), ptk_xkvs_get(&cur->kx, key, &v))
		if (!FS_GET("blocks", bl) || !FS_GET("bfree", bf) || !FS_GET("bavail", ba) ||
		    !FS_GET("files", fi) || !FS_GET("ffree", ff) || bl <= 0)
			continue;
#undef FS_GET
		ACT_SET(ids, r, PTK_M_FS_MBFREE, PTK_U((u64)bf >> 20));
		ACT_SET(ids, r, PTK_M_FS_MBUSED, PTK_U((u64)(bl - bf) >> 20));
		ACT_SET(ids, r, PTK_M_FS_USED_PCT, PTK_F((double)(bl - bf) / (double)bl * 100));
		ACT_SET(ids, r, PTK_M_FS_UUSED_PCT, PTK_F((double)(bl - ba) / (double)bl * 100));
		ACT_SET(ids, r, PTK_M_FS_IFREE, PTK_U((u64)ff));
		ACT_SET(ids, r, PTK_M_FS_IUSED, PTK_U((u64)(fi - ff)));
		ACT_SET(ids, r, PTK_M_FS_IUSED_PCT,
			PTK_F(fi ? (double)(fi - ff) / (double)fi * 100 : 0.0));
	}
	ptk_rows_free(&seen);
	return 0;
}
