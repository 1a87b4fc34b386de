#!/usr/bin/env python3
"""check_synthetic.py DIR — checks the synth.* outputs test_synthetic wrote
against what its hand-made dataset must give (worked out from the record
table in test_synthetic.c, not taken from our output):
  slices  2 phases (BEGIN/END) + 13 MPI spans = 15 begins and 15 ends
  instants  "mark", "solver" (a "region" named by its field), the END with
            nothing open, lp_send, lp_recv = 5
  counters  3 power samples x 2 fields (watts in W, temp in C) = 6
  flows  Send->Recv, Isend->Recv, Send->Wait (via the Irecv's request),
         lp_send->lp_recv, Send->Waitall (a wildcard Irecv resolved by the
         Waitall's status), and the two messages of the Sendrecv pair = 7,
         all with both ends; the send to MPI_PROC_NULL makes none
  overlap  the Irecv overlaps the Isend on t0: one child lane track
  tables  27 records: 2 phase begins, 3 phase ends, ... every record."""
import collections
import csv
import gzip
import json
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pftrace_walk  # noqa: E402
import target_checks  # noqa: E402

D = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def expect(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


WALK = {"begin": 15, "end": 15, "instant": 5, "counter": 6, "open_at_end": 0, "flows": 7, "flows_one_end": 0}
PER_TABLE = {"phase": 2, "phase_1": 3, "MPI_Send": 4, "MPI_Recv": 2, "MPI_Isend": 1, "MPI_Irecv": 2,
             "MPI_Wait": 1, "power": 3, "mark": 1, "lp_send": 1, "lp_recv": 1, "profile": 1, "untimed": 1,
             "MPI_Waitall": 1, "MPI_Sendrecv": 2, "region": 1}

# Perfetto
pf = os.path.join(D, "synth.pftrace")
r = subprocess.run(["protoc", "--decode=pwtest.Trace", "-I", HERE, os.path.join(HERE, "perfetto.proto")],
                   stdin=open(pf, "rb"), capture_output=True, text=True)
expect("protoc exit", r.returncode, 0)
expect("protoc unit_name W", 'unit_name: "W"' in r.stdout, True)
try:
    counts, names = pftrace_walk.walk(pf)
    for k, v in WALK.items():
        expect("perfetto " + k, counts[k], v)
    expect("perfetto child (lane) tracks", counts["child_tracks"], 1)
    expect("perfetto counter tracks", counts["counter_tracks"], 2)
    expect("perfetto MPI_Send slices", names["MPI_Send"], 4)
    expect("perfetto phase names (2 begins + the unmatched end)", names["phase"], 3)
    expect("perfetto names from a name field", (names["solver"], names["region"]), (1, 0))
except pftrace_walk.Problem as e:
    failures.append("perfetto: %s" % e)

# Chrome JSON, plain and gzip
for name in ("synth.json", "synth.json.gz"):
    p = os.path.join(D, name)
    doc = json.load(gzip.open(p) if name.endswith(".gz") else open(p))
    problem, events = target_checks.chrome_nesting(doc)
    expect(name + " nesting", problem, None)
    expect(name + " events", events, 15 + 15 + 5 + 6)
    ph = collections.Counter(e["ph"] for e in doc["traceEvents"])
    expect(name + " flow starts", ph["s"], 7)
    expect(name + " flow ends", ph["f"], 7)
    mark = [e for e in doc["traceEvents"] if e.get("name") == "mark"]
    expect(name + " mark args", [e.get("args") for e in mark], [{"label": 'hello, "world"'}])
    sends = [e["args"] for e in doc["traceEvents"] if e.get("name") == "MPI_Send" and e["ph"] == "B"]
    expect(name + " MPI_Send args", sends[:2], [{"end": 35, "dest": 1, "tag": 5, "comm": 0},
                                                {"end": 140, "dest": 0, "tag": 9, "comm": 0}])
    lp = [e for e in doc["traceEvents"] if e.get("name") == "lp_recv"]
    expect(name + " virtual time 0.75 drawn as 750 ns", [e["ts"] for e in lp], [0.75])

# OTF2
problem, kinds, nloc = target_checks.otf2_events(os.path.join(D, "synth.otf2"))
expect("otf2 problem", problem, None)
if kinds is not None:
    # 7 matched messages: each a send and a receive record
    # the Isend (request 77) is never waited for; the Irecvs (78, ...) are
    expect("otf2 events", dict(kinds), {"ENTER": 20, "LEAVE": 20, "METRIC": 6, "MPI_SEND": 6, "MPI_ISEND": 1,
                                        "MPI_RECV": 5, "MPI_IRECV_REQUEST": 2, "MPI_IRECV": 2})
    # t0 + its lane, t1, gpu0, lp.0, lp.1
    expect("otf2 locations", nloc, 6)
    g = subprocess.run(["otf2-print", "-G", os.path.join(D, "synth.otf2", "traces.otf2")],
                       capture_output=True, text=True).stdout
    ranks = [line for line in g.splitlines() if line.startswith("GROUP") and "COMM_LOCATIONS" in line]
    expect("otf2 MPI ranks are the threads of rank.0 and rank.1",
           len(ranks) == 1 and '"t0"' in ranks[0] and '"t1"' in ranks[0] and "2 Members" in ranks[0], True)

# Paraver
problem, records = target_checks.paraver_check(os.path.join(D, "synth.prv"))
expect("paraver problem", problem, None)
expect("paraver records", records, 41)
expect("paraver communications", len(target_checks.paraver_comms(os.path.join(D, "synth.prv"))), 7)

# SQLite: counts per table, and the strings and locations tables
con = sqlite3.connect(os.path.join(D, "synth.sqlite"))
got = dict(con.execute("SELECT table_name, rows FROM record_types"))
expect("sqlite record_types", got, PER_TABLE)
for t, n in PER_TABLE.items():
    expect("sqlite count(*) " + t, con.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0], n)
expect("sqlite watts in time order", [r[0] for r in con.execute('SELECT watts FROM power ORDER BY t')],
       [1.5, 2.25, 3.0])
expect("sqlite virtual time", con.execute("SELECT t FROM lp_recv").fetchone()[0], 0.75)
expect("sqlite untimed has no t", con.execute("SELECT t FROM untimed").fetchone()[0], None)
expect("sqlite mark label", con.execute(
    "SELECT m.label, s.text FROM mark m JOIN strings s ON s.id = m.type").fetchone(), ('hello, "world"', "mark"))
expect("sqlite lists and objects as text", con.execute("SELECT requests, statuses FROM MPI_Waitall").fetchone(),
       ("[90]", "[{source=1;tag=11}]"))
expect("sqlite locations", con.execute("SELECT count(*) FROM locations").fetchone()[0], 8)
expect("sqlite metadata", con.execute("SELECT value FROM metadata WHERE key='made.by'").fetchone()[0],
       "test_synthetic")
expect("sqlite index on t", con.execute(
    "SELECT count(*) FROM sqlite_master WHERE type='index' AND name='power_t'").fetchone()[0], 1)

# CSV
cd = os.path.join(D, "synth.csv.d")
rows = {}
for t in PER_TABLE:
    with open(os.path.join(cd, t + ".csv"), newline="") as f:
        rows[t] = list(csv.DictReader(f))
expect("csv rows", {t: len(v) for t, v in rows.items()}, PER_TABLE)
expect("csv quoted label", rows["mark"][0]["label"], 'hello, "world"')
expect("csv MPI_Isend columns", list(rows["MPI_Isend"][0].keys()),
       ["loc", "t", "type", "end", "dest", "tag", "comm", "request"])

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
