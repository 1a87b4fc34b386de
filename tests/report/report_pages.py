#!/usr/bin/env python3
"""report_pages.py - `perfweave report` on every fixture of every format of
the shared data (the datasets golden.py enumerates, and a generated GPU
power tree), and one comparison per format.  For each page:

  - the figures its data allows are there (an element with the figure's id
    holding an inline <svg>), the verdict first;
  - the findings on standard error are those of `stats` (each once);
  - the embedded JSON equals what `stats --json` (`diff --json`) prints
    with the same options, both parsed;
  - no URL: no http:, https: or protocol-relative address in any src/href
    attribute, no url() or @import, no namespace URL outside the JSON;
  - its bytes are the same when made again (every eighth page, with -j 1);
  - one headless Chromium (a single start for the whole file) loads it
    with no console error, no exception and no network request, and its
    screenshot is not blank.

A generated ovni trace of 400 threads (bench/ovni/gen_emu_trace, when
GEN_EMU is given) checks the same, and that its strips are merged into 300.

usage: report_pages.py PERFWEAVE SHARED_DATA GEN_GPUPOWER WORK [GEN_EMU]
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
from golden import datasets  # noqa: E402
from headless import Browser, png_colours  # noqa: E402

EMBED = re.compile(r'<script type="application/json" id="perfweave-stats">(.*?)</script>', re.S)
URL_ATTR = re.compile(r'\b(?:src|href|xlink:href|action|poster|srcset|data)\s*=\s*["\']?\s*(?:[a-z][a-z0-9+.-]*:|//)', re.I)
URL_ANY = re.compile(r'https?:|url\(|@import', re.I)

COMPARISONS = [
    ("dumpi/collectives4", "dumpi/collectives4-papi"),
    ("ovni/emu-1.10.0/ovni", "ovni/mix-1.14.0/ovni"),
    ("hpctoolkit/hpctoolkit/tests-data-dbase@f9abaf11f/small.d",
     "hpctoolkit/hpctoolkit/tests-data-dbase@f9abaf11f/small.nostruct.d"),
    ("ross/phold-np2-gvt-pekp", "ross/phold-np2-rt-pekp"),
    ("GP/tree/clock-limit", "GP/tree/power-limit"),
    ("otf2/pipit-ping-pong-otf2", "otf2/pipit-ping-pong-otf2-papi"),
]


def expected_figures(stats):
    """The figure ids the page must hold, from the tables of its stats."""
    want = ["summary"]
    if isinstance(stats.get("ranks"), list) and "functions" in stats:
        want.append("mpi-time-per-rank")
        for table, fig in [("comm_matrix", "comm-matrix"), ("message_sizes", "message-sizes"),
                           ("time_profile", "time-profile"), ("wait_states", "wait-states"),
                           ("critical_path", "critical-path")]:
            if table in stats:
                want.append(fig)
    states = stats.get("states")
    if isinstance(states, list) and states:
        want.append("state-shares")
        views = {s["view"] for s in states}
        if "thread" in views and stats.get("span_ns"):
            want.append("thread-states")
        if "cpu" in views and stats.get("span_ns"):
            want.append("cpu-states")
    if isinstance(stats.get("top_down"), list):
        want.append("flame-graph")
    if isinstance(stats.get("imbalance"), list):
        want.append("profile-imbalance")
    if stats.get("pe_timeline") and stats.get("pes"):
        want += ["gvt-progress", "rollbacks-per-pe", "efficiency-per-pe"]
    if stats.get("repetitions") and "phases" in stats["repetitions"][0]:
        want.append("power-timeline")
    if stats.get("benchmarks"):
        want += ["energy-per-setting", "pareto-front"]
    return want


def figures_in(page):
    """ids of elements that hold an <svg> (or the verdict section)."""
    found = set(re.findall(r'<figure id="([^"]+)"[^>]*>.*?<svg', page, re.S))
    if re.search(r'<section id="summary">', page):
        found.add("summary")
    return found


def no_url(page):
    """What in the page looks like an address, but the embedded JSON."""
    body = EMBED.sub("", page)
    return URL_ATTR.findall(body) + URL_ANY.findall(body)


def run(pw, cwd, args):
    return subprocess.run([pw] + args + ["-q"], cwd=cwd, capture_output=True)


def make_page(pw, cwd, paths, extra, out, again):
    """The page and the JSON the CLI prints for the same paths; with
    `again`, whether a second page made on one thread has the same bytes."""
    page = run(pw, cwd, ["report"] + paths + extra + ["-o", out, "--force"])
    cli = run(pw, cwd, (["diff", "--json"] if len(paths) == 2 else ["stats", "--json"]) + paths + extra)
    same = True
    if again and os.path.exists(out):
        run(pw, cwd, ["report"] + paths + extra + ["-j", "1", "-o", out + ".again", "--force"])
        with open(out, "rb") as a, open(out + ".again", "rb") as b:
            same = a.read() == b.read()
    return page, cli, same


def check_page(name, page_proc, cli_proc, out, comparison):
    problems = []
    if page_proc.returncode != cli_proc.returncode:
        problems.append("exit %d, the CLI's %d: %s" % (page_proc.returncode, cli_proc.returncode,
                                                        page_proc.stderr.decode()[-300:]))
    if not comparison and page_proc.stderr != cli_proc.stderr:
        problems.append("its findings differ from the CLI's: %s" % page_proc.stderr.decode()[-300:])
    if re.search(rb"runtime error|Sanitizer", page_proc.stderr):
        problems.append("sanitizer: %s" % page_proc.stderr.decode()[-500:])
    if not os.path.exists(out):
        return problems + ["no page written"]
    with open(out, encoding="utf-8") as f:
        page = f.read()
    m = EMBED.search(page)
    cli = json.loads(cli_proc.stdout)
    if not m:
        problems.append("no embedded JSON")
    elif json.loads(m.group(1)) != cli:
        problems.append("the embedded JSON differs from the CLI's")
    if comparison:
        want = ["summary", "diff-functions"]
    else:
        want = expected_figures(cli)
    missing = [w for w in want if w not in figures_in(page)]
    if missing:
        problems.append("figures missing: %s" % missing)
    if page.index('id="summary"') > page.index("<figure") if "<figure" in page else False:
        problems.append("the verdict is not first")
    urls = no_url(page)
    if urls:
        problems.append("addresses: %s" % urls[:5])
    return problems


def main():
    pw, data, gen, work = sys.argv[1:5]
    pw, data = os.path.abspath(pw), os.path.realpath(data)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    gp = os.path.join(work, "gp")
    subprocess.run([sys.executable, gen, gp, "--seed", "7"], check=True, capture_output=True)
    jobs = [(rel, data, [rel], []) for rel in datasets(data)]
    jobs += [(os.path.join("otf2", name), data, [os.path.join("otf2", name)], [])
             for name in sorted(os.listdir(os.path.join(data, "otf2")))]
    gen_emu = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
    if gen_emu:  # more threads than strips: rows are grouped
        subprocess.run([gen_emu, os.path.join(work, "many"), "100000", "400"], check=True, capture_output=True)
        jobs.append(("ovni 400 threads", work, ["many"], []))
    jobs.append(("gpupower-tree", gp, ["tree"], ["--tz", "+01:00"]))
    for a, b in COMPARISONS:
        cwd = gp if a.startswith("GP/") else data
        jobs.append(("compare %s %s" % (a, b), cwd, [a.replace("GP/", ""), b.replace("GP/", "")],
                     ["--tz", "+01:00"] if cwd == gp else []))
    outs = {}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {}
        for i, (name, cwd, paths, extra) in enumerate(jobs):
            out = os.path.join(work, "page%03d.html" % i)
            outs[name] = out
            futures[name] = pool.submit(make_page, pw, cwd, paths, extra, out, i % 8 == 0)
        for name, cwd, paths, extra in jobs:
            page_proc, cli_proc, same = futures[name].result()
            if not same:
                failures.append("%s: a second page differs" % name)
            for p in check_page(name, page_proc, cli_proc, outs[name], len(paths) == 2):
                failures.append("%s: %s" % (name, p))
            if name == "ovni 400 threads" and os.path.exists(outs[name]):
                with open(outs[name], encoding="utf-8") as f:
                    if "400 threads, merged into 300 strips" not in f.read():
                        failures.append("%s: the strips are not grouped" % name)
    with Browser() as browser:
        for name, _, _, _ in jobs:
            if not os.path.exists(outs[name]):
                continue
            got = browser.load(outs[name], scale=0.25)
            if got["errors"]:
                failures.append("%s: console: %s" % (name, got["errors"][:3]))
            if got["requests"]:
                failures.append("%s: requests: %s" % (name, got["requests"][:3]))
            if png_colours(got["png"]) < 8:
                failures.append("%s: the screenshot is blank" % name)
    for f in failures:
        print("FAIL", f)
    print("%d pages, %d problems" % (len(jobs), len(failures)))
    if not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
