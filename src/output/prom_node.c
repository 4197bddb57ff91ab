// SPDX-License-Identifier: GPL-2.0
/* node_exporter's families, rendered from a snapshot by the readers' field tables. */
#include "output/prom_node.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "model/registry.h"

const char *const ptk_node_coll_name[PTK_NC_N] = {
	[PTK_NC_CPU] = "cpu",	      [PTK_NC_STAT] = "stat",
	[PTK_NC_LOADAVG] = "loadavg", [PTK_NC_MEMINFO] = "meminfo",
	[PTK_NC_VMSTAT] = "vmstat",   [PTK_NC_DISKSTATS] = "diskstats",
	[PTK_NC_NETDEV] = "netdev",   [PTK_NC_PRESSURE] = "pressure",
	[PTK_NC_NETSTAT] = "netstat",
};

/* What a table's families are per: one value, a CPU, a device, an interface, a snmp key. */
enum rows { R_ONE, R_CPU, R_DISK, R_NETDEV, R_SNMP };

static const struct table {
	enum ptk_node_coll coll;
	enum rows rows;
	const struct ptk_field_desc *f;
	int n;
	int group; /* R_ONE: the snapshot's group of these fields (enum ptk_snap_group_id) */
	bool boot; /* its counters start at boot: OpenMetrics _created = btime */
} tables[] = {
	{ PTK_NC_CPU, R_CPU, ptk_cpu_fields, PTK_CPU_NSTATES, -1, true },
	{ PTK_NC_STAT, R_ONE, ptk_stat_fields, PTK_ST_NFIELDS, PTK_SNAP_G_STAT, true },
	{ PTK_NC_LOADAVG, R_ONE, ptk_loadavg_fields, PTK_LA_NFIELDS, PTK_SNAP_G_LOADAVG, false },
	{ PTK_NC_MEMINFO, R_ONE, ptk_meminfo_fields, PTK_MI_NFIELDS, PTK_SNAP_G_MEMINFO, false },
	{ PTK_NC_VMSTAT, R_ONE, ptk_vmstat_fields, PTK_VM_NFIELDS, PTK_SNAP_G_VMSTAT, false },
	{ PTK_NC_DISKSTATS, R_DISK, ptk_disk_fields, PTK_DK_NFIELDS, -1, true },
	/* an interface may be newer than the boot: no _created */
	{ PTK_NC_NETDEV, R_NETDEV, ptk_netdev_fields, PTK_ND_NFIELDS, -1, false },
	{ PTK_NC_PRESSURE, R_ONE, ptk_psi_fields[PTK_PSI_CPU], PTK_PSI_NFIELDS,
	  PTK_SNAP_G_PSI + PTK_PSI_CPU, true },
	{ PTK_NC_PRESSURE, R_ONE, ptk_psi_fields[PTK_PSI_MEMORY], PTK_PSI_NFIELDS,
	  PTK_SNAP_G_PSI + PTK_PSI_MEMORY, true },
	{ PTK_NC_PRESSURE, R_ONE, ptk_psi_fields[PTK_PSI_IO], PTK_PSI_NFIELDS,
	  PTK_SNAP_G_PSI + PTK_PSI_IO, true },
	{ PTK_NC_NETSTAT, R_SNMP, ptk_snmp_fields, PTK_SN_NFIELDS, -1, false },
};
#define NTABLES ((int)ARRAY_SIZE(tables))
#define MAXF 64
/* every table's fields fit (meminfo and vmstat grow with what the readers learn) */
_Static_assert(PTK_MI_NFIELDS <= MAXF && PTK_VM_NFIELDS <= MAXF && PTK_ST_NFIELDS <= MAXF &&
		       PTK_DK_NFIELDS <= MAXF && PTK_ND_NFIELDS <= MAXF && PTK_SN_NFIELDS <= MAXF &&
		       PTK_CPU_NSTATES <= MAXF,
	       "a table has more fields than fams[][MAXF] holds");

/* The family of each field: NULL name when node_exporter does not serve it. */
static struct fam {
	struct ptk_metric m;
	char name[96], help[200];
	bool served;
} fams[NTABLES][MAXF];
static pthread_once_t fams_once = PTHREAD_ONCE_INIT;

/* node_exporter's default vmstat fields: ^(oom_kill|pgpg|pswp|pg.*fault).* */
static bool vm_served(const char *k)
{
	return !strcmp(k, "oom_kill") || !strncmp(k, "pgpg", 4) || !strncmp(k, "pswp", 4) ||
	       (!strncmp(k, "pg", 2) && strstr(k, "fault"));
}

/* The name and help of field f of table t by node_exporter's rule for its file, or false. */
static bool rule_name(const struct table *t, const struct ptk_field_desc *f, struct fam *m)
{
	char key[64];
	size_t n = 0;

	switch (t->coll) {
	case PTK_NC_MEMINFO: {
		/* '(' becomes '_', ')' goes; kB are served as _bytes, page counts as they are */
		bool kb = !strcmp(f->unit, "kB");
		for (const char *c = f->key; *c && n + 1 < sizeof(key); c++)
			if (*c != ')')
				key[n++] = *c == '(' ? '_' : *c;
		key[n] = '\0';
		snprintf(m->name, sizeof(m->name), "node_memory_%s%s", key, kb ? "_bytes" : "");
		snprintf(m->help, sizeof(m->help),
			 "Memory information field %s%s (/proc/meminfo %s%s).", key,
			 kb ? "_bytes" : "", f->key, kb ? "" : ", pages");
		return true;
	}
	case PTK_NC_VMSTAT:
		if (!vm_served(f->key))
			return false;
		snprintf(m->name, sizeof(m->name), "node_vmstat_%s", f->key);
		snprintf(m->help, sizeof(m->help), "/proc/vmstat information field %s.", f->key);
		return true;
	case PTK_NC_NETDEV:
		snprintf(m->name, sizeof(m->name), "node_network_%s_total", f->key);
		snprintf(m->help, sizeof(m->help), "Network device statistic %s (/proc/net/dev).",
			 f->key);
		return true;
	case PTK_NC_NETSTAT: /* "Tcp.OutSegs" -> node_netstat_Tcp_OutSegs */
		snprintf(m->name, sizeof(m->name), "node_netstat_%s", f->key);
		for (char *c = m->name; *c; c++)
			if (*c == '.')
				*c = '_';
		snprintf(m->help, sizeof(m->help), "%s", f->help);
		return true;
	default:
		return false;
	}
}

static bool name_has(const char *name, const char *unit)
{
	return strstr(name, unit) != NULL;
}

/* The value of field f of obj in the unit its family name says. */
static struct ptk_val value(const struct fam *m, const struct ptk_field_desc *f, const void *obj,
			    long hz)
{
	const char *u = f->unit;
	u64 v = ptk_field_u64(f, obj);

	if (name_has(m->name, "_bytes") && !strcmp(u, "kB"))
		return PTK_U(v * 1024);
	if (name_has(m->name, "_bytes") && !strcmp(u, "sectors"))
		return PTK_U(v * 512);
	if (name_has(m->name, "_seconds") && !strcmp(u, "ms"))
		return PTK_F(v * 0.001);
	if (name_has(m->name, "_seconds") && !strcmp(u, "us"))
		return PTK_F(v / 1e6);
	if (name_has(m->name, "_seconds") && !strcmp(u, "ticks"))
		return PTK_F((double)v / hz);
	if (f->type == PTK_FT_F64)
		return PTK_F(ptk_field_f64(f, obj));
	return PTK_U(v);
}

static void fams_init(void)
{
	for (int t = 0; t < NTABLES; t++) {
		for (int i = 0; i < tables[t].n && i < MAXF; i++) {
			const struct ptk_field_desc *f = &tables[t].f[i];
			struct fam *m = &fams[t][i];
			bool secs, frac;

			if (f->prom) {
				snprintf(m->name, sizeof(m->name), "%s", f->prom);
				snprintf(m->help, sizeof(m->help), "%s", f->help ? f->help : "");
			} else if (!rule_name(&tables[t], f, m)) {
				continue;
			}
			secs = name_has(m->name, "_seconds");
			frac = f->type == PTK_FT_F64 ||
			       (secs && (!strcmp(f->unit, "ms") || !strcmp(f->unit, "us") ||
					 !strcmp(f->unit, "ticks")));
			m->m = (struct ptk_metric){
				.name = m->name,
				.key = m->name,
				.prom = m->name,
				.unit = name_has(m->name, "_bytes") ? "bytes" :
					secs			    ? "seconds" :
								      "",
				.kind = f->gauge ? PTK_GAUGE : PTK_COUNTER,
				.type = frac ? PTK_V_F64 : PTK_V_U64,
				.help = m->help,
			};
			m->served = true;
		}
	}
}

static bool disk_served(const struct ptk_disk *d)
{
	static const char *const skip[] = { "ram", "loop", "fd" };

	if (d->is_partition)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++) {
		size_t n = strlen(skip[i]);
		if (!strncmp(d->name, skip[i], n) && d->name[n] >= '0' && d->name[n] <= '9')
			return false;
	}
	return true;
}

/* Device d of a per-device table, and its name; NULL when field i is not served for it: a
 * partition, a device node_exporter leaves out by default (ram, loop, fd; lo), a kernel whose
 * diskstats lines lack the field. */
static const void *dev_row(const struct ptk_snap *s, const struct table *tb, int i, int d,
			   const char **name)
{
	if (tb->rows == R_DISK) {
		const struct ptk_disk *k = &s->ds.d[d];
		*name = k->name;
		return disk_served(k) && k->nfields >= tb->f[i].min_fields ? k : NULL;
	}
	*name = s->nd.d[d].name;
	return strcmp(*name, "lo") ? &s->nd.d[d] : NULL;
}

static void sample(struct ptk_prom *p, const struct ptk_metric *m, const char *const *labels,
		   struct ptk_val v, double created)
{
	p->created = created;
	ptk_prom_sample(p, m, labels, &v);
}

/* Fields [i, j) of table t are one family (node_cpu_seconds_total: the modes). */
static int family_end(int t, int i)
{
	int j = i + 1;

	while (j < tables[t].n && fams[t][j].served && !strcmp(fams[t][j].name, fams[t][i].name))
		j++;
	return j;
}

/* The families of table t: i its first field, j past its last. */
static void render_family(struct ptk_prom *p, const struct ptk_snap *s, int t, int i, int j,
			  long hz)
{
	const struct table *tb = &tables[t];
	const struct ptk_metric *m = &fams[t][i].m;
	double created = tb->boot ? (double)s->st.btime : -1;
	char num[16];

	switch (tb->rows) {
	case R_ONE: {
		const void *obj = (const char *)s + ptk_snap_groups[tb->group].off;
		if (!ptk_snap_field_has(s, tb->group, i))
			return; /* a field this kernel lacks is absent, never 0 */
		ptk_prom_family(p, m);
		sample(p, m, NULL, value(&fams[t][i], &tb->f[i], obj, hz), created);
		return;
	}
	case R_CPU:
		ptk_prom_family(p, m);
		for (int c = 0; c < s->st.ncpu; c++) {
			if (!s->st.present[c])
				continue;
			snprintf(num, sizeof(num), "%d", c);
			for (int k = i; k < j; k++) {
				const char *mode = tb->f[k].label ? tb->f[k].label : tb->f[k].key;
				const char *lab[] = { "cpu", num, "mode", mode, NULL };
				sample(p, m, lab, value(&fams[t][k], &tb->f[k], &s->st.cpu[c], hz),
				       created);
			}
		}
		return;
	case R_DISK:
	case R_NETDEV:
		ptk_prom_family(p, m);
		for (int d = 0; d < (tb->rows == R_DISK ? s->ds.n : s->nd.n); d++) {
			const char *lab[] = { "device", NULL, NULL };
			const void *dev = dev_row(s, tb, i, d, &lab[1]);
			if (dev)
				sample(p, m, lab, value(&fams[t][i], &tb->f[i], dev, hz), created);
		}
		return;
	case R_SNMP: {
		s64 v;
		if (!ptk_kvs_get(&s->kvs, tb->f[i].key, &v))
			return; /* a counter this kernel lacks is absent, never 0 */
		ptk_prom_family(p, m);
		sample(p, m, NULL, PTK_U((u64)v), created);
		return;
	}
	}
}

/* What check judges and free shows: MemAvailable, or the estimate labelled as free flags it. */
static void render_available(struct ptk_prom *p, const struct ptk_snap *s)
{
	const char *lab[] = { "estimated", s->mi.has_available ? "false" : "true", NULL };

	ptk_prom_family(p, PTK_M(CHECK_AVAILABLE_BYTES));
	sample(p, PTK_M(CHECK_AVAILABLE_BYTES), lab, PTK_U(s->mi.mem_available * 1024), -1);
}

static bool coll_ok(const struct ptk_snap *s, enum ptk_node_coll c)
{
	unsigned parts = ptk_prom_node_parts(1u << c);

	return (s->read & parts) == parts;
}

unsigned ptk_prom_node_parts(unsigned mask)
{
	static const unsigned parts[PTK_NC_N] = {
		[PTK_NC_CPU] = PTK_SNAP_BIT(PTK_SNAP_STAT),
		[PTK_NC_STAT] = PTK_SNAP_BIT(PTK_SNAP_STAT),
		[PTK_NC_LOADAVG] = PTK_SNAP_BIT(PTK_SNAP_LOADAVG),
		[PTK_NC_MEMINFO] = PTK_SNAP_BIT(PTK_SNAP_MEMINFO),
		[PTK_NC_VMSTAT] = PTK_SNAP_BIT(PTK_SNAP_VMSTAT),
		[PTK_NC_DISKSTATS] = PTK_SNAP_BIT(PTK_SNAP_DISKSTATS),
		[PTK_NC_NETDEV] = PTK_SNAP_BIT(PTK_SNAP_NETDEV),
		[PTK_NC_PRESSURE] = PTK_SNAP_PSI,
		[PTK_NC_NETSTAT] = PTK_SNAP_BIT(PTK_SNAP_SNMP),
	};
	unsigned m = 0;

	for (int c = 0; c < PTK_NC_N; c++)
		if (mask & (1u << c))
			m |= parts[c];
	return m;
}

void ptk_prom_node(struct ptk_prom *p, const struct ptk_snap *s, unsigned mask, long hz,
		   bool ok[PTK_NC_N])
{
	pthread_once(&fams_once, fams_init);
	for (int c = 0; c < PTK_NC_N; c++)
		ok[c] = (mask & (1u << c)) && coll_ok(s, c);
	for (int t = 0; t < NTABLES; t++) {
		const struct table *tb = &tables[t];
		if (!(mask & (1u << tb->coll)) ||
		    (tb->group >= 0 ? !ptk_snap_has(s, ptk_snap_groups[tb->group].part) :
				      !ok[tb->coll]))
			continue;
		for (int i = 0; i < tb->n;) {
			int j = fams[t][i].served ? family_end(t, i) : i + 1;
			if (fams[t][i].served)
				render_family(p, s, t, i, j, hz);
			i = j;
		}
		if (tb->coll == PTK_NC_MEMINFO)
			render_available(p, s);
	}
}
