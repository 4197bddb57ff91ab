#!/usr/bin/env bash
# ptk capture: snapshot trees of the live machine, replayed by the other commands.
. "$(dirname "$0")/lib.sh"

D=$TMP/cap
"$PTK" capture "$D" 0.5 3 2>"$TMP/err"
rc=$?
while IFS= read -r l; do note "stderr: $l"; done <"$TMP/err"
check "ptk capture DIR 0.5 3 exits 0" test $rc -eq 0
check "one stderr line per snapshot" test "$(grep -c "^ptk capture: $D/[0-2]: " "$TMP/err")" -eq 3
check "snapshots 0 1 2, no temporary directory left" \
	test "$(cd "$D" && ls -A | tr '\n' ' ')" = "0 1 2 "

# Files every snapshot must hold, with content.
need="stat loadavg uptime meminfo vmstat diskstats net/dev net/snmp net/netstat
sys/devices/system/cpu/online"
for r in cpu memory io; do
	if cat /proc/pressure/$r >/dev/null 2>&1; then need="$need pressure/$r"; fi
done
for b in /sys/block/*; do need="$need sys/block/${b##*/}/queue/rotational"; done
for s in /sys/class/net/*/speed; do
	if cat "$s" >/dev/null 2>&1; then need="$need sys/${s#/sys/}"; fi
done
if dd if=/dev/kmsg of=/dev/null bs=8192 count=1 iflag=nonblock 2>/dev/null; then need="$need kmsg"; fi
missing=
for n in 0 1 2; do
	for f in $need; do [ -s "$D/$n/$f" ] || missing="$missing $n/$f"; done
done
note "checked per snapshot: $need"
check "every file present and non-empty (missing:${missing:- none})" test -z "$missing"

# block devices: a directory for each, an empty partition marker exactly where sysfs has one
bad=
for b in /sys/class/block/*; do
	name=${b##*/}
	[ -d "$D/0/sys/class/block/$name" ] || bad="$bad $name(dir)"
	if [ -e "$b/partition" ]; then
		[ -f "$D/0/sys/class/block/$name/partition" ] || bad="$bad $name(marker)"
	else
		[ ! -e "$D/0/sys/class/block/$name/partition" ] || bad="$bad $name(extra)"
	fi
done
check "class/block dirs and partition markers match sysfs (${bad:-ok})" test -z "$bad"

# processes: this shell is there, byte for byte where the content is stable
check "this shell's stat, status, statm, wchan, cmdline captured" \
	test -s "$D/0/$$/stat" -a -s "$D/0/$$/status" -a -s "$D/0/$$/statm" -a -f "$D/0/$$/wchan" \
	-a -f "$D/0/$$/cmdline"
# (procfs/sysfs report sizes 0/4096: cmp -s would trust them, so read through a pipe)
check "cmdline copied byte for byte" cmp -s "$D/0/$$/cmdline" <(cat /proc/$$/cmdline)
check "online CPU list copied byte for byte" \
	cmp -s "$D/0/sys/devices/system/cpu/online" <(cat /sys/devices/system/cpu/online)
check "thread directory of this shell (task/$$/stat)" test -s "$D/0/$$/task/$$/stat"
nproc0=$(find "$D/0" -maxdepth 1 -name '[0-9]*' | wc -l)
note "processes in snapshot 0: $nproc0 (live now: $(find /proc -maxdepth 1 -name '[0-9]*' | wc -l))"
check "process table captured (>= 5 processes)" test "$nproc0" -ge 5
if is_root; then
	check "kmsg records in 'pri,seq,ts,flags;text' form, one per line" \
		awk -F';' '!/^[0-9]+,[0-9]+,[0-9]+,[^;]*;/ { bad++ } END { exit !(NR > 0 && !bad) }' \
		"$D/0/kmsg"
else
	skip "kmsg needs root (CAP_SYSLOG) here"
fi
u=$(for n in 0 1 2; do awk '{ printf "%s ", $1 }' "$D/$n/uptime"; done)
note "snapshot uptimes: $u"
check "uptime grows from snapshot to snapshot" awk -v u="$u" 'BEGIN { split(u, a, " ");
	exit !(a[2] > a[1] && a[3] > a[2]) }'

# ---- replay -------------------------------------------------------------------------------
out=$("$PTK" uptime --procfs "$D" 2>&1)
rc=$?
note "ptk uptime --procfs: $out"
la=$(awk '{ printf "%s, %s, %s", $1, $2, $3 }' "$D/0/loadavg")
check "ptk uptime --procfs DIR exits 0 and shows snapshot 0's load ($la)" \
	test $rc -eq 0 -a -n "$(grep -F "load average: $la" <<<"$out")"

out=$("$PTK" nicstat --procfs "$D" 1 2>&1)
rc=$?
while IFS= read -r l; do note "  $l"; done <<<"$out"
check "ptk nicstat replays the 3 snapshots (3 lo rows)" \
	test $rc -eq 0 -a "$(awk '$2 == "lo"' <<<"$out" | wc -l)" -eq 3

# Replay each monitor over the tree. Sets $out.
replay() {
	local name=$1 rc
	out=$("$PTK" "$name" --procfs "$D" 1 2>&1)
	rc=$?
	while IFS= read -r l; do note "  $name: $l"; done <<<"$out"
	check "ptk $name --procfs DIR 1 runs through the snapshots (exit $rc)" test $rc -eq 0
}
if replay vmstat; then
	rows=$(awk '$1 ~ /^[0-9]+$/ && NF > 10' <<<"$out" | wc -l)
	check "vmstat: one row per snapshot ($rows)" test "$rows" -eq 3
fi
if replay mpstat; then
	rows=$(grep -c ' all ' <<<"$out")
	check "mpstat: a report for each of the 2 intervals ($rows 'all' rows)" test "$rows" -ge 2
fi
if replay iostat; then
	rows=$(grep -c '^Device' <<<"$out")
	check "iostat: 3 device reports, the first since boot ($rows)" test "$rows" -eq 3
fi

# ---- refusals and usage -----------------------------------------------------------------
e=$("$PTK" capture "$D" 2>&1)
rc=$?
note "second capture into $D: $e"
check "refuses a DIR that already holds snapshots: exit 1, one line" \
	test $rc -eq 1 -a "$(wc -l <<<"$e")" -eq 1
check "... and leaves it untouched" test "$(cd "$D" && ls -A | tr '\n' ' ')" = "0 1 2 "
"$PTK" capture >/dev/null 2>&1
check "missing DIR exits 2" test $? -eq 2
"$PTK" capture "$TMP/x" 0 >/dev/null 2>&1
check "interval 0 exits 2" test $? -eq 2
"$PTK" capture --procfs "$D" "$TMP/y" >/dev/null 2>&1
check "capturing from a snapshot tree exits 1" test $? -eq 1
