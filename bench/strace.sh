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
ptf=$(best "$PTK" strace -e trace=openat -o /dev/null "${DD[@]}")
nsys=$(( 2 * N ))
printf "%-46s %9s %9s %12s\n" "run (dd bs=1 count=$N, best of $REPS)" "seconds" "x alone" "us/syscall"
row() { awk -v n="$1" -v t="$2" -v b="$base" -v s="$nsys" 'BEGIN {
	printf "%-46s %9.4f %9.2f %12.3f\n", n, t, t / b, (t - b) * 1e6 / s }'; }
row "alone" "$base"
row "strace -o /dev/null" "$st"
row "ptk strace -o /dev/null" "$pt"
row "strace -f --seccomp-bpf -e trace=openat" "$stf"
row "ptk strace -e trace=openat (seccomp-bpf)" "$ptf"
awk -v a="$pt" -v b="$st" -v c="$ptf" -v d="$stf" -v z="$base" 'BEGIN {
	printf "ptk/strace unfiltered overhead: %.2f (goal <= 1)\n", (a - z) / (b - z);
	printf "ptk/strace filtered overhead:   %.2f (goal <= 1; both near 0 s)\n", (d - z > 0.001) ? (c - z) / (d - z) : 0 }'
