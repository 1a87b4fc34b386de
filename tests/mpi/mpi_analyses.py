#!/usr/bin/env python3
"""mpi_analyses.py - the analyses joined from parts (analysis.h: part/join)
print under perfweave-mpi what the serial program prints, in every report
style.

mpi_same.py compares `check` and `stats --json` on every fixture; this adds
the text and CSV reports and the options that change what the analyses'
joins compute, with 1 to 4 processes: the MPI profile (mpi_profile_part.c:
ranks joined, communicators replayed from the parts' creations) on DUMPI
traces with communicator splits and threads, the ovni emulator's time per
state (ovniemu_part.c: each process emulates its share's looms, the join
orders rows and findings as the serial emulation and keeps once-per-trace
findings once) on two-loom traces with a model ovniemu does not know, and
the energy tables
(energy_part.c: repetitions read by their share, idle power subtracted in
the join) on generated GPU power trees, clean and damaged, with and without
--subtract-baseline.  Each run compares standard output byte for byte, the
exit code, and the findings (sorted lines, as mpi_same.py).

usage: mpi_analyses.py PERFWEAVE PERFWEAVE_MPI MPIEXEC SHARED_DATA GEN_GPUPOWER
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_same import run  # noqa: E402  (the same launcher and comparison)

STYLES = ([], ["--csv"], ["--json"])


def cases(data, work):
    """(dataset, extra options) pairs."""
    yield os.path.join(data, "dumpi/collectives4"), []
    yield os.path.join(data, "dumpi/threads4"), []
    yield os.path.join(data, "ovni/mix-1.14.0/ovni"), []
    yield os.path.join(data, "ovni/mix-1.0.0/ovni"), []
    for tree in ("gp", "gpm"):
        for extra in ([], ["--subtract-baseline"]):
            yield os.path.join(work, tree, "tree"), extra


def main():
    serial, mpi, mpiexec, data, gen = sys.argv[1:6]
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, gen, os.path.join(work, "gp"), "--seed", "7"], check=True,
                       capture_output=True)
        subprocess.run([sys.executable, gen, os.path.join(work, "gpm"), "--seed", "3", "--malformed"],
                       check=True, capture_output=True)
        for i, (path, extra) in enumerate(cases(data, work)):
            for k, style in enumerate(STYLES):
                want = run([serial, "stats", path, "-q", "-j", "2"] + style + extra, work)
                # every P for the first style, one P (cycling) for the others
                for nprocs in ([1, 2, 3, 4] if k == 0 else [2 + (i + k) % 3]):
                    argv = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(nprocs), mpi, "stats",
                            path, "-q", "-j", "1"] + style + extra
                    notes = []
                    got = run(argv, work, notes)
                    if want != got and notes:  # the launcher's own trouble, as mpi_same.py retries it
                        got = run(argv, work, notes)
                    runs += 1
                    if want != got:
                        failures.append("%s %s -np %d: exit %d vs %d, stdout %s, stderr %s" % (
                            path, " ".join(style + extra), nprocs, want[0], got[0],
                            "same" if want[1] == got[1] else "differs", "same" if want[2] == got[2] else "differs"))
    for f in failures:
        print("mpi analyses: differs: " + f)
    print("mpi analyses: %d of %d runs identical to the serial program's" % (runs - len(failures), runs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
