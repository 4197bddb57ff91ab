#!/usr/bin/env bash
# ptk cswtop: exact rates and meters on a replay tree worked out by hand; live thread pools
# (tests/progs/cswload.c) against rates computed here from /proc/PID/task/*/status over the
# same window and against pidstat -w -t run alongside; a JVM (tests/progs/CswLoad.java) whose
# pools only the full Java names from jstack tell apart; errors.
. "$(dirname "$0")/lib.sh"

PROGS=$(cd "$(dirname "$0")/../progs" && pwd)
R=$FIX/cswtop_replay
DUMP=$FIX/cswtop_jvm/dump.txt

have jq || { skip "jq not installed"; exit 0; }

# jget FILE LINE GROUP KEY: a group's value in NDJSON line LINE ("(all)" = the total row)
jget() {
	sed -n "${2}p" "$1" | jq -r --arg g "$3" --arg k "$4" \
		'if $g == "(all)" then .total[$k] else (.groups[] | select(.group == $g) | .[$k]) end'
}
# expect FILE LINE GROUP KEY VALUE NAME: exact comparison (numbers as numbers: jq prints
# 1022.0 as 1022; null as null)
expect() {
	local v
	v=$(jget "$1" "$2" "$3" "$4")
	if [ "$5" = null ] || [ "$v" = null ] || [ -z "$v" ]; then [ "$v" = "$5" ]; else
		awk -v a="$v" -v b="$5" 'BEGIN { exit !(a + 0 == b + 0) }'; fi && ok "replay $6 #$2 $3 $4 = $5" ||
		not_ok "replay $6 #$2 $3 $4: got '$v', expected '$5'"
}

# ---- replay: 3 snapshots (uptime 5000, 5002, 5006). Process 100: alpha-1 (tid 101) +2000
# vol +4 inv in interval 1, then its TID is reused (new starttime: no delta); alpha-2 (102)
# vanishes; alpha-3 (104) is new in snapshot 1 (no delta), +400 vol in interval 2; beta-1
# +40 inv each interval; app (100) +4 vol in interval 2.
"$PTK" cswtop --procfs "$R" -p 100 --json >"$TMP/r100"
check "replay -p 100: 2 intervals from 3 snapshots" [ "$(wc -l <"$TMP/r100")" -eq 2 ]
f="$TMP/r100"
expect "$f" 1 "(all)" csw_s 1022.0 p100    # (2004 + 40) / 2 s
expect "$f" 1 "(all)" threads 4 p100       # 100 101 103 104
expect "$f" 1 alpha csw_s 1002.0 p100      # 2004 / 2; 104 is new, 102 gone
expect "$f" 1 alpha cswch_s 1000.0 p100
expect "$f" 1 alpha nvcswch_s 2.0 p100
expect "$f" 1 alpha threads 2 p100
expect "$f" 1 alpha csw_pct 98.0 p100      # 1002 / 1022
expect "$f" 1 beta nvcswch_s 20.0 p100
expect "$f" 1 alpha m1_s null p100         # no 5 s tick yet
expect "$f" 2 "(all)" csw_s 111.0 p100     # (400 + 40 + 4) / 4 s
expect "$f" 2 alpha csw_s 100.0 p100       # only 104; 101 reused -> no delta
expect "$f" 2 alpha csw_pct 90.1 p100
expect "$f" 2 app cswch_s 1.0 p100
expect "$f" 2 alpha mean_s 400.7 p100      # (2004 + 400) / 6 s
expect "$f" 2 beta mean_s 13.3 p100        # 80 / 6
expect "$f" 2 alpha m1_s 460.8 p100        # tick at 5 s: (2004 + 400 * 3/4) / 5
expect "$f" 2 alpha m15_s 460.8 p100       # the first tick sets every EWMA
expect "$f" 2 beta m5_s 14.0 p100          # (40 + 30) / 5
expect "$f" 2 "(all)" m1_s 475.4 p100      # (2044 + 444 * 3/4) / 5
expect "$f" 2 "(all)" mean_s 414.7 p100    # 2488 / 6
r=$(jq -r '[.groups[].group] | join(",")' "$f" | tr '\n' ' ')
[ "$r" = "alpha,beta,app alpha,beta,app " ] && ok "replay ranking alpha > beta > app" ||
	not_ok "replay ranking: $r"

# whole machine: alpha-1 of process 200 joins the alpha pool; -g process; -g comm; -g regex
"$PTK" cswtop --procfs "$R" --json >"$TMP/rall"
expect "$TMP/rall" 1 alpha csw_s 1102.0 all     # + (500 - 300) / 2
expect "$TMP/rall" 1 alpha threads 3 all
expect "$TMP/rall" 1 order-processor csw_s 2000.0 all
"$PTK" cswtop --procfs "$R" -g process --json >"$TMP/rproc"
expect "$TMP/rproc" 1 "app[100]" csw_s 1022.0 process
expect "$TMP/rproc" 1 "db[200]" csw_s 110.0 process
expect "$TMP/rproc" 2 "db[200]" csw_s 100.0 process
"$PTK" cswtop --procfs "$R" -g comm -p 100,200 --json >"$TMP/rcomm"
expect "$TMP/rcomm" 1 alpha-1 csw_s 1102.0 comm
expect "$TMP/rcomm" 2 alpha-3 csw_s 100.0 comm
"$PTK" cswtop --procfs "$R" -r '^(a|b)[a-z]*-' -p 100 --json >"$TMP/rre"
expect "$TMP/rre" 1 a csw_s 1002.0 regex
expect "$TMP/rre" 1 "(unmatched)" threads 1 regex
"$PTK" cswtop --procfs "$R" -p 100 --top 1 --json >"$TMP/rtop"
check "replay --top 1: one group per interval" \
	[ "$(jq '.groups | length' "$TMP/rtop" | tr '\n' ' ')" = "1 1 " ]

# text and JSON say the same numbers
"$PTK" cswtop --procfs "$R" -p 100 >"$TMP/rtext"
sed 's/^/# /' "$TMP/rtext"
t=$(awk '$NF == "alpha" { print $2, $3, $7, $8 }' "$TMP/rtext" | tail -1)
[ "$t" = "100.0 90.1 400.7 460.8" ] && ok "replay text row alpha: $t" || not_ok "text row alpha: '$t'"
check "replay text: a header line per interval" [ "$(grep -c '^Time .*csw/s.*group$' "$TMP/rtext")" -eq 2 ]

# jstack dump in replay: the four "order-processor" threads of JVM 300 split by full name
"$PTK" cswtop --procfs "$R" -p 300 --jstack-file "$DUMP" --json >"$TMP/rj"
expect "$TMP/rj" 1 order-processor-pool csw_s 1800.0 jstack
expect "$TMP/rj" 1 order-processor-pool threads 2 jstack
expect "$TMP/rj" 1 order-processor-batch csw_s 200.0 jstack
expect "$TMP/rj" 1 main threads 1 jstack   # -p: the dump names TID 300 "main"
check "replay jstack: 5 threads named" [ "$(sed -n 1p "$TMP/rj" | jq .jstack_named)" -eq 5 ]
# without -p a dump name is taken only where the kernel name is its 15-char cut:
# TID 300 ("java", dump "main") and 401 ("nginx", dump "unrelated-long-name") keep theirs
"$PTK" cswtop --procfs "$R" --jstack-file "$DUMP" --json >"$TMP/rj2"
expect "$TMP/rj2" 1 order-processor-pool csw_s 1800.0 jstack-all
expect "$TMP/rj2" 1 nginx threads 2 jstack-all
expect "$TMP/rj2" 1 java threads 1 jstack-all
"$PTK" cswtop --procfs "$R" -p 300 --json >"$TMP/rnoj"
expect "$TMP/rnoj" 1 order-processor csw_s 2000.0 no-jstack
expect "$TMP/rnoj" 1 order-processor threads 4 no-jstack

# ---- usage and runtime errors
"$PTK" cswtop --jstack 1 1 >/dev/null 2>&1
check "--jstack without -p: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -g bogus 1 1 >/dev/null 2>&1
check "-g bogus: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -r '(' 1 1 >/dev/null 2>&1
check "invalid regex: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -g regex 1 1 >/dev/null 2>&1
check "-g regex without -r: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -g comm -n 5 1 1 >/dev/null 2>&1
check "-n with -g comm: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -p 1 --jstack --jstack-file "$DUMP" 1 1 >/dev/null 2>&1
check "--jstack with --jstack-file: exit 2" [ $? -eq 2 ]
"$PTK" cswtop --procfs "$R" -p 300 --jstack >/dev/null 2>&1
check "--jstack on a replay tree: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -p 0x 1 1 >/dev/null 2>&1
check "-p 0x: exit 2" [ $? -eq 2 ]
"$PTK" cswtop --procfs "$R" --jstack-file "$TMP/none" >/dev/null 2>"$TMP/e"
check "--jstack-file missing: exit 1" [ $? -eq 1 ]
echo "not a dump" >"$TMP/notdump"
"$PTK" cswtop --procfs "$R" --jstack-file "$TMP/notdump" >/dev/null 2>"$TMP/e"
rc=$?
note "$(cat "$TMP/e")"
{ [ $rc -eq 1 ] && grep -q "not a jstack" "$TMP/e"; } &&
	ok "--jstack-file on a non-dump: exit 1 with a reason" || not_ok "--jstack-file on a non-dump: exit 1 with a reason"
"$PTK" cswtop -p 2147483647 1 1 >/dev/null 2>"$TMP/e"
check "-p of no process: exit 1" [ $? -eq 1 ]

# ---- live helpers
# wait_ready FILE: until the program printed "ready" (or 30 s passed)
wait_ready() { for _ in $(seq 300); do grep -q ready "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# snap PID: "tid name vol invol" of every thread (tab-separated)
snap() {
	for s in /proc/$1/task/*/status; do
		awk -F'\t' '/^Name:/ { n = $2 } /^Pid:/ { p = $2 }
			/^voluntary_ctxt_switches:/ { v = $2 } /^nonvoluntary_ctxt_switches:/ { i = $2 }
			END { print p "\t" n "\t" v "\t" i }' "$s" 2>/dev/null
	done
}
# direct A B T0 T1 PATTERN FIELD: rate of the threads whose name matches PATTERN
# (FIELD 3 = voluntary, 4 = involuntary, 0 = both), from two snaps
direct() {
	awk -F'\t' -v pat="$5" -v f="$6" -v t0="$3" -v t1="$4" '
		NR == FNR { v[$1] = $3; i[$1] = $4; next }
		($1 in v) && $2 ~ pat { s += (f == 3 || f == 0 ? $3 - v[$1] : 0) + (f == 4 || f == 0 ? $4 - i[$1] : 0) }
		END { printf "%.1f\n", s / (t1 - t0) }' "$1" "$2"
}
# ptkavg FILE GROUP KEY: the group's value averaged over the intervals (weighted)
ptkavg() {
	jq -s -r --arg g "$2" --arg k "$3" '([.[] | .interval_s as $i | .groups[] |
		select(.group == $g) | .[$k] * $i] | add) / ([.[] | .interval_s] | add) | . * 10 | round / 10' "$1"
}

# ---- live: thread pools of cswload
if ! have cc; then
	skip "no C compiler for tests/progs/cswload.c"
else
	cc -O2 -pthread -o "$TMP/cswload" "$PROGS/cswload.c"
	"$TMP/cswload" 3 1 2 60 >"$TMP/ready" &
	LP=$!
	if ! wait_ready "$TMP/ready"; then
		not_ok "cswload did not start"
	else
		sleep 0.3
		have pidstat && LC_ALL=C timeout -k 5 60 pidstat -w -t -p $LP 1 3 >"$TMP/pidstat" &
		PSP=$!
		t0=$(date +%s.%N)
		snap $LP >"$TMP/a"
		"$PTK" cswtop -p $LP 1 3 --json >"$TMP/live"
		snap $LP >"$TMP/b"
		t1=$(date +%s.%N)
		wait $PSP
		note "ptk: $(sed -n 3p "$TMP/live" | jq -c '[.groups[] | {group, csw_s, cswch_s, nvcswch_s, threads}]')"
		check "live: 3 reports" [ "$(wc -l <"$TMP/live")" -eq 3 ]
		r=$(jq -r '.groups[0].group' "$TMP/live" | sort -u | tr '\n' ' ')
		[ "$r" = "alpha " ] && ok "live: alpha ranked first in every interval" || not_ok "live: first groups: $r"
		r=$(jq -r '[.groups[] | select(.group == "alpha" or .group == "beta" or .group == "gamma")] |
			map("\(.group):\(.threads)") | sort | join(",")' "$TMP/live" | sort -u | tr '\n' ' ')
		[ "$r" = "alpha:3,beta:1,gamma:2 " ] && ok "live: pools alpha 3, beta 1, gamma 2 threads" ||
			not_ok "live: pools $r"
		for g in alpha gamma; do
			d=$(direct "$TMP/a" "$TMP/b" "$t0" "$t1" "^$g-" 0)
			p=$(ptkavg "$TMP/live" $g csw_s)
			note "$g: ptk $p/s, direct from /proc $d/s"
			near_rel "$p" "$d" 0.15 && ok "live: $g rate within 15% of /proc ($p vs $d)" ||
				not_ok "live: $g rate $p vs /proc $d"
		done
		d=$(direct "$TMP/a" "$TMP/b" "$t0" "$t1" "^beta-" 3)
		p=$(ptkavg "$TMP/live" beta cswch_s)
		note "beta voluntary: ptk $p/s, direct $d/s (a spinning thread never blocks)"
		{ [ "$p" = 0 ] && [ "$d" = "0.0" ]; } &&
			ok "live: beta has no voluntary switches" || not_ok "live: beta has no voluntary switches"
		if [ -s "$TMP/pidstat" ]; then
			ps_alpha=$(awk '/^Average:/ && $NF ~ /^\|__alpha-/ { s += $(NF-2) } END { printf "%.1f", s }' "$TMP/pidstat")
			p=$(ptkavg "$TMP/live" alpha cswch_s)
			note "alpha cswch/s: ptk $p, pidstat -w -t (sum of the alpha threads' Average) $ps_alpha"
			near_rel "$p" "$ps_alpha" 0.15 && ok "live: alpha cswch/s within 15% of pidstat" ||
				not_ok "live: alpha cswch/s $p vs pidstat $ps_alpha"
		else
			skip "pidstat not installed"
		fi
		# -g process: the one process; its rate is the sum of its threads
		"$PTK" cswtop -p $LP -g process 1 2 --json >"$TMP/lproc"
		check "live -g process: one group cswload[$LP]" \
			[ "$(jq -r '.groups[].group' "$TMP/lproc" | sort -u)" = "cswload[$LP]" ]
		# --jstack on a process that is not a JVM: refused before jstack could SIGQUIT it
		"$PTK" cswtop -p $LP --jstack 1 1 >/dev/null 2>"$TMP/e"
		rc=$?
		note "$(cat "$TMP/e")"
		{ [ $rc -eq 1 ] && grep -q "not a HotSpot JVM" "$TMP/e" && kill -0 $LP; } &&
			ok "--jstack on a non-JVM: exit 1, reason given, process alive" || not_ok "--jstack on a non-JVM: exit 1, reason given, process alive"
	fi
	kill $LP 2>/dev/null
	wait $LP 2>/dev/null || true
fi

# ---- live JVM: pools whose names share their first 15 characters
if ! have javac || ! have java || ! have jstack; then
	skip "no JDK (javac, java, jstack) for tests/progs/CswLoad.java"
else
	mkdir -p "$TMP/java"
	javac -d "$TMP/java" "$PROGS/CswLoad.java"
	java -Xmx64m -cp "$TMP/java" CswLoad 3 2 120 >"$TMP/jready" &
	JP=$!
	if ! wait_ready "$TMP/jready"; then
		not_ok "CswLoad did not start"
	else
		"$PTK" cswtop -p $JP --jstack 1 1 >/dev/null # attach once: Attach Listener exists
		timeout -k 5 120 jstack $JP | sed -n 's/^"\(order-processor-[a-z]*\)-[0-9]*".* nid=0x\([0-9a-f]*\) .*/\2 \1/p' |
			while read -r h n; do echo "$((16#$h))	$n"; done >"$TMP/jmap"
		note "jstack: $(tr '\n\t' ', ' <"$TMP/jmap")"
		jsnap() { snap $JP | awk -F'\t' 'NR == FNR { n[$1] = $2; next } ($1 in n) { $2 = n[$1] } 1' OFS='\t' "$TMP/jmap" -; }
		t0=$(date +%s.%N)
		jsnap >"$TMP/ja"
		"$PTK" cswtop -p $JP --jstack 1 3 --json >"$TMP/jlive"
		jsnap >"$TMP/jb"
		t1=$(date +%s.%N)
		note "ptk: $(sed -n 3p "$TMP/jlive" | jq -c '[.groups[0,1,2] | {group, csw_s, threads}]')"
		r=$(jq -r '.groups[0].group' "$TMP/jlive" | sort -u | tr '\n' ' ')
		[ "$r" = "order-processor-pool " ] && ok "jvm: order-processor-pool ranked first" ||
			not_ok "jvm: first groups $r"
		r=$(jq -r '[.groups[] | select(.group | startswith("order-processor"))] |
			map("\(.group):\(.threads)") | sort | join(",")' "$TMP/jlive" | sort -u | tr '\n' ' ')
		[ "$r" = "order-processor-batch:2,order-processor-pool:3 " ] &&
			ok "jvm: full Java names split the pools (pool 3, batch 2 threads)" || not_ok "jvm: pools $r"
		for g in order-processor-pool order-processor-batch; do
			d=$(direct "$TMP/ja" "$TMP/jb" "$t0" "$t1" "^$g\$" 0)
			p=$(ptkavg "$TMP/jlive" $g csw_s)
			note "$g: ptk $p/s, direct from /proc + jstack $d/s"
			near_rel "$p" "$d" 0.15 && ok "jvm: $g rate within 15% of /proc ($p vs $d)" ||
				not_ok "jvm: $g rate $p vs /proc $d"
		done
		"$PTK" cswtop -p $JP 1 1 --json >"$TMP/jkern"
		r=$(jq -r '.groups[] | select(.group == "order-processor") | .threads' "$TMP/jkern")
		[ "$r" = 5 ] && ok "jvm without --jstack: the kernel's 15 characters merge them (5 threads)" ||
			not_ok "jvm without --jstack: order-processor threads '$r'"
		PATH=/nonexistent "$PTK" cswtop -p $JP --jstack 1 1 >/dev/null 2>"$TMP/e"
		rc=$?
		note "$(cat "$TMP/e")"
		{ [ $rc -eq 1 ] && grep -q "jstack not found" "$TMP/e"; } &&
			ok "--jstack with no jstack in PATH: exit 1, says so" || not_ok "--jstack with no jstack in PATH: exit 1, says so"
	fi
	kill $JP 2>/dev/null
	wait $JP 2>/dev/null || true
fi

# ---- --cgroup PATH and -g container: a cswload in a docker-named cgroup is the one group,
# with every thread of it and its rate from /proc; threads outside are not counted
"$PTK" cswtop --cgroup relative 1 1 >/dev/null 2>"$TMP/e"
check "--cgroup relative: exit 2" [ $? -eq 2 ]
"$PTK" cswtop -g bogus 1 1 >/dev/null 2>"$TMP/e"
check "-g bogus: the error lists container" grep -q "cgroup or container" "$TMP/e"
if [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then V2=/sys/fs/cgroup/unified
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then V2=/sys/fs/cgroup
else V2=; fi
ID=$(printf 'cd%.0s' $(seq 32))
if [ ! -x "$TMP/cswload" ] || [ "$(id -u)" -ne 0 ] || [ -z "$V2" ] ||
	! mkdir -p "$V2/ptk-test-csw$$/docker-$ID.scope" 2>/dev/null; then
	skip "--cgroup: needs root, a cgroup v2 tree and tests/progs/cswload built"
else
	CG="$V2/ptk-test-csw$$/docker-$ID.scope"
	trap 'kill $CP 2>/dev/null; wait $CP 2>/dev/null; rmdir "$CG" "$V2/ptk-test-csw$$" 2>/dev/null; rm -rf "$TMP"' EXIT
	(echo $BASHPID > "$CG/cgroup.procs"; exec "$TMP/cswload" 2 1 1 60 > "$TMP/ready2") &
	CP=$!
	if ! wait_ready "$TMP/ready2"; then
		not_ok "cswload in the cgroup did not start"
	else
		sleep 0.3
		nthr=$(ls /proc/$CP/task | wc -l)
		t0=$(date +%s.%N)
		snap $CP >"$TMP/ca"
		"$PTK" cswtop --cgroup "/ptk-test-csw$$" -g container --top 0 1 2 --json >"$TMP/cg"
		snap $CP >"$TMP/cb"
		t1=$(date +%s.%N)
		note "ptk: $(sed -n 2p "$TMP/cg" | jq -c '{cgroup, total: .total | {csw_s, threads}, groups: [.groups[] | {group, csw_s, threads}]}')"
		r=$(jq -r '[.groups[] | "\(.group):\(.threads)"] | join(",")' "$TMP/cg" | sort -u | tr '\n' ' ')
		[ "$r" = "docker:cdcdcdcdcdcd:$nthr " ] &&
			ok "--cgroup -g container: one group, docker:<12 hex>, all $nthr threads" ||
			not_ok "--cgroup -g container: groups '$r' (want docker:cdcdcdcdcdcd:$nthr)"
		r=$(jq -r '.total.threads' "$TMP/cg" | sort -u | tr '\n' ' ')
		[ "$r" = "$nthr " ] && ok "--cgroup: the total counts only the cgroup's threads ($nthr)" ||
			not_ok "--cgroup: total threads '$r', want $nthr"
		# switches, not rates: ptk's 2 intervals lie inside the window of the two snaps
		# (with its scans of every thread of the machine), and the load's rate moves on a
		# busy machine: never more than the cgroup's threads made, and a good part of it
		d=$(direct "$TMP/ca" "$TMP/cb" "$t0" "$t1" "." 0 | awk -v a="$t0" -v b="$t1" '{ printf "%.0f", $1 * (b - a) }')
		p=$(jq -s '[.[] | .interval_s as $i | .groups[] | .csw_s * $i] | add | round' "$TMP/cg")
		note "the cgroup's switches: ptk $p in its 2 intervals, /proc $d over the window around them"
		awk -v p="$p" -v d="$d" 'BEGIN { exit !(p > 0 && p <= d * 1.01 + 5 && p >= d * 0.3) }' &&
			ok "--cgroup: the group's switches are the cgroup's threads' (ptk $p, /proc $d around it)" ||
			not_ok "--cgroup: switches ptk $p vs /proc $d"
		"$PTK" cswtop --cgroup "/ptk-test-cs" 1 1 --json >"$TMP/cg2"
		check "--cgroup /ptk-test-cs: a name's prefix holds no thread" [ "$(jq -r '.total.threads' "$TMP/cg2")" = 0 ]
	fi
fi
