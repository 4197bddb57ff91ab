#!/usr/bin/env bash
# The archive's cgroup series: a CPU burner in a real cgroup (v1 cpu, cpuacct and pids, and
# the v2 tree at /sys/fs/cgroup/unified when mounted) under a quota of 0.2 CPU is recorded by
# `ptk record`; `ptk sar --cgroups` reports it at about 20% of a CPU, throttled in most CFS
# periods as the kernel's own cpu.stat counts them over the recording, with interval and
# Average rows; `ptk check --at` names it as throttled from the recorded samples, `ptk top
# --at` filters and groups the recorded tasks by their cgroup; an archive without cgroups
# (version 1) still reads and says it has none.
# timing-sensitive: the burner's share depends on the CFS bandwidth timer (bounded loosely)
. "$(dirname "$0")/lib.sh"

if ! is_root; then skip "needs root to make cgroups"; exit 0; fi
if [ ! -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	skip "no v1 cpu controller at /sys/fs/cgroup/cpu (this test builds the hybrid layout's cgroup)"
	exit 0
fi
if ! have sqlite3; then skip "sqlite3 CLI not installed"; exit 0; fi

CGT=ptk-rectest-$$
CGS=()
BURN=
cleanup() {
	[ -n "$BURN" ] && kill "$BURN" 2>/dev/null
	for d in "${CGS[@]}"; do xargs -r kill -9 < "$d/cgroup.procs" 2>/dev/null; done
	wait 2>/dev/null
	for d in "${CGS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do rmdir "$d" 2>/dev/null && break; [ -d "$d" ] || break; sleep 0.2; done
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
for c in cpu cpuacct pids unified; do
	[ "$c" = unified ] && [ ! -f /sys/fs/cgroup/unified/cgroup.controllers ] && continue
	[ -d /sys/fs/cgroup/$c ] || continue
	mkdir "/sys/fs/cgroup/$c/$CGT" && CGS+=("/sys/fs/cgroup/$c/$CGT")
done
CPU=/sys/fs/cgroup/cpu/$CGT
echo 100000 > "$CPU/cpu.cfs_period_us"
echo 20000 > "$CPU/cpu.cfs_quota_us"
( for d in "${CGS[@]}"; do echo $BASHPID > "$d/cgroup.procs"; done
  exec -a ptkburn75 bash -c 'while :; do :; done' ) &
BURN=$!
sleep 1
DB=$TMP/cg.db
read -r p0 t0 < <(awk '/^nr_periods/ { p = $2 } /^nr_throttled/ { t = $2 } END { print p, t }' "$CPU/cpu.stat")
"$PTK" record -i 1 -c 6 --processes 30 --db "$DB" 2>"$TMP/rec.err"; rc=$?
read -r p1 t1 < <(awk '/^nr_periods/ { p = $2 } /^nr_throttled/ { t = $2 } END { print p, t }' "$CPU/cpu.stat")
check "record: exit 0, no message" test $rc -eq 0 -a ! -s "$TMP/rec.err"
check "every sample has its cgroups row" test "$(sqlite3 "$DB" 'select count(*) from cgroups c join sample s on s.id=c.sample_id')" = 6
check "the cgroup's path is in cgpath" test "$(sqlite3 "$DB" "select count(*) from cgpath where path='/$CGT'")" = 1

"$PTK" sar --db "$DB" --cgroups="/$CGT" > "$TMP/sar.txt" 2>"$TMP/sar.err"; rc=$?
sed 's/^/# /' "$TMP/sar.txt" | head -8
check "sar --cgroups: exit 0, no message" test $rc -eq 0 -a ! -s "$TMP/sar.err"
check "a header per interval, with sysstat-style columns and the path last" test "$(grep -c '%cpu  quota    %thr  thrs/s .* cgroup$' "$TMP/sar.txt")" = 6
check "a row per interval for the cgroup" test "$(grep -v '^Average' "$TMP/sar.txt" | awk -v p="/$CGT" '$NF == p' | wc -l)" = 5
avg=$(awk -v p="/$CGT" '$1 == "Average:" && $NF == p' "$TMP/sar.txt")
note "Average: $avg"
cpu=$(echo "$avg" | awk '{ print $2 }') quota=$(echo "$avg" | awk '{ print $3 }') thr=$(echo "$avg" | awk '{ print $4 }')
check "Average %cpu near the 20% quota ($cpu)" awk -v x="${cpu:-0}" 'BEGIN { exit !(x > 14 && x < 23) }'
check "quota 0.20 CPUs ($quota)" test "$quota" = 0.20
# the kernel's own count: cpu.stat nr_throttled / nr_periods over the recording
want=$(awk -v a="$p0" -v b="$p1" -v c="$t0" -v d="$t1" 'BEGIN { if (b > a) printf "%.1f", 100 * (d - c) / (b - a) }')
check "Average %thr $thr near cpu.stat's share of periods throttled over the recording ($want%)" near "${thr:-0}" "${want:-x}" 10
check "throttled in most periods" awk -v x="${thr:-0}" 'BEGIN { exit !(x > 50) }'
every=$("$PTK" sar --db "$DB" --cgroups | awk '$1 == "Average:" && $NF == "/"' | wc -l)
check "without PATH, every stored cgroup: the root too" test "$every" = 1
"$PTK" sar --db "$DB" --cgroups=/ptk-none-$$ > "$TMP/none.txt"; rc=$?
check "a PATH with no cgroup: headers, no rows, exit 0" test $rc -eq 0 -a "$(grep -vc -e '^$' -e '%cpu' -e '^Linux' "$TMP/none.txt")" = 0

# check --at: the per-cgroup rules on the recorded samples
t1s=$(sqlite3 "$DB" 'select t_ms/1000.0 from sample order by id limit 1 offset 1')
"$PTK" check --at "@$t1s" --db "$DB" -d 4 --json > "$TMP/check.json" 2>"$TMP/check.err"; rc=$?
check "check --at: exit 0" test $rc -eq 0
check "check --at names the cgroup as throttled at its quota" python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
c = [x for x in d['resources'] if x['resource'] == 'cgroup' and x['device'] == sys.argv[2]]
print('#', c and (c[0]['verdict'], c[0]['evidence'][:1]))
sys.exit(0 if c and c[0]['verdict'] in ('warning', 'critical') and any('throttled in' in e and '0.20 CPUs' in e for e in c[0]['evidence']) else 1)" "$TMP/check.json" "/$CGT"
"$PTK" check --at "@$t1s" --db "$DB" -d 4 > "$TMP/check.txt" 2>/dev/null
check "check --at text: its cgroup row" grep -q "^cgroup /$CGT .*Quota 0.20 CPUs" "$TMP/check.txt"

# top --at: the recorded tasks' cgroups (their /proc/PID/cgroup at the sample)
check "the burner's task row has its cgroup" test "$(sqlite3 "$DB" "select count(*) from proc p join task t on t.id=p.task join cgpath c on c.id=p.cgroup where t.pid=$BURN and c.path like '%/$CGT'")" -ge 5
"$PTK" top -b -n 1 --at "@$t1s" --db "$DB" --cgroup "/$CGT" > "$TMP/top.txt" 2>&1; rc=$?
rows=$(awk '/^ *PID /{ h = 1; next } h && NF' "$TMP/top.txt")
note "top --at --cgroup /$CGT: $rows"
check "top --at --cgroup: exit 0, the burner alone" test $rc -eq 0 -a "$(echo "$rows" | awk '{ print $1 }' | tr '\n' ' ')" = "$BURN "
"$PTK" top -b -n 1 --at "@$t1s" --db "$DB" --group-by cgroup > "$TMP/grp.txt" 2>&1
check "top --at --group-by cgroup: its group, one task, near 20%" awk -v p="/$CGT" '$1 == p && $2 == 1 && $3 > 14 && $3 < 23 { f = 1 } END { exit !f }' "$TMP/grp.txt"

# an archive before version 5: reads as before, and has no cgroups
V1=$FIX/archive-v1/ptk.db
"$PTK" sar -f "$V1" -s 00:00 -u > /dev/null 2>&1; rc_u=$?
"$PTK" sar -f "$V1" -s 00:00 --cgroups > "$TMP/v1.txt" 2>"$TMP/v1.err"; rc=$?
check "a version-1 archive: -u still reads (exit $rc_u)" test $rc_u -eq 0
check "a version-1 archive: --cgroups says it has none, exit 1" test $rc -eq 1 -a "$(grep -c 'no two consecutive samples with cgroups' "$TMP/v1.err")" = 1
