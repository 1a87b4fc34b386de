#!/usr/bin/env python3
"""golden.py - every output of every command, byte for byte, against a manifest.

Runs each fixture of the shared data (all formats) and a generated gpupower
tree through `info --json`, `dump`, `dump --jsonl`, `stats` (text, --json,
--csv) and `convert --to` every target, and compares the sha256 of each
output, of its standard error and its exit code with tests/golden/manifest.tsv.
The manifest was recorded before the sink/analysis refactoring (issue 11) so
that a refactoring that changes a byte fails here.  A branch that changes an
output on purpose regenerates the manifest with --update.

Every ovni dataset also gives the emulator's states outputs: `convert --to
paraver -o DIR` (a row per file of DIR: thread and cpu .prv, .pcf, .row),
`convert -o X.states.json`, `convert -o X.states.pftrace` and `dump --jsonl
--states`, so that a change to the emulation or to a states writer that
moves a byte fails here too.

Binary outputs are hashed through their reference readers so that the hash
does not depend on bytes the readers ignore: OTF2 archives through
`otf2-print`, SQLite databases through `sqlite3 .dump`; directories hash
each file, sorted by relative name.

usage: golden.py PERFWEAVE SHARED_DATA GEN_GPUPOWER MANIFEST [--update]
"""
import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

TARGETS = [("perfetto", ".pftrace"), ("chrome", ".json"), ("otf2", ".otf2"),
           ("paraver", ".prv"), ("csv", ".csv.d"), ("sqlite", ".sqlite")]
REPORTS = [("info.json", ["info", "--json"]), ("check.txt", ["check"]), ("dump.txt", ["dump"]),
           ("dump.jsonl", ["dump", "--jsonl"]), ("stats.txt", ["stats"]),
           ("stats.json", ["stats", "--json"]), ("stats.csv", ["stats", "--csv"])]


def datasets(data):
    """Every dataset of the shared fixtures, as paths relative to DATA."""
    found = []
    for fmt in ["dumpi", "ross"]:
        for name in sorted(os.listdir(os.path.join(data, fmt))):
            if os.path.isdir(os.path.join(data, fmt, name)):
                found.append(os.path.join(fmt, name))
    ovni = os.path.join(data, "ovni")
    for name in sorted(os.listdir(ovni)):
        if os.path.isdir(os.path.join(ovni, name, "ovni")):
            found.append(os.path.join("ovni", name, "ovni"))
    ctest = os.path.join(ovni, "ctest-1.14.0")
    for name in sorted(os.listdir(ctest)):
        found.append(os.path.join("ovni", "ctest-1.14.0", name, "ovni"))
    for rel in ["hpctoolkit/hatchet/hpctoolkit-cpi-database@79c009b",
                "hpctoolkit/hpctoolkit/small_v4.0@5c1005fbe",
                "hpctoolkit/pipit/ping-pong-hpctoolkit@05d9563-v4",
                "hpctoolkit/pipit/ping-pong-hpctoolkit@7283ee4-prototype"]:
        found.append(rel)
    dbase = os.path.join(data, "hpctoolkit/hpctoolkit/tests-data-dbase@f9abaf11f")
    for name in sorted(os.listdir(dbase)):
        if name.endswith(".d"):
            found.append(os.path.join(os.path.relpath(dbase, data), name))
    return found


def sha(data):
    return hashlib.sha256(data).hexdigest()


def hash_file(path):
    if path.endswith(".sqlite"):
        out = subprocess.run(["sqlite3", path, ".dump"], capture_output=True, check=True)
        return sha(out.stdout)
    with open(path, "rb") as f:
        return sha(f.read())


def hash_output(path):
    """One hash for a file, a directory or an OTF2 archive."""
    if not os.path.lexists(path):
        return "absent"
    if path.endswith(".otf2"):
        out = subprocess.run(["otf2-print", os.path.join(path, "traces.otf2")],
                             capture_output=True)
        return sha(out.stdout + b"rc=%d" % out.returncode)
    if os.path.isdir(path):
        parts = []
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(root, name)
                parts.append("%s %s" % (os.path.relpath(full, path), hash_file(full)))
        return sha("\n".join(sorted(parts)).encode())
    return hash_file(path)


def run(pw, cwd, args, out_dir):
    """Exit code, output and errors, with the run's own directories named
    by placeholders (gpupower prints absolute paths)."""
    p = subprocess.run([pw] + args, cwd=cwd, capture_output=True)

    def neutral(b):
        return b.replace(out_dir.encode(), b"<OUT>").replace(cwd.encode(), b"<DATA>")
    return p.returncode, neutral(p.stdout), neutral(p.stderr)


def one_dataset(pw, cwd, rel, extra, out_root):
    """Rows (key, value) of every output of one dataset."""
    rows = []
    out_dir = os.path.join(out_root, rel.replace("/", "_"))
    os.makedirs(out_dir)
    common = [rel, "-q", "-j", "2"] + extra
    for name, cmd in REPORTS:
        rc, out, err = run(pw, cwd, [cmd[0]] + common + cmd[1:], out_dir)
        rows.append(("%s %s" % (rel, name), "%d %s %s" % (rc, sha(out), sha(err))))
    for target, ext in TARGETS:
        dest = os.path.join(out_dir, "out" + ext)
        rc, out, err = run(pw, cwd, ["convert"] + common + ["--to", target, "-o", dest], out_dir)
        files = sorted(f for f in os.listdir(out_dir) if f.startswith("out"))
        digest = sha(" ".join("%s=%s" % (f, hash_output(os.path.join(out_dir, f)))
                              for f in files).encode())
        rows.append(("%s convert.%s" % (rel, target), "%d %s %s" % (rc, digest, sha(err))))
        for f in files:
            p = os.path.join(out_dir, f)
            shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
    if rel.startswith("ovni/"):
        rows += states_rows(pw, cwd, rel, out_dir)
    return rows


STATES_FILES = ["%s.%s" % (view, ext) for view in ("thread", "cpu") for ext in ("prv", "pcf", "row")]
STATES_OUTPUTS = [("states.json", "x.states.json"), ("states.pftrace", "x.states.pftrace")]


def states_rows(pw, cwd, rel, out_dir):
    """The emulator's states outputs of an ovni dataset."""
    rows = []
    common = [rel, "-q", "-j", "2"]
    pv = os.path.join(out_dir, "states-pv")
    rc, _, err = run(pw, cwd, ["convert"] + common + ["--to", "paraver", "-o", pv], out_dir)
    for name in STATES_FILES:
        rows.append(("%s states.paraver/%s" % (rel, name),
                     "%d %s %s" % (rc, hash_output(os.path.join(pv, name)), sha(err))))
    for key, name in STATES_OUTPUTS:
        dest = os.path.join(out_dir, name)
        rc, _, err = run(pw, cwd, ["convert"] + common + ["-o", dest], out_dir)
        rows.append(("%s %s" % (rel, key), "%d %s %s" % (rc, hash_output(dest), sha(err))))
    rc, out, err = run(pw, cwd, ["dump"] + common + ["--jsonl", "--states"], out_dir)
    rows.append(("%s dump.states.jsonl" % rel, "%d %s %s" % (rc, sha(out), sha(err))))
    shutil.rmtree(pv, ignore_errors=True)
    for _, name in STATES_OUTPUTS:
        if os.path.lexists(os.path.join(out_dir, name)):
            os.unlink(os.path.join(out_dir, name))
    return rows


def gpupower_rows(pw, gen, work):
    """A generated gpupower tree (fixed seed), with its SVG charts."""
    subprocess.run([sys.executable, gen, os.path.join(work, "gp"), "--seed", "7"],
                   check=True, capture_output=True)
    cwd = os.path.join(work, "gp")
    rows = one_dataset(pw, cwd, "tree", ["--tz", "+01:00"], os.path.join(work, "gp-out"))
    plot = os.path.join(work, "gp-plot")
    rc, out, err = run(pw, cwd, ["stats", "tree", "-q", "--tz", "+01:00", "--plot", plot], plot)
    rows.append(("tree stats.plot", "%d %s %s %s" % (rc, sha(out), sha(err),
                                                             hash_output(plot))))
    return [(k.replace("tree ", "gpupower-tree ", 1), v) for k, v in rows]


def main():
    pw, data, gen, manifest = sys.argv[1:5]
    update = "--update" in sys.argv[5:]
    pw = os.path.abspath(pw)
    data = os.path.realpath(data)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            jobs = [pool.submit(one_dataset, pw, data, rel, [], os.path.join(work, "out"))
                    for rel in datasets(data)]
            jobs.append(pool.submit(gpupower_rows, pw, gen, work))
            for j in jobs:
                rows.extend(j.result())
    rows.sort()
    text = "".join("%s\t%s\n" % r for r in rows)
    if update:
        with open(manifest, "w") as f:
            f.write(text)
        print("golden: wrote %d rows to %s" % (len(rows), manifest))
        return 0
    with open(manifest) as f:
        want = dict(line.rstrip("\n").split("\t") for line in f if line.strip())
    got = dict(rows)
    bad = [k for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
    for k in bad:
        print("golden: differs: %s\n  want %s\n  got  %s" % (k, want.get(k), got.get(k)))
    print("golden: %d of %d outputs identical" % (len(rows) - len(bad), len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
