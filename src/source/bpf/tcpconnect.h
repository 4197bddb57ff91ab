/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of tcpconnect: one event per successful active connect (SYN sent). */
#ifndef PTK_TCPCONNECT_H
#define PTK_TCPCONNECT_H

#define TCPCONNECT_MAX_PORTS 64
#define TCPCONNECT_INVALID_UID ((__u32)-1)

struct tcpconnect_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC when tcp_v{4,6}_connect returned */
	__s32 pid; /* tgid of the connecting process */
	__s32 tid;
	__u32 uid;
	__u16 af; /* AF_INET or AF_INET6 */
	__u16 sport; /* local port, host order (assigned by connect) */
	__u16 dport; /* remote port, host order */
	__u16 err; /* 0; or, syscall hook only, the errno of a connect refused, timed out or
		    * unreachable after its SYN went out: then the source (saddr, sport) is
		    * unknown (the socket was reset) and the destination is connect()'s argument */
	__u8 saddr[16]; /* IPv4 in the first 4 bytes, network order */
	__u8 daddr[16];
	char comm[16];
};

#endif
