#!/usr/bin/env python3
"""check_damage.py CLI DATA OUTDIR — converting damaged input: a copy of
an ovni fixture with one stream cut at several offsets (mid-header,
mid-payload) and with a byte flipped in an event header.  Each convert must
exit 1 (damaged) naming the file and a byte offset, and what it wrote must
be valid and hold exactly the records `perfweave dump --jsonl` reads from
the same damaged copy (everything before the damage, nothing invented)."""
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pftrace_walk  # noqa: E402

CLI, DATA, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
SRC = os.path.join(DATA, "ovni", "emu-1.10.0", "ovni")
failures = []


def damaged_copies(tmp):
    """(label, trace dir) of damaged copies of SRC."""
    streams = sorted(os.path.join(r, f) for r, _, fs in os.walk(SRC) for f in fs if f.endswith(".obs"))
    victim = os.path.relpath(streams[0], SRC)
    size = os.path.getsize(streams[0])
    for label, cut in (("cut-in-header", 8 + 12 * 40 + 5), ("cut-in-payload", size // 2 + 3), ("cut-last-byte", size - 1)):
        d = os.path.join(tmp, label)
        shutil.copytree(SRC, d)
        with open(os.path.join(d, victim), "r+b") as f:
            f.truncate(cut)
        yield label, d
    d = os.path.join(tmp, "flipped-flags")
    shutil.copytree(SRC, d)
    with open(os.path.join(d, victim), "r+b") as f:
        data = f.read()
        off = 8
        for _ in range(100):  # walk to the 100th event header
            code = data[off] & 15
            off += 16 + int.from_bytes(data[off + 12:off + 16], "little") if data[off] & 0x10 else 12 + (code + 1 if code else 0)
        f.seek(off)
        f.write(bytes([0xE0 | (data[off] & 15)]))  # flags no writer sets
    yield "flipped-flags", d


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for label, trace in damaged_copies(OUT):
        dump = run("dump", trace, "--jsonl")
        readable = dump.stdout.count("\n")
        pf = os.path.join(OUT, label + ".pftrace")
        r = run("convert", trace, "-o", pf)
        flip = label.startswith("flipped")  # the reader may accept it: outputs must still agree
        if not flip and (r.returncode != 1 or "offset" not in r.stderr):
            failures.append("%s: perfetto exit %d, stderr %r" % (label, r.returncode, r.stderr[-300:]))
        try:
            counts, _ = pftrace_walk.walk(pf)
            events = counts["begin"] + counts["end"] + counts["instant"] + counts["counter"]
            if events != readable:
                failures.append("%s: perfetto %d events, dump reads %d records" % (label, events, readable))
        except pftrace_walk.Problem as e:
            failures.append("%s: perfetto: %s" % (label, e))
        db = os.path.join(OUT, label + ".sqlite")
        r = run("convert", trace, "-o", db)
        if r.returncode != (r.returncode if flip else 1):
            failures.append("%s: sqlite exit %d" % (label, r.returncode))
        con = sqlite3.connect(db)
        rows = con.execute("SELECT sum(rows) FROM record_types").fetchone()[0] or 0
        if rows != readable:
            failures.append("%s: sqlite %d rows, dump reads %d records" % (label, rows, readable))
        if not flip and readable >= 36096:
            failures.append("%s: the damage lost nothing (%d records)" % (label, readable))
    for f in failures:
        print("FAIL", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


sys.exit(main())
