#!/usr/bin/env bash
# pprof output (-o FILE.pb.gz) read back by Go's pprof, built here from Debian's
# golang-github-google-pprof-dev with golang-go (GOPATH = Debian's gocode tree, modules off;
# the binary is cached under $BUILD/go-pprof): every sample's stack and value (pprof
# -traces) must rebuild ptk's folded stacks exactly, the totals and top functions must be
# ptk's, mappings carry the binaries' build IDs, labels pid/tid/comm/cgroup.
. "$(dirname "$0")/lib.sh"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BDIR=${BUILD:-build}
case "$BDIR" in /*) ;; *) BDIR=$REPO/$BDIR ;; esac
GP=$BDIR/go-pprof/pprof
GOSRC=/usr/share/gocode/src/github.com/google/pprof

if [ ! -x "$GP" ]; then
	if ! have go || [ ! -d "$GOSRC" ]; then
		skip "Go's pprof cannot be built: needs golang-go and golang-github-google-pprof-dev (scripts/deps.sh test)"
		exit 0
	fi
	mkdir -p "$BDIR/go-pprof"
	if ! GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOCACHE="$BDIR/go-pprof/cache" \
		go build -o "$GP" github.com/google/pprof > "$TMP/gobuild.log" 2>&1; then
		not_ok "go build github.com/google/pprof failed: $(tail -1 "$TMP/gobuild.log")"
		exit 0
	fi
fi
note "reader: $GP (built from $GOSRC)"

# pprof -traces -> folded "frame;...;leaf N" (root first), labels named by -label KEYS
# prepended as frames, summed by stack
cat > "$TMP/traces.py" <<'PY'
import re, sys
labels = sys.argv[1].split(",") if len(sys.argv) > 1 and sys.argv[1] else []
out, blk = {}, []
def flush():
    if not blk:
        return
    lab, frames, val = {}, [], None
    for l in blk:
        m = re.match(r"^\s+(\S+):\s\s(.*)$", l)
        if val is None and m and not re.match(r"^\s*\d+\s", l):
            lab[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^\s*(\d+)\s{3}(.*)$", l) if val is None else None
        if m:
            val = int(m.group(1)); frames.append(m.group(2)); continue
        frames.append(l.strip())
    if val is None:
        return
    key = ";".join([lab.get(k, "") for k in labels] + frames[::-1])
    out[key] = out.get(key, 0) + val
started = False
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("-----------+"):
        flush(); blk = []; started = True; continue
    if started and line.strip():
        blk.append(line)
flush()
for k in sorted(out):
    print("%s %d" % (k, out[k]))
PY
fold_of() { "$GP" -traces "${@:3}" "$1" 2> /dev/null | python3 "$TMP/traces.py" "$2" | LC_ALL=C sort; }
total_of() { "$GP" -top -nodecount=1 "${@:2}" "$1" 2> /dev/null | sed -n 's/.* of \([0-9]*\) total.*/\1/p'; }

# 1. folded input -> pprof: the same stacks and counts
LC_ALL=C sort "$FIX/flame_real/expected.folded" > "$TMP/in.folded"
"$PTK" flamegraph "$TMP/in.folded" -o "$TMP/f.pb.gz"
check "gzip stream (magic 1f 8b)" [ "$(head -c2 "$TMP/f.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ]
fold_of "$TMP/f.pb.gz" "" > "$TMP/f.back"
if cmp -s "$TMP/in.folded" "$TMP/f.back"; then
	ok "folded -> pprof -> pprof -traces: the same $(wc -l < "$TMP/in.folded") stacks and counts"
else
	not_ok "folded -> pprof differs"; diff "$TMP/in.folded" "$TMP/f.back" | head -5 | sed 's/^/# /'
fi
want=$(awk '{ s += $NF } END { printf "%d", s }' "$TMP/in.folded")
got=$(total_of "$TMP/f.pb.gz")
check "pprof's total is the folded sum ($want, pprof $got)" [ "$got" = "$want" ]

# 2. perf script text -> pprof: pprof rebuilds ptk's collapse
if have perf && cc -O1 -g -fno-omit-frame-pointer -o "$TMP/deep" "$REPO/tests/progs/flamedeep.c" &&
	timeout -k 5 120 perf record -q -F 499 -g -o "$TMP/perf.data" -- "$TMP/deep" 1 > /dev/null 2>&1 &&
	timeout -k 5 120 perf script -i "$TMP/perf.data" > "$TMP/perf.script" 2> /dev/null; then
	"$PTK" flamegraph --folded "$TMP/perf.script" > "$TMP/p.folded" 2> /dev/null
	"$PTK" flamegraph "$TMP/perf.script" -o "$TMP/p.pb.gz" 2> /dev/null
	fold_of "$TMP/p.pb.gz" "" > "$TMP/p.back"
	if cmp -s "$TMP/p.folded" "$TMP/p.back"; then
		ok "perf script -> pprof: pprof -traces rebuilds ptk's $(wc -l < "$TMP/p.folded") folded stacks"
	else
		not_ok "perf script -> pprof differs"; diff "$TMP/p.folded" "$TMP/p.back" | head -5 | sed 's/^/# /'
	fi
else
	skip "perf record of a C program failed: no perf script case"
fi

# 3. ptk profile -o: the same run's JSON (top functions, stacks) against pprof's reading
if ! cc -O1 -g -fno-omit-frame-pointer -o "$TMP/burn" "$REPO/tests/progs/burn.c"; then
	skip "no C compiler: no ptk profile case"
elif ! "$PTK" profile -F 499 -g --json -o "$TMP/b.pb.gz" -- "$TMP/burn" 1 > "$TMP/b.json" 2> "$TMP/b.err"; then
	skip "ptk profile failed: $(tail -1 "$TMP/b.err")"
else
	python3 - "$TMP/b.json" > "$TMP/b.want" <<'PY'
import json, sys
# the command's own output shares stdout: the JSON object is the line starting with {
d = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1])
print("samples %d" % sum(s["count"] for s in d["stacks"]))
for t in d["top"]:
    if t["self_samples"]:
        print("top %s %d" % (t["function"], t["self_samples"]))
PY
	tot=$(total_of "$TMP/b.pb.gz" -sample_index=samples)
	"$GP" -top -nodecount=100000 -nodefraction=0 -sample_index=samples "$TMP/b.pb.gz" 2> /dev/null |
		awk 'f && NF >= 6 && $1 > 0 { name = $6; for (i = 7; i <= NF; i++) name = name " " $i; print "top " name " " $1 } /flat%/ { f = 1 }' > "$TMP/b.top"
	note "ptk: $(head -6 "$TMP/b.want" | tr '\n' ' ')"
	note "pprof: total $tot; $(head -5 "$TMP/b.top" | tr '\n' ' ')"
	check "pprof's sample total is ptk profile's ($(sed -n 's/^samples //p' "$TMP/b.want"))" [ "samples $tot" = "$(head -1 "$TMP/b.want")" ]
	# ties may order differently: compare every function with samples as a set of (name, self)
	check "pprof's functions with their flat samples are ptk profile's top functions with their self samples" \
		[ "$(sed 1d "$TMP/b.want" | sort)" = "$(sort "$TMP/b.top")" ]
	check "burn_a leads in both" [ "$(sed -n 2p "$TMP/b.want" | cut -d' ' -f2)" = burn_a -a "$(head -1 "$TMP/b.top" | cut -d' ' -f2)" = burn_a ]
	python3 - "$TMP/b.json" > "$TMP/b.folded" <<'PY'
import json, sys
d = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1])
for s in sorted(d["stacks"], key=lambda s: s["stack"]):
    print("%s %d" % (s["stack"], s["count"]))
PY
	fold_of "$TMP/b.pb.gz" comm -sample_index=samples > "$TMP/b.back"
	LC_ALL=C sort -o "$TMP/b.folded" "$TMP/b.folded"
	if cmp -s "$TMP/b.folded" "$TMP/b.back"; then
		ok "profile -> pprof -traces (comm label first) = the same run's folded stacks ($(wc -l < "$TMP/b.folded"))"
	else
		not_ok "profile -> pprof stacks differ"; diff "$TMP/b.folded" "$TMP/b.back" | head -6 | sed 's/^/# /'
	fi
	"$GP" -raw "$TMP/b.pb.gz" > "$TMP/b.raw" 2> /dev/null
	bid=$(readelf -n "$TMP/burn" 2> /dev/null | awk '/Build ID/ { print $3 }')
	note "burn's build ID: ${bid:-none}; mappings: $(sed -n '/^Mappings/,$p' "$TMP/b.raw" | sed 1d | cut -c1-150 | tr '\n' '|')"
	check "the burn mapping carries its build ID ($bid)" grep -q "$TMP/burn $bid" "$TMP/b.raw"
	kb=$(python3 -c "
import struct
d = open('/sys/kernel/notes', 'rb').read(); o = 0
while o + 12 <= len(d):
    n, s, t = struct.unpack('<III', d[o:o + 12]); nm = d[o + 12:o + 12 + n]; ds = o + 12 + ((n + 3) & ~3)
    if t == 3 and nm[:3] == b'GNU': print(d[ds:ds + s].hex()); break
    o = ds + ((s + 3) & ~3)" 2> /dev/null)
	if grep -q '\[kernel.kallsyms\]' "$TMP/b.raw"; then
		check "the kernel mapping carries the kernel's build ID (${kb:-none})" grep -q "\[kernel.kallsyms\] $kb" "$TMP/b.raw"
	else
		skip "no kernel frame sampled: kernel mapping not checked"
	fi
	bpid=$("$GP" -tags "$TMP/b.pb.gz" 2> /dev/null | awk '/^ pid:/ { f = 1; next } f && /%/ { print $NF; exit }')
	check "labels: comm burn, pid $bpid, tid and cgroup present" \
		bash -c "'$GP' -tags '$TMP/b.pb.gz' 2>/dev/null | grep -q '%): burn\$' && '$GP' -tags '$TMP/b.pb.gz' 2>/dev/null | grep -q '^ tid:' && '$GP' -tags '$TMP/b.pb.gz' 2>/dev/null | grep -q '^ cgroup:' && [ -n '$bpid' ]"
fi

# 4. bad use
"$PTK" flamegraph --folded "$TMP/in.folded" -o "$TMP/x.pb.gz" > /dev/null 2>&1
check "--folded with a pprof -o: usage error (exit 2)" [ $? = 2 ]
"$PTK" flamegraph "$TMP/in.folded" -o "$TMP/nodir/x.pb.gz" > /dev/null 2>&1
check "pprof -o into a missing directory: exit 1" [ $? = 1 ]

# 5. agg -o: a kstack key's rows as pprof (frames as locations, the comm a label)
if ! is_root; then
	skip "agg needs root"
else
	"$PTK" agg sched:sched_switch --by kstack,comm -o "$TMP/agg.pb.gz" --json 1 1 > "$TMP/agg.json" 2> /dev/null
	want=$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(sum(r['count'] for r in d['rows']))" "$TMP/agg.json" 2> /dev/null)
	top=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); c = {}
for r in d['rows']: c[r['comm']] = c.get(r['comm'], 0) + r['count']
k = max(c, key=c.get); print(k, c[k])" "$TMP/agg.json" 2> /dev/null)
	got=$(total_of "$TMP/agg.pb.gz")
	gtop=$("$GP" -tags "$TMP/agg.pb.gz" 2> /dev/null | awk '/^ comm:/ { f = 1; next } f && /%/ { v = $1; sub(/\.0$/, "", v); print $NF, v; exit }')
	note "agg: rows $want events, top comm '$top'; pprof total $got, top comm '$gtop'"
	check_all "agg -o: pprof's total is the rows' event count ($want)" '[ -n "$want" ] && [ "$got" = "$want" ]'
	# (comms of equal counts may be listed in another order: the largest count is compared)
	check_all "agg -o: the comm key is a label, its largest value the rows' ($top)" '[ -n "$top" ] && [ "${gtop##* }" = "${top##* }" ]'
	"$PTK" agg sched:sched_switch --by comm -o "$TMP/agg2.pb.gz" 1 1 > /dev/null 2>&1
	check "agg -o without a kstack key: usage error" [ $? = 2 ]
fi
