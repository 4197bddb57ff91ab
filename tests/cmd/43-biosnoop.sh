#!/usr/bin/env bash
# ptk biosnoop: fio direct randrw with a fixed number of I/Os on a loop device; the lines for
# that device match fio's reads and writes within 1%, every line's bytes == bs, comm fio; side
# by side with libbpf-tools biosnoop (or, where it cannot load, libbpf-tools biolatency's
# count); -Q queue times; clean exit on SIGINT/SIGTERM with nothing left attached.
. "$(dirname "$0")/lib.sh"
is_root || { skip "biosnoop needs root (BPF, losetup)"; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { skip "no kernel BTF"; exit 0; }
have fio && have losetup || { skip "fio or losetup not installed"; exit 0; }

LOOP="" BG=""
cleanup() { for p in $BG; do kill -INT "$p" 2>/dev/null; done; wait 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$TMP"; }
trap cleanup EXIT
truncate -s 256M "$TMP/img"
LOOP=$(losetup -f --show "$TMP/img") || { skip "no free loop device"; exit 0; }
D=$(basename "$LOOP")
echo mq-deadline > /sys/block/$D/queue/scheduler 2>/dev/null
note "loop device $LOOP ($(cat /sys/block/$D/queue/scheduler))"
# start a tracer in the background; wait until it has attached its programs (its own BPF links:
# another copy of the suite may trace the block layer meanwhile), up to 30 s
start() { "$@" & BG="$BG $!"; LAST=$!
	for _ in $(seq 300); do [ "$(bpf_links_of $LAST)" -ge 4 ] && return 0; kill -0 $LAST 2>/dev/null || return 1
		sleep 0.1; done; return 1; }
stop_all() { for p in $BG; do kill -INT "$p" 2>/dev/null; done; for p in $BG; do wait "$p"; done; BG=""; }

start "$PTK" biosnoop -d $D --json > "$TMP/bs.json" 2>"$TMP/bs.err" ||
	{ not_ok "ptk biosnoop attaches: $(cat "$TMP/bs.err")"; exit 0; }
start "$PTK" biosnoop -Q > "$TMP/bsQ.txt" 2>/dev/null
LT= LTL=
if have biosnoop; then timeout -k 5 300 biosnoop -d $D > "$TMP/lt.txt" 2>&1 & LT=$!; BG="$BG $LT"; fi
if have biolatency; then timeout -k 5 300 biolatency -d $D > "$TMP/ltl.txt" 2>&1 & LTL=$!; BG="$BG $LTL"; fi
# until each anchor says it is attached (its header, "Tracing ..."), or has given up (30 s)
for _ in $(seq 300); do
	{ [ -z "$LT" ] || grep -q "^TIME" "$TMP/lt.txt" || ! kill -0 $LT 2>/dev/null; } &&
		{ [ -z "$LTL" ] || grep -q Tracing "$TMP/ltl.txt" || ! kill -0 $LTL 2>/dev/null; } && break
	sleep 0.1
done
timeout -k 5 300 fio --name=t --filename="$LOOP" --direct=1 --ioengine=psync --size=128M --randseed=7 \
	--rw=randrw --rwmixread=50 --bs=4k --number_ios=3000 --output-format=json \
	> "$TMP/fio.json" 2>"$TMP/fio.err"
stop_all
read -r R W < <(python3 -c "import json; j=json.load(open('$TMP/fio.json'))['jobs'][0]; print(j['read']['total_ios'], j['write']['total_ios'])")
sel() { python3 -c "import json,sys
ev=[json.loads(l) for l in open('$TMP/bs.json')]; io=[e for e in ev if 'rwbs' in e and e['disk']=='$D']
print($1)"; }
N=$(sel "len(io)") NR=$(sel "sum(1 for e in io if 'R' in e['rwbs'])") NW=$(sel "sum(1 for e in io if 'W' in e['rwbs'])")
note "fio randrw 4k: $R reads + $W writes; ptk biosnoop -d $D: $N lines, $NR R, $NW W"
note "first lines: $(head -2 "$TMP/bs.json" | tr '\n' ' ')"
check "lines for $D ($N) == fio's I/Os ($((R + W))) within 1%" near_rel "$N" $((R + W)) 0.01
check "R lines ($NR) == fio's reads ($R) within 1%" near_rel "$NR" "$R" 0.01
check "W lines ($NW) == fio's writes ($W) within 1%" near_rel "$NW" "$W" 0.01
check "every line's bytes == bs (4096)" test "$(sel "sum(1 for e in io if e['bytes']!=4096)")" -eq 0
check "every line's comm is fio" test "$(sel "sum(1 for e in io if e['comm']!='fio')")" -eq 0
check "latencies are >= 0 and sectors inside the 256 MiB device" test "$(sel "sum(1 for e in io if e['lat_ms']<0 or e['sector']>=524288)")" -eq 0
check "JSON summary: no lost events" test "$(sel "[e for e in ev if 'events' in e][-1]['lost_events']")" -eq 0
# text with -Q: the libbpf-tools header and a queue time for the scheduled requests
check "text -Q header: TIME(s) COMM PID DISK T SECTOR BYTES QUE(ms) LAT(ms)" \
	grep -qE '^TIME\(s\) +COMM +PID +DISK +T +SECTOR +BYTES +QUE\(ms\) +LAT\(ms\)$' "$TMP/bsQ.txt"
QN=$(awk -v d="$D" '$4 == d && $2 == "fio" && $8 != "-"' "$TMP/bsQ.txt" | wc -l)
note "-Q: $QN of fio's lines on $D have a queue time (mq-deadline inserts every request)"
check "-Q: fio's requests on $D carry QUE(ms) ($QN within 1% of $((R + W)))" near_rel "$QN" $((R + W)) 0.01
if [ -s "$TMP/lt.txt" ] && grep -q "^TIME" "$TMP/lt.txt"; then
	L=$(awk -v d="$D" '$4 == d' "$TMP/lt.txt" | wc -l)
	note "libbpf-tools biosnoop -d $D on the same run: $L lines"
	check "ptk ($N) and libbpf-tools biosnoop ($L) agree within 1%" near_rel "$N" "$L" 0.01
else
	note "libbpf-tools biosnoop could not run here: $(grep -m1 -i "fail\|error" "$TMP/lt.txt" 2>/dev/null)"
	if [ -s "$TMP/ltl.txt" ] && grep -q -- "->" "$TMP/ltl.txt"; then
		L=$(awk '/->/ { s += $5 } END { print s + 0 }' "$TMP/ltl.txt")
		note "libbpf-tools biolatency -d $D on the same run counted $L requests"
		check "ptk biosnoop lines ($N) and libbpf-tools biolatency's count ($L) agree within 1%" near_rel "$N" "$L" 0.01
	else
		skip "neither libbpf-tools biosnoop nor biolatency ran: no side-by-side"
	fi
fi

# the three loaders (light skeleton tp_btf / raw_tp flavours, the libbpf skeleton before 5.17)
# print the same requests, with the op decoded the same way (flags mapped in the kernel)
for l in :tp_btf raw:raw_tp 0:tp_btf; do
	PTK_BPF_LSKEL=${l%%:*} start "$PTK" biosnoop -d $D --json > "$TMP/l.json" 2>"$TMP/l.err"
	timeout -k 5 300 fio --name=t --filename="$LOOP" --direct=1 --ioengine=psync --size=128M --randseed=9 \
		--rw=randrw --rwmixread=50 --bs=8k --number_ios=400 --output-format=json \
		> "$TMP/fio.json" 2>"$TMP/fio.err"
	stop_all
	read -r R W < <(python3 -c "import json; j=json.load(open('$TMP/fio.json'))['jobs'][0]; print(j['read']['total_ios'], j['write']['total_ios'])")
	res=$(python3 -c "import json
ev=[json.loads(l) for l in open('$TMP/l.json')]; io=[e for e in ev if 'rwbs' in e and e['comm']=='fio']
s=[e for e in ev if 'loader' in e][-1]
print(s['hook'], s['loader'], sum(e['rwbs'][0]=='R' for e in io), sum(e['rwbs'][0]=='W' for e in io), sum(e['bytes']!=8192 for e in io))" 2>&1)
	note "PTK_BPF_LSKEL=${l%%:*}: hook, loader, R, W, bytes != 8192: $res; fio $R reads, $W writes"
	want="light skeleton"; [ "${l%%:*}" = 0 ] && want=libbpf
	check "loader PTK_BPF_LSKEL=${l%%:*}: $want, hook ${l#*:}, fio's $R reads and $W writes, each 8192 bytes" \
		test "$res" = "${l#*:} $want $R $W 0"
done

for sig in INT TERM; do
	start "$PTK" biosnoop > "$TMP/sig.txt" 2>"$TMP/sig.err"
	ids=$(bpf_prog_ids_of $LAST | tr '\n' ' ')
	kill -$sig $LAST; wait $LAST; rc=$?; BG=""
	check "SIG$sig: exit $rc (0) after holding its block programs [$ids]" test $rc -eq 0 -a -n "$ids"
	check "SIG$sig: every program it held is gone" bpf_progs_gone $ids
	check "SIG$sig: lost events reported" grep -q "events lost" "$TMP/sig.err"
done
"$PTK" biosnoop 0.5 > /dev/null 2>&1; check "duration 0.5: stops by itself, exit 0" test $? -eq 0
"$PTK" biosnoop -d no-such-disk >/dev/null 2>&1; check "-d no-such-disk is a usage error (2)" test $? -eq 2
"$PTK" biosnoop abc >/dev/null 2>&1; check "duration abc is a usage error (2)" test $? -eq 2
