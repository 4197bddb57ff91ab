#!/usr/bin/env bash
# The cost of the cgroup source with 500 cgroups: one snapshot of ptk cgtop against
# systemd-cgtop (CPU by wait4 rusage, the mean of several runs, and the ratio), beside ptk's
# own host scans, and the CPU of one exporter scrape with the cgroups collector on.
# usage: bench/cgroup.sh [N]   (root; v1 controllers or a v2 tree under /sys/fs/cgroup)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
N=${1:-500}
RUNS=${RUNS:-20}
C=bench/cpucost.py
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench/cgroup.sh creates cgroups: run as root" >&2; exit 1; }

DIRS=()
cleanup() {
	[ -n "${EXP:-}" ] && kill "$EXP" 2>/dev/null
	wait 2>/dev/null
	for d in "${DIRS[@]}"; do rmdir "$d"/cg* "$d" 2>/dev/null; done
}
trap cleanup EXIT

if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	roots=(/sys/fs/cgroup)
else
	roots=()
	for c in cpu cpuacct memory blkio pids unified; do
		[ -d "/sys/fs/cgroup/$c" ] && [ ! -L "/sys/fs/cgroup/$c" ] && roots+=("/sys/fs/cgroup/$c")
	done
fi
for r in "${roots[@]}"; do
	mkdir -p "$r/ptk-bench" && DIRS+=("$r/ptk-bench")
	for i in $(seq "$N"); do mkdir -p "$r/ptk-bench/cg$i"; done
done
echo "== $N cgroups under ptk-bench in ${#roots[@]} hierarchies (${roots[*]})"
total=$("$PTK" cgtop -b -n 1 --depth -1 --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)['cgroups']))")
echo "   ptk cgtop sees $total cgroups in all"
echo
echo "== one snapshot, mean of $RUNS runs (process CPU: start, read every cgroup, print)"
python3 $C "ptk cgtop -b -n 1" "$PTK cgtop -b -n 1 --depth -1" \
	"systemd-cgtop -b -n 1" "systemd-cgtop -b -n 1 --depth=100" --repeat "$RUNS"
python3 $C "ptk cgtop -b -n 1 (default depth 3)" "$PTK cgtop -b -n 1" \
	"systemd-cgtop -b -n 1 (default depth 3)" "systemd-cgtop -b -n 1" --repeat "$RUNS"
echo "   ptk's own host scans, for scale:"
python3 $C "ptk cgtop -b -n 1" "$PTK cgtop -b -n 1 --depth -1" "ptk top -b -n 1 (process table)" \
	"$PTK top -b -n 1" --repeat "$RUNS"
python3 $C "ptk cgtop -b -n 1" "$PTK cgtop -b -n 1 --depth -1" "ptk vmstat (system snapshot)" \
	"$PTK vmstat" --repeat "$RUNS"
echo
echo "== exporter scrape CPU with the cgroups collector (mean of 20 scrapes)"
for coll in cgroups "+cgroups"; do
	"$PTK" exporter --collectors "$coll" --check-window 3600 --listen 127.0.0.1:0 2>/tmp/ptk-bench-exp.err &
	EXP=$!
	port=
	for _ in $(seq 50); do
		port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' /tmp/ptk-bench-exp.err)
		[ -n "$port" ] && break
		sleep 0.1
	done
	curl -s "http://127.0.0.1:$port/metrics" > /dev/null # first scrape: warm caches
	sleep 1
	python3 - "$EXP" "$port" "$coll" <<'EOF'
import os, sys, time, urllib.request
pid, port, coll = int(sys.argv[1]), sys.argv[2], sys.argv[3]
hz = os.sysconf("SC_CLK_TCK")
def cpu():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / hz
# the exporter's background threads (scanner, check) run too: measure them idle first
c0 = cpu(); time.sleep(5); idle = (cpu() - c0) / 5
n, size = 20, 0
c0, t0 = cpu(), time.time()
for _ in range(n):
    size = len(urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read())
    time.sleep(0.25)
c1, t1 = cpu(), time.time()
per = ((c1 - c0) - idle * (t1 - t0)) / n
cg = len([l for l in urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode().splitlines() if l.startswith("container_memory_usage_bytes")])
print(f"  --collectors {coll}: {per * 1000:.1f} ms CPU per scrape ({size} bytes, {cg} cgroups; background {idle * 1000:.1f} ms/s subtracted; goal < 50 ms)")
EOF
	kill "$EXP"
	wait "$EXP" 2>/dev/null
	EXP=
done
