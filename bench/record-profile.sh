#!/usr/bin/env bash
# The cost of continuous profiling: ptk record -i 10 with and without --profile (19 Hz on
# every CPU), each for SECONDS under the same load (tests/progs/flamedeep on one CPU), and
# side by side perf record -F 19 -a -g for the same time (its own CPU: perf record plus the
# perf script a flame graph then needs). CPU is utime + stime of the process (and its
# children) from /proc, as a share of one CPU.
# usage: bench/record-profile.sh [SECONDS]   (default 60; PTK=ptk binary; root)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
SECS=${1:-60}
W=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; wait 2> /dev/null; rm -rf "$W"' EXIT
cc -O1 -g -fno-omit-frame-pointer -o "$W/deep" tests/progs/flamedeep.c || exit 1
TCK=$(getconf CLK_TCK)
cpu_of() { awk -v t="$TCK" '{ print ($14 + $15 + $16 + $17) / t }' "/proc/$1/stat"; }
run() { # label, command...: CPU seconds of the command over SECS (it stops itself)
	local label=$1 pid c; shift
	"$@" > /dev/null 2>&1 &
	pid=$!
	sleep "$SECS"
	c=$(cpu_of $pid 2> /dev/null || echo 0)
	kill -INT $pid 2> /dev/null
	wait $pid 2> /dev/null
	printf '  %-44s %7.3f s CPU = %6.3f%% of one CPU\n' "$label" "$c" "$(awk -v c="$c" -v s="$SECS" 'BEGIN { print 100 * c / s }')"
	echo "$c" > "$W/$label.cpu"
}
"$W/deep" $((SECS * 4 + 30)) > /dev/null &
echo "== $SECS s each, flamedeep loading one CPU; $(nproc) CPUs"
run record "$PTK" record -i 10 --processes 0 --db "$W/a.db"
run record+profile "$PTK" record -i 10 --processes 0 --db "$W/b.db" --profile
run perf-record "perf" record -q -F 19 -a -g -o "$W/perf.data"
t0=$(date +%s.%N)
perf script -i "$W/perf.data" > /dev/null 2>&1
t1=$(date +%s.%N)
a=$(cat "$W/record.cpu") b=$(cat "$W/record+profile.cpu") p=$(cat "$W/perf-record.cpu")
ps=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
awk -v a="$a" -v b="$b" -v p="$p" -v ps="$ps" -v s="$SECS" 'BEGIN {
	printf "  profiling adds %.3f s CPU = %.3f%% of one CPU (target < 1%%)\n", b - a, 100 * (b - a) / s
	printf "  perf record -F 19 -a -g: %.3f%% of one CPU, + perf script %.2f s to fold it\n", 100 * p / s, ps }'
echo "  samples stored: $(sqlite3 "$W/b.db" 'select sum(count) from prof' 2> /dev/null)"
