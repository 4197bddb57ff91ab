#!/usr/bin/env bash
# ptk ltrace: a program's library calls (uprobes on its PLT) next to ltrace(1) on the same
# deterministic workload, one after the other (both at once would put two breakpoints on one
# PLT slot): -c's calls per function are the same, and the trace lines are ltrace's, with
# pointers masked (ASLR), first calls included: a string on a page the program has not
# touched yet (which a uprobe cannot fault in) is read again from the process's memory, as
# ltrace reads it through ptrace; one on no page at all shows its address, as strace's does
# (ltrace 0.7 prints "" for it, as it does for an empty string).
. "$(dirname "$0")/lib.sh"
is_root || { skip "ltrace needs root (BPF, uprobes)"; exit 0; }
have cc || { skip "no C compiler for the workload"; exit 0; }
cat > "$TMP/l.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
	char buf[64];
	for (int i = 0; i < 40; i++) {
		snprintf(buf, sizeof buf, "item %d", i);
		char *volatile p = malloc(32 + i);
		strcpy(p, buf);
		if (i % 8 == 0)
			puts(p);
		free(p);
	}
	/* alive a while after its calls, with no library call: a string the probe could not
	 * read is read again from the process, which must still be there when ptk gets the
	 * event (under load the exit came first: the format shown as its address) */
	for (volatile long k = 0; k < 300000000; k++)
		;
	return 0;
}
EOF
cc -O1 -g -o "$TMP/l" "$TMP/l.c" || { not_ok "build the workload"; exit 0; }
"$PTK" ltrace -c -o "$TMP/pc.txt" "$TMP/l" > /dev/null 2> "$TMP/pc.err"; prc=$?
"$PTK" ltrace -s 32 -o "$TMP/pt.txt" "$TMP/l" > /dev/null 2> "$TMP/pt.err"; trc=$?
counts() { awk '/^-----/ { n++; next } n == 1 && NF == 5 { print $5, $4 }' "$1" | sort; }
mask() { sed -E 's/0x[0-9a-f]{6,}/ADDR/g; s/  +/ /g' "$1" | grep -v '^+++'; }
ours=$(counts "$TMP/pc.txt")
note "ptk ltrace -c (exit $prc): $(echo $ours)"
check_all "ltrace -c: the calls the workload makes (snprintf, malloc, strcpy, free 40 each, puts 5)" \
	'[ $prc -eq 0 ] && [ "$(echo $ours)" = "free 40 malloc 40 puts 5 snprintf 40 strcpy 40" ]'
if have ltrace; then
	timeout -k 5 60 ltrace -c -o "$TMP/lc.txt" "$TMP/l" > /dev/null 2>&1
	timeout -k 5 60 ltrace -s 32 -o "$TMP/lt.txt" "$TMP/l" > /dev/null 2>&1
	theirs=$(counts "$TMP/lc.txt")
	note "ltrace -c: $(echo $theirs)"
	check "ltrace -c: the same calls per function as ltrace's" [ "$ours" = "$theirs" ]
	mask "$TMP/pt.txt" > "$TMP/pm.txt"; mask "$TMP/lt.txt" > "$TMP/lm.txt"
	dif=$(diff "$TMP/lm.txt" "$TMP/pm.txt" | head -6)
	note "trace lines compared (ptk exit $trc): $(wc -l < "$TMP/pm.txt") ptk, $(wc -l < "$TMP/lm.txt") ltrace${dif:+; first differences: $dif}"
	check_all "ltrace: each call's line as ltrace prints it (pointers masked)" \
		'[ $trc -eq 0 ] && [ -z "$dif" ] && [ "$(wc -l < "$TMP/pm.txt")" -ge 150 ]'
	check "ltrace: the exit line, as ltrace's" \
		bash -c "grep -q '^+++ exited (status 0) +++$' '$TMP/pt.txt' && grep -q '^+++ exited (status 0) +++$' '$TMP/lt.txt'"
else
	skip "ltrace not installed: no side-by-side"
fi
# -e: only the functions named
"$PTK" ltrace -e 'puts+free' -o "$TMP/pe.txt" "$TMP/l" > /dev/null 2>&1
check_all "ltrace -e puts+free: only those ($(grep -c '^puts(' "$TMP/pe.txt") puts, $(grep -c '^free(' "$TMP/pe.txt") free)" \
	'[ "$(grep -c "^puts(" "$TMP/pe.txt")" = 5 ] && [ "$(grep -c "^free(" "$TMP/pe.txt")" = 40 ] && ! grep -q "^malloc(" "$TMP/pe.txt"'
# a string in a file's page mapped and never touched before puts() reads it; access() of an
# address where nothing is mapped (it fails with EFAULT). The string is read again after the
# event, from the process: it stays a second (a process gone by then shows the address).
cat > "$TMP/u.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int fd = open(argv[1], O_RDONLY);
	char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	puts(p);
	int rc = access((char *)0x10000, 0) == 0;
	sleep(1);
	return rc;
}
EOF
printf 'on an untouched page\0' > "$TMP/u.txt"
if cc -O1 -o "$TMP/u" "$TMP/u.c"; then
	"$PTK" ltrace -e puts+access -o "$TMP/pu.txt" "$TMP/u" "$TMP/u.txt" > /dev/null 2>&1
	note "ptk ltrace on an untouched page: $(grep -E '^(puts|access)\(' "$TMP/pu.txt" | tr -s ' ' | paste -sd ';')"
	check "ltrace: a string on a page not yet touched is read (not \"\")" \
		grep -q '^puts("on an untouched page") ' "$TMP/pu.txt"
	check "ltrace: an unreadable string shows its address, as strace does" \
		grep -q '^access(0x10000, 0) ' "$TMP/pu.txt"
else
	not_ok "build the untouched-page workload"
fi
for args in "" "-s x $TMP/l" "-p 999999999"; do
	"$PTK" ltrace $args > /dev/null 2> "$TMP/e.err"; rc=$?
	note "ptk ltrace $args -> exit $rc: $(head -1 "$TMP/e.err")"
	check "ptk ltrace $args: an error in one line, exit 1 or 2" \
		test \( $rc -eq 1 -o $rc -eq 2 \) -a "$(wc -l < "$TMP/e.err")" -le 2
done
echo "1..$T_N"
