#!/usr/bin/env python3
"""check_tables.py - one reading contract for every table (issue 28).

For every fixture of every format in the shared data (the datasets the
golden test runs, and a generated gpupower tree):

- the names `stats --tables --json` lists are the top-level tables of
  `stats --json` (its members that are objects or arrays, and nothing else
  at the top), the '# name' sections of `stats --csv`, and, with --python,
  the tables Python's Dataset.tables() lists, each of which table(name)
  returns as a flat DataFrame with the listed columns (no cell a list or a
  dict) and the listed number of rows;
- every column's unit is from the vocabulary;
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

UNITS = {"s", "B", "B/s", "%", "J", "W", "Hz", "MHz", "\u00b0C", "1/s", "vt", "vt/s", "count", ""}


def run(pw, args, cwd=None):
    p = subprocess.run([pw] + args, capture_output=True, text=True, cwd=cwd)
    if p.returncode not in (0, 1):  # 1: damage reported, the report still comes
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[-500:]))
    return p.stdout


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
            if c["unit"] not in UNITS:
                failures.append("%s: %s.%s: unit %r is not in the vocabulary" % (path, t["name"], c["name"], c["unit"]))
        if t["rows"] != (1 if isinstance(report.get(t["name"]), dict) else len(report.get(t["name"]) or [])):
            failures.append("%s: %s: %d rows listed" % (path, t["name"], t["rows"]))
    for name in names if with_table else []:
        text = run(pw, ["stats", "--table", name, path] + extra, cwd)
        heads = [line.split(" ")[0] for line in text.splitlines() if line and not line.startswith(" ")]
        if heads != [name]:
            failures.append("%s: --table %s prints %s" % (path, name, heads))
    return failures, listing


def check_python(path, extra, listing, cwd):
    """Python's tables() and table(name) against the CLI's listing."""
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
    for path, extra, cwd, (fails, listing) in results:
        failures += fails
        if with_python:
            failures += check_python(path, extra, listing, cwd)
    for f in failures:
        print("FAIL", f)
    print("%d datasets, %d failures, %.1f s" % (len(results), len(failures), time.time() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
