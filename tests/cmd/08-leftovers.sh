#!/usr/bin/env bash
# A tracer never changes the program it traces and never leaves anything behind, whatever
# signal ends it:
# - tracefs that ptk mounted itself is gone after SIGKILL (ptk mounts it in a private mount
#   namespace of its own). Checked inside a mount namespace made for the test (unshare -m)
#   with tracefs unmounted there, so the host's mounts are not touched;
# - a program ptk launches (strace CMD, stat -- CMD) gets the signal dispositions, signal
#   mask and mount namespace ptk was started with, not ptk's own: a traced `yes | head -1`
#   dies of SIGPIPE as it does untraced;
# - the dynamic tracers (agg on a uprobe, memleak, ltrace, ftrace, blktrace) leave no link,
#   program, uprobe, tracefs instance or global ftrace change after SIGINT, SIGTERM, SIGKILL
#   or their target's exit.
. "$(dirname "$0")/lib.sh"

if ! is_root || ! have unshare; then
	skip "needs root and unshare(1) for a private mount namespace"
	exit 0
fi

# --- tracefs after SIGKILL -----------------------------------------------------------------
cat >"$TMP/kill.sh" <<'EOS'
umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
umount /sys/kernel/debug 2>/dev/null
before=$(grep -c ' tracefs ' /proc/self/mounts)
"$PTK" "$@" >"$OUT" 2>&1 &
pid=$!
for _ in $(seq 100); do
	grep -q ' tracefs ' /proc/$pid/mounts 2>/dev/null && break
	sleep 0.05
done
inside=$(grep -c ' tracefs ' /proc/$pid/mounts 2>/dev/null)
kill -9 $pid
wait $pid 2>/dev/null
echo "$before $inside $(grep -c ' tracefs ' /proc/self/mounts)"
EOS
for cmd in "agg syscalls:sys_enter_getppid --by comm 30" "opensnoop"; do
	res=$(OUT=$TMP/out PTK=$PTK timeout 60 unshare -m --propagation private bash "$TMP/kill.sh" $cmd)
	read -r before inside after <<<"$res"
	if [ "${inside:-0}" -lt 1 ]; then
		skip "ptk $cmd did not mount tracefs ($(head -c 200 "$TMP/out"))"
		continue
	fi
	check_all "ptk ${cmd%% *} mounted tracefs itself (none before: $before), SIGKILL: $after left mounted" \
		'[ "$before" = 0 ] && [ "$after" = 0 ]'
done

# --- what a launched program inherits --------------------------------------------------------
cat >"$TMP/child.sh" <<'EOS'
umount /sys/kernel/tracing 2>/dev/null
echo "want $(readlink /proc/self/ns/mnt) $(sed -n 's/^SigIgn:\t//p' /proc/self/status) $(sed -n 's/^SigBlk:\t//p' /proc/self/status)"
probe='echo "got $(readlink /proc/self/ns/mnt) $(sed -n "s/^SigIgn:\t//p" /proc/self/status) $(sed -n "s/^SigBlk:\t//p" /proc/self/status)"'
"$PTK" stat -e sched:sched_switch -- sh -c "$probe" 2>/dev/null | grep '^got'
"$PTK" strace -o /dev/null sh -c "$probe" 2>/dev/null | grep '^got'
EOS
out=$(PTK=$PTK timeout 60 unshare -m --propagation private bash "$TMP/child.sh")
want=$(echo "$out" | sed -n 's/^want //p')
n=0
while read -r _ got; do
	n=$((n + 1))
	which=$([ $n = 1 ] && echo "stat -- CMD (tracefs mounted for sched:)" || echo "strace CMD")
	check "$which: the program sees ptk's start mount namespace, ignored and blocked signals ($got, want $want)" \
		[ "$got" = "$want" ]
done < <(echo "$out" | grep '^got')
check "both launched probes ran ($n of 2)" [ "$n" = 2 ]

# a traced yes(1) dies of SIGPIPE when head exits, as untraced (ptk ignores SIGPIPE itself)
"$PTK" strace -e trace=none yes 2>"$TMP/yes.err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
check_all "strace -e trace=none yes | head -1: yes killed by SIGPIPE (exit $rc, $(grep '+++' "$TMP/yes.err"))" \
	'[ "$rc" = 141 ] && grep -q "killed by SIGPIPE" "$TMP/yes.err"'

# --- a seccomp filter only where every process is traced ----------------------------------------
# strace -e trace=SET without -f traces only the command: a SECCOMP_RET_TRACE filter would be
# inherited by its children, whose filtered calls fail with ENOSYS when no tracer is there.
if have cc && cc -O1 -o "$TMP/ppidkid" "$(dirname "$0")/../progs/ppidkid.c"; then
	out=$("$PTK" strace -o "$TMP/pk.txt" -e trace=getppid,wait4 "$TMP/ppidkid" 2>/dev/null)
	rc=$?
	check_all "strace -e trace=getppid without -f: the untraced child's getppid works, no filter ($out, exit $rc)" \
		'[ "$rc" = 0 ] && echo "$out" | grep -q " seccomp 0$"'
	out=$("$PTK" strace -f -o "$TMP/pkf.txt" -e trace=getppid "$TMP/ppidkid" 2>/dev/null)
	rc=$?
	check_all "strace -f -e trace=getppid: the traced child's getppid works ($out, exit $rc)" \
		'[ "$rc" = 0 ] && grep -q "getppid() *= [0-9]" "$TMP/pkf.txt"'
else
	skip "no C compiler for tests/progs/ppidkid.c"
fi

# --- dynamic tracing: no uprobe, link, program, tracefs instance or global ftrace change ------
# Each way a run ends: SIGINT, SIGTERM, SIGKILL, and the traced program's exit (memleak -c,
# ltrace CMD, ftrace -F -- CMD). While it runs, the links and programs it holds (fdinfo) and
# its perf-event attachments (bpftool perf show; a uprobe is held by a perf link) are
# recorded; after it, none of them is left, the target's probed byte is its own again (no int3), no ptk-PID-* instance is left
# (after SIGKILL the next run removes it) and the global tracefs files read as before.
TR=/sys/kernel/tracing
[ -d $TR/instances ] || TR=/sys/kernel/debug/tracing
if ! have bpftool || ! have cc || [ ! -d $TR/instances ]; then
	skip "needs bpftool, cc and tracefs instances for the dynamic tracing leftovers"
	echo "1..$T_N"
	exit 0
fi
cat >"$TMP/w.c" <<'EOF'
#include <stdlib.h>
#include <unistd.h>
/* w: work() every 2 ms forever; w N: N calls of work() and a malloc each, then exit */
__attribute__((noinline)) long work(long i) { return i * 7; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : -1, s = 0;
	for (long i = 0; n < 0 || i < n; i++) {
		s += work(i);
		free(malloc(64));
		usleep(2000);
	}
	return s == -1;
}
EOF
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/w" "$TMP/w.c" || { not_ok "build the workload"; exit 0; }
W=$TMP/w
global_state() { # every global tracefs file a tracer could change, as one digest per file
	for f in current_tracer tracing_on set_event set_event_pid set_event_notrace_pid \
		set_ftrace_pid set_ftrace_notrace_pid set_ftrace_filter set_ftrace_notrace \
		buffer_size_kb trace_clock trace_options tracing_cpumask uprobe_events dynamic_events \
		options/function-trace options/func_stack_trace options/stacktrace; do
		printf '%s=%s ' "$f" "$(cat "$TR/$f" 2>&1 | md5sum | cut -c1-8)"
	done
	echo "events-on=$(grep -c . "$TR/set_event")"
}
held() { # pid -> its BPF links and programs: "L:id" and "P:id" words
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '/^link_id:/ { print "L:" $2 } /^prog_id:/ { print "P:" $2 }' |
		sort -u | tr '\n' ' '
}
perf_of() { # pid -> its perf-event attachments (uprobes, tracepoints) in bpftool perf show
	bpftool -j perf show 2>/dev/null | python3 -c "
import json, sys
try: d = json.load(sys.stdin)
except Exception: d = []
print(sum(1 for e in d if e.get('pid') == $1))"
}
left() { # "L:1 P:2 ..." -> those still loaded, as words
	local want="$*"
	[ -n "$want" ] || return 0
	for _ in $(seq 50); do
		local now
		now=$( (bpftool -j link show 2>/dev/null; echo; bpftool -j prog show 2>/dev/null) | python3 -c "
import json, sys
want = '$want'.split()
have = set()
for chunk in sys.stdin.read().split('\n'):
    chunk = chunk.strip()
    if not chunk: continue
    try: objs = json.loads(chunk)
    except Exception: continue
    for o in objs:
        have.add(('L:' if 'type' in o and 'prog_id' in o and 'tag' not in o else 'P:') + str(o['id']))
print(' '.join(w for w in want if w in have))")
		[ -z "$now" ] && return 0
		sleep 0.1
	done
	echo "$now"
}
probe_byte() { # pid -> the first byte of work() in its memory, in hex
	python3 - "$1" "$W" <<'EOF'
import subprocess, sys
pid, exe = sys.argv[1], sys.argv[2]
sym = [l.split() for l in subprocess.run(["nm", exe], capture_output=True, text=True).stdout.splitlines()]
vaddr = next(int(s[0], 16) for s in sym if len(s) == 3 and s[2] == "work")
for l in open(f"/proc/{pid}/maps"):
    f = l.split()
    if len(f) >= 6 and f[5] == exe and int(f[2], 16) == 0:
        base = int(f[0].split("-")[0], 16); break
with open(f"/proc/{pid}/mem", "rb") as m:
    m.seek(base + vaddr)
    print(m.read(1).hex())
EOF
}
instances_of() { ls "$TR/instances" 2>/dev/null | grep -c "^ptk-$1-"; }
attached() { # pid -> true once it holds a BPF link or a tracefs instance, and no new link
	local last="" cur stable=0 # for 0.6 s (20 s at most)
	for _ in $(seq 200); do
		cur="$(held "$1") $(instances_of "$1")"
		if [[ "$cur" == *L:* || "$cur" != *" 0" ]]; then
			[ "$cur" = "$last" ] && stable=$((stable + 1)) || stable=0
			[ $stable -ge 6 ] && return 0
		fi
		last=$cur
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
"$W" & TG=$!
trap 'kill $TG 2>/dev/null; rm -rf "$TMP"' EXIT
sleep 0.3
orig=$(probe_byte $TG)
before=$(global_state)
# one run: DESC, how it ends (INT TERM KILL exit), the command; checks what is left
one_run() {
	local desc=$1 how=$2
	shift 2
	"$PTK" "$@" >"$TMP/o.txt" 2>"$TMP/o.err" &
	local a=$!
	if ! attached $a; then
		not_ok "$desc: never attached ($(head -c 200 "$TMP/o.err"))"
		kill -9 $a 2>/dev/null; wait $a 2>/dev/null
		return
	fi
	local h p inst inb
	h=$(held $a); p=$(perf_of $a); inst=$(instances_of $a); inb=$(probe_byte $TG)
	if [ "$how" = exit ]; then
		timeout -k 1 30 tail --pid=$a -f /dev/null
	else
		kill -$how $a
	fi
	wait $a 2>/dev/null
	local rc=$?
	[ "$how" = KILL ] && "$PTK" ftrace -e sched:sched_process_exec -d 0.1 >/dev/null 2>&1 # removes it
	local l pa ia outb now
	l=$(left $h); pa=$(perf_of $a); ia=$(instances_of $a); outb=$(probe_byte $TG); now=$(global_state)
	note "$desc: held $(echo "$h" | grep -o L: | wc -l) links, $(echo "$h" | grep -o P: | wc -l) programs, $p perf attachments, $inst instances, work() $orig -> $inb; after (exit $rc): left [$l] $pa perf, $ia instances, work() $outb"
	[ "$now" = "$before" ] || note "global tracefs before: $before"$'\n'"# after: $now"
	check_all "$desc: no link, program, uprobe, instance or global ftrace change left" \
		'[ -z "$l" ] && [ "$pa" = 0 ] && [ "$ia" = 0 ] && [ "$outb" = "$orig" ] && [ "$now" = "$before" ]'
}
for sig in INT TERM KILL; do
	one_run "agg uprobe:w:work, SIG$sig" $sig agg "uprobe:$W:work" --by ustack
	one_run "memleak -p, SIG$sig" $sig memleak -p $TG 1
	one_run "ftrace -e sched, SIG$sig" $sig ftrace -e sched:sched_switch -e sched:sched_wakeup
	one_run "blktrace, SIG$sig" $sig blktrace
done
one_run "memleak -c, the command exits" exit memleak -c "$W 3000" 1
one_run "ltrace CMD, the command exits" exit ltrace -o "$TMP/lt.txt" "$W" 3000
one_run "ftrace -F -- CMD, the command exits" exit ftrace -e sched:sched_switch -F -- "$W" 3000
check "the traced target lived through it all" kill -0 $TG
echo "1..$T_N"
