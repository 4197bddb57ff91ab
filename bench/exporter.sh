#!/usr/bin/env bash
# ptk exporter against prometheus-node-exporter, one run, same machine, loopback only:
#  - CPU per scrape: server utime+stime (/proc/PID/stat) over N sequential scrapes / N, minus
#    what the server burns with no scrape at all over the same time (ptk's scanner and check
#    threads, BPF excluded: that is kernel time of the programs, printed apart);
#  - latency per scrape (curl time_total: mean, p99, max) and response size;
#  - a burst of 200 concurrent scrapes (one event loop client): max and p50 latency;
#  - scrapes every 0.1 s while 2,000 slowloris and/or 2,000 idle connections are held on
#    loopback (bench/connhold.py, each closed one reopened): p50, p99, failures, and how
#    many the server closed (HOLD_TIME seconds each, default 15).
# node_exporter runs twice: its defaults, and only the collectors ptk has
# (cpu stat loadavg meminfo vmstat diskstats netdev pressure).
# usage: bench/exporter.sh [N]     (PTK=path to ptk, default build/ptk; root for BPF)
#        bench/exporter.sh hold     (only the held connections)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
N=${1:-200}
HOLD_TIME=${HOLD_TIME:-15}
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
if ! command -v prometheus-node-exporter >/dev/null; then
	if apt-cache policy prometheus-node-exporter 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		echo "installing prometheus-node-exporter for the comparison" >&2
		apt-get install -y prometheus-node-exporter >/dev/null 2>&1 ||
			echo "could not install it: ptk alone" >&2
		# the package starts its own service on :9100; this bench starts its own instances
	fi
fi
HZ=$(getconf CLK_TCK)
T=$(mktemp -d)
SRV=
cleanup() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cpu_ticks() { awk '{ print $14 + $15 }' /proc/$1/stat; }

cat >"$T/burst.py" <<'EOF'
import selectors, socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
sel = selectors.DefaultSelector()
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
st = {}
for i in range(n):
    s = socket.socket(); s.setblocking(False)
    try: s.connect(("127.0.0.1", port))
    except BlockingIOError: pass
    st[s] = [None, 0, None]; sel.register(s, selectors.EVENT_WRITE)
done = 0
while done < n:
    for key, e in sel.select(timeout=60):
        s = key.fileobj; x = st[s]
        if x[0] is None:
            x[0] = time.monotonic(); s.send(req); sel.modify(s, selectors.EVENT_READ); continue
        d = s.recv(1 << 20)
        if d: x[1] += len(d); continue
        x[2] = time.monotonic(); sel.unregister(s); s.close(); done += 1
lat = sorted(x[2] - x[0] for x in st.values())
print("%.1f %.1f" % (lat[-1] * 1e3, lat[n // 2] * 1e3))
EOF

# run NAME PORT: measure the server $SRV listening on PORT
run() {
	local name=$1 port=$2 c0 c1 idle busy lat
	for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/metrics" && break; sleep 0.1; done
	sleep 2 # first scans done
	curl -s -o "$T/body" "http://127.0.0.1:$port/metrics"
	# idle cost over the time N scrapes take
	c0=$(cpu_ticks $SRV)
	local t0=$(date +%s.%N)
	for i in $(seq "$N"); do
		curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/metrics"
	done >"$T/lat"
	c1=$(cpu_ticks $SRV)
	local wall=$(echo "$(date +%s.%N) - $t0" | bc)
	busy=$((c1 - c0))
	c0=$(cpu_ticks $SRV)
	sleep "$wall"
	idle=$(($(cpu_ticks $SRV) - c0))
	lat=$(sort -n "$T/lat" | awk '{ a[NR] = $1; s += $1 } END { printf "%.2f %.2f %.2f", s / NR * 1000, a[int(NR * 0.99)] * 1000, a[NR] * 1000 }')
	local burst=$(python3 "$T/burst.py" "$port" 200)
	awk -v n="$name" -v b="$busy" -v i="$idle" -v N="$N" -v hz="$HZ" -v l="$lat" -v bu="$burst" \
		-v sz="$(wc -c <"$T/body")" -v ser="$(grep -vc '^#' "$T/body")" 'BEGIN {
		split(l, L, " "); split(bu, B, " ");
		printf "%-34s %8.2f %8.2f %7.2f %7.2f %7d %6d %9.1f %9.1f\n", n,
			(b - i) / hz / N * 1000, L[1], L[2], L[3], sz / 1024, ser, B[1], B[2] }'
	kill "$SRV"
	wait "$SRV" 2>/dev/null
	SRV=
}

# hold NAME PORT: scrapes of $SRV on PORT under each kind of held connections
hold() {
	local name=$1 port=$2 tag=$3 kind slow idle out
	for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/metrics" && break; sleep 0.1; done
	for kind in slow idle both; do
		case $kind in slow) slow=2000 idle=0 ;; idle) slow=0 idle=2000 ;; both) slow=2000 idle=2000 ;; esac
		out=$(python3 bench/connhold.py "$port" --slow $slow --idle $idle --time "$HOLD_TIME" --every 0.1)
		set -- $out
		printf "%-26s %-20s %7s %5s %8s %8s %8s %6s %6s %8s\n" "$name" "$slow slow $idle idle" \
			"$2" "$6" "$8" "${10}" "${12}" "${14}" "${16}" "${18}"
		echo "$tag $kind ${10}" >>"$T/hold"
	done
	kill "$SRV"
	wait "$SRV" 2>/dev/null
	SRV=
}

hold_all() {
	local P
	: >"$T/hold"
	echo "scrapes every 0.1 s for $HOLD_TIME s while connections are held on 127.0.0.1 (reopened when closed)"
	printf "%-26s %-20s %7s %5s %8s %8s %8s %6s %6s %8s\n" server held scrapes fail p50_ms p99_ms max_ms \
		"open_s" "open_i" closed
	P=$(free_port)
	"$PTK" exporter --listen "127.0.0.1:$P" 2>/dev/null &
	SRV=$!
	hold "ptk exporter" "$P" ptk
	if command -v prometheus-node-exporter >/dev/null; then
		P=$(free_port)
		prometheus-node-exporter --web.listen-address="127.0.0.1:$P" >/dev/null 2>&1 &
		SRV=$!
		hold "node_exporter $(prometheus-node-exporter --version 2>&1 | awk 'NR == 1 { print $3 }')" "$P" node
		awk '{ p[$1 " " $2] = $3 } END { for (k in p) if (k ~ /^ptk /) { split(k, a, " ");
			n = p["node " a[2]]; if (n > 0) printf "p99 ptk / node_exporter, %s held: %.2f\n", a[2], p[k] / n } }' \
			"$T/hold" | sort
	fi
	echo "open_s/open_i: slow/idle connections open at the end; closed: closed by the server during the run"
}

if [ "${1:-}" = hold ]; then
	hold_all
	exit 0
fi

echo "$N sequential scrapes each (curl), then 200 concurrent; loadavg $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
printf "%-34s %8s %8s %7s %7s %7s %6s %9s %9s\n" server "cpu_ms" "mean_ms" "p99_ms" "max_ms" "kB" series "burst_max" "burst_p50"
P=$(free_port)
"$PTK" exporter --listen "127.0.0.1:$P" 2>/dev/null &
SRV=$!
run "ptk exporter (defaults)" "$P"
P=$(free_port)
"$PTK" exporter --listen "127.0.0.1:$P" --collectors cpu,stat,loadavg,meminfo,vmstat,diskstats,netdev,pressure 2>/dev/null &
SRV=$!
run "ptk exporter (node_* only)" "$P"
if command -v prometheus-node-exporter >/dev/null; then
	P=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$P" >/dev/null 2>&1 &
	SRV=$!
	run "node_exporter $(prometheus-node-exporter --version 2>&1 | awk 'NR == 1 { print $3 }') (defaults)" "$P"
	P=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$P" --collector.disable-defaults \
		--collector.cpu --collector.stat --collector.loadavg --collector.meminfo \
		--collector.vmstat --collector.diskstats --collector.netdev --collector.pressure \
		>/dev/null 2>&1 &
	SRV=$!
	run "node_exporter (same collectors)" "$P"
else
	echo "prometheus-node-exporter not available: no comparison"
fi
echo "cpu_ms: server CPU per scrape (user+sys, minus its idle CPU over the same time); latency from curl"
echo
hold_all
