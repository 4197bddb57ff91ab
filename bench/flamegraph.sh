#!/usr/bin/env bash
# ptk flamegraph against FlameGraph's Perl pipeline (stackcollapse-perf.pl | flamegraph.pl)
# on a real perf script of at least 1 million lines:
#  - record: perf record -F 2999 -a -g while tests/progs/flamedeep (deep, varied stacks with
#    kernel frames) runs on both CPUs, longer until perf script prints >= MINLINES lines
#  - the folded stacks of both must be byte-equal (and are checked)
#  - wall time, best of 3: collapse, SVG, and the two together (perf script text -> SVG),
#    side by side with perf script and perf report --stdio on the same perf.data
# usage: bench/flamegraph.sh [MINLINES]   (default 1000000; PTK=ptk binary; root;
#        PTK_PEERS=dir holding flamegraph/, else ../shared/peers, else /work/shared/peers)
set -u
cd "$(dirname "$0")/.."
PTK=${PTK:-$PWD/build/ptk}
MINLINES=${1:-1000000}
[ -x "$PTK" ] || { echo "build first: make" >&2; exit 1; }
command -v perf > /dev/null || { echo "perf not installed (apt-get install linux-perf)" >&2; exit 1; }
PEERS=""
for d in "${PTK_PEERS:-}" "$PWD/../shared/peers" /work/shared/peers; do
	[ -n "$d" ] && [ -f "$d/flamegraph/stackcollapse-perf.pl" ] && PEERS=$d && break
done
[ -n "$PEERS" ] || { echo "FlameGraph's scripts not found (PTK_PEERS)" >&2; exit 1; }
SC="perl $PEERS/flamegraph/stackcollapse-perf.pl" FG="perl $PEERS/flamegraph/flamegraph.pl"
W=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; wait 2> /dev/null; rm -rf "$W"' EXIT

best() { # best-of-3 wall seconds of a shell command
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
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

cc -O1 -g -fno-omit-frame-pointer -o "$W/flamedeep" tests/progs/flamedeep.c || exit 1
secs=8
for _ in 1 2 3; do
	echo "== recording: perf record -F 2999 -a -g, flamedeep on both CPUs for ${secs}s"
	"$W/flamedeep" "$secs" > /dev/null &
	perf record -q -F 2999 -a -g -o "$W/perf.data" -- "$W/flamedeep" "$secs" > /dev/null 2>&1 ||
		{ echo "perf record failed (perf_event_paranoid? root?)" >&2; exit 1; }
	wait
	perf script -i "$W/perf.data" > "$W/perf.script" 2> /dev/null
	lines=$(wc -l < "$W/perf.script")
	[ "$lines" -ge "$MINLINES" ] && break
	secs=$((secs * 2 * MINLINES / (lines + 1) + 1))
done
printf '  perf.data %s, perf script %s lines (%s)\n' "$(du -h "$W/perf.data" | cut -f1)" \
	"$lines" "$(du -h "$W/perf.script" | cut -f1)"
[ "$lines" -ge "$MINLINES" ] || echo "  (fewer than $MINLINES lines)"

$SC "$W/perf.script" > "$W/pl.folded" 2> /dev/null
"$PTK" flamegraph --folded "$W/perf.script" > "$W/ptk.folded" 2> /dev/null
printf '  folded: %s stacks; ptk = stackcollapse-perf.pl: %s\n' "$(wc -l < "$W/ptk.folded")" \
	"$(cmp -s "$W/pl.folded" "$W/ptk.folded" && echo "yes, byte-equal" || echo "NO, they differ")"
if ! cmp -s "$W/pl.folded" "$W/ptk.folded"; then
	# the documented difference: ptk keeps "(anonymous namespace)::f" frames, Perl skips them
	echo "    $(diff "$W/pl.folded" "$W/ptk.folded" | grep -c '^>') stacks differ; $(diff "$W/pl.folded" "$W/ptk.folded" | grep '^>' | grep -vc '(anonymous namespace)') of them without an (anonymous namespace) frame (which ptk keeps and Perl skips: ptk-flamegraph(1))"
	diff "$W/pl.folded" "$W/ptk.folded" | grep '^[<>]' | grep -v '(anonymous namespace)' | head -4 | cut -c1-200 | sed 's/^/    /'
	[ -n "${KEEP:-}" ] && cp "$W/perf.script" "$KEEP/" && echo "    (perf script kept in $KEEP)"
fi

echo
echo "== wall time, best of 3"
t_sc=$(best "$SC $W/perf.script > $W/x.folded")
t_fg=$(best "$FG $W/pl.folded > $W/x.svg")
t_pl=$(best "$SC $W/perf.script | $FG > $W/x.svg")
t_fold=$(best "$PTK flamegraph --folded $W/perf.script > $W/x.folded")
t_svg=$(best "$PTK flamegraph $W/ptk.folded -o $W/x.svg")
t_all=$(best "$PTK flamegraph $W/perf.script -o $W/x.svg")
t_script=$(best "perf script -i $W/perf.data > $W/x.txt")
t_report=$(best "perf report -i $W/perf.data --stdio > $W/x.txt")
printf '  %-56s %8ss\n' \
	"stackcollapse-perf.pl (perf script text -> folded)" "$t_sc" \
	"flamegraph.pl (folded -> SVG)" "$t_fg" \
	"stackcollapse-perf.pl | flamegraph.pl (text -> SVG)" "$t_pl" \
	"ptk flamegraph --folded (text -> folded)" "$t_fold" \
	"ptk flamegraph (folded -> SVG)" "$t_svg" \
	"ptk flamegraph (text -> SVG, collapse + SVG)" "$t_all" \
	"perf script (perf.data -> text)" "$t_script" \
	"perf report --stdio (perf.data -> call-graph report)" "$t_report"
echo "  ratios (ptk / Perl; the goal is <= 0.10 for text -> SVG):"
echo "    collapse:        $(ratio "$t_fold" "$t_sc")"
echo "    SVG:             $(ratio "$t_svg" "$t_fg")"
echo "    text -> SVG:     $(ratio "$t_all" "$t_pl")"
echo "    ptk text -> SVG / perf script: $(ratio "$t_all" "$t_script")"
