// SPDX-License-Identifier: GPL-2.0
/*
 * systrace: raw_syscalls sys_enter/sys_exit for ptk syscount and ptk strace --bpf. The traced
 * task never stops: sys_enter keeps the number, arguments and time per thread, sys_exit counts
 * the call (by syscall or by process, errors, time with -L) or sends one event with the memory
 * the call read (still there: the kernel did not change it, and it is resident by then) and
 * wrote; execve's, whose old memory is gone at exit, is read at entry. Which processes: -p's tgid, or with -f the
 * tgids map, which sched_process_fork extends to the children. Reserve failures and a full
 * in-flight table are counted in lost[0], never silently.
 */
#include "common.bpf.h"
#include "events.bpf.h"
#include "systrace.h"

const volatile bool trace_events = false; /* strace: events; else counts */
const volatile bool count_latency = false; /* -L: time in the calls */
const volatile bool count_by_process = false; /* -P */
const volatile bool filter_failed = false; /* -x */
const volatile __s32 filter_errno = 0; /* -e ERRNO */
const volatile bool use_tgids = false; /* the processes are the tgids map's */
const volatile bool follow_forks = false; /* -f: children join the tgids map */
const volatile __u32 exec_seed = 0; /* this process joins the tgids map at its execve */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SYSTRACE_NR_MAX);
	__type(key, __u32);
	__type(value, struct systrace_plan);
} plan SEC(".maps");

/* strace -e trace=SET: 1 for the syscalls shown (count mode: all) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SYSTRACE_NR_MAX);
	__type(key, __u32);
	__type(value, __u8);
} selected SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SYSTRACE_TGIDS);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

/* a call in flight: its number, arguments and entry time (the memory is read at exit) */
struct call {
	__u64 args[6];
	__u64 entry_ns;
	__s64 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct call);
} inflight SEC(".maps");

/* execve and execveat: the whole event at entry (the old memory is gone at exit) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct systrace_event);
} inflight_exec SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct systrace_key);
	__type(value, struct systrace_count);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct systrace_event);
} scratch SEC(".maps");

static __always_inline bool traced(void)
{
	if (use_tgids) {
		__u32 tgid = bpf_get_current_pid_tgid() >> 32;
		return bpf_map_lookup_elem(&tgids, &tgid) != NULL;
	}
	return current_selected();
}

static __always_inline __u64 reg_arg(struct pt_regs *regs, int i)
{
	switch (i) {
	case 0:
		return BPF_CORE_READ(regs, di);
	case 1:
		return BPF_CORE_READ(regs, si);
	case 2:
		return BPF_CORE_READ(regs, dx);
	case 3:
		return BPF_CORE_READ(regs, r10);
	case 4:
		return BPF_CORE_READ(regs, r8);
	}
	return BPF_CORE_READ(regs, r9);
}

/* Read argument i's memory into the next blob of e (at exit when exiting). */
static __always_inline void read_blob(struct systrace_event *e, const struct systrace_plan_arg *p,
				      int i, bool exiting)
{
	__u32 n = e->nblob;
	__u64 len;
	struct systrace_blob *b;

	if (n >= SYSTRACE_NBLOB)
		return;
	b = &e->b[n];
	b->addr = e->args[i];
	b->arg = i;
	b->flags = exiting ? ST_BLOB_EXIT : 0;
	b->len = 0;
	if (!b->addr)
		return;
	if (p->kind == ST_K_STR) {
		long r = bpf_probe_read_user_str(b->data, SYSTRACE_BLOB, (void *)b->addr);
		if (r < 0) {
			b->flags |= ST_BLOB_FAULT;
		} else {
			b->len = r;
			if (r == SYSTRACE_BLOB && b->data[SYSTRACE_BLOB - 1])
				b->flags |= ST_BLOB_CUT;
		}
		e->nblob = n + 1;
		return;
	}
	if (p->lenarg < 6)
		len = e->args[p->lenarg & 7];
	else if (p->lenarg == 6)
		len = e->ret > 0 ? (__u64)e->ret : 0;
	else
		len = p->size;
	if (len > SYSTRACE_BLOB) {
		len = SYSTRACE_BLOB;
		b->flags |= ST_BLOB_CUT;
	}
	if (len && bpf_probe_read_user(b->data, len & (2 * SYSTRACE_BLOB - 1), (void *)b->addr))
		b->flags |= ST_BLOB_FAULT;
	else
		b->len = len;
	e->nblob = n + 1;
}

/* the event up to the last byte used: a 1-byte write sends 81 bytes */
static __always_inline __u64 event_size(const struct systrace_event *e)
{
	__u32 n = e->nblob;
	__u64 last;

	if (!n)
		return offsetof(struct systrace_event, b);
	if (n > SYSTRACE_NBLOB)
		n = SYSTRACE_NBLOB;
	last = e->b[(n - 1) & 3].len;
	if (last > SYSTRACE_BLOB)
		last = SYSTRACE_BLOB;
	return offsetof(struct systrace_event, b) + (__u64)(n - 1) * sizeof(struct systrace_blob) +
	       offsetof(struct systrace_blob, data) + last;
}

__u64 last_wakeup_ns = 0;

/*
 * Send e without waking the reader for each event (a wakeup per call is most of what a
 * traced tight loop pays): it is woken when the buffer is a quarter full, 10 ms after the last
 * wakeup, and for a process's end (the reader stops on the last one).
 */
static __always_inline void send_event(const struct systrace_event *e)
{
	__u64 fill = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA), now = bpf_ktime_get_ns();
	bool wake = fill > (1 << 18) || now - last_wakeup_ns > 10000000 || e->type == ST_EV_EXIT;

	if (wake)
		last_wakeup_ns = now;
	if (bpf_ringbuf_output(&events, (void *)e, event_size(e),
			       wake ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP))
		count_lost();
}

static __always_inline bool is_exec(__u32 nr)
{
	return nr == 59 || nr == 322; /* execve, execveat */
}

SEC("raw_tp/sys_enter")
int BPF_PROG(st_enter, struct pt_regs *regs, long id)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), zero = 0, nr = id;
	__u64 ts;

	if (!traced())
		return 0;
	ts = bpf_ktime_get_ns();
	if (!trace_events) {
		if (count_latency)
			bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
		return 0;
	}
	if (nr < SYSTRACE_NR_MAX) {
		__u8 *sel = bpf_map_lookup_elem(&selected, &nr);
		if (!sel || !*sel)
			return 0;
	}
	if (!is_exec(nr)) {
		struct call c = { .entry_ns = ts, .nr = id };
		for (int i = 0; i < 6; i++)
			c.args[i] = reg_arg(regs, i);
		if (bpf_map_update_elem(&inflight, &tid, &c, BPF_ANY))
			count_lost();
		return 0;
	}
	struct systrace_event *e = bpf_map_lookup_elem(&scratch, &zero);
	struct systrace_plan *p = bpf_map_lookup_elem(&plan, &nr);
	if (!e || !p)
		return 0;
	e->type = ST_EV_SYSCALL;
	e->nr = id;
	e->tgid = bpf_get_current_pid_tgid() >> 32;
	e->tid = tid;
	e->entry_ns = ts;
	e->exit_ns = 0;
	e->ret = 0;
	e->nblob = 0;
	for (int i = 0; i < 6; i++)
		e->args[i] = reg_arg(regs, i);
	for (int i = 0; i < 6; i++) {
		__u8 k = p->a[i].kind;
		if (k == ST_K_STR || k == ST_K_IN || k == ST_K_INOUT)
			read_blob(e, &p->a[i], i, false);
	}
	if (bpf_map_update_elem(&inflight_exec, &tid, e, BPF_ANY))
		count_lost();
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(st_exit, struct pt_regs *regs, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid, nr;

	if (!traced())
		return 0;
	long id = BPF_CORE_READ(regs, orig_ax);
	if (id < 0) /* no syscall (a tracer's orig_ax = -1): as libbpf-tools syscount */
		return 0;
	nr = id;
	if (!trace_events) {
		struct systrace_key key = { .nr = nr, .tgid = 0 };
		struct systrace_count *c, zc = {};
		__u64 *tsp = NULL, ts = 0;
		if (count_latency) {
			tsp = bpf_map_lookup_elem(&start, &tid);
			if (!tsp)
				return 0;
			ts = *tsp;
			bpf_map_delete_elem(&start, &tid);
		}
		if (filter_failed && ret >= 0)
			return 0;
		if (filter_errno && ret != -filter_errno)
			return 0;
		if (count_by_process) {
			key.nr = 0;
			key.tgid = pid_tgid >> 32;
		}
		c = bpf_map_lookup_elem(&counts, &key);
		if (!c) {
			bpf_get_current_comm(zc.comm, sizeof(zc.comm));
			bpf_map_update_elem(&counts, &key, &zc, BPF_NOEXIST);
			c = bpf_map_lookup_elem(&counts, &key);
			if (!c)
				return 0;
		}
		__sync_fetch_and_add(&c->count, 1);
		if (ret < 0 && ret >= -4095)
			__sync_fetch_and_add(&c->errors, 1);
		if (count_latency)
			__sync_fetch_and_add(&c->total_ns, bpf_ktime_get_ns() - ts);
		return 0;
	}
	__u32 zero = 0, pnr = nr < SYSTRACE_NR_MAX ? nr : 0;
	struct systrace_plan *p = bpf_map_lookup_elem(&plan, &pnr);
	struct systrace_event *e;
	bool exec = false;

	if (!p)
		return 0;
	struct call *c = bpf_map_lookup_elem(&inflight, &tid);
	if (c) {
		e = bpf_map_lookup_elem(&scratch, &zero);
		if (!e)
			return 0;
		e->type = ST_EV_SYSCALL;
		e->nr = c->nr;
		e->tgid = pid_tgid >> 32;
		e->tid = tid;
		e->entry_ns = c->entry_ns;
		e->nblob = 0;
		for (int i = 0; i < 6; i++)
			e->args[i] = c->args[i];
		bpf_map_delete_elem(&inflight, &tid);
	} else {
		/* execve: read at entry; a successful one exits in the new image (same tid,
		 * or the leader's after a non-leader thread's exec: looked up by both) */
		e = bpf_map_lookup_elem(&inflight_exec, &tid);
		if (!e)
			return 0;
		exec = true;
	}
	e->ret = ret;
	e->exit_ns = bpf_ktime_get_ns();
	/* what the call read (it is still there) and what it wrote */
	for (int i = 0; i < 6; i++) {
		__u8 k = p->a[i].kind;
		if (!exec && (k == ST_K_STR || k == ST_K_IN || k == ST_K_INOUT))
			read_blob(e, &p->a[i], i, false);
		if (k == ST_K_OUT || k == ST_K_INOUT)
			read_blob(e, &p->a[i], i, true);
	}
	send_event(e);
	if (exec)
		bpf_map_delete_elem(&inflight_exec, &tid);
	return 0;
}

/*
 * A successful execve whose path could not be read at entry (a page of the caller not faulted
 * in, as after fork): the kernel's copy of it (linux_binprm::filename).
 */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(st_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct systrace_event *e;

	if (exec_seed && (__u32)(bpf_get_current_pid_tgid() >> 32) == exec_seed) {
		__u32 tgid = exec_seed;
		__u8 one = 1;
		bpf_map_update_elem(&tgids, &tgid, &one, BPF_ANY);
	}
	if (!trace_events || !traced())
		return 0;
	e = bpf_map_lookup_elem(&inflight_exec, &tid);
	if (!e || !e->nblob || !(e->b[0].flags & ST_BLOB_FAULT) || e->b[0].arg != (e->nr == 322))
		return 0;
	const char *fn = BPF_CORE_READ(bprm, filename);
	long r = bpf_probe_read_kernel_str(e->b[0].data, SYSTRACE_BLOB, fn);
	if (r > 0) {
		e->b[0].len = r;
		e->b[0].flags &= ~ST_BLOB_FAULT;
	}
	return 0;
}

/* -f: a child of a followed process is followed */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(st_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (!follow_forks || !bpf_map_lookup_elem(&tgids, &ptgid) || ptgid == ctgid)
		return 0;
	bpf_map_update_elem(&tgids, &ctgid, &one, BPF_ANY);
	return 0;
}

/* a followed thread group ends: "+++ exited with N +++" (strace only) */
SEC("raw_tp/sched_process_exit")
int BPF_PROG(st_pexit, struct task_struct *p)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid, zero = 0;

	if (!trace_events || !traced())
		return 0;
	struct systrace_event *e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	/* a call that does not return (exit_group, exit): sent with exit_ns 0, " = ?" */
	struct call *c = bpf_map_lookup_elem(&inflight, &tid);
	if (c) {
		e->type = ST_EV_SYSCALL;
		e->nr = c->nr;
		e->tgid = tgid;
		e->tid = tid;
		e->entry_ns = c->entry_ns;
		e->exit_ns = 0;
		e->ret = 0;
		e->nblob = 0;
		for (int i = 0; i < 6; i++)
			e->args[i] = c->args[i];
		if (bpf_ringbuf_output(&events, e, event_size(e), 0))
			count_lost();
		bpf_map_delete_elem(&inflight, &tid);
	}
	bpf_map_delete_elem(&inflight_exec, &tid);
	if (tgid != tid)
		return 0;
	e->type = ST_EV_EXIT;
	e->nr = -1;
	e->tgid = tgid;
	e->tid = tid;
	e->exit_ns = bpf_ktime_get_ns();
	e->ret = BPF_CORE_READ(p, exit_code);
	e->nblob = 0;
	send_event(e);
	if (use_tgids && trace_events)
		bpf_map_delete_elem(&tgids, &tgid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
