// SPDX-License-Identifier: GPL-2.0
#include "output/httppush.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

size_t ptk_url_escape(char *buf, size_t size, size_t n, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s && n + 4 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.' || c == '~') {
			buf[n++] = c;
		} else {
			buf[n++] = '%';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		}
	}
	if (n < size)
		buf[n] = '\0';
	return n;
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *b = p;

	while (n) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		b += w;
		n -= w;
	}
	return 0;
}

int ptk_http_post(const char *url, const char *ctype, const char *encoding, const void *body,
		  size_t len, int timeout_ms, char *err, size_t errsize)
{
	char host[256], port[16] = "80", head[2048], resp[512];
	const char *p, *hs, *path;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL, *x;
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	int fd = -1, r, status = -EIO;
	size_t hl, got = 0;

	if (strncmp(url, "http://", 7)) {
		snprintf(err, errsize, "%s: only http:// URLs", url);
		return -EINVAL;
	}
	hs = url + 7;
	path = hs + strcspn(hs, "/?");
	p = memchr(hs, ':', path - hs);
	if (hs[0] == '[') { /* [::1]:port */
		const char *e = memchr(hs, ']', path - hs);
		if (!e) {
			snprintf(err, errsize, "%s: bad IPv6 host", url);
			return -EINVAL;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(e - hs - 1), hs + 1);
		p = e[1] == ':' ? e + 1 : NULL;
	} else {
		snprintf(host, sizeof(host), "%.*s", (int)((p ? p : path) - hs), hs);
	}
	if (p)
		snprintf(port, sizeof(port), "%.*s", (int)(path - p - 1), p + 1);
	if (!host[0]) {
		snprintf(err, errsize, "%s: no host", url);
		return -EINVAL;
	}
	if ((r = getaddrinfo(host, port, &hints, &ai))) {
		snprintf(err, errsize, "%s: %s", host, gai_strerror(r));
		return -EHOSTUNREACH;
	}
	for (x = ai; x; x = x->ai_next) {
		fd = socket(x->ai_family, x->ai_socktype | SOCK_CLOEXEC, x->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (!connect(fd, x->ai_addr, x->ai_addrlen))
			break;
		status = errno == EINPROGRESS || errno == EAGAIN ? -ETIMEDOUT : -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0) {
		snprintf(err, errsize, "connect %s:%s: %s", host, port, strerror(-status));
		return status;
	}
	hl = snprintf(head, sizeof(head),
		      "POST %s%s HTTP/1.1\r\nHost: %s:%s\r\nUser-Agent: ptk\r\n"
		      "Content-Type: %s\r\n%s%s%sContent-Length: %zu\r\nConnection: close\r\n\r\n",
		      *path == '/' ? "" : "/", path, host, port, ctype,
		      encoding ? "Content-Encoding: " : "", encoding ? encoding : "",
		      encoding ? "\r\n" : "", len);
	if (hl >= sizeof(head)) {
		close(fd);
		snprintf(err, errsize, "%s: URL too long", url);
		return -EINVAL;
	}
	if ((r = send_all(fd, head, hl)) || (r = send_all(fd, body, len))) {
		close(fd);
		snprintf(err, errsize, "send to %s:%s: %s", host, port, strerror(-r));
		return r;
	}
	/* the status line is enough */
	while (got < sizeof(resp) - 1) {
		ssize_t n = recv(fd, resp + got, sizeof(resp) - 1 - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && !got) {
				status = errno == EAGAIN ? -ETIMEDOUT : -errno;
				snprintf(err, errsize, "no answer from %s:%s: %s", host, port,
					 strerror(-status));
				close(fd);
				return status;
			}
			break;
		}
		got += n;
		resp[got] = '\0';
		if (strstr(resp, "\r\n"))
			break;
	}
	close(fd);
	resp[got] = '\0';
	if (strncmp(resp, "HTTP/1.", 7) || got < 12) {
		snprintf(err, errsize, "%s:%s: not an HTTP answer", host, port);
		return -EPROTO;
	}
	status = atoi(resp + 9);
	if (status < 200 || status > 299)
		snprintf(err, errsize, "%s:%s answered %.*s", host, port,
			 (int)strcspn(resp + 9, "\r\n"), resp + 9);
	return status;
}
