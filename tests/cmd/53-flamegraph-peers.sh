#!/usr/bin/env bash
# ptk flamegraph --folded = FlameGraph's stackcollapse-perf.pl on recorded and documented
# perf script text, for every option, and ptk's deliberate differences (tests/peers).
exec bash "$(dirname "$0")/../peers/flamegraph.sh"
