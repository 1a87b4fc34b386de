#!/usr/bin/env python3
"""Robustness mutations of every fixture of every format (issue #13,
acceptance): data files truncated, with bytes flipped and with ranges
zeroed; `check` must end with exit 0 or 1 (never a crash, a sanitizer
report, a hang or a system-fault code), and must be non-zero for every
truncation of a file whose end is checkable: a DUMPI rank file (its index
and header sit at the end), an HPCToolkit .db file of the released or
prototype format (footers; trace.db of the prototype has none).  Formats
whose records may end anywhere (ovni events, ROSS records, CSV lines) have
their record-boundary rules in their own mutation tests
(tests/ovni/test_ovni_mutation.c, tests/ross/test_ross_damage.c,
tests/gpupower/mutate.py); here they must only stay in {0, 1}.

Files and mutations are chosen from sorted listings with a fixed seed, so
the run is the same on every machine.  Run the sanitizer build's CLI to
get the ASan/UBSan guarantee (CI's ASan ctest does).

usage: mutations.py PERFWEAVE SHARED_DATA GEN_GPUPOWER_TREE"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

from inputs_common import fixtures, gpupower_tree, report

TIMEOUT = 120
DATA_SUFFIXES = (".bin", ".meta", ".obs", ".json", ".db", ".xml", ".metric-db", ".csv")


def data_files(root):
    """Sorted data files of a dataset copy (oracle outputs left out)."""
    found = []
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if "expected" in f or f.endswith((".txt", ".zst", ".log")):
                continue
            if f.endswith(DATA_SUFFIXES) or f.startswith("thread."):
                found.append(os.path.join(top, f))
    return found


def end_checked(path):
    """Whether any truncation of this file must make check fail."""
    name = os.path.basename(path)
    if name.endswith(".bin") and os.path.exists(path) and open(path, "rb").read(8) == \
            bytes([0xff, 0xaa, 0xdd, 0x44, 0x55, 0x4d, 0x50, 0x49]):
        return True  # DUMPI rank file
    if name in ("meta.db", "profile.db", "cct.db"):
        return True
    if name == "trace.db":  # released: "trace.db" footer; prototype: none
        with open(path, "rb") as f:
            f.seek(-8, os.SEEK_END)
            return f.read(8) == b"trace.db"
    return False


def mutations(size, rng):
    """(kind, offset, length) tuples for a file of `size` bytes."""
    if size == 0:
        return []
    cuts = sorted({size - 1, size - 2, size // 2, 1} | {rng.randrange(1, size) for _ in range(3)})
    out = [("cut", c, 0) for c in cuts if 0 < c < size]
    out += [("flip", rng.randrange(size), 0) for _ in range(4)]
    out += [("zero", min(2, size - 1), 51), ("zero", rng.randrange(size), 16)]
    return out


def apply(path, original, kind, off, n):
    data = bytearray(original)
    if kind == "cut":
        data = data[:off]
    elif kind == "flip":
        data[off] ^= 0xff
    else:
        data[off:off + n] = bytes(len(data[off:off + n]))
    with open(path, "wb") as f:
        f.write(data)


def check(pw, ds, extra):
    try:
        p = subprocess.run([pw, "check", ds, "-q", "-j", "1"] + extra, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main():
    pw, data, gen_gp = sys.argv[1:4]
    rng = random.Random(13)
    failures, runs = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        sets = fixtures(data) + [("gpupower/generated",
                                  gpupower_tree(gen_gp, os.path.join(tmp, "gen-gp")))]
        for name, src in sets:
            extra = ["--tz", "+01:00"] if name.startswith("gpupower") else []
            ds = os.path.join(tmp, "ds")
            shutil.rmtree(ds, ignore_errors=True)
            shutil.copytree(src, ds)
            files = data_files(ds)
            # The first and the largest data file, and every HPCToolkit .db.
            chosen = sorted({files[0], max(files, key=os.path.getsize)} |
                            {f for f in files if f.endswith(".db")}) if files else []
            for path in chosen:
                original = open(path, "rb").read()
                strict = end_checked(path)
                for kind, off, n in mutations(len(original), rng):
                    apply(path, original, kind, off, n)
                    rc, err = check(pw, ds, extra)
                    runs += 1
                    label = "%s %s %s@%d" % (name, os.path.relpath(path, ds), kind, off)
                    if rc not in (0, 1):
                        failures.append("%s: exit %s: %s" % (label, rc, err.strip()[-400:]))
                    elif kind == "cut" and strict and rc == 0:
                        failures.append("%s: check passed a truncated file" % label)
                with open(path, "wb") as f:
                    f.write(original)
    return report(failures, "%d mutated checks, %d failures" % (runs, len(failures)))


if __name__ == "__main__":
    sys.exit(main())
