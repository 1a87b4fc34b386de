"""The MPI wait analyses spread over processes (issue 17,
src/analysis/mpi_waits/exchange.c): `perfweave-mpi stats` with 1 to 4
processes, each replaying its share of the ranks and exchanging the
sides of messages and collectives window by window, prints the bytes
serial `perfweave stats` prints.

Traces that hunt for the exchange's failures:
* every DUMPI fixture (threads4: a rank with several locations, split
  over processes by bytes; nonblock4: Irecv/Waitall with wildcards;
  collectives4: every collective kind; upstream-v1.0.0: absolute times);
* tests/mpi_waits' synthetic trace (Late Receiver through MPI_Ssend and
  MPI_Issend across processes: the post travels back; split and dup
  communicators whose members live on different processes);
* tests/mpi_waits' `path` (every wait on the critical path: share 0's
  walk needs the waits each round carries to it) and `tangle` (waits
  ending at one time that point at each other), 2000 iterations;
* the benchmark's generator, 8 ranks (windows: many exchanges), with
  -j 2 per process and with a time filter.
JSON for every trace and P; text and CSV (the report's other shapes) at
P = 3 where ranks split unevenly.

Share 0's memory does not grow with the waits (it settles the critical
path forward and lets them go, critical_path_spread.c): its peak RSS on
`path` 200 000 is within a few MB of `path` 20 000 at P = 2 (holding
every wait it grew by 12 MB); not checked under AddressSanitizer."""
import os
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


# Seconds one command may take (the launcher hangs when a process dies
# before MPI_Init): a hang is a failure, not the test's own timeout.
TIMEOUT = 120


def run(argv):
    try:
        p = subprocess.run(argv, capture_output=True, env=ENV, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b"", [b"timed out"]
    ours = sorted(line for line in p.stderr.splitlines() if line.startswith(b"perfweave"))
    return p.returncode, p.stdout, ours


def share0_peak_kib(mpiexec, mpi, peak_rss, trace):
    """Share 0's peak RSS under `perfweave-mpi stats` at P = 2, best of 3
    (None when it could not be measured): each process runs under
    tests/mpi_waits/peak_rss.c, whose line mpirun tags with its rank."""
    best = None
    for _ in range(3):
        try:
            p = subprocess.run([mpiexec, "--oversubscribe", "--allow-run-as-root", "--tag-output", "-np", "2",
                                peak_rss, mpi, "stats", trace, "-q", "-j", "1"], capture_output=True, text=True,
                               env=ENV, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            continue
        for line in p.stdout.splitlines():  # "[job,rank]<stdout>:KiB"
            tag, _, kib = line.partition("<stdout>:")
            if tag.endswith(",0]") and kib.strip().isdigit():
                best = int(kib) if best is None else min(best, int(kib))
    return best


def main():
    gen_waits, gen_bench, serial, mpi, mpiexec, data, peak_rss = sys.argv[1:8]
    # AddressSanitizer's quarantine keeps freed memory: its peak RSS says
    # nothing of the program's
    sanitized = sys.argv[8:9] == ["ON"]
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        synth = os.path.join(tmp, "synthetic")
        bench = os.path.join(tmp, "bench")
        os.mkdir(synth)
        os.mkdir(bench)
        subprocess.run([gen_waits, synth], check=True, stdout=subprocess.DEVNULL, timeout=TIMEOUT)
        subprocess.run([gen_bench, bench, "8", "20000"], check=True, stdout=subprocess.DEVNULL, timeout=TIMEOUT)
        shapes = []
        for shape in ("path", "tangle", "threads"):
            shapes.append(os.path.join(tmp, shape))
            os.mkdir(shapes[-1])
            subprocess.run([gen_waits, shapes[-1], shape, "2000"], check=True, stdout=subprocess.DEVNULL,
                           timeout=TIMEOUT)
        peaks = []
        for n in (20000, 200000) if not sanitized else ():
            d = os.path.join(tmp, "path%d" % n)
            os.mkdir(d)
            subprocess.run([gen_waits, d, "path", str(n)], check=True, stdout=subprocess.DEVNULL, timeout=TIMEOUT)
            peaks.append(share0_peak_kib(mpiexec, mpi, peak_rss, d))
        runs += 1 if peaks else 0
        if peaks and (None in peaks or peaks[1] > peaks[0] + 5 * 1024):
            failures.append("share 0's peak RSS grows with the waits: path 20 k %s KiB, 200 k %s KiB" % tuple(peaks))
        fixtures = sorted(os.path.join(data, "dumpi", d) for d in os.listdir(os.path.join(data, "dumpi")))
        cases = []  # (trace, stats options, process counts)
        for d in fixtures + [synth, bench] + shapes:
            cases.append((d, ["--json"], (1, 2, 3, 4)))
        for d in (synth, bench, os.path.join(data, "dumpi", "threads4")):
            cases.append((d, [], (3,)))
            cases.append((d, ["--csv"], (3,)))
        cases.append((bench, ["--json", "-j", "2"], (2,)))
        cases.append((bench, ["--json", "--start", "0.001"], (3,)))
        for d, opts, procs in cases:
            want = run([serial, "stats", d, "-q"] + opts)
            for n in procs:
                argv = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(n), mpi, "stats", d, "-q"]
                got = run(argv + (opts if "-j" in opts else opts + ["-j", "1"]))
                runs += 1
                if got != want:
                    failures.append("%s %s -np %d: exit %s vs %s, stdout %s, stderr %s" % (
                        os.path.basename(d), " ".join(opts), n, want[0], got[0],
                        "same" if want[1] == got[1] else "differs", "same" if want[2] == got[2] else "differs"))
    for f in failures:
        print("FAIL", f)
    print("%d runs, %d failures" % (runs, len(failures)))
    sys.exit(1 if failures else 0)


main()
