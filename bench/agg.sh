#!/usr/bin/env bash
# Start-up of a one-off tracepoint aggregation: `ptk agg` (one precompiled BPF program,
# configured at load time) against bpftrace (parses, compiles with LLVM, then loads), in one
# run, on the same tracepoint with a pinger calling getppid() every ~0.2 ms:
#   ptk agg syscalls:sys_enter_getppid --by comm
#   bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }'
# time to first event: from spawning the tool to its program having run once (a new
#   program of the tool's name with run_cnt > 0 in `bpftool prog show`; kernel.bpf_stats_enabled is
#   set to 1 for the run and restored after; poll granularity ~2 ms);
# whole run: `ptk agg ... 0.01 1` and `bpftrace ... -c /bin/true` (start, attach, report,
#   detach, exit; detaching a tracepoint waits for RCU, the same for both).
# Prints medians, mins and the ratios bpftrace / ptk.
# usage: bench/agg.sh [N]   (root; PTK=path to ptk, default build/ptk)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
N=${1:-7}
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (BPF)" >&2; exit 1; }
for t in bpftrace bpftool; do
	command -v $t >/dev/null || { echo "$t not installed" >&2; exit 1; }
done
old=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -q -w kernel.bpf_stats_enabled=$old' EXIT
sysctl -q -w kernel.bpf_stats_enabled=1

python3 - "$N" "$PTK" <<'PY'
import json, signal, subprocess, sys, time
n, ptk = int(sys.argv[1]), sys.argv[2]
tp = "syscalls:sys_enter_getppid"
bt = "tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }"
first = {"ptk agg": [ptk, "agg", tp, "--by", "comm"], "bpftrace": ["bpftrace", "-e", bt]}
# the program names (bpftool shows 15 characters) of each tool on this tracepoint
names = {"ptk agg": "agg_a", "bpftrace": "sys_enter_getpp"}
whole = {"ptk agg": [ptk, "agg", tp, "--by", "comm", "0.01", "1"],
         "bpftrace": ["bpftrace", "-e", bt, "-c", "/bin/true"]}

def progs():
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True).stdout
    return {p["id"]: p for p in json.loads(out or "[]")}

def time_to_first(cmd, name):
    base = max(progs() or [0])
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = None
    while time.monotonic() - t0 < 30 and p.poll() is None:
        if any(i > base and q.get("name") == name and q.get("run_cnt", 0) > 0
               for i, q in progs().items()):
            t = time.monotonic() - t0
            break
    p.send_signal(signal.SIGINT)
    p.wait()
    if t is None:
        sys.exit(f"{cmd[0]}: no event seen")
    return t

def run(cmd):
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode:
        sys.exit(f"{cmd[0]}: exit {r.returncode}")
    return time.monotonic() - t0

ping = subprocess.Popen([sys.executable, "-c",
                         "import os, time\nwhile True:\n os.getppid(); time.sleep(0.0002)"])
try:
    res = {}
    for what, cmds in (("time to first event", first), ("whole run", whole)):
        print(f"== {what}, {n} runs each")
        for name, cmd in cmds.items():
            if cmds is first:
                ts = sorted(time_to_first(cmd, names[name]) for _ in range(n))
            else:
                ts = sorted(run(cmd) for _ in range(n))
            res[(what, name)] = ts[len(ts) // 2]
            print(f"  {name:9s} median {ts[len(ts) // 2] * 1000:7.1f} ms   min {ts[0] * 1000:7.1f} ms")
        print(f"  ratio bpftrace / ptk agg (medians): "
              f"{res[(what, 'bpftrace')] / res[(what, 'ptk agg')]:.1f}x")
finally:
    ping.kill()
    ping.wait()
PY
