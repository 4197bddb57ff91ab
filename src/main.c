// SPDX-License-Identifier: GPL-2.0
/* ptk: dispatch over one static command table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/child.h"
#include "lib/util.h"
#include "source/bpf/runner.h"

static const struct ptk_cmd commands[] = {
	{ "check", cmd_check, "USE-method triage of every resource, with verdicts and next steps",
	  "uptime, dmesg, vmstat, mpstat, pidstat, iostat, free, sar -n (the first 60 s)" },
	{ "uptime", cmd_uptime, "uptime, load averages, tasks in R and D state", "uptime" },
	{ "free", cmd_free, "memory and swap usage", "free" },
	{ "vmstat", cmd_vmstat, "processes, memory, swap, I/O, system and CPU summary", "vmstat" },
	{ "dstat", cmd_dstat, "CPU, disk, network, paging, memory, processes side by side",
	  "dstat" },
	{ "mpstat", cmd_mpstat, "per-CPU utilization", "mpstat" },
	{ "iostat", cmd_iostat, "per-device I/O: IOPS, throughput, await, aqu-sz, %util",
	  "iostat" },
	{ "nicstat", cmd_nicstat, "per-interface throughput, utilization, saturation; TCP",
	  "nicstat, sar -n DEV,TCP,ETCP" },
	{ "pressure", cmd_pressure, "pressure stall information (PSI) for cpu, memory, io",
	  "cat /proc/pressure/*" },
	{ "top", cmd_top, "interactive process viewer (TUI), or batch output with -b",
	  "top, htop" },
	{ "pidstat", cmd_pidstat, "per-process CPU, memory, I/O and context switches", "pidstat" },
	{ "pmap", cmd_pmap, "memory map of a process", "pmap" },
	{ "iotop", cmd_iotop, "per-task I/O rates and I/O wait share", "iotop" },
	{ "cgtop", cmd_cgtop,
	  "cgroups by CPU, throttling, memory against limits, I/O, pressure, tasks",
	  "systemd-cgtop" },
	{ "cswtop", cmd_cswtop, "context-switch rates by thread group (thread pools, JVM)",
	  "pidstat -w -t + jstack by hand" },
	{ "runqlat", NULL, "run-queue latency histogram (eBPF)", "runqlat (libbpf-tools)",
	  &ptk_runqlat_ops },
	{ "offcputime", cmd_offcputime, "off-CPU time by user + kernel stack (eBPF)",
	  "offcputime (libbpf-tools)" },
	{ "biolatency", NULL, "block I/O latency histograms, per disk/flags/stage (eBPF)",
	  "biolatency (libbpf-tools)", &ptk_biolatency_ops },
	{ "biosnoop", NULL, "one line per block I/O with its latency (eBPF)",
	  "biosnoop (libbpf-tools)", &ptk_biosnoop_ops },
	{ "cachestat", NULL, "page cache hits, misses, dirties, hit ratio (eBPF)",
	  "cachestat (libbpf-tools)", &ptk_cachestat_ops },
	{ "execsnoop", NULL, "trace exec() calls: execve, execveat (eBPF)",
	  "execsnoop (libbpf-tools)", &ptk_execsnoop_ops },
	{ "syscount", NULL, "syscall counts, errors and latency by syscall or process (eBPF)",
	  "syscount (libbpf-tools)", &ptk_syscount_ops },
	{ "opensnoop", NULL, "trace open(), openat(), openat2() with errno names (eBPF)",
	  "opensnoop (libbpf-tools)", &ptk_opensnoop_ops },
	{ "tcpconnect", NULL, "trace active TCP connects, IPv4 and IPv6 (eBPF)",
	  "tcpconnect (libbpf-tools)", &ptk_tcpconnect_ops },
	{ "tcpaccept", NULL, "trace passive TCP accepts, IPv4 and IPv6 (eBPF)",
	  "tcpaccept (bcc, bpftrace)", &ptk_tcpaccept_ops },
	{ "agg", cmd_agg,
	  "count, sum, min/max or histogram any probe by its values; latency (eBPF)",
	  "bpftrace one-liners, argdist (bcc)" },
	{ "funclatency", cmd_funclatency, "a kernel or user function's latency histogram (eBPF)",
	  "funclatency (libbpf-tools)" },
	{ "funccount", cmd_funccount, "count calls of functions, tracepoints, USDT probes (eBPF)",
	  "funccount (bcc)" },
	{ "stackcount", cmd_stackcount, "count the stacks leading to any probe (eBPF)",
	  "stackcount (bcc)" },
	{ "trace", cmd_trace, "a line per event of any probe, with a condition and a format (eBPF)",
	  "trace (bcc)" },
	{ "memleak", cmd_memleak,
	  "outstanding allocations by stack, of a process or the kernel (eBPF)",
	  "memleak (libbpf-tools)" },
	{ "ltrace", cmd_ltrace, "a program's library calls through uprobes, nothing stopped (eBPF)",
	  "ltrace" },
	{ "ftrace", cmd_ftrace,
	  "function tracer and events in a private tracefs instance, trace-cmd's notation",
	  "trace-cmd record + report" },
	{ "blktrace", cmd_blktrace,
	  "block requests' events in blkparse's notation, then btt's latencies (eBPF)",
	  "blktrace + blkparse + btt" },
	{ "strace", cmd_strace,
	  "trace syscalls and signals (ptrace; seccomp-bpf filtered, bounded pause)", "strace" },
	{ "flamegraph", cmd_flamegraph,
	  "interactive SVG flame graph from folded stacks or perf script",
	  "stackcollapse-perf.pl + flamegraph.pl, difffolded.pl" },
	{ "pstack", cmd_pstack,
	  "stack of every thread of a process, with a measured pause (ptrace)",
	  "pstack, eu-stack -p, gdb 'thread apply all bt'" },
	{ "gcore", cmd_gcore, "ELF core file of a running process, with a measured pause (ptrace)",
	  "gcore (gdb)" },
	{ "exporter", cmd_exporter, "Prometheus /metrics over HTTP (node_exporter names + ptk_*)",
	  "prometheus-node-exporter" },
	{ "stat", cmd_stat, "count events: software, hardware, cache, tracepoints (perf_event)",
	  "perf stat" },
	{ "sched", cmd_sched,
	  "scheduler latency per task, timehist, Chrome/Perfetto JSON trace (sched tracepoints)",
	  "perf sched record + perf sched latency / timehist" },
	{ "profile", cmd_profile, "CPU profile: sampled stacks, folded, top functions, flame graph",
	  "perf record -g + perf report / stackcollapse + flamegraph.pl" },
	{ "capture", cmd_capture, "write /proc and /sys snapshots for later replay",
	  "(none: tar of /proc by hand)" },
	{ "record", cmd_record, "collect every metric and the top processes into a SQLite archive",
	  "sadc, sa1, atop -w" },
	{ "sar", cmd_sar, "reports from the archive (or live) in sar's layouts, with Average lines",
	  "sar" },
	{ "metrics", cmd_metrics, "list the metric registry: titles, JSON keys, units, help",
	  "(none: sysstat's activity.c, node_exporter's HELP lines)" },
};

static void print_help(FILE *f)
{
	fprintf(f, "usage: ptk [--procfs DIR] [--sysfs DIR] [--json] <command> [options]\n"
		   "       ptk <command> --help | ptk help | ptk --version\n\n"
		   "commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nglobal options (also accepted after the command):\n"
		   "  --procfs DIR  read /proc files from DIR (a snapshot tree from 'ptk capture' "
		   "replays)\n"
		   "  --sysfs DIR   read /sys files from DIR\n"
		   "  --json        NDJSON output, one object per interval\n");
}

static int close_stdout(int rc)
{
	/* Report write errors (EPIPE aside, ENOSPC, EIO) on stdout, as perf does. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE) {
			fprintf(stderr, "ptk: write error: %s\n", strerror(errno));
			return rc ? rc : PTK_EXIT_RUNTIME;
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct ptk_ctx ctx = { 0 };
	static char progname[64];
	int i = 1;

	ptk_child_save_start();
	/* global options before the command */
	while (i < argc && argv[i][0] == '-') {
		const char *a = argv[i];
		if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			printf("ptk %s\n", PTK_VERSION);
			return close_stdout(0);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			print_help(stdout);
			return close_stdout(0);
		} else if (!strcmp(a, "--json")) {
			ctx.json = true;
		} else if ((!strcmp(a, "--procfs") || !strcmp(a, "--sysfs")) && i + 1 < argc) {
			*(a[2] == 'p' ? &ctx.procfs : &ctx.sysfs) = argv[++i];
		} else if (!strncmp(a, "--procfs=", 9)) {
			ctx.procfs = a + 9;
		} else if (!strncmp(a, "--sysfs=", 8)) {
			ctx.sysfs = a + 8;
		} else {
			fprintf(stderr, "ptk: unknown option '%s' (try 'ptk help')\n", a);
			return 2;
		}
		i++;
	}
	if (i >= argc) {
		print_help(stderr);
		return 2;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 < argc) {
			/* ptk help CMD == ptk CMD --help */
			argv[i] = argv[i + 1];
			argv[i + 1] = "--help";
		} else {
			print_help(stdout);
			return close_stdout(0);
		}
	}
	for (size_t k = 0; k < ARRAY_SIZE(commands); k++) {
		if (strcmp(argv[i], commands[k].name))
			continue;
		ctx.cmd = commands[k].name;
		snprintf(progname, sizeof(progname), "ptk %s", ctx.cmd);
		ptk_progname = progname;
		optind = 1;
		opterr = 0; /* commands print their own one-line usage errors */
		if (!commands[k].fn)
			return close_stdout(ptk_bpf_cmd(&ctx, commands[k].bpf, argc - i, argv + i));
		return close_stdout(commands[k].fn(&ctx, argc - i, argv + i));
	}
	fprintf(stderr, "ptk: unknown command '%s' (try 'ptk help')\n", argv[i]);
	return 2;
}
