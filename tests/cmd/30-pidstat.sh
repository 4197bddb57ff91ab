#!/usr/bin/env bash
# ptk pidstat: side by side with sysstat pidstat over the same window on a busy process we
# start, headers of -u -r -d -w -t -h against sysstat's, filters (-p, -C, -G), threads, the
# fixture replay (exact rates), usage errors and JSON.
. "$(dirname "$0")/lib.sh"
[ -x "$PTK" ] || { not_ok "no ptk binary at $PTK"; exit 1; }
t() { local d=$1; shift; if eval "$1"; then ok "$d"; else not_ok "$d"; fi; }

# A busy loop with its own command name (a script's comm is its file name).
printf '#!/bin/sh\nwhile :; do :; done\n' >"$TMP/ptkspin_g"
chmod +x "$TMP/ptkspin_g"
"$TMP/ptkspin_g" &
BUSY=$!
# A process with 3 threads (python: main + 2 sleepers)
MT=
if have python3; then
	python3 -c 'import threading, time
for _ in range(2): threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
time.sleep(600)' &
	MT=$!
fi
# An idle shell with a 400-byte command line (its sleep child idle too): its since-boot
# values do not move, so two tools reading it a moment apart print the same digits.
LONGARG=$(printf 'arg%03d ' $(seq 1 50))
sh -c 'sleep 600; : "$@"' ptklong $LONGARG &
IDLE=$!
# A parent that keeps waiting for CPU-burning children (-T CHILD: its cutime grows)
sh -c 'while :; do sh -c "i=0; while [ \$i -lt 3000 ]; do i=\$((i+1)); done"; done' &
PARENT=$!
RT=
if is_root && have chrt; then
	chrt -f 10 sleep 600 &
	RT=$!
fi
cleanup() {
	kill "$BUSY" "$IDLE" "$PARENT" ${MT:+"$MT"} ${RT:+"$RT"} 2>/dev/null
	pkill -P "$IDLE" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
sleep 0.5

# ---- live, against sysstat --------------------------------------------------------------
if ! have pidstat; then
	skip "sysstat pidstat not installed"
else
	LC_ALL=C timeout -k 5 60 pidstat -u 1 3 >"$TMP/sys.txt" 2>&1 &
	s1=$!
	LC_ALL=C timeout -k 5 60 pidstat -u -I -p "$BUSY" 1 3 >"$TMP/sysI.txt" 2>&1 &
	s2=$!
	LC_ALL=C "$PTK" pidstat -u 1 3 >"$TMP/ptk.txt" 2>"$TMP/ptk.err" &
	p1=$!
	LC_ALL=C "$PTK" pidstat -u -I -p "$BUSY" 1 3 >"$TMP/ptkI.txt" 2>&1 &
	p2=$!
	wait $s1 $s2
	wait $p1
	rc=$?
	wait $p2
	check "ptk pidstat -u 1 3 exits 0" [ "$rc" -eq 0 ]
	b1=$(head -1 "$TMP/sys.txt") b2=$(head -1 "$TMP/ptk.txt")
	note "sysstat banner: $b1"
	note "ptk     banner: $b2"
	check "banner identical to sysstat's" [ "$b1" = "$b2" ]
	h1=$(grep -m1 ' UID ' "$TMP/sys.txt" | cut -c12-) h2=$(grep -m1 ' UID ' "$TMP/ptk.txt" | cut -c12-)
	note "header: $h2"
	t "-u header identical to sysstat's" '[ -n "$h1" ] && [ "$h1" = "$h2" ]'
	n1=$(grep -c ' UID ' "$TMP/sys.txt") n2=$(grep -c ' UID ' "$TMP/ptk.txt")
	check "as many header lines as sysstat ($n1 vs $n2: 3 intervals + Average)" [ "$n1" -eq "$n2" ]
	avg() { awk -v p="$2" '$1 == "Average:" && $3 == p { print $(NF - 2) }' "$1"; }
	c1=$(avg "$TMP/sys.txt" "$BUSY") c2=$(avg "$TMP/ptk.txt" "$BUSY")
	# the two tools' windows start a moment apart: the loop's own swing between sysstat's
	# intervals bounds how far their averages can differ (5 points on a quiet machine)
	spread=$(awk -v p="$BUSY" '$1 != "Average:" && $3 == p { v = $(NF - 2); if (n++ == 0 || v < lo) lo = v; if (v > hi) hi = v }
		END { d = hi - lo; printf "%.2f", (d > 5 ? d : 5) }' "$TMP/sys.txt")
	note "Average %CPU of the busy loop (pid $BUSY): sysstat ${c1:-?} ptk ${c2:-?} (bound $spread)"
	t "Average %CPU within 5 points of sysstat, or the loop's swing between intervals" '[ -n "$c1" ] && [ -n "$c2" ] && near "$c1" "$c2" "$spread"'
	t "the busy loop shows CPU use (> 0 %CPU)" '[ -n "$c2" ] && awk -v c="$c2" "BEGIN { exit !(c > 0) }"'
	c1=$(avg "$TMP/sysI.txt" "$BUSY") c2=$(avg "$TMP/ptkI.txt" "$BUSY")
	note "-I (divided by $(nproc) CPUs): sysstat ${c1:-?} ptk ${c2:-?}"
	t "-I Average %CPU within 5 points of sysstat" '[ -n "$c1" ] && [ -n "$c2" ] && near "$c1" "$c2" 5'
	u1=$(awk -v p="$BUSY" '$1 == "Average:" && $3 == p { print $2 }' "$TMP/sys.txt")
	u2=$(awk -v p="$BUSY" '$1 == "Average:" && $3 == p { print $2 }' "$TMP/ptk.txt")
	t "UID of the busy loop as sysstat's ($u1 vs $u2)" '[ -n "$u1" ] && [ "$u1" = "$u2" ]'

	# headers of the other reports, -t and -h, and the Average header rule (-p 1 task, 1
	# activity: no header on Average)
	for opts in "-r" "-d" "-w" "-r -d -w" "-t" "-h -u -r -d -w" "-u -t -r"; do
		# shellcheck disable=SC2086
		LC_ALL=C timeout -k 5 60 pidstat $opts -p "$BUSY" 1 1 >"$TMP/s.txt" 2>&1
		# shellcheck disable=SC2086
		LC_ALL=C "$PTK" pidstat $opts -p "$BUSY" 1 1 >"$TMP/p.txt" 2>&1
		hs=$(grep -E ' (UID|USER) ' "$TMP/s.txt" | cut -c12-) hp=$(grep -E ' (UID|USER) ' "$TMP/p.txt" | cut -c12-)
		note "pidstat $opts headers: $(echo "$hp" | tr '\n' '|')"
		t "headers of pidstat $opts identical to sysstat's" '[ -n "$hs" ] && [ "$hs" = "$hp" ]'
		ns=$(grep -c "^Average:" "$TMP/s.txt") np=$(grep -c "^Average:" "$TMP/p.txt")
		check "as many Average lines as sysstat for $opts ($ns vs $np)" [ "$ns" -eq "$np" ]
	done
fi

# ---- the options of sysstat 12.7, live against Debian's sysstat ------------------------------
if have pidstat; then
	# since boot, an idle task: every report, decimals, units and colours byte for byte
	# (the time of day aside)
	same() { # DESC OPTS...: ptk's output equals sysstat's but for the time that starts lines
		local d=$1; shift
		# shellcheck disable=SC2068
		LC_ALL=C timeout -k 5 60 pidstat $@ >"$TMP/s.out" 2>&1
		# shellcheck disable=SC2068
		LC_ALL=C "$PTK" pidstat $@ >"$TMP/p.out" 2>&1
		sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}/T/' "$TMP/s.out" >"$TMP/s.cmp"
		sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}/T/' "$TMP/p.out" >"$TMP/p.cmp"
		if cmp -s "$TMP/s.cmp" "$TMP/p.cmp"; then
			ok "$d"
		else
			not_ok "$d"
			diff "$TMP/s.cmp" "$TMP/p.cmp" | head -6 | sed 's/^/# /'
		fi
	}
	same "-s (stack) as sysstat's" -s -p "$IDLE"
	same "-v (threads, fd-nr) as sysstat's" -v -p "$IDLE"
	same "-R (prio, policy) as sysstat's" -R -p "$IDLE"
	same "-T CHILD (usr-ms ... majflt-nr) as sysstat's" -T CHILD -p "$IDLE"
	same "-T ALL -u -r as sysstat's" -T ALL -u -r -p "$IDLE"
	same "-U (user names) as sysstat's" -U -u -r -p "$IDLE"
	same "-h with every activity as sysstat's" -h -urdwsvR -T ALL -p "$IDLE"
	same "--human -r -s -d as sysstat's" --human -r -s -d -p "$IDLE"
	same "--dec=0 -u -r -w as sysstat's" --dec=0 -u -r -w -p "$IDLE"
	same "--dec=1 -u -r -w as sysstat's" --dec=1 -u -r -w -p "$IDLE"
	same "-I --human -u as sysstat's" -I --human -u -p "$IDLE"
	same "-t -v -s for a process and its threads as sysstat's" -t -v -s -p "$IDLE"
	same "-l: the whole 400-byte command line, as sysstat's" -l -p "$IDLE"
	same "-h -p of one task over 3 intervals: one header, as sysstat's" -h -u -p "$IDLE" 1 3
	same "-r -p of one task over 3 intervals: one header, Average without one" -r -p "$IDLE" 1 3
	same "-T ALL -p of one task: a header every interval, as sysstat's" -T ALL -p "$IDLE" 1 2
	S_COLORS=always LC_ALL=C timeout -k 5 60 pidstat -u -r -w -v -t -p "$IDLE" >"$TMP/s.out"
	S_COLORS=always LC_ALL=C "$PTK" pidstat -u -r -w -v -t -p "$IDLE" >"$TMP/p.out"
	if cmp -s <(tail -n +3 "$TMP/s.out" | cut -c9-) <(tail -n +3 "$TMP/p.out" | cut -c9-); then
		ok "S_COLORS=always: the same escape sequences as sysstat's (ids, zeros, values, names)"
	else
		not_ok "S_COLORS=always: the same escape sequences as sysstat's (ids, zeros, values, names)"
		diff <(cat -v "$TMP/s.out") <(cat -v "$TMP/p.out") | head -8 | sed 's/^/# /'
	fi
	S_COLORS=always S_COLORS_SGR="I=37;1:Z=36;22:N=36;1" LC_ALL=C timeout -k 5 60 pidstat -u -p "$IDLE" >"$TMP/s.out"
	S_COLORS=always S_COLORS_SGR="I=37;1:Z=36;22:N=36;1" LC_ALL=C "$PTK" pidstat -u -p "$IDLE" >"$TMP/p.out"
	t "S_COLORS_SGR: the colours it names, as sysstat's" \
		'grep -q "$(printf "\033\\[37;1m")" "$TMP/p.out" &&
		 cmp -s <(tail -n +3 "$TMP/s.out" | cut -c9-) <(tail -n +3 "$TMP/p.out" | cut -c9-)'
	S_COLORS=never LC_ALL=C "$PTK" pidstat -u -p "$IDLE" >"$TMP/p.out"
	check "S_COLORS=never: no escape sequence" bash -c "! grep -q \$'\\033' '$TMP/p.out'"
	b1=$(S_TIME_FORMAT=ISO timeout -k 5 60 pidstat -p "$IDLE" | head -1) b2=$(S_TIME_FORMAT=ISO "$PTK" pidstat -p "$IDLE" | head -1)
	note "S_TIME_FORMAT=ISO banner: $b2"
	check "S_TIME_FORMAT=ISO: the banner's date as sysstat's (%Y-%m-%d)" [ "$b1" = "$b2" ]
	e1=$(LC_ALL=C timeout -k 5 60 pidstat -H -p "$IDLE" | awk 'NR == 4 { print $1 }')
	e2=$(LC_ALL=C "$PTK" pidstat -H -p "$IDLE" | awk 'NR == 4 { print $1 }')
	note "-H: sysstat $e1 ptk $e2"
	t "-H: seconds since the epoch, within 2 s of sysstat's" \
		'[ -n "$e1" ] && [ -n "$e2" ] && near "$e1" "$e2" 2'
	if [ -n "$RT" ]; then
		same "-R of a FIFO 10 task: prio 10 FIFO, as sysstat's" -R -p "$RT"
		check "ptk shows it as FIFO 10" grep -q '  10   FIFO  sleep$' "$TMP/p.out"
	fi
	# -T CHILD over the same 3 s: the children's CPU time of the parent
	LC_ALL=C timeout -k 5 60 pidstat -T CHILD -u -p "$PARENT" 1 3 >"$TMP/s.out" 2>&1 &
	s1=$!
	LC_ALL=C "$PTK" pidstat -T CHILD -u -p "$PARENT" 1 3 >"$TMP/p.out" 2>&1
	wait $s1
	c1=$(awk '$1 == "Average:" { print $4 + $5 }' "$TMP/s.out")
	c2=$(awk '$1 == "Average:" { print $4 + $5 }' "$TMP/p.out")
	note "-T CHILD: the waiting parent's usr-ms + system-ms per second: sysstat ${c1:-?} ptk ${c2:-?}"
	t "-T CHILD: the children's CPU time within 30 % (+-100 ms) of sysstat's, and above 0" \
		'[ -n "$c1" ] && [ -n "$c2" ] && near_rel "$c1" "$c2" 0.3 100 &&
		 awk -v c="$c2" "BEGIN { exit !(c > 0) }"'
	# its children come and go: the tests of whole process tables below want a quiet one
	kill "$PARENT" 2>/dev/null
	wait "$PARENT" 2>/dev/null
	# -U NAME keeps that user's tasks
	LC_ALL=C "$PTK" pidstat -U root -p ALL >"$TMP/p.out"
	users=$(awk 'NR > 3 && $3 ~ /^[0-9]+$/ { print $2 }' "$TMP/p.out" | sort -u | tr '\n' ' ')
	check "-U root: only root's tasks ($users)" [ "$users" = "root " ]
	# -e runs the program and reports it until it exits
	LC_ALL=C timeout -k 5 60 pidstat 1 -e sleep 2.5 >"$TMP/s.out" 2>&1
	LC_ALL=C "$PTK" pidstat 1 -e sleep 2.5 >"$TMP/p.out" 2>&1
	rc=$?
	n1=$(grep -c ' sleep$' "$TMP/s.out") n2=$(grep -c ' sleep$' "$TMP/p.out")
	note "-e sleep 2.5: rows of sleep: sysstat $n1, ptk $n2 (exit $rc)"
	t "-e sleep 2.5: 2 reports and the Average, exit 0, as sysstat" \
		'[ "$rc" -eq 0 ] && [ "$n2" -eq 3 ] && [ "$n1" -eq "$n2" ] && grep -q "^Average:" "$TMP/p.out"'
	"$PTK" pidstat 1 2 -e /no/such/program >"$TMP/p.out" 2>"$TMP/e"
	rc=$?
	note "-e /no/such/program: exit $rc: $(head -1 "$TMP/e")"
	t "-e of a program that cannot run: exit 1 naming it" \
		'[ "$rc" -eq 1 ] && grep -q "/no/such/program" "$TMP/e"'
	# -o JSON: sysstat 12.6 has none; its layout as sysstat 12.7's test files show it
	if have python3; then
		out=$("$PTK" pidstat -o JSON -u -r -s -d -w -v -R -T ALL -t -p "$IDLE" 1 2 | python3 -c '
import json, sys
d = json.load(sys.stdin)["sysstat"]["hosts"][0]
s = d["statistics"]
secs = [k for k in s[0] if k != "timestamp"]
cpu = s[0]["task-cpu-load"][0]
print(len(s), d["number-of-cpus"] > 0, ",".join(secs), ",".join(cpu), cpu["cmd"])' 2>&1)
		note "-o JSON: $out"
		check "-o JSON: 2 reports, the sections and keys of sysstat 12.7" [ "$out" = "2 True task-cpu-load,child-cpu-load,task-memory,child-memory,stack,io,context-switch,kernel,realtime UID,TGID,TID,usr,system,guest,wait,cpu,cpu_nr,leader,cmd sh" ]
	fi
else
	skip "sysstat pidstat not installed (the sysstat 12.7 options)"
fi

# ---- threads -----------------------------------------------------------------------------
if [ -n "$MT" ]; then
	"$PTK" pidstat -t -p "$MT" 1 1 >"$TMP/t.txt" 2>&1
	want=$(ls /proc/"$MT"/task | sort -n | tr '\n' ' ')
	got=$(awk '$1 != "Average:" && $4 ~ /^[0-9]+$/ { print $4 }' "$TMP/t.txt" | sort -n | tr '\n' ' ')
	note "threads of $MT: /proc says $want, ptk -t shows $got"
	t "-t shows every thread of the process (3)" '[ "$(echo $want | wc -w)" -eq 3 ] && [ "$want" = "$got" ]'
	check "-t thread rows are marked |__" grep -q '|__python3' "$TMP/t.txt"
else
	skip "python3 not installed (threads check)"
fi

# ---- filters -----------------------------------------------------------------------------
"$PTK" pidstat -p "$BUSY" 1 1 >"$TMP/f.txt" 2>&1
pids=$(awk '$1 != "Average:" && $3 ~ /^[0-9]+$/ { print $3 }' "$TMP/f.txt" | sort -u | tr '\n' ' ')
check "-p $BUSY shows only that process ($pids)" [ "$pids" = "$BUSY " ]
"$PTK" pidstat -p "$BUSY,1" -r 1 1 >"$TMP/f.txt" 2>&1
pids=$(awk '$1 != "Average:" && $3 ~ /^[0-9]+$/ { print $3 }' "$TMP/f.txt" | sort -nu | tr '\n' ' ')
check "-p 1,$BUSY -r shows both, inactive too ($pids)" [ "$pids" = "1 $BUSY " ]
"$PTK" pidstat -C 'spin_g$' 1 1 >"$TMP/c.txt" 2>&1
cmds=$(awk '$1 != "Average:" && $3 ~ /^[0-9]+$/ { print $NF }' "$TMP/c.txt" | sort -u | tr '\n' ' ')
check "-C 'spin_g\$' keeps only the busy loop ($cmds)" [ "$cmds" = "ptkspin_g " ]
"$PTK" pidstat -C 'zz_no_such_command_zz' 1 1 >"$TMP/c.txt" 2>&1
check "-C with no match prints headers but no rows" \
	[ "$(awk '$3 ~ /^[0-9]+$/' "$TMP/c.txt" | wc -l)" -eq 0 ]
if [ -n "$MT" ]; then
	"$PTK" pidstat -t -G '^python3$' -p ALL 1 1 >"$TMP/g.txt" 2>&1
	want=$(ls /proc/"$MT"/task | sort -n | tr '\n' ' ')
	got=$(awk -v p="$MT" '$1 != "Average:" && $3 == p { on = 1; next } $3 != "-" { on = 0 }
		on && $4 ~ /^[0-9]+$/ { print $4 }' "$TMP/g.txt" | sort -n | tr '\n' ' ')
	other=$(awk '$1 != "Average:" && $NF !~ /python3/ && $2 ~ /^[0-9]+$/' "$TMP/g.txt" | wc -l)
	note "-G python3 -t -p ALL: threads of $MT shown: $got (/proc: $want); rows of other commands: $other"
	t "-G '^python3\$' -t keeps python3 processes with their threads, nothing else" \
		'[ "$(echo $want | wc -w)" -eq 3 ] && [ "$want" = "$got" ] && [ "$other" -eq 0 ]'
fi
"$PTK" pidstat -l -p "$BUSY" 1 1 >"$TMP/l.txt" 2>&1
check "-l shows the command line" grep -q "/bin/sh $TMP/ptkspin_g\$" "$TMP/l.txt"

# ---- fixture replay: exact rates ---------------------------------------------------------
FX=$FIX/pid_rates
"$PTK" pidstat --procfs "$FX" -u -r -d -w -p 200 1 >"$TMP/fx.txt" 2>&1
check "replay exits 0" [ $? -eq 0 ]
line=$(awk '$1 != "Average:" && $3 == 200 && NF == 10 { $1 = ""; print substr($0, 2) }' "$TMP/fx.txt" | head -1)
note "pid 200 -u row: $line"
check "replay -u: 75 usr, 15 sys, 90 %CPU, no schedstat -> %wait '-'" \
	[ "$line" = "0 200 75.00 15.00 0.00 - 90.00 0 busy" ]
t "replay -r/-d/-w: 100 minflt/s, 1000 kB_rd/s, 50 ticks iodelay, 20 cswch/s" \
	'grep -q "100.00      2.00    4000    1000   0.10  busy" "$TMP/fx.txt" &&
	 grep -q "1000.00    200.00      0.00      50  busy" "$TMP/fx.txt" &&
	 grep -q "20.00      2.00  busy" "$TMP/fx.txt"'
"$PTK" pidstat --procfs "$FX" --group-by comm -p ALL 1 >"$TMP/gb.txt" 2>&1
note "group-by comm: $(grep -m1 ' busy$' "$TMP/gb.txt")"
check "--group-by comm sums 200 and 210 (90 + 25 = 115 %CPU, 2 tasks)" \
	grep -q '100.00   15.00  115.00      2  busy$' "$TMP/gb.txt"

# ---- usage errors ------------------------------------------------------------------------
for bad in "-Z" "-p abc" "-p" "--group-by nope" "-C (" "1 0" "x" "-T foo" "--dec=3" "--dec=A" \
	"-o XML" "-e" "-e sleep 1" "0 5" "1 2 3" "-o JSON --json"; do
	# shellcheck disable=SC2086
	"$PTK" pidstat $bad >"$TMP/o" 2>"$TMP/e"
	rc=$?
	note "pidstat $bad: exit $rc: $(head -1 "$TMP/e")"
	t "pidstat $bad exits 2 with an error on stderr, nothing on stdout" \
		'[ "$rc" -eq 2 ] && [ -s "$TMP/e" ] && [ ! -s "$TMP/o" ]'
done

# ---- JSON --------------------------------------------------------------------------------
if have python3; then
	out=$("$PTK" pidstat --json -u -r -p "$BUSY" 1 2 | python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
t = objs[0]["tasks"][0]
print(len(objs), objs[0]["type"], objs[-1]["type"], t["pid"], t["command"],
      t["cpu_pct"] > 0 and abs(t["usr_pct"] + t["system_pct"] + t["guest_pct"] - t["cpu_pct"]) <= 0.02,
      t["rss_kb"] > 0, "wait_pct" in t)' 2>&1)
	note "json: $out"
	check "--json: 2 intervals + average; the busy loop: cpu_pct > 0 = usr + system + guest, rss" \
		[ "$out" = "3 interval average $BUSY ptkspin_g True True True" ]
else
	skip "python3 not installed (JSON check)"
fi

# ---- the BPF task iterator (as root, 1000+ tasks) against the /proc scan ---------------------
# Since-boot report of every process with -u -r -w, forced both ways: the same tasks, the same
# uid, VSZ and RSS, and context-switch and CPU rates that agree (they are read a few ms apart).
# Compared on the processes /proc shows unchanged from before the first scan to after the
# second (lib.sh proc_snap): on a busy machine others are born, end and grow in between.
if is_root && [ -r /sys/kernel/btf/vmlinux ] && have python3; then
	proc_snap "$TMP/pre"
	PTK_TASK_SOURCE=bpf "$PTK" pidstat -u -r -w -d -p ALL --json > "$TMP/bpf.json" 2>"$TMP/bpf.err"
	PTK_TASK_SOURCE=proc "$PTK" pidstat -u -r -w -d -p ALL --json > "$TMP/proc.json" 2>/dev/null
	proc_snap "$TMP/post"
	stable "$TMP/pre" "$TMP/post" > "$TMP/stable"
	python3 - "$TMP/bpf.json" "$TMP/proc.json" "$TMP/stable" > "$TMP/cmp.txt" <<'PY'
import json, sys
def rows(p):
    return {t["pid"]: t for t in json.load(open(p))["tasks"]}
st = {int(x) for x in open(sys.argv[3]).read().split()}
b, p = rows(sys.argv[1]), rows(sys.argv[2])
b, p = {k: v for k, v in b.items() if k in st}, {k: v for k, v in p.items() if k in st}
common = set(b) & set(p)
def near(x, y, rel, ab):
    return abs(x - y) <= max(ab, rel * max(abs(x), abs(y)))
bad = []
for k in sorted(common):
    x, y = b[k], p[k]
    if not (x["uid"] == y["uid"] and x["vsz_kb"] == y["vsz_kb"] and near(x["rss_kb"], y["rss_kb"], 0.02, 64)
            and near(x["cswch_s"], y["cswch_s"], 0.02, 0.05) and near(x["nvcswch_s"], y["nvcswch_s"], 0.02, 0.05)
            and near(x["cpu_pct"], y["cpu_pct"], 0.05, 0.1) and near(x["minflt_s"], y["minflt_s"], 0.02, 0.1)
            and x["iodelay_ticks"] == y["iodelay_ticks"]
            and all((x[f] is None) == (y[f] is None) and (x[f] is None or near(x[f], y[f], 0.02, 0.05))
                    for f in ("rd_kb_s", "wr_kb_s", "ccwr_kb_s"))):
        bad.append(k)
io = sum(1 for k in common if (b[k]["wr_kb_s"] or 0) > 0)
print(len(common), len(set(b) - set(p)), len(set(p) - set(b)), len(bad), io, bad[:5])
PY
	read -r ncommon onlyb onlyp nbad nio rest < "$TMP/cmp.txt"
	note "pidstat bpf vs proc, of the $(wc -l < "$TMP/stable") processes unchanged across both scans: $ncommon in both, $onlyb only bpf, $onlyp only proc, $nbad differing $rest, $nio with writes; stderr: $(head -c 200 "$TMP/bpf.err")"
	check "pidstat: task iterator and /proc list the same processes (of those unchanged across both scans, none in one only)" \
		test "$ncommon" -gt 20 -a "$onlyb" -eq 0 -a "$onlyp" -eq 0
	check "pidstat: task iterator and /proc agree on uid, VSZ, RSS, cswch/s, nvcswch/s, %CPU, minflt/s, kB_rd/s, kB_wr/s, kB_ccwr/s, iodelay" \
		test "$nbad" -le 2
	check "pidstat -d: some processes have written (the I/O columns are compared on real values)" \
		test "$nio" -ge 1
else
	skip "task iterator comparison needs root, kernel BTF and python3"
fi

# ---- --cgroup PATH: a busy loop in a docker-named cgroup is the only task shown, with its
# cgroup and container in --json and its %CPU beside sysstat pidstat -p PID's
"$PTK" pidstat --cgroup relative 1 1 >/dev/null 2>"$TMP/e"
check "--cgroup relative: exit 2" [ $? -eq 2 ]
if [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then V2=/sys/fs/cgroup/unified
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then V2=/sys/fs/cgroup
else V2=; fi
ID=$(printf 'ef%.0s' $(seq 32))
if ! is_root || [ -z "$V2" ] || ! mkdir -p "$V2/ptk-test-ps$$/docker-$ID.scope" 2>/dev/null; then
	skip "--cgroup: needs root and a cgroup v2 tree"
else
	CG="$V2/ptk-test-ps$$/docker-$ID.scope"
	(echo $BASHPID > "$CG/cgroup.procs"; exec "$TMP/ptkspin_g") &
	CB=$!
	trap 'kill $CB 2>/dev/null; cleanup; rmdir "$CG" "$V2/ptk-test-ps$$" 2>/dev/null' EXIT
	sleep 0.3
	have pidstat && LC_ALL=C timeout -k 5 30 pidstat -u -p $CB 1 2 >"$TMP/cgsys.txt" 2>&1 &
	SP=$!
	"$PTK" pidstat --cgroup "/ptk-test-ps$$" 1 2 --json >"$TMP/cg.json"
	wait $SP
	"$PTK" pidstat --cgroup "/ptk-test-ps$$" -p ALL -r 1 1 --json >"$TMP/cgall.json"
	python3 - "$TMP/cg.json" "$TMP/cgall.json" $CB "/ptk-test-ps$$/docker-$ID.scope" >"$TMP/cg.txt" <<'PY'
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1])]
allr = [json.loads(l) for l in open(sys.argv[2])]
pid, path = int(sys.argv[3]), sys.argv[4]
rows = [t for r in rep + allr for t in r["tasks"]]
ok = all([t["pid"] for t in r["tasks"]] == [pid] for r in rep + allr) and \
    all(t["cgroup"] == path and t["container"] == "docker:" + "ef" * 6 for t in rows)
cpu = [t["cpu_pct"] for r in rep if r["type"] == "average" for t in r["tasks"]]
print(int(ok), cpu[0] if cpu else "-", len(rep), json.dumps(rows[0]) if rows else "-")
PY
	read -r cgok cgcpu nrep first < "$TMP/cg.txt"
	note "--cgroup: $nrep reports, Average %CPU $cgcpu; $first"
	check "--cgroup: each report (-u active, -p ALL -r) shows only the cgroup's task, with its cgroup and container" \
		test "$cgok" = 1
	if [ -s "$TMP/cgsys.txt" ]; then
		c1=$(awk -v p="$CB" '$1 == "Average:" && $3 == p { print $(NF - 2) }' "$TMP/cgsys.txt")
		note "Average %CPU of the loop in the cgroup: sysstat -p $CB ${c1:-?}, ptk --cgroup $cgcpu"
		t "--cgroup: Average %CPU within 10 points of sysstat pidstat -p PID" \
			'[ -n "$c1" ] && [ "$cgcpu" != - ] && near "$c1" "$cgcpu" 10'
	else
		skip "sysstat pidstat not installed"
	fi
fi

# ---- the task iterator: utime and stime never go backwards ----------------------------------
# With the BPF task iterator (root, 1000+ tasks, or PTK_TASK_SOURCE=bpf) the split of a
# task's runtime into utime and stime is scaled as /proc's cputime_adjust does; /proc also
# keeps the last values shown (prev_cputime) so that a moving split never takes one back, and
# so must the scanner, or a rate of that interval is a wrapped difference.
if is_root; then
	PROGS=$(cd "$(dirname "$0")/../progs" && pwd)
	if cc -O1 -pthread -o "$TMP/cpumix" "$PROGS/cpumix.c" 2> /dev/null; then
		"$TMP/cpumix" & MIX=$!
		sleep 0.3
		PTK_TASK_SOURCE=bpf "$PTK" pidstat -u 0.2 40 > "$TMP/mix.out" 2> "$TMP/mix.err"
		r1=$?
		PTK_TASK_SOURCE=bpf "$PTK" pidstat -u -t 0.2 20 > "$TMP/mixt.out" 2>> "$TMP/mix.err"
		r2=$?
		kill $MIX; wait $MIX 2> /dev/null
		back=$(grep -c "went backwards" "$TMP/mix.err")
		# the mix's own rows: %CPU (the 8th field of -u) within 0..200 in every interval
		bad=$(awk '$1 != "Average:" && $NF == "cpumix" && ($8 + 0 < 0 || $8 + 0 > 200)' \
			"$TMP/mix.out" | wc -l)
		rows=$(awk '$NF == "cpumix"' "$TMP/mix.out" | wc -l)
		note "iterator: exit $r1/$r2, $back 'went backwards' warnings, $rows cpumix rows, $bad out of 0..200"
		check_all "iterator: a process and threads whose user/system mix moves: no value goes backwards, %CPU in range" \
			'[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$back" -eq 0 ] && [ "$rows" -ge 10 ] && [ "$bad" -eq 0 ]'
	else
		skip "no C compiler for tests/progs/cpumix.c"
	fi
else
	skip "the task iterator needs root"
fi
