#!/usr/bin/env bash
# The cost of user stacks: frame pointers against DWARF unwinding, ptk profile against perf
# record, on a CPU-bound program built without frame pointers (tests/progs/burn.c -O2
# -fomit-frame-pointer). Each profiler attaches with -p for SECONDS at 499 Hz; CPU is the
# profiler's user + system time (/usr/bin/time). perf unwinds DWARF stacks when the data is
# read, so its cost is perf record plus perf script (the text a flame graph is made from);
# ptk unwinds while it records and writes the folded stacks directly.
# usage: bench/unwind.sh [SECONDS]   (default 10; PTK=ptk binary; root)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
SECS=${1:-10}
W=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; wait 2> /dev/null; rm -rf "$W"' EXIT
cc -O2 -g -fomit-frame-pointer -o "$W/burn" tests/progs/burn.c || exit 1
cpu() { # label, command...
	/usr/bin/time -f "%U %S" -o "$W/t" "${@:2}" > "$W/$1.out" 2> "$W/$1.err"
	awk '{ printf "%.3f", $1 + $2 }' "$W/t" > "$W/$1.cpu"
}
one() { "$W/burn" $((SECS + 2)) > /dev/null & BP=$!; sleep 0.3; }
echo "== burn (no frame pointers) for $SECS s at 499 Hz, profilers attached with -p"
one; cpu ptk-fp "$PTK" profile -F 499 -g -p $BP -d "$SECS"; kill $BP; wait
one; cpu ptk-dwarf "$PTK" profile -F 499 --call-graph dwarf -p $BP -d "$SECS"; kill $BP; wait
one; cpu perf-fp perf record -q -F 499 -g -p $BP -o "$W/fp.data" -- sleep "$SECS"; kill $BP; wait
cpu perf-fp-script perf script -i "$W/fp.data"
one; cpu perf-dwarf perf record -q -F 499 --call-graph dwarf -p $BP -o "$W/dw.data" -- sleep "$SECS"; kill $BP; wait
cpu perf-dwarf-script perf script -i "$W/dw.data"
for k in ptk-fp ptk-dwarf perf-fp perf-fp-script perf-dwarf perf-dwarf-script; do
	printf '  %-20s %7s s CPU\n' "$k" "$(cat "$W/$k.cpu")"
done
grep -h observer "$W/ptk-fp.err" "$W/ptk-dwarf.err" | sed 's/^/    /'
grep -h '^dwarf:' "$W/ptk-dwarf.err" | sed 's/^/    /'
full=$(grep -c ';main;burn_' "$W/ptk-dwarf.out")
printf '  ptk dwarf: %s stacks reach main;burn_*; perf.data: fp %s, dwarf %s\n' "$full" \
	"$(du -h "$W/fp.data" | cut -f1)" "$(du -h "$W/dw.data" | cut -f1)"
awk -v a="$(cat "$W/ptk-fp.cpu")" -v b="$(cat "$W/ptk-dwarf.cpu")" -v c="$(cat "$W/perf-fp.cpu")" \
	-v d="$(cat "$W/perf-fp-script.cpu")" -v e="$(cat "$W/perf-dwarf.cpu")" -v f="$(cat "$W/perf-dwarf-script.cpu")" 'BEGIN {
	printf "  ratios: ptk dwarf / ptk fp %.2f; ptk fp / (perf record + script, fp) %.2f; ptk dwarf / (perf record + script, dwarf) %.2f\n",
		(a > 0) ? b / a : 0, (c + d > 0) ? a / (c + d) : 0, (e + f > 0) ? b / (e + f) : 0 }'

# off-CPU stacks: tests/progs/nanoloop (1 us sleeps, thousands of switches a second, no frame
# pointers), ptk offcputime fp / dwarf against perf record -e sched:sched_switch -g /
# --call-graph dwarf (+ perf script); the kernel side of ptk is the BPF programs' run time
cc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o "$W/nanoloop" tests/progs/nanoloop.c || exit 1
nl() { "$W/nanoloop" $((SECS + 3)) > /dev/null & NP=$!; sleep 0.3; }
echo
echo "== nanoloop (no frame pointers) for $SECS s: off-CPU stacks at every context switch"
nl; cpu oc-fp "$PTK" offcputime -f -c nanoloop "$SECS"; kill $NP; wait
nl; cpu oc-dwarf "$PTK" offcputime --call-graph dwarf -f -c nanoloop "$SECS"; kill $NP; wait
nl; cpu pr-fp perf record -q -e sched:sched_switch -g -p $NP -o "$W/sfp.data" -- sleep "$SECS"; kill $NP; wait
cpu pr-fp-script perf script -i "$W/sfp.data"
nl; cpu pr-dwarf perf record -q -e sched:sched_switch --call-graph dwarf -p $NP -o "$W/sdw.data" -- sleep "$SECS"; kill $NP; wait
cpu pr-dwarf-script perf script -i "$W/sdw.data"
kcpu() { sed -n 's/.* \([0-9.]*\) ms of kernel CPU.*/\1/p' "$W/$1.err" | head -1; }
for k in oc-fp oc-dwarf pr-fp pr-fp-script pr-dwarf pr-dwarf-script; do
	printf '  %-20s %7s s CPU%s\n' "$k" "$(cat "$W/$k.cpu")" \
		"$(case $k in oc-*) echo " + $(kcpu $k) ms in the BPF programs" ;; esac)"
done
grep -h '^dwarf:' "$W/oc-dwarf.err" | sed 's/^/    /'
printf '  perf.data: sched_switch -g %s, --call-graph dwarf %s; samples: %s, %s\n' \
	"$(du -h "$W/sfp.data" | cut -f1)" "$(du -h "$W/sdw.data" | cut -f1)" \
	"$(grep -c '^nanoloop' "$W/pr-fp-script.out")" "$(grep -c '^nanoloop' "$W/pr-dwarf-script.out")"
printf '  full main;g;f stacks: ptk dwarf %s lines, perf dwarf %s samples\n' \
	"$(grep -c ';main;g;f;' "$W/oc-dwarf.out")" "$(grep -A12 '^nanoloop' "$W/pr-dwarf-script.out" | grep -c ' g+0x')"
awk -v a="$(cat "$W/oc-fp.cpu")" -v ka="$(kcpu oc-fp)" -v b="$(cat "$W/oc-dwarf.cpu")" -v kb="$(kcpu oc-dwarf)" \
	-v c="$(cat "$W/pr-fp.cpu")" -v d="$(cat "$W/pr-fp-script.cpu")" -v e="$(cat "$W/pr-dwarf.cpu")" \
	-v f="$(cat "$W/pr-dwarf-script.cpu")" 'BEGIN {
	x = a + ka / 1000; y = b + kb / 1000
	printf "  ratios (user + BPF CPU): ptk dwarf / ptk fp %.2f; ptk fp / perf fp (record + script) %.2f; ptk dwarf / perf dwarf (record + script) %.2f\n",
		(x > 0) ? y / x : 0, (c + d > 0) ? x / (c + d) : 0, (e + f > 0) ? y / (e + f) : 0 }'
