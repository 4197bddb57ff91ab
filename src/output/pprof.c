// SPDX-License-Identifier: GPL-2.0
/*
 * profile.proto (github.com/google/pprof/proto/profile.proto) field numbers used here:
 * Profile: sample_type 1, sample 2, mapping 3, location 4, function 5, string_table 6,
 * time_nanos 9, duration_nanos 10, period_type 11, period 12, comment 13.
 * ValueType: type 1, unit 2. Sample: location_id 1 (packed), value 2 (packed), label 3.
 * Label: key 1, str 2, num 3, num_unit 4. Mapping: id 1, memory_start 2, memory_limit 3,
 * file_offset 4, filename 5, build_id 6, has_functions 7. Location: id 1, mapping_id 2,
 * address 3, line 4. Line: function_id 1, line 2. Function: id 1, name 2, system_name 3,
 * filename 4.
 */
#include "output/pprof.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* ---- protobuf encoding ---- */

struct pb {
	unsigned char *b;
	size_t n, cap;
};

static void pb_raw(struct pb *p, const void *d, size_t n)
{
	if (!n)
		return;
	if (p->n + n > p->cap) {
		while (p->n + n > p->cap)
			p->cap = p->cap ? p->cap * 2 : 256;
		p->b = xrealloc(p->b, p->cap);
	}
	memcpy(p->b + p->n, d, n);
	p->n += n;
}

static void pb_varint(struct pb *p, u64 v)
{
	unsigned char b[10];
	int n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	pb_raw(p, b, n);
}

enum { WT_VARINT = 0, WT_LEN = 2 };

static void pb_tag(struct pb *p, int field, int wt)
{
	pb_varint(p, ((u64)field << 3) | wt);
}

/* a scalar field; proto3 leaves zeros out */
static void pb_u64(struct pb *p, int field, u64 v)
{
	if (!v)
		return;
	pb_tag(p, field, WT_VARINT);
	pb_varint(p, v);
}

static void pb_bytes(struct pb *p, int field, const void *d, size_t n)
{
	pb_tag(p, field, WT_LEN);
	pb_varint(p, n);
	pb_raw(p, d, n);
}

static void pb_sub(struct pb *p, int field, const struct pb *sub)
{
	pb_bytes(p, field, sub->b, sub->n);
}

/* ---- interning ---- */

struct htab {
	u64 *keys; /* 2 words a key */
	u64 *vals;
	size_t n, cap; /* cap a power of 2; key word 0 == ~0 marks empty */
};

static u64 mix(u64 a, u64 b)
{
	u64 h = (a ^ 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;

	h ^= (h >> 32) ^ b;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

static void ht_grow(struct htab *t)
{
	struct htab nt = { .cap = t->cap ? t->cap * 2 : 1024 };

	nt.keys = xmalloc(nt.cap * 2 * sizeof(u64));
	nt.vals = xmalloc(nt.cap * sizeof(u64));
	memset(nt.keys, 0xff, nt.cap * 2 * sizeof(u64));
	for (size_t i = 0; i < t->cap; i++) {
		size_t h;
		if (t->keys[2 * i] == ~0ull)
			continue;
		h = mix(t->keys[2 * i], t->keys[2 * i + 1]) & (nt.cap - 1);
		while (nt.keys[2 * h] != ~0ull)
			h = (h + 1) & (nt.cap - 1);
		nt.keys[2 * h] = t->keys[2 * i];
		nt.keys[2 * h + 1] = t->keys[2 * i + 1];
		nt.vals[h] = t->vals[i];
		nt.n++;
	}
	free(t->keys);
	free(t->vals);
	*t = nt;
}

/* The value of key (a, b): *val, true when found; else the slot for it is returned in *slot. */
static bool ht_find(struct htab *t, u64 a, u64 b, u64 *val, size_t *slot)
{
	size_t h;

	if ((t->n + 1) * 2 > t->cap)
		ht_grow(t);
	for (h = mix(a, b) & (t->cap - 1); t->keys[2 * h] != ~0ull; h = (h + 1) & (t->cap - 1)) {
		if (t->keys[2 * h] == a && t->keys[2 * h + 1] == b) {
			*val = t->vals[h];
			return true;
		}
	}
	*slot = h;
	return false;
}

static void ht_set(struct htab *t, size_t slot, u64 a, u64 b, u64 val)
{
	t->keys[2 * slot] = a;
	t->keys[2 * slot + 1] = b;
	t->vals[slot] = val;
	t->n++;
}

/*
 * The id of key (a, b) in *id: the one it has, or the next of *last (counted up), which it gets.
 * Returns true when the key is new (its message is to be written).
 */
static bool ht_intern(struct htab *t, u64 a, u64 b, u64 *last, u64 *id)
{
	size_t slot;

	if (ht_find(t, a, b, id, &slot))
		return false;
	*id = ++*last;
	ht_set(t, slot, a, b, *id);
	return true;
}

static void ht_free(struct htab *t)
{
	free(t->keys);
	free(t->vals);
	memset(t, 0, sizeof(*t));
}

static u64 str_hash(const char *s)
{
	u64 h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h & ~(1ull << 63); /* never ~0 */
}

struct ptk_pprof {
	/* strings: table[i], looked up by hash */
	char **strs;
	size_t nstr, capstr;
	struct htab strix; /* (hash, collision index) -> string index */
	struct pb types, samples, mappings, locations, functions, comments;
	int ntypes;
	struct htab maps; /* (filename index, start) -> id */
	struct htab locs; /* (mapping, addr) or (mapping | 1<<63, name) -> id */
	struct htab funcs; /* (name, file) -> id */
	u64 nmaps, nlocs, nfuncs;
	s64 time_nanos, duration_nanos, period;
	s64 period_type, period_unit;
	struct pb scratch, scratch2;
};

static s64 str_id(struct ptk_pprof *p, const char *s)
{
	u64 h = str_hash(s ? s : ""), v;
	size_t slot;

	if (!s)
		s = "";
	/* a hash collision: the next collision index */
	for (u64 k = 0;; k++) {
		if (!ht_find(&p->strix, h, k, &v, &slot))
			break;
		if (!strcmp(p->strs[v], s))
			return (s64)v;
	}
	if (p->nstr == p->capstr) {
		p->capstr = p->capstr ? p->capstr * 2 : 256;
		p->strs = xrealloc(p->strs, p->capstr * sizeof(*p->strs));
	}
	p->strs[p->nstr] = xstrdup(s);
	{
		u64 k = 0;
		while (ht_find(&p->strix, h, k, &v, &slot))
			k++;
		ht_set(&p->strix, slot, h, k, p->nstr);
	}
	return (s64)p->nstr++;
}

struct ptk_pprof *ptk_pprof_new(void)
{
	struct ptk_pprof *p = xcalloc(1, sizeof(*p));

	str_id(p, ""); /* string_table[0] must be "" */
	return p;
}

void ptk_pprof_free(struct ptk_pprof *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nstr; i++)
		free(p->strs[i]);
	free(p->strs);
	ht_free(&p->strix);
	ht_free(&p->maps);
	ht_free(&p->locs);
	ht_free(&p->funcs);
	free(p->types.b);
	free(p->samples.b);
	free(p->mappings.b);
	free(p->locations.b);
	free(p->functions.b);
	free(p->comments.b);
	free(p->scratch.b);
	free(p->scratch2.b);
	free(p);
}

int ptk_pprof_sample_type(struct ptk_pprof *p, const char *type, const char *unit)
{
	struct pb *s = &p->scratch;

	if (p->ntypes == PTK_PPROF_MAX_TYPES)
		return -E2BIG;
	s->n = 0;
	pb_u64(s, 1, str_id(p, type));
	pb_u64(s, 2, str_id(p, unit));
	pb_sub(&p->types, 1, s);
	p->ntypes++;
	return 0;
}

void ptk_pprof_period(struct ptk_pprof *p, const char *type, const char *unit, s64 period)
{
	p->period_type = str_id(p, type);
	p->period_unit = str_id(p, unit);
	p->period = period;
}

void ptk_pprof_time(struct ptk_pprof *p, s64 time_nanos, s64 duration_nanos)
{
	p->time_nanos = time_nanos;
	p->duration_nanos = duration_nanos;
}

void ptk_pprof_comment(struct ptk_pprof *p, const char *text)
{
	pb_u64(&p->comments, 13, str_id(p, text));
}

u64 ptk_pprof_mapping(struct ptk_pprof *p, u64 start, u64 limit, u64 offset, const char *file,
		      const char *build_id)
{
	s64 fi = str_id(p, file);
	struct pb *s = &p->scratch;
	u64 id;

	if (!ht_intern(&p->maps, fi, start, &p->nmaps, &id))
		return id;
	s->n = 0;
	pb_u64(s, 1, id);
	pb_u64(s, 2, start);
	pb_u64(s, 3, limit);
	pb_u64(s, 4, offset);
	pb_u64(s, 5, fi);
	pb_u64(s, 6, build_id ? str_id(p, build_id) : 0);
	pb_u64(s, 7, 1); /* has_functions: the locations are symbolized */
	pb_sub(&p->mappings, 3, s);
	return id;
}

static u64 function_id(struct ptk_pprof *p, const char *func, const char *file)
{
	s64 ni = str_id(p, func), fi = str_id(p, file);
	struct pb *s = &p->scratch2;
	u64 id;

	if (!ht_intern(&p->funcs, ni, fi, &p->nfuncs, &id))
		return id;
	s->n = 0;
	pb_u64(s, 1, id);
	pb_u64(s, 2, ni);
	pb_u64(s, 3, ni);
	pb_u64(s, 4, fi);
	pb_sub(&p->functions, 5, s);
	return id;
}

u64 ptk_pprof_location(struct ptk_pprof *p, u64 mapping, u64 addr, const char *func,
		       const char *file, s64 line)
{
	u64 a = mapping, b = addr, id, fid;
	struct pb *s = &p->scratch, *l = &p->scratch2;

	if (!func || !*func)
		func = "[unknown]";
	if (!addr) {
		a |= 1ull << 62;
		b = str_id(p, func);
	}
	if (!ht_intern(&p->locs, a, b, &p->nlocs, &id))
		return id;
	fid = function_id(p, func, file);
	l->n = 0;
	pb_u64(l, 1, fid);
	pb_u64(l, 2, line > 0 ? (u64)line : 0);
	s->n = 0;
	pb_u64(s, 1, id);
	pb_u64(s, 2, mapping);
	pb_u64(s, 3, addr);
	pb_sub(s, 4, l);
	pb_sub(&p->locations, 4, s);
	return id;
}

void ptk_pprof_sample(struct ptk_pprof *p, const u64 *locs, int n, const s64 *values,
		      const struct ptk_pprof_label *labels, int nlabels)
{
	struct pb *s = &p->scratch, *x = &p->scratch2;

	s->n = 0;
	x->n = 0;
	for (int i = 0; i < n; i++)
		pb_varint(x, locs[i]);
	if (x->n)
		pb_sub(s, 1, x);
	x->n = 0;
	for (int i = 0; i < p->ntypes; i++)
		pb_varint(x, (u64)values[i]);
	if (x->n)
		pb_sub(s, 2, x);
	for (int i = 0; i < nlabels; i++) {
		x->n = 0;
		pb_u64(x, 1, str_id(p, labels[i].key));
		if (labels[i].str) {
			pb_u64(x, 2, str_id(p, labels[i].str));
		} else {
			pb_u64(x, 3, (u64)labels[i].num);
			if (labels[i].unit)
				pb_u64(x, 4, str_id(p, labels[i].unit));
		}
		pb_sub(s, 3, x);
	}
	pb_sub(&p->samples, 2, s);
}

void ptk_pprof_add_folded(struct ptk_pprof *p, const struct ptk_folded *f, bool comm_first,
			  const s64 *scale)
{
	u64 *locs = NULL;
	size_t cap = 0;

	for (int i = 0; i < f->n; i++) {
		char *st = xstrdup(f->s[i].stack), *q, *frames;
		s64 v[PTK_PPROF_MAX_TYPES] = { (s64)f->s[i].count };
		struct ptk_pprof_label lab = { .key = "comm" };
		size_t nf = 0, k;

		for (int t = 1; t < p->ntypes; t++)
			v[t] = (s64)f->s[i].count * (scale ? scale[t] : 1);
		frames = st;
		if (comm_first) {
			q = strchr(st, ';');
			lab.str = st;
			frames = q ? q + 1 : NULL;
			if (q)
				*q = '\0';
		}
		/* count the frames, then fill leaf first */
		k = 0;
		for (q = frames; q; q = strchr(q, ';'), q = q ? q + 1 : NULL)
			k++;
		if (k > cap) {
			cap = k + 64;
			locs = xrealloc(locs, cap * sizeof(*locs));
		}
		nf = k;
		for (q = frames; q;) {
			char *e = strchr(q, ';');
			if (e)
				*e = '\0';
			locs[--k] = ptk_pprof_location(p, 0, 0, q, NULL, 0);
			q = e ? e + 1 : NULL;
		}
		ptk_pprof_sample(p, locs, (int)nf, v, comm_first ? &lab : NULL, comm_first);
		free(st);
	}
	free(locs);
}

void ptk_pprof_encode(struct ptk_pprof *p, unsigned char **out, size_t *len)
{
	struct pb o = { 0 }, s = { 0 };

	pb_raw(&o, p->types.b, p->types.n);
	pb_raw(&o, p->samples.b, p->samples.n);
	pb_raw(&o, p->mappings.b, p->mappings.n);
	pb_raw(&o, p->locations.b, p->locations.n);
	pb_raw(&o, p->functions.b, p->functions.n);
	pb_u64(&o, 9, (u64)p->time_nanos);
	pb_u64(&o, 10, (u64)p->duration_nanos);
	if (p->period_type || p->period_unit) {
		pb_u64(&s, 1, p->period_type);
		pb_u64(&s, 2, p->period_unit);
		pb_sub(&o, 11, &s);
	}
	pb_u64(&o, 12, (u64)p->period);
	pb_raw(&o, p->comments.b, p->comments.n);
	/* the string table last: every string above is interned by now */
	for (size_t i = 0; i < p->nstr; i++)
		pb_bytes(&o, 6, p->strs[i], strlen(p->strs[i]));
	free(s.b);
	*out = o.b;
	*len = o.n;
}

static int write_all(int fd, const unsigned char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += w;
		n -= w;
	}
	return 0;
}

int ptk_pprof_gzip(struct ptk_pprof *p, unsigned char **out, size_t *outlen)
{
	unsigned char *raw;
	size_t len;
	struct pb o = { 0 };
	unsigned char buf[1 << 16];
	z_stream z = { 0 };
	int zr, r = 0;

	ptk_pprof_encode(p, &raw, &len);
	/* windowBits 15 + 16: a gzip header and trailer */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(raw);
		return -ENOMEM;
	}
	z.next_in = raw;
	z.avail_in = len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR) {
			r = -EIO;
			break;
		}
		pb_raw(&o, buf, sizeof(buf) - z.avail_out);
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	free(raw);
	if (r) {
		free(o.b);
		return r;
	}
	*out = o.b;
	*outlen = o.n;
	return 0;
}

int ptk_pprof_write(struct ptk_pprof *p, int fd)
{
	unsigned char *gz;
	size_t len;
	int r = ptk_pprof_gzip(p, &gz, &len);

	if (r)
		return r;
	r = write_all(fd, gz, len);
	free(gz);
	return r;
}

int ptk_pprof_save(struct ptk_pprof *p, const char *path)
{
	struct ptk_outfile of = { .fd = -1 };
	int err = ptk_outfile_open(&of, path, 0666);

	if (!err)
		err = ptk_pprof_write(p, of.fd);
	if (!err)
		err = ptk_outfile_commit(&of);
	if (err)
		ptk_outfile_abort(&of);
	if (of.fd >= 0)
		close(of.fd);
	return err;
}

bool ptk_pprof_path(const char *path)
{
	size_t l = path ? strlen(path) : 0;

	return (l > 6 && !strcmp(path + l - 6, ".pb.gz")) ||
	       (l > 6 && !strcmp(path + l - 6, ".pprof"));
}

int ptk_elf_build_id(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -ENOENT;
	Elf_Scn *scn = NULL;
	Elf *e;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e) {
		close(fd);
		return -EINVAL;
	}
	while (r && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			const unsigned char *desc = (const unsigned char *)d->d_buf + doff;
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + noff, "GNU", 4) || !nh.n_descsz ||
			    nh.n_descsz * 2 + 1 > size)
				continue;
			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(buf + 2 * i, "%02x", desc[i]);
			r = 0;
			break;
		}
	}
	elf_end(e);
	close(fd);
	return r;
}
