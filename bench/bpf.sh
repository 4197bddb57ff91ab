#!/usr/bin/env bash
# BPF tools against libbpf-tools, side by side in one run (root):
#  1. startup + teardown time and peak RSS of `runqlat 1 1` (wall - 1 s)
#  2. the counts both see on the same window
#  3. throughput lost on `perf bench sched pipe` while each runqlat traces every switch
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
[ "$(id -u)" -eq 0 ] || { echo "bench/bpf.sh needs root" >&2; exit 1; }
command -v runqlat >/dev/null || { echo "install libbpf-tools first" >&2; exit 1; }

python3 - "$PTK" <<'PY'
import os, subprocess, sys, time, re, statistics
ptk = sys.argv[1]

def run(cmd):
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, st, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t, ru.ru_maxrss, ru.ru_utime + ru.ru_stime, out.decode(errors="replace")

print("== startup + teardown (wall of `runqlat 1 1` minus the 1 s interval), peak RSS; median of 5")
for name, cmd in (("ptk runqlat", [ptk, "runqlat", "1", "1"]), ("libbpf-tools runqlat", ["runqlat", "1", "1"])):
    res = [run(cmd) for _ in range(5)]
    w = statistics.median(r[0] for r in res) - 1.0
    rss = statistics.median(r[1] for r in res)
    cpu = statistics.median(r[2] for r in res)
    print(f"  {name:<22} start+stop {w*1000:7.1f} ms   peak RSS {rss/1024:6.1f} MiB   CPU {cpu*1000:6.1f} ms")
    res_by = globals().setdefault("res_by", {})
    res_by[name] = (w, rss)
a, b = res_by["ptk runqlat"], res_by["libbpf-tools runqlat"]
print(f"  ratio ptk/libbpf-tools: start+stop {a[0]/b[0]:.2f}, peak RSS {a[1]/b[1]:.2f}")
PY
echo
echo "== counts on the same 3 s window (runqlat totals: every wakeup->switch both see)"
"$PTK" runqlat --json 3 1 > /tmp/ptk-bench-rq.json 2>/dev/null & P=$!
runqlat 3 1 > /tmp/ptk-bench-rq.txt 2>/dev/null & A=$!
wait $P $A
p=$(python3 -c "import json; print(json.load(open('/tmp/ptk-bench-rq.json'))['histograms'][0]['hist']['total'])")
a=$(awk '/->/ { t += $5 } END { print t }' /tmp/ptk-bench-rq.txt)
python3 -c "print(f'  ptk runqlat {$p}   libbpf-tools runqlat {$a}   ratio {$p/max($a,1):.3f}')"
rm -f /tmp/ptk-bench-rq.json /tmp/ptk-bench-rq.txt

echo
echo "== throughput of perf bench sched pipe (200000 round trips), alone and under each tracer"
pipe() { perf bench sched pipe -l 200000 2>/dev/null | awk '/ops\/sec/ { print $1 }'; }
base=$(pipe)
"$PTK" runqlat >/dev/null 2>&1 & P=$!; sleep 1; with_ptk=$(pipe); kill -INT $P; wait $P 2>/dev/null
runqlat >/dev/null 2>&1 & A=$!; sleep 1; with_lt=$(pipe); kill -INT $A; wait $A 2>/dev/null
python3 -c "
b, p, l = $base, $with_ptk, $with_lt
print(f'  alone                     {b:>10.0f} ops/s')
print(f'  with ptk runqlat          {p:>10.0f} ops/s  ({100*(b-p)/b:5.1f}% lost)')
print(f'  with libbpf-tools runqlat {l:>10.0f} ops/s  ({100*(b-l)/b:5.1f}% lost)')
print(f'  lost ratio ptk/libbpf-tools = {((b-p)/(b-l)) if b>l else float(\"nan\"):.2f}')"
