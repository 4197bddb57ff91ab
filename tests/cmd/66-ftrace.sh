#!/usr/bin/env bash
# ptk ftrace: events with a filter in its private instance, next to trace-cmd report on the
# same events recorded at the same time in a second instance (trace-cmd record cannot run
# here: it fails on the function tracer's files, so the anchor instance is set up by hand
# and read with trace-cmd extract and report). The same lines, timestamps included; --json
# holds the same events. The function tracer and function_graph, where the kernel lacks
# them: one line, exit 1, skipped with that reason.
. "$(dirname "$0")/lib.sh"
is_root || { skip "ftrace needs root (tracefs)"; exit 0; }
TR=/sys/kernel/tracing
[ -d $TR/instances ] || { skip "no tracefs instances"; exit 0; }
cp /bin/true "$TMP/ftmark$$" || exit 0
MARK=$TMP/ftmark$$
FLT="filename ~ \"*ftmark$$\""
INST=ptktest-$$
cleanup() { [ -d "$TR/instances/$INST" ] && rmdir "$TR/instances/$INST"; rm -rf "$TMP"; }
trap cleanup EXIT
"$PTK" ftrace -e sched:sched_process_exec -f "$FLT" -d 8 > "$TMP/p.txt" 2> "$TMP/p.err" & A=$!
"$PTK" ftrace --json -e sched:sched_process_exec -f "$FLT" -d 8 > "$TMP/p.json" 2> "$TMP/pj.err" & AJ=$!
have_anchor=no
if have trace-cmd && mkdir "$TR/instances/$INST" 2>/dev/null; then
	echo "$FLT" > "$TR/instances/$INST/events/sched/sched_process_exec/filter" &&
		echo 1 > "$TR/instances/$INST/events/sched/sched_process_exec/enable" && have_anchor=yes
fi
for _ in $(seq 300); do # both ptk instances set up: each says so once its events are on
	grep -q '^Tracing in' "$TMP/p.err" && grep -q '^Tracing in' "$TMP/pj.err" && break
	sleep 0.1
done
sleep 0.5
for _ in $(seq 25); do "$MARK"; done
wait $A; rc=$?; wait $AJ; rcj=$?
ours=$(grep -c 'sched_process_exec:' "$TMP/p.txt")
note "ptk ftrace (exit $rc): $ours events; $(head -1 "$TMP/p.err")"
check_all "ftrace -e sched:sched_process_exec -f: the 25 execs of the marker, nothing else" \
	'[ $rc -eq 0 ] && [ "$ours" = 25 ] && [ "$(grep -c "filename=$MARK " "$TMP/p.txt")" = 25 ]'
nj=$(python3 -c "
import json
ev = [json.loads(l) for l in open('$TMP/p.json') if l.strip()]
print(sum(1 for e in ev if e['event'] == 'sched:sched_process_exec' and e['fields']['filename'] == '$MARK'))" 2>/dev/null)
check "ftrace --json: one object per line, the same 25 events (${nj:-none})" [ "${nj:-0}" = 25 ]
if [ $have_anchor = yes ]; then
	timeout -k 5 60 trace-cmd extract -B "$INST" -o "$TMP/t.dat" > /dev/null 2>&1
	timeout -k 5 60 trace-cmd report -i "$TMP/t.dat" 2>/dev/null | sed -n "s/^$INST: //p" |
		grep 'sched_process_exec:' > "$TMP/t.txt"
	[ -d "$TR/instances/$INST" ] && rmdir "$TR/instances/$INST"
	theirs=$(wc -l < "$TMP/t.txt")
	# each instance stamps its own copy of an event: the times differ by microseconds, and
	# two CPUs' events a microsecond apart may swap: compared by pid, the times masked
	# and each task named as trace-cmd names it: ptk streams, reading saved_cmdlines
	# before the kernel records an exec's new name there, so it takes the name from the
	# exec event (its own, hidden, when the events asked for do not hold it); where
	# trace-cmd has "<...>" (the pid left saved_cmdlines before it read them) it is not
	# compared
	read -r dif dt comm names < <(python3 - "$TMP/t.txt" "$TMP/p.txt" <<'EOF'
import re, sys
def load(path):
    ev = {}
    for line in open(path):
        # the time's field as printed (padded to 5 digits before the point) is compared
        m = re.match(r"^ *(.*)-(\d+) +(\[\d+\])( +)(\d+\.\d{6}): (sched_process_exec:.*)$", line.rstrip("\n"))
        if m:
            width = len(m.group(4)) + len(m.group(5))
            ev[int(m.group(2))] = (f"{m.group(3)} {width} {m.group(6)}", float(m.group(5)), m.group(1))
    return ev
a, b = load(sys.argv[1]), load(sys.argv[2])
same = sum(1 for k in a if k in b and a[k][0] == b[k][0])
dt = max((abs(a[k][1] - b[k][1]) for k in a if k in b), default=1)
# trace-cmd's "<...>": the pid was no longer in saved_cmdlines (128 entries) when it read them
names = [f"{a[k][2]}/{b[k][2]}" for k in a if k in b and a[k][2] != b[k][2] and a[k][2] != "<...>"]
print(len(a) + len(b) - 2 * same, f"{dt:.6f}", len(names), ",".join(names[:3]) or "-")
EOF
)
	note "trace-cmd report: $theirs events; ${dif:-?} lines differ (times masked); times differ by at most ${dt:-?} s; ${comm:-?} task names differ (trace-cmd/ptk: ${names:-?})"
	check_all "ftrace: the same events as trace-cmd report, line by line (times within 1 ms)" \
		'[ "$theirs" = 25 ] && [ "$dif" = 0 ] && near "$dt" 0 0.001'
	check "ftrace: each task named as trace-cmd names it (the exec's new name)" \
		[ "${comm:-x}" = 0 ]
else
	skip "trace-cmd missing or no second instance: no side-by-side"
fi
# the tracers this kernel lacks: one line, exit 1
for t in function function_graph; do
	"$PTK" ftrace -p $t -d 0.5 > "$TMP/f.out" 2> "$TMP/f.err"; rc=$?
	if [ $rc -eq 0 ]; then
		check "ftrace -p $t: traced functions" grep -q . "$TMP/f.out"
		continue
	fi
	note "ftrace -p $t -> exit $rc: $(head -1 "$TMP/f.err")"
	check "ftrace -p $t refused: exit 1, one line" test $rc -eq 1 -a "$(wc -l < "$TMP/f.err")" -eq 1
	skip "ftrace -p $t: $(head -1 "$TMP/f.err" | sed 's/^ptk ftrace: //')"
done
for args in "-e nosuch:event -d 0.1" "-b x" "-e sched:sched_switch -f 'nosuchfield == 1' -d 0.1"; do
	eval "\"\$PTK\" ftrace $args" > /dev/null 2> "$TMP/e.err"; rc=$?
	note "ptk ftrace $args -> exit $rc: $(head -1 "$TMP/e.err")"
	check "ptk ftrace $args: an error in one line" test $rc -ne 0 -a "$(wc -l < "$TMP/e.err")" -le 2
done
echo "1..$T_N"
