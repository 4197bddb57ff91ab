// SPDX-License-Identifier: GPL-2.0
/*
 * taskiter: the process table in one read(). A BPF task iterator writes one fixed-size
 * record per task (the fields of /proc/PID/stat and statm that top shows), so a scan costs
 * one iterator read instead of an open, read and close of two files per process.
 */
#include "common.bpf.h"
#include "taskiter.h"

/* kernels before 6.2 keep rss counters as atomics, not percpu_counter */
struct mm_rss_stat___old {
	atomic_long_t count[4];
} __attribute__((preserve_access_index));
struct mm_struct___old {
	struct mm_rss_stat___old rss_stat;
} __attribute__((preserve_access_index));

static __always_inline __s64 rss(struct mm_struct *mm, int i)
{
	/* the four counters are larger than the old atomics (no type_exists relocation: each
	 * type the kernel's CO-RE looks up at load is a walk over all of its BTF) */
	if (bpf_core_field_size(mm->rss_stat) > sizeof(struct mm_rss_stat___old))
		return mm->rss_stat[i].count;
	struct mm_struct___old *o = (void *)mm;
	return o->rss_stat.count[i].counter;
}

/*
 * The I/O accounting of a task or of its group's exited threads (owner->ioac: task->ioac or
 * signal->ioac) into io. struct task_io_accounting is always there; its members depend on the
 * config: rchar/wchar on CONFIG_TASK_XACCT, the byte counts on CONFIG_TASK_IO_ACCOUNTING. A
 * macro, so that each relocation is rooted at the owner's type: one type fewer for the
 * kernel's CO-RE to find at load.
 */
#define READ_IO(owner, io)                                                                 \
	do {                                                                               \
		if (bpf_core_field_exists((owner)->ioac.rchar)) {                          \
			(io)->rchar = (owner)->ioac.rchar;                                 \
			(io)->wchar = (owner)->ioac.wchar;                                 \
		}                                                                          \
		if (bpf_core_field_exists((owner)->ioac.read_bytes)) {                     \
			(io)->read_bytes = (owner)->ioac.read_bytes;                       \
			(io)->write_bytes = (owner)->ioac.write_bytes;                     \
			(io)->cancelled_write_bytes = (owner)->ioac.cancelled_write_bytes; \
		}                                                                          \
	} while (0)

/*
 * The iterator hands a trusted, BTF-typed task pointer: fields are read with direct loads
 * (the verifier makes them fault-safe), not bpf_probe_read_kernel calls, which would cost a
 * helper call per field per task. The pointer is cast to an untrusted one first
 * (bpf_rdonly_cast, kernel 6.2): loads stay direct, but each pointer walked from a trusted
 * one (t->mm, t->signal, t->cred ...) makes the verifier search the kernel's whole BTF twice
 * by name for a "__safe_trusted" type, which was two thirds of the load (~5 ms of ~7.5).
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct taskiter_rec r = {};
	struct mm_struct *mm;
	struct signal_struct *sig;
	const struct cred *cred;
	unsigned int st;

	if (!t) {
		/* the last call of an iteration (no task): an end marker in the same read, so
		 * the reader needs no extra read() to see the end */
		r.pid = r.tgid = TASKITER_END;
		bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
		return 0;
	}
	if (!task_selected(t))
		return 0;
	t = bpf_rdonly_cast(t, bpf_core_type_id_kernel(struct task_struct));
	r.pid = t->pid;
	r.tgid = t->tgid;
	r.ppid = t->real_parent->tgid;
	cred = t->cred;
	r.euid = cred->euid.val;
	r.uid = cred->uid.val;
	__builtin_memcpy(r.comm, t->comm, sizeof(r.comm));
	st = task_state_btf(t);
	r.state = (st | t->exit_state) & 0x7f;
	if ((st & 0x402) == 0x402)
		r.state = 0x402; /* TASK_IDLE: shown as I */
	r.prio = t->prio;
	r.static_prio = t->static_prio;
	if (bpf_core_field_exists(t->thread_info.cpu))
		r.cpu = t->thread_info.cpu;
	r.utime_ns = t->utime;
	r.stime_ns = t->stime;
	r.min_flt = t->min_flt;
	r.maj_flt = t->maj_flt;
	r.start_boottime_ns = t->start_boottime;
	r.nvcsw = t->nvcsw;
	r.nivcsw = t->nivcsw;
	r.gtime_ns = t->gtime;
	if (bpf_core_field_exists(t->sched_info.run_delay)) {
		r.has_sched = 1;
		r.run_delay_ns = t->sched_info.run_delay;
	}
	r.runtime_ns = t->se.sum_exec_runtime;
	/* direct loads through nested pointers (parent, cred, delays) too: from the untrusted
	 * cast they cost the verifier nothing at load, a bpf_probe_read_kernel call costs every
	 * task of every scan (~20 us a scan of 100 tasks, measured by ptk record) */
	if (bpf_core_field_exists(t->delays))
		r.blkio_delay_ns = t->delays->blkio_delay;
	r.has_io = bpf_core_field_exists(t->ioac.rchar);
	READ_IO(t, &r.io);
	sig = t->signal;
	if (sig) {
		r.nr_threads = sig->nr_threads;
		r.sig_utime_ns = sig->utime;
		r.sig_stime_ns = sig->stime;
		r.sig_min_flt = sig->min_flt;
		r.sig_maj_flt = sig->maj_flt;
		r.sig_gtime_ns = sig->gtime;
		r.sig_runtime_ns = sig->sum_sched_runtime;
		READ_IO(sig, &r.sig_io);
	}
	mm = t->mm;
	if (mm) {
		r.total_vm = mm->total_vm;
		r.rss_file = rss(mm, 0);
		r.rss_anon = rss(mm, 1);
		r.rss_swap = rss(mm, 2);
		r.rss_shmem = rss(mm, 3);
	}
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
