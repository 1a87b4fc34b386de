#!/usr/bin/env python3
"""check_ovni_convert.py CLI DATA OUTDIR — converts every ovni fixture to
every target and checks each output with its own consumer against the
ovnidump oracle (event counts per MCV) and against `perfweave stats`:
  perfetto  protoc --decode with our field-number-only perfetto.proto, and
            pftrace_walk (declared tracks, nesting, interning, flows)
  chrome    json.load (also .json.gz), B/E nesting per thread
  sqlite    SQL counts per record type = oracle = stats
  csv       rows per file = oracle
  otf2      otf2-print: locations and events
  paraver   records sorted by time, every type and value labelled
A missing fixture or oracle fails."""
import collections
import csv
import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovni_oracle  # noqa: E402
import pftrace_walk  # noqa: E402
import target_checks  # noqa: E402

CLI, DATA, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
csv.field_size_limit(sys.maxsize)  # jumbo payloads are megabytes of hex
HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def fail(fixture, what):
    failures.append("%s: %s" % (fixture, what))


def convert(src, out, extra=()):
    r = subprocess.run([CLI, "convert", "--force", "--allow-loss", src, "-o", out, "-q", *extra], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError("convert %s -> %s: exit %d: %s" % (src, out, r.returncode, r.stderr))


def stats_counts(src):
    r = subprocess.run([CLI, "stats", src, "--json"], capture_output=True, text=True)
    doc = json.loads(r.stdout)
    return {e["mcv"]: e["events"] for e in doc.get("per_event_type", [])}, doc["trace"]["events"], doc["trace"]["streams"]


def check_fixture(fx):
    name = os.path.basename(fx)
    src = os.path.join(fx, "ovni")
    oracle = ovni_oracle.mcv_counts(fx)
    total = sum(oracle.values())
    st_types, st_total, streams = stats_counts(src)
    if st_total != total:
        fail(name, "stats says %d events, ovnidump %d" % (st_total, total))
    base = os.path.join(OUT, name)

    pf = base + ".pftrace"
    convert(src, pf)
    r = subprocess.run(["protoc", "--decode=pwtest.Trace", "-I", HERE, os.path.join(HERE, "perfetto.proto")],
                       stdin=open(pf, "rb"), capture_output=True)
    if r.returncode != 0:
        fail(name, "protoc --decode: " + r.stderr.decode()[:300])
    decoded_events = r.stdout.count(b"track_event {")
    counts = None
    try:
        counts, names = pftrace_walk.walk(pf)
        events = counts["begin"] + counts["end"] + counts["instant"] + counts["counter"]
        if events != total or decoded_events != total:
            fail(name, "perfetto: %d events (protoc %d), ovnidump %d" % (events, decoded_events, total))
        for n, c in names.items():
            if c > oracle.get(n, 0):
                fail(name, "perfetto: %d events named %s, ovnidump has %d" % (c, n, oracle.get(n, 0)))
        if total and os.path.getsize(pf) > 20 * total + 4096 + 200 * counts["tracks"]:
            fail(name, "perfetto: %d bytes for %d events" % (os.path.getsize(pf), total))
    except pftrace_walk.Problem as e:
        fail(name, "perfetto: " + str(e))

    for ext in (".json", ".json.gz"):
        cj = base + ext
        convert(src, cj)
        doc = json.load(gzip.open(cj) if ext.endswith(".gz") else open(cj))
        problem, events = target_checks.chrome_nesting(doc)
        if problem:
            fail(name, "chrome: " + problem)
        if events != total:
            fail(name, "chrome%s: %d events, ovnidump %d" % (ext, events, total))

    db = base + ".sqlite"
    convert(src, db)
    con = sqlite3.connect(db)
    per_type = collections.Counter()
    for (table,) in con.execute("SELECT table_name FROM record_types"):
        q = 'SELECT s.text, count(*) FROM "%s" r JOIN strings s ON s.id = r.type GROUP BY s.text' % table.replace('"', '""')
        for t, c in con.execute(q):
            per_type[t] += c
    if per_type != oracle:
        fail(name, "sqlite counts per type differ from ovnidump: %s" % ((per_type - oracle) + (oracle - per_type)))
    for mcv, c in st_types.items():
        if per_type.get(mcv, 0) != c:
            fail(name, "sqlite: %s has %d rows, stats %d" % (mcv, per_type.get(mcv, 0), c))
    (nloc,) = con.execute("SELECT count(*) FROM locations").fetchone()
    if nloc == 0 and total:
        fail(name, "sqlite: no locations")
    con.close()

    cd = base + ".csv.d"
    convert(src, cd)
    rows = 0
    for f in os.listdir(cd):
        if f not in ("locations.csv", "metadata.csv"):
            rows += sum(1 for _ in csv.DictReader(open(os.path.join(cd, f), newline="")))
    if rows != total:
        fail(name, "csv: %d rows, ovnidump %d" % (rows, total))

    if counts is not None:
        convert(src, base + ".otf2")
        problem, kinds, nloc = target_checks.otf2_events(base + ".otf2")
        if problem:
            fail(name, "otf2: " + problem)
        else:
            ok, want = target_checks.otf2_matches(kinds, counts)
            if not ok:
                fail(name, "otf2: events %s, expected %s" % (dict(kinds), dict(want)))
            # every stream is a location, and every child track (slice group) one more
            if nloc != streams + counts["child_tracks"]:
                fail(name, "otf2: %d locations, want %d streams + %d child tracks"
                     % (nloc, streams, counts["child_tracks"]))

    convert(src, base + ".prv")
    problem, events = target_checks.paraver_check(base + ".prv")
    if problem:
        fail(name, "paraver: " + problem)
    elif events != total:
        fail(name, "paraver: %d records, ovnidump %d" % (events, total))


def main():
    shutil.rmtree(OUT, ignore_errors=True)  # OTF2 will not write over an archive
    os.makedirs(OUT)
    fixtures = ovni_oracle.fixtures(DATA)
    if len(fixtures) < 13:
        print("expected 13 ovni fixtures, found %d" % len(fixtures))
        return 1
    for fx in fixtures:
        check_fixture(fx)
    for f in failures:
        print("FAIL", f)
    print("%d fixtures, %d failures" % (len(fixtures), len(failures)))
    return 1 if failures else 0


sys.exit(main())
