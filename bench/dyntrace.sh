#!/usr/bin/env bash
# Dynamic tracing: `ptk agg` (one precompiled BPF program, configured at load time) against
# bpftrace (parses, compiles with LLVM, loads) on the same uprobe one-liner:
#   ptk agg uprobe:W:work --by comm
#   bpftrace -e 'uprobe:W:work { @[comm] = count(); }'
# where W is a small program calling work() (bench/dyntrace.sh builds it).
# - start-up: from spawning the tool to its program having run once (a program held by the
#   tool's process, per /proc/PID/fdinfo, with run_cnt > 0 in `bpftool prog show`;
#   kernel.bpf_stats_enabled is set to 1 for the run and restored after; polled every 0.5 ms
#   through the program's fdinfo, not bpftool, whose own run took milliseconds), with
#   W calling work() every 0.1 ms;
# - peak RSS: the tool's ru_maxrss (wait4) over that run;
# - per-event cost: W makes CALLS calls of work() as fast as it can, untraced, then under
#   each tool, in N rounds (ptk, bpftrace, ptk...: a busy machine hurts both alike); the added
#   wall time per call (the uprobe's trap, which dominates and is the kernel's, the program,
#   the map update), and the program's own run_time_ns / run_cnt from bpf_stats.
# Prints medians, mins and the ratios bpftrace / ptk (of the medians and of the mins: on a
# busy machine the mins are the tools' own cost).
# - the floor: bench/uprobe_floor.c (raw syscalls, a 2-instruction program) on the same
#   uprobe, the start-up no tool can beat; each tool's time above it is its own.
# usage: bench/dyntrace.sh [N [CALLS]]   (root; PTK=path to ptk, default build/ptk)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
N=${1:-7}
CALLS=${2:-20000}
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (BPF)" >&2; exit 1; }
for t in bpftrace bpftool cc; do
	command -v $t >/dev/null || { echo "$t not installed" >&2; exit 1; }
done
TMP=$(mktemp -d)
old=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -q -w kernel.bpf_stats_enabled=$old; rm -rf "$TMP"' EXIT
sysctl -q -w kernel.bpf_stats_enabled=1
cat >"$TMP/w.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
/* w tick: work() every 0.1 ms forever; w N: N calls of work(), then the wall ns they took */
__attribute__((noinline)) long work(long i) { __asm__ volatile("" ::: "memory"); return i * 7; }
int main(int argc, char **argv)
{
	long n = atol(argv[1]), s = 0;
	struct timespec a, b;
	if (n <= 0)
		for (long i = 0;; i++, usleep(100))
			s += work(i);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		s += work(i);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%ld\n", (b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec + (s == -1));
	return 0;
}
EOF
cc -O1 -o "$TMP/w" "$TMP/w.c" || exit 1
cc -O1 -o "$TMP/floor" bench/uprobe_floor.c || exit 1
# work()'s file offset: its address less its segment's vaddr, plus the segment's offset
WORK_OFF=
a=$((16#$(nm "$TMP/w" | awk '$3 == "work" { print $1 }')))
while read -r _ off va _ _ sz _; do
	[ $((va)) -le $a ] && [ $a -lt $((va + sz)) ] && WORK_OFF=$(printf '0x%x' $((a - va + off)))
done < <(readelf -lW "$TMP/w" | grep -E '^ +LOAD .* R E ')
[ -n "$WORK_OFF" ] || { echo "no offset of work() in $TMP/w" >&2; exit 1; }
UPROBE_TYPE=$(cat /sys/bus/event_source/devices/uprobe/type)

python3 - "$N" "$PTK" "$TMP/w" "$CALLS" "$TMP/floor" "$WORK_OFF" "$UPROBE_TYPE" <<'PY'
import json, os, signal, subprocess, sys, time
n, ptk, w, calls = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
floor = [sys.argv[5], w, sys.argv[6], sys.argv[7]]
tools = {"ptk agg": [ptk, "agg", f"uprobe:{w}:work", "--by", "comm"],
         "bpftrace": ["bpftrace", "-e", f"uprobe:{w}:work {{ @[comm] = count(); }}"]}

def progs():
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True).stdout
    return {p["id"]: p for p in json.loads(out or "[]")}

def held(pid):
    ids = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fdinfo"):
            try:
                for line in open(f"/proc/{pid}/fdinfo/{fd}"):
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
            except OSError:
                pass
    except OSError:
        pass
    return ids

# run_cnt and type of a program by id, through an fd of our own (BPF_PROG_GET_FD_BY_ID) and
# its /proc/self/fdinfo: microseconds a poll, where `bpftool prog show` takes milliseconds
# and so delayed the first-event time of the faster tool most
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
prog_fds = {}
def prog_stat(pid_id):
    fd = prog_fds.get(pid_id)
    if fd is None:
        attr = (ctypes.c_uint32 * 32)()
        attr[0] = pid_id  # union bpf_attr: prog_id first
        fd = libc.syscall(321, 13, ctypes.byref(attr), ctypes.sizeof(attr))  # bpf(BPF_PROG_GET_FD_BY_ID)
        if fd < 0:
            return None
        prog_fds[pid_id] = fd
    st = {}
    for line in open(f"/proc/self/fdinfo/{fd}"):
        k, _, v = line.partition(":")
        st[k] = v.strip()
    return st

def close_progs():
    for fd in prog_fds.values():
        os.close(fd)
    prog_fds.clear()

def stop(p):
    p.send_signal(signal.SIGINT)
    try:
        _, status, ru = os.wait4(p.pid, 0)
    except ChildProcessError:
        return None
    p.returncode = status
    return ru

def start_run(cmd):
    """time to the first event (s) and peak RSS (KiB)"""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = None
    while time.monotonic() - t0 < 30 and p.poll() is None:
        # a uprobe's program is of type kprobe (2; not a feature probe bpftrace test-runs)
        sts = [prog_stat(i) for i in held(p.pid)]
        if any(q and q.get("prog_type") == "2" and int(q.get("run_cnt", "0")) > 0 for q in sts):
            t = time.monotonic() - t0
            break
        time.sleep(0.0005)
    ru = stop(p)
    close_progs()
    if t is None or ru is None:
        sys.exit(f"{cmd[0]}: no event seen")
    return t, ru.ru_maxrss

def attached(p):
    """wait until the tool's program has run (W ticking), then give its last probes time"""
    t0 = time.monotonic()
    while time.monotonic() - t0 < 30 and p.poll() is None:
        ids = held(p.pid)
        if ids and any(q.get("run_cnt", 0) > 0 for i, q in progs().items() if i in ids):
            return ids
        time.sleep(0.01)
    sys.exit("tool never attached")

def workload():
    return int(subprocess.run([w, str(calls)], capture_output=True, text=True).stdout)

tick = subprocess.Popen([w, "0"])
res = {}
try:
    print(f"== start-up to the first event and peak RSS, {n} runs each (uprobe one-liner)")
    for name, cmd in tools.items():
        rs = [start_run(cmd) for _ in range(n)]
        ts = sorted(r[0] for r in rs)
        ms = sorted(r[1] for r in rs)
        res[("t", name)], res[("m", name)] = ts[len(ts) // 2], ms[len(ms) // 2]
        res[("tmin", name)], res[("mmin", name)] = ts[0], ms[0]
        print(f"  {name:9s} first event: median {ts[len(ts) // 2] * 1000:7.1f} ms  min {ts[0] * 1000:7.1f} ms"
              f"   peak RSS: median {ms[len(ms) // 2] / 1024:6.1f} MiB  max {ms[-1] / 1024:6.1f} MiB")
    print(f"  ratio bpftrace / ptk agg: start-up {res[('t', 'bpftrace')] / res[('t', 'ptk agg')]:.1f}x"
          f" (goal >= 5x), peak RSS {res[('m', 'bpftrace')] / res[('m', 'ptk agg')]:.1f}x (goal >= 4x);"
          f" of the mins: start-up {res[('tmin', 'bpftrace')] / res[('tmin', 'ptk agg')]:.1f}x")
    fl = sorted(start_run(floor)[0] for _ in range(n))
    f50, fmin = fl[len(fl) // 2], fl[0]
    print(f"  floor     first event: median {f50 * 1000:7.1f} ms  min {fmin * 1000:7.1f} ms"
          "   (exec, a 2-instruction program, the kernel's uprobe creation)")
    print(f"  above the floor: ptk agg {(res[('t', 'ptk agg')] - f50) * 1000:.1f} ms, bpftrace"
          f" {(res[('t', 'bpftrace')] - f50) * 1000:.1f} ms (medians): ratio"
          f" {(res[('t', 'bpftrace')] - f50) / max(res[('t', 'ptk agg')] - f50, 1e-4):.1f}x;"
          f" a tool at the floor would be {res[('t', 'bpftrace')] / f50:.1f}x")
finally:
    tick.kill()
    tick.wait()

print(f"\n== per-event cost: {calls} calls of work(), {n} rounds (untraced, then under each tool)")
ev = {name: [] for name in tools}
pr = {name: [] for name in tools}
base = []
for _ in range(n):
    base.append(workload() / calls)
    for name, cmd in tools.items():
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tick = subprocess.Popen([w, "0"])
        ids = attached(p)
        tick.kill()
        tick.wait()
        time.sleep(0.5)
        cur = progs()
        before = {i: cur[i] for i in ids if i in cur}
        t = workload() / calls
        after = progs()
        cnt = sum(after[i]["run_cnt"] - before[i].get("run_cnt", 0) for i in before if i in after)
        rt = sum(after[i]["run_time_ns"] - before[i].get("run_time_ns", 0) for i in before if i in after)
        stop(p)
        if cnt != calls:
            print(f"  {name}: {cnt} runs for {calls} calls")
        ev[name].append(t)
        pr[name].append(rt / max(cnt, 1))
med = lambda v: sorted(v)[len(v) // 2]
b = med(base)
print(f"  untraced  {b:9.1f} ns per call")
for name in tools:
    res[("e", name)], res[("p", name)] = med(ev[name]) - b, med(pr[name])
    print(f"  {name:9s} +{med(ev[name]) - b:9.1f} ns per call (wall, median; min +{min(ev[name]) - b:.1f})"
          f"   program {med(pr[name]):6.1f} ns per run (median; min {min(pr[name]):.1f})")
print(f"  ratio bpftrace / ptk agg: per call {res[('e', 'bpftrace')] / res[('e', 'ptk agg')]:.2f}x,"
      f" program {res[('p', 'bpftrace')] / res[('p', 'ptk agg')]:.2f}x (goal >= 1); of the mins:"
      f" per call {(min(ev['bpftrace']) - b) / (min(ev['ptk agg']) - b):.2f}x,"
      f" program {min(pr['bpftrace']) / min(pr['ptk agg']):.2f}x")
PY
