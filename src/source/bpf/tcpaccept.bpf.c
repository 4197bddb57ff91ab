// SPDX-License-Identifier: GPL-2.0
/*
 * tcpaccept: passive TCP connections as accept() hands them to a process (bcc tcpaccept).
 * Hook: the return of inet_csk_accept(), which runs in the accepting process's context and
 * returns the new socket with both addresses and ports set. fexit (a trampoline, the
 * return read with bpf_get_func_ret so the hook does not depend on the function's
 * arguments, which changed in 6.10) is preferred; kretprobe is the fallback; on kernels
 * with neither, the syscalls tracepoints sys_exit_accept/accept4 find the new socket from
 * the returned fd (accepts made inside the kernel or by io_uring are then not seen).
 * sock:inet_sock_set_state SYN_RECV -> ESTABLISHED is not used: it fires in softirq
 * context when the handshake completes, so pid/comm would be whatever task was running,
 * and it counts connections that no one has accepted yet.
 */
#include "common.bpf.h"
#include <bpf/bpf_endian.h>
#include "tcpaccept.h"

#define AF_INET 2
#define AF_INET6 10
#define IPPROTO_TCP 6

const volatile int targ_family = 0; /* 0 = both, AF_INET (-4), AF_INET6 (-6) */
const volatile int filter_ports_len = 0;
const volatile __u16 filter_ports[TCPACCEPT_MAX_PORTS] = {};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline int emit(struct sock *sk)
{
	struct tcpaccept_event *e;
	__u64 id = bpf_get_current_pid_tgid();
	__u16 af, lport;
	bool hit = !filter_ports_len;

	if (!sk || !current_selected())
		return 0;
	if (BPF_CORE_READ_BITFIELD_PROBED(sk, sk_protocol) != IPPROTO_TCP)
		return 0;
	af = BPF_CORE_READ(sk, __sk_common.skc_family);
	if ((af != AF_INET && af != AF_INET6) || (targ_family && af != targ_family))
		return 0;
	lport = BPF_CORE_READ(sk, __sk_common.skc_num);
	for (int i = 0; i < TCPACCEPT_MAX_PORTS && i < filter_ports_len; i++)
		if (filter_ports[i] == lport)
			hit = true;
	if (!hit)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__u32 zero = 0;
		__u64 *n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			__sync_fetch_and_add(n, 1);
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->af = af;
	e->lport = lport;
	e->rport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	if (af == AF_INET) {
		__u32 l = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
		__u32 r = BPF_CORE_READ(sk, __sk_common.skc_daddr);

		__builtin_memcpy(e->laddr, &l, 4);
		__builtin_memcpy(e->raddr, &r, 4);
	} else {
		bpf_core_read(e->laddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
		bpf_core_read(e->raddr, 16, &sk->__sk_common.skc_v6_daddr);
	}
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("fexit/inet_csk_accept")
int BPF_PROG(fexit_accept)
{
	__u64 ret = 0;

	if (bpf_get_func_ret(ctx, &ret))
		return 0;
	return emit((struct sock *)ret);
}

SEC("kretprobe/inet_csk_accept")
int BPF_KRETPROBE(krp_accept, struct sock *sk)
{
	return emit(sk);
}

#define S_IFMT 00170000
#define S_IFSOCK 0140000

/* The socket behind a file descriptor of the current task, NULL when it is not one. */
static __always_inline struct sock *fd_sock(int fd)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *f = NULL;
	struct socket *sock;

	if (fd < 0 || (__u32)fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	if (!f || (BPF_CORE_READ(f, f_inode, i_mode) & S_IFMT) != S_IFSOCK)
		return NULL;
	sock = BPF_CORE_READ(f, private_data);
	return BPF_CORE_READ(sock, sk);
}

SEC("tracepoint/syscalls/sys_exit_accept")
int tp_sys_exit_accept(struct trace_event_raw_sys_exit *ctx)
{
	return ctx->ret >= 0 ? emit(fd_sock(ctx->ret)) : 0;
}

SEC("tracepoint/syscalls/sys_exit_accept4")
int tp_sys_exit_accept4(struct trace_event_raw_sys_exit *ctx)
{
	return ctx->ret >= 0 ? emit(fd_sock(ctx->ret)) : 0;
}

char LICENSE[] SEC("license") = "GPL";
