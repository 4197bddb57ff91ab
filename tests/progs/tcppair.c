// SPDX-License-Identifier: GPL-2.0
/*
 * For the tcpconnect/tcpaccept tests: a listener and a connector in two processes.
 * usage: tcppair ADDR (127.0.0.1 or ::1)
 * The parent listens on ADDR (port chosen by the kernel), forks a child that connects;
 * the parent accepts. Prints "listen <pid> <port>", "connect <pid> <sport>",
 * "accept <pid> <peerport>" and exits 0.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	int af, ls, cs, as, port;
	pid_t child;

	if (argc < 2)
		return 2;
	af = strchr(argv[1], ':') ? AF_INET6 : AF_INET;
	if (af == AF_INET) {
		struct sockaddr_in *a = (void *)&ss;
		a->sin_family = AF_INET;
		inet_pton(AF_INET, argv[1], &a->sin_addr);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (void *)&ss;
		a->sin6_family = AF_INET6;
		inet_pton(AF_INET6, argv[1], &a->sin6_addr);
		len = sizeof(*a);
	}
	ls = socket(af, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (void *)&ss, len) || listen(ls, 8)) {
		perror("listen");
		return 1;
	}
	getsockname(ls, (void *)&ss, &len);
	port = ntohs(af == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port :
				     ((struct sockaddr_in6 *)&ss)->sin6_port);
	printf("listen %d %d\n", getpid(), port);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		struct sockaddr_storage me;
		socklen_t ml = sizeof(me);

		cs = socket(af, SOCK_STREAM, 0);
		if (connect(cs, (void *)&ss, len)) {
			perror("connect");
			_exit(1);
		}
		getsockname(cs, (void *)&me, &ml);
		printf("connect %d %d\n", getpid(),
		       ntohs(af == AF_INET ? ((struct sockaddr_in *)&me)->sin_port :
					     ((struct sockaddr_in6 *)&me)->sin6_port));
		fflush(stdout);
		close(cs);
		_exit(0);
	}
	struct sockaddr_storage peer;
	socklen_t pl = sizeof(peer);
	as = accept(ls, (void *)&peer, &pl);
	if (as < 0) {
		perror("accept");
		return 1;
	}
	printf("accept %d %d\n", getpid(),
	       ntohs(af == AF_INET ? ((struct sockaddr_in *)&peer)->sin_port :
				     ((struct sockaddr_in6 *)&peer)->sin6_port));
	fflush(stdout);
	close(as);
	waitpid(child, NULL, 0);
	return 0;
}
