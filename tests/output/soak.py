#!/usr/bin/env python3
"""soak.py - conversions killed at random moments never leave an incomplete
output under the final name (issue 13, "soak test").

A generated DUMPI trace (4 ranks) is converted once to every target for
reference; then each target is run 20 times and killed (SIGKILL and
SIGINT, alternately) after a random delay within its run time.  After each
run, every final name is either absent or holds the whole reference
output (files hashed; directories hashed file by file).  SIGINT must also
leave no temporary; SIGKILL cannot clean up, its temporaries (hidden
`.<name>.pw-XXXXXX` directories) are removed between runs.

usage: soak.py PERFWEAVE GEN_DUMPI_BENCH
"""
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TARGETS = [("perfetto", "o.pftrace"), ("chrome", "o.json"), ("otf2", "o.otf2"),
           ("paraver", "o.prv"), ("csv", "o.csv.d"), ("sqlite", "o.sqlite")]
RUNS = 20


def tree_hash(path):
    """A file's bytes, or a directory's files by relative name; an OTF2
    archive as otf2-print reads it (its files hold the time of writing)."""
    if path.endswith(".otf2"):
        p = subprocess.run(["otf2-print", os.path.join(path, "traces.otf2")], capture_output=True)
        return hashlib.sha256(p.stdout + b"rc=%d" % p.returncode).hexdigest()
    if os.path.isfile(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    parts = []
    for root, dirs, files in os.walk(path):
        for name in files:
            full = os.path.join(root, name)
            parts.append(os.path.relpath(full, path) + " " + tree_hash(full))
    return hashlib.sha256("\n".join(sorted(parts)).encode()).hexdigest()


def finals(out_dir):
    """Every visible output (temporaries are hidden names)."""
    return {n: tree_hash(os.path.join(out_dir, n)) for n in os.listdir(out_dir) if not n.startswith(".")}


def clear(out_dir):
    for n in os.listdir(out_dir):
        p = os.path.join(out_dir, n)
        shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)


def main():
    pw, gen = os.path.abspath(sys.argv[1]), sys.argv[2]
    rng = random.Random(13)
    fails = 0
    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "trace")
        os.mkdir(src)
        subprocess.run([gen, src, "4", "20000"], check=True, capture_output=True)
        meta = os.path.join(src, "bench.meta")
        out_dir = os.path.join(work, "out")
        os.mkdir(out_dir)
        for target, name in TARGETS:
            cmd = [pw, "convert", meta, "-q", "--allow-loss", "-j", "1", "--to", target,
                   "-o", os.path.join(out_dir, name)]
            t0 = time.monotonic()
            subprocess.run(cmd, check=True)
            took = time.monotonic() - t0
            whole = finals(out_dir)
            clear(out_dir)
            counts = {"killed": 0, "finished": 0}
            for i in range(RUNS):
                sig = signal.SIGKILL if i % 2 == 0 else signal.SIGINT
                p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(rng.uniform(0, took * 1.1))
                p.send_signal(sig)
                rc = p.wait()
                counts["finished" if rc == 0 else "killed"] += 1
                seen = finals(out_dir)
                partial = [n for n, h in seen.items() if whole.get(n) != h]
                hidden = [n for n in os.listdir(out_dir) if n.startswith(".")]
                if partial or (sig == signal.SIGINT and rc != 0 and hidden):
                    fails += 1
                    print("FAIL %s run %d (signal %d, exit %d): partial %s, temporaries %s"
                          % (target, i, sig, rc, partial, hidden))
                clear(out_dir)
            print("ok   %s: %d runs killed, %d finished first; never a partial output (%.2f s a run)"
                  % (target, counts["killed"], counts["finished"], took))
    print("%d failures" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
