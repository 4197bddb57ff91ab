#!/usr/bin/env bash
# ptk mpstat: side by side with sysstat mpstat over the same window under a one-CPU load (the
# CPU report, and -A's node and interrupt reports), and the CPU-keyed fixtures (cpu2 offline
# between cpu1 and cpu3; a CPU going offline and back).
. "$(dirname "$0")/lib.sh"
# t DESC EXPR: ok when the shell expression (which may chain with &&) holds
t() { local d=$1; shift; if eval "$1"; then ok "$d"; else not_ok "$d"; fi; }

# ---- live, against sysstat -------------------------------------------------------------
if ! have mpstat; then
	skip "sysstat mpstat not installed"
elif ! have stress-ng; then
	skip "stress-ng not installed (needed to load one CPU)"
else
	timeout -k 5 60 stress-ng --cpu 1 --timeout 8 >/dev/null 2>&1 &
	spid=$!
	sleep 1
	LC_ALL=C timeout -k 5 60 mpstat -P ALL 1 3 >"$TMP/sys.txt" 2>&1 &
	mpid=$!
	LC_ALL=C "$PTK" mpstat -P ALL 1 3 >"$TMP/ptk.txt" 2>"$TMP/ptk.err" &
	ppid=$!
	wait $mpid
	wait $ppid
	prc=$?
	wait $spid
	check "ptk mpstat -P ALL 1 3 exits 0" [ "$prc" -eq 0 ]
	# banner: "Linux REL (HOST) \tDATE \t_ARCH_\t(N CPU)"; headers after the 11-column time
	b1=$(head -1 "$TMP/sys.txt") b2=$(head -1 "$TMP/ptk.txt")
	note "sysstat banner: $b1"
	note "ptk     banner: $b2"
	check "banner identical to sysstat's" [ "$b1" = "$b2" ]
	h1=$(grep -m1 ' CPU ' "$TMP/sys.txt" | cut -c12-) h2=$(grep -m1 ' CPU ' "$TMP/ptk.txt" | cut -c12-)
	note "header: $h2"
	t "column header identical to sysstat's" '[ -n "$h1" ] && [ "$h1" = "$h2" ]'
	n1=$(grep -c ' CPU ' "$TMP/sys.txt") n2=$(grep -c ' CPU ' "$TMP/ptk.txt")
	check "as many header lines as sysstat ($n1 vs $n2)" [ "$n1" -eq "$n2" ]
	# Average lines: CPU %usr ... %idle; 5 points of tolerance (the two windows start a few ms
	# apart, and tick sampling gives +-1 tick per CPU per second).
	awk '$1 == "Average:" && $2 != "CPU" { print $2, $3, $NF }' "$TMP/sys.txt" >"$TMP/sa"
	awk '$1 == "Average:" && $2 != "CPU" { print $2, $3, $NF }' "$TMP/ptk.txt" >"$TMP/pa"
	t "same Average rows as sysstat ($(wc -l <"$TMP/sa") vs $(wc -l <"$TMP/pa"))" \
		'[ -s "$TMP/sa" ] && [ "$(cut -d" " -f1 "$TMP/sa")" = "$(cut -d" " -f1 "$TMP/pa")" ]'
	while read -r cpu su si; do
		read -r pu pi < <(awk -v c="$cpu" '$1 == c { print $2, $3 }' "$TMP/pa")
		note "Average cpu $cpu: %usr sysstat $su ptk ${pu:-?}; %idle sysstat $si ptk ${pi:-?}"
		if [ -n "${pu:-}" ] && near "$su" "$pu" 5 && near "$si" "$pi" 5; then
			ok "Average cpu $cpu %usr/%idle within 5 points of sysstat"
		else
			not_ok "Average cpu $cpu %usr/%idle within 5 points of sysstat"
		fi
	done <"$TMP/sa"
	note "load seen: all %idle = $(awk '$1 == "all" { print $3 }' "$TMP/pa") (stress-ng on 1 of $(nproc) CPUs)"

	# -A: every report (CPU, NODE, intr/s, each interrupt, each softirq) in sysstat's order
	# and headers, with the same interrupt columns (the same /proc/interrupts lines)
	LC_ALL=C timeout -k 5 60 mpstat -A 1 2 >"$TMP/sysA.txt" 2>&1 &
	mpid=$!
	LC_ALL=C "$PTK" mpstat -A 1 2 >"$TMP/ptkA.txt" 2>"$TMP/ptkA.err"
	prc=$?
	wait $mpid
	check "ptk mpstat -A 1 2 exits 0" [ "$prc" -eq 0 ]
	# the header lines with their time cut off; interrupts can appear between the runs
	hdrs() { awk 'NR > 1 && ($2 == "CPU" || $2 == "NODE") { $1 = ""; print }' "$1"; }
	hdrs "$TMP/sysA.txt" >"$TMP/hs"
	hdrs "$TMP/ptkA.txt" >"$TMP/hp"
	note "-A headers: sysstat $(wc -l <"$TMP/hs"), ptk $(wc -l <"$TMP/hp")"
	check "-A: the same report headers as sysstat, interrupt columns included" \
		cmp -s "$TMP/hs" "$TMP/hp"
	rows() { awk '$1 == "Average:" && $2 ~ /^(all|[0-9]+)$/ { print $2 }' "$1" | tr '\n' ' '; }
	note "-A Average rows: sysstat '$(rows "$TMP/sysA.txt")' ptk '$(rows "$TMP/ptkA.txt")'"
	check "-A: the same Average rows (CPUs, nodes, interrupt CPUs) as sysstat" \
		[ "$(rows "$TMP/sysA.txt")" = "$(rows "$TMP/ptkA.txt")" ]
	# intr/s of all (/proc/stat intr) within 25% (the windows start a few ms apart)
	ia=$(awk '$1 == "Average:" && $2 == "all" && NF == 3 { print $3 }' "$TMP/sysA.txt")
	ib=$(awk '$1 == "Average:" && $2 == "all" && NF == 3 { print $3 }' "$TMP/ptkA.txt")
	note "-A Average intr/s all: sysstat $ia ptk $ib"
	check_all "-A: Average intr/s of all within 25% of sysstat's" \
		'[ -n "$ia" ] && [ -n "$ib" ] && near_rel "$ia" "$ib" 0.25 50'

	# -T, -I SUM -P ALL --dec=1, -U: headers and row layout as sysstat's
	# (-U and -H are 12.7's: Debian 12 has sysstat 12.6.1)
	for args in "-T -P ALL 1 1" "-I SUM -P ALL --dec=1 1 1" "-n 1 1" "-I SCPU 1 1"; do
		# shellcheck disable=SC2086
		LC_ALL=C timeout -k 5 60 mpstat $args >"$TMP/s1" 2>&1 &
		mpid=$!
		# shellcheck disable=SC2086
		LC_ALL=C "$PTK" mpstat $args >"$TMP/p1" 2>&1
		prc=$?
		wait $mpid
		# the layout: each line's length (the columns are right-aligned in fixed widths)
		# and its words, numbers as N (times and values differ between the runs)
		shape() { sed -n '2,$p' "$1" | awk '{ n = length($0); gsub(/[0-9]+(\.[0-9]+)?/, "N");
			gsub(/ +/, " "); print n ":" $0 }'; }
		if [ "$prc" -eq 0 ] && [ "$(shape "$TMP/s1")" = "$(shape "$TMP/p1")" ]; then
			ok "mpstat $args: the layout of sysstat's (headers, rows, widths)"
		else
			diff <(shape "$TMP/s1") <(shape "$TMP/p1") | head -5 | sed 's/^/# /'
			not_ok "mpstat $args: the layout of sysstat's (headers, rows, widths)"
		fi
	done
fi

# ---- offline CPU in the middle: cpu0 cpu1 cpu3, online = 0-1,3 -------------------------
FX=$FIX/mpstat_offline
"$PTK" mpstat -P ALL --procfs "$FX" 1 1 >"$TMP/off.txt" 2>&1
rc=$?
check "fixture run exits 0" [ "$rc" -eq 0 ]
row() { awk -v c="$1" '$2 == c && $1 != "Average:" { $1 = ""; print substr($0, 2) }' "$TMP/off.txt"; }
note "cpu2: $(row 2)"
note "cpu3: $(row 3)"
check "banner counts 4 CPU slots" grep -q '(4 CPU)$' "$TMP/off.txt"
check "cpu3 keeps its own values (90 usr, 5 sys, 5 idle)" \
	[ "$(row 3)" = "3 90.00 0.00 5.00 0.00 0.00 0.00 0.00 0.00 0.00 5.00" ]
check "cpu2 is offline: no row, as sysstat 12.7" [ -z "$(row 2)" ]
r1=$(row 1 | awk '{print $2, $NF}') r0=$(row 0 | awk '{print $2, $4, $NF}')
ra=$(row all | awk '{print $2, $4, $NF}')
t "cpu1 50/50, cpu0 10/10/80, all 50/5/45" \
	'[ "$r1" = "50.00 50.00" ] && [ "$r0" = "10.00 10.00 80.00" ] && [ "$ra" = "50.00 5.00 45.00" ]'
if have python3; then
	"$PTK" mpstat -P ALL --json --procfs "$FX" 1 1 >"$TMP/off.json"
	out=$(python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
c = {r["cpu"]: r for r in objs[0]["cpus"]}
print(len(objs), "2" in c, c["3"]["usr_pct"], c["all"]["idle_pct"])' "$TMP/off.json" 2>&1)
	note "json: objects, a cpu2 row, cpu3 usr, all idle = $out"
	check "JSON: no cpu2 row, cpu3 its own 90% usr, all 45% idle" [ "$out" = "2 False 90.0 45.0" ]
else
	skip "python3 not installed (JSON check)"
fi

# ---- hotplug: cpu1 goes offline (1/) and comes back with idle restarted (2/) -------------
"$PTK" mpstat -P ALL --procfs "$FIX/mpstat_hotplug" 1 2 >"$TMP/hp.txt" 2>&1
check "hotplug fixture exits 0" [ $? -eq 0 ]
bad=$(awk '$2 ~ /^(all|[0-9]+)$/ { s = 0; for (i = 3; i <= NF; i++) { if ($i == "-") next;
	if ($i < 0 || $i > 100) { print; next } if (i < NF - 2 || i == NF) s += $i }
	if (s > 0.05 && (s < 99.9 || s > 100.1)) print }' "$TMP/hp.txt")
note "rows out of [0,100] or not summing to 100: ${bad:-none}"
check "hotplug: every value in [0,100], every row sums to 100 (or 0 offline)" [ -z "$bad" ]
# cpu1 back in 2/: user 2000 -> 2020, system 300 -> 310, idle restarted 10000 -> 50 (from 0),
# iowait 200 -> 0 (restarted too: idle did not move on): 80 ticks, 25% usr 12.5% sys 62.5% idle
r1=$(awk '$2 == "1" && $1 != "Average:" { print $3, $5, $NF }' "$TMP/hp.txt" | tr '\n' ' ')
note "cpu1 rows (usr sys idle): $r1"
check "hotplug: cpu1 offline in interval 1 (no row), back in interval 2 from its last times" \
	[ "$r1" = "25.00 12.50 62.50 " ]
ra=$(awk '$2 == "all" && $1 != "Average:" { print $3, $NF }' "$TMP/hp.txt" | tr '\n' ' ')
note "all rows (usr idle): $ra"
# all = cpu0 alone in 1/ (50 usr 20 sys 80 idle of 150); cpu0 + cpu1 in 2/ (30+20 usr of 180)
check "hotplug: all is the sum of the CPUs shown (33.33/53.33, then 27.78/61.11)" \
	[ "$ra" = "33.33 53.33 27.78 61.11 " ]

# ---- usage errors -----------------------------------------------------------------------
for bad in 9999 x 1-0; do
	"$PTK" mpstat -P "$bad" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	note "-P $bad: exit $rc, stderr: $(cat "$TMP/e")"
	t "-P $bad exits 2 with one line on stderr, nothing on stdout" \
		'[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && [ ! -s "$TMP/o" ]'
done

# ---- JSON, live -------------------------------------------------------------------------
if have python3; then
	out=$("$PTK" mpstat -P ALL --json 1 1 | python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
print(len(objs), objs[0]["type"], objs[-1]["type"], len(objs[0]["cpus"]),
      all(abs(sum(r[k] for k in r if k.endswith("_pct") and k not in ("guest_pct", "gnice_pct")) - 100) < 0.1
          for r in objs[0]["cpus"]))' 2>&1)
	note "live json: $out (nproc $(nproc))"
	check "--json: one interval object + one average, one row per CPU + all, rows sum to 100" \
		[ "$out" = "2 interval average $(($(nproc) + 1)) True" ]
else
	skip "python3 not installed (JSON check)"
fi

# ---- -o JSON: sysstat's layout ------------------------------------------------------------
# the shape of a sysstat JSON document: the host's keys, then per statistics element its
# sections, each row's keys and value types (an "intr" list's items too) and the row labels
cat >"$TMP/shape.py" <<'PY'
import json, sys
def t(v):
    return "list" if isinstance(v, list) else "null" if v is None else type(v).__name__
doc = json.load(open(sys.argv[1]))
h = doc["sysstat"]["hosts"][0]
print("host", [k for k in h], "statistics", len(h["statistics"]))
for s in h["statistics"]:
    for sec, rows in s.items():
        if sec == "timestamp":
            print("timestamp", t(rows))
            continue
        print(sec, [r.get("cpu", r.get("node")) for r in rows])
        for r in rows:
            print(" ", [(k, t(v)) for k, v in r.items()])
            for it in r.get("intr", []) if isinstance(r.get("intr"), list) else []:
                print("   ", [(k, t(v)) for k, v in it.items()])
PY
if ! have mpstat; then
	skip "sysstat mpstat not installed (live -o JSON against it)"
elif ! have python3; then
	skip "python3 not installed (JSON checks)"
else
	LC_ALL=C timeout -k 5 30 mpstat -o JSON -P ALL 1 1 >"$TMP/sj.json" 2>&1 &
	mpid=$!
	LC_ALL=C timeout -k 5 30 "$PTK" mpstat -o JSON -P ALL 1 1 >"$TMP/pj.json" 2>"$TMP/pj.err"
	prc=$?
	wait $mpid
	src=$?
	python3 "$TMP/shape.py" "$TMP/sj.json" >"$TMP/sj.shape" 2>&1
	python3 "$TMP/shape.py" "$TMP/pj.json" >"$TMP/pj.shape" 2>&1
	note "sysstat: $(head -2 "$TMP/sj.shape" | tr '\n' ' ')"
	note "ptk:     $(head -2 "$TMP/pj.shape" | tr '\n' ' ')"
	if [ "$src" -ne 0 ]; then
		not_ok "sysstat's mpstat -o JSON -P ALL 1 1 failed (exit $src)"
	elif [ "$prc" -eq 0 ] && cmp -s "$TMP/sj.shape" "$TMP/pj.shape"; then
		ok "-o JSON -P ALL 1 1: valid JSON with sysstat's keys, sections, rows and types"
	else
		diff "$TMP/sj.shape" "$TMP/pj.shape" | head -6 | sed 's/^/# /'
		not_ok "-o JSON -P ALL 1 1: valid JSON with sysstat's keys, sections, rows and types"
	fi
	sums=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["sysstat"]["hosts"][0]["statistics"][0]
print(all(abs(sum(r[k] for k in r if k not in ("cpu", "guest", "gnice")) - 100) < 0.1
          for r in s["cpu-load"]))' "$TMP/pj.json" 2>&1)
	check "-o JSON: every cpu-load row sums to 100 ($sums)" [ "$sums" = "True" ]
fi
if have python3; then
	# the offline fixture: the text's rows (no cpu2), values with two decimals
	"$PTK" mpstat -o JSON -P ALL -T --procfs "$FX" 1 1 >"$TMP/fo.json" 2>&1
	out=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["sysstat"]["hosts"][0]["statistics"]
c = {r["cpu"]: r for r in s[0]["cpu-load"]}
print(len(s), sorted(c), c["3"]["usr"], repr(c["3"]["core"]), repr(c["all"]["core"]),
      c["all"]["idle"])' \
		"$TMP/fo.json" 2>&1)
	note "offline fixture -o JSON -T: statistics, cpus, cpu3 usr and core, all core and idle: $out"
	# the fixture has no topology in sysfs: cpu3's core is unknown (null); all's is blank
	check "-o JSON -T on the offline fixture: one element (no Average), no cpu2, cpu3 90% usr" \
		[ "$out" = "1 ['0', '1', '3', 'all'] 90.0 None '' 45.0" ]
	grep -q '"usr": 90.00,' "$TMP/fo.json"
	check "-o JSON writes two decimals (\"usr\": 90.00)" [ $? -eq 0 ]
	"$PTK" mpstat -o JSON --json >"$TMP/o" 2>"$TMP/e"
	rc=$?
	note "-o JSON --json: exit $rc, $(cat "$TMP/e")"
	check "-o JSON with --json is a usage error (exit 2)" [ "$rc" -eq 2 ]
fi
