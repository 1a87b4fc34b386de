#!/usr/bin/env python3
"""Filters, checked against the unfiltered output: for every fixture of
every format, `dump --jsonl` with a filter gives exactly the lines of the
unfiltered `dump --jsonl` that the filter's rules (include/perfweave.h,
pw_filter) keep, computed here:
  - a record at t is kept when start <= t < end; a DUMPI call (a span whose
    end is its exit time, the second number of "wall", or of "cpu" without
    a wall clock) when it overlaps [start, end); records without "t" always;
  - --loc GLOB keeps a location when its path or an ancestor's matches;
  - --ranks LIST keeps the DUMPI ranks listed (location "rankN" and below);
  - --type GLOB keeps the types that match, ignoring case.
Then a converted window (CSV, one file per type) holds as many records as
the filtered dump, and the summary counts the clipped spans; and DUMPI's
profile (stats) of a filtered trace counts the calls the filter keeps.

usage: check_filters.py PERFWEAVE SHARED_DATA GEN_GPUPOWER WORK"""
import decimal
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

FAILED = []


def subdirs(path):
    return [os.path.join(path, n) for n in sorted(os.listdir(path))
            if os.path.isdir(os.path.join(path, n))]


def fixtures(data, gen, work):
    """Every dataset folder: folders that gather several (ovni's ctest
    traces, HPCToolkit's test databases) are entered; HPCToolkit folders
    without a database (Hatchet's expected CSV) are left out."""
    found = []
    for fmt in ("ovni", "dumpi", "ross"):
        for d in subdirs(os.path.join(data, fmt)):
            found += [(fmt, d)] if fmt != "ovni" or not d.endswith("ctest-1.14.0") else \
                [(fmt, t) for t in subdirs(d)]
    for group in subdirs(os.path.join(data, "hpctoolkit")):
        for d in subdirs(group):
            inner = [t for t in subdirs(d) if t.endswith(".d")]
            if inner or os.listdir(d) != ["hpctoolkit-cpi-graphframe.csv"]:
                found += [("hpctoolkit", t) for t in inner] or [("hpctoolkit", d)]
    gp = os.path.join(work, "gpupower")
    shutil.rmtree(gp, ignore_errors=True)
    subprocess.run([sys.executable, gen, gp, "--seed", "3"], check=True, stdout=subprocess.DEVNULL)
    found.append(("gpupower", os.path.join(gp, "tree")))
    return found


def dump(pw, path, args):
    p = subprocess.run([pw, "dump", path, "--jsonl", "-q"] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode().splitlines(), p.stderr.decode()


def span_end(rec):
    """The exit time of a DUMPI call in ns, exactly (from the decimal text)."""
    clock = rec.get("wall") or rec.get("cpu")
    if not isinstance(clock, list) or len(clock) != 2:
        return rec["t"]
    return int(decimal.Decimal(clock[1]) * 1000000000)


def keep_time(rec, start, end, spans):
    if "t" not in rec:
        return True
    t = rec["t"]
    last = span_end(rec) if spans else t
    return t < end and (t >= start or last > start)


def keep_loc(loc, globs):
    parts = loc.split("/")
    paths = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return any(fnmatch.fnmatchcase(p, g) for p in paths for g in globs)


def keep_type(typ, globs):
    return any(fnmatch.fnmatchcase(typ.lower(), g.lower()) for g in globs)


def check(name, pw, path, args, want_lines):
    """ROSS files are not in time order (optimistic simulation), nor are
    DUMPI files of threaded ranks (calls written as they end), so the
    merge's interleaving depends on what else is read: compare the lines
    as a multiset there; elsewhere in order."""
    code, got, err = dump(pw, path, args)
    if "/ross/" in path or "threads" in path:
        got, want_lines = sorted(got), sorted(want_lines)
    if code not in (0, 1) or got != want_lines:
        FAILED.append("%s %s: exit %d, %d lines, %d expected\n%s" %
                      (name, " ".join(args), code, len(got), len(want_lines), err[-500:]))
        return False
    return True


def window_of(records):
    times = [r["t"] for r in records if "t" in r]
    if not times:
        return None
    lo, hi = min(times), max(times)
    return lo, lo + (hi - lo) // 3, lo + 2 * (hi - lo) // 3


def check_fixture(fmt, path, pw, work):
    name = fmt + "/" + os.path.basename(path)
    code, lines, err = dump(pw, path, [])
    if code not in (0, 1) or (not lines and "empty" not in path):
        FAILED.append("%s: unfiltered dump failed (exit %d)\n%s" % (name, code, err[-500:]))
        return
    if not lines:
        print("ok %s: no records" % name)
        return
    parse = lambda l: json.loads(l, parse_float=decimal.Decimal)
    recs = [parse(l) for l in lines]
    spans = fmt == "dumpi"
    n_checks = 0
    win = window_of(recs)
    if win:
        lo, a, b = win
        if isinstance(a, decimal.Decimal) or fmt == "ross":
            a, b = int(a), int(b)
        want = [l for l, r in zip(lines, recs) if keep_time(r, a, b, spans)]
        n_checks += check(name, pw, path, ["--start", "@%d" % a, "--end", "@%d" % b], want)
        for j in ("1", "2", "3"):  # the plain merge, the pipeline, the epochs
            n_checks += check(name, pw, path, ["-j", j, "--start", "@%d" % a, "--end", "@%d" % b], want)
        want = [l for l, r in zip(lines, recs) if keep_time(r, a, float("inf"), spans)]
        n_checks += check(name, pw, path, ["--start", "@%d" % a], want)
        threads = any("thread" in r["loc"] for r in recs)
        if fmt == "ovni" or (fmt == "dumpi" and not threads):  # time ordered: the first is the earliest
            rel = (b - lo) / 1e9
            want = [l for l, r in zip(lines, recs) if keep_time(r, -2**63, lo + round(rel * 1e9), spans)]
            n_checks += check(name, pw, path, ["--end", "%dns" % (b - lo)], want)
    locs = sorted({r["loc"] for r in recs})
    glob = locs[len(locs) // 2]
    glob = glob.rsplit("/", 1)[0] if "/" in glob else glob
    want = [l for l, r in zip(lines, recs) if keep_loc(r["loc"], [glob])]
    n_checks += check(name, pw, path, ["--loc", glob], want)
    types = sorted({r["type"] for r in recs})
    tglob = types[len(types) // 2][:3].upper() + "*"
    want = [l for l, r in zip(lines, recs) if keep_type(r["type"], [tglob, "nothing*"])]
    n_checks += check(name, pw, path, ["--type", tglob, "--type", "nothing*"], want)
    if fmt == "dumpi":
        want = [l for l, r in zip(lines, recs) if keep_loc(r["loc"], ["rank1", "rank2"])]
        n_checks += check(name, pw, path, ["--ranks", "1-2"], want)
        if win:
            check_convert(name, pw, path, recs, win, work)
            lo, a, b = win
            # calls count where they enter (their time inside the window: mpi_window.py)
            check_dumpi_stats(name, pw, path, [r for r in recs if keep_time(r, a, b, False)],
                              ["--start", "@%d" % a, "--end", "@%d" % b])
        check_dumpi_stats(name, pw, path, [r for r in recs if keep_loc(r["loc"], ["rank1", "rank2"])],
                          ["--ranks", "1-2"])
    print("ok %s: %d filters" % (name, n_checks))


def check_dumpi_stats(name, pw, path, kept, args):
    """DUMPI's profile of a filtered trace counts the calls the filter keeps
    (under a window: those that enter it; a row of calls entered before it
    has 0 calls and their time inside)."""
    p = subprocess.run([pw, "stats", path, "--json", "-q"] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    want = {}
    for r in kept:
        want[r["type"]] = want.get(r["type"], 0) + 1
    got = {}
    if p.returncode in (0, 1):
        got = {f["function"]: f["calls"] for f in json.loads(p.stdout).get("functions", []) if f["calls"]}
    if got != want:
        FAILED.append("%s stats %s: calls per function %s, %s expected" % (name, " ".join(args), got, want))


def check_convert(name, pw, path, recs, win, work):
    """A window converted to CSV (records one by one) and to Perfetto (the
    timeline): the window's records, clipped spans counted."""
    for out in ("window.csv.d", "window.pftrace"):
        check_convert_to(name, pw, path, recs, win, os.path.join(work, out))


def check_convert_to(name, pw, path, recs, win, out):
    lo, a, b = win
    kept = [r for r in recs if keep_time(r, a, b, True)]
    clipped = sum(1 for r in kept if "t" in r and (r["t"] < a or span_end(r) > b))
    shutil.rmtree(out, ignore_errors=True)
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([pw, "convert", path, "-o", out, "--start", "@%d" % a, "--end", "@%d" % b],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    m = re.search(r"\((\d+) records in, (\d+) out", err)
    c = re.search(r"adapted: +(\d+) spans clipped", err)
    got_clipped = int(c.group(1)) if c else 0
    if p.returncode not in (0, 1) or not m or int(m.group(1)) != len(kept) or got_clipped != clipped:
        FAILED.append("%s convert window to %s: %s records, %d clipped; %d and %d expected\n%s" %
                      (name, os.path.basename(out), m.group(1) if m else "?", got_clipped, len(kept),
                       clipped, err[-500:]))


def main():
    pw, data, gen, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    for fmt, path in fixtures(data, gen, work):
        check_fixture(fmt, path, pw, work)
    for f in FAILED:
        print("FAIL " + f)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
