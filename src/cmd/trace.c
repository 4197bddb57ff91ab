// SPDX-License-Identifier: GPL-2.0
/*
 * ptk trace: a line per event of any probe, with a condition and a printf format of its
 * values, in bcc trace's notation and output: each probe is a spec of the aggregation
 * engine that sends its values as events (AGG_EVENT); the condition is the spec's filter,
 * evaluated in the kernel; the message is formatted here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "output/sink.h"
#include "source/bpf/agg.h"
#include "source/sym/sym.h"
#include "source/tracefs/tracefs.h"

static const char usage[] =
	"usage: ptk trace [-p PID] [-L TID] [-t] [-T] [-C] [-M MAX] [-n NAME] [-f MSG] [--json]\n"
	"                 PROBE [PROBE ...]\n"
	"A line per event: PID TID COMM FUNC and the probe's message. PROBE, as bcc trace:\n"
	"  [{p,r}]:[LIB]:FUNC [(CONDITION)] [\"FORMAT\"[, ARG...]]   a function's entry (p) or\n"
	"       return (r); no LIB: a kernel function (fentry, or a kprobe)\n"
	"  t:CAT:EVENT [(CONDITION)] [\"FORMAT\"[, ARG...]]           a tracepoint\n"
	"  u:LIB:PROBE [(CONDITION)] [\"FORMAT\"[, ARG...]]           a USDT probe\n"
	"  ARG: arg1..arg6, retval (r:), args->FIELD (t:), $pid (thread), $tgid, $cpu, $uid,\n"
	"       casts (int)arg1; a %s takes the string an argument points to\n"
	"  CONDITION: ARG OP VALUE joined by && (OP: == != < <= > >=), STRCMP(\"s\", ARG)\n"
	"  FORMAT: printf's %d %i %u %x %X %o %c %s %p with l, ll, h, hh; %K, %U a kernel or\n"
	"          user address as its symbol\n"
	"  -p, --pid PID      this process only    -L, --tid TID    this thread only\n"
	"  -t, --timestamp    seconds since the first event   -T, --time   HH:MM:SS\n"
	"  -C, --print_cpu    the CPU             -M, --max-events N   stop after N events\n"
	"  -n, --name NAME    only tasks whose comm contains NAME\n"
	"  -f, --msg-filter S only messages that contain S\n"
	"Example: ptk trace 'p:c:write (arg1 == 1) \"writing %d bytes\", arg3'\n";

#define MAX_PROBES 16

struct tprobe {
	char probe[300]; /* ours */
	char filter[256];
	char fmt[256]; /* the format, its escapes done */
	char ev[512]; /* our names of its values */
	char func[128]; /* FUNC as shown */
	bool user; /* %U symbols: of the task */
};

struct priv {
	struct ptk_agg agg; /* first: the runner's r->priv is the engine's */
	struct ptk_bpf_run *run;
	int nprobes;
	struct tprobe tp[MAX_PROBES];
	bool ts, time, cpu;
	const char *max, *name, *msgf;
	long max_events;
	u64 events, first_ns;
	struct ptk_symbolizer *sym;
	struct ptk_table tab;
	struct ptk_metric cols[7];
};

/* One of bcc's names in ours: arg1.. are arg0.., args->F is F, $pid the thread. */
static void translate(const char *in, char *out, size_t size)
{
	const char *start = in;
	size_t n = 0;

	while (*in && n + 16 < size) {
		if (!strncmp(in, "args->", 6)) {
			in += 6;
		} else if (!strncmp(in, "arg", 3) && isdigit((unsigned char)in[3]) &&
			   (in == start || !isalnum((unsigned char)in[-1]))) {
			char *end;
			long k = strtol(in + 3, &end, 10);
			n += snprintf(out + n, size - n, "arg%ld", k > 0 ? k - 1 : 0);
			in = end;
		} else if (!strncmp(in, "$tgid", 5)) {
			n += snprintf(out + n, size - n, "pid");
			in += 5;
		} else if (!strncmp(in, "$pid", 4)) {
			n += snprintf(out + n, size - n, "tid");
			in += 4;
		} else if (!strncmp(in, "$cpu", 4)) {
			n += snprintf(out + n, size - n, "cpu");
			in += 4;
		} else if (!strncmp(in, "$uid", 4)) {
			n += snprintf(out + n, size - n, "uid");
			in += 4;
		} else {
			out[n++] = *in++;
		}
	}
	out[n] = '\0';
}

/* The end of a balanced "( ... )" starting at p, or NULL. */
static const char *paren_end(const char *p)
{
	int depth = 0;
	char q = 0;

	for (; *p; p++) {
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
			continue;
		}
		if (*p == '"' || *p == '\'')
			q = *p;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p;
	}
	return NULL;
}

/* The condition "(A && STRCMP("s", B))" as our filter. */
static int condition(const char *in, size_t len, char *out, size_t size)
{
	char buf[256], *p, *save = NULL;
	size_t n = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%.*s", (int)len, in);
	out[0] = '\0';
	for (char *t = strtok_r(buf, "&", &save); t; t = strtok_r(NULL, "&", &save)) {
		char tr[256];

		while (isspace((unsigned char)*t))
			t++;
		if (!*t)
			continue;
		if (!strncmp(t, "STRCMP(", 7) && (p = strrchr(t, ')'))) {
			/* STRCMP("literal", arg) */
			char *q1 = strchr(t, '"'), *q2 = q1 ? strchr(q1 + 1, '"') : NULL, *c;
			if (!q2 || !(c = strchr(q2, ',')))
				return -EINVAL;
			*p = '\0';
			translate(c + 1, tr, sizeof(tr));
			n += snprintf(out + n, size - n, "%sstr(%s) == \"%.*s\"", n ? " && " : "",
				      tr + strspn(tr, " "), (int)(q2 - q1 - 1), q1 + 1);
		} else {
			translate(t, tr, sizeof(tr));
			n += snprintf(out + n, size - n, "%s%s", n ? " && " : "", tr);
		}
		if (n >= size)
			return -EINVAL;
	}
	return 0;
}

/* A format string "...", its escapes done, into out; the end past its quote, or NULL. */
static const char *format(const char *p, char *out, size_t size)
{
	size_t n = 0;

	for (p++; *p && *p != '"'; p++) {
		char c = *p;

		if (c == '\\' && p[1]) {
			p++;
			c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		}
		if (n + 1 < size)
			out[n++] = c;
	}
	out[n] = '\0';
	return *p == '"' ? p + 1 : NULL;
}

/* The conversions of fmt in order: 's' for a string, 'n' for a number. */
static int conversions(const char *fmt, char *kinds, int max)
{
	int n = 0;

	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		p += strspn(p + 1, "-+ #0123456789.hlzjt") + 1;
		if (!*p || n == max)
			return n;
		kinds[n++] = *p == 's' ? 's' : 'n';
	}
	return n;
}

/* One probe of the command line into tp. 0, or a usage error printed. */
static int parse_probe(struct ptk_ctx *ctx, const char *spec, struct tprobe *tp)
{
	const char *p = spec, *end;
	char head[256], type = 'p', lib[200] = "", fn[128], kinds[AGG_MAX_EVF];
	size_t lh = strcspn(p, " \t(\"");
	int nk, nargs = 0;
	size_t ne = 0;

	snprintf(head, sizeof(head), "%.*s", (int)lh, p);
	p += lh;
	if (strlen(head) > 2 && head[1] == ':' && strchr("prtu", head[0])) {
		type = head[0];
		memmove(head, head + 2, strlen(head + 2) + 1);
	}
	if (type == 't' || type == 'u' || strchr(head, ':')) {
		char *c = strrchr(head, ':');
		if (!c)
			return ptk_usage_error(ctx, "invalid probe '%s'", spec);
		snprintf(lib, sizeof(lib), "%.*s", (int)(c - head), head);
		snprintf(fn, sizeof(fn), "%s", c + 1);
	} else {
		snprintf(fn, sizeof(fn), "%s", head);
	}
	if (!fn[0])
		return ptk_usage_error(ctx, "invalid probe '%s': no function", spec);
	snprintf(tp->func, sizeof(tp->func), "%s", fn);
	tp->user = type == 'u' || lib[0];
	if (type == 't')
		snprintf(tp->probe, sizeof(tp->probe), "tracepoint:%s:%s", lib, fn);
	else if (type == 'u')
		snprintf(tp->probe, sizeof(tp->probe), "usdt:%s:%s", lib, fn);
	else if (lib[0])
		snprintf(tp->probe, sizeof(tp->probe), "%s:%s:%s",
			 type == 'r' ? "uretprobe" : "uprobe", lib, fn);
	else
		snprintf(tp->probe, sizeof(tp->probe), "%s:%s",
			 type == 'r' ? "kretprobe" : "kprobe", fn);
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '(') {
		if (!(end = paren_end(p)) ||
		    condition(p + 1, end - p - 1, tp->filter, sizeof(tp->filter)))
			return ptk_usage_error(ctx, "invalid condition in '%s'", spec);
		p = end + 1;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (*p == '"') {
		if (!(p = format(p, tp->fmt, sizeof(tp->fmt))))
			return ptk_usage_error(ctx, "unterminated format in '%s'", spec);
	}
	nk = conversions(tp->fmt, kinds, AGG_MAX_EVF);
	/* ", ARG, ARG": commas inside parentheses are the ARG's */
	while (*p) {
		const char *a;
		char arg[128], tr[160];
		int depth = 0;

		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (!*p)
			break;
		a = p;
		while (*p && (depth || *p != ',')) {
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			p++;
		}
		snprintf(arg, sizeof(arg), "%.*s", (int)(p - a), a);
		while (strlen(arg) && isspace((unsigned char)arg[strlen(arg) - 1]))
			arg[strlen(arg) - 1] = '\0';
		if (nargs == AGG_MAX_EVF)
			return ptk_usage_error(ctx, "'%s': more than %d arguments", spec,
					       AGG_MAX_EVF);
		translate(arg, tr, sizeof(tr));
		/* a %s of a user or kernel argument: the string it points to */
		if (nargs < nk && kinds[nargs] == 's' && !strncmp(tr, "arg", 3) &&
		    isdigit((unsigned char)tr[3]))
			ne += snprintf(tp->ev + ne, sizeof(tp->ev) - ne, "%sstr(%s)", ne ? "," : "",
				       tr);
		else
			ne += snprintf(tp->ev + ne, sizeof(tp->ev) - ne, "%s%s", ne ? "," : "", tr);
		nargs++;
	}
	if (nargs != nk)
		return ptk_usage_error(ctx, "'%s': the format has %d conversions for %d arguments",
				       spec, nk, nargs);
	return 0;
}

/* fmt with the event's values, printf's way (%K/%U symbols), into out: each conversion's
 * flags and width as written, with the value's own length (the specs built here). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void message(struct priv *p, const struct tprobe *tp, const struct ptk_agg_ev *ev, char *out,
		    size_t size)
{
	size_t n = 0;
	int k = 0;

	out[0] = '\0';
	for (const char *f = tp->fmt; *f && n + 1 < size; f++) {
		char spec[32], buf[512];
		const char *s = f;
		int lng = 0, half = 0;
		char conv;
		u64 u;

		if (*f != '%') {
			out[n++] = *f;
			out[n] = '\0';
			continue;
		}
		if (f[1] == '%') {
			out[n++] = '%';
			out[n] = '\0';
			f++;
			continue;
		}
		f += strspn(f + 1, "-+ #0123456789.") + 1;
		for (; *f == 'l' || *f == 'h' || *f == 'z' || *f == 'j' || *f == 't'; f++) {
			lng += *f == 'l' || *f == 'z' || *f == 'j' || *f == 't';
			half += *f == 'h';
		}
		conv = *f;
		if (!conv)
			break;
		snprintf(spec, sizeof(spec), "%.*s", (int)(strspn(s + 1, "-+ #0123456789.") + 1),
			 s);
		if (k >= ev->nv) {
			n += snprintf(out + n, size - n, "%s", "?");
			continue;
		}
		bool str = p->agg.evv[ev->spec][k].type == PTK_V_STR;
		const struct ptk_val *v = &ev->v[k++];
		u = str ? 0 : v->u;
		if (!lng)
			u = half == 2 ? (u64)(uint8_t)u :
			    half == 1 ? (u64)(uint16_t)u :
					(u64)(u32)u;
		switch (conv) {
		case 'd':
		case 'i': {
			s64 x = !lng ? (half == 2 ? (int8_t)u :
					half == 1 ? (int16_t)u :
						    (int32_t)u) :
				       (s64)u;
			strcat(spec, "lld");
			snprintf(buf, sizeof(buf), spec, (long long)x);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			strcat(spec, conv == 'u' ? "llu" :
				     conv == 'x' ? "llx" :
				     conv == 'X' ? "llX" :
						   "llo");
			snprintf(buf, sizeof(buf), spec, (unsigned long long)u);
			break;
		case 'p':
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v->u);
			break;
		case 'c':
			snprintf(buf, sizeof(buf), "%c", (char)u);
			break;
		case 's':
			strcat(spec, "s");
			snprintf(buf, sizeof(buf), spec, str ? v->s : "");
			break;
		case 'K':
		case 'U': {
			struct ptk_frame fr = { 0 };
			int rc;
			if (!p->sym)
				p->sym = ptk_sym_new(NULL, 0);
			rc = conv == 'K' ? ptk_sym_kernel(p->sym, v->u, &fr) :
					   ptk_sym_user(p->sym, ev->pid, v->u, &fr);
			if (rc)
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v->u);
			else
				ptk_frame_fmt(&fr, PTK_FRAME_OFFSET, buf, sizeof(buf));
			break;
		}
		default:
			snprintf(buf, sizeof(buf), "%%%c", conv);
		}
		n += snprintf(out + n, size - n, "%s", buf);
		if (n >= size)
			n = size - 1;
	}
}

#pragma GCC diagnostic pop

static int on_event(struct ptk_agg *a, const struct ptk_agg_ev *ev)
{
	struct priv *p = (struct priv *)a;
	struct ptk_bpf_run *r = p->run;
	const struct tprobe *tp = &p->tp[ev->spec];
	char msg[1024], t[32] = "";
	bool json = r->ctx->json;

	if (p->name && !strstr(ev->comm, p->name))
		return 0;
	message(p, tp, ev, msg, sizeof(msg));
	if (p->msgf && !strstr(msg, p->msgf))
		return 0;
	if (!p->first_ns)
		p->first_ns = ev->ts_ns;
	if (json) {
		struct ptk_val v[7] = {
			PTK_F((ev->ts_ns - p->first_ns) / 1e9),
			PTK_U(ev->pid),
			PTK_U(ev->tid),
			PTK_S(ev->comm),
			PTK_S(tp->func),
			PTK_S(msg),
			PTK_U(ev->cpu),
		};
		ptk_sink_event(&r->ctx->sink, &p->tab, v);
	} else {
		if (p->ts)
			printf("%-14.6f ", (ev->ts_ns - p->first_ns) / 1e9);
		if (p->time)
			printf("%-8s ", ptk_bpf_clock(t, sizeof(t)));
		if (p->cpu)
			printf("%-3u ", ev->cpu);
		printf("%-7u %-7u %-15s %-16s %s\n", ev->pid, ev->tid, ev->comm, tp->func, msg);
	}
	if (++p->events == (u64)p->max_events && p->max_events > 0)
		r->ctx->stop = 1;
	return 1;
}

static int parsed(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct priv *p = r->priv;
	struct ptk_agg *a = &p->agg;
	int rc;

	if (optind >= argc)
		return ptk_usage_error(r->ctx, "missing the PROBE");
	if (p->max && (ptk_parse_int(p->max, &rc) || rc <= 0))
		return ptk_usage_error(r->ctx, "invalid -M '%s'", p->max);
	p->max_events = p->max ? atol(p->max) : 0;
	for (; optind < argc; optind++) {
		struct tprobe *tp = &p->tp[p->nprobes];

		if (p->nprobes == MAX_PROBES)
			return ptk_usage_error(r->ctx, "more than %d probes", MAX_PROBES);
		if ((rc = parse_probe(r->ctx, argv[optind], tp)))
			return rc;
		a->specs[p->nprobes] = (struct ptk_agg_spec){
			.probe = tp->probe,
			.mode = AGG_EVENT,
			.ev = tp->ev,
			.filter = tp->filter[0] ? tp->filter : NULL,
		};
		p->nprobes++;
	}
	a->nspecs = p->nprobes;
	a->mode = PTK_AGG_COUNT;
	a->on_event = on_event;
	p->run = NULL;
	if ((rc = ptk_agg_parse(a)))
		return rc == -EINVAL ? ptk_usage_error(r->ctx, "%s", a->err) : PTK_EXIT_RUNTIME;
	return 0;
}

static int prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;
	bool fmt = false;
	int rc;

	if ((rc = ptk_agg_cmd_prepare(&p->agg, r)))
		return rc;
	p->run = r;
	for (int i = 0; i < p->nprobes; i++)
		fmt |= p->tp[i].fmt[0] != '\0';
	if (r->ctx->json) {
		static const char *const names[7] = { "TIME", "PID", "TID", "COMM",
						      "FUNC", "MSG", "CPU" };
		static const char *const keys[7] = { "time_s", "pid", "tid", "comm",
						     "func",   "msg", "cpu" };
		static const enum ptk_vtype types[7] = { PTK_V_F64, PTK_V_U64, PTK_V_U64, PTK_V_STR,
							 PTK_V_STR, PTK_V_STR, PTK_V_U64 };
		for (int i = 0; i < 7; i++)
			p->cols[i] = (struct ptk_metric){ .name = names[i],
							  .key = keys[i],
							  .unit = "",
							  .type = types[i],
							  .prec = 6,
							  .help = "" };
		p->tab = (struct ptk_table){ "events", p->cols, 7 };
	} else {
		if (p->ts)
			printf("%-14s ", "TIME");
		if (p->time)
			printf("%-8s ", "TIME");
		if (p->cpu)
			printf("%-3s ", "CPU");
		printf("%-7s %-7s %-15s %-16s %s\n", "PID", "TID", "COMM", "FUNC", fmt ? "-" : "");
	}
	snprintf(r->banner, sizeof(r->banner), "Tracing %zu probes... Hit Ctrl-C to end.",
		 p->agg.ntargets);
	return 0;
}

static void destroy(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	ptk_agg_destroy(r);
	ptk_sym_free(p->sym);
	p->sym = NULL;
}

static int opt_tid(struct ptk_bpf_run *r, int c, const char *arg)
{
	return ptk_bpf_common_opt(r->ctx, &r->filter, 't', arg);
}

static const struct ptk_bpf_opt opts_all[] = {
	PTK_BPF_FLAG('t', "timestamp", struct priv, ts),
	PTK_BPF_FLAG('T', "time", struct priv, time),
	PTK_BPF_FLAG('C', "print_cpu", struct priv, cpu),
	PTK_BPF_STR('M', "max-events", struct priv, max),
	PTK_BPF_STR('n', "name", struct priv, name),
	PTK_BPF_STR('f', "msg-filter", struct priv, msgf),
	PTK_BPF_CALL('L', "tid", required_argument),
	{ 0 },
};

static const struct ptk_bpf_ops ops = {
	.name = "trace",
	.usage = usage,
	.opts = opts_all,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_NO_OPERANDS,
	.opt = opt_tid,
	.parsed = parsed,
	.prepare = prepare,
	.begin = ptk_agg_begin,
	.load_lskel = ptk_agg_load_lskel,
	.open = ptk_agg_open,
	.load = ptk_agg_load,
	.event = ptk_agg_event,
	.destroy = destroy,
	.needs_tracefs = true,
};

int cmd_trace(struct ptk_ctx *ctx, int argc, char **argv)
{
	static struct priv p;

	memset(&p, 0, sizeof(p));
	return ptk_bpf_main(ctx, &ops, &p, argc, argv);
}
