#!/usr/bin/env bash
# ptk uptime next to procps uptime, and on a fixture.
. "$(dirname "$0")/lib.sh"

a=$(timeout -k 5 30 uptime); p=$("$PTK" uptime); b=$(timeout -k 5 30 uptime)
note "uptime: $a"; note "ptk:    $(echo "$p" | head -1)"
la() { echo "$1" | sed 's/.*load average: //'; }
if [ "$(la "$a")" = "$(la "$(echo "$p" | head -1)")" ] || [ "$(la "$b")" = "$(la "$(echo "$p" | head -1)")" ]; then
	ok "load averages equal procps uptime's"
else
	not_ok "load averages equal procps uptime's"
fi
up() { echo "$1" | sed 's/^ *[0-9:]* up \(.*\),  *[0-9]* users\?,.*/\1/'; }
check "up time text equals procps uptime's ($(up "$(echo "$p" | head -1)"))" test "$(up "$a")" = "$(up "$(echo "$p" | head -1)")" -o "$(up "$b")" = "$(up "$(echo "$p" | head -1)")"
check "one line by default, as procps (scripts read one)" test "$(echo "$p" | wc -l)" -eq 1
p0=$("$PTK" uptime); pt=$("$PTK" uptime -t); p1=$("$PTK" uptime)
check "-t: a second line names R and D tasks" grep -q "running (R), .* in D state (.* blocked on I/O)" <<<"$(echo "$pt" | sed -n 2p)"
# (the kernel updates the load averages every 5 s: one of the runs on either side agrees)
lt=$(la "$(echo "$pt" | head -1)")
check "-t: two lines, the first with the load averages ($lt)" test "$(echo "$pt" | wc -l)" -eq 2 -a \( "$lt" = "$(la "$p0")" -o "$lt" = "$(la "$p1")" \)

# -p on fixtures of chosen uptimes, through a bind mount for procps: byte-identical, the
# unit boundaries included (procps prints "up " at 60 s and "60 minutes" at 3600 s)
if is_root && have uptime && unshare -m true 2>/dev/null; then
	mkdir -p "$TMP/p"
	cp /proc/loadavg "$TMP/p/"
	nd=0
	for u in 0.5 59 60 60.5 3599 3600 3600.5 3661 86400 86400.3 90061 604800 694861 \
		31536000 31622400 32000000 315360000 315360001 400000000 1000000000; do
		echo "$u 0.00" >"$TMP/p/uptime"
		a=$(unshare -m sh -c "mount --bind '$TMP/p/uptime' /proc/uptime && timeout -k 5 60 uptime -p")
		b=$("$PTK" uptime -p --procfs "$TMP/p")
		[ "$a" = "$b" ] || { nd=$((nd + 1)); note "uptime -p at $u s: procps '$a', ptk '$b'"; }
	done
	check "-p: 20 uptimes byte-identical to procps uptime -p" test "$nd" -eq 0
else
	skip "uptime -p fixtures need root, procps uptime and unshare -m"
fi
a=$(timeout -k 5 60 uptime -p); b=$("$PTK" uptime -p); c=$(timeout -k 5 60 uptime -p)
check "-p live: '$b' as procps" test "$b" = "$a" -o "$b" = "$c"
# -s: whole seconds of now less whole seconds of the uptime, as procps; the two runs can fall
# on either side of a second
a=$(date -d "$(timeout -k 5 60 uptime -s)" +%s); b=$(date -d "$("$PTK" uptime -s)" +%s)
note "uptime -s: procps $(timeout -k 5 60 uptime -s), ptk $("$PTK" uptime -s)"
check "-s within 1 s of procps uptime -s" near "$a" "$b" 1
"$PTK" uptime -V | grep -q "^ptk uptime " && ok "-V prints the version" || not_ok "-V"
for bad in "-p -s" "-x" "extra"; do
	"$PTK" uptime $bad >"$TMP/o" 2>"$TMP/e"
	rc=$?
	check "uptime $bad: exit 2, one line: $(cat "$TMP/e")" test $rc -eq 2 -a "$(wc -l <"$TMP/e")" -eq 1 -a ! -s "$TMP/o"
done

# the kernel updates the averages every 5 s: they equal one of the reads around ptk's
read -r a1 a5 a15 rest < /proc/loadavg
"$PTK" uptime --json > "$TMP/u.json"
read -r b1 b5 b15 rest < /proc/loadavg
check "JSON load1/5/15 equal /proc/loadavg read before ($a1 $a5 $a15) or after ($b1 $b5 $b15)" python3 -c "import json; d=json.load(open('$TMP/u.json'))['uptime']; l=(d['load1'], d['load5'], d['load15'])
assert d['uptime_s'] > 0 and any(all(abs(x - y) <= 0.005 for x, y in zip(l, w)) for w in (($a1, $a5, $a15), ($b1, $b5, $b15))), d"

mkdir -p "$TMP/f"
echo "90061.50 1000.00" > "$TMP/f/uptime"
echo "12.50 6.25 3.00 9/400 1234" > "$TMP/f/loadavg"
printf 'cpu  1 0 1 1 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\nprocs_running 9\nprocs_blocked 7\nbtime 1700000000\n' > "$TMP/f/stat"
out=$("$PTK" uptime -t --procfs "$TMP/f")
note "$out"
check "fixture: 1 day, 1:01 up, load 12.50 6.25 3.00" grep -q "up 1 day,  1:01,  load average: 12.50, 6.25, 3.00" <<<"$out"
# R: loadavg's 9 without the reader, as sar's runq-sz
check "fixture: 8 running besides the reader, 7 blocked on I/O, 400 threads" grep -q "8 running (R), .* in D state (7 blocked on I/O), 400 threads" <<<"$out"
"$PTK" uptime --procfs "$TMP/f" --json | python3 -c "import json,sys; d=json.load(sys.stdin)['uptime']; assert d['users'] is None and d['procs_blocked']==7" && ok "fixture JSON: users null (not live), procs_blocked 7" || not_ok "fixture JSON: users null (not live), procs_blocked 7"
# D tasks outside I/O wait: writers blocked on a frozen filesystem (procs_blocked misses them)
if is_root && have mkfs.ext4 && have fsfreeze && have losetup; then
	truncate -s 32M "$TMP/fs.img"; mkfs.ext4 -q -F "$TMP/fs.img"
	LOOP=$(losetup -f --show "$TMP/fs.img"); mkdir -p "$TMP/mnt"; mount "$LOOP" "$TMP/mnt"
	fsfreeze -f "$TMP/mnt"
	for i in 1 2 3; do (exec dd if=/dev/zero of="$TMP/mnt/f$i" bs=4k count=1 conv=fsync 2>/dev/null) & done
	# until the three are blocked (a busy machine takes its time to start them), up to 20 s
	for _ in $(seq 200); do
		[ "$(pgrep -P $$ -x dd | xargs -r -I{} awk '{ print $3 }' /proc/{}/stat 2>/dev/null | grep -c D)" -ge 3 ] && break
		sleep 0.1
	done
	d=$("$PTK" uptime --json | python3 -c "import json,sys; print(json.load(sys.stdin)['uptime']['dstate_tasks'])")
	fsfreeze -u "$TMP/mnt"; wait; umount "$TMP/mnt"; losetup -d "$LOOP"
	check "3 writers blocked on a frozen fs count as D tasks (saw $d)" test "$d" -ge 3
else
	skip "D-state check needs root, mkfs.ext4, fsfreeze and losetup"
fi
"$PTK" uptime --bogus >/dev/null 2>&1; check "bad option exits 2" test $? -eq 2
