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
	timeout -k 5 60 fio --name=ptk13 --filename="$LOOP" --rw=randrw --rwmixread=50 --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=4 --rate_iops=400,400 --time_based --runtime=14 \
		--size=200M >"$TMP/fio.txt" 2>&1 &
	FIOPID=$!
	sleep 1
	# one pair at a time, each pair side by side over the same 1 s windows
	LC_ALL=C timeout -k 5 60 iostat -x 1 3 >"$TMP/sys.txt" 2>&1 &
	spid=$!
	LC_ALL=C "$PTK" iostat -x 1 3 >"$TMP/ptk.txt" 2>"$TMP/ptk.err" &
	ppid=$!
	wait $spid
	wait $ppid
	prc=$?
	LC_ALL=C timeout -k 5 60 iostat -d "$dev" 1 3 >"$TMP/sysd.txt" 2>&1 &
	spid=$!
	LC_ALL=C "$PTK" iostat -d "$dev" 1 3 >"$TMP/ptkd.txt" 2>&1
	wait $spid
	LC_ALL=C timeout -k 5 60 iostat -dxs "$dev" 1 3 >"$TMP/sysxs.txt" 2>&1 &
	spid=$!
	LC_ALL=C "$PTK" iostat -dxs "$dev" 1 3 >"$TMP/ptkxs.txt" 2>&1
	wait $spid
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
	# Tolerance: the two tools' 1 s windows start some ms apart and fio's rate limiter issues
	# in bursts (catching up after a stall on a busy machine), so one window can hold a
	# burst the other's neighbour holds: compare the mean of reports 2 and 3 (the same 2 s
	# but for the ends), within 10% (or a floor of 8/s, 32 kB/s, 0.05 requests, 5 points of
	# %util, 0.3 ms).
	# mean N1 N2 FILE COL...: the mean over reports 2 and 3 of $dev's columns (awk fields)
	mean() { awk -v d="$dev" -v cols="$2" '$1 == d { k++; if (k >= 2 && k <= 3) { n = split(cols, c, " ");
		for (i = 1; i <= n; i++) s[i] += $c[i] } } END { for (i = 1; i <= n; i++) printf "%.2f ", s[i] / 2; print "" }' "$1"; }
	read -r sr sw swk saq sut < <(mean "$TMP/sys.txt" "2 8 9 22 23")
	read -r pr pw pwk paq put < <(mean "$TMP/ptk.txt" "2 8 9 22 23")
	note "-x reports 2-3 $dev: r/s $sr|$pr w/s $sw|$pw wkB/s $swk|$pwk aqu-sz $saq|$paq %util $sut|$put (sysstat|ptk)"
	t "-x: r/s, w/s, wkB/s, aqu-sz, %util of $dev agree with sysstat" \
		'[ -n "${sr:-}" ] && [ -n "${pr:-}" ] && near_rel "$sr" "$pr" 0.1 8 &&
		 near_rel "$sw" "$pw" 0.1 8 && near_rel "$swk" "$pwk" 0.1 32 &&
		 near_rel "$saq" "$paq" 0.1 0.05 && near_rel "$sut" "$put" 0.1 5'
	t "the load was seen: w/s of $dev > 100 in ptk's reports (${pw:-?})" \
		'awk -v w="${pw:-0}" "BEGIN { exit !(w > 100) }"'
	# the basic report (tps kB_read/s kB_wrtn/s) and -xs (tps kB/s await)
	read -r st sr sw < <(mean "$TMP/sysd.txt" "2 3 4")
	read -r pt pr pw2 < <(mean "$TMP/ptkd.txt" "2 3 4")
	note "-d reports 2-3 $dev: tps $st|$pt kB_read/s $sr|$pr kB_wrtn/s $sw|$pw2 (sysstat|ptk)"
	t "-d: tps, kB_read/s, kB_wrtn/s of $dev agree with sysstat" \
		'[ -n "${st:-}" ] && [ -n "${pt:-}" ] && near_rel "$st" "$pt" 0.1 16 &&
		 near_rel "$sr" "$pr" 0.1 32 && near_rel "$sw" "$pw2" 0.1 32'
	read -r st sk sa < <(mean "$TMP/sysxs.txt" "2 3 5")
	read -r pt pk pa < <(mean "$TMP/ptkxs.txt" "2 3 5")
	note "-dxs reports 2-3 $dev: tps $st|$pt kB/s $sk|$pk await $sa|$pa (sysstat|ptk)"
	t "-dxs: tps, kB/s, await of $dev agree with sysstat" \
		'[ -n "${st:-}" ] && [ -n "${pt:-}" ] && near_rel "$st" "$pt" 0.1 16 &&
		 near_rel "$sk" "$pk" 0.1 64 && near_rel "$sa" "$pa" 0.3 0.3'
	for f in sysd ptkd sysxs ptkxs; do sed -n 3p "$TMP/$f.txt" >"$TMP/$f.h"; done
	t "-d and -dxs headers identical to sysstat's" \
		'cmp -s "$TMP/sysd.h" "$TMP/ptkd.h" && cmp -s "$TMP/sysxs.h" "$TMP/ptkxs.h"'
	# -p ALL lists the same devices as sysstat (partitions included)
	l1=$(timeout -k 5 30 iostat -d -p ALL | awk 'NR > 3 && NF { print $1 }' | sort | tr '\n' ' ')
	l2=$("$PTK" iostat -d -p ALL | awk 'NR > 3 && NF { print $1 }' | sort | tr '\n' ' ')
	note "-p ALL devices: sysstat [$l1] ptk [$l2]"
	t "-p ALL lists the same devices as sysstat" '[ -n "$l1" ] && [ "$l1" = "$l2" ]'
	losetup -d "$LOOP"
	LOOP=""
fi

# ---- every option's layout against sysstat's, live ---------------------------------------
# The two run a moment apart, so values of busy devices differ: compare what does not move --
# the banner, headers, device names and order, the shape of each line -- and, for the devices
# whose since-boot totals sysstat printed the same before and after ptk ran, the totals.
if ! have iostat; then
	skip "sysstat iostat not installed (option layouts)"
else
	d1=$(LC_ALL=C timeout -k 5 60 iostat -d | awk 'NR > 3 && NF { print $1; exit }')
	d2=$(LC_ALL=C timeout -k 5 60 iostat -d ALL | awk 'NR > 3 && NF && $1 != "'"$d1"'" { print $1; exit }')
	shape() { # lines as "name nfields", numbers left out; the banner and headers as they are
		awk 'NR == 1 || /^(Device|avg-cpu| +(tps|r\/s|w\/s|d\/s|f\/s))/ { print; next }
			NF { printf "%s %d\n", ($1 ~ /^[0-9.,%kMGTB-]+$/ ? "#" : $1), NF; next } { print "" }' "$1"
	}
	bad="" n=0
	for o in "" "-x" "-s" "-xs" "-c" "-d -p ALL" "-x -p ALL" "-s -p ALL" "-k" "-m" "-z" "-kz -p ALL" \
		"-h" "--human" "--pretty" "-x --pretty" "-x --pretty --compact" "-dh -p ALL" \
		"--dec=0" "--dec=1 -x" "-N" "-dN -p ALL" "ALL" "-x ALL" "-s ALL" "-p $d1" "-x -p $d1" \
		"$d1 $d2" "-x $d2 $d1" "-g grp $d1 $d2" "-dH -g grp $d1 $d2" "-g a $d1 -g b $d2" \
		"-d -g total ALL" "-d -g total -p ALL" "-dx -g total -p ALL"; do
		LC_ALL=C timeout -k 5 60 iostat $o >"$TMP/s.txt" 2>&1
		LC_ALL=C "$PTK" iostat $o >"$TMP/p.txt" 2>&1
		n=$((n + 1))
		# -g with ALL: sysstat lists in directory order, ptk by name (ptk-iostat(1))
		srt=cat
		case "$o" in *-g*ALL) srt="sort" ;; esac
		cmp -s <(shape "$TMP/s.txt" | $srt) <(shape "$TMP/p.txt" | $srt) || bad="$bad [$o]"
	done
	for e in POSIXLY_CORRECT=1 S_TIME_FORMAT=ISO; do
		for o in "-d" "-x" "-xs" "-ct"; do
			env LC_ALL=C "$e" iostat $o >"$TMP/s.txt" 2>&1
			env LC_ALL=C "$e" "$PTK" iostat $o >"$TMP/p.txt" 2>&1
			n=$((n + 1))
			cmp -s <(shape "$TMP/s.txt" | sed 's/[0-9][0-9]:[0-9][0-9]:[0-9][0-9][^ ]*//') \
				<(shape "$TMP/p.txt" | sed 's/[0-9][0-9]:[0-9][0-9]:[0-9][0-9][^ ]*//') ||
				bad="$bad [$e $o]"
		done
	done
	note "$n option sets, layouts differing: ${bad:-none}"
	t "each option set prints sysstat's banner, headers, devices and line shapes" '[ -z "$bad" ]'
	# since-boot totals (kB_read kB_wrtn kB_dscd) of every device that did not move meanwhile
	tot() { awk 'NR > 3 && NF == 8 { print $1, $6, $7, $8 }' "$1" | sort; }
	LC_ALL=C timeout -k 5 60 iostat -d -p ALL >"$TMP/t1.txt"
	LC_ALL=C "$PTK" iostat -d -p ALL >"$TMP/tp.txt"
	LC_ALL=C timeout -k 5 60 iostat -d -p ALL >"$TMP/t2.txt"
	join <(tot "$TMP/t1.txt") <(tot "$TMP/t2.txt") | awk '$2 == $5 && $3 == $6 && $4 == $7 { print $1, $2, $3, $4 }' >"$TMP/still"
	join "$TMP/still" <(tot "$TMP/tp.txt") | awk '$2 != $5 || $3 != $6 || $4 != $7' >"$TMP/tdiff"
	note "-p ALL: $(wc -l <"$TMP/still") devices still; totals differing: $(tr '\n' ';' <"$TMP/tdiff")"
	t "-p ALL: since-boot kB totals identical to sysstat's for every device that did not move" \
		'[ -s "$TMP/still" ] && [ ! -s "$TMP/tdiff" ]'
	# -o JSON: the same keys, in sysstat's layout
	keys() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["sysstat"]["hosts"][0]
s = d["statistics"][0]
print(sorted(d), sorted(s), sorted(s.get("avg-cpu", {})), sorted(s["disk"][0]) if s.get("disk") else [])' "$1" 2>&1; }
	jbad=""
	for o in "-x" "-d" "-xs" "-dm" "-c" "-t -x"; do
		LC_ALL=C timeout -k 5 60 iostat -o JSON $o >"$TMP/s.json" 2>&1
		LC_ALL=C "$PTK" iostat -o JSON $o >"$TMP/p.json" 2>&1
		[ "$(keys "$TMP/s.json")" = "$(keys "$TMP/p.json")" ] || jbad="$jbad [$o]"
	done
	note "-o JSON keys differing: ${jbad:-none}"
	t "-o JSON: valid JSON with sysstat's keys (-x -d -xs -dm -c -t)" '[ -z "$jbad" ]'
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

# ---- /sys/block stat files: a recreated device, one that appears, a counter back alone -----
# tests/fixtures/iostat_sysfs, 2 s apart; the values by hand in tests/unit/test_disk.c
FX=$FIX/iostat_sysfs
"$PTK" iostat -x --procfs "$FX" 1 3 >"$TMP/f.txt" 2>"$TMP/f.err"
check "sysfs fixture exits 0" [ $? -eq 0 ]
hdr='Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util'
t "-x: sysstat's 22 columns in every report, whatever counters the devices' lines have" \
	'[ "$(grep -c "^Device" "$TMP/f.txt")" -eq 3 ] && [ "$(grep "^Device" "$TMP/f.txt" | sort -u)" = "$hdr" ]'
rep() { awk -v n="$2" -v d="$3" '/^Device/ { k++; for (i = 1; i <= NF; i++) h[$i] = i; next }
	k == n && $1 == d { print $h["r/s"], $h["rkB/s"], $h["w/s"], $h["d/s"], $h["f/s"], $h["f_await"], $h["w_await"] }' "$1"; }
note "report 2: sdb [$(rep "$TMP/f.txt" 2 sdb)] sdc [$(rep "$TMP/f.txt" 2 sdc)]; report 3: sda [$(rep "$TMP/f.txt" 3 sda)]"
t "recreated sdb counts from zero: r/s 15, rkB/s 60, w/s 5; its kernel lacks discards and flushes: 0.00 as sysstat" \
	'[ "$(rep "$TMP/f.txt" 2 sdb)" = "15.00 60.00 5.00 0.00 0.00 0.00 0.50" ]'
t "sdc appeared: its I/O since then (r/s 10, f/s 2, f_await 2), not '-'" \
	'[ "$(rep "$TMP/f.txt" 2 sdc)" = "10.00 40.00 0.00 0.00 2.00 2.00 0.00" ]'
t "sda's writes went back alone: w/s and w_await '-', the rest stands (r/s 100)" \
	'[ "$(rep "$TMP/f.txt" 3 sda)" = "100.00 400.00 - 0.00 0.00 0.00 -" ]'
note "stderr: $(cat "$TMP/f.err")"
t "one warning, naming the file and the field" \
	'[ "$(wc -l <"$TMP/f.err")" -eq 1 ] &&
	 grep -q "iostat_sysfs/2/sys/block/sda/stat: sda: wr_ios went back from 2400 to 2300" "$TMP/f.err"'
if have python3; then
	out=$("$PTK" iostat -x --json --procfs "$FX" 1 3 2>/dev/null | python3 -c '
import json, sys
o = [json.loads(l) for l in sys.stdin]
d = {r["device"]: r for r in o[1]["devices"]}
e = {r["device"]: r for r in o[2]["devices"]}
print(d["sdb"]["d_s"], d["sdb"]["f_s"], d["sdc"]["f_s"], e["sda"]["w_s"], e["sda"]["r_s"])' 2>&1)
	note "--json: sdb d_s f_s, sdc f_s, sda w_s r_s: $out"
	t "--json: what the kernel's line lacks is null, the counter that went back null" \
		'[ "$out" = "None None 2.0 None 100.0" ]'
	out=$("$PTK" iostat -o JSON -x --procfs "$FX" 1 3 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)["sysstat"]["hosts"][0]["statistics"]
d = {r["disk_device"]: r for r in s[2]["disk"]}
print(len(s), d["sda"]["w/s"], d["sdb"]["f/s"])' 2>&1)
	note "-o JSON: reports, sda w/s, sdb f/s: $out"
	t "-o JSON: 3 reports, the unknown null, the lacking counter 0.00" '[ "$out" = "3 None 0.0" ]'
fi
"$PTK" iostat -d -p ALL --procfs "$FX" 1 2 >"$TMP/fa.txt" 2>&1
t "-p ALL reads /proc/diskstats: sda1 listed, in its order" \
	'[ "$(awk "/^Device/ { on = 1; next } on && NF { printf \"%s \", \$1 }" "$TMP/fa.txt")" = "sda sda1 sdb sda sda1 sdb sdc " ]'

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
