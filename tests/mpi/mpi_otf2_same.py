#!/usr/bin/env python3
"""mpi_otf2_same.py - `perfweave-mpi convert --to otf2` with each process
drawing only its share writes the archive `perfweave convert` writes.

For every dataset of the shared fixtures (golden.py's list) that converts
to OTF2, by 1, 2, 3 and 4 processes: what otf2-print shows of the archive
(every event of every location, and with -G the global definitions, event
counts included) equals the serial archive's, with the same exit code,
account (stdout: the counts the library sums over the processes) and
messages.  Each process numbers the definitions its share uses and maps
them to the archive's through OTF2 mapping tables (otf2_unify.h), so the
events read back through the maps; the DUMPI fixtures hold communicators
created by dup and split (resolved from every share's creations), call
metrics (PAPI counters, CPU times) and messages that cross processes.

usage: mpi_otf2_same.py PERFWEAVE PERFWEAVE_MPI MPIEXEC SHARED_DATA
"""
import concurrent.futures
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import golden  # noqa: E402  (the dataset list)

from mpi_same import otf2_content, run  # noqa: E402  (the launcher, otf2-print's view)


def otf2(argv, cwd, rel, dest):
    """(exit code, stdout, our stderr lines, otf2-print's view) of one run;
    a launch mpirun itself failed is tried once more, as mpi_same.py does."""
    argv = argv + ["convert", rel, "-j", "1", "--to", "otf2", "-o", dest, "--allow-loss"]
    notes = []
    shutil.rmtree(dest, ignore_errors=True)
    rc, out, err = run(argv, cwd, notes)
    if rc != 0 and not err and notes:
        print("mpi otf2: launcher trouble, trying again: %s" % b" ".join(notes)[:300].decode(errors="replace"))
        shutil.rmtree(dest, ignore_errors=True)
        rc, out, err = run(argv, cwd, notes)
    err = [line.replace(dest.encode(), b"<OUT>") for line in err]
    out = out.replace(dest.encode(), b"<OUT>")
    return rc, out, err, otf2_content(dest)


def one_dataset(serial, mpi, mpiexec, cwd, rel, work):
    failures = []
    stem = os.path.join(work, rel.replace("/", "_"))
    want = otf2([serial], cwd, rel, stem + ".serial.otf2")
    if want[3] is None:  # the format does not convert to OTF2 (or no libotf2): nothing to compare
        return failures, 0
    for n in (1, 2, 3, 4):
        argv = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(n), mpi]
        got = otf2(argv, cwd, rel, "%s.%d.otf2" % (stem, n))
        if got != want:
            what = [name for name, a, b in zip(("exit", "account", "stderr", "archive"), want, got) if a != b]
            failures.append("%s otf2 -np %d: %s differ%s" % (rel, n, ", ".join(what),
                            "" if "exit" not in what else " (%d vs %d)" % (want[0], got[0])))
    return failures, 4


def main():
    serial, mpi, mpiexec, data = sys.argv[1:5]
    if shutil.which("otf2-print") is None:
        print("mpi otf2: otf2-print not found, skipped")
        return 77
    data = os.path.realpath(data)
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as work:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            jobs = [pool.submit(one_dataset, serial, mpi, mpiexec, data, rel, work) for rel in golden.datasets(data)]
            for j in jobs:
                f, n = j.result()
                failures += f
                runs += n
    for f in failures:
        print("mpi otf2: differs: " + f)
    print("mpi otf2: %d of %d runs identical to the serial program's" % (runs - len(failures), runs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
