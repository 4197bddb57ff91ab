// SPDX-License-Identifier: GPL-2.0
/*
 * ptk mpstat: per-CPU statistics, as sysstat 12.7 mpstat: CPU utilization (-u), NUMA nodes
 * (-n, -N), interrupts (-I SUM|CPU|SCPU|ALL), with -A, -P, -T, -U, -H and --dec.
 *
 * Per-CPU times are keyed by the "cpuN" label of /proc/stat, never by line order. The rows
 * are the cpu activity's cpu_sum rows (model/act_cpu.c): "all" is the sum of the CPUs shown;
 * a CPU offline now has no row, nor one that came online without a baseline; a CPU back
 * online is counted from its last known times, idle and iowait restarting from zero. The
 * CPUs counted are those of the first sample (-H: every CPU seen since).
 *
 * -o JSON writes the same rows in sysstat's layout (output/sysstat.h): a "statistics"
 * element per report (none for the Average) with cpu-load, node-load, sum-interrupts,
 * individual-interrupts and soft-interrupts.
 */
#include <errno.h>
#include <json-c/json.h>
#include <langinfo.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/activity.h"
#include "output/sysstat.h"

#define MP_MAX_CPUS 8192

static const char usage[] =
	"usage: ptk mpstat [-A] [-H] [-n] [-T] [-u] [-U] [-V] [-I SUM|CPU|SCPU|ALL]\n"
	"                  [-N node-list|ALL] [--dec=0|1|2] [-o JSON] [-P cpu-list|ON|ALL]\n"
	"                  [--json] [interval [count]]\n"
	"Per-CPU statistics, as sysstat mpstat. Without an interval: one report since boot.\n"
	"With one: a report per interval, then Average: lines (also on Ctrl-C).\n"
	"  -u          CPU utilization: %usr %nice %sys %iowait %irq %soft %steal %guest\n"
	"              %gnice %idle (the default)\n"
	"  -P LIST     CPUs (e.g. 0,2-3; ALL or ON: every CPU, with the all row)\n"
	"  -n, -N LIST CPU utilization per NUMA node (LIST: node numbers, all, ALL)\n"
	"  -I SUM      interrupts per second per CPU; CPU: per interrupt and CPU\n"
	"              (/proc/interrupts); SCPU: per softirq and CPU; ALL: the three\n"
	"  -A          -u -n -I ALL (and -P ALL -N ALL unless given)\n"
	"  -T          logical core, socket and node of each CPU\n"
	"  -U          seconds since the epoch instead of the time of day\n"
	"  -H          count CPUs hot-plugged after the start too\n"
	"  --dec=N     N decimal places (0 to 2)\n"
	"  -o JSON     sysstat's JSON layout; --json: ptk's NDJSON\n"
	"An offline CPU has no row; a CPU that came back online counts from its last known\n"
	"times (its idle and iowait restart from zero), as sysstat 12.7.\n";

/* what -V lists when set, as sysstat 12.7 (mpstat reads these) */
static const char *const mp_env[] = { "S_COLORS", "S_COLORS_SGR", "S_TIME_FORMAT" };

enum { A_CPU = 1, A_NODE = 2, A_SUM = 4, A_ICPU = 8, A_SCPU = 16 };

struct mp {
	struct ptk_ctx *ctx;
	unsigned acts; /* A_* */
	bool use_p, use_n, topo, epoch, hotplug, sjson;
	bool *sel; /* [MP_MAX_CPUS + 1]: sel[0] the all row, sel[1 + i] CPU i */
	bool *nsel; /* [MP_MAX_CPUS + 1]: nsel[0] all, nsel[1 + n] node n */
	int dec; /* --dec, -1: the registry's */
	int ncpu; /* CPUs counted (cpu_nr) */
	int *cpu2node; /* [MP_MAX_CPUS] */
	int nnode; /* highest node + 1, 0: no NUMA information */
	int *core, *sock; /* [MP_MAX_CPUS] -T, read each sample */
	bool dis_always; /* a header before every report */
	int rows_hdr, lines; /* reports between headers when not always */
	struct ptk_snap first, prev, cur;
	struct ptk_rows rows;
	char prev_t[32], cur_t[32];
	long reports;
	struct ptk_sjson js; /* -o JSON */
};

/* ---- output --------------------------------------------------------------------------- */

/* A registry entry as mpstat prints it: its width w (0: the entry's), --dec's decimals. */
static struct ptk_metric col(const struct mp *m, enum ptk_mid id, int w)
{
	struct ptk_metric c = ptk_registry[id];

	if (w)
		c.width = w;
	if (m->dec >= 0 && c.type == PTK_V_F64 && c.prec > 0)
		c.prec = m->dec;
	return c;
}

/* CPU n is online per the online file, yet /proc/stat has no line for it: that file was cut
 * short, and the CPU's times are unknown (not an offline CPU's missing row). */
static bool cpu_unlisted(const struct ptk_snap *s, int n)
{
	return ptk_snap_has(s, PTK_SNAP_ONLINE) && n < s->online_n && s->online[n] &&
	       (n >= s->st.ncpu || !s->st.present[n]);
}

static const enum ptk_mid cpu_cols[] = {
	PTK_M_CPU_USR,	PTK_M_CPU_NICE,	 PTK_M_CPU_SYS,	  PTK_M_CPU_IOWAIT, PTK_M_CPU_IRQ,
	PTK_M_CPU_SOFT, PTK_M_CPU_STEAL, PTK_M_CPU_GUEST, PTK_M_CPU_GNICE,  PTK_M_CPU_IDLE,
};
#define NPCT ((int)ARRAY_SIZE(cpu_cols))

/* The time of a report line: -U's epoch seconds or the time of day, as sysstat prints it
 * (%X in the locale, %H:%M:%S with S_TIME_FORMAT=ISO). */
static void clock_str(const struct mp *m, char *buf, size_t size)
{
	time_t t = (time_t)ptk_ctx_walltime(m->ctx);
	const char *f = getenv("S_TIME_FORMAT");
	struct tm tm;

	if (m->epoch) {
		snprintf(buf, size, "%lld", (long long)t);
		return;
	}
	localtime_r(&t, &tm);
	if (f && !strcmp(f, "ISO"))
		strftime(buf, size, "%H:%M:%S", &tm);
	else
		strftime(buf, size, "%X", &tm);
}

/* A table of a report: its entity column (width 4) and columns cols[], as text. */
struct tab {
	struct ptk_metric c[PTK_ROW_MAXCOLS + 4];
	struct ptk_table t;
};

static void tab_init(struct tab *tb, const char *name)
{
	memset(tb, 0, sizeof(*tb));
	tb->t.name = name;
	tb->t.cols = tb->c;
}

static void tab_add(struct tab *tb, struct ptk_metric c)
{
	if (tb->t.ncols < (int)ARRAY_SIZE(tb->c))
		tb->c[tb->t.ncols++] = c;
}

static void hdr(struct mp *m, const struct tab *tb, const char *t)
{
	struct ptk_sink *s = &m->ctx->sink;

	fputc('\n', s->out);
	ptk_sink_table_begin(s, &tb->t, true, t);
}

/* A report's table begins: -o JSON's section js (sysstat's name), else the header (dis) or
 * none, or ptk's JSON array. */
static void tab_begin(struct mp *m, const struct tab *tb, const char *js, bool dis, const char *pt)
{
	if (m->sjson)
		ptk_sjson_section(&m->js, js);
	else if (dis && !m->ctx->json)
		hdr(m, tb, pt);
	else
		ptk_sink_table_begin(&m->ctx->sink, &tb->t, false, NULL);
}

/* A row of table t: its first nid columns name the item (strings in -o JSON). */
static void tab_row(struct mp *m, const struct ptk_table *t, int nid, const char *ct,
		    const struct ptk_val *v)
{
	if (!m->sjson) {
		ptk_sink_row(&m->ctx->sink, ct, v);
		return;
	}
	ptk_sjson_row_begin(&m->js);
	for (int i = 0; i < t->ncols; i++)
		(i < nid ? ptk_sjson_id : ptk_sjson_val)(&m->js, ptk_col(t, i), &v[i]);
	ptk_sjson_row_end(&m->js);
}

static void tab_end(struct mp *m, const char *key, struct json_object *jo)
{
	if (m->sjson)
		return;
	if (jo)
		json_object_object_add(jo, key, json_object_get(m->ctx->sink.arr));
	ptk_sink_table_end(&m->ctx->sink);
}

/* The column of metric id, with its key in sysstat's -o JSON. */
static struct ptk_metric colj(const struct mp *m, enum ptk_mid id, int w, const char *key)
{
	struct ptk_metric c = col(m, id, w);

	c.sjson = key;
	return c;
}

/* The cpu activity's value of metric id in row r (na when r is NULL). */
static struct ptk_val rv(enum ptk_act_id a, const struct ptk_row *r, enum ptk_mid id)
{
	int i = ptk_act_col(&ptk_activities[a], id);

	return r && i >= 0 ? r->v[i] : PTK_NA;
}

/* CPU utilization (and -T's topology). */
static void rep_cpu(struct mp *m, const struct ptk_snap *o, const struct ptk_snap *n,
		    const struct ptk_act_opts *ao, bool dis, const char *pt, const char *ct,
		    struct json_object *jo)
{
	struct ptk_val v[PTK_ROW_MAXCOLS];
	struct tab tb;
	char label[16];

	tab_init(&tb, "cpus");
	tab_add(&tb, colj(m, PTK_M_CPU_ID, 4, "cpu"));
	if (m->topo) {
		tab_add(&tb, colj(m, PTK_M_CPU_CORE, 4, "core"));
		tab_add(&tb, colj(m, PTK_M_CPU_SOCKET, 4, "socket"));
		tab_add(&tb, colj(m, PTK_M_CPU_NODE, 4, "node"));
	}
	for (int i = 0; i < NPCT; i++)
		tab_add(&tb, col(m, cpu_cols[i], 7));
	m->rows.n = 0;
	ptk_activities[PTK_ACT_CPU].rows(o, n, 0, ao, &m->rows);
	tab_begin(m, &tb, "cpu-load", dis, pt);
	bool cut = false;
	for (int c = 0; c < m->ncpu; c++)
		cut |= cpu_unlisted(n, c);
	for (int c = -1; c < m->ncpu; c++) {
		const struct ptk_row *r;
		int k = 0;

		if (!m->sel[c + 1])
			continue;
		snprintf(label, sizeof(label), c < 0 ? "all" : "%d", c);
		/* a CPU online that a cut /proc/stat does not list: unknown, and so is the sum */
		bool unk = c < 0 ? cut : cpu_unlisted(n, c);
		if (!(r = ptk_rows_find(&m->rows, label)) && !unk)
			continue; /* offline, or back online without a baseline */
		if (unk)
			r = NULL;
		v[k++] = PTK_S(label);
		if (m->topo) {
			bool t = c >= 0;
			v[k++] = t && m->core[c] >= 0 ? PTK_I(m->core[c]) : t ? PTK_NA : PTK_S("");
			v[k++] = t && m->sock[c] >= 0 ? PTK_I(m->sock[c]) : t ? PTK_NA : PTK_S("");
			v[k++] = t && m->cpu2node[c] >= 0 ? PTK_I(m->cpu2node[c]) :
				 t			  ? PTK_NA :
							    PTK_S("");
		}
		for (int i = 0; i < NPCT; i++)
			v[k++] = rv(PTK_ACT_CPU, r, cpu_cols[i]);
		if (m->topo && c < 0) /* blank cells under CORE SOCK NODE */
			for (int i = 1; i <= 3; i++)
				tb.c[i].type = PTK_V_STR;
		tab_row(m, &tb.t, m->topo ? 4 : 1, ct, v);
		if (m->topo && c < 0)
			for (int i = 1; i <= 3; i++)
				tb.c[i].type = PTK_V_S64;
	}
	tab_end(m, "cpus", jo);
}

/* CPU utilization per NUMA node. */
static void rep_node(struct mp *m, const struct ptk_snap *o, const struct ptk_snap *n,
		     const struct ptk_act_opts *ao, bool dis, const char *pt, const char *ct,
		     struct json_object *jo)
{
	struct ptk_val v[PTK_ROW_MAXCOLS];
	struct tab tb;
	char label[16];

	tab_init(&tb, "nodes");
	tab_add(&tb, colj(m, PTK_M_NODE_ID, 4, "node"));
	for (int i = 0; i < NPCT; i++)
		tab_add(&tb, col(m, cpu_cols[i], 7));
	m->rows.n = 0;
	ptk_activities[PTK_ACT_NODE].rows(o, n, 0, ao, &m->rows);
	tab_begin(m, &tb, "node-load", dis, pt);
	for (int nd = -1; nd < m->nnode; nd++) {
		const struct ptk_row *r;

		if (!m->nsel[nd + 1])
			continue;
		snprintf(label, sizeof(label), nd < 0 ? "all" : "%d", nd);
		if (!(r = ptk_rows_find(&m->rows, label)))
			continue;
		v[0] = PTK_S(label);
		for (int i = 0; i < NPCT; i++)
			v[1 + i] = rv(PTK_ACT_NODE, r, cpu_cols[i]);
		tab_row(m, &tb.t, 1, ct, v);
	}
	tab_end(m, "nodes", jo);
}

/* Interrupts per second per CPU. */
static void rep_sum(struct mp *m, const struct ptk_snap *o, const struct ptk_snap *n, double itv,
		    const struct ptk_act_opts *ao, bool dis, const char *pt, const char *ct,
		    struct json_object *jo)
{
	struct ptk_val v[2];
	struct tab tb;
	char label[16];

	tab_init(&tb, "sum_interrupts");
	tab_add(&tb, colj(m, PTK_M_IRQ_CPU, 4, "cpu"));
	tab_add(&tb, colj(m, PTK_M_IRQ_CPU_S, 9, "intr"));
	m->rows.n = 0;
	ptk_activities[PTK_ACT_IRQ_SUM].rows(o, n, itv, ao, &m->rows);
	tab_begin(m, &tb, "sum-interrupts", dis, pt);
	for (int c = -1; c < m->ncpu; c++) {
		const struct ptk_row *r;

		if (!m->sel[c + 1])
			continue;
		snprintf(label, sizeof(label), c < 0 ? "all" : "%d", c);
		if (!(r = ptk_rows_find(&m->rows, label)))
			continue;
		v[0] = PTK_S(label);
		v[1] = rv(PTK_ACT_IRQ_SUM, r, PTK_M_IRQ_CPU_S);
		tab_row(m, &tb.t, 1, ct, v);
	}
	tab_end(m, "sum_interrupts", jo);
}

/* Did the interrupt lines change between two samples (names, count)? */
static bool irqs_changed(const struct ptk_irqs *a, const struct ptk_irqs *b)
{
	if (a->n != b->n)
		return true;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->name[i], b->name[i]))
			return true;
	return false;
}

/* Each interrupt (or softirq) per CPU: a column per line of the file. */
static void rep_irq(struct mp *m, enum ptk_act_id act, const struct ptk_snap *o,
		    const struct ptk_snap *n, double itv, const struct ptk_act_opts *ao, bool dis,
		    bool avg, const char *pt, const char *ct, struct json_object *jo)
{
	const struct ptk_irqs *q = act == PTK_ACT_IRQ ? &n->intr : &n->sirq;
	const struct ptk_irqs *qo = o ? (act == PTK_ACT_IRQ ? &o->intr : &o->sirq) : NULL;
	enum ptk_mid rate = act == PTK_ACT_IRQ ? PTK_M_IRQ_S : PTK_M_SOFTIRQ_S;
	struct ptk_metric *cols = xcalloc(q->n + 1, sizeof(*cols));
	struct ptk_val *v = xcalloc(q->n + 1, sizeof(*v));
	char(*titles)[PTK_IRQ_NAME + 2] = xcalloc(q->n + 1, sizeof(*titles));
	struct ptk_table t = { act == PTK_ACT_IRQ ? "interrupts" : "soft_interrupts", cols,
			       q->n + 1, NULL };
	struct json_object *arr = jo ? json_object_new_array() : NULL;
	char label[16], key[64];

	cols[0] = colj(m, PTK_M_IRQ_CPU, 4, "cpu");
	for (int i = 0; i < q->n; i++) {
		int w = (int)strlen(q->name[i]) + 2;
		snprintf(titles[i], sizeof(titles[i]), "%s/s", q->name[i]);
		cols[1 + i] = colj(m, rate, w < 10 ? 10 : w, "value");
		cols[1 + i].name = titles[i];
	}
	m->rows.n = 0;
	ptk_activities[act].rows(o, n, itv, ao, &m->rows);
	/* the header again when the lines changed (an interrupt registered or freed) */
	if (m->sjson)
		ptk_sjson_section(&m->js,
				  act == PTK_ACT_IRQ ? "individual-interrupts" : "soft-interrupts");
	else if (!jo && (dis || (!avg && o && irqs_changed(q, qo))))
		hdr(m, &(struct tab){ .t = t }, pt);
	if (!m->sjson)
		ptk_sink_table_begin(&m->ctx->sink, &t, false, NULL);
	for (int c = 0; c < m->ncpu; c++) {
		struct json_object *jr = NULL, *ja = NULL;

		if (m->use_p && !m->sel[c + 1])
			continue;
		if (!ptk_act_cpu_shown(o, n, c))
			continue;
		snprintf(label, sizeof(label), "%d", c);
		v[0] = PTK_S(label);
		if (m->sjson) {
			/* {"cpu": "0", "intr": [{"name": "HI", "value": 0.00}, ...] } */
			ptk_sjson_row_begin(&m->js);
			ptk_sjson_id(&m->js, &cols[0], &v[0]);
			ptk_sjson_list_begin(&m->js, "intr");
		}
		if (arr) {
			jr = json_object_new_object();
			ja = json_object_new_array();
			json_object_object_add(jr, "cpu", json_object_new_string(label));
		}
		for (int i = 0; i < q->n; i++) {
			snprintf(key, sizeof(key), "%d/%s", c, q->name[i]);
			v[1 + i] = rv(act, ptk_rows_find(&m->rows, key), rate);
			if (m->sjson) {
				ptk_sjson_item_begin(&m->js);
				ptk_sjson_str(&m->js, "name", q->name[i]);
				ptk_sjson_val(&m->js, &cols[1 + i], &v[1 + i]);
				ptk_sjson_row_end(&m->js);
			}
			if (ja) {
				struct json_object *e = json_object_new_object();
				json_object_object_add(e, "name",
						       json_object_new_string(q->name[i]));
				json_object_object_add(e, ptk_registry[rate].key,
						       ptk_json_val(&cols[1 + i], &v[1 + i]));
				json_object_array_add(ja, e);
			}
		}
		if (m->sjson) {
			ptk_sjson_list_end(&m->js);
			ptk_sjson_row_end(&m->js);
		} else if (jr) {
			json_object_object_add(jr, "interrupts", ja);
			json_object_array_add(arr, jr);
		} else {
			ptk_sink_row(&m->ctx->sink, ct, v);
		}
	}
	if (jo)
		json_object_object_add(jo, t.name, arr);
	else if (!m->sjson)
		ptk_sink_table_end(&m->ctx->sink);
	free(titles);
	free(v);
	free(cols);
}

/*
 * One report between o and n (o NULL: since boot): each activity in mpstat's order. pt
 * heads the header lines, ct starts the rows ("Average:" for the average). dis: headers.
 */
static void report(struct mp *m, const struct ptk_snap *o, const struct ptk_snap *n,
		   const char *kind, bool dis, bool avg, const char *pt, const char *ct)
{
	struct ptk_act_opts ao = { .per_cpu = true,
				   .cpu_sum = true,
				   .ncpu = m->ncpu,
				   .cpu2node = m->cpu2node,
				   .irq_sum_softirqs = (m->acts & A_SCPU) != 0 };
	struct ptk_ctx *ctx = m->ctx;
	struct json_object *jo = NULL;
	double itv = o ? n->up.up_s - o->up.up_s : n->up.up_s;

	if (ctx->json) {
		ptk_sink_begin(&ctx->sink);
		ptk_sink_meta_str(&ctx->sink, "type", kind);
		if (strcmp(kind, "average"))
			ptk_sink_meta_f64(&ctx->sink, "time", ptk_ctx_walltime(ctx));
		ptk_sink_meta_f64(&ctx->sink, "interval_s", itv);
		ptk_sink_meta_u64(&ctx->sink, "ncpu", m->ncpu);
		jo = json_object_new_object();
	}
	if (m->sjson)
		ptk_sjson_stat(&m->js, ct); /* the time the report ends */
	if (m->acts & A_CPU)
		rep_cpu(m, o, n, &ao, dis, pt, ct, jo);
	if ((m->acts & A_NODE) && m->nnode)
		rep_node(m, o, n, &ao, dis, pt, ct, jo);
	if (m->acts & A_SUM)
		rep_sum(m, o, n, itv, &ao, dis, pt, ct, jo);
	if (m->acts & A_ICPU)
		rep_irq(m, PTK_ACT_IRQ, o, n, itv, &ao, dis, avg, pt, ct, jo);
	if (m->acts & A_SCPU)
		rep_irq(m, PTK_ACT_SOFTIRQ, o, n, itv, &ao, dis, avg, pt, ct, jo);
	if (jo) {
		json_object_object_foreach(jo, k, val)
		{
			ptk_sink_meta_json(&ctx->sink, k, json_object_get(val));
		}
		json_object_put(jo);
		ptk_sink_end(&ctx->sink);
	}
	fflush(ctx->sink.out);
}

/* ---- samples -------------------------------------------------------------------------- */

static unsigned parts(const struct mp *m)
{
	unsigned p = PTK_SNAP_BIT(PTK_SNAP_ONLINE);

	if (m->acts & (A_SUM | A_ICPU))
		p |= PTK_SNAP_BIT(PTK_SNAP_INTERRUPTS);
	if (m->acts & A_SUM)
		p |= PTK_SNAP_BIT(PTK_SNAP_SOFTIRQS);
	if (m->acts & A_SCPU)
		p |= PTK_SNAP_BIT(PTK_SNAP_SOFTIRQS);
	return p;
}

/* CPUs in a tree: the highest of /proc/stat, the online and present lists, cpuN dirs + 1. */
static int count_cpus(struct ptk_ctx *ctx, const struct ptk_snap *s)
{
	char buf[4096];
	bool *present = xcalloc(MP_MAX_CPUS, sizeof(bool));
	int n = MAX(s->st.ncpu, s->online_n), r;

	if (ptk_src_read(&ctx->src, PTK_SYS, "devices/system/cpu/present", buf, sizeof(buf)) > 0) {
		r = ptk_parse_cpulist(buf, present, MP_MAX_CPUS);
		n = MAX(n, r);
	}
	free(present);
	r = ptk_cpu_count_read(&ctx->src);
	n = MAX(n, r);
	return MIN(n, MP_MAX_CPUS);
}

static void read_topo(struct mp *m)
{
	for (int c = 0; c < m->ncpu; c++)
		ptk_cpu_topo_read(&m->ctx->src, c, &m->core[c], &m->sock[c]);
}

static int read_sample(struct mp *m, struct ptk_snap *s)
{
	int r = ptk_snap_read(&m->ctx->src, s, parts(m));

	if (r) {
		ptk_err("cannot read %s/%s: %s", m->ctx->src.procfs, s->err_file, strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (m->hotplug) {
		/* -H: CPUs plugged in after the start are counted from their first sample */
		int n = count_cpus(m->ctx, s);
		for (int c = m->ncpu; c < n; c++) {
			m->cpu2node[c] = ptk_cpu_node_read(&m->ctx->src, c);
			if (m->cpu2node[c] < 0)
				m->cpu2node[c] = -1;
			m->sel[c + 1] = m->sel[m->ncpu];
		}
		m->ncpu = MAX(m->ncpu, n);
	}
	if (m->topo)
		read_topo(m);
	return 0;
}

/* Reports between headers: the terminal's height less 2, else 23 (sysstat). */
static int win_rows(void)
{
	struct winsize w;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) && w.ws_row > 2)
		return w.ws_row - 2;
	return 23;
}

static int mp_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct mp *m = arg;
	bool dis;
	int r;

	(void)itv;
	(void)ctx;
	if (i == 0) {
		/* the first sample was read before the banner */
		ptk_snap_copy(&m->first, &m->prev);
		return 0;
	}
	if ((r = read_sample(m, &m->cur)))
		return r;
	clock_str(m, m->cur_t, sizeof(m->cur_t));
	dis = m->dis_always;
	if (!dis) {
		dis = m->lines / m->rows_hdr;
		if (dis)
			m->lines %= m->rows_hdr;
		m->lines++;
	}
	report(m, &m->prev, &m->cur, "interval", dis, false, m->prev_t, m->cur_t);
	ptk_act_cpu_carry(&m->prev, &m->cur);
	m->reports++;
	ptk_snap_copy(&m->prev, &m->cur);
	snprintf(m->prev_t, sizeof(m->prev_t), "%s", m->cur_t);
	return 0;
}

/* ---- options -------------------------------------------------------------------------- */

/* sysstat's list syntax for -P and -N: numbers and ranges (0,3-5), "all" for the all row,
 * "ALL" for everything. sel[0] is all, sel[1 + i] item i. 0, or -1 for a bad item or one
 * above max (n items). */
static int parse_list(const char *arg, bool *sel, int n)
{
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0;

	if (!strcmp(arg, "ALL")) {
		for (int i = 0; i <= n; i++)
			sel[i] = true;
		free(dup);
		return 0;
	}
	for (char *w = strtok_r(dup, ",", &save); w && !r; w = strtok_r(NULL, ",", &save)) {
		bool *mask;
		int hi;

		if (!strcmp(w, "all")) {
			sel[0] = true;
			continue;
		}
		mask = xcalloc(n + 1, sizeof(bool));
		hi = ptk_parse_cpulist(w, mask, n + 1);
		if (hi <= 0 || hi > n)
			r = -1;
		for (int i = 0; i < n && !r; i++)
			if (mask[i])
				sel[i + 1] = true;
		free(mask);
	}
	free(dup);
	return r;
}

enum { OPT_DEC = 0x100 };

int cmd_mpstat(struct ptk_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dec", required_argument, NULL, OPT_DEC },
		PTK_COMMON_OPTS,
		{ 0 },
	};
	struct mp m = { .ctx = ctx, .dec = -1 };
	const char *parg = NULL, *narg = NULL;
	bool has_itv = false, opt_a = false, actset = false;
	double interval = 1;
	long count = -1;
	int c, rc = 0, nacts = 0;

	while ((c = ptk_getopt(ctx, argc, argv, "AHI:nN:o:P:TuUV", opts, usage, &rc)) >= 0) {
		switch (c) {
		case 'A':
			opt_a = actset = true;
			m.acts |= A_CPU | A_NODE | A_SUM | A_ICPU | A_SCPU;
			break;
		case 'H':
			m.hotplug = true;
			break;
		case 'I': {
			char *dup = xstrdup(optarg), *save = NULL;
			actset = true;
			for (char *w = strtok_r(dup, ",", &save); w;
			     w = strtok_r(NULL, ",", &save)) {
				if (!strcmp(w, "SUM"))
					m.acts |= A_SUM;
				else if (!strcmp(w, "CPU"))
					m.acts |= A_ICPU;
				else if (!strcmp(w, "SCPU"))
					m.acts |= A_SCPU;
				else if (!strcmp(w, "ALL"))
					m.acts |= A_SUM | A_ICPU | A_SCPU;
				else {
					rc = ptk_usage_error(ctx,
							     "invalid -I keyword '%s' in '%s' "
							     "(SUM, CPU, SCPU, ALL)",
							     w, optarg);
					free(dup);
					return rc;
				}
			}
			free(dup);
			break;
		}
		case 'n':
			m.acts |= A_NODE;
			actset = true;
			break;
		case 'N':
			narg = optarg;
			m.acts |= A_NODE;
			actset = true;
			break;
		case 'o':
			if (strcmp(optarg, "JSON"))
				return ptk_usage_error(ctx, "invalid -o format '%s' (JSON)",
						       optarg);
			m.sjson = true;
			break;
		case 'P':
			parg = optarg;
			break;
		case 'T':
			m.topo = true;
			break;
		case 'u':
			m.acts |= A_CPU;
			break;
		case 'U':
			m.epoch = true;
			break;
		case 'V':
			ptk_sysstat_version(stdout, mp_env, ARRAY_SIZE(mp_env));
			return 0;
		case OPT_DEC:
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2')
				return ptk_usage_error(ctx, "invalid --dec value '%s' (0, 1 or 2)",
						       optarg);
			m.dec = optarg[0] - '0';
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return rc;
	if (m.sjson && ctx->json)
		return ptk_usage_error(ctx, "-o JSON (sysstat's layout) and --json (ptk's) do not "
					    "go together");
	if (m.sjson)
		m.dec = -1; /* sysstat's JSON has two decimals whatever --dec says */
	/* "0" alone: the report since boot, as sysstat */
	if (argc - optind == 1 && !strcmp(argv[optind], "0")) {
		optind++;
	} else if ((rc = ptk_parse_interval_count(ctx, argc, argv, &interval, &count, &has_itv))) {
		return rc;
	}
	if ((rc = ptk_ctx_ready(ctx)))
		return rc;

	m.sel = xcalloc(MP_MAX_CPUS + 1, sizeof(bool));
	m.nsel = xcalloc(MP_MAX_CPUS + 1, sizeof(bool));
	m.cpu2node = xcalloc(MP_MAX_CPUS, sizeof(int));
	m.core = xcalloc(MP_MAX_CPUS, sizeof(int));
	m.sock = xcalloc(MP_MAX_CPUS, sizeof(int));
	/* the first sample: which CPUs and nodes there are */
	if ((rc = ptk_snap_read(&ctx->src, &m.prev, parts(&m)))) {
		ptk_err("cannot read %s/%s: %s", ctx->src.procfs, m.prev.err_file, strerror(-rc));
		rc = PTK_EXIT_RUNTIME;
		goto out_free;
	}
	m.ncpu = count_cpus(ctx, &m.prev);
	for (int i = 0; i < m.ncpu; i++) {
		m.cpu2node[i] = ptk_cpu_node_read(&ctx->src, i);
		if (m.cpu2node[i] < 0 || m.cpu2node[i] >= m.ncpu)
			m.cpu2node[i] = -1;
		m.nnode = MAX(m.nnode, m.cpu2node[i] + 1);
	}
	if (parg && parse_list(strcasecmp(parg, "ON") ? parg : "ALL", m.sel, m.ncpu)) {
		rc = ptk_usage_error(ctx, "invalid -P value '%s' (CPUs 0 to %d, ALL, ON)", parg,
				     m.ncpu - 1);
		goto out_free;
	}
	if (narg && m.nnode && parse_list(narg, m.nsel, m.nnode)) {
		rc = ptk_usage_error(ctx, "invalid -N value '%s' (nodes 0 to %d, all, ALL)", narg,
				     m.nnode - 1);
		goto out_free;
	}
	if (narg && !m.nnode && (parse_list(narg, m.nsel, m.ncpu) || !strcmp(narg, "-1"))) {
		rc = ptk_usage_error(ctx, "invalid -N value '%s'", narg);
		goto out_free;
	}
	m.use_p = parg != NULL;
	m.use_n = narg != NULL && m.nnode;
	if (!m.nnode)
		m.acts &= ~A_NODE;
	/* the default: CPU utilization (also "-P 1", "-P 1 -n") */
	if (!actset || (m.use_p && !(m.acts & ~A_NODE)))
		m.acts |= A_CPU;
	for (unsigned a = m.acts; a; a &= a - 1)
		nacts++;
	m.dis_always = m.use_p || m.use_n || nacts > 1;
	if (opt_a) {
		if (m.nnode && !m.use_n) {
			for (int i = 0; i <= m.nnode; i++)
				m.nsel[i] = true;
			m.use_n = true;
		}
		if (!m.use_p) {
			for (int i = 0; i <= m.ncpu; i++)
				m.sel[i] = true;
			m.use_p = true;
		}
	}
	if (!m.use_p)
		m.sel[0] = true;
	if (!m.use_n)
		m.nsel[0] = true;
	if (m.hotplug && m.use_p && m.sel[m.ncpu])
		m.sel[m.ncpu + 1] = true; /* -P ALL: CPUs plugged in later too */
	m.rows_hdr = m.dis_always ? 1 : win_rows();
	m.lines = m.rows_hdr;
	if (m.topo)
		read_topo(&m);
	if (m.sjson) {
		/* sysstat's JSON has no Average (nor a header) */
		struct ptk_sysenv env;
		struct ptk_host h;
		char date[64];
		ptk_sysenv_read(&env);
		ptk_ctx_host(ctx, &h);
		ptk_sysstat_date(&env, (time_t)ptk_ctx_walltime(ctx), date, sizeof(date));
		m.js.dec = -1;
		ptk_sjson_begin(&m.js, stdout, &h, m.ncpu, date);
	} else if (!ctx->json) {
		ptk_ctx_banner(ctx, m.ncpu);
		ctx->sink.prefix_width = 11;
	}
	clock_str(&m, m.prev_t, sizeof(m.prev_t));
	if (!has_itv) {
		report(&m, NULL, &m.prev, "since_boot", true, false, m.prev_t, m.prev_t);
		goto out_free;
	}
	rc = ptk_loop(ctx, interval, count, mp_sample, &m);
	if (rc > 0)
		goto out_free;
	/* stopped before the count (Ctrl-C, or a replay's samples ran out): sysstat ends the
	 * "^C" line the terminal echoed */
	if ((rc == -EINTR || (count < 0 || m.reports < count)) && m.reports > 0 && !ctx->json &&
	    !m.sjson)
		fputc('\n', ctx->sink.out);
	rc = 0;
	if (m.reports > 0 && !m.sjson)
		report(&m, &m.first, &m.prev, "average", m.dis_always, true,
		       "Average:", "Average:");
out_free:
	if (m.js.f)
		ptk_sjson_end(&m.js);
	ptk_snap_free(&m.first);
	ptk_snap_free(&m.prev);
	ptk_snap_free(&m.cur);
	ptk_rows_free(&m.rows);
	free(m.sel);
	free(m.nsel);
	free(m.cpu2node);
	free(m.core);
	free(m.sock);
	return rc;
}
