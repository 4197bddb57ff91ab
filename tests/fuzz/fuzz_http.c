// SPDX-License-Identifier: GPL-2.0
/*
 * HTTP request handling of the exporter (output/prom_http.c behind output/httpgate.c,
 * libmicrohttpd): the fuzzer's bytes are sent as they are on a loopback connection to the
 * real server, with a collector thread answering /metrics with a known body, and the
 * client's side closed after them. Invariants: the connection is closed within 5 s (no
 * hang: an incomplete header is closed when the client half-closes); anything answered is
 * an HTTP/1.x status line and its answer closes the connection; a 200 answers GET or HEAD
 * of / or /metrics (a query string aside), and a GET of /metrics carries the collector's
 * body in the format the Accept header asked for, whole.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "output/prom_http.h"

static struct ptk_prom_http *srv;
static struct sockaddr_in addr;
#define TEXT_BODY "fuzz_http_body_complete 1\n"
#define OM_BODY "fuzz_http_body_complete 1\n# EOF\n"

static void set_body(struct ptk_prom *p, const char *text)
{
	free(p->buf);
	p->buf = xstrdup(text);
	p->len = strlen(text);
	p->cap = p->len + 1;
}

static void *collector(void *arg)
{
	while (ptk_prom_http_wait(srv) > 0) {
		struct ptk_prom_body *b = ptk_prom_body_new();
		set_body(&b->out[PTK_PROM_TEXT], TEXT_BODY);
		set_body(&b->out[PTK_PROM_OPENMETRICS], OM_BODY);
		ptk_prom_http_answer(srv, b);
		ptk_prom_body_unref(b);
	}
	return NULL;
}

static void start(void)
{
	char url[128];
	unsigned port;
	pthread_t t;

	if (ptk_prom_http_start("127.0.0.1:0", 2, &srv))
		abort();
	ptk_prom_http_url(srv, url, sizeof(url));
	if (sscanf(url, "http://127.0.0.1:%u/", &port) != 1)
		abort();
	addr = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_port = htons(port),
				     .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (pthread_create(&t, NULL, collector, NULL))
		abort();
}

/* Wait up to ms for fd to be readable (libFuzzer's SIGALRM of -timeout interrupts poll). */
static bool wait_readable(int fd, int ms)
{
	u64 end = ptk_now_ns() + (u64)ms * 1000000;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		u64 now = ptk_now_ns();
		int r = poll(&p, 1, now < end ? (int)((end - now) / 1000000) + 1 : 0);
		if (r > 0)
			return true;
		if (r == 0 || errno != EINTR)
			return false;
	}
}

/* The request line's method and target (up to '?'), "" when there is none. */
static void request_line(const char *req, char *method, size_t ms, char *path, size_t ps)
{
	const char *sp = strchr(req, ' '), *eol = strpbrk(req, "\r\n");

	*method = *path = '\0';
	if (!sp || (eol && sp > eol))
		return;
	snprintf(method, ms, "%.*s", (int)(sp - req), req);
	const char *p = sp + 1, *e = p + strcspn(p, " ?\r\n");
	snprintf(path, ps, "%.*s", (int)(e - p), p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char resp[1 << 20];
	size_t n = 0;
	int fd;

	if (!srv)
		start();
	if (size > 70000)
		return 0;
	/*
	 * From another loopback address each time (127.0.0.1 up, 16M of them before one comes
	 * back): the server closes first, and its TIME_WAIT sockets (60 s) would meet the
	 * client's ephemeral ports again within seconds at thousands of runs a second.
	 */
	static unsigned seq;
	struct sockaddr_in src = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(0x7f000001 + seq++ % 0xfffffe) };
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&src, sizeof(src)))
		abort();
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		/* interrupted (SIGALRM): the handshake goes on, its outcome in SO_ERROR */
		int err = 0;
		socklen_t len = sizeof(err);
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		if (errno != EINTR)
			abort();
		while (poll(&p, 1, 5000) < 0 && errno == EINTR)
			;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err)
			abort();
	}
	/* the server may answer (and close) before taking it all: a short send is fine */
	for (size_t off = 0; off < size;) {
		ssize_t w = send(fd, data + off, size - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += w;
	}
	shutdown(fd, SHUT_WR);
	for (;;) {
		FUZZ_CHECK(wait_readable(fd, 5000)); /* closed within 5 s */
		ssize_t r = recv(fd, resp + n, sizeof(resp) - 1 - n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
		FUZZ_CHECK(n < sizeof(resp) - 1);
	}
	close(fd);
	resp[n] = '\0';
	if (!n)
		return 0; /* closed without an answer: an incomplete or refused request */
	FUZZ_CHECK(!strncmp(resp, "HTTP/1.", 7) && n >= 12 && resp[8] == ' ');
	int status = atoi(resp + 9);
	FUZZ_CHECK(status >= 100 && status <= 599);
	char *hdr_end = strstr(resp, "\r\n\r\n");
	FUZZ_CHECK(hdr_end != NULL);
	*hdr_end = '\0';
	FUZZ_CHECK(strcasestr(resp, "\r\nConnection: close") != NULL);
	if (status != 200)
		return 0;
	char *req = fuzz_text(data, size), method[32], path[64];
	request_line(req, method, sizeof(method), path, sizeof(path));
	FUZZ_CHECK(!strcmp(method, "GET") || !strcmp(method, "HEAD"));
	FUZZ_CHECK(!strcmp(path, "/") || !strcmp(path, "/metrics") ||
		   strstr(path, "%") != NULL); /* a %-encoded spelling of them */
	const char *body = hdr_end + 4;
	if (!strcmp(method, "GET") && strstr(resp, "application/openmetrics-text"))
		FUZZ_CHECK(!strcmp(body, OM_BODY));
	else if (!strcmp(method, "GET") && strstr(resp, "text/plain; version=0.0.4"))
		FUZZ_CHECK(!strcmp(body, TEXT_BODY));
	free(req);
	return 0;
}
