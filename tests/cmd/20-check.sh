#!/usr/bin/env bash
# ptk check scenarios on the live machine: idle, CPU saturation, a single-thread bottleneck,
# memory pressure (OOM in a memory cgroup), disk saturation (loop device), a D-state storm
# (fsfreeze), TCP retransmits (random drops in a private network namespace), replay of a
# fixture, unprivileged use, bad input.
. "$(dirname "$0")/lib.sh"

# jq-like assertions on check's JSON: py FILE 'python expression over d (the object)'
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=[x for x in d['resources']]
def row(res, dev=None): return [x for x in r if x['resource']==res and (dev is None or x['device']==dev)][0]
sys.exit(0 if ($2) else 1)" "$1"; }
show() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
for x in d['resources']:
    if x['resource'] in sys.argv[2].split(','):
        print('#', x['resource'], x['device'], x['verdict'], json.dumps(x['utilization']), json.dumps(x['saturation']), json.dumps(x['errors']))
        [print('#   -', e) for e in x['evidence']]
        [print('#   offender', o) for o in x['offenders'][:4]]
print('# observer', json.dumps(d['observer']['cpu_pct_of_one_cpu']))" "$1" "$2"; }

# names of this run (a cgroup, a network namespace): another copy of the suite may run meanwhile
NS=ptkcheck$$
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "${FROZEN:-}" ] && fsfreeze -u "$FROZEN" 2>/dev/null
	[ -n "${MNT:-}" ] && { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; }
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "${CG:-}" ] && rmdir "$CG" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# --- usage errors ---------------------------------------------------------------------------
out=$("$PTK" check -d abc 2>&1); rc=$?
check "bad -d exits 2 with one line ($out)" test $rc -eq 2 -a "$(echo "$out" | wc -l)" -eq 1
"$PTK" check --procfs /nonexistent -d 1 >/dev/null 2>&1; rc=$?
check "missing --procfs root exits 1" test $rc -eq 1
"$PTK" check --help | grep -q "Thresholds and why" && ok "--help documents thresholds" || not_ok "--help documents thresholds"

# --- idle machine -----------------------------------------------------------------------------
# An idle machine gives ok rows; this one may be busy with other work. What was busy is measured
# over the same window from the files check reads, and those rows are not judged (said so): the
# CPUs busy 30% or more or stolen 5% or more (/proc/stat), a disk busy 10% or more (io_ticks).
oom0=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
cp /proc/stat "$TMP/st0"; cp /proc/diskstats "$TMP/dk0"; t0=$(date +%s.%N)
"$PTK" check -d 3 --json > "$TMP/idle.json"
cp /proc/stat "$TMP/st1"; cp /proc/diskstats "$TMP/dk1"; t1=$(date +%s.%N)
oom1=$(awk '$1 == "oom_kill" { print $2 }' /proc/vmstat)
show "$TMP/idle.json" cpu,memory,kernel
check "idle: JSON has the documented keys" py "$TMP/idle.json" "set(d)>={'duration_s','resources','observer'} and all(set(x)>={'resource','device','utilization','saturation','errors','verdict','evidence','offenders','next'} for x in r) and 'sources' in d['observer'] and d['observer']['cpu_s']>0"
busy=$(python3 - "$TMP" "$t0" "$t1" <<'PY'
import sys
d, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def cpu(f):
    v = [int(x) for x in open(f).readline().split()[1:9]]
    return sum(v), v[3] + v[4], v[7]  # all, idle + iowait, steal
(a0, i0, s0), (a1, i1, s1) = cpu(d + "/st0"), cpu(d + "/st1")
print("cpu %.0f%% busy, %.0f%% steal" % (100.0 * (a1 - a0 - (i1 - i0)) / (a1 - a0), 100.0 * (s1 - s0) / (a1 - a0))
       if 100.0 * (a1 - a0 - (i1 - i0)) / (a1 - a0) >= 30 or 100.0 * (s1 - s0) / (a1 - a0) >= 5 else "")
def ticks(f):
    return {l.split()[2]: int(l.split()[12]) for l in open(f) if len(l.split()) > 12}
k0, k1 = ticks(d + "/dk0"), ticks(d + "/dk1")
for n in k1:
    u = 100.0 * (k1[n] - k0.get(n, k1[n])) / ((t1 - t0) * 1000)
    if u >= 10:
        print("disk %s %.0f%% busy" % (n, u))
PY
)
# (a cgroup row is another's cgroup: this test makes none before here)
judged="all(x['verdict']=='ok' for x in r if x['resource'] not in ('kernel', 'cgroup')"
while read -r what dev rest; do
	[ -n "$what" ] || continue
	if [ "$what" = cpu ]; then
		skip "idle: the cpu row is not judged: the CPUs were $dev $rest over the window (other work on the machine)"
		judged="$judged and x['resource']!='cpu'"
	else
		skip "idle: disk $dev is not judged: it was $rest over the window (other work on the machine)"
		judged="$judged and x['device']!='$dev'"
	fi
done <<<"$busy"
note "idle: the rows not ok (cgroup rows, others' cgroups, are not judged): $(python3 -c "import json,sys; print(', '.join('%s %s %s' % (x['resource'], x['device'] or '', x['verdict']) for x in json.load(open(sys.argv[1]))['resources'] if x['verdict'] != 'ok') or 'none')" "$TMP/idle.json")"
check "idle: cpu, memory, disks and network are ok (those busy with other work left out: ${busy:-none})" py "$TMP/idle.json" "$judged)"
if [ "${oom1:-0}" -gt "${oom0:-0}" ]; then
	skip "idle: kernel errors not judged: $((oom1 - oom0)) OOM kill(s) elsewhere on the machine during the window (/proc/vmstat oom_kill)"
else
	check "idle: no kernel errors during the window" py "$TMP/idle.json" "all((v or 0)==0 for k, v in row('kernel')['errors'].items() if 'since_boot' not in k)"
fi
# the window is the 3 s asked for, longer when a busy machine kept check from its second
# read, and never longer than the run around it
dur=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_s'])" "$TMP/idle.json" 2>/dev/null)
check "idle: duration is the window (${dur:-?} s: 3 s or more, at most the $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s around it)" \
	py "$TMP/idle.json" "2.95 <= d['duration_s'] <= $t1 - $t0"
"$PTK" check -d 1 > "$TMP/idle.txt"
check "text output has the USE table" grep -q "^RESOURCE  *VERDICT  *UTILIZATION  *SATURATION  *ERRORS" "$TMP/idle.txt"
if grep -q "BPF unavailable" "$TMP/idle.txt"; then
	skip "BPF unavailable for ptk check: no runqlat p99 in the cpu row"
else
	check "the table's cpu row shows the run-queue latency p99 (BPF): $(grep -m1 '^cpu ' "$TMP/idle.txt" | tr -s ' ')" \
		grep -qE "^cpu .*runq/cpu [0-9.]+, runqlat p99 <= [0-9]+ us" "$TMP/idle.txt"
fi

# --- short-lived processes: invisible to snapshots, counted with BPF ----------------------------
# held NAME PID N: wait until process PID holds N BPF programs (up to 30 s: loading them parses
# the kernel's BTF, slow on a busy machine), or exits; prints how many it holds
held() {
	local n=0 last=0
	for _ in $(seq 300); do
		# as root check also holds the task iterator (dump_task) that serves its
		# process tables: the hooks are the others
		n=$(for id in $(bpf_prog_ids_of "$1"); do
			bpftool prog show id "$id" 2>/dev/null | grep -q ' name dump_task ' || echo "$id"
		done | wc -l)
		kill -0 "$1" 2>/dev/null || break
		last=$n
		# (a light skeleton's loader program is held for a moment beside the six)
		[ "$n" -eq "$2" ] && break
		sleep 0.1
	done
	echo "$last"
}
# the execs start once check's programs are attached and its window is open
"$PTK" check -d 2 --json > "$TMP/short.json" & CP=$!
held $CP 6 > /dev/null
sleep 0.3
for i in $(seq 60); do /bin/true; done
wait $CP
if py "$TMP/short.json" "[s for s in d['observer']['sources'] if s['source'].startswith('bpf') and s['ok']]"; then
	show "$TMP/short.json" cpu
	check "BPF: 60 /bin/true runs inside the window counted as short-lived (>= 60)" py "$TMP/short.json" "row('cpu')['utilization']['shortlived_processes']>=60"
	check "BPF: the programs' kernel CPU is reported under observer" py "$TMP/short.json" "d['observer']['bpf_run_time_ns'] is not None and d['observer']['bpf_run_time_ns']>0"
	"$PTK" check -d 2 --json > /dev/null & CP=$!
	held $CP 6 > /dev/null
	ids=$(bpf_prog_ids_of $CP | tr '\n' ' ')
	wait $CP
	check "BPF: check held programs [$ids] while sampling, all gone after it exits" bpf_progs_gone $ids
	check "BPF: check held at least one program" test -n "$ids"
	# the three loaders (PTK_BPF_LSKEL, as in 40-runqlat.sh): light skeletons of the tp_btf and
	# raw_tp flavours (kernel-side loader) and the libbpf skeletons (kernels before 5.17) each
	# hold the six hooks once and report the same things: the run-queue latency p99 of the whole
	# machine, side by side with libbpf-tools runqlat over the same 2 s, and 30 /bin/true runs
	# as short-lived processes
	for l in 1:tp_btf raw:raw_tp 0:tp_btf; do
		e=${l%%:*} hook=${l#*:}
		A= HOG=
		if have runqlat; then
			# three CPU hogs on CPU 0 give both a steady histogram to compare (waits of a
			# time slice, ms); on an idle machine the p99 is a handful of waits that
			# differ between two windows that are not exactly the same
			if have stress-ng; then
				timeout -k 5 60 stress-ng --cpu 3 --taskset 0 --timeout 4 >/dev/null 2>&1 & HOG=$!; PIDS+=($HOG)
				sleep 0.5
			fi
			timeout -k 5 30 runqlat 2 1 > "$TMP/a$e.txt" 2>&1 & A=$!; PIDS+=($A)
			sleep 0.3 # its libbpf load parses the kernel BTF: start the windows together
		fi
		PTK_BPF_LSKEL=$e "$PTK" check -d 2 --json > "$TMP/l$e.json" & CP=$!
		n=$(held $CP 6)
		sleep 0.3
		for i in $(seq 30); do /bin/true; done
		wait $CP $A 2>/dev/null
		[ -n "$HOG" ] && { kill $HOG 2>/dev/null; wait $HOG 2>/dev/null; }
		note "PTK_BPF_LSKEL=$e: $n programs, $(python3 -c "import json; d=json.load(open('$TMP/l$e.json')); o=d['observer']; c=[x for x in d['resources'] if x['resource']=='cpu'][0]; print(o['bpf_loader'], o['bpf_hook'], 'runqlat p99 <=', c['saturation']['runqlat_p99_le_us'], 'us, short-lived', c['utilization']['shortlived_processes'], ', bpf run ns', o['bpf_run_time_ns'])" 2>&1)"
		if [ "$e" != 0 ] && py "$TMP/l$e.json" "d['observer']['bpf_loader']=='libbpf'"; then
			skip "light skeletons do not load on this kernel (before 5.17): check used libbpf"
			continue
		fi
		want=$([ "$e" = 0 ] && echo libbpf || echo light skeleton)
		check "loader PTK_BPF_LSKEL=$e: $want, hook $hook, six programs held ($n)" \
			py "$TMP/l$e.json" "d['observer']['bpf_loader']=='$want' and d['observer']['bpf_hook']=='$hook' and $n==6"
		check "loader PTK_BPF_LSKEL=$e: runqlat p99 reported, >= 30 short-lived, programs' CPU reported" \
			py "$TMP/l$e.json" "(row('cpu')['saturation']['runqlat_p99_le_us'] or 0)>0 and row('cpu')['utilization']['shortlived_processes']>=30 and (d['observer']['bpf_run_time_ns'] or 0)>0"
		if [ -s "$TMP/a$e.txt" ] && grep -q -- '->' "$TMP/a$e.txt"; then
			# p99 bucket upper bound of libbpf-tools' histogram (as in 40-runqlat.sh)
			a99=$(awk 'BEGIN { n=0 } /->/ { hi[n]=$3; c[n]=$5; t+=$5; n++ } END { s=0; for(i=0;i<n;i++){ s+=c[i]; if (s>=0.99*t){ print hi[i]; exit } } }' "$TMP/a$e.txt")
			p99=$(python3 -c "import json; d=json.load(open('$TMP/l$e.json')); print([x for x in d['resources'] if x['resource']=='cpu'][0]['saturation']['runqlat_p99_le_us'])")
			note "PTK_BPF_LSKEL=$e: libbpf-tools runqlat p99 bucket <= $a99 us, ptk check <= $p99 us"
			check "loader PTK_BPF_LSKEL=$e: runqlat p99 within one log2 bucket of libbpf-tools runqlat's ($p99 vs $a99 us)" \
				python3 -c "import math; assert abs(math.log2($a99+1)-math.log2($p99+1))<=1"
		else
			skip "libbpf-tools runqlat not installed or printed nothing: no side-by-side"
		fi
	done
else
	skip "BPF unavailable for ptk check (not root or no BTF): short-lived count not measured"
fi

# --- CPU saturation ------------------------------------------------------------------------
if have stress-ng; then
	timeout -k 5 60 stress-ng --cpu 4 --timeout 15 >/dev/null 2>&1 & PIDS+=($!)
	SN=${PIDS[-1]}
	sleep 1.5
	# every process's CPU time around the window: who used the most (/proc/PID/stat)
	ticks() { python3 -c "import os, time
print(time.monotonic())
for p in os.listdir('/proc'):
    try: s = open('/proc/%s/stat' % p).read()
    except OSError: continue
    if p.isdigit():
        f = s.rsplit(')', 1)[1].split()
        print(p, f[1], int(f[11]) + int(f[12]), s[s.index('(') + 1:s.rindex(')')].replace(' ', '_'))" > "$1"; }
	ticks "$TMP/tk0"
	"$PTK" check -d 4 --json > "$TMP/cpu.json"
	ticks "$TMP/tk1"
	kill "${PIDS[-1]}" 2>/dev/null; wait "${PIDS[-1]}" 2>/dev/null
	show "$TMP/cpu.json" cpu
	check "cpu saturated by 4 stress-ng workers on $(nproc) CPUs is critical" py "$TMP/cpu.json" "row('cpu')['verdict']=='critical'"
	check "cpu busy >= 90% and run queue > 1 per CPU" py "$TMP/cpu.json" "row('cpu')['utilization']['busy_pct']>=90 and row('cpu')['saturation']['runq_per_cpu']>1"
	# the offenders against /proc read around check's window W (the reads T apart): a process
	# that used c of a CPU over T used between (c T - (T - W)) / W and c T / W over W (all of
	# the rest, or none of it, outside the window), give or take 2 points of tick rounding. No
	# process was surely busier than the first offender; each listed one that /proc saw (not
	# ended before the second read; one born meanwhile counts from 0) used its share inside
	# those bounds; the stress-ng workers (children of our stress-ng) are listed unless as
	# many others were as busy (a machine shared with other work)
	res=$(python3 - "$TMP/tk0" "$TMP/tk1" "$TMP/cpu.json" "$SN" "$(getconf CLK_TCK)" <<'PY'
import json, sys
def rd(f):
    l = open(f).read().split("\n")
    return float(l[0]), {int(x.split()[0]): x.split() for x in l[1:] if x}
(t0, a), (t1, b) = rd(sys.argv[1]), rd(sys.argv[2])
hz, sn = int(sys.argv[5]), int(sys.argv[4])
rate = {p: 100.0 * (int(b[p][2]) - (int(a[p][2]) if p in a else 0)) / hz / (t1 - t0) for p in b}
kids = lambda ps: {p for p in b if int(b[p][1]) in ps}
ours = kids(kids({sn}) | {sn}) | kids({sn})  # timeout -> stress-ng -> workers
d = json.load(open(sys.argv[3]))
cpu = [x for x in d["resources"] if x["resource"] == "cpu"][0]
off = cpu["offenders"]
T, W = t1 - t0, d["duration_s"]
lo = lambda r: (r * T - 100 * (T - W)) / W - 2  # least share of the window
hi = lambda r: r * T / W + 2  # most
top = max(rate, key=rate.get)
worker = max((rate[p] for p in ours if p in rate), default=0)
listed = any(o["pid"] in ours for o in off)
seen = [o for o in off if o["pid"] in rate]
agree = all(lo(rate[o["pid"]]) <= o["cpu_pct"] <= hi(rate[o["pid"]]) for o in seen)
best = lo(rate[top])  # what the busiest process surely used in the window
print("%.1f %.1f %s %s %.1f %d %.1f %d/%d %s" % (off[0]["cpu_pct"], best, b[top][3], int(listed), worker,
      len(off), off[-1]["cpu_pct"], int(agree), len(seen),
      ",".join("%s:%.0f/%s" % (o["comm"], o["cpu_pct"], "%.0f" % rate[o["pid"]] if o["pid"] in rate else "-") for o in off)))
PY
)
	read -r o0 best bestc listed worker noff olast agree offs <<<"$res"
	note "offenders (check % / /proc %): $offs; busiest by /proc: $bestc $best%; our busiest stress-ng worker $worker%"
	check "no process was surely busier than the first offender ($o0%; the busiest by /proc, $bestc, used at least $best% of the window)" \
		awk -v o="${o0:-x}" -v b="${best:-y}" 'BEGIN { exit !(o + 0 >= b) }'
	check "each offender /proc saw used its share inside the bounds /proc gives (${agree#*/} seen)" test "${agree%/*}" = 1
	if [ "${listed:-0}" = 1 ]; then
		ok "the stress-ng workers are among the offenders"
	elif awk -v l="${olast:-0}" -v w="${worker:-0}" -v n="${noff:-0}" 'BEGIN { exit !(n >= 5 && l >= w - 5) }'; then
		skip "the stress-ng workers ($worker%) are not among the $noff offenders: as many other processes were as busy (the last listed $olast%)"
	else
		not_ok "the stress-ng workers ($worker%) are among the offenders: $offs"
	fi
	check "next command names ptk mpstat" py "$TMP/cpu.json" "any(n.startswith('ptk mpstat') for n in row('cpu')['next'])"
	if py "$TMP/cpu.json" "[s for s in d['observer']['sources'] if s['source'].startswith('bpf') and s['ok']]"; then
		check "BPF: runqlat p99 >= 1 ms with 4 workers on $(nproc) CPUs" py "$TMP/cpu.json" "row('cpu')['saturation']['runqlat_p99_le_us']>=1023"
	else
		skip "BPF unavailable for ptk check: runqlat p99 not measured"
	fi

	# one thread pinned to CPU 1: a single-thread bottleneck
	timeout -k 5 60 taskset -c 1 stress-ng --cpu 1 --timeout 15 >/dev/null 2>&1 & PIDS+=($!)
	sleep 1.5
	"$PTK" check -d 4 --json > "$TMP/one.json"
	kill "${PIDS[-1]}" 2>/dev/null; wait "${PIDS[-1]}" 2>/dev/null
	show "$TMP/one.json" cpu
	# the rule needs the other CPUs mostly idle: when something else keeps them busy, the
	# rule rightly stays quiet and there is nothing to test
	others=$(python3 -c "import json; d=json.load(open('$TMP/one.json')); c=[x for x in d['resources'] if x['resource']=='cpu'][0]['utilization']; n=d['ncpu']; print(round((c['busy_pct']*n - c['max_cpu_busy_pct'])/max(n-1,1)))")
	if [ "$others" -lt 40 ]; then
		check "one pinned busy thread is flagged as a single-thread bottleneck (other CPUs ${others}% busy)" py "$TMP/one.json" "row('cpu')['verdict']!='ok' and any('single-thread' in e for e in row('cpu')['evidence'])"
	else
		skip "other CPUs were ${others}% busy during the window: no single-thread bottleneck to see"
	fi
	sleep 1
else
	skip "stress-ng not installed: CPU scenarios"
fi

# --- memory pressure: OOM kill inside a memory cgroup ------------------------------------------
if ! is_root; then
	skip "memory cgroup scenario needs root"
elif [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then
	if [ -d /sys/fs/cgroup/memory ]; then
		CG=/sys/fs/cgroup/memory/ptk-check-test-$$; mkdir -p "$CG"
		echo $((64 << 20)) > "$CG/memory.limit_in_bytes"
	else
		base=/sys/fs/cgroup; [ -f $base/cgroup.controllers ] || base=/sys/fs/cgroup/unified
		CG=$base/ptk-check-test-$$; mkdir -p "$CG"
		echo $((64 << 20)) > "$CG/memory.max" 2>/dev/null
	fi
	( echo $BASHPID > "$CG/cgroup.procs"; exec python3 -c "
import time
t=time.time()
while time.time()-t < 4:
    try:
        b=[bytearray(1<<20) for _ in range(300)]
    except MemoryError: pass
" ) >/dev/null 2>&1 & PIDS+=($!)
	"$PTK" check -d 3 --json > "$TMP/mem.json"
	wait "${PIDS[-1]}" 2>/dev/null
	show "$TMP/mem.json" memory,kernel
	check "memory: an OOM kill in a memory cgroup is a note on the host row that points to the cgroup (host memory is fine)" py "$TMP/mem.json" "row('memory')['verdict']=='ok' and row('memory')['errors']['oom_kills']>=1 and any('memory cgroup' in e and 'cgroup rows' in e for e in row('memory')['evidence'])"
	check "memory: the cgroup has its own critical row with the kill" py "$TMP/mem.json" "[x for x in r if x['resource']=='cgroup' and x['device']=='/ptk-check-test-$$'][0]['verdict']=='critical'"
	check "kernel: the OOM kill shows from the kernel log in the window" py "$TMP/mem.json" "row('kernel')['errors']['oom_kills_logged']>=1 and row('kernel')['verdict']=='critical'"
	rmdir "$CG" 2>/dev/null; CG=
else
	skip "no memory cgroup controller mounted"
fi

# --- disk saturation on a loop device ---------------------------------------------------------
if is_root && have losetup && have fio; then
	truncate -s 256M "$TMP/disk.img"
	LOOP=$(losetup -f --show "$TMP/disk.img")
	dev=$(basename "$LOOP")
	echo 1 > /sys/block/$dev/queue/rotational 2>/dev/null
	timeout -k 5 60 fio --name=sat --filename="$LOOP" --rw=randwrite --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=32 --time_based --runtime=10 --numjobs=2 >/dev/null 2>&1 & PIDS+=($!)
	sleep 1.5
	# the device's busy share over the window, from its io_ticks: fio on a loop device needs
	# CPU to keep it busy, so on a machine busy with other work %util stays below 100
	iot() { awk -v d="$dev" '$3 == d { print $13 }' /proc/diskstats; }
	k0=$(iot); d0=$(date +%s.%N)
	"$PTK" check -d 3 --json > "$TMP/disk.json"
	k1=$(iot); d1=$(date +%s.%N)
	kill "${PIDS[-1]}" 2>/dev/null; wait "${PIDS[-1]}" 2>/dev/null
	show "$TMP/disk.json" disk
	rot=$(cat /sys/block/$dev/queue/rotational)
	util=$(awk -v a="$k0" -v b="$k1" -v s="$d0" -v e="$d1" 'BEGIN { printf "%.1f", (b - a) / ((e - s) * 10) }')
	check "disk $dev under fio iodepth 32 is not ok (rotational=$rot)" py "$TMP/disk.json" "row('disk','$dev')['verdict']!='ok'"
	check "disk $dev: %util is its io_ticks share around the window ($util%, within 10 points; >= 50) and aqu-sz > 1" py "$TMP/disk.json" "abs(row('disk','$dev')['utilization']['util_pct'] - $util) <= 10 and row('disk','$dev')['utilization']['util_pct'] >= 50 and row('disk','$dev')['saturation']['aqu_sz']>1"
	check "disk $dev: fio is an offender" py "$TMP/disk.json" "any(o['comm'].startswith('fio') for o in row('disk','$dev')['offenders'])"
	check "disk $dev: next is ptk iostat on that device" py "$TMP/disk.json" "'ptk iostat -x 1 5 $dev' in row('disk','$dev')['next']"
	# the same load judged as a parallel (non-rotational) device: %util alone is not saturation
	echo 0 > /sys/block/$dev/queue/rotational
	timeout -k 5 60 fio --name=par --filename="$LOOP" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=1 --time_based --runtime=6 >/dev/null 2>&1 & PIDS+=($!)
	sleep 1
	k0=$(iot); d0=$(date +%s.%N)
	"$PTK" check -d 3 --json > "$TMP/par.json"
	k1=$(iot); d1=$(date +%s.%N)
	kill "${PIDS[-1]}" 2>/dev/null; wait "${PIDS[-1]}" 2>/dev/null
	show "$TMP/par.json" disk
	util=$(awk -v a="$k0" -v b="$k1" -v s="$d0" -v e="$d1" 'BEGIN { printf "%.1f", (b - a) / ((e - s) * 10) }')
	check "non-rotational $dev at queue depth 1: not judged saturated by its %util ($util% by io_ticks)" py "$TMP/par.json" "row('disk','$dev')['verdict']=='ok' or row('disk','$dev')['saturation']['aqu_sz']>1"
	# (fio on a loop device needs CPU to keep it busy: on a machine busy with other work it does not)
	if awk -v u="$util" 'BEGIN { exit !(u >= 60) }'; then
		check "non-rotational $dev busy at queue depth 1: %util high ($util% by io_ticks around the window, within 10 points)" py "$TMP/par.json" "row('disk','$dev')['utilization']['util_pct']>=50 and abs(row('disk','$dev')['utilization']['util_pct'] - $util) <= 10"
	else
		skip "non-rotational $dev: fio kept it only $util% busy (io_ticks around the window; the CPUs busy with other work): no high %util to judge"
	fi
	losetup -d "$LOOP"; LOOP=
else
	skip "disk scenario needs root, losetup and fio"
fi

# --- D-state storm: writers blocked on a frozen filesystem ---------------------------------
if is_root && have mkfs.ext4 && have fsfreeze; then
	truncate -s 64M "$TMP/fs.img"
	mkfs.ext4 -q -F "$TMP/fs.img"
	LOOP=$(losetup -f --show "$TMP/fs.img")
	MNT=$TMP/mnt; mkdir -p "$MNT"
	mount "$LOOP" "$MNT"
	fsfreeze -f "$MNT"; FROZEN=$MNT
	for i in 1 2 3 4 5 6; do
		(exec dd if=/dev/zero of="$MNT/f$i" bs=4k count=1 conv=fsync 2>/dev/null) & PIDS+=($!)
	done
	# until the six are blocked (up to 20 s on a busy machine)
	for _ in $(seq 200); do
		[ "$(for p in "${PIDS[@]: -6}"; do awk '{ print $3 }' /proc/$p/stat 2>/dev/null; done | grep -c D)" -ge 6 ] && break
		sleep 0.1
	done
	"$PTK" check -d 2 --json > "$TMP/dstate.json"
	fsfreeze -u "$MNT"; FROZEN=
	wait 2>/dev/null
	show "$TMP/dstate.json" kernel,cpu
	check "D-state storm: 6 writers blocked on a frozen fs make the kernel row not ok" py "$TMP/dstate.json" "row('kernel')['verdict']!='ok' and row('kernel')['saturation']['dstate_tasks']>=5"
	check "D-state storm: the blocked dd tasks are named with their wchan" py "$TMP/dstate.json" "sum(1 for o in row('kernel')['offenders'] if o['comm']=='dd' and 'D state in' in o['detail'])>=5"
	umount "$MNT"; MNT=
	losetup -d "$LOOP"; LOOP=
else
	skip "D-state scenario needs root, mkfs.ext4 and fsfreeze"
fi

# --- TCP retransmits: 5% random drops on loopback in a private network namespace ----------------
if is_root && have ip && have iptables && ip netns add "$NS" 2>/dev/null; then
	ip netns exec "$NS" ip link set lo up
	if ip netns exec "$NS" iptables -A INPUT -p tcp -m statistic --mode random --probability 0.05 -j DROP 2>/dev/null; then
		ip netns exec "$NS" python3 -c "
import socket, threading, time
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
def srv():
    c, _ = s.accept()
    while c.recv(65536): pass
threading.Thread(target=srv, daemon=True).start()
c = socket.create_connection(('127.0.0.1', s.getsockname()[1]))
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1400)
t = time.time()
while time.time() - t < 4:
    c.sendall(b'x' * 16384); time.sleep(0.002)
c.close()
" & PIDS+=($!)
		sleep 0.5
		ip netns exec "$NS" "$PTK" check -d 2.5 --json > "$TMP/tcp.json"
		wait "${PIDS[-1]}" 2>/dev/null
		show "$TMP/tcp.json" network
		check "TCP: 5% dropped segments show as retransmits >= 1% and a non-ok tcp row" py "$TMP/tcp.json" "row('network','tcp')['saturation']['retrans_pct']>=1 and row('network','tcp')['verdict']!='ok'"
		check "TCP: next is ptk nicstat -t" py "$TMP/tcp.json" "'ptk nicstat -t 1 5' in row('network','tcp')['next']"
	else
		skip "iptables statistic match unavailable in this kernel"
	fi
	ip netns del "$NS"
else
	skip "TCP scenario needs root, iproute2 and iptables"
fi

# --- unprivileged -------------------------------------------------------------------------
if is_root && have setpriv; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PTK" check -d 1 --json > "$TMP/nobody.json" 2>"$TMP/nobody.err"; rc=$?
	check "unprivileged check runs (exit $rc)" test $rc -eq 0
	if [ "$(cat /proc/sys/kernel/dmesg_restrict)" = 1 ]; then
		check "unprivileged: the unreadable kernel log is reported, not guessed" py "$TMP/nobody.json" "[s for s in d['observer']['sources'] if s['source']=='/dev/kmsg' and not s['ok']] and row('kernel')['errors']['oom_kills_logged'] is None"
	else
		skip "kernel.dmesg_restrict=0: the kernel log is readable unprivileged"
	fi
	check "unprivileged: other users' /proc/PID/io reported unreadable" py "$TMP/nobody.json" "[s for s in d['observer']['sources'] if s['source'].startswith('/proc/PID/{stat') and not s['ok']]"
else
	skip "unprivileged scenario needs root and setpriv to drop privileges"
fi
