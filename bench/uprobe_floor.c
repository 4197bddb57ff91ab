// SPDX-License-Identifier: GPL-2.0
/*
 * bench/uprobe_floor PATH OFFSET TYPE: the least a tracer can do to see a uprobe's events,
 * the floor of bench/dyntrace.sh's start-up: a 2-instruction program loaded and attached to
 * a uprobe at file OFFSET of PATH (TYPE: /sys/bus/event_source/devices/uprobe/type) by raw
 * syscalls, with no library beyond libc; then it waits for a signal. Its start-up is exec
 * and the kernel's own work, the uprobe's creation included (which waits for an RCU grace
 * period, as it does for every tool).
 */
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void on_signal(int sig)
{
	(void)sig;
	_exit(0);
}

int main(int argc, char **argv)
{
	uint64_t insns[2] = { 0xb7, 0x95 }; /* r0 = 0; exit */
	unsigned char pa[128] = { 0 }; /* union bpf_attr, for BPF_PROG_LOAD */
	struct perf_event_attr a = { .size = sizeof(a), .sample_period = 1, .wakeup_events = 1 };
	int pfd, efd;

	if (argc != 4) {
		fprintf(stderr, "usage: uprobe_floor PATH OFFSET TYPE\n");
		return 2;
	}
	*(uint32_t *)pa = 2; /* BPF_PROG_TYPE_KPROBE */
	*(uint32_t *)(pa + 4) = 2;
	*(uint64_t *)(pa + 8) = (uintptr_t)insns;
	*(uint64_t *)(pa + 16) = (uintptr_t) "GPL";
	pfd = syscall(SYS_bpf, 5, pa, sizeof(pa));
	a.type = atoi(argv[3]);
	a.config1 = (uintptr_t)argv[1];
	a.config2 = strtoull(argv[2], NULL, 0);
	efd = syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0 || efd < 0 || ioctl(efd, PERF_EVENT_IOC_SET_BPF, pfd) ||
	    ioctl(efd, PERF_EVENT_IOC_ENABLE, 0)) {
		perror("uprobe_floor");
		return 1;
	}
	/* a handler, not the default: a shell that runs it in the background ignores SIGINT */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	pause();
	return 0;
}
