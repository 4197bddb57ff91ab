#!/usr/bin/env bash
# ptk tcpconnect and tcpaccept: a connect to a listener on 127.0.0.1 (and ::1) shows the exact
# ports and pids of the connecting and the accepting process (tests/progs/tcppair.c prints
# them from getsockname/accept); -4/-6 and -P filter; side by side with libbpf-tools
# tcpconnect and bpftrace tcpaccept.bt where they can attach; SIGINT/SIGTERM leave nothing.
. "$(dirname "$0")/lib.sh"
is_root || { skip "tcpconnect/tcpaccept need root (BPF)"; exit 0; }
have cc || { skip "no C compiler for tests/progs/tcppair.c"; exit 0; }
have jq || { skip "jq missing"; exit 0; }
cc -O1 -o "$TMP/tcppair" "$(dirname "$0")/../progs/tcppair.c" || { not_ok "build tcppair.c"; exit 0; }
# the programs of the ptk processes started here (their fds): another copy of the suite may
# trace connects meanwhile
IDS=
held() { IDS="$IDS $(bpf_prog_ids_of "$1" | tr '\n' ' ')"; }
# the tracefs mounts of this namespace, by mount point, less /sys/kernel/debug/tracing: debugfs
# mounts tracefs there for whoever first looks into it (another tracer on the machine)
tracefs_mounted() { awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "tracefs" && $5 != "/sys/kernel/debug/tracing" { print $5 }' /proc/self/mountinfo | sort | tr '\n' ' '; }
wait_for() { for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

addrs="127.0.0.1"
ip -6 addr show dev lo 2>/dev/null | grep -q 'inet6 ::1' && addrs="$addrs ::1"
mnt_before=$(tracefs_mounted)
"$PTK" tcpconnect -s --json > "$TMP/c.json" 2> "$TMP/c.err" & TC=$!
"$PTK" tcpaccept --json > "$TMP/a.json" 2> "$TMP/a.err" & TA=$!
"$PTK" tcpconnect -4 > "$TMP/c4.txt" 2> "$TMP/c4.err" & T4=$!
"$PTK" tcpaccept -6 -t > "$TMP/a6.txt" 2> "$TMP/a6.err" & A6=$!
ANC= ANA=
have tcpconnect && { timeout -k 5 300 stdbuf -oL tcpconnect > "$TMP/anc.txt" 2> "$TMP/anc.err" & ANC=$!; }
if have bpftrace; then
	bt=$(command -v tcpaccept.bt || echo /usr/share/bpftrace/tools/tcpaccept.bt)
	[ -r "$bt" ] && { timeout -k 5 300 stdbuf -oL bpftrace "$bt" > "$TMP/ana.txt" 2> "$TMP/ana.err" & ANA=$!; }
fi
trap 'kill $TC $TA $T4 $A6 $ANC $ANA 2>/dev/null; rm -rf "$TMP"' EXIT
for f in c a c4 a6; do
	wait_for "$TMP/$f.err" Tracing || { not_ok "ptk did not attach: $(cat "$TMP/$f.err")"; exit 0; }
done
note "hooks: $(grep -h Tracing "$TMP/c.err" "$TMP/a.err" | tr '\n' ' ')"
# the anchors start slower (their header once attached); they may also fail to attach here
# (see below): up to 30 s
for _ in $(seq 300); do
	{ [ -z "$ANC" ] || grep -q PID "$TMP/anc.txt" || ! kill -0 $ANC 2>/dev/null; } &&
		{ [ -z "$ANA" ] || grep -q PID "$TMP/ana.txt" || ! kill -0 $ANA 2>/dev/null; } && break
	sleep 0.1
done
for p in $TC $TA $T4 $A6; do held $p; done
check "programs attached while running (links: $(for p in $TC $TA $T4 $A6; do printf '%s ' "$(bpf_links_of $p)"; done))" \
	test "$(bpf_links_of $TC)" -gt 0 -a "$(bpf_links_of $TA)" -gt 0 -a "$(bpf_links_of $T4)" -gt 0 -a "$(bpf_links_of $A6)" -gt 0
for a in $addrs; do "$TMP/tcppair" "$a" > "$TMP/pair-$a.txt" || not_ok "tcppair $a failed"; done
sleep 1
kill -INT $TC $T4; kill -TERM $TA $A6
for p in $TC $TA $T4 $A6; do wait $p; check "pid $p exits 0 on SIGINT/SIGTERM" test $? -eq 0; done
[ -n "$ANC" ] && { kill -INT $ANC 2>/dev/null; wait $ANC; }
[ -n "$ANA" ] && { kill -INT $ANA 2>/dev/null; wait $ANA; }

for a in $addrs; do
	read -r _ lpid lport < <(grep '^listen' "$TMP/pair-$a.txt")
	read -r _ cpid sport < <(grep '^connect' "$TMP/pair-$a.txt")
	read -r _ apid rport < <(grep '^accept' "$TMP/pair-$a.txt")
	ipv=4; [ "$a" = "::1" ] && ipv=6
	c=$(jq -c "select(.dport? == $lport)" "$TMP/c.json")
	note "$a: tcppair says listen pid $lpid port $lport, connect pid $cpid sport $sport, accept pid $apid peer $rport"
	note "$a: ptk tcpconnect: $c"
	check "tcpconnect $a: pid $cpid, $a:$sport -> $a:$lport, IPv$ipv" test "$(echo "$c" | jq -r '"\(.pid) \(.saddr) \(.sport) \(.daddr) \(.dport) \(.ip)"')" = "$cpid $a $sport $a $lport $ipv"
	x=$(jq -c "select(.lport? == $lport)" "$TMP/a.json")
	note "$a: ptk tcpaccept: $x"
	check "tcpaccept $a: pid $apid, remote $a:$rport, local $a:$lport, IPv$ipv" test "$(echo "$x" | jq -r '"\(.pid) \(.raddr) \(.rport) \(.laddr) \(.lport) \(.ip)"')" = "$apid $a $rport $a $lport $ipv"
	if [ "$ipv" = 4 ]; then
		check "tcpconnect -4 text: the IPv4 connect line" grep -qE "^$cpid +tcppair +4 +$a +$a +$lport$" "$TMP/c4.txt"
	else
		check "tcpaccept -6 text: the IPv6 accept line" grep -qE "^[0-9.]+ +$apid +tcppair +6 +::1 +$rport +::1 +$lport$" "$TMP/a6.txt"
		check "tcpconnect -4 shows no IPv6 connect" test "$(grep -c " 6 " "$TMP/c4.txt")" -eq 0
	fi
	if [ -n "$ANC" ] && grep -q "^$cpid " "$TMP/anc.txt" 2>/dev/null; then
		check "libbpf-tools tcpconnect agrees: pid $cpid to port $lport" grep -qE "^$cpid +tcppair +$ipv .* $lport *$" "$TMP/anc.txt"
	else
		skip "libbpf-tools tcpconnect cannot attach on this kernel ($(grep -m1 -i 'fail' "$TMP/anc.err" 2>/dev/null || echo 'not installed')): the fexit/kprobe hooks it uses are absent, which is also why ptk fell back to the syscalls hook"
	fi
	if [ -n "$ANA" ] && grep -q " $apid " "$TMP/ana.txt" 2>/dev/null; then
		check "bpftrace tcpaccept.bt agrees: pid $apid, ports $rport/$lport" grep -qE " $apid +tcppair +[^ ]+ +$rport +[^ ]+ +$lport " "$TMP/ana.txt"
	else
		skip "bpftrace tcpaccept.bt cannot attach on this kernel ($(grep -m1 -iE 'attach|probe' "$TMP/ana.err" 2>/dev/null || grep -m1 -iE 'error' "$TMP/ana.err" 2>/dev/null || echo 'not installed')): it needs kretprobes"
	fi
done
c4=$(head -1 "$TMP/c4.txt")
check "tcpconnect text header: PID COMM IP SADDR DADDR DPORT" test "$(echo $c4)" = "PID COMM IP SADDR DADDR DPORT"
check "tcpaccept -t text header: TIME(s) PID COMM IP RADDR RPORT LADDR LPORT" test "$(head -1 "$TMP/a6.txt" | tr -s ' ')" = "TIME(s) PID COMM IP RADDR RPORT LADDR LPORT"
check "lost events reported (JSON observer)" test "$(jq -r 'select(.observer?) | .observer.lost_events' "$TMP/c.json")" = 0

# -P: a port that is not the listener's filters everything out
"$PTK" tcpconnect -P 1 --json > "$TMP/p.json" 2> "$TMP/p.err" & TP=$!
wait_for "$TMP/p.err" Tracing; held $TP
"$TMP/tcppair" 127.0.0.1 > /dev/null
sleep 0.5; kill -INT $TP; wait $TP
check "tcpconnect -P 1: the connect to another port is not shown" test "$(jq -r 'select(.dport?) | .dport' "$TMP/p.json" | wc -l)" -eq 0

# a blocking connect refused by the peer (RST) still sent its SYN: it is shown (libbpf-tools
# sees tcp_v4_connect return 0). With the syscalls hook the socket is reset by the time
# connect returns, so its source shows as unknown (null / -), never as 0.0.0.0
"$PTK" tcpconnect --json > "$TMP/rf.json" 2> "$TMP/rf.err" & TR=$!
wait_for "$TMP/rf.err" Tracing; held $TR
RP=$(python3 -c "
import os, socket
for a, fam in (('127.0.0.1', socket.AF_INET), ('::1', socket.AF_INET6)):
    s = socket.socket(fam)
    try:
        s.connect((a, 1))
    except ConnectionRefusedError:
        pass
print(os.getpid())")
sleep 0.5; kill -INT $TR; wait $TR
hook=$(grep -o '([a-z]*)' "$TMP/rf.err" | head -1)
res=$(jq -r "select(.dport? == 1 and .pid == $RP) | \"\(.ip) \(.daddr) \(.saddr)\"" "$TMP/rf.json" | sort | tr '\n' ',')
note "refused connects of pid $RP to port 1, hook $hook: $res"
if [ "$hook" = "(syscalls)" ]; then
	want="4 127.0.0.1 null,6 ::1 null,"
else
	want="4 127.0.0.1 127.0.0.1,6 ::1 ::1,"
fi
check "a refused blocking connect is shown: IPv4 and IPv6, pid $RP, port 1 ($res)" test "$res" = "$want"

check "nothing left attached after exit (programs$IDS)" bpf_progs_gone $IDS
check "tracefs mount state restored ($(tracefs_mounted)as before: $mnt_before)" test "$(tracefs_mounted)" = "$mnt_before"
"$PTK" tcpconnect -4 -6 > /dev/null 2>&1
check "-4 -6 together is a usage error (exit 2)" test $? -eq 2
"$PTK" tcpaccept -P 70000 > /dev/null 2>&1
check "-P 70000 is a usage error (exit 2)" test $? -eq 2
