// SPDX-License-Identifier: GPL-2.0
/*
 * ptk check: the USE method (utilization, saturation, errors per resource) and the "first 60
 * seconds" checklist (uptime, dmesg, vmstat, mpstat, pidstat, iostat, free, sar -n DEV/TCP)
 * as one command. Samples for -d seconds, then gives each resource a verdict with its
 * evidence, the offending processes and the ptk command to run next. The measurements and
 * the rules live in the library (model/use.c, model/rules.c); this file parses the options,
 * runs the window and prints the rows.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/rules.h"
#include "model/use.h"
#include "output/archive.h"

/* ---- sinks ------------------------------------------------------------------------------ */
static struct json_object *mvals_json(const struct ptk_use_mval *v, int n)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++)
		json_object_object_add(o, v[i].m->key, ptk_json_val(v[i].m, &v[i].v));
	return o;
}

static void fmt_value(const struct ptk_metric *m, const struct ptk_val *v, char *buf, size_t size)
{
	char num[40];

	if (!strcmp(m->unit, "B") && !v->na) {
		ptk_human_bytes((u64)v->f, num, sizeof(num), false);
		snprintf(buf, size, "%s", num);
		return;
	}
	ptk_metric_fmt(m, v, num, sizeof(num));
	/* the unit follows the number unless the name already says it ("r/s", "%util") */
	if (v->na || !m->unit[0] || strchr(m->name, '/') || strchr(m->name, '%'))
		snprintf(buf, size, "%s", num);
	else if (!strcmp(m->unit, "%"))
		snprintf(buf, size, "%s%%", num);
	else
		snprintf(buf, size, "%s %.8s", num, m->unit);
}

/* "name value, name value" of the first max entries */
static void summary(const struct ptk_use_mval *v, int n, int max, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && i < max; i++) {
		char val[64];
		fmt_value(v[i].m, &v[i].v, val, sizeof(val));
		off += snprintf(buf + off, off < size ? size - off : 0, "%s%s %s", i ? ", " : "",
				v[i].m->name, val);
	}
	if (!n)
		snprintf(buf, size, "-");
}

static void print_offender(FILE *f, const struct ptk_use_offender *o)
{
	char val[64];

	if (o->what[0]) {
		fprintf(f, "      %7d %-16s %s\n", o->pid, o->comm, o->what);
		return;
	}
	struct ptk_val v = PTK_F(o->value);
	fmt_value(o->m, &v, val, sizeof(val));
	fprintf(f, "      %7d %-16s %s %s\n", o->pid, o->comm, o->m->name, val);
}

static void print_text(struct ptk_ctx *ctx, struct ptk_use *s, struct ptk_use_rows *rs, double wall,
		       u64 cpu_ns)
{
	FILE *f = stdout;
	struct utsname un;
	char clock[16];
	static const char *const upper[] = { "ok", "WARNING", "CRITICAL" };
	bool any_partial = false;

	uname(&un);
	ptk_ctx_clock(ctx, clock, sizeof(clock));
	fprintf(f, "ptk check: %.1f s window ending %s on %s (%d CPUs)%s\n\n", s->dur, clock,
		s->live ? un.nodename : ctx->src.procfs, s->ncpu_online,
		s->live ? "" : " [replay]");
	fprintf(f, "%-14s %-9s %-38s %-40s %s\n", "RESOURCE", "VERDICT", "UTILIZATION",
		"SATURATION", "ERRORS");
	for (int i = 0; i < rs->n; i++) {
		struct ptk_use_row *r = &rs->r[i];
		char name[300], u[256], sa[256], e[256];
		snprintf(name, sizeof(name), "%s%s%s", r->resource, r->device[0] ? " " : "",
			 r->device);
		summary(r->util, r->nu, 2, u, sizeof(u));
		summary(r->sat, r->ns, 2, sa, sizeof(sa));
		summary(r->err, r->ne, 2, e, sizeof(e));
		char v[16];
		snprintf(v, sizeof(v), "%s%s", upper[r->verdict], r->partial ? "*" : "");
		if (r->partial)
			any_partial = true;
		fprintf(f, "%-14s %-9s %-38s %-40s %s\n", name, v, u, sa, e);
	}
	if (any_partial)
		fprintf(f,
			"* partial: a source of this row could not be read (see its evidence)\n");
	for (int i = 0; i < rs->n; i++) {
		struct ptk_use_row *r = &rs->r[i];
		if (r->verdict == PTK_VERDICT_OK && !r->nev)
			continue;
		fprintf(f, "\n%s%s%s%s%s%s: %s\n", r->resource, r->device[0] ? " " : "", r->device,
			r->owner[0] ? " (" : "", r->owner, r->owner[0] ? ")" : "",
			upper[r->verdict]);
		if (r->verdict != PTK_VERDICT_OK) {
			char u[512], sa[512], e[512];
			summary(r->util, r->nu, PTK_USE_MAXV, u, sizeof(u));
			summary(r->sat, r->ns, PTK_USE_MAXV, sa, sizeof(sa));
			summary(r->err, r->ne, PTK_USE_MAXV, e, sizeof(e));
			fprintf(f, "  utilization: %s\n  saturation:  %s\n  errors:      %s\n", u,
				sa, e);
		}
		for (int k = 0; k < r->nev; k++)
			fprintf(f, "  - %s\n", r->evidence[k]);
		if (r->verdict == PTK_VERDICT_OK)
			continue;
		if (r->noff) {
			fprintf(f, "  offenders (%s):\n", r->offender_kind);
			for (int k = 0; k < r->noff; k++)
				print_offender(f, &r->off[k]);
		}
		for (int k = 0; k < r->nnext; k++)
			fprintf(f, "  next: %s\n", r->next[k]);
	}
	double cpu_s = cpu_ns / 1e9;
	fprintf(f, "\nobserver: %.3f s CPU over %.1f s (%.2f%% of one CPU)", cpu_s, wall,
		wall > 0 ? 100.0 * cpu_s / wall : 0);
	if (s->pb.denied)
		fprintf(f, "; %d per-process files unreadable (permission)", s->pb.denied);
	if (s->err_km)
		fprintf(f, "; kernel log: %s", strerror(-s->err_km));
	if (s->have_watch && s->wres.bpf_run_ns)
		fprintf(f, "; BPF programs %.3f ms kernel CPU (%.2f%% of one CPU)",
			s->wres.bpf_run_ns / 1e6,
			wall > 0 ? 100.0 * s->wres.bpf_run_ns / 1e9 / wall : 0);
	else if (s->live && s->err_watch)
		fprintf(f, "; BPF unavailable (%s): /proc only", strerror(-s->err_watch));
	fputc('\n', f);
}

static void source_json(struct json_object *arr, const char *name, int err)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "source", json_object_new_string(name));
	json_object_object_add(o, "ok", json_object_new_boolean(err == 0));
	if (err)
		json_object_object_add(o, "error", json_object_new_string(strerror(-err)));
	json_object_array_add(arr, o);
}

static void print_json(struct ptk_ctx *ctx, struct ptk_use *s, struct ptk_use_rows *rs, double wall,
		       u64 cpu_ns)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();

	char dbuf[32];
	/* uptime has 10 ms resolution: print what was measured, not float noise */
	snprintf(dbuf, sizeof(dbuf), "%.3f", s->dur);
	json_object_object_add(root, "duration_s", json_object_new_double_s(s->dur, dbuf));
	json_object_object_add(root, "time", json_object_new_double(ptk_ctx_walltime(ctx)));
	json_object_object_add(root, "ncpu", json_object_new_int(s->ncpu_online));
	for (int i = 0; i < rs->n; i++) {
		struct ptk_use_row *r = &rs->r[i];
		struct json_object *o = json_object_new_object(), *a;
		json_object_object_add(o, "resource", json_object_new_string(r->resource));
		json_object_object_add(o, "device",
				       r->device[0] ? json_object_new_string(r->device) : NULL);
		if (!strcmp(r->resource, "cgroup")) {
			/* what the path says of the cgroup's owner (source/cgroup ident) */
			const struct ptk_cg_ident *id = &r->ident;
			const char *const f[][2] = {
				{ "owner", r->owner },	    { "runtime", id->runtime },
				{ "container_id", id->id }, { "pod_uid", id->pod_uid },
				{ "qos", id->qos },	    { "unit", id->unit }
			};
			for (size_t k = 0; k < ARRAY_SIZE(f); k++)
				json_object_object_add(
					o, f[k][0],
					f[k][1][0] ? json_object_new_string(f[k][1]) : NULL);
		}
		json_object_object_add(o, "utilization", mvals_json(r->util, r->nu));
		json_object_object_add(o, "saturation", mvals_json(r->sat, r->ns));
		json_object_object_add(o, "errors", mvals_json(r->err, r->ne));
		json_object_object_add(o, "verdict",
				       json_object_new_string(ptk_verdict_name[r->verdict]));
		json_object_object_add(o, "partial", json_object_new_boolean(r->partial));
		if (!strcmp(r->resource, "memory")) /* as free flags it */
			json_object_object_add(o, "available_estimated",
					       json_object_new_boolean(r->estimated));
		a = json_object_new_array();
		for (int k = 0; k < r->nev; k++)
			json_object_array_add(a, json_object_new_string(r->evidence[k]));
		json_object_object_add(o, "evidence", a);
		a = json_object_new_array();
		for (int k = 0; k < r->noff; k++) {
			struct json_object *x = json_object_new_object();
			const struct ptk_use_offender *of = &r->off[k];
			json_object_object_add(x, "pid", json_object_new_int(of->pid));
			json_object_object_add(x, "comm", json_object_new_string(of->comm));
			json_object_object_add(x, "kind", json_object_new_string(r->offender_kind));
			if (of->what[0]) {
				json_object_object_add(x, "detail",
						       json_object_new_string(of->what));
			} else {
				struct ptk_val v = PTK_F(of->value);
				json_object_object_add(x, of->m->key, ptk_json_val(of->m, &v));
			}
			json_object_array_add(a, x);
		}
		json_object_object_add(o, "offenders", a);
		a = json_object_new_array();
		for (int k = 0; k < r->nnext; k++)
			json_object_array_add(a, json_object_new_string(r->next[k]));
		json_object_object_add(o, "next", a);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "resources", arr);
	struct json_object *obs = json_object_new_object(), *src = json_object_new_array();
	json_object_object_add(obs, "cpu_s", json_object_new_double(cpu_ns / 1e9));
	json_object_object_add(obs, "wall_s", json_object_new_double(wall));
	json_object_object_add(obs, "cpu_pct_of_one_cpu",
			       json_object_new_double(wall > 0 ? 100.0 * cpu_ns / 1e9 / wall : 0));
	json_object_object_add(obs, "samples", json_object_new_int(s->ticks));
	json_object_object_add(obs, "bpf_run_time_ns",
			       s->have_watch && s->wres.bpf_run_ns ?
				       json_object_new_uint64(s->wres.bpf_run_ns) :
				       NULL);
	/* which BPF loader and hook flavour ran the programs (cpuwatch.h), null without BPF */
	json_object_object_add(
		obs, "bpf_loader",
		s->have_watch && s->wres.loader ? json_object_new_string(s->wres.loader) : NULL);
	json_object_object_add(
		obs, "bpf_hook",
		s->have_watch && s->wres.hook ? json_object_new_string(s->wres.hook) : NULL);
	static const char *const part_path[] = {
		[PTK_SNAP_STAT] = "/proc/stat",
		[PTK_SNAP_LOADAVG] = "/proc/loadavg",
		[PTK_SNAP_MEMINFO] = "/proc/meminfo",
		[PTK_SNAP_VMSTAT] = "/proc/vmstat",
		[PTK_SNAP_DISKSTATS] = "/proc/diskstats",
		[PTK_SNAP_NETDEV] = "/proc/net/dev",
		[PTK_SNAP_SNMP] = "/proc/net/snmp+netstat",
		[PTK_SNAP_PSI_CPU] = "/proc/pressure/cpu",
		[PTK_SNAP_PSI_MEMORY] = "/proc/pressure/memory",
		[PTK_SNAP_PSI_IO] = "/proc/pressure/io",
	};
	for (int p = 0; p <= PTK_SNAP_PSI_IO; p++)
		source_json(src, part_path[p], s->b.err[p]);
	source_json(src, "/proc/PID/{stat,io}",
		    s->err_pb ? s->err_pb : (s->pb.denied ? -EACCES : 0));
	source_json(src, "/proc/PID/task/TID/{stat,wchan}", s->err_threads);
	source_json(src, s->live ? "/dev/kmsg" : "kmsg", s->err_km);
	source_json(src, "bpf: runqlat + short-lived processes", s->err_watch);
	source_json(src, "/sys/fs/cgroup", s->err_cg);
	json_object_object_add(obs, "sources", src);
	json_object_object_add(root, "observer", obs);
	ptk_sink_begin(&ctx->sink);
	json_object_put(ctx->sink.obj);
	ctx->sink.obj = root;
	ptk_sink_end(&ctx->sink);
}

static const char usage[] =
	"usage: ptk check [-d SECONDS] [--json] [--procfs DIR] [--sysfs DIR]\n"
	"\n"
	"The USE method (Utilization, Saturation, Errors) for every resource, and the 'first\n"
	"60 seconds' checklist (uptime, dmesg, vmstat, mpstat, pidstat, iostat, free, sar -n\n"
	"DEV/TCP) in one command. Samples for -d seconds (default 10; a countdown shows on a\n"
	"terminal), then prints one row per resource -- cpu, memory, each disk with I/O, each\n"
	"network interface and TCP, the kernel log -- with a verdict (ok, warning, critical), the\n"
	"evidence, the top offending processes, and the ptk command to run next. Each cgroup that\n"
	"is not ok (throttled at its CPU quota, at its memory limit, OOM kills, its own pressure)\n"
	"gets a row of its own naming its container or unit and the tasks inside it.\n"
	"\n"
	"  -d, --duration SECONDS   sampling window, 1 to 86400 (default 10, fractions allowed)\n"
	"  --json                   one JSON object: {duration_s, resources:[...], observer}\n"
	"  --procfs DIR             read a snapshot tree from 'ptk capture' (no sleeping)\n"
	"\n"
	"Thresholds and why (a row's verdict is the worst of its rules; a note is evidence\n"
	"that does not change the verdict; an unknown value fires no rule):\n";

static const char usage_tail[] =
	"\n"
	"Unprivileged, it reports what it could not read (other users' /proc/PID/io, the\n"
	"kernel log under kernel.dmesg_restrict=1) instead of guessing. Its own CPU cost over the\n"
	"window is measured and reported under 'observer'.\n"
	"Time travel: --at TIME [--db PATH] [--utc] runs the triage over the window of -d seconds\n"
	"recorded by 'ptk record' from the sample nearest TIME (the kernel log is not recorded).\n"
	"Exit status: 0 when the check ran (whatever the verdicts), 1 on a runtime error, 2 on\n"
	"a usage error.\n";

static void countdown(int left)
{
	if (left >= 0)
		fprintf(stderr, "\rptk check: sampling, %2d s left ", left);
	else
		fprintf(stderr, "\r%40s\r", "");
}

int cmd_check(struct ptk_ctx *ctx, int argc, char **argv)
{
	enum { OPT_AT = 0x3000, OPT_DB, OPT_UTC, OPT_RULES_MAN };
	static const struct option opts[] = { { "duration", required_argument, NULL, 'd' },
					      { "at", required_argument, NULL, OPT_AT },
					      { "db", required_argument, NULL, OPT_DB },
					      { "utc", no_argument, NULL, OPT_UTC },
					      { "rules-man", no_argument, NULL, OPT_RULES_MAN },
					      PTK_COMMON_OPTS,
					      { 0 } };
	struct ptk_use s = { .stop = &ctx->stop, .want_s = 10 };
	struct ptk_use_rows *rs;
	const char *at = NULL, *db = NULL;
	char at_dir[PATH_MAX] = "";
	bool utc = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "d:", opts, NULL)) != -1) {
		if (c == OPT_AT || c == OPT_DB) {
			*(c == OPT_AT ? &at : &db) = optarg;
			continue;
		}
		if (c == OPT_UTC) {
			utc = true;
			continue;
		}
		if (c == OPT_RULES_MAN) {
			/* hidden: ptk-check(1)'s THRESHOLDS section, from the rules table */
			ptk_rules_print(stdout, true);
			return 0;
		}
		if (c == 'd') {
			if (ptk_parse_double(optarg, &s.want_s) || s.want_s < 1 || s.want_s > 86400)
				return ptk_usage_error(ctx, "invalid duration '%s' (1 to 86400 s)",
						       optarg);
			continue;
		}
		r = ptk_common_opt(ctx, c, optarg);
		if (r == 1) {
			fputs(usage, stdout);
			ptk_rules_print(stdout, false);
			fputs(usage_tail, stdout);
			return 0;
		}
		if (r < 0)
			return ptk_usage_error(ctx, "unknown option");
	}
	if (optind < argc)
		return ptk_usage_error(ctx, "unexpected operand '%s'", argv[optind]);
	if (at) {
		/* time travel: the recorded window as a snapshot tree, replayed as usual */
		char err[PATH_MAX + 256];
		if (ctx->procfs)
			return ptk_usage_error(ctx, "--at replays the archive: no --procfs");
		int n = ptk_arc_at(db, at, utc, 0, s.want_s, 0, at_dir, sizeof(at_dir), NULL, err,
				   sizeof(err));
		if (n < 2) {
			if (n >= 0)
				ptk_arc_rmtree(at_dir);
			ptk_err("%s", err);
			return PTK_EXIT_RUNTIME;
		}
		if (err[0])
			ptk_warn("%s", err);
		ctx->procfs = at_dir;
	}
	if ((r = ptk_ctx_ready(ctx)))
		goto out_rmtree;
	s.src = &ctx->src;
	if (isatty(STDERR_FILENO) && !ctx->src.replay && !ctx->json)
		s.countdown = countdown;
	u64 w0 = ptk_now_ns();
	r = ptk_use_window(&s);
	if (r)
		goto out_free_use;
	rs = ptk_use_analyse(&s);
	double wall = ctx->src.replay ? s.dur : (ptk_now_ns() - w0) / 1e9;
	u64 cpu_ns = ptk_self_cpu_ns() - ctx->cpu_start_ns;
	if (ctx->json)
		print_json(ctx, &s, rs, wall, cpu_ns);
	else
		print_text(ctx, &s, rs, wall, cpu_ns);
	ptk_use_rows_free(rs);
out_free_use:
	ptk_use_free(&s);
out_rmtree:
	ptk_arc_rmtree(at_dir);
	return r;
}
