#!/usr/bin/env python3
"""pace.py CLI DATA — ROSS's first screen, the run's pace, against the
expected PE CSVs beside the fixtures (the reference reader's rows of every
GVT and RT engine sample), computed here from those rows alone:

* real_s: the latest sample's real_time minus the earliest's;
* event_rate: events committed (processed - rolled back) over that time,
  leaving out the events of each PE's earliest sample (they came before);
* gvt_reached: the highest GVT (ts) sampled, the final RT marker left out;
* vt_per_gvt: that GVT over the GVT rounds (the largest ngvts);
* vt_rate: GVT's advance from the earliest sample to the first sample at
  the highest GVT, over the real time between them.

The CSVs print real_time to 1e-8 s, so figures agree to a relative 1e-6.
A fixture without an expected PE CSV is not checked; none at all fails."""
import csv, glob, json, math, os, subprocess, sys

CLI, DATA = sys.argv[1], os.path.join(sys.argv[2], "ross")
FINAL_TS = 1.7e308
failures, checks = [], 0


def expected(path):
    rows = list(csv.DictReader(open(path)))
    real = [float(r["real_time"]) for r in rows]
    net = [int(r["nevent_processed"]) - int(r["e_rbs"]) for r in rows]
    earliest = {}
    for i, r in enumerate(rows):
        pe = r["peid"]
        if pe not in earliest or real[i] < real[earliest[pe]]:
            earliest[pe] = i
    first = min(range(len(rows)), key=lambda i: real[i])
    span = max(real) - min(real)
    committed = sum(net) - sum(net[i] for i in earliest.values())
    timed = [i for i, r in enumerate(rows) if float(r["ts"]) < FINAL_TS]
    high = max(float(rows[i]["ts"]) for i in timed)
    high_real = min(real[i] for i in timed if float(rows[i]["ts"]) == high)
    gvts = max(int(r["ngvts"]) for r in rows)
    return {
        "real_s": span,
        "event_rate": committed / span if span > 0 else None,
        "gvt_reached": high,
        "vt_per_gvt": high / gvts if gvts else None,
        "vt_rate": (high - float(rows[first]["ts"])) / (high_real - real[first]) if high_real > real[first] else None,
    }


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-7)


for path in sorted(glob.glob(os.path.join(DATA, "*", "*-expected-pe.csv"))):
    mode = "gvt" if path.endswith("-gvt-expected-pe.csv") else "rt" if path.endswith("-rt-expected-pe.csv") else None
    if mode is None:
        continue
    run = os.path.basename(os.path.dirname(path))
    r = subprocess.run([CLI, "stats", os.path.dirname(path), "--json", "-q"], capture_output=True, text=True)
    rows = [x for x in json.loads(r.stdout or "{}").get("summary", []) if x.get("mode") == mode]
    if r.returncode != 0 or len(rows) != 1:
        failures.append(f"{run}: exit {r.returncode}, {len(rows)} summary rows of mode {mode}: {r.stderr[-300:]}")
        continue
    for key, want in expected(path).items():
        checks += 1
        if not close(rows[0].get(key), want):
            failures.append(f"{run} {mode}: {key} {rows[0].get(key)} != {want} from {os.path.basename(path)}")

for f in failures:
    print("FAIL:", f)
print(f"{checks} figures checked")
sys.exit(1 if failures or not checks else 0)
