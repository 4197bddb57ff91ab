#!/usr/bin/env bash
# Run the libFuzzer harnesses of tests/fuzz (built by `make fuzz-bins` into DIR/fuzz/).
#   run.sh seeds DIR          every harness on its committed seeds (tests/fuzz/corpus/NAME/)
#                             and RUNS mutations of them (default 2000), TAP output
#   run.sh long DIR SECS JOBS every harness for SECS seconds, JOBS at a time; what a run
#                             finds is kept in DIR/found/NAME/ (add it to the seeds once fixed)
# The committed seeds are read, never written: mutations go to a scratch corpus.
set -u
cd "$(dirname "$0")/../.."
mode=${1:-seeds} dir=${2:-build-fuzz}
CORPUS=tests/fuzz/corpus
# a slow input (hang) is a failure too: -timeout; memory beyond 2 GiB as well
OPTS=(-timeout=10 -rss_limit_mb=2048 -max_len=262144 -print_final_stats=1)

bins=()
for b in "$dir"/fuzz/fuzz_*; do
	case "$b" in *.d) continue ;; esac
	[ -x "$b" ] && bins+=("$b")
done
if [ ${#bins[@]} -eq 0 ]; then
	echo "1..0 # SKIP no fuzz harnesses built in $dir/fuzz (make fuzz-bins needs clang with libFuzzer)"
	exit 0
fi

# one harness: $1 binary, $2 scratch dir, then extra libFuzzer options
run_one() {
	local bin=$1 work=$2 name seeds
	shift 2
	name=$(basename "$bin")
	name=${name#fuzz_}
	seeds=$CORPUS/$name
	mkdir -p "$work/corpus" "$work/found"
	"$bin" "${OPTS[@]}" -artifact_prefix="$work/found/" "$@" "$work/corpus" "$seeds" \
		>"$work/log" 2>&1
}

if [ "$mode" = seeds ]; then
	RUNS=${RUNS:-2000}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "1..${#bins[@]}"
	n=0
	for bin in "${bins[@]}"; do
		n=$((n + 1))
		name=$(basename "$bin")
		name=${name#fuzz_}
		nseeds=$(find "$CORPUS/$name" -type f 2>/dev/null | wc -l)
		t0=$(date +%s%N)
		timeout 300 bash -c "$(declare -f run_one); CORPUS=$CORPUS; OPTS=(${OPTS[*]}); \
			run_one '$bin' '$tmp/$name' -seed=1 -runs=$RUNS"
		rc=$?
		t=$(( ($(date +%s%N) - t0) / 1000000 ))
		if [ $rc -eq 0 ] && [ "$nseeds" -gt 0 ]; then
			echo "ok $n - fuzz $name: $nseeds seeds + $RUNS mutations, no crash, hang or invariant failure (${t} ms)"
		elif [ "$nseeds" -eq 0 ]; then
			echo "not ok $n - fuzz $name: no seeds in $CORPUS/$name"
		else
			echo "not ok $n - fuzz $name: exit $rc"
			grep -E 'invariant failed|ERROR: |SUMMARY|runtime error|Test unit written' "$tmp/$name/log" |
				head -8 | sed 's/^/#   /'
		fi
	done
	exit 0
fi

# long: SECS each, JOBS at a time, a summary line per harness
secs=${3:-60} jobs=${4:-2}
mkdir -p "$dir/long"
echo "fuzzing ${#bins[@]} harnesses, $secs s each, $jobs at a time (scratch corpora in $dir/long/)"
i=0
for bin in "${bins[@]}"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	( run_one "$bin" "$dir/long/$name" -max_total_time="$secs"
	  echo $? >"$dir/long/$name/rc" ) &
	i=$((i + 1))
	if [ $((i % jobs)) -eq 0 ]; then wait; fi
done
wait
bad=0
printf '%-12s %10s %8s %6s %s\n' harness execs exec/s cov result
for bin in "${bins[@]}"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	w=$dir/long/$name
	rc=$(cat "$w/rc" 2>/dev/null || echo 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" | tail -1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$w/log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$w/log" | tail -1 | cut -d' ' -f2)
	found=$(find "$w/found" -type f | wc -l)
	res=ok
	if [ "$rc" != 0 ] || [ "$found" -gt 0 ]; then
		res="FAILED (exit $rc, $found input(s) in $w/found)"
		bad=$((bad + 1))
	fi
	printf '%-12s %10s %8s %6s %s\n' "$name" "${execs:-?}" "${eps:-?}" "${cov:-?}" "$res"
done
[ $bad -eq 0 ]
