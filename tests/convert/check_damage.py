#!/usr/bin/env python3
"""check_damage.py CLI DATA OUTDIR — converting damaged input: a copy of
an ovni fixture with one stream cut at several offsets (mid-header,
mid-payload) and with a byte flipped in an event header.  Each convert must
exit 1 (damaged) naming the file and a byte offset, and what it wrote must
be valid and hold exactly the records `perfweave dump --jsonl` reads from
the same damaged copy (everything before the damage, nothing invented)."""
import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pftrace_walk  # noqa: E402
import target_checks  # noqa: E402

csv.field_size_limit(sys.maxsize)

CLI, DATA, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
SRC = os.path.join(DATA, "ovni", "emu-1.10.0", "ovni")
failures = []


def damaged_copies(tmp):
    """(label, trace dir) of damaged copies of SRC."""
    streams = sorted(os.path.join(r, f) for r, _, fs in os.walk(SRC) for f in fs if f.endswith(".obs"))
    victim = os.path.relpath(streams[0], SRC)
    size = os.path.getsize(streams[0])
    cuts = [("cut-in-header", 8 + 12 * 40 + 5), ("cut-in-payload", size // 2 + 3), ("cut-last-byte", size - 1)]
    cuts += [("cut-%d-of-8" % k, 9 + size * k // 8) for k in range(1, 8)]
    for label, cut in cuts:
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


def other_targets(label, trace, readable, counts):
    """Chrome, OTF2, Paraver and CSV of the damaged copy hold what Perfetto
    and dump hold."""
    events = counts["begin"] + counts["end"] + counts["instant"] + counts["counter"]
    out = os.path.join(OUT, label)
    run("convert", "--force", "--allow-loss", trace, "-o", out + ".json")
    problem, n = target_checks.chrome_nesting(json.load(open(out + ".json")))
    if problem or n != events:
        failures.append("%s: chrome %s, %d events, perfetto %d" % (label, problem, n, events))
    run("convert", "--force", "--allow-loss", trace, "-o", out + ".otf2")
    problem, kinds, _ = target_checks.otf2_events(out + ".otf2")
    if problem or not target_checks.otf2_matches(kinds, counts)[0]:
        failures.append("%s: otf2 %s %s" % (label, problem, kinds))
    run("convert", "--force", "--allow-loss", trace, "-o", out + ".prv")
    problem, n = target_checks.paraver_check(out + ".prv")
    if problem or n != events:
        failures.append("%s: paraver %s, %d records, perfetto %d" % (label, problem, n, events))
    run("convert", "--force", "--allow-loss", trace, "-o", out + ".csv.d")
    rows = 0
    for f in os.listdir(out + ".csv.d"):
        if f not in ("locations.csv", "metadata.csv"):
            rows += sum(1 for _ in csv.DictReader(open(os.path.join(out + ".csv.d", f), newline="")))
    if rows != readable:
        failures.append("%s: csv %d rows, dump reads %d" % (label, rows, readable))


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for label, trace in damaged_copies(OUT):
        dump = run("dump", trace, "--jsonl")
        readable = dump.stdout.count("\n")
        pf = os.path.join(OUT, label + ".pftrace")
        r = run("convert", "--force", "--allow-loss", trace, "-o", pf)
        # a flip the reader accepts, or a cut that falls between two events, is
        # not detectable damage: then only agreement with dump is required
        flip = label.startswith("flipped") or "-of-" in label
        if r.returncode not in (0, 1) or (not flip and (r.returncode != 1 or "offset" not in r.stderr)):
            failures.append("%s: perfetto exit %d, stderr %r" % (label, r.returncode, r.stderr[-300:]))
        counts = None
        try:
            counts, _ = pftrace_walk.walk(pf)
            events = counts["begin"] + counts["end"] + counts["instant"] + counts["counter"]
            if events != readable:
                failures.append("%s: perfetto %d events, dump reads %d records" % (label, events, readable))
        except pftrace_walk.Problem as e:
            failures.append("%s: perfetto: %s" % (label, e))
        if not label.startswith("flipped") and readable >= 36096:
            failures.append("%s: the cut lost nothing (%d records)" % (label, readable))
        if counts is None or "-of-" in label:
            continue  # the extra cuts check Perfetto only; the named ones every target
        other_targets(label, trace, readable, counts)
        db = os.path.join(OUT, label + ".sqlite")
        r = run("convert", "--force", "--allow-loss", trace, "-o", db)
        if r.returncode != (r.returncode if flip else 1):
            failures.append("%s: sqlite exit %d" % (label, r.returncode))
        con = sqlite3.connect(db)
        rows = con.execute("SELECT sum(rows) FROM record_types").fetchone()[0] or 0
        if rows != readable:
            failures.append("%s: sqlite %d rows, dump reads %d records" % (label, rows, readable))
    for f in failures:
        print("FAIL", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


sys.exit(main())
