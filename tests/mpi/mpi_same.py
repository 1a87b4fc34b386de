#!/usr/bin/env python3
"""mpi_same.py - perfweave-mpi under mpirun prints what perfweave prints.

For every dataset of the shared fixtures (the list of tests/golden/golden.py,
all formats) and a generated gpupower tree, `check` and `stats --json` run
by P processes give the serial program's standard output byte for byte,
the same exit code, and the same findings on standard error (as sorted
lines: the serial program's worker threads already report in any order;
mpirun's own notices are left out).
P cycles over 2, 3, 4 from one dataset to the next, and the first dataset
of each format runs with every P of 1 to 4, so that the test stays short.
`info --json` (run by rank 0), `stats --json --start 0.25` (filtered),
`convert --to perfetto` (a shard per
process, joined by rank 0; compared by decoded content) and `convert --to
otf2` (event files written by each process, definitions by rank 0;
compared as otf2-print reads them), with 2 and 3 processes, are compared
on one dataset per format.

usage: mpi_same.py PERFWEAVE PERFWEAVE_MPI MPIEXEC SHARED_DATA GEN_GPUPOWER
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden  # noqa: E402  (the dataset list)
import pftrace_content  # noqa: E402
import pftrace_walk  # noqa: E402

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def run(argv, cwd, launcher_notes=None):
    p = subprocess.run(argv, cwd=cwd, capture_output=True, env=ENV)
    # mpirun adds its own notice of a non-zero exit; ours start "perfweave".
    ours = [line for line in p.stderr.splitlines() if line.startswith(b"perfweave")]
    if launcher_notes is not None:
        launcher_notes[:] = [line for line in p.stderr.splitlines() if not line.startswith(b"perfweave")]
    return p.returncode, p.stdout, sorted(ours)


def compare(serial, mpi, mpiexec, cwd, rel, args, nprocs, failures):
    want = run([serial] + args[:1] + [rel, "-q", "-j", "2"] + args[1:], cwd)
    argv = ([mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(nprocs), mpi]
            + args[:1] + [rel, "-q", "-j", "1"] + args[1:])
    notes = []
    got = run(argv, cwd, notes)
    # A launch that mpirun itself failed (its notes, none of ours: seen once
    # on a loaded two-core machine) is tried once more; a real difference
    # repeats.
    if want != got and not got[2] and notes:
        print("mpi: launcher trouble, trying again: %s" % b" ".join(notes)[:300].decode(errors="replace"))
        got = run(argv, cwd, notes)
    if want != got:
        failures.append("%s %s -np %d: exit %d vs %d, stdout %s, stderr %s; mpirun: %s" % (
            rel, " ".join(args), nprocs, want[0], got[0],
            "same" if want[1] == got[1] else "differs", "same" if want[2] == got[2] else "differs",
            b" ".join(notes)[:300].decode(errors="replace")))
    return 1


def convert_same(serial, mpi, mpiexec, cwd, rel, work, failures):
    """convert --to perfetto in shards joined by rank 0 holds what the
    serial trace holds (pftrace_content: same tracks, same packets per
    sequence), with the same exit code and messages."""
    for nprocs in (2, 3):
        outs = []
        for i, argv in enumerate([[serial], [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(nprocs),
                                             mpi]]):
            dest = os.path.join(work, "%s.%d.pftrace" % (rel.replace("/", "_"), i))
            rc, _, err = run(argv + ["convert", rel, "-q", "--to", "perfetto", "--force", "-o", dest], cwd)
            err = [line.replace(dest.encode(), b"<OUT>") for line in err]  # messages name the output
            try:
                held = pftrace_content.content(dest) if os.path.exists(dest) else None
            except pftrace_walk.Problem as e:
                held = "not a valid trace: %s" % e
            outs.append((rc, err, held))
        if outs[0] != outs[1]:
            failures.append("%s convert --to perfetto -np %d: exit %d vs %d, stderr %s, content %s" % (
                rel, nprocs, outs[0][0], outs[1][0], "same" if outs[0][1] == outs[1][1] else "differs",
                "same" if outs[0][2] == outs[1][2] else "differs"))


def otf2_content(archive):
    """What otf2-print (libotf2's reader) shows of an archive: every event
    of every location, and the global definitions (-G, with each
    location's event count); None when there is no archive."""
    anchor = os.path.join(archive, "traces.otf2")
    if not os.path.exists(anchor):
        return None
    return [subprocess.run(["otf2-print"] + flags + [anchor], capture_output=True).stdout
            for flags in ([], ["-G"])]


def convert_otf2_same(serial, mpi, mpiexec, cwd, rel, work, failures):
    """convert --to otf2 by 2 and 3 processes writing their locations' event
    files into one archive (libotf2's MPI collectives) reads back as the
    serial archive, with the same exit code and messages."""
    if shutil.which("otf2-print") is None:
        return
    for nprocs in (2, 3):
        outs = []
        for i, argv in enumerate([[serial], [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(nprocs),
                                             mpi]]):
            dest = os.path.join(work, "%s.%d.otf2" % (rel.replace("/", "_"), i))
            shutil.rmtree(dest, ignore_errors=True)
            rc, _, err = run(argv + ["convert", rel, "-q", "--to", "otf2", "-o", dest], cwd)
            err = [line.replace(dest.encode(), b"<OUT>") for line in err]
            outs.append((rc, err, otf2_content(dest)))
        if outs[0] != outs[1]:
            failures.append("%s convert --to otf2 -np %d: exit %d vs %d, stderr %s, content %s" % (
                rel, nprocs, outs[0][0], outs[1][0], "same" if outs[0][1] == outs[1][1] else "differs",
                "same" if outs[0][2] == outs[1][2] else "differs"))
    # an existing archive is refused by rank 0 alone, as the serial program
    # refuses it: same message, same exit code, no process left waiting
    dest = os.path.join(work, "%s.0.otf2" % rel.replace("/", "_"))
    refused = [run(argv + ["convert", rel, "-q", "--to", "otf2", "-o", dest], cwd)[:3:2]
               for argv in ([serial], [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", "3", mpi])]
    if refused[0] != refused[1]:
        failures.append("%s convert --to otf2 over an existing archive -np 3: %s vs %s" % (rel, refused[0], refused[1]))


def one_dataset(serial, mpi, mpiexec, cwd, rel, counts, first, work):
    """The failures of one dataset's runs, and how many runs were made."""
    failures, runs = [], 0
    for nprocs in counts:
        for args in (["check"], ["stats", "--json"]):
            runs += compare(serial, mpi, mpiexec, cwd, rel, args, nprocs, failures)
    if first:
        runs += compare(serial, mpi, mpiexec, cwd, rel, ["info", "--json"], 2, failures)
        # a filter turns a summary that reads past the cursors into the
        # generic counts, which the join then computes alone
        runs += compare(serial, mpi, mpiexec, cwd, rel, ["stats", "--json", "--start", "0.25"], 2, failures)
        convert_same(serial, mpi, mpiexec, cwd, rel, work, failures)
        convert_otf2_same(serial, mpi, mpiexec, cwd, rel, work, failures)
    return failures, runs


def main():
    serial, mpi, mpiexec, data, gen = sys.argv[1:6]
    data = os.path.realpath(data)
    failures, runs, seen = [], 0, set()
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, gen, os.path.join(work, "gp"), "--seed", "7"],
                       check=True, capture_output=True)
        sets = [(data, rel) for rel in golden.datasets(data)] + [(os.path.join(work, "gp"), "tree")]
        # two datasets at a time, as golden.py runs them
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            jobs = []
            for i, (cwd, rel) in enumerate(sets):
                fmt = rel.split("/")[0]
                first = fmt not in seen
                seen.add(fmt)
                counts = [1, 2, 3, 4] if first else [2 + i % 3]
                jobs.append(pool.submit(one_dataset, serial, mpi, mpiexec, cwd, rel, counts, first, work))
            for j in jobs:
                f, n = j.result()
                failures += f
                runs += n
    for f in failures:
        print("mpi: differs: " + f)
    print("mpi: %d of %d runs identical to the serial program's" % (runs - len(failures), runs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
