#!/usr/bin/env python3
"""Round trip: every timed DUMPI fixture converted to OTF2 by perfweave and
read back gives the same `functions` table (calls, and times to the
nanosecond), the same wait states (per rank, per function, per rank and
function), the same critical path, the same communication matrix and the
same collectives per communicator (collectives4 calls them on the halves
MPI_Comm_split makes) as the DUMPI trace itself, and `convert --waits`
draws the same wait and critical-path slices.

The OTF2 writer keeps DUMPI's nanoseconds (its timer resolution is 1 ns),
so everything compares exactly but for the last bit of a double: figures
are rounded to the nanosecond (times) or to 1e-9 (percentages).  Rows
compare keyed (by rank, function): the two readers number their functions
in different orders.  Usage: roundtrip_dumpi.py PERFWEAVE SHARED_DATA"""
import json
import os
import subprocess
import sys
import tempfile

# Tables of the wait states, the critical path and the communication
# matrix, with the columns that key their rows.
WAIT_TABLES = {
    "wait_states": ("rank",),
    "wait_states_by_function": ("function",),
    "rank_functions": ("rank", "function"),
    "idle_time": ("rank",),
    "critical_path": (),
    "critical_path_ranks": ("rank",),
    "critical_path_functions": ("function",),
    # the communication matrix in world ranks
    "point_to_point": (),
    "comm_matrix": ("source", "dest"),
}


def stats(cli, path):
    out = subprocess.run([cli, "stats", "--json", path], check=True, capture_output=True).stdout
    return json.loads(out)


def rounded(v):
    return round(v, 9) if isinstance(v, float) else v


def keyed(rows, key):
    """Rows (a list, or one object) as {key: {column: value}}."""
    rows = rows if isinstance(rows, list) else [rows]
    return {tuple(r[k] for k in key): {c: rounded(v) for c, v in r.items()} for r in rows}


def functions(doc):
    return {f["function"]: (f["calls"], round(f["time_s"], 9)) for f in doc.get("functions", [])}


def collectives(doc):
    """The collectives per function and communicator, the communicator by
    its size: the two readers number program-made communicators apart."""
    rows = doc.get("collectives", [])
    return sorted((r["function"], r["comm_size"], r["calls"], rounded(r["time_s"]), r["bytes"]) for r in rows)


WAIT_SLICES = ("Late Sender", "Late Receiver", "Wait at NxN", "Wait at Barrier", "Late Broadcast", "Early Reduce",
               "critical path")


def wait_slices(cli, path, options, out):
    """The wait states and critical path `convert --waits` draws (Chrome
    JSON): slice name and start, to the nanosecond."""
    subprocess.run([cli, "convert", path, *options, "--to", "chrome", "-o", out], check=True, capture_output=True)
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return sorted((e["name"], round(e["ts"], 3)) for e in events if e.get("ph") == "B" and e.get("name") in WAIT_SLICES)


def fixtures(shared):
    """The DUMPI fixtures, but those whose calls carry no time (their wait
    states and critical path are empty, and OTF2 cannot hold an untimed
    event)."""
    root = os.path.join(shared, "dumpi")
    for name in sorted(os.listdir(root)):
        if "notime" in name:
            print(f"skip {name}: its calls have no timestamps")
            continue
        yield name, os.path.join(root, name)


def compare(name, want, got):
    """The differences between the DUMPI (want) and OTF2 (got) reports."""
    bad = []
    if not functions(want) or functions(want) != functions(got):
        bad.append(f"functions: DUMPI {functions(want)} OTF2 {functions(got)}")
    if collectives(want) != collectives(got):
        bad.append(f"collectives: DUMPI {collectives(want)} OTF2 {collectives(got)}")
    for table, key in WAIT_TABLES.items():
        if table not in want:
            bad.append(f"{table}: missing in the DUMPI report")
            continue
        a, b = keyed(want[table], key), keyed(got.get(table, []), key)
        if a != b:
            diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)][:3]
            bad.append(f"{table}: " + "; ".join(f"{k}: DUMPI {a.get(k)} OTF2 {b.get(k)}" for k in diff))
    return bad


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    failed = passed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in fixtures(shared):
            dst = os.path.join(tmp, name + ".otf2")
            subprocess.run([cli, "convert", src, "--to", "otf2", "-o", dst], check=True, capture_output=True)
            want, got = stats(cli, src), stats(cli, dst)
            bad = compare(name, want, got)
            drawn = wait_slices(cli, src, ["--waits"], os.path.join(tmp, name + ".dumpi.json"))
            if drawn != wait_slices(cli, dst, ["--set", "otf2.waits=1"], os.path.join(tmp, name + ".otf2.json")):
                bad.append("convert --waits: the slices drawn differ")
            waits = sum(v for r in want["wait_states"] for k, v in r.items() if k.endswith("_s"))
            if bad:
                failed += 1
                print(f"FAIL {name}:\n  " + "\n  ".join(bad))
            else:
                passed += 1
                print(f"ok {name}: {len(functions(want))} functions, {waits:.9f} s of wait states, "
                      f"critical path {want['critical_path']['length_s']} s, {len(drawn)} slices drawn")
    if passed < 6:
        print(f"FAIL: at least 6 timed DUMPI fixtures expected, {passed} passed")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
