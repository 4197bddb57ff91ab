// SPDX-License-Identifier: GPL-2.0
/*
 * ptk pmap: the memory map of processes in procps-ng pmap's layouts (default, -x, -X, -XX,
 * -d, -q, -p), from /proc/PID/smaps (the default and -d layouts need only /proc/PID/maps),
 * plus --json with RSS, PSS, dirty and swap per mapping and their totals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/registry.h"
#include "source/procfs/smaps.h"

/* The per-mapping columns of -x and --json. Kbytes..Swap are contiguous: the totals. */
enum { P_ADDR, P_KBYTES, P_RSS, P_PSS, P_DIRTY, P_SWAP, P_MODE, P_MAP, P_N };
static const struct ptk_metric *const pmap_cols[P_N] = {
	[P_ADDR] = PTK_M(MAP_ADDRESS),	 [P_KBYTES] = PTK_M(MAP_KBYTES),
	[P_RSS] = PTK_M(MAP_RSS_KB),	 [P_PSS] = PTK_M(MAP_PSS_KB),
	[P_DIRTY] = PTK_M(MAP_DIRTY_KB), [P_SWAP] = PTK_M(MAP_SWAP_KB),
	[P_MODE] = PTK_M(MAP_MODE),	 [P_MAP] = PTK_M(MAP_MAPPING),
};
static const struct ptk_table map_tab = { .name = "mappings", .ncols = P_N, .refs = pmap_cols };
static const struct ptk_table total_tab = { .name = "total",
					    .ncols = P_SWAP - P_KBYTES + 1,
					    .refs = pmap_cols + P_KBYTES };

/* The extra columns and footer of -d. */
enum { D_OFFSET, D_DEVICE, D_MAPPED, D_WPRIV, D_SHARED, D_N };
static const struct ptk_metric *const dev_cols[D_N] = {
	[D_OFFSET] = PTK_M(MAP_OFFSET),	   [D_DEVICE] = PTK_M(MAP_DEVICE),
	[D_MAPPED] = PTK_M(MAP_MAPPED_KB), [D_WPRIV] = PTK_M(MAP_WPRIV_KB),
	[D_SHARED] = PTK_M(MAP_SHARED_KB),
};

static const char usage[] =
	"usage: ptk pmap [-x | -X | -XX | -d] [-q] [-p] [--json] [--procfs DIR] PID...\n"
	"The memory map of each process, as procps pmap prints it, from /proc/PID/smaps.\n"
	"  -x, --extended   Kbytes, RSS and Dirty per mapping, and their total\n"
	"  -X               the smaps fields pmap -X shows; -XX every field the kernel prints\n"
	"  -d, --device     offset and device per mapping; mapped/writeable/shared totals\n"
	"  -q, --quiet      no header and footer lines\n"
	"  -p, --show-path  full path of mapped files, not the file name\n"
	"  --json           one object per PID: mappings with kbytes, rss_kb, pss_kb, dirty_kb,\n"
	"                   swap_kb, mode, mapping, and their totals\n";

struct pmap_opts {
	int x, X, d, q, p;
};

/* -X/-XX columns and widths, kept across PIDs as pmap keeps them. */
struct xcols {
	int n;
	struct ptk_metric met[PTK_SMAPS_MAXF];
	char name[PTK_SMAPS_MAXF][32];
	int w[PTK_SMAPS_MAXF];
};

/* One process as read. */
struct proc {
	int pid;
	char *cmdline;
	struct ptk_smaps s;
	bool have_ss; /* startstack known */
	u64 ss;
};

/* The name pmap shows for a mapping (mapping_name() in procps pmap.c). */
static const char *map_name(const struct proc *pr, const struct ptk_smap *m, bool showpath,
			    char *buf, size_t size)
{
	const char *slash;

	if (!m->dev_major && !strncmp(m->path, "/SYSV", 5)) {
		snprintf(buf, size, "  [ shmid=0x%" PRIx64 " ]", m->inode);
		return buf;
	}
	if ((slash = strrchr(m->path, '/'))) {
		if (showpath)
			return strchr(m->path, '/');
		return slash[1] ? slash + 1 : slash;
	}
	if (pr->have_ss ? pr->ss >= m->start && pr->ss <= m->end : !strcmp(m->path, "[stack]"))
		return "  [ stack ]";
	return "  [ anon ]";
}

/* "r-xp" -> "r-x--", "rw-s" -> "rw-s-" */
static void mode_str(const struct ptk_smap *m, char *buf)
{
	memcpy(buf, m->perms, 4);
	if (buf[3] == 'p')
		buf[3] = '-';
	buf[4] = '-';
	buf[5] = '\0';
}

static struct ptk_val opt_val(const struct ptk_smaps *s, const struct ptk_smap *m,
			      enum ptk_smaps_key k)
{
	u64 v;

	return ptk_smap_get(s, m, k, &v) ? PTK_U(v) : PTK_NA;
}

/* Values of one mapping per pmap_cols; addr/mode/name are caller's buffers. */
static void map_row(const struct proc *pr, const struct ptk_smap *m, const struct pmap_opts *o,
		    struct ptk_val *v, char *addr, char *mode, char *nbuf, size_t nsize)
{
	const struct ptk_smaps *s = &pr->s;
	u64 dirty;
	bool hd = ptk_smap_dirty(s, m, &dirty);

	snprintf(addr, 20, "%016" PRIx64, m->start);
	mode_str(m, mode);
	v[P_ADDR] = PTK_S(addr);
	v[P_KBYTES] = PTK_U((m->end - m->start) >> 10);
	v[P_RSS] = opt_val(s, m, PTK_SM_RSS);
	v[P_PSS] = opt_val(s, m, PTK_SM_PSS);
	v[P_DIRTY] = hd ? PTK_U(dirty) : PTK_NA;
	v[P_SWAP] = opt_val(s, m, PTK_SM_SWAP);
	v[P_MODE] = PTK_S(mode);
	v[P_MAP] = PTK_S(map_name(pr, m, o->p, nbuf, nsize));
}

/* The totals row (Kbytes..Swap) of pr; n/a where no mapping had the field, unless
 * zero_na (pmap -x prints 0 for a process without mappings). */
static void total_row(const struct proc *pr, bool zero_na, struct ptk_val *tot)
{
	struct ptk_smaps_totals t;

	ptk_smaps_totals(&pr->s, &t);
	tot[P_KBYTES] = PTK_U(t.size_kb);
	tot[P_RSS] = t.rss_ok || zero_na ? PTK_U(t.rss_kb) : PTK_NA;
	tot[P_PSS] = t.pss_ok ? PTK_U(t.pss_kb) : PTK_NA;
	tot[P_DIRTY] = t.dirty_ok || zero_na ? PTK_U(t.dirty_kb) : PTK_NA;
	tot[P_SWAP] = t.swap_ok ? PTK_U(t.swap_kb) : PTK_NA;
}

static const char *fmt(const struct ptk_metric *m, struct ptk_val v, char *buf)
{
	return ptk_metric_fmt(m, &v, buf, 32);
}

static void print_json(struct ptk_ctx *ctx, const struct pmap_opts *o, const struct proc *pr)
{
	struct ptk_val v[P_N], tot[P_N];
	char addr[20], mode[8], nbuf[64];

	ptk_sink_begin(&ctx->sink);
	ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
	ptk_sink_meta_json(&ctx->sink, "pid", ptk_json_val(PTK_M(PROC_PID), &PTK_I(pr->pid)));
	ptk_sink_meta_str(&ctx->sink, "cmdline", pr->cmdline);
	ptk_sink_table_begin(&ctx->sink, &map_tab, false, NULL);
	for (int i = 0; i < pr->s.n; i++) {
		map_row(pr, &pr->s.m[i], o, v, addr, mode, nbuf, sizeof(nbuf));
		/* pmap's "  [ anon ]" indent is layout, not part of the name */
		v[P_MAP].s += strspn(v[P_MAP].s, " ");
		ptk_sink_row(&ctx->sink, NULL, v);
	}
	ptk_sink_table_end(&ctx->sink);
	total_row(pr, false, tot);
	ptk_sink_meta_json(&ctx->sink, "total", ptk_json_row(&total_tab, tot + P_KBYTES));
	ptk_sink_end(&ctx->sink);
}

/* Default layout: "%016lx %6luK mode name", " total %16luK". */
static void print_default(const struct pmap_opts *o, const struct proc *pr)
{
	struct ptk_val v[P_N], tot[P_N];
	char addr[20], mode[8], nbuf[64], b[32];

	for (int i = 0; i < pr->s.n; i++) {
		map_row(pr, &pr->s.m[i], o, v, addr, mode, nbuf, sizeof(nbuf));
		printf("%s %6sK %s %s\n", addr, fmt(pmap_cols[P_KBYTES], v[P_KBYTES], b), mode,
		       v[P_MAP].s);
	}
	total_row(pr, false, tot);
	if (!o->q)
		printf(" total %16sK\n", fmt(pmap_cols[P_KBYTES], tot[P_KBYTES], b));
}

/* -d: offset and device; "mapped: ...K    writeable/private: ...K    shared: ...K". */
static void print_device(const struct pmap_opts *o, const struct proc *pr)
{
	struct ptk_val v[P_N];
	struct ptk_smaps_totals t;
	char addr[20], mode[8], nbuf[64], off[24], dev[24], b[4][32];

	if (!o->q)
		printf("%-16s %7s %-5s %-16s %-9s %s\n", pmap_cols[P_ADDR]->name,
		       pmap_cols[P_KBYTES]->name, pmap_cols[P_MODE]->name, dev_cols[D_OFFSET]->name,
		       dev_cols[D_DEVICE]->name, pmap_cols[P_MAP]->name);
	for (int i = 0; i < pr->s.n; i++) {
		const struct ptk_smap *m = &pr->s.m[i];

		map_row(pr, m, o, v, addr, mode, nbuf, sizeof(nbuf));
		snprintf(off, sizeof(off), "%016" PRIx64, m->offset);
		snprintf(dev, sizeof(dev), "%03x:%05x", m->dev_major, m->dev_minor);
		printf("%s %7s %5s %s %s %s\n", addr, fmt(pmap_cols[P_KBYTES], v[P_KBYTES], b[0]),
		       mode, fmt(dev_cols[D_OFFSET], PTK_S(off), b[1]),
		       fmt(dev_cols[D_DEVICE], PTK_S(dev), b[2]), v[P_MAP].s);
	}
	if (o->q)
		return;
	ptk_smaps_totals(&pr->s, &t);
	printf("%s: %sK    %s: %sK    %s: %sK\n", dev_cols[D_MAPPED]->name,
	       fmt(dev_cols[D_MAPPED], PTK_U(t.mapped_kb), b[0]), dev_cols[D_WPRIV]->name,
	       fmt(dev_cols[D_WPRIV], PTK_U(t.wpriv_kb), b[1]), dev_cols[D_SHARED]->name,
	       fmt(dev_cols[D_SHARED], PTK_U(t.shared_kb), b[2]));
}

/* -x: Address Kbytes RSS Dirty Mode Mapping, then "total kB". */
static void print_extended(const struct pmap_opts *o, const struct proc *pr)
{
	struct ptk_val v[P_N], tot[P_N];
	char addr[20], mode[8], nbuf[64], b[3][32];
	const struct ptk_metric *const *c = pmap_cols;

	if (!o->q)
		printf("%-16s %7s %7s %7s %-5s %s\n", c[P_ADDR]->name, c[P_KBYTES]->name,
		       c[P_RSS]->name, c[P_DIRTY]->name, c[P_MODE]->name, c[P_MAP]->name);
	for (int i = 0; i < pr->s.n; i++) {
		map_row(pr, &pr->s.m[i], o, v, addr, mode, nbuf, sizeof(nbuf));
		printf("%s %7s %7s %7s %5s %s\n", addr, fmt(c[P_KBYTES], v[P_KBYTES], b[0]),
		       fmt(c[P_RSS], v[P_RSS], b[1]), fmt(c[P_DIRTY], v[P_DIRTY], b[2]), mode,
		       v[P_MAP].s);
	}
	if (o->q)
		return;
	/* A process without mappings (kernel thread) totals 0, as pmap says. */
	total_row(pr, !pr->s.n, tot);
	printf("---------------- ------- ------- ------- \n");
	printf("%-16s %7s %7s %7s\n", "total kB", fmt(c[P_KBYTES], tot[P_KBYTES], b[0]),
	       fmt(c[P_RSS], tot[P_RSS], b[1]), fmt(c[P_DIRTY], tot[P_DIRTY], b[2]));
}

/* Fields pmap -X leaves out (-XX shows them). */
static bool x_unimportant(const char *f)
{
	static const char *const skip[] = { "AnonHugePages", "KernelPageSize", "MMUPageSize",
					    "Shared_Dirty",  "Private_Dirty",  "Shared_Clean",
					    "Private_Clean", "VmFlags" };
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(f, skip[i]))
			return true;
	return false;
}

static int digits(u64 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Right-justify a header title into width w (widened to fit), then a space. */
static int head(const char *t, int w)
{
	w = MAX(w, (int)strlen(t));
	printf("%*s ", w, t);
	return w;
}

/* -X / -XX: the smaps fields as columns, widths measured first, "=" footer with totals. */
static void print_smaps_table(const struct pmap_opts *o, struct xcols *xc, const struct proc *pr)
{
	const struct ptk_smaps *s = &pr->s;
	int fi[PTK_SMAPS_MAXF], w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, wv = 0;
	struct ptk_val tot[PTK_SMAPS_MAXF];
	char b[32];

	/* The column set comes from the first process that has fields, as in pmap. */
	if (!xc->n)
		for (int i = 0; i < s->nfields && xc->n < PTK_SMAPS_MAXF; i++) {
			if (o->X < 2 && x_unimportant(s->field[i]))
				continue;
			snprintf(xc->name[xc->n], sizeof(xc->name[0]), "%s", s->field[i]);
			xc->met[xc->n] = (struct ptk_metric){
				.name = xc->name[xc->n],
				.key = xc->name[xc->n],
				.unit = s->field_kb[i] ? "kB" : "",
				.kind = PTK_GAUGE,
				.type = PTK_V_U64,
				.help = "/proc/PID/smaps field of the same name",
			};
			xc->w[xc->n] = o->q ? 0 : strlen(xc->name[xc->n]);
			xc->n++;
		}
	for (int j = 0; j < xc->n; j++) {
		fi[j] = ptk_smaps_field(s, xc->name[j]);
		tot[j] = PTK_U(ptk_smaps_field_sum(s, fi[j]));
	}
	bool vmf = o->X >= 2 && s->has_vmflags;

	for (int i = 0; i < s->n; i++) {
		const struct ptk_smap *m = &s->m[i];

		w1 = MAX(w1, (int)strlen(m->start_s));
		w2 = MAX(w2, (int)strlen(m->perms));
		w3 = MAX(w3, (int)strlen(m->offset_s));
		w4 = MAX(w4, (int)strlen(m->dev_s));
		w5 = MAX(w5, (int)strlen(m->inode_s));
		if (m->vmflags)
			wv = MAX(wv, (int)strlen(m->vmflags));
		for (int j = 0; j < xc->n; j++) {
			if (fi[j] < 0 || !(m->have & (1ULL << fi[j])))
				continue;
			if (o->q)
				xc->w[j] = MAX(xc->w[j], digits(m->val[fi[j]]));
		}
	}
	if (!o->q)
		for (int j = 0; j < xc->n; j++)
			xc->w[j] = MAX(xc->w[j], digits(tot[j].u));

	if (s->n && !o->q) {
		w1 = head("Address", w1);
		w2 = head("Perm", w2);
		w3 = head("Offset", w3);
		w4 = head("Device", w4);
		w5 = head("Inode", w5);
		for (int j = 0; j < xc->n; j++)
			head(xc->name[j], xc->w[j]);
		if (vmf)
			wv = head("VmFlags", wv);
		printf("%s\n", pmap_cols[P_MAP]->name);
	}
	for (int i = 0; i < s->n; i++) {
		const struct ptk_smap *m = &s->m[i];
		const char *name = m->path, *slash = strrchr(m->path, '/');

		printf("%*s %*s %*s %*s %*s", w1, m->start_s, w2, m->perms, w3, m->offset_s, w4,
		       m->dev_s, w5, m->inode_s);
		for (int j = 0; j < xc->n; j++) {
			bool have = fi[j] >= 0 && (m->have & (1ULL << fi[j]));
			printf(" %*s", xc->w[j],
			       fmt(&xc->met[j], have ? PTK_U(m->val[fi[j]]) : PTK_NA, b));
		}
		if (vmf)
			printf(" %*s", wv, m->vmflags ? m->vmflags : "");
		if (slash && !o->p)
			name = slash + 1;
		printf(" %s\n", name);
	}
	if (o->q || !xc->n)
		return;
	int gap = w1 + w2 + w3 + w4 + w5 + 5;
	printf("%*s", gap, "");
	for (int j = 0; j < xc->n; j++) {
		for (int k = 0; k < xc->w[j]; k++)
			putchar('=');
		putchar(' ');
	}
	printf("\n%*s", gap, "");
	for (int j = 0; j < xc->n; j++)
		printf("%*s ", xc->w[j], fmt(&xc->met[j], tot[j], b));
	printf("KB \n");
}

/* Read one process. Returns 0, or 1 after saying why on stderr. */
static int read_proc(struct ptk_ctx *ctx, int pid, bool full, struct proc *pr)
{
	int r;

	memset(pr, 0, sizeof(*pr));
	pr->pid = pid;
	pr->cmdline = ptk_smaps_cmdline(&ctx->src, pid);
	if (!pr->cmdline && (errno == ENOENT || errno == ESRCH)) {
		ptk_err("%d: no such process", pid);
		return 1;
	}
	r = ptk_smaps_read(&ctx->src, pid, full, &pr->s);
	if (r) {
		char path[PATH_MAX + 32];
		ptk_src_path(&ctx->src, PTK_PROC, "", path, sizeof(path));
		if (r == -ENOENT)
			ptk_err("%d: no such process", pid);
		else if (r == -EACCES || r == -EPERM)
			ptk_err("%d: cannot read %s%d/%s: %s (needs ptrace access: same user, or root)",
				pid, path, pid, full ? "smaps" : "maps", strerror(-r));
		else
			ptk_err("%d: cannot read %s%d/%s: %s", pid, path, pid,
				full ? "smaps" : "maps", strerror(-r));
		free(pr->cmdline);
		pr->cmdline = NULL;
		return 1;
	}
	if (!pr->cmdline)
		pr->cmdline = xstrdup("");
	pr->have_ss = !ptk_smaps_startstack(&ctx->src, pid, &pr->ss);
	if (pr->s.truncated)
		ptk_warn(
			"%d: memory map ended inside a mapping (process exiting?): last one dropped",
			pid);
	return 0;
}

/* A PID operand as procps pmap takes it (pmap.c main): "/proc/" may lead; then digits read by
 * strtoul base 0 (so 0x10 is 16 and 010 is 8, as procps), 1 to 0x7fffffff, nothing after. */
static int parse_pid(const char *arg, int *pid)
{
	unsigned long v;
	char *end;

	if (!strncmp(arg, "/proc/", 6))
		arg += 6;
	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || *end || v < 1 || v > 0x7ffffffful)
		return -EINVAL;
	*pid = (int)v;
	return 0;
}

int cmd_pmap(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "extended", no_argument, NULL, 'x' },
					      { "device", no_argument, NULL, 'd' },
					      { "quiet", no_argument, NULL, 'q' },
					      { "show-path", no_argument, NULL, 'p' },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct pmap_opts o = { 0 };
	struct xcols xc = { 0 };
	int c, r, ret = 0, *pids;

	while ((c = ptk_getopt(ctx, argc, argv, "xXdqph", opts, usage, &r)) >= 0) {
		switch (c) {
		case 'x':
			o.x = 1;
			break;
		case 'X':
			o.X++;
			break;
		case 'd':
			o.d = 1;
			break;
		case 'q':
			o.q = 1;
			break;
		case 'p':
			o.p = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return r;
	if (o.x + o.d + !!o.X > 1)
		return ptk_usage_error(ctx, "options -d, -x, -X are mutually exclusive");
	if (o.X > 2)
		return ptk_usage_error(ctx, "-X may be given at most twice (-XX)");
	/* procps's words: "argument missing" without a PID, its usage line for a bad one */
	if (optind >= argc)
		return ptk_usage_error(ctx,
				       "argument missing: usage: ptk pmap [options] PID [PID ...]");
	pids = xcalloc(argc - optind, sizeof(*pids));
	for (int i = optind; i < argc; i++)
		if (parse_pid(argv[i], &pids[i - optind])) {
			free(pids);
			return ptk_usage_error(
				ctx, "invalid PID '%s': usage: ptk pmap [options] PID [PID ...]",
				argv[i]);
		}
	if ((r = ptk_ctx_ready(ctx))) {
		free(pids);
		return r;
	}
	/* The default and -d layouts need only the header lines: /proc/PID/maps is much cheaper
	 * than smaps, which walks every page table. */
	bool full = ctx->json || o.x || o.X;

	for (int i = 0; i < argc - optind && !ctx->stop; i++) {
		struct proc pr;

		if (read_proc(ctx, pids[i], full, &pr)) {
			ret = PTK_EXIT_RUNTIME;
			continue;
		}
		if (ctx->json) {
			print_json(ctx, &o, &pr);
		} else {
			printf("%d:   %s\n", pr.pid, pr.cmdline);
			if (o.X)
				print_smaps_table(&o, &xc, &pr);
			else if (o.x)
				print_extended(&o, &pr);
			else if (o.d)
				print_device(&o, &pr);
			else
				print_default(&o, &pr);
			fflush(stdout);
		}
		free(pr.cmdline);
		ptk_smaps_free(&pr.s);
	}
	free(pids);
	return ret;
}
