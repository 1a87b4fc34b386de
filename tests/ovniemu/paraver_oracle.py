#!/usr/bin/env python3
"""ovni emulation against ovniemu 1.14.0's own output.

For every ctest fixture with ovniemu-out/thread.prv, `perfweave convert
--to paraver` must give thread.prv and cpu.prv with, per row and per event
type, the same sequence of (time, value), and .pcf labels that agree for
every type and value present in ovniemu's files; the .row files must be
equal.  (Line order within one time is ovniemu's propagation order and is
not compared.)  File formats: bsc-pm/ovni src/emu/pv/prv.c, pcf.c, prf.c.

Where ovniemu refuses a trace (it wrote no thread.prv), `check` must name
the same cause.

usage: paraver_oracle.py PERFWEAVE SHARED_DATA
"""
import collections
import os
import subprocess
import sys
import tempfile

# ovniemu's refusal (ovniemu.stderr) and the words check must print.
REFUSALS = {
    "emu-ovni-empty-stream": "missing ovni.finished",
    "emu-ovni-thread-crash": "missing ovni.finished",
}


def read_prv(path):
    rows = collections.defaultdict(list)
    with open(path) as f:
        header = f.readline()
        for line in f:
            p = line.rstrip("\n").split(":")
            if p[0] != "2":
                continue
            t = int(p[5])
            for k in range(6, len(p), 2):
                rows[(int(p[4]), int(p[k]))].append((t, int(p[k + 1])))
    return header, rows


def read_pcf(path):
    types, cur = {}, None
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "EVENT_TYPE":
            _, tid, label = lines[i + 1].split(None, 2) + [""] * (3 - len(lines[i + 1].split(None, 2)))
            cur = types.setdefault(int(tid), {"label": lines[i + 1][13:], "values": {}})
            i += 3
            while i < len(lines) and lines[i].strip():
                v, _, lab = lines[i].partition(" ")
                cur["values"][int(v)] = lab.strip()
                i += 1
        i += 1
    return types


def compare(name, ours, ref, fails):
    for view in ("thread", "cpu"):
        h1, r1 = read_prv(os.path.join(ours, view + ".prv"))
        h2, r2 = read_prv(os.path.join(ref, view + ".prv"))
        if h1 != h2:
            fails.append(f"{name}/{view}.prv: header {h1.strip()!r} != {h2.strip()!r}")
        for key in sorted(set(r1) | set(r2)):
            if r1.get(key) != r2.get(key):
                fails.append(f"{name}/{view}.prv row {key[0]} type {key[1]}: "
                             f"{(r1.get(key) or [])[:4]}... != {(r2.get(key) or [])[:4]}...")
        p1 = read_pcf(os.path.join(ours, view + ".pcf"))
        p2 = read_pcf(os.path.join(ref, view + ".pcf"))
        for t, d in p2.items():
            if t not in p1:
                fails.append(f"{name}/{view}.pcf: type {t} missing")
                continue
            if p1[t]["label"].strip() != d["label"].strip():
                fails.append(f"{name}/{view}.pcf type {t}: {p1[t]['label']!r} != {d['label']!r}")
            for v, lab in d["values"].items():
                if p1[t]["values"].get(v) != lab:
                    fails.append(f"{name}/{view}.pcf type {t} value {v}: "
                                 f"{p1[t]['values'].get(v)!r} != {lab!r}")
        with open(os.path.join(ours, view + ".row")) as a, open(os.path.join(ref, view + ".row")) as b:
            if a.read() != b.read():
                fails.append(f"{name}/{view}.row differs")


def each_emulated_fixture(needs, check_fixture):
    """The main of a test that checks every ctest fixture whose ovniemu-out
    holds `needs` (argv: PERFWEAVE SHARED_DATA): check_fixture(exe, name,
    fixture, ovniemu_out, fails) appends what differs.  Returns the exit
    code: 1 on a failure or when no fixture was checked."""
    exe, data = sys.argv[1], sys.argv[2]
    root = os.path.join(data, "ovni", "ctest-1.14.0")
    fails, checked = [], []
    for name in sorted(os.listdir(root)):
        ref = os.path.join(root, name, "ovniemu-out")
        if not os.path.exists(os.path.join(ref, needs)):
            continue
        check_fixture(exe, name, os.path.join(root, name), ref, fails)
        checked.append(name)
    print("checked:", ", ".join(checked))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails or not checked else 0


def main():
    exe, data = sys.argv[1], sys.argv[2]
    root = os.path.join(data, "ovni", "ctest-1.14.0")
    fails, matched = [], []
    for name in sorted(os.listdir(root)):
        ref = os.path.join(root, name, "ovniemu-out")
        if not os.path.isdir(ref):
            continue
        if not os.path.exists(os.path.join(ref, "thread.prv")):
            out = subprocess.run([exe, "check", os.path.join(root, name)],
                                 capture_output=True, text=True)
            want = REFUSALS.get(name)
            if not want or want not in out.stderr or "ovniemu.cannot-emulate" not in out.stderr:
                fails.append(f"{name}: check does not report {want!r}: {out.stderr[-300:]}")
            else:
                matched.append(name + " (refused)")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "pv")
            r = subprocess.run([exe, "convert", os.path.join(root, name), "--to", "paraver",
                                "-o", out], capture_output=True, text=True)
            if r.returncode != 0:
                fails.append(f"{name}: convert exit {r.returncode}: {r.stderr[-300:]}")
                continue
            n = len(fails)
            compare(name, out, ref, fails)
            if len(fails) == n:
                matched.append(name)
    print("matched:", ", ".join(matched))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
