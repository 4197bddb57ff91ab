// SPDX-License-Identifier: GPL-2.0
/* ptk offcputime: off-CPU time by stack (user + kernel), summed in the kernel. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <assert.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/pprofstk.h"
#include "offcputime.skel.h"
/* light skeletons, one per hook flavour (kernel-side loader: no vmlinux BTF parsed here);
 * the libbpf skeleton is the fallback before 5.17 (PTK_BPF_LSKEL=0 forces it, =raw the
 * raw_tp flavour) */
#include "offcputime_btf.lskel.h"
#include "offcputime_raw.lskel.h"
#include "source/bpf/offcputime.h"
#include "source/bpf/runner.h"
#include "model/folded.h"
#include "source/perf/unwind.h"
#include "source/sym/sym.h"

static const char usage[] =
	"usage: ptk offcputime [-p PID | -t TID | -c COMM | --cgroup PATH] [-u | -k] [--state N]\n"
	"                      [-m MIN_US] [-M MAX_US] [-f] [--stack-storage-size N]\n"
	"                      [--call-graph fp|dwarf[,BYTES]] [-o FILE.pb.gz] [-v] [--json]\n"
	"                      [duration]\n"
	"Off-CPU time by stack trace: from sched_switch, the time each task spent switched out,\n"
	"summed in the kernel per (thread, user stack, kernel stack) (libbpf-tools offcputime).\n"
	"Reports at the end of duration (seconds) or at Ctrl-C.\n"
	"  -p PID       only this process (all of its threads); -t TID one thread\n"
	"  -c COMM      only tasks with this comm; --cgroup PATH only tasks in this cgroup v2\n"
	"  -u / -k      user threads only / kernel threads only\n"
	"  --state N    only blocks that began in this task state (e.g. 1 TASK_INTERRUPTIBLE,\n"
	"               2 TASK_UNINTERRUPTIBLE, 0 preempted while runnable)\n"
	"  -m MIN_US    only blocks of at least MIN_US microseconds (default 1)\n"
	"  -M MAX_US    only blocks of at most MAX_US microseconds (default unlimited)\n"
	"  -f           folded output for flame graphs: comm;user frames (root first);-;kernel\n"
	"               frames (root first) usecs\n"
	"  --stack-storage-size N   distinct stacks kept (default 1024); stacks that do not fit\n"
	"               are counted as lost and reported\n"
	"  --call-graph fp|dwarf[,BYTES]   user stacks by frame pointer (default, in the\n"
	"               kernel), or dwarf: BYTES (default 8192, at most 16384) of user stack and\n"
	"               the registers copied at each switch-out and unwound here with libdw's\n"
	"               CFI, for code built without frame pointers (as perf --call-graph dwarf);\n"
	"               stacks deeper than the copy are counted and end in [unknown]\n"
	"  -o FILE.pb.gz   also write a pprof profile (go tool pprof, Parca, Pyroscope): sample\n"
	"               types off_cpu_periods/count and off_cpu/nanoseconds, a location per\n"
	"               address in its mapping with the build ID, labels pid, tid, comm, cgroup\n"
	"Text output reads leaf first: kernel frames, '--', user frames, then comm (tid) and the\n"
	"total off-CPU microseconds; the largest totals are printed last.\n";

enum { OPT_STATE = 0x1200, OPT_STACK_STORAGE, OPT_CALLGRAPH };

/* --call-graph dwarf: stack copies waiting for the end of their period (one per thread),
 * and the periods unwound, summed by (thread, comm, kernel stack, user frames). */
struct dw_pending {
	struct dw_pending *next;
	u32 pid;
	u64 ts;
	struct offcpu_ustack *u;
};
struct dw_entry {
	struct dw_entry *next;
	struct offcpu_key k;
	struct offcpu_val v;
	int n;
	u64 ips[OFFCPU_MAX_DEPTH];
};
#define DW_BUCKETS 4096
struct dwarf {
	struct dw_pending *pend[DW_BUCKETS];
	struct dw_entry *ent[DW_BUCKETS];
	struct dw_entry **all; /* report order: by index */
	size_t nall, capall;
	u64 unwound, truncated, guessed, unmatched, bytes;
};

struct priv {
	bool folded, user_only, kern_only;
	long state;
	u64 min_us, max_us;
	u32 stack_storage;
	struct ptk_symbolizer *sym;
	int stack_fd;
	bool dwarf;
	u32 ustack_bytes;
	struct dwarf *dw;
	const char *outpath; /* -o FILE.pb.gz */
};

/* light skeletons, one per hook flavour, else the libbpf skeleton in r->skel */
PTK_BPF_LSKEL_PAIR_FREE(offcputime)

struct entry {
	struct offcpu_key k;
	struct offcpu_val v;
};

/* One distinct stack of a report: a kernel stack by id (tgid 0), a user stack by (tgid, id);
 * its frames, leaf first, or why it is missing (err: -errno, -ENODATA never taken). */
struct ostack {
	u32 tgid;
	int id;
	int err;
	u64 ips[OFFCPU_MAX_DEPTH];
	struct ptk_sym_stack st;
};

static const char *const lost_name[OFFCPU_LOST_NR] = {
	[OFFCPU_LOST_USTACK_FULL] = "user stacks: stack map full",
	[OFFCPU_LOST_KSTACK_FULL] = "kernel stacks: stack map full",
	[OFFCPU_LOST_USTACK_FAULT] = "user stacks: not readable",
	[OFFCPU_LOST_KSTACK_FAULT] = "kernel stacks: not readable",
	[OFFCPU_LOST_START_FULL] = "blocked tasks not timed: start map full",
	[OFFCPU_LOST_INFO_FULL] = "off-CPU periods dropped: key map full",
	[OFFCPU_LOST_RINGBUF] = "dwarf: stack copies or period ends dropped: ring buffer full",
	[OFFCPU_LOST_USTACK_COPY] = "dwarf: user stacks not readable",
};
static const char *const lost_key[OFFCPU_LOST_NR] = {
	[OFFCPU_LOST_USTACK_FULL] = "user_stack_map_full",
	[OFFCPU_LOST_KSTACK_FULL] = "kernel_stack_map_full",
	[OFFCPU_LOST_USTACK_FAULT] = "user_stack_unreadable",
	[OFFCPU_LOST_KSTACK_FAULT] = "kernel_stack_unreadable",
	[OFFCPU_LOST_START_FULL] = "start_map_full",
	[OFFCPU_LOST_INFO_FULL] = "key_map_full",
	[OFFCPU_LOST_RINGBUF] = "dwarf_ring_buffer_full",
	[OFFCPU_LOST_USTACK_COPY] = "dwarf_user_stack_unreadable",
};
static_assert(ARRAY_SIZE(lost_name) == OFFCPU_LOST_NR, "lost_name");

#define OC_SET_RODATA(skel, r, p)                                     \
	do {                                                          \
		PTK_BPF_SET_FILTERS(skel, &(r)->filter);              \
		(skel)->rodata->user_threads_only = (p)->user_only;   \
		(skel)->rodata->kernel_threads_only = (p)->kern_only; \
		(skel)->rodata->state = (p)->state;                   \
		(skel)->rodata->min_block_us = (p)->min_us;           \
		(skel)->rodata->max_block_us = (p)->max_us;           \
		(skel)->rodata->ustack_bytes = (p)->ustack_bytes;     \
	} while (0)

/* the ring buffer: 16 MiB with --call-graph dwarf (some 2000 stack copies of 8 KiB), else
 * one page */
#define OC_RINGBUF(p) ((p)->dwarf ? 16u << 20 : 4096u)

/* The libbpf skeleton, with the cheapest hook kept (a BTF probe). 0 or -errno. */
static int open_libbpf(struct ptk_bpf_run *r)
{
	struct offcputime_bpf *s = PTK_BPF_OPEN(r, offcputime_bpf);
	struct priv *p = r->priv;
	int err;

	if (!s)
		return -errno;
	OC_SET_RODATA(s, r, p);
	err = bpf_map__set_max_entries(s->maps.stackmap, p->stack_storage);
	if (!err)
		err = bpf_map__set_max_entries(s->maps.events, OC_RINGBUF(p));
	if (err)
		return err;
	r->hook = ptk_bpf_pick_tp(s->progs.tp_btf_sched_switch, s->progs.raw_sched_switch,
				  "sched_switch") ?
			  "tp_btf" :
			  "raw_tp";
	return 0;
}

/* The light skeletons: tp_btf, then raw_tp. 0, or -errno of the last attempt. */
#define OC_SETUP(s)                                                \
	do {                                                       \
		OC_SET_RODATA(s, r, p);                            \
		(s)->maps.stackmap.max_entries = p->stack_storage; \
		(s)->maps.events.max_entries = OC_RINGBUF(p);      \
	} while (0)

static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	return PTK_BPF_LSKEL_PAIR(r, offcputime, OC_SETUP, OC_SETUP);
}

/* ---- --call-graph dwarf ---- */

static unsigned dw_hash(const struct offcpu_key *k, const u64 *ips, int n)
{
	u64 h = 1469598103934665603ull;
	const unsigned char *p = (const unsigned char *)k;

	for (size_t i = 0; i < sizeof(*k); i++)
		h = (h ^ p[i]) * 1099511628211ull;
	for (int i = 0; i < n; i++)
		h = (h ^ ips[i]) * 1099511628211ull;
	return (unsigned)(h % DW_BUCKETS);
}

/* One period unwound: add it to its (key, frames) entry. */
static void dw_add(struct dwarf *d, const struct offcpu_key *k, const u64 *ips, int n, u64 us)
{
	unsigned h = dw_hash(k, ips, n);
	struct dw_entry *e;

	for (e = d->ent[h]; e; e = e->next)
		if (e->n == n && !memcmp(&e->k, k, sizeof(*k)) &&
		    !memcmp(e->ips, ips, n * sizeof(*ips)))
			break;
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->k = *k;
		e->n = n;
		memcpy(e->ips, ips, n * sizeof(*ips));
		e->next = d->ent[h];
		d->ent[h] = e;
		if (d->nall == d->capall) {
			d->capall = d->capall ? d->capall * 2 : 256;
			d->all = xrealloc(d->all, d->capall * sizeof(*d->all));
		}
		d->all[d->nall++] = e;
	}
	e->v.delta_us += us;
	e->v.count++;
}

static struct dw_pending **dw_slot(struct dwarf *d, u32 pid)
{
	struct dw_pending **pp = &d->pend[pid % DW_BUCKETS];

	while (*pp && (*pp)->pid != pid)
		pp = &(*pp)->next;
	return pp;
}

/* Unwind the copy u with libdw's CFI into ips (leaf first). Returns the frame count. */
static int dw_unwind(struct priv *p, const struct offcpu_ustack *u, u64 *ips)
{
	struct ptk_perf_sample s = { 0 };
	unsigned fl = 0;
	int n;

	s.pid = u->tgid;
	s.tid = u->pid;
	s.regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_mask = ptk_unwind_regs_mask();
	memcpy(s.regs, u->regs, sizeof(u->regs));
	s.ip = u->regs[8];
	s.stack = u->data;
	s.stack_size = u->size;
	s.user = true;
	n = ptk_unwind_dwarf_ex(p->sym, u->tgid, &s, ips, OFFCPU_MAX_DEPTH, &fl);
	if (n <= 0) {
		ips[0] = u->regs[8];
		n = 1;
	}
	p->dw->unwound++;
	p->dw->bytes += u->size;
	if (fl & PTK_UNWIND_TRUNCATED)
		p->dw->truncated++;
	if (fl & PTK_UNWIND_GUESSED)
		p->dw->guessed++;
	return n;
}

/* A ring buffer record: a stack copy (kept until its period ends) or a period's end (the
 * copy unwound now, while the thread still lives, and summed). */
static int oc_event(struct ptk_bpf_run *r, const void *data, size_t len)
{
	struct priv *p = r->priv;
	struct dwarf *d = p->dw;
	u32 type;

	if (!d || len < sizeof(u32))
		return 0;
	memcpy(&type, data, sizeof(type));
	if (type == OFFCPU_REC_STACK && len >= offsetof(struct offcpu_ustack, data)) {
		const struct offcpu_ustack *u = data;
		struct dw_pending **pp = dw_slot(d, u->pid), *q = *pp;
		size_t n = offsetof(struct offcpu_ustack, data) + MIN(u->size, OFFCPU_USTACK_MAX);
		if (n > len)
			return 0;
		if (!q) {
			q = xcalloc(1, sizeof(*q));
			q->pid = u->pid;
			*pp = q;
		}
		free(q->u);
		q->u = xmalloc(n);
		memcpy(q->u, u, n);
		q->u->size = n - offsetof(struct offcpu_ustack, data);
		q->ts = u->ts;
		return 0;
	}
	if (type == OFFCPU_REC_DONE && len >= sizeof(struct offcpu_done)) {
		const struct offcpu_done *e = data;
		struct dw_pending **pp = dw_slot(d, e->pid), *q = *pp;
		u64 ips[OFFCPU_MAX_DEPTH];
		struct offcpu_key k;
		if (!q || !q->u || q->ts != e->ts) {
			d->unmatched++; /* its copy was dropped (ring buffer full) */
			return 0;
		}
		memset(&k, 0, sizeof(k));
		k.pid = q->u->pid;
		k.tgid = q->u->tgid;
		k.kern_stack_id = q->u->kern_stack_id;
		memcpy(k.comm, q->u->comm, sizeof(k.comm));
		k.user_stack_id = OFFCPU_DWARF_ID;
		dw_add(d, &k, ips, dw_unwind(p, q->u, ips), e->delta_us);
		free(q->u);
		q->u = NULL;
		return 1;
	}
	return 0;
}

static void dw_free(struct dwarf *d)
{
	if (!d)
		return;
	for (int i = 0; i < DW_BUCKETS; i++)
		while (d->pend[i]) {
			struct dw_pending *q = d->pend[i];
			d->pend[i] = q->next;
			free(q->u);
			free(q);
		}
	for (size_t i = 0; i < d->nall; i++)
		free(d->all[i]);
	free(d->all);
	free(d);
}

/* The id standing for dwarf entry i among the report's entries (below any stack id or
 * error bpf_get_stackid gives). */
#define DW_ID(i) (-1000 - (int)(i))

static int by_tgid_id(const void *a, const void *b)
{
	const struct ostack *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The stacks of the report's entries, each once (sorted by tgid, id; *n of them), read from
 * the stack map and symbolized together (ptk_sym_stacks: one pass over kallsyms, one
 * process's symbols held at a time). Free with free_stacks().
 */
static struct ostack *read_stacks(struct priv *p, const struct entry *ents, size_t n, size_t *nst)
{
	struct ostack *os = xcalloc(2 * n + 1, sizeof(*os));
	struct ptk_sym_stack *st;
	size_t m = 0, u = 0;

	for (size_t j = 0; j < n; j++) {
		os[m++] = (struct ostack){ .id = ents[j].k.kern_stack_id };
		if (ents[j].k.user_stack_id != -1)
			os[m++] = (struct ostack){ .tgid = ents[j].k.tgid,
						   .id = ents[j].k.user_stack_id };
	}
	if (m)
		qsort(os, m, sizeof(*os), by_tgid_id);
	for (size_t j = 0; j < m; j++)
		if (!u || by_tgid_id(&os[u - 1], &os[j]))
			os[u++] = os[j];
	st = xcalloc(u ? u : 1, sizeof(*st));
	for (size_t j = 0; j < u; j++) {
		int d;
		if (os[j].id <= DW_ID(0) && p->dw && (size_t)(DW_ID(0) - os[j].id) < p->dw->nall) {
			const struct dw_entry *e = p->dw->all[DW_ID(0) - os[j].id];
			memcpy(os[j].ips, e->ips, e->n * sizeof(*e->ips));
			d = e->n;
		} else {
			d = os[j].id == -1 ? -ENODATA :
					     ptk_bpf_stack_read(p->stack_fd, os[j].id, os[j].ips,
								OFFCPU_MAX_DEPTH);
		}

		os[j].err = MIN(d, 0);
		st[j] = (struct ptk_sym_stack){ .pid = os[j].tgid,
						.ips = os[j].ips,
						.n = MAX(d, 0) };
	}
	ptk_sym_stacks(p->sym, st, u, PTK_SYM_SKIP_TRACER);
	for (size_t j = 0; j < u; j++)
		os[j].st = st[j];
	free(st);
	*nst = u;
	return os;
}

static void free_stacks(struct ostack *os, size_t n)
{
	for (size_t j = 0; j < n; j++)
		ptk_sym_stacks_free(&os[j].st, 1);
	free(os);
}

/* The kernel (tgid 0) or user stack id of tgid among the report's. */
static const struct ostack *find_stack(const struct ostack *os, size_t n, u32 tgid, int id)
{
	static const struct ostack none = { .err = -ENODATA };
	struct ostack key = { .tgid = tgid, .id = id };
	const struct ostack *o;

	if (id == -1 && tgid)
		return &none; /* a kernel thread: no user stack */
	o = bsearch(&key, os, n, sizeof(*os), by_tgid_id);
	return o ? o : &none;
}

static int by_delta(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->v.delta_us != y->v.delta_us)
		return x->v.delta_us < y->v.delta_us ? -1 : 1;
	return x->k.pid < y->k.pid ? -1 : x->k.pid > y->k.pid;
}

static struct json_object *stack_json(const struct ostack *o)
{
	struct json_object *a;

	if (o->err)
		return NULL;
	a = json_object_new_array();
	for (int i = 0; i < o->st.nf; i++) {
		const struct ptk_frame *f = &o->st.f[i];
		struct json_object *fo = json_object_new_object();
		char addr[24];

		snprintf(addr, sizeof(addr), "0x%" PRIx64, f->addr);
		json_object_object_add(fo, "addr", json_object_new_string(addr));
		json_object_object_add(fo, "func", json_object_new_string(ptk_frame_name(f)));
		json_object_object_add(fo, "offset",
				       f->func ? json_object_new_uint64(f->off) : NULL);
		json_object_object_add(fo, "module",
				       f->module ? json_object_new_string(f->module) : NULL);
		json_object_array_add(a, fo);
	}
	return a;
}

static const char *missed(const struct ostack *o, bool user)
{
	if (o->err == -EEXIST)
		return user ? "[Missed User Stack: stack map full]" :
			      "[Missed Kernel Stack: stack map full]";
	return user ? "[Missed User Stack]" : "[Missed Kernel Stack]";
}

/* Folded, as libbpf-tools offcputime: comm;user root..leaf;-;kernel root..leaf. */
static void fold(struct ptk_folded *fl, const struct entry *e, const struct ostack *us,
		 const struct ostack *ks)
{
	const char **fr = xmalloc((us->st.nf + ks->st.nf + 4) * sizeof(*fr));
	int n = 0;

	fr[n++] = e->k.comm;
	if (us->err && us->err != -ENODATA)
		fr[n++] = missed(us, true);
	for (int i = us->st.nf - 1; i >= 0; i--)
		fr[n++] = ptk_frame_name(&us->st.f[i]);
	fr[n++] = "-";
	if (ks->err)
		fr[n++] = missed(ks, false);
	for (int i = ks->st.nf - 1; i >= 0; i--)
		fr[n++] = ptk_frame_name(&ks->st.f[i]);
	ptk_folded_add(fl, fr, n, e->v.delta_us);
	free(fr);
}

static void print_text(const struct entry *e, const struct ostack *us, const struct ostack *ks)
{
	if (ks->err)
		printf("    %s\n", missed(ks, false));
	for (int i = 0; i < ks->st.nf; i++)
		printf("    %s\n", ptk_frame_name(&ks->st.f[i]));
	if (us->err != -ENODATA)
		printf("    --\n");
	if (us->err && us->err != -ENODATA)
		printf("    %s\n", missed(us, true));
	for (int i = 0; i < us->st.nf; i++)
		printf("    %s\n", ptk_frame_name(&us->st.f[i]));
	printf("    %-16s %s (%u)\n", "-", e->k.comm, e->k.pid);
	printf("        %" PRIu64 "\n\n", (u64)e->v.delta_us);
}

/* The report's entries as a pprof profile in p->outpath. 0 or -errno. */
static int write_pprof(struct ptk_bpf_run *r, const struct entry *ents, size_t n,
		       const struct ostack *os, size_t nst)
{
	struct priv *p = r->priv;
	struct ptk_pprof *pp = ptk_pprof_new();
	struct pprofstk *c = pprofstk_new(pp, &r->ctx->src);
	struct ptk_stack_frame *sf = xmalloc(2 * OFFCPU_MAX_DEPTH * sizeof(*sf));
	struct timespec ts;
	int err;

	clock_gettime(CLOCK_REALTIME, &ts);
	ptk_pprof_sample_type(pp, "off_cpu_periods", "count");
	ptk_pprof_sample_type(pp, "off_cpu", "nanoseconds");
	ptk_pprof_time(pp,
		       (s64)ts.tv_sec * 1000000000 + ts.tv_nsec - (s64)(ptk_now_ns() - r->start_ns),
		       (s64)(ptk_now_ns() - r->start_ns));
	ptk_pprof_comment(pp, p->dwarf ? "ptk offcputime --call-graph dwarf" : "ptk offcputime");
	for (size_t j = 0; j < n; j++) {
		const struct entry *e = &ents[j];
		const struct ostack *ks = find_stack(os, nst, 0, e->k.kern_stack_id);
		const struct ostack *us = find_stack(os, nst, e->k.tgid, e->k.user_stack_id);
		s64 v[2] = { (s64)e->v.count, (s64)e->v.delta_us * 1000 };
		struct ptk_stack_sample ss = { .pid = e->k.tgid,
					       .tid = e->k.pid,
					       .comm = e->k.comm };
		int m = 0;
		/* leaf first: the kernel's frames, then the user's */
		for (int k = 0; k < ks->st.nf; k++)
			sf[m++] = (struct ptk_stack_frame){ ks->st.f[k].addr,
							    ptk_frame_name(&ks->st.f[k]),
							    ks->st.f[k].module, true };
		for (int k = 0; k < us->st.nf; k++)
			sf[m++] = (struct ptk_stack_frame){ us->st.f[k].addr,
							    ptk_frame_name(&us->st.f[k]),
							    us->st.f[k].module, false };
		ss.n = m;
		ss.f = sf;
		pprofstk_sample_values(c, &ss, v);
	}
	err = ptk_pprof_save(pp, p->outpath);
	free(sf);
	pprofstk_free(c);
	ptk_pprof_free(pp);
	return err;
}

static int oc_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct json_object *arr = r->ctx->json ? json_object_new_array() : NULL;
	struct ptk_folded *fl = !arr && p->folded ? ptk_folded_new() : NULL;
	struct ostack *os;
	struct entry *ents;
	size_t n, nst;
	u64 lost[OFFCPU_LOST_NR];

	p->stack_fd = ptk_bpf_map_fd(r, "stackmap");
	ents = PTK_BPF_MAP_ENTRIES(ptk_bpf_map_fd(r, "info"), struct entry, k, v, false, &n);
	if (p->dw && p->dw->nall) {
		/* the periods unwound here, each (thread, frames) entry with its own id */
		ents = xrealloc(ents, (n + p->dw->nall) * sizeof(*ents));
		for (size_t j = 0; j < p->dw->nall; j++) {
			ents[n] = (struct entry){ p->dw->all[j]->k, p->dw->all[j]->v };
			ents[n++].k.user_stack_id = DW_ID(j);
		}
	}
	if (n)
		qsort(ents, n, sizeof(*ents), by_delta);
	os = read_stacks(p, ents, n, &nst);
	for (size_t j = 0; j < n; j++) {
		const struct entry *e = &ents[j];
		const struct ostack *ks = find_stack(os, nst, 0, e->k.kern_stack_id);
		const struct ostack *us = find_stack(os, nst, e->k.tgid, e->k.user_stack_id);

		if (arr) {
			struct json_object *o = json_object_new_object();
			json_object_object_add(o, "pid", json_object_new_int(e->k.tgid));
			json_object_object_add(o, "tid", json_object_new_int(e->k.pid));
			json_object_object_add(o, "comm", json_object_new_string(e->k.comm));
			json_object_object_add(o, "user_stack", stack_json(us));
			json_object_object_add(o, "kernel_stack", stack_json(ks));
			if (us->err && us->err != -ENODATA)
				json_object_object_add(o, "user_stack_error",
						       json_object_new_string(strerror(-us->err)));
			if (ks->err)
				json_object_object_add(o, "kernel_stack_error",
						       json_object_new_string(strerror(-ks->err)));
			json_object_object_add(o, "usecs", json_object_new_uint64(e->v.delta_us));
			json_object_object_add(o, "count", json_object_new_uint64(e->v.count));
			json_object_array_add(arr, o);
		} else if (fl) {
			fold(fl, e, us, ks);
		} else {
			print_text(e, us, ks);
		}
	}
	if (p->outpath) {
		int e = write_pprof(r, ents, n, os, nst);
		if (e)
			ptk_err("cannot write %s: %s", p->outpath, strerror(-e));
	}
	if (fl) {
		/* threads of one process with the same stacks fold into one line */
		ptk_folded_write_by_count(fl, stdout);
		ptk_folded_free(fl);
	}
	for (u32 k = 0; k < OFFCPU_LOST_NR; k++)
		lost[k] = ptk_bpf_percpu_sum(r->lost_fd, k);
	if (arr) {
		struct json_object *lo = json_object_new_object();
		for (int k = 0; k < OFFCPU_LOST_NR; k++)
			json_object_object_add(lo, lost_key[k], json_object_new_uint64(lost[k]));
		ptk_bpf_report_begin(r, "duration_s", itv);
		ptk_sink_meta_json(&r->ctx->sink, "stacks", arr);
		ptk_sink_meta_json(&r->ctx->sink, "lost", lo);
		if (p->dw) {
			struct json_object *dj = json_object_new_object();
			json_object_object_add(dj, "copy_bytes",
					       json_object_new_uint64(p->ustack_bytes));
			json_object_object_add(dj, "unwound",
					       json_object_new_uint64(p->dw->unwound));
			json_object_object_add(dj, "truncated",
					       json_object_new_uint64(p->dw->truncated));
			json_object_object_add(dj, "without_cfi",
					       json_object_new_uint64(p->dw->guessed));
			json_object_object_add(dj, "unmatched",
					       json_object_new_uint64(p->dw->unmatched));
			ptk_sink_meta_json(&r->ctx->sink, "dwarf", dj);
		}
		ptk_bpf_report_end(r);
	} else {
		fprintf(stderr, "traced %.3f s\n", itv);
		if (p->dw)
			fprintf(stderr,
				"dwarf: %" PRIu64
				" user stacks unwound (%.0f bytes copied on average), "
				"%" PRIu64 " deeper than the %u bytes copied, %" PRIu64
				" through code without CFI, %" PRIu64
				" periods without their copy\n",
				p->dw->unwound,
				p->dw->unwound ? (double)p->dw->bytes / p->dw->unwound : 0.0,
				p->dw->truncated, p->ustack_bytes, p->dw->guessed,
				p->dw->unmatched);
		for (int k = 0; k < OFFCPU_LOST_NR; k++)
			if (lost[k])
				fprintf(stderr, "lost: %" PRIu64 " %s%s\n", lost[k], lost_name[k],
					k == OFFCPU_LOST_USTACK_FULL ||
							k == OFFCPU_LOST_KSTACK_FULL ?
						" (raise --stack-storage-size)" :
						"");
	}
	free_stacks(os, nst);
	free(ents);
	return 0;
}

static int parse_us(struct ptk_ctx *ctx, const char *opt, const char *arg, u64 *v)
{
	if (ptk_parse_u64(arg, v))
		return ptk_usage_error(ctx, "invalid %s '%s' (microseconds)", opt, arg);
	return 0;
}

/* -m is the minimum block time here (libbpf-tools), not the runner's milliseconds; -P/-L do
 * not apply: the key is always the thread. */
static int oc_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;
	int v;

	switch (c) {
	case 'm':
		return parse_us(r->ctx, "-m", arg, &p->min_us);
	case 'M':
		return parse_us(r->ctx, "-M", arg, &p->max_us);
	case OPT_STATE:
		if (ptk_parse_int(arg, &v) || v < 0)
			return ptk_usage_error(r->ctx, "invalid --state '%s'", arg);
		p->state = v;
		return 0;
	case OPT_CALLGRAPH:
		if (!strcmp(arg, "fp")) {
			p->dwarf = false;
			return 0;
		}
		if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
			return ptk_usage_error(r->ctx,
					       "--call-graph: fp or dwarf[,BYTES], not '%s'", arg);
		p->dwarf = true;
		p->ustack_bytes = 8192;
		if (arg[5] == ',' &&
		    (ptk_parse_int(arg + 6, &v) || v < 64 || v > OFFCPU_USTACK_MAX || v % 8))
			return ptk_usage_error(r->ctx,
					       "--call-graph dwarf,BYTES: 64..%d, a multiple of 8, "
					       "not '%s'",
					       OFFCPU_USTACK_MAX, arg + 6);
		if (arg[5] == ',')
			p->ustack_bytes = v;
		return 0;
	case OPT_STACK_STORAGE:
		if (ptk_parse_int(arg, &v) || v < 1 || v > 1 << 24)
			return ptk_usage_error(r->ctx, "invalid --stack-storage-size '%s'", arg);
		p->stack_storage = v;
		return 0;
	}
	return -1;
}

static int oc_parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;

	if (p->user_only && p->kern_only)
		return ptk_usage_error(r->ctx, "-u and -k are exclusive");
	if (p->outpath && !ptk_pprof_path(p->outpath))
		return ptk_usage_error(
			r->ctx, "-o: a pprof file FILE.pb.gz or FILE.pprof, not '%s'", p->outpath);
	if (p->min_us > p->max_us)
		return ptk_usage_error(r->ctx, "-m %" PRIu64 " is above -M %" PRIu64, p->min_us,
				       p->max_us);
	return 0;
}

static int oc_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	p->sym = ptk_sym_new(r->ctx->procfs, 0);
	if (p->dwarf) {
		if (!ptk_unwind_regs_mask()) {
			ptk_err("--call-graph dwarf is only implemented for x86_64");
			return PTK_EXIT_RUNTIME;
		}
		p->dw = xcalloc(1, sizeof(*p->dw));
	}
	r->lost_keys = (1u << OFFCPU_LOST_NR) - 1;
	if (!p->folded)
		snprintf(r->banner, sizeof(r->banner),
			 "Tracing off-CPU time (us) of %s%s by user + kernel stack... %s",
			 r->filter.tgid ? "one process" :
			 r->filter.tid	? "one thread" :
					  "all threads",
			 p->user_only ? " (user threads only)" :
			 p->kern_only ? " (kernel threads only)" :
					"",
			 r->duration_s > 0 ? "" : "Hit Ctrl-C to end.");
	return 0;
}

static const struct ptk_bpf_opt oc_opts[] = {
	PTK_BPF_FLAG('u', "user-threads-only", struct priv, user_only),
	PTK_BPF_FLAG('k', "kernel-threads-only", struct priv, kern_only),
	PTK_BPF_CALL('m', "min-block-time", required_argument),
	PTK_BPF_CALL('M', "max-block-time", required_argument),
	PTK_BPF_FLAG('f', "folded", struct priv, folded),
	PTK_BPF_CALL(OPT_STATE, "state", required_argument),
	PTK_BPF_CALL(OPT_STACK_STORAGE, "stack-storage-size", required_argument),
	PTK_BPF_CALL(OPT_CALLGRAPH, "call-graph", required_argument),
	PTK_BPF_STR('o', "output", struct priv, outpath),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "offcputime",
	.usage = usage,
	.opts = oc_opts,
	.common = PTK_BPF_OPT_TASK | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_DURATION,
	.opt = oc_opt,
	.parsed = oc_parsed,
	.prepare = oc_prepare,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.report = oc_report,
	.event = oc_event,
};

int cmd_offcputime(struct ptk_ctx *ctx, int argc, char **argv)
{
	struct priv p = { .state = -1,
			  .min_us = 1,
			  .max_us = UINT64_MAX,
			  .stack_storage = 1024,
			  .stack_fd = -1 };
	int rc;

	rc = ptk_bpf_main(ctx, &ops, &p, argc, argv);
	dw_free(p.dw);
	ptk_sym_free(p.sym);
	return rc;
}
