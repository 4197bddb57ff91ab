#!/usr/bin/env bash
# ptk vmstat against procps vmstat: headers, the since-boot line (live and byte-exact on a
# fixture seen by vmstat through bind mounts), interval lines under CPU load, a replay tree
# recomputed with awk from the copied /proc files, errors and JSON.
. "$(dirname "$0")/lib.sh"

have vmstat || { skip "procps vmstat not installed"; exit 0; }

# headers: both lines identical for every layout
for o in "" -w -a "-w -a" "-S M" -t "-w -t"; do
	a=$(timeout -k 5 30 vmstat $o | head -2)
	b=$("$PTK" vmstat $o | head -2)
	[ "$a" = "$b" ] && ok "headers identical: vmstat $o" ||
		{ not_ok "headers differ: vmstat $o"; diff <(echo "$a") <(echo "$b") | sed 's/^/# /'; }
done

# since-boot line, live: vmstat, ptk, vmstat. Memory within 1% of the bracket of the two
# vmstat runs (+-64 kB for small columns); the since-boot percentages move by less than one
# unit between runs taken a few ms apart (they average over the whole uptime), so they must
# agree within 1 (integer rounding at a boundary). si so bi bo in cs: procps 4.0.2 divides
# them by the CPU ticks of every CPU (a fixed bug, procps 4.0.3): ptk's are counter / uptime
# (truncated, as 4.0.3), compared with that computed from /proc before and after ptk.
boot_rates() { # si so bi bo in cs since boot from /proc, counter / uptime truncated
	awk -v pkb=$(($(getconf PAGESIZE) / 1024)) '
		FILENAME ~ /uptime$/ && FNR == 1 { up = $1 }
		FILENAME ~ /vmstat$/ { V[$1] = $2 }
		FILENAME ~ /stat$/ && ($1 == "intr" || $1 == "ctxt") { V[$1] = $2 }
		END { printf "%d %d %d %d %d %d\n", V["pswpin"] * pkb / up, V["pswpout"] * pkb / up,
			V["pgpgin"] / up, V["pgpgout"] / up, V["intr"] / up, V["ctxt"] / up }' \
		"$1/uptime" "$1/vmstat" "$1/stat"
}
a=$(timeout -k 5 30 vmstat | tail -1)
r0=$(boot_rates /proc)
b=$("$PTK" vmstat | tail -1)
r1=$(boot_rates /proc)
c=$(timeout -k 5 30 vmstat | tail -1)
note "vmstat: $a"
note "ptk   : $b"
note "/proc : si so bi bo in cs $r0 .. $r1"
awk -v a="$a" -v b="$b" -v c="$c" -v r0="$r0" -v r1="$r1" 'BEGIN {
	split("r b swpd free buff cache si so bi bo in cs us sy id wa st", N)
	na = split(a, A); nb = split(b, B); split(c, C); split(r0, R0); split(r1, R1)
	if (na != nb) { print "# column count " na " vs " nb; exit 1 }
	bad = 0
	for (i = 3; i <= nb; i++) {
		if (i >= 7 && i <= 12) { lo = R0[i - 6]; hi = R1[i - 6]; tol = 1 }
		else { lo = A[i] < C[i] ? A[i] : C[i]; hi = A[i] < C[i] ? C[i] : A[i]
			tol = (i <= 6) ? 0.01 * hi : 1; if (i <= 6 && tol < 64) tol = 64 }
		if (B[i] < lo - tol || B[i] > hi + tol) { print "# " N[i] ": " B[i] " vs [" lo "," hi "]"; bad = 1 }
	}
	exit bad }' && ok "since-boot line: memory and % as vmstat, si so bi bo in cs = counter / uptime" ||
	not_ok "since-boot line differs"

# since-boot line on a fixture, byte-exact with procps 4.0.2 in r b, memory (except above
# 2^24 kB where 4.0.2 rounds through a float (unitConvert) and we do not: +-2 there) and the
# CPU shares; si so bi bo in cs as counter / uptime of the fixture (4.0.2's are these
# divided by the number of CPUs, 4.0.3's fix), also checked to be 4.0.2's times the CPUs
# within the truncation.
if is_root && unshare -m true 2>/dev/null; then
	fx="$TMP/fx"
	mkdir -p "$fx"
	for f in stat meminfo vmstat uptime loadavg; do cp /proc/$f "$fx/"; done
	ncpu=$(grep -c '^cpu[0-9]' "$fx/stat")
	for o in "" -w -a "-S m" "-S k -w"; do
		a=$(unshare -m sh -c "for f in stat meminfo vmstat uptime; do mount --bind $fx/\$f /proc/\$f; done; timeout -k 5 30 vmstat $o" | tail -1)
		b=$("$PTK" vmstat $o --procfs "$fx" | tail -1)
		e=$(boot_rates "$fx")
		note "fixture vmstat $o: $a"
		note "fixture ptk    $o: $b (si..cs from the files: $e)"
		awk -v a="$a" -v b="$b" -v e="$e" -v n="$ncpu" -v o="$o" 'BEGIN {
			na = split(a, A); nb = split(b, B); split(e, E); if (na != nb) exit 1
			for (i = 1; i <= na; i++) {
				if (i >= 7 && i <= 12) {
					if (B[i] != E[i - 6]) exit 1
					# 4.0.2: counter * HZ / ticks of all CPUs, a ticks-based uptime x N
					if (o !~ /S/ && (B[i] < A[i] * n * 0.95 - n || B[i] > A[i] * n * 1.05 + n)) exit 1
					continue }
				d = A[i] - B[i]; if (d < 0) d = -d
				if (d > ((i >= 3 && i <= 6) ? 2 : 0)) exit 1 }
			exit 0 }' && ok "fixture since-boot line: vmstat${o:+ $o}'s columns, si..cs = counter / uptime (~ $ncpu x 4.0.2's)" ||
			not_ok "fixture vmstat $o differs"
	done
else
	skip "fixture comparison needs root and unshare -m"
fi

# The other modes on tests/fixtures/vmstat_modes, seen by procps vmstat through bind
# mounts: -s (every -S unit), -f, -p byte-identical; -d, -D and -m identical but where procps
# 4.0.2 prints a value under a label that says otherwise (ptk prints what the label says):
# -d "cur" and -D "inprogress IO" are the requests in flight (procps divides them by 1000),
# -D "milli spent IO" and "milli weighted IO" are ms (procps divides by 1000), -m "Pages" is
# pages per slab (procps prints objects per slab). Those are checked against the files.
mfx="$FIX/vmstat_modes"
if is_root && unshare -m true 2>/dev/null; then
	pv() { unshare -m sh -c "for f in stat meminfo vmstat diskstats slabinfo uptime; do mount --bind $mfx/\$f /proc/\$f; done; timeout -k 5 60 vmstat $*" 2>&1; }
	nd=0
	for o in -s "-s -S m" "-s -S k" "-s -S M" -f "-f -s" "-p vda1" "-p /dev/vda" "-p loop1 1 2"; do
		a=$(pv "$o")
		b=$("$PTK" vmstat $o --procfs "$mfx" 2>&1)
		[ "$a" = "$b" ] || { nd=$((nd + 1)); note "vmstat $o differs:"; diff <(echo "$a") <(echo "$b") | sed 's/^/#   /' | head -6; }
	done
	check "fixture: -s (4 units), -f, -p: 9 option sets byte-identical to procps vmstat" test "$nd" -eq 0
	# -d: every column but cur; cur = the in-flight field (procps: it / 1000)
	for o in -d "-d -w"; do
		a=$(pv "$o"); b=$("$PTK" vmstat $o --procfs "$mfx")
		x=$(awk '$3 == "loop0" || $3 == "vda" { printf "%s:%d:%d ", $3, $12, int($12 / 1000) }' "$mfx/diskstats")
		note "vmstat $o cur (name:ptk:procps): $x"
		check "fixture vmstat $o: headers and columns as procps, cur = in-flight requests ($x)" awk -v a="$a" -v b="$b" -v x="$x" 'BEGIN {
			na = split(a, A, "\n"); nb = split(b, B, "\n"); if (na != nb) exit 1
			n = split(x, X, " "); for (k = 1; k <= n; k++) { split(X[k], y, ":"); P[y[1]] = y[2]; Q[y[1]] = y[3] }
			for (i = 1; i <= na; i++) {
				if (A[i] == B[i]) continue
				nf = split(A[i], F); split(B[i], G)
				if (!(F[1] in P) || F[10] != Q[F[1]] || G[10] != P[F[1]]) exit 1
				for (k = 1; k <= nf; k++) if (k != 10 && F[k] != G[k]) exit 1
			}
			exit 0 }'
	done
	a=$(pv -D); b=$("$PTK" vmstat -D --procfs "$mfx")
	e=$(awk '$3 !~ /[0-9]$/ || $3 == "loop0" || $3 == "loop1" || $3 == "zram0" { f += $12; t += $13; w += $14; p += int($12 / 1000); pt += int($13 / 1000); pw += int($14 / 1000) }
		END { printf "%d %d %d %d %d %d", f, t, w, p, pt, pw }' "$mfx/diskstats")
	note "vmstat -D in-flight, io ms, weighted ms (ptk, procps): $e"
	check "fixture vmstat -D: the first 10 lines as procps, the last 3 the kernel's sums ($e)" awk -v a="$a" -v b="$b" -v e="$e" 'BEGIN {
		na = split(a, A, "\n"); split(b, B, "\n"); split(e, E, " "); if (na != 13) exit 1
		for (i = 1; i <= 10; i++) if (A[i] != B[i]) exit 1
		for (i = 11; i <= 13; i++) { split(A[i], p); split(B[i], q)
			if (q[1] != E[i - 10] || p[1] != E[i - 7]) exit 1 }
		exit 0 }'
	a=$(pv -m); b=$("$PTK" vmstat -m --procfs "$mfx")
	check "fixture vmstat -m: names, order, header lines and Num Total Size as procps, Pages = pagesperslab" awk -v a="$a" -v b="$b" -v f="$mfx/slabinfo" 'BEGIN {
		while ((getline l < f) > 0) { n = split(l, x); if (x[1] != "#" && n > 6) { O[x[1]] = x[5]; G[x[1]] = x[6] } }
		na = split(a, A, "\n"); nb = split(b, B, "\n"); if (na != nb || na < 40) exit 1
		for (i = 1; i <= na; i++) {
			if (A[i] ~ /^Cache /) { if (A[i] != B[i]) exit 1; continue }
			split(A[i], p); split(B[i], q)
			if (p[1] != q[1] || p[2] != q[2] || p[3] != q[3] || p[4] != q[4]) exit 1
			if (p[5] != O[p[1]] || q[5] != G[p[1]]) exit 1 }
		exit 0 }'
	note "vmstat -m: $(pv -m | sed -n 2p) / ptk: $("$PTK" vmstat -m --procfs "$mfx" | sed -n 2p)"
else
	skip "fixture comparison of -s -f -d -D -p -m needs root and unshare -m"
fi
# live, the lines that do not move between two runs
if have vmstat; then
	check "vmstat -d: the header lines and the device names as procps" test \
		"$(timeout -k 5 60 vmstat -d | awk 'NR <= 2 { print; next } { print $1 }')" = "$("$PTK" vmstat -d | awk 'NR <= 2 { print; next } { print $1 }')"
	check "vmstat -D: disks and partitions as procps" test "$(timeout -k 5 60 vmstat -D | head -2)" = "$("$PTK" vmstat -D | head -2)"
	a=$(timeout -k 5 60 vmstat -f | awk '{ print $1 }'); b=$("$PTK" vmstat -f | awk '{ print $1 }'); c=$(timeout -k 5 60 vmstat -f | awk '{ print $1 }')
	check "vmstat -f: forks between two procps runs ($a <= $b <= $c)" test "$a" -le "$b" -a "$b" -le "$c"
	if is_root; then
		check "vmstat -m: the caches as procps, in its order" test "$(timeout -k 5 60 vmstat -m | awk '{ print $1 }')" = "$("$PTK" vmstat -m | awk '{ print $1 }')"
	fi
fi
"$PTK" vmstat -p nosuchdev >"$TMP/o" 2>"$TMP/e"
rc=$?
check "vmstat -p nosuchdev: exit 1, procps's words ($(cat "$TMP/e"))" test $rc -eq 1 -a -n "$(grep "Disk/Partition nosuchdev not found" "$TMP/e")"
if is_root && have setpriv; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$PTK" vmstat -m 2>&1)
	check "vmstat -m unprivileged: names the file and root ($out)" grep -q "slabinfo: Permission denied (root only)" <<<"$out"
fi
"$PTK" vmstat --json -s | python3 -c '
import json, sys
o = json.load(sys.stdin)["stats"]
mt = [int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal:")][0]
assert o["mem_total"] == mt and o["btime"] > 0 and o["processes"] > 0, o
' && ok "--json -s: mem_total = MemTotal, btime, processes" || not_ok "--json -s"

# ptk vmstat 1 3: three data lines
n=$("$PTK" vmstat 1 3 | tail -n +3 | wc -l)
[ "$n" -eq 3 ] && ok "vmstat 1 3: 3 data lines" || not_ok "vmstat 1 3: $n data lines"

# Under load: ptk and vmstat run concurrently over the same 3 s.
if have stress-ng; then
	timeout -k 5 60 stress-ng --cpu 2 --timeout 6 >/dev/null 2>&1 &
	sp=$!
	sleep 1
	timeout -k 5 60 vmstat 1 3 >"$TMP/v" &
	vp=$!
	"$PTK" vmstat 1 3 >"$TMP/p"
	wait $vp
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	sed 's/^/# vmstat: /' "$TMP/v"
	sed 's/^/# ptk   : /' "$TMP/p"
	for l in 4 5; do
		vu=$(sed -n "${l}p" "$TMP/v" | awk '{ print $13 }')
		pu=$(sed -n "${l}p" "$TMP/p" | awk '{ print $13 }')
		pr=$(sed -n "${l}p" "$TMP/p" | awk '{ print $1 }')
		note "interval $((l - 3)): us vmstat $vu ptk $pu, r ptk $pr"
		near "$vu" "$pu" 10 && [ "$pr" -ge 1 ] && ok "under load, interval $((l - 3)): us within 10 points, r >= 1" ||
			not_ok "under load, interval $((l - 3)): us $pu vs $vu, r $pr"
	done
else
	skip "stress-ng not installed"
fi

# Replay tree of two real snapshots one second apart; expected numbers computed by awk
# from the copied files with vmstat's formulas.
rt="$TMP/replay"
for s in 0 1; do
	mkdir -p "$rt/$s"
	for f in stat meminfo vmstat uptime loadavg; do cp /proc/$f "$rt/$s/"; done
	[ $s -eq 0 ] && sleep 1
done
hz=$(getconf CLK_TCK)
pkb=$(($(getconf PAGESIZE) / 1024))
expect() { # $1 = snapshot, $2 = previous snapshot or "" for since boot
	awk -v hz="$hz" -v pkb="$pkb" -v boot="${2:-x}" '
	function rd(d, p) {
		while ((getline l < (d "/stat")) > 0) { split(l, f, " ")
			if (f[1] == "cpu") for (k = 2; k <= 11; k++) T[p, k - 1] = f[k]
			if (f[1] == "intr") E[p, "in"] = f[2]; if (f[1] == "ctxt") E[p, "cs"] = f[2]
			if (f[1] == "procs_running") R = f[2]; if (f[1] == "procs_blocked") B = f[2] }
		while ((getline l < (d "/vmstat")) > 0) { split(l, f, " ")
			if (f[1] == "pgpgin") E[p, "bi"] = f[2]; if (f[1] == "pgpgout") E[p, "bo"] = f[2]
			if (f[1] == "pswpin") E[p, "si"] = f[2] * pkb; if (f[1] == "pswpout") E[p, "so"] = f[2] * pkb }
		while ((getline l < (d "/meminfo")) > 0) { split(l, f, " "); M[f[1]] = f[2] }
		getline l < (d "/uptime"); split(l, f, " "); U[p] = f[1] }
	function pc(x) { return int((100 * x + int(div / 2)) / div) }
	BEGIN {
		if (boot != "x") rd(boot, 0); rd(ARGV[1], 1)
		for (k = 1; k <= 10; k++) t[k] = T[1, k] - (boot != "x" ? T[0, k] : 0)
		use = t[1] + t[2]; sys = t[3] + t[6] + t[7]; idl = t[4]; iow = t[5]; sto = t[8]
		gue = t[9] + t[10]; div = use + sys + idl + iow + sto; if (!div) { div = 1; idl = 1 }
		use = use >= gue ? use - gue : 0
		printf "%d %d %d %d %d %d", R, B, M["SwapTotal:"] - M["SwapFree:"], M["MemFree:"], M["Buffers:"], M["Cached:"] + M["SReclaimable:"]
		split("si so bi bo in cs", ev, " ")
		for (k = 1; k <= 6; k++) {
			if (boot == "x") v = int(E[1, ev[k]] / U[1])
			else v = int((E[1, ev[k]] - E[0, ev[k]]) / (U[1] - U[0]) + 0.5)
			printf " %d", v }
		printf " %d %d %d %d %d\n", pc(use), pc(sys), pc(idl), pc(iow), pc(sto)
	}' "$1"
}
e0=$(expect "$rt/0")
e1=$(expect "$rt/1" "$rt/0")
"$PTK" vmstat --procfs "$rt" >"$TMP/rp"
g0=$(sed -n 3p "$TMP/rp" | xargs)
g1=$(sed -n 4p "$TMP/rp" | xargs)
note "replay awk  0: $e0"
note "replay ptk  0: $g0"
note "replay awk  1: $e1"
note "replay ptk  1: $g1"
[ "$e0" = "$g0" ] && ok "replay: since-boot line of snapshot 0 = awk" || not_ok "replay snapshot 0 differs"
[ "$e1" = "$g1" ] && ok "replay: interval line 0->1 = awk" || not_ok "replay interval differs"
[ "$(wc -l <"$TMP/rp")" -eq 4 ] && ok "replay: one line per snapshot, nothing more" ||
	not_ok "replay printed $(wc -l <"$TMP/rp") lines"

# errors: one line, exit 2
for bad in "-x" "-S x" "-S" "0" "1 0" "abc" "1 2 3" "-s -d" "-D -m" "-p"; do
	"$PTK" vmstat $bad >"$TMP/o" 2>"$TMP/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && [ ! -s "$TMP/o" ] &&
		ok "vmstat $bad: exit 2, one line" || not_ok "vmstat $bad: exit $rc: $(cat "$TMP/e")"
done

# JSON: one object per line, the registry's keys and values (shares with two decimals: us,
# sy, id, wa, st and the guests gu sum to 100 within their rounding)
"$PTK" vmstat --json 0.2 2 >"$TMP/j" && python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2 and rows[0]["since_boot"] and not rows[1]["since_boot"]
cpu = ("user_nice_excl_guest_pct", "system_pct", "idle_pct", "iowait_pct", "steal_pct")
for r in rows:
    v = r["vmstat"]
    assert abs(sum(v[k] for k in cpu) + v["guest_all_pct"] - 100) <= 0.03, v
print("# json interval_s", rows[1]["interval_s"], "us/sy/id", *(rows[1]["vmstat"][k] for k in cpu[:3]))
' "$TMP/j" && ok "--json: 2 objects, percentages sum to 100" || not_ok "--json: $(cat "$TMP/j")"

# -t: timestamp column "YYYY-mm-dd HH:MM:SS"
"$PTK" vmstat -t | tail -1 | grep -Eq ' [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' &&
	ok "-t appends the timestamp" || not_ok "-t: $("$PTK" vmstat -t | tail -1)"
