#!/usr/bin/env python3
"""svg_structure.py - the structure of the report's figures for one small
fixture per format against a manifest (svg_structure.json): for every
figure, its id and how many elements of each kind its SVG holds (rect,
path, circle, line, polyline, text, title).  Not the bytes: a change of
colour or wording passes, a lost bar or a figure gone does not.

usage: svg_structure.py PERFWEAVE SHARED_DATA GEN_GPUPOWER WORK MANIFEST [--update]
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys

FIXTURES = [
    ("dumpi", "dumpi/nonblock4", []),
    ("ovni", "ovni/ctest-1.14.0/emu-mpi-func/ovni", []),
    ("hpctoolkit", "hpctoolkit/hpctoolkit/small_v4.0@5c1005fbe", []),
    ("ross", "ross/phold-np2-gvt-pekp", []),
    ("gpupower", "GP/tree", ["--tz", "+01:00"]),
]
KINDS = ["rect", "path", "circle", "line", "polyline", "text", "title"]


class Figures(html.parser.HTMLParser):
    """Counts, per <figure id>, the SVG elements inside it."""

    def __init__(self):
        super().__init__()
        self.figures, self.current, self.depth = {}, None, 0

    def handle_starttag(self, tag, attrs):
        if tag == "figure":
            self.current = dict(attrs).get("id")
            self.figures[self.current] = {k: 0 for k in KINDS}
        elif self.current and tag in KINDS:
            self.figures[self.current][tag] += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "figure":
            self.current = None


def structure(pw, cwd, rel, extra, out):
    subprocess.run([pw, "report", rel, "-q", "-o", out, "--force"] + extra, cwd=cwd, check=True)
    parser = Figures()
    with open(out, encoding="utf-8") as f:
        parser.feed(f.read())
    return parser.figures


def main():
    pw, data, gen, work, manifest = sys.argv[1:6]
    update = "--update" in sys.argv[6:]
    pw, data = os.path.abspath(pw), os.path.realpath(data)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    gp = os.path.join(work, "gp")
    subprocess.run([sys.executable, gen, gp, "--seed", "7"], check=True, capture_output=True)
    got = {}
    for name, rel, extra in FIXTURES:
        cwd = gp if rel.startswith("GP/") else data
        got[name] = structure(pw, cwd, rel.replace("GP/", ""), extra, os.path.join(work, name + ".html"))
    if update:
        with open(manifest, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
            f.write("\n")
        print("wrote", manifest)
        return 0
    with open(manifest) as f:
        want = json.load(f)
    bad = 0
    for name in want:
        for fig in sorted(set(want[name]) | set(got.get(name, {}))):
            w, g = want[name].get(fig), got.get(name, {}).get(fig)
            if w != g:
                bad += 1
                print("FAIL %s %s: want %s, got %s" % (name, fig, w, g))
    print("%d formats, %d figures differ" % (len(want), bad))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
