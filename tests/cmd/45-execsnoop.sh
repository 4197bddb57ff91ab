#!/usr/bin/env bash
# ptk execsnoop: 500 short-lived /bin/true are all reported (or counted as lost), side by side
# with libbpf-tools execsnoop; execveat (dirfd-relative and fexecve) is reported; a failed
# exec shows a negative RET with -x only; SIGINT/SIGTERM leave nothing attached.
. "$(dirname "$0")/lib.sh"
is_root || { skip "execsnoop needs root (BPF)"; exit 0; }
have cc || { skip "no C compiler for tests/progs/execat.c"; exit 0; }
have jq || { skip "jq missing"; exit 0; }
cc -O1 -o "$TMP/execat" "$(dirname "$0")/../progs/execat.c" || { not_ok "build execat.c"; exit 0; }
# the programs of the ptk processes started here (their fds): another copy of the suite may
# trace execs meanwhile
IDS=
held() { IDS="$IDS $(bpf_prog_ids_of "$1" | tr '\n' ' ')"; }
# the tracefs mounts of this namespace, by mount point, less /sys/kernel/debug/tracing: debugfs
# mounts tracefs there for whoever first looks into it (another tracer on the machine)
tracefs_mounted() { awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "tracefs" && $5 != "/sys/kernel/debug/tracing" { print $5 }' /proc/self/mountinfo | sort | tr '\n' ' '; }
# wait_for FILE PATTERN: up to 20 s for the tool to say it is attached
wait_for() { for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

M=ptkk$$
mnt_before=$(tracefs_mounted)
"$PTK" execsnoop -x --json > "$TMP/es.json" 2> "$TMP/es.err" & ES=$!
"$PTK" execsnoop -x -P $$ > "$TMP/es.txt" 2> "$TMP/est.err" & ET=$!
ANCHOR=
if have execsnoop; then
	timeout -k 5 300 stdbuf -oL execsnoop -x > "$TMP/anchor.txt" 2> "$TMP/anchor.err" & ANCHOR=$!
fi
trap 'kill $ES $ET $ANCHOR 2>/dev/null; rm -rf "$TMP"' EXIT
wait_for "$TMP/es.err" Tracing && wait_for "$TMP/est.err" Tracing || { not_ok "ptk execsnoop did not attach: $(cat "$TMP/es.err")"; exit 0; }
[ -n "$ANCHOR" ] && { wait_for "$TMP/anchor.txt" PCOMM || note "libbpf-tools execsnoop did not start: $(head -3 "$TMP/anchor.err")"; }
held $ES; held $ET
check "programs attached while running ($(bpf_links_of $ES) and $(bpf_links_of $ET) links)" test "$(bpf_links_of $ES)" -gt 0 -a "$(bpf_links_of $ET)" -gt 0

for i in $(seq 500); do /bin/true "$M-loop"; done
"$TMP/execat" dirat "$M-dirat"
"$TMP/execat" fexec "$M-fexec"
"/nonexistent/$M-missing" 2>/dev/null
sleep 1
kill -INT $ES; kill -TERM $ET
[ -n "$ANCHOR" ] && kill -INT $ANCHOR
wait $ES; rc_int=$?
wait $ET; rc_term=$?
[ -n "$ANCHOR" ] && wait $ANCHOR
check "SIGINT: exit 0" test $rc_int -eq 0
check "SIGTERM: exit 0" test $rc_term -eq 0

n=$(jq -r "select(.args? and (.args | contains(\"$M-loop\")) and .comm == \"true\" and .ret == 0) | .pid" "$TMP/es.json" | sort -u | wc -l)
lost=$(jq -r 'select(.observer?) | .observer.lost_events' "$TMP/es.json")
note "ptk execsnoop: $n of 500 /bin/true reported, $lost events lost"
check "500 short execs: reported + lost >= 500 (reported $n, lost ${lost:-?})" test $((n + ${lost:-0})) -ge 500
check "lost count printed: JSON observer.lost_events ($lost) and the text run's stderr" \
	test -n "$lost" -a "$(grep -c 'events lost' "$TMP/est.err")" -eq 1
if [ -n "$ANCHOR" ] && [ -s "$TMP/anchor.txt" ]; then
	a=$(grep -c -- "$M-loop" "$TMP/anchor.txt")
	note "libbpf-tools execsnoop: $a of 500; ptk: $n (same run)"
	check "same 500 as libbpf-tools execsnoop within 1% ($n vs $a)" near_rel "$n" "$a" 0.01 2
else
	skip "libbpf-tools execsnoop not installed or not running here: no side-by-side"
fi

# execveat: the dirfd-relative path "true", and fexecve (no path: argv[0])
ja() { jq -c "select(.args? and (.args | contains(\"$1\")))" "$TMP/es.json"; }
note "dirat: $(ja "$M-dirat")"
note "fexec: $(ja "$M-fexec")"
check "execveat(dirfd, \"true\") reported with ret 0 and args 'true $M-dirat'" \
	test "$(ja "$M-dirat" | jq -r 'select(.ret == 0 and .comm == "true") | .args')" = "true $M-dirat"
check "fexecve (execveat AT_EMPTY_PATH) reported with ret 0" \
	test "$(ja "$M-fexec" | jq -r 'select(.ret == 0 and .comm == "true") | .args')" = "true $M-fexec"

# failed exec: -x shows RET -2 (ENOENT); the PID is the shell's child that tried it
f=$(ja "$M-missing" | jq -r '.ret' | sort -u)
note "failed exec RET: $f"
check "-x: failed exec shows RET -2" test "$f" = "-2"

# text layout and the -P PPID filter: only children of this shell
check "text header: PCOMM PID PPID RET ARGS" grep -q "^PCOMM  *PID  *PPID  *RET ARGS$" "$TMP/es.txt"
t=$(grep -c -- "$M-loop" "$TMP/es.txt")
other=$(awk -v p=$$ 'NR > 1 && $3 != p' "$TMP/es.txt" | grep -vc -- "$M" || true)
note "-P $$: $t loop lines, $other lines with another parent"
check "-P PPID: the 500 children of this shell, and nothing else" test "$t" -eq 500 -a "$other" -eq 0

# --max-args: the truncation marker
"$PTK" execsnoop --max-args 2 --json > "$TMP/ma.json" 2> "$TMP/ma.err" & MA=$!
wait_for "$TMP/ma.err" Tracing; held $MA
/bin/true a b c "$M-max"
sleep 0.5; kill -INT $MA; wait $MA
check "--max-args 2: '/bin/true a ...'" test "$(jq -r "select(.args? and .comm == \"true\" and .pid) | .args" "$TMP/ma.json" | grep -c '^/bin/true a \.\.\.$')" -ge 1

check "--max-args run: loaded as a light skeleton (kernel-side loader)" test "$(jq -r 'select(.loader?) | .loader' "$TMP/ma.json")" = "light skeleton"

# the libbpf loader (kernels before 5.17) sees the same exec
PTK_BPF_LSKEL=0 "$PTK" execsnoop --json > "$TMP/lb.json" 2> "$TMP/lb.err" & LB=$!
wait_for "$TMP/lb.err" Tracing; held $LB
/bin/true "$M-libbpf"
sleep 0.5; kill -INT $LB; wait $LB
check "PTK_BPF_LSKEL=0: the libbpf loader, and the exec is seen" test "$(jq -r 'select(.loader?) | .loader' "$TMP/lb.json"),$(jq -r 'select(.args?) | .args' "$TMP/lb.json" | grep -c "^/bin/true $M-libbpf$")" = "libbpf,1"

# rare runs are measured whole, whenever they come: 50 execs 2 s into a 3 s run are in the
# observer's count of program runs (each exec runs the enter and exit programs once)
"$PTK" execsnoop -n true --json > "$TMP/ob.json" 2> "$TMP/ob.err" & OB=$!
wait_for "$TMP/ob.err" Tracing; held $OB
sleep 2
for _ in $(seq 50); do /bin/true "$M-late"; done
sleep 1; kill -INT $OB; wait $OB
res=$(jq -r 'select(.observer?) | .observer | "\(.bpf_stats_sampled) \(.bpf_run_count)"' "$TMP/ob.json")
note "3 s run, 50 execs at 2 s: observer sampled/runs: $res; exec lines: $(grep -c -- "$M-late" "$TMP/ob.json")"
check "50 execs late in a 3 s run: counted exactly, not sampled, >= 100 program runs" \
	test "${res%% *}" = false -a "${res##* }" -ge 100

check "nothing left attached after exit (programs$IDS)" bpf_progs_gone $IDS
check "tracefs mount state restored ($(tracefs_mounted)as before: $mnt_before)" test "$(tracefs_mounted)" = "$mnt_before"
"$PTK" execsnoop --max-args 0 > /dev/null 2>&1
check "--max-args 0 is a usage error (exit 2)" test $? -eq 2
