#!/usr/bin/env python3
"""check_layers.py - the rooms of the tree and the order between them
(docs/architecture.md):

    core < model < {formats, views} < analysis < sinks < {drivers, batch} < cli

A file may include headers of its own layer and of lower ones only, and
formats include neither views nor analyses, nor they formats (views and
analyses see records only through the model), nor do the drivers of the
commands and the columnar API include each other.  And no format's name
(a folder of src/formats/) appears in any room above the formats outside
comments: a format's semantics reach views, analyses and sinks only
through its schemas.  Nor does a convert target's name appear in cli/:
the program lists targets through the sink registry (pw_sink_*).

Inside the rooms: no file outside src/analysis includes a header of an
analysis's own folder (sinks and the program reach analyses through their
contract, analysis/analysis.h, and read views); the files loose in
src/analysis are the contract and what runs the registered analyses (each
includes analysis/analysis.h), not views; and no two folders include each
other, however indirectly.

No analysis reads the filter itself (->filter, pw_dataset_filter): a
filter selects what is reported, through pw_selection_*, never what an
analysis sees (docs/filters.md).

The HTML report only draws: no file of src/sinks/html runs pw_stats or
replays a states source (->start, ->play); the run it draws is the
report driver's (src/drivers/report_page.c).

Known edges still to remove are listed in KNOWN (each one fails the test
once it is gone, so the list only shrinks).

usage: check_layers.py SOURCE_DIR
"""
import os
import re
import sys

RANK = {"core": 0, "model": 1, "formats": 2, "views": 2, "analysis": 3, "sinks": 4, "drivers": 5, "batch": 5,
        "cli": 6}
# Rooms that never include each other, whatever their rank.
APART = [{"formats", "views"}, {"formats", "analysis"}, {"drivers", "batch"}]
# (file, included header) pairs that break the order and are still to be
# removed: none since the MPI role table, communicator tracker and pair
# counts moved down to src/model and src/core.  A new entry needs a reason.
KNOWN = set()
# The ovni emulator writes ovniemu's own labels and metadata keys, where
# "ovni" names libovni's runtime model 'O' ("Flushing ovni buffer",
# "ovni.finished"), labels users' Paraver configurations expect: there the
# word is the model's name, not the file format's.
MODEL_NAMES = {"src/analysis/ovniemu/": {"ovni"}}
SOURCE_DIR = "."
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# What runs analyses, which the HTML report leaves to its driver.
FILTER_STATE = re.compile(r"->filter\b|pw_dataset_filter\b")
RUNS = re.compile(r"\bpw_stats\s*\(|->\s*(start|play)\s*\(")


def room(rel):
    """The layer a path (relative to the source dir) lives in, or None."""
    parts = rel.split("/")
    if parts[0] == "cli":
        return "cli"
    if parts[0] == "src" and len(parts) > 1 and parts[1] in RANK:
        return parts[1]
    return None


def included_room(inc, including_dir):
    """The layer of an included header: "room/..." paths, or a name next
    to the including file."""
    first = inc.split("/")[0]
    if first in RANK and first != "cli":
        return first
    return room(os.path.normpath(os.path.join(including_dir, inc)))


def folder_of(inc, including_dir):
    """The folder an included header lives in, relative to the source dir."""
    first = inc.split("/")[0]
    if first in RANK and first != "cli":
        return os.path.dirname("src/" + inc)
    return os.path.dirname(os.path.normpath(os.path.join(including_dir, inc)))


def loops(edges):
    """The groups of folders that include each other (Tarjan's strongly
    connected components of more than one folder)."""
    index, low, stack, found = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def room_rules(rel, includes, edges):
    """The rules inside the rooms (see the top): analyses' folders, loose
    files of src/analysis; records the folder edges for loops()."""
    problems = []
    here = os.path.dirname(rel)
    for inc in includes:
        there = folder_of(inc, here)
        if there != here and os.path.isdir(os.path.join(SOURCE_DIR, there)):
            edges.setdefault(here, set()).add(there)
        if there.startswith("src/analysis/") and not rel.startswith("src/analysis/"):
            problems.append("%s includes %s: outside src/analysis an analysis is reached through "
                            "analysis/analysis.h, not its folder" % (rel, inc))
    loose = here == "src/analysis"
    if loose and rel.endswith(".h") and rel != "src/analysis/analysis.h":
        problems.append("%s: a header loose in src/analysis (views go to src/views, an analysis's own "
                        "to its folder)" % rel)
    if loose and rel.endswith(".c") and "analysis/analysis.h" not in includes:
        problems.append("%s: loose in src/analysis without the analysis contract (a view? src/views)" % rel)
    return problems


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def sources(src_dir):
    for top in ("src", "cli"):
        for root, dirs, files in os.walk(os.path.join(src_dir, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith((".c", ".h", ".c.in")):
                    full = os.path.join(root, name)
                    yield full, os.path.relpath(full, src_dir)


def convert_targets(src_dir):
    """Names of the CONVERT sinks that no other sink shares (a "csv" target
    and a --csv report style are different things)."""
    by_kind = {}
    for full, rel in sources(src_dir):
        if not rel.endswith("_sink.c"):
            continue
        with open(full) as f:
            text = f.read()
        # a sink's kind is the one per-kind ops pointer it sets (sink.h)
        name = re.search(r'\.name\s*=\s*"([^"]+)"', text)
        kind = re.search(r"\.(records|report|convert|plot)\s*=\s*&", text)
        if name and kind:
            by_kind.setdefault(name.group(1), set()).add(kind.group(1))
    return sorted(n for n, kinds in by_kind.items() if kinds == {"convert"})


def main():
    global SOURCE_DIR
    src_dir = SOURCE_DIR = sys.argv[1]
    formats = sorted(d for d in os.listdir(os.path.join(src_dir, "src/formats"))
                     if os.path.isdir(os.path.join(src_dir, "src/formats", d)))
    name_re = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, formats)), re.I)
    targets = convert_targets(src_dir)
    if not targets:  # the rule below would pass without checking anything
        print("no convert sink found under src/sinks: the sink declarations changed shape")
        return 1
    target_re = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, targets))) if targets else None
    problems = []
    known_seen = set()
    edges = {}
    for full, rel in sources(src_dir):
        me = room(rel)
        with open(full, encoding="utf-8", errors="replace") as f:
            text = f.read()
        code = strip_comments(text)
        problems += room_rules(rel, INCLUDE.findall(code), edges)
        if rel.startswith("src/analysis/"):
            for n, line in enumerate(code.splitlines(), 1):
                if FILTER_STATE.search(line):
                    problems.append("%s:%d reads the filter itself (an analysis reads history through "
                                    "pw_cursor_open_history and clips with pw_selection_*)" % (rel, n))
        if rel.startswith("src/sinks/html/"):
            for n, line in enumerate(code.splitlines(), 1):
                if RUNS.search(line):
                    problems.append("%s:%d runs the analyses (the report page only draws what "
                                    "src/drivers/report_page.c runs)" % (rel, n))
        for inc in INCLUDE.findall(code):
            other = included_room(inc, os.path.dirname(rel))
            if other is None or other == me:
                continue
            if RANK[other] > RANK[me] or {me, other} in APART:
                if (rel, inc) in KNOWN:
                    known_seen.add((rel, inc))
                    continue
                problems.append("%s includes %s: %s may not use %s" % (rel, inc, me, other))
        if me not in (None, "core", "model", "formats"):
            allowed = set()
            for folder, names in MODEL_NAMES.items():
                if rel.startswith(folder):
                    allowed |= names
            # A sink that writes the format a reader reads (otf2) names it
            # in its own folder: there it is the target, not the input.
            parts = rel.split(os.sep)
            if me == "sinks" and len(parts) > 3 and parts[2] in formats:
                allowed.add(parts[2])
            for n, line in enumerate(code.splitlines(), 1):
                m = next((m for m in name_re.finditer(line) if m.group(1).lower() not in allowed), None)
                if m:
                    problems.append("%s:%d names the format '%s' (a format speaks through its schemas)"
                                    % (rel, n, m.group(1)))
        if me == "cli" and target_re:
            for n, line in enumerate(code.splitlines(), 1):
                m = target_re.search(line)
                if m:
                    problems.append("%s:%d names the convert target '%s' (list them with pw_sink_*)"
                                    % (rel, n, m.group(1)))
    for group in loops(edges):
        problems.append("folders include each other: %s" % " -> ".join(group))
    for rel, inc in sorted(KNOWN - known_seen):
        problems.append("%s no longer includes %s: take it off KNOWN" % (rel, inc))
    for rel, inc in sorted(known_seen):
        print("layers: known, to remove: %s includes %s" % (rel, inc))
    for p in problems:
        print("layers: " + p)
    print("layers: %d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
