#!/usr/bin/env bash
# ptk free against procps free: live figures, byte-for-byte layout on fixture meminfo files
# (procps free is pointed at a fixture by bind-mounting it over /proc/meminfo in a private
# mount namespace), the 8 TiB fixture, the pre-3.14 fixture without MemAvailable, errors, JSON.
. "$(dirname "$0")/lib.sh"

# Values of the "Mem:" row (fields 2..) or another row of a free-style output.
row() { awk -v r="$1" '$1 == r { $1 = ""; print }'; }

# live_cmp OPTS: run free, ptk free, free; every ptk Mem: value must be within 1% (or 16 MiB,
# whichever is larger) of the bracket [min, max] of the two free runs; total must be equal to
# the first free run. Memory moves between the runs, and ptk's own pages count in "used"
# while it reads: the sanitizer build maps several MiB of shadow memory, which on a machine
# with 400 MiB used is more than 1%.
live_cmp() {
	local opts=$1 a b c
	a=$(timeout -k 5 30 free $opts | row Mem:)
	b=$("$PTK" free $opts | row Mem:)
	c=$(timeout -k 5 30 free $opts | row Mem:)
	note "free $opts : $a"
	note "ptk  $opts : $b"
	local names
	names=$(timeout -k 5 30 free $opts | head -1)
	awk -v a="$a" -v b="$b" -v c="$c" -v names="$names" -v o="$opts" 'BEGIN {
		na = split(a, A); nb = split(b, B); split(c, C); split(names, N)
		u = 1024; if (o ~ /-b/) u = 1024 * 1024; else if (o ~ /-m/) u = 1
		if (na != nb) { print "not ok - column count " na " vs " nb; exit 1 }
		bad = 0
		if (A[1] != B[1]) { print "# total differs: " A[1] " vs " B[1]; bad = 1 }
		for (i = 2; i <= na; i++) {
			lo = A[i] < C[i] ? A[i] : C[i]; hi = A[i] < C[i] ? C[i] : A[i]
			tol = 0.01 * hi; if (tol < 16 * u) tol = 16 * u
			if (B[i] < lo - tol || B[i] > hi + tol) {
				print "# " N[i] ": ptk " B[i] " outside free [" lo ", " hi "] +-" tol; bad = 1
			}
		}
		exit bad }' && ok "free $opts: total equal, other Mem: columns within 1% or 16 MiB of free" ||
		not_ok "free $opts: Mem: columns differ from free"
}

if ! have free; then
	skip "procps free not installed"
else
	for o in -b -k -m -w "-w -b"; do live_cmp "$o"; done

	# -h: same header and the same human format (a number and a B/Ki/Mi/Gi/Ti suffix)
	h1=$(timeout -k 5 30 free -h | head -1)
	h2=$("$PTK" free -h | head -1)
	[ "$h1" = "$h2" ] && ok "free -h header identical" || not_ok "free -h header: '$h2' vs '$h1'"
	m=$("$PTK" free -h | row Mem:)
	note "free -h : $(timeout -k 5 30 free -h | row Mem:)"
	note "ptk -h  : $m"
	echo "$m" | awk '{ if (NF != 6) exit 1; for (i = 1; i <= NF; i++)
		if ($i !~ /^[0-9]+(\.[0-9])?(B|Ki|Mi|Gi|Ti|Pi)$/) exit 1 }' &&
		ok "free -h: six human-format columns" || not_ok "free -h columns: $m"
	h1=$(timeout -k 5 30 free -w | head -1)
	h2=$("$PTK" free -w | head -1)
	[ "$h1" = "$h2" ] && ok "free -w header identical" || not_ok "free -w header: '$h2' vs '$h1'"
fi

# Byte-for-byte layout on fixtures: procps free reads the fixture through a bind mount.
if is_root && have free && unshare -m true 2>/dev/null; then
	nd=0
	for d in free_basic free_8tib free_highmem; do
		for o in "" -b -k -m -g --tera --peta --tebi -h "-h --si" -w -t -v "--si -k" \
			"-w -h -t" --kilo "--mega -w" --giga --si "--si -w" -l "-l -h" "-l -w -t -v" \
			"-l --si -m"; do
			a=$(unshare -m sh -c "mount --bind '$FIX/$d/meminfo' /proc/meminfo && timeout -k 5 30 free $o")
			b=$("$PTK" free $o --procfs "$FIX/$d")
			if [ "$a" != "$b" ]; then
				nd=$((nd + 1))
				note "differs: $d free $o"
				diff <(echo "$a") <(echo "$b") | sed 's/^/# /'
			fi
		done
	done
	[ $nd -eq 0 ] && ok "fixtures free_basic, free_8tib, free_highmem: 72 option sets byte-identical to procps free (-l and --si included)" ||
		not_ok "$nd fixture outputs differ from procps free"
	note "8 TiB, procps: $(unshare -m sh -c "mount --bind '$FIX/free_8tib/meminfo' /proc/meminfo && timeout -k 5 30 free -b" | row Mem:)"
else
	skip "byte comparison needs root, procps free and unshare -m (mount namespace)"
fi

# 8 TiB must print exactly (u64 all the way).
t=$("$PTK" free -b --procfs "$FIX/free_8tib" | row Mem: | awk '{ print $1 }')
note "ptk free -b total on 8 TiB fixture: $t"
[ "$t" = 8796093022208 ] && ok "8 TiB: -b total 8796093022208" || not_ok "8 TiB -b total: $t"
t=$("$PTK" free -k --procfs "$FIX/free_8tib" | row Mem: | awk '{ print $1 }')
[ "$t" = 8589934592 ] && ok "8 TiB: -k total 8589934592" || not_ok "8 TiB -k total: $t"
j=$("$PTK" free --json --procfs "$FIX/free_8tib" | python3 -c 'import json,sys; print(json.load(sys.stdin)["mem"]["total"])')
[ "$j" = 8796093022208 ] && ok "8 TiB: JSON total in bytes" || not_ok "8 TiB JSON total: $j"

# No MemAvailable (kernel < 3.14): the reader estimates it, never 0.
av=$("$PTK" free --procfs "$FIX/free_noavail" | row Mem: | awk '{ print $6 }')
mf=$(awk '/^MemFree:/ { print $2 }' "$FIX/free_noavail/meminfo")
note "no MemAvailable: ptk available $av kB, MemFree $mf kB"
if is_root && have free && unshare -m true 2>/dev/null; then
	note "procps free on it: $(unshare -m sh -c "mount --bind '$FIX/free_noavail/meminfo' /proc/meminfo && timeout -k 5 30 free" | row Mem:)"
fi
[ -n "$av" ] && [ "$av" -gt 0 ] && [ "$av" -ge "$mf" ] && ok "no MemAvailable: available estimated (> 0, >= MemFree)" ||
	not_ok "no MemAvailable: available '$av'"
jf=$("$PTK" free --json --procfs "$FIX/free_noavail" | python3 -c 'import json,sys; print(json.load(sys.stdin)["mem_available_estimated"])')
[ "$jf" = True ] && ok "JSON flags the estimate" || not_ok "mem_available_estimated: $jf"

# -L (procps 4.0.4; Debian 12's 4.0.2 has no -L): one line of the values free prints
l=$("$PTK" free -L --procfs "$FIX/free_highmem")
f=$("$PTK" free --procfs "$FIX/free_highmem")
note "free -L: $l"
exp=$(echo "$f" | awk '$1 == "Mem:" { u = $3; fr = $4; bc = $6 } $1 == "Swap:" { su = $3 }
	END { printf "SwapUse %11s CachUse %11s  MemUse %11s MemFree %11s \n", su, bc, u, fr }')
check "-L: SwapUse, CachUse, MemUse, MemFree of the Swap: and Mem: rows, on one line" test "$l" = "$exp"
n=$("$PTK" free -L -c 3 -s 0.1 | wc -l)
check "-L -c 3 -s 0.1: three lines, no blank lines" test "$n" -eq 3
l=$("$PTK" free -L -h --procfs "$FIX/free_highmem")
check "-L -h: human units ($l)" grep -Eq '^SwapUse +0B CachUse +1\.1Gi  MemUse +882Mi MemFree +1\.1Gi $' <<<"$l"

# -c and -s edge cases: procps free's messages (its "free: " prefix is ours "ptk free: ", it
# exits 1 where ptk exits 2 for a usage error)
if have free; then
	nd=0
	for bad in "-c 0" "-c -1" "-c abc" "-c 99999999999999999999" "-c 5x" "-c 1e3" "-c 0x10" \
		"-s 0" "-s -1" "-s -0" "-s abc" "-s 1e-7" "-s inf" "-s 0x1" "-s 1x" "-b -m"; do
		a=$(timeout -k 5 60 free $bad -s 0.01 -c 1 2>&1 >/dev/null | head -1 | sed 's/^free: //')
		b=$("$PTK" free $bad -s 0.01 -c 1 2>&1 >/dev/null | sed "s/^ptk free: //; s/ (try 'ptk free --help')\$//")
		[ "$a" = "$b" ] || { nd=$((nd + 1)); note "free $bad: procps '$a', ptk '$b'"; }
	done
	check "16 bad -c/-s arguments: procps free's words" test "$nd" -eq 0
	for ok_arg in "-c +1" "-c ' 1'" "-s 0.000001 -c 1" "-s ' 1' -c 1" "-s .5 -c 1"; do
		eval "\"\$PTK\" free $ok_arg" >/dev/null 2>&1
		rc=$?
		eval "timeout -k 5 60 free $ok_arg" >/dev/null 2>&1
		check "free $ok_arg accepted, as procps (rc $rc, procps $?)" test $rc -eq 0
	done
fi

# Bad input: MemAvailable and SwapFree above their totals make used, available, swap used and
# free unknown ("-", null), with a warning naming the file and the field; the rest is printed
o=$("$PTK" free -w -t --procfs "$FIX/free_implausible" 2>"$TMP/e")
rc=$?
note "$(echo "$o" | sed -n 2,4p | tr -s ' ')"
check_all "implausible fields: exit 0, used/available/swap used/free '-', the rest printed" \
	'[ "$rc" = 0 ] && [ "$(echo "$o" | awk "\$1 == \"Mem:\" { print \$2, \$3, \$4, \$8 }")" = "3106552 - 1204872 -" ] && [ "$(echo "$o" | awk "\$1 == \"Swap:\" { print \$2, \$3, \$4 }")" = "1046524 - -" ]'
check "implausible fields: one warning each, naming the file and the field" test \
	"$(grep -c "free_implausible/meminfo: \(MemAvailable 9999999 kB above MemTotal\|SwapFree 2000000 kB above SwapTotal\)" "$TMP/e")" -eq 2
"$PTK" free --json --procfs "$FIX/free_implausible" 2>/dev/null | python3 -c '
import json, sys; o = json.load(sys.stdin)
assert o["mem"]["used"] is None and o["mem"]["available"] is None and o["swap"]["free"] is None
assert o["mem"]["free"] == 1204872 * 1024' && ok "implausible fields: null in JSON, the others as read" || not_ok "implausible JSON"

# Errors: one line, exit 2.
for bad in "-x" "-s" "-s 0" "-s abc" "-c 0" "-b -m" "extra" "-c ''" "-s ''"; do
	eval "\"\$PTK\" free $bad" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	n=$(wc -l <"$TMP/e")
	[ $rc -eq 2 ] && [ "$n" -eq 1 ] && [ ! -s "$TMP/o" ] && ok "free $bad: exit 2, one line" ||
		not_ok "free $bad: exit $rc, $n lines: $(cat "$TMP/e")"
done

# JSON parses and agrees with /proc/meminfo (bytes).
"$PTK" free --json -w -t >"$TMP/j" && python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
mt = [int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal:")][0]
assert o["mem"]["total"] == mt * 1024, (o["mem"]["total"], mt)
for k in ("used", "free", "shared", "buffers", "cache", "available"):
    assert isinstance(o["mem"][k], int) and o["mem"][k] >= 0, k
assert o["total"]["total"] == o["mem"]["total"] + o["swap"]["total"]
print("# json mem.total", o["mem"]["total"], "= MemTotal", mt, "kB * 1024")
' "$TMP/j" && ok "--json parses, mem.total = MemTotal * 1024" || not_ok "--json: $(cat "$TMP/j")"

# -c 2 -s 0.2: two displays separated by one blank line, like procps.
"$PTK" free -c 2 -s 0.2 >"$TMP/r"
nh=$(grep -c '^ *total' "$TMP/r")
nb=$(grep -c '^$' "$TMP/r")
[ "$nh" -eq 2 ] && [ "$nb" -eq 1 ] && ok "-c 2 -s 0.2: two displays, one blank line" ||
	not_ok "-c 2 -s 0.2: $nh headers, $nb blank lines"
