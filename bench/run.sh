#!/usr/bin/env bash
# Side-by-side benchmarks of ptk against the classic tools, in one run. Reports ratios.
# usage: bench/run.sh [PTK=path]   (needs procps, sysstat; run on an otherwise idle machine)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
C=bench/cpucost.py

echo "== CPU cost of the interval monitors, 1 s interval x 5, ptk and the classic tool concurrently"
python3 $C "ptk vmstat 1 5" "$PTK vmstat 1 5" "procps vmstat 1 5" "vmstat 1 5" --concurrent
python3 $C "ptk mpstat -P ALL 1 5" "$PTK mpstat -P ALL 1 5" "sysstat mpstat -P ALL 1 5" "mpstat -P ALL 1 5" --concurrent
python3 $C "ptk iostat -x 1 5" "$PTK iostat -x 1 5" "sysstat iostat -x 1 5" "iostat -x 1 5" --concurrent
echo
echo "== CPU cost of one report (no interval), averaged over 50 runs"
python3 $C "ptk vmstat" "$PTK vmstat" "procps vmstat" "vmstat" --repeat 50
python3 $C "ptk free" "$PTK free" "procps free" "free" --repeat 50
python3 $C "ptk iostat -x" "$PTK iostat -x" "sysstat iostat -x" "iostat -x" --repeat 50
echo
echo "== Observer cost of ptk check -d 10"
"$PTK" check -d 10 --json | python3 -c "import json,sys; o=json.load(sys.stdin)['observer']
print(f\"  ptk check -d 10: {o['cpu_s']*1000:.1f} ms CPU over {o['wall_s']:.1f} s = {o['cpu_pct_of_one_cpu']:.3f}% of one CPU (goal < 1%)\")"
echo "  the classic checklist it replaces (uptime; dmesg|tail; vmstat 1 10; mpstat -P ALL 1 10; pidstat 1 10; iostat -xz 1 10; free -m; sar -n DEV,TCP,ETCP 1 10):"
python3 $C "ptk check -d 10" "$PTK check -d 10" "first-60-seconds checklist" \
	"sh -c 'uptime; dmesg | tail; free -m; vmstat 1 10 & mpstat -P ALL 1 10 & pidstat 1 10 & iostat -xz 1 10 & sar -n DEV,TCP,ETCP 1 10 & wait'" --concurrent
