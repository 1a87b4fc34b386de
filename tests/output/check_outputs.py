#!/usr/bin/env python3
"""check_outputs.py - the output discipline (issue 13, items 2, 3, 4, 8 and
the signal rule), through the program as a user runs it.

  2. every command checks its writes to standard output: with stdout on a
     full device (a char device 1,7 made with mknod in a temporary
     directory, never the system's /dev/full) the exit code is 3 and the
     message names the output and the real errno;
  3. a device at the output path is never removed: file targets refuse it,
     streaming targets write to it (and report its errors);
  4. outputs appear only when complete: an existing output is refused
     without --force and replaced whole with it (a stale file in an old
     .csv.d goes); "-" streams to stdout; no temporary is left behind;
  8. `convert -q` still reports records a target could not hold (one line
     on stderr, exit 1 unless --allow-loss);
  signals: SIGINT/SIGTERM during a conversion exit 130/143 and leave
     neither the temporary nor the final output.

usage: check_outputs.py PERFWEAVE SHARED_DATA GEN_DUMPI_BENCH
Exits 77 (skipped) when device nodes cannot be made (not root).
"""
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

PW = DATA = GEN = None
FAILS = []
SMALL = "dumpi/pingpong4"
LOSSY = "hpctoolkit/hpctoolkit/small_v4.0@5c1005fbe"


def run(args, **kw):
    return subprocess.run([PW] + args, capture_output=True, **kw)


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def leftovers(d):
    return [n for n in os.listdir(d) if ".pw-" in n]


def full_device(work):
    """A char device 1,7 (what /dev/full is) in our own directory."""
    dev = os.path.join(work, "full")
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        print("skip: cannot make device nodes (not root)")
        sys.exit(77)
    return dev


def stdout_checked(dev):
    src = os.path.join(DATA, SMALL)
    for args in (["check"], ["info"], ["info", "--json"], ["dump"], ["dump", "--jsonl"],
                 ["stats"], ["stats", "--json"], ["stats", "--csv"], ["--version"]):
        with open(dev, "wb") as f:
            cmd = args if args[0].startswith("--") else [args[0], src, "-q"] + args[1:]
            r = subprocess.run([PW] + cmd, stdout=f, stderr=subprocess.PIPE)
        err = r.stderr.decode()
        expect(r.returncode == 3 and "<stdout>" in err and "No space left on device" in err,
               "item 2: %s > full device: exit 3, names <stdout> and ENOSPC (%d, %r)"
               % (" ".join(args), r.returncode, err.strip()[-90:]))
    for args in (["dump"], ["stats", "--json"]):
        r = run([args[0], src, "-q", "-o", dev] + args[1:])
        expect(r.returncode == 3 and dev.encode() in r.stderr and b"No space left" in r.stderr,
               "item 2: %s -o DEVICE: exit 3 naming the device (%d)" % (args[0], r.returncode))


def devices_kept(work, dev):
    src = os.path.join(DATA, SMALL)
    for target in ("sqlite", "csv", "otf2", "paraver"):
        for force in ([], ["--force"]):
            r = run(["convert", src, "-q", "--to", target, "-o", dev] + force)
            expect(r.returncode == 2 and stat.S_ISCHR(os.stat(dev).st_mode),
                   "item 3: convert --to %s -o DEVICE %s: refused (exit 2), device kept (%d)"
                   % (target, " ".join(force), r.returncode))
    for target in ("perfetto", "chrome"):
        r = run(["convert", src, "-q", "--to", target, "-o", dev])
        expect(r.returncode == 3 and stat.S_ISCHR(os.stat(dev).st_mode) and b"No space left" in r.stderr,
               "item 3: convert --to %s -o DEVICE streams into it: exit 3, device kept (%d)"
               % (target, r.returncode))
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    r = run(["convert", src, "-q", "--to", "perfetto", "-o", fifo])
    reader.join()
    ref = run(["convert", src, "-q", "--to", "perfetto", "-o", "-"])
    expect(r.returncode == 0 and got and got[0] == ref.stdout and stat.S_ISFIFO(os.stat(fifo).st_mode),
           "item 3/4: perfetto into a FIFO = perfetto to stdout (-o -), FIFO kept")
    expect(leftovers(work) == [], "no temporary left in the directory of a device or FIFO")


def replace_rules(work):
    src = os.path.join(DATA, SMALL)
    out = os.path.join(work, "o.csv.d")
    r = run(["convert", src, "-q", "-o", out])
    tables = sorted(os.listdir(out))
    expect(r.returncode == 0 and tables, "item 4: convert to a new .csv.d")
    with open(os.path.join(out, "stale.csv"), "w") as f:
        f.write("old\n")
    r = run(["convert", src, "-q", "-o", out])
    expect(r.returncode == 2 and b"--force" in r.stderr and os.path.exists(os.path.join(out, "stale.csv")),
           "item 4: an existing output is refused without --force, left as it was")
    r = run(["convert", src, "-q", "-o", out, "--force"])
    expect(r.returncode == 0 and sorted(os.listdir(out)) == tables,
           "item 4: --force replaces a directory whole (the stale table goes)")
    txt = os.path.join(work, "d.txt")
    with open(txt, "w") as f:
        f.write("old\n")
    r = run(["dump", src, "-q", "-o", txt])
    expect(r.returncode == 2 and open(txt).read() == "old\n", "item 4: dump -o EXISTING refused")
    r = run(["dump", src, "-q", "-o", txt, "--force"])
    expect(r.returncode == 0 and open(txt).read() == run(["dump", src, "-q"]).stdout.decode(),
           "item 4: dump -o EXISTING --force = dump to stdout")
    r = run(["dump", src, "-q", "-o", work, "--force"])
    expect(r.returncode == 2 and os.path.isdir(work), "item 4: --force never replaces a directory by a file")
    r = run(["convert", src, "-q", "--to", "csv", "-o", txt, "--force"])
    expect(r.returncode == 2 and os.path.isfile(txt), "item 4: --force never replaces a file by a directory")
    for target in ("sqlite", "otf2", "csv"):
        r = run(["convert", src, "-q", "--to", target, "-o", "-"])
        expect(r.returncode == 2 and not r.stdout, "item 4: -o - refused by the file target %s" % target)
    expect(leftovers(work) == [], "no temporary left after successful and refused runs")


def loss_reported(work):
    src = os.path.join(DATA, LOSSY)
    out = os.path.join(work, "loss.pftrace")
    r = run(["convert", src, "-q", "-o", out])
    lines = r.stderr.decode().strip().splitlines()
    expect(r.returncode == 1 and len(lines) == 1 and "records not written" in lines[0],
           "item 8: convert -q with lost records: one line, exit 1 (%d, %r)" % (r.returncode, lines))
    r = run(["convert", src, "-q", "-o", out, "--force", "--allow-loss"])
    expect(r.returncode == 0 and b"records not written" in r.stderr,
           "item 8: --allow-loss: exit 0, the loss still said")


def signals(work):
    bench = os.path.join(work, "bench")
    os.mkdir(bench)
    subprocess.run([GEN, bench, "4", "40000"], check=True, capture_output=True)
    meta = os.path.join(bench, "bench.meta")
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        out = os.path.join(work, "sig.sqlite")
        p = subprocess.Popen([PW, "convert", meta, "-q", "-j", "1", "-o", out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20  # the signal comes once the output is being written
        while not leftovers(work) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        p.send_signal(sig)
        rc = p.wait()
        if rc == 0:  # finished before the signal: the output is whole
            os.unlink(out)
            print("note: the conversion ended before the signal")
            continue
        expect(rc == code and not os.path.exists(out) and leftovers(work) == [],
               "signal %d: exit %d, no output, no temporary (%d)" % (sig, code, rc))


def main():
    global PW, DATA, GEN
    PW, DATA, GEN = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    with tempfile.TemporaryDirectory() as work:
        dev = full_device(work)
        stdout_checked(dev)
        devices_kept(work, dev)
        replace_rules(work)
        loss_reported(work)
        signals(work)
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
