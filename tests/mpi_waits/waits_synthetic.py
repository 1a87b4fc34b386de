#!/usr/bin/env python3
"""The wait states of the synthetic trace gen_waits_trace.c writes, with
the values its story gives by hand (microseconds; see the generator):

  late sender    rank 0: MPI_Recv 20-10, MPI_Waitall 60-43 (its latest
                 send); rank 2: MPI_Wait 25-12; rank 1: MPI_Recv on the
                 split communicator 5
  late receiver  rank 1: MPI_Ssend 65-30 (a wildcard receive);
                 rank 2: MPI_Wait of an MPI_Issend 75-54
  collectives    members enter at +10, the late one at +50, all leave at
                 +60: a waiting member waits 40

usage: waits_synthetic.py GENERATOR PERFWEAVE
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nested import nested  # noqa: E402

EXPECTED = {  # kind -> (by rank, by function), microseconds
    "late_sender": ({0: 27, 1: 5, 2: 13, 3: 0}, {"MPI_Recv": 15, "MPI_Wait": 13, "MPI_Waitall": 17}),
    "late_receiver": ({0: 0, 1: 35, 2: 21, 3: 0}, {"MPI_Ssend": 35, "MPI_Wait": 21}),
    # NxN: six world ops, each rank late in some; the dup's Allreduce: world 0 late, world 2 waits
    "wait_nxn": ({0: 160, 1: 160, 2: 240, 3: 200},
                 {"MPI_Allreduce": 160, "MPI_Allgather": 120, "MPI_Alltoall": 120,
                  "MPI_Reduce_scatter": 120, "MPI_Scan": 120, "MPI_Exscan": 120}),
    "wait_barrier": ({0: 40, 1: 40, 2: 0, 3: 40}, {"MPI_Barrier": 120}),
    # world Bcast from the late root 1; split Bcast from world 2 (late): world 0 waits;
    # MPI_Scatter's late rank is not its root: nobody waits
    "late_broadcast": ({0: 80, 1: 0, 2: 40, 3: 40}, {"MPI_Bcast": 160}),
    # MPI_Reduce: root 0 waits for rank 3; MPI_Gather's late rank is its root
    "early_reduce": ({0: 40, 1: 0, 2: 0, 3: 0}, {"MPI_Reduce": 40}),
}
# The critical path, walked back by hand from rank 0's MPI_Finalize exit
# (1605; all ranks end together, the first is taken) through each latest
# wait to its cause: 0 <- 2 (split Bcast) <- 0 (dup Allreduce) <- 3 (Reduce)
# <- 1 (Bcast) <- 2 (Barrier) <- 1 (Exscan) <- 0 (Scan) <- 3 (Reduce_scatter)
# <- 2 (Alltoall) <- 1 (Allgather) <- 0 (Allreduce) <- 3 (Waitall's send).
CRITICAL_US = {0: 155 + 300 + 100 + 90, 1: 300, 2: 300, 3: 200 + 100 + 60}
CRITICAL_FN_US = {"MPI_Gather": 50, "MPI_Scatter": 50, "MPI_Init": 1, "MPI_Finalize": 5}
IDLE_US = {0: 20 + 37, 1: 5 + 10, 2: 28 + 36, 3: 1 + 6}  # MPI_Recv, MPI_Wait, MPI_Waitall


def us(seconds):
    return round(seconds * 1e6, 6)


def main():
    gen, cli = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([gen, d], check=True)
        out = subprocess.run([cli, "stats", "--json", d], capture_output=True, text=True, check=True)
    got = nested(json.loads(out.stdout))
    for kind, (by_rank, by_fn) in EXPECTED.items():
        g = got["wait_states"][kind]
        ranks = {int(r): us(v) for r, v in g["by_rank"].items()}
        fns = {f: us(v) for f, v in g["by_function"].items()}
        if ranks != by_rank:
            failures.append(f"{kind} by rank: ours {ranks} != {by_rank}")
        if fns != by_fn:
            failures.append(f"{kind} by function: ours {fns} != {by_fn}")
        if us(g["total_s"]) != sum(by_rank.values()):
            failures.append(f"{kind} total: ours {us(g['total_s'])} != {sum(by_rank.values())}")
    idle = {x["rank"]: us(x["idle_s"]) for x in got["idle_time"]}
    if idle != IDLE_US:
        failures.append(f"idle: ours {idle} != {IDLE_US}")
    waits = {x["rank"]: us(x["wait_states_s"]) for x in got["idle_time"]}
    want = {r: sum(e[0][r] for e in EXPECTED.values()) for r in range(4)}
    if waits != want:
        failures.append(f"wait states per rank: ours {waits} != {want}")
    cp = got["critical_path"]
    if us(cp["length_s"]) != 1605 or {int(r): us(v) for r, v in cp["by_rank"].items()} != CRITICAL_US:
        failures.append(f"critical path: ours {cp['length_s']} {cp['by_rank']} != 1605 {CRITICAL_US}")
    for f, v in CRITICAL_FN_US.items():
        if us(cp["by_function"].get(f, 0)) != v:
            failures.append(f"critical path {f}: ours {cp['by_function'].get(f)} != {v}")
    if round(sum(us(v) for v in cp["by_function"].values()), 6) != 1605:
        failures.append(f"critical path functions do not add up to its length: {cp['by_function']}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(EXPECTED)} wait kinds checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
