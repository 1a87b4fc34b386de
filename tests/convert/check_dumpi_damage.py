"""check_dumpi_damage.py CLI DATA OUT — damaged DUMPI input through the
converters that read MPI arguments (OTF2: collectives, message lengths,
communicator replay; Paraver: communications).  A rank file of
collectives4 is cut at many offsets and has bytes flipped; every convert
must end with exit 0 or 1 (never a crash), a damaged one (exit 1) naming
a byte offset, and what it wrote must pass otf2-print / the Paraver
checks."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import target_checks  # noqa: E402

CLI, DATA, OUT = sys.argv[1:4]
SRC = os.path.join(DATA, "dumpi", "collectives4")
failures = []


def damaged_copies():
    victim = sorted(f for f in os.listdir(SRC) if f.endswith("-0001.bin"))[0]
    data = open(os.path.join(SRC, victim), "rb").read()
    variants = [("cut-%d" % k, data[:len(data) * k // 16]) for k in range(1, 16)]
    for k in range(1, 12):
        at = len(data) * k // 12 - 7
        variants.append(("flip-%d" % at, data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1:]))
    for label, content in variants:
        d = os.path.join(OUT, label)
        shutil.copytree(SRC, d, ignore=shutil.ignore_patterns("*.txt", "*.log"))
        with open(os.path.join(d, victim), "wb") as f:
            f.write(content)
        yield label, d


def check(label, d):
    for target in ("otf2", "prv"):
        out = d + "." + target
        r = subprocess.run([CLI, "convert", "--force", "--allow-loss", d, "-o", out, "-q"], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            failures.append("%s %s: exit %d %s" % (label, target, r.returncode, r.stderr[-300:]))
            continue
        if r.returncode == 1 and not re.search(r"offset|byte", r.stderr):
            failures.append("%s %s: no offset in %r" % (label, target, r.stderr[:200]))
        if target == "otf2" and os.path.exists(os.path.join(out, "traces.otf2")):
            problem = target_checks.otf2_events(out)[0]
        elif target == "prv" and os.path.exists(out):
            problem = target_checks.paraver_check(out)[0]
        else:
            problem = None if r.returncode == 1 else "no output"
        if problem:
            failures.append("%s %s: %s" % (label, target, problem))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    n = 0
    for label, d in damaged_copies():
        check(label, d)
        n += 1
    for f in failures:
        print("FAIL", f)
    print("%d damaged copies, %d failures" % (n, len(failures)))
    return 1 if failures or n == 0 else 0


sys.exit(main())
