/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The admission gate in front of the HTTP server: one thread accepts the TCP connections and
 * holds each until its request header is complete (the end of the header seen with
 * MSG_PEEK, so nothing is consumed), then hands the socket to the server. A connection that
 * has not sent its whole header within the header timeout is closed, however it trickles
 * (slowloris), and so is one that closes its side before the header ends. A header that does
 * not begin with a request line ("METHOD TARGET HTTP/...") or holds a NUL is answered 400.
 *
 * A new connection is always accepted. When the gate holds max_pending connections, the
 * oldest it holds is closed to make room; when the new one's address already holds
 * max_pending_per_ip, that address's oldest is closed instead. A client that sends its
 * request with the connection (Prometheus, curl) is held for a round trip, so connections
 * held open without a request cannot keep it out: they are closed first.
 */
#ifndef PTK_OUTPUT_HTTPGATE_H
#define PTK_OUTPUT_HTTPGATE_H

#include <stddef.h>
#include <sys/socket.h>

#include "lib/util.h"

struct ptk_httpgate_opts {
	double header_timeout_s; /* from accept to the end of the header */
	int max_pending; /* connections held waiting for their header */
	int max_pending_per_ip; /* of them from one address */
	size_t header_max; /* a header this long without its end is handed on as it is */
};

struct ptk_httpgate_stats {
	u64 accepted, handed; /* handed: to the server, header complete (or header_max) */
	u64 timed_out; /* header not complete within the timeout */
	u64 evicted; /* closed to make room for a newer connection */
	u64 closed; /* the client closed (or failed) before its header ended */
	u64 rejected; /* answered 400: no request line */
};

/* Called on the gate's thread with a connection whose header is complete: fd (non-blocking,
 * close-on-exec) is the callee's from then on. */
typedef void (*ptk_httpgate_fn)(void *cls, int fd, const struct sockaddr *addr, socklen_t len);

struct ptk_httpgate;

/*
 * Start the gate's thread on lsock (a listening, non-blocking TCP socket the caller keeps
 * and closes after ptk_httpgate_stop). Returns 0 with *out set, or -errno (epoll, eventfd,
 * thread).
 */
int ptk_httpgate_start(int lsock, const struct ptk_httpgate_opts *o, ptk_httpgate_fn fn, void *cls,
		       struct ptk_httpgate **out);
/* The counters so far (any thread). */
void ptk_httpgate_stats(struct ptk_httpgate *g, struct ptk_httpgate_stats *st);
/* Stop accepting, close the connections held, join the thread, free g (NULL is fine). */
void ptk_httpgate_stop(struct ptk_httpgate *g);

#endif
