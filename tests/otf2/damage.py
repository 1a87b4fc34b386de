#!/usr/bin/env python3
"""Damaged copies of the archives: a truncated or byte-flipped event file,
global definitions or anchor, a missing event file.  `info`, `dump` and
`check` must end with exit 1 (never a signal, never 0 for damage that
stops reading) and a message naming the damaged file; libotf2 must not
print on its own.  Usage: damage.py PERFWEAVE SHARED_DATA"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

ARCHIVES = ("pipit-ping-pong-otf2", "casita-2_cuda_simple")


def copy(shared, name, tmp):
    dst = os.path.join(tmp, name)
    shutil.copytree(os.path.join(shared, "otf2", name), dst)
    for root, _, files in os.walk(dst):
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    return dst


def run(cli, cmd, archive):
    return subprocess.run([cli, cmd, archive], capture_output=True, text=True, timeout=60)


def damages(archive):
    """(label, file damaged, how) with a seeded random for the flips."""
    evt = os.path.join(archive, "traces", "0.evt")
    rng = random.Random(30)
    yield "truncated events", evt, lambda d: d[: len(d) // 3]
    yield "truncated definitions", os.path.join(archive, "traces.def"), lambda d: d[: len(d) // 2]
    yield "garbage anchor", os.path.join(archive, "traces.otf2"), lambda d: b"\x03BOTF2" + bytes(40)
    for k in range(6):
        def flip(d, k=k):
            b = bytearray(d)
            for _ in range(8):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            return bytes(b)
        yield f"flipped events {k}", evt, flip
    yield "missing events", evt, None


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in ARCHIVES:
            for label, path, how in damages(os.path.join(tmp, "probe", name)):
                work = tempfile.mkdtemp(dir=tmp)
                archive = copy(shared, name, work)
                target = path.replace(os.path.join(tmp, "probe", name), archive)
                if how is None:
                    os.remove(target)
                else:
                    with open(target, "rb") as f:
                        data = f.read()
                    with open(target, "wb") as f:
                        f.write(how(data))
                for cmd in ("info", "dump", "check"):
                    total += 1
                    r = run(cli, cmd, archive)
                    problem = None
                    if r.returncode < 0 or r.returncode > 1:
                        problem = f"exit {r.returncode}"
                    elif label.startswith(("truncated", "garbage", "missing")) and cmd != "info" and r.returncode != 1:
                        problem = "exit 0 on damage that stops reading"
                    elif r.returncode == 1 and os.path.basename(target) not in r.stderr:
                        problem = f"message does not name {os.path.basename(target)}: {r.stderr[:300]}"
                    elif any(l and not l.startswith("perfweave") and ": " not in l[:200]
                             for l in r.stderr.splitlines()):
                        problem = f"a line perfweave did not write: {r.stderr[:300]}"
                    if problem:
                        failed += 1
                        print(f"FAIL {name} {label} {cmd}: {problem}")
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
