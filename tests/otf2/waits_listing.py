#!/usr/bin/env python3
"""Wait states of Score-P archives against their otf2-print listings (the
two Pipit ping-pongs and casita-10_scorep_mpi_tags, whose messages are all
blocking MPI_Send / MPI_Recv): the n-th MPI_SEND from rank s to rank r
with tag t is the n-th MPI_RECV of r from s with tag t (MPI's order), and
each such pair costs the receive a Late Sender of max(0, send enter -
receive enter), the enters being those of the MPI regions around the two
events.  Per receiving rank the sum must equal `stats --json`'s
late_sender_s; every other category is 0, and only receives wait.

Our times are the ticks turned into whole nanoseconds, each timestamp
rounded down, so a pair's difference may be 1 ns off the exact one when
the clock is not in nanoseconds (the ping-pongs': 2,095,197,216 ticks/s):
the tolerance is 1 ns per pair, none at 1 GHz (casita's).
Usage: waits_listing.py PERFWEAVE SHARED_DATA"""
import collections
import json
import os
import re
import subprocess
import sys

import otf2_listing

ARCHIVES = ("pipit-ping-pong-otf2", "pipit-ping-pong-otf2-papi", "casita-10_scorep_mpi_tags")
REGION = re.compile(r'Region: "(MPI_[^"]+)"')
PEER = re.compile(r'(?:Receiver|Sender): (\d+) \(.*<(\d+)>\), .*Tag: (\d+)')
RECEIVES = ("MPI_Recv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Sendrecv")


def oracle(archive):
    """Late Sender ticks per receiving rank, the number of pairs, and the
    ticks from the first event to the last."""
    rank_of, first, last = {}, None, 0
    enter = {}  # location -> tick of its open MPI region's ENTER
    sends, recvs = collections.defaultdict(list), collections.defaultdict(list)
    for kind, loc, t, rest in otf2_listing.events(archive):
        first, last = t if first is None else min(first, t), max(last, t)
        if kind == "ENTER" and REGION.search(rest):
            enter[loc] = t
        elif kind in ("MPI_SEND", "MPI_RECV"):
            p = PEER.search(rest)
            peer_rank, peer_loc, tag = int(p.group(1)), int(p.group(2)), int(p.group(3))
            rank_of[peer_loc] = peer_rank
            key = (loc, peer_loc, tag) if kind == "MPI_SEND" else (peer_loc, loc, tag)
            (sends if kind == "MPI_SEND" else recvs)[key].append(enter[loc])
    late, pairs = collections.Counter(), 0
    for key, recv_enters in recvs.items():
        for send_enter, recv_enter in zip(sends[key], recv_enters):
            late[rank_of[key[1]]] += max(0, send_enter - recv_enter)
            pairs += 1
    return late, pairs, last - (first or 0)


def check(cli, archive):
    late, pairs, span = oracle(archive)
    res = otf2_listing.ticks_per_second(archive)
    tol = 0 if res == 10**9 else pairs * 1e-9
    doc = json.loads(subprocess.run([cli, "stats", "--json", archive], check=True, capture_output=True).stdout)
    bad = []
    if not pairs:
        bad.append("no matched messages in the listing")
    for row in doc.get("wait_states", []):
        want = late.get(row["rank"], 0) / res
        if abs(row["late_sender_s"] - want) > tol + 1e-12:
            bad.append(f"rank {row['rank']}: late_sender_s {row['late_sender_s']}, listing {want:.9f}")
        others = {k: v for k, v in row.items() if k.endswith("_s") and k != "late_sender_s" and v}
        if others:
            bad.append(f"rank {row['rank']}: waits {others} where only Late Sender can be")
    if {r["rank"] for r in doc.get("wait_states", [])} < set(late):
        bad.append(f"ranks {sorted(late)} expected in wait_states")
    for row in doc.get("wait_states_by_function", []):
        if row["late_sender_s"] and row["function"] not in RECEIVES:
            bad.append(f"{row['function']} charged Late Sender: it receives nothing")
    path = doc.get("critical_path", {}).get("length_s", 0)
    if not 0 < path <= span / res + 1e-9:
        bad.append(f"critical path {path} s, the trace lasts {span / res:.9f} s")
    return bad, pairs, sum(late.values()) / res


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    failed = 0
    for name in ARCHIVES:
        bad, pairs, total = check(cli, os.path.join(shared, "otf2", name))
        if bad:
            failed += 1
            print(f"FAIL {name}:\n  " + "\n  ".join(bad))
        else:
            print(f"ok {name}: {pairs} messages, {total:.9f} s of Late Sender")
    print(f"{len(ARCHIVES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
