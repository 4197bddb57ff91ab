// SPDX-License-Identifier: GPL-2.0
#include "source/bpf/runner.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <bpf/skel_internal.h> /* struct bpf_map_desc of the light skeletons */
#include <json-c/json.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "source/bpf/cpuwatch.h"
#include "source/perf/perf.h"
#include "source/tracefs/tracefs.h"

static bool verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!verbose && level != LIBBPF_WARN)
		return 0;
	if (!verbose)
		return 0; /* warnings are summarised by the runner in one line */
	return vfprintf(stderr, fmt, ap);
}

int ptk_cgroup_id(const char *path, u64 *id)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*id = st.st_ino;
	return 0;
}

/* The Tgid of task id (from /proc/ID/status), or -errno. */
static int tgid_of(int id)
{
	char path[64], buf[512];
	const char *t;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", id);
	n = ptk_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	t = strstr(buf, "\nTgid:");
	return t ? atoi(t + 6) : -ENOENT;
}

/* The common options: the PTK_BPF_OPT_* bit, and the option (a flag: its bool in struct
 * ptk_bpf_filter; the others checked by ptk_bpf_common_opt). */
static const struct common_opt {
	unsigned bit;
	struct ptk_bpf_opt o;
} common_opts[] = {
	{ PTK_BPF_OPT_PID, PTK_BPF_CALL('p', "pid", required_argument) },
	{ PTK_BPF_OPT_TID, PTK_BPF_CALL('t', "tid", required_argument) },
	{ PTK_BPF_OPT_COMM, PTK_BPF_CALL('c', "comm", required_argument) },
	{ PTK_BPF_OPT_CGROUP, PTK_BPF_CALL(PTK_OPT_CGROUP, "cgroup", required_argument) },
	{ PTK_BPF_OPT_PER_TASK, PTK_BPF_FLAG('P', "pids", struct ptk_bpf_filter, per_process) },
	{ PTK_BPF_OPT_PER_TASK, PTK_BPF_FLAG('L', "tids", struct ptk_bpf_filter, per_thread) },
	{ PTK_BPF_OPT_MS, PTK_BPF_FLAG('m', "milliseconds", struct ptk_bpf_filter, millis) },
	{ PTK_BPF_OPT_VERBOSE, PTK_BPF_FLAG('v', "verbose", struct ptk_bpf_filter, verbose) },
	{ PTK_BPF_OPT_TIMESTAMP, PTK_BPF_FLAG('T', "timestamp", struct ptk_bpf_filter, timestamp) },
	{ PTK_BPF_OPT_UID, PTK_BPF_CALL('u', "uid", required_argument) },
};

int ptk_bpf_common_opt(struct ptk_ctx *ctx, struct ptk_bpf_filter *f, int c, const char *arg)
{
	int v, r, tg;

	for (size_t i = 0; i < ARRAY_SIZE(common_opts); i++)
		if (common_opts[i].o.code == c && common_opts[i].o.kind == PTK_BPF_OPT_FLAG) {
			*(bool *)((char *)f + common_opts[i].o.off) = true;
			return 0;
		}
	switch (c) {
	case 'p':
	case 't':
		if (ptk_parse_int(arg, &v) || v <= 0)
			return ptk_usage_error(ctx, "invalid %s '%s'", c == 'p' ? "PID" : "TID",
					       arg);
		/* a typo'd PID would trace nothing, silently, until Ctrl-C */
		if (kill(v, 0) && errno == ESRCH)
			return ptk_usage_error(ctx, "%s %d: no such %s", c == 'p' ? "PID" : "TID",
					       v, c == 'p' ? "process" : "thread");
		/* -p matches the tgid: a thread id there would match nothing */
		if (c == 'p' && (tg = tgid_of(v)) > 0 && tg != v)
			return ptk_usage_error(ctx,
					       "PID %d is a thread of process %d: -p %d, or -t %d",
					       v, tg, tg, v);
		*(c == 'p' ? &f->tgid : &f->tid) = v;
		return 0;
	case 'u':
		if (ptk_parse_int(arg, &v) || v < 0)
			return ptk_usage_error(ctx, "invalid UID '%s'", arg);
		f->filter_uid = true;
		f->uid = v;
		return 0;
	case 'c':
		if (!*arg || strlen(arg) > 15)
			return ptk_usage_error(ctx, "invalid COMM '%s' (1 to 15 characters)", arg);
		snprintf(f->comm, sizeof(f->comm), "%s", arg);
		return 0;
	case PTK_OPT_CGROUP:
		f->cgroup = arg;
		r = ptk_cgroup_id(arg, &f->cgroup_id);
		if (r)
			return ptk_usage_error(ctx, "--cgroup %s: %s", arg, strerror(-r));
		return 0;
	case PTK_OPT_PROCFS:
	case PTK_OPT_SYSFS:
		return ptk_usage_error(ctx, "BPF tools trace the live kernel: --procfs and --sysfs "
					    "do not apply");
	default:
		return ptk_common_opt(ctx, c, arg);
	}
}

/* The tool's own option of this code, or NULL. */
static const struct ptk_bpf_opt *own_opt(const struct ptk_bpf_ops *ops, int code)
{
	for (const struct ptk_bpf_opt *o = ops->opts; o && o->kind; o++)
		if (o->code == code)
			return o;
	return NULL;
}

/* Is code one of the tool's own short option letters? */
static bool own_letter(const struct ptk_bpf_ops *ops, int code)
{
	return code < 0x100 && own_opt(ops, code);
}

/* The getopt tables: the tool's own options, then the common ones whose letter it does not
 * claim, then PTK_COMMON_OPTS. *longs is allocated. */
static void build_opts(const struct ptk_bpf_ops *ops, char *shorts, size_t size,
		       struct option **longs)
{
	static const struct option tail[] = { PTK_COMMON_OPTS, { 0 } };
	size_t nown = 0, n = 0, o = 0;

	while (ops->opts && ops->opts[nown].kind)
		nown++;
	*longs = xcalloc(nown + ARRAY_SIZE(common_opts) + ARRAY_SIZE(tail), sizeof(**longs));
	for (size_t i = 0; i < nown; i++) {
		const struct ptk_bpf_opt *op = &ops->opts[i];

		if (op->code < 0x100 && o + 3 < size) {
			shorts[o++] = (char)op->code;
			if (op->has_arg != no_argument)
				shorts[o++] = ':';
			if (op->has_arg == optional_argument)
				shorts[o++] = ':';
		}
		if (op->name)
			(*longs)[n++] = (struct option){ op->name, op->has_arg, NULL, op->code };
	}
	shorts[o] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(common_opts); i++) {
		const struct common_opt *c = &common_opts[i];

		if (own_letter(ops, c->o.code))
			continue;
		if (c->o.code < 0x100 && o + 3 < size) {
			shorts[o++] = (char)c->o.code;
			if (c->o.has_arg == required_argument)
				shorts[o++] = ':';
			shorts[o] = '\0';
		}
		(*longs)[n++] = (struct option){ c->o.name, c->o.has_arg, NULL, c->o.code };
	}
	/* -h is --help, as in libbpf-tools, unless the tool has an -h of its own */
	if (!own_letter(ops, 'h') && o + 1 < size) {
		shorts[o++] = 'h';
		shorts[o] = '\0';
	}
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		(*longs)[n++] = tail[i];
}

/* One of the tool's own options: stored (flags, strings) or given to ops->opt. 0, -1 to leave
 * it to the common options, or PTK_EXIT_USAGE. */
static int own_option(struct ptk_bpf_run *r, const struct ptk_bpf_opt *o, const char *arg)
{
	switch (o->kind) {
	case PTK_BPF_OPT_FLAG:
		*(bool *)((char *)r->priv + o->off) = true;
		return 0;
	case PTK_BPF_OPT_STR:
		*(const char **)((char *)r->priv + o->off) = arg;
		return 0;
	case PTK_BPF_OPT_CALL:
		break;
	}
	return r->ops->opt ? r->ops->opt(r, o->code, arg) : -1;
}

/* A common option code this tool does not take: a usage error. */
static int refused(struct ptk_bpf_run *r, int c)
{
	for (size_t i = 0; i < ARRAY_SIZE(common_opts); i++)
		if (common_opts[i].o.code == c && !(r->ops->common & common_opts[i].bit))
			return c < 0x100 ? ptk_usage_error(r->ctx, "-%c is not supported here", c) :
					   ptk_usage_error(r->ctx, "--%s is not supported here",
							   common_opts[i].o.name);
	return 0;
}

/* The options. 0, 1 for --help, or PTK_EXIT_USAGE after printing why. */
static int parse_opts(struct ptk_bpf_run *r, int argc, char **argv)
{
	struct option *longs;
	char shorts[128];
	int c, rc = 0;

	build_opts(r->ops, shorts, sizeof(shorts), &longs);
	while (!rc && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct ptk_bpf_opt *o = own_opt(r->ops, c);

		if (o && (rc = own_option(r, o, optarg)) >= 0)
			continue;
		if (c == 'h' && !o) {
			rc = 1;
			break;
		}
		if ((rc = refused(r, c)))
			break;
		rc = ptk_bpf_common_opt(r->ctx, &r->filter, c, optarg);
		if (rc < 0)
			rc = ptk_usage_error(r->ctx, "unknown option '%s'", argv[optind - 1]);
	}
	free(longs);
	if (!rc && r->filter.per_process && r->filter.per_thread)
		rc = ptk_usage_error(r->ctx, "-P and -L are exclusive");
	return rc;
}

/* The operands after the tool's own. 0 or PTK_EXIT_USAGE. */
static int parse_operands(struct ptk_bpf_run *r, int argc, char **argv)
{
	int rc;

	switch (r->ops->operands) {
	case PTK_BPF_INTERVAL_COUNT:
		if ((rc = ptk_parse_interval_count(r->ctx, argc, argv, &r->interval_s, &r->count,
						   NULL)))
			return rc;
		optind = argc;
		break;
	case PTK_BPF_DURATION:
		if (optind < argc && !(r->duration_s > 0)) {
			/* a year at most, as the monitors' intervals: a larger double would not
			 * fit the u64 nanoseconds it becomes (1e30 traced 0.02 s) */
			if (ptk_parse_double(argv[optind], &r->duration_s) ||
			    !(r->duration_s > 0) || r->duration_s > 31536000)
				return ptk_usage_error(r->ctx,
						       "invalid duration '%s' (up to 31536000 s)",
						       argv[optind]);
			optind++;
		}
		break;
	case PTK_BPF_NO_OPERANDS:
		break;
	}
	if (optind < argc)
		return ptk_usage_error(r->ctx, "unexpected operand '%s'", argv[optind]);
	return 0;
}

int ptk_bpf_main(struct ptk_ctx *ctx, const struct ptk_bpf_ops *ops, void *priv, int argc,
		 char **argv)
{
	struct ptk_bpf_run r = {
		.ctx = ctx, .ops = ops, .priv = priv, .interval_s = ops->interval_s, .count = -1
	};
	int rc;

	if (ops->banner)
		snprintf(r.banner, sizeof(r.banner), "Tracing %s... Hit Ctrl-C to end.",
			 ops->banner);
	rc = parse_opts(&r, argc, argv);
	if (rc == 1) {
		fputs(ops->usage, stdout);
		return PTK_EXIT_OK;
	}
	if (rc || (ops->parsed && (rc = ops->parsed(&r, argc, argv))) ||
	    (rc = parse_operands(&r, argc, argv)) || (ops->prepare && (rc = ops->prepare(&r))))
		return rc == PTK_BPF_DONE ? PTK_EXIT_OK : rc;
	return ptk_bpf_run(&r);
}

int ptk_bpf_cmd(struct ptk_ctx *ctx, const struct ptk_bpf_ops *ops, int argc, char **argv)
{
	void *priv = NULL;
	int rc;

	if (ops->priv_size) {
		priv = xcalloc(1, ops->priv_size);
		if (ops->priv_init)
			memcpy(priv, ops->priv_init, ops->priv_size);
	}
	rc = ptk_bpf_main(ctx, ops, priv, argc, argv);
	free(priv);
	return rc;
}

/* BPF tracing needs CAP_BPF + CAP_PERFMON (5.8+) or CAP_SYS_ADMIN: check before any work
 * so an unprivileged run fails with one line that names the cause. */
static bool bpf_privileged(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	u64 eff;

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	eff = d[0].effective | (u64)d[1].effective << 32;
#define HAS(cap) (eff & (1ull << (cap)))
	return HAS(21 /* CAP_SYS_ADMIN */) || (HAS(39 /* CAP_BPF */) && HAS(38 /* CAP_PERFMON */));
#undef HAS
}

/* The kernel BTF, parsed once for the feature probes and freed before the tool's own load
 * (libbpf parses its own copy for CO-RE): two copies at once would double the peak RSS. */
static struct btf *probe_btf;
static bool probe_btf_tried;

static struct btf *vmlinux_btf(void)
{
	if (!probe_btf_tried) {
		probe_btf_tried = true;
		probe_btf = btf__load_vmlinux_btf();
		if (libbpf_get_error(probe_btf))
			probe_btf = NULL;
	}
	return probe_btf;
}

void ptk_bpf_probes_done(void)
{
	btf__free(probe_btf);
	probe_btf = NULL;
	probe_btf_tried = false;
}

bool ptk_bpf_has_tp_btf(const char *tp)
{
	char name[128];
	struct btf *btf = vmlinux_btf();

	if (!btf)
		return false;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

/* Load a two-instruction fentry program on BTF function id: some kernels have BTF and
 * ftrace but refuse BPF trampolines (EPERM/ENOTSUPP at load), which only a trial shows. */
static bool fentry_loads(int btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = btf_id);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "ptk_probe", "GPL", insns, 2, &opts), link;

	if (fd < 0)
		return false;
	/* loading is not attaching: the trampoline is made at attach time */
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link >= 0)
		close(link);
	close(fd);
	return link >= 0;
}

bool ptk_bpf_has_fentry(const char *func)
{
	/* BTF says a function is traceable, but the kernel may still refuse trampolines:
	 * try for real, once per function name. */
	static struct {
		char name[64];
		bool ok;
	} cache[16];
	static int ncache;
	struct btf *btf = vmlinux_btf();
	int id;
	bool ok;

	for (int i = 0; i < ncache; i++)
		if (!strcmp(cache[i].name, func))
			return cache[i].ok;
	id = btf ? btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) : -1;
	ok = id > 0 && fentry_loads(id);
	if (ncache < (int)ARRAY_SIZE(cache)) {
		snprintf(cache[ncache].name, sizeof(cache[ncache].name), "%s", func);
		cache[ncache++].ok = ok;
	}
	return ok;
}

bool ptk_bpf_has_ksym(const char *func)
{
	char line[512];
	size_t n = strlen(func);
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		/* "ffffffff81000000 T name [module]" */
		char *p = strchr(line, ' ');
		if (!p || !(p = strchr(p + 1, ' ')))
			continue;
		p++;
		found = !strncmp(p, func, n) && (p[n] == '\n' || p[n] == ' ' || p[n] == '\t');
	}
	fclose(f);
	return found;
}

/* Sum the run-time stats (run_time_ns, run_cnt since load) of the tool's programs. */
static void prog_stats(struct ptk_bpf_run *r, u64 *ns, u64 *cnt)
{
	*ns = *cnt = 0;
	if (r->lskel) {
		for (size_t i = 0; i < r->lskel_nprogs; i++)
			ptk_bpf_prog_runtime(r->lskel_progs[i], ns, cnt);
	} else if (r->obj) {
		ptk_bpf_obj_runtime(r->obj, ns, cnt);
	}
	for (size_t i = 0; i < r->nxprogs; i++)
		ptk_bpf_prog_runtime(r->xprogs[i], ns, cnt);
}

/*
 * Run-time stats are sampled when they would cost: with BPF_ENABLE_STATS every program run
 * reads the clock twice, which costs the traced workload ~3% on a context-switch storm (perf
 * bench sched pipe). Every STATS_CHECK_NS the run rate since the last check is looked at:
 * under STATS_CHEAP_RUNS_PER_S runs/s the stats stay on (their cost is then noise, and rare
 * events, such as execs, are counted exactly whenever they come); above it the window closes
 * (the first one at once, later ones once they have lasted STATS_ON_NS) and the next opens
 * STATS_PERIOD_NS after the last one opened, so a storm carries the stats 1 s in 10. The
 * observer cost of the whole run is then the windows' cost scaled to the elapsed time. Counts
 * during a window only are used, so another holder of the stats (bpftool,
 * kernel.bpf_stats_enabled=1) does not skew the estimate.
 */
#define STATS_CHECK_NS 100000000ull
#define STATS_ON_NS 1000000000ull
#define STATS_PERIOD_NS 10000000000ull
#define STATS_CHEAP_RUNS_PER_S 20000

/* The gap since the last window closed, at the rates measured just before it closed. */
static void gap_estimate(const struct ptk_bpf_run *r, u64 now, double *ns, double *cnt)
{
	*ns = *cnt = 0;
	if (r->stats_fd < 0 && r->gap_start_ns && now > r->gap_start_ns) {
		*ns = r->gap_rate_ns * (double)(now - r->gap_start_ns);
		*cnt = r->gap_rate_cnt * (double)(now - r->gap_start_ns);
	}
}

static void stats_on(struct ptk_bpf_run *r, u64 now)
{
	double ns, cnt;

	r->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (r->stats_fd < 0)
		return;
	gap_estimate(r, now, &ns, &cnt);
	r->gap_ns += ns;
	r->gap_cnt += cnt;
	r->gap_start_ns = 0;
	r->stats_enabled = true;
	r->win_start_ns = r->chk_ns = now;
	prog_stats(r, &r->win_ns0, &r->win_cnt0);
	r->chk_cnt = r->win_cnt0;
	r->chk_run_ns = r->win_ns0;
}

/* Close the window at now (ns, cnt: the programs' totals now), keeping the rates of its last
 * check interval for the gap that follows. */
static void stats_off(struct ptk_bpf_run *r, u64 now, u64 ns, u64 cnt)
{
	double dt = now > r->chk_ns ? (double)(now - r->chk_ns) : 1;

	r->acc_ns += ns - r->win_ns0;
	r->acc_cnt += cnt - r->win_cnt0;
	r->acc_win_ns += now - r->win_start_ns;
	r->gap_rate_ns = (double)(ns - r->chk_run_ns) / dt;
	r->gap_rate_cnt = (double)(cnt - r->chk_cnt) / dt;
	r->gap_start_ns = now;
	close(r->stats_fd);
	r->stats_fd = -1;
}

/* Keep, close or open the stats window at now; returns when the next check is due. */
static u64 stats_tick(struct ptk_bpf_run *r, u64 now)
{
	if (!r->stats_enabled)
		return ~0ull; /* never obtained (no CAP_SYS_ADMIN): nothing to sample */
	if (r->stats_fd >= 0 && now >= r->chk_ns + STATS_CHECK_NS) {
		u64 ns, cnt;
		bool often;
		prog_stats(r, &ns, &cnt);
		often = (cnt - r->chk_cnt) * 1000000000ull >=
			STATS_CHEAP_RUNS_PER_S * (now - r->chk_ns);
		if (often &&
		    (r->win_start_ns == r->start_ns || now >= r->win_start_ns + STATS_ON_NS)) {
			/* frequent runs: sample */
			r->next_win_ns = MAX(r->win_start_ns + STATS_PERIOD_NS, now + STATS_ON_NS);
			stats_off(r, now, ns, cnt);
		} else {
			r->chk_ns = now; /* rare runs (or a window still short): stay on */
			r->chk_cnt = cnt;
			r->chk_run_ns = ns;
		}
	}
	if (r->stats_fd < 0 && now >= r->next_win_ns) {
		stats_on(r, now);
		if (r->stats_fd < 0)
			r->next_win_ns = now + STATS_PERIOD_NS; /* failed this time: retry later */
	}
	return r->stats_fd >= 0 ? r->chk_ns + STATS_CHECK_NS : r->next_win_ns;
}

/*
 * The observer figures so far: what the windows measured, plus for each gap between them the
 * rates measured just before it closed times its length (a quiet start measured whole does
 * not dilute a storm sampled later, as one pooled scale would).
 */
static void collect_stats(struct ptk_bpf_run *r)
{
	u64 now = ptk_now_ns(), ns = r->acc_ns, cnt = r->acc_cnt, win = r->acc_win_ns;
	u64 el = now - r->start_ns;
	double gns, gcnt;

	if (r->stats_fd >= 0) {
		u64 n2, c2;
		prog_stats(r, &n2, &c2);
		ns += n2 - r->win_ns0;
		cnt += c2 - r->win_cnt0;
		win += now - r->win_start_ns;
	}
	gap_estimate(r, now, &gns, &gcnt);
	gns += r->gap_ns;
	gcnt += r->gap_cnt;
	/* the windows miss over 5% of the run (not the moments between the last window's
	 * close and a report that follows it) */
	r->stats_sampled = win < el - el / 20;
	if (r->stats_sampled) {
		ns += (u64)gns;
		cnt += (u64)gcnt;
	}
	r->prog_run_ns = ns;
	r->prog_run_cnt = cnt;
	r->stats_win_ns = win;
}

static double elapsed_s(const struct ptk_bpf_run *r)
{
	return (ptk_now_ns() - r->start_ns) / 1e9;
}

static u64 lost_events(struct ptk_bpf_run *r)
{
	u32 keys = r->lost_keys ? r->lost_keys : 1;
	u64 sum = 0;

	for (u32 k = 0; r->lost_fd >= 0 && k < 32; k++)
		if (keys & (1u << k))
			sum += ptk_bpf_percpu_sum(r->lost_fd, k);
	return sum;
}

void ptk_bpf_observer_text(struct ptk_bpf_run *r, FILE *f)
{
	double el = elapsed_s(r);
	u64 lost = lost_events(r);
	char est[96] = "";

	collect_stats(r);
	if (!r->stats_enabled) {
		fprintf(f,
			"observer: run-time stats unavailable (BPF_ENABLE_STATS: need "
			"CAP_SYS_ADMIN); %" PRIu64 " events lost\n",
			lost);
		return;
	}
	if (r->stats_sampled)
		snprintf(
			est, sizeof(est),
			", estimated from run-time stats held %.1f s of the %.1f s (frequent runs)",
			r->stats_win_ns / 1e9, el);
	fprintf(f,
		"observer: BPF programs ran %s%" PRIu64 " times, %.3f ms of kernel CPU over "
		"%.1f s (%.3f%% of one CPU, %.0f ns per event)%s; %" PRIu64 " events lost\n",
		r->stats_sampled ? "~" : "", r->prog_run_cnt, r->prog_run_ns / 1e6, el,
		el > 0 ? 100.0 * r->prog_run_ns / 1e9 / el : 0,
		r->prog_run_cnt ? (double)r->prog_run_ns / r->prog_run_cnt : 0, est, lost);
}

struct json_object *ptk_bpf_observer_json(struct ptk_bpf_run *r)
{
	struct json_object *o = json_object_new_object();
	double el = elapsed_s(r);

	collect_stats(r);
	json_object_object_add(o, "elapsed_s", json_object_new_double(el));
	json_object_object_add(o, "bpf_run_time_ns",
			       r->stats_enabled ? json_object_new_uint64(r->prog_run_ns) : NULL);
	json_object_object_add(o, "bpf_run_count",
			       r->stats_enabled ? json_object_new_uint64(r->prog_run_cnt) : NULL);
	json_object_object_add(o, "bpf_cpu_pct_of_one_cpu",
			       r->stats_enabled && el > 0 ?
				       json_object_new_double(100.0 * r->prog_run_ns / 1e9 / el) :
				       NULL);
	json_object_object_add(o, "bpf_stats_sampled",
			       r->stats_enabled ? json_object_new_boolean(r->stats_sampled) : NULL);
	json_object_object_add(o, "bpf_stats_window_s",
			       r->stats_enabled ? json_object_new_double(r->stats_win_ns / 1e9) :
						  NULL);
	json_object_object_add(o, "lost_events", json_object_new_uint64(lost_events(r)));
	return o;
}

int ptk_bpf_skel_load(struct ptk_bpf_run *r)
{
	int err = bpf_object__load_skeleton(r->skeleton);

	return err ? err : bpf_object__attach_skeleton(r->skeleton);
}

void ptk_bpf_skel_destroy(struct ptk_bpf_run *r)
{
	if (r->skeleton)
		bpf_object__destroy_skeleton(r->skeleton);
	free(r->skel);
	r->skel = NULL;
	r->skeleton = NULL;
	r->obj = NULL;
}

static int on_record(void *ctx, void *data, size_t len)
{
	struct ptk_bpf_run *r = ctx;
	int shown = r->ops->event(r, data, len);

	if (shown > 0)
		r->events++;
	return shown < 0 ? shown : 0;
}

int ptk_bpf_map_fd(struct ptk_bpf_run *r, const char *name)
{
	if (!r->lskel) {
		int fd = r->obj ? bpf_object__find_map_fd_by_name(r->obj, name) : -1;

		return fd < 0 ? -ENOENT : fd;
	}
	for (size_t i = 0; i < r->lskel_nmaps; i++) {
		struct bpf_map_info info = { 0 };
		u32 len = sizeof(info);
		int fd = r->lskel_maps[i].map_fd;

		if (fd > 0 && !bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    !strncmp(info.name, name, sizeof(info.name) - 1))
			return fd;
	}
	return -ENOENT;
}

/* Once loaded: the lost counters, and for an event tool the ring buffer and the table's
 * header (text). 0 or -errno. */
static int events_start(struct ptk_bpf_run *r)
{
	r->lost_fd = ptk_bpf_map_fd(r, "lost");
	if (!r->ops->event)
		return 0;
	r->events_fd = ptk_bpf_map_fd(r, "events");
	r->rb = ring_buffer__new(r->events_fd, on_record, r, NULL);
	if (!r->rb)
		return -errno;
	if (!r->ctx->json && r->tab.ncols) {
		ptk_sink_table_begin(&r->ctx->sink, &r->tab, true, NULL);
		ptk_sink_table_end(&r->ctx->sink);
	}
	return 0;
}

void ptk_bpf_meta_loader(struct ptk_bpf_run *r)
{
	if (r->hook)
		ptk_sink_meta_str(&r->ctx->sink, "hook", r->hook);
	if (r->ops->load_lskel)
		ptk_sink_meta_str(&r->ctx->sink, "loader", r->lskel ? "light skeleton" : "libbpf");
}

void ptk_bpf_report_begin(struct ptk_bpf_run *r, const char *span_key, double span_s)
{
	ptk_sink_begin(&r->ctx->sink);
	ptk_sink_meta_f64(&r->ctx->sink, "time", ptk_ctx_walltime(r->ctx));
	ptk_sink_meta_f64(&r->ctx->sink, span_key, span_s);
	ptk_bpf_meta_loader(r);
}

void ptk_bpf_report_end(struct ptk_bpf_run *r)
{
	if (r->ctx->json)
		ptk_sink_meta_json(&r->ctx->sink, "observer", ptk_bpf_observer_json(r));
	ptk_sink_end(&r->ctx->sink);
}

/* The JSON summary of an event tool, at the end: events shown, lost, hook, loader, observer. */
static void events_summary(struct ptk_bpf_run *r)
{
	struct ptk_sink *sink = &r->ctx->sink;

	if (!r->ctx->json)
		return;
	ptk_sink_begin(sink);
	ptk_sink_meta_u64(sink, "events", r->events);
	ptk_sink_meta_u64(sink, "lost_events", lost_events(r));
	ptk_bpf_meta_loader(r);
	ptk_bpf_report_end(r);
}

static int report(struct ptk_bpf_run *r, long i, double itv_s, bool last)
{
	int err = 0;

	if (r->ops->report && r->filter.timestamp && !r->ctx->json && !r->ops->own_timestamp)
		printf("%-8s\n", ptk_bpf_clock((char[16]){ 0 }, 16));
	if (r->ops->report)
		err = r->ops->report(r, i, itv_s, last);
	else if (last)
		events_summary(r);
	fflush(stdout);
	return err;
}

void ptk_bpf_event_table(struct ptk_bpf_run *r, const char *name, const struct ptk_metric *cols,
			 int n, u64 hide)
{
	r->tab.ncols = 0;
	for (int i = 0; i < n && r->tab.ncols < PTK_BPF_MAX_COLS; i++) {
		if (hide & (1ull << i))
			continue;
		r->tab_map[r->tab.ncols] = i;
		r->tab_cols[r->tab.ncols++] = cols[i];
	}
	r->tab.name = name;
	r->tab.cols = r->tab_cols;
}

void ptk_bpf_event_row(struct ptk_bpf_run *r, const struct ptk_val *vals)
{
	struct ptk_val shown[PTK_BPF_MAX_COLS];

	for (int i = 0; i < r->tab.ncols; i++)
		shown[i] = vals[r->tab_map[i]];
	ptk_sink_event(&r->ctx->sink, &r->tab, shown);
}

char *ptk_bpf_clock(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, size, "%H:%M:%S", &tm);
	return buf;
}

/* Destroy whatever was made: ring buffer, the light skeleton's links, the tool's state, the
 * libbpf skeleton. */
static void destroy(struct ptk_bpf_run *r)
{
	ring_buffer__free(r->rb);
	r->rb = NULL;
	if (r->lskel)
		ptk_bpf_close_links(r->lskel_links, r->lskel_nlinks);
	if (r->ops->destroy)
		r->ops->destroy(r);
	if (r->lskel)
		r->lskel_free(r->lskel);
	r->lskel = NULL;
	ptk_bpf_skel_destroy(r);
}

int ptk_bpf_run(struct ptk_bpf_run *r)
{
	struct ptk_ctx *ctx = r->ctx;
	int rc = PTK_EXIT_OK, err;
	long i = 1;

	r->stats_fd = -1;
	r->stats_enabled = false;
	r->acc_ns = r->acc_cnt = r->acc_win_ns = 0;
	r->gap_ns = r->gap_cnt = 0;
	r->gap_start_ns = 0;
	r->events_fd = r->lost_fd = -1;

	verbose = r->filter.verbose;
	libbpf_set_print(libbpf_print);
	if (!bpf_privileged()) {
		ptk_err("needs root, or CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN), to load BPF "
			"programs");
		return PTK_EXIT_RUNTIME;
	}
	if ((err = ptk_ctx_ready(ctx)))
		return err;
	if (r->ops->needs_tracefs) {
		char path[PATH_MAX];
		err = ptk_tracefs_find(path, sizeof(path));
		if (err) {
			ptk_err("cannot mount tracefs at /sys/kernel/tracing: %s", strerror(-err));
			return PTK_EXIT_RUNTIME;
		}
	}
	if (r->ops->begin)
		r->ops->begin(r);

	/* the light skeleton first; the libbpf skeleton on kernels before 5.17 or when asked */
	err = r->ops->load_lskel && ptk_bpf_loader_wanted() != PTK_BPF_LIBBPF ?
		      r->ops->load_lskel(r) :
		      -ENOTSUP;
	if (err && err != -EPERM) {
		r->lskel = NULL;
		err = r->ops->open(r);
		if (err) {
			ptk_err("cannot open the BPF programs: %s", strerror(-err));
			rc = PTK_EXIT_RUNTIME;
			goto out_destroy; /* open may have created the skeleton before failing */
		}
		ptk_bpf_probes_done();
		err = r->ops->load ? r->ops->load(r) : ptk_bpf_skel_load(r);
	}
	if (!err)
		err = events_start(r);
	if (err && r->load_err[0]) {
		ptk_err("%s", r->load_err);
		rc = PTK_EXIT_RUNTIME;
		goto out_destroy;
	}
	if (err) {
		ptk_err("cannot load or attach the BPF programs: %s%s", strerror(-err),
			err == -EPERM ? " (needs root or CAP_BPF+CAP_PERFMON)" :
					" (run with -v for the libbpf log)");
		rc = PTK_EXIT_RUNTIME;
		goto out_destroy;
	}
	fflush(stdout); /* a table's header first */
	if (r->banner[0])
		fprintf(stderr, "%s\n", r->banner);
	r->start_ns = ptk_now_ns();
	stats_on(r, r->start_ns);
	if (r->ops->started && (rc = r->ops->started(r)))
		goto out_destroy;
	u64 step = (u64)(r->interval_s * 1e9), next = r->start_ns + step, prev = r->start_ns;
	u64 end = r->duration_s > 0 ? r->start_ns + (u64)(r->duration_s * 1e9) : 0;
	for (;;) {
		u64 now = ptk_now_ns(), deadline = ~0ull;

		if (ctx->stop || ptk_output_broken())
			break;
		if (step)
			deadline = next;
		if (end && end < deadline)
			deadline = end;
		u64 st = stats_tick(r, now);
		if (st < deadline)
			deadline = st;
		if (now >= deadline) {
			if (step && now >= next) {
				err = report(r, i, (now - prev) / 1e9, false);
				prev = now;
				next += step;
				if (err) {
					ptk_err("cannot read the BPF maps: %s", strerror(-err));
					rc = PTK_EXIT_RUNTIME;
					break;
				}
				if (r->count > 0 && i >= r->count)
					break;
				i++;
			}
			if (end && now >= end)
				break;
			continue;
		}
		u64 wait = deadline - now;
		if (r->rb) {
			int ms = wait > 100000000ull ? 100 : (int)(wait / 1000000) + 1;
			err = ring_buffer__poll(r->rb, ms);
			if (err < 0 && err != -EINTR) {
				ptk_err("ring buffer poll: %s", strerror(-err));
				rc = PTK_EXIT_RUNTIME;
				break;
			}
		} else {
			ptk_sleep_until(deadline == ~0ull ? now + 3600000000000ull : deadline,
					&ctx->stop);
		}
	}
	if (!step && rc == PTK_EXIT_OK) {
		if (r->rb)
			ring_buffer__consume(r->rb);
		err = report(r, i, (ptk_now_ns() - prev) / 1e9, true);
		if (err)
			rc = PTK_EXIT_RUNTIME;
	}
	if (!ctx->json)
		ptk_bpf_observer_text(r, stderr);
out_destroy:
	ptk_bpf_probes_done();
	destroy(r);
	if (r->stats_fd >= 0)
		close(r->stats_fd);
	ptk_tracefs_release();
	return rc;
}

bool ptk_bpf_pick_tp(struct bpf_program *tp_btf, struct bpf_program *raw_tp, const char *tp)
{
	bool btf = ptk_bpf_has_tp_btf(tp);

	bpf_program__set_autoload(tp_btf, btf);
	bpf_program__set_autoload(raw_tp, !btf);
	return btf;
}

void *ptk_bpf_map_entries(int fd, size_t koff, size_t ksize, size_t voff, size_t stride, bool take,
			  size_t *n)
{
	size_t nkeys = 0, cap = 0, m = 0;
	char *keys = NULL, *out;
	struct bpf_map_info info = { 0 };
	__u32 ilen = sizeof(info);

	/* a map may hold fewer key bytes than T has (the rest reads as zeros) */
	if (!bpf_obj_get_info_by_fd(fd, &info, &ilen) && info.key_size && info.key_size < ksize)
		ksize = info.key_size;
	/* the keys first: deleting while walking would restart the walk */
	for (;;) {
		if (nkeys == cap)
			keys = xrealloc(keys, (cap = cap ? 2 * cap : 64) * ksize);
		if (bpf_map_get_next_key(fd, nkeys ? keys + (nkeys - 1) * ksize : NULL,
					 keys + nkeys * ksize))
			break;
		nkeys++;
	}
	out = xcalloc(nkeys ? nkeys : 1, stride);
	for (size_t i = 0; i < nkeys; i++) {
		char *e = out + m * stride;

		memcpy(e + koff, keys + i * ksize, ksize);
		if (!take && bpf_map_lookup_elem(fd, e + koff, e + voff))
			continue;
		/* lookup-and-delete on hash maps came with 5.14 */
		if (take && bpf_map_lookup_and_delete_elem(fd, e + koff, e + voff)) {
			if (bpf_map_lookup_elem(fd, e + koff, e + voff))
				continue;
			bpf_map_delete_elem(fd, e + koff);
		}
		m++;
	}
	free(keys);
	*n = m;
	return out;
}

int ptk_bpf_stack_read(int fd, s64 id, u64 *ips, int max)
{
	u32 key = (u32)id;
	int n = 0;

	if (id < 0)
		return (int)id;
	memset(ips, 0, max * sizeof(*ips));
	if (bpf_map_lookup_elem(fd, &key, ips))
		return -errno;
	while (n < max && ips[n])
		n++;
	return n;
}

static u64 percpu_sum(int map_fd, u32 key, bool reset)
{
	int n = libbpf_num_possible_cpus();
	u64 sum = 0, *v;

	if (n <= 0 || map_fd < 0)
		return 0;
	v = xcalloc(n, sizeof(*v));
	if (bpf_map_lookup_elem(map_fd, &key, v) == 0)
		for (int i = 0; i < n; i++)
			sum += v[i];
	if (reset) {
		memset(v, 0, n * sizeof(*v));
		bpf_map_update_elem(map_fd, &key, v, BPF_ANY);
	}
	free(v);
	return sum;
}

u64 ptk_bpf_percpu_sum(int map_fd, u32 key)
{
	return percpu_sum(map_fd, key, false);
}

u64 ptk_bpf_percpu_take(int map_fd, u32 key)
{
	return percpu_sum(map_fd, key, true);
}

int ptk_bpf_attach_tp(int prog_fd, const char *cat, const char *event)
{
	struct perf_event_attr attr;
	int err, pfd, lfd;
	u64 id;

	if ((err = ptk_tp_id_read(cat, event, &id)))
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	/* a tracepoint program runs on every CPU whatever the event's cpu: one event (as libbpf) */
	pfd = ptk_perf_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return pfd;
	lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, NULL);
	err = lfd < 0 ? -errno : 0;
	close(pfd); /* the link holds the event */
	return err ? err : lfd;
}

int ptk_bpf_attach_tps(const struct ptk_bpf_tp *tps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int fd = ptk_bpf_attach_tp(tps[i].prog_fd, tps[i].cat, tps[i].event);

		if (fd == -ENOENT && tps[i].optional)
			continue;
		if (fd < 0) {
			for (size_t j = 0; j < i; j++)
				ptk_bpf_close_links(tps[j].link_fd, 1);
			return fd;
		}
		*tps[i].link_fd = fd;
	}
	return 0;
}

enum ptk_bpf_loader ptk_bpf_loader_wanted(void)
{
	const char *e = getenv("PTK_BPF_LSKEL");

	if (e && !strcmp(e, "0"))
		return PTK_BPF_LIBBPF;
	return e && !strcmp(e, "raw") ? PTK_BPF_LSKEL_RAW : PTK_BPF_LSKEL_ANY;
}

static void *close_one(void *arg)
{
	close((int)(intptr_t)arg);
	return NULL;
}

void ptk_bpf_close_links(int *fds, size_t n)
{
	pthread_t *t = xcalloc(n ? n : 1, sizeof(*t));
	bool *started = xcalloc(n ? n : 1, sizeof(*started));

	for (size_t i = 0; i < n; i++) {
		if (fds[i] <= 0)
			continue;
		/* without a thread (none left), close it here: slower, never leaked */
		started[i] = !pthread_create(&t[i], NULL, close_one, (void *)(intptr_t)fds[i]);
		if (!started[i])
			close(fds[i]);
		fds[i] = -1;
	}
	for (size_t i = 0; i < n; i++)
		if (started[i])
			pthread_join(t[i], NULL);
	free(started);
	free(t);
}
