#!/usr/bin/env bash
# Bad input and failures: one line naming what was wrong and the right exit status (1
# runtime, 2 usage), never a crash, silence, a wrong number or a file left half written.
# Each case here was a defect (issue 12): the old behaviour is in the comment.
. "$(dirname "$0")/lib.sh"

# run NAME CMD...: exit status in $rc, stdout in $TMP/NAME.out, stderr in $TMP/NAME.err
run() {
	local name=$1
	shift
	timeout -k 5 60 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
}
lines() { wc -l <"$1"; }

# strace -p with a bad PID: printed freed memory (ASan abort in the sanitizer build)
for bad in abc 0 -1 99999999999 1,x; do
	run sp "$PTK" strace -p "$bad"
	check_all "strace -p '$bad': exit 2, one line naming it ($(head -c 100 "$TMP/sp.err"))" \
		'[ "$rc" = 2 ] && [ "$(lines "$TMP/sp.err")" = 1 ] && grep -q "invalid process id" "$TMP/sp.err"'
done

# a PID that does not exist: pidstat, top and iotop exited 0 silently
nopid=$(( $(cat /proc/sys/kernel/pid_max) - 1 ))
while [ -e /proc/$nopid ]; do nopid=$((nopid - 1)); done
for cmd in "pidstat -p $nopid 1 1" "top -b -n 1 -p $nopid" "iotop -b -n 1 -p $nopid"; do
	run np "$PTK" $cmd
	check_all "$cmd: exit 1, 'no such process $nopid', nothing on stdout" \
		'[ "$rc" = 1 ] && grep -q "no such process $nopid" "$TMP/np.err" && [ ! -s "$TMP/np.out" ]'
done
run np2 "$PTK" pidstat -p "1,$nopid" 1 1
check_all "pidstat -p 1,$nopid: the missing one is a warning, pid 1 still reported (exit $rc)" \
	'[ "$rc" = 0 ] && grep -q "warning: no such process $nopid" "$TMP/np2.err" && grep -q "^Average:.* 1 " "$TMP/np2.out"'

# --procfs naming a file: said "No such file or directory"
run pf "$PTK" --procfs /etc/passwd vmstat
check_all "--procfs /etc/passwd: exit 1, 'cannot use --procfs /etc/passwd: Not a directory'" \
	'[ "$rc" = 1 ] && grep -q "cannot use --procfs /etc/passwd: Not a directory" "$TMP/pf.err"'
run sf "$PTK" --sysfs /etc/passwd vmstat
check_all "--sysfs /etc/passwd: exit 1, names --sysfs" \
	'[ "$rc" = 1 ] && grep -q "cannot use --sysfs /etc/passwd" "$TMP/sf.err"'

# stat -- CMD exits with CMD's status, as perf stat (it exited 0)
for c in "false:1" "sh -c 'exit 3':3" "true:0"; do
	cmd=${c%:*} want=${c##*:}
	eval "timeout 60 \"\$PTK\" stat -- $cmd" >/dev/null 2>&1
	rc=$?
	if have perf; then
		# perf stat itself now and then exits 0 whatever the command's status (1 run in 6
		# here, perf 6.1): the anchor's answer is its status in any of three runs
		for _ in 1 2 3; do
			eval "timeout -k 5 60 perf stat -- $cmd" >/dev/null 2>&1
			prc=$?
			[ "$prc" = "$want" ] && break
		done
	else
		prc=$want
	fi
	check_all "stat -- $cmd: exit $rc, perf stat $prc (want $want)" '[ "$rc" = "$want" ] && [ "$prc" = "$want" ]'
done

# unprivileged tracepoint event: said "unknown event"
if is_root && have setpriv && grep -q ' tracefs ' /proc/mounts; then
	run up setpriv --reuid=65534 --regid=65534 --clear-groups "$PTK" stat -e sched:sched_switch -- true
	check_all "unprivileged stat -e sched:sched_switch: exit 1, names the permission ($(head -c 90 "$TMP/up.err"))" \
		'[ "$rc" = 1 ] && grep -q "no permission" "$TMP/up.err" && ! grep -q "unknown event" "$TMP/up.err"'
else
	skip "unprivileged tracepoint check needs root, setpriv and a mounted tracefs"
fi

# perf_event_open refused (unprivileged -a): the events' fd arrays leaked (LeakSanitizer's
# report in the sanitizer build)
if is_root && have setpriv && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	run pa setpriv --reuid=65534 --regid=65534 --clear-groups "$PTK" stat -a -e cpu-clock,task-clock -- true
	check_all "unprivileged stat -a: exit 1, one line naming perf_event_paranoid, no leak ($(head -c 90 "$TMP/pa.err"))" \
		'[ "$rc" = 1 ] && [ "$(lines "$TMP/pa.err")" = 1 ] && grep -q "perf_event_paranoid" "$TMP/pa.err"'
else
	skip "refused perf_event_open check needs root, setpriv and kernel.perf_event_paranoid >= 1"
fi

# zombies and kernel threads: gcore said "another tracer, or no permission"
sh -c 'sleep 0.1 & exec sleep 20' &
parent=$!
zombie=
for _ in $(seq 200); do # up to 20 s: a busy machine is slow to start the two sleeps
	zombie=$(pgrep -P $parent sleep)
	[ -n "$zombie" ] && [ "$(awk '{ print $3 }' /proc/$zombie/stat 2>/dev/null)" = Z ] && break
	sleep 0.1
done
for cmd in gcore pstack "strace -p"; do
	run zz "$PTK" $cmd "$zombie"
	check_all "$cmd on zombie $zombie: exit 1, 'is a zombie'" \
		'[ "$rc" = 1 ] && grep -q "is a zombie" "$TMP/zz.err"'
	run kt "$PTK" $cmd 2
	check_all "$cmd on kernel thread 2: exit 1, 'is a kernel thread'" \
		'[ "$rc" = 1 ] && grep -q "is a kernel thread" "$TMP/kt.err"'
done
kill $parent 2>/dev/null
wait $parent 2>/dev/null

# a failed strace -p attach printed a cost summary of nothing
if is_root && have setpriv; then
	sleep 30 &
	victim=$!
	run sa setpriv --reuid=65534 --regid=65534 --clear-groups "$PTK" strace -p $victim
	check_all "strace -p as nobody on root's process: exit 1, the attach error, no cost line" \
		'[ "$rc" = 1 ] && grep -q "PTRACE_SEIZE" "$TMP/sa.err" && ! grep -q "added to the target" "$TMP/sa.err"'
	kill $victim
	wait $victim 2>/dev/null
else
	skip "strace attach refusal needs root and setpriv"
fi

# SIGKILL during gcore: left a truncated core under the final name
if is_root; then
	python3 -c "
import time
b = bytearray(600 * 1024 * 1024)
for i in range(0, len(b), 4096): b[i] = 1
open('$TMP/big.ready', 'w').close()
time.sleep(60)" &
	big=$!
	for _ in $(seq 600); do [ -e "$TMP/big.ready" ] && break; sleep 0.1; done
	mkdir -p "$TMP/cores"
	"$PTK" gcore -o "$TMP/cores/core" $big >/dev/null 2>&1 &
	g=$!
	# the kill lands mid-dump: while gcore holds the target stopped (a fixed sleep let a
	# fast dump finish first)
	for _ in $(seq 2000); do
		case $(awk '{ print $3 }' /proc/$big/stat 2>/dev/null) in t | T) break ;; esac
		kill -0 $g 2>/dev/null || break
		sleep 0.005
	done
	kill -9 $g 2>/dev/null
	wait $g 2>/dev/null
	for _ in $(seq 100); do
		case $(awk '{ print $3 }' /proc/$big/stat 2>/dev/null) in t | T) sleep 0.05 ;; *) break ;; esac
	done
	left=$(ls -A "$TMP/cores" | wc -l)
	state=$(awk '{ print $3 }' /proc/$big/stat)
	check_all "gcore killed with SIGKILL mid-dump: nothing in the output directory ($left files), target running ($state)" \
		'[ "$left" = 0 ] && [ "$state" != T ] && [ "$state" != t ]'
	run gc "$PTK" gcore -o "$TMP/cores/core" $big
	check_all "gcore afterwards: exit 0, one whole core named core.$big" \
		'[ "$rc" = 0 ] && [ "$(ls -A "$TMP/cores")" = "core.$big" ] && [ "$(head -c 4 "$TMP/cores/core.$big" | od -An -c | tr -d " ")" = "177ELF" ]'
	kill $big
	wait $big 2>/dev/null
else
	skip "gcore checks need root"
fi

# an output file that cannot be written leaves nothing behind and says which
mkdir -p "$TMP/ro"
run fg "$PTK" flamegraph -o "$TMP/nodir/x.svg" "$FIX/flame_perf/perf.script"
check_all "flamegraph -o into a missing directory: exit 1, names the file" \
	'[ "$rc" = 1 ] && grep -q "cannot write $TMP/nodir/x.svg" "$TMP/fg.err"'
run fg2 "$PTK" flamegraph -o "$TMP/ro/x.svg" "$FIX/flame_perf/perf.script"
check_all "flamegraph -o FILE: the SVG whole under its name, no temporary left ($(ls -A "$TMP/ro" | tr '\n' ' '))" \
	'[ "$rc" = 0 ] && [ "$(ls -A "$TMP/ro")" = x.svg ] && tail -1 "$TMP/ro/x.svg" | grep -q "</svg>"'

# a BPF tool's duration past what its nanoseconds hold: 1e30 traced 0.02 s and exited 0
for cmd in "offcputime 1e30" "offcputime 0" "offcputime nan"; do
	run du "$PTK" $cmd
	check_all "$cmd: exit 2, 'invalid duration' ($(head -c 80 "$TMP/du.err"))" \
		'[ "$rc" = 2 ] && grep -q "invalid duration" "$TMP/du.err" && [ ! -s "$TMP/du.out" ]'
done

# iostat's usage errors name the option and what was wrong: each was "unknown option" without
# naming it, and +f DIR ran, taking +f and DIR for devices
while IFS='|' read -r args want; do
	run io "$PTK" iostat $args
	check_all "iostat $args: exit 2, one line saying $want, nothing on stdout" \
		'[ "$rc" = 2 ] && [ "$(lines "$TMP/io.err")" = 1 ] && grep -qF -- "$want" "$TMP/io.err" && [ ! -s "$TMP/io.out" ]'
done <<'CASES'
-Q|unknown option '-Q'
-xQz|unknown option '-Q'
--bogus=1|unknown option '--bogus'
--dec=A|option '--dec': 'A' is not 0, 1 or 2
-j FOObar|no /dev/disk/by-foobar
+f /nonexistent/dir|option '+f': /nonexistent/dir is not a directory
-H|option '-H' needs a group
-k -m|options '-k' and '-m' cannot be used together
-mG|options '-m' and '-G' cannot be used together
-o XML|option '-o' takes JSON, not 'XML'
2 0|invalid count '0'
0 5|a count needs an interval above 0
1 2 3|too many numbers: '3'
-g|option '-g' needs a group name
CASES
# a device that is not there: the header alone, as sysstat, and a warning naming it
run io "$PTK" iostat -d nosuchdev0
check_all "iostat -d nosuchdev0: exit 0, a warning 'no block device nosuchdev0'" \
	'[ "$rc" = 0 ] && grep -q "warning: no block device nosuchdev0" "$TMP/io.err" && grep -q "^Device" "$TMP/io.out"'

# /proc files cut short (a tree copied while written, a truncated file): what they lack is
# unknown ("-"), a cut last line is left out, a required file that cannot be read is named.
# vmstat printed cs 0 and r/b 0 for a /proc/stat cut inside its ctxt line.
"$PTK" capture "$TMP/cut" 1 2 >/dev/null 2>&1
for d in "$TMP"/cut/[01]; do
	# stat: cut inside "ctxt NNN" (no newline after); meminfo: MemTotal and MemFree only
	awk '/^ctxt/ { printf "ctxt 1"; exit } { print }' "$d/stat" >"$d/stat.new" && mv "$d/stat.new" "$d/stat"
	head -2 "$d/meminfo" >"$d/meminfo.new" && mv "$d/meminfo.new" "$d/meminfo"
done
run cv "$PTK" --procfs "$TMP/cut" vmstat 1 2
cs=$(awk 'NR > 2 { print $1 $2 $12 }' "$TMP/cv.out" | sort -u | tr '\n' ' ')
check_all "stat cut inside ctxt: vmstat r, b and cs unknown in each row (r b cs: $cs; exit $rc)" \
	'[ "$rc" = 0 ] && [ "$cs" = "--- " ]'
run cw "$PTK" --procfs "$TMP/cut" sar -w 1 1
check_all "... sar -w: proc/s and cswch/s unknown ($(grep -c ' - *- *$' "$TMP/cw.out") rows)" \
	'[ "$rc" = 0 ] && [ "$(grep -c " - *- *$" "$TMP/cw.out")" = 2 ]'
run cf "$PTK" --procfs "$TMP/cut" free
read -r _ tot _ _ shared bc _ < <(grep '^Mem:' "$TMP/cf.out")
check_all "meminfo cut after MemFree: free shows total, and shared, buff/cache unknown ($tot $shared $bc)" \
	'[ "$rc" = 0 ] && [ "$tot" -gt 0 ] && [ "$shared" = - ] && [ "$bc" = - ]'
run ct "$PTK" --procfs "$TMP/cut" top -b -n 1
check_all "... top's summary: buff/cache and swap unknown, forks/s unknown ($(grep -m1 '^MiB Mem' "$TMP/ct.out"))" \
	'[ "$rc" = 0 ] && grep -q "^MiB Mem : .* - buff/cache" "$TMP/ct.out" && grep -q "^MiB Swap: *- total" "$TMP/ct.out" && grep -q " - forks/s" "$TMP/ct.out"'
# a CPU online but cut out of /proc/stat: mpstat shows it unknown, not as an offline CPU
# (no row), and the all row too, whose sum lacks it
if grep -q '^cpu1 ' "$TMP/cut/1/stat" && grep -q 1 "$TMP/cut/1/sys/devices/system/cpu/online"; then
	cp -r "$TMP/cut" "$TMP/cutcpu"
	sed -i '/^cpu1 /d' "$TMP"/cutcpu/[01]/stat
	run cc "$PTK" --procfs "$TMP/cutcpu" mpstat -P ALL 1 1
	rows=$(awk '$2 == "all" || $2 == "0" || $2 == "1" { print $2 ($3 == "-") ($NF == "-") }' "$TMP/cc.out" | sort -u | tr '\n' ' ')
	check_all "stat without cpu1, online: mpstat -P ALL's cpu 1 and all unknown, cpu 0 known ($rows; exit $rc)" \
		'[ "$rc" = 0 ] && [ "$rows" = "000 111 all11 " ]'
else
	skip "a cut cpu1 line needs a capture with two CPUs online"
fi
: >"$TMP/cut/0/uptime"
: >"$TMP/cut/1/uptime"
for cmd in "mpstat 1 1" "iostat 1 1" "sar -u 1 1" "top -b -n 1" "uptime"; do
	run cu "$PTK" --procfs "$TMP/cut" $cmd
	check_all "uptime empty: $cmd exit 1 naming it ($(head -c 90 "$TMP/cu.err"))" \
		'[ "$rc" = 1 ] && grep -q "cannot read $TMP/cut/uptime: " "$TMP/cu.err"'
done

# an output path that is a device or a FIFO is written in place: `-o /dev/null` as root
# replaced /dev/null with a regular file (the temporary renamed over it), and every later
# `> /dev/null` on the machine filled that file (tmux's daemon() failed on it)
if is_root; then
	mknod -m 666 "$TMP/null" c 1 3
	mkfifo "$TMP/fifo"
	timeout -k 5 60 cat "$TMP/fifo" > "$TMP/fifo.out" &
	run fn "$PTK" flamegraph -o "$TMP/null" "$FIX/flame_perf/perf.script"
	rcn=$rc
	run ff "$PTK" flamegraph -o "$TMP/fifo" "$FIX/flame_perf/perf.script"
	[ -p "$TMP/fifo" ] || echo > "$TMP/fifo" # replaced: the reader is not waiting for it
	wait
	check_all "flamegraph -o a device node and -o a FIFO: exit 0 ($rcn, $rc), the node still a character device, the SVG through the FIFO, nothing beside them ($(ls -A "$TMP" | grep -c '\.ptk-') temporaries)" \
		'[ "$rcn" = 0 ] && [ "$rc" = 0 ] && [ -c "$TMP/null" ] && [ -p "$TMP/fifo" ] && tail -1 "$TMP/fifo.out" | grep -q "</svg>" && ! ls -A "$TMP" | grep -q "\.ptk-"'
else
	skip "device node output needs root (mknod)"
fi

# -h is the help of the BPF tools, as in libbpf-tools (argp's hidden -h), on stdout, exit 0;
# a tool's own -h (none of these has one) would take the letter instead
bad=""
for t in agg runqlat biolatency offcputime funccount funclatency memleak trace ltrace; do
	out=$("$PTK" $t -h 2>/dev/null); rc=$?
	[ $rc -eq 0 ] && printf '%s\n' "$out" | head -1 | grep -q "^usage: ptk $t " || bad="$bad $t:$rc"
done
check_all "-h prints the usage and exits 0 for the BPF tools${bad:+ (not:$bad)}" '[ -z "$bad" ]'
