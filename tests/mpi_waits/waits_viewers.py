#!/usr/bin/env python3
"""`convert --waits` draws every wait state as a slice inside its MPI call
(Chrome JSON and Perfetto): on the synthetic trace and every DUMPI fixture,
each wait slice begins with an open MPI call on its track and closes
before it; per kind, the slices' count and total time equal `stats
--json`'s wait states; the "critical path" slices of each process add up
to the critical path's time on its rank (the walk back that convert
draws against the path stats computes forward, also on gen_waits_trace's
"tangle" trace: waits ending at one time that point at each other); the
Perfetto file passes
pftrace_walk (declared tracks, nesting, interning) with the same slices
per name.

usage: waits_viewers.py GENERATOR PERFWEAVE SHARED_DATA OUTDIR
"""
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "convert"))
import pftrace_walk  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nested import nested  # noqa: E402

SLICES = {"Late Sender": "late_sender", "Late Receiver": "late_receiver", "Wait at NxN": "wait_nxn",
          "Wait at Barrier": "wait_barrier", "Late Broadcast": "late_broadcast", "Early Reduce": "early_reduce"}
# collectives4-notime-nostatus has no clocks: viewers refuse it before any
# output exists (cli.single_answers checks that refusal).
FIXTURES = ["pingpong4", "nonblock4", "collectives4", "nonblock4-cputime", "threads4", "collectives4-papi",
            "upstream-v1.0.0"]
failures = []


def chrome_waits(path, where):
    """Per kind: (slices, total microseconds); nesting checked."""
    doc = json.load(open(path))
    stacks = collections.defaultdict(list)
    out = collections.defaultdict(lambda: [0, 0.0])
    path = collections.Counter()  # pid -> critical path microseconds
    for e in doc["traceEvents"]:
        key = (e["pid"], e.get("tid"))
        if e["ph"] == "B":
            if e["name"] in SLICES:
                top = stacks[key][-1] if stacks[key] else None
                if not top or not top[0].startswith("MPI_") or top[1] != e["ts"]:
                    failures.append(f"{where}: {e['name']} at {e['ts']} not at the start of an MPI call: {top}")
            stacks[key].append((e["name"], e["ts"]))
        elif e["ph"] == "E":
            if not stacks[key]:
                failures.append(f"{where}: E with no open B on {key}")
                continue
            name, ts = stacks[key].pop()
            if name in SLICES:
                out[name][0] += 1
                out[name][1] += e["ts"] - ts
            if name == "critical path":
                path[e["pid"]] += e["ts"] - ts
    return out, path


def check(gen_or_none, cli, dataset, outdir, where):
    report = nested(json.loads(subprocess.run([cli, "stats", "--json", dataset], capture_output=True, text=True,
                                              check=True).stdout))
    stats, cp = report["wait_states"], report["critical_path"]
    chrome = os.path.join(outdir, where + ".json")
    pf = os.path.join(outdir, where + ".pftrace")
    for out in (chrome, pf):
        r = subprocess.run([cli, "convert", "--waits", "--force", "--allow-loss", dataset, "-o", out], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            failures.append(f"{where}: convert {out}: exit {r.returncode}: {r.stderr[-300:]}")
            return
    got, path = chrome_waits(chrome, where)
    want = sorted(round(v * 1e6, 3) for v in cp["by_rank"].values() if v)
    if sorted(round(v, 3) for v in path.values()) != want:
        failures.append(f"{where}: critical path slices per process {sorted(path.values())} != stats {want}")
    for name, kind in SLICES.items():
        n, us = got[name]
        want_us = stats[kind]["total_s"] * 1e6
        if abs(us - want_us) > 1e-3 * max(1, n):
            failures.append(f"{where}: {name}: {n} slices of {us} us != stats {want_us} us")
        if (n == 0) != (stats[kind]["total_s"] == 0):
            failures.append(f"{where}: {name}: {n} slices for {stats[kind]['total_s']} s")
    try:
        _counts, names = pftrace_walk.walk(pf)[:2]
    except pftrace_walk.Problem as e:
        failures.append(f"{where}: perfetto: {e}")
        return
    for name in SLICES:
        if names[name] != got[name][0]:
            failures.append(f"{where}: perfetto has {names[name]} {name} slices, chrome {got[name][0]}")


def main():
    gen, cli, data, outdir = sys.argv[1:5]
    os.makedirs(outdir, exist_ok=True)
    synth = os.path.join(outdir, "synthetic")
    os.makedirs(synth, exist_ok=True)
    subprocess.run([gen, synth], check=True)
    check(gen, cli, synth, outdir, "synthetic")
    tangle = os.path.join(outdir, "tangle")
    os.makedirs(tangle, exist_ok=True)
    subprocess.run([gen, tangle, "tangle", "3000"], check=True)
    check(gen, cli, tangle, outdir, "tangle")
    for fx in FIXTURES:
        check(None, cli, os.path.join(data, "dumpi", fx), outdir, fx)
    for f in failures[:30]:
        print("FAIL", f)
    print(f"{2 + len(FIXTURES)} datasets drawn with their waits")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
