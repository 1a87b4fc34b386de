#!/usr/bin/env python3
"""ovni states in a window against ovniemu 1.14.0's own .prv, clipped here.

A filter selects what is reported, never what the emulator sees: for every
ctest fixture with ovniemu-out/thread.prv, `stats --json` with a window
(25 %..75 % of the run, and a second one) or a --type selection must give,
per (view, row, channel, value with a label), the time ovniemu's .prv holds
inside the window, computed here from the .prv files, and no finding of the
emulator.  `convert --start/--end -o w.states.pftrace` must succeed.

usage: ovni_window.py PERFWEAVE SHARED_DATA
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ovniemu"))
import paraver_oracle  # noqa: E402  (.prv and .pcf readers)


def prv_end(path):
    with open(path) as f:
        return int(f.readline().split("):")[1].split("_")[0])


def clipped_times(ref, start, end):
    """{(view, row name, type, value): ns} of ovniemu's rows inside
    [start, end): each value holds until its row type's next change, or
    the trace's end."""
    out = {}
    for view in ("thread", "cpu"):
        header, rows = paraver_oracle.read_prv(os.path.join(ref, view + ".prv"))
        trace_end = int(header.split("):")[1].split("_")[0])
        pcf = paraver_oracle.read_pcf(os.path.join(ref, view + ".pcf"))
        with open(os.path.join(ref, view + ".row")) as f:
            names = f.read().split("\n")[4:]
        for (row, typ), seq in rows.items():
            labels = pcf.get(typ, {}).get("values", {})
            name = names[row - 1]
            if view == "thread":
                name = "thread." + name.split(".")[-1]
            for k, (t, v) in enumerate(seq):
                t_next = seq[k + 1][0] if k + 1 < len(seq) else trace_end
                t0, t1 = max(t, start), min(t_next, end)
                if v in labels and t1 > t0:
                    key = (view, name, typ, v)
                    out[key] = out.get(key, 0) + t1 - t0
    return out


def our_times(exe, trace, args, fails, what):
    r = subprocess.run([exe, "stats", trace, "--json", "-q"] + args, capture_output=True, text=True)
    if r.returncode != 0 or "ovniemu." in r.stderr:
        fails.append(f"{what}: exit {r.returncode}: {r.stderr[-400:]}")
        return None
    ours = {}
    for s in json.loads(r.stdout).get("states", []):
        row = s["row"] if s["view"] == "cpu" else s["row"].split("/")[-1]
        ours[(s["view"], row, s["type"], s["value"])] = round(s["time_s"] * 1e9)
    return ours


def compare(what, ours, want, fails):
    if ours is not None and ours != want:
        diff = sorted(set(ours.items()) ^ set(want.items()))[:6]
        fails.append(f"{what}: states differ from ovniemu's .prv clipped: {diff}")


def check_fixture(exe, name, trace, ref, fails):
    span = prv_end(os.path.join(ref, "thread.prv"))
    windows = [(span * 25 // 100, span * 75 // 100), (span // 10, span * 4 // 10)]
    for a, b in windows:
        what = f"{name} --start {a}ns --end {b}ns"
        ours = our_times(exe, trace, ["--start", f"{a}ns", "--end", f"{b}ns"], fails, what)
        compare(what, ours, clipped_times(ref, a, b), fails)
    # a type selection selects rows of the format's tables, never the
    # events the emulator sees: the states are the whole run's
    what = f"{name} --type 'VT*'"
    compare(what, our_times(exe, trace, ["--type", "VT*"], fails, what),
            clipped_times(ref, 0, span + 1), fails)
    a, b = windows[0]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "w.states.pftrace")
        r = subprocess.run([exe, "convert", trace, "--start", f"{a}ns", "--end", f"{b}ns", "-o", out],
                           capture_output=True, text=True)
        if r.returncode != 0 or not os.path.getsize(out) or "ovniemu." in r.stderr:
            fails.append(f"{name}: convert window to .states.pftrace: exit {r.returncode}: {r.stderr[-300:]}")


if __name__ == "__main__":
    sys.exit(paraver_oracle.each_emulated_fixture("thread.prv", check_fixture))
