#!/usr/bin/env bash
# ptk agg's probe kinds beyond tracepoints: uprobes, uretprobes, USDT (our own note and
# python's, whose probes fire only while their semaphore is counted), patterns, ustack,
# syscall names, min/max/avg/stats, entry->return latency. A workload makes known calls;
# ptk agg and bpftrace count them over the same window (both proven attached first), and
# the counts are also checked against what the workload did. Kernel functions: on a kernel
# that refuses trampolines and has no kprobes, one line and exit 1. SIGINT, SIGTERM,
# SIGKILL and the target's exit leave no program, link or breakpoint behind (the probed
# instruction of a live target is read back from its memory).
. "$(dirname "$0")/lib.sh"
is_root || { skip "agg needs root (BPF, uprobes)"; exit 0; }
have bpftool || { skip "bpftool missing: cannot check attach/detach"; exit 0; }
have python3 || { skip "python3 missing"; exit 0; }
[ -r /usr/include/x86_64-linux-gnu/sys/sdt.h ] || [ -r /usr/include/sys/sdt.h ] ||
	{ skip "sys/sdt.h missing (systemtap-sdt-dev): no USDT workload"; exit 0; }

cat > "$TMP/w.c" <<'EOF'
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/syscall.h>
#include <unistd.h>
/* w N [WAIT_MS [LINGER_MS]]: N calls of work(i, name, i % 7) (a USDT tick inside), of
 * rec(i % 4) and of getppid(); "w spin": work() forever as "wspin" (a target to probe
 * while alive, whose calls prove the tracers attached; the counts are of comm "w").
 * The names are touched first: a BPF string read cannot fault a page in. */
static const char *names[] = { "alpha", "beta", "gamma" };
__attribute__((noinline)) long work(long a, const char *s, int n)
{
	volatile long x = 0;
	for (int i = 0; i < n * 10; i++)
		x += i;
	DTRACE_PROBE3(ptkw, tick, a, s, n);
	return a * 2 + (long)strlen(s);
}
__attribute__((noinline)) int rec(int d) { return d ? rec(d - 1) + 1 : 0; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, s = 0;
	volatile size_t t = strlen(names[0]) + strlen(names[1]) + strlen(names[2]);
	if (argc > 1 && !strcmp(argv[1], "spin"))
		for (prctl(PR_SET_NAME, "wspin");;) {
			s += work(1, names[0], 1);
			usleep(1000);
		}
	if (argc > 2)
		usleep(atoi(argv[2]) * 1000);
	for (long i = 0; i < n; i++) {
		s += work(i, names[i % 3], (int)(i % 7));
		s += rec(i % 4);
		syscall(SYS_getppid);
	}
	if (argc > 3)
		usleep(atoi(argv[3]) * 1000);
	return (int)(s + t) == -1;
}
EOF
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/w" "$TMP/w.c" || { not_ok "build the workload"; exit 0; }
W=$TMP/w
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"; }
trap cleanup EXIT
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# programs of ptk's (agg_*) loaded now
aggprogs() { bpftool prog show 2>/dev/null | grep -c -E 'name agg_[abkf]'; }
# wait until a program named $1 (regex) has run, up to 20 s
ran() {
	for _ in $(seq 200); do
		bpftool prog show 2>/dev/null | awk -v n="$1" '$0 ~ "name (" n ")" { f = 1 }
			f && /run_cnt/ { for (i = 1; i <= NF; i++) if ($i == "run_cnt" && $(i+1) > 0) ok = 1 }
			END { exit !ok }' && return 0
		sleep 0.1
	done
	return 1
}
ran_by() { # pid: until a program that process holds has run (the uprobe's breakpoint is
	# there before its program is attached, and another run's program may still be going)
	local id
	for _ in $(seq 200); do
		for id in $(bpf_prog_ids_of "$1"); do
			bpftool prog show id "$id" 2>/dev/null | grep -q "run_cnt [1-9]" && return 0
		done
		sleep 0.1
	done
	return 1
}
stop_all() { # SIGINT each, then again while bpftrace has not installed its handler
	kill -INT "$@" 2>/dev/null
	for _ in $(seq 20); do
		local alive=0
		for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ $alive = 0 ] && break
		sleep 0.5
		kill -INT "$@" 2>/dev/null
	done
	wait "$@" 2>/dev/null
}
N=3000
if ! have bpftrace; then skip "bpftrace not installed: no side-by-side"; fi

# ---- counts, string keys, histograms, stats, retvals: ptk agg next to bpftrace ----
if have bpftrace; then
	"$PTK" agg "uprobe:$W:work" -c w --by 'str(arg1)' --json > "$TMP/s.json" 2>"$TMP/s.err" & A1=$!
	"$PTK" agg "uprobe:$W:work" -c w --hist arg2 --json > "$TMP/h.json" 2>"$TMP/h.err" & A2=$!
	"$PTK" agg "uprobe:$W:work" -c w --stats arg0 --json > "$TMP/st.json" 2>"$TMP/st.err" & A3=$!
	"$PTK" agg "uretprobe:$W:rec" -c w --by retval --json > "$TMP/r.json" 2>"$TMP/r.err" & A4=$!
	"$PTK" agg "usdt:$W:ptkw:tick" -c w --by 'str(arg1)' --sum arg2 --json > "$TMP/u.json" \
		2>"$TMP/u.err" & A5=$!
	timeout -k 5 120 bpftrace -e "uprobe:$W:work /comm == \"w\"/ { @s[str(arg1)] = count(); @h = hist(arg2);
		@c = count(); @sum = sum(arg0); @mn = min(arg0); @mx = max(arg0); }
		uretprobe:$W:rec /comm == \"w\"/ { @r[retval] = count(); }
		usdt:$W:ptkw:tick /comm == \"w\"/ { @u[str(arg1)] = sum(arg2); }" > "$TMP/bt.txt" \
		2>"$TMP/bt.err" & BT=$!
	PIDS+=($A1 $A2 $A3 $A4 $A5 $BT)
	# each tracer holds all its probes before the workload runs (a busy machine delayed
	# bpftrace's usdt and ptk's fifth agg past the first run's start: half the ticks lost)
	for p in $A1 $A2 $A3 $A4 $A5 "$(child_of $BT)"; do
		bpf_attached "$p" || note "tracer $p not seen attached"
	done
	"$W" spin & SP=$!; PIDS+=($SP)
	ran "agg_k" || note "ptk not seen running: $(head -c 200 "$TMP/s.err")"
	ran "work" || note "bpftrace not seen running: $(head -c 200 "$TMP/bt.err")"
	kill $SP; wait $SP 2>/dev/null
	"$W" $N; sleep 0.3
	stop_all $A1 $A2 $A3 $A4 $A5 $BT
	python3 - "$TMP" $N > "$TMP/cmp.txt" <<'EOF'
import json, re, sys
t, n = sys.argv[1], int(sys.argv[2])
bt = open(t + "/bt.txt").read()
def bmap(name):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^@%s\[(.*)\]: (-?\d+)" % name, bt, re.M)}
def bval(name):
    m = re.search(r"^@%s: (-?\d+)" % name, bt, re.M)
    return int(m.group(1)) if m else None
fail = []
s = {r["str(arg1)"]: r["count"] for r in json.load(open(t + "/s.json"))["rows"]}
bs = bmap("s")
want = {"alpha": n // 3, "beta": n // 3, "gamma": n // 3}
for k, v in want.items():
    print(f"str(arg1)={k}: ptk {s.get(k)} bpftrace {bs.get(k)} workload {v}")
    if s.get(k, 0) != v or s.get(k, 0) != bs.get(k, 0): fail.append("str " + k)
# hist of arg2 (0..6): log2 buckets; bpftrace [0] [1] [2,4) [4,8)
h = json.load(open(t + "/h.json"))["histograms"][0]["hist"]["buckets"]
ours = {b["low"]: b["count"] for b in h}
bh = {}
inh = False
for line in bt.splitlines():
    if line.startswith("@h:"): inh = True; continue
    if inh:
        m = re.match(r"^\[(\d+)(?:, (\d+)\))?\]?\s+(\d+)", line)
        if not m:
            if line.startswith("@"): inh = False
            continue
        lo = int(m.group(1)); lo = 0 if lo < 2 else lo
        bh[lo] = bh.get(lo, 0) + int(m.group(3))
print("hist arg2 (low:ptk/bpftrace):", " ".join(f"{k}:{ours.get(k,0)}/{bh.get(k,0)}" for k in sorted(set(ours) | set(bh))))
if any(ours.get(k, 0) != bh.get(k, 0) for k in set(ours) | set(bh)): fail.append("hist")
st = json.load(open(t + "/st.json"))["rows"][0]
print(f"stats arg0: ptk count {st['count']} sum {st['sum']} min {st['min']} max {st['max']}; "
      f"bpftrace count {bval('c')} sum {bval('sum')} min {bval('mn')} max {bval('mx')}")
if (st["count"], st["sum"], st["min"], st["max"]) != (bval("c"), bval("sum"), bval("mn"), bval("mx")) or st["count"] != n: fail.append("stats")
r = {str(x["retval"]): x["count"] for x in json.load(open(t + "/r.json"))["rows"]}
br = bmap("r")
print("retval of rec:", r, "bpftrace", br)
# each i calls rec(i % 4): depth d returns d, d-1 ... 0
exp = {str(d): sum(1 for i in range(n) if i % 4 >= d) for d in range(4)}
if r != exp or r != br: fail.append("retval")
u = {x["str(arg1)"]: x["sum"] for x in json.load(open(t + "/u.json"))["rows"]}
bu = bmap("u")
print("usdt tick sum(arg2) by name: ptk", u, "bpftrace", bu)
if u != bu or not u: fail.append("usdt")
print("FAIL " + ",".join(fail) if fail else "ALL OK")
EOF
	while read -r l; do note "$l"; done < "$TMP/cmp.txt"
	for what in "str " hist stats retval usdt; do
		check "uprobe/uretprobe/usdt: $what as bpftrace counts it" \
			bash -c "! grep -q 'FAIL.*${what% }' '$TMP/cmp.txt' && grep -q 'ALL OK\|FAIL' '$TMP/cmp.txt'"
	done
fi

# ---- latency from an entry to its return, per thread and frame: every call paired ----
"$PTK" agg --latency "uprobe:$W:rec" --by @tid --json > "$TMP/lat.json" 2>"$TMP/lat.err" & A=$!
PIDS+=($A)
"$W" spin & SP=$!; PIDS+=($SP)
sleep 0.3; ran agg_k || note "latency probes not seen: $(head -c 200 "$TMP/lat.err")"
kill $SP; wait $SP 2>/dev/null
"$W" $N & WP=$!; wait $WP; sleep 0.3
kill -INT $A; wait $A
tot=$(jq_py "$TMP/lat.json" "sum(h['hist']['total'] for h in d['histograms'] if h['tid'] == $WP)" 2>/dev/null)
calls=$(( (N / 4) * (1 + 2 + 3 + 4) ))
note "--latency uprobe:rec: $tot latencies of the workload's thread; it made $calls calls (recursive)"
check "--latency: every call of a recursive function paired with its own return" test "${tot:-0}" = $calls

# ---- USDT with a semaphore: python's gc__start fires only while a tracer counts it ----
PY=$(readlink -f /usr/bin/python3 2>/dev/null)
if [ -n "$PY" ] && readelf -n "$PY" 2>/dev/null | grep -A3 'Name: gc__start' | grep -q 'Semaphore: 0x0*[1-9a-f]'; then
	cat > "$TMP/gc.py" <<'EOF'
import gc, sys, time
time.sleep(float(sys.argv[2]))
for _ in range(int(sys.argv[1])):
    gc.collect()
EOF
	"$PY" "$TMP/gc.py" 0 0 # the first run loads its pages
	"$PTK" agg "usdt:$PY:python:gc__start" --by arg0 --filter 'comm == python3.11' \
		--json > "$TMP/py.json" 2>"$TMP/py.err" & A=$!
	PIDS+=($A)
	BT=
	if have bpftrace; then
		timeout -k 5 120 bpftrace -e "usdt:$PY:python:gc__start /comm == \"python3.11\"/ { @g[arg0] = count(); }" \
			> "$TMP/pybt.txt" 2>&1 & BT=$!
		PIDS+=($BT)
	fi
	sleep 2
	"$PY" "$TMP/gc.py" 77 0.3
	sleep 0.3
	stop_all $A $BT
	g2=$(jq_py "$TMP/py.json" "sum(r['count'] for r in d['rows'] if r['arg0'] == 2)" 2>/dev/null)
	b2=$(sed -n 's/^@g\[2\]: //p' "$TMP/pybt.txt" 2>/dev/null)
	note "usdt python:gc__start (semaphore-gated), generation 2: ptk ${g2:-none}, bpftrace ${b2:-none}; 77 gc.collect() calls (and the interpreter's own at exit)"
	check "usdt with a semaphore: each gc.collect() seen (77, and a few at exit)" \
		test "${g2:-0}" -ge 77 -a "${g2:-0}" -le 85
	[ -n "$BT" ] && check "usdt gc__start: ptk agg and bpftrace count the same" test "${g2:-0}" = "${b2:-x}"
else
	skip "no python with a semaphore-gated gc__start USDT probe"
fi

# ---- patterns: every match attached, counted by probe ----
"$PTK" agg "uprobe:$W:*" -c w --by probe --json > "$TMP/pat.json" 2>"$TMP/pat.err" & A=$!
PIDS+=($A)
"$W" spin & SP=$!; PIDS+=($SP); sleep 0.5; ran agg_k >/dev/null; kill $SP; wait $SP 2>/dev/null
"$W" 400; sleep 0.3; kill -INT $A; wait $A
nfun=$(nm "$W" | awk '$2 ~ /^[Tt]$/' | awk '{print $1}' | sort -u | wc -l)
res=$(jq_py "$TMP/pat.json" "d.get('probes_attached'), {r['probe']: r['count'] for r in d['rows'] if r['probe'] in ('work','rec')}" 2>&1)
note "uprobe:w:* : attached, counts: $res (functions in the file: $nfun)"
check_all "a pattern attaches every function and counts each by name" \
	'[ "$res" = "$nfun {'"'"'work'"'"': 400, '"'"'rec'"'"': 1000}" ] || [ "$res" = "$nfun {'"'"'rec'"'"': 1000, '"'"'work'"'"': 400}" ]'

# ---- keys: a user stack symbolized, a syscall by name ----
"$PTK" agg "uprobe:$W:work" --by ustack --json > "$TMP/us.json" 2>"$TMP/us.err" & A=$!
PIDS+=($A); bpf_attached $A || note "ptk agg not seen attached: $(head -c 200 "$TMP/us.err")"
# stopped once the workload sleeps after its 50 calls (sleeping 0.3 s in a row), while it
# lives on for the stacks to be symbolized (a fixed 0.8 s came before the calls under load)
"$W" 50 0 3000 & WP=$!
sl=0
for _ in $(seq 200); do
	case $(awk '{ print $3 }' /proc/$WP/stat 2>/dev/null) in S) sl=$((sl + 1)) ;; *) sl=0 ;; esac
	[ $sl -ge 3 ] && break
	sleep 0.1
done
kill -INT $A; wait $A; wait $WP
st=$(jq_py "$TMP/us.json" "d['rows'][0]['ustack'] if d['rows'] else ''" 2>/dev/null)
note "--by ustack: $st"
check "ustack: frame pointers walked and symbolized (main -> work)" \
	bash -c "[[ '$st' == *'main+0x'*';work+0x0 ['* ]]"
"$PTK" agg raw_syscalls:sys_enter --by syscall --filter "comm == w" --json > "$TMP/sc.json" 2>"$TMP/sc.err" & A=$!
PIDS+=($A); sleep 1
"$W" $N; sleep 0.3; kill -INT $A; wait $A
g=$(jq_py "$TMP/sc.json" "sum(r['count'] for r in d['rows'] if r['syscall'] == 'getppid')" 2>/dev/null)
note "--by syscall: getppid ${g:-none} (the workload made $N)"
check "syscall key: named (getppid), counted exactly" test "${g:-0}" = $N
"$PTK" agg "uprobe:$W:work" --by syscall 0.2 1 > "$TMP/sc2.txt" 2>&1
check "syscall key on a uprobe: the task's current syscall (none: [none] rows or none)" \
	grep -q '^syscall' "$TMP/sc2.txt"

# ---- kernel functions: fentry where trampolines load, else kprobes, else one line ----
"$PTK" agg fentry:vfs_read 0.3 1 > "$TMP/k.out" 2>"$TMP/k.err"; rc=$?
if [ $rc -eq 0 ]; then
	check "fentry:vfs_read counts" grep -q COUNT "$TMP/k.out"
else
	note "fentry:vfs_read -> exit $rc: $(head -1 "$TMP/k.err")"
	check "fentry refused: exit 1 with one line saying why" \
		test $rc -eq 1 -a "$(wc -l < "$TMP/k.err")" -eq 1 -a ! -s "$TMP/k.out"
	"$PTK" agg kprobe:vfs_read 0.3 1 > "$TMP/k.out" 2>"$TMP/k.err"; rc=$?
	note "kprobe:vfs_read -> exit $rc: $(head -1 "$TMP/k.err")"
	if [ $rc -ne 0 ]; then
		check "kprobe: with neither kprobes nor trampolines: exit 1, one line" \
			test $rc -eq 1 -a "$(wc -l < "$TMP/k.err")" -eq 1
		skip "kernel functions: $(head -1 "$TMP/k.err" | sed 's/^ptk agg: //')"
	fi
fi

# ---- bad input: usage errors, one line ----
for args in "uprobe:$W:nosuch" "uprobe:/nonexistent:f" "uretprobe:$W:work --by arg0x" \
	"uprobe:$W:work --by retval" "usdt:$W:ptkw:nosuch" "uprobe:$W:work --sum 'str(arg1)'"; do
	eval "\"\$PTK\" agg $args 0.1 1" > "$TMP/e.out" 2>"$TMP/e.err"; rc=$?
	note "ptk agg $args -> exit $rc: $(head -1 "$TMP/e.err")"
	check "ptk agg $args: usage error (2), one line" \
		test $rc -eq 2 -a "$(wc -l < "$TMP/e.err")" -le 2 -a ! -s "$TMP/e.out"
done

# ---- nothing left behind: programs, links, and the breakpoint in a live target ----
# the byte at work() in the target's memory: int3 (0xcc) while probed, its own after
probe_byte() { # pid -> the first byte of work() in its memory, in hex
	python3 - "$1" "$W" <<'EOF'
import subprocess, sys
pid, exe = sys.argv[1], sys.argv[2]
sym = [l.split() for l in subprocess.run(["nm", exe], capture_output=True, text=True).stdout.splitlines()]
vaddr = next(int(s[0], 16) for s in sym if len(s) == 3 and s[2] == "work")
base = None
for l in open(f"/proc/{pid}/maps"):
    f = l.split()
    if len(f) >= 6 and f[5] == exe and int(f[2], 16) == 0:
        base = int(f[0].split("-")[0], 16); break
with open(f"/proc/{pid}/mem", "rb") as m:
    m.seek(base + vaddr)
    print(m.read(1).hex())
EOF
}
"$W" spin & TG=$!; PIDS+=($TG); sleep 0.3
orig=$(probe_byte $TG)
for sig in INT TERM KILL; do
	"$PTK" agg "uprobe:$W:work" --by comm > /dev/null 2>&1 & A=$!
	ran_by $A || true
	ids=$(bpf_prog_ids_of $A | tr '\n' ' '); inb=$(probe_byte $TG)
	kill -$sig $A; wait $A 2>/dev/null
	sleep 0.3
	outb=$(probe_byte $TG)
	gone=no; [ -n "$ids" ] && bpf_progs_gone $ids && gone=yes
	note "SIG$sig: programs [$ids] gone: $gone; work()'s byte $orig -> $inb while probed -> $outb"
	check_all "SIG$sig: no program left, the breakpoint gone (target alive)" \
		'[ $gone = yes ] && [ "$inb" = cc ] && [ "$outb" = "$orig" ] && kill -0 $TG'
done
# a signal while loading: the uprobe's perf event is opened in a thread as the programs
# load, so at these times it exists with no program attached yet
left=""
for d in 0.002 0.005 0.008 0.012 0.02; do
	for sig in INT KILL; do
		"$PTK" agg "uprobe:$W:work" --by comm > /dev/null 2>&1 & A=$!
		# a background job starts with SIGINT ignored: send it once ptk catches it (its
		# handlers come just before the probes are made), polled every millisecond
		[ $sig = INT ] && wait_caught INT $A 0.001
		sleep $d; kill -$sig $A; wait $A 2>/dev/null
		sleep 0.2
		b=$(probe_byte $TG); [ "$b" = "$orig" ] || left="$left $sig@${d}s:$b"
	done
done
note "signals 2-20 ms into the start-up (SIGINT: after its handler): work()'s byte after each: ${left:-all $orig}"
check_all "a signal while the probe is being made and the programs load leaves no breakpoint" \
	'[ -z "$left" ] && kill -0 $TG'
# the target exits while probed: ptk goes on, nothing is left in the next process
"$PTK" agg "uprobe:$W:work" --by comm --json > "$TMP/x.json" 2>/dev/null & A=$!
ran_by $A || true; ids=$(bpf_prog_ids_of $A | tr '\n' ' ')
kill $TG; wait $TG 2>/dev/null
"$W" spin & TG2=$!; PIDS+=($TG2); sleep 0.5
kill -INT $A; wait $A; rc=$?; sleep 0.3
gone=no; [ -n "$ids" ] && bpf_progs_gone $ids && gone=yes
note "target exited while probed: ptk exit $rc, programs gone: $gone; a new target's byte $(probe_byte $TG2)"
check_all "the target's exit: ptk reports and exits 0, nothing left in a new process" \
	'[ $rc -eq 0 ] && [ "$(probe_byte $TG2)" = "$orig" ] && [ $gone = yes ]'
kill $TG2
