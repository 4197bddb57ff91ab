#!/usr/bin/env bash
# ptk blktrace: 64 direct 4 KiB writes to a loop device, next to bpftrace counting the same
# block tracepoints of that device over the same window: per action (Q G I D C) the same
# counts, 64 each, and btt's table with N = 64 for Q2G, G2I, I2D, D2C and Q2C. blktrace(8)
# with blkparse and btt is used where it runs (here debugfs refuses its relay files:
# skipped with its message).
. "$(dirname "$0")/lib.sh"
is_root || { skip "blktrace needs root (BPF, losetup)"; exit 0; }
have losetup || { skip "losetup missing"; exit 0; }
truncate -s 64M "$TMP/img"
LOOP=$(losetup -f --show "$TMP/img") || { skip "no free loop device"; exit 0; }
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; losetup -d "$LOOP"; rm -rf "$TMP"; }
trap cleanup EXIT
DEV=$(($(stat -c '0x%t' "$LOOP") << 20 | $(stat -c '0x%T' "$LOOP")))
"$PTK" blktrace -d "$LOOP" -w 8 > "$TMP/p.txt" 2> "$TMP/p.err" & A=$!; PIDS+=($A)
if have bpftrace; then
	timeout -k 5 30 bpftrace -e "
tracepoint:block:block_bio_queue /args->dev == $DEV/ { @[\"Q\"] = count(); }
tracepoint:block:block_getrq /args->dev == $DEV/ { @[\"G\"] = count(); }
tracepoint:block:block_rq_insert /args->dev == $DEV/ { @[\"I\"] = count(); }
tracepoint:block:block_rq_issue /args->dev == $DEV/ { @[\"D\"] = count(); }
tracepoint:block:block_rq_complete /args->dev == $DEV/ { @[\"C\"] = count(); }
interval:s:8 { exit(); }" > "$TMP/bt.txt" 2> "$TMP/bt.err" & BT=$!; PIDS+=($BT)
fi
sleep 3 # both attached (8 s windows)
dd if=/dev/zero of="$LOOP" bs=4k count=64 oflag=direct 2> /dev/null
wait $A; rc=$?
[ -n "${BT:-}" ] && wait $BT
cnt() { awk -v a="$1" '$6 == a && $1 ~ /^[0-9]+,[0-9]+$/ { n++ } END { print n + 0 }' "$TMP/p.txt"; }
ours="Q $(cnt Q) G $(cnt G) I $(cnt I) D $(cnt D) C $(cnt C)"
note "ptk blktrace (exit $rc): $ours"
check_all "blktrace: the 64 writes queued, got, inserted, issued and completed" \
	'[ $rc -eq 0 ] && [ "$ours" = "Q 64 G 64 I 64 D 64 C 64" ]'
check "blktrace: blkparse's notation (dev cpu seq time pid action rwbs sector + n [comm])" \
	grep -qE '^ +[0-9]+,[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{9} +[0-9]+ +Q +WS? [0-9]+ \+ 8 \[dd\]$' "$TMP/p.txt"
if [ -n "${BT:-}" ]; then
	theirs=$(for a in Q G I D C; do echo -n "$a $(sed -n "s/^@\[$a\]: //p" "$TMP/bt.txt") "; done | sed 's/ $//')
	note "bpftrace on the same tracepoints: $theirs"
	check "blktrace: per action the counts bpftrace has" [ "$ours" = "$theirs" ]
else
	skip "bpftrace not installed: no side-by-side"
fi
btt=$(awk '$1 ~ /^(Q2G|G2I|I2D|D2C|Q2C)$/ { printf "%s %s ", $1, $5 }' "$TMP/p.txt" | sed 's/ $//')
note "btt table: $btt"
check "blktrace: btt's table, N = 64 for each stage" [ "$btt" = "Q2G 64 G2I 64 I2D 64 D2C 64 Q2C 64" ]
q2c=$(awk '$1 == "Q2C" { print $2 " " $3 " " $4 }' "$TMP/p.txt")
check_all "blktrace: Q2C min <= avg <= max, in seconds ($q2c)" \
	'read -r mn av mx <<<"$q2c"; awk -v a="$mn" -v b="$av" -v c="$mx" "BEGIN { exit !(a > 0 && a <= b && b <= c && c < 10) }"'
if have blktrace && have blkparse; then
	timeout -k 5 20 blktrace -d "$LOOP" -w 1 -o "$TMP/bt" > "$TMP/bk.err" 2>&1
	if [ -s "$TMP/bt.blktrace.0" ]; then
		skip "blktrace(8) runs here but this test has no blkparse/btt side-by-side yet"
	else
		skip "blktrace(8) cannot trace here: $(grep -m1 -i 'failed\|error\|not mounted' "$TMP/bk.err" || head -1 "$TMP/bk.err")"
	fi
else
	skip "blktrace, blkparse not installed"
fi
for args in "-d /nonexistent -w 1" "-w x" "-a nosuch -w 1"; do
	"$PTK" blktrace $args > /dev/null 2> "$TMP/e.err"; rc=$?
	note "ptk blktrace $args -> exit $rc: $(head -1 "$TMP/e.err")"
	check "ptk blktrace $args: an error in one line" test $rc -ne 0 -a "$(wc -l < "$TMP/e.err")" -le 2
done
echo "1..$T_N"
