#!/usr/bin/env bash
# ptk agg: the generic tracepoint aggregator. A workload makes exactly N getppid() and N
# write() calls; ptk agg and bpftrace count/histogram them concurrently over the same window
# (both proven attached first); --from/--to wakeup->switch latency rises under a pinned CPU
# hog; the required examples run; bad tracepoints/fields are usage errors; SIGINT/SIGTERM
# leave nothing attached and tracefs unmounted when ptk mounted it.
. "$(dirname "$0")/lib.sh"
is_root || { skip "agg needs root (BPF, tracefs)"; exit 0; }
have bpftool || { skip "bpftool missing: cannot check attach/detach"; exit 0; }

cat > "$TMP/aggwork.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
/* aggwork ping|work|sleep N [COMM]: N getppid()+write(1 + i*37 % 5000 bytes) calls, or N
 * 1 ms sleeps, or getppid() every 10 ms forever (to prove tracers attached). */
int main(int argc, char **argv)
{
	static char buf[8192];
	long n = argc > 2 ? atol(argv[2]) : 0;
	struct timespec ts = { 0, 1000000 };
	int fd = open("/dev/null", O_WRONLY);

	prctl(PR_SET_NAME, argc > 3 ? argv[3] : "aggwork");
	if (argc < 2 || fd < 0)
		return 2;
	if (!strcmp(argv[1], "ping"))
		for (;;) {
			syscall(SYS_getppid);
			usleep(10000);
		}
	for (long i = 0; i < n; i++) {
		if (!strcmp(argv[1], "sleep")) {
			nanosleep(&ts, NULL);
			continue;
		}
		syscall(SYS_getppid);
		if (write(fd, buf, 1 + (i * 37) % 5000) < 0)
			return 1;
	}
	return 0;
}
EOF
cc -O1 -o "$TMP/aggwork" "$TMP/aggwork.c" || { not_ok "build the workload"; exit 0; }
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"; }
trap cleanup EXIT
# the programs held by the given processes and their children (a tool under timeout is its
# child): only this test's, when another copy of the suite traces meanwhile
ids_of() { { for p in "$@" $(pgrep -P "$(echo "$@" | tr ' ' ',')"); do bpf_prog_ids_of "$p"; done; } | sort -un; }
# "N MIN": how many programs of processes PID... have a name matching $1, the least run count
runcnt() { local n=$1 id; shift
	for id in $(ids_of "$@"); do bpftool prog show id "$id" 2>/dev/null; done | awk -v n="$n" '$0 ~ "name (" n ") " { c = 0
	for (i = 1; i <= NF; i++) if ($i == "run_cnt") c = $(i + 1)
	k++; if (k == 1 || c < m) m = c } END { print k + 0, m + 0 }'; }
ready() { # ready REGEX N PID...: N programs of those processes matching REGEX have run
	local k m re=$1 want=$2
	shift 2
	for _ in $(seq 300); do
		read -r k m < <(runcnt "$re" "$@")
		[ "$k" -ge "$want" ] && [ "$m" -gt 0 ] && return 0
		sleep 0.1
	done
	return 1
}
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# ---- the required examples ----
"$PTK" agg sched:sched_switch --by prev_comm 1 1 > "$TMP/sw.txt" 2>"$TMP/sw.err"; rc=$?
rows=$(awk 'NR > 1 && NF >= 2' "$TMP/sw.txt" | wc -l)
note "sched:sched_switch --by prev_comm: exit $rc, $rows rows; top: $(sed -n 2p "$TMP/sw.txt")"
check "sched:sched_switch --by prev_comm: exit 0, header 'prev_comm COUNT', rows" \
	test $rc -eq 0 -a "$rows" -gt 0 -a "$(head -1 "$TMP/sw.txt" | tr -s ' ')" = "prev_comm COUNT"

dd if=/dev/zero of="$TMP/dd.dat" bs=64k count=400 oflag=direct 2>/dev/null # warm the file
( sleep 1; dd if=/dev/zero of="$TMP/dd.dat" bs=64k count=400 oflag=direct conv=notrunc 2>/dev/null ) &
"$PTK" agg block:block_rq_complete --hist nr_sector --json 3 1 > "$TMP/blk.json" 2>"$TMP/blk.err"; rc=$?
wait
if [ $rc -eq 0 ] && [ -s "$TMP/blk.json" ]; then
	tot=$(jq_py "$TMP/blk.json" "sum(h['hist']['total'] for h in d['histograms'])")
	b128=$(jq_py "$TMP/blk.json" "sum(b['count'] for h in d['histograms'] for b in h['hist']['buckets'] if b['low']==128)")
	note "block_rq_complete --hist nr_sector: $tot requests, $b128 in 128..255 sectors (400 direct 64 KiB writes = 128 sectors each)"
	check "block:block_rq_complete --hist nr_sector: requests counted, 64 KiB writes in the 128 bucket" \
		test "$tot" -gt 0 -a "$b128" -gt 0
else
	not_ok "block:block_rq_complete --hist nr_sector: exit $rc: $(head -1 "$TMP/blk.err")"
fi

# kernel stacks as keys, symbolized through kallsyms: every switch stack passes __schedule
"$PTK" agg sched:sched_switch --by kstack,prev_comm --json 0.5 1 > "$TMP/ks.json" 2>/dev/null; rc=$?
# (a stack map is a hash without chaining: a stack whose bucket another took first is counted
# under "[no stack: File exists]", reported, not lost; those rows have no frames to check)
ks=$(jq_py "$TMP/ks.json" "sum(1 for x in d['rows'] if 'schedule' in x['kstack'])" 2>/dev/null)
kn=$(jq_py "$TMP/ks.json" "sum(1 for x in d['rows'] if not x['kstack'].startswith('[no stack'))" 2>/dev/null)
note "--by kstack,prev_comm: exit $rc, $kn rows, $ks with a *schedule* frame; first: $(jq_py "$TMP/ks.json" "d['rows'][0]['kstack'][-120:]" 2>/dev/null)"
check "--by kstack: symbolized stacks, (nearly) all through the scheduler" \
	test $rc -eq 0 -a "${kn:-0}" -gt 0 -a "${ks:-0}" -ge $(( ${kn:-0} * 9 / 10 ))

# ---- the two loaders (light skeleton; libbpf before 5.17) count the same calls ----
for l in 1 0; do
	PTK_BPF_LSKEL=$l "$PTK" agg syscalls:sys_enter_getppid --by comm --json > "$TMP/ld.json" 2>"$TMP/ld.err" & A=$!
	PIDS+=($A)
	"$TMP/aggwork" ping 0 aggping & PING=$!; PIDS+=($PING)
	ready "agg_a" 1 $A || note "PTK_BPF_LSKEL=$l: not seen running: $(head -c 200 "$TMP/ld.err")"
	kill $PING; wait $PING 2>/dev/null
	"$TMP/aggwork" work 3000 aggld & W=$!; wait $W
	sleep 0.2
	kill -INT $A; wait $A 2>/dev/null
	res=$(jq_py "$TMP/ld.json" "d['loader'], sum(x['count'] for x in d['rows'] if x['comm']=='aggld')" 2>&1)
	note "PTK_BPF_LSKEL=$l: loader, getppid calls of aggld: $res (it made 3000)"
	want="light skeleton"; [ $l = 0 ] && want=libbpf
	check "loader PTK_BPF_LSKEL=$l: $want, counts the 3000 calls exactly" test "$res" = "$want 3000"
done

# ---- counts and histogram side by side with bpftrace, same window ----
N=20000
if have bpftrace; then
	"$PTK" agg syscalls:sys_enter_getppid --by comm,pid > "$TMP/cnt.txt" 2>"$TMP/cnt.err" & A1=$!
	"$PTK" agg syscalls:sys_enter_write --hist count --filter comm==aggwork --json \
		> "$TMP/hist.json" 2>"$TMP/hist.err" & A2=$!
	timeout -k 5 300 bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @c[comm] = count(); }
		tracepoint:syscalls:sys_enter_write /comm == "aggwork"/ { @h = hist(args->count); }' \
		> "$TMP/bt.txt" 2>"$TMP/bt.err" & BT=$!
	PIDS+=($A1 $A2 $BT)
	"$TMP/aggwork" ping 0 aggping & PING=$!; PIDS+=($PING)
	# attached = all four programs have run (getppid ones on the pinger's calls)
	ready "agg_a|sys_enter_getpp|sys_enter_write" 4 $A1 $A2 $BT || note "tracers not seen running"
	kill $PING; wait $PING 2>/dev/null
	"$TMP/aggwork" work $N & W=$!; wait $W
	sleep 0.3
	# a background job starts with SIGINT ignored until the tool installs its handler, which
	# bpftrace may do only after its probes run: say it again while it is still there
	kill -INT $A1 $A2 $BT
	for _ in $(seq 20); do kill -0 $BT 2>/dev/null || break; sleep 0.5; kill -INT $BT 2>/dev/null; done
	wait $A1 $A2 $BT 2>/dev/null
	ours=$(awk '$1 == "aggwork" { s += $3 } END { print s + 0 }' "$TMP/cnt.txt")
	theirs=$(sed -n 's/^@c\[aggwork\]: \([0-9]*\)/\1/p' "$TMP/bt.txt")
	note "getppid by comm: workload made $N calls; ptk agg $ours, bpftrace ${theirs:-none}"
	check "getppid --by comm,pid: ptk agg equals bpftrace within 2% (and the workload's $N)" \
		near_rel "$ours" "${theirs:-0}" 0.02
	check "getppid: ptk agg counts the workload's $N calls within 2%" near_rel "$ours" $N 0.02
	# histograms: bpftrace [0],[1] are ptk's 0 -> 1 slot; [lo, hi) for lo >= 2 match by low
	python3 - "$TMP/hist.json" "$TMP/bt.txt" > "$TMP/cmp.txt" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
ours = {}
for h in d["histograms"]:
    for b in h["hist"]["buckets"]:
        ours[b["low"]] = ours.get(b["low"], 0) + b["count"]
mult = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
theirs, inh = {}, False
for line in open(sys.argv[2]):
    if line.startswith("@h"):
        inh = True
        continue
    if inh:
        m = re.match(r"^\[(\d+)([KMG]?)(?:, [^)]*\))?\]?\s+(\d+)", line)
        if not m:
            if line.startswith("@"):
                inh = False
            continue
        lo = int(m.group(1)) * mult[m.group(2)]
        lo = 0 if lo < 2 else lo
        theirs[lo] = theirs.get(lo, 0) + int(m.group(3))
keys = sorted(set(ours) | set(theirs))
print("buckets(low:ptk/bpftrace) " + " ".join(f"{k}:{ours.get(k,0)}/{theirs.get(k,0)}" for k in keys))
tot_o, tot_t = sum(ours.values()), sum(theirs.values())
print(f"totals ptk {tot_o} bpftrace {tot_t}")
bad = [k for k in keys if abs(ours.get(k, 0) - theirs.get(k, 0)) > 0.02 * max(ours.get(k, 0), theirs.get(k, 0), 1)]
sys.exit(1 if bad or not tot_o else 0)
EOF
	hrc=$?
	while read -r l; do note "write count hist: $l"; done < "$TMP/cmp.txt"
	check "write --hist count --filter comm==aggwork: every log2 bucket equals bpftrace hist() within 2%" \
		test $hrc -eq 0
else
	skip "bpftrace not installed: no side-by-side count/hist comparison"
fi

# ---- latency between two tracepoints: wakeup -> switch of the sleeper ----
lat() { # $1 = output file: p99 bound of the sleeper's wakeup->switch latency, in usecs
	"$PTK" agg --from sched:sched_wakeup:pid --to sched:sched_switch:next_pid --hist \
		--filter next_comm==aggsleep --json > "$1" 2>"$1.err" & local A=$!
	PIDS+=($A)
	ready agg_b 1 $A || note "latency program not seen running"
	taskset -c 0 "$TMP/aggwork" sleep 1500 aggsleep
	kill -INT $A; wait $A
}
# how busy CPU 0 was over the uncontended run (other work on the machine): a baseline taken
# on a busy CPU is no baseline for "rises"
cpu0() { awk '$1 == "cpu0" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
read -r b0 i0 < <(cpu0)
lat "$TMP/lat0.json"; rc0=$?
read -r b1 i1 < <(cpu0)
busy0=$(awk -v b=$((b1 - b0)) -v i=$((i1 - i0)) 'BEGIN { printf "%.0f", b + i ? 100 * b / (b + i) : 0 }')
if have stress-ng; then
	timeout -k 5 90 stress-ng --cpu 4 --taskset 0 --timeout 60 >/dev/null 2>&1 & HOG=$!; PIDS+=($HOG)
	sleep 1
	lat "$TMP/lat1.json"; rc1=$?
	kill $HOG; wait $HOG 2>/dev/null
fi
if [ $rc0 -eq 0 ] && [ -s "$TMP/lat0.json" ]; then
	c0=$(jq_py "$TMP/lat0.json" "d['histograms'][0]['hist']['total'] if d['histograms'] else 0")
	p0=$(jq_py "$TMP/lat0.json" "d['histograms'][0]['hist']['p99_le'] if d['histograms'] else -1")
	note "wakeup->switch of a 1 ms sleeper pinned to CPU 0, idle: $c0 samples, p99 <= $p0 us"
	check "--from/--to latency: samples counted (1500 sleeps) and p99 in a sane range (< 1 s)" \
		test "$c0" -gt 0 -a "$p0" -ge 0 -a "$p0" -lt 1000000
	if [ -n "${HOG:-}" ] && [ "${rc1:-1}" -eq 0 ]; then
		c1=$(jq_py "$TMP/lat1.json" "d['histograms'][0]['hist']['total'] if d['histograms'] else 0")
		p1=$(jq_py "$TMP/lat1.json" "d['histograms'][0]['hist']['p99_le'] if d['histograms'] else -1")
		note "same with stress-ng --cpu 4 --taskset 0: $c1 samples, p99 <= $p1 us; CPU 0 was $busy0% busy in the first run"
		if [ "$busy0" -lt 30 ]; then
			check "--from/--to latency: p99 rises under a pinned CPU hog ($p0 -> $p1 us)" \
				test "$c1" -gt 0 -a "$p1" -gt "$p0"
		else
			skip "--from/--to latency: CPU 0 was $busy0% busy with other work in the uncontended run: no baseline for the rise ($p0 -> $p1 us)"
		fi
	else
		skip "stress-ng missing or the contended run failed: no contention comparison"
	fi
else
	not_ok "--from/--to latency run: exit $rc0: $(head -1 "$TMP/lat0.json.err")"
fi

# ---- usage and runtime errors: one line ----
for args in "nosuch:event" "sched:sched_switch --by nope" "sched_switch" \
	"sched:sched_switch --hist prev_comm" "raw_syscalls:sys_enter --by args" \
	"--from sched:sched_wakeup:pid --to sched:sched_switch" "sched:sched_switch --linear 0,10,1" \
	"sched:sched_switch --filter 'prev_pid~3'" "sched:sched_switch --by a,b,c,d,e"; do
	eval "\"\$PTK\" agg $args" > "$TMP/e.out" 2>"$TMP/e.err"; rc=$?
	note "ptk agg $args -> exit $rc: $(head -1 "$TMP/e.err")"
	check "ptk agg $args: usage error (2), one line, nothing on stdout" \
		test $rc -eq 2 -a "$(wc -l < "$TMP/e.err")" -le 2 -a ! -s "$TMP/e.out"
done

# ---- SIGINT / SIGTERM: nothing attached afterwards; tracefs unmounted if ptk mounted it ----
for sig in INT TERM; do
	"$PTK" agg raw_syscalls:sys_enter --by comm > "$TMP/sig.txt" 2>&1 & P=$!
	for _ in $(seq 300); do [ -n "$(ids_of $P)" ] && break; sleep 0.1; done
	sleep 0.5
	ids=$(ids_of $P | tr '\n' ' ')
	kill -$sig $P; wait $P; rc=$?
	check "SIG$sig: exit $rc (0) after holding its agg programs [$ids]" test $rc -eq 0 -a -n "$ids"
	check "SIG$sig: every program it held is gone" bpf_progs_gone $ids
	check "SIG$sig: the final table is printed" grep -q "^comm  *COUNT" "$TMP/sig.txt"
done
# in a private mount namespace without tracefs: ptk mounts it (in a mount namespace of its own
# where it can, so its mounts are read in /proc/PID) and nothing stays mounted after it
if have unshare; then
	unshare -m --propagation private bash -c '
		umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug 2>/dev/null
		b=$(grep -c " tracefs " /proc/mounts)
		"$1" agg sched:sched_switch >/dev/null 2>&1 & P=$!
		sleep 1.5; m=$(grep -c " tracefs " /proc/$P/mounts)
		kill -TERM $P; wait $P; rc=$?
		"$1" agg nosuch:event >/dev/null 2>&1
		"$1" agg sched:sched_switch --by nope >/dev/null 2>&1
		a=$(grep -c " tracefs " /proc/mounts)
		echo "$b $m $a $rc"' _ "$PTK" > "$TMP/ns.txt"
	read -r b m a rc < "$TMP/ns.txt"
	note "tracefs mounts in a private namespace: $b before, $m while running, $a after (exit $rc)"
	check "tracefs: mounted by ptk while running, unmounted after SIGTERM and after errors" \
		test "$b" = 0 -a "$m" = 1 -a "$a" = 0 -a "$rc" = 0
else
	skip "unshare missing: tracefs unmount not checked"
fi
