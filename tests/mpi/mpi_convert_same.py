#!/usr/bin/env python3
"""mpi_convert_same.py - `perfweave-mpi convert` with each process drawing
only its share of the locations writes what `perfweave convert` writes.

For every dataset of the shared fixtures (golden.py's list), `convert --to
perfetto` by 1, 2, 3 and 4 processes (P cycles over 2..4 after the first
dataset of each format, which runs every P) holds the serial trace's
content (pftrace_content: the track descriptors as a set, the packets of
every sequence in order, flows included), with the same exit code,
messages and account (the counts the library sums over the processes).
The DUMPI fixtures are the ones whose messages cross processes: the flows
each process decides from the ends the others sent it (timeline_share.h)
must be the serial ones, including messages received before they were
sent by unsynchronised clocks (nonblock4-cputime), which neither end
draws.

usage: mpi_convert_same.py PERFWEAVE PERFWEAVE_MPI MPIEXEC SHARED_DATA
"""
import concurrent.futures
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import golden  # noqa: E402  (the dataset list)
import pftrace_content  # noqa: E402
import pftrace_walk  # noqa: E402

from mpi_same import run  # noqa: E402  (the same launcher and its environment)


def perfetto(argv, cwd, rel, dest):
    """(exit code, stdout, our stderr lines, decoded content) of one run.
    A launch that mpirun itself failed (its notes, none of ours: seen on a
    loaded two-core machine) is tried once more, as mpi_same.py does."""
    argv = argv + ["convert", rel, "-j", "1", "--to", "perfetto", "--force", "-o", dest, "--allow-loss"]
    notes = []
    rc, out, err = run(argv, cwd, notes)
    if rc != 0 and not err and notes:
        print("mpi convert: launcher trouble, trying again: %s" % b" ".join(notes)[:300].decode(errors="replace"))
        rc, out, err = run(argv, cwd, notes)
    err = [line.replace(dest.encode(), b"<OUT>") for line in err]
    out = out.replace(dest.encode(), b"<OUT>")
    try:
        held = pftrace_content.content(dest) if os.path.exists(dest) else None
    except pftrace_walk.Problem as e:
        held = "not a valid trace: %s" % e
    return rc, out, err, held


def one_dataset(serial, mpi, mpiexec, cwd, rel, counts, work):
    failures = []
    stem = os.path.join(work, rel.replace("/", "_"))
    want = perfetto([serial], cwd, rel, stem + ".serial.pftrace")
    for n in counts:
        argv = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(n), mpi]
        got = perfetto(argv, cwd, rel, "%s.%d.pftrace" % (stem, n))
        if got != want:
            what = [name for name, a, b in zip(("exit", "account", "stderr", "content"), want, got) if a != b]
            failures.append("%s perfetto -np %d: %s differ%s" % (rel, n, ", ".join(what),
                            "" if "exit" not in what else " (%d vs %d)" % (want[0], got[0])))
    return failures, len(counts)


def main():
    serial, mpi, mpiexec, data = sys.argv[1:5]
    data = os.path.realpath(data)
    failures, runs, seen = [], 0, set()
    with tempfile.TemporaryDirectory() as work:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            jobs = []
            for i, rel in enumerate(golden.datasets(data)):
                fmt = rel.split("/")[0]
                counts = [1, 2, 3, 4] if fmt not in seen or fmt == "dumpi" else [2 + i % 3]
                seen.add(fmt)
                jobs.append(pool.submit(one_dataset, serial, mpi, mpiexec, data, rel, counts, work))
            for j in jobs:
                f, n = j.result()
                failures += f
                runs += n
    for f in failures:
        print("mpi convert: differs: " + f)
    print("mpi convert: %d of %d runs identical to the serial program's" % (runs - len(failures), runs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
