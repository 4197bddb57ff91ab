#!/usr/bin/env bash
# One captured tree (tests/fixtures/consistency, written by tests/fixtures/consistency.py)
# through every path that shows system metrics: the monitors' text and --json (mpstat,
# iostat, vmstat, free, nicstat, pressure), sar live over the tree, an archive written by
# ptk record over the tree and read back by ptk sar --db, the exporter's /metrics, and
# ptk check --json and its table. tests/cmd/consistency.py maps each shared metric across
# the sinks, checks that they agree to the printed precision, that each equals the value
# computed by hand from the fixture's counters, and that what the tree does not have (PSI,
# TcpExt ListenDrops, eth0's link speed, meminfo fields) is unknown in every sink: null in
# JSON, "-" or absent in text, absent from /metrics; never 0.
. "$(dirname "$0")/lib.sh"

F=$FIX/consistency
O=$TMP/out
mkdir -p "$O"
EXP=
cleanup() {
	if [ -n "$EXP" ]; then
		kill -TERM "$EXP" 2>/dev/null
		wait "$EXP" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

if [ ! -f "$F/2/stat" ]; then
	skip "no fixture tree $F (python3 tests/fixtures/consistency.py writes it)"
	exit 0
fi
if ! have python3; then
	skip "python3 not installed: the comparison is written in Python"
	exit 0
fi

# run NAME CMD...: stdout in $O/NAME, stderr in $O/NAME.err, exit status in $O/NAME.rc
run() {
	local name=$1
	shift
	timeout -k 5 30 "$@" >"$O/$name" 2>"$O/$name.err"
	echo $? >"$O/$name.rc"
}
P=(--procfs "$F")
run mpstat.txt "$PTK" mpstat -P ALL "${P[@]}" 1 2
run mpstat.json "$PTK" mpstat -P ALL "${P[@]}" --json 1 2
run iostat.txt "$PTK" iostat -x "${P[@]}" 1 2
run iostat.json "$PTK" iostat -x "${P[@]}" --json 1 2
run vmstat.txt "$PTK" vmstat "${P[@]}" 1 2
run vmstat.json "$PTK" vmstat "${P[@]}" --json 1 2
run free.txt "$PTK" free -k -w "${P[@]}"
run free.json "$PTK" free -k -w "${P[@]}" --json
run nicstat.txt "$PTK" nicstat "${P[@]}" 1 2
run nicstat.json "$PTK" nicstat "${P[@]}" --json 1 2
run nicstat-t.txt "$PTK" nicstat -t "${P[@]}" 1 2
run nicstat-t.json "$PTK" nicstat -t "${P[@]}" --json 1 2
run pressure.txt "$PTK" pressure "${P[@]}" 1 2
run pressure.json "$PTK" pressure "${P[@]}" --json 1 2
SAR=(-u -P ALL -r -b -d -n DEV,TCP,ETCP -q -w -W -B --psi)
run sar-live.txt "$PTK" sar "${SAR[@]}" "${P[@]}" 1 2
run sar-live.json "$PTK" sar "${SAR[@]}" "${P[@]}" --json 1 2
# ptk record takes a replay tree: each sample reads the next snapshot
run record.out "$PTK" record "${P[@]}" --db "$TMP/a.db" -i 1 -c 3
W=(--db "$TMP/a.db" --from @1699999999 --to @1800000000)
run sar-db.txt "$PTK" sar "${SAR[@]}" "${W[@]}"
run sar-db.json "$PTK" sar "${SAR[@]}" "${W[@]}" --json
run check.json "$PTK" check "${P[@]}" -d 2 --json
run check.txt "$PTK" check "${P[@]}" -d 2

# the exporter over the tree: scrape N serves snapshot N-1 (counters; the script takes
# rates between scrapes 2 and 3, i.e. snapshots 1 and 2)
if have curl; then
	"$PTK" exporter "${P[@]}" --listen 127.0.0.1:0 2>"$O/exporter.err" &
	EXP=$!
	PORT=
	for _ in $(seq 100); do
		PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$O/exporter.err")
		[ -n "$PORT" ] && break
		sleep 0.1
	done
	if [ -n "$PORT" ]; then
		for i in 0 1 2; do
			curl -s --max-time 10 -o "$O/metrics.$i" "http://127.0.0.1:$PORT/metrics"
		done
	fi
	kill -TERM "$EXP"
	wait "$EXP"
	erc=$?
	check_all "exporter over the tree: served 3 scrapes on 127.0.0.1:${PORT:-?}, SIGTERM exit $erc (0)" \
		'[ "$erc" -eq 0 ] && [ -s "$O/metrics.2" ]'
	EXP=
else
	skip "curl not installed: no /metrics sink (every exporter comparison is left out)"
fi

for f in mpstat.txt mpstat.json iostat.txt iostat.json vmstat.txt vmstat.json free.txt \
	free.json nicstat.txt nicstat.json nicstat-t.txt nicstat-t.json sar-live.txt \
	sar-live.json record.out sar-db.txt sar-db.json check.json check.txt; do
	rc=$(cat "$O/$f.rc")
	check "$f: exit $rc $(head -c 160 "$O/$f.err" | tr '\n' ' ')" [ "$rc" = 0 ]
done
# no PSI in the tree: ptk pressure says so and fails, it never prints zeros
rc=$(cat "$O/pressure.txt.rc")
check_all "pressure without /proc/pressure: exit 1 with the reason, no table ($(head -c 120 "$O/pressure.txt.err"))" \
	'[ "$rc" = 1 ] && [ ! -s "$O/pressure.txt" ] && grep -q "no PSI" "$O/pressure.txt.err"'

# The run queue, one rule per metric whatever the tree (with or without ptk capture's marker,
# recorded or live): runq-sz is loadavg's nr_running less the reader, as sadc leaves itself
# out (sar, uptime's R, check's runq: 3/250 gives 2); vmstat's r is procs_running as read, as
# procps 4.0.2 prints it and node_exporter serves node_procs_running (3).
M=$TMP/marked
cp -r "$F" "$M"
for d in "$M"/[0-9]*; do echo 4242 >"$d/ptk-capture"; done
"$PTK" record --procfs "$M" --db "$TMP/m.db" -i 1 -c 3 2>/dev/null
for tree in "$F" "$M"; do
	runq=$(
		{
			"$PTK" vmstat --procfs "$tree" --json 1 2 | tail -1
			"$PTK" sar -q --procfs "$tree" --json 1 2 | tail -1
			"$PTK" sar -q --db "$TMP/m.db" --from @1699999999 --to @1800000000 --json | tail -1
			"$PTK" uptime --procfs "$tree" --json
			"$PTK" check --procfs "$tree" -d 2 --json
		} | python3 -c '
import json, sys
o = [json.loads(l) for l in sys.stdin if l.startswith("{")]
cpu = [r for r in o[4]["resources"] if r["resource"] == "cpu"][0]
print(o[0]["vmstat"]["procs_running"], o[1]["queue"][0]["runq_sz"], o[2]["queue"][0]["runq_sz"],
      o[3]["uptime"]["runq_sz"], "%g" % cpu["saturation"]["runq"])' 2>&1
	)
	check "$([ "$tree" = "$M" ] && echo "with" || echo "without") the ptk-capture marker: vmstat r 3 as read; sar runq-sz live and from the archive, uptime R, check runq 2 ($runq)" \
		test "$runq" = "3 2 2 2 2"
done

python3 "$(dirname "$0")/consistency.py" "$F" "$O" "$T_N"
