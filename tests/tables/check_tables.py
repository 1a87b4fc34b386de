#!/usr/bin/env python3
"""check_tables.py - one reading contract for every table (issue 28).

For every fixture of every format in the shared data (the datasets the
golden test runs, every OTF2 archive, and a generated gpupower tree):

- the names `stats --tables --json` lists are the top-level tables of
  `stats --json` (its members that are objects or arrays, and nothing else
  at the top), the '# name' sections of `stats --csv`, and, with --python,
  the tables Python's Dataset.tables() lists, each of which table(name)
  returns as a flat DataFrame with the listed columns (no cell a list or a
  dict) and the listed number of rows, in long format (a row per item of
  a list a --json row holds), with every value --json holds: nothing
  dropped;
- every column's unit is from the vocabulary, and a column is in "ns"
  (an absolute clock reading) exactly when its name ends in _ns;
- for one fixture per format, `stats --table NAME` prints the table NAME
  and no other.

usage: check_tables.py PERFWEAVE SHARED_DATA GEN_GPUPOWER [--python]
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden  # noqa: E402  (its list of the shared fixtures)

UNITS = {"s", "B", "B/s", "%", "J", "W", "Hz", "MHz", "\u00b0C", "1/s", "vt", "vt/s", "count", "J\u00b7s", "J\u00b7s\u00b2", "\u00d7", ""}
CLOCK = "ns"  # an absolute clock reading: only in columns named *_ns


def run(pw, args, cwd=None):
    p = subprocess.run([pw] + args, capture_output=True, text=True, cwd=cwd)
    if p.returncode not in (0, 1):  # 1: damage reported, the report still comes
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[-500:]))
    return p.stdout


def leaves(obj, prefix=""):
    """(dotted name, value) of every scalar of a row, and of every item of
    its lists (by the list's name: an item object's members dotted)."""
    out = []
    for k, v in obj.items():
        name = prefix + k
        items = v if isinstance(v, list) else [v]
        for x in items:
            if isinstance(x, dict):
                out += leaves(x, name + ".")
            elif isinstance(x, list):
                out += leaves({k: x}, prefix)
            else:
                out.append((name, x))
    return out


def long_rows(table):
    """A table of --json in long format: a row per combination of one item
    of each list it holds (an empty list counts as one null item)."""
    rows = table if isinstance(table, list) else [table] if isinstance(table, dict) else []
    out = []
    for row in rows:
        expanded = [{}]
        for name, values in grouped(row).items():
            expanded = [dict(e, **{name: v}) for e in expanded for v in values]
        out += expanded
    return out


def grouped(row, prefix=""):
    """A row's members by dotted name: the values each takes in long
    format (one for a scalar, one per item for a list of scalars)."""
    out = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out.update(grouped(v, prefix + k + "."))
        elif isinstance(v, list) and all(isinstance(x, dict) for x in v) and v:
            out[prefix + k] = [("item", i) for i in range(len(v))]
        else:
            out[prefix + k] = v if isinstance(v, list) and v else [None] if isinstance(v, list) else [v]
    return out


def csv_sections(text):
    return [line[2:] for line in text.splitlines() if line.startswith("# ")]


def check_one(pw, path, extra, cwd, with_table):
    """The failures of one dataset, and its listing."""
    failures = []
    listing = json.loads(run(pw, ["stats", "--tables", "--json", path] + extra, cwd))
    names = [t["name"] for t in listing]
    report = json.loads(run(pw, ["stats", "--json", path] + extra, cwd))
    tops = [k for k, v in report.items() if isinstance(v, (dict, list))]
    loose = [k for k, v in report.items() if not isinstance(v, (dict, list))]
    if tops != names:
        failures.append("%s: --json tables %s != --tables %s" % (path, tops, names))
    if loose:
        failures.append("%s: --json has values outside any table: %s" % (path, loose))
    sections = csv_sections(run(pw, ["stats", "--csv", path] + extra, cwd))
    if sections != names:
        failures.append("%s: --csv sections %s != --tables %s" % (path, sections, names))
    for t in listing:
        for c in t["columns"]:
            if c["unit"] == CLOCK and not c["name"].endswith("_ns"):
                failures.append("%s: %s.%s: unit ns outside a *_ns column" % (path, t["name"], c["name"]))
            elif c["name"].endswith("_ns") and c["unit"] != CLOCK:
                failures.append("%s: %s.%s: a *_ns column in %r, not ns" % (path, t["name"], c["name"], c["unit"]))
            elif c["unit"] not in UNITS | {CLOCK}:
                failures.append("%s: %s.%s: unit %r is not in the vocabulary" % (path, t["name"], c["name"], c["unit"]))
        if t["rows"] != len(long_rows(report.get(t["name"]))):
            failures.append("%s: %s: %d rows listed, %d in long format" % (path, t["name"], t["rows"],
                                                                        len(long_rows(report.get(t["name"])))))
    for name in names if with_table else []:
        text = run(pw, ["stats", "--table", name, path] + extra, cwd)
        heads = [line.split(" ")[0] for line in text.splitlines() if line and not line.startswith(" ")]
        if heads != [name]:
            failures.append("%s: --table %s prints %s" % (path, name, heads))
    return failures, listing, report


def same(a, b):
    return a == b or (a is None and b != b) or (b is None and a != a)


def dropped(path, name, df, table):
    """Every value --json holds in the table (scalars, and the items of its
    lists) is in the DataFrame's column of that name: nothing dropped."""
    rows = table if isinstance(table, list) else [table] if isinstance(table, dict) else []
    failures = []
    for row in rows:
        for col, value in leaves(row):
            if col not in df.columns:
                failures.append("%s: python table(%s) drops %s" % (path, name, col))
                return failures
            if not any(same(value, v) for v in df[col]):
                failures.append("%s: python table(%s) drops %s = %r" % (path, name, col, value))
                return failures
    return failures


def check_python(path, extra, listing, cwd, report):
    """Python's tables() and table(name) against the CLI's listing, and
    every value of --json in them."""
    import perfweave
    failures = []
    opts = {"tz": extra[1]} if extra else {}
    here = os.getcwd()
    os.chdir(cwd or here)
    try:
        with perfweave.open(path, **opts) as ds:
            listed = list(ds.tables()["name"])
            if listed != [t["name"] for t in listing]:
                failures.append("%s: python tables() %s != --tables" % (path, listed))
            for t in listing:
                df = ds.table(t["name"])
                want = [c["name"] for c in t["columns"]] if t["rows"] else []
                if list(df.columns) != want:
                    failures.append("%s: python table(%s) columns %s != %s" % (path, t["name"], list(df.columns), want))
                if len(df) != t["rows"]:
                    failures.append("%s: python table(%s) has %d rows, %d listed" % (path, t["name"], len(df), t["rows"]))
                for col in df.columns:
                    if any(isinstance(v, (list, dict)) for v in df[col]):
                        failures.append("%s: python table(%s) column %s holds lists or dicts" % (path, t["name"], col))
                failures += dropped(path, t["name"], df, report.get(t["name"]))
    finally:
        os.chdir(here)
    return failures


def main():
    pw, data, gen = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    with_python = "--python" in sys.argv[4:]
    started = time.time()
    work = tempfile.mkdtemp(prefix="pw-tables-")
    subprocess.run([sys.executable, gen, os.path.join(work, "gp"), "--seed", "7"], check=True, capture_output=True)
    jobs = [(os.path.join(data, rel), [], None) for rel in golden.datasets(data)]
    otf2 = os.path.join(data, "otf2")  # every archive (the golden test has none yet)
    jobs += [(os.path.join(otf2, name), [], None) for name in sorted(os.listdir(otf2))
             if os.path.exists(os.path.join(otf2, name, "traces.otf2"))]
    jobs.append(("tree", ["--tz", "+01:00"], os.path.join(work, "gp")))
    sampled = set()
    failures = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = []
        for path, extra, cwd in jobs:
            fmt = os.path.relpath(path, data).split(os.sep)[0] if cwd is None else "gpupower"
            futures.append((path, extra, cwd, pool.submit(check_one, pw, path, extra, cwd, fmt not in sampled)))
            sampled.add(fmt)
        results = [(path, extra, cwd, f.result()) for path, extra, cwd, f in futures]
    for path, extra, cwd, (fails, listing, report) in results:
        failures += fails
        if with_python:
            failures += check_python(path, extra, listing, cwd, report)
    for f in failures:
        print("FAIL", f)
    print("%d datasets, %d failures, %.1f s" % (len(results), len(failures), time.time() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
