/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tcpconnect and tcpaccept programs share: the family and port filters, an event of
 * the current task (events.bpf.h), the addresses and ports of a socket, and the socket behind
 * a file descriptor.
 */
#ifndef PTK_TCPEV_BPF_H
#define PTK_TCPEV_BPF_H

#include "common.bpf.h"
#include <bpf/bpf_endian.h>
#include "events.bpf.h"
#include "tcpev.h"

#define AF_INET 2
#define AF_INET6 10
#define IPPROTO_TCP 6
#define S_IFMT 00170000
#define S_IFSOCK 0140000

const volatile int targ_family = 0; /* 0 = both; AF_INET (-4) or AF_INET6 (-6) */
const volatile int filter_ports_len = 0;
const volatile __u16 filter_ports[TCPEV_MAX_PORTS] = {};

static __always_inline bool port_selected(__u16 port)
{
	if (!filter_ports_len)
		return true;
	for (int i = 0; i < TCPEV_MAX_PORTS && i < filter_ports_len; i++)
		if (filter_ports[i] == port)
			return true;
	return false;
}

/* A new event of the current task, with the family and port filters applied to af and port:
 * NULL when it is filtered out or the ring buffer is full (counted lost). The caller fills
 * the addresses and ports. */
static __always_inline struct tcpev_event *new_event(__u16 af, __u16 port)
{
	struct tcpev_event *e;
	__u64 id = bpf_get_current_pid_tgid();

	if ((targ_family && af != targ_family) || !port_selected(port))
		return NULL;
	e = reserve_event(sizeof(*e));
	if (!e)
		return NULL;
	__builtin_memset(e, 0, sizeof(*e));
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->af = af;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return e;
}

/* The socket's local and remote ports and addresses (sock_common). */
static __always_inline void sock_ends(struct tcpev_event *e, struct sock *sk, __u16 af)
{
	e->lport = BPF_CORE_READ(sk, __sk_common.skc_num);
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
}

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

#endif
