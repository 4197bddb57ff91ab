#!/usr/bin/env bash
# ptk uptime next to procps uptime, and on a fixture.
. "$(dirname "$0")/lib.sh"

a=$(uptime); p=$("$PTK" uptime); b=$(uptime)
note "uptime: $a"; note "ptk:    $(echo "$p" | head -1)"
la() { echo "$1" | sed 's/.*load average: //'; }
if [ "$(la "$a")" = "$(la "$(echo "$p" | head -1)")" ] || [ "$(la "$b")" = "$(la "$(echo "$p" | head -1)")" ]; then
	ok "load averages equal procps uptime's"
else
	not_ok "load averages equal procps uptime's"
fi
up() { echo "$1" | sed 's/^ *[0-9:]* up \(.*\),  *[0-9]* users\?,.*/\1/'; }
check "up time text equals procps uptime's ($(up "$(echo "$p" | head -1)"))" test "$(up "$a")" = "$(up "$(echo "$p" | head -1)")" -o "$(up "$b")" = "$(up "$(echo "$p" | head -1)")"
check "second line names R and D tasks" grep -q "running (R), .* in D state (.* blocked on I/O)" <<<"$p"

"$PTK" uptime --json > "$TMP/u.json"
read -r l1 l5 l15 rest < /proc/loadavg
check "JSON load1/5/15 equal /proc/loadavg" python3 -c "import json; d=json.load(open('$TMP/u.json'))['uptime']; assert abs(d['load1']-$l1)<=0.01 and abs(d['load15']-$l15)<=0.01 and d['uptime_s']>0, d"

mkdir -p "$TMP/f"
echo "90061.50 1000.00" > "$TMP/f/uptime"
echo "12.50 6.25 3.00 9/400 1234" > "$TMP/f/loadavg"
printf 'cpu  1 0 1 1 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\nprocs_running 9\nprocs_blocked 7\nbtime 1700000000\n' > "$TMP/f/stat"
out=$("$PTK" uptime --procfs "$TMP/f")
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
	sleep 1
	d=$("$PTK" uptime --json | python3 -c "import json,sys; print(json.load(sys.stdin)['uptime']['dstate_tasks'])")
	fsfreeze -u "$TMP/mnt"; wait; umount "$TMP/mnt"; losetup -d "$LOOP"
	check "3 writers blocked on a frozen fs count as D tasks (saw $d)" test "$d" -ge 3
else
	skip "D-state check needs root, mkfs.ext4, fsfreeze and losetup"
fi
"$PTK" uptime --bogus >/dev/null 2>&1; check "bad option exits 2" test $? -eq 2
