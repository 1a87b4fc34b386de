#!/usr/bin/env python3
"""mpi_open_share.py - under perfweave-mpi each process's open reads only
its share of a DUMPI trace's records (issue 17: pw_open_share, the
two-step open), and still prints what perfweave prints.

For a generated trace of R equal ranks and P = 1..4 processes, `check`
and `stats --json` run with PERFWEAVE_MPI_TRAFFIC=1, whose line per
process says how many bytes of record streams its open read: the
processes' bytes add up to what one process reads alone, none reads more
than the ranks of the largest share (ceil(R / P) ranks' streams), and
stdout and the exit code are the serial program's.

usage: mpi_open_share.py GEN_DUMPI_BENCH PERFWEAVE PERFWEAVE_MPI MPIEXEC
"""
import os
import re
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", PERFWEAVE_MPI_TRAFFIC="1")
RANKS = 6
READ = re.compile(rb"^perfweave-mpi: rank (\d+) of (\d+) .*its open read (\d+) bytes of records$")


def opened_bytes(stderr):
    """Bytes each process's open read, by rank."""
    got = {}
    for line in stderr.splitlines():
        m = READ.match(line)
        if m:
            got[int(m.group(1))] = int(m.group(3))
    return got


def main():
    gen, serial, mpi, mpiexec = sys.argv[1:5]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([gen, tmp, str(RANKS), "20000"], check=True, capture_output=True)
        for cmd in (["check"], ["stats", "--json"]):
            want = subprocess.run([serial] + cmd + [tmp, "-q"], capture_output=True, env=ENV)
            alone = None
            for nprocs in (1, 2, 3, 4):
                p = subprocess.run([mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(nprocs), mpi]
                                   + cmd + [tmp, "-q", "-j", "1"], capture_output=True, env=ENV)
                read = opened_bytes(p.stderr)
                what = "%s -np %d" % (" ".join(cmd), nprocs)
                if (p.returncode, p.stdout) != (want.returncode, want.stdout):
                    failures.append("%s: output differs from the serial program's" % what)
                if sorted(read) != list(range(nprocs)):
                    failures.append("%s: traffic lines of ranks %s" % (what, sorted(read)))
                    continue
                alone = alone if alone is not None else read[0]
                most = alone * -(-RANKS // nprocs) // RANKS  # ceil(R / P) ranks' streams
                if sum(read.values()) != alone:
                    failures.append("%s: the processes read %d bytes at open, one alone %d" %
                                    (what, sum(read.values()), alone))
                if max(read.values()) > most:
                    failures.append("%s: a process read %d bytes at open, its share at most %d" %
                                    (what, max(read.values()), most))
                print("%s: open read %s bytes per process (one alone: %d)" %
                      (what, [read[r] for r in range(nprocs)], alone))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
