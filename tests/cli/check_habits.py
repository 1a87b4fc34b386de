#!/usr/bin/env python3
"""The command line as people use it (issue 16, CLI habits):
  - -j4 is -j 4;
  - an option of another format warns instead of being ignored silently;
  - 'perfweave help FORMAT' lists that format's options, and a command's
    --help no longer lists every format's;
  - 'info' on a folder of datasets lists them;
  - stats shows --top rows per table and counts the rest; --table keeps one;
  - HPCToolkit's views follow a metric with a non-zero total (time metrics
    first) unless --metric names one;
  - info's record_types counts the types present (8 functions in pingpong4,
    as its stats list), not the 293 the schema table describes.

usage: check_habits.py PERFWEAVE SHARED_DATA"""
import json
import os
import subprocess
import sys

FAILED = []


def run(pw, *args):
    p = subprocess.run([pw] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expect(what, ok):
    print("%s %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        FAILED.append(what)


def main():
    pw, data = sys.argv[1:3]
    dumpi = os.path.join(data, "dumpi", "pingpong4")
    ovni = os.path.join(data, "ovni", "mix-1.14.0")
    expect("-j2 equals -j 2", run(pw, "dump", dumpi, "-q", "-j2") == run(pw, "dump", dumpi, "-q", "-j", "2"))
    code, _, err = run(pw, "stats", dumpi, "-q", "--plot", "/nonexistent")
    expect("--plot on DUMPI warns", code == 0 and "gpupower option 'plot' ignored" in err)
    code, out, _ = run(pw, "help", "gpupower")
    expect("help gpupower lists --plot", code == 0 and "--plot DIR" in out)
    code, out, _ = run(pw, "stats", "--help")
    expect("stats --help lists its own options only", code == 0 and "--plot" not in out and "--top N" in out)
    code, out, _ = run(pw, "help", "nosuchthing")
    expect("help of an unknown topic is a usage error", code == 2)
    code, out, _ = run(pw, "info", os.path.join(data, "dumpi"))
    names = sorted(n for n in os.listdir(os.path.join(data, "dumpi")) if not n.startswith("."))
    expect("info on a folder lists its datasets",
           code == 0 and "datasets (%d)" % len(names) in out and all(n in out for n in names))
    code, out, _ = run(pw, "stats", ovni, "-q", "--top", "3")
    expect("--top 3 shows 3 rows and counts the rest", code == 0 and "\u2026 29 more" in out)
    code, out, _ = run(pw, "stats", ovni, "-q", "--table", "per_loom")
    expect("--table shows one table", code == 0 and out.strip().startswith("per_loom (2)")
           and "per_process" not in out)
    cuda = os.path.join(data, "hpctoolkit", "hpctoolkit", "tests-data-dbase@f9abaf11f",
                        "loops-cuda-nvidia-t.d")
    code, out, _ = run(pw, "stats", cuda, "-q", "--json")
    doc = json.loads(out).get("database", {}) if code in (0, 1) else {}
    expect("HPCToolkit's default metric has a non-zero total, time first",
           doc.get("total", 0) != 0 and "(sec)" in doc.get("metric", ""))
    code, out, _ = run(pw, "stats", cuda, "-q", "--json", "--metric", "GKER:COUNT")
    doc = json.loads(out).get("database", {}) if code in (0, 1) else {}
    expect("--metric NAME picks the metric", doc.get("metric") == "GKER:COUNT")
    code, out, _ = run(pw, "info", dumpi)
    expect("record_types counts the types present",
           code == 0 and any(l.split()[:2] == ["record_types", "8"] for l in out.splitlines()))
    sys.exit(1 if FAILED else 0)


main()
