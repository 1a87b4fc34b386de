"""Receives posted and never completed (src/analysis/mpi_waits/channels.c):
gen_waits_trace's "abandoned" mode, N iterations of rank 0 posting an
MPI_Irecv from rank 1 that it never completes (its handle reused by the
next post, or freed with MPI_Request_free), then an MPI_Recv of the next
message, which rank 1 sends 10 us late every 1000th iteration.

MPI still matches a posted receive in order (MPI 4.0, 3.5 "Semantics of
Point-to-Point Communication": non-overtaking; 3.7.3: a freed request's
operation still completes), so each MPI_Recv gets the iteration's second
message:

* Late Sender is exactly 10 us per 1000 iterations, all in MPI_Recv of
  rank 0; MPI_Request_free never waits (it completes nothing);
* -j 2 gives -j 1's analyses;
* peak RSS is flat from N to 10 N iterations: a receive never completed
  does not keep its channel's later messages (skipped under sanitizers)."""
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


def check(cli, d, n):
    one, two = stats(cli, d, 1), stats(cli, d, 2)
    late = one["wait_states"]["late_sender"]
    want = ((n + 999) // 1000) * 10e-6
    if abs(late["total_s"] - want) > 1e-12:
        failures.append(f"{n}: late sender {late['total_s']} s, expected {want}")
    if set(k for k, v in late["by_function"].items() if v) != {"MPI_Recv"}:
        failures.append(f"{n}: late sender by function {late['by_function']}, expected MPI_Recv only")
    for kind, w in one["wait_states"].items():
        if kind != "late_sender" and w["total_s"]:
            failures.append(f"{n}: unexpected {kind} {w['total_s']}")
    for key in ("wait_states", "critical_path", "rank_functions", "idle_time"):
        if one[key] != two[key]:
            failures.append(f"{n}: -j 2 differs from -j 1 in {key}")


def main():
    gen, cli, launcher, sanitized = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "ON"
    rss = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (20000, 200000):
            d = os.path.join(tmp, f"abandoned{n}")
            os.mkdir(d)
            subprocess.run([gen, d, "abandoned", str(n)], check=True)
            check(cli, d, n)
            if not sanitized:
                rss[n] = min(int(subprocess.run([launcher, cli, "stats", "-j", "1", d], capture_output=True,
                                                text=True, check=True).stdout) for _ in range(2))
    if rss and rss[200000] > rss[20000] + 2048:
        failures.append(f"peak RSS grows with the trace: {rss[20000]} KB at N = 20000, {rss[200000]} KB at 10 N")
    for f in failures[:20]:
        print("FAIL", f)
    print(f"{len(failures)} failures; RSS {rss if not sanitized else 'not checked (sanitizers)'}")
    sys.exit(1 if failures else 0)


main()
