#!/usr/bin/env python3
"""Run commands side by side and report the CPU time (user+sys, from wait4 rusage) each used.

usage: cpucost.py LABEL_A 'CMD A' LABEL_B 'CMD B' [--concurrent] [--repeat N] [--runs N]
Prints one line per command and the ratio A/B. Commands run through /bin/sh -c with stdout
discarded (without the shell when the command has no shell syntax: then the shell's start is
not counted). With --concurrent both run at the same time over the same window.
--repeat N: the mean of N runs, A then B each time.
--runs N: the whole process as a user pays for it, paired: N pairs alternating A B, B A, ...
(drift and the other load of the machine reach both alike), reporting the medians, the ratio
of the medians, the range of the pairs' own ratios and the load average before and after.
"""
import os
import re
import shlex
import statistics
import subprocess
import sys


def run(cmd):
    if re.search(r"[|&;<>()$`\\\"'*?\[\]#~=%{}]", cmd):
        argv = ["/bin/sh", "-c", "exec " + cmd]
    else:
        argv = shlex.split(cmd)
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL)


def rusage_of(p):
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime


def cost(cmd):
    """CPU seconds (user+sys) of one run of cmd, the whole process and its children."""
    p = run(cmd)
    t = rusage_of(p)
    if p.returncode:
        print(f"error: exit code {p.returncode}: {cmd}", file=sys.stderr)
        sys.exit(1)
    return t


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def paired(ca, cb, runs):
    """Medians (s) of A and B over runs alternated pairs, and the pairs' own ratios."""
    ta, tb = [], []
    for i in range(runs):
        if i % 2 == 0:
            ta.append(cost(ca))
            tb.append(cost(cb))
        else:
            tb.append(cost(cb))
            ta.append(cost(ca))
    ratios = [a / b for a, b in zip(ta, tb) if b > 0]
    return statistics.median(ta), statistics.median(tb), ratios


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    concurrent = "--concurrent" in sys.argv
    repeat = runs = 0
    for opt in ("--repeat", "--runs"):
        if opt in sys.argv:
            val = sys.argv[sys.argv.index(opt) + 1]
            args.remove(val)
            if opt == "--repeat":
                repeat = int(val)
            else:
                runs = int(val)
    la, ca, lb, cb = args[:4]
    if runs:
        load0 = loadavg()
        ta, tb, ratios = paired(ca, cb, runs)
        print(f"  {la:<34} {ta * 1000:9.2f} ms CPU   ({ca})")
        print(f"  {lb:<34} {tb * 1000:9.2f} ms CPU   ({cb})")
        ratio = ta / tb if tb > 0 else float("inf")
        print(f"  ratio {la} / {lb} = {ratio:.3f} (medians of {runs} alternated pairs; "
              f"pairs {min(ratios):.3f}..{max(ratios):.3f}; load {load0} -> {loadavg()})")
        return
    repeat = repeat or 1
    ta = tb = 0.0
    for _ in range(repeat):
        if concurrent:
            pa, pb = run(ca), run(cb)
            ta += rusage_of(pa)
            tb += rusage_of(pb)
        else:
            pa = run(ca)
            ta += rusage_of(pa)
            pb = run(cb)
            tb += rusage_of(pb)
        if pa.returncode or pb.returncode:
            print(f"error: exit codes {pa.returncode} {pb.returncode}", file=sys.stderr)
            sys.exit(1)
    ta /= repeat
    tb /= repeat
    print(f"  {la:<34} {ta * 1000:9.2f} ms CPU   ({ca})")
    print(f"  {lb:<34} {tb * 1000:9.2f} ms CPU   ({cb})")
    ratio = ta / tb if tb > 0 else float("inf")
    print(f"  ratio {la} / {lb} = {ratio:.2f}")


if __name__ == "__main__":
    main()
