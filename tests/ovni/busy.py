#!/usr/bin/env python3
"""ovni's first screen, busy and idle time per CPU, against ovniemu 1.14.0.

For every ctest fixture with ovniemu-out/cpu.prv, `stats --json` must give
in its table "summary" one row per CPU of cpu.row, whose busy time is the
time ovniemu's cpu.prv holds a nonzero "number of running threads" (event
type 3) on that CPU, each value held until the CPU's next one or the
trace's end (the header's), and whose idle time is the rest of the trace;
both also as shares of it.  Computed here from the .prv, never from our
output.

usage: busy.py PERFWEAVE SHARED_DATA
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ovniemu"))
import paraver_oracle  # noqa: E402  (the loop over the ctest fixtures)

NRUN = 3  # ovni's PRV_CPU_NRUN


def busy_from_prv(ref):
    """(trace end in ns, [(CPU name, busy ns)] in cpu.row's order)."""
    with open(os.path.join(ref, "cpu.prv")) as f:
        header = f.readline()
        changes = {}
        for line in f:
            p = line.rstrip("\n").split(":")
            if p[0] != "2":
                continue
            for k in range(6, len(p), 2):
                if int(p[k]) == NRUN:
                    changes.setdefault(int(p[4]), []).append((int(p[5]), int(p[k + 1])))
    end = int(header.split("):")[1].split("_")[0])
    with open(os.path.join(ref, "cpu.row")) as f:
        names = [n for n in f.read().split("\n")[4:] if n]
    out = []
    for row, name in enumerate(names, 1):
        seq = changes.get(row, [])
        busy = 0
        for k, (t, v) in enumerate(seq):
            t_next = seq[k + 1][0] if k + 1 < len(seq) else end
            if v > 0:
                busy += t_next - t
        out.append((name.strip(), busy))
    return end, out


def check_fixture(exe, name, trace, ref, fails):
    r = subprocess.run([exe, "stats", trace, "--json", "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        fails.append(f"{name}: exit {r.returncode}: {r.stderr[-300:]}")
        return
    rows = json.loads(r.stdout).get("summary", [])
    end, want = busy_from_prv(ref)
    got = [(x["row"].strip(), x) for x in rows if x["view"] == "cpu"]
    if [g[0] for g in got] != [w[0] for w in want]:
        fails.append(f"{name}: CPUs {[g[0] for g in got]} != cpu.row's {[w[0] for w in want]}")
        return
    for (cpu, x), (_, busy) in zip(got, want):
        figures = {"busy_s": busy / 1e9, "idle_s": (end - busy) / 1e9,
                   "busy_pct": 100.0 * busy / end, "idle_pct": 100.0 * (end - busy) / end}
        for key, value in figures.items():
            if abs(x[key] - value) > 1e-9 * max(1.0, abs(value)):
                fails.append(f"{name}: {cpu} {key} {x[key]} != {value} from cpu.prv")


if __name__ == "__main__":
    sys.exit(paraver_oracle.each_emulated_fixture("cpu.prv", check_fixture))
