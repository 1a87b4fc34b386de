#!/usr/bin/env python3
"""Inputs that are not what they should be (issue #13, items 6, 7, 10, 12):
in every format, a data file replaced by a FIFO, by a character device or
made unreadable is refused by name with exit 3 (a system fault, the same
code in every format), never skipped and never waited for; a FIFO given
as the dataset does not hang; and check reports what any command reads:
a broken system_info.json of a gpupower _baseline run, a released
meta.db cut by 2 bytes (its footer), a DUMPI rank file whose magic is
zeroed when it is given beside its .meta.

Permission denied is tested as the unprivileged user "nobody" (setpriv)
when the test runs as root, since root reads any file.

usage: system_faults.py PERFWEAVE SHARED_DATA GEN_GPUPOWER_TREE"""
import os
import shutil
import subprocess
import sys
import tempfile

from inputs_common import gpupower_tree, report

TIMEOUT = 60  # a FIFO that blocks the open would hang: fail instead


def first_file(root, name_test):
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if name_test(f):
                return os.path.join(top, f)
    raise SystemExit("FAIL: no victim file under %s" % root)


def datasets(data, tmp):
    """(name, source, [victims relative to the copy], extra args)."""
    gp_tree = gpupower_tree(sys.argv[3], os.path.join(tmp, "gen-gp"))
    v3 = os.path.join(data, "ovni", "ctest-1.14.0", "emu-mpi-func")
    v3_stream = os.path.relpath(first_file(v3, lambda f: f == "stream.obs"), v3)
    return [
        ("dumpi", os.path.join(data, "dumpi", "pingpong4"),
         ["pingpong-2026.11.21.22.45.31-0001.bin", "pingpong-2026.11.21.22.45.31.meta"], []),
        ("ross", os.path.join(data, "ross", "known-np4-gvt-model-evtrace"),
         ["known-np4-gvt-model-evtrace-evtrace.bin", "known-np4-gvt-model-evtrace-gvt.bin"], []),
        ("ovni-v1", os.path.join(data, "ovni", "emu-1.4.1"),
         ["ovni/loom.nodeA/proc.6256/thread.6256.obs", "ovni/loom.nodeA/proc.6256/metadata.json"], []),
        ("ovni-v3", v3, [v3_stream], []),
        ("hpctoolkit", os.path.join(data, "hpctoolkit", "pipit", "ping-pong-hpctoolkit@05d9563-v4"),
         ["profile.db", "trace.db", "cct.db"], []),
        ("gpupower", gp_tree,
         ["clock-limit/resnet/877MHz,1065MHz/0/gpu-power.csv",
          "clock-limit/_baseline/0/system_info.json"], ["--tz", "+01:00"]),
    ]


def unprivileged():
    """The command prefix that drops root, so that permissions apply."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=TIMEOUT)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def fresh_copy(src, tmp, name):
    dst = os.path.join(tmp, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    for top, dirs, files in os.walk(dst):  # readable by "nobody" too
        for d in dirs:
            os.chmod(os.path.join(top, d), 0o755)
        for f in files:
            os.chmod(os.path.join(top, f), 0o644)
    return dst


def expect(failures, label, got, want_rc, words):
    rc, err = got
    if rc != want_rc or any(w not in err for w in words):
        failures.append("%s: exit %s (want %d), stderr lacks %s: %s"
                        % (label, rc, want_rc, words, err.strip()[:300]))


def replaced_files(pw, tmp, failures):
    for name, src, victims, extra in datasets(sys.argv[2], tmp):
        for rel in victims:
            for kind in ("FIFO", "character device", "Permission denied"):
                ds = fresh_copy(src, tmp, name)
                victim = os.path.join(ds, rel)
                os.unlink(victim)
                prefix = []
                if kind == "FIFO":
                    os.mkfifo(victim)
                elif kind == "character device":
                    os.symlink("/dev/zero", victim)
                else:
                    shutil.copy(os.path.join(src, rel), victim)
                    os.chmod(victim, 0)
                    prefix = unprivileged()
                cmds = ("check", "dump", "stats") if kind == "Permission denied" else ("check",)
                for cmd in cmds:
                    got = run(prefix + [pw, cmd, ds, "-q"] + extra)
                    expect(failures, "%s %s as %s: %s" % (name, rel, kind, cmd), got, 3,
                           [os.path.basename(rel), kind])


def fifo_as_dataset(pw, tmp, failures):
    fifo = os.path.join(tmp, "trace.fifo")
    os.mkfifo(fifo)
    rc, err = run([pw, "check", fifo])
    if rc == "timeout" or rc == 0:
        failures.append("a FIFO given as the dataset: exit %s" % rc)


def check_sees(pw, tmp, failures):
    data = sys.argv[2]
    # gpupower: a broken system_info.json of a _baseline run, seen by every command.
    gp = fresh_copy(os.path.join(tmp, "gen-gp", "tree"), tmp, "gp-sysinfo")
    si = os.path.join(gp, "clock-limit", "_baseline", "0", "system_info.json")
    with open(si, "w") as f:
        f.write('{"device_name": ')
    for cmd in ("check", "info", "dump", "stats"):
        expect(failures, "gpupower broken _baseline system_info.json: " + cmd,
               run([pw, cmd, gp, "-q", "--tz", "+01:00"]), 1, ["system_info.json"])
    # hpctoolkit: a released meta.db cut by 2 bytes.
    for db in ("hpctoolkit/small_v4.0@5c1005fbe", "pipit/ping-pong-hpctoolkit@05d9563-v4"):
        h = fresh_copy(os.path.join(data, "hpctoolkit", db), tmp, "hpc-cut")
        for f in ("meta.db", "profile.db", "cct.db", "trace.db"):
            path = os.path.join(h, f)
            shutil.copy(os.path.join(data, "hpctoolkit", db, f), path)
            os.truncate(path, os.path.getsize(path) - 2)
            expect(failures, "%s %s cut by 2 bytes: check" % (db, f),
                   run([pw, "check", h]), 1, [f])
            shutil.copy(os.path.join(data, "hpctoolkit", db, f), path)
    # DUMPI: 51 bytes zeroed at offset 2 of a rank file given beside its .meta.
    d = fresh_copy(os.path.join(data, "dumpi", "pingpong4"), tmp, "dumpi-zero")
    rank = os.path.join(d, "pingpong-2026.11.21.22.45.31-0001.bin")
    with open(rank, "r+b") as f:
        f.seek(2)
        f.write(bytes(51))
    expect(failures, "DUMPI rank file zeroed at 2..52: check", run([pw, "check", rank]), 1,
           ["dumpi."])


def main():
    pw = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        replaced_files(pw, tmp, failures)
        fifo_as_dataset(pw, tmp, failures)
        check_sees(pw, tmp, failures)
    return report(failures, "%d failures" % len(failures))


if __name__ == "__main__":
    sys.exit(main())
