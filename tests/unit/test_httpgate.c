// SPDX-License-Identifier: GPL-2.0
/*
 * The HTTP admission gate on real loopback sockets: complete headers are handed on with
 * their bytes unread, slow, idle and half-closed connections are closed (on time, or at
 * once), and a full gate makes room by closing the oldest connection (of the same address
 * when that address is at its own limit). Timeout 0.3 s, 4 held, 3 per address.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "output/httpgate.h"

#define TIMEOUT_S 0.3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int handed[16], nhanded;
static struct ptk_httpgate *gate;
static int lsock;
static struct sockaddr_in laddr;

static void on_hand(void *cls, int fd, const struct sockaddr *addr, socklen_t len)
{
	pthread_mutex_lock(&lock);
	if (nhanded < 16 && addr->sa_family == AF_INET && len == sizeof(struct sockaddr_in))
		handed[nhanded++] = fd;
	else
		close(fd);
	pthread_mutex_unlock(&lock);
}

static int setup(void **state)
{
	struct ptk_httpgate_opts o = { .header_timeout_s = TIMEOUT_S,
				       .max_pending = 4,
				       .max_pending_per_ip = 3,
				       .header_max = 64 };
	socklen_t len = sizeof(laddr);

	laddr = (struct sockaddr_in){ .sin_family = AF_INET,
				      .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	lsock = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lsock < 0 || bind(lsock, (struct sockaddr *)&laddr, sizeof(laddr)) ||
	    listen(lsock, 64) || getsockname(lsock, (struct sockaddr *)&laddr, &len))
		return -1;
	nhanded = 0;
	return ptk_httpgate_start(lsock, &o, on_hand, NULL, &gate);
}

static int teardown(void **state)
{
	ptk_httpgate_stop(gate);
	close(lsock);
	for (int i = 0; i < nhanded; i++)
		close(handed[i]);
	return 0;
}

/* A client connection from 127.0.0.N. */
static int client(int n)
{
	struct sockaddr_in src = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(0x7f000000 | n) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&src, sizeof(src)), 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&laddr, sizeof(laddr)), 0);
	return fd;
}

static struct ptk_httpgate_stats stats(void)
{
	struct ptk_httpgate_stats st;

	ptk_httpgate_stats(gate, &st);
	return st;
}

/* Wait (2 s at most) until the gate has accepted n connections in all. */
static void wait_accepted(u64 n)
{
	for (int i = 0; i < 200 && stats().accepted < n; i++)
		usleep(10000);
	assert_int_equal(stats().accepted, n);
}

static int nhanded_now(void)
{
	pthread_mutex_lock(&lock);
	int n = nhanded;
	pthread_mutex_unlock(&lock);
	return n;
}

/* Wait (2 s at most) until n connections were handed on. */
static void wait_handed(int n)
{
	for (int i = 0; i < 200 && nhanded_now() < n; i++)
		usleep(10000);
	assert_int_equal(nhanded_now(), n);
}

/* Seconds until the server closes fd (EOF or reset), -1 after wait_s. */
static double closed_after(int fd, double wait_s)
{
	u64 t0 = ptk_now_ns();
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&p, 1, (int)(wait_s * 1000)) != 1 || recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK) > 0)
		return -1;
	return (ptk_now_ns() - t0) / 1e9;
}

static bool still_open(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

static void send_str(int fd, const char *s)
{
	assert_int_equal(send(fd, s, strlen(s), MSG_NOSIGNAL), (ssize_t)strlen(s));
}

/* The handed connection's bytes are all there: the gate only peeked. */
static void assert_unread(int fd, const char *want)
{
	char buf[128];
	size_t n = 0;
	ssize_t r;

	while (n < strlen(want) && (r = recv(fd, buf + n, sizeof(buf) - 1 - n, 0)) > 0)
		n += r;
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void test_complete(void **state)
{
	const char *req = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
	int c = client(1);

	send_str(c, req);
	wait_handed(1);
	assert_unread(handed[0], req);
	/* in pieces, the end of the header split between sends */
	int d = client(1);
	send_str(d, "GET / HTTP/1.1\r\nHost: x\r\n\r");
	usleep(50000);
	assert_int_equal(nhanded_now(), 1);
	send_str(d, "\n");
	wait_handed(2);
	assert_unread(handed[1], "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
	/* bare LF lines */
	int e = client(1);
	send_str(e, "GET / HTTP/1.0\n\n");
	wait_handed(3);
	assert_int_equal(stats().handed, 3);
	close(c);
	close(d);
	close(e);
}

static void test_slow_idle_halfclosed(void **state)
{
	int slow = client(1), idle = client(1), half = client(1);

	wait_accepted(3);
	send_str(slow, "GET /metrics HTTP/1.1\r\n");
	send_str(half, "GET /metrics HTTP/1.1\r\n");
	shutdown(half, SHUT_WR); /* the header can no longer end: closed at once */
	double t_half = closed_after(half, 1);
	assert_true(t_half >= 0 && t_half < TIMEOUT_S / 2);
	/* the slow one trickles, yet is closed at the timeout after its accept */
	for (int i = 0; i < 5; i++) {
		usleep(40000);
		send_str(slow, "X");
	}
	double t_slow = closed_after(slow, 1), t_idle = closed_after(idle, 1);
	assert_true(t_slow >= 0 && t_idle >= 0);
	struct ptk_httpgate_stats st = stats();
	assert_int_equal(st.timed_out, 2);
	assert_int_equal(st.closed, 1);
	assert_int_equal(st.handed, 0);
	assert_int_equal(nhanded_now(), 0);
	close(slow);
	close(idle);
	close(half);
}

/* A request line, then more header than header_max. */
static void test_header_max(void **state)
{
	char big[65];
	int c = client(1);

	memset(big, 'a', 64);
	memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
	big[64] = '\0';
	send_str(c, big); /* 64 bytes, no end: handed on for the server to refuse */
	wait_handed(1);
	close(c);
}

/*
 * No request line: 400 from the gate, never handed on (found by fuzz_http: libmicrohttpd
 * held a header that began with a NUL or with empty lines until its 10 s timeout, answering
 * nothing, so such requests could fill its connections).
 */
static void test_no_request_line(void **state)
{
	static const char *const bad[] = {
		"\r\n\r\n",
		"\x01\x02 not http\r\n\r\n",
		"GET\r\n\r\n",
		"GET /\r\n\r\n",
		"GET  / HTTP/1.1\r\n\r\n",
		"GET / FTP/1.1\r\n\r\n",
		" GET / HTTP/1.1\r\n\r\n",
	};
	char buf[256];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int c = client(1);
		send_str(c, bad[i]);
		double t = closed_after(c, 1);
		ssize_t n = recv(c, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		buf[n > 0 ? n : 0] = '\0';
		assert_true(t < 0); /* the answer came first: closed_after saw data */
		assert_true(!strncmp(buf, "HTTP/1.1 400 Bad Request\r\n", 26));
		close(c);
	}
	/* a NUL inside the header */
	int c = client(1);
	assert_int_equal(send(c, "GET / HTTP/1.1\r\nX: a\0b\r\n\r\n", 27, 0), 27);
	assert_true(closed_after(c, 1) < 0);
	close(c);
	assert_int_equal(stats().rejected, ARRAY_SIZE(bad) + 1);
	assert_int_equal(nhanded_now(), 0);
	/* the smallest valid one is handed on */
	c = client(1);
	send_str(c, "M / HTTP/1.0\n\n");
	wait_handed(1);
	close(c);
}

/* Full: the oldest goes; an address at its own limit loses its own oldest. */
static void test_evict(void **state)
{
	int a = client(2), b[4], c;

	wait_accepted(1);
	for (int i = 0; i < 3; i++) {
		b[i] = client(1);
		wait_accepted(2 + i);
	}
	/* 4 held: A from .2, B0-B2 from .1. B3 from .1 (its 4th > 3): B0 goes, not A */
	b[3] = client(1);
	wait_accepted(5);
	assert_true(closed_after(b[0], 1) >= 0);
	assert_true(still_open(a));
	/* C from .3: 4 held (A, B1-B3), the oldest of all goes: A */
	c = client(3);
	wait_accepted(6);
	assert_true(closed_after(a, 1) >= 0);
	for (int i = 1; i < 4; i++)
		assert_true(still_open(b[i]));
	assert_true(still_open(c));
	assert_int_equal(stats().evicted, 2);
	/* a request sent with the connection is handed on even when the gate is full */
	int d = client(1);
	send_str(d, "GET / HTTP/1.1\r\n\r\n");
	wait_handed(1);
	close(a);
	close(c);
	close(d);
	for (int i = 0; i < 4; i++)
		close(b[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_complete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_idle_halfclosed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_request_line, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
