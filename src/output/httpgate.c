// SPDX-License-Identifier: GPL-2.0
/* Accept, hold until the request header is complete, hand on: see httpgate.h. */
#include "output/httpgate.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define IP_BUCKETS 1024
#define ACCEPT_BATCH 64 /* accepts per wakeup, so held connections are served meanwhile */
#define PAUSE_NS 100000000ull /* out of descriptors with nothing to close: accept again later */

/* Connections held per address. */
struct ipent {
	struct ipent *next;
	int n;
	unsigned char klen;
	unsigned char key[16];
};

/* One connection held, in the FIFO of accept times (= deadlines: one timeout for all). */
struct pend {
	struct pend *prev, *next;
	struct ipent *ip;
	u64 deadline;
	size_t scanned; /* bytes already searched for the end of the header */
	int fd;
	socklen_t alen;
	struct sockaddr_storage addr;
};

struct ptk_httpgate {
	struct ptk_httpgate_opts o;
	ptk_httpgate_fn fn;
	void *cls;
	int lsock, ep, evfd;
	pthread_t thr;
	struct pend *head, *tail;
	int npend;
	u64 pause_until; /* 0: accepting */
	struct ipent *ipt[IP_BUCKETS];
	char *buf; /* [header_max] */
	struct ptk_httpgate_stats st; /* written by the thread, read atomically */
	int quit; /* atomic */
};

static void stat_inc(u64 *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

/* The address's bytes: 4 (IPv4) or 16 (IPv6); other families share one key. */
static unsigned addr_key(const struct sockaddr_storage *ss, unsigned char *key)
{
	if (ss->ss_family == AF_INET) {
		memcpy(key, &((const struct sockaddr_in *)ss)->sin_addr, 4);
		return 4;
	}
	if (ss->ss_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
		return 16;
	}
	return 0;
}

static unsigned key_hash(const unsigned char *key, unsigned len)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (unsigned i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619u;
	return h % IP_BUCKETS;
}

/* The entry of ss's address, created with n = 0 when it has none. */
static struct ipent *ip_get(struct ptk_httpgate *g, const struct sockaddr_storage *ss)
{
	unsigned char key[16];
	unsigned len = addr_key(ss, key), b = key_hash(key, len);
	struct ipent *e;

	for (e = g->ipt[b]; e; e = e->next)
		if (e->klen == len && !memcmp(e->key, key, len))
			return e;
	e = xcalloc(1, sizeof(*e));
	e->klen = len;
	memcpy(e->key, key, len);
	e->next = g->ipt[b];
	g->ipt[b] = e;
	return e;
}

static void ip_put(struct ptk_httpgate *g, struct ipent *e)
{
	if (--e->n > 0)
		return;
	struct ipent **pp = &g->ipt[key_hash(e->key, e->klen)];
	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	free(e);
}

/* Take p out of the gate (epoll, FIFO, its address's count) and free it; returns its fd. */
static int unlink_pend(struct ptk_httpgate *g, struct pend *p)
{
	int fd = p->fd;

	epoll_ctl(g->ep, EPOLL_CTL_DEL, fd, NULL);
	if (p->prev)
		p->prev->next = p->next;
	else
		g->head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		g->tail = p->prev;
	g->npend--;
	ip_put(g, p->ip);
	free(p);
	return fd;
}

static void close_pend(struct ptk_httpgate *g, struct pend *p, u64 *why)
{
	stat_inc(why); /* first: a client that sees the close sees it counted */
	close(unlink_pend(g, p));
}

static void hand_on(struct ptk_httpgate *g, struct pend *p)
{
	struct sockaddr_storage ss = p->addr;
	socklen_t len = p->alen;
	int fd = unlink_pend(g, p);

	stat_inc(&g->st.handed);
	g->fn(g->cls, fd, (struct sockaddr *)&ss, len);
}

/* The oldest connection held from e's address (it holds at least one). */
static struct pend *oldest_of(struct ptk_httpgate *g, const struct ipent *e)
{
	struct pend *p = g->head;

	while (p->ip != e)
		p = p->next;
	return p;
}

/* An RFC 9110 token character (a method's). */
static bool tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/*
 * Does the header in buf[0..n) begin with a request line, "METHOD TARGET HTTP/..." (RFC 9112
 * 3), and hold no NUL? libmicrohttpd waits for its timeout on some that do not (a leading
 * NUL, leading empty lines) instead of answering: they are answered 400 here.
 */
static bool request_line_ok(const char *buf, size_t n)
{
	size_t i = 0, t;

	if (memchr(buf, '\0', n))
		return false;
	while (i < n && tchar(buf[i]))
		i++;
	if (i == 0 || i >= n || buf[i] != ' ')
		return false;
	for (t = ++i; i < n && (unsigned char)buf[i] > ' ' && buf[i] != 0x7f; i++)
		;
	if (i == t || i >= n || buf[i] != ' ')
		return false;
	return n - i > 6 && !memcmp(buf + i + 1, "HTTP/", 5);
}

/* Answer 400 and close (the answer fits in an empty socket buffer: not waited for). */
static void reject(struct ptk_httpgate *g, struct pend *p)
{
	static const char rsp[] = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n"
				  "Content-Type: text/plain; charset=utf-8\r\n"
				  "Content-Length: 16\r\n\r\n400 bad request\n";
	ssize_t w;

	stat_inc(&g->st.rejected); /* first: a client that sees the answer sees it counted */
	w = send(p->fd, rsp, sizeof(rsp) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)w; /* a client gone already gets nothing */
	close(unlink_pend(g, p));
}

static void on_data(struct ptk_httpgate *g, struct pend *p, unsigned events);

static void admit(struct ptk_httpgate *g, int fd, const struct sockaddr_storage *ss, socklen_t len,
		  u64 now)
{
	struct ipent *e = ip_get(g, ss);
	struct pend *p;

	/* counted first, so the entry outlives evicting its own oldest */
	e->n++;
	if (e->n > g->o.max_pending_per_ip)
		close_pend(g, oldest_of(g, e), &g->st.evicted);
	else if (g->npend >= g->o.max_pending)
		close_pend(g, g->head, &g->st.evicted);
	p = xcalloc(1, sizeof(*p));
	p->fd = fd;
	p->ip = e;
	p->addr = *ss;
	p->alen = len;
	p->deadline = now + (u64)(g->o.header_timeout_s * 1e9);
	p->prev = g->tail;
	if (g->tail)
		g->tail->next = p;
	else
		g->head = p;
	g->tail = p;
	g->npend++;
	stat_inc(&g->st.accepted);
	/* edge-triggered: MSG_PEEK leaves the bytes, so readiness is news of more bytes */
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = p };
	if (epoll_ctl(g->ep, EPOLL_CTL_ADD, fd, &ev)) {
		close_pend(g, p, &g->st.closed);
		return;
	}
	/* a client that sent its request with the connection (most do, and under a flood of
	 * connections it is there by the time of accept) is handed on before it can be evicted */
	on_data(g, p, 0);
}

static void set_accepting(struct ptk_httpgate *g, bool on)
{
	struct epoll_event ev = { .events = on ? EPOLLIN : 0, .data.ptr = NULL };

	epoll_ctl(g->ep, EPOLL_CTL_MOD, g->lsock, &ev);
}

static void on_listen(struct ptk_httpgate *g, u64 now)
{
	for (int i = 0; i < ACCEPT_BATCH; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd = accept4(g->lsock, (struct sockaddr *)&ss, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0) {
			admit(g, fd, &ss, len, now);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			if (g->head) { /* a descriptor for the newer one */
				close_pend(g, g->head, &g->st.evicted);
				continue;
			}
			g->pause_until = now + PAUSE_NS;
			set_accepting(g, false);
		}
		return; /* EAGAIN, or nothing to do about it */
	}
}

/* The end of a header ("\n\r\n" or "\n\n": CRLF or bare LF lines) in buf[0..n), searched
 * from where the last search stopped. */
static bool header_done(const char *buf, size_t n, size_t from)
{
	from = from > 2 ? from - 2 : 0;
	for (const char *q = buf + from; (q = memchr(q, '\n', buf + n - q)); q++) {
		if (q + 1 < buf + n && q[1] == '\n')
			return true;
		if (q + 2 < buf + n && q[1] == '\r' && q[2] == '\n')
			return true;
	}
	return false;
}

static void on_data(struct ptk_httpgate *g, struct pend *p, unsigned events)
{
	ssize_t n = recv(p->fd, g->buf, g->o.header_max, MSG_PEEK | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR) &&
	    !(events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
		return;
	if (n <= 0) { /* closed before a byte, or an error */
		close_pend(g, p, &g->st.closed);
		return;
	}
	if ((size_t)n >= g->o.header_max || header_done(g->buf, n, p->scanned)) {
		if (request_line_ok(g->buf, n))
			hand_on(g, p);
		else
			reject(g, p);
		return;
	}
	p->scanned = n;
	if (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) /* the header can no longer end */
		close_pend(g, p, &g->st.closed);
}

static void *gate_main(void *arg)
{
	struct ptk_httpgate *g = arg;
	struct epoll_event evs[64];

	while (!__atomic_load_n(&g->quit, __ATOMIC_ACQUIRE)) {
		u64 now = ptk_now_ns();
		while (g->head && g->head->deadline <= now)
			close_pend(g, g->head, &g->st.timed_out);
		if (g->pause_until && g->pause_until <= now) {
			g->pause_until = 0;
			set_accepting(g, true);
		}
		u64 next = g->head ? g->head->deadline : 0;
		if (g->pause_until && (!next || g->pause_until < next))
			next = g->pause_until;
		int ms = next ? (int)((next - now) / 1000000 + 1) : -1;
		int n = epoll_wait(g->ep, evs, 64, ms);
		bool listen = false;
		/* the connections held first, then the new ones: accepting may evict a connection
		 * that has an event later in evs */
		for (int i = 0; i < n; i++) {
			if (evs[i].data.ptr == NULL)
				listen = true;
			else if (evs[i].data.ptr != g) /* g: the eventfd, quit */
				on_data(g, evs[i].data.ptr, evs[i].events);
		}
		if (listen)
			on_listen(g, ptk_now_ns());
	}
	while (g->head)
		close_pend(g, g->head, &g->st.closed);
	return NULL;
}

int ptk_httpgate_start(int lsock, const struct ptk_httpgate_opts *o, ptk_httpgate_fn fn, void *cls,
		       struct ptk_httpgate **out)
{
	struct ptk_httpgate *g = xcalloc(1, sizeof(*g));
	struct epoll_event ev = { .events = EPOLLIN };
	int r;

	g->o = *o;
	if (g->o.max_pending < 1)
		g->o.max_pending = 1;
	if (g->o.max_pending_per_ip < 1)
		g->o.max_pending_per_ip = 1;
	if (g->o.header_max < 16)
		g->o.header_max = 16;
	g->fn = fn;
	g->cls = cls;
	g->lsock = lsock;
	g->buf = xmalloc(g->o.header_max);
	g->ep = epoll_create1(EPOLL_CLOEXEC);
	g->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (g->ep < 0 || g->evfd < 0)
		goto out_errno;
	ev.data.ptr = NULL;
	if (epoll_ctl(g->ep, EPOLL_CTL_ADD, lsock, &ev))
		goto out_errno;
	ev.data.ptr = g;
	if (epoll_ctl(g->ep, EPOLL_CTL_ADD, g->evfd, &ev))
		goto out_errno;
	if ((r = pthread_create(&g->thr, NULL, gate_main, g))) {
		errno = r;
		goto out_errno;
	}
	*out = g;
	return 0;
out_errno:
	r = -errno;
	if (g->ep >= 0)
		close(g->ep);
	if (g->evfd >= 0)
		close(g->evfd);
	free(g->buf);
	free(g);
	return r;
}

void ptk_httpgate_stats(struct ptk_httpgate *g, struct ptk_httpgate_stats *st)
{
	st->accepted = __atomic_load_n(&g->st.accepted, __ATOMIC_RELAXED);
	st->handed = __atomic_load_n(&g->st.handed, __ATOMIC_RELAXED);
	st->timed_out = __atomic_load_n(&g->st.timed_out, __ATOMIC_RELAXED);
	st->evicted = __atomic_load_n(&g->st.evicted, __ATOMIC_RELAXED);
	st->closed = __atomic_load_n(&g->st.closed, __ATOMIC_RELAXED);
	st->rejected = __atomic_load_n(&g->st.rejected, __ATOMIC_RELAXED);
}

void ptk_httpgate_stop(struct ptk_httpgate *g)
{
	u64 one = 1;

	if (!g)
		return;
	__atomic_store_n(&g->quit, 1, __ATOMIC_RELEASE);
	if (write(g->evfd, &one, sizeof(one)) < 0) {
		/* a full counter still wakes the thread */
	}
	pthread_join(g->thr, NULL);
	close(g->ep);
	close(g->evfd);
	free(g->buf);
	free(g);
}
