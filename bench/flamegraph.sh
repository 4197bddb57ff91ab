#!/usr/bin/env bash
# ptk flamegraph on a large profile, side by side with perf's own reporting of the same data:
#  - record: perf record -F 4999 -a -g sleep 10 while stress-ng loads both CPUs (>= 50k samples)
#  - perf script (text export, the input of every flame graph pipeline) and
#    perf report --stdio (perf's own call-graph report) on the same perf.data
#  - ptk flamegraph: perf script text -> SVG, perf script text -> folded, folded -> SVG
#  - stackcollapse-perf.pl | flamegraph.pl too, when they are installed (not a Debian 12
#    package; FLAMEGRAPH_DIR=path/to/FlameGraph to point at a checkout)
# Wall time, best of 3; the sample totals are checked against perf report's.
# usage: bench/flamegraph.sh [seconds]     (PTK=path to ptk, default build/ptk; root)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
SECS=${1:-10}
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
command -v perf > /dev/null || { echo "perf not installed (apt-get install linux-perf)" >&2; exit 1; }
W=$(mktemp -d)
LOADPID=
cleanup() { [ -n "$LOADPID" ] && kill "$LOADPID" 2> /dev/null; wait 2> /dev/null; rm -rf "$W"; }
trap cleanup EXIT

# best-of-3 wall seconds of a shell command
best() {
	local b="" t0 t1 d
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		bash -c "$1" > /dev/null 2>&1
		t1=$(date +%s.%N)
		d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		if [ -z "$b" ] || awk -v d="$d" -v b="$b" 'BEGIN { exit !(d < b) }'; then b=$d; fi
	done
	echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3fx", a / b; else print "-" }'; }

echo "== recording: perf record -F 4999 -a -g sleep $SECS, stress-ng --cpu 2 as load"
if command -v stress-ng > /dev/null; then
	stress-ng --cpu 2 --timeout $((SECS + 2)) > /dev/null 2>&1 &
	LOADPID=$!
fi
perf record -q -F 4999 -a -g -o "$W/perf.data" -- sleep "$SECS" > /dev/null 2>&1 ||
	{ echo "perf record failed (perf_event_paranoid? root?)" >&2; exit 1; }
[ -n "$LOADPID" ] && kill "$LOADPID" 2> /dev/null
wait 2> /dev/null
LOADPID=
perf script -i "$W/perf.data" > "$W/perf.script" 2> /dev/null
"$PTK" flamegraph --folded "$W/perf.script" > "$W/perf.folded" 2> /dev/null
nrep=$(perf report -i "$W/perf.data" --stdio -n --sort comm -g none 2> /dev/null |
	awk '!/^#/ && NF >= 4 { s += $3 } END { print s + 0 }')
nptk=$(awk '{ s += $NF } END { print s + 0 }' "$W/perf.folded")
printf '  perf.data %s, perf script text %s, %s folded stacks\n' \
	"$(du -h "$W/perf.data" | cut -f1)" "$(du -h "$W/perf.script" | cut -f1)" \
	"$(wc -l < "$W/perf.folded")"
printf '  samples: perf report %s, ptk flamegraph %s (%s)\n' "$nrep" "$nptk" \
	"$([ "$nrep" = "$nptk" ] && echo equal || echo DIFFERENT)"
[ "$nrep" -ge 50000 ] || echo "  (fewer than 50k samples: raise the duration)"

echo
echo "== wall time, best of 3"
t_script=$(best "perf script -i $W/perf.data > $W/x.txt")
t_report=$(best "perf report -i $W/perf.data --stdio > $W/x.txt")
t_p2svg=$(best "$PTK flamegraph $W/perf.script -o $W/a.svg")
t_p2fold=$(best "$PTK flamegraph --folded $W/perf.script > $W/x.folded")
t_f2svg=$(best "$PTK flamegraph $W/perf.folded -o $W/b.svg")
t_pipe=$(best "perf script -i $W/perf.data | $PTK flamegraph -o $W/c.svg")
printf '  %-52s %8ss\n' "perf script (perf.data -> text)" "$t_script" \
	"perf report --stdio (perf.data -> call-graph report)" "$t_report" \
	"ptk flamegraph: perf script text -> SVG" "$t_p2svg" \
	"ptk flamegraph --folded: perf script text -> folded" "$t_p2fold" \
	"ptk flamegraph: folded -> SVG" "$t_f2svg" \
	"perf script | ptk flamegraph (whole pipeline)" "$t_pipe"
echo "  ratios:"
echo "    ptk text->SVG / perf script:        $(ratio "$t_p2svg" "$t_script")"
echo "    ptk text->SVG / perf report --stdio: $(ratio "$t_p2svg" "$t_report")"
echo "    ptk folded->SVG / perf report --stdio: $(ratio "$t_f2svg" "$t_report")"
echo "    (perf script | ptk) / perf report --stdio: $(ratio "$t_pipe" "$t_report")"
printf '  SVG: %s, %s frames drawn\n' "$(du -h "$W/a.svg" | cut -f1)" "$(grep -c '^<g><title>' "$W/a.svg")"

SC="" FG=""
for d in "${FLAMEGRAPH_DIR:-}" /usr/share/flamegraph /usr/local/share/FlameGraph /opt/FlameGraph; do
	[ -n "$d" ] && [ -x "$d/stackcollapse-perf.pl" ] && SC=$d/stackcollapse-perf.pl && FG=$d/flamegraph.pl && break
done
[ -z "$SC" ] && SC=$(command -v stackcollapse-perf.pl || true) && FG=$(command -v flamegraph.pl || true)
echo
if [ -n "$SC" ] && [ -n "$FG" ]; then
	t_sc=$(best "$SC $W/perf.script > $W/pl.folded")
	t_fg=$(best "$FG $W/pl.folded > $W/pl.svg")
	printf '  %-52s %8ss  (ptk %s)\n' "stackcollapse-perf.pl" "$t_sc" "$(ratio "$t_p2fold" "$t_sc")" \
		"flamegraph.pl" "$t_fg" "$(ratio "$t_f2svg" "$t_fg")"
	npl=$(awk '{ s += $NF } END { print s + 0 }' "$W/pl.folded")
	echo "  samples: stackcollapse-perf.pl $npl (it keeps the first event only), ptk $nptk"
else
	echo "  stackcollapse-perf.pl / flamegraph.pl: not installed here (no Debian 12 package"
	echo "  'flamegraph'); set FLAMEGRAPH_DIR to a FlameGraph checkout to compare"
fi
