#!/usr/bin/env bash
# ptk pressure against /proc/pressure/* read at the same time, the interval stall% under CPU
# overload, a replay fixture with hand-computed stall%, the no-PSI error, JSON.
. "$(dirname "$0")/lib.sh"

# Replay fixture: cpu some total 10000000 -> 10500000 us over uptime 1000.00 -> 1002.00 s
# = 25.00 %; io some +200000 us = 10.00 %, io full +100000 us = 5.00 %.
out=$("$PTK" pressure --procfs "$FIX/psi_replay")
note "$(echo "$out" | tail -6 | tr '\n' '|')"
st() { echo "$out" | tail -6 | awk -v r="$1" -v k="$2" '$2 == r && $3 == k { print $8 }'; }
[ "$(st cpu some)" = 25.00 ] && [ "$(st io some)" = 10.00 ] && [ "$(st io full)" = 5.00 ] &&
	[ "$(st memory some)" = 0.00 ] && ok "replay: stall% = delta(total) / delta(uptime)" ||
	not_ok "replay stall%: cpu $(st cpu some) io $(st io some)/$(st io full)"
first=$(echo "$out" | sed -n 2p | awk '{ print $8 }')
[ "$first" = - ] && ok "replay: first report has no interval (stall% '-')" || not_ok "first stall%: $first"

# No PSI: one line naming the cause and psi=1, exit 1.
"$PTK" pressure --procfs "$FIX/psi_none" >"$TMP/o" 2>"$TMP/e"
rc=$?
note "no PSI: $(cat "$TMP/e")"
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q 'psi=1' "$TMP/e" && grep -q 'does not exist' "$TMP/e" &&
	[ ! -s "$TMP/o" ] && ok "no PSI: exit 1, one line naming the cause and psi=1" || not_ok "no PSI: rc $rc"

"$PTK" pressure -x >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && ok "bad option: exit 2, one line" || not_ok "bad option: rc $rc"

if [ ! -r /proc/pressure/cpu ] || ! cat /proc/pressure/cpu >/dev/null 2>&1; then
	skip "this kernel has no readable /proc/pressure (PSI off): live checks skipped"
	exit 0
fi

# Live: the files before and after; ptk's avg within 1.0 of either read, total between them.
for r in cpu memory io; do cp /proc/pressure/$r "$TMP/a_$r"; done
"$PTK" pressure >"$TMP/p"
for r in cpu memory io; do cp /proc/pressure/$r "$TMP/b_$r"; done
bad=0
for r in cpu memory io; do
	for k in some full; do
		p=$(awk -v r=$r -v k=$k '$2 == r && $3 == k { print $4, $5, $6, $7 }' "$TMP/p")
		a=$(awk -v k=$k '$1 == k { gsub(/[a-z0-9]+=/, ""); print $2, $3, $4, $5 }' "$TMP/a_$r")
		b=$(awk -v k=$k '$1 == k { gsub(/[a-z0-9]+=/, ""); print $2, $3, $4, $5 }' "$TMP/b_$r")
		note "$r $k: file $a | ptk $p | file $b"
		awk -v p="$p" -v a="$a" -v b="$b" 'BEGIN { split(p, P); split(a, A); split(b, B)
			for (i = 1; i <= 3; i++) { d1 = P[i] - A[i]; d2 = P[i] - B[i]
				if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2
				if (d1 > 1.0 && d2 > 1.0) exit 1 }
			exit !(P[4] >= A[4] && P[4] <= B[4]) }' || { bad=1; note "  ^ differs"; }
	done
done
[ $bad -eq 0 ] && ok "live: avg10/60/300 within 1.0 and total= between two reads, 6 rows" ||
	not_ok "live values differ from /proc/pressure"

# Overload 2 CPUs with 4 hogs: the cpu "some" stall% of the intervals rises above 0, and the
# run's overall stall% agrees with the file totals read around it.
if have stress-ng; then
	timeout -k 5 60 stress-ng --cpu 4 --timeout 5 >/dev/null 2>&1 &
	sp=$!
	sleep 1
	t0=$(awk '$1 == "some" { sub("total=", "", $5); print $5 }' /proc/pressure/cpu)
	"$PTK" pressure 1 3 >"$TMP/s"
	t1=$(awk '$1 == "some" { sub("total=", "", $5); print $5 }' /proc/pressure/cpu)
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	grep -E ' cpu +some' "$TMP/s" | sed 's/^/# /'
	s=$(grep -E ' cpu +some' "$TMP/s" | tail -2 | awk '{ print $8 }' | xargs)
	note "cpu some stall% of the 2 intervals: $s; file totals around the run: $(((t1 - t0) / 1000)) ms stalled"
	echo "$s" | awk '{ exit !(NF == 2 && $1 > 0 && $2 > 0 && $1 <= 100.5 && $2 <= 100.5) }' &&
		ok "under stress-ng --cpu 4 on 2 CPUs: cpu some stall% > 0 each interval" ||
		not_ok "cpu stall% under load: '$s'"
else
	skip "stress-ng not installed"
fi

# JSON parses: one object per report, the PSI activities' tables as sar --psi writes them,
# every line's averages, total and share under the registry's keys.
"$PTK" pressure --json 0.2 2 >"$TMP/j" && python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 2, len(objs)
for o in objs:
    assert [k for k in o if k.startswith("psi_")] == ["psi_cpu", "psi_mem", "psi_io"], o.keys()
    for t in ("psi_cpu", "psi_mem", "psi_io"):
        assert sorted(o[t][0]) == sorted("%s_%s_%s" % (t, kind, c) for kind in ("some", "full")
                                         for c in ("avg10", "avg60", "avg300", "total_us", "pct")), o[t]
assert objs[0]["psi_cpu"][0]["psi_cpu_some_pct"] is None
assert isinstance(objs[1]["psi_cpu"][0]["psi_cpu_some_pct"], float)
print("# json cpu:", objs[1]["psi_cpu"][0])
' "$TMP/j" && ok "--json: 2 objects, 3 tables x 10 keys, the some share null then a number" || not_ok "--json: $(head -c 300 "$TMP/j")"
