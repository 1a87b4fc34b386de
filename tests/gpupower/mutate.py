#!/usr/bin/env python3
"""mutate.py PERFWEAVE GENERATOR WORKDIR

Damages every file of a generated repetition (truncations at many offsets,
byte flips) and runs `perfweave stats` and `perfweave dump` on it: nothing
may crash (exit 0 or 1 only, no sanitizer report), and when perfweave says
the data is damaged (exit 1) every error names its file with an offset or
a line.
"""
import os
import random
import shutil
import subprocess
import sys

failures = 0


def check(pw, rep, what):
    global failures
    for args in (["stats", rep, "--json", "-q", "--tz", "+01:00"], ["dump", rep, "--jsonl", "-q"]):
        p = subprocess.run([pw] + args, capture_output=True, text=True, errors="replace")
        bad = None
        if p.returncode not in (0, 1):
            bad = "exit %d" % p.returncode
        elif "Sanitizer" in p.stderr or "runtime error" in p.stderr:
            bad = "sanitizer report"
        elif p.returncode == 1:
            for line in p.stderr.splitlines():
                if ": error: " in line and "offset " not in line and "missing" not in line:
                    bad = "error without offset: " + line
        if bad:
            failures += 1
            print("FAIL %s (%s): %s\n%s" % (what, args[0], bad, p.stderr[-2000:]), file=sys.stderr)


def main():
    pw, gen, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run([sys.executable, gen, os.path.join(work, "gen"), "--seconds", "3"], check=True)
    # power-limit/bert/150W/2 has every file kind (variant 2: samples, batches).
    src = os.path.join(work, "gen", "tree", "power-limit", "bert", "150W", "2")
    rep = os.path.join(work, "rep")
    rng = random.Random(6)
    cases = 0
    for name in sorted(os.listdir(src)):
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        offsets = sorted(set([0, 1, len(data) // 2, len(data) - 1] +
                             [rng.randrange(len(data)) for _ in range(8)]))
        mutants = [("truncate %s at %d" % (name, o), data[:o]) for o in offsets]
        for _ in range(10):
            o = rng.randrange(len(data))
            b = bytearray(data)
            b[o] ^= rng.choice([1, 0x20, 0x80, 0xff])
            mutants.append(("flip %s at %d" % (name, o), bytes(b)))
        for what, body in mutants:
            shutil.rmtree(rep, ignore_errors=True)
            shutil.copytree(src, rep)
            with open(os.path.join(rep, name), "wb") as f:
                f.write(body)
            check(pw, rep, what)
            cases += 1
    print("%d passed, %d failed" % (cases - failures, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
