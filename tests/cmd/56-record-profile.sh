#!/usr/bin/env bash
# Continuous profiling: ptk record --profile stores each interval's folded stacks in the
# archive and pushes them to a Pyroscope-style /ingest (folded) and as pprof to another
# URL; a small HTTP server here (127.0.0.1, a free port, bounded in time) checks what
# arrives. ptk flamegraph --db draws any window (--at, --from/--to) and --diff two.
. "$(dirname "$0")/lib.sh"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BDIR=${BUILD:-build}
case "$BDIR" in /*) ;; *) BDIR=$REPO/$BDIR ;; esac

if ! is_root; then skip "perf_event_open on all CPUs needs root"; exit 0; fi
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/burn" "$REPO/tests/progs/burn.c" || { skip "no C compiler"; exit 0; }

"$PTK" record --db "$TMP/x.db" --push http://127.0.0.1:1 -c 1 > /dev/null 2>&1
check "--push without --profile: usage error (exit 2)" [ $? = 2 ]
"$PTK" record --db "$TMP/x.db" --profile=0 -c 1 > /dev/null 2>&1
check "--profile=0: usage error (exit 2)" [ $? = 2 ]
"$PTK" record --db "$TMP/x.db" --profile --push https://example.invalid -c 1 > /dev/null 2>&1
check "--push https://: usage error (only http://)" [ $? = 2 ]

mkdir -p "$TMP/got"
cat > "$TMP/srv.py" <<'PY'
import http.server, os, sys, threading
out = sys.argv[1]
n = [0]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        n[0] += 1
        base = os.path.join(out, "%03d" % n[0])
        open(base + ".path", "w").write(self.path + "\n" + self.headers.get("Content-Type", "") + "\n")
        open(base + ".body", "wb").write(body)
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(os.path.join(out, "port"), "w").write(str(s.server_address[1]))
threading.Timer(60, s.shutdown).start()   # bounded: the server stops by itself
s.serve_forever()
PY
python3 "$TMP/srv.py" "$TMP/got" &
SRV=$!
for _ in $(seq 300); do [ -s "$TMP/got/port" ] && break; sleep 0.1; done # up to 30 s: python starts slowly on a busy machine
PORT=$(cat "$TMP/got/port" 2> /dev/null)
[ -n "$PORT" ] || { not_ok "the test HTTP server did not start"; kill $SRV; exit 0; }

"$TMP/burn" 6 > /dev/null &
BURN=$!
DB=$TMP/p.db
"$PTK" record -i 1 -c 5 --processes 0 --db "$DB" --profile \
	--push "http://127.0.0.1:$PORT" --push-pprof "http://127.0.0.1:$PORT/pprof" 2> "$TMP/rec.err"
rc=$?
kill $BURN 2> /dev/null
wait $BURN 2> /dev/null
kill $SRV 2> /dev/null
wait $SRV 2> /dev/null
sed 's/^/# /' "$TMP/rec.err"
check "ptk record --profile --push --push-pprof: exit 0" [ $rc = 0 ]
q() { sqlite3 "$DB" "$1" 2> /dev/null; }
nint=$(q "select count(distinct sample_id) from prof")
tot=$(q "select coalesce(sum(count), 0) from prof")
hz=$(q "select value from meta where key='profile_hz'")
note "archive: $nint intervals with a profile, $tot samples, profile_hz $hz, $(q 'select count(*) from stack') stacks"
check "4 intervals carry a profile (the first sample starts it)" [ "$nint" -ge 3 ]
check "19 Hz on 2 CPUs: 10..45 samples an interval ($tot in $nint)" awk -v t="$tot" -v n="$nint" 'BEGIN { exit !(n > 0 && t / n >= 10 && t / n <= 45) }'
check "the burn program is in the profile" [ "$(q "select count(*) from stack where stack like 'burn;%burn_%'")" -gt 0 ]

# Pyroscope ingest: one POST an interval, folded, its stacks those stored
ls "$TMP/got"/*.path > /dev/null 2>&1 || true
python3 - "$TMP/got" "$DB" > "$TMP/push.check" <<'PY'
import glob, gzip, os, sqlite3, sys, urllib.parse
d, db = sys.argv[1], sys.argv[2]
ing, pp, bad = [], [], []
for p in sorted(glob.glob(os.path.join(d, "*.path"))):
    path, ctype = open(p).read().split("\n")[:2]
    body = open(p[:-5] + ".body", "rb").read()
    u = urllib.parse.urlsplit(path)
    if u.path == "/ingest":
        q = dict(urllib.parse.parse_qsl(u.query))
        if q.get("format") != "folded" or q.get("sampleRate") != "19" or not q.get("name", "").startswith("ptk.cpu{host=") \
           or int(q["from"]) > int(q["until"]) or q.get("spyName") != "ptk":
            bad.append("query " + u.query)
        st = {}
        for line in body.decode().splitlines():
            k, c = line.rsplit(" ", 1)
            st[k] = st.get(k, 0) + int(c)
        ing.append((int(q["until"]), st))
    elif u.path == "/pprof":
        if body[:2] != b"\x1f\x8b":
            bad.append("pprof not gzip")
        else:
            gzip.decompress(body)
            pp.append(p[:-5] + ".body")
con = sqlite3.connect(db)
rows = con.execute("select p.sample_id, s.stack, p.count from prof p join stack s on s.id = p.stack order by p.sample_id").fetchall()
arc = {}
for sid, s, c in rows:
    arc.setdefault(sid, {})[s] = c
same = sorted(map(lambda x: sorted(x.items()), arc.values())) == sorted(map(lambda x: sorted(x[1].items()), ing))
print("ingest %d pprof %d archive_intervals %d same %s bad %d %s" % (len(ing), len(pp), len(arc), same, len(bad), ";".join(bad[:2])))
for f in pp:
    print("pprof_file " + f)
PY
note "pushes: $(head -1 "$TMP/push.check")"
check "a Pyroscope /ingest POST an interval, query as Pyroscope takes it (format=folded, sampleRate=19, name, from<=until)" \
	grep -q "^ingest $nint pprof $nint archive_intervals $nint same True bad 0" "$TMP/push.check"
GP=$BDIR/go-pprof/pprof
if [ -x "$GP" ]; then
	f=$(sed -n 's/^pprof_file //p' "$TMP/push.check" | head -1)
	t=$("$GP" -top -nodecount=1 -sample_index=samples "$f" 2> /dev/null | sed -n 's/.* of \([0-9]*\) total.*/\1/p')
	sid=$(q "select min(sample_id) from prof")
	w=$(q "select sum(count) from prof where sample_id=$sid")
	check "the first pprof push loads in Go's pprof with the interval's $w samples (got $t)" [ "$t" = "$w" ]
else
	skip "Go's pprof not built here (54-pprof builds it): the pushed pprof is only checked as gzip"
fi

# reading the archive back
sum=$("$PTK" flamegraph --db "$DB" --folded 2> /dev/null | awk '{ s += $NF } END { print s + 0 }')
check "flamegraph --db --folded: every interval ($sum of $tot samples)" [ "$sum" = "$tot" ]
last=$(q "select max(sample_id) from prof")
lastt=$(q "select t_ms from sample where id=$last")
lastn=$(q "select sum(count) from prof where sample_id=$last")
# the exact time: a whole second before it can be nearer the sample before (once 20 for 19)
lasts=$(awk -v t="$lastt" 'BEGIN { printf "%.3f", t / 1000 }')
at=$("$PTK" flamegraph --db "$DB" --at "@$lasts" --utc --folded 2> /dev/null | awk '{ s += $NF } END { print s + 0 }')
check "--at the last interval's time: that interval alone ($lastn samples, got $at)" [ "$at" = "$lastn" ]
first=$(q "select min(sample_id) from prof")
ft=$(q "select t_ms from sample where id=$first")
# the second interval against the last (the one --at found above), each at its own time:
# the first has no interval before it to start from, and on a busy machine the intervals are
# not a second apart, so "the second after the first" may hold none
sect=$(q "select t_ms from sample where id=(select distinct sample_id from prof order by sample_id limit 1 offset 1)")
# (at their exact times: a time picks the archive's nearest sample, and a whole second
# before an interval can be nearer the sample before it, which holds no profile)
"$PTK" flamegraph --db "$DB" --diff "@$(awk -v t="$sect" 'BEGIN { printf "%.3f", t / 1000 }')" \
	"@$(awk -v t="$lastt" 'BEGIN { printf "%.3f", t / 1000 }')" -o "$TMP/diff.svg" 2> "$TMP/diff.err"
check "--diff T FROM..TO: a differential SVG (red/blue frames) ($(head -c 200 "$TMP/diff.err"))" bash -c "grep -q 'differential' '$TMP/diff.svg' && grep -q 'fill=\"rgb(' '$TMP/diff.svg'"
"$PTK" flamegraph --db "$DB" --from "@1" --to "@2" --folded > /dev/null 2> "$TMP/empty.err"
rc=$?
check "an empty window: exit 1 with a reason ($(cat "$TMP/empty.err"))" [ $rc = 1 ]
"$PTK" flamegraph --at now --folded > /dev/null 2>&1
check "--at without --db: usage error" [ $? = 2 ]
