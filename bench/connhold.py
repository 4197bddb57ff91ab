#!/usr/bin/env python3
"""Hold slow and idle connections against an HTTP server while timing /metrics scrapes.

usage: connhold.py PORT [--slow N] [--idle N] [--time S] [--every S] [--expect TEXT]

Two processes (no GIL shared between them):
  - the holder keeps N "slowloris" connections (a request whose header never ends: one byte
    every 5 s) and N idle ones (connected, nothing sent) open on 127.0.0.1; a connection the
    server closes is opened again at once, as an attacker would;
  - the scraper, once every connection was opened, sends GET /metrics every --every seconds
    for --time seconds, each on a new connection with a 5 s deadline, and times it (connect
    -> last byte). A scrape fails when it times out, is refused or reset, is not a 200, or its
    body lacks --expect.
One line on stdout:
  scrapes N ok N fail N p50_ms X p99_ms X max_ms X held_slow N held_idle N dropped N
held_*: connections of each kind open at the end (the holder's view); dropped: how many the
server closed during the run (each was reopened).
"""
import argparse
import errno
import os
import resource
import selectors
import socket
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("port", type=int)
ap.add_argument("--slow", type=int, default=2000)
ap.add_argument("--idle", type=int, default=2000)
ap.add_argument("--time", type=float, default=20)
ap.add_argument("--every", type=float, default=0.2)
ap.add_argument("--expect", default="\nnode_load1 ")
ap.add_argument("--host", default="127.0.0.1")
a = ap.parse_args()

need = a.slow + a.idle + 256
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < need:
    if hard != resource.RLIM_INFINITY and hard < need:
        sys.exit("connhold: RLIMIT_NOFILE hard limit %d < %d connections" % (hard, need))
    resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))

HEADER = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "


def holder(wfd):
    sel = selectors.DefaultSelector()
    conns = {}  # socket -> [kind, next byte index, next send time]
    dropped = 0
    opened = 0

    def open_one(kind):
        nonlocal opened
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect((a.host, a.port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            return False
        conns[s] = [kind, 0, 0.0, False]
        sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE)
        opened += 1
        return True

    def drop(s):
        nonlocal dropped
        kind = conns.pop(s)[0]
        sel.unregister(s)
        s.close()
        dropped += 1
        return kind

    for _ in range(a.slow):
        open_one("slow")
    for _ in range(a.idle):
        open_one("idle")
    os.write(wfd, b"r")  # every connection initiated: the scraper may start
    end = time.monotonic() + a.time + 1
    while True:
        now = time.monotonic()
        if now >= end:
            break
        reopen = []
        for key, ev in sel.select(timeout=0.5):
            s = key.fileobj
            st = conns.get(s)
            if st is None:
                continue
            if ev & selectors.EVENT_WRITE and not st[3]:
                err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    reopen.append(drop(s))
                    continue
                st[3] = True  # connected
                sel.modify(s, selectors.EVENT_READ)
                st[2] = now  # first byte now
            if ev & selectors.EVENT_READ:
                try:
                    d = s.recv(4096)
                except OSError:
                    d = b""
                if not d:  # closed (or an error answer followed by close)
                    reopen.append(drop(s))
        # slow ones: one header byte every 5 s, the header never ends
        for s, st in list(conns.items()):
            if st[0] != "slow" or not st[3] or now < st[2]:
                continue
            b = HEADER[st[1] : st[1] + 1] if st[1] < len(HEADER) else b"a"
            try:
                s.send(b)
                st[1] += 1
                st[2] = now + 5
            except OSError:
                reopen.append(drop(s))
        for kind in reopen:
            open_one(kind)
    held = {"slow": 0, "idle": 0}
    for s, st in conns.items():
        if st[3]:
            held[st[0]] += 1
    os.write(wfd, ("%d %d %d\n" % (held["slow"], held["idle"], dropped)).encode())
    os._exit(0)


def scrape():
    req = ("GET /metrics HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % a.host).encode()
    t0 = time.monotonic()
    try:
        s = socket.create_connection((a.host, a.port), timeout=5)
        s.settimeout(max(0.01, 5 - (time.monotonic() - t0)))
        s.sendall(req)
        body = bytearray()
        while True:
            d = s.recv(1 << 20)
            if not d:
                break
            body += d
            s.settimeout(max(0.01, 5 - (time.monotonic() - t0)))
        s.close()
    except OSError:
        return None
    if not body.startswith(b"HTTP/1.1 200") or a.expect.encode() not in body:
        return None
    return time.monotonic() - t0


r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    holder(w)
os.close(w)
rf = os.fdopen(r, "rb", buffering=0)
if rf.read(1) != b"r":
    sys.exit("connhold: the holder died")
time.sleep(1)  # let the connections settle (handshakes, first bytes)
lat, fail = [], 0
end = time.monotonic() + a.time
while time.monotonic() < end:
    t = time.monotonic()
    x = scrape()
    if x is None:
        fail += 1
    else:
        lat.append(x)
    time.sleep(max(0, a.every - (time.monotonic() - t)))
rest = rf.read().decode().split()
os.waitpid(pid, 0)
lat.sort()


def pct(p):
    return lat[min(len(lat) - 1, int(len(lat) * p))] * 1e3 if lat else float("nan")


print("scrapes %d ok %d fail %d p50_ms %.1f p99_ms %.1f max_ms %.1f held_slow %s held_idle %s "
      "dropped %s" % (len(lat) + fail, len(lat), fail, pct(0.5), pct(0.99),
                      lat[-1] * 1e3 if lat else float("nan"),
                      *(rest if len(rest) == 3 else ["?", "?", "?"])))
