// SPDX-License-Identifier: GPL-2.0
/*
 * ptk sar: reports from the `ptk record` archive (or live, with "interval count") in sysstat
 * sar's layouts and column names, with Average lines. Every report is a function of two
 * consecutive samples (struct ptk_snap, the same struct live and recorded), computed
 * with the shared delta model.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/delta.h"
#include "output/archive.h"

#define MAXCOL 12
#define MAXROWS 512

struct row {
	char key[64]; /* entity (CPU, device, interface); "" for single-row reports */
	struct ptk_val v[MAXCOL];
};
struct rows {
	int n;
	struct row r[MAXROWS];
};

struct sar;
typedef void (*row_fn)(const struct sar *o, const struct ptk_snap *p,
		       const struct ptk_snap *c, double itv, struct rows *out);

struct report {
	const struct ptk_table *tab;
	row_fn fn;
	u64 mean_cols; /* bit i: column i is a level (Average = mean of rows), else a rate */
	bool keyed; /* column 0 is the entity */
};

struct acc {
	char key[64];
	double sum[MAXCOL], wsum[MAXCOL], w;
	long n;
};

struct sar {
	struct ptk_ctx *ctx;
	bool all_u, percpu, utc, iso, csv;
	double hz;
	const struct report *rep[16];
	int nrep;
	struct acc *acc[16];
	int nacc[16];
	bool restart; /* a reboot inside the window: Average from rows */
};

static struct row *row_new(struct rows *out, const char *key)
{
	if (out->n >= MAXROWS)
		return NULL;
	struct row *r = &out->r[out->n++];
	snprintf(r->key, sizeof(r->key), "%s", key);
	memset(r->v, 0, sizeof(r->v));
	return r;
}

#define PCT_COL(n, k, h)                                 \
	{                                                \
		n, k, "%", PTK_GAUGE, PTK_V_F64, 9, 2, h \
	}
#define RATE_COL(n, k, u, h)                           \
	{                                              \
		n, k, u, PTK_GAUGE, PTK_V_F64, 9, 2, h \
	}
#define KB_COL(n, k, h)                                   \
	{                                                 \
		n, k, "kB", PTK_GAUGE, PTK_V_U64, 9, 0, h \
	}

/* ---- -u, -u ALL, -P ALL ------------------------------------------------------------------ */

static const struct ptk_metric cpu_cols[] = {
	{ "CPU", "cpu", "", PTK_GAUGE, PTK_V_STR, 7, 0, "CPU number or 'all'" },
	PCT_COL("%user", "user_pct", "user + guest ticks share (/proc/stat user)"),
	PCT_COL("%nice", "nice_pct", "nice + guest_nice ticks share (/proc/stat nice)"),
	PCT_COL("%system", "system_pct", "system + irq + softirq share (/proc/stat)"),
	PCT_COL("%iowait", "iowait_pct", "idle with I/O outstanding (/proc/stat iowait)"),
	PCT_COL("%steal", "steal_pct", "involuntary wait under a hypervisor (/proc/stat steal)"),
	PCT_COL("%idle", "idle_pct", "idle without I/O outstanding (/proc/stat idle)"),
};
static const struct ptk_table cpu_tab = { "cpu", cpu_cols, ARRAY_SIZE(cpu_cols) };
static const struct ptk_metric cpuall_cols[] = {
	{ "CPU", "cpu", "", PTK_GAUGE, PTK_V_STR, 7, 0, "CPU number or 'all'" },
	PCT_COL("%usr", "usr_pct", "user without guest (/proc/stat user - guest)"),
	PCT_COL("%nice", "nice_pct", "nice without guest_nice (/proc/stat nice - guest_nice)"),
	PCT_COL("%sys", "sys_pct", "kernel time (/proc/stat system)"),
	PCT_COL("%iowait", "iowait_pct", "idle with I/O outstanding (/proc/stat iowait)"),
	PCT_COL("%steal", "steal_pct", "involuntary wait under a hypervisor (/proc/stat steal)"),
	PCT_COL("%irq", "irq_pct", "hard interrupts (/proc/stat irq)"),
	PCT_COL("%soft", "soft_pct", "softirqs (/proc/stat softirq)"),
	PCT_COL("%guest", "guest_pct", "running a guest vCPU (/proc/stat guest)"),
	PCT_COL("%gnice", "gnice_pct", "running a niced guest (/proc/stat guest_nice)"),
	PCT_COL("%idle", "idle_pct", "idle without I/O outstanding (/proc/stat idle)"),
};
static const struct ptk_table cpuall_tab = { "cpu", cpuall_cols, ARRAY_SIZE(cpuall_cols) };

static void cpu_row(const struct sar *o, struct rows *out, const char *key,
		    const struct ptk_cpu_times *a, const struct ptk_cpu_times *b)
{
	double p[PTK_CPU_NSTATES];
	struct row *r = row_new(out, key);

	if (!r)
		return;
	ptk_cpu_pct(a, b, p);
	r->v[0] = PTK_S(r->key);
	if (o->all_u) {
		double v[] = { MAX(p[PTK_CPU_USER] - p[PTK_CPU_GUEST], 0),
			       MAX(p[PTK_CPU_NICE] - p[PTK_CPU_GUEST_NICE], 0),
			       p[PTK_CPU_SYSTEM],
			       p[PTK_CPU_IOWAIT],
			       p[PTK_CPU_STEAL],
			       p[PTK_CPU_IRQ],
			       p[PTK_CPU_SOFTIRQ],
			       p[PTK_CPU_GUEST],
			       p[PTK_CPU_GUEST_NICE],
			       p[PTK_CPU_IDLE] };
		for (size_t i = 0; i < ARRAY_SIZE(v); i++)
			r->v[1 + i] = PTK_F(v[i]);
	} else {
		double v[] = { p[PTK_CPU_USER],
			       p[PTK_CPU_NICE],
			       p[PTK_CPU_SYSTEM] + p[PTK_CPU_IRQ] + p[PTK_CPU_SOFTIRQ],
			       p[PTK_CPU_IOWAIT],
			       p[PTK_CPU_STEAL],
			       p[PTK_CPU_IDLE] };
		for (size_t i = 0; i < ARRAY_SIZE(v); i++)
			r->v[1 + i] = PTK_F(v[i]);
	}
}

static void cpu_rows(const struct sar *o, const struct ptk_snap *p,
		     const struct ptk_snap *c, double itv, struct rows *out)
{
	cpu_row(o, out, "all", &p->st.all, &c->st.all);
	if (!o->percpu)
		return;
	for (int i = 0; i < c->st.ncpu && i < p->st.ncpu; i++) {
		char key[16];
		if (!c->st.present[i] || !p->st.present[i])
			continue;
		snprintf(key, sizeof(key), "%d", i);
		cpu_row(o, out, key, &p->st.cpu[i], &c->st.cpu[i]);
	}
}

/* ---- -r ---------------------------------------------------------------------------------- */

static const struct ptk_metric mem_cols[] = {
	KB_COL("kbmemfree", "kbmemfree", "MemFree (/proc/meminfo)"),
	KB_COL("kbavail", "kbavail", "MemAvailable (/proc/meminfo)"),
	KB_COL("kbmemused", "kbmemused", "MemTotal - MemFree - Buffers - Cached - Slab"),
	PCT_COL("%memused", "memused_pct", "kbmemused / MemTotal"),
	KB_COL("kbbuffers", "kbbuffers", "Buffers (/proc/meminfo)"),
	KB_COL("kbcached", "kbcached", "Cached (/proc/meminfo)"),
	KB_COL("kbcommit", "kbcommit", "Committed_AS (/proc/meminfo)"),
	PCT_COL("%commit", "commit_pct", "Committed_AS / (MemTotal + SwapTotal)"),
	KB_COL("kbactive", "kbactive", "Active (/proc/meminfo)"),
	KB_COL("kbinact", "kbinact", "Inactive (/proc/meminfo)"),
	KB_COL("kbdirty", "kbdirty", "Dirty (/proc/meminfo)"),
};
static const struct ptk_table mem_tab = { "memory", mem_cols, ARRAY_SIZE(mem_cols) };

static void mem_rows(const struct sar *o, const struct ptk_snap *p,
		     const struct ptk_snap *c, double itv, struct rows *out)
{
	const struct ptk_meminfo *m = &c->mi;
	struct row *r = row_new(out, "");
	u64 nused = m->mem_free + m->buffers + m->cached + m->slab;
	u64 used = nused < m->mem_total ? m->mem_total - nused : 0;

	if (!r)
		return;
	if (!c->has_mi) {
		for (int i = 0; i < mem_tab.ncols; i++)
			r->v[i] = PTK_NA;
		return;
	}
	r->v[0] = PTK_U(m->mem_free);
	r->v[1] = PTK_U(m->mem_available);
	r->v[2] = PTK_U(used);
	r->v[3] = PTK_F(m->mem_total ? 100.0 * used / m->mem_total : 0);
	r->v[4] = PTK_U(m->buffers);
	r->v[5] = PTK_U(m->cached);
	r->v[6] = PTK_U(m->committed_as);
	r->v[7] = PTK_F(m->mem_total + m->swap_total ?
				100.0 * m->committed_as / (m->mem_total + m->swap_total) :
				0);
	r->v[8] = PTK_U(m->active);
	r->v[9] = PTK_U(m->inactive);
	r->v[10] = PTK_U(m->dirty);
}

/* ---- -b, -d ------------------------------------------------------------------------------ */

static const struct ptk_metric io_cols[] = {
	RATE_COL("tps", "tps", "/s", "requests completed, whole disks (/proc/diskstats)"),
	RATE_COL("rtps", "rtps", "/s", "reads completed (diskstats field 1)"),
	RATE_COL("wtps", "wtps", "/s", "writes completed (diskstats field 5)"),
	RATE_COL("dtps", "dtps", "/s", "discards completed (diskstats field 12)"),
	RATE_COL("bread/s", "bread_s", "sectors/s", "512-byte sectors read (diskstats field 3)"),
	RATE_COL("bwrtn/s", "bwrtn_s", "sectors/s", "sectors written (diskstats field 7)"),
	RATE_COL("bdscd/s", "bdscd_s", "sectors/s", "sectors discarded (diskstats field 14)"),
};
static const struct ptk_table io_tab = { "io", io_cols, ARRAY_SIZE(io_cols) };

static const struct ptk_disk *disk_find(const struct ptk_snap *s, const struct ptk_disk *d)
{
	for (int i = 0; i < s->ds.n; i++)
		if (s->ds.d[i].major == d->major && s->ds.d[i].minor == d->minor &&
		    !strcmp(s->ds.d[i].name, d->name))
			return &s->ds.d[i];
	return NULL;
}

static u64 dd(const struct ptk_disk *a, const struct ptk_disk *b, int f)
{
	return ptk_delta(a->f[f], b->f[f]);
}

static void io_rows(const struct sar *o, const struct ptk_snap *p,
		    const struct ptk_snap *c, double itv, struct rows *out)
{
	double s[7] = { 0 };
	struct row *r = row_new(out, "");

	if (!r)
		return;
	for (int i = 0; i < c->ds.n; i++) {
		const struct ptk_disk *b = &c->ds.d[i], *a = disk_find(p, b);
		if (!a || b->is_partition)
			continue;
		s[1] += dd(a, b, PTK_DK_RD_IOS);
		s[2] += dd(a, b, PTK_DK_WR_IOS);
		s[3] += dd(a, b, PTK_DK_DC_IOS);
		s[4] += dd(a, b, PTK_DK_RD_SECTORS);
		s[5] += dd(a, b, PTK_DK_WR_SECTORS);
		s[6] += dd(a, b, PTK_DK_DC_SECTORS);
	}
	s[0] = s[1] + s[2] + s[3];
	for (int i = 0; i < 7; i++)
		r->v[i] = PTK_F(itv > 0 ? s[i] / itv : 0);
}

static const struct ptk_metric dev_cols[] = {
	{ "DEV", "dev", "", PTK_GAUGE, PTK_V_STR, 9, 0, "block device (/proc/diskstats name)" },
	RATE_COL("tps", "tps", "/s", "reads + writes + discards completed"),
	RATE_COL("rkB/s", "rkb_s", "kB/s", "kB read (sectors / 2)"),
	RATE_COL("wkB/s", "wkb_s", "kB/s", "kB written"),
	RATE_COL("dkB/s", "dkb_s", "kB/s", "kB discarded"),
	RATE_COL("areq-sz", "areq_sz", "kB", "average request size"),
	RATE_COL("aqu-sz", "aqu_sz", "", "average queue length (time_in_queue / interval)"),
	RATE_COL("await", "await", "ms", "average time per request, queue + service"),
	PCT_COL("%util", "util_pct", "time with >= 1 request in flight (io_ticks)"),
};
static const struct ptk_table dev_tab = { "disk", dev_cols, ARRAY_SIZE(dev_cols) };

static void dev_rows(const struct sar *o, const struct ptk_snap *p,
		     const struct ptk_snap *c, double itv, struct rows *out)
{
	for (int i = 0; i < c->ds.n; i++) {
		const struct ptk_disk *b = &c->ds.d[i], *a = disk_find(p, b);
		struct row *r;
		if (!a || b->is_partition ||
		    !(b->f[PTK_DK_RD_IOS] + b->f[PTK_DK_WR_IOS] + b->f[PTK_DK_DC_IOS]))
			continue; /* as sysstat: devices never used are not shown */
		if (!(r = row_new(out, b->name)))
			return;
		double ios =
			dd(a, b, PTK_DK_RD_IOS) + dd(a, b, PTK_DK_WR_IOS) + dd(a, b, PTK_DK_DC_IOS);
		double sect = dd(a, b, PTK_DK_RD_SECTORS) + dd(a, b, PTK_DK_WR_SECTORS) +
			      dd(a, b, PTK_DK_DC_SECTORS);
		double ticks = dd(a, b, PTK_DK_RD_TICKS) + dd(a, b, PTK_DK_WR_TICKS) +
			       dd(a, b, PTK_DK_DC_TICKS);
		struct ptk_disk_rates dr;
		ptk_disk_rates(a, b, itv, &dr);
		r->v[0] = PTK_S(r->key);
		r->v[1] = PTK_F(itv > 0 ? ios / itv : 0);
		r->v[2] = PTK_F(dr.rkb_s);
		r->v[3] = PTK_F(dr.wkb_s);
		r->v[4] = PTK_F(dr.dkb_s);
		r->v[5] = PTK_F(ios ? sect / 2.0 / ios : 0);
		r->v[6] = PTK_F(dr.aqu_sz);
		r->v[7] = PTK_F(ios ? ticks / ios : 0);
		r->v[8] = PTK_F(dr.util);
	}
}

/* ---- -n DEV, TCP, ETCP ------------------------------------------------------------------- */

static const struct ptk_metric ndev_cols[] = {
	{ "IFACE", "iface", "", PTK_GAUGE, PTK_V_STR, 9, 0, "interface (/proc/net/dev)" },
	RATE_COL("rxpck/s", "rxpck_s", "/s", "packets received"),
	RATE_COL("txpck/s", "txpck_s", "/s", "packets transmitted"),
	RATE_COL("rxkB/s", "rxkb_s", "kB/s", "kB received (bytes / 1024)"),
	RATE_COL("txkB/s", "txkb_s", "kB/s", "kB transmitted"),
	RATE_COL("rxcmp/s", "rxcmp_s", "/s", "compressed packets received"),
	RATE_COL("txcmp/s", "txcmp_s", "/s", "compressed packets transmitted"),
	RATE_COL("rxmcst/s", "rxmcst_s", "/s", "multicast packets received"),
	PCT_COL("%ifutil", "ifutil_pct",
		"max(rx, tx) bits / link speed (/sys/class/net/IF/speed; full duplex assumed)"),
};
static const struct ptk_table ndev_tab = { "net_dev", ndev_cols, ARRAY_SIZE(ndev_cols) };

static void ndev_rows(const struct sar *o, const struct ptk_snap *p,
		      const struct ptk_snap *c, double itv, struct rows *out)
{
	static const int f[] = { PTK_ND_RX_PACKETS,  PTK_ND_TX_PACKETS,	   PTK_ND_RX_BYTES,
				 PTK_ND_TX_BYTES,    PTK_ND_RX_COMPRESSED, PTK_ND_TX_COMPRESSED,
				 PTK_ND_RX_MULTICAST };
	for (int i = 0; i < c->nd.n; i++) {
		const struct ptk_netdev *b = &c->nd.d[i], *a = ptk_netdev_find(&p->nd, b->name);
		struct row *r;
		if (!a || !(r = row_new(out, b->name)))
			continue;
		r->v[0] = PTK_S(r->key);
		for (size_t k = 0; k < ARRAY_SIZE(f); k++) {
			double v = ptk_rate(a->f[f[k]], b->f[f[k]], itv);
			if (f[k] == PTK_ND_RX_BYTES || f[k] == PTK_ND_TX_BYTES)
				v /= 1024.0;
			r->v[1 + k] = PTK_F(v);
		}
		long sp = c->speed ? c->speed[i] : -1;
		double rx = r->v[3].f * 1024 * 8, tx = r->v[4].f * 1024 * 8;
		r->v[8] = PTK_F(sp > 0 ? MIN(100.0, MAX(rx, tx) / (sp * 1e6) * 100) : 0);
	}
}

static double kv_rate(const struct ptk_snap *p, const struct ptk_snap *c,
		      const char *key, double itv, bool *ok)
{
	s64 a, b;

	if (!ptk_kvs_get(&p->kvs, key, &a) || !ptk_kvs_get(&c->kvs, key, &b)) {
		*ok = false;
		return 0;
	}
	return ptk_rate((u64)a, (u64)b, itv);
}

static const struct ptk_metric tcp_cols[] = {
	RATE_COL("active/s", "active_s", "/s", "active opens (/proc/net/snmp Tcp ActiveOpens)"),
	RATE_COL("passive/s", "passive_s", "/s", "passive opens (Tcp PassiveOpens)"),
	RATE_COL("iseg/s", "iseg_s", "/s", "segments received (Tcp InSegs)"),
	RATE_COL("oseg/s", "oseg_s", "/s", "segments sent (Tcp OutSegs)"),
};
static const struct ptk_table tcp_tab = { "tcp", tcp_cols, ARRAY_SIZE(tcp_cols) };
static const struct ptk_metric etcp_cols[] = {
	RATE_COL("atmptf/s", "atmptf_s", "/s", "failed connection attempts (Tcp AttemptFails)"),
	RATE_COL("estres/s", "estres_s", "/s",
		 "resets of established connections (Tcp EstabResets)"),
	RATE_COL("retrans/s", "retrans_s", "/s", "segments retransmitted (Tcp RetransSegs)"),
	RATE_COL("isegerr/s", "isegerr_s", "/s", "bad segments received (Tcp InErrs)"),
	RATE_COL("orsts/s", "orsts_s", "/s", "RST segments sent (Tcp OutRsts)"),
};
static const struct ptk_table etcp_tab = { "etcp", etcp_cols, ARRAY_SIZE(etcp_cols) };

static void kv_rows(const struct ptk_table *tab, const char *const *keys,
		    const struct ptk_snap *p, const struct ptk_snap *c, double itv,
		    struct rows *out)
{
	struct row *r = row_new(out, "");

	for (int i = 0; r && i < tab->ncols; i++) {
		bool ok = true;
		double v = kv_rate(p, c, keys[i], itv, &ok);
		r->v[i] = ok ? PTK_F(v) : PTK_NA;
	}
}

static void tcp_rows(const struct sar *o, const struct ptk_snap *p,
		     const struct ptk_snap *c, double itv, struct rows *out)
{
	static const char *const k[] = { "Tcp.ActiveOpens", "Tcp.PassiveOpens", "Tcp.InSegs",
					 "Tcp.OutSegs" };
	kv_rows(&tcp_tab, k, p, c, itv, out);
}

static void etcp_rows(const struct sar *o, const struct ptk_snap *p,
		      const struct ptk_snap *c, double itv, struct rows *out)
{
	static const char *const k[] = { "Tcp.AttemptFails", "Tcp.EstabResets", "Tcp.RetransSegs",
					 "Tcp.InErrs", "Tcp.OutRsts" };
	kv_rows(&etcp_tab, k, p, c, itv, out);
}

/* ---- -q, -w, -W, -B ---------------------------------------------------------------------- */

static const struct ptk_metric q_cols[] = {
	{ "runq-sz", "runq_sz", "", PTK_GAUGE, PTK_V_U64, 9, 0,
	  "runnable tasks, without sar itself (/proc/loadavg field 4 - 1)" },
	{ "plist-sz", "plist_sz", "", PTK_GAUGE, PTK_V_U64, 9, 0,
	  "tasks (threads) in the system (/proc/loadavg field 4, after '/')" },
	{ "ldavg-1", "ldavg_1", "", PTK_GAUGE, PTK_V_F64, 9, 2, "load average 1 min" },
	{ "ldavg-5", "ldavg_5", "", PTK_GAUGE, PTK_V_F64, 9, 2, "load average 5 min" },
	{ "ldavg-15", "ldavg_15", "", PTK_GAUGE, PTK_V_F64, 9, 2, "load average 15 min" },
	{ "blocked", "blocked", "", PTK_GAUGE, PTK_V_U64, 9, 0,
	  "tasks in D state (/proc/stat procs_blocked)" },
};
static const struct ptk_table q_tab = { "queue", q_cols, ARRAY_SIZE(q_cols) };

static void q_rows(const struct sar *o, const struct ptk_snap *p,
		   const struct ptk_snap *c, double itv, struct rows *out)
{
	struct row *r = row_new(out, "");

	if (!r)
		return;
	if (!c->has_la) {
		for (int i = 0; i < 5; i++)
			r->v[i] = PTK_NA;
	} else {
		r->v[0] = PTK_U(c->la.nr_running ? c->la.nr_running - 1 : 0);
		r->v[1] = PTK_U(c->la.nr_threads);
		r->v[2] = PTK_F(c->la.load1);
		r->v[3] = PTK_F(c->la.load5);
		r->v[4] = PTK_F(c->la.load15);
	}
	r->v[5] = PTK_U(c->st.procs_blocked);
}

static const struct ptk_metric w_cols[] = {
	RATE_COL("proc/s", "proc_s", "/s", "tasks created (/proc/stat processes)"),
	RATE_COL("cswch/s", "cswch_s", "/s", "context switches (/proc/stat ctxt)"),
};
static const struct ptk_table w_tab = { "task", w_cols, ARRAY_SIZE(w_cols) };

static void w_rows(const struct sar *o, const struct ptk_snap *p,
		   const struct ptk_snap *c, double itv, struct rows *out)
{
	struct row *r = row_new(out, "");

	if (!r)
		return;
	r->v[0] = PTK_F(ptk_rate(p->st.processes, c->st.processes, itv));
	r->v[1] = PTK_F(ptk_rate(p->st.ctxt, c->st.ctxt, itv));
}

static const struct ptk_metric sw_cols[] = {
	RATE_COL("pswpin/s", "pswpin_s", "pages/s", "pages swapped in (/proc/vmstat pswpin)"),
	RATE_COL("pswpout/s", "pswpout_s", "pages/s", "pages swapped out (/proc/vmstat pswpout)"),
};
static const struct ptk_table sw_tab = { "swap", sw_cols, ARRAY_SIZE(sw_cols) };

static void sw_rows(const struct sar *o, const struct ptk_snap *p,
		    const struct ptk_snap *c, double itv, struct rows *out)
{
	struct row *r = row_new(out, "");
	bool ok = p->has_vm && c->has_vm;

	if (!r)
		return;
	r->v[0] = ok ? PTK_F(ptk_rate(p->vm.pswpin, c->vm.pswpin, itv)) : PTK_NA;
	r->v[1] = ok ? PTK_F(ptk_rate(p->vm.pswpout, c->vm.pswpout, itv)) : PTK_NA;
}

static const struct ptk_metric pg_cols[] = {
	RATE_COL("pgpgin/s", "pgpgin_s", "kB/s", "kB paged in from disk (/proc/vmstat pgpgin)"),
	RATE_COL("pgpgout/s", "pgpgout_s", "kB/s", "kB paged out to disk (pgpgout)"),
	RATE_COL("fault/s", "fault_s", "/s", "page faults, minor + major (pgfault)"),
	RATE_COL("majflt/s", "majflt_s", "/s", "major faults: a disk read (pgmajfault)"),
	RATE_COL("pgfree/s", "pgfree_s", "pages/s", "pages freed (pgfree)"),
	RATE_COL("pgscank/s", "pgscank_s", "pages/s", "scanned by kswapd (pgscan_kswapd)"),
	RATE_COL("pgscand/s", "pgscand_s", "pages/s", "scanned directly (pgscan_direct)"),
	RATE_COL("pgsteal/s", "pgsteal_s", "pages/s", "reclaimed (pgsteal_kswapd + _direct)"),
	PCT_COL("%vmeff", "vmeff_pct", "pgsteal / (pgscank + pgscand): reclaim efficiency"),
};
static const struct ptk_table pg_tab = { "paging", pg_cols, ARRAY_SIZE(pg_cols) };

static void pg_rows(const struct sar *o, const struct ptk_snap *p,
		    const struct ptk_snap *c, double itv, struct rows *out)
{
	const struct ptk_vmstat *a = &p->vm, *b = &c->vm;
	struct row *r = row_new(out, "");

	if (!r)
		return;
	if (!p->has_vm || !c->has_vm) {
		for (int i = 0; i < pg_tab.ncols; i++)
			r->v[i] = PTK_NA;
		return;
	}
	double scan = ptk_rate(a->pgscan_kswapd, b->pgscan_kswapd, itv) +
		      ptk_rate(a->pgscan_direct, b->pgscan_direct, itv);
	double steal = ptk_rate(a->pgsteal_kswapd, b->pgsteal_kswapd, itv) +
		       ptk_rate(a->pgsteal_direct, b->pgsteal_direct, itv);
	r->v[0] = PTK_F(ptk_rate(a->pgpgin, b->pgpgin, itv));
	r->v[1] = PTK_F(ptk_rate(a->pgpgout, b->pgpgout, itv));
	r->v[2] = PTK_F(ptk_rate(a->pgfault, b->pgfault, itv));
	r->v[3] = PTK_F(ptk_rate(a->pgmajfault, b->pgmajfault, itv));
	r->v[4] = PTK_F(ptk_rate(a->pgfree, b->pgfree, itv));
	r->v[5] = PTK_F(ptk_rate(a->pgscan_kswapd, b->pgscan_kswapd, itv));
	r->v[6] = PTK_F(ptk_rate(a->pgscan_direct, b->pgscan_direct, itv));
	r->v[7] = PTK_F(steal);
	r->v[8] = PTK_F(scan > 0 ? MIN(100.0, 100.0 * steal / scan) : 0);
}

/* ---- --psi (sar -q CPU,IO,MEM) ---------------------------------------------------------- */

#define PSI_COLS(x, X, what)                                                                    \
	PCT_COL("%s" x "-10", "some_avg10", "some " what " stalled, 10 s average (PSI avg10)"), \
		PCT_COL("%s" x "-60", "some_avg60", "60 s average (PSI avg60)"),                \
		PCT_COL("%s" x "-300", "some_avg300", "300 s average (PSI avg300)"),            \
		PCT_COL("%s" x, "some_pct",                                                     \
			"share of the interval with some " what " stalled (total)")
#define PSI_FULL(x, what)                                                          \
	PCT_COL("%f" x "-10", "full_avg10", "all " what " stalled, 10 s average"), \
		PCT_COL("%f" x "-60", "full_avg60", "60 s average"),               \
		PCT_COL("%f" x "-300", "full_avg300", "300 s average"),            \
		PCT_COL("%f" x, "full_pct",                                        \
			"share of the interval with all tasks stalled (total)")
static const struct ptk_metric psic_cols[] = { PSI_COLS("cpu", 0, "tasks on CPU") };
static const struct ptk_metric psii_cols[] = { PSI_COLS("io", 0, "tasks on I/O"),
					       PSI_FULL("io", "tasks on I/O") };
static const struct ptk_metric psim_cols[] = { PSI_COLS("mem", 0, "tasks on memory"),
					       PSI_FULL("mem", "tasks on memory") };
static const struct ptk_table psic_tab = { "psi_cpu", psic_cols, ARRAY_SIZE(psic_cols) };
static const struct ptk_table psii_tab = { "psi_io", psii_cols, ARRAY_SIZE(psii_cols) };
static const struct ptk_table psim_tab = { "psi_mem", psim_cols, ARRAY_SIZE(psim_cols) };

static void psi_line(struct ptk_val *v, const struct ptk_psi_line *a, const struct ptk_psi_line *b,
		     bool ok, double itv)
{
	if (!ok || !a->present || !b->present) {
		for (int i = 0; i < 4; i++)
			v[i] = PTK_NA;
		return;
	}
	v[0] = PTK_F(b->avg10);
	v[1] = PTK_F(b->avg60);
	v[2] = PTK_F(b->avg300);
	v[3] = PTK_F(itv > 0 ? MIN(100.0, ptk_delta(a->total_us, b->total_us) / (itv * 1e4)) : 0);
}

static void psi_rows(const struct ptk_snap *p, const struct ptk_snap *c, double itv,
		     struct rows *out, int res, bool full)
{
	struct row *r = row_new(out, "");
	bool ok = p->has_psi[res] && c->has_psi[res];

	if (!r)
		return;
	psi_line(r->v, &p->psi[res].some, &c->psi[res].some, ok, itv);
	if (full)
		psi_line(r->v + 4, &p->psi[res].full, &c->psi[res].full, ok, itv);
}

static void psic_rows(const struct sar *o, const struct ptk_snap *p,
		      const struct ptk_snap *c, double itv, struct rows *out)
{
	psi_rows(p, c, itv, out, PTK_PSI_CPU, false);
}
static void psii_rows(const struct sar *o, const struct ptk_snap *p,
		      const struct ptk_snap *c, double itv, struct rows *out)
{
	psi_rows(p, c, itv, out, PTK_PSI_IO, true);
}
static void psim_rows(const struct sar *o, const struct ptk_snap *p,
		      const struct ptk_snap *c, double itv, struct rows *out)
{
	psi_rows(p, c, itv, out, PTK_PSI_MEMORY, true);
}

enum {
	R_CPU,
	R_CPUALL,
	R_MEM,
	R_IO,
	R_DEV,
	R_NDEV,
	R_TCP,
	R_ETCP,
	R_Q,
	R_W,
	R_SW,
	R_PG,
	R_PSIC,
	R_PSII,
	R_PSIM,
	R_N
};
static const struct report reports[R_N] = {
	[R_CPU] = { &cpu_tab, cpu_rows, 0, true },
	[R_CPUALL] = { &cpuall_tab, cpu_rows, 0, true },
	[R_MEM] = { &mem_tab, mem_rows, 0x7ff, false },
	[R_IO] = { &io_tab, io_rows, 0, false },
	[R_DEV] = { &dev_tab, dev_rows, 0, true },
	[R_NDEV] = { &ndev_tab, ndev_rows, 0, true },
	[R_TCP] = { &tcp_tab, tcp_rows, 0, false },
	[R_ETCP] = { &etcp_tab, etcp_rows, 0, false },
	[R_Q] = { &q_tab, q_rows, 0x3f, false },
	[R_W] = { &w_tab, w_rows, 0, false },
	[R_SW] = { &sw_tab, sw_rows, 0, false },
	[R_PG] = { &pg_tab, pg_rows, 0, false },
	[R_PSIC] = { &psic_tab, psic_rows, 0x7, false },
	[R_PSII] = { &psii_tab, psii_rows, 0x77, false },
	[R_PSIM] = { &psim_tab, psim_rows, 0x77, false },
};

/* ---- Average accumulation ----------------------------------------------------------------- */

static struct acc *acc_get(struct sar *o, int ri, const char *key)
{
	for (int i = 0; i < o->nacc[ri]; i++)
		if (!strcmp(o->acc[ri][i].key, key))
			return &o->acc[ri][i];
	o->acc[ri] = xrealloc(o->acc[ri], (o->nacc[ri] + 1) * sizeof(struct acc));
	struct acc *a = &o->acc[ri][o->nacc[ri]++];
	memset(a, 0, sizeof(*a));
	snprintf(a->key, sizeof(a->key), "%s", key);
	return a;
}

static double val_num(const struct ptk_metric *m, const struct ptk_val *v)
{
	return m->type == PTK_V_F64 ? v->f : m->type == PTK_V_U64 ? (double)v->u : (double)v->i;
}

static void acc_add(struct sar *o, int ri, const struct rows *rs, double itv)
{
	const struct ptk_table *tab = o->rep[ri]->tab;

	for (int k = 0; k < rs->n; k++) {
		struct acc *a = acc_get(o, ri, rs->r[k].key);
		for (int i = 0; i < tab->ncols && i < MAXCOL; i++) {
			if (tab->cols[i].type == PTK_V_STR || rs->r[k].v[i].na)
				continue;
			double v = val_num(&tab->cols[i], &rs->r[k].v[i]);
			a->sum[i] += v;
			a->wsum[i] += v * itv;
		}
		a->n++;
		a->w += itv;
	}
}

/* The Average rows: rates over the whole window (first to last sample, as sar computes
 * them), levels as the mean of the rows; after a reboot inside the window, every column is
 * the interval-weighted mean of the rows. */
static void average_rows(struct sar *o, int ri, const struct ptk_snap *first,
			 const struct ptk_snap *last, struct rows *out)
{
	const struct report *rep = o->rep[ri];
	const struct ptk_table *tab = rep->tab;
	double itv = last->up.up_s - first->up.up_s;

	out->n = 0;
	if (!o->restart && itv > 0) {
		rep->fn(o, first, last, itv, out);
	} else {
		for (int k = 0; k < o->nacc[ri]; k++) {
			struct row *r = row_new(out, o->acc[ri][k].key);
			if (r && rep->keyed)
				r->v[0] = PTK_S(r->key);
		}
	}
	for (int k = 0; k < out->n; k++) {
		struct row *r = &out->r[k];
		struct acc *a = NULL;
		for (int j = 0; j < o->nacc[ri]; j++)
			if (!strcmp(o->acc[ri][j].key, r->key))
				a = &o->acc[ri][j];
		if (rep->keyed)
			r->v[0] = PTK_S(r->key);
		for (int i = 0; i < tab->ncols && i < MAXCOL; i++) {
			const struct ptk_metric *m = &tab->cols[i];
			bool mean = rep->mean_cols & (1ull << i);
			if (m->type == PTK_V_STR || (!mean && !o->restart && itv > 0))
				continue;
			if (!a || !a->n) {
				r->v[i] = PTK_NA;
				continue;
			}
			double v = mean ? a->sum[i] / a->n : (a->w > 0 ? a->wsum[i] / a->w : 0);
			if (m->type == PTK_V_F64)
				r->v[i] = PTK_F(v);
			else
				r->v[i] = PTK_U((u64)llround(v));
		}
	}
}

/* ---- output ------------------------------------------------------------------------------- */

static void print_csv_row(const struct ptk_table *tab, const char *t, const struct row *r)
{
	fputs(t, stdout);
	for (int i = 0; i < tab->ncols; i++) {
		char buf[64];
		printf(",%s", ptk_metric_fmt(&tab->cols[i], &r->v[i], buf, sizeof(buf)));
	}
	putchar('\n');
}

static void print_header(const struct sar *o, const struct ptk_table *tab, const char *t)
{
	if (o->csv) {
		fputs("time", stdout);
		for (int i = 0; i < tab->ncols; i++)
			printf(",%s", tab->cols[i].name);
		putchar('\n');
		return;
	}
	ptk_sink_table_begin(&o->ctx->sink, tab, true, t);
	ptk_sink_table_end(&o->ctx->sink);
}

static void print_rows(const struct sar *o, const struct ptk_table *tab, const char *t,
		       const struct rows *rs)
{
	if (o->csv) {
		for (int k = 0; k < rs->n; k++)
			print_csv_row(tab, t, &rs->r[k]);
		return;
	}
	ptk_sink_table_begin(&o->ctx->sink, tab, false, NULL);
	for (int k = 0; k < rs->n; k++)
		ptk_sink_row(&o->ctx->sink, t, rs->r[k].v);
	ptk_sink_table_end(&o->ctx->sink);
}

static void fmt_t(const struct sar *o, s64 t_ms, char *buf, size_t size)
{
	ptk_arc_fmt_time(t_ms, o->utc, o->iso || o->csv || o->ctx->json, buf, size);
}

static void banner(const struct sar *o, const char *sys, const char *rel, const char *host,
		   const char *mach, int ncpu, s64 t_ms)
{
	char day[64];
	time_t t = (time_t)(t_ms / 1000);
	struct tm tm;

	if (o->csv || o->ctx->json)
		return;
	if (o->utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
		/* the locale's date (%x), as sar prints it */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-y2k"
	strftime(day, sizeof(day), o->iso ? "%Y-%m-%d" : "%x", &tm);
#pragma GCC diagnostic pop
	printf("%s %s (%s) \t%s \t_%s_\t(%d CPU)\n", sys, rel, host, day, mach, ncpu);
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

/* ---- the two feeds: archive and live ------------------------------------------------------ */

struct feed {
	struct ptk_arc *arc;
	const struct ptk_arc_index *idx;
	int pos;
	long bad; /* samples that could not be read */
	char err[256];
};

/* Next readable sample of the archive into s; -ENODATA at the end. */
static int feed_next(struct feed *f, struct ptk_snap *s)
{
	while (f->pos < f->idx->n) {
		int r = ptk_arc_load(f->arc, f->idx->id[f->pos++], false, s);
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
	const struct ptk_table *tab = o->rep[ri]->tab;
	struct ptk_snap s[3] = { { 0 } }; /* first, and two alternating */
	struct rows *rs = xcalloc(1, sizeof(*rs));
	int cur = 1, prev = -1, first = -1, last = -1, r;
	char t[64];
	bool header = false;

	f->pos = 0;
	o->nacc[ri] = 0;
	o->restart = false;
	while ((r = feed_next(f, &s[cur])) != -ENODATA) {
		if (r) {
			prev = -1; /* a hole: the next sample starts over */
			continue;
		}
		if (first < 0) {
			/* keep the very first sample in slot 0 for the Average */
			ptk_arc_load(f->arc, s[cur].id, false, &s[0]);
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
			if (!header) {
				fmt_t(o, s[prev].t_ms, t, sizeof(t));
				if (!o->csv)
					putchar('\n');
				print_header(o, tab, t);
				header = true;
			}
			rs->n = 0;
			o->rep[ri]->fn(o, &s[prev], &s[cur], itv, rs);
			fmt_t(o, s[cur].t_ms, t, sizeof(t));
			print_rows(o, tab, t, rs);
			acc_add(o, ri, rs, itv);
			last = cur;
		}
		prev = cur;
		cur = cur == 1 ? 2 : 1;
	}
	if (last > 0 && first == 0) {
		average_rows(o, ri, &s[0], &s[last], rs);
		print_rows(o, tab, "Average:", rs);
	}
	for (int i = 0; i < 3; i++)
		ptk_snap_free(&s[i]);
	free(rs);
	free(o->acc[ri]);
	o->acc[ri] = NULL;
	o->nacc[ri] = 0;
}

/* JSON (archive or live) and live text: every report per interval. */
struct inter {
	struct sar *o;
	struct ptk_snap s[3];
	int cur, prev;
	bool have_first;
	struct rows *rs;
	bool any;
};

static void interval_out(struct inter *it, const struct ptk_snap *p,
			 const struct ptk_snap *c, double itv)
{
	struct sar *o = it->o;
	struct ptk_sink *sk = &o->ctx->sink;
	char t[64], t0[64];

	fmt_t(o, c->t_ms, t, sizeof(t));
	fmt_t(o, p->t_ms, t0, sizeof(t0));
	if (o->ctx->json) {
		ptk_sink_begin(sk);
		ptk_sink_meta_str(sk, "timestamp", t);
		ptk_sink_meta_f64(sk, "interval_s", round(itv * 1000) / 1000);
	}
	for (int ri = 0; ri < o->nrep; ri++) {
		const struct ptk_table *tab = o->rep[ri]->tab;
		it->rs->n = 0;
		o->rep[ri]->fn(o, p, c, itv, it->rs);
		acc_add(o, ri, it->rs, itv);
		if (!o->ctx->json && !o->csv && (o->nrep > 1 || !it->any)) {
			putchar('\n');
			print_header(o, tab, t0);
		} else if (o->csv && !it->any) {
			print_header(o, tab, t0);
		}
		if (o->ctx->json) {
			ptk_sink_table_begin(sk, tab, false, NULL);
			for (int k = 0; k < it->rs->n; k++)
				ptk_sink_row(sk, NULL, it->rs->r[k].v);
			ptk_sink_table_end(sk);
		} else {
			print_rows(o, tab, t, it->rs);
		}
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
		ptk_sink_meta_f64(sk, "interval_s",
				  round((last->up.up_s - first->up.up_s) * 1000) / 1000);
	}
	for (int ri = 0; ri < o->nrep; ri++) {
		const struct ptk_table *tab = o->rep[ri]->tab;
		average_rows(o, ri, first, last, it->rs);
		if (o->ctx->json) {
			ptk_sink_table_begin(sk, tab, false, NULL);
			for (int k = 0; k < it->rs->n; k++)
				ptk_sink_row(sk, NULL, it->rs->r[k].v);
			ptk_sink_table_end(sk);
			continue;
		}
		if (o->nrep > 1 && !o->csv) {
			putchar('\n');
			print_header(o, tab, "Average:");
		}
		print_rows(o, tab, "Average:", it->rs);
	}
	if (o->ctx->json)
		ptk_sink_end(sk);
}

static int live_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct inter *it = arg;
	int slot = i == 0 ? 0 : it->cur;
	int r = ptk_snap_read(&ctx->src, &it->s[slot], PTK_SNAP_ALL);

	if (r) {
		ptk_err("cannot read %s: %s", ctx->src.procfs, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (i > 0) {
		const struct ptk_snap *p = it->prev < 0 ? &it->s[0] : &it->s[it->prev];
		interval_out(it, p, &it->s[slot], itv > 0 ? itv : interval_of(p, &it->s[slot]));
		it->prev = slot;
		it->cur = slot == 1 ? 2 : 1;
	}
	return 0;
}

/* ---- options ------------------------------------------------------------------------------- */

static const char usage[] =
	"usage: ptk sar [-u [ALL]] [-P ALL] [-r] [-b] [-d] [-n DEV|TCP|ETCP] [-q] [-w] [-W] [-B]\n"
	"               [--psi] [-s HH:MM[:SS]] [-e HH:MM[:SS]] [--from DATETIME --to DATETIME]\n"
	"               [--db PATH] [--utc] [--iso] [--json|--csv] [interval [count]]\n"
	"Reports from the 'ptk record' archive (default " PTK_ARC_DEFAULT_DB ") in sysstat sar's\n"
	"layouts and column names, with Average lines. With interval [count] it samples live.\n"
	"  -u [ALL]   CPU utilization (ALL: %usr %sys %irq %soft %guest %gnice)\n"
	"  -P ALL     per CPU as well          -r   memory        -b   I/O totals\n"
	"  -d         per block device         -q   run queue and load averages\n"
	"  -n DEV|TCP|ETCP   network interfaces, TCP, TCP errors (comma list allowed)\n"
	"  -w         task creation and context switches      -W   swapping\n"
	"  -B         paging                   --psi  pressure stall (sar -q CPU,IO,MEM)\n"
	"  -s, -e     start/end time of day (on the day of --from, else of the last sample)\n"
	"  --from, --to  'YYYY-MM-DD HH:MM[:SS]', ISO 8601 with a zone, '@EPOCH', '-2h'\n"
	"  --utc      show (and read) times in UTC instead of local time; --iso: ISO 8601\n"
	"Without an option, -u. Times are stored in UTC: any TZ reads an archive correctly.\n";

enum { OPT_DB = 0x100, OPT_PSI, OPT_FROM, OPT_TO, OPT_UTC, OPT_ISO, OPT_CSV };

static void add_rep(struct sar *o, int r)
{
	for (int i = 0; i < o->nrep; i++)
		if (o->rep[i] == &reports[r])
			return;
	if (o->nrep < (int)ARRAY_SIZE(o->rep))
		o->rep[o->nrep++] = &reports[r];
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
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct sar o = { .ctx = ctx };
	const char *db = NULL, *s_opt = NULL, *e_opt = NULL, *from_s = NULL, *to_s = NULL;
	bool want_u = false, want_p = false, want_ndev = false, want_tcp = false, want_etcp = false;
	bool want[R_N] = { 0 };
	double interval = 0;
	long count = -1;
	bool has_itv = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "u::P:rbdn:qwWBs:e:", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			want_u = true;
			/* "-u ALL": the optional argument may be the next word */
			if (!optarg && optind < argc && !strcmp(argv[optind], "ALL"))
				optarg = argv[optind++];
			if (optarg) {
				if (strcmp(optarg, "ALL"))
					return ptk_usage_error(ctx, "invalid -u argument '%s'",
							       optarg);
				o.all_u = true;
			}
			break;
		case 'P':
			if (strcmp(optarg, "ALL"))
				return ptk_usage_error(ctx, "-P takes ALL, not '%s'", optarg);
			want_p = true;
			break;
		case 'r':
			want[R_MEM] = true;
			break;
		case 'b':
			want[R_IO] = true;
			break;
		case 'd':
			want[R_DEV] = true;
			break;
		case 'n': {
			char *dup = xstrdup(optarg), *save = NULL;
			for (char *w = strtok_r(dup, ",", &save); w;
			     w = strtok_r(NULL, ",", &save)) {
				if (!strcmp(w, "DEV"))
					want_ndev = true;
				else if (!strcmp(w, "TCP"))
					want_tcp = true;
				else if (!strcmp(w, "ETCP"))
					want_etcp = true;
				else if (!strcmp(w, "ALL"))
					want_ndev = want_tcp = want_etcp = true;
				else {
					free(dup);
					return ptk_usage_error(ctx, "unsupported -n keyword '%s'",
							       optarg);
				}
			}
			free(dup);
			break;
		}
		case 'q':
			want[R_Q] = true;
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
		default:
			r = ptk_common_opt(ctx, c, optarg);
			if (r == 1) {
				fputs(usage, stdout);
				return 0;
			}
			if (r < 0)
				return ptk_usage_error(ctx, "unknown or incomplete option");
		}
	}
	if (o.csv && ctx->json)
		return ptk_usage_error(ctx, "--json and --csv exclude each other");
	if ((r = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv)))
		return r;
	if (has_itv && (db || from_s || to_s || s_opt || e_opt))
		return ptk_usage_error(ctx, "interval/count samples live: no --db, --from, -s, -e");
	o.percpu = want_p;
	{
		bool any = want_u || want_p || want_ndev || want_tcp || want_etcp;
		for (int i = 0; i < R_N; i++)
			any |= want[i];
		if (!any)
			want_u = true; /* as sar: -u by default */
	}
	if (want_u || want_p)
		add_rep(&o, o.all_u ? R_CPUALL : R_CPU);
	for (int i = 0; i < R_N; i++) {
		if (i == R_NDEV && want_ndev)
			add_rep(&o, R_NDEV);
		if (i == R_TCP && want_tcp)
			add_rep(&o, R_TCP);
		if (i == R_ETCP && want_etcp)
			add_rep(&o, R_ETCP);
		if (want[i])
			add_rep(&o, i);
	}
	if ((r = ptk_ctx_ready(ctx)))
		return r;
	ctx->sink.prefix_width = 11;
	if (o.iso || o.csv)
		ctx->sink.prefix_width = 26;

	struct inter it = { .o = &o, .cur = 1, .prev = -1 };
	it.rs = xcalloc(1, sizeof(*it.rs));
	if (has_itv) {
		struct utsname un;
		uname(&un);
		banner(&o, un.sysname, un.release, un.nodename, un.machine,
		       (int)sysconf(_SC_NPROCESSORS_ONLN), ptk_snap_now_ms());
		r = ptk_loop(ctx, interval, count, live_sample, &it);
		if (r == -EINTR || r == 0) {
			if (it.any)
				interval_average(&it, &it.s[0], &it.s[it.prev]);
			r = 0;
		}
		for (int i = 0; i < 3; i++)
			ptk_snap_free(&it.s[i]);
		for (int i = 0; i < o.nrep; i++)
			free(o.acc[i]);
		free(it.rs);
		return r;
	}

	/* archive */
	char err[PATH_MAX + 256], meta[5][128];
	struct ptk_arc_index idx = { 0 };
	struct feed f = { 0 };
	s64 from = INT64_MIN, to = INT64_MAX;
	if (!db)
		db = PTK_ARC_DEFAULT_DB;
	struct ptk_arc *arc = ptk_arc_open(db, PTK_ARC_RDONLY, err, sizeof(err));
	if (!arc) {
		ptk_err("%s", err);
		free(it.rs);
		return PTK_EXIT_RUNTIME;
	}
	r = 0;
	if ((from_s && ptk_arc_parse_time(from_s, o.utc, 0, &from)) ||
	    (to_s && ptk_arc_parse_time(to_s, o.utc, 0, &to))) {
		r = ptk_usage_error(ctx, "invalid --from/--to time");
		goto out;
	}
	if (ptk_arc_list(arc, from, to, &idx) < 0) {
		ptk_err("%s: %s", db, ptk_arc_errmsg(arc));
		r = PTK_EXIT_RUNTIME;
		goto out;
	}
	if (s_opt || e_opt || (!from_s && !to_s)) {
		/* times of day on one day: that of --from, else of the last sample */
		s64 ref = from_s ? from : idx.n ? idx.t_ms[idx.n - 1] : ptk_snap_now_ms();
		s64 day0, s = INT64_MIN, e = INT64_MAX;
		if (ptk_arc_parse_time("00:00:00", o.utc, ref, &day0) ||
		    (s_opt && ptk_arc_parse_time(s_opt, o.utc, ref, &s)) ||
		    (e_opt && ptk_arc_parse_time(e_opt, o.utc, ref, &e))) {
			r = ptk_usage_error(ctx, "invalid -s/-e time (HH:MM[:SS])");
			goto out;
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
	ptk_arc_meta(arc, "sysname", meta[0], sizeof(meta[0]));
	ptk_arc_meta(arc, "release", meta[1], sizeof(meta[1]));
	ptk_arc_meta(arc, "hostname", meta[2], sizeof(meta[2]));
	ptk_arc_meta(arc, "machine", meta[3], sizeof(meta[3]));
	ptk_arc_meta(arc, "ncpu", meta[4], sizeof(meta[4]));
	banner(&o, meta[0][0] ? meta[0] : "Linux", meta[1], meta[2], meta[3], atoi(meta[4]),
	       idx.n ? idx.t_ms[0] : ptk_snap_now_ms());
	f.arc = arc;
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
				ptk_arc_load(arc, it.s[slot].id, false, &it.s[0]);
				first = 0;
			}
			if (prev >= 0 && restarted(&it.s[prev], &it.s[slot])) {
				o.restart = true;
				prev = -1;
			}
			if (prev >= 0) {
				interval_out(&it, &it.s[prev], &it.s[slot],
					     interval_of(&it.s[prev], &it.s[slot]));
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
	}
	if (idx.damaged || f.bad) {
		ptk_err("%s: %s: %ld of %d listed samples unreadable%s; printed what could be read",
			db, f.err[0] ? f.err : ptk_arc_errmsg(arc), f.bad / MAX(o.nrep, 1), idx.n,
			idx.damaged ? ", samples past the damage may be missing" : "");
		r = PTK_EXIT_RUNTIME;
	} else if (idx.n < 2 && !ctx->json) {
		ptk_err("%s: %d sample(s) in the window: nothing to report", db, idx.n);
		r = PTK_EXIT_RUNTIME;
	}
out:
	for (int i = 0; i < 3; i++)
		ptk_snap_free(&it.s[i]);
	for (int i = 0; i < o.nrep; i++)
		free(o.acc[i]);
	free(it.rs);
	ptk_arc_index_free(&idx);
	ptk_arc_close(arc);
	return r;
}
