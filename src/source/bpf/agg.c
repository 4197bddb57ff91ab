// SPDX-License-Identifier: GPL-2.0
/* The aggregation engine (agg.h): specs and names into the programs' configurations, their
 * load and attach for the runner, and their maps and events read back. */
#include "source/bpf/agg.h"

#include <assert.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agg.skel.h"
/* the light skeleton of the tracepoint programs (kernel-side loader: no vmlinux BTF parse),
 * libbpf's skeleton as the fallback and for every other probe */
#include "agg_tp_l.lskel.h"
#include "source/ptrace/syscalls.h"
#include "source/sym/sym.h"

/* The model's names of operators are the program's numbers. */
static_assert((int)PTK_AGG_EQ == AGG_OP_EQ && (int)PTK_AGG_NE == AGG_OP_NE &&
		      (int)PTK_AGG_LT == AGG_OP_LT && (int)PTK_AGG_LE == AGG_OP_LE &&
		      (int)PTK_AGG_GT == AGG_OP_GT && (int)PTK_AGG_GE == AGG_OP_GE,
	      "agg operators");
static_assert(AGG_MAX_KEYS == PTK_AGG_MAX_KEYS && AGG_SLOTS == PTK_HIST_SLOTS &&
		      AGG_KEY_SIZE == sizeof(((struct ptk_agg_row *)0)->tie),
	      "agg sizes");
static_assert(AGG_EVENT_HDR == offsetof(struct agg_event, data), "agg event header");

#define STACK_DEPTH 127 /* frames of a stack map entry (agg.bpf.c stacks) */
#define COOKIE(prog, target) ((u64)(prog) << 20 | (target))
#define COOKIE_PROG(c) ((int)((c) >> 20))
#define COOKIE_TARGET(c) ((size_t)((c) & ((1u << 20) - 1)))

#define fail ptk_fail /* err[errsz], returning rc */

#define USAGE(a, ...) fail((a)->err, sizeof((a)->err), -EINVAL, __VA_ARGS__)

/* ---- the request ---- */

int ptk_agg_probe_parse(const char *spec, bool with_field, struct ptk_probe *p, char *err,
			size_t errsz)
{
	return ptk_probe_parse(spec, with_field, p, err, errsz);
}

/* --match "F" or "F1,F2": the match of the entry (i = 0) or the return (i = 1). */
static const char *match_part(const char *match, int i, char *buf, size_t size)
{
	const char *comma;

	if (!match)
		return NULL;
	comma = strchr(match, ',');
	if (!comma)
		return match;
	if (i == 0)
		snprintf(buf, size, "%.*s", (int)(comma - match), match);
	else
		snprintf(buf, size, "%s", comma + 1);
	return buf;
}

/* The program's aggregation of a request's mode. */
static enum agg_mode bpf_mode(enum ptk_agg_mode mode)
{
	return mode == PTK_AGG_LHIST			       ? AGG_LHIST :
	       mode == PTK_AGG_HIST || mode == PTK_AGG_LATENCY ? AGG_HIST :
								 AGG_COUNT;
}

/* ptk agg's request changed since ptk_agg_parse (its mode, its value): its specs again. */
static void cli_refresh(struct ptk_agg *a)
{
	struct ptk_agg_spec *s = &a->specs[a->nspecs - 1];

	s->mode = bpf_mode(a->mode);
	if (a->nspecs == 1)
		s->value = a->mode == PTK_AGG_COUNT ? NULL : a->value;
	else
		s->value = a->value && *a->value ? a->value : "lat";
}

/* ptk agg's own request as specs. */
static int cli_specs(struct ptk_agg *a)
{
	static char ret_probe[300], mbuf[2][PTK_AGG_NAME_MAX];
	struct ptk_agg_spec *s = a->specs;
	enum agg_mode m = bpf_mode(a->mode);
	bool pair = a->latency || a->from || a->to;

	memset(a->specs, 0, sizeof(a->specs));
	if (!pair) {
		s[0] = (struct ptk_agg_spec){ .probe = a->event, .mode = m, .value = a->value };
		if (a->mode == PTK_AGG_COUNT)
			s[0].value = NULL;
		a->nspecs = 1;
		return 0;
	}
	if (a->latency) {
		struct ptk_probe p;
		int rk;

		if (ptk_probe_parse(a->latency, false, &p, a->err, sizeof(a->err)))
			return -EINVAL;
		rk = ptk_probe_return_kind(p.kind);
		if (rk < 0)
			return USAGE(
				a,
				"--latency %s: a %s has no return (use --from and --to for two "
				"probes)",
				a->latency, ptk_probe_kind_name(p.kind));
		/* the same target at its return: the part after "KIND:" */
		snprintf(ret_probe, sizeof(ret_probe), "%s:%s", ptk_probe_kind_name(rk),
			 strchr(a->latency, ':') + 1);
		if (p.func_off)
			return USAGE(a, "--latency %s: +OFFSET is no function entry", a->latency);
		s[0] = (struct ptk_agg_spec){
			.probe = a->latency, .role = AGG_ROLE_ENTRY, .mode = AGG_NONE, .frame = true
		};
		s[1] = (struct ptk_agg_spec){
			.probe = ret_probe, .role = AGG_ROLE_RETURN, .mode = m, .frame = true
		};
	} else {
		s[0] = (struct ptk_agg_spec){ .probe = a->from,
					      .role = AGG_ROLE_ENTRY,
					      .mode = AGG_NONE };
		s[1] = (struct ptk_agg_spec){ .probe = a->to, .role = AGG_ROLE_RETURN, .mode = m };
	}
	s[0].match = match_part(a->match, 0, mbuf[0], sizeof(mbuf[0]));
	s[1].match = match_part(a->match, 1, mbuf[1], sizeof(mbuf[1]));
	s[1].value = a->value && *a->value ? a->value : "lat";
	a->nspecs = 2;
	return 0;
}

int ptk_agg_parse(struct ptk_agg *a)
{
	int rc;

	if (!a->nspecs || a->cli) {
		a->cli = true;
		if ((rc = cli_specs(a)))
			return rc;
	}
	if (a->nspecs > PTK_AGG_MAX_SPECS)
		return USAGE(a, "more than %d probes", PTK_AGG_MAX_SPECS);
	a->nprobes = a->nspecs;
	for (int i = 0; i < a->nspecs; i++) {
		const struct ptk_agg_spec *s = &a->specs[i];
		bool paired = s->role != AGG_ROLE_ONE;

		if (!s->probe)
			return USAGE(a, "a probe is missing");
		if ((rc = ptk_probe_parse(s->probe, paired, &a->probe[i], a->err, sizeof(a->err))))
			return rc;
		if (s->role == AGG_ROLE_ENTRY &&
		    (i + 1 >= a->nspecs || a->specs[i + 1].role != AGG_ROLE_RETURN))
			return USAGE(a, "%s: an entry probe without its return", s->probe);
		if (s->role == AGG_ROLE_RETURN && (!i || a->specs[i - 1].role != AGG_ROLE_ENTRY))
			return USAGE(a, "%s: a return probe without its entry", s->probe);
		if (s->role == AGG_ROLE_RETURN && !s->match && !a->specs[i - 1].match &&
		    !a->probe[i].field[0] != !a->probe[i - 1].field[0])
			return USAGE(a,
				     "%s -> %s: both probes name the field they match on "
				     "(CAT:EVENT:FIELD), or neither (the thread)",
				     a->specs[i - 1].probe, s->probe);
		a->prog_spec[i] = i;
		a->prog_layout[i] = 0;
	}
	return 0;
}

/* ---- names ---- */

/* The properties of the probe and of the task current at the event. */
static const struct pseudo {
	const char *name;
	enum agg_src src;
	unsigned len;
	enum ptk_vtype type;
} pseudos[] = {
	{ "comm", AGG_SRC_COMM, 16, PTK_V_STR },    { "pid", AGG_SRC_PID, 8, PTK_V_U64 },
	{ "tid", AGG_SRC_TID, 8, PTK_V_U64 },	    { "cgroup", AGG_SRC_CGROUP, 8, PTK_V_U64 },
	{ "uid", AGG_SRC_UID, 8, PTK_V_U64 },	    { "cpu", AGG_SRC_CPU, 8, PTK_V_U64 },
	{ "probe", AGG_SRC_PROBE, 8, PTK_V_STR },   { "syscall", AGG_SRC_SYSCALL, 8, PTK_V_STR },
	{ "kstack", AGG_SRC_KSTACK, 8, PTK_V_STR }, { "ustack", AGG_SRC_USTACK, 16, PTK_V_STR },
	{ "lat", AGG_SRC_LAT, 8, PTK_V_U64 },
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

static void set_num(struct agg_field *f, enum ptk_vtype *type)
{
	f->src = AGG_SRC_NUM;
	f->len = 8;
	*type = f->is_signed ? PTK_V_S64 : PTK_V_U64;
}

/* FIELD[i] of the numeric array tf. */
static int array_element(const struct ptk_probe *p, const struct ptk_tp_field *tf, const char *name,
			 const char *br, struct agg_field *f, enum ptk_vtype *type, char *err,
			 size_t errsz)
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
	f->base = AGG_BASE_CTX;
	f->deref = 1;
	f->size = tf->size / n;
	f->off = tf->offset + idx * f->size;
	if (!valid_size(f->size))
		return fail(err, errsz, -EINVAL, "'%s': elements of %d bytes", name, f->size);
	set_num(f, type);
	return 0;
}

/* A field of a tracepoint's record. */
static int record_field(const struct ptk_probe *p, const struct ptk_tp_field *tf, const char *name,
			bool numeric, struct agg_field *f, enum ptk_vtype *type, char *err,
			size_t errsz)
{
	f->base = AGG_BASE_CTX;
	f->deref = 1;
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
	set_num(f, type);
	return 0;
}

/* x86_64 argument registers, in order, and the return register (pt_regs offsets). */
static int arg_reg(int i)
{
	static const char *const regs[] = { "rdi", "rsi", "rdx", "rcx", "r8", "r9" };

	return i >= 0 && i < (int)ARRAY_SIZE(regs) ? ptk_pt_regs_offset(regs[i], NULL) : -1;
}

/* "argN": N, or -1. */
static int arg_index(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "arg", 3) || !isdigit((unsigned char)name[3]))
		return -1;
	n = strtol(name + 3, &end, 10);
	return *end || n > 63 ? -1 : (int)n;
}

/* A BTF type without typedefs and qualifiers; *user when a "user" type tag was passed. */
static const struct btf_type *btf_plain(const struct btf *b, u32 id, u32 *out, bool *user)
{
	const struct btf_type *t = btf__type_by_id(b, id);

	while (t && (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) ||
		     btf_is_restrict(t) || btf_is_type_tag(t))) {
		if (btf_is_type_tag(t) && user) {
			const char *tag = btf__name_by_offset(b, t->name_off);
			*user |= tag && !strcmp(tag, "user");
		}
		id = t->type;
		t = btf__type_by_id(b, id);
	}
	if (out)
		*out = id;
	return t;
}

/* Is t a char (for char * and char[N])? */
static bool btf_is_char(const struct btf *b, const struct btf_type *t)
{
	const char *n = t ? btf__name_by_offset(b, t->name_off) : NULL;

	return t && btf_is_int(t) &&
	       (btf_int_encoding(t) & BTF_INT_CHAR || (n && strstr(n, "char")));
}

/* The member called name of struct/union t (anonymous members searched), its offset added to
 * *off; its type id, or 0. */
static u32 btf_member(const struct btf *b, const struct btf_type *t, const char *name, int32_t *off,
		      bool *bitfield)
{
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(b, m->name_off);
		u32 bits = btf_member_bit_offset(t, i);

		if (mn && *mn && !strcmp(mn, name)) {
			*bitfield = btf_member_bitfield_size(t, i) || bits % 8;
			*off += bits / 8;
			return m->type;
		}
		if (!mn || !*mn) {
			const struct btf_type *sub = btf_plain(b, m->type, NULL, NULL);
			int32_t o = *off + bits / 8;
			u32 id;

			if (sub && (btf_is_struct(sub) || btf_is_union(sub)) &&
			    (id = btf_member(b, sub, name, &o, bitfield))) {
				*off = o;
				return id;
			}
		}
	}
	return 0;
}

/* A value of BTF type id into f (which holds how to reach it): a number, a char * string, a
 * char[N]; f->deref tells whether it is read (at f->off) or is the value itself. */
static int btf_value(const struct ptk_probe *p, u32 id, const char *name, bool numeric,
		     struct agg_field *f, enum ptk_vtype *type, char *err, size_t errsz)
{
	const struct btf *b = p->btf;
	const struct btf_type *t = btf_plain(b, id, &id, NULL);

	if (!t)
		return fail(err, errsz, -EINVAL, "'%s': no type in BTF", name);
	if (btf_is_array(t)) {
		const struct btf_array *ar = btf_array(t);
		const struct btf_type *el = btf_plain(b, ar->type, NULL, NULL);

		if (!btf_is_char(b, el) || numeric || !f->deref)
			return fail(err, errsz, -EINVAL, "'%s' is an array: use a member", name);
		f->src = AGG_SRC_ARRAY;
		f->len = ar->nelems < AGG_STR_MAX ? ar->nelems : AGG_STR_MAX;
		*type = PTK_V_STR;
		return 0;
	}
	if (btf_is_ptr(t)) {
		const struct btf_type *to = btf_plain(b, t->type, NULL, NULL);

		f->size = 8;
		if (!numeric && btf_is_char(b, to)) {
			f->src = AGG_SRC_PTRSTR;
			f->len = AGG_STR_MAX;
			*type = PTK_V_STR;
			return 0;
		}
		set_num(f, type);
		return 0;
	}
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) {
		f->size = t->size;
		f->is_signed = btf_is_int(t) ? !!(btf_int_encoding(t) & BTF_INT_SIGNED) : 0;
		if (!valid_size(f->size))
			return fail(err, errsz, -EINVAL, "'%s' has %u bytes", name, t->size);
		set_num(f, type);
		return 0;
	}
	return fail(err, errsz, -EINVAL, "'%s' is a %s: name one of its members (->member)", name,
		    btf_is_struct(t) ? "struct" :
		    btf_is_union(t)  ? "union" :
				       "type with no value");
}

/* A kernel function's argument (by name or argN), retval, and NAME->member.member... */
static int btf_field(const struct ptk_probe *p, const char *name, bool numeric, struct agg_field *f,
		     enum ptk_vtype *type, char *err, size_t errsz)
{
	char base[64];
	size_t lb = strcspn(name, "-.");
	const char *rest = name + lb;
	const struct btf_type *t;
	bool user = false;
	u32 id = 0;
	int ai = -1;

	if (!p->btf || p->wildcard)
		return fail(err, errsz, -EINVAL,
			    "'%s': the functions of a pattern have no arguments in common", name);
	snprintf(base, sizeof(base), "%.*s", (int)lb, name);
	if (!strcmp(base, "retval")) {
		if (p->kind != PTK_PROBE_FEXIT)
			return fail(err, errsz, -EINVAL, "'retval' is known at fexit: only");
		if (!p->ret_type)
			return fail(err, errsz, -EINVAL, "%s returns void", p->func);
		f->base = AGG_BASE_RET;
		id = p->ret_type;
	} else {
		for (int i = 0; i < p->nargs; i++)
			if (!strcmp(p->args[i].name, base))
				ai = i;
		if (ai < 0 && (ai = arg_index(base)) >= p->nargs)
			ai = -1;
		if (ai < 0)
			return -ENOENT;
		f->base = AGG_BASE_ARG;
		f->idx = ai;
		id = p->args[ai].type_id;
	}
	/* the chain: "->m" through a pointer, ".m" within the struct reached */
	f->deref = 0;
	while (*rest) {
		bool arrow = !strncmp(rest, "->", 2), bitfield = false;
		size_t lm;
		char mem[64];

		if (!arrow && *rest != '.')
			return fail(err, errsz, -EINVAL, "'%s': expected -> or .", name);
		rest += arrow ? 2 : 1;
		lm = strcspn(rest, "-.");
		snprintf(mem, sizeof(mem), "%.*s", (int)lm, rest);
		rest += lm;
		t = btf_plain(p->btf, id, &id, &user);
		if (arrow) {
			if (!t || !btf_is_ptr(t))
				return fail(err, errsz, -EINVAL, "'%s': -> on no pointer", name);
			/* the pointer read so far becomes the value followed */
			if (f->deref) {
				if (f->nderef == AGG_MAX_DEREF)
					return fail(err, errsz, -EINVAL,
						    "'%s': more than %d pointers", name,
						    AGG_MAX_DEREF + 1);
				f->doff[f->nderef++] = f->off;
			}
			f->deref = 1;
			f->off = 0;
			t = btf_plain(p->btf, t->type, &id, &user);
		} else if (!f->deref) {
			return fail(err, errsz, -EINVAL, "'%s': . on a value (use ->)", name);
		}
		if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
			return fail(err, errsz, -EINVAL, "'%s': %s is no struct", name, mem);
		if (!(id = btf_member(p->btf, t, mem, &f->off, &bitfield)))
			return fail(err, errsz, -EINVAL, "'%s': no member '%s'", name, mem);
		if (bitfield)
			return fail(err, errsz, -EINVAL, "'%s': %s is a bit field", name, mem);
	}
	f->user = user;
	return btf_value(p, id, name, numeric, f, type, err, errsz);
}

/* A user function's or kprobe's arguments, retval; a USDT probe's arguments. */
static int regs_field(const struct ptk_probe *p, int layout, const char *name, struct agg_field *f,
		      enum ptk_vtype *type, char *err, size_t errsz)
{
	bool ret = ptk_probe_is_return(p->kind);
	int ai = arg_index(name);

	f->user = p->kind != PTK_PROBE_KPROBE && p->kind != PTK_PROBE_KRETPROBE;
	if (!strcmp(name, "retval")) {
		if (!ret)
			return fail(err, errsz, -EINVAL,
				    "'retval' is known at a return probe only (%s)", p->spec);
		f->base = AGG_BASE_REG;
		f->idx = ptk_pt_regs_offset("rax", NULL);
		f->size = 8;
		f->is_signed = 1;
		set_num(f, type);
		return 0;
	}
	if (ai < 0)
		return -ENOENT;
	if (p->kind == PTK_PROBE_USDT) {
		const struct ptk_usdt_layout *ly = p->usdt ? &p->usdt[layout] : NULL;
		const struct ptk_usdt_arg *ua;

		if (!ly || ai >= ly->nargs)
			return fail(err, errsz, -EINVAL, "'%s': %s has %d argument%s (%s)", name,
				    p->spec, ly ? ly->nargs : 0, ly && ly->nargs == 1 ? "" : "s",
				    ly ? ly->args : "");
		ua = &ly->arg[ai];
		f->size = ua->size;
		f->is_signed = ua->is_signed;
		if (ua->kind == PTK_USDT_IMM) {
			f->base = AGG_BASE_IMM;
			f->imm = ua->val;
		} else {
			f->base = AGG_BASE_REG;
			f->idx = ua->reg;
			f->deref = ua->kind == PTK_USDT_MEM;
			f->off = (int32_t)ua->val;
		}
		set_num(f, type);
		return 0;
	}
	if (ret)
		return fail(err, errsz, -EINVAL,
			    "'%s' is not known at a return probe (%s): the registers are "
			    "reused; read it at the entry",
			    name, p->spec);
	if (arg_reg(ai) < 0)
		return fail(err, errsz, -EINVAL, "'%s': arguments arg0..arg5 (in registers)", name);
	f->base = AGG_BASE_REG;
	f->idx = arg_reg(ai);
	f->size = 8;
	set_num(f, type);
	return 0;
}

/* The probe's own value called name (not a property): 0, -ENOENT when it has none of that
 * name, or -EINVAL. */
static int probe_field(const struct ptk_probe *p, int layout, const char *name, bool numeric,
		       struct agg_field *f, enum ptk_vtype *type, char *err, size_t errsz)
{
	const struct ptk_tp_field *tf;
	char base[PTK_AGG_NAME_MAX];
	const char *br;

	switch (p->kind) {
	case PTK_PROBE_TP:
		if (!p->have_fmt)
			return -ENOENT;
		br = strchr(name, '[');
		snprintf(base, sizeof(base), "%.*s", br ? (int)(br - name) : (int)strlen(name),
			 name);
		if (!(tf = ptk_tp_field_find(&p->fmt, base)))
			return -ENOENT;
		return br ? array_element(p, tf, name, br, f, type, err, errsz) :
			    record_field(p, tf, name, numeric, f, type, err, errsz);
	case PTK_PROBE_FENTRY:
	case PTK_PROBE_FEXIT:
		return btf_field(p, name, numeric, f, type, err, errsz);
	default:
		return regs_field(p, layout, name, f, type, err, errsz);
	}
}

/* The names a probe has, for an error. */
static void field_names(const struct ptk_probe *p, int layout, char *list, size_t size)
{
	size_t n = 0;

	list[0] = '\0';
	if (p->kind == PTK_PROBE_TP) {
		for (int i = 0; i < p->fmt.nfields && n < size - 1; i++)
			if (strncmp(p->fmt.f[i].name, "common_", 7))
				n += snprintf(list + n, size - n, "%s%s", n ? "," : "",
					      p->fmt.f[i].name);
	} else if (p->kind == PTK_PROBE_FENTRY || p->kind == PTK_PROBE_FEXIT) {
		for (int i = 0; i < p->nargs && n < size - 1; i++)
			n += snprintf(list + n, size - n, "%s%s", n ? "," : "", p->args[i].name);
		if (p->kind == PTK_PROBE_FEXIT && n < size - 1)
			snprintf(list + n, size - n, "%sretval", n ? "," : "");
	} else if (p->kind == PTK_PROBE_USDT) {
		int na = p->usdt ? p->usdt[layout].nargs : 0;
		for (int i = 0; i < na && n < size - 1; i++)
			n += snprintf(list + n, size - n, "%sarg%d", n ? "," : "", i);
	} else {
		snprintf(list, size, "%s", ptk_probe_is_return(p->kind) ? "retval" : "arg0..arg5");
	}
	if (!list[0])
		snprintf(list, size, "none");
}

/* A cast "(TYPE)": its size and signedness, or a string (char *). 0 or -EINVAL. */
static int parse_cast(const char *t, int *size, bool *sg, bool *str)
{
	static const struct {
		const char *name;
		int size;
		bool sg;
	} casts[] = {
		{ "u8", 1, false },
		{ "u16", 2, false },
		{ "u32", 4, false },
		{ "u64", 8, false },
		{ "s8", 1, true },
		{ "s16", 2, true },
		{ "int32_t", 4, true },
		{ "s64", 8, true },
		{ "char", 1, true },
		{ "short", 2, true },
		{ "int", 4, true },
		{ "long", 8, true },
		{ "unsigned char", 1, false },
		{ "unsigned short", 2, false },
		{ "unsigned int", 4, false },
		{ "unsigned", 4, false },
		{ "unsigned long", 8, false },
		{ "size_t", 8, false },
		{ "ssize_t", 8, true },
		{ "pid_t", 4, true },
		{ "void *", 8, false },
		{ "uint8_t", 1, false },
		{ "uint16_t", 2, false },
		{ "uint32_t", 4, false },
		{ "uint64_t", 8, false },
		{ "int8_t", 1, true },
		{ "int16_t", 2, true },
		{ "int32_t", 4, true },
		{ "int64_t", 8, true },
	};
	char buf[64];
	size_t n = strlen(t);

	while (n && isspace((unsigned char)t[n - 1]))
		n--;
	while (isspace((unsigned char)*t))
		t++, n--;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, t);
	*str = !strcmp(buf, "char *") || !strcmp(buf, "const char *") || !strcmp(buf, "char*");
	if (*str)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(casts); i++)
		if (!strcmp(buf, casts[i].name)) {
			*size = casts[i].size;
			*sg = casts[i].sg;
			return 0;
		}
	return -EINVAL;
}

/* The number f names becomes an address: the 8 bytes there are the value ("*NAME"). */
static int add_deref(struct agg_field *f, bool user, const char *name, char *err, size_t errsz)
{
	if (f->src != AGG_SRC_NUM)
		return fail(err, errsz, -EINVAL, "'%s': * of no number", name);
	if (f->deref) {
		if (f->nderef == AGG_MAX_DEREF)
			return fail(err, errsz, -EINVAL, "'%s': too many pointers", name);
		f->doff[f->nderef++] = f->off;
	}
	f->deref = 1;
	f->off = 0;
	f->size = 8;
	f->is_signed = 0;
	f->user |= user;
	return 0;
}

int ptk_agg_field_layout(const struct ptk_probe *p, int layout, const char *spec, bool numeric,
			 struct agg_field *f, enum ptk_vtype *type, char *err, size_t errsz)
{
	char buf[256], list[512];
	const char *name = buf;
	int csize = 0, rc;
	bool csg = false, cstr = false, has_cast = false, want_str = false, star = false;
	size_t n;

	memset(f, 0, sizeof(*f));
	while (isspace((unsigned char)*spec))
		spec++;
	snprintf(buf, sizeof(buf), "%s", spec);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	/* (TYPE)NAME, str(NAME), *NAME */
	if (buf[0] == '(') {
		char *close = strchr(buf, ')');
		if (!close)
			return fail(err, errsz, -EINVAL, "'%s': no ')'", spec);
		*close = '\0';
		if (parse_cast(buf + 1, &csize, &csg, &cstr))
			return fail(err, errsz, -EINVAL,
				    "'%s': unknown cast (u8..u64, s8..s64, int, long, unsigned, "
				    "char *...)",
				    spec);
		has_cast = true;
		name = close + 1;
		while (isspace((unsigned char)*name))
			name++;
	}
	if (!strncmp(name, "str(", 4) && name[strlen(name) - 1] == ')') {
		want_str = true;
		name += 4;
		((char *)name)[strlen(name) - 1] = '\0';
	}
	if (name[0] == '*') {
		star = true;
		name++;
	}
	if ((want_str || cstr) && numeric)
		return fail(err, errsz, -EINVAL, "'%s' is a string, not a number", spec);
	if (!*name)
		return fail(err, errsz, -EINVAL, "invalid name '%s'", spec);
	rc = name[0] == '@' ? -ENOENT :
			      probe_field(p, layout, name, numeric && !want_str && !cstr, f, type,
					  err, errsz);
	if (rc == -ENOENT) {
		const char *pn = name + (name[0] == '@');

		memset(f, 0, sizeof(*f));
		for (size_t i = 0; i < ARRAY_SIZE(pseudos); i++) {
			if (strcmp(pseudos[i].name, pn))
				continue;
			f->src = pseudos[i].src;
			f->len = pseudos[i].len;
			*type = pseudos[i].type;
			if (numeric && (f->src == AGG_SRC_KSTACK || f->src == AGG_SRC_USTACK ||
					f->src == AGG_SRC_COMM))
				break;
			if (f->src == AGG_SRC_SYSCALL && p->kind == PTK_PROBE_TP && p->have_fmt) {
				/* a syscall tracepoint has the number in its record */
				const struct ptk_tp_field *tf = ptk_tp_field_find(&p->fmt, "id");
				if (!tf || strcmp(p->cat, "raw_syscalls"))
					tf = ptk_tp_field_find(&p->fmt, "__syscall_nr");
				if (tf && record_field(p, tf, pn, true, f, type, err, errsz) == 0) {
					f->len = 8;
					*type = PTK_V_STR;
				}
			}
			rc = 0;
			goto apply;
		}
		field_names(p, layout, list, sizeof(list));
		if (p->kind == PTK_PROBE_TP)
			return fail(err, errsz, -EINVAL,
				    "unknown %sfield '%s' for %s:%s (fields: %s)",
				    numeric ? "numeric " : "", name, p->cat, p->name, list);
		return fail(err, errsz, -EINVAL, "unknown %sname '%s' for %s (it has: %s)",
			    numeric ? "numeric " : "", name, p->spec, list);
	}
	if (rc)
		return rc;
apply:
	if (star) {
		if ((rc = add_deref(f,
				    ptk_probe_has_regs(p->kind) && p->kind != PTK_PROBE_KPROBE &&
					    p->kind != PTK_PROBE_KRETPROBE,
				    spec, err, errsz)))
			return rc;
		set_num(f, type);
	}
	if (has_cast && !cstr) {
		if (f->src != AGG_SRC_NUM)
			return fail(err, errsz, -EINVAL, "'%s': a cast of no number", spec);
		f->size = csize;
		f->is_signed = csg;
		set_num(f, type);
	}
	if (want_str || cstr) {
		if (f->src == AGG_SRC_PTRSTR || f->src == AGG_SRC_ARRAY ||
		    f->src == AGG_SRC_DATALOC)
			return 0;
		if (f->src != AGG_SRC_NUM || f->size != 8)
			return fail(err, errsz, -EINVAL, "'%s': str() of no pointer", spec);
		f->src = AGG_SRC_PTRSTR;
		f->len = AGG_STR_MAX;
		f->user |= ptk_probe_has_regs(p->kind) && p->kind != PTK_PROBE_KPROBE &&
			   p->kind != PTK_PROBE_KRETPROBE;
		if (p->kind == PTK_PROBE_TP && !strcmp(p->cat, "syscalls"))
			f->user = 1;
		*type = PTK_V_STR;
	}
	return 0;
}

int ptk_agg_field(const struct ptk_probe *p, const char *name, bool numeric, struct agg_field *f,
		  enum ptk_vtype *type, char *err, size_t errsz)
{
	return ptk_agg_field_layout(p, 0, name, numeric, f, type, err, errsz);
}

/* ---- the configuration ---- */

/* The programs of spec s: [*first, *end). */
static void spec_progs(const struct ptk_agg *a, int s, int *first, int *end)
{
	*first = -1;
	*end = -1;
	for (int j = 0; j < a->nprobes; j++)
		if (a->prog_spec[j] == s) {
			if (*first < 0)
				*first = j;
			*end = j + 1;
		}
}

/* Resolve name for program j: at its own probe, else (a return) at its entry's programs,
 * each of which gets *fe (its own resolution), with *at_entry set. */
static int resolve(struct ptk_agg *a, int j, const char *name, bool numeric, struct agg_field *f,
		   struct agg_field fe[PTK_AGG_MAX_PROGS], enum ptk_vtype *type, bool *at_entry)
{
	int s = a->prog_spec[j], e0, e1, rc;
	char err2[sizeof(a->err)];

	*at_entry = false;
	rc = ptk_agg_field_layout(&a->probe[j], a->prog_layout[j], name, numeric, f, type, a->err,
				  sizeof(a->err));
	if (!rc || a->specs[s].role != AGG_ROLE_RETURN)
		return rc;
	/* lat and retval are the return's; anything else the entry may have */
	memcpy(err2, a->err, sizeof(err2));
	spec_progs(a, s - 1, &e0, &e1);
	for (int e = e0; e < e1; e++) {
		enum ptk_vtype t2;

		if (ptk_agg_field_layout(&a->probe[e], a->prog_layout[e], name, numeric, &fe[e],
					 &t2, a->err, sizeof(a->err))) {
			memcpy(a->err, err2, sizeof(err2));
			return -EINVAL;
		}
		*type = t2;
	}
	/* the caller sees the value as the entry has it (its kind, size, length) */
	*f = fe[e0];
	f->at_entry = 1;
	*at_entry = true;
	return 0;
}

/* The value v of the return program j, read at the entry: each entry program keeps the value
 * it starts from in a stash slot, the return follows its pointers from there. */
static int stash_value(struct ptk_agg *a, int j, struct agg_field *v,
		       struct agg_field fe[PTK_AGG_MAX_PROGS])
{
	int s = a->prog_spec[j], e0, e1, slot = -1;

	spec_progs(a, s - 1, &e0, &e1);
	for (int e = e0; e < e1; e++) {
		struct agg_cfg *ec = &a->cfg[e];
		struct agg_field st = fe[e];

		if (ec->nstash == AGG_NSTASH)
			return USAGE(a, "more than %d values read at the entry %s", AGG_NSTASH,
				     a->specs[s - 1].probe);
		if (slot >= 0 && slot != (int)ec->nstash)
			return USAGE(a, "the entry probes keep their values apart");
		slot = ec->nstash;
		/* the entry keeps the start (a register, an argument); the rest at the return */
		if (st.src == AGG_SRC_NUM || st.src == AGG_SRC_PTRSTR || st.src == AGG_SRC_ARRAY) {
			st.src = AGG_SRC_NUM;
			st.len = 8;
			st.nderef = 0;
			st.deref = 0;
			st.size = 8;
			st.pow2 = 0;
			st.scale = 0;
			st.is_signed = 0;
		}
		ec->stash[ec->nstash++] = st;
	}
	if (fe[e0].src == AGG_SRC_NUM) {
		struct agg_field r = fe[e0];

		r.base = AGG_BASE_STASH;
		r.idx = slot;
		*v = r;
	} else {
		*v = (struct agg_field){
			.src = AGG_SRC_NUM, .base = AGG_BASE_STASH, .idx = slot, .size = 8, .len = 8
		};
		v->is_signed = fe[e0].src == AGG_SRC_LAT;
	}
	return 0;
}

/* A value (val, val2, track) of program j, wherever it is read. */
static int config_value(struct ptk_agg *a, int j, const char *name, struct agg_field *v,
			enum ptk_vtype *type)
{
	struct agg_field fe[PTK_AGG_MAX_PROGS];
	bool at_entry;
	int rc = resolve(a, j, name, true, v, fe, type, &at_entry);

	if (rc)
		return rc;
	if (v->src != AGG_SRC_NUM && v->src != AGG_SRC_LAT && v->src != AGG_SRC_PID &&
	    v->src != AGG_SRC_TID && v->src != AGG_SRC_UID && v->src != AGG_SRC_CPU &&
	    v->src != AGG_SRC_CGROUP && v->src != AGG_SRC_SYSCALL)
		return USAGE(a, "'%s' is not a number of %s", name, a->probe[j].spec);
	if (v->src == AGG_SRC_LAT && a->specs[a->prog_spec[j]].role != AGG_ROLE_RETURN)
		return USAGE(a, "'lat' is the time from an entry to its return: a pair only");
	if (v->src == AGG_SRC_LAT)
		v->imm = a->lat_unit_ns;
	return at_entry ? stash_value(a, j, v, fe) : 0;
}

/* The key parts: their offsets from the first aggregating program, the same for all. */
static int add_key(struct ptk_agg *a, int j, int i, const char *name, u32 *kofs)
{
	struct agg_cfg *c = &a->cfg[j];
	struct agg_field f, fe[PTK_AGG_MAX_PROGS];
	struct ptk_agg_key *k = &a->keys[i];
	enum ptk_vtype type;
	bool at_entry, first = !k->col.name[0];
	int rc, s = a->prog_spec[j];

	if (!*name || strlen(name) >= sizeof(k->col.name))
		return USAGE(a, "--by: invalid key '%s'", name);
	if ((rc = resolve(a, j, name, false, &f, fe, &type, &at_entry)))
		return rc;
	if (f.src == AGG_SRC_LAT)
		return USAGE(a, "--by: lat is a value, not a key");
	f.kofs = *kofs;
	if (*kofs + ((f.len + 7) & ~7u) > AGG_KEY_SIZE)
		return USAGE(a, "--by: the key is larger than %d bytes", AGG_KEY_SIZE);
	*kofs += (f.len + 7) & ~7u;
	if (first) {
		memset(k, 0, sizeof(*k));
		k->f = f;
		snprintf(k->col.name, sizeof(k->col.name), "%s", name + (name[0] == '@'));
		k->col.type = type;
		k->col.task = f.src >= AGG_SRC_COMM && f.src != AGG_SRC_LAT;
		k->col.stack = f.src == AGG_SRC_KSTACK || f.src == AGG_SRC_USTACK;
		k->syscall =
			f.src == AGG_SRC_SYSCALL || (f.src == AGG_SRC_NUM && type == PTK_V_STR);
		if (k->syscall)
			k->f.src = AGG_SRC_SYSCALL;
		a->has_stack |= k->col.stack;
		a->has_ustack |= f.src == AGG_SRC_USTACK;
	} else if (k->f.len != f.len || k->col.type != type) {
		return USAGE(a, "--by %s: not the same kind of value in %s as in the other probes",
			     name, a->probe[j].spec);
	}
	if (!at_entry) {
		c->key[c->nkeys++] = f;
		return 0;
	}
	{
		int e0, e1;

		spec_progs(a, s - 1, &e0, &e1);
		for (int e = e0; e < e1; e++) {
			fe[e].kofs = f.kofs;
			fe[e].at_entry = 1;
			a->cfg[e].key[a->cfg[e].nkeys++] = fe[e];
		}
		f = fe[e0];
		f.at_entry = 1;
		c->key[c->nkeys++] = f; /* the return skips it: the entry's key holds it */
	}
	return 0;
}

static int add_keys(struct ptk_agg *a, int j, const struct ptk_bpf_filter *flt)
{
	char **items = NULL;
	int rc = 0, n = 0, nk = 0;
	u32 kofs = 0;

	if (a->by) {
		items = ptk_agg_list_split(a->by, &n);
		for (int i = 0; i < n && !rc; i++) {
			if (nk == PTK_AGG_MAX_KEYS)
				rc = USAGE(a, "--by: at most %d keys", PTK_AGG_MAX_KEYS);
			else
				rc = add_key(a, j, nk++, items[i], &kofs);
		}
		ptk_agg_list_free(items);
		if (rc)
			return rc;
	}
	if (flt->per_process || flt->per_thread) {
		if (nk == PTK_AGG_MAX_KEYS)
			return USAGE(a, "--by: at most %d keys", PTK_AGG_MAX_KEYS);
		if ((rc = add_key(a, j, nk++, flt->per_process ? "@pid" : "@tid", &kofs)))
			return rc;
	}
	a->nkeys = nk;
	a->key_bytes = MAX(a->key_bytes, kofs);
	return 0;
}

/* A syscall's number for a filter written by name ("syscall == read"). */
static bool syscall_number(const char *name, s64 *v)
{
	int nr = ptk_syscall_lookup(name);

	if (nr < 0)
		return false;
	*v = nr;
	return true;
}

/* The filters of program j: the request's and its spec's conditions. */
static int add_filters(struct ptk_agg *a, int j)
{
	const char *exprs[2] = { a->filter, a->specs[a->prog_spec[j]].filter };
	int s = a->prog_spec[j];

	for (int x = 0; x < 2; x++) {
		struct ptk_agg_filter fl[AGG_MAX_FILTERS];
		int n;

		if (!exprs[x])
			continue;
		if ((n = ptk_agg_filters_parse(exprs[x], fl, AGG_MAX_FILTERS, a->err,
					       sizeof(a->err))) < 0)
			return n;
		for (int i = 0; i < n; i++) {
			struct agg_field f, fe[PTK_AGG_MAX_PROGS];
			struct agg_filter out = { 0 };
			char val[PTK_AGG_VALUE_MAX];
			enum ptk_vtype type;
			bool at_entry;
			int rc, e0 = j, e1 = j + 1;

			if ((rc = resolve(a, j, fl[i].field, false, &f, fe, &type, &at_entry)))
				return rc;
			if (f.src == AGG_SRC_KSTACK || f.src == AGG_SRC_USTACK)
				return USAGE(a, "--filter: stacks cannot be compared");
			if (at_entry)
				spec_progs(a, s - 1, &e0, &e1);
			for (int e = e0; e < e1; e++) {
				struct agg_cfg *c = &a->cfg[e];
				struct agg_field ff = at_entry ? fe[e] : f;
				bool num = type != PTK_V_STR || ff.src == AGG_SRC_SYSCALL ||
					   ff.src == AGG_SRC_PROBE ||
					   (ff.src == AGG_SRC_NUM && type == PTK_V_STR);

				if (c->nfilters == AGG_MAX_FILTERS)
					return USAGE(a, "--filter: more than %d conditions",
						     AGG_MAX_FILTERS);
				out.f = ff;
				out.f.at_entry = at_entry;
				out.op = fl[i].op;
				if (num) {
					s64 v = 0;
					char sv[PTK_AGG_VALUE_MAX];
					bool named =
						(ff.src == AGG_SRC_SYSCALL ||
						 (ff.src == AGG_SRC_NUM && type == PTK_V_STR)) &&
						!ptk_agg_filter_str(&fl[i], sv, sizeof(sv), a->err,
								    sizeof(a->err)) &&
						syscall_number(sv, &v);
					if (!named && (rc = ptk_agg_filter_num(&fl[i], &v, a->err,
									       sizeof(a->err))))
						return rc;
					out.v = v;
				} else {
					if ((rc = ptk_agg_filter_str(&fl[i], val, sizeof(val),
								     a->err, sizeof(a->err))))
						return rc;
					if (strlen(val) >= ff.len && strlen(val) >= AGG_STR_MAX)
						return USAGE(a,
							     "--filter: '%s' longer than the field",
							     val);
					out.is_str = 1;
					memcpy(out.s, val, strlen(val));
					if (out.f.len > AGG_STR_MAX)
						out.f.len = AGG_STR_MAX;
				}
				c->filter[c->nfilters++] = out;
			}
		}
	}
	return 0;
}

/* The values of spec s's events: each at its offset in the event's data. */
static int add_events(struct ptk_agg *a, int j)
{
	int s = a->prog_spec[j], n = 0, rc = 0;
	char **items = ptk_agg_list_split(a->specs[s].ev ? a->specs[s].ev : "", &n);
	struct agg_cfg *c = &a->cfg[j];
	u32 ofs = 0;

	if (n > AGG_MAX_EVF)
		rc = USAGE(a, "%s: more than %d values in an event", a->specs[s].probe,
			   AGG_MAX_EVF);
	for (int i = 0; i < n && !rc; i++) {
		struct agg_field f, fe[PTK_AGG_MAX_PROGS];
		struct ptk_agg_evval *ev = &a->evv[s][i];
		const char *name = items[i];
		bool at_entry, after = name[0] == '+';
		enum ptk_vtype type;
		u32 len;

		/* "+V": a value the entry names, read at the return (an output string) */
		if ((rc = resolve(a, j, name + after, false, &f, fe, &type, &at_entry)))
			break;
		if (after && !at_entry) {
			rc = USAGE(a, "'%s': the return has it itself", name);
			break;
		}
		if (f.src == AGG_SRC_KSTACK || f.src == AGG_SRC_USTACK) {
			rc = USAGE(a, "'%s': stacks are keys, not event values", items[i]);
			break;
		}
		ev->named =
			f.src == AGG_SRC_PROBE ? PTK_AGG_EV_PROBE :
			f.src == AGG_SRC_SYSCALL || (f.src == AGG_SRC_NUM && type == PTK_V_STR) ?
						 PTK_AGG_EV_SYSCALL :
						 PTK_AGG_EV_PLAIN;
		if (ev->named)
			len = 8;
		else if (type == PTK_V_STR)
			len = f.src == AGG_SRC_ARRAY || f.src == AGG_SRC_COMM ?
				      MIN(f.len, (u32)AGG_EV_STR) :
				      AGG_EV_STR;
		else
			len = 8;
		if (ofs + len > AGG_EV_DATA) {
			rc = USAGE(a, "%s: the event's values pass %d bytes", a->specs[s].probe,
				   AGG_EV_DATA);
			break;
		}
		snprintf(ev->name, sizeof(ev->name), "%s", items[i]);
		ev->type = ev->named ? PTK_V_STR : type;
		ev->ofs = ofs;
		ev->len = len;
		if (f.src == AGG_SRC_LAT)
			f.imm = a->lat_unit_ns;
		if (at_entry && after) {
			struct agg_field v = fe[0];
			int e0, e1, slot;

			spec_progs(a, s - 1, &e0, &e1);
			if (fe[e0].base == AGG_BASE_CTX) {
				rc = USAGE(a, "'%s': a record's value is read where it is", name);
				break;
			}
			/* the entry keeps where the value starts, the return reads from there */
			v = fe[e0];
			v.src = AGG_SRC_NUM;
			if ((rc = stash_value(a, j, &v, fe)))
				break;
			slot = v.idx;
			f = fe[e0];
			f.base = AGG_BASE_STASH;
			f.idx = slot;
			f.at_entry = 0;
		} else if (at_entry) {
			int e0, e1;

			spec_progs(a, s - 1, &e0, &e1);
			for (int e = e0; e < e1; e++) {
				struct agg_cfg *ec = &a->cfg[e];

				fe[e].kofs = ofs;
				fe[e].at_entry = 1;
				if (!ev->named && type == PTK_V_STR)
					fe[e].len = len;
				ec->ev[ec->nev++] = fe[e];
			}
			/* the return has it in the entry's data: a place holder it skips */
			f = fe[e0];
			f.at_entry = 1;
		}
		f.kofs = ofs;
		if (!ev->named && type == PTK_V_STR)
			f.len = len;
		c->ev[c->nev++] = f;
		ofs += (len + 7) & ~7u;
	}
	a->nevv[s] = n;
	c->ev_size = ofs;
	ptk_agg_list_free(items);
	return rc;
}

/* The match values of a pair (a tracepoint's ":FIELD", --match, or the thread). */
static int add_match(struct ptk_agg *a, int j)
{
	const struct ptk_agg_spec *sp = &a->specs[a->prog_spec[j]];
	const struct ptk_probe *p = &a->probe[j];
	const char *m = sp->match ? sp->match : p->field[0] ? p->field : NULL;
	struct agg_cfg *c = &a->cfg[j];
	enum ptk_vtype type;
	int rc;

	c->match_frame = sp->frame && ptk_probe_has_regs(p->kind) && p->kind != PTK_PROBE_USDT;
	if (!m)
		return 0;
	if ((rc = ptk_agg_field_layout(p, a->prog_layout[j], m, true, &c->match, &type, a->err,
				       sizeof(a->err))))
		return rc;
	if (c->match.src != AGG_SRC_NUM && c->match.src != AGG_SRC_PID &&
	    c->match.src != AGG_SRC_TID)
		return USAGE(a, "--%s: match on a numeric field",
			     sp->role == AGG_ROLE_ENTRY ? "from" : "to");
	/* pseudo keys as match fields would go through the key reader in the kernel */
	if (c->match.src != AGG_SRC_NUM && p->kind == PTK_PROBE_TP)
		return USAGE(a, "--%s: '%s' is not a field of %s:%s",
			     sp->role == AGG_ROLE_ENTRY ? "from" : "to", m, p->cat, p->name);
	return 0;
}

/* What program j does: its mode, role, values. */
static int configure_prog(struct ptk_agg *a, int j, const struct ptk_bpf_filter *flt)
{
	const struct ptk_agg_spec *sp = &a->specs[a->prog_spec[j]];
	struct agg_cfg *c = &a->cfg[j];
	enum ptk_vtype type;
	int rc;

	c->mode = sp->mode;
	c->role = sp->role;
	c->sample = sp->sample;
	/* the task filters where the task is the one meant: the return of a pair (its entry too
	 * when it is the same thread) */
	c->task_filter = sp->role != AGG_ROLE_ENTRY || (!sp->match && !a->probe[j].field[0]);
	if (sp->role != AGG_ROLE_ONE && (rc = add_match(a, j)))
		return rc;
	if (sp->role == AGG_ROLE_ENTRY) {
		if (sp->mode == AGG_TRACK_DEL &&
		    (rc = config_value(a, j, sp->track, &c->track, &type)))
			return rc;
		return 0;
	}
	if (sp->mode == AGG_EVENT)
		return add_events(a, j);
	if (sp->mode == AGG_TRACK_ADD || sp->mode == AGG_TRACK_DEL) {
		if (!sp->track)
			return USAGE(a, "%s: no object to track", sp->probe);
		if ((rc = config_value(a, j, sp->track, &c->track, &type)))
			return rc;
	}
	if (sp->value && (rc = config_value(a, j, sp->value, &c->val, &type)))
		return rc;
	if (sp->value2 && (rc = config_value(a, j, sp->value2, &c->val2, &type)))
		return rc;
	c->val.pow2 = sp->value_pow2;
	c->val.scale = sp->value_scale;
	c->has_range = sp->has_range;
	c->vmin = sp->vmin;
	c->vmax = sp->vmax;
	if (sp->mode == AGG_LHIST) {
		c->lin_min = a->lin_min;
		c->lin_step = a->lin_step;
		c->lin_nslots = a->lin_nslots;
	}
	if ((sp->mode == AGG_HIST || sp->mode == AGG_LHIST) && !sp->value)
		return USAGE(a, "%s: a histogram of no value", sp->probe);
	(void)flt;
	return 0;
}

/* Does program j aggregate into the maps with a key (COUNT, HIST, LHIST, TRACK_ADD)? */
static bool keyed(const struct ptk_agg *a, int j)
{
	const struct ptk_agg_spec *sp = &a->specs[a->prog_spec[j]];

	return sp->role != AGG_ROLE_ENTRY && (sp->mode == AGG_COUNT || sp->mode == AGG_HIST ||
					      sp->mode == AGG_LHIST || sp->mode == AGG_TRACK_ADD);
}

/* The shape of the rows, from the keys and the mode. */
static void configure_rows(struct ptk_agg *a, const struct ptk_bpf_filter *flt)
{
	struct ptk_agg_result *res = &a->res;
	int j0 = 0;
	bool lat;

	while (j0 < a->nprobes - 1 && !keyed(a, j0))
		j0++;
	lat = a->cfg[j0].val.src == AGG_SRC_LAT;
	memset(res, 0, sizeof(*res));
	res->mode = a->mode;
	res->nkeys = a->nkeys;
	for (int i = 0; i < a->nkeys; i++)
		res->keys[i] = a->keys[i].col;
	res->sum_signed = a->cfg[j0].val.is_signed;
	res->lin_min = a->lin_min;
	res->lin_step = a->lin_step;
	res->lin_nslots = a->lin_nslots;
	res->unit = a->result_unit ? a->result_unit :
		    lat		   ? (a->lat_unit_ns == 1	? "nsecs" :
				      a->lat_unit_ns == 1000000 ? "msecs" :
								  "usecs") :
				     a->specs[a->prog_spec[j0]].value;
	ptk_agg_result_init(res);
	a->stacks_max = a->has_stack ? 4096 : 1;
	(void)flt;
}

int ptk_agg_configure(struct ptk_agg *a, const struct ptk_bpf_filter *flt)
{
	int rc;

	if (a->cli && a->nspecs)
		cli_refresh(a);
	memset(a->cfg, 0, sizeof(a->cfg));
	memset(a->keys, 0, sizeof(a->keys));
	a->nkeys = 0;
	a->key_bytes = 0;
	a->has_stack = a->has_ustack = false;
	if (!a->lat_unit_ns)
		a->lat_unit_ns = flt->millis ? 1000000 : 1000;
	/* entries first: a return adds what it reads there to its entry's configuration */
	for (int j = 0; j < a->nprobes; j++)
		if ((rc = configure_prog(a, j, flt)))
			return rc;
	for (int j = 0; j < a->nprobes; j++) {
		if (!keyed(a, j))
			continue;
		if ((rc = add_keys(a, j, flt)))
			return rc;
	}
	for (int j = 0; j < a->nprobes; j++)
		if (a->specs[a->prog_spec[j]].role != AGG_ROLE_ENTRY && (rc = add_filters(a, j)))
			return rc;
	configure_rows(a, flt);
	if (a->nprobes == 2 && a->specs[0].role == AGG_ROLE_ENTRY &&
	    a->probe[0].kind == PTK_PROBE_TP && a->probe[1].kind == PTK_PROBE_TP &&
	    a->probe[0].field[0])
		snprintf(a->desc, sizeof(a->desc), "%s:%s:%s -> %s:%s:%s", a->probe[0].cat,
			 a->probe[0].name, a->probe[0].field, a->probe[1].cat, a->probe[1].name,
			 a->probe[1].field);
	else if (a->nspecs == 2 && a->specs[0].role == AGG_ROLE_ENTRY)
		snprintf(a->desc, sizeof(a->desc), "%s -> %s", a->specs[0].probe,
			 a->specs[1].probe);
	else if (a->nprobes && a->probe[0].kind == PTK_PROBE_TP && !a->probe[0].wildcard &&
		 a->nspecs == 1)
		snprintf(a->desc, sizeof(a->desc), "%s:%s", a->probe[0].cat, a->probe[0].name);
	else
		snprintf(a->desc, sizeof(a->desc), "%s", a->nspecs ? a->specs[0].probe : "");
	return 0;
}

/* USDT sites of different argument layouts: one program per layout. */
static int split_layouts(struct ptk_agg *a)
{
	for (int j = 0; j < a->nprobes; j++) {
		struct ptk_probe *p = &a->probe[j];

		if (p->kind != PTK_PROBE_USDT || p->nlayouts < 2 || a->prog_layout[j])
			continue;
		for (int l = 1; l < p->nlayouts; l++) {
			struct ptk_probe *q;
			size_t m = 0;

			if (a->nprobes == PTK_AGG_MAX_PROGS)
				return USAGE(a, "%s: too many argument layouts", p->spec);
			/* the next ones move up: a spec's programs stay together */
			memmove(&a->probe[j + l + 1], &a->probe[j + l],
				(a->nprobes - j - l) * sizeof(a->probe[0]));
			memmove(&a->prog_spec[j + l + 1], &a->prog_spec[j + l],
				(a->nprobes - j - l) * sizeof(a->prog_spec[0]));
			memmove(&a->prog_layout[j + l + 1], &a->prog_layout[j + l],
				(a->nprobes - j - l) * sizeof(a->prog_layout[0]));
			a->nprobes++;
			q = &a->probe[j + l];
			*q = *p;
			q->targets = xcalloc(p->ntargets, sizeof(*q->targets));
			q->usdt = xcalloc(p->nlayouts, sizeof(*q->usdt));
			memcpy(q->usdt, p->usdt, p->nlayouts * sizeof(*q->usdt));
			for (size_t t = 0; t < p->ntargets; t++)
				if (p->targets[t].layout == l)
					q->targets[m++] = p->targets[t];
			q->ntargets = m;
			a->prog_spec[j + l] = a->prog_spec[j];
			a->prog_layout[j + l] = l;
		}
		/* the first program keeps the sites of layout 0 */
		{
			size_t m = 0;
			for (size_t t = 0; t < p->ntargets; t++)
				if (p->targets[t].layout == 0)
					p->targets[m++] = p->targets[t];
			p->ntargets = m;
		}
		j += p->nlayouts - 1;
	}
	return 0;
}

/* The optional specs that did not resolve (and the other half of their pairs) left out. */
static int drop_missing(struct ptk_agg *a)
{
	int n = 0;

	for (int i = 0; i < a->nspecs; i++) {
		int other = a->specs[i].role == AGG_ROLE_ENTRY	? i + 1 :
			    a->specs[i].role == AGG_ROLE_RETURN ? i - 1 :
								  i;
		bool gone = !a->probe[i].ntargets || !a->probe[other].ntargets;

		if (gone) {
			ptk_probe_free(&a->probe[i]);
			continue;
		}
		if (n != i) {
			a->specs[n] = a->specs[i];
			a->probe[n] = a->probe[i];
		}
		a->prog_spec[n] = n;
		a->prog_layout[n] = 0;
		n++;
	}
	a->nspecs = a->nprobes = n;
	if (!n)
		return USAGE(a, "none of the probes is here: %s", a->err);
	return 0;
}

int ptk_agg_cmd_prepare(struct ptk_agg *a, struct ptk_bpf_run *r)
{
	int rc;

	if ((rc = ptk_ctx_ready(r->ctx)))
		return rc;
	rc = ptk_agg_prepare(a, &r->filter, r);
	if (rc == -EINVAL)
		rc = ptk_usage_error(r->ctx, "%s", a->err);
	else if (rc) {
		ptk_err("%s", a->err);
		rc = PTK_EXIT_RUNTIME;
	} else if (r->ctx->stop) {
		rc = PTK_BPF_DONE;
	}
	if (rc)
		ptk_tracefs_release();
	return rc;
}

int ptk_agg_cmd_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct ptk_agg_tool *t = r->priv;
	const struct ptk_bpf_opt *o = r->ops->opts;
	int cpu;

	while (o && o->name && o->code != c)
		o++;
	if (!o || !o->name)
		return ptk_usage_error(r->ctx, "unknown option '%c'", c);
	if (!strcmp(o->name, "cgroup"))
		return ptk_bpf_common_opt(r->ctx, &r->filter, PTK_OPT_CGROUP, arg);
	if (!strcmp(o->name, "cpu")) {
		if (ptk_parse_int(arg, &cpu) || cpu < 0)
			return ptk_usage_error(r->ctx, "invalid CPU '%s'", arg);
		snprintf(t->filter, sizeof(t->filter), "cpu == %d", cpu);
		t->agg.filter = t->filter;
		return 0;
	}
	double *d = !strcmp(o->name, "duration") ? &t->duration :
		    !strcmp(o->name, "interval") ? &t->interval :
						   NULL;
	if (!d)
		return ptk_usage_error(r->ctx, "unknown option '--%s'", o->name);
	if (ptk_parse_double(arg, d) || !(*d > 0))
		return ptk_usage_error(r->ctx, "invalid %s '%s'", o->name, arg);
	return 0;
}

int ptk_agg_cmd_operand(struct ptk_bpf_run *r, int argc, char **argv, const char *what)
{
	struct ptk_agg_tool *t = r->priv;

	if (optind >= argc)
		return ptk_usage_error(r->ctx, "missing the %s", what);
	t->operand = argv[optind++];
	if (optind < argc)
		return ptk_usage_error(r->ctx, "unexpected operand '%s'", argv[optind]);
	if (ptk_probe_from_bcc(t->operand, t->probe, sizeof(t->probe), t->agg.err,
			       sizeof(t->agg.err)))
		return ptk_usage_error(r->ctx, "%s", t->agg.err);
	return 0;
}

int ptk_agg_cmd_parsed(struct ptk_bpf_run *r)
{
	struct ptk_agg_tool *t = r->priv;
	int rc;

	if ((rc = ptk_agg_parse(&t->agg)))
		return rc == -EINVAL ? ptk_usage_error(r->ctx, "%s", t->agg.err) : PTK_EXIT_RUNTIME;
	r->interval_s = t->interval;
	r->duration_s = t->duration;
	return 0;
}

int ptk_agg_prepare(struct ptk_agg *a, const struct ptk_bpf_filter *flt, struct ptk_bpf_run *r)
{
	int rc;

	a->pid_given = flt->tgid > 0;
	a->ntargets = 0;
	for (int i = 0; i < a->nprobes; i++) {
		struct ptk_probe *p = &a->probe[i];

		if (p->have_fmt || p->ntargets) {
			/* targets a tool set itself: a user probe is the process's still */
			if (!p->pid &&
			    (ptk_probe_has_regs(p->kind) && p->kind != PTK_PROBE_KPROBE &&
			     p->kind != PTK_PROBE_KRETPROBE))
				p->pid = flt->tgid;
			continue;
		}
		rc = ptk_probe_resolve(p, flt->tgid, a->err, sizeof(a->err));
		if (rc == -EINVAL && a->specs[i].optional) {
			p->ntargets = 0;
			continue;
		}
		if (rc)
			return rc;
		/* a pattern's targets have no record in common */
		if (p->kind == PTK_PROBE_TP && p->wildcard)
			p->have_fmt = false;
	}
	if ((rc = drop_missing(a)))
		return rc;
	if ((rc = split_layouts(a)) || (rc = ptk_agg_configure(a, flt)))
		return rc;
	for (int i = 0; i < a->nprobes; i++)
		a->ntargets += a->probe[i].ntargets;
	if (r) {
		/* stacks that could not be captured are still counted (under "[no stack]"), so
		 * are keys that could not be read (under an empty one) */
		r->lost_keys =
			((1u << AGG_DROP_NR) - 1) & ~(1u << AGG_DROP_STACK | 1u << AGG_DROP_READ);
		if (a->ntargets > (size_t)a->nspecs)
			snprintf(r->banner, sizeof(r->banner),
				 "Tracing %zu probes of %.180s%s... Hit Ctrl-C to end.",
				 a->ntargets, a->desc,
				 a->mode == PTK_AGG_LATENCY ? " (latency)" : "");
		else
			snprintf(r->banner, sizeof(r->banner),
				 "Tracing %.200s%s... Hit Ctrl-C to end.", a->desc,
				 a->mode == PTK_AGG_LATENCY ? " latency" : "");
	}
	return 0;
}

/* ---- load and attach ---- */

static bool uses_events(const struct ptk_agg *a)
{
	for (int i = 0; i < a->nspecs; i++)
		if (a->specs[i].mode == AGG_EVENT)
			return true;
	return false;
}

static bool uses_mode(const struct ptk_agg *a, enum agg_mode m)
{
	for (int i = 0; i < a->nspecs; i++)
		if (a->specs[i].mode == m)
			return true;
	return false;
}

/* Are objects tracked from the kernel's own probes (its allocator's tracepoints)? */
static bool tracks_kernel(const struct ptk_agg *a)
{
	for (int j = 0; j < a->nprobes; j++) {
		enum ptk_probe_kind k = a->probe[j].kind;

		if (a->specs[a->prog_spec[j]].mode == AGG_TRACK_ADD && k != PTK_PROBE_UPROBE &&
		    k != PTK_PROBE_URETPROBE && k != PTK_PROBE_USDT)
			return true;
	}
	return false;
}

/* Are all the probes in user space (uprobes, USDT)? */
static bool user_only(const struct ptk_agg *a)
{
	for (int j = 0; j < a->nprobes; j++) {
		enum ptk_probe_kind k = a->probe[j].kind;

		if (k != PTK_PROBE_UPROBE && k != PTK_PROBE_URETPROBE && k != PTK_PROBE_USDT)
			return false;
	}
	return a->nprobes > 0;
}

static bool has_pairs(const struct ptk_agg *a)
{
	for (int i = 0; i < a->nspecs; i++)
		if (a->specs[i].role == AGG_ROLE_ENTRY)
			return true;
	return false;
}

/* The map sizes (unused maps shrunk: they are preallocated), for either skeleton: MAPSZ(skel,
 * map, entries) sizes one of its maps. */
#define AGG_MAPS(s, MAPSZ)                                                                      \
	do {                                                                                    \
		MAPSZ(s, counts, uses_mode(a, AGG_COUNT) ? AGG_MAX_ENTRIES : 1);                \
		MAPSZ(s, hists,                                                                 \
		      uses_mode(a, AGG_HIST) || uses_mode(a, AGG_LHIST) ? AGG_MAX_ENTRIES : 1); \
		MAPSZ(s, start, has_pairs(a) ? AGG_START_ENTRIES : 1);                          \
		MAPSZ(s, stacks, a->stacks_max);                                                \
		MAPSZ(s, objects, uses_mode(a, AGG_TRACK_ADD) ? AGG_OBJ_ENTRIES : 1);           \
		MAPSZ(s, events, uses_events(a) ? 1 << 22 : 4096);                              \
	} while (0)

static void add_fd(struct ptk_agg *a, int **v, size_t *n, int fd)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = fd;
	(void)a;
}

/* The dynamic probes' perf events opened (in a thread) while the programs load, once. */
static void preopen(struct ptk_agg *a)
{
	if (a->preopen_started)
		return;
	a->preopen_started = true;
	ptk_probe_preopen_start(&a->preopen, a->probe, a->nprobes);
}

void ptk_agg_begin(struct ptk_bpf_run *r)
{
	preopen(r->priv);
}

/* Attach every target of program j to prog_fd. 0 or -errno (with the reason in a->err). */
static int attach_prog(struct ptk_agg *a, int j, int prog_fd)
{
	struct ptk_probe *p = &a->probe[j];

	ptk_probe_preopen_wait(&a->preopen);
	for (size_t t = 0; t < p->ntargets; t++) {
		int fd = ptk_probe_attach(p, &p->targets[t], prog_fd, COOKIE(j, t));

		if (fd < 0)
			return fail(a->err, sizeof(a->err), fd, "cannot attach %s (%s): %s",
				    p->spec, p->targets[t].name, strerror(-fd));
		add_fd(a, &a->links, &a->nlinks, fd);
	}
	return 0;
}

/* The programs the run counts in its observer cost: the copies. */
static void count_prog(struct ptk_bpf_run *r, struct ptk_agg *a, int fd)
{
	add_fd(a, &a->progs, &a->nprogs, fd);
	r->xprogs = a->progs;
	r->nxprogs = a->nprogs;
}

static const char *hook_of(const struct ptk_agg *a)
{
	enum ptk_probe_kind k = a->nprobes ? a->probe[0].kind : PTK_PROBE_TP;

	for (int j = 1; j < a->nprobes; j++)
		if (a->probe[j].kind != k &&
		    !(ptk_probe_has_regs(k) && ptk_probe_has_regs(a->probe[j].kind)))
			return "mixed";
	return ptk_probe_kind_name(k);
}

PTK_BPF_LSKEL_FREE(agg_tp_l_bpf)

#define L_MAPSZ(sk, m, n) ((sk)->maps.m.max_entries = (n))
#define AGG_L_SETUP(s)                                                                         \
	do {                                                                                   \
		PTK_BPF_SET_FILTERS(s, &r->filter);                                            \
		for (int j_ = 0; j_ < a->nprobes; j_++)                                        \
			memcpy((void *)&(s)->rodata->cfg[j_], &a->cfg[j_], sizeof(a->cfg[0])); \
		AGG_MAPS(s, L_MAPSZ);                                                          \
	} while (0)
/* Tracepoints only, one target each, at most two: the light skeleton's agg_a and agg_b. 0,
 * -ENOTSUP (the libbpf path then), or -errno. */
int ptk_agg_load_lskel(struct ptk_bpf_run *r)
{
	struct ptk_agg *a = r->priv;
	struct agg_tp_l_bpf *l = NULL;
	int err, progs[AGG_NPROGS];

	preopen(a);
	/* the live objects' map is sized and flagged by the libbpf path only */
	if (a->nprobes > AGG_NPROGS || uses_mode(a, AGG_TRACK_ADD))
		return -ENOTSUP;
	for (int j = 0; j < a->nprobes; j++)
		if (a->probe[j].kind != PTK_PROBE_TP || a->probe[j].ntargets != 1)
			return -ENOTSUP;
	if ((err = PTK_LSKEL_LOAD(agg_tp_l_bpf, l, AGG_L_SETUP)))
		return err;
	progs[0] = l->progs.agg_a.prog_fd;
	progs[1] = l->progs.agg_b.prog_fd;
	for (int j = 0; j < a->nprobes && !err; j++)
		err = attach_prog(a, j, progs[j]);
	if (err) {
		/* (on failure, the fallback tries the same probes with libbpf) */
		ptk_bpf_close_links(a->links, a->nlinks);
		a->nlinks = 0;
		agg_tp_l_bpf__destroy(l);
		return err;
	}
	PTK_BPF_USE_LSKEL(r, agg_tp_l_bpf, l);
	r->hook = "tracepoint";
	return 0;
}
#undef AGG_L_SETUP
#undef L_MAPSZ

/* The template program of a probe's kind in the libbpf skeleton. */
static struct bpf_program *template(struct agg_bpf *s, enum ptk_probe_kind k)
{
	switch (k) {
	case PTK_PROBE_TP:
		return s->progs.agg_a;
	case PTK_PROBE_FENTRY:
		return s->progs.agg_fe;
	case PTK_PROBE_FEXIT:
		return s->progs.agg_fx;
	default:
		return s->progs.agg_k;
	}
}

int ptk_agg_open(struct ptk_bpf_run *r)
{
	struct agg_bpf *s = PTK_BPF_OPEN(r, agg_bpf);
	struct ptk_agg *a = r->priv;
	struct bpf_program *progs[] = { s ? s->progs.agg_a : NULL, s ? s->progs.agg_b : NULL,
					s ? s->progs.agg_k : NULL, s ? s->progs.agg_fe : NULL,
					s ? s->progs.agg_fx : NULL };

	if (!s)
		return -errno;
	preopen(a);
	PTK_BPF_SET_FILTERS(s, &r->filter);
#define LIBBPF_MAPSZ(sk, m, n) bpf_map__set_max_entries((sk)->maps.m, n)
	AGG_MAPS(s, LIBBPF_MAPSZ);
#undef LIBBPF_MAPSZ
	/* objects allocated in the kernel as they come are allocations a kernel tracer sees:
	 * preallocated then, smaller */
	if (tracks_kernel(a)) {
		bpf_map__set_map_flags(s->maps.objects, 0);
		bpf_map__set_max_entries(s->maps.objects, AGG_OBJ_ENTRIES / 2);
	}
	/* with user probes only, the rows are allocated as keys come (bpf_mem_alloc) rather
	 * than all at creation: 1-6 ms less start-up (6 MB for histograms), and no kernel
	 * allocation a program sees; kernel probes keep them preallocated (before 6.1 a
	 * tracing program's run-time allocations were unsafe) */
	if (user_only(a)) {
		bpf_map__set_map_flags(s->maps.counts, BPF_F_NO_PREALLOC);
		bpf_map__set_map_flags(s->maps.hists, BPF_F_NO_PREALLOC);
	}
	/* a row's key is hashed and compared on every event: only the bytes its values take
	 * (16 for a comm where all AGG_KEY_SIZE were), the programs' key buffers unchanged */
	bpf_map__set_key_size(s->maps.counts, MAX(a->key_bytes, 8u));
	bpf_map__set_key_size(s->maps.hists, MAX(a->key_bytes, 8u));
	for (size_t i = 0; i < ARRAY_SIZE(progs); i++)
		bpf_program__set_autoload(progs[i], false);
	/* each kind's template is loaded once, with the first program of its kind's data and
	 * (fentry/fexit) target; the other programs are copies of it */
	for (int j = a->nprobes - 1; j >= 0; j--) {
		struct bpf_program *t = template(s, a->probe[j].kind);

		bpf_program__set_autoload(t, true);
		if (a->probe[j].kind == PTK_PROBE_FENTRY || a->probe[j].kind == PTK_PROBE_FEXIT)
			bpf_program__set_attach_target(t, 0, a->probe[j].targets[0].name);
	}
	memcpy((void *)&s->rodata->cfg[0], &a->cfg[0], sizeof(a->cfg[0]));
	r->hook = hook_of(a);
	return 0;
}

int ptk_agg_load(struct ptk_bpf_run *r)
{
	struct ptk_agg *a = r->priv;
	struct agg_bpf *s = r->skel;
	size_t rosz = bpf_map__value_size(s->maps.rodata);
	int rodata_fd, err;
	void *ro;

	a->err[0] = '\0';
	if ((err = agg_bpf__load(s)))
		return err;
	rodata_fd = bpf_map__fd(s->maps.rodata);
	ro = xmalloc(rosz);
	/* program 0 (its first target for fentry/fexit) is the template loaded with it; every
	 * other one is a copy of its kind's template with data of its own */
	for (int j = 0; j < a->nprobes && !err; j++) {
		struct ptk_probe *p = &a->probe[j];
		struct bpf_program *t = template(s, p->kind);
		bool tracing = p->kind == PTK_PROBE_FENTRY || p->kind == PTK_PROBE_FEXIT;
		int ro_fd = -1;

		if (j > 0) {
			memcpy(ro, s->rodata, rosz);
			memcpy((char *)ro + offsetof(struct agg_bpf__rodata, cfg), &a->cfg[j],
			       sizeof(a->cfg[j]));
			if ((ro_fd = ptk_probe_rodata(ro, rosz)) < 0) {
				err = fail(a->err, sizeof(a->err), ro_fd,
					   "cannot make the data of %s: %s", p->spec,
					   strerror(-ro_fd));
				break;
			}
			add_fd(a, &a->fds, &a->nfds, ro_fd);
		}
		for (size_t k = 0; k < (tracing ? p->ntargets : 1) && !err; k++) {
			int fd = bpf_program__fd(t), lfd;

			if (j > 0 || k > 0) {
				fd = ptk_probe_prog_copy(t, rodata_fd, ro_fd,
							 tracing ? p->targets[k].btf_id : 0);
				if (fd < 0) {
					err = fail(a->err, sizeof(a->err), fd,
						   "cannot load the program of %s: %s", p->spec,
						   strerror(-fd));
					break;
				}
				count_prog(r, a, fd);
			}
			if (!tracing) {
				err = attach_prog(a, j, fd);
				break;
			}
			lfd = ptk_probe_attach(p, &p->targets[k], fd, COOKIE(j, k));
			if (lfd < 0)
				err = fail(a->err, sizeof(a->err), lfd, "cannot attach %s (%s): %s",
					   p->spec, p->targets[k].name, strerror(-lfd));
			else
				add_fd(a, &a->links, &a->nlinks, lfd);
		}
	}
	free(ro);
	if (err && a->err[0])
		snprintf(r->load_err, sizeof(r->load_err), "%s", a->err);
	return err;
}

void ptk_agg_destroy(struct ptk_bpf_run *r)
{
	struct ptk_agg *a = r->priv;

	ptk_probe_preopen_end(&a->preopen);
	a->preopen_started = false;
	ptk_bpf_close_links(a->links, a->nlinks);
	free(a->links);
	a->links = NULL;
	a->nlinks = 0;
	for (size_t i = 0; i < a->nprogs; i++)
		close(a->progs[i]);
	free(a->progs);
	a->progs = NULL;
	a->nprogs = 0;
	for (size_t i = 0; i < a->nfds; i++)
		close(a->fds[i]);
	free(a->fds);
	a->fds = NULL;
	a->nfds = 0;
	r->xprogs = NULL;
	r->nxprogs = 0;
	ptk_sym_free(a->sym);
	a->sym = NULL;
	ptk_probe_btf_release();
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

const char *ptk_agg_target_name(const struct ptk_agg *a, u64 cookie)
{
	int j = COOKIE_PROG(cookie);
	size_t t = COOKIE_TARGET(cookie);

	if (j < 0 || j >= a->nprobes || t >= a->probe[j].ntargets)
		return "[unknown]";
	return a->probe[j].targets[t].name;
}

/* A syscall number by name ("[none]" outside one). */
static char *syscall_name(s64 nr)
{
	const struct ptk_syscall *sc = nr >= 0 ? ptk_syscall_get(nr) : NULL;
	char buf[32];

	if (sc && sc->name)
		return xstrdup(sc->name);
	snprintf(buf, sizeof(buf), nr < 0 ? "[none]" : "syscall_%" PRId64, nr);
	return xstrdup(buf);
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
		case AGG_SRC_USTACK:
			break;
		case AGG_SRC_SYSCALL:
			memcpy(&x, b, 8);
			w->str[i] = syscall_name(x);
			w->v[i] = PTK_S(w->str[i]);
			break;
		case AGG_SRC_PROBE:
			memcpy(&x, b, 8);
			w->str[i] = xstrdup(ptk_agg_target_name(a, (u64)x));
			w->v[i] = PTK_S(w->str[i]);
			break;
		default:
			memcpy(&x, b, 8);
			w->v[i] = a->keys[i].col.type == PTK_V_S64 ? PTK_I(x) : PTK_U((u64)x);
		}
	}
}

/* How frames read: "func+0x1a" (a user one "func+0x1a [module]"), or the name alone. */
static unsigned frame_flags(const struct ptk_agg *a, pid_t pid)
{
	return a->frames_plain ? 0 : PTK_FRAME_OFFSET | (pid ? PTK_FRAME_MODULE : 0);
}

/* One stack key of a row: its stack map id, its addresses, and where it goes. */
struct kstack {
	s64 id;
	pid_t pid; /* a user stack's process, 0 for a kernel stack */
	int depth; /* ptk_bpf_stack_read(): frames, or -errno */
	u64 ips[STACK_DEPTH];
	struct ptk_agg_row *w;
	int key;
};

/* The stacks of the rows' stack keys, symbolized together: frames "func+0x1a" (a user frame
 * "func+0x1a [module]"), leaf first (an address that does not resolve in hex), or one frame
 * "[no stack: why]". keys: the keys' bytes of each row, stride bytes apart. */
static void decode_stacks(struct ptk_agg *a, int fd, const __u8 *keys, size_t stride,
			  struct ptk_agg_row *rows, size_t n)
{
	size_t m = 0, max = MAX(n * a->nkeys, 1);
	struct kstack *ks = xmalloc(max * sizeof(*ks));
	struct ptk_sym_stack *st = xcalloc(max, sizeof(*st));

	for (size_t j = 0; j < n; j++)
		for (int i = 0; i < a->nkeys; i++) {
			struct kstack *k = &ks[m];
			const __u8 *b = keys + j * stride + a->keys[i].f.kofs;
			u64 pid = 0;

			if (!a->keys[i].col.stack)
				continue;
			memcpy(&k->id, b, 8);
			if (a->keys[i].f.src == AGG_SRC_USTACK)
				memcpy(&pid, b + 8, 8);
			k->pid = (pid_t)pid;
			k->depth = ptk_bpf_stack_read(fd, k->id, k->ips, STACK_DEPTH);
			k->w = &rows[j];
			k->key = i;
			st[m++] = (struct ptk_sym_stack){ .pid = k->pid,
							  .ips = k->ips,
							  .n = MAX(k->depth, 0) };
		}
	if (!a->sym)
		a->sym = ptk_sym_new(NULL, 0); /* at the first stack: kallsyms read then */
	ptk_sym_stacks(a->sym, st, m, PTK_SYM_SKIP_TRACER);
	for (size_t j = 0; j < m; j++) {
		int nf = st[j].nf > 0 ? st[j].nf : 1;
		char **fr = xcalloc(nf, sizeof(*fr)), buf[512];

		if (ks[j].depth <= 0) {
			snprintf(buf, sizeof(buf), "[no stack: %s]",
				 ks[j].id < 0 ? strerror((int)-ks[j].id) : "expired");
			fr[0] = xstrdup(buf);
		}
		ks[j].w->addrs[ks[j].key] = xcalloc(nf, sizeof(u64));
		for (int i = 0; ks[j].depth > 0 && i < st[j].nf; i++) {
			const struct ptk_frame *f = &st[j].f[i];

			ks[j].w->addrs[ks[j].key][i] = f->addr;
			if (f->func)
				ptk_frame_fmt(f, frame_flags(a, ks[j].pid), buf, sizeof(buf));
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

int ptk_agg_take(struct ptk_bpf_run *r, struct ptk_agg_row **out, size_t *nout)
{
	struct ptk_agg *a = r->priv;
	bool hist = ptk_agg_is_hist(a->mode);
	int fd = ptk_bpf_map_fd(r, hist ? "hists" : "counts"), stacks = ptk_bpf_map_fd(r, "stacks");
	size_t n = 0;
	struct entry *e;
	struct ptk_agg_row *rows;

	if (fd < 0)
		return fd;
	e = hist ? PTK_BPF_MAP_ENTRIES(fd, struct entry, k, h, true, &n) :
		   PTK_BPF_MAP_ENTRIES(fd, struct entry, k, n, true, &n);
	if (!n && !a->nkeys)
		n = 1; /* no key: one row, a count of 0 is a result too (e[0] is zeroed) */
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (size_t j = 0; j < n; j++) {
		struct ptk_agg_row *w = &rows[j];

		decode_keys(a, &e[j], w);
		memcpy(w->tie, e[j].k.b, sizeof(w->tie));
		w->count = e[j].n.count;
		w->sum = e[j].n.sum;
		w->min = e[j].n.min;
		w->max = e[j].n.max;
		memcpy(w->slot, e[j].h.slot, sizeof(w->slot));
		w->below = e[j].h.below;
		w->above = e[j].h.above;
		w->hsum = e[j].h.sum;
	}
	if (a->has_stack)
		decode_stacks(a, stacks, e[0].k.b, sizeof(*e), rows, n);
	ptk_agg_rows_sort(&a->res, rows, n);
	free(e);
	if (a->has_stack && !a->has_ustack)
		clear_stacks(a, stacks);
	*out = rows;
	*nout = n;
	return 0;
}

int ptk_agg_report(struct ptk_bpf_run *r, long i, double itv, bool last)
{
	struct ptk_agg *a = r->priv;
	struct ptk_sink *sink = &r->ctx->sink;
	struct ptk_agg_row *rows;
	size_t n;
	int rc = ptk_agg_take(r, &rows, &n);

	if (rc)
		return rc;
	ptk_sink_begin(sink);
	ptk_sink_meta_f64(sink, "time", ptk_ctx_walltime(r->ctx));
	ptk_sink_meta_f64(sink, "interval_s", itv);
	ptk_sink_meta_str(sink, "event", a->desc);
	ptk_sink_meta_str(sink, "mode", ptk_agg_mode_name(a->mode));
	if (a->ntargets > 1)
		ptk_sink_meta_u64(sink, "probes_attached", a->ntargets);
	ptk_bpf_meta_loader(r);
	ptk_agg_print(sink, &a->res, rows, n);
	ptk_bpf_report_end(r);
	if (a->on_rows)
		a->on_rows(a, rows, n);
	if (!r->ctx->json)
		fputc('\n', sink->out);
	ptk_agg_rows_free(rows, n);
	free(rows);
	return 0;
}

/* ---- live objects ---- */

struct obj_entry {
	u64 addr;
	struct agg_obj o;
};

static int by_key(const void *x, const void *y)
{
	const struct obj_entry *a = x, *b = y;
	int c = memcmp(&a->o.key, &b->o.key, sizeof(a->o.key));

	return c ? c : a->addr < b->addr ? -1 : a->addr > b->addr;
}

int ptk_agg_track(struct ptk_bpf_run *r, u64 min_age_ns, struct ptk_agg_row **out, size_t *nout,
		  struct ptk_agg_obj **objs, size_t *nobjs)
{
	struct ptk_agg *a = r->priv;
	int fd = ptk_bpf_map_fd(r, "objects"), stacks = ptk_bpf_map_fd(r, "stacks");
	size_t n = 0, nrows = 0, m = 0;
	struct obj_entry *e;
	struct entry *keys;
	struct ptk_agg_row *rows;
	struct ptk_agg_obj *ob = NULL;
	struct timespec ts;
	u64 now;

	if (fd < 0)
		return fd;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	e = PTK_BPF_MAP_ENTRIES(fd, struct obj_entry, addr, o, false, &n);
	/* old enough only, grouped by key */
	for (size_t i = 0; i < n; i++)
		if (e[i].o.ts <= now && now - e[i].o.ts >= min_age_ns)
			e[m++] = e[i];
	n = m;
	if (n > 1)
		qsort(e, n, sizeof(*e), by_key);
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	keys = xcalloc(n ? n : 1, sizeof(*keys));
	if (objs)
		ob = xcalloc(n ? n : 1, sizeof(*ob));
	for (size_t i = 0; i < n; i++) {
		if (!i || memcmp(&e[i].o.key, &e[i - 1].o.key, sizeof(e[i].o.key)))
			keys[nrows++].k = e[i].o.key;
		rows[nrows - 1].count++;
		rows[nrows - 1].sum += e[i].o.size;
		if (ob)
			ob[i] = (struct ptk_agg_obj){ .addr = e[i].addr,
						      .size = e[i].o.size,
						      .age_ns = now - e[i].o.ts,
						      .row = (int)nrows - 1 };
	}
	for (size_t j = 0; j < nrows; j++) {
		decode_keys(a, &keys[j], &rows[j]);
		memcpy(rows[j].tie, keys[j].k.b, sizeof(rows[j].tie));
	}
	if (a->has_stack)
		decode_stacks(a, stacks, keys[0].k.b, sizeof(*keys), rows, nrows);
	/* the rows heaviest first; each object finds its row again by its key (the rows'
	 * ties are their keys, one row per key) */
	{
		struct ptk_agg_result res = a->res;

		res.mode = PTK_AGG_SUM;
		ptk_agg_rows_sort(&res, rows, nrows);
	}
	if (ob) {
		int *where = xcalloc(nrows ? nrows : 1, sizeof(*where));

		for (size_t k = 0; k < nrows; k++)
			for (size_t j = 0; j < nrows; j++)
				if (!memcmp(rows[j].tie, keys[k].k.b, AGG_KEY_SIZE))
					where[k] = (int)j;
		for (size_t i = 0; i < n; i++)
			ob[i].row = where[ob[i].row];
		free(where);
		*objs = ob;
		*nobjs = n;
	}
	free(keys);
	free(e);
	*out = rows;
	*nout = nrows;
	return 0;
}

/* ---- events ---- */

int ptk_agg_event_decode(const struct ptk_agg *a, const void *data, size_t len,
			 struct ptk_agg_ev *ev)
{
	const struct agg_event *e = data;
	int j, s;

	if (len < AGG_EVENT_HDR)
		return -EINVAL;
	j = COOKIE_PROG(e->probe);
	if (j < 0 || j >= a->nprobes)
		return -EINVAL;
	s = a->prog_spec[j];
	memset(ev, 0, sizeof(*ev));
	ev->spec = s;
	ev->target = ptk_agg_target_name(a, e->probe);
	ev->ts_ns = e->ts;
	ev->pid = e->pid;
	ev->tid = e->tid;
	ev->cpu = e->cpu;
	memcpy(ev->comm, e->comm, 16);
	ev->nv = a->nevv[s];
	for (int i = 0; i < ev->nv; i++) {
		const struct ptk_agg_evval *vv = &a->evv[s][i];
		const __u8 *b = e->data + vv->ofs;
		u64 x = 0;

		if (vv->ofs + vv->len > len - AGG_EVENT_HDR)
			return -EINVAL;
		if (vv->type == PTK_V_STR && !vv->named) {
			memcpy(ev->str[i], b, vv->len);
			ev->str[i][vv->len] = '\0';
			for (char *c = ev->str[i]; *c; c++)
				if (!isprint((unsigned char)*c) && *c != '\t')
					*c = '.';
			ev->v[i] = PTK_S(ev->str[i]);
			continue;
		}
		memcpy(&x, b, 8);
		if (vv->named == PTK_AGG_EV_SYSCALL) {
			char *nm = syscall_name((s64)x);
			snprintf(ev->str[i], sizeof(ev->str[i]), "%s", nm);
			free(nm);
			ev->v[i] = PTK_S(ev->str[i]);
		} else if (vv->named == PTK_AGG_EV_PROBE) {
			snprintf(ev->str[i], sizeof(ev->str[i]), "%.64s",
				 ptk_agg_target_name(a, x));
			ev->v[i] = PTK_S(ev->str[i]);
		} else {
			ev->v[i] = vv->type == PTK_V_S64 ? PTK_I((s64)x) : PTK_U(x);
		}
	}
	return 0;
}

int ptk_agg_event(struct ptk_bpf_run *r, const void *data, size_t len)
{
	struct ptk_agg *a = r->priv;
	struct ptk_agg_ev ev;

	if (ptk_agg_event_decode(a, data, len, &ev))
		return 0;
	return a->on_event ? a->on_event(a, &ev) : 0;
}
