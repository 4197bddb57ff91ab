#!/usr/bin/env bash
# ptk record against sysstat's collector (sadc -S XALL) in one run: both sample the same
# machine at 1 s for N samples side by side. Reports the CPU time (user+sys) and the bytes
# each spends per sample, both marginal (N samples minus 1 sample, so start-up, fixed headers
# and the SQLite schema do not count), and the start-up apart. Goals: CPU <= 0.5x sadc, bytes <= 1.0x sadc.
# Usage: bench/record.sh [N] (default 60). PTK=path to ptk (default build/ptk).
set -eu
cd "$(dirname "$0")/.."
N=${1:-60}
PTK=${PTK:-$PWD/build/ptk}
SADC=${SADC:-/usr/lib/sysstat/sadc}
[ -x "$SADC" ] || { echo "sadc not found ($SADC): apt-get install sysstat"; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

python3 - "$PTK" "$SADC" "$N" "$T" <<'PY'
import os, subprocess, sys
ptk, sadc, n, t = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def run_pair(count, tag):
    db, sa = f"{t}/{tag}.db", f"{t}/{tag}.sa"
    p = subprocess.Popen([ptk, "record", "-i", "1", "-c", str(count), "--db", db],
                         stderr=subprocess.DEVNULL)
    s = subprocess.Popen([sadc, "-S", "XALL", "1", str(count), sa])
    cpu = {}
    for proc, name in ((p, "ptk"), (s, "sadc")):
        _, status, ru = os.wait4(proc.pid, 0)
        proc.returncode = status
        cpu[name] = ru.ru_utime + ru.ru_stime
    size = {"ptk": os.path.getsize(db) + (os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0),
            "sadc": os.path.getsize(sa)}
    return cpu, size
c1, s1 = run_pair(1, "one")
cN, sN = run_pair(n, "many")
print(f"{n} samples at 1 s, side by side")
print(f"{'':14}{'ptk record':>14}{'sadc -S XALL':>14}{'ratio':>8}")
# a collector runs for days: its cost per sample is the marginal one (N samples minus 1),
# as for the bytes; the one-time start-up is printed apart
per = {k: (cN[k] - c1[k]) / (n - 1) * 1000 for k in cN}
print(f"{'CPU ms/sample':14}{per['ptk']:14.3f}{per['sadc']:14.3f}{per['ptk'] / per['sadc']:8.2f}  (goal <= 0.50)")
print(f"{'start-up ms':14}{c1['ptk'] * 1000:14.1f}{c1['sadc'] * 1000:14.1f}  (one sample, once per run)")
b = {k: (sN[k] - s1[k]) / (n - 1) for k in sN}
print(f"{'bytes/sample':14}{b['ptk']:14.0f}{b['sadc']:14.0f}{b['ptk'] / b['sadc']:8.2f}  (goal <= 1.00)")
print(f"{'file bytes':14}{sN['ptk']:14d}{sN['sadc']:14d}")
PY
