#!/usr/bin/env python3
"""The perfweave program as a user meets it, on ovni data: help texts, exit
codes (0 ok, 1 damaged, 2 usage, 3 I/O), messages that name file and
offset, output options, and partial output on damage.

usage: cli.py PERFWEAVE SHARED_DATA_DIR EXAMPLES_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

PW, SHARED, EXAMPLES = sys.argv[1], sys.argv[2], sys.argv[3]
RESULTS = []


def run(*args):
    p = subprocess.run([PW] + list(args), capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def case(fn):
    try:
        fn()
        RESULTS.append((fn.__name__, None))
    except AssertionError as e:
        RESULTS.append((fn.__name__, str(e) or "assertion failed"))
        print("FAIL %s: %s" % (fn.__name__, e), file=sys.stderr)
    return fn


EXAMPLE = os.path.join(EXAMPLES, "ovni", "mpi-func")
MIX = os.path.join(SHARED, "ovni", "mix-1.14.0")


@case
def help_texts():
    rc, out, err = run()
    assert rc == 2 and "usage: perfweave COMMAND" in err, (rc, err)
    rc, out, _ = run("--help")
    assert rc == 0
    for word in ("info", "dump", "stats", "check", "ovni", "exit codes"):
        assert word in out, word
    for cmd in ("info", "dump", "stats", "check"):
        rc, out, _ = run(cmd, "--help")
        assert rc == 0 and ("usage: perfweave %s PATH" % cmd) in out, (cmd, rc)


@case
def usage_errors():
    rc, _, err = run("info")
    assert rc == 2 and "no PATH" in err, (rc, err)
    rc, _, err = run("info", EXAMPLE, "--bogus")
    assert rc == 2 and "--bogus" in err, (rc, err)
    rc, _, err = run("frobnicate", EXAMPLE)
    assert rc == 2 and "frobnicate" in err
    rc, _, err = run("info", EXAMPLE, "--format", "nosuch")
    assert rc == 2 and "nosuch" in err
    rc, _, err = run("stats", EXAMPLE, "--json", "--csv")
    assert rc == 2
    rc, _, err = run("info", EXAMPLE, "--set", "ovni.nosuch=1")
    assert rc == 2 and "nosuch" in err, err


@case
def io_errors():
    rc, _, err = run("info", "/no/such/trace")
    assert rc == 3 and "/no/such/trace" in err, (rc, err)
    with tempfile.TemporaryDirectory() as d:
        rc, _, err = run("info", d)
        assert rc == 2 and "no known format" in err, (rc, err)
        rc, _, err = run("stats", EXAMPLE, "-o", os.path.join(d, "missing", "x.txt"))
        assert rc == 3 and "cannot create" in err, (rc, err)


@case
def info_text_and_json():
    rc, out, _ = run("info", EXAMPLE)
    assert rc == 0 and "ovni" in out and "v3 (libovni 1.14.0)" in out, out
    rc, out, _ = run("info", EXAMPLE, "--json")
    info = json.loads(out)
    assert info["format"] == "ovni" and info["records"] == 2456, info
    assert info["locations"] == {"node": 4, "process": 4, "thread": 4}, info["locations"]
    assert "location_list" not in info
    rc, out, _ = run("info", EXAMPLE, "--json", "--locations")
    paths = [l["path"] for l in json.loads(out)["location_list"]]
    assert "loom.vm.0/proc.30458/thread.30458" in paths, paths


@case
def stats_styles_and_output_file():
    rc, out, _ = run("stats", MIX, "--csv")
    assert rc == 0 and "# per_stream\nstream,events," in out, out[:300]
    with tempfile.TemporaryDirectory() as d:
        target = os.path.join(d, "s.json")
        rc, out, _ = run("stats", MIX, "--json", "-o", target)
        assert rc == 0 and out == ""
        with open(target) as f:
            assert json.load(f)["trace"]["events"] == 24120


@case
def dump_text_line_shape():
    rc, out, _ = run("dump", EXAMPLE)
    first = out.splitlines()[0].split()
    assert rc == 0 and first[1].startswith("loom.vm.") and first[2] == "OHx", first
    assert len(out.splitlines()) == 2456


@case
def damage_exit_one_with_offset():
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t")
        shutil.copytree(EXAMPLE, trace)
        for root, _, files in os.walk(trace):
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)
        stream = os.path.join(trace, "loom.vm.0", "proc.30458", "thread.30458", "stream.obs")
        size = os.path.getsize(stream)
        with open(stream, "r+b") as f:
            f.truncate(size - 3)
        rc, out, err = run("check", trace)
        assert rc == 1 and "offset" in err and "stream.obs" in err and "(damaged)" in out, (rc, err)
        # dump writes every event before the damage, then exits 1
        rc, out, err = run("dump", trace, "--jsonl")
        assert rc == 1 and len(out.splitlines()) == 2455, (rc, len(out.splitlines()))
        with open(stream, "r+b") as f:
            f.write(b"ovnX")
        rc, out, err = run("check", stream)
        assert rc == 1 and "offset 0" in err and "magic" in err, (rc, err)


rc_total = 0
for name, problem in RESULTS:
    print("%s %s" % ("ok" if problem is None else "FAIL", name))
failed = sum(1 for _, p in RESULTS if p)
print("%d passed, %d failed" % (len(RESULTS) - failed, failed))
sys.exit(1 if failed else 0)
