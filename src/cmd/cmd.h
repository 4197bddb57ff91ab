/* SPDX-License-Identifier: GPL-2.0 */
/* Commands: each takes the context and its own argv (argv[0] = command name) and returns
 * an exit code (0 ok, 1 runtime error, 2 usage error). One file per command in src/cmd/. */
#ifndef PTK_CMD_H
#define PTK_CMD_H

#include "lib/cli.h"

struct ptk_bpf_ops;

struct ptk_cmd {
	const char *name;
	int (*fn)(struct ptk_ctx *ctx, int argc, char **argv); /* NULL: bpf */
	const char *summary; /* one line for `ptk help` */
	const char *replaces; /* the classic tool(s) it stands in for */
	/* a BPF tool that is only a description for the runner, run by ptk_bpf_cmd() */
	const struct ptk_bpf_ops *bpf;
};

int cmd_check(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_uptime(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_free(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_vmstat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_dstat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_mpstat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_iostat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_nicstat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_pressure(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_capture(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_record(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_sar(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_top(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_pidstat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_pmap(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_iotop(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_cswtop(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_offcputime(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_agg(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_funclatency(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_funccount(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_stackcount(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_trace(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_memleak(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_ltrace(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_ftrace(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_blktrace(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_strace(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_stat(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_profile(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_sched(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_exporter(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_flamegraph(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_pstack(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_gcore(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_cgtop(struct ptk_ctx *ctx, int argc, char **argv);
int cmd_metrics(struct ptk_ctx *ctx, int argc, char **argv);

/* BPF tools described for the runner alone (src/source/bpf/runner.h) */
extern const struct ptk_bpf_ops ptk_runqlat_ops;
extern const struct ptk_bpf_ops ptk_biolatency_ops;
extern const struct ptk_bpf_ops ptk_biosnoop_ops;
extern const struct ptk_bpf_ops ptk_cachestat_ops;
extern const struct ptk_bpf_ops ptk_execsnoop_ops;
extern const struct ptk_bpf_ops ptk_syscount_ops;
extern const struct ptk_bpf_ops ptk_opensnoop_ops;
extern const struct ptk_bpf_ops ptk_tcpconnect_ops;
extern const struct ptk_bpf_ops ptk_tcpaccept_ops;

#endif
