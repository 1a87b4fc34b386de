#!/usr/bin/env python3
"""MPI wait states, rank x function times and the critical path in a window
against the dumpi2ascii oracles, clipped here.

For every DUMPI fixture with wall-clock times, `stats --json` with a window
(25-75 %, 10-40 % and 60-100 % of the run, as absolute @ns) must give Scalasca's wait intervals
[enter, enter + wait] clipped to it (per kind, by rank and by function), the
call intervals clipped (rank x function time; calls counted where they
enter; idle time), and the whole run's critical path clipped, all computed
here from the oracle texts (tests/mpi_waits/waits_fixtures.py's independent
matching, given the window); the mpiP tables (functions, ranks) count the
calls that enter the window and time the call intervals clipped.  `--ranks 0` reports rank 0's rows only, with
the whole run's values (the other ranks are still read); `--type` the rows
of the functions that match, never starving the replay.

usage: mpi_window.py PERFWEAVE SHARED_DATA
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "mpi_waits"))
import waits_fixtures as wf  # noqa: E402
from nested import nested  # noqa: E402

FIXTURES = ["pingpong4", "nonblock4", "collectives4", "threads4", "collectives4-papi", "nonblock4-cputime",
            "collectives4-notime-nostatus"]
# upstream-v1.0.0 has the oracle text of rank 0 only (waits_fixtures.py)
failures = []
checked = {"values": 0}


def run(cli, d, args):
    out = subprocess.run([cli, "stats", "--json", d] + args, capture_output=True, text=True)
    if out.returncode != 0:
        failures.append(f"{d} {args}: exit {out.returncode}: {out.stderr[:300]}")
        return None
    return nested(json.loads(out.stdout))


def same(what, ours, want_ns):
    checked["values"] += 1
    if not wf.close(ours, want_ns):
        failures.append(f"{what}: ours {ours} != {want_ns / 1e9}")


def compare(name, got, exp, ranks_shown):
    ranks, waits, by_fn, prof, idle, _profile, cpath = exp
    for kind in wf.KINDS:
        g = got["wait_states"][kind]
        if set(g["by_rank"]) != {str(r) for r in ranks_shown}:
            failures.append(f"{name}: {kind} ranks {sorted(g['by_rank'])}")
        for r in ranks_shown:
            same(f"{name}: {kind} rank {r}", g["by_rank"].get(str(r), 0), waits[kind][r])
        if ranks_shown == sorted(ranks):
            for f in set(g["by_function"]) | {f for f, v in by_fn[kind].items() if v}:
                same(f"{name}: {kind} {f}", g["by_function"].get(f, 0), by_fn[kind][f])
    rows = {(x["rank"], x["function"]): x for x in got["rank_functions"]}
    want = {k: v for k, v in prof.items() if k[0] in ranks_shown and (v[0] or v[1])}
    if set(rows) != set(want):
        failures.append(f"{name}: rank x function rows differ: {sorted(set(rows) ^ set(want))[:5]}")
    for key, (calls, t) in want.items():
        x = rows.get(key)
        if x and x["calls"] != calls:
            failures.append(f"{name}: {key}: calls {x['calls']} != {calls}")
        if x:
            same(f"{name}: {key} time", x["time_s"], t)
    for x in got["idle_time"]:
        same(f"{name}: idle rank {x['rank']}", x["idle_s"], idle[x["rank"]])
    if {x["rank"] for x in got["idle_time"]} != set(ranks_shown):
        failures.append(f"{name}: idle ranks differ")
    if cpath:
        on_rank, on_fn = cpath
        cp = got["critical_path"]
        for r in ranks_shown:
            same(f"{name}: critical path rank {r}", cp["by_rank"].get(str(r), 0), on_rank.get(r, 0))
        for f in set(cp["by_function"]) | {f for f, v in on_fn.items() if v}:
            same(f"{name}: critical path {f}", cp["by_function"].get(f, 0), on_fn.get(f, 0))


def check_types(name, got, exp):
    """--type selects the rows of functions that match, with the values
    of the whole analysis (the replay still reads every call)."""
    if not got:
        return
    _ranks, _waits, _by_fn, prof, _idle, _profile, _cpath = exp
    want = {k: v for k, v in prof.items() if k[1].startswith("MPI_Wait")}
    rows = {(x["rank"], x["function"]): (x["calls"], x["time_s"]) for x in got["rank_functions"]}
    if set(rows) != set(want):
        failures.append(f"{name} --type: rows {sorted(set(rows) ^ set(want))[:5]}")
    for key, (calls, t) in want.items():
        if key in rows:
            checked["values"] += 1
            if rows[key][0] != calls or not wf.close(rows[key][1], t):
                failures.append(f"{name} --type {key}: ours {rows[key]} != {calls} {t / 1e9}")
    for kind in wf.KINDS:
        if any(not f.startswith("MPI_Wait") for f in got["wait_states"][kind]["by_function"]):
            failures.append(f"{name} --type: {kind} by function has other functions")


def check_mpip(name, got, exp):
    """The mpiP tables (functions, ranks) of a window: calls counted where
    they enter, times the call intervals clipped, summed over the ranks."""
    prof = exp[3]
    fns, ranks = {}, {}
    for (r, f), (calls, ns) in prof.items():
        fc = fns.setdefault(f, [0, 0])
        fc[0] += calls
        fc[1] += ns
        ranks[r] = ranks.get(r, 0) + calls
    rows = {x["function"]: x for x in got["functions"]}
    for f, (calls, ns) in fns.items():
        g = rows.get(f, {"calls": 0, "time_s": 0})
        checked["values"] += 1
        if g["calls"] != calls:
            failures.append(f"{name}: mpiP {f} calls {g['calls']} != {calls}")
        same(f"{name}: mpiP {f} time", g["time_s"], ns)
    for f in set(rows) - set(fns):
        if rows[f]["calls"] or rows[f]["time_s"]:
            failures.append(f"{name}: mpiP {f} not in the window: {rows[f]}")
    for x in got["ranks"]:
        checked["values"] += 1
        if x["calls"] != ranks.get(x["rank"], 0):
            failures.append(f"{name}: mpiP rank {x['rank']} calls {x['calls']} != {ranks.get(x['rank'], 0)}")


def span(ranks):
    """The run's first entry and last exit; None when no call is timed."""
    ts = [wf.times(c) for calls in ranks.values() for c in calls if wf.times(c)]
    return (min(t[0] for t in ts), max(t[1] for t in ts)) if ts else None


def main():
    cli, data = sys.argv[1], sys.argv[2]
    for fixture in FIXTURES:
        d = os.path.join(data, "dumpi", fixture)
        whole = wf.expected(d)
        if span(whole[0]):
            t0, t1 = span(whole[0])
            for pa, pb in ((25, 75), (10, 40), (60, 100)):  # per cent of the run
                a, b = t0 + (t1 - t0) * pa // 100, t0 + (t1 - t0) * pb // 100
                got = run(cli, d, ["--start", f"@{a}", "--end", f"@{b}"])
                if got:
                    exp = wf.expected(d, (a, b))
                    compare(f"{fixture} [{a}, {b})", got, exp, sorted(whole[0]))
                    check_mpip(f"{fixture} [{a}, {b})", got, exp)
        got = run(cli, d, ["--ranks", "0"])
        if got:
            compare(f"{fixture} --ranks 0", got, whole, [0])
        check_types(fixture, run(cli, d, ["--type", "MPI_Wait*"]), whole)
    print(f"{checked['values']} values checked")
    for f in failures[:40]:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
