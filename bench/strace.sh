#!/usr/bin/env bash
# ptk strace against strace on the same syscall-heavy command, in one run:
#   dd if=/dev/zero of=/dev/null bs=1 count=N   (2 syscalls per byte)
# alone, under strace -o /dev/null, strace --seccomp-bpf -e trace=openat, ptk strace, and
# ptk strace -e trace=openat (seccomp-bpf filter). Prints wall times, the overhead ratios
# and the per-syscall cost of the unfiltered tracers.
# Goals: filtered overhead <= strace --seccomp-bpf's; unfiltered cost per syscall <= strace's.
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
N=${N:-200000}
REPS=${REPS:-3}
DD=(dd if=/dev/zero of=/dev/null bs=1 count="$N" status=none)
command -v strace >/dev/null || { echo "strace not installed"; exit 1; }
[ -x "$PTK" ] || { echo "no $PTK (make first)"; exit 1; }

best() { # best of REPS wall times in seconds
	local b="" t0 t1 t
	for _ in $(seq "$REPS"); do
		t0=$(date +%s%N)
		"$@" 2>/dev/null
		t1=$(date +%s%N)
		t=$(( t1 - t0 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	awk -v t="$b" 'BEGIN { printf "%.4f", t / 1e9 }'
}

base=$(best "${DD[@]}")
st=$(best strace -o /dev/null "${DD[@]}")
stf=$(best strace -f --seccomp-bpf -e trace=openat -o /dev/null "${DD[@]}")
pt=$(best "$PTK" strace -o /dev/null "${DD[@]}")
ptf=$(best "$PTK" strace -f -e trace=openat -o /dev/null "${DD[@]}")
nsys=$(( 2 * N ))
printf "%-46s %9s %9s %12s\n" "run (dd bs=1 count=$N, best of $REPS)" "seconds" "x alone" "us/syscall"
row() { awk -v n="$1" -v t="$2" -v b="$base" -v s="$nsys" 'BEGIN {
	printf "%-46s %9.4f %9.2f %12.3f\n", n, t, t / b, (t - b) * 1e6 / s }'; }
row "alone" "$base"
row "strace -o /dev/null" "$st"
row "ptk strace -o /dev/null" "$pt"
row "strace -f --seccomp-bpf -e trace=openat" "$stf"
row "ptk strace -f -e trace=openat (seccomp-bpf)" "$ptf"
awk -v a="$pt" -v b="$st" -v c="$ptf" -v d="$stf" -v z="$base" 'BEGIN {
	printf "ptk/strace unfiltered overhead: %.2f (goal <= 1)\n", (a - z) / (b - z);
	printf "ptk/strace filtered overhead:   %.2f (goal <= 1; both near 0 s)\n", (d - z > 0.001) ? (c - z) / (d - z) : 0 }'

# ---- without stopping the target: a tight loop of 1-byte writes ----------------------------------
# tests/progs/writeloop.c times its own loop, so each row is what the tracer costs the program
# (not the tracer's start-up): alone, strace, strace --seccomp-bpf, ptk strace (ptrace),
# ptk strace --bpf, perf trace, and the counters libbpf-tools syscount and ptk syscount
# (system-wide, started before the program). Goal: --bpf costs at most 1/10 of ptrace's.
W=${W:-200000}
WL=$(mktemp -d)
trap 'rm -rf "$WL"' EXIT
cc -O1 -o "$WL/writeloop" tests/progs/writeloop.c || exit 1
loop() { # best loop time (ns) of REPS runs of: "$@" writeloop W FILE
	local b="" t
	for _ in $(seq "$REPS"); do
		"$@" "$WL/writeloop" "$W" "$WL/t" > /dev/null 2>&1
		t=$(cat "$WL/t" 2>/dev/null || echo 0)
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
bg_loop() { # the same, with a system-wide counter "$@" running around each run
	local b="" t p
	for _ in $(seq "$REPS"); do
		"$@" > /dev/null 2> "$WL/err" & p=$!
		for _ in $(seq 100); do grep -q 'Tracing\|Ctrl' "$WL/err" && break; sleep 0.05; done
		"$WL/writeloop" "$W" "$WL/t"
		kill -INT $p; wait $p 2>/dev/null
		t=$(cat "$WL/t")
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
w0=$(loop env)
ws=$(loop strace -o /dev/null)
wsf=$(loop strace -f --seccomp-bpf -e trace=write -o /dev/null)
wp=$(loop "$PTK" strace -o /dev/null)
wb=$(loop "$PTK" strace --bpf -o /dev/null)
wperf=-
command -v perf > /dev/null && wperf=$(loop perf trace -o /dev/null --)
wsc=-
[ -x /usr/sbin/syscount ] && wsc=$(bg_loop /usr/sbin/syscount)
wpsc=$(bg_loop "$PTK" syscount)
echo
printf "%-46s %12s %9s %12s\n" "run (writeloop $W, 1-byte writes, best of $REPS)" "loop ms" "x alone" "ns/write"
wrow() { [ "$2" = - ] && { printf "%-46s %12s\n" "$1" "n/a"; return; }
	awk -v n="$1" -v t="$2" -v b="$w0" -v w="$W" 'BEGIN {
	printf "%-46s %12.1f %9.2f %12.1f\n", n, t / 1e6, t / b, (t - b) / w }'; }
wrow "alone" "$w0"
wrow "strace -o /dev/null" "$ws"
wrow "strace -f --seccomp-bpf -e trace=write" "$wsf"
wrow "ptk strace -o /dev/null (ptrace)" "$wp"
wrow "ptk strace --bpf -o /dev/null" "$wb"
wrow "perf trace -o /dev/null" "$wperf"
wrow "libbpf-tools syscount (system-wide)" "$wsc"
wrow "ptk syscount (system-wide)" "$wpsc"
awk -v p="$wp" -v b="$wb" -v s="$ws" -v z="$w0" 'BEGIN {
	printf "--bpf / ptrace added cost: %.3f (goal <= 0.1); --bpf / strace: %.3f\n",
		(b - z) / (p - z), (b - z) / (s - z) }'
