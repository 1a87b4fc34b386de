"""The critical path computed forward (src/analysis/mpi_waits/
critical_path_forward.c): gen_waits_trace's "path" mode, N iterations of a
Send/Recv whose sender alternates between the two ranks and enters 10 us
after the receiver, so that every wait is on the critical path and the
path changes rank at every iteration.

* the path is known: it runs from MPI_Init's entry (0) to MPI_Finalize's
  exit (N x 100 us + 105 us), half of the iterations on each rank (rank 0
  also has MPI_Init and MPI_Finalize), 10 us of each MPI_Recv on it (from
  the send's entry to the receive's exit);
* -j 2 gives -j 1's analyses;
* peak RSS is flat from N to 10 N iterations: the path no longer keeps
  its waits and hops until a walk back at the end (skipped under
  sanitizers; 5.8 MB at N = 20 k and 15.2 MB at 200 k before);
* the same on the "tangle" trace (4 ranks, waits ending at one time that
  point at each other): -j 2 as -j 1, RSS flat (10.4 and 47 MB before);
* the "threads" trace (as "path", rank 0's thread 1 calls MPI_Comm_rank
  on every other iteration, [12, 14] us into it): the path as on "path",
  its compute that of both threads of rank 0 (n x 140 us - 1 us, the
  walk's of convert --waits and of the old walk-based stats), at -j 1 and
  -j 2 (the forward path once settled waits before a gap of thread 1 was
  noted: 27.987875 s of compute at N = 200 k instead of 27.999999)."""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nested import nested  # noqa: E402

failures = []


def stats(cli, d, threads):
    out = subprocess.run([cli, "stats", "--json", "-j", str(threads), d], capture_output=True, text=True, check=True)
    return nested(json.loads(out.stdout))


def near(got, want):
    return abs(got - want) <= 1e-9 * max(1.0, abs(want))


def check(cli, d, n):
    cp = same_threads(cli, d, n)["critical_path"]
    want = {"length_s": n * 100e-6 + 105e-6}
    want_rank = {"0": n // 2 * 100e-6 + 105e-6, "1": (n - n // 2) * 100e-6}
    if not near(cp["length_s"], want["length_s"]):
        failures.append(f"{n}: length {cp['length_s']} s, expected {want['length_s']}")
    for r, w in want_rank.items():
        if not near(cp["by_rank"].get(r, -1), w):
            failures.append(f"{n}: rank {r} {cp['by_rank'].get(r)} s on the path, expected {w}")
    if not near(cp["by_function"].get("MPI_Recv", -1), n * 10e-6):
        failures.append(f"{n}: MPI_Recv {cp['by_function'].get('MPI_Recv')} s on the path, expected {n * 10e-6}")
    if os.path.basename(d) != "threads" and not near(sum(cp["by_function"].values()), cp["length_s"]):
        failures.append(f"{n}: functions on the path sum to {sum(cp['by_function'].values())}, not the length")


def check_threads(cli, d, n):
    check(cli, d, n)
    got = same_threads(cli, d, n)["critical_path"]["by_function"].get("(compute)", -1)
    if not near(got, n * 140e-6 - 1e-6):
        failures.append(f"threads {n}: (compute) {got} s on the path, expected {n * 140e-6 - 1e-6}")


def same_threads(cli, d, n):
    """-j 1's report, checked against -j 2's."""
    one, two = stats(cli, d, 1), stats(cli, d, 2)
    for key in ("wait_states", "critical_path", "rank_functions", "idle_time"):
        if one[key] != two[key]:
            failures.append(f"{n}: -j 2 differs from -j 1 in {key}")
    return one


def main():
    gen, cli, launcher, sanitized = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "ON"
    rss = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("path", "tangle"):
            for n in (20000, 200000):
                if sanitized and mode == "tangle" and n > 20000:
                    continue  # only there for its RSS
                d = os.path.join(tmp, f"{mode}{n}")
                os.mkdir(d)
                subprocess.run([gen, d, mode, str(n)], check=True)
                if mode == "path":
                    check(cli, d, n)
                elif n == 20000:
                    same_threads(cli, d, f"tangle {n}")
                if not sanitized:
                    rss[mode, n] = min(int(subprocess.run([launcher, cli, "stats", "-j", "1", d], capture_output=True,
                                                          text=True, check=True).stdout) for _ in range(2))
        d = os.path.join(tmp, "threads")
        os.mkdir(d)
        subprocess.run([gen, d, "threads", "20000"], check=True)
        check_threads(cli, d, 20000)
    for mode in ("path", "tangle"):
        if rss and rss[mode, 200000] > rss[mode, 20000] + 2048:
            failures.append(f"{mode}: peak RSS grows with the trace: {rss[mode, 20000]} KB at N = 20000, "
                            f"{rss[mode, 200000]} KB at 10 N")
    for f in failures[:20]:
        print("FAIL", f)
    print(f"{len(failures)} failures; RSS {rss if not sanitized else 'not checked (sanitizers)'}")
    sys.exit(1 if failures else 0)


main()
