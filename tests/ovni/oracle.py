#!/usr/bin/env python3
"""Oracle test: perfweave's ovni reading equals ovnidump's, stream by stream.

For every ovni trace under <shared>/ovni, the ovnidump output beside it (made
by the ovnidump of the same libovni version that wrote the trace) is parsed
into per-stream sequences of (clock, MCV, payload bytes), and compared with
`perfweave dump --jsonl`.  Streams are compared separately because ovnidump
breaks clock ties between streams arbitrarily.  Also checked: the merged
output is in clock order, `perfweave check` gives exactly the findings the
fixture holds, and decoded fields agree with ovnidump's descriptions.

usage: oracle.py PERFWEAVE SHARED_DATA_DIR
"""
import json
import os
import re
import subprocess
import sys

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def read_oracle(path):
    """Text of an oracle file, decompressing .zst with the zstd tool."""
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    if os.path.exists(path + ".zst"):
        out = subprocess.run(["zstd", "-dc", path + ".zst"], check=True, capture_output=True)
        return out.stdout.decode("utf-8", errors="surrogateescape")
    return None


def hexbytes(text):
    """':0e:00:ff' -> bytes; '' -> b''."""
    text = text.strip()
    if not text:
        return b""
    if not text.startswith(":"):
        raise ValueError("payload hex expected, found %r" % text[:40])
    return bytes(int(h, 16) for h in text[1:].split(":"))


def stream_key_from_relpath(rel):
    """'loom.A/proc.1/thread.2.obs' or '.../thread.2' -> 'loom.A/proc.1/thread.2'."""
    if rel.endswith(".obs"):
        rel = rel[:-4]
    return rel


def parse_oracle(text, style):
    """Per stream key: list of (clock, mcv, payload bytes) in file order."""
    streams = {}
    for line in text.splitlines():
        if not line:
            continue
        if style == "1.0.0":
            # <loom>.<pid>.<tid>  <clock>  <MCV>[ :hh...]
            m = re.match(r"^(\S+)\.(\d+)\.(\d+)  (\d+)  (...)(?: (:.*))?$", line)
            if not m:
                raise ValueError("unparsed 1.0.0 line: %r" % line)
            key = "loom.%s/proc.%s/thread.%s" % (m.group(1), m.group(2), m.group(3))
            item = (int(m.group(4)), m.group(5), hexbytes(m.group(6) or ""))
        elif style == "1.4.1":
            # <relpath>  <clock>  <delta>  <MCV>[ :hh...]
            m = re.match(r"^(\S+)  +(\d+)  +([+-]\d+)  (...)(?: (:.*))?$", line)
            if not m:
                raise ValueError("unparsed 1.4.1 line: %r" % line)
            key = stream_key_from_relpath(m.group(1))
            item = (int(m.group(2)), m.group(4), hexbytes(m.group(5) or ""))
        else:
            # -x: <clock>  <MCV>  <relpath>  <hex or empty>
            m = re.match(r"^ *(\d+)  (...)  (\S+)  (.*)$", line)
            if not m:
                raise ValueError("unparsed -x line: %r" % line)
            key = stream_key_from_relpath(m.group(3))
            item = (int(m.group(1)), m.group(2), hexbytes(m.group(4)))
        streams.setdefault(key, []).append(item)
    return streams


def run(cmd):
    return subprocess.run(cmd, capture_output=True)


def perfweave_streams(pw, trace):
    """Per location: list of (t, type, payload bytes); plus the records."""
    out = run([pw, "dump", trace, "--jsonl", "-q"])
    if out.returncode not in (0, 1):
        fail("%s: dump exited %d: %s" % (trace, out.returncode, out.stderr.decode()[-500:]))
    streams, records = {}, []
    for line in out.stdout.decode("utf-8", errors="surrogateescape").splitlines():
        r = json.loads(line)
        records.append(r)
        streams.setdefault(r["loc"], []).append((r["t"], r["type"], hexbytes(r["payload"])))
    return streams, records, out.returncode


def compare_streams(name, want, got):
    if sorted(want) != sorted(got):
        only_w = sorted(set(want) - set(got))
        only_g = sorted(set(got) - set(want))
        fail("%s: stream sets differ: oracle-only %s, perfweave-only %s" % (name, only_w[:5], only_g[:5]))
    total = 0
    for key in sorted(set(want) & set(got)):
        w, g = want[key], got[key]
        total += len(w)
        if len(w) != len(g):
            fail("%s: %s: %d events in oracle, %d from perfweave" % (name, key, len(w), len(g)))
        for i, (a, b) in enumerate(zip(w, g)):
            if a != b:
                fail("%s: %s: event %d differs: oracle %r, perfweave %r" % (name, key, i, a, b))
                break
    return total


def check_serial_equals_parallel(pw, name, trace):
    """The two-thread pipeline (-j 2) and the epoch mode (-j 3) write the
    same bytes as the plain merge (-j 1), in both styles."""
    for style in ([], ["--jsonl"]):
        outs = [run([pw, "dump", trace, "-q", "-j", j] + style).stdout for j in ("1", "2", "3")]
        for j, out in zip(("2", "3"), outs[1:]):
            if out != outs[0]:
                fail("%s: dump %s differs between -j 1 and -j %s" % (name, " ".join(style), j))


def check_merge_order(name, records):
    last = None
    for i, r in enumerate(records):
        if last is not None and r["t"] < last:
            fail("%s: merged output not in clock order at record %d" % (name, i))
            return
        last = r["t"]


# Findings each fixture holds: (severity, code) pairs that `check` must print.
EXPECTED_FINDINGS = {
    # A header-only stream whose stream.json has no "finished" and no
    # "loom_cpus" (the test program never set them).
    "ctest-1.14.0/emu-ovni-empty-stream": [("warning", "ovni.empty-stream"),
                                           ("warning", "ovni.unfinished"),
                                           ("warning", "ovni.no-cpus"),
                                           ("warning", "ovniemu.cannot-emulate")],
    # A crashed thread: stream.json without "finished" nor "loom_cpus".
    "ctest-1.14.0/emu-ovni-thread-crash": [("warning", "ovni.unfinished"),
                                           ("warning", "ovni.no-cpus"),
                                           ("warning", "ovniemu.cannot-emulate")],
    # Events of an unknown model "X": ovniemu 1.14 stops at the first.
    "mix-1.14.0": [("warning", "ovniemu.unknown-model")],
    "mix-1.0.0": [("warning", "ovniemu.unknown-model")],
}


def check_findings(pw, name, trace):
    out = run([pw, "check", trace, "-q"])
    err = out.stderr.decode()
    found = re.findall(r"^perfweave: (note|warning|error): .* \[([\w.-]+)\]$", err, re.M)
    want = EXPECTED_FINDINGS.get(name, [])
    if sorted(found) != sorted(want):
        fail("%s: check findings %r, expected %r" % (name, found, want))
    if out.returncode != 0:
        fail("%s: check exited %d (expected 0): %s" % (name, out.returncode, err[-400:]))


def ints_in(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]


def check_descriptions(name, trace_dir, records):
    """ovnidump 1.10/1.14 print each known event with its payload values
    substituted: every decoded integer must appear in the description, in
    order, and a decoded string must appear in quotes."""
    text = read_oracle(os.path.join(trace_dir, "ovnidump.txt"))
    if text is None:
        return 0
    by_stream = {}
    for line in text.splitlines():
        m = re.match(r"^ *(\d+)  (...)  (\S+)  (.*)$", line)
        if m:
            by_stream.setdefault(stream_key_from_relpath(m.group(3)), []).append(m.group(4))
    position = {}
    checked = 0
    for r in records:
        i = position.get(r["loc"], 0)
        position[r["loc"]] = i + 1
        desc = by_stream.get(r["loc"], [])
        if i >= len(desc):
            fail("%s: %s: no description for event %d" % (name, r["loc"], i))
            return checked
        fields = {k: v for k, v in r.items() if k not in ("loc", "t", "type", "payload")}
        if not fields:
            continue
        d = desc[i]
        if d == "UNKNOWN":
            fail("%s: %s: ovnidump does not know %s but perfweave decoded it" % (name, r["loc"], r["type"]))
            continue
        numbers = ints_in(d)
        wanted = []
        for v in fields.values():
            if isinstance(v, list):
                # VWC: ovnidump shows only the first counter ("first N");
                # the whole array is checked byte for byte as the payload.
                wanted.extend(v[:1])
            elif isinstance(v, int):
                wanted.append(v)
            elif isinstance(v, str) and '"%s"' % v not in d:
                fail("%s: %s: string %r not in %r" % (name, r["type"], v, d))
        it = iter(numbers)
        if not all(any(w == n for n in it) for w in wanted):
            # Some descriptions print a value differently (e.g. as a hex
            # address or a name); report the first few for a person to see.
            fail("%s: %s %s: decoded %r not all in description %r" % (name, r["loc"], r["type"], fields, d))
        checked += 1
    return checked


def check_stats(pw, name, trace, want):
    """`stats --json` against figures computed here from the oracle."""
    out = run([pw, "stats", trace, "--json", "-q"])
    if out.returncode != 0:
        fail("%s: stats exited %d" % (name, out.returncode))
        return
    st = json.loads(out.stdout)
    trace = st["trace"]
    events = [e for evs in want.values() for e in evs]
    if trace["events"] != len(events):
        fail("%s: stats events %d, oracle %d" % (name, trace["events"], len(events)))
    per_mcv = {}
    for _, mcv, _ in events:
        per_mcv[mcv] = per_mcv.get(mcv, 0) + 1
    got_mcv = {r["mcv"]: r["events"] for r in st.get("per_event_type", [])}
    if got_mcv != per_mcv:
        fail("%s: per-MCV counts differ" % name)
    per_model = {}
    for mcv, n in per_mcv.items():
        per_model[mcv[0]] = per_model.get(mcv[0], 0) + n
    if {r["model"]: r["events"] for r in st.get("per_model", [])} != per_model:
        fail("%s: per-model counts differ" % name)
    # Jumbo events are those whose payload starts with its own length.
    sizes, jumbo_bytes = {}, 0
    for _, mcv, payload in events:
        is_jumbo = len(payload) > 16 or (
            mcv in JUMBO_MCVS and int.from_bytes(payload[:4], "little") == len(payload) - 4)
        key = "jumbo" if is_jumbo else str(len(payload))
        sizes[key] = sizes.get(key, 0) + 1
        jumbo_bytes += len(payload) - 4 if is_jumbo else 0
    got_sizes = {r["payload"]: r["events"] for r in st.get("payload_sizes", [])}
    if got_sizes != sizes:
        fail("%s: payload-size histogram %r, oracle %r" % (name, got_sizes, sizes))
    if trace["jumbo_bytes"] != jumbo_bytes:
        fail("%s: jumbo bytes %d, oracle %d" % (name, trace["jumbo_bytes"], jumbo_bytes))
    per_stream = {r["stream"]: r for r in st.get("per_stream", [])}
    for key, evs in want.items():
        r = per_stream.get(key)
        if r is None or r["events"] != len(evs) or r["first_ns"] != evs[0][0] \
                or r["last_ns"] != evs[-1][0]:
            fail("%s: %s: per-stream figures differ: %r" % (name, key, r))


# A payload over 16 bytes can only be jumbo; shorter jumbo payloads look
# like normal ones in ovnidump's text, so these are the MCVs the fixtures
# write as jumbo events (the mix test program's XJ0..XJ8 with data sizes
# 0..65536, and the models' jumbo events of ovni-events.tsv).
JUMBO_MCVS = {"XJ%d" % i for i in range(10)} | {"6Yc", "VYc", "VWC", "POc", "OB."}


def fixtures(shared):
    """(name, trace dir, oracle path, style) for every ovni trace."""
    root = os.path.join(shared, "ovni")
    out = []
    for top in sorted(os.listdir(root)):
        if top == "ctest-1.14.0":
            for t in sorted(os.listdir(os.path.join(root, top))):
                out.append(("%s/%s" % (top, t), os.path.join(root, top, t)))
        else:
            out.append((top, os.path.join(root, top)))
    result = []
    for name, d in out:
        if name.startswith("mix-1.0.0"):
            result.append((name, d, "ovnidump.txt", "1.0.0"))
        elif name.startswith("emu-1.4.1"):
            result.append((name, d, "ovnidump.txt", "1.4.1"))
        else:
            result.append((name, d, "ovnidump-x.txt", "x"))
    return result


def main():
    pw, shared = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(shared, "ovni")):
        print("FAIL: fixtures missing: %s/ovni" % shared, file=sys.stderr)
        return 1
    cases = fixtures(shared)
    if len(cases) < 13:
        fail("expected 13 ovni fixtures, found %d" % len(cases))
    passed = 0
    for name, d, oracle_name, style in cases:
        before = len(FAILURES)
        text = read_oracle(os.path.join(d, oracle_name))
        if text is None:
            fail("%s: oracle %s missing" % (name, oracle_name))
            continue
        want = parse_oracle(text, style)
        got, records, rc = perfweave_streams(pw, d)
        if rc != 0:
            fail("%s: dump exited %d on an undamaged trace" % (name, rc))
        n = compare_streams(name, want, got)
        check_merge_order(name, records)
        check_serial_equals_parallel(pw, name, d)
        check_findings(pw, name, d)
        check_stats(pw, name, d, want)
        described = check_descriptions(name, d, records) if style == "x" else 0
        if len(FAILURES) == before:
            passed += 1
            print("ok %s: %d events in %d streams, %d decoded events checked" % (name, n, len(want), described))
    print("%d passed, %d failed" % (passed, len(cases) - passed))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
