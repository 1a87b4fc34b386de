#!/usr/bin/python3
"""The power of OTF2 archives as counter tracks of the timeline writers.

Converts the archive of energy_by_region.py (power in W, mW and W/1000,
an energy counter in mJ, a temperature that is no power) to Chrome JSON
and Perfetto, and the MI300 archive with --set otf2.power=...:uW.  Each
power member must be one counter track, "POWER.<member>" in W, whose
values are the samples converted to W here (a counter: its difference
over the time since its previous sample, drawn at the later one) at the
samples' times; the temperature draws no counter track.  Perfetto must
hold as many counter values as Chrome (tests/convert/pftrace_walk.py
checks its rules).

Usage: power_track.py PERFWEAVE SHARED_DATA"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "convert"))
import energy_by_region as ebr  # noqa: E402
import otf2_listing  # noqa: E402
import pftrace_walk  # noqa: E402


def expected_archive():
    """Per member: [(seconds after T0, W)]."""
    out = {}
    for node in ebr.NODES.values():
        for name, unit, _, counter, samples in node["signals"]:
            f = ebr.FACTOR[unit]
            if counter:
                out[name] = [(t1, (v1 - v0) * f / (t1 - t0)) for (t0, v0), (t1, v1) in zip(samples, samples[1:])]
            else:
                out[name] = [(t, v * f) for t, v in samples]
    return out


def convert(pw, archive, out, args):
    p = subprocess.run([pw, "convert", archive, "-o", out] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("convert %s: exit %d: %s" % (out, p.returncode, p.stderr))


def chrome_counters(path):
    """Counter name -> [(ts µs, value)] in file order."""
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    tracks = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "C":
            tracks[e["name"]].append((e["ts"], e["args"]["value"]))
    return tracks


def compare(label, got, want, ticks_to_us):
    """got: name -> [(ts, v)]; want: member -> [(time, W)], time in the
    units that ticks_to_us turns into µs, both from their first sample."""
    failures = []
    names = {"POWER." + m for m in want}
    if set(got) != names:
        return ["%s: counter tracks %s, expected %s" % (label, sorted(got), sorted(names))]
    t_first = min(ts for s in got.values() for ts, _ in s)
    w_first = min(t for s in want.values() for t, _ in s)
    for member, samples in want.items():
        drawn = got["POWER." + member]
        exp = [((t - w_first) * ticks_to_us + t_first, v) for t, v in samples]
        if len(drawn) != len(exp) or any(abs(a[0] - b[0]) > 1e-3 or not ebr.close(a[1], b[1])
                                         for a, b in zip(drawn, exp)):
            failures.append("%s: %s: drawn %s, expected %s" % (label, member, drawn[:6], exp[:6]))
    return failures


def perfetto_count(path):
    counts, _ = pftrace_walk.walk(path)
    return counts["counter"]


def check(pw, archive, label, args, want, ticks_to_us, tmp):
    js, pf = os.path.join(tmp, label + ".json"), os.path.join(tmp, label + ".pftrace")
    convert(pw, archive, js, args)
    convert(pw, archive, pf, args)
    got = chrome_counters(js)
    failures = compare(label, got, want, ticks_to_us)
    n = sum(len(s) for s in got.values())
    if perfetto_count(pf) != n:
        failures.append("%s: Perfetto holds %d counter values, Chrome %d" % (label, perfetto_count(pf), n))
    return failures


def mi300_samples(archive):
    """Per device member: [(ticks, W)] from the otf2-print listing."""
    pat = re.compile(r'^METRIC\s+\d+\s+(\d+)\s+.*\("(A2rocm_smi:::current_socket_power:device=\d)" <\d+>; UINT64; (\d+)\)')
    out = collections.defaultdict(list)
    for line in otf2_listing.listing(archive).splitlines():
        m = pat.match(line)
        if m:
            out[m.group(2)].append((int(m.group(1)), int(m.group(3)) * 1e-6))
    return out


def main():
    pw, shared = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        archive = os.path.join(tmp, "energy")
        ebr.write_archive(archive)
        failures += check(pw, archive, "archive", [], expected_archive(), 1e6, tmp)
        mi300 = os.path.join(shared, "otf2", "fastotf2-mi300")
        want = mi300_samples(mi300)
        us = 1e6 / otf2_listing.ticks_per_second(mi300)
        failures += check(pw, mi300, "mi300", ["--set", "otf2.power=A2rocm_smi:::current_socket_power:*:uW"],
                          want, us, tmp)
        if len(want) != 4:
            failures.append("mi300: %d devices in the listing, expected 4" % len(want))
    for line in failures:
        print("FAIL", line)
    print("power_track: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
