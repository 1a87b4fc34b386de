#!/usr/bin/env python3
"""Round trip: DUMPI fixtures converted to OTF2 by perfweave and read back
give the same `functions` table (calls, and times to the nanosecond) as
the DUMPI trace itself.  Usage: roundtrip_dumpi.py PERFWEAVE SHARED_DATA"""
import json
import os
import subprocess
import sys
import tempfile

FIXTURES = ("pingpong4", "collectives4", "nonblock4", "threads4")


def functions(cli, path):
    out = subprocess.run([cli, "stats", "--json", path], check=True, capture_output=True).stdout
    return {f["function"]: (f["calls"], round(f["time_s"], 9)) for f in json.loads(out).get("functions", [])}


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in FIXTURES:
            src = os.path.join(shared, "dumpi", name)
            dst = os.path.join(tmp, name + ".otf2")
            subprocess.run([cli, "convert", src, "--to", "otf2", "-o", dst], check=True, capture_output=True)
            want, got = functions(cli, src), functions(cli, dst)
            if not want or want != got:
                failed += 1
                print(f"FAIL {name}: DUMPI {want} OTF2 {got}")
            else:
                print(f"ok {name}: {len(want)} functions")
    print(f"{len(FIXTURES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
