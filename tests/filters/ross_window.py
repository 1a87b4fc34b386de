#!/usr/bin/env python3
"""ROSS stats in a window against the expected CSVs, filtered here.

`stats --start @A --end @B --json` must give every table of the whole-run
stats made of the samples whose virtual time lies in [A, B): per PE and
KP, and the totals, from ROSS's own sample rows (the expected CSVs beside
each fixture) kept when A <= ts < B.  The same computation without a
window must give the unfiltered stats, so the sums below are the report's.

usage: ross_window.py PERFWEAVE SHARED_DATA
"""
import csv
import json
import os
import subprocess
import sys

RUNS = {"phold-np2-gvt-pekp": "gvt", "phold-np2-rt-pekp": "rt"}
# report key <- CSV column, summed over the samples
PE_SUMS = {"processed": "nevent_processed", "rolled_back": "e_rbs", "rollbacks": "rb_total",
           "secondary_rollbacks": "rb_secondary", "network_sends": "nsend_network",
           "network_receives": "nread_network"}
KP_SUMS = PE_SUMS


def rows(path, start, end):
    with open(path) as f:
        return [r for r in csv.DictReader(f) if start <= float(r["ts"]) < end]


def expected(run, mode, start, end):
    base = os.path.join(DATA, run, f"{run}-{mode}-expected-")
    pes, kps = {}, {}
    for r in rows(base + "pe.csv", start, end):
        a = pes.setdefault(int(r["peid"]), {k: 0 for k in PE_SUMS} | {"samples": 0, "pq_size_max": 0,
                                                                          "gvts": 0})
        a["samples"] += 1
        for k, col in PE_SUMS.items():
            a[k] += int(r[col])
        a["pq_size_max"] = max(a["pq_size_max"], int(r["pq_qsize"]))
        a["gvts"] = max(a["gvts"], int(r["ngvts"]))
    for r in rows(base + "kp.csv", start, end):
        a = kps.setdefault((int(r["peid"]), int(r["kpid"])), {k: 0 for k in KP_SUMS} | {"samples": 0})
        a["samples"] += 1
        for k, col in KP_SUMS.items():
            a[k] += int(r[col])
    totals = {k: sum(p[k] for p in pes.values()) for k in PE_SUMS}
    totals["pe_samples"] = sum(p["samples"] for p in pes.values())
    return pes, kps, totals


def ours(run, args):
    r = subprocess.run([CLI, "stats", "--json", os.path.join(DATA, run)] + args,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"FAIL: stats {run} {args}: exit {r.returncode}: {r.stderr[-300:]}")
    return json.loads(r.stdout)


def compare(what, got, want, fails):
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()), key=str)[:6]
        fails.append(f"{what}: {diff}")


def check(run, mode, start, end, args, fails):
    pes, kps, totals = expected(run, mode, start, end)
    got = ours(run, args)
    what = f"{run} {' '.join(args) or '(whole run)'}"
    got_pes = {p["pe"]: {k: p[k] for k in list(PE_SUMS) + ["samples", "pq_size_max", "gvts"]}
               for p in got.get("pes", []) if p["mode"] == mode and p["samples"]}
    compare(what + " pes", {k: json.dumps(v, sort_keys=True) for k, v in got_pes.items()},
            {k: json.dumps(v, sort_keys=True) for k, v in pes.items()}, fails)
    got_kps = {(k["pe"], k["kp"]): {c: k[c] for c in list(KP_SUMS) + ["samples"]}
               for k in got.get("kps", []) if k["mode"] == mode and k["samples"]}
    compare(what + " kps", {k: json.dumps(v, sort_keys=True) for k, v in got_kps.items()},
            {k: json.dumps(v, sort_keys=True) for k, v in kps.items()}, fails)
    tot = [t for t in got.get("totals", []) if t["mode"] == mode]
    compare(what + " totals", {k: tot[0][k] for k in totals} if tot else {}, totals, fails)
    if not got.get("pe_timeline") or not got.get("kp_timeline"):
        fails.append(what + ": no PE or KP timeline")
    if "filtered" in got:
        fails.append(what + ": the generic counts instead of the stats")


def main():
    fails = []
    for run, mode in RUNS.items():
        check(run, mode, float("-inf"), float("inf"), [], fails)
        check(run, mode, 100.0, 200.0, ["--start", "@100", "--end", "@200"], fails)
    for f in fails:
        print("FAIL:", f)
    print(f"{len(RUNS)} runs, {len(fails)} failures")
    return 1 if fails else 0


CLI, ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(ROOT, "ross")
if __name__ == "__main__":
    sys.exit(main())
