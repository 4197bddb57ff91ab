#!/usr/bin/env bash
# How long each tool holds a process: ptk pstack, eu-stack -p, ptk gcore, gdb's gcore, in
# one run, on the same target. The target (C, built here) runs a thread that reads
# CLOCK_MONOTONIC in a tight loop and keeps the longest gap between two reads; 8 idle threads
# and 64 MiB of touched heap give the tools something to stop and to dump. The gap is the
# pause the target saw (plus scheduling noise: the idle gap is printed first). ptk also
# reports its own measured pause.
# Usage: bench/pause.sh [PTK] [ROUNDS]
set -u
cd "$(dirname "$0")/.."
PTK=${1:-$PWD/build/ptk}
ROUNDS=${2:-5}
T=$(mktemp -d)
trap 'kill $P 2>/dev/null; rm -rf "$T"' EXIT
cat > "$T/gap.c" <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static volatile sig_atomic_t report, reset;
static void on_usr1(int s) { (void)s; report = 1; }
static void on_usr2(int s) { (void)s; reset = 1; }
static long long now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
static void *idle(void *a) { for (;;) pause(); return a; }
int main(void)
{
	pthread_t t;
	char *heap = malloc(64 << 20);
	memset(heap, 1, 64 << 20);
	alarm(600);
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	for (int i = 0; i < 8; i++)
		pthread_create(&t, NULL, idle, NULL);
	printf("ready %d\n", getpid());
	fflush(stdout);
	long long last = now(), max = 0;
	for (;;) {
		long long n = now();
		if (n - last > max)
			max = n - last;
		last = n;
		if (reset) { reset = 0; max = 0; last = now(); }
		if (report) { report = 0; printf("gap %.3f\n", max / 1e6); fflush(stdout); }
	}
}
C
cc -O2 -pthread -o "$T/gap" "$T/gap.c" || exit 1
"$T/gap" > "$T/out" & P=$!
for _ in $(seq 100); do grep -q ready "$T/out" && break; sleep 0.05; done
sleep 0.5

gap() { # run "$@" against the target; prints the longest gap in ms
	kill -USR2 $P; sleep 0.05
	"$@" > "$T/tool.out" 2>&1
	local n; n=$(grep -c '^gap' "$T/out")
	kill -USR1 $P
	for _ in $(seq 100); do [ "$(grep -c '^gap' "$T/out")" -gt "$n" ] && break; sleep 0.01; done
	grep '^gap' "$T/out" | tail -1 | awk '{ print $2 }'
}
# "min / median": the pause is a lower bound of the gap; other load on the machine adds to it
median() { sort -n | awk '{ a[NR] = $1 } END { printf "%s / %s\n", a[1], (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

printf '%-22s %20s %20s\n' tool "target gap ms" "self-reported ms"
row() { # name, self-report extractor (or -), command...
	local name=$1 ext=$2; shift 2
	local gaps=() self=()
	for _ in $(seq "$ROUNDS"); do
		gaps+=("$(gap "$@")")
		[ "$ext" != - ] && self+=("$(grep -o "$ext" "$T/tool.out" | grep -o '[0-9.]*' | head -1)")
		rm -f "$T"/core.* "$T"/gcore.*
	done
	printf '%-22s %20s %20s\n' "$name" "$(printf '%s\n' "${gaps[@]}" | median)" \
		"$([ ${#self[@]} -gt 0 ] && printf '%s\n' "${self[@]}" | median || echo -)"
}
row "(idle: no tool)" - sleep 0.2
row "ptk pstack" 'paused [0-9.]* ms' "$PTK" pstack $P
command -v eu-stack > /dev/null && row "eu-stack -p" - eu-stack -p $P
row "ptk gcore" 'paused [0-9.]* ms' "$PTK" gcore -o "$T/core" $P
command -v gcore > /dev/null && row "gdb gcore" - gcore -o "$T/gcore" $P
echo "(min / median of $ROUNDS rounds; target: 9 threads, 64 MiB touched heap)"
