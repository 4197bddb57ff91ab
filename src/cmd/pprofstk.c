// SPDX-License-Identifier: GPL-2.0
#include "cmd/pprofstk.h"

#include <stdlib.h>
#include <string.h>

#include "source/procfs/smaps.h"

#define NBUCKET 1024

/* What one process contributes: its maps (read once) and cgroup. */
struct proc {
	struct proc *next;
	u32 pid;
	struct ptk_smaps maps;
	bool have_maps;
	char cgroup[256];
};

/* Build IDs by file. */
struct bid {
	struct bid *next;
	char *path;
	char id[64]; /* "" when the file has none */
};

struct pprofstk {
	struct ptk_pprof *pp;
	const struct ptk_src *src;
	struct proc *procs[NBUCKET];
	struct bid *bids[NBUCKET];
	u64 kmap;
};

static unsigned str_bucket(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % NBUCKET;
}

/* The kernel's build ID: the GNU note of /sys/kernel/notes (raw Elf_Nhdr records). */
static void kernel_build_id(char *out, size_t size)
{
	unsigned char b[4096];
	ssize_t n = ptk_read_file("/sys/kernel/notes", (char *)b, sizeof(b));
	size_t off = 0;

	out[0] = '\0';
	while (n > 0 && off + 12 <= (size_t)n) {
		u32 namesz, descsz, type;
		memcpy(&namesz, b + off, 4);
		memcpy(&descsz, b + off + 4, 4);
		memcpy(&type, b + off + 8, 4);
		size_t name = off + 12, desc = name + ((namesz + 3) & ~3u);
		if (desc + descsz > (size_t)n)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && !memcmp(b + name, "GNU", 4) &&
		    descsz * 2 + 1 <= size) {
			for (u32 i = 0; i < descsz; i++)
				sprintf(out + 2 * i, "%02x", b[desc + i]);
			return;
		}
		off = desc + ((descsz + 3) & ~3u);
	}
}

struct pprofstk *pprofstk_new(struct ptk_pprof *pp, const struct ptk_src *src)
{
	struct pprofstk *c = xcalloc(1, sizeof(*c));

	c->pp = pp;
	c->src = src;
	return c;
}

void pprofstk_free(struct pprofstk *c)
{
	if (!c)
		return;
	for (int i = 0; i < NBUCKET; i++) {
		while (c->procs[i]) {
			struct proc *p = c->procs[i];
			c->procs[i] = p->next;
			if (p->have_maps)
				ptk_smaps_free(&p->maps);
			free(p);
		}
		while (c->bids[i]) {
			struct bid *b = c->bids[i];
			c->bids[i] = b->next;
			free(b->path);
			free(b);
		}
	}
	free(c);
}

static struct proc *proc_get(struct pprofstk *c, u32 pid)
{
	struct proc **b = &c->procs[pid % NBUCKET], *p;
	char path[64], buf[4096];
	ssize_t n;

	for (p = *b; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->have_maps = pid && !ptk_smaps_read(c->src, pid, false, &p->maps);
	/* cgroup v2: "0::/path"; else the first hierarchy's path */
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	n = pid ? ptk_read_file(path, buf, sizeof(buf)) : -1;
	if (n > 0) {
		char *l = strstr(buf, "0::"), *e;
		if (l && (l == buf || l[-1] == '\n')) {
			l += 3;
		} else {
			l = strchr(buf, ':');
			l = l ? strchr(l + 1, ':') : NULL;
			l = l ? l + 1 : buf;
		}
		e = strchr(l, '\n');
		snprintf(p->cgroup, sizeof(p->cgroup), "%.*s", (int)(e ? e - l : (long)strlen(l)),
			 l);
	}
	p->next = *b;
	*b = p;
	return p;
}

static const char *build_id(struct pprofstk *c, u32 pid, const char *file)
{
	struct bid **b = &c->bids[str_bucket(file)], *x;
	char path[4200];

	for (x = *b; x; x = x->next)
		if (!strcmp(x->path, file))
			return x->id[0] ? x->id : NULL;
	x = xcalloc(1, sizeof(*x));
	x->path = xstrdup(file);
	/* through the process's root: the file it mapped, in containers too */
	snprintf(path, sizeof(path), "/proc/%u/root%s", pid, file);
	if (ptk_elf_build_id(path, x->id, sizeof(x->id)) &&
	    ptk_elf_build_id(file, x->id, sizeof(x->id)))
		x->id[0] = '\0';
	x->next = *b;
	*b = x;
	return x->id[0] ? x->id : NULL;
}

/* The kernel's mapping, made on first use: pprof takes the first mapping for the main
 * binary, which should be the profiled program's where it has user frames. */
static u64 kernel_mapping(struct pprofstk *c)
{
	char kb[64];

	if (!c->kmap) {
		kernel_build_id(kb, sizeof(kb));
		c->kmap = ptk_pprof_mapping(c->pp, 0xffff800000000000ull, ~0ull, 0,
					    "[kernel.kallsyms]", kb[0] ? kb : NULL);
	}
	return c->kmap;
}

/* The mapping of user address addr of pid: the maps line holding it. */
static u64 user_mapping(struct pprofstk *c, u32 pid, u64 addr)
{
	struct proc *p = proc_get(c, pid);

	if (!p->have_maps)
		return 0;
	for (int i = 0; i < p->maps.n; i++) {
		const struct ptk_smap *m = &p->maps.m[i];
		if (addr < m->start || addr >= m->end)
			continue;
		if (!m->path || !m->path[0])
			return 0; /* anonymous: JIT code */
		return ptk_pprof_mapping(c->pp, m->start, m->end, m->offset, m->path,
					 m->path[0] == '/' ? build_id(c, pid, m->path) : NULL);
	}
	return 0;
}

void pprofstk_sample(const struct ptk_stack_sample *s, void *arg)
{
	s64 v[2] = { 1, (s64)s->period };

	pprofstk_sample_values(arg, s, v);
}

void pprofstk_sample_values(struct pprofstk *c, const struct ptk_stack_sample *s, const s64 *v)
{
	u64 locs[512];
	struct proc *p = proc_get(c, s->pid);
	struct ptk_pprof_label lab[4] = {
		{ .key = "pid", .num = s->pid },
		{ .key = "tid", .num = s->tid },
		{ .key = "comm", .str = s->comm },
		{ .key = "cgroup", .str = p->cgroup },
	};
	int n = s->n < (int)ARRAY_SIZE(locs) ? s->n : (int)ARRAY_SIZE(locs);

	/* root first, so that the first mapping made is the program's, not the kernel's */
	for (int i = n - 1; i >= 0; i--) {
		const struct ptk_stack_frame *f = &s->f[i];
		u64 m = f->kernel ? kernel_mapping(c) : user_mapping(c, s->pid, f->addr);
		locs[i] = ptk_pprof_location(c->pp, m, m ? f->addr : 0, f->name, NULL, 0);
	}
	ptk_pprof_sample(c->pp, locs, n, v, lab, p->cgroup[0] ? 4 : 3);
}
