#!/usr/bin/env bash
# ptk pstack on tests/progs/pstack_threads.c: 9 threads with known names blocked in known
# functions (read on a pipe, pthread_cond_wait, nanosleep, a held mutex, a SIGUSR1 handler in
# pause() reached through a signal frame, three identical workers, main). Checks each thread's
# stack, then compares with eu-stack -p (the same function list per thread, frame by frame)
# and gdb 'thread apply all bt' (the same program functions per thread), --group, -n, -s,
# JSON, and that the target is left running and untraced.
. "$(dirname "$0")/lib.sh"
have cc || { skip "no C compiler for tests/progs/pstack_threads.c"; exit 0; }
have jq || { skip "no jq to read the JSON output"; exit 0; }
SRC="$(dirname "$0")/../progs/pstack_threads.c"
cc -O1 -g -fno-omit-frame-pointer -pthread -o "$TMP/pstack_threads" "$SRC" ||
	{ not_ok "build pstack_threads.c"; exit 0; }
"$TMP/pstack_threads" > "$TMP/pt.out" & P=$!
trap 'kill $P 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 600); do grep -q '^tid 7' "$TMP/pt.out" && break; sleep 0.05; done # up to 30 s: a busy machine
grep -q '^ready' "$TMP/pt.out" || { not_ok "pstack_threads did not start"; exit 0; }
tid() { awk -v n="$1" '$1 == "tid" && $2 == n { print $3 }' "$TMP/pt.out"; }

"$PTK" pstack --json $P > "$TMP/p.json" 2> "$TMP/p.err"; rc=$?
check "ptk pstack --json PID exits 0" test $rc -eq 0
head -3 "$TMP/p.err" | sed 's/^/# stderr: /'
J="$TMP/p.json"
nthr=$(ls /proc/$P/task | wc -l)
read -r threads stopped pause < <(jq -r '.process | "\(.threads) \(.threads_stopped) \(.pause_ms)"' "$J")
note "threads: /proc $nthr, ptk $threads found, $stopped stopped; pause $pause ms"
check "every thread found and stopped ($nthr)" test "$threads" = "$nthr" -a "$stopped" = "$nthr"
check "pause measured (> 0 ms)" awk -v p="$pause" 'BEGIN { exit !(p > 0) }'

# function names of one thread, innermost first, one per line
funcs() { jq -r --argjson t "$1" '.threads[] | select(.tid == $t) | .frames[] | .func // "?"' "$J"; }
# the functions must appear in this order (not necessarily adjacent)
in_order() {
	local t=$1; shift
	funcs "$t" | awk -v want="$*" 'BEGIN { n = split(want, w, " "); i = 1 }
		i <= n && $0 == w[i] { i++ } END { exit !(i > n) }'
}
show() { note "thread $1 ($2): $(funcs "$1" | paste -sd' ')"; }
T_MAIN=$(tid 0) T_READ=$(tid 1) T_COND=$(tid 2) T_SLEEP=$(tid 3) T_LOCK=$(tid 4) T_SIG=$(tid 5)
show $T_READ reader; check "reader: read <- blocked_in_read <- thr <- start_thread" \
	in_order $T_READ read blocked_in_read thr start_thread
show $T_COND condwait; check "condwait: pthread_cond_wait <- blocked_in_cond <- thr" \
	in_order $T_COND pthread_cond_wait blocked_in_cond thr
show $T_SLEEP sleeper; check "sleeper: clock_nanosleep <- blocked_in_sleep <- thr" \
	in_order $T_SLEEP clock_nanosleep blocked_in_sleep thr
show $T_LOCK locker; check "locker: __pthread_mutex_lock <- blocked_in_mutex <- thr" \
	in_order $T_LOCK __pthread_mutex_lock blocked_in_mutex thr
show $T_SIG sighand
check "sighand: pause <- in_sigusr1_handler <- __restore_rt (signal frame) <- waiting_for_signal" \
	in_order $T_SIG pause in_sigusr1_handler __restore_rt waiting_for_signal thr start_thread
show $T_MAIN main; check "main: blocked_in_main <- main <- __libc_start_main" \
	in_order $T_MAIN blocked_in_main main __libc_start_main
names=$(jq -r '[.threads[].name] | sort | join(",")' "$J")
note "thread names: $names"
check "thread names from pthread_setname_np" \
	test "$names" = "condwait,locker,pstack_threads,reader,sighand,sleeper,worker,worker,worker"
ends=$(jq -r '[.threads[].stack_end] | unique | join(",")' "$J")
note "stack ends: $ends"
check "every stack unwinds to its outermost frame" test "$ends" = "outermost"

# eu-stack -p: the same functions per thread, frame by frame (symbol versions cut)
jq -r '.threads[] | .tid as $t | .frames[] | "\($t) \(.func // "??")"' "$J" > "$TMP/ptk.f"
if have eu-stack; then
	timeout -k 5 120 eu-stack -p $P > "$TMP/eu.txt" 2> "$TMP/eu.err"
	awk '/^TID/ { t = $2; sub(":", "", t); next } /^#/ { f = $3; sub(/@.*/, "", f); print t, f }' \
		"$TMP/eu.txt" > "$TMP/eu.f"
	neu=$(wc -l < "$TMP/eu.f") nptk=$(wc -l < "$TMP/ptk.f")
	note "frames: eu-stack $neu, ptk $nptk"
	diff "$TMP/eu.f" "$TMP/ptk.f" | head -10 | sed 's/^/# diff eu-stack ptk: /'
	check "same frames as eu-stack -p, thread by thread ($neu)" cmp -s "$TMP/eu.f" "$TMP/ptk.f"
else
	skip "eu-stack (elfutils) not installed"
fi

# gdb: the program's own functions per thread (gdb names libc internals its own way)
if have gdb; then
	own='^(main|thr|blocked_in_[a-z]+|worker_idle|in_sigusr1_handler|waiting_for_signal)$'
	timeout -k 5 120 gdb -batch -nx -p $P -ex 'thread apply all bt' > "$TMP/gdb.txt" 2>&1
	awk '/^Thread [0-9]+ .*LWP/ { t = $0; sub(/.*LWP /, "", t); sub(/\).*/, "", t); next }
		/^#[0-9]/ { f = ($3 == "in") ? $4 : $2; print t, f }' "$TMP/gdb.txt" |
		awk -v re="$own" '$2 ~ re' | sort -s -k1,1n > "$TMP/gdb.f"
	awk -v re="$own" '$2 ~ re' "$TMP/ptk.f" | sort -s -k1,1n > "$TMP/ptk.own"
	note "program frames: gdb $(wc -l < "$TMP/gdb.f"), ptk $(wc -l < "$TMP/ptk.own")"
	diff "$TMP/gdb.f" "$TMP/ptk.own" | head -10 | sed 's/^/# diff gdb ptk: /'
	check "same program functions per thread as gdb 'thread apply all bt'" \
		test -s "$TMP/gdb.f" -a "$(cat "$TMP/gdb.f")" = "$(cat "$TMP/ptk.own")"
else
	skip "gdb not installed"
fi

# --group: the three workers merge; every other stack stays alone
"$PTK" pstack --group --json $P > "$TMP/g.json"; rc=$?
check "ptk pstack --group --json exits 0" test $rc -eq 0
groups=$(jq -r '[.groups[] | "\(.count)x\(.names | unique | join("/"))"] | join(" ")' "$TMP/g.json")
note "groups: $groups"
check "--group: one group of 3 workers, 6 single threads" \
	test "$(jq '[.groups[].count] | sort | join(",")' -r "$TMP/g.json")" = "1,1,1,1,1,1,3" -a \
	"$(jq -r '.groups[] | select(.count == 3) | .names | unique | join(",")' "$TMP/g.json")" = worker
"$PTK" pstack --group $P > "$TMP/g.txt"
grep '^3 threads' "$TMP/g.txt" | sed 's/^/# text: /'
check "--group text: '3 threads ×' header" grep -q '^3 threads × ' "$TMP/g.txt"

# -n bounds the frames; -s adds file:line
"$PTK" pstack -n 2 --json $P > "$TMP/n.json"
check "-n 2: at most 2 frames per thread, stack_end 'max frames'" \
	test "$(jq '[.threads[].frames | length] | max' "$TMP/n.json")" = 2 -a \
	"$(jq -r '[.threads[].stack_end] | unique | join(",")' "$TMP/n.json")" = "max frames"
line=$(grep -n 'read(pipefd\[0\]' "$SRC" | cut -d: -f1)
got=$("$PTK" pstack -s --json $P | jq -r --argjson t $T_READ \
	'.threads[] | select(.tid == $t) | .frames[] | select(.func == "blocked_in_read") | "\(.file):\(.line)"')
note "-s: blocked_in_read at $got (source line $line)"
check "-s: blocked_in_read's file:line is the read() call" test "${got##*:}" = "$line" -a "${got%%:*}" != null
"$PTK" pstack $P > "$TMP/t.txt"
head -1 "$TMP/t.txt" | sed 's/^/# text: /'
check "text: header with the pause, one 'Thread TID \"name\":' per thread" \
	test "$(grep -c '^Thread [0-9]* "' "$TMP/t.txt")" = "$nthr" -a -n "$(grep '^pid .* paused [0-9.]* ms$' "$TMP/t.txt")"

# the target is left running and untraced
state=$(awk '/^State:/ { print $2 }' /proc/$P/status) tracer=$(awk '/^TracerPid:/ { print $2 }' /proc/$P/status)
c0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$P/task/$T_SLEEP/status)
sleep 0.3
c1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$P/task/$T_SLEEP/status)
note "after: State $state, TracerPid $tracer, sleeper switches $c0 -> $c1"
check "target not left stopped nor traced" test "$state" = S -a "$tracer" = 0
check "target keeps running (sleeper still wakes)" test "$c1" -gt "$c0"
tstates=$(cat /proc/$P/task/*/stat | awk '{ sub(/.*\) /, ""); print $1 }' | sort -u | paste -sd,)
# R or S are fine (a thread may be running when we look); t/T would be a thread left stopped
check "no thread left in t (traced) or T (stopped) state ($tstates)" test -n "$tstates" -a -z "$(tr -d 'RSDI,' <<<"$tstates")"

# errors
"$PTK" pstack 999999999 > /dev/null 2>&1; rc=$?
check "missing process: exit 1 ($rc)" test $rc -eq 1
"$PTK" pstack > /dev/null 2>&1; rc=$?
check "no PID: usage error, exit 2 ($rc)" test $rc -eq 2
"$PTK" pstack -n 0 $P > /dev/null 2>&1; rc=$?
check "-n 0: usage error, exit 2 ($rc)" test $rc -eq 2
"$PTK" pstack --procfs "$FIX" $P > /dev/null 2>&1; rc=$?
check "--procfs tree: refused, exit 1 ($rc)" test $rc -eq 1
