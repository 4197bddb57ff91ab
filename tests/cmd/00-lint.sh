#!/usr/bin/env bash
# The test scripts themselves (tests/cmd/lint.py): every reference tool and workload they run
# (procps, sysstat, bpftrace, libbpf-tools, perf, strace, gdb, eu-stack, Prometheus, fio,
# stress-ng...) runs under `timeout -k`, so one that hangs or ignores SIGINT or SIGTERM ends
# its test instead of stalling the suite; and no `check DESC CMD && ...`, whose second condition would run after
# the verdict and assert nothing.
. "$(dirname "$0")/lib.sh"

have python3 || { skip "python3 not installed: the lint is written in Python"; exit 0; }
D=$(dirname "$0")
python3 "$D/lint.py" "$D"/[0-9]*.sh "$D/lib.sh" >"$TMP/lint.out" 2>&1
rc=$?
n=$(ls "$D"/[0-9]*.sh | wc -l)
sed 's/^/# /' "$TMP/lint.out"
t=$(grep -c "without a timeout" "$TMP/lint.out")
c=$(grep -c "asserts nothing" "$TMP/lint.out")
check "lint ran over the $n test scripts (exit $rc: 0 clean, 1 findings)" [ "$rc" -le 1 ]
check "every reference tool and workload in the $n scripts runs under timeout -k ($t without)" [ "$t" -eq 0 ]
check "no 'check DESC CMD && ...' whose second condition asserts nothing ($c found)" [ "$c" -eq 0 ]

# the lint itself finds both on a script written to have them (one of each kind per form)
cat >"$TMP/bad.script" <<'BAD'
vmstat 1 1
LC_ALL=C mpstat -P ALL 1 1 > out &
x=$(iostat -x | head -1)
unshare -m sh -c "mount --bind a /proc/meminfo && free -b"
A="bpftrace -e 'BEGIN { exit(); }'"
stdbuf -oL execsnoop -x > out & P=$!
check "both" [ 1 = 1 ] && [ 2 = 3 ]
timeout -k 5 30 vmstat 1 1
timeout 30 vmstat 1 1
unshare -m sh -c "mount --bind a /proc/meminfo && timeout -k 5 30 free -b"
have perf && note "perf stat, top and free in a string are words, not commands"
check_all "both" '[ 1 = 1 ] && [ 2 = 2 ]'
BAD
python3 "$D/lint.py" "$TMP/bad.script" >"$TMP/bad.out" 2>&1
sed 's/^/# self-test: /' "$TMP/bad.out"
got=$(awk -F: '{ print $2 }' "$TMP/bad.out" | tr '\n' ' ')
check "lint self-test: lines 1-7 and 9 (a timeout that does not kill) of a bad script found, the good lines 8, 10-12 not ($got)" [ "$got" = "1 2 3 4 5 6 7 9 " ]
