// SPDX-License-Identifier: GPL-2.0
/*
 * ptk agg: count, sum or histogram any tracepoint keyed by any of its fields, or the latency
 * between two tracepoints matched by a field, aggregated in the kernel by ONE precompiled
 * program configured through read-only data (no compiler at run time). Field offsets and
 * sizes come from the tracepoint's tracefs format file.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "source/bpf/agg.h" /* before the skeleton: it names struct agg_cfg */

#include "agg.skel.h"
/* the light skeleton (kernel-side loader: no vmlinux BTF parse), libbpf's as the fallback */
#include "agg_l.lskel.h"
#include "cmd/cmd.h"
#include "model/hist.h"
#include "source/bpf/runner.h"
#include "source/sym/sym.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk agg CAT:EVENT [--by KEY[,KEY...]] [--count | --sum FIELD | --hist FIELD\n"
	"               [--linear MIN,MAX,STEP]] [--filter 'FIELD OP VALUE'] [-T] [-P|-L]\n"
	"               [-p PID] [-t TID] [-c COMM] [--cgroup PATH] [--json] [interval [count]]\n"
	"       ptk agg --from CAT:EVENT:FIELD --to CAT:EVENT:FIELD [--hist] [--by KEY,...] [-m]\n"
	"               [--filter ...] [interval [count]]\n"
	"Aggregate any tracepoint in the kernel: event counts (default), the sum of a field, or a\n"
	"histogram of a field, per key; or the latency from --from to --to, matched where the\n"
	"two FIELD values are equal. Without an interval it reports once at Ctrl-C.\n"
	"  --by KEY,...       key columns (up to 4, 64 bytes): fields of the event (numeric,\n"
	"                     char[N], __data_loc strings, ARRAY[i] for an element), or comm, pid,\n"
	"                     tid, cgroup, kstack of the current task (write @comm, @pid ... when\n"
	"                     the event has a field of that name)\n"
	"  --count            events per key (default); --sum FIELD adds SUM and AVG of a field\n"
	"  --hist FIELD       log2 histogram of FIELD per key; --linear MIN,MAX,STEP: linear\n"
	"  --filter EXPR      only events where FIELD OP VALUE (OP: == != < <= > >=; strings: ==\n"
	"                     and !=); with --from/--to the field is looked up in --to first\n"
	"  --from/--to        latency histogram (usecs, -m msecs) between two tracepoints\n"
	"  -T                 timestamp each report; -P / -L add pid / tid to the key\n"
	"  -p PID, -t TID, -c COMM, --cgroup PATH   only events from this current task\n"
	"Histogram percentiles are bucket upper bounds.\n";

enum { OPT_BY = 0x2000, OPT_COUNT, OPT_SUM, OPT_HIST, OPT_LINEAR, OPT_FILTER, OPT_FROM, OPT_TO };

struct ev {
	char cat[128], name[128];
	char field[64]; /* --from/--to match field */
	struct ptk_tp_format fmt;
};

struct part {
	char name[64];
	struct agg_field f;
	enum ptk_vtype type;
};

struct priv {
	bool latency;
	int mode; /* enum agg_mode of the aggregating program */
	int nev;
	struct ev ev[AGG_NPROGS]; /* [0] the event or --from, [1] --to */
	int nkeys;
	struct part keys[AGG_MAX_KEYS];
	char val[64]; /* --sum / --hist field */
	struct agg_cfg cfg[AGG_NPROGS];
	s64 lin_min, lin_max, lin_step;
	struct bpf_link *links[AGG_NPROGS]; /* libbpf loader */
	int counts_fd, hists_fd, stacks_fd;
	u32 stacks_max;
	struct ptk_symbolizer *sym;
	bool has_kstack;
	/* the options as given, checked and resolved once all are read */
	const char *by, *from, *to, *filter, *linear;
	bool want_hist, want_sum, want_count;
	char event_desc[1024];
	/* the row table (text leaves kstack out: printed as frames above the row) */
	struct ptk_metric cols[AGG_MAX_KEYS + 3];
	struct ptk_table tab_json;
};

/* A row read from the maps: the key, its decoded column values, the aggregate. */
struct row {
	struct agg_key k;
	struct agg_count n;
	struct agg_hist h;
	u64 order;
	char *str[AGG_MAX_KEYS];
	struct ptk_val v[AGG_MAX_KEYS + 3];
};

/* ---- configuration: names -> fields ---- */

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

/*
 * Resolve NAME (a field of the event, FIELD[i] for an element of a numeric array, or a
 * pseudo key of the current task) into f and the column type. numeric: only numbers are
 * acceptable (--sum/--hist/--from/--to). Returns 0, or PTK_EXIT_USAGE after printing.
 */
static int resolve(struct ptk_ctx *ctx, const struct ev *e, const char *name, bool numeric,
		   struct agg_field *f, enum ptk_vtype *type)
{
	char base[64];
	const char *br = strchr(name, '[');
	const struct ptk_tp_field *tf;
	long idx = -1;

	memset(f, 0, sizeof(*f));
	if (name[0] != '@' &&
	    snprintf(base, sizeof(base), "%.*s", (int)(br ? br - name : (long)strlen(name)), name) >
		    0 &&
	    (tf = ptk_tp_field_find(&e->fmt, base))) {
		f->off = tf->offset;
		f->size = tf->size;
		f->is_signed = tf->is_signed;
		if (br) {
			char *end;
			int n = 0;
			const char *tb = strchr(tf->type, '[');
			idx = strtol(br + 1, &end, 10);
			if (!tf->is_array || end == br + 1 || strcmp(end, "]") || idx < 0 || !tb ||
			    (n = atoi(tb + 1)) <= 0 || idx >= n)
				return ptk_usage_error(ctx, "'%s': %s:%s field '%s' is %s", name,
						       e->cat, e->name, tf->name,
						       tf->is_array ? "indexed out of range" :
								      "not an array");
			f->size = tf->size / n;
			f->off = tf->offset + idx * f->size;
			if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
				return ptk_usage_error(ctx, "'%s': elements of %d bytes", name,
						       f->size);
			f->src = AGG_SRC_NUM;
			f->len = 8;
			*type = f->is_signed ? PTK_V_S64 : PTK_V_U64;
			return 0;
		}
		if (tf->is_data_loc || tf->is_array) {
			if (numeric)
				return ptk_usage_error(ctx, "%s:%s field '%s' (%s) is not a number",
						       e->cat, e->name, name, tf->type);
			if (!tf->is_data_loc && !is_char_type(tf->type))
				return ptk_usage_error(
					ctx, "%s:%s field '%s' is an array (%s): use %s[INDEX]",
					e->cat, e->name, name, tf->type, name);
			f->src = tf->is_data_loc ? AGG_SRC_DATALOC : AGG_SRC_ARRAY;
			f->len = tf->is_data_loc || tf->size > AGG_STR_MAX ? AGG_STR_MAX : tf->size;
			*type = PTK_V_STR;
			return 0;
		}
		if (!numeric && tf->size == 8 && strstr(tf->type, "char *")) {
			/* a string pointer (syscall arguments point into user memory) */
			f->src = AGG_SRC_PTRSTR;
			f->len = AGG_STR_MAX;
			f->user = !strcmp(e->cat, "syscalls");
			*type = PTK_V_STR;
			return 0;
		}
		if (tf->size != 1 && tf->size != 2 && tf->size != 4 && tf->size != 8)
			return ptk_usage_error(ctx,
					       "%s:%s field '%s' has %d bytes (1, 2, 4, 8 only)",
					       e->cat, e->name, name, tf->size);
		f->src = AGG_SRC_NUM;
		f->len = 8;
		*type = f->is_signed ? PTK_V_S64 : PTK_V_U64;
		return 0;
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
	{
		char list[1024] = "";
		size_t n = 0;
		for (int i = 0; i < e->fmt.nfields && n < sizeof(list) - 1; i++)
			if (strncmp(e->fmt.f[i].name, "common_", 7))
				n += snprintf(list + n, sizeof(list) - n, "%s%s", n ? "," : "",
					      e->fmt.f[i].name);
		return ptk_usage_error(ctx, "unknown %sfield '%s' for %s:%s (fields: %s)",
				       numeric ? "numeric " : "", name, e->cat, e->name,
				       n ? list : "none");
	}
}

/* "cat:event" (fieldp NULL) or "cat:event:field" into e. */
static int parse_event(struct ptk_ctx *ctx, const char *spec, struct ev *e, bool with_field)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t lc = c1 ? (size_t)(c1 - spec) : 0;
	size_t le = c1 ? (c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1)) : 0;

	if (!c1 || !lc || !le || lc >= sizeof(e->cat) || le >= sizeof(e->name) ||
	    (with_field != (c2 != NULL)) || (c2 && (!c2[1] || strlen(c2 + 1) >= sizeof(e->field))))
		return ptk_usage_error(ctx, "invalid tracepoint '%s' (want CATEGORY:EVENT%s)", spec,
				       with_field ? ":FIELD" : "");
	memcpy(e->cat, spec, lc);
	e->cat[lc] = '\0';
	memcpy(e->name, c1 + 1, le);
	e->name[le] = '\0';
	if (c2)
		snprintf(e->field, sizeof(e->field), "%s", c2 + 1);
	return 0;
}

/* Read the format file of e (mounting tracefs when needed). */
static int load_format(struct ptk_ctx *ctx, struct ev *e)
{
	int err = ptk_tp_format_read(e->cat, e->name, &e->fmt);

	if (err == -ENOENT || err == -EINVAL)
		return ptk_usage_error(ctx, "unknown tracepoint '%s:%s' (not in tracefs events/)",
				       e->cat, e->name);
	if (err) {
		ptk_err("cannot read the format of %s:%s: %s%s", e->cat, e->name, strerror(-err),
			err == -EPERM || err == -EACCES ? " (needs root to mount/read tracefs)" :
							  "");
		return PTK_EXIT_RUNTIME;
	}
	return 0;
}

static int parse_filter(struct ptk_ctx *ctx, struct priv *p, const char *expr)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
	static const int opv[] = {
		AGG_OP_EQ, AGG_OP_NE, AGG_OP_LE, AGG_OP_GE, AGG_OP_LT, AGG_OP_GT
	};
	struct agg_cfg *c = &p->cfg[p->latency ? 1 : 0];
	const char *at = NULL;
	char name[64], val[128];
	enum ptk_vtype type;
	int op = -1, rc;

	for (size_t i = 0; i < ARRAY_SIZE(ops) && !at; i++)
		if ((at = strstr(expr, ops[i])))
			op = i;
	if (!at)
		return ptk_usage_error(ctx,
				       "invalid --filter '%s' (want FIELD==VALUE, OP one of "
				       "== != < <= > >=)",
				       expr);
	const char *s = expr, *e = at;
	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	const char *v = at + strlen(ops[op]);
	while (isspace((unsigned char)*v))
		v++;
	size_t lv = strlen(v);
	while (lv && isspace((unsigned char)v[lv - 1]))
		lv--;
	if (e == s || (size_t)(e - s) >= sizeof(name) || !lv || lv >= sizeof(val))
		return ptk_usage_error(ctx, "invalid --filter '%s'", expr);
	snprintf(name, sizeof(name), "%.*s", (int)(e - s), s);
	snprintf(val, sizeof(val), "%.*s", (int)lv, v);
	/* with --from/--to: the --to event's field, else the --from event's */
	const struct ev *ev = &p->ev[p->latency ? 1 : 0];
	if (p->latency && !ptk_tp_field_find(&ev->fmt, name) &&
	    ptk_tp_field_find(&p->ev[0].fmt, name)) {
		ev = &p->ev[0];
		c = &p->cfg[0];
	}
	if ((rc = resolve(ctx, ev, name, false, &c->filter, &type)))
		return rc;
	if (c->filter.src == AGG_SRC_KSTACK)
		return ptk_usage_error(ctx, "--filter: kstack cannot be compared");
	c->has_filter = 1;
	c->filter_op = opv[op];
	if (type == PTK_V_STR) {
		if (c->filter_op != AGG_OP_EQ && c->filter_op != AGG_OP_NE)
			return ptk_usage_error(ctx, "--filter: strings compare with == or != only");
		if (lv >= 2 && (val[0] == '"' || val[0] == '\'') && val[lv - 1] == val[0]) {
			memmove(val, val + 1, lv - 2);
			val[lv - 2] = '\0';
		}
		if (strlen(val) >= c->filter.len && strlen(val) >= AGG_STR_MAX)
			return ptk_usage_error(ctx, "--filter: '%s' longer than the field", val);
		c->filter_str = 1;
		memset(c->filter_s, 0, sizeof(c->filter_s));
		memcpy(c->filter_s, val, strlen(val));
		return 0;
	}
	errno = 0;
	char *end;
	long long x = strtoll(val, &end, 0);
	if (errno == ERANGE || *end) {
		unsigned long long ux;
		errno = 0;
		ux = strtoull(val, &end, 0);
		if (errno || *end || val[0] == '-')
			return ptk_usage_error(ctx, "--filter: '%s' is not a number", val);
		x = (long long)ux;
	}
	c->filter_v = x;
	return 0;
}

static int add_key(struct ptk_ctx *ctx, struct priv *p, const char *name)
{
	const struct ev *e = &p->ev[p->latency ? 1 : 0];
	struct part *k;
	int rc, kofs = 0;

	if (p->nkeys == AGG_MAX_KEYS)
		return ptk_usage_error(ctx, "--by: at most %d keys", AGG_MAX_KEYS);
	if (!*name || strlen(name) >= sizeof(k->name))
		return ptk_usage_error(ctx, "--by: invalid key '%s'", name);
	k = &p->keys[p->nkeys];
	if ((rc = resolve(ctx, e, name, false, &k->f, &k->type)))
		return rc;
	if (p->nkeys)
		kofs = p->keys[p->nkeys - 1].f.kofs + ((p->keys[p->nkeys - 1].f.len + 7) & ~7u);
	if (kofs + ((k->f.len + 7) & ~7u) > AGG_KEY_SIZE)
		return ptk_usage_error(ctx, "--by: the key is larger than %d bytes", AGG_KEY_SIZE);
	k->f.kofs = kofs;
	snprintf(k->name, sizeof(k->name), "%s", name + (name[0] == '@'));
	if (k->f.src == AGG_SRC_KSTACK)
		p->has_kstack = true;
	p->nkeys++;
	return 0;
}

/* Build the kernel configuration and the row tables from the parsed options. */
static int configure(struct ptk_ctx *ctx, struct priv *p, const char *by,
		     const struct ptk_bpf_filter *flt)
{
	enum ptk_vtype type;
	int rc;

	for (int i = 0; i < p->nev; i++)
		if ((rc = load_format(ctx, &p->ev[i])))
			return rc;
	if (p->latency) {
		p->cfg[0].mode = AGG_LAT_START;
		p->cfg[1].mode = AGG_LAT_END;
		p->cfg[1].lat_div = flt->millis ? 1000000 : 1000;
		for (int i = 0; i < 2; i++) {
			if ((rc = resolve(ctx, &p->ev[i], p->ev[i].field, true, &p->cfg[i].val,
					  &type)))
				return rc;
			if (p->cfg[i].val.src != AGG_SRC_NUM && p->cfg[i].val.src != AGG_SRC_PID &&
			    p->cfg[i].val.src != AGG_SRC_TID)
				return ptk_usage_error(ctx, "--%s: match on a numeric field",
						       i ? "to" : "from");
		}
		/* pseudo keys as match fields go through the key reader in the kernel */
		for (int i = 0; i < 2; i++)
			if (p->cfg[i].val.src != AGG_SRC_NUM)
				return ptk_usage_error(ctx, "--%s: '%s' is not a field of %s:%s",
						       i ? "to" : "from", p->ev[i].field,
						       p->ev[i].cat, p->ev[i].name);
		snprintf(p->event_desc, sizeof(p->event_desc), "%s:%s:%s -> %s:%s:%s", p->ev[0].cat,
			 p->ev[0].name, p->ev[0].field, p->ev[1].cat, p->ev[1].name,
			 p->ev[1].field);
	} else {
		struct agg_cfg *c = &p->cfg[0];
		c->mode = p->mode;
		if (p->mode != AGG_COUNT &&
		    (rc = resolve(ctx, &p->ev[0], p->val, true, &c->val, &type)))
			return rc;
		if (c->val.src && c->val.src != AGG_SRC_NUM)
			return ptk_usage_error(ctx, "'%s' is not a numeric field of %s:%s", p->val,
					       p->ev[0].cat, p->ev[0].name);
		if (p->mode == AGG_LHIST) {
			c->lin_min = p->lin_min;
			c->lin_step = p->lin_step;
			c->lin_nslots = (p->lin_max - p->lin_min + p->lin_step - 1) / p->lin_step;
		}
		snprintf(p->event_desc, sizeof(p->event_desc), "%s:%s", p->ev[0].cat,
			 p->ev[0].name);
	}
	/* keys */
	if (by) {
		char *dup = strdup(by), *save = NULL;
		if (!dup)
			return PTK_EXIT_RUNTIME;
		for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			while (isspace((unsigned char)*t))
				t++;
			if ((rc = add_key(ctx, p, t))) {
				free(dup);
				return rc;
			}
		}
		free(dup);
	}
	if (flt->per_process && (rc = add_key(ctx, p, "@pid")))
		return rc;
	if (flt->per_thread && (rc = add_key(ctx, p, "@tid")))
		return rc;
	struct agg_cfg *kc = &p->cfg[p->latency ? 1 : 0];
	kc->nkeys = p->nkeys;
	for (int i = 0; i < p->nkeys; i++)
		kc->key[i] = p->keys[i].f;
	return 0;
}

/* The columns: the key parts, then COUNT (and SUM, AVG). Widths are set per report. */
static void build_tables(struct priv *p)
{
	int n = 0;

	for (int i = 0; i < p->nkeys; i++) {
		struct ptk_metric *m = &p->cols[n++];
		bool pseudo =
			p->keys[i].f.src >= AGG_SRC_COMM && p->keys[i].f.src <= AGG_SRC_KSTACK;
		m->name = p->keys[i].name;
		m->key = p->keys[i].name;
		m->unit = "";
		m->kind = PTK_GAUGE;
		m->type = p->keys[i].type;
		m->help = pseudo ? "the task current at the event" : "a field of the tracepoint";
		if (p->keys[i].f.src == AGG_SRC_KSTACK)
			m->help = "kernel stack, folded (outermost frame first, ';' separated)";
	}
	if (!p->latency && (p->mode == AGG_COUNT || p->mode == AGG_SUM)) {
		p->cols[n++] = (struct ptk_metric){ .name = "COUNT",
						    .key = "count",
						    .unit = "",
						    .type = PTK_V_U64,
						    .width = 8,
						    .help = "events in the interval" };
		if (p->mode == AGG_SUM) {
			p->cols[n++] = (struct ptk_metric){
				.name = "SUM",
				.key = "sum",
				.unit = "",
				.type = p->cfg[0].val.is_signed ? PTK_V_S64 : PTK_V_U64,
				.width = 12,
				.help = "sum of the field's values in the interval (wraps at 64 bits)"
			};
			p->cols[n++] = (struct ptk_metric){ .name = "AVG",
							    .key = "avg",
							    .unit = "",
							    .type = PTK_V_F64,
							    .width = 10,
							    .prec = 1,
							    .help = "SUM / COUNT" };
		}
	}
	p->tab_json = (struct ptk_table){ "rows", p->cols, n };
}

/* ---- the runner's ops ---- */

/* loaded as the light skeleton, or by libbpf (r->skel) on kernels before 5.17 */
PTK_BPF_LSKEL_FREE(agg_l_bpf)

/* Configuration and map sizes (unused maps shrunk: they are preallocated), for either
 * skeleton: MAPSZ(skel, map, entries) sizes one of its maps. */
#define AGG_SETUP(s, MAPSZ)                                                             \
	do {                                                                            \
		bool hist_ = p->latency || p->mode == AGG_HIST || p->mode == AGG_LHIST; \
		PTK_BPF_SET_FILTERS(s, &r->filter);                                     \
		memcpy((void *)(s)->rodata->cfg, p->cfg, sizeof(p->cfg));               \
		MAPSZ(s, counts, hist_ ? 1 : AGG_MAX_ENTRIES);                          \
		MAPSZ(s, hists, hist_ ? AGG_MAX_ENTRIES : 1);                           \
		MAPSZ(s, start, p->latency ? AGG_MAX_ENTRIES : 1);                      \
		MAPSZ(s, stacks, p->stacks_max);                                        \
	} while (0)

static int open_libbpf(struct ptk_bpf_run *r)
{
	struct agg_bpf *s = PTK_BPF_OPEN(r, agg_bpf);
	struct priv *p = r->priv;

	if (!s)
		return -errno;
#define LIBBPF_MAPSZ(sk, m, n) bpf_map__set_max_entries((sk)->maps.m, n)
	AGG_SETUP(s, LIBBPF_MAPSZ);
#undef LIBBPF_MAPSZ
	bpf_program__set_autoload(s->progs.agg_b, p->latency);
	return 0;
}

#define L_MAPSZ(sk, m, n) ((sk)->maps.m.max_entries = (n))
#define AGG_L_SETUP(s) AGG_SETUP(s, L_MAPSZ)
/* The light skeleton's attach leaves tracepoint programs alone: attach agg_a (and agg_b for
 * a latency) to the chosen events here. 0 or -errno. */
static int load_lskel(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct agg_l_bpf *l = NULL;
	int err = PTK_LSKEL_LOAD(agg_l_bpf, l, AGG_L_SETUP);

	if (err)
		return err;
	const struct ptk_bpf_tp tps[AGG_NPROGS] = {
		PTK_LSKEL_TP(l, agg_a, p->ev[0].cat, p->ev[0].name, false),
		PTK_LSKEL_TP(l, agg_b, p->ev[1].cat, p->ev[1].name, false),
	};
	/* (on failure, the fallback tries the same events with libbpf) */
	if ((err = ptk_bpf_attach_tps(tps, p->nev))) {
		agg_l_bpf__destroy(l);
		return err;
	}
	PTK_BPF_USE_LSKEL(r, agg_l_bpf, l);
	p->counts_fd = l->maps.counts.map_fd;
	p->hists_fd = l->maps.hists.map_fd;
	p->stacks_fd = l->maps.stacks.map_fd;
	r->lost_fd = l->maps.drops.map_fd;
	return 0;
}
#undef AGG_L_SETUP
#undef L_MAPSZ

static int agg_load(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	struct agg_bpf *s = r->skel;
	struct bpf_program *progs[AGG_NPROGS] = { s->progs.agg_a, s->progs.agg_b };
	int err;

	if ((err = agg_bpf__load(s)))
		return err;
	p->counts_fd = bpf_map__fd(s->maps.counts);
	p->hists_fd = bpf_map__fd(s->maps.hists);
	p->stacks_fd = bpf_map__fd(s->maps.stacks);
	r->lost_fd = bpf_map__fd(s->maps.drops);
	for (int i = 0; i < p->nev; i++) {
		p->links[i] = bpf_program__attach_tracepoint(progs[i], p->ev[i].cat, p->ev[i].name);
		if (!p->links[i])
			return -errno;
	}
	return 0;
}

static void agg_destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	for (int i = 0; i < AGG_NPROGS; i++) {
		bpf_link__destroy(p->links[i]);
		p->links[i] = NULL;
	}
	ptk_sym_free(p->sym);
	p->sym = NULL;
}

/* ---- reading and printing ---- */

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			*s = '.';
}

/* The kernel stack of id as frames (leaf first) into ips; returns the depth. */
static int read_stack(struct ptk_bpf_run *r, s64 id, u64 *ips)
{
	struct priv *p = r->priv;
	__u32 k = id;
	int n = 0;

	if (id < 0 || bpf_map_lookup_elem(p->stacks_fd, &k, ips))
		return 0;
	while (n < 127 && ips[n])
		n++;
	return n;
}

/* "func+0xoff" of a kernel address (the shared symbolizer, kallsyms), or its hex value. */
static const char *kframe(struct priv *p, u64 addr, char *buf, size_t size)
{
	struct ptk_frame f;

	if (!p->sym)
		p->sym = ptk_sym_new(NULL, 0); /* at the first stack: kallsyms read then */
	if (ptk_sym_kernel(p->sym, addr, &f))
		snprintf(buf, size, "0x%" PRIx64, addr);
	else
		ptk_frame_fmt(&f, PTK_FRAME_OFFSET, buf, size);
	return buf;
}

static char *folded_stack(struct ptk_bpf_run *r, s64 id)
{
	struct priv *p = r->priv;
	u64 ips[127];
	int n = read_stack(r, id, ips);
	size_t cap = 64, len = 0;
	char *out = malloc(cap), sym[256];

	if (!out)
		return NULL;
	out[0] = '\0';
	if (!n) {
		snprintf(out, cap, "[no stack: %s]", id < 0 ? strerror((int)-id) : "expired");
		return out;
	}
	for (int i = n - 1; i >= 0; i--) {
		kframe(p, ips[i], sym, sizeof(sym));
		size_t l = strlen(sym) + 2;
		if (len + l >= cap) {
			char *x = realloc(out, cap = (cap + l) * 2);
			if (!x)
				break;
			out = x;
		}
		len += snprintf(out + len, cap - len, "%s%s", len ? ";" : "", sym);
	}
	return out;
}

static void print_frames(struct ptk_bpf_run *r, s64 id)
{
	struct priv *p = r->priv;
	u64 ips[127];
	int n = read_stack(r, id, ips);
	char sym[256];

	if (!n)
		printf("    [no stack: %s]\n", id < 0 ? strerror((int)-id) : "expired");
	for (int i = 0; i < n; i++)
		printf("    %s\n", kframe(p, ips[i], sym, sizeof(sym)));
}

static void decode_row(struct ptk_bpf_run *r, struct row *w)
{
	struct priv *p = r->priv;

	for (int i = 0; i < p->nkeys; i++) {
		const struct agg_field *f = &p->keys[i].f;
		const __u8 *b = w->k.b + f->kofs;
		s64 x;
		switch (f->src) {
		case AGG_SRC_ARRAY:
		case AGG_SRC_DATALOC:
		case AGG_SRC_PTRSTR:
		case AGG_SRC_COMM:
			w->str[i] = calloc(1, f->len + 1);
			if (w->str[i]) {
				memcpy(w->str[i], b, f->len);
				sanitize(w->str[i]);
			}
			w->v[i] = w->str[i] ? PTK_S(w->str[i]) : PTK_NA;
			break;
		case AGG_SRC_KSTACK:
			memcpy(&x, b, 8);
			w->str[i] = folded_stack(r, x);
			w->v[i] = w->str[i] ? PTK_S(w->str[i]) : PTK_NA;
			break;
		default:
			memcpy(&x, b, 8);
			w->v[i] = p->keys[i].type == PTK_V_S64 ? PTK_I(x) : PTK_U((u64)x);
		}
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? 1 : -1;
	return memcmp(&x->k, &y->k, sizeof(x->k));
}

/*
 * Take every entry of the map out (lookup and delete, so an interval's counts go to the
 * next interval rather than being lost between read and clear). Returns the rows or NULL.
 */
static void clear_stacks(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int fd = p->stacks_fd;
	__u32 k, left = p->stacks_max;

	/* bounded: the programs may add stacks while they are deleted */
	while (left-- && bpf_map_get_next_key(fd, NULL, &k) == 0)
		if (bpf_map_delete_elem(fd, &k))
			break;
}

static void fit_widths(struct priv *p, struct row *rows, size_t n)
{
	for (int i = 0; i < p->nkeys; i++) {
		int w = strlen(p->cols[i].name);
		for (size_t j = 0; j < n; j++) {
			char buf[256];
			if (p->keys[i].f.src == AGG_SRC_KSTACK)
				break;
			int l = strlen(
				ptk_metric_fmt(&p->cols[i], &rows[j].v[i], buf, sizeof(buf)));
			if (l > w)
				w = l;
		}
		p->cols[i].width = p->cols[i].type == PTK_V_STR ? -w : w;
	}
}

/* Text values of one row without the kstack columns. */
static void text_vals(struct priv *p, const struct row *w, struct ptk_val *out, int ncols)
{
	int nt = 0;

	for (int i = 0; i < ncols; i++)
		if (!(i < p->nkeys && p->keys[i].f.src == AGG_SRC_KSTACK))
			out[nt++] = w->v[i];
}

static void print_key_frames(struct ptk_bpf_run *r, const struct row *w)
{
	struct priv *p = r->priv;

	for (int i = 0; i < p->nkeys; i++)
		if (p->keys[i].f.src == AGG_SRC_KSTACK) {
			s64 x;
			memcpy(&x, w->k.b + p->keys[i].f.kofs, 8);
			print_frames(r, x);
		}
}

static void report_counts(struct ptk_bpf_run *r, struct row *rows, size_t n)
{
	struct priv *p = r->priv;
	struct ptk_sink *s = &r->ctx->sink;
	struct ptk_metric tcols[AGG_MAX_KEYS + 3];
	struct ptk_table ttab = { "rows", tcols, 0 };
	int nk = p->nkeys;

	for (size_t j = 0; j < n; j++) {
		struct row *w = &rows[j];
		w->v[nk] = PTK_U(w->n.count);
		if (p->mode == AGG_SUM) {
			bool sg = p->cfg[0].val.is_signed;
			double sum = sg ? (double)w->n.sum : (double)(u64)w->n.sum;
			w->v[nk + 1] = sg ? PTK_I(w->n.sum) : PTK_U((u64)w->n.sum);
			w->v[nk + 2] = w->n.count ? PTK_F(sum / w->n.count) : PTK_NA;
		}
	}
	fit_widths(p, rows, n);
	for (int i = 0; i < p->tab_json.ncols; i++)
		if (!(i < nk && p->keys[i].f.src == AGG_SRC_KSTACK))
			tcols[ttab.ncols++] = p->cols[i];
	if (r->ctx->json) {
		ptk_sink_table_begin(s, &p->tab_json, false, NULL);
		for (size_t j = 0; j < n; j++)
			ptk_sink_row(s, NULL, rows[j].v);
		ptk_sink_table_end(s);
		return;
	}
	ptk_sink_table_begin(s, &ttab, !p->has_kstack, NULL);
	for (size_t j = 0; j < n; j++) {
		struct ptk_val tv[AGG_MAX_KEYS + 3];
		if (p->has_kstack) {
			print_key_frames(r, &rows[j]);
			/* the remaining key columns and COUNT under their titles */
			ptk_sink_table_begin(s, &ttab, true, NULL);
		}
		text_vals(p, &rows[j], tv, p->tab_json.ncols);
		ptk_sink_row(s, NULL, tv);
		if (p->has_kstack)
			putchar('\n');
	}
	ptk_sink_table_end(s);
}

static void fill_hist(const struct priv *p, const struct agg_hist *ah, struct ptk_hist *h,
		      const char *unit)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->slot, ah->slot, sizeof(h->slot));
	h->unit = unit;
	if (!p->latency && p->mode == AGG_LHIST) {
		h->linear = true;
		h->lin_min = p->lin_min;
		h->lin_step = p->lin_step;
	}
}

static void report_hists(struct ptk_bpf_run *r, struct row *rows, size_t n)
{
	struct priv *p = r->priv;
	const char *unit = p->latency ? (r->filter.millis ? "msecs" : "usecs") : p->val;
	struct json_object *arr = r->ctx->json ? json_object_new_array() : NULL;
	struct ptk_table ktab = { "keys", p->cols, p->nkeys };

	for (size_t j = 0; j < n; j++) {
		struct row *w = &rows[j];
		struct ptk_hist h;
		fill_hist(p, &w->h, &h, unit);
		if (arr) {
			struct json_object *o = ptk_json_row(&ktab, w->v);
			json_object_object_add(o, "hist", ptk_hist_json(&h));
			json_object_object_add(o, "below", json_object_new_uint64(w->h.below));
			json_object_object_add(o, "above", json_object_new_uint64(w->h.above));
			json_object_object_add(o, "sum", json_object_new_int64(w->h.sum));
			json_object_array_add(arr, o);
			continue;
		}
		if (p->nkeys) {
			bool first = true;
			putchar('\n');
			print_key_frames(r, w);
			for (int i = 0; i < p->nkeys; i++) {
				char buf[256];
				if (p->keys[i].f.src == AGG_SRC_KSTACK)
					continue;
				printf("%s%s = %s", first ? "" : ", ", p->cols[i].name,
				       ptk_metric_fmt(&p->cols[i], &w->v[i], buf, sizeof(buf)));
				first = false;
			}
			if (!first)
				putchar('\n');
		}
		ptk_hist_print(stdout, &h);
		if (w->h.below || w->h.above) {
			if (p->mode == AGG_LHIST)
				printf("outside the histogram: %" PRIu64 " below %" PRId64
				       ", %" PRIu64 " at or above %" PRId64 "\n",
				       (u64)w->h.below, p->lin_min, (u64)w->h.above,
				       p->lin_min + (s64)p->cfg[0].lin_nslots * p->lin_step);
			else
				printf("outside the histogram: %" PRIu64 " negative values\n",
				       (u64)w->h.below);
		}
	}
	if (arr)
		ptk_sink_meta_json(&r->ctx->sink, "histograms", arr);
}

static int agg_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct priv *p = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;
	bool hist = p->latency || p->mode == AGG_HIST || p->mode == AGG_LHIST;
	int fd = hist ? p->hists_fd : p->counts_fd;
	static const char *const modes[] = { "count", "sum", "hist", "linear", "", "latency" };
	size_t n = 0;
	struct row *rows = hist ? PTK_BPF_MAP_ENTRIES(fd, struct row, k, h, true, &n) :
				  PTK_BPF_MAP_ENTRIES(fd, struct row, k, n, true, &n);
	if (!n && !p->nkeys)
		n = 1; /* no key: one row, a count of 0 is a result too (drain() left it zeroed) */
	for (size_t j = 0; j < n; j++) {
		decode_row(r, &rows[j]);
		if (hist) {
			struct ptk_hist h;
			fill_hist(p, &rows[j].h, &h, "");
			rows[j].order = ptk_hist_total(&h) + rows[j].h.below + rows[j].h.above;
		} else {
			/* signed sums: flipping the sign bit keeps their order as unsigned */
			u64 sum = (u64)rows[j].n.sum ^ (p->cfg[0].val.is_signed ? 1ull << 63 : 0);
			rows[j].order = p->mode == AGG_SUM ? sum : rows[j].n.count;
		}
	}
	qsort(rows, n, sizeof(*rows), cmp_rows);

	ptk_sink_begin(sink);
	ptk_sink_meta_f64(sink, "interval_s", itv);
	ptk_sink_meta_str(sink, "event", p->event_desc);
	ptk_sink_meta_str(sink, "mode", modes[p->latency ? AGG_LAT_END : p->mode]);
	ptk_bpf_meta_loader(r);
	if (hist)
		report_hists(r, rows, n);
	else
		report_counts(r, rows, n);
	if (r->ctx->json)
		ptk_sink_meta_json(sink, "observer", ptk_bpf_observer_json(r));
	ptk_sink_end(sink);
	if (!r->ctx->json)
		putchar('\n');
	for (size_t j = 0; j < n; j++)
		for (int k = 0; k < AGG_MAX_KEYS; k++)
			free(rows[j].str[k]);
	free(rows);
	if (p->has_kstack)
		clear_stacks(r);
	(void)i;
	(void)last;
	return 0;
}

/* "--hist FIELD" (separate word) -> "--hist=FIELD": --hist alone is valid with --from/--to,
 * so its argument is optional; a field name never holds ':' and is never a number. */
static void join_hist_arg(int argc, char **argv, char **out, int *outc)
{
	static char buf[256];
	int n = 0;

	for (int i = 0; i < argc; i++) {
		double d;
		if (!strcmp(argv[i], "--hist") && i + 1 < argc && argv[i + 1][0] != '-' &&
		    !strchr(argv[i + 1], ':') && ptk_parse_double(argv[i + 1], &d) &&
		    strlen(argv[i + 1]) < sizeof(buf) - 8) {
			snprintf(buf, sizeof(buf), "--hist=%s", argv[i + 1]);
			out[n++] = buf;
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--"))
			while (i < argc)
				out[n++] = argv[i++];
		else
			out[n++] = argv[i];
	}
	out[n] = NULL;
	*outc = n;
}

static int parse_linear(struct ptk_ctx *ctx, struct priv *p, const char *arg)
{
	long long a, b, c;
	char tail;

	if (sscanf(arg, "%lld,%lld,%lld%c", &a, &b, &c, &tail) != 3 || c <= 0 || b <= a)
		return ptk_usage_error(ctx,
				       "invalid --linear '%s' (want MIN,MAX,STEP, MAX > MIN, "
				       "STEP > 0)",
				       arg);
	/* in 128 bits: MAX - MIN + STEP overflows 64 for extreme bounds */
	if (((__int128)b - a + c - 1) / c > AGG_SLOTS)
		return ptk_usage_error(ctx, "--linear %s: more than %d buckets", arg, AGG_SLOTS);
	p->lin_min = a;
	p->lin_max = b;
	p->lin_step = c;
	return 0;
}

static int agg_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;

	switch (c) {
	case OPT_BY:
		p->by = arg;
		return 0;
	case OPT_COUNT:
		p->want_count = true;
		return 0;
	case OPT_SUM:
	case OPT_HIST:
		if (c == OPT_SUM)
			p->want_sum = true;
		else
			p->want_hist = true;
		if (arg && snprintf(p->val, sizeof(p->val), "%s", arg) >= (int)sizeof(p->val))
			return ptk_usage_error(r->ctx, "field name too long");
		return 0;
	case OPT_LINEAR:
		p->linear = arg;
		return 0;
	case OPT_FILTER:
		p->filter = arg;
		return 0;
	case OPT_FROM:
		p->from = arg;
		return 0;
	case OPT_TO:
		p->to = arg;
		return 0;
	}
	return -1;
}

/* The combinations, and the tracepoint operand (or --from/--to). */
static int agg_parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_ctx *ctx = r->ctx;
	int rc;

	if (p->want_sum + p->want_hist + p->want_count > 1)
		return ptk_usage_error(ctx, "--count, --sum and --hist are exclusive");
	if (p->from || p->to) {
		if (!p->from || !p->to)
			return ptk_usage_error(ctx, "--from and --to go together");
		if (p->want_sum || p->want_count || p->linear || p->val[0])
			return ptk_usage_error(ctx,
					       "--from/--to give a latency histogram: only --hist");
		p->latency = true;
		p->nev = 2;
		if ((rc = parse_event(ctx, p->from, &p->ev[0], true)) ||
		    (rc = parse_event(ctx, p->to, &p->ev[1], true)))
			return rc;
		return 0;
	}
	if (optind >= argc)
		return ptk_usage_error(ctx, "missing the tracepoint (CATEGORY:EVENT)");
	p->nev = 1;
	if ((rc = parse_event(ctx, argv[optind++], &p->ev[0], false)))
		return rc;
	if (p->want_hist && !p->val[0])
		return ptk_usage_error(ctx, "--hist needs a FIELD (except with --from/--to)");
	p->mode = p->want_sum ? AGG_SUM : p->want_hist ? AGG_HIST : AGG_COUNT;
	if (p->linear) {
		if (!p->want_hist)
			return ptk_usage_error(ctx, "--linear goes with --hist FIELD");
		if ((rc = parse_linear(ctx, p, p->linear)))
			return rc;
		p->mode = AGG_LHIST;
	}
	return 0;
}

/* The fields, from the tracepoints' formats (tracefs), and the tables. */
static int agg_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	int rc;

	/* signals from here on stop cleanly (tracefs may be mounted while reading formats) */
	if ((rc = ptk_ctx_ready(r->ctx)))
		return rc;
	if ((rc = configure(r->ctx, p, p->by, &r->filter)) ||
	    (p->filter && (rc = parse_filter(r->ctx, p, p->filter))) ||
	    (r->ctx->stop && (rc = PTK_BPF_DONE))) {
		ptk_tracefs_release();
		return rc;
	}
	build_tables(p);
	p->stacks_max = p->has_kstack ? 4096 : 1;
	/* stacks that could not be captured are still counted (under "[no stack]") */
	r->lost_keys = ((1u << AGG_DROP_NR) - 1) & ~(1u << AGG_DROP_STACK);
	snprintf(r->banner, sizeof(r->banner), "Tracing %.200s%s... Hit Ctrl-C to end.",
		 p->event_desc, p->latency ? " latency" : "");
	return 0;
}

static const struct option agg_longopts[] = {
	{ "by", required_argument, NULL, OPT_BY },
	{ "count", no_argument, NULL, OPT_COUNT },
	{ "sum", required_argument, NULL, OPT_SUM },
	{ "hist", optional_argument, NULL, OPT_HIST },
	{ "linear", required_argument, NULL, OPT_LINEAR },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "agg",
	.usage = usage,
	.longopts = agg_longopts,
	.common = PTK_BPF_OPT_ALL,
	.operands = PTK_BPF_INTERVAL_COUNT,
	.opt = agg_opt,
	.parsed = agg_parsed,
	.prepare = agg_prepare,
	.load_lskel = load_lskel,
	.open = open_libbpf,
	.load = agg_load,
	.report = agg_report,
	.destroy = agg_destroy,
	.needs_tracefs = true,
};

int cmd_agg(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;
	char **av = calloc(argc + 1, sizeof(*av));
	int ac, rc;

	if (!av)
		return PTK_EXIT_RUNTIME;
	memset(&p, 0, sizeof(p));
	join_hist_arg(argc, argv, av, &ac);
	rc = ptk_bpf_main(ctx, &ops, &p, ac, av);
	free(av);
	return rc;
}
