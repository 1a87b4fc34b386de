#!/usr/bin/env python3
"""check_all_formats.py CLI DATA EXAMPLES OUTDIR — every fixture of every
landed format other than ovni (which check_ovni_convert.py checks against
its oracle) converted to every target, each output checked by its own
consumer, and the targets checked against each other:
  records   convert's account: in = the records `perfweave info` counts,
            in = out + what it lists as not written
  perfetto  protoc --decode and pftrace_walk (tracks, nesting, interning)
  chrome    JSON nesting; as many events as the Perfetto file
  otf2      otf2-print without warnings; Enter/Leave/Metric as Perfetto
  paraver   sorted, labelled, as many records as Perfetto events
  sqlite    rows = records; csv rows = records
A profile without a trace (`info` shows no time and 0 traces) goes to
sqlite and csv only; the timeline targets refuse it before creating their
output (exit 2, no file).
Fixtures are the datasets in DATA/<format>/* and EXAMPLES/<format>/* (or in
folders up to two levels below); a landed format without any fixture fails."""
import csv
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pftrace_walk  # noqa: E402
import target_checks  # noqa: E402

CLI, DATA, EXAMPLES, OUT = sys.argv[1:5]
HERE = os.path.dirname(os.path.abspath(__file__))
csv.field_size_limit(sys.maxsize)
failures = []


def fail(fx, what):
    failures.append("%s: %s" % (fx, what))


def landed_formats():
    text = subprocess.run([CLI, "--help"], capture_output=True, text=True).stdout
    part = text.split("formats (detected", 1)[1].split("exit codes", 1)[0]
    return [line.split()[0] for line in part.splitlines()[1:] if line.strip()]


def opens_as(path, fmt):
    r = subprocess.run([CLI, "info", path, "--format", fmt, "-q"], capture_output=True)
    return r.returncode in (0, 1)


def find_datasets(path, fmt, depth):
    """path itself when it opens as fmt, else the datasets below it: real
    fixtures may sit in folders named after their origin (hpctoolkit/pipit/
    <database>); oracle-only folders hold none.  Each format's own tests
    make sure every one of its fixtures opens."""
    if opens_as(path, fmt):
        return [path]
    if depth == 0 or not os.path.isdir(path):
        return []
    out = []
    for f in sorted(os.listdir(path)):
        out += find_datasets(os.path.join(path, f), fmt, depth - 1)
    return out


def fixtures(fmt):
    out = []
    for root in (os.path.join(DATA, fmt), os.path.join(EXAMPLES, fmt)):
        if os.path.isdir(root):
            for f in sorted(os.listdir(root)):
                if not f.endswith((".md", ".txt")):
                    out += find_datasets(os.path.join(root, f), fmt, 2)
    return out


def convert(fx, out):
    r = subprocess.run([CLI, "convert", "--force", "--allow-loss", fx, "-o", out], capture_output=True, text=True)
    m = re.search(r"\((\d+) records in, (\d+) out", r.stderr)
    lost = sum(int(n) for n in re.findall(r"not written: +(\d+)", r.stderr))
    if r.returncode not in (0, 1) or not m:
        raise RuntimeError("convert %s -> %s: exit %d: %s" % (fx, out, r.returncode, r.stderr[-400:]))
    back = re.search(r"(\d+) messages received before they were sent", r.stderr)
    return int(m.group(1)), int(m.group(2)), lost, int(back.group(1)) if back else 0


def info_records(fx):
    """The records convert reads: HPCToolkit traces as frames, its default."""
    r = subprocess.run([CLI, "info", fx, "--set", "hpctoolkit.frames=1"], capture_output=True, text=True)
    m = re.search(r"^records\s+(\d+)", r.stdout, re.M)
    return int(m.group(1)) if m else None


def untimed(fx):
    """fx has no record with a time (a profile without a trace, a DUMPI
    trace recorded without clocks): info shows no time span."""
    r = subprocess.run([CLI, "info", fx, "--json"], capture_output=True, text=True)
    info = json.loads(r.stdout) if r.stdout else {}
    return "time_first_ns" not in info and "virtual_time_first" not in info


def check_refused(fx, base):
    """Timeline targets refuse a dataset without times, leaving no output."""
    for ext in (".pftrace", ".json", ".otf2", ".prv"):
        out = base + "-refused" + ext
        r = subprocess.run([CLI, "convert", fx, "-o", out], capture_output=True, text=True)
        if r.returncode != 2 or os.path.exists(out) or "sqlite" not in r.stderr:
            fail(fx, "%s of a dataset without times: exit %d, output %s: %s"
                 % (ext, r.returncode, os.path.exists(out), r.stderr[-300:]))


def check_account(fx, target, account, records):
    rin, rout, lost = account[:3]
    if rin != records or rin != rout + lost:
        fail(fx, "%s: %d in, %d out, %d not written; info counts %d" % (target, rin, rout, lost, records))


def table_rows(db):
    con = sqlite3.connect(db)
    n = con.execute("SELECT sum(rows) FROM record_types").fetchone()[0] or 0
    for table, rows in con.execute("SELECT table_name, rows FROM record_types").fetchall():
        (real,) = con.execute('SELECT count(*) FROM "%s"' % table.replace('"', '""')).fetchone()
        if real != rows:
            return -1
    return n


def csv_rows(d):
    return sum(sum(1 for _ in csv.DictReader(open(os.path.join(d, f), newline="")))
               for f in os.listdir(d) if f not in ("locations.csv", "metadata.csv"))


def call_metrics(archive):
    """The Metric events of call metrics (classes of kind CPU), which have no
    Perfetto counter track."""
    anchor = os.path.join(archive, "traces.otf2")
    defs = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True).stdout
    refs = set(re.findall(r"^METRIC_CLASS\s+(\d+)\s+Occurrence: SYNCHRONOUS, Kind: CPU", defs, re.M))
    events = subprocess.run(["otf2-print", anchor], capture_output=True, text=True).stdout
    return sum(1 for m in re.finditer(r"^METRIC\s+\d+\s+\d+\s+Metric: (\d+)", events, re.M) if m.group(1) in refs)


def check_fixture(fx, base):
    records = info_records(fx)
    if records is None:
        fail(fx, "perfweave info cannot open it")
        return
    if untimed(fx):
        check_refused(fx, base)
        check_tables(fx, base, records)
        return
    account = convert(fx, base + ".pftrace")
    check_account(fx, "perfetto", account, records)
    backwards = account[3]  # no flow in time-ordered targets; OTF2 (per location) keeps them
    r = subprocess.run(["protoc", "--decode=pwtest.Trace", "-I", HERE, os.path.join(HERE, "perfetto.proto")],
                       stdin=open(base + ".pftrace", "rb"), capture_output=True)
    if r.returncode != 0:
        fail(fx, "protoc --decode: " + r.stderr.decode()[:300])
    try:
        counts, _ = pftrace_walk.walk(base + ".pftrace")
    except pftrace_walk.Problem as e:
        fail(fx, "perfetto: %s" % e)
        return
    events = counts["begin"] + counts["end"] + counts["instant"] + counts["counter"]
    check_account(fx, "chrome", convert(fx, base + ".json"), records)
    problem, n = target_checks.chrome_nesting(json.load(open(base + ".json")))
    if problem or n != events:
        fail(fx, "chrome: %s, %d events, perfetto %d" % (problem, n, events))
    check_account(fx, "otf2", convert(fx, base + ".otf2"), records)
    problem, kinds, _ = target_checks.otf2_events(base + ".otf2")
    otf2_counts = counts.copy()
    otf2_counts["flows"] += backwards
    if kinds is not None:  # calls' CPU times and counters: Metric events at their Enter and Leave
        kinds["METRIC"] -= call_metrics(base + ".otf2")
    if problem or not target_checks.otf2_matches(kinds, otf2_counts)[0]:
        fail(fx, "otf2: %s %s vs %s" % (problem, kinds, dict(counts)))
    check_account(fx, "paraver", convert(fx, base + ".prv"), records)
    problem, n = target_checks.paraver_check(base + ".prv")
    if problem or n != events:
        fail(fx, "paraver: %s, %d records, perfetto %d events" % (problem, n, events))
    comms = len(target_checks.paraver_comms(base + ".prv"))
    if comms != counts["flows"]:
        fail(fx, "paraver: %d communication records, perfetto %d flows" % (comms, counts["flows"]))
    check_tables(fx, base, records)


def check_tables(fx, base, records):
    check_account(fx, "sqlite", convert(fx, base + ".sqlite"), records)
    if table_rows(base + ".sqlite") != records:
        fail(fx, "sqlite rows differ from %d records" % records)
    check_account(fx, "csv", convert(fx, base + ".csv.d"), records)
    if csv_rows(base + ".csv.d") != records:
        fail(fx, "csv rows differ from %d records" % records)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    n = 0
    for fmt in landed_formats():
        if fmt == "ovni":
            continue
        fxs = fixtures(fmt)
        if not fxs:
            fail(fmt, "a landed format without fixtures")
        for i, fx in enumerate(fxs):
            check_fixture(fx, os.path.join(OUT, "%s-%d" % (fmt, i)))
            n += 1
    for f in failures:
        print("FAIL", f)
    print("%d fixtures, %d failures" % (n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
