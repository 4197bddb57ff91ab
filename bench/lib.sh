# Sourced by the bench scripts (bash). Sets an EXIT/INT/TERM trap that runs the clean-ups
# registered with bench_on_exit, then removes $BENCH_TMP.
#   bench_on_exit 'CMD'   run CMD on exit (last registered first)
#   bench_sleepers N      start N more processes sleeping in pause() (bench/sleepers.c, built
#                         here); they are killed on exit, and by the kernel if the spawner dies
#   bench_sleepers_stop   kill the ones bench_sleepers started, now
#   bench_nproc           processes on the machine (/proc/PID directories)
#   bench_load            the load average (1, 5, 15 min)
BENCH_TMP=$(mktemp -d)
BENCH_EXIT=()
BENCH_SLEEPERS=

bench_on_exit() { BENCH_EXIT=("$1" "${BENCH_EXIT[@]}"); }

bench_cleanup() {
	trap - EXIT INT TERM
	bench_sleepers_stop
	for c in "${BENCH_EXIT[@]}"; do eval "$c"; done
	rm -rf "$BENCH_TMP"
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

bench_nproc() { ls /proc | grep -c '^[0-9]'; }
bench_load() { cut -d' ' -f1-3 /proc/loadavg; }

bench_sleepers() {
	local dir
	dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	if [ ! -x "$BENCH_TMP/sleepers" ]; then
		cc -O2 -o "$BENCH_TMP/sleepers" "$dir/sleepers.c" || return 1
	fi
	bench_sleepers_stop
	mkfifo "$BENCH_TMP/ready"
	"$BENCH_TMP/sleepers" "$1" > "$BENCH_TMP/ready" &
	BENCH_SLEEPERS=$!
	local line=
	read -r line < "$BENCH_TMP/ready"
	rm -f "$BENCH_TMP/ready"
	[ "$line" = ready ] || { echo "bench_sleepers: could not start $1 processes" >&2; return 1; }
}

bench_sleepers_stop() {
	[ -n "$BENCH_SLEEPERS" ] || return 0
	kill -TERM "$BENCH_SLEEPERS" 2>/dev/null
	wait "$BENCH_SLEEPERS" 2>/dev/null
	BENCH_SLEEPERS=
}
