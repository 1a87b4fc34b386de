#!/usr/bin/env python3
"""energy_window.py PERFWEAVE GENERATOR WORKDIR

A window on a GPU power tree (tools/gen_gpupower_tree.py) reports each
repetition and phase it overlaps cut to [start, end): its energy is the
power samples' trapezoid integral over the part inside, interpolated at the
cut, computed here from the CSV files (gpu-power.csv's `power` column, the
marks of timestamps.csv), never from perfweave's output.  The integral of
the whole repetitions is first checked against the generator's closed form,
so that this file's reading of the CSVs is right.  `--loc` reports the
repetitions under the locations it selects, with their whole figures.
"""
import csv
import datetime
import json
import os
import subprocess
import sys

TZ_OFFSET_NS = 3600 * 10**9  # the naive timestamps are UTC+01:00 (--tz +01:00)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def close(got, want, what, rel=1e-9, absolute=1e-6):
    if got is None or abs(got - want) > max(rel * abs(want), absolute):
        fail("%s: %r, expected %r" % (what, got, want))


def ns_of(text):
    """Unix ns of a timestamp: ISO with a Z zone (UTC) or naive local."""
    utc = text.endswith("Z")
    d = datetime.datetime.fromisoformat(text.rstrip("Z").replace("T", " "))
    epoch = datetime.datetime(1970, 1, 1)
    delta = d - epoch
    ns = (delta.days * 86400 + delta.seconds) * 10**9 + delta.microseconds * 1000
    return ns if utc else ns - TZ_OFFSET_NS


def read_marks(rep_dir):
    """(begin, end) of the experiment and {(phase, index): [begin, end]}."""
    window, phases = [None, None], {}
    with open(os.path.join(rep_dir, "timestamps.csv")) as f:
        for row in csv.DictReader(f):
            kind, _, edge = row["event"].rpartition("_")
            t = ns_of(row["timestamp"])
            if kind == "experiment":
                if edge == "begin" and window[0] is None:
                    window[0] = t
                elif edge == "end":
                    window[1] = t
            elif kind in ("train", "epoch"):  # the layout's phase kinds
                index = int(row["data"]) if kind == "epoch" else 0
                phases.setdefault((kind, index), [None, None])[edge == "end"] = t
    return window, phases


def read_power(rep_dir):
    """[(t_ns, watts)] of gpu-power.csv (power in mW)."""
    with open(os.path.join(rep_dir, "gpu-power.csv")) as f:
        return [(ns_of(r["timestamp"]), float(r["power"]) / 1000.0) for r in csv.DictReader(f)]


def at(samples, t):
    """The linear interpolant of the samples at t (inside their span)."""
    for (t0, p0), (t1, p1) in zip(samples, samples[1:]):
        if t0 <= t <= t1:
            return p0 if t1 == t0 else p0 + (p1 - p0) * (t - t0) / (t1 - t0)
    return samples[0][1] if t < samples[0][0] else samples[-1][1]


def integral(samples, a, b):
    """J over [a, b]: each sample segment's overlap, trapezoid at its ends."""
    joules = 0.0
    for (t0, _), (t1, _) in zip(samples, samples[1:]):
        lo, hi = max(t0, a), min(t1, b)
        if hi > lo:
            joules += (at(samples, lo) + at(samples, hi)) * 0.5 * (hi - lo) * 1e-9
    return joules


def peak(samples, a, b):
    inside = [p for t, p in samples if a <= t <= b]
    return max(inside + [at(samples, a), at(samples, b)])


def clip(b, e, lo, hi):
    """[b, e] cut to [lo, hi), or None when nothing of it is inside."""
    if not (b < hi and (e > lo or (b == e and b >= lo))):
        return None
    return max(b, lo), min(e, hi)


def stats(pw, tree, extra):
    p = subprocess.run([pw, "stats", tree, "--json", "-q", "--tz", "+01:00"] + extra,
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("stats %s: exit %d\n%s" % (" ".join(extra), p.returncode, p.stderr))
        return {}
    doc = json.loads(p.stdout)
    phases = {}  # the phases table, each row under its repetition's key
    for ph in doc.get("phases", []):
        phases.setdefault(key(ph), []).append(dict(ph, name=ph.get("phase", ph.get("name"))))
    doc["repetitions"] = [dict(r, phases=phases.get(key(r), [])) for r in doc.get("repetitions", [])]
    return doc


def key(r):
    return (r["experiment"], r["benchmark"], r["run"], r["repetition"])


def repetitions(tree, expected):
    """Per repetition key: its directory, marks and samples."""
    reps = {}
    for e in expected["repetitions"]:
        d = os.path.join(tree, e["experiment"], e["benchmark"], e["run"], e["repetition"])
        window, phases = read_marks(d)
        reps[key(e)] = {"window": window, "phases": phases, "power": read_power(d), "closed": e}
    return reps


def check_reading(reps):
    """This file's integral of the whole repetitions = the closed form."""
    for k, r in reps.items():
        b, e = r["window"]
        close(integral(r["power"], b, e), r["closed"]["energy_j"]["gpu"], "whole %s: gpu J" % "/".join(k))


def expected_row(r, lo, hi):
    cut = clip(r["window"][0], r["window"][1], lo, hi)
    if cut is None:
        return None
    b, e = cut
    phases = {}
    for (name, index), (pb, pe) in r["phases"].items():
        pc = clip(pb, pe, lo, hi) if pb is not None and pe is not None else None
        if pc is not None:
            phases[(name, index)] = {"start_s": (pc[0] - b) * 1e-9, "duration_s": (pc[1] - pc[0]) * 1e-9,
                                     "gpu": integral(r["power"], pc[0], pc[1])}
    return {"duration_s": (e - b) * 1e-9, "gpu": integral(r["power"], b, e),
            "peak_power_w": peak(r["power"], b, e), "phases": phases}


def check_window(pw, tree, reps, lo, hi):
    """Absolute bounds (@, unix ns: the tree's own clock)."""
    lo, hi = lo & ~1023, hi & ~1023  # exact as a double, which '@' is read as
    label = "window [%d, %d)" % (lo, hi)
    got = stats(pw, tree, ["--start", "@%d" % lo, "--end", "@%d" % hi])
    rows = {key(g): g for g in got.get("repetitions", [])}
    want = {k: expected_row(r, lo, hi) for k, r in reps.items()}
    want = {k: w for k, w in want.items() if w is not None}
    if set(rows) != set(want):
        fail("%s: repetitions %s, expected %s" % (label, sorted(rows), sorted(want)))
    for k in set(rows) & set(want):
        g, w, what = rows[k], want[k], "%s %s" % (label, "/".join(k))
        close(g.get("duration_s"), w["duration_s"], what + ": duration_s")
        close(g.get("energy_j", {}).get("gpu"), w["gpu"], what + ": gpu J", rel=1e-7)
        close(g.get("peak_power_w"), w["peak_power_w"], what + ": peak W")
        gph = {(p["name"], p["index"]): p for p in g.get("phases", [])}
        if set(gph) != set(w["phases"]):
            fail("%s: phases %s, expected %s" % (what, sorted(gph), sorted(w["phases"])))
        for pk in set(gph) & set(w["phases"]):
            for field in ("start_s", "duration_s"):
                close(gph[pk][field], w["phases"][pk][field], "%s %s: %s" % (what, pk, field))
            close(gph[pk]["energy_j"].get("gpu"), w["phases"][pk]["gpu"], "%s %s: gpu J" % (what, pk), rel=1e-7)
    runs = {}
    for k in want:
        runs[k[:3]] = runs.get(k[:3], 0) + 1
    got_runs = {(r["experiment"], r["benchmark"], r["run"]): r["repetitions"] for r in got.get("runs", [])}
    if got_runs != runs:
        fail("%s: runs %s, expected %s" % (label, got_runs, runs))
    return len(want)


def check_loc(pw, tree, reps):
    """--loc '*/bert/*': bert's repetitions only, whole."""
    got = stats(pw, tree, ["--loc", "*/bert/*"])
    rows = {key(g): g for g in got.get("repetitions", [])}
    want = {k for k in reps if k[1] == "bert"}
    if set(rows) != want or not want:
        fail("--loc */bert/*: repetitions %s, expected %s" % (sorted(rows), sorted(want)))
    for k in set(rows) & want:
        close(rows[k]["energy_j"].get("gpu"), reps[k]["closed"]["energy_j"]["gpu"], "--loc %s: gpu J" % "/".join(k))


def main():
    pw, gen, work = sys.argv[1:4]
    out = os.path.join(work, "energy_window")
    subprocess.run([sys.executable, gen, out], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "expected.json")) as f:
        expected = json.load(f)
    tree = os.path.join(out, "tree")
    reps = repetitions(tree, expected)
    check_reading(reps)
    spans = sorted(r["window"] for r in reps.values())
    # from inside the second repetition (in time) to inside the fourth:
    # both ends cut a repetition and its phases
    lo = spans[1][0] + (spans[1][1] - spans[1][0]) * 37 // 100
    hi = spans[3][0] + (spans[3][1] - spans[3][0]) * 61 // 100
    n = check_window(pw, tree, reps, lo, hi)
    # inside one repetition, cutting its epochs
    b, e = spans[2]
    n += check_window(pw, tree, reps, b + (e - b) * 29 // 100, b + (e - b) * 53 // 100)
    check_loc(pw, tree, reps)
    if failures:
        sys.exit("%d failure(s)" % len(failures))
    print("energy windows: %d clipped repetitions equal the samples' integral" % n)


main()
