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

# check DESC CMD...: ok when the command succeeds. One command: in `check D [ a ] && [ b ]`
# the shell runs `[ b ]` after check has printed its verdict, so b is never asserted. For
# several conditions use check_all.
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
# check_all DESC 'COND': ok when the shell condition COND (&&, ||, pipes) holds, evaluated in
# the caller's variables: check_all "both" '[ "$a" = 0 ] && [ "$b" = 0 ]'
check_all() { local d=$1; shift; if eval "$*"; then ok "$d"; else not_ok "$d"; fi; }

# near A B TOL: |A-B| <= TOL (floats)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
# near_rel A B FRAC [ABS]: |A-B| <= FRAC*max(|A|,|B|) or <= ABS
near_rel() { awk -v a="$1" -v b="$2" -v f="$3" -v m="${4:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d;
	x = (a < 0 ? -a : a); y = (b < 0 ? -b : b); if (y > x) x = y; exit !(d <= f * x || d <= m) }'; }

is_root() { [ "$(id -u)" -eq 0 ]; }
# exclusive NAME: hold the lock NAME until the script exits, so that two copies of the suite
# running at once (two checkouts, a user's and a packager's) take turns with a machine-wide
# kernel setting (the page cache, kernel.task_delayacct) instead of changing it under each
# other. Waits up to 10 minutes, then goes on (and says so).
exclusive() {
	local d=/run/lock
	[ -w "$d" ] || d=/tmp
	exec {_PTK_LOCK_FD}>"$d/ptk-test-$1.lock" || return 0
	flock -w 600 "$_PTK_LOCK_FD" || note "lock $d/ptk-test-$1.lock still held after 10 minutes: going on"
}
have() { command -v "$1" >/dev/null 2>&1; }

# proc_snap FILE: one line per process, "pid starttime uid vsize_kb rss_pages nice cpu_ticks
# switches comm", from /proc/PID/stat, status and its threads' status (switches: the sum of
# their voluntary and involuntary context switches). Two scans of a live machine differ by the
# processes born, gone, grown or renamed between them; taken before and after both, a process
# whose line is the same in the two snapshots did not run at all while the scans ran (no CPU
# tick, no switch of any thread), so it changed nothing (stable PRE POST prints their pids),
# and the scans must agree on those exactly.
proc_snap() {
	python3 -c '
import os
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        s = open("/proc/%s/stat" % p).read()
        uid = [l.split()[1] for l in open("/proc/%s/status" % p) if l.startswith("Uid:")][0]
        sw = sum(int(l.split()[1]) for t in os.listdir("/proc/%s/task" % p)
                 for l in open("/proc/%s/task/%s/status" % (p, t)) if "ctxt_switches:" in l)
    except (OSError, IndexError, ValueError):
        continue
    f = s.rsplit(")", 1)[1].split()
    print(p, f[19], uid, int(f[20]) // 1024, f[21], f[16], int(f[11]) + int(f[12]), sw,
          s[s.index("(") + 1:s.rindex(")")].replace(" ", "_"))
' >"$1"
}
stable() { sort "$1" >"$1.s"; sort "$2" >"$2.s"; comm -12 "$1.s" "$2.s" | awk '{ print $1 }'; }

# BPF programs held by process PID (ids, one per line): the prog_id of its program and
# link fds, from /proc/PID/fdinfo.
bpf_prog_ids_of() {
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '/^prog_id:/ { print $2 }' | sort -un
}
# wait_caught SIG PID [STEP]: until process PID catches signal SIG (up to 30 s, polled every
# STEP seconds, default 0.1); false at once when PID has ended. A signal sent before the
# handler is there is lost (a background job starts with SIGINT ignored) or kills it
# (SIGTERM's default): on a busy machine a sanitizer build takes a while to get there.
wait_caught() {
	local n i mask step=${3:-0.1}
	n=$(kill -l "$1")
	for i in $(seq "$(awk -v s="$step" 'BEGIN { print int(30 / s) }')"); do
		mask=$(awk '$1 == "SigCgt:" { print $2 }' /proc/"$2"/status 2>/dev/null)
		[ -n "$mask" ] || return 1
		(((16#$mask >> (n - 1)) & 1)) && return 0
		sleep "$step"
	done
	return 1
}
# How many BPF links process PID holds (its attached programs).
bpf_links_of() { cat /proc/"$1"/fdinfo/* 2>/dev/null | grep -c '^link_id:'; }
# wait_file FILE REGEX [SECONDS]: until FILE has a line matching REGEX (default up to 30 s: a
# tool that says it is attached can be slow to get there on a busy machine)
wait_file() {
	local i
	for i in $(seq $((${3:-30} * 10))); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
# True when none of the given program ids is loaded any more (the kernel frees programs
# shortly after the last fd closes: wait up to 5 s).
bpf_progs_gone() {
	local i ids="$*"
	[ -n "$ids" ] || return 0
	for i in $(seq 50); do
		local left
		left=$(bpftool -j prog show 2>/dev/null | python3 -c "
import json, sys
ids = set(int(x) for x in '$ids'.split())
try: progs = json.load(sys.stdin)
except Exception: progs = []
print(sum(1 for p in progs if p['id'] in ids))")
		[ "$left" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
# child_of PID: the pid of PID's first child, waiting up to 5 s for it (an anchor started as
# `timeout -k 5 60 tool ... &` is $!'s child: its fds and programs are the child's).
child_of() {
	local c
	for _ in $(seq 100); do
		c=$(pgrep -P "$1" | head -1)
		[ -n "$c" ] && { echo "$c"; return 0; }
		sleep 0.05
	done
	echo "$1"
}
# bpf_attached PID: true once PID holds BPF links or perf events (bpftrace attaches a uprobe
# through a perf event, ptk through a link) and no new one came for 0.6 s; false when PID
# ends or after 30 s. Needs no kernel.bpf_stats_enabled.
bpf_attached() {
	local last="" cur n=0
	for _ in $(seq 300); do
		cur=$(($(cat /proc/"$1"/fdinfo/* 2>/dev/null | grep -c '^link_id:') +
			$(ls -l /proc/"$1"/fd 2>/dev/null | grep -c 'perf_event')))
		if [ "$cur" -gt 0 ] && [ "$cur" = "$last" ]; then
			n=$((n + 1))
			[ $n -ge 6 ] && return 0
		else
			n=0
		fi
		last=$cur
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
