// SPDX-License-Identifier: GPL-2.0
/*
 * The extended counters of the snapshot: files that sar's reports read besides the classic
 * ones, each into one list of named values (struct ptk_xkvs), a key prefix per file:
 *   snmp6.NAME                      /proc/net/snmp6 (Ip6InReceives, Icmp6InMsgs, Udp6...)
 *   sockstat.PROTO.KEY              /proc/net/sockstat (sockets.used, TCP.inuse, TCP.tw...)
 *   sockstat6.PROTO.KEY             /proc/net/sockstat6 (TCP6.inuse, FRAG6.inuse...)
 *   fs.FILE.N                       /proc/sys/fs/{dentry-state,file-nr,inode-state} field N
 *   pty.nr                          /proc/sys/kernel/pty/nr
 *   tty.LINE.{tx,rx,fe,pe,brk,oe}   /proc/tty/driver/serial (the lines with counters)
 *   nfs.{call,retrans,read,write,access,getatt}      /proc/net/rpc/nfs
 *   nfsd.{scall,badcall,packet,udp,tcp,hit,miss,sread,swrite,saccess,sgetatt}
 *                                   /proc/net/rpc/nfsd
 *   fc.HOST.{rx_frames,tx_frames,rx_words,tx_words}  /sys/class/fc_host/HOST/statistics
 *   mhz.CPU                         /proc/cpuinfo "cpu MHz", in hundredths of MHz
 *   tis.CPU.FREQ                    /sys/devices/system/cpu/cpuN/cpufreq/stats/time_in_state
 *                                   (FREQ in kHz; the time in 10 ms units)
 *   usb.DEV.{bus,idvendor,idproduct,maxpower}; usbs.DEV.{manufacturer,product}.TEXT = 0
 *                                   /sys/bus/usb/devices/DEV (maxpower in mA, as sysfs)
 *   fsys.DEVICE.MOUNT.{blocks,bfree,bavail,files,ffree}  statvfs(2) of the mounted
 *                                   filesystems (bytes, inodes; live only)
 * Free text in a key (USB strings, devices, mount points) is escaped (ptk_xkey_escape), so
 * '.' always separates the parts and no key holds a blank.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "source/procfs/procfs.h"

/* ---- the list ------------------------------------------------------------------------- */

void ptk_xkvs_clear(struct ptk_xkvs *x)
{
	x->n = 0;
	x->len = 0;
}

void ptk_xkvs_add(struct ptk_xkvs *x, const char *key, s64 val)
{
	size_t kl = strlen(key) + 1;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 64;
		x->kv = xrealloc(x->kv, x->cap * sizeof(*x->kv));
	}
	if (x->len + kl > x->tcap) {
		x->tcap = MAX(2 * x->tcap, x->len + kl + 4096);
		x->txt = xrealloc(x->txt, x->tcap);
	}
	memcpy(x->txt + x->len, key, kl);
	x->kv[x->n].off = (u32)x->len;
	x->kv[x->n].val = val;
	x->n++;
	x->len += kl;
}

void ptk_xkvs_addf(struct ptk_xkvs *x, s64 val, const char *fmt, ...)
{
	char key[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	ptk_xkvs_add(x, key, val);
}

int ptk_xkvs_find(const struct ptk_xkvs *x, const char *key, int hint)
{
	if (hint >= 0 && hint < x->n && !strcmp(ptk_xkvs_key(x, hint), key))
		return hint;
	for (int i = 0; i < x->n; i++)
		if (!strcmp(ptk_xkvs_key(x, i), key))
			return i;
	return -1;
}

bool ptk_xkvs_get(const struct ptk_xkvs *x, const char *key, s64 *val)
{
	int i = ptk_xkvs_find(x, key, -1);

	if (i < 0)
		return false;
	*val = x->kv[i].val;
	return true;
}

bool ptk_xkvs_has_prefix(const struct ptk_xkvs *x, const char *prefix)
{
	size_t pl = strlen(prefix);

	for (int i = 0; i < x->n; i++)
		if (!strncmp(ptk_xkvs_key(x, i), prefix, pl))
			return true;
	return false;
}

void ptk_xkvs_copy(struct ptk_xkvs *dst, const struct ptk_xkvs *src)
{
	if (src->n > dst->cap) {
		dst->cap = src->n;
		dst->kv = xrealloc(dst->kv, dst->cap * sizeof(*dst->kv));
	}
	if (src->len > dst->tcap) {
		dst->tcap = src->len;
		dst->txt = xrealloc(dst->txt, dst->tcap);
	}
	if (src->n)
		memcpy(dst->kv, src->kv, src->n * sizeof(*dst->kv));
	if (src->len)
		memcpy(dst->txt, src->txt, src->len);
	dst->n = src->n;
	dst->len = src->len;
}

void ptk_xkvs_free(struct ptk_xkvs *x)
{
	free(x->kv);
	free(x->txt);
	memset(x, 0, sizeof(*x));
}

void ptk_xkey_escape(const char *s, char *out, size_t size)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < size; p++) {
		if (*p <= ' ' || *p == '.' || *p == '\\' || *p >= 0x7f)
			o += snprintf(out + o, size - o, "\\%03o", *p);
		else
			out[o++] = (char)*p;
	}
	out[o] = '\0';
}

void ptk_xkey_unescape(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len && s[i] && o + 1 < size; i++) {
		if (s[i] == '\\' && i + 3 < len + 1 && s[i + 1] >= '0' && s[i + 1] <= '3') {
			out[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
					  (s[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
}

/* ---- the readers ------------------------------------------------------------------------ */

/* The text of rel under the root in b. Bytes or -errno. */
static ssize_t slurp(const struct ptk_src *src, enum ptk_fs fs, const char *rel, struct ptk_buf *b)
{
	return ptk_src_read_buf(src, fs, rel, b);
}

/* The next whitespace-separated word of *p (up to eol) in w; false at the end of the line. */
static bool word(const char **p, const char *eol, char *w, size_t size)
{
	const char *s = *p;
	size_t n;

	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= eol)
		return false;
	n = strcspn(s, " \t\n");
	if (s + n > eol)
		n = eol - s;
	snprintf(w, size, "%.*s", (int)MIN(n, size - 1), s);
	*p = s + n;
	return true;
}

static bool is_num(const char *w)
{
	if (*w == '-')
		w++;
	if (!isdigit((unsigned char)*w))
		return false;
	while (isdigit((unsigned char)*w))
		w++;
	return !*w;
}

int ptk_kx_snmp6_parse(const char *text, struct ptk_xkvs *x)
{
	int n = 0;

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		char k[128], v[64];

		if (!eol)
			eol = p + strlen(p);
		if (word(&p, eol, k, sizeof(k)) && word(&p, eol, v, sizeof(v)) && is_num(v)) {
			ptk_xkvs_addf(x, strtoll(v, NULL, 10), "snmp6.%s", k);
			n++;
		}
		p = *eol ? eol + 1 : eol;
	}
	return n ? 0 : -EINVAL;
}

int ptk_kx_sockstat_parse(const char *text, const char *prefix, struct ptk_xkvs *x)
{
	int n = 0;

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		char proto[64], k[64], v[64];

		if (!eol)
			eol = p + strlen(p);
		if (word(&p, eol, proto, sizeof(proto)) && proto[strlen(proto) - 1] == ':') {
			proto[strlen(proto) - 1] = '\0';
			while (word(&p, eol, k, sizeof(k)) && word(&p, eol, v, sizeof(v)))
				if (is_num(v)) {
					ptk_xkvs_addf(x, strtoll(v, NULL, 10), "%s.%s.%s", prefix,
						      proto, k);
					n++;
				}
		}
		p = *eol ? eol + 1 : eol;
	}
	return n ? 0 : -EINVAL;
}

int ptk_kx_serial_parse(const char *text, struct ptk_xkvs *x)
{
	static const char *const f[] = { "tx", "rx", "fe", "pe", "brk", "oe" };

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		char line[1024];

		if (!eol)
			eol = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		/* "0: uart:16550A port:000003F8 irq:4 tx:14323 rx:32543 fe:1 ...": the counters
		 * the kernel prints only when non-zero (drivers/tty/serial/serial_core.c) */
		if (isdigit((unsigned char)line[0]) && strstr(line, " tx:")) {
			int ln = atoi(line);
			for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
				char tag[8], *q;
				snprintf(tag, sizeof(tag), " %s:", f[i]);
				q = strstr(line, tag);
				ptk_xkvs_addf(x, q ? strtoll(q + strlen(tag), NULL, 10) : 0,
					      "tty.%d.%s", ln, f[i]);
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* The n-th number (0: the first) after the word at the start of the line. */
static u64 nth(const char *line, int n)
{
	const char *p = line + strcspn(line, " ");

	for (int i = 0; *p; i++) {
		char *end;
		u64 v;
		while (*p == ' ')
			p++;
		v = strtoull(p, &end, 10);
		if (end == p)
			return 0;
		if (i == n)
			return v;
		p = end;
	}
	return 0;
}

/* The line of text that starts with key (and a blank), or NULL. */
static const char *line_of(const char *text, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if ((size_t)(eol - p) > kl && !strncmp(p, key, kl) && p[kl] == ' ') {
			snprintf(buf, size, "%.*s", (int)(eol - p), p);
			return buf;
		}
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}

/*
 * The counters of sar -n NFS from /proc/net/rpc/nfs (net/sunrpc/stats.c, fs/nfs): rpc calls
 * and retransmissions; reads, writes, accesses and getattrs of NFSv3 (proc3: a count of
 * procedures, then GETATTR is the 2nd, ACCESS the 5th, READ the 7th, WRITE the 8th) and NFSv4
 * (proc4: READ 2nd, WRITE 3rd, ACCESS 18th, GETATTR 19th), as sysstat's read_net_nfs.
 */
int ptk_kx_nfs_parse(const char *text, struct ptk_xkvs *x)
{
	char l3[4096], l4[4096], lr[512];
	const char *p3 = line_of(text, "proc3", l3, sizeof(l3));
	const char *p4 = line_of(text, "proc4", l4, sizeof(l4));
	const char *r = line_of(text, "rpc", lr, sizeof(lr));

	if (!r && !p3 && !p4)
		return -EINVAL;
	ptk_xkvs_add(x, "nfs.call", r ? (s64)nth(r, 0) : 0);
	ptk_xkvs_add(x, "nfs.retrans", r ? (s64)nth(r, 1) : 0);
	ptk_xkvs_add(x, "nfs.read", (s64)((p3 ? nth(p3, 7) : 0) + (p4 ? nth(p4, 2) : 0)));
	ptk_xkvs_add(x, "nfs.write", (s64)((p3 ? nth(p3, 8) : 0) + (p4 ? nth(p4, 3) : 0)));
	ptk_xkvs_add(x, "nfs.access", (s64)((p3 ? nth(p3, 5) : 0) + (p4 ? nth(p4, 18) : 0)));
	ptk_xkvs_add(x, "nfs.getatt", (s64)((p3 ? nth(p3, 2) : 0) + (p4 ? nth(p4, 19) : 0)));
	return 0;
}

/* sar -n NFSD from /proc/net/rpc/nfsd (fs/nfsd/stats.c): rpc calls and bad calls, packets
 * (all, UDP, TCP), reply cache hits and misses, and NFSv3 (proc3, as the client's) and NFSv4
 * (proc4ops: ACCESS the 4th op, GETATTR the 10th, READ the 26th, WRITE the 39th) reads,
 * writes, accesses, getattrs, as sysstat's read_net_nfsd. */
int ptk_kx_nfsd_parse(const char *text, struct ptk_xkvs *x)
{
	char l3[4096], l4[8192], lr[512], ln[512], lc[512];
	const char *p3 = line_of(text, "proc3", l3, sizeof(l3));
	const char *p4 = line_of(text, "proc4ops", l4, sizeof(l4));
	const char *r = line_of(text, "rpc", lr, sizeof(lr));
	const char *n = line_of(text, "net", ln, sizeof(ln));
	const char *c = line_of(text, "rc", lc, sizeof(lc));

	if (!r && !n && !c && !p3 && !p4)
		return -EINVAL;
	ptk_xkvs_add(x, "nfsd.scall", r ? (s64)nth(r, 0) : 0);
	ptk_xkvs_add(x, "nfsd.badcall", r ? (s64)nth(r, 1) : 0);
	ptk_xkvs_add(x, "nfsd.packet", n ? (s64)nth(n, 0) : 0);
	ptk_xkvs_add(x, "nfsd.udp", n ? (s64)nth(n, 1) : 0);
	ptk_xkvs_add(x, "nfsd.tcp", n ? (s64)nth(n, 2) : 0);
	ptk_xkvs_add(x, "nfsd.hit", c ? (s64)nth(c, 0) : 0);
	ptk_xkvs_add(x, "nfsd.miss", c ? (s64)nth(c, 1) : 0);
	ptk_xkvs_add(x, "nfsd.sread", (s64)((p3 ? nth(p3, 7) : 0) + (p4 ? nth(p4, 26) : 0)));
	ptk_xkvs_add(x, "nfsd.swrite", (s64)((p3 ? nth(p3, 8) : 0) + (p4 ? nth(p4, 39) : 0)));
	ptk_xkvs_add(x, "nfsd.saccess", (s64)((p3 ? nth(p3, 5) : 0) + (p4 ? nth(p4, 4) : 0)));
	ptk_xkvs_add(x, "nfsd.sgetatt", (s64)((p3 ? nth(p3, 2) : 0) + (p4 ? nth(p4, 10) : 0)));
	return 0;
}

int ptk_kx_cpuinfo_parse(const char *text, struct ptk_xkvs *x)
{
	int cpu = 0, n = 0;

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n'), *colon;

		if (!eol)
			eol = p + strlen(p);
		colon = memchr(p, ':', eol - p);
		if (colon && !strncmp(p, "processor", 9)) {
			cpu = atoi(colon + 1);
		} else if (colon && (!strncmp(p, "cpu MHz", 7) || !strncmp(p, "clock", 5))) {
			/* "3566.484": hundredths, the rest cut, as sysstat's read_cpuinfo; no
			 * number: unknown */
			char *end;
			unsigned long v = strtoul(colon + 1, &end, 10);
			int k = 1;
			if (end != colon + 1 && isdigit((unsigned char)end[-1])) {
				v *= 100;
				if (*end == '.')
					for (unsigned long m = 10;
					     k <= 2 && isdigit((unsigned char)end[k]); k++, m /= 10)
						v += (unsigned long)(end[k] - '0') * m;
				ptk_xkvs_addf(x, (s64)v, "mhz.%d", cpu);
				n++;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return n ? 0 : -ENOENT;
}

int ptk_kx_tis_parse(const char *text, int cpu, struct ptk_xkvs *x)
{
	int n = 0;

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		char f[32], t[32];

		if (!eol)
			eol = p + strlen(p);
		if (word(&p, eol, f, sizeof(f)) && word(&p, eol, t, sizeof(t)) && is_num(f) &&
		    is_num(t)) {
			ptk_xkvs_addf(x, strtoll(t, NULL, 10), "tis.%d.%s", cpu, f);
			n++;
		}
		p = *eol ? eol + 1 : eol;
	}
	return n ? 0 : -EINVAL;
}

/* The entries of sysfs directory rel whose names pass ok(), sorted; n returned, -errno. */
static int list_dir(const struct ptk_src *src, const char *rel, bool (*ok)(const char *),
		    char (**names)[256])
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n = 0;

	*names = NULL;
	if (ptk_src_path(src, PTK_SYS, rel, path, sizeof(path)))
		return -ENAMETOOLONG;
	if (!(d = opendir(path)))
		return -errno;
	while ((e = readdir(d))) {
		if (!ok(e->d_name))
			continue;
		*names = xrealloc(*names, (n + 1) * sizeof(**names));
		snprintf((*names)[n++], sizeof(**names), "%s", e->d_name);
	}
	closedir(d);
	if (n > 1) /* none: *names is NULL, which qsort may not be given */
		qsort(*names, n, sizeof(**names), (int (*)(const void *, const void *))strcmp);
	return n;
}

static bool usb_dev(const char *n)
{
	return isdigit((unsigned char)n[0]) && !strchr(n, ':');
}

static bool any_dir(const char *n)
{
	return n[0] != '.' && n[0] != '_';
}

/* A one-line sysfs file of dir/name, its trailing newline cut. -errno. */
static int line_file(const struct ptk_src *src, const char *dir, const char *name, char *buf,
		     size_t size)
{
	char rel[512];
	ssize_t n;

	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	if ((n = ptk_src_read(src, PTK_SYS, rel, buf, size)) < 0)
		return (int)n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The number at the start of s in base (a unit may follow: "98mA"); false when there is
 * none, which leaves the value unknown. */
static bool num_at(const char *s, int base, s64 *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, base);
	return end != s && !errno && *v >= 0;
}

int ptk_kx_usb_read(const struct ptk_src *src, struct ptk_xkvs *x)
{
	char(*names)[256];
	int n = list_dir(src, "bus/usb/devices", usb_dev, &names);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		char dir[300], buf[512], esc[1200], dev[800];
		s64 v;
		snprintf(dir, sizeof(dir), "bus/usb/devices/%s", names[i]);
		ptk_xkey_escape(names[i], dev, sizeof(dev));
		ptk_xkvs_addf(x, atoi(names[i]), "usb.%s.bus", dev);
		if (!line_file(src, dir, "idVendor", buf, sizeof(buf)) && num_at(buf, 16, &v))
			ptk_xkvs_addf(x, v, "usb.%s.idvendor", dev);
		if (!line_file(src, dir, "idProduct", buf, sizeof(buf)) && num_at(buf, 16, &v))
			ptk_xkvs_addf(x, v, "usb.%s.idproduct", dev);
		if (!line_file(src, dir, "bMaxPower", buf, sizeof(buf)) && num_at(buf, 10, &v))
			ptk_xkvs_addf(x, v, "usb.%s.maxpower", dev);
		if (!line_file(src, dir, "manufacturer", buf, sizeof(buf))) {
			ptk_xkey_escape(buf, esc, sizeof(esc));
			ptk_xkvs_addf(x, 0, "usbs.%s.manufacturer.%s", dev, esc);
		}
		if (!line_file(src, dir, "product", buf, sizeof(buf))) {
			ptk_xkey_escape(buf, esc, sizeof(esc));
			ptk_xkvs_addf(x, 0, "usbs.%s.product.%s", dev, esc);
		}
	}
	free(names);
	return 0;
}

int ptk_kx_fc_read(const struct ptk_src *src, struct ptk_xkvs *x)
{
	static const char *const st[] = { "rx_frames", "tx_frames", "rx_words", "tx_words" };
	char(*names)[256];
	int n = list_dir(src, "class/fc_host", any_dir, &names), got = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		char dir[300], buf[128], h[800];
		s64 v;
		snprintf(dir, sizeof(dir), "class/fc_host/%s/statistics", names[i]);
		ptk_xkey_escape(names[i], h, sizeof(h));
		for (size_t k = 0; k < ARRAY_SIZE(st); k++)
			if (!line_file(src, dir, st[k], buf, sizeof(buf)) && num_at(buf, 16, &v)) {
				/* hexadecimal, "0x1a2b" (drivers/scsi/scsi_transport_fc.c
				 * fc_host_statistic), with or without the 0x as sysstat reads it */
				ptk_xkvs_addf(x, v, "fc.%s.%s", h, st[k]);
				got++;
			}
	}
	free(names);
	return got ? 0 : -ENOENT;
}

int ptk_kx_fsys_read(const struct ptk_src *src, struct ptk_xkvs *x)
{
	static __thread struct ptk_buf b;
	ssize_t r = slurp(src, PTK_PROC, "self/mounts", &b);

	if (r < 0)
		return (int)r;
	for (const char *p = b.p; *p;) {
		const char *eol = strchr(p, '\n');
		char dev[1024], mnt[1024], mu[1024], edev[4200], emnt[4200];
		struct statvfs v;

		if (!eol)
			eol = p + strlen(p);
		if (word(&p, eol, dev, sizeof(dev)) && word(&p, eol, mnt, sizeof(mnt)) &&
		    dev[0] == '/') {
			/* mount points come with \040 for a blank (fs/proc_namespace.c) */
			ptk_xkey_unescape(mnt, strlen(mnt), mu, sizeof(mu));
			if (!statvfs(mu, &v) && v.f_blocks) {
				ptk_xkey_escape(dev, edev, sizeof(edev));
				ptk_xkey_escape(mu, emnt, sizeof(emnt));
				u64 f = v.f_frsize ? v.f_frsize : v.f_bsize;
				ptk_xkvs_addf(x, (s64)(v.f_blocks * f), "fsys.%s.%s.blocks", edev,
					      emnt);
				ptk_xkvs_addf(x, (s64)(v.f_bfree * f), "fsys.%s.%s.bfree", edev,
					      emnt);
				ptk_xkvs_addf(x, (s64)(v.f_bavail * f), "fsys.%s.%s.bavail", edev,
					      emnt);
				ptk_xkvs_addf(x, (s64)v.f_files, "fsys.%s.%s.files", edev, emnt);
				ptk_xkvs_addf(x, (s64)v.f_ffree, "fsys.%s.%s.ffree", edev, emnt);
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* The sysfs time_in_state of each CPU, until one is missing. 0, or -ENOENT for none. */
int ptk_kx_tis_read(const struct ptk_src *src, int ncpu, struct ptk_xkvs *x)
{
	static __thread struct ptk_buf b;
	int got = 0;

	for (int c = 0; c < ncpu; c++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/stats/time_in_state",
			 c);
		if (ptk_src_read_buf(src, PTK_SYS, rel, &b) < 0)
			break;
		got += !ptk_kx_tis_parse(b.p, c, x);
	}
	return got ? 0 : -ENOENT;
}

/* One of the little files: its numbers as PREFIX.0, PREFIX.1, ... 0 or -errno. */
static int numbers(const struct ptk_src *src, const char *rel, const char *prefix,
		   struct ptk_xkvs *x)
{
	char buf[512], *p = buf, *end;
	ssize_t n = ptk_src_read(src, PTK_PROC, rel, buf, sizeof(buf));
	int i = 0;

	if (n < 0)
		return (int)n;
	for (;; i++) {
		long long v = strtoll(p, &end, 10);
		if (end == p)
			break;
		ptk_xkvs_addf(x, v, "%s.%d", prefix, i);
		p = end;
	}
	return i ? 0 : -EINVAL;
}

int ptk_kx_ktables_read(const struct ptk_src *src, struct ptk_xkvs *x)
{
	int r1 = numbers(src, "sys/fs/dentry-state", "fs.dentry-state", x);
	int r2 = numbers(src, "sys/fs/file-nr", "fs.file-nr", x);
	int r3 = numbers(src, "sys/fs/inode-state", "fs.inode-state", x);
	int r4 = numbers(src, "sys/kernel/pty/nr", "pty.nr", x);

	return !r1 || !r2 || !r3 || !r4 ? 0 : r1;
}

/* Read one of the files that parse() takes (with its key prefix where it needs one). */
static int text_part(const struct ptk_src *src, const char *rel, struct ptk_xkvs *x,
		     int (*parse)(const char *, struct ptk_xkvs *))
{
	static __thread struct ptk_buf b;
	ssize_t n = slurp(src, PTK_PROC, rel, &b);

	return n < 0 ? (int)n : parse(b.p, x);
}

static int sockstat4(const char *t, struct ptk_xkvs *x)
{
	return ptk_kx_sockstat_parse(t, "sockstat", x);
}

static int sockstat6(const char *t, struct ptk_xkvs *x)
{
	return ptk_kx_sockstat_parse(t, "sockstat6", x);
}

int ptk_kx_read(const struct ptk_src *src, enum ptk_kx_group g, int ncpu, struct ptk_xkvs *x)
{
	switch (g) {
	case PTK_KX_SNMP6:
		return text_part(src, "net/snmp6", x, ptk_kx_snmp6_parse);
	case PTK_KX_SOCKSTAT:
		return text_part(src, "net/sockstat", x, sockstat4);
	case PTK_KX_SOCKSTAT6:
		return text_part(src, "net/sockstat6", x, sockstat6);
	case PTK_KX_KTABLES:
		return ptk_kx_ktables_read(src, x);
	case PTK_KX_SERIAL:
		return text_part(src, "tty/driver/serial", x, ptk_kx_serial_parse);
	case PTK_KX_NFS:
		return text_part(src, "net/rpc/nfs", x, ptk_kx_nfs_parse);
	case PTK_KX_NFSD:
		return text_part(src, "net/rpc/nfsd", x, ptk_kx_nfsd_parse);
	case PTK_KX_FCHOST:
		return ptk_kx_fc_read(src, x);
	case PTK_KX_CPUINFO:
		return text_part(src, "cpuinfo", x, ptk_kx_cpuinfo_parse);
	case PTK_KX_CPUFREQ:
		return ptk_kx_tis_read(src, ncpu, x);
	case PTK_KX_USB:
		return ptk_kx_usb_read(src, x);
	case PTK_KX_FSYS:
		/* statvfs of the mounts: only on the live system (a tree has no filesystems) */
		return ptk_src_is_live(src) ? ptk_kx_fsys_read(src, x) : -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

const char *const ptk_kx_prefix[PTK_KX_NGROUPS] = {
	[PTK_KX_SNMP6] = "snmp6.",
	[PTK_KX_SOCKSTAT] = "sockstat.",
	[PTK_KX_SOCKSTAT6] = "sockstat6.",
	[PTK_KX_KTABLES] = "fs.",
	[PTK_KX_SERIAL] = "tty.",
	[PTK_KX_NFS] = "nfs.",
	[PTK_KX_NFSD] = "nfsd.",
	[PTK_KX_FCHOST] = "fc.",
	[PTK_KX_CPUINFO] = "mhz.",
	[PTK_KX_CPUFREQ] = "tis.",
	[PTK_KX_USB] = "usb.",
	[PTK_KX_FSYS] = "fsys.",
};

int ptk_kx_group_of(const char *key)
{
	for (int g = 0; g < PTK_KX_NGROUPS; g++) {
		size_t pl = strlen(ptk_kx_prefix[g]);
		if (!strncmp(key, ptk_kx_prefix[g], pl))
			return g;
	}
	if (!strncmp(key, "pty.", 4))
		return PTK_KX_KTABLES;
	if (!strncmp(key, "usbs.", 5))
		return PTK_KX_USB;
	return -1;
}
