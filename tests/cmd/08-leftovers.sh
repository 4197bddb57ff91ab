#!/usr/bin/env bash
# A tracer never changes the program it traces and never leaves anything behind, whatever
# signal ends it:
# - tracefs that ptk mounted itself is gone after SIGKILL (ptk mounts it in a private mount
#   namespace of its own). Checked inside a mount namespace made for the test (unshare -m)
#   with tracefs unmounted there, so the host's mounts are not touched;
# - a program ptk launches (strace CMD, stat -- CMD) gets the signal dispositions, signal
#   mask and mount namespace ptk was started with, not ptk's own: a traced `yes | head -1`
#   dies of SIGPIPE as it does untraced.
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
echo "1..$T_N"
