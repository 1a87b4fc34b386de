#!/usr/bin/env python3
"""`stats --ranks 0` and `stats` of the middle half keep memory flat with
the trace's length: on the benchmark's generator (8 ranks, 25 k and 200 k
calls each) peak RSS must not grow, the other ranks being read for what
rank 0's analyses need of them rather than kept until the end, and a
window's critical path summed forward as the whole run's is.  And rank 0's rows must be those of
the unfiltered stats.  The RSS check is skipped under the sanitizers.

usage: ranks_rss.py GEN_DUMPI_BENCH PERFWEAVE PEAK_RSS SANITIZED(ON/OFF)
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi_waits"))
from nested import nested  # noqa: E402  (the flat tables regrouped)


def stats(cli, d, args):
    out = subprocess.run([cli, "stats", "--json", "-j", "1", d] + args, capture_output=True, text=True,
                         check=True)
    return nested(json.loads(out.stdout))


def main():
    gen, cli, launcher, sanitized = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "ON"
    failures, rss = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for calls in (25000, 200000):
            d = os.path.join(tmp, f"bench{calls}")
            os.mkdir(d)
            subprocess.run([gen, d, "8", str(calls)], check=True, stdout=subprocess.DEVNULL)
            whole, ranks0 = stats(cli, d, []), stats(cli, d, ["--ranks", "0"])
            want = [r for r in whole["rank_functions"] if r["rank"] == 0]
            if ranks0["rank_functions"] != want:
                failures.append(f"{calls}: rank 0's rows differ from the unfiltered ones")
            for kind, w in whole["wait_states"].items():
                if ranks0["wait_states"][kind]["by_rank"] != {"0": w["by_rank"]["0"]}:
                    failures.append(f"{calls}: {kind} of rank 0 differs")
            span = float(next(line.split()[-1] for line in subprocess.run(
                [cli, "info", d], capture_output=True, text=True, check=True).stdout.splitlines()
                if line.startswith("time_span")))
            window = ["--start", f"{span / 4:.6f}", "--end", f"{3 * span / 4:.6f}"]
            for what, args in (("--ranks 0", ["--ranks", "0"]), ("window", window)):
                if not sanitized:
                    out = [subprocess.run([launcher, cli, "stats", "-j", "1", d] + args, capture_output=True,
                                          text=True, check=True).stdout for _ in range(2)]
                    rss.setdefault(what, {})[calls] = min(int(x) for x in out)
    for what, kb in rss.items():
        if kb[200000] > kb[25000] + 2048:
            failures.append(f"{what}: peak RSS grows with the trace: {kb}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failures; RSS {rss if rss else 'not checked (sanitizers)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
