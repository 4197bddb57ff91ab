#!/usr/bin/env bash
# ptk top interactive (ncursesw) in a detached tmux pane at 80x24: meters and header drawn,
# sort by %MEM ('M'), tree ('t'), filter ('\' string Enter: only matching rows remain), a
# resize to 100x30 redraws at the new width, 'q' quits and no ptk process remains.
. "$(dirname "$0")/lib.sh"

if ! have tmux; then
	skip "tmux not installed"
	exit 0
fi
S=ptktop$$
# a private tmux server on a socket of this run's own (not the shared /tmp/tmux-UID), no config
tmux() { command tmux -S "$TMP/tmux.sock" -f /dev/null "$@"; }
# a process with a distinctive name for the filter
cp "$(command -v sleep)" "$TMP/ptkfiltzz"
"$TMP/ptkfiltzz" 300 &
FZ=$!
trap 'tmux kill-server 2>/dev/null; kill $FZ 2>/dev/null; wait $FZ 2>/dev/null; rm -rf "$TMP"' EXIT

# the pane runs ptk top, then prints its exit status and stays: a ptk that ends early leaves
# its last screen and status to read, and a test that waits sees it
start() {
	tmux new-session -d -s $S -x 80 -y 24 "TERM=xterm-256color $PTK top -d 1; echo ptk-exit rc=\$?; sleep 600"
}
cap() { tmux capture-pane -p -t $S; }
# waitfor REGEX [SECONDS]: until the screen shows it (default up to 20 s: a busy machine is slow
# to start the sanitizer build and to redraw)
waitfor() {
	local i
	for i in $(seq $((${2:-20} * 10))); do cap | grep -q -- "$1" && return 0; sleep 0.1; done
	return 1
}
# until COMMAND (a shell condition on the screen in $TMP/cur) holds, up to 20 s
until_screen() {
	local i
	for i in $(seq 200); do
		cap > "$TMP/cur"
		eval "$1" && return 0
		sleep 0.1
	done
	return 1
}
# the ptk process in the pane (the child of the pane's shell)
ptk_pid() { pgrep -P "$(tmux display -p -t $S '#{pane_pid}')" -x ptk; }

start
waitfor 'PID USER' && ok "header row drawn" || { not_ok "no header row"; cap | sed 's/^/# /'; }
# the meters fill on the second frame (they need an interval)
until_screen "grep -q 'forks/s' \"\$TMP/cur\" && grep -q 'ptk cost [0-9.]*% CPU' \"\$TMP/cur\""
cap > "$TMP/s0"
sed 's/^/# /' "$TMP/s0" | head -10
grep -q '^ *0\[' "$TMP/s0" && grep -q 'Mem\[' "$TMP/s0" && grep -q 'Swp\[' "$TMP/s0" &&
	grep -q '|us' "$TMP/s0" && grep -q 'Load' "$TMP/s0" && grep -q 'PSI some avg10' "$TMP/s0" &&
	grep -q 'forks/s' "$TMP/s0" && ok "meters: CPU bars with legend, Mem, Swp, load, tasks, PSI" ||
	not_ok "meters missing"
grep -q 'ptk cost [0-9.]*% CPU' "$TMP/s0" && ok "status line shows the observer cost" ||
	not_ok "no observer cost"
w=$(awk 'length($0) > 80' "$TMP/s0" | wc -l)
[ "$w" -eq 0 ] && ok "fits 80 columns" || not_ok "$w lines wider than 80"

# rows of the list: lines after the header row
rows() { awk 'f { print } /PID USER/ { f = 1 }' | sed '$d'; }

# 'M': the rows sorted by %MEM, high to low, the largest of the first screen (or more) on top
maxmem=$(rows < "$TMP/s0" | awk 'NF >= 12 && $10 + 0 > m { m = $10 + 0 } END { print m + 0 }')
sorted_mem() {
	rows < "$TMP/cur" > "$TMP/m"
	awk -v mx="$maxmem" 'NF >= 12 { if (n++ && $10 + 0 > prev + 0.0001) bad = 1; if (n == 1 && $10 + 0 < mx) bad = 1; prev = $10 }
		END { exit bad || n < 5 }' "$TMP/m"
}
tmux send-keys -t $S M
until_screen sorted_mem &&
	ok "'M' sorts by %MEM (top row: $(head -1 "$TMP/m" | awk '{print $10, $12}'))" ||
	{ not_ok "'M' order"; sed 's/^/# /' "$TMP/m" | head; }

tmux send-keys -t $S t
until_screen "rows < \"\$TMP/cur\" | grep -q -- '[|\`]- '" && ok "'t' tree view draws branches" ||
	{ not_ok "'t' no tree"; rows < "$TMP/cur" | sed 's/^/# /' | head; }
tmux send-keys -t $S t

# 'g' PATH Enter: only the tasks of that cgroup and below; Escape at the prompt: all again
if [ -f /sys/fs/cgroup/unified/cgroup.controllers ]; then V2=/sys/fs/cgroup/unified
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then V2=/sys/fs/cgroup
else V2=; fi
if is_root && [ -n "$V2" ] && mkdir "$V2/ptk-test-tui$$" 2>/dev/null; then
	CG="$V2/ptk-test-tui$$"
	(echo $BASHPID > "$CG/cgroup.procs"; exec sleep 300) &
	GIN=$!
	trap 'tmux kill-server 2>/dev/null; kill $FZ $GIN 2>/dev/null; wait $FZ $GIN 2>/dev/null; rmdir "$CG" 2>/dev/null; rm -rf "$TMP"' EXIT
	sleep 0.2
	tmux send-keys -t $S g
	sleep 0.3
	tmux send-keys -t $S "/ptk-test-tui$$" Enter
	until_screen "grep -q '1/[0-9]* rows cgroup:/ptk-test-tui$$' \"\$TMP/cur\""
	cap > "$TMP/g"
	rows < "$TMP/g" | grep -v '^ *$' > "$TMP/gr"
	note "cgroup /ptk-test-tui$$: $(wc -l < "$TMP/gr") rows: $(head -3 "$TMP/gr" | tr -s ' ')"
	[ "$(wc -l < "$TMP/gr")" -eq 1 ] && grep -q "^ *$GIN .* sleep" "$TMP/gr" &&
		grep -q "1/[0-9]* rows cgroup:/ptk-test-tui$$" "$TMP/g" &&
		ok "'g' cgroup: only its task remains, the status line names the cgroup" ||
		{ not_ok "'g' cgroup"; sed 's/^/# /' "$TMP/g"; }
	tmux send-keys -t $S g
	sleep 0.3
	tmux send-keys -t $S Escape
	until_screen "! grep -q 'cgroup:/' \"\$TMP/cur\" && [ \$(rows < \"\$TMP/cur\" | grep -cv '^ *\$') -gt 5 ]"
	n=$(cap | rows | grep -cv '^ *$')
	[ "$n" -gt 5 ] && ! cap | grep -q 'cgroup:/' && ok "'g' Escape: every task again ($n rows)" ||
		not_ok "'g' Escape: $n rows"
else
	skip "'g' cgroup: needs root and a cgroup v2 tree"
fi

# filter: only the matching row(s) remain
tmux send-keys -t $S '\'
sleep 0.3
tmux send-keys -t $S ptkfiltzz Enter
filtered() {
	rows < "$TMP/cur" | grep -v '^ *$' > "$TMP/f"
	n=$(wc -l < "$TMP/f")
	m=$(grep -c ptkfiltzz "$TMP/f")
	[ "$n" -ge 1 ] && [ "$n" -eq "$m" ] && grep -q "^ *$FZ " "$TMP/f"
}
until_screen filtered
note "filter ptkfiltzz: $n rows, $m matching"
filtered && ok "filter: only the matching row(s) remain ($n)" || { not_ok "filter: $n rows, $m match"; sed 's/^/# /' "$TMP/f"; }

tmux resize-window -t $S -x 100 -y 30 2>/dev/null || tmux resize-pane -t $S -x 100 -y 30
bar() { grep -m1 '^ *0\[' "$1" | awk '{ print length($0) }'; }
until_screen '[ "$(bar "$TMP/cur")" -gt 80 ] 2>/dev/null && [ "$(wc -l < "$TMP/cur")" -ge 29 ]'
cap > "$TMP/s1"
l0=$(bar "$TMP/s0") l1=$(bar "$TMP/s1")
h=$(wc -l < "$TMP/s1")
note "CPU bar width: $l0 at 80 columns, $l1 at 100; $h lines"
[ "$l0" -le 80 ] && [ "$l1" -gt 80 ] && [ "$l1" -le 100 ] && [ "$h" -ge 29 ] &&
	ok "resize to 100x30 redraws at the new size" || not_ok "resize: bar $l0 -> $l1, $h lines"

P=$(ptk_pid)
[ -n "$P" ] && ok "ptk top still running before 'q' (pid $P)" || not_ok "ptk top ended early: $(cap | grep ptk-exit)"
tmux send-keys -t $S q
waitfor 'ptk-exit rc=' && rc=$(cap | sed -n 's/.*ptk-exit rc=\([0-9]*\).*/\1/p')
check "'q' quits: ptk top exits with 0 (${rc:-still running})" [ "${rc:-x}" = 0 ]
check_all "no ptk top process remains (pid $P)" '[ -n "$P" ] && ! kill -0 "$P" 2>/dev/null'

# SIGTERM restores the terminal and exits too
tmux kill-session -t $S 2>/dev/null
start
waitfor 'PID USER' >/dev/null
P=$(ptk_pid)
[ -n "$P" ] && kill -TERM "$P"
waitfor 'ptk-exit rc=' && ok "SIGTERM: ptk top exits ($(cap | grep -o 'rc=[0-9]*'))" || not_ok "SIGTERM did not end ptk top (pid ${P:-none})"
tmux kill-session -t $S 2>/dev/null
