#!/usr/bin/env python3
"""Checks `perfweave stats --json` on the DUMPI fixtures against numbers
computed here, independently, from the `dumpi2ascii -a` texts: calls per
function, per-rank MPI time and span, the point-to-point matrix and the
message-size histogram (bytes = count x the trace's datatype size), and
collectives per communicator (sub-communicators rebuilt from the
MPI_Comm_split colors and keys in the text).

usage: stats_fixtures.py PERFWEAVE SHARED_DATA
"""
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dumpi_ascii import oracle_files, parse_oracle  # noqa: E402

FIXTURES = ["pingpong4", "nonblock4", "collectives4", "collectives4-notime-nostatus",
            "nonblock4-cputime", "threads4", "collectives4-papi"]
SENDS = {"MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Isend", "MPI_Ibsend",
         "MPI_Issend", "MPI_Irsend", "MPI_Sendrecv", "MPI_Sendrecv_replace"}
failures = []
checks = Counter()


def expect(where, what, ours, want):
    checks[what] += 1
    if ours != want:
        failures.append(f"{where}: {what}: ours {ours!r} != expected {want!r}")


def ns(text):
    return int(Decimal(text) * 1000000000)


def args_of(call):
    return {name: value[1] for _t, name, value in call["args"]}


def duration_ns(call):
    for clock in ("wall", "cpu"):
        a, b = ns(call[clock][0]), ns(call[clock][1])
        if a or b:
            return b - a
    return 0


def split_groups(ranks):
    """Per rank, the (color, members) of its MPI_Comm_split on WORLD,
    members ordered by key then world rank."""
    colors = {}
    for rank, calls in ranks.items():
        for call in calls:
            if call["type"] == "MPI_Comm_split":
                a = args_of(call)
                colors[rank] = (a["color"], a["key"])
    groups = {}
    for rank, (color, _) in colors.items():
        members = sorted((k, r) for r, (c, k) in colors.items() if c == color)
        groups[rank] = (color, [r for _, r in members])
    return groups


def expected_stats(fixture_dir):
    ranks, sizes = {}, {}
    for rank, txt, _bin in oracle_files(fixture_dir):
        _header, calls, trailer = parse_oracle(txt)
        ranks[rank] = calls
        sizes[rank] = trailer["sizes"]
    groups = split_groups(ranks)
    e = {"calls": Counter(), "mpi_ns": {}, "span_ns": {}, "matrix": Counter(),
         "hist": Counter(), "coll": Counter()}
    for rank, calls in ranks.items():
        e["mpi_ns"][rank] = sum(duration_ns(c) for c in calls)
        init = [c for c in calls if c["type"] in ("MPI_Init", "MPI_Init_thread")]
        fin = [c for c in calls if c["type"] == "MPI_Finalize"]
        clock = "wall" if any(ns(t) for t in init[0]["wall"]) else "cpu"
        e["span_ns"][rank] = ns(fin[0][clock][1]) - ns(init[0][clock][0])
        for c in calls:
            e["calls"][c["type"]] += 1
            a = args_of(c)
            if c["type"] in SENDS:
                count = a.get("count", a.get("sendcount"))
                dtype = a.get("datatype", a.get("sendtype"))
                assert a["comm"] == 2, "fixture sends are on MPI_COMM_WORLD"
                nbytes = count * sizes[rank][dtype]
                e["matrix"][(rank, a["dest"], "m")] += 1
                e["matrix"][(rank, a["dest"], "b")] += nbytes
                bucket = 0 if nbytes == 0 else 1 << (nbytes.bit_length() - 1)
                e["hist"][(bucket, "m")] += 1
                e["hist"][(bucket, "b")] += nbytes
            elif "comm" in a and c["type"] in COLLECTIVES:
                comm = a["comm"]
                if comm == 2:
                    key = (c["type"], "MPI_COMM_WORLD", len(ranks))
                else:
                    color, members = groups[rank]
                    key = (c["type"], f"color{color}", len(members))
                count = a.get("count", a.get("sendcount", 0))
                dtype = a.get("datatype", a.get("sendtype"))
                if c["type"] == "MPI_Alltoallv":
                    count = sum(a["sendcounts"])
                nbytes = count * sizes[rank][dtype] if dtype is not None else 0
                e["coll"][key + ("calls",)] += 1
                e["coll"][key + ("bytes",)] += nbytes
    return e


COLLECTIVES = {"MPI_Barrier", "MPI_Bcast", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter",
               "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall",
               "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Reduce", "MPI_Allreduce",
               "MPI_Reduce_scatter", "MPI_Scan", "MPI_Exscan"}


def check(cli, data, fixture):
    d = os.path.join(data, "dumpi", fixture)
    if not os.path.isdir(d):
        failures.append(f"{fixture}: fixture missing")
        return
    out = subprocess.run([cli, "stats", "--json", d], capture_output=True, text=True)
    if out.returncode != 0:
        failures.append(f"{fixture}: stats exit {out.returncode}: {out.stderr[:300]}")
        return
    s = json.loads(out.stdout)
    e = expected_stats(d)
    expect(fixture, "calls per function", {f["function"]: f["calls"] for f in s["functions"]},
           dict(e["calls"]))
    expect(fixture, "total calls", s["trace"]["calls"], sum(e["calls"].values()))
    for r in s["ranks"]:
        rank = r["rank"]
        expect(fixture, f"rank{rank} mpi_s", r["mpi_s"], e["mpi_ns"][rank] / 1e9)
        if e["span_ns"][rank]:
            expect(fixture, f"rank{rank} span_s", r["span_s"], e["span_ns"][rank] / 1e9)
    matrix = Counter()
    for m in s["comm_matrix"]:
        matrix[(m["source"], m["dest"], "m")] += m["messages"]
        matrix[(m["source"], m["dest"], "b")] += m["bytes"]
    expect(fixture, "comm matrix", dict(matrix), dict(e["matrix"]))
    expect(fixture, "unresolved sends", s["point_to_point"]["unresolved_messages"], 0)
    hist = Counter()
    for h in s["message_sizes"]:
        hist[(h["min_bytes"], "m")] += h["messages"]
        hist[(h["min_bytes"], "b")] += h["bytes"]
    expect(fixture, "message sizes", dict(hist), dict(e["hist"]))
    coll = Counter()
    for c in s["collectives"]:
        name = c["comm"] if c["comm"] == "MPI_COMM_WORLD" else "user"
        coll[(c["function"], name, c["comm_size"], "calls")] += c["calls"]
        coll[(c["function"], name, c["comm_size"], "bytes")] += c["bytes"]
    want = Counter()
    for (fn, comm, size, what), v in e["coll"].items():
        want[(fn, comm if comm == "MPI_COMM_WORLD" else "user", size, what)] += v
    expect(fixture, "collectives", dict(coll), dict(want))


def main():
    cli, data = sys.argv[1], sys.argv[2]
    for fixture in FIXTURES:
        check(cli, data, fixture)
    print(f"checks {dict(checks)}")
    for f in failures[:40]:
        print("FAIL", f)
    if sum(checks.values()) < 7 * 8:
        failures.append("too few checks")
    print(f"{sum(checks.values()) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
