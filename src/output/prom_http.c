// SPDX-License-Identifier: GPL-2.0
/*
 * /metrics over HTTP: the admission gate (output/httpgate.h) accepts and holds connections
 * until their request header is complete, libmicrohttpd answers them, suspended requests are
 * answered in batches.
 */
#include "output/prom_http.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "output/httpgate.h"

/*
 * libmicrohttpd, opened when the exporter starts: linked, it and GnuTLS's libraries (10 of
 * ptk's 27) would be loaded and initialized by every command, a third of the start-up of
 * a short one (ptk agg, the tracers).
 */
#define MHD_SONAME "libmicrohttpd.so.12"
static struct {
	__typeof__(MHD_add_connection) *add_connection;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_create_response_from_buffer_with_free_callback_cls)
		*create_response_from_buffer_with_free_callback_cls;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_resume_connection) *resume_connection;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_suspend_connection) *suspend_connection;
} mhd;

/* 0, or -ELIBACC when libmicrohttpd is missing or lacks a function. */
static int mhd_open(void)
{
	static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
	static int rc = 1;
	static const struct {
		const char *name;
		void **fn;
	} fns[] = {
		{ "MHD_add_connection", (void **)&mhd.add_connection },
		{ "MHD_add_response_header", (void **)&mhd.add_response_header },
		{ "MHD_create_response_from_buffer", (void **)&mhd.create_response_from_buffer },
		{ "MHD_create_response_from_buffer_with_free_callback_cls",
		  (void **)&mhd.create_response_from_buffer_with_free_callback_cls },
		{ "MHD_destroy_response", (void **)&mhd.destroy_response },
		{ "MHD_lookup_connection_value", (void **)&mhd.lookup_connection_value },
		{ "MHD_queue_response", (void **)&mhd.queue_response },
		{ "MHD_resume_connection", (void **)&mhd.resume_connection },
		{ "MHD_start_daemon", (void **)&mhd.start_daemon },
		{ "MHD_stop_daemon", (void **)&mhd.stop_daemon },
		{ "MHD_suspend_connection", (void **)&mhd.suspend_connection },
	};
	void *lib;

	pthread_mutex_lock(&once);
	if (rc == 1) {
		lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
		rc = lib ? 0 : -ELIBACC;
		for (size_t k = 0; !rc && k < ARRAY_SIZE(fns); k++)
			if (!(*fns[k].fn = dlsym(lib, fns[k].name)))
				rc = -ELIBACC;
	}
	pthread_mutex_unlock(&once);
	return rc;
}

#define MHD_add_connection (*mhd.add_connection)
#define MHD_add_response_header (*mhd.add_response_header)
#define MHD_create_response_from_buffer (*mhd.create_response_from_buffer)
#define MHD_create_response_from_buffer_with_free_callback_cls \
	(*mhd.create_response_from_buffer_with_free_callback_cls)
#define MHD_destroy_response (*mhd.destroy_response)
#define MHD_lookup_connection_value (*mhd.lookup_connection_value)
#define MHD_queue_response (*mhd.queue_response)
#define MHD_resume_connection (*mhd.resume_connection)
#define MHD_start_daemon (*mhd.start_daemon)
#define MHD_stop_daemon (*mhd.stop_daemon)
#define MHD_suspend_connection (*mhd.suspend_connection)

#define HEADER_TIMEOUT_S 5.0 /* accept -> end of the request header (the gate) */
#define CONN_TIMEOUT_S 10 /* a request no longer read or written for this long is closed */
#define CONN_MEMORY (64 * 1024) /* per-connection buffer: request line + headers */
#define CONN_LIMIT 1024 /* requests being answered, at most */
#define PENDING_LIMIT 16384 /* connections held by the gate, at most */
#define FD_RESERVE 128 /* descriptors kept for /proc, BPF, epoll, the archive */

/* Per-request state of a /metrics scrape, suspended until its collection is done. */
struct req {
	struct MHD_Connection *conn;
	struct ptk_prom_body *b; /* set by the collector, then the connection is resumed */
	struct req *next;
};

struct ptk_prom_http {
	struct MHD_Daemon *d;
	struct ptk_httpgate *gate; /* NULL once quiesced (under lock) */
	struct ptk_httpgate_stats gate_final; /* its counters when it stopped */
	int lsock; /* the listening socket, closed at stop */
	struct sockaddr_storage ss; /* bound (the port filled in) */
	bool v6;
	u64 refused; /* by libmicrohttpd: limits reached (atomic) */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct req *pending; /* scrapes waiting for the next collection */
	struct req *batch; /* taken by the collector, answered next */
	bool quit;
};

struct ptk_prom_body *ptk_prom_body_new(void)
{
	struct ptk_prom_body *b = xcalloc(1, sizeof(*b));

	b->refs = 1;
	ptk_prom_init(&b->out[PTK_PROM_TEXT], PTK_PROM_TEXT);
	ptk_prom_init(&b->out[PTK_PROM_OPENMETRICS], PTK_PROM_OPENMETRICS);
	return b;
}

void ptk_prom_body_unref(struct ptk_prom_body *b)
{
	if (b && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		ptk_prom_free(&b->out[0]);
		ptk_prom_free(&b->out[1]);
		free(b);
	}
}

static void response_free(void *cls)
{
	ptk_prom_body_unref(cls);
}

/*
 * Every answer closes its connection: a connection is held by libmicrohttpd only while its
 * request is answered, never idle between requests (keep-alive would let idle connections
 * fill its limit; the gate holds the new ones, and a scrape every few seconds gains nothing
 * from reuse).
 */
static void set_headers(struct MHD_Response *rsp, const char *type)
{
	MHD_add_response_header(rsp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(rsp, MHD_HTTP_HEADER_CONNECTION, "close");
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type,
			     const char *text, const char *allow)
{
	struct MHD_Response *rsp =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result r;

	if (!rsp)
		return MHD_NO;
	set_headers(rsp, type);
	if (allow)
		MHD_add_response_header(rsp, MHD_HTTP_HEADER_ALLOW, allow);
	r = MHD_queue_response(conn, status, rsp);
	MHD_destroy_response(rsp);
	return r;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned status, const char *text,
				  const char *allow)
{
	return reply(conn, status, "text/plain; charset=utf-8", text, allow);
}

static const char landing[] =
	"<html><head><title>ptk exporter</title></head><body><h1>ptk exporter</h1>"
	"<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

/* The second call for a scrape: its body is rendered, answer in the format it asks for. */
static enum MHD_Result answer(struct MHD_Connection *conn, struct req *rq)
{
	enum ptk_prom_fmt fmt = ptk_prom_negotiate(
		MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	struct ptk_prom_body *b = rq->b;
	struct MHD_Response *rsp;
	enum MHD_Result r;

	rq->b = NULL; /* the response owns the reference now */
	if (!b)
		return MHD_NO;
	rsp = MHD_create_response_from_buffer_with_free_callback_cls(
		b->out[fmt].len, b->out[fmt].buf, response_free, b);
	if (!rsp) {
		ptk_prom_body_unref(b);
		return MHD_NO;
	}
	set_headers(rsp, ptk_prom_content_type(fmt));
	r = MHD_queue_response(conn, MHD_HTTP_OK, rsp);
	MHD_destroy_response(rsp);
	return r;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct ptk_prom_http *h = cls;
	struct req *rq = *con_cls;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "405 method not allowed\n",
				  "GET, HEAD");
	if (*upload_size) /* a GET with a body: not ours to read */
		return reply_text(conn, MHD_HTTP_BAD_REQUEST, "400 bad request\n", NULL);
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK, "text/html; charset=utf-8", landing, NULL);
	if (strcmp(url, "/metrics"))
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "404 not found\n", NULL);
	if (rq)
		return answer(conn, rq);
	/* first call: wait (suspended, no thread held) for the next collection */
	rq = xcalloc(1, sizeof(*rq));
	rq->conn = conn;
	*con_cls = rq;
	pthread_mutex_lock(&h->lock);
	if (h->quit) {
		pthread_mutex_unlock(&h->lock);
		return reply_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "503 shutting down\n", NULL);
	}
	rq->next = h->pending;
	h->pending = rq;
	MHD_suspend_connection(conn); /* before the collector can see rq: under the lock */
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	return MHD_YES;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct req *rq = *con_cls;

	if (rq) {
		ptk_prom_body_unref(rq->b);
		free(rq);
		*con_cls = NULL;
	}
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	/* libmicrohttpd's own messages (a client closing early, a request too large) are the
	 * client's business, not the operator's: dropped */
}

/* "HOST:PORT", ":PORT" (every IPv4 interface), "[V6]:PORT". 0 or -EINVAL. */
static int parse_listen(const char *s, struct sockaddr_storage *ss, bool *v6)
{
	char host[256];
	const char *colon = strrchr(s, ':');
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV },
			*ai = NULL;
	int port;

	if (!colon || ptk_parse_int(colon + 1, &port) || port < 0 || port > 65535)
		return -EINVAL;
	size_t n = colon - s;
	if (n && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (!n)
		hints.ai_family = AF_INET;
	if (getaddrinfo(n ? host : NULL, colon + 1, &hints, &ai) || !ai)
		return -EINVAL;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*v6 = ai->ai_family == AF_INET6;
	freeaddrinfo(ai);
	return 0;
}

/* The listening socket on ss (its port filled in when 0): non-blocking, close-on-exec. */
static int listen_on(struct sockaddr_storage *ss, bool v6)
{
	socklen_t len = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1, e;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (v6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)ss, len) || listen(fd, SOMAXCONN) ||
	    getsockname(fd, (struct sockaddr *)ss, &len)) {
		e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

/* The gate's hand-off: a connection whose header is complete, to libmicrohttpd. */
static void to_mhd(void *cls, int fd, const struct sockaddr *addr, socklen_t len)
{
	struct ptk_prom_http *h = cls;

	if (MHD_add_connection(h->d, fd, addr, len) != MHD_YES) /* it closed fd */
		__atomic_add_fetch(&h->refused, 1, __ATOMIC_RELAXED);
}

/*
 * The limits, from the descriptors the process may open (RLIMIT_NOFILE): FD_RESERVE kept
 * for the collectors; a quarter of the rest, at most CONN_LIMIT, for requests being
 * answered (half of them from one address); the rest, at most PENDING_LIMIT, for the gate
 * (half of them from one address).
 */
static void size_limits(unsigned *conns, unsigned *conns_ip, struct ptk_httpgate_opts *g)
{
	struct rlimit rl = { 1024, 1024 };
	long fds, avail;

	getrlimit(RLIMIT_NOFILE, &rl);
	fds = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1 << 20 ? 1 << 20 : (long)rl.rlim_cur;
	avail = MAX(fds - FD_RESERVE, 64);
	*conns = MIN(avail / 4, CONN_LIMIT);
	*conns_ip = MAX(*conns / 2, 1);
	g->max_pending = MIN(avail - *conns, PENDING_LIMIT);
	g->max_pending_per_ip = MAX(g->max_pending / 2, 1);
	g->header_timeout_s = HEADER_TIMEOUT_S;
	g->header_max = CONN_MEMORY;
}

int ptk_prom_http_start(const char *listen, int nthreads, struct ptk_prom_http **out)
{
	struct ptk_prom_http *h = xcalloc(1, sizeof(*h));
	struct ptk_httpgate_opts go;
	unsigned conns, conns_ip;
	int r;

	if ((r = mhd_open()))
		return r;

	if (parse_listen(listen, &h->ss, &h->v6)) {
		free(h);
		return -EINVAL;
	}
	if ((h->lsock = listen_on(&h->ss, h->v6)) < 0) {
		r = h->lsock;
		free(h);
		return r;
	}
	size_limits(&conns, &conns_ip, &go);
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	/* no listening socket of its own: the gate adds the connections */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
			 MHD_USE_NO_LISTEN_SOCKET | MHD_ALLOW_SUSPEND_RESUME;
	errno = 0;
	/* clang-format off */
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h,
				MHD_OPTION_THREAD_POOL_SIZE, (unsigned)nthreads,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
				MHD_OPTION_CONNECTION_LIMIT, conns,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, conns_ip,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				MHD_OPTION_END);
	/* clang-format on */
	r = !h->d ? -(errno ? errno : ENOMEM) :
		    ptk_httpgate_start(h->lsock, &go, to_mhd, h, &h->gate);
	if (r) {
		if (h->d)
			MHD_stop_daemon(h->d);
		close(h->lsock);
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->wake);
		free(h);
		return r;
	}
	*out = h;
	return 0;
}

void ptk_prom_http_url(const struct ptk_prom_http *h, char *buf, size_t size)
{
	char addr[INET6_ADDRSTRLEN] = "?";
	unsigned port;

	if (h->v6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&h->ss;
		inet_ntop(AF_INET6, &a->sin6_addr, addr, sizeof(addr));
		port = ntohs(a->sin6_port);
	} else {
		const struct sockaddr_in *a = (const struct sockaddr_in *)&h->ss;
		inet_ntop(AF_INET, &a->sin_addr, addr, sizeof(addr));
		port = ntohs(a->sin_port);
	}
	snprintf(buf, size, "http://%s%s%s:%u/metrics", h->v6 ? "[" : "", addr, h->v6 ? "]" : "",
		 port);
}

int ptk_prom_http_wait(struct ptk_prom_http *h)
{
	int n = 0;

	pthread_mutex_lock(&h->lock);
	while (!h->pending && !h->quit)
		pthread_cond_wait(&h->wake, &h->lock);
	h->batch = h->pending;
	h->pending = NULL;
	pthread_mutex_unlock(&h->lock);
	for (struct req *r = h->batch; r; r = r->next)
		n++;
	return n;
}

void ptk_prom_http_answer(struct ptk_prom_http *h, struct ptk_prom_body *b)
{
	while (h->batch) {
		struct req *r = h->batch;
		h->batch = r->next; /* r may be freed once resumed */
		__atomic_add_fetch(&b->refs, 1, __ATOMIC_ACQ_REL);
		r->b = b;
		MHD_resume_connection(r->conn);
	}
}

void ptk_prom_http_stats(struct ptk_prom_http *h, struct ptk_prom_http_stats *st)
{
	struct ptk_httpgate_stats g = { 0 };

	pthread_mutex_lock(&h->lock); /* the gate is stopped under it at quiesce */
	if (h->gate)
		ptk_httpgate_stats(h->gate, &g);
	else
		g = h->gate_final;
	pthread_mutex_unlock(&h->lock);
	st->header_timeout = g.timed_out;
	st->evicted = g.evicted;
	st->client_closed = g.closed;
	st->bad_request = g.rejected;
	st->refused = __atomic_load_n(&h->refused, __ATOMIC_RELAXED);
}

void ptk_prom_http_quiesce(struct ptk_prom_http *h)
{
	struct ptk_httpgate *g = h->gate;

	if (g) /* no new connection reaches libmicrohttpd */
		ptk_httpgate_stats(g, &h->gate_final);
	pthread_mutex_lock(&h->lock);
	h->gate = NULL;
	pthread_mutex_unlock(&h->lock);
	ptk_httpgate_stop(g);
	pthread_mutex_lock(&h->lock);
	h->quit = true;
	pthread_cond_broadcast(&h->wake);
	pthread_mutex_unlock(&h->lock);
}

void ptk_prom_http_stop(struct ptk_prom_http *h)
{
	if (!h)
		return;
	ptk_httpgate_stop(h->gate);
	/* it must not hold suspended connections: the collector answered them */
	MHD_stop_daemon(h->d);
	close(h->lsock);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->wake);
	free(h);
}
