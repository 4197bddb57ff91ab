#!/usr/bin/env bash
# ptk gcore on tests/progs/gcore_target.c (answer = 42, marker = "ptk-gcore", a heap string,
# 3 threads in known functions): gdb on the core shows the values, the thread count and the
# backtraces that gdb shows on the live process; readelf -n lists the notes; eu-stack --core
# loads it; NT_FILE equals gdb gcore's; coredump_filter is obeyed (kernel rules) and -a dumps
# everything; the target keeps running, untraced.
. "$(dirname "$0")/lib.sh"
have cc || { skip "no C compiler for tests/progs/gcore_target.c"; exit 0; }
have jq || { skip "no jq to read the JSON output"; exit 0; }
have readelf || { skip "no readelf (binutils) to read the core file"; exit 0; }
cc -O0 -g -pthread -o "$TMP/gcore_target" "$(dirname "$0")/../progs/gcore_target.c" ||
	{ not_ok "build gcore_target.c"; exit 0; }
"$TMP/gcore_target" > "$TMP/gt.out" & P=$!
trap 'kill $P 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 600); do grep -q '^ready' "$TMP/gt.out" && break; sleep 0.05; done # up to 30 s: a busy machine
grep -q '^ready' "$TMP/gt.out" || { not_ok "gcore_target did not start"; exit 0; }
EXE="$TMP/gcore_target" CORE="$TMP/core.$P"
c0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$P/status)

"$PTK" gcore -o "$TMP/core" --json $P > "$TMP/g.json" 2> "$TMP/g.err"; rc=$?
head -3 "$TMP/g.err" | sed 's/^/# stderr: /'
check "ptk gcore -o PREFIX --json PID exits 0" test $rc -eq 0
check "writes PREFIX.PID" test -s "$CORE"
note "$(jq -c .gcore "$TMP/g.json")"
check "JSON: file, threads 3, pause_ms > 0" test "$(jq -r '.gcore | "\(.file) \(.threads) \(.pause_ms > 0)"' "$TMP/g.json")" = "$CORE 3 true"
hdr=$(readelf -h "$CORE" | awk -F: '/Type:/ { print $2 }' | xargs)
check "ELF type CORE ($hdr)" test "${hdr%% *}" = CORE

# notes
readelf -n "$CORE" 2> /dev/null | grep -o 'NT_[A-Z0-9_]*' | sort | uniq -c | awk '{ print $2, $1 }' > "$TMP/notes"
note "notes: $(paste -sd' ' "$TMP/notes")"
nt() { awk -v n="$1" '$1 == n { print $2 }' "$TMP/notes"; }
check "NT_PRSTATUS per thread (3)" test "$(nt NT_PRSTATUS)" = 3
for n in NT_PRPSINFO NT_AUXV NT_FILE NT_SIGINFO; do check "$n once" test "$(nt $n)" = 1; done
check "NT_FPREGSET and NT_X86_XSTATE per thread" test "$(nt NT_FPREGSET)" = 3 -a "$(nt NT_X86_XSTATE)" = 3

# gdb on the core against gdb on the live process
if have gdb; then
	q=(-ex 'print answer' -ex 'print marker' -ex 'print heap_marker' -ex 'info threads' -ex 'thread apply all bt')
	timeout -k 5 120 gdb -batch -nx "${q[@]}" "$EXE" "$CORE" > "$TMP/gdbcore.txt" 2>&1
	timeout -k 5 120 gdb -batch -nx "${q[@]}" -p $P > "$TMP/gdblive.txt" 2>&1
	vals() { grep -E '^\$[0-9]+ = ' "$1" | sed 's/^\$[0-9]* = //; s/0x[0-9a-f]* //'; }
	note "core: $(vals "$TMP/gdbcore.txt" | paste -sd'|')  live: $(vals "$TMP/gdblive.txt" | paste -sd'|')"
	check "gdb on the core: answer = 42, marker = \"ptk-gcore\", heap string" \
		test "$(vals "$TMP/gdbcore.txt" | paste -sd'|')" = '42|"ptk-gcore"|"heap-marker-7f3a"'
	check "same values as gdb on the live process" \
		test "$(vals "$TMP/gdbcore.txt")" = "$(vals "$TMP/gdblive.txt")"
	nthr=$(grep -cE '^[* ] +[0-9]+ +Thread ' "$TMP/gdbcore.txt")
	check "gdb 'info threads' on the core: 3 ($nthr)" test "$nthr" = 3
	own='^(main|gcore_[a-z_]+|reader|condw)$'
	bts() { awk '/^Thread [0-9]+ .*LWP/ { t = $0; sub(/.*LWP /, "", t); sub(/\).*/, "", t); next }
		/^#[0-9]/ { f = ($3 == "in") ? $4 : $2; print t, f }' "$1" | awk -v re="$own" '$2 ~ re'; }
	bts "$TMP/gdbcore.txt" > "$TMP/bt.core"; bts "$TMP/gdblive.txt" > "$TMP/bt.live"
	note "core bt: $(paste -sd' ' "$TMP/bt.core")"
	check "bt in the core: gcore_blocked_read, gcore_blocked_cond, gcore_main_wait" \
		test "$(awk '{ print $2 }' "$TMP/bt.core" | grep -c '^gcore_')" = 3
	check "same backtraces (program functions, per LWP) as gdb on the live process" \
		test -s "$TMP/bt.core" -a "$(cat "$TMP/bt.core")" = "$(cat "$TMP/bt.live")"
	# NT_FILE: the same file mappings as gdb's own gcore writes
	if have gcore && have eu-readelf; then
		timeout -k 5 120 gcore -o "$TMP/gdbcore" $P > /dev/null 2>&1
		files() { eu-readelf -n "$1" | awk '/ FILE$/ { f = 1; next } f && /^ +[0-9a-f]+-[0-9a-f]+ / { print $1, $2, $4; next } f && !/files:/ { f = 0 }'; }
		files "$CORE" > "$TMP/f.ptk"; files "$TMP/gdbcore.$P" > "$TMP/f.gdb"
		note "NT_FILE entries: ptk $(wc -l < "$TMP/f.ptk"), gdb gcore $(wc -l < "$TMP/f.gdb")"
		diff "$TMP/f.gdb" "$TMP/f.ptk" | head -5 | sed 's/^/# diff gdb ptk: /'
		check "NT_FILE lists the same mappings as gdb's gcore" test -s "$TMP/f.ptk" -a "$(cat "$TMP/f.ptk")" = "$(cat "$TMP/f.gdb")"
	else
		skip "gdb's gcore script or eu-readelf missing"
	fi
else
	skip "gdb not installed"
fi

# eu-stack loads the core
if have eu-stack; then
	timeout -k 5 120 eu-stack --core "$CORE" --executable "$EXE" > "$TMP/eu.txt" 2> "$TMP/eu.err"; rc=$?
	note "eu-stack --core: exit $rc, $(grep -c '^TID' "$TMP/eu.txt") threads, $(grep -o 'gcore_[a-z_]*' "$TMP/eu.txt" | sort | paste -sd' ')"
	check "eu-stack --core CORE --executable PROGRAM loads it: 3 threads, the 3 functions" \
		test $rc -eq 0 -a "$(grep -c '^TID' "$TMP/eu.txt")" = 3 -a "$(grep -c 'gcore_[a-z]' "$TMP/eu.txt")" = 3
else
	skip "eu-stack (elfutils) not installed"
fi

# coredump_filter: the kernel's rules. The first page of the executable (offset 0) is dumped
# under bit 4 (ELF headers, default 0x33); with 0x1 (anonymous private only) it is not; -a
# dumps the read-only text whole.
exe_start=$(awk -v e="$EXE" '$6 == e && $3 == "00000000" { split($1, a, "-"); print a[1]; exit }' /proc/$P/maps)
text=$(awk -v e="$EXE" '$6 == e && $2 ~ /x/ { split($1, a, "-"); print a[1]; exit }' /proc/$P/maps)
filesz() { readelf -lW "$1" | awk -v a="$2" '$1 == "LOAD" && $3 ~ a"$" { print $5; exit }'; }
note "executable header page 0x$exe_start: FileSiz $(filesz "$CORE" $exe_start) (filter 0x33)"
check "ELF header page dumped under the default filter" test "$(filesz "$CORE" $exe_start)" = 0x001000
check "its text mapping is not (file-backed private, bit 2 clear)" test "$(filesz "$CORE" $text)" = 0x000000
echo 0x1 > /proc/$P/coredump_filter
"$PTK" gcore -o "$TMP/f1" $P > /dev/null
note "filter 0x1: header page FileSiz $(filesz "$TMP/f1.$P" $exe_start)"
check "coredump_filter 0x1: the header page is not dumped" test "$(filesz "$TMP/f1.$P" $exe_start)" = 0x000000
"$PTK" gcore -a -o "$TMP/all" $P > "$TMP/all.txt"
note "-a: text FileSiz $(filesz "$TMP/all.$P" $text); $(tail -1 "$TMP/all.txt")"
check "-a: the text mapping is dumped whole" test "$(filesz "$TMP/all.$P" $text)" = 0x001000
echo 0x33 > /proc/$P/coredump_filter
check "text output: 'Saved corefile' and the pause" grep -q 'paused [0-9.]* ms$' "$TMP/all.txt"

# the target keeps running, untraced
sleep 0.3
c1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$P/status)
state=$(awk '/^State:/ { print $2 }' /proc/$P/status) tracer=$(awk '/^TracerPid:/ { print $2 }' /proc/$P/status)
note "after: State $state, TracerPid $tracer, main thread switches $c0 -> $c1"
check "target not left stopped nor traced" test "$state" = S -a "$tracer" = 0
check "target keeps running" test "$c1" -gt "$c0"

# errors
"$PTK" gcore -o "$TMP/x" 999999999 > /dev/null 2>&1; rc=$?
check "missing process: exit 1, no file ($rc)" test $rc -eq 1 -a ! -e "$TMP/x.999999999"
"$PTK" gcore > /dev/null 2>&1; rc=$?
check "no PID: usage error, exit 2 ($rc)" test $rc -eq 2
"$PTK" gcore -o /nonexistent/dir/core $P > /dev/null 2>&1; rc=$?
check "unwritable output: exit 1 ($rc)" test $rc -eq 1
