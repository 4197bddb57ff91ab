#!/usr/bin/env bash
# offcputime --call-graph dwarf: user stacks of code built without frame pointers, copied at
# the switch-out (registers + stack bytes, ring buffer) and unwound with libdw's CFI. The
# issue's stack main -> g -> f -> nanosleep (tests/progs/nanoloop.c, -fomit-frame-pointer):
# the frame-pointer walk loses f and g ([unknown]), DWARF recovers them; a copy too short
# for the stack is counted and its root reads [unknown]; bad values are usage errors.
. "$(dirname "$0")/lib.sh"
REPO=$(cd "$(dirname "$0")/../.." && pwd)

if ! is_root; then skip "BPF needs root"; exit 0; fi
if [ "$(uname -m)" != x86_64 ]; then skip "--call-graph dwarf is x86_64 only"; exit 0; fi
cc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o "$TMP/nanoloop" "$REPO/tests/progs/nanoloop.c" ||
	{ skip "no C compiler"; exit 0; }
"$PTK" offcputime --call-graph dwarf,7 1 > /dev/null 2>&1
check "--call-graph dwarf,7 (not a multiple of 8): usage error" [ $? = 2 ]
"$PTK" offcputime --call-graph lbr 1 > /dev/null 2>&1
check "--call-graph lbr: usage error" [ $? = 2 ]
"$PTK" offcputime -o "$TMP/x.svg" 1 > /dev/null 2>&1
check "-o not a pprof file: usage error" [ $? = 2 ]

"$TMP/nanoloop" 60 &
NL=$!
sleep 0.3
"$PTK" offcputime -f -c nanoloop 1 > "$TMP/fp.folded" 2> "$TMP/fp.err"
"$PTK" offcputime --call-graph dwarf -f -c nanoloop -o "$TMP/dw.pb.gz" 1 > "$TMP/dw.folded" 2> "$TMP/dw.err"
"$PTK" offcputime --call-graph dwarf --json -c nanoloop 1 > "$TMP/dw.json" 2> /dev/null
"$PTK" offcputime --call-graph dwarf,64 -f -c nanoloop 1 > "$TMP/tr.folded" 2> "$TMP/tr.err"
kill $NL 2> /dev/null
wait $NL 2> /dev/null
sort -t' ' -k2 -n "$TMP/fp.folded" | tail -1 | cut -c1-170 | sed 's/^/# fp: /'
sort -t' ' -k2 -n "$TMP/dw.folded" | tail -1 | cut -c1-170 | sed 's/^/# dwarf: /'
grep -h '^dwarf:\|^observer' "$TMP/dw.err" | sed 's/^/# /'
check "dwarf: main;g;f;nanosleep recovered (user frames root first, then - and the kernel's)" \
	grep -qE '^nanoloop;(.*;)?main;g;f;(__nanosleep|clock_nanosleep)[^-]*;-;' "$TMP/dw.folded"
check "frame pointers: f and g are not found (the walk breaks at the libc leaf)" \
	bash -c "grep -q '^nanoloop;' '$TMP/fp.folded' && ! grep -q ';main;g;f;' '$TMP/fp.folded'"
fp=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/fp.folded")
dw=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/dw.folded")
note "off-CPU us in 1 s: fp $fp, dwarf $dw"
check "both see the thread off CPU most of the second (fp $fp, dwarf $dw us)" \
	awk -v a="$fp" -v b="$dw" 'BEGIN { exit !(a > 300000 && b > 300000) }'
python3 - "$TMP/dw.json" > "$TMP/dw.check" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
w = d.get("dwarf", {})
full = [s for s in d["stacks"] if s["user_stack"] and [f["func"] for f in s["user_stack"]][:5].count("g") and any(f["func"] == "main" for f in s["user_stack"])]
print("unwound %d copy %d full %d modules %s" % (w.get("unwound", 0), w.get("copy_bytes", 0), len(full),
      sorted(set(f["module"].split("/")[-1] for s in full for f in s["user_stack"] if f["module"]))))
PY
note "json: $(cat "$TMP/dw.check")"
check "JSON: the dwarf counts and user frames with their modules" grep -qE 'unwound [1-9][0-9]* copy 8192 full [1-9]' "$TMP/dw.check"
grep -h '^dwarf:' "$TMP/tr.err" | sed 's/^/# 64 bytes: /'
tr=$(sed -n 's/.* \([0-9]*\) deeper than the 64 bytes.*/\1/p' "$TMP/tr.err")
check "a 64-byte copy: stacks deeper than it counted (${tr:-none}), their root [unknown]" \
	bash -c "[ '${tr:-0}' -gt 0 ] && grep -q '^nanoloop;\\[unknown\\];' '$TMP/tr.folded'"

# the same run's pprof (-o): Go's pprof reads the off-CPU time and the recovered stack
BDIR=${BUILD:-build}
case "$BDIR" in /*) ;; *) BDIR=$REPO/$BDIR ;; esac
GP=$BDIR/go-pprof/pprof
if [ ! -x "$GP" ]; then
	skip "Go's pprof not built here (54-pprof builds it)"
else
	tot=$("$GP" -top -nodecount=1 -sample_index=off_cpu -unit=ns "$TMP/dw.pb.gz" 2> /dev/null | sed -n 's/.* of \([0-9]*\)ns total.*/\1/p')
	check "pprof's off_cpu total is the folded microseconds x 1000 (${tot:-?} ns, $dw us)" [ "${tot:-0}" = "$((dw * 1000))" ]
	"$GP" -traces -sample_index=off_cpu "$TMP/dw.pb.gz" 2> /dev/null > "$TMP/dw.traces"
	check "pprof -traces: f, g, main above the nanosleep leaf" bash -c "grep -A12 'nanosleep' '$TMP/dw.traces' | tr -s ' ' | grep -q '^ f\$' && grep -q '^ *main\$' '$TMP/dw.traces'"
	bid=$(readelf -n "$TMP/nanoloop" 2> /dev/null | awk '/Build ID/ { print $3 }')
	check "the nanoloop mapping carries its build ID ($bid)" bash -c "'$GP' -raw '$TMP/dw.pb.gz' 2>/dev/null | grep -q 'nanoloop $bid'"
fi
