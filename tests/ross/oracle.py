#!/usr/bin/env python3
"""oracle.py CLI DATA — every ROSS fixture against its expected CSVs.

For every .bin file under DATA/ross, `perfweave dump --jsonl FILE` must yield
exactly the records of the expected CSVs beside it (one CSV per record kind,
file order), with every field equal (doubles compared exactly; uninitialised
bytes excepted, ross-facts.md section 9), record counts equal to the
summary.json, and `check` must pass.  Then each run directory opened as one
dataset must yield the sum of its files' records.  A missing fixture fails.
"""
import csv, io, json, math, os, subprocess, sys

CLI, DATA = sys.argv[1], os.path.join(sys.argv[2], "ross")
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = ["--ross-model-schema", os.path.join(HERE, "known-model.schema"),
           "--ross-event-schema", os.path.join(HERE, "known-event.schema")]
RUNS = ["phold-np2-gvt-pekp", "phold-np2-rt-pekp", "phold-np2-evtrace-full", "phold-np2-model",
        "known-np1-seq", "known-np4-gvt-model-evtrace", "known-np2-vt"]
# Record counts from ross-facts.md / shared/data/README.md (ROSS table).
FACT_COUNTS = {
    "phold-np2-gvt-pekp-gvt": {"pe": 258, "kp": 4128},
    "phold-np2-rt-pekp-rt": {"pe": 815, "kp": 13040},
    "phold-np2-evtrace-full-evtrace": {"evtrace": 11903},
    "phold-np2-model-model": {"model": 2760},
    "phold-np2-model-analysis-lps": {},
    "known-np1-seq-evtrace": {"evtrace": 80216},
    "known-np1-seq-model": {"model": 432},
    "known-np1-seq-analysis-lps": {"vt-model": 72},
    "known-np4-gvt-model-evtrace-gvt": {"pe": 268, "kp": 1072, "lp": 2144},
    "known-np4-gvt-model-evtrace-model": {"model": 2144},
    "known-np4-gvt-model-evtrace-evtrace": {"evtrace": 32129},
    "known-np2-vt-analysis-lps": {"vt-model": 144, "vt-pe": 1220},
    "known-np2-vt-model": {},
}
# CSV columns that are uninitialised bytes, or the payload of a model that
# writes none (PHOLD): never compared.
GARBAGE = {"process_event_cycles", "real_time_unset", "payload_hex"}
# CSV column -> JSON key, where they differ.
RENAME = {"ts": "t", "lp_now": "t"}

failures = []
checks = 0


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(args):
    return subprocess.run([CLI] + args, capture_output=True, text=True)


def read_csv(path):
    if path.endswith(".zst"):
        text = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True, text=True).stdout
    else:
        with open(path) as f:
            text = f.read()
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def expected_kinds(stem, directory):
    """kind -> (header, rows) for the CSVs of one .bin file."""
    out = {}
    pre = stem + "-expected-"
    for name in sorted(os.listdir(directory)):
        if name.startswith(pre):
            kind = name[len(pre):].split(".")[0]
            out[kind] = read_csv(os.path.join(directory, name))
    return out


def loc_of(rec):
    t = rec["type"].replace("vt-", "")
    if t == "pe":
        return "pe%d" % rec["peid"]
    if t == "kp":
        return "pe%d/kp%d" % (rec["peid"], rec["kpid"])
    if t in ("lp", "model"):
        return "pe%d/kp%d/lp%d" % (rec["peid"], rec["kpid"], rec["lpid"])
    return None


def same(col, want, got):
    """Exact comparison of one CSV cell with one JSON value."""
    if want == "":
        return got is None
    try:
        w = int(want)
        return isinstance(got, int) and not isinstance(got, bool) and got == w
    except ValueError:
        w = float(want)
    if not math.isfinite(w):
        return got is None  # JSON has no inf/nan: the sink writes null
    return isinstance(got, (int, float)) and not isinstance(got, bool) and float(got) == w


def record_time(rec):
    if "t" in rec:
        return rec["t"]
    if rec.get("final_sample"):
        return 1.7976931348623157e308
    return None


def group(records, key):
    g = {}
    for r in records:
        g.setdefault(key(r), []).append(r)
    return g


def compare_kind(label, kind, header, rows, got):
    """Rows of one kind against our records of that type, per PE in order
    (the merge orders PEs by time; each PE's records keep file order)."""
    global checks
    peid_col = "peid" if "peid" in header else None
    ours = group(got, lambda r: r.get("peid") if peid_col else 0)
    want = group([dict(zip(header, row)) for row in rows],
                 lambda r: int(r[peid_col]) if peid_col else 0)
    if sorted(ours) != sorted(want):
        fail("%s %s: PEs %s expected, got %s" % (label, kind, sorted(want), sorted(ours)))
        return
    for pe in want:
        if len(want[pe]) != len(ours[pe]):
            fail("%s %s pe %s: %d records expected, got %d" % (label, kind, pe, len(want[pe]), len(ours[pe])))
            continue
        for i, (w, g) in enumerate(zip(want[pe], ours[pe])):
            expected_loc = loc_of(g)
            if expected_loc and g["loc"] != expected_loc:
                fail("%s %s #%d: loc %s expected, got %s" % (label, kind, i, expected_loc, g["loc"]))
            for col, cell in w.items():
                if col in GARBAGE:
                    continue
                key = RENAME.get(col, col)
                val = record_time(g) if key == "t" else g.get(key)
                checks += 1
                if not same(col, cell, val):
                    fail("%s %s pe %s #%d: %s = %s expected, got %r" % (label, kind, pe, i, col, cell, val))
                    return


def check_file(directory, name):
    stem = name[:-4]
    label = stem
    res = run(["dump", "--jsonl", os.path.join(directory, name)] + SCHEMAS)
    if res.returncode != 0:
        fail("%s: dump exit %d: %s" % (label, res.returncode, res.stderr.strip()))
        return 0
    recs = [json.loads(line) for line in res.stdout.splitlines()]
    by_type = group(recs, lambda r: r["type"])
    kinds = expected_kinds(stem, directory)
    with open(os.path.join(directory, stem + ".summary.json")) as f:
        summary = json.load(f)
    for kind, (header, rows) in kinds.items():
        compare_kind(label, kind, header, rows, by_type.get(kind, []))
    for t in by_type:
        if t not in kinds:
            fail("%s: %d records of type %s, which the oracle has none of" % (label, len(by_type[t]), t))
    counts = {t: len(v) for t, v in by_type.items()}
    if counts != FACT_COUNTS[stem]:
        fail("%s: counts %s expected (ross-facts.md), got %s" % (label, FACT_COUNTS[stem], counts))
    for key, s in summary.items():
        if isinstance(s, dict) and "n" in s:
            t = key.replace("_", "-")
            if counts.get(t, 0) != s["n"]:
                fail("%s: summary.json %s n=%d, got %d" % (label, key, s["n"], counts.get(t, 0)))
    res = run(["check", os.path.join(directory, name)])
    if res.returncode != 0:
        fail("%s: check exit %d: %s" % (label, res.returncode, res.stderr.strip()))
    return len(recs)


def main():
    seen = 0
    for r in RUNS:
        d = os.path.join(DATA, r)
        if not os.path.isdir(d):
            fail("missing fixture directory " + d)
            continue
        total = 0
        for name in sorted(os.listdir(d)):
            if name.endswith(".bin"):
                total += check_file(d, name)
                seen += 1
        res = run(["dump", "--jsonl", d] + SCHEMAS)
        n = len(res.stdout.splitlines())
        if res.returncode != 0 or n != total:
            fail("%s as a directory: %d records expected, got %d (exit %d)" % (r, total, n, res.returncode))
    if seen != len(FACT_COUNTS):
        fail("%d .bin fixtures expected, found %d" % (len(FACT_COUNTS), seen))
    print("%d field values compared; %d passed, %d failed" % (checks, checks - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


main()
