#!/usr/bin/env bash
# ptk strace: tests/progs/sysprobe.c performs known syscalls and writes the lines strace
# prints for them; ptk strace's output must contain each, and match strace 6's own output for
# the same calls (addresses and numbers normalised). -c counts are compared with strace -c,
# -e trace= (seccomp-bpf) with strace --seccomp-bpf, -f on a fork+vfork+thread tree, and the
# detach guarantees on a vfork+exec loop (SIGINT, SIGTERM, SIGKILL of ptk).
. "$(dirname "$0")/lib.sh"
PROGS=$(cd "$(dirname "$0")/../progs" && pwd)

is_root || { skip "ptrace of other processes needs root here"; exit 0; }
have cc || { skip "no C compiler for tests/progs/sysprobe.c"; exit 0; }
cc -O1 -o "$TMP/sysprobe" "$PROGS/sysprobe.c" &&
	cc -O1 -pthread -o "$TMP/forktree" "$PROGS/forktree.c" &&
	cc -O1 -pthread -o "$TMP/vforkloop" "$PROGS/vforkloop.c" || { not_ok "build test programs"; exit 0; }
cd "$TMP" || exit 1

norm() { sed -E 's/0x[0-9a-f]+/ADDR/g; s/[0-9]+/N/g' "$@"; }
segment() { sed -n '/ptk-probe-begin/,/ptk-probe-end/p' "$1"; }

# 1. the expected lines
"$PTK" strace -o p.txt ./sysprobe exp.txt 2>p.err
rc=$?
check "ptk strace runs sysprobe (exit $rc)" [ $rc -eq 0 ]
note "$(cat p.err)"
missing=$(grep -vxFf p.txt exp.txt)
n_exp=$(wc -l < exp.txt)
if [ -z "$missing" ] && [ "$n_exp" -ge 20 ]; then
	ok "all $n_exp expected sysprobe lines appear verbatim"
else
	not_ok "expected sysprobe lines missing"
	note "missing: $missing"
fi
grep -q '^+++ exited with 0 +++$' p.txt && ok "+++ exited with 0 +++" || not_ok "+++ exited line"
grep -q '^--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER' p.txt && ok "--- SIGUSR1 line" || not_ok "SIGUSR1 line"
grep -q 'ioctl([0-9]*, TCSETS, {' p.txt && ok "TCSETS on a pty named as TCSETS only" || not_ok "TCSETS on a pty"

# 2. side by side with strace
if have strace; then
	timeout -k 5 120 strace -o s.txt ./sysprobe exp2.txt
	# strace 6 cannot tell TCSETS from the sequencer's SNDCTL_TMR_START: ptk looks at the fd
	segment s.txt | sed 's/SNDCTL_TMR_START or TCSETS/TCSETS/' | norm > s.norm
	segment p.txt | norm > p.norm
	if diff p.norm s.norm > d.txt; then
		ok "sysprobe section identical to strace's ($(wc -l < p.norm) lines, normalised)"
	else
		not_ok "sysprobe section differs from strace's"
		note "$(head -20 d.txt)"
	fi
	# whole trace: lines that differ after normalisation (decoders ptk lacks), informative
	nd=$(diff <(norm p.txt) <(norm s.txt) | grep -c '^<')
	note "whole sysprobe trace: $nd of $(wc -l < p.txt) lines differ from strace after normalising"

	# 3. -c: calls and errors per syscall
	"$PTK" strace -c -o pc.txt ./sysprobe e.txt 2>/dev/null
	timeout -k 5 120 strace -c -o sc.txt ./sysprobe e.txt
	cnt() { awk '/^-/ {n++; next} n == 1 { if (NF == 6) print $6, $4, $5; else print $5, $4, 0 }' "$1" | sort; }
	if diff <(cnt pc.txt) <(cnt sc.txt) > dc.txt && [ -s pc.txt ]; then
		ok "-c calls and errors equal strace -c's ($(cnt pc.txt | wc -l) syscalls)"
	else
		not_ok "-c differs from strace -c"
		note "$(cat dc.txt)"
	fi
	grep -q '^100.00 .* total$' pc.txt && ok "-c total line" || not_ok "-c total line"

	# 4. -e trace= filtered in the kernel: with -f only (the filter is inherited, and a
	# filtered call of an untraced child would fail), as strace --seccomp-bpf; both then
	# prefix lines with the pid
	"$PTK" strace -f -e trace=openat,close -o pf.txt ./sysprobe e.txt 2>pf.err
	timeout -k 5 120 strace -f --seccomp-bpf -e trace=openat,close -o sf.txt ./sysprobe e.txt
	sed -i -E 's/^[0-9]+ +//' sf.txt pf.txt
	# (the pid prefix moved strace's return column: compare with spaces collapsed)
	if diff <(grep -v '^---\|rt_sigreturn' pf.txt | norm | sed -E 's/ +=/ =/') \
		<(grep -v '^---\|rt_sigreturn' sf.txt | norm | sed -E 's/ +=/ =/') > df.txt; then
		ok "-e trace=openat,close equals strace --seccomp-bpf ($(wc -l < pf.txt) lines)"
	else
		not_ok "-e trace=openat,close differs from strace --seccomp-bpf"
		note "$(head -10 df.txt)"
	fi
	stops_f=$(sed -n 's/.* \([0-9]*\) stops.*/\1/p' pf.err)
	stops_a=$(sed -n 's/.* \([0-9]*\) stops.*/\1/p' p.err)
	note "stops: filtered $stops_f, unfiltered $stops_a"
	check_all "seccomp filter: fewer stops ($stops_f) than unfiltered ($stops_a)" \
		'[ "${stops_f:-0}" -gt 0 ] && [ "${stops_f:-0}" -lt "${stops_a:-0}" ]'
else
	skip "strace not installed: no side-by-side comparison"
fi

# status= and -y
"$PTK" strace -e status=failed -o ps.txt ./sysprobe e.txt 2>/dev/null
bad=$(grep -v '^+++\|^---' ps.txt | grep -vc '= -1 \|= ? ')
check_all "-e status=failed shows only failed calls ($(wc -l < ps.txt) lines, $bad others)" \
	'[ "$bad" -eq 0 ] && [ -s ps.txt ]'
"$PTK" strace -y -e trace=openat,read -o py.txt ./sysprobe e.txt 2>/dev/null
grep -q 'O_RDONLY|O_CLOEXEC) = [0-9]*</etc/passwd>$' py.txt && grep -q '^read([0-9]*</etc/passwd>, "' py.txt &&
	ok "-y prints descriptors with their paths" || { not_ok "-y paths"; note "$(head -5 py.txt)"; }

# 5. -f: fork + exec, vfork + exec, a thread
"$PTK" strace -f -o pt.txt ./forktree > ft.out 2>/dev/null
fpid=$(awk '$1 == "fork" {print $2}' ft.out); vpid=$(awk '$1 == "vfork" {print $2}' ft.out)
main=$(awk 'NR == 1 {print $1}' pt.txt)
allpids=$(awk '{print $1}' pt.txt | sort -u | wc -l)
note "pids: main $main fork $fpid vfork $vpid; $allpids pids in the trace"
grep -q "^$fpid *execve(\"/bin/true\"" pt.txt && grep -q "^$vpid *execve(\"/bin/echo\"" pt.txt &&
	ok "-f: exec of the fork and vfork children shown" || not_ok "-f exec lines"
for p in $main $fpid $vpid; do
	grep -q "^$p *+++ exited with 0 +++" pt.txt || { not_ok "-f: +++ exited for $p"; continue; }
	ok "-f: +++ exited with 0 +++ for pid $p"
done
check "-f: the thread is traced too (4 pids: $allpids)" [ "$allpids" -eq 4 ]

# -e inject=: the call is not made and returns what was asked, marked (INJECTED), as strace
inj="openat:error=ENOENT:when=3"
"$PTK" strace -e trace=openat -e inject=$inj -o pi.txt cat /etc/hostname > pi.out 2>/dev/null
grep -q '= -1 ENOENT (No such file or directory) (INJECTED)$' pi.txt &&
	[ "$(grep -c INJECTED pi.txt)" = 1 ] && ok "-e inject=$inj: the third openat fails, marked (INJECTED)" ||
	{ not_ok "-e inject= line"; note "$(grep -m3 INJECTED pi.txt)"; }
"$PTK" strace -e trace=getpid -e inject=getpid:retval=42 -o pj.txt sh -c 'exit 0' 2>/dev/null
grep -q '^getpid() *= 42 (INJECTED)$' pj.txt && ok "-e inject=getpid:retval=42" || not_ok "-e inject= retval"
if have strace; then
	timeout -k 5 60 strace -e trace=openat -e inject=$inj -o si.txt cat /etc/hostname > /dev/null
	check "-e inject=$inj: the same trace as strace's" diff pi.txt si.txt
fi

# -k: the stack at each syscall exit, the innermost frames named as strace -k names them
cc -O1 -o writeloop "$PROGS/writeloop.c" && "$PTK" strace -k -e trace=write -o pk.txt ./writeloop 2 /dev/null 2>/dev/null
frames() { awk '/^write\(3,/ { n = 2; next } /^ > / && n > 0 { sub(/\+.*/, ""); sub(/.*\(/, ""); print; n-- }' "$1"; }
check_all "-k: each write's stack starts in write and main ($(frames pk.txt | tr '\n' ' '))" \
	'[ "$(frames pk.txt | grep -c "write$")" = 2 ] && [ "$(frames pk.txt | grep -c "^main$")" = 2 ]'
if have strace && timeout -k 5 60 strace -k -e trace=write -o sk.txt ./writeloop 2 /dev/null 2>/dev/null; then
	check "-k: the innermost two frames named as strace -k's" diff <(frames pk.txt) <(frames sk.txt)
fi

# 6-8. detaching under load: a vfork+exec loop with a syscall-spinning thread
tracees_ok() { # $1 = target pid: every task of it and of its children not stopped, untraced
	local p t st bad=0
	for p in $1 $(cat /proc/$1/task/*/children 2>/dev/null); do
		for t in /proc/$p/task/*; do
			[ -r "$t/status" ] || continue
			st=$(awk '/^State:/ {print $2}' "$t/status")
			tp=$(awk '/^TracerPid:/ {print $2}' "$t/status")
			if [ "$st" = t ] || [ "$st" = T ] || [ "${tp:-0}" -ne 0 ]; then
				bad=$((bad + 1)); note "$t: State $st TracerPid $tp"
			fi
		done
	done
	[ $bad -eq 0 ]
}
runs() { local a b; a=$(awk '{print $14 + $15}' /proc/$1/stat); sleep 0.3; b=$(awk '{print $14 + $15}' /proc/$1/stat); note "target cpu ticks $a -> $b"; [ "$b" -gt "$a" ]; }
for sig in INT TERM KILL; do
	./vforkloop & T=$!
	sleep 0.3
	"$PTK" strace -f -p $T -o dl.txt 2>dl.err & P=$!
	sleep 1
	t0=$(date +%s%N)
	kill -$sig $P
	for _ in $(seq 1000); do kill -0 $P 2>/dev/null || break; sleep 0.01; done
	t1=$(date +%s%N)
	wait $P 2>/dev/null
	note "SIG$sig: ptk gone after $(( (t1 - t0) / 1000000 )) ms; $(wc -l < dl.txt) trace lines; $(tail -1 dl.err)"
	sleep 0.1
	check "SIG$sig to ptk: no task of the target stopped or still traced" tracees_ok $T
	check "SIG$sig to ptk: the target keeps running" runs $T
	kill -9 $T; wait $T 2>/dev/null
done
# the command is found before the fork, as strace finds it: its trace begins with one execve
# (not execvp's failed tries along $PATH), and a command that is not there is refused before
# anything runs
PATH="/nonexistent-a:/nonexistent-b:$PATH" "$PTK" strace -c -o cw.txt true 2>/dev/null
pe=$(awk '$NF == "execve" { print $4 }' cw.txt)
if have strace; then
	PATH="/nonexistent-a:/nonexistent-b:$PATH" timeout -k 5 60 strace -c -o cws.txt true 2>/dev/null
	se=$(awk '$NF == "execve" { print $4 }' cws.txt)
else
	se=1
fi
check "strace -c CMD with PATH entries before it: execve called once, as strace ($pe vs ${se:-none})" \
	test "${pe:-x}" = 1 -a "${se:-y}" = 1
"$PTK" strace true 2>tr.txt >/dev/null
check "strace CMD: the trace starts at the one execve of the file found" \
	grep -q '^execve("/usr/bin/true", \["true"\]' <(head -1 tr.txt)
"$PTK" strace /nonexistent/cmd > nx.out 2> nx.err
rc=$?
check_all "strace of a command that is not there: exit 1, one line, nothing traced ($(head -1 nx.err))" \
	'[ $rc = 1 ] && [ "$(wc -l < nx.err)" = 1 ] && grep -q "No such file" nx.err'
# -w: the summary's time is each call's wall time (a 0.2 s sleep is 0.2 s), as strace -c -w
"$PTK" strace -c -w -o w.txt sleep 0.2 2>/dev/null
pw=$(awk '$NF == "clock_nanosleep" { print $2 }' w.txt)
if have strace; then
	timeout -k 5 60 strace -c -w -o ws.txt sleep 0.2 2>/dev/null
	sw=$(awk '$NF == "clock_nanosleep" { print $2 }' ws.txt)
else
	sw=0.2
fi
check "strace -c -w: clock_nanosleep's seconds are the sleep's 0.2 s, as strace's ($pw vs ${sw:-none})" \
	python3 -c "import sys; p, s = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not (0.19 <= p < 1.5 and 0.19 <= s < 1.5))" "${pw:-0}" "${sw:-0}"
echo "1..$T_N"
