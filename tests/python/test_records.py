#!/usr/bin/env python3
"""The Python binding gives what the CLI gives, on one fixture of every
format: records() equals `perfweave dump --jsonl` row for row (same keys,
values and JSON types), stats() equals `stats --json`, info() equals
`info --json`, the one-location and filtered reads agree with the full one,
and damaged input raises DataError carrying the library's message (the
CLI's "perfweave: error: MESSAGE [code]" line).

usage: test_records.py PERFWEAVE SHARED_DATA GEN_GPUPOWER_TREE
(PYTHONPATH and PERFWEAVE_LIBRARY name the package and the library.)"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import perfweave

FAILED = []


def check(cond, what):
    if not cond:
        FAILED.append(what)
        print("FAIL", what)


def fixtures(data, gen_gpupower, tmp):
    gp = os.path.join(tmp, "gpupower")
    subprocess.run([sys.executable, gen_gpupower, gp, "--seconds", "1"], check=True,
                   stdout=subprocess.DEVNULL)
    return [
        ("dumpi", os.path.join(data, "dumpi", "nonblock4")),
        ("dumpi", os.path.join(data, "dumpi", "collectives4-papi")),
        ("ovni", os.path.join(data, "ovni", "mix-1.14.0", "ovni")),
        ("hpctoolkit", os.path.join(data, "hpctoolkit", "hatchet", "hpctoolkit-cpi-database@79c009b")),
        ("ross", os.path.join(data, "ross", "phold-np2-model")),
        ("ross", os.path.join(data, "ross", "phold-np2-evtrace-full")),
        ("gpupower", gp),
    ]


def native(v):
    return v.item() if isinstance(v, np.generic) else v


def same_value(ours, theirs):
    """Equal values of the same JSON type; a real the dump wrote without a
    fraction ("2" for 2.0, pw_out_f64's shortest text) reads back as an int."""
    if isinstance(theirs, bool) or isinstance(ours, bool):
        return type(ours) is type(theirs) and ours == theirs
    if isinstance(ours, float) and isinstance(theirs, int):
        return float(theirs) == ours
    if type(ours) is not type(theirs):
        return False
    return ours == theirs


def rows(df):
    """Each row as the dict dump --jsonl would hold (NA: key left out)."""
    names = list(df.columns)
    cols = [df[c].to_numpy(object) for c in names]
    for i in range(len(df)):
        row = {}
        for name, col in zip(names, cols):
            v = col[i]
            if v is None or v is perfweave.pd.NA or (isinstance(v, float) and math.isnan(v)):
                continue
            row[name] = native(v)
        yield row


def dump_rows(pw, path):
    out = subprocess.run([pw, "dump", "--jsonl", path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True)
    for line in out.stdout.splitlines():
        yield {k: v for k, v in json.loads(line).items() if v is not None}


def compare_records(pw, fmt, path, df):
    n = 0
    for i, (ours, theirs) in enumerate(zip(rows(df), dump_rows(pw, path))):
        n += 1
        if ours.keys() != theirs.keys() or not all(same_value(ours[k], theirs[k]) for k in ours):
            check(False, "%s %s: row %d differs:\n  python %r\n  dump   %r"
                  % (fmt, path, i, ours, theirs))
            return
    total = sum(1 for _ in dump_rows(pw, path))
    check(n == total == len(df), "%s %s: %d rows, dump has %d" % (fmt, path, len(df), total))


def cli_json(pw, *args):
    return json.loads(subprocess.run([pw, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     check=True).stdout)


def test_fixture(pw, fmt, path):
    with perfweave.open(path) as ds:
        check(ds.format == fmt, "%s: format %s" % (path, ds.format))
        df = ds.records()
        compare_records(pw, fmt, path, df)
        # Small batches cross batch boundaries everywhere.
        small = ds.records(batch_size=7)
        check(small.equals(df), "%s: records(batch_size=7) differs" % path)
        check(ds.stats() == cli_json(pw, "stats", "--json", path), "%s: stats() differs" % path)
        check(ds.stats(analyses="0") == cli_json(pw, "stats", "--json", "--set", "analyses=0", path),
              "%s: stats(analyses=\"0\") differs from stats --set analyses=0" % path)
        if fmt == "dumpi":
            # Opened for records only, DUMPI gathers its profile when stats
            # asks for it, to the same bytes.
            check(ds.stats(wants="records") == cli_json(pw, "stats", "--json", path),
                  "%s: stats(wants=\"records\") (the profile made late) differs" % path)
        check(ds.info() == cli_json(pw, "info", "--json", path), "%s: info() differs" % path)
        check(ds.info(locations=True) == cli_json(pw, "info", "--json", "--locations", path),
              "%s: info(locations=True) differs" % path)
        test_filters(ds, path, df)
        ev = ds.events()
        check(list(ev.columns[:5]) == ["Timestamp (ns)", "Event Type", "Name", "Process", "Thread"],
              "%s: events() columns %s" % (path, list(ev.columns[:5])))
        check(ev["Timestamp (ns)"].is_monotonic_increasing, "%s: events() out of order" % path)
        if fmt == "dumpi":
            test_dumpi_spans(ds, path, ev)


def test_dumpi_spans(ds, path, ev):
    """Every MPI call is an Enter and a Leave, and the calls' durations
    (records(ends=True)) sum per rank to the report's MPI time per rank
    (src/formats/dumpi stats: "ranks" mpi_s)."""
    df = ds.records(ends=True)
    kinds = ev["Event Type"].value_counts()
    check(kinds["Enter"] == kinds["Leave"] == len(df), "%s: events() %r" % (path, dict(kinds)))
    per_rank = ((df.t_end - df.t).groupby(df["loc"], observed=True).sum() / 1e9).to_dict()
    for row in ds.stats()["ranks"]:
        ours = per_rank.get("rank%d" % row["rank"])
        check(ours is not None and abs(ours - row["mpi_s"]) < 1e-9,
              "%s: rank %d MPI time %r, the report says %r" % (path, row["rank"], ours, row["mpi_s"]))


def test_filters(ds, path, df):
    """A location filter keeps the rows of that location (and of its
    descendants); one location's stream read alone (its own cursor) gives,
    in file order, the records the merge has from it; type and time
    filters give the matching rows."""
    locs = ds.locations()
    with_records = locs[locs["has_records"]]["path"]
    first = with_records.iloc[-1]
    mine = ds.records(locations=first)
    want = df[df["loc"] == first].reset_index(drop=True)
    check(list(rows(mine)) == list(rows(want)), "%s: records(locations=%r) differs from the merge's rows" % (path, first))
    stream = ds.records(stream=first)
    others = sum(len(ds.records(stream=p, fields=[])) for p in with_records)
    check(others == len(df), "%s: the streams hold %d records, the merge %d" % (path, others, len(df)))
    check(sorted(zip(stream["loc"].astype(str), stream["t"].astype(str))) ==
          sorted(zip(want["loc"].astype(str), want["t"].astype(str))) or
          len(set(stream["loc"].astype(str))) > 1,
          "%s: records(stream=%r) is not that location's records" % (path, first))
    some_type = df["type"].iloc[len(df) // 2]
    typed = ds.records(types=[some_type])
    check(len(typed) == (df["type"] == some_type).sum(), "%s: records(types=...) count" % path)
    t = df["t"].dropna()
    if len(t) > 2:
        lo, hi = t.iloc[len(t) // 3], t.iloc[2 * len(t) // 3]
        timed = ds.records(start=lo, end=hi)
        check(len(timed) == ((t >= lo) & (t < hi)).sum(), "%s: records(start, end) count" % path)


def test_damage(pw, data, tmp):
    """A DUMPI rank file cut short: the CLI exits 3 naming the damage; the
    binding raises DataError with the same message and the good records."""
    src = os.path.join(data, "dumpi", "nonblock4")
    dst = os.path.join(tmp, "cut")
    shutil.copytree(src, dst)
    victim = sorted(f for f in os.listdir(dst) if f.endswith(".bin"))[1]
    size = os.path.getsize(os.path.join(dst, victim))
    os.truncate(os.path.join(dst, victim), size * 2 // 3)
    cli = subprocess.run([pw, "dump", "--jsonl", dst], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    errors = [l for l in cli.stderr.decode().splitlines() if l.startswith("perfweave: error: ")]
    check(cli.returncode == 1 and errors, "damage: the CLI exits %d" % cli.returncode)
    with perfweave.open(dst) as ds:
        try:
            ds.records()
            check(False, "damage: records() raised nothing")
        except perfweave.DataError as e:
            line = "perfweave: error: %s [%s]" % (e, e.code)
            check(errors and line == errors[0], "damage: %r is not %r" % (line, errors[:1]))
            check(e.file and e.offset is not None, "damage: no file/offset in %r" % e)
            check(len(e.partial) == len(cli.stdout.splitlines()),
                  "damage: partial has %d rows, the CLI wrote %d"
                  % (len(e.partial), len(cli.stdout.splitlines())))
    # An ovni stream cut inside an event, read alone: its cursor fails; the
    # error names the offset (the CLI's message) and carries the records
    # before it; strict=False returns them.
    src = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "ovni", "mpi-func")
    dst = os.path.join(tmp, "ovni-cut")
    shutil.copytree(src, dst)
    stream = sorted(os.path.join(d, f) for d, _, fs in os.walk(dst) for f in fs
                    if f == "stream.obs")[0]
    os.truncate(stream, os.path.getsize(stream) // 2 + 3)
    cli = subprocess.run([pw, "dump", "--jsonl", dst], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    with perfweave.open(dst) as ds:
        locs = ds.locations()
        cut = locs[locs["file"] == stream]["path"].iloc[0]
        try:
            ds.records(stream=cut)
            check(False, "ovni cut: records(stream=...) raised nothing")
        except perfweave.DataError as e:
            check(str(e) in cli.stderr.decode(), "ovni cut: %r not in the CLI's %r" % (str(e), cli.stderr))
            check(len(e.partial) > 0 and e.offset is not None, "ovni cut: no partial records")
            check(len(ds.records(stream=cut, strict=False)) == len(e.partial),
                  "ovni cut: strict=False differs from the partial records")
    # A missing path: the library's open error.
    try:
        perfweave.open(os.path.join(tmp, "no-such-trace"))
        check(False, "missing path: no error")
    except perfweave.PerfweaveError as e:
        cli = subprocess.run([pw, "info", os.path.join(tmp, "no-such-trace")],
                             stderr=subprocess.PIPE)
        check(str(e) in cli.stderr.decode(), "missing path: %r not in %r" % (str(e), cli.stderr))
    # Garbage named like a trace: any error, no crash.
    junk = os.path.join(tmp, "junk")
    os.mkdir(junk)
    with open(os.path.join(junk, "x-0000.bin"), "wb") as f:
        f.write(os.urandom(4096))
    try:
        with perfweave.open(junk) as ds:
            ds.records()
    except perfweave.PerfweaveError:
        pass


def test_api(path, tmp):
    """Options, tables and conversion on a DUMPI fixture: stats(threads=1)
    reopens with that option and reports the same; table() is a report
    table as rows; convert() accounts for every record; a format's options
    are the CLI's flags as keywords; an unknown keyword is a TypeError."""
    with perfweave.open(path, threads=2) as ds:
        report = ds.stats()
        check(ds.stats(threads=1) == report, "api: stats(threads=1) differs")
        table = ds.table("functions")
        check(len(table) == len(report["functions"]) and
              list(table.columns) == list(report["functions"][0]),
              "api: table('functions') is not the report's rows")
        n = len(ds.records())
        account = ds.convert(os.path.join(tmp, "out.pftrace"))
        check(account["target"] == "perfetto" and account["records_in"] == n and
              account["records_out"] + sum(i["count"] for i in account["items"] if i["lost"]) == n,
              "api: convert() account %r" % account)
        try:
            ds.table("no_such_table")
            check(False, "api: table() of a missing name")
        except KeyError:
            pass
    try:
        perfweave.open(path, no_such_option=1)
        check(False, "api: an unknown option was accepted")
    except TypeError:
        pass
    ross = os.path.join(os.path.dirname(path), "..", "ross", "phold-np2-model")
    with perfweave.open(ross, ross_lp_layout="48") as ds:
        check(len(ds.records()) > 0, "api: ross_lp_layout option")
    check("dumpi" in perfweave.formats(), "api: formats() %r" % perfweave.formats())


def test_lifetime(path):
    """Closing a dataset while a batch iterator is under way: the iterator
    raises at its next step, the library's dataset outlives its reader."""
    ds = perfweave.open(path)
    it = ds.iter_batches(batch_size=100)
    check(len(next(it)) == 100, "lifetime: first batch")
    ds.close()
    try:
        next(it)
        check(False, "lifetime: a closed dataset still reads")
    except ValueError:
        pass
    check(ds._ds is None, "lifetime: the dataset was not released")


def test_ovni_states(pw, path):
    """states() holds the emulator's intervals, whose time per thread
    state adds up to the states table of stats (an independent sum: the
    intervals come from `dump --states`' changes, the table from the
    emulator's own accounts); events() gives an Enter and a Leave per
    labelled thread state, Pipit's layout."""
    with perfweave.open(path) as ds:
        st = ds.states()
        check(len(st) > 0 and (st.end_ns > st.start_ns).all(), "states(): %d intervals" % len(st))
        table = ds.table("states")
        for (view, loc, typ, value), grp in st.groupby(["view", "loc", "type", "value"]):
            want = table[(table.view == view) & (table.type == typ) & (table.value == value)
                         & table.row.apply(lambda r: loc.endswith(r.split("/")[-1]) or r == loc)]
            if view == "thread" and len(want) == 1:
                got = (grp.end_ns - grp.start_ns).sum() / 1e9
                check(abs(got - want.time_s.iloc[0]) < 1e-9, "states(): %s %s %s: %r != %r"
                      % (loc, typ, value, got, want.time_s.iloc[0]))
        ev = ds.events()
        named = ev[ev["Channel"].notna()] if "Channel" in ev else ev.iloc[:0]
        counts = named["Event Type"].value_counts()
        check(len(named) > 0 and counts.get("Enter", 0) == counts.get("Leave", 0),
              "events(): state Enter/Leave %s" % dict(counts))


def main():
    pw, data, gen_gp = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, path in fixtures(data, gen_gp, tmp):
            test_fixture(pw, fmt, path)
        test_damage(pw, data, tmp)
        test_lifetime(os.path.join(data, "dumpi", "nonblock4"))
        test_api(os.path.join(data, "dumpi", "nonblock4"), tmp)
        test_ovni_states(pw, os.path.join(data, "ovni", "ctest-1.14.0", "emu-nanos6-task-types", "ovni"))
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
