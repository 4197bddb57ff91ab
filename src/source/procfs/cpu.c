// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU files besides /proc/stat: /proc/interrupts and /proc/softirqs (one line per
 * interrupt, a column per CPU), and the CPU topology under /sys/devices/system/cpu.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

/* Room for n lines of ncpu CPUs: v is n x cap_cpu, row-major; new cells 0. */
static void irqs_grow(struct ptk_irqs *q, int n, int ncpu)
{
	if (ncpu > q->cap_cpu) {
		int cc = MAX(ncpu, 2 * q->cap_cpu);
		u64 *v = xcalloc((size_t)MAX(q->cap_n, 1) * cc, sizeof(*v));
		for (int i = 0; i < q->n; i++)
			memcpy(v + (size_t)i * cc, q->v + (size_t)i * q->cap_cpu,
			       q->ncpu * sizeof(*v));
		free(q->v);
		q->v = v;
		q->col = xrealloc(q->col, cc);
		memset(q->col + q->cap_cpu, 0, cc - q->cap_cpu);
		q->cap_cpu = cc;
	}
	if (n > q->cap_n) {
		int cn = MAX(n, 2 * q->cap_n);
		q->v = xrealloc(q->v, (size_t)cn * MAX(q->cap_cpu, 1) * sizeof(*q->v));
		memset(q->v + (size_t)q->cap_n * q->cap_cpu, 0,
		       (size_t)(cn - q->cap_n) * q->cap_cpu * sizeof(*q->v));
		q->name = xrealloc(q->name, cn * sizeof(*q->name));
		q->cap_n = cn;
	}
}

void ptk_irqs_resize(struct ptk_irqs *q, int n, int ncpu)
{
	irqs_grow(q, n, ncpu);
	for (int i = q->n; i < n; i++) {
		q->name[i][0] = '\0';
		memset(q->v + (size_t)i * q->cap_cpu, 0, q->cap_cpu * sizeof(*q->v));
	}
	if (ncpu > q->ncpu) {
		for (int i = 0; i < n; i++)
			memset(q->v + (size_t)i * q->cap_cpu + q->ncpu, 0,
			       (ncpu - q->ncpu) * sizeof(*q->v));
		memset(q->col + q->ncpu, 0, ncpu - q->ncpu);
	}
	q->n = n;
	q->ncpu = MAX(q->ncpu, ncpu);
}

int ptk_irqs_find(const struct ptk_irqs *q, const char *name, int hint)
{
	if (hint >= 0 && hint < q->n && !strcmp(q->name[hint], name))
		return hint;
	for (int i = 0; i < q->n; i++)
		if (!strcmp(q->name[i], name))
			return i;
	return -1;
}

u64 ptk_irqs_total(const struct ptk_irqs *q, int cpu)
{
	u64 s = 0;

	for (int i = 0; i < q->n; i++)
		s += ptk_irqs_get(q, i, cpu);
	return s;
}

int ptk_irqs_parse(const char *text, struct ptk_irqs *q)
{
	const char *p = text, *eol;
	int cols[PTK_IRQ_MAXCOLS], ncol = 0, hi = -1;

	q->n = 0;
	q->ncpu = 0;
	if (q->col)
		memset(q->col, 0, q->cap_cpu);
	/* the header: "CPU0 CPU1 ..." (an offline CPU has no column in /proc/interrupts) */
	eol = strchr(p, '\n');
	for (const char *c = p; (c = strstr(c, "CPU")) && (!eol || c < eol);) {
		char *end;
		long n = strtol(c + 3, &end, 10);
		if (end == c + 3 || n < 0 || n >= PTK_MAX_CPUS || ncol == PTK_IRQ_MAXCOLS)
			return -EINVAL;
		cols[ncol++] = (int)n;
		hi = MAX(hi, (int)n);
		c = end;
	}
	if (!ncol || !eol)
		return -EINVAL;
	irqs_grow(q, 16, hi + 1);
	q->ncpu = hi + 1;
	for (int k = 0; k < ncol; k++)
		q->col[cols[k]] = PTK_IRQ_LISTED;
	for (p = eol + 1; *p; p = eol + 1) {
		const char *colon, *name = p;
		size_t len;
		int i;

		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		colon = memchr(p, ':', eol - p);
		if (colon) {
			while (*name == ' ')
				name++;
			len = colon - name;
			if (len >= PTK_IRQ_NAME)
				len = PTK_IRQ_NAME - 1;
			i = q->n;
			ptk_irqs_resize(q, i + 1, q->ncpu);
			memcpy(q->name[i], name, len);
			q->name[i][len] = '\0';
			/* a count per column; lines such as ERR and MIS have one (CPU0's) */
			const char *c = colon + 1;
			for (int k = 0; k < ncol; k++) {
				const char *end;
				while (*c == ' ' || *c == '\t')
					c++;
				if (!isdigit((unsigned char)*c))
					break;
				q->v[(size_t)i * q->cap_cpu + cols[k]] = ptk_strtou64(c, &end);
				c = end;
			}
		}
		if (!*eol)
			break;
	}
	return 0;
}

int ptk_irqs_read(const struct ptk_src *src, const char *rel, struct ptk_irqs *q)
{
	static __thread struct ptk_buf b;
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, rel, &b);

	if (n < 0)
		return (int)n;
	return ptk_irqs_parse(b.p, q);
}

void ptk_irqs_copy(struct ptk_irqs *dst, const struct ptk_irqs *src)
{
	dst->n = 0;
	dst->ncpu = 0;
	ptk_irqs_resize(dst, src->n, src->ncpu);
	for (int i = 0; i < src->n; i++) {
		memcpy(dst->name[i], src->name[i], sizeof(dst->name[i]));
		memcpy(dst->v + (size_t)i * dst->cap_cpu, src->v + (size_t)i * src->cap_cpu,
		       src->ncpu * sizeof(*dst->v));
	}
	if (src->ncpu)
		memcpy(dst->col, src->col, src->ncpu);
}

void ptk_irqs_free(struct ptk_irqs *q)
{
	free(q->name);
	free(q->v);
	free(q->col);
	memset(q, 0, sizeof(*q));
}

/* ---- topology ------------------------------------------------------------------------- */

/* The first integer of the sysfs file rel, or -errno. */
static int first_int(const struct ptk_src *src, const char *rel, int *v)
{
	char buf[256], *end;
	ssize_t n = ptk_src_read(src, PTK_SYS, rel, buf, sizeof(buf));
	long x;

	if (n < 0)
		return (int)n;
	x = strtol(buf, &end, 10);
	if (end == buf)
		return -EINVAL;
	*v = (int)x;
	return 0;
}

int ptk_cpu_topo_read(const struct ptk_src *src, int cpu, int *core, int *socket)
{
	char rel[128];
	int r1, r2;

	*core = *socket = -1;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	r1 = first_int(src, rel, socket);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	r2 = first_int(src, rel, core);
	return r1 ? r1 : r2;
}

int ptk_cpu_node_read(const struct ptk_src *src, int cpu)
{
	char rel[128], path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int node = -ENOENT;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d", cpu);
	if (ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)))
		return -ENAMETOOLONG;
	if (!(d = opendir(path)))
		return -errno;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "node", 4) && isdigit((unsigned char)e->d_name[4])) {
			node = atoi(e->d_name + 4);
			break;
		}
	}
	closedir(d);
	return node;
}

int ptk_cpu_count_read(const struct ptk_src *src)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int hi = -1;

	if (ptk_src_path(src, PTK_SYS, "devices/system/cpu", path, sizeof(path)))
		return -ENAMETOOLONG;
	if (!(d = opendir(path)))
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long n;
		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
			continue;
		n = strtol(e->d_name + 3, &end, 10);
		if (!*end && n < PTK_MAX_CPUS && n > hi)
			hi = (int)n;
	}
	closedir(d);
	return hi + 1;
}

void ptk_irqs_text(const struct ptk_irqs *q, struct ptk_strbuf *b)
{
	ptk_strbuf_addf(b, "    ");
	for (int c = 0; c < q->ncpu; c++)
		if (q->col[c] == PTK_IRQ_LISTED)
			ptk_strbuf_addf(b, "       CPU%d", c);
	ptk_strbuf_addf(b, "\n");
	for (int i = 0; i < q->n; i++) {
		ptk_strbuf_addf(b, "%4s:", q->name[i]);
		for (int c = 0; c < q->ncpu; c++)
			if (q->col[c] == PTK_IRQ_LISTED)
				ptk_strbuf_addf(b, " %10" PRIu64, ptk_irqs_get(q, i, c));
		ptk_strbuf_addf(b, "\n");
	}
}

/* ---- /proc/net/softnet_stat --------------------------------------------------------------- */

void ptk_softnet_reserve(struct ptk_softnet *sn, int ncpu)
{
	if (ncpu <= sn->cap)
		return;
	int cap = MAX(ncpu, 2 * sn->cap);
	sn->c = xrealloc(sn->c, cap * sizeof(*sn->c));
	sn->has = xrealloc(sn->has, cap * sizeof(*sn->has));
	memset(sn->c + sn->cap, 0, (cap - sn->cap) * sizeof(*sn->c));
	memset(sn->has + sn->cap, 0, (cap - sn->cap) * sizeof(*sn->has));
	sn->cap = cap;
}

int ptk_softnet_parse(const char *text, const struct ptk_stat *st, struct ptk_softnet *sn)
{
	int line = 0, next_cpu = 0;

	sn->ncpu = 0;
	if (sn->cap) {
		memset(sn->has, 0, sn->cap * sizeof(*sn->has));
		memset(sn->c, 0, sn->cap * sizeof(*sn->c));
	}
	for (const char *p = text; *p; line++) {
		u64 f[16] = { 0 };
		int nf = 0, cpu;
		const char *eol = strchr(p, '\n');

		if (!eol)
			eol = p + strlen(p);
		while (p < eol && nf < 16) {
			char *end;
			while (p < eol && *p == ' ')
				p++;
			if (p >= eol)
				break;
			f[nf++] = strtoull(p, &end, 16);
			if (end == p || (end < eol && *end != ' '))
				return -EINVAL;
			p = end;
		}
		if (nf && nf < 11)
			return -EINVAL;
		if (nf) {
			/* kernels from 5.10 end the line with the CPU number; before, a line per
			 * online CPU in order: the CPUs /proc/stat lists */
			if (nf >= 13) {
				cpu = (int)f[12];
			} else {
				cpu = next_cpu;
				while (st && cpu < st->ncpu && !st->present[cpu])
					cpu++;
				next_cpu = cpu + 1;
			}
			if (cpu < 0 || cpu >= PTK_MAX_CPUS)
				return -EINVAL;
			ptk_softnet_reserve(sn, cpu + 1);
			sn->c[cpu] = (struct ptk_softnet_cpu){
				.processed = f[0],
				.dropped = f[1],
				.squeezed = f[2],
				.rps = f[9],
				.flow_limit = f[10],
				.backlog = nf >= 12 ? f[11] : 0,
			};
			sn->has[cpu] = true;
			sn->ncpu = MAX(sn->ncpu, cpu + 1);
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

int ptk_softnet_read(const struct ptk_src *src, const struct ptk_stat *st, struct ptk_softnet *sn)
{
	static __thread struct ptk_buf b;
	ssize_t n = ptk_src_read_buf(src, PTK_PROC, "net/softnet_stat", &b);

	if (n < 0)
		return (int)n;
	return ptk_softnet_parse(b.p, st, sn);
}

void ptk_softnet_copy(struct ptk_softnet *dst, const struct ptk_softnet *src)
{
	ptk_softnet_reserve(dst, src->ncpu);
	if (src->ncpu) {
		memcpy(dst->c, src->c, src->ncpu * sizeof(*dst->c));
		memcpy(dst->has, src->has, src->ncpu * sizeof(*dst->has));
	}
	dst->ncpu = src->ncpu;
}

void ptk_softnet_free(struct ptk_softnet *sn)
{
	free(sn->c);
	free(sn->has);
	memset(sn, 0, sizeof(*sn));
}

void ptk_softnet_text(const struct ptk_softnet *sn, struct ptk_strbuf *b)
{
	for (int c = 0; c < sn->ncpu; c++) {
		const struct ptk_softnet_cpu *x = &sn->c[c];
		if (!sn->has[c])
			continue;
		ptk_strbuf_addf(b,
				"%08" PRIx64 " %08" PRIx64 " %08" PRIx64
				" 00000000 00000000 00000000 00000000 00000000 00000000 %08" PRIx64
				" %08" PRIx64 " %08" PRIx64 " %08x\n",
				x->processed, x->dropped, x->squeezed, x->rps, x->flow_limit,
				x->backlog, c);
	}
}
