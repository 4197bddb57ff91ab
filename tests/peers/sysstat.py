#!/usr/bin/env python3
"""sysstat's own test cases (../shared/peers/sysstat) replayed through ptk.

Usage: sysstat.py PTK PEERS_DIR [FILTER]   (TAP on stdout, a tally at the end)

Each case of cases.json names a tool (mpstat, iostat, pidstat, sar), its arguments and
environment, and the fake machines it read: sample k reads roots[k]. ptk reads the same trees
as a replay (--procfs DIR whose k/ is roots[k]/proc, --sysfs DIR whose k/ is roots[k]/sys), so
sample k reads roots[k] too and nothing sleeps.

Kinds: compare (the output equals sysstat's expected file after the normalisation the peers'
README allows: the time of day that starts report lines, the banner's date and iostat -t's
date line, -H's epoch seconds and -o JSON's "timestamp" and "date" are compared by format,
not digits, because sysstat's test clock is fixed and a replay's is the trees' btime +
uptime), usage-error (a non-zero exit), json-verify (valid
JSON in sysstat's layout: {"sysstat": {"hosts": [...]}}), error-message (non-zero exit and a
message on stderr).

A case that does not pass is "not ok" unless tests/peers/sysstat-known.txt lists it with a
one-line reason (TEST-NUMBER REASON); a listed case that passes is reported so the entry can
go. A case killed by a signal or with a sanitizer's report is "not ok" even when listed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PTK, PEERS = os.path.abspath(sys.argv[1]), sys.argv[2]
FILTER = sys.argv[3] if len(sys.argv) > 3 else ""
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(PEERS, "sysstat")
TREES = os.path.join(SRC, "trees")


def load_known():
    known = {}
    path = os.path.join(HERE, "sysstat-known.txt")
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#"):
                num, _, why = line.partition(" ")
                known[num] = why.strip()
    return known


# ---- normalisation ------------------------------------------------------------------------
TIME = re.compile(r"^(\d\d:\d\d:\d\d)( [AP]M)?(?=\s)")
DATES = [
    (re.compile(r"\b\d\d/\d\d/\d\d(\d\d)?\b"), "<date>"),  # 06/01/20, 06/01/2020
    (re.compile(r"\b\d{4}-\d\d-\d\d\b"), "<date>"),  # ISO
    (re.compile(r"\b\d\d:\d\d:\d\d( [AP]M)?\b"), "<time>"),
]


EPOCH = re.compile(r"^\d{9,11}(?= )")  # -H: seconds since the epoch start the line
JSON_CLOCK = re.compile(r'^(\s*"(timestamp|date)": )"[^"]*"')


def normalise(text):
    """The time of day that starts a report line, and dates and times in banner and -t
    lines, by format: HH:MM:SS stays HH:MM:SS (with its AM/PM), digits do not count. The
    same clock in -H's epoch seconds and in -o JSON's "timestamp" and "date"."""
    out = []
    for line in text.splitlines():
        m = TIME.match(line)
        if m:
            line = "<time>" + (m.group(2) or "") + line[m.end():]
        line = EPOCH.sub("<epoch>", line)
        m = JSON_CLOCK.match(line)
        if m:
            line = m.group(1) + '"<%s>"' % m.group(2) + line[m.end():]
        if line.startswith("Linux ") or re.match(r"^\d\d/\d\d/\d\d(\d\d)? ", line) or \
                re.match(r"^\d{4}-\d\d-\d\d", line):
            for rx, rep in DATES:
                line = rx.sub(rep, line)
        out.append(line.rstrip())
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def first_diff(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else "<none>"
        y = bl[i] if i < len(bl) else "<none>"
        if x != y:
            return i + 1, x, y
    return None


def json_layout_ok(text):
    try:
        doc = json.loads(text)
    except ValueError as e:
        return False, "not JSON: %s" % e
    hosts = doc.get("sysstat", {}).get("hosts") if isinstance(doc, dict) else None
    if not isinstance(hosts, list) or not hosts:
        return False, 'no {"sysstat": {"hosts": [...]}}'
    for h in hosts:
        for k in ("nodename", "sysname", "release", "machine"):
            if k not in h:
                return False, "host without %r" % k
    return True, ""


# ---- running one case ---------------------------------------------------------------------
def replay_dir(tmp, roots, sub):
    """A replay of each root's sub ("proc", "my_stats"): DIR/k is roots[k]/sub. None when the
    first root has no such directory."""
    if not os.path.isdir(os.path.join(TREES, roots[0], sub)):
        return None
    d = os.path.join(tmp, "r-" + sub.replace("/", "_"))
    os.makedirs(d)
    for k, r in enumerate(roots):
        if os.path.isdir(os.path.join(TREES, r, sub)):
            os.symlink(os.path.join(TREES, r, sub), os.path.join(d, str(k)))
    return d


def replay_dirs(tmp, roots):
    pdir, sdir = os.path.join(tmp, "proc"), os.path.join(tmp, "sys")
    os.makedirs(pdir)
    os.makedirs(sdir)
    for k, r in enumerate(roots):
        os.symlink(os.path.join(TREES, r, "proc"), os.path.join(pdir, str(k)))
        if os.path.isdir(os.path.join(TREES, r, "sys")):
            os.symlink(os.path.join(TREES, r, "sys"), os.path.join(sdir, str(k)))
    return pdir, sdir


def tree_arg(tmp, roots, a):
    """sysstat's tests name files of its current root as tests/root/X (a link to rootN that
    moves on at each interval): ours is a replay of X (k/ is roots[k]/X), or a path that does
    not exist when the trees have no X."""
    if not a.startswith("tests/root/"):
        return a
    sub = a[len("tests/root/"):]
    return replay_dir(tmp, roots, sub) or os.path.join(tmp, "absent", sub)


def run_case(c):
    tmp = tempfile.mkdtemp(prefix="ptk-sysstat-")
    try:
        pdir, sdir = replay_dirs(tmp, c["roots"])
        args = [tree_arg(tmp, c["roots"], a) for a in c["args"] if a != "--getenv"]
        # iostat -N and -j read the trees' /dev (device-mapper and persistent names)
        ddir = replay_dir(tmp, c["roots"], "dev") if c["tool"] == "iostat" else None
        env = dict(os.environ)
        for k in ("S_TIME_FORMAT", "POSIXLY_CORRECT", "S_COLORS", "S_COLORS_SGR", "TZ", "LC_ALL"):
            env.pop(k, None)
        env.update(c.get("env", {}))
        env.setdefault("TZ", "GMT")
        cmd = [PTK, c["tool"], "--procfs", pdir, "--sysfs", sdir] + \
            (["--devfs", ddir] if ddir else []) + args
        try:
            p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=60, cwd=tmp)
            return p.returncode, p.stdout.decode("utf-8", "replace"), \
                p.stderr.decode("utf-8", "replace"), cmd
        except subprocess.TimeoutExpired:
            return -9, "", "timed out after 60 s", cmd
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def judge(c, rc, out, err):
    kind = c["kind"]
    if kind == "compare":
        want = open(os.path.join(SRC, "expected", c["expected"]), encoding="utf-8",
                    errors="replace").read()
        a, b = normalise(want), normalise(out)
        if a == b and rc == 0:
            return True, ""
        d = first_diff(a, b)
        if d is None:
            return False, "exit %d (%s)" % (rc, err.strip()[:120])
        return False, "line %d: want %r got %r%s" % (
            d[0], d[1][:100], d[2][:100], "" if rc == 0 else " (exit %d: %s)" % (rc, err.strip()[:80]))
    if kind == "usage-error":
        if rc != 0 and rc != -9:
            return True, ""
        return False, "exit %d, a usage error was expected" % rc
    if kind == "json-verify":
        if rc != 0:
            return False, "exit %d (%s)" % (rc, err.strip()[:120])
        ok, why = json_layout_ok(out)
        return ok, why
    if kind == "error-message":
        if rc != 0 and err.strip():
            return True, ""
        return False, "exit %d, stderr %r: an error message was expected" % (rc, err.strip()[:80])
    return False, "unknown kind %s" % kind


def crashed(rc, err):
    """A signal or a sanitizer's report: never a known difference, whatever the list says."""
    return rc < 0 or "runtime error:" in err or "Sanitizer" in err


def main():
    cases = json.load(open(os.path.join(SRC, "cases.json")))
    known = load_known()
    cases = [c for c in cases if FILTER in c["tool"] or FILTER in c["test"]]
    tally = {}
    n = cmp_pass = 0
    print("1..%d" % len(cases))
    for c in cases:
        n += 1
        rc, out, err, cmd = run_case(c)
        ok, why = judge(c, rc, out, err)
        desc = "sysstat %s %s %s %s" % (c["test"], c["kind"], c["tool"], " ".join(c["args"]))
        t = tally.setdefault(c["tool"], [0, 0, 0])
        if ok:
            t[0] += 1
            cmp_pass += c["kind"] == "compare"
            extra = ""
            if c["test"] in known:
                extra = " (listed as known: %s; the entry can go)" % known[c["test"]]
            print("ok %d - %s%s" % (n, desc, extra))
        elif c["test"] in known and not crashed(rc, err):
            t[1] += 1
            print("ok %d - %s # SKIP differs, known: %s [%s]" % (n, desc, known[c["test"]], why))
        else:
            t[2] += 1
            print("not ok %d - %s: %s" % (n, desc, why))
    tot = [sum(t[i] for t in tally.values()) for i in range(3)]
    print("# sysstat tally: %d passed, %d known differences, %d failed" % tuple(tot))
    for tool in sorted(tally):
        print("#   %-8s %d passed, %d known, %d failed" % ((tool,) + tuple(tally[tool])))
    print("# compare cases: %d of %d pass exactly" % (cmp_pass, sum(1 for c in cases if c["kind"] == "compare")))


main()
