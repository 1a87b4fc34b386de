#!/usr/bin/env python3
"""mpi_convert_faults.py - a write that fails in one process of
`perfweave-mpi convert` ends every process with the same exit code (3, an
I/O fault), within a time limit (no process left waiting in a
collective), and leaves nothing under the output's name.

Three failures on a 64 KiB tmpfs: the joined Perfetto trace written by
rank 0 into it, the OTF2 archive written into it (each process writes its
event files through libotf2's MPI collectives), and one process's
Perfetto shard in its temporary directory there (TMPDIR for that process
only, first and last rank), while the others draw on.  Needs to mount a
tmpfs (root, or a private mount namespace); else it says why and is
skipped (exit 77).

usage: mpi_convert_faults.py PERFWEAVE_MPI MPIEXEC GEN_DUMPI WORKDIR
"""
import os
import shutil
import subprocess
import sys

MPI, MPIEXEC, GEN, WORK = sys.argv[1:5]
SKIP = 77
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
LAUNCH = [MPIEXEC, "--oversubscribe", "--allow-run-as-root"]


def convert(trace, target, out, tiny=None, tiny_rank=None):
    """Exit code of a 3-process conversion; tiny_rank: the one process
    whose TMPDIR is the tiny file system (MPMD launch)."""
    args = ["convert", trace, "-q", "--to", target, "-o", out]
    if tiny_rank is None:
        argv = LAUNCH + ["-np", "3", MPI] + args
    else:
        parts = []
        for r in range(3):
            prog = (["env", "TMPDIR=" + tiny] if r == tiny_rank else []) + [MPI] + args
            parts += ([":"] if parts else []) + ["-np", "1"] + prog
        argv = LAUNCH + parts
    try:
        p = subprocess.run(argv, capture_output=True, env=ENV, timeout=300)
    except subprocess.TimeoutExpired:
        return "hung"
    return p.returncode


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    trace, tiny = os.path.join(WORK, "trace"), os.path.join(WORK, "tiny")
    os.makedirs(trace)
    os.makedirs(tiny)
    subprocess.run([GEN, trace, "4", "30000"], check=True, capture_output=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny], capture_output=True).returncode:
        print("mpi faults: skipped, cannot mount a tmpfs here (not root)")
        return SKIP
    failures = []
    try:
        for target in ("perfetto", "otf2"):
            out = os.path.join(tiny, "out." + target)
            rc = convert(trace, target, out)
            left = os.path.exists(out)
            if rc != 3 or left:
                failures.append("%s into a full file system: exit %s%s" % (target, rc, ", output left" if left else ""))
            for name in os.listdir(tiny):
                shutil.rmtree(os.path.join(tiny, name), ignore_errors=True)
        for rank in (0, 2):
            out = os.path.join(WORK, "out.pftrace")
            rc = convert(trace, "perfetto", out, tiny, rank)
            left = os.path.exists(out)
            if rc != 3 or left:
                failures.append("perfetto, rank %d's shard on a full file system: exit %s%s"
                                % (rank, rc, ", output left" if left else ""))
            for name in os.listdir(tiny):
                shutil.rmtree(os.path.join(tiny, name), ignore_errors=True)
    finally:
        subprocess.run(["umount", tiny], capture_output=True)
    for f in failures:
        print("mpi faults: " + f)
    print("mpi faults: %d of 4 failures ended every process alike" % (4 - len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
