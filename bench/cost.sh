#!/usr/bin/env bash
# The observer cost as users pay for it: the CPU (user+sys, wait4 rusage) of the whole
# command, the median of RUNS runs alternated with the anchor tool's in the same run, and the
# ratio of the medians:
#  - `ptk top -b -n 1` against procps `top -b -n 1`, and `ptk pidstat 1 1` against sysstat
#    `pidstat 1 1`, with 3,000 and 10,000 extra processes sleeping in pause() (goal: at most
#    0.10 each), and how both grow from 3,000 to 10,000;
#  - `ptk check -d 3`: its CPU plus its BPF programs' run time (the kernel's run_time_ns under
#    BPF_ENABLE_STATS, which check reports as observer.bpf_run_time_ns) over its wall time,
#    on the machine as it is and with 10,000 extra processes (goals: under 1% and 2% of one CPU).
# usage: bench/cost.sh [RUNS]   (root for the BPF parts; PTK=path to ptk, default build/ptk;
#        NPROCS="3000 10000" the extra processes, CHECK_RUNS=5)
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
PTK=${PTK:-$PWD/build/ptk}
RUNS=${1:-9}
CHECK_RUNS=${CHECK_RUNS:-5}
NPROCS=${NPROCS:-3000 10000}
C=bench/cpucost.py
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
command -v top > /dev/null || { echo "procps top not installed" >&2; exit 1; }
command -v pidstat > /dev/null || { echo "sysstat pidstat not installed" >&2; exit 1; }

check_cost() { # label: RUNS of ptk check -d 3, the median share of one CPU
	python3 - "$PTK" "$CHECK_RUNS" "$1" <<'PY'
import json, os, statistics, subprocess, sys, time
sys.path.insert(0, "bench")
import cpucost
ptk, runs, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
load0 = cpucost.loadavg()
rows = []
for _ in range(runs):
    t0 = time.monotonic()
    p = subprocess.Popen([ptk, "check", "-d", "3", "--json"], stdout=subprocess.PIPE)
    out = p.stdout.read()
    cpu = cpucost.rusage_of(p)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 1, 2):  # check's exit code is its verdict
        sys.exit(f"ptk check exited {p.returncode}")
    bpf = json.loads(out)["observer"].get("bpf_run_time_ns")
    rows.append((cpu, (bpf or 0) / 1e9, wall, bpf is not None))
cpu = statistics.median(r[0] for r in rows)
bpf = statistics.median(r[1] for r in rows)
pct = statistics.median(100 * (r[0] + r[1]) / r[2] for r in rows)
wall = statistics.median(r[2] for r in rows)
known = "" if all(r[3] for r in rows) else " (BPF run time unknown in some runs: counted 0)"
print(f"  ptk check -d 3 ({label}): {cpu * 1000:.1f} ms CPU + {bpf * 1000:.2f} ms BPF over "
      f"{wall:.2f} s = {pct:.2f}% of one CPU{known}")
print(f"  (medians of {runs} runs; load {load0} -> {cpucost.loadavg()})")
PY
}

ms() { awk '/ms CPU/ { if (match($0, /[0-9.]+ ms CPU/)) print substr($0, RSTART, RLENGTH) + 0 }'; }

echo "== $(bench_nproc) processes on $(nproc) CPUs, load $(bench_load)"
check_cost "$(bench_nproc) processes"
declare -A top_ms pid_ms
for n in $NPROCS; do
	bench_sleepers "$n" || exit 1
	echo
	echo "== $n extra processes: $(bench_nproc) in all, load $(bench_load)"
	out=$(python3 $C "ptk top -b -n 1" "$PTK top -b -n 1" "procps top -b -n 1" "top -b -n 1" --runs "$RUNS")
	echo "$out"
	top_ms[$n]=$(echo "$out" | ms | tr '\n' ' ')
	out=$(python3 $C "ptk pidstat 1 1" "$PTK pidstat 1 1" "sysstat pidstat 1 1" "pidstat 1 1" --runs "$RUNS")
	echo "$out"
	pid_ms[$n]=$(echo "$out" | ms | tr '\n' ' ')
	[ "$n" = "${NPROCS##* }" ] && check_cost "$(bench_nproc) processes"
done
bench_sleepers_stop
set -- $NPROCS
if [ $# -ge 2 ]; then
	lo=$1 hi=${!#}
	echo
	echo "== growth from $lo to $hi extra processes (CPU at $hi / CPU at $lo)"
	for w in top pidstat; do
		if [ $w = top ]; then a=(${top_ms[$lo]}) b=(${top_ms[$hi]}); else a=(${pid_ms[$lo]}) b=(${pid_ms[$hi]}); fi
		awk -v w=$w -v pa="${a[0]}" -v pb="${b[0]}" -v ta="${a[1]}" -v tb="${b[1]}" 'BEGIN {
			printf "  %-8s ptk %.2f -> %.2f ms (x%.2f), anchor %.2f -> %.2f ms (x%.2f)\n",
				w, pa, pb, pb / pa, ta, tb, tb / ta }'
	done
fi
