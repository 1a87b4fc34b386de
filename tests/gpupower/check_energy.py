#!/usr/bin/env python3
"""check_energy.py PERFWEAVE GENERATOR WORKDIR SCENARIO

Generates trees with tools/gen_gpupower_tree.py, whose energies are known in
closed form (piecewise-linear power with a sample on every knot), runs
`perfweave stats --json` on them and checks every figure of the issue #6
contract to 1e-9 relative.  Run and benchmark figures are recomputed here
from the closed-form repetition figures (statistics module), not taken from
perfweave.  Scenarios: main, baseline, units, levels, tz, malformed, csv,
dump.
"""
import csv
import io
import json
import os
import statistics
import subprocess
import sys

REL = 1e-9
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def close(a, b, what):
    if a is None or b is None:
        if a != b:
            fail("%s: %r != %r" % (what, a, b))
        return
    tol = REL * max(abs(a), abs(b)) if b else 1e-9
    if abs(a - b) > tol:
        fail("%s: %r != %r (closed form)" % (what, a, b))


def compare(got, want, what):
    """Every key of `want` (numbers to 1e-9 relative); objects must have the
    same keys (an energy source perfweave invents or drops is an error)."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return fail("%s: object expected, got %r" % (what, got))
        if set(got) != set(want):
            fail("%s: keys %s, expected %s" % (what, sorted(got), sorted(want)))
        for k in want:
            if k in got:
                compare(got[k], want[k], what + "." + k)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return fail("%s: %d items expected, got %r" % (what, len(want), got))
        for i, (g, w) in enumerate(zip(got, want)):
            compare(g, w, "%s[%d]" % (what, i))
    elif isinstance(want, float) or (isinstance(want, int) and not isinstance(want, bool)):
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            return fail("%s: number expected, got %r" % (what, got))
        close(float(got), float(want), what)
    elif got != want:
        fail("%s: %r != %r" % (what, got, want))


def run(pw, args, want_rc=0):
    p = subprocess.run([pw] + args, capture_output=True, text=True)
    if want_rc is not None and p.returncode != want_rc:
        fail("perfweave %s: exit %d, expected %d\n%s" % (" ".join(args), p.returncode, want_rc, p.stderr))
    return p


def nested(doc):
    """The flat tables of stats --json (issue 28) in the shape the closed
    forms are written in: each repetition with its phases, each benchmark
    with its settings, the tree's figures at the top."""
    out = dict(doc)
    out.update(doc.get("tree", {}))
    names = ("experiment", "benchmark", "run", "repetition")
    phases = {}
    for ph in doc.get("phases", []):
        row = {("name" if k == "phase" else k): v for k, v in ph.items() if k not in names}
        phases.setdefault(tuple(ph[k] for k in names), []).append(row)
    out["repetitions"] = [dict(r, phases=phases.get(tuple(r[k] for k in names), []))
                          for r in doc.get("repetitions", [])]
    settings = {}
    for st in doc.get("settings", []):
        settings.setdefault((st["experiment"], st["benchmark"]), []).append(
            {k: v for k, v in st.items() if k not in names[:2]})
    out["benchmarks"] = [dict(b, settings=settings.get((b["experiment"], b["benchmark"]), []))
                         for b in doc.get("benchmarks", [])]
    return out


def stats(pw, path, extra=(), want_rc=0):
    p = run(pw, ["stats", path, "--json", "-q", "--tz", "+01:00"] + list(extra), want_rc)
    try:
        return nested(json.loads(p.stdout)), p.stderr
    except ValueError:
        fail("stats %s: no JSON on stdout" % path)
        return {"repetitions": [], "runs": [], "benchmarks": []}, p.stderr


def generate(gen, out, *args):
    subprocess.run([sys.executable, gen, out] + list(args), check=True)
    with open(os.path.join(out, "expected.json")) as f:
        return json.load(f)


def key(r):
    return (r["experiment"], r["benchmark"], r["run"], r["repetition"])


def public(e):
    return {k: v for k, v in e.items() if k != "no_gpu"}


def check_repetitions(got, expected, label):
    by_key = {key(r): r for r in got["repetitions"]}
    if len(by_key) != len(expected):
        fail("%s: %d repetitions reported, %d expected" % (label, len(by_key), len(expected)))
    for e in expected:
        g = by_key.get(key(e))
        if g is None:
            fail("%s: repetition %s missing" % (label, key(e)))
        else:
            compare(g, public(e), "%s %s" % (label, "/".join(key(e))))


def spread(xs):
    return {"mean": statistics.fmean(xs), "std": statistics.stdev(xs) if len(xs) > 1 else None,
            "min": min(xs), "max": max(xs)}


def expected_runs(reps):
    """Run and benchmark objects recomputed from closed-form repetitions."""
    runs, order = {}, []
    for e in reps:
        k = (e["experiment"], e["benchmark"], e["run"])
        if k not in runs:
            runs[k] = []
            order.append(k)
        runs[k].append(e)
    out_runs, benches = [], {}
    for k in order:
        rs = runs[k]
        r = {"experiment": k[0], "benchmark": k[1], "run": k[2], "settings": rs[0]["settings"],
             "repetitions": len(rs), "duration_s": spread([x["duration_s"] for x in rs]),
             "energy_j": {}, "edp_js": spread([x["energy_j"]["gpu"] * x["duration_s"] for x in rs])}
        for src in ("gpu", "nvml_counter", "external", "samples"):
            xs = [x["energy_j"][src] for x in rs if src in x["energy_j"]]
            if xs:
                r["energy_j"][src] = spread(xs)
        out_runs.append(r)
        benches.setdefault(k[:2], []).append(r)
    out_b = []
    for (exp, bench), rs in benches.items():
        pts = [(r["run"], r["duration_s"]["mean"], r["energy_j"]["gpu"]["mean"], r["edp_js"]["mean"])
               for r in rs]
        front = [p[0] for p in pts if not any(
            q[1] <= p[1] and q[2] <= p[2] and (q[1] < p[1] or q[2] < p[2]) for q in pts)]
        out_b.append({"experiment": exp, "benchmark": bench, "runs": len(rs),
                      "energy_optimal_run": min(pts, key=lambda p: p[2])[0],
                      "edp_optimal_run": min(pts, key=lambda p: p[3])[0], "pareto_runs": front,
                      "settings": [{"run": p[0], "duration_s": p[1], "energy_j": p[2], "edp_js": p[3],
                                    "pareto": p[0] in front} for p in pts]})
    return out_runs, out_b


def scenario_main(pw, gen, work):
    exp = generate(gen, os.path.join(work, "main"))
    got, err = stats(pw, os.path.join(work, "main", "tree"))
    if err.strip():
        fail("main: unexpected diagnostics:\n" + err)
    check_repetitions(got, exp["repetitions"], "main")
    runs, benches = expected_runs(exp["repetitions"])
    sort = lambda xs: sorted(xs, key=lambda r: (r["experiment"], r["benchmark"], r.get("run", "")))
    compare(sort(got["runs"]), sort(runs), "main runs")
    compare(sort(got["benchmarks"]), sort(benches), "main benchmarks")
    base = {}
    for b in exp["baselines"]:
        base.setdefault(b["experiment"], []).append(b)
    for g in got["baselines"]:
        bs = base.get(g["experiment"], [])
        want = {s: statistics.fmean(x["energy_j"][s] / x["duration_s"] for x in bs)
                for s in bs[0]["energy_j"]} if bs else {}
        compare(g["power_w"], want, "main baseline " + g["experiment"])
        if g["repetitions"] != len(bs):
            fail("baseline %s: %d repetitions, %d expected" % (g["experiment"], g["repetitions"], len(bs)))
    for k, v in (("external_unit", "cW"), ("tz", "+01:00"), ("format", "gpupower")):
        if got.get(k) != v:
            fail("main: %s = %r, expected %r" % (k, got.get(k), v))


def scenario_baseline(pw, gen, work):
    exp = generate(gen, os.path.join(work, "base"))
    got, _ = stats(pw, os.path.join(work, "base", "tree"), ["--subtract-baseline"])
    idle = {}
    for b in exp["baselines"]:
        idle.setdefault(b["experiment"], []).append(b)
    want = []
    for e in exp["repetitions"]:
        bs = idle[e["experiment"]]
        watts = {s: statistics.fmean(x["energy_j"][s] / x["duration_s"] for x in bs)
                 for s in e["energy_j"] if s in bs[0]["energy_j"]}
        w = json.loads(json.dumps(e))
        for s, pw_ in watts.items():
            w["energy_j"][s] -= pw_ * e["duration_s"]
            for ph in w["phases"]:
                ph["energy_j"][s] -= pw_ * ph["duration_s"]
        eg, d = w["energy_j"]["gpu"], w["duration_s"]
        w.update(mean_power_w=eg / d, edp_js=eg * d, ed2p_js2=eg * d * d,
                 peak_power_w=e["peak_power_w"] - watts["gpu"], baseline_power_w=watts)
        want.append(w)
    check_repetitions(got, want, "baseline")
    if got.get("baseline_subtracted") is not True:
        fail("baseline: baseline_subtracted is not true")
    # From one repetition's directory: the _baseline above it is found.
    e = want[0]
    rep = os.path.join(work, "base", "tree", e["experiment"], e["benchmark"], e["run"], e["repetition"])
    got, err = stats(pw, rep, ["--subtract-baseline"])
    check_repetitions(got, [e], "baseline from a repetition")
    if "no-baseline" in err:
        fail("baseline: the _baseline above %s was not found" % rep)


def scenario_units(pw, gen, work):
    exp = generate(gen, os.path.join(work, "units"))
    for unit, factor in (("W", 100.0), ("mW", 0.1), ("cW", 1.0)):
        got, _ = stats(pw, os.path.join(work, "units", "tree"), ["--external-unit", unit])
        if got.get("external_unit") != unit:
            fail("units: stats says %r, expected %s" % (got.get("external_unit"), unit))
        by_key = {key(r): r for r in got["repetitions"]}
        for e in exp["repetitions"]:
            if "external" in e["energy_j"]:
                g = by_key.get(key(e), {}).get("energy_j", {}).get("external")
                close(g, e["energy_j"]["external"] * factor, "units %s %s" % (unit, key(e)))
    p = run(pw, ["info", os.path.join(work, "units", "tree"), "--external-unit", "W", "--json", "-q"])
    if json.loads(p.stdout)["properties"].get("external_unit") != "W":
        fail("units: info does not say the unit W")
    run(pw, ["stats", os.path.join(work, "units", "tree"), "--external-unit", "kW"], 2)


def scenario_levels(pw, gen, work):
    """The same figures whichever level of the tree is given."""
    exp = generate(gen, os.path.join(work, "levels"))
    root = os.path.join(work, "levels", "tree")
    e = exp["repetitions"][0]
    paths = [os.path.join(root, e["experiment"]),
             os.path.join(root, e["experiment"], e["benchmark"]),
             os.path.join(root, e["experiment"], e["benchmark"], e["run"]),
             os.path.join(root, e["experiment"], e["benchmark"], e["run"], e["repetition"]),
             os.path.join(root, e["experiment"], e["benchmark"], e["run"], e["repetition"], "gpu-power.csv")]
    for p in paths:
        got, _ = stats(pw, p)
        want = [x for x in exp["repetitions"] if os.path.join(
            root, x["experiment"], x["benchmark"], x["run"], x["repetition"]).startswith(p.replace("/gpu-power.csv", "") + "/")
            or os.path.join(root, x["experiment"], x["benchmark"], x["run"], x["repetition"]) == p.replace("/gpu-power.csv", "")]
        check_repetitions(got, want, "level " + os.path.relpath(p, root))


def scenario_tz(pw, gen, work):
    """Naive local times read in the wrong zone no longer meet the NVML
    samples (unix us): perfweave must say so, not silently integrate."""
    exp = generate(gen, os.path.join(work, "tz"))
    p = run(pw, ["stats", os.path.join(work, "tz", "tree"), "--json", "-q", "--tz", "UTC"])
    if "gpupower.partial-coverage" not in p.stderr:
        fail("tz: reading +01:00 times as UTC gave no coverage warning")
    run(pw, ["stats", os.path.join(work, "tz", "tree"), "--tz", "Mars/Olympus"], 2)
    del exp


def scenario_malformed(pw, gen, work):
    exp = generate(gen, os.path.join(work, "bad"), "--malformed")
    got, err = stats(pw, os.path.join(work, "bad", "tree"), want_rc=1)
    for d in exp["damage"]:
        lines = [l for l in err.splitlines() if d["file"] in l]
        if not lines:
            fail("malformed: nothing said about %s\n%s" % (d["file"], err))
            continue
        if d["line"] and not any(("line %d:" % d["line"]) in l and "offset" in l for l in lines):
            fail("malformed: %s line %d not named with its offset:\n%s" % (d["file"], d["line"], "\n".join(lines)))
        if not any(d["words"] in l for l in lines):
            fail("malformed: %s: no mention of '%s':\n%s" % (d["file"], d["words"], "\n".join(lines)))
    check_repetitions(got, exp["repetitions"], "malformed")


def scenario_csv(pw, gen, work):
    generate(gen, os.path.join(work, "csv"))
    got, _ = stats(pw, os.path.join(work, "csv", "tree"))
    p = run(pw, ["stats", os.path.join(work, "csv", "tree"), "--csv", "-q", "--tz", "+01:00"])
    sections = {}
    for block in p.stdout.split("\n\n"):
        lines = block.strip().splitlines()
        if lines and lines[0].startswith("# "):
            sections[lines[0][2:]] = list(csv.DictReader(io.StringIO("\n".join(lines[1:]))))
    rows = sections.get("repetitions", [])
    if len(rows) != len(got["repetitions"]):
        fail("csv: %d repetition rows, JSON has %d" % (len(rows), len(got["repetitions"])))
    for row, j in zip(rows, got["repetitions"]):
        for col, val in (("energy_j.gpu", j["energy_j"]["gpu"]), ("edp_js", j["edp_js"]),
                         ("duration_s", j["duration_s"])):
            close(float(row[col]), val, "csv %s %s" % (col, key(j)))
    if "runs" not in sections or "benchmarks" not in sections:
        fail("csv: runs/benchmarks tables missing: %s" % sorted(sections))


def scenario_dump(pw, gen, work):
    """Records: one gpu_power sample per good row, one per channel of the
    external meter, phases as begin/end spans."""
    exp = generate(gen, os.path.join(work, "dump"))
    e = exp["repetitions"][0]
    rep = os.path.join(work, "dump", "tree", e["experiment"], e["benchmark"], e["run"], e["repetition"])
    p = run(pw, ["dump", rep, "--jsonl", "--tz", "+01:00"])
    recs = [json.loads(l) for l in p.stdout.splitlines()]
    with open(os.path.join(rep, "gpu-power.csv")) as f:
        rows = sum(1 for _ in f) - 1
    n_gpu = sum(1 for r in recs if r["type"] == "gpu_power")
    if n_gpu != rows:
        fail("dump: %d gpu_power records, gpu-power.csv has %d rows" % (n_gpu, rows))
    with open(os.path.join(rep, "power-external.csv")) as f:
        header = f.readline().strip().split(",")
        ext_rows = sum(1 for _ in f)
    chans = [h for h in header if h.startswith("d")]
    n_ext = sum(1 for r in recs if r["type"] == "external_power")
    if n_ext != ext_rows * len(chans):
        fail("dump: %d external records, expected %d" % (n_ext, ext_rows * len(chans)))
    begins = [r for r in recs if r["type"] in ("experiment", "train", "epoch") and r["loc"].endswith("/phases")]
    if len(begins) != 2 * (2 + len([ph for ph in e["phases"] if ph["name"] == "epoch"])):
        fail("dump: %d phase records" % len(begins))
    first = next(r for r in recs if r["type"] == "gpu_power")
    if "power" not in first or "total-energy" not in first:
        fail("dump: gpu_power record lacks power/total-energy: %r" % first)


def scenario_plot(pw, gen, work):
    """stats --plot DIR: one power chart per repetition, one energy/time
    chart per benchmark whose front joins exactly the Pareto runs."""
    import xml.etree.ElementTree as ET
    exp = generate(gen, os.path.join(work, "plot"))
    out = os.path.join(work, "plot", "svg")
    got, _ = stats(pw, os.path.join(work, "plot", "tree"), ["--plot", out])
    ns = "{http://www.w3.org/2000/svg}"
    for e in exp["repetitions"]:
        name = "%s_%s_%s_%s_power.svg" % (e["experiment"], e["benchmark"], e["run"], e["repetition"])
        try:
            root = ET.parse(os.path.join(out, name)).getroot()
        except (OSError, ET.ParseError) as x:
            fail("plot: %s: %s" % (name, x))
            continue
        shaded = [r for r in root.iter(ns + "rect") if r.get("opacity")]
        if len(shaded) != len(e["phases"]):
            fail("plot: %s: %d shaded phases, %d expected" % (name, len(shaded), len(e["phases"])))
        if not any(len(pl.get("points").split()) > 10 for pl in root.iter(ns + "polyline")):
            fail("plot: %s: no power curve" % name)
    for b in got["benchmarks"]:
        name = "%s_%s_energy_time.svg" % (b["experiment"], b["benchmark"])
        try:
            root = ET.parse(os.path.join(out, name)).getroot()
        except (OSError, ET.ParseError) as x:
            fail("plot: %s: %s" % (name, x))
            continue
        front = [pl for pl in root.iter(ns + "polyline")]
        if len(front) != 1 or len(front[0].get("points").split()) != len(b["pareto_runs"]):
            fail("plot: %s: the front does not join the %d Pareto runs" % (name, len(b["pareto_runs"])))


def main():
    pw, gen, work, scenario = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    globals()["scenario_" + scenario](pw, gen, os.path.join(work, scenario))
    print("%d passed, %d failed" % (0 if failures else 1, 1 if failures else 0))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
