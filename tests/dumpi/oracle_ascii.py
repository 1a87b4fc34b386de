#!/usr/bin/env python3
"""Compares perfweave's reading of every DUMPI fixture with the
`dumpi2ascii -a` text beside it (dumpi-facts.md section 12).

For every rank that has an oracle text, field by field:
  * every call: function, thread, location, wall/cpu entry and exit times,
    perf counters, every argument (`dump --jsonl`), and the names of
    predefined handles (`dump` text);
  * header, keyval count, footer counts, perf labels, datatype sizes
    (`info --json --locations` properties).

usage: oracle_ascii.py PERFWEAVE SHARED_DATA
"""
import datetime
import json
import os
import re
import subprocess
import sys
import zoneinfo
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dumpi_ascii import oracle_files, parse_oracle  # noqa: E402

# Every fixture must be here: a missing one is a failure, not a skip.
FIXTURES = {
    "pingpong4": 4, "nonblock4": 4, "collectives4": 4, "collectives4-notime-nostatus": 4,
    "nonblock4-cputime": 4, "threads4": 4, "collectives4-papi": 4, "upstream-v1.0.0": 1,
}
# The time zone dumpi2ascii ran in (it prints starttime with ctime()).
ORACLE_TZ = {"upstream-v1.0.0": "America/Los_Angeles"}
PREFIX_KEYS = {"loc", "t", "type", "thread", "wall", "cpu", "perf"}

failures = []
checked = {"calls": 0, "args": 0, "times": 0, "perf": 0, "labels": 0, "footer": 0, "sizes": 0}


def fail(where, msg):
    failures.append(f"{where}: {msg}")


def run(*args):
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        fail(" ".join(args[1:]), f"exit {out.returncode}: {out.stderr.strip()[:300]}")
    return out.stdout


def exact_seconds(ours, text):
    """Our JSON number is the double nearest the oracle's decimal text."""
    return float(ours) == float(Decimal(text))


def compare_times(where, rec, call):
    for clock in ("wall", "cpu"):
        texts = call[clock]
        if clock not in rec:
            if any(Decimal(t) != 0 for t in texts):
                fail(where, f"{clock} missing; oracle has {texts}")
            continue
        if len(rec[clock]) != 2 or not all(exact_seconds(o, t) for o, t in zip(rec[clock], texts)):
            fail(where, f"{clock} {rec[clock]} != oracle {texts}")
        checked["times"] += 2
    clock = "wall" if "wall" in rec else "cpu" if "cpu" in rec else None
    if clock:
        want = int(Decimal(call[clock][0]) * 1000000000)
        if rec.get("t") != want:
            fail(where, f"t {rec.get('t')} != {want} (entry {clock} time in ns)")
    elif "t" in rec:
        fail(where, "t present in a record without times")


def compare_perf(where, rec, call):
    if not call["perf"]:
        if "perf" in rec:
            fail(where, "perf present; the oracle has no counters")
        return
    entry, exit_ = call["perf"][0], call["perf"][1] if len(call["perf"]) > 1 else []
    want = {label: [v, exit_[i][1]] for i, (label, v) in enumerate(entry)}
    if rec.get("perf") != want:
        fail(where, f"perf {rec.get('perf')} != oracle {want}")
    checked["perf"] += 2 * len(want)


def compare_arg(where, rec, ctype, name, value):
    kind, v, _ = value
    if name == "argc" and "argv" in rec:  # argc is the length of the stored argv
        if v != len(rec["argv"]):
            fail(where, f"argc {v} != len(argv) {len(rec['argv'])}")
        return
    ours = rec.get(name, "<absent>")
    checked["args"] += 1
    if kind == "ignored":
        ok = ours == "<absent>" or (ctype == "MPI_Status" and ours == [])
    elif kind == "int":
        ok = ours == v or (ctype == "MPI_Request" and ours == [v])
    elif kind == "ints":
        ok = ours == v or (len(v) == 1 and ours == v[0])
    elif kind == "statuses":
        ok = ours == v
    elif kind in ("strings", "string"):
        ok = ours == v
    else:
        ok = False
    if not ok:
        fail(where, f"{name}: ours {ours!r} != oracle {value[1]!r} ({ctype})")


def compare_labels(where, text_line, args):
    """Predefined handles print as 'name=V (LABEL)' in the text dump."""
    for _ctype, name, (kind, v, label) in args:
        # dumpi2ascii names user handles "user-defined-comm": not a
        # predefined name, so the text dump leaves them bare.
        if kind == "int" and label and not label.startswith("user-defined"):
            # The tracer's "no value" ids are DUMPI_*_ERROR in the constants
            # table and MPI_*_ERROR in dumpi2ascii: the same id.
            if label.endswith("_ERROR") and label.startswith("MPI_"):
                label = "DUMPI_" + label[4:]
            if f" {name}={v} ({label})" not in text_line:
                fail(where, f"text dump lacks '{name}={v} ({label})': {text_line[:200]}")
            checked["labels"] += 1


def compare_calls(where, rank, records, calls, text_lines):
    if len(records) != len(calls):
        fail(where, f"{len(records)} records, oracle has {len(calls)} calls")
    for i, (rec, call) in enumerate(zip(records, calls)):
        w = f"{where} call {i} ({call['type']})"
        checked["calls"] += 1
        if rec["type"] != call["type"]:
            fail(w, f"type {rec['type']}")
            continue
        if rec.get("thread") != call["thread"] or call.get("exit_thread") != call["thread"]:
            fail(w, f"thread {rec.get('thread')} != {call['thread']}")
        loc = f"rank{rank}" + (f"/thread{call['thread']}" if call["thread"] else "")
        if rec["loc"] != loc:
            fail(w, f"loc {rec['loc']} != {loc}")
        compare_times(w, rec, call)
        compare_perf(w, rec, call)
        names = set()
        for ctype, name, value in call["args"]:
            names.add(name)
            compare_arg(w, rec, ctype, name, value)
        extra = set(rec) - PREFIX_KEYS - names
        if extra:
            fail(w, f"fields the oracle does not print: {sorted(extra)}")
        if i < len(text_lines):
            compare_labels(w, text_lines[i], call["args"])


def compare_trailer(where, fixture, rank, props, header, trailer):
    p = lambda k: props.get(f"rank{rank}:{k}")
    for key in ("version", "hostname", "username", "meshdim", "meshsize", "meshcrd"):
        if p(key) != header.get(key):
            fail(where, f"header {key}: ours {p(key)!r} != oracle {header.get(key)!r}")
    tz = zoneinfo.ZoneInfo(ORACLE_TZ.get(fixture, "UTC"))
    start = datetime.datetime.fromtimestamp(int(p("starttime") or 0), tz)
    if start.strftime("%a %b %e %H:%M:%S %Y") != header.get("starttime"):
        fail(where, f"starttime {p('starttime')} -> {start} != oracle {header.get('starttime')}")
    if int(p("keyvals") or -1) != trailer.get("keyvals"):
        fail(where, f"keyvals {p('keyvals')} != {trailer.get('keyvals')}")
    ours = {}
    for item in (p("footer") or "").split("; "):
        if item:
            name, c, i = item.rsplit(" ", 2)
            ours[name] = (int(c), int(i))
    if len(trailer["footer"]) != 291:
        fail(where, f"oracle footer has {len(trailer['footer'])} lines, 291 expected")
    for name, counts in trailer["footer"].items():
        checked["footer"] += 1
        if ours.get(name, (0, 0)) != counts:
            fail(where, f"footer {name}: ours {ours.get(name, (0, 0))} != oracle {counts}")
    for name in set(ours) - set(trailer["footer"]):
        fail(where, f"footer entry {name} unknown to the oracle")
    labels = [x for x in (p("perf_labels") or "").split(", ") if x]
    if labels != trailer["perf_labels"] or int(p("perf_count") or -1) != trailer.get("perf_count"):
        fail(where, f"perf labels {labels} != oracle {trailer['perf_labels']}")
    sizes = [int(x) for x in (p("datatype_sizes") or "").split()]
    want = [trailer["sizes"][i] for i in sorted(trailer["sizes"])]
    checked["sizes"] += len(want)
    if sizes != want or not want:
        fail(where, f"datatype sizes {sizes} != oracle {want}")


def of_rank(loc, rank):
    return loc == f"rank{rank}" or loc.startswith(f"rank{rank}/")


def rank_records(cli, rank, binfile, merged, merged_text, calls):
    """This rank's records in file order, and their text-dump lines.  The
    whole-trace dump is merged in time order, which is the file order
    unless threads interleave: then the rank's file is dumped alone."""
    records = [r for r in merged if of_rank(r["loc"], rank)]
    text = [l for l in merged_text if of_rank(l.split("  ")[1] if l.count("  ") >= 2 else "", rank)]
    if [r["type"] for r in records] == [c["type"] for c in calls] and len(text) == len(records):
        return records, text
    alone = [json.loads(l) for l in run(cli, "dump", "--jsonl", binfile).splitlines()]
    alone = [dict(r, loc=r["loc"].replace("rank0", f"rank{rank}", 1)) if rank else r for r in alone]
    if len(alone) != len(records):
        fail(binfile, "the whole-trace dump and the single-file dump disagree on the record count")
    return alone, run(cli, "dump", binfile).splitlines()


def check_fixture(cli, data, fixture, expected_oracles):
    d = os.path.join(data, "dumpi", fixture)
    if not os.path.isdir(d):
        fail(fixture, "fixture directory missing")
        return
    oracles = oracle_files(d)
    if len(oracles) != expected_oracles:
        fail(fixture, f"{len(oracles)} oracle texts, {expected_oracles} expected")
    # Every rank (with an oracle or not) must read clean, its records
    # matching its footer's counts: check exits 0 and reports nothing.
    out = subprocess.run([cli, "check", d], capture_output=True, text=True)
    if out.returncode != 0 or "0 errors, 0 warnings" not in out.stdout:
        fail(fixture, f"check: exit {out.returncode}: {out.stdout.strip()} {out.stderr.strip()[:300]}")
    merged = [json.loads(l) for l in run(cli, "dump", "--jsonl", d).splitlines()]
    merged_text = run(cli, "dump", d).splitlines()
    info = json.loads(run(cli, "info", "--json", "--locations", d) or "{}")
    props = info.get("properties", {})
    for rank, txt, binfile in oracles:
        where = f"{fixture}/{os.path.basename(txt)}"
        header, calls, trailer = parse_oracle(txt)
        records, text_lines = rank_records(cli, rank, binfile, merged, merged_text, calls)
        compare_calls(where, rank, records, calls, text_lines)
        compare_trailer(where, fixture, rank, props, header, trailer)


def main():
    cli, data = sys.argv[1], sys.argv[2]
    for fixture, n in FIXTURES.items():
        check_fixture(cli, data, fixture, n)
    print(f"checked {checked}")
    for f in failures[:60]:
        print("FAIL", f)
    # 729 calls are in the oracle texts (grep -c entering).
    if checked["calls"] < 729 or checked["args"] < 3000:
        print("FAIL too little was compared")
        failures.append("coverage")
    print(f"{0 if failures else 1} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
