#!/usr/bin/env bash
# ptk cachestat: reading a cached file shows hits; after dropping the page cache the same read
# shows misses. Side by side with libbpf-tools cachestat run concurrently, or, where it cannot
# load (kernels without kprobes/fentry), with bpftrace counting the same tracepoints. Clean
# exit on SIGINT/SIGTERM with nothing left attached.
. "$(dirname "$0")/lib.sh"
is_root || { skip "cachestat needs root (BPF, drop_caches)"; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { skip "no kernel BTF"; exit 0; }

BG=""
trap 'for p in $BG; do kill -INT $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
PAGES=4096 # a 16 MiB file
dd if=/dev/urandom of="$TMP/data" bs=1M count=16 status=none && sync
# a reader with a comm of its own, so other work on the machine is filtered out (-c)
cp "$(command -v cat)" "$TMP/ptkcachecat"
RD="$TMP/ptkcachecat"
"$PTK" cachestat --json 0.2 1 > "$TMP/probe.json" 2>"$TMP/probe.err" ||
	{ not_ok "ptk cachestat loads: $(cat "$TMP/probe.err")"; exit 0; }
note "hooks: $(python3 -c "import json; d=json.load(open('$TMP/probe.json')); print(d['unit'], [p['hook']+':'+p['func'] for p in d['probes']])")"
MODE=$(python3 -c "import json; print(json.load(open('$TMP/probe.json'))['unit'])")

# lines FILE N: wait until FILE has N lines (up to 60 s, a busy machine included)
lines() { for _ in $(seq 600); do [ "$(wc -l < "$1")" -ge "$2" ] && return 0; sleep 0.1; done; return 1; }
# one phase: ptk (and the anchor) around one read of the file; sums over all intervals
phase() { # $1 = name
	: > "$TMP/$1.json"
	"$PTK" cachestat -c ptkcachecat --json 0.2 > "$TMP/$1.json" 2>/dev/null & local P=$!
	BG="$BG $P"
	A=""
	[ "$AKIND" = libbpf-tools ] && { timeout -k 5 120 cachestat 1 > "$TMP/$1.anchor" 2>&1 & A=$!; BG="$BG $A"; }
	lines "$TMP/$1.json" 1 || note "$1: ptk cachestat printed nothing in 60 s" # attached and reporting
	sleep 0.5
	if [ "$AKIND" = bpftrace ]; then
		# bpftrace runs the read itself once its probes are attached (-c), and ends with it
		timeout -k 5 120 bpftrace -q -o "$TMP/$1.anchor" -c "$RD $TMP/data" "$TMP/cs.bt" \
			> /dev/null 2> "$TMP/$1.anchor.err"
	else
		[ -n "$A" ] && sleep 1.5 # libbpf-tools cachestat is attached (it prints after 1 s)
		"$RD" "$TMP/data" > /dev/null
	fi
	local n; n=$(wc -l < "$TMP/$1.json")
	lines "$TMP/$1.json" $((n + 2)) || note "$1: ptk cachestat stopped reporting" # read's interval out
	kill -INT $P $A 2>/dev/null; wait $P $A 2>/dev/null; BG=""
}
# hits/misses over the whole phase, by cachestat's formula on the summed counts: a read that
# straddles an interval boundary splits its accesses and its readahead additions between two
# lines, so summing the per-line hits would not be the phase's hits
sum() { python3 -c "import json
c=[json.loads(l)['counts'] for l in open('$TMP/$1.json')]
s=lambda k: sum(x[k] for x in c)
tot=s('accessed') - ('$MODE' != 'pages') * s('buffer_dirty'); mis=max(s('added') - s('dirtied'), 0)
hits=tot - mis
if hits < 0: mis, hits = tot, 0
print(hits if '$2' == 'hits' else mis)"; }

AKIND=""
if have cachestat && timeout -k 5 30 cachestat 1 1 > "$TMP/lt.txt" 2>&1 && grep -q HITS "$TMP/lt.txt"; then
	AKIND=libbpf-tools
	note "anchor: libbpf-tools cachestat (system-wide: it has no comm filter)"
elif have bpftrace && [ "$MODE" = pages ]; then
	AKIND=bpftrace
	note "libbpf-tools cachestat cannot load here ($(grep -m1 -i "fail" "$TMP/lt.txt")); anchor: bpftrace on the same tracepoints"
	cat > "$TMP/cs.bt" <<'BT'
tracepoint:filemap:mm_filemap_get_pages /comm == "ptkcachecat"/ { @acc = sum(args->last_index - args->index + 1); }
tracepoint:filemap:mm_filemap_add_to_page_cache /comm == "ptkcachecat"/ { @add = sum(1 << args->order); }
BT
fi

# drop_caches empties every page cache on the machine: another copy of the suite running this
# test would turn our cached read into misses (and ours its), so the two take turns
exclusive page-cache
# warm: read once to cache the file, then measure a second read
"$RD" "$TMP/data" > /dev/null
phase warm
# cold: drop the page cache, measure a read
sync; echo 1 > /proc/sys/vm/drop_caches
phase cold
WH=$(sum warm hits) WM=$(sum warm misses) CH=$(sum cold hits) CM=$(sum cold misses)
note "file: $PAGES pages; cached read: hits $WH misses $WM; after drop_caches: hits $CH misses $CM ($MODE)"
if [ "$MODE" = pages ]; then
	# pages: the file, plus the few pages of the reader's own binary/libraries
	check "cached read: hits ($WH) cover the file's $PAGES pages (within 5%)" near_rel "$WH" $PAGES 0.05
	check "cached read: misses ($WM) <= 1% of the file" test "$WM" -le $((PAGES / 100))
	check "after drop_caches: misses ($CM) cover the file's $PAGES pages (within 5%)" near_rel "$CM" $PAGES 0.05
	check "after drop_caches: hits ($CH) <= 5% of the file" test "$CH" -le $((PAGES / 20))
else
	# calls: one per folio per read call, the file's size only bounds them
	check "cached read: hits ($WH) > 0 and hit ratio >= 95%" python3 -c "assert $WH > 0 and $WH >= 0.95 * ($WH + $WM)"
	check "after drop_caches: misses ($CM) > 0 and > hits ($CH)" test "$CM" -gt 0 -a "$CM" -gt "$CH"
fi
if [ "$AKIND" = bpftrace ]; then
	# same events, same filter; the windows differ by the attach/detach moments only, when
	# the reader is not running (bpftrace runs the read itself, -c, between the two): totals
	# agree within 1% (+ 4 pages for the binary's own)
	for ph in warm cold; do
		# bpftrace prints its maps at exit ("@acc: N"); a map never written is not printed
		ACC=$(awk '$1 == "@acc:" { print $2 }' "$TMP/$ph.anchor") ADD=$(awk '$1 == "@add:" { print $2 }' "$TMP/$ph.anchor")
		ACC=${ACC:-0} ADD=${ADD:-0}
		if ! grep -q "^@acc:" "$TMP/$ph.anchor"; then
			not_ok "$ph: bpftrace produced no counts: $(tail -c 300 "$TMP/$ph.anchor.err")"; continue
		fi
		PA=$(python3 -c "import json; print(sum(json.loads(l)['counts']['accessed'] for l in open('$TMP/$ph.json')))")
		PD=$(python3 -c "import json; print(sum(json.loads(l)['counts']['added'] for l in open('$TMP/$ph.json')))")
		note "$ph: ptk accessed $PA added $PD; bpftrace accessed $ACC added $ADD"
		check "$ph: accessed pages agree with bpftrace ($PA vs $ACC, 1%)" near_rel "$PA" "$ACC" 0.01 4
		check "$ph: added pages agree with bpftrace ($PD vs $ADD, 1%)" near_rel "$PD" "$ADD" 0.01 4
	done
elif [ "$AKIND" = libbpf-tools ]; then
	# libbpf-tools is system-wide: it sees at least our reader's accesses; only its cold-read
	# misses can be compared (other work rarely misses 4096 pages in the same seconds)
	LM=$(awk '$1 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$TMP/cold.anchor")
	note "libbpf-tools cachestat, cold read: misses $LM (system-wide)"
	check "cold read: libbpf-tools misses ($LM) >= 90% of ptk's ($CM)" python3 -c "assert $LM >= 0.9 * $CM"
else
	skip "no anchor: libbpf-tools cachestat and bpftrace unavailable"
fi

# the programs of this ptk (its fds): another copy of the suite may run cachestat meanwhile
for sig in INT TERM; do
	: > "$TMP/sig.txt"
	"$PTK" cachestat 0.2 > "$TMP/sig.txt" 2>&1 & P=$!
	for _ in $(seq 600); do grep -q HITS "$TMP/sig.txt" && break; sleep 0.1; done
	ids=$(bpf_prog_ids_of $P | tr '\n' ' ')
	kill -$sig $P; wait $P; rc=$?
	check "SIG$sig: exit $rc (0) after holding its accessed/added programs [$ids]" test $rc -eq 0 -a -n "$ids"
	check "SIG$sig: every program it held is gone" bpf_progs_gone $ids
done
check "text header as libbpf-tools: HITS MISSES DIRTIES HITRATIO BUFFERS_MB CACHED_MB" \
	grep -qE '^ +HITS +MISSES +DIRTIES +HITRATIO +BUFFERS_MB +CACHED_MB$' "$TMP/sig.txt"
"$PTK" cachestat -T 0.2 1 > "$TMP/t.txt" 2>/dev/null
check "-T: TIME column first" grep -qE '^TIME +HITS' "$TMP/t.txt"
"$PTK" cachestat 0 >/dev/null 2>&1; check "interval 0 is a usage error (2)" test $? -eq 2
