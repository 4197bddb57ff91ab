// SPDX-License-Identifier: GPL-2.0
/* cAdvisor's container_* families from a cgroup snapshot (output/prom_cgroup.h). */
#include "output/prom_cgroup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/cgroup.h"
#include "model/registry.h"

enum fam_value {
	FV_NS, /* a v[] in ns, as seconds */
	FV_COUNT, /* a v[] as is */
	FV_LIMIT, /* a v[] when not "max" */
	FV_WSET, /* the working set */
	FV_PSI_SOME, /* psi[res].some total, µs as seconds */
	FV_PSI_FULL,
	FV_IO, /* per device: io field */
};

/* One family: its registry entry (name, help), how the exposition holds it, and where its
 * value comes from. quota: only for a cgroup with a CPU quota (as cAdvisor). */
static const struct fam {
	enum ptk_mid id;
	enum ptk_kind kind;
	const char *unit;
	enum fam_value fv;
	int v; /* enum ptk_cg_val, enum ptk_psi_res, or the io field (0 rbytes 1 wbytes 2 rios
		* 3 wios) */
	bool quota;
} fams[] = {
	{ PTK_M_CG_CPU_PCT, PTK_COUNTER, "seconds", FV_NS, PTK_CGV_CPU_USAGE_NS },
	{ PTK_M_CG_USER_PCT, PTK_COUNTER, "seconds", FV_NS, PTK_CGV_CPU_USER_NS },
	{ PTK_M_CG_SYS_PCT, PTK_COUNTER, "seconds", FV_NS, PTK_CGV_CPU_SYSTEM_NS },
	{ PTK_M_CG_PERIODS, PTK_COUNTER, "", FV_COUNT, PTK_CGV_CPU_PERIODS, true },
	{ PTK_M_CG_THROTTLED, PTK_COUNTER, "", FV_COUNT, PTK_CGV_CPU_THROTTLED, true },
	{ PTK_M_CG_THR_S, PTK_COUNTER, "seconds", FV_NS, PTK_CGV_CPU_THROTTLED_NS, true },
	{ PTK_M_CG_QUOTA, PTK_GAUGE, "", FV_LIMIT, PTK_CGV_CPU_QUOTA_US, true },
	{ PTK_M_CG_PERIOD_US, PTK_GAUGE, "", FV_COUNT, PTK_CGV_CPU_PERIOD_US, true },
	{ PTK_M_CG_MEM, PTK_GAUGE, "bytes", FV_COUNT, PTK_CGV_MEM_CURRENT },
	{ PTK_M_CG_WSET, PTK_GAUGE, "bytes", FV_WSET, 0 },
	{ PTK_M_CG_RSS, PTK_GAUGE, "", FV_COUNT, PTK_CGV_MEM_ANON },
	{ PTK_M_CG_CACHE, PTK_GAUGE, "", FV_COUNT, PTK_CGV_MEM_FILE },
	{ PTK_M_CG_SWAP, PTK_GAUGE, "", FV_COUNT, PTK_CGV_MEM_SWAP },
	{ PTK_M_CG_PEAK, PTK_GAUGE, "bytes", FV_COUNT, PTK_CGV_MEM_PEAK },
	{ PTK_M_CG_MEM_MAX, PTK_GAUGE, "bytes", FV_LIMIT, PTK_CGV_MEM_MAX },
	{ PTK_M_CG_MEM_HIGH, PTK_GAUGE, "bytes", FV_LIMIT, PTK_CGV_MEM_HIGH },
	{ PTK_M_CG_MEM_LOW, PTK_GAUGE, "bytes", FV_LIMIT, PTK_CGV_MEM_LOW },
	{ PTK_M_CG_FAILCNT, PTK_COUNTER, "", FV_COUNT, PTK_CGV_MEM_EV_MAX },
	{ PTK_M_CG_EV_HIGH, PTK_COUNTER, "", FV_COUNT, PTK_CGV_MEM_EV_HIGH },
	{ PTK_M_CG_EV_MAX, PTK_COUNTER, "", FV_COUNT, PTK_CGV_MEM_EV_MAX },
	{ PTK_M_CG_EV_OOM, PTK_COUNTER, "", FV_COUNT, PTK_CGV_MEM_EV_OOM },
	{ PTK_M_CG_EV_OOM_KILL, PTK_COUNTER, "", FV_COUNT, PTK_CGV_MEM_EV_OOM_KILL },
	{ PTK_M_CG_RBPS, PTK_COUNTER, "bytes", FV_IO, 0 },
	{ PTK_M_CG_WBPS, PTK_COUNTER, "bytes", FV_IO, 1 },
	{ PTK_M_CG_RIOPS, PTK_COUNTER, "", FV_IO, 2 },
	{ PTK_M_CG_WIOPS, PTK_COUNTER, "", FV_IO, 3 },
	{ PTK_M_CG_TASKS, PTK_GAUGE, "", FV_COUNT, PTK_CGV_PIDS_CURRENT },
	{ PTK_M_CG_TASKS_MAX, PTK_GAUGE, "", FV_LIMIT, PTK_CGV_PIDS_MAX },
	{ PTK_M_CG_PSI_CPU_SOME, PTK_COUNTER, "seconds", FV_PSI_SOME, PTK_PSI_CPU },
	{ PTK_M_CG_PSI_CPU_FULL, PTK_COUNTER, "seconds", FV_PSI_FULL, PTK_PSI_CPU },
	{ PTK_M_CG_PSI_MEM_SOME, PTK_COUNTER, "seconds", FV_PSI_SOME, PTK_PSI_MEMORY },
	{ PTK_M_CG_PSI_MEM_FULL, PTK_COUNTER, "seconds", FV_PSI_FULL, PTK_PSI_MEMORY },
	{ PTK_M_CG_PSI_IO_SOME, PTK_COUNTER, "seconds", FV_PSI_SOME, PTK_PSI_IO },
	{ PTK_M_CG_PSI_IO_FULL, PTK_COUNTER, "seconds", FV_PSI_FULL, PTK_PSI_IO },
};

static bool has_quota(const struct ptk_cgroup *c)
{
	return ptk_cg_has(c, PTK_CGV_CPU_QUOTA_US) && c->v[PTK_CGV_CPU_QUOTA_US] != PTK_CG_MAX;
}

static void device_name(const struct ptk_snap *host, const struct ptk_cg_io *d, char *buf,
			size_t size)
{
	for (int i = 0; host && i < host->ds.n; i++)
		if (host->ds.d[i].major == d->major && host->ds.d[i].minor == d->minor) {
			snprintf(buf, size, "/dev/%s", host->ds.d[i].name);
			return;
		}
	snprintf(buf, size, "%u:%u", d->major, d->minor);
}

static struct ptk_val value(const struct fam *f, const struct ptk_cgroup *c)
{
	switch (f->fv) {
	case FV_NS:
		return ptk_cg_has(c, f->v) ? PTK_F(c->v[f->v] / 1e9) : PTK_NA;
	case FV_COUNT:
		return ptk_cg_has(c, f->v) ? PTK_F((double)c->v[f->v]) : PTK_NA;
	case FV_LIMIT:
		return ptk_cg_has(c, f->v) && c->v[f->v] != PTK_CG_MAX ? PTK_F((double)c->v[f->v]) :
									 PTK_NA;
	case FV_WSET: {
		double w = ptk_cg_working_set(c);
		return isnan(w) ? PTK_NA : PTK_F(w);
	}
	case FV_PSI_SOME:
		return c->has_psi[f->v] && c->psi[f->v].some.present ?
			       PTK_F(c->psi[f->v].some.total_us / 1e6) :
			       PTK_NA;
	case FV_PSI_FULL:
		return c->has_psi[f->v] && c->psi[f->v].full.present ?
			       PTK_F(c->psi[f->v].full.total_us / 1e6) :
			       PTK_NA;
	default:
		return PTK_NA;
	}
}

void ptk_prom_cgroups(struct ptk_prom *p, const struct ptk_cgsnap *cg, const struct ptk_snap *host)
{
	for (size_t k = 0; k < ARRAY_SIZE(fams); k++) {
		const struct fam *f = &fams[k];
		struct ptk_metric m = ptk_registry[f->id];
		m.kind = f->kind;
		m.unit = f->unit;
		m.type = PTK_V_F64;
		ptk_prom_family(p, &m);
		for (int i = 0; i < cg->n; i++) {
			const struct ptk_cgroup *c = &cg->cg[i];
			if (f->quota && !has_quota(c))
				continue;
			if (f->fv == FV_IO) {
				for (int d = 0; d < c->nio; d++) {
					const struct ptk_cg_io *io = &c->io[d];
					const u64 x[4] = { io->rbytes, io->wbytes, io->rios,
							   io->wios };
					char dev[80];
					device_name(host, io, dev, sizeof(dev));
					const char *lab[] = { "device", dev, "id", c->path, NULL };
					struct ptk_val v = PTK_F((double)x[f->v]);
					ptk_prom_sample(p, &m, lab, &v);
				}
				continue;
			}
			struct ptk_val v = value(f, c);
			if (f->id == PTK_M_CG_CPU_PCT) {
				const char *lab[] = { "cpu", "total", "id", c->path, NULL };
				ptk_prom_sample(p, &m, lab, &v);
			} else {
				const char *lab[] = { "id", c->path, NULL };
				ptk_prom_sample(p, &m, lab, &v);
			}
		}
	}
	/* what the path says of each cgroup's owner */
	ptk_prom_family(p, PTK_M(CG_INFO));
	for (int i = 0; i < cg->n; i++) {
		struct ptk_cg_ident id;
		const char *lab[14];
		int n = 0;
		ptk_cg_identify(cg->cg[i].path, &id);
		lab[n++] = "id";
		lab[n++] = cg->cg[i].path;
		const char *const extra[][2] = { { "runtime", id.runtime },
						 { "container_id", id.id },
						 { "pod_uid", id.pod_uid },
						 { "qos", id.qos },
						 { "unit", id.unit } };
		for (size_t k = 0; k < ARRAY_SIZE(extra); k++)
			if (extra[k][1][0]) {
				lab[n++] = extra[k][0];
				lab[n++] = extra[k][1];
			}
		lab[n] = NULL;
		struct ptk_val one = PTK_U(1);
		ptk_prom_sample(p, PTK_M(CG_INFO), lab, &one);
	}
}
