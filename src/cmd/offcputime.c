// SPDX-License-Identifier: GPL-2.0
/* ptk offcputime: off-CPU time by stack (user + kernel), summed in the kernel. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <assert.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "offcputime.skel.h"
/* light skeletons, one per hook flavour (kernel-side loader: no vmlinux BTF parsed here);
 * the libbpf skeleton is the fallback before 5.17 (PTK_BPF_LSKEL=0 forces it, =raw the
 * raw_tp flavour) */
#include "offcputime_btf.lskel.h"
#include "offcputime_raw.lskel.h"
#include "source/bpf/offcputime.h"
#include "source/bpf/runner.h"
#include "source/sym/sym.h"

static const char usage[] =
	"usage: ptk offcputime [-p PID | -t TID | -c COMM | --cgroup PATH] [-u | -k] [--state N]\n"
	"                      [-m MIN_US] [-M MAX_US] [-f] [--stack-storage-size N] [-v] [--json]\n"
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
	"Text output reads leaf first: kernel frames, '--', user frames, then comm (tid) and the\n"
	"total off-CPU microseconds; the largest totals are printed last.\n";

enum { OPT_STATE = 0x1200, OPT_STACK_STORAGE };

struct priv {
	bool folded, user_only, kern_only;
	long state;
	u64 min_us, max_us;
	u32 stack_storage;
	struct ptk_symbolizer *sym;
	int stack_fd;
};

/* light skeletons, one per hook flavour, else the libbpf skeleton in r->skel */
PTK_BPF_LSKEL_PAIR_FREE(offcputime)

struct entry {
	struct offcpu_key k;
	struct offcpu_val v;
};

/* A resolved stack, leaf first. */
struct stack {
	struct ptk_frame f[OFFCPU_MAX_DEPTH];
	int n;
	int err; /* -errno: the stack is missing (never taken: -ENODATA) */
};

static const char *const lost_name[OFFCPU_LOST_NR] = {
	[OFFCPU_LOST_USTACK_FULL] = "user stacks: stack map full",
	[OFFCPU_LOST_KSTACK_FULL] = "kernel stacks: stack map full",
	[OFFCPU_LOST_USTACK_FAULT] = "user stacks: not readable",
	[OFFCPU_LOST_KSTACK_FAULT] = "kernel stacks: not readable",
	[OFFCPU_LOST_START_FULL] = "blocked tasks not timed: start map full",
	[OFFCPU_LOST_INFO_FULL] = "off-CPU periods dropped: key map full",
};
static const char *const lost_key[OFFCPU_LOST_NR] = {
	[OFFCPU_LOST_USTACK_FULL] = "user_stack_map_full",
	[OFFCPU_LOST_KSTACK_FULL] = "kernel_stack_map_full",
	[OFFCPU_LOST_USTACK_FAULT] = "user_stack_unreadable",
	[OFFCPU_LOST_KSTACK_FAULT] = "kernel_stack_unreadable",
	[OFFCPU_LOST_START_FULL] = "start_map_full",
	[OFFCPU_LOST_INFO_FULL] = "key_map_full",
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
	} while (0)

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
	} while (0)

static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	return PTK_BPF_LSKEL_PAIR(r, offcputime, OC_SETUP, OC_SETUP);
}

/* Frames of the observer itself at the top of a kernel stack taken in the tracepoint: the
 * tracepoint iterator, bpf_trace_run, the program (tp_btf: __traceiter_sched_switch,
 * bpf_trace_run4, bpf_prog_<tag>_<name>; raw_tp: __bpf_trace_sched_switch ...). */
static bool observer_frame(const char *name)
{
	static const char *const pfx[] = { "bpf_prog_", "bpf_trace_run", "__bpf_trace_",
					   "__traceiter_", "bpf_trampoline_" };

	for (size_t i = 0; name && i < ARRAY_SIZE(pfx); i++)
		if (!strncmp(name, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

/* The frames of stack id, leaf first: their number, or -errno (-ENODATA: never taken). */
static int read_stack(struct priv *p, int id, u64 ip[OFFCPU_MAX_DEPTH])
{
	int n = 0;

	if (id < 0)
		return id == -1 ? -ENODATA : id;
	memset(ip, 0, OFFCPU_MAX_DEPTH * sizeof(*ip));
	if (bpf_map_lookup_elem(p->stack_fd, &id, ip))
		return -errno;
	while (n < OFFCPU_MAX_DEPTH && ip[n])
		n++;
	return n;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* Announce every kernel address of the report to the symbolizer, so that it keeps only their
 * symbols of kallsyms (not the whole 120k-symbol table). */
static void prepare_kernel(struct priv *p, const struct entry *ents, size_t n)
{
	int *ids = xmalloc((n ? n : 1) * sizeof(*ids));
	u64 *ips = NULL, ip[OFFCPU_MAX_DEPTH];
	size_t nids = 0, nips = 0, cap = 0;

	for (size_t j = 0; j < n; j++)
		if (ents[j].k.kern_stack_id >= 0)
			ids[nids++] = ents[j].k.kern_stack_id;
	if (nids)
		qsort(ids, nids, sizeof(*ids), int_cmp);
	for (size_t j = 0; j < nids; j++) {
		int d;

		if ((j && ids[j] == ids[j - 1]) || (d = read_stack(p, ids[j], ip)) <= 0)
			continue;
		if (nips + d > cap) {
			cap = MAX(2 * cap, nips + d + 1024);
			ips = xrealloc(ips, cap * sizeof(*ips));
		}
		memcpy(ips + nips, ip, d * sizeof(*ips));
		nips += d;
	}
	ptk_sym_kernel_prepare(p->sym, ips, nips);
	free(ips);
	free(ids);
}

/* A user stack of one process, resolved while its symbols were loaded; the frames' strings
 * are kept by the symbolizer (ptk_sym_frame_keep), so they outlive ptk_sym_forget. */
struct ustack {
	u32 tgid;
	int id;
	int n, err;
	struct ptk_frame *f;
};

static int by_tgid_id(const void *a, const void *b)
{
	const struct ustack *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Resolve every user stack of the report process by process, dropping each process's symbols
 * (its libdwfl session: ELF files mapped, symbol tables) as soon as its stacks are done: one
 * process's symbols are held at a time, not those of every process seen. Returns the stacks
 * sorted by (tgid, id), *nus of them.
 */
static struct ustack *resolve_user(struct priv *p, const struct entry *ents, size_t n, size_t *nus)
{
	struct ustack *us = xmalloc((n ? n : 1) * sizeof(*us));
	u64 ip[OFFCPU_MAX_DEPTH];
	size_t m = 0;

	for (size_t j = 0; j < n; j++)
		if (ents[j].k.user_stack_id != -1)
			us[m++] = (struct ustack){ .tgid = ents[j].k.tgid,
						   .id = ents[j].k.user_stack_id };
	if (m)
		qsort(us, m, sizeof(*us), by_tgid_id);
	*nus = 0;
	for (size_t j = 0; j < m; j++) {
		struct ustack *u = &us[*nus];
		/* this process's last stack (a repeat or not): its symbols go after it */
		bool last = j + 1 == m || us[j + 1].tgid != us[j].tgid;
		int d;

		if (*nus && !by_tgid_id(&us[j], u - 1)) {
			if (last)
				ptk_sym_forget(p->sym, us[j].tgid);
			continue;
		}
		*u = us[j];
		(*nus)++;
		d = read_stack(p, u->id, ip);
		if (d < 0)
			u->err = d;
		else
			u->f = xmalloc((d ? d : 1) * sizeof(*u->f));
		for (int i = 0; i < d; i++) {
			ptk_sym_user(p->sym, u->tgid, ip[i], &u->f[i]);
			ptk_sym_frame_keep(p->sym, &u->f[i]);
		}
		u->n = MAX(d, 0);
		if (last)
			ptk_sym_forget(p->sym, u->tgid);
	}
	return us;
}

static void resolve(struct ptk_bpf_run *r, const struct entry *e, bool user,
		    const struct ustack *ust, size_t nus, struct stack *st)
{
	struct priv *p = r->priv;
	u64 ip[OFFCPU_MAX_DEPTH];
	int d;

	st->n = 0;
	st->err = 0;
	if (user) {
		struct ustack key = { .tgid = e->k.tgid, .id = e->k.user_stack_id };
		const struct ustack *u;

		if (key.id == -1) {
			st->err = -ENODATA;
			return;
		}
		u = bsearch(&key, ust, nus, sizeof(*ust), by_tgid_id);
		if (!u) { /* cannot be: every user stack of ents was resolved */
			st->err = -ENOENT;
			return;
		}
		st->err = u->err;
		st->n = u->n;
		if (u->n)
			memcpy(st->f, u->f, u->n * sizeof(*u->f));
		return;
	}
	d = read_stack(p, e->k.kern_stack_id, ip);
	if (d < 0) {
		st->err = d;
		return;
	}
	for (int i = 0; i < d; i++) {
		struct ptk_frame *f = &st->f[st->n];
		ptk_sym_kernel(p->sym, ip[i], f);
		if (st->n == 0 && observer_frame(f->func))
			continue;
		st->n++;
	}
}

static int by_delta(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->v.delta_us != y->v.delta_us)
		return x->v.delta_us < y->v.delta_us ? -1 : 1;
	return x->k.pid < y->k.pid ? -1 : x->k.pid > y->k.pid;
}

static struct json_object *stack_json(const struct stack *st)
{
	struct json_object *a;

	if (st->err)
		return NULL;
	a = json_object_new_array();
	for (int i = 0; i < st->n; i++) {
		const struct ptk_frame *f = &st->f[i];
		struct json_object *o = json_object_new_object();
		char addr[24];

		snprintf(addr, sizeof(addr), "0x%" PRIx64, f->addr);
		json_object_object_add(o, "addr", json_object_new_string(addr));
		json_object_object_add(o, "func", json_object_new_string(ptk_frame_name(f)));
		json_object_object_add(o, "offset",
				       f->func ? json_object_new_uint64(f->off) : NULL);
		json_object_object_add(o, "module",
				       f->module ? json_object_new_string(f->module) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static const char *missed(const struct stack *st, bool user)
{
	if (st->err == -EEXIST)
		return user ? "[Missed User Stack: stack map full]" :
			      "[Missed Kernel Stack: stack map full]";
	return user ? "[Missed User Stack]" : "[Missed Kernel Stack]";
}

/* folded: comm;user root..leaf;-;kernel root..leaf */
static char *fold(const struct entry *e, const struct stack *us, const struct stack *ks)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	fputs(e->k.comm, m);
	if (us->err && us->err != -ENODATA)
		fprintf(m, ";%s", missed(us, true));
	for (int i = us->n - 1; i >= 0; i--)
		fprintf(m, ";%s", ptk_frame_name(&us->f[i]));
	fputs(";-", m);
	if (ks->err)
		fprintf(m, ";%s", missed(ks, false));
	for (int i = ks->n - 1; i >= 0; i--)
		fprintf(m, ";%s", ptk_frame_name(&ks->f[i]));
	fclose(m);
	return buf;
}

struct folded {
	char *line;
	u64 us;
};

static int by_folded(const void *a, const void *b)
{
	return strcmp(((const struct folded *)a)->line, ((const struct folded *)b)->line);
}

static int by_folded_us(const void *a, const void *b)
{
	const struct folded *x = a, *y = b;

	if (x->us != y->us)
		return x->us < y->us ? -1 : 1;
	return strcmp(x->line, y->line);
}

static void print_text(const struct entry *e, const struct stack *us, const struct stack *ks)
{
	if (ks->err)
		printf("    %s\n", missed(ks, false));
	for (int i = 0; i < ks->n; i++)
		printf("    %s\n", ptk_frame_name(&ks->f[i]));
	if (us->err != -ENODATA)
		printf("    --\n");
	if (us->err && us->err != -ENODATA)
		printf("    %s\n", missed(us, true));
	for (int i = 0; i < us->n; i++)
		printf("    %s\n", ptk_frame_name(&us->f[i]));
	printf("    %-16s %s (%u)\n", "-", e->k.comm, e->k.pid);
	printf("        %" PRIu64 "\n\n", (u64)e->v.delta_us);
}

static int oc_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct entry *ents;
	struct folded *fl = NULL;
	size_t n, nf = 0;
	struct json_object *arr = NULL;
	struct stack *us = xmalloc(sizeof(*us)), *ks = xmalloc(sizeof(*ks));
	struct ustack *ust;
	size_t nus;
	u64 lost[OFFCPU_LOST_NR];

	p->stack_fd = ptk_bpf_map_fd(r, "stackmap");
	ents = PTK_BPF_MAP_ENTRIES(ptk_bpf_map_fd(r, "info"), struct entry, k, v, false, &n);
	if (n)
		qsort(ents, n, sizeof(*ents), by_delta);
	prepare_kernel(p, ents, n);
	ust = resolve_user(p, ents, n, &nus);
	if (r->ctx->json)
		arr = json_object_new_array();
	else if (p->folded)
		fl = xcalloc(n ? n : 1, sizeof(*fl));
	for (size_t j = 0; j < n; j++) {
		const struct entry *e = &ents[j];

		resolve(r, e, false, ust, nus, ks);
		resolve(r, e, true, ust, nus, us);
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
			fl[nf].line = fold(e, us, ks);
			fl[nf++].us = (u64)e->v.delta_us;
		} else {
			print_text(e, us, ks);
		}
	}
	if (fl) {
		/* threads of one process with the same stacks fold into one line */
		size_t m = 0;
		if (nf)
			qsort(fl, nf, sizeof(*fl), by_folded);
		for (size_t j = 0; j < nf; j++) {
			if (m && !strcmp(fl[m - 1].line, fl[j].line)) {
				fl[m - 1].us += fl[j].us;
				free(fl[j].line);
				continue;
			}
			fl[m++] = fl[j];
		}
		if (m)
			qsort(fl, m, sizeof(*fl), by_folded_us);
		for (size_t j = 0; j < m; j++) {
			printf("%s %" PRIu64 "\n", fl[j].line, fl[j].us);
			free(fl[j].line);
		}
		free(fl);
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
		ptk_bpf_report_end(r);
	} else {
		fprintf(stderr, "traced %.3f s\n", itv);
		for (int k = 0; k < OFFCPU_LOST_NR; k++)
			if (lost[k])
				fprintf(stderr, "lost: %" PRIu64 " %s%s\n", lost[k], lost_name[k],
					k == OFFCPU_LOST_USTACK_FULL ||
							k == OFFCPU_LOST_KSTACK_FULL ?
						" (raise --stack-storage-size)" :
						"");
	}
	for (size_t j = 0; j < nus; j++)
		free(ust[j].f);
	free(ust);
	free(ents);
	free(us);
	free(ks);
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
	case 'u':
		p->user_only = true;
		return 0;
	case 'k':
		p->kern_only = true;
		return 0;
	case 'f':
		p->folded = true;
		return 0;
	case 'm':
		return parse_us(r->ctx, "-m", arg, &p->min_us);
	case 'M':
		return parse_us(r->ctx, "-M", arg, &p->max_us);
	case OPT_STATE:
		if (ptk_parse_int(arg, &v) || v < 0)
			return ptk_usage_error(r->ctx, "invalid --state '%s'", arg);
		p->state = v;
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
	if (p->min_us > p->max_us)
		return ptk_usage_error(r->ctx, "-m %" PRIu64 " is above -M %" PRIu64, p->min_us,
				       p->max_us);
	return 0;
}

static int oc_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	p->sym = ptk_sym_new(r->ctx->procfs, 0);
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

static const struct option oc_longopts[] = {
	{ "user-threads-only", no_argument, NULL, 'u' },
	{ "kernel-threads-only", no_argument, NULL, 'k' },
	{ "min-block-time", required_argument, NULL, 'm' },
	{ "max-block-time", required_argument, NULL, 'M' },
	{ "folded", no_argument, NULL, 'f' },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "stack-storage-size", required_argument, NULL, OPT_STACK_STORAGE },
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "offcputime",
	.usage = usage,
	.shortopts = "ukm:M:f",
	.longopts = oc_longopts,
	.common = PTK_BPF_OPT_TASK | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_DURATION,
	.opt = oc_opt,
	.parsed = oc_parsed,
	.prepare = oc_prepare,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.report = oc_report,
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
	ptk_sym_free(p.sym);
	return rc;
}
