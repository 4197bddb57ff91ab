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

def run(cmd, timed):
    # peak RSS from GNU time (%M, KiB): wait4's ru_maxrss of a child forked by python
    # starts at python's own size, which would hide the tool's
    tf = "/tmp/ptk-bench-time.txt"
    t = time.monotonic()
    # stdbuf: libbpf-tools print their banner with stdio, block-buffered into a pipe
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", tf, "stdbuf", "-o0"] + cmd,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    # attached: the first output (the "Tracing ..." banner or the column header, which both
    # tools print once their programs are attached)
    first = p.stdout.read(1)
    t_att = time.monotonic() - t if first else float("nan")
    out = first + p.stdout.read()
    _, st, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t
    rss = int(open(tf).read().split()[-1])
    os.unlink(tf)
    # teardown: event tools get SIGINT 1 s after the start; interval tools (`1 1`) report 1 s
    # after they are attached
    stop = wall - 1.0 if timed else wall - t_att - 1.0
    return wall - 1.0, rss, ru.ru_utime + ru.ru_stime, t_att, stop

print("== startup + teardown (wall minus the 1 s traced), peak RSS, CPU; median of 5 runs each")
print("   interval tools run `TOOL 1 1`; event tools run 1 s and get SIGINT")
print("   attach = exec to the first output (banner/header, printed once attached);")
print("   stop = the report or SIGINT to exit (detaching: perf_event tracepoints wait for RCU)")
tools = [("runqlat", ["1", "1"], False), ("execsnoop", [], True), ("opensnoop", [], True),
         ("biolatency", ["1", "1"], False), ("offcputime", ["1"], False)]
# not compared: libbpf-tools cachestat and biosnoop fail to load on this kernel (their kprobe /
# fentry targets), tcpconnect too, and Debian ships no tcpaccept
for tool, args, timed in tools:
    row = {}
    for who, base in (("ptk", [ptk, tool]), ("libbpf-tools", [tool])):
        cmd = (["timeout", "-s", "INT", "1"] if timed else []) + base + args
        res = [run(cmd, timed) for _ in range(5)]
        row[who] = [statistics.median(r[k] for r in res) for k in range(5)]
    (pw, pr, pc, pa, ps), (lw, lr, lc, la, ls) = row["ptk"], row["libbpf-tools"]
    print(f"  {tool:<11} ptk start+stop {pw*1000:6.1f} ms (attach {pa*1000:5.1f}, stop {ps*1000:5.1f}), "
          f"RSS {pr/1024:5.1f} MiB, CPU {pc*1000:5.1f} ms | "
          f"libbpf-tools {lw*1000:6.1f} ms (attach {la*1000:5.1f}, stop {ls*1000:5.1f}), "
          f"{lr/1024:5.1f} MiB, {lc*1000:5.1f} ms | "
          f"ratio start+stop {pw/lw:.2f}, attach {pa/la:.2f}, RSS {pr/lr:.2f}")
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
