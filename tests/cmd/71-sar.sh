#!/usr/bin/env bash
# ptk sar: 30 s recorded at 1 s against sysstat sar run live over the same window; headers
# of every report against sar's; live mode; JSON/CSV; damaged archives; time zones.
. "$(dirname "$0")/lib.sh"

if ! have sar; then skip "sysstat sar not installed"; exit 0; fi
if ! have sqlite3; then skip "sqlite3 CLI not installed"; exit 0; fi
export LC_ALL=C
DB=$TMP/s.db

# load for part of the window so the numbers are not all idle
( exec -a ptkburn71 bash -c 'end=$((SECONDS+12)); while [ $SECONDS -lt $end ]; do :; done' ) &
"$PTK" record -i 1 -c 31 --db "$DB" 2>/dev/null & REC=$!
sar -u 1 30 > "$TMP/sar.txt" & SAR=$!
wait $REC; rc=$?
wait $SAR
check "record 31 samples at 1 s: exit 0" test $rc -eq 0
"$PTK" sar -u --db "$DB" > "$TMP/ptk.txt"; rc=$?
check "ptk sar -u: exit 0" test $rc -eq 0
sed 's/^/# ptk: /' "$TMP/ptk.txt" | sed -n '1,4p;$p'
sed 's/^/# sar: /' "$TMP/sar.txt" | sed -n '1,4p;$p'
rows=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] *all ' "$TMP/ptk.txt")
check "30 rows ($rows)" test "$rows" -eq 30
check "an Average line" grep -q '^Average: *all ' "$TMP/ptk.txt"
check "header as sar's" test "$(sed -n 3p "$TMP/ptk.txt" | cut -c12-)" = "$(sed -n 3p "$TMP/sar.txt" | cut -c12-)"
pa=$(grep '^Average:' "$TMP/ptk.txt"); sa=$(grep '^Average:' "$TMP/sar.txt")
note "ptk $pa"; note "sar $sa"
for col in 3 5 6 8; do
	name=$(sed -n 3p "$TMP/sar.txt" | awk -v c=$col '{print $c}')
	a=$(echo "$pa" | awk -v c=$col '{print $c}'); b=$(echo "$sa" | awk -v c=$col '{print $c}')
	check "Average $name: ptk $a vs sar $b within 2 points" near "$a" "$b" 2
done

# headers of every report against sysstat's (live sar, one interval)
for o in "-u ALL" "-P ALL" "-r" "-b" "-d" "-n DEV" "-n TCP" "-n ETCP" "-q" "-w" "-W" "-B"; do
	want=$(sar $o 1 1 2>/dev/null | sed -n 3p | cut -c12- | tr -s ' ')
	got=$("$PTK" sar $o --db "$DB" 2>/dev/null | sed -n 3p | cut -c12- | tr -s ' ')
	[ "$want" = "$got" ] && ok "sar $o header: $got" || { not_ok "sar $o header"; note "want '$want'"; note "got  '$got'"; }
done
want=$(sar -q ALL 1 1 | grep -m1 '%scpu-10' | cut -c12- | tr -s ' ')
got=$("$PTK" sar --psi --db "$DB" | grep -m1 '%scpu-10' | cut -c12- | tr -s ' ')
check "--psi CPU header as sar -q CPU: $got" test "$want" = "$got"
"$PTK" sar -q --db "$DB" > "$TMP/q.txt"
check "-q: runq-sz excludes the reader, plist-sz = nr_threads of the last sample" \
	test "$(grep -v Average "$TMP/q.txt" | tail -1 | awk '{print $3}')" = "$(sqlite3 "$DB" 'select nr_threads from sample order by id desc limit 1')"
"$PTK" sar -r --db "$DB" > "$TMP/r.txt"
read -r tot fr bu ca sl <<<"$(sqlite3 -separator ' ' "$DB" 'select mem_total, mem_free, buffers, cached, slab from sample order by id desc limit 1')"
check "-r kbmemused = MemTotal - MemFree - Buffers - Cached - Slab = $((tot - fr - bu - ca - sl))" \
	test "$(grep -v Average "$TMP/r.txt" | tail -1 | awk '{print $4}')" = "$((tot - fr - bu - ca - sl))"
"$PTK" sar -w --db "$DB" > "$TMP/w.txt"
read -r c0 c1 t0 t1 <<<"$(sqlite3 -separator ' ' "$DB" 'select (select ctxt from sample order by id limit 1), (select ctxt from sample order by id desc limit 1), (select uptime_cs from sample order by id limit 1), (select uptime_cs from sample order by id desc limit 1)')"
avg=$(awk -v a=$c0 -v b=$c1 -v s=$t0 -v e=$t1 'BEGIN { printf "%.2f", (b - a) / ((e - s) / 100) }')
check "-w Average cswch/s = (ctxt last - first) / uptime span = $avg" test "$(grep Average "$TMP/w.txt" | awk '{print $3}')" = "$avg"

# -s/-e: a sub-window
t5=$(sqlite3 "$DB" 'select t_ms/1000 from sample order by id limit 1 offset 5')
t15=$(sqlite3 "$DB" 'select t_ms/1000 from sample order by id limit 1 offset 15')
sub=$("$PTK" sar -u --db "$DB" -s "$(date -d @$t5 +%H:%M:%S)" -e "$(date -d @$t15 +%H:%M:%S)" | grep -c '^[0-9].* all ')
check "-s/-e over samples 5..15: 10 rows ($sub)" test "$sub" -eq 10

# JSON and CSV
"$PTK" sar -u -r --db "$DB" --json > "$TMP/j.json"
check "--json: 30 interval objects + Average, each with cpu and memory" python3 -c "
import json,sys
L=[json.loads(l) for l in open('$TMP/j.json')]
assert len(L)==31, len(L)
assert all('cpu' in o and 'memory' in o for o in L)
assert L[-1]['timestamp']=='Average'
assert abs(L[-1]['cpu'][0]['idle_pct'] - float('$(echo "$pa" | awk '{print $8}')'))<0.011
"
"$PTK" sar -u --db "$DB" --csv > "$TMP/c.csv"
check "--csv: header + 30 rows + Average" test "$(head -1 "$TMP/c.csv"),$(grep -c '^20' "$TMP/c.csv"),$(grep -c '^Average' "$TMP/c.csv")" = "time,CPU,%user,%nice,%system,%iowait,%steal,%idle,30,1"

# live, as sar does
"$PTK" sar -u 1 3 > "$TMP/live.txt"; rc=$?
check "live 'ptk sar -u 1 3': exit 0, 3 rows and Average" test $rc -eq 0 -a "$(grep -c '^[0-9].* all ' "$TMP/live.txt")" -eq 3 -a "$(grep -c '^Average' "$TMP/live.txt")" -eq 1

# damaged archives: what can be read, one error line, never a crash
sz=$(stat -c %s "$DB"); note "archive: $sz bytes"
# cut the last two pages (in a 30-sample archive the sample rows sit in its last third)
cp "$DB" "$TMP/trunc.db"; truncate -s $((sz - 8192)) "$TMP/trunc.db"
"$PTK" sar -u --db "$TMP/trunc.db" > "$TMP/t.out" 2> "$TMP/t.err"; rc=$?
note "truncated: exit $rc, $(grep -c '^[0-9].* all ' "$TMP/t.out") rows, stderr: $(head -c 300 "$TMP/t.err")"
check "truncated archive: exit 1 (no crash), one error line" test $rc -eq 1 -a "$(wc -l < "$TMP/t.err")" -eq 1
check "truncated archive: the readable samples are printed" test "$(grep -c '^[0-9].* all ' "$TMP/t.out")" -ge 1
# overwrite pages chosen by what they hold (dbstat), so every run damages the same thing:
# the last leaf of the sample table and the first leaf of the counters table
pg_sample=$(sqlite3 "$DB" "SELECT max(pageno) FROM dbstat WHERE name='sample' AND pagetype='leaf'")
pg_cpu=$(sqlite3 "$DB" "SELECT min(pageno) FROM dbstat WHERE name='counters' AND pagetype='leaf'")
pg_schema=$(sqlite3 "$DB" "SELECT max(pageno) FROM dbstat WHERE name='sqlite_schema'")
note "pages: sample leaf $pg_sample, counters leaf $pg_cpu, schema $pg_schema"
if [ -z "$pg_sample" ] || [ -z "$pg_cpu" ] || [ -z "$pg_schema" ]; then
	skip "this sqlite3 has no dbstat table: cannot pick the pages to damage"
else
cp "$DB" "$TMP/dd.db"
dd if=/dev/urandom of="$TMP/dd.db" bs=4096 seek=$((pg_sample - 1)) count=1 conv=notrunc 2>/dev/null
"$PTK" sar -u --db "$TMP/dd.db" > "$TMP/d.out" 2> "$TMP/d.err"; rc=$?
note "overwritten sample page: exit $rc, $(grep -c '^[0-9].* all ' "$TMP/d.out") rows, stderr: $(head -c 300 "$TMP/d.err")"
check "overwritten sample page: exit 1, one error line naming the damage" test $rc -eq 1 -a "$(wc -l < "$TMP/d.err")" -eq 1 -a "$(grep -c 'damaged: database disk image is malformed' "$TMP/d.err")" -eq 1
check "overwritten sample page: the samples before it still printed" test "$(grep -c '^[0-9].* all ' "$TMP/d.out")" -ge 1
cp "$DB" "$TMP/dd.db"
dd if=/dev/urandom of="$TMP/dd.db" bs=4096 seek=$((pg_cpu - 1)) count=1 conv=notrunc 2>/dev/null
"$PTK" sar -u -r --db "$TMP/dd.db" > "$TMP/d.out" 2> "$TMP/d.err"; rc=$?
note "overwritten counters page: exit $rc, stderr: $(head -c 300 "$TMP/d.err")"
# a sample is read whole: one whose counters (CPU, disk, net) are lost is skipped and counted
check "overwritten counters page: exit 1 (no crash), one error line counting the unreadable samples" test $rc -eq 1 -a "$(wc -l < "$TMP/d.err")" -eq 1 -a "$(grep -Ec ': [1-9][0-9]* of 31 listed samples unreadable' "$TMP/d.err")" -eq 1
cp "$DB" "$TMP/dd.db"
dd if=/dev/urandom of="$TMP/dd.db" bs=4096 seek=$((pg_schema - 1)) count=1 conv=notrunc 2>/dev/null
"$PTK" sar -u --db "$TMP/dd.db" > "$TMP/d.out" 2> "$TMP/d.err"; rc=$?
note "overwritten schema page: exit $rc, stderr: $(head -c 300 "$TMP/d.err")"
check "overwritten schema page: exit 1 (no crash), one error line" test $rc -eq 1 -a "$(wc -l < "$TMP/d.err")" -eq 1
fi
printf 'not a database at all, just text\n%.0s' $(seq 200) > "$TMP/junk.db"
"$PTK" sar --db "$TMP/junk.db" > /dev/null 2> "$TMP/j.err"; rc=$?
check "not an archive: exit 1, one error line" test $rc -eq 1 -a "$(wc -l < "$TMP/j.err")" -eq 1
"$PTK" sar --db "$TMP/none.db" 2> "$TMP/n.err"; rc=$?
check "missing archive: exit 1, one error line" test $rc -eq 1 -a "$(wc -l < "$TMP/n.err")" -eq 1

# impossible values (issue 12: an edited archive printed pgfree/s 1.86e19,
# kbcached 9223372036854775808, "(-1 CPU)"): unknown, one warning naming each sample
cp "$DB" "$TMP/bad.db"
ids=($(sqlite3 "$TMP/bad.db" 'select id from sample order by id'))
k1=${ids[5]} k2=${ids[10]} k3=${ids[15]} k4=${ids[20]}
sqlite3 "$TMP/bad.db" "update sample set pgfree = -5 where id = $k1;
	update sample set ctxt = 9223372036854775808 where id = $k2;
	update sample set cached = mem_total + 1000 where id = $k3;
	update sample set pgfault = pgfault + 1152921504606846976 where id = $k4;
	update meta set value = '-1' where key = 'ncpu'"
"$PTK" sar -B -w -r --db "$TMP/bad.db" >"$TMP/bad.out" 2>"$TMP/bad.err"; rc=$?
while read -r l; do note "$l"; done <"$TMP/bad.err"
# the column of NAME in the block whose header has it: its values in the interval rows
colvals() {
	awk -v n="$1" '$1 ~ /^[0-9][0-9]:/ && !have { for (i = 2; i <= NF; i++) if ($i == n) c = i; if (c) have = 1; next }
		have && NF == 0 { exit } have && $1 ~ /^[0-9][0-9]:/ { print $c }' "$TMP/bad.out"
}
unknown() { colvals "$1" | grep -c '^-$'; }
check "edited archive: exit 0 (warnings only)" test $rc -eq 0
check "pgfree -5 in sample $k1: pgfree/s unknown in the 2 intervals around it ($(unknown pgfree/s))" \
	test "$(unknown pgfree/s)" -eq 2
check "ctxt beyond 2^63 in sample $k2: cswch/s unknown in the 2 intervals around it ($(unknown cswch/s))" \
	test "$(unknown cswch/s)" -eq 2
check "cached above MemTotal in sample $k3: kbcached and kbmemused unknown there ($(unknown kbcached), $(unknown kbmemused))" \
	test "$(unknown kbcached)" -eq 1 -a "$(unknown kbmemused)" -eq 1
check "pgfault jumped by 2^60 in sample $k4: fault/s unknown in the 2 intervals around it ($(unknown fault/s))" \
	test "$(unknown fault/s)" -eq 2
big=$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.e+]+$/ && $i + 0 > 1e15) print $i }' "$TMP/bad.out" | head -3)
check "no value beyond 1e15 printed (${big:-none})" test -z "$big"
check "banner: the CPUs of the first sample, not -1 ($(head -1 "$TMP/bad.out" | grep -o '([^)]*CPU)'))" \
	grep -q "($(sqlite3 "$DB" 'select value from meta where key="ncpu"') CPU)\$" <(head -1 "$TMP/bad.out")
for k in $k1:"pgfree -5 (negative)" $k2:"ctxt 9.22337203685478e+18 (beyond 2^63)" \
	$k3:"cached .* (above mem_total " $k4:"fault/s .* (a rate beyond 2^53)"; do
	check "one warning naming sample ${k%%:*}: ${k#*:}" \
		test "$(grep -c "warning: sample ${k%%:*} at .*: impossible values shown as unknown: ${k#*:}" "$TMP/bad.err")" -eq 1
done
check "5 warning lines: the 4 samples and meta ncpu ($(wc -l <"$TMP/bad.err"))" \
	test "$(wc -l <"$TMP/bad.err")" -eq 5 -a "$(grep -c "meta ncpu '-1' is impossible" "$TMP/bad.err")" -eq 1
"$PTK" sar -B -w -r --db "$TMP/bad.db" --json >"$TMP/bad.json" 2>/dev/null
check "--json: the same values null" python3 -c "
import json
L = [json.loads(l) for l in open('$TMP/bad.json')]
n = sum(1 for o in L[:-1] for r in o['paging'] if r['pgfree_s'] is None)
m = sum(1 for o in L[:-1] for r in o['memory'] if r['kbcached'] is None)
assert (n, m) == (2, 1), (n, m)"

# read-only use creates nothing beside the archive and needs no write access (issue 12: as
# nobody, a world-readable archive in a root-owned directory gave "attempt to write a
# readonly database"; as root, sar left -wal and -shm files beside it)
t0=$(sqlite3 "$DB" 'select t_ms/1000 from sample order by id limit 1')
t3=$(sqlite3 "$DB" 'select t_ms/1000.0 from sample order by id limit 1 offset 3')
sidecars() { ls "$1"-wal "$1"-shm 2>/dev/null | wc -l; }
"$PTK" sar -u --db "$DB" >/dev/null 2>&1
"$PTK" top -b -n 1 --at "@$t3" --db "$DB" >/dev/null 2>&1
"$PTK" check --at "@$t0" -d 2 --db "$DB" >/dev/null 2>&1
check "as root: sar --db, top --at, check --at leave no -wal/-shm beside it ($(sidecars "$DB"))" \
	test "$(sidecars "$DB")" -eq 0
if is_root && have setpriv; then
	RO=$(mktemp -d /tmp/ptk-ro.XXXXXX) # root-owned, 755: others read, cannot write
	trap 'rm -rf "$TMP" "$RO"' EXIT
	chmod 755 "$RO"
	cp "$DB" "$RO/a.db"
	chmod 644 "$RO/a.db"
	nobody() { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
	nobody "$PTK" sar -u --db "$RO/a.db" >"$TMP/ro.out" 2>"$TMP/ro.err"; rc=$?
	check "as nobody, archive 644 in a root-owned 755 directory: sar exit 0, 30 rows, the same Average ($(head -c 100 "$TMP/ro.err"))" \
		test $rc -eq 0 -a "$(grep -c '^[0-9].* all ' "$TMP/ro.out")" -eq 30 -a "$(grep '^Average' "$TMP/ro.out")" = "$pa"
	nobody "$PTK" top -b -n 1 --at "@$t3" --db "$RO/a.db" >"$TMP/ro.out" 2>"$TMP/ro.err"; rc=$?
	check "as nobody: top -b --at exit 0 ($(head -c 100 "$TMP/ro.err"))" test $rc -eq 0 -a -s "$TMP/ro.out"
	nobody "$PTK" check --at "@$t0" -d 2 --db "$RO/a.db" --json >"$TMP/ro.out" 2>"$TMP/ro.err"; rc=$?
	check "as nobody: check --at exit 0 ($(head -c 100 "$TMP/ro.err"))" test $rc -eq 0 -a -s "$TMP/ro.out"
	check "nothing created beside it ($(ls "$RO" | tr '\n' ' '))" test "$(ls "$RO")" = a.db
	# while a recorder writes it (WAL and -shm beside it, owned by root): nobody reads the
	# samples still in the WAL through them
	"$PTK" record -i 0.5 -c 12 --db "$RO/live.db" 2>/dev/null &
	rec=$!
	sleep 3
	n_root=$(sqlite3 "$RO/live.db" 'select count(*) from sample')
	nobody "$PTK" sar -u --db "$RO/live.db" >"$TMP/ro.out" 2>"$TMP/ro.err"; rc=$?
	n=$(grep -c '^[0-9].* all ' "$TMP/ro.out")
	note "while recording: root's sqlite3 sees $n_root samples, nobody's sar $n rows (-wal: $(stat -c %s "$RO/live.db-wal" 2>/dev/null) bytes)"
	check "as nobody, during recording: sar exit 0 and reads the samples in the WAL ($n rows >= $n_root - 1)" \
		test $rc -eq 0 -a "$n" -ge $((n_root - 1)) -a "$n_root" -ge 3
	wait $rec
	check "after the recorder: nothing left beside its archive ($(ls "$RO" | tr '\n' ' '))" \
		test "$(ls "$RO" | tr '\n' ' ')" = "a.db live.db "
else
	skip "read-only use by another user needs root and setpriv"
fi

# time zones (sysstat#331): recorded under one TZ, read under another, times agree
DBZ=$TMP/z.db
TZ=America/New_York "$PTK" record -i 0.5 -c 3 --db "$DBZ" 2>/dev/null
t=$(sqlite3 "$DBZ" 'select t_ms/1000 from sample order by id desc limit 1')
want=$(TZ=Asia/Tokyo date -d @$t +%H:%M:%S)
got=$(TZ=Asia/Tokyo "$PTK" sar -u --db "$DBZ" --from @0 | grep ' all ' | grep -v Average | tail -1 | awk '{print $1}')
check "recorded in New York, read in Tokyo: last row at $want Tokyo time ($got)" test "$want" = "$got"
got=$(TZ=Asia/Tokyo "$PTK" sar -u --db "$DBZ" --from @0 --utc | grep ' all ' | grep -v Average | tail -1 | awk '{print $1}')
check "--utc: $(date -u -d @$t +%H:%M:%S) ($got)" test "$(date -u -d @$t +%H:%M:%S)" = "$got"
got=$(TZ=Asia/Tokyo "$PTK" sar -u --db "$DBZ" --from @0 --iso | grep ' all ' | grep -v Average | tail -1 | awk '{print $1}')
check "--iso carries the offset: $(TZ=Asia/Tokyo date -d @$t +%Y-%m-%dT%H:%M:%S+09:00) ($got)" test "$(TZ=Asia/Tokyo date -d @$t +%Y-%m-%dT%H:%M:%S+09:00)" = "$got"

# an archive outlives the ptk that wrote it: a version 1 file (one table each for cpu, disk, net
# and snmp; recorded by ptk at b5b3528, 4 samples) reads back exactly as that ptk printed it
V1=$FIX/archive-v1
cp "$V1/ptk.db" "$TMP/v1.db"
while read -r f o; do
	TZ=UTC "$PTK" sar $o --db "$TMP/v1.db" > "$TMP/v1.out" 2>&1
	check "version 1 archive: ptk sar $o prints what the ptk that recorded it printed ($(grep -c . "$V1/$f") lines)" \
		cmp -s "$TMP/v1.out" "$V1/$f"
done < "$V1/sar-options"
TZ=UTC "$PTK" top -b -n 1 --at @"$(cat "$V1/at")" --db "$TMP/v1.db" > "$TMP/v1.out" 2>&1
check "version 1 archive: top -b --at the third sample is the same table" cmp -s "$TMP/v1.out" "$V1/top.txt"
"$PTK" record -i 1 -c 1 --db "$TMP/v1.db" 2> "$TMP/v1.err"; rc=$?
note "record into it: exit $rc: $(cat "$TMP/v1.err")"
check "record does not append to it (exit 1, one line), and it still reads the same" \
	test $rc -eq 1 -a "$(wc -l < "$TMP/v1.err")" -eq 1 -a "$(sha256sum < "$TMP/v1.db")" = "$(sha256sum < "$V1/ptk.db")"
