"""checks.py — what the HPCToolkit oracle scripts share: failures are
collected (every difference is listed, not just the first), then reported
with the count that ctest's log shows."""
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)


def finish():
    for f in FAILURES:
        print("FAIL:", f)
    print("%d failed" % len(FAILURES))
    return 1 if FAILURES else 0
