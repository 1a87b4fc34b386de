#!/usr/bin/env python3
"""check_exports.py - the shared library exports the public API and nothing else.

Every defined dynamic symbol of libperfweave.so starts with pw_ (the library
is built with hidden visibility; issue 11), and every function declared in
include/perfweave.h is exported (a declaration without PW_API would be
hidden and so missing from the shared library).

usage: check_exports.py LIBPERFWEAVE_SO PERFWEAVE_H
"""
import re
import subprocess
import sys


def main():
    lib, header = sys.argv[1:3]
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True,
                         text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    with open(header) as f:
        text = f.read()
    declared = set(re.findall(r"(?m)^PW_API (?:const )?\w+ \**(pw_\w+)\(", text))
    unmarked = re.findall(r"(?m)^(?:const )?\w+ \**(pw_\w+)\(", text)
    bad = 0
    for name in sorted(n for n in exported if not n.startswith("pw_")):
        print("exports: %s is exported but is not public API" % name)
        bad += 1
    for name in sorted(unmarked):
        print("exports: %s is declared in perfweave.h without PW_API" % name)
        bad += 1
    for name in sorted(declared - exported):
        print("exports: %s is declared PW_API but not exported" % name)
        bad += 1
    print("exports: %d symbols, %d public declarations, %d problems"
          % (len(exported), len(declared), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
