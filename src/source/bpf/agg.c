// SPDX-License-Identifier: GPL-2.0
/* The aggregation engine (agg.h): probes and fields into the program's configuration, its
 * load and attach for the runner, and its maps read back into rows. */
#include "source/bpf/agg.h"

#include <assert.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "agg.skel.h"
/* the light skeleton (kernel-side loader: no vmlinux BTF parse), libbpf's as the fallback */
#include "agg_l.lskel.h"
#include "source/sym/sym.h"

/* The model's names of modes and operators are the program's numbers. */
static_assert((int)PTK_AGG_COUNT == AGG_COUNT && (int)PTK_AGG_SUM == AGG_SUM &&
		      (int)PTK_AGG_HIST == AGG_HIST && (int)PTK_AGG_LHIST == AGG_LHIST,
	      "agg modes");
static_assert((int)PTK_AGG_EQ == AGG_OP_EQ && (int)PTK_AGG_NE == AGG_OP_NE &&
		      (int)PTK_AGG_LT == AGG_OP_LT && (int)PTK_AGG_LE == AGG_OP_LE &&
		      (int)PTK_AGG_GT == AGG_OP_GT && (int)PTK_AGG_GE == AGG_OP_GE,
	      "agg operators");
static_assert(AGG_MAX_KEYS == PTK_AGG_MAX_KEYS && AGG_SLOTS == PTK_HIST_SLOTS &&
		      AGG_KEY_SIZE == sizeof(((struct ptk_agg_row *)0)->tie),
	      "agg sizes");

#define STACK_DEPTH 127 /* frames of a stack map entry (agg.bpf.c stacks) */

static int fail(char *err, size_t errsz, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errsz, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return rc;
}

#define USAGE(a, ...) fail((a)->err, sizeof((a)->err), -EINVAL, __VA_ARGS__)

/* ---- probes and fields ---- */

int ptk_agg_probe_parse(const char *spec, bool with_field, struct ptk_agg_probe *p, char *err,
			size_t errsz)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t lc = c1 ? (size_t)(c1 - spec) : 0;
	size_t le = c1 ? (c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1)) : 0;

	if (!c1 || !lc || !le || lc >= sizeof(p->cat) || le >= sizeof(p->name) ||
	    (with_field != (c2 != NULL)) || (c2 && (!c2[1] || strlen(c2 + 1) >= sizeof(p->field))))
		return fail(err, errsz, -EINVAL, "invalid tracepoint '%s' (want CATEGORY:EVENT%s)",
			    spec, with_field ? ":FIELD" : "");
	memcpy(p->cat, spec, lc);
	p->cat[lc] = '\0';
	memcpy(p->name, c1 + 1, le);
	p->name[le] = '\0';
	p->field[0] = '\0';
	if (c2)
		snprintf(p->field, sizeof(p->field), "%s", c2 + 1);
	return 0;
}

int ptk_agg_parse(struct ptk_agg *a)
{
	int rc;

	if (a->mode == PTK_AGG_LATENCY) {
		a->nprobes = 2;
		if ((rc = ptk_agg_probe_parse(a->from, true, &a->probe[0], a->err, sizeof(a->err))))
			return rc;
		return ptk_agg_probe_parse(a->to, true, &a->probe[1], a->err, sizeof(a->err));
	}
	a->nprobes = 1;
	return ptk_agg_probe_parse(a->event, false, &a->probe[0], a->err, sizeof(a->err));
}

/* The properties of the task current at the event. */
static const struct pseudo {
	const char *name;
	enum agg_src src;
	unsigned len;
} pseudos[] = {
	{ "comm", AGG_SRC_COMM, 16 },	 { "pid", AGG_SRC_PID, 8 },	  { "tid", AGG_SRC_TID, 8 },
	{ "cgroup", AGG_SRC_CGROUP, 8 }, { "kstack", AGG_SRC_KSTACK, 8 },
};

static bool is_char_type(const char *type)
{
	return !strncmp(type, "char", 4) || !strncmp(type, "unsigned char", 13) ||
	       !strncmp(type, "u8", 2) || !strncmp(type, "__u8", 4) ||
	       !strncmp(type, "const char", 10);
}

static bool valid_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* FIELD[i] of the numeric array tf. */
static int array_element(const struct ptk_agg_probe *p, const struct ptk_tp_field *tf,
			 const char *name, const char *br, struct agg_field *f,
			 enum ptk_vtype *type, char *err, size_t errsz)
{
	const char *tb = strchr(tf->type, '[');
	char *end;
	long idx = strtol(br + 1, &end, 10);
	int n = 0;

	if (!tf->is_array || end == br + 1 || strcmp(end, "]") || idx < 0 || !tb ||
	    (n = atoi(tb + 1)) <= 0 || idx >= n)
		return fail(err, errsz, -EINVAL, "'%s': %s:%s field '%s' is %s", name, p->cat,
			    p->name, tf->name,
			    tf->is_array ? "indexed out of range" : "not an array");
	f->size = tf->size / n;
	f->off = tf->offset + idx * f->size;
	if (!valid_size(f->size))
		return fail(err, errsz, -EINVAL, "'%s': elements of %d bytes", name, f->size);
	f->src = AGG_SRC_NUM;
	f->len = 8;
	*type = f->is_signed ? PTK_V_S64 : PTK_V_U64;
	return 0;
}

/* A field of the record. */
static int record_field(const struct ptk_agg_probe *p, const struct ptk_tp_field *tf,
			const char *name, bool numeric, struct agg_field *f, enum ptk_vtype *type,
			char *err, size_t errsz)
{
	f->off = tf->offset;
	f->size = tf->size;
	f->is_signed = tf->is_signed;
	if (tf->is_data_loc || tf->is_array) {
		if (numeric)
			return fail(err, errsz, -EINVAL, "%s:%s field '%s' (%s) is not a number",
				    p->cat, p->name, name, tf->type);
		if (!tf->is_data_loc && !is_char_type(tf->type))
			return fail(err, errsz, -EINVAL,
				    "%s:%s field '%s' is an array (%s): use %s[INDEX]", p->cat,
				    p->name, name, tf->type, name);
		f->src = tf->is_data_loc ? AGG_SRC_DATALOC : AGG_SRC_ARRAY;
		f->len = tf->is_data_loc || tf->size > AGG_STR_MAX ? AGG_STR_MAX : tf->size;
		*type = PTK_V_STR;
		return 0;
	}
	if (!numeric && tf->size == 8 && strstr(tf->type, "char *")) {
		/* a string pointer (syscall arguments point into user memory) */
		f->src = AGG_SRC_PTRSTR;
		f->len = AGG_STR_MAX;
		f->user = !strcmp(p->cat, "syscalls");
		*type = PTK_V_STR;
		return 0;
	}
	if (!valid_size(tf->size))
		return fail(err, errsz, -EINVAL, "%s:%s field '%s' has %d bytes (1, 2, 4, 8 only)",
			    p->cat, p->name, name, tf->size);
	f->src = AGG_SRC_NUM;
	f->len = 8;
	*type = f->is_signed ? PTK_V_S64 : PTK_V_U64;
	return 0;
}

int ptk_agg_field(const struct ptk_agg_probe *p, const char *name, bool numeric,
		  struct agg_field *f, enum ptk_vtype *type, char *err, size_t errsz)
{
	const char *br = strchr(name, '[');
	const struct ptk_tp_field *tf;
	char base[64], list[1024] = "";
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	if (name[0] != '@' &&
	    snprintf(base, sizeof(base), "%.*s", (int)(br ? br - name : (long)strlen(name)), name) >
		    0 &&
	    (tf = ptk_tp_field_find(&p->fmt, base))) {
		if (br) {
			f->is_signed = tf->is_signed;
			return array_element(p, tf, name, br, f, type, err, errsz);
		}
		return record_field(p, tf, name, numeric, f, type, err, errsz);
	}
	for (size_t i = 0; i < ARRAY_SIZE(pseudos); i++) {
		if (strcmp(name + (name[0] == '@'), pseudos[i].name))
			continue;
		if (numeric && (pseudos[i].src == AGG_SRC_COMM || pseudos[i].src == AGG_SRC_KSTACK))
			break;
		f->src = pseudos[i].src;
		f->len = pseudos[i].len;
		*type = f->src == AGG_SRC_COMM || f->src == AGG_SRC_KSTACK ? PTK_V_STR : PTK_V_U64;
		return 0;
	}
	for (int i = 0; i < p->fmt.nfields && n < sizeof(list) - 1; i++)
		if (strncmp(p->fmt.f[i].name, "common_", 7))
			n += snprintf(list + n, sizeof(list) - n, "%s%s", n ? "," : "",
				      p->fmt.f[i].name);
	return fail(err, errsz, -EINVAL, "unknown %sfield '%s' for %s:%s (fields: %s)",
		    numeric ? "numeric " : "", name, p->cat, p->name, n ? list : "none");
}

/* ---- the configuration ---- */

/* The probe whose record the keys and the filter read: the --to event of a latency. */
static struct ptk_agg_probe *key_probe(struct ptk_agg *a)
{
	return &a->probe[a->mode == PTK_AGG_LATENCY ? 1 : 0];
}

static struct agg_cfg *key_cfg(struct ptk_agg *a)
{
	return &a->cfg[a->mode == PTK_AGG_LATENCY ? 1 : 0];
}

static int add_key(struct ptk_agg *a, const char *name)
{
	struct ptk_agg_key *k, *prev = a->nkeys ? &a->keys[a->nkeys - 1] : NULL;
	u32 kofs = prev ? prev->f.kofs + ((prev->f.len + 7) & ~7u) : 0;
	int rc;

	if (a->nkeys == PTK_AGG_MAX_KEYS)
		return USAGE(a, "--by: at most %d keys", PTK_AGG_MAX_KEYS);
	if (!*name || strlen(name) >= sizeof(k->col.name))
		return USAGE(a, "--by: invalid key '%s'", name);
	k = &a->keys[a->nkeys];
	memset(k, 0, sizeof(*k));
	if ((rc = ptk_agg_field(key_probe(a), name, false, &k->f, &k->col.type, a->err,
				sizeof(a->err))))
		return rc;
	if (kofs + ((k->f.len + 7) & ~7u) > AGG_KEY_SIZE)
		return USAGE(a, "--by: the key is larger than %d bytes", AGG_KEY_SIZE);
	k->f.kofs = kofs;
	snprintf(k->col.name, sizeof(k->col.name), "%s", name + (name[0] == '@'));
	k->col.task = k->f.src >= AGG_SRC_COMM && k->f.src <= AGG_SRC_KSTACK;
	k->col.stack = k->f.src == AGG_SRC_KSTACK;
	a->has_stack |= k->col.stack;
	a->nkeys++;
	return 0;
}

static int add_keys(struct ptk_agg *a, const struct ptk_bpf_filter *flt)
{
	struct agg_cfg *kc = key_cfg(a);
	int rc = 0, n = 0;

	if (a->by) {
		char **items = ptk_agg_list_split(a->by, &n);

		for (int i = 0; i < n && !rc; i++)
			rc = add_key(a, items[i]);
		ptk_agg_list_free(items);
		if (rc)
			return rc;
	}
	if (flt->per_process && (rc = add_key(a, "@pid")))
		return rc;
	if (flt->per_thread && (rc = add_key(a, "@tid")))
		return rc;
	kc->nkeys = a->nkeys;
	for (int i = 0; i < a->nkeys; i++)
		kc->key[i] = a->keys[i].f;
	return 0;
}

/* The match fields of a latency: numbers of the records, equal in the two. */
static int configure_latency(struct ptk_agg *a, const struct ptk_bpf_filter *flt)
{
	enum ptk_vtype type;
	int rc;

	a->cfg[0].mode = AGG_LAT_START;
	a->cfg[1].mode = AGG_LAT_END;
	a->cfg[1].lat_div = flt->millis ? 1000000 : 1000;
	for (int i = 0; i < 2; i++) {
		if ((rc = ptk_agg_field(&a->probe[i], a->probe[i].field, true, &a->cfg[i].val,
					&type, a->err, sizeof(a->err))))
			return rc;
		if (a->cfg[i].val.src != AGG_SRC_NUM && a->cfg[i].val.src != AGG_SRC_PID &&
		    a->cfg[i].val.src != AGG_SRC_TID)
			return USAGE(a, "--%s: match on a numeric field", i ? "to" : "from");
	}
	/* pseudo keys as match fields would go through the key reader in the kernel */
	for (int i = 0; i < 2; i++)
		if (a->cfg[i].val.src != AGG_SRC_NUM)
			return USAGE(a, "--%s: '%s' is not a field of %s:%s", i ? "to" : "from",
				     a->probe[i].field, a->probe[i].cat, a->probe[i].name);
	snprintf(a->desc, sizeof(a->desc), "%s:%s:%s -> %s:%s:%s", a->probe[0].cat,
		 a->probe[0].name, a->probe[0].field, a->probe[1].cat, a->probe[1].name,
		 a->probe[1].field);
	return 0;
}

/* What one probe aggregates: its count, or a numeric field summed or in a histogram. */
static int configure_value(struct ptk_agg *a)
{
	struct agg_cfg *c = &a->cfg[0];
	enum ptk_vtype type;
	int rc;

	c->mode = a->mode;
	if (a->mode != PTK_AGG_COUNT && (rc = ptk_agg_field(&a->probe[0], a->value, true, &c->val,
							    &type, a->err, sizeof(a->err))))
		return rc;
	if (c->val.src && c->val.src != AGG_SRC_NUM)
		return USAGE(a, "'%s' is not a numeric field of %s:%s", a->value, a->probe[0].cat,
			     a->probe[0].name);
	if (a->mode == PTK_AGG_LHIST) {
		c->lin_min = a->lin_min;
		c->lin_step = a->lin_step;
		c->lin_nslots = a->lin_nslots;
	}
	snprintf(a->desc, sizeof(a->desc), "%s:%s", a->probe[0].cat, a->probe[0].name);
	return 0;
}

/* The filter, on the key probe's record (with a latency, on the --from one when only it has
 * the field). */
static int configure_filter(struct ptk_agg *a)
{
	struct ptk_agg_filter ex;
	struct ptk_agg_probe *p = key_probe(a);
	struct agg_cfg *c = key_cfg(a);
	char val[PTK_AGG_VALUE_MAX];
	enum ptk_vtype type;
	int rc;

	if ((rc = ptk_agg_filter_parse(a->filter, &ex, a->err, sizeof(a->err))))
		return rc;
	if (a->mode == PTK_AGG_LATENCY && !ptk_tp_field_find(&p->fmt, ex.field) &&
	    ptk_tp_field_find(&a->probe[0].fmt, ex.field)) {
		p = &a->probe[0];
		c = &a->cfg[0];
	}
	if ((rc = ptk_agg_field(p, ex.field, false, &c->filter, &type, a->err, sizeof(a->err))))
		return rc;
	if (c->filter.src == AGG_SRC_KSTACK)
		return USAGE(a, "--filter: kstack cannot be compared");
	c->has_filter = 1;
	c->filter_op = ex.op;
	if (type != PTK_V_STR) {
		s64 v;

		rc = ptk_agg_filter_num(&ex, &v, a->err, sizeof(a->err));
		c->filter_v = v;
		return rc;
	}
	if ((rc = ptk_agg_filter_str(&ex, val, sizeof(val), a->err, sizeof(a->err))))
		return rc;
	if (strlen(val) >= c->filter.len && strlen(val) >= AGG_STR_MAX)
		return USAGE(a, "--filter: '%s' longer than the field", val);
	c->filter_str = 1;
	memset(c->filter_s, 0, sizeof(c->filter_s));
	memcpy(c->filter_s, val, strlen(val));
	return 0;
}

/* The shape of the rows, from the keys and the mode. */
static void configure_rows(struct ptk_agg *a, const struct ptk_bpf_filter *flt)
{
	struct ptk_agg_result *res = &a->res;

	memset(res, 0, sizeof(*res));
	res->mode = a->mode;
	res->nkeys = a->nkeys;
	for (int i = 0; i < a->nkeys; i++)
		res->keys[i] = a->keys[i].col;
	res->sum_signed = a->cfg[0].val.is_signed;
	res->lin_min = a->lin_min;
	res->lin_step = a->lin_step;
	res->lin_nslots = a->lin_nslots;
	res->unit = a->mode == PTK_AGG_LATENCY ? (flt->millis ? "msecs" : "usecs") : a->value;
	ptk_agg_result_init(res);
	a->stacks_max = a->has_stack ? 4096 : 1;
}

int ptk_agg_configure(struct ptk_agg *a, const struct ptk_bpf_filter *flt)
{
	int rc;

	memset(a->cfg, 0, sizeof(a->cfg));
	a->nkeys = 0;
	a->has_stack = false;
	rc = a->mode == PTK_AGG_LATENCY ? configure_latency(a, flt) : configure_value(a);
	if (rc || (rc = add_keys(a, flt)) || (a->filter && (rc = configure_filter(a))))
		return rc;
	configure_rows(a, flt);
	return 0;
}

int ptk_agg_prepare(struct ptk_agg *a, const struct ptk_bpf_filter *flt, struct ptk_bpf_run *r)
{
	int rc;

	for (int i = 0; i < a->nprobes; i++) {
		struct ptk_agg_probe *p = &a->probe[i];

		if (p->have_fmt)
			continue;
		rc = ptk_tp_format_read(p->cat, p->name, &p->fmt);
		if (rc == -ENOENT || rc == -EINVAL)
			return USAGE(a, "unknown tracepoint '%s:%s' (not in tracefs events/)",
				     p->cat, p->name);
		if (rc)
			return fail(a->err, sizeof(a->err), rc,
				    "cannot read the format of %s:%s: %s%s", p->cat, p->name,
				    strerror(-rc),
				    rc == -EPERM || rc == -EACCES ?
					    " (needs root to mount/read tracefs)" :
					    "");
		p->have_fmt = true;
	}
	if ((rc = ptk_agg_configure(a, flt)))
		return rc;
	if (r) {
		/* stacks that could not be captured are still counted (under "[no stack]") */
		r->lost_keys = ((1u << AGG_DROP_NR) - 1) & ~(1u << AGG_DROP_STACK);
		snprintf(r->banner, sizeof(r->banner), "Tracing %.200s%s... Hit Ctrl-C to end.",
			 a->desc, a->mode == PTK_AGG_LATENCY ? " latency" : "");
	}
	return 0;
}

/* ---- load and attach ---- */

/* The configuration and the map sizes (unused maps shrunk: they are preallocated), for either
 * skeleton: MAPSZ(skel, map, entries) sizes one of its maps. */
#define AGG_SETUP(s, MAPSZ)                                               \
	do {                                                              \
		bool hist_ = ptk_agg_is_hist(a->mode);                    \
		PTK_BPF_SET_FILTERS(s, &r->filter);                       \
		memcpy((void *)(s)->rodata->cfg, a->cfg, sizeof(a->cfg)); \
		MAPSZ(s, counts, hist_ ? 1 : AGG_MAX_ENTRIES);            \
		MAPSZ(s, hists, hist_ ? AGG_MAX_ENTRIES : 1);             \
		MAPSZ(s, start, a->nprobes > 1 ? AGG_MAX_ENTRIES : 1);    \
		MAPSZ(s, stacks, a->stacks_max);                          \
	} while (0)

int ptk_agg_open(struct ptk_bpf_run *r)
{
	struct agg_bpf *s = PTK_BPF_OPEN(r, agg_bpf);
	struct ptk_agg *a = r->priv;

	if (!s)
		return -errno;
#define LIBBPF_MAPSZ(sk, m, n) bpf_map__set_max_entries((sk)->maps.m, n)
	AGG_SETUP(s, LIBBPF_MAPSZ);
#undef LIBBPF_MAPSZ
	bpf_program__set_autoload(s->progs.agg_b, a->nprobes > 1);
	return 0;
}

PTK_BPF_LSKEL_FREE(agg_l_bpf)

#define L_MAPSZ(sk, m, n) ((sk)->maps.m.max_entries = (n))
#define AGG_L_SETUP(s) AGG_SETUP(s, L_MAPSZ)
/* The light skeleton's attach leaves tracepoint programs alone: agg_a (and agg_b for a
 * latency) are attached to the probes here. 0 or -errno. */
int ptk_agg_load_lskel(struct ptk_bpf_run *r)
{
	struct ptk_agg *a = r->priv;
	struct agg_l_bpf *l = NULL;
	int err = PTK_LSKEL_LOAD(agg_l_bpf, l, AGG_L_SETUP);

	if (err)
		return err;
	const struct ptk_bpf_tp tps[AGG_NPROGS] = {
		PTK_LSKEL_TP(l, agg_a, a->probe[0].cat, a->probe[0].name, false),
		PTK_LSKEL_TP(l, agg_b, a->probe[1].cat, a->probe[1].name, false),
	};
	/* (on failure, the fallback tries the same probes with libbpf) */
	if ((err = ptk_bpf_attach_tps(tps, a->nprobes))) {
		agg_l_bpf__destroy(l);
		return err;
	}
	PTK_BPF_USE_LSKEL(r, agg_l_bpf, l);
	return 0;
}
#undef AGG_L_SETUP
#undef L_MAPSZ

int ptk_agg_load(struct ptk_bpf_run *r)
{
	struct ptk_agg *a = r->priv;
	struct agg_bpf *s = r->skel;
	struct bpf_program *progs[AGG_NPROGS] = { s->progs.agg_a, s->progs.agg_b };
	int err;

	if ((err = agg_bpf__load(s)))
		return err;
	for (int i = 0; i < a->nprobes; i++) {
		a->links[i] =
			bpf_program__attach_tracepoint(progs[i], a->probe[i].cat, a->probe[i].name);
		if (!a->links[i])
			return -errno;
	}
	return 0;
}

void ptk_agg_destroy(struct ptk_bpf_run *r)
{
	struct ptk_agg *a = r->priv;

	for (int i = 0; i < AGG_NPROGS; i++) {
		bpf_link__destroy(a->links[i]);
		a->links[i] = NULL;
	}
	ptk_sym_free(a->sym);
	a->sym = NULL;
}

/* ---- the maps read back ---- */

/* One entry of the counts or hists map. */
struct entry {
	struct agg_key k;
	struct agg_count n;
	struct agg_hist h;
};

/* Printable: a string key's bytes that are not become '.'. */
static char *printable(const __u8 *b, size_t len)
{
	char *s = xcalloc(1, len + 1);

	memcpy(s, b, len);
	for (char *c = s; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '.';
	return s;
}

/* The key values of entry e into w (stacks apart: decode_stacks). */
static void decode_keys(const struct ptk_agg *a, const struct entry *e, struct ptk_agg_row *w)
{
	for (int i = 0; i < a->nkeys; i++) {
		const struct agg_field *f = &a->keys[i].f;
		const __u8 *b = e->k.b + f->kofs;
		s64 x;

		switch (f->src) {
		case AGG_SRC_ARRAY:
		case AGG_SRC_DATALOC:
		case AGG_SRC_PTRSTR:
		case AGG_SRC_COMM:
			w->str[i] = printable(b, f->len);
			w->v[i] = PTK_S(w->str[i]);
			break;
		case AGG_SRC_KSTACK:
			break;
		default:
			memcpy(&x, b, 8);
			w->v[i] = a->keys[i].col.type == PTK_V_S64 ? PTK_I(x) : PTK_U((u64)x);
		}
	}
}

/* One kernel stack key of a row: its stack map id, its addresses, and where it goes. */
struct kstack {
	s64 id;
	int depth; /* ptk_bpf_stack_read(): frames, or -errno */
	u64 ips[STACK_DEPTH];
	struct ptk_agg_row *w;
	int key;
};

/* The kernel stacks of the rows' stack keys, symbolized together: frames "func+0x1a", leaf
 * first (an address kallsyms does not know in hex), or one frame "[no stack: why]". */
static void decode_stacks(struct ptk_agg *a, int fd, const struct entry *e,
			  struct ptk_agg_row *rows, size_t n)
{
	size_t m = 0, max = MAX(n * a->nkeys, 1);
	struct kstack *ks = xmalloc(max * sizeof(*ks));
	struct ptk_sym_stack *st = xcalloc(max, sizeof(*st));

	for (size_t j = 0; j < n; j++)
		for (int i = 0; i < a->nkeys; i++) {
			struct kstack *k = &ks[m];

			if (!a->keys[i].col.stack)
				continue;
			memcpy(&k->id, e[j].k.b + a->keys[i].f.kofs, 8);
			k->depth = ptk_bpf_stack_read(fd, k->id, k->ips, STACK_DEPTH);
			k->w = &rows[j];
			k->key = i;
			st[m++] = (struct ptk_sym_stack){ .ips = k->ips, .n = MAX(k->depth, 0) };
		}
	if (!a->sym)
		a->sym = ptk_sym_new(NULL, 0); /* at the first stack: kallsyms read then */
	ptk_sym_stacks(a->sym, st, m, 0);
	for (size_t j = 0; j < m; j++) {
		int nf = st[j].nf > 0 ? st[j].nf : 1;
		char **fr = xcalloc(nf, sizeof(*fr)), buf[256];

		if (ks[j].depth <= 0) {
			snprintf(buf, sizeof(buf), "[no stack: %s]",
				 ks[j].id < 0 ? strerror((int)-ks[j].id) : "expired");
			fr[0] = xstrdup(buf);
		}
		for (int i = 0; ks[j].depth > 0 && i < st[j].nf; i++) {
			const struct ptk_frame *f = &st[j].f[i];

			if (f->func)
				ptk_frame_fmt(f, PTK_FRAME_OFFSET, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "0x%" PRIx64, f->addr);
			fr[i] = xstrdup(buf);
		}
		ptk_agg_row_set_stack(ks[j].w, ks[j].key, fr, nf);
	}
	ptk_sym_stacks_free(st, m);
	free(st);
	free(ks);
}

/* Clear the stack map for the next interval. Bounded: the programs may add stacks while they
 * are deleted. */
static void clear_stacks(const struct ptk_agg *a, int fd)
{
	__u32 k, left = a->stacks_max;

	while (left-- && bpf_map_get_next_key(fd, NULL, &k) == 0)
		if (bpf_map_delete_elem(fd, &k))
			break;
}

int ptk_agg_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct ptk_agg *a = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;
	bool hist = ptk_agg_is_hist(a->mode);
	int fd = ptk_bpf_map_fd(r, hist ? "hists" : "counts"), stacks = ptk_bpf_map_fd(r, "stacks");
	size_t n = 0;
	struct entry *e = hist ? PTK_BPF_MAP_ENTRIES(fd, struct entry, k, h, true, &n) :
				 PTK_BPF_MAP_ENTRIES(fd, struct entry, k, n, true, &n);
	struct ptk_agg_row *rows;

	if (!n && !a->nkeys)
		n = 1; /* no key: one row, a count of 0 is a result too (e[0] is zeroed) */
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (size_t j = 0; j < n; j++) {
		struct ptk_agg_row *w = &rows[j];

		decode_keys(a, &e[j], w);
		memcpy(w->tie, e[j].k.b, sizeof(w->tie));
		w->count = e[j].n.count;
		w->sum = e[j].n.sum;
		memcpy(w->slot, e[j].h.slot, sizeof(w->slot));
		w->below = e[j].h.below;
		w->above = e[j].h.above;
		w->hsum = e[j].h.sum;
	}
	if (a->has_stack)
		decode_stacks(a, stacks, e, rows, n);
	ptk_agg_rows_sort(&a->res, rows, n);

	ptk_sink_begin(sink);
	ptk_sink_meta_f64(sink, "interval_s", itv);
	ptk_sink_meta_str(sink, "event", a->desc);
	ptk_sink_meta_str(sink, "mode", ptk_agg_mode_name(a->mode));
	ptk_bpf_meta_loader(r);
	ptk_agg_print(sink, &a->res, rows, n);
	ptk_bpf_report_end(r);
	if (a->on_rows)
		a->on_rows(a, rows, n);
	if (!r->ctx->json)
		fputc('\n', sink->out);
	ptk_agg_rows_free(rows, n);
	free(rows);
	free(e);
	if (a->has_stack)
		clear_stacks(a, stacks);
	return 0;
}
