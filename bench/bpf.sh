#!/usr/bin/env bash
# BPF tools against libbpf-tools, side by side in one run (root):
#  1. startup + teardown time and peak RSS of runqlat and other tools (wall - 1 s)
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
    # peak RSS from GNU time (%M, KiB): wait4's ru_maxrss of a child forked by python
    # starts at python's own size, which would hide the tool's
    tf = "/tmp/ptk-bench-time.txt"
    t = time.monotonic()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", tf] + cmd,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, st, ru = os.wait4(p.pid, 0)
    rss = int(open(tf).read().split()[-1])
    os.unlink(tf)
    return time.monotonic() - t, rss, ru.ru_utime + ru.ru_stime, out.decode(errors="replace")

print("== startup + teardown (wall minus the 1 s traced), peak RSS, CPU; median of 5 runs each")
print("   interval tools run `TOOL 1 1`; event tools run 1 s and get SIGINT")
tools = [("runqlat", ["1", "1"], False), ("execsnoop", [], True), ("opensnoop", [], True),
         ("biolatency", ["1", "1"], False), ("offcputime", ["1"], False),
         ("cachestat", ["1", "1"], False)]
for tool, args, timed in tools:
    row = {}
    for who, base in (("ptk", [ptk, tool]), ("libbpf-tools", [tool])):
        cmd = (["timeout", "-s", "INT", "1"] if timed else []) + base + args
        res = [run(cmd) for _ in range(5)]
        row[who] = (statistics.median(r[0] for r in res) - 1.0,
                    statistics.median(r[1] for r in res), statistics.median(r[2] for r in res))
    (pw, pr, pc), (lw, lr, lc) = row["ptk"], row["libbpf-tools"]
    print(f"  {tool:<11} ptk start+stop {pw*1000:6.1f} ms, RSS {pr/1024:5.1f} MiB, CPU {pc*1000:5.1f} ms | "
          f"libbpf-tools {lw*1000:6.1f} ms, {lr/1024:5.1f} MiB, {lc*1000:5.1f} ms | "
          f"ratio start {pw/lw:.2f}, RSS {pr/lr:.2f}")
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
echo "== throughput of perf bench sched pipe (100000 round trips, both ends pinned to CPU 1): alone,"
echo "   under ptk runqlat, under libbpf-tools runqlat, interleaved 5 times; medians"
pipe() { taskset -c 1 perf bench sched pipe -l 100000 2>/dev/null | awk '/ops\/sec/ { print $1 }'; }
A=""; P=""; L=""
for round in 1 2 3 4 5; do
	A="$A $(pipe)"
	"$PTK" runqlat >/dev/null 2>&1 & T=$!; sleep 1; P="$P $(pipe)"; kill -INT $T; wait $T 2>/dev/null
	runqlat >/dev/null 2>&1 & T=$!; sleep 1; L="$L $(pipe)"; kill -INT $T; wait $T 2>/dev/null
done
python3 -c "
import statistics as st
a, p, l = ([float(x) for x in s.split()] for s in ('$A', '$P', '$L'))
b, pm, lm = st.median(a), st.median(p), st.median(l)
print(f'  alone                     {b:>10.0f} ops/s   runs {a}')
print(f'  with ptk runqlat          {pm:>10.0f} ops/s  ({100*(b-pm)/b:5.1f}% lost)   runs {p}')
print(f'  with libbpf-tools runqlat {lm:>10.0f} ops/s  ({100*(b-lm)/b:5.1f}% lost)   runs {l}')
print(f'  lost ratio ptk/libbpf-tools = {((b-pm)/(b-lm)) if b>lm else float(\"nan\"):.2f} (goal <= 1)')"
