#!/usr/bin/env bash
# ptk profile against perf record -F 99 -g on the same workload, in one run (root):
#  1. the workload's slowdown: tests/progs/burn.c -n ROUNDS (fixed work) alone, under
#     perf record -p, under ptk profile -p (wall time the program measures itself)
#  2. the CPU time of the profiler itself (rusage of the profiler process; the workload is
#     a separate process started first, the profiler attached with -p and ending with it)
#  3. bytes per sample: perf.data / samples against ptk's folded output / samples
# Medians of 3 runs; ratios ptk/perf printed.
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
[ "$(id -u)" -eq 0 ] || { echo "bench/profile.sh needs root" >&2; exit 1; }
command -v perf > /dev/null || { echo "install linux-perf first" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O1 -fno-omit-frame-pointer -g -o "$T/burn" tests/progs/burn.c || exit 1
ROUNDS=${ROUNDS:-1500} HZ=${HZ:-99}

python3 - "$PTK" "$T" "$ROUNDS" "$HZ" <<'PY'
import os, re, subprocess, sys, time, statistics
ptk, T, rounds, hz = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
burn = [f"{T}/burn", "-n", rounds]

def workload():
    return subprocess.Popen(burn, stdout=subprocess.PIPE, text=True)

def wall(w):
    out = w.stdout.read(); w.wait()
    return float(re.search(r"rounds ([0-9.]+) s", out).group(1))

def profiled(cmd_of_pid):
    w = workload()
    time.sleep(0.05)
    p = subprocess.Popen(cmd_of_pid(w.pid), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, st, ru = os.wait4(p.pid, 0)
    return wall(w), ru.ru_utime + ru.ru_stime, err

res = {"alone": [], "perf": [], "ptk": []}
for i in range(3):
    w = workload(); res["alone"].append((wall(w), 0, 0, 0))
    data = f"{T}/perf.data"
    wl, cpu, _ = profiled(lambda pid: ["perf", "record", "-q", "-F", hz, "-g", "-o", data, "-p", str(pid)])
    n = int(subprocess.run(["perf", "script", "-i", data, "-F", "tid"], capture_output=True, text=True).stdout.count("\n"))
    res["perf"].append((wl, cpu, os.path.getsize(data), n))
    folded = f"{T}/ptk.folded"
    wl, cpu, err = profiled(lambda pid: [ptk, "profile", "-F", hz, "-g", "-o", folded, "-p", str(pid)])
    m = re.search(r"; (\d+) samples", err)
    res["ptk"].append((wl, cpu, os.path.getsize(folded), int(m.group(1)) if m else 0))

def med(k, j): return statistics.median(r[j] for r in res[k])
base = med("alone", 0)
print(f"== workload: burn -n {rounds} (one thread, 70% burn_a / 30% burn_b), -F {hz} -g, medians of 3")
print(f"  alone                 wall {base:7.3f} s")
for k, name in (("perf", f"perf record -F {hz} -g"), ("ptk", f"ptk profile -F {hz} -g")):
    wl, cpu, size, n = med(k, 0), med(k, 1), med(k, 2), med(k, 3)
    print(f"  {name:<22}wall {wl:7.3f} s (slowdown {100 * (wl / base - 1):+5.1f}%)  profiler CPU {cpu * 1000:7.1f} ms"
          f"  samples {n:6.0f}  output {size:8.0f} B = {size / max(n, 1):7.1f} B/sample")
pw, pc, ps, pn = (med("perf", j) for j in range(4))
kw, kc, ks, kn = (med("ptk", j) for j in range(4))
print(f"  ratio ptk/perf: profiler CPU {kc / pc:.2f}, bytes per sample {(ks / max(kn, 1)) / (ps / max(pn, 1)):.3f},"
      f" workload wall {kw / pw:.3f}")
print("  (perf record writes every sample with its raw call chain and then needs perf script + a"
      " collapser; ptk symbolizes while sampling and keeps one line per distinct stack)")
PY
