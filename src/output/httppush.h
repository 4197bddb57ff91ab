/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A plain HTTP/1.1 POST (http:// only, no TLS, no redirects), for pushing profiles to a
 * Pyroscope server's /ingest or to any endpoint that takes pprof. One request a
 * connection ("Connection: close"), bounded by a timeout on connect, send and receive.
 */
#ifndef PTK_OUTPUT_HTTPPUSH_H
#define PTK_OUTPUT_HTTPPUSH_H

#include <stddef.h>

/*
 * POST len bytes of body with Content-Type ctype (and Content-Encoding encoding when not
 * NULL) to url ("http://host[:port][/path][?query]"). Returns the HTTP status code, or
 * -EINVAL (not an http:// URL), -ETIMEDOUT, or another -errno, with a one-line reason in
 * err.
 */
int ptk_http_post(const char *url, const char *ctype, const char *encoding, const void *body,
		  size_t len, int timeout_ms, char *err, size_t errsize);

/* Append s to buf (of size, holding n bytes) percent-encoded for a URL query. Returns the
 * new length (truncated at size - 1). */
size_t ptk_url_escape(char *buf, size_t size, size_t n, const char *s);

#endif
