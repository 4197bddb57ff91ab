#!/usr/bin/env bash
# ptk memleak -p: a process's outstanding allocations by stack, next to bpftrace on the same
# process and window (uprobes on its C library's malloc, calloc and free: the objects still
# live when it stops) and the workload's own numbers: 50 blocks of 1000 bytes kept by keep(),
# 20 of 4 x 256 (calloc) by keep_c(), 50 of 300 freed again (never outstanding). -a shows each
# object's address: the same set as bpftrace's. -o AGE leaves out the younger ones.
# libbpf-tools memleak is not in Debian's libbpf-tools (0.26): bpftrace is the anchor.
. "$(dirname "$0")/lib.sh"
is_root || { skip "memleak needs root (BPF, uprobes)"; exit 0; }
have cc || { skip "no C compiler for the workload"; exit 0; }
cat > "$TMP/m.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* m GOFILE: waits for GOFILE, then keeps 50 x 1000 (malloc) and 20 x 1024 (calloc) bytes,
 * frees 50 x 300, and sleeps */
__attribute__((noinline)) void *keep(size_t n) { void *p = malloc(n); memset(p, 1, n); return p; }
__attribute__((noinline)) void *keep_c(size_t n) { return calloc(4, n / 4); }
void *kept[70];
int main(int argc, char **argv)
{
	while (access(argv[1], F_OK))
		usleep(10000);
	for (int i = 0; i < 50; i++) {
		kept[i] = keep(1000);
		free(malloc(300));
	}
	for (int i = 0; i < 20; i++)
		kept[50 + i] = keep_c(1024);
	for (;;)
		pause();
}
EOF
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/m" "$TMP/m.c" || { not_ok "build the workload"; exit 0; }
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"; }
trap cleanup EXIT
"$TMP/m" "$TMP/go" & M=$!; PIDS+=($M)
sleep 0.2
LIBC=$(awk '$6 ~ /\/libc\.so/ { print $6; exit }' /proc/$M/maps)
"$PTK" memleak -a -p $M 1 > "$TMP/p.txt" 2> "$TMP/p.err" & A=$!; PIDS+=($A)
if have bpftrace; then
	timeout -k 5 60 bpftrace -e "
uprobe:$LIBC:malloc /pid == $M/ { @sz[tid] = arg0; }
uprobe:$LIBC:calloc /pid == $M/ { @sz[tid] = arg0 * arg1; }
uretprobe:$LIBC:malloc, uretprobe:$LIBC:calloc /pid == $M && @sz[tid]/ { @live[retval] = @sz[tid]; delete(@sz[tid]); }
uprobe:$LIBC:free /pid == $M/ { delete(@live[arg0]); }
END { clear(@sz); }" > "$TMP/bt.txt" 2> "$TMP/bt.err" & BT=$!; PIDS+=($BT)
	BTC=$(child_of $BT)
fi
bpf_attached $A || note "ptk memleak not seen attached: $(head -c 200 "$TMP/p.err")"
[ -n "${BT:-}" ] && { bpf_attached $BTC || note "bpftrace not seen attached: $(head -c 200 "$TMP/bt.err")"; }
touch "$TMP/go"
sleep 3.5 # the allocations, then at least two reports
kill -INT $A ${BT:-}
wait $A; rc=$?
[ -n "${BT:-}" ] && wait $BT
# ptk's last full report: per stack bytes, allocations, whether keep or keep_c made it, addrs
python3 - "$TMP/p.txt" > "$TMP/p.sum" <<'EOF'
import re, sys
blocks, cur = [], None
for line in open(sys.argv[1]):
    if re.match(r"^\[\d+:\d+:\d+\] Top \d+ stacks", line):
        cur = []; blocks.append(cur); continue
    m = re.match(r"^(\d+) bytes in (\d+) allocations from stack", line)
    if m and cur is not None:
        cur.append({"bytes": int(m.group(1)), "n": int(m.group(2)), "frames": [], "addrs": []}); continue
    m = re.match(r"^\taddr = (0x[0-9a-f]+) size = (\d+)", line)
    if m and cur:
        cur[-1]["addrs"].append((int(m.group(1), 16), int(m.group(2)))); continue
    m = re.match(r"^\t\d+ \[<[0-9a-f]+>\] (\S+)", line)
    if m and cur:
        cur[-1]["frames"].append(m.group(1).split("+")[0])
last = blocks[-1] if blocks else []
def by(fn):
    rows = [r for r in last if fn in r["frames"]]
    return sum(r["bytes"] for r in rows), sum(r["n"] for r in rows)
print("keep", *by("keep"))
print("keep_c", *by("keep_c"))
print("total", sum(r["bytes"] for r in last), sum(r["n"] for r in last))
print("addrs", " ".join(f"{a:x}:{s}" for r in last for a, s in sorted(r["addrs"])))
EOF
read -r _ kb kn < <(grep '^keep ' "$TMP/p.sum")
read -r _ cb cn < <(grep '^keep_c ' "$TMP/p.sum")
read -r _ tb tn < <(grep '^total ' "$TMP/p.sum")
note "ptk memleak (exit $rc): keep() $kb bytes in $kn, keep_c() $cb bytes in $cn, all stacks $tb bytes in $tn"
check_all "memleak -p: keep()'s 50 x 1000 and keep_c()'s 20 x 1024 outstanding, the freed ones not" \
	'[ $rc -eq 0 ] && [ "$kb $kn" = "50000 50" ] && [ "$cb $cn" = "20480 20" ]'
if [ -n "${BT:-}" ]; then
	theirs=$(sed -n 's/^@live\[\([0-9]*\)\]: \([0-9]*\)$/\1 \2/p' "$TMP/bt.txt" |
		awk '{ printf "%x:%s\n", $1, $2 }' | sort)
	ours=$(sed -n 's/^addrs //p' "$TMP/p.sum" | tr ' ' '\n' | grep . | sort)
	bt_n=$(echo "$theirs" | grep -c .); bt_b=$(echo "$theirs" | awk -F: '{ s += $2 } END { print s + 0 }')
	note "bpftrace: $bt_n objects outstanding, $bt_b bytes; ptk: $tn, $tb bytes"
	check_all "memleak -p: the outstanding objects, their count and bytes, as bpftrace's @live has them" \
		'[ "$bt_n" = "$tn" ] && [ "$bt_b" = "$tb" ] && [ "$theirs" = "$ours" ] && [ "$bt_n" -ge 70 ]'
else
	skip "bpftrace not installed: no side-by-side for memleak"
fi
check "memleak: libbpf-tools' layout (Top N stacks, N bytes in N allocations from stack)" \
	grep -q '^[0-9]* bytes in [0-9]* allocations from stack$' "$TMP/p.txt"
# -o: allocations older than 60 s: none
"$PTK" memleak -p $M -o 60000 1 1 > "$TMP/o.txt" 2> "$TMP/o.err"; rc=$?
check_all "memleak -o 60000: no allocation is that old (exit $rc, $(grep -c 'bytes in' "$TMP/o.txt") stacks)" \
	'[ $rc -eq 0 ] && grep -q "Top 0 stacks" "$TMP/o.txt" && ! grep -q "bytes in" "$TMP/o.txt"'
# the kernel's: kmem tracepoints, a report with kernel stacks
"$PTK" memleak -T 3 1 1 > "$TMP/k.txt" 2> "$TMP/k.err"; rc=$?
check_all "memleak (kernel): one report of at most 3 stacks, each with frames (exit $rc)" \
	'[ $rc -eq 0 ] && [ "$(grep -c "bytes in" "$TMP/k.txt")" -ge 1 ] && [ "$(grep -c "bytes in" "$TMP/k.txt")" -le 3 ] && grep -q "^	0 \[<" "$TMP/k.txt"'
# bad input: one line, exit 2
for args in "-p $M -z 10 -Z 5" "-p $M -c true" "-T 0" "-o x"; do
	"$PTK" memleak $args 1 1 > /dev/null 2> "$TMP/e.err"; rc=$?
	note "ptk memleak $args -> exit $rc: $(head -1 "$TMP/e.err")"
	check "ptk memleak $args: usage error, one line" test $rc -eq 2 -a "$(wc -l < "$TMP/e.err")" -le 2
done
echo "1..$T_N"
