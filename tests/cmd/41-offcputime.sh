#!/usr/bin/env bash
# ptk offcputime on tests/progs/offcpu_nap.c (main -> work -> nap -> nanosleep 50 ms, frame
# pointers): the folded stack main;work;nap;...;-;...schedule, its total against the time the
# program slept, -p against an unfiltered run over the same window, side by side with
# libbpf-tools offcputime, JSON, text layout, clean exit on SIGINT/SIGTERM.
. "$(dirname "$0")/lib.sh"
is_root || { skip "offcputime needs root (BPF)"; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { skip "no kernel BTF"; exit 0; }
have cc || { skip "no C compiler for tests/progs/offcpu_nap.c"; exit 0; }
have python3 || { skip "no python3 to read the JSON output"; exit 0; }

cc -O1 -g -fno-omit-frame-pointer -o "$TMP/offcpu_nap" "$(dirname "$0")/../progs/offcpu_nap.c" ||
	{ not_ok "build offcpu_nap.c"; exit 0; }
"$TMP/offcpu_nap" > "$TMP/nap.out" & NAP=$!
trap 'kill $NAP 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 300); do grep -q ready "$TMP/nap.out" && break; sleep 0.1; done # up to 30 s: a busy machine
D=3

# all side by side over the same 3 s: -p folded, unfiltered folded, -p JSON, -p text, anchor
"$PTK" offcputime -p $NAP -f $D > "$TMP/fp.txt" 2> "$TMP/fp.err" & A=$!
"$PTK" offcputime -f --stack-storage-size 65536 $D > "$TMP/fall.txt" 2> "$TMP/fall.err" & B=$!
"$PTK" offcputime -p $NAP --json $D > "$TMP/p.json" 2> "$TMP/json.err" & C=$!
"$PTK" offcputime -p $NAP $D > "$TMP/p.txt" 2> "$TMP/txt.err" & E=$!
ANCHOR=
if have offcputime; then
	timeout -k 5 60 offcputime -p $NAP $D > "$TMP/anchor.txt" 2> "$TMP/anchor.err" & ANCHOR=$!
fi
wait $A; ra=$?
wait $B; rb=$?
wait $C; rc=$?
wait $E; re=$?
[ -n "$ANCHOR" ] && wait $ANCHOR
kill -TERM $NAP; wait $NAP
read -r _ naps _ slept_us _ elapsed_us < <(grep '^naps ' "$TMP/nap.out")
note "offcpu_nap: $naps naps, slept $slept_us us of $elapsed_us us"
for f in fp fall json txt; do grep -v '^traced\|^lost\|^observer\|^Tracing' "$TMP/$f.err" | head -3 | sed "s/^/# $f stderr: /"; done
check "ptk offcputime -p PID -f $D exits 0" test $ra -eq 0
check "ptk offcputime -f (all tasks) exits 0" test $rb -eq 0
check "ptk offcputime --json exits 0" test $rc -eq 0
check "ptk offcputime (text) exits 0" test $re -eq 0

# 1. the folded stack: comm;...main;work;nap;[libc];-;kernel...schedule
nap_re='^offcpu_nap;(.*;)?main;work;nap;'
grep -E "$nap_re" "$TMP/fp.txt" | sed 's/^/# /' | cut -c1-400
check "-f: a stack ...main;work;nap;... of offcpu_nap" grep -qE "$nap_re" "$TMP/fp.txt"
check "-f: after nap, user frames are the libc sleep (or [unknown]), then '-', then the kernel" \
	grep -qE "${nap_re}(([^;]*nanosleep[^;]*|\[unknown\]);)*-;" "$TMP/fp.txt"
check "-f: kernel frames after '-' go through the nanosleep syscall to schedule (root -> leaf)" \
	grep -qE "${nap_re}.*;-;(.*;)?entry_SYSCALL[^;]*;(.*;)?[^;]*nanosleep[^;]*;(.*;)?schedule(;[^ ;]*)? [0-9]+$" "$TMP/fp.txt"
check "-f: no observer frames (bpf_prog_*, bpf_trace_run*) in the stacks" \
	bash -c "! grep -qE ';(bpf_prog_|bpf_trace_run|__bpf_trace_)' '$TMP/fp.txt'"

# 2. its total against the time slept over the window: D s x (slept / elapsed), and
#    50 ms x the naps that fit in D s at the program's own pace
tot=$(grep -E "$nap_re" "$TMP/fp.txt" | awk '{ s += $NF } END { print s + 0 }')
win=$(awk '/^traced [0-9.]+ s$/ { print $2 }' "$TMP/fp.err")
[ -n "$win" ] || { not_ok "-f: the traced window is printed on stderr ('traced N s')"; win=$D; }
nwin=$(awk -v w="$win" -v n="$naps" -v e="$elapsed_us" 'BEGIN { print int(w * 1e6 / (e / n)) }')
exp_frac=$(awk -v w="$win" -v s="$slept_us" -v e="$elapsed_us" 'BEGIN { printf "%.0f", w * 1e6 * s / e }')
exp_naps=$((50000 * nwin))
note "nap stack total over the $win s window: ptk $tot us; expected $exp_frac us (window x slept/elapsed), $exp_naps us (50 ms x $nwin naps at the program's pace)"
check "nap stack total $tot us within 10% of the time slept over the window ($exp_frac us)" near_rel "$tot" "$exp_frac" 0.10
check "nap stack total $tot us within 10% of 50 ms x naps in the window ($exp_naps us)" near_rel "$tot" "$exp_naps" 0.10

# 3. -p gives the same stacks as the unfiltered run (the program's comm is unique): every stack
# holding >= 1% of the program's off-CPU time in one run is in the other (a one-off preemption
# stack of a few us may fall inside only one run's window)
main_stacks() { awk '/^offcpu_nap;/ { v = $NF; sub(/ [0-9]+$/, ""); t[$0] += v; s += v }
	END { for (k in t) if (t[k] >= 0.01 * s) print k }' "$1" | sort; }
main_stacks "$TMP/fp.txt" > "$TMP/sp"
main_stacks "$TMP/fall.txt" > "$TMP/sall"
note "stacks of offcpu_nap with >= 1% of its time: -p $(wc -l < "$TMP/sp"), unfiltered $(wc -l < "$TMP/sall") (of $(wc -l < "$TMP/fall.txt") lines)"
diff "$TMP/sp" "$TMP/sall" | head -6 | cut -c1-300 | sed 's/^/# diff: /'
if grep -q '^offcpu_nap;\[Missed [A-Za-z]* Stack: stack map full\]' "$TMP/fall.txt" "$TMP/fp.txt"; then
	# a stack map is a hash without chaining: on a busy machine another task's stack can
	# take the bucket of ours first; that run then reports it lost, not wrong
	skip "-p vs unfiltered: a stack of offcpu_nap collided in a run's stack map (reported lost)"
else
	check "-p PID: the same set of folded stacks as the unfiltered run" cmp -s "$TMP/sp" "$TMP/sall"
fi
tall=$(grep -E "$nap_re" "$TMP/fall.txt" | awk '{ s += $NF } END { print s + 0 }')
note "nap stack total: -p $tot us, unfiltered $tall us"
check "nap stack total: -p ($tot) and unfiltered ($tall) within 10%" near_rel "$tot" "$tall" 0.10
grep -h '^lost' "$TMP/fp.err" "$TMP/fall.err" | sed 's/^/# /'

# 4. side by side with libbpf-tools offcputime -p PID
if [ -n "$ANCHOR" ] && [ -s "$TMP/anchor.txt" ]; then
	# blocks: frames (leaf first), "-  comm (pid)", total; the nap block has nap, work, main
	atot=$(awk '/^    [^ -]/ { f[$1] = 1 } /^        [0-9]+$/ { if (f["nap"] && f["work"] && f["main"]) s += $1; delete f }
		END { print s + 0 }' "$TMP/anchor.txt")
	note "nap stack total: ptk $tot us, libbpf-tools offcputime $atot us"
	check "libbpf-tools offcputime shows the nap stack too" test "$atot" -gt 0
	check "nap stack totals of ptk ($tot) and libbpf-tools ($atot) within 10%" near_rel "$tot" "$atot" 0.10
else
	skip "libbpf-tools offcputime not installed or no output: no side-by-side"
fi

# 5. JSON: the stack as frame lists, leaf first, with the observer and lost counts
py() { python3 - "$TMP/p.json" "$NAP" <<EOF
import json, sys
d = json.load(open(sys.argv[1])); pid = int(sys.argv[2])
s = [x for x in d["stacks"] if x["user_stack"] and [f["func"] for f in x["user_stack"]][-3:] != []
     and "nap" in [f["func"] for f in x["user_stack"]]]
$1
EOF
}
check "--json: a stack with pid, tid, comm, user frames nap<-work<-main (leaf first) and kernel schedule" py '
x = s[0]; u = [f["func"] for f in x["user_stack"]]; k = [f["func"] for f in x["kernel_stack"]]
print("# json:", x["pid"], x["tid"], x["comm"], u, k[:3], x["usecs"])
assert x["pid"] == pid and x["tid"] == pid and x["comm"] == "offcpu_nap"
i = u.index("nap"); assert u[i:i + 3] == ["nap", "work", "main"]
assert "schedule" in k[:3] and x["usecs"] > 0 and x["count"] > 0
f = x["user_stack"][i]; assert f["module"].endswith("offcpu_nap") and f["offset"] is not None'
check "--json: observer and lost counts present, no stack lost" py '
o = d["observer"]; l = d["lost"]; print("# observer", o, "lost", l)
assert o["bpf_run_count"] is None or o["bpf_run_count"] > 0
assert l["user_stack_map_full"] == 0 and l["kernel_stack_map_full"] == 0'
check "--json: only the process (-p)" py 'assert all(x["pid"] == pid for x in d["stacks"])'

# 6. text layout: leaf first, kernel frames, "--", user frames, "-  comm (tid)", usecs
awk -v p=$NAP '/^    schedule$/ { k = 1 } k && /^    --$/ { s = 1 } s && /^    nap$/ { n = 1 }
	n && $0 ~ "^    -  *offcpu_nap \\(" p "\\)$" { c = 1; next } c { if ($0 ~ /^        [0-9]+$/) ok = 1; c = 0 }
	/^$/ { k = s = n = 0 } END { exit !ok }' "$TMP/p.txt"
check "text: schedule ... -- ... nap ... '-  offcpu_nap ($NAP)' then the usecs line" test $? -eq 0

# 7. SIGINT and SIGTERM: report at exit, clean exit, its BPF programs and links gone
"$TMP/offcpu_nap" > /dev/null & NAP=$!
# the three loaders (light skeleton tp_btf / raw_tp flavours, libbpf before 5.17) see the
# same nap<-work<-main stack of the napping process
for l in 1:tp_btf raw:raw_tp 0:tp_btf; do
	PTK_BPF_LSKEL=${l%%:*} "$PTK" offcputime -p $NAP --json 1 > "$TMP/l.json" 2>/dev/null
	res=$(python3 - "$TMP/l.json" "${l#*:}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = any("nap" in [f["func"] for f in (x["user_stack"] or [])] for x in d["stacks"])
print(d["hook"], d["loader"], int(ok and d["hook"] == sys.argv[2]))
PY
)
	note "PTK_BPF_LSKEL=${l%%:*}: $res"
	if [ "${l%%:*}" != 0 ] && [ "$(echo "$res" | awk '{print $2}')" = libbpf ]; then
		skip "light skeletons do not load on this kernel (before 5.17): ptk used libbpf"
		continue
	fi
	check "loader PTK_BPF_LSKEL=${l%%:*}: hook ${l#*:}, the nap stack is seen" test "${res##* }" = 1
done
for sig in INT TERM; do
	"$PTK" offcputime -p $NAP -f > "$TMP/sig.txt" 2> "$TMP/sig.err" & P=$!
	ids=
	for _ in $(seq 100); do
		ids=$(cat /proc/$P/fdinfo/* 2>/dev/null | awk '/^(prog|link)_id:/ { print $1 $2 }' | sort -u | tr '\n' ' ')
		[[ "$ids" == *link_id* ]] && break
		sleep 0.1
	done
	sleep 1
	kill -$sig $P; wait $P; rc=$?
	# the kernel frees a program after an RCU grace period: give it up to 5 s
	for _ in $(seq 50); do
		left=
		for id in $ids; do
			case $id in
			prog_id:*) bpftool prog show id "${id#prog_id:}" > /dev/null 2>&1 && left="$left $id" ;;
			link_id:*) bpftool link show id "${id#link_id:}" > /dev/null 2>&1 && left="$left $id" ;;
			esac
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	note "SIG$sig: held $ids; left after exit:${left:- none}"
	check "SIG$sig: exit $rc (0), its programs and links ($ids) gone" test $rc -eq 0 -a -n "$ids" -a -z "$left"
	check "SIG$sig: the stacks are reported at exit" grep -qE "$nap_re" "$TMP/sig.txt"
done
kill $NAP; wait $NAP 2>/dev/null

"$PTK" offcputime -u -k 1 > /dev/null 2>&1; check "-u with -k is a usage error (2)" test $? -eq 2
"$PTK" offcputime -m abc 1 > /dev/null 2>&1; check "-m abc is a usage error (2)" test $? -eq 2
"$PTK" offcputime -m 10 -M 5 1 > /dev/null 2>&1; check "-m above -M is a usage error (2)" test $? -eq 2
"$PTK" offcputime 0 > /dev/null 2>&1; check "duration 0 is a usage error (2)" test $? -eq 2
"$PTK" offcputime -P 1 > /dev/null 2>&1; check "-P does not apply: usage error (2)" test $? -eq 2
