#!/usr/bin/env python3
"""The first screen of `stats` on every archive in ../shared/data/otf2
against figures computed here from otf2-print's listing (libotf2's own
reader): the locations with events, the events, the region of most
exclusive time (ENTER/LEAVE nesting per location), its share of all
regions' exclusive time, and its exclusive time over the trace's span (a
ratio, so the timer's resolution cancels).
Usage: summary_vs_print.py PERFWEAVE SHARED_DATA"""
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import otf2_listing  # noqa: E402

REGION = re.compile(r'Region: ".*" <(\d+)>')
NAME = re.compile(r'Region: "(.*)" <\d+>')


def oracle(archive):
    """locations, events, span (ticks), exclusive ticks and name per region."""
    stacks, excl, names = collections.defaultdict(list), collections.Counter(), {}
    locs, events, first, last = set(), 0, None, None
    for kind, loc, t, line in otf2_listing.events(archive):
        locs.add(loc)
        events += 1
        first = t if first is None or t < first else first
        last = t if last is None or t > last else last
        r = REGION.search(line)
        if kind == "ENTER" and r:
            names[int(r.group(1))] = NAME.search(line).group(1)
            stacks[loc].append([int(r.group(1)), t, 0])
        elif kind == "LEAVE" and r and stacks[loc] and stacks[loc][-1][0] == int(r.group(1)):
            region, enter, child = stacks[loc].pop()
            excl[region] += t - enter - child
            if stacks[loc]:
                stacks[loc][-1][2] += t - enter
    return len(locs), events, last - first, excl, names


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    root = os.path.join(shared, "otf2")
    archives = sorted(d for d in os.listdir(root) if os.path.exists(os.path.join(root, d, "traces.otf2")))
    failed = 0 if archives else 1
    for name in archives:
        archive = os.path.join(root, name)
        locs, events, span, excl, names = oracle(archive)
        out = subprocess.run([cli, "stats", "--json", "--table", "overview", archive], capture_output=True, text=True)
        got = json.loads(out.stdout).get("overview", {}) if out.returncode == 0 else {}
        top = max(excl.values())
        tops = {names[r] for r, v in excl.items() if v == top}
        want_pct = 100.0 * top / sum(excl.values())
        problems = []
        if (got.get("locations"), got.get("events")) != (locs, events):
            problems.append("locations, events %s != %s" % ((got.get("locations"), got.get("events")), (locs, events)))
        if got.get("top_region") not in tops:
            problems.append("top region %r, not one of %s" % (got.get("top_region"), sorted(tops)))
        if abs(got.get("top_region_pct", -1) - want_pct) > 1e-6 * want_pct:  # ticks rounded to ns per event
            problems.append("top region share %r != %r" % (got.get("top_region_pct"), want_pct))
        ratio = got.get("top_region_exclusive_s", 0) / got["span_s"] if got.get("span_s") else None
        if ratio is None or abs(ratio - top / span) > 1e-6 * (top / span):
            problems.append("top region over span %r != %r" % (ratio, top / span))
        print(("FAIL %s: %s" % (name, "; ".join(problems))) if problems else "ok %s: %s" % (name, got))
        failed += bool(problems)
    print(f"{len(archives) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
