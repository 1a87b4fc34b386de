"""The joint replay of the ranks (src/analysis/mpi_waits/replay.c) on the
benchmark's generator at two lengths (8 ranks, 10 k and 120 k calls each):

* ranks in parallel (-j 2) give what one thread gives: every wait state,
  the critical path, the rank x function rows; the time bins within
  rounding (they are sums of doubles whose order depends on the workers);
* peak RSS does not grow with the trace: the replay keeps messages only
  until both sides are replayed (docs/mpi-analyses.md, "Memory").  The
  RSS check is skipped under the sanitizers (ASan keeps freed memory in
  quarantine)."""
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


def peak_rss_kb(launcher, cli, d):
    """Peak RSS of one `stats` run (peak_rss.c)."""
    out = subprocess.run([launcher, cli, "stats", "-j", "1", d], capture_output=True, text=True, check=True)
    return int(out.stdout)


def same_numbers(a, b, path, tol):
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            failures.append(f"{path}: keys differ: {sorted(set(a) ^ set(b))[:5]}")
            return
        for k in a:
            same_numbers(a[k], b[k], f"{path}.{k}", tol)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            failures.append(f"{path}: {len(a)} != {len(b)} items")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            same_numbers(x, y, f"{path}[{i}]", tol)
    elif isinstance(a, float) or isinstance(b, float):
        if abs(a - b) > tol * max(1.0, abs(a), abs(b)):
            failures.append(f"{path}: {a} != {b}")
    elif a != b:
        failures.append(f"{path}: {a} != {b}")


def main():
    gen, cli, launcher, sanitized = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "ON"
    with tempfile.TemporaryDirectory() as tmp:
        rss = {}
        for calls in (10000, 120000):
            d = os.path.join(tmp, f"bench{calls}")
            os.mkdir(d)
            subprocess.run([gen, d, "8", str(calls)], check=True, stdout=subprocess.DEVNULL)
            one, two = stats(cli, d, 1), stats(cli, d, 2)
            for key in ("wait_states", "critical_path", "rank_functions", "idle_time", "load_imbalance"):
                same_numbers(one[key], two[key], f"{calls}: {key}", 0)
            for key in ("time_profile", "comm_over_time"):
                same_numbers(one[key], two[key], f"{calls}: {key}", 1e-9)
            if not sanitized:
                rss[calls] = min(peak_rss_kb(launcher, cli, d) for _ in range(2))
        if rss and rss[120000] > rss[10000] + 2048:
            failures.append(f"peak RSS grows with the trace: {rss[10000]} KB at 80 k calls, "
                            f"{rss[120000]} KB at 960 k calls")
    for f in failures[:20]:
        print("FAIL", f)
    print(f"{len(failures)} failures; RSS {rss if not sanitized else 'not checked (sanitizers)'}")
    sys.exit(1 if failures else 0)


main()
