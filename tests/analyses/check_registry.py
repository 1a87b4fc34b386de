#!/usr/bin/env python3
"""The analyses registered in src/analysis/ add their tables to `stats`
(MPI wait states for DUMPI, the emulator's states for ovni) and their
findings to `check`; the library option "analyses" = "0" (--set
analyses=0) leaves them out, and the format's own tables stay as they are.

usage: check_registry.py PERFWEAVE SHARED_DATA"""
import json
import os
import subprocess
import sys


def stats(pw, path, *extra):
    p = subprocess.run([pw, "stats", path, "--json", "-q", *extra], capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout)


def main():
    pw, data = sys.argv[1], sys.argv[2]
    failures = []
    cases = [("dumpi/pingpong4", "wait_states"),
             ("ovni/ctest-1.14.0/emu-mpi-func/ovni", "states")]
    for rel, table in cases:
        path = os.path.join(data, rel)
        rc, full = stats(pw, path)
        rc0, bare = stats(pw, path, "--set", "analyses=0")
        if rc or rc0:
            failures.append("%s: stats exit %d / %d" % (rel, rc, rc0))
        if table not in full:
            failures.append("%s: stats lacks the analysis table %s" % (rel, table))
        if table in bare:
            failures.append("%s: analyses=0 still has %s" % (rel, table))
        if {k: v for k, v in full.items() if k in bare} != bare:
            failures.append("%s: analyses=0 changed the format's own tables" % rel)
    # check: the emulator's finding on a trace ovniemu refuses, and none
    # without the analyses
    crash = os.path.join(data, "ovni/ctest-1.14.0/emu-ovni-thread-crash/ovni")
    with_emu = subprocess.run([pw, "check", crash, "-q"], capture_output=True, text=True)
    without = subprocess.run([pw, "check", crash, "-q", "--set", "analyses=0"],
                             capture_output=True, text=True)
    if "ovniemu." not in with_emu.stderr:
        failures.append("check of emu-ovni-thread-crash lacks the emulator's finding")
    if "ovniemu." in without.stderr:
        failures.append("check with analyses=0 still runs the emulator")
    for f in failures:
        print("FAIL " + f)
    print("%d cases, %d failures" % (len(cases) + 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
