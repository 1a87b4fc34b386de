#!/usr/bin/env python3
"""Single answers that must hold, each against an independent reference:

- DUMPI `info`: time_first/time_last/span run from the first call's entry
  to the last call's exit, as the dumpi2ascii oracles print them;
- `stats --table NAME` with no such table exits 2 and lists the tables;
- a `--type` that matches nothing warns and lists the types; a `--ranks`
  or `--loc` that matches nothing exits 2 and lists what there is;
- bytes that are not DUMPI, read with `--format dumpi`, are an error at
  offset 0 (the lead-in magic);
- HPCToolkit: a relative window (`dump --start 1ms`) on a database with a
  trace keeps the samples from 1 ms after the first one on;
- a single compressed file (ROSS `-evtrace.bin.gz`, a DUMPI rank
  `.bin.gz`) given as the path reads as its plain name;
- a profile without a trace converted to Perfetto is refused before any
  output exists (exit 2, no file, the targets that fit named), and the
  viewer's advice follows only an output with records; a DUMPI trace
  traced without clocks (`timestamp none`) is refused so by every target
  for timelines, with the exit code of the HPCToolkit profile.

usage: check_single_answers.py PERFWEAVE SHARED_DATA WORK"""
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal

PW, DATA, WORK = sys.argv[1:4]
FAILED = []


def run(*args):
    p = subprocess.run([PW] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(ok, what):
    if not ok:
        FAILED.append(what)


def dumpi_span():
    """info's span of every DUMPI fixture with wall clocks = the oracle's
    first entry and last exit (walltime, in ns)."""
    line = re.compile(r"^\S+ (entering|returning) at walltime (\d+\.\d+),")
    checked = 0
    for d in sorted(glob.glob(os.path.join(DATA, "dumpi", "*"))):
        enter, leave = [], []
        for f in glob.glob(os.path.join(d, "*.ascii.txt")):
            with open(f, errors="replace") as fh:
                for text in fh:
                    m = line.match(text)
                    if m:
                        (enter if m.group(1) == "entering" else leave).append(Decimal(m.group(2)))
        rc, out, err = run("info", d, "--json")
        if not enter or rc != 0:
            continue
        info = json.loads(out)
        if max(enter) == 0:  # no wall clock recorded
            continue
        first, last = int(min(enter) * 10**9), int(max(leave) * 10**9)
        check(info.get("time_first_ns") == first and info.get("time_last_ns") == last,
              "%s: info time %s..%s, the oracle %d..%d" % (d, info.get("time_first_ns"),
                                                             info.get("time_last_ns"), first, last))
        checked += 1
    check(checked >= 3, "only %d DUMPI fixtures had wall-clock oracles" % checked)


def unknown_names():
    trace = os.path.join(DATA, "dumpi", "nonblock4")
    rc, out, err = run("stats", trace, "--table", "nosuch")
    check(rc == 2 and "nosuch" in err and "functions" in err and "ranks" in err,
          "--table nosuch: exit %d, %r" % (rc, err[-300:]))
    rc, out, err = run("stats", trace, "--table", "ranks")
    check(rc == 0 and "ranks (4)" in out, "--table ranks: exit %d" % rc)
    rc, out, err = run("stats", trace, "--type", "MPI_Foo*")
    check("warning" in err and "MPI_Foo*" in err and "MPI_Send" in err,
          "--type 'MPI_Foo*' does not warn with the types: %r" % err[-300:])
    rc, out, err = run("stats", trace, "--type", "MPI_Send*")
    check("warning" not in err, "--type 'MPI_Send*' warns: %r" % err[-300:])
    rc, out, err = run("stats", trace, "--ranks", "9")
    check(rc == 2 and "0,1,2,3" in err, "--ranks 9: exit %d, %r" % (rc, err[-300:]))
    rc, out, err = run("stats", trace, "--loc", "nosuch*")
    check(rc == 2 and '"rank0", "rank1"' in err, "--loc nosuch*: exit %d, %r" % (rc, err[-300:]))


def random_dumpi():
    path = os.path.join(WORK, "random.bin")
    with open(path, "wb") as f:
        f.write(bytes((i * 7919 + 13) % 251 for i in range(5000)))
    rc, out, err = run("check", path, "--format", "dumpi")
    check(rc == 1 and re.search(r"offset 0: lead-in magic .* expected", err) is not None,
          "random bytes as DUMPI: exit %d, no lead-in finding at offset 0: %r" % (rc, err[-400:]))


def hpctoolkit_window():
    db = os.path.join(DATA, "hpctoolkit", "hpctoolkit", "tests-data-dbase@f9abaf11f", "loops-cputime-t.d")
    rc, out, err = run("dump", db, "--jsonl")
    times = [json.loads(line)["t"] for line in out.splitlines() if '"t"' in line]
    check(times, "%s: no timed record" % db)
    if not times:
        return
    first = min(times)
    rc, out, err = run("dump", db, "--jsonl", "--start", "1ms")
    got = [json.loads(line)["t"] for line in out.splitlines() if '"t"' in line]
    want = [t for t in times if t >= first + 1000000]
    check(rc == 0 and sorted(got) == sorted(want),
          "dump --start 1ms: exit %d, %d timed records, want %d: %r" % (rc, len(got), len(want), err[-300:]))


def absolute_window_exact():
    """An absolute --start/--end is a whole clock reading, to the unit: at
    unix-ns clocks (1.7e18) a double would move it by up to 256 ns."""
    db = os.path.join(DATA, "hpctoolkit", "hpctoolkit", "tests-data-dbase@f9abaf11f", "loops-cputime-t.d")
    rc, out, err = run("dump", db, "--jsonl")
    times = sorted({json.loads(line)["t"] for line in out.splitlines() if '"t"' in line})
    if len(times) < 3:
        return check(False, "%s: too few timed records for the absolute window" % db)
    # Bounds one unit past a record's time: rounded to 256 ns, about half
    # of them would take that record in.
    all_times = [json.loads(line)["t"] for line in out.splitlines() if '"t"' in line]
    for k in range(1, 9):
        start = times[k * len(times) // 20] + 1
        end = times[(k + 10) * len(times) // 20] + 1
        rc, got_out, err = run("dump", db, "--jsonl", "--start", "@%d" % start, "--end", "@%d" % end)
        got = sorted(json.loads(line)["t"] for line in got_out.splitlines() if '"t"' in line)
        want = sorted(t for t in all_times if start <= t < end)
        check(rc == 0 and got == want, "dump --start @%d --end @%d: %d timed records, want %d"
              % (start, end, len(got), len(want)))


def compressed_single_files():
    for src in (os.path.join(DATA, "ross", "known-np1-seq", "known-np1-seq-evtrace.bin"),
                sorted(glob.glob(os.path.join(DATA, "dumpi", "pingpong4", "*-0000.bin")))[0]):
        plain = run("info", src, "--json")
        packed = os.path.join(WORK, os.path.basename(src) + ".gz")
        with open(src, "rb") as f, gzip.open(packed, "wb") as g:
            shutil.copyfileobj(f, g)
        rc, out, err = run("info", packed, "--json")
        check(rc == plain[0] == 0, "%s: exit %d (plain: %d): %r" % (packed, rc, plain[0], err[-300:]))
        if rc == 0 and plain[0] == 0:
            a, b = json.loads(plain[1]), json.loads(out)
            for k in ("format", "records", "time_first_ns", "time_last_ns", "virtual_time_last"):
                check(a.get(k) == b.get(k), "%s: %s %r, plain %r" % (packed, k, b.get(k), a.get(k)))


def untimed_conversion():
    db = os.path.join(DATA, "hpctoolkit", "hatchet", "hpctoolkit-cpi-database@79c009b")
    out = os.path.join(WORK, "profile.pftrace")
    rc, _, err = run("convert", db, "-o", out)
    check(rc == 2 and not os.path.exists(out) and "sqlite" in err and "csv" in err and "stats" in err,
          "profile to Perfetto: exit %d, file %s, %r" % (rc, os.path.exists(out), err[-300:]))
    check("ui.perfetto.dev" not in err, "advice to view an output that was not written")
    check(not [f for f in os.listdir(WORK) if f.startswith(".profile")], "a temporary left behind")
    rc, _, err = run("convert", os.path.join(DATA, "dumpi", "pingpong4"), "-o", out)
    check(rc == 0 and "ui.perfetto.dev" in err, "a trace to Perfetto: exit %d, no viewer advice" % rc)
    empty = os.path.join(WORK, "empty.pftrace")
    rc, _, err = run("convert", os.path.join(DATA, "dumpi", "pingpong4"), "-o", empty, "--start", "1000s")
    check("ui.perfetto.dev" not in err, "advice to view an empty output: %r" % err[-300:])


def untimed_dumpi():
    """Every target that draws a timeline refuses the clockless DUMPI
    trace as it refuses the profile: same exit, no output, the targets
    that fit named.  The oracles say no call has a clock (dumpi2ascii
    prints 0 for a record without a time block)."""
    trace = glob.glob(os.path.join(DATA, "dumpi", "*notime-nostatus*"))[0]
    clocks = set()
    for f in glob.glob(os.path.join(trace, "*.ascii.txt")):
        with open(f, errors="replace") as fh:
            clocks |= set(re.findall(r"at walltime (\S+), cputime (\S+) ", fh.read()))
    check(clocks == {("0.000000000", "0.000000000")}, "%s: the oracles show clocks %r" % (trace, clocks))
    profile = os.path.join(DATA, "hpctoolkit", "hatchet", "hpctoolkit-cpi-database@79c009b")
    want, _, _ = run("convert", profile, "-o", os.path.join(WORK, "profile.json"))
    for name in ("t.pftrace", "t.json", "t.otf2", "t.prv"):
        out = os.path.join(WORK, "notime", name)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        rc, _, err = run("convert", trace, "-o", out)
        check(rc == want == 2, "%s to %s: exit %d (the profile's: %d): %r" % (trace, name, rc, want, err[-300:]))
        check(all(w in err for w in ("sqlite", "csv", "stats")), "%s: the targets that fit not named: %r" % (name, err[-300:]))
        check(os.listdir(os.path.dirname(out)) == [], "%s: output left: %r" % (name, os.listdir(os.path.dirname(out))))
        check("ui.perfetto.dev" not in err, "%s: advice to view an output that was not written" % name)
    rc, _, err = run("convert", trace, "--to", "csv", "-o", os.path.join(WORK, "notime-csv"))
    check(rc == 0, "clockless DUMPI to csv: exit %d: %r" % (rc, err[-300:]))


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    for test in (dumpi_span, unknown_names, random_dumpi, hpctoolkit_window, absolute_window_exact,
                 compressed_single_files, untimed_conversion, untimed_dumpi):
        test()
    for f in FAILED:
        print("FAIL", f)
    print("single answers: %d failures" % len(FAILED))
    sys.exit(1 if FAILED else 0)


main()
