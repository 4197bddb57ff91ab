#!/usr/bin/env bash
# sysstat's own test cases (the peers' sysstat/: its fake machines, expected outputs and
# cases.json) replayed through ptk by tests/peers/sysstat.py, its TAP passed through. A case
# that differs is "not ok" unless tests/peers/sysstat-known.txt gives the reason.
# SYSSTAT_TOOLS: the tools whose cases run (space-separated; all four by default).
. "$(dirname "$0")/lib.sh"
SYSSTAT_TOOLS=${SYSSTAT_TOOLS:-"pidstat iostat mpstat sar"}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${PTK_PEERS:-}" ]; then
	PEERS=$PTK_PEERS
elif [ -d "$REPO/../shared/peers/sysstat" ]; then
	PEERS=$REPO/../shared/peers
else
	PEERS=/work/shared/peers
fi
[ -x "$PTK" ] || { not_ok "no ptk binary at $PTK"; exit 1; }
if [ ! -f "$PEERS/sysstat/cases.json" ]; then
	skip "sysstat's test cases not found (no $PEERS/sysstat/cases.json; set PTK_PEERS)"
	exit 0
fi
have python3 || { skip "python3 not installed (it replays sysstat's cases)"; exit 0; }
ptk=$(realpath "$PTK")
for tool in $SYSSTAT_TOOLS; do
	python3 "$REPO/tests/peers/sysstat.py" "$ptk" "$PEERS" "$tool" >"$TMP/$tool.tap" 2>&1
	rc=$?
	grep -q '^# sysstat tally' "$TMP/$tool.tap" || {
		cat "$TMP/$tool.tap"
		not_ok "sysstat.py $tool ended without its tally (exit $rc)"
		continue
	}
	# one numbering for all the tools' cases; the tallies stay as comments
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) not_ok "${line#not ok * - }" ;;
		"1.."*) ;;
		*) echo "$line" ;;
		esac
	done <"$TMP/$tool.tap"
done
