/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Serving an exposition over HTTP (libmicrohttpd): GET /metrics in the text format, or in
 * OpenMetrics when the Accept header asks for it; "/" a landing page; 404 and 405 otherwise.
 * Connections are accepted by a gate (output/httpgate.h) that holds each until its request
 * header is complete, 5 s at most, and makes room for new ones by closing the oldest it
 * holds; libmicrohttpd answers complete requests only, each answer closing its connection.
 * The limits are sized on RLIMIT_NOFILE (see size_limits); request headers are capped at
 * 64 kB (431).
 *
 * A /metrics request is suspended (no thread held) until the caller's collector has rendered
 * a body for it: the collector takes every scrape waiting as one batch (ptk_prom_http_wait),
 * renders once, after each of them arrived, and answers them all (ptk_prom_http_answer), so
 * 200 concurrent scrapes cost a few collections and none gets data older than its request.
 */
#ifndef PTK_OUTPUT_PROM_HTTP_H
#define PTK_OUTPUT_PROM_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "output/prom.h"

/* A rendered exposition in both formats, shared by the responses of a batch (refcounted). */
struct ptk_prom_body {
	int refs; /* atomic */
	struct ptk_prom out[2]; /* [PTK_PROM_TEXT], [PTK_PROM_OPENMETRICS] */
};
/* A body with one reference, both formats initialised (ptk_prom_init). */
struct ptk_prom_body *ptk_prom_body_new(void);
/* Drop a reference (NULL is fine); the last one frees it. */
void ptk_prom_body_unref(struct ptk_prom_body *b);

struct ptk_prom_http;

/*
 * Listen on listen ("HOST:PORT", ":PORT" = every IPv4 interface, "[V6]:PORT"; port 0 = any
 * free one) with nthreads HTTP worker threads. Returns 0 with *out set, -EINVAL when listen
 * does not parse, or -errno when it cannot bind (the server is not started).
 */
int ptk_prom_http_start(const char *listen, int nthreads, struct ptk_prom_http **out);
/* The URL it serves, "http://127.0.0.1:9469/metrics" (the bound port). */
void ptk_prom_http_url(const struct ptk_prom_http *h, char *buf, size_t size);
/*
 * The collector's side, one thread: wait until scrapes are waiting and take them as a batch.
 * Returns their number, or 0 once ptk_prom_http_quiesce was called and none is left.
 */
int ptk_prom_http_wait(struct ptk_prom_http *h);
/* Answer the batch taken by the last wait with b (each response takes a reference). */
void ptk_prom_http_answer(struct ptk_prom_http *h, struct ptk_prom_body *b);
/* Connections closed before libmicrohttpd answered them, since the start (any thread). */
struct ptk_prom_http_stats {
	u64 header_timeout; /* no complete request header in time */
	u64 evicted; /* the oldest held, closed to make room */
	u64 client_closed; /* by the client before its header ended */
	u64 refused; /* complete, but libmicrohttpd's limits were reached */
	u64 bad_request; /* answered 400 by the gate: no request line */
};
void ptk_prom_http_stats(struct ptk_prom_http *h, struct ptk_prom_http_stats *st);
/* Stop accepting connections; later scrapes on open ones get 503; wait returns 0 when the
 * scrapes already waiting have been taken. */
void ptk_prom_http_quiesce(struct ptk_prom_http *h);
/* Stop serving and free h (after the collector answered what it took; NULL is fine). */
void ptk_prom_http_stop(struct ptk_prom_http *h);

#endif
