#!/usr/bin/env bash
# Cgroups live on this machine's v1 controllers (cpu, cpuacct, memory, blkio, pids), with the
# same cgroup in the v2 tree at /sys/fs/cgroup/unified when there is one (hybrid: it gives the
# pressure files): ptk check names a CPU burner under a quota of 0.2 CPU, a reader whose page
# cache is held under a memory limit below its working set, a cgroup whose task is OOM-killed
# and an I/O-heavy cgroup, with the reason and the tasks inside, while the host-wide CPU and
# memory rows stay ok; a capture of the burner replays to the same row; ptk cgtop -b agrees
# with systemd-cgtop on CPU and memory of the same cgroup. v2 and pure-v1 layouts are the unit
# tests' (tests/unit/test_cgroup.c on tests/fixtures/cgroup-*).
. "$(dirname "$0")/lib.sh"

py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=[x for x in d['resources']]
def row(res, dev=None): return [x for x in r if x['resource']==res and (dev is None or x['device']==dev)][0]
def cg(path): return [x for x in r if x['resource']=='cgroup' and x['device']==path][0]
sys.exit(0 if ($2) else 1)" "$1"; }
show() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
for x in d['resources']:
    if x['resource'] in ('cpu', 'memory', 'cgroup'):
        print('#', x['resource'], x['device'], x['verdict'], json.dumps(x['utilization']), json.dumps(x['saturation']), json.dumps(x['errors']))
        [print('#   -', e) for e in x['evidence']]
        [print('#   offender', o) for o in x['offenders'][:3]]" "$1"; }

# cgroup and file names of this run: another copy of the suite may run this test meanwhile
CGT=ptk-cgtest-$$
CGS=()
PIDS=()
cleanup() {
	# TERM first: a tool under timeout(1) is stopped by its timeout, which SIGKILL would orphan
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	sleep 0.2
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	for d in "${CGS[@]}"; do xargs -r kill -9 < "$d/cgroup.procs" 2>/dev/null; done
	wait 2>/dev/null
	for d in "${CGS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do rmdir "$d" 2>/dev/null && break; [ -d "$d" ] || break; sleep 0.2; done
	done
	rm -f /var/tmp/$CGT-*
	rm -rf "$TMP"
}
trap cleanup EXIT

# mkcg NAME CONTROLLER...: /sys/fs/cgroup/C/ptk-cgtest-NAME for each, and unified when mounted
mkcg() {
	local n=$1 c; shift
	for c in "$@" unified; do
		[ "$c" = unified ] && [ ! -f /sys/fs/cgroup/unified/cgroup.controllers ] && continue
		mkdir -p "/sys/fs/cgroup/$c/$CGT-$n" && CGS+=("/sys/fs/cgroup/$c/$CGT-$n")
	done
}
# into NAME CMD...: run CMD in the background inside every hierarchy of cgroup NAME
into() {
	local n=$1; shift
	( for d in "${CGS[@]}"; do case "$d" in */$CGT-$n) echo $BASHPID > "$d/cgroup.procs";; esac; done
	  exec "$@" ) &
	PIDS+=($!)
}
# host_busy FILE: the host's busy % in the check JSON
host_busy() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
print([x for x in d['resources'] if x['resource']=='cpu'][0]['utilization']['busy_pct'])" "$1"; }
# psi_mark NAME: the host's and cgroup NAME's (v2 tree) PSI cpu "some" stall totals (us) and
# the time (ns), before a check whose host CPU row host_cpu_ok judges
psi_total() { awk '/^some/ { for (i = 1; i <= NF; i++) if ($i ~ /^total=/) { sub(/total=/, "", $i); print $i } }' "$1" 2>/dev/null; }
psi_mark() {
	PSI0="$(psi_total /proc/pressure/cpu) $(psi_total /sys/fs/cgroup/unified/$CGT-$1/cpu.pressure) $(date +%s%N)"
	PSICG=$1
}
# the host CPU row stays ok, unless others keep the machine busy (said so): its CPUs busy, a
# run queue, or other tasks than the cgroup's waiting for a CPU. A stall some task of the host
# had is one some task of the cgroup or some other task had, so the host's PSI cpu some less
# the cgroup's (over the same window, from psi_mark to here) is the least the others waited.
host_cpu_ok() {
	local f=$1 what=$2 busy h0 c0 t0 h1 c1 t1 others
	busy=$(host_busy "$f")
	read -r h0 c0 t0 <<<"$PSI0"
	h1=$(psi_total /proc/pressure/cpu) c1=$(psi_total /sys/fs/cgroup/unified/$CGT-$PSICG/cpu.pressure) t1=$(date +%s%N)
	others=$(awk -v h0="$h0" -v h1="$h1" -v c0="${c0:-0}" -v c1="${c1:-0}" -v t0="$t0" -v t1="$t1" \
		'BEGIN { if (h0 == "" || h1 == "") print "?"; else printf "%.1f", 100 * ((h1 - h0) - (c1 - c0)) / ((t1 - t0) / 1000) }')
	if py "$f" "row('cpu')['verdict']=='ok'"; then
		ok "$what: the host's CPU row stays ok (busy $busy%)"
		# PSI cpu some of short waits at idle CPUs (fio's wake-ups) is a note, said so
		[ "$what" = io ] && py "$f" "(row('cpu')['saturation'].get('psi_some_pct') or 0) >= 10" &&
			check "$what: the host's PSI cpu some of short waits is a note naming runqlat" py "$f" "any('many short waits' in e for e in row('cpu')['evidence'])"
	elif awk -v b="$busy" -v o="$others" 'BEGIN { exit !(b >= 60 || (o != "?" && o >= 10)) }' || py "$f" "(row('cpu')['saturation'].get('runq_per_cpu') or 0) > 1"; then
		skip "$what: host CPU row not ok, but the machine is busy with other work (busy $busy%; other tasks than the cgroup's waited for a CPU at least $others% of the window, PSI cpu some)"
		[ "$what" = cpu ] && check "$what: the host's CPU row does not blame the cgroup's throttling for its PSI or runqlat" py "$f" "not any(('PSI cpu' in e or 'runqlat' in e) and 'throttled' not in e for e in row('cpu')['evidence']) or row('cpu')['utilization']['busy_pct'] >= 70"
	else
		not_ok "$what: the host's CPU row stays ok (busy $busy%; other tasks than the cgroup's waited for a CPU at least $others% of the window)"
		show "$f"
	fi
}

if ! is_root; then
	skip "cgroup scenarios need root"
	exit 0
fi
if [ ! -d /sys/fs/cgroup/cpu ] || [ ! -d /sys/fs/cgroup/memory ]; then
	skip "cgroup scenarios use the v1 controllers (/sys/fs/cgroup/cpu, memory): not mounted here"
	exit 0
fi

# --- a CPU burner under a quota of 0.2 CPU --------------------------------------------------
mkcg cpu cpu cpuacct pids
echo 100000 > /sys/fs/cgroup/cpu/$CGT-cpu/cpu.cfs_period_us
echo 20000 > /sys/fs/cgroup/cpu/$CGT-cpu/cpu.cfs_quota_us
into cpu timeout -k 5 60 stress-ng --cpu 1 --timeout 30 -q
BURNER=${PIDS[-1]}
sleep 1
"$PTK" capture "$TMP/cap" 3 2 2>/dev/null &
CAP=$!
psi_mark cpu
"$PTK" check -d 5 --json > "$TMP/cpu.json"
wait $CAP
check "cpu: check names the throttled cgroup" py "$TMP/cpu.json" "cg('/$CGT-cpu')['verdict'] in ('warning','critical')"
check "cpu: the reason is its CPU quota, with the share of periods throttled" py "$TMP/cpu.json" "any('throttled in' in e and '0.20 CPUs' in e for e in cg('/$CGT-cpu')['evidence']) and cg('/$CGT-cpu')['saturation']['throttled_pct'] > 50"
check "cpu: about 20% of one CPU used" py "$TMP/cpu.json" "15 < cg('/$CGT-cpu')['utilization']['cgroup_cpu_pct'] < 23"
check "cpu: the burner inside is the offender" py "$TMP/cpu.json" "any(o['comm'].startswith('stress-ng') for o in cg('/$CGT-cpu')['offenders']) and any('pidstat -u -p' in n for n in cg('/$CGT-cpu')['next'])"
if py "$TMP/cpu.json" "row('cpu')['utilization']['busy_pct'] < 80"; then
	check "cpu: on a host with idle CPUs it is called quota-bound" py "$TMP/cpu.json" "any('quota bound' in e or 'CPU-quota bound' in e for e in cg('/$CGT-cpu')['evidence'])"
else
	skip "cpu: the host has no idle CPUs now (other work): the quota-bound note needs them"
fi
host_cpu_ok "$TMP/cpu.json" cpu
check "cpu: the host's memory row stays ok" py "$TMP/cpu.json" "row('memory')['verdict']=='ok'"
if [ -d "$TMP/cap/1" ]; then
	"$PTK" check --procfs "$TMP/cap" -d 10 --json > "$TMP/cpu-replay.json"
	check "cpu: a capture replays to the same cgroup row" py "$TMP/cpu-replay.json" "any('throttled in' in e for e in cg('/$CGT-cpu')['evidence'])"
	"$PTK" cgtop --procfs "$TMP/cap" -b --raw --depth -1 > "$TMP/cgtop-replay.txt"
	check "cpu: cgtop replays the capture (quota 0.20, throttled)" awk -v g="/$CGT-cpu" '$1==g && $4=="0.20" && $5+0 > 50 { f=1 } END { exit !f }' "$TMP/cgtop-replay.txt"
else
	not_ok "cpu: capture wrote no second snapshot"
fi

# --- ptk cgtop -b against systemd-cgtop on the same cgroup ---------------------------------
if have systemd-cgtop; then
	mkcg cmp cpu cpuacct memory pids
	echo 30000 > /sys/fs/cgroup/cpu/$CGT-cmp/cpu.cfs_quota_us
	into cmp python3 -c "
b = bytearray(48 << 20)
for i in range(0, len(b), 4096): b[i] = 1
while True: pass"
	sleep 2
	timeout -k 5 60 systemd-cgtop -b -n 2 -d 1 --raw > "$TMP/sd.txt" 2>/dev/null &
	SD=$!
	"$PTK" cgtop -b -n 2 -d 1 --raw > "$TMP/ptk.txt"
	wait $SD
	sd_cpu=$(awk -v g="/$CGT-cmp" '$1==g { c=$3 } END { print c }' "$TMP/sd.txt")
	sd_mem=$(awk -v g="/$CGT-cmp" '$1==g { m=$4 } END { print m }' "$TMP/sd.txt")
	sd_tasks=$(awk -v g="/$CGT-cmp" '$1==g { t=$2 } END { print t }' "$TMP/sd.txt")
	pk_cpu=$(awk -v g="/$CGT-cmp" '$1==g { c=$3 } END { print c }' "$TMP/ptk.txt")
	pk_mem=$(awk -v g="/$CGT-cmp" '$1==g { m=$6 } END { print m }' "$TMP/ptk.txt")
	pk_tasks=$(awk -v g="/$CGT-cmp" '$1==g { t=$2 } END { print t }' "$TMP/ptk.txt")
	note "systemd-cgtop: cpu $sd_cpu% mem $sd_mem tasks $sd_tasks; ptk cgtop: cpu $pk_cpu% mem $pk_mem tasks $pk_tasks"
	check "cgtop: %CPU agrees with systemd-cgtop within 3 points ($pk_cpu vs $sd_cpu)" near "${pk_cpu:-0}" "${sd_cpu:-100}" 3
	check "cgtop: memory agrees with systemd-cgtop within 16 pages ($pk_mem vs $sd_mem)" near "${pk_mem:-0}" "${sd_mem:-1e18}" 65536
	check "cgtop: tasks agree with systemd-cgtop ($pk_tasks vs $sd_tasks)" test "${pk_tasks:-x}" = "${sd_tasks:-y}"
	check "cgtop: the 0.3 CPU quota shows" awk -v g="/$CGT-cmp" '$1==g && $4=="0.30" { f=1 } END { exit !f }' "$TMP/ptk.txt"
	"$PTK" cgtop -b -n 2 -d 0.5 --json > "$TMP/cgtop.json"
	check "cgtop --json: one object per iteration, the cgroup with its quota and limit" python3 -c "
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == 2 and objs[1]['layout'] in ('v1', 'hybrid', 'v2')
c = [x for x in objs[1]['cgroups'] if x['cgroup_path'] == '/$CGT-cmp'][0]
assert abs(c['cpu_quota_cpus'] - 0.3) < 1e-9 and c['memory_max_bytes'] == 'max'
assert c['cgroup_cpu_pct'] > 20 and c['memory_bytes'] >= 48 << 20
assert objs[0]['cgroups'][0]['cgroup_cpu_pct'] is None" "$TMP/cgtop.json"

	# the exporter's cgroups collector: cAdvisor's names, promtool, a real Prometheus
	"$PTK" exporter --collectors cgroups --listen 127.0.0.1:0 2>"$TMP/exp.err" &
	EXPP=$!
	PIDS+=($EXPP)
	EPORT=
	for _ in $(seq 50); do
		EPORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$TMP/exp.err")
		[ -n "$EPORT" ] && break
		sleep 0.1
	done
	curl -s "http://127.0.0.1:$EPORT/metrics" > "$TMP/m.txt"
	check "exporter: container_cpu_usage_seconds_total{cpu=\"total\",id=...} for the cgroup" grep -q "^container_cpu_usage_seconds_total{cpu=\"total\",id=\"/$CGT-cmp\"} " "$TMP/m.txt"
	check "exporter: its quota as cAdvisor gives it (container_spec_cpu_quota 30000 us per period)" grep -q "^container_spec_cpu_quota{id=\"/$CGT-cmp\"} 30000$" "$TMP/m.txt"
	check "exporter: its CFS periods and throttled periods" grep -q "^container_cpu_cfs_throttled_periods_total{id=\"/$CGT-cmp\"} " "$TMP/m.txt"
	mem_file=$(cat /sys/fs/cgroup/memory/$CGT-cmp/memory.usage_in_bytes)
	mem_exp=$(awk -v s="container_memory_usage_bytes{id=\"/$CGT-cmp\"}" '$1==s { print $2 }' "$TMP/m.txt")
	check "exporter: container_memory_usage_bytes is memory.usage_in_bytes ($mem_exp vs $mem_file)" near "${mem_exp:-0}" "$mem_file" 65536
	check "exporter: no limit, no container_spec_memory_limit_bytes for the cgroup" bash -c "! grep -q '^container_spec_memory_limit_bytes{id=\"/$CGT-cmp\"}' '$TMP/m.txt'"
	check "exporter: ptk_scrape_collector_success{collector=\"cgroups\"} 1" grep -q '^ptk_scrape_collector_success{collector="cgroups"} 1$' "$TMP/m.txt"
	if have promtool; then
		timeout -k 5 60 promtool check metrics < "$TMP/m.txt" > "$TMP/promtool.out" 2>&1
		check "exporter: promtool check metrics passes on the container_* families ($(head -c 200 "$TMP/promtool.out"))" test $? -eq 0
	else
		skip "promtool not installed"
	fi
	if have prometheus; then
		PPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: ptk\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' "$EPORT" > "$TMP/prometheus.yml"
		timeout -k 5 300 prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
			--web.listen-address="127.0.0.1:$PPORT" > "$TMP/prom.log" 2>&1 &
		PIDS+=($!)
		q() { curl -s --max-time 5 "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1"; }
		n=0
		for _ in $(seq 100); do
			n=$(q 'count_over_time(up{job="ptk"}[1m])' | jq -r '.data.result[0].value[1] // 0' 2>/dev/null)
			[ "${n:-0}" -ge 6 ] 2>/dev/null && break
			sleep 0.2
		done
		# the cgroup's own files over the 5 s Prometheus's rate()s then cover: a host busy
		# with other work leaves it under its quota, and then it is not throttled
		cgf() { echo "$(cat /sys/fs/cgroup/cpuacct/$CGT-cmp/cpuacct.usage) $(awk '$1 == "nr_periods" { p = $2 } $1 == "nr_throttled" { t = $2 } END { print p, t }' /sys/fs/cgroup/cpu/$CGT-cmp/cpu.stat) $(date +%s%N)"; }
		read -r u0 p0 h0 t0 <<<"$(cgf)"
		sleep 5
		read -r u1 p1 h1 t1 <<<"$(cgf)"
		rate=$(q "rate(container_cpu_usage_seconds_total{id=\"/$CGT-cmp\"}[5s])" | jq -r '.data.result[0].value[1] // "none"')
		thr=$(q "rate(container_cpu_cfs_throttled_periods_total{id=\"/$CGT-cmp\"}[5s]) / rate(container_cpu_cfs_periods_total{id=\"/$CGT-cmp\"}[5s])" | jq -r '.data.result[0].value[1] // "none"')
		frate=$(awk -v a="$u0" -v b="$u1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.3f", (b - a) / (e - s) }')
		fthr=$(awk -v a="$p0" -v b="$p1" -v x="$h0" -v y="$h1" 'BEGIN { printf "%.3f", (b > a ? (y - x) / (b - a) : 0) }')
		note "Prometheus: $n scrapes; CPU rate of the cgroup $rate CPUs, throttled share $thr; its files over the same 5 s: $frate CPUs, throttled $fthr"
		check "Prometheus: rate(container_cpu_usage_seconds_total) of the cgroup is its cpuacct.usage rate over the same 5 s ($rate vs $frate CPUs)" near "${rate/none/9}" "$frate" 0.05
		check "Prometheus: throttled periods / periods of the cgroup is cpu.stat's over the same 5 s ($thr vs $fthr)" near "${thr/none/9}" "$fthr" 0.15
		if awk -v t="$fthr" 'BEGIN { exit !(t > 0.5) }'; then
			check "Prometheus: throttled in most periods, the cgroup's rate is its 0.3 CPU quota ($rate)" near "${rate/none/9}" 0.3 0.08
		else
			skip "Prometheus: the cgroup was throttled in $fthr of its periods only (the host busy with other work left it $frate CPUs): its rate is not its quota"
		fi
		sm=$(curl -s "http://127.0.0.1:$PPORT/api/v1/targets" | jq -r '.data.activeTargets[0].lastError')
		check "Prometheus parsed every scrape (no target error: '$sm')" [ -z "$sm" ]
	else
		skip "prometheus not installed"
	fi
	# one pass renders both formats: the OpenMetrics scrape has the text one's samples
	curl -s -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$EPORT/metrics" > "$TMP/m.om"
	check "exporter: the OpenMetrics scrape ends in # EOF" bash -c "tail -n 1 '$TMP/m.om' | grep -qx '# EOF'"
	if grep -q "^container_spec_cpu_quota{id=\"/$CGT-cmp\"} 30000$" "$TMP/m.om"; then
		ok "exporter: the OpenMetrics scrape has the cgroup's quota sample as the text one"
	else
		not_ok "exporter: the OpenMetrics scrape has the cgroup's quota sample as the text one"
		grep -E "cpu_quota|collector_success|scrape_duration" "$TMP/m.om" | head -20 | sed 's/^/# /'
		sed 's/^/# exporter: /' "$TMP/exp.err" | tail -5
	fi
	# the exporter holds the cgroup files open between scrapes: a removed cgroup is let go,
	# one made again under the same path is read anew
	KEEP=/sys/fs/cgroup/memory/ptk-cgtest-keep
	mkdir "$KEEP" && CGS+=("$KEEP")
	echo $((64 << 20)) > "$KEEP/memory.limit_in_bytes"
	curl -s "http://127.0.0.1:$EPORT/metrics" > "$TMP/k1.txt"
	check "exporter: a new cgroup's limit (64 MiB)" grep -q "^container_spec_memory_limit_bytes{id=\"/ptk-cgtest-keep\"} $((64 << 20))\$" "$TMP/k1.txt"
	check "exporter: holds files of the cgroup open" bash -c "ls -l /proc/$EXPP/fd | grep -q ptk-cgtest-keep/"
	check "rmdir of a cgroup whose files the exporter holds succeeds" rmdir "$KEEP"
	curl -s "http://127.0.0.1:$EPORT/metrics" > "$TMP/k2.txt"
	check "exporter: the removed cgroup is gone from the scrape" bash -c "! grep -q 'id=\"/ptk-cgtest-keep\"' '$TMP/k2.txt'"
	check "exporter: and its files are closed" bash -c "! ls -l /proc/$EXPP/fd | grep -q ptk-cgtest-keep/"
	mkdir "$KEEP"
	echo $((32 << 20)) > "$KEEP/memory.limit_in_bytes"
	curl -s "http://127.0.0.1:$EPORT/metrics" > "$TMP/k3.txt"
	check "exporter: the cgroup made again under the same path has its new limit (32 MiB)" grep -q "^container_spec_memory_limit_bytes{id=\"/ptk-cgtest-keep\"} $((32 << 20))\$" "$TMP/k3.txt"
	rmdir "$KEEP"
	kill -TERM $EXPP 2>/dev/null
	xargs -r kill -9 < /sys/fs/cgroup/cpu/$CGT-cmp/cgroup.procs 2>/dev/null
else
	skip "systemd-cgtop not installed: no comparison"
fi
xargs -r kill -9 < /sys/fs/cgroup/cpu/$CGT-cpu/cgroup.procs 2>/dev/null

# --- a reader whose page cache is held below its working set by the memory limit -----------
# v1 has no memory.high: memory.limit_in_bytes below the working set of file pages makes
# every charge over it reclaim (memory.failcnt), the v1 form of a service held at memory.high.
mkcg mem memory blkio
echo $((48 << 20)) > /sys/fs/cgroup/memory/$CGT-mem/memory.limit_in_bytes
dd if=/dev/urandom of=/var/tmp/$CGT-mem bs=1M count=160 status=none
# out of the page cache, so that the reader's cgroup is charged for every page it reads
python3 -c "import os; fd = os.open('/var/tmp/$CGT-mem', os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)"
into mem python3 -c "
import time
t = time.time()
while time.time() - t < 25:
    with open('/var/tmp/$CGT-mem', 'rb') as f:
        while f.read(1 << 20): pass"
sleep 1
psi_mark mem
"$PTK" check -d 5 --json > "$TMP/mem.json"
check "memory: check names the cgroup held at its memory limit" py "$TMP/mem.json" "cg('/$CGT-mem')['verdict'] in ('warning','critical')"
check "memory: the reason is its limit, with the limit hits in the window" py "$TMP/mem.json" "any('hit its memory limit' in e and '48' in e for e in cg('/$CGT-mem')['evidence']) and cg('/$CGT-mem')['errors']['memory_max_events'] > 0"
check "memory: the reader inside is named" py "$TMP/mem.json" "any(o['comm'].startswith('python') for o in cg('/$CGT-mem')['offenders'])"
check "memory: the host's memory row stays ok" py "$TMP/mem.json" "row('memory')['verdict']=='ok'"
host_cpu_ok "$TMP/mem.json" memory
kill -9 "${PIDS[-1]}" 2>/dev/null

# --- a cgroup whose task is OOM-killed --------------------------------------------------------
mkcg oom memory pids
echo $((64 << 20)) > /sys/fs/cgroup/memory/$CGT-oom/memory.limit_in_bytes
psi_mark oom
"$PTK" check -d 5 --json > "$TMP/oom.json" &
CHK=$!
sleep 1.5
into oom python3 -c "
import time
b = []
while True:
    b.append(bytearray(8 << 20))
    for i in range(0, len(b[-1]), 4096): b[-1][i] = 1
    time.sleep(0.01)"
wait $CHK
check "oom: check names the cgroup with its OOM kill" py "$TMP/oom.json" "cg('/$CGT-oom')['verdict']=='critical' and cg('/$CGT-oom')['errors']['cgroup_oom_kills'] >= 1"
check "oom: the evidence names the kill at its memory limit" py "$TMP/oom.json" "any('OOM-killed' in e and '64' in e for e in cg('/$CGT-oom')['evidence'])"
check "oom: the host's memory row stays ok, with the kill as a note that points to the cgroup" py "$TMP/oom.json" "row('memory')['verdict']=='ok' and any('cgroup rows' in e for e in row('memory')['evidence'])"
host_cpu_ok "$TMP/oom.json" oom

# --- an I/O-heavy cgroup ------------------------------------------------------------------------
if have fio; then
	mkcg io blkio cpu cpuacct
	# v1 blk-throttle keeps its per-cgroup counters only for a group with a rule on the
	# device (so on this kernel): a limit far above the disk's speed
	dev=$(findmnt -no MAJ:MIN -T /var/tmp | tr -d ' ')
	echo "$dev 100000000000" > /sys/fs/cgroup/blkio/$CGT-io/blkio.throttle.read_bps_device
	timeout -k 5 120 fio --name=prep --filename=/var/tmp/$CGT-io --size=128M --rw=write --bs=1M --output=/dev/null >/dev/null 2>&1
	into io timeout -k 5 60 fio --name=ptk-cgtest --filename=/var/tmp/$CGT-io --size=128M --rw=randread --direct=1 --bs=16k --ioengine=psync --iodepth=1 --time_based --runtime=25 --output=/dev/null
	sleep 1.5
	psi_mark io
	"$PTK" check -d 5 --json > "$TMP/io.json"
	if [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then
		check "io: check names the I/O-heavy cgroup" py "$TMP/io.json" "cg('/$CGT-io')['verdict'] in ('warning','critical')"
		check "io: the reason is its tasks' I/O stalls, with its read rate" py "$TMP/io.json" "any('stalled on I/O' in e for e in cg('/$CGT-io')['evidence']) and cg('/$CGT-io')['utilization']['read_bytes_per_s'] > 1e6"
		check "io: fio inside is the offender" py "$TMP/io.json" "any(o['comm'].startswith('fio') for o in cg('/$CGT-io')['offenders'])"
	else
		skip "io: no v2 tree for the cgroup's io.pressure (pure v1)"
	fi
	check "io: the host's memory row stays ok" py "$TMP/io.json" "row('memory')['verdict']=='ok'"
	host_cpu_ok "$TMP/io.json" io
	xargs -r kill -9 < /sys/fs/cgroup/blkio/$CGT-io/cgroup.procs 2>/dev/null
else
	skip "fio not installed: no I/O scenario"
fi

# --- bad input ----------------------------------------------------------------------------------
out=$("$PTK" cgtop -o bogus 2>&1); rc=$?
check "cgtop: a bad --order exits 2 with one line" test $rc -eq 2 -a "$(echo "$out" | wc -l)" -le 2
"$PTK" cgtop -b -n 1 --sysfs "$TMP" >/dev/null 2>&1; rc=$?
check "cgtop: no cgroup hierarchy exits 1" test $rc -eq 1
echo "1..$T_N"
