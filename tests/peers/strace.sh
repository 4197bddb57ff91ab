#!/usr/bin/env bash
# strace 6.1's own test suite (../shared/peers/strace) run against ptk strace.
#
# Usage: tests/peers/strace.sh PTK [NAME...]     (TAP on stdout, a tally by area at the end)
#
# The tests listed in tests/peers/strace-tests.txt (by area) are built from strace's source
# tarball in a cached build tree, then each runs twice with strace's own harness
# (tests/init.sh: the program prints the lines expected, the harness diffs them with the
# tracer's output): with STRACE="PTK strace", and with the installed strace when it is 6.1,
# the version whose expectations these are. Options ptk does not support make ptk exit 2 and
# the test fail: nothing is dropped on the way.
#
# A test ptk does not pass is "not ok" unless tests/peers/strace-known.txt lists it with a
# reason (NAME<TAB>REASON); a listed test that passes is "not ok" too, so that the list stays
# true. A test that strace itself skips here (exit 77: a kernel feature, a file) is a skip.
#
# Env: PTK_PEERS (the peers dir; else <repo>/../shared/peers, else /work/shared/peers),
# STRACE_SUITE_DIR (the build tree's parent, default <repo>/build-peers), STRACE_REF (the
# reference strace, default `strace`; "none" to skip it), SUITE_JOBS (parallel tests, 2).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PTK=${1:?usage: strace.sh PTK [NAME...]}
shift
ONLY=" $* "

peers=${PTK_PEERS:-}
[ -n "$peers" ] || { [ -d "$REPO/../shared/peers" ] && peers=$REPO/../shared/peers; }
[ -n "$peers" ] || peers=/work/shared/peers
TARBALL=$peers/strace/strace-6.1-src.tar.gz
if [ ! -f "$TARBALL" ]; then
	echo "1..1"
	echo "ok 1 - # SKIP no strace source at $TARBALL (set PTK_PEERS)"
	exit 0
fi
for p in autoreconf gawk make cc; do
	if ! command -v $p > /dev/null; then
		echo "1..1"
		echo "ok 1 - # SKIP $p is missing (scripts/deps.sh test installs it)"
		exit 0
	fi
done

TOP=${STRACE_SUITE_DIR:-$REPO/build-peers}
SRC=$TOP/strace-6.1
T=$SRC/tests
mkdir -p "$TOP"
LOGS=$TOP/logs
rm -rf "$LOGS"
mkdir -p "$LOGS"

# ---- the build (cached: a stamp names the tarball it was configured from) -------------------
sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
if [ "$(cat "$SRC/.ptk-configured" 2> /dev/null)" != "$sum" ]; then
	echo "# configuring strace 6.1's test suite in $SRC (once; cached after)"
	rm -rf "$SRC"
	tar -C "$TOP" -xzf "$TARBALL" &&
		(cd "$SRC" && ./bootstrap && ./configure --enable-mpers=no) > "$TOP/configure.log" 2>&1 &&
		make -C "$T" scno.h >> "$TOP/configure.log" 2>&1 &&
		make -C "$T" -j2 libtests.a >> "$TOP/configure.log" 2>&1 ||
		{
			echo "1..1"
			echo "not ok 1 - configure strace's test suite (see $TOP/configure.log)"
			tail -20 "$TOP/configure.log" | sed 's/^/# /'
			exit 0
		}
	echo "$sum" > "$SRC/.ptk-configured"
fi

# ---- the list ---------------------------------------------------------------------------------
declare -A AREA PROGS KNOWN
NAMES=()
while IFS=$'\t' read -r area name progs; do
	case "$area" in '' | '#'*) continue ;; esac
	[ "$ONLY" = "  " ] || [[ "$ONLY" == *" $name "* ]] || continue
	AREA[$name]=$area
	PROGS[$name]=${progs:-$name}
	NAMES+=("$name")
done < "$HERE/strace-tests.txt"
while IFS=$'\t' read -r name why; do
	case "$name" in '' | '#'*) continue ;; esac
	KNOWN[$name]=$why
done < "$HERE/strace-known.txt"

all_progs=$(for n in "${NAMES[@]}"; do echo "${PROGS[$n]}"; done | tr ' ' '\n' | sort -u)
# make is the cache: only missing or out-of-date programs are built
make -C "$T" -k -j2 $all_progs > "$TOP/build.log" 2>&1

REF=${STRACE_REF:-strace}
ref_ok=false
if [ "$REF" != none ] && command -v "$REF" > /dev/null &&
	"$REF" -V 2> /dev/null | head -1 | grep -q 'version 6\.1$'; then
	ref_ok=true
fi

# run TEST TAG TRACER...: the harness's exit code (0 pass, 77 skip, else fail), log in LOGS
run_one() {
	local name=$1 tag=$2 script
	shift 2
	script=$name.gen.test
	[ -f "$T/$script" ] || script=$name.test
	(
		cd "$T" &&
			env STRACE="$*" STRACE_ARCH=x86_64 STRACE_NATIVE_ARCH=x86_64 \
				SIZEOF_KERNEL_LONG_T=8 SIZEOF_LONG=8 MIPS_ABI= srcdir=. \
				timeout -k 5 120 sh "./$script"
	) > "$LOGS/$name.$tag.log" 2>&1 < /dev/null
	echo $? > "$LOGS/$name.$tag.rc"
}
export -f run_one
export T LOGS

# the tests run in their own NAME.dir, two at a time
for n in "${NAMES[@]}"; do
	printf '%s\n' "$n"
done | xargs -P "${SUITE_JOBS:-2}" -I{} bash -c "
	run_one {} ptk $PTK strace
	if $ref_ok; then run_one {} ref $REF; fi"

# the first line where ptk's output differs from the expected one, or the harness's complaint
reason() {
	local f=$1 exp got
	exp=$(grep -m1 '^-[^-]' "$f" | cut -c2- | cut -c1-150)
	got=$(grep -m1 '^+[^+]' "$f" | cut -c2- | cut -c1-150)
	if [ -n "$exp$got" ]; then
		echo "expected [$exp] got [$got]"
	elif grep -q '^#[0-9]*: ' "$f"; then
		echo "pattern not matched: $(grep -m1 '^#[0-9]*: ' "$f" | cut -c1-150)"
	else
		grep -v '^\s*$' "$f" | grep -m1 -i 'ptk\|fail\|error' | cut -c1-200
	fi
}

declare -A P F S K
n=0 npass=0 nfail=0 nknown=0 nskip=0 ref_pass=0 ref_skip=0 ref_fail=0
echo "1..$((${#NAMES[@]} + 1))"
for name in "${NAMES[@]}"; do
	n=$((n + 1))
	a=${AREA[$name]}
	rc=$(cat "$LOGS/$name.ptk.rc")
	rrc=-
	$ref_ok && rrc=$(cat "$LOGS/$name.ref.rc")
	case $rrc in 0) ref_pass=$((ref_pass + 1)) ;; 77) ref_skip=$((ref_skip + 1)) ;; -) ;; *) ref_fail=$((ref_fail + 1)) ;; esac
	desc="$a/$name"
	if [ ! -x "$T/${PROGS[$name]%% *}" ]; then
		echo "not ok $n - $desc: the test program did not build (see $TOP/build.log)"
		nfail=$((nfail + 1)); F[$a]=$((${F[$a]:-0} + 1))
	elif [ "$rc" = 77 ] || [ "$rrc" = 77 ]; then
		why=$(grep -h -m1 'skipped test\|framework skip' "$LOGS/$name.ptk.log" "$LOGS/$name.ref.log" 2> /dev/null |
			head -1 | sed 's/.*skipped test: //; s/.*framework skip: //')
		echo "ok $n - # SKIP $desc: skipped by the harness here: ${why:-exit 77}"
		nskip=$((nskip + 1)); S[$a]=$((${S[$a]:-0} + 1))
	elif [ "$rc" = 0 ]; then
		if [ -n "${KNOWN[$name]:-}" ]; then
			echo "not ok $n - $desc passes but strace-known.txt lists it: remove the entry"
			nfail=$((nfail + 1)); F[$a]=$((${F[$a]:-0} + 1))
		else
			echo "ok $n - $desc"
		fi
		npass=$((npass + 1)); P[$a]=$((${P[$a]:-0} + 1))
	elif [ -n "${KNOWN[$name]:-}" ]; then
		echo "ok $n - # SKIP $desc fails, known: ${KNOWN[$name]}"
		echo "#   $(reason "$LOGS/$name.ptk.log")"
		nknown=$((nknown + 1)); K[$a]=$((${K[$a]:-0} + 1))
	else
		echo "not ok $n - $desc (exit $rc): $(reason "$LOGS/$name.ptk.log")"
		nfail=$((nfail + 1)); F[$a]=$((${F[$a]:-0} + 1))
	fi
done

ran=$((${#NAMES[@]} - nskip))
echo "# strace suite tally: ptk passes $npass of $ran (known failures $nknown, other failures $nfail, skipped here $nskip)"
$ref_ok && echo "# strace 6.1 on the same tests: $ref_pass passed, $ref_fail failed, $ref_skip skipped"
for a in $(for n in "${NAMES[@]}"; do echo "${AREA[$n]}"; done | awk '!s[$0]++'); do
	printf '#   %-8s passed %3d  known %3d  failed %3d  skipped %3d\n' "$a" "${P[$a]:-0}" \
		"${K[$a]:-0}" "${F[$a]:-0}" "${S[$a]:-0}"
done
n=$((n + 1))
if [ "$ran" -gt 0 ] && [ $((npass * 100)) -ge $((ran * 90)) ]; then
	echo "ok $n - ptk passes at least 90% of the strace tests that run here ($npass of $ran)"
else
	echo "not ok $n - ptk passes fewer than 90% of the strace tests that run here ($npass of $ran)"
fi
echo "# logs: $LOGS"
