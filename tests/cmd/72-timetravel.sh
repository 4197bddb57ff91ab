#!/usr/bin/env bash
# Time travel: `ptk top -b --at` and `ptk check --at` replay recorded samples through the
# ordinary snapshot path; a CPU burner recorded in the window is found with its CPU share.
. "$(dirname "$0")/lib.sh"

if ! have sqlite3; then skip "sqlite3 CLI not installed"; exit 0; fi
DB=$TMP/tt.db
( exec -a ptkburn72 bash -c 'while :; do :; done' ) & BURN=$!
TZ=America/New_York "$PTK" record -i 1 -c 6 --db "$DB" 2>/dev/null
kill $BURN; wait $BURN 2>/dev/null
check "recorded 6 samples" test "$(sqlite3 "$DB" 'select count(*) from sample')" = 6
t3=$(sqlite3 "$DB" 'select t_ms/1000 from sample order by id limit 1 offset 3')
t3f=$(sqlite3 "$DB" 'select t_ms/1000.0 from sample order by id limit 1 offset 3')
t0=$(sqlite3 "$DB" 'select t_ms/1000 from sample order by id limit 1')

# top -b --at: the sample nearest the time, its rates against the sample before it
"$PTK" top -b --at "@$t3f" --db "$DB" -w 200 > "$TMP/top.txt"; rc=$?
sed 's/^/# /' "$TMP/top.txt" | head -12
check "top -b --at: exit 0" test $rc -eq 0
check "header clock is the recorded sample's local time $(date -d @$t3 +%H:%M:%S)" grep -q "^top - $(date -d @$t3 +%H:%M:%S) " "$TMP/top.txt"
line=$(awk -v p=$BURN '$1 == p' "$TMP/top.txt")
note "burner row: $line"
cpu=$(echo "$line" | awk '{print $9}')
# expected: its recorded utime+stime ticks between samples 2 and 3 over the uptime span
hz=$(getconf CLK_TCK)
want=$(sqlite3 "$DB" "select round(100.0 * ((select utime+stime from proc p join task t on t.id=p.task where t.pid=$BURN and p.sample_id=s3.id) - (select utime+stime from proc p join task t on t.id=p.task where t.pid=$BURN and p.sample_id=s2.id)) / $hz / ((s3.uptime_cs - s2.uptime_cs) / 100.0), 1) from sample s2, sample s3 where s2.id=(select id from sample order by id limit 1 offset 2) and s3.id=(select id from sample order by id limit 1 offset 3)")
check "the burner (pid $BURN) is listed with its recorded CPU share $want% ($cpu)" near "${cpu:-0}" "${want:-x}" 0.15
# the same instant written four ways picks the same sample
a=$(TZ=Asia/Tokyo "$PTK" top -b --at "$(TZ=Asia/Tokyo date -d @$t3 '+%Y-%m-%d %H:%M:%S')" --db "$DB" | head -1)
a0=$(TZ=Asia/Tokyo "$PTK" top -b --at "@$t3" --db "$DB" | head -1)
b=$("$PTK" top -b --at "$(date -u -d @$t3 '+%Y-%m-%d %H:%M:%S')" --utc --db "$DB" | head -1 | cut -d' ' -f4-)
c=$("$PTK" top -b --at "$(date -u -d @$t3 '+%Y-%m-%dT%H:%M:%SZ')" --db "$DB" | head -1 | cut -d' ' -f4-)
note "Tokyo local: $a"
check "Tokyo local time picks the same sample as @$t3, shown in Tokyo time" test -n "$a" -a "$a" = "$a0"
check "--utc and ISO Z pick the same sample" test -n "$b" -a "$b" = "$c"
"$PTK" top -b --at "@$t3f" --db "$DB" --json > "$TMP/top.json"
check "top --at --json: the burner at its recorded share" python3 -c "
import json; d=json.loads(open('$TMP/top.json').readline())
r=[p for p in d['processes'] if p['pid']==$BURN][0]; assert abs(r['cpu_pct']-$want)<0.15, r"

# check --at -d: the USE triage over the recorded window
"$PTK" check --at "@$t0" -d 3 --db "$DB" --json > "$TMP/c.json"; rc=$?
check "check --at -d 3: exit 0" test $rc -eq 0
check "window is the 3 s recorded after the sample" python3 -c "
import json; d=json.load(open('$TMP/c.json')); assert abs(d['duration_s']-3)<0.3, d['duration_s']"
want=$(sqlite3 "$DB" "select round(100.0 * ((select utime+stime from proc p join task t on t.id=p.task where t.pid=$BURN and p.sample_id=s3.id) - (select utime+stime from proc p join task t on t.id=p.task where t.pid=$BURN and p.sample_id=s0.id)) / $hz / ((s3.uptime_cs - s0.uptime_cs) / 100.0), 1) from sample s0, sample s3 where s0.id=(select id from sample order by id limit 1) and s3.id=(select id from sample order by id limit 1 offset 3)")
check "the burner is a CPU offender with its recorded share over the window ($want%)" python3 -c "
import json; d=json.load(open('$TMP/c.json'))
cpu=[r for r in d['resources'] if r['resource']=='cpu'][0]
o=[o for o in cpu['offenders'] if o['pid']==$BURN][0]; assert abs(o['cpu_pct']-$want)<0.15, (o, $want)"
# the same samples for both: check's window from sample 0 to sample 3 exactly (a window of
# "3 s" ends at the sample nearest 3 s on, which on a busy machine can be sample 2)
t0f=$(sqlite3 "$DB" 'select t_ms/1000.0 from sample order by id limit 1')
t3f=$(sqlite3 "$DB" 'select t_ms/1000.0 from sample order by id limit 1 offset 3')
span=$(awk -v a="$t0f" -v b="$t3f" 'BEGIN { printf "%.3f", b - a }')
"$PTK" check --at "@$t0f" -d "$span" --db "$DB" --json > "$TMP/c3.json"
busy=$(python3 -c "import json; d=json.load(open('$TMP/c3.json')); print([r for r in d['resources'] if r['resource']=='cpu'][0]['utilization']['busy_pct'])")
u=$("$PTK" sar -u --db "$DB" --from "@$t0f" --to "@$t3f" | awk '/^Average/ {print 100 - $8 - $6}')
# check reads the aggregate cpu line (as vmstat), sar sums the CPU lines (as sysstat): the
# kernel writes the per-CPU lines a moment after the aggregate, with a tickless CPU's idle
# counted up to the read, so the two can differ by a tick or so per sample (seen: 1.2 ticks
# over 600); bound: 3 ticks of the window's ticks, or the printed precision
tol=$(awk -v s="$span" -v hz="$hz" -v n="$(nproc)" 'BEGIN { t = 300 / (s * hz * n); printf "%.3f", (t > 0.15 ? t : 0.15) }')
check "check's CPU busy ($busy%) equals sar's over the same samples ($u%, within $tol)" near "$busy" "$u" "$tol"

# errors
"$PTK" top -b --at "not a time" --db "$DB" 2>"$TMP/e"; rc=$?
check "invalid --at: exit 1, one error line" test $rc -eq 1 -a "$(wc -l < "$TMP/e")" -eq 1
"$PTK" check --at now --db "$TMP/missing.db" 2>"$TMP/e"; rc=$?
check "missing archive: exit 1, one error line" test $rc -eq 1 -a "$(wc -l < "$TMP/e")" -eq 1
check "no temporary snapshot tree is left behind" test -z "$(ls -d /tmp/ptk-at.* 2>/dev/null | xargs -r -n1 find 2>/dev/null -maxdepth 0 -newer "$DB")"

# the interactive viewer (tmux): the status line names the recorded sample shown; ']' and '['
# step through the archive's samples in order and stop at either end (the first sample with
# a baseline, the last sample); the rows are that sample's
if have tmux; then
	S=ptkat$$
	# a private tmux server on a socket of this run's own, no config
	tm() { command tmux -S "$TMP/tmux.sock" -f /dev/null "$@"; }
	trap 'tm kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
	t1f=$(sqlite3 "$DB" 'select t_ms/1000.0 from sample order by id limit 1 offset 1')
	tm new-session -d -s $S -x 120 -y 30 "TZ=America/New_York TERM=xterm-256color $PTK top --at @$t1f --db $DB"
	shown_now() { tm capture-pane -p -t $S | tail -1 | sed -n 's/^recorded \([0-9-]* [0-9:]*\) .*/\1/p'; }
	shown() { # the time in the status line, once it shows one (up to 20 s: a busy machine)
		for _ in $(seq 200); do
			t=$(shown_now)
			[ -n "$t" ] && { echo "$t"; return; }
			sleep 0.1
		done
	}
	# the archive's times, as the viewer shows them (recorded in New York)
	mapfile -t want < <(sqlite3 "$DB" 'select t_ms/1000 from sample order by id' | while read -r t; do TZ=America/New_York date -d "@$t" '+%Y-%m-%d %H:%M:%S'; done)
	seen=("$(shown)")
	# after each key: wait for the time it should show (up to 10 s), so a slow redraw is
	# waited for and a wrong one is caught
	exp=("${want[1]}" "${want[1]}" "${want[2]}" "${want[3]}" "${want[4]}" "${want[5]}" "${want[5]}" "${want[5]}" "${want[4]}")
	i=1
	for k in '[' ']' ']' ']' ']' ']' ']' '['; do
		tm send-keys -t $S "$k"
		for _ in $(seq 100); do
			t=$(shown_now)
			[ "$t" = "${exp[$i]}" ] && break
			sleep 0.1
		done
		sleep 0.2 # a step past either end must not move it later either
		seen+=("$(shown_now)")
		i=$((i + 1))
	done
	# the screen of the last step, once it shows the burner's sample whole (its rows drawn)
	for _ in $(seq 100); do
		tm capture-pane -p -t $S > "$TMP/at.txt"
		grep -q "ptkburn72\|^ *$BURN " "$TMP/at.txt" && break
		sleep 0.1
	done
	tm send-keys -t $S q
	for _ in $(seq 100); do [ -z "$(tm list-sessions 2>/dev/null)" ] && break; sleep 0.1; done
	note "archive: ${want[*]}"
	note "viewer:  ${seen[*]}"
	# start at sample 1; '[' stays (sample 0 has no baseline); ']' x6 walks 2..5 then stays
	check "viewer: '[' and ']' step sample by sample and stop at either end" test "${seen[*]}" = "${exp[*]}"
	check "viewer: the burner recorded in the window is listed at ${want[4]}" grep -q "ptkburn72\|^ *$BURN " "$TMP/at.txt"
	check "viewer: q quits, no ptk top left" test -z "$(tm list-sessions 2>/dev/null)"
else
	skip "tmux not installed: no interactive time travel"
fi
