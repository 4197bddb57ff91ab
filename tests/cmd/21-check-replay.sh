#!/usr/bin/env bash
# ptk check over a synthetic snapshot tree (the layout `ptk capture` writes), with expected
# verdicts and values computed by hand from the formulas: nothing sleeps, every number known.
. "$(dirname "$0")/lib.sh"

T=$TMP/tree
python3 - "$T" <<'PY'
import os, sys
root = sys.argv[1]
def w(snap, rel, text):
    p = os.path.join(root, str(snap), rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text)
for i in range(3):
    up = 1000.0 + i
    w(i, "uptime", f"{up:.2f} {2*up:.2f}\n")
    # 2 CPUs x 2 s x 100 Hz = 400 ticks: user +360, system +20, idle +20 over the window
    u0, u1 = 1000 + 100*i, 1000 + 80*i
    s1, i1 = 500 + 10*i, 50000 + 10*i
    w(i, "stat", f"cpu  {u0+u1} 0 {500+s1} {50000+i1} 0 0 0 0 0 0\n"
                 f"cpu0 {u0} 0 500 50000 0 0 0 0 0 0\n"
                 f"cpu1 {u1} 0 {s1} {i1} 0 0 0 0 0 0\n"
                 f"intr 1000 0\nctxt {5000+1000*i}\nbtime 1700000000\nprocesses {300+5*i}\n"
                 f"procs_running 7\nprocs_blocked 0\n")
    w(i, "loadavg", "6.50 6.00 5.00 7/300 4000\n")
    w(i, "meminfo", "MemTotal:        8388608 kB\nMemFree:          100000 kB\n"
                    "MemAvailable:     409600 kB\nBuffers:            1000 kB\nCached:           200000 kB\n"
                    "SwapTotal:       2097152 kB\nSwapFree:        1048576 kB\nSReclaimable:      10000 kB\n")
    w(i, "vmstat", f"pgpgin {1000*i}\npgpgout {2000*i}\npswpin {100*i}\npswpout {200*i}\n"
                   f"pgfault {10000*i}\npgmajfault {50*i}\npgscan_kswapd 0\npgscan_direct {500*i}\noom_kill 0\n")
    # sda: io_ticks +950 ms/s (95%), time_in_queue +4000 ms/s (aqu-sz 4), 200 writes/s at 20 ms
    w(i, "diskstats", f"   8       0 sda 10 0 80 5 {200*i} 0 {3200*i} {4000*i} 0 {950*i} {4000*i} 0 0 0 0 0 0\n"
                      f"   8       1 sda1 10 0 80 5 {200*i} 0 {3200*i} {4000*i} 0 {950*i} {4000*i} 0 0 0 0 0 0\n")
    w(i, "sys/block/sda/queue/rotational", "1\n")
    w(i, "sys/class/block/sda1/partition", "1\n")
    w(i, "sys/class/block/sda/dev", "8:0\n")
    w(i, "sys/devices/system/cpu/online", "0-1\n")
    w(i, "sys/class/net/eth0/speed", "1000\n")
    # eth0 sends 100,000,000 B/s = 800 Mb/s on a 1000 Mb/s link: 80%
    w(i, "net/dev", "Inter-|   Receive                                                |  Transmit\n"
                    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
                    f"    lo: 100 1 0 0 0 0 0 0 100 1 0 0 0 0 0 0\n"
                    f"  eth0: {1000+1000000*i} {10+100*i} 0 0 0 0 0 0 {5000+100000000*i} {50+70000*i} 0 0 0 0 0 0\n")
    # 5000 segments/s sent, 300/s retransmitted: 6%
    w(i, "net/snmp", "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
                     f"Tcp: 1 200 120000 -1 10 10 0 0 5 {1000*i} {5000*i} {300*i} 0 0 0\n")
    w(i, "net/netstat", "TcpExt: ListenOverflows ListenDrops\nTcpExt: 0 0\n")
    # cpu some +250 ms/s: 25% of the window
    w(i, "pressure/cpu", f"some avg10=25.00 avg60=20.00 avg300=10.00 total={250000*i}\n"
                         f"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    w(i, "pressure/memory", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    w(i, "pressure/io", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    # a process named "hog) x" using 1.5 CPUs (150 ticks/s), and a D-state thread
    st = lambda pid, comm, state, ut: (f"{pid} ({comm}) {state} 1 {pid} {pid} 0 -1 4194304 100 0 {7*i} 0 "
                                       f"{ut} 0 0 0 20 0 1 0 5000 10000000 2500 18446744073709551615 "
                                       "1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n")
    w(i, "100/stat", st(100, "hog) x", "R", 1000 + 150*i))
    w(i, "100/io", f"rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: 0\nwrite_bytes: {4096*i}\ncancelled_write_bytes: 0\n")
    w(i, "100/task/100/stat", st(100, "hog) x", "R", 1000 + 150*i))
    w(i, "200/stat", st(200, "flusher", "D", 10))
    w(i, "200/task/200/stat", st(200, "flusher", "D", 10))
    w(i, "200/task/200/wchan", "io_schedule")
    w(i, "200/wchan", "io_schedule")
    # an OOM kill logged 1.5 s into the window (t = 1001.5 s after boot)
    w(i, "kmsg", "6,1,500000,-;Linux version 6.1\n" +
                 ("3,2,1001500000,-;Out of memory: Killed process 4242 (java) total-vm:1024kB\n" if i == 2 else ""))
PY

"$PTK" check --procfs "$T" -d 2 --json > "$TMP/r.json"; rc=$?
check "replay of a 3-snapshot tree exits 0" test $rc -eq 0
"$PTK" check --procfs "$T" -d 2 > "$TMP/r.txt"
sed 's/^/# /' "$TMP/r.txt" | head -60
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['resources']
def row(res, dev=None): return [x for x in r if x['resource']==res and (dev is None or x['device']==dev)][0]
sys.exit(0 if ($1) else 1)" "$TMP/r.json"; }
check "window is 2.0 s from the snapshots' uptime" py "abs(d['duration_s']-2.0)<1e-6"
check "cpu busy = 380/400 ticks = 95.0%" py "row('cpu')['utilization']['busy_pct']==95.0"
check "cpu run queue 7 less the reader on 2 CPUs = 3.00 per CPU (as sar's runq-sz)" py "row('cpu')['saturation']['runq_per_cpu']==3.0"
check "cpu PSI some = 500 ms / 2 s = 25.0%" py "row('cpu')['saturation']['psi_some_pct']==25.0"
check "cpu verdict critical" py "row('cpu')['verdict']=='critical'"
check "cpu offender 'hog) x' at 300 ticks / 100 Hz / 2 s = 150%" py "row('cpu')['offenders'][0]['comm']=='hog) x' and row('cpu')['offenders'][0]['cpu_pct']==150.0"
check "memory used = (8388608-409600)/8388608 = 95.1%" py "row('memory')['utilization']['used_pct']==95.1"
check "memory swap in 100 pages/s, out 200 pages/s" py "row('memory')['saturation']['swap_in_pages_per_s']==100.0 and row('memory')['saturation']['swap_out_pages_per_s']==200.0"
check "memory critical (available 4.9% < 5%, swapping 1200 kB/s)" py "row('memory')['verdict']=='critical'"
check "disk sda %util 95.0, aqu-sz 4.00, w_await 20.00 ms, w/s 200" py "row('disk','sda')['utilization']['util_pct']==95.0 and row('disk','sda')['saturation']['aqu_sz']==4.0 and row('disk','sda')['saturation']['w_await_ms']==20.0 and row('disk','sda')['utilization']['writes_per_s']==200.0"
check "disk sda critical (rotational, %util >= 90 with a queue); partition sda1 not a row" py "row('disk','sda')['verdict']=='critical' and not [x for x in r if x['device']=='sda1']"
check "eth0 at 800 Mb/s of 1000 Mb/s = 80.0% is a warning" py "row('network','eth0')['utilization']['util_pct']==80.0 and row('network','eth0')['verdict']=='warning'"
check "lo is not a row" py "not [x for x in r if x['device']=='lo']"
check "tcp retransmits 600/10000 = 6.00% is critical" py "row('network','tcp')['saturation']['retrans_pct']==6.0 and row('network','tcp')['verdict']=='critical'"
check "kernel: the OOM kill logged inside the window is critical" py "row('kernel')['errors']['oom_kills_logged']==1 and row('kernel')['verdict']=='critical'"
check "kernel: the D-state thread is named with its wchan" py "any(o['pid']==200 and 'io_schedule' in o['detail'] for o in row('kernel')['offenders'])"
check "text and JSON agree: busy 95.0% in the table" grep -q "^cpu .*busy 95.0%" "$TMP/r.txt"

# -d shorter than the tree: only the snapshots inside the window
"$PTK" check --procfs "$T" -d 1 --json > "$TMP/r1.json"
check "-d 1 over the tree uses snapshots 0..1 (1.0 s)" python3 -c "import json; d=json.load(open('$TMP/r1.json')); assert abs(d['duration_s']-1.0)<1e-6"

# windows that cannot be judged are refused, never reported as a quiet "ok"
mkdir -p "$TMP/one" && cp -r "$T/0" "$TMP/one/0"
"$PTK" check --procfs "$TMP/one" > /dev/null 2> "$TMP/one.err"; rc=$?
check "a single snapshot is refused (exit $rc: $(cat "$TMP/one.err"))" test $rc -eq 1 -a "$(wc -l < "$TMP/one.err")" -eq 1
mkdir -p "$TMP/rev" && cp -r "$T/2" "$TMP/rev/0" && cp -r "$T/0" "$TMP/rev/1"
"$PTK" check --procfs "$TMP/rev" > /dev/null 2> "$TMP/rev.err"; rc=$?
check "snapshots in reverse order are refused (exit $rc: $(cat "$TMP/rev.err"))" test $rc -eq 1
# -d shorter than the gap between snapshots still steps once: the window is the gap
"$PTK" check --procfs "$T" -d 1 --json > /dev/null; check "-d 1 on 1 s snapshots exits 0" test $? -eq 0
mkdir -p "$TMP/gap" && cp -r "$T/0" "$TMP/gap/0" && cp -r "$T/2" "$TMP/gap/1"
"$PTK" check --procfs "$TMP/gap" -d 1 --json > "$TMP/gap.json"
check "-d 1 over snapshots 2 s apart uses the 2 s window, not 0 s" python3 -c "import json; d=json.load(open('$TMP/gap.json')); assert abs(d['duration_s']-2.0)<1e-6, d['duration_s']"
# a tree written by ptk capture carries the capturing pid: it is subtracted and never an offender
for i in 0 1 2; do echo 100 > "$T/$i/ptk-capture"; done
"$PTK" check --procfs "$T" -d 2 --json > "$TMP/cap.json"
check "capture marker: run queue 7-1=6 on 2 CPUs = 3.00 per CPU, pid 100 not an offender" python3 -c "
import json; d=json.load(open('$TMP/cap.json')); c=[x for x in d['resources'] if x['resource']=='cpu'][0]
assert c['saturation']['runq_per_cpu']==3.0, c['saturation']; assert all(o['pid']!=100 for o in c['offenders']), c['offenders']"

# issue 11: what check, nicstat, sar and free agree on. A variant of the tree: eth0's speed
# unknown, an 8 Gb/s burst on a 1 Gb/s link, no InCsumErrors nor ListenDrops in this kernel's
# counters, and no MemAvailable (kernel < 3.14: estimated, as free flags it).
V=$TMP/variant
cp -r "$T" "$V"
rm -f "$V"/*/ptk-capture
for i in 0 1 2; do
	rm "$V/$i/sys/class/net/eth0/speed"
	sed -i 's/ InCsumErrors$//; s/ 0 0 0$/ 0 0/' "$V/$i/net/snmp"
	printf 'TcpExt: ListenOverflows\nTcpExt: %d\n' $((7 * i)) > "$V/$i/net/netstat"
	sed -i '/^MemAvailable:/d' "$V/$i/meminfo"
done
"$PTK" check --procfs "$V" -d 2 --json > "$TMP/v.json"
"$PTK" check --procfs "$V" -d 2 > "$TMP/v.txt"
vpy() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['resources']
def row(res, dev=None): return [x for x in r if x['resource']==res and (dev is None or x['device']==dev)][0]
sys.exit(0 if ($1) else 1)" "$TMP/v.json"; }
check "unknown link speed: eth0 util null (as nicstat), no verdict from it" vpy "row('network','eth0')['utilization']['util_pct'] is None and row('network','eth0')['verdict']=='ok'"
check "unknown link speed: '-' in the table" grep -q "^network eth0 .*util -," "$TMP/v.txt"
check "a TCP counter this kernel lacks is null, not 0: in_errors (InCsumErrors), listen_drops (ListenDrops)" vpy "row('network','tcp')['errors']['in_errors'] is None and row('network','tcp')['saturation']['listen_drops'] is None"
check "listen drops = TcpExt ListenDrops only (ListenOverflows +14 not counted), no evidence" vpy "not any('listen queue' in e for e in row('network','tcp')['evidence'])"
check "counters present still judged: retransmits 6.00% critical" vpy "row('network','tcp')['saturation']['retrans_pct']==6.0 and row('network','tcp')['verdict']=='critical'"
check "estimated MemAvailable: JSON flag and '(estimated)' in the evidence" vpy "row('memory')['available_estimated'] is True and any('(estimated)' in e for e in row('memory')['evidence'])"
check "MemAvailable present: not estimated" py "row('memory')['available_estimated'] is False and not any('(estimated)' in e for e in row('memory')['evidence'])"
# capped: 125,000,000 B/s = 1000 Mb/s on a 100 Mb/s link shows 100, not 1000
for i in 0 1 2; do echo 100 > "$V/$i/sys/class/net/eth0/speed"; done
"$PTK" check --procfs "$V" -d 2 --json > "$TMP/v2.json"
check "link utilisation capped at 100 (800 Mb/s on 100 Mb/s), critical" python3 -c "
import json; d=json.load(open('$TMP/v2.json')); n=[x for x in d['resources'] if x['device']=='eth0'][0]
assert n['utilization']['util_pct']==100.0 and n['verdict']=='critical', n"
