#!/usr/bin/env bash
# Run every test: cmocka unit binaries (TAP output) and command tests (tests/cmd/*.sh, TAP).
# Prints each failure and skip (with its reason) and closes with "N passed, N failed, N skipped".
# Env: PTK=path to the ptk binary, BUILD=build dir holding tests/test_*, ONLY=a part of the
# command tests' names, VERBOSE=1 to print every result.
set -u
cd "$(dirname "$0")/.."
: "${PTK:=$PWD/build/ptk}" "${BUILD:=build}"
export PTK
pass=0 fail=0 skip=0
failed_names=() retried_names=()
log=$(mktemp)
# the tests must hold on a busy machine: say how busy this one was
echo "# $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"

tally() { # $1 = suite name; reads TAP from $log
	while IFS= read -r line; do
		case "$line" in
		*"# SKIP"* | *"# skip"*) skip=$((skip + 1)); echo "SKIP $1: ${line#*ok }" ;;
		"not ok"*) fail=$((fail + 1)); failed_names+=("$1: ${line#not ok }"); echo "FAIL $1: ${line#not ok }" ;;
		ok*) pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $1: ${line#ok }" ;;
		"#"*) [ -n "${VERBOSE:-}" ] && echo "$line" ;;
		esac
	done < "$log"
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	CMOCKA_MESSAGE_OUTPUT=TAP timeout 120 "$t" > "$log" 2>&1 < /dev/null
	rc=$?
	if ! grep -q '^\(not \)\?ok' "$log"; then
		echo "not ok 1 - $name produced no results (exit $rc)" > "$log"
	elif [ $rc -ne 0 ] && ! grep -q '^not ok' "$log"; then
		echo "not ok 1 - $name exited $rc" >> "$log"
	fi
	tally "$name"
	[ -n "${VERBOSE:-}" ] || grep -A8 "^not ok" "$log" | grep -v -e "^ok" -e "# SKIP" | head -30
done

# The reference tools (bpftrace, trace-cmd, perf's tracepoints) find tracepoints in a mounted
# tracefs and do not mount it themselves; ptk does, and its tests of that unmount it in a
# mount namespace of their own. On a machine that boots without it, mount it for the command
# tests and unmount it at the end.
tracefs_ours=
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ] && ! grep -q ' tracefs ' /proc/mounts; then
	if mount -t tracefs nodev /sys/kernel/tracing; then
		tracefs_ours=1
		echo "# tracefs was not mounted: mounted at /sys/kernel/tracing for the reference tools, until the end"
	fi
fi
trap '[ -z "$tracefs_ours" ] || umount /sys/kernel/tracing' EXIT

for t in tests/cmd/[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	if [ -n "${ONLY:-}" ] && [[ "$name" != *"$ONLY"* ]]; then continue; fi
	# A script runs once and its result counts. One that says why it depends on timing it
	# cannot control (a "# timing-sensitive: REASON" line) is run once more when it fails,
	# and the second run counts; the first run's failures are printed, and the retries
	# counted at the end, never hidden. stdin is /dev/null: a tool under timeout(1) runs in
	# a process group of its own, and one that touched a terminal would stop (SIGTTIN).
	reason=$(sed -n 's/^# timing-sensitive: //p' "$t" | head -1)
	for attempt in 1 2; do
		timeout 900 bash "$t" > "$log" 2>&1 < /dev/null
		rc=$?
		if ! grep -q '^\(not \)\?ok' "$log"; then
			echo "not ok 1 - $name produced no results (exit $rc)" >> "$log"
		elif [ $rc -ne 0 ] && ! grep -q '^not ok' "$log"; then
			echo "not ok 1 - $name exited $rc" >> "$log"
		fi
		grep '^not ok' "$log" | grep -qv '# SKIP' || break
		[ -n "$reason" ] && [ $attempt -eq 1 ] || break
		echo "RETRY $name (timing-sensitive: $reason): failed on the first run:"
		grep '^not ok' "$log" | grep -v '# SKIP' | sed 's/^/  /'
		retried_names+=("$name")
	done
	tally "$name"
	grep -B2 -A12 '^not ok' "$log" | head -40
done
rm -f "$log"
echo
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failed_names[@]}"
fi
if [ ${#retried_names[@]} -gt 0 ]; then
	echo "retried (timing-sensitive, failed once; the second run counted): ${#retried_names[@]}: ${retried_names[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
