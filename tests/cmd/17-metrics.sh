#!/usr/bin/env bash
# ptk metrics: the registry listing in its three forms, against whatever entries the registry
# holds (none asserted by name): every entry has a key, a title and help; keys are unique; the
# text, JSON and man forms list the same metrics; patterns select by key, title or family.
. "$(dirname "$0")/lib.sh"

"$PTK" metrics >"$TMP/t.txt"
check "ptk metrics exits 0" [ $? -eq 0 ]
check "text: a header line first" grep -q '^KEY  *TITLE  *UNIT  *KIND  *PREC  *PROMETHEUS  *HELP$' <(head -1 "$TMP/t.txt")
"$PTK" metrics --json >"$TMP/j.txt"
check "--json exits 0" [ $? -eq 0 ]
"$PTK" metrics --man >"$TMP/m.txt"
check "--man exits 0" [ $? -eq 0 ]
n=$(wc -l <"$TMP/j.txt")
note "registry entries listed: $n"
python3 - "$TMP" "$(dirname "$0")/../unit/registry_shared.h" <<'PY' >"$TMP/py.out" 2>&1
import json, re, sys
d = sys.argv[1]
ms = [json.loads(l) for l in open(d + "/j.txt")]
bad = []
for m in ms:
    for f in ("key", "name", "help"):
        if not isinstance(m.get(f), str) or not m[f]:
            bad.append("%r: empty %s" % (m.get("key"), f))
    if m.get("kind") not in ("gauge", "counter", "rate", "pct"):
        bad.append("%r: kind %r" % (m["key"], m.get("kind")))
    if m.get("prom") is not None and not re.fullmatch(r"[a-zA-Z_:][a-zA-Z0-9_:]*", m["prom"]):
        bad.append("%r: Prometheus name %r" % (m["key"], m["prom"]))
keys = [m["key"] for m in ms]
# keys two entries still share are listed in tests/unit/registry_shared.h; no other may repeat
shared = set(re.findall(r'^\s*"([^"]+)",', open(sys.argv[2]).read(), re.M))
dup = sorted(set(k for k in keys if keys.count(k) > 1) - shared)
if dup:
    bad.append("duplicate keys: %s" % dup)
text = [l.split()[0] for l in open(d + "/t.txt").read().splitlines()[1:]]
if text != keys:
    bad.append("text keys %s != JSON keys %s" % (text[:5], keys[:5]))
man = open(d + "/m.txt").read().splitlines()
if man[:1] != [".TS"] or man[-1:] != [".TE"]:
    bad.append("man output is not one .TS/.TE block")
rows = [l.split("\t")[0].replace("\\-", "-").replace("\\&", "") for l in man if l.endswith("\tT{")]
if rows != keys:
    bad.append("man rows %s != JSON keys %s" % (rows[:5], keys[:5]))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
rc=$?
sed 's/^/# /' "$TMP/py.out"
check "every entry: non-empty key, title, help; known kind; valid Prometheus name; keys unique; text, JSON and man list the same keys" [ $rc -eq 0 ]
if have tbl && have groff; then
	# inside a page, as docs/man pages include it; the exporter's own ptk_* keys are up to 36
	# characters, so the page is set wide (-rLL) rather than 78 columns
	err=$({ printf '.TH PTK-METRICS 1\n.SH METRICS\n'; cat "$TMP/m.txt"; } |
		groff -t -man -Tutf8 -rLL=250n 2>&1 >/dev/null)
	check "--man output formats with tbl + groff without a warning${err:+: $err}" [ -z "$err" ]
else
	skip "tbl/groff not installed"
fi

if [ "$n" -gt 0 ]; then
	k=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["key"])' "$TMP/j.txt")
	"$PTK" metrics --json "$k" >"$TMP/one.txt"
	check "a key as pattern selects it ($k)" grep -q "\"key\":\"$k\"" "$TMP/one.txt"
	"$PTK" metrics --prom --json >"$TMP/p.txt"
	check "--prom lists only entries with a Prometheus family" \
		python3 -c 'import json,sys; assert all(json.loads(l)["prom"] for l in open(sys.argv[1]))' "$TMP/p.txt"
else
	skip "the registry is empty on this branch: no entry to select"
	skip "the registry is empty on this branch: no entry with a Prometheus family"
fi
"$PTK" metrics 'no-such-metric-*' >/dev/null 2>"$TMP/none.err"
rc=$?
check "a pattern matching nothing: exit 1 ($(cat "$TMP/none.err"))" [ $rc -eq 1 ]
"$PTK" metrics --json --man >/dev/null 2>&1
check "--json with --man: usage error, exit 2" [ $? -eq 2 ]
"$PTK" metrics --procfs /tmp >/dev/null 2>&1
check "--procfs: usage error, exit 2 (the registry is built in)" [ $? -eq 2 ]
"$PTK" metrics --help | grep -q -- '--man'
check "--help lists --man" [ $? -eq 0 ]
check "man page docs/man/ptk-metrics.1 exists" [ -f "$(dirname "$0")/../../docs/man/ptk-metrics.1" ]
