#!/usr/bin/env bash
# ptk stat against perf stat (linux-perf) on the same deterministic commands: page faults of
# a program writing 64 MiB (THP off), task-clock of a fixed amount of work, context switches,
# <not supported> where perf says so, a tracepoint count known exactly (getppid N times), the
# text layout column by column, -x CSV and --json, -I intervals, -p on a process that exits,
# SIGINT, and usage errors.
. "$(dirname "$0")/lib.sh"
is_root || { skip "ptk stat tests need root (perf_event_paranoid, tracefs)"; exit 0; }
have cc || { skip "no C compiler for tests/progs/burn.c"; exit 0; }
have perf || { skip "linux-perf not installed: nothing to compare with"; exit 0; }
have python3 || { skip "no python3 to read CSV/JSON"; exit 0; }
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/burn" "$(dirname "$0")/../progs/burn.c" ||
	{ not_ok "build burn.c"; exit 0; }
B=$TMP/burn

# value of an event in perf stat -x, output (field 1, field 3 = event)
csv_val() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }

# 1. software events on the same command, side by side (three runs each, medians)
EV=task-clock,context-switches,page-faults,minor-faults
# (interleaved runs; the minimum task-clock is the run least disturbed by other load)
for i in 1 2 3 4 5; do
	"$PTK" stat -x, -e $EV -- "$B" -m 64 > "$TMP/po$i" 2> "$TMP/p$i.csv"
	timeout -k 5 120 perf stat -x, -e $EV -- "$B" -m 64 > /dev/null 2> "$TMP/q$i.csv"
done
for e in task-clock page-faults minor-faults; do
	pv=$(for i in 1 2 3 4 5; do csv_val "$TMP/p$i.csv" $e; done | sort -n | head -1)
	qv=$(for i in 1 2 3 4 5; do csv_val "$TMP/q$i.csv" $e; done | sort -n | head -1)
	note "$e: ptk $pv, perf $qv (minimum of 5 runs of burn -m 64 each)"
	eval "P_${e//-/_}=\$pv Q_${e//-/_}=\$qv"
done
check "page-faults within 3% of perf stat ($P_page_faults vs $Q_page_faults)" near_rel "$P_page_faults" "$Q_page_faults" 0.03
check "minor-faults within 3% of perf stat ($P_minor_faults vs $Q_minor_faults)" near_rel "$P_minor_faults" "$Q_minor_faults" 0.03
check "page-faults >= 16384 (64 MiB of 4 KiB pages written): $P_page_faults" test "${P_page_faults%.*}" -ge 16384
check "task-clock within 10% of perf stat ($P_task_clock vs $Q_task_clock msec)" near_rel "$P_task_clock" "$Q_task_clock" 0.10
# context switches depend on the load of the moment: compare each run with the program's
# own count of switches (getrusage nvcsw + nivcsw, printed at its end)
bad=0
for i in 1 2 3 4 5; do
	cs=$(csv_val "$TMP/p$i.csv" context-switches) own=$(awk '{ print $NF }' "$TMP/po$i")
	note "run $i: context-switches ptk $cs, the program's own nvcsw+nivcsw $own, perf (other run) $(csv_val "$TMP/q$i.csv" context-switches)"
	near "$cs" "$own" 3 || bad=1
done
check "context-switches = the program's own switch count (within 3) in every run" test $bad -eq 0

# 2. <not supported> exactly where perf prints it (no PMU in a VM), a count where it counts
timeout -k 5 60 perf stat -x, -e cycles,instructions -- true 2> "$TMP/qc.csv" > /dev/null
"$PTK" stat -x, -e cycles,instructions -- true 2> "$TMP/pc.csv" > /dev/null
for e in cycles instructions; do
	q=$(csv_val "$TMP/qc.csv" $e) p=$(csv_val "$TMP/pc.csv" $e)
	note "$e: perf '$q', ptk '$p'"
	if [ "$q" = "<not supported>" ]; then
		check "$e: <not supported> as perf prints it" test "$p" = "<not supported>"
	else
		check "$e: counted where perf counts it ($p)" test -n "$p" -a "$p" != "<not supported>"
	fi
done

# 3. a tracepoint count known exactly: getppid() called N times
for n in 1000 12345; do
	"$PTK" stat -x, -e syscalls:sys_enter_getppid -- "$B" -g $n > /dev/null 2> "$TMP/tp.csv"
	timeout -k 5 60 perf stat -x, -e syscalls:sys_enter_getppid -- "$B" -g $n > /dev/null 2> "$TMP/tq.csv"
	p=$(csv_val "$TMP/tp.csv" syscalls:sys_enter_getppid) q=$(csv_val "$TMP/tq.csv" syscalls:sys_enter_getppid)
	note "syscalls:sys_enter_getppid for $n calls: ptk $p, perf $q"
	check "tracepoint count = $n getppid calls (ptk $p)" test "$p" = "$n"
done
"$PTK" stat -a -e sched:sched_switch,context-switches -x, -- sleep 0.3 > /dev/null 2> "$TMP/ss.csv"
ss=$(csv_val "$TMP/ss.csv" sched:sched_switch)
note "-a sched:sched_switch over 0.3 s: $ss"
check "-a -e sched:sched_switch counts (> 0)" test "${ss:-0}" -gt 0

# 4. the text layout column by column: same lines, same columns as perf stat
layout() { # event name column, '#' column, metric unit, line length class
	sed -n '/Performance counter stats/,$p' "$1" | awk '{
		n = $0; gsub(/[0-9][0-9.,]*/, "N", n); gsub(/ +/, " ", n)
		printf "%d %d %d|%s\n", index($0, "#"), length($0), match($0, /[a-z]/), n }'
}
"$PTK" stat -e task-clock,cycles,page-faults,context-switches -- "$B" -n 5 > /dev/null 2> "$TMP/pt.txt"
timeout -k 5 120 perf stat -e task-clock,cycles,page-faults,context-switches -- "$B" -n 5 > /dev/null 2> "$TMP/qt.txt"
layout "$TMP/pt.txt" | sed "s|$TMP|T|g" > "$TMP/pl"; layout "$TMP/qt.txt" | sed "s|$TMP|T|g" > "$TMP/ql"
diff "$TMP/pl" "$TMP/ql" | head -10 | sed 's/^/# layout diff: /'
sed 's/^/# ptk: /' "$TMP/pt.txt" | head -14
check "text layout: header, counter lines, metric column, elapsed/user/sys footer as perf stat" cmp -s "$TMP/pl" "$TMP/ql"
"$PTK" stat -- "$B" -n 2 > /dev/null 2> "$TMP/pd.txt"
timeout -k 5 120 perf stat -- "$B" -n 2 > /dev/null 2> "$TMP/qd.txt"
pe=$(grep -oE '(task-clock|context-switches|cpu-migrations|page-faults|cycles|instructions|branches|branch-misses)' "$TMP/pd.txt" | tr '\n' ' ')
qe=$(grep -oE '(task-clock|context-switches|cpu-migrations|page-faults|cycles|instructions|branches|branch-misses)' "$TMP/qd.txt" | tr '\n' ' ')
note "default events: ptk [$pe] perf [$qe]"
check "default event list as perf stat's" test "$pe" = "$qe"

# 5. -x CSV: perf's 7 fields on every line, same event and unit columns
"$PTK" stat -x';' -e task-clock,page-faults,cycles -- "$B" -n 2 > /dev/null 2> "$TMP/sc.csv"
timeout -k 5 120 perf stat -x';' -e task-clock,page-faults,cycles -- "$B" -n 2 > /dev/null 2> "$TMP/qs.csv"
sed 's/^/# ptk csv: /' "$TMP/sc.csv"
check "-x ';': every line has 7 fields like perf's, events/units in the same columns" python3 - "$TMP/sc.csv" "$TMP/qs.csv" <<'PY'
import csv, sys
a = [r for r in csv.reader(open(sys.argv[1]), delimiter=';') if r]
b = [r for r in csv.reader(open(sys.argv[2]), delimiter=';') if r]
assert len(a) == len(b) == 3, (a, b)
for x, y in zip(a, b):
    assert len(x) == len(y) == 7, (x, y)
    assert x[1:3] == y[1:3] and x[6] == y[6], (x, y)
    assert x[0] == "<not supported>" or float(x[0]) >= 0
PY

# 6. --json: NDJSON with perf's keys, the counts as numbers, null where not supported
"$PTK" stat --json -e page-faults,task-clock,cycles -- "$B" -m 16 2> "$TMP/s.json" > /dev/null
check "--json: counters with perf's keys; page-faults >= 4096 (16 MiB written), cycles null when unsupported" python3 - "$TMP/s.json" "$Q_page_faults" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1
d = json.loads(lines[0])
c = {x["event"]: x for x in d["counters"]}
print("# json:", c["page-faults"], d["elapsed_s"], d["user_s"], d["sys_s"])
assert c["page-faults"]["counter-value"] >= 4096 and c["page-faults"]["status"] == "counted"
assert c["task-clock"]["unit"] == "msec" and c["task-clock"]["metric-unit"] == "CPUs utilized"
cy = c["cycles"]
assert (cy["status"] == "not supported") == (cy["counter-value"] is None)
assert d["elapsed_s"] > 0 and d["user_s"] >= 0
PY

# 7. -I: interval lines with increasing timestamps, perf's header, the last partial interval
"$PTK" stat -I 200 -e task-clock,page-faults -- "$B" 1 > /dev/null 2> "$TMP/iv.txt"
timeout -k 5 60 perf stat -I 200 -e task-clock,page-faults -- "$B" 1 > /dev/null 2> "$TMP/qiv.txt"
sed 's/^/# -I: /' "$TMP/iv.txt" | head -5
np=$(grep -c 'task-clock' "$TMP/iv.txt") nq=$(grep -c 'task-clock' "$TMP/qiv.txt")
note "-I 200 over 1 s: ptk $np interval lines of task-clock, perf $nq"
check "-I 200: same header line as perf" test "$(head -1 "$TMP/iv.txt")" = "$(head -1 "$TMP/qiv.txt")"
check "-I 200: 5 or 6 intervals over 1 s (ptk $np, perf $nq)" test "$np" -ge 5 -a "$np" -le 6
check "-I: timestamps increase" awk '/task-clock/ { if ($1 <= last) exit 1; last = $1 }' "$TMP/iv.txt"
"$PTK" stat -I 200 --json -e task-clock -- "$B" 0.5 2> "$TMP/iv.json" > /dev/null
check "-I --json: one object per interval with 'interval' and counters" python3 -c "
import json, sys
l = [json.loads(x) for x in open('$TMP/iv.json')]
assert len(l) >= 2 and all('interval' in x and x['counters'][0]['event'] == 'task-clock' for x in l)"

# 8. -p on a process that exits: ptk returns by itself; -t; -C
"$B" 1 > /dev/null & BP=$!
timeout 20 "$PTK" stat -p $BP -e task-clock,page-faults 2> "$TMP/pp.txt"; rc=$?
check "-p PID: returns when the process exits (exit $rc)" test $rc -eq 0
check "-p PID: header \"process id '$BP'\" and counted task-clock" grep -q "process id '$BP'" "$TMP/pp.txt"
wait $BP
timeout 20 "$PTK" stat -C 0 -e task-clock -- sleep 0.2 2> "$TMP/pc0.txt"
ms=$(awk '/task-clock/ { print $1 }' "$TMP/pc0.txt")
el=$(awk '/seconds time elapsed/ { print $1 * 1000 }' "$TMP/pc0.txt")
note "-C 0 -- sleep 0.2: task-clock $ms msec over $el ms elapsed"
# one CPU counted for the run's whole time: its elapsed time (at least the 200 ms slept; more
# when a busy machine is slow to wake sleep or to start it)
check "-C 0: header 'CPU(s) 0', one CPU's task-clock ($ms msec) = the elapsed time ($el ms, >= 200) within 10%" \
	bash -c "grep -q \"'CPU(s) 0'\" '$TMP/pc0.txt' && awk -v m='$ms' -v e='$el' 'BEGIN { d = m - e; if (d < 0) d = -d; exit !(e >= 195 && d <= 0.1 * e) }'"

# 9. SIGINT: the counts so far, exit 0
"$PTK" stat -a -e task-clock 2> "$TMP/int.txt" & S=$!
wait_caught INT $S; sleep 0.5; kill -INT $S; wait $S; rc=$?
check "SIGINT: exit $rc (0) with the counts printed" bash -c "[ $rc -eq 0 ] && grep -q 'seconds time elapsed' '$TMP/int.txt'"

# 10. usage errors: one line, exit 2
"$PTK" stat -e no-such-event -- true 2> "$TMP/e1"; rc=$?
check "bad event name: exit 2 ($rc), one line: $(cat "$TMP/e1")" test $rc -eq 2 -a "$(wc -l < "$TMP/e1")" -eq 1
"$PTK" stat -e sched:no_such_tp -- true 2> "$TMP/e2"; rc=$?
check "missing tracepoint: exit 2 ($rc)" test $rc -eq 2
"$PTK" stat 2> /dev/null; check "no command and no target: exit 2" test $? -eq 2
"$PTK" stat -I 5 -a 2> /dev/null; check "-I 5 (below 10 ms): exit 2" test $? -eq 2
"$PTK" stat -p 1 -t 1 2> /dev/null; check "-p with -t: exit 2" test $? -eq 2
"$PTK" stat -- /nonexistent/cmd 2> "$TMP/e3"; rc=$?
check "a command that cannot run: exit 1 ($rc): $(cat "$TMP/e3")" test $rc -eq 1
