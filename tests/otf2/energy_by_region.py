#!/usr/bin/python3
"""energy_by_region on OTF2 archives against integrals computed here.

Writes small archives with python3-otf2 (Debian's `otf2` module, so this
runs under /usr/bin/python3): three system tree nodes, one with two CPU
threads whose regions overlap and nest and a power metric in W, one with
a thread, a power metric in mW and an energy counter in mJ, one with a
thread that records a metric class itself (W, exponent -3).  The
expected rows come from a plain simulation here: the run cut at every
event time into stretches with a constant set of innermost regions, each
stretch's energy the trapezoid of the interpolated power (exact, since
the power is linear inside it), split equally among the locations inside
a region.  Then the MI300 archive of the shared data with
--set otf2.power=...:uW: its rows add up to the trapezoid integral of the
socket power samples of its otf2-print listing.

Usage: energy_by_region.py PERFWEAVE SHARED_DATA"""
import collections
import json
import os
import re
import subprocess
import sys

import otf2_listing
import tempfile

import otf2
from otf2.enums import LocationType, MetricScope, Type

S = 1_000_000_000  # ticks per second (the timer resolution written)
T0 = 5 * S         # the first event of every archive
OUT = "(outside regions)"

# Per node: threads as [(time_s, "enter"/"leave", region)], signals as
# (name, unit, value type, counter?, [(time_s, value)]).
NODES = {
    "n0": {
        "threads": {
            "A": [(0.5, "enter", "compute"), (1.5, "enter", "inner"), (2.0, "leave", "inner"),
                  (3.0, "leave", "compute")],
            "B": [(1.0, "enter", "io"), (2.5, "leave", "io")],
        },
        "signals": [("pkg", "W", Type.DOUBLE, False, [(0, 100.0), (1, 200.0), (2, 200.0), (3, 100.0), (4, 100.0)])],
    },
    "n1": {
        "threads": {"C": [(0.2, "enter", "solve"), (2.6, "leave", "solve")]},
        "signals": [("gpu", "mW", Type.INT64, False, [(0, 50000), (2, 150000), (4, 50000)]),
                    ("energy", "mJ", Type.UINT64, True, [(0, 0), (1, 10000), (3, 50000), (4, 60000)])],
    },
    # A metric class recorded by the thread itself (no instance), in W
    # scaled by 10^-3 through the member's exponent.
    "n2": {
        "threads": {"D": [(1.0, "enter", "io2"), (3.0, "leave", "io2")]},
        "signals": [("sync", "W/1000", Type.DOUBLE, False, [(0, 20000.0), (2, 40000.0), (4, 20000.0)])],
    },
}
FACTOR = {"W": 1.0, "mW": 1e-3, "mJ": 1e-3, "W/1000": 1e-3}


def write_archive(path):
    with otf2.writer.open(path, timer_resolution=S) as trace:
        d = trace.definitions
        machine = d.system_tree_node("machine")
        regions, groups = {}, {}
        for node_name, node in NODES.items():
            stn = d.system_tree_node(node_name, class_name="node", parent=machine)
            group = groups[node_name] = d.location_group("process " + node_name, system_tree_parent=stn)
            sync = [sig for sig in node["signals"] if sig[1] == "W/1000"]
            for thread, events in node["threads"].items():
                for _, what, name in events:
                    regions.setdefault(name, d.region(name))
                w = trace.event_writer("thread " + thread, group=group)
                for t, what, name in events if not sync else []:
                    (w.enter if what == "enter" else w.leave)(T0 + round(t * S), regions[name])
            for name, unit, vtype, _, samples in node["signals"]:
                if sync:  # recorded by the (one) thread itself, its events in time order
                    cls = d.metric_class([d.metric_member(name, unit="W", value_type=vtype, exponent=-3)])
                    evs = [(T0 + round(t * S), 0, what, n) for t, what, n in events]
                    evs += [(T0 + round(t * S), 1, v, None) for t, v in samples]
                    for t, kind, x, n in sorted(evs, key=lambda e: (e[0], e[1])):
                        if kind:
                            w.metric(t, cls, [x])
                        else:
                            (w.enter if x == "enter" else w.leave)(t, regions[n])
                    continue
                member = d.metric_member(name, unit=unit, value_type=vtype)
                cls = d.metric_class([member])
                meter = d.location("meter " + name, type=LocationType.METRIC, group=group)
                inst = d.metric_instance(cls, meter, MetricScope.SYSTEM_TREE_NODE, stn)
                w = trace.event_writer_from_location(meter)
                for t, v in samples:
                    w.metric(T0 + round(t * S), inst, [v])
        # A metric that is not power: never integrated.
        other = d.metric_class([d.metric_member("temperature", unit="#")])
        meter = d.location("meter temperature", type=LocationType.METRIC, group=groups["n0"])
        trace.event_writer_from_location(meter).metric(T0, other, [40.0])


def power_at(sig, t):
    """A signal's power (W) at time t (s), None outside its samples."""
    _, unit, _, counter, samples = sig
    for (t0, v0), (t1, v1) in zip(samples, samples[1:]):
        if t0 <= t <= t1:
            if counter:
                return (v1 - v0) * FACTOR[unit] / (t1 - t0)
            return (v0 + (v1 - v0) * (t - t0) / (t1 - t0)) * FACTOR[unit]
    return None


def innermost_at(events, t):
    """The thread's innermost region during the stretch starting at t."""
    stack = []
    for te, what, name in events:
        if te > t:
            break
        if what == "enter":
            stack.append(name)
        else:
            stack.pop()
    return stack[-1] if stack else None


def expected(start=None, end=None):
    energy, time = collections.Counter(), collections.Counter()
    for node in NODES.values():
        cuts = {t for evs in node["threads"].values() for t, _, _ in evs}
        cuts |= {t for sig in node["signals"] for t, _ in sig[4]}
        first = min(s[4][0][0] for s in node["signals"])
        last = max(s[4][-1][0] for s in node["signals"])
        cuts |= {c for c in (start, end) if c is not None}
        cuts = sorted(c for c in cuts if first <= c <= last)
        for a, b in zip(cuts, cuts[1:]):
            if (start is not None and a < start) or (end is not None and b > end) or b <= a:
                continue
            mid = (a + b) / 2
            joules = 0.0
            for sig in node["signals"]:
                if sig[3]:  # a counter: constant power over the stretch
                    p = power_at(sig, mid)
                    joules += p * (b - a) if p is not None else 0
                else:
                    pa, pb = power_at(sig, a), power_at(sig, b)
                    joules += (pa + pb) / 2 * (b - a) if pa is not None and pb is not None else 0
            inside = [r for r in (innermost_at(evs, a) for evs in node["threads"].values()) if r]
            for r in inside or [OUT]:
                energy[r] += joules / len(inside or [OUT])
                time[r] += (b - a) / len(inside or [OUT])
    return energy, time


def rows_of(pw, args):
    p = subprocess.run([pw, "stats", "--json"] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("stats %s: exit %d: %s" % (args, p.returncode, p.stderr))
    return json.loads(p.stdout).get("energy_by_region")


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def check(pw, archive, label, args, start=None, end=None):
    failures = []
    rows = rows_of(pw, [archive] + args)
    energy, time = expected(start, end)
    got = {r["region"]: r for r in rows or []}
    if set(got) != {k for k in energy if energy[k] or time[k]}:
        failures.append("%s: regions %s, expected %s" % (label, sorted(got), sorted(energy)))
    for name, r in got.items():
        if not close(r["energy_J"], energy[name]) or not close(r["time_s"], time[name]):
            failures.append("%s: %s: %.9f J over %.9f s, expected %.9f J over %.9f s"
                            % (label, name, r["energy_J"], r["time_s"], energy[name], time[name]))
        if r["time_s"] > 0 and not close(r["mean_W"], r["energy_J"] / r["time_s"]):
            failures.append("%s: %s: mean_W %r" % (label, name, r["mean_W"]))
    if rows and [r["region"] for r in rows if r["region"] != OUT] != \
            sorted((n for n in got if n != OUT), key=lambda n: -got[n]["energy_J"]):
        failures.append("%s: rows not in energy order" % label)
    return failures, rows


def check_mi300(pw, shared):
    archive = os.path.join(shared, "otf2", "fastotf2-mi300")
    ticks = otf2_listing.ticks_per_second(archive)
    samples = collections.defaultdict(list)
    pat = re.compile(r'^METRIC\s+\d+\s+(\d+)\s+.*\("A2rocm_smi:::current_socket_power:device=(\d)" <\d+>; UINT64; (\d+)\)')
    for line in otf2_listing.listing(archive).splitlines():
        m = pat.match(line)
        if m:
            samples[m.group(2)].append((int(m.group(1)), int(m.group(3))))
    total = sum((b[0] - a[0]) / ticks * (a[1] + b[1]) / 2 * 1e-6
                for s in samples.values() for a, b in zip(s, s[1:]))
    rows = rows_of(pw, [archive, "--set", "otf2.power=A2rocm_smi:::current_socket_power:*:uW"])
    got = sum(r["energy_J"] for r in rows or [])
    failures = [] if rows and len(samples) == 4 and close(got, total, 1e-9) else \
        ["mi300: rows add up to %r J, the listing's samples give %r J (%d devices)" % (got, total, len(samples))]
    if rows_of(pw, [archive]) is not None:
        failures.append("mi300: energy_by_region without otf2.power (its units say '#')")
    return failures


def main():
    pw, shared = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        archive = os.path.join(tmp, "energy")
        write_archive(archive)
        f, rows = check(pw, archive, "whole run", [])
        failures += f
        total = sum(r["energy_J"] for r in rows or [])
        if not close(total, 600 + 400 + 60 + 120):  # the four signals' integrals, by hand
            failures.append("whole run: rows add up to %r J, not 1180" % total)
        p = subprocess.run([pw, "stats", archive, "--set", "otf2.power=pkg:kW"], capture_output=True, text=True)
        if p.returncode != 2 or "otf2.power" not in p.stderr:
            failures.append("otf2.power=pkg:kW: exit %d, %r" % (p.returncode, p.stderr))
        f, _ = check(pw, archive, "window", ["--start", "0.75", "--end", "3.25"], 0.75, 3.25)
        failures += f
    failures += check_mi300(pw, shared)
    for line in failures:
        print("FAIL", line)
    print("energy_by_region: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
