// SPDX-License-Identifier: GPL-2.0
#include "source/perf/stacks.h"

#include <stdlib.h>
#include <string.h>

#include "source/perf/unwind.h"

#define MAX_FRAMES 256

struct comm {
	struct comm *next;
	pid_t tid;
	char name[16];
};

/* Resolved names by (pid, address): libdwfl's address lookup scans the symbol table, and a
 * profile asks for the same few return addresses over and over. pid -1 = kernel. */
struct name_slot {
	u64 addr;
	pid_t pid;
	bool used;
	const char *name; /* owned by the symbolizer */
	const char *module; /* the same */
};
struct name_cache {
	struct name_slot *s;
	size_t cap, n;
};

struct ptk_stacks {
	struct ptk_symbolizer *sym;
	struct ptk_folded *folded;
	u64 sample_type, regs_mask;
	bool dwarf;
	struct comm *comms[1024];
	struct name_cache names;
	u64 samples, bad, unwind_fail, unwind_truncated;
	ptk_stack_fn fn;
	void *fn_arg;
};

/* ---- comm of a thread: PERF_RECORD_COMM, else /proc, else ":TID" as perf script ---- */

static struct comm *comm_get(struct ptk_stacks *p, pid_t pid, pid_t tid)
{
	struct comm **b = &p->comms[(unsigned)tid % ARRAY_SIZE(p->comms)], *c;
	char path[64], buf[32];

	for (c = *b; c; c = c->next)
		if (c->tid == tid)
			return c;
	c = xcalloc(1, sizeof(*c));
	c->tid = tid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (tid == 0)
		snprintf(c->name, sizeof(c->name), "swapper");
	else if (ptk_read_file(path, buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(c->name, sizeof(c->name), "%.15s", buf);
	} else
		snprintf(c->name, sizeof(c->name), ":%d", tid);
	c->next = *b;
	*b = c;
	return c;
}

static void comms_free(struct ptk_stacks *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(p->comms); i++)
		while (p->comms[i]) {
			struct comm *c = p->comms[i];
			p->comms[i] = c->next;
			free(c);
		}
}

/* ---- samples to folded stacks ---- */

static size_t name_hash(pid_t pid, u64 addr)
{
	u64 h = (addr ^ ((u64)(u32)pid << 47)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20);
}

/* The slot of (pid, addr): found (used) or the free one to fill. */
static struct name_slot *name_slot(struct name_cache *c, pid_t pid, u64 addr)
{
	size_t i;

	if (c->n * 2 >= c->cap) {
		struct name_cache nc = { .cap = c->cap ? c->cap * 2 : 4096 };
		nc.s = xcalloc(nc.cap, sizeof(*nc.s));
		for (size_t k = 0; k < c->cap; k++) {
			if (!c->s[k].used)
				continue;
			i = name_hash(c->s[k].pid, c->s[k].addr) & (nc.cap - 1);
			while (nc.s[i].used)
				i = (i + 1) & (nc.cap - 1);
			nc.s[i] = c->s[k];
			nc.n++;
		}
		free(c->s);
		*c = nc;
	}
	i = name_hash(pid, addr) & (c->cap - 1);
	while (c->s[i].used && (c->s[i].pid != pid || c->s[i].addr != addr))
		i = (i + 1) & (c->cap - 1);
	return &c->s[i];
}

static void names_clear(struct name_cache *c)
{
	free(c->s);
	memset(c, 0, sizeof(*c));
}

static const struct name_slot *kname(struct ptk_stacks *p, u64 ip)
{
	struct name_slot *sl = name_slot(&p->names, -1, ip);
	struct ptk_frame f;

	if (sl->used)
		return sl;
	ptk_sym_kernel(p->sym, ip, &f);
	*sl = (struct name_slot){
		.addr = ip, .pid = -1, .used = true, .name = ptk_frame_name(&f), .module = f.module
	};
	p->names.n++;
	return sl;
}

static const struct name_slot *uname(struct ptk_stacks *p, pid_t pid, u64 ip, bool leaf)
{
	/* a return address may be the first byte after a call at the end of a function */
	u64 a = leaf ? ip : ip - 1;
	struct name_slot *sl = name_slot(&p->names, pid, a);
	struct ptk_frame f;

	if (sl->used)
		return sl;
	ptk_sym_user(p->sym, pid, a, &f);
	*sl = (struct name_slot){
		.addr = a, .pid = pid, .used = true, .name = ptk_frame_name(&f), .module = f.module
	};
	p->names.n++;
	return sl;
}

static void on_sample(struct ptk_stacks *p, const struct perf_event_header *h)
{
	struct ptk_perf_sample s;
	u64 kips[MAX_FRAMES], uips[MAX_FRAMES];
	int nk = 0, nu = 0, n = 0;
	const char *frames[1 + 2 * MAX_FRAMES];
	struct ptk_stack_frame sf[2 * MAX_FRAMES];
	bool in_user = true;

	if (ptk_perf_sample_parse(h, p->sample_type, p->regs_mask, &s)) {
		p->bad++;
		return;
	}
	p->samples++;
	if (s.nr) {
		in_user = false;
		for (u64 i = 0; i < s.nr; i++) {
			u64 ip = s.ips[i];
			if (ip >= (u64)PERF_CONTEXT_MAX) {
				in_user = ip == (u64)PERF_CONTEXT_USER;
				continue;
			}
			if (in_user && nu < MAX_FRAMES)
				uips[nu++] = ip;
			else if (!in_user && nk < MAX_FRAMES)
				kips[nk++] = ip;
		}
	} else if (!p->dwarf || !s.user) {
		if (s.user)
			uips[nu++] = s.ip;
		else
			kips[nk++] = s.ip;
	}
	if (p->dwarf && s.regs_abi && s.pid) {
		unsigned fl;
		int r = ptk_unwind_dwarf_ex(p->sym, s.pid, &s, uips, MAX_FRAMES, &fl);
		if (r <= 1)
			p->unwind_fail++;
		if (fl & PTK_UNWIND_TRUNCATED)
			p->unwind_truncated++;
		nu = r > 0 ? r : 1;
		if (r <= 0)
			uips[0] = s.regs[8 /* PERF_REG_X86_IP */];
	}
	frames[n++] = comm_get(p, s.pid, s.tid)->name;
	/* root first: user outermost .. leaf, then kernel entry .. leaf; sf leaf first */
	for (int i = nu - 1; i >= 0; i--) {
		const struct name_slot *sl = uname(p, s.pid, uips[i], i == 0);
		sf[nk + i] = (struct ptk_stack_frame){ uips[i], sl->name, sl->module, false };
		frames[n++] = sl->name;
	}
	for (int i = nk - 1; i >= 0; i--) {
		const struct name_slot *sl = kname(p, kips[i]);
		sf[i] = (struct ptk_stack_frame){ kips[i], sl->name, sl->module, true };
		frames[n++] = sl->name;
	}
	ptk_folded_add(p->folded, frames, n, 1);
	if (p->fn) {
		struct ptk_stack_sample ss = { .pid = s.pid,
					       .tid = s.tid,
					       .cpu = s.cpu,
					       .time = s.time,
					       .period = s.period,
					       .comm = frames[0],
					       .n = nk + nu,
					       .f = sf };
		p->fn(&ss, p->fn_arg);
	}
}

void ptk_stacks_on_sample(struct ptk_stacks *p, ptk_stack_fn fn, void *arg)
{
	p->fn = fn;
	p->fn_arg = arg;
}

int ptk_stacks_record(const struct perf_event_header *h, void *arg)
{
	struct ptk_stacks *p = arg;

	if (h->type == PERF_RECORD_SAMPLE) {
		on_sample(p, h);
	} else if (h->type == PERF_RECORD_COMM) {
		/* u32 pid, tid; char comm[] */
		const u32 *v = (const u32 *)(h + 1);
		struct comm *c = comm_get(p, v[0], v[1]);
		snprintf(c->name, sizeof(c->name), "%.*s", 15, (const char *)(v + 2));
		/* an exec replaces the image: forget the modules read for the old one */
		if ((h->misc & PERF_RECORD_MISC_COMM_EXEC) && v[0] == v[1]) {
			ptk_sym_forget(p->sym, v[0]);
			names_clear(&p->names); /* its names pointed into the forgotten modules */
		}
	}
	return 0;
}

struct ptk_stacks *ptk_stacks_new(struct ptk_symbolizer *sym, struct ptk_folded *f, u64 sample_type,
				  u64 regs_mask, bool dwarf)
{
	struct ptk_stacks *p = xcalloc(1, sizeof(*p));

	p->sym = sym;
	p->folded = f;
	p->sample_type = sample_type;
	p->regs_mask = regs_mask;
	p->dwarf = dwarf;
	return p;
}

void ptk_stacks_free(struct ptk_stacks *p)
{
	if (!p)
		return;
	names_clear(&p->names);
	comms_free(p);
	free(p);
}

void ptk_stacks_counts(const struct ptk_stacks *p, struct ptk_stacks_counts *c)
{
	c->samples = p->samples;
	c->bad = p->bad;
	c->unwind_fail = p->unwind_fail;
	c->unwind_truncated = p->unwind_truncated;
}
