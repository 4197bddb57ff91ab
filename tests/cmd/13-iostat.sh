#!/usr/bin/env bash
# ptk iostat: side by side with sysstat iostat -x over the same window while fio loads a loop
# device of our own; fixtures for a recreated device, partitions and the %util note.
. "$(dirname "$0")/lib.sh"
# t DESC EXPR: ok when the shell expression (which may chain with &&) holds
t() { local d=$1; shift; if eval "$1"; then ok "$d"; else not_ok "$d"; fi; }

LOOP="" FIOPID=""
cleanup() {
	[ -n "$FIOPID" ] && kill "$FIOPID" 2>/dev/null && wait "$FIOPID" 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# ---- live, against sysstat, on a loop device only this test uses ------------------------
if ! have iostat; then
	skip "sysstat iostat not installed"
elif ! is_root || ! have losetup || ! have fio; then
	skip "needs root, losetup and fio to load a loop device of its own"
elif ! truncate -s 256M "$TMP/disk.img" || ! LOOP=$(losetup -f --show "$TMP/disk.img" 2>/dev/null); then
	LOOP=""
	skip "cannot set up a loop device"
else
	dev=${LOOP#/dev/}
	# A steady, rate-limited mixed load: 400 reads/s + 400 writes/s of 4 kB, queue depth 4.
	fio --name=ptk13 --filename="$LOOP" --rw=randrw --rwmixread=50 --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=4 --rate_iops=400,400 --time_based --runtime=7 \
		--size=200M >"$TMP/fio.txt" 2>&1 &
	FIOPID=$!
	sleep 1
	LC_ALL=C iostat -x 1 3 >"$TMP/sys.txt" 2>&1 &
	spid=$!
	LC_ALL=C "$PTK" iostat -x 1 3 >"$TMP/ptk.txt" 2>"$TMP/ptk.err" &
	ppid=$!
	wait $spid
	wait $ppid
	prc=$?
	wait "$FIOPID"
	FIOPID=""
	check "ptk iostat -x 1 3 exits 0" [ "$prc" -eq 0 ]
	b1=$(head -1 "$TMP/sys.txt") b2=$(head -1 "$TMP/ptk.txt")
	note "banner: $b2"
	t "banner identical to sysstat's" '[ "$b1" = "$b2" ]'
	for h in avg-cpu Device; do
		h1=$(grep -m1 "^$h" "$TMP/sys.txt") h2=$(grep -m1 "^$h" "$TMP/ptk.txt")
		note "$h header: $h2"
		t "$h header identical to sysstat's" '[ -n "$h1" ] && [ "$h1" = "$h2" ]'
	done
	# Tolerance: the two 1 s windows start a few ms apart and fio's rate limiter issues in
	# bursts, so a window shifted by d ms differs by up to the I/O of d ms at each end:
	# 10% (or a floor of 8/s, 32 kB/s, 0.05 requests, 5 points of %util) covers it.
	vals() { awk -v d="$dev" -v n="$2" '$1 == d { if (++k == n) print $2, $8, $9, $(NF-1), $NF }' "$1"; }
	for n in 2 3; do
		read -r sr sw swk saq sut < <(vals "$TMP/sys.txt" $n)
		read -r pr pw pwk paq put < <(vals "$TMP/ptk.txt" $n)
		note "report $n $dev: r/s $sr|$pr w/s $sw|$pw wkB/s $swk|$pwk aqu-sz $saq|$paq %util $sut|$put (sysstat|ptk)"
		t "report $n: r/s, w/s, wkB/s, aqu-sz, %util of $dev agree with sysstat" \
			'[ -n "${sr:-}" ] && [ -n "${pr:-}" ] && near_rel "$sr" "$pr" 0.1 8 &&
			 near_rel "$sw" "$pw" 0.1 8 && near_rel "$swk" "$pwk" 0.1 32 &&
			 near_rel "$saq" "$paq" 0.1 0.05 && near_rel "$sut" "$put" 0.1 5'
	done
	t "the load was seen: w/s of $dev > 100 in ptk's report 3 (${pw:-?})" \
		'awk -v w="${pw:-0}" "BEGIN { exit !(w > 100) }"'
	# -p ALL lists the same devices as sysstat (partitions included)
	l1=$(iostat -d -p ALL | awk 'NR > 3 && NF { print $1 }' | sort | tr '\n' ' ')
	l2=$("$PTK" iostat -d -p ALL | awk 'NR > 3 && NF { print $1 }' | sort | tr '\n' ' ')
	note "-p ALL devices: sysstat [$l1] ptk [$l2]"
	t "-p ALL lists the same devices as sysstat" '[ -n "$l1" ] && [ "$l1" = "$l2" ]'
	losetup -d "$LOOP"
	LOOP=""
fi

# ---- a counter that went back: sda's writes 50000 -> 12 while its reads grew ------------
# Not a recreated device (sysstat's test: its requests went back and each sector count went
# back or was zero): the write counter is implausible, its values unknown, the reads stand.
FX=$FIX/iostat_reset
"$PTK" iostat -x -y --procfs "$FX" 1 1 >"$TMP/r.txt" 2>"$TMP/r.err"
check "reset fixture exits 0" [ $? -eq 0 ]
col() { awk -v d="$2" -v c="$3" 'NR == 1 { next } /^Device/ { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$1 == d && (c in h) { print $h[c] }' "$1"; }
note "sda after the drop: w/s $(col "$TMP/r.txt" sda w/s) wkB/s $(col "$TMP/r.txt" sda wkB/s) r/s $(col "$TMP/r.txt" sda r/s)"
t "sda's writes went back alone: w/s and wkB/s unknown (-), never a wrapped value; r/s 50" \
	'[ "$(col "$TMP/r.txt" sda w/s)" = "-" ] && [ "$(col "$TMP/r.txt" sda wkB/s)" = "-" ] &&
	 [ "$(col "$TMP/r.txt" sda r/s)" = "50.00" ]'
got="$(col "$TMP/r.txt" sdb r/s) $(col "$TMP/r.txt" sdb rkB/s) $(col "$TMP/r.txt" sdb r_await) $(col "$TMP/r.txt" sdb w/s) $(col "$TMP/r.txt" sdb wkB/s) $(col "$TMP/r.txt" sdb aqu-sz) $(col "$TMP/r.txt" sdb %util)"
note "sdb (by hand: 50 reads, 400 sectors, 50 ms, 100 writes, 800 sectors, 100 ms queue, 500 ms busy in 2 s): $got"
t "healthy sdb: r/s 25, rkB/s 100, r_await 1, w/s 50, wkB/s 200, aqu-sz 0.05, %util 25" \
	'[ "$got" = "25.00 100.00 1.00 50.00 200.00 0.05 25.00" ]'
"$PTK" iostat -d -y --procfs "$FX" 1 1 >"$TMP/rb.txt" 2>&1
note "basic: $(grep '^sda' "$TMP/rb.txt")"
t "basic report: sda's kB_wrtn and kB_wrtn/s unknown, kB_read 4000" \
	'[ "$(col "$TMP/rb.txt" sda kB_wrtn)" = "-" ] && [ "$(col "$TMP/rb.txt" sda kB_wrtn/s)" = "-" ] &&
	 [ "$(col "$TMP/rb.txt" sda kB_read)" = "4000" ]'

# ---- partitions, and the %util note on a non-rotational device -------------------------
FX=$FIX/iostat_parts
devs() { "$PTK" iostat -d -y --procfs "$FX" "$@" 1 1 | awk '/^Device/ { on = 1; next } on && NF && !/^note/ { print $1 }' | tr '\n' ' '; }
d0=$(devs) d1=$(devs -p ALL) d2=$(devs -p sda) d3=$(devs sdb)
note "no -p: [$d0]  -p ALL: [$d1]  -p sda: [$d2]  sdb named: [$d3]"
t "partitions hidden without -p; never-used sdb hidden" '[ "$d0" = "nvme0n1 sda " ]'
t "-p ALL shows every device and partition" '[ "$d1" = "nvme0n1 nvme0n1p1 sda sda1 sda2 sdb " ]'
t "-p sda shows sda and its partitions only" '[ "$d2" = "sda sda1 sda2 " ]'
t "a named device is shown even if never used" '[ "$d3" = "sdb " ]'
"$PTK" iostat -x -d -y --procfs "$FX" 1 1 >"$TMP/n.txt" 2>&1
note "$(grep '^note' "$TMP/n.txt")"
t "-x: one note line after the table for nvme0n1 at 95% util (non-rotational), none for sda" \
	'[ "$(grep -c "^note:" "$TMP/n.txt")" -eq 1 ] && grep -q "^note: %util >= 90 on nvme0n1 (non-rotational)" "$TMP/n.txt" &&
	 grep "^note:" "$TMP/n.txt" | grep -q "aqu-sz and r_await/w_await"'
t "no note without -x" '! "$PTK" iostat -d -y --procfs "$FX" 1 1 | grep -q "^note"'

# ---- JSON ------------------------------------------------------------------------------
if have python3; then
	out=$("$PTK" iostat -x -y --json --procfs "$FX" 1 1 | python3 -c '
import json, sys
o = [json.loads(l) for l in sys.stdin]
d = {r["device"]: r for r in o[0]["devices"]}
print(len(o), ",".join(sorted(o[0]["avg_cpu"])), d["nvme0n1"]["util_pct"], d["nvme0n1"]["r_s"], len(o[0]["notes"]))' 2>&1)
	note "fixture json: $out"
	t "--json: one object, avg_cpu, devices, notes" \
		'[ "$out" = "1 idle_pct,iowait_pct,nice_pct,steal_pct,system_pct,user_pct 95.0 10000.0 1" ]'
	out=$("$PTK" iostat -x --json 1 2 | python3 -c '
import json, sys
o = [json.loads(l) for l in sys.stdin]
print(len(o), o[0]["since_boot"], o[1]["since_boot"], all("devices" in x and "avg_cpu" in x for x in o))' 2>&1)
	note "live json: $out"
	t "--json live: since-boot object then an interval object, each with avg_cpu and devices" \
		'[ "$out" = "2 True False True" ]'
else
	skip "python3 not installed (JSON checks)"
fi

# ---- usage ----------------------------------------------------------------------------
"$PTK" iostat -k -m >"$TMP/o" 2>"$TMP/e"
rc=$?
note "-k -m: exit $rc: $(cat "$TMP/e")"
t "-k with -m is a usage error: exit 2, one line" '[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && [ ! -s "$TMP/o" ]'
