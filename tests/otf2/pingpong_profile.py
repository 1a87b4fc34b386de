#!/usr/bin/env python3
"""The MPI profile of the two Pipit ping-pong archives against their
otf2-print listings: MPI_Send/MPI_Recv calls (ENTER of those regions),
their total time (LEAVE - ENTER in ticks, over the ClockProperties'
resolution), and the messages and bytes of MPI_SEND events, per
(sender, receiver) pair.
Usage: pingpong_profile.py PERFWEAVE SHARED_DATA"""
import collections
import json
import os
import re
import subprocess
import sys

import otf2_listing

REGION = re.compile(r'Region: "([^"]+)"')
SEND = re.compile(r"Receiver: (\d+) .*Length: (\d+)")


def oracle(archive):
    calls, ticks = collections.Counter(), collections.Counter()
    pairs = collections.Counter()
    nbytes = 0
    open_at = {}
    for kind, loc, t, rest in otf2_listing.events(archive):
        r = REGION.search(rest)
        if kind == "ENTER" and r and r.group(1) in ("MPI_Send", "MPI_Recv"):
            calls[r.group(1)] += 1
            open_at[loc] = t
        elif kind == "LEAVE" and r and r.group(1) in ("MPI_Send", "MPI_Recv"):
            ticks[r.group(1)] += t - open_at.pop(loc)
        elif kind == "MPI_SEND":
            s = SEND.search(rest)
            pairs[(loc, int(s.group(1)))] += 1
            nbytes += int(s.group(2))
    return calls, ticks, pairs, nbytes


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    failed = 0
    for name in ("pipit-ping-pong-otf2", "pipit-ping-pong-otf2-papi"):
        archive = os.path.join(shared, "otf2", name)
        calls, ticks, pairs, nbytes = oracle(archive)
        res = otf2_listing.ticks_per_second(archive)
        stats = json.loads(subprocess.run([cli, "stats", "--json", archive], check=True,
                                          capture_output=True).stdout)
        fns = {f["function"]: f for f in stats["functions"]}
        problems = []
        for fn in ("MPI_Send", "MPI_Recv"):
            if calls[fn] != 16 or fns[fn]["calls"] != calls[fn]:
                problems.append(f"{fn} calls: listing {calls[fn]}, profile {fns[fn]['calls']}")
            if abs(fns[fn]["time_s"] - ticks[fn] / res) > 1e-6:
                problems.append(f"{fn} time: listing {ticks[fn] / res}, profile {fns[fn]['time_s']}")
        p2p = stats["point_to_point"]
        if p2p["messages"] != sum(pairs.values()) or p2p["bytes"] != nbytes:
            problems.append(f"messages/bytes: listing {sum(pairs.values())}/{nbytes}, "
                            f"profile {p2p['messages']}/{p2p['bytes']}")
        matrix = {(m["source"], m["dest"]): m["messages"] for m in stats["comm_matrix"]}
        if matrix != dict(pairs):
            problems.append(f"matrix: listing {dict(pairs)}, profile {matrix}")
        for p in problems:
            print(f"FAIL {name}: {p}")
        if not problems:
            print(f"ok {name}: 16 MPI_Send, 16 MPI_Recv, {nbytes} bytes")
        failed += bool(problems)
    print(f"{2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
