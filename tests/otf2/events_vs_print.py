#!/usr/bin/env python3
"""Acceptance: for every archive in ../shared/data/otf2, the events per
location and per event type of otf2-print's listing (libotf2's own reader,
stored beside the archive) equal those of `perfweave dump --jsonl`.
Usage: events_vs_print.py PERFWEAVE SHARED_DATA"""
import collections
import json
import os
import re
import subprocess
import sys

import otf2_listing

LOC_ID = re.compile(r"<(\d+)>$")



def oracle_counts(archive):
    counts = collections.Counter()
    for kind, loc, _, _ in otf2_listing.events(archive):
        counts[(loc, kind)] += 1
    return counts


def our_counts(cli, archive):
    out = subprocess.run([cli, "dump", "--jsonl", archive], check=True, capture_output=True)
    counts = collections.Counter()
    for line in out.stdout.decode("utf-8").splitlines():
        rec = json.loads(line)
        loc = LOC_ID.search(rec["loc"])
        counts[(int(loc.group(1)), rec["type"])] += 1
    return counts


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    root = os.path.join(shared, "otf2")
    archives = sorted(d for d in os.listdir(root) if os.path.exists(os.path.join(root, d, "traces.otf2")))
    failed = 0
    if len(archives) < 6:
        print(f"FAIL: 6 archives expected in {root}, found {len(archives)}")
        failed += 1
    for name in archives:
        archive = os.path.join(root, name)
        want, got = oracle_counts(archive), our_counts(cli, archive)
        if not want:
            print(f"FAIL {name}: no events in the otf2-print listing")
            failed += 1
        elif want != got:
            diff = {k: (want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got) if want.get(k) != got.get(k)}
            print(f"FAIL {name}: (location, type): (otf2-print, perfweave) {sorted(diff.items())[:10]}")
            failed += 1
        else:
            print(f"ok {name}: {sum(want.values())} events on {len({k[0] for k in want})} locations")
    print(f"{len(archives) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
