// SPDX-License-Identifier: GPL-2.0
/* /proc/net/dev, /proc/net/snmp, /proc/net/netstat, /sys/class/net/IF/speed. */
#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "source/procfs/procfs.h"

/* keys: the header's direction and column ("Receive" "bytes" -> receive_bytes), as
 * node_exporter names node_network_<key>_total */
#define ND(e, k, n, u)                                                                            \
	[PTK_ND_##e] = {                                                                          \
		.key = k, .name = n, .off = offsetof(struct ptk_netdev, f[PTK_ND_##e]), .unit = u \
	}
const struct ptk_field_desc ptk_netdev_fields[PTK_ND_NFIELDS] = {
	ND(RX_BYTES, "receive_bytes", "rx_bytes", "bytes"),
	ND(RX_PACKETS, "receive_packets", "rx_packets", ""),
	ND(RX_ERRS, "receive_errs", "rx_errs", ""),
	ND(RX_DROP, "receive_drop", "rx_drop", ""),
	ND(RX_FIFO, "receive_fifo", "rx_fifo", ""),
	ND(RX_FRAME, "receive_frame", "rx_frame", ""),
	ND(RX_COMPRESSED, "receive_compressed", "rx_compressed", ""),
	ND(RX_MULTICAST, "receive_multicast", "rx_multicast", ""),
	ND(TX_BYTES, "transmit_bytes", "tx_bytes", "bytes"),
	ND(TX_PACKETS, "transmit_packets", "tx_packets", ""),
	ND(TX_ERRS, "transmit_errs", "tx_errs", ""),
	ND(TX_DROP, "transmit_drop", "tx_drop", ""),
	ND(TX_FIFO, "transmit_fifo", "tx_fifo", ""),
	ND(TX_COLLS, "transmit_colls", "tx_colls", ""),
	ND(TX_CARRIER, "transmit_carrier", "tx_carrier", ""),
	ND(TX_COMPRESSED, "transmit_compressed", "tx_compressed", ""),
};
#undef ND

/* RFC 4022 (TCP-MIB) counters of net/snmp; no offset: a ptk_kvs is looked up by key */
#define SN(e, k, n, h) [PTK_SN_##e] = { .key = k, .name = n, .unit = "", .help = h }
const struct ptk_field_desc ptk_snmp_fields[PTK_SN_NFIELDS] = {
	SN(TCP_OUT_SEGS, "Tcp.OutSegs", "tcp_out_segs",
	   "Statistic TcpOutSegs (/proc/net/snmp Tcp OutSegs): segments sent, retransmissions "
	   "excluded."),
	SN(TCP_RETRANS_SEGS, "Tcp.RetransSegs", "tcp_retrans_segs",
	   "Statistic TcpRetransSegs (/proc/net/snmp Tcp RetransSegs): segments retransmitted."),
	SN(TCP_IN_SEGS, "Tcp.InSegs", "tcp_in_segs",
	   "Statistic TcpInSegs (/proc/net/snmp Tcp InSegs): segments received."),
	SN(TCP_IN_ERRS, "Tcp.InErrs", "tcp_in_errs",
	   "Statistic TcpInErrs (/proc/net/snmp Tcp InErrs): segments received in error."),
};
#undef SN

int ptk_netdev_parse(const char *text, struct ptk_netdevs *nd)
{
	const char *p = text;

	nd->n = 0;
	while (*p) {
		const char *eol = strchr(p, '\n'), *colon = strchr(p, ':');
		if (!colon || (eol && colon > eol) || (strchr(p, 0x7c) && strchr(p, 0x7c) < colon))
			goto next;
		const char *s = p;
		while (*s == ' ')
			s++;
		/* an interface name has no white space, '/' or ':' (dev_valid_name,
		 * net/core/dev.c): a line with another is not an interface's */
		if (colon - s <= 0 || colon - s >= (long)sizeof(nd->d[0].name) ||
		    memchr(s, ' ', colon - s) || memchr(s, '\t', colon - s) ||
		    memchr(s, '/', colon - s))
			goto next;
		if (nd->n == nd->cap) {
			nd->cap = nd->cap ? nd->cap * 2 : 8;
			nd->d = xrealloc(nd->d, nd->cap * sizeof(*nd->d));
		}
		struct ptk_netdev *d = &nd->d[nd->n];
		memset(d, 0, sizeof(*d));
		memcpy(d->name, s, colon - s);
		const char *q = colon + 1;
		int i;
		for (i = 0; i < PTK_ND_NFIELDS; i++) {
			char *end;
			while (*q == ' ')
				q++;
			d->f[i] = ptk_strtou64(q, (const char **)&end);
			if (end == q)
				break;
			q = end;
		}
		if (i == PTK_ND_NFIELDS)
			nd->n++;
next:
		if (!eol)
			break;
		p = eol + 1;
	}
	return 0;
}

int ptk_netdev_read(const struct ptk_src *src, struct ptk_netdevs *nd)
{
	static __thread struct ptk_buf b;
	ssize_t n = ptk_src_read_text_buf(src, PTK_PROC, "net/dev", &b);

	return n < 0 ? n : ptk_netdev_parse(b.p, nd);
}

void ptk_netdev_free(struct ptk_netdevs *nd)
{
	free(nd->d);
	memset(nd, 0, sizeof(*nd));
}

const struct ptk_netdev *ptk_netdev_find(const struct ptk_netdevs *nd, const char *name)
{
	for (int i = 0; i < nd->n; i++)
		if (!strcmp(nd->d[i].name, name))
			return &nd->d[i];
	return NULL;
}

static void kv_add(struct ptk_kvs *kvs, const char *proto, size_t plen, const char *name,
		   size_t nlen, s64 v)
{
	if (kvs->n == kvs->cap) {
		kvs->cap = kvs->cap ? kvs->cap * 2 : 128;
		kvs->kv = xrealloc(kvs->kv, kvs->cap * sizeof(*kvs->kv));
	}
	struct ptk_kv *kv = &kvs->kv[kvs->n++];
	/* "proto.name", truncated to the key size (memcpy: ~300 keys a read) */
	plen = MIN(plen, sizeof(kv->key) - 2);
	nlen = MIN(nlen, sizeof(kv->key) - 2 - plen);
	memcpy(kv->key, proto, plen);
	kv->key[plen] = '.';
	memcpy(kv->key + plen + 1, name, nlen);
	kv->key[plen + 1 + nlen] = '\0';
	kv->val = v;
}

/* The next token of [p, end) (blanks skipped), or NULL at end. */
static const char *tok_in(const char *p, const char *end, const char **tok, size_t *len)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end)
		return NULL;
	*tok = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	*len = p - *tok;
	return p;
}

/* A signed decimal token [t, t + len) into *v: true when it is one (s64 range). */
static bool tok_s64(const char *t, size_t len, s64 *v)
{
	bool neg = len && *t == '-';
	const char *e;
	u64 u;

	if (neg)
		t++, len--;
	u = ptk_strtou64(t, &e);
	if (!len || e != t + len || u > (neg ? (u64)INT64_MAX + 1 : (u64)INT64_MAX))
		return false;
	*v = neg ? (s64)(0 - u) : (s64)u;
	return true;
}

/*
 * Lines come in pairs: "Tcp: RtoAlgorithm RtoMin ..." then "Tcp: 1 200 ..."
 * (net/ipv4/proc.c). Names and values are paired within their own lines; a value that is
 * not a number leaves its key out (unknown), never 0.
 */
int ptk_netsnmp_parse(const char *text, struct ptk_kvs *kvs)
{
	const char *p = text;

	while (*p) {
		const char *eol1 = strchr(p, '\n');
		if (!eol1)
			break;
		const char *l2 = eol1 + 1, *eol2 = strchr(l2, '\n');
		const char *c1 = memchr(p, ':', eol1 - p), *c2 = strchr(l2, ':');
		if (!eol2)
			eol2 = l2 + strlen(l2);
		if (!c1 || !c2 || c2 > eol2 || c1 - p != c2 - l2 || c1 == p ||
		    strncmp(p, l2, c1 - p) || memchr(p, ' ', c1 - p) || memchr(p, '\t', c1 - p))
			return -EINVAL;
		const char *n = c1 + 1, *v = c2 + 1, *nt, *vt;
		size_t nl, vl;
		while ((n = tok_in(n, eol1, &nt, &nl)) && (v = tok_in(v, eol2, &vt, &vl))) {
			s64 x;
			if (tok_s64(vt, vl, &x))
				kv_add(kvs, p, c1 - p, nt, nl, x);
		}
		if (!*eol2)
			break;
		p = eol2 + 1;
	}
	return 0;
}

int ptk_netsnmp_read(const struct ptk_src *src, struct ptk_kvs *kvs)
{
	static __thread struct ptk_buf b;
	int ok = 0, err = 0;
	static const char *const files[] = { "net/snmp", "net/netstat" };

	kvs->n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		ssize_t n = ptk_src_read_text_buf(src, PTK_PROC, files[i], &b);
		if (n < 0) {
			err = n;
			continue;
		}
		if (ptk_netsnmp_parse(b.p, kvs) == 0)
			ok++;
	}
	return ok ? 0 : (err ? err : -EINVAL);
}

bool ptk_kvs_get(const struct ptk_kvs *kvs, const char *key, s64 *val)
{
	for (int i = 0; i < kvs->n; i++) {
		if (!strcmp(kvs->kv[i].key, key)) {
			*val = kvs->kv[i].val;
			return true;
		}
	}
	return false;
}

void ptk_kvs_free(struct ptk_kvs *kvs)
{
	free(kvs->kv);
	memset(kvs, 0, sizeof(*kvs));
}

int ptk_net_speed_read(const struct ptk_src *src, const char *ifname, long *mbps)
{
	char rel[128], buf[64];
	ssize_t n;

	snprintf(rel, sizeof(rel), "class/net/%s/speed", ifname);
	n = ptk_src_read(src, PTK_SYS, rel, buf, sizeof(buf));
	if (n < 0)
		return n;
	*mbps = strtol(buf, NULL, 10);
	return *mbps > 0 ? 0 : -EINVAL;
}
