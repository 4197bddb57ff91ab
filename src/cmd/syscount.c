// SPDX-License-Identifier: GPL-2.0
/*
 * ptk syscount: syscall counts, errors and latency by syscall or by process, counted in the
 * kernel from the raw_syscalls tracepoints (libbpf-tools syscount): the traced processes never
 * stop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/systrace.h"
#include "lib/errnoname.h"
#include "source/ptrace/decode.h"
#include "source/ptrace/syscalls.h"

static const char usage[] =
	"usage: ptk syscount [-p PID] [-c CGROUP] [-i INTERVAL] [-d DURATION] [-T TOP] [-x]\n"
	"                    [-e ERRNO] [-L] [-m] [-P] [-l] [-v] [--json]\n"
	"Count syscalls (and their errors and time) in the kernel, from raw_syscalls:sys_enter and\n"
	"sys_exit: nothing stops the traced processes. Output as libbpf-tools syscount.\n"
	"  -p PID       only this process (all its threads)\n"
	"  -c CGROUP    only the processes of this cgroup v2 directory\n"
	"  -i INTERVAL  print (and reset) the counts every INTERVAL s (default: once at the end)\n"
	"  -d DURATION  stop after DURATION s\n"
	"  -T TOP       the TOP rows (10)          -P  by process instead of by syscall\n"
	"  -x           failed calls only          -e ERRNO  calls failed with ERRNO (EPERM, 1)\n"
	"  -L           time in the calls too (sorted by it)   -m  in milliseconds\n"
	"  -l           list the syscall names and exit\n"
	"The cost (kernel CPU of the programs per event) and events lost are printed at exit.\n";

enum { COL_KEY, COL_COMM, COL_COUNT, COL_ERRORS, COL_TIME, NCOLS };
static const struct ptk_metric cols[NCOLS] = {
	[COL_KEY] = { "SYSCALL", "syscall", "", PTK_GAUGE, PTK_V_STR, -22, 0,
		      "syscall name (or the pid with -P), raw_syscalls:sys_exit id" },
	[COL_COMM] = { "COMM", "comm", "", PTK_GAUGE, PTK_V_STR, -15, 0,
		       "comm of the process at its first counted call (-P)" },
	[COL_COUNT] = { "COUNT", "count", "", PTK_COUNTER, PTK_V_U64, 8, 0,
			"calls completed in the interval" },
	[COL_ERRORS] = { "ERRORS", "errors", "", PTK_COUNTER, PTK_V_U64, 8, 0,
			 "calls that returned -errno" },
	[COL_TIME] = { "TIME", "time_us", "us", PTK_COUNTER, PTK_V_F64, 16, 3,
		       "time in the calls, sys_enter to sys_exit (-L)" },
};
static const struct ptk_table tab = { .name = "syscalls", .ncols = NCOLS, .cols = cols };

struct priv {
	struct ptk_systrace st;
	int top;
};

static int sort_by_time;

static int cmp_rows(const void *a, const void *b)
{
	const struct ptk_systrace_row *x = a, *y = b;
	u64 vx = sort_by_time ? x->val.total_ns : x->val.count;
	u64 vy = sort_by_time ? y->val.total_ns : y->val.count;

	if (vx != vy)
		return vx < vy ? 1 : -1;
	return x->key.nr != y->key.nr ?
		       (x->key.nr < y->key.nr ? -1 : 1) :
		       (x->key.tgid < y->key.tgid ? -1 : x->key.tgid > y->key.tgid);
}

static int sc_report(struct ptk_bpf_run *r, long i, double itv_s, bool last)
{
	struct priv *p = r->priv;
	struct ptk_systrace_row *rows;
	bool ms = r->filter.millis, lat = p->st.latency, byp = p->st.by_process;
	char ts[16], key[32], nb[32], comm[17];
	int n = ptk_systrace_counts(&p->st, true, &rows);

	(void)i;
	(void)itv_s;
	(void)last;
	if (n < 0)
		return n;
	sort_by_time = lat;
	qsort(rows, (size_t)n, sizeof(*rows), cmp_rows);
	if (n > p->top)
		n = p->top;
	if (r->ctx->json) {
		ptk_sink_begin(&r->ctx->sink);
		ptk_sink_meta_f64(&r->ctx->sink, "time", ptk_ctx_walltime(r->ctx));
		ptk_sink_table_begin(&r->ctx->sink, &tab, false, NULL);
	} else {
		printf("[%s]\n", ptk_bpf_clock(ts, sizeof(ts)));
		if (byp)
			printf("%-6s %-15s %8s", "PID", "COMM", "COUNT");
		else
			printf("%-22s %8s", "SYSCALL", "COUNT");
		if (lat)
			printf(" %16s", ms ? "TIME (ms)" : "TIME (us)");
		printf("\n");
	}
	for (int k = 0; k < n; k++) {
		const struct ptk_systrace_row *e = &rows[k];
		double t = (double)e->val.total_ns / (ms ? 1e6 : 1e3);
		struct ptk_val v[NCOLS];
		memcpy(comm, e->val.comm, 16);
		comm[16] = 0;
		if (byp)
			snprintf(key, sizeof(key), "%u", e->key.tgid);
		else
			snprintf(key, sizeof(key), "%s",
				 ptk_dec_name((int)e->key.nr, nb, sizeof(nb)));
		if (r->ctx->json) {
			v[COL_KEY] = PTK_S(key);
			v[COL_COMM] = byp ? PTK_S(comm) : PTK_NA;
			v[COL_COUNT] = PTK_U(e->val.count);
			v[COL_ERRORS] = PTK_U(e->val.errors);
			v[COL_TIME] = lat ? PTK_F((double)e->val.total_ns / 1e3) : PTK_NA;
			ptk_sink_row(&r->ctx->sink, NULL, v);
			continue;
		}
		if (byp)
			printf("%-6s %-15s %8llu", key, comm, (unsigned long long)e->val.count);
		else
			printf("%-22s %8llu", key, (unsigned long long)e->val.count);
		if (lat)
			printf(" %16.3f", t);
		printf("\n");
	}
	if (r->ctx->json) {
		ptk_sink_table_end(&r->ctx->sink);
		ptk_sink_end(&r->ctx->sink);
	} else {
		printf("\n");
	}
	free(rows);
	return 0;
}

static int sc_opt(struct ptk_bpf_run *r, int c, const char *arg)
{
	struct priv *p = r->priv;
	int v;

	switch (c) {
	case 'i':
		if (ptk_parse_double(arg, &r->interval_s) || r->interval_s < 0)
			return ptk_usage_error(r->ctx, "invalid interval '%s'", arg);
		return 0;
	case 'd':
		if (ptk_parse_double(arg, &r->duration_s) || !(r->duration_s > 0))
			return ptk_usage_error(r->ctx, "invalid duration '%s'", arg);
		return 0;
	case 'T':
		if (ptk_parse_int(arg, &p->top) || p->top <= 0)
			return ptk_usage_error(r->ctx, "invalid top '%s'", arg);
		return 0;
	case 'e':
		if (ptk_parse_int(arg, &v))
			v = ptk_errno_value(arg);
		if (v <= 0 || v > 4095)
			return ptk_usage_error(r->ctx, "invalid errno '%s'", arg);
		p->st.err_filter = v;
		return 0;
	case 'c':
		return ptk_bpf_common_opt(r->ctx, &r->filter, PTK_OPT_CGROUP, arg);
	case 'l':
		for (int nr = 0; nr < PTK_NSYSCALLS; nr++)
			if (ptk_syscalls[nr].name)
				printf("%3d: %s\n", nr, ptk_syscalls[nr].name);
		return PTK_BPF_DONE;
	}
	return -1;
}

static int sc_prepare(struct ptk_bpf_run *r)
{
	struct priv *p = r->priv;

	snprintf(r->banner, sizeof(r->banner),
		 "Tracing syscalls, printing top %d... Ctrl+C to quit.", p->top);
	return 0;
}

static const struct ptk_bpf_opt sc_opts[] = {
	PTK_BPF_CALL('i', "interval", required_argument),
	PTK_BPF_CALL('d', "duration", required_argument),
	PTK_BPF_CALL('T', "top", required_argument),
	PTK_BPF_FLAG('x', "failures", struct priv, st.failed),
	PTK_BPF_CALL('e', "errno", required_argument),
	PTK_BPF_FLAG('L', "latency", struct priv, st.latency),
	PTK_BPF_FLAG('P', "process", struct priv, st.by_process),
	PTK_BPF_CALL('l', "list", no_argument),
	PTK_BPF_CALL('c', "cgroup", required_argument),
	{ 0 },
};

const struct ptk_bpf_ops ptk_syscount_ops = {
	.name = "syscount",
	.usage = usage,
	.opts = sc_opts,
	.common = PTK_BPF_OPT_PID | PTK_BPF_OPT_MS | PTK_BPF_OPT_VERBOSE,
	.operands = PTK_BPF_NO_OPERANDS,
	.own_timestamp = true,
	.opt = sc_opt,
	.prepare = sc_prepare,
	.load_lskel = ptk_systrace_load_lskel,
	.open = ptk_systrace_open,
	.load = ptk_systrace_load,
	.report = sc_report,
	.priv_size = sizeof(struct priv),
	.priv_init = &(const struct priv){ .top = 10, .st = { .sync_fd = -1, .counts_fd = -1 } },
};
