#!/usr/bin/env bash
# ptk strace --bpf and ptk syscount: syscalls seen from the raw_syscalls tracepoints, the
# traced processes never stopped.
# - --bpf prints the lines the ptrace path prints for the same fixed program (writeloop);
# - a tight loop of 1-byte writes loses no event and pays a fraction of ptrace's cost
#   (measured from inside the loop);
# - -p PID: the target is never in a tracing stop and has no tracer; -f follows fork, vfork
#   and exec; SIGINT and SIGTERM leave no BPF program behind;
# - ptk syscount counts the same writes as libbpf-tools syscount, by syscall and by process.
. "$(dirname "$0")/lib.sh"
PROGS=$(cd "$(dirname "$0")/../progs" && pwd)

is_root || { skip "BPF needs root here"; echo "1..$T_N"; exit 0; }
have cc || { skip "no C compiler for tests/progs"; echo "1..$T_N"; exit 0; }
cc -O1 -o "$TMP/writeloop" "$PROGS/writeloop.c" &&
	cc -O1 -pthread -o "$TMP/forktree" "$PROGS/forktree.c" || { not_ok "build test programs"; exit 0; }
cd "$TMP" || exit 1
if ! "$PTK" strace --bpf -o /dev/null ./writeloop 1 t 2> probe.err; then
	skip "strace --bpf cannot run here: $(head -1 probe.err)"
	echo "1..$T_N"
	exit 0
fi

# 1. the same lines as the ptrace path
set_="write,close,exit_group"
"$PTK" strace -e trace=$set_ -o p.txt ./writeloop 50 /dev/null 2>/dev/null
"$PTK" strace --bpf -e trace=$set_ -o b.txt ./writeloop 50 /dev/null 2>b.err
if diff <(grep -v "^write(4" p.txt) <(grep -v "^write(4" b.txt) > d.txt && [ "$(grep -c '^write(3, "x", 1) *= 1$' b.txt)" = 50 ]; then
	ok "--bpf -e trace=$set_: the ptrace path's $(wc -l < p.txt) lines exactly"
else
	not_ok "--bpf lines differ from ptrace's"
	note "$(head -10 d.txt)"
fi
"$PTK" strace -o pa.txt ./writeloop 5 /dev/null 2>/dev/null
"$PTK" strace --bpf -o ba.txt ./writeloop 5 /dev/null 2>/dev/null
# addresses differ from run to run (ASLR), and so do set_tid_address's pid, getrandom's bytes
# and the loop's time; execve's argv and envp are arrays of pointers, which --bpf shows by
# address
norm() { grep -v '^execve\|^set_tid_address\|^getrandom\|^write(4' "$1" | sed -E 's/0x[0-9a-f]+/ADDR/g'; }
nd=$(diff <(norm pa.txt) <(norm ba.txt) | grep -c '^>')
check "--bpf whole trace: the ptrace path's lines but addresses, pids, random bytes and execve's arrays ($nd differ of $(wc -l < ba.txt))" \
	[ "$nd" = 0 ]
grep -q 'events lost\|0 events lost' b.err && grep -q 'ns per event' b.err &&
	ok "--bpf reports its cost per event and the events lost: $(tail -1 b.err)" ||
	{ not_ok "--bpf observer line"; note "$(cat b.err)"; }

# 2. a tight loop: nothing lost (the reader keeps up when it gets a CPU), and a fraction of
# ptrace's cost to the program. The --bpf reader runs beside the program (ptrace's never does:
# the tracee waits for it), so on a loaded machine it takes CPU from it: for the cost it runs
# at nice 19 (the command it launches at ours), which leaves what the tracing itself adds
# (events it then has no CPU to read are lost, and counted).
N=100000
./writeloop $N t0
"$PTK" strace --bpf -o loop.txt ./writeloop $N tl 2> loop.err
nw=$(grep -c '^write(3, "x", 1) *= 1$' loop.txt)
check_all "--bpf: all $N writes of a tight loop shown ($nw), $(grep -o '[0-9]* events lost' loop.err)" \
	'[ "$nw" = $N ] && grep -q " 0 events lost" loop.err'
nice -n 19 "$PTK" strace --bpf -o /dev/null nice -n -19 ./writeloop $N tb 2> loopn.err
note "reader at nice 19: $(tail -1 loopn.err)"
"$PTK" strace -o /dev/null ./writeloop $N tp 2>/dev/null
./writeloop $N t1
alone=$(sort -n t0 t1 | head -1)
read -r b p < <(echo "$(cat tb) $(cat tp)")
ratio=$(awk -v a="$alone" -v b="$b" -v p="$p" 'BEGIN { printf "%.3f", (b - a) / (p - a) }')
note "loop of $N writes: alone $((alone / 1000000)) ms, --bpf $((b / 1000000)) ms, ptrace $((p / 1000000)) ms"
# bench/strace.sh measures the ratio (goal 0.1); a busy machine gets a margin here
check "--bpf costs the loop a fraction of what ptrace costs it ($ratio, bound 0.25)" \
	awk -v r="$ratio" 'BEGIN { exit !(r < 0.25) }'

# 3. -p PID: never stopped, no tracer; -f
./writeloop 200000000 tl & T=$!
sleep 0.2
"$PTK" strace --bpf -p $T -e trace=write -o pp.txt 2> pp.err & P=$!
for _ in $(seq 100); do grep -q attached pp.err && break; sleep 0.05; done
sleep 0.3
stopped=0
for _ in $(seq 50); do
	st=$(awk '{print $3}' /proc/$T/stat)
	tp=$(awk '/^TracerPid:/ {print $2}' /proc/$T/status)
	{ [ "$st" = t ] || [ "$st" = T ] || [ "$tp" != 0 ]; } && stopped=$((stopped + 1))
	sleep 0.01
done
ids=$(bpf_prog_ids_of $P | tr '\n' ' ')
kill -INT $P
wait $P 2>/dev/null
nw=$(grep -c '^write(3, "x", 1) *= 1$' pp.txt)
check_all "-p: $nw writes traced, the target never stopped nor traced ($stopped of 50 samples)" \
	'[ "$nw" -gt 1000 ] && [ "$stopped" = 0 ]'
check "-p, SIGINT: the programs ptk held [$ids] are gone" bpf_progs_gone $ids
"$PTK" strace --bpf -p $T -e trace=write -o /dev/null 2>/dev/null & P=$!
sleep 0.5
ids=$(bpf_prog_ids_of $P | tr '\n' ' ')
kill -TERM $P
wait $P 2>/dev/null
check "-p, SIGTERM: the programs ptk held [$ids] are gone" bpf_progs_gone $ids
kill -0 $T 2>/dev/null && ok "the target runs on after ptk ends" || not_ok "the target died"
kill $T; wait $T 2>/dev/null

"$PTK" strace --bpf -f -o ft.txt ./forktree > ft.out 2>/dev/null
fpid=$(awk '$1 == "fork" {print $2}' ft.out); vpid=$(awk '$1 == "vfork" {print $2}' ft.out)
grep -q "^$fpid *execve(\"/bin/true\"" ft.txt && grep -q "^$vpid *execve(\"/bin/echo\"" ft.txt &&
	ok "-f: the fork and vfork children's execs are shown" ||
	{ not_ok "-f exec lines"; note "$(grep execve ft.txt | head -5)"; }
grep -q "^$fpid *+++ exited with 0 +++" ft.txt && ok "-f: +++ exited with 0 +++ for the fork child" ||
	not_ok "-f: exit line of the fork child"

# 4. -c --bpf counts in the kernel
"$PTK" strace -c --bpf -o c.txt ./writeloop 3000 t 2>/dev/null
check "-c --bpf: 3001 writes counted in the kernel (the loop and its time)" \
	awk '$NF == "write" { n = $(NF - 1) } END { exit !(n == 3001) }' c.txt

# 5. ptk syscount next to libbpf-tools syscount, on the same process
sh -c 'sleep 1; exec ./writeloop 5000 t' & T=$!
"$PTK" syscount -p $T -d 3 -T 100 > ps.txt 2>ps.err & P1=$!
ref=false
if [ -x /usr/sbin/syscount ]; then
	timeout -k 5 60 /usr/sbin/syscount -p $T -d 3 -T 100 > ls.txt 2>&1 & P2=$!
	ref=true
fi
wait $T; wait $P1
$ref && wait $P2
pw=$(awk '$1 == "write" {print $2}' ps.txt)
if $ref; then
	lw=$(awk '$1 == "write" {print $2}' ls.txt)
	check_all "syscount: 5001 writes counted (the loop and its time), as libbpf-tools syscount ($pw, $lw)" \
		'[ "$pw" = 5001 ] && [ "$lw" = 5001 ]'
	check_all "syscount: the same syscalls and counts as libbpf-tools ($(awk 'NF == 2 && $2 ~ /^[0-9]+$/' ps.txt | wc -l))" \
		'diff <(awk "NF == 2 && \$2 ~ /^[0-9]+\$/" ps.txt | sort) <(awk "NF == 2 && \$2 ~ /^[0-9]+\$/" ls.txt | sort) > sd.txt'
	note "$(cat sd.txt 2>/dev/null)"
else
	check "syscount: 5001 writes counted ($pw)" [ "$pw" = 5001 ]
	skip "libbpf-tools syscount not installed: no side-by-side"
fi
grep -q "ns per event" ps.err && ok "syscount reports its cost: $(tail -1 ps.err)" || not_ok "syscount observer line"
sh -c 'sleep 1; exec ./writeloop 2000 t' & T=$!
"$PTK" syscount -p $T -P -L -d 3 > pl.txt 2>/dev/null
wait $T
check_all "syscount -P -L: the process's row with its count and time" \
	'awk -v p=$T "\$1 == p && \$3 >= 2000 && \$4 > 0 { f = 1 } END { exit !f }" pl.txt'
"$PTK" syscount > /dev/null 2>&1 & P=$!
sleep 1
ids=$(bpf_prog_ids_of $P | tr '\n' ' ')
kill -TERM $P
wait $P 2>/dev/null
check "syscount, SIGTERM: the programs it held [$ids] are gone" bpf_progs_gone $ids
echo "1..$T_N"
