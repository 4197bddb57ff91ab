// SPDX-License-Identifier: GPL-2.0
/*
 * ptk cgtop: the cgroups of the machine by CPU, memory, I/O and tasks, as systemd-cgtop
 * shows them (its options, columns and units), plus what systemd-cgtop leaves out: the CPU
 * quota and the share of periods throttled, memory against memory.max / memory.high and the
 * working set, each cgroup's own pressure, and who owns it (container, pod, unit). A tree:
 * parents before their children, siblings sorted. Batch text (-b), JSON (--json) or the TUI.
 * The data: source/cgroup (the reader), model/cgroup (rates, order).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/cgroup.h"
#include "output/tui.h"

/* The text columns after the path, in order. */
static const enum ptk_mid text_cols[] = {
	PTK_M_CG_TASKS,	       PTK_M_CG_CPU_PCT,     PTK_M_CG_QUOTA,   PTK_M_CG_THR_PCT,
	PTK_M_CG_MEM,	       PTK_M_CG_WSET,	     PTK_M_CG_MEM_MAX, PTK_M_CG_MEM_HIGH,
	PTK_M_CG_LIMIT_PCT,    PTK_M_CG_RBPS,	     PTK_M_CG_WBPS,    PTK_M_CG_PSI_CPU_SOME,
	PTK_M_CG_PSI_MEM_SOME, PTK_M_CG_PSI_IO_SOME,
};
/* Every value of a row in JSON. */
static const enum ptk_mid json_cols[] = {
	PTK_M_CG_TASKS,	       PTK_M_CG_TASKS_MAX,    PTK_M_CG_CPU_PCT,	     PTK_M_CG_USER_PCT,
	PTK_M_CG_SYS_PCT,      PTK_M_CG_QUOTA,	      PTK_M_CG_PERIOD_US,    PTK_M_CG_QUOTA_PCT,
	PTK_M_CG_PERIODS,      PTK_M_CG_THROTTLED,    PTK_M_CG_THR_PCT,	     PTK_M_CG_THR_S,
	PTK_M_CG_MEM,	       PTK_M_CG_WSET,	      PTK_M_CG_RSS,	     PTK_M_CG_CACHE,
	PTK_M_CG_SWAP,	       PTK_M_CG_PEAK,	      PTK_M_CG_MEM_MAX,	     PTK_M_CG_MEM_HIGH,
	PTK_M_CG_MEM_LOW,      PTK_M_CG_LIMIT_PCT,    PTK_M_CG_EV_HIGH,	     PTK_M_CG_EV_MAX,
	PTK_M_CG_EV_OOM,       PTK_M_CG_EV_OOM_KILL,  PTK_M_CG_MAJFLT,	     PTK_M_CG_RBPS,
	PTK_M_CG_WBPS,	       PTK_M_CG_RIOPS,	      PTK_M_CG_WIOPS,	     PTK_M_CG_PSI_CPU_SOME,
	PTK_M_CG_PSI_CPU_FULL, PTK_M_CG_PSI_MEM_SOME, PTK_M_CG_PSI_MEM_FULL, PTK_M_CG_PSI_IO_SOME,
	PTK_M_CG_PSI_IO_FULL,
};

struct cgtop {
	struct ptk_ctx *ctx;
	struct ptk_cgsnap snap[2];
	int cur;
	bool have_prev;
	struct ptk_cg_row *rows;
	int *order, nrows, nord, rcap;
	enum ptk_cg_sort sort;
	bool tree, flat, raw;
	int depth; /* below root */
	const char *root; /* GROUP operand, "/" default */
	size_t rootlen;
	int root_depth;
	double itv;
	int iteration;
};

/* systemd's format_bytes: 1024 based, one decimal truncated, "B" below 1 KiB. */
static void fmt_bytes(double x, char *buf, size_t size)
{
	static const char suf[] = "KMGTPE";
	u64 b = (u64)x;
	u64 f = 1024;
	int i = 0;

	if (b < 1024) {
		snprintf(buf, size, "%" PRIu64 "B", b);
		return;
	}
	while (i < 5 && b >= f * 1024) {
		f *= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 ".%" PRIu64 "%c", b / f, (b * 10 / f) % 10, suf[i]);
}

static void fmt_cell(const struct cgtop *t, const struct ptk_cg_row *r, enum ptk_mid id, char *buf,
		     size_t size)
{
	const struct ptk_metric *m = &ptk_registry[id];
	double x = ptk_cg_row_value(r, id);

	if (isnan(x))
		snprintf(buf, size, "-");
	else if (isinf(x))
		snprintf(buf, size, "max");
	else if (m->unit[0] == 'B' && t->raw)
		snprintf(buf, size, "%.0f", x);
	else if (m->unit[0] == 'B')
		fmt_bytes(x, buf, size);
	else
		snprintf(buf, size, "%.*f", m->prec, x);
}

/* Is the cgroup at path under the GROUP operand (or it)? */
static bool under_root(const struct cgtop *t, const char *path)
{
	if (t->rootlen == 1)
		return true;
	return !strncmp(path, t->root, t->rootlen) &&
	       (path[t->rootlen] == '\0' || path[t->rootlen] == '/');
}

/* The rows of the last sample in the order shown: t->order[0..t->nord), those under the root. */
static void sort_rows(struct cgtop *t)
{
	int n = ptk_cg_order(t->rows, t->nrows, t->sort, !t->flat,
			     t->depth < 0 ? -1 : t->root_depth + t->depth, t->order);

	t->nord = 0;
	for (int i = 0; i < n; i++)
		if (under_root(t, t->rows[t->order[i]].cur->path))
			t->order[t->nord++] = t->order[i];
}

static int sample(struct cgtop *t)
{
	struct ptk_cgsnap *s = &t->snap[t->cur], *p = &t->snap[!t->cur];
	int r = ptk_cg_read(&t->ctx->src, s, t->depth < 0 ? -1 : t->root_depth + t->depth);

	if (r) {
		ptk_err("cannot read the cgroups under %s/fs/cgroup: %s", t->ctx->src.sysfs,
			strerror(-r));
		return PTK_EXIT_RUNTIME;
	}
	if (s->n > t->rcap) {
		t->rcap = s->n;
		t->rows = xrealloc(t->rows, t->rcap * sizeof(*t->rows));
		t->order = xrealloc(t->order, t->rcap * sizeof(*t->order));
	}
	t->itv = t->have_prev ? s->up_s - p->up_s : 0;
	t->nrows = ptk_cg_rows(t->have_prev ? p : NULL, s, t->rows);
	sort_rows(t);
	t->have_prev = true;
	t->cur = !t->cur;
	t->iteration++;
	return 0;
}

static int path_width(const struct cgtop *t)
{
	int w = 14;

	for (int i = 0; i < t->nord; i++) {
		const struct ptk_cgroup *c = t->rows[t->order[i]].cur;
		int l = t->tree ? 2 * (c->depth - t->root_depth) +
					  (int)strlen(strrchr(c->path, '/')) :
				  (int)strlen(c->path);
		w = MAX(w, l);
	}
	return MIN(w, 64);
}

static void path_cell(const struct cgtop *t, const struct ptk_cgroup *c, char *buf, size_t size)
{
	if (!t->tree) {
		snprintf(buf, size, "%s", c->path);
		return;
	}
	int d = c->depth - t->root_depth;
	const char *name = strrchr(c->path, '/');
	snprintf(buf, size, "%*s%s", 2 * (d > 0 ? d - 1 : 0), "",
		 d == 0 ? c->path :
		 name	? name + 1 :
			  c->path);
	if (d > 0) {
		char tmp[320];
		snprintf(tmp, sizeof(tmp), "%s%s", "`-", buf + 2 * (d - 1));
		snprintf(buf + 2 * (d - 1), size - 2 * (d - 1), "%s", tmp);
	}
}

/* The header line (width: of the path column). */
static void header_text(const struct cgtop *t, int pw, char *buf, size_t size)
{
	size_t off = snprintf(buf, size, "%-*s", pw, ptk_registry[PTK_M_CG_PATH].name);

	for (size_t k = 0; k < ARRAY_SIZE(text_cols) && off < size; k++) {
		const struct ptk_metric *m = &ptk_registry[text_cols[k]];
		off += snprintf(buf + off, size - off, " %*s", m->width, m->name);
	}
	if (off < size)
		snprintf(buf + off, size - off, " %s", ptk_registry[PTK_M_CG_OWNER].name);
}

static void row_text(const struct cgtop *t, const struct ptk_cg_row *r, int pw, char *buf,
		     size_t size)
{
	char cell[320];
	size_t off;

	path_cell(t, r->cur, cell, sizeof(cell));
	off = snprintf(buf, size, "%-*s", pw, cell);
	for (size_t k = 0; k < ARRAY_SIZE(text_cols) && off < size; k++) {
		const struct ptk_metric *m = &ptk_registry[text_cols[k]];
		fmt_cell(t, r, text_cols[k], cell, sizeof(cell));
		off += snprintf(buf + off, size - off, " %*s", m->width, cell);
	}
	if (off < size)
		snprintf(buf + off, size - off, " %s", r->owner[0] ? r->owner : "-");
}

static void print_text(struct cgtop *t)
{
	int pw = path_width(t);
	char line[1024];

	if (t->iteration > 1)
		fputc('\n', stdout);
	header_text(t, pw, line, sizeof(line));
	printf("%s\n", line);
	for (int i = 0; i < t->nord; i++) {
		row_text(t, &t->rows[t->order[i]], pw, line, sizeof(line));
		printf("%s\n", line);
	}
	fflush(stdout);
}

static struct json_object *jstr(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static void print_json(struct cgtop *t)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	const struct ptk_cgsnap *s = &t->snap[!t->cur];

	json_object_object_add(root, "time", json_object_new_double(ptk_ctx_walltime(t->ctx)));
	json_object_object_add(root, "layout",
			       json_object_new_string(ptk_cg_layout_name[s->layout]));
	json_object_object_add(root, "interval_s",
			       t->itv > 0 ? json_object_new_double(t->itv) : NULL);
	for (int i = 0; i < t->nord; i++) {
		const struct ptk_cg_row *r = &t->rows[t->order[i]];
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, PTK_M(CG_PATH)->key,
				       json_object_new_string(r->cur->path));
		json_object_object_add(o, "depth", json_object_new_int(r->cur->depth));
		json_object_object_add(o, "runtime", jstr(r->ident.runtime));
		json_object_object_add(o, "container_id", jstr(r->ident.id));
		json_object_object_add(o, "pod_uid", jstr(r->ident.pod_uid));
		json_object_object_add(o, "qos", jstr(r->ident.qos));
		json_object_object_add(o, "unit", jstr(r->ident.unit));
		for (size_t k = 0; k < ARRAY_SIZE(json_cols); k++) {
			const struct ptk_metric *m = &ptk_registry[json_cols[k]];
			double x = ptk_cg_row_value(r, json_cols[k]);
			struct ptk_val v = isnan(x) ? PTK_NA : PTK_F(x);
			json_object_object_add(o, m->key,
					       isinf(x) ? json_object_new_string("max") :
							  ptk_json_val(m, &v));
		}
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "cgroups", arr);
	ptk_sink_begin(&t->ctx->sink);
	json_object_put(t->ctx->sink.obj);
	t->ctx->sink.obj = root;
	ptk_sink_end(&t->ctx->sink);
}

static int batch_sample(struct ptk_ctx *ctx, void *arg, long i, double itv)
{
	struct cgtop *t = arg;
	int r = sample(t);

	if (r)
		return r;
	if (ctx->json)
		print_json(t);
	else
		print_text(t);
	return ptk_output_broken() ? PTK_EXIT_RUNTIME : 0;
}

/* ---- the TUI (output/tui.c ptk_tui_table) ---- */
static int tui_sample(void *arg)
{
	return sample(arg);
}

static void tui_title(void *arg, char *buf, size_t size)
{
	struct cgtop *t = arg;
	const struct ptk_cgsnap *s = &t->snap[!t->cur];

	snprintf(
		buf, size,
		"ptk cgtop: %d cgroups (%s), sorted by %s%s, interval %.1f s   [p]ath [t]asks "
		"[c]pu [m]emory [i]o [T]hrottle [P]ressure [r]aw [x] tree [f]lat [+/-] depth [q]uit",
		t->nord, ptk_cg_layout_name[s->layout], ptk_cg_sort_name[t->sort],
		t->flat ? ", flat" : "", t->itv);
}

static void tui_header(void *arg, char *buf, size_t size)
{
	struct cgtop *t = arg;

	header_text(t, path_width(t), buf, size);
}

static int tui_nrows(void *arg)
{
	return ((struct cgtop *)arg)->nord;
}

static void tui_row(void *arg, int i, char *buf, size_t size)
{
	struct cgtop *t = arg;

	row_text(t, &t->rows[t->order[i]], path_width(t), buf, size);
}

/* 0 ignored, 1 re-arrange, 2 sample again. */
static int tui_key(void *arg, int ch)
{
	struct cgtop *t = arg;
	static const struct {
		int ch;
		enum ptk_cg_sort s;
	} keys[] = { { 'p', PTK_CGS_PATH },    { 't', PTK_CGS_TASKS }, { 'c', PTK_CGS_CPU },
		     { 'm', PTK_CGS_MEMORY },  { 'i', PTK_CGS_IO },    { 'T', PTK_CGS_THROTTLE },
		     { 'P', PTK_CGS_PRESSURE } };

	for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
		if (ch == keys[k].ch) {
			t->sort = keys[k].s;
			break;
		}
	if (ch == 'r')
		t->raw = !t->raw;
	else if (ch == 'x')
		t->tree = !t->tree;
	else if (ch == 'f')
		t->flat = !t->flat;
	else if (ch == '+')
		t->depth = t->depth < 0 ? -1 : t->depth + 1;
	else if (ch == '-' && t->depth > 0)
		t->depth--;
	else if (ch == ' ')
		return 2;
	/* re-derive the order from the rows of the last sample */
	sort_rows(t);
	return ch == '+' ? 2 : 1;
}

static const char usage[] =
	"usage: ptk cgtop [-b] [-n N] [-d SECONDS] [--depth N] [-o|--order KEY] [-r|--raw]\n"
	"                 [--tree | --flat] [--json] [GROUP]\n"
	"The cgroups by CPU, memory, I/O and tasks, as systemd-cgtop shows them, plus each one's\n"
	"CPU quota (Quota, CPUs) and the share of its CFS periods throttled (%Thr), its working\n"
	"set (WSet, as cAdvisor counts it) against memory.max (Max) and memory.high (High) and as\n"
	"a share of the lower (%Lim), its own pressure (CPU-P, MEM-P, IO-P: % of the interval\n"
	"some task stalled, cgroup v2 trees only) and its owner (container runtime and id, pod\n"
	"and QoS class, systemd unit). Parents come before their children. cgroup v2, v1 and\n"
	"hybrid layouts; a value a cgroup does not have is '-', an absent limit 'max'.\n"
	"  -b, --batch        batch mode: print each iteration (default when not a terminal)\n"
	"  -n, --iterations N iterations before exiting (default: until stopped)\n"
	"  -d, --delay S      seconds between iterations (default 1)\n"
	"  --depth N          levels below GROUP to show (default 3; -1 all)\n"
	"  -o, --order KEY    sort by path, tasks, cpu (default), memory, io, throttle, pressure\n"
	"  -p, -t, -c, -m, -i the same as --order path, tasks, cpu, memory, io\n"
	"  -r, --raw          bytes as plain numbers\n"
	"  --tree             indent names under their parents instead of full paths\n"
	"  --flat             sort every cgroup by the key, parents not first\n"
	"  --json             one JSON object per iteration: {time, layout, interval_s,\n"
	"                     cgroups:[{cgroup, runtime, container_id, pod_uid, qos, unit, ...}]}\n"
	"  --sysfs DIR        read DIR/fs/cgroup; --procfs DIR replays a 'ptk capture' tree\n"
	"The first iteration has no rates ('-'), as in systemd-cgtop.\n";

int cmd_cgtop(struct ptk_ctx *ctx, int argc, char **argv)
{
	enum { O_DEPTH = 0x300, O_TREE, O_FLAT };
	static const struct option opts[] = { { "batch", no_argument, NULL, 'b' },
					      { "iterations", required_argument, NULL, 'n' },
					      { "delay", required_argument, NULL, 'd' },
					      { "depth", required_argument, NULL, O_DEPTH },
					      { "order", required_argument, NULL, 'o' },
					      { "raw", no_argument, NULL, 'r' },
					      { "tree", no_argument, NULL, O_TREE },
					      { "flat", no_argument, NULL, O_FLAT },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct cgtop t = { .ctx = ctx, .sort = PTK_CGS_CPU, .depth = 3, .root = "/" };
	bool batch = false;
	long iterations = -1;
	double delay = 1;
	int c, rc;

	while ((c = ptk_getopt(ctx, argc, argv, "bn:d:o:rptcmi", opts, usage, &rc)) >= 0) {
		switch (c) {
		case 'b':
			batch = true;
			break;
		case 'n': {
			int n;
			if (ptk_parse_int(optarg, &n) || n < 1)
				return ptk_usage_error(ctx, "invalid --iterations '%s'", optarg);
			iterations = n;
			break;
		}
		case 'd':
			if (ptk_parse_double(optarg, &delay) || delay < PTK_MIN_INTERVAL_S ||
			    delay > PTK_MAX_INTERVAL_S)
				return ptk_usage_error(ctx, "invalid --delay '%s'", optarg);
			break;
		case O_DEPTH:
			if (ptk_parse_int(optarg, &t.depth) || t.depth < -1)
				return ptk_usage_error(ctx, "invalid --depth '%s'", optarg);
			break;
		case 'o':
			if (ptk_cg_sort_parse(optarg, &t.sort))
				return ptk_usage_error(ctx,
						       "invalid --order '%s' (path, tasks, cpu, "
						       "memory, io, throttle, pressure)",
						       optarg);
			break;
		case 'p':
			t.sort = PTK_CGS_PATH;
			break;
		case 't':
			t.sort = PTK_CGS_TASKS;
			break;
		case 'c':
			t.sort = PTK_CGS_CPU;
			break;
		case 'm':
			t.sort = PTK_CGS_MEMORY;
			break;
		case 'i':
			t.sort = PTK_CGS_IO;
			break;
		case 'r':
			t.raw = true;
			break;
		case O_TREE:
			t.tree = true;
			break;
		case O_FLAT:
			t.flat = true;
			break;
		}
	}
	if (c == PTK_GETOPT_EXIT)
		return rc;
	if (optind < argc) {
		t.root = argv[optind++];
		if (t.root[0] != '/' || strlen(t.root) >= 256)
			return ptk_usage_error(ctx, "invalid GROUP '%s' (a path from /)", t.root);
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	t.rootlen = strlen(t.root);
	while (t.rootlen > 1 && t.root[t.rootlen - 1] == '/')
		t.rootlen--;
	for (size_t i = 1; i < t.rootlen; i++)
		t.root_depth += t.root[i] == '/';
	t.root_depth += t.rootlen > 1;
	if ((rc = ptk_ctx_ready(ctx)))
		return rc;
	/* read only what is shown (the text columns hold every sort key); JSON shows all */
	if (!ctx->json)
		t.snap[0].want = t.snap[1].want = ptk_cg_want(text_cols, ARRAY_SIZE(text_cols));
	/* a loop re-reads the same files: keep them open (not for one snapshot) */
	if (iterations != 1)
		t.snap[0].keep = t.snap[1].keep = ptk_cg_keep_new();
	if (ptk_cg_layout(&ctx->src) == PTK_CG_NONE) {
		ptk_err("no cgroup hierarchy under %s/fs/cgroup", ctx->src.sysfs);
		return PTK_EXIT_RUNTIME;
	}
	if (!batch && !ctx->json && !ctx->src.replay && isatty(STDOUT_FILENO)) {
		struct ptk_tui_table_ops ops = { .arg = &t,
						 .sample = tui_sample,
						 .title = tui_title,
						 .header = tui_header,
						 .nrows = tui_nrows,
						 .row = tui_row,
						 .key = tui_key };
		rc = ptk_tui_table(ctx, &ops, delay);
	} else {
		rc = ptk_loop(ctx, delay, iterations < 0 ? -1 : iterations - 1, batch_sample, &t);
		if (rc == -EINTR)
			rc = 0;
	}
	ptk_cg_keep_free(t.snap[0].keep);
	ptk_cg_free(&t.snap[0]);
	ptk_cg_free(&t.snap[1]);
	free(t.rows);
	free(t.order);
	return rc < 0 ? PTK_EXIT_RUNTIME : rc;
}
