/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel/user ABI of tcpconnect and tcpaccept: one event per TCP connection, active (a
 * connect that sent its SYN) or passive (returned by accept()), from the socket's point of
 * view: local and remote address and port.
 */
#ifndef PTK_TCPEV_H
#define PTK_TCPEV_H

#define TCPEV_MAX_PORTS 64

struct tcpev_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC when tcp_v{4,6}_connect / inet_csk_accept returned */
	__s32 pid; /* tgid of the connecting or accepting process */
	__s32 tid;
	__u32 uid;
	__u16 af; /* AF_INET or AF_INET6 */
	__u16 lport; /* local port, host order (assigned by connect; listening for accept) */
	__u16 rport; /* remote port, host order */
	__u16 err; /* 0; or, tcpconnect's syscall hook only, the errno of a connect refused,
		    * timed out or unreachable after its SYN went out: then the local address
		    * and port are unknown (the socket was reset) and the remote ones are
		    * connect()'s argument */
	__u8 laddr[16]; /* IPv4 in the first 4 bytes, network order */
	__u8 raddr[16];
	char comm[16];
};

#endif
