// SPDX-License-Identifier: GPL-2.0
/*
 * tcpconnect: active TCP connects. The cheapest hook is fexit on tcp_v4_connect /
 * tcp_v6_connect: one program per call that sees the socket and the return value, in the
 * connecting process's context, after inet_hash_connect() has assigned the local port.
 * Fallbacks: kprobe (remember the socket per thread) + kretprobe; then, on kernels with
 * neither trampolines nor kprobes, the syscalls tracepoints sys_enter/exit_connect (the
 * socket found from the fd at exit; connects made inside the kernel or by io_uring are not
 * seen that way). sock:inet_sock_set_state (CLOSE -> SYN_SENT) is not used: it fires before
 * the local port is chosen. Ring buffer reserve failures are counted per CPU in lost[0].
 */
#include "tcpev.bpf.h"

#define EINPROGRESS 115
#define ECONNREFUSED 111
#define ETIMEDOUT 110
#define EHOSTUNREACH 113

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct sock *);
} sockets SEC(".maps");

/* sys_enter_connect's arguments, by thread, for sys_exit_connect */
struct connarg {
	__s32 fd;
	__u32 pad;
	__u64 uaddr; /* struct sockaddr __user * */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct connarg);
} connfds SEC(".maps");

static __always_inline bool selected(void)
{
	return current_selected() && uid_selected();
}

static __always_inline int emit(struct sock *sk, int ret, __u16 af)
{
	struct tcpev_event *e;

	if (ret)
		return 0; /* connect failed before the SYN: nothing went out */
	e = new_event(af, bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport)));
	if (!e)
		return 0;
	sock_ends(e, sk, af);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

static __always_inline int kp_enter(struct sock *sk)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (selected())
		bpf_map_update_elem(&sockets, &tid, &sk, BPF_ANY);
	return 0;
}

static __always_inline int kp_exit(int ret, __u16 af)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct sock **skp = bpf_map_lookup_elem(&sockets, &tid);

	if (!skp)
		return 0;
	emit(*skp, ret, af);
	bpf_map_delete_elem(&sockets, &tid);
	return 0;
}

/* The hooks of one family's connect function, tcp_v4_connect or tcp_v6_connect: fexit, else
 * kprobe + kretprobe (the loader keeps one kind). */
#define CONNECT_HOOKS(V, AF)                                                                     \
	SEC("fexit/tcp_" #V "_connect")                                                          \
	int BPF_PROG(fexit_##V##_connect, struct sock *sk, struct sockaddr *uaddr, int addr_len, \
		     int ret)                                                                    \
	{                                                                                        \
		return selected() ? emit(sk, ret, AF) : 0;                                       \
	}                                                                                        \
	SEC("kprobe/tcp_" #V "_connect")                                                         \
	int BPF_KPROBE(kp_##V##_connect, struct sock *sk)                                        \
	{                                                                                        \
		return kp_enter(sk);                                                             \
	}                                                                                        \
	SEC("kretprobe/tcp_" #V "_connect")                                                      \
	int BPF_KRETPROBE(krp_##V##_connect, int ret)                                            \
	{                                                                                        \
		return kp_exit(ret, AF);                                                         \
	}

CONNECT_HOOKS(v4, AF_INET)
CONNECT_HOOKS(v6, AF_INET6)

SEC("tracepoint/syscalls/sys_enter_connect")
int tp_sys_enter_connect(struct trace_event_raw_sys_enter *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct connarg c = { .fd = (__s32)ctx->args[0], .uaddr = ctx->args[1] };

	if (selected())
		bpf_map_update_elem(&connfds, &tid, &c, BPF_ANY);
	return 0;
}

/*
 * A blocking connect whose SYN went out and got a reset (-ECONNREFUSED), nothing
 * (-ETIMEDOUT) or an ICMP error (-EHOSTUNREACH) back: by sys_exit the socket has been reset
 * (tcp_disconnect), so the destination comes from connect()'s sockaddr and the source is left
 * unknown (zero), with the errno in err.
 */
static __always_inline int emit_failed(__u64 uaddr, __u16 af, long ret)
{
	struct tcpev_event *e;
	struct sockaddr_in6 sa = {};

	if (bpf_probe_read_user(&sa, af == AF_INET ? sizeof(struct sockaddr_in) : sizeof(sa),
				(void *)uaddr) ||
	    sa.sin6_family != af)
		return 0;
	/* sin_port and sin6_port share their offset */
	e = new_event(af, bpf_ntohs(sa.sin6_port));
	if (!e)
		return 0;
	e->err = (__u16)-ret;
	e->rport = bpf_ntohs(sa.sin6_port);
	if (af == AF_INET)
		__builtin_memcpy(e->raddr, &((struct sockaddr_in *)&sa)->sin_addr, 4);
	else
		__builtin_memcpy(e->raddr, &sa.sin6_addr, 16);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_connect")
int tp_sys_exit_connect(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct connarg *cp = bpf_map_lookup_elem(&connfds, &tid), c;
	long ret = ctx->ret;
	struct sock *sk;
	__u16 af;

	if (!cp)
		return 0;
	c = *cp;
	bpf_map_delete_elem(&connfds, &tid);
	sk = fd_sock(c.fd);
	if (!sk || BPF_CORE_READ_BITFIELD_PROBED(sk, sk_protocol) != IPPROTO_TCP)
		return 0;
	af = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (af != AF_INET && af != AF_INET6)
		return 0;
	/* a non-blocking connect returns -EINPROGRESS after sending the SYN */
	if (!ret || ret == -EINPROGRESS)
		return emit(sk, 0, af);
	if (ret == -ECONNREFUSED || ret == -ETIMEDOUT || ret == -EHOSTUNREACH)
		return emit_failed(c.uaddr, af, ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
