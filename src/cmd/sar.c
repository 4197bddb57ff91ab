// SPDX-License-Identifier: GPL-2.0
/*
 * ptk sar: reports from the `ptk record` archive (or live, with "interval [count]", or since
 * boot with an interval of 0) in sysstat sar's layouts and column names, with Average lines.
 * Every report is a function of two consecutive samples (struct ptk_snap, the same struct
 * live and recorded): the rows of one activity (model/activity.h) in the columns sar shows.
 * Reports print in sysstat's activity order (activity.c act[]), whatever the order of the
 * options.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/activity.h"
#include "model/cgroup.h"
#include "output/archive.h"

#define MAXCOL 24
#define SAR_MAX_CPUS 8192

/* A report: the columns sar shows of one activity (model/activity.h). */
struct report {
	enum ptk_act_id act;
	struct ptk_table tab; /* refs: registry entries, each a metric of the activity */
	enum ptk_mid na_zero; /* na printed 0.00 in text, as sysstat does (JSON: null) */
	unsigned flags; /* RF_* */
};
enum {
	RF_ITEMS = 1 << 0, /* a row per item (CPU, device, interface): a header every interval */
	RF_CPUS = 1 << 1, /* rows are CPUs: all, then -P's */
	RF_IRQ = 1 << 2, /* rows are interrupts (keys "CPU/NAME"), -P's CPUs as columns */
	RF_SUMMARY = 1 << 3, /* no Average: the items of the last sample, as "Summary:" */
	RF_USB = 1 << 4, /* USB: vendor and product IDs in hexadecimal, text unescaped */
	RF_ZOMIT = 1 << 5, /* -z leaves out the items without activity */
	RF_PRETTY = 1 << 6, /* --pretty prints the item's name last */
};

/* The impossible values of one sample: shown as unknown, named in one warning. */
struct warning {
	s64 id, t_ms;
	struct ptk_strbuf text;
};

struct sar {
	struct ptk_ctx *ctx;
	struct warning *warn; /* in the order found */
	int nwarn, capwarn;
	struct taint { /* a sample's counter behind a rate beyond 2^53 (see impossible_rates) */
		s64 id;
		enum ptk_mid m;
		char key[64];
	} * taint;
	int ntaint, captaint;
	bool utc, iso, csv;
	bool want_p; /* -P: CPU rows */
	bool *cpu_sel; /* [SAR_MAX_CPUS + 1]: [0] the all row, [1 + i] CPU i */
	struct ptk_act_opts aopts;
	const struct report *rep[64];
	int nrep;
	struct ptk_act_avg avg[64]; /* per report: its activity's rows averaged */
	bool restart; /* a reboot inside the window: Average from rows */
	struct ptk_rows act_rows; /* scratch: the activity's rows */
	char missing[256]; /* reports left out: their files are missing */
	bool irq_sum, irq_all; /* -I SUM: the total of every interrupt; -I ALL: each one */
	const char *int_list; /* --int (or -I LIST): the interrupts shown (NULL: ALL's) */
	bool minmax; /* -x */
	int dec; /* --dec: decimal places, -1: each metric's */
	bool zero_omit; /* -z */
	bool pretty; /* -p, --pretty */
	const char *dev_list, *iface_list, *fs_list; /* --dev, --iface, --fs: the items shown */
	struct ptk_arc *out; /* -o: live samples stored here too */
	s64 out_prev; /* the id of the sample stored last */
	long out_fail; /* samples -o could not store */
	struct ptk_rows xmin[64], xmax[64]; /* -x: per report, each item's extremes */
	bool cgroups; /* --cgroups: the per-cgroup report */
	const char *cg_under; /* --cgroups=PATH: the cgroups at or under PATH */
};

#define REPORT_F(a, nm, naz, fl, ...)                                                             \
	{                                                                                         \
		.act = a, .na_zero = naz, .flags = fl,                                            \
		.tab = {.name = nm,                                                               \
			.refs = (const struct ptk_metric *const[]){ __VA_ARGS__ },                \
			.ncols = ARRAY_SIZE(((const struct ptk_metric *const[]){ __VA_ARGS__ })), \
		}                                                                                 \
	}
#define REPORT(a, nm, naz, ...) REPORT_F(a, nm, naz, 0, __VA_ARGS__)

/* The reports, in sysstat's activity order. */
enum {
	R_CPU,
	R_CPUALL,
	R_W,
	R_IRQ,
	R_SW,
	R_PG,
	R_IO,
	R_MEM,
	R_MEMALL,
	R_SWS,
	R_HUGE,
	R_KTABLES,
	R_Q,
	R_SERIAL,
	R_DEV,
	R_NDEV,
	R_EDEV,
	R_NFS,
	R_NFSD,
	R_SOCK,
	R_IP,
	R_EIP,
	R_ICMP,
	R_EICMP,
	R_TCP,
	R_ETCP,
	R_UDP,
	R_SOCK6,
	R_IP6,
	R_EIP6,
	R_ICMP6,
	R_EICMP6,
	R_UDP6,
	R_FC,
	R_SOFT,
	R_PWR_CPU,
	R_PWR_FREQ,
	R_USB,
	R_FS,
	R_PSIC,
	R_PSII,
	R_PSIM,
	R_N
};
#define M(x) PTK_M(x)
static const struct report reports[R_N] = {
	[R_CPU] =
		REPORT_F(PTK_ACT_CPU, "cpu", PTK_M_NONE, RF_CPUS, M(CPU_ID), M(CPU_USER),
			 M(CPU_NICE_ALL), M(CPU_SYSTEM), M(CPU_IOWAIT), M(CPU_STEAL), M(CPU_IDLE)),
	[R_CPUALL] = REPORT_F(PTK_ACT_CPU, "cpu", PTK_M_NONE, RF_CPUS, M(CPU_ID), M(CPU_USR),
			      M(CPU_NICE), M(CPU_SYS), M(CPU_IOWAIT), M(CPU_STEAL), M(CPU_IRQ),
			      M(CPU_SOFT), M(CPU_GUEST), M(CPU_GNICE), M(CPU_IDLE)),
	[R_W] = REPORT(PTK_ACT_TASK, "task", PTK_M_NONE, M(TASK_PROC_S), M(TASK_CSWCH_S)),
	[R_IRQ] = REPORT_F(PTK_ACT_IRQ, "interrupts", PTK_M_NONE,
			   RF_ITEMS | RF_IRQ | RF_ZOMIT | RF_PRETTY, M(IRQ_NAME), M(IRQ_S)),
	[R_SW] = REPORT(PTK_ACT_SWAP, "swap", PTK_M_NONE, M(SWP_PSWPIN), M(SWP_PSWPOUT)),
	[R_PG] = REPORT(PTK_ACT_PAGING, "paging", PTK_M_NONE, M(PG_PGPGIN), M(PG_PGPGOUT),
			M(PG_FAULT), M(PG_MAJFLT), M(PG_PGFREE), M(PG_PGSCANK), M(PG_PGSCAND),
			M(PG_PGSTEAL), M(PG_PGPROM), M(PG_PGDEM)),
	[R_IO] = REPORT(PTK_ACT_IO, "io", PTK_M_NONE, M(DISK_TPS), M(IO_RTPS), M(IO_WTPS),
			M(IO_DTPS), M(IO_BREAD), M(IO_BWRTN), M(IO_BDSCD)),
	[R_MEM] = REPORT(PTK_ACT_MEM, "memory", PTK_M_NONE, M(MEM_FREE), M(MEM_AVAIL),
			 M(MEM_KBMEMUSED), M(MEM_USED_PCT), M(MEM_BUFFERS), M(MEM_CACHED),
			 M(MEM_COMMIT), M(MEM_COMMIT_PCT), M(MEM_ACTIVE), M(MEM_INACTIVE),
			 M(MEM_DIRTY), M(MEM_KBSHMEM)),
	[R_MEMALL] = REPORT(PTK_ACT_MEM, "memory", PTK_M_NONE, M(MEM_FREE), M(MEM_AVAIL),
			    M(MEM_KBMEMUSED), M(MEM_USED_PCT), M(MEM_BUFFERS), M(MEM_CACHED),
			    M(MEM_COMMIT), M(MEM_COMMIT_PCT), M(MEM_ACTIVE), M(MEM_INACTIVE),
			    M(MEM_DIRTY), M(MEM_KBSHMEM), M(MEM_ANONPG), M(MEM_SLAB), M(MEM_KSTACK),
			    M(MEM_PGTBL), M(MEM_VMUSED)),
	[R_SWS] = REPORT(PTK_ACT_SWAP, "swap_space", PTK_M_NONE, M(SWP_FREE), M(SWP_USED),
			 M(SWP_USED_PCT), M(SWP_CAD), M(SWP_CAD_PCT)),
	[R_HUGE] = REPORT(PTK_ACT_HUGE, "hugepages", PTK_M_NONE, M(HUGE_FREE), M(HUGE_USED),
			  M(HUGE_USED_PCT), M(HUGE_RSVD), M(HUGE_SURP)),
	[R_KTABLES] = REPORT(PTK_ACT_KTABLES, "kernel", PTK_M_NONE, M(KT_DENTUNUSD), M(KT_FILE_NR),
			     M(KT_INODE_NR), M(KT_PTY_NR)),
	[R_Q] = REPORT(PTK_ACT_QUEUE, "queue", PTK_M_NONE, M(Q_RUNQ_SZ), M(Q_PLIST_SZ),
		       M(Q_LDAVG_1), M(Q_LDAVG_5), M(Q_LDAVG_15), M(Q_BLOCKED)),
	[R_SERIAL] = REPORT_F(PTK_ACT_SERIAL, "serial", PTK_M_NONE, RF_ITEMS | RF_ZOMIT,
			      M(TTY_LINE), M(TTY_RCVIN), M(TTY_XMTIN), M(TTY_FRAMERR),
			      M(TTY_PRTYERR), M(TTY_BRK), M(TTY_OVRUN)),
	[R_DEV] = REPORT_F(PTK_ACT_DISK, "disk", PTK_M_DISK_DKB_S, RF_ITEMS | RF_ZOMIT | RF_PRETTY,
			   M(DISK_DEV), M(DISK_TPS), M(DISK_RKB_S), M(DISK_WKB_S), M(DISK_DKB_S),
			   M(DISK_AREQ_SZ), M(DISK_AQU_SZ), M(DISK_AWAIT), M(DISK_UTIL)),
	[R_NDEV] = REPORT_F(PTK_ACT_NET_DEV, "net_dev", PTK_M_NET_IFUTIL,
			    RF_ITEMS | RF_ZOMIT | RF_PRETTY, M(NET_IFACE), M(NET_RXPCK),
			    M(NET_TXPCK), M(NET_RXKB), M(NET_TXKB), M(NET_RXCMP), M(NET_TXCMP),
			    M(NET_RXMCST), M(NET_IFUTIL)),
	[R_EDEV] =
		REPORT_F(PTK_ACT_NET_EDEV, "net_edev", PTK_M_NONE, RF_ITEMS | RF_ZOMIT | RF_PRETTY,
			 M(NET_IFACE), M(NET_RXERR), M(NET_TXERR), M(NET_COLL), M(NET_RXDROP),
			 M(NET_TXDROP), M(NET_TXCARR), M(NET_RXFRAM), M(NET_RXFIFO), M(NET_TXFIFO)),
	[R_NFS] = REPORT(PTK_ACT_NFS, "net_nfs", PTK_M_NONE, M(NFS_CALL), M(NFS_RETRANS),
			 M(NFS_READ), M(NFS_WRITE), M(NFS_ACCESS), M(NFS_GETATT)),
	[R_NFSD] = REPORT(PTK_ACT_NFSD, "net_nfsd", PTK_M_NONE, M(NFSD_SCALL), M(NFSD_BADCALL),
			  M(NFSD_PACKET), M(NFSD_UDP), M(NFSD_TCP), M(NFSD_HIT), M(NFSD_MISS),
			  M(NFSD_SREAD), M(NFSD_SWRITE), M(NFSD_SACCESS), M(NFSD_SGETATT)),
	[R_SOCK] = REPORT(PTK_ACT_SOCK, "net_sock", PTK_M_NONE, M(SOCK_TOT), M(SOCK_TCP),
			  M(SOCK_UDP), M(SOCK_RAW), M(SOCK_FRAG), M(SOCK_TCPTW)),
	[R_IP] = REPORT(PTK_ACT_IP, "net_ip", PTK_M_NONE, M(IP_IREC), M(IP_FWDDGM), M(IP_IDEL),
			M(IP_ORQ), M(IP_ASMRQ), M(IP_ASMOK), M(IP_FRAGOK), M(IP_FRAGCRT)),
	[R_EIP] = REPORT(PTK_ACT_EIP, "net_eip", PTK_M_NONE, M(EIP_IHDRERR), M(EIP_IADRERR),
			 M(EIP_IUKWNPR), M(EIP_IDISC), M(EIP_ODISC), M(EIP_ONORT), M(EIP_ASMF),
			 M(EIP_FRAGF)),
	[R_ICMP] = REPORT(PTK_ACT_ICMP, "net_icmp", PTK_M_NONE, M(ICMP_IMSG), M(ICMP_OMSG),
			  M(ICMP_IECH), M(ICMP_IECHR), M(ICMP_OECH), M(ICMP_OECHR), M(ICMP_ITM),
			  M(ICMP_ITMR), M(ICMP_OTM), M(ICMP_OTMR), M(ICMP_IADRMK), M(ICMP_IADRMKR),
			  M(ICMP_OADRMK), M(ICMP_OADRMKR)),
	[R_EICMP] = REPORT(PTK_ACT_EICMP, "net_eicmp", PTK_M_NONE, M(EICMP_IERR), M(EICMP_OERR),
			   M(EICMP_IDSTUNR), M(EICMP_ODSTUNR), M(EICMP_ITMEX), M(EICMP_OTMEX),
			   M(EICMP_IPARMPB), M(EICMP_OPARMPB), M(EICMP_ISRCQ), M(EICMP_OSRCQ),
			   M(EICMP_IREDIR), M(EICMP_OREDIR)),
	[R_TCP] = REPORT(PTK_ACT_TCP, "tcp", PTK_M_NONE, M(TCP_ACTIVE), M(TCP_PASSIVE), M(TCP_ISEG),
			 M(TCP_OSEG)),
	[R_ETCP] = REPORT(PTK_ACT_ETCP, "etcp", PTK_M_NONE, M(TCP_ATMPTF), M(TCP_ESTRES),
			  M(TCP_RETRANS), M(TCP_ISEGERR), M(TCP_ORSTS)),
	[R_UDP] = REPORT(PTK_ACT_UDP, "net_udp", PTK_M_NONE, M(UDP_IDGM), M(UDP_ODGM),
			 M(UDP_NOPORT), M(UDP_IDGMERR)),
	[R_SOCK6] = REPORT(PTK_ACT_SOCK6, "net_sock6", PTK_M_NONE, M(SOCK6_TCP), M(SOCK6_UDP),
			   M(SOCK6_RAW), M(SOCK6_FRAG)),
	[R_IP6] = REPORT(PTK_ACT_IP6, "net_ip6", PTK_M_NONE, M(IP6_IREC), M(IP6_FWDDGM),
			 M(IP6_IDEL), M(IP6_ORQ), M(IP6_ASMRQ), M(IP6_ASMOK), M(IP6_IMCPCK),
			 M(IP6_OMCPCK), M(IP6_FRAGOK), M(IP6_FRAGCR)),
	[R_EIP6] =
		REPORT(PTK_ACT_EIP6, "net_eip6", PTK_M_NONE, M(EIP6_IHDRER), M(EIP6_IADRER),
		       M(EIP6_IUKWNP), M(EIP6_I2BIG), M(EIP6_IDISC), M(EIP6_ODISC), M(EIP6_INORT),
		       M(EIP6_ONORT), M(EIP6_ASMF), M(EIP6_FRAGF), M(EIP6_ITRPCK)),
	[R_ICMP6] = REPORT(PTK_ACT_ICMP6, "net_icmp6", PTK_M_NONE, M(ICMP6_IMSG), M(ICMP6_OMSG),
			   M(ICMP6_IECH), M(ICMP6_IECHR), M(ICMP6_OECHR), M(ICMP6_IGMBQ),
			   M(ICMP6_IGMBR), M(ICMP6_OGMBR), M(ICMP6_IGMBRD), M(ICMP6_OGMBRD),
			   M(ICMP6_IRTSOL), M(ICMP6_ORTSOL), M(ICMP6_IRTAD), M(ICMP6_INBSOL),
			   M(ICMP6_ONBSOL), M(ICMP6_INBAD), M(ICMP6_ONBAD)),
	[R_EICMP6] = REPORT(PTK_ACT_EICMP6, "net_eicmp6", PTK_M_NONE, M(EICMP6_IERR),
			    M(EICMP6_IDTUNR), M(EICMP6_ODTUNR), M(EICMP6_ITMEX), M(EICMP6_OTMEX),
			    M(EICMP6_IPRMPB), M(EICMP6_OPRMPB), M(EICMP6_IREDIR), M(EICMP6_OREDIR),
			    M(EICMP6_IPCK2B), M(EICMP6_OPCK2B)),
	[R_UDP6] = REPORT(PTK_ACT_UDP6, "net_udp6", PTK_M_NONE, M(UDP6_IDGM), M(UDP6_ODGM),
			  M(UDP6_NOPORT), M(UDP6_IDGMER)),
	[R_FC] = REPORT_F(PTK_ACT_FC, "fchost", PTK_M_NONE, RF_ITEMS | RF_ZOMIT, M(FC_RXF),
			  M(FC_TXF), M(FC_RXW), M(FC_TXW), M(FC_HOST)),
	[R_SOFT] = REPORT_F(PTK_ACT_SOFTNET, "softnet", PTK_M_NONE, RF_CPUS, M(CPU_ID), M(SN_TOTAL),
			    M(SN_DROPD), M(SN_SQUEEZD), M(SN_RX_RPS), M(SN_FLW_LIM), M(SN_BLG_LEN)),
	[R_PWR_CPU] = REPORT_F(PTK_ACT_PWR_CPU, "cpu_frequency", PTK_M_NONE, RF_CPUS, M(CPU_ID),
			       M(PWR_MHZ)),
	[R_PWR_FREQ] = REPORT_F(PTK_ACT_PWR_FREQ, "cpu_weighted_frequency", PTK_M_NONE, RF_CPUS,
				M(CPU_ID), M(PWR_WGHMHZ)),
	[R_USB] = REPORT_F(PTK_ACT_USB, "usb_devices", PTK_M_NONE, RF_ITEMS | RF_SUMMARY | RF_USB,
			   M(USB_BUS), M(USB_IDVENDOR), M(USB_IDPROD), M(USB_MAXPOWER),
			   M(USB_MANUFACT), M(USB_PRODUCT)),
	[R_FS] = REPORT_F(PTK_ACT_FSYS, "filesystems", PTK_M_NONE, RF_ITEMS | RF_SUMMARY,
			  M(FS_MBFREE), M(FS_MBUSED), M(FS_USED_PCT), M(FS_UUSED_PCT), M(FS_IFREE),
			  M(FS_IUSED), M(FS_IUSED_PCT), M(FS_NAME)),
	[R_PSIC] = REPORT(PTK_ACT_PSI_CPU, "psi_cpu", PTK_M_NONE, M(PSI_CPU_SOME_AVG10),
			  M(PSI_CPU_SOME_AVG60), M(PSI_CPU_SOME_AVG300), M(PSI_CPU_SOME_PCT)),
	[R_PSII] = REPORT(PTK_ACT_PSI_IO, "psi_io", PTK_M_NONE, M(PSI_IO_SOME_AVG10),
			  M(PSI_IO_SOME_AVG60), M(PSI_IO_SOME_AVG300), M(PSI_IO_SOME_PCT),
			  M(PSI_IO_FULL_AVG10), M(PSI_IO_FULL_AVG60), M(PSI_IO_FULL_AVG300),
			  M(PSI_IO_FULL_PCT)),
	[R_PSIM] = REPORT(PTK_ACT_PSI_MEM, "psi_mem", PTK_M_NONE, M(PSI_MEM_SOME_AVG10),
			  M(PSI_MEM_SOME_AVG60), M(PSI_MEM_SOME_AVG300), M(PSI_MEM_SOME_PCT),
			  M(PSI_MEM_FULL_AVG10), M(PSI_MEM_FULL_AVG60), M(PSI_MEM_FULL_AVG300),
			  M(PSI_MEM_FULL_PCT)),
};
#undef M

/* Is the row of CPU key ("all" or a number) one of -P's (or the all row without -P)? */
static bool cpu_wanted(const struct sar *o, const char *key)
{
	char *end;
	long c;

	if (!strcmp(key, "all"))
		return o->cpu_sel[0];
	c = strtol(key, &end, 10);
	return !*end && c >= 0 && c < SAR_MAX_CPUS && o->cpu_sel[c + 1];
}

/* Is name in the comma-separated list (NULL: every name)? */
static bool in_list(const char *list, const char *name)
{
	size_t nl = strlen(name);

	if (!list)
		return true;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == nl && !strncmp(p, name, l))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* Is interrupt name one of -I's? The sum with SUM, or ALL without --int; one with ALL, or
 * in --int's list. */
static bool irq_wanted(const struct sar *o, const char *name)
{
	if (!strcmp(name, "sum"))
		return o->irq_sum || (o->irq_all && !o->int_list);
	return o->int_list ? in_list(o->int_list, name) : o->irq_all;
}

/* The items --dev, --iface or --fs leave in report rep (NULL: every one). */
static const char *item_list(const struct sar *o, const struct report *rep)
{
	switch (rep->act) {
	case PTK_ACT_DISK:
		return o->dev_list;
	case PTK_ACT_NET_DEV:
	case PTK_ACT_NET_EDEV:
		return o->iface_list;
	case PTK_ACT_FSYS:
		return o->fs_list;
	default:
		return NULL;
	}
}

/* -z: had the item of row r no activity (every value known is 0)? */
static bool idle_row(const struct report *rep, const struct ptk_row *r)
{
	for (int i = 0; i < rep->tab.ncols; i++) {
		const struct ptk_metric *m = ptk_col(&rep->tab, i);
		if (r->v[i].na || m->type == PTK_V_STR)
			continue;
		if (m->type == PTK_V_F64 ? r->v[i].f != 0 : r->v[i].u != 0)
			return false;
	}
	return true;
}

/* Are rep's rows -z's? (sysstat prints the header of a report whose items -z all left
 * out.) */
static bool zero_omitted(const struct sar *o, const struct report *rep)
{
	return o->zero_omit && (rep->flags & RF_ZOMIT);
}

/* Note what of sample s is impossible (one item of its warning; the same item once). */
static void warn_add(struct sar *o, const struct ptk_snap *s, const char *item)
{
	struct warning *w = NULL;

	for (int i = o->nwarn - 1; i >= 0 && !w; i--)
		if (o->warn[i].id == s->id)
			w = &o->warn[i];
	if (!w) {
		if (o->nwarn == o->capwarn) {
			o->capwarn = o->capwarn ? 2 * o->capwarn : 8;
			o->warn = xrealloc(o->warn, o->capwarn * sizeof(*o->warn));
		}
		w = &o->warn[o->nwarn++];
		*w = (struct warning){ .id = s->id, .t_ms = s->t_ms };
	}
	if (w->text.p && strstr(w->text.p, item))
		return;
	ptk_strbuf_addf(&w->text, "%s%s", w->text.len ? "; " : "", item);
}

static int warn_cmp(const void *x, const void *y)
{
	const struct warning *a = x, *b = y;

	return a->t_ms < b->t_ms ? -1 : a->t_ms > b->t_ms ? 1 : a->id < b->id ? -1 : a->id > b->id;
}

/* One warning per sample with impossible values, in time order; then forget them. */
static void warn_flush(struct sar *o)
{
	char t[64];

	if (o->nwarn)
		qsort(o->warn, o->nwarn, sizeof(*o->warn), warn_cmp);
	for (int i = 0; i < o->nwarn; i++) {
		ptk_arc_fmt_time(o->warn[i].t_ms, o->utc, true, t, sizeof(t));
		ptk_warn("sample %" PRId64 " at %s: impossible values shown as unknown: %s",
			 o->warn[i].id, t, o->warn[i].text.p);
		free(o->warn[i].text.p);
	}
	free(o->warn);
	o->warn = NULL;
	o->nwarn = o->capwarn = 0;
	free(o->taint);
	o->taint = NULL;
	o->ntaint = o->captaint = 0;
}

static bool tainted(const struct sar *o, s64 id, enum ptk_mid m, const char *key)
{
	for (int i = 0; i < o->ntaint; i++)
		if (o->taint[i].id == id && o->taint[i].m == m && !strcmp(o->taint[i].key, key))
			return true;
	return false;
}

/*
 * A rate beyond 2^53 per second is no kernel counter's (9 PB/s; a double no longer holds
 * such a count exactly): the archive holds an impossible jump of the counter into cur. The
 * rate is shown as unknown and named in cur's warning; so is the rate of the interval after
 * it, from cur's counter (which counts as a reset, a wrong number either way). Archived
 * samples only (prev, cur ids): live values are the kernel's.
 */
static void impossible_rates(struct sar *o, const struct ptk_activity *act,
			     const struct ptk_snap *prev, const struct ptk_snap *cur,
			     struct ptk_rows *rows)
{
	const double limit = 9007199254740992.0; /* 2^53 */

	for (int k = 0; k < rows->n; k++) {
		struct ptk_row *r = &rows->r[k];
		for (int i = 0; act->mids[i] != PTK_M_NONE; i++) {
			const struct ptk_metric *m = &ptk_registry[act->mids[i]];
			char item[160];
			if (m->kind != PTK_RATE || r->v[i].na || m->type != PTK_V_F64)
				continue;
			if (prev && tainted(o, prev->id, act->mids[i], r->key)) {
				r->v[i] = PTK_NA;
				continue;
			}
			if (!(fabs(r->v[i].f) > limit))
				continue;
			snprintf(item, sizeof(item), "%s%s%s %.3g (a rate beyond 2^53)", m->name,
				 r->key[0] ? " of " : "", r->key, r->v[i].f);
			warn_add(o, cur, item);
			r->v[i] = PTK_NA;
			if (tainted(o, cur->id, act->mids[i], r->key))
				continue;
			if (o->ntaint == o->captaint) {
				o->captaint = o->captaint ? 2 * o->captaint : 8;
				o->taint = xrealloc(o->taint, o->captaint * sizeof(*o->taint));
			}
			struct taint *t = &o->taint[o->ntaint++];
			t->id = cur->id;
			t->m = act->mids[i];
			snprintf(t->key, sizeof(t->key), "%s", r->key);
		}
	}
}

/* The activity's rows in o->act_rows into out, in report rep's columns (the entity column:
 * the row's key). A CPU report keeps the rows of -P's CPUs; an interrupt report the rows of
 * CPU all ("all/NAME", keyed NAME); --dev, --iface, --fs their items; -z the items with
 * activity. */
static void pick_rows(const struct sar *o, const struct report *rep, struct ptk_rows *out)
{
	const struct ptk_activity *act = &ptk_activities[rep->act];
	int col[MAXCOL];

	for (int i = 0; i < rep->tab.ncols; i++)
		col[i] = ptk_act_col(act, ptk_col(&rep->tab, i) - ptk_registry);
	out->n = 0;
	for (int k = 0; k < o->act_rows.n; k++) {
		const struct ptk_row *a = &o->act_rows.r[k];
		const char *key = a->key;
		struct ptk_row *r;

		if ((rep->flags & RF_CPUS) && !cpu_wanted(o, key))
			continue;
		if (rep->flags & RF_IRQ) {
			if (strncmp(key, "all/", 4) || !irq_wanted(o, key + 4))
				continue;
			key += 4;
		}
		if (!in_list(item_list(o, rep), key))
			continue;
		r = ptk_rows_add(out, key);
		for (int i = 0; i < rep->tab.ncols; i++)
			if (col[i] >= 0)
				r->v[i] = a->v[col[i]];
		if (zero_omitted(o, rep) && idle_row(rep, r))
			out->n--;
	}
	/* sar lists the total of every interrupt first */
	if ((rep->flags & RF_IRQ) && out->n > 1 && !strcmp(out->r[out->n - 1].key, "sum")) {
		struct ptk_row sum = out->r[out->n - 1];
		memmove(out->r + 1, out->r, (out->n - 1) * sizeof(*out->r));
		out->r[0] = sum;
	}
}

/* The rows of report ri between p and c into out, counted in its Average. */
static void report_rows(struct sar *o, int ri, const struct ptk_snap *p, const struct ptk_snap *c,
			double itv, struct ptk_rows *out)
{
	const struct ptk_activity *act = &ptk_activities[o->rep[ri]->act];

	o->act_rows.n = 0;
	act->rows(p, c, itv, &o->aopts, &o->act_rows);
	if (c->id)
		impossible_rates(o, act, p, c, &o->act_rows);
	o->avg[ri].act = act;
	if (p)
		ptk_act_avg_add(&o->avg[ri], &o->act_rows, itv);
	pick_rows(o, o->rep[ri], out);
}

/* The Average rows of report ri over first..last (model/activity.h ptk_act_avg). */
static void average_rows(struct sar *o, int ri, const struct ptk_snap *first,
			 const struct ptk_snap *last, struct ptk_rows *out)
{
	const struct ptk_activity *act = &ptk_activities[o->rep[ri]->act];
	double itv = last->up.up_s - first->up.up_s;
	/* the whole window at once, as sysstat (which does so live even when the counters
	 * went back: rates of a negative interval are 0) */
	bool whole = !o->restart;
	struct ptk_rows w = { 0 };

	o->avg[ri].act = act;
	if (whole) {
		act->rows(first, last, itv, &o->aopts, &w);
		if (last->id)
			impossible_rates(o, act, NULL, last, &w);
	}
	ptk_act_avg_rows(&o->avg[ri], whole ? &w : NULL, &o->act_rows);
	pick_rows(o, o->rep[ri], out);
	ptk_rows_free(&w);
}

/* ---- output ------------------------------------------------------------------------------- */

/* The values of row r as rep shows them: the entity column is the row's key; in text, the
 * na_zero column prints 0 for unknown. */
static void shown_vals(const struct sar *o, const struct report *rep, const struct ptk_row *r,
		       struct ptk_val *v)
{
	static char text[MAXCOL][512];

	for (int i = 0; i < rep->tab.ncols; i++) {
		const struct ptk_metric *m = ptk_col(&rep->tab, i);
		v[i] = r->v[i];
		if (m->type == PTK_V_STR && !strcmp(m->from, "the row's key")) {
			v[i] = PTK_S(r->key);
		} else if (v[i].na && m == &ptk_registry[rep->na_zero] && !o->ctx->json) {
			v[i] = PTK_F(0);
		} else if ((rep->flags & RF_USB) && !v[i].na && !o->ctx->json &&
			   (!strcmp(m->key, PTK_M(USB_IDVENDOR)->key) ||
			    !strcmp(m->key, PTK_M(USB_IDPROD)->key))) {
			snprintf(text[i], sizeof(text[i]), "%" PRIx64, v[i].u);
			v[i] = PTK_S(text[i]);
		} else if ((rep->flags & RF_USB) && !v[i].na && m->type == PTK_V_STR) {
			/* the device's strings, as sysfs has them */
			ptk_xkey_unescape(v[i].s, strlen(v[i].s), text[i], sizeof(text[i]));
			v[i] = PTK_S(text[i]);
		}
	}
}

/* The table report rep prints in text: its own, or in cols (perm[i]: the report's column
 * shown i-th): USB IDs as hexadecimal text, --dec's decimals, -F MOUNT's mount points and
 * --pretty's name last. */
struct shown {
	struct report rep;
	struct ptk_metric cols[MAXCOL];
	int perm[MAXCOL];
};

static const struct report *shown_report(const struct sar *o, const struct report *rep,
					 struct shown *sh)
{
	int n = rep->tab.ncols, k = 0;
	bool last = o->pretty && (rep->flags & RF_PRETTY) && !o->csv;

	for (int i = 0; i < n; i++)
		sh->perm[i] = i;
	if (o->ctx->json || (!(rep->flags & RF_USB) && o->dec < 0 && !last &&
			     !(o->aopts.fs_mount && rep->act == PTK_ACT_FSYS)))
		return rep;
	for (int i = last ? 1 : 0; i < n; i++)
		sh->perm[k++] = i;
	if (last)
		sh->perm[k++] = 0;
	for (int i = 0; i < n; i++) {
		const struct ptk_metric *m = ptk_col(&rep->tab, sh->perm[i]);
		struct ptk_metric *c = &sh->cols[i];
		*c = *m;
		if (m == PTK_M(USB_IDVENDOR) || m == PTK_M(USB_IDPROD))
			c->type = PTK_V_STR;
		if (o->dec >= 0 && c->type == PTK_V_F64 && c->prec > 0)
			c->prec = o->dec;
		if (m == PTK_M(FS_NAME) && o->aopts.fs_mount)
			*c = *PTK_M(FS_MOUNT);
		if (last && i == n - 1)
			c->width = 0; /* the name last, as it is */
	}
	sh->rep = *rep;
	sh->rep.tab.refs = NULL;
	sh->rep.tab.cols = sh->cols;
	return &sh->rep;
}

static void print_header(const struct sar *o, const struct report *rep, const char *t)
{
	struct shown sh;

	rep = shown_report(o, rep, &sh);
	if (o->csv) {
		fputs("time", stdout);
		for (int i = 0; i < rep->tab.ncols; i++)
			printf(",%s", ptk_col(&rep->tab, i)->name);
		putchar('\n');
		return;
	}
	if (rep->flags & RF_IRQ) {
		/* "INTR" then a column per CPU: all, then -P's (--pretty: INTR last) */
		const char *nm = ptk_registry[PTK_M_IRQ_NAME].name;
		printf("%-11s", t);
		if (!o->pretty)
			printf(" %9s", nm);
		if (o->cpu_sel[0])
			printf(" %9s", "all");
		if (o->pretty)
			printf(" %s", nm);
		return (void)putchar('\n');
	}
	ptk_sink_table_begin(&o->ctx->sink, &rep->tab, true, t);
	ptk_sink_table_end(&o->ctx->sink);
}

static void print_rows(const struct sar *o, const struct report *rep, const char *t,
		       const struct ptk_rows *rs)
{
	const struct report *own = rep;
	struct shown sh;
	struct ptk_val v[MAXCOL], pv[MAXCOL];
	char buf[64];

	rep = shown_report(o, rep, &sh);
	if (!o->csv)
		ptk_sink_table_begin(&o->ctx->sink, &rep->tab, false, NULL);
	for (int k = 0; k < rs->n; k++) {
		shown_vals(o, own, &rs->r[k], v);
		for (int i = 0; i < rep->tab.ncols; i++)
			pv[i] = v[sh.perm[i]];
		if (!o->csv) {
			ptk_sink_row(&o->ctx->sink, o->ctx->json ? NULL : t, pv);
			continue;
		}
		fputs(t, stdout);
		for (int i = 0; i < rep->tab.ncols; i++)
			printf(",%s",
			       ptk_metric_fmt(ptk_col(&rep->tab, i), &pv[i], buf, sizeof(buf)));
		putchar('\n');
	}
	if (!o->csv)
		ptk_sink_table_end(&o->ctx->sink);
}

static void fmt_t(const struct sar *o, s64 t_ms, char *buf, size_t size)
{
	ptk_arc_fmt_time(t_ms, o->utc, o->iso || o->csv || o->ctx->json, buf, size);
}

static void banner(const struct sar *o, const char *sys, const char *rel, const char *host,
		   const char *mach, int ncpu, s64 t_ms)
{
	if (!o->csv && !o->ctx->json)
		ptk_sysstat_banner(stdout, sys, rel, host, mach, ncpu, (time_t)(t_ms / 1000),
				   o->utc, o->iso);
}

/* a reboot between two samples: btime moved or uptime went back */
static bool restarted(const struct ptk_snap *p, const struct ptk_snap *c)
{
	s64 db = (s64)c->st.btime - (s64)p->st.btime;
	return c->up.up_s < p->up.up_s || db > 2 || db < -2;
}

static double interval_of(const struct ptk_snap *p, const struct ptk_snap *c)
{
	double itv = c->up.up_s - p->up.up_s;
	return itv > 0 ? itv : (c->t_ms - p->t_ms) / 1000.0;
}

/* The snapshot parts the reports read. */
static unsigned parts_of(const struct sar *o)
{
	unsigned m = PTK_SNAP_BIT(PTK_SNAP_STAT);

	if (o->out)
		return PTK_SNAP_ALL; /* -o stores whole samples, as ptk record */

	for (int i = 0; i < o->nrep; i++)
		m |= ptk_activities[o->rep[i]->act].parts;
	return m;
}

/* ---- the two feeds: archive and live ------------------------------------------------------ */

struct feed {
	struct sar *o; /* warned of impossible values */
	struct ptk_arc *arc;
	const struct ptk_arc_index *idx;
	int pos;
	long bad; /* samples that could not be read */
	char err[256];
};

/* Sample id of the archive into s. */
static int feed_load(const struct feed *f, s64 id, struct ptk_snap *s)
{
	int r = ptk_arc_load(f->arc, id, false, s);

	if (r == 0 && ptk_arc_impossible(f->arc)[0])
		warn_add(f->o, s, ptk_arc_impossible(f->arc));
	return r;
}

/* Next readable sample of the archive into s; -ENODATA at the end. */
static int feed_next(struct feed *f, struct ptk_snap *s)
{
	while (f->pos < f->idx->n) {
		int r = feed_load(f, f->idx->id[f->pos++], s);
		if (r == 0)
			return 0;
		f->bad++;
		if (!f->err[0])
			snprintf(f->err, sizeof(f->err), "%s", ptk_arc_errmsg(f->arc));
		return -EIO;
	}
	return -ENODATA;
}

/* One report over the archive window, text/CSV block with its Average. */
static void archive_block(struct sar *o, int ri, struct feed *f)
{
	const struct report *rep = o->rep[ri];
	struct ptk_snap s[3] = { { 0 } }; /* first, and two alternating */
	struct ptk_rows rs = { 0 };
	int cur = 1, prev = -1, first = -1, last = -1, r;
	char t[64];
	bool header = false;

	f->pos = 0;
	ptk_act_avg_free(&o->avg[ri]);
	o->restart = false;
	while ((r = feed_next(f, &s[cur])) != -ENODATA) {
		if (r) {
			prev = -1; /* a hole: the next sample starts over */
			continue;
		}
		if (first < 0) {
			/* keep the very first sample in slot 0 for the Average */
			feed_load(f, s[cur].id, &s[0]);
			first = 0;
		}
		if (prev >= 0 && restarted(&s[prev], &s[cur])) {
			fmt_t(o, s[cur].t_ms, t, sizeof(t));
			if (!o->csv)
				printf("\n%-11s     LINUX RESTART\t(%d CPU)\n", t, s[cur].st.ncpu);
			o->restart = true;
			header = false;
			prev = -1;
		}
		if (prev >= 0) {
			double itv = interval_of(&s[prev], &s[cur]);
			if (!header || ((rep->flags & RF_ITEMS) && !o->csv) ||
			    ((rep->flags & RF_CPUS) && o->want_p && !o->csv)) {
				fmt_t(o, s[prev].t_ms, t, sizeof(t));
				if (!o->csv)
					putchar('\n');
				if (!header || !o->csv)
					print_header(o, rep, t);
				header = true;
			}
			rs.n = 0;
			report_rows(o, ri, &s[prev], &s[cur], itv, &rs);
			fmt_t(o, s[cur].t_ms, t, sizeof(t));
			print_rows(o, rep, t, &rs);
			ptk_act_cpu_carry(&s[prev], &s[cur]);
			last = cur;
		}
		prev = cur;
		cur = cur == 1 ? 2 : 1;
	}
	if (last > 0 && first == 0) {
		average_rows(o, ri, &s[0], &s[last], &rs);
		if (((rep->flags & RF_ITEMS) || ((rep->flags & RF_CPUS) && o->want_p)) && !o->csv) {
			putchar('\n');
			print_header(o, rep, "Average:");
		}
		print_rows(o, rep, "Average:", &rs);
	}
	for (int i = 0; i < 3; i++)
		ptk_snap_free(&s[i]);
	ptk_rows_free(&rs);
	ptk_act_avg_free(&o->avg[ri]);
}

/* ---- the cgroup report (--cgroups): the archive's cgroup series -------------------------- */

/*
 * Its columns, sysstat's way of naming (kB = 1024 bytes, events and I/O per second, PSI as
 * -q PSI's %s/%f prefixes): the values of the per-cgroup model (model/cgroup.h) between two
 * samples. sysstat has no cgroup report; this one is ptk's.
 */
static const struct cgcol {
	const char *name;
	enum ptk_mid id;
	double div; /* shown as value / div */
	bool per_s; /* a count of the interval, shown per second */
	int width, prec;
} cgcols[] = {
	{ "%cpu", PTK_M_CG_CPU_PCT, 1, false, 7, 2 },
	{ "quota", PTK_M_CG_QUOTA, 1, false, 6, 2 },
	{ "%thr", PTK_M_CG_THR_PCT, 1, false, 7, 2 },
	{ "thrs/s", PTK_M_CG_THR_S, 1, false, 7, 2 },
	{ "memkB", PTK_M_CG_MEM, 1024, false, 10, 0 },
	{ "highkB", PTK_M_CG_MEM_HIGH, 1024, false, 10, 0 },
	{ "maxkB", PTK_M_CG_MEM_MAX, 1024, false, 10, 0 },
	{ "high/s", PTK_M_CG_EV_HIGH, 1, true, 7, 2 },
	{ "max/s", PTK_M_CG_EV_MAX, 1, true, 7, 2 },
	{ "oomk/s", PTK_M_CG_EV_OOM_KILL, 1, true, 7, 2 },
	{ "rkB/s", PTK_M_CG_RBPS, 1024, false, 9, 2 },
	{ "wkB/s", PTK_M_CG_WBPS, 1024, false, 9, 2 },
	{ "rtps", PTK_M_CG_RIOPS, 1, false, 8, 2 },
	{ "wtps", PTK_M_CG_WIOPS, 1, false, 8, 2 },
	{ "tasks", PTK_M_CG_TASKS, 1, false, 6, 0 },
	{ "%scpu", PTK_M_CG_PSI_CPU_SOME, 1, false, 6, 2 },
	{ "%smem", PTK_M_CG_PSI_MEM_SOME, 1, false, 6, 2 },
	{ "%fmem", PTK_M_CG_PSI_MEM_FULL, 1, false, 6, 2 },
	{ "%sio", PTK_M_CG_PSI_IO_SOME, 1, false, 6, 2 },
	{ "%fio", PTK_M_CG_PSI_IO_FULL, 1, false, 6, 2 },
};
#define NCGCOL ARRAY_SIZE(cgcols)

/* One cgroup's Average: each column's values weighted by their intervals' lengths. */
struct cgavg {
	char path[256];
	double sum[NCGCOL], w[NCGCOL];
};

struct cgrep {
	struct sar *o;
	struct ptk_metric cols[NCGCOL + 1];
	struct ptk_table tab;
	struct cgavg *avg; /* sorted by path */
	int navg, capavg;
};

/* Column c of row r over an interval of itv s: NAN unknown, INFINITY "max". */
static double cg_value(const struct cgcol *c, const struct ptk_cg_row *r, double itv)
{
	double x = ptk_cg_row_value(r, c->id);

	if (isnan(x) || isinf(x))
		return x;
	if (c->per_s)
		x = itv > 0 ? x / itv : NAN;
	return x / c->div;
}

static void cg_print(struct cgrep *g, const char *t, const char *path, const double *x)
{
	static char cell[NCGCOL][48];
	struct ptk_val v[NCGCOL + 1];

	for (size_t i = 0; i < NCGCOL; i++) {
		if (isnan(x[i]))
			v[i] = PTK_NA;
		else if (isinf(x[i]))
			v[i] = PTK_S("max");
		else
			v[i] = PTK_S(cell[i]),
			snprintf(cell[i], sizeof(cell[i]), "%.*f", cgcols[i].prec, x[i]);
	}
	v[NCGCOL] = PTK_S(path);
	ptk_sink_row(&g->o->ctx->sink, t, v);
}

static void cg_header(struct cgrep *g, const char *t)
{
	putchar('\n');
	ptk_sink_table_begin(&g->o->ctx->sink, &g->tab, true, t);
	ptk_sink_table_end(&g->o->ctx->sink);
}

/* The Average entry of path, added in path order when new. */
static struct cgavg *cg_avg(struct cgrep *g, const char *path)
{
	int lo = 0, hi = g->navg;

	while (lo < hi) {
		int mid = (lo + hi) / 2, c = strcmp(path, g->avg[mid].path);
		if (!c)
			return &g->avg[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (g->navg == g->capavg) {
		g->capavg = g->capavg ? 2 * g->capavg : 64;
		g->avg = xrealloc(g->avg, g->capavg * sizeof(*g->avg));
	}
	memmove(g->avg + lo + 1, g->avg + lo, (g->navg - lo) * sizeof(*g->avg));
	memset(&g->avg[lo], 0, sizeof(g->avg[lo]));
	snprintf(g->avg[lo].path, sizeof(g->avg[lo].path), "%s", path);
	g->navg++;
	return &g->avg[lo];
}

/* -z: no CPU and no I/O in the interval. */
static bool cg_idle(const double *x)
{
	static const enum ptk_mid busy[] = { PTK_M_CG_CPU_PCT, PTK_M_CG_RBPS, PTK_M_CG_WBPS };

	for (size_t i = 0; i < NCGCOL; i++)
		for (size_t k = 0; k < ARRAY_SIZE(busy); k++)
			if (cgcols[i].id == busy[k] && !isnan(x[i]) && x[i] != 0)
				return false;
	return true;
}

/*
 * The cgroup report over the archive window: per interval between two samples with
 * cgroups, a header and a row per cgroup (--cgroups=PATH: those at or under PATH; -z: those
 * with CPU or I/O), the path last; then Average rows. A sample without cgroups (recorded
 * before schema 5, or with --cgroups 0) or a restart breaks the series. Returns the
 * intervals reported.
 */
static long cgroup_block(struct sar *o, struct feed *f)
{
	struct cgrep g = { .o = o };
	struct ptk_cgsnap cg[2] = { { 0 } };
	struct ptk_cg_row *rows = NULL;
	int cur = 0, nrows = 0;
	bool have_prev = false;
	s64 prev_t = 0;
	long nitv = 0;
	char t[64];
	double x[NCGCOL];

	for (size_t i = 0; i < NCGCOL; i++) {
		g.cols[i] = ptk_registry[cgcols[i].id];
		g.cols[i].name = cgcols[i].name;
		g.cols[i].type = PTK_V_STR;
		g.cols[i].width = cgcols[i].width;
	}
	g.cols[NCGCOL] = ptk_registry[PTK_M_CG_PATH];
	g.cols[NCGCOL].name = "cgroup";
	g.cols[NCGCOL].width = 0; /* the path last, as it is */
	g.tab = (struct ptk_table){ .name = "cgroups", .cols = g.cols, .ncols = NCGCOL + 1 };
	for (int i = 0; i < f->idx->n; i++) {
		struct ptk_cgsnap *b = &cg[cur], *a = &cg[!cur];
		int r = ptk_arc_load_cg(f->arc, f->idx->id[i], b);
		if (r) {
			have_prev = false;
			continue;
		}
		if (have_prev && b->up_s > a->up_s) {
			double itv = b->up_s - a->up_s;
			if (b->n > nrows) {
				nrows = b->n;
				rows = xrealloc(rows, nrows * sizeof(*rows));
			}
			int n = ptk_cg_rows(a, b, rows);
			fmt_t(o, prev_t, t, sizeof(t));
			cg_header(&g, t);
			fmt_t(o, f->idx->t_ms[i], t, sizeof(t));
			ptk_sink_table_begin(&o->ctx->sink, &g.tab, false, NULL);
			for (int k = 0; k < n; k++) {
				const struct ptk_cg_row *row = &rows[k];
				if (o->cg_under && !ptk_cg_under(row->cur->path, o->cg_under))
					continue;
				for (size_t c = 0; c < NCGCOL; c++)
					x[c] = cg_value(&cgcols[c], row, itv);
				struct cgavg *av = cg_avg(&g, row->cur->path);
				for (size_t c = 0; c < NCGCOL; c++)
					if (!isnan(x[c])) {
						av->sum[c] += x[c] * itv;
						av->w[c] += itv;
					}
				if (!(o->zero_omit && cg_idle(x)))
					cg_print(&g, t, row->cur->path, x);
			}
			ptk_sink_table_end(&o->ctx->sink);
			nitv++;
		}
		have_prev = true;
		prev_t = f->idx->t_ms[i];
		cur = !cur;
	}
	if (nitv) {
		cg_header(&g, "Average:");
		ptk_sink_table_begin(&o->ctx->sink, &g.tab, false, NULL);
		for (int k = 0; k < g.navg; k++) {
			const struct cgavg *av = &g.avg[k];
			for (size_t c = 0; c < NCGCOL; c++)
				x[c] = av->w[c] > 0 ? av->sum[c] / av->w[c] : NAN;
			if (!(o->zero_omit && cg_idle(x)))
				cg_print(&g, "Average:", av->path, x);
		}
		ptk_sink_table_end(&o->ctx->sink);
	}
	free(rows);
	free(g.avg);
	ptk_cg_free(&cg[0]);
	ptk_cg_free(&cg[1]);
	return nitv;
}

/* JSON (archive or live) and live text: every report per interval. */
struct inter {
	struct sar *o;
	struct ptk_snap s[3];
	int cur, prev;
	struct ptk_rows rs;
	bool any;
	bool always_hdr; /* a header before every report (several reports, or item rows) */
	long n; /* intervals reported */
	const char *err; /* a report that none of the samples can make */
};

/* Does report rep show several rows (a header before each of its reports)? */
static bool multi_row(const struct sar *o, const struct report *rep)
{
	return (rep->flags & RF_ITEMS) || ((rep->flags & RF_CPUS) && o->want_p);
}

/* -x: fold the rows shown for report ri into its extremes. */
static void minmax_add(struct sar *o, int ri, const struct ptk_rows *rs)
{
	const struct report *rep = o->rep[ri];

	for (int k = 0; k < rs->n; k++) {
		const struct ptk_row *r = &rs->r[k];
		struct ptk_row *lo = ptk_rows_find(&o->xmin[ri], r->key);
		struct ptk_row *hi = ptk_rows_find(&o->xmax[ri], r->key);
		if (!lo) {
			*(lo = ptk_rows_add(&o->xmin[ri], r->key)) = *r;
			*(hi = ptk_rows_add(&o->xmax[ri], r->key)) = *r;
			continue;
		}
		for (int i = 0; i < rep->tab.ncols; i++) {
			const struct ptk_metric *m = ptk_col(&rep->tab, i);
			double v, a, b;
			if (m->type == PTK_V_STR || r->v[i].na)
				continue;
			if (lo->v[i].na) {
				lo->v[i] = hi->v[i] = r->v[i];
				continue;
			}
			v = m->type == PTK_V_F64 ? r->v[i].f : (double)r->v[i].u;
			a = m->type == PTK_V_F64 ? lo->v[i].f : (double)lo->v[i].u;
			b = m->type == PTK_V_F64 ? hi->v[i].f : (double)hi->v[i].u;
			if (v < a)
				lo->v[i] = r->v[i];
			if (v > b)
				hi->v[i] = r->v[i];
		}
	}
}

/* -x: report ri's Summary: for each item, its Minimum, Maximum and Average (rs: the
 * Average rows), each item with its own header as sysstat prints it. */
static void minmax_out(struct sar *o, int ri, const struct ptk_rows *rs)
{
	const struct report *rep = o->rep[ri];

	for (int k = 0; k < rs->n; k++) {
		const struct ptk_row *lo = ptk_rows_find(&o->xmin[ri], rs->r[k].key);
		const struct ptk_row *hi = ptk_rows_find(&o->xmax[ri], rs->r[k].key);
		struct ptk_rows one = { 0 };
		putchar('\n');
		print_header(o, rep, "Summary:");
		if (lo) {
			*ptk_rows_add(&one, lo->key) = *lo;
			print_rows(o, rep, "Minimum:", &one);
			one.n = 0;
			*ptk_rows_add(&one, hi->key) = *hi;
			print_rows(o, rep, "Maximum:", &one);
			one.n = 0;
		}
		*ptk_rows_add(&one, rs->r[k].key) = rs->r[k];
		print_rows(o, rep, "Average:", &one);
		ptk_rows_free(&one);
	}
}

/* The reports between p and c (p NULL: since boot, c's time on the header too). */
static void interval_out(struct inter *it, const struct ptk_snap *p, const struct ptk_snap *c,
			 double itv)
{
	struct sar *o = it->o;
	struct ptk_sink *sk = &o->ctx->sink;
	char t[64], t0[64];

	fmt_t(o, c->t_ms, t, sizeof(t));
	fmt_t(o, p ? p->t_ms : c->t_ms, t0, sizeof(t0));
	if (o->ctx->json) {
		ptk_sink_begin(sk);
		ptk_sink_meta_f64(sk, "time", c->t_ms / 1000.0);
		ptk_sink_meta_str(sk, "timestamp", t);
		ptk_sink_meta_f64(sk, "interval_s", round(itv * 1000) / 1000);
	}
	for (int ri = 0; ri < o->nrep; ri++) {
		const struct report *rep = o->rep[ri];
		it->rs.n = 0;
		report_rows(o, ri, p, c, itv, &it->rs);
		if (!it->rs.n && !o->ctx->json && !zero_omitted(o, rep))
			continue; /* nothing this time (no USB device plugged in): no block */
		if (!o->ctx->json && !o->csv && (it->always_hdr || !it->any)) {
			putchar('\n');
			print_header(o, rep, t0);
		} else if (o->csv && !it->any) {
			print_header(o, rep, t0);
		}
		print_rows(o, rep, t, &it->rs);
		if (o->minmax && p)
			minmax_add(o, ri, &it->rs);
	}
	if (o->ctx->json)
		ptk_sink_end(sk);
	fflush(stdout);
	it->any = true;
}

static void interval_average(struct inter *it, const struct ptk_snap *first,
			     const struct ptk_snap *last)
{
	struct sar *o = it->o;
	struct ptk_sink *sk = &o->ctx->sink;

	if (o->ctx->json) {
		ptk_sink_begin(sk);
		ptk_sink_meta_str(sk, "timestamp", "Average");
		ptk_sink_meta_f64(sk, "interval_s", round(interval_of(first, last) * 1000) / 1000);
	}
	for (int ri = 0; ri < o->nrep; ri++) {
		const struct report *rep = o->rep[ri];
		const char *t = "Average:";
		if (rep->flags & RF_SUMMARY) {
			/* items, not a mean: those of the last sample (sysstat's "Summary:") */
			o->act_rows.n = 0;
			ptk_activities[rep->act].rows(first, last, 0, &o->aopts, &o->act_rows);
			pick_rows(o, rep, &it->rs);
			t = "Summary:";
			if (!it->rs.n && !o->ctx->json)
				continue;
		} else {
			average_rows(o, ri, first, last, &it->rs);
			if (!it->rs.n && !o->ctx->json && !zero_omitted(o, rep))
				continue;
			if (o->minmax && !o->csv && !o->ctx->json) {
				minmax_out(o, ri, &it->rs);
				continue;
			}
		}
		if (it->always_hdr && !o->csv && !o->ctx->json) {
			putchar('\n');
			print_header(o, rep, t);
		}
		print_rows(o, rep, t, &it->rs);
	}
	if (o->ctx->json)
		ptk_sink_end(sk);
}

static int read_live(struct inter *it, struct ptk_snap *s)
{
	struct sar *o = it->o;
	struct ptk_ctx *ctx = o->ctx;
	int r = ptk_snap_read(&ctx->src, s, parts_of(o));

	if (r) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, s->err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (o->out) {
		s->nproc = 0;
		if (ptk_arc_write(o->out, s, o->out_prev, NULL, 0)) {
			if (!o->out_fail++)
				ptk_warn("-o: sample not stored: %s", ptk_arc_errmsg(o->out));
			o->out_prev = 0;
		} else {
			o->out_prev = s->id;
		}
	}
	return 0;
}

static int live_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct inter *it = arg;
	int slot = i == 0 ? 0 : it->cur, r;

	(void)ctx;
	if (i == 0)
		return 0; /* the first sample was read for the banner */
	if ((r = read_live(it, &it->s[slot])))
		return r;
	const struct ptk_snap *p = it->prev < 0 ? &it->s[0] : &it->s[it->prev];
	interval_out(it, p, &it->s[slot], itv > 0 ? itv : interval_of(p, &it->s[slot]));
	ptk_act_cpu_carry(p, &it->s[slot]);
	it->n++;
	it->prev = slot;
	it->cur = slot == 1 ? 2 : 1;
	return 0;
}

/* ---- options ------------------------------------------------------------------------------- */

static const char usage[] =
	"usage: ptk sar [-A] [-B] [-b] [-d] [-F [MOUNT]] [-H] [-I [SUM|ALL]] [-m KEYWORD[,...]]\n"
	"               [-n KEYWORD[,...]] [-P ALL|cpu-list] [-p] [-q [KEYWORD[,...]]] [-r [ALL]]\n"
	"               [-S] [-u [ALL]] [-V] [-v] [-W] [-w] [-x] [-y] [-z] [--dec=0|1|2]\n"
	"               [--dev=LIST] [--fs=LIST] [--iface=LIST] [--int=LIST] [--pretty] [--psi]\n"
	"               [--cgroups[=PATH]]\n"
	"               [-f [FILE] | -o [FILE]] [-i SECS] [-s HH:MM[:SS]] [-e HH:MM[:SS]]\n"
	"               [--from DATETIME --to DATETIME] [--db FILE] [--utc] [--iso]\n"
	"               [--json|--csv] [interval [count]]\n"
	"Reports from the 'ptk record' archive (default " PTK_ARC_DEFAULT_DB ") in sysstat sar's\n"
	"layouts and column names, with Average lines. With interval [count] it samples live\n"
	"(interval 0: one report since boot).\n"
	"  -u [ALL]   CPU utilization (ALL: %usr %sys %irq %soft %guest %gnice)\n"
	"  -P LIST    per CPU as well (ALL, or CPUs such as 0,2-3)\n"
	"  -r [ALL]   memory        -S  swap space       -b  I/O totals    -d  block devices\n"
	"  -B         paging        -W  swapping         -w  task creation and context switches\n"
	"  -H         huge pages    -v  kernel tables    -y  serial lines  -F  filesystems\n"
	"  -I [SUM|ALL]  interrupts per second (SUM: their total; ALL, the default: each too)\n"
	"  -m CPU|FREQ|USB|ALL  CPU clock, its weighted average, USB devices\n"
	"  -n DEV|EDEV|NFS|NFSD|SOCK|IP|EIP|ICMP|EICMP|TCP|ETCP|UDP|SOCK6|IP6|EIP6|ICMP6|EICMP6|\n"
	"     UDP6|FC|SOFT|ALL  interfaces, their errors, NFS, sockets, IP, ICMP, TCP, UDP (v4,\n"
	"     v6), Fibre Channel, softnet\n"
	"  -q [LOAD|CPU|IO|MEM|PSI|ALL]    run queue and load averages (LOAD, the default);\n"
	"             pressure stall of CPU, I/O, memory (PSI: the three; --psi too)\n"
	"  -A         every report, per CPU\n"
	"  -x         each item's minimum and maximum too    -z  items without activity left out\n"
	"  --cgroups[=PATH]  per cgroup (ptk's; sysstat has none): %cpu, CPU quota, %thr of the\n"
	"             CFS periods throttled, memory and its high/max limits (kB), memory.events\n"
	"             high/max/oom_kill per second, I/O, tasks, own pressure, the path last;\n"
	"             from the archive only; PATH: the cgroups at or under it; -z: with CPU or I/O\n"
	"  -p, --pretty  device, interface and interrupt names last\n"
	"  --dev, --iface, --fs, --int LIST  the devices, interfaces, filesystems, interrupts shown\n"
	"  -f [FILE]  the archive to read (as --db)    -o [FILE]  live samples stored there too\n"
	"  -i SECS    from the archive, samples at least SECS apart\n"
	"  -s, -e     start/end time of day (on the day of --from, else of the last sample)\n"
	"  --from, --to  'YYYY-MM-DD HH:MM[:SS]', ISO 8601 with a zone, '@EPOCH', '-2h'\n"
	"  --utc      show (and read) times in UTC instead of local time; --iso: ISO 8601\n"
	"Without an option, -u. Times are stored in UTC: any TZ reads an archive correctly.\n";

enum {
	OPT_DB = 0x100,
	OPT_PSI,
	OPT_FROM,
	OPT_TO,
	OPT_UTC,
	OPT_ISO,
	OPT_CSV,
	OPT_DEC,
	OPT_DEV,
	OPT_IFACE,
	OPT_FS,
	OPT_INT,
	OPT_PRETTY,
	OPT_CGROUPS,
};

/* The keywords of an option, each a report (or several). */
struct kw {
	const char *kw;
	int rep[4];
	int n;
};

/* KEYWORD[,KEYWORD...] of option opt into want[] (ALL: every keyword). 0, or -1 after a
 * usage error naming the keyword. */
static int keywords(struct ptk_ctx *ctx, char opt, const char *arg, const struct kw *kws,
		    size_t nkw, bool *want)
{
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0;

	for (char *w = strtok_r(dup, ",", &save); w && !r; w = strtok_r(NULL, ",", &save)) {
		bool all = !strcmp(w, "ALL"), found = all;

		for (size_t k = 0; k < nkw; k++) {
			if (!all && strcmp(w, kws[k].kw))
				continue;
			for (int i = 0; i < kws[k].n; i++)
				want[kws[k].rep[i]] = true;
			found = true;
		}
		if (!found) {
			ptk_usage_error(ctx, "invalid -%c keyword '%s' in '%s'", opt, w, arg);
			r = -1;
		}
	}
	free(dup);
	return r;
}

static const struct kw net_kws[] = {
	{ "DEV", { R_NDEV }, 1 },    { "EDEV", { R_EDEV }, 1 },	    { "NFS", { R_NFS }, 1 },
	{ "NFSD", { R_NFSD }, 1 },   { "SOCK", { R_SOCK }, 1 },	    { "IP", { R_IP }, 1 },
	{ "EIP", { R_EIP }, 1 },     { "ICMP", { R_ICMP }, 1 },	    { "EICMP", { R_EICMP }, 1 },
	{ "TCP", { R_TCP }, 1 },     { "ETCP", { R_ETCP }, 1 },	    { "UDP", { R_UDP }, 1 },
	{ "SOCK6", { R_SOCK6 }, 1 }, { "IP6", { R_IP6 }, 1 },	    { "EIP6", { R_EIP6 }, 1 },
	{ "ICMP6", { R_ICMP6 }, 1 }, { "EICMP6", { R_EICMP6 }, 1 }, { "UDP6", { R_UDP6 }, 1 },
	{ "FC", { R_FC }, 1 },	     { "SOFT", { R_SOFT }, 1 },
};
static const struct kw q_kws[] = {
	{ "LOAD", { R_Q }, 1 },
	{ "CPU", { R_PSIC }, 1 },
	{ "IO", { R_PSII }, 1 },
	{ "MEM", { R_PSIM }, 1 },
	{ "PSI", { R_PSIC, R_PSII, R_PSIM }, 3 },
};
static const struct kw m_kws[] = {
	{ "CPU", { R_PWR_CPU }, 1 },
	{ "FREQ", { R_PWR_FREQ }, 1 },
	{ "USB", { R_USB }, 1 },
};

/* Is argv[optind] one of kws' keywords (or ALL): the optional argument of -q, -u, -r? */
/* The word after an option whose argument is optional (-f, -o FILE; -I SUM|ALL): the next
 * argument unless it is an option or a number (the interval), consumed; else NULL. */
static const char *optional_word(int argc, char **argv)
{
	const char *w = optind < argc ? argv[optind] : NULL;

	if (!w || !*w || *w == '-' || strspn(w, "0123456789") == strlen(w))
		return NULL;
	optind++;
	return w;
}

static bool next_is_keyword(int argc, char **argv, const struct kw *kws, size_t nkw)
{
	const char *w = optind < argc ? argv[optind] : NULL;

	if (!w || !*w || *w == '-' || (*w >= '0' && *w <= '9'))
		return false;
	if (!strcmp(w, "ALL"))
		return true;
	for (size_t k = 0; k < nkw; k++) {
		const char *comma = strchr(w, ',');
		size_t len = comma ? (size_t)(comma - w) : strlen(w);
		if (strlen(kws[k].kw) == len && !strncmp(w, kws[k].kw, len))
			return true;
	}
	/* a word that is no interval: a keyword, bad or not (sar -q FOO is an error) */
	return true;
}

static void add_rep(struct sar *o, int r)
{
	for (int i = 0; i < o->nrep; i++)
		if (o->rep[i] == &reports[r])
			return;
	if (o->nrep < (int)ARRAY_SIZE(o->rep))
		o->rep[o->nrep++] = &reports[r];
}

/* The CPUs of a tree: the highest of /proc/stat, the online list and the cpuN directories. */
static int count_cpus(struct ptk_ctx *ctx, const struct ptk_snap *s)
{
	int n = MAX(s->st.ncpu, s->online_n), r = ptk_cpu_count_read(&ctx->src);

	return MIN(MAX(n, r), SAR_MAX_CPUS);
}

/* Leave out the reports of pressure stall or of items whose files sample s lacks (sar -q ALL
 * on a kernel without PSI: the load report alone, as sysstat), naming them in o->missing.
 * A report of counters whose file is missing (-n NFS without NFS) stays, its values
 * unknown: sysstat prints its zeros. Returns true when none is left: sysstat's "Requested
 * activities not available". */
static bool drop_unavailable(struct sar *o, const struct ptk_snap *s)
{
	int k = 0;

	o->missing[0] = '\0';
	for (int i = 0; i < o->nrep; i++) {
		const struct report *rep = o->rep[i];
		unsigned need = ptk_activities[rep->act].parts & ~PTK_SNAP_BIT(PTK_SNAP_STAT);
		bool optional = (rep->flags & RF_ITEMS) || rep->act == PTK_ACT_PSI_CPU ||
				rep->act == PTK_ACT_PSI_IO || rep->act == PTK_ACT_PSI_MEM;
		if (optional && need && (s->read & need) != need) {
			size_t l = strlen(o->missing);
			snprintf(o->missing + l, sizeof(o->missing) - l, "%s%s", l ? ", " : "",
				 o->rep[i]->tab.name);
			continue;
		}
		o->rep[k++] = o->rep[i];
	}
	o->nrep = k;
	return k == 0;
}

int cmd_sar(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "psi", no_argument, NULL, OPT_PSI },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "utc", no_argument, NULL, OPT_UTC },
		{ "iso", no_argument, NULL, OPT_ISO },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "dec", required_argument, NULL, OPT_DEC },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "iface", required_argument, NULL, OPT_IFACE },
		{ "fs", required_argument, NULL, OPT_FS },
		{ "int", required_argument, NULL, OPT_INT },
		{ "pretty", no_argument, NULL, OPT_PRETTY },
		{ "cgroups", optional_argument, NULL, OPT_CGROUPS },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	static const struct kw u_kws[] = { { "ALL", { R_CPUALL }, 1 } };
	struct sar o = { .ctx = ctx, .dec = -1 };
	const char *db = NULL, *s_opt = NULL, *e_opt = NULL, *from_s = NULL, *to_s = NULL;
	const char *p_arg = NULL, *save = NULL;
	double sel_itv = 0;
	bool want_u = false, all_u = false, since_boot = false;
	bool want[R_N] = { 0 };
	double interval = 0;
	long count = -1;
	bool has_itv = false;
	int c, r = 0;

	while ((c = ptk_getopt(ctx, argc, argv, "AbBdf::FHI::i:m:n:o::P:pqrSuVvWwxys:e:z", opts,
			       usage, &r)) >= 0) {
		switch (c) {
		case 'A':
			/* -bBdFHSvwWy -I ALL -m CPU,FREQ,USB -n ALL -q ALL -r ALL -u ALL -P ALL */
			want_u = all_u = true;
			p_arg = "ALL";
			for (int i = 0; i < R_N; i++)
				want[i] = i != R_CPU && i != R_CPUALL && i != R_MEM;
			o.irq_all = true;
			break;
		case 'u':
			want_u = true;
			/* "-u ALL": the keyword is the next word */
			if (next_is_keyword(argc, argv, u_kws, ARRAY_SIZE(u_kws))) {
				if (strcmp(argv[optind], "ALL"))
					return ptk_usage_error(ctx, "invalid -u keyword '%s' (ALL)",
							       argv[optind]);
				optind++;
				all_u = true;
			}
			break;
		case 'P':
			p_arg = optarg;
			break;
		case 'r':
			want[R_MEM] = true;
			if (next_is_keyword(argc, argv, u_kws, ARRAY_SIZE(u_kws))) {
				if (strcmp(argv[optind], "ALL"))
					return ptk_usage_error(ctx, "invalid -r keyword '%s' (ALL)",
							       argv[optind]);
				optind++;
				want[R_MEMALL] = true;
			}
			break;
		case 'b':
			want[R_IO] = true;
			break;
		case 'd':
			want[R_DEV] = true;
			break;
		case 'F':
			/* -F [MOUNT]: mount points rather than devices */
			want[R_FS] = true;
			if (optind < argc && !strcmp(argv[optind], "MOUNT")) {
				optind++;
				o.aopts.fs_mount = true;
			}
			break;
		case 'H':
			want[R_HUGE] = true;
			break;
		case 'I': {
			/* -I [SUM|ALL|irq,...]: ALL without a word, as sysstat */
			const char *w = optarg ? optarg : optional_word(argc, argv);
			if (!w || !strcmp(w, "ALL"))
				o.irq_all = true;
			else if (!strcmp(w, "SUM"))
				o.irq_sum = true;
			else
				o.int_list = w;
			want[R_IRQ] = true;
			break;
		}
		case OPT_INT:
			/* --int=LIST: which interrupts -I ALL and -I SUM show */
			o.int_list = optarg;
			break;
		case 'f':
			/* -f [FILE]: an archive ptk record wrote (sysstat's sa files are not read) */
			db = optarg ? optarg : optional_word(argc, argv);
			if (!db)
				db = PTK_ARC_DEFAULT_DB;
			break;
		case 'o':
			/* -o [FILE]: the samples into an archive too, as ptk record stores them */
			save = optarg ? optarg : optional_word(argc, argv);
			if (!save)
				save = PTK_ARC_DEFAULT_DB;
			break;
		case 'i':
			if (ptk_parse_double(optarg, &sel_itv) || !(sel_itv > 0) || sel_itv > 1e9)
				return ptk_usage_error(
					ctx, "invalid -i interval '%s' (seconds > 0)", optarg);
			break;
		case 'z':
			o.zero_omit = true;
			break;
		case 'p':
		case OPT_PRETTY:
			o.pretty = true;
			break;
		case OPT_DEV:
			o.dev_list = optarg;
			break;
		case OPT_IFACE:
			o.iface_list = optarg;
			break;
		case OPT_FS:
			o.fs_list = optarg;
			break;
		case 'V':
			printf("ptk sar (ptk %s), as sysstat sar 12.7\n", PTK_VERSION);
			return 0;
		case 'm':
			if (keywords(ctx, 'm', optarg, m_kws, ARRAY_SIZE(m_kws), want))
				return PTK_EXIT_USAGE;
			break;
		case 'n':
			if (keywords(ctx, 'n', optarg, net_kws, ARRAY_SIZE(net_kws), want))
				return PTK_EXIT_USAGE;
			break;
		case 'S':
			want[R_SWS] = true;
			break;
		case 'q':
			if (next_is_keyword(argc, argv, q_kws, ARRAY_SIZE(q_kws))) {
				if (keywords(ctx, 'q', argv[optind], q_kws, ARRAY_SIZE(q_kws),
					     want))
					return PTK_EXIT_USAGE;
				optind++;
			} else {
				want[R_Q] = true;
			}
			break;
		case 'v':
			want[R_KTABLES] = true;
			break;
		case 'w':
			want[R_W] = true;
			break;
		case 'W':
			want[R_SW] = true;
			break;
		case 'B':
			want[R_PG] = true;
			break;
		case 'x':
			o.minmax = true;
			break;
		case 'y':
			want[R_SERIAL] = true;
			break;
		case 's':
			s_opt = optarg;
			break;
		case 'e':
			e_opt = optarg;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_PSI:
			want[R_PSIC] = want[R_PSII] = want[R_PSIM] = true;
			break;
		case OPT_FROM:
			from_s = optarg;
			break;
		case OPT_TO:
			to_s = optarg;
			break;
		case OPT_UTC:
			o.utc = true;
			break;
		case OPT_ISO:
			o.iso = true;
			break;
		case OPT_CSV:
			o.csv = true;
			break;
		case OPT_CGROUPS:
			if (optarg && optarg[0] != '/')
				return ptk_usage_error(
					ctx,
					"invalid --cgroups path '%s' (a cgroup: /, /system.slice)",
					optarg);
			o.cgroups = true;
			o.cg_under = optarg;
			break;
		case OPT_DEC:
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2')
				return ptk_usage_error(ctx, "invalid --dec value '%s' (0, 1 or 2)",
						       optarg);
			o.dec = optarg[0] - '0';
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (o.csv && ctx->json)
		return ptk_usage_error(ctx, "--json and --csv exclude each other");
	/* "0" alone: one report since boot, as sysstat */
	if (argc - optind == 1 && !strcmp(argv[optind], "0")) {
		optind++;
		since_boot = has_itv = true;
	} else if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv))) {
		return r;
	}
	if (has_itv && (db || from_s || to_s || s_opt || e_opt))
		return ptk_usage_error(ctx, "interval/count samples live: no --db, --from, -s, -e");
	o.want_p = p_arg != NULL;
	if (o.cgroups && has_itv)
		return ptk_usage_error(ctx, "--cgroups reads the archive ('ptk record' stores the "
					    "cgroups): no interval");
	if (o.cgroups && (ctx->json || o.csv))
		return ptk_usage_error(ctx, "--cgroups prints text: not with --json or --csv");
	{
		bool any = want_u || o.want_p || o.cgroups;
		for (int i = 0; i < R_N; i++)
			any |= want[i];
		if (!any)
			want_u = true; /* as sar: -u by default */
	}
	if (want_u || o.want_p)
		want[all_u ? R_CPUALL : R_CPU] = true;
	if (want[R_MEMALL])
		want[R_MEM] = false;
	for (int i = 0; i < R_N; i++)
		if (want[i])
			add_rep(&o, i);
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	ctx->sink.prefix_width = 11;
	if (o.iso || o.csv)
		ctx->sink.prefix_width = 26;

	struct inter it = { .o = &o, .cur = 1, .prev = -1 };
	o.cpu_sel = xcalloc(SAR_MAX_CPUS + 1, sizeof(bool));
	o.aopts.per_cpu = o.want_p;
	o.aopts.cpu_sum = true;
	if (save && (!has_itv || since_boot)) {
		r = ptk_usage_error(ctx, "-o stores live samples: it needs an interval");
		goto out_free;
	}
	if (save) {
		char err[PATH_MAX + 256];
		if (!(o.out = ptk_arc_open(save, PTK_ARC_RDWR, err, sizeof(err)))) {
			ptk_err("-o: %s", err);
			r = PTK_EXIT_RUNTIME;
			goto out_free;
		}
		ptk_arc_set_host_meta(o.out);
	}
	if (has_itv) {
		/* live (or a replayed tree): the banner is the tree's machine */
		if ((r = read_live(&it, &it.s[0])))
			goto out_free;
		o.aopts.ncpu = count_cpus(ctx, &it.s[0]);
		if (p_arg && strcmp(p_arg, "ALL")) {
			bool *mask = xcalloc(o.aopts.ncpu + 1, sizeof(bool));
			int hi = ptk_parse_cpulist(p_arg, mask, o.aopts.ncpu + 1);
			for (int i = 0; i < o.aopts.ncpu; i++)
				o.cpu_sel[i + 1] = mask[i];
			free(mask);
			if (hi <= 0 || hi > o.aopts.ncpu) {
				r = ptk_usage_error(ctx,
						    "invalid -P value '%s' (CPUs 0 to %d, ALL)",
						    p_arg, o.aopts.ncpu - 1);
				goto out_free;
			}
		} else {
			for (int i = 0; i <= SAR_MAX_CPUS; i++)
				o.cpu_sel[i] = true;
		}
		if (drop_unavailable(&o, &it.s[0])) {
			ptk_err("requested activities not available in %s: their files are "
				"missing (%s)",
				ctx->procfs ? ctx->procfs : "/proc", o.missing);
			r = PTK_EXIT_RUNTIME;
			goto out_free;
		}
		it.always_hdr = o.nrep > 1;
		for (int i = 0; i < o.nrep; i++)
			it.always_hdr |= multi_row(&o, o.rep[i]);
		if (!ctx->json && !o.csv)
			ptk_ctx_banner(ctx, o.aopts.ncpu);
		if (since_boot) {
			interval_out(&it, NULL, &it.s[0], it.s[0].up.up_s);
			r = 0;
			goto out_free;
		}
		r = ptk_loop(ctx, interval, count, live_sample, &it);
		if (r == -EINTR || r == 0) {
			/* stopped before the count (Ctrl-C, or a replay's samples ran out): sysstat
			 * ends the "^C" line the terminal echoed */
			if ((r == -EINTR || count < 0 || it.n < count) && it.n && !ctx->json &&
			    !o.csv)
				putchar('\n');
			if (it.any)
				interval_average(&it, &it.s[0], &it.s[it.prev]);
			r = 0;
		}
		goto out_free;
	}

	/* archive */
	char err[PATH_MAX + 256], meta[6][128];
	struct ptk_arc_index idx = { 0 };
	struct feed f = { 0 };
	s64 from = INT64_MIN, to = INT64_MAX;
	for (int i = 0; i <= SAR_MAX_CPUS; i++)
		o.cpu_sel[i] = !p_arg || !strcmp(p_arg, "ALL");
	if (p_arg && strcmp(p_arg, "ALL")) {
		int hi = ptk_parse_cpulist(p_arg, o.cpu_sel + 1, SAR_MAX_CPUS);
		if (hi <= 0) {
			r = ptk_usage_error(ctx, "invalid -P value '%s' (CPU numbers, ALL)", p_arg);
			goto out_free;
		}
	}
	if (!db)
		db = PTK_ARC_DEFAULT_DB;
	struct ptk_arc *arc = ptk_arc_open(db, PTK_ARC_RDONLY, err, sizeof(err));
	if (!arc) {
		ptk_err("%s", err);
		r = PTK_EXIT_RUNTIME;
		goto out_free;
	}
	r = 0;
	if ((from_s && ptk_arc_parse_time(from_s, o.utc, 0, &from)) ||
	    (to_s && ptk_arc_parse_time(to_s, o.utc, 0, &to))) {
		r = ptk_usage_error(ctx, "invalid --from/--to time");
		goto out_close_arc;
	}
	if (ptk_arc_list(arc, from, to, &idx) < 0) {
		ptk_err("%s: %s", db, ptk_arc_errmsg(arc));
		r = PTK_EXIT_RUNTIME;
		goto out_close_arc;
	}
	if (s_opt || e_opt || (!from_s && !to_s)) {
		/* times of day on one day: that of --from, else of the last sample */
		s64 ref = from_s ? from : idx.n ? idx.t_ms[idx.n - 1] : ptk_snap_now_ms();
		s64 day0, s = INT64_MIN, e = INT64_MAX;
		if (ptk_arc_parse_time("00:00:00", o.utc, ref, &day0) ||
		    (s_opt && ptk_arc_parse_time(s_opt, o.utc, ref, &s)) ||
		    (e_opt && ptk_arc_parse_time(e_opt, o.utc, ref, &e))) {
			r = ptk_usage_error(ctx, "invalid -s/-e time (HH:MM[:SS])");
			goto out_close_arc;
		}
		if (e_opt)
			e += 999; /* -e HH:MM:SS takes the whole second */
		if (!s_opt && !from_s)
			s = day0;
		if (!e_opt && !to_s)
			e = day0 + 86400000LL + 3600000LL; /* to the end of the day (DST-safe) */
		int k = 0;
		for (int i = 0; i < idx.n; i++)
			if (idx.t_ms[i] >= s && idx.t_ms[i] <= e && idx.t_ms[i] >= from &&
			    idx.t_ms[i] <= to) {
				idx.id[k] = idx.id[i];
				idx.t_ms[k++] = idx.t_ms[i];
			}
		idx.n = k;
	}
	if (sel_itv > 0) {
		/* -i: the samples at least the interval apart (5 % early still counts) */
		int k = 0;
		for (int i = 0; i < idx.n; i++)
			if (!k || idx.t_ms[i] - idx.t_ms[k - 1] >= sel_itv * 950) {
				idx.id[k] = idx.id[i];
				idx.t_ms[k++] = idx.t_ms[i];
			}
		idx.n = k;
	}
	ptk_arc_meta(arc, "sysname", meta[0], sizeof(meta[0]));
	ptk_arc_meta(arc, "release", meta[1], sizeof(meta[1]));
	ptk_arc_meta(arc, "hostname", meta[2], sizeof(meta[2]));
	ptk_arc_meta(arc, "machine", meta[3], sizeof(meta[3]));
	ptk_arc_meta(arc, "ncpu", meta[4], sizeof(meta[4]));
	f.o = &o;
	o.aopts.ncpu = 0; /* every CPU a sample lists */
	it.always_hdr = o.nrep > 1;
	for (int i = 0; i < o.nrep; i++)
		it.always_hdr |= multi_row(&o, o.rep[i]);
	f.arc = arc;
	int ncpu;
	if (ptk_parse_int(meta[4], &ncpu) || ncpu < 1 || ncpu > PTK_MAX_CPUS) {
		/* the CPUs of the first sample instead */
		ncpu = 0;
		if (idx.n && ptk_arc_load(arc, idx.id[0], false, &it.s[0]) == 0)
			for (int i = 0; i < it.s[0].st.ncpu; i++)
				ncpu += it.s[0].st.present[i];
		ptk_warn("%s: meta ncpu '%s' is impossible: %d CPU%s, as the first sample has", db,
			 meta[4], ncpu, ncpu == 1 ? "" : "s");
	}
	banner(&o, meta[0][0] ? meta[0] : "Linux", meta[1], meta[2], meta[3], ncpu,
	       idx.n ? idx.t_ms[0] : ptk_snap_now_ms());
	f.idx = &idx;
	if (ctx->json) {
		/* interleaved: one object per interval with every report */
		int slot = 1, prev = -1, first = -1, last = -1;
		while ((r = feed_next(&f, &it.s[slot])) != -ENODATA) {
			if (r) {
				prev = -1;
				continue;
			}
			if (first < 0) {
				feed_load(&f, it.s[slot].id, &it.s[0]);
				first = 0;
			}
			if (prev >= 0 && restarted(&it.s[prev], &it.s[slot])) {
				o.restart = true;
				prev = -1;
			}
			if (prev >= 0) {
				interval_out(&it, &it.s[prev], &it.s[slot],
					     interval_of(&it.s[prev], &it.s[slot]));
				ptk_act_cpu_carry(&it.s[prev], &it.s[slot]);
				last = slot;
			}
			prev = slot;
			slot = slot == 1 ? 2 : 1;
		}
		if (last > 0)
			interval_average(&it, &it.s[0], &it.s[last]);
		r = 0;
	} else {
		for (int ri = 0; ri < o.nrep; ri++)
			archive_block(&o, ri, &f);
		r = 0;
		if (o.cgroups && !cgroup_block(&o, &f) && idx.n >= 2) {
			ptk_err("%s: no two consecutive samples with cgroups in the window (recorded "
				"before archive version 5, or with --cgroups 0)",
				db);
			r = PTK_EXIT_RUNTIME;
		}
	}
	fflush(stdout);
	warn_flush(&o);
	if (idx.damaged || f.bad) {
		ptk_err("%s: %s: %ld of %d listed samples unreadable%s; printed what could be read",
			db, f.err[0] ? f.err : ptk_arc_errmsg(arc), f.bad / MAX(o.nrep, 1), idx.n,
			idx.damaged ? ", samples past the damage may be missing" : "");
		r = PTK_EXIT_RUNTIME;
	} else if (idx.n < 2 && !ctx->json) {
		ptk_err("%s: %d sample(s) in the window: nothing to report", db, idx.n);
		r = PTK_EXIT_RUNTIME;
	}
out_close_arc:
	ptk_arc_index_free(&idx);
	ptk_arc_close(arc);
out_free:
	for (int i = 0; i < 3; i++)
		ptk_snap_free(&it.s[i]);
	for (int i = 0; i < o.nrep; i++) {
		ptk_act_avg_free(&o.avg[i]);
		ptk_rows_free(&o.xmin[i]);
		ptk_rows_free(&o.xmax[i]);
	}
	ptk_rows_free(&it.rs);
	ptk_rows_free(&o.act_rows);
	free(o.cpu_sel);
	if (o.out) {
		if (o.out_fail) {
			ptk_err("-o: %ld sample(s) could not be stored: %s", o.out_fail,
				ptk_arc_errmsg(o.out));
			r = r ? r : PTK_EXIT_RUNTIME;
		}
		ptk_arc_close(o.out);
	}
	return r;
}
