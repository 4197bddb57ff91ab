#!/usr/bin/env bash
# ptk record against sysstat's collector (sadc -S XALL) in one run: both sample the same
# machine at 1 s for N samples side by side. Reports the CPU time each spends per sample in
# the steady state (/proc/PID/schedstat sum_exec_runtime between the 2nd and the last sample,
# so start-up does not count), the bytes per sample (N samples minus 1 sample, so fixed
# headers and the SQLite schema do not count), and the start-up apart. Goals: CPU <= 0.5x sadc, bytes <= 1.0x sadc.
# Usage: bench/record.sh [N] (default 60). PTK=path to ptk (default build/ptk).
set -eu
cd "$(dirname "$0")/.."
N=${1:-60}
PTK=${PTK:-$PWD/build/ptk}
SADC=${SADC:-/usr/lib/sysstat/sadc}
[ -x "$SADC" ] || { echo "sadc not found ($SADC): apt-get install sysstat"; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

python3 - "$PTK" "$SADC" "$N" "$T" <<'PY'
import os, subprocess, sys, time
ptk, sadc, n, t = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def cpu_ns(pid):
    # /proc/PID/schedstat field 1: sum_exec_runtime (ns), exact, unlike tick-sampled rusage
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])

def run_pair(count, tag, window=False):
    db, sa = f"{t}/{tag}.db", f"{t}/{tag}.sa"
    p = subprocess.Popen([ptk, "record", "-i", "1", "-c", str(count), "--db", db],
                         stderr=subprocess.DEVNULL)
    s = subprocess.Popen([sadc, "-S", "XALL", "1", str(count), sa])
    t0 = time.monotonic()
    steady = None
    if window:
        # the steady state: CPU between 1.5 s (after the 2nd sample) and count - 0.5 s (after
        # the last), so start-up and exit are left out: count - 2 samples each
        time.sleep(1.5)
        a = {"ptk": cpu_ns(p.pid), "sadc": cpu_ns(s.pid)}
        time.sleep(max(0, t0 + count - 0.5 - time.monotonic()))
        b = {"ptk": cpu_ns(p.pid), "sadc": cpu_ns(s.pid)}
        steady = {k: (b[k] - a[k]) / 1e6 / (count - 2) for k in a}
    cpu = {}
    for proc, name in ((p, "ptk"), (s, "sadc")):
        _, status, ru = os.wait4(proc.pid, 0)
        proc.returncode = status
        cpu[name] = ru.ru_utime + ru.ru_stime
    size = {"ptk": os.path.getsize(db) + (os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0),
            "sadc": os.path.getsize(sa)}
    return cpu, size, steady

c1, s1, _ = run_pair(1, "one")
cN, sN, per = run_pair(n, "many", window=True)
print(f"{n} samples at 1 s, side by side")
print(f"{'':14}{'ptk record':>14}{'sadc -S XALL':>14}{'ratio':>8}")
# a collector runs for days: its cost per sample is the steady-state one (schedstat between
# the 2nd and the last sample); the one-time start-up is printed apart
print(f"{'CPU ms/sample':14}{per['ptk']:14.3f}{per['sadc']:14.3f}{per['ptk'] / per['sadc']:8.2f}  (goal <= 0.50)")
print(f"{'start-up ms':14}{c1['ptk'] * 1000:14.1f}{c1['sadc'] * 1000:14.1f}  (one sample, once per run)")
b = {k: (sN[k] - s1[k]) / (n - 1) for k in sN}
print(f"{'bytes/sample':14}{b['ptk']:14.0f}{b['sadc']:14.0f}{b['ptk'] / b['sadc']:8.2f}  (goal <= 1.00)")
print(f"{'file bytes':14}{sN['ptk']:14d}{sN['sadc']:14d}")
PY
