/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of tcpaccept: one event per connection returned by accept(). */
#ifndef PTK_TCPACCEPT_H
#define PTK_TCPACCEPT_H

#define TCPACCEPT_MAX_PORTS 64

struct tcpaccept_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC when inet_csk_accept returned */
	__s32 pid; /* tgid of the accepting process */
	__s32 tid;
	__u32 uid;
	__u16 af; /* AF_INET or AF_INET6 */
	__u16 lport; /* local (listening) port, host order */
	__u16 rport; /* remote port, host order */
	__u16 pad;
	__u8 laddr[16]; /* IPv4 in the first 4 bytes, network order */
	__u8 raddr[16];
	char comm[16];
};

#endif
