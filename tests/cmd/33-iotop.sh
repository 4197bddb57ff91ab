#!/usr/bin/env bash
# ptk iotop: a direct-I/O writer (dd oflag=direct) must show with the write rate its own
# /proc/PID/io says, IO> is "-" with a one-line hint while kernel.task_delayacct=0 and a number
# once it is 1 (the original value is restored on exit), and the replay/usage paths.
. "$(dirname "$0")/lib.sh"
[ -x "$PTK" ] || { not_ok "no ptk binary at $PTK"; exit 1; }
t() { local d=$1; shift; if eval "$1"; then ok "$d"; else not_ok "$d"; fi; }

DA=/proc/sys/kernel/task_delayacct
ORIG=
DD=
cleanup() {
	[ -n "$DD" ] && kill "$DD" 2>/dev/null && wait "$DD" 2>/dev/null
	[ -n "$ORIG" ] && echo "$ORIG" >"$DA"
	rm -rf "$TMP"
}
trap cleanup EXIT

# ---- replay: byte rates from the snapshots, delays unavailable -------------------------
"$PTK" iotop --procfs "$FIX/pid_rates" -b -o -P >"$TMP/r.txt" 2>"$TMP/r.err"
check "replay exits 0" [ $? -eq 0 ]
note "replay row: $(grep ' \[busy\]' "$TMP/r.txt")"
check "replay: pid 200 reads 1000.00 K/s, writes 200.00 K/s, IO> '-'" \
	grep -q '^    200 .* 1000.00 K/s  200.00 K/s      -        -    \[busy\]$' "$TMP/r.txt"
check "replay: one line says why IO> is unavailable" [ "$(wc -l <"$TMP/r.err")" -eq 1 ]
check "replay: Total DISK READ line as iotop" grep -q '^Total DISK READ :    1000.00 K/s | Total DISK WRITE :     200.00 K/s$' "$TMP/r.txt"

# ---- usage errors ------------------------------------------------------------------------
for bad in "-n 0" "-d x" "-p abc" "-Z" "extra"; do
	# shellcheck disable=SC2086
	"$PTK" iotop -b $bad >"$TMP/o" 2>"$TMP/e"
	rc=$?
	t "iotop $bad exits 2 with an error on stderr, nothing on stdout (exit $rc)" \
		'[ "$rc" -eq 2 ] && [ -s "$TMP/e" ] && [ ! -s "$TMP/o" ]'
done

# ---- live --------------------------------------------------------------------------------
if ! is_root; then
	skip "not root: taskstats needs CAP_NET_ADMIN and /proc/PID/io of other users is denied"
	exit 0
fi
# a writer that lasts the whole test: direct I/O to a file, bounded in size and time
dd if=/dev/zero of="$TMP/dd.bin" bs=64k count=200000 oflag=direct status=none &
DD=$!
sleep 0.5
if ! [ -r /proc/$DD/io ]; then
	skip "writer did not start"
	exit 0
fi
wb() { awk '$1 == "write_bytes:" { print $2 }' /proc/$DD/io; }

if [ -w "$DA" ]; then
	# kernel.task_delayacct is the machine's: another copy of the suite toggling it at the
	# same time would turn it on under our "off" checks (and off under its), so take turns
	exclusive task-delayacct
	ORIG=$(cat "$DA")
	echo 0 >"$DA"
	"$PTK" iotop -b -o -n 2 -d 1 >"$TMP/off.txt" 2>"$TMP/off.err"
	check "delayacct off: exits 0" [ $? -eq 0 ]
	note "stderr: $(cat "$TMP/off.err")"
	t "delayacct off: one line saying so and how to turn it on" \
		'[ "$(wc -l <"$TMP/off.err")" -eq 1 ] && grep -q "kernel.task_delayacct=1" "$TMP/off.err"'
	row=$(awk -v p="$DD" '$1 == p' "$TMP/off.txt" | tail -1)
	note "writer row: $row"
	t "delayacct off: the writer is listed with SWAPIN and IO> '-' (never 0)" \
		'[ -n "$row" ] && [ "$(echo "$row" | awk "{ print \$8, \$9 }")" = "- -" ]'
	echo 1 >"$DA"
	# delays are only accounted for tasks started while it is on: a new writer
	kill "$DD" 2>/dev/null
	wait "$DD" 2>/dev/null
	dd if=/dev/zero of="$TMP/dd.bin" bs=64k count=200000 oflag=direct status=none &
	DD=$!
	sleep 0.5
else
	skip "$DA not writable (kernel < 5.14 or read-only /proc): cannot toggle delay accounting"
fi

if [ "$(cat "$DA" 2>/dev/null || echo 1)" = 1 ]; then
	w0=$(wb) t0=$(date +%s.%N)
	"$PTK" iotop -b -o -n 2 -d 1 --json >"$TMP/on.json" 2>"$TMP/on.err"
	rc=$?
	w1=$(wb) t1=$(date +%s.%N)
	t "delayacct on: exits 0, nothing on stderr" '[ "$rc" -eq 0 ] && [ ! -s "$TMP/on.err" ]'
	own=$(awk -v a="$w0" -v b="$w1" -v x="$t0" -v y="$t1" 'BEGIN { printf "%.0f", (b - a) / (y - x) }')
	out=$(python3 -c '
import json, sys
pid = int(sys.argv[2])
rows = [r for l in open(sys.argv[1]) for r in json.loads(l)["tasks"] if r["tid"] == pid]
print(len(rows), "%.0f" % (sum(r["write_Bps"] for r in rows) / max(len(rows), 1)),
      all(isinstance(r["io_pct"], float) for r in rows), max(r["io_pct"] for r in rows))' \
		"$TMP/on.json" "$DD" 2>&1)
	read -r n rate isnum io <<<"$out"
	note "writer: ptk iotop write_Bps (mean of $n intervals) $rate, its own /proc/$DD/io delta $own B/s, IO> $io %"
	t "the writer appears in both intervals" '[ "$n" = 2 ]'
	t "write rate within 20% of the writer's /proc/PID/io delta" \
		'[ -n "$rate" ] && near_rel "$rate" "$own" 0.2'
	t "delayacct on: IO> is a number (and > 0 for a direct writer)" \
		'[ "$isnum" = True ] && near "$io" 50 50 && [ "$io" != 0.0 ]'
	"$PTK" iotop -b -o -n 1 -d 1 >"$TMP/on.txt" 2>&1
	row=$(awk -v p="$DD" '$1 == p' "$TMP/on.txt")
	note "text row: $row"
	t "text: the writer's IO> shows as 'N.NN %'" \
		'echo "$row" | grep -qE "^ *$DD .* [0-9]+\.[0-9]{2} % +[0-9]+\.[0-9]{2} %  dd "'
	check "text: Actual DISK WRITE line from /proc/vmstat" grep -q '^Actual DISK READ: .* | Actual DISK WRITE: ' "$TMP/on.txt"
	"$PTK" iotop -b -P -a -n 1 -d 1 -p "$DD" >"$TMP/pa.txt" 2>&1
	note "-P -a -p: $(awk -v p="$DD" '$1 == p' "$TMP/pa.txt")"
	t "-P -a -p PID: only that process, accumulated bytes (no /s)" \
		'[ "$(awk "\$1 ~ /^[0-9]+\$/" "$TMP/pa.txt" | wc -l)" -eq 1 ] &&
		 grep -qE "^ *$DD .* [0-9.]+ [BKMG] +[0-9.]+ [BKMG] " "$TMP/pa.txt"'
else
	skip "delay accounting is off and cannot be turned on here"
fi
