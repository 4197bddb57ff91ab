#!/usr/bin/env bash
# Every --json object of a snapshot, an interval or an event carries "time", the wall clock in
# epoch seconds, as the README says; only a closing summary over the whole span (an "average"
# object, sar's "Average", an event tool's totals, stat's run) may go without. The objects are
# judged against the clock around each run.
. "$(dirname "$0")/lib.sh"

have python3 || { skip "needs python3"; exit 0; }

# judge FILE T0 T1: each object but a closing summary has a numeric time in [T0, T1]
judge() {
	python3 - "$@" <<'PY'
import json, sys
path, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
objs = []
for line in open(path):
    line = line.strip()
    if line.startswith('{'):
        objs.append(json.loads(line))
def summary(o):
    return (o.get('type') == 'average' or o.get('timestamp') == 'Average'
            or 'lost_events' in o or 'elapsed_s' in o)
bad = []
for i, o in enumerate(objs):
    t = o.get('time')
    if isinstance(t, (int, float)) and not isinstance(t, bool) and t0 - 1 <= t <= t1 + 1:
        continue
    if i == len(objs) - 1 and summary(o):
        continue
    bad.append('object %d: time %r (keys %s)' % (i + 1, t, ','.join(list(o)[:4])))
print('# %d objects%s' % (len(objs), ''.join('; ' + b for b in bad[:3])))
sys.exit(1 if bad or not objs else 0)
PY
}

now() { date +%s.%N; }
i=0
while IFS='|' read -r bpf stop cmd; do
	i=$((i + 1))
	if [ "$bpf" = bpf ] && ! is_root; then
		skip "$cmd: BPF needs root"
		continue
	fi
	t0=$(now)
	# a little activity for the event tools to see (an event tool runs until SIGINT after $stop s)
	(sleep 0.5; ls / >/dev/null; cat /etc/hostname >/dev/null; sh -c 'exit 0') &
	act=$!
	cmd=${cmd//SELF/$$}
	case " $cmd " in *" --json "*) json= ;; *) json=--json ;; esac
	# shellcheck disable=SC2086
	timeout -s INT -k 5 "$stop" "$PTK" $cmd $json >"$TMP/j$i.out" 2>&1 # perf stat -j, and so ptk stat, write to stderr
	wait $act
	t1=$(now)
	check "$cmd${json:+ $json}: every object but a closing summary carries \"time\" $(judge "$TMP/j$i.out" "$t0" "$t1" | tr '\n' ' ')" \
		judge "$TMP/j$i.out" "$t0" "$t1"
done <<'L'
-|30|vmstat 1 2
-|30|free
-|30|uptime
-|30|uptime -s
-|30|mpstat 1 1
-|30|iostat 1 1
-|30|pidstat 1 1
-|30|top -b -n 1
-|30|nicstat 1 1
-|30|pressure 1 1
-|30|dstat 1 1
-|30|sar -u 1 1
-|30|pmap SELF
-|30|check -d 1
-|30|cgtop -b -n 1
-|30|stat --json -I 300 -- sleep 0.7
bpf|30|cswtop -n 1
bpf|30|runqlat 1 1
bpf|30|biolatency 1 1
bpf|30|cachestat 1 1
bpf|30|offcputime 1
bpf|30|syscount -i 1 -d 2
bpf|3|execsnoop
L
