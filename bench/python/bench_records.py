#!/usr/bin/env python3
"""bench_records.py — what reading a trace into pandas costs through the
perfweave package: records/s and peak memory of records() on the ovni bench
trace (all fields, and numeric fields only), and on the DUMPI bench trace
side by side with pandas.read_json(lines=True) of `perfweave dump --jsonl`
and with Pipit's published rate (135 s and 1.8 GB for 500 k DUMPI calls,
read through OTF2: issue 18).  Each measure runs in a child process of its
own (its peak RSS is that child's); the best of REPEAT runs is kept.

usage: bench_records.py PERFWEAVE OVNI_TRACE DUMPI_TRACE"""
import io
import os
import resource
import subprocess
import sys
import time

REPEAT = int(os.environ.get("REPEAT", "3"))
PIPIT_SECONDS, PIPIT_CALLS, PIPIT_MB = 135.0, 500_000, 1800


def child(mode, pw, path):
    """One measure, in this (child) process: prints records, wall s, CPU s."""
    import pandas as pd
    import perfweave
    cpu, wall = time.process_time(), time.perf_counter()
    if mode == "records":
        with perfweave.open(path) as ds:
            n = len(ds.records())
    elif mode == "numeric":
        with perfweave.open(path) as ds:
            numeric = [name for sc in ds.schemas() for name, kind, _ in sc[2] if kind <= 3]
            n = len(ds.records(fields=sorted(set(numeric))))
    else:  # the same trace through JSON Lines
        out = subprocess.run([pw, "dump", "--jsonl", path], stdout=subprocess.PIPE, check=True)
        n = len(pd.read_json(io.BytesIO(out.stdout), lines=True))
    print(n, time.perf_counter() - wall, time.process_time() - cpu)


def measure(mode, pw, path):
    """(records, best wall s, its CPU s, largest peak RSS in MB) of REPEAT children."""
    best, rss = None, 0
    for _ in range(REPEAT):
        p = subprocess.Popen([sys.executable, __file__, "--child", mode, pw, path],
                             stdout=subprocess.PIPE)
        out = p.stdout.read()
        _, status, usage = os.wait4(p.pid, 0)
        if status:
            raise SystemExit("bench: %s failed" % mode)
        n, wall, cpu = out.split()
        rss = max(rss, usage.ru_maxrss / 1024)
        if best is None or float(wall) < best[1]:
            best = (int(n), float(wall), float(cpu))
    return best + (rss,)


def row(label, n, wall, cpu, rss):
    print("%-34s %10d %8.2f %8.2f %10.2f %10.2f %9.0f" % (label, n, wall, cpu, n / wall / 1e6,
                                                           n / cpu / 1e6, rss))


def main():
    if sys.argv[1] == "--child":
        child(*sys.argv[2:5])
        return
    pw, ovni, dumpi = sys.argv[1:4]
    print("%-34s %10s %8s %8s %10s %10s %9s" % ("what", "records", "wall s", "cpu s", "M/s wall",
                                                "M/s cpu", "RSS MB"))
    row("ovni records()", *measure("records", pw, ovni))
    row("ovni records(numeric fields)", *measure("numeric", pw, ovni))
    row("dumpi records()", *measure("records", pw, dumpi))
    row("dumpi read_json(dump --jsonl)", *measure("jsonl", pw, dumpi))
    print("%-34s %10d %8.2f %8s %10.4f %10s %9d   (published, issue 18)"
          % ("dumpi Pipit (OTF2)", PIPIT_CALLS, PIPIT_SECONDS, "-",
             PIPIT_CALLS / PIPIT_SECONDS / 1e6, "-", PIPIT_MB))


if __name__ == "__main__":
    main()
