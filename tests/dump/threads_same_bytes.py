#!/usr/bin/env python3
"""The dump writes the same bytes whatever the thread count: -j 1 (the
plain merge), -j 2 (the two-thread pipeline) and -j 3 (the epoch mode),
in text and in JSON Lines, on every DUMPI and ROSS fixture (ovni's are
compared by tests/ovni/oracle.py), and on traces made here by the bench
generators, large enough for the pipeline's ring of blocks to wrap many
times (the fixtures fit in one block): an ovni trace with jumbo events and
a DUMPI trace with statuses and arrays.

usage: threads_same_bytes.py PERFWEAVE SHARED_DATA GEN_OVNI_TRACE GEN_DUMPI_BENCH"""
import os
import subprocess
import sys
import tempfile

FORMATS = ("dumpi", "ross")
THREADS = ("1", "2", "3")


def fixtures(data):
    """Every fixture folder of the formats; a missing format folder or an
    empty one is a failure, not a skip."""
    found = []
    for fmt in FORMATS:
        root = os.path.join(data, fmt)
        names = sorted(n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n)))
        if not names:
            raise SystemExit("FAIL: no %s fixtures under %s" % (fmt, root))
        found += [(fmt + "/" + n, os.path.join(root, n)) for n in names]
    return found


def dump(pw, path, threads, style):
    p = subprocess.run([pw, "dump", path, "-q", "-j", threads] + style,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return p.returncode, p.stdout


def generated(gen_ovni, gen_dumpi, tmp):
    """Multi-block traces from the bench generators."""
    ovni = os.path.join(tmp, "ovni")
    subprocess.run([gen_ovni, ovni, "300000", "5"], check=True, stdout=subprocess.DEVNULL)
    dumpi = os.path.join(tmp, "dumpi")
    os.mkdir(dumpi)
    subprocess.run([gen_dumpi, dumpi, "4", "30000"], check=True, stdout=subprocess.DEVNULL)
    return [("generated ovni", ovni), ("generated dumpi", dumpi)]


def main():
    pw, data, gen_ovni, gen_dumpi = sys.argv[1:5]
    failed = passed = 0
    tmp = tempfile.TemporaryDirectory()
    for name, path in fixtures(data) + generated(gen_ovni, gen_dumpi, tmp.name):
        for style in ([], ["--jsonl"]):
            outs = [dump(pw, path, j, style) for j in THREADS]
            label = "%s %s" % (name, " ".join(style) or "text")
            if outs[0][0] != 0 or not outs[0][1]:
                print("FAIL %s: -j 1 gave exit %d and %d bytes" % (label, outs[0][0], len(outs[0][1])))
                failed += 1
                continue
            for j, out in zip(THREADS[1:], outs[1:]):
                if out != outs[0]:
                    print("FAIL %s: -j %s differs from -j 1 (exit %d vs %d, %d vs %d bytes)"
                          % (label, j, out[0], outs[0][0], len(out[1]), len(outs[0][1])))
                    failed += 1
                else:
                    passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
