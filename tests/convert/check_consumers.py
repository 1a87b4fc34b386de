#!/usr/bin/env python3
"""check_consumers.py CLI DATA EXAMPLES OUTDIR GEN — every fixture of every
format converted to Perfetto, Chrome JSON, Paraver, OTF2 and SQLite, each output
read under the rules of the program that opens it (each rule names the
upstream source file it comes from), plus what `stats` matches:

perfetto  (google/perfetto src/trace_processor)
  P1 importers/proto/track_event_parser.cc + importers/common/flow_tracker.cc:
     events are parsed in timestamp order; a terminating flow id that is not
     active yet is skipped.  Every flow is drawn, and for DUMPI every
     message `stats` matches is one drawn flow, but those convert reports
     as received before sent (unsynchronised clocks: nonblock4-cputime).
  P2 importers/common/slice_tracker.cc: a slice never ended stays open
     (dur -1): none is left open.
  P3 protos/perfetto/trace/track_event/counter_descriptor.proto: every
     counter track states its unit (unit or unit_name).
  P4 debug_annotation.proto + interned_data.proto: slices carry their
     record's fields as debug annotations whose name_iid is interned on
     the sequence (pftrace_walk); DUMPI calls show theirs.
  P5 importers/proto/track_event_tokenizer.cc (track descriptors, clock
     of the sequence) + slice_tracker.cc: the runtime states of an ovni
     trace (X.states.pftrace) keep P2 and P3 and pftrace_walk's rules, and
     every thread and CPU row of the Paraver states is a process there.
chrome    (src/trace_processor/importers/json/json_trace_parser_impl.cc)
  C1 "s" binds to the topmost open slice of its thread (FlowTracker::Begin
     on the thread track), "f" with "bp":"e" to the topmost open slice
     (FlowTracker::End, bind_enclosing_slice); events in timestamp order,
     file order on ties.  Every flow binds at both ends, starts first, and
     for DUMPI there is one per message of `stats`.
  C2 json_utils.cc: values are JSON numbers or strings; no null, NaN or
     infinity (json.loads with parse_constant refusing them).
  C3 timestamps count from the trace start, given as otherData.trace_start_ns.
  C4 json_trace_parser_impl.cc (phase 'X': a complete slice of ts and dur)
     + slice_tracker.cc (a slice that begins inside another on its track
     must end inside it): the runtime states of an ovni trace
     (X.states.json) are complete slices with dur >= 0 that never overlap
     on their (pid, tid) track, named (process_name, thread_name) by
     metadata events before them; and C2.
waits     the same rules P1-P4 and C1-C3 for `convert --waits` of every DUMPI
          fixture (MPI wait states as slices inside their calls).
paraver   (bsc-performance-tools/paraver-kernel utils/traceparser/)
  V1 processmodel.cpp: the header's application/task/thread counts;
     tracebodyio_v1.cpp validRecordLocation: application, task and thread
     are 1-based and exist; CPU <= the CPUs of the header (none: 0);
     readCommon/readComm: times >= 0, communication records of 15 fields
     whose remote location is valid too; readEvent: an event record is
     one or more whole type:value pairs after its time (it reads pairs to
     the line's end, one event each; the states join a row's changes at
     one time on one line).
  V2 a communication's logical and physical send come no later than its
     receive; for DUMPI one record per message of `stats`.
  V3 the runtime states of an ovni trace (convert --to paraver -o DIR):
     DIR/thread.prv and DIR/cpu.prv keep V1, and each .row file lists as
     many rows as its .prv header declares threads (processmodel.cpp,
     the RowFileParser of utils/traceparser/rowfileparser.h).
otf2      (libotf2 through otf2-print: OTF2_GlobalDefReader / OTF2_EvtReader)
  O1 otf2-print reads it without warning; every location's number_of_events
     (definitions) equals the events otf2-print reads for it, libotf2's own
     BufferFlush events included (checked on a DUMPI trace made by GEN,
     large enough for event buffers to be flushed while writing).
  O2 regions of MPI calls are paradigm MPI with a role other than FUNCTION
     for point-to-point and collective calls (Scalasca/Vampir classify by
     them); every MPI_RECV of a trace whose statuses give sizes has a length.
  O3 OTF2_Events.h request events: an MpiIrecv completes a request its
     location posted before (MpiIrecvRequest), an MpiIsendComplete a
     request of an earlier MpiIsend; a request is pending once.
sqlite    (sqlite3 column affinity)
  S1 INTEGER and REAL columns hold numbers (or NULL), TEXT columns text.
  S2 DUMPI: time per MPI function is one query on the view "spans" and
     equals `stats`."""
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovni_oracle  # noqa: E402
import pftrace_walk  # noqa: E402
from check_all_formats import fixtures, landed_formats  # noqa: E402

CLI, DATA, EXAMPLES, OUT, GEN = sys.argv[1:6]
failures = []


def fail(fx, rule, what):
    failures.append("%s: %s %s" % (fx, rule, what))


def convert(fx, out, *options):
    """Converts; the number of messages the summary says cannot be drawn
    (received before sent by unsynchronised clocks: no viewer draws a flow
    that ends before it starts)."""
    r = subprocess.run([CLI, "convert", fx, "-o", out, *options], capture_output=True, text=True)
    if r.returncode == 2 and "has no record with a time" in r.stderr and not os.path.exists(out):
        return None  # a profile without a trace: the timed targets refuse it (cli.single_answers)
    if r.returncode not in (0, 1):
        raise RuntimeError("convert %s -> %s: exit %d: %s" % (fx, out, r.returncode, r.stderr[-400:]))
    m = re.search(r"(\d+) messages received before they were sent", r.stderr)
    return int(m.group(1)) if m else 0


def stats_of(fx):
    r = subprocess.run([CLI, "stats", fx, "--json", "-q"], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode in (0, 1) and r.stdout.strip() else None


def check_perfetto(fx, path, messages):
    try:
        counts, _ = pftrace_walk.walk(path)
    except pftrace_walk.Problem as e:
        return fail(fx, "perfetto", str(e))
    if counts["flows_drawn"] != counts["flows"]:
        fail(fx, "P1", "%d of %d flows drawn" % (counts["flows_drawn"], counts["flows"]))
    if messages is not None and counts["flows_drawn"] != messages:
        fail(fx, "P1", "%d flows drawn, stats matches %d messages" % (counts["flows_drawn"], messages))
    if counts["open_at_end"]:
        fail(fx, "P2", "%d slices left open" % counts["open_at_end"])
    if messages is not None and counts["begin"] and not counts["annotations"]:
        fail(fx, "P4", "no debug annotations")
    if counts["counters_without_unit"]:
        fail(fx, "P3", "%d counter tracks without a unit" % counts["counters_without_unit"])


def refuse_constant(name):
    raise ValueError("not a JSON number: " + name)


def has_null(v):
    if v is None:
        return True
    if isinstance(v, dict):
        return any(has_null(x) for x in v.values())
    if isinstance(v, list):
        return any(has_null(x) for x in v)
    return False


def check_chrome(fx, path, messages):
    try:
        doc = json.load(open(path), parse_constant=refuse_constant)
    except ValueError as e:
        return fail(fx, "C2", str(e))
    if not isinstance(doc.get("otherData", {}).get("trace_start_ns"), int):
        fail(fx, "C3", "no otherData.trace_start_ns")
    timed = []
    for i, e in enumerate(doc["traceEvents"]):
        if "args" in e and has_null(e["args"]):
            return fail(fx, "C2", "a null value in %s" % e)
        if e["ph"] != "M":
            timed.append((e["ts"], i, e))
    stacks = {}
    begun, started_at, drawn = {}, {}, 0
    for ts, _, e in sorted(timed, key=lambda x: (x[0], x[1])):
        key = (e["pid"], e.get("tid"))
        st = stacks.setdefault(key, [])
        ph = e["ph"]
        if ph == "B":
            st.append(e["name"])
        elif ph == "E" and st:
            st.pop()
        elif ph == "s":
            if not st:
                return fail(fx, "C1", "flow start %s outside any slice" % e["id"])
            begun[e["id"]] = ts
        elif ph == "f":
            if e.get("bp") != "e" or not st:
                return fail(fx, "C1", "flow end %s not bound to an open slice" % e["id"])
            if e["id"] not in begun:
                return fail(fx, "C1", "flow %s ends before it starts" % e["id"])
            started_at[e["id"]] = begun.pop(e["id"])
            drawn += 1
    if begun:
        fail(fx, "C1", "%d flows without an end" % len(begun))
    if messages is not None and drawn != messages:
        fail(fx, "C1", "%d flows drawn, stats matches %d messages" % (drawn, messages))


def paraver_header(line):
    """(CPUs, [threads per task]) of '#Paraver (date):time_ns:nodes:appls:tasks(threads:node,...)'."""
    rest = line.split("):", 1)[1]
    ftime, nodes, appls, tasks = rest.split(":", 3)
    cpus = 0
    if nodes != "0":
        cpus = sum(int(c) for c in nodes.split("(", 1)[1].rstrip(")").split(","))
    if appls != "1":
        raise ValueError("%s applications" % appls)
    n, body = tasks.split("(", 1)
    threads = [int(t.split(":")[0]) for t in body.split(")")[0].split(",")]
    if int(n) != len(threads):
        raise ValueError("task count %s, %d listed" % (n, len(threads)))
    return int(ftime.split("_")[0]), cpus, threads


def check_paraver(fx, path, messages):
    with open(path) as f:
        try:
            ftime, cpus, threads = paraver_header(f.readline())
        except (ValueError, IndexError) as e:
            return fail(fx, "V1", "header: %s" % e)

        def valid(cpu, appl, task, thread):
            return cpu <= cpus and appl == 1 and 1 <= task <= len(threads) and 1 <= thread <= threads[task - 1]

        comms = 0
        for n, line in enumerate(f, 2):
            p = [int(x) for x in line.rstrip("\n").split(":")]
            if not valid(*p[1:5]) or p[5] < 0 or p[5] > ftime:
                return fail(fx, "V1", "line %d: %s" % (n, line.strip()))
            if p[0] == 2 and (len(p) < 8 or (len(p) - 6) % 2):
                return fail(fx, "V1", "line %d: not whole type:value pairs: %s" % (n, line.strip()))
            if p[0] == 3:
                if len(p) != 15 or not valid(*p[7:11]) or min(p[5], p[6], p[11], p[12]) < 0:
                    return fail(fx, "V1", "line %d: %s" % (n, line.strip()))
                if p[5] > p[11] or p[6] > p[12]:
                    return fail(fx, "V2", "line %d: received before sent: %s" % (n, line.strip()))
                comms += 1
    if messages is not None and comms != messages:
        fail(fx, "V2", "%d communication records, stats matches %d messages" % (comms, messages))


MPI_P2P_OR_COLL = re.compile(r"MPI_(I?[BSR]?send|I?recv|Sendrecv|Wait|Test|Barrier|Bcast|.*gather|.*scatter|"
                             r"Alltoall|.*reduce|Reduce|Scan|Exscan)", re.I)


def check_otf2(fx, archive, sizes_known, mpi_regions=True):
    """mpi_regions: O2 applies.  An OTF2 input's MPI event types (MPI_SEND,
    MPI_RECV... as otf2-print names them) are records of their own, written
    back as regions of those names: not MPI calls, so O2 does not judge them."""
    anchor = os.path.join(archive, "traces.otf2")
    r = subprocess.run(["otf2-print", anchor], capture_output=True, text=True)
    g = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True)
    if r.returncode or g.returncode or "warning" in r.stderr + g.stderr:
        return fail(fx, "O1", "otf2-print: " + (r.stderr + g.stderr)[:300])
    read, pending = {}, set()
    for line in r.stdout.splitlines():
        m = re.match(r"^([A-Z_]+)\s+(\d+)\s+\d+", line)
        if m:
            read[int(m.group(2))] = read.get(int(m.group(2)), 0) + 1
            req = re.search(r"Request: (\d+)", line)
            key = (m.group(2), m.group(1) in ("MPI_ISEND", "MPI_ISEND_COMPLETE"), req and req.group(1))
            if m.group(1) in ("MPI_ISEND", "MPI_IRECV_REQUEST"):
                if key in pending:
                    return fail(fx, "O3", "request posted twice: " + line)
                pending.add(key)
            elif m.group(1) in ("MPI_ISEND_COMPLETE", "MPI_IRECV"):
                if key not in pending:
                    return fail(fx, "O3", "completes no pending request: " + line)
                pending.discard(key)
            if m.group(1) == "MPI_RECV" and sizes_known and "Length: 0" in line:
                return fail(fx, "O2", "a receive without its length: " + line)
    for line in g.stdout.splitlines():
        m = re.match(r"^LOCATION\s+(\d+)\s.*# Events: (\d+)", line)
        if m and int(m.group(2)) != read.get(int(m.group(1)), 0):
            return fail(fx, "O1", "location %s defines %s events, %d read" % (m.group(1), m.group(2),
                                                                          read.get(int(m.group(1)), 0)))
        m = re.match(r'^REGION\s+\d+\s+Name: "([^"]*)".*Role: (\w+), Paradigm: (\w+)', line)
        if m and mpi_regions and m.group(1).startswith("MPI_"):
            if m.group(3) != "MPI" or (MPI_P2P_OR_COLL.match(m.group(1)) and m.group(2) == "FUNCTION"):
                return fail(fx, "O2", "region %s: role %s, paradigm %s" % m.groups())


NUMERIC = {"integer", "real", "null"}
ALLOWED = {"INTEGER": NUMERIC, "REAL": NUMERIC, "TEXT": {"text", "null"}, "BLOB": {"blob", "null"}}


def check_sqlite(fx, path, stats):
    con = sqlite3.connect(path)
    for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        q = table.replace('"', '""')
        for col in con.execute('PRAGMA table_info("%s")' % q).fetchall():
            name, decl = col[1].replace('"', '""'), col[2].upper()
            want = ALLOWED.get(decl)
            if want is None:
                return fail(fx, "S1", "%s.%s declares no type" % (table, col[1]))
            for (ty,) in con.execute('SELECT DISTINCT typeof("%s") FROM "%s"' % (name, q)):
                if ty not in want:
                    return fail(fx, "S1", "%s.%s (%s) holds %s" % (table, col[1], decl, ty))
    if stats is None:
        return
    rows = con.execute("SELECT s.text, l.id, total(dur) FROM spans JOIN strings s ON s.id = spans.type"
                       " JOIN locations l ON l.loc = spans.loc GROUP BY 1, 2").fetchall()
    per_function = {}
    for function, _, dur in rows:
        per_function[function] = per_function.get(function, 0) + dur / 1e9
    for f in stats["functions"]:
        got = per_function.get(f["function"], 0)
        if not math.isclose(got, f["time_s"], rel_tol=1e-6, abs_tol=1e-9):
            fail(fx, "S2", "%s: %g s in SQL, stats %g s" % (f["function"], got, f["time_s"]))


def check_chrome_states(fx, path):
    try:
        doc = json.load(open(path), parse_constant=refuse_constant)
    except ValueError as e:
        return fail(fx, "C2", str(e))
    named, end = set(), {}
    for e in doc["traceEvents"]:
        if "args" in e and has_null(e["args"]):
            return fail(fx, "C2", "a null value in %s" % e)
        key = (e["pid"], e.get("tid"))
        if e["ph"] == "M":
            named.add((e["name"], key))
            continue
        if e["ph"] != "X" or e["dur"] < 0:
            return fail(fx, "C4", "not a complete slice: %s" % e)
        if ("process_name", (e["pid"], None)) not in named or ("thread_name", key) not in named:
            return fail(fx, "C4", "a slice on a track not named before it: %s" % e)
        ts_ns = round(e["ts"] * 1000)  # µs with 3 decimals: whole ns
        if ts_ns < end.get(key, 0):
            return fail(fx, "C4", "slices overlap on %s at %s" % (key, e["ts"]))
        end[key] = ts_ns + round(e["dur"] * 1000)


def check_paraver_states(fx, d):
    rows = {}
    for view in ("thread", "cpu"):
        check_paraver(fx, os.path.join(d, view + ".prv"), None)
        with open(os.path.join(d, view + ".prv")) as f:
            declared = paraver_header(f.readline())[2][0]
        with open(os.path.join(d, view + ".row")) as f:
            listed = f.read().split("LEVEL THREAD SIZE ")[1].splitlines()
        if int(listed[0]) != declared or len(listed) - 1 != declared:
            fail(fx, "V3", "%s.row lists %d rows, the .prv declares %d" % (view, len(listed) - 1, declared))
        rows[view] = declared
    return rows


def check_states(fx, base):
    """The runtime states, where an emulator replays the trace (ovni)."""
    convert(fx, base + ".states", "--to", "paraver")
    if not os.path.isdir(base + ".states"):
        return  # the emulator refuses this trace (check says why)
    rows = check_paraver_states(fx, base + ".states")
    convert(fx, base + ".states.json")
    check_chrome_states(fx, base + ".states.json")
    convert(fx, base + ".states.pftrace")
    check_perfetto(fx, base + ".states.pftrace", None)
    try:
        counts, _ = pftrace_walk.walk(base + ".states.pftrace")
    except pftrace_walk.Problem:
        return
    if counts["process_tracks"] != rows["thread"] + rows["cpu"]:
        fail(fx, "P5", "%d processes for %d rows" % (counts["process_tracks"], rows["thread"] + rows["cpu"]))


def check_fixture(fmt, fx, base):
    stats = stats_of(fx) if fmt == "dumpi" else None
    messages = stats["point_to_point"]["messages"] if stats else None
    for ext, check in ((".pftrace", check_perfetto), (".json", check_chrome), (".prv", check_paraver)):
        backwards = convert(fx, base + ext)
        if backwards is None:
            continue
        check(fx, base + ext, None if messages is None else messages - backwards)
    if fmt == "dumpi":
        for ext, check in ((".pftrace", check_perfetto), (".json", check_chrome)):
            backwards = convert(fx, base + ".waits" + ext, "--waits", "--allow-loss")
            if backwards is None:
                continue  # refused (a trace without clocks), as the plain convert was
            check(fx + " --waits", base + ".waits" + ext, None if messages is None else messages - backwards)
    if fmt == "ovni":
        check_states(fx, base)
    convert(fx, base + ".sqlite")
    check_sqlite(fx, base + ".sqlite", stats)
    if convert(fx, base + ".otf2") is not None:
        check_otf2(fx, base + ".otf2", fmt == "dumpi" and "nostatus" not in fx, fmt != "otf2")


def ovni_fixtures():
    """The ovni fixtures (their ovni/ trace roots) and the ovni example."""
    roots = [os.path.join(fx, "ovni") for fx in ovni_oracle.fixtures(DATA)]
    example = os.path.join(EXAMPLES, "ovni")
    return roots + [os.path.join(example, d) for d in sorted(os.listdir(example))
                    if os.path.isdir(os.path.join(example, d))]


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    n = 0
    for fmt in landed_formats():
        fxs = ovni_fixtures() if fmt == "ovni" else fixtures(fmt)
        for i, fx in enumerate(fxs):
            check_fixture(fmt, fx, os.path.join(OUT, "%s-%d" % (fmt, i)))
            n += 1
    big = os.path.join(OUT, "generated")
    os.makedirs(big)
    subprocess.run([GEN, big, "2", "30000"], check=True, capture_output=True)
    convert(big, big + ".otf2")
    check_otf2(big, big + ".otf2", True)
    for f in failures:
        print("FAIL", f)
    print("%d fixtures x 5 targets (and DUMPI --waits, ovni states) read under the consumers' rules, "
          "%d violations" % (n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
