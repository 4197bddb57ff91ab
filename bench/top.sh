#!/usr/bin/env bash
# ptk top against procps top and ps on a machine with 3,000+ extra processes (bench/lib.sh
# bench_sleepers; all killed on exit). Reports the CPU time (user+sys, wait4 rusage) of:
#  - one snapshot: `ptk top -b -n 1` vs `top -b -n 1` (both prime and sleep 0.15 s first)
#    and vs `ps -eo pid,comm,%cpu,rss`, averaged over 5 runs;
#  - `ptk pidstat 1 1` vs sysstat `pidstat 1 1`;
#  - the steady state per frame, the hot path: (cost of -n 11 - cost of -n 1) / 10, -d 0.2.
# usage: bench/top.sh [NPROC]     (PTK=path to ptk, default build/ptk)
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
PTK=${PTK:-$PWD/build/ptk}
N=${1:-3000}
C=bench/cpucost.py
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
command -v top >/dev/null || { echo "procps top not installed" >&2; exit 1; }

bench_sleepers "$N" || exit 1
echo "== $(ls /proc | grep -c '^[0-9]') processes on $(nproc) CPUs"

echo "== one snapshot, CPU time averaged over 5 runs"
python3 $C "ptk top -b -n 1" "$PTK top -b -n 1" "procps top -b -n 1" "top -b -n 1" --repeat 5
python3 $C "ptk top -b -n 1" "$PTK top -b -n 1" "ps -eo pid,comm,%cpu,rss" "ps -eo pid,comm,%cpu,rss" --repeat 5

echo "== pidstat: one 1 s interval over every process (CPU time, averaged over 3 runs)"
python3 $C "ptk pidstat 1 1" "$PTK pidstat 1 1" "sysstat pidstat 1 1" "pidstat 1 1" --repeat 3

echo "== steady state: 11 frames, 0.2 s apart (the first frame is the snapshot above)"
out=$(python3 $C "ptk top -b -n 11" "$PTK top -b -n 11 -d 0.2" "procps top -b -n 11" "top -b -n 11 -d 0.2" --repeat 2)
echo "$out"
one=$(python3 $C "ptk" "$PTK top -b -n 1" "top" "top -b -n 1" --repeat 3)
printf "%s\n%s\n" "$out" "$one" | awk '
	/ms CPU/ { if (match($0, /[0-9.]+ ms CPU/)) v[n++] = substr($0, RSTART, RLENGTH) + 0 }
	END { if (n < 4) exit 1
		p = (v[0] - v[2]) / 10; t = (v[1] - v[3]) / 10
		printf "  per frame: ptk %.2f ms, procps top %.2f ms, ratio %.2f (goal <= 0.33)\n", p, t, p / t }'
