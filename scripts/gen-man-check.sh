#!/bin/sh
# Regenerate the THRESHOLDS section of docs/man/ptk-check.1 from the rules table
# (src/model/rules.c), between its "rules: begin" and "rules: end" comment lines.
# Usage: scripts/gen-man-check.sh [PTK] (default build/ptk). tests/unit/test_rules.c checks
# that the committed page equals what the table generates.
set -eu
cd "$(dirname "$0")/.."
ptk=${1:-build/ptk}
page=docs/man/ptk-check.1
gen=$(mktemp)
trap 'rm -f "$gen" "$gen.page"' EXIT
"$ptk" check --rules-man >"$gen"
awk -v gen="$gen" '
	/^\.\\" rules: begin/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
	/^\.\\" rules: end/ { skip = 0 }
	!skip { print }
' "$page" >"$gen.page"
mv "$gen.page" "$page"
