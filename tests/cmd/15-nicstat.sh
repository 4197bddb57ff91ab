#!/usr/bin/env bash
# ptk nicstat: formulas on a fixture (interface recreated, link speed known), live lo traffic
# against sar -n DEV over the same window, TCP opens against /proc/net/snmp, JSON = text.
. "$(dirname "$0")/lib.sh"

F=$FIX/nicstat_recreated

# ---- fixture: exact figures ------------------------------------------------------------
out=$("$PTK" nicstat --procfs "$F" 1 2>&1)
rc=$?
note "fixture output:"
while IFS= read -r l; do note "  $l"; done <<<"$out"
check "nicstat on fixture exits 0" test $rc -eq 0
# report 2 (rows after the second header): 2 s between the snapshots' uptime
row2() { awk -v ifn="$1" '$1 == "Time" { h++ } h == 2 && $2 == ifn' <<<"$out"; }
row1() { awk -v ifn="$1" '$1 == "Time" { h++ } h == 1 && $2 == ifn' <<<"$out"; }
eth=$(row2 eth0)
exp="1000.00 24414.06 1000.00 20000.00 1024.00 1250.00 20.00 5.00"
got=$(awk '{ $1 = $2 = ""; print substr($0, 3) }' <<<"$eth")
note "eth0 interval: got [$got] expected [$exp]"
check "eth0 rates, rAvs/wAvs, %Util (1000 Mb/s, busier direction tx), Sat (rx fifo excluded)" \
	test "$got" = "$exp"
veth=$(row2 veth0)
note "veth0 after its counters restarted: [$veth]"
check "recreated interface gives 0, not a wrapped counter" \
	test "$(awk '{ print $3, $4, $5, $6 }' <<<"$veth")" = "0.00 0.00 0.00 0.00"
note "since boot eth0: [$(row1 eth0)] (expect %Util 8.00 = 1e7 B/s of 1000 Mb/s, Sat 0.14 = 14/100 s)"
check "first report is since boot (uptime 100 s)" \
	test "$(awk '{ print $3, $9, $10 }' <<<"$(row1 eth0)")" = "9765.62 8.00 0.14"
check "lo %Util is '-' (no link speed)" test "$(awk '{ print $9 }' <<<"$(row2 lo)")" = "-"
check "interface that never carried a packet (dummy0) is not shown" \
	test -z "$(awk '$2 == "dummy0"' <<<"$out")"

z=$("$PTK" nicstat --procfs "$F" -z 1)
note "-z rows: $(awk '$1 != "Time" { printf "%s ", $2 }' <<<"$z")"
check "-z hides the interface without packets in the interval" \
	test "$(awk '$1 != "Time" { printf "%s ", $2 }' <<<"$z")" = "lo eth0 veth0 lo eth0 "
i=$("$PTK" nicstat --procfs "$F" -i eth0,veth0 -n 1 | awk '$1 != "Time" { printf "%s ", $2 }')
check "-i eth0,veth0 selects those interfaces ($i)" test "$i" = "eth0 veth0 eth0 veth0 "

tcp=$("$PTK" nicstat --procfs "$F" -t 1)
while IFS= read -r l; do note "  $l"; done <<<"$tcp"
got=$(awk '$1 == "TCP" { n++ } $1 == "TCP" && n == 2 { $1 = ""; print substr($0, 2) }' <<<"$tcp")
exp="- - 1000.00 2000.00 5.00 2.00 1.00 10.00 20.00 3.00"
note "TCP interval: got [$got] expected [$exp]"
check "TCP: Reset=EstabResets+OutRsts, %ReTX=RetransSegs/OutSegs, Drops=ListenDrops, no byte counter" \
	test "$got" = "$exp"
check "TCP header has nicstat's columns" \
	grep -q 'InKB *OutKB *InSeg *OutSeg *Reset *AttF *%ReTX *InConn *OutCon *Drops' <<<"$tcp"

# ---- --json parses and says what the text says ------------------------------------------
json=$("$PTK" nicstat --procfs "$F" --json 1)
cmp_py='
import json, sys
text = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.split()[0] in ("Time",)]
objs = [json.loads(l) for l in open(sys.argv[2])]
keys = ["rxkb_s", "txkb_s", "rxpck_s", "txpck_s", "ravs_bytes", "wavs_bytes", "ifutil_pct", "sat_s"]
rows = [[r["iface"]] + ["-" if r[k] is None else "%.2f" % r[k] for k in keys]
        for o in objs for r in o["interfaces"]]
assert len(objs) == 2 and objs[0]["since_boot"] and objs[1]["interval_s"] == 2.0, objs
assert rows == [t[1:] for t in text], (rows, text)
print(len(rows))
'
printf '%s\n' "$out" >"$TMP/text"
printf '%s\n' "$json" >"$TMP/json"
n=$(python3 -c "$cmp_py" "$TMP/text" "$TMP/json" 2>&1)
note "json vs text: $n"
check "--json parses, one object per report, same values as text" test "$n" = 6

# ---- usage and runtime errors -----------------------------------------------------------
"$PTK" nicstat -q >/dev/null 2>&1
check "unknown option exits 2" test $? -eq 2
"$PTK" nicstat -i , >/dev/null 2>&1
check "empty -i list exits 2" test $? -eq 2
"$PTK" nicstat 0 >/dev/null 2>&1
check "interval 0 exits 2" test $? -eq 2
e=$("$PTK" nicstat -i no_such_if 2>&1)
rc=$?
check "unknown interface exits 1 with one line ($e)" test $rc -eq 1 -a "$(wc -l <<<"$e")" -eq 1

# ---- live: lo traffic, ptk vs sar over the same 3 s --------------------------------------
cat >"$TMP/udp.py" <<'EOF'
# Paced UDP on 127.0.0.1: RATE datagrams/s of 1400 bytes for DUR seconds, drained by a receiver.
import socket, sys, time
dur, rate = float(sys.argv[1]), int(sys.argv[2])
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
rx.bind(("127.0.0.1", 0))
rx.setblocking(False)
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
payload, n, t0 = b"x" * 1400, 0, time.monotonic()
while time.monotonic() - t0 < dur:
    due = int((time.monotonic() - t0) * rate)
    while n < due:
        tx.sendto(payload, rx.getsockname())
        n += 1
    try:
        while True:
            rx.recv(65536)
    except BlockingIOError:
        pass
    time.sleep(0.005)
EOF
if ! have sar; then
	skip "sar (sysstat) not installed"
else
	python3 "$TMP/udp.py" 7 4000 &
	gen=$!
	sleep 0.5
	"$PTK" nicstat -i lo 1 4 >"$TMP/ptk.out" 2>&1 &
	p1=$!
	LC_ALL=C timeout -k 5 60 sar -n DEV 1 3 >"$TMP/sar.out" 2>&1 &
	p2=$!
	wait $p1
	rc1=$?
	wait $p2
	kill $gen 2>/dev/null
	wait $gen 2>/dev/null
	while IFS= read -r l; do note "  ptk: $l"; done <"$TMP/ptk.out"
	grep -E 'IFACE|lo ' "$TMP/sar.out" | while IFS= read -r l; do note "  sar: $l"; done
	check "ptk nicstat -i lo 1 4 exits 0" test $rc1 -eq 0
	# ptk: the 3 interval rows (the first row is since boot); sar: its Average line
	read -r p_kb p_pk p_util <<<"$(awk '$2 == "lo" { n++; if (n > 1) { kb += $3; pk += $5; u = u $9 } }
		END { if (n == 4) printf "%.2f %.2f %s", kb / 3, pk / 3, u }' "$TMP/ptk.out")"
	read -r s_pk s_kb <<<"$(awk '$1 == "Average:" && $2 == "lo" { print $3, $5 }' "$TMP/sar.out")"
	note "lo average rKB/s ptk=$p_kb sar=$s_kb   rPk/s ptk=$p_pk sar=$s_pk"
	if [ -z "$p_kb" ] || [ -z "$s_kb" ]; then
		not_ok "ptk and sar lo rows found"
	else
		check "lo rKB/s agrees with sar rxkB/s within 10% ($p_kb vs $s_kb)" near_rel "$p_kb" "$s_kb" 0.10
		check "lo rPk/s agrees with sar rxpck/s within 10% ($p_pk vs $s_pk)" near_rel "$p_pk" "$s_pk" 0.10
		check "traffic was seen (lo rPk/s $p_pk > 1000)" awk -v a="$p_pk" 'BEGIN { exit !(a > 1000) }'
		check "lo %Util is '-' in every interval ($p_util)" test "$p_util" = "---"
	fi
fi

# ---- live: TCP opens against /proc/net/snmp ---------------------------------------------
cat >"$TMP/conn.py" <<'EOF'
# Listen on 127.0.0.1, make N connections to it (connect, accept, close).
import socket, sys
n = int(sys.argv[1])
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(n + 8)
for _ in range(n):
    c = socket.create_connection(srv.getsockname())
    a, _ = srv.accept()
    a.close()
    c.close()
EOF
active() { awk '$1 == "Tcp:" && $2 ~ /^[0-9]+$/ { print $6 }' /proc/net/snmp; }
N=40
a0=$(active)
"$PTK" nicstat -t --json 2 2 >"$TMP/tcp.json" 2>&1 &
p=$!
# the connections go in the interval: after the since-boot report (printed at once), which a
# busy machine is slow to get to
wait_file "$TMP/tcp.json" since_boot
sleep 0.2
python3 "$TMP/conn.py" $N
wait $p
rc=$?
a1=$(active)
read -r out_n in_n <<<"$(python3 -c '
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][1]
print(round(o["tcp"]["active_s"] * o["interval_s"]), round(o["tcp"]["passive_s"] * o["interval_s"]))
' "$TMP/tcp.json" 2>/dev/null)"
note "made $N connections; ptk interval OutCon*itv=$out_n InConn*itv=$in_n; Tcp ActiveOpens delta around the run=$((a1 - a0))"
check "ptk nicstat -t --json 2 2 exits 0" test $rc -eq 0
if [ -z "$out_n" ]; then
	not_ok "JSON tcp row parsed"
else
	check "OutCon counts the $N connections and no more than ActiveOpens moved ($N <= $out_n <= $((a1 - a0)))" \
		test "$out_n" -ge $N -a "$out_n" -le $((a1 - a0))
	check "InConn counts the $N accepted connections ($in_n)" test "$in_n" -ge $N
fi
t=$("$PTK" nicstat -t 1 2)
while IFS= read -r l; do note "  $l"; done <<<"$t"
check "ptk nicstat -t 1 2: two headers with nicstat's TCP columns, two TCP rows" \
	test "$(grep -c 'InKB *OutKB *InSeg *OutSeg *Reset *AttF *%ReTX *InConn *OutCon *Drops' <<<"$t")" -eq 2 \
	-a "$(grep -c '^TCP ' <<<"$t")" -eq 2
