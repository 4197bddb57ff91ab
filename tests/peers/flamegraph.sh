#!/usr/bin/env bash
# ptk flamegraph --folded side by side with FlameGraph's stackcollapse-perf.pl, on perf
# script text recorded here (C programs with frame pointers and with DWARF and --inline, a
# period-mode and a two-event recording, perf script -F with pid/tid, system-wide with
# kernel frames, a sched_switch tracepoint, a JIT with a perf map, Java with the JVM's perf
# map, node --perf-basic-prof) and on the forms FlameGraph documents (a hand-made file).
# Every case is run with every option: (none) --pid --tid --kernel --jit --all --addrs
# --event-filter=EV. The folded outputs must be byte-equal. Then ptk's deliberate
# differences (ptk-flamegraph(1), "Differences from stackcollapse-perf.pl"), each shown to
# differ from Perl and asserted on ptk's side. TAP; a tally at the end.
# usage: tests/peers/flamegraph.sh     (PTK=ptk binary; PTK_PEERS=dir holding flamegraph/)
. "$(dirname "$0")/../cmd/lib.sh"
REPO=$(cd "$(dirname "$0")/../.." && pwd)

PEERS=${PTK_PEERS:-}
for d in "$PEERS" "$REPO/../shared/peers" /work/shared/peers; do
	if [ -n "$d" ] && [ -f "$d/flamegraph/stackcollapse-perf.pl" ]; then PEERS=$d; break; fi
done
SC=$PEERS/flamegraph/stackcollapse-perf.pl
if [ ! -f "$SC" ] || ! have perl; then
	skip "stackcollapse-perf.pl or perl not found (PTK_PEERS=dir holding flamegraph/)"
	exit 0
fi
note "peer: $SC"
C=$TMP/cases
mkdir -p "$C"
cp "$FIX/flame_peer/formats.script" "$C/documented-formats.script"

# ---- recordings -------------------------------------------------------------------------
rec() { # NAME PERF-RECORD-ARGS... -- CMD: perf record then perf script into $C/NAME.script
	local name=$1; shift
	if perf record -q -o "$TMP/$name.data" "$@" > /dev/null 2> "$TMP/$name.err" &&
		perf script -i "$TMP/$name.data" > "$C/$name.script" 2>> "$TMP/$name.err" &&
		[ -s "$C/$name.script" ]; then
		return 0
	fi
	rm -f "$C/$name.script"
	skip "$name: perf record/script failed: $(grep -v '^$' "$TMP/$name.err" | head -1)"
	return 1
}
if ! have perf; then
	skip "perf not installed (linux-perf): only the hand-made case"
elif ! cc -O1 -g -fno-omit-frame-pointer -o "$TMP/deep" "$REPO/tests/progs/flamedeep.c" ||
	! cc -O2 -g -fomit-frame-pointer -o "$TMP/deep-nofp" "$REPO/tests/progs/flamedeep.c"; then
	skip "no C compiler: only the hand-made case"
else
	rec c-framepointer -F 999 -g -- "$TMP/deep" 1 &&
		perf script -i "$TMP/c-framepointer.data" -F comm,pid,tid,time,event,ip,sym,dso \
			> "$C/c-fields-pid-tid.script" 2> /dev/null
	rec c-period-mode -c 500000 -e cpu-clock -g -- "$TMP/deep" 1
	rec c-two-events -F 499 -e cpu-clock -e task-clock -g -- "$TMP/deep" 1
	if rec c-dwarf -F 199 --call-graph dwarf,16384 -- "$TMP/deep-nofp" 1; then
		perf script -i "$TMP/c-dwarf.data" --inline > "$C/c-dwarf-inline.script" 2> /dev/null
		perf script -i "$TMP/c-dwarf.data" -F +srcline > "$C/c-dwarf-srcline.script" 2> /dev/null
	fi
	"$TMP/deep" 2 > /dev/null &
	load=$!
	rec system-wide -F 499 -a -g -- sh -c 'dd if=/dev/zero of=/dev/null bs=4k count=100000 2>/dev/null; sleep 0.5' &&
		perf script -i "$TMP/system-wide.data" -F comm,pid,tid,cpu,time,event,ip,sym,dso,trace \
			> "$C/system-wide-fields.script" 2> /dev/null
	rec sched-switch -e sched:sched_switch -a -g -- sleep 0.5
	kill $load 2> /dev/null
	wait $load 2> /dev/null
	if [ "$(uname -m)" = x86_64 ] && cc -O1 -fno-omit-frame-pointer -o "$TMP/jit" "$REPO/tests/progs/perfmapjit.c"; then
		rec jit-perf-map -F 999 -g -- "$TMP/jit" 1
	else
		skip "the perf-map JIT is x86-64 code: not run on $(uname -m)"
	fi
	if have javac && have java && javac -d "$TMP" "$REPO/tests/progs/FlameSpin.java" 2> "$TMP/javac.err"; then
		rec java-perf-map -F 299 -g -- java -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions \
			-XX:+DumpPerfMapAtExit -cp "$TMP" FlameSpin 1.5
	else
		skip "no JDK (javac, java): no Java case"
	fi
	if have node; then
		# (node writes isolate-*-v8.log files in its working directory)
		rec node-perf-basic-prof -F 499 -g -- sh -c 'cd "$1" && shift && exec "$@"' sh "$TMP" node --perf-basic-prof -e \
			'function inner(n){let s=0;for(let i=0;i<n;i++)s+=i*31^(s>>>3);return s}
			 function outer(){return inner(100000)} let t=Date.now(),x=0;
			 while(Date.now()-t<1000)x+=outer(); console.log(x)'
	else
		skip "node not installed: no V8 JIT case"
	fi
	# the perf maps the JITs left for perf script
	for m in jit-perf-map java-perf-map node-perf-basic-prof; do
		[ -f "$C/$m.script" ] && grep -o '(/tmp/perf-[0-9]*\.map)' "$C/$m.script" | tr -d '()' | sort -u | xargs -r rm -f
	done
fi

# ---- every case with every option ----------------------------------------------------------
total=0 equal=0 equal_doc=0
summary=()
# ptk's folded stacks as Perl writes them, but for the two documented differences a real
# recording can hold: without the "(anonymous namespace)::f" frames that ptk keeps and the
# Perl script skips, and without the samples of a one-character comm that one blank
# separates from its pid ("w 13662/13662 [000]", a pid of 5 digits), whose header Perl does
# not read and so drops (ptk names them "w", "w-13662"; with two blanks Perl reads "w_", as
# ptk); equal stacks summed, sorted by stack as bytes
cat > "$TMP/as_perl.py" <<'PY'
import re, sys
out = {}
for line in open(sys.argv[1], "rb"):
    k, c = line.rstrip(b"\n").rsplit(b" ", 1)
    if re.match(rb"^[^;_](-[0-9?]+(/[0-9]+)?)?(;|$)", k):
        continue
    k = b";".join(f for f in k.split(b";") if not f.startswith(b"(anonymous namespace)"))
    out[k] = out.get(k, 0) + int(c)
sys.stdout.buffer.write(b"".join(b"%s %d\n" % (k, out[k]) for k in sorted(out)))
PY
# and Perl's output without those samples where it does not drop them: a one-character comm
# with no pid/tid pair ("w 22620 [001] 27147.663829: 2004008 cpu-clock:") is read as the comm
# "w 22620 [001] 27147.663829:" with the period for its tid, since its comm pattern wants two
# characters
cat > "$TMP/perl_norm.py" <<'PY'
import re, sys
for line in open(sys.argv[1], "rb"):
    if not re.match(rb"^[^;_ ]_[0-9]+_(\[[0-9]+\]_)?[0-9]+\.[0-9]+:(-[0-9?]+(/[0-9]+)?)?(;| )", line):
        sys.stdout.buffer.write(line)
PY
for f in "$C"/*.script; do
	name=$(basename "$f" .script)
	# the event of the last header that names one (a second event where there are two)
	# (a tracepoint's name is followed by its fields)
	ev=$(awk '/^[^ \t#]/ { for (i = NF; i > 1; i--) if ($i ~ /:$/ && $i !~ /^[0-9.]+:$/) { e = $i; break } }
		END { sub(/:$/, "", e); print e }' "$f")
	nl=$(wc -l < "$f")
	n=0 eq=0 bad=""
	for o in "" --pid --tid --kernel --jit --all --addrs "--event-filter=${ev:-cycles}"; do
		# shellcheck disable=SC2086
		perl "$SC" $o "$f" > "$TMP/perl.folded" 2> /dev/null
		# shellcheck disable=SC2086
		"$PTK" flamegraph --folded $o "$f" > "$TMP/ptk.folded" 2> "$TMP/ptk.err"
		n=$((n + 1))
		if cmp -s "$TMP/perl.folded" "$TMP/ptk.folded"; then
			eq=$((eq + 1))
			ok "$name ${o:-(no option)}: ptk = stackcollapse-perf.pl ($(wc -l < "$TMP/ptk.folded") stacks, weight $(awk '{ s += $NF } END { printf "%d", s }' "$TMP/ptk.folded"))"
		elif python3 "$TMP/perl_norm.py" "$TMP/perl.folded" > "$TMP/perl.norm" &&
			python3 "$TMP/as_perl.py" "$TMP/ptk.folded" | cmp -s "$TMP/perl.norm" -; then
			eq=$((eq + 1))
			equal_doc=$((equal_doc + 1))
			ok "$name ${o:-(no option)}: ptk = stackcollapse-perf.pl but for the documented differences: the (anonymous namespace) frames ptk keeps ($(grep -c '(anonymous namespace)' "$TMP/ptk.folded") stacks hold one), the samples of one-character comms Perl drops or misreads ($(grep -cE '^[^;_](-[0-9?]+(/[0-9]+)?)?;' "$TMP/ptk.folded") stacks)"
		else
			bad="$bad ${o:-(none)}"
			not_ok "$name ${o:-(no option)}: ptk differs from stackcollapse-perf.pl"
			diff "$TMP/perl.folded" "$TMP/ptk.folded" | head -8 | sed 's/^/# /'
		fi
	done
	total=$((total + n))
	equal=$((equal + eq))
	summary+=("$(printf '%-24s %6d lines  %d/%d equal%s' "$name" "$nl" "$eq" "$n" "${bad:+ (differ:$bad)}")")
done

# ---- deliberate differences ----------------------------------------------------------------
# each: a small input, what Perl prints, what ptk prints (and why, in ptk-flamegraph(1))
ndiff=0
differ() { # NAME OPTS EXPECTED-PTK  (input in $TMP/d.script)
	local name=$1 o=$2 want=$3 perl got
	# shellcheck disable=SC2086
	perl=$(perl "$SC" $o "$TMP/d.script" 2> /dev/null)
	# shellcheck disable=SC2086
	got=$("$PTK" flamegraph --folded $o "$TMP/d.script" 2> /dev/null)
	ndiff=$((ndiff + 1))
	if [ "$got" = "$want" ] && [ "$perl" != "$got" ]; then
		ok "difference: $name (Perl: '${perl//$'\n'/ | }', ptk: '${got//$'\n'/ | }')"
	else
		not_ok "difference: $name: ptk '${got//$'\n'/ | }', want '${want//$'\n'/ | }', Perl '${perl//$'\n'/ | }'"
	fi
}
printf 'dd 1 [000] 1.0: 7 cycles:\n\t1 main (/bin/dd)\n' > "$TMP/d.script"
differ "the last sample without a trailing empty line is counted" "" "dd;main 7"
printf '              dd  6794  1005.443307:    2004008 cpu-clock:pppH:  ffffffff812491db x64_sys_call+0x3b ([kernel.kallsyms])\n              dd  6794  1005.445334:    2004008 cpu-clock:pppH:  ffffffff8225a0d6 do_syscall_64+0x46 ([kernel.kallsyms])\n' > "$TMP/d.script"
differ "samples recorded without -g (one line each) are kept" "" $'dd;do_syscall_64 2004008\ndd;x64_sys_call 2004008'
printf 'a 7 [000] 1.0: 3 cycles:\n\t1 f (/x)\n\n' > "$TMP/d.script"
differ "a one-letter comm is a comm" "" "a;f 3"
printf 'Thread 2 4567 [000] 1.0: 3 cycles:\n\t1 f (/x)\n\n' > "$TMP/d.script"
differ "a comm holding a number: the pid is the token before the cpu/time" "--pid" "Thread_2-?;f 3"
printf 'x 1 [000] 1.0: 3 cycles:\n\t1 (anonymous namespace)::helper(int) (/x)\n\t2 main (/x)\n\n' > "$TMP/d.script"
differ "(anonymous namespace)::f frames are kept" "" "x;main;(anonymous namespace)::helper 3"
printf 'x 1 [000] 1.0: 3 cycles:\n\t1 f (/x)\n  \nx 1 [000] 2.0: 4 cycles:\n\t1 g (/x)\n\n' > "$TMP/d.script"
differ "a line of blanks ends a sample" "" $'x;f 3\nx;g 4'
printf 'x 1 [000] 1.0: sched:sched_switch: prev_comm=x\n\t1 f (/x)\n\nx 1 [000] 2.0: sched:sched_wakeup: comm=y\n\t1 g (/x)\n\n' > "$TMP/d.script"
differ "tracepoint samples are filtered by their event too" "" "x;f 1"
printf 'x 1 [000] 1.0: 3 cycles:\n\t7f01 jitfunc (/root/.debug/jit/x/jitted-1-7.so)\n\n' > "$TMP/d.script"
differ "--jit annotates perf inject --jit's jitted-*.so" "--jit" "x;jitfunc_[j] 3"

note "tally: ptk = stackcollapse-perf.pl on $equal of $total case-option runs ($equal_doc of them but for the documented differences: (anonymous namespace) frames, samples of one-character comms Perl drops); $ndiff deliberate differences checked"
for s in "${summary[@]}"; do note "  $s"; done
