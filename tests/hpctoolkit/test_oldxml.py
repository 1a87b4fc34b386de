"""test_oldxml.py CLI SHARED_DATA — the old XML database (experiment.xml
2.0 + *.metric-db) against hatchet's expected dataframe: for every CCT node
and rank, the inclusive value ("time (inc)"), the exclusive value of
statement nodes ("time"; hatchet rewrites the exclusive value of the
others), the procedure names and node types; and check passes."""
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import FAILURES, check, finish  # noqa: E402

KINDS = {"PF": "function", "Pr": "function", "L": "loop", "S": "line"}


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    base = os.path.join(shared, "hpctoolkit", "hatchet")
    db = os.path.join(base, "hpctoolkit-cpi-database@79c009b")
    oracle = os.path.join(base, "expected-graphframes@79c009b", "hpctoolkit-cpi-graphframe.csv")
    if not os.path.isdir(db) or not os.path.isfile(oracle):
        FAILURES.append("missing fixture %s" % db)
        return finish()
    p = subprocess.run([cli, "check", db], capture_output=True, text=True)
    check(p.returncode == 0 and "old XML 2.0 (pre-4.0" in p.stdout, "check: %s %s" % (p.stdout, p.stderr))
    out = subprocess.run([cli, "dump", "--jsonl", db], capture_output=True, text=True, check=True).stdout
    recs = [json.loads(line) for line in out.splitlines()]
    values = {(r["loc"], r["context"], r["metric"]): r["value"] for r in recs if r["type"] == "value"}
    ctx = {r["id"]: r for r in recs if r["type"] == "context"}
    rows = list(csv.DictReader(open(oracle)))
    check(len(rows) > 100, "oracle rows: %d" % len(rows))
    for row in rows:
        nid, loc = int(row["nid"]), "RANK.%s/THREAD.0" % row["rank"]
        inc = values.get((loc, nid, 0), 0.0)
        check(inc == float(row["time (inc)"]), "nid %d rank %s: inclusive %r != %s" % (nid, row["rank"], inc, row["time (inc)"]))
        if row["type"] == "S":
            exc = values.get((loc, nid, 1), 0.0)
            check(exc == float(row["time"]), "nid %d rank %s: exclusive %r != %s" % (nid, row["rank"], exc, row["time"]))
        c = ctx.get(nid, {})
        check(c.get("kind") == KINDS.get(row["type"]), "nid %d: kind %r for %s" % (nid, c.get("kind"), row["type"]))
        if row["type"] in ("PF", "Pr"):
            name = re.sub(r"^\d+:", "", row["name"])
            check(c.get("name") == name, "nid %d: name %r != %r" % (nid, c.get("name"), name))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
