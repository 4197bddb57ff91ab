#!/usr/bin/env bash
# ptk sched against perf sched on the same load (tests/progs/cswload: 2 sleepers at 1 ms,
# a spinner, a sleeper at 10 ms, for SECONDS): CPU time (user + system, /usr/bin/time) of
#   ptk sched latency                    (record and report in one process)
#   ptk sched -o trace.json              (with the Chrome trace)
#   perf sched record + perf sched latency  (both steps)
#   perf sched timehist                  (on the same perf.data)
# usage: bench/sched.sh [SECONDS]   (default 10; PTK=ptk binary; root)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
SECS=${1:-10}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -O1 -pthread -o "$W/cswload" tests/progs/cswload.c || exit 1
cpu() { # label, command: user+sys seconds of the command
	/usr/bin/time -f "%U %S" -o "$W/t" "${@:2}" > /dev/null 2> "$W/err"
	awk -v l="$1" '{ printf "  %-44s %7.3f s CPU\n", l, $1 + $2; print $1 + $2 > "/dev/stderr" }' "$W/t" 2> "$W/$1.cpu"
}
# the load runs beside each recorder (not as its child): the CPU measured is the tool's
load() { "$W/cswload" 2 1 1 $((SECS + 1)) > /dev/null & sleep 0.5; }
echo "== $SECS s of cswload (2 x 1 ms sleepers, 1 spinner, 1 x 10 ms sleeper), system-wide"
load; cpu ptk-latency "$PTK" sched -d "$SECS"; wait
grep observer "$W/err" | sed 's/^/    /'
load; cpu ptk-trace "$PTK" sched -d "$SECS" -o "$W/trace.json"; wait
load; cpu perf-record perf sched record -o "$W/perf.data" -- sleep "$SECS"; wait
cpu perf-latency perf sched latency -i "$W/perf.data"
cpu perf-timehist perf sched timehist -i "$W/perf.data"
awk -v a="$(cat "$W/ptk-latency.cpu")" -v b="$(cat "$W/perf-record.cpu")" -v c="$(cat "$W/perf-latency.cpu")" \
	-v d="$(cat "$W/perf-timehist.cpu")" 'BEGIN {
	printf "  ptk sched latency / (perf sched record + latency): %.3f\n", (b + c > 0) ? a / (b + c) : 0
	printf "  ptk sched latency / (perf sched record + timehist): %.3f\n", (b + d > 0) ? a / (b + d) : 0 }'
printf '  trace.json %s, perf.data %s\n' "$(du -h "$W/trace.json" | cut -f1)" "$(du -h "$W/perf.data" | cut -f1)"
