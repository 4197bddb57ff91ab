#!/usr/bin/env bash
# ptk biolatency: fio direct I/O with a fixed number of I/Os on a loop device; the histogram
# total equals fio's completed I/Os and libbpf-tools biolatency's count on the same run;
# --stages Q2D/D2C/Q2C totals are consistent; -D names the loop device; clean exit on
# SIGINT/SIGTERM with nothing left attached.
. "$(dirname "$0")/lib.sh"
is_root || { skip "biolatency needs root (BPF, losetup)"; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { skip "no kernel BTF"; exit 0; }
have fio && have losetup || { skip "fio or losetup not installed"; exit 0; }

LOOP="" BG=""
cleanup() { for p in $BG; do kill -INT "$p" 2>/dev/null; done; wait 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$TMP"; }
trap cleanup EXIT
truncate -s 256M "$TMP/img"
LOOP=$(losetup -f --show "$TMP/img") || { skip "no free loop device"; exit 0; }
D=$(basename "$LOOP")
note "loop device $LOOP backed by $TMP/img"
# start a tracer in the background; wait until its programs are attached
# start a tracer in the background; wait until it has attached its programs (its own BPF links:
# another copy of the suite may trace the block layer meanwhile), up to 30 s
start() { "$@" & BG="$BG $!"; LAST=$!
	for _ in $(seq 300); do [ "$(bpf_links_of $LAST)" -ge 4 ] && return 0; kill -0 $LAST 2>/dev/null || return 1
		sleep 0.1; done; return 1; }
stop_all() { for p in $BG; do kill -INT "$p" 2>/dev/null; done; for p in $BG; do wait "$p"; done; BG=""; }
fio_run() { timeout -k 5 300 fio --name=t --filename="$LOOP" --direct=1 --ioengine=psync --size=128M \
	--randseed=42 "$@" --output-format=json > "$TMP/fio.json" 2>"$TMP/fio.err"; }
fio_ios() { python3 -c "import json; j=json.load(open('$TMP/fio.json'))['jobs'][0]; print(j['read']['total_ios']+j['write']['total_ios'])"; }
# total of a libbpf-tools histogram section (text) for one disk, or the only one
lt_total() { awk '/->/ { s += $5 } END { print s + 0 }' "$1"; }

# 1. scheduler "none": requests are issued directly (no block_rq_insert)
echo none > /sys/block/$D/queue/scheduler 2>/dev/null
start "$PTK" biolatency -d $D --json > "$TMP/bl.json" 2>"$TMP/bl.err" ||
	{ not_ok "ptk biolatency attaches: $(cat "$TMP/bl.err")"; exit 0; }
start "$PTK" biolatency -D > "$TMP/blD.txt" 2>/dev/null
# libbpf-tools biolatency says "Tracing ..." once attached
have biolatency && { timeout -k 5 300 biolatency -d $D > "$TMP/lt.txt" 2>&1 & BG="$BG $!"; wait_file "$TMP/lt.txt" Tracing; }
fio_run --rw=randread --bs=4k --number_ios=2000
IOS=$(fio_ios)
stop_all
py() { python3 -c "import json,sys; d=[json.loads(l) for l in open(sys.argv[1])][-1]; sys.exit(0 if ($2) else 1)" "$1"; }
get() { python3 -c "import json,sys; d=[json.loads(l) for l in open(sys.argv[1])][-1]; print($2)" "$1"; }
N=$(get "$TMP/bl.json" "sum(h['hist']['total'] for h in d['histograms'])")
note "fio randread 4k: $IOS I/Os completed; ptk biolatency -d $D: $N; requests: $(get "$TMP/bl.json" "d['requests']")"
check "histogram total ($N) == fio's completed I/Os ($IOS) within 1%" near_rel "$N" "$IOS" 0.01
check "no negative deltas, no partial completions on 4k direct reads" py "$TMP/bl.json" "d['requests'][0]['negative_dropped']==0 and d['requests'][0]['partial_completions']==0"
if [ -s "$TMP/lt.txt" ] && grep -q -- "->" "$TMP/lt.txt"; then
	L=$(lt_total "$TMP/lt.txt")
	note "libbpf-tools biolatency -d $D on the same run: $L"
	check "ptk ($N) and libbpf-tools biolatency ($L) agree within 1%" near_rel "$N" "$L" 0.01
else
	skip "libbpf-tools biolatency not installed or failed: $(head -c 200 "$TMP/lt.txt" 2>/dev/null)"
fi
# -D: a section for the loop device holding (at least) fio's I/Os
DN=$(awk -v d="$D" '/^disk = / { on = ($3 == d) } on && /->/ { s += $5 } END { print s + 0 }' "$TMP/blD.txt")
note "-D: disk = $D section holds $DN requests"
check "-D shows 'disk = $D'" grep -q "^disk = $D" "$TMP/blD.txt"
check "-D: $D's histogram ($DN) == fio's I/Os ($IOS) within 1%" near_rel "$DN" "$IOS" 0.01

# the three loaders (light skeleton tp_btf / raw_tp flavours, the libbpf skeleton before 5.17)
# count the same I/Os, and -c judges the submitting task (at block_io_start where it exists)
for l in :tp_btf raw:raw_tp 0:tp_btf; do
	PTK_BPF_LSKEL=${l%%:*} start "$PTK" biolatency -d $D -c fio --json > "$TMP/l.json" 2>"$TMP/l.err"
	PTK_BPF_LSKEL=${l%%:*} start "$PTK" biolatency -d $D -c not-fio --json > "$TMP/l0.json" 2>/dev/null
	fio_run --rw=randread --bs=4k --number_ios=500
	IOS=$(fio_ios)
	stop_all
	tot="sum(h['hist']['total'] for h in d['histograms'])"
	res=$(get "$TMP/l.json" "d['hook'], d['loader'], $tot" 2>&1)
	other=$(get "$TMP/l0.json" "$tot" 2>&1)
	note "PTK_BPF_LSKEL=${l%%:*} -c fio: $res; -c not-fio: $other; fio $IOS I/Os"
	want="light skeleton"; [ "${l%%:*}" = 0 ] && want=libbpf
	check "loader PTK_BPF_LSKEL=${l%%:*}: $want, hook ${l#*:}, -c fio total == fio's I/Os ($IOS), -c not-fio 0" \
		test "$res,$other" = "${l#*:} $want $IOS,0"
done

# 2. mq-deadline: every request goes through block_rq_insert, so Q2D and Q2C exist
if echo mq-deadline > /sys/block/$D/queue/scheduler 2>/dev/null; then
	start "$PTK" biolatency -d $D --stages --json > "$TMP/st.json" 2>/dev/null
	start "$PTK" biolatency -d $D -F > "$TMP/blF.txt" 2>/dev/null
	fio_run --rw=randwrite --bs=8k --number_ios=1500
	IOS=$(fio_ios)
	stop_all
	st() { get "$TMP/st.json" "sum(h['hist']['total'] for h in d['histograms'] if h['stage']=='$1')"; }
	Q2D=$(st Q2D) D2C=$(st D2C) Q2C=$(st Q2C)
	DONE=$(get "$TMP/st.json" "d['requests'][0]['completed']")
	NOQ=$(get "$TMP/st.json" "d['requests'][0]['no_insert']")
	note "mq-deadline, fio randwrite 8k: $IOS I/Os; Q2D $Q2D D2C $D2C Q2C $Q2C; completed $DONE, without insert $NOQ"
	check "--stages: D2C total ($D2C) == fio's I/Os ($IOS) within 1%" near_rel "$D2C" "$IOS" 0.01
	check "--stages: Q2C ($Q2C) == completed requests that had an insert ($DONE - $NOQ)" test "$Q2C" -eq $((DONE - NOQ))
	check "--stages: Q2D ($Q2D) == Q2C ($Q2C), D2C ($D2C) == completed ($DONE)" test "$Q2D" -eq "$Q2C" -a "$D2C" -eq "$DONE"
	check "--stages: with a scheduler, fio's requests are inserted (Q2C $Q2C >= 99% of $IOS)" near_rel "$Q2C" "$IOS" 0.01
	check "--stages text/JSON: the three stages are present" py "$TMP/st.json" "{h['stage'] for h in d['histograms']}=={'Q2D','D2C','Q2C'}"
	check "-F: fio's direct writes decoded as 'flags = ...Sync-Write'" grep -q "^flags = .*Sync-Write" "$TMP/blF.txt"
else
	skip "mq-deadline not available for $D"
fi

# SIGINT and SIGTERM: clean exit, the final report, nothing left attached
for sig in INT TERM; do
	start "$PTK" biolatency > "$TMP/sig.txt" 2>&1
	ids=$(bpf_prog_ids_of $LAST | tr '\n' ' ')
	kill -$sig $LAST; wait $LAST; rc=$?; BG=""
	check "SIG$sig: exit $rc (0) after holding its block programs [$ids]" test $rc -eq 0 -a -n "$ids"
	check "SIG$sig: every program it held is gone" bpf_progs_gone $ids
	check "SIG$sig: the request counters are printed" grep -q "completed" "$TMP/sig.txt"
done
"$PTK" biolatency -d no-such-disk >/dev/null 2>&1; check "-d no-such-disk is a usage error (2)" test $? -eq 2
"$PTK" biolatency --stages -Q >/dev/null 2>&1; check "--stages with -Q is a usage error (2)" test $? -eq 2
