#!/usr/bin/env bash
# ptk pmap: on fixture trees (exact values), and against procps pmap on an idle helper process
# that maps a file whose name has spaces, a file under a 200+ character path, and a file it
# then deletes. Prerequisites for the live part: pmap (procps), python3.
. "$(dirname "$0")/lib.sh"

# ---- fixtures: exact values, totals are the sums of the rows ----
out=$("$PTK" pmap --procfs "$FIX/pmap_basic" -x 4242)
note "$(printf '%s\n' "$out" | sed -n '1p;$p')"
sums=$(printf '%s\n' "$out" | awk 'length($1) == 16 && $1 ~ /^[0-9a-f]+$/ { k += $2; r += $3; d += $4 } END { print k, r, d }')
tot=$(printf '%s\n' "$out" | awk '/^total kB/ { print $3, $4, $5 }')
note "fixture -x: row sums '$sums', total line '$tot'"
check "fixture -x total line = sums of the rows" [ "$sums" = "$tot" ]
check "fixture -x totals are 2320 2068 1096 kB" [ "$tot" = "2320 2068 1096" ]
check "fixture -x: path with spaces" grep -qx '00007efd4b410000     256     256     256 rw-s- file with spaces.bin' <<<"$out"
check "fixture -x: (deleted) path" grep -qx '00007efd4b450000      64      64      64 rw-s- gone soon.bin (deleted)' <<<"$out"
check "fixture -x: [stack] from stat startstack" grep -qx '00007ffc1b487000     132      20      12 rw---   \[ stack \]' <<<"$out"
check "fixture -x: [heap] is [ anon ] as pmap shows it" grep -qx '0000555d04273000     260     216     216 rw---   \[ anon \]' <<<"$out"
check "fixture -x: SysV shm" grep -q 'rw-s-   \[ shmid=0x8001 \]$' <<<"$out"
check "fixture -x: first line is PID and cmdline" [ "$(head -1 <<<"$out")" = "4242:   /usr/bin/my prog --flag two words" ]
long="libvery$(printf 'L%.0s' $(seq 80)).so.1"
check "fixture -x: 277-character path shows its whole file name" grep -q " $long\$" <<<"$out"
check "fixture -p: the whole long path" bash -c "'$PTK' pmap --procfs '$FIX/pmap_basic' -p 4242 | grep -q ' /opt/d\\{120\\}/e\\{60\\}/$long\$'"

# -X: the "=" footer totals equal the column sums
xo=$("$PTK" pmap --procfs "$FIX/pmap_basic" -X 4242)
xcheck=$(printf '%s\n' "$xo" | awk '
	NR == 2 { n = NF - 6 }                       # Address Perm Offset Device Inode <n> Mapping
	/^ *[0-9a-f]+ [-r][-w][-x][ps] / { for (i = 1; i <= n; i++) s[i] += $(5 + i) }
	/ KB $/ { for (i = 1; i <= n; i++) if (s[i] != $i) bad = bad " col" i "=" s[i] "/" $i }
	END { print n, (bad == "" ? "ok" : bad) }')
note "fixture -X: columns and footer check: $xcheck"
check "fixture -X footer totals = column sums" [ "$xcheck" = "16 ok" ]
check "fixture -X: kernel names [heap] [stack] [vdso] [vvar]" bash -c "printf '%s\n' '$xo' | grep -c ' \\[\\(heap\\|stack\\|vdso\\|vvar\\)\\]\$' | grep -qx 4"

# --json on the fixture
if have python3; then
	js=$("$PTK" pmap --procfs "$FIX/pmap_basic" --json 4242)
	res=$(python3 -c '
import json, sys
o = json.loads(sys.stdin.read())
keys = ["kbytes", "rss_kb", "pss_kb", "dirty_kb", "swap_kb"]
sums = [sum(m[k] for m in o["mappings"]) for k in keys]
tot = [o["total"][k] for k in keys]
names = [m["mapping"] for m in o["mappings"]]
print(o["pid"], len(o["mappings"]), sums == tot, *tot, "[ stack ]" in names, "gone soon.bin (deleted)" in names)
' <<<"$js")
	note "fixture --json: pid n sums==total kbytes rss pss dirty swap stack deleted: $res"
	check "fixture --json totals = sums of mappings" [ "$res" = "4242 13 True 2320 2068 1165 1096 56 True True" ]
else
	skip "python3 not installed: --json not parsed"
fi

# truncated smaps (process exited mid-read): the whole mappings, a warning, exit 0
tr=$("$PTK" pmap --procfs "$FIX/pmap_truncated" -x 100 2>"$TMP/err")
rc=$?
note "truncated: rc=$rc total: $(tail -1 <<<"$tr") stderr: $(cat "$TMP/err")"
check "truncated smaps: two whole mappings, totals 960 884 0" \
	[ "$rc" = 0 -a "$(tail -1 <<<"$tr")" = "total kB             960     884       0" ]
check "truncated smaps: one warning line" [ "$(wc -l <"$TMP/err")" = 1 ]

# usage errors: exit 2, one line
"$PTK" pmap -Z 1 >/dev/null 2>"$TMP/err"
rc=$?
check "bad option exits 2 with one line (rc=$rc)" [ "$rc" = 2 -a "$(wc -l <"$TMP/err")" = 1 ]
"$PTK" pmap -x -X 1 >/dev/null 2>"$TMP/err"
rc=$?
check "-x with -X exits 2 (rc=$rc)" [ "$rc" = 2 -a "$(wc -l <"$TMP/err")" = 1 ]
"$PTK" pmap 12ab >/dev/null 2>"$TMP/err"
rc=$?
check "invalid PID exits 2 (rc=$rc)" [ "$rc" = 2 ]
check "invalid PID: named, with pmap's usage line" grep -q "invalid PID '12ab': usage: ptk pmap \[options\] PID \[PID ...\]" "$TMP/err"
# no PID: procps's words ("pmap: argument missing" when options are given)
for o in "" -x; do
	"$PTK" pmap $o >/dev/null 2>"$TMP/err"
	rc=$?
	check "pmap $o without a PID: 'argument missing', one line, exit 2 (rc=$rc)" \
		[ "$rc" = 2 -a "$(wc -l <"$TMP/err")" = 1 -a -n "$(grep "ptk pmap: argument missing" "$TMP/err")" ]
done
if have pmap; then
	check "procps pmap -x without a PID says 'argument missing' too" grep -q "argument missing" <<<"$(timeout -k 5 60 pmap -x 2>&1)"
fi
# PIDs as procps reads them: strtoul base 0 (0x prefix), /proc/PID
o1=$("$PTK" pmap $$ | head -1)
o2=$("$PTK" pmap "$(printf '0x%x' $$)" | head -1)
o3=$("$PTK" pmap /proc/$$ | head -1)
check "PID $$ as 0x$(printf %x $$) and /proc/$$: the same process" [ "$o1" = "$o2" -a "$o1" = "$o3" -a -n "$o1" ]

# a PID that does not exist (pid_max itself is never used): one line, exit 1, and the
# other PIDs are still shown
nopid=$(cat /proc/sys/kernel/pid_max)
o=$("$PTK" pmap "$nopid" $$ 2>"$TMP/err")
rc=$?
note "missing pid $nopid: rc=$rc stderr: $(cat "$TMP/err")"
check "missing PID: exit 1, one stderr line" [ "$rc" = 1 -a "$(wc -l <"$TMP/err")" = 1 ]
check "missing PID: the next PID is still shown" grep -q "^$$: " <<<"$o"

# ---- live, against procps pmap ----
if ! have pmap || ! have python3; then
	skip "pmap (procps) or python3 not installed: no live comparison"
	exit 0
fi
D="$TMP/maps dir"
mkdir -p "$D"
cat >"$TMP/helper.py" <<'EOF'
import mmap, os, sys, time
d = sys.argv[1]
keep = []
def mapfile(path, size, write):
    with open(path, "wb") as f:
        f.write(b"x" * size)
    fd = os.open(path, os.O_RDWR)
    m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    os.close(fd)
    for off in range(0, size, 4096):
        if write:
            m[off] = 0x79
        else:
            _ = m[off]
    keep.append(m)
mapfile(os.path.join(d, "file with spaces.bin"), 64 * 4096, True)
longdir = os.path.join(d, "a" * 100, "b" * 100)
os.makedirs(longdir, exist_ok=True)
mapfile(os.path.join(longdir, "L" * 150 + ".bin"), 8 * 4096, False)
gone = os.path.join(d, "gone soon.bin")
mapfile(gone, 16 * 4096, True)
os.unlink(gone)
anon = mmap.mmap(-1, 32 * 4096, mmap.MAP_PRIVATE)
for off in range(0, 32 * 4096, 4096):
    anon[off] = 1
keep.append(anon)
print("ready", flush=True)
time.sleep(3600)
EOF
python3 "$TMP/helper.py" "$D" >"$TMP/ready" &
HP=$!
trap 'kill $HP 2>/dev/null; wait $HP 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 200); do
	grep -q ready "$TMP/ready" 2>/dev/null && break
	kill -0 $HP 2>/dev/null || break
	sleep 0.1
done
if ! grep -q ready "$TMP/ready"; then
	not_ok "helper process did not start"
	exit 0
fi
note "helper pid $HP"

# -x: total line and each row (address, kbytes, mode, mapping)
timeout -k 5 60 pmap -x $HP >"$TMP/px"
"$PTK" pmap -x $HP >"$TMP/tx"
pt=$(awk '/^total kB/ { print $3, $4, $5 }' "$TMP/px")
tt=$(awk '/^total kB/ { print $3, $4, $5 }' "$TMP/tx")
note "-x total kB (Kbytes RSS Dirty): pmap '$pt' ptk '$tt'"
check "-x total line Kbytes, RSS, Dirty equal pmap's" [ -n "$pt" -a "$pt" = "$tt" ]
rows() { sed -nE 's/^([0-9a-f]{16}) +([0-9]+) +[0-9-]+ +[0-9-]+ ([-rwxs]{5}) (.*)$/\1 \2 \3 \4/p' "$1"; }
rows "$TMP/px" >"$TMP/prow"
rows "$TMP/tx" >"$TMP/trow"
note "-x rows: pmap $(wc -l <"$TMP/prow") ptk $(wc -l <"$TMP/trow"); differing: $(diff "$TMP/prow" "$TMP/trow" | grep -c '^[<>]')"
check_all "-x rows match (address, kbytes, mode, mapping)" \
	'[ -s "$TMP/prow" ] && cmp -s "$TMP/prow" "$TMP/trow"'
check "-x: path with spaces shown" grep -q ' file with spaces.bin$' "$TMP/tx"
check "-x: deleted file shown as 'gone soon.bin (deleted)'" grep -q ' gone soon.bin (deleted)$' "$TMP/tx"
check "-x: whole long file name" grep -q " $(printf 'L%.0s' $(seq 150)).bin\$" "$TMP/tx"
sums=$(awk 'length($1) == 16 && $1 ~ /^[0-9a-f]+$/ { k += $2; r += $3; d += $4 } END { print k, r, d }' "$TMP/tx")
check "ptk -x total line = sums of its rows ($sums)" [ "$sums" = "$tt" ]

# default and -d: no resident counts, byte for byte
for f in "" -d -q -p; do
	timeout -k 5 60 pmap $f $HP >"$TMP/pd"
	"$PTK" pmap $f $HP >"$TMP/td"
	note "pmap $f: $(tail -1 "$TMP/pd") | ptk: $(tail -1 "$TMP/td")"
	check "pmap ${f:-(default)} output identical" cmp -s "$TMP/pd" "$TMP/td"
done

# -X and -XX: identical except Pss and the Shared_/Private_ split (they move when another
# process maps the same library pages: pmap itself links liblzma, ptk does not)
# and the long path, which pmap cuts at 127 characters
mask() { # file -> rows with those columns blanked, the long-path row ($LA) removed
	awk -v la="$LA" 'NR == 2 { for (i = 6; i < NF; i++) if ($i ~ /Pss|Shared_|Private_/) m[i] = 1 }
	     $1 == la { next }
	     / KB $/ { for (i in m) $(i - 5) = "P"; print; next }
	     NR > 2 && /^ *[0-9a-f]+ / { for (i in m) $i = "P" }
	     { print }' "$1"
}
LA=$(awk '/LLLLLLLLLL/ { print $1 }' "$TMP/tx" | sed 's/^0*//')
for f in -X -XX; do
	timeout -k 5 60 pmap $f $HP >"$TMP/pX"
	"$PTK" pmap $f $HP >"$TMP/tX"
	mask "$TMP/pX" >"$TMP/pXm"
	mask "$TMP/tX" >"$TMP/tXm"
	note "pmap $f: $(wc -l <"$TMP/pX") lines, ptk: $(wc -l <"$TMP/tX"); differing after masking: $(diff "$TMP/pXm" "$TMP/tXm" | grep -c '^[<>]')"
	check "pmap $f identical but for Pss, Shared_/Private_, long path" cmp -s "$TMP/pXm" "$TMP/tXm"
done
check "-X shows the whole long file name (pmap cuts it)" grep -q " $(printf 'L%.0s' $(seq 150)).bin\$" "$TMP/tX"

# --json: parses, totals = sums of mappings = pmap -x total line
js=$("$PTK" pmap --json $HP)
res=$(python3 -c '
import json, sys
o = json.loads(sys.stdin.read())
keys = ["kbytes", "rss_kb", "pss_kb", "dirty_kb", "swap_kb"]
sums = [sum(m[k] for m in o["mappings"]) for k in keys]
tot = [o["total"][k] for k in keys]
print(sums == tot, o["total"]["kbytes"], o["total"]["rss_kb"], o["total"]["dirty_kb"])
' <<<"$js")
note "--json: sums==total kbytes rss dirty: $res; pmap -x: $pt"
check "--json totals = sums of its mappings" [ "${res%% *}" = True ]
check "--json totals = pmap -x total line" [ "${res#* }" = "$pt" ]

# a process we may not read: say so, not zeros
if is_root && have setpriv && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$PTK"; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PTK" pmap -x $HP >"$TMP/eo" 2>"$TMP/err"
	rc=$?
	note "as nobody: rc=$rc stderr: $(cat "$TMP/err") stdout lines: $(wc -l <"$TMP/eo")"
	check_all "unreadable smaps: exit 1, 'Permission denied', no rows" \
		'[ "$rc" = 1 ] && [ ! -s "$TMP/eo" ] && grep -q "Permission denied" "$TMP/err"'
else
	skip "needs root, setpriv and a ptk binary user nobody may run: EACCES not tested"
fi
