#!/usr/bin/env bash
# ptk dstat next to Debian's dstat (0.7.4, which calls itself 0.8.0): the header lines for
# every plugin; the since-boot line byte for byte on a /proc copy both read (dstat through bind
# mounts); a replayed ptk capture tree against dstat's formulas printed by dstat's own cprint;
# live intervals side by side under a known load (CPU, disk writes, loopback traffic); the
# --output CSV against dstat's header and ptk's own JSON of the same samples; errors.
. "$(dirname "$0")/lib.sh"

have dstat || { skip "dstat not installed (apt-get install dstat)"; exit 0; }
# dstat's own number format and plugins, imported from /usr/bin/dstat (tests only read them)
cat >"$TMP/dsref.py" <<'EOF'
import contextlib, importlib.machinery, importlib.util, io, sys, warnings
warnings.simplefilter("ignore")
_l = importlib.machinery.SourceFileLoader("dstatmod", "/usr/bin/dstat")
D = importlib.util.module_from_spec(importlib.util.spec_from_loader("dstatmod", _l))
with contextlib.redirect_stdout(io.StringIO()):
    _l.exec_module(D)
D.op.color = False
D.theme = D.set_theme()
for k, v in list(D.theme.items()):
    D.theme[k] = "" if isinstance(v, str) else ("",)
D.step = D.op.delay
def cp(v, t, w, s):
    return D.cprint(v, t, w, s)
EOF

# ---- headers: every plugin, lists and -f, as dstat prints them ----------------------------
nd=0
for o in "" "-c -d -n -g -y -m -r -s -p" "-f" "-C 0,total -D vda,total -N lo,total" "-C all" \
	"--top-cpu --top-io" "-a" "-v" "-p --top-io -c -f"; do
	a=$(timeout -k 5 60 dstat $o 1 1 2>/dev/null | sed '$d')
	b=$("$PTK" dstat $o 1 1 | sed '$d')
	# -f lists devices: one that appeared between the two runs (a test's loop device) is
	# not a difference; the pair is run again once
	[ "$a" = "$b" ] || { a=$(timeout -k 5 60 dstat $o 1 1 2>/dev/null | sed '$d'); b=$("$PTK" dstat $o 1 1 | sed '$d'); }
	[ "$a" = "$b" ] || { nd=$((nd + 1)); note "dstat $o: headers differ"; diff <(echo "$a") <(echo "$b") | sed 's/^/#   /' | head -6; }
done
check "headers identical to dstat's for 9 option sets (every plugin, -C -D -N lists, -f)" test "$nd" -eq 0

# ---- the since-boot line on a /proc copy, byte for byte --------------------------------
# Both read the same files (dstat through bind mounts in a private mount namespace). loadavg's
# nr_running is set to stat's procs_running: ptk's run is runq-sz (/proc/loadavg, less the
# reader), dstat's procs_running less one, the same kernel count read from two files.
if is_root && unshare -m true 2>/dev/null; then
	fx="$TMP/fx"
	mkdir -p "$fx/net"
	for f in stat meminfo vmstat diskstats uptime swaps; do cp /proc/$f "$fx/"; done
	cp /proc/net/dev "$fx/net/dev"
	pr=$(awk '$1 == "procs_running" { print $2 }' "$fx/stat")
	awk -v r="$pr" '{ split($4, a, "/"); print $1, $2, $3, r "/" a[2], $5 }' /proc/loadavg >"$fx/loadavg"
	dv() { unshare -m sh -c "for f in stat meminfo vmstat diskstats uptime swaps loadavg; do mount --bind $fx/\$f /proc/\$f; done; mount --bind $fx/net/dev /proc/net/dev; timeout -k 5 60 dstat $* 1 1" 2>/dev/null | tail -1; }
	nd=0
	for o in "-c -d -g -y -m -r -s -p" "-c -C 0,1,total -y" "-f -d -r" "-d -D vda,total -r"; do
		a=$(dv "$o")
		b=$("$PTK" dstat $o --procfs "$fx" 1 1 | tail -1)
		note "fixture dstat $o: $a"
		[ "$a" = "$b" ] || { nd=$((nd + 1)); note "fixture ptk   $o: $b"; }
	done
	check "fixture since-boot line byte-identical to dstat's (4 option sets)" test "$nd" -eq 0
	# net: dstat's first line is 0 (its net plugin skips the since-boot rates); ptk's is the
	# counters over the uptime, printed as dstat prints a rate
	a=$(dv "-n -N eth0,lo,total")
	b=$("$PTK" dstat -n -N eth0,lo,total --procfs "$fx" 1 1 | tail -1)
	e=$(python3 - "$fx" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1] + "/..")
exec(open(sys.argv[1] + "/../dsref.py").read())
d = sys.argv[1]
up = float(open(d + "/uptime").read().split()[0])
nd = {}
for l in open(d + "/net/dev").read().splitlines()[2:]:
    n, v = l.split(":", 1); v = v.split(); nd[n.strip()] = (int(v[0]), int(v[8]))
import re
tf = re.compile(r"^(lo|bond\d+|face|.+\.\d+)$")
tot = [sum(x[i] for n, x in nd.items() if not tf.match(n)) for i in (0, 1)]
cells = []
for n in ("eth0", "lo"):
    x = nd.get(n, (0, 0))
    cells.append(cp(x[0] / up, "b", 5, 1024) + " " + cp(x[1] / up, "b", 5, 1024))
cells.append(cp(tot[0] / up, "b", 5, 1024) + " " + cp(tot[1] / up, "b", 5, 1024))
print(":".join(cells))
EOF
)
	note "fixture net: dstat '$a', ptk '$b', counters / uptime '$e'"
	check "fixture net since boot: the counters over the uptime in dstat's format (dstat prints 0)" test "$b" = "$e"
else
	skip "fixture comparison needs root and unshare -m"
fi

# ---- a replayed capture against dstat's formulas and cprint ---------------------------
"$PTK" capture "$TMP/cap" 1 3 >/dev/null 2>&1
"$PTK" dstat -c -d -n -g -y -m -r -s -p --top-cpu --top-io --procfs "$TMP/cap" >"$TMP/rp"
python3 - "$TMP/cap" "$TMP/rp" "$(getconf PAGESIZE)" "$(getconf CLK_TCK)" "$(nproc)" <<'EOF'
import os, re, sys
exec(open(os.path.dirname(sys.argv[1]) + "/dsref.py").read())
cap, out, page, hz, ncpu = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def rd(i, f): return open("%s/%d/%s" % (cap, i, f)).read()
def snap(i):
    s = {"up": float(rd(i, "uptime").split()[0])}
    for l in rd(i, "stat").splitlines():
        f = l.split()
        if f[0] == "cpu": s["cpu"] = [int(x) for x in f[1:9]]
        elif f[0] in ("intr", "ctxt", "processes", "procs_blocked"): s[f[0]] = int(f[1])
    s["vm"] = {l.split()[0]: int(l.split()[1]) for l in rd(i, "vmstat").splitlines()}
    s["mi"] = {l.split(":")[0]: int(l.split()[1]) for l in rd(i, "meminfo").splitlines()}
    s["nr_running"] = int(rd(i, "loadavg").split()[3].split("/")[0])
    dk = re.compile(r"^([hsv]d[a-z]+\d+|cciss/c\d+d\d+p\d+|dm-\d+|md\d+|mmcblk\d+p\d0|VxVM\d+)$")
    s["dsk"] = [0, 0, 0, 0]
    for l in rd(i, "diskstats").splitlines():
        f = l.split()
        if dk.match(f[2]) or os.path.exists("/sys/class/block/%s/partition" % f[2]): continue
        for k, c in enumerate((5, 9, 3, 7)): s["dsk"][k] += int(f[c])
    nf = re.compile(r"^(lo|bond\d+|face|.+\.\d+)$")
    s["net"] = [0, 0]
    for l in rd(i, "net/dev").splitlines()[2:]:
        n, v = l.split(":", 1); v = v.split()
        if not nf.match(n.strip()): s["net"][0] += int(v[0]); s["net"][1] += int(v[8])
    s["ps"] = {}
    for p in os.listdir("%s/%d" % (cap, i)):
        if not p.isdigit(): continue
        try: st = rd(i, p + "/stat")
        except OSError: continue
        c = st[st.index("(") + 1:st.rindex(")")]; f = st[st.rindex(")") + 2:].split()
        io = {}
        try: io = {l.split(":")[0]: int(l.split()[1]) for l in rd(i, p + "/io").splitlines()}
        except OSError: pass
        s["ps"][int(p)] = (c, int(f[11]) + int(f[12]), f[19], io)
    return s
S = [snap(i) for i in range(3)]
Z = dict(S[0], up=0.0, cpu=[0] * 8, intr=0, ctxt=0, processes=0, vm={k: 0 for k in S[0]["vm"]},
         dsk=[0] * 4, net=[0, 0], ps={})
def line(a, b):
    e = b["up"] - a["up"]
    d = [y - x for x, y in zip(a["cpu"], b["cpu"])]
    t = sum(d) or 1
    cpu = [(d[0] + d[1] + d[5] + d[6]) * 100 / t, d[2] * 100 / t, d[3] * 100 / t, d[4] * 100 / t, d[7] * 100 / t]
    c = [" ".join(cp(x, "p", 3, 34) for x in cpu)]
    dd = [y - x for x, y in zip(a["dsk"], b["dsk"])]
    c.append(cp(dd[0] * 512 / e, "b", 5, 1024) + " " + cp(dd[1] * 512 / e, "b", 5, 1024))
    c.append(" ".join(cp((y - x) / e, "b", 5, 1024) for x, y in zip(a["net"], b["net"])))
    c.append(" ".join(cp((b["vm"][k] - a["vm"][k]) * page / e, "d", 5, 1024) for k in ("pswpin", "pswpout")))
    c.append(" ".join(cp((b[k] - a[k]) / e, "d", 5, 1000) for k in ("intr", "ctxt")))
    m = b["mi"]
    used = m["MemTotal"] - m["MemFree"] - m["Buffers"] - m["Cached"] - m["SReclaimable"] + m["Shmem"]
    c.append(" ".join(cp(x * 1024, "f", 5, 1024) for x in (used, m["MemFree"], m["Buffers"], m["Cached"])))
    c.append(cp(dd[2] / e, "f", 5, 1000) + " " + cp(dd[3] / e, "f", 5, 1000))
    c.append(cp((m["SwapTotal"] - m["SwapFree"]) * 1024, "d", 5, 1024) + " " + cp(m["SwapFree"] * 1024, "d", 5, 1024))
    c.append(" ".join((cp(max(b["nr_running"] - 1, 0), "f", 3, 10), cp(b["procs_blocked"], "f", 3, 10),
                       cp((b["processes"] - a["processes"]) / e, "f", 3, 10))))
    # the busiest process: CPU (% of all CPUs, the last of equals in pid order), read()+write()
    best, bio, tc, ti = 0, 0, "", ""
    for p in sorted(b["ps"]):
        cm, ticks, start, io = b["ps"][p]
        o = a["ps"].get(p)
        if o and o[2] != start: o = None
        if a is not Z and o is None and float(start) / hz < a["up"]: continue
        u = (ticks - (o[1] if o else 0)) / hz / e * 100 / ncpu
        if u > 0 and u >= best: best, tc = u, "%-13s" % cm[:13] + cp(u, "f", 3, 34)
        if io and (not o or o[3]):
            r = (io["rchar"] - (o[3]["rchar"] if o else 0)) / e; w = (io["wchar"] - (o[3]["wchar"] if o else 0)) / e
            if r + w > bio: bio, ti = r + w, "%-11s%s %s" % (cm[:11], cp(r, "d", 5, 1024), cp(w, "d", 5, 1024))
    c.append("%-16s" % tc); c.append("%-22s" % ti)
    return "|".join(c)
got = open(out).read().splitlines()[2:]
exp = [line(Z, S[0]), line(S[0], S[1]), line(S[1], S[2])]
bad = 0
for i, (g, x) in enumerate(zip(got, exp)):
    print("# replay %d ptk : %s" % (i, g)); print("# replay %d calc: %s" % (i, x))
    # the top cells can tie at the top on a busy machine: compare the values, not the names
    gs, xs = g.split("|"), x.split("|")
    if gs[:-2] != xs[:-2] or len(got) != 3: bad = 1
    for k in (-2, -1):
        if gs[k][13 if k == -2 else 11:] != xs[k][13 if k == -2 else 11:]: bad = 1
sys.exit(bad)
EOF
check "replayed capture: 3 lines = dstat's formulas over the snapshot files, printed by dstat's cprint" test $? -eq 0

# ---- live, side by side under a known load -----------------------------------------------
if have stress-ng && is_root; then
	timeout -k 5 60 stress-ng --cpu 2 --timeout 9 >/dev/null 2>&1 &
	sp=$!
	sleep 0.5
	o="-c -y -p -d -D vda -n -N lo"
	timeout -k 5 60 dstat $o 1 7 >"$TMP/dl" 2>/dev/null &
	dp=$!
	"$PTK" dstat $o 1 7 >"$TMP/pl" &
	pp=$!
	sleep 2.2
	# 64 MiB written to vda past the page cache, 64 MB through the loopback interface
	dd if=/dev/zero of="$TMP/dd" bs=1M count=64 oflag=direct conv=fsync 2>/dev/null
	python3 -c '
import socket, threading
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
def rx():
    c, _ = s.accept(); n = 0
    while n < 64000000:
        b = c.recv(1 << 20)
        if not b: break
        n += len(b)
t = threading.Thread(target=rx); t.start()
k = socket.create_connection(s.getsockname()); k.sendall(b"x" * 64000000); k.close(); t.join()'
	wait $dp $pp
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	sed 's/^/# dstat: /' "$TMP/dl"
	sed 's/^/# ptk  : /' "$TMP/pl"
	python3 - "$TMP/dl" "$TMP/pl" <<'EOF'
import sys
def num(s, base):
    s = s.strip()
    if s in ("", "-"): return None
    m = {"B": 1, "k": base, "M": base ** 2, "G": base ** 3}
    return float(s[:-1]) * m[s[-1]] if s[-1] in m else float(s)
def parse(f):
    rows = []
    for l in open(f).read().splitlines()[2:]:
        c = l.split("|")
        cpu = [float(x) for x in c[0].split()]
        sys_ = [num(c[1][i:i + 5], 1000) for i in (0, 6)]
        pr = c[2].split()
        dsk = [num(c[3][i:i + 5], 1024) for i in (0, 6)]
        net = [num(c[4][i:i + 5], 1024) for i in (0, 6)]
        rows.append((cpu, sys_, pr, dsk, net))
    return rows
D, P = parse(sys.argv[1]), parse(sys.argv[2])
bad = []
if len(D) != 7 or len(P) != 7: bad.append("lines %d %d" % (len(D), len(P)))
else:
    # since boot: the same averages a few ms apart
    for k in range(5):
        if abs(D[0][0][k] - P[0][0][k]) > 1: bad.append("since-boot cpu col %d" % k)
    for k in range(2):
        if abs(D[0][1][k] - P[0][1][k]) > 0.02 * D[0][1][k] + 2: bad.append("since-boot int/csw")
    mu = lambda R, k: sum(r[0][k] for r in R[1:]) / 6
    busy = lambda R: sum(r[0][0] + r[0][1] for r in R[1:]) / 6
    print("# cpu usr mean: dstat %.1f ptk %.1f; busy %.1f %.1f" % (mu(D, 0), mu(P, 0), busy(D), busy(P)))
    if busy(D) < 80 or busy(P) < 80 or abs(mu(D, 0) - mu(P, 0)) > 10: bad.append("cpu under stress")
    for name, i, j, need in (("vda writ", 3, 1, 64 * 2 ** 20), ("lo recv", 4, 0, 64e6), ("lo send", 4, 1, 64e6)):
        a = sum(r[i][j] for r in D[1:]); b = sum(r[i][j] for r in P[1:])
        print("# %s summed over 6 intervals: dstat %.1f MiB, ptk %.1f MiB" % (name, a / 2 ** 20, b / 2 ** 20))
        if a < 0.9 * need or b < 0.9 * need or abs(a - b) > 0.35 * max(a, b) + 16 * 2 ** 20: bad.append(name)
    for k, name in ((0, "int"), (1, "csw")):
        a = sum(r[1][k] for r in D[1:]); b = sum(r[1][k] for r in P[1:])
        print("# %s summed: dstat %.0f ptk %.0f" % (name, a, b))
        if not (0.6 * a <= b <= 1.6 * a + 100): bad.append(name)
print("# " + ", ".join(bad) if bad else "# all within tolerance")
sys.exit(1 if bad else 0)
EOF
	check "live under stress-ng, 64 MiB to vda and 64 MB over lo: cpu, int, csw, disk and net as dstat within tolerance" test $? -eq 0
else
	skip "live comparison needs root and stress-ng"
fi

# ---- --output CSV ----------------------------------------------------------------------
rm -f "$TMP/d.csv" "$TMP/p.csv"
timeout -k 5 60 dstat -c -d -m -C 0,total --top-cpu --output "$TMP/d.csv" 1 1 >/dev/null 2>&1 # dstat writes its header, then fails (types.ListType)
"$PTK" dstat -c -d -m -C 0,total --top-cpu --output "$TMP/p.csv" --json 1 3 >"$TMP/p.json"
check "CSV: the title and nickname lines as dstat writes them" test "$(sed -n 5,6p "$TMP/d.csv")" = "$(sed -n 5,6p "$TMP/p.csv")"
check "CSV: dstat's 4 preamble lines (Host, Cmdline ...)" test "$(sed -n 3p "$TMP/p.csv" | cut -d, -f1)" = '"Host:"' -a "$(sed -n 4p "$TMP/p.csv" | cut -d, -f1)" = '"Cmdline:"'
python3 - "$TMP/p.csv" "$TMP/p.json" <<'EOF'
import json, sys
rows = open(sys.argv[1]).read().splitlines()[6:]
js = [json.loads(l)["dstat"] for l in open(sys.argv[2])]
def fmt(v): return "%.3f" % v if v != round(v) else "%d" % round(v)
bad = len(rows) != 3
for r, j in zip(rows, js):
    c = j["cpu"]; want = []
    for e in ("0", "total"):
        want += [fmt(c[e][k]) for k in ("user_nice_irq_pct", "sys_pct", "idle_pct", "iowait_pct", "steal_pct")]
    d = j["disk"]["total"]; want += [fmt(d["bread_s"] * 512), fmt(d["bwrtn_s"] * 512)]
    m = j["mem"]["total"]; want += [fmt(m[k] * 1024) for k in ("mem_used_nocache", "kbmemfree", "kbbuffers", "kbcached")]
    t = j["top-cpu"]; want.append("%s / %d%%" % (t["comm"] or "", int(t["cpu_all_pct"])))
    if r != ",".join(want):
        print("# csv : " + r); print("# json: " + ",".join(want)); bad = True
print("# csv row: " + rows[-1])
sys.exit(bad)
EOF
check "CSV rows: the JSON values of the same samples, in dstat's number format" test $? -eq 0
"$PTK" dstat -c --output "$TMP/p.csv" 1 1 >/dev/null
check "CSV appended: a blank pair, then Host and Cmdline, then the new header" test \
	"$(sed -n 10,14p "$TMP/p.csv" | cut -d, -f1 | tr '\n' '|')" = '||"Host:"|"Cmdline:"|"total cpu usage"|'

# ---- errors ------------------------------------------------------------------------------
for bad in "-x" "-C 99" "-D nosuchdisk" "-N nosuchif" "0" "1 0" "abc"; do
	"$PTK" dstat $bad >"$TMP/o" 2>"$TMP/e"
	rc=$?
	check "dstat $bad: exit 2, one line ($(cat "$TMP/e"))" test $rc -eq 2 -a "$(wc -l <"$TMP/e")" -eq 1 -a ! -s "$TMP/o"
done
"$PTK" dstat --output /nonexistent/dir/x.csv 1 1 >"$TMP/o" 2>"$TMP/e"
rc=$?
check "--output into a missing directory: exit 1, the file named ($(cat "$TMP/e"))" test $rc -eq 1 -a -n "$(grep /nonexistent/dir/x.csv "$TMP/e")"
