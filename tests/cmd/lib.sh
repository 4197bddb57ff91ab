# Shared helpers for command tests (TAP output). Source it: . "$(dirname "$0")/lib.sh"
# ok/not ok lines are counted by tests/run.sh; a skip always states its reason.
set -u
: "${PTK:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/ptk}"
FIX=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures" && pwd)
T_N=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
not_ok() { T_N=$((T_N + 1)); echo "not ok $T_N - $*"; }
skip() { T_N=$((T_N + 1)); echo "ok $T_N - # SKIP $*"; }
note() { echo "# $*"; }

# check DESC CMD...: ok when the command succeeds
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }

# near A B TOL: |A-B| <= TOL (floats)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
# near_rel A B FRAC [ABS]: |A-B| <= FRAC*max(|A|,|B|) or <= ABS
near_rel() { awk -v a="$1" -v b="$2" -v f="$3" -v m="${4:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d;
	x = (a < 0 ? -a : a); y = (b < 0 ? -b : b); if (y > x) x = y; exit !(d <= f * x || d <= m) }'; }

is_root() { [ "$(id -u)" -eq 0 ]; }
have() { command -v "$1" >/dev/null 2>&1; }
