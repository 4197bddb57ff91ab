#!/usr/bin/env bash
# strace 6.1's own test suite against ptk strace (tests/peers/strace.sh): the tests of
# tests/peers/strace-tests.txt, each with strace's harness, a tally by area next to strace
# 6.1's own on the same tests, every failure with its reason. Needs root (ptrace of the test
# programs, some tests chown or mount) and the peers dir (PTK_PEERS, ../shared/peers).
. "$(dirname "$0")/lib.sh"

is_root || { skip "strace's tests need root here"; echo "1..$T_N"; exit 0; }
"$(dirname "$0")/../peers/strace.sh" "$PTK"
