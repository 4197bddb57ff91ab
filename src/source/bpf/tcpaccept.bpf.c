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
#include "tcpev.bpf.h"

static __always_inline int emit(struct sock *sk)
{
	struct tcpev_event *e;
	__u16 af;

	if (!sk || !current_selected())
		return 0;
	if (BPF_CORE_READ_BITFIELD_PROBED(sk, sk_protocol) != IPPROTO_TCP)
		return 0;
	af = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (af != AF_INET && af != AF_INET6)
		return 0;
	e = new_event(af, BPF_CORE_READ(sk, __sk_common.skc_num));
	if (!e)
		return 0;
	sock_ends(e, sk, af);
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
