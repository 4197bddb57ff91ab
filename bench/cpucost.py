#!/usr/bin/env python3
"""Run commands side by side and report the CPU time (user+sys, from wait4 rusage) each used.

usage: cpucost.py LABEL_A 'CMD A' LABEL_B 'CMD B' [--concurrent] [--repeat N]
Prints one line per command and the ratio A/B. Commands run through /bin/sh -c with stdout
discarded. With --concurrent both run at the same time over the same window.
"""
import os
import subprocess
import sys


def run(cmd):
    p = subprocess.Popen(["/bin/sh", "-c", "exec " + cmd], stdout=subprocess.DEVNULL)
    return p


def rusage_of(p):
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    concurrent = "--concurrent" in sys.argv
    repeat = 1
    if "--repeat" in sys.argv:
        repeat = int(sys.argv[sys.argv.index("--repeat") + 1])
        args = [a for a in args if a != str(repeat)]
    la, ca, lb, cb = args[:4]
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
