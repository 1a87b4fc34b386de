"""target_checks.py — checks of converted outputs with the targets' own
rules and tools, shared by the fixture and the synthetic tests."""
import collections
import os
import re
import subprocess


def chrome_nesting(doc):
    """(problem or None, number of B/E/i/C events): B/E nest per (pid, tid)
    with times that never go back; every flow has both ends."""
    stacks = collections.defaultdict(list)
    last = {}
    flows = collections.defaultdict(set)
    events = 0
    for e in doc["traceEvents"]:
        ph = e["ph"]
        key = (e["pid"], e.get("tid"))
        if ph in "BEiC":
            events += 1
        if ph in "BE":  # slices need order; instants may go back (ovni unordered regions)
            if e["ts"] < last.get(key, float("-inf")):
                return "time goes back on %s" % (key,), events
            last[key] = e["ts"]
        if ph == "B":
            stacks[key].append(e["name"])
        elif ph == "E":
            if not stacks[key]:
                return "E with no open B on %s" % (key,), events
            stacks[key].pop()
        elif ph in "sf":
            flows[e["id"]].add(ph)
    if any(v != {"s", "f"} for v in flows.values()):
        return "a flow with one end", events
    return None, events


def otf2_events(archive_dir):
    """(problem, Counter of event kinds, locations) from otf2-print of
    <dir>/traces.otf2; a problem when otf2-print fails or warns."""
    anchor = os.path.join(archive_dir, "traces.otf2")
    r = subprocess.run(["otf2-print", anchor], capture_output=True, text=True)
    if r.returncode != 0 or "warning" in r.stderr:
        return "otf2-print: " + r.stderr[:300], None, 0
    kinds = collections.Counter()
    for line in r.stdout.splitlines():
        m = re.match(r"^([A-Z_]+)\s+\d+\s+\d+", line)
        if m:
            kinds[m.group(1)] += 1
    g = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True)
    locations = sum(1 for line in g.stdout.splitlines() if line.startswith("LOCATION "))
    return None, kinds, locations


def otf2_matches(kinds, walk_counts):
    """Does the OTF2 event mix equal the Perfetto one?  Slices are
    Enter/Leave, an instant both at one time, a sample one Metric, and a
    matched message (a Perfetto flow) one MpiSend and one MpiRecv.  MPI
    collective events have no Perfetto counterpart: check_dumpi_otf2.py
    checks them against the DUMPI oracle texts."""
    kinds = collections.Counter({k: n for k, n in kinds.items()
                                 if not k.startswith("MPI_COLLECTIVE_") and not k.endswith(("_REQUEST", "_COMPLETE"))})
    for nonblocking in ("MPI_ISEND", "MPI_IRECV"):  # a message either way; the request events aside
        kinds[nonblocking.replace("_I", "_")] += kinds.pop(nonblocking, 0)
    want = collections.Counter({
        "ENTER": walk_counts["begin"] + walk_counts["instant"],
        "LEAVE": walk_counts["end"] + walk_counts["instant"],
        "METRIC": walk_counts["counter"],
        "MPI_SEND": walk_counts["flows"],
        "MPI_RECV": walk_counts["flows"]})
    want = +want
    return kinds == want, want


def paraver_check(prv):
    """(problem, records): .prv event and communication lines sorted by
    time, and every event type and value in it labelled in the .pcf;
    records counts the event records (communications: paraver_comms)."""
    base = prv[:-4]
    pcf = open(base + ".pcf").read()
    if not os.path.exists(base + ".row"):
        return "no .row file", 0
    labelled_types, labelled_values = set(), set()
    cur = None
    section = None
    for line in pcf.splitlines():
        if line.startswith("EVENT_TYPE"):
            section = "types"
            continue
        if line.startswith("VALUES"):
            section = "values"
            continue
        if not line.strip():
            section = None
            continue
        tok = line.split()
        if section == "types" and len(tok) >= 3:
            cur = int(tok[1])
            labelled_types.add(cur)
        elif section == "values" and tok and tok[0].isdigit():
            labelled_values.add((cur, int(tok[0])))
    last = -1
    records = 0
    with open(prv) as f:
        header = f.readline()
        if not header.startswith("#Paraver"):
            return "no #Paraver header", 0
        for line in f:
            p = line.rstrip("\n").split(":")
            t = int(p[5])
            if t < last:
                return "records not sorted by time", records
            last = t
            if p[0] == "2":
                pairs = p[6:]
                for i in range(0, len(pairs), 2):
                    ty, v = int(pairs[i]), int(pairs[i + 1])
                    if ty not in labelled_types:
                        return "event type %d without a label" % ty, records
                    if (ty, v) not in labelled_values and v != 0 and ty < 90000000:
                        return "value %d of type %d without a label" % (v, ty), records
                    records += 1
            elif p[0] == "3" and len(p) != 15:
                return "a communication record without 15 fields", records
    return None, records


def paraver_comms(prv):
    """The communication records of a .prv: (send task, send thread, recv
    task, recv thread, size, tag) per line."""
    comms = []
    with open(prv) as f:
        f.readline()
        for line in f:
            p = line.rstrip("\n").split(":")
            if p[0] == "3":
                comms.append((int(p[3]), int(p[4]), int(p[9]), int(p[10]), int(p[13]), int(p[14])))
    return comms
